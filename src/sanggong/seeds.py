"""Seeds: what every entry point that takes randomness accepts, checks and records.

A seed is an ``int`` (0 .. ``limits.MAX_SEED``), a numpy ``SeedSequence``, a ``Seed``
(what a result records), a numpy ``Generator`` or ``BitGenerator`` (as
``numpy.random.default_rng`` takes them: drawn from, see below) or None (fresh OS entropy,
which is recorded). ``check_seed`` is
the one function every entry point (``Game``, ``deal_batch``, ``simulate``,
``simulate_sessions``, ``play_shoes``, ``design``, the command line) passes its seed
through: it bounds the size of what it is given *before* numpy digests any of it (an int
of millions of bits would otherwise take numpy seconds to hash), and returns the
sequence to draw from with the seed to record.

**A recorded seed re-creates the run.** A plain int is recorded as itself. Anything else
(a sequence spawned from another, one with list entropy or another pool size, or one
that has already spawned children, from whose count the chunks' seeds continue) is
recorded whole, as a ``Seed``: entropy, spawn key, pool size and the children it had
spawned. Passing a result's ``seed`` back deals the same rounds, bit for bit.

**A Generator is drawn from, as numpy's own functions draw from one** (SPEC 7's ``rng``):
the run takes a 256-bit seed from it, four ``uint64`` words (``integers(0, 2**64, 4,
dtype=uint64)``, word 0 lowest), which advances it, so that two runs given one
generator differ, as two draws from it do. The seed drawn is what the result records:
an int, which re-creates the run bit for bit. Recording the generator's state instead
would not: the work is cut into chunks, each seeded by its own child of one
``SeedSequence`` so that the result does not depend on the workers, and a bit
generator's state is no ``SeedSequence`` (nor can it be turned into one), so a recorded
state would not re-create the chunks. (``Game(rng=...)``, which deals round after round
from one bit generator, draws from the one it is given and records its state.)

>>> import numpy as np
>>> rng = np.random.default_rng(7)
>>> sequence, drawn = check_seed(rng)
>>> words = np.random.default_rng(7).integers(0, 2**64, 4, dtype=np.uint64)
>>> drawn == sum(int(w) << (64 * i) for i, w in enumerate(words)), check_seed(drawn)[1] == drawn
(True, True)
>>> check_seed(rng)[1] != drawn          # the generator moved on
True

>>> check_seed(42)[1]
42
>>> sequence = np.random.SeedSequence(42)
>>> _ = sequence.spawn(3)
>>> check_seed(sequence)[1]
Seed(entropy=42, spawn_key=(), pool_size=4, n_children_spawned=3)
>>> check_seed(2**300)
Traceback (most recent call last):
...
ValueError: seed must be an int in 0..2**256 - 1, got a 301-bit number
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsIndex, TypeAlias, TypeGuard

from ._spec import seeded_pcg64_state
from .limits import MAX_SEED

if TYPE_CHECKING:  # (NumPy is imported where a seed needs it: an int seeds a PCG64 without it)
    import numpy as np

__all__ = ["Seed", "SeedLike", "check_seed", "child", "pcg64_state", "recorded_seed", "seed_json"]

MAX_ENTROPY_WORDS = 8
"""The most ints a ``SeedSequence``'s list entropy may hold."""
MAX_SPAWN_DEPTH = 32
"""The longest spawn key (how deep a sequence was spawned)."""
MAX_POOL_SIZE = 64
"""The largest pool size (numpy's default is 4)."""
MAX_SPAWN_INDEX = 2**62
"""The largest spawn-key entry and children count (chunk indices are added to it)."""


@dataclass(frozen=True)
class Seed:
    """A ``SeedSequence`` written out whole: what a result records where its seed is not
    a plain int, and what re-creates the run (``simulate(..., seed=result.seed)``).

    >>> seed = Seed(7, spawn_key=(2,))
    >>> seed.sequence().spawn_key, Seed.from_dict(seed.to_dict()) == seed
    ((2,), True)
    """

    entropy: int | tuple[int, ...]
    spawn_key: tuple[int, ...] = ()
    pool_size: int = 4
    n_children_spawned: int = 0

    def __post_init__(self) -> None:
        # kept as the exact ints checked (a numpy int or an int subclass is its value): a
        # replay seeds from them without NumPy, and a record writes them
        parts = _check_parts(self.entropy, self.spawn_key, self.pool_size, self.n_children_spawned)
        for field, value in zip(("entropy", "spawn_key", "pool_size", "n_children_spawned"), parts, strict=True):
            object.__setattr__(self, field, value)

    def sequence(self) -> np.random.SeedSequence:
        """A fresh ``SeedSequence`` in this state."""
        return _sequence(
            list(self.entropy) if isinstance(self.entropy, tuple) else self.entropy,
            spawn_key=self.spawn_key, pool_size=self.pool_size, n_children_spawned=self.n_children_spawned,
        )

    @classmethod
    def from_sequence(cls, sequence: np.random.SeedSequence) -> Seed:
        """The seed of a ``SeedSequence`` (its state now), checked."""
        import numpy as np

        entropy = sequence.entropy
        if isinstance(entropy, int | np.integer):
            value: int | tuple[int, ...] = int(entropy)
        elif isinstance(entropy, Sequence | np.ndarray):
            value = tuple(_int(x, "seed's entropy") for x in entropy)
        else:
            raise TypeError(f"seed: a SeedSequence's entropy must be an int or a list of ints, not {entropy!r}")
        return cls(value, tuple(_int(k, "seed's spawn key") for k in sequence.spawn_key),
                   _int(sequence.pool_size, "seed's pool size"),
                   _int(sequence.n_children_spawned, "seed's children spawned"))

    @property
    def plain(self) -> int | None:
        """The int that re-creates this seed, where there is one."""
        if isinstance(self.entropy, int) and not self.spawn_key and self.pool_size == 4 \
                and not self.n_children_spawned:
            return self.entropy
        return None

    @property
    def state_int(self) -> int | None:
        """The int whose sequence generates this one's state (a bit generator seeded with
        either draws the same words), where there is one: the children a sequence has
        spawned change its spawns, not its own state."""
        if isinstance(self.entropy, int) and not self.spawn_key and self.pool_size == 4:
            return self.entropy
        return None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (integers past what JSON numbers hold exactly as text)."""
        entropy = str(self.entropy) if isinstance(self.entropy, int) else [str(x) for x in self.entropy]
        return {"entropy": entropy, "spawn_key": [str(k) for k in self.spawn_key], "pool_size": self.pool_size,
                "n_children_spawned": str(self.n_children_spawned)}

    @classmethod
    def from_dict(cls, data: Any) -> Seed:
        """Read ``to_dict``'s form back, strictly."""
        if not isinstance(data, dict) or set(data) != {"entropy", "spawn_key", "pool_size", "n_children_spawned"}:
            raise ValueError("seed: expected an object of entropy, spawn_key, pool_size and n_children_spawned")
        entropy = data["entropy"]
        value = _text_int(entropy) if isinstance(entropy, str) else tuple(_text_int(x) for x in _list(entropy))
        return cls(value, tuple(_text_int(k) for k in _list(data["spawn_key"])),
                   _int(data["pool_size"], "seed's pool size"), _text_int(data["n_children_spawned"]))


SeedLike: TypeAlias = "int | np.random.SeedSequence | Seed | np.random.Generator | np.random.BitGenerator | None"
"""What an entry point takes as ``seed``."""

SEED_WORDS = 4
"""How many 64-bit words a seed drawn from a ``Generator`` takes: 256 bits, ``MAX_SEED``'s."""


def _int(value: object, name: str) -> int:
    """The exact int of an int or a numpy integer: an int subclass's value, not what its
    ``__int__`` says (numpy's SeedSequence would hash that, this package's seeding the value)."""
    if isinstance(value, bool) or not (isinstance(value, int) or _is_numpy_int(value)):
        raise TypeError(f"{name} must be an int, not {value!r}")
    return int.__index__(value) if isinstance(value, int) else int(value)


def _list(value: object) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_SPAWN_DEPTH:
        raise ValueError(f"seed: expected a list of at most {MAX_SPAWN_DEPTH} integers")
    return value


def _text_int(value: object) -> int:
    if not isinstance(value, str) or not (value.isascii() and value.isdigit()) or len(value) > 80 or \
            (value != "0" and value[0] == "0"):  # (ASCII: str.isdigit takes other scripts' digits, int() reads them)
        raise ValueError(f"seed: expected an integer written as a string, got {value!r}"[:120])
    return int(value)


def _bounded(value: int, name: str, top: int, top_text: str) -> None:
    if not 0 <= value <= top:
        shown = f"{value:,}" if value.bit_length() <= 64 else f"a {value.bit_length()}-bit number"
        raise ValueError(f"{name} must be an int in 0..{top_text}, got {shown}")


def _check_parts(entropy: object, spawn_key: object, pool_size: object,
                 children: object) -> tuple[int | tuple[int, ...], tuple[int, ...], int, int]:
    """A ``Seed``'s parts checked, as the exact ints they hold."""
    value: int | tuple[int, ...]
    if isinstance(entropy, tuple):
        if not 1 <= len(entropy) <= MAX_ENTROPY_WORDS:
            raise ValueError(f"seed: list entropy holds 1..{MAX_ENTROPY_WORDS} ints, got {len(entropy)}")
        value = tuple(_int(word, "seed's entropy") for word in entropy)
        for word in value:
            _bounded(word, "seed's entropy", MAX_SEED, "2**256 - 1")
    else:
        value = _int(entropy, "seed's entropy")
        _bounded(value, "seed's entropy", MAX_SEED, "2**256 - 1")
    if not isinstance(spawn_key, tuple) or len(spawn_key) > MAX_SPAWN_DEPTH:
        raise ValueError(f"seed: a spawn key is a tuple of at most {MAX_SPAWN_DEPTH} ints")
    key = tuple(_int(k, "seed's spawn key") for k in spawn_key)
    for k in key:
        _bounded(k, "seed's spawn key", MAX_SPAWN_INDEX, "2**62")
    size = _int(pool_size, "seed's pool size")
    if not 4 <= size <= MAX_POOL_SIZE:
        raise ValueError(f"seed's pool size must be in 4..{MAX_POOL_SIZE}, got {size}")
    spawned = _int(children, "seed's children spawned")
    _bounded(spawned, "seed's children spawned", MAX_SPAWN_INDEX, "2**62")
    return value, key, size, spawned


def check_seed(seed: object, name: str = "seed") -> tuple[np.random.SeedSequence, int | Seed]:
    """Check a seed's size before any work, and return the ``SeedSequence`` to draw from
    and the seed to record (an int where one re-creates it, else a ``Seed``).

    A ``Generator`` or ``BitGenerator`` is drawn from (a 256-bit seed, recorded as an
    int: see the module's notes), once per call: call this once per run.

    :raises TypeError: not an int, ``SeedSequence``, ``Seed``, ``Generator``,
        ``BitGenerator`` or None (a bool, a float, a legacy ``RandomState``).
    :raises ValueError: an int outside 0..2**256 - 1 (its size is read before numpy
        hashes it), or a sequence beyond the bounds of this module's limits.
    """
    recorded = recorded_seed(seed, name)
    return (_sequence(recorded) if isinstance(recorded, int) else recorded.sequence()), recorded


def recorded_seed(seed: object, name: str = "seed") -> int | Seed:
    """``check_seed``'s seed to record, alone: an int or a ``Seed`` needs no NumPy (fresh
    OS entropy is drawn as numpy's ``SeedSequence()`` draws it, 128 bits)."""
    if seed is None:
        from secrets import randbits  # (here: what reads a seed given starts without it)

        return randbits(128)  # fresh OS entropy, recorded (numpy's SeedSequence() draws as much, so)
    if isinstance(seed, int) and not isinstance(seed, bool):
        return _checked_int(int.__index__(seed), name)  # (an int subclass: its value, recorded as an int)
    if isinstance(seed, Seed):  # made again: a Seed may have skipped __post_init__ (object.__new__)
        seed = Seed(seed.entropy, seed.spawn_key, seed.pool_size, seed.n_children_spawned)
        return seed if seed.plain is None else seed.plain
    import numpy as np

    if isinstance(seed, np.random.Generator | np.random.BitGenerator):
        generator = seed if isinstance(seed, np.random.Generator) else np.random.Generator(seed)
        # full-range uint64 draws are the bit generator's next_uint64 words, locked
        words = generator.integers(0, 2**64, SEED_WORDS, dtype=np.uint64)
        return sum(int(word) << (64 * i) for i, word in enumerate(words.tolist()))
    if isinstance(seed, bool) or not isinstance(seed, np.integer | np.random.SeedSequence):
        raise TypeError(f"{name} must be an int, a SeedSequence or None (or a numpy Generator), not {_short(seed)}")
    if isinstance(seed, np.integer):
        return _checked_int(int(seed), name)
    recorded = Seed.from_sequence(seed)
    return recorded if recorded.plain is None else recorded.plain


def _checked_int(value: int, name: str) -> int:
    if value < 0 or value.bit_length() > MAX_SEED.bit_length():  # before anything hashes it
        shown = f"{value:,}" if value.bit_length() <= 64 else f"a {value.bit_length()}-bit number"
        raise ValueError(f"{name} must be an int in 0..2**256 - 1, got {shown}")
    return value


def pcg64_state(recorded: int | Seed) -> dict[str, Any]:
    """The state of numpy's ``PCG64`` seeded with a recorded seed's ``SeedSequence``
    (``_spec.seeded_pcg64_state``: no NumPy; the children a sequence spawned change its
    spawns, not its state)."""
    if isinstance(recorded, int):
        return seeded_pcg64_state(recorded)
    entropy = list(recorded.entropy) if isinstance(recorded.entropy, tuple) else recorded.entropy
    return seeded_pcg64_state(entropy, recorded.spawn_key, recorded.pool_size)


def seed_json(seed: int | Seed) -> int | dict[str, Any]:
    """A recorded seed for a result's JSON: an int as it is, a ``Seed`` as its dict."""
    return seed.to_dict() if isinstance(seed, Seed) else seed


def _sequence(entropy: Any, **kwargs: Any) -> np.random.SeedSequence:
    """The one place a ``SeedSequence`` is made from what a caller gave (numpy hashes the
    entropy here: everything is bounded before)."""
    import numpy as np

    return np.random.SeedSequence(entropy, **kwargs)


def child(sequence: np.random.SeedSequence, k: int) -> np.random.SeedSequence:
    """``sequence.spawn(n)[k]`` for any n > k, made on demand (a billion chunks need no
    list of a billion sequences: ``spawn`` keys its k-th child by appending the count of
    children already spawned plus k to the spawn key)."""
    return _sequence(sequence.entropy, spawn_key=(*sequence.spawn_key, sequence.n_children_spawned + k),
                     pool_size=sequence.pool_size)


def _is_numpy_int(value: object) -> TypeGuard[SupportsIndex]:
    """A numpy integer (NumPy is imported already wherever one exists)."""
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.integer)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"a {type(value).__name__}"
