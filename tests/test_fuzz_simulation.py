"""Fuzzing simulation and sessions: any rounds, bets, seeds and workers; totals beyond 64 bits.

The contract, the harness and the budget: ``tests/_fuzzing.py``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from _fuzzing import (
    ALLOWED,
    FAST,
    FUZZ_MODULE,
    REFUSED,
    _exact,
    _is_int,
    _kind_of,
    _no_constant,
    anything,
    call,
    check,
    in_child,
    kernels_swapped,
    slips,
)
from _harness import Violation, fuzz, short
from hypothesis import strategies as st

from sanggong import MACAU, ONLINE, RuleSet, limits
from sanggong.simulation import simulate, simulate_sessions

pytestmark = FUZZ_MODULE


# --- simulation -----------------------------------------------------------------------------------

@st.composite
def simulate_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    rules = draw(st.sampled_from([ONLINE, MACAU, MACAU.replace(decks=1, positions=3), MACAU.replace(decks=64)]))
    rounds = draw(st.one_of(st.integers(1, 40), st.sampled_from([limits.MAX_SIM_ROUNDS + 1, 10**16, 2**63, 2**64, 10**100,
                                                                  0, -1, 1.5, True, "10", None, Decimal(5)])))
    bets = draw(st.one_of(st.none(), slips(rules, sane=True), slips(rules), anything))
    seed = draw(st.one_of(st.integers(0, 2**32), st.none(), st.sampled_from([-1, 2**200, 1.5, "1", True]), anything))
    workers = draw(st.one_of(st.just(1), st.integers(1, 3), st.sampled_from([None, 0, -1, 10**9, 2**63, 1.5, "2"])))
    chunk = draw(st.one_of(st.integers(1, 50), st.sampled_from([1 << 18, 10**30, 2**63, 0, -5, 1.5, None])))
    return rules, rounds, bets, seed, workers, chunk


def check_simulate(rules: RuleSet, rounds: Any, bets: Any, seed: Any, workers: Any, chunk: Any) -> None:
    where = f"simulate({rules.name}, {short(rounds)}, {short(bets)}, seed={short(seed)}, workers={short(workers)}, " \
            f"chunk_size={short(chunk)})"
    start = time.perf_counter()
    result = call(simulate, rules, rounds, bets, seed=seed, workers=workers, chunk_size=chunk)
    seconds = time.perf_counter() - start
    if result is REFUSED:
        check(seconds < FAST, f"{where} took {seconds:.1f} s to refuse", "SlowRefusal")
        return
    check(_is_int(rounds) and 1 <= rounds <= limits.MAX_SIM_ROUNDS, f"{where} accepted rounds", "AcceptedBeyondLimit")
    check(result.rounds == rounds, f"{where}: {result.rounds} rounds")
    slip = bets if bets is not None else {n: Fraction(1) for n in rules.bets}
    for name, stats in result.bets.items():
        check(sum(stats.outcomes.values()) == rounds, f"{where}: {name} outcomes {stats.outcomes}", "CountsDontAddUp")
        kind = _kind_of(slip[name])
        check(type(stats.staked) is kind and _exact(stats.staked) == _exact(slip[name]) * rounds,
              f"{where}: {name} staked {short(stats.staked)}", "WrongMoneyKind")
        check(type(stats.returned) is kind and _exact(stats.returned) >= 0, f"{where}: {name} returned {short(stats.returned)}",
              "WrongMoneyKind")
    if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
        with kernels_swapped():
            again = call(simulate, rules, rounds, bets, seed=seed, workers=1, chunk_size=chunk)
        check(again is not REFUSED and repr(again.bets) == repr(result.bets),
              f"{where}: the other kernels simulate differently", "ImplementationsDiffer")


@fuzz(simulate_cases(), examples=20)
@pytest.mark.kernels
def test_simulate_takes_anything(case: tuple[Any, ...]) -> None:
    in_child(check_simulate, *case)


class Stop(Exception):
    """Raised by a progress callback to stop a simulation once it has started."""


def check_simulation_starts_promptly(rules: RuleSet, rounds: int, chunk: int) -> None:
    def progress(done: int, total: int) -> None:
        raise Stop(done)

    start = time.perf_counter()
    try:
        simulate(rules, rounds, {"win:1": 1}, seed=1, workers=1, executor=None, progress=progress, chunk_size=chunk,
                 compare_exact=False)
    except Stop:
        pass
    except ALLOWED:
        pass
    except BaseException as exc:
        raise Violation(type(exc).__name__, f"simulate(rounds={rounds}, chunk_size={chunk}) raised {type(exc).__name__}: {exc}") from exc
    else:
        raise Violation("Invariant", "the progress callback was never called")
    seconds = time.perf_counter() - start
    check(seconds < FAST, f"simulate(rounds={rounds}, chunk_size={chunk}) took {seconds:.1f} s to start", "SlowStart")


@pytest.mark.parametrize("chunk", [1, 7, 1000])
@pytest.mark.parametrize("rounds", [limits.MAX_SIM_ROUNDS, 10**12])
@pytest.mark.kernels
def test_an_accepted_huge_simulation_starts_promptly(rounds: int, chunk: int) -> None:
    """Work or memory in proportion to the rounds (a seed per chunk spawned up front) is
    not spent before the first chunk: a run within the limits starts at once (or its
    chunk size is refused)."""
    in_child(check_simulation_starts_promptly, ONLINE, rounds, chunk, timeout=10)


@st.composite
def session_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    rules = draw(st.sampled_from([MACAU, ONLINE, MACAU.replace(pays={**MACAU.pays, "win": 1000})]))
    bets = draw(st.one_of(slips(rules, sane=True).map(lambda s: {k: int(_exact(v)) or 1 for k, v in s.items()}),
                          slips(rules), anything))
    bankroll = draw(st.one_of(st.integers(1, 10**6), st.sampled_from([10**15, 2**63 - 1, 2**63, 10**30, 0, -5, 1.5, None])))
    rounds = draw(st.one_of(st.integers(1, 30), st.sampled_from([limits.MAX_SESSION_ROUNDS + 1, 10**30, 0, 1.5])))
    sessions = draw(st.one_of(st.integers(1, 4), st.sampled_from([limits.MAX_SESSIONS + 1, 10**30, 0, True])))
    seed = draw(st.one_of(st.integers(0, 1000), st.none(), anything))
    return rules, bets, bankroll, rounds, sessions, seed


def _session_bounds(rules: RuleSet, bets: Mapping[str, int], bankroll: int, rounds: int) -> tuple[int, int]:
    total = sum(bets.values())
    best = 0
    for name, stake in bets.items():
        kind = rules.bet(name).kind
        odds = [*rules.pays.values(), *rules.pair_plus_pays.values()] if kind != "pair_plus" else list(rules.pair_plus_pays.values())
        best += stake * int(max(odds, default=Fraction(0)) + 1)
    return bankroll - rounds * total, bankroll + rounds * best


def check_sessions(rules: RuleSet, bets: Any, bankroll: Any, rounds: Any, sessions: Any, seed: Any) -> None:
    where = f"simulate_sessions({rules.name}, {short(bets)}, {short(bankroll)}, {short(rounds)}, {short(sessions)}, {short(seed)})"
    start = time.perf_counter()
    result = call(simulate_sessions, rules, bets, bankroll, rounds, sessions, seed=seed, workers=1)
    seconds = time.perf_counter() - start
    if result is REFUSED:
        check(seconds < FAST, f"{where} took {seconds:.1f} s to refuse", "SlowRefusal")
        return
    check(_is_int(rounds) and 1 <= rounds <= limits.MAX_SESSION_ROUNDS and _is_int(sessions)
          and 1 <= sessions <= limits.MAX_SESSIONS, f"{where} accepted", "AcceptedBeyondLimit")
    finals = [int(f) for f in result.finals]
    check(len(finals) == sessions and 0 <= result.ruined <= sessions, f"{where}: {len(finals)} finals, {result.ruined} ruined")
    lo, hi = _session_bounds(rules, bets, bankroll, rounds)
    for f in finals:
        check(lo <= f <= hi, f"{where}: a final bankroll of {f} outside [{lo}, {hi}] (wrapped at 64 bits?)", "Wrapped")
    data = result.to_dict()
    json.loads(json.dumps(data), parse_constant=_no_constant)
    if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
        with kernels_swapped():
            again = call(simulate_sessions, rules, bets, bankroll, rounds, sessions, seed=seed, workers=1)
        check(again is not REFUSED and [int(f) for f in again.finals] == finals and again.ruined == result.ruined,
              f"{where}: the other kernels give {short(again)}", "ImplementationsDiffer")


@fuzz(session_cases(), examples=20)
@pytest.mark.kernels
def test_simulate_sessions_takes_anything(case: tuple[Any, ...]) -> None:
    in_child(check_sessions, *case)


@pytest.mark.parametrize(
    ("rules", "bets", "bankroll", "rounds"),
    [
        # a big favourite (Win pays 1000:1) at the largest stake: the totals pass 2**63 within 20 rounds
        (MACAU.replace(pays={**MACAU.pays, "win": 1000}), {"win:1": limits.MAX_STAKE}, limits.MAX_STAKE, 200),
        (MACAU.replace(pays={**MACAU.pays, "win": 1000}), {f"win:{p}": limits.MAX_STAKE for p in range(1, 8)},
         7 * limits.MAX_STAKE, 50),
        # the largest odds at the largest stake: one round's net is beyond 64 bits
        (MACAU.replace(pays={**MACAU.pays, "win": limits.MAX_ODDS}), {"win:1": limits.MAX_STAKE}, limits.MAX_STAKE, 20),
        # a bankroll beyond 64 bits
        (MACAU, {"win:1": 100}, 10**30, 20),
        (MACAU, {"point:0": limits.MAX_STAKE}, 2**63 - 1, 100),
    ],
    ids=["favourite", "seven-positions", "max-odds", "huge-bankroll", "long-loser"],
)
@pytest.mark.kernels
def test_session_totals_do_not_wrap(rules: RuleSet, bets: dict[str, int], bankroll: int, rounds: int) -> None:
    in_child(check_sessions, rules, bets, bankroll, rounds, 3, 7)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rounds": limits.MAX_SESSION_ROUNDS + 1},
        {"rounds": 10**30},
        {"sessions": limits.MAX_SESSIONS + 1},
        {"sessions": 10**30},
        {"bets": {"win:1": limits.MAX_STAKE + 1}},
        {"bets": {"win:1": 10**100}},
    ],
    ids=["rounds", "rounds-huge", "sessions", "sessions-huge", "stake", "stake-huge"],
)
def test_sessions_beyond_the_limits_are_refused_fast(kwargs: dict[str, Any]) -> None:
    args = {"rules": MACAU, "bets": {"win:1": 100}, "bankroll": 10_000, "rounds": 10, "sessions": 2, "seed": 1} | kwargs

    def run() -> None:
        start = time.perf_counter()
        result = call(simulate_sessions, **args)
        check(result is REFUSED, f"simulate_sessions({kwargs}) was accepted", "AcceptedBeyondLimit")
        check(time.perf_counter() - start < FAST, f"simulate_sessions({kwargs}) took {time.perf_counter() - start:.1f} s",
              "SlowRefusal")

    in_child(run, timeout=10)


@pytest.mark.parametrize("rounds", [limits.MAX_SIM_ROUNDS + 1, 10**16, 2**63, 2**64, 10**100, 10**5000],
                         ids=["max+1", "1e16", "2**63", "2**64", "1e100", "1e5000"])
def test_simulations_beyond_the_limits_are_refused_fast(rounds: int) -> None:
    def run() -> None:
        start = time.perf_counter()
        result = call(simulate, ONLINE, rounds, {"win:1": 1}, seed=1, workers=1)
        check(result is REFUSED, f"simulate(rounds={short(rounds)}) was accepted", "AcceptedBeyondLimit")
        check(time.perf_counter() - start < FAST, "slow", "SlowRefusal")

    in_child(run, timeout=10)
