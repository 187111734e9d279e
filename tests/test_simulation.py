"""Monte Carlo: the compiled round loop against the reference and against Game, exact
agreement, reproducibility over workers and executors (Dask included), money, sessions,
interruption."""

from __future__ import annotations

import json
import pickle
import signal
import subprocess
import threading
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sanggong import MACAU, ONLINE, Game, HandValue, RuleSet, _core
from sanggong._kernels import twin as _pykernels
from sanggong._table import table_params
from sanggong.ranking import tables_for
from sanggong.rules import PRESETS
from sanggong.settlement import plan_for, result_of
from sanggong.simulation import _histograms, _run_chunk, bet_counts, simulate, simulate_sessions

RULE_SETS = [ONLINE, MACAU, MACAU.replace(decks=1, positions=5, deal_one_at_a_time=False),
             ONLINE.replace(head_card_burned=False), ONLINE.replace(decks=2),
             PRESETS["prosperity"].replace(decks=2, positions=3), PRESETS["nagaworld"], PRESETS["san_gong"],
             PRESETS["chinese"], PRESETS["san_gong"].replace(decks=2),
             # a head card naming hand 3 at a table of fewer hands: the count wraps more than once
             PRESETS["san_gong"].replace(head_card=True, head_card_burned=False),
             MACAU.replace(decks=1, positions=2, head_card=True)]
IDS = ["online", "macau", "macau-one-deck-three-at-a-time", "online-head-card-dealt", "online-two-decks",
       "prosperity-two-decks", "nagaworld", "san_gong", "chinese", "san_gong-two-decks",
       "san_gong-head-card", "macau-two-positions-head-card"]


def _tables(module: object, rules: RuleSet) -> object:
    """The kernels' tables of ``module`` (compiled or reference) for the rules' ranking."""
    return module.Lookups(tables_for(rules.ranking))  # type: ignore[attr-defined]


def _count_round(rules: RuleSet, pairs: np.ndarray, single: np.ndarray, banker: HandValue,
                 hands: dict[int, HandValue]) -> None:
    """Add one round to histograms laid out as the round loop lays them (see
    ``_core.simulate_chunk``), from the hands' classes and ranks."""
    tables = tables_for(rules.ranking)
    n = tables.n_classes
    width = 1 if tables.ordered_by_class else 3
    for h, value in {0: banker, **hands}.items():
        single[h, 6 * value.hand_class + int(value.pair_plus)] += 1
        if h:
            order = (value.rank > banker.rank) - (value.rank < banker.rank)
            pairs[h, (value.hand_class * n + banker.hand_class) * width + (order + 1 if width == 3 else 0)] += 1


def _rounds(impl: object, fast: int, slow: int) -> int:
    return fast if impl is _core else slow


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_compiled_and_reference_rounds_agree(rules: RuleSet) -> None:
    """The compiled loop and its plain twin, from the same bit generator state."""
    names = tuple(rules.bets)
    plan = plan_for(rules, names)
    stake = dict.fromkeys(names, 100)
    money = np.zeros((len(names), 256), dtype=np.int64)
    from sanggong.money import Purse as _Purse
    from sanggong.settlement import bet_result as _result
    from sanggong.simulation import _possible

    for j, n in enumerate(names):
        for code in _possible(rules, n):
            money[j, code] = int(_result(rules, _Purse(int, rules), rules.bet(n), Fraction(stake[n]), code).net)
    results = []
    for module in (_core, _pykernels):
        pairs, single = _histograms(rules)
        net = np.zeros(1500, np.int64)
        done = module.simulate_chunk(np.random.PCG64(5), _tables(module, rules), table_params(rules).array(), 1500, pairs,
                                     single, plan, money, net, np.zeros(1, np.uint8))
        results.append((done, pairs.tolist(), single.tolist(), net.tolist()))
    assert results[0] == results[1]
    assert int(np.asarray(results[0][2]).sum()) == 1500 * rules.hands


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
@pytest.mark.kernels
def test_simulated_rounds_are_the_games_rounds(impl: object, rules: RuleSet) -> None:
    n = _rounds(impl, 3000, 400)
    pairs, single = _histograms(rules)
    impl.simulate_chunk(np.random.PCG64(9), _tables(impl, rules), table_params(rules).array(), n, pairs, single,  # type: ignore[attr-defined]
                        None, None, None, np.zeros(1, np.uint8))
    game = Game(rules, rng=np.random.PCG64(9))
    want_pairs, want_single = _histograms(rules)
    for _ in range(n):
        record = game.play()
        _count_round(rules, want_pairs, want_single, record.banker, dict(record.hands))
    assert (pairs == want_pairs).all() and (single == want_single).all()


@pytest.mark.parametrize("rules", [ONLINE, PRESETS["nagaworld"], PRESETS["san_gong"], PRESETS["chinese"],
                                   PRESETS["prosperity"]], ids=lambda r: r.name)
@pytest.mark.kernels
def test_histograms_settle_as_settle_does(impl: object, rules: RuleSet) -> None:
    """bet_counts over the histograms against settle() called round by round."""
    names = tuple(rules.bets)
    game = Game(rules, rng=np.random.PCG64(3))
    pairs, single = _histograms(rules)
    want = {n: {} for n in names}  # type: ignore[var-annotated]
    for _ in range(300):
        record = game.play(dict.fromkeys(names, 1))
        _count_round(rules, pairs, single, record.banker, dict(record.hands))
        for r in record.results:
            key = (r["outcome"], r["detail"])
            want[r["bet"]][key] = want[r["bet"]].get(key, 0) + 1
    counts = bet_counts(plan_for(rules, names), pairs, single)
    for j, n in enumerate(names):
        got: dict[tuple[str, str | None], int] = {}
        for code, c in enumerate(counts[j].tolist()):
            if c:
                got[result_of(rules, code)] = got.get(result_of(rules, code), 0) + c
        assert got == want[n], n


@pytest.mark.kernels
def test_returns_agree_with_the_exact_values(impl: object) -> None:
    """Every preset (every ranking and table shape): simulated returns within 4 standard
    errors of the exact analysis."""
    for rules in PRESETS.values():
        result = simulate(rules, _rounds(impl, 1_000_000, 3000), seed=2026, workers=2)
        assert result.rounds == _rounds(impl, 1_000_000, 3000)
        for bet in result.bets.values():
            assert bet.exact is not None and bet.z is not None
            assert abs(bet.z) < 4, (rules.name, bet.bet, bet.z)
            assert bet.ci95[0] < bet.rtp < bet.ci95[1]
        assert sum(result.classes) == result.rounds * rules.hands


@pytest.mark.slow
def test_ten_million_rounds_within_four_standard_errors() -> None:
    """The issue's check at full size: 10 million rounds of each preset."""
    for rules in (ONLINE, MACAU):
        result = simulate(rules, 10_000_000, seed=1)
        assert all(abs(b.z) < 4 for b in result.bets.values() if b.z is not None)


@pytest.mark.kernels
def test_same_seed_same_result_whatever_the_workers(impl: object) -> None:
    n = _rounds(impl, 300_000, 2000)
    chunk = _rounds(impl, 40_000, 300)
    runs = [simulate(ONLINE, n, seed=11, workers=w, chunk_size=chunk) for w in (1, 2, 4)]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0].seed == 11 and runs[0].versions["numpy"] == np.__version__
    assert simulate(ONLINE, n, seed=12, workers=2, chunk_size=chunk) != runs[0]
    unseeded = simulate(ONLINE, 100, workers=1)
    assert isinstance(unseeded.seed, int) and simulate(ONLINE, 100, seed=unseeded.seed, workers=1) == unseeded


@pytest.mark.kernels
def test_money_is_the_games_money(impl: object) -> None:
    """int stakes, rounded as a table rounds them: the same total as Game settling each round."""
    slip = {"win:1": 101, "lose:2": 55, "pair_plus:banker": 7, "tie:3": 3}
    n = _rounds(impl, 2000, 300)
    result = simulate(ONLINE, n, bets=slip, seed=21, workers=1, chunk_size=10_000)
    child = np.random.SeedSequence(21).spawn(1)[0]
    game = Game(ONLINE, rng=np.random.PCG64(child))
    returned = dict.fromkeys(slip, 0)
    for _ in range(n):
        for r in game.play(slip).results:
            returned[r["bet"]] += r["returned"]
    for name, stake in slip.items():
        bet = result.bets[name]
        assert bet.returned == returned[name] and bet.staked == stake * n
        assert isinstance(bet.returned, int)


@pytest.mark.kernels
def test_everything_that_crosses_to_a_worker_pickles() -> None:
    plan = plan_for(MACAU, ("win:1", "odd"))
    again = pickle.loads(pickle.dumps(plan))
    assert again.outcome_codes == plan.outcome_codes and again.specs == plan.specs
    assert pickle.loads(pickle.dumps(MACAU)) == MACAU
    seed = np.random.SeedSequence(3).spawn(2)[1]
    chunk = _run_chunk(ONLINE, ("win:1",), 0, seed, 100)
    back = pickle.loads(pickle.dumps(chunk))
    assert back.rounds == 100 and (back.counts == chunk.counts).all()
    assert pickle.loads(pickle.dumps(_run_chunk)) is _run_chunk


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning", "ignore::UserWarning")
def test_a_dask_cluster_gives_the_local_result() -> None:
    """A real LocalCluster with two worker processes (workers import the compiled core)."""
    distributed = pytest.importorskip("distributed", reason="the test extra installs dask[distributed]")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            executor = client.get_executor()
            remote = simulate(MACAU, 400_000, seed=5, executor=executor, chunk_size=50_000)
            sessions = simulate_sessions(MACAU, {"win:1": 100}, 3000, 100, 40, seed=5, executor=executor)
    assert remote == simulate(MACAU, 400_000, seed=5, workers=2, chunk_size=50_000)
    assert sessions == simulate_sessions(MACAU, {"win:1": 100}, 3000, 100, 40, seed=5, workers=1)


@pytest.mark.kernels
def test_progress_and_interruption(impl: object) -> None:
    seen: list[tuple[int, int]] = []
    n = _rounds(impl, 200_000, 1000)
    simulate(ONLINE, n, seed=1, workers=2, chunk_size=n // 5, progress=lambda d, t: seen.append((d, t)))
    assert [t for _, t in seen] == [n] * 5 and sorted(d for d, _ in seen) == [d for d, _ in seen]
    assert seen[-1][0] == n

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    before = threading.active_count()
    with pytest.raises(KeyboardInterrupt):
        simulate(ONLINE, n * 10, seed=1, workers=2, chunk_size=n // 5, progress=interrupt)
    time.sleep(0.2)
    assert threading.active_count() <= before  # the workers were cleaned up
    partial = simulate(ONLINE, n * 10, seed=1, workers=2, chunk_size=n // 5, progress=interrupt,
                       partial_on_interrupt=True)
    assert partial.interrupted and 0 < partial.rounds < n * 10


@pytest.mark.kernels
def test_sessions() -> None:
    a = simulate_sessions(MACAU, {"win:1": 100, "tie:1": 10}, 2000, 150, 60, seed=4, workers=1)
    b = simulate_sessions(MACAU, {"win:1": 100, "tie:1": 10}, 2000, 150, 60, seed=4, workers=2)
    assert a == b and (a.finals == b.finals).all() and a.sessions == 60 and 0 <= a.risk_of_ruin <= 1
    broke = simulate_sessions(ONLINE, {"win:1": 500}, 400, 10, 5, seed=1)
    assert broke.risk_of_ruin == 1 and (broke.finals == 400).all()  # the slip is more than the bankroll
    data = a.to_dict()
    assert set(data["quantiles"]) == {"5%", "25%", "50%", "75%", "95%"}


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: simulate(ONLINE, 0), ValueError, "rounds must be in 1..1,000,000,000,000,000, got 0"),
        (lambda: simulate(ONLINE, 10, {"odd": 1}), ValueError, "unknown bet 'odd'"),
        (lambda: simulate(ONLINE, 10, {"win:1": 1.0}), TypeError, "never a float"),
        (lambda: simulate(ONLINE, 10, workers=0), ValueError, "workers must be a positive int"),
        (lambda: simulate(ONLINE, 10, chunk_size=0), ValueError, "chunk_size"),
        (lambda: simulate(3, 10), TypeError, "RuleSet"),  # type: ignore[arg-type]
        (lambda: simulate_sessions(ONLINE, {"win:1": Fraction(1)}, 10, 10, 10), TypeError, "int minor units"),
        (lambda: simulate_sessions(ONLINE, {"win:1": 1}, 0, 10, 10), ValueError, "bankroll"),
    ],
)
def test_bad_simulations(call: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        call()  # type: ignore[operator]


# --- the command line -----------------------------------------------------------------------


@pytest.mark.kernels
def test_simulate_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    from sanggong.cli import main

    assert main(["simulate", "--rules", "online", "--rounds", "20000", "--seed", "3", "--workers", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = simulate(ONLINE, 20000, seed=3, workers=1)
    assert data["rounds"] == 20000 and data["seed"] == 3
    assert [b["rtp"] for b in data["bets"]] == [b.rtp for b in expected.bets.values()]


def test_simulate_text_plot_and_sessions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Command-line wiring and matplotlib output (the kernels are tested above)."""
    from sanggong.cli import main

    plot = tmp_path / "convergence.png"
    assert main(["simulate", "--rules", "macau", "--rounds", "300000", "--seed", "1", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "95% interval" in out and "win:7" in out and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    hist = tmp_path / "sessions.png"
    argv = ["simulate", "--sessions", "50", "--session-rounds", "100", "--bankroll", "2000",
            "--bet", "win:1=100", "--seed", "2", "--plot", str(hist)]
    assert main(argv) == 0
    assert "risk of ruin" in capsys.readouterr().out and hist.stat().st_size > 1000
    assert main(["simulate", "--sessions", "5", "--bet", "win:1=100"]) == 2
    assert "--bankroll" in capsys.readouterr().err


def test_ctrl_c_stops_within_a_second_and_prints_the_partial_result() -> None:
    """A real SIGINT to the installed command line."""
    proc = subprocess.Popen(
        ["sanggong", "simulate", "--rules", "online", "--rounds", "100000000000", "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    time.sleep(2.0)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=10)
    assert time.monotonic() - start < 1.5
    assert proc.returncode == 130
    assert "INTERRUPTED" in out and "win:1" in out


# --- hardening: sizes refused before any work, totals that never wrap -------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: simulate(ONLINE, 10**40), "rounds must be in 1..1,000,000,000,000,000"),
        (lambda: simulate(ONLINE, 10**10000), "rounds must be in .* got a 33220-bit number"),
        (lambda: simulate(ONLINE, 10, chunk_size=10**20), "chunk_size"),
        (lambda: simulate_sessions(ONLINE, {"win:1": 1}, 100, 10**12, 10), "rounds must be in 1..10,000,000"),
        (lambda: simulate_sessions(ONLINE, {"win:1": 1}, 100, 10, 10**12), "sessions must be in 1..10,000,000"),
        (lambda: simulate_sessions(ONLINE, {"win:1": 1}, 10**40, 10, 10), "bankroll must be in"),
        (lambda: simulate_sessions(ONLINE, {}, 100, 10, 10), "at least one bet"),
    ],
)
def test_absurd_sizes_are_refused_at_once(call: object, match: str) -> None:
    start = time.monotonic()
    with pytest.raises(ValueError, match=match):
        call()  # type: ignore[operator]
    assert time.monotonic() - start < 2


def test_chunk_seeds_are_the_spawned_children() -> None:
    from sanggong.seeds import child as _child

    parent = np.random.SeedSequence(77)
    children = np.random.SeedSequence(77).spawn(5)
    for k, child in enumerate(children):
        assert (_child(parent, k).generate_state(8) == child.generate_state(8)).all()


@pytest.mark.kernels
def test_session_bankrolls_beyond_64_bits_stay_exact() -> None:
    """The largest stakes from a bankroll above 2**63: every final is recomputed here in
    Python integers by playing the same rounds through ``Game`` (session k deals from
    the k-th spawn of the seed, as a Game on that bit generator does)."""
    from sanggong import Game
    from sanggong.limits import MAX_STAKE

    slip = {"win:1": MAX_STAKE, "pair_plus:1": MAX_STAKE, "lose:2": MAX_STAKE - 1}
    bankroll = 2**63 + 12_345
    result = simulate_sessions(ONLINE, slip, bankroll, 40, 3, seed=9, workers=1)
    assert result.finals.dtype == object and result.ruined == 0
    for k, final in enumerate(result.finals):
        game = Game(ONLINE, rng=np.random.PCG64(np.random.SeedSequence(9).spawn(3)[k]))
        money = bankroll
        for _ in range(40):
            record = game.play(slip)
            money += sum(int(r["returned"]) for r in record.results) - sum(slip.values())
        assert final == money
    assert json.loads(json.dumps(result.to_dict(), allow_nan=False))["quantiles"]["50%"] == sorted(result.finals)[1]


def test_ctrl_c_stops_session_mode_within_a_second() -> None:
    """The stop flag reaches the sessions' round loops: an interrupted session run
    returns the whole sessions it finished."""
    from sanggong.simulation import _run_sessions

    stop = np.ones(1, dtype=np.uint8)
    money = np.zeros((1, 256), dtype=np.int64)
    seeds = np.random.SeedSequence(1).spawn(3)
    assert _run_sessions(ONLINE, (("win:1", 1),), money, 100, 1000, 0, seeds, False, stop) == (0, [], 0)


@pytest.mark.kernels
def test_misaligned_money_is_refused_by_the_core_and_realigned_by_sessions() -> None:
    """Found by the sanitizer run: a slip's money table sent to a Dask worker arrived as a
    view at an odd offset, read through an int64 pointer."""
    from sanggong import _core
    from sanggong.simulation import _histograms, _run_sessions, plan_for

    money = np.zeros((1, 256), dtype=np.int64)
    money[0, :2] = (-100, 100)
    raw = np.zeros(money.nbytes + 1, dtype=np.uint8)
    raw[1:] = money.view(np.uint8).reshape(-1)
    skewed = raw[1:].view(np.int64).reshape(1, 256)
    assert not skewed.flags.aligned
    pairs, single = _histograms(ONLINE)
    with pytest.raises(ValueError, match="money is not aligned to 8 bytes"):
        _core.simulate_chunk(np.random.PCG64(1), _tables(_core, ONLINE), table_params(ONLINE).array(), 10, pairs, single,
                             plan_for(ONLINE, ("win:1",)),
                             skewed, np.zeros(10, np.int64), np.zeros(1, np.uint8))
    seeds = np.random.SeedSequence(3).spawn(2)
    args = (ONLINE, (("win:1", 100),), skewed, 10_000, 50, 0, seeds, False)
    assert _run_sessions(*args) == _run_sessions(ONLINE, (("win:1", 100),), money, 10_000, 50, 0, seeds, False)


def test_statistics_of_no_rounds_are_null_in_json() -> None:
    """An interrupted run may have no round at all: its return is undefined (NaN), and the
    JSON says null rather than printing NaN, which is not JSON."""
    from sanggong.simulation import BetStats

    stats = BetStats("win:1", 0, 1, 0, 0, {}, float("nan"), float("nan"), (float("nan"),) * 2, 0.97, float("inf"))
    data = json.loads(json.dumps(stats.to_dict(), allow_nan=False))
    assert data["rtp"] is None and data["z"] is None and data["ci95"] == [None, None] and data["exact"] == 0.97


def test_a_deck_larger_than_the_draw_tables_is_refused_by_both_kernels() -> None:
    """More than 64 decks once read past the core's group table (a segfault in deal)."""
    from sanggong import _core
    from sanggong._kernels import twin as _pykernels

    for kernels in (_core, _pykernels):
        with pytest.raises(ValueError, match="at most 3328 cards"):
            kernels.draw(np.random.PCG64(1), np.zeros(52 * 65, np.uint8), 0, 5, np.zeros(5, np.uint8))


def test_ctrl_c_stops_session_mode_within_a_second_with_the_sessions_finished() -> None:
    """A real SIGINT to the installed command line in session mode (it once took most of
    a minute: the sessions never looked at the stop flag)."""
    proc = subprocess.Popen(
        ["sanggong", "simulate", "--rules", "online", "--sessions", "10000000", "--session-rounds", "10000",
         "--bankroll", "100000000", "--bet", "win:1=100", "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    time.sleep(2.5)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.monotonic() - start < 1.5, err
    assert proc.returncode == 130
    assert "INTERRUPTED" in out and "risk of ruin" in out
