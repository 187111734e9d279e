"""Rule sets: one strict validation for the API, dicts and files.

Every way in (``RuleSet(...)``, ``replace``, ``from_dict``, ``load``) meets one
validation; every bad input is refused with ``TypeError`` or ``ValueError`` naming the
field, fast, before any number is expanded.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
import typing
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sanggong import limits
from sanggong.ranking import Ranking
from sanggong.rules import MACAU, ONLINE, PAIR_PLUS_CATEGORIES, SAN_GONG, VARIANTS, RuleSet
from sanggong.rules._files import PairPlusFile as _PairPlusFile
from sanggong.rules._files import RuleFile as _RuleFile
from sanggong.rules._files import pays_file as _pays_file
from sanggong.rules._files import to_toml as _toml

FIELDS = [f.name for f in dataclasses.fields(RuleSet)]
HUGE = 10**100000

_PAY_KEYS = {name: variant.pay_keys for name, variant in VARIANTS.items()}


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
    assert set(_pays_file().__struct_fields__) == set().union(*_PAY_KEYS.values())
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
    with pytest.raises(TypeError, match="^'colour': unknown field of a rule set$"):
        MACAU.replace(colour="red")
    with pytest.raises(TypeError, match=r"^'deck': unknown field of a rule set \(did you mean 'decks'\?\)$"):
        MACAU.replace(decks=6, deck=6)
    with pytest.raises(TypeError, match=r"^'xxxx.*\(5000 characters\): unknown field"):  # never the whole name
        MACAU.replace(**{"x" * 5000: 1})


@pytest.mark.parametrize(("changes", "hint"), [
    ({"variant": "macua"}, "'macau'"),
    ({"pays": {"winn": 1}}, "'win'"),
    ({"commission_bets": ["winn"]}, "'win'"),
])
def test_a_rule_set_s_mistyped_names_get_the_closest_one(changes: dict[str, Any], hint: str) -> None:
    with pytest.raises(ValueError, match=rf"\(did you mean {hint}\?\)"):
        MACAU.replace(**changes)


def test_a_ranking_s_mistyped_names_get_the_closest_one() -> None:
    from sanggong import Ranking

    with pytest.raises(ValueError, match=r"ranking.order: .*got 'pints' \(did you mean 'points'\?\)"):
        Ranking(order="pints")
    with pytest.raises(ValueError, match=r"ranking.high_card: .*\(did you mean 'rank_suit'\?\)"):
        Ranking(high_card="rank_siut")


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


# --- a close match for every mistyped name of a rule file (issue "round three", item 4) -------


def _dropped(name: str) -> str:
    """``name`` with one letter from its middle dropped (a typo no valid name is)."""
    i = len(name) // 2
    return name[:i] + name[i + 1:]


def _plus_key(table: str, key: str) -> dict[str, Any]:
    """ONLINE's dict (every table of a file present) with ``key`` added to ``table`` (the top: "")."""
    data = {k: dict(v) if isinstance(v, dict) else _jsonable(v) for k, v in ONLINE.to_dict().items()}
    (data[table] if table else data)[key] = 1
    return data


_KNOWN = [("", name) for name in FIELDS] + [("pays", name) for name in sorted(set().union(*_PAY_KEYS.values()))] \
    + [("pair_plus_pays", name) for name in PAIR_PLUS_CATEGORIES] \
    + [("ranking", f.name) for f in dataclasses.fields(Ranking)]


@pytest.mark.parametrize(("table", "name"), _KNOWN, ids=lambda x: x or "top")
def test_a_mistyped_name_in_a_rule_file_is_named_with_the_closest(table: str, name: str) -> None:
    """Every field, bet, category and ranking field, mistyped in a dict, a TOML and a JSON
    text: the one message names the name meant."""
    typo = _dropped(name)
    data = _plus_key(table, typo)
    hint = f"(did you mean {name!r}?)"
    for read in (lambda: RuleSet.from_dict(data), lambda: RuleSet.loads(_toml(data), "toml"),
                 lambda: RuleSet.loads(json.dumps(data), "json")):
        with pytest.raises(ValueError) as exc:
            read()
        assert str(exc.value).endswith(hint) and typo in str(exc.value), exc.value


def test_a_name_close_to_none_gets_no_guess() -> None:
    with pytest.raises(ValueError) as exc:
        RuleSet.from_dict(_plus_key("pays", "zzzzzz"))
    assert str(exc.value) == "pays: unknown bet 'zzzzzz'"


_CHOSEN = [(name, value) for name, hint in typing.get_type_hints(RuleSet).items()
           if typing.get_origin(hint) is typing.Literal and name != "variant" for value in typing.get_args(hint)]


@pytest.mark.parametrize(("field", "value"), _CHOSEN, ids=str)
def test_a_mistyped_choice_is_named_with_the_closest(field: str, value: str) -> None:
    """Every choice of a field (``rounding = "dwn"``), mistyped: the message names it."""
    typo = _dropped(value)
    with pytest.raises(ValueError, match=rf"^{field}: .*'{typo}' \(did you mean '{value}'\?\)$"):
        ONLINE.replace(**{field: typo})


@pytest.mark.parametrize("key", ["a\nb", "x" * 10000, "tab\there"])
def test_an_unknown_name_is_shown_short_and_on_one_line(key: str) -> None:
    for table in ("", "ranking"):
        with pytest.raises(ValueError) as exc:
            RuleSet.from_dict(_plus_key(table, key))
        message = str(exc.value)
        assert message.endswith("unknown field of a rule set" if not table else "unknown field of a ranking")
        assert len(message) < 120 and message.isprintable(), message
