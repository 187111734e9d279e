"""Bit generator states: a record's ``shoe_state``, the generator's state at the shuffle,
as plain JSON, checked against its generator's schema before numpy sees it
(``sanggong.records``). A PCG64 state (numpy's default, every ``Game`` of a seed deals
from one) is restored into the kernels' own PCG64 (``_spec.pcg64``, the core's
``csrc/pcg64.pxi``), numpy's in every word and state, so that a replay of a ``Game``'s log
imports no NumPy; the other generators are numpy's own."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Final

from .. import _kernels
from ._values import U32, U64, U128, check_keys, int_text, show

__all__ = ["REPLAYABLE", "bit_generator_from_state", "check_state", "state_json"]

REPLAYABLE: Final = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
"""The numpy bit generators whose state a record carries and a replay restores."""

# Each replayable bit generator's state as JSON: ("int", low, high) an int in
# [low, high); ("ints", n, high) a list of n ints in [0, high) (a numpy array of the
# matching dtype); a dict: exactly these keys.
_Schema = Any
_EXTRA: dict[str, _Schema] = {"has_uint32": ("int", 0, 2), "uinteger": ("int", 0, U32)}
_STATE_SCHEMAS: dict[str, dict[str, _Schema]] = {
    "PCG64": {"state": {"state": ("int", 0, U128), "inc": ("int", 0, U128)}, **_EXTRA},
    "PCG64DXSM": {"state": {"state": ("int", 0, U128), "inc": ("int", 0, U128)}, **_EXTRA},
    "Philox": {"state": {"counter": ("ints", 4, U64), "key": ("ints", 2, U64)},
               "buffer": ("ints", 4, U64), "buffer_pos": ("int", 0, 5), **_EXTRA},
    "SFC64": {"state": {"state": ("ints", 4, U64)}, **_EXTRA},
    "MT19937": {"state": {"key": ("ints", 624, U32), "pos": ("int", 0, 625)}},
}
assert tuple(_STATE_SCHEMAS) == REPLAYABLE


def state_json(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """A live bit generator's ``state`` as plain JSON, as a record's ``shoe_state`` holds
    it: every integer as its decimal text (they pass what JSON numbers hold exactly),
    arrays as lists of them; None for a bit generator a record cannot name (one not in
    ``REPLAYABLE``).

    >>> import numpy as np
    >>> state = state_json(np.random.PCG64(1).state)
    >>> state["bit_generator"], check_state(state) == state
    ('PCG64', True)
    """
    name = state.get("bit_generator")
    if name not in _STATE_SCHEMAS:
        return None

    np = sys.modules.get("numpy")  # (a state holds numpy's types only where NumPy is imported)

    def plain(value: Any) -> Any:  # every integer as its decimal text (I-JSON: they pass 2**53)
        if isinstance(value, Mapping):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if np is not None and isinstance(value, np.ndarray):
            return [str(int(x)) for x in value.tolist()]
        if np is not None and isinstance(value, np.integer):
            return str(int(value))
        return value

    out: dict[str, Any] = plain(state)
    return out


def check_state(value: object) -> dict[str, Any]:
    """Check a record's ``shoe_state`` against its bit generator's schema (the name on the
    allow-list, every key, type and range) and return a fresh copy.

    :raises TypeError: a value of a wrong JSON type, naming its path.
    :raises ValueError: a name not in ``REPLAYABLE``, a missing or unknown key, a value
        out of range, or a state the generator never reaches, naming its path.
    """
    if not isinstance(value, Mapping):
        raise TypeError(f"field 'shoe_state': expected an object or null, got {show(value)}")
    name = value.get("bit_generator")
    if not isinstance(name, str) or name not in _STATE_SCHEMAS:
        raise ValueError(f"field 'shoe_state.bit_generator': {show(name)} is not a bit generator a record "
                         f"may name ({', '.join(REPLAYABLE)})")
    schema: dict[str, _Schema] = {"bit_generator": None, **_STATE_SCHEMAS[name]}

    def check(value: object, schema: _Schema, path: str) -> Any:
        if schema is None:
            return value
        if isinstance(schema, dict):
            if not isinstance(value, Mapping):
                raise TypeError(f"field {path!r}: expected an object, got {show(value)}")
            check_keys(value, tuple(schema), (), path)
            return {k: check(value[k], s, f"{path}.{k}") for k, s in schema.items()}
        if schema[0] == "int":
            return str(int_text(value, path, schema[1], schema[2] - 1))
        if not isinstance(value, list):
            raise TypeError(f"field {path!r}: expected a list of {schema[1]} integers, got {show(value)}")
        if len(value) != schema[1]:
            raise ValueError(f"field {path!r}: expected {schema[1]} integers, got {len(value)}")
        return [str(int_text(x, f"{path}[{i}]", 0, schema[2] - 1)) for i, x in enumerate(value)]

    state: dict[str, Any] = check(value, schema, "shoe_state")
    inner = state["state"]
    if name in ("PCG64", "PCG64DXSM") and not int(inner["inc"]) % 2:
        # numpy's seeding makes the increment odd; an even one can stall the generator
        raise ValueError("field 'shoe_state.state.inc': must be odd")
    if name == "MT19937" and not (int(inner["key"][0]) & 0x80000000 or any(k != "0" for k in inner["key"][1:])):
        raise ValueError("field 'shoe_state.state.key': the all-zero state of MT19937 never leaves zero")
    return state


def bit_generator_from_state(state: object) -> Any:
    """A new bit generator of a record's (allow-listed, fully checked) ``shoe_state``:
    for PCG64 the kernels' own (``_kernels.kernels.PCG64``: numpy's words, without
    NumPy), for the others numpy's.

    Only the classes of ``REPLAYABLE`` are ever made; the state is checked before numpy
    sees it, and a state numpy does not take exactly as given raises ValueError.

    >>> import numpy as np
    >>> original = np.random.Philox(5)
    >>> copy = bit_generator_from_state(state_json(original.state))
    >>> type(copy).__name__, copy.random_raw() == original.random_raw()
    ('Philox', True)
    """
    checked = check_state(state)
    name = checked["bit_generator"]
    bit_generator: Any
    if name == "PCG64":  # the kernels' own: a replay of a Game's log needs no NumPy
        bit_generator = _kernels.kernels.PCG64()
    else:
        import numpy as np

        others: dict[str, type[np.random.BitGenerator]] = {
            "PCG64DXSM": np.random.PCG64DXSM, "Philox": np.random.Philox, "SFC64": np.random.SFC64,
            "MT19937": np.random.MT19937,
        }
        cls = others[name]
        bit_generator = cls(0)
        dtype = np.uint32 if name == "MT19937" else np.uint64

    def native(value: Any, key: str = "") -> Any:  # (lists: the states of numpy's generators alone)
        if isinstance(value, dict):
            return {k: native(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return np.array([int(x) for x in value], dtype=dtype)
        return value if key == "bit_generator" else int(value)

    try:
        bit_generator.state = native(checked)
    except (ValueError, TypeError, OverflowError, KeyError) as exc:  # pragma: no cover - checked above
        raise ValueError(f"field 'shoe_state': numpy refuses this state ({exc})") from None
    if state_json(bit_generator.state) != checked:
        raise ValueError("field 'shoe_state': numpy does not take this state as given")
    return bit_generator
