"""The command line's parser, made of each command group's commands, and ``main``, which
runs one and turns any bad input into one line on standard error and exit status 2, and a
log that fails verify's checks into its finding's status, for any command (``_status``)."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import NoReturn

from .. import _kernels
from ._output import one_line
from ._parser import Commands, Parser
from ._status import VERIFY_STATUS, Status
from ._version import Version

_COMMANDS = (
    ("eval", "_hands"), ("compare", "_hands"), ("settle", "_settle"), ("deal", "_logs"), ("analyze", "_analyze"),
    ("verify", "_logs"), ("detect", "_logs"), ("simulate", "_simulate"), ("protect", "_shoes"),
    ("design", "_shoes"), ("rules", "_rules"), ("bets", "_rules"), ("report", "_report"),
    ("shuffle-test", "_shuffle"),
)
"""Each command and the module whose ``add_<command>`` adds its parser, in the order
``sanggong --help`` lists them (a module is imported only when its command is built)."""


def _add(command: str, module: str) -> Callable[[Commands], None]:
    name = f"add_{command.replace('-', '_')}"
    add: Callable[[Commands], None] = getattr(importlib.import_module(f".{module}", __package__), name)
    return add


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser, of every command; or, given a command's name, of that
    command alone (``main``'s, which so builds one parser, not every command's: the same parse, the
    same errors and help, a few ms less at the start). Any other name: every command's."""
    adds = [_add(*c) for c in _COMMANDS if c[0] == command] or [_add(*c) for c in _COMMANDS]
    parser = Parser(
        prog="sanggong",
        description=("Sam Gong (三公) engine: evaluate and compare hands, settle bets, deal, verify, analyse and "
                     "simulate; list the preset rule sets and the bets of a table."),
    )
    parser.add_argument("--version", action=Version,
                        help="print the version, the implementation in use (cython or python) and the CPU's features")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    for add in adds:
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (``Status``: it never raises, but for
    ``SystemExit`` from ``--help`` and ``--version``, whose status it returns)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)  # the command's alone: argparse takes it first
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version (0) and usage errors (2, one line)
        return exit_.code if isinstance(exit_.code, int) else int(Status.USAGE)
    if _kernels.CONFIG_ERROR is not None:
        print(one_line(f"sanggong {args.command}: error: {_kernels.CONFIG_ERROR}"), file=sys.stderr)
        return int(Status.USAGE)
    try:
        with warnings.catch_warnings():  # a dependency's warning (matplotlib, Dask) never reaches the
            warnings.simplefilter("ignore")  # terminal around the one line a command prints; sanggong's do
            warnings.filterwarnings("default", module=r"sanggong(\.|$)")
            status: int = args.run(args)
    except BrokenPipeError:  # e.g. `sanggong analyze | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return int(Status.OK)
    except KeyboardInterrupt:
        print(f"sanggong {args.command}: interrupted", file=sys.stderr)
        return int(Status.INTERRUPTED)
    except (ValueError, TypeError, OSError, ArithmeticError, RecursionError, MemoryError) as exc:
        # bad input of any kind (a decimal or overflow error is the input's too): one line
        print(one_line(f"sanggong {args.command}: error: {exc}" if str(exc) else
                       f"sanggong {args.command}: error: {type(exc).__name__}"), file=sys.stderr)
        return int(_status_of(exc))
    return status


def run() -> NoReturn:
    """The ``sanggong`` command (its console script, ``python -m sanggong``): ``main``, its
    status the process's exit status. What the command line has imported, which lives as
    long as the process, is first frozen out of the cyclic garbage collector's reach
    (``gc.freeze``), which would otherwise go over it again at each full collection and
    at exit: some 10 ms of a command's start. (``main`` alone, a test's or a program's,
    leaves the collector as it is.)"""
    gc.freeze()
    raise SystemExit(main())


def _status_of(exc: BaseException) -> Status:
    """The status of an error a command raised: a log that failed verify's checks
    (``verify.LogFailed``, as ``detect`` raises) is the status ``verify`` gives its report,
    a finding about the data; anything else is bad input."""
    if type(exc).__name__ == "LogFailed":  # (verify is loaded already where one was raised)
        from ..verify import LogFailed

        if isinstance(exc, LogFailed) and not exc.report.ok:  # (a report that found nothing is no finding)
            return VERIFY_STATUS[exc.report.status]
    return Status.USAGE
