"""Shuffle tests (the twin of ``csrc/shuffletest.pxi``)."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..._spec import N_CARDS, Shoe, next_uint64
from .common import table_of

__all__ = ["shuffle_cards", "shuffle_tally", "shuffle_tally_cards"]


def _dealt_shoes(bit_generator: Any, params: npt.NDArray[np.int64], shoes: int) -> Iterable[tuple[bytearray, int]]:
    """``shoes`` whole shoes dealt by ``_spec.Shoe`` from a fresh shoe, each to the round
    that takes its cut card: its cards in the order they came out, its cut card's place."""
    table = table_of(params, later_apart=True)
    dealer = Shoe(table, bit_generator)
    for _ in range(shoes):
        cards = bytearray()
        while True:
            dealt, _burn = dealer.deal()
            cards += dealt
            if dealer.last:
                break
        yield cards, dealer.cut_card


def shuffle_cards(bit_generator: Any, params: npt.NDArray[np.int64], cards: npt.NDArray[np.uint8],
                  cut_places: npt.NDArray[np.uint16]) -> int:
    """Each shoe's first ``cards.shape[1]`` cards and its cut card's place (the core's notes);
    returns the words drawn, counted by drawing them again from a copy of the generator
    until it is where the shoes left it."""
    shoes, width = cards.shape
    if len(cut_places) != shoes:
        raise ValueError(f"cut_places must hold {shoes} shoes, it holds {len(cut_places)}")
    replay = copy.deepcopy(bit_generator)
    for i, (dealt, place) in enumerate(_dealt_shoes(bit_generator, params, shoes)):
        if len(dealt) < width:
            raise ValueError(f"a shoe dealt {len(dealt)} cards, fewer than the {width} asked for")
        cards[i] = list(dealt[:width])
        cut_places[i] = place
    words, after = 0, bit_generator.state
    while not _same_state(replay.state, after):
        next_uint64(replay)
        words += 1
    return words


def _same_state(a: Any, b: Any) -> bool:
    """Two bit generators' states equal (an MT19937's holds an array)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_state(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


def _check_tallies(bounds: npt.NDArray[np.int64], counts: npt.NDArray[np.int64], sums: npt.NDArray[np.int64],
                   squares: npt.NDArray[np.float64], width: int) -> None:
    rounds = len(bounds) - 1
    if rounds < 1 or bounds[0] != 0:
        raise ValueError("bounds must start at 0 and hold at least one round")
    if any(bounds[r + 1] < bounds[r] for r in range(rounds)):
        raise ValueError("bounds must not decrease")
    if bounds[rounds] > width:
        raise ValueError(f"bounds end at card {bounds[rounds]}, past the {width} there are")
    if counts.shape != (bounds[rounds], 52):
        raise ValueError(f"counts must have shape ({bounds[rounds]}, 52)")
    if len(sums) != 4 or len(squares) != 4:
        raise ValueError("sums and squares must hold 4 values")


def _tally_shoe(c: Sequence[int], prev: Sequence[int] | None, bounds: list[int], counts: npt.NDArray[np.int64],
                sums: npt.NDArray[np.int64], squares: npt.NDArray[np.float64]) -> None:
    """One shoe's tallies, from their definitions (csrc/shuffletest.pxi's notes)."""
    k = bounds[-1]
    y = [2 * int(card) - 51 for card in c[:k]]
    for p in range(k):
        counts[p, c[p]] += 1
    t = [0, 0, 0, 0]
    t[0] = sum((c[p] < 26) != (c[p - 1] < 26) for p in range(1, k))
    rounds = [y[a:b] for a, b in itertools.pairwise(bounds)]
    t[1] = sum(y[i] * y[j] for a, b in itertools.pairwise(bounds) for i in range(a, b) for j in range(i + 1, b))
    t[2] = sum(u * v for r, s in itertools.pairwise(rounds) for u, v in zip(r, s, strict=False))
    if prev is not None:
        t[3] = sum(u * (2 * int(v) - 51) for u, v in zip(y, prev[:k], strict=True))
    for i, value in enumerate(t):
        sums[i] += value
        squares[i] += float(value * value)


def shuffle_tally(bit_generator: Any, params: npt.NDArray[np.int64], shoes: int, bounds: npt.NDArray[np.int64],
                  counts: npt.NDArray[np.int64], cut_counts: npt.NDArray[np.int64], sums: npt.NDArray[np.int64],
                  squares: npt.NDArray[np.float64]) -> None:
    """Deal ``shoes`` shoes and add their tallies (the core's notes)."""
    table = table_of(params, later_apart=True)
    if shoes < 0:
        raise ValueError(f"shoes must be 0 or more, got {shoes}")
    _check_tallies(bounds, counts, sums, squares, N_CARDS * table.decks)
    if not table.fresh_deck and len(cut_counts) != table.cut_high - table.cut_low + 1:
        raise ValueError(f"cut_counts must hold {table.cut_high - table.cut_low + 1} places")
    edges = [int(b) for b in bounds]
    before: bytearray | None = None
    for dealt, place in _dealt_shoes(bit_generator, params, shoes):
        if len(dealt) < edges[-1]:
            raise ValueError(f"a shoe dealt {len(dealt)} cards, fewer than the {edges[-1]} tallied")
        _tally_shoe(dealt, before, edges, counts, sums, squares)
        if not table.fresh_deck:
            cut_counts[place - table.cut_low] += 1
        before = dealt


def shuffle_tally_cards(cards: npt.NDArray[np.uint8], bounds: npt.NDArray[np.int64], counts: npt.NDArray[np.int64],
                        sums: npt.NDArray[np.int64], squares: npt.NDArray[np.float64]) -> int:
    """Add recorded shoes' tallies; -1, or the first row holding a code that is no card."""
    _check_tallies(bounds, counts, sums, squares, cards.shape[1])
    edges = [int(b) for b in bounds]
    rows = cards[:, :edges[-1]].tolist()
    for i, row in enumerate(rows):
        if any(card >= 52 for card in row):
            return i
        _tally_shoe(row, rows[i - 1] if i else None, edges, counts, sums, squares)
    return -1
