"""Advantage-play detection: every statistic against an independent computation (the EV of
each stake against the exact analysis of the depleted shoe written out here, the test
statistic against a direct computation on small logs), and players of each kind."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_run import fails, run

from sanggong import MACAU, Game, ObservedTable, RoundRecord, ShoeEvaluator, analyze, detect
from sanggong.detection import shoe_terms
from sanggong.detection._detect import _holm
from sanggong.records import write_log

SMALL = MACAU.replace(name="small", decks=2, positions=2, cut_card_range=(20, 30))
BETS = ["point:0", "point:5", "odd", "win:1"]


def _game(seed: int, rounds: int, slip_of: Any, rules: Any = SMALL) -> list[RoundRecord]:
    """A game whose slips are chosen by ``slip_of(evs)``: the exact EVs of BETS now."""
    game = Game(rules, seed=seed)
    out: list[RoundRecord] = []
    evaluator = None
    for _ in range(rounds):
        if evaluator is None:
            evaluator = ShoeEvaluator(rules, bets=BETS)
        record = game.play(slip_of(evaluator.evs()))
        out.append(record)
        if record.last_of_shoe:
            evaluator = None
        else:
            assert record.banker is not None
            evaluator.remove([c for h in (record.banker, *record.hands.values()) for c in h.cards])
    return out


def _composition(records: list[RoundRecord], upto: int, burned_seen: bool) -> np.ndarray:
    """The unseen cards before record ``upto``, written out from the records: a full shoe
    less every card shown in the earlier rounds of its shoe (and burned ones, if seen)."""
    counts = np.full(52, SMALL.decks, dtype=np.int64)
    shoe = records[upto].shoe
    for record in records[:upto]:
        if record.shoe != shoe:
            continue
        cards = [c.code for h in ([record.banker] if record.banker else []) + list(record.hands.values())
                 for c in h.cards]
        if burned_seen:
            cards += [c.code for c in record.burned]
        for code in cards:
            counts[code] -= 1
    return counts


@pytest.mark.parametrize("burned_seen", [False, True])
@pytest.mark.kernels
def test_each_stakes_ev_is_the_exact_analysis_of_the_depleted_shoe(burned_seen: bool) -> None:
    records = _game(7, 40, lambda evs: {"p": {"point:0": 10, "odd": 3}})
    found = detect(records, SMALL, burned_seen=burned_seen)
    points = found.points["p"]
    k = 0
    for i, record in enumerate(records):
        exact = analyze(SMALL, _composition(records, i, burned_seen))
        carried = dict(records[i - 1].carried.get("p", {})) if i else {}
        for bet in sorted(record.bets["p"]):
            if record.bets["p"][bet] <= carried.get(bet, 0):
                continue  # a carried stake is no decision
            assert points[k] == pytest.approx((float(exact[bet].ev_exact), record.bets["p"][bet] - carried.get(bet, 0)),
                                              abs=1e-12), (i, bet)
            k += 1
    assert k == len(points) == found["p"].bets


def _direct(records: list[RoundRecord], player: str) -> tuple[float, float, float]:
    """D, the sum of Y_k squared, and z, straight from the definitions (the module's doc),
    with EVs from ``analyze`` of each depleted shoe written out."""
    fresh = {b: float(line.ev_exact) for b, line in analyze(SMALL).bets.items()}
    shoes: dict[int, list[int]] = defaultdict(list)
    for i, record in enumerate(records):
        shoes[record.shoe].append(i)
    excess = square = 0.0
    for indices in shoes.values():
        evs = [{b: float(v.ev_exact) for b, v in analyze(SMALL, _composition(records, i, False)).bets.items()}
               for i in indices]
        stakes = []
        for k, i in enumerate(indices):
            carried = records[i - 1].carried.get(player, {}) if i else {}
            for bet, stake in records[i].bets.get(player, {}).items():
                if stake > carried.get(bet, 0):
                    stakes.append((k, bet, float(stake - carried.get(bet, 0))))
        # D as the stakes' excess EV ...
        excess += sum(s * (evs[k][b] - fresh[b]) for k, b, s in stakes)
        # ... and the Y_k: round k's EV change on bet b, times the stakes on b after it
        for k in range(len(indices) - 1):
            y = sum(s * (evs[k + 1][b] - evs[k][b]) for j, b, s in stakes if j > k)
            square += y * y
    return excess, square, excess / math.sqrt(square)


@pytest.mark.kernels
def test_the_statistic_against_a_direct_computation() -> None:
    def slip_of(evs: dict[str, Fraction]) -> dict[str, dict[str, int]]:
        return {"pro": {"point:0": 20 if evs["point:0"] > 0 else 1}, "flat": {"point:5": 5, "odd": 2}}

    records = _game(3, 60, slip_of)
    found = detect(records, SMALL)
    for player in ("pro", "flat"):
        excess, _square, z = _direct(records, player)
        assert found[player].z == pytest.approx(z, rel=1e-9)
        assert found[player].p_value == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)), rel=1e-9)
        stats = found[player]
        assert stats.mean_ev - stats.baseline_ev == pytest.approx(excess / stats.units, rel=1e-9, abs=1e-15)


def test_shoe_terms_sum_to_the_excess() -> None:
    evs = [{"a": 0.0, "b": -0.1}, {"a": 0.05, "b": -0.12}, {"a": -0.02, "b": -0.05}, {"a": 0.01, "b": -0.1}]
    stakes = [(0, "a", 2.0), (1, "a", 3.0), (2, "b", 1.0), (3, "a", 5.0), (3, "b", 4.0)]
    terms = shoe_terms(evs, stakes)
    excess = sum(s * (evs[k][b] - evs[0][b]) for k, b, s in stakes)  # round 0's EVs are the fresh ones
    assert sum(terms) == pytest.approx(excess) and len(terms) == 3


def test_holm_against_its_definition() -> None:
    p = [0.0001, 0.04, 0.0002, 0.5, 0.00024]
    # step down: 0.0001 < 0.001/5, 0.0002 < 0.001/4, 0.00024 < 0.001/3, 0.04 >= 0.001/2: stop
    assert _holm(p, 0.001) == [True, False, True, False, True]
    assert _holm([0.0003, 0.0001], 0.001) == [True, True]  # 0.0001 < 0.001 / 2, then 0.0003 < 0.001 / 1
    assert _holm([0.0006, 0.0006], 0.001) == [False, False]  # 0.0006 >= 0.001 / 2: none


def test_a_perfect_player_is_flagged_and_flat_players_are_not() -> None:
    """(Once, with the core: the shoe evaluator is this test's oracle, and it is held to the
    twin in test_shoe; 1,500 rounds of it in the twin took 220 s for nothing more.)"""
    def slip_of(evs: dict[str, Fraction]) -> dict[str, dict[str, int]]:
        slip = {"flat": {"point:0": 10}, "odd": {"odd": 10}}
        if evs["point:0"] > 0:
            slip["pro"] = {"point:0": 10}
        return slip

    found = detect(_game(11, 1500, slip_of), SMALL)
    assert found["pro"].flagged and found["pro"].mean_ev > 0 > found["pro"].baseline_ev
    assert not found["flat"].flagged and not found["odd"].flagged
    assert found.players[0].id == "pro"


@pytest.mark.kernels
def test_a_log_of_bets_alone_reads_as_anonymous_players() -> None:
    game = Game(SMALL, seed=2)
    records = [game.play({"win:1": 10, "win:2": 5, "odd": 2, "point:3": 1}) for _ in range(50)]
    found = detect(records, SMALL)
    assert {p.id for p in found.players} == {"position 1", "position 2", "table"}
    assert found["table"].bets == sum(1 for r in records for b in ("odd", "point:3")
                                      if r.bets[b] > (records[r.round - 2].carried.get(b, 0) if r.round > 1 else 0))


@pytest.mark.kernels
def test_carried_stakes_are_no_decision_and_a_log_begun_in_a_shoe_skips_to_the_next() -> None:
    table = ObservedTable(SMALL)
    first = table.play("Ac Ad  9c Kc 9h 9d Kd 9s 5c Kh 5d", {"p": {"win:1": 100}})  # 9-9-5 ties 9-9-5: carried
    assert first.results[0]["outcome"] == "carried"
    second = table.play("Qd  2c 3c 4c 2d 3d 4d 6h 6s 7h", {"p": {"win:1": 100}})
    found = detect([first, second], SMALL)
    assert found["p"].bets == 1  # round 2's stake was only the carried one
    game = _game(5, 60, lambda evs: {"p": {"odd": 1}})
    later = [r for r in game if r.shoe > 1 or r.round_in_shoe > 2]
    assert detect(later, SMALL).skipped == sum(1 for r in later if r.shoe == 1)


@pytest.mark.kernels
def test_a_fresh_deck_has_nothing_to_follow() -> None:
    one_deck = MACAU.replace(decks=1)
    game = Game(one_deck, seed=1)
    found = detect([game.play({"p": {"odd": 5}}) for _ in range(30)], one_deck)
    assert found["p"].z is None and found["p"].p_value == 1 and not found["p"].flagged


@pytest.mark.kernels
def test_several_logs_add_up(tmp_path: Path) -> None:
    paths = []
    for seed in (1, 2, 3):
        path = tmp_path / f"log{seed}.jsonl"
        write_log(_game(seed, 50, lambda evs: {"p": {"point:0": 2}, "q": {"odd": 1}}), path)
        paths.append(path)
    together = detect(paths, SMALL)
    alone = [detect(p, SMALL) for p in paths]
    assert together.records == 150
    for player in ("p", "q"):
        assert together[player].bets == sum(d[player].bets for d in alone)
        assert together[player].units == sum(d[player].units for d in alone)
    assert detect(paths, SMALL, workers=2) == together


@pytest.mark.kernels
def test_a_tampered_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    lines = [r.to_json() for r in _game(1, 20, lambda evs: {"p": {"odd": 1}})]
    data = json.loads(lines[5])
    data["bets"]["p"]["odd"] = "100"
    lines[5] = json.dumps(data)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="line 6"):
        detect(path, SMALL)


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"alpha": 0}, ValueError), ({"alpha": 1.5}, ValueError), ({"alpha": True}, ValueError),
    ({"burned_seen": "yes"}, TypeError), ({"rules": 5}, TypeError), ({"rules": "nope"}, ValueError),
])
@pytest.mark.kernels
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        detect(_game(1, 3, lambda evs: {"odd": 1}), **({"rules": SMALL} | kwargs))


@pytest.mark.kernels
def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    write_log(_game(4, 80, lambda evs: {"ann": {"point:0": 5}}, MACAU), path)
    out = run(["detect", str(path)], capsys)
    assert out.startswith("rules: macau, 80 records, 1 player") and "ann" in out
    data = json.loads(run(["detect", str(path), "--json"], capsys))
    assert set(data) >= {"rules", "alpha", "players"} and data["players"][0]["id"] == "ann"
    assert data["players"][0]["kind"] == "player"
    assert set(data["players"][0]) == {"id", "kind", "rounds", "bets", "units", "mean_ev", "baseline_ev", "z", "p_value",
                                       "expected_gain_per_100", "flagged"}
    fails(["detect", str(path), "--alpha", "2"], "--alpha 2.0", capsys)
    fails(["detect", str(tmp_path / "missing.jsonl")], "missing.jsonl", capsys)


@pytest.mark.kernels
def test_the_batched_tally_is_shoe_terms_and_the_sums_stake_by_stake(impl: Any) -> None:
    """detect's tally of many shoes at once, in arrays, against the definitions stake by
    stake: each player's excess and squares from shoe_terms shoe by shoe, the stakes' counts,
    units and EV-weighted units, first and last rounds, and the points in the order read."""
    from sanggong.detection._stakes import Points, Tallier

    rng = np.random.default_rng(3)
    names = ["a", "b", "c", "d"]
    tallier = Tallier(SMALL, False)
    bets = ["odd", "even", "point:0", "win:1"]
    fresh = {b: float(x) for b, x in zip(bets, rng.normal(0, 0.1, size=4), strict=True)}  # (each shoe's first round's)
    sets = []  # random decision sets, registered as the tallier registers a round's
    for _ in range(12):
        chosen = rng.choice(len(names) * len(bets), size=int(rng.integers(1, 6)), replace=False)
        slip: dict[str, dict[str, int]] = defaultdict(dict)
        for j in chosen.tolist():
            slip[names[j // len(bets)]][bets[j % len(bets)]] = int(rng.integers(1, 50))
        sets.append(tallier._decisions(dict(slip), {}))
    expected: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(float))
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    number = 0
    staked = sorted({bet for s in sets for bet in tallier.set_bets[s]})
    all_evs, rows, numbers, chosen = [], [], [], []
    for rounds in (1, 2, 5, 30, 17, 3):
        evs = rng.normal(0, 0.1, size=(rounds, len(staked)))
        evs[0] = [fresh[b] for b in staked]
        ks = sorted(rng.choice(rounds, size=min(rounds, 4), replace=False).tolist())
        shoe_sets = [sets[int(j)] for j in rng.integers(0, len(sets), size=len(ks))]
        shoe_numbers = [number + k + 1 for k in ks]
        rows += [sum(len(e) for e in all_evs) + k for k in ks]
        numbers += shoe_numbers
        chosen += shoe_sets
        all_evs.append(evs)
        number += rounds
        by_player: dict[str, list[tuple[int, str, float]]] = defaultdict(list)
        for k, n, s in zip(ks, shoe_numbers, shoe_sets, strict=True):
            for t in range(tallier.set_start[s], tallier.set_start[s + 1]):
                player = _player_name(tallier, tallier.stake_player[t])
                amount, first = tallier.stake_amount[t], tallier.stake_first[t]
                bet = next(b for b, c in tallier.column_of.items() if c == tallier.stake_bet[t])
                ev = float(evs[k, staked.index(bet)])
                e = expected[player]
                e["rounds"] += first
                e["bets"] += 1
                e["units"] += amount
                e["ev_units"] += amount * ev
                e["base_units"] += amount * fresh[bet]
                e.setdefault("first", n)
                e["last"] = n
                points[player].append((ev, amount))
                by_player[player].append((k, bet, amount))
        for player, stakes in by_player.items():
            terms = shoe_terms([dict(zip(staked, row, strict=True)) for row in evs.tolist()], stakes)
            expected[player]["excess"] += sum(terms)
            expected[player]["square"] += sum(t * t for t in terms)
    tallier._add(np.cumsum([len(e) for e in all_evs]), rows, numbers, chosen, staked, np.concatenate(all_evs))
    found = tallier.finish()
    assert set(found) == set(expected)
    for player, e in expected.items():
        t = found[player]
        assert (t.rounds, t.bets, t.span) == (e["rounds"], e["bets"], e["last"] - e["first"] + 1)
        for name in ("units", "ev_units", "base_units", "excess", "square"):
            assert getattr(t, name) == pytest.approx(e[name], rel=1e-12, abs=1e-15), (player, name)
        assert Points({player: t.points})[player] == tuple(points[player])


def _player_name(tallier: Any, number: int) -> str:
    return next(name for name, p in tallier.player_of.items() if p == number)


def _slips_that_change() -> Any:
    """Odd alone for 10 rounds, then Win and a Point too (detect's plan changes)."""
    played: list[int] = []

    def slip_of(evs: dict[str, Fraction]) -> dict[str, dict[str, int]]:
        played.append(1)
        return {"p": {"odd": 3} if len(played) <= 10 else {"odd": 3, "win:2": 1, "point:4": 2}}
    return slip_of


@pytest.mark.parametrize("burned_seen", [False, True])
@pytest.mark.parametrize("slips", ["the same", "changing"])
@pytest.mark.kernels
def test_each_stakes_ev_is_the_shoe_evaluators_to_the_last_bit(burned_seen: bool, slips: str) -> None:
    """The EVs detect computes a shoe at a time (numerators_batch) are the very floats a
    ShoeEvaluator gives round by round (float_evs, its cards removed as they are seen),
    whether the bets staked stay the same or change (and detect's plan with them)."""
    slip_of = (lambda evs: {"p": {"point:0": 10, "odd": 3, "win:2": 1}}) if slips == "the same" else \
        _slips_that_change()
    from sanggong import _kernels

    rounds = 60 if _kernels.kernels.IMPLEMENTATION == "cython" else 30  # (a shoe of 2 decks and the next either way)
    records = _game(9, rounds, slip_of, MACAU.replace(decks=2))
    found = detect(records, MACAU.replace(decks=2), burned_seen=burned_seen)
    evaluator, expected = None, []
    for i, record in enumerate(records):
        if evaluator is None or record.round_in_shoe == 1:
            evaluator = ShoeEvaluator(MACAU.replace(decks=2))
        evs = evaluator.float_evs()
        carried = dict(records[i - 1].carried.get("p", {})) if i else {}
        expected += [(evs[bet], float(stake - carried.get(bet, 0))) for bet, stake in record.bets["p"].items()
                     if stake > carried.get(bet, 0)]
        assert record.banker is not None
        evaluator.remove([c for h in (record.banker, *record.hands.values()) for c in h.cards]
                         + (list(record.burned) if burned_seen else []))
    assert list(found.points["p"]) == expected


@pytest.mark.kernels
def test_a_shoe_of_cards_it_cannot_hold_is_refused_as_the_evaluator_refuses_it() -> None:
    """Records of a 2-deck shoe read as a 1-deck one's: a card seen twice is refused with
    the shoe evaluator's own error (that of reading the shoe round by round)."""
    records = _game(2, 30, lambda evs: {"p": {"odd": 1}})
    with pytest.raises(ValueError, match="no such card is left unseen"):
        detect(records, SMALL.replace(decks=1))


@pytest.mark.parametrize("decks", [20, 64])
@pytest.mark.kernels
def test_big_shoes_evs_are_the_shoe_evaluators_to_the_last_bit(decks: int) -> None:
    """Shoes whose counts pass 2**53 (20 decks: the EVs divided in Python integers) or whose
    sums pass 64 bits (64 decks: numerators_batch stops, the rounds go one at a time): the
    EVs are still float_evs' own."""
    rules = MACAU.replace(decks=decks)
    game = Game(rules, seed=4)
    records = [game.play({"p": {"win:1": 5, "odd": 2}}) for _ in range(6)]
    found = detect(records, rules)
    evaluator, expected = ShoeEvaluator(rules), []
    for i, record in enumerate(records):
        evs = evaluator.float_evs()
        carried = dict(records[i - 1].carried.get("p", {})) if i else {}
        expected += [(evs[bet], float(stake - carried.get(bet, 0))) for bet, stake in record.bets["p"].items()
                     if stake > carried.get(bet, 0)]
        assert record.banker is not None
        evaluator.remove([c for h in (record.banker, *record.hands.values()) for c in h.cards])
    assert records[-1].shoe == 1 and list(found.points["p"]) == expected


def _tally_case(rng: np.random.Generator, players: int = 3, bets: int = 4) -> dict[str, Any]:
    """Random arguments of tally_stakes: shoes of 1 to 9 rounds, sets of 1 to 5 stakes."""
    lengths = rng.integers(1, 10, size=6)
    rounds = int(lengths.sum())
    set_sizes = rng.integers(1, 6, size=5)
    stakes = int(set_sizes.sum())
    rows = np.sort(rng.choice(rounds, size=rounds // 2, replace=False)).astype(np.int64)
    return {
        "ev": rng.normal(0, 0.1, size=(rounds, bets)), "shoe_ends": np.cumsum(lengths).astype(np.int64),
        "rows": rows, "sets": rng.integers(0, 5, size=len(rows)).astype(np.int64),
        "set_start": np.concatenate([[0], np.cumsum(set_sizes)]).astype(np.int64),
        "stake_player": rng.integers(0, players, size=stakes).astype(np.int64),
        "stake_bet": rng.integers(0, bets + 1, size=stakes).astype(np.int64) % bets,
        "stake_amount": rng.integers(1, 100, size=stakes) / 4, "stake_first": rng.integers(0, 2, stakes).astype(np.uint8),
        "bet_fresh": rng.normal(0, 0.1, size=bets), "bet_column": rng.permutation(bets).astype(np.int64),
        "sums": np.zeros((players, 7)), "at_stake": np.zeros(stakes * len(rows)),
    }


def _direct_tally(case: dict[str, Any]) -> tuple[np.ndarray, list[float]]:
    """tally_stakes' sums written out from its definition: the stakes in order, then each
    player's Y_k from W_k(b) summed over the rounds after k in k's shoe."""
    ev, ends = case["ev"], case["shoe_ends"].tolist()
    sums, at = np.zeros_like(case["sums"]), []
    stakes = []  # (row, player, column, amount)
    for row, s in zip(case["rows"].tolist(), case["sets"].tolist(), strict=True):
        for t in range(int(case["set_start"][s]), int(case["set_start"][s + 1])):
            p, b, a = int(case["stake_player"][t]), int(case["stake_bet"][t]), float(case["stake_amount"][t])
            c = int(case["bet_column"][b])
            at.append(float(ev[row, c]))
            sums[p, :5] += [case["stake_first"][t], 1, a, a * ev[row, c], a * case["bet_fresh"][b]]
            stakes.append((row, p, c, a))
    shoe_of = np.searchsorted(np.array(ends), np.arange(len(ev)), side="right")
    for k in range(len(ev) - 1):
        if shoe_of[k + 1] != shoe_of[k]:
            continue  # (a shoe's last round: no change after it)
        y = np.zeros(len(sums))
        for row, p, c, a in stakes:
            if row > k and shoe_of[row] == shoe_of[k]:
                y[p] += a * (ev[k + 1, c] - ev[k, c])
        sums[:, 5] += y
        sums[:, 6] += y * y
    return sums, at


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.kernels
def test_the_tally_kernels_against_the_definitions(impl: Any, seed: int) -> None:
    """tally_stakes, compiled and twin, against its definition written out (each stake in
    order, each Y_k summed directly over the stakes after k in its shoe)."""
    rng = np.random.default_rng(seed)
    case = _tally_case(rng)
    expected, at = _direct_tally(case)
    for module in (impl,):
        mine = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in case.items()}
        assert module.tally_stakes(**mine) == len(at)
        assert mine["at_stake"][: len(at)].tolist() == at
        assert mine["sums"][:, :2].tolist() == expected[:, :2].tolist()  # (counts: exact)
        assert mine["sums"] == pytest.approx(expected, rel=1e-12, abs=1e-15)


@pytest.mark.kernels
def test_the_tally_kernels_refuse_an_index_out_of_range_and_change_nothing(impl: Any) -> None:
    rng = np.random.default_rng(99)
    base = _tally_case(rng)
    bad: list[tuple[str, Any]] = [
        ("shoe_ends", base["shoe_ends"][:-1]), ("shoe_ends", base["shoe_ends"][::-1].copy()),
        ("shoe_ends", base["shoe_ends"] + 1), ("rows", base["rows"] + len(base["ev"])),
        ("rows", base["rows"][::-1].copy()), ("sets", base["sets"] + 5), ("sets", base["sets"] - 9),
        ("set_start", base["set_start"][::-1].copy()), ("set_start", base["set_start"] + 100),
        ("stake_player", base["stake_player"] + 3), ("stake_bet", base["stake_bet"] - 5),
        ("bet_column", base["bet_column"] + 4), ("bet_column", np.full(4, -1, np.int64)),
        ("sums", np.zeros((3, 6))), ("sums", np.zeros((1, 7))), ("at_stake", np.zeros(0)),
        ("stake_first", base["stake_first"][:-1]), ("bet_fresh", base["bet_fresh"][:-1]),
        ("set_start", np.zeros(0, np.int64)),
    ]
    for module in (impl,):
        for name, value in bad:
            case = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in base.items()} | {name: value}
            before = case["sums"].copy()
            with pytest.raises(ValueError):
                module.tally_stakes(**case)
            assert (case["sums"] == before).all(), (module.IMPLEMENTATION, name)


@pytest.mark.kernels
def test_the_points_are_the_first_of_each_player_across_batches_and_logs(tmp_path: Path, monkeypatch: Any) -> None:
    """With room for 7 points a player, and batches of a few rounds, the points kept are the
    first 7 stakes of the full list, read one log and several logs alike."""
    import sanggong.detection._stakes as stakes

    records = _game(5, 40, lambda evs: {"p": {"point:0": 2, "odd": 1}, "q": {"win:1": 3}})
    full = detect(records, SMALL).points
    monkeypatch.setattr(stakes, "MAX_POINTS", 7)
    monkeypatch.setattr(stakes, "BATCH_ROUNDS", 3)
    found = detect(records, SMALL)
    assert {p: found.points[p] for p in ("p", "q")} == {p: full[p][:7] for p in ("p", "q")}
    paths, each = [], []
    for seed in (1, 2):  # two logs of 3 rounds: 6 points of p's each
        paths.append(tmp_path / f"log{seed}.jsonl")
        write_log(_game(seed, 3, lambda evs: {"p": {"point:0": 2, "odd": 1}}), paths[-1])
        monkeypatch.setattr(stakes, "MAX_POINTS", 100)
        each.append(detect(paths[-1], SMALL).points["p"])
        monkeypatch.setattr(stakes, "MAX_POINTS", 7)
    assert [len(e) for e in each] == [6, 6] and detect(paths, SMALL).points["p"] == (each[0] + each[1])[:7]


@pytest.mark.kernels
def test_the_helper_thread_changes_nothing(tmp_path: Path, monkeypatch: Any) -> None:
    """A log read with the batches' sums on a helper thread, and without one, with batches
    of a few rounds and many in flight: the same Detection, points included."""
    import sanggong.detection._detect as detection
    import sanggong.detection._stakes as stakes

    path = tmp_path / "log.jsonl"
    write_log(_game(6, 90, lambda evs: {"p": {"point:0": 20 if evs["point:0"] > 0 else 1}, "q": {"odd": 2}}), path)
    monkeypatch.setattr(stakes, "BATCH_ROUNDS", 5)
    found = []
    for helper in (True, False):
        monkeypatch.setattr(detection, "_second_core", lambda helper=helper: helper)
        found.append(detect(path, SMALL))
    assert found[0] == found[1] and found[0].points == found[1].points


def test_the_core_tally_reads_copies_of_its_inputs() -> None:
    """``at_stake`` or ``sums`` laid over the index arrays: the kernel reads the inputs it
    checked (the same sums as separate arrays give); no input may be None."""
    import sanggong._core as core

    base = _tally_case(np.random.default_rng(5))
    expected = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in base.items()}
    total = core.tally_stakes(**expected)
    case = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in base.items()}
    laid = np.zeros(len(case["at_stake"]) + len(case["stake_player"]), np.int64)
    laid[: len(case["stake_player"])] = case["stake_player"]
    case["stake_player"] = laid[: len(case["stake_player"])]
    case["at_stake"] = laid.view(np.float64)
    assert core.tally_stakes(**case) == total
    assert case["sums"].tolist() == expected["sums"].tolist()
    for name in ("rows", "ev", "sums"):
        with pytest.raises(TypeError):
            core.tally_stakes(**(base | {name: None}))
