"""Bet names and player ids are their characters, whatever ``str`` subclass carries them.

A ``str`` subclass whose ``__str__`` answers another text, or whose ``__hash__`` and
``__eq__`` keep it apart from the plain string of the same characters, once settled a bet
as another one (``win:1`` paid as ``win:2``), paid one player's stake to another, and put
one bet in a slip twice (two results, one stake in the record). Each slip is now read as
plain text at its one boundary (``settlement._entries``): the answers equal those of the
same slip written with plain strings, and a bet named twice is refused.
"""

from __future__ import annotations

import json

import pytest

from sanggong import MACAU, ONLINE, Game, TableSession, settle
from sanggong._canonical import canonical_json

pytestmark = pytest.mark.kernels

BANKER, HANDS = "Kh Qs 6d", {1: "5c 5d 7h", 2: "As 2s 3s"}


class Prints(str):
    """Prints as another text than its characters."""

    def __str__(self) -> str:
        return "win:2" if str.__str__(self).startswith("win") else "bob"


class Apart(str):
    """Hashes and compares apart from the plain string of its characters."""

    def __hash__(self) -> int:
        return 1

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other


def _shown(bets: object) -> list[tuple[object, ...]]:
    found = settle(ONLINE, BANKER, HANDS, bets)  # type: ignore[arg-type]
    return [(r.player, r.bet, r.stake, r.outcome, r.returned) for r in found.results]


@pytest.mark.parametrize("kind", [Prints, Apart])
def test_a_subclassed_name_settles_as_its_characters(kind: type[str]) -> None:
    plain = _shown({"win:1": 100, "lose:2": 10})
    assert _shown({kind("win:1"): 100, kind("lose:2"): 10}) == plain
    by_player = _shown({"ann": {"win:1": 100}, "bob": {"win:1": 5}})
    assert _shown({kind("ann"): {kind("win:1"): 100}, "bob": {"win:1": 5}}) == by_player


@pytest.mark.parametrize("bets", [
    {Apart("win:1"): 100, "win:1": 100},
    {Apart("win:1"): 100, Apart("win:1"): 50},
    {"ann": {Apart("win:1"): 100, "win:1": 1}},
])
def test_one_bet_named_twice_is_refused(bets: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"'win:1' is staked twice"):
        settle(ONLINE, BANKER, HANDS, bets)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"'win:1' is staked twice"):
        Game(ONLINE, seed=1).play(bets)  # type: ignore[arg-type]


def test_one_player_named_twice_is_refused_or_kept_apart_by_text() -> None:
    """Two keys of one player's text are one player: their slips may not both be given."""
    with pytest.raises(ValueError, match=r"'win:1' is staked twice by 'ann'"):
        settle(ONLINE, BANKER, HANDS, {Apart("ann"): {"win:1": 100}, "ann": {"win:1": 5}})


def test_a_game_records_what_it_settled() -> None:
    """The record's slip and its results name the same bets, stakes and players as a plain slip's."""
    plain = Game(MACAU, seed=5).play({"ann": {"win:1": 100, "point:0": 10}})
    odd = Game(MACAU, seed=5).play({Prints("ann"): {Prints("win:1"): 100, Apart("point:0"): 10}})
    assert odd.to_json() == plain.to_json()


def test_a_session_carries_stakes_by_their_characters() -> None:
    seat, twin = TableSession(MACAU), TableSession(MACAU)
    tie = ("9c 9d 5h", {1: "9h 9s 5c"})
    seat.settle(*tie, {Apart("win:1"): 100})
    twin.settle(*tie, {"win:1": 100})
    assert dict(seat.carried) == dict(twin.carried) == {"win:1": 100}
    with pytest.raises(ValueError, match="may be increased, not reduced"):
        seat.settle(*tie, {Prints("win:1"): 50})


def test_canonical_bytes_read_keys_as_their_characters() -> None:
    assert canonical_json({Prints("win:1"): 1}) == canonical_json({"win:1": 1}) == json.dumps({"win:1": 1},
                                                                                              separators=(",", ":")).encode()
    with pytest.raises(ValueError, match="given twice"):
        canonical_json({Apart("a"): 1, "a": 2})
