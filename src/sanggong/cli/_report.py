"""``report``: the game's math report (``sanggong.mathreport``) as HTML, Markdown or JSON,
to standard output or a file in a directory."""

from __future__ import annotations

import argparse
import os
import sys

from ..limits import MAX_DECKS
from ._options import UNITS, amount, count, own_options, rules_of, table
from ._parser import Commands

FORMATS = ("html", "md", "json")


def _out_target(path: str) -> None:
    """``--out DIR``, checked before any work: a printable name, a folder or a new folder
    in one that exists (never a tree of new ones, never over a file)."""
    if not path or not path.isprintable():
        raise ValueError(f"--out {path!r}: not a folder name (empty, or it holds a control character)")
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"--out {path}: a file, not a folder")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ValueError(f"--out {path}: no such folder {parent}")


def _cmd_report(args: argparse.Namespace) -> int:
    from ..mathreport import report  # (here: `sanggong --help` starts without it, and NumPy)

    if args.out is not None:
        _out_target(args.out)
    rules = rules_of(args)
    stake = amount("--stake", args.stake, args.unit)
    book = report(rules, args.report_decks, pace=args.pace, stake=stake)
    if args.out is None:
        text = {"html": book.html, "md": book.markdown, "json": book.json}[args.format]()
        sys.stdout.write(text)
        return 0
    print(book.write(args.out, args.format))
    return 0


def add_report(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--decks", dest="report_decks", type=count(MAX_DECKS), nargs="+", metavar="N",
                     help="the deck counts to report, e.g. --decks 1 6 8 (default: the rule set's own)")
    own.add_argument("--format", choices=FORMATS, default="html",
                     help="html (one self-contained page, figures inline; the default), md or json")
    own.add_argument("--out", metavar="DIR", help="write report.<format> into DIR (made if missing) and print its "
                                                  "path (default: standard output)")
    own.add_argument("--pace", type=count(100_000), default=60, help="rounds an hour, for the win per hour (60)")
    own.add_argument("--stake", default="100", metavar="AMOUNT",
                     help="the average stake, for the win per hour (100, in --unit units)")
    own.add_argument("--unit", choices=UNITS, default="minor",
                     help="what --stake counts: minor (the default), whole minor units, or major, decimals allowed")
    re = commands.add_parser(
        "report",
        help="the game's math report: every bet's exact outcome table, edge, risk, volatility and hold",
        description=("Write the math report of a rule set for each deck count asked: per bet the outcome table "
                     "as exact fractions and decimals, hit frequency, house edge, element of risk, standard "
                     "deviation, volatility index, the hold's confidence interval after N rounds and the win per "
                     "hour; the rules in words, the method, the version and the rules' digest. The same bytes on "
                     "every run."),
        epilog="example: sanggong report --rules macau --decks 1 6 8 --format html --out report/",
        parents=[table(), own],
    )
    re.set_defaults(run=_cmd_report)
