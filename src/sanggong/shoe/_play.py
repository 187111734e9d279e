"""``play_shoes``: shoes dealt exactly as ``Game`` deals them, in chunks on every core,
each bet played by each strategy (``sanggong.shoe``)."""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _checks as checks
from .. import _kernels, _parallel
from .._kernels import shoe_kernel
from .._settlement_plan import plan_for
from ..analysis import analyze, composition
from ..limits import MAX_SHOES
from ..ranking import tables_for
from ..rules import RuleSet, as_rules, offered_bets
from ..seeds import SeedLike, check_seed
from ..settlement import payout
from . import _ev
from ._evaluator import ShoeEvaluator
from ._strategies import (
    MAX_COUNT_BINS,
    RANK_SYMBOLS,
    BetPlay,
    CountBin,
    CountPlay,
    CountStats,
    PlayResult,
    Strategy,
    StrategyStats,
    bet_tags,
    number,
    strategies,
)
from ._terms import shoe_terms

__all__ = ["play_shoes"]

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
    by_row = np.frombuffer(plan.outcome_codes, dtype=np.uint8).reshape(-1, plan.key_space)
    columns = np.zeros(by_row.shape, dtype=np.uint8)
    codes = []
    for j in range(len(bets)):
        row = int(plan.row[j])
        reached = [int(c) for c in np.unique(by_row[row]) if c != 0xFF]
        lookup = np.zeros(256, dtype=np.uint8)
        lookup[reached] = np.arange(len(reached))
        columns[row] = lookup[by_row[row]]
        codes.append(tuple(reached))
    columns.flags.writeable = False
    return columns, tuple(codes)


@functools.lru_cache(maxsize=64)
def _fixed_evs(rules: RuleSet, bets: tuple[str, ...]) -> npt.NDArray[np.float64]:
    """A fresh deck's EV of each row of the shoe terms (cached)."""
    terms = shoe_terms(rules, bets)
    evs = ShoeEvaluator(rules, bets=bets).evs()
    out = np.zeros(len(terms.rows), dtype=np.float64)
    for j, bet in enumerate(bets):
        out[terms.bet_row[j]] = float(evs[bet])
    out.flags.writeable = False
    return out


def _run_play_chunk(setup: _Setup, index: int, seed: np.random.SeedSequence, shoes: int,
                    stop: npt.NDArray[np.uint8] | None = None) -> _PlayChunk:
    rules, bets = setup.rules, setup.bets
    tables = tables_for(rules.ranking)
    plan = plan_for(rules, bets)
    columns, codes = _outcome_columns(rules, bets)
    width = max(len(c) for c in codes)
    terms = shoe_terms(rules, bets)
    kernel = None
    fixed = np.zeros(0, dtype=np.float64)
    if setup.perfect:
        if rules.fresh_deck_each_round:
            fixed = _fixed_evs(rules, bets)
        else:
            kernel = shoe_kernel(terms, composition(rules.decks).tolist())
    row_scale = _ev.scales(terms.rows)
    row_part = np.array([r.part for r in terms.rows], dtype=np.uint8)
    bet_row = np.array(terms.bet_row, dtype=np.int32)
    m = len(bets)
    count_hist = np.zeros((setup.bins, m, width), dtype=np.uint64)
    perfect_hist = np.zeros((m, width), dtype=np.uint64)
    ev_bins = np.zeros((setup.bins, m), dtype=np.float64)
    moments = np.zeros((m, 6), dtype=np.float64)
    flag = np.zeros(1, dtype=np.uint8) if stop is None else stop
    # a setup sent to a Dask worker can arrive with its arrays as views into a byte buffer
    # at any offset: the kernel refuses those, so aligned copies where they are not aligned
    tags = np.require(setup.tags, np.int32, ["C", "A"])
    bet_tag = np.require(setup.bet_tag, np.int32, ["C", "A"])
    rounds, done = _kernels.kernels.play_chunk(
        np.random.PCG64(seed), _kernels.lookups(tables), rules.table_params.array(), shoes, plan, columns, kernel, bet_row,
        row_scale, row_part, fixed, tags, bet_tag, setup.bin_width, setup.bin_zero, setup.burned_seen,
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
        total = sum((c * n for c, n in zip(by_col, nets, strict=True)), Fraction(0))
        squares = sum((c * n * n for c, n in zip(by_col, nets, strict=True)), Fraction(0))
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
            total += Fraction(u) * sum((c * n for c, n in zip(row, nets, strict=True)), Fraction(0))
            squares += Fraction(u) ** 2 * sum((c * n * n for c, n in zip(row, nets, strict=True)), Fraction(0))
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
            gains = [float(sum((int(c) * n for c, n in zip(hist[b], nets, strict=True)), Fraction(0))) for b in range(setup.bins)]
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
    rules: RuleSet | str,
    shoes: int,
    strategy: str | Strategy | Iterable[str | Strategy],
    *,
    seed: SeedLike = None,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
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
    rules = as_rules(rules)
    sequence, recorded_seed = check_seed(seed)  # its size checked before any work
    checks.count("shoes", shoes, MAX_SHOES)
    perfect, count = strategies(strategy)
    names = offered_bets(rules, bets, "play")
    checks.flag("burned_seen", burned_seen)
    checks.flag("partial_on_interrupt", partial_on_interrupt)
    if bankroll is not None:
        bankroll = number("bankroll", bankroll, 1e-9, 1e15)
    _parallel.check_progress(progress)
    _parallel.check_executor(executor)
    default_chunk = 65536 if rules.fresh_deck_each_round else 1024
    chunk = checks.count("chunk_size", default_chunk if chunk_size is None else chunk_size, MAX_SHOES)
    if perfect is not None and shoe_terms(rules, names).wide and not rules.fresh_deck_each_round:
        raise ValueError("perfect information on a shoe: these pays' exact nets, over a common denominator, "
                         "need more than 64 bits (59 where suits break ties: odds and rates with large, different "
                         "denominators), which only the pure-Python evaluator sums; play 'count', or round the odds")
    setup, tags_by_bet = play_setup(rules, names, perfect is not None, count, burned_seen)
    window = _parallel.workers(workers)
    totals = _play_chunks(setup, shoes, chunk, sequence, window, executor, progress)
    if totals.interrupted and not partial_on_interrupt:
        raise KeyboardInterrupt
    fresh = analyze(rules)
    out = {name: BetPlay(name, fresh[name].ev_exact, *_strategy_stats(setup, totals, j, perfect is not None, count,
                                                                       tags_by_bet[name], bankroll))
           for j, name in enumerate(names)}
    return PlayResult(
        rules=rules.name, decks=rules.decks, positions=rules.positions, shoes=totals.shoes, rounds=totals.rounds,
        seed=recorded_seed, burned_seen=burned_seen, bets=out, interrupted=totals.interrupted, seconds=totals.seconds,
    )


def play_setup(rules: RuleSet, names: tuple[str, ...], perfect: bool, count: CountPlay | None,
           burned_seen: bool) -> tuple[_Setup, dict[str, tuple[int, ...]]]:
    """What every chunk needs (the count's bins and each bet's tags, checked), and each
    bet's tag vector."""
    counting = count if count is not None else CountPlay()
    width = number("bin_width", counting.bin_width, 1e-3, 100.0)
    reach = number("max_count", counting.max_count, width, 1e4)
    if count is not None and count.spread is not None:
        if not isinstance(count.spread, Mapping) or not count.spread:
            raise TypeError("spread: a non-empty mapping of true count to units")
        for tc, amount in count.spread.items():
            number("spread: a true count", tc, -1e4, 1e4)
            if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= 10**6:
                raise ValueError(f"spread: units must be ints in 0..1,000,000, got {amount!r} at {tc}")
    if count is not None and count.threshold is not None:
        given = count.threshold if isinstance(count.threshold, Mapping) else dict.fromkeys(names, count.threshold)
        for bet, level in given.items():
            if bet not in names:
                raise ValueError(f"threshold: {bet} is not among the bets played")
            number(f"threshold of {bet}", level, -1e4, 1e4)
    zero = math.ceil(reach / width)
    if zero > MAX_COUNT_BINS // 2:
        raise ValueError(f"max_count / bin_width = {reach:g} / {width:g} makes {2 * zero + 2:,} true-count bins; "
                         f"at most {MAX_COUNT_BINS:,}")
    bins = 2 * zero + 2  # [-reach, reach) in bins of width, and one open bin at each end
    tags_by_bet: dict[str, tuple[int, ...]] = (bet_tags(rules, names, counting) if count is not None
                                                else dict.fromkeys(names, (0,) * 13))
    vectors = sorted(set(tags_by_bet.values()))
    if len(vectors) > 64:
        raise ValueError("tags: at most 64 different tag vectors")
    setup = _Setup(
        rules=rules, bets=names, perfect=perfect,
        tags=np.array(vectors, dtype=np.int32).reshape(-1, 13),
        bet_tag=np.array([vectors.index(tags_by_bet[n]) for n in names], dtype=np.int32),
        bin_width=width, bin_zero=zero + 1, bins=bins, burned_seen=burned_seen,
    )
    return setup, tags_by_bet


@dataclass
class _Totals:
    """The chunks' counts summed: by true-count bin, bet and outcome column."""

    count_hist: npt.NDArray[Any]  # (bins, bets, columns), Python integers
    perfect_hist: npt.NDArray[Any]  # (bets, columns)
    ev_bins: npt.NDArray[np.float64]  # (bins, bets)
    moments: npt.NDArray[np.float64]  # (bets, 6)
    codes: tuple[tuple[int, ...], ...]  # each bet's outcome codes by column
    rounds: int = 0
    shoes: int = 0
    interrupted: bool = False
    seconds: float = 0.0


def _play_chunks(setup: _Setup, shoes: int, chunk: int, sequence: np.random.SeedSequence, window: int,
                 executor: Executor | None, progress: Callable[[int, int], None] | None) -> _Totals:
    """Play every chunk (on threads, or on ``executor``) and sum what they counted."""
    _, codes = _outcome_columns(setup.rules, setup.bets)
    m, ncol = len(setup.bets), max(len(c) for c in codes)
    totals = _Totals(np.zeros((setup.bins, m, ncol), dtype=object), np.zeros((m, ncol), dtype=object),
                     np.zeros((setup.bins, m), dtype=np.float64), np.zeros((m, 6), dtype=np.float64), codes)
    parts: dict[int, _PlayChunk] = {}

    def absorb(part: _PlayChunk) -> None:
        parts[part.index] = part
        totals.rounds += part.rounds
        totals.shoes += part.shoes
        totals.count_hist[...] += part.count_hist.astype(object)
        totals.perfect_hist[...] += part.perfect_hist.astype(object)
        if progress is not None:
            progress(totals.shoes, shoes)

    stop = np.zeros(1, dtype=np.uint8)
    tasks = ((setup, k, child, n) for k, child, n in _parallel.chunks(shoes, chunk, sequence))
    start = time.perf_counter()
    if executor is None:
        with ThreadPoolExecutor(max_workers=window, thread_name_prefix="sanggong-shoe") as pool:
            totals.interrupted = _parallel.execute(((*t, stop) for t in tasks), _run_play_chunk, pool, 2 * window,
                                                   absorb, stop)
    else:
        totals.interrupted = _parallel.execute(tasks, _run_play_chunk, executor, 2 * window, absorb, None)
    totals.seconds = time.perf_counter() - start
    for k in sorted(parts):  # floating sums in chunk order: the same whatever finished first
        totals.ev_bins += parts[k].ev_bins
        totals.moments += parts[k].moments
    return totals


def _strategy_stats(setup: _Setup, totals: _Totals, j: int, perfect: bool, count: CountPlay | None,
                    tags: tuple[int, ...], bankroll: float | None
                    ) -> tuple[StrategyStats, StrategyStats | None, CountStats | None]:
    """Bet j's figures: betting every round, perfect information (where played) and the
    count (where played), from the summed counts."""
    rules, name, codes = setup.rules, setup.bets[j], totals.codes[j]
    kind = rules.bet(name).kind
    ncol = totals.count_hist.shape[2]
    nets = [payout(rules, kind, c)[1] for c in codes] + [Fraction(0)] * (ncol - len(codes))
    hist = totals.count_hist[:, j]
    moments, rounds = totals.moments, totals.rounds
    evs = totals.ev_bins[:, j] if perfect else None
    always = _stats("always", rounds, hist.sum(axis=0), nets, None, float(moments[j, 1]) if perfect else None,
                    bankroll)
    perfect_stats = None
    if perfect:
        perfect_stats = _stats("perfect", rounds, totals.perfect_hist[j], nets, None, float(moments[j, 0]), bankroll)
    count_stats = None
    if count is not None:
        units, threshold = _count_units(setup, count, name, hist, nets, evs)
        ev_sum = float(sum(float(u) * float(e) for u, e in zip(units, evs, strict=True))) if evs is not None else None
        base = _stats("count", rounds, hist, nets, units, ev_sum, bankroll)
        bins = []
        for b, (lo, hi) in enumerate(_bin_edges(setup)):
            n_b = int(sum(int(c) for c in hist[b]))
            result = (float(sum((int(c) * n for c, n in zip(hist[b], nets, strict=True)), Fraction(0))) / n_b) if n_b else None
            bins.append(CountBin(lo, hi, n_b, float(evs[b]) / n_b if evs is not None and n_b else None, result))
        count_stats = CountStats(
            **base.__dict__, tags=dict(zip(RANK_SYMBOLS, tags, strict=True)),
            threshold=threshold, correlation=_correlation(moments[j], rounds) if perfect else None,
            bins=tuple(bins),
        )
    return always, perfect_stats, count_stats
