"""Shoe terms: what the shoe kernels read for a rule set and its bets (``ShoeTerms``, a type
of the kernels' own, ``_kernels.inputs``), built once: the multisets of counting kinds each
bet's EV sums over and each one's scaled net value (``sanggong.shoe`` tells the method).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._counting import cards_of, class_lookups, counting_kinds, pack
from .._kernels.inputs import CARDS as CARDS
from .._kernels.inputs import PAIRS as PAIRS
from .._kernels.inputs import SINGLE as SINGLE
from .._kernels.inputs import Row as Row
from .._kernels.inputs import ShoeTerms as ShoeTerms
from .._settlement_plan import plan_for
from .._spec import N_CARDS, N_RANKS, N_SUITS, SUIT_STRENGTH, kind_multisets, kind_of, triple_pair_plus
from ..ranking import Ranking, tables_for
from ..rules import RuleSet
from ..settlement import payout

__all__ = [
    "CARDS", "PAIRS", "SINGLE", "Row", "ShoeTerms", "shoe_terms"
]

_STRIDE = 8  # entries of the binomial table per kind (the core's SG_BINOM_STRIDE)
_MAX_VALUE = 2**63  # a value the compiled kernel sums: any of 64 bits (its sums stay within 128)
_MAX_TIE_VALUE = 2**59  # with suit tie-break terms, whose weights sum to 2**6 times more (the core's SG_MAX_TIE_VALUE)


# --- what does not depend on the shoe: built once per ranking ------------------------------


def _entries(sets: npt.NDArray[np.uint8], kinds: int) -> npt.NDArray[np.uint16]:
    """(n, 3, 2) multisets (kind, multiplicity; 0 pads) as rows of binomial-table indices."""
    kind, mult = sets[:, :, 0].astype(np.int64), sets[:, :, 1].astype(np.int64)
    idx = np.where(mult > 0, kind * _STRIDE + mult, kinds * _STRIDE).astype(np.uint16)
    idx.flags.writeable = False
    return idx


@dataclass(frozen=True)
class _Pairs:
    """Every ordered pair (P, B) of 3-card multisets, by the 6-card multiset it makes; where
    suits break ties, the pairs of equal ranks again, by the tie-break terms they add to."""

    idx: npt.NDArray[np.uint16]  # (rows, 6) the 6-card multisets, then the tie terms, as table indices
    six: npt.NDArray[np.int64]  # (pairs,) which 6-card multiset each pair makes
    key: npt.NDArray[np.int64]  # (pairs,) (class_P * n + class_B) * 3 + order + 1
    ways: npt.NDArray[np.int64]  # (pairs,) prod_k C(m_k, p_k)
    tied: npt.NDArray[np.int64]  # (ties,) the pairs whose ranks are equal but for the suits
    above: npt.NDArray[np.int64]  # (ties,) the term of E_t(a, b): P's strongest suit above B's
    below: npt.NDArray[np.int64]  # (ties,) the term of E_t(b, a): below
    tie_ways: npt.NDArray[np.int64]  # (ties,) prod over the kinds but t of C(m_k, p_k)


def _tie_entry(kinds: int, top: Any, a: Any, b: Any) -> Any:
    """The table index of E_top(a, b): after the binomials (``_STRIDE`` per kind) and the
    padding 1, sixteen per kind, at ``4 a + b`` (the core's sg_suit_wins lays them so)."""
    return kinds * _STRIDE + 1 + 16 * top + 4 * a + b


@functools.lru_cache(maxsize=16)
def _pairs(ranking: Ranking) -> _Pairs:
    kinds = counting_kinds(ranking)
    sets, classes, ranks = class_lookups(ranking)
    n_classes = tables_for(ranking).n_classes
    counts3 = np.zeros((len(sets), kinds), dtype=np.int64)
    for t in range(3):
        np.add.at(counts3, (np.arange(len(sets)), sets[:, t, 0]), sets[:, t, 1])
    p, b = (a.ravel() for a in np.meshgrid(np.arange(len(sets)), np.arange(len(sets)), indexing="ij"))
    six_counts = counts3[p] + counts3[b]
    powers = 7 ** np.arange(kinds, dtype=np.int64)
    _, first, six = np.unique(six_counts @ powers, return_index=True, return_inverse=True)
    choose = np.array([[math.comb(m, j) for j in range(4)] for m in range(7)], dtype=np.int64)
    ways = np.prod(choose[six_counts, counts3[p]], axis=1)
    cls, rk = classes.astype(np.int64), ranks.astype(np.int64)
    key = (cls[p] * n_classes + cls[b]) * 3 + 1 + np.sign(rk[p] - rk[b])
    rows = [_six_rows(six_counts[first], kinds)]
    tied = np.zeros(0, dtype=np.int64)
    above = below = tie_ways = tied
    if ranking.uses_suits:  # equal ranks: the highest kind t is both hands'; its suits decide
        tied = np.flatnonzero(rk[p] == rk[b])
        top = kinds - 1 - np.argmax(counts3[:, ::-1] > 0, axis=1)
        t = top[p[tied]]
        ca, cb = counts3[p[tied], t], counts3[b[tied], t]
        rest = six_counts[tied].copy()
        rest[np.arange(len(tied)), t] = 0
        tie_ways = ways[tied] // choose[ca + cb, ca]
        code = ((rest @ powers) * kinds + t) * 16
        terms, inverse = np.unique(np.concatenate([code + 4 * ca + cb, code + 4 * cb + ca]), return_inverse=True)
        above, below = inverse[: len(tied)], inverse[len(tied):]
        above, below = above + len(first), below + len(first)
        term_rest = np.zeros((len(terms), kinds), dtype=np.int64)
        place = np.concatenate([above, below]) - len(first)
        term_rest[place] = np.concatenate([rest, rest])
        idx = _six_rows(term_rest, kinds)
        term_t, term_ab = terms // 16 % kinds, terms % 16
        free = np.argmax(idx == kinds * _STRIDE, axis=1)  # the first padding place (M' holds at most 4 kinds)
        idx[np.arange(len(terms)), free] = _tie_entry(kinds, term_t, term_ab // 4, term_ab % 4)
        rows.append(idx)
    idx_all = np.concatenate(rows)
    for arr in (idx_all, six, key, ways, tied, above, below, tie_ways):
        arr.flags.writeable = False
    return _Pairs(idx_all, six.ravel(), key, ways, tied, above, below, tie_ways)


def _six_rows(multisets: npt.NDArray[np.int64], kinds: int) -> npt.NDArray[np.uint16]:
    """Multisets (rows of counts by kind, at most 6 kinds held) as rows of 6 binomial-table
    indices, padded."""
    idx = np.full((len(multisets), 6), kinds * _STRIDE, dtype=np.uint16)
    held = multisets > 0
    row, kind = np.nonzero(held)  # (row by row, each row's kinds in order)
    place = (np.cumsum(held, axis=1) - 1)[row, kind]
    idx[row, place] = kind * _STRIDE + multisets[row, kind]
    return idx


@dataclass(frozen=True)
class _CardTerms:
    """Pair Plus terms: the rank multisets (their entries after the cards' binomials and the
    padding, ``_RANKS_AT``), then the multisets of three cards of one suit, each with the
    categories it stands for."""

    idx: npt.NDArray[np.uint16]  # (455 + 1,820, 3) table indices
    unsuited: npt.NDArray[np.int64]  # (455,) each rank multiset's category when not all one suit
    suited: npt.NDArray[np.int64]  # (1,820,) the category of three cards of one suit
    of_rank: npt.NDArray[np.int64]  # (1,820,) which rank multiset each suited one is


_RANKS_AT = N_CARDS * _STRIDE + 1  # the ranks' binomials in the Pair Plus table (the core's SG_RANKS_AT)


@functools.cache
def _card_terms() -> _CardTerms:
    sets = pack(kind_multisets(N_RANKS))
    clubs = cards_of(sets, N_RANKS)  # each rank multiset's cards, all clubs
    category = triple_pair_plus()

    def of(codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return np.asarray(category[(codes[:, 0] * 52 + codes[:, 1]) * 52 + codes[:, 2]], dtype=np.int64)
    unsuited = of(clubs + np.array([0, 1, 0]))  # clubs, diamonds, clubs (identical cards: a shoe's)
    entries = _entries(sets, N_RANKS).astype(np.int64)
    rank_idx = np.where(entries == N_RANKS * _STRIDE, N_CARDS * _STRIDE, entries + _RANKS_AT)
    suit_idx, suited, of_rank = [], [], []
    for suit in range(N_SUITS):
        kind, mult = sets[:, :, 0].astype(np.int64), sets[:, :, 1].astype(np.int64)
        suit_idx.append(np.where(mult > 0, (4 * kind + suit) * _STRIDE + mult, N_CARDS * _STRIDE))
        suited.append(of(clubs + suit))
        of_rank.append(np.arange(len(sets)))
    idx = np.concatenate([rank_idx, *suit_idx]).astype(np.uint16)
    terms = _CardTerms(idx, unsuited, np.concatenate(suited), np.concatenate(of_rank))
    for arr in (terms.idx, terms.unsuited, terms.suited, terms.of_rank):
        arr.flags.writeable = False
    return terms


@functools.lru_cache(maxsize=16)
def _fold(kinds: int) -> npt.NDArray[np.uint8]:
    fold = np.array([kind_of(c, kinds) for c in range(N_CARDS)], dtype=np.uint8)
    fold.flags.writeable = False
    return fold


# --- what a rule set and its bets add: each row's scaled nets -------------------------------


def _nets(rules: RuleSet, kind: str, codes: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[Any], int]:
    """Each outcome code's net per unit, times the smallest denominator that makes them
    all integers (codes no hand reaches, 0xFF, get 0)."""
    nets = {int(c): payout(rules, kind, int(c))[1] for c in np.unique(codes) if c != 0xFF}
    denominator = math.lcm(*(n.denominator for n in nets.values())) if nets else 1
    table = np.zeros(256, dtype=object)
    for c, net in nets.items():
        table[c] = int(net * denominator)
    return table, denominator


def _pair_values(rules: RuleSet, kind: str, codes: npt.NDArray[np.uint8], pairs: _Pairs) -> tuple[npt.NDArray[Any], int]:
    """One comparison row's value of every 6-card multiset and tie term, and its denominator."""
    tied = pairs.key[pairs.tied]  # (order 0: the tie's key; +-1 the win's and the loss's)
    reached = np.concatenate([codes[pairs.key], codes[tied + 1], codes[tied - 1]])
    nets, denominator = _nets(rules, kind, reached)
    net = nets[codes]  # by pair key
    values = np.zeros(len(pairs.idx), dtype=object)
    np.add.at(values, pairs.six, net[pairs.key] * pairs.ways.astype(object))
    ways = pairs.tie_ways.astype(object)
    np.add.at(values, pairs.above, (net[tied + 1] - net[tied]) * ways)
    np.add.at(values, pairs.below, (net[tied - 1] - net[tied]) * ways)
    return values, denominator


@functools.lru_cache(maxsize=256)
def shoe_terms(rules: RuleSet, bets: tuple[str, ...]) -> ShoeTerms:
    """The shoe kernels' terms for ``bets`` under ``rules`` (cached)."""
    plan = plan_for(rules, bets)
    ranking = rules.ranking
    kinds = counting_kinds(ranking)
    class_sets, classes, _ = class_lookups(ranking)
    card_terms = _card_terms()
    by_part: dict[int, list[tuple[int, npt.NDArray[Any], int, str]]] = {PAIRS: [], SINGLE: [], CARDS: []}
    plan_rows: dict[int, tuple[int, int]] = {}  # plan row -> (part, index in part)
    for j, spec in enumerate(plan.specs):
        row = int(plan.row[j])
        if row in plan_rows:
            continue
        codes = plan.row_of(j)
        if plan.kd[j]:
            part = PAIRS
            values, denominator = _pair_values(rules, spec.kind, codes, _pairs(ranking))
        elif plan.kb[j]:
            part = CARDS
            nets, denominator = _nets(rules, spec.kind, codes[np.concatenate([card_terms.unsuited, card_terms.suited])])
            apart = nets[codes[card_terms.unsuited]]
            values = np.concatenate([apart, nets[codes[card_terms.suited]] - apart[card_terms.of_rank]])
        else:
            part = SINGLE
            nets, denominator = _nets(rules, spec.kind, codes[classes])
            values = nets[codes[classes]]
        plan_rows[row] = (part, len(by_part[part]))
        by_part[part].append((row, values, denominator, spec.kind))
    rows: list[Row] = []
    offset = {}
    arrays: dict[int, npt.NDArray[Any] | None] = {}
    wide = False
    for part in (PAIRS, SINGLE, CARDS):
        entries = by_part[part]
        offset[part] = len(rows)
        rows += [Row(part, d, kind) for _, _, d, kind in entries]
        arrays[part] = np.stack([v for _, v, _, _ in entries], axis=1) if entries else None
    idx = {PAIRS: _pairs(ranking).idx if by_part[PAIRS] else np.zeros((0, 6), np.uint16),
           SINGLE: _entries(class_sets, kinds), CARDS: card_terms.idx}
    for part in (PAIRS, CARDS):  # the multisets and terms that add nothing to any row: left out
        matrix = arrays[part]
        if matrix is not None:
            used = np.flatnonzero((matrix != 0).any(axis=1))
            idx[part], arrays[part] = idx[part][used], matrix[used]
    ties = ranking.uses_suits and arrays[PAIRS] is not None
    for part, matrix in arrays.items():
        if matrix is not None and len(matrix):
            bound = _MAX_TIE_VALUE if ties and part == PAIRS else _MAX_VALUE
            wide |= bool(max(abs(int(x)) for x in matrix.ravel()) >= bound)  # (abs: -2**63 too)

    def packed(part: int) -> tuple[npt.NDArray[np.uint16], npt.NDArray[Any]]:
        matrix = arrays[part]
        if matrix is None:
            return np.zeros((0, idx[part].shape[1]), dtype=np.uint16), np.zeros((0, 0), dtype=np.int64)
        return idx[part], matrix if wide else matrix.astype(np.int64)
    pairs_idx, pairs_values = packed(PAIRS)
    single_idx, single_values = packed(SINGLE)
    cards_idx, cards_values = packed(CARDS)
    bet_row = tuple(offset[plan_rows[int(plan.row[j])][0]] + plan_rows[int(plan.row[j])][1]
                    for j in range(len(plan.specs)))
    suit_order = np.argsort(SUIT_STRENGTH).astype(np.uint8) if ties else np.zeros(0, dtype=np.uint8)
    suit_order.flags.writeable = False
    return ShoeTerms(kinds, _fold(kinds), suit_order, pairs_idx, pairs_values, single_idx, single_values, cards_idx,
                    cards_values, tuple(rows), bet_row, wide)



