"""A shoe as it is dealt: the exact EV of every bet for the cards still unseen, card by card.

Before a round, the next hands are a uniformly random deal from the unseen cards, so a
bet's exact EV is ``analyze`` of that composition (the rules' section on playing a shoe).
``ShoeEvaluator`` gives the same Fractions in microseconds, and follows the shoe as cards
are removed or put back.

**The method.** A bet on one hand (the banker's Odd/Even, Point, Three Faces, a player's
Three Faces) is settled by the hand's class, which its multiset of counting kinds fixes
(11 class ranks A..9, ten, face for the usual rankings; the 13 ranks where the ranking
needs them): the EV is a sum over the 286 multisets ``B`` of
``ways(B) x net(B)``, where ``ways(B) = prod_k C(c_k, b_k)`` draws ``B`` from ``c_k``
unseen cards of kind k. A position's bet against the banker reads two disjoint hands: the
ordered pairs ``(P, B)`` with multisets ``P`` and ``B`` can be drawn in
``prod_k C(c_k, m_k) x prod_k C(m_k, p_k)`` ways, where ``M = P + B`` is the round's six
cards, so the EV is a sum over the 8,008 six-card multisets ``M`` of
``ways(M) x V(M)``, ``V(M) = sum over splits of prod_k C(m_k, p_k) x net(P, B)``: V does
not depend on the shoe and is computed once (and a multiset whose V is 0 for every bet is
left out). Nets are scaled to integers by a common denominator per bet, and the core sums
in 64 bits where the shoe's size and the largest value prove it cannot overflow, in 128
otherwise: exact for any shoe. Pair Plus reads suits only as "all three of one suit" or
not: its EV is a sum over the 455 rank multisets ``R`` of ``ways(R) x net(R, not suited)``
plus, over the 1,820 multisets of three cards of one suit, ``ways x (net(R, suited) -
net(R, not suited))``, rather than a sum over the 24,804 multisets of the 52 cards.

**Suit tie-breaks.** Where suits break ties, the kinds are the 13 ranks and two hands
compare by their ranks with the strongest card's suit left out; where those are equal
the hands share their highest rank t, a cards of it in ``P`` and b in ``B``, and the
suits of those a + b cards decide. Their ``C(c_t, a) C(c_t - a, b)`` draws split into
``E_t(a, b)`` with ``P``'s strongest suit above ``B``'s, ``E_t(b, a)`` below and the
rest tied, so such a pair adds ``ways(M) x net(tie)`` to the sum over ``M`` like any pair,
plus ``ways(M') x E_t(a, b) x (net(win) - net(tie))`` and the same with ``E_t(b, a)`` and
``net(lose)``, ``M'`` the six cards less those of rank t. Those are more terms of the same
sum: products of binomials of ``M'`` and one ``E``, which the kernel computes from the
unseen cards of each suit (``_spec.suit_split``): 1,678 terms for the San Gong and
Chinese rankings, beside the 18,564 six-card multisets of 13 ranks.

>>> from sanggong import MACAU, analyze, composition
>>> shoe = ShoeEvaluator(MACAU)
>>> shoe.ev("point:0") == analyze(MACAU)["point:0"].ev_exact
True
>>> shoe.remove("Kh Qs Jd Kd")
>>> shoe.cards
412
>>> shoe.ev("three_faces") == analyze(MACAU, composition(8, "Kh Qs Jd Kd"))["three_faces"].ev_exact
True
"""

from __future__ import annotations

import functools
import heapq
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _impl
from ._presentation import html_table, pandas, percent
from ._spec import N_CARDS, N_RANKS, N_SUITS, SUIT_STRENGTH, kind_multisets, kind_of, total_key, triple_pair_plus
from ._spec import RANK_SYMBOLS as _RANKS
from .analysis import (_bet_names, _cards_of, _check_counts, _class_tables, _kinds, _pack, _payout, analyze,
                       composition)
from .cards import Card, CardsLike, parse_cards
from .ranking import Ranking, tables_for
from .rules import RuleSet
from .seeds import Seed, SeedLike, seed_json
from .settlement import plan_for

__all__ = ["BetPlay", "CountBin", "CountPlay", "CountStats", "PayOption", "PerfectPlay", "PlayResult", "ShoeEvaluator",
           "StrategyStats", "design", "play_shoes"]

_PAIRS, _SINGLE, _CARDS = 0, 1, 2
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
    kinds = _kinds(ranking)
    sets, classes, ranks = _class_tables(ranking)
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
    for i, row in enumerate(multisets):
        held = np.flatnonzero(row)
        idx[i, : len(held)] = held * _STRIDE + row[held]
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
    sets = _pack(kind_multisets(N_RANKS))
    clubs = _cards_of(sets, N_RANKS)  # each rank multiset's cards, all clubs
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


@dataclass(frozen=True)
class _Row:
    part: int  # _PAIRS, _SINGLE or _CARDS
    denominator: int  # the nets of this row are multiples of 1 / denominator
    kind: str


@dataclass(frozen=True)
class ShoePlan:
    """Everything the shoe kernels read for a rule set and its bets (``ShoeKernel``)."""

    kinds: int
    fold: npt.NDArray[np.uint8]
    suit_order: npt.NDArray[np.uint8]  # where suits break ties: the suit codes, weakest first; else none
    pairs_idx: npt.NDArray[np.uint16]
    pairs_values: npt.NDArray[Any]
    single_idx: npt.NDArray[np.uint16]
    single_values: npt.NDArray[Any]
    cards_idx: npt.NDArray[np.uint16]
    cards_values: npt.NDArray[Any]
    rows: tuple[_Row, ...]  # in the kernels' order: pairs, single, cards
    bet_row: tuple[int, ...]  # each bet's row
    wide: bool  # a value beyond what the core sums exactly: the sums go through the reference (Python ints)


def _nets(rules: RuleSet, kind: str, codes: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[Any], int]:
    """Each outcome code's net per unit, times the smallest denominator that makes them
    all integers (codes no hand reaches, 0xFF, get 0)."""
    nets = {int(c): _payout(rules, kind, int(c))[1] for c in np.unique(codes) if c != 0xFF}
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
def shoe_plan(rules: RuleSet, bets: tuple[str, ...]) -> ShoePlan:
    """The shoe kernels' plan for ``bets`` under ``rules`` (cached)."""
    plan = plan_for(rules, bets)
    ranking = rules.ranking
    kinds = _kinds(ranking)
    class_sets, classes, _ = _class_tables(ranking)
    terms = _card_terms()
    by_part: dict[int, list[tuple[int, npt.NDArray[Any], int, str]]] = {_PAIRS: [], _SINGLE: [], _CARDS: []}
    plan_rows: dict[int, tuple[int, int]] = {}  # plan row -> (part, index in part)
    for j, spec in enumerate(plan.specs):
        row = int(plan.row[j])
        if row in plan_rows:
            continue
        codes = plan.row_of(j)
        if plan.kd[j]:
            part = _PAIRS
            values, denominator = _pair_values(rules, spec.kind, codes, _pairs(ranking))
        elif plan.kb[j]:
            part = _CARDS
            nets, denominator = _nets(rules, spec.kind, codes[np.concatenate([terms.unsuited, terms.suited])])
            apart = nets[codes[terms.unsuited]]
            values = np.concatenate([apart, nets[codes[terms.suited]] - apart[terms.of_rank]])
        else:
            part = _SINGLE
            nets, denominator = _nets(rules, spec.kind, codes[classes])
            values = nets[codes[classes]]
        plan_rows[row] = (part, len(by_part[part]))
        by_part[part].append((row, values, denominator, spec.kind))
    rows: list[_Row] = []
    offset = {}
    arrays: dict[int, npt.NDArray[Any] | None] = {}
    wide = False
    for part in (_PAIRS, _SINGLE, _CARDS):
        entries = by_part[part]
        offset[part] = len(rows)
        rows += [_Row(part, d, kind) for _, _, d, kind in entries]
        arrays[part] = np.stack([v for _, v, _, _ in entries], axis=1) if entries else None
    idx = {_PAIRS: _pairs(ranking).idx if by_part[_PAIRS] else np.zeros((0, 6), np.uint16),
           _SINGLE: _entries(class_sets, kinds), _CARDS: terms.idx}
    for part in (_PAIRS, _CARDS):  # the multisets and terms that add nothing to any row: left out
        matrix = arrays[part]
        if matrix is not None:
            used = np.flatnonzero((matrix != 0).any(axis=1))
            idx[part], arrays[part] = idx[part][used], matrix[used]
    ties = ranking.uses_suits and arrays[_PAIRS] is not None
    for part, matrix in arrays.items():
        if matrix is not None and len(matrix):
            bound = _MAX_TIE_VALUE if ties and part == _PAIRS else _MAX_VALUE
            wide |= bool(max(abs(int(x)) for x in matrix.ravel()) >= bound)  # (abs: -2**63 too)

    def packed(part: int) -> tuple[npt.NDArray[np.uint16], npt.NDArray[Any]]:
        matrix = arrays[part]
        if matrix is None:
            return np.zeros((0, idx[part].shape[1]), dtype=np.uint16), np.zeros((0, 0), dtype=np.int64)
        return idx[part], matrix if wide else matrix.astype(np.int64)
    pairs_idx, pairs_values = packed(_PAIRS)
    single_idx, single_values = packed(_SINGLE)
    cards_idx, cards_values = packed(_CARDS)
    bet_row = tuple(offset[plan_rows[int(plan.row[j])][0]] + plan_rows[int(plan.row[j])][1]
                    for j in range(len(plan.specs)))
    suit_order = np.argsort(SUIT_STRENGTH).astype(np.uint8) if ties else np.zeros(0, dtype=np.uint8)
    suit_order.flags.writeable = False
    return ShoePlan(kinds, _fold(kinds), suit_order, pairs_idx, pairs_values, single_idx, single_values, cards_idx,
                    cards_values, tuple(rows), bet_row, wide)


def _kernel(plan: ShoePlan, counts: Iterable[int]) -> Any:
    """The compiled ``ShoeKernel``, or the reference's where a value is beyond what it sums
    exactly (64 bits; 59 for the terms of a suit tie-break)."""
    if plan.wide:
        from . import _pykernels

        return _pykernels.ShoeKernel(plan, counts)
    return _impl.kernels.ShoeKernel(plan, counts)


# --- the public evaluator ------------------------------------------------------------------------


class ShoeEvaluator:
    """The exact EV of every bet of ``rules`` (or of ``bets``) for the unseen cards of a
    shoe, which start as a full shoe of ``rules.decks`` decks (or ``shoe``: 52 counts,
    as ``composition`` makes) and change as cards are removed or put back.

    ``ev`` equals ``analyze(rules, counts)[bet].ev_exact``: a Fraction, per unit staked
    for one round (a carried stake counts as neither won nor lost, as in ``analyze``).

    :raises ValueError: a composition ``analyze`` refuses; a bet the table does not offer.
    """

    def __init__(self, rules: RuleSet, shoe: npt.ArrayLike | None = None, *, bets: Iterable[str] | None = None) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        counts = composition(rules.decks) if shoe is None else _check_counts(shoe)
        names = _bet_names(rules, bets, "evaluate")
        self.rules = rules
        self.bets = names
        self._plan = shoe_plan(rules, names)
        self._capacity = np.maximum(counts, rules.decks)
        self._kernel = _kernel(self._plan, counts.tolist())

    @property
    def counts(self) -> npt.NDArray[np.int64]:
        """The unseen cards of each of the 52 codes (a copy)."""
        return np.array(self._kernel.counts, dtype=np.int64)

    @property
    def cards(self) -> int:
        """How many cards are unseen."""
        return int(self._kernel.n_cards)

    def _codes(self, cards: CardsLike) -> list[int]:
        if isinstance(cards, str) and not cards.strip():
            return []  # no card (parse_cards reads any other empty collection as none too)
        return [c.code for c in parse_cards(cards)]

    def remove(self, cards: CardsLike) -> None:
        """Take ``cards`` out of the unseen cards (all or none: a card the shoe no longer
        holds raises ValueError naming it, and nothing is removed)."""
        codes = self._codes(cards)
        left = self.counts
        for code in codes:
            if left[code] == 0:
                raise ValueError(f"cannot remove {Card(code)}: no such card is left unseen")
            left[code] -= 1
        for code in codes:
            self._kernel.remove(code)

    def add(self, cards: CardsLike) -> None:
        """Put ``cards`` back among the unseen cards (all or none: a card beyond what the
        shoe holds of it raises ValueError naming it)."""
        codes = self._codes(cards)
        held = self.counts
        for code in codes:
            if held[code] >= self._capacity[code]:
                raise ValueError(f"cannot add {Card(code)}: the shoe holds at most "
                                 f"{int(self._capacity[code])} of it")
            held[code] += 1
        for code in codes:
            self._kernel.add(code)

    def _check_dealable(self) -> None:
        if self.cards < 6:
            raise ValueError(f"a round needs 6 cards at the least; {self.cards} are unseen")

    def numerators(self) -> list[int]:
        """Each row's exact sum (the kernel's output), for benchmarks and tests."""
        return list(self._kernel.numerators())

    def evs(self) -> dict[str, Fraction]:
        """Every bet's exact EV per unit staked."""
        self._check_dealable()
        plan = self._plan
        sums = self._kernel.numerators()
        n = self.cards
        totals = {_PAIRS: math.comb(n, 3) * math.comb(n - 3, 3), _SINGLE: math.comb(n, 3), _CARDS: math.comb(n, 3)}
        values = [Fraction(s, row.denominator * totals[row.part]) for s, row in zip(sums, plan.rows, strict=True)]
        return {name: values[plan.bet_row[j]] for j, name in enumerate(self.bets)}

    def ev(self, bet: str) -> Fraction:
        """One bet's exact EV per unit staked."""
        if bet not in self.bets:
            self.rules.bet(bet)  # names a bet the table does not offer
            raise ValueError(f"{bet} is not among this evaluator's bets")
        return self.evs()[bet]

    def positive(self) -> list[str]:
        """The bets whose EV is positive now: what perfect-information play bets."""
        return [name for name, value in self.evs().items() if value > 0]

    def __repr__(self) -> str:
        return f"ShoeEvaluator({self.rules.name!r}, cards={self.cards}, bets={len(self.bets)})"


# --- playing shoes -------------------------------------------------------------------------------

RANK_SYMBOLS = tuple(_RANKS)  # (a tuple: "23" in a string of the symbols would be a rank)
DEFAULT_BIN_WIDTH = 0.5
DEFAULT_MAX_COUNT = 25.0
MAX_COUNT_BINS = 4096  # true-count bins (bets x bins x outcomes counts a chunk)


@dataclass(frozen=True)
class PerfectPlay:
    """Bet one unit on each bet whose exact EV of the unseen cards is positive."""

    name: str = "perfect"


@dataclass(frozen=True)
class CountPlay:
    """A card count: a running sum of per-rank tags over the seen cards; the true count is
    it per 52 unseen cards. Bet one unit on a bet when its true count reaches
    ``threshold``, or as many units as ``spread`` gives for the true count.

    :param tags: None: each bet's own balanced tags from its effect of removal
        (``effect_of_removal``); a mapping of rank symbol (``A 2 .. 9 T J Q K``) to int for
        every bet; or a mapping of bet name to such a mapping (bets left out: their own).
    :param threshold: None: for each bet the threshold that maximises its gain over the
        shoes played (by the exact EVs when perfect information is played alongside,
        else by the results); a number for every bet; or a mapping of bet name to number.
        Thresholds fall on the true-count bins: multiples of ``bin_width``.
    :param spread: units bet by true count: a mapping of true count to units, the units
        of the largest true count not above the round's (none below the smallest).
        Overrides ``threshold``.
    :param bin_width: the width of the true-count bins the results are tabled by.
    :param max_count: true counts beyond +-max_count share the outermost bins.
    """

    tags: Mapping[str, Any] | None = None
    threshold: float | Mapping[str, float] | None = None
    spread: Mapping[float, int] | None = None
    bin_width: float = DEFAULT_BIN_WIDTH
    max_count: float = DEFAULT_MAX_COUNT
    name: str = "count"


Strategy = PerfectPlay | CountPlay


def _strategies(strategy: object) -> tuple[PerfectPlay | None, CountPlay | None]:
    items = [strategy] if isinstance(strategy, str | PerfectPlay | CountPlay) else strategy
    if not isinstance(items, Iterable):
        raise TypeError(f"strategy: expected 'perfect', 'count', a PerfectPlay or CountPlay, or a list of them, "
                        f"not {type(strategy).__name__}")
    perfect: PerfectPlay | None = None
    count: CountPlay | None = None
    for item in list(items):
        if item == "perfect":
            item = PerfectPlay()
        elif item == "count":
            item = CountPlay()
        if isinstance(item, PerfectPlay) and perfect is None:
            perfect = item
        elif isinstance(item, CountPlay) and count is None:
            count = item
        elif isinstance(item, PerfectPlay | CountPlay):
            raise ValueError(f"strategy: {item.name} is given twice")
        else:
            raise ValueError(f"strategy: unknown strategy {item!r}: expected 'perfect' or 'count'")
    if perfect is None and count is None:
        raise ValueError("strategy: give at least one strategy ('perfect', 'count')")
    return perfect, count


def _number(name: str, value: object, lo: float, hi: float) -> float:
    """A finite number in lo..hi, as a float (ints and Fractions compared exactly first: a
    huge one is refused by name, never converted)."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise TypeError(f"{name} must be a finite number, not {value!r}"[:200])
    if isinstance(value, float) and not math.isfinite(value):
        raise TypeError(f"{name} must be a finite number, not {value!r}")
    if not lo <= value <= hi:
        shown = f"a {value.bit_length()}-bit number" if isinstance(value, int) and abs(value) > 10**30 else repr(value)
        raise ValueError(f"{name} must be in {lo:g}..{hi:g}, got {shown}"[:200])
    return float(value)


def _tag_vector(where: str, tags: object) -> tuple[int, ...]:
    from .limits import MAX_TAG

    if not isinstance(tags, Mapping):
        raise TypeError(f"{where}: tags are a mapping of rank symbol to int, not {type(tags).__name__}")
    unknown = [k for k in tags if k not in RANK_SYMBOLS]
    if unknown:
        raise ValueError(f"{where}: unknown rank {unknown[0]!r}: ranks are {' '.join(RANK_SYMBOLS)}")
    out = []
    for symbol in RANK_SYMBOLS:
        value = tags.get(symbol, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{where}: the tag of {symbol} must be an int, not {value!r}")
        if abs(value) > MAX_TAG:
            raise ValueError(f"{where}: the tag of {symbol} is {value}, beyond +-{MAX_TAG}")
        out.append(value)
    return tuple(out)


def _bet_tags(rules: RuleSet, bets: tuple[str, ...], count: CountPlay) -> dict[str, tuple[int, ...]]:
    """Each bet's tag vector (13 ints, A..K)."""
    given = count.tags
    per_bet: dict[str, tuple[int, ...]] = {}
    if given is not None:
        if not isinstance(given, Mapping):
            raise TypeError(f"tags: expected a mapping, not {type(given).__name__}")
        odd = next((k for k in given if not isinstance(k, str)), None)
        if odd is not None:
            raise TypeError(f"tags: keys are rank symbols or bet names, not {odd!r}"[:200])
        if given and all(k in RANK_SYMBOLS for k in given):
            vector = _tag_vector("tags", given)
            per_bet = {bet: vector for bet in bets}
        else:
            for bet, tags in given.items():
                if bet not in bets:
                    rules.bet(bet)  # names an unknown bet
                    raise ValueError(f"tags: {bet} is not among the bets played")
                per_bet[bet] = _tag_vector(f"tags of {bet}", tags)
    missing = [b for b in bets if b not in per_bet]
    if missing:
        if rules.fresh_deck_each_round:  # a fresh deck each round: nothing to count
            per_bet.update({b: (0,) * len(RANK_SYMBOLS) for b in missing})
        else:
            from .analysis import effect_of_removal

            removal = effect_of_removal(rules, missing)
            per_bet.update({b: tuple(removal[b].tags[s] for s in RANK_SYMBOLS) for b in missing})
    return per_bet


@dataclass(frozen=True)
class CountBin:
    """The rounds whose true count fell in [low, high) (None: unbounded)."""

    low: float | None
    high: float | None
    rounds: int
    ev: float | None  # the mean exact EV there (with perfect information played alongside)
    result: float | None  # the mean result per unit staked there


@dataclass(frozen=True)
class StrategyStats:
    """How one strategy fared with one bet (units won per unit staked; every figure per
    round dealt unless it says per unit bet).

    ``frequency``: the fraction of rounds it bet. ``advantage``: its mean exact EV per unit
    bet (None where the EVs were not computed). ``result_per_unit``: the mean result per
    unit bet. ``gain_per_100``: units won per 100 rounds dealt, with its standard error
    (rounds treated as independent); ``expected_gain_per_100``: the same from the exact
    EVs of the rounds it bet (a far smaller error). ``sd``: the standard deviation of the
    result per round dealt. ``risk_of_ruin``: with ``bankroll``, the chance of losing it
    (the diffusion approximation ``exp(-2 gain bankroll / sd**2)``)."""

    strategy: str
    rounds: int
    rounds_bet: int
    units_bet: float
    frequency: float
    advantage: float | None
    result_per_unit: float | None
    gain_per_100: float
    gain_per_100_se: float
    expected_gain_per_100: float | None
    sd: float
    risk_of_ruin: float | None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "strategy"}


@dataclass(frozen=True)
class CountStats(StrategyStats):
    """A count's results, with its tags, the threshold it bet from, the correlation of
    the true count with the exact EV, and the results by true count."""

    tags: Mapping[str, int]
    threshold: float | None
    correlation: float | None
    table: tuple[CountBin, ...]

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["tags"] = dict(self.tags)
        out["table"] = [b.__dict__ for b in self.table if b.rounds]
        return out


@dataclass(frozen=True)
class BetPlay:
    """One bet over the shoes played: its fresh-shoe EV and each strategy's results."""

    bet: str
    ev: Fraction  # exact, fresh shoe
    always: StrategyStats  # betting every round: the control
    perfect: StrategyStats | None
    count: CountStats | None

    @property
    def house_edge(self) -> float:
        return -float(self.ev)

    @property
    def beatable(self) -> bool:
        """Whether a strategy gains over the shoes played: by the exact EVs of the rounds
        it bet where they were computed (perfect information played), else by the count's
        results, more than 3 standard errors above 0 (its threshold was chosen on these
        same shoes, which flatters it)."""
        if self.perfect is not None:
            return any(s is not None and (s.expected_gain_per_100 or 0.0) > 0 for s in (self.perfect, self.count))
        return self.count is not None and self.count.gain_per_100 - 3 * self.count.gain_per_100_se > 0

    def to_dict(self) -> dict[str, Any]:
        return {"bet": self.bet, "house_edge": self.house_edge, "beatable": self.beatable,
                "always": self.always.to_dict(),
                "perfect": None if self.perfect is None else self.perfect.to_dict(),
                "count": None if self.count is None else self.count.to_dict()}


@dataclass(frozen=True)
class PlayResult:
    """What ``play_shoes`` found, per bet."""

    rules: str
    decks: int
    positions: int
    shoes: int
    rounds: int
    seed: int | Seed
    burned_seen: bool
    bets: Mapping[str, BetPlay]
    interrupted: bool = False
    seconds: float = field(default=0.0, compare=False)

    def __getitem__(self, bet: str) -> BetPlay:
        return self.bets[bet]

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "decks": self.decks, "positions": self.positions, "shoes": self.shoes,
                "rounds": self.rounds, "seed": seed_json(self.seed), "burned_seen": self.burned_seen,
                "interrupted": self.interrupted, "bets": [b.to_dict() for b in self.bets.values()]}

    def to_frame(self) -> Any:
        """One row per bet and strategy (pandas, the ``frame`` extra)."""
        rows = []
        for b in self.bets.values():
            for s in (b.always, b.perfect, b.count):
                if s is not None:
                    rows.append({"bet": b.bet, "house_edge": b.house_edge, **s.__dict__,
                                 **({"tags": None, "table": None} if isinstance(s, CountStats) else {})})
        return pandas().DataFrame(rows).set_index(["bet", "strategy"])

    def _repr_html_(self) -> str:
        def f(s: StrategyStats | None, what: str) -> str:
            if s is None:
                return ""
            value = getattr(s, what)
            return "" if value is None else (percent(value) if what == "frequency" else f"{value:+.4f}")

        rows = [(b.bet, percent(b.house_edge), f(b.perfect, "frequency"), f(b.perfect, "expected_gain_per_100"),
                 f(b.count, "frequency"), f(b.count, "gain_per_100"), "yes" if b.beatable else "")
                for b in self.bets.values()]
        header = ("bet", "house edge", "perfect: frequency", "perfect: gain/100", "count: frequency",
                  "count: gain/100", "beatable")
        return html_table("play", f"{self.rules}: {self.shoes:,} shoes, {self.rounds:,} rounds", header, rows)


@dataclass(frozen=True)
class _PlayChunk:
    index: int
    rounds: int
    shoes: int
    count_hist: npt.NDArray[np.uint64]
    perfect_hist: npt.NDArray[np.uint64]
    ev_bins: npt.NDArray[np.float64]
    moments: npt.NDArray[np.float64]


@dataclass(frozen=True)
class _Setup:
    """What every chunk needs besides its seed (picklable: the plans are rebuilt)."""

    rules: RuleSet
    bets: tuple[str, ...]
    perfect: bool
    tags: npt.NDArray[np.int32]  # (vectors, 13)
    bet_tag: npt.NDArray[np.int32]
    bin_width: float
    bin_zero: int
    bins: int
    burned_seen: bool


@functools.lru_cache(maxsize=64)
def _outcome_columns(rules: RuleSet, bets: tuple[str, ...]) -> tuple[npt.NDArray[np.uint8], tuple[tuple[int, ...], ...]]:
    """The settlement plan's outcome codes compacted to a few columns per row: (plan
    rows, key space) row and key -> column (keys no hand reaches: 0), and each bet's
    codes by column."""
    plan = plan_for(rules, bets)
    table = plan.table.reshape(-1, plan.key_space)
    columns = np.zeros(table.shape, dtype=np.uint8)
    codes = []
    for j in range(len(bets)):
        row = int(plan.row[j])
        reached = [int(c) for c in np.unique(table[row]) if c != 0xFF]
        lookup = np.zeros(256, dtype=np.uint8)
        lookup[reached] = np.arange(len(reached))
        columns[row] = lookup[table[row]]
        codes.append(tuple(reached))
    columns.flags.writeable = False
    return columns, tuple(codes)


@functools.lru_cache(maxsize=64)
def _fixed_evs(rules: RuleSet, bets: tuple[str, ...]) -> npt.NDArray[np.float64]:
    """A fresh deck's EV of each row of the shoe plan (cached)."""
    plan = shoe_plan(rules, bets)
    evs = ShoeEvaluator(rules, bets=bets).evs()
    out = np.zeros(len(plan.rows), dtype=np.float64)
    for j, bet in enumerate(bets):
        out[plan.bet_row[j]] = float(evs[bet])
    out.flags.writeable = False
    return out


def _run_play_chunk(setup: _Setup, index: int, seed: np.random.SeedSequence, shoes: int,
                    stop: npt.NDArray[np.uint8] | None = None) -> _PlayChunk:
    rules, bets = setup.rules, setup.bets
    tables = tables_for(rules.ranking)
    plan = plan_for(rules, bets)
    columns, codes = _outcome_columns(rules, bets)
    width = max(len(c) for c in codes)
    shoe = shoe_plan(rules, bets)
    kernel = None
    fixed = np.zeros(0, dtype=np.float64)
    if setup.perfect:
        if rules.fresh_deck_each_round:
            fixed = _fixed_evs(rules, bets)
        else:
            kernel = _kernel(shoe, composition(rules.decks).tolist())
    row_scale = np.array([1 / r.denominator for r in shoe.rows], dtype=np.float64)
    row_part = np.array([r.part for r in shoe.rows], dtype=np.uint8)
    bet_row = np.array(shoe.bet_row, dtype=np.int32)
    m = len(bets)
    count_hist = np.zeros((setup.bins, m, width), dtype=np.uint64)
    perfect_hist = np.zeros((m, width), dtype=np.uint64)
    ev_bins = np.zeros((setup.bins, m), dtype=np.float64)
    moments = np.zeros((m, 6), dtype=np.float64)
    flag = np.zeros(1, dtype=np.uint8) if stop is None else stop
    from ._table import table_params

    # a setup sent to a Dask worker can arrive with its arrays as views into a byte buffer
    # at any offset: the kernel refuses those, so aligned copies where they are not aligned
    tags = np.require(setup.tags, np.int32, ["C", "A"])
    bet_tag = np.require(setup.bet_tag, np.int32, ["C", "A"])
    rounds, done = _impl.kernels.play_chunk(
        np.random.PCG64(seed), tables.kernel, table_params(rules).array(), shoes, plan, columns, kernel, bet_row, row_scale,
        row_part, fixed, tags, bet_tag, setup.bin_width, setup.bin_zero, setup.burned_seen,
        count_hist, perfect_hist, ev_bins, moments, flag,
    )
    return _PlayChunk(index, int(rounds), int(done), count_hist, perfect_hist, ev_bins, moments)


def _stats(name: str, rounds: int, counts: npt.NDArray[Any], nets: list[Fraction], units: npt.NDArray[Any] | None,
           ev_sum: float | None, bankroll: float | None) -> StrategyStats:
    """A strategy's figures from its outcome counts: ``counts`` (columns) for one unit a
    round, or (bins, columns) weighted by ``units`` per bin."""
    if units is None:
        by_col = [int(x) for x in counts]
        rounds_bet = sum(by_col)
        units_bet = float(rounds_bet)
        total = sum((c * n for c, n in zip(by_col, nets)), Fraction(0))
        squares = sum((c * n * n for c, n in zip(by_col, nets)), Fraction(0))
    else:
        rounds_bet = 0
        units_bet = 0.0
        total = squares = Fraction(0)
        for b, u in enumerate(units):
            if u == 0:
                continue
            row = [int(x) for x in counts[b]]
            n_b = sum(row)
            rounds_bet += n_b
            units_bet += float(u) * n_b
            total += Fraction(u) * sum((c * n for c, n in zip(row, nets)), Fraction(0))
            squares += Fraction(u) ** 2 * sum((c * n * n for c, n in zip(row, nets)), Fraction(0))
    mean = total / rounds if rounds else Fraction(0)
    var = max(float(squares / rounds - mean * mean), 0.0) if rounds else math.nan
    sd = math.sqrt(var)
    gain = 100 * float(mean)
    se = 100 * sd / math.sqrt(rounds) if rounds else math.nan
    expected = None if ev_sum is None else 100 * ev_sum / rounds if rounds else math.nan
    ruin = None
    if bankroll is not None:
        ruin = 1.0 if mean <= 0 or var == 0 else min(1.0, math.exp(-2 * float(mean) * bankroll / var))
    return StrategyStats(
        strategy=name, rounds=rounds, rounds_bet=rounds_bet, units_bet=units_bet,
        frequency=rounds_bet / rounds if rounds else 0.0,
        advantage=None if ev_sum is None or not units_bet else ev_sum / units_bet,
        result_per_unit=float(total) / units_bet if units_bet else None,
        gain_per_100=gain, gain_per_100_se=se, expected_gain_per_100=expected, sd=sd, risk_of_ruin=ruin,
    )


def _bin_edges(setup: _Setup) -> list[tuple[float | None, float | None]]:
    w, z = setup.bin_width, setup.bin_zero
    return [(None if b == 0 else (b - z) * w, None if b == setup.bins - 1 else (b - z + 1) * w)
            for b in range(setup.bins)]


def _count_units(setup: _Setup, count: CountPlay, bet: str, hist: npt.NDArray[Any], nets: list[Fraction],
                 ev_bins: npt.NDArray[np.float64] | None) -> tuple[npt.NDArray[Any], float | None]:
    """Units bet in each true-count bin, and the threshold they come from."""
    edges = _bin_edges(setup)
    lows = [(-math.inf if lo is None else lo) for lo, _ in edges]
    if count.spread is not None:
        steps = sorted(count.spread.items())
        units = np.zeros(setup.bins, dtype=object)
        for b, lo in enumerate(lows):
            for tc, u in steps:
                if lo >= tc - 1e-9:
                    units[b] = u
        return units, float(steps[0][0])
    threshold = count.threshold
    if isinstance(threshold, Mapping):
        threshold = threshold.get(bet)
    if threshold is None:  # the best: the bins whose gain sums highest from some bin up
        if ev_bins is not None:
            gains = [float(x) for x in ev_bins]
        else:
            gains = [float(sum((int(c) * n for c, n in zip(hist[b], nets)), Fraction(0))) for b in range(setup.bins)]
        best, best_at, running = 0.0, None, 0.0
        for b in range(setup.bins - 1, 0, -1):
            running += gains[b]
            if running > best:
                best, best_at = running, b
        if best_at is None:
            return np.zeros(setup.bins, dtype=object), None
        threshold = lows[best_at]
    units = np.array([1 if lo >= threshold - 1e-9 else 0 for lo in lows], dtype=object)
    return units, float(threshold)


def _correlation(moments: npt.NDArray[np.float64], rounds: int) -> float | None:
    if not rounds:
        return None
    _, ev, ev2, tc, tc2, tc_ev = (float(x) / rounds for x in moments)
    var_ev, var_tc = ev2 - ev * ev, tc2 - tc * tc
    if var_ev <= 0 or var_tc <= 0:
        return None
    return (tc_ev - tc * ev) / math.sqrt(var_ev * var_tc)


def play_shoes(
    rules: RuleSet,
    shoes: int,
    strategy: str | Strategy | Iterable[str | Strategy],
    seed: SeedLike = None,
    workers: int | None = None,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    bets: Iterable[str] | None = None,
    burned_seen: bool = False,
    bankroll: float | None = None,
    chunk_size: int | None = None,
    partial_on_interrupt: bool = False,
) -> PlayResult:
    """Deal ``shoes`` shoes exactly as ``Game`` deals them and play ``strategy`` on every
    bet of ``rules`` (or ``bets``): ``"perfect"`` (``PerfectPlay``), ``"count"``
    (``CountPlay``), or both. Betting every round is always reported too (``always``).

    Chunks of ``chunk_size`` shoes (1,024; 65,536 rounds where a fresh deck deals each
    round) each draw from ``SeedSequence(seed).spawn(...)[k]``: chunk k plays the shoes
    ``Game(rules, seed=<that sequence>)`` deals, and the result is the same for any
    ``workers`` and any ``executor`` (e.g. Dask's ``Client.get_executor()``).

    :param burned_seen: count burned cards as seen (by default they stay unseen: face down).
    :param bankroll: units: report each strategy's risk of ruin with this bankroll.
    :param progress: called with (shoes done, shoes) as chunks finish.
    :param partial_on_interrupt: on Ctrl-C return what the finished chunks found.
    """
    from concurrent.futures import Executor, ThreadPoolExecutor

    from . import _parallel
    from .limits import MAX_SHOES
    from .seeds import check_seed
    from .simulation import _count

    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    sequence, recorded_seed = check_seed(seed)  # its size checked before any work
    _count("shoes", shoes, MAX_SHOES)
    perfect, count = _strategies(strategy)
    names = _bet_names(rules, bets, "play")
    for flag, value in (("burned_seen", burned_seen), ("partial_on_interrupt", partial_on_interrupt)):
        if not isinstance(value, bool):
            raise TypeError(f"{flag} must be True or False, not {value!r}"[:200])
    if bankroll is not None:
        bankroll = _number("bankroll", bankroll, 1e-9, 1e15)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor, not {type(executor).__name__}")
    default_chunk = 65536 if rules.fresh_deck_each_round else 1024
    chunk = _count("chunk_size", default_chunk if chunk_size is None else chunk_size, MAX_SHOES)
    shoe = shoe_plan(rules, names)
    if perfect is not None and shoe.wide and not rules.fresh_deck_each_round:
        raise ValueError("perfect information on a shoe: these pays' exact nets, over a common denominator, "
                         "need more than 64 bits (59 where suits break ties: odds and rates with large, different "
                         "denominators), which only the pure-Python evaluator sums; play 'count', or round the odds")
    counting = count if count is not None else CountPlay()
    width = _number("bin_width", counting.bin_width, 1e-3, 100.0)
    reach = _number("max_count", counting.max_count, width, 1e4)
    if count is not None and count.spread is not None:
        if not isinstance(count.spread, Mapping) or not count.spread:
            raise TypeError("spread: a non-empty mapping of true count to units")
        for tc, amount in count.spread.items():
            _number("spread: a true count", tc, -1e4, 1e4)
            if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= 10**6:
                raise ValueError(f"spread: units must be ints in 0..1,000,000, got {amount!r} at {tc}")
    if count is not None and count.threshold is not None:
        given = count.threshold if isinstance(count.threshold, Mapping) else {n: count.threshold for n in names}
        for bet, level in given.items():
            if bet not in names:
                raise ValueError(f"threshold: {bet} is not among the bets played")
            _number(f"threshold of {bet}", level, -1e4, 1e4)
    zero = int(math.ceil(reach / width))
    if zero > MAX_COUNT_BINS // 2:
        raise ValueError(f"max_count / bin_width = {reach:g} / {width:g} makes {2 * zero + 2:,} true-count bins; "
                         f"at most {MAX_COUNT_BINS:,}")
    bins = 2 * zero + 2  # [-reach, reach) in bins of width, and one open bin at each end
    bin_zero = zero + 1
    tags_by_bet = _bet_tags(rules, names, counting) if count is not None else {n: (0,) * 13 for n in names}
    vectors = sorted(set(tags_by_bet.values()))
    if len(vectors) > 64:
        raise ValueError("tags: at most 64 different tag vectors")
    setup = _Setup(
        rules=rules, bets=names, perfect=perfect is not None,
        tags=np.array(vectors, dtype=np.int32).reshape(-1, 13),
        bet_tag=np.array([vectors.index(tags_by_bet[n]) for n in names], dtype=np.int32),
        bin_width=width, bin_zero=bin_zero, bins=bins, burned_seen=burned_seen,
    )
    window = _parallel.workers(workers)
    _, codes = _outcome_columns(rules, names)
    m, ncol = len(names), max(len(c) for c in codes)
    count_hist = np.zeros((bins, m, ncol), dtype=object)
    perfect_hist = np.zeros((m, ncol), dtype=object)
    ev_bins = np.zeros((bins, m), dtype=np.float64)
    moments = np.zeros((m, 6), dtype=np.float64)
    done_rounds = done_shoes = 0
    parts: dict[int, _PlayChunk] = {}

    def absorb(part: _PlayChunk) -> None:
        nonlocal done_rounds, done_shoes
        parts[part.index] = part
        done_rounds += part.rounds
        done_shoes += part.shoes
        count_hist[...] += part.count_hist.astype(object)
        perfect_hist[...] += part.perfect_hist.astype(object)
        if progress is not None:
            progress(done_shoes, shoes)

    stop = np.zeros(1, dtype=np.uint8)
    tasks = ((setup, k, child, n) for k, child, n in _parallel.chunks(shoes, chunk, sequence))
    start = time.perf_counter()
    if executor is None:
        with ThreadPoolExecutor(max_workers=window, thread_name_prefix="sanggong-shoe") as pool:
            interrupted = _parallel.execute(((*t, stop) for t in tasks), _run_play_chunk, pool, 2 * window, absorb,
                                            stop)
    else:
        interrupted = _parallel.execute(tasks, _run_play_chunk, executor, 2 * window, absorb, None)
    seconds = time.perf_counter() - start
    if interrupted and not partial_on_interrupt:
        raise KeyboardInterrupt
    for k in sorted(parts):  # floating sums in chunk order: the same whatever finished first
        ev_bins += parts[k].ev_bins
        moments += parts[k].moments
    fresh = analyze(rules)
    out: dict[str, BetPlay] = {}
    for j, name in enumerate(names):
        kind = rules.bet(name).kind
        nets = [_payout(rules, kind, c)[1] for c in codes[j]] + [Fraction(0)] * (ncol - len(codes[j]))
        hist = count_hist[:, j]
        evs = ev_bins[:, j] if perfect is not None else None
        always = _stats("always", done_rounds, hist.sum(axis=0), nets, None,
                        float(moments[j, 1]) if perfect is not None else None, bankroll)
        perfect_stats = None
        if perfect is not None:
            perfect_stats = _stats("perfect", done_rounds, perfect_hist[j], nets, None, float(moments[j, 0]), bankroll)
        count_stats = None
        if count is not None:
            units, threshold = _count_units(setup, count, name, hist, nets, evs)
            ev_sum = float(sum(float(u) * float(e) for u, e in zip(units, evs))) if evs is not None else None
            base = _stats("count", done_rounds, hist, nets, units, ev_sum, bankroll)
            table = []
            for b, (lo, hi) in enumerate(_bin_edges(setup)):
                n_b = int(sum(int(c) for c in hist[b]))
                result = (float(sum((int(c) * n for c, n in zip(hist[b], nets)), Fraction(0))) / n_b) if n_b else None
                table.append(CountBin(lo, hi, n_b, float(evs[b]) / n_b if evs is not None and n_b else None, result))
            count_stats = CountStats(
                **base.__dict__, tags=dict(zip(RANK_SYMBOLS, tags_by_bet[name], strict=True)),
                threshold=threshold, correlation=_correlation(moments[j], done_rounds) if perfect is not None else None,
                table=tuple(table),
            )
        out[name] = BetPlay(name, fresh[name].ev_exact, always, perfect_stats, count_stats)
    return PlayResult(
        rules=rules.name, decks=rules.decks, positions=rules.positions, shoes=done_shoes, rounds=done_rounds,
        seed=recorded_seed, burned_seen=burned_seen, bets=out, interrupted=interrupted, seconds=seconds,
    )


# --- pay tables designed to an edge ---------------------------------------------------------------

DESIGN_LIMIT = 50
"""At most this many pay tables are listed (those whose edge is nearest the range's middle)."""

MAX_DESIGN_TABLES = 2_000_000
"""Partial Pair Plus tables the search of ``design`` visits at most (about a second)."""


@dataclass(frozen=True)
class PayOption:
    """A pay table for one bet (``pays``: odds to 1, by pays key or Pair Plus category)
    with its exact fresh-shoe house edge and what perfect-information play gains on it
    per 100 rounds dealt (from the exact EVs of the rounds bet)."""

    pays: Mapping[str, Fraction]
    house_edge: Fraction
    perfect_gain_per_100: float | None
    perfect_frequency: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"pays": {k: str(v) for k, v in self.pays.items()}, "house_edge": float(self.house_edge),
                "house_edge_exact": str(self.house_edge), "perfect_gain_per_100": self.perfect_gain_per_100,
                "perfect_frequency": self.perfect_frequency}


_DECIMAL = re.compile(r"[+-]?(?:\d{1,15}(?:\.\d{0,15})?|\.\d{1,15})(?:[eE][+-]?\d{1,3})?")


def _fraction(name: str, value: object) -> Fraction:
    """A pay table's number, exactly: an int, a Fraction, a finite float, or a decimal
    string (its exponent checked before it is expanded)."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction | str | float):
        raise TypeError(f"{name} must be a number, not {value!r}"[:200])
    if isinstance(value, str) and not _DECIMAL.fullmatch(value.strip()):
        raise ValueError(f"{name} must be a number, not {value[:40]!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    if isinstance(value, int) and abs(value) > 10**12:
        raise ValueError(f"{name}: {value if abs(value) < 10**30 else 'a huge number'} is beyond the numbers a pay table holds")
    try:
        out = Fraction(str(value).strip()) if isinstance(value, float | str) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{name} must be a number, not {str(value)[:40]!r}") from None
    if abs(out.numerator) > 10**12 or out.denominator > 10**6:
        raise ValueError(f"{name}: {value!r} is beyond the numbers a pay table holds")
    return out


def design(
    rules: RuleSet,
    bet: str,
    edge: tuple[Any, Any],
    decks: int | None = None,
    *,
    step: Any = Fraction(1, 2),
    pays: tuple[Any, Any] | None = None,
    shoes: int = 1000,
    seed: SeedLike = 1,
    workers: int | None = None,
    limit: int = DESIGN_LIMIT,
    key: str | None = None,
) -> list[PayOption]:
    """The pays of ``bet`` (odds to 1, multiples of ``step``) whose exact house edge on a
    fresh shoe of ``decks`` decks (default ``rules.decks``) lies in ``edge = (low, high)``
    (fractions of the stake: 0.02 is 2%), each with its perfect-information gain per 100
    rounds over ``shoes`` shoes played from ``seed`` (a shoe game: a designer wants a pay
    that is profitable *and* gains a perfect counter little).

    A bet's pay is its kind's (bets of one kind share it: every ``point:<n>``; a Win's
    six-point pay stays as it is), a total bet's its range's. Pair Plus is designed as a whole table: every
    category's odds, non-decreasing from pair to straight flush. ``pays = (low, high)``
    bounds the odds tried (default: 1 to twice the table's highest for the bet). A banker
    game's bet pays by its multipliers: ``key`` names the one to vary (``"9"``,
    ``"face_trips"``, ...; default the highest), the others staying as they are.
    """
    from .limits import MAX_DECKS
    from .seeds import check_seed

    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    check_seed(seed)  # its size checked before any work
    if not isinstance(bet, str):
        raise TypeError(f"bet must be a bet name, not {type(bet).__name__}")
    spec = rules.bet(bet)
    if decks is not None:
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
            raise ValueError(f"decks must be an int in 1..{MAX_DECKS}, got {decks!r}")
        rules = rules.replace(decks=decks)
    if not isinstance(edge, tuple | list) or len(edge) != 2:
        raise TypeError(f"edge must be a (low, high) pair, not {edge!r}")
    low, high = (_fraction("edge", e) for e in edge)
    if not -1 <= low <= high <= 1:
        raise ValueError(f"edge must satisfy -1 <= low <= high <= 1, got ({edge[0]}, {edge[1]})")
    unit = _fraction("step", step)
    if unit <= 0:
        raise ValueError(f"step must be positive, got {step!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
        raise ValueError(f"limit must be an int in 1..10,000, got {limit!r}")
    pair_plus = spec.kind == "pair_plus"
    multiplied = spec.kind == "player"
    if key is not None and not multiplied:
        raise ValueError(f"key: only a banker game's bets pay by a multiplier to choose; {bet} pays its odds")
    if multiplied:
        if key is None:
            key = max(rules.multipliers, key=lambda k: (rules.multipliers[k], k))
        if not isinstance(key, str) or key not in rules.multipliers:
            raise ValueError(f"key: {key!r} is not a multiplier of the table: {', '.join(rules.multipliers)}")
        current = {key: rules.multipliers[key]}
    elif spec.kind == "total":  # its range's odds, in total_pays
        current = {total_key(spec.number): rules.total_pays[total_key(spec.number)]}
    else:
        current = dict(rules.pair_plus_pays) if pair_plus else {spec.kind: rules.pays[spec.kind]}
    if pays is None:  # around the table's own: half to twice each pay (a whole table: each category)
        ranges = {k: (max(unit, v / 2), 2 * v) for k, v in current.items()}
        if all(unit > hi for _, hi in ranges.values()):
            raise ValueError(f"step {step} is larger than twice the table's pays ({', '.join(map(str, current.values()))}): "
                             f"take a smaller step, or give pays")
    else:
        if not isinstance(pays, tuple | list) or len(pays) != 2:
            raise TypeError(f"pays must be a (low, high) pair of odds, not {pays!r}"[:200])
        lo_pay, hi_pay = (_fraction("pays", p) for p in pays)
        if not 0 < lo_pay <= hi_pay <= 10**6:
            raise ValueError(f"pays must satisfy 0 < low <= high <= 1,000,000, got ({lo_pay}, {hi_pay})")
        ranges = dict.fromkeys(current, (lo_pay, hi_pay))
    grids = {k: (math.ceil(lo / unit), math.floor(hi / unit)) for k, (lo, hi) in ranges.items()}
    for k, (g_lo, g_hi) in grids.items():
        if g_hi < g_lo:
            raise ValueError(f"no multiple of step {unit} lies between {ranges[k][0]} and {ranges[k][1]} (the pays tried)")
        if g_hi - g_lo + 1 > 10**6:
            raise ValueError("pays: more than a million odds to try: take a larger step or a narrower range")
    from . import _parallel
    from .limits import MAX_SHOES
    from .simulation import _count

    _count("shoes", shoes, MAX_SHOES)  # checked now: the plays come after the search
    _parallel.workers(workers)

    # the edge is affine in each pay: EV = base + sum over pays of slope * pay
    def with_pays(table: Mapping[str, Fraction]) -> RuleSet:
        if pair_plus:
            return rules.replace(pair_plus_pays=dict(table))
        if multiplied:
            return rules.replace(multipliers={**rules.multipliers, **table})
        if spec.kind == "total":
            return rules.replace(total_pays={**rules.total_pays, **table})
        return rules.replace(pays={**rules.pays, **table})

    keys = list(current)
    tiny = Fraction(1, 10**6)
    base = analyze(with_pays(dict.fromkeys(keys, tiny)), None)[bet].ev_exact
    slopes = {}
    for k in keys:
        probe = dict.fromkeys(keys, tiny)
        probe[k] = Fraction(1)
        slopes[k] = (analyze(with_pays(probe), None)[bet].ev_exact - base) / (1 - tiny)
    base -= sum(slopes.values()) * tiny
    target = (low + high) / 2
    # in integers: scaled by a common denominator, the edge of grid points g is -(B + sum S_k g_k) / L
    scale = math.lcm(base.denominator, low.denominator, high.denominator,
                     *((slopes[k] * unit).denominator for k in keys))
    big_b, lo_i, hi_i = int(base * scale), int(low * scale), int(high * scale)
    slope_i = {k: int(slopes[k] * unit * scale) for k in keys}
    found: list[tuple[Fraction, dict[str, Fraction]]] = []
    if not pair_plus:
        (k,) = keys
        g_lo, g_hi = grids[k]
        if slope_i[k] == 0:
            inside = lo_i <= -big_b <= hi_i
            g_from, g_to, g_mid = (g_lo, g_hi, g_lo) if inside else (1, 0, 0)
        else:  # lo <= -(B + S g) <= hi, solved for g
            a_, b_ = Fraction(-hi_i - big_b, slope_i[k]), Fraction(-lo_i - big_b, slope_i[k])
            g_from, g_to = max(g_lo, math.ceil(min(a_, b_))), min(g_hi, math.floor(max(a_, b_)))
            g_mid = round(Fraction(-int(target * scale) - big_b, slope_i[k]))
        if g_from <= g_to:  # the limit nearest the middle, from the grid point there outward
            g_mid = min(max(g_mid, g_from), g_to)
            window = range(max(g_from, g_mid - limit), min(g_to, g_mid + limit) + 1)
            for g in window:
                found.append((-(base + slopes[k] * g * unit), {k: g * unit}))
    else:  # monotone tables, category by category, pruned by the edge still reachable
        order = list(keys)
        visited = 0
        chosen: list[int] = []
        best: list[tuple[int, tuple[int, ...]]] = []  # a heap of the limit nearest the middle, by -distance
        middle = lo_i + hi_i  # twice the middle edge, scaled

        def walk(i: int, floor_g: int, partial: int) -> None:
            nonlocal visited
            if i == len(order):
                edge = -(big_b + partial)
                if lo_i <= edge <= hi_i:
                    item = (-abs(2 * edge - middle), tuple(chosen))
                    if len(best) < limit:
                        heapq.heappush(best, item)
                    elif item > best[0]:
                        heapq.heapreplace(best, item)
                return
            c, s_c = order[i], slope_i[order[i]]
            rest = [(slope_i[r], grids[r][0]) for r in order[i + 1:]]
            top_rest = sum(s_r * grids[r][1] for r, (s_r, _) in zip(order[i + 1:], rest))
            for g in range(max(floor_g, grids[c][0]), grids[c][1] + 1):
                visited += 1
                if visited > MAX_DESIGN_TABLES:
                    raise ValueError(f"pays: more than {MAX_DESIGN_TABLES:,} Pair Plus tables to try: take a larger "
                                     f"step or a narrower range of pays")
                here = partial + s_c * g
                least = here + sum(s_r * (g if g > g_r else g_r) for s_r, g_r in rest)
                if -(big_b + least) < lo_i:  # paying more only lowers the edge further
                    break
                if -(big_b + here + top_rest) > hi_i:
                    continue  # the most the rest can pay leaves the edge too high
                chosen.append(g)
                walk(i + 1, g, here)
                chosen.pop()

        walk(0, 0, 0)
        for _, grid_points in best:
            pays_of = {c: g * unit for c, g in zip(order, grid_points, strict=True)}
            found.append((-(base + sum(slopes[c] * p for c, p in pays_of.items())), pays_of))
    found.sort(key=lambda item: (abs(item[0] - target), sorted(item[1].items())))
    out = []
    for house, table in found[:limit]:
        gain = frequency = None
        if rules.fresh_deck_each_round:  # every round is a fresh deck: bet iff the edge is negative
            gain, frequency = (float(-house) * 100, 1.0) if house < 0 else (0.0, 0.0)
        else:
            played = play_shoes(with_pays(table), shoes, "perfect", seed=seed, workers=workers, bets=[bet])
            perfect = played[bet].perfect
            assert perfect is not None
            gain, frequency = perfect.expected_gain_per_100, perfect.frequency
        out.append(PayOption(table, house, gain, frequency))
    return out
