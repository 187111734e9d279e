"""The command line's parser, made of each command group's commands, and ``main``, which
runs one and turns any bad input into one line on standard error and exit status 2, and a
log that fails verify's checks into its finding's status, for any command (``_status``)."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from .. import _impl
from . import _analyze, _hands, _logs, _rules, _settle, _shoes, _shuffle, _simulate
from ._logs import VERIFY_STATUS
from ._output import one_line
from ._parser import Parser
from ._status import Status
from ._version import Version

_COMMANDS = (
    _hands.add_eval, _hands.add_compare, _settle.add_settle, _logs.add_deal, _analyze.add_analyze,
    _logs.add_verify, _logs.add_detect, _simulate.add_simulate, _shoes.add_protect, _shoes.add_design,
    _rules.add_rules, _rules.add_bets, _shuffle.add_shuffle_test,
)
"""Each command's parser, in the order ``sanggong --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="sanggong",
        description=("Sam Gong (三公) engine: evaluate and compare hands, settle bets, deal, verify, analyse and "
                     "simulate; list the preset rule sets and the bets of a table."),
    )
    parser.add_argument("--version", action=Version,
                        help="print the version, the implementation in use (cython or python) and the CPU's features")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    for add in _COMMANDS:
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (``Status``: it never raises, but for
    ``SystemExit`` from ``--help`` and ``--version``, whose status it returns)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version (0) and usage errors (2, one line)
        return exit_.code if isinstance(exit_.code, int) else int(Status.USAGE)
    if _impl.CONFIG_ERROR is not None:
        print(one_line(f"sanggong {args.command}: error: {_impl.CONFIG_ERROR}"), file=sys.stderr)
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


def _status_of(exc: BaseException) -> Status:
    """The status of an error a command raised: a log that failed verify's checks (an error
    carrying its ``VerifyReport`` as ``report``, as ``detect`` raises) is the status
    ``verify`` gives that report, a finding about the data; anything else is bad input."""
    report = getattr(exc, "report", None)
    if report is not None:
        from ..verify import VerifyReport  # (loaded already: a report was made)

        if isinstance(report, VerifyReport):
            return Status(VERIFY_STATUS[report.status])
    return Status.USAGE
