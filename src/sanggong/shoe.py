"""A shoe as it is dealt: the exact EV of every bet for the cards still unseen, card by card.

Before a round, the next hands are a uniformly random deal from the unseen cards, so a
bet's exact EV is ``analyze`` of that composition (the rules' section on playing a shoe).
``ShoeEvaluator`` gives the same Fractions in microseconds, and follows the shoe as cards
are removed or put back.

**The method.** A bet on one hand (the banker's Odd/Even, Point, Three Faces, a player's
Three Faces) is settled by the hand's class, which its multiset of counting kinds fixes
(11 class ranks A..9, ten, face for the usual rankings; 13 ranks or the 52 cards where
the ranking needs them): the EV is a sum over the 286 multisets ``B`` of
``ways(B) x net(B)``, where ``ways(B) = prod_k C(c_k, b_k)`` draws ``B`` from ``c_k``
unseen cards of kind k. A position's bet against the banker reads two disjoint hands: the
ordered pairs ``(P, B)`` with multisets ``P`` and ``B`` can be drawn in
``prod_k C(c_k, m_k) x prod_k C(m_k, p_k)`` ways, where ``M = P + B`` is the round's six
cards, so the EV is a sum over the 8,008 six-card multisets ``M`` of
``ways(M) x V(M)``, ``V(M) = sum over splits of prod_k C(m_k, p_k) x net(P, B)``: V does
not depend on the shoe and is computed once. Nets are scaled to integers by a common
denominator per bet, and the sums are 128-bit integers in the core: exact for any shoe.
Pair Plus goes the same way over the 24,804 multisets of the 52 cards. A ranking that
breaks ties by suit counts its pairs over the 52 cards, beyond a table of 6-card
multisets: those bets are counted as ``analyze`` counts them (seconds, not microseconds).

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
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _impl
from . import _reference as _ref
from .analysis import _card_tables, _check_counts, _class_tables, _payout, analyze, composition
from .cards import Card, CardsLike, parse_cards
from .ranking import Ranking, tables_for
from .rules import RuleSet
from .settlement import plan_for

__all__ = ["ShoeEvaluator"]

_PAIRS, _SINGLE, _CARDS = 0, 1, 2
_STRIDE = 8  # entries of the binomial table per kind (the core's SG_BINOM_STRIDE)
_INT32 = 2**31 - 1


# --- what does not depend on the shoe: built once per ranking ------------------------------


def _entries(sets: npt.NDArray[np.uint8], kinds: int) -> npt.NDArray[np.uint16]:
    """(n, 3, 2) multisets (kind, multiplicity; 0 pads) as rows of binomial-table indices."""
    kind, mult = sets[:, :, 0].astype(np.int64), sets[:, :, 1].astype(np.int64)
    idx = np.where(mult > 0, kind * _STRIDE + mult, kinds * _STRIDE).astype(np.uint16)
    idx.flags.writeable = False
    return idx


@dataclass(frozen=True)
class _Pairs:
    """Every ordered pair (P, B) of 3-card multisets, by the 6-card multiset it makes."""

    idx: npt.NDArray[np.uint16]  # (n6, 6) the 6-card multisets as binomial-table indices
    six: npt.NDArray[np.int64]  # (pairs,) which 6-card multiset each pair makes
    key: npt.NDArray[np.int64]  # (pairs,) (class_P * n + class_B) * 3 + order + 1
    ways: npt.NDArray[np.int64]  # (pairs,) prod_k C(m_k, p_k)


@functools.lru_cache(maxsize=16)
def _pairs(ranking: Ranking) -> _Pairs | None:
    kinds = ranking.kinds
    if kinds == _ref.N_CARDS:
        return None  # 6-card multisets of 52 cards are too many: counted as analyze counts
    sets, classes, ranks = _class_tables(ranking)
    n_classes = tables_for(ranking).n_classes
    counts3 = np.zeros((len(sets), kinds), dtype=np.int64)
    for t in range(3):
        np.add.at(counts3, (np.arange(len(sets)), sets[:, t, 0]), sets[:, t, 1])
    p, b = (a.ravel() for a in np.meshgrid(np.arange(len(sets)), np.arange(len(sets)), indexing="ij"))
    six_counts = counts3[p] + counts3[b]
    code = six_counts @ (7 ** np.arange(kinds, dtype=np.int64))
    _, first, six = np.unique(code, return_index=True, return_inverse=True)
    choose = np.array([[math.comb(m, j) for j in range(4)] for m in range(7)], dtype=np.int64)
    ways = np.prod(choose[six_counts, counts3[p]], axis=1)
    cls, rk = classes.astype(np.int64), ranks.astype(np.int64)
    key = (cls[p] * n_classes + cls[b]) * 3 + 1 + np.sign(rk[p] - rk[b])
    multisets = six_counts[first]
    idx = np.full((len(first), 6), kinds * _STRIDE, dtype=np.uint16)
    for i, row in enumerate(multisets):
        held = np.flatnonzero(row)
        idx[i, : len(held)] = held * _STRIDE + row[held]
    for arr in (idx, six, key, ways):
        arr.flags.writeable = False
    return _Pairs(idx, six.ravel(), key, ways)


@functools.lru_cache(maxsize=16)
def _fold(kinds: int) -> npt.NDArray[np.uint8]:
    fold = np.array([_ref.kind_of(c, kinds) for c in range(_ref.N_CARDS)], dtype=np.uint8)
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
    pairs_idx: npt.NDArray[np.uint16]
    pairs_values: npt.NDArray[Any]
    single_idx: npt.NDArray[np.uint16]
    single_values: npt.NDArray[Any]
    cards_idx: npt.NDArray[np.uint16]
    cards_values: npt.NDArray[Any]
    rows: tuple[_Row, ...]  # in the kernels' order: pairs, single, cards
    bet_row: tuple[int, ...]  # each bet's row
    counted: tuple[int, ...]  # rows of comparisons counted as analyze counts (suit rankings)
    wide: bool  # a value beyond 32 bits: the sums go through the reference (Python ints)


def _nets(rules: RuleSet, kind: str, codes: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[Any], int]:
    """Each outcome code's net per unit, times the smallest denominator that makes them
    all integers (codes no hand reaches, 0xFF, get 0)."""
    nets = {int(c): _payout(rules, kind, int(c))[1] for c in np.unique(codes) if c != 0xFF}
    denominator = math.lcm(*(n.denominator for n in nets.values())) if nets else 1
    table = np.zeros(256, dtype=object)
    for c, net in nets.items():
        table[c] = int(net * denominator)
    return table, denominator


@functools.lru_cache(maxsize=256)
def shoe_plan(rules: RuleSet, bets: tuple[str, ...]) -> ShoePlan:
    """The shoe kernels' plan for ``bets`` under ``rules`` (cached)."""
    plan = plan_for(rules, bets)
    ranking = rules.ranking
    kinds = ranking.kinds
    pairs = _pairs(ranking)
    class_sets, classes, _ = _class_tables(ranking)
    card_sets, categories = _card_tables()
    by_part: dict[int, list[tuple[int, npt.NDArray[Any], int, str]]] = {_PAIRS: [], _SINGLE: [], _CARDS: []}
    counted: list[int] = []
    plan_rows: dict[int, tuple[int, int]] = {}  # plan row -> (part, index in part)
    for j, spec in enumerate(plan.specs):
        row = int(plan.row[j])
        if row in plan_rows:
            continue
        codes = plan.row_of(j)
        if plan.kd[j]:
            part = _PAIRS
            if pairs is None:  # counted as analyze counts; a zero column holds its place
                counted.append(row)
                nets, denominator = np.zeros(256, dtype=object), 1
                values = np.zeros(0, dtype=object)
            else:
                nets, denominator = _nets(rules, spec.kind, codes[pairs.key])
                per_pair = nets[codes[pairs.key]] * pairs.ways.astype(object)
                values = np.zeros(len(pairs.idx), dtype=object)
                np.add.at(values, pairs.six, per_pair)
        elif plan.kb[j]:
            part = _CARDS
            nets, denominator = _nets(rules, spec.kind, codes[categories])
            values = nets[codes[categories]]
        else:
            part = _SINGLE
            nets, denominator = _nets(rules, spec.kind, codes[classes])
            values = nets[codes[classes]]
        plan_rows[row] = (part, len(by_part[part]))
        by_part[part].append((row, values, denominator, spec.kind))
    rows: list[_Row] = []
    offset = {}
    arrays = {}
    wide = False
    for part, n in ((_PAIRS, len(pairs.idx) if pairs is not None else 0), (_SINGLE, len(class_sets)),
                    (_CARDS, len(card_sets))):
        entries = by_part[part]
        offset[part] = len(rows)
        if part == _PAIRS and pairs is None:
            entries_values = []  # nothing for the kernel: these rows are counted apart
        else:
            entries_values = [v for _, v, _, _ in entries]
        rows += [_Row(part, d, kind) for _, _, d, kind in entries]
        if entries_values:
            matrix = np.stack(entries_values, axis=1)
            wide |= bool(max(abs(int(x)) for x in matrix.ravel()) > _INT32)
            arrays[part] = matrix
        else:
            arrays[part] = None
        arrays[(part, "n")] = n
    def packed(part: int, idx: npt.NDArray[np.uint16]) -> tuple[npt.NDArray[np.uint16], npt.NDArray[Any]]:
        matrix = arrays[part]
        if matrix is None:
            return np.zeros((0, idx.shape[1]), dtype=np.uint16), np.zeros((0, 0), dtype=np.int32)
        return idx, matrix if wide else matrix.astype(np.int32)
    pairs_idx, pairs_values = packed(_PAIRS, pairs.idx if pairs is not None else np.zeros((0, 6), np.uint16))
    single_idx, single_values = packed(_SINGLE, _entries(class_sets, kinds))
    cards_idx, cards_values = packed(_CARDS, _entries(card_sets, _ref.N_CARDS))
    bet_row = tuple(offset[plan_rows[int(plan.row[j])][0]] + plan_rows[int(plan.row[j])][1]
                    for j in range(len(plan.specs)))
    counted_rows = tuple(offset[_PAIRS] + plan_rows[r][1] for r in counted)
    return ShoePlan(kinds, _fold(kinds), pairs_idx, pairs_values, single_idx, single_values, cards_idx,
                    cards_values, tuple(rows), bet_row, counted_rows, wide)


def _kernel(plan: ShoePlan, counts: Iterable[int]) -> Any:
    """The compiled ``ShoeKernel``, or the reference's where a value needs more than 32 bits."""
    kernels = _ref if plan.wide else _impl.kernels
    return kernels.ShoeKernel(plan, counts)


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
        if isinstance(bets, str):
            raise TypeError(f"bets: give a list of bet names, not one string ({bets!r})")
        names = tuple(rules.bets if bets is None else bets)
        if not names:
            raise ValueError("bets: no bet to evaluate")
        for name in names:
            rules.bet(name)
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise ValueError(f"bets: {twice} is given twice")
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
        return [c.code for c in parse_cards(cards)] if cards != "" else []

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
        sums = [0] * len(plan.counted) + self._kernel.numerators()  # (counted rows: no kernel rows)
        n = self.cards
        totals = {_PAIRS: math.comb(n, 3) * math.comb(n - 3, 3), _SINGLE: math.comb(n, 3), _CARDS: math.comb(n, 3)}
        values = [Fraction(s, row.denominator * totals[row.part]) for s, row in zip(sums, plan.rows, strict=True)]
        if plan.counted:  # comparisons of a suit ranking: as analyze counts them
            counted = analyze(self.rules, self.counts)
            for j, name in enumerate(self.bets):
                if plan.bet_row[j] in plan.counted:
                    values[plan.bet_row[j]] = counted[name].ev_exact
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
