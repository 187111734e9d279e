"""Random draws: uniform integers and cards from a numpy bit generator, exactly as the
compiled core draws them (see ``sanggong._spec``).

The same algorithms as the compiled core, drawing the same 64-bit words: the core calls
the bit generator's ``next_uint64``, and so does this module, through ``next_uint64``
below, for every bit generator: ``random_raw()`` where it is that word (numpy's PCG64,
PCG64DXSM, Philox, SFC64, and this package's ``pcg64.PCG64``), and otherwise (MT19937, whose raw output is 32-bit, or a bit
generator of the caller's) numpy's own full-range draw, which is one ``next_uint64``.
Both implementations therefore deal the same cards, bit for bit, from any bit
generator. (Each draw takes the bit generator's lock itself, so nothing here holds it
around a loop: the lock is not reentrant.)

Batched bounded integers (the compiled ``sg_draw`` takes the same words): the
Fisher-Yates bounds of a draw are grouped, each group the longest run of the next bounds
whose product stays at most 2**52, and one 64-bit word x gives a whole group. Here the
group's numbers are read plainly as the mixed-radix digits of floor(x * P / 2**64),
rejected (and x redrawn) while x * P mod 2**64 < 2**64 mod P; the compiled core gets the
same digits by a chain of multiplications instead, and the tests compare the two.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any, TypeAlias

from .cards import N_CARDS
from .pcg64 import PCG64

if TYPE_CHECKING:  # (NumPy is imported where it is used: a command that draws nothing starts without it)
    import numpy as np
    import numpy.typing as npt

__all__ = ["BATCH_LIMIT", "MAX_DRAW_DECK", "CardBuffer", "bounded", "draw", "fisher_yates_offsets", "next_uint64"]

CardBuffer: TypeAlias = "MutableSequence[int] | npt.NDArray[np.uint8]"
"""Cards a draw reads and writes in place: a ``bytearray`` (what ``Shoe`` keeps), a list, or
a ``uint8`` array (the compiled core reads a writable ``uint8`` buffer: a ``bytearray`` or
an array)."""

MAX_DRAW_DECK = N_CARDS * 64
"""The largest deck a draw shuffles: 64 decks (the compiled core's group table covers no more)."""

BATCH_LIMIT = 1 << 52
"""A group of Fisher-Yates bounds whose product stays at most this is drawn from one word."""

_MASK64 = (1 << 64) - 1
_raw_is_64: tuple[type, ...] = (PCG64,)
"""The bit generators whose ``random_raw()`` is the 64-bit word: this package's PCG64, and
numpy's PCG64, PCG64DXSM, Philox and SFC64, added at the first draw from any other (so
importing this module imports no NumPy)."""


def next_uint64(bit_generator: Any) -> int:
    """The bit generator's next 64-bit word, as the core's ``next_uint64`` draws it."""
    if type(bit_generator) in _raw_is_64:
        return int(bit_generator.random_raw())
    return _next_uint64_other(bit_generator)


def _next_uint64_other(bit_generator: Any) -> int:
    global _raw_is_64
    import numpy as np

    _raw_is_64 = (PCG64, np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64)
    if type(bit_generator) in _raw_is_64:
        return int(bit_generator.random_raw())
    if not isinstance(bit_generator, np.random.BitGenerator):
        raise TypeError(f"{bit_generator!r} is not a numpy BitGenerator")
    # integers over the whole 64-bit range is exactly one next_uint64 (numpy's bounded
    # draw returns the word itself when the range is 2**64); the Generator shares the state
    return int(np.random.Generator(bit_generator).integers(0, 1 << 64, dtype=np.uint64))


def _bounded_raw(bit_generator: Any, n: int) -> int:
    product = next_uint64(bit_generator) * n
    if product & _MASK64 < n:
        threshold = (1 << 64) % n
        while product & _MASK64 < threshold:
            product = next_uint64(bit_generator) * n
    return product >> 64


def bounded(bit_generator: Any, n: int) -> int:
    """A uniform integer in [0, n), n >= 1 (Lemire's method on 64-bit draws)."""
    if n < 1:
        raise ValueError(f"bound {n} must be at least 1")
    return _bounded_raw(bit_generator, n)


def fisher_yates_offsets(bit_generator: Any, n: int, start: int, count: int) -> list[int]:
    """For drawing cards start .. start + count - 1 of an n-card deck: the offset r of
    each (card i is swapped with card i + r, r uniform in [0, n - i))."""
    offsets: list[int] = []
    i, end = start, start + count
    while i < end:
        bounds = [n - i]
        product = n - i
        while i + len(bounds) < end and product * (n - i - len(bounds)) <= BATCH_LIMIT:
            product *= n - i - len(bounds)
            bounds.append(n - i - len(bounds))
        number = _bounded_raw(bit_generator, product)  # one word: floor(x * P / 2**64), Lemire
        digits = []
        for bound in reversed(bounds):
            number, digit = divmod(number, bound)
            digits.append(digit)
        offsets.extend(reversed(digits))
        i += len(bounds)
    return offsets


def draw(bit_generator: Any, deck: CardBuffer, start: int, count: int, out: CardBuffer) -> None:
    """Draw ``count`` cards from ``deck[start:]`` into ``out`` by lazy Fisher-Yates."""
    n = len(deck)
    if n > MAX_DRAW_DECK:
        raise ValueError(f"cannot draw from a {n}-card deck: at most {MAX_DRAW_DECK} cards")
    if start < 0 or count < 0 or start + count > n:
        raise ValueError(f"cannot draw {count} cards from position {start} of a {n}-card deck")
    if len(out) < count:
        raise ValueError(f"out holds {len(out)} cards, {count} are drawn")
    for i, offset in enumerate(fisher_yates_offsets(bit_generator, n, start, count), start):
        j = i + offset
        deck[i], deck[j] = deck[j], deck[i]
        out[i - start] = deck[i]
