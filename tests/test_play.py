"""Playing shoes: the core against the reference, against Game and the shoe evaluator
played by hand, against the fresh-shoe EVs, and reproducible for any workers."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from cli_run import fails, run

from sanggong import MACAU, ONLINE, PRESETS, analyze, settle
from sanggong._spec import RANK_SYMBOLS
from sanggong.analysis import effect_of_removal
from sanggong.dealing import Game
from sanggong.rules import RuleSet
from sanggong.seeds import child as _child
from sanggong.shoe import CountPlay, PerfectPlay, ShoeEvaluator, design, play_shoes
from sanggong.shoe._play import _run_play_chunk, _Setup
from sanggong.simulation import _run_chunk

SMALL = MACAU.replace(decks=2, name="macau_2")  # a shoe of 104 cards: three or four rounds
FEW = ("win:1", "tie:3", "odd", "even", "three_faces", "point:0", "point:6")


def _setup(rules: RuleSet, bets: tuple[str, ...], perfect: bool, burned_seen: bool = False) -> _Setup:
    tags = np.array([[1, 2, 2, 2, 2, 1, 0, -1, -2, -2, -1, -1, -3],
                     [0, 1, -1, 1, -1, 1, -1, 1, -1, 1, 0, 0, -1]], dtype=np.int32)
    return _Setup(rules, bets, perfect, tags, np.arange(len(bets), dtype=np.int32) % 2, 0.5, 9, 20, burned_seen)


@pytest.mark.parametrize("rules, bets, perfect, burned_seen", [
    (SMALL, FEW, True, False),
    (SMALL, FEW, False, True),
    (SMALL.replace(deal_one_at_a_time=False, burn_after_shuffle=3, burn_per_round=2), ("win:2", "point:1"), True, True),
    (PRESETS["prosperity"].replace(decks=2), ("win:1", "tie:1"), True, False),
    (MACAU.replace(decks=4, positions=16, cut_card_range=(60, 70)), ("win:16", "tie:9", "odd"), False, False),
    (ONLINE, ("win:1", "lose:2", "tie:3", "three_faces:1", "pair_plus:banker"), True, False),
    (PRESETS["chinese"], ("player:1", "player:4"), True, False),
    (SMALL.replace(ranking=PRESETS["san_gong"].ranking), ("win:1", "tie:2", "odd"), True, False),
])
def test_the_core_equals_the_reference(rules: RuleSet, bets: tuple[str, ...], perfect: bool, burned_seen: bool) -> None:
    """Installs each implementation itself, in turn: the one the suite installs plays no
    part, so it runs once."""
    import sanggong._core as core
    import sanggong._kernels as impl
    from sanggong._kernels import twin as ref

    setup = _setup(rules, bets, perfect, burned_seen)
    seed = np.random.SeedSequence(2024)
    chosen = impl.kernels
    try:
        impl.kernels = core
        fast = _run_play_chunk(setup, 0, seed, 3)
        impl.kernels = ref
        slow = _run_play_chunk(setup, 0, seed, 3)
    finally:
        impl.kernels = chosen
    assert (fast.rounds, fast.shoes) == (slow.rounds, slow.shoes) and fast.shoes == 3
    assert (fast.count_hist == slow.count_hist).all()
    assert (fast.perfect_hist == slow.perfect_hist).all()
    np.testing.assert_allclose(fast.ev_bins, slow.ev_bins, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fast.moments, slow.moments, rtol=1e-9, atol=1e-12)
    assert fast.count_hist.sum() == fast.rounds * len(bets)


@pytest.mark.kernels
def test_the_cards_are_simulates(impl: object) -> None:
    """A chunk's rounds are simulate_chunk's rounds for the same seed (and so Game's):
    betting every round gives the same outcome counts."""
    bets = tuple(MACAU.bets)
    setup = _setup(MACAU, bets, False)
    setup = _Setup(MACAU, bets, False, setup.tags, np.zeros(len(bets), dtype=np.int32), 0.5, 9, 20, False)
    played = _run_play_chunk(setup, 0, np.random.SeedSequence(9), 4)
    simulated = _run_chunk(MACAU, bets, 0, np.random.SeedSequence(9), played.rounds)
    from sanggong.shoe._play import _outcome_columns

    _, codes = _outcome_columns(MACAU, bets)
    by_outcome = played.count_hist.sum(axis=0)  # (bets, columns)
    for j in range(len(bets)):
        expected = [int(simulated.counts[j, c]) for c in codes[j]]
        assert [int(x) for x in by_outcome[j, : len(codes[j])]] == expected
        assert int(simulated.counts[j].sum()) == played.rounds


@pytest.mark.kernels
def test_perfect_play_by_hand(impl: object) -> None:
    """Chunk 0 is Game(rules, seed=<child 0>): deal its shoes with Game, evaluate each
    round's unseen cards with ShoeEvaluator, bet the positive bets, settle with settle."""
    rules, bets = MACAU, ("tie:1", "odd", "even", "point:0", "point:6")
    result = play_shoes(rules, 2, "perfect", seed=77, workers=1, bets=bets)
    game = Game(rules, seed=_child(np.random.SeedSequence(77), 0))
    shoe = ShoeEvaluator(rules, bets=bets)
    bet_rounds = dict.fromkeys(bets, 0)
    net = {b: Fraction(0) for b in bets}
    ev_sum = {b: Fraction(0) for b in bets}
    shoes = rounds = 0
    while shoes < 2:
        evs = shoe.evs()
        record = game.play({})
        rounds += 1
        hands = {p: [str(c) for c in h.cards] for p, h in record.hands.items()}
        banker = [str(c) for c in record.banker.cards]
        for b in bets:
            if evs[b] > 0:
                slip = {"win:1": Fraction(1), b: Fraction(1)} if b.startswith("tie") else {b: Fraction(1)}
                r = settle(rules, banker, hands, slip)[b]
                bet_rounds[b] += 1
                net[b] += Fraction(r.returned) + Fraction(r.carried) - 1
                ev_sum[b] += evs[b]
        shoe.remove(" ".join(banker + [c for h in hands.values() for c in h]))
        if record.last_of_shoe:
            shoes += 1
            shoe = ShoeEvaluator(rules, bets=bets)
    assert result.rounds == rounds
    for b in bets:
        p = result[b].perfect
        assert p is not None and p.rounds_bet == bet_rounds[b], b
        assert p.gain_per_100 == pytest.approx(100 * float(net[b]) / rounds, abs=1e-12)
        assert p.expected_gain_per_100 == pytest.approx(100 * float(ev_sum[b]) / rounds, rel=1e-9, abs=1e-12)
    assert any(bet_rounds.values())  # the test saw a bet turn positive


def test_betting_every_round_reproduces_the_fresh_edge() -> None:
    """Rounds dealt from a shoe have the fresh shoe's EV on average (the hands of any
    round are a uniformly random deal): within 4 standard errors for every bet."""
    result = play_shoes(MACAU, 20_000, "count", seed=3)
    table = analyze(MACAU)
    for bet, played in result.bets.items():
        always = played.always
        assert always.frequency == 1.0
        z = (always.gain_per_100 - 100 * float(table[bet].ev_exact)) / always.gain_per_100_se
        assert abs(z) < 4, (bet, z)


def test_the_exact_evs_of_every_round_average_to_the_fresh_ev() -> None:
    result = play_shoes(MACAU, 300, "perfect", seed=4, bets=["point:0", "win:1", "tie:1"])
    for bet, played in result.bets.items():
        mean = played.always.expected_gain_per_100 / 100
        sd = played.always.sd
        assert abs(mean - float(played.ev)) < 4 * sd / math.sqrt(result.rounds) / 10, bet  # EVs vary far less than results
        assert played.perfect is not None and played.perfect.expected_gain_per_100 >= 0


@pytest.mark.kernels
def test_workers_do_not_change_the_result(impl: object) -> None:
    one = play_shoes(SMALL, 9, ["perfect", "count"], seed=5, workers=1, bets=FEW, chunk_size=2)
    two = play_shoes(SMALL, 9, ["perfect", "count"], seed=5, workers=2, bets=FEW, chunk_size=2)
    assert one == two and one.shoes == 9


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning", "ignore::UserWarning")
def test_a_dask_cluster_gives_the_local_result() -> None:
    distributed = pytest.importorskip("distributed", reason="the test extra installs dask[distributed]")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            remote = play_shoes(MACAU, 300, ["perfect", "count"], seed=6, executor=client.get_executor(),
                                chunk_size=50, bets=["point:0", "tie:2", "win:3"])
    local = play_shoes(MACAU, 300, ["perfect", "count"], seed=6, workers=2, chunk_size=50,
                       bets=["point:0", "tie:2", "win:3"])
    assert remote == local


@pytest.mark.kernels
def test_default_tags_are_balanced_and_follow_the_effect_of_removal(impl: object) -> None:
    result = play_shoes(SMALL, 2, "count", seed=1, bets=["point:0", "tie:1", "odd"])
    removal = effect_of_removal(SMALL, ["point:0", "tie:1", "odd"])
    for bet, played in result.bets.items():
        assert played.count is not None
        tags = played.count.tags
        assert sum(4 * tags[r] for r in RANK_SYMBOLS) == 0  # a full deck counts to 0
        assert tags == dict(removal[bet].tags)


@pytest.mark.kernels
def test_thresholds_spreads_and_given_tags(impl: object) -> None:
    tags = {"A": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 0, "8": 0, "9": 0, "T": -1, "J": -1, "Q": -2, "K": -2}
    base = play_shoes(SMALL, 40, CountPlay(tags=tags, threshold=-100), seed=8, bets=["point:0"])
    assert base["point:0"].count.frequency == 1.0
    assert base["point:0"].count.gain_per_100 == base["point:0"].always.gain_per_100
    high = play_shoes(SMALL, 40, CountPlay(tags=tags, threshold=1.5), seed=8, bets=["point:0"])
    bins = high["point:0"].count.bins
    bet_rounds = sum(row.rounds for row in bins if row.low is not None and row.low >= 1.5)
    assert high["point:0"].count.rounds_bet == bet_rounds
    spread = play_shoes(SMALL, 40, CountPlay(tags=tags, spread={0: 1, 2: 4}), seed=8, bets=["point:0"])
    c = spread["point:0"].count
    expected_units = sum(row.rounds * (4 if row.low is not None and row.low >= 2 else 1)
                         for row in c.bins if row.low is not None and row.low >= 0)
    assert c.units_bet == expected_units and c.threshold == 0


def test_bad_input() -> None:
    with pytest.raises(TypeError):
        play_shoes(3, 1, "perfect")  # type: ignore[arg-type]
    for shoes in (0, -1, 10**13, 2.5, True):
        with pytest.raises((TypeError, ValueError)):
            play_shoes(SMALL, shoes, "perfect")  # type: ignore[arg-type]
    for strategy in ("magic", [], ["perfect", "perfect"], 3, [PerfectPlay(), "count", "nope"]):
        with pytest.raises((TypeError, ValueError)):
            play_shoes(SMALL, 1, strategy)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lose:1"):
        play_shoes(SMALL, 1, "perfect", bets=["lose:1"])
    with pytest.raises(TypeError):
        play_shoes(SMALL, 1, "perfect", bets="odd")
    with pytest.raises(ValueError, match="'Z'"):  # neither a rank nor a bet
        play_shoes(SMALL, 1, CountPlay(tags={"Z": 1}))
    with pytest.raises(ValueError, match="unknown rank 'Z'"):
        play_shoes(SMALL, 1, CountPlay(tags={"odd": {"Z": 1}}), bets=["odd"])
    with pytest.raises(ValueError, match="beyond"):
        play_shoes(SMALL, 1, CountPlay(tags={"A": 10**9}))
    with pytest.raises(TypeError):
        play_shoes(SMALL, 1, CountPlay(tags={"A": 1.5}))
    with pytest.raises(ValueError, match="not among"):
        play_shoes(SMALL, 1, CountPlay(threshold={"odd": 1}), bets=["even"])
    with pytest.raises(TypeError):
        play_shoes(SMALL, 1, CountPlay(threshold=float("nan")))
    with pytest.raises(ValueError):
        play_shoes(SMALL, 1, CountPlay(spread={1: -2}))
    with pytest.raises((TypeError, ValueError)):
        play_shoes(SMALL, 1, CountPlay(bin_width=0))
    with pytest.raises((TypeError, ValueError)):
        play_shoes(SMALL, 1, "count", bankroll=-5)
    with pytest.raises(TypeError):
        play_shoes(SMALL, 1, "count", burned_seen="yes")  # type: ignore[arg-type]


def test_perfect_play_of_a_suit_ranking_on_a_shoe() -> None:
    """A suit tie-break's pairs are summed by the shoe kernel too (its tie terms), so
    perfect information plays such a shoe: every round's exact EV, averaged, is the shoe
    evaluator's of what was unseen before that round, dealt again with Game. (Once: the
    kernels' per-round EVs are compared in test_the_core_equals_the_reference.)"""
    rules = SMALL.replace(ranking=PRESETS["san_gong"].ranking)
    bets = ("win:1", "tie:1", "point:0")
    result = play_shoes(rules, 3, "perfect", seed=12, workers=1, bets=bets)
    game = Game(rules, seed=_child(np.random.SeedSequence(12), 0))
    shoe = ShoeEvaluator(rules, bets=bets)
    ev_sum = dict.fromkeys(bets, Fraction(0))
    shoes = rounds = 0
    while shoes < 3:
        for b, ev in shoe.evs().items():
            ev_sum[b] += ev
        record = game.play({})
        rounds += 1
        shoe.remove(" ".join(str(c) for h in (record.banker, *record.hands.values()) for c in h.cards))
        if record.last_of_shoe:
            shoes += 1
            shoe = ShoeEvaluator(rules, bets=bets)
    assert result.rounds == rounds
    for b in bets:
        assert result[b].always.expected_gain_per_100 == pytest.approx(100 * float(ev_sum[b]) / rounds, rel=1e-9)


@pytest.mark.kernels
def test_design_lists_every_pay_in_range(impl: object) -> None:
    rules = MACAU.replace(decks=2)
    options = design(rules, "point:0", (Fraction(2, 100), Fraction(15, 100)), step=1, pays=(1, 12), shoes=3)
    listed = {o.pays["point"] for o in options}
    for p in range(1, 13):
        edge = -analyze(rules.replace(pays={**rules.pays, "point": Fraction(p)}))["point:0"].ev_exact
        assert (p in listed) == (Fraction(2, 100) <= edge <= Fraction(15, 100)), p
    for o in options:
        assert o.house_edge == -analyze(rules.replace(pays={**rules.pays, "point": o.pays["point"]}))["point:0"].ev_exact
        assert o.perfect_gain_per_100 is not None and o.perfect_gain_per_100 >= 0


def test_design_of_a_pair_plus_table() -> None:
    """Every monotone table of a small grid, checked by analyze, against design's list."""
    import itertools

    low, high = Fraction(1, 100), Fraction(6, 100)
    options = design(ONLINE, "pair_plus:1", (low, high), step=1, pays=(1, 6), limit=10_000)
    found = {tuple(o.pays.values()) for o in options}
    expected = set()
    for table in itertools.combinations_with_replacement(range(1, 7), 5):  # non-decreasing
        pays = dict(zip(("pair", "flush", "straight", "three_of_a_kind", "straight_flush"), map(Fraction, table), strict=True))
        edge = -analyze(ONLINE.replace(pair_plus_pays=pays))["pair_plus:1"].ev_exact
        if low <= edge <= high:
            expected.add(tuple(pays.values()))
    assert found == expected and expected


def test_design_refuses_bad_input() -> None:
    for kwargs in ({"edge": (0.06, 0.02)}, {"edge": (0.01,)}, {"edge": (0.01, 0.02), "step": 0},
                   {"edge": (0.01, 0.02), "pays": (5, 1)}, {"edge": (0.01, 0.02), "decks": 0},
                   {"edge": (0.01, 0.02), "limit": 0}, {"edge": ("x", 0.02)}):
        with pytest.raises((TypeError, ValueError)):
            design(MACAU, "point:0", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        design(MACAU, "lose:1", (0.01, 0.02))
    with pytest.raises(ValueError, match="key"):
        design(PRESETS["chinese"], "player:1", (0.01, 0.02), key="10")
    with pytest.raises(ValueError, match="key"):
        design(MACAU, "point:0", (0.01, 0.02), key="9")


def test_design_of_a_banker_game_multiplier() -> None:
    """A banker game's player bet: the multiplier of one hand varied, every grid point
    checked with analyze (the suit tie-break's counts: once, with the compiled core)."""
    rules = PRESETS["chinese"]
    low, high = Fraction(-10, 100), Fraction(10, 100)
    options = design(rules, "player:1", (low, high), step=1, pays=(1, 8), key="9")
    listed = {o.pays["9"] for o in options}
    for m in range(1, 9):
        edge = -analyze(rules.replace(multipliers={**rules.multipliers, "9": Fraction(m)}))["player:1"].ev_exact
        assert (m in listed) == (low <= edge <= high), m
    assert all(o.perfect_gain_per_100 == (max(0.0, -float(o.house_edge)) * 100) for o in options)


@pytest.mark.kernels
def test_protect_command(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run(["protect", "--rules", "macau", "--decks", "2", "--shoes", "20", "--seed", "1",
                          "--bets", "point:0,win:1", "--json"], capsys))
    assert {"rules", "decks", "positions", "shoes", "rounds", "bets"} <= set(out)
    assert out["decks"] == 2 and out["shoes"] == 20
    bet = out["bets"][0]
    assert bet["bet"] == "point:0"
    assert {"frequency", "advantage", "gain_per_100", "gain_per_100_se"} <= set(bet["perfect"])
    assert {"tags", "threshold", "frequency", "advantage", "gain_per_100", "correlation"} <= set(bet["count"])
    text = run(["protect", "--rules", "macau", "--decks", "2", "--shoes", "5", "--seed", "1", "--bets", "point:0"], capsys)
    assert "point:0" in text and "gain/100" in text
    fails(["protect", "--shoes", "0"], "--shoes", capsys)
    fails(["protect", "--shoes", "3", "--cut", "40-30"], "--cut", capsys)
    fails(["protect", "--shoes", "3", "--cut", "1-2"], "--cut", capsys)
    fails(["protect", "--shoes", "3", "--strategy", "luck"], "luck", capsys)
    fails(["protect", "--shoes", "3", "--bets", "pair_plus:1"], "pair_plus", capsys)
    fails(["protect", "--shoes", "3", "--tags", "/nonexistent/tags.json"], "tags", capsys)


@pytest.mark.kernels
def test_design_command(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run(["design", "--rules", "macau", "--decks", "2", "--bet", "point:0", "--edge", "2%-15%",
                          "--step", "1", "--shoes", "3", "--json"], capsys))
    assert out["bet"] == "point:0" and out["options"]
    assert all(0.02 <= o["house_edge"] <= 0.15 for o in out["options"])
    assert "point" in run(["design", "--rules", "macau", "--bet", "point:0", "--edge", "0.02-0.06", "--shoes", "3"],
                          capsys)
    fails(["design", "--bet", "point:0", "--edge", "lots"], "--edge", capsys)
    fails(["design", "--bet", "point:0", "--edge", "0.02-0.06", "--step", "-1"], "--step", capsys)
    fails(["design", "--bet", "nope", "--edge", "0.02-0.06"], "nope", capsys)


@pytest.mark.kernels
def test_progress_interruption_and_bankroll(impl: object) -> None:
    import threading
    import time

    seen: list[tuple[int, int]] = []
    play_shoes(SMALL, 12, "count", seed=1, workers=2, chunk_size=3, bets=["odd"],
               progress=lambda d, t: seen.append((d, t)))
    assert [t for _, t in seen] == [12] * 4 and [d for _, d in sorted(seen)] == [12] * 4
    assert sorted(d for d, _ in seen) == [d for d, _ in seen] and seen[-1][0] == 12

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    before = threading.active_count()
    with pytest.raises(KeyboardInterrupt):
        play_shoes(SMALL, 60, "count", seed=1, workers=2, chunk_size=3, bets=["odd"], progress=interrupt)
    time.sleep(0.2)
    assert threading.active_count() <= before
    partial = play_shoes(SMALL, 60, "count", seed=1, workers=2, chunk_size=3, bets=["odd"], progress=interrupt,
                         partial_on_interrupt=True)
    assert partial.interrupted and 0 < partial.shoes < 60
    ruin = play_shoes(MACAU, 30, ["perfect", "count"], seed=2, bets=["point:0"], bankroll=50)
    perfect = ruin["point:0"].perfect
    assert perfect is not None and perfect.risk_of_ruin is not None
    for stats in (perfect, ruin["point:0"].always, ruin["point:0"].count):
        assert stats is not None
        mean, var = stats.gain_per_100 / 100, stats.sd ** 2  # per round dealt: the diffusion approximation
        expected = 1.0 if mean <= 0 or var == 0 else min(1.0, math.exp(-2 * mean * 50 / var))
        assert stats.risk_of_ruin == pytest.approx(expected)
