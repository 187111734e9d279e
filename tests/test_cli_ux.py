"""The command line as people expect it (issue 24): ``-`` reads standard input, stakes say
their unit (``--unit``), a close match is named for a mistyped name, progress bars on a
terminal only, tables that fit the terminal, identical figures shown once, "1 deck", and
every figure drawn by ``sanggong.plot``. Rule sets written and read as text
(``RuleSet.to_toml``, ``to_json``, ``loads``) are tested here too, as ``rules show`` and
``--rules-file -`` use them.

Each result is checked against an independent way to the same answer: the API called
directly, the same command given a file instead of standard input, the same money in the
other unit.
"""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_run import fails, run

from sanggong import MACAU, ONLINE, RuleSet, compare, evaluate, settle
from sanggong.analysis import analyze, effect_of_removal
from sanggong.cli import main
from sanggong.cli._output import _numbered, same_figures
from sanggong.rules import PRESETS, as_rules
from sanggong.shoe import design
from sanggong.simulation import simulate_sessions

ALL = list(PRESETS)


def _stdin(monkeypatch: pytest.MonkeyPatch, data: str | bytes) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


# --- `-`: standard input ------------------------------------------------------------------------


HANDS = ["Kh Qs 9d", "Q♥ K♥ A♥", "Jh Qd Ks", "3c 3d 3h", "10h Jh Qh", "As 2d 3c"]


@pytest.mark.parametrize("rules", ["macau", "chinese", "san_gong"])
def test_eval_reads_hands_from_standard_input_as_the_api_evaluates_them(
        rules: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, "\n".join(["# a comment", HANDS[0], "", *HANDS[1:]]) + "\n")
    lines = run(["eval", "--rules", rules, "--json", "-"], capsys).splitlines()
    assert len(lines) == len(HANDS)
    for line, text in zip(lines, HANDS, strict=True):
        hand, data = evaluate(text, rules), json.loads(line)
        assert (data["label"], data["rank"], data["tier"], data["rules"]) == (hand.label, hand.rank, hand.tier, rules)
    _stdin(monkeypatch, "\n".join(HANDS))  # (no final newline)
    text_lines = run(["eval", "--rules", rules, "-"], capsys).splitlines()
    one_by_one = [run(["eval", "--rules", rules, text], capsys).rstrip("\n") for text in HANDS]
    assert text_lines == one_by_one


def test_a_bad_line_of_standard_input_is_named_by_its_number(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, "Kh Qs 9d\n\nKh Qs 1d\nAs 2s 3s\n")
    assert main(["eval", "-"]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [run(["eval", "Kh Qs 9d"], capsys).rstrip("\n")]  # a filter: what came before
    assert captured.err.splitlines() == ["sanggong eval: error: standard input, line 3: '1d' is not a card: expected "
                                         "a rank (A, 2-9, 10 or T, J, Q, K) then a suit (c, d, h, s or ♣ ♦ ♥ ♠)"]
    _stdin(monkeypatch, b"Kh Qs 9d\n\xff\n")
    assert main(["eval", "-"]) == 2
    assert "line 2: not UTF-8" in capsys.readouterr().err
    _stdin(monkeypatch, "Kh " * 5000 + "\n")
    assert main(["eval", "-"]) == 2
    assert "line 1: longer than 4,096 bytes" in capsys.readouterr().err
    fails(["eval", "Kh", "-"], "give the cards, or - to read hands from standard input, not both", capsys)


def test_compare_reads_pairs_of_hands_from_standard_input(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    pairs = [("Kh Kd Ks", "Qh Qd Qs"), ("2c 7c 3d", "Kh Qs 9d"), ("As 2d 3c", "Ad 2c 3s")]
    _stdin(monkeypatch, "Kh Kd Ks Qh Qd Qs\n2c 7c 3d | Kh Qs 9d\nAs,2d,3c,Ad,2c,3s\n")
    out = run(["compare", "--rules", "chinese", "-"], capsys).splitlines()
    assert out == [str(compare(a, b, "chinese")) for a, b in pairs]
    _stdin(monkeypatch, "Kh Kd Ks Qh Qd\n")
    fails(["compare", "-"], "standard input, line 1: expected two hands", capsys)


def test_settle_reads_a_rounds_cards_from_standard_input(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    cards = "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"
    slip = ["--rules", "online", "--bet", "win:1=100", "--bet", "pair_plus:banker=10", "--json"]
    given = json.loads(run(["settle", "--cards", cards, *slip], capsys))
    _stdin(monkeypatch, cards + "\n")
    assert json.loads(run(["settle", "--cards", "-", *slip], capsys)) == given
    _stdin(monkeypatch, "Kh Qs 9d")
    by_hand = json.loads(run(["settle", "--banker", "-", "--hand", "1=As 2d 3c", "--bet", "win:1=100", "--json"],
                             capsys))
    assert by_hand == json.loads(json.dumps(settle(MACAU, "Kh Qs 9d", {1: "As 2d 3c"}, {"win:1": 100}).to_dict()))
    _stdin(monkeypatch, "As 2d 3c")
    assert json.loads(run(["settle", "--banker", "Kh Qs 9d", "--hand", "1=-", "--bet", "win:1=100", "--json"],
                          capsys)) == by_hand


def test_analyze_reads_the_cards_out_from_standard_input(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    given = run(["analyze", "--rules", "online", "--remove", "Kh Qs 9d 9c", "--json"], capsys)
    _stdin(monkeypatch, "Kh Qs\n9d 9c\n")
    assert run(["analyze", "--rules", "online", "--remove", "-", "--json"], capsys) == given


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_rule_file_on_standard_input_is_the_file(suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rules = ONLINE.replace(name="rich flush", pair_plus_pays={**ONLINE.pair_plus_pays, "flush": 4})
    path = tmp_path / f"table{suffix}"
    rules.save(path)
    from_file = run(["analyze", "--rules-file", str(path), "--json"], capsys)
    _stdin(monkeypatch, path.read_text(encoding="utf-8"))
    assert run(["analyze", "--rules-file", "-", "--json"], capsys) == from_file
    _stdin(monkeypatch, path.read_text(encoding="utf-8").replace('"rich flush"', '""'))
    fails(["bets", "--rules-file", "-"], "--rules-file - (standard input): name:", capsys)


def test_standard_input_is_read_by_one_option_only(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, MACAU.to_toml())
    fails(["settle", "--rules-file", "-", "--banker", "-", "--hand", "1=As 2d 3c", "--bet", "win:1=100"],
          "--banker -: standard input is already read by --rules-file -", capsys)
    _stdin(monkeypatch, "")
    fails(["protect", "--rules-file", "-", "--tags", "-", "--shoes", "2"], "--rules-file - (standard input)", capsys)


def test_count_tags_and_a_key_from_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from sanggong.cli._options import read_key

    tags = tmp_path / "tags.json"
    tags.write_text(json.dumps({r: (1 if r in "JQK" else 0) - (1 if r in "A23" else 0) for r in "A23456789TJQK"}))
    argv = ["protect", "--rules", "macau", "--decks", "2", "--shoes", "30", "--seed", "4", "--workers", "1",
            "--strategy", "count", "--bets", "three_faces", "--json"]
    from_file = json.loads(run([*argv, "--tags", str(tags)], capsys))
    _stdin(monkeypatch, tags.read_text())
    from_stdin = json.loads(run([*argv, "--tags", "-"], capsys))
    assert from_stdin == from_file
    _stdin(monkeypatch, "s3cret\n")
    assert read_key("-", argparse.Namespace()) == b"s3cret"


# --- --unit: what a stake counts --------------------------------------------------------------


def test_minor_and_major_units_settle_the_same_money(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d", "--hand", "2=As 4d 2c"]
    minor = json.loads(run(["settle", *hands, "--bet", "win:1=1050", "--bet", "even=5", "--json"], capsys))
    major = json.loads(run(["settle", *hands, "--unit", "major", "--bet", "win:1=10.50", "--bet", "even=0.05",
                            "--json"], capsys))
    api = settle(MACAU, "9c 9d 5h", {1: "Kh Qs 9d", 2: "As 4d 2c"},
                 {"win:1": Decimal("10.50"), "even": Decimal("0.05")})
    assert major == json.loads(json.dumps(api.to_dict()))
    for key in ("staked", "returned", "commission", "carried", "house_net"):
        assert isinstance(minor[key], int) and Decimal(major[key]) * 100 == minor[key], key
    text = run(["settle", *hands, "--bet", "win:1=1050"], capsys).splitlines()
    assert text[0] == "rules: macau; amounts in minor units, 100 = 1.00"
    text = run(["settle", *hands, "--unit", "major", "--bet", "win:1=10.50"], capsys).splitlines()
    assert text[0] == "rules: macau; amounts in major units, to 0.01"


def test_a_decimal_stake_in_minor_units_is_refused_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["settle", "--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d"]
    line = fails([*hands, "--bet", "lose:1=100.0"], "100.0 is not a whole number of minor units", capsys)
    assert "--bet lose:1=100.0" in line and "--unit major" in line
    fails([*hands, "--unit", "major", "--bet", "win:1=1.001"], "1.001 is not a whole number of 0.01", capsys)
    fails([*hands, "--unit", "pounds", "--bet", "win:1=1"], "invalid choice: 'pounds'", capsys)
    assert json.loads(run([*hands, "--bet", "win:1=1,000", "--json"], capsys))["staked"] == 1000


def test_sessions_in_major_units_are_the_sessions_in_minor_units(capsys: pytest.CaptureFixture[str]) -> None:
    common = ["simulate", "--rules", "macau", "--sessions", "40", "--session-rounds", "50", "--seed", "9",
              "--workers", "1"]
    minor = json.loads(run([*common, "--bankroll", "10000", "--bet", "win:1=1050", "--json"], capsys))
    major = json.loads(run([*common, "--unit", "major", "--bankroll", "100.00", "--bet", "win:1=10.50", "--json"],
                           capsys))
    assert major == minor
    text = run([*common, "--unit", "major", "--bankroll", "100", "--bet", "win:1=10.50"], capsys).splitlines()
    assert "bankroll 100.00, slip win:1=10.50 (amounts in major units, to 0.01)" in text[0]
    quantiles = dict(item.split(" ") for item in text[2].removeprefix("final bankroll quantiles: ").split(", "))
    assert {k: Decimal(v.replace(",", "")) * 100 for k, v in quantiles.items()} == \
        {k: Decimal(v) for k, v in minor["quantiles"].items()}
    fails([*common, "--unit", "major", "--bankroll", "100.001", "--bet", "win:1=10"],
          "--bankroll: 100.001 is not a whole number of the minor unit 0.01", capsys, prog="simulate")


# --- close matches ------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "needle"), [
    (["anlyze"], "invalid choice: 'anlyze' (did you mean 'analyze'?)"),
    (["analyze", "--rules", "macua"], "invalid choice: 'macua' (did you mean 'macau'?)"),
    (["rules", "shwo", "macau"], "invalid choice: 'shwo' (did you mean 'show'?)"),
    (["rules", "show", "Online"], "(did you mean 'online'?)"),
    (["settle", "--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d", "--bet", "wni:1=100"],
     "unknown bet 'wni:1' (did you mean 'win:1'?)"),
    (["settle", "--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d", "--bet", "Win:1=100"], "(did you mean 'win:1'?)"),
    (["design", "--bet", "piont:0", "--edge", "2%-6%"], "(did you mean 'point:0'?)"),
    (["design", "--rules", "chinese", "--bet", "player:1", "--edge", "1%-5%", "--key", "face_trip"],
     "(did you mean 'face_trips'?)"),
    (["protect", "--strategy", "perfct", "--shoes", "2"], "(did you mean 'perfect'?)"),
    (["eval", "--jsn", "Kh", "Qs", "9d"], "unrecognized arguments: --jsn (did you mean '--json'?)"),
    (["deal", "--key-fle", "operator.key"], "unrecognized arguments: --key-fle operator.key (did you mean "
                                            "'--key-file'?)"),
    (["deal", "--key-fle=operator.key"], "(did you mean '--key-file'?)"),
    (["rules", "show", "macau", "--jsno"], "(did you mean '--json'?) (see sanggong rules show --help)"),
])
def test_a_mistyped_name_is_named_with_the_closest(argv: list[str], needle: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    prog = "rules show" if argv[:2] == ["rules", "show"] else "rules" if argv[0] == "rules" else None
    line = fails(argv, needle, capsys, prog=prog or argv[0]) if argv != ["anlyze"] else None
    if line is None:  # a mistyped command: the top-level parser's line
        assert main(argv) == 2
        assert needle in capsys.readouterr().err


@pytest.mark.parametrize(("replace", "needle"), [
    (("decks = 8", "deck = 8"), "deck: unknown field of a rule set (did you mean 'decks'?)"),
    (("tie = 20", "tiee = 20"), "pays: unknown bet 'tiee' (did you mean 'tie'?)"),
    (('rounding = "down"', 'rounding = "dwon"'), "rounding: expected one of ('down', 'half_up', 'half_even', "
                                                  "'up'), got 'dwon' (did you mean 'down'?)"),
])
def test_a_mistyped_name_in_a_rule_file_is_named_with_the_closest(replace: tuple[str, str], needle: str,
                                                                   tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = MACAU.to_toml()
    assert replace[0] in text
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(replace[0], replace[1], 1), encoding="utf-8")
    fails(["analyze", "--rules-file", str(path)], f"{path}: {needle}", capsys)


def test_a_mistyped_option_before_the_command_is_the_top_parsers(capsys: pytest.CaptureFixture[str]) -> None:
    """``sanggong --jsn eval``: the top parser's, which has no --json (nothing close to guess)."""
    assert main(["--jsn", "eval", "Kh", "Qs", "9d"]) == 2
    assert capsys.readouterr().err == "sanggong: error: unrecognized arguments: --jsn (see sanggong --help)\n"


def test_the_api_names_the_closest_preset_and_bet() -> None:
    with pytest.raises(ValueError, match=r"unknown preset 'genting_no_comission' \(did you mean "
                                         r"'genting_no_commission'\?\)"):
        as_rules("genting_no_comission")
    with pytest.raises(ValueError, match=r"unknown bet 'pair_plus:bankr'.* \(did you mean 'pair_plus:banker'\?\)"):
        ONLINE.bet("pair_plus:bankr")
    with pytest.raises(ValueError, match=r"unknown bet 'win:9': no such win bet at this table \(it has win:1, "
                                         r"win:2, \.\.\., win:7\)"):
        MACAU.bet("win:9")
    with pytest.raises(ValueError) as far:  # nothing close: no guess
        MACAU.bet("zzzzzz")
    assert "did you mean" not in str(far.value)


# --- progress bars: on a terminal only ------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["design", "--bet", "point:0", "--edge", "0.02-0.06", "--shoes", "20", "--limit", "2", "--workers", "1"],
    ["analyze", "--rules", "online", "--eor"],
    ["simulate", "--rounds", "20000", "--chunk", "5000", "--seed", "1", "--workers", "1"],
    ["protect", "--shoes", "4", "--seed", "1", "--workers", "1", "--bets", "tie:1"],
    ["simulate", "--sessions", "50", "--session-rounds", "10", "--bankroll", "1000", "--bet", "win:1=100", "--seed", "1",
     "--workers", "1"],
])
def test_a_long_job_draws_a_bar_on_a_terminal_only(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    quiet = run(argv, capsys)  # (run: nothing on standard error where it is no terminal)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(argv) == 0
    unit = "sessions" if "--sessions" in argv else {"design": "shoes", "analyze": "ranks", "simulate": "rounds",
                                                     "protect": "shoes"}[argv[0]]
    assert f" {unit}" in terminal.getvalue(), terminal.getvalue()[:200]
    if argv[0] in ("design", "analyze"):  # (simulate and protect print their own timings)
        assert capsys.readouterr().out == quiet
    quiet_terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", quiet_terminal)
    assert main([*argv, "--json"]) == 0  # JSON: no bar, even on a terminal
    assert quiet_terminal.getvalue() == ""


def test_the_apis_progress_reaches_the_whole_and_changes_nothing() -> None:
    seen: list[tuple[int, int]] = []
    options = design(MACAU, "point:0", (Fraction(0), Fraction(3, 10)), shoes=10, limit=3, workers=1,
                     progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (30, 30) == (len(options) * 10, len(options) * 10)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert options == design(MACAU, "point:0", (Fraction(0), Fraction(3, 10)), shoes=10, limit=3, workers=1)
    ranks: list[tuple[int, int]] = []
    assert effect_of_removal(ONLINE, progress=lambda d, t: ranks.append((d, t))) == effect_of_removal(ONLINE)
    assert ranks == [(k, 13) for k in range(1, 14)]
    with pytest.raises(TypeError, match="progress must be callable"):
        effect_of_removal(ONLINE, progress=3)  # type: ignore[arg-type]
    sessions: list[tuple[int, int]] = []
    with_bar = simulate_sessions(MACAU, {"win:1": 100}, 1000, 20, 90, seed=5, workers=2,
                                 progress=lambda d, t: sessions.append((d, t)))
    assert sessions[-1] == (90, 90) and [d for d, _ in sessions] == sorted(d for d, _ in sessions)
    assert with_bar.to_dict() == simulate_sessions(MACAU, {"win:1": 100}, 1000, 20, 90, seed=5, workers=2).to_dict()


# --- width, identical figures, "1 deck" -----------------------------------------------------------


@pytest.mark.parametrize("argv", [["rules", "list"], ["bets", "--rules", "online"], ["bets", "--rules", "chinese"],
                                  ["analyze", "--rules", "chinese"]])
def test_tables_fit_a_terminal_and_keep_every_word(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    wide = run(argv, capsys)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr("sys.stdout", _Terminal())
    assert main(argv) == 0
    import sys

    narrow = sys.stdout.getvalue()  # type: ignore[attr-defined]
    assert max(len(line) for line in narrow.splitlines()) <= 80 < max(len(line) for line in wide.splitlines())
    assert sorted(narrow.split()) == sorted(wide.split())  # wrapped, not cut


def test_bets_with_identical_figures_are_shown_once(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["analyze", "--rules", "macau"], capsys)
    names = [line.split()[0] for line in out.splitlines()[2:] if line and not line.startswith(" ")
             and not line.startswith("One line")]
    assert names == ["win:1..7", "tie:1..7", "odd", "even", "three_faces", "point:0", "point:1,3,5,7,9",
                     "point:2,4,6,8"]
    exact = analyze(MACAU).to_dict()["bets"]  # each bet the API counts: a group's are all the same
    by_name = {b["bet"]: {k: v for k, v in b.items() if k != "bet"} for b in exact}
    for group in ([f"win:{k}" for k in range(1, 8)], [f"point:{k}" for k in (1, 3, 5, 7, 9)]):
        assert all(by_name[n] == by_name[group[0]] for n in group)
    assert by_name["point:0"] != by_name["point:1"] != by_name["point:2"]
    assert "One line for the bets of a kind with the same figures: win:1..7 is each of win:1, win:2, ..., win:7." in out


@pytest.mark.parametrize(("names", "shown"), [
    (["win:1", "win:2", "win:3"], "win:1..3"), (["win:1", "win:2"], "win:1,2"), (["point:1", "point:3"], "point:1,3"),
    (["pair_plus:1", "pair_plus:2", "pair_plus:3", "pair_plus:banker"], "pair_plus:banker,1..3"),
    (["odd:dragon", "odd:phoenix"], "odd:dragon,phoenix"), (["win:1", "win:2", "win:3", "win:5"], "win:1..3,5"),
])
def test_a_group_of_bets_is_named(names: list[str], shown: str) -> None:
    assert _numbered(names) == shown


def test_only_bets_of_one_kind_with_equal_figures_merge() -> None:
    names = ["win:1", "lose:1", "win:2", "odd", "even", "lose:2"]
    figures: list[Any] = [1, 1, 1, 2, 2, 1]
    assert same_figures(names, figures) == [("win:1,2", [0, 2]), ("lose:1,2", [1, 5]), ("odd", [3]), ("even", [4])]


@pytest.mark.parametrize("preset", ALL)
def test_one_deck_is_one_deck(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    decks = PRESETS[preset].decks
    said = f"{decks} deck{'s' if decks > 1 else ''}"
    for argv in (["analyze", "--rules", preset], ["analyze", "--rules", preset, "--eor"], ["bets", "--rules", preset]):
        out = run(argv, capsys)
        assert "deck(s)" not in out and f", {said}" in out.splitlines()[0], (argv, out.splitlines()[0])


# --- figures: drawn by sanggong.plot --------------------------------------------------------------


def test_every_plot_option_draws_through_sanggong_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    runs = {
        "convergence.svg": ["simulate", "--rounds", "40000", "--chunk", "10000", "--seed", "1", "--workers", "1"],
        "bankroll.svg": ["simulate", "--sessions", "30", "--session-rounds", "20", "--bankroll", "1000",
                         "--bet", "win:1=100", "--seed", "1", "--workers", "1"],
        "counts.svg": ["protect", "--rules", "macau", "--decks", "2", "--shoes", "200", "--seed", "1", "--workers", "1",
                       "--bets", "tie:1", "--min-gain", "0"],
        "pays.svg": ["design", "--bet", "point:0", "--edge", "0.02-0.06", "--shoes", "5", "--limit", "3",
                     "--workers", "1"],
    }
    titles = {"convergence.svg": "the return as rounds accumulate", "bankroll.svg": "risk of ruin",
              "counts.svg": "EV by true count", "pays.svg": "house edge (fresh shoe)"}
    for name, argv in runs.items():
        run([*argv, "--plot", str(tmp_path / name)], capsys)
        text = (tmp_path / name).read_text()
        assert text.startswith("<?xml") and titles[name] in text, name
    fails(["design", "--bet", "point:0", "--edge", "0.02-0.06", "--plot", str(tmp_path / "x.nope")],
          "'.nope' is not a format matplotlib writes", capsys)


def test_the_command_line_draws_nothing_itself() -> None:
    """One concept, one place: the figures are sanggong.plot's; the command line only
    checks --plot's file and hands the result over."""
    import sanggong.cli as cli

    for module in Path(cli.__file__).parent.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert not re.search(r"\bax\.|\.subplots\(|\.savefig\(", text), module.name


# --- rule sets as text -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL)
def test_a_rule_set_as_text_reads_back_equal(preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = PRESETS[preset]
    assert RuleSet.loads(rules.to_toml()) == rules == RuleSet.loads(rules.to_json(), "json")
    for suffix, text in ((".toml", rules.to_toml()), (".json", rules.to_json())):
        rules.save(tmp_path / f"r{suffix}")
        assert (tmp_path / f"r{suffix}").read_text(encoding="utf-8") == text
    assert run(["rules", "show", preset], capsys) == rules.to_toml()
    assert json.loads(run(["rules", "show", "--json", preset], capsys)) == rules.to_dict()


def test_rule_set_text_is_read_as_strictly_as_a_file() -> None:
    with pytest.raises(ValueError, match="^decks: must be at least 1, got 0$"):
        RuleSet.loads(MACAU.to_toml().replace("decks = 8", "decks = 0"))
    with pytest.raises(ValueError, match="not valid JSON"):
        RuleSet.loads("{", "json")
    with pytest.raises(ValueError, match="tie"):
        RuleSet.loads('{"name": "x", "pays": {"tie": 80, "tie": 8}}', "json")
    with pytest.raises(ValueError, match="format: expected 'toml' or 'json'"):
        RuleSet.loads(MACAU.to_toml(), "yaml")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a str"):
        RuleSet.loads(MACAU.to_toml().encode())  # type: ignore[arg-type]
