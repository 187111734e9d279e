"""The values of a record's JSON: the format's vocabulary, and reading one value strictly,
every problem named by the field's path (``sanggong.records``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, NoReturn

__all__ = [
    "AMOUNTS",
    "FORMAT",
    "KIND_NAMES",
    "MONEY_KINDS",
    "U32",
    "U64",
    "U128",
    "ZERO_HASH",
    "check_hash",
    "check_int",
    "check_keys",
    "copy_json",
    "fail",
    "int_text",
    "show"
]

FORMAT: Final = 1
"""The record format this version writes and reads (a record's ``format`` field)."""

ZERO_HASH: Final = "0" * 64
"""The ``prev`` of a game's first record."""

MONEY_KINDS: dict[str, type] = {"int": int, "decimal": Decimal, "fraction": Fraction}
"""A record's ``money`` field: the kind of money of its stakes, by name."""
KIND_NAMES = {kind: name for name, kind in MONEY_KINDS.items()}
AMOUNTS = ("stake", "returned", "commission", "carried", "net")
"""The money fields of a bet's result."""

U32, U64, U128 = 2**32, 2**64, 2**128
_NATURAL = re.compile(r"0|[1-9][0-9]*")


def show(value: object) -> str:
    """A short, safe description of a value from a record (never a huge repr)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"an int of {value.bit_length()} bits"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if isinstance(value, Mapping):
        return f"an object of {len(value)} keys"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    return f"a {type(value).__name__}"


def fail(name: str, expected: str, value: object, error: type[Exception] = TypeError) -> NoReturn:
    raise error(f"field {name!r}: expected {expected}, got {show(value)}")


def check_keys(data: Mapping[Any, Any], required: Sequence[str], optional: Sequence[str], path: str) -> None:
    prefix = f"{path}." if path else ""
    unknown = [k for k in data if k not in required and k not in optional]
    if unknown:
        key = unknown[0]
        shown = repr(prefix + key) if isinstance(key, str) and len(key) <= 40 else f"{prefix}{show(key)}"
        raise ValueError(f"field {shown}: not a field of {'a record' if not path else repr(path)}")
    for name in required:
        if name not in data:
            raise ValueError(f"field {prefix + name!r}: missing")


def check_hash(value: object, name: str) -> str:
    """An argument that names a record by its hash (``start_prev``, ``expect_last``):
    64 lower-case hex digits, else TypeError or ValueError naming ``name``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a hash (64 hex digits), not {type(value).__name__}")
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise ValueError(f"{name} must be a record's hash: 64 lower-case hex digits, got {show(value)}")
    return value


def check_int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(name, "an integer", value)
    if not low <= value <= high:
        top = f"2**{high.bit_length()} - 1" if high > U64 and not high & (high + 1) else str(high)
        fail(name, f"an integer in {low}..{top}", value, ValueError)
    return value


def int_text(value: object, name: str, low: int, high: int) -> int:
    """An integer written as decimal text (no sign, no leading zero), as a record writes
    the integers that pass what a JSON number holds exactly (seeds, generator states)."""
    if not isinstance(value, str):
        fail(name, "an integer written as a string", value)
    top = f"2**{high.bit_length()} - 1" if high > U64 and not high & (high + 1) else str(high)
    if len(value) > len(str(high)) or not _NATURAL.fullmatch(value):
        fail(name, f"an integer in {low}..{top}, written as a string", value, ValueError)
    number = int(value)
    if not low <= number <= high:
        fail(name, f"an integer in {low}..{top}", value, ValueError)
    return number


def copy_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [copy_json(v) for v in value]
    return value
