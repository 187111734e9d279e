"""``sanggong deal`` with stakes: bets alone (``--bet``), by player (``--player``), and
players who follow the shoe (``--strategy``); the log it writes is the log ``Game.play``
writes with the same slips (built here from the strategies' public definitions), it
verifies, and ``detect`` finds its advantage players; a log without stakes says so."""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_run import fails, run

from sanggong import MACAU, Game, ShoeEvaluator, detect, effect_of_removal

RULES = MACAU
ROUNDS = 1000
SEED = 5
SPREAD = {1: 1, 2: 2, 4: 4}
PLAYERS = ["--player", "ann:point:0=10,win:1=20", "--player", "pro:point:0=10,three_faces=10",
           "--player", "cnt:point:0=10,win:2=5", "--strategy", "pro=perfect", "--strategy", "cnt=count:1=1,2=2,4=4",
           "--strategy", "ann=flat"]


def _argv(*extra: str, rounds: int = ROUNDS) -> list[str]:
    return ["deal", "--rules", "macau", "--rounds", str(rounds), "--seed", str(SEED), *extra]


def _python_log(rounds: int) -> list[str]:
    """The log of the same table played in Python: ann flat, pro staking a bet when its exact
    EV of the unseen cards is positive, cnt by the bets' balanced tags (their effect of
    removal) at the true count per 52 unseen cards; a stake carried into a round stays."""
    game = Game(RULES, SEED, recall=0)
    tags = {bet: effect_of_removal(RULES, [bet])[bet].tags for bet in ("point:0", "win:2")}
    shoe = ShoeEvaluator(RULES, bets=["point:0", "three_faces"])
    running = dict.fromkeys(tags, 0)
    unseen = 52 * RULES.decks
    lines = []
    for _ in range(rounds):
        wanted: dict[str, dict[str, int]] = {"ann": {"point:0": 10, "win:1": 20}, "pro": {}, "cnt": {}}
        for bet, stake in (("point:0", 10), ("three_faces", 10)):
            if shoe.ev(bet) > 0:
                wanted["pro"][bet] = stake
        for bet, stake in (("point:0", 10), ("win:2", 5)):
            true_count = Fraction(52 * running[bet], unseen)
            units = max((u for tc, u in SPREAD.items() if true_count >= tc), default=0)
            if units:
                wanted["cnt"][bet] = units * stake
        carried: Mapping[str, Any] = game.carried
        slip = {p: {b: s for b, s in bets.items() if s >= carried.get(p, {}).get(b, 0)} for p, bets in wanted.items()}
        record = game.play({p: bets for p, bets in slip.items() if bets})
        lines.append(record.to_json())
        if record.last_of_shoe:
            shoe = ShoeEvaluator(RULES, bets=["point:0", "three_faces"])
            running, unseen = dict.fromkeys(tags, 0), 52 * RULES.decks
        else:
            assert record.banker is not None
            seen = [c for hand in (record.banker, *record.hands.values()) for c in hand.cards]
            shoe.remove(seen)
            for bet in running:
                running[bet] += sum(tags[bet][c.rank.symbol] for c in seen)
            unseen -= len(seen)
    lines.append(game.close().to_json())
    return lines


@pytest.mark.kernels
def test_the_log_is_the_one_game_play_writes_with_the_same_slips(capsys: pytest.CaptureFixture[str]) -> None:
    rounds = 300
    written = run(_argv(*PLAYERS, "--json", rounds=rounds), capsys).splitlines()
    assert written == _python_log(rounds)
    records = [json.loads(line) for line in written[:-1]]
    staked = {(r["player"], r["bet"]) for record in records for r in record["results"]}
    assert {("pro", "point:0"), ("cnt", "point:0"), ("ann", "win:1")} <= staked  # (every kind of player staked)
    assert any(r["outcome"] == "carried" for record in records for r in record["results"])


@pytest.mark.kernels
def test_detect_flags_the_players_who_follow_the_shoe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.jsonl"
    path.write_text(run(_argv(*PLAYERS, "--json"), capsys))
    assert "ok:" in run(["verify", str(path)], capsys)
    found = json.loads(run(["detect", str(path), "--json"], capsys))
    flagged = {p["id"]: p["flagged"] for p in found["players"]}
    assert flagged == {"ann": False, "pro": True, "cnt": True}
    assert "note" not in found


@pytest.mark.kernels
def test_bets_alone_by_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.jsonl"
    path.write_text(run(_argv("--bet", "win:1=100", "--bet", "odd=5", "--json", rounds=40), capsys))
    game = Game(RULES, SEED, recall=0)
    expected = [game.play({"win:1": 100, "odd": 5}).to_json() for _ in range(40)] + [game.close().to_json()]
    assert path.read_text().splitlines() == expected
    found = json.loads(run(["detect", str(path), "--json"], capsys))
    assert {p["id"] for p in found["players"]} == {"position 1", "table"}


@pytest.mark.kernels
def test_detect_on_a_log_without_stakes_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.jsonl"
    path.write_text(run(_argv("--json", rounds=30), capsys))
    found = json.loads(run(["detect", str(path), "--json"], capsys))
    assert found["players"] == [] and found["note"] == "the log holds no stakes"
    text = run(["detect", str(path)], capsys)
    assert "the log holds no stakes" in text and "--player" in text
    assert "mean EV" not in text  # (no empty table)
    assert detect(str(path)).note == "the log holds no stakes"


def test_the_text_shows_every_stake(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(_argv("--player", "ann:point:0=10", "--unit", "major", rounds=3), capsys)
    assert "amounts in major units" in out.splitlines()[0]
    assert sum(line.startswith("  ann point:0 10") for line in out.splitlines()) == 3


@pytest.mark.parametrize(("extra", "needle"), [
    (["--bet", "win:1=1", "--player", "a:win:1=1"], "--bet win:1=1 and --player a:win:1=1"),
    (["--bet", "pont:0=1"], "did you mean 'point:0'?"),
    (["--player", "a:pont:0=1"], "--player a:pont:0=1: unknown bet 'pont:0' (did you mean 'point:0'?)"),
    (["--player", "a:point:0=x"], "'x' is not an amount"),
    (["--player", "a:point:0=0"], "--player a:point:0=0: stake on point:0: must be positive"),
    (["--player", "a:point:0=1.5"], "1.5 is not a whole number of minor units"),
    (["--player", "a:point:0=1,point:0=2"], "point:0 is given twice"),
    (["--player", "a:odd=1", "--player", "a:even=1"], "a is given twice"),
    (["--player", "a"], "expected NAME:BET=STAKE"),
    (["--player", "a:tie:1=1"], "--player a:tie:1=1: bet tie:1 (by a): a Tie bet needs a Win bet on position 1"),
    (["--bet", "tie:2=1"], "a Tie bet needs a Win bet on position 2"),
    (["--player", "a:tie:1=1,win:1=1", "--strategy", "a=perfect"], "a Tie bet needs a Win bet on position 1"),
    (["--player", "a:point:0=1", "--strategy", "b=perfect"], "b is no --player's name"),
    (["--strategy", "a=perfect"], "give the player's bets with --player"),
    (["--player", "a:point:0=1", "--strategy", "a=perfect", "--strategy", "a=flat"], "a strategy twice"),
    (["--player", "a:point:0=1", "--strategy", "a=perfct"], "did you mean 'perfect'?"),
    (["--player", "a:point:0=1", "--strategy", "a=perfect:2"], "perfect takes no parameters"),
    (["--player", "a:point:0=1", "--strategy", "a=count"], "count:TC"),
    (["--player", "a:point:0=1", "--strategy", "a=count:x"], "'x' is not a true count"),
    (["--player", "a:point:0=1", "--strategy", "a=count:99999=1"],
     "--strategy a=count:99999=1: spread: a true count must be in -10000..10000"),
    (["--player", "a:point:0=1", "--strategy", "a=count:2=9999999"], "units must be ints in 0..1,000,000"),
    (["--player", "a:point:0=1", "--strategy", "a=count:2=1,2=3"], "the true count 2 is given twice"),
    (["--player", "a:point:0=1000000000000", "--strategy", "a=count:2=10000"], "beyond the largest stake"),
])
def test_bad_stakes_are_named(extra: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(_argv(*extra, "--json", rounds=2), needle, capsys)
