"""Irregular rounds as the seed rule sets prescribe them (RULES.md section 8): a misdealt
round voided (Macau, article 2.5), a wrong dealing order put right by the procedure,
shuffles done again before a shoe's first round; recorded, verified, settled from the
command line; and an attacker's pass over them."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from cli_run import fails, run

from sanggong import MACAU, ONLINE, Game, ObservedTable, RoundRecord, TableSession, parse_card, settle, verify_log
from sanggong.dealing import Replayer, assign
from sanggong.records import canonical_bytes, record_hmac

KEY = b"operator key"
SMALL = MACAU.replace(name="small", decks=2, positions=1, cut_card_range=(20, 30))  # 2 burned, then 1 a round
# two decks' cards in an order to deal from: rounds of SMALL take 8 cards, then 7
DECK = [f"{rank}{suit}" for suit in "cdhs" for rank in "A23456789TJQK"] * 2


def _rounds() -> list[list[str]]:
    """The first five rounds dealt from DECK, one after the other."""
    return [DECK[0:8], DECK[8:15], DECK[15:22], DECK[22:29], DECK[29:36]]


# --- a void round ----------------------------------------------------------------------------


@pytest.mark.kernels
def test_a_void_round_returns_every_stake_and_takes_its_cards_out_of_the_shoe() -> None:
    table = ObservedTable(SMALL, key=KEY)
    first = table.play(_rounds()[0], {"win:1": 100})
    gone = ["Ks", "Ks", "2h"]  # both of the shoe's K♠ come out before the round is abandoned
    void = table.void(gone, {"win:1": 100, "odd": 30})
    assert (void.void, void.round, void.shoe, void.round_in_shoe) == (True, 2, 1, 2)
    assert [str(c) for c in void.burned] == gone and void.banker is None and void.hands == {}
    assert void.winners == {} and void.head_card is None
    assert [(r["bet"], r["outcome"], r["returned"], r["carried"], r["net"]) for r in void.results] == [
        ("odd", "void", 30, 0, 0), ("win:1", "void", 100, 0, 0)]
    with pytest.raises(ValueError, match="card 3 of the sequence, Ks, is one more than 2 decks hold"):
        table.play(["9s", "Qs", "Ks", "Jd", "Jd", "Jh", "Jh"])  # the K♠ are gone
    later = table.play(["9s", *DECK[8:14]], {"odd": 5})  # the next round burns one, as after any round
    assert (later.round, later.round_in_shoe, later.void) == (3, 3, False)
    report = verify_log([first.to_json(), void.to_json(), later.to_json()], rules=SMALL, key=KEY)
    assert report.ok and report.void_rounds == 1 and "1 void round" in str(report), report


@pytest.mark.kernels
def test_a_carried_stake_stays_carried_through_a_void_round() -> None:
    seat = TableSession(MACAU)
    tie = seat.settle("9c 9d 5h", {1: "9h 9s 5c"}, {"win:1": 100})
    assert tie["win:1"].outcome == "carried"
    void = seat.void({"win:1": 160, "tie:1": 10})
    assert [(r.bet, r.returned, r.carried) for r in void.results] == [("win:1", 60, 100), ("tie:1", 10, 0)]
    assert dict(seat.carried) == {"win:1": 100} and void.house_net == 0 and void.void
    with pytest.raises(ValueError, match="may be increased, not reduced"):
        seat.void({"win:1": 50})
    for stake in [Decimal("2.50"), Fraction(7, 3), 5]:  # every kind of money
        fresh = ObservedTable(SMALL)
        record = fresh.void(DECK[:3], {"win:1": stake})
        assert record.results[0]["returned"] == stake and type(record.results[0]["returned"]) is type(stake)


@pytest.mark.kernels
def test_money_is_conserved_through_voids() -> None:
    """Every round: the stakes are what is returned, carried on, and won by the house (a
    void round wins nothing); and a stake carried on is staked again in the next round."""
    table = ObservedTable(SMALL)
    # round 1: burns Ac Ad, then one card at a time, position 1 first: 9c 9d 5c (3) ties the banker's 9h 9s 5d
    records = [table.play("Ac Ad  9c 9h 9d 9s 5c 5d", {"win:1": 100, "odd": 10}),
               table.void("Kc Qc", {"win:1": 140}), table.void([], {"even": 5}),
               table.play("Jc  2c 3c 4c 2d 3d 4d", {"win:1": 100}),
               table.play("Jd  6c 7c 8c 6d 7d 8d", {"odd": 10})]
    carried_in: dict[str, Any] = {}
    for record in records:
        for result in record.results:
            assert result["net"] == result["returned"] + result["carried"] - result["stake"], result
            assert min(result["returned"], result["carried"]) >= 0
            if record.void:
                assert result["net"] == 0 and result["carried"] == carried_in.get(result["bet"], 0), result
        staked = sum(Fraction(r["stake"]) for r in record.results)
        back = sum(Fraction(r["returned"]) + Fraction(r["carried"]) for r in record.results)
        house = -sum(Fraction(r["net"]) for r in record.results)
        assert staked == back + house and (house == 0 or not record.void)
        for bet, amount in carried_in.items():
            assert record.bets[bet] >= amount  # a carried stake is in the next round's slip
        carried_in = dict(record.carried)
    assert records[0].results[1]["outcome"] == "carried"  # the 9-9-5 tie of round 1 carries win:1 ...
    assert records[1].carried == {"win:1": 100} == records[2].carried  # ... through both void rounds


@pytest.mark.kernels
def test_a_void_round_past_the_cut_card_ends_the_shoe() -> None:
    table = ObservedTable(SMALL)
    for k in range(11):  # 8 + 10 x 7 = 78 cards out, of 104: the cut card lies 20..30 from the end
        table.play(DECK[:8] if k == 0 else DECK[8 + 7 * (k - 1):15 + 7 * (k - 1)])
    void = table.void(DECK[78:85])  # 85 out: past the earliest the cut card can come out (84)
    assert void.last_of_shoe
    with pytest.raises(ValueError, match="the dealer must shuffle first"):
        table.void([])  # a void round does not start another round past the last
    table.shuffle()
    assert table.play(_rounds()[0]).shoe == 2


@pytest.mark.parametrize(("cards", "match"), [
    (DECK[:9], "at most the 8 of a round here"),
    (["Ac", "Ac", "Ac"], "card 3 of the sequence, Ac, is one more than 2 decks hold"),
    (["Zz"], "card 1 of the sequence: 'Zz' is not a card"),
    (b"Ac", "bytes"),
])
def test_a_void_round_is_checked_as_a_round_is(cards: Any, match: str) -> None:
    table = ObservedTable(SMALL)
    with pytest.raises((ValueError, TypeError), match=match):
        table.void(cards, {"win:1": 100})
    assert table.round == 0 and table.void(["Ac"]).round == 1  # the table as it was


def test_voiding_twice_is_two_void_rounds() -> None:
    table = ObservedTable(ONLINE)
    a, b = table.void(["5h"], {"win:1": 10}), table.void(["5h", "Ks"], {"win:1": 10})
    assert (a.round, b.round, a.shoe, b.shoe) == (1, 2, 1, 2)  # a fresh deck each round: 5h comes back
    assert verify_log([a.to_json(), b.to_json()], rules=ONLINE).void_rounds == 2


# --- verify and the attacker ------------------------------------------------------------------


def _log() -> list[RoundRecord]:
    table = ObservedTable(SMALL, key=KEY)
    rounds = _rounds()
    return [table.play(rounds[0], {"win:1": 100}), table.void(rounds[1][:4], {"win:1": 100}),
            table.play(["Ks", *rounds[2][1:]], {"win:1": 100}), table.play(rounds[3], {"odd": 5})]


def _seal(data: dict[str, Any], prev: str) -> dict[str, Any]:
    data = {**data, "prev": prev}
    data.pop("hash", None)
    data.pop("hmac", None)
    data["hash"] = hashlib.sha256(canonical_bytes(data)).hexdigest()
    data["hmac"] = record_hmac(data, KEY)
    return data


def _rechain(datas: list[dict[str, Any]]) -> list[str]:
    prev, lines = "0" * 64, []
    for data in datas:
        sealed = _seal(data, prev)
        prev = sealed["hash"]
        lines.append(json.dumps(sealed))
    return lines


@pytest.mark.kernels
def test_a_void_flag_added_or_removed_is_refused() -> None:
    records = _log()
    lines = [r.to_json() for r in records]
    assert verify_log(lines, rules=SMALL, key=KEY).ok
    datas = [json.loads(line) for line in lines]
    # edited in place: the hash gives it away, key or no key
    flipped = dict(datas[1], void=False)
    report = verify_log([lines[0], json.dumps(flipped), *lines[2:]], rules=SMALL)
    assert (report.ok, report.first_bad) == (False, 2), report
    # the key's holder rewrites the chain: a void round made normal has no hands to be normal with ...
    assert "field 'banker'" in str(verify_log(_rechain([datas[0], flipped, *datas[2:]]), rules=SMALL, key=KEY).reason)
    # ... and a normal round made void, its cards moved to 'burned', is settled again and disagrees
    normal = datas[2]
    forged = dict(normal, void=True, banker=None, hands={}, winners={},
                  burned=[*normal["burned"], *normal["hands"]["1"]["cards"], *normal["banker"]["cards"]])
    report = verify_log(_rechain([*datas[:2], forged, datas[3]]), rules=SMALL, key=KEY)
    assert (report.ok, report.first_bad) == (False, 3) and "disagrees" in str(report.reason), report
    # and back: the normal round restored under the flag is refused too
    back = dict(forged, void=False)
    assert not verify_log(_rechain([*datas[:2], back, datas[3]]), rules=SMALL, key=KEY).ok


@pytest.mark.kernels
def test_a_void_record_must_return_every_stake_and_hold_cards_the_shoe_had() -> None:
    datas = [json.loads(r.to_json()) for r in _log()]
    kept = json.loads(json.dumps(datas[1]))
    kept["results"][0].update(outcome="void", returned="0", net="-100")  # the stake kept by the house
    assert "field 'results' disagrees" in str(verify_log(_rechain([datas[0], kept, *datas[2:]]), rules=SMALL,
                                                         key=KEY).reason)
    again = json.loads(json.dumps(datas[1]))
    again["burned"] = ["Ac", "Ac", "Ac"]  # a third A♣ from two decks
    assert "one more than 2 decks hold" in str(verify_log(_rechain([datas[0], again, *datas[2:]]), rules=SMALL,
                                                          key=KEY).reason)
    with_hands = json.loads(json.dumps(datas[1]))
    with_hands["head_card"] = "Ac"
    assert "a void round's cards are all in 'burned'" in str(
        verify_log(_rechain([datas[0], with_hands, *datas[2:]]), rules=SMALL, key=KEY).reason)


@pytest.mark.kernels
def test_a_dealt_game_has_no_void_round() -> None:
    record = Game(MACAU, seed=1).play({"odd": 5})
    forged = dataclasses.replace(record, void=True, banker=None, hands={},
                                 burned=(*record.burned, record.banker.cards[0]) if record.banker else ())
    with pytest.raises(ValueError, match="field 'void' disagrees with the replay"):
        Replayer(MACAU).check(forged)
    assert "only observed rounds are void" in str(verify_log([forged.to_json()]).reason)


# --- shuffles done again before a shoe's first round -----------------------------------------


@pytest.mark.kernels
def test_a_reshuffle_before_a_shoes_first_round_is_recorded_and_verified() -> None:
    table = ObservedTable(SMALL)
    table.shuffle()  # the table starts shuffled: this is a shuffle done again
    first = table.play(_rounds()[0])
    second = table.play(_rounds()[1])
    table.shuffle()  # ends the shoe early (article 3.1): not a reshuffle
    table.shuffle()
    table.shuffle()  # two shuffles done again before the next shoe's first round
    third = table.play(_rounds()[0])
    assert (first.reshuffled, second.reshuffled, third.reshuffled, third.shoe) == (1, 0, 2, 2)
    report = verify_log([r.to_json() for r in (first, second, third)], rules=SMALL)
    assert report.ok and report.reshuffles == 3 and "3 shuffles done again" in str(report), report
    online = ObservedTable(ONLINE)
    online.shuffle()  # a fresh deck: any shuffle asked for is one done again (a card exposed while shuffling)
    assert online.play("5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc").reshuffled == 1
    late = dataclasses.replace(second, reshuffled=1)
    assert "only a shoe's first round" in str(verify_log([first.to_json(), late.to_json()], rules=SMALL).reason)
    seeded = dataclasses.replace(Game(MACAU, seed=1).play(), reshuffled=1)
    assert "field 'reshuffled' disagrees" in str(verify_log([seeded.to_json()]).reason)


# --- corrections: the cards in the order they came out ---------------------------------------


@pytest.mark.parametrize(("rules", "cards"), [
    (ONLINE, "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"),
    (MACAU.replace(decks=1, positions=2), "Ac  9c Tc Jc Qc Kc Ad 2d 3d 4d"),
    (MACAU.replace(decks=1, positions=2, deal_one_at_a_time=False), "Ac  9c Tc Jc Qc Kc Ad 2d 3d 4d"),
    (MACAU.replace(decks=8, positions=7), " ".join(DECK[:8] + DECK[20:44])),
])
@pytest.mark.kernels
def test_a_wrong_dealing_order_is_put_right_by_the_order_the_cards_came_out(rules: Any, cards: str) -> None:
    """Putting the cards "in their right place" is the dealing procedure applied to the
    order they came out of the shoe: an independent assignment, written from RULES.md
    sections 2 and 3, agrees with the table's."""
    sequence = cards.split()
    record = ObservedTable(rules).play(sequence, {"win:1": 10})
    burn = rules.burn_first
    rest = sequence[burn:]
    if rules.head_card:  # the head card names the first hand: A 5 9 K banker, 2 6 10 player 1, ...
        head = rest.pop(0)
        first = ("A23456789TJQK".index(head[0])) % 4
        order = [(first + k) % 4 for k in range(4)]
        hands = {h: rest[3 * k:3 * k + 3] for k, h in enumerate(order)}
    elif rules.deal_one_at_a_time:  # position 1 first, the banker last, one card at a time
        order = [*range(1, rules.positions + 1), 0]
        hands = {h: [rest[k * len(order) + i] for k in range(3)] for i, h in enumerate(order)}
    else:
        order = [*range(1, rules.positions + 1), 0]
        hands = {h: rest[3 * i:3 * i + 3] for i, h in enumerate(order)}
    assert [str(c) for c in record.banker.cards] == hands[0]  # type: ignore[union-attr]
    assert {p: [str(c) for c in h.cards] for p, h in record.hands.items()} == {p: hands[p] for p in record.hands}
    deal = assign(rules, [parse_card(c) for c in sequence], burn)
    assert settle(rules, deal.banker, deal.hands, {"win:1": 10}).results[0].returned == record.results[0]["returned"]


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.kernels
def test_the_command_line_voids_and_settles_observed_cards(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["settle", "--rules", "macau", "--void", "--cards", "Qh 2d Td", "--bet", "win:1=100"], capsys)
    assert "void round" in out and "house net 0" in out
    data = json.loads(run(["settle", "--rules", "macau", "--void", "--bet", "odd=5", "--json"], capsys))
    assert data["void"] is True and data["banker"] is None and data["bets"][0]["returned"] == 5
    cards = "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"
    by_cards = json.loads(run(["settle", "--rules", "online", "--cards", cards, "--bet", "win:1=100", "--json"], capsys))
    by_hands = json.loads(run(["settle", "--rules", "online", "--banker", "Ks Qs 9d", "--hand", "1=As 2d 3c",
                               "--hand", "2=4h 4d 4c", "--hand", "3=Jh Jd Tc", "--bet", "win:1=100", "--json"], capsys))
    assert by_cards == by_hands
    fails(["settle", "--rules", "online", "--cards", cards[:-3], "--bet", "win:1=1"], "a round here takes 13", capsys)
    fails(["settle", "--rules", "online", "--void", "--cards", "As As", "--bet", "win:1=5"],
          "more than 1 deck holds", capsys)
    fails(["settle", "--rules", "online", "--void", "--banker", "Ks Qs 9d", "--bet", "win:1=1"], "not both", capsys)


@pytest.mark.kernels
def test_verify_reports_void_rounds(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(r.to_json() + "\n" for r in _log()))
    out = run(["verify", str(path), "--rules-file", str(_rules_file(tmp_path)), "--key-file", str(_key(tmp_path))],
              capsys)
    assert out.startswith("ok: 4 records") and "1 void round" in out
    assert json.loads(run(["verify", str(path), "--rules-file", str(_rules_file(tmp_path)), "--json"],
                          capsys))["void_rounds"] == 1


def _rules_file(tmp_path: Any) -> Any:
    path = tmp_path / "small.toml"
    SMALL.save(path)
    return path


def _key(tmp_path: Any) -> Any:
    path = tmp_path / "k.key"
    path.write_bytes(KEY)
    return path


