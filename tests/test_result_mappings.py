"""A result that looks like a mapping is one: every public result type indexed by name
(found from ``sanggong.__all__``, not listed by hand) is a ``collections.abc.Mapping``
whose ``in``, iteration, ``len``, ``keys()``, ``items()``, ``get()`` and ``dict()`` agree
with its indexing and with what was asked of it, and a name it does not hold is a
``KeyError`` naming the closest it does (``rules._values.did_you_mean``)."""

from __future__ import annotations

import dataclasses
import doctest
import inspect
import pickle
from collections.abc import Callable, Mapping
from typing import Any

import pytest

import sanggong
import sanggong._presentation
from sanggong import MACAU, Analysis, Detection, Game, PlayResult, Settlement, analyze, detect, play_shoes, settle

SMALL = MACAU.replace(name="small", decks=1, positions=2)
BANKER, HANDS = "Kh Qs 9d", {1: "As 2d 3c", 2: "4h 4d 4c"}
SLIP = {"win:1": 100, "odd": 5, "point:7": 10}
BY_PLAYER = {"ann": {"win:1": 100, "odd": 5}, "bo": {"win:2": 20, "odd": 5}}


def _indexed_by_name() -> set[type]:
    """The public classes that define ``__getitem__`` (a tuple's is by position, not name)."""
    found = set()
    for name in sanggong.__all__:
        value = getattr(sanggong, name)
        if inspect.isclass(value) and not issubclass(value, tuple) and any(
                "__getitem__" in vars(k) for k in value.__mro__ if k is not object):
            found.add(value)
    return found


def _played() -> list[Any]:
    game = Game(SMALL, 7)
    return [game.play(BY_PLAYER) for _ in range(3)]


# Each result indexed by name, built by its public function on small inputs, with the keys
# it must hold in their order, from what was asked of it (not from the result).
BUILDERS: dict[str, tuple[type, Callable[[], Any], Callable[[Any], list[Any]]]] = {
    "analyze": (Analysis, lambda: analyze(SMALL), lambda r: list(SMALL.bets)),
    "play_shoes": (PlayResult, lambda: play_shoes(SMALL, 1, "perfect", seed=1, workers=1, bets=["win:1", "odd"]),
                   lambda r: ["win:1", "odd"]),
    # (ordered by p-value: the order is the players', the set the slip's)
    "detect": (Detection, lambda: detect(_played(), SMALL), lambda r: [p.id for p in r.players]),
    "settle": (Settlement, lambda: settle(SMALL, BANKER, HANDS, SLIP), lambda r: list(SLIP)),
    "settle by player": (Settlement, lambda: settle(SMALL, BANKER, HANDS, BY_PLAYER),
                         lambda r: [(p, b) for p, slip in BY_PLAYER.items() for b in slip]),
}


def test_every_public_result_indexed_by_name_is_walked() -> None:
    """Names, not kernels: run once. A new result type indexed by name fails here until it
    has a builder above (and so is walked)."""
    assert _indexed_by_name() == {kind for kind, _, _ in BUILDERS.values()}
    assert set(sanggong.__all__) >= {kind.__name__ for kind in _indexed_by_name()}


def _typo(name: str) -> str:
    """A near miss of ``name``: its second character dropped (``win:1`` -> ``wn:1``)."""
    return name[0] + name[2:]


@pytest.mark.kernels
@pytest.mark.parametrize("which", list(BUILDERS))
def test_a_result_indexed_by_name_is_a_mapping(which: str) -> None:
    kind, build, wanted = BUILDERS[which]
    result = build()
    keys = wanted(result)
    assert type(result) is kind
    if which == "detect":
        assert set(keys) == set(BY_PLAYER)

    # in, iteration, len, keys, [], get, items, values, dict: one view of the same pairs
    assert keys[0] in result  # (main: KeyError: 0, the sequence protocol's first index)
    assert list(result) == keys and len(result) == len(keys) == len(set(keys)) > 0
    assert isinstance(result, Mapping) and list(result.keys()) == keys
    assert set(result) == set(keys) and bool(result)
    by_field = {k: result[k] for k in keys}
    assert all(k in result and result.get(k) is by_field[k] for k in keys)
    assert dict(result) == by_field and list(result.items()) == list(by_field.items())
    assert list(result.values()) == list(by_field.values())
    for k, v in by_field.items():  # each value is the one of that name, as its own fields say
        name = k[1] if isinstance(k, tuple) else k
        assert getattr(v, "id", None) == name if which == "detect" else v.bet == name
        if isinstance(k, tuple):
            assert v.player == k[0]

    # a near miss: not held, and its KeyError names the closest name held
    for k in keys:
        near = (k[0], _typo(k[1])) if isinstance(k, tuple) else _typo(k)
        if near in keys:
            continue
        assert near not in result and result.get(near) is None and result.get(near, 7) == 7
        with pytest.raises(KeyError) as info:
            result[near]
        closest = k[1] if isinstance(k, tuple) else k
        message = str(info.value)
        assert "did you mean" in message and repr(closest) in message.partition("did you mean")[2], message
        assert type(info.value) is KeyError

    # anything else that is no name: never there, a short KeyError, never another error
    for junk in (0, None, 1.5, ("a", "b", "c"), (None, keys[0]), "x" * 100_000, 2**200, "", object()):
        assert junk not in result and result.get(junk) is None
        with pytest.raises(KeyError) as info:
            result[junk]
        assert len(str(info.value)) < 1000

    # what was there before stays: the dataclass's repr, equality (never a dict's), frozen
    assert repr(result).startswith(f"{kind.__name__}(")
    assert result == dataclasses.replace(result) and result != by_field and by_field != result
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.rules = None
    if kind is not Settlement:  # (its hands are a mappingproxy, which never pickled)
        assert pickle.loads(pickle.dumps(result)) == result


@pytest.mark.kernels
def test_a_round_without_bets_is_an_empty_mapping() -> None:
    empty = settle(SMALL, BANKER, HANDS, {})
    assert len(empty) == 0 and list(empty) == [] and dict(empty) == {} and not empty
    with pytest.raises(KeyError, match="its bets: none"):
        empty["win:1"]


@pytest.mark.kernels
def test_a_settlement_says_how_it_is_indexed() -> None:
    """A name on a slip by player, a pair on a slip of bets alone, an unknown player."""
    by_player, alone = settle(SMALL, BANKER, HANDS, BY_PLAYER), settle(SMALL, BANKER, HANDS, SLIP)
    with pytest.raises(KeyError, match=r"a slip by player: index it by \(player, bet\)"):
        by_player["win:1"]
    with pytest.raises(KeyError, match=r"a slip of bets alone: index it by bet.*'win:1'"):
        alone["ann", "win:1"]
    with pytest.raises(KeyError, match=r"\('an', 'win:1'\) \(did you mean 'ann'\?\)"):
        by_player["an", "win:1"]
    assert by_player["ann", "win:1"] is by_player.of("ann")[0]


def test_the_message_helper() -> None:
    """Names, not kernels: its example runs, and it lists at most ten names."""
    assert doctest.testmod(sanggong._presentation, optionflags=doctest.ELLIPSIS).failed == 0
    many = [f"bet{i}" for i in range(30)]
    text = str(sanggong._presentation.missing("bet", "zz", "analysis", "its bets", many))
    assert text.count("'bet") == 10 and "(30 in all)" in text and "did you mean" not in text
