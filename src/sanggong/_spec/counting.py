"""Counting kinds: the multisets exact analysis counts over (see ``sanggong._spec``)."""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Sequence

from .cards import N_CARDS, N_RANKS, N_SUITS, card_rank

__all__ = [
    "N_CLASS_RANKS",
    "Multiset",
    "class_rank_of",
    "comb_any",
    "kind_code",
    "kind_multisets",
    "kind_of",
    "multiset_cards",
    "suit_split"
]

# --- counting kinds ---------------------------------------------------------------------
# A hand's class and rank depend on as little as its ranking reads: counting goes over 11
# "class ranks" (A..9, T, a face: J, Q and K alike) or the 13 ranks (``Ranking.kinds``),
# whose hands are the multisets of 3 (``kind_multisets``). A multiset with m_k cards of
# kind k can be drawn in prod C(c_k, m_k) ways from a shoe holding c_k such cards; a
# second hand then in prod C(c_k - m_k, m'_k). A ranking that breaks ties by suit counts
# over the 13 ranks as well: two hands then compare by their ranks with the strongest
# card's suit left out, and where those are equal the hands share their highest rank, so
# only the suits of that one rank's cards can still separate them: the ways to draw those
# cards are split by how the two hands' strongest suits compare (``suit_split``), the
# other cards counted as for any ranking. Pair Plus needs every suit: its counts go over
# the 52 card kinds.

N_CLASS_RANKS = 11

Multiset = tuple[tuple[int, int], ...]


def class_rank_of(code: int) -> int:
    """0..8 for A..9, 9 for a ten, 10 for a face (J, Q, K)."""
    return min(card_rank(code) - 1, 10)


def kind_code(kind: int, kinds: int) -> int:
    """A card of a counting kind: kinds 52 are the cards, 13 the ranks (A .. K), 11 the
    class ranks (A .. 9, a ten, a face); suits are the lowest code's (where the ranking
    counted with 13 or 11 kinds, suits do not change a hand's rank or class)."""
    if kinds == N_CARDS:
        return kind
    if kinds == N_RANKS:
        return 4 * kind
    return 4 * kind if kind <= 9 else 40


def kind_of(code: int, kinds: int) -> int:
    """The counting kind of a card: the inverse of ``kind_code`` on its kinds."""
    if kinds == N_CARDS:
        return code
    if kinds == N_RANKS:
        return code // 4
    return class_rank_of(code)


def kind_multisets(kinds: int) -> list[Multiset]:
    """Every 3-card hand over ``kinds`` kinds, as ((kind, multiplicity), ...), kinds
    ascending: 286 over 11 kinds, 455 over 13, 24,804 over 52."""
    out = []
    for a in range(kinds):
        for b in range(a, kinds):
            for c in range(b, kinds):
                counts: dict[int, int] = {}
                for k in (a, b, c):
                    counts[k] = counts.get(k, 0) + 1
                out.append(tuple(sorted(counts.items())))
    return out


def multiset_cards(multiset: Multiset, kinds: int) -> list[int]:
    """Three card codes of a multiset of kinds."""
    return [kind_code(k, kinds) for k, m in multiset for _ in range(m)]


def comb_any(n: int, k: int) -> int:
    """C(n, k), 0 where n < k (n may be negative: more drawn than held)."""
    return math.comb(n, k) if 0 <= k <= n else 0


@functools.cache
def _suit_shares(cards: int) -> tuple[tuple[int, ...], ...]:
    """Every way ``cards`` cards of one rank can fall in the 4 suits: how many in each
    (kept: ``suit_split`` asks again for every share of the first hand)."""
    return tuple(x for x in itertools.product(range(cards + 1), repeat=N_SUITS) if sum(x) == cards)


def suit_split(suits: Sequence[int], a: int, b: int) -> tuple[int, int, int]:
    """The ways to draw ``a`` cards (a first hand's) and then ``b`` other cards (a second
    hand's) of one rank, of which the shoe holds ``suits[s]`` in suit s (suits by strength,
    weakest first), by how the strongest suit among the first cards compares with the
    strongest among the second: (lower, equal, higher). Equal: each holds a card of that
    suit, two copies of one card (several decks). The three add up to C(c, a) C(c - a, b)
    for the c cards of the rank. (Kept by the suits' counts: a shoe's ranks ask for the
    same splits again and again.)"""
    return _suit_split(tuple(map(operator.index, suits)), a, b)


@functools.lru_cache(maxsize=1 << 16)
def _suit_split(suits: tuple[int, ...], a: int, b: int) -> tuple[int, int, int]:
    out = [0, 0, 0]
    for x in _suit_shares(a):
        for y in _suit_shares(b):
            ways = 1
            for held, first, second in zip(suits, x, y, strict=True):
                ways *= comb_any(held, first) * comb_any(held - first, second)
            top_x = max(s for s in range(N_SUITS) if x[s])
            top_y = max(s for s in range(N_SUITS) if y[s])
            out[1 + (top_x > top_y) - (top_x < top_y)] += ways
    return out[0], out[1], out[2]
