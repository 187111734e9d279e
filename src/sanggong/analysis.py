"""Exact analysis: the probability, return, house edge and variance of every bet, for any
number of decks or any shoe composition, and the effect of removing each rank.

Counts are exact integers: for a position's bets, the ordered pairs of disjoint hands
(the position's three cards and the banker's) that the shoe can deal; for bets on one
hand (the banker's Odd/Even/Point/Three Faces, a player's Three Faces, Pair Plus), the
3-card hands. They are computed combinatorially, over multisets of ranks weighted by the
ways to choose their suits (see ``_kernels.twin.joint_class_counts``), not by walking every
deal; where suits break ties, the draws of the one rank two equal hands share are split
by how their strongest suits compare (``_spec.suit_split``). The test suite checks
the counts against a card-by-card enumeration of the 407,170,400 one-deck deals, against
an ordered-draw count for other shoes, and for suit tie-breaks against every pair of
hands of small multi-deck shoes.

Returns are per unit staked for one round, before rounding to a minor unit. A stake that
stays on the table (a Macau Win bet on a tie, Odd/Even on a banker 3P) counts as neither
won nor lost that round; ``house_edge_resolved`` spreads the edge over resolved bets.

>>> from sanggong import MACAU, ONLINE
>>> table = analyze(MACAU.replace(decks=1))
>>> win = table["win:1"]
>>> win.total, sum(line.combinations for line in win.outcomes)
(407170400, 407170400)
>>> [line.outcome for line in win.outcomes]
['win', 'carried', 'lose']
>>> round(win.house_edge, 6) == round(-float(win.ev_exact), 6)
True
>>> analyze(ONLINE)["pair_plus:banker"].total
22100
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ._counting import Counts, check_counts, count_hands
from ._parallel import check_progress
from ._presentation import fixed, html_sheet, missing, pandas, percent
from ._settlement_plan import plan_for
from ._spec import N_CARDS, N_PAIR_PLUS, N_RANKS, N_SUITS, RANK_SYMBOLS, reads
from .cards import CardsLike, parse_cards
from .limits import MAX_DECKS
from .rules import RuleSet, as_rules, offered_bets
from .settlement import payout, result_of

if TYPE_CHECKING:  # pandas is optional (the "frame" extra), and typed only with pandas-stubs
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["Analysis", "BetAnalysis", "OutcomeLine", "Removal", "analyze", "composition", "effect_of_removal"]


# --- shoes --------------------------------------------------------------------------------


def composition(decks: int = 1, remove: CardsLike | None = None) -> npt.NDArray[np.int64]:
    """How many of each of the 52 cards (by code) a shoe of ``decks`` decks holds once
    the cards ``remove`` are out.

    >>> composition(1, "Kh Qs 9d")[[33, 47, 50, 51]].tolist()
    [0, 0, 0, 1]
    >>> composition(1, "Kh Kh")
    Traceback (most recent call last):
    ...
    ValueError: cannot remove Kh: the shoe holds no more
    """
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        shown = f"a {decks.bit_length()}-bit number" if isinstance(decks, int) and abs(decks) > 10**30 else repr(decks)
        raise ValueError(f"decks must be a positive int, at most {MAX_DECKS}, got {shown}")
    counts = np.full(N_CARDS, decks, dtype=np.int64)
    for card in parse_cards(remove) if remove is not None and remove != "" else ():
        if counts[card.code] == 0:
            raise ValueError(f"cannot remove {card}: the shoe holds no more")
        counts[card.code] -= 1
    return counts


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OutcomeLine:
    """One outcome of a bet: how many deals give it, what it pays and what it returns
    per unit staked (``net``: +odds less commission, -1, or 0; in a banker game +m or -m,
    the multiplier m, per unit of base stake)."""

    outcome: str
    detail: str | None
    combinations: int
    probability: float
    pays: Fraction | None
    net: Fraction


@dataclass(frozen=True)
class BetAnalysis:
    """Every outcome of one bet with its exact count, and the bet's return and spread.
    The exact fractions are computed when first asked for."""

    bet: str
    total: int
    outcomes: tuple[OutcomeLine, ...]

    @functools.cached_property
    def ev_exact(self) -> Fraction:
        """Expected return per unit staked, exactly."""
        return sum((line.net * line.combinations for line in self.outcomes), Fraction(0)) / self.total

    @functools.cached_property
    def variance_exact(self) -> Fraction:
        """Variance of the return per unit staked, exactly."""
        second = sum((line.net**2 * line.combinations for line in self.outcomes), Fraction(0)) / self.total
        return second - self.ev_exact**2

    @property
    def ev(self) -> float:
        return sum(line.combinations * float(line.net) for line in self.outcomes) / self.total

    @property
    def house_edge(self) -> float:
        """``-ev``: the house's expected gain per unit staked per round (0.0, never -0.0,
        for an even bet)."""
        return 0.0 - self.ev

    @property
    def hit_frequency(self) -> float:
        """The probability that the bet wins."""
        return sum(line.combinations for line in self.outcomes if line.outcome == "win") / self.total

    @property
    def carry_probability(self) -> float:
        return sum(line.combinations for line in self.outcomes if line.outcome == "carried") / self.total

    @property
    def house_edge_resolved(self) -> float:
        """The edge per bet that is resolved (won or lost or pushed), a carried stake
        playing again until it is; NaN for a shoe in which the bet can never resolve."""
        carried = sum(line.combinations for line in self.outcomes if line.outcome == "carried")
        if carried == self.total:
            return math.nan
        return self.house_edge / (1 - self.carry_probability)

    @property
    def variance(self) -> float:
        return float(self.variance_exact)

    @property
    def sd(self) -> float:
        return sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        ev = self.ev_exact
        return {
            "bet": self.bet,
            "ev": self.ev,
            "ev_exact": f"{ev.numerator}/{ev.denominator}",
            "house_edge": self.house_edge,
            "house_edge_resolved": None if math.isnan(self.house_edge_resolved) else self.house_edge_resolved,
            "hit_frequency": self.hit_frequency,
            "sd": self.sd,
            "combinations": self.total,
            "outcomes": [
                {
                    "outcome": line.outcome,
                    "detail": line.detail,
                    "combinations": line.combinations,
                    "probability": line.probability,
                    "pays": None if line.pays is None else str(line.pays),
                    "net": str(line.net),
                }
                for line in self.outcomes
            ],
        }


@dataclass(frozen=True)
class Analysis(Mapping[str, BetAnalysis]):
    """The analysis of every bet a rule set offers, for one shoe composition: a read-only
    mapping of each bet's name to its :class:`BetAnalysis`, in the order of ``bets``
    (``in``, iteration, ``len``, ``keys()``, ``items()``, ``get()`` are those of
    ``bets``). Equality is the dataclass's: two analyses are equal where their rules,
    shoe and bets are, and an analysis never equals a plain ``dict``.

    >>> from sanggong import ONLINE
    >>> table = analyze(ONLINE)
    >>> "win:1" in table, len(table) == len(table.bets), list(table)[:2]
    (True, True, ['win:1', 'win:2'])
    >>> table["wn:1"]
    Traceback (most recent call last):
    ...
    KeyError: "no bet 'wn:1' (did you mean 'win:1'?) in this analysis; its bets: 'win:1', ..."
    """

    rules: RuleSet
    counts: tuple[int, ...]  # of each card code
    bets: Mapping[str, BetAnalysis]

    def __getitem__(self, bet: str) -> BetAnalysis:
        found = self.bets.get(bet) if isinstance(bet, str) else None
        if found is None:
            raise missing("bet", bet, "analysis", "its bets", list(self.bets))
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.bets)

    def __len__(self) -> int:
        return len(self.bets)

    @property
    def cards(self) -> int:
        return sum(self.counts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name,
            "decks": self.rules.decks,
            "cards": self.cards,
            "bets": [b.to_dict() for b in self.bets.values()],
        }

    _BET_COLUMNS = ("total", "ev", "ev_exact", "house_edge", "house_edge_resolved", "hit_frequency",
                    "carry_probability", "sd", "variance", "variance_exact")
    _OUTCOME_COLUMNS = ("bet", "outcome", "detail", "combinations", "probability", "pays", "net")

    def to_frame(self, *, outcomes: bool = False) -> DataFrame:
        """This analysis as a pandas ``DataFrame``: one row per bet, or with
        ``outcomes=True`` one row per outcome of each bet. pandas is optional:
        ``pip install 'sanggong[frame]'``.

        One row per bet (the default) is the table to compare bets by: it is indexed by
        the bets' names (the index is named ``bet``), in the order of ``bets``, and its
        columns are the figures of :class:`BetAnalysis` of the same names: ``total`` (the
        deals counted), ``ev``, ``ev_exact``, ``house_edge``, ``house_edge_resolved``,
        ``hit_frequency``, ``carry_probability``, ``sd``, ``variance`` and
        ``variance_exact``.

        One row per outcome is the distribution of each bet's return: columns ``bet``,
        then the fields of :class:`OutcomeLine` (``outcome``, ``detail``,
        ``combinations``, ``probability``, ``pays``, ``net``), bet after bet, each bet's
        lines in their order (wins first), on a plain 0..n-1 index.

        Every value is the attribute's own: the exact ``Fraction`` values stay exact (in
        object columns: ``.astype(float)`` gives floats), a count beyond 64 bits stays a
        Python int, an undefined ``house_edge_resolved`` is NaN, and a ``detail`` or
        ``pays`` that the line does not have is missing (``isna()``: None, or NaN in a
        column of strings). ``attrs`` holds the shoe: ``rules`` (the rule set's name),
        ``decks`` and ``cards``.

        :raises ImportError: pandas is not installed (the message names the extra).
        """
        pd = pandas()
        bets = list(self.bets.values())
        if outcomes:
            rows = [(b.bet, line.outcome, line.detail, line.combinations, line.probability, line.pays, line.net)
                    for b in bets for line in b.outcomes]
            frame = pd.DataFrame.from_records(rows, columns=list(self._OUTCOME_COLUMNS))
        else:
            data = {column: [getattr(b, column) for b in bets] for column in self._BET_COLUMNS}
            frame = pd.DataFrame(data, index=pd.Index([b.bet for b in bets], name="bet"),
                                 columns=list(self._BET_COLUMNS))
        frame.attrs.update(rules=self.rules.name, decks=self.rules.decks, cards=self.cards)
        return frame

    def _repr_html_(self) -> str:
        """The bets as an HTML table, for notebooks (needs no pandas)."""
        full = all(count == self.rules.decks for count in self.counts)
        decks = self.rules.decks
        shoe = (f"{decks} deck{'s' if decks != 1 else ''} ({self.cards:,} cards)" if full
                else f"a shoe of {self.cards:,} cards")
        rows = [
            (b.bet, percent(b.house_edge), percent(b.house_edge_resolved), percent(b.hit_frequency),
             percent(b.carry_probability), fixed(b.sd), f"{b.total:,}")
            for b in self.bets.values()
        ]
        header = ("bet", "house edge", "edge per resolved bet", "hit frequency", "carried", "sd", "combinations")
        return html_sheet("analysis", f"Exact analysis: {self.rules.name}, {shoe}", header, rows)


_ORDER = {"win": 0, "push": 1, "carried": 2, "lose": 3}


def _lines(rules: RuleSet, bet: str, kind: str, tally: Mapping[int, int], total: int) -> BetAnalysis:
    lines = []
    for code in sorted(tally, key=lambda c: (_ORDER[result_of(rules, c)[0]], c)):
        count = tally[code]
        if count:
            outcome, detail = result_of(rules, code)
            pays, net = payout(rules, kind, code)
            lines.append(OutcomeLine(outcome, detail, count, count / total, pays, net))
    return BetAnalysis(bet, total, tuple(lines))


def _bet_analyses(rules: RuleSet, counts: Counts, bets: Iterable[str]) -> dict[str, BetAnalysis]:
    names = tuple(bets)
    plan = plan_for(rules, names)
    done: dict[int, BetAnalysis] = {}
    out = {}
    for j, name in enumerate(names):
        row = int(plan.row[j])
        if row not in done:
            codes_row = plan.row_of(j)
            if plan.kd[j]:  # a position against the banker: (classes, order) as the joint counts
                keys, weights, total = codes_row, counts.joint, counts.pairs
            elif plan.kb[j]:  # Pair Plus: the hand's category
                keys, weights, total = codes_row[: N_PAIR_PLUS], counts.pair_plus, counts.hands
            else:  # the class of one hand
                keys, weights, total = codes_row[: plan.n_classes], counts.marginal, counts.hands
            if weights.dtype == object:  # Python integers for shoes beyond uint64
                tally: dict[int, int] = {}
                for code, weight in zip(keys.tolist(), weights.tolist(), strict=True):
                    tally[code] = tally.get(code, 0) + int(weight)
            else:
                sums = np.zeros(256, dtype=np.uint64)
                np.add.at(sums, keys, weights)
                tally = {code: int(sums[code]) for code in np.flatnonzero(sums).tolist()}
            done[row] = _lines(rules, name, plan.specs[j].kind, tally, total)
        result = done[row]
        out[name] = result if result.bet == name else BetAnalysis(name, result.total, result.outcomes)
    return out


def analyze(rules: RuleSet | str, shoe: npt.ArrayLike | None = None) -> Analysis:
    """Analyse every bet of ``rules`` for a full shoe of ``rules.decks`` decks, or for
    ``shoe``, the count of each of the 52 cards (``composition(...)`` makes one).

    :raises ValueError: a composition of the wrong shape, with negative counts, or too
        small to deal a round.
    """
    rules = as_rules(rules)
    counts52 = composition(rules.decks) if shoe is None else check_counts(shoe)
    bets = rules.bets
    kinds = {rules.bet(name).kind for name in bets}
    read = {reads(kind) for kind in kinds}
    counts = count_hands(rules, counts52, need_pairs="two hands" in read, need_pair_plus="category" in read)
    analyses = _bet_analyses(rules, counts, bets)
    return Analysis(rules, tuple(int(c) for c in counts52), analyses)


# --- effect of removal ------------------------------------------------------------------------


@dataclass(frozen=True)
class Removal:
    """For one bet: the change in expected return per unit when one card of each rank
    leaves a full shoe (``eor[rank symbol]``), and the tags of a balanced point count
    built from them (integers, summing to 0 over a full shoe)."""

    bet: str
    ev: float
    eor: Mapping[str, float]
    tags: Mapping[str, int]
    correlation: float  # between the tags and the effects of removal


def _tags(eor: list[float], levels: int = 3) -> list[int]:
    """Integer tags proportional to the effects, shifted and nudged so that a full shoe
    (the same number of every rank) sums to 0: a balanced count."""
    peak = max(abs(e) for e in eor)
    if peak == 0:
        return [0] * len(eor)
    mean = sum(eor) / len(eor)
    scaled = [(e - mean) / peak * levels for e in eor]
    tags = [round(s) for s in scaled]
    while sum(tags):
        step = -1 if sum(tags) > 0 else 1
        k = max(range(len(tags)), key=lambda i: (tags[i] - scaled[i]) * -step)
        tags[k] += step
    return tags


def _correlation(a: list[float], b: list[float]) -> float:
    if len(set(a)) < 2 or len(set(b)) < 2:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def effect_of_removal(rules: RuleSet | str, bets: Iterable[str] | None = None, *,
                      progress: Callable[[int, int], None] | None = None) -> dict[str, Removal]:
    """The effect of removing one card of each rank from a full shoe of ``rules.decks``
    decks, for every bet (or ``bets``). Suits matter to Pair Plus and a pair bet (and to
    a ranking with a suit tie-break) only: their effects are averaged over the four suits
    of each rank.

    :param progress: called with (ranks done, 13) as each rank's shoes are counted.
    """
    rules = as_rules(rules)
    check_progress(progress)
    names = offered_bets(rules, bets, "analyse")
    full = composition(rules.decks)
    base = _bet_analyses(rules, count_hands(rules, full), names)  # (counts everything: once)
    kinds = {rules.bet(n).kind for n in names}
    read = {reads(kind) for kind in kinds}
    needs_pairs, needs_pair_plus = "two hands" in read, "category" in read
    shifted: dict[str, list[float]] = {n: [] for n in names}
    for rank in range(N_RANKS):
        per_suit = []
        for suit in range(N_SUITS):
            counts = full.copy()
            counts[4 * rank + suit] -= 1
            counted = count_hands(rules, counts, need_pairs=needs_pairs, need_pair_plus=needs_pair_plus)
            per_suit.append(_bet_analyses(rules, counted, names))
            if not needs_pair_plus and not rules.ranking.uses_suits:
                break  # suits change nothing else: one suit stands for all four
        for n in names:
            shifted[n].append(sum(t[n].ev for t in per_suit) / len(per_suit) - base[n].ev)
        if progress is not None:
            progress(rank + 1, N_RANKS)
    out = {}
    for n in names:
        eor = shifted[n]
        tags = _tags(eor)
        out[n] = Removal(
            bet=n,
            ev=base[n].ev,
            eor=dict(zip(RANK_SYMBOLS, eor, strict=True)),
            tags=dict(zip(RANK_SYMBOLS, tags, strict=True)),
            correlation=_correlation([float(t) for t in tags], eor),
        )
    return out
