"""Exact counting: the hands a shoe composition can deal, counted over multisets of
counting kinds, and the counts every bet's outcome is summed from (``sanggong.analysis``
and ``sanggong.shoe`` both read them).

Counts are exact integers: for a position's bets, the ordered pairs of disjoint hands (the
position's three cards and the banker's) that the shoe can deal; for bets on one hand, the
3-card hands. They are computed combinatorially, over multisets of the ranking's counting
kinds weighted by the ways to choose their suits (the kernels' ``joint_class_counts`` and
``hand_counts``; ``_spec.counting`` defines the kinds), never by walking every deal; where
suits break ties, the draws of the one rank two equal hands share are split by how their
strongest suits compare (``_spec.suit_split``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _kernels
from ._spec import (
    N_CARDS,
    N_PAIR_PLUS,
    N_RANKS,
    N_SUITS,
    SUIT_STRENGTH,
    kind_code,
    kind_multisets,
    kind_of,
    triple_pair_plus,
)
from .limits import MAX_DECKS
from .ranking import Ranking, tables_for
from .rules import RuleSet

__all__ = [
    "Counts", "by_kind", "card_lookups", "cards_of", "check_counts", "class_lookups", "count_hands", "counting_kinds",
    "feasible", "pack", "suits_by_strength",
]

# --- the multisets counted over, built once from the specification -----------------------


def pack(multisets: list[tuple[tuple[int, int], ...]]) -> npt.NDArray[np.uint8]:
    arr = np.zeros((len(multisets), 3, 2), dtype=np.uint8)
    for i, ms in enumerate(multisets):
        for t, (kind, mult) in enumerate(ms):
            arr[i, t] = kind, mult
    arr.flags.writeable = False
    return arr


def cards_of(sets: npt.NDArray[np.uint8], kinds: int) -> npt.NDArray[np.int64]:
    """Three card codes of each packed multiset (``_spec.multiset_cards``, for all at
    once: each row's multiplicities add up to 3)."""
    kind_cards = np.array([kind_code(k, kinds) for k in range(kinds)], dtype=np.int64)
    return kind_cards[np.repeat(sets[:, :, 0].ravel(), sets[:, :, 1].ravel())].reshape(-1, 3)


def counting_kinds(ranking: Ranking) -> int:
    """The kinds a ranking's hands are counted over: ``Ranking.kinds``, but the 13 ranks
    where suits break ties (the suits of the one rank that can decide are counted apart:
    ``_spec.suit_split``)."""
    return N_RANKS if ranking.uses_suits else ranking.kinds


@functools.lru_cache(maxsize=16)
def class_lookups(ranking: Ranking) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint16]]:
    """The hands counted over for a ranking (multisets of its counting kinds: 11 class
    ranks or 13 ranks) with each one's class and rank; where suits break ties, the rank
    with its strongest card's suit left out (a rank is ``256 p + 4 (r - 1) + suit``, so
    the rank // 4)."""
    kinds = counting_kinds(ranking)
    tables = tables_for(ranking)
    sets = pack(kind_multisets(kinds))
    cards = cards_of(sets, kinds)
    rid = tables.packed_of_triple[(cards[:, 0] * 52 + cards[:, 1]) * 52 + cards[:, 2]] >> 3
    classes = tables.cls[rid].astype(np.uint8)
    ranks = tables.rank[rid].astype(np.uint16)
    if ranking.uses_suits:
        ranks //= 4
    for arr in (classes, ranks):
        arr.flags.writeable = False
    return sets, classes, ranks


@functools.cache
def card_lookups() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The 24,804 hands of the 52 cards as multisets, with each one's Pair Plus category."""
    sets = pack(kind_multisets(N_CARDS))
    cards = cards_of(sets, N_CARDS)
    values = triple_pair_plus()[(cards[:, 0] * 52 + cards[:, 1]) * 52 + cards[:, 2]].astype(np.uint8)
    values.flags.writeable = False
    return sets, values



# --- compositions ------------------------------------------------------------------------


def check_counts(counts: npt.ArrayLike) -> npt.NDArray[np.int64]:
    arr = np.asarray(counts)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"a shoe composition is 52 integer counts, not dtype {arr.dtype}")
    if arr.shape != (N_CARDS,):
        raise ValueError(f"a shoe composition is 52 counts (one per card code), got shape {arr.shape}")
    if (arr < 0).any():
        code = int(np.argmax(arr < 0))
        raise ValueError(f"the composition holds {int(arr[code])} of card code {code}")
    if (arr > MAX_DECKS).any():  # compared in the array's own dtype: nothing wraps
        code = int(np.argmax(arr > MAX_DECKS))
        raise ValueError(
            f"the composition holds {int(arr[code])} of card code {code}: a shoe holds at most {MAX_DECKS} decks"
        )
    if int(arr.sum()) < 6:
        raise ValueError(f"a round needs 6 cards at the least; the composition holds {int(arr.sum())}")
    return arr.astype(np.int64)


def by_kind(counts: npt.NDArray[np.int64], kinds: int) -> npt.NDArray[np.int64]:
    """A composition folded to counting kinds (52: as it is)."""
    if kinds == N_CARDS:
        return np.ascontiguousarray(counts, dtype=np.int64)
    folded = np.zeros(kinds, dtype=np.int64)
    np.add.at(folded, [kind_of(c, kinds) for c in range(N_CARDS)], counts)
    return folded


def feasible(sets: npt.NDArray[np.uint8], counts: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """The multisets a shoe of these counts can deal (no kind drawn more often than held):
    the others add nothing, and leaving them out spares the counting loops (a shoe with two
    kings left keeps no multiset of three kings)."""
    feasible: npt.NDArray[np.bool_] = ((sets[:, :, 1] <= counts[sets[:, :, 0]]) | (sets[:, :, 1] == 0)).all(axis=1)
    return feasible


@dataclass(frozen=True)
class Counts:
    """The exact counts every bet's outcomes are summed from."""

    joint: Any  # (classes ** 2 * 3,) ordered (position hand, banker hand) pairs by classes and order
    marginal: Any  # (classes,) hands by class
    pair_plus: Any  # (6,) hands by Pair Plus category
    pairs: int  # ordered pairs of disjoint hands
    hands: int  # 3-card hands


def suits_by_strength(counts52: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A composition as (13 ranks, 4 suits by strength, weakest first)."""
    by_strength = np.argsort(SUIT_STRENGTH)
    return np.ascontiguousarray(counts52.reshape(N_RANKS, N_SUITS)[:, by_strength], dtype=np.int64)


def count_hands(
    rules: RuleSet, counts52: npt.NDArray[np.int64], *, need_pairs: bool = True, need_pair_plus: bool = True
) -> Counts:
    n = int(counts52.sum())
    pairs, hands = comb(n, 3) * comb(n - 3, 3), comb(n, 3)
    kernels = _kernels.kernels
    dtype: Any = np.uint64 if pairs < 2**64 else object  # beyond uint64 sums: Python integers
    ranking = rules.ranking
    n_classes = tables_for(ranking).n_classes
    class_sets, classes, ranks = class_lookups(ranking)
    folded = by_kind(counts52, counting_kinds(ranking))
    keep = feasible(class_sets, folded)
    class_sets, classes, ranks = np.ascontiguousarray(class_sets[keep]), classes[keep].copy(), ranks[keep].copy()
    joint = np.zeros(n_classes * n_classes * 3, dtype=dtype)
    if need_pairs:
        suits = suits_by_strength(counts52) if ranking.uses_suits else None
        kernels.joint_class_counts(folded, class_sets, classes, ranks, n_classes, joint, suits)
    marginal = np.zeros(n_classes, dtype=np.uint64)  # at most C(52 * 64, 3) < 2**33 hands
    kernels.hand_counts(folded, class_sets, classes, marginal)
    pair_plus = np.zeros(N_PAIR_PLUS, dtype=np.uint64)
    if need_pair_plus:
        card_sets, categories = card_lookups()
        kernels.hand_counts(counts52, card_sets, categories, pair_plus)
    return Counts(joint, marginal, pair_plus, pairs, hands)
