"""The command line as users first meet it: ``sanggong rules list`` and ``rules show``
(the presets, and one as a rule file to edit), ``sanggong bets`` (a table's bets and
pays), the ``simulate`` table that explains its columns, and ``sanggong --version``.

The tests of what does not depend on the kernels run once; the ``simulate`` and
``--version`` tests run under both implementations (``kernels``), whose name they print.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest
from cli_run import fails, run

import sanggong
from sanggong import ONLINE, RuleSet
from sanggong.cli import DEFAULT_PRESET, build_parser, main
from sanggong.cli._output import odds_text
from sanggong.cli._version import _cpu_features
from sanggong.rules import PRESETS, preset_description

ALL = list(PRESETS)




# --- rules list ---------------------------------------------------------------------------------------


def test_rules_list_text(capsys: pytest.CaptureFixture[str]) -> None:
    """One line per preset, after a heading: name, variant, decks, positions, description.
    (Reads the presets only: the kernels play no part, so it runs once.)"""
    lines = run(["rules", "list"], capsys).splitlines()
    assert lines[0].split() == ["preset", "variant", "decks", "positions", "description"]
    assert len(lines) == 1 + len(PRESETS)
    for line, (name, rules) in zip(lines[1:], PRESETS.items(), strict=True):
        fields = line.split(maxsplit=4)
        assert fields[:4] == [name, rules.variant, str(rules.decks), str(rules.positions)], line
        assert fields[4] == preset_description(name)
        assert line == line.rstrip()


def test_rules_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    """The same as JSON, and every preset has a one-line description. (Presets only: once.)"""
    data = json.loads(run(["rules", "list", "--json"], capsys))
    assert data["default"] == "macau" == DEFAULT_PRESET and build_parser().parse_args(["bets"]).rules is None
    assert [p["name"] for p in data["presets"]] == ALL
    for preset in data["presets"]:
        rules = PRESETS[preset["name"]]
        assert preset == {"name": rules.name, "variant": rules.variant, "decks": rules.decks,
                          "positions": rules.positions, "description": preset_description(rules.name)}
    assert run(["rules", "--json", "list"], capsys) == run(["rules", "list", "--json"], capsys)  # either place
    for text in map(preset_description, PRESETS):  # every preset has one
        assert text and "\n" not in text and len(text) <= 100 and text.isascii()


# --- rules show ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL)
def test_rules_show_is_a_rule_file(preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rules show PRESET`` prints exactly what ``RuleSet.save`` writes, TOML or (--json)
    JSON, and the printed text, saved to a file, loads equal to the preset and works with
    --rules-file. (Rule files only: once.)"""
    rules = PRESETS[preset]
    for suffix, extra in ((".toml", []), (".json", ["--json"])):
        text = run(["rules", "show", preset, *extra], capsys)
        saved = tmp_path / f"saved{suffix}"
        rules.save(saved)
        assert text == saved.read_text(encoding="utf-8")
        printed = tmp_path / f"printed{suffix}"
        printed.write_text(text, encoding="utf-8")
        loaded = RuleSet.load(printed)
        assert loaded == rules and loaded.digest() == rules.digest()
        bets = json.loads(run(["bets", "--rules-file", str(printed), "--json"], capsys))
        assert bets["rules"] == preset and [b["bet"] for b in bets["bets"]] == list(rules.bets)
    data = json.loads(run(["rules", "show", preset, "--json"], capsys))
    assert data == rules.to_dict()
    assert run(["rules", "--json", "show", preset], capsys) == run(["rules", "show", preset, "--json"], capsys)


def test_an_edited_rule_file_is_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The workflow the subcommand is for: show, edit, use. (Rule files only: once.)"""
    text = run(["rules", "show", "macau"], capsys)
    assert "tie = 20\n" in text
    table = tmp_path / "mine.toml"
    table.write_text(text.replace('name = "macau"', 'name = "mine"').replace("tie = 20\n", "tie = 25\n"),
                     encoding="utf-8")
    data = json.loads(run(["bets", "--rules-file", str(table), "--json"], capsys))
    assert data["rules"] == "mine"
    assert {b["bet"]: b["pays"] for b in data["bets"]}["tie:1"] == 25


@pytest.mark.parametrize(
    ("argv", "needle", "prog"),
    [
        (["rules"], "the following arguments are required: ACTION", "rules"),
        (["rules", "nonsense"], "invalid choice: 'nonsense'", "rules"),
        (["rules", "--json"], "the following arguments are required: ACTION", "rules"),
        (["rules", "show"], "the following arguments are required: PRESET", "rules show"),
        (["rules", "show", "baccarat"], "invalid choice: 'baccarat'", "rules show"),
        (["rules", "show", "macau", "--decks", "6"], "unrecognized arguments: --decks 6", "rules show"),
        (["rules", "list", "--rules", "macau"], "unrecognized arguments: --rules macau", "rules list"),
    ],
)
def test_rules_bad_input_exits_2(argv: list[str], needle: str, prog: str, capsys: pytest.CaptureFixture[str]) -> None:
    """(Argument parsing only: once. Unrecognized arguments are the command's that got them.)"""
    fails(argv, needle, capsys, prog=prog)


# --- bets ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL)
def test_bets_json_is_the_rule_set(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every bet of the table, in order, with the description of ``rules.bets`` and the pays
    of the rule set: odds to 1, the six-point pays, commission, Pair Plus pays, multipliers.
    (Rule sets only: once.)"""
    rules = PRESETS[preset]
    data = json.loads(run(["bets", "--rules", preset, "--json"], capsys))
    assert (data["rules"], data["variant"], data["decks"], data["positions"]) == (
        preset, rules.variant, rules.decks, rules.positions)
    assert [b["bet"] for b in data["bets"]] == list(rules.bets)
    for bet in data["bets"]:
        kind = rules.bet(bet["bet"]).kind
        assert bet["kind"] == kind and bet["description"] == rules.bets[bet["bet"]]
        odds = rules.bet_odds(bet["bet"])  # its kind's, a total bet's range's
        assert (None if bet["pays"] is None else Fraction(bet["pays"])) == odds
        six = rules.pays.get(f"{kind}_on_six")
        assert (None if bet["pays_on_six"] is None else Fraction(bet["pays_on_six"])) == six
        rate = rules.commission if kind in rules.commission_bets and rules.commission else None
        assert (None if bet["commission"] is None else Fraction(bet["commission"])) == rate
        if kind == "pair_plus":
            assert {k: Fraction(v) for k, v in bet["pair_plus_pays"].items()} == dict(rules.pair_plus_pays)
        else:
            assert bet["pair_plus_pays"] is None
        if rules.variant == "banker_game":
            assert {k: Fraction(v) for k, v in bet["multipliers"].items()} == dict(rules.multipliers)
            assert bet["pays"] is None
        else:
            assert bet["multipliers"] is None
            assert (bet["pays"] is None) == (kind == "pair_plus")


@pytest.mark.parametrize("preset", ALL)
def test_bets_text_lists_every_bet(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A header, a heading, then one row per bet: its name, its description and its pays.
    (Rule sets only: once.)"""
    rules = PRESETS[preset]
    lines = run(["bets", "--rules", preset], capsys).splitlines()
    assert lines[0].startswith(f"rules: {preset} (variant {rules.variant}), {rules.decks} deck{'s' if rules.decks > 1 else ''}, ")
    assert lines[0].endswith(f": {len(rules.bets)} bets")
    assert lines[1].split() == ["bet", "wins", "when", "pays"]
    rows = lines[2:2 + len(rules.bets)]
    for row, (name, description) in zip(rows, rules.bets.items(), strict=True):
        assert row.split()[0] == name and f"  {description}  " in row, row
    assert all(line == line.rstrip() for line in lines)


def test_bets_pays_as_people_read_them(capsys: pytest.CaptureFixture[str]) -> None:
    """Odds to 1 with commission, the six-point pays, Pair Plus categories, Dragon/Phoenix
    odds below 1, and a banker game's multipliers with the hands that set them. (Once.)"""
    rows = {line.split()[0]: line for line in run(["bets", "--rules", "macau"], capsys).splitlines()[2:]}
    assert rows["win:7"].endswith("  1:1, less 5% commission on the winnings")
    assert rows["odd"].endswith("  1:1, less 5% commission on the winnings")
    assert rows["tie:1"].endswith("  20:1") and rows["three_faces"].endswith("  16:1")
    assert rows["point:9"].endswith("  8:1") and "point:10" not in rows

    out = run(["bets", "--rules", "online"], capsys).splitlines()
    rows = {line.split()[0]: line for line in out[2:]}
    assert rows["win:1"].endswith("  1:1 (0.5:1 when the winning hand has 6 points)")
    assert rows["lose:3"].endswith("  1:1 (0.5:1 when the winning hand has 6 points)")
    assert rows["tie:2"].endswith("  8:1") and "commission" not in "\n".join(out)
    assert rows["pair_plus:banker"].endswith("by the hand (below)")
    assert out[-1] == ("Pair Plus pays by the hand's category: pair 1:1, flush 3:1, straight 6:1, "
                       "three of a kind 30:1, straight flush 40:1")

    text = run(["bets", "--rules", "genting_no_commission"], capsys)
    assert "1:1 (0.5:1 when the winning hand has 6 points)" in text and "commission on" not in text

    out = run(["bets", "--rules", "san_gong"], capsys).splitlines()
    assert out[0] == "rules: san_gong (variant dragon_phoenix), 1 deck, two hands (Dragon and Phoenix): 12 bets"
    rows = {line.split()[0]: line for line in out[2:]}
    assert rows["dragon"].endswith("  0.94:1") and rows["phoenix"].endswith("  0.94:1")
    assert rows["tie"].endswith("  8:1")

    out = run(["bets", "--rules", "chinese"], capsys).splitlines()
    assert out[0] == "rules: chinese (variant banker_game), 1 deck, 4 players against the banker: 4 bets"
    assert all(line.endswith("x1 to x6 by the winning hand (below)") for line in out[2:6])
    assert out[-1] == (
        "multipliers (the winning hand's; the loser pays the stake x it): x1 0-7 points; x2 8 points; "
        "x3 9 points; x4 three_faces (three face cards); x5 trips (three of a kind); "
        "x6 face_trips (J-J-J, Q-Q-Q, K-K-K)"
    )


def test_bets_take_the_table_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--positions and --decks change the table; --rules-file reads one. (Once.)"""
    out = run(["bets", "--rules", "macau", "--positions", "1", "--decks", "1e0"], capsys)
    assert out.startswith("rules: macau (variant macau), 1 deck, 1 position: 15 bets\n")
    data = json.loads(run(["bets", "--rules", "macau", "--positions", "3", "--json"], capsys))
    assert data["positions"] == 3 and [b["bet"] for b in data["bets"]][:6] == [
        "win:1", "win:2", "win:3", "tie:1", "tie:2", "tie:3"]
    one = json.loads(run(["bets", "--rules", "chinese", "--positions", "1", "--json"], capsys))
    assert [b["bet"] for b in one["bets"]] == ["player:1"]
    assert run(["bets", "--rules", "chinese", "--positions", "1"], capsys).splitlines()[0].endswith(
        "1 player against the banker: 1 bet")
    table = tmp_path / "rich.json"
    ONLINE.replace(name="rich", pair_plus_pays={**ONLINE.pair_plus_pays, "flush": Fraction(7, 2)}).save(table)
    out = run(["bets", "--rules-file", str(table)], capsys)
    assert out.startswith("rules: rich (variant online)") and "flush 3.5:1" in out
    third = tmp_path / "third.json"
    ONLINE.replace(name="third", pays={**ONLINE.pays, "tie": Fraction(25, 3)}).save(third)
    rows = {line.split()[0]: line for line in run(["bets", "--rules-file", str(third)], capsys).splitlines()[2:]}
    assert rows["tie:1"].endswith("  25/3:1")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["bets", "--rules", "baccarat"], "invalid choice: 'baccarat'"),
        (["bets", "--rules"], "expected one argument"),
        (["bets", "--rules", "online", "--positions", "2"], "--positions 2 with --rules online"),
        (["bets", "--rules", "san_gong", "--positions", "3"], "--positions 3 with --rules san_gong"),
        (["bets", "--decks", "1000"], "more than the limit of 64"),
        (["bets", "--positions", "0"], "'0' is not a positive whole number"),
        (["bets", "--rules-file", "/nonexistent/table.toml"], "/nonexistent/table.toml"),
    ],
)
def test_bets_bad_input_exits_2(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """(Argument and rule-set checks only: once.)"""
    fails(argv, needle, capsys)


def test_odds_text() -> None:
    """Odds read as people write them: whole numbers, terminating decimals, else n/d. (Once.)"""
    cases = [(8, 1), (0, 1), (1, 2), (94, 100), (1, 3), (7, 40), (5, 1000000)]
    assert [odds_text(Fraction(n, d)) for n, d in cases] == ["8", "0", "0.5", "0.94", "1/3", "0.175", "0.000005"]


# --- simulate: a table that explains itself ----------------------------------------------------------


@pytest.mark.kernels
def test_simulate_table_explains_itself(impl: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """The header names the rules, rounds, seed, workers and the implementation; the headings
    say the return is per unit staked (RTP) and the house edge is 1 - exact RTP; the last two
    lines say what RTP and z are."""
    out = run(["simulate", "--rules", "macau", "--rounds", "300", "--seed", "1", "--workers", "1",
               "--bet", "win:1=100", "--bet", "tie:1=10"], capsys).splitlines()
    assert out[0].startswith("rules: macau, 300 rounds in ")
    assert out[0].endswith(f", seed 1; 1 worker, implementation {impl.IMPLEMENTATION}")
    assert out[1].split() == ["return", "per", "unit", "staked", "(RTP)", "house", "edge"]
    assert out[2].split() == ["bet", "simulated", "95%", "interval", "exact", "1", "-", "exact", "z"]
    assert [line.split()[0] for line in out[3:-2]] == ["win:1", "tie:1"]
    assert out[-2] == ("RTP = returned / staked, the stake included (a carried stake counts as returned); "
                       "house edge = 1 - RTP")
    assert out[-1].startswith("z = (simulated - exact) / standard error")
    # the columns hold the JSON result's numbers, and the edge is 1 - exact
    data = json.loads(run(["simulate", "--rules", "macau", "--rounds", "300", "--seed", "1", "--workers", "1",
                           "--bet", "win:1=100", "--bet", "tie:1=10", "--json"], capsys))
    for line, bet in zip(out[3:-2], data["bets"], strict=True):
        cells = line.split()
        assert cells[0] == bet["bet"]
        assert float(cells[1]) == pytest.approx(bet["rtp"], abs=5e-7)
        assert (float(cells[2]), float(cells[4])) == pytest.approx(tuple(bet["ci95"]), abs=5e-7)
        assert float(cells[5]) == pytest.approx(bet["exact"], abs=5e-7)
        assert cells[6].endswith("%") and float(cells[6][:-1]) == pytest.approx(100 * (1 - bet["exact"]), abs=5e-5)
        assert float(cells[7]) == pytest.approx(bet["z"], abs=5e-3)
    # the columns line up under their headings: each row as wide as the heading row
    assert len({len(line) for line in out[2:-2]}) == 1 and len(out[1]) <= len(out[2])


@pytest.mark.kernels
def test_simulate_header_says_every_core(impl: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --workers: every core, counted; an even game's edge prints as 0, never -0."""
    out = run(["simulate", "--rules", "chinese", "--rounds", "200", "--seed", "3", "--positions", "2"],
              capsys).splitlines()
    workers = os.cpu_count() or 1
    assert out[0].endswith(f", seed 3; {workers} worker{'s' if workers > 1 else ''} (every core), "
                           f"implementation {impl.IMPLEMENTATION}")
    assert [line.split()[0] for line in out[3:-2]] == ["player:1", "player:2"]
    assert all(" 0.0000% " in line and "-0.0000%" not in line for line in out[3:-2])


@pytest.mark.kernels
def test_simulate_json_keys_unchanged(impl: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """--json keeps its keys (the text table is what changed)."""
    data = json.loads(run(["simulate", "--rules", "online", "--rounds", "200", "--seed", "1", "--workers", "1",
                           "--json"], capsys))
    assert set(data) >= {"rules", "rounds", "seed", "chunk_size", "interrupted", "seconds", "versions", "bets",
                         "classes"}
    assert data["versions"]["implementation"] == impl.IMPLEMENTATION
    assert set(data["bets"][0]) >= {"bet", "rounds", "stake", "staked", "returned", "outcomes", "rtp", "sd",
                                    "ci95", "exact", "z"}


@pytest.mark.kernels
def test_simulate_sessions_header(impl: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["simulate", "--rules", "macau", "--sessions", "2", "--session-rounds", "5", "--bankroll", "1000",
               "--bet", "win:1=100", "--seed", "2", "--workers", "2"], capsys).splitlines()
    assert out[0].startswith("rules: macau, 2 sessions of 5 rounds, bankroll 1,000")
    assert out[0].endswith(f"; 2 workers, implementation {impl.IMPLEMENTATION}")


# --- --version ----------------------------------------------------------------------------------------


@pytest.mark.kernels
def test_version_names_the_implementation_and_cpu(impl: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    import numpy

    lines = run(["--version"], capsys).splitlines()
    assert len(lines) == 2
    what = {"cython": "the compiled core", "python": "the pure-Python reference"}[impl.IMPLEMENTATION]
    assert lines[0] == f"sanggong {sanggong.__version__}, implementation {impl.IMPLEMENTATION} ({what})"
    assert lines[1].startswith(f"CPU {platform.machine()} ({platform.system()}), features: ")
    assert lines[1].endswith(f"(NumPy's run-time detection); Python {platform.python_version()}, "
                             f"NumPy {numpy.__version__}")
    features = _cpu_features()
    if features is None:
        assert "features: unknown (" in lines[1]
    else:
        import importlib

        try:
            umath = importlib.import_module("numpy._core._multiarray_umath")
        except ImportError:  # NumPy 1
            umath = importlib.import_module("numpy.core._multiarray_umath")
        detected = getattr(umath, "__cpu_features__", {})
        assert all(detected.get(name) for name in features)
        assert f"features: {' '.join(features)} (" in lines[1] or not features
        if platform.machine() in ("x86_64", "AMD64"):
            assert "SSE2" in features  # the x86-64 baseline
    assert main(["eval", "--version"]) == 2  # --version belongs to the command, not a subcommand
    capsys.readouterr()


def test_cpu_features_fall_back_to_unknown(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without NumPy's detection (an old NumPy, or one that moved it): "unknown", not an
    error. (No kernels involved: once.)"""
    import importlib

    real = importlib.import_module

    def without_umath(name: str, package: str | None = None) -> ModuleType:
        if name.endswith("_multiarray_umath"):
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_umath)
    assert _cpu_features() is None
    assert "features: unknown (NumPy's run-time detection)" in run(["--version"], capsys)


def test_version_from_the_installed_command() -> None:
    """``python -m sanggong --version`` in a fresh process: the compiled core, or the
    reference under SANGGONG_NO_EXTENSIONS=1 (the process, not the kernels under test: once)."""
    for env, implementation in (({}, sanggong.IMPLEMENTATION), ({"SANGGONG_NO_EXTENSIONS": "1"}, "python")):
        out = subprocess.run([sys.executable, "-m", "sanggong", "--version"], capture_output=True, text=True,
                             env={**os.environ, **env})
        assert out.returncode == 0 and out.stderr == "", out.stderr
        lines = out.stdout.splitlines()
        assert len(lines) == 2 and lines[0].startswith(f"sanggong {sanggong.__version__}, ")
        assert f"implementation {implementation} (" in lines[0]


# --- help: every command is documented ----------------------------------------------------------------


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, nested ones too (``rules show``)."""
    out = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                assert helps.get(name), f"{prefix}{name} has no help line"
                out[f"{prefix}{name}"] = sub
                out.update(_commands(sub, f"{prefix}{name} "))
    return out


def test_every_command_has_help_and_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI reference is generated from the parser (sphinx-argparse): every command has
    a help line, a description and an example, and every option a help text. (Once.)"""
    commands = _commands(build_parser())
    assert {"rules", "rules list", "rules show", "bets"} <= set(commands)
    for name, sub in commands.items():
        assert sub.description, name
        assert sub.epilog and sub.epilog.startswith("example"), name
        assert sub.epilog.count("sanggong ") >= 1
        for action in sub._actions:
            if not isinstance(action, argparse._SubParsersAction):
                assert action.help, (name, action.dest)
        assert main([*name.split(), "--help"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: sanggong {name}") and sub.epilog.split()[0] in out
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "rules" in out and "bets" in out and "--version" in out
