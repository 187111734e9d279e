"""A log cut short is caught: the seal (``Game.close()``, ``records.SealRecord``), and
``verify_log``'s ``require_seal`` and ``expect_last`` (``--require-seal``, ``--expect-last``).

A hash chain shows nothing of records removed from its end: without a seal or an anchored
last hash, a log cut short verifies ok. Each verdict here is checked by the fast pass and by
the full checks alone (``verify._FAST`` off): they must agree."""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sanggong import MACAU, Game
from sanggong.cli import main
from sanggong.detection import detect
from sanggong.records import SealRecord, Totals, canonical_bytes, record_hash, record_hmac, stakes_of, write_log
from sanggong.verify import LogReader, VerifyReport, verify_log
from sanggong.verify import _log as verify_module

pytestmark = pytest.mark.kernels

KEY = b"operator key"
SLIPS: list[dict[str, Any]] = [{"win:1": 100, "tie:1": 10, "odd": 5}, {"win:2": 40, "even": 25}, {}]
KINDS = {"int": SLIPS,  # (a game's stakes are of one kind: a stake carried keeps its kind)
         "fraction": [{"win:1": Fraction(7, 3), "tie:1": Fraction(1, 7)}, {"win:2": Fraction(5, 11)}, {}],
         "decimal": [{"win:1": Decimal("12.50"), "odd": Decimal("0.05")}, {"even": Decimal("3")}, {}]}


def _game(rounds: int = 120, key: bytes | None = KEY, seed: int = 5,
          slips: list[dict[str, Any]] = SLIPS) -> tuple[list[Any], SealRecord]:
    game = Game(MACAU, seed=seed, key=key, recall=0)
    records = [game.play(slips[i % len(slips)]) for i in range(rounds)]
    return records, game.close()


def _lines(records: list[Any]) -> list[str]:
    return [r.to_json() for r in records]


def _verify(lines: list[str], monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> VerifyReport:
    """``verify_log`` by the fast pass and by the full checks alone: the same report."""
    fast = verify_log(lines, **kwargs)
    with monkeypatch.context() as patch:
        patch.setattr(verify_module, "_FAST", False)
        full = verify_log(lines, **kwargs)
    assert fast == full
    return fast


def _resigned(data: dict[str, Any], key: bytes | None) -> str:
    """A record's JSON object with its hash (and HMAC under ``key``) made again: a forger's
    edit that keeps the record self-consistent."""
    data["hash"] = record_hash(data)
    if key is not None:
        data["hmac"] = record_hmac(data, key)
    return json.dumps(data, separators=(",", ":"))


# --- the seal's totals, from an independent reading of the records -----------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_the_seals_totals_are_the_records_money(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    records, seal = _game(slips=KINDS[kind])
    staked = returned = commission = net = Fraction(0)
    before: dict[Any, Any] = {}
    for record in records:  # a stake carried into a round was staked before it
        staked += sum(map(Fraction, stakes_of(record.bets).values())) - sum(map(Fraction, before.values()))
        before = stakes_of(record.carried)
        returned += sum(Fraction(r["returned"]) for r in record.results)
        commission += sum(Fraction(r["commission"]) for r in record.results)
        net += sum(Fraction(r["net"]) for r in record.results)
    left = sum(map(Fraction, before.values()), Fraction(0))
    assert any(r.carried for r in records) and commission > 0  # (the game carries stakes, and keeps commission)
    assert (seal.staked, seal.returned, seal.commission, seal.on_table, seal.house_net) == \
        (staked, returned, commission, left, -net)
    assert (seal.rounds, seal.shoes, seal.seed, seal.prev) == (records[-1].round, records[-1].shoe, 5, records[-1].hash)
    assert seal.hmac == record_hmac(seal, KEY) and seal.hash == record_hash(json.loads(seal.to_json()))
    report = _verify(_lines(records) + [seal.to_json()], monkeypatch, key=KEY)
    assert report.ok and report.sealed and report.seal_totals


def test_totals_keep_exact_sums_of_many_denominators(monkeypatch: pytest.MonkeyPatch) -> None:
    from sanggong.records import _seal

    monkeypatch.setattr(_seal, "_MOST_DENOMINATORS", 3)  # (the sums added up as they go)
    totals, expected = Totals(), Fraction(0)
    for d in range(1, 40):
        totals.add([(0, 1, d), (1, 2, d)], times=d % 4)
        expected += Fraction(d % 4, d)
    values = totals.values({})
    assert values is not None and values["staked"] == expected and values["returned"] == 2 * expected
    assert values["house_net"] == -expected


def test_a_seal_too_long_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from sanggong.records import _seal

    game = Game(MACAU, seed=1)
    game.play({"win:1": Fraction(1, 999_983)})
    monkeypatch.setattr(_seal, "MAX_TOTAL_TEXT", 8)
    with pytest.raises(ValueError, match="longer than a seal holds"):
        game.close()
    assert not game.sealed  # (not closed: it can be closed once the limit allows)


def test_a_closed_game_plays_no_more() -> None:
    game = Game(MACAU, seed=2)
    with pytest.raises(ValueError, match="no round"):
        game.close()
    game.play({"win:1": 10})
    game.close()
    assert game.sealed
    for call in (lambda: game.play({"win:1": 10}), game.deal, game.close):
        with pytest.raises(ValueError, match="closed after round 1"):
            call()


def test_an_observed_table_seals_its_log_as_a_game_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from sanggong import ObservedTable

    rules = MACAU.replace(decks=2, positions=1)
    table = ObservedTable(rules, key=KEY)
    records = [table.play("Ah Kh Qs 9d 5s 6s 7s 8s", {"win:1": 100}), table.void("Qh 2c", {"win:1": 10}),
               table.play("Jh 2h 3s 4d 5c 6h 7d", {"win:1": 50})]
    seal = table.close()
    assert seal.seed is None and seal.rounds == 3 and seal.prev == records[-1].hash
    assert seal.house_net == -sum(Fraction(r["net"]) for record in records for r in record.results)
    lines = _lines(records) + [seal.to_json()]
    report = _verify(lines, monkeypatch, rules=rules, key=KEY, require_seal=True)
    assert report.ok and report.sealed and report.seal_totals and report.void_rounds == 1
    assert not _verify(lines[:-2], monkeypatch, rules=rules, key=KEY, require_seal=True).ok
    with pytest.raises(ValueError, match="closed after round 3"):
        table.play("Td 2d 3d 4s 5h 6d 7c")


# --- reading a seal strictly -------------------------------------------------------------------


def test_a_seal_is_read_strictly() -> None:
    records, seal = _game(12)
    line = seal.to_json()
    assert SealRecord.from_json(line) == seal and SealRecord.from_json(line).hmac == seal.hmac
    assert canonical_bytes(json.loads(line)) == seal.canonical
    data = json.loads(line)
    for field, value, error in (("staked", "2/4", "lowest terms"), ("staked", 5, "written as a string"),
                                ("staked", "1.", "an amount such as"), ("rounds", 0, "rounds"),
                                ("type", "round", "field 'type'"), ("prev", "0", "hex")):
        with pytest.raises((ValueError, TypeError), match=error):
            SealRecord.from_dict({**data, field: value})
    with pytest.raises(ValueError, match="hash does not match"):
        SealRecord.from_dict({**data, "staked": str(seal.staked + 1)})
    with pytest.raises(ValueError, match="not a field of a record"):
        SealRecord.from_dict({**data, "extra": 1})
    from sanggong.records import RoundRecord

    with pytest.raises(ValueError, match="'type'"):  # a round's reader refuses a seal
        RoundRecord.from_json(line)
    with pytest.raises(ValueError, match="not a field of a record"):  # and the seal's a round
        SealRecord.from_dict({**json.loads(records[0].to_json()), "type": "seal"})


# --- verify: the seal holds, and a log cut short is caught --------------------------------------


def test_a_sealed_log_verifies_and_one_cut_short_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    records, seal = _game()
    lines = _lines(records) + [seal.to_json()]
    report = _verify(lines, monkeypatch, key=KEY, require_seal=True, expect_last=seal.hash)
    assert report.ok and report.sealed and report.seal_totals and report.records == len(records) + 1
    assert report.last_hash == seal.hash and str(report).endswith(", sealed")
    for cut in (lines[:-1], lines[:-2]):  # the seal removed; the last round and the seal removed
        report = _verify(cut, monkeypatch, key=KEY)
        assert report.ok and not report.sealed and str(report).endswith(", not sealed")  # (a chain cannot tell)
        report = _verify(cut, monkeypatch, key=KEY, require_seal=True)
        assert report.status == "bad" and "not sealed" in str(report) and f"line {len(cut)}" in str(report)
        report = _verify(cut, monkeypatch, key=KEY, expect_last=seal.hash)
        last = records[len(cut) - 1].hash
        assert report.status == "bad" and seal.hash in str(report) and last in str(report)
        assert report.last_hash == last
    report = _verify(lines[:-2], monkeypatch, key=KEY, expect_last=records[-2].hash)  # anchored where it ends
    assert report.ok and not report.sealed


@pytest.mark.parametrize("where", ["moved", "doubled", "after"])
def test_a_seal_out_of_place_is_bad(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    records, seal = _game(60)
    lines = _lines(records)
    if where == "moved":  # to the middle: it does not follow the round before it
        lines.insert(30, seal.to_json())
        expected = "line 31: prev is not the hash of line 30"
    elif where == "doubled":
        lines += [seal.to_json()] * 2
        expected = "line 62: a record after the seal on line 61"
    else:  # a round after the seal: the next round of the same game, chained to the last round
        more, _ = _game(61)
        assert _lines(more[:60]) == lines
        lines += [seal.to_json(), more[60].to_json()]
        expected = "line 62: a record after the seal on line 61"
    for key in (KEY, None):
        report = _verify(lines, monkeypatch, key=key)
        assert report.status == "bad" and expected in str(report), report


def test_a_seal_edited_or_forged_is_bad(monkeypatch: pytest.MonkeyPatch) -> None:
    records, seal = _game(80)
    lines = _lines(records)
    data = json.loads(seal.to_json())
    edited = json.dumps({**data, "house_net": str(seal.house_net + 1)}, separators=(",", ":"))
    report = _verify(lines + [edited], monkeypatch)
    assert report.status == "bad" and "line 81: the seal: hash does not match" in str(report)
    # totals edited, the hash made again: the HMAC fails with the key, the totals without it
    for field in ("staked", "returned", "commission", "on_table", "house_net"):
        forged = _resigned({**data, field: str(getattr(seal, field) + 5)}, None)
        assert "HMAC does not match" in str(_verify(lines + [forged], monkeypatch, key=KEY))
        report = _verify(lines + [forged], monkeypatch)
        assert report.status == "bad" and f"the seal: field {field!r} is" in str(report), report
    # signed under another key: the HMAC fails
    forged = _resigned(dict(data), b"another key")
    assert "line 81: HMAC does not match" in str(_verify(lines + [forged], monkeypatch, key=KEY))
    # the signature removed: a signed log's records are all signed, key or no key
    unsigned = dict(data)
    del unsigned["hmac"]
    assert "has no HMAC, but line 1 has one" in str(_verify(lines + [json.dumps(unsigned)], monkeypatch))
    # the rounds and shoes of another place, the hash and HMAC made again by the key's holder
    for field, value in (("rounds", seal.rounds - 1), ("shoes", seal.shoes + 1), ("seed", "6")):
        report = _verify(lines + [_resigned({**data, field: value}, KEY)], monkeypatch, key=KEY)
        assert report.status == "bad" and f"the seal: field {field!r}" in str(report), report
    # a log cut short and sealed again without the key: its chain holds, its HMAC does not
    cut = records[:70]
    again = dataclasses.replace(seal, rounds=70, prev=cut[-1].hash, hmac=None)
    report = _verify(_lines(cut) + [again.to_json()], monkeypatch, key=KEY)
    assert report.status == "bad" and "line 71" in str(report)


def test_a_seal_alone_is_bad_but_may_close_a_log_that_continues(monkeypatch: pytest.MonkeyPatch) -> None:
    records, seal = _game(40)
    assert "a seal with no round before it" in str(_verify([seal.to_json()], monkeypatch))
    report = _verify([seal.to_json()], monkeypatch, start_prev=records[-1].hash, key=KEY)
    assert report.ok and report.sealed and not report.seal_totals and "totals not checked" in str(report)
    report = _verify(_lines(records[20:]) + [seal.to_json()], monkeypatch, start_prev=records[19].hash, key=KEY)
    assert report.ok and report.sealed and not report.seal_totals


def test_the_fast_pass_counts_the_money_of_settlements_it_does_not_keep(monkeypatch: pytest.MonkeyPatch) -> None:
    from sanggong.verify import _fastlog

    monkeypatch.setattr(_fastlog, "_MOST_KEPT", 2)
    monkeypatch.setattr(_fastlog, "_MOST_LOOSE", 3)
    records, seal = _game(150, key=None)
    lines = _lines(records)
    assert verify_log(lines + [seal.to_json()], require_seal=True).ok
    forged = _resigned({**json.loads(seal.to_json()), "returned": str(seal.returned - 1)}, None)
    assert "the seal: field 'returned'" in str(verify_log(lines + [forged]))


# --- readers of a sealed log: LogReader, detect ----------------------------------------------


def test_readers_take_the_seal_as_the_end_of_the_rounds(tmp_path: Path) -> None:
    game = Game(MACAU, seed=9, recall=0)
    records = [game.play({"p": {"win:1": 10}, "q": {"odd": 5 + i % 3 * 20}}) for i in range(300)]
    seal = game.close()
    sealed, plain = tmp_path / "sealed.jsonl", tmp_path / "plain.jsonl"
    assert write_log([*records, seal], sealed) == 301 and write_log(records, plain) == 300
    reader = LogReader(sealed, require_seal=True)
    assert list(reader) == records and reader.report().ok and reader.report().sealed
    assert detect(sealed).to_dict() == detect(plain).to_dict()
    assert detect(sealed, verify=True).records == 300
    with sealed.open("a", encoding="utf-8") as log:
        log.write(records[0].to_json() + "\n")
    with pytest.raises(ValueError, match="a record after the seal"):
        detect(sealed)


# --- the command line ---------------------------------------------------------------------------


def test_the_command_line_seals_and_catches_a_log_cut_short(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key"
    key.write_bytes(KEY)
    assert main(["deal", "--rules", "macau", "--rounds", "30", "--seed", "4", "--json", "--key-file", str(key)]) == 0
    lines = capsys.readouterr().out.splitlines()
    seal = SealRecord.from_json(lines[-1])
    assert len(lines) == 31 and seal.rounds == 30 and seal.prev == json.loads(lines[-2])["hash"]
    log, cut = tmp_path / "log.jsonl", tmp_path / "cut.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cut.write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")
    signed = ["--key-file", str(key)]
    assert main(["verify", *signed, "--require-seal", "--expect-last", seal.hash, str(log)]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and ", sealed" in out and out.rstrip().endswith(f"last hash {seal.hash}")
    assert main(["verify", *signed, str(cut)]) == 0
    out = capsys.readouterr().out
    last = json.loads(lines[-3])["hash"]
    assert "not sealed" in out and out.rstrip().endswith(f"last hash {last}")
    assert main(["verify", *signed, "--require-seal", str(cut)]) == 1
    assert "the log is not sealed" in capsys.readouterr().out
    assert main(["verify", *signed, "--expect-last", seal.hash, str(cut)]) == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and seal.hash in out and last in out
    assert main(["verify", *signed, "--json", str(log)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sealed"] is True and report["last_hash"] == seal.hash
    for bad in ("abc", seal.hash.upper(), seal.hash + "0"):
        assert main(["verify", "--expect-last", bad, str(log)]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "--expect-last" in err and "Traceback" not in err
    assert main(["verify", "--key-file", str(tmp_path / "missing"), str(log)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--key-file" in err and "cannot read the key" in err
