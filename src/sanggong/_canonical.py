"""The JSON sanggong writes and reads: canonical bytes to hash and sign, and one strict
reading of every JSON it is given (records, rule files, tags files).

**Reading.** ``loads_strict`` refuses an object with a key given twice (``{"tie": 80,
"tie": 8}`` is refused, not read as 8), NaN and the infinities, in every JSON input, as
TOML refuses a repeated key by its own grammar.

**Writing.** Canonical JSON is what record hashes, HMACs and rule-set digests are taken over.

The form is RFC 8785, the JSON Canonicalization Scheme (JCS), for the values sanggong
writes: objects with string keys, arrays, strings, ``true``/``false``/``null`` and
integers within I-JSON's exact range (``|n| <= 2**53 - 1``; anything larger, a seed or a
bit generator's state, is written as a decimal string, and money is always a string).
No floats are ever written. In that domain JCS is: keys of every object sorted by their
UTF-16 code units, no whitespace, strings with only ``"``, ``\\`` and U+0000..U+001F
escaped (``\\b \\f \\n \\r \\t``, the others ``\\u00xx`` in lower-case hex), integers in
plain decimal, then UTF-8. Any JCS library (Python's ``rfc8785``, Java's, Go's, ...)
gives the same bytes for the same JSON value; the tests check this module against the
``rfc8785`` package.

Python's ``json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
writes exactly this, except that it sorts keys by code point: the two orders differ only
between a key with a character beyond U+FFFF and one with a character in
U+E000..U+FFFF, so such objects are sorted here by UTF-16 before they are written.

>>> canonical_json({"b": [1, "é\\n"], "a": None, "c": {"y": True, "x": -0}})
b'{"a":null,"b":[1,"\\xc3\\xa9\\\\n"],"c":{"x":0,"y":true}}'
>>> canonical_json({"n": 2**53})
Traceback (most recent call last):
...
ValueError: 9007199254740992 is beyond the integers JSON holds exactly (|n| <= 2**53 - 1): write it as a string
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_JSON_INT", "DuplicateKey", "canonical_json", "loads_strict"]

MAX_JSON_INT = 2**53 - 1
"""The largest integer I-JSON (RFC 7493) and JCS hold exactly."""


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _check(value: Any) -> Any:
    """``value`` as JCS writes it: every integer within range, no float, string keys;
    objects whose keys need it re-ordered by UTF-16 (see the module's doc)."""
    if isinstance(value, str) or value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if not -MAX_JSON_INT <= value <= MAX_JSON_INT:
            raise ValueError(f"{value} is beyond the integers JSON holds exactly (|n| <= 2**53 - 1): "
                             "write it as a string")
        return int(value)
    if isinstance(value, Mapping):
        out = {}
        astral = False
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a JSON object's keys are strings, not {type(key).__name__}")
            astral = astral or (not str.isascii(key) and any(ord(c) > 0xFFFF for c in key))
            text = str.__str__(key)  # (a str subclass's own __str__, __hash__ and __eq__ never asked)
            if text in out:
                raise ValueError(f"a JSON object's key {text!r} is given twice"[:200])
            out[text] = _check(item)
        if astral:  # code point order is not UTF-16 order here: write them in the latter
            return dict(sorted(out.items(), key=lambda item: _utf16(item[0])))
        return dict(sorted(out.items()))
    if isinstance(value, list | tuple):
        return [_check(item) for item in value]
    raise TypeError(f"{type(value).__name__} is not a JSON value sanggong writes (no floats)")


def canonical_json(value: Any) -> bytes:
    """The RFC 8785 canonical bytes of a JSON value (see the module's doc).

    :raises TypeError: a float, or anything else that is not a JSON value; a key that
        is not a string.
    :raises ValueError: an integer beyond ``MAX_JSON_INT``, or text that is not valid
        Unicode (a lone surrogate).
    """
    text = json.dumps(_check(value), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("the value holds text that is not valid Unicode (a lone surrogate)") from None


class DuplicateKey(ValueError):
    """A JSON object names one key twice."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            shown = repr(key) if len(key) <= 40 else repr(key[:40]) + "..."
            raise DuplicateKey(f"the key {shown} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON holds")


def loads_strict(text: str, **hooks: Any) -> Any:
    """``json.loads`` that refuses a repeated key in any object (``DuplicateKey``) and
    NaN or an infinity; ``hooks`` (``parse_int``, ``parse_float``) are passed on.

    >>> loads_strict('{"tie": 80, "tie": 8}')
    Traceback (most recent call last):
    ...
    sanggong._canonical.DuplicateKey: the key 'tie' appears twice in one object

    :raises ValueError: not JSON (``json.JSONDecodeError``), a repeated key, NaN.
    :raises RecursionError: nested too deeply (callers say so in their own words).
    """
    hooks.setdefault("parse_constant", _no_constant)
    return json.loads(text, object_pairs_hook=_unique, **hooks)
