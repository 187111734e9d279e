"""Who is beating the table: advantage-play detection from the game log.

At the moment a bet is placed, the cards already seen in the shoe fix its exact EV (the
unseen cards' composition, ``ShoeEvaluator``). A player whose stakes follow the shoe stakes
more where the EV is higher; one whose stakes do not, does not. ``detect`` reads a log (or
records, or many logs), computes the exact EV of every stake at the moment it was placed,
and tests each player for stakes that follow the shoe, long before results could show it.

**What is counted.** A stake is a decision: the amount placed on a bet in a round, less
any stake carried into the round (which the player could not withdraw). A record by player
names each stake's player; a record of bets alone reads as one anonymous player per
position (``"position 3"``: its Win, Tie and other bets on that hand) and one for the
table's bets (``"table"``: Odd, Even, Point, the banker's Three Faces and Pair Plus).
Seen cards are every hand of the earlier rounds of the shoe (shown at settlement);
burned cards, and the cards of a void round, stay unseen unless ``burned_seen``. A log
that starts within a shoe is read from the next shoe's first round (the earlier cards of
that shoe are unknown).

**The test.** For each player, with stakes s_i on bets b_i at EVs e_i (fresh-shoe EVs ē_i),
the excess D = Σ s_i (e_i − ē_i). Under the null hypothesis that the player's stakes are
independent of the shoe's state, condition on the stakes (however they vary: the test
never assumes flat bets). The exact EV of a fixed bet is a martingale as a shoe's cards
are revealed (by exchangeability, the expected EV after more random cards are seen is the
EV now), so e_i − ē_i is the sum of the EV's changes Δ_k(b_i) over the rounds k before i
in its shoe, and D = Σ_k Y_k with Y_k = Σ_b W_k(b) Δ_k(b), where W_k(b) are the stakes on
bet b after round k in that shoe. Given the stakes, the Y_k are martingale differences
(each has mean zero given the cards seen before round k), shoes are independent, so the
self-normalised sum z = D / sqrt(Σ_k Y_k²) is approximately standard normal under the
null (the martingale central limit theorem; no independence between rounds, and no
model of the stakes, is assumed). The test is one-sided: a player is flagged for stakes
that follow the EV up, ``p_value = P(Z >= z)``, and ``flagged`` is Holm's step-down
correction of the players' p-values at ``alpha`` (the family-wise error rate over the
players examined). A player with no EV variation to follow (a fresh deck every round,
or stakes only on a shoe's first rounds) has no z and a p-value of 1.

The calibration (``benchmarks/detection.py`` and the docs' tutorial) measures the false
alarm rate of flat and random bettors (at most ``alpha``) and the power against perfect
and counting players as a function of rounds observed.

>>> from sanggong import MACAU, Game
>>> game = Game(MACAU, seed=1)
>>> records = [game.play({"ann": {"point:0": 10}, "bo": {"odd": 10}}) for _ in range(200)]
>>> found = detect(records)
>>> [(p.id, p.bets, p.flagged) for p in found.players]   # bo's Odd is carried, not staked, on a banker 3P
[('bo', 196, False), ('ann', 200, False)]
"""

from __future__ import annotations

import functools
import io
import math
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ._checks import flag
from ._parallel import check_executor, check_progress, execute
from ._parallel import workers as workers_of
from ._presentation import html_table, pandas, percent
from ._spec import ON_HAND
from .analysis import analyze, composition
from .cards import Card
from .records import RoundRecord, stakes_of
from .rules import RuleSet, as_rules, offered_bets
from .verify import LogReader

if TYPE_CHECKING:  # pandas is optional (the "frame" extra), and typed only with pandas-stubs
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["Detection", "PlayerStats", "detect"]

MAX_POINTS = 100_000
"""The (EV, stake) points kept per player for the plot (the first ones)."""

Progress = Callable[[int], None]


# --- the statistic ------------------------------------------------------------------------------


@dataclass
class _Tally:
    """One player's sums over a log (picklable, and added across logs)."""

    rounds: int = 0
    bets: int = 0
    units: float = 0.0
    ev_units: float = 0.0  # sum of s * e
    base_units: float = 0.0  # sum of s * fresh e
    excess: float = 0.0  # D
    square: float = 0.0  # sum of Y_k ** 2
    span: int = 0  # rounds from the player's first stake to the last, summed over logs
    first: int | None = None  # (in the log being read)
    last: int | None = None
    points: list[tuple[float, float]] = field(default_factory=list)

    def add(self, other: _Tally) -> None:
        for name in ("rounds", "bets", "units", "ev_units", "base_units", "excess", "square", "span"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.points.extend(other.points[: MAX_POINTS - len(self.points)])


def shoe_terms(evs: Sequence[Mapping[str, float]], stakes: Sequence[tuple[int, str, float]]) -> list[float]:
    """The martingale differences Y_k of one player over one shoe (see the module's doc).

    :param evs: each round's EV of every bet staked, before the round (``evs[k][bet]``).
    :param stakes: (round index in the shoe, bet, stake) of the player's stakes.
    :returns: Y_k for k = 0 .. len(evs) - 2 (the changes across each round but the last).
    """
    later: dict[str, float] = defaultdict(float)  # W_k(b): stakes on b after round k
    by_round: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for k, bet, stake in stakes:
        by_round[k].append((bet, stake))
    terms = [0.0] * max(len(evs) - 1, 0)
    for k in range(len(evs) - 2, -1, -1):  # from the shoe's end back, adding round k + 1's stakes
        for bet, stake in by_round.get(k + 1, ()):
            later[bet] += stake
        terms[k] = sum(w * (evs[k + 1][b] - evs[k][b]) for b, w in later.items() if w)
    return terms


def _anonymous(rules: RuleSet, bet: str) -> str:
    """The anonymous player of a bet of a record of bets alone: its position's, or the table's."""
    spec = rules.bet(bet)
    return f"position {spec.position}" if spec.kind in ON_HAND and spec.position > 0 else "table"


class _Reader:
    """Read records in order and tally every stake, a shoe at a time: a shoe's rounds are
    kept (their stakes, and the cards each shows) until it ends, then the EVs of all its
    rounds are computed in one call of the shoe kernel (``numerators_batch``: the
    numerators of each round's unseen cards, as ``ShoeEvaluator.float_evs`` divides them)
    and its stakes tallied in the order they were read.

    ``shared``: the records' ``bets`` and ``carried`` mappings are the reader's own (a log
    read by ``LogReader``, whose fast pass hands the same mapping for every line of the same
    slip), so a round's stakes are worked out once for each pair of them (the mappings are
    kept while they are, so that their ids stay theirs); records a caller gives are read
    afresh every round.

    Thread-safety: none; one reader is fed by one thread (``detect`` makes one per log).
    """

    def __init__(self, rules: RuleSet, burned_seen: bool, shared: bool = False) -> None:
        self.rules = rules
        self.burned_seen = burned_seen
        self.fresh_each = rules.fresh_deck_each_round
        self.tallies: dict[str, _Tally] = defaultdict(_Tally)
        self.fresh = {name: float(line.ev_exact) for name, line in analyze(rules).bets.items()}
        self.fresh_counts: list[int] = []  # a full shoe's (made at the first shoe read)
        self.offered: set[str] = set()
        self.planned: tuple[str, ...] = ()  # the bets of the kernel's plan (see _shoe_evs)
        self.plan: Any = None
        self.row_of: dict[str, int] = {}
        self.layouts: dict[frozenset[str], tuple[list[int], dict[str, int], bool, tuple[Any, ...]]] = {}  # by the
        # bets a shoe stakes: their rows of the plan, each bet's place among them, whether one is a pair's, the rows
        self.kernel: Any = None  # the shoe kernel of that plan, set to a full shoe for each
        self.shoe: int | None = None
        self.live = False  # the shoe's earlier cards are known (it began in the log)
        self.codes = bytearray()  # the cards seen in the shoe's rounds, in order
        self.ends: list[int] = []  # where each round's cards end in codes
        self.stakes: list[tuple[int, int, tuple[tuple[str, str, float, bool], ...]]] = []  # (round in the shoe,
        # round, its decisions: _decisions) of the shoe's rounds with a stake
        self.carried: Mapping[str, Any] = {}
        self.decided: dict[tuple[int, int], tuple[Any, Any, tuple[tuple[str, str, float, bool], ...]]] | None = \
            {} if shared else None
        self.records = 0
        self.skipped = 0

    def _units(self, amount: Any) -> float:
        if type(amount) is int:
            return float(amount)  # (the same float as float(Fraction(amount)): both correctly rounded)
        if isinstance(amount, Decimal):
            return float(Fraction(amount) / Fraction(self.rules.minor_unit))
        return float(Fraction(amount))

    def _decisions(self, bets: Mapping[str, Any], carried: Mapping[str, Any]) \
            -> tuple[tuple[str, str, float, bool], ...]:
        """The round's stakes that are decisions, in the order of its bets: (player, bet,
        the stake less what was carried into it, the player's first in the round)."""
        decided = self.decided
        if decided is not None:
            found = decided.get((id(bets), id(carried)))
            if found is not None and found[0] is bets and found[1] is carried:
                return found[2]
        before = stakes_of(carried)
        out = []
        placed: set[str] = set()
        for (player, bet), stake in stakes_of(bets).items():
            new = self._units(stake) - self._units(before.get((player, bet), 0))
            if new <= 0:
                continue  # only a carried stake: no decision this round
            who = player if player is not None else _anonymous(self.rules, bet)
            out.append((who, bet, new, who not in placed))
            placed.add(who)
        made = tuple(out)
        if decided is not None:
            if len(decided) >= 4096:
                decided.clear()
            decided[(id(bets), id(carried))] = (bets, carried, made)
        return made

    def feed(self, record: RoundRecord | Any) -> None:
        """Read the next record (a ``RoundRecord``, or what ``LogReader._seen`` yields)."""
        self.records += 1
        if record.shoe != self.shoe or self.fresh_each:
            self._close_shoe()
            self.shoe, self.live = record.shoe, record.round_in_shoe == 1
            # (a shoe begun before the log: its earlier cards are unknown)
        if not self.live:
            self.skipped += 1
            self.carried = record.carried
            return
        bets, carried = record.bets, self.carried
        found = self.decided.get((id(bets), id(carried))) if self.decided is not None else None
        decisions = found[2] if found is not None and found[0] is bets and found[1] is carried else \
            self._decisions(bets, carried)  # (its cache's hit, here: once a round)
        if decisions:
            self.stakes.append((len(self.ends), record.round, decisions))
        self.carried = record.carried
        codes = self.codes
        seen: Any = record if hasattr(record, "codes") else None
        if seen is not None:  # (a record the fast pass accepted: its cards' codes, the banker's first)
            codes.extend(seen.codes)
            if self.burned_seen:
                codes.extend(seen.burned_codes)
        else:
            banker = record.banker
            hands = (banker, *record.hands.values()) if banker is not None else record.hands.values()
            codes.extend([c.code for hand in hands for c in hand.cards])
            if self.burned_seen:
                codes.extend([c.code for c in record.burned])
        self.ends.append(len(codes))

    def _close_shoe(self) -> None:
        """Compute the shoe's EVs and tally its stakes (every sum in the order the
        stakes were read, as one round at a time would add them)."""
        if not self.ends:
            return
        try:
            evs, slot = self._shoe_evs()
            fresh, tallies = self.fresh, self.tallies
            by_player: dict[str, list[tuple[int, int, float]]] = defaultdict(list)
            for k, number, decisions in self.stakes:
                row = evs[k]
                for who, bet, new, first in decisions:
                    tally = tallies[who]
                    tally.bets += 1
                    if first:
                        tally.rounds += 1
                    tally.units += new
                    if tally.first is None:
                        tally.first = number
                    tally.last = number
                    place = slot[bet]
                    ev = row[place]
                    tally.ev_units += new * ev
                    tally.base_units += new * fresh[bet]
                    if len(tally.points) < MAX_POINTS:
                        tally.points.append((ev, new))
                    by_player[who].append((k, place, new))
            for player, stakes in by_player.items():
                tally = tallies[player]
                terms = _terms(evs, stakes)
                tally.excess += sum(terms)
                tally.square += sum([t * t for t in terms])
        finally:
            self.codes, self.ends, self.stakes = bytearray(), [], []

    def _shoe_evs(self) -> tuple[list[list[float]], dict[str, int]]:
        """Each round's EV (before it) of every bet staked in the shoe: evs[k][slot[bet]].

        The kernel's plan holds the bets staked in the first shoe read (the table's every
        bet once a shoe stakes another): the EVs are each the exact sum over the exact count, correctly
        rounded, whatever rows a plan groups them in (``ShoeEvaluator.float_evs``'s floats)."""
        from . import shoe  # (shoe imports analysis; detect sits above both)

        rules = self.rules
        if not self.fresh_counts:
            self.fresh_counts = composition(rules.decks).tolist()
            self.offered = set(offered_bets(rules, None, "evaluate"))  # ShoeEvaluator(rules)'s bets
        ends = self.ends
        total = sum(self.fresh_counts)
        unseen = [total] + [total - e for e in ends[:-1]]
        staked_bets = {bet for _, _, decisions in self.stakes for _, bet, _, _ in decisions}
        if not staked_bets or min(unseen) < 6:  # nothing to evaluate (its cards checked), or too few cards
            seen = np.bincount(np.frombuffer(self.codes, dtype=np.uint8), minlength=52)
            if min(unseen) < 6 or (seen > np.array(self.fresh_counts)).any():
                return self._shoe_evs_slowly({bet: j for j, bet in enumerate(sorted(staked_bets))})
            return [[] for _ in ends], {}
        for bet in staked_bets:
            if bet not in self.offered:
                raise KeyError(bet)  # (as the evaluator's EVs hold none of it)
        key = frozenset(staked_bets)
        layout = self.layouts.get(key)
        if layout is None:
            if not staked_bets <= set(self.planned):  # the first shoe's bets; then, if another is staked, all
                # (at most two plans: making one costs some shoes' worth of sums)
                self.planned = tuple(sorted(staked_bets if not self.planned else self.offered))
                self.plan = shoe.shoe_plan(rules, self.planned)
                self.row_of = {bet: self.plan.bet_row[j] for j, bet in enumerate(self.planned)}
                self.kernel = shoe.shoe_kernel(self.plan, self.fresh_counts)
                self.layouts = {}  # (their rows were the last plan's)
            rows = sorted({self.row_of[bet] for bet in staked_bets})
            layout = self.layouts[key] = (rows, {bet: rows.index(self.row_of[bet]) for bet in staked_bets},
                                          any(self.plan.rows[r].part == shoe.PAIRS for r in rows),
                                          tuple(self.plan.rows[r] for r in rows))
        staked, slot, with_pairs, staked_rows = layout
        plan, kernel = self.plan, self.kernel
        kernel.set_counts(self.fresh_counts)
        out = np.empty((len(ends), len(plan.rows)), dtype=np.int64)
        try:
            done = kernel.numerators_batch(np.frombuffer(self.codes, dtype=np.uint8), np.array(ends, dtype=np.int64),
                                           out, with_pairs)
        except ValueError:  # a card the shoe no longer holds: the error one round at a time raises
            return self._shoe_evs_slowly(slot)
        if done == len(ends):
            fast = _divided(out if len(staked) == out.shape[1] else out[:, staked], staked_rows, unseen)
            if fast is not None:
                return fast, slot
        sums = out[:done].tolist()
        for k in range(done, len(ends)):  # sums beyond 64 bits: the rest one round at a time
            sums.append(kernel.numerators(with_pairs))
            for code in self.codes[ends[k - 1] if k else 0:ends[k]]:
                kernel.remove(code)
        scale = [(plan.rows[r].denominator, plan.rows[r].part) for r in staked]
        evs = []
        for n, row in zip(unseen, sums, strict=True):  # (the exact sum over the exact count, correctly rounded)
            triples = math.comb(n, 3)
            totals = {shoe.PAIRS: triples * math.comb(n - 3, 3), shoe.SINGLE: triples, shoe.CARDS: triples}
            evs.append([row[r] / (d * totals[part]) for r, (d, part) in zip(staked, scale, strict=True)])
        return evs, slot

    def _shoe_evs_slowly(self, slot: dict[str, int]) -> tuple[list[list[float]], dict[str, int]]:
        """``_shoe_evs`` by a ``ShoeEvaluator``, round by round: for a shoe whose cards it
        refuses (its ValueError, raised where reading one round at a time raises it)."""
        from .shoe import ShoeEvaluator

        evaluator = ShoeEvaluator(self.rules)
        staked = sorted(slot, key=slot.__getitem__)
        evs, start = [], 0
        for end in self.ends:
            found = evaluator.float_evs()
            evs.append([found[bet] for bet in staked])
            evaluator.remove([Card(c) for c in self.codes[start:end]])
            start = end
        return evs, slot

    def finish(self) -> dict[str, _Tally]:
        self._close_shoe()
        for tally in self.tallies.values():
            if tally.first is not None and tally.last is not None:
                tally.span, tally.first, tally.last = tally.last - tally.first + 1, None, None
        return dict(self.tallies)


_EXACT = 2.0**53  # integers up to it are doubles: a quotient of two of them, divided in doubles, is correctly rounded


def _divided(numerators: npt.NDArray[np.int64], rows: tuple[Any, ...], unseen: list[int]) -> list[list[float]] | None:
    """Each round's ``numerators[k][j] / (rows[j]'s denominator x the count of its part for
    unseen[k] cards)``, in doubles: the same floats as Python's division of the integers
    (both correctly rounded) where every numerator and count is at most 2**53; None where
    one is not (then Python's division, in integers, is the way)."""
    counts = _exact_counts(rows, tuple(unseen))
    if counts is None or max(-int(numerators.min()), int(numerators.max())) > _EXACT:
        return None
    quotients: list[list[float]] = (numerators.astype(np.float64) / counts).tolist()
    return quotients


@functools.lru_cache(maxsize=256)
def _exact_counts(rows: tuple[Any, ...], unseen: tuple[int, ...]) -> npt.NDArray[np.float64] | None:
    """The counts ``_divided`` divides by, as doubles: (rounds, rows), None where one passes
    2**53 (cached: a table's shoes mostly see rounds of the same numbers of cards)."""
    from .shoe import PAIRS

    n = np.array(unseen, dtype=np.float64)
    triples = n * (n - 1) * (n - 2) / 6  # (approximate here: only to bound the exact counts below)
    pairs = triples * ((n - 3) * (n - 4) * (n - 5) / 6)
    scale = np.array([row.denominator for row in rows], dtype=np.float64)
    is_pairs = np.array([row.part == PAIRS for row in rows])
    approximate = np.where(is_pairs, pairs[:, None], triples[:, None]) * scale
    if approximate.size == 0 or approximate.max() >= _EXACT / 2:
        return None  # (counts below 2**52 in doubles: exact ones below 2**53, whatever the rounding here)
    whole = np.array(unseen, dtype=np.int64)
    exact_triples = whole * (whole - 1) * (whole - 2) // 6
    exact_pairs = exact_triples * ((whole - 3) * (whole - 4) * (whole - 5) // 6)  # (wraps only where unused)
    exact = np.where(is_pairs, exact_pairs[:, None], exact_triples[:, None]) * scale.astype(np.int64)
    counts: npt.NDArray[np.float64] = exact.astype(np.float64)
    counts.flags.writeable = False
    return counts


def _terms(evs: Sequence[Sequence[float]], stakes: Sequence[tuple[int, int, float]]) -> list[float]:
    """``shoe_terms`` with each round's EVs a list and bets by their place in it: the same
    sums, added in the same order."""
    later: dict[int, float] = {}
    by_round: list[list[tuple[int, float]]] = [[] for _ in evs]
    for k, bet, stake in stakes:
        by_round[k].append((bet, stake))
    terms: list[float] = [0.0] * max(len(evs) - 1, 0)
    for k in range(len(evs) - 2, -1, -1):
        for bet, stake in by_round[k + 1]:
            later[bet] = later.get(bet, 0.0) + stake
        after, now = evs[k + 1], evs[k]
        if len(later) == 1:  # sum() of one or two floats, written out: 0.0 + x (+ y), in every Python
            ((b, w),) = later.items()
            terms[k] = 0.0 + w * (after[b] - now[b]) if w else 0
        elif len(later) == 2 and all(later.values()):
            (b, w), (c, v) = later.items()
            terms[k] = 0.0 + w * (after[b] - now[b]) + v * (after[c] - now[c])
        else:
            terms[k] = sum([w * (after[b] - now[b]) for b, w in later.items() if w])  # (none: 0, as shoe_terms)
    return terms


def _tally_log(log: Any, rules: RuleSet | None, burned_seen: bool, verify: bool, key: bytes | None,
               progress: Progress | None = None) -> tuple[str, dict[str, _Tally], int, int]:
    """One log (a path or lines) read and tallied; picklable, for any executor."""
    reader = LogReader(log, rules, key=key, replay=verify)
    tally: _Reader | None = None
    for record in reader._seen():  # checked by verify's fast pass where it can
        if tally is None:
            assert reader.rules is not None
            tally = _Reader(reader.rules, burned_seen, shared=True)
        tally.feed(record)
        if progress is not None and tally.records % 1000 == 0:
            progress(1000)
    report = reader.report()
    if not report.ok:
        raise ValueError(f"{log if isinstance(log, str | os.PathLike) else 'the log'}: {report}")
    assert tally is not None and reader.rules is not None
    if progress is not None:
        progress(tally.records % 1000)
    return reader.rules.name, tally.finish(), tally.records, tally.skipped


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    """One player's stakes against the shoe (see ``sanggong.detect``).

    :ivar id: the player (a record's player, or ``"position <p>"`` / ``"table"`` for a
        record of bets alone).
    :ivar rounds: rounds in which the player placed a stake.
    :ivar bets: stakes placed (a stake carried into a round is not one).
    :ivar units: the total staked, in minor units (a Decimal's in units of the rules'
        ``minor_unit``).
    :ivar mean_ev: the stake-weighted exact EV per unit at the moments of betting.
    :ivar baseline_ev: the same stakes' EV had they been placed without knowledge of the
        shoe: each bet's fresh-shoe EV, stake-weighted.
    :ivar z: the test statistic (None where there is no EV variation to follow).
    :ivar p_value: P(Z >= z) under the null (1 where z is None).
    :ivar expected_gain_per_100: units the player is expected to win per 100 rounds, from
        the exact EVs, over the rounds from the player's first stake to the last.
    :ivar flagged: the p-value passes Holm's correction at ``alpha`` over the players.
    """

    id: str
    rounds: int
    bets: int
    units: float
    mean_ev: float
    baseline_ev: float
    z: float | None
    p_value: float
    expected_gain_per_100: float
    flagged: bool

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "rounds": self.rounds, "bets": self.bets, "units": self.units,
                "mean_ev": self.mean_ev, "baseline_ev": self.baseline_ev, "z": self.z, "p_value": self.p_value,
                "expected_gain_per_100": self.expected_gain_per_100, "flagged": self.flagged}


@dataclass(frozen=True)
class Detection:
    """What ``detect`` found: every player, the most suspect first (by p-value)."""

    rules: str
    alpha: float
    records: int
    skipped: int
    players: tuple[PlayerStats, ...]
    points: Mapping[str, tuple[tuple[float, float], ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def flagged(self) -> tuple[PlayerStats, ...]:
        return tuple(p for p in self.players if p.flagged)

    def __getitem__(self, player: str) -> PlayerStats:
        for p in self.players:
            if p.id == player:
                return p
        raise KeyError(player)

    def to_dict(self) -> dict[str, Any]:
        """``{"rules", "alpha", "records", "skipped", "players": [...]}``: strict JSON."""
        return {"rules": self.rules, "alpha": self.alpha, "records": self.records, "skipped": self.skipped,
                "players": [p.to_dict() for p in self.players]}

    def to_frame(self) -> DataFrame:
        """One row per player, indexed by id (pandas: the ``frame`` extra)."""
        pd = pandas()
        rows = [p.to_dict() for p in self.players]
        frame = pd.DataFrame.from_records(rows, index="id") if rows else pd.DataFrame(
            columns=[f for f in PlayerStats.__dataclass_fields__ if f != "id"])
        frame.attrs.update(rules=self.rules, alpha=self.alpha, records=self.records, skipped=self.skipped)
        return frame

    def _repr_html_(self) -> str:
        header = ("player", "rounds", "bets", "units", "mean EV", "baseline EV", "z", "p-value", "gain/100", "flagged")
        rows = [(p.id, f"{p.rounds:,}", f"{p.bets:,}", f"{p.units:,.0f}", percent(p.mean_ev), percent(p.baseline_ev),
                 "" if p.z is None else f"{p.z:.2f}", f"{p.p_value:.3g}", f"{p.expected_gain_per_100:+.2f}",
                 "yes" if p.flagged else "") for p in self.players]
        return html_table("detection", f"Detection: {self.rules}, {self.records:,} records, alpha {self.alpha}",
                           header, rows)

    def plot(self, path: str | os.PathLike[str], players: Iterable[str] | None = None) -> None:
        """Each flagged player's (or ``players``') stakes against the bet's EV at the moment
        of betting, saved to ``path`` (matplotlib: the ``plot`` extra)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        chosen = [p.id for p in self.flagged] if players is None else list(players)
        fig, ax = plt.subplots(figsize=(8, 4.5))
        try:
            for player in chosen:
                points = self.points.get(player, ())
                ax.scatter([100 * e for e, _ in points], [s for _, s in points], s=6, alpha=0.5, label=player)
            ax.axvline(0, color="black", linewidth=1)
            ax.set_xlabel("exact EV of the bet when the stake was placed (%)")
            ax.set_ylabel("stake (minor units)")
            ax.set_title(f"{self.rules}: stakes against the shoe")
            if chosen:
                ax.legend(fontsize="small")
            fig.tight_layout()
            fig.savefig(path)
        finally:
            plt.close(fig)


def _holm(p_values: Sequence[float], alpha: float) -> list[bool]:
    """Holm's step-down rejections at family-wise level ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    flagged = [False] * len(p_values)
    m = len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] < alpha / (m - rank):
            flagged[i] = True
        else:
            break
    return flagged


def _results(rules: str, alpha: float, tallies: Mapping[str, _Tally], records: int, skipped: int) -> Detection:
    ids = sorted(tallies)
    stats = []
    for player in ids:
        t = tallies[player]
        z = t.excess / math.sqrt(t.square) if t.square > 0 else None
        p = 0.5 * math.erfc(z / math.sqrt(2)) if z is not None else 1.0
        stats.append((player, t, z, p, t.span))
    flagged = _holm([p for _, _, _, p, _ in stats], alpha)
    players = [
        PlayerStats(
            id=player, rounds=t.rounds, bets=t.bets, units=t.units,
            mean_ev=t.ev_units / t.units if t.units else 0.0, baseline_ev=t.base_units / t.units if t.units else 0.0,
            z=z, p_value=p, expected_gain_per_100=100 * t.ev_units / span if span else 0.0, flagged=f,
        )
        for (player, t, z, p, span), f in zip(stats, flagged, strict=True)
    ]
    players.sort(key=lambda s: (s.p_value, s.id))
    return Detection(rules, alpha, records, skipped, tuple(players),
                     {player: tuple(tallies[player].points) for player in ids})


# --- the entry point --------------------------------------------------------------------------


def detect(
    records: Iterable[RoundRecord] | str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    rules: RuleSet | str | None = None,
    *,
    alpha: float = 0.001,
    burned_seen: bool = False,
    verify: bool = False,
    key: bytes | None = None,
    workers: int | None = 1,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> Detection:
    """Test every player of a log for stakes that follow the shoe (see the module's doc).

    :param records: the ``RoundRecord`` objects of one game in order, a log's path (or a
        binary file: ``sys.stdin.buffer``), or a list of paths (several logs: each read on
        its own, the players' sums added).
    :param rules: the rules played under (a ``RuleSet`` or a preset's name); None: the
        preset the records name.
    :param alpha: the family-wise error rate of ``flagged`` (Holm's correction).
    :param burned_seen: count burned cards as seen (by default they are unseen).
    :param verify: a log is read through ``verify_log``'s checks in the same pass (its
        chain, every record's hash, and by default not replayed: ``verify=True`` deals
        every round again too); a log that fails them raises ValueError.
    :param key: the operator's HMAC key, checked on every record of a log.
    :param workers: processes reading several logs at once (None: every core).
    :param executor: read several logs on this executor instead (e.g. Dask's).
    :param progress: called with the number of records read since its last call.
    """
    rules = as_rules(rules, optional=True)
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a probability strictly between 0 and 1, got {alpha!r}"[:120])
    flag("burned_seen", burned_seen)
    flag("verify", verify)
    check_progress(progress)
    check_executor(executor)
    window = workers_of(workers)
    if isinstance(records, str | os.PathLike | io.BufferedIOBase | io.RawIOBase):
        name, tallies, count, skipped = _tally_log(records, rules, burned_seen, verify, key, progress)
        return _results(name, float(alpha), tallies, count, skipped)
    if isinstance(records, bytes | bytearray):
        raise TypeError("records: give RoundRecords, a log's path or a list of paths, not bytes")
    if not isinstance(records, Iterable):
        raise TypeError(f"records: give RoundRecords, a log's path or a list of paths, not {type(records).__name__}")
    items = list(records) if isinstance(records, Sequence) else None
    if items is not None and items and all(isinstance(x, str | os.PathLike) for x in items):
        return _many(items, rules, float(alpha), burned_seen, verify, key, window, executor, progress)
    given = items if items is not None else records
    if verify or key is not None:  # checked as a log is: through its lines
        name, tallies, count, skipped = _tally_log((_line(r) for r in given), rules, burned_seen, verify, key,
                                                   progress)
        return _results(name, float(alpha), tallies, count, skipped)
    reader: _Reader | None = None
    for record in given:  # the caller's own records, in order: read as they are
        if not isinstance(record, RoundRecord):
            raise TypeError(f"records: a log holds RoundRecords, not {type(record).__name__}")
        if reader is None:
            reader = _Reader(rules if rules is not None else _rules_of(record), burned_seen)
        elif record.rules != reader.rules.name:
            raise ValueError(f"records: round {record.round} was played under {record.rules!r}, not "
                             f"{reader.rules.name!r}")
        reader.feed(record)
        if progress is not None and reader.records % 1000 == 0:
            progress(1000)
    if reader is None:
        raise ValueError("records: no record to read")
    if progress is not None:
        progress(reader.records % 1000)
    return _results(reader.rules.name, float(alpha), reader.finish(), reader.records, reader.skipped)


def _rules_of(record: RoundRecord) -> RuleSet:
    from .records import rules_digest
    from .rules import PRESETS

    preset = PRESETS.get(record.rules)
    if preset is None or rules_digest(preset) != record.rules_digest:
        raise ValueError(f"records: their rules {record.rules!r} are not a preset's: give the rules they were "
                         f"played under")
    return preset


def _line(record: object) -> str:
    if not isinstance(record, RoundRecord):
        raise TypeError(f"records: a log holds RoundRecords, not {type(record).__name__}")
    return record.to_json()


def _numbered(index: int, *task: Any) -> tuple[int, tuple[str, dict[str, _Tally], int, int]]:
    """``_tally_log(*task)`` and the log's place in the list (picklable, for any executor)."""
    return index, _tally_log(*task)


def _many(paths: list[Any], rules: RuleSet | None, alpha: float, burned_seen: bool, verify: bool,
          key: bytes | None, window: int, executor: Executor | None, progress: Progress | None) -> Detection:
    names: set[str] = set()
    total: dict[str, _Tally] = defaultdict(_Tally)
    counts = [0, 0, 0]  # records, skipped, logs added

    done: dict[int, tuple[str, dict[str, _Tally], int, int]] = {}

    def absorb(numbered: tuple[int, tuple[str, dict[str, _Tally], int, int]]) -> None:
        """Add each log's sums in the order of the logs, whatever order they end in (float
        sums, and the points kept, are so the same on any executor)."""
        index, result = numbered
        if progress is not None:
            progress(result[2])
        done[index] = result
        while counts[2] in done:
            name, tallies, count, skipped = done.pop(counts[2])
            names.add(name)
            for player, tally in tallies.items():
                total[player].add(tally)
            counts[0] += count
            counts[1] += skipped
            counts[2] += 1

    tasks = ((index, path, rules, burned_seen, verify, key) for index, path in enumerate(paths))
    if executor is None and window == 1:
        for task in tasks:
            absorb(_numbered(*task))
    elif executor is None:
        with ProcessPoolExecutor(max_workers=window) as pool:
            if execute(tasks, _numbered, pool, 2 * window, absorb, None):
                raise KeyboardInterrupt
    elif execute(tasks, _numbered, executor, 2 * window, absorb, None):
        raise KeyboardInterrupt
    if len(names) > 1:
        raise ValueError(f"the logs were played under different rules ({', '.join(sorted(names))}): detect one "
                         f"table's logs at a time")
    return _results(names.pop(), alpha, total, counts[0], counts[1])
