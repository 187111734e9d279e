"""Fuzzing rule sets: dicts, keyword arguments and rule files of any content.

The contract, the harness and the budget: ``tests/_fuzzing.py``.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from _fuzzing import (
    FAST,
    FUZZ_MODULE,
    REFUSED,
    _is_int,
    anything,
    call,
    check,
    check_analysis,
    check_record,
    in_child,
    junk_values,
)
from _harness import Violation, fuzz, short
from hypothesis import strategies as st

from sanggong import MACAU, ONLINE, Game, RuleSet, analyze, composition, limits
from sanggong.simulation import simulate

pytestmark = FUZZ_MODULE


# --- rule sets ------------------------------------------------------------------------------------

BOOL_FIELDS = ("tie_requires_win", "deal_one_at_a_time", "head_card", "head_card_burned")


@st.composite
def rule_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A rule set's dict: a preset's, some fields changed to sensible values, some to junk."""
    data = draw(st.sampled_from([MACAU, ONLINE, MACAU.replace(decks=1, positions=3)])).to_dict()
    sensible = {
        "decks": st.integers(1, 10) | st.sampled_from([64, 65, 1000]),
        "positions": st.integers(1, 8) | st.sampled_from([16, 17]),
        "commission": st.sampled_from([0, "1/20", "3/100", "0.05", 0.05, "1/3", "999999/1000000", "1/1000001"]),
        "tie_by": st.sampled_from(["class", "points"]),
        "push": st.sampled_from(["carried", "returned"]),
        "rounding": st.sampled_from(["down", "up", "half_up", "half_even"]),
        "minor_unit": st.sampled_from(["0.01", "1", "0.5", "0.001", "1e-30", "1e-31", "1E+30", 1, 0.01]),
        "burn_after_shuffle": st.integers(0, 5) | st.sampled_from([64, 65]),
        "burn_per_round": st.integers(0, 3) | st.sampled_from([64, 65]),
        "cut_card_range": st.tuples(st.integers(1, 60), st.integers(1, 80)).map(list),
        "banker_three_faces_point": st.sampled_from([0, 9, "none", None, 10]),
        "tie_requires_win": st.booleans(), "deal_one_at_a_time": st.booleans(),
        "head_card": st.booleans(), "head_card_burned": st.booleans(),
        "name": st.text(min_size=1, max_size=10),
    }
    for key in draw(st.lists(st.sampled_from(sorted(sensible)), max_size=4, unique=True)):
        data[key] = draw(sensible[key])
    if draw(st.booleans()):
        pays = dict(data["pays"])
        key = draw(st.sampled_from(sorted(pays)))
        pays[key] = draw(st.one_of(st.integers(0, 50), st.sampled_from(["1/2", "19/20", "1000000", "1000001", "1/1000001",
                                                                           10**6, 10**6 + 1, 10**30, "0.94"]), junk_values))
        data["pays"] = pays
    for _ in range(draw(st.integers(0, 2))):
        how = draw(st.sampled_from(["junk", "delete", "unknown", "bool-string"]))
        if how == "junk" and data:
            data[draw(st.sampled_from(sorted(data)))] = draw(junk_values)
        elif how == "delete" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif how == "unknown":
            data[draw(st.text(max_size=8))] = draw(junk_values)
        else:
            data[draw(st.sampled_from(BOOL_FIELDS))] = draw(st.sampled_from(["false", "true", "0", "no", 0, 1, 2, None]))
    return data


def check_rules_valid(rules: RuleSet, where: str) -> None:
    """What every accepted rule set must satisfy (the limits of sanggong.limits)."""
    check(isinstance(rules, RuleSet), f"{where} = {short(rules)}")
    for name in ("decks", "positions", "burn_per_round"):
        value = getattr(rules, name)
        check(_is_int(value), f"{where}: {name} = {short(value)} is not an int", "AcceptedBadField")
    check(1 <= rules.decks <= limits.MAX_DECKS, f"{where}: decks = {short(rules.decks)}", "AcceptedBeyondLimit")
    check(1 <= rules.positions <= limits.MAX_POSITIONS, f"{where}: positions = {short(rules.positions)}",
          "AcceptedBeyondLimit")
    check(0 <= rules.burn_per_round <= limits.MAX_BURN and 0 <= rules.burn_first <= limits.MAX_BURN,
          f"{where}: burns {short(rules.burn_first)}, {short(rules.burn_per_round)}", "AcceptedBeyondLimit")
    for name in BOOL_FIELDS:
        check(type(getattr(rules, name)) is bool, f"{where}: {name} = {short(getattr(rules, name))} is not a bool",
              "AcceptedNonBool")
    odds = [*rules.pays.values(), *rules.pair_plus_pays.values()]
    for value in odds:
        check(isinstance(value, Fraction) and 0 <= value <= limits.MAX_ODDS and value.denominator <= limits.MAX_DENOMINATOR,
              f"{where}: odds {short(value)}", "AcceptedBeyondLimit")
    c = rules.commission
    check(isinstance(c, Fraction) and 0 <= c < 1 and c.denominator <= limits.MAX_DENOMINATOR,
          f"{where}: commission {short(c)}", "AcceptedBeyondLimit")
    unit = rules.minor_unit
    check(isinstance(unit, Decimal) and unit.is_finite() and unit > 0
          and -limits.MAX_DECIMAL_EXPONENT <= unit.as_tuple().exponent <= limits.MAX_DECIMAL_EXPONENT,
          f"{where}: minor_unit {short(unit)}", "AcceptedBeyondLimit")
    check(isinstance(rules.name, str) and rules.name, f"{where}: name {short(rules.name)}")
    lo, hi = rules.cut_card_range
    check(_is_int(lo) and _is_int(hi), f"{where}: cut_card_range {short(rules.cut_card_range)}", "AcceptedBadField")


def check_rules_usable(rules: RuleSet, where: str) -> None:
    """An accepted rule set round-trips through dicts and files, deals, settles,
    analyses and simulates."""
    check_rules_valid(rules, where)
    again = call(RuleSet.from_dict, rules.to_dict())
    check(again is not REFUSED and again == rules, f"{where}: to_dict/from_dict gives {short(again)}", "NoRoundTrip")
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".json", ".toml"):
            path = Path(tmp) / f"rules{suffix}"
            saved = call(rules.save, path)
            check(saved is not REFUSED, f"{where}: save({suffix}) refused")
            loaded = call(RuleSet.load, path)
            check(loaded is not REFUSED and loaded == rules, f"{where}: save/load {suffix} gives {short(loaded)}",
                  "NoRoundTrip")
    game = call(Game, rules, seed=1)
    check(game is not REFUSED, f"{where}: Game refused an accepted rule set", "Unplayable")
    for _ in range(3):
        record = call(game.play, {})
        check(record is not REFUSED, f"{where}: play() refused", "Unplayable")
        check_record(rules, record, f"{where}: round {record.round}")
    result = call(simulate, rules, 3, seed=1, workers=1, compare_exact=False)
    check(result is not REFUSED, f"{where}: simulate refused an accepted rule set", "Unplayable")
    table = call(analyze, rules)
    check(table is not REFUSED, f"{where}: analyze refused an accepted rule set", "Unplayable")
    check_analysis(table, composition(rules.decks), where)


def check_rule_dict(data: Any, how: str) -> None:
    if how == "from_dict":
        rules = call(RuleSet.from_dict, data)
    elif how == "RuleSet":
        rules = call(RuleSet, **data) if isinstance(data, dict) and all(isinstance(k, str) for k in data) else call(RuleSet, data)
    else:
        base = MACAU if not isinstance(data, dict) or data.get("variant") != "online" else ONLINE
        changes = {k: v for k, v in data.items() if isinstance(k, str)} if isinstance(data, dict) else {}
        rules = call(base.replace, **changes)
    if rules is REFUSED:
        return
    check_rules_usable(rules, f"{how}({short(data)})")


@fuzz(st.one_of(rule_dicts(), rule_dicts(), anything), st.sampled_from(["from_dict", "RuleSet", "replace"]), examples=15)
@pytest.mark.kernels
def test_rule_sets_take_anything(data: Any, how: str) -> None:
    in_child(check_rule_dict, data, how)


@st.composite
def rule_files(draw: st.DrawFn) -> tuple[str, bytes]:
    suffix = draw(st.sampled_from([".json", ".toml", ".txt", ""]))
    kind = draw(st.sampled_from(["valid", "mutated", "bytes", "non-utf8", "nested", "huge", "empty", "bool-string"]))
    data = draw(rule_dicts())
    if kind in ("valid", "mutated", "bool-string"):
        rules = draw(st.sampled_from([MACAU, ONLINE]))
        data = rules.to_dict() if kind != "mutated" else data
        if kind == "bool-string":
            data[draw(st.sampled_from(BOOL_FIELDS))] = "false"
        try:
            text = json.dumps(data, default=str) if suffix != ".toml" else _toml_text(data)
        except (ValueError, TypeError, OverflowError):
            text = "{}"
        body = text.encode("utf-8", "surrogatepass")
    elif kind == "bytes":
        body = draw(st.binary(max_size=200))
    elif kind == "non-utf8":
        body = b'{"name": "\xff\xfe", "variant": "macau"}'
    elif kind == "nested":
        depth = draw(st.sampled_from([100, 1000, 10_000, 100_000]))
        body = (("[" * depth + "]" * depth) if suffix != ".toml" else ("a = " + "[" * depth + "]" * depth)).encode()
    elif kind == "huge":
        pad = limits.MAX_RULE_FILE_BYTES + draw(st.sampled_from([1, 1000, 10_000_000]))
        body = b'{"name": "' + b"x" * pad + b'"}'
    else:
        body = b""
    return suffix, body


def _toml_text(data: Mapping[str, Any]) -> str:
    lines, tables = [], []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append(f"\n[{json.dumps(str(key))}]\n" + "".join(f"{json.dumps(str(k))} = {json.dumps(v, default=str)}\n"
                                                               for k, v in value.items()))
        else:
            lines.append(f"{json.dumps(str(key))} = {json.dumps(value, default=str)}\n")
    return "".join(lines) + "".join(tables)


def check_rule_file(suffix: str, body: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"table{suffix}"
        path.write_bytes(body)
        start = time.perf_counter()
        rules = call(RuleSet.load, path)
        seconds = time.perf_counter() - start
        check(seconds < FAST, f"RuleSet.load of a {len(body)}-byte file took {seconds:.1f} s", "Slow")
        if rules is REFUSED:
            return
        check(len(body) <= limits.MAX_RULE_FILE_BYTES, f"RuleSet.load read a {len(body)}-byte file", "AcceptedBeyondLimit")
        check_rules_usable(rules, f"RuleSet.load({short(body[:200])})")


@fuzz(rule_files(), examples=20)
@pytest.mark.kernels
def test_rule_files_take_anything(case: tuple[str, bytes]) -> None:
    in_child(check_rule_file, *case)


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
def test_rule_file_that_never_ends(path: str) -> None:
    """RuleSet.load reads at most MAX_RULE_FILE_BYTES (+1) of a file: a device that never
    ends is refused quickly (ValueError), not read into memory."""

    def load() -> None:
        result = call(RuleSet.load, path)
        check(result is REFUSED, f"RuleSet.load({path}) gave {short(result)}")

    in_child(load, timeout=5)


def test_rule_file_path_of_any_type() -> None:
    def load_all() -> None:
        for path in (123, None, b"\xff.json", "\x00.json", "", Path(tempfile.gettempdir()), 1.5, ["a"], "no/such/file.json"):
            try:
                RuleSet.load(path)  # type: ignore[arg-type]
            except (ValueError, TypeError, FileNotFoundError, IsADirectoryError):
                continue
            except BaseException as exc:
                raise Violation(type(exc).__name__, f"RuleSet.load({short(path)}) raised {type(exc).__name__}: {exc}") from exc

    in_child(load_all)
