"""A game's records written through the core's template (``records.RoundWriter``:
``Game.play`` and ``Game.lines`` of a game of its own generator, a shoe dealt ahead) are
byte for byte the records of the per-record path (``make_record`` on a shoe dealt round by
round, ``RoundRecord.to_json``: the path a game of a given ``rng`` takes, and every game
with ``_game._FAST`` off), and ``verify_log`` accepts them; ``write_line`` (the writer's
kernel) agrees between the implementations and with ``check_line``."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sanggong import Game, _core
from sanggong._kernels import twin as _pykernels
from sanggong.dealing import _game
from sanggong.records import RoundRecord
from sanggong.records._record import json_line
from sanggong.rules import PRESETS, RuleSet, as_rules
from sanggong.settlement import check_slip
from sanggong.verify import verify_log

pytestmark = pytest.mark.kernels

ROUNDS = 40  # several shoes of every preset (a fresh-deck table: every round)


def _stakes(rules: RuleSet) -> list[str]:
    """Up to three bets the table offers that a slip may hold alone (no Tie without its Win)."""
    out = []
    for name in rules.bets:
        try:
            check_slip(rules, {name: 10})
        except ValueError:
            continue
        out.append(name)
    # a bet that ties often (a Win bet, which a Macau tie carries) first, where there is one
    out.sort(key=lambda n: (not n.startswith("win"), n))
    return out[:3]


def _slips(rules: RuleSet) -> dict[str, dict[str, Any]]:
    a, *rest = _stakes(rules)
    b = rest[0] if rest else a
    return {
        "none": {},
        "int": {a: 100, b: 10} if a != b else {a: 100},
        "decimal by player": {"ann": {a: Decimal("2.5"), b: Decimal("1.25")}, "bob": {a: Decimal("7")}},
        "fraction by player": {"ann": {a: Fraction(5, 2)}, "bob": {b: Fraction(1, 3)}},
    }


def _old(rules: RuleSet, slip: dict[str, Any], key: bytes | None, monkeypatch: pytest.MonkeyPatch,
         rounds: int = ROUNDS) -> tuple[list[RoundRecord], list[str], Any]:
    """The per-record path's records, their lines (the seal's last) and what it carries."""
    with monkeypatch.context() as patch:
        patch.setattr(_game, "_FAST", False)
        game = Game(rules, seed=2024, key=key, recall=0)
        assert not game._shoe.ahead
        records = [game.play(slip) for _ in range(rounds)]
        lines = [json_line(r.to_dict()) for r in records]  # (the record writers' own text)
        return records, lines + [game.close().to_json()], dict(game.carried)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("key", [None, b"operator key"])
def test_play_and_lines_write_the_per_record_path_s_bytes(name: str, key: bytes | None,
                                                          monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules = as_rules(name)
    for label, slip in _slips(rules).items():
        old_records, old_lines, old_carried = _old(rules, slip, key, monkeypatch)
        game = Game(rules, seed=2024, key=key, recall=0)
        assert game._shoe.ahead
        records = [game.play(slip) for _ in range(ROUNDS)]
        lines = [r.to_json() for r in records] + [game.close().to_json()]
        assert lines == old_lines, (name, label)
        assert records == old_records  # every public field (equality: all but prev and hmac)
        for new, old in zip(records, old_records, strict=True):
            assert (new.prev, new.hmac, new.hash, new.canonical) == (old.prev, old.hmac, old.hash, old.canonical)
            assert [h.cards for h in new.hands.values()] == [h.cards for h in old.hands.values()]
            assert new.banker is not None and old.banker is not None
            assert (new.banker.cards, new.banker.hand_class) == (old.banker.cards, old.banker.hand_class)
            assert new.winners == old.winners and new.shoe_state == old.shoe_state
            assert json_line(new.to_dict()) == new.to_json()  # the line kept is the writers' text
        assert dict(game.carried) == old_carried and list(game.carried) == list(old_carried)

        streamed = Game(rules, seed=2024, key=key, recall=0)
        written = list(streamed.lines(ROUNDS, slip)) + [streamed.close().to_json()]
        assert written == old_lines, (name, label)

        log = tmp_path / f"{label}.jsonl"
        log.write_text("".join(line + "\n" for line in written), encoding="utf-8")
        report = verify_log(log, key=key)
        assert report.ok and report.sealed and report.records == ROUNDS + 1, report


def test_lines_keep_records_and_mix_with_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that keeps records keeps those ``lines`` plays; ``lines`` and ``play`` go on
    from each other mid-shoe, as one game."""
    rules = as_rules("macau")
    slip = {"win:1": 100, "odd": 5}
    _, old_lines, _ = _old(rules, slip, b"k", monkeypatch, rounds=50)
    game = Game(rules, seed=2024, key=b"k", recall=5)
    lines = [game.play(slip).to_json() for _ in range(3)]
    lines += list(game.lines(20, slip))
    assert [r.to_json() for r in game.records] == lines[-5:]
    lines += [game.play(slip).to_json() for _ in range(7)]
    lines += list(game.lines(20, slip))
    assert lines + [game.close().to_json()] == old_lines


def test_a_game_of_a_given_generator_writes_the_same_lines() -> None:
    """A game of the caller's generator deals round by round (the generator is the
    caller's too: nothing is drawn ahead), and ``lines`` are its records' lines."""
    generator = np.random.PCG64(9)
    game = Game("macau", rng=generator, key=b"k", recall=0)
    assert not game._shoe.ahead
    other = Game("macau", rng=np.random.PCG64(9), key=b"k", recall=0)
    assert list(game.lines(30, {"win:1": 10})) == [other.play({"win:1": 10}).to_json() for _ in range(30)]


def test_a_record_s_mutable_fields_are_its_own() -> None:
    """Records written from one settlement share nothing a caller can change."""
    game = Game("macau", seed=1)
    first, second = game.play({"win:1": 100}), game.play({"win:1": 100})
    assert first.bets is not second.bets and first.results[0] is not second.results[0]
    first.results[0]["net"] = 10**9
    first.bets["win:1"] = 1  # type: ignore[index]
    third = game.play({"win:1": 100})
    assert third.results[0]["net"] != 10**9 and third.bets == {"win:1": 100}
    assert json_line(third.to_dict()) == third.to_json()
    changed = dataclasses.replace(third, bets={"win:1": 200})
    assert changed.to_json() == json_line(changed.to_dict())  # (a changed record writes its own text)


@pytest.mark.parametrize(("rounds", "error"), [(-1, ValueError), (1.5, TypeError), (True, TypeError)])
def test_lines_checks_its_rounds_before_it_deals(rounds: Any, error: type[Exception]) -> None:
    game = Game("macau", seed=1)
    with pytest.raises(error, match="rounds"):
        game.lines(rounds)
    assert game.round == 0


def test_lines_raise_as_play_does() -> None:
    game = Game("macau", seed=1)
    with pytest.raises(ValueError, match="unknown bet"):
        list(game.lines(3, {"nope": 1}))
    with pytest.raises(TypeError):
        list(game.lines(3, {"win:1": 1.5}))  # type: ignore[dict-item]
    assert game.round == 0  # checked before any card came out
    assert len(list(game.lines(2, {"win:1": 1}))) == 2
    game.close()
    with pytest.raises(ValueError, match="closed"):
        list(game.lines(1))


def _rendered(kernels: Any, signed: bool) -> tuple[bytes, tuple[bytes, ...], tuple[bytes, ...], bytes, bytes | None]:
    """A round rendered by ``kernels`` and its line as the game wrote it."""
    from sanggong._logline import pack, unpack
    from sanggong.verify._fastlog import FastReplay

    key = b"k" if signed else None
    game = Game("macau", seed=3, key=key, recall=0)
    line = next(game.lines(1, {"win:1": 100})).encode()
    record = RoundRecord.from_json(line)
    fast = FastReplay(as_rules("macau"), record, key)
    rendered = pack(*unpack(fast.shoe_rounds[0]))
    data = record.to_dict()
    money, bets, results, carried = (json_line(data[f]).encode() for f in ("money", "bets", "results", "carried"))
    from sanggong._canonical import canonical_json

    c = {f: canonical_json(data[f]) for f in ("money", "bets", "results", "carried")}
    prev = b'"%s"' % record.prev.encode()
    return rendered, (c["bets"], c["carried"], c["money"], prev, c["results"]), \
        (money, bets, results, carried, prev), line, key


@pytest.mark.parametrize("signed", [False, True])
def test_write_line_is_check_line_s_writer_in_both_implementations(signed: bool) -> None:
    rendered, canonical_owns, line_owns, line, key = _rendered(_core, signed)
    written = [k.write_line(rendered, canonical_owns, line_owns, key) for k in (_core, _pykernels)]
    assert written[0] == written[1]
    out, canonical, digest = written[0]
    assert out == line
    record = RoundRecord.from_json(line)
    assert canonical == record.canonical and digest == record.hash
    for kernels in (_core, _pykernels):
        assert kernels.check_line(out, rendered, canonical_owns, line_owns, 1 if signed else 0, key) == \
            b'"%s"' % digest.encode()


@pytest.mark.parametrize("kernels", [_core, _pykernels], ids=["cython", "python"])
def test_write_line_refuses_what_does_not_fit(kernels: Any) -> None:
    rendered, canonical_owns, line_owns, _, key = _rendered(_core, True)
    with pytest.raises(ValueError, match="holes"):
        kernels.write_line(rendered, canonical_owns, line_owns, None)  # a signed template, no key
    with pytest.raises(ValueError, match="holes"):
        kernels.write_line(rendered, canonical_owns[:4], line_owns, key)
    with pytest.raises(TypeError, match="key"):
        kernels.write_line(rendered, canonical_owns, line_owns, "k")
    with pytest.raises(TypeError, match="piece"):
        kernels.write_line(rendered, (*canonical_owns[:4], "x"), line_owns, key)
    with pytest.raises(ValueError, match="rendered"):
        kernels.write_line(rendered[:-1], canonical_owns, line_owns, key)


def test_look_alike_slips_are_kept_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slips equal as numbers but not as stakes written (``Decimal("2.5")``, ``"2.50"``,
    ``Fraction(5, 2)``; an int and a Decimal; a bet staked alone or by a player) each
    write their own record: the kept slips (``slip_key``) never hand one the other's text."""
    rules = as_rules("macau")
    slips: list[dict[str, Any]] = [
        {"win:1": Decimal("2.5")}, {"win:1": Decimal("2.50")}, {"win:1": Fraction(5, 2)},
        {"win:1": 3}, {"win:1": Decimal("3")}, {"ann": {"win:1": Decimal("2.5")}}, {"ann": {"win:1": Fraction(5, 2)}},
        {"win:1": True},  # (not a stake: refused alike, nothing kept)
    ]

    def play_all(game: Game) -> list[str]:
        out = []
        for i in range(3 * len(slips)):
            try:
                out.append(game.play(slips[i % len(slips)]).to_json())
            except (TypeError, ValueError) as exc:
                out.append(f"{type(exc).__name__}: {exc}")
        return out

    with monkeypatch.context() as patch:
        patch.setattr(_game, "_FAST", False)
        old = play_all(Game(rules, seed=5, key=b"k", recall=0))
    new = play_all(Game(rules, seed=5, key=b"k", recall=0))
    assert new == old
    records = [line for line in new if line.startswith("{")]
    assert len(records) == 3 * (len(slips) - 1) == len(set(records))  # (each round its own record; True refused)
