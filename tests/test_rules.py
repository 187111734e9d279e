"""Rule sets: presets, variants, files, bet catalogues, and invalid rule sets."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from sanggong.rules import MACAU, ONLINE, PRESETS, RuleSet, parse_bet


def test_presets_follow_rules_md() -> None:
    assert MACAU.pays == {"win": 1, "tie": 20, "odd": 1, "even": 1, "three_faces": 16, "point": 8}
    assert MACAU.commission == Fraction(5, 100)
    assert MACAU.commission_bets == {"win", "odd", "even"}
    assert (MACAU.push, MACAU.tie_requires_win, MACAU.banker_three_faces_point) == ("carried", True, 0)
    assert ONLINE.pays["win_on_six"] == ONLINE.pays["lose_on_six"] == Fraction(1, 2)
    assert ONLINE.pair_plus_pays == {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 3, "pair": 1}
    assert (ONLINE.commission, ONLINE.push, ONLINE.positions, ONLINE.head_card) == (0, "returned", 3, True)
    assert PRESETS == {"macau": MACAU, "online": ONLINE}


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
    for rules in (MACAU, ONLINE):
        for name in rules.bets:
            assert rules.bet(name).name == name


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


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"positions": 0}, ValueError, "positions: must be at least 1, got 0"),
        ({"positions": 9}, ValueError, "positions: 9 positions need 31 cards"),
        ({"decks": 1, "positions": 17}, ValueError, "positions: 17 positions need 55 cards"),
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
        ({"variant": "vegas"}, ValueError, "variant: expected 'macau' or 'online'"),
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
    with pytest.raises(FileNotFoundError):
        RuleSet.load(tmp_path / "missing.toml")


def test_rule_sets_are_hashable_values() -> None:
    assert hash(MACAU) == hash(MACAU.replace())
    assert MACAU.replace(tie_by="points") != MACAU
    assert len({MACAU, ONLINE, MACAU.replace()}) == 2
