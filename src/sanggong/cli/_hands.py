"""``eval`` and ``compare``: one hand under a ranking, and two hands against each other."""

from __future__ import annotations

import argparse

from ..hands import HandValue, compare, evaluate
from ..rules import RuleSet
from ._options import STDIN, json_flag, rules_of, stdin_lines, table
from ._output import json_text
from ._parser import Commands


def _hand_json(hand: HandValue) -> dict[str, object]:
    """A hand as JSON: its cards and what its ranking makes of them (label, rank, tier:
    None outside every tier), then points, faces and the Pair Plus category."""
    return {
        "cards": [str(c) for c in hand.cards],
        "label": hand.label,
        "rank": hand.rank,
        "tier": hand.tier,
        "points": hand.points,
        "faces": hand.faces,
        "pair_plus": hand.pair_plus.label,
    }


def _hand_text(hand: HandValue) -> str:
    """``Kh Kd Ks: 3P trips (rank 3123, tier face_trips, points 0, faces 3, pair plus: ...)``."""
    cards = " ".join(str(c) for c in hand.cards)
    tier = "" if hand.tier is None else f", tier {hand.tier}"
    return (f"{cards}: {hand.label} (rank {hand.rank}{tier}, points {hand.points}, faces {hand.faces}, "
            f"pair plus: {hand.pair_plus.label})")


def _eval_one(text: str, rules: RuleSet, as_json: bool) -> str:
    hand = evaluate(text, rules)
    return json_text({**_hand_json(hand), "rules": rules.name}, ensure_ascii=False) if as_json else _hand_text(hand)


def _cmd_eval(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    if STDIN not in args.cards:
        print(_eval_one(" ".join(args.cards), rules, args.json))
        return 0
    if len(args.cards) > 1:
        raise ValueError(f"give the cards, or - to read hands from standard input, not both: "
                         f"{' '.join(args.cards)[:60]}")
    for number, line in stdin_lines(args, "CARD"):  # a filter: each line's hand printed as it comes
        try:
            print(_eval_one(line, rules, args.json))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"standard input, line {number}: {exc}") from None
    return 0


def _two_hands(tokens: list[str]) -> tuple[str, str]:
    """Two hands from their arguments (or a line of standard input split at white space):
    two hands, six cards, or ``HAND | HAND``."""
    if "|" in tokens or any("|" in t for t in tokens):
        left, _, right = " ".join(tokens).partition("|")
        tokens = [left.strip(), right.strip()]
    elif len(tokens) == 6:  # six cards: the first three are one hand, the last three the other
        tokens = [" ".join(tokens[:3]), " ".join(tokens[3:])]
    if len(tokens) != 2:
        shown = " ".join(repr(t[:40]) for t in tokens[:6]) + (" ..." if len(tokens) > 6 else "")
        raise ValueError(f"expected two hands (\"Kh Kd Ks\" \"Qh Qd Qs\") or six cards, got {len(tokens)} "
                         f"arguments: {shown}")
    return tokens[0], tokens[1]


def _compare_one(texts: tuple[str, str], rules: RuleSet, as_json: bool) -> str:
    hands = []
    for which, text in zip(("first", "second"), texts, strict=True):
        try:
            hands.append(evaluate(text, rules))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"the {which} hand: {exc}") from None
    a, b = hands
    result = compare(a, b, rules)
    if as_json:
        return json_text({"result": result, "a": _hand_json(a), "b": _hand_json(b), "rules": rules.name},
                         ensure_ascii=False)
    return str(result)


def _cmd_compare(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    if STDIN not in args.hands:
        print(_compare_one(_two_hands(args.hands), rules, args.json))
        return 0
    if len(args.hands) > 1:
        raise ValueError(f"give the hands, or - to read them from standard input, not both: "
                         f"{' '.join(args.hands)[:60]}")
    for number, line in stdin_lines(args, "HAND"):
        try:
            print(_compare_one(_two_hands(line.replace(",", " ").split()), rules, args.json))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"standard input, line {number}: {exc}") from None
    return 0


def add_eval(commands: Commands) -> None:
    ev = commands.add_parser(
        "eval",
        help="evaluate one three-card hand",
        description=(
            "Print a hand's label, rank and tier under the rule set's ranking (--rules; default: "
            "macau's, points then faces with 3P on top), its points, faces and Pair Plus category."
        ),
        epilog="example: sanggong eval Kh Qs 9d   (or: sanggong eval 'K♥ Q♠ 10d'; under another ranking: "
               "sanggong eval --rules chinese Kh Kd Ks)",
        parents=[table(), json_flag("print the result as JSON (tier: null outside every tier)")],
    )
    ev.add_argument("cards", nargs="+", metavar="CARD",
                    help="three cards, e.g. Kh Qs 9d; or - to read hands from standard input, one a line, each "
                         "printed as it is read (with --json, one JSON object a line)")
    ev.set_defaults(run=_cmd_eval)


def add_compare(commands: Commands) -> None:
    co = commands.add_parser(
        "compare",
        help="compare two hands under a rule set's ranking: 1, 0 or -1",
        description=(
            "Print 1 if the first hand beats the second, 0 if they tie, -1 if it loses, under the "
            "ranking of the rule set (--rules; default: macau's, where hands of one class tie, both 3P "
            "for one). Give the two hands as two arguments, or six cards."
        ),
        epilog='example: sanggong compare --rules chinese "Kh Kd Ks" "Qh Qd Qs"   '
               '(prints 1: K-K-K is the higher 大三公)',
        parents=[table(), json_flag('print {"result", "a", "b", "rules"} as JSON: the result and both hands as '
                                    'eval shows them')],
    )
    co.add_argument("hands", nargs="+", metavar="HAND",
                    help='the two hands, e.g. "Kh Kd Ks" "Qh Qd Qs" (or six cards); or - to read pairs of hands '
                         'from standard input, one pair a line: six cards, or "Kh Kd Ks | Qh Qd Qs"')
    co.set_defaults(run=_cmd_compare)
