"""Bets by player: a slip ``{player: {bet: stake}}``, several players on the same bet,
each settled and paid on their own; carried stakes per player; records that name each
bet's player and still verify."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from sanggong import MACAU, ONLINE, Game, RoundRecord, TableSession, settle, simulate, verify_log
from sanggong.dealing import Replayer
from sanggong.limits import MAX_PLAYER_ID

SLIP = {"p1": {"point:0": 10, "win:1": 100}, "p2": {"point:0": 50, "win:3": 20, "odd": 5}, "p3": {"win:1": 7}}


@pytest.mark.parametrize("banker", ["9c 9d 5h", "Kh Qs Jd", "Ac 2d 4h"])
@pytest.mark.kernels
def test_each_players_stakes_settle_as_their_own_slip(banker: str) -> None:
    hands = {1: "9h 9s 5c", 2: "Kc 7d 3h", 3: "Jc Qd 9s"}
    together = settle(MACAU, banker, hands, SLIP)
    for player, slip in SLIP.items():
        alone = settle(MACAU, banker, hands, slip)
        assert [(r.bet, r.outcome, r.returned, r.commission, r.carried) for r in together.of(player)] == \
            [(r.bet, r.outcome, r.returned, r.commission, r.carried) for r in alone.results]
        assert all(r.player == player for r in together.of(player))
    assert together["p2", "point:0"].stake == 50 and together["p1", "point:0"].stake == 10
    # money is conserved: what the players staked is what came back, stayed on the table, or the house won
    staked = sum(Fraction(r.stake) for r in together.results)
    assert staked == Fraction(together.returned) + Fraction(together.carried) + Fraction(together.house_net)
    assert sum(Fraction(r.net) for r in together.results) == -Fraction(together.house_net)


@pytest.mark.kernels
def test_carried_stakes_are_each_players_own() -> None:
    seat = TableSession(MACAU)
    seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"a": {"win:1": 100}, "b": {"win:1": 30, "tie:1": 5}})
    assert dict(seat.carried) == {"a": {"win:1": 100}, "b": {"win:1": 30}}
    with pytest.raises(ValueError, match=r"bet win:1 \(by b\): a carried stake of 30 may be increased"):
        seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"b": {"win:1": 20}})
    with pytest.raises(ValueError, match="were by player: give this round's by player too"):
        seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": 100})
    after = seat.settle("Kh Qs Jd", {1: "9h 9s 5c"}, {"b": {"win:1": 40}})  # a's stake is put back by itself
    assert {(r.player, r.bet, r.stake) for r in after.results} == {("a", "win:1", 100), ("b", "win:1", 40)}
    assert dict(seat.carried) == {}


def test_a_tie_needs_the_same_players_win_bet() -> None:
    with pytest.raises(ValueError, match=r"bet tie:1 \(by b\): a Tie bet needs a Win bet on position 1"):
        settle(MACAU, "9c 9d 5h", {1: "9h 9s 5c"}, {"a": {"win:1": 100}, "b": {"tie:1": 5}})


@pytest.mark.parametrize(("slip", "error", "match"), [
    ({"": {"odd": 5}}, ValueError, "not a player's id"),
    ({" ": {"odd": 5}}, ValueError, "not a player's id"),
    ({"a\nb": {"odd": 5}}, ValueError, "not a player's id"),
    ({"x" * (MAX_PLAYER_ID + 1): {"odd": 5}}, ValueError, "not a player's id"),
    ({1: {"odd": 5}}, TypeError, "a player is named by a string"),
    ({"a": {"odd": 5}, "odd": 5}, TypeError, "not both in one slip"),
    ({"a": {"odd": 5}, "b": {"odd": Decimal("1.00")}}, ValueError, "of one kind"),
    ({"a": {"odd": 1.5}}, TypeError, "never a float"),
    ({f"p{i}": {"odd": 1} for i in range(2000)}, ValueError, "at most 1024 stakes"),
])
def test_bad_slips_by_player(slip: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        settle(MACAU, "9c 9d 5h", {1: "9h 9s 5c"}, slip)


@pytest.mark.kernels
def test_a_game_by_player_records_and_verifies(impl: Any) -> None:
    game = Game(MACAU, seed=3, key=b"k")
    records = [game.play(SLIP if i % 3 else {"p9": {"even": 10}}) for i in range(40)]
    lines = [r.to_json() for r in records]
    report = verify_log(lines, key=b"k")
    assert report.ok, report.reason
    first = json.loads(lines[1])
    assert first["bets"]["p2"] == {"odd": "5", "point:0": "50", "win:3": "20"}
    assert {r["player"] for r in first["results"]} == {"p1", "p2", "p3"}
    assert RoundRecord.from_json(lines[1]) == records[1] and Replayer(MACAU).check(records[0]) == records[0]
    # a stake moved from one player to another is caught
    data = json.loads(lines[4])
    data["bets"]["p1"]["point:0"], data["bets"]["p2"]["point:0"] = "50", "10"
    lines[4] = json.dumps(data)
    assert verify_log(lines, key=b"k").first_bad == 5


@pytest.mark.kernels
def test_a_slip_of_bets_alone_is_unchanged() -> None:
    record = Game(ONLINE, seed=6).play({"win:1": 100})
    assert record.results[0]["player"] is None and record.bets == {"win:1": 100}


def test_simulations_stake_one_slip() -> None:
    with pytest.raises(TypeError, match="not bets by player"):
        simulate(MACAU, 10, {"a": {"odd": 1}})
