"""The ``sanggong`` command line.

Exit status: 0 on success, 2 for bad input (a malformed card, a wrong number of cards,
an unknown option), with a one-line message on standard error naming the bad value.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import __version__
from .hands import HandValue, evaluate


def _hand_json(hand: HandValue) -> dict[str, object]:
    return {
        "cards": [str(c) for c in hand.cards],
        "label": hand.label,
        "rank": hand.rank,
        "points": hand.points,
        "faces": hand.faces,
        "pair_plus": hand.pair_plus.label,
    }


def _cmd_eval(args: argparse.Namespace) -> int:
    hand = evaluate(" ".join(args.cards))
    if args.json:
        print(json.dumps(_hand_json(hand), ensure_ascii=False))
    else:
        cards = " ".join(str(c) for c in hand.cards)
        print(
            f"{cards}: {hand.label} (points {hand.points}, faces {hand.faces}, "
            f"pair plus: {hand.pair_plus.label})"
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sanggong",
        description="Sam Gong (三公) engine: evaluate hands.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ev = commands.add_parser(
        "eval",
        help="evaluate one three-card hand",
        description="Print a hand's label, points, faces and Pair Plus category.",
        epilog="example: sanggong eval Kh Qs 9d   (or: sanggong eval 'K♥ Q♠ 10d')",
    )
    ev.add_argument("cards", nargs="+", metavar="CARD", help="three cards, e.g. Kh Qs 9d")
    ev.add_argument("--json", action="store_true", help="print the result as JSON")
    ev.set_defaults(run=_cmd_eval)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except (ValueError, TypeError) as exc:
        print(f"sanggong {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return status
