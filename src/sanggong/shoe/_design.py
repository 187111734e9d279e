"""``design``: the pays of a bet whose exact house edge lies in a range, with what
perfect-information play gains on each (``sanggong.shoe``)."""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import _parallel
from .._checks import count
from .._text import did_you_mean
from ..analysis import analyze
from ..limits import MAX_DECKS, MAX_SHOES
from ..rules import BetKind, BetSpec, RuleSet, as_rules
from ..seeds import SeedLike, check_seed
from ._play import play_shoes

__all__ = ["DESIGN_LIMIT", "MAX_DESIGN_TABLES", "PayOption", "design", "edge_by_pay"]

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


_LINE_POINTS = 1001
"""``edge_by_pay`` gives at most this many points of its (straight) line."""

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
    rules: RuleSet | str,
    bet: str,
    edge: tuple[Any, Any],
    *,
    decks: int | None = None,
    step: Any = Fraction(1, 2),
    pays: tuple[Any, Any] | None = None,
    shoes: int = 1000,
    seed: SeedLike = 1,
    workers: int | None = None,
    limit: int = DESIGN_LIMIT,
    key: str | None = None,
    progress: Callable[[int, int], None] | None = None,
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

    ``progress`` is called with (shoes played, shoes to play) as the pays found are
    played, ``shoes`` for each (not at all where no shoe is played: a fresh deck each
    round, or no pay in the range).
    """
    seed = check_seed(seed)[1]  # its size checked before any work; a Generator drawn from once, for every play
    rules, spec, current, unit, grids = _pays_tried(rules, bet, decks, step, pays, key)
    if not isinstance(edge, tuple | list) or len(edge) != 2:
        raise TypeError(f"edge must be a (low, high) pair, not {edge!r}")
    low, high = (_fraction("edge", e) for e in edge)
    if not -1 <= low <= high <= 1:
        raise ValueError(f"edge must satisfy -1 <= low <= high <= 1, got ({edge[0]}, {edge[1]})")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
        raise ValueError(f"limit must be an int in 1..10,000, got {limit!r}")
    count("shoes", shoes, MAX_SHOES)  # checked now: the plays come after the search
    _parallel.workers(workers)
    _parallel.check_progress(progress)
    line = _EdgeLine.of(rules, spec, list(current), unit, low, high)
    whole = _bet_kind(rules, spec).whole_table
    found = line.pair_plus_tables(grids, limit) if whole else line.single_pays(grids, limit)
    found.sort(key=lambda item: (abs(item[0] - (low + high) / 2), sorted(item[1].items())))
    out = []
    found = found[:limit]
    for k, (house, table) in enumerate(found):
        gain = frequency = None
        if rules.fresh_deck_each_round:  # every round is a fresh deck: bet iff the edge is negative
            gain, frequency = (float(-house) * 100, 1.0) if house < 0 else (0.0, 0.0)
        else:
            played = play_shoes(_with_pays(rules, spec, table), shoes, "perfect", seed=seed, workers=workers,
                                bets=[bet], progress=_offset(progress, k * shoes, len(found) * shoes))
            perfect = played[bet].perfect
            assert perfect is not None
            gain, frequency = perfect.expected_gain_per_100, perfect.frequency
        out.append(PayOption(table, house, gain, frequency))
    return out


def _offset(progress: Callable[[int, int], None] | None, before: int,
            total: int) -> Callable[[int, int], None] | None:
    """One play's progress as part of all of ``design``'s: ``before`` shoes played already."""
    if progress is None:
        return None
    report = progress
    return lambda done, _: report(before + done, total)


def _pays_tried(rules: RuleSet | str, bet: str, decks: int | None, step: Any, pays: tuple[Any, Any] | None,
                key: str | None) -> tuple[RuleSet, BetSpec, dict[str, Fraction], Fraction, dict[str, tuple[int, int]]]:
    """What ``design`` and ``edge_by_pay`` vary, checked: the rules (with ``decks``), the
    bet, the table's own pays of it, the step, and the multiples of the step tried."""
    rules = as_rules(rules)
    if not isinstance(bet, str):
        raise TypeError(f"bet must be a bet name, not {type(bet).__name__}")
    spec = rules.bet(bet)
    if decks is not None:
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
            raise ValueError(f"decks must be an int in 1..{MAX_DECKS}, got {decks!r}")
        rules = rules.replace(decks=decks)
    unit = _fraction("step", step)
    if unit <= 0:
        raise ValueError(f"step must be positive, got {step!r}")
    current = _current_pays(rules, spec, key)
    return rules, spec, current, unit, _grids(current, unit, step, pays)


def edge_by_pay(
    rules: RuleSet | str,
    bet: str,
    *,
    decks: int | None = None,
    step: Any = Fraction(1, 2),
    pays: tuple[Any, Any] | None = None,
    key: str | None = None,
) -> list[tuple[Fraction, Fraction]]:
    """The exact fresh-shoe house edge of ``bet`` at every pay ``design`` tries with the same
    arguments (odds to 1, multiples of ``step`` in ``pays``, by default half to twice the
    table's own), as (pay, house edge) pairs, the lowest pay first: the line that
    ``sanggong.plot.pay_options`` draws ``design``'s options on, inside the range or not.
    Where more than 1,001 pays are tried, 1,001 of them evenly spread from the lowest to
    the highest (the edge is a straight line in the pay).
    A bet's pay (or a banker game's multiplier ``key``) is one number; Pair Plus, designed
    as a whole table of several, has no such line (``ValueError``).

    >>> from sanggong import MACAU, analyze
    >>> line = edge_by_pay(MACAU, "point:0", step=1, pays=(7, 9))
    >>> [str(pay) for pay, _ in line]
    ['7', '8', '9']
    >>> line[1][1] == -analyze(MACAU)["point:0"].ev_exact  # the table's own pay, 8:1
    True
    """
    rules, spec, current, unit, grids = _pays_tried(rules, bet, decks, step, pays, key)
    if _bet_kind(rules, spec).whole_table:
        raise ValueError(f"{spec.name}: Pair Plus is designed as a whole table of {len(current)} pays: no one pay "
                         f"to draw its edge against")
    line = _EdgeLine.of(rules, spec, list(current), unit, Fraction(0), Fraction(0))
    ((name, (g_lo, g_hi)),) = grids.items()
    slope, n = line.slopes[name], g_hi - g_lo
    tried = range(g_lo, g_hi + 1) if n < _LINE_POINTS else sorted({g_lo + n * i // (_LINE_POINTS - 1)
                                                                     for i in range(_LINE_POINTS)})
    return [(g * unit, -(line.base + slope * g * unit)) for g in tried]


def _current_pays(rules: RuleSet, spec: BetSpec, key: str | None) -> dict[str, Fraction]:
    """The pays ``design`` varies, as the table has them: a bet kind's odds, a total bet's
    range's, every Pair Plus category's, or one multiplier of a banker game (``key``)."""
    kind = _bet_kind(rules, spec)
    multiplied = kind.by_winning_hand
    if key is not None and not multiplied:
        raise ValueError(f"key: only a banker game's bets pay by a multiplier to choose; {spec.name} pays its odds")
    if multiplied:
        if key is None:
            key = max(rules.multipliers, key=lambda k: (rules.multipliers[k], k))
        if not isinstance(key, str) or key not in rules.multipliers:
            raise ValueError(f"key: {key!r}{did_you_mean(key, rules.multipliers)} is not a multiplier of the table: "
                             f"{', '.join(rules.multipliers)}")
    return kind.odds_of(rules, spec.number, key)  # (a total bet's: its range's, in total_pays)


def _grids(current: Mapping[str, Fraction], unit: Fraction, step: Any,
           pays: tuple[Any, Any] | None) -> dict[str, tuple[int, int]]:
    """For each pay varied, the multiples of ``unit`` tried: (lowest, highest) ``g`` of
    ``g * unit``, ``pays`` or by default half to twice the table's own."""
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
    return grids


def _with_pays(rules: RuleSet, spec: BetSpec, table: Mapping[str, Fraction]) -> RuleSet:
    """``rules`` with the pays ``design`` varies replaced by ``table`` (in the field the
    bet's kind reads its odds from)."""
    field = _bet_kind(rules, spec).odds
    return rules.replace(**{field: {**getattr(rules, field), **table}})


def _bet_kind(rules: RuleSet, spec: BetSpec) -> BetKind:
    """The record of an offered bet's kind."""
    kind = rules.table_variant.kind(spec.kind)
    assert kind is not None  # (rules.bet has checked the bet)
    return kind


@dataclass(frozen=True)
class _EdgeLine:
    """The house edge as a function of the pays varied: affine in each, ``EV = base + sum
    over pays of slope * pay``, and in integers, scaled by a common denominator, the edge
    of grid points g is ``-(big_b + sum slope_i[k] g_k) / scale``."""

    keys: list[str]
    unit: Fraction
    base: Fraction
    slopes: dict[str, Fraction]
    scale: int
    big_b: int
    lo_i: int
    hi_i: int
    target_i: int
    slope_i: dict[str, int]

    @classmethod
    def of(cls, rules: RuleSet, spec: BetSpec, keys: list[str], unit: Fraction, low: Fraction,
           high: Fraction) -> _EdgeLine:
        tiny = Fraction(1, 10**6)
        base = analyze(_with_pays(rules, spec, dict.fromkeys(keys, tiny)), None)[spec.name].ev_exact
        slopes = {}
        for k in keys:
            probe = dict.fromkeys(keys, tiny)
            probe[k] = Fraction(1)
            slopes[k] = (analyze(_with_pays(rules, spec, probe), None)[spec.name].ev_exact - base) / (1 - tiny)
        base -= sum(slopes.values()) * tiny
        target = (low + high) / 2
        scale = math.lcm(base.denominator, low.denominator, high.denominator,
                         *((slopes[k] * unit).denominator for k in keys))
        return cls(keys, unit, base, slopes, scale, int(base * scale), int(low * scale), int(high * scale),
                   int(target * scale), {k: int(slopes[k] * unit * scale) for k in keys})

    def single_pays(self, grids: Mapping[str, tuple[int, int]], limit: int) -> list[tuple[Fraction, dict[str, Fraction]]]:
        """One pay: the grid points whose edge lies in the range, the ``limit`` nearest the
        middle from the grid point there outward."""
        (k,) = self.keys
        g_lo, g_hi = grids[k]
        big_b, slope = self.big_b, self.slope_i[k]
        if slope == 0:
            inside = self.lo_i <= -big_b <= self.hi_i
            g_from, g_to, g_mid = (g_lo, g_hi, g_lo) if inside else (1, 0, 0)
        else:  # lo <= -(B + S g) <= hi, solved for g
            a_, b_ = Fraction(-self.hi_i - big_b, slope), Fraction(-self.lo_i - big_b, slope)
            g_from, g_to = max(g_lo, math.ceil(min(a_, b_))), min(g_hi, math.floor(max(a_, b_)))
            g_mid = round(Fraction(-self.target_i - big_b, slope))
        found: list[tuple[Fraction, dict[str, Fraction]]] = []
        if g_from <= g_to:  # the limit nearest the middle, from the grid point there outward
            g_mid = min(max(g_mid, g_from), g_to)
            for g in range(max(g_from, g_mid - limit), min(g_to, g_mid + limit) + 1):
                found.append((-(self.base + self.slopes[k] * g * self.unit), {k: g * self.unit}))
        return found

    def pair_plus_tables(self, grids: Mapping[str, tuple[int, int]],
                         limit: int) -> list[tuple[Fraction, dict[str, Fraction]]]:
        """Pair Plus tables: monotone (non-decreasing from pair to straight flush), category
        by category, pruned by the edge still reachable; the ``limit`` nearest the middle."""
        order, slope_i, big_b, lo_i, hi_i = self.keys, self.slope_i, self.big_b, self.lo_i, self.hi_i
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
            top_rest = sum(s_r * grids[r][1] for r, (s_r, _) in zip(order[i + 1:], rest, strict=True))
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
        found = []
        for _, grid_points in best:
            pays_of = {c: g * self.unit for c, g in zip(order, grid_points, strict=True)}
            found.append((-(self.base + sum(self.slopes[c] * p for c, p in pays_of.items())), pays_of))
        return found
