"""One table of exit statuses for every command (issue "Nothing bad gets in, round three",
item 8): 0 done (nothing found wrong), 1 a finding about the data (a log with a bad record,
for ``verify`` and for ``detect``, which reads a log through the same checks), 2 bad usage
or input with one line on standard error and never a traceback.

Every command is taken from the parser itself, so that a command added later is held to
the table too (it must be given a good command line here)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from cli_run import fails, run

from sanggong import MACAU, Game
from sanggong.cli import VERIFY_STATUS, build_parser, main
from sanggong.cli._status import Status

DOCS = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every command's parser, by its words (``("rules", "show")``): the leaves of the tree."""
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= _commands(sub, (*path, name))
    return found or {path: parser}


COMMANDS = _commands(build_parser())


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A good log of 30 rounds and the same log with one record changed."""
    folder = tmp_path_factory.mktemp("logs")
    game = Game(MACAU, seed=3)
    lines = [game.play({"win:1": 100}).to_json() for _ in range(30)]
    good, bad = folder / "good.jsonl", folder / "bad.jsonl"
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    changed = lines[6].replace('"win:1":"100"', '"win:1":"200"', 1)
    assert changed != lines[6]
    bad.write_text("\n".join([*lines[:6], changed, *lines[7:]]) + "\n", encoding="utf-8")
    return {"good": str(good), "bad": str(bad)}


def _good(words: tuple[str, ...], logs: dict[str, str]) -> list[str]:
    """A command line of each command that does its job quickly."""
    return {
        ("eval",): ["eval", "Kh", "Qs", "9d"],
        ("compare",): ["compare", "Kh Qs 9d", "2c 3d 4h"],
        ("settle",): ["settle", "--banker", "9c 9d 5h", "--hand", "1=Kh Qs 9d", "--bet", "win:1=100"],
        ("deal",): ["deal", "--rounds", "2", "--seed", "1"],
        ("analyze",): ["analyze", "--rules", "macau", "--decks", "1"],
        ("verify",): ["verify", logs["good"]],
        ("detect",): ["detect", logs["good"], "--verify"],
        ("simulate",): ["simulate", "--rounds", "300", "--seed", "1", "--workers", "1"],
        ("protect",): ["protect", "--shoes", "2", "--seed", "1", "--workers", "1"],
        ("design",): ["design", "--bet", "point:0", "--edge", "2%-6%"],
        ("rules", "list"): ["rules", "list"],
        ("rules", "show"): ["rules", "show", "macau"],
        ("bets",): ["bets", "--rules", "online"],
        ("report",): ["report", "--rules", "san_gong", "--format", "md"],
        ("shuffle-test",): ["shuffle-test", "--shoes", "300", "--seed", "1", "--workers", "1"],
    }[words]


def test_every_command_has_a_good_command_line_here(logs: dict[str, str]) -> None:
    for words in COMMANDS:
        assert _good(words, logs)[: len(words)] == list(words)


@pytest.mark.parametrize("words", list(COMMANDS), ids=" ".join)
def test_a_good_command_line_is_0(words: tuple[str, ...], logs: dict[str, str],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run(_good(words, logs), capsys) != ""
    assert Status.OK == 0


@pytest.mark.parametrize("words", list(COMMANDS), ids=" ".join)
def test_an_unknown_option_is_2_in_one_line_by_the_command(words: tuple[str, ...], logs: dict[str, str],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    line = fails([*_good(words, logs), "--no-such-option"], "unrecognized arguments: --no-such-option", capsys,
                 status=Status.USAGE, prog=" ".join(words))
    assert line.endswith(f"(see sanggong {' '.join(words)} --help)")


def _valued(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options of a command that take a value (not flags, nor --help)."""
    return [a for a in parser._actions if a.option_strings and a.nargs != 0 and not isinstance(
        a, argparse._HelpAction | argparse._VersionAction)]



@pytest.mark.parametrize(("words", "option"), [
    (w, a.option_strings[-1]) for w, p in COMMANDS.items() for a in _valued(p)], ids=str)
def test_a_bad_value_of_any_option_is_2_in_one_line_naming_it(words: tuple[str, ...], option: str,
                                                              logs: dict[str, str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*_good(words, logs), option, "no\x07good"]
    assert main(argv) == Status.USAGE
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1, (argv, captured)
    assert lines[0].startswith(f"sanggong {' '.join(words)}: error:"), lines[0]
    assert "no\\x07good" in lines[0] or option.lstrip("-") in lines[0], lines[0]  # the value or the option


@pytest.mark.parametrize("command", ["verify", "detect"])
def test_a_good_log_is_0_for_every_command_that_checks_logs(command: str, logs: dict[str, str],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    run([command, logs["good"]], capsys)


def test_a_changed_log_is_1_for_verify(logs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", logs["bad"]]) == Status.FINDING == VERIFY_STATUS["bad"]
    assert "line 7" in capsys.readouterr().out


@pytest.mark.parametrize("flags", [[], ["--verify"]], ids=["detect", "detect --verify"])
def test_a_changed_log_is_1_for_detect_as_for_verify(flags: list[str], logs: dict[str, str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", logs["bad"]]) == Status.FINDING
    said = capsys.readouterr().out.strip()
    assert main(["detect", logs["bad"], *flags]) == Status.FINDING
    captured = capsys.readouterr()
    assert captured.out == "" and said in captured.err and len(captured.err.splitlines()) == 1


@pytest.mark.parametrize("command", ["deal", "verify", "detect"])
def test_a_missing_key_file_is_2(command: str, logs: dict[str, str], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    argv = _good((command,), logs) + ["--key-file", str(tmp_path / "missing.key")]
    fails(argv, "missing.key", capsys)


def test_verifys_statuses_are_the_tables() -> None:
    assert VERIFY_STATUS == {"ok": Status.OK, "bad": Status.FINDING, "unchecked": Status.UNCHECKED}


def test_the_docs_list_the_table() -> None:
    """docs/cli.md's table of exit statuses holds every status, and no other."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Exit status"):]
    section = section[: section.index("\n## ", 1)]
    listed = {int(n) for n in re.findall(r"^\| *`?(\d+)`? *\|", section, re.MULTILINE)}
    assert listed == {int(s) for s in Status}


def _mistyped(option: str, options: list[str]) -> str | None:
    """``option`` with one letter of its name dropped (from the middle on), so that it is no
    prefix of any option (argparse takes a prefix for the option: no error); None if none is."""
    for i in [*range(len(option) // 2 + 1, len(option) - 1), *range(3, len(option) // 2 + 1)]:
        typo = option[:i] + option[i + 1:]
        if not any(o.startswith(typo) for o in options):
            return typo
    return None


_TYPOS = [(w, a.option_strings[-1], typo) for w, p in COMMANDS.items() for a in p._actions
          for o in [[s for b in p._actions for s in b.option_strings]]
          if a.option_strings and a.option_strings[-1].startswith("--") and not isinstance(a, argparse._HelpAction)
          and (typo := _mistyped(a.option_strings[-1], o)) is not None]


def test_every_long_option_is_mistyped_here() -> None:
    longs = {(w, s) for w, p in COMMANDS.items() for a in p._actions for s in a.option_strings[-1:]
             if s.startswith("--") and s != "--help"}
    assert {(w, o) for w, o, _ in _TYPOS} == longs


@pytest.mark.parametrize(("words", "option", "typo"), _TYPOS, ids=str)
def test_a_mistyped_option_of_any_command_is_named_with_the_closest(
        words: tuple[str, ...], option: str, typo: str, logs: dict[str, str],
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every command's every option, one letter dropped: named back, by the command."""
    fails([*_good(words, logs), typo], f"unrecognized arguments: {typo} (did you mean {option!r}?)", capsys,
          prog=" ".join(words))


def test_the_tables_example_runs() -> None:
    import doctest

    from sanggong.cli import _status

    result = doctest.testmod(_status)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("given", [["--bankroll", "1000"], ["--session-rounds", "10"],
                                   ["--bankroll", "1000", "--session-rounds", "10"]])
def test_session_options_without_sessions_are_refused_not_ignored(given: list[str],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rounds", "10", "--seed", "1", *given]) == Status.USAGE
    line = capsys.readouterr().err.strip()
    assert all(option in line for option in given[::2]) and "--sessions" in line, line


def test_a_failed_log_crosses_a_process_pool_as_it_is(logs: dict[str, str]) -> None:
    """``detect`` with workers reads each log in another process: the error it raises there
    comes back with its report, so the status is the same as in one process."""
    import pickle

    from sanggong.verify import LogFailed, verify_log

    report = verify_log(logs["bad"])
    again = pickle.loads(pickle.dumps(LogFailed(f"x: {report}", report)))
    assert isinstance(again, LogFailed) and isinstance(again, ValueError)
    assert again.report == report and str(again) == f"x: {report}"
