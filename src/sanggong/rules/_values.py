"""Checking one field of a rule set: each value bounded before it is expanded, each
problem named (``sanggong.rules``: the constructor of ``RuleSet`` runs these)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from decimal import Context, Decimal
from fractions import Fraction

from .._text import show
from ..limits import MAX_DECIMAL_EXPONENT, MAX_DENOMINATOR, MAX_NAME_LENGTH, MAX_ODDS, MAX_TEXT_NUMBER

__all__ = [
    "FrozenMap",
    "check_int",
    "check_minor_unit",
    "check_name",
    "check_number",
    "check_odds",
    "check_table",
    "fraction_text",
]

# Odds and rates as text: an integer, a decimal or a ratio of integers, ASCII digits
# only and never an exponent, so that Fraction() never expands 10**huge.
_RATIO_RE = re.compile(r"[+-]?(?:[0-9]+/[0-9]+|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
# A minor unit as text: Decimal() reads an exponent without expanding it, and the
# exponent is bounded right after.
_DECIMAL_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


class FrozenMap(Mapping[str, Fraction]):
    """A read-only, hashable table of odds (so that rule sets can key caches)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Fraction]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Fraction:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __repr__(self) -> str:
        return repr(self._items)


def check_int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an int, got {show(value)}")
    if value < low:
        raise ValueError(f"{name}: must be at least {low}, got {show(value)}")
    if value > high:
        raise ValueError(f"{name}: must be at most {high}, got {show(value)}")
    return int(value)


def check_number(value: object, name: str, high: Fraction, *, below: bool = False) -> Fraction:
    """An exact non-negative number at most ``high`` (below it if ``below``) with a
    denominator of at most ``MAX_DENOMINATOR``, bounded before anything is expanded."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected a number, got {value!r}")
    if isinstance(value, int | Fraction):
        result = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{name}: expected a finite number, got {value!r}")
        if value < 0:
            raise ValueError(f"{name}: must not be negative, got {value!r}")
        if value > high:
            raise ValueError(f"{name}: must be {'below' if below else 'at most'} {high}, got {value!r}")
        result = Fraction(repr(value))  # the shortest text that reads back as this float
    elif isinstance(value, str):
        if len(value) > MAX_TEXT_NUMBER:
            raise ValueError(f"{name}: a number as text has at most {MAX_TEXT_NUMBER} characters, "
                             f"got {len(value)}")
        if not _RATIO_RE.fullmatch(value):
            raise ValueError(f"{name}: {value!r} is not a number (expected an int or text such as "
                             "'1/2' or '0.05', without an exponent)")
        try:
            result = Fraction(value)
        except ZeroDivisionError:
            raise ValueError(f"{name}: {value!r} divides by zero") from None
    elif isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        if not value.is_finite() or not isinstance(exponent, int):
            raise ValueError(f"{name}: expected a finite number, got {show(value)}")
        if abs(exponent) > MAX_DECIMAL_EXPONENT or len(value.as_tuple().digits) > MAX_TEXT_NUMBER:
            raise ValueError(f"{name}: {show(value)} is out of range")
        result = Fraction(value)
    else:
        raise TypeError(f"{name}: expected a number (an int, or text such as '1/2'), got {show(value)}")
    if result < 0:
        raise ValueError(f"{name}: must not be negative, got {show(value)}")
    if result > high or (below and result == high):
        raise ValueError(f"{name}: must be {'below' if below else 'at most'} {high}, got {show(value)}")
    if result.denominator > MAX_DENOMINATOR:
        raise ValueError(f"{name}: {show(value)} has a denominator above {MAX_DENOMINATOR}")
    return result


def fraction_text(value: Fraction) -> str | int:
    return value.numerator if value.denominator == 1 else str(value)


def check_table(value: object, name: str) -> dict[str, object]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{name}: expected a table of odds, got {show(value)}")
    for key in value:
        if not isinstance(key, str):
            raise TypeError(f"{name}: keys are names (strings), got {show(key)}")
    return dict(value)


def check_odds(table: Mapping[str, object], name: str) -> FrozenMap:
    return FrozenMap({k: check_number(v, f"{name}.{k}", Fraction(MAX_ODDS)) for k, v in table.items()})


def check_minor_unit(value: object) -> Decimal:
    """A positive Decimal, canonical (``0.010`` is ``0.01``, ``1E+2`` is ``100``), of at
    most ``MAX_TEXT_NUMBER`` characters, its exponent within +-``MAX_DECIMAL_EXPONENT``."""
    name = "minor_unit"
    if isinstance(value, (bool, float)):
        raise TypeError(f"{name}: expected a Decimal, an int or decimal text such as '0.01', got "
                        f"{show(value)} (money is never a float)")
    if isinstance(value, int):
        if not 0 < value <= 10**MAX_DECIMAL_EXPONENT:
            raise ValueError(f"{name}: must be a positive amount of at most 1E+{MAX_DECIMAL_EXPONENT}, "
                             f"got {show(value)}")
        unit = Decimal(value)
    elif isinstance(value, str):
        if len(value) > MAX_TEXT_NUMBER or not _DECIMAL_RE.fullmatch(value):
            raise ValueError(f"{name}: expected decimal text such as '0.01', got {show(value)}")
        unit = Decimal(value)
    elif isinstance(value, Decimal):
        unit = value
    else:
        raise TypeError(f"{name}: expected a Decimal, an int or decimal text such as '0.01', got {show(value)}")
    if not unit.is_finite() or unit <= 0:
        raise ValueError(f"{name}: must be a positive amount, got {show(value)}")
    digits = len(unit.as_tuple().digits)
    if not -MAX_DECIMAL_EXPONENT <= unit.adjusted() <= MAX_DECIMAL_EXPONENT or digits > MAX_TEXT_NUMBER:
        raise ValueError(f"{name}: must lie within 1E-{MAX_DECIMAL_EXPONENT} .. 1E+{MAX_DECIMAL_EXPONENT} "
                         f"with at most {MAX_TEXT_NUMBER} digits, got {show(value)}")
    canonical = unit.normalize(Context(prec=digits))  # exact: as many digits as it has
    exponent = canonical.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    if exponent < -MAX_DECIMAL_EXPONENT:
        raise ValueError(f"{name}: its exponent must lie within +-{MAX_DECIMAL_EXPONENT}, got {show(value)}")
    if exponent > 0:
        canonical = Decimal(int(canonical))  # 1E+2 is 100: at most 31 digits, by adjusted()
    if len(str(canonical)) > MAX_TEXT_NUMBER:
        raise ValueError(f"{name}: has more than {MAX_TEXT_NUMBER} characters as text, got {show(value)}")
    return canonical


def check_name(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"name: expected a non-empty string, got {show(value)}")
    if not value.strip():
        raise ValueError(f"name: expected a non-empty string, got {show(value)}")
    if len(value) > MAX_NAME_LENGTH:
        raise ValueError(f"name: at most {MAX_NAME_LENGTH} characters, got {len(value)}")
    if not value.isprintable():
        raise ValueError(f"name: must be printable (no control characters), got {show(value)}")
    return value
