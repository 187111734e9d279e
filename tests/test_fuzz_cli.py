"""Fuzzing the command line: any argv gives exit 0 with valid output, or exit 2 with one line.

Every subcommand (``eval``, ``settle``, ``deal``, ``analyze``, ``simulate``, and
``verify`` once it exists) runs through ``sanggong.cli.main(argv)`` in a forked child
(with a memory and a time limit, so that a crash or a hang fails one example), with argv
built from the parser's own options and random, hostile or huge values, rule files and
key files of every kind, and random tokens. The contract:

* exit 0 with valid output: ``--json`` output is strict JSON (NaN or Infinity refused),
  a settlement's money adds up, ``eval`` names the right class; or
* exit 2 with exactly one line on standard error, which names the bad value (a token
  of argv, a part of one, or an option), and no traceback, for argparse's own usage
  errors too (``SystemExit(2)`` from ``main`` counts as exit 2).

``SANGGONG_NO_EXTENSIONS`` is read at import, so bad values of it are tried in a
subprocess (``python -m sanggong``).

The quick run tries ``QUICK_EXAMPLES`` argvs per test and reports failures unshrunk
(``SANGGONG_FUZZ_SHRINK=1`` shrinks them); ``<test>_long`` (marked ``fuzz``, deselected by
default) tries ``LONG_FACTOR`` times as many and shrinks (the budget and the forked child:
``tests/_harness.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import _harness
import pytest
from _harness import failure, fuzz, leaves, log
from hypothesis import strategies as st

import sanggong
from sanggong import MACAU, ONLINE, limits
from sanggong.cli import DEFAULT_PRESET, build_parser, main

pytestmark = _harness.LARGE_REPR_IS_FINE

# seconds before a command counts as hung: the slowest valid argv (`report`, the exact figures of every deck count and
# eight drawn figures) takes about 4 s alone, and two to three times that in a large forked worker on a loaded 2-core
# machine (it was seen over 10 s there): a hang is an endless loop, which 30 s tells apart as well
TIMEOUT = 30.0


def _run_main(argv: list[str], cwd: str) -> tuple[Any, str, str]:
    """``main(argv)`` in ``cwd``, standard output and error captured: (exit status, or
    what ended it, stdout, stderr). Run in a child: it changes directory and streams."""
    os.chdir(cwd)
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    try:
        status: Any = main(argv)
    except SystemExit as exc:
        status = ("SystemExit", exc.code)
    except BaseException as exc:  # noqa: BLE001
        status = ("raised", type(exc).__name__)
        err.write("".join(traceback.format_exception(exc)))
    return status, out.getvalue(), err.getvalue()


def _cli_in_child(argv: list[str], cwd: str, timeout: float = TIMEOUT) -> tuple[Any, str, str]:
    """Run ``main(argv)`` in a forked child (``_harness.in_child``: a crash or a hang
    fails here); returns (exit status, stdout, stderr)."""
    shown = " ".join(_short(a) for a in argv)
    return _harness.in_child(_run_main, argv, cwd, timeout=timeout, where=f"sanggong {shown}")


def _short(text: str, limit: int = 120) -> str:
    r = repr(text)
    return r if len(r) <= limit else r[: limit - 20] + f"...<{len(r)} chars>"


# --- the contract ---------------------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(f"not strict JSON: {name}")


def _strict_json(text: str) -> list[Any]:
    """The JSON documents of an output: one document, or one per line (JSON Lines)."""
    try:
        return [json.loads(text, parse_constant=_no_constant)]
    except ValueError:
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            raise
        return [json.loads(line, parse_constant=_no_constant) for line in lines]


@functools.cache
def _option_names() -> frozenset[str]:
    names = set()
    for sub in _subparsers().values():
        for action in sub._actions:
            names.update(action.option_strings)
            if not action.option_strings and action.dest not in ("help",):
                names.add(action.dest)
    return frozenset(names)


def _names_something(line: str, argv: list[str], env: dict[str, str]) -> bool:
    """The message names a value of argv or the environment, or a part of one, or an
    option (a missing one): short values only quoted, so that '1' matches '1', not 10."""
    pieces = set()
    for token in [*argv, *env.values()]:
        token = token.strip()
        for piece in {token, *re.split(r"[=\s,:]+", token)}:
            piece = piece.strip()
            if piece:
                pieces.add(piece)
    for piece in pieces:
        if len(piece) >= 3 and (piece in line or piece[:40] in line):
            return True
        if repr(piece) in line or f'"{piece}"' in line or f"'{piece}'" in line:
            return True
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line) for name in _option_names() if name.startswith("-"))


def check_cli(argv: list[str], result: tuple[Any, str, str], env: dict[str, str] | None = None) -> None:
    status, out, err = result
    env = env or {}
    shown = "sanggong " + " ".join(_short(a) for a in argv)
    if isinstance(status, tuple) and status[0] == "raised":
        log(f"raised {status[1]}", f"{shown}\n{err}")
        raise failure(f"Raised{status[1]}")(f"{shown} raised {status[1]} out of main():\n{err[-3000:]}")
    if isinstance(status, tuple):  # SystemExit out of main: its code is the status
        status = 0 if status[1] is None else status[1] if isinstance(status[1], int) else 1
    if "Traceback" in err:
        log("traceback", f"{shown}\n{err}")
        raise failure("Traceback")(f"{shown} printed a traceback (exit {status}):\n{err[-3000:]}")
    if status == 0:
        _check_output(argv, out, shown)
        return
    if status == 1 and _command(argv) == "detect":  # a log that does not verify: one line on stderr naming it
        if out or len(err.splitlines()) != 1 or ": bad: " not in err:
            raise failure("NotOneLine")(f"{shown} exited 1 with {out[-500:]!r} and {err[-2000:]!r}")
        return
    if status == 1 and _command(argv) == "verify":  # a log that does not verify: one line naming the record
        text = out + err
        if len(text.splitlines()) != 1:
            raise failure("NotOneLine")(f"{shown} exited 1 with {len(text.splitlines())} lines:\n{text[-2000:]}")
        if "--json" in argv:
            try:
                report = json.loads(out, parse_constant=_no_constant)
            except ValueError as exc:
                raise failure("NotStrictJson")(f"{shown} printed what is not strict JSON ({exc}): {out[:2000]}") from None
            if not isinstance(report, dict) or report.get("ok") is not False:
                raise failure("BadOutput")(f"{shown} exited 1 but reported {out[:500]}")
        return
    lines = err.splitlines()
    if status != 2:
        log(f"exit {status}", f"{shown}\n{err}")
        raise failure(f"Exit{status}")(f"{shown} exited {status}: {err[-2000:]!r}")
    if len(lines) != 1 or not err.endswith("\n"):
        log("lines", f"{shown}\n{err}")
        raise failure("NotOneLine")(f"{shown} exited 2 with {len(lines)} lines on stderr:\n{err[-2000:]}")
    if not lines[0].startswith("sanggong") or "error" not in lines[0]:
        raise failure("BadMessage")(f"{shown}: the message {lines[0]!r} is not 'sanggong ...: error: ...'")
    if not _names_something(lines[0], argv, env):
        log("unnamed", f"{shown}\n{err}")
        raise failure("DoesNotNameTheValue")(f"{shown}: the message {lines[0][:500]!r} names no value of the command")


def _command(argv: list[str]) -> str | None:
    return next((a for a in argv if not a.startswith("-")), None)


def _check_output(argv: list[str], out: str, shown: str) -> None:
    if any(a in ("-h", "--help", "--version") for a in argv):
        if not out.strip():
            raise failure("NoOutput")(f"{shown} printed nothing")
        return
    command = _command(argv)
    if "--json" in argv:
        try:
            docs = _strict_json(out)
        except ValueError as exc:
            log("json", f"{shown}\n{out[:2000]}")
            raise failure("NotStrictJson")(f"{shown} printed what is not strict JSON ({exc}):\n{out[:2000]}") from None
        if command == "settle":
            for doc in docs:
                _check_settlement_json(doc, shown)
        return
    if not out.strip():
        raise failure("NoOutput")(f"{shown} exited 0 and printed nothing")
    if command == "eval":
        match = re.fullmatch(r"(\S+ \S+ \S+): (.+?) \(rank (\d+)(?:, tier ([a-z_]+))?, points (\d), faces (\d), "
                             r"pair plus: ([a-z ]+)\)\n", out)
        if match is None:
            raise failure("BadOutput")(f"{shown} printed {out!r}")
        rules = _ranked_by(argv)
        if rules is not None:  # (a --rules-file: the format only)
            hand = sanggong.evaluate(match[1], rules)
            if (hand.label, str(hand.rank), hand.tier, str(hand.points), str(hand.faces),
                    hand.pair_plus.label) != match.group(2, 3, 4, 5, 6, 7):
                raise failure("WrongOutput")(f"{shown} printed {out!r}, the hand is {hand!r}")
    if command == "compare" and out not in ("1\n", "0\n", "-1\n"):
        raise failure("BadOutput")(f"{shown} printed {out!r}")


def _ranked_by(argv: list[str]) -> str | None:
    """The preset a valid argv ranks by (the last --rules, macau by default), or None where
    a --rules-file decides."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        args = build_parser().parse_args(argv)
    return None if args.rules_file else str(args.rules or DEFAULT_PRESET)


def _amount(value: Any) -> Fraction:
    return Fraction(str(value))


def _check_settlement_json(doc: Any, shown: str) -> None:
    try:
        staked, returned, carried, net = (_amount(doc[k]) for k in ("staked", "returned", "carried", "house_net"))
        bets = doc["bets"]
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise failure("BadOutput")(f"{shown}: the settlement JSON lacks its totals ({exc!r})") from None
    if staked - returned - carried != net:
        raise failure("MoneyNotConserved")(f"{shown}: staked {staked} - returned {returned} - carried {carried} != {net}")
    banker_game = doc.get("rules") in sanggong.PRESETS and sanggong.PRESETS[doc["rules"]].variant == "banker_game"
    for bet in bets:
        # a banker game's loss can cost more than the stake: a negative amount returned
        returned = Fraction(0) if banker_game else _amount(bet["returned"])
        if min(returned, _amount(bet["commission"]), _amount(bet["carried"])) < 0:
            raise failure("NegativeAmount")(f"{shown}: {bet}")
    if sum((_amount(b["stake"]) for b in bets), Fraction(0)) != staked:
        raise failure("MoneyNotConserved")(f"{shown}: the stakes do not sum to {staked}")


# --- files ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def workdir() -> Any:
    """A directory of rule files and key files of every kind (made once). Matplotlib
    (for ``--plot``) is imported here, once, rather than in every child."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot
        except ImportError:
            pass
    with tempfile.TemporaryDirectory(prefix="sanggong-cli-fuzz-") as tmp:
        root = Path(tmp)
        (root / "key.bin").write_bytes(b"operator key for the fuzz logs, 40 bytes")
        files = {
            "macau.json": json.dumps(MACAU.to_dict()).encode(),
            "online.json": json.dumps(ONLINE.to_dict()).encode(),
            "bool-string.json": json.dumps({**MACAU.to_dict(), "head_card": "false"}).encode(),
            "decks-huge.json": json.dumps({**MACAU.to_dict(), "decks": 10**30}).encode(),
            "decks-float.json": json.dumps({**MACAU.to_dict(), "decks": 8.0}).encode(),
            "odds-huge.json": json.dumps({**MACAU.to_dict(), "pays": {**MACAU.to_dict()["pays"], "win": "1e999999999"}}).encode(),
            "odds-nan.json": json.dumps({**MACAU.to_dict(), "pays": {**MACAU.to_dict()["pays"], "win": "NaN"}}).encode(),
            "unit-snan.json": json.dumps({**MACAU.to_dict(), "minor_unit": "sNaN"}).encode(),
            "list.json": b"[1, 2, 3]",
            "garbage.json": os.urandom(300),
            "garbage.toml": os.urandom(300),
            "nonutf8.json": b'{"name": "\xff\xfe\xfa", "variant": "macau"}',
            "nonutf8.toml": b'name = "\xff\xfe"\n',
            "deep.json": b"[" * 100_000 + b"]" * 100_000,
            "deep.toml": b"a = " + b"[" * 100_000 + b"]" * 100_000,
            "deep-tables.toml": b"".join(b"[" + b".".join([b"a"] * k) + b"]\n" for k in range(1, 400)),
            "huge.json": b'{"name": "' + b"x" * (limits.MAX_RULE_FILE_BYTES + 10) + b'"}',
            "empty.toml": b"",
            "empty.json": b"",
            "nul.json": b"\x00" * 100,
            "bom.json": b"\xef\xbb\xbf" + json.dumps(MACAU.to_dict()).encode(),
            "utf16.json": json.dumps(MACAU.to_dict()).encode("utf-16"),
            "key-empty.bin": b"",
            "key-huge.bin": os.urandom(1 << 20),
        }
        for name, deal in LOGS.items():
            body = io.StringIO()
            with contextlib.redirect_stdout(body):
                status = main(["deal", *deal, "--json"])
            assert status == 0, f"could not deal the log {name}"
            (root / name).write_text(body.getvalue(), encoding="utf-8")
        log = (root / "online.jsonl").read_bytes()
        (root / "log-long-line.jsonl").write_bytes(log + b'{"a": "' + b"x" * (limits.MAX_RECORD_BYTES + 10) + b'"}\n')
        (root / "log-deep.jsonl").write_bytes(log + b"[" * 100_000 + b"]" * 100_000 + b"\n")
        (root / "log-nan.jsonl").write_bytes(log.replace(b'"round_in_shoe":1', b'"round_in_shoe":NaN', 1))
        (root / "log-binary.jsonl").write_bytes(os.urandom(2000))
        (root / "log-crlf.jsonl").write_bytes(log.replace(b"\n", b"\r\n"))
        (root / "log-empty.jsonl").write_bytes(b"")
        (root / "log-blank-lines.jsonl").write_bytes(b"\n\n" + log + b"\n\n")
        toml = (root / "macau.toml")
        MACAU.save(toml)
        ONLINE.save(root / "online.toml")
        for name, body in files.items():
            (root / name).write_bytes(body)
        (root / "a-directory.json").mkdir()
        yield root


LOGS = {  # name: how `sanggong deal` deals it (with --json)
    "online.jsonl": ["--rules", "online", "--rounds", "6", "--seed", "6"],
    "macau.jsonl": ["--rules", "macau", "--rounds", "6", "--seed", "7"],
    "macau-1-deck.jsonl": ["--rules", "macau", "--decks", "1", "--positions", "3", "--rounds", "4", "--seed", "8"],
}
VERIFY_RULES = {  # what verify needs to know of a log's table (a preset's log names it itself)
    "online.jsonl": [], "macau.jsonl": [], "macau-1-deck.jsonl": ["--rules", "macau", "--decks", "1", "--positions", "3"],
}
LOG_NAMES = [*LOGS, "log-long-line.jsonl", "log-deep.jsonl", "log-nan.jsonl", "log-binary.jsonl", "log-crlf.jsonl",
             "log-empty.jsonl", "log-blank-lines.jsonl"]
FILE_NAMES = [*LOG_NAMES, "macau.json", "online.json", "macau.toml", "online.toml", "bool-string.json", "decks-huge.json",
              "decks-float.json", "odds-huge.json", "odds-nan.json", "unit-snan.json", "list.json", "garbage.json",
              "garbage.toml", "nonutf8.json", "nonutf8.toml", "deep.json", "deep.toml", "deep-tables.toml", "huge.json",
              "empty.toml", "empty.json", "nul.json", "bom.json", "utf16.json", "key.bin", "key-empty.bin",
              "key-huge.bin", "a-directory.json", "missing.json", "/dev/null", "/dev/zero", "", "\x00", "-"]

# --- argv -----------------------------------------------------------------------------------------------------


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


COMMANDS = sorted(_subparsers())
HUGE_NUMBERS = ["99999999999999999999", "9" * 5000, "1e999999", "1e16", "1000000000000001", "18446744073709551616",
                "9223372036854775808", "1,000,000,000,000,000,000", "1_000_000_000_000_000_000"]
NUMBERS = ["0", "-1", "-0", "+5", "1.5", "1e3", "1E+2", "1,000", "1_0", "0x10", "٣", "１００", " 7", "7 ", "NaN", "inf",
           "", " ", "007", "1e-3", "2**63", "½"]
STAKES = ["100", "10.50", "1", "0.01", "NaN", "sNaN", "-NaN", "Infinity", "-inf", "1e999999", "1e-999999", "-5", "0",
          "0.00", "1E+5", "1/3", "0x10", "１００", "1.001", "10.5", "1_000", "1,000", "9" * 5000, "1000000000000000",
          "1000000000000001", "10000000000000.00", "10000000000000.01", "1e15", " 100", "+100", "٣", "1e", "--5"]
CARDS = ["Kh Qs 9d", "KhQs9d", "10h Jh Qh", "K♥ Q♠ 9♦", "Ah 2h 3h", "9c 9d 5h", "Kh Kh Kh", "Kh Qs", "Kh Qs 9d 8c",
         "1h 2h 3h", "", " ", "Kx Qs 9d", "\x00", "Ks" * 3000, "Ｋh Qs 9d", "🂡 🂢 🂣"]


def _bet_names() -> list[str]:
    return sorted(set().union(*(rules.bets for rules in sanggong.PRESETS.values()))) + ["win:0", "win:99", "win:01", "point:10", "lose", "odd:1", "",
                                                          "WIN:1", "win:1 ", "pair_plus:0", "win:+1", "win:١"]


texts = st.text(max_size=20)


def _value(draw: st.DrawFn, option: str, action: argparse.Action) -> str:
    """A value for an option, chosen by what the option is about."""
    name = option.lstrip("-")
    junk = draw(st.integers(0, 7)) == 0
    if junk:
        return draw(st.one_of(texts, st.sampled_from(NUMBERS + HUGE_NUMBERS + STAKES + CARDS + FILE_NAMES)))
    if action.choices:
        return draw(st.one_of(st.sampled_from(sorted(action.choices)), texts))
    if "file" in name or name == "plot":
        chosen = draw(st.sampled_from(FILE_NAMES + ["out.png", "sub/dir/out.png", "/proc/version", "out.svg"]))
        return chosen
    if name == "bet":
        stake = draw(st.one_of(st.integers(1, 1000).map(str), st.sampled_from(STAKES)))
        return f"{draw(st.sampled_from(_bet_names()))}={stake}" if draw(st.integers(0, 9)) else draw(
            st.sampled_from(["win:1", "=5", "win:1=", "win:1==5", "=", "win:1 = 100"]))
    if name == "hand":
        return f"{draw(st.sampled_from(['1', '2', '3', '0', '-1', '99', 'x', '١', '']))}={draw(st.sampled_from(CARDS))}"
    if name in ("banker", "remove"):
        return draw(st.sampled_from(CARDS))
    if name == "seed":
        return draw(st.one_of(st.integers(0, 2**64).map(str), st.sampled_from(NUMBERS + HUGE_NUMBERS + [str(2**128),
                                                                                                      str(2**128 - 1)])))
    if name in ("rounds", "chunk", "sessions", "session-rounds", "workers", "bankroll", "decks", "positions"):
        small_values = {"rounds": st.integers(1, 40), "chunk": st.integers(1, 1 << 20), "sessions": st.integers(1, 4),
                        "session-rounds": st.integers(1, 30), "workers": st.integers(1, 3),
                        "bankroll": st.integers(1, 10**16), "decks": st.integers(1, 8), "positions": st.integers(1, 7)}
        beyond = {"rounds": limits.MAX_SIM_ROUNDS, "sessions": limits.MAX_SESSIONS,
                  "session-rounds": limits.MAX_SESSION_ROUNDS, "decks": limits.MAX_DECKS, "positions": limits.MAX_POSITIONS}
        choice = draw(st.integers(0, 5))
        if choice <= 2 or (name not in beyond and choice <= 4):
            return str(draw(small_values[name]))
        if choice <= 4 and name in beyond:
            return str(beyond[name] + draw(st.sampled_from([1, 10**6, 10**20])))  # beyond the limit: refused
        return draw(st.sampled_from(HUGE_NUMBERS + NUMBERS))
    return draw(st.one_of(texts, st.sampled_from(NUMBERS + STAKES + CARDS)))


SKIP = {"--scheduler", "--help", "-h", "--version"}  # network; exits that are not the command's


VALID_BASE = {
    "eval": ["Kh", "Qs", "9d"],
    "settle": ["--banker", "Kh Qs 9d", "--hand", "1=9c 9h 5h", "--hand", "2=As 2d 3c", "--bet", "win:1=100"],
    "analyze": [],
}


@st.composite
def argvs(draw: st.DrawFn, command: str | None = None, base: bool = False) -> list[str]:
    """An argv of ``command``: its options in any order with values of every kind, and
    (``base``) a valid command underneath, so that most runs get past the parsing."""
    command = draw(st.sampled_from(COMMANDS)) if command is None else command
    sub = _subparsers()[command]
    argv = [command]
    options = [(o, a) for a in sub._actions for o in a.option_strings if o not in SKIP and a.option_strings]
    positionals = [a for a in sub._actions if not a.option_strings]
    if command == "simulate":  # keep the run small: a valid small --rounds first (a later one may replace it)
        argv += ["--rounds", str(draw(st.integers(1, 200)))]
    if command == "deal":
        argv += ["--rounds", str(draw(st.integers(1, 5)))]
    if command in ("protect", "design"):  # a small job: a shoe or two of a deck or two, few options
        argv += ["--shoes", str(draw(st.integers(1, 2))), "--decks", str(draw(st.integers(1, 2)))]
    if command == "design":
        argv += ["--limit", "2"]
        if base:
            argv += ["--bet", draw(st.sampled_from(["point:0", "odd", "win:1"])), "--edge", "0.02-0.06"]
    if base and command in VALID_BASE:
        argv += VALID_BASE[command]
    elif command == "settle" and draw(st.integers(0, 5)):
        argv += ["--banker", draw(st.sampled_from(CARDS[:6]))]
    for _ in range(draw(st.integers(0, 4 if base else 7))):
        option, action = draw(st.sampled_from(options))
        if option == "--eor" and draw(st.integers(0, 7)):
            continue  # the effect of removal is slow on the reference: rarely
        if action.nargs == 0:
            argv.append(option)
        elif draw(st.integers(0, 9)) == 0:
            argv.append(f"{option}={_value(draw, option, action)}")
        else:
            argv += [option, _value(draw, option, action)]
    for action in positionals:
        if base and command in VALID_BASE:
            break
        if any(w in f"{action.dest} {action.metavar}".lower() for w in ("log", "file", "path")):
            argv.append(draw(st.one_of(st.sampled_from(LOG_NAMES), st.sampled_from(FILE_NAMES), texts)))
        elif action.nargs in ("+", "*") or action.nargs is None:
            count = draw(st.integers(0, 4))
            argv += [draw(st.sampled_from(CARDS + ["Kh", "Qs", "9d", "10h", "x"])) for _ in range(count)]
    if draw(st.integers(0, 5)) == 0:  # a stray token somewhere
        argv.insert(draw(st.integers(0, len(argv))), draw(st.one_of(texts, st.sampled_from(
            ["--", "-", "-x", "--unknown", "--json", "--rounds", "--bet", "-1", "--rules=", "--rules"]))))
    return argv


ENDLESS = ("/dev/zero", "/dev/urandom")  # files that never end: refused within a few seconds, or a hang


def _long_job(argv: list[str]) -> bool:
    """A valid command that asks for a long job (simulate 10**15 rounds is allowed, and
    takes a year): not what these tests are about, so it is not run."""
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            args = build_parser().parse_args(argv)
    except BaseException:  # noqa: BLE001 - a usage error (or worse): run it, the child reports it
        return False
    work = 0
    if getattr(args, "command", None) == "simulate":
        sessions, rounds = getattr(args, "sessions", None), getattr(args, "session_rounds", None)
        work = sessions * rounds if sessions and rounds else args.rounds
    elif getattr(args, "command", None) == "deal":
        work = args.rounds * 100
    elif getattr(args, "command", None) in ("protect", "design"):  # shoes played (per pay table: design)
        decks = args.decks if args.decks is not None else 8
        limit = getattr(args, "limit", 1)
        if args.shoes > 2 or decks > 2 or limit > 3:
            return True
    return isinstance(work, int) and work > 100_000


def _run(argv: list[str], root: Path, env: dict[str, str] | None = None) -> None:
    if _long_job(argv):
        return
    timeout = 5.0 if any(a in ENDLESS or a.endswith(ENDLESS) for a in argv) else TIMEOUT
    check_cli(argv, _cli_in_child(argv, str(root), timeout), env)


@fuzz(argvs(), examples=25)
@pytest.mark.kernels
def test_cli_takes_any_argv(workdir: Path, argv: list[str]) -> None:
    _run(argv, workdir)


@fuzz(st.sampled_from(COMMANDS).flatmap(lambda command: argvs(command, base=True)), examples=40)
@pytest.mark.kernels
def test_cli_subcommands_take_any_options(workdir: Path, argv: list[str]) -> None:
    _run(argv, workdir)


@fuzz(st.lists(st.one_of(texts, st.sampled_from(COMMANDS + NUMBERS + STAKES + CARDS + HUGE_NUMBERS)), max_size=6))
@pytest.mark.kernels
def test_cli_takes_random_tokens(workdir: Path, argv: list[str]) -> None:
    _run(argv, workdir)  # (`simulate` alone, a million rounds by default, is a long job: not run)


SETTLE = ["settle", "--banker", "Kh Qs 9d", "--hand", "1=9c 9h 5h"]
EXPLICIT = [
    ["simulate", "--rounds", "99999999999999999999"],
    ["simulate", "--rounds", "1000000000000001"],
    ["simulate", "--rounds", "9" * 5000],
    ["simulate", "--rounds", "5", "--chunk", "99999999999999999999"],
    ["simulate", "--rounds", "1", "--json"],
    ["simulate", "--rounds", "2", "--json", "--bet", "win:1=100"],
    ["simulate", "--rounds", "3", "--rules", "online", "--json", "--bet", "pair_plus:1=1.5"],
    ["simulate", "--sessions", "99999999999", "--session-rounds", "10", "--bankroll", "1000", "--bet", "win:1=100"],
    ["simulate", "--sessions", "2", "--session-rounds", "99999999999", "--bankroll", "1000", "--bet", "win:1=100"],
    ["simulate", "--sessions", "2", "--session-rounds", "5", "--bankroll", "99999999999999999999999999",
     "--bet", "win:1=100"],
    ["simulate", "--sessions", "2", "--session-rounds", "5", "--bankroll", "1000", "--bet", "win:1=1e999999"],
    ["simulate", "--sessions", "2", "--session-rounds", "5", "--bankroll", "1000", "--bet", "win:1=10.50", "--json"],
    ["simulate", "--rounds", "5", "--decks", "1000"],
    ["simulate", "--rounds", "5", "--positions", "17"],
    ["simulate", "--rounds", "5", "--workers", "99999999999999999999"],
    ["simulate", "--rounds", "5", "--plot", "/nonexistent/dir/out.png"],
    ["simulate", "--rounds", "5", "--bet", "win:1=NaN"],
    ["simulate", "--rounds", "5", "--bet", "win:1=1e999999"],
    ["deal", "--decks", "1000"],
    ["deal", "--decks", "64", "--json"],
    ["deal", "--positions", "16", "--decks", "2"],
    ["deal", "--rounds", "99999999999999999999"],
    ["deal", "--rounds", "1000001"],
    ["deal", "--seed", "-1"],
    ["deal", "--seed", "9" * 5000],
    ["deal", "--seed", str(2**128)],
    ["deal", "--rules", "online", "--positions", "4"],
    ["deal", "--rules", "online", "--json", "--seed", "6"],
    ["deal", "--rules-file", "/dev/zero"],
    ["deal", "--rules-file", "deep.json"],
    ["deal", "--rules-file", "deep.toml"],
    ["deal", "--rules-file", "huge.json"],
    ["deal", "--rules-file", "nonutf8.json"],
    ["deal", "--rules-file", "garbage.toml"],
    ["deal", "--rules-file", "bool-string.json"],
    ["deal", "--rules-file", "a-directory.json"],
    ["deal", "--rules-file", "missing.json"],
    ["deal", "--key-file", "/dev/zero"],
    ["deal", "--key-file", "key-huge.bin"],
    ["deal", "--key-file", "key-empty.bin"],
    ["analyze", "--decks", "1000"],
    ["analyze", "--decks", "1", "--remove", "Kh Kh"],
    ["analyze", "--remove", "Kh Kh Kh Kh Kh Kh Kh Kh Kh"],
    ["analyze", "--decks", "1", "--remove", " ".join(f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs")],
    ["analyze", "--decks", "1", "--remove", " ".join(f"{r}{s}" for r in "A23456789TJ" for s in "cdhs"), "--json"],
    ["analyze", "--decks", "1", "--remove", " ".join(f"{r}{s}" for r in "A23456789T" for s in "cdhs") + " Jc Jd",
     "--json"],
    ["analyze", "--json", "--rules", "online"],
    ["analyze", "--rules-file", "odds-huge.json"],
    [*SETTLE, "--bet", "win:1=1e999999"],
    [*SETTLE, "--bet", "win:1=NaN"],
    [*SETTLE, "--bet", "win:1=sNaN"],
    [*SETTLE, "--bet", "win:1=-Infinity"],
    [*SETTLE, "--bet", "win:1=" + "9" * 5000],
    [*SETTLE, "--bet", "win:1=1000000000000001"],
    [*SETTLE, "--bet", "win:1=1000000000000000", "--json"],
    [*SETTLE, "--bet", "win:1=0.001"],
    [*SETTLE, "--bet", "win:1=100", "--bet", "win:1=100"],
    [*SETTLE, "--bet", "win:1=100", "--hand", "1=Kh Qs 9d"],
    [*SETTLE, "--bet", "win:1=100", "--hand", "99=Kh Qs 9d"],
    [*SETTLE, "--bet", "win:1=100", "--hand", "١=Kh Qs 9d"],
    [*SETTLE, "--bet", "win:1=100", "--hand", "99999999999999999999=Kh Qs 9d"],
    [*SETTLE, "--bet", "win:1=10.50", "--bet", "tie:1=1.00", "--json"],
    [*SETTLE, "--rules", "online", "--bet", "pair_plus:1=10.505"],
    ["settle", "--banker", "Kh Qs 9d", "--bet", "win:1=100"],
    ["settle"],
    ["eval"],
    ["eval", "--json"],
    ["eval", "Kh", "Qs"],
    ["eval", "Ks" * 3000],
    ["nonsense"],
    [],
    ["--rules", "macau"],
    ["eval", "--json", "Kh Qs 9d", "--unknown"],
]


@pytest.mark.parametrize("argv", EXPLICIT, ids=[" ".join(a)[:60] for a in EXPLICIT])
@pytest.mark.kernels
def test_cli_hostile_commands(workdir: Path, argv: list[str]) -> None:
    _run(argv, workdir)


needs_verify = pytest.mark.skipif("verify" not in COMMANDS, reason="no verify subcommand yet")


@needs_verify
@pytest.mark.parametrize("name", FILE_NAMES)
@pytest.mark.kernels
def test_cli_verify_any_file(workdir: Path, name: str) -> None:
    """``verify`` of logs and files of every kind: 0 (the log holds), 1 (one line naming
    the first bad record) or 2 (one line: bad input); never a hang on /dev/zero."""
    for extra in ([], ["--json"]):
        _run(["verify", name, *extra], workdir)


@needs_verify
@pytest.mark.parametrize("name", sorted(LOGS))
@pytest.mark.kernels
def test_cli_verify_accepts_what_deal_wrote(workdir: Path, name: str) -> None:
    for extra in ([], ["--json"], ["--no-replay"]):
        argv = ["verify", name, *VERIFY_RULES[name], *extra]
        status, out, err = _cli_in_child(argv, str(workdir))
        check_cli(argv, (status, out, err))
        assert status == 0, f"sanggong {' '.join(argv)} exited {status}: {out}{err}"


def _other(draw: st.DrawFn, value: Any) -> Any:
    """A different value of the same look: another card, the next number, ..."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([1, -1, 100, 2**64]))
    if isinstance(value, float):
        return value + 1
    if isinstance(value, str) and re.fullmatch(r"[2-9TJQKA][cdhs]", value):
        return draw(st.sampled_from([f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" != value]))
    if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{16,}", value):
        return ("0" if value[0] != "0" else "1") + value[1:]
    if isinstance(value, str):
        return value + draw(st.sampled_from(["x", "0", " "]))
    return draw(st.sampled_from([0, "x", [], {}]))


@st.composite
def tampered_logs(draw: st.DrawFn) -> tuple[str, str]:
    """A log ``deal`` wrote, and how ``_tamper`` changes it in a way that matters: a value
    of a record, two records swapped, a record repeated or taken out (not the last: a log
    cut short is still a valid log)."""
    name = draw(st.sampled_from(sorted(LOGS)))
    return name, draw(st.sampled_from(["field", "field", "field", "swap", "repeat", "drop"]))


def _tamper(lines: list[str], how: str, data: st.DataObject) -> list[str] | None:
    lines = list(lines)
    if how == "field":
        i = data.draw(st.integers(0, len(lines) - 1))
        record = json.loads(lines[i])
        path, value = data.draw(st.sampled_from(leaves(record)))
        new = _other(data.draw, value)
        if new == value:
            return None
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = new
        lines[i] = json.dumps(record, separators=(",", ":"))
    elif how == "swap":
        i = data.draw(st.integers(0, len(lines) - 2))
        if lines[i] == lines[i + 1]:
            return None
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif how == "repeat":
        i = data.draw(st.integers(0, len(lines) - 1))
        lines.insert(i, lines[i])
    else:
        del lines[data.draw(st.integers(0, len(lines) - 2))]
    return lines


@needs_verify
@fuzz(tampered_logs(), st.lists(st.sampled_from(["--json", "--no-replay"]), unique=True), st.data())
@pytest.mark.kernels
def test_cli_verify_detects_tampering(workdir: Path, case: tuple[str, str], options: list[str],
                                      data: st.DataObject) -> None:
    """Any change that matters to a log is caught: verify exits 1 (or 2), never 0."""
    name, how = case
    lines = (workdir / name).read_text(encoding="utf-8").splitlines()
    tampered = _tamper(lines, how, data)
    if tampered is None:
        return
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=workdir, delete=False, encoding="utf-8") as f:
        f.write("\n".join(tampered) + "\n")
    try:
        argv = ["verify", f.name, *VERIFY_RULES[name], *options]
        status, out, err = _cli_in_child(argv, str(workdir))
        check_cli(argv, (status, out, err))
        if status == 0:
            raise failure("TamperingNotDetected")(
                f"sanggong verify accepted {name} after a {how} change ({' '.join(options)}): {out.strip()}")
    finally:
        os.unlink(f.name)


# --- the environment ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["maybe", "yes", "", " TRUE ", "1 1", "\u00a0"])
def test_cli_with_any_sanggong_no_extensions(value: str) -> None:
    """A subprocess, as the variable is read at import; the implementation does not
    matter to it, so it runs once."""
    env = {**os.environ, "SANGGONG_NO_EXTENSIONS": value}
    argv = ["eval", "--json", "Kh", "Qs", "9d"]
    proc = subprocess.run([sys.executable, "-m", "sanggong", *argv], env=env, capture_output=True, text=True, timeout=60)
    check_cli(argv, (proc.returncode, proc.stdout, proc.stderr), {"SANGGONG_NO_EXTENSIONS": value})
