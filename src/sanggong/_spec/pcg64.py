"""numpy's PCG64 and its seeding, specified in plain Python: the words numpy's
``PCG64(SeedSequence(entropy, spawn_key=..., pool_size=...))`` draws, without NumPy.

A replay of a record deals from the record's PCG64 state, or from its seed through numpy's
``SeedSequence``; a command that replays a log (``sanggong verify``) then needs no NumPy but
for these, so they are written here once: ``seeded_pcg64_state`` is numpy's seeding (the
``SeedSequence`` hash of the entropy into its pool, the pool's words generated, PCG64's
``set_seed``), ``check_pcg64_state`` what numpy's ``PCG64.state`` takes, and ``PCG64`` the
generator itself, drawn from as numpy's is (``random_raw``, ``next_uint32`` with its buffered
half-word, ``next_double``). The compiled core's ``PCG64`` (``csrc/sg_pcg64.h``) is the
same generator in C, exposing numpy's ``bitgen_t`` so that every kernel draws from it
unchanged; this class is its twin. The test suite holds both to numpy's own, word for word
and state for state.

References: numpy's ``numpy/random/bit_generator.pyx`` (``SeedSequence``: ``hashmix``, ``mix``,
``mix_entropy``, ``generate_state``) and ``numpy/random/src/pcg64/pcg64.h`` (PCG XSL RR
128/64, M. E. O'Neill, 2014).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["PCG64", "check_pcg64_state", "seed_words", "seeded_pcg64_state"]

_MASK32 = (1 << 32) - 1
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1

# SeedSequence's constants (numpy.random.bit_generator)
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16

PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
"""PCG64's 128-bit multiplier (numpy's ``PCG_DEFAULT_MULTIPLIER_128``)."""

_NAME = "PCG64"


def _words32(value: Any) -> list[int]:
    """numpy's ``_coerce_to_uint32_array``: an int as its 32-bit words, least significant
    first (0 as one word), a sequence as its items' words one after the other."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):  # (a set has no order: numpy's refused)
            raise TypeError(f"SeedSequence entropy is an int or a sequence of ints, not {type(value).__name__}")
        return [w for item in value for w in _words32(item)]
    if value < 0:
        raise ValueError("SeedSequence entropy is a non-negative int")
    out = [value & _MASK32]
    value >>= 32
    while value:
        out.append(value & _MASK32)
        value >>= 32
    return out


def _pool(entropy: Any, spawn_key: Iterable[int], pool_size: int) -> list[int]:
    """``SeedSequence(entropy, spawn_key=spawn_key, pool_size=pool_size).pool``."""
    run = _words32(entropy)
    spawn = _words32(tuple(spawn_key))
    if spawn and len(run) < pool_size:
        run += [0] * (pool_size - len(run))
    assembled = run + spawn
    hash_const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value ^= hash_const
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = (value * hash_const) & _MASK32
        return value ^ (value >> _XSHIFT)

    def mix(x: int, y: int) -> int:
        result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
        return result ^ (result >> _XSHIFT)

    pool = [hashmix(assembled[i] if i < len(assembled) else 0) for i in range(pool_size)]
    for src in range(pool_size):
        for dst in range(pool_size):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(pool_size, len(assembled)):
        for dst in range(pool_size):
            pool[dst] = mix(pool[dst], hashmix(assembled[src]))
    return pool


def seed_words(entropy: Any, n_words: int, spawn_key: Iterable[int] = (), pool_size: int = 4) -> list[int]:
    """``SeedSequence(entropy, spawn_key=..., pool_size=...).generate_state(n_words,
    np.uint64)``: ``n_words`` 64-bit words, each two 32-bit words of the pool's stream, the
    first the low half."""
    if pool_size < 4:
        raise ValueError(f"pool_size must be at least 4, got {pool_size}")
    if n_words < 0:  # (numpy's: negative dimensions)
        raise ValueError(f"n_words must be at least 0, got {n_words}")
    pool = _pool(entropy, spawn_key, pool_size)
    hash_const = _INIT_B
    halves = []
    for i in range(2 * n_words):
        value = pool[i % pool_size] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        halves.append(value ^ (value >> _XSHIFT))
    return [halves[2 * i] | halves[2 * i + 1] << 32 for i in range(n_words)]


def _step(state: int, inc: int) -> int:
    return (state * PCG64_MULTIPLIER + inc) & _MASK128


def seeded_pcg64_state(entropy: Any, spawn_key: Iterable[int] = (), pool_size: int = 4) -> dict[str, Any]:
    """``numpy.random.PCG64(SeedSequence(entropy, spawn_key=..., pool_size=...)).state``:
    PCG64's ``set_seed`` of the sequence's first four 64-bit words (the initial state from
    the first two, the stream from the last two), as numpy's ``state`` dict.

    :raises TypeError: entropy that is neither an int nor a sequence of ints.
    :raises ValueError: a negative int, or a pool smaller than 4.
    """
    words = seed_words(entropy, 4, spawn_key, pool_size)
    initial, sequence = words[0] << 64 | words[1], words[2] << 64 | words[3]
    inc = (sequence << 1 | 1) & _MASK128
    state = _step((_step(0, inc) + initial) & _MASK128, inc)
    return {"bit_generator": _NAME, "state": {"state": state, "inc": inc}, "has_uint32": 0, "uinteger": 0}


def check_pcg64_state(value: object) -> tuple[int, int, int, int]:
    """What numpy's ``PCG64.state = value`` takes, checked: a dict naming PCG64, its
    ``state`` and ``inc`` 128-bit ints, ``has_uint32`` 0 or 1 and ``uinteger`` a 32-bit
    int; returns (state, inc, has_uint32, uinteger).

    :raises TypeError: not a dict, or a value that is not an int.
    :raises ValueError: another generator's state, a missing key, a value out of range.
    """
    if not isinstance(value, dict):  # (as numpy's: a mapping of another kind is refused)
        raise TypeError("state must be a dict")
    generator = value.get("bit_generator")
    if not isinstance(generator, str) or generator != _NAME:
        raise ValueError(f"state must be for a {_NAME} PRNG")
    inner = value.get("state")
    if not isinstance(inner, Mapping):
        raise ValueError("state['state'] must be a dict of 'state' and 'inc'")
    out = []
    for got, name, top in ((inner.get("state"), "state", _MASK128), (inner.get("inc"), "inc", _MASK128),
                           (value.get("has_uint32"), "has_uint32", 1), (value.get("uinteger"), "uinteger", _MASK32)):
        if isinstance(got, bool) or not isinstance(got, int):
            raise TypeError(f"state's {name} must be an int, not {type(got).__name__}")
        # its value, as numpy's setter does arithmetic on it: an int subclass's own __int__,
        # __index__ or comparisons may say another number (checked and kept: the exact int)
        number = int.__index__(got)
        if not 0 <= number <= top:
            shown = number if number.bit_length() <= 128 else f"a {number.bit_length()}-bit int"
            raise ValueError(f"state's {name} must be in 0..{top}, got {shown}")
        out.append(number)
    return out[0], out[1], out[2], out[3]


class PCG64:
    """numpy's PCG64 in Python: the compiled core's ``PCG64``'s twin (the kernels of the
    pure-Python twin draw from it by ``random_raw``, as from numpy's).

    :param state: a state as ``state`` holds it (``seeded_pcg64_state``'s, or numpy's
        ``PCG64.state``); None: the state 0 of the stream 1 (a generator to set a state on).
    """

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        self.lock = threading.Lock()
        self._state, self._inc, self._has_uint32, self._uinteger = 0, 1, 0, 0
        if state is not None:
            self.state = state

    @property
    def state(self) -> dict[str, Any]:
        """The generator's state, as numpy's ``PCG64.state`` gives it (a fresh dict)."""
        with self.lock:
            return {"bit_generator": _NAME, "state": {"state": self._state, "inc": self._inc},
                    "has_uint32": self._has_uint32, "uinteger": self._uinteger}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        checked = check_pcg64_state(value)
        with self.lock:
            self._state, self._inc, self._has_uint32, self._uinteger = checked

    def random_raw(self) -> int:
        """The next 64-bit word (numpy's ``next_uint64``, which ``random_raw`` draws)."""
        with self.lock:
            return self._next()

    def _next(self) -> int:
        self._state = state = _step(self._state, self._inc)
        high, low = state >> 64, state & _MASK64
        x, rot = high ^ low, high >> 58
        return ((x >> rot) | (x << (-rot & 63))) & _MASK64

    def next_uint32(self) -> int:
        """The next 32-bit word: the low half of a new 64-bit word, then its high half."""
        with self.lock:
            if self._has_uint32:
                self._has_uint32 = 0
                return self._uinteger
            word = self._next()
            self._has_uint32, self._uinteger = 1, word >> 32
            return word & _MASK32

    def next_double(self) -> float:
        """A double in [0, 1): the top 53 bits of the next 64-bit word."""
        return (self.random_raw() >> 11) * (1.0 / 9007199254740992.0)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.state,)
