"""``settle``: a bet slip settled on one round, given its hands or the cards it dealt."""

from __future__ import annotations

import argparse
import re
from collections import Counter

from ..cards import Card, parse_cards
from ..dealing import assign, round_length
from ..hands import HandValue
from ..rules import RuleSet
from ..settlement import Settlement, TableSession, settle
from ._options import (
    STDIN,
    assignment,
    bet_slip,
    json_flag,
    money_unit,
    own_options,
    rules_of,
    slip,
    table,
    text_or_stdin,
)
from ._output import json_text, print_text
from ._parser import Commands


def _hand_names(rules: RuleSet) -> tuple[str, str]:
    """What a table calls the banker's hand and a position's (``{}``: its number)."""
    table = rules.table_variant
    return table.banker_hand, table.position_hand


def _print_settlement(result: Settlement, unit: str) -> None:
    def hand(h: HandValue) -> str:
        pp = "" if not h.pair_plus else f"  ({h.pair_plus.label})"
        return f"{' '.join(map(str, h.cards))}  {h.label}{pp}"

    print_text(f"rules: {result.rules.name}; {money_unit(unit, result.rules.minor_unit)}")
    if result.banker is None:
        print("void round: every card dealt is cancelled, every stake returned (a carried stake stays carried)")
    else:
        banker, position_name = _hand_names(result.rules)
        names = [(position_name.format(p), v) for p, v in sorted(result.hands.items())]
        # a Dragon/Phoenix table reads Dragon (its bets' first hand) first, a table the banker first
        shown = [*names, (banker, result.banker)] if result.rules.table_variant.two_hands else \
            [(banker, result.banker), *names]
        width = max(len(name) for name, _ in shown) + 1
        for name, value in shown:
            print(f"{name + ':':<{width}}  {hand(value)}")
    header = ("bet", "stake", "outcome", "detail", "returned", "commission", "carried")
    rows = [
        (r.bet, str(r.stake), r.outcome, r.detail or "", str(r.returned), str(r.commission), str(r.carried))
        for r in result.results
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(c.ljust(w) if i in (0, 2, 3) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    print(
        f"staked {result.staked}, returned {result.returned}, commission {result.commission}, "
        f"carried {result.carried}, house net {result.house_net}"
    )


def _settle_hands(rules: RuleSet, args: argparse.Namespace) -> tuple[str, dict[int, str]]:
    """The banker's hand and the positions' hands from --banker and --hand, or, at a
    Dragon/Phoenix table, from --phoenix (the banker's place, hand 0) and --dragon (hand 1)."""
    hands: dict[int, str] = {}
    for text in args.hand:
        key, cards = assignment(text, "--hand")
        if not re.fullmatch(r"[1-9][0-9]{0,39}", key):  # one way to write a position: 1, not 01
            hint = f" (write it as {int(key)})" if re.fullmatch(r"0[0-9]{0,39}", key) and int(key) else ""
            raise ValueError(f"--hand {text!r}: {key!r} is not a position number{hint}")
        if int(key) in hands:
            raise ValueError(f"--hand {text!r}: position {int(key)} is given twice")
        hands[int(key)] = cards
    if not rules.table_variant.two_hands:
        for option in ("dragon", "phoenix"):
            if getattr(args, option) is not None:
                raise ValueError(f"--{option}: only a Dragon/Phoenix table (such as --rules san_gong) has a "
                                 f"{option.capitalize()} hand, not the {rules.name} table; give --banker and --hand")
        if args.banker is None:
            raise ValueError("the following arguments are required: --banker")
        return args.banker, hands
    if args.phoenix is not None and args.banker is not None:
        raise ValueError("--phoenix and --banker both name the Phoenix hand: give one")
    if args.dragon is not None and 1 in hands:
        raise ValueError("--dragon and --hand 1=... both name the Dragon hand: give one")
    phoenix = args.phoenix if args.phoenix is not None else args.banker
    if args.dragon is not None:
        hands[1] = args.dragon
    if phoenix is None or 1 not in hands:
        missing = " and ".join(o for o, given in (("--dragon", 1 in hands), ("--phoenix", phoenix is not None))
                               if not given)
        raise ValueError(f"a Dragon/Phoenix table settles two hands: give {missing} CARDS")
    return phoenix, hands


def _observed_cards(rules: RuleSet, text: str, void: bool) -> list[Card]:
    """``--cards``: a round's cards in the order they came out of the shoe, checked
    against what the table's decks hold (a void round's: any number up to a round's)."""
    cards = list(parse_cards(text))
    counts = Counter(card.code for card in cards)
    code, most = max(counts.items(), key=lambda item: (item[1], -item[0])) if counts else (0, 0)
    if most > rules.decks:
        raise ValueError(f"--cards: {Card(code)} comes out {most} times, more than {rules.decks} "
                         f"deck{'s' if rules.decks > 1 else ''} hold{'s' if rules.decks == 1 else ''}")
    longest = round_length(rules, max(rules.burn_first, rules.burn_per_round))
    if void and len(cards) > longest:
        raise ValueError(f"--cards: a void round's cards are those dealt before it was abandoned, at most "
                         f"{longest} here, not {len(cards)}")
    return cards


def _read_hands_from_stdin(args: argparse.Namespace) -> None:
    """``-`` for any of --banker, --hand N=, --dragon, --phoenix and --cards: those cards
    read from standard input (one option only)."""
    for option in ("banker", "dragon", "phoenix", "cards"):
        setattr(args, option, text_or_stdin(args, f"--{option}", getattr(args, option)))
    for k, text in enumerate(args.hand):
        key, sep, cards = text.partition("=")
        if sep and cards.strip() == STDIN:
            args.hand[k] = f"{key}={text_or_stdin(args, f'--hand {key.strip()}=', STDIN)}"


def _cmd_settle(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    _read_hands_from_stdin(args)
    bets = slip(args.bet, args.unit)
    if not bets:
        raise ValueError("no bets: give at least one --bet NAME=STAKE")
    named = [o for o in ("banker", "dragon", "phoenix") if getattr(args, o) is not None] + (["hand"] if args.hand else [])
    if (args.cards is not None or args.void) and named:
        raise ValueError(f"--{named[0]}: give the hands, or the round's cards (--cards, --void), not both")
    if args.void:
        if args.cards is not None:
            _observed_cards(rules, args.cards, void=True)
        result = TableSession(rules).void(bets)
    elif args.cards is not None:
        cards = _observed_cards(rules, args.cards, void=False)
        lengths = {round_length(rules, burn): burn for burn in (rules.burn_per_round, rules.burn_first)}
        if len(cards) not in lengths:
            said = " or ".join(f"{n} ({b} burned)" for n, b in sorted(lengths.items()))
            raise ValueError(f"--cards: a round here takes {said} cards, not {len(cards)}")
        deal = assign(rules, cards, lengths[len(cards)])
        result = settle(rules, deal.banker, deal.hands, bets)
    else:
        banker, hands = _settle_hands(rules, args)
        result = settle(rules, banker, hands, bets)
    if args.json:
        print(json_text(result.to_dict(), ensure_ascii=False))
    else:
        _print_settlement(result, args.unit)
    return 0


def add_settle(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--banker", metavar="CARDS",
                     help='the banker\'s hand, e.g. "Kh Qs 9d" (required; at a Dragon/Phoenix table, the Phoenix hand)')
    own.add_argument("--hand", action="append", default=[], metavar="POS=CARDS",
                     help="a position's (a banker game: a player's) hand; repeat")
    own.add_argument("--dragon", metavar="CARDS", help="a Dragon/Phoenix table (--rules san_gong): the Dragon hand")
    own.add_argument("--phoenix", metavar="CARDS",
                     help="a Dragon/Phoenix table: the Phoenix hand (it sits where the banker's does: --banker too)")
    own.add_argument("--cards", metavar="CARDS",
                     help="instead of the hands: the round's cards in the order they came out of the shoe, burns "
                          "and head card included; the dealing procedure assigns them (which is how cards dealt "
                          "to the wrong place are put right)")
    own.add_argument("--void", action="store_true",
                     help="the round is void (a misdeal that could not be put right): every stake is returned; "
                          "--cards, if given, are the cards that came out before it was abandoned")
    st = commands.add_parser(
        "settle",
        help="settle a bet slip on one round's hands",
        description=(
            "Settle bets on a round. Stakes are whole minor units (100 is 1.00 at a table whose minor unit is "
            "0.01), or with --unit major major units (1.00); amounts are exact, and the table says their unit. "
            "Any CARDS may be - to read them from standard input (one option only). A banker game "
            "(--rules chinese) settles player:N bets, each --hand N against the banker's: the loser pays "
            "the stake times the winner's multiplier, so a player's returned amount is negative when a loss costs more "
            "than the stake. A Dragon/Phoenix table (--rules san_gong) deals two hands, --dragon and "
            "--phoenix, and takes the bets dragon, phoenix and tie, odd:, even: and pair: on either "
            "hand (odd:dragon, pair:phoenix) and the totals of the winning hand (total:1-6, total:9)."
        ),
        epilog=(
            'examples: sanggong settle --rules online --banker "Kh Qs 9d" '
            '--hand 1="As 2d 3c" --bet win:1=100 --bet pair_plus:banker=10; '
            'sanggong settle --rules chinese --banker "Qh Qd 8d" --hand 1="Kh Kd Ks" '
            '--hand 2="2c 7c 3d" --bet player:1=100 --bet player:2=100; '
            'sanggong settle --rules san_gong --dragon "Qs Jc 5d" --phoenix "5c Jd Kh" '
            '--bet dragon=100 --bet tie=10 --bet pair:dragon=10 --bet total:1-6=10; '
            'sanggong settle --rules online --cards "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc" --bet win:1=100; '
            'sanggong settle --rules macau --void --cards "Qh 2d Td" --bet win:1=100'
        ),
        parents=[table(), own, bet_slip("a bet and its stake; repeat"), json_flag("print the settlement as JSON")],
    )
    st.set_defaults(run=_cmd_settle)
