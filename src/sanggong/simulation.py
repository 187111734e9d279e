"""Monte Carlo at scale: rounds dealt and settled in the compiled core without the GIL,
on every core, or across a cluster through any ``concurrent.futures.Executor``.

Reproducible by construction: the rounds are cut into chunks by round count, chunk k
draws from ``SeedSequence(seed).spawn(...)[k]`` and starts from a fresh shoe, and the
chunks' counts are summed, so the same seed gives the same result whatever ``workers``
and whatever executor. Counts are 64-bit in a chunk and Python integers in the sum.

Money is exact: a bet's return is summed from its outcome counts and the exact amount
each outcome pays. By default every bet the table offers is staked one unit as a
``Fraction`` (never rounded), so the return compares directly with ``analyze``; give
``bets`` with ``int`` stakes to see the effect of rounding to the minor unit. A stake
that stays on the table counts as returned to the player and staked again next round,
which is the same money.

>>> from sanggong import ONLINE
>>> result = simulate(ONLINE, 20_000, seed=1, workers=1)
>>> bet = result.bets["pair_plus:banker"]
>>> bet.rounds, abs(bet.z) < 4
(20000, True)
>>> simulate(ONLINE, 20_000, seed=1, workers=2).bets == result.bets
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _kernels
from ._checks import count, memory
from ._parallel import check_executor, check_progress, chunks, execute
from ._parallel import workers as workers_of
from ._presentation import fixed, html_sheet, money_column, pandas, percent
from ._settlement_plan import plan_for
from ._spec import N_OUTCOMES, N_PAIR_PLUS
from .limits import MAX_SESSION_ROUNDS, MAX_SESSIONS, MAX_SIM_ROUNDS, MAX_STAKE
from .money import Money, Purse, check_stake, json_money, money_text
from .ranking import tables_for
from .rules import RuleSet, as_rules
from .seeds import Seed, SeedLike, check_seed, child, seed_json
from .settlement import bet_result, check_slip, result_of

if TYPE_CHECKING:  # pandas is optional (the "frame" extra), and typed only with pandas-stubs
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["BetStats", "SessionResult", "SimulationResult", "simulate", "simulate_sessions"]

DEFAULT_CHUNK = 1 << 18
"""Rounds per chunk: small enough to stop within a fraction of a second on Ctrl-C."""

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class _Chunk:
    index: int
    rounds: int
    counts: npt.NDArray[np.uint64]  # (bets, outcome codes)
    classes: npt.NDArray[np.uint64]  # hands dealt of each class


def _histograms(rules: RuleSet) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    tables = tables_for(rules.ranking)
    n = tables.n_classes
    width = 1 if tables.ordered_by_class else 3
    return (np.zeros((rules.hands, n * n * width), dtype=np.uint64),
            np.zeros((rules.hands, n * N_PAIR_PLUS), dtype=np.uint64))


def _pair_keys(rules: RuleSet) -> npt.NDArray[np.int64]:
    """For each entry of a position's ``pairs`` histogram, its settlement key
    ``(class * n + banker_class) * 3 + order + 1``: the histogram's own layout where the
    round loop counts the order, else the order the two classes' ranks give."""
    tables = tables_for(rules.ranking)
    n = tables.n_classes
    if not tables.ordered_by_class:
        return np.arange(n * n * 3, dtype=np.int64)
    hand, banker = np.divmod(np.arange(n * n, dtype=np.int64), n)
    a, b = tables.class_rank[hand], tables.class_rank[banker]
    keys: npt.NDArray[np.int64] = (hand * n + banker) * 3 + 1 + np.sign(a - b)
    return keys


def bet_counts(plan: Any, pairs: npt.NDArray[np.uint64], single: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """Each bet's outcome counts from the round loop's histograms: a position's bets
    read ``pairs`` (its class against the banker's, and the order), the others ``single``
    (one hand's class and Pair Plus category), through the same settlement plan as
    ``settle``."""
    n = plan.n_classes
    out = np.zeros((len(plan.specs), N_OUTCOMES), dtype=np.uint64)
    classes = np.repeat(np.arange(n), N_PAIR_PLUS)
    pps = np.tile(np.arange(N_PAIR_PLUS), n)
    keys = _pair_keys(plan.rules)
    for j in range(len(plan.specs)):
        row = plan.row_of(j)
        h = int(plan.hand[j])
        if plan.kd[j]:  # against the banker: the pairs histogram, by its keys
            np.add.at(out[j], row[keys], pairs[h])
        else:
            np.add.at(out[j], row[int(plan.ka[j]) * classes + int(plan.kb[j]) * pps], single[h])
    return out


def _run_chunk(
    rules: RuleSet, bets: tuple[str, ...], index: int, seed: np.random.SeedSequence, rounds: int,
    stop: npt.NDArray[np.uint8] | None = None,
) -> _Chunk:
    """One chunk: a fresh shoe and ``rounds`` rounds (picklable, for any executor)."""
    pairs, single = _histograms(rules)
    flag = np.zeros(1, dtype=np.uint8) if stop is None else stop
    tables = tables_for(rules.ranking)
    done = _kernels.kernels.simulate_chunk(
        np.random.PCG64(seed), _kernels.lookups(tables), rules.table_params.array(), rounds, pairs, single, None, None, None, flag
    )
    classes = single.reshape(rules.hands, tables.n_classes, N_PAIR_PLUS).sum(axis=(0, 2), dtype=np.uint64)
    return _Chunk(index, int(done), bet_counts(plan_for(rules, bets), pairs, single), classes)


# --- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class BetStats:
    """A bet's simulated return against its exact value.

    ``rtp`` is returned / staked; ``sd`` the sample standard deviation of one round's
    return per unit staked; ``ci95`` the 95% interval of the return; ``exact`` the
    return from the exact analysis of a full shoe (which every round of a shoe shares,
    its cards being exchangeable) and ``z`` the difference in standard errors.
    """

    bet: str
    rounds: int
    stake: Money
    staked: Money
    returned: Money
    outcomes: Mapping[str, int]
    rtp: float
    sd: float
    ci95: tuple[float, float]
    exact: float | None
    z: float | None

    def to_dict(self) -> dict[str, Any]:
        money = json_money  # (a Decimal written the same whatever the caller's context)
        return {
            "bet": self.bet, "rounds": self.rounds, "stake": money(self.stake), "staked": money(self.staked),
            "returned": money(self.returned), "outcomes": dict(self.outcomes), "rtp": _finite(self.rtp),
            "sd": _finite(self.sd), "ci95": [_finite(x) for x in self.ci95], "exact": _finite(self.exact),
            "z": _finite(self.z),
        }


def _finite(value: float | None) -> float | None:
    """A statistic for strict JSON: None where it is undefined (no rounds yet: NaN) or
    unbounded (a z of an exact result that never varies: infinite)."""
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation found, and how to run it again."""

    rules: str
    rounds: int
    seed: int | Seed
    chunk_size: int
    bets: Mapping[str, BetStats]
    classes: tuple[int, ...]  # hands dealt of each class (all hands, banker included)
    versions: Mapping[str, str]
    interrupted: bool = False
    convergence: tuple[tuple[int, float], ...] = field(default=(), compare=False)  # (rounds, first bet's return)
    seconds: float = field(default=0.0, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "rounds": self.rounds, "seed": seed_json(self.seed), "chunk_size": self.chunk_size,
            "interrupted": self.interrupted, "seconds": self.seconds, "versions": dict(self.versions),
            "bets": [b.to_dict() for b in self.bets.values()], "classes": list(self.classes),
        }

    _COLUMNS = ("rounds", "stake", "staked", "returned", "rtp", "sd", "ci95_low", "ci95_high", "exact", "z")

    def to_frame(self) -> DataFrame:
        """The bets' statistics as a pandas ``DataFrame``, one row per bet. pandas is
        optional: ``pip install 'sanggong[frame]'``.

        The frame is indexed by the bets' names (the index is named ``bet``), in the
        order of ``bets``; its columns are the fields of :class:`BetStats` of the same
        names, ``ci95`` as two columns: ``rounds``, ``stake``, ``staked``, ``returned``,
        ``rtp``, ``sd``, ``ci95_low``, ``ci95_high``, ``exact`` and ``z``. Amounts are the
        result's own (``int``, or exact ``Decimal`` or ``Fraction`` values in object
        columns); ``exact`` and ``z`` are NaN where the result holds None. The counts of
        each outcome stay in ``bets[name].outcomes``. ``attrs`` holds the run: ``rules``,
        ``rounds``, ``seed``, ``chunk_size``, ``interrupted``, ``seconds`` and
        ``versions``.

        :raises ImportError: pandas is not installed (the message names the extra).
        """
        pd = pandas()
        bets = list(self.bets.values())
        nan = math.nan
        rows = [
            (b.rounds, b.stake, b.staked, b.returned, b.rtp, b.sd, b.ci95[0], b.ci95[1],
             nan if b.exact is None else b.exact, nan if b.z is None else b.z)
            for b in bets
        ]
        frame = pd.DataFrame.from_records(rows, columns=list(self._COLUMNS),
                                          index=pd.Index([b.bet for b in bets], name="bet"))
        for column in ("rtp", "sd", "ci95_low", "ci95_high", "exact", "z"):
            frame[column] = frame[column].astype(float)
        frame.attrs.update(rules=self.rules, rounds=self.rounds, seed=self.seed, chunk_size=self.chunk_size,
                           interrupted=self.interrupted, seconds=self.seconds, versions=dict(self.versions))
        return frame

    def _repr_html_(self) -> str:
        """The bets' returns as an HTML table, for notebooks (needs no pandas)."""
        caption = f"Simulation: {self.rules}, {self.rounds:,} rounds, seed {self.seed}"
        if self.interrupted:
            caption += " (interrupted)"
        rows = [
            (b.bet, money_text(b.stake), percent(b.rtp), f"{percent(b.ci95[0])} to {percent(b.ci95[1])}",
             percent(b.exact), fixed(b.z, 2), fixed(b.sd))
            for b in self.bets.values()
        ]
        header = ("bet", "stake", "return", "95% interval", "exact return", "z", "sd")
        return html_sheet("simulation", caption, header, rows)


def _versions() -> dict[str, str]:
    from ._about import package_version

    return {"sanggong": package_version(), "numpy": np.__version__, "implementation": _kernels.kernels.IMPLEMENTATION}


def _possible(rules: RuleSet, name: str) -> list[int]:
    """The outcome codes a bet can have (those in its settlement plan row)."""
    return sorted(set(plan_for(rules, (name,)).outcome_codes.tolist()) - {0xFF})


@lru_cache(maxsize=4096, typed=True)  # typed: a stake of 1, Fraction(1) or Decimal(1) pays in its own kind
def _back(rules: RuleSet, name: str, stake: Money) -> tuple[Fraction, Purse, Mapping[int, Fraction]]:
    """The stake, and what each possible outcome code gives back to the player (the
    amount returned, and a carried stake, which is still the player's). Cached: a run's
    fixed cost is otherwise mostly this, and it does not scale with the workers."""
    fraction, kind = check_stake(name, stake, rules)
    purse = Purse(kind, rules)
    spec = rules.bet(name)
    back = {}
    for code in _possible(rules, name):
        r = bet_result(rules, purse, spec, fraction, code)
        back[code] = Fraction(r.returned) + Fraction(r.carried)
    return fraction, purse, MappingProxyType(back)


def _stats(
    rules: RuleSet, bets: Mapping[str, Money], counts: Mapping[str, list[int]], rounds: int,
    exact: Mapping[str, float] | None,
) -> dict[str, BetStats]:
    out = {}
    for name, stake in bets.items():
        fraction, purse, back = _back(rules, name, stake)
        tally = counts[name]
        returned = sum((n * back[c] for c, n in enumerate(tally) if n), Fraction(0))
        staked = fraction * rounds
        outcomes: dict[str, int] = {}
        for code, n in enumerate(tally):
            if n:
                outcome, detail = result_of(rules, code)
                label = outcome if detail is None else f"{outcome} ({detail})"
                outcomes[label] = outcomes.get(label, 0) + n
        rtp = float(returned / staked) if rounds else math.nan
        if rounds > 1:
            mean = returned / staked
            square = sum((n * (back[c] / fraction) ** 2 for c, n in enumerate(tally) if n), Fraction(0))
            var = float((square - rounds * mean * mean) / (rounds - 1))
            sd = math.sqrt(max(var, 0.0))
        else:
            sd = math.nan
        half = 1.96 * sd / math.sqrt(rounds) if rounds else math.nan
        value = None if exact is None else exact[name]
        z = None
        if value is not None and rounds > 1:
            z = (rtp - value) / (sd / math.sqrt(rounds)) if sd > 0 else (0.0 if rtp == value else math.inf)
        out[name] = BetStats(
            bet=name, rounds=rounds, stake=stake, staked=purse.money(staked), returned=purse.money(returned),
            outcomes=outcomes, rtp=rtp, sd=sd, ci95=(rtp - half, rtp + half), exact=value, z=z,
        )
    return out


SIMULATE_CHUNK_BYTES = 1536
"""Bytes ``simulate`` keeps for each chunk until it returns: the first bet's outcome counts
(``N_OUTCOMES`` ``uint64``), for the result's ``convergence``, and that point itself (about
1,100 measured; tests/test_memory_limits.py)."""


def _simulate_bytes(rounds: int, chunk_size: int) -> int:
    """The memory ``simulate`` takes beyond a fixed few megabytes and its chunks in flight:
    ``SIMULATE_CHUNK_BYTES`` for each chunk. Weighed against the memory available before
    the run (``simulate(..., 10**15)`` asks for about 5 TB in chunks of the default size)."""
    return -(-rounds // chunk_size) * SIMULATE_CHUNK_BYTES


def simulate(
    rules: RuleSet | str,
    rounds: int,
    bets: Mapping[str, Money] | None = None,
    *,
    seed: SeedLike = None,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    compare_exact: bool = True,
    partial_on_interrupt: bool = False,
) -> SimulationResult:
    """Play ``rounds`` rounds as the dealing procedure prescribes and settle ``bets`` (by
    default every bet the table offers, one unit each) every round.

    :param seed: an int, a ``SeedSequence`` or a ``Seed``; None draws OS entropy. The
        result's ``seed`` re-creates the run (an int, or the whole sequence as a ``Seed``).
    :param workers: threads running chunks without the GIL (None: every core).
    :param executor: run the chunks on this executor instead (e.g. Dask's
        ``Client.get_executor()``); ``workers`` then only bounds the chunks in flight.
    :param progress: called with (rounds done, rounds) as chunks finish.
    :param partial_on_interrupt: on Ctrl-C return what the finished chunks found
        (``interrupted=True``) instead of raising ``KeyboardInterrupt``.
    :param chunk_size: rounds per chunk. The run keeps about 1.5 kB a chunk (the
        ``convergence`` of the result): ``rounds / chunk_size`` chunks must fit in the
        memory available.
    :raises MemoryError: the run would need more memory than the machine has available
        (the message names both; also a ``ValueError``), before any work.
    """
    rules = as_rules(rules)
    sequence, recorded_seed = check_seed(seed)  # its size checked before any work
    count("rounds", rounds, MAX_SIM_ROUNDS)
    count("chunk_size", chunk_size, MAX_SIM_ROUNDS)
    memory(f"simulate of {-(-rounds // chunk_size):,} chunks", _simulate_bytes(rounds, chunk_size),
           "a larger chunk_size")
    if bets is not None and not isinstance(bets, Mapping):
        raise TypeError(f"bets: expected a mapping of bet name to stake, not {type(bets).__name__}")
    check_progress(progress)
    check_executor(executor)
    slip: dict[str, Money] = dict(bets) if bets is not None else {name: Fraction(1) for name in rules.bets}
    if not slip:
        raise ValueError("bets: nothing to simulate")
    checked = check_slip(rules, slip)
    if checked.by_player:
        raise TypeError("bets: simulate stakes one slip every round ({bet: stake}), not bets by player")
    slip = checked.slip  # normalised: a stake of a Decimal subclass is a Decimal
    names = tuple(slip)
    window = workers_of(workers)

    totals = np.zeros((len(names), N_OUTCOMES), dtype=object)
    classes = np.zeros(tables_for(rules.ranking).n_classes, dtype=object)
    per_chunk: dict[int, tuple[int, npt.NDArray[np.uint64]]] = {}  # the first bet's counts, for plots
    done = 0

    def absorb(chunk: _Chunk) -> None:  # called in this thread only, as chunks finish
        nonlocal done
        totals[...] += chunk.counts.astype(object)
        classes[...] += chunk.classes.astype(object)
        done += chunk.rounds
        per_chunk[chunk.index] = (chunk.rounds, chunk.counts[0].copy())  # (SIMULATE_CHUNK_BYTES)
        if progress is not None:
            progress(done, rounds)

    stop = np.zeros(1, dtype=np.uint8)
    tasks = ((rules, names, k, child, n) for k, child, n in chunks(rounds, chunk_size, sequence))
    start = time.perf_counter()
    if executor is None:
        with ThreadPoolExecutor(max_workers=window, thread_name_prefix="sanggong-sim") as pool:
            interrupted = execute(
                ((*t, stop) for t in tasks), _run_chunk, pool, 2 * window, absorb, stop
            )
    else:
        interrupted = execute(tasks, _run_chunk, executor, 2 * window, absorb, None)
    seconds = time.perf_counter() - start
    if interrupted and not partial_on_interrupt:
        raise KeyboardInterrupt
    counts = {name: [int(x) for x in totals[j]] for j, name in enumerate(names)}
    exact = None
    if compare_exact:
        from .analysis import analyze

        table = analyze(rules)
        exact = {n: 1 + table[n].ev for n in names}
    stats = _stats(rules, slip, counts, done, exact)
    convergence = _convergence(rules, names[0], slip[names[0]], per_chunk)
    return SimulationResult(
        rules=rules.name, rounds=done, seed=recorded_seed, chunk_size=chunk_size, bets=stats,
        classes=tuple(int(x) for x in classes), versions=_versions(), interrupted=interrupted,
        convergence=convergence, seconds=seconds,
    )


def _convergence(
    rules: RuleSet, name: str, stake: Money, per_chunk: Mapping[int, tuple[int, npt.NDArray[np.uint64]]]
) -> tuple[tuple[int, float], ...]:
    """(rounds so far, return so far) of one bet, chunk after chunk in chunk order."""
    fraction, _, back = _back(rules, name, stake)
    out, rounds, returned = [], 0, Fraction(0)
    for k in sorted(per_chunk):
        n, tally = per_chunk[k]
        rounds += n
        returned += sum((c * back[code] for code, c in enumerate(tally.tolist()) if c), Fraction(0))
        if rounds:
            out.append((rounds, float(returned / (fraction * rounds))))
    return tuple(out)


# --- sessions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionResult:
    """Final bankrolls of many sessions of the same bet slip, and the risk of ruin: the
    share of sessions whose bankroll fell below the slip's total stake before the end.
    Bankrolls are exact integers (minor units), as Python ints where they outgrow 64 bits."""

    rules: str
    bankroll: int
    rounds: int
    slip: Mapping[str, int]
    finals: npt.NDArray[Any] = field(compare=False)
    ruined: int
    seed: int | Seed
    interrupted: bool = False

    @property
    def sessions(self) -> int:
        return len(self.finals)

    @property
    def risk_of_ruin(self) -> float:
        return self.ruined / self.sessions if self.sessions else math.nan

    def to_dict(self) -> dict[str, Any]:
        finals = sorted(int(x) for x in self.finals)
        n = len(finals)
        # exact quantiles: the smallest final with at least that share of sessions at or below it
        q = [finals[max(0, math.ceil(p * n) - 1)] if n else None for p in (0.05, 0.25, 0.5, 0.75, 0.95)]
        return {
            "rules": self.rules, "bankroll": self.bankroll, "rounds": self.rounds, "slip": dict(self.slip),
            "sessions": self.sessions, "risk_of_ruin": _finite(self.risk_of_ruin),
            "mean_final": float(Fraction(sum(finals), n)) if n else None,
            "quantiles": dict(zip(["5%", "25%", "50%", "75%", "95%"], q, strict=True)), "seed": seed_json(self.seed),
            "interrupted": self.interrupted,
        }

    def to_frame(self) -> DataFrame:
        """The sessions' final bankrolls as a pandas ``DataFrame``, one row per session in
        the order they were played (index ``session``, from 0), its one column ``final``:
        exact integers in minor units (``int64``, or Python ints in an object column where
        a bankroll outgrew 64 bits). pandas is optional: ``pip install 'sanggong[frame]'``.
        ``attrs`` holds the run: ``rules``, ``bankroll``, ``rounds``, ``slip``,
        ``sessions``, ``ruined``, ``risk_of_ruin``, ``seed`` and ``interrupted``.

        :raises ImportError: pandas is not installed (the message names the extra).
        """
        pd = pandas()
        finals = money_column(int(x) for x in self.finals)
        frame = pd.DataFrame({"final": finals}, index=pd.RangeIndex(len(finals), name="session"))
        frame.attrs.update(rules=self.rules, bankroll=self.bankroll, rounds=self.rounds, slip=dict(self.slip),
                           sessions=self.sessions, ruined=self.ruined, risk_of_ruin=self.risk_of_ruin, seed=self.seed,
                           interrupted=self.interrupted)
        return frame

    def _repr_html_(self) -> str:
        """The risk of ruin and the spread of the final bankrolls as an HTML table, for
        notebooks (needs no pandas)."""
        data = self.to_dict()
        slip = ", ".join(f"{bet} {money_text(stake)}" for bet, stake in self.slip.items())
        caption = (f"Sessions: {self.rules}, {self.sessions:,} sessions of {self.rounds:,} rounds from "
                   f"{money_text(self.bankroll)}, slip {slip}, seed {self.seed}")
        if self.interrupted:
            caption += " (interrupted)"
        total = sum(int(x) for x in self.finals)
        mean = "\u2014" if not self.sessions else str(Decimal(round(Fraction(total, self.sessions) * 100)).scaleb(-2))
        rows = [("risk of ruin", percent(self.risk_of_ruin)), ("ruined", f"{self.ruined:,}"),
                ("mean final", mean)]  # to the hundredth of a minor unit, exactly (no float)
        rows += [(f"final, {q} quantile", "\u2014" if v is None else money_text(v)) for q, v in data["quantiles"].items()]
        return html_sheet("sessions", caption, ("", "value"), rows)


SESSION_ROUND_BYTES = (20, 160)
"""Bytes a running task of ``simulate_sessions`` takes for each round of a session (its
nets, their running sums and the ruin check, in ``_run_sessions``): ``[wide]``, in
``int64``, or in Python integers where bankrolls may outgrow 64 bits."""

SESSION_BYTES = 64
"""Bytes each finished session's final bankroll takes until the result is made."""

SEED_BYTES = 512
"""Bytes each session's ``SeedSequence`` takes while its task waits or runs."""


def _sessions_bytes(rounds: int, sessions: int, window: int, per_task: int, wide: bool) -> int:
    """The memory ``simulate_sessions`` takes beyond a fixed few megabytes: ``window``
    tasks running (``per_task`` sessions of ``rounds`` rounds each, one at a time), twice
    as many in flight, and every session's final bankroll."""
    tasks = -(-sessions // per_task)
    return (min(window, tasks) * rounds * SESSION_ROUND_BYTES[wide]
            + min(2 * window, tasks) * per_task * SEED_BYTES + sessions * SESSION_BYTES)


def _run_sessions(
    rules: RuleSet, slip: tuple[tuple[str, int], ...], money: npt.NDArray[np.int64], bankroll: int,
    rounds: int, index: int, seeds: list[np.random.SeedSequence], wide: bool,
    stop: npt.NDArray[np.uint8] | None = None,
) -> tuple[int, list[int], int]:
    """Sessions of one task (picklable): (task index, final bankrolls, sessions ruined).
    Only whole sessions count: one cut short by ``stop`` is dropped. ``wide``: the
    running bankroll may outgrow 64 bits, so it is summed in Python integers."""
    names = tuple(name for name, _ in slip)
    plan = plan_for(rules, names)
    money = np.require(money, np.int64, ["C", "A"])  # as sent to a worker it may be a view at any offset
    total = math.ceil(sum(stake for _, stake in slip) * rules.max_multiplier)  # a banker game: the worst loss
    flag = np.zeros(1, dtype=np.uint8) if stop is None else stop
    finals, ruined = [], 0
    net = np.zeros(rounds, dtype=np.int64)
    before = np.empty(0 if wide else rounds, dtype=np.int64)  # the bankroll before each round (int64 sums), made once a task
    below = np.empty(rounds, dtype=np.bool_)  # where it no longer covers the slip
    for seed in seeds:
        if flag[0]:
            break
        pairs, single = _histograms(rules)
        done = _kernels.kernels.simulate_chunk(
            np.random.PCG64(seed), _kernels.lookups(tables_for(rules.ranking)), rules.table_params.array(), rounds, pairs, single,
            plan, money, net, flag,
        )
        if done < rounds:
            break
        # a round is played only while the bankroll (cash and stakes on the table)
        # covers the whole slip: a carried stake is both on the table and in the slip
        if wide:
            steps = net.astype(object)
            held = bankroll + np.concatenate(([0], np.cumsum(steps[:-1])))
            np.less(held, total, out=below)
        else:  # in place: the nets, the bankrolls and the flags are all a task holds (17 bytes a round)
            before[0] = 0
            np.cumsum(net[:-1], out=before[1:])
            before += bankroll
            held = before
            np.less(before, total, out=below)
        first = int(below.argmax())  # the first round the bankroll does not cover, if any
        if below[first]:
            ruined += 1
            finals.append(int(held[first]))
        else:
            finals.append(int(bankroll + (net.astype(object) if wide else net).sum()))
    return index, finals, ruined


def simulate_sessions(
    rules: RuleSet | str,
    bets: Mapping[str, int],
    bankroll: int,
    rounds: int,
    sessions: int,
    *,
    seed: SeedLike = None,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    partial_on_interrupt: bool = False,
) -> SessionResult:
    """Sessions of a player who stakes the same slip (``int`` minor units) every round,
    carried stakes respected, from ``bankroll`` until ``rounds`` rounds are played or the
    bankroll no longer covers the slip (ruin). Session k draws from the k-th spawn of
    ``seed``, so results do not depend on ``workers`` or the executor.

    :param progress: called with (sessions done, sessions) as tasks finish.
    :param partial_on_interrupt: on Ctrl-C return the sessions finished so far
        (``interrupted=True``) instead of raising ``KeyboardInterrupt``.
    :raises MemoryError: the run would need more memory than the machine has available
        (each running worker holds about 17 bytes a round of a session; the message names
        the bytes needed and available; also a ``ValueError``), before any work.

    >>> from sanggong import MACAU
    >>> result = simulate_sessions(MACAU, {"win:1": 100}, bankroll=2_000, rounds=200, sessions=50, seed=3)
    >>> 0 <= result.risk_of_ruin <= 1, len(result.finals)
    (True, 50)
    """
    rules = as_rules(rules)
    sequence, recorded_seed = check_seed(seed)  # its size checked before any work
    checked = check_slip(rules, bets)
    if checked.by_player:
        raise TypeError("bets: session mode stakes one slip every round ({bet: stake}), not bets by player")
    normalised = checked.slip  # an int subclass is an int
    if not normalised:
        raise ValueError("bets: session mode needs a slip of at least one bet")
    slip_int: dict[str, int] = {}
    for name, stake in normalised.items():
        if isinstance(stake, bool) or not isinstance(stake, int):
            raise TypeError(f"stake on {name}: session mode counts money in int minor units, not {stake!r}")
        slip_int[name] = stake
    bets = slip_int
    count("rounds", rounds, MAX_SESSION_ROUNDS)
    count("sessions", sessions, MAX_SESSIONS)
    bankroll = int(count("bankroll", bankroll, MAX_STAKE * MAX_SESSION_ROUNDS))
    check_executor(executor)
    check_progress(progress)
    names = tuple(bets)
    nets = [[0] * 256 for _ in names]  # a column for every outcome code a table can hold
    purse = Purse(int, rules)
    for j, name in enumerate(names):
        spec = rules.bet(name)
        for code in _possible(rules, name):
            nets[j][code] = int(bet_result(rules, purse, spec, Fraction(bets[name]), code).net)
    # each round's net is summed in 64 bits in the core: the largest it can be must fit
    widest = sum(max(abs(x) for x in row) for row in nets)
    if widest >= 2**62:
        raise ValueError(
            f"bets: one round of this slip can win or lose {widest:,} minor units, "
            "beyond what session mode sums exactly in 64 bits (2**62)"
        )
    money = np.array(nets, dtype=np.int64)
    wide = bankroll + widest * rounds >= 2**62  # running bankrolls in Python ints
    window = workers_of(workers)
    per_task = max(1, min(1000, sessions // (4 * window)))
    memory(f"simulate_sessions of {sessions:,} sessions of {rounds:,} rounds on {window:,} workers",
           _sessions_bytes(rounds, sessions, window, per_task, wide), "fewer workers, rounds or sessions")
    slip = tuple((n, int(bets[n])) for n in names)
    stop = np.zeros(1, dtype=np.uint8)

    def seeds(k: int) -> list[np.random.SeedSequence]:
        return [child(sequence, i) for i in range(k * per_task, min(sessions, (k + 1) * per_task))]

    tasks = ((rules, slip, money, bankroll, rounds, k, seeds(k), wide) for k in range(-(-sessions // per_task)))
    results: dict[int, tuple[list[int], int]] = {}
    done = [0]  # sessions finished

    def absorb(item: tuple[int, list[int], int]) -> None:
        results[item[0]] = (item[1], item[2])
        done[0] += len(item[1])
        if progress is not None:
            progress(done[0], sessions)

    if executor is None:
        with ThreadPoolExecutor(max_workers=window, thread_name_prefix="sanggong-sessions") as pool:
            interrupted = execute(((*t, stop) for t in tasks), _run_sessions, pool, 2 * window, absorb, stop)
    else:
        interrupted = execute(tasks, _run_sessions, executor, 2 * window, absorb, None)
    if interrupted and not partial_on_interrupt:
        raise KeyboardInterrupt
    finals = [f for k in sorted(results) for f in results[k][0]]
    ruined = sum(r for _, r in results.values())
    dtype: Any = object if wide else np.int64
    return SessionResult(rules.name, bankroll, rounds, dict(slip), np.array(finals, dtype=dtype), ruined,
                         recorded_seed, interrupted)
