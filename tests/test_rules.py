"""Rule sets: presets, variants, files, bet catalogues, what the core can deal, the digest.

The one validation every way in meets: ``tests/test_rules_validation.py``; properties over
any rule set: ``tests/test_rules_properties.py``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sanggong import limits
from sanggong.dealing import Game
from sanggong.ranking import Ranking
from sanggong.rules import MACAU, ONLINE, PRESETS, SAN_GONG, BetSpec, RuleSet, parse_bet, variant_of

FIELDS = [f.name for f in dataclasses.fields(RuleSet)]

# the fields of the side bets of a two-hand table, and their defaults (docs/rules.md)
_DRAGON_PHOENIX_FIELDS = {"total_pays": {}, "pair_counts_trips": False, "total_tier": "points", "total_zero": "winner"}


def test_presets_follow_rules_md() -> None:
    assert MACAU.pays == {"win": 1, "tie": 20, "odd": 1, "even": 1, "three_faces": 16, "point": 8}
    assert MACAU.commission == Fraction(5, 100)
    assert MACAU.commission_bets == {"win", "odd", "even"}
    assert (MACAU.push, MACAU.tie_requires_win, MACAU.banker_three_faces_point) == ("carried", True, 0)
    assert ONLINE.pays["win_on_six"] == ONLINE.pays["lose_on_six"] == Fraction(1, 2)
    assert ONLINE.pair_plus_pays == {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 3, "pair": 1}
    assert (ONLINE.commission, ONLINE.push, ONLINE.positions, ONLINE.head_card) == (0, "returned", 3, True)
    assert list(PRESETS) == ["macau", "online", "nagaworld", "genting", "genting_no_commission", "prosperity",
                             "san_gong", "chinese"]
    assert PRESETS["macau"] is MACAU and PRESETS["online"] is ONLINE
    assert all(name == rules.name for name, rules in PRESETS.items())


def test_bet_catalogues_use_canonical_names() -> None:
    macau = MACAU.bets
    expected = {f"win:{i}" for i in range(1, 8)} | {f"tie:{i}" for i in range(1, 8)}
    expected |= {"odd", "even", "three_faces"} | {f"point:{n}" for n in range(10)}
    assert set(macau) == expected
    online = ONLINE.bets
    expected = {f"{k}:{i}" for k in ("win", "lose", "tie", "three_faces", "pair_plus") for i in (1, 2, 3)}
    assert set(online) == expected | {"pair_plus:banker"}
    assert all(isinstance(text, str) and text for text in [*macau.values(), *online.values()])
    assert "banker" in online["pair_plus:banker"]
    san_gong = SAN_GONG.bets
    expected = {"dragon", "phoenix", "tie", "total:1-6", "total:7-8", "total:9"}
    expected |= {f"{k}:{h}" for k in ("odd", "even", "pair") for h in ("dragon", "phoenix")}
    assert set(san_gong) == expected
    assert "Phoenix" in san_gong["pair:phoenix"] and "7 or 8" in san_gong["total:7-8"]
    for rules in (MACAU, ONLINE, SAN_GONG):
        for name in rules.bets:
            assert rules.bet(name).name == name


def test_the_side_bets_of_a_two_hand_table() -> None:
    """Dragon is hand 1 and Phoenix hand 0 (the banker's place); a total bet reads both
    hands (position 1, Dragon against Phoenix) and carries its range as 10 x low + high."""
    assert SAN_GONG.bet("odd:dragon") == BetSpec("odd:dragon", "odd", 1)
    assert SAN_GONG.bet("even:phoenix") == BetSpec("even:phoenix", "even", 0)
    assert SAN_GONG.bet("total:7-8") == BetSpec("total:7-8", "total", 1, 78)
    assert SAN_GONG.bet("total:9") == BetSpec("total:9", "total", 1, 99)
    assert MACAU.bet("point:7") == BetSpec("point:7", "point", 7, 7)
    assert (parse_bet("pair:dragon").position, parse_bet("pair:phoenix").position) == (1, 0)
    assert parse_bet("total:1-6") == BetSpec("total:1-6", "total", -1, 16)
    assert [SAN_GONG.bet_odds(n) for n in ("dragon", "pair:dragon", "total:1-6", "total:7-8", "total:9")] == \
        [Fraction(94, 100), Fraction(94, 100), 1, 2, 4]
    table = SAN_GONG.replace(total_pays={"1-3": 1, "4-9": Fraction(1, 2)}, pair_counts_trips=True, total_tier="push")
    assert [n for n in table.bets if n.startswith("total:")] == ["total:1-3", "total:4-9"]
    assert "or three of a kind" in table.bets["pair:dragon"] and "three faces" in table.bets["total:4-9"]
    assert table.bet_odds("total:4-9") == Fraction(1, 2)
    assert not any(n.startswith("total:") for n in SAN_GONG.replace(total_pays={}).bets)
    odd_only = SAN_GONG.replace(pays={k: v for k, v in SAN_GONG.pays.items() if k not in ("even", "pair")})
    assert {n.partition(":")[0] for n in odd_only.bets} == {"dragon", "phoenix", "tie", "odd", "total"}


def test_other_tables_do_not_carry_the_side_bets_fields() -> None:
    """The side-bet fields are the dragon_phoenix variant's: other rule sets keep their
    defaults and leave them out of their dicts, so their files and digests are those they
    had before the fields existed (a round record finds its preset by its digest)."""
    assert variant_of("dragon_phoenix").unlisted == set(_DRAGON_PHOENIX_FIELDS)
    for rules in PRESETS.values():
        data = rules.to_dict()
        assert (set(_DRAGON_PHOENIX_FIELDS) <= set(data)) == (rules.variant == "dragon_phoenix"), rules.name
        if rules.variant != "dragon_phoenix":
            assert not set(_DRAGON_PHOENIX_FIELDS) & set(data)
            assert all(getattr(rules, k) == v for k, v in _DRAGON_PHOENIX_FIELDS.items())
        old = {k: v for k, v in data.items() if k not in _DRAGON_PHOENIX_FIELDS}
        if rules.variant != "dragon_phoenix":  # a file written before the fields existed reads the same
            assert RuleSet.from_dict(old).digest() == rules.digest()


def test_a_bet_without_odds_is_not_offered() -> None:
    no_points = MACAU.replace(pays={k: v for k, v in MACAU.pays.items() if k != "point"})
    assert not any(name.startswith("point:") for name in no_points.bets)
    with pytest.raises(ValueError, match="unknown bet 'point:3'"):
        no_points.bet("point:3")


@pytest.mark.parametrize(
    ("rules", "name", "match"),
    [
        (MACAU, "lose:1", "unknown bet 'lose:1'"),
        (MACAU, "win:8", "no such win bet"),
        (MACAU, "win:0", "no such win bet"),
        (MACAU, "win", "no such win bet"),
        (MACAU, "point:10", "no such point bet"),
        (MACAU, "odd:1", "no such odd bet"),
        (MACAU, "pair_plus:1", "unknown bet"),
        (ONLINE, "odd", "unknown bet 'odd'"),
        (ONLINE, "win:4", "no such win bet"),
        (ONLINE, "win:banker", "no such win bet"),
        (ONLINE, "Win:1", "unknown bet 'Win:1'"),
        (ONLINE, "win:01", "'01' is not a position"),
        (ONLINE, "", "unknown bet ''"),
        (ONLINE, "pair_plus:dragon", "no such pair_plus bet"),
        (ONLINE, "pair_plus:1-6", "no such pair_plus bet"),
        (MACAU, "win:dragon", "no such win bet"),
        (MACAU, "odd:dragon", "no such odd bet"),
        (MACAU, "point:1-6", "no such point bet"),
        (MACAU, "total:1-6", "unknown bet 'total:1-6': the macau table offers"),
        (SAN_GONG, "odd", "no such odd bet"),
        (SAN_GONG, "odd:1", "no such odd bet"),
        (SAN_GONG, "pair:banker", "no such pair bet"),
        (SAN_GONG, "pair:dragons", "'dragons' is not a position"),
        (SAN_GONG, "dragon:1", "no such dragon bet"),
        (SAN_GONG, "total", "no such total bet"),
        (SAN_GONG, "total:0", "no such total bet"),
        (SAN_GONG, "total:1-5", "no such total bet"),
        (SAN_GONG, "total:6", "no such total bet"),
        (SAN_GONG, "total:6-1", "'6-1' is not a range of totals"),
        (SAN_GONG, "total:1-1", "'1-1' is not a range of totals"),
        (SAN_GONG, "total:1-10", "'1-10' is not a position"),
        (SAN_GONG, "pair_plus:dragon", "the dragon_phoenix table offers dragon, phoenix, tie, odd, even, pair, total"),
    ],
)
def test_unknown_bets(rules: RuleSet, name: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        rules.bet(name)


def test_parse_bet_rejects_non_strings() -> None:
    with pytest.raises(TypeError, match="not 5"):
        parse_bet(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize(
    "rules",
    [
        MACAU,
        ONLINE,
        MACAU.replace(name="three pictures", tie_by="points", pays={**MACAU.pays, "tie": 8}),
        MACAU.replace(name="3% one deck", decks=1, positions=5, commission=Fraction(3, 100),
                      banker_three_faces_point=None, rounding="half_even", cut_card_range=(20, 25)),
        SAN_GONG,
        SAN_GONG.replace(total_pays={"1-3": 1, "4-9": "1/2", "9": 5}, pair_counts_trips=True, total_tier="push",
                         total_zero="both", banker_three_faces_odd_even="lose", commission_bets={"total"},
                         commission="0.05", decks=2),
    ],
)
def test_files_round_trip(tmp_path: Path, rules: RuleSet, suffix: str) -> None:
    path = tmp_path / f"table{suffix}"
    rules.save(path)
    assert RuleSet.load(path) == rules


def test_a_hand_written_toml_table(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(
        'name = "my table"\nvariant = "macau"\ndecks = 6\npositions = 5\ncommission = 0.03\n'
        'commission_bets = ["win", "odd", "even"]\ntie_by = "points"\npush = "carried"\n'
        '[pays]\nwin = 1\ntie = 8\nodd = 1\neven = 1\nthree_faces = "16"\npoint = "17/2"\n'
    )
    rules = RuleSet.load(path)
    assert rules.commission == Fraction(3, 100)  # read through the float's decimal text
    assert rules.pays["point"] == Fraction(17, 2) and rules.pays["three_faces"] == 16
    assert rules.decks == 6 and rules.tie_by == "points"


def test_a_hand_written_toml_two_hand_table(tmp_path: Path) -> None:
    """Ranges of totals are TOML's bare keys; a field left out takes its default."""
    path = tmp_path / "table.toml"
    path.write_text(
        'name = "dragon and phoenix"\nvariant = "dragon_phoenix"\ndecks = 1\npositions = 1\n'
        'pair_counts_trips = true\n[pays]\ndragon = "0.95"\nphoenix = "0.95"\npair = 1\n'
        '[total_pays]\n1-5 = 1\n6-8 = "3/2"\n9 = 4\n'
    )
    rules = RuleSet.load(path)
    assert rules.total_pays == {"1-5": 1, "6-8": Fraction(3, 2), "9": 4}
    assert (rules.pair_counts_trips, rules.total_tier, rules.total_zero) == (True, "points", "winner")
    assert set(rules.bets) == {"dragon", "phoenix", "pair:dragon", "pair:phoenix", "total:1-5", "total:6-8", "total:9"}


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"positions": 0}, ValueError, "positions: must be at least 1, got 0"),
        ({"positions": 9}, ValueError, "positions: 9 positions need 31 cards"),
        ({"decks": 1, "positions": 16, "burn_after_shuffle": 2}, ValueError, "positions: 16 positions need 53 cards"),
        ({"decks": 1, "positions": 17}, ValueError, "positions: must be at most 16, got 17"),
        ({"decks": 0}, ValueError, "decks: must be at least 1"),
        ({"decks": "8"}, TypeError, "decks: expected an int"),
        ({"pays": {**MACAU.pays, "tie": -20}}, ValueError, r"pays.tie: must not be negative"),
        ({"pays": {**MACAU.pays, "tie": "lots"}}, ValueError, r"pays.tie: 'lots' is not a number"),
        ({"pays": {**MACAU.pays, "lose": 1}}, ValueError, "pays: unknown bet 'lose'"),
        ({"pair_plus_pays": {"pair": 1}}, ValueError, "Pair Plus is a bet of the online variant"),
        ({"commission": 1}, ValueError, "commission: must be below 1"),
        ({"commission": -0.05}, ValueError, "commission: must not be negative"),
        ({"commission_bets": frozenset({"tie", "lose"})}, ValueError, "commission_bets: unknown bet 'lose'"),
        ({"tie_by": "faces"}, ValueError, "tie_by: expected one of"),
        ({"push": "kept"}, ValueError, "push: expected one of"),
        ({"rounding": "nearest"}, ValueError, "rounding: expected one of"),
        ({"banker_three_faces_point": 10}, ValueError, "banker_three_faces_point"),
        ({"cut_card_range": (40, 30)}, ValueError, "cut_card_range"),
        ({"minor_unit": "0"}, ValueError, "minor_unit"),
        ({"variant": "vegas"}, ValueError, "variant: expected one of .*'macau', 'online'"),
        ({"name": ""}, ValueError, "name: expected a non-empty string"),
    ],
)
def test_invalid_fields_are_named(change: dict[str, object], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        MACAU.replace(**change)
    data = {**MACAU.to_dict(), **{k: (sorted(v) if isinstance(v, frozenset) else list(v) if isinstance(v, tuple) else v)
                                  for k, v in change.items()}}
    if "pays" in change:
        data["pays"] = {k: (str(v) if not isinstance(v, (int, str)) else v) for k, v in change["pays"].items()}  # type: ignore[attr-defined]
    with pytest.raises(error, match=match):
        RuleSet.from_dict(data)


def test_online_variant_has_three_players() -> None:
    with pytest.raises(ValueError, match="online variant has 3 players, got 4"):
        ONLINE.replace(positions=4)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({**MACAU.to_dict(), "colour": "red"}, "colour: unknown field"),
        ({k: v for k, v in MACAU.to_dict().items() if k != "pays"}, "pays: missing"),
    ],
)
def test_invalid_dicts(data: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        RuleSet.from_dict(data)


def test_invalid_files(tmp_path: Path) -> None:
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("name = \n")
    with pytest.raises(ValueError, match="not valid TOML"):
        RuleSet.load(bad_toml)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text(json.dumps({**MACAU.to_dict(), "positions": 0}))
    with pytest.raises(ValueError, match="positions: must be at least 1"):
        RuleSet.load(bad_json)
    with pytest.raises(ValueError, match="missing.toml: cannot read the rule file: No such file"):
        RuleSet.load(tmp_path / "missing.toml")


def test_rule_sets_are_hashable_values() -> None:
    assert hash(MACAU) == hash(MACAU.replace())
    assert MACAU.replace(tie_by="points") != MACAU
    assert len({MACAU, ONLINE, MACAU.replace()}) == 2

# --- dealable by the core -------------------------------------------------------------------


def test_round_cards() -> None:
    assert (MACAU.round_cards(True), MACAU.round_cards(False)) == (8 + 24, 1 + 24)
    assert ONLINE.round_cards(True) == 0 + 1 + 12  # the burned head card
    assert ONLINE.replace(head_card_burned=False).round_cards(True) == 12
    assert MACAU.replace(burn_after_shuffle=3).round_cards(True) == 27
    assert MACAU.cards_per_round == 32 and ONLINE.cards_per_round == 13


@pytest.mark.parametrize(
    ("change", "fits"),
    [
        # a fresh deck each round: only the first round's cards count
        ({"decks": 1, "positions": 16}, True),  # 1 burned + 51 = 52
        ({"decks": 1, "positions": 16, "burn_after_shuffle": 2}, False),
        ({"decks": 1, "positions": 16, "burn_per_round": 64}, True),  # no later rounds
        # a shoe's first round (the old check forgot it)
        ({"decks": 2, "positions": 16, "burn_after_shuffle": 53, "cut_card_range": (60, 100)}, True),
        ({"decks": 2, "positions": 16, "burn_after_shuffle": 54, "cut_card_range": (60, 100)}, False),
        # a shoe's later rounds, behind the cut card's minimum
        ({"burn_per_round": 6}, True),  # 6 + 24 = 30
        ({"burn_per_round": 7}, False),
        ({"positions": 9}, False),
        ({"cut_card_range": (25, 40)}, True),
        ({"cut_card_range": (24, 40)}, False),
        ({"decks": 64, "positions": 16, "burn_per_round": 64, "cut_card_range": (115, 3327)}, True),
        ({"decks": 64, "positions": 16, "burn_per_round": 64, "cut_card_range": (114, 3327)}, False),
    ],
)
@pytest.mark.kernels
def test_only_dealable_rule_sets_are_made(change: dict[str, Any], fits: bool) -> None:
    if not fits:
        with pytest.raises(ValueError, match=r"^positions: \d+ positions need \d+ cards a round"):
            MACAU.replace(**change)
        return
    rules = MACAU.replace(**change)
    assert rules.round_cards(True) <= 52 * rules.decks
    assert rules.fresh_deck_each_round or rules.round_cards(False) <= rules.cut_card_range[0]
    game = Game(rules, seed=11)  # and the dealer deals it, shoe after shoe
    for _ in range(12 if rules.decks < 8 else 3):
        record = game.play()
        assert len(record.hands) == rules.positions


def test_a_head_card_needs_a_fresh_deck() -> None:
    with pytest.raises(ValueError, match="^head_card: a head card needs a fresh deck each round"):
        MACAU.replace(head_card=True)
    with pytest.raises(ValueError, match="^head_card: "):
        MACAU.replace(decks=2, positions=3, head_card=True)
    one_deck = MACAU.replace(decks=1, positions=3, head_card=True)
    assert one_deck.round_cards(True) == 1 + 1 + 12
    assert ONLINE.replace(decks=8).head_card  # online: a fresh shoe each round


def test_burns() -> None:
    assert MACAU.replace(burn_after_shuffle=0).burn_first == 0
    assert MACAU.replace(decks=64, cut_card_range=(30, 40)).burn_first == 64
    assert MACAU.replace(burn_after_shuffle=limits.MAX_BURN).burn_first == limits.MAX_BURN
    for field in ("burn_after_shuffle", "burn_per_round"):
        with pytest.raises(ValueError, match=f"^{field}: must be at most {limits.MAX_BURN}"):
            MACAU.replace(**{field: limits.MAX_BURN + 1})
        with pytest.raises(ValueError, match=f"^{field}: must be at least 0"):
            MACAU.replace(**{field: -1})


# --- digest -------------------------------------------------------------------------------


def test_digest_is_the_sha256_of_the_canonical_json() -> None:
    rules = MACAU.replace(name="三公")
    text = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert rules.digest() == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert re.fullmatch(r"[0-9a-f]{64}", rules.digest())


# A different valid value for every field (from MACAU, or ONLINE for its own fields).
CHANGES: list[tuple[RuleSet, str, Any]] = [
    (MACAU, "name", "macau "), (MACAU, "variant", None), (MACAU, "decks", 6), (MACAU, "positions", 6),
    (MACAU, "pays", {**MACAU.pays, "tie": 19}), (MACAU, "pays", {**MACAU.pays, "tie": Fraction(41, 2)}),
    (MACAU, "pays", {k: v for k, v in MACAU.pays.items() if k != "point"}),
    (ONLINE, "pair_plus_pays", {**ONLINE.pair_plus_pays, "flush": 4}), (ONLINE, "pair_plus_pays", {}),
    (MACAU, "commission", Fraction(3, 100)), (MACAU, "commission_bets", frozenset({"win"})),
    (MACAU, "tie_by", "points"), (MACAU, "push", "returned"), (MACAU, "banker_three_faces_odd_even", "lose"),
    (MACAU, "banker_three_faces_point", None), (MACAU, "banker_three_faces_point", 9),
    (MACAU, "tie_requires_win", False), (MACAU, "rounding", "half_even"), (MACAU, "minor_unit", "0.1"),
    (MACAU, "burn_after_shuffle", 8), (MACAU, "burn_after_shuffle", 0), (MACAU, "burn_per_round", 0),
    (MACAU, "cut_card_range", (30, 41)), (MACAU, "deal_one_at_a_time", False),
    (ONLINE, "head_card", False), (ONLINE, "head_card_burned", False),
    (MACAU, "ranking", Ranking(order="faces_points")), (MACAU, "ranking", Ranking(high_card="rank")),
    (PRESETS["chinese"], "multipliers", {**PRESETS["chinese"].multipliers, "9": 4}),
    (SAN_GONG, "total_pays", {**SAN_GONG.total_pays, "9": 5}), (SAN_GONG, "total_pays", {"1-9": 1}),
    (SAN_GONG, "pair_counts_trips", True), (SAN_GONG, "total_tier", "push"), (SAN_GONG, "total_zero", "both"),
    (MACAU, "banker_three_faces_odd_even", "points"),
]


def test_digest_binds_every_field() -> None:
    assert MACAU.digest() == MACAU.replace().digest() == RuleSet.from_dict(MACAU.to_dict()).digest()
    assert MACAU.digest() == MACAU.replace(pays=dict(reversed(list(MACAU.pays.items())))).digest()
    assert MACAU.digest() == MACAU.replace(commission="0.05", minor_unit="0.010").digest()
    seen = {MACAU.digest(), ONLINE.digest()}
    assert len(seen) == 2
    changed = {name for _, name, _ in CHANGES if name != "variant"}
    assert changed == set(FIELDS) - {"variant"}
    for base, name, value in CHANGES:
        if name == "variant":
            continue  # every field of the other variant differs; covered by MACAU != ONLINE
        other = base.replace(**{name: value})
        assert other != base and other.digest() != base.digest(), name
        seen.add(other.digest())
    assert len(seen) == len(CHANGES) + 1  # all different
