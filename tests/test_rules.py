"""Rule sets: presets, variants, files, bet catalogues, and invalid rule sets.

Every way in (``RuleSet(...)``, ``replace``, ``from_dict``, ``load``) meets one
validation; every bad input is refused with ``TypeError`` or ``ValueError`` naming the
field, fast, before any number is expanded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tempfile
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from sanggong import analyze, limits
from sanggong.ranking import HIGH_CARDS, ORDERS, TIERS, Ranking, tables_for
from sanggong.dealing import Game
from sanggong.rules import (
    MACAU,
    ONLINE,
    PAIR_PLUS_CATEGORIES,
    PRESETS,
    SAN_GONG,
    BetSpec,
    RuleSet,
    parse_bet,
)
from sanggong.rules._bets import PAY_KEYS as _PAY_KEYS
from sanggong.rules._files import PairPlusFile as _PairPlusFile
from sanggong.rules._files import PaysFile as _PaysFile
from sanggong.rules._files import RuleFile as _RuleFile
from sanggong.rules._files import to_toml as _toml
from sanggong.rules._ruleset import DRAGON_PHOENIX_FIELDS as _DRAGON_PHOENIX_FIELDS
from sanggong._table import table_params


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


# --- one strict validation for the API, dicts and files -----------------------------------

FIELDS = [f.name for f in dataclasses.fields(RuleSet)]
HUGE = 10**100000


def _names_field(message: str, field: str) -> bool:
    """The message starts with the field (after the file's path, for ``load``)."""
    return re.search(rf"(^|: ){re.escape(field)}\b", message) is not None


def _jsonable(value: object) -> object:
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def test_file_structs_cover_every_field() -> None:
    assert list(_RuleFile.__struct_fields__) == FIELDS
    assert set(_PaysFile.__struct_fields__) == set().union(*_PAY_KEYS.values())
    assert set(_PairPlusFile.__struct_fields__) == set(PAIR_PLUS_CATEGORIES)


# (base preset, field, bad value, the error RuleSet(...) and from_dict raise); ``load``
# raises ValueError for every one of them. The message must name ``field``.
BAD_FIELDS: list[tuple[RuleSet, str, Any, type[Exception]]] = [
    (MACAU, "name", 5, TypeError),
    (MACAU, "name", "", ValueError),
    (MACAU, "name", "   ", ValueError),
    (MACAU, "name", "a\nb", ValueError),
    (MACAU, "name", "tab\there", ValueError),
    (MACAU, "name", "nul\x00", ValueError),
    (MACAU, "name", "bell\x07", ValueError),
    (MACAU, "name", "x" * 65, ValueError),
    (MACAU, "name", ["macau"], TypeError),
    (MACAU, "variant", 5, TypeError),
    (MACAU, "variant", "vegas", ValueError),
    (MACAU, "variant", ["macau"], TypeError),
    (MACAU, "decks", 0, ValueError),
    (MACAU, "decks", 65, ValueError),
    (MACAU, "decks", True, TypeError),
    (MACAU, "decks", "8", TypeError),
    (MACAU, "decks", 8.0, TypeError),
    (MACAU, "decks", None, TypeError),
    (MACAU, "decks", [8], TypeError),
    (MACAU, "decks", HUGE, ValueError),
    (MACAU, "decks", -HUGE, ValueError),
    (MACAU, "positions", 0, ValueError),
    (MACAU, "positions", 17, ValueError),
    (MACAU, "positions", "7", TypeError),
    (ONLINE, "positions", 4, ValueError),
    (MACAU, "pays", [1], TypeError),
    (MACAU, "pays", "win=1", TypeError),
    (MACAU, "pays", {"win": [1]}, TypeError),
    (MACAU, "pays", {"win": True}, TypeError),
    (MACAU, "pays", {"win": None}, TypeError),
    (MACAU, "pays", {"win": {"n": 1}}, TypeError),
    (MACAU, "pays", {1: 2}, TypeError),
    (MACAU, "pays", {"win": -1}, ValueError),
    (MACAU, "pays", {"win": "-1/2"}, ValueError),
    (MACAU, "pays", {"win": 10**6 + 1}, ValueError),
    (MACAU, "pays", {"win": HUGE}, ValueError),
    (MACAU, "pays", {"win": "1e999999999"}, ValueError),
    (MACAU, "pays", {"win": "1E5"}, ValueError),
    (MACAU, "pays", {"win": "1_000"}, ValueError),
    (MACAU, "pays", {"win": " 1"}, ValueError),
    (MACAU, "pays", {"win": "inf"}, ValueError),
    (MACAU, "pays", {"win": "nan"}, ValueError),
    (MACAU, "pays", {"win": "1/0"}, ValueError),
    (MACAU, "pays", {"win": "1/1000001"}, ValueError),
    (MACAU, "pays", {"win": "1" * 41}, ValueError),
    (MACAU, "pays", {"win": "0." + "0" * 38 + "1"}, ValueError),
    (MACAU, "pays", {"win": 1e-7}, ValueError),
    (MACAU, "pays", {"win": 1e300}, ValueError),
    (MACAU, "pays", {"win": float("inf")}, ValueError),
    (MACAU, "pays", {"win": float("nan")}, ValueError),
    (MACAU, "pays", {"lose": 1}, ValueError),
    (MACAU, "pays", {"winn": 1}, ValueError),
    (MACAU, "pays", {"tie": 8, "odd": 1}, ValueError),  # tie_requires_win: a Tie without a Win bet
    (ONLINE, "pair_plus_pays", {"pair": 1}, ValueError),  # every category or none
    (ONLINE, "pair_plus_pays", {**ONLINE.to_dict()["pair_plus_pays"], "royal": 100}, ValueError),
    (ONLINE, "pair_plus_pays", [1, 3, 6, 30, 40], TypeError),
    (ONLINE, "pair_plus_pays", {**ONLINE.to_dict()["pair_plus_pays"], "flush": "x"}, ValueError),
    (MACAU, "pair_plus_pays", ONLINE.to_dict()["pair_plus_pays"], ValueError),
    (MACAU, "commission", 1, ValueError),
    (MACAU, "commission", "1", ValueError),
    (MACAU, "commission", "2/2", ValueError),
    (MACAU, "commission", -0.05, ValueError),
    (MACAU, "commission", "abc", ValueError),
    (MACAU, "commission", "5%", ValueError),
    (MACAU, "commission", "1/3000000", ValueError),
    (MACAU, "commission", 0.1 + 0.2, ValueError),  # 0.30000000000000004: denominator 10**17
    (MACAU, "commission", True, TypeError),
    (MACAU, "commission", [0.05], TypeError),
    (MACAU, "commission", None, TypeError),
    (MACAU, "commission_bets", "win", TypeError),
    (MACAU, "commission_bets", [1], TypeError),
    (MACAU, "commission_bets", [["win"]], TypeError),
    (MACAU, "commission_bets", {"win": 1}, TypeError),
    (MACAU, "commission_bets", ["lose"], ValueError),
    (MACAU, "tie_by", "faces", ValueError),
    (MACAU, "tie_by", 5, TypeError),
    (MACAU, "push", "kept", ValueError),
    (MACAU, "push", None, TypeError),
    (MACAU, "banker_three_faces_odd_even", "win", ValueError),
    (MACAU, "rounding", "nearest", ValueError),
    (MACAU, "rounding", ["down"], TypeError),
    (MACAU, "banker_three_faces_point", 10, ValueError),
    (MACAU, "banker_three_faces_point", -1, ValueError),
    (MACAU, "banker_three_faces_point", True, TypeError),
    (MACAU, "banker_three_faces_point", 1.0, TypeError),
    (MACAU, "banker_three_faces_point", "nothing", TypeError),
    (MACAU, "tie_requires_win", "false", TypeError),
    (MACAU, "tie_requires_win", "true", TypeError),
    (MACAU, "tie_requires_win", 0, TypeError),
    (MACAU, "deal_one_at_a_time", 1, TypeError),
    (MACAU, "head_card", None, TypeError),
    (ONLINE, "head_card_burned", "yes", TypeError),
    (MACAU, "minor_unit", 0.01, TypeError),  # money is never a float
    (MACAU, "minor_unit", True, TypeError),
    (MACAU, "minor_unit", [1], TypeError),
    (MACAU, "minor_unit", "0", ValueError),
    (MACAU, "minor_unit", "-0.01", ValueError),
    (MACAU, "minor_unit", 0, ValueError),
    (MACAU, "minor_unit", "abc", ValueError),
    (MACAU, "minor_unit", "NaN", ValueError),
    (MACAU, "minor_unit", "Infinity", ValueError),
    (MACAU, "minor_unit", "1e999999999", ValueError),
    (MACAU, "minor_unit", "1e-999999999", ValueError),
    (MACAU, "minor_unit", "1E-31", ValueError),
    (MACAU, "minor_unit", "1E+31", ValueError),
    (MACAU, "minor_unit", HUGE, ValueError),
    (MACAU, "minor_unit", "0." + "0" * 40 + "1", ValueError),
    (MACAU, "burn_after_shuffle", -1, ValueError),
    (MACAU, "burn_after_shuffle", 65, ValueError),
    (MACAU, "burn_after_shuffle", "8", TypeError),
    (MACAU, "burn_after_shuffle", True, TypeError),
    (MACAU, "burn_per_round", -1, ValueError),
    (MACAU, "burn_per_round", 65, ValueError),
    (MACAU, "burn_per_round", 1.0, TypeError),
    (MACAU, "burn_per_round", None, TypeError),
    (MACAU, "cut_card_range", [40, 30], ValueError),
    (MACAU, "cut_card_range", [0, 10], ValueError),
    (MACAU, "cut_card_range", [30, 416], ValueError),  # high < 52 * 8
    (MACAU, "cut_card_range", [30, HUGE], ValueError),
    (MACAU, "cut_card_range", [30], TypeError),
    (MACAU, "cut_card_range", [30, 35, 40], TypeError),
    (MACAU, "cut_card_range", "30-40", TypeError),
    (MACAU, "cut_card_range", [True, 40], TypeError),
    (MACAU, "cut_card_range", [30.0, 40], TypeError),
    (MACAU, "cut_card_range", {"low": 30, "high": 40}, TypeError),
    (SAN_GONG, "total_pays", {"0": 1}, ValueError),  # a winning total of 0 returns the bets
    (SAN_GONG, "total_pays", {"0-6": 1}, ValueError),
    (SAN_GONG, "total_pays", {"1-1": 1}, ValueError),
    (SAN_GONG, "total_pays", {"6-1": 1}, ValueError),
    (SAN_GONG, "total_pays", {"1-10": 1}, ValueError),
    (SAN_GONG, "total_pays", {"01-6": 1}, ValueError),
    (SAN_GONG, "total_pays", {"1 - 6": 1}, ValueError),
    (SAN_GONG, "total_pays", {"1-6": -1}, ValueError),
    (SAN_GONG, "total_pays", {"1-6": "x"}, ValueError),
    (SAN_GONG, "total_pays", {"1-6": None}, TypeError),
    (SAN_GONG, "total_pays", [1, 2, 4], TypeError),
    (MACAU, "total_pays", {"9": 4}, ValueError),
    (MACAU, "pair_counts_trips", True, ValueError),
    (ONLINE, "total_tier", "push", ValueError),
    (MACAU, "total_zero", "both", ValueError),
    (SAN_GONG, "pair_counts_trips", "yes", TypeError),
    (SAN_GONG, "pair_counts_trips", 1, TypeError),
    (SAN_GONG, "total_tier", "nine", ValueError),
    (SAN_GONG, "total_tier", None, TypeError),
    (SAN_GONG, "total_zero", "either", ValueError),
    (SAN_GONG, "total_zero", 0, TypeError),
    (SAN_GONG, "banker_three_faces_odd_even", "even", ValueError),
    (SAN_GONG, "pays", {"total": 1}, ValueError),  # a total bet's odds are its range's, in total_pays
    (SAN_GONG, "commission_bets", ["pair_plus"], ValueError),
]


def _bad_id(case: tuple[RuleSet, str, Any, type[Exception]]) -> str:
    try:
        text = repr(case[2])
    except ValueError:  # holds an int too long for Python to print
        text = "HUGE"
    return f"{case[0].name}-{case[1]}={text[:30]}"


def _with(rules: RuleSet, field: str, value: Any) -> dict[str, Any]:
    data = rules.to_dict()
    if field == "pays" and isinstance(value, dict) and len(value) == 1:
        value = {**data["pays"], **value}  # one bad odds among the preset's good ones
    data[field] = value
    return data


@pytest.mark.parametrize("case", BAD_FIELDS, ids=[_bad_id(c) for c in BAD_FIELDS])
def test_every_bad_field_is_refused_and_named(case: tuple[RuleSet, str, Any, type[Exception]]) -> None:
    rules, field, value, error = case
    data = _with(rules, field, value)
    with pytest.raises(error) as direct:
        rules.replace(**{field: data[field]})
    assert type(direct.value) is error and _names_field(str(direct.value), field), direct.value
    with pytest.raises(error) as from_dict:
        RuleSet.from_dict(data)
    assert type(from_dict.value) is error and _names_field(str(from_dict.value), field), from_dict.value


def _json_text(case: tuple[RuleSet, str, Any, type[Exception]]) -> str | None:
    try:
        return json.dumps(_with(case[0], case[1], case[2]), allow_nan=False)
    except ValueError:  # an int too long for Python to print, or a NaN or infinity: not JSON
        return None


BAD_JSON = [case for case in BAD_FIELDS if _json_text(case) is not None]


@pytest.mark.single_impl
@pytest.mark.parametrize("case", BAD_JSON, ids=[_bad_id(c) for c in BAD_JSON])
def test_every_bad_field_in_a_json_file_is_refused_and_named(
    tmp_path: Path, case: tuple[RuleSet, str, Any, type[Exception]]
) -> None:
    """Files go through the same checks as from_dict (the kernels play no part)."""
    field, text = case[1], _json_text(case)
    assert text is not None
    path = tmp_path / "table.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as exc:
        RuleSet.load(path)
    assert type(exc.value) is ValueError
    assert str(exc.value).startswith(f"{path}: ") and _names_field(str(exc.value), field), exc.value


@pytest.mark.parametrize(
    ("replace", "field", "match"),
    [
        (("tie_requires_win = true", 'tie_requires_win = "false"'), "tie_requires_win",
         "tie_requires_win: expected a bool, got a str"),
        (("decks = 8", 'decks = "8"'), "decks", "decks: expected an int, got a str"),
        (("decks = 8", "decks = 8.0"), "decks", "decks: expected an int, got a float"),
        (("decks = 8", "decks = 65"), "decks", "decks: must be at most 64, got 65"),
        (("decks = 8", "decks = " + "9" * 5000), "decks", "decks: not valid TOML"),
        (("decks = 8", "colour = 8\ndecks = 8"), "colour", "colour: unknown field of a rule set"),
        (("tie = 20", "tie = 1e999999999"), "pays.tie", "pays.tie: expected a finite number, got inf"),
        (("tie = 20", 'tie = "1e999999999"'), "pays.tie", "pays.tie: '1e999999999' is not a number"),
        (("tie = 20", "tie = " + "9" * 5000), "pays.tie", r"pays.tie: not valid TOML"),
        (("tie = 20", "tie = nan"), "pays.tie", "pays.tie: expected a finite number, got nan"),
        (("tie = 20", "tie = [20]"), "pays.tie", "pays.tie: expected an int, a float or a str, got an array"),
        (("tie = 20", "tie = 2026-11-30"), "pays.tie", "pays.tie: expected an int, a float or a str, got a date"),
        (("tie = 20", "tie = { n = 20 }"), "pays.tie", "pays.tie: expected .*, got a table"),
        (("tie = 20", "lose = 20"), "pays", "pays: unknown bet 'lose'"),
        (("tie = 20", "royal = 20"), "pays", "pays: unknown bet 'royal'"),
        (('minor_unit = "0.01"', "minor_unit = 0.01"), "minor_unit", "minor_unit: expected an int or a str, got a float"),
        (("cut_card_range = [30, 40]", "cut_card_range = [30]"), "cut_card_range",
         "cut_card_range: expected an array of length 2"),
        (("cut_card_range = [30, 40]", 'cut_card_range = "30"'), "cut_card_range",
         "cut_card_range: expected an array, got a str"),
        (("cut_card_range = [30, 40]", "cut_card_range = [30, 500]"), "cut_card_range", "cut_card_range: expected 1 <= low"),
        (('commission_bets = ["even", "odd", "win"]', 'commission_bets = "win"'), "commission_bets",
         "commission_bets: expected an array, got a str"),
        (('name = "macau"', 'name = "a\\u0007b"'), "name", "name: must be printable"),
        (("[pays]", "pays = [1]\n[other]"), "pays", "pays"),
    ],
)
def test_bad_toml_fields_are_named(tmp_path: Path, replace: tuple[str, str], field: str, match: str) -> None:
    good = _toml(MACAU.to_dict())
    assert replace[0] in good
    path = tmp_path / "table.toml"
    path.write_text(good.replace(replace[0], replace[1], 1), encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(ValueError) as exc:
        RuleSet.load(path)
    assert time.perf_counter() - started < 1
    assert type(exc.value) is ValueError and re.search(match, str(exc.value)), exc.value
    assert _names_field(str(exc.value), field), exc.value


def test_huge_numbers_are_refused_fast() -> None:
    """Nothing is expanded before it is bounded: Fraction('1e999999999') would hang and
    10**100000 has more digits than Python prints."""
    data = MACAU.to_dict()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"pays": {**data["pays"], "tie": "1e999999999"}}, "pays.tie"),
        ({"pays": {**data["pays"], "tie": "1/1e999999999"}}, "pays.tie"),
        ({"pays": {**data["pays"], "tie": HUGE}}, "pays.tie"),
        ({"commission": "1e-999999999"}, "commission"),
        ({"commission": HUGE}, "commission"),
        ({"decks": HUGE}, "decks"),
        ({"positions": -HUGE}, "positions"),
        ({"burn_per_round": HUGE}, "burn_per_round"),
        ({"cut_card_range": [HUGE, HUGE]}, "cut_card_range"),
        ({"minor_unit": "1e999999999"}, "minor_unit"),
        ({"minor_unit": HUGE}, "minor_unit"),
        ({"banker_three_faces_point": HUGE}, "banker_three_faces_point"),
    ]
    started = time.perf_counter()
    for change, field in cases:
        with pytest.raises(ValueError) as exc:
            RuleSet.from_dict({**data, **change})
        assert _names_field(str(exc.value), field), exc.value
        with pytest.raises((ValueError, TypeError)) as exc2:
            MACAU.replace(**change)
        assert _names_field(str(exc2.value), field), exc2.value
    python_values: list[tuple[str, Any]] = [
        ("commission", Decimal("1e-999999999")),
        ("commission", Fraction(1, HUGE)),
        ("commission", Decimal("sNaN")),
        ("minor_unit", Decimal("1e999999999")),
        ("minor_unit", Decimal("1e-999999999")),
        ("minor_unit", Decimal("sNaN")),
        ("minor_unit", Decimal("-Infinity")),
    ]
    for field, value in python_values:
        with pytest.raises(ValueError, match=f"^{field}: "):
            MACAU.replace(**{field: value})
    with pytest.raises(ValueError, match="^pays.tie: "):
        MACAU.replace(pays={**MACAU.pays, "tie": Decimal("1e999999999")})
    assert time.perf_counter() - started < 2


def test_numbers_as_text_and_floats() -> None:
    pays = {**MACAU.to_dict()["pays"], "tie": "19/20", "point": "8.5", "odd": 0.95, "even": "0"}
    rules = MACAU.replace(pays=pays, commission="0.03")
    assert rules.pays["tie"] == Fraction(19, 20) and rules.pays["point"] == Fraction(17, 2)
    assert rules.pays["odd"] == Fraction(19, 20) and rules.commission == Fraction(3, 100)
    assert rules.pays["even"] == 0  # odds 0: a win returns the stake only
    assert MACAU.replace(pays={**MACAU.pays, "tie": Decimal("8.5")}).pays["tie"] == Fraction(17, 2)
    assert MACAU.replace(pays={**MACAU.pays, "tie": limits.MAX_ODDS}).pays["tie"] == limits.MAX_ODDS
    assert MACAU.replace(commission=Fraction(1, limits.MAX_DENOMINATOR)).commission.denominator == limits.MAX_DENOMINATOR
    assert MACAU.replace(commission="0." + "0" * 5 + "1").commission == Fraction(1, 10**6)


def test_minor_units_are_canonical_decimals() -> None:
    assert MACAU.replace(minor_unit="0.010").minor_unit == Decimal("0.01")
    assert str(MACAU.replace(minor_unit="0.010").minor_unit) == "0.01"
    assert str(MACAU.replace(minor_unit="1E+2").minor_unit) == "100"
    assert str(MACAU.replace(minor_unit=5).minor_unit) == "5"
    assert MACAU.replace(minor_unit="1E-30").minor_unit == Decimal("1E-30")
    assert MACAU.replace(minor_unit=10**30).minor_unit == 10**30
    assert MACAU.replace(minor_unit=Decimal("0.050")).digest() == MACAU.replace(minor_unit="0.05").digest()


def test_names() -> None:
    assert MACAU.replace(name="三公 Macau, table 7 — “VIP”").name.startswith("三公")
    assert MACAU.replace(name="x" * 64).name == "x" * 64
    for bad in ("x" * 65, "a\nb", "a\rb", "\x1b[31mred", "a\u2028b", "zero\u200bwidth", "\ud800"):
        with pytest.raises(ValueError, match="^name: "):
            MACAU.replace(name=bad)


def test_replace_refuses_unknown_fields() -> None:
    with pytest.raises(TypeError, match="^colour: unknown field of a rule set"):
        MACAU.replace(colour="red")
    with pytest.raises(TypeError, match="^deck: unknown field"):
        MACAU.replace(decks=6, deck=6)


WITH_INT_KEY: dict[Any, Any] = {**MACAU.to_dict()}
WITH_INT_KEY[5] = 1


@pytest.mark.parametrize(
    ("data", "error", "match"),
    [
        ([1, 2], TypeError, "a rule set is a table of fields, not list"),
        (WITH_INT_KEY, TypeError, "a rule set is a table of fields: expected a str"),
        ({**MACAU.to_dict(), "decks": 8, "Decks": 8}, ValueError, "^Decks: unknown field"),
        ({k: v for k, v in MACAU.to_dict().items() if k != "name"}, ValueError, "^name: missing"),
        ({**MACAU.to_dict(), "pays": {"win": "1/2", "bonus": 1}}, ValueError, "^pays: unknown bet 'bonus'"),
        ({**MACAU.to_dict(), "banker_three_faces_point": None}, None, None),
        ({**MACAU.to_dict(), "cut_card_range": (25, 30)}, None, None),
        ({**MACAU.to_dict(), "commission_bets": ("win", "win")}, None, None),
    ],
)
def test_from_dict_is_strict(data: Any, error: type[Exception] | None, match: str | None) -> None:
    if error is None:
        assert isinstance(RuleSet.from_dict(data), RuleSet)
        return
    assert match is not None
    with pytest.raises(error, match=match):
        RuleSet.from_dict(data)


def test_deeply_nested_input(tmp_path: Path) -> None:
    deep = "[" * 30000 + "]" * 30000
    cases = {
        "root.json": deep,
        "field.json": json.dumps({**MACAU.to_dict(), "pays": "DEEP"}).replace('"DEEP"', deep),
        "odds.json": json.dumps({**MACAU.to_dict(), "pays": {"win": "DEEP"}}).replace('"DEEP"', deep),
        "field.toml": _toml(MACAU.to_dict()).replace("decks = 8", "decks = " + deep),
        "unknown.toml": _toml(MACAU.to_dict()).replace("decks = 8", "x = " + deep),
        "tables.toml": "a = " + "{ a = " * 5000 + "1" + " }" * 5000,
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert path.stat().st_size <= limits.MAX_RULE_FILE_BYTES
        with pytest.raises(ValueError, match=re.escape(str(path))):
            RuleSet.load(path)
    nested: Any = 1
    for _ in range(100000):
        nested = [nested]
    with pytest.raises(TypeError, match="^pays: expected "):
        RuleSet.from_dict({**MACAU.to_dict(), "pays": nested})
    with pytest.raises(TypeError, match="^pays: expected a table of odds, got a list"):
        MACAU.replace(pays=nested)


def test_bad_files(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    MACAU.save(good)
    assert RuleSet.load(good) == MACAU
    latin = tmp_path / "latin.toml"
    latin.write_bytes(_toml(MACAU.replace(name="caf\xe9").to_dict()).encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin.toml: not UTF-8 text \(byte \d+\)"):
        RuleSet.load(latin)
    with pytest.raises(ValueError, match="is a directory"):
        RuleSet.load(tmp_path)
    with pytest.raises(ValueError, match="missing.json: cannot read the rule file"):
        RuleSet.load(tmp_path / "missing.json")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    with pytest.raises(ValueError, match="empty.json: not valid JSON"):
        RuleSet.load(empty)
    array = tmp_path / "array.json"
    array.write_text("[]")
    with pytest.raises(ValueError, match="array.json: a rule set is a table of fields"):
        RuleSet.load(array)
    bad_json = tmp_path / "nan.json"
    bad_json.write_text(json.dumps({**MACAU.to_dict(), "commission": float("nan")}))  # NaN is not JSON
    with pytest.raises(ValueError, match="nan.json: not valid JSON"):
        RuleSet.load(bad_json)


def test_large_files_are_refused_before_they_are_read(tmp_path: Path) -> None:
    limit = limits.MAX_RULE_FILE_BYTES
    text = json.dumps(MACAU.to_dict())
    at_limit = tmp_path / "at_limit.json"
    at_limit.write_text(text + " " * (limit - len(text)))
    assert at_limit.stat().st_size == limit and RuleSet.load(at_limit) == MACAU
    over = tmp_path / "over.json"
    over.write_text(text + " " * (limit + 1 - len(text)))
    with pytest.raises(ValueError, match=f"over.json: {limit + 1} bytes, more than the {limit}"):
        RuleSet.load(over)
    sparse = tmp_path / "sparse.toml"  # 64 GiB that take no disk: refused by its size, not read
    with sparse.open("wb") as f:
        f.truncate(1 << 36)
    started = time.perf_counter()
    with pytest.raises(ValueError, match="more than the"):
        RuleSet.load(sparse)
    if Path("/dev/zero").exists():  # no size to stat: read at most one byte past the limit
        with pytest.raises(ValueError, match=f"/dev/zero: more than the {limit} bytes"):
            RuleSet.load("/dev/zero")
    assert time.perf_counter() - started < 1


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


# --- properties -------------------------------------------------------------------------------

_BIG = {"huge": HUGE, "-huge": -HUGE, "big": 10**400, "-big": -(10**400)}


def _big(name: str) -> int:
    return _BIG[name]


_JSON_LEAVES = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50)
    | st.sampled_from(sorted(_BIG)).map(_big)  # (mapped: hypothesis cannot print HUGE)
    | st.sampled_from([2**64, "1e999999999", "1/0", "-1", "0.05", "19/20", "none", "0", "", "macau",
                       "online", "points", "carried", "win", "\x00", 10**6, 65, 17, 0, 1, 3, 52, 415, 416])
)
_JSON = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
_KEYS = st.sampled_from([*FIELDS, "colour", "", "pays.win"])
_ODDS_KEYS = st.sampled_from([*sorted(_PAY_KEYS["macau"] | _PAY_KEYS["online"]), *PAIR_PLUS_CATEGORIES, "x"])


@st.composite
def _mutated(draw: st.DrawFn) -> dict[str, Any]:
    data = draw(st.sampled_from([MACAU, ONLINE])).to_dict()
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["set", "plausible", "plausible", "plausible", "delete", "odds"]))
        if action == "set":
            data[draw(_KEYS)] = draw(_JSON)
        elif action == "plausible":  # a value of about the right kind, so that some build
            key = draw(st.sampled_from(FIELDS))
            other = draw(st.sampled_from([MACAU, ONLINE])).to_dict()
            data[key] = draw(st.sampled_from([other.get(key), other.get(key)]) | st.integers(0, 70) | st.booleans()
                             | st.sampled_from(["class", "returned", "lose", "half_up", "1/2", "0.25", "none"]))
        elif action == "delete":
            data.pop(draw(_KEYS), None)
        else:
            table = draw(st.sampled_from(["pays", "pair_plus_pays"]))
            if isinstance(data.get(table), dict):
                data[table] = {**data[table], draw(_ODDS_KEYS): draw(_JSON)}
    return data


@pytest.mark.single_impl
@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutated())
def test_any_mutated_dict_builds_or_raises_value_or_type_error(data: dict[str, Any]) -> None:
    """Rule sets do not touch the kernels. Whatever a dict holds, from_dict, the
    constructor and a JSON file built from it either make the same rule set or refuse it
    with ValueError/TypeError (ValueError for a file) -- never anything else, and fast."""
    started = time.perf_counter()
    try:
        built: RuleSet | None = RuleSet.from_dict(data)
    except (ValueError, TypeError) as exc:
        built = None
        assert str(exc)
    event("built" if built is not None else "refused")
    if built is not None:
        assert RuleSet.from_dict(built.to_dict()) == built
    try:
        direct: RuleSet | None = RuleSet(**data)
    except (ValueError, TypeError):
        direct = None
    if built is not None:
        assert direct == built
    try:
        text = json.dumps(data)
    except ValueError:  # an int too long for Python to print
        text = None
    if text is not None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "table.json"
            path.write_text(text, encoding="utf-8")
            try:
                loaded: RuleSet | None = RuleSet.load(path)
            except ValueError as exc:
                assert type(exc) is ValueError
                loaded = None
        assert loaded == built or (built is None and loaded is None) or "NaN" in text or "Infinity" in text
    assert time.perf_counter() - started < 1


_PRINTABLE = st.characters(codec="utf-8", exclude_categories=["Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"],
                           include_characters=" ")
_KINDS_OF = {"macau": {"win", "tie", "odd", "even", "three_faces", "point"},
             "online": {"win", "lose", "tie", "three_faces", "pair_plus"},
             "dragon_phoenix": {"dragon", "phoenix", "tie", "odd", "even", "pair", "total"},
             "banker_game": {"player"}}


_POSITIVE_ODDS = st.one_of(
    st.integers(0, limits.MAX_ODDS),
    st.fractions(min_value=0, max_value=1000, max_denominator=limits.MAX_DENOMINATOR),
    st.sampled_from(["1/2", "0.95", "19/20", "8.5", "0", "1000000"]),
)


@st.composite
def _valid_rule_sets(draw: st.DrawFn) -> RuleSet:
    variant = draw(st.sampled_from(["macau", "online", "dragon_phoenix", "banker_game"]))
    online = variant == "online"
    ranking = Ranking(
        order=draw(st.sampled_from(ORDERS)),
        tiers=tuple(draw(st.permutations(TIERS))[: draw(st.integers(0, len(TIERS)))]),
        high_card=draw(st.sampled_from(HIGH_CARDS)),
    )
    # a suit tie-break counts by cards: at most two decks, to keep the analysis quick here
    decks = draw(st.integers(1, 2 if ranking.uses_suits else limits.MAX_DECKS))
    positions = 3 if online else 1 if variant == "dragon_phoenix" else draw(st.integers(1, limits.MAX_POSITIONS))
    multipliers = {}
    if variant == "banker_game":
        multipliers = {key: draw(st.integers(1, 100) | st.fractions(Fraction(1, 100), 100, max_denominator=100)
                                 .filter(lambda x: x > 0)) for key in
                       (*(str(n) for n in range(10)), *ranking.tiers)}
    pays = draw(st.dictionaries(st.sampled_from(sorted(_PAY_KEYS[variant])), _POSITIVE_ODDS)) if _PAY_KEYS[variant] else {}
    pair_plus = draw(st.sampled_from([{}, {c: draw(_POSITIVE_ODDS) for c in PAIR_PLUS_CATEGORIES}])) if online else {}
    low = draw(st.integers(1, 52 * decks - 1))
    fresh = online or decks == 1
    two_hands = variant == "dragon_phoenix"
    ranges = [str(a) if a == b else f"{a}-{b}" for a in range(1, 10) for b in range(a, 10)]
    totals = draw(st.dictionaries(st.sampled_from(ranges), _POSITIVE_ODDS, max_size=4)) if two_hands else {}
    kwargs: dict[str, Any] = {
        "name": draw(st.text(_PRINTABLE, min_size=1, max_size=64).filter(lambda s: s.strip() != "")),
        "variant": variant, "decks": decks, "positions": positions, "pays": pays, "pair_plus_pays": pair_plus,
        "commission": draw(st.fractions(min_value=0, max_value=Fraction(99, 100), max_denominator=1000)),
        "commission_bets": draw(st.frozensets(st.sampled_from(sorted(_KINDS_OF[variant])))),
        "tie_by": draw(st.sampled_from(["class", "points"])),
        "push": draw(st.sampled_from(["carried", "returned"])),
        "banker_three_faces_odd_even": draw(st.sampled_from(["push", "lose", "points"])),
        "banker_three_faces_point": draw(st.none() | st.integers(0, 9)),
        "tie_requires_win": draw(st.booleans()) if "win" in pays or "tie" not in pays else False,
        "rounding": draw(st.sampled_from(["down", "half_up", "half_even", "up"])),
        "minor_unit": draw(st.sampled_from(["0.01", "1", "0.05", "100", "1E-30", "0.125", "25"])),
        "burn_after_shuffle": draw(st.none() | st.integers(0, limits.MAX_BURN)),
        "burn_per_round": draw(st.integers(0, limits.MAX_BURN)),
        "cut_card_range": (low, draw(st.integers(low, 52 * decks - 1))),
        "deal_one_at_a_time": draw(st.booleans()),
        "head_card": draw(st.booleans()) if fresh else False,
        "head_card_burned": draw(st.booleans()),
        "ranking": ranking,
        "multipliers": multipliers,
        "total_pays": totals,
        "pair_counts_trips": draw(st.booleans()) if two_hands else False,
        "total_tier": draw(st.sampled_from(["points", "push"])) if two_hands else "points",
        "total_zero": draw(st.sampled_from(["winner", "both"])) if two_hands else "winner",
    }
    try:
        return RuleSet(**kwargs)
    except ValueError as exc:
        assert str(exc).startswith("positions: ")  # only the deal may not fit
        assume(False)
        raise


@pytest.mark.single_impl
@settings(max_examples=200, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=_valid_rule_sets())
def test_files_round_trip_any_valid_rule_set(rules: RuleSet) -> None:
    """Rule sets do not touch the kernels. save then load gives the same rule set, in
    both formats, and the same digest; every round it can be asked to deal fits."""
    assert rules.round_cards(True) <= 52 * rules.decks
    assert rules.fresh_deck_each_round or rules.round_cards(False) <= rules.cut_card_range[0]
    assert RuleSet.from_dict(rules.to_dict()) == rules
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".toml", ".json"):
            path = Path(tmp) / f"table{suffix}"
            rules.save(path)
            loaded = RuleSet.load(path)
            assert loaded == rules and loaded.digest() == rules.digest()
            assert hash(loaded) == hash(rules)


@pytest.mark.single_impl
@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=_valid_rule_sets())
def test_any_accepted_rule_set_can_be_dealt_analysed_and_simulated(rules: RuleSet) -> None:
    """One validation shared by all three: what RuleSet accepts, the dealer deals, the
    analysis counts (every bet's outcomes covering every deal) and the compiled round
    loop simulates, the reference's loop dealing the same hands."""
    from sanggong import _core, _pykernels
    from sanggong.simulation import _histograms, simulate

    game = Game(rules, seed=5)
    for _ in range(3):
        assert len(game.play().hands) == rules.positions
    if rules.bets:
        table = analyze(rules)
        for bet in table.bets.values():
            assert sum(line.combinations for line in bet.outcomes) == bet.total
        result = simulate(rules, 300, seed=2, workers=1)
        assert result.rounds == 300 and set(result.bets) == set(rules.bets)
    pairs, single = _histograms(rules)
    pairs_ref, single_ref = _histograms(rules)
    stop = np.zeros(1, dtype=np.uint8)
    source = tables_for(rules.ranking)
    assert _core.simulate_chunk(np.random.PCG64(9), _core.Tables(source), table_params(rules).array(), 50, pairs, single, None,
                                None, None, stop) == 50
    assert _pykernels.simulate_chunk(np.random.PCG64(9), _pykernels.Tables(source), table_params(rules).array(), 50, pairs_ref,
                                     single_ref, None, None, None, stop) == 50
    assert (pairs == pairs_ref).all() and (single == single_ref).all()
