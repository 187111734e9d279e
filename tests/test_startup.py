"""A command's start: what it imports and builds before its first record, and that what it
skips changes nothing. Checked by what is imported (``sys.modules``) and what is called
(counters), never by timing; ``benchmarks/command_start.py`` measures the times."""

from __future__ import annotations

import argparse
import ast
import contextlib
import gc
import importlib.machinery
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import sanggong
import sanggong._spec.rankings as spec_rankings
from sanggong import MACAU, PRESETS, Game, _kernels
from sanggong.cli import _main, _parser, _progress
from sanggong.ranking import DEFAULT_RANKING, RankingTables

NEVER_AT_START = ("sanggong._kernels.twin", "sanggong.analysis", "matplotlib", "pandas", "dask", "tqdm", "msgspec")
"""Modules no command's start imports under the compiled core: the twin, the other
commands' libraries, the progress bar's library where no bar is shown, the rule files'."""

NEVER_IN_VERIFY = (*NEVER_AT_START, "numpy.ma", "sanggong.rules._files", "shutil", "textwrap")
"""Nor ``verify`` of a preset's log (numpy.ma came with the default ranking's tables; shutil
with argparse's help formatter, which reads the terminal's width, and textwrap with what is
wrapped to it: no help and no terminal here)."""

_PROBE = """
import json, sys
import sanggong.cli
imported = sorted(sys.modules)
import sanggong._spec.rankings as spec
calls = []
every_triple = spec._triples
def counted():
    calls.append(1)
    return every_triple()
spec._triples = counted  # every ordered triple's keys or pair plus, computed in Python
status = sanggong.cli.main(["verify", sys.argv[1]])
print(json.dumps({"imported": imported, "ran": sorted(sys.modules), "status": status, "triples": len(calls),
                  "implementation": sanggong.IMPLEMENTATION}))
"""


def _probe(log: Path) -> dict[str, Any]:
    """``sanggong verify LOG`` in a fresh interpreter, under the compiled core: what
    ``import sanggong.cli`` imported, what the run had imported, how often it computed
    every triple's keys in Python."""
    env = {k: v for k, v in os.environ.items() if k != "SANGGONG_NO_EXTENSIONS"}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(log)], capture_output=True, text=True, env=env,
                          check=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.stderr == ""
    *said, found = done.stdout.splitlines()
    assert len(said) == 1 and said[0].startswith("ok: 2 records, rules 'macau', chained, every round replayed"), said
    result: dict[str, Any] = json.loads(found)
    return result


def _imported(names: list[str], modules: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(n == m or n.startswith(f"{m}.") for n in names)]


def test_verify_starts_without_what_it_does_not_use(tmp_path: Path) -> None:
    """``import sanggong.cli`` imports neither the twin nor another command's libraries, and
    ``verify`` of a log of the default ranking neither tqdm (no terminal) nor msgspec (no
    rule file), and takes that ranking's tables from the core: no triple's keys computed."""
    log = tmp_path / "log.jsonl"
    game = Game(MACAU, seed=7)
    log.write_text("".join(game.play().to_json() + "\n" for _ in range(2)), encoding="utf-8")
    found = _probe(log)
    assert found["implementation"] == "cython" and found["status"] == 0
    assert _imported(found["imported"], (*NEVER_AT_START, "numpy")) == []  # (NumPy: where a command uses it)
    assert _imported(found["ran"], (*NEVER_IN_VERIFY, "numpy")) == []  # (nor NumPy: the core does the work)
    assert "sanggong.ranking" in found["ran"] and found["triples"] == 0


_NUMPY_PROBE = """
import json, sys
import sanggong._core
core = sorted(sys.modules)
import sanggong.cli
status = sanggong.cli.main(sys.argv[1:])
print(json.dumps({"core": core, "ran": sorted(sys.modules), "status": status}))
"""


@pytest.mark.parametrize("argv", [["rules", "list"], ["rules", "--json", "show", "macau"], ["bets", "--rules", "macau"],
                                  ["bets", "--rules", "genting", "--json"]])
def test_informational_commands_start_without_numpy(argv: list[str]) -> None:
    """Importing the compiled core imports no NumPy (its ``bitgen_t`` comes from numpy's C
    header, not numpy's pxd, whose types the module's init would import), and the commands
    that only print what a table is (``rules``, ``bets``) import none at all: what they
    print is the same as through ``main`` here, NumPy loaded."""
    env = {k: v for k, v in os.environ.items() if k != "SANGGONG_NO_EXTENSIONS"}
    done = subprocess.run([sys.executable, "-c", _NUMPY_PROBE, *argv], capture_output=True, text=True, env=env,
                          check=True, stdin=subprocess.DEVNULL, timeout=120)
    *said, found = done.stdout.splitlines()
    result = json.loads(found)
    assert result["status"] == 0 and done.stderr == ""
    assert _imported(result["core"], ("numpy",)) == [] and _imported(result["ran"], ("numpy",)) == []
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert _main.main(argv) == 0
    assert "numpy" in sys.modules and out.getvalue().splitlines() == said


@pytest.mark.parametrize("argv", [["--help"], ["report", "--help"], ["shuffle-test", "--help"]])
def test_help_starts_without_numpy(argv: list[str]) -> None:
    """``sanggong --help`` builds every command's parser, and no command's module imports
    NumPy (nor the math report's) to be added: only to run."""
    env = {k: v for k, v in os.environ.items() if k != "SANGGONG_NO_EXTENSIONS"}
    done = subprocess.run([sys.executable, "-c", _NUMPY_PROBE, *argv], capture_output=True, text=True, env=env,
                          check=True, stdin=subprocess.DEVNULL, timeout=120)
    *said, found = done.stdout.splitlines()
    result = json.loads(found)
    assert result["status"] == 0 and done.stderr == "" and said[0].startswith("usage: sanggong")
    assert _imported(result["ran"], ("numpy", "sanggong.mathreport")) == []


_REPLAY_PROBE = """
import json, sys
import sanggong.cli
status = sanggong.cli.main(sys.argv[1:])
print(json.dumps({"status": status, "numpy": sorted(m for m in sys.modules if m == "numpy" or m.startswith("numpy."))}))
"""

_KEY = b"an operator's key"


def _game_log(path: Path, seeded: bool, keyed: bool) -> None:
    """A game's log of 60 rounds (several shoes: each shoe after the first shuffled from the
    generator's state at its end) with stakes, sealed: a Game's of a seed (its records carry
    the seed and each shoe's state) or of numpy's PCG64 given (the shoe's state alone)."""
    key = _KEY if keyed else None
    game = Game(MACAU, seed=2026, key=key) if seeded else Game(MACAU, rng=np.random.PCG64(2026), key=key)
    lines = [game.play({"win:1": 100, "point:0": 25}).to_json() for _ in range(60)]
    assert len({json.loads(line)["shoe"] for line in lines}) > 2
    path.write_text("\n".join([*lines, game.close().to_json()]) + "\n", encoding="utf-8")


def _said_without_numpy(argv: list[str]) -> list[str]:
    """What the command ``argv`` prints in a fresh interpreter under the compiled core
    (``_REPLAY_PROBE``), having exited 0, said nothing on standard error and imported no
    NumPy module."""
    env = {k: v for k, v in os.environ.items() if k != "SANGGONG_NO_EXTENSIONS"}
    done = subprocess.run([sys.executable, "-c", _REPLAY_PROBE, *argv], capture_output=True, text=True, env=env,
                          check=True, stdin=subprocess.DEVNULL, timeout=120)
    *said, found = done.stdout.splitlines()
    assert json.loads(found) == {"status": 0, "numpy": []} and done.stderr == ""
    return said


@pytest.mark.parametrize("seeded", [True, False], ids=["seeded", "state-only"])
@pytest.mark.parametrize("keyed", [True, False], ids=["keyed", "unkeyed"])
def test_verify_of_a_games_log_imports_no_numpy(tmp_path: Path, seeded: bool, keyed: bool) -> None:
    """``verify`` of a ``Game``'s log (PCG64, with or without its seed, signed or not, with
    stakes) imports no NumPy at all under the compiled core (in a fresh interpreter): it
    replays from the kernels' own PCG64, seeded and restored in plain Python, ranks by the
    default ranking's tables made from the core's, deals, renders and settles into the
    standard library's buffers; and it prints what it prints here, where NumPy is loaded.
    (The twin, ``SANGGONG_NO_EXTENSIONS=1``, writes its arrays by NumPy's indexing and
    still imports it: the start is the compiled core's.)"""
    log = tmp_path / "log.jsonl"
    _game_log(log, seeded, keyed)
    argv = ["verify", str(log)]
    if keyed:
        (tmp_path / "key").write_bytes(_KEY)
        argv += ["--key-file", str(tmp_path / "key")]
    said = _said_without_numpy(argv)
    assert np.random.PCG64 is not None and "numpy.random" in sys.modules  # (here, NumPy and its generators loaded)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert _main.main(argv) == 0
    assert out.getvalue().splitlines() == said
    assert said[0].startswith("ok: 61 records") and ("HMAC verified" in said[0]) is keyed


@pytest.mark.parametrize("keyed", [True, False], ids=["keyed", "unkeyed"])
@pytest.mark.parametrize("bets", [[], ["--bet", "win:1=100", "--bet", "point:0=25"]], ids=["no-bets", "bets"])
def test_deal_of_a_seeded_log_imports_no_numpy(tmp_path: Path, keyed: bool, bets: list[str]) -> None:
    """``deal --json --seed N`` (a log written as ``verify`` reads it) imports no NumPy under
    the compiled core, in a fresh interpreter: its seed is checked as an int (the parser
    makes no ``SeedSequence``) and the game deals from the kernels' own PCG64; its lines
    are those a ``Game`` of the seed writes here, where NumPy is loaded (600 rounds: more
    than one write of the command's batches, several shoes)."""
    argv = ["deal", "--rules", "macau", "--rounds", "600", "--seed", "2026", "--json", *bets]
    if keyed:
        (tmp_path / "key").write_bytes(_KEY)
        argv += ["--key-file", str(tmp_path / "key")]
    said = _said_without_numpy(argv)
    game = Game(MACAU, seed=2026, key=_KEY if keyed else None, recall=0)
    slip = {"win:1": 100, "point:0": 25} if bets else None
    assert said == [game.play(slip).to_json() for _ in range(600)] + [game.close().to_json()]


_TABLE_ATTRIBUTES = ("ranking", "n_rids", "n_classes", "n_ranks", "class_keys", "labels", "rank_keys", "rank_values",
                     "ordered_by_class", "buffers", "state", "state16", "value", "rank", "cls", "class_rank",
                     "packed_of_triple", "rank_dtype")


def _attributes(tables: RankingTables) -> dict[str, Any]:
    """What a ranking's tables hold (their NumPy arrays made on first use), but for the
    kernels' own ``kernel_lookups`` (built later); every public attribute is named."""
    public = {k for k in dir(tables) if not k.startswith("_")} - {"kernel_lookups", "by_hand"}
    assert public == set(_TABLE_ATTRIBUTES)
    return {k: getattr(tables, k) for k in _TABLE_ATTRIBUTES}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    return type(a) is type(b) and bool(a == b)


@pytest.mark.kernels
def test_default_tables_from_the_core_are_the_computed_ones(impl: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default ranking's ``RankingTables`` made from the core's build-time tables equal,
    attribute by attribute (arrays with their dtypes), those computed from every triple's
    keys in Python; under the twin they are computed."""
    calls: list[int] = []
    every_triple = spec_rankings._triples

    def counted() -> tuple[Any, ...]:
        calls.append(1)
        return every_triple()

    monkeypatch.setattr(spec_rankings, "_triples", counted)
    held = RankingTables(DEFAULT_RANKING)
    assert (calls == []) is (impl.IMPLEMENTATION == "cython")
    monkeypatch.setattr(_kernels, "default_lookups", lambda: None)  # the computation, as for any ranking
    computed = RankingTables(DEFAULT_RANKING)
    assert len(calls) >= 1
    mine, theirs = _attributes(held), _attributes(computed)
    assert mine.keys() == theirs.keys()
    assert [k for k in mine if not _same(mine[k], theirs[k])] == []
    assert held.by_hand() == computed.by_hand()
    for source in (held, computed):  # and the kernels rank by them alike
        hands = np.array([[c0, c1, c2] for c0 in range(0, 52, 5) for c1 in range(52) for c2 in range(0, 52, 7)])
        ranks = np.array([impl.rank3(_kernels.lookups(source), *h) for h in hands.tolist()])
        assert np.array_equal(ranks, computed.rank[computed.packed_of_triple[(hands[:, 0] * 52 + hands[:, 1]) * 52
                                                                            + hands[:, 2]] >> 3])


def _parsed(parser: Any, argv: list[str]) -> tuple[Any, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = vars(parser.parse_args(argv))
        except SystemExit as exit_:
            args = exit_.code
    return args, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [
    ["verify", "log.jsonl"], ["verify", "-", "--json", "--no-replay"], ["verify"], ["verify", "--bogus", "x"],
    ["verify", "x", "--rules", "macau", "--rules", "macau"], ["verify", "--help"], ["deal", "--rounds", "0"],
    ["rules", "show", "nope"], ["rules", "show", "macau"], ["eval", "Kh Qs 9d", "extra"],
    ["detect", "a", "b", "--alpha", "0.01"], ["verify", "x", "--version"],
])
def test_a_commands_parser_alone_parses_as_every_commands(argv: list[str]) -> None:
    """``main`` builds the parser of the command it runs only: the same arguments, the same
    errors (status and line), the same help as the parser of every command."""
    alone = _parsed(_main.build_parser(argv[0]), argv)
    assert alone == _parsed(_main.build_parser(), argv)
    assert alone[0] != 0 or alone[1]  # (each case parses, fails or helps: it says something)


@pytest.mark.parametrize("name", [None, "", "--help", "--version", "verif", "build_parser"])
def test_a_name_no_command_has_builds_every_command(name: str | None) -> None:
    commands = _main.build_parser(name)._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert list(commands) == [command for command, _ in _main._COMMANDS]


def test_a_command_imports_only_its_own_module() -> None:
    """``sanggong eval`` imports no module of the log commands (nor deal's, nor detect's)."""
    code = ("import sys, sanggong.cli._main as m; m.build_parser('eval'); "
            "print(sorted(n for n in sys.modules if n.startswith('sanggong.cli.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    loaded = set(ast.literal_eval(done.stdout))  # (a list of module names printed by the child)
    assert "sanggong.cli._hands" in loaded
    assert not loaded & {"sanggong.cli._logs", "sanggong.cli._shoes", "sanggong.cli._simulate", "sanggong.cli._settle"}


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("file", "disable", "shown"), [
    (io.StringIO(), None, False), (io.StringIO(), True, False), (_Terminal(), True, False),
    (_Terminal(), None, True), (io.StringIO(), False, True),
])
def test_no_bar_where_tqdm_shows_none(file: io.StringIO, disable: bool | None, shown: bool) -> None:
    """The progress bar is tqdm's where tqdm would show one, else a stand-in that writes
    nothing, as a disabled tqdm does; either takes the same updates."""
    from tqdm import tqdm

    bar = _progress.tqdm(total=10, unit=" records", unit_scale=True, file=file, disable=disable, leave=False)
    assert isinstance(bar, tqdm) is shown and isinstance(bar, _progress.NoBar) is not shown
    theirs = tqdm(total=10, unit=" records", unit_scale=True, file=type(file)(), disable=disable, leave=False)
    assert bool(theirs.disable) is not shown
    for each in (bar, theirs):
        each.total = 20
        each.update(5)
        each.close()
    assert (file.getvalue() != "") is shown


def test_rule_files_module_is_there_when_asked() -> None:
    """``sanggong.rules.to_toml`` (imported on first use now) is the rule files' own."""
    import sanggong.rules
    from sanggong.rules import _files

    assert sanggong.rules.to_toml is _files.to_toml
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        sanggong.rules.nothing  # noqa: B018


def _stub_by_ast(text: str) -> tuple[list[str], dict[str, str]]:
    """A stub's names and each one's module as Python's parser reads them."""
    names: list[str] = []
    lazy: dict[str, str] = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.AnnAssign):
            assert isinstance(node.target, ast.Name)
            names.append(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 1 and node.module is not None
            for alias in node.names:
                assert alias.asname == alias.name
                names.append(alias.name)
                lazy[alias.name] = node.module
        else:
            assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    return names, lazy


def _stub_by_the_package(folder: Path, text: str) -> tuple[list[str], dict[str, str]]:
    """``__all__`` and ``_LAZY`` as ``sanggong/__init__.py`` makes them from a stub of ``text``
    (its code run as a package in ``folder``, beside that stub)."""
    (folder / "__init__.pyi").write_text(text, encoding="utf-8")
    init = str(folder / "__init__.py")
    namespace: dict[str, Any] = {"__name__": "stubbed", "__file__": init,
                                 "__loader__": importlib.machinery.SourceFileLoader("stubbed", init)}
    code = compile(Path(sanggong.__file__).read_text(encoding="utf-8"), init, "exec")
    exec(code, namespace)  # noqa: S102 (the package's own module)
    return namespace["__all__"], namespace["_LAZY"]


_EVERY_FORM = '''# a comment
__version__: str
"""A one-line docstring: its colon and its (parentheses) are no name."""

IMPLEMENTATION: str\x20\t
""""""
from .cards import Card as Card, Rank as Rank
from .shoe.play import design as design
from .verify import VerifyReport as VerifyReport,verify_log as verify_log
'''


def test_the_stub_is_read_as_pythons_parser_reads_it(tmp_path: Path) -> None:
    """``import sanggong`` reads its stub line by line (no ``ast`` at the start): the names
    and modules Python's parser reads there, of the stub itself and of every form it takes."""
    stub = Path(sanggong.__file__).with_suffix(".pyi").read_text(encoding="utf-8")
    assert (sanggong.__all__, sanggong._LAZY) == _stub_by_ast(stub)
    assert len(sanggong.__all__) > 80 and "ast" not in vars(sanggong) and "_ast" not in vars(sanggong)
    assert _stub_by_the_package(tmp_path, _EVERY_FORM) == _stub_by_ast(_EVERY_FORM)
    assert _stub_by_ast(_EVERY_FORM)[0] == ["__version__", "IMPLEMENTATION", "Card", "Rank", "design", "VerifyReport",
                                            "verify_log"]


@pytest.mark.parametrize("line", [
    "from .cards import Card", "from .cards import Card as Rank", "from .cards import (Card as Card)",
    "from .cards import Card as Card,", "from .cards import Card as Card  # a comment", "from cards import Card as Card",
    "from ..cards import Card as Card", "from . import cards as cards", "from .cards import *", "import sanggong.cards",
    "x = 1", "x: int = 1", "x : int", "x:", "def f() -> None: ...", '"""a docstring on two lines', "  x: int",
    "from .cards import Card as Card; x: int", "class X: ...", "from .cards import \\", "if True: x: int",
])
def test_a_stub_line_not_read_is_refused(tmp_path: Path, line: str) -> None:
    """A line of any other form (some Python reads otherwise, some not at all) is an
    ImportError naming the stub and the line, never a name misread or left out."""
    with pytest.raises(ImportError, match=r"__init__\.pyi:2: "):
        _stub_by_the_package(tmp_path, f"# the names\n{line}\n")


def _parsers(kind: type[argparse.ArgumentParser]) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """A parser of commands, of ``kind``, and its one command's, with options of every
    form the command line's take (the help long enough to wrap)."""
    words = "the help of an option, long enough to be wrapped at any terminal's width " * 2
    top = kind(prog="sanggong", description=words)
    top.add_argument("--version", action="store_true", help=words)
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=kind)
    command = commands.add_parser("verify", help=words, description=words, epilog=words)
    which = command.add_mutually_exclusive_group()
    which.add_argument("--rules", choices=["chinese", "genting", "macau", "nagaworld"], help=words)
    which.add_argument("--rules-file", metavar="FILE", help=words)
    command.add_argument("--bet", action="append", default=[], metavar="BET=STAKE", help=words)
    command.add_argument("--pair", nargs=2, metavar=("A", "B"), help=words)
    command.add_argument("log", metavar="LOG", help=words)
    return top, command


def test_help_is_argparses_at_the_terminals_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's parser adds options without reading the terminal's width (no
    ``shutil``: tests/test_startup's probe of ``verify``) and names its commands' prefix
    itself, and its help and usage are argparse's, fitted to the width (``COLUMNS``) as
    argparse fits them; a metavar that does not match its option is refused as argparse
    refuses it."""
    helps = set()
    for columns in ("30", "80", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        (top, command), (plain_top, plain_command) = _parsers(_parser.Parser), _parsers(argparse.ArgumentParser)
        assert command.prog == plain_command.prog == "sanggong verify"
        for mine, plain in ((top, plain_top), (command, plain_command)):
            assert (mine.format_help(), mine.format_usage()) == (plain.format_help(), plain.format_usage())
        helps.add(command.format_help())
        with pytest.raises(ValueError, match="length of metavar tuple does not match nargs"):
            top.add_argument("--three", nargs=3, metavar=("A", "B"))
    assert len(helps) == 3  # (fitted to each width)


@pytest.mark.parametrize("preset", ["macau", "prosperity", "chinese"])  # (the core's tables; computed; 460 rids)
def test_a_rankings_tables_by_hand_and_relay(preset: str) -> None:
    """``by_hand`` (each triple's class, rank and Pair Plus category, looked up at C speed
    where every value is below 256, by NumPy for a ranking of more rids) and the 16-bit
    relay of ``state`` agree with NumPy's reading of every triple's packed value and with
    the two bytes of each pair read as one word."""
    tables = RankingTables(PRESETS[preset].ranking)
    classes, ranks, pps = tables.by_hand()
    packed = tables.packed_of_triple
    assert classes == tables.cls[packed >> 3].astype(np.uint8).tobytes()
    assert ranks.tobytes() == tables.rank[packed >> 3].astype(np.uint16).tobytes()
    assert pps == (packed & 7).astype(np.uint8).tobytes()
    assert (max(tables.buffers.value) < 256) is (tables.n_rids <= 32)  # (each way of looking up, by the ranking)
    words = [int.from_bytes(bytes([a, b]), sys.byteorder) for a in range(52) for b in range(52)]
    assert [tables.buffers.state16[w] for w in words] == tables.buffers.state.tolist()


_RUN_PROBE = """
import atexit, gc, sys
import sanggong.cli
atexit.register(lambda: print("frozen", gc.get_freeze_count() > 0, gc.isenabled()))
sys.argv[0] = "sanggong"
sanggong.cli.run()
"""


@pytest.mark.parametrize("argv", [["verify", "LOG"], ["verify", "LOG", "--json"], ["verify", "no-such-log"],
                                  ["verify"], ["--help"]])
def test_the_command_freezes_what_it_imported(tmp_path: Path, argv: list[str]) -> None:
    """``run`` (the console script, ``python -m sanggong``) is ``main`` with what the command
    line imported frozen out of the collector's reach (which stays on): the same output and
    exit status; ``main`` alone leaves the collector as it was."""
    log = tmp_path / "log.jsonl"
    game = Game(MACAU, seed=7)
    log.write_text("".join(game.play().to_json() + "\n" for _ in range(2)), encoding="utf-8")
    argv = [str(log) if a == "LOG" else a for a in argv]
    env = {k: v for k, v in os.environ.items() if k != "SANGGONG_NO_EXTENSIONS"}
    done = subprocess.run([sys.executable, "-c", _RUN_PROBE, *argv], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=120)
    *said, frozen = done.stdout.splitlines()
    assert frozen == "frozen True True"
    frozen_before = gc.get_freeze_count()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = _main.main(argv)
    assert (status, out.getvalue().splitlines(), err.getvalue()) == (done.returncode, said, done.stderr)
    assert gc.get_freeze_count() == frozen_before and (said != [] or done.stderr != "")
