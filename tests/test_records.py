"""Round records a regulator can rely on: strict reading, replays that derive every
field, the hash chain and HMAC, log verification (``sanggong.records`` and
``sanggong.verify``), and the observed shoe's cut card."""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import hmac
import importlib
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanggong import MACAU, ONLINE, Game, ObservedTable, RoundRecord, limits, records, verify
from sanggong.records import (
    REPLAYABLE,
    ZERO_HASH,
    bit_generator_from_state,
    canonical_bytes,
    check_key,
    check_rules,
    check_state,
    record_hash,
    record_hmac,
    rules_digest,
    state_json,
    write_log,
)
from sanggong.verify import VerifyReport, verify_log

KEY = b"the operator's key"
SMALL_SHOE = MACAU.replace(name="small shoe", decks=2, positions=3, cut_card_range=(20, 24))


# --- an independent implementation of the documented canonical form ------------------------


def canonical(data: dict[str, Any]) -> bytes:
    """The module docstring's recipe, written again here."""
    body = {k: v for k, v in data.items() if k not in ("hash", "hmac")}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def seal(data: dict[str, Any], key: bytes | None = None) -> dict[str, Any]:
    """Recompute a record's hash (and HMAC), as someone who edits a record would."""
    data["hash"] = hashlib.sha256(canonical(data)).hexdigest()
    if key is not None:
        data["hmac"] = hmac.new(key, canonical(data), hashlib.sha256).hexdigest()
    return data


def rechain(dicts: list[dict[str, Any]], key: bytes | None = None) -> list[str]:
    """Rewrite the whole chain after an edit (what the key's holder could do)."""
    prev = ZERO_HASH if dicts[0]["round"] == 1 else dicts[0]["prev"]
    for d in dicts:
        d["prev"] = prev
        prev = seal(d, key)["hash"]
    return [json.dumps(d, ensure_ascii=False) for d in dicts]


@functools.cache
def _log(kind: str, key: bytes | None) -> tuple[str, ...]:
    """Logs of a few games (the same cards with both implementations)."""
    if kind == "macau":  # the preset: 8 decks, two shoes and more, carried Win stakes
        game = Game(MACAU, seed=3, key=key)
        return tuple(game.play({"win:1": 100, "tie:1": 10, "odd": 20} if i % 3 == 0 else {}).to_json()
                     for i in range(40))
    if kind == "small":  # about six rounds a shoe
        game = Game(SMALL_SHOE, seed=8, key=key)
        return tuple(game.play({"win:2": 30} if i % 2 else {"win:1": 100, "point:4": 5}).to_json()
                     for i in range(24))
    if kind == "online":
        game = Game(ONLINE, seed=4, key=key)
        return tuple(game.play({"win:1": 100, "lose:2": 50, "pair_plus:banker": 10}).to_json() for _ in range(20))
    if kind == "philox":  # no seed: replayed from the shoe state
        game = Game(SMALL_SHOE, rng=np.random.Philox(3), key=key)
        return tuple(game.play({"odd": Fraction(7, 2)}).to_json() for _ in range(20))
    if kind == "decimal":
        game = Game(SMALL_SHOE, seed=5, key=key)
        return tuple(game.play({"win:1": Decimal("12.50"), "even": Decimal("3")}).to_json() for _ in range(15))
    raise AssertionError(kind)


def log(kind: str, key: bytes | None = None) -> list[str]:
    return list(_log(kind, key))


def dicts(lines: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def rules_of(kind: str) -> Any:
    return {"macau": MACAU, "online": ONLINE}.get(kind, SMALL_SHOE)


def _observed_log(key: bytes | None = None) -> list[str]:
    """A small shoe's cards, read off a game and settled again on an ObservedTable."""
    game = Game(SMALL_SHOE, seed=9)
    table = ObservedTable(SMALL_SHOE, key=key)
    lines = []
    for i in range(20):
        record = game.play({"win:1": 100} if i % 2 else {"win:1": 100, "odd": 7})
        if record.round_in_shoe == 1:
            table.shuffle()  # the game's shoe ran out: the dealer shuffles
        order = [*sorted(record.hands), 0]
        hands = {0: record.banker, **record.hands}
        cards = [*record.burned, *(hands[h].cards[k] for k in range(3) for h in order)]
        lines.append(table.play(cards, {"win:1": 100} if i % 2 else {"win:1": 100, "odd": 7}).to_json())
    return lines


# --- the canonical form, the chain, the HMAC -------------------------------------------------


@pytest.mark.kernels
def test_canonical_form_hash_and_hmac_are_as_documented() -> None:
    lines = log("small", KEY)
    records = [RoundRecord.from_json(line) for line in lines]
    prev = ZERO_HASH
    for line, record in zip(lines, records, strict=True):
        data = json.loads(line)
        assert canonical_bytes(record) == canonical_bytes(data) == canonical(data)
        assert data["prev"] == record.prev == prev
        assert data["hash"] == record.hash == record_hash(data) == hashlib.sha256(canonical(data)).hexdigest()
        assert data["hmac"] == record.hmac == record_hmac(record, KEY)
        assert hmac.new(KEY, canonical(data), hashlib.sha256).hexdigest() == data["hmac"]
        assert data["rules_digest"] == rules_digest(SMALL_SHOE) == SMALL_SHOE.digest()
        prev = data["hash"]
    unkeyed = json.loads(log("small")[0])
    assert "hmac" not in unkeyed and unkeyed["hash"] == json.loads(lines[0])["hash"]  # the HMAC is outside


@pytest.mark.kernels
def test_write_log_and_verify_a_file(tmp_path: Path) -> None:
    game = Game(SMALL_SHOE, seed=8, key=KEY, recall=30)
    for i in range(24):
        game.play({"win:2": 30} if i % 2 else {"win:1": 100, "point:4": 5})
    path = tmp_path / "records.jsonl"
    assert write_log(game.records, path) == 24
    assert path.read_text(encoding="utf-8") == "".join(line + "\n" for line in log("small", KEY))
    report = verify_log(path, rules=SMALL_SHOE, key=KEY)
    assert report == VerifyReport(ok=True, records=24, first_bad=None, round=None, reason=None, replayed=True,
                                  settled=True, authenticated=True, rules="small shoe",
                                  last_hash=game.records[-1].hash, signed=True)
    assert str(report) == "ok: 24 records, rules 'small shoe', chained, HMAC verified, every round replayed, not sealed"
    # a second part of the log continues the first from its last hash
    more = [game.play().to_json() for _ in range(5)]
    assert not verify_log(more, rules=SMALL_SHOE).ok
    assert verify_log(more, rules=SMALL_SHOE, start_prev=report.last_hash).ok
    assert write_log(game.records[-5:], path, append=True) == 5
    assert verify_log(str(path), rules=SMALL_SHOE, key=KEY).records == 29


@pytest.mark.kernels
def test_money_kinds_survive_json() -> None:
    game = Game(MACAU, seed=6)
    for bets in ({"odd": Decimal("1.05")}, {"odd": Fraction(7, 2)}, {"odd": 3}):
        record = game.play(bets)
        back = RoundRecord.from_json(record.to_json())
        assert back == record and type(back.bets["odd"]) is type(bets["odd"])


@pytest.mark.kernels
def test_records_compare_every_field_of_the_round() -> None:
    """Equality covers the shoe state and the rules digest (the chain fields, prev and
    hmac, place a record in its log: verify.verify_log checks them)."""
    game = Game(MACAU, seed=3)
    first, second = game.play(), game.play()
    assert first.shoe_state == second.shoe_state is not None  # one shoe
    assert dataclasses.replace(second, shoe_state={**second.shoe_state, "uinteger": 1}) != second
    assert dataclasses.replace(second, rules_digest="0" * 64) != second
    assert dataclasses.replace(second, prev="1" * 64) == second
    assert second.prev == first.hash and first.prev == "0" * 64


@pytest.mark.kernels
def test_hmac_key_and_rules_helpers() -> None:
    game = Game(SMALL_SHOE, seed=8)
    record = game.play({"win:1": 100})
    sealed = record.with_hmac(KEY)
    assert sealed == record and record.hmac is None
    expected = hmac.new(KEY, canonical(record.to_dict()), hashlib.sha256).hexdigest()
    assert sealed.hmac == record_hmac(record, KEY) == expected
    assert sealed.hash == record.hash and RoundRecord.from_json(sealed.to_json()).hmac == sealed.hmac
    assert Game(SMALL_SHOE, seed=8, key=KEY).play({"win:1": 100}).to_json() == sealed.to_json()
    assert check_key(bytearray(KEY)) == KEY and check_key(None) is None
    with pytest.raises(ValueError, match="key must not be empty"):
        record.with_hmac(b"")
    with pytest.raises(TypeError, match="key must be bytes, not None"):
        record_hmac(record, None)  # type: ignore[arg-type]
    check_rules(record, SMALL_SHOE)
    with pytest.raises(ValueError, match="field 'rules' is 'small shoe', not the rules' name 'macau'"):
        check_rules(record, MACAU)
    with pytest.raises(ValueError, match="field 'rules_digest' is not the digest of the rules 'small shoe' given"):
        check_rules(record, SMALL_SHOE.replace(burn_per_round=2))
    with pytest.raises(TypeError, match="rules: expected a RuleSet or a preset name"):
        rules_digest(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", REPLAYABLE)
@pytest.mark.kernels
def test_shoe_states_round_trip_through_json(impl: ModuleType, name: str) -> None:
    """A state restores numpy's generator of its name, or for PCG64 the kernels' own (which
    draws numpy's words without NumPy), in the same state."""
    original = getattr(np.random, name)(17)
    state = state_json(original.state)
    assert state is not None and json.loads(json.dumps(state)) == state == check_state(state)
    copy = bit_generator_from_state(state)
    assert type(copy) is (impl.PCG64 if name == "PCG64" else type(original))
    assert state_json(copy.state) == state
    assert [int(copy.random_raw()) for _ in range(5)] == original.random_raw(5).tolist()

    class Unnamed(np.random.PCG64):
        pass

    assert state_json(Unnamed(1).state) is None  # a class a record cannot name
    assert Game(SMALL_SHOE, rng=Unnamed(1)).play().shoe_state is None


def test_records_reads_no_dealing_and_verify_log_lives_in_verify() -> None:
    """records is below dealing (which imports it) and verify above both: records
    imports neither, and does not hand on verify's verify_log (which made a circle of
    the three). (The modules' sources, not the kernels: run once.)"""
    source = Path(records.__file__).read_text(encoding="utf-8")
    for node in ast.parse(source).body:  # module level, TYPE_CHECKING blocks left out
        if isinstance(node, ast.ImportFrom):
            assert node.module not in ("dealing", "verify", "sanggong.dealing", "sanggong.verify"), node.module
            assert not any(alias.name in ("dealing", "verify") for alias in node.names)
    assert not hasattr(records, "verify_log")  # verify's, imported from verify (records is below it)
    assert verify.verify_log is verify_log


@pytest.mark.parametrize("module", ["dealing", "records", "verify"])
def test_modules_import_no_private_names_of_others(module: str) -> None:
    """Each module uses only the public names of the others (a source check: run once)."""
    source = Path(importlib.import_module(f"sanggong.{module}").__file__ or "").read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            private = [alias.name for alias in node.names if alias.name.startswith("_")]
            assert not private, f"sanggong.{module} imports {private} from {node.module}"


@pytest.mark.parametrize("key", [None, KEY], ids=["no key", "key"])
@pytest.mark.parametrize("kind", ["macau", "small", "online", "philox", "decimal"])
@pytest.mark.kernels
def test_a_games_log_verifies(kind: str, key: bytes | None) -> None:
    lines = log(kind, key)
    records = [RoundRecord.from_json(line) for line in lines]
    if kind == "macau":
        assert max(r.shoe for r in records) >= 2 and any(r.carried for r in records)
    if kind == "small":
        assert max(r.shoe for r in records) >= 3
    rules = None if kind in ("macau", "online") else SMALL_SHOE  # presets are found by name and digest
    report = verify_log(lines, rules=rules, key=key)
    assert report.ok, report.reason
    assert (report.records, report.replayed, report.settled, report.authenticated) == (len(lines), True, True, bool(key))
    if key is None:
        assert not verify_log(lines, rules=rules, key=KEY).ok  # no HMAC under a key
    for record in records[-2:]:
        assert Game.replay_record(rules_of(kind), record) == record


@pytest.mark.kernels
def test_observed_and_unnamed_generators_are_settled_not_replayed() -> None:
    lines = _observed_log(KEY)
    report = verify_log(lines, rules=SMALL_SHOE, key=KEY)
    assert report.ok, report.reason
    assert (report.replayed, report.settled) == (False, True)
    assert "settled again from its cards" in str(report)
    assert verify_log(lines, rules=SMALL_SHOE, replay=False).ok

    class Unnamed(np.random.PCG64):  # a generator a record cannot name: no shoe state
        pass

    game = Game(SMALL_SHOE, rng=Unnamed(5))
    records = [game.play({"odd": 5}) for _ in range(20)]
    assert all(r.shoe_state is None and r.seed is None and r.cut_card for r in records)
    report = verify_log([r.to_json() for r in records], rules=SMALL_SHOE)
    assert report.ok and not report.replayed and report.settled, report.reason
    with pytest.raises(ValueError, match="no seed and no shoe state"):
        Game.replay_record(SMALL_SHOE, records[0])


# --- tampering -------------------------------------------------------------------------------

Edit = Any


def _set(path: str, value: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        for p in parents:
            d = d[int(p)] if isinstance(d, list) else d[p]
        if isinstance(d, list):
            d[int(last)] = value
        else:
            d[last] = value
    return edit


def _bump(path: str, delta: int = 1) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        for p in parents:
            d = d[int(p)] if isinstance(d, list) else d[p]
        key: Any = int(last) if isinstance(d, list) else last
        # integers beyond what JSON numbers hold exactly (seeds, states) and money are text
        d[key] = str(int(d[key]) + delta) if isinstance(d[key], str) else d[key] + delta
    return edit


def _swap_card(d: dict[str, Any]) -> None:  # a card of player 1, the label kept as it was
    cards = d["hands"]["1"]["cards"]
    cards[0] = "Kc" if cards[0] != "Kc" else "Qd"


def _swap_card_and_label(d: dict[str, Any]) -> None:  # ... and everything the card changes
    from sanggong import evaluate

    _swap_card(d)
    hand = evaluate(d["hands"]["1"]["cards"])
    d["hands"]["1"].update(label=hand.label, pair_plus=hand.pair_plus.label)
    banker = evaluate(d["banker"]["cards"]).rank
    d["winners"]["1"] = "win" if hand.rank > banker else "tie" if hand.rank == banker else "lose"


# (edit, which line, the reason once the whole chain is rewritten under the key)
TAMPERING = {
    "seed": (_bump("seed"), 8, "field 'seed' differs from line 1's"),
    "seed of line 1": (_bump("seed"), 0, "field 'shoe_state' disagrees with the replay"),
    "round": (_bump("round"), 8, "round 10 does not follow line 8's round 8"),
    "shoe": (_bump("shoe"), 8, "does not follow line 8's shoe"),
    "round_in_shoe": (_bump("round_in_shoe"), 8, "does not follow line 8's shoe"),
    "last_of_shoe": (lambda d: d.update(last_of_shoe=not d["last_of_shoe"]), 8, "field 'last_of_shoe' disagrees"),
    "cut_card": (_bump("cut_card"), 8, "field 'cut_card' changed within the shoe"),
    "a card": (_swap_card, 8, "field 'hands.1."),  # its label or category is not what its cards make
    "a card and its label": (_swap_card_and_label, 8, "field 'hands' disagrees with the replay"),
    "a label": (lambda d: d["banker"].update(label="3P"), 8, "field 'banker.label' is not what"),
    "a winner": (lambda d: d["winners"].update({"2": "tie" if d["winners"]["2"] != "tie" else "win"}), 8,
                 "field 'winners.2' is not what"),
    "a result amount": (_bump("results/0/returned", 5), 9, "field 'results' disagrees with the replay"),
    "an outcome": (_set("results/0/outcome", "push"), 9, "field 'results' disagrees"),
    "a stake": (_set("bets/win:1", "90"), 9, "field 'results' disagrees"),
    "a bet removed": (lambda d: d["bets"].pop("odd"), 9, "field 'results' disagrees"),
    "carried": (_set("carried", {}), 9, "field 'carried' disagrees"),
    # (int to fraction changes no amount where nothing is rounded; to decimal every stake is 100 times larger)
    "the money kind": (_set("money", "decimal"), 9, "the record's canonical form disagrees with the replay"),
    "shoe_state": (_bump("shoe_state/state/state", 2), 8, "field 'shoe_state' disagrees with the replay"),
    "shoe_state of line 1": (_bump("shoe_state/state/state", 2), 0, "field 'shoe_state' disagrees"),
    "rules name": (_set("rules", "macau2"), 4, "field 'rules' is 'macau2', not the name of the rules 'macau'"),
    "rules digest": (_set("rules_digest", "ab" * 32), 4, "field 'rules_digest' differs from line 1's"),
    "rules digest of line 1": (_set("rules_digest", "ab" * 32), 0, "the records' rules 'macau' are not a preset's"),
    "a burned card": (_set("burned/0", "As"), 8, "field 'burned' disagrees with the replay"),
}


@pytest.mark.parametrize("name", list(TAMPERING))
@pytest.mark.kernels
def test_each_tampering_is_caught_and_named(name: str) -> None:
    edit, index, reason = TAMPERING[name]
    original = log("macau", KEY)
    data = dicts(original)
    edit(data[index])
    before = verify_log(original, key=KEY)
    assert before.ok, before.reason
    # edited in place: the record's hash gives it away
    lines = list(original)
    lines[index] = json.dumps(data[index])
    report = verify_log(lines, key=KEY)
    assert not report.ok and report.first_bad == index + 1, report.reason
    assert report.reason is not None and report.reason.startswith(f"line {index + 1} ")
    assert ": hash does not match its contents" in report.reason or "is not what" in report.reason \
        or "expected" in report.reason, report.reason
    # the hash recomputed: the next line's prev breaks (without a key, without replay) ...
    lines[index] = json.dumps(seal(dict(data[index])))
    report = verify_log(lines, replay=False)
    assert not report.ok and report.first_bad in (index + 1, index + 2), report.reason
    # ... and under a key the HMAC does not match
    report = verify_log(lines, key=KEY)
    assert not report.ok and report.first_bad == index + 1, report.reason
    # the whole chain rewritten and MACed again (the key's holder): the record itself is checked
    report = verify_log(rechain(data, KEY), key=KEY)
    assert not report.ok and report.first_bad == index + 1, report.reason
    assert reason in str(report.reason), report.reason


@pytest.mark.kernels
def test_recomputed_hash_breaks_the_next_prev_or_the_hmac() -> None:
    lines = log("macau", KEY)
    data = dicts(lines)
    data[6]["results"][0]["returned"] = str(int(data[6]["results"][0]["returned"]) + 1)  # raised, hash made to match
    lines[6] = json.dumps(seal(data[6]))
    report = verify_log(lines, replay=False)
    assert (report.ok, report.first_bad, report.round) == (False, 8, 8)
    assert report.reason == ("line 8 (round 8): prev is not the hash of line 7: a record was removed, inserted "
                             "or moved, or line 7 was changed")
    assert verify_log(lines, key=KEY).reason == \
        "line 7 (round 7): HMAC does not match: a wrong key, or the record was changed"
    assert verify_log(lines).reason == "line 7 (round 7): field 'results' disagrees with the replay"


@pytest.mark.parametrize(
    ("change", "first_bad", "reason"),
    [
        (lambda ls: ls[:5] + ls[6:], 6, "line 6 (round 7): prev is not the hash of line 5"),
        (lambda ls: ls[:5] + [ls[6], ls[5]] + ls[7:], 6, "line 6 (round 7): prev is not the hash of line 5"),
        (lambda ls: ls[:5] + [ls[3]] + ls[5:], 6, "line 6 (round 4): prev is not the hash of line 5"),
        (lambda ls: ls[:5] + [ls[4]] + ls[5:], 6, "line 6 (round 5): prev is not the hash of line 5"),
        (lambda ls: ls[1:], 1, "line 1 (round 2): prev is not the zero hash of a game's first record"),
        (lambda ls: ls[:3] + [""] + ls[3:], 4, "line 4: an empty line"),
        (lambda ls: ls[:3] + ["{}"] + ls[3:], 4, "line 4: field 'format': missing"),
        (lambda ls: ls[:3] + ["not json"] + ls[3:], 4, "line 4: not a record: not valid JSON"),
        (lambda ls: ls[:3] + [ls[3][:-1] + ',"rules":"x"}'] + ls[4:], 4, "appears twice"),
        (lambda ls: ls[:3] + [ls[3].replace('"round":4', '"round":4.0')] + ls[4:], 4, "a number with a fraction"),
    ],
    ids=["deleted", "swapped", "inserted", "duplicated", "first removed", "blank", "empty object", "not JSON",
         "duplicate key", "float"],
)
@pytest.mark.kernels
def test_removed_moved_and_inserted_lines(change: Any, first_bad: int, reason: str) -> None:
    lines = change(log("macau"))
    report = verify_log(lines)
    # reading stops at the first bad record (a file may never end)
    assert (report.ok, report.first_bad, report.records) == (False, first_bad, first_bad)
    assert report.reason is not None and reason in report.reason, report.reason
    assert str(report) == f"bad: {report.reason} ({first_bad} record{'s' if first_bad > 1 else ''} read)"


@pytest.mark.kernels
def test_keys() -> None:
    lines = log("small", KEY)
    assert verify_log(lines, rules=SMALL_SHOE, key=KEY).ok
    wrong = verify_log(lines, rules=SMALL_SHOE, key=b"another key")
    assert wrong.first_bad == 1 and "HMAC does not match" in str(wrong.reason)
    unkeyed = verify_log(log("small"), rules=SMALL_SHOE, key=KEY)
    assert unkeyed.reason == "line 1 (round 1): has no HMAC (the log was not written under a key)"
    # a game MACs under its key; an empty key or a str is refused
    with pytest.raises(ValueError, match="key must not be empty"):
        Game(MACAU, 1, key=b"")
    with pytest.raises(TypeError, match="key must be bytes"):
        ObservedTable(MACAU, key="secret")  # type: ignore[arg-type]


@pytest.mark.kernels
def test_rules_are_bound() -> None:
    lines = log("small")
    needed = verify_log(lines)
    assert needed.reason == ("line 1 (round 1): the records' rules 'small shoe' are not a preset's (nor is their "
                             "digest): give the rules they were played under")
    other = verify_log(lines, rules=SMALL_SHOE.replace(burn_per_round=2))
    assert other.reason == "line 1 (round 1): field 'rules_digest' is not the digest of the rules given ('small shoe')"
    record = RoundRecord.from_json(lines[3])
    with pytest.raises(ValueError, match=r"record round 4: field 'rules_digest' is not the digest of the rules"):
        Game.replay_record(SMALL_SHOE.replace(burn_per_round=2), record)
    with pytest.raises(ValueError, match="field 'rules' is 'small shoe', not the rules' name 'macau'"):
        Game.replay_record(MACAU, record)
    assert not verify_log(log("macau"), rules=MACAU.replace(commission=Fraction(3, 100), name="macau")).ok


# --- replays derive every field ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("seed", 21, "shoe_state"), ("round", 13, "round_in_shoe"), ("shoe", 2, "shoe"),
        ("round_in_shoe", 5, "round_in_shoe"), ("last_of_shoe", True, "last_of_shoe"),
        ("cut_card", 31, "cut_card"), ("shoe_state", {"bit_generator": "PCG64", "state": {"state": 1, "inc": 3},
                                                      "has_uint32": 0, "uinteger": 0}, "shoe_state"),
        ("carried", {"win:1": 100}, "carried"), ("burned", (), "burned"),
    ],
)
@pytest.mark.kernels
def test_replay_record_names_the_field_that_disagrees(field: str, value: Any, named: str) -> None:
    record = RoundRecord.from_json(log("macau")[11])  # round 12, of shoe 1
    assert Game.replay_record(MACAU, record) == record
    changed = dataclasses.replace(record, **{field: value})
    assert changed != record  # equality compares every field of the round, the shoe state included
    with pytest.raises(ValueError, match=rf"^record round {changed.round}: field '{named}' disagrees with the replay$"):
        Game.replay_record(MACAU, changed)


@pytest.mark.kernels
def test_replay_from_a_shoe_state_alone() -> None:
    records = [RoundRecord.from_json(line) for line in log("philox")]
    record = records[9]
    assert record.seed is None and record.shoe_state is not None
    assert Game.replay_record(SMALL_SHOE, record) == record
    with pytest.raises(ValueError, match="field 'round_in_shoe' disagrees with the replay: the shoe ends"):
        Game.replay_record(SMALL_SHOE, dataclasses.replace(record, round_in_shoe=40))
    # round and shoe numbers come from the record alone here: the log's chain checks them
    moved = dataclasses.replace(record, round=99, shoe=17)
    assert Game.replay_record(SMALL_SHOE, moved) == moved
    lines = log("philox")
    data = dicts(lines)
    data[9]["round"], data[9]["shoe"] = 99, 17
    assert not verify_log(rechain(data), rules=SMALL_SHOE).ok


@pytest.mark.parametrize("name", ["random", "seed", "default_rng", "__class__", "Generator", "RandomState",
                                  "BitGenerator", "bit_generator", "pcg64", ""])
@pytest.mark.kernels
def test_a_record_never_names_another_numpy_callable(name: str) -> None:
    lines = log("philox")
    data = dicts(lines)
    data[0]["shoe_state"]["bit_generator"] = name
    message = f"field 'shoe_state.bit_generator': '{name}' is not a bit generator a record may name"
    before = np.random.get_state()[1].tolist()  # type: ignore[index]  # noqa: NPY002 - numpy's global state, checked untouched
    with pytest.raises(ValueError, match=message):
        RoundRecord.from_dict(seal(data[0]))
    record = RoundRecord.from_json(lines[0])
    assert record.shoe_state is not None
    with pytest.raises(ValueError, match=message):
        Game.replay_record(SMALL_SHOE, dataclasses.replace(record, shoe_state={**record.shoe_state, "bit_generator": name}))
    report = verify_log(rechain(data), rules=SMALL_SHOE)
    assert report.first_bad == 1 and message in str(report.reason)
    assert np.random.get_state()[1].tolist() == before  # type: ignore[index]  # noqa: NPY002 - nothing reseeded numpy


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"state": {"state": "1", "inc": "2"}}, "field 'shoe_state.state.inc': must be odd"),
        ({"state": {"state": str(2**128), "inc": "3"}},
         r"field 'shoe_state.state.state': expected an integer in 0..2\*\*128 - 1"),
        ({"state": {"state": 1, "inc": "3"}}, "field 'shoe_state.state.state': expected an integer written as a "
                                              "string, got 1"),
        ({"state": {"state": "01", "inc": "3"}}, "field 'shoe_state.state.state': expected an integer in"),
        ({"state": {"state": "1"}}, "field 'shoe_state.state.inc': missing"),
        ({"state": {"state": "1", "inc": "3", "key": "4"}}, "field 'shoe_state.state.key': not a field"),
        ({"has_uint32": "2"}, "field 'shoe_state.has_uint32': expected an integer in 0..1"),
        ({"has_uint32": True}, "field 'shoe_state.has_uint32': expected an integer written as a string, got true"),
        ({"uinteger": "-1"}, "field 'shoe_state.uinteger'"),
        ({"state": [1, 3]}, "field 'shoe_state.state': expected an object"),
    ],
)
@pytest.mark.kernels
def test_shoe_states_are_checked_before_numpy_sees_them(state: dict[str, Any], message: str) -> None:
    record = RoundRecord.from_json(log("small")[0])
    assert record.shoe_state is not None
    bad = {**record.shoe_state, **state}
    with pytest.raises((ValueError, TypeError), match=message):
        Game.replay_record(SMALL_SHOE, dataclasses.replace(record, seed=None, shoe_state=bad))
    data = record.to_dict()
    data["shoe_state"] = bad
    with pytest.raises((ValueError, TypeError), match=message):
        RoundRecord.from_dict(seal(data))


@pytest.mark.parametrize(
    ("name", "state", "message"),
    [
        ("Philox", {"buffer_pos": "5"}, r"field 'shoe_state.buffer_pos': expected an integer in 0..4"),
        ("Philox", {"buffer": ["1", "2", "3"]}, r"field 'shoe_state.buffer': expected 4 integers, got 3"),
        ("SFC64", {"state": {"state": ["1", "2", "3", str(2**64)]}}, r"field 'shoe_state.state.state\[3\]'"),
        ("MT19937", {"state": {"key": ["0"] * 624, "pos": "3"}}, "the all-zero state of MT19937"),
        ("MT19937", {"state": {"key": ["1"] * 624, "pos": "700"}},
         r"field 'shoe_state.state.pos': expected an integer in 0..624"),
    ],
)
@pytest.mark.kernels
def test_every_allowed_generator_has_its_schema(name: str, state: dict[str, Any], message: str) -> None:
    generator = getattr(np.random, name)(1)
    game = Game(SMALL_SHOE, rng=generator)
    record = game.play()
    assert record.shoe_state is not None and record.shoe_state["bit_generator"] == name
    assert Game.replay_record(SMALL_SHOE, RoundRecord.from_json(record.to_json())) == record
    with pytest.raises(ValueError, match=message):
        Game.replay_record(SMALL_SHOE, dataclasses.replace(record, shoe_state={**record.shoe_state, **state}))


# --- strict reading ----------------------------------------------------------------------------


def _strict(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    _set(path, value)(data)
    return seal(data)


@pytest.mark.parametrize(
    ("path", "value", "error", "message"),
    [
        ("round", "12", TypeError, "field 'round': expected an integer, got '12'"),
        ("round", 0, ValueError, "field 'round': expected an integer in 1.."),
        ("round", 10**40, ValueError, "field 'round': expected an integer in 1..1000000000000000, got an int of 133 bits"),
        ("round", True, TypeError, "field 'round': expected an integer, got true"),
        ("shoe", None, TypeError, "field 'shoe': expected an integer, got null"),
        ("seed", str(2**256), ValueError, r"field 'seed': expected an integer in 0..2\*\*256 - 1"),
        ("seed", "-5", ValueError, "field 'seed'"),
        ("seed", 5, TypeError, "field 'seed': expected an integer written as a string, got 5"),
        ("seed", "05", ValueError, "field 'seed': expected an integer in"),
        ("last_of_shoe", "true", TypeError, "field 'last_of_shoe': expected true or false, got 'true'"),
        ("last_of_shoe", 1, TypeError, "field 'last_of_shoe': expected true or false, got 1"),
        ("cut_card", 10**6, ValueError, "field 'cut_card'"),
        ("head_card", 5, TypeError, "field 'head_card': expected a card"),
        ("burned", "Ac", TypeError, "field 'burned': expected a list of cards"),
        ("burned/0", "ac", ValueError, "field 'burned\\[0\\]': 'ac' is not written canonically \\('Ac'\\)"),
        ("burned/0", "10c", ValueError, "field 'burned\\[0\\]': expected a card written as two characters"),
        ("burned/0", "Xx", ValueError, "field 'burned\\[0\\]': expected a card"),
        ("banker/cards", ["Ac", "2c"], ValueError, "field 'banker.cards': expected three cards"),
        ("banker/cards", ["Ac", "2c", "3c", "4c"], ValueError, "field 'banker.cards': expected at most 3 cards"),
        ("banker/label", "2P9", ValueError, "field 'banker.label' is not what the record's other fields make it"),
        ("banker/pair_plus", "pair", ValueError, "field 'banker.pair_plus' is not what"),
        ("banker/colour", "red", ValueError, "field 'banker.colour': not a field of 'banker'"),
        ("hands", {}, ValueError, "field 'hands': expected the hands of 1..16 positions"),
        ("hands", [], TypeError, "field 'hands': expected an object"),
        ("hands/01", {"cards": ["Ac", "Ad", "Ah"], "label": "3", "pair_plus": "three of a kind"}, ValueError,
         "field 'hands': '01' is not a position"),
        ("hands/9", {"cards": ["Ac", "Ad", "Ah"], "label": "3", "pair_plus": "three of a kind"}, ValueError,
         r"field 'hands': expected positions 1..8"),
        ("winners/1", "draw", ValueError, "field 'winners.1' is not what"),
        ("money", "float", ValueError, "field 'money': expected 'int', 'decimal' or 'fraction'"),
        ("bets/win:1", "1E+2", ValueError, "field 'bets.win:1': expected an integer in 1..1000000000000000"),
        ("bets/win:1", 100, TypeError, "field 'bets.win:1': expected a stake written as a string"),
        ("bets/win:1", "0", ValueError, "field 'bets.win:1': expected an integer in 1..1000000000000000"),
        ("bets/win:1", str(10**16), ValueError, "field 'bets.win:1': expected an integer in 1..1000000000000000"),
        ("bets/win:1", "1.5", ValueError, "field 'bets.win:1': expected an integer in 1..1000000000000000"),
        ("bets/win:1", 1.5, TypeError, "field 'bets.win:1': expected a stake written as a string"),
        ("bets/Win:1", 5, ValueError, "field 'bets key': expected a bet name"),
        ("carried", [], TypeError, "field 'carried': expected an object"),
        ("results", {}, TypeError, "field 'results': expected a list"),
        ("results/0/outcome", "won", ValueError, "field 'results\\[0\\].outcome'"),
        ("results/0/returned", str(10**30), ValueError, "field 'results\\[0\\].returned'"),
        ("results/0/returned", 10, TypeError, "field 'results\\[0\\].returned': expected an amount"),
        ("results/0/returned", "6/3", ValueError, r"field 'results\[0\].returned' is not what .* they make '2'"),
        ("results/0/returned", "1e999999999", ValueError, "field 'results\\[0\\].returned'"),
        ("results/0/odds", "1e99", ValueError, "field 'results\\[0\\].odds'"),
        ("results/0/detail", "a lucky day", ValueError, "field 'results\\[0\\].detail'"),
        ("prev", "0" * 63, ValueError, "field 'prev': expected 64 lower-case hex digits"),
        ("prev", "A" * 64, ValueError, "field 'prev': expected 64 lower-case hex digits"),
        ("rules_digest", None, TypeError, "field 'rules_digest': expected 64 lower-case hex digits, got null"),
        ("rules", "", ValueError, "field 'rules': expected a rule set's name"),
        ("rules", ["macau"], TypeError, "field 'rules': expected a string"),
        ("shoe_state", "PCG64", TypeError, "field 'shoe_state': expected an object or null"),
        ("hmac", None, TypeError, "field 'hmac': expected 64 lower-case hex digits, got null"),
        ("extra", 1, ValueError, "field 'extra': not a field of a record"),
    ],
)
@pytest.mark.kernels
def test_from_dict_names_the_field(path: str, value: Any, error: type[Exception], message: str) -> None:
    data = json.loads(log("macau")[0])
    with pytest.raises(error, match=message):
        RoundRecord.from_dict(_strict(data, path, value))


@pytest.mark.parametrize("missing", ["rules", "round", "seed", "shoe_state", "prev", "hash", "winners", "money"])
def test_from_dict_refuses_a_missing_field(missing: str) -> None:
    data = json.loads(log("macau")[0])
    del data[missing]
    with pytest.raises(ValueError, match=f"field '{missing}': missing"):
        RoundRecord.from_dict(data)


@pytest.mark.parametrize(
    ("kind", "stake", "message"),
    [
        ("decimal", "1e999999999", "a decimal amount"),
        ("decimal", "1E+999999999", "a decimal exponent within"),
        ("decimal", "1.5E-31", "a decimal exponent within"),
        ("decimal", "-5", "a positive stake"),
        ("decimal", "NaN", "a decimal amount"),
        ("decimal", "1" * 41, "an amount of at most 40 characters"),
        ("decimal", 5, "a stake written as a string"),
        ("fraction", "1e999999999", "a fraction"),
        ("fraction", "7/0", "a fraction"),
        ("fraction", "1/1000001", "a denominator of at most 1000000"),
        ("fraction", "1000000000000001", "a positive stake of at most"),
        ("fraction", " 7/2", "a fraction"),
    ],
)
@pytest.mark.kernels
def test_money_is_parsed_strictly_by_its_kind(kind: str, stake: Any, message: str) -> None:
    data = json.loads(log("decimal" if kind == "decimal" else "philox")[0])
    bet = next(iter(data["bets"]))
    data["bets"][bet] = stake
    with pytest.raises((ValueError, TypeError), match=f"field 'bets.{bet}': expected {message}"):
        RoundRecord.from_dict(seal(data))


@pytest.mark.kernels
def test_money_text_must_be_canonical() -> None:
    data = json.loads(log("decimal")[0])
    data["bets"]["win:1"] = "12.5E+0"
    with pytest.raises(ValueError, match=r"field 'bets.win:1' is not what the record's other fields make it"):
        RoundRecord.from_dict(seal(data))
    data = json.loads(log("philox")[0])
    data["bets"]["odd"] = "14/4"
    with pytest.raises(ValueError, match=r"field 'bets.odd' is not what"):
        RoundRecord.from_dict(seal(data))


@pytest.mark.kernels
def test_record_lines_are_bounded_before_parsing() -> None:
    line = log("macau")[0]
    padded = line[:-1] + ',"x":"' + "a" * limits.MAX_RECORD_BYTES + '"}'
    with pytest.raises(ValueError, match=f"a record is at most {limits.MAX_RECORD_BYTES} bytes"):
        RoundRecord.from_json(padded)
    with pytest.raises(ValueError, match="nested too deeply"):
        RoundRecord.from_json("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ValueError, match="more than 80 digits"):
        RoundRecord.from_json(line.replace('"seed":"3"', '"seed":' + "9" * 5000))
    with pytest.raises(ValueError, match="NaN"):
        RoundRecord.from_json(line.replace('"seed":"3"', '"seed":NaN'))
    with pytest.raises(ValueError, match="not UTF-8"):
        RoundRecord.from_json(line.encode() + b"\xff")
    with pytest.raises(TypeError, match="a record is a JSON object, not list"):
        RoundRecord.from_json("[]")
    assert RoundRecord.from_json(line.encode()) == RoundRecord.from_json(line)


@pytest.mark.kernels
def test_verify_log_reads_files_line_by_line(tmp_path: Path) -> None:
    lines = log("small")
    path = tmp_path / "log.jsonl"
    huge = b'{"x":"' + b"a" * (limits.MAX_RECORD_BYTES + 10) + b'"}'
    path.write_bytes(b"\n".join(line.encode() for line in lines[:3]) + b"\n" + huge + b"\n" + lines[3].encode() + b"\n")
    report = verify_log(path, rules=SMALL_SHOE)
    assert (report.first_bad, report.records) == (4, 4)
    assert report.reason == f"line 4: longer than {limits.MAX_RECORD_BYTES} bytes (the longest record a log may hold)"
    path.write_bytes(lines[0].encode() + b"\n\xff\xfe\n")
    assert "not UTF-8" in str(verify_log(path, rules=SMALL_SHOE).reason)
    path.write_bytes(b"\r\n".join(line.encode() for line in lines) + b"\r\n")
    assert verify_log(path, rules=SMALL_SHOE).ok
    path.write_bytes(b"")
    empty = verify_log(path, rules=SMALL_SHOE)
    assert (empty.ok, empty.records, empty.reason) == (False, 0, "the log holds no record")


def test_verify_log_arguments() -> None:
    with pytest.raises(TypeError, match="rules: expected a RuleSet, a preset name or None"):
        verify_log([], rules=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key must be bytes"):
        verify_log([], key="secret")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="replay must be True or False"):
        verify_log([], replay=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="start_prev must be a record's hash"):
        verify_log([], start_prev="00")
    with pytest.raises(TypeError, match="not bytes"):
        verify_log(b"records.jsonl")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a log's lines are str"):
        verify_log([1, 2])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not int"):
        verify_log(5)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        verify_log("/nonexistent/records.jsonl")


@pytest.mark.kernels
def test_carried_stakes_must_stay_on_the_table() -> None:
    lines = log("macau")
    records = [RoundRecord.from_json(line) for line in lines]
    k = next(i for i, r in enumerate(records[:-1]) if r.carried)
    data = dicts(lines)
    bet = next(iter(records[k].carried))
    data[k + 1]["bets"].pop(bet)  # the carried stake withdrawn (and its result with it)
    data[k + 1]["results"] = [r for r in data[k + 1]["results"] if r["bet"] != bet]
    if not data[k + 1]["bets"]:
        data[k + 1]["results"] = []
    report = verify_log(rechain(data), replay=False)
    assert report.first_bad == k + 2
    assert f"field 'bets': the stake of 100 on {bet} carried from line {k + 1} must stay on the table" in str(report.reason)


# --- observed shoes: the cut card ---------------------------------------------------------------

# 2 decks, 1 position: 8 cards the first round (2 burned), 7 each later round; the cut card
# lies 26..30 cards from the end, so a round may start at card 104 - 26 = 78 at the latest:
# round 12 starts there exactly, and is the shoe's last.
CUT_RULES = MACAU.replace(name="cut", decks=2, positions=1, cut_card_range=(26, 30))


def _shoe_rounds(seed: int) -> list[list[str]]:
    order = np.random.default_rng(seed).permutation(104) % 52
    from sanggong import Card

    cards = [str(Card(int(c))) for c in order]
    rounds = [cards[:8]]
    pos = 8
    while pos + 7 <= 104:
        rounds.append(cards[pos:pos + 7])
        pos += 7
    return rounds


@pytest.mark.kernels
def test_observed_shoe_refuses_a_round_after_the_last_possible_cut_card() -> None:
    table = ObservedTable(CUT_RULES, key=KEY)
    rounds = _shoe_rounds(1)
    records = [table.play(cards, {"win:1": 10}) for cards in rounds[:12]]
    assert [r.last_of_shoe for r in records] == [False] * 11 + [True]  # round 12 takes card 79: the cut card is out
    assert {r.shoe for r in records} == {1} and records[-1].round_in_shoe == 12
    with pytest.raises(ValueError, match=(
            r"a round cannot start after 85 cards of the shoe: the cut card lies at least 26 cards from the end "
            r"of the 104, so it came out by card 78, in an earlier round, which was the shoe's last: the dealer "
            r"must shuffle first \(shuffle\(\)\)")):
        table.play(rounds[12], {"win:1": 10})
    assert table.round == 12  # unchanged
    table.shuffle()
    again = _shoe_rounds(2)
    record = table.play(again[0], {"win:1": 10})
    assert (record.round, record.shoe, record.round_in_shoe, len(record.burned)) == (13, 2, 1, 2)
    lines = [r.to_json() for r in [*records, record]]
    report = verify_log(lines, rules=CUT_RULES, key=KEY)
    assert report.ok and report.settled and not report.replayed, report.reason


@pytest.mark.kernels
def test_observed_shoe_house_may_shuffle_early_and_counts_cards() -> None:
    table = ObservedTable(CUT_RULES)
    rounds = _shoe_rounds(3)
    first = [table.play(cards) for cards in rounds[:4]]
    table.shuffle()
    table.shuffle()  # twice changes nothing
    second = table.play(_shoe_rounds(4)[0])
    assert (second.shoe, second.round_in_shoe) == (2, 1) and not first[-1].last_of_shoe
    assert verify_log([r.to_json() for r in [*first, second]], rules=CUT_RULES).ok
    # a third ace of clubs from two decks
    table = ObservedTable(CUT_RULES)
    table.play(["Ac", "Ac", "2d", "3d", "4d", "5d", "6d", "7d"])
    with pytest.raises(ValueError, match="card 2 of the sequence, Ac, is one more than 2 decks hold"):
        table.play(["8d", "Ac", "9d", "Td", "Jd", "Qd", "Kd"])
    assert table.round == 1


@pytest.mark.kernels
def test_observed_log_with_a_round_after_the_cut_card_is_refused() -> None:
    rules = CUT_RULES
    table = ObservedTable(rules)
    rounds = _shoe_rounds(5)
    lines = [table.play(cards).to_json() for cards in rounds[:12]]
    data = dicts(lines)
    extra = json.loads(lines[-1])
    extra.update(round=13, round_in_shoe=13, last_of_shoe=True)
    data.append(extra)
    data[-2]["last_of_shoe"] = False  # as if round 12 had not been the last
    report = verify_log(rechain(data), rules=rules)
    assert not report.ok and report.first_bad == 12
    assert "field 'last_of_shoe' disagrees with the cards as dealt and settled" in str(report.reason)


@pytest.mark.kernels
def test_fresh_deck_tables_start_a_new_deck_every_round() -> None:
    table = ObservedTable(ONLINE)
    good = "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"
    records = [table.play(good) for _ in range(3)]
    assert [(r.shoe, r.round_in_shoe, r.last_of_shoe) for r in records] == [(1, 1, True), (2, 1, True), (3, 1, True)]
    assert verify_log([r.to_json() for r in records]).ok
    data = dicts([r.to_json() for r in records])
    data[1]["last_of_shoe"] = False
    assert "a fresh-deck table deals every round from a new deck" in str(verify_log(rechain(data)).reason)


# --- anything else changed: reported, never raised ---------------------------------------------

# arbitrary JSON, and values that are plausible in a record (cards, labels, names, hashes)
PLAUSIBLE = ["Ac", "Kh", "Th", "9d", "Qs", "P9", "3P", "0", "none", "pair", "flush", "win", "lose", "tie", "push",
             "carried", "int", "decimal", "fraction", "win:1", "win:2", "odd", "tie:1", "1/2", "12.50", "100",
             "PCG64", "Philox", "macau", "online", "small shoe", ZERO_HASH, "ab" * 32]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10) | st.sampled_from(PLAUSIBLE),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5) | st.sampled_from(PLAUSIBLE),
                                                                inner, max_size=3),
    max_leaves=6,
)
values = st.sampled_from(PLAUSIBLE) | st.integers(-3, 60) | st.booleans() | st.none() | json_values


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _mutate(data: dict[str, Any], path: tuple[Any, ...], value: Any, how: str) -> Any:
    if not path:
        return value
    parent: Any = data
    for part in path[:-1]:
        parent = parent[part]
    if how == "delete":
        del parent[path[-1]]
    elif how == "add" and isinstance(parent, dict):
        parent[f"{path[-1]}_"] = value
    else:
        parent[path[-1]] = value
    return data


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


MUTATION_LOGS = {"seeded": ("small", SMALL_SHOE), "state": ("philox", SMALL_SHOE), "preset": ("online", None)}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), value=values, how=st.sampled_from(["set", "set", "delete", "add"]),
       which=st.sampled_from(list(MUTATION_LOGS)), rewrite=st.booleans())
@pytest.mark.kernels
def test_any_change_is_reported_never_raised(data: st.DataObject, value: Any, how: str, which: str,
                                             rewrite: bool) -> None:
    kind, rules = MUTATION_LOGS[which]
    lines = log(kind, KEY)[:8]
    index = data.draw(st.integers(0, len(lines) - 1))
    records = dicts(lines)
    original = json.loads(lines[index])
    paths = [p for p in _paths(original) if not (rewrite and p[:1] in (("hash",), ("hmac",), ("prev",)))]
    leaves = [p for p in paths if not isinstance(_at(original, p), dict | list)]
    path = data.draw(st.sampled_from(leaves) | st.sampled_from(paths))  # mostly a leaf
    changed = _mutate(json.loads(lines[index]), path, value, how)
    if _same(changed, original):
        return
    records[index] = changed
    if rewrite and isinstance(changed, dict):
        try:
            changed_lines = rechain(records, KEY)  # the key's holder rewrote the chain
        except (TypeError, ValueError, KeyError):
            return  # values the chain cannot be computed over (NaN): the plain case covers them
    else:
        changed_lines = list(lines)
        changed_lines[index] = json.dumps(changed, ensure_ascii=False)
    report = verify_log(changed_lines, rules=rules, key=KEY)
    assert isinstance(report, VerifyReport)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad <= index + 2
    assert "cannot be checked" not in str(report.reason), report.reason


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=values)
@pytest.mark.kernels
def test_observed_records_changed_anywhere_are_reported(value: Any) -> None:
    lines = _observed_lines()
    for index in (0, 5):
        original = json.loads(lines[index])
        for path in _paths(original)[:: max(1, len(_paths(original)) // 12)]:
            changed = _mutate(json.loads(lines[index]), path, value, "set")
            if _same(changed, original):
                continue
            changed_lines = list(lines)
            changed_lines[index] = json.dumps(changed)
            report = verify_log(changed_lines, rules=SMALL_SHOE, key=KEY)
            assert not report.ok and "cannot be checked" not in str(report.reason)


@functools.lru_cache(maxsize=1)
def _observed_lines_cached() -> tuple[str, ...]:
    return tuple(_observed_log(KEY)[:8])


def _observed_lines() -> list[str]:
    return list(_observed_lines_cached())


@pytest.mark.parametrize("endless", ["/dev/zero", "/dev/urandom"])
def test_verify_log_of_a_file_that_never_ends(endless: str) -> None:
    """It stops at the first bad record instead of reading on for ever."""
    report = verify_log(endless)
    assert (report.ok, report.first_bad, report.records) == (False, 1, 1)


@pytest.mark.kernels
def test_a_record_reads_winners_only_by_its_own_ranking() -> None:
    """``winners`` compared ranks taken from values of another ranking than the record's
    (a Chinese K-K-K banker against default-ranked hands answered 'lose' for every hand):
    the same question ``compare`` and the operators refuse (hands.ranking_of)."""
    import dataclasses

    from sanggong import MACAU, PRESETS, Game, compare, evaluate

    record = Game(MACAU, seed=1).play()
    assert record.banker is not None
    assert record.winners == {p: {1: "win", 0: "tie", -1: "lose"}[compare(h, record.banker)]
                              for p, h in record.hands.items()}
    chinese = PRESETS["chinese"]
    mixed = dataclasses.replace(record, banker=evaluate(record.banker.cards, chinese))
    with pytest.raises(TypeError, match="two rankings"):
        _ = mixed.winners
    other = dataclasses.replace(record, banker=evaluate(record.banker.cards, chinese),
                                hands={p: evaluate(h.cards, chinese) for p, h in record.hands.items()})
    with pytest.raises(TypeError, match="round 1: hands ranked by"):
        _ = other.winners
