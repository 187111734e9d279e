"""The ``sanggong`` command line.

Exit status: 0 on success; 2 for bad input of any kind (a malformed card, an unknown
option, a stake, a size beyond the limits of ``sanggong.limits``, a rule file, an
environment value), with one line on standard error naming the bad value and never a
traceback; 1 when ``verify`` finds a bad record; 130 after Ctrl-C (with the partial
result where there is one). Every ``--json`` output is strict JSON (no NaN or Infinity).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import platform
import re
import sys
import tomllib
import warnings
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any, NoReturn

from . import _impl
from ._canonical import loads_strict
from .hands import HandValue, compare, evaluate
from .limits import (
    MAX_DEAL_ROUNDS, MAX_DECKS, MAX_POSITIONS, MAX_SESSION_ROUNDS, MAX_SESSIONS, MAX_SHOES, MAX_SIM_ROUNDS, MAX_STAKE,
    MAX_THREADS,
)
from .analysis import analyze, composition, effect_of_removal
from .cards import Card, parse_cards
from .dealing import Game, RoundRecord, assign, round_length
from .rules import PRESETS, RuleSet, _toml
from .seeds import check_seed
from .settlement import Money, Settlement, TableSession, settle


def _json(data: object, **kwargs: Any) -> str:
    """Strict JSON: a NaN or an infinity is an error here, never an output."""
    return json.dumps(data, allow_nan=False, **kwargs)


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


def _cmd_eval(args: argparse.Namespace) -> int:
    rules = _rules(args)
    hand = evaluate(" ".join(args.cards), rules)
    if args.json:
        print(_json({**_hand_json(hand), "rules": rules.name}, ensure_ascii=False))
    else:
        print(_hand_text(hand))
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    rules = _rules(args)
    tokens = args.hands
    if len(tokens) == 6:  # six cards: the first three are one hand, the last three the other
        tokens = [" ".join(tokens[:3]), " ".join(tokens[3:])]
    if len(tokens) != 2:
        shown = " ".join(repr(t[:40]) for t in tokens[:6]) + (" ..." if len(tokens) > 6 else "")
        raise ValueError(f"expected two hands (\"Kh Kd Ks\" \"Qh Qd Qs\") or six cards, got {len(tokens)} "
                         f"arguments: {shown}")
    hands = []
    for which, text in zip(("first", "second"), tokens):
        try:
            hands.append(evaluate(text, rules))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"the {which} hand: {exc}") from None
    a, b = hands
    result = compare(a, b, rules)
    if args.json:
        print(_json({"result": result, "a": _hand_json(a), "b": _hand_json(b), "rules": rules.name},
                    ensure_ascii=False))
    else:
        print(result)
    return 0


def _assignment(text: str, what: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise ValueError(f"{what} {text!r}: expected NAME=VALUE")
    return key.strip(), value.strip()


_AMOUNT = re.compile(r"[+-]?(\d{1,20})(?:\.(\d{1,20}))?")


def _stake(bet: str, text: str) -> Money:
    """An integer is a stake in minor units; a decimal (10.50) is Decimal money. Plain
    digits only (no exponent, no NaN): an amount is checked before it is ever expanded."""
    match = _AMOUNT.fullmatch(text)
    if match is None:
        raise ValueError(f"stake on {bet}: {text[:40]!r} is not an amount (digits, with an optional decimal point)")
    return int(text) if match[2] is None else Decimal(text)


def _rules(args: argparse.Namespace) -> RuleSet:
    """The preset or file the command names, with --decks and --positions applied (a
    change the rule set refuses is named with the options that asked for it)."""
    rules = RuleSet.load(args.rules_file) if args.rules_file else PRESETS[args.rules or DEFAULT_PRESET]
    changes = {k: getattr(args, k, None) for k in ("decks", "positions")}
    changes = {k: v for k, v in changes.items() if v is not None}
    if not changes:
        return rules
    try:
        return rules.replace(**changes)
    except (TypeError, ValueError) as exc:
        asked = " ".join(f"--{k} {v}" for k, v in changes.items())
        table = f"--rules-file {args.rules_file}" if args.rules_file else f"--rules {args.rules or DEFAULT_PRESET}"
        raise ValueError(f"{asked} with {table}: {exc}") from None


DEFAULT_PRESET = "macau"
"""The rule set of a command given neither --rules nor --rules-file."""


def _table_options(parser: argparse.ArgumentParser, *overrides: str) -> None:
    which = parser.add_mutually_exclusive_group()  # both given: one of them would be dropped
    # (no default here: argparse does not count an option given its default value as given)
    which.add_argument("--rules", choices=sorted(PRESETS), help=f"preset rule set (default: {DEFAULT_PRESET})")
    which.add_argument("--rules-file", metavar="FILE", help="a rule set in TOML or JSON (instead of --rules)")
    limits = {"decks": MAX_DECKS, "positions": MAX_POSITIONS}
    for name in overrides:
        parser.add_argument(f"--{name}", type=_count(limits[name]),
                            help=f"override the rule set's number of {name} (at most {limits[name]})")


def _hand_names(rules: RuleSet) -> tuple[str, str]:
    """What a table calls the banker's hand and a position's (``{}``: its number)."""
    if rules.variant == "dragon_phoenix":
        return "phoenix", "dragon"
    return "banker", "player {}" if rules.variant == "banker_game" else "hand {}"


def _print_settlement(result: Settlement) -> None:
    def hand(h: HandValue) -> str:
        pp = "" if not h.pair_plus else f"  ({h.pair_plus.label})"
        return f"{' '.join(map(str, h.cards))}  {h.label}{pp}"

    print(f"rules: {result.rules.name}")
    if result.banker is None:
        print("void round: every card dealt is cancelled, every stake returned (a carried stake stays carried)")
    else:
        banker, position_name = _hand_names(result.rules)
        names = [(position_name.format(p), v) for p, v in sorted(result.hands.items())]
        # a Dragon/Phoenix table reads Dragon (its bets' first hand) first, a table the banker first
        shown = [*names, (banker, result.banker)] if result.rules.variant == "dragon_phoenix" else \
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
        print("  ".join(c.ljust(w) if i in (0, 2, 3) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    print(
        f"staked {result.staked}, returned {result.returned}, commission {result.commission}, "
        f"carried {result.carried}, house net {result.house_net}"
    )


def _settle_hands(rules: RuleSet, args: argparse.Namespace) -> tuple[str, dict[int, str]]:
    """The banker's hand and the positions' hands from --banker and --hand, or, at a
    Dragon/Phoenix table, from --phoenix (the banker's place, hand 0) and --dragon (hand 1)."""
    hands: dict[int, str] = {}
    for text in args.hand:
        key, cards = _assignment(text, "--hand")
        if not re.fullmatch(r"[1-9][0-9]{0,39}", key):  # one way to write a position: 1, not 01
            hint = f" (write it as {int(key)})" if re.fullmatch(r"0[0-9]{0,39}", key) and int(key) else ""
            raise ValueError(f"--hand {text!r}: {key!r} is not a position number{hint}")
        if int(key) in hands:
            raise ValueError(f"--hand {text!r}: position {int(key)} is given twice")
        hands[int(key)] = cards
    if rules.variant != "dragon_phoenix":
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


def _bets(given: Sequence[str]) -> dict[str, Money]:
    """The slip of ``--bet NAME=STAKE`` options; a bet given twice is refused (never the
    last stake silently)."""
    bets: dict[str, Money] = {}
    for text in given:
        name, stake = _assignment(text, "--bet")
        if name in bets:
            raise ValueError(f"--bet {text!r}: {name} is given twice")
        bets[name] = _stake(name, stake)
    return bets


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


def _cmd_settle(args: argparse.Namespace) -> int:
    rules = _rules(args)
    bets = _bets(args.bet)
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
        print(_json(result.to_dict(), ensure_ascii=False))
    else:
        _print_settlement(result)
    return 0


def _count_text(text: str, longest: int = 40) -> int | None:
    """A whole number written as 1000000, 1,000,000, 1_000_000 or 1e6; None otherwise
    (and for text longer than ``longest``: nothing long is ever parsed)."""
    if len(text) > longest:
        return None
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", text):
        return int(text.replace(",", ""))
    if re.fullmatch(r"\d+(?:_\d+)*", text):
        return int(text.replace("_", ""))
    match = re.fullmatch(r"(\d+)(?:\.(\d+))?[eE]\+?(\d{1,2})", text)
    if match:
        digits, fraction, exponent = match[1], match[2] or "", int(match[3])
        if len(fraction) <= exponent:
            return int(digits + fraction.ljust(exponent, "0"))
    return None


def _count(limit: int) -> Any:
    """An argparse type: a positive whole number no larger than ``limit``."""

    def parse(text: str) -> int:
        value = _count_text(text.strip())
        if value is None or value < 1:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a positive whole number")
        if value > limit:
            raise argparse.ArgumentTypeError(f"{text[:40]} is more than the limit of {limit:,}")
        return value

    parse.__name__ = "count"
    return parse


def _seed(text: str) -> int:
    """A seed as the API takes it (``seeds.check_seed``: 0 .. 2**256 - 1)."""
    value = _count_text(text.strip(), longest=110)  # 2**256 has 78 digits, more with separators
    if value is None:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a seed (a whole number, at most 2**256 - 1)")
    try:
        check_seed(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}...: {exc}" if len(text) > 40 else f"{text!r}: {exc}") from None
    return value


def _table_text(rules: RuleSet) -> str:
    """The hands a table deals, for the header of ``deal``."""
    if rules.variant == "dragon_phoenix":
        return "two hands (Dragon and Phoenix)"
    if rules.variant == "banker_game":
        return f"{rules.positions} player{'s' if rules.positions > 1 else ''} against the banker"
    return f"{rules.positions} position{'s' if rules.positions > 1 else ''}"


def _print_round(record: RoundRecord, rules: RuleSet) -> None:
    head = ""
    if record.head_card is not None:
        from .dealing import first_hand

        first = first_hand(record.head_card)
        head = f", head card {record.head_card} ({'banker' if first == 0 else f'player {first}'} first)"
    last = ", last of the shoe" if record.last_of_shoe and record.cut_card else ""
    burned = " ".join(map(str, record.burned)) or "none"
    print(f"round {record.round} (shoe {record.shoe}, round {record.round_in_shoe}{last}){head}; burned: {burned}")
    assert record.banker is not None  # (a game deals every round it begins: none is void)
    width = max(4, *(len(h.label) for h in (record.banker, *record.hands.values())))
    winners = record.winners
    if rules.variant == "dragon_phoenix":  # Dragon (hand 1) against Phoenix (the banker's place)
        dragon, phoenix = record.hands[1], record.banker
        print(f"  dragon   {' '.join(map(str, dragon.cards))}  {dragon.label}")
        print(f"  phoenix  {' '.join(map(str, phoenix.cards))}  {phoenix.label}")
        print(f"  {'dragon wins' if winners[1] == 'win' else 'phoenix wins' if winners[1] == 'lose' else 'tie'}")
        return
    print(f"  banker  {' '.join(map(str, record.banker.cards))}  {record.banker.label}")
    for position, hand in record.hands.items():
        print(f"  {position:<6}  {' '.join(map(str, hand.cards))}  {hand.label:<{width}} {winners[position]}")


MAX_KEY_BYTES = 4096
"""The longest operator key a key file may hold."""


def _key(path: str | None) -> bytes | None:
    """The operator's key: the whole of a file, 1 to 4,096 bytes (one trailing newline,
    as an editor leaves it, is not part of the key). A longer file is refused, never cut:
    a key is the file's every byte, or no key at all."""
    if path is None:
        return None
    with open(path, "rb") as handle:
        key = handle.read(MAX_KEY_BYTES + 3)  # one byte past a key and its CRLF: more is too long
    key = key[:-2] if key.endswith(b"\r\n") else key[:-1] if key.endswith(b"\n") else key
    if not 1 <= len(key) <= MAX_KEY_BYTES:
        raise ValueError(f"--key-file {path}: a key is 1 to {MAX_KEY_BYTES:,} bytes (and one final newline), "
                         f"{'the file is empty' if not key else 'the file holds more'}")
    return key


def _cmd_deal(args: argparse.Namespace) -> int:
    rules = _rules(args)
    game = Game(rules, args.seed, recall=0, key=_key(args.key_file))
    if not args.json:
        print(f"rules: {rules.name}, {rules.decks} deck(s), {_table_text(rules)}, seed {game.seed}")
    for _ in range(args.rounds):  # streamed: a round is printed as it is dealt
        record = game.play()
        if args.json:
            print(record.to_json())
        else:
            _print_round(record, rules)
    return 0


VERIFY_STATUS = {"ok": 0, "bad": 1, "unchecked": 3}
"""``sanggong verify``'s exit status: 0 every record checked and good, 1 a bad record (the
log was changed, or is not a log), 3 a record this implementation cannot check (nothing
found wrong); 2 is the command line's own (bad usage)."""


def _cmd_verify(args: argparse.Namespace) -> int:
    from .verify import verify_log

    named = args.rules or args.rules_file or args.decks or args.positions
    if named and not (args.rules or args.rules_file):
        raise ValueError("--decks and --positions change a rule set: name it with --rules or --rules-file")
    rules = _rules(args) if named else None  # None: the preset the records name
    report = verify_log(args.log, rules=rules, key=_key(args.key_file), replay=not args.no_replay)
    if args.json:
        print(_json({"ok": report.ok, "status": report.status, "records": report.records,
                     "first_bad": report.first_bad, "round": report.round, "reason": report.reason,
                     "replayed": report.replayed, "authenticated": report.authenticated, "signed": report.signed,
                     "void_rounds": report.void_rounds, "reshuffles": report.reshuffles,
                     "last_hash": report.last_hash}))
    else:
        print(_one_line(str(report)))
    return VERIFY_STATUS[report.status]


def _advance(bar: Any, n: int) -> None:
    bar.update(n)


def _cmd_detect(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .detection import detect

    named = args.rules or args.rules_file
    rules = _rules(args) if named else None  # None: the preset the records name
    if args.plot:
        _plot_target(args.plot)
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha {args.alpha}: a probability strictly between 0 and 1")
    bar = tqdm(unit=" records", unit_scale=True, file=sys.stderr, disable=None if not args.json else True)
    try:
        logs = args.logs if len(args.logs) > 1 else args.logs[0]
        found = detect(logs, rules, alpha=args.alpha, burned_seen=args.burned_seen, verify=args.verify,
                       key=_key(args.key_file), workers=args.workers, progress=lambda n: _advance(bar, n))
    finally:
        bar.close()
    if args.json:
        print(_json(found.to_dict(), ensure_ascii=False))
    else:
        print(f"rules: {found.rules}, {found.records:,} records"
              + (f" ({found.skipped:,} of a shoe begun before the log, not read)" if found.skipped else "")
              + f", {len(found.players)} player{'s' if len(found.players) != 1 else ''}, alpha {found.alpha}")
        header = ["player", "rounds", "bets", "units", "mean EV", "baseline EV", "z", "p-value", "gain/100", "flagged"]
        rows = [[p.id, f"{p.rounds:,}", f"{p.bets:,}", f"{p.units:,.0f}", f"{100 * p.mean_ev:+.3f}%",
                 f"{100 * p.baseline_ev:+.3f}%", "" if p.z is None else f"{p.z:.2f}", f"{p.p_value:.3g}",
                 f"{p.expected_gain_per_100:+.2f}", "FLAGGED" if p.flagged else ""] for p in found.players]
        _print_table(header, rows, right=range(1, len(header) - 1))
        print("mean EV: the exact EV per unit of the player's stakes when they were placed; baseline: the same "
              "bets' fresh-shoe EV. z, p-value: a one-sided test that the stakes follow the shoe (Holm-corrected "
              "over the players: flagged).")
    if args.plot:
        if found.flagged:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                found.plot(args.plot)
        else:
            _nothing_to_plot(args.plot, "no player is flagged")
    return 0


def _cmd_analyze(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.eor:
        removal = effect_of_removal(rules)
        if args.json:
            print(_json({"rules": rules.name, "decks": rules.decks, "effect_of_removal": [
                {"bet": r.bet, "ev": r.ev, "eor": r.eor, "tags": r.tags, "correlation": r.correlation}
                for r in removal.values()]}))
            return 0
        ranks = list(next(iter(removal.values())).eor)
        print(f"rules: {rules.name}, {rules.decks} deck(s): change in return (%) when one card of a rank leaves")
        print("bet".ljust(18) + "".join(r.rjust(8) for r in ranks) + "  tags")
        for r in removal.values():
            cells = "".join(f"{100 * r.eor[k]:8.4f}" for k in ranks)
            tags = " ".join(f"{r.tags[k]:+d}" for k in ranks)
            print(f"{r.bet:<18}{cells}  {tags}  (correlation {r.correlation:.2f})")
        return 0
    shoe = composition(rules.decks, args.remove) if args.remove else None
    result = analyze(rules, shoe)
    if args.json:
        print(_json(result.to_dict()))
        return 0
    removed = f", less {args.remove}" if args.remove else ""
    print(f"rules: {rules.name}, {rules.decks} deck(s), {result.cards} cards{removed}")
    # "net": what one unit staked gains (won less commission) or loses on that outcome; not
    # the simulation's return per unit staked (RTP), which counts the stake given back too
    header = ("bet", "outcome", "combinations", "probability", "pays", "net per unit")
    rows = []
    for bet in result.bets.values():
        for k, line in enumerate(bet.outcomes):
            outcome = line.outcome + (f" ({line.detail})" if line.detail else "")
            # a banker game's loss costs the winner's multiplier (its detail): it pays nothing
            pays = "" if line.pays is None or line.net < 0 else f"{line.pays}:1"
            rows.append((bet.bet if k == 0 else "", outcome, f"{line.combinations:,}",
                         f"{line.probability:.8f}", pays, f"{float(line.net):+.4f}"))
        edge = 100 * bet.house_edge + 0.0  # + 0.0: an even game's edge is 0, never -0
        rows.append(("", f"house edge {edge:.4f}%", "", "", "sd", f"{bet.sd:.4f}"))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
    return 0


# --- rules and bets: what the tables are ------------------------------------------------------

# One line on each preset (the docstrings of the constants in sanggong.rules say more; a
# module-level constant's docstring is not reachable at run time).
_PRESET_TEXT = {
    "macau": "Macau's official rules (Portaria 22/96/M): Win, Tie, Odd/Even, Three Faces, Point",
    "online": "the online live-dealer table: three players, a burned head card, Pair Plus",
    "nagaworld": "NagaWorld's Three Pictures: as genting, but the Tie wins on equal points",
    "genting": "Resorts World Genting: Win 1:1 less 5%, Tie 8:1, Three Faces 16:1",
    "genting_no_commission": "Genting without commission: a Win with a 6-point hand pays 1:2",
    "prosperity": "a faces-first table: more faces wins, then points; Tie 10:1",
    "san_gong": "online Dragon and Phoenix: trips > three faces > points, then the highest card",
    "chinese": "the Chinese banker game: each player against the banker for a multiple of the stake",
}
_TIER_TEXT = {
    "three_threes": "three_threes (3-3-3)",
    "face_trips": "face_trips (J-J-J, Q-Q-Q, K-K-K)",
    "trips": "trips (three of a kind)",
    "three_faces": "three_faces (three face cards)",
}


def _print_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> None:
    """Columns two spaces apart, left-aligned but for the columns ``right``; no trailing blanks."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(c.rjust(w) if i in right else c.ljust(w)
                        for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip())


def _cmd_rules_list(args: argparse.Namespace) -> int:
    presets = [{"name": name, "variant": rules.variant, "decks": rules.decks, "positions": rules.positions,
                "description": _PRESET_TEXT.get(name, "")} for name, rules in PRESETS.items()]
    if getattr(args, "json", False):  # --json is left unset where not given (see build_parser)
        print(_json({"default": DEFAULT_PRESET, "presets": presets}, ensure_ascii=False))
        return 0
    rows = [[str(p[k]) for k in ("name", "variant", "decks", "positions", "description")] for p in presets]
    _print_table(("preset", "variant", "decks", "positions", "description"), rows, right=(2, 3))
    return 0


def _cmd_rules_show(args: argparse.Namespace) -> int:
    data = PRESETS[args.preset].to_dict()
    as_json = getattr(args, "json", False)  # left unset where not given (see build_parser)
    # exactly what RuleSet.save writes to a .json or a .toml file
    print(_json(data, indent=2, ensure_ascii=False) if as_json else _toml(data), end="\n" if as_json else "")
    return 0


def _odds_text(value: Fraction) -> str:
    """Odds or a rate as people read them: ``8``, ``0.94`` (a terminating decimal), else ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    rest = value.denominator
    for factor in (2, 5):
        while rest % factor == 0:
            rest //= factor
    if rest != 1:
        return f"{value.numerator}/{value.denominator}"
    exact = Context(prec=60).divide(Decimal(value.numerator), Decimal(value.denominator))
    return format(exact, "f")


def _json_odds(value: Fraction) -> int | str:
    """Odds as a rule file writes them: an int, or ``"n/d"``."""
    return value.numerator if value.denominator == 1 else str(value)


def _multiplier_groups(multipliers: Mapping[str, Fraction]) -> list[tuple[Fraction, str]]:
    """A banker game's multipliers, ascending, each with the winning hands that set it:
    ``(1, "0-7 points")``, ``(4, "three_faces (three face cards)")``."""
    out = []
    for value in sorted(set(multipliers.values())):
        keys = [k for k, v in multipliers.items() if v == value]
        points = [int(k) for k in keys if k.isdigit()]
        parts, start = [], 0
        while start < len(points):  # runs of consecutive points: 0-7
            end = start
            while end + 1 < len(points) and points[end + 1] == points[end] + 1:
                end += 1
            parts.append(f"{points[start]}" if start == end else f"{points[start]}-{points[end]}")
            start = end + 1
        text = [f"{', '.join(parts)} point{'s' if len(points) > 1 or points != [1] else ''}"] if parts else []
        text += [_TIER_TEXT.get(k, k) for k in keys if not k.isdigit()]
        out.append((value, ", ".join(text)))
    return out


def _bet_pays(rules: RuleSet, name: str) -> str:
    """The pays column of ``sanggong bets``."""
    if rules.variant == "banker_game":
        values = rules.multiplier_values
        return f"x{_odds_text(values[0])} to x{_odds_text(values[-1])} by the winning hand (below)"
    odds, kind = rules.bet_odds(name), rules.bet(name).kind
    if odds is None:
        return "by the hand (below)"
    text = f"{_odds_text(odds)}:1"
    six = rules.pays.get(f"{kind}_on_six")
    if six is not None:
        text += f" ({_odds_text(six)}:1 when the winning hand has 6 points)"
    if kind in rules.commission_bets and rules.commission:
        text += f", less {_odds_text(100 * rules.commission)}% commission on the winnings"
    return text


def _cmd_bets(args: argparse.Namespace) -> int:
    rules = _rules(args)
    bets = []
    for name, description in rules.bets.items():
        kind = rules.bet(name).kind
        six = rules.pays.get(f"{kind}_on_six")
        pair_plus = kind == "pair_plus"
        odds = rules.bet_odds(name)
        bets.append({
            "bet": name, "kind": kind, "description": description,
            "pays": None if odds is None else _json_odds(odds),
            "pays_on_six": None if six is None else _json_odds(six),
            "pair_plus_pays": {k: _json_odds(v) for k, v in rules.pair_plus_pays.items()} if pair_plus else None,
            "multipliers": ({k: _json_odds(v) for k, v in rules.multipliers.items()}
                            if rules.variant == "banker_game" else None),
            "commission": (_json_odds(rules.commission)
                           if kind in rules.commission_bets and rules.commission else None),
        })
    if args.json:
        print(_json({"rules": rules.name, "variant": rules.variant, "decks": rules.decks,
                     "positions": rules.positions, "bets": bets}, ensure_ascii=False))
        return 0
    print(f"rules: {rules.name} (variant {rules.variant}), {rules.decks} deck(s), {_table_text(rules)}: "
          f"{len(bets)} bet{'s' if len(bets) > 1 else ''}")
    rows = [(str(b["bet"]), str(b["description"]), _bet_pays(rules, str(b["bet"]))) for b in bets]
    _print_table(("bet", "wins when", "pays"), rows)
    if any(b["pair_plus_pays"] for b in bets):
        print("Pair Plus pays by the hand's category: " + ", ".join(
            f"{k.replace('_', ' ')} {_odds_text(v)}:1" for k, v in rules.pair_plus_pays.items()))
    if rules.variant == "banker_game":
        print("multipliers (the winning hand's; the loser pays the stake x it): " + "; ".join(
            f"x{_odds_text(v)} {hands}" for v, hands in _multiplier_groups(rules.multipliers)))
    return 0


def _plot_convergence(path: str, result: Any, title: str) -> None:
    points = result.convergence
    bet = next(iter(result.bets.values()))
    if not points:
        _nothing_to_plot(path, "no round was played")
        return
    with _figure(path, title) as ax:
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="." if len(points) < 20 else None,
                label=f"simulated return of {bet.bet}")
        if bet.exact is not None:
            ax.axhline(bet.exact, color="black", linestyle="--", linewidth=1, label="exact")
        ax.set_xscale("log")
        ax.set_xlabel("rounds")
        ax.set_ylabel("return to player")
        ax.legend()


def _plot_sessions(path: str, result: Any, title: str) -> None:
    if not result.sessions:
        _nothing_to_plot(path, "no session finished")
        return
    with _figure(path, title) as ax:
        ax.hist(result.finals, bins=60)
        ax.axvline(result.bankroll, color="black", linestyle="--", linewidth=1, label="starting bankroll")
        ax.set_xlabel("final bankroll (minor units)")
        ax.set_ylabel("sessions")
        ax.legend()


def _plot_target(path: str) -> None:
    """``--plot FILE``, checked before any work: matplotlib is there, FILE's suffix is a
    format it writes, and FILE's folder exists."""
    plt = _pyplot()
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--plot {path}: no such folder {folder}")
    if os.path.isdir(path):
        raise ValueError(f"--plot {path}: a folder, not a file")
    formats = plt.figure().canvas.get_supported_filetypes()
    plt.close("all")
    suffix = os.path.splitext(path)[1].lstrip(".").lower()
    if suffix not in formats:
        said = f"'.{suffix}' is not a format matplotlib writes" if suffix else "no suffix to name the format"
        raise ValueError(f"--plot {path}: {said} (use one of {', '.join(sorted(formats))})")


def _pyplot() -> Any:
    try:
        with warnings.catch_warnings():  # a dependency's warnings never reach the terminal
            warnings.simplefilter("ignore")
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'sanggong[plot]'") from None
    return plt


@contextlib.contextmanager
def _figure(path: str, title: str) -> Iterator[Any]:
    """One figure's axes, saved to ``path`` when the block ends; matplotlib's warnings
    (an empty legend, a layout it cannot make tight) are kept off the terminal."""
    plt = _pyplot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig, ax = plt.subplots(figsize=(8, 4.5))
        try:
            yield ax
            ax.set_title(title)
            fig.tight_layout()
            fig.savefig(path)
        finally:
            plt.close(fig)


def _nothing_to_plot(path: str, why: str) -> None:
    """Say plainly that there is nothing to draw (no file is written)."""
    print(_one_line(f"note: --plot {path} not written: nothing to plot ({why})"), file=sys.stderr)


def _workers_text(args: argparse.Namespace) -> str:
    """Where ``simulate`` runs: ``2 workers (every core)``, ``1 worker``, or a Dask cluster."""
    if args.scheduler:
        return f"on the Dask cluster {args.scheduler}"
    count = args.workers if args.workers is not None else os.cpu_count() or 1
    return f"{count} worker{'s' if count > 1 else ''}{' (every core)' if args.workers is None else ''}"


def _print_simulation(result: Any, rules: RuleSet, workers: str, implementation: str) -> None:
    """The table of ``simulate``: a header naming the run, each bet's return per unit staked
    (simulated, its 95% interval, exact), the house edge and z, and what they mean."""
    rate = result.rounds / result.seconds if result.seconds else float("nan")
    note = " (INTERRUPTED: partial result)" if result.interrupted else ""
    print(f"rules: {rules.name}, {result.rounds:,} rounds in {result.seconds:.2f} s "
          f"({rate / 1e6:.2f} M rounds/s), seed {result.seed}; {workers}, implementation {implementation}{note}")
    header = ("bet", "simulated", "95% interval", "exact", "1 - exact", "z")
    rows = []
    for b in result.bets.values():
        edge = "" if b.exact is None else f"{round(100 * (1 - b.exact), 4) + 0.0:.4f}%"  # + 0.0: never -0
        rows.append((b.bet, f"{b.rtp:.6f}", f"{b.ci95[0]:.6f} .. {b.ci95[1]:.6f}",
                     "" if b.exact is None else f"{b.exact:.6f}", edge, "" if b.z is None else f"{b.z:+.2f}"))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    group, edge_title = "return per unit staked (RTP)", "house edge"
    span = widths[1] + widths[2] + widths[3] + 4  # the RTP columns, with the two spaces between them
    if len(group) > span:
        widths[2] += len(group) - span
        span = len(group)
    widths[4] = max(widths[4], len(edge_title))
    print(" " * widths[0] + "  " + group.center(span) + "  " + edge_title.rjust(widths[4]))
    for row in [header, *rows]:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    print("RTP = returned / staked, the stake included (a carried stake counts as returned); house edge = 1 - RTP")
    print("z = (simulated - exact) / standard error; by chance |z| > 2 for about 1 bet in 20, > 3 for 1 in 370")


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .simulation import simulate, simulate_sessions

    rules = _rules(args)
    if args.plot:
        _plot_target(args.plot)  # the extra and the file's folder are checked before any work
    bets = _bets(args.bet)
    client = None
    executor = None
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise ValueError("--scheduler needs Dask: pip install 'sanggong[distributed]'") from None
        client = Client(args.scheduler)  # type: ignore[no-untyped-call]
        executor = client.get_executor()  # type: ignore[no-untyped-call]
    try:
        if args.sessions:
            if not bets or args.bankroll is None or args.session_rounds is None:
                raise ValueError("--sessions needs --bet NAME=STAKE, --bankroll and --session-rounds")
            sessions = simulate_sessions(rules, bets, args.bankroll, args.session_rounds, args.sessions,  # type: ignore[arg-type]
                                         args.seed, args.workers, executor, partial_on_interrupt=True)
            if args.json:
                print(_json(sessions.to_dict()))
            else:
                data = sessions.to_dict()
                note = " (INTERRUPTED: the sessions finished so far)" if sessions.interrupted else ""
                print(f"rules: {rules.name}, {data['sessions']:,} sessions of {data['rounds']:,} rounds, "
                      f"bankroll {data['bankroll']:,}, slip {data['slip']}, seed {data['seed']}; "
                      f"{_workers_text(args)}, implementation {_impl.kernels.IMPLEMENTATION}{note}")
                if data["sessions"]:
                    print(f"risk of ruin {100 * data['risk_of_ruin']:.2f}%, mean final bankroll {data['mean_final']:,.1f}")
                    print("final bankroll quantiles: " + ", ".join(f"{k} {v:,}" for k, v in data["quantiles"].items()))
            if args.plot:
                _plot_sessions(args.plot, sessions, f"{rules.name}: final bankrolls")
            return 130 if sessions.interrupted else 0
        bar = _progress_bar(args.rounds, quiet=args.json)
        try:
            result = simulate(rules, args.rounds, bets or None, args.seed, args.workers, executor,
                              bar.update if bar else None, chunk_size=args.chunk, partial_on_interrupt=True)
        finally:
            if bar:
                bar.close()
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]
    if args.json:
        print(_json(result.to_dict()))
    else:
        _print_simulation(result, rules, _workers_text(args), result.versions.get("implementation", "unknown"))
    if args.plot:
        _plot_convergence(args.plot, result, f"{rules.name}: return as rounds accumulate")
    return 130 if result.interrupted else 0


_RANGE = re.compile(r"\s*(-?\d{1,12}(?:\.\d{1,12})?)(%?)\s*(?:-|\.\.|,)\s*(-?\d{1,12}(?:\.\d{1,12})?)(%?)\s*")


def _range(what: str, text: str) -> tuple[Fraction, Fraction]:
    """``LOW-HIGH`` (also ``LOW..HIGH``, ``LOW,HIGH``; ``2%-6%`` in percent) as Fractions."""
    match = _RANGE.fullmatch(text)
    if match is None:
        raise ValueError(f"{what} {text[:40]!r}: expected LOW-HIGH, e.g. 0.02-0.06 or 2%-6%")
    low, high = (Fraction(match[i]) / (100 if match[i + 1] else 1) for i in (1, 3))
    if low > high:
        raise ValueError(f"{what} {text[:40]!r}: the low end is above the high end")
    return low, high


def _tags_file(path: str) -> dict[str, Any]:
    """A tags file: JSON or TOML, rank symbol -> int for every bet, or bet -> such a table."""
    from .limits import MAX_RULE_FILE_BYTES

    with open(path, "rb") as f:
        data = f.read(MAX_RULE_FILE_BYTES + 1)
    if len(data) > MAX_RULE_FILE_BYTES:
        raise ValueError(f"--tags {path}: larger than {MAX_RULE_FILE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
        parsed = loads_strict(text) if text.lstrip().startswith("{") else tomllib.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:  # (TOMLDecodeError and JSONDecodeError are ValueErrors)
        raise ValueError(f"--tags {path}: not JSON or TOML ({exc})") from None
    except RecursionError:
        raise ValueError(f"--tags {path}: nested too deeply to be a tags file") from None
    if not isinstance(parsed, dict):
        raise ValueError(f"--tags {path}: expected a table of rank -> tag (or bet -> table)")
    return parsed


def _plot_counts(path: str, result: Any, title: str) -> None:
    lines = []
    for b in result.bets.values():
        if b.count is None:
            continue
        points = [((lo if lo is not None else hi - 0.5) + (hi if hi is not None else lo + 0.5)) / 2
                  for lo, hi in ((row.low, row.high) for row in b.count.table)]
        values = [row.ev if row.ev is not None else row.result for row in b.count.table]
        xs = [x for x, v, row in zip(points, values, b.count.table) if v is not None and row.rounds >= 100]
        ys = [100 * v for x, v, row in zip(points, values, b.count.table) if v is not None and row.rounds >= 100]
        if xs:
            lines.append((b.bet, xs, ys))
    if not lines:
        _nothing_to_plot(path, "no true count was reached in 100 rounds or more by any bet: play more shoes")
        return
    with _figure(path, title) as ax:
        for bet, xs, ys in lines:
            ax.plot(xs, ys, marker=".", label=bet)
        ax.axhline(0, color="black", linewidth=1)
        ax.set_xlabel("true count (its bet's tags)")
        ax.set_ylabel("EV per unit (%)")
        ax.legend(fontsize="small", ncol=2)


def _executor(args: argparse.Namespace) -> tuple[Any, Any]:
    """A Dask client and its executor where ``--scheduler`` names one, else (None, None)."""
    if not getattr(args, "scheduler", None):
        return None, None
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask: pip install 'sanggong[distributed]'") from None
    client = Client(args.scheduler)  # type: ignore[no-untyped-call]
    return client, client.get_executor()  # type: ignore[no-untyped-call]


def _plural(n: int, what: str) -> str:
    return f"{n:,} {what}{'' if n == 1 else 's'}"


def _signed(value: float | None, places: int = 3) -> str:
    return "" if value is None else f"{round(value, places) + 0.0:+.{places}f}"


def _cmd_protect(args: argparse.Namespace) -> int:
    from .shoe import CountPlay, play_shoes

    rules = _rules(args)
    if args.cut:
        low, high = _range("--cut", args.cut)
        if low.denominator != 1 or high.denominator != 1:
            raise ValueError(f"--cut {args.cut}: the cut card's place is a whole number of cards")
        try:
            rules = rules.replace(cut_card_range=(int(low), int(high)))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"--cut {args.cut}: {exc}") from None
    if args.plot:
        _plot_target(args.plot)
        if rules.fresh_deck_each_round:
            raise ValueError(f"--plot {args.plot}: nothing to plot: the {rules.name} table deals every round "
                             f"from a fresh deck{' (--decks 1)' if args.decks == 1 else ''}, so every true "
                             f"count is 0")
    tags = _tags_file(args.tags) if args.tags else None
    bets = [b.strip() for b in args.bets.split(",")] if args.bets else None
    strategies = [s.strip() for s in args.strategy.split(",")]
    if tags is not None and "count" not in strategies:
        raise ValueError(f"--tags {args.tags}: tags are the count's, and --strategy {args.strategy} plays no count")
    chosen: list[Any] = []
    for name in strategies:
        if name == "count":
            chosen.append(CountPlay(tags=tags))
        elif name == "perfect":
            chosen.append("perfect")
        else:
            raise ValueError(f"--strategy: unknown strategy {name[:40]!r}: expected perfect, count or both")
    client, executor = _executor(args)
    try:
        bar = None if args.json else _Bar(args.shoes, unit=" shoes")
        try:
            result = play_shoes(rules, args.shoes, chosen, args.seed, args.workers, executor,
                                bar.update if bar else None, bets=bets, burned_seen=args.burned_seen,
                                bankroll=args.bankroll, partial_on_interrupt=True)
        finally:
            if bar:
                bar.close()
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(_json(result.to_dict()))
    else:
        note = " (INTERRUPTED: partial result)" if result.interrupted else ""
        dealt = ("a fresh deck each round" if rules.fresh_deck_each_round else
                 f"cut card {rules.cut_card_range[0]}-{rules.cut_card_range[1]} from the end")
        print(f"rules: {rules.name}, {_plural(rules.decks, 'deck')}, {_plural(rules.positions, 'position')}, {dealt}; "
              f"{result.shoes:,} shoes, "
              f"{result.rounds:,} rounds in {result.seconds:.1f} s, seed {result.seed}; "
              f"{_workers_text(args)}{note}")
        header = ["bet", "house edge"]
        perfect = any(b.perfect is not None for b in result.bets.values())
        count = any(b.count is not None for b in result.bets.values())
        if perfect:
            header += ["perfect: bets", "advantage", "gain/100"]
        if count:
            header += ["count: from", "bets", "gain/100", "± se", "corr"]  # (± se: of results, where no EVs)
        header.append("beatable")
        rows = []
        for b in result.bets.values():
            row = [b.bet, f"{100 * b.house_edge:.3f}%"]
            if perfect:
                p = b.perfect
                row += ["", "", ""] if p is None else [
                    f"{100 * p.frequency:.2f}%", "" if p.advantage is None else f"{100 * p.advantage:+.3f}%",
                    _signed(p.expected_gain_per_100)]
            if count:
                c = b.count
                by_evs = c is not None and c.expected_gain_per_100 is not None
                row += ["", "", "", "", ""] if c is None else [
                    "never" if c.threshold is None else f"TC {c.threshold:+g}", f"{100 * c.frequency:.2f}%",
                    _signed(c.expected_gain_per_100 if by_evs else c.gain_per_100),
                    "" if by_evs else f"{c.gain_per_100_se:.3f}", "" if c.correlation is None else f"{c.correlation:.2f}"]
            row.append("yes" if b.beatable else "")
            rows.append(row)
        _print_table(header, rows, right=range(1, len(header) - 1))
        print("house edge: fresh shoe, exact. perfect: one unit on each bet whenever its exact EV of the unseen "
              "cards is positive. count: one unit when the bet's true count (its balanced tags per 52 unseen "
              "cards) reaches the threshold that gains most. gain/100: units won per 100 rounds dealt, from the "
              "exact EVs of the rounds bet where perfect information was played alongside, else from the results "
              "(± their standard error); --json has both. corr: the true count's correlation with the exact EV. "
              "beatable: a strategy gains.")
    if args.plot:
        _plot_counts(args.plot, result, f"{rules.name}: EV by true count")
    return 130 if result.interrupted else 0


def _cmd_design(args: argparse.Namespace) -> int:
    from .shoe import design

    rules = _rules(args)
    edge = _range("--edge", args.edge)
    pays = _range("--pays", args.pays) if args.pays else None
    step = Fraction(args.step) if re.fullmatch(r"\d{1,12}(?:\.\d{1,12})?", args.step or "") else None
    if step is None or step <= 0:
        raise ValueError(f"--step {args.step[:40]!r}: expected a positive number, e.g. 0.5")
    options = design(rules, args.bet, edge, step=step, pays=pays, shoes=args.shoes, seed=args.seed,
                     workers=args.workers, limit=args.limit, key=args.key)
    if args.json:
        print(_json({"rules": rules.name, "decks": rules.decks, "bet": args.bet,
                     "edge": [float(edge[0]), float(edge[1])], "step": str(step), "shoes": args.shoes,
                     "seed": args.seed, "options": [o.to_dict() for o in options]}))
        return 0
    print(f"rules: {rules.name}, {_plural(rules.decks, 'deck')}; {args.bet}: pays in steps of {step} with a house edge in "
          f"{100 * float(edge[0]):.2f}%..{100 * float(edge[1]):.2f}%, nearest the middle first")
    if not options:
        print("no pay in that range has such an edge")
        return 0
    header = ["pays (to 1)", "house edge", "perfect: bets", "gain/100"]
    rows = [[", ".join(f"{k} {_odds_text(v)}" for k, v in o.pays.items()), f"{100 * float(o.house_edge):.3f}%",
             "" if o.perfect_frequency is None else f"{100 * o.perfect_frequency:.2f}%",
             _signed(o.perfect_gain_per_100)] for o in options]
    _print_table(header, rows, right=(1, 2, 3))
    print(f"perfect: how often, and how much per 100 rounds, a player who knows the exact EV of the unseen "
          f"cards gains on that pay ({args.shoes:,} shoes, seed {args.seed})")
    return 0


class _Bar:
    def __init__(self, total: int, unit: str = " rounds") -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, disable=None)
        self._last = 0

    def update(self, done: int, total: int) -> None:
        self._bar.update(done - self._last)
        self._last = done

    def close(self) -> None:
        self._bar.close()


def _progress_bar(total: int, quiet: bool) -> _Bar | None:
    return None if quiet else _Bar(total)


# CPU features worth naming for the compiled core, in this order (NumPy's names): x86's SIMD
# levels, ARM's (NEON on 32 bits, ASIMD on 64), and POWER's and IBM Z's vector units.
_CPU_FEATURES = ("SSE2", "SSE41", "SSE42", "AVX", "AVX2", "FMA3", "AVX512F", "NEON", "ASIMD", "SVE", "VSX", "VX")


def _cpu_features() -> list[str] | None:
    """The CPU features of ``_CPU_FEATURES`` this machine has, by NumPy's run-time detection
    (``numpy._core._multiarray_umath.__cpu_features__``; ``numpy.core`` before NumPy 2);
    None where NumPy does not say."""
    for module in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):
        try:
            found = getattr(importlib.import_module(module), "__cpu_features__", None)
        except ImportError:
            continue
        if isinstance(found, Mapping):
            return [name for name in _CPU_FEATURES if found.get(name)]
    return None


def _version_text() -> str:
    """``sanggong --version``: the package, the implementation in use, the CPU."""
    implementation = _impl.kernels.IMPLEMENTATION
    what = {"cython": "the compiled core", "python": "the pure-Python reference"}.get(implementation)
    if what is None:  # an unknown SANGGONG_NO_EXTENSIONS value
        what = _impl.CONFIG_ERROR or "unknown"
    try:
        import numpy

        numpy_version = f", NumPy {numpy.__version__}"
    except ImportError:  # pragma: no cover - a dependency
        numpy_version = ""
    features = _cpu_features()
    shown = "unknown" if features is None else " ".join(features) or "none of " + " ".join(_CPU_FEATURES)
    machine = platform.machine() or "unknown machine"
    from ._about import package_version  # read here: the package metadata costs ~10 ms a start

    return (f"sanggong {package_version()}, implementation {implementation} ({what})\n"
            f"CPU {machine} ({platform.system() or 'unknown system'}), features: {shown} "
            f"(NumPy's run-time detection); Python {platform.python_version()}{numpy_version}")


class _Version(argparse.Action):
    """``--version``: print ``_version_text()`` on standard output and exit 0 (worked out
    only when asked for, unlike argparse's own version action)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        print(_version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sanggong",
        description=("Sam Gong (三公) engine: evaluate and compare hands, settle bets, deal, verify, analyse and "
                     "simulate; list the preset rule sets and the bets of a table."),
    )
    parser.add_argument("--version", action=_Version,
                        help="print the version, the implementation in use (cython or python) and the CPU's features")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    ev = commands.add_parser(
        "eval",
        help="evaluate one three-card hand",
        description=(
            "Print a hand's label, rank and tier under the rule set's ranking (--rules; default: "
            "macau's, points then faces with 3P on top), its points, faces and Pair Plus category."
        ),
        epilog="example: sanggong eval Kh Qs 9d   (or: sanggong eval 'K♥ Q♠ 10d'; under another ranking: "
               "sanggong eval --rules chinese Kh Kd Ks)",
    )
    ev.add_argument("cards", nargs="+", metavar="CARD", help="three cards, e.g. Kh Qs 9d")
    _table_options(ev)
    ev.add_argument("--json", action="store_true", help="print the result as JSON (tier: null outside every tier)")
    ev.set_defaults(run=_cmd_eval)

    co = commands.add_parser(
        "compare",
        help="compare two hands under a rule set's ranking: 1, 0 or -1",
        description=(
            "Print 1 if the first hand beats the second, 0 if they tie, -1 if it loses, under the "
            "ranking of the rule set (--rules; default: macau's, where hands of one class tie, both 3P "
            "for one). Give the two hands as two arguments, or six cards."
        ),
        epilog='example: sanggong compare --rules chinese "Kh Kd Ks" "Qh Qd Qs"   (prints 1: K-K-K is the higher 大三公)',
    )
    co.add_argument("hands", nargs="+", metavar="HAND", help='the two hands, e.g. "Kh Kd Ks" "Qh Qd Qs"')
    _table_options(co)
    co.add_argument("--json", action="store_true",
                    help='print {"result", "a", "b", "rules"} as JSON: the result and both hands as eval shows them')
    co.set_defaults(run=_cmd_compare)

    st = commands.add_parser(
        "settle",
        help="settle a bet slip on one round's hands",
        description=(
            "Settle bets on a round. Stakes are integers in the minor unit (100 = 1.00) "
            "or decimals (1.00); amounts are exact. A banker game (--rules chinese) settles "
            "player:N bets, each --hand N against the banker's: the loser pays the stake times the "
            "winner's multiplier, so a player's returned amount is negative when a loss costs more "
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
    )
    _table_options(st)
    st.add_argument("--banker", metavar="CARDS", help='the banker\'s hand, e.g. "Kh Qs 9d" (required; at a Dragon/Phoenix table, the Phoenix hand)')
    st.add_argument("--hand", action="append", default=[], metavar="POS=CARDS",
                    help="a position's (a banker game: a player's) hand; repeat")
    st.add_argument("--dragon", metavar="CARDS", help="a Dragon/Phoenix table (--rules san_gong): the Dragon hand")
    st.add_argument("--phoenix", metavar="CARDS",
                    help="a Dragon/Phoenix table: the Phoenix hand (it sits where the banker's does: --banker too)")
    st.add_argument("--cards", metavar="CARDS",
                    help="instead of the hands: the round's cards in the order they came out of the shoe, burns "
                         "and head card included; the dealing procedure assigns them (which is how cards dealt "
                         "to the wrong place are put right)")
    st.add_argument("--void", action="store_true",
                    help="the round is void (a misdeal that could not be put right): every stake is returned; "
                         "--cards, if given, are the cards that came out before it was abandoned")
    st.add_argument("--bet", action="append", default=[], metavar="BET=STAKE", help="a bet and its stake; repeat")
    st.add_argument("--json", action="store_true", help="print the settlement as JSON")
    st.set_defaults(run=_cmd_settle)

    de = commands.add_parser(
        "deal",
        help="shuffle and deal rounds as the rules prescribe",
        description="Deal rounds from a seeded shoe and print each hand and who won.",
        epilog="example: sanggong deal --rules macau --decks 8 --positions 5 --rounds 3 --seed 7",
    )
    _table_options(de, "decks", "positions")
    de.add_argument("--rounds", type=_count(MAX_DEAL_ROUNDS), default=1,
                    help=f"rounds to deal (default 1, at most {MAX_DEAL_ROUNDS:,})")
    de.add_argument("--seed", type=_seed, help="seed (default: fresh entropy, printed so it can be replayed)")
    de.add_argument("--key-file", metavar="FILE", help="sign each record with the operator key in FILE (HMAC-SHA256)")
    de.add_argument("--json", action="store_true",
                    help="print the round records as JSON Lines (one per line, hash-chained: a log for `sanggong verify`)")
    de.set_defaults(run=_cmd_deal)

    an = commands.add_parser(
        "analyze",
        help="exact probabilities, returns and house edges of every bet",
        description="Count every deal of the shoe exactly and print each bet's outcomes and house edge.",
        epilog='example: sanggong analyze --rules macau --decks 1 --remove "Kh Qs 9d 9c"',
    )
    _table_options(an, "decks")
    an.add_argument("--remove", metavar="CARDS", help='analyse the shoe with these cards out, e.g. "Kh Qs 9d"')
    an.add_argument("--eor", action="store_true", help="print the effect of removal of each rank, and count tags")
    an.add_argument("--json", action="store_true", help="print the analysis as JSON")
    an.set_defaults(run=_cmd_analyze)

    ve = commands.add_parser(
        "verify",
        help="verify a log of round records: hash chain, signatures, and every round dealt again",
        description=(
            "Check a JSON Lines log of round records (as `sanggong deal --json` writes it): each "
            "record's hash and its link to the one before, its HMAC under --key-file, the round and "
            "shoe numbers, and each round dealt again from its seed or shoe state and settled again. "
            "Prints one line; exit status 0 when every record holds, 1 naming the first bad record, 3 "
            "naming the first record this implementation cannot check (nothing found wrong). A log is "
            "signed throughout or not at all: signatures that stop part way are a bad record, key or no key."
        ),
        epilog="example: sanggong deal --rules macau --rounds 100 --seed 7 --json > log.jsonl && sanggong verify log.jsonl",
    )
    ve.add_argument("log", metavar="LOG", help="the log: one JSON record per line")
    ve_rules = ve.add_mutually_exclusive_group()
    ve_rules.add_argument("--rules", choices=sorted(PRESETS),
                          help="the preset the log was dealt under (default: the one its records name)")
    ve_rules.add_argument("--rules-file", metavar="FILE", help="the rule set the log was dealt under, in TOML or JSON")
    ve.add_argument("--decks", type=_count(MAX_DECKS), help="the decks the log was dealt with, if not the preset's")
    ve.add_argument("--positions", type=_count(MAX_POSITIONS), help="the positions the log was dealt with, if not the preset's")
    ve.add_argument("--key-file", metavar="FILE", help="the operator key: every record must carry a valid HMAC under it")
    ve.add_argument("--no-replay", action="store_true", help="check the chain and signatures only, without dealing again")
    ve.add_argument("--json", action="store_true", help="print the report as JSON")
    ve.set_defaults(run=_cmd_verify)

    dt = commands.add_parser(
        "detect",
        help="find the players whose stakes follow the shoe (advantage play) in a log",
        description=(
            "Read a log of round records (or several logs of one table) and, for every player, compare "
            "the exact EV of each stake at the moment it was placed (from the cards seen so far in the "
            "shoe) with the same bets' fresh-shoe EV; a one-sided test, valid for stakes that vary, flags "
            "the players whose stakes follow the shoe (Holm-corrected at --alpha over the players). A log "
            "of bets alone reads as one anonymous player per position and one for the table's bets."
        ),
        epilog="example: sanggong detect table.jsonl --alpha 0.001 --plot flagged.png",
    )
    dt.add_argument("logs", nargs="+", metavar="LOG", help="a log: one JSON record per line (several: one table's)")
    dt_rules = dt.add_mutually_exclusive_group()
    dt_rules.add_argument("--rules", choices=sorted(PRESETS), help="the preset (default: the one its records name)")
    dt_rules.add_argument("--rules-file", metavar="FILE", help="the rule set played under, in TOML or JSON")
    dt.add_argument("--alpha", type=float, default=0.001, help="the family-wise error rate of the flags (0.001)")
    dt.add_argument("--burned-seen", action="store_true", help="count burned cards as seen (default: unseen)")
    dt.add_argument("--verify", action="store_true", help="deal every round again as it is read (as verify does)")
    dt.add_argument("--key-file", metavar="FILE", help="the operator key: every record's HMAC is checked")
    dt.add_argument("--workers", type=_count(MAX_THREADS), default=1,
                    help="processes reading several logs at once (default 1)")
    dt.add_argument("--plot", metavar="FILE", help="draw each flagged player's stakes against the EV to FILE")
    dt.add_argument("--json", action="store_true",
                    help='print {"rules", "alpha", "players": [{"id", "rounds", "bets", "units", "mean_ev", '
                         '"baseline_ev", "z", "p_value", "expected_gain_per_100", "flagged"}]}')
    dt.set_defaults(run=_cmd_detect, decks=None, positions=None)

    si = commands.add_parser(
        "simulate",
        help="Monte Carlo: play rounds on every core and compare with the exact values",
        description=(
            "Deal and settle rounds exactly as the rules prescribe, on every core (or a Dask "
            "cluster), and print each bet's return, its 95% interval, the exact value and z. "
            "The same seed gives the same result whatever the workers. Ctrl-C prints the partial result."
        ),
        epilog="example: sanggong simulate --rules online --rounds 100000000 --seed 1",
    )
    _table_options(si, "decks", "positions")
    si.add_argument("--rounds", type=_count(MAX_SIM_ROUNDS), default=1_000_000,
                    help="rounds to play (default 1,000,000; also 1_000_000 or 1e6)")
    si.add_argument("--seed", type=_seed, help="seed (default: fresh entropy, printed)")
    si.add_argument("--workers", type=_count(MAX_THREADS), help="threads (default: every core)")
    si.add_argument("--chunk", type=_count(MAX_SIM_ROUNDS), default=1 << 18, help="rounds per chunk (default 262,144)")
    si.add_argument("--bet", action="append", default=[], metavar="BET=STAKE",
                    help="bet slip (default: every bet, one unit); stakes in minor units")
    si.add_argument("--sessions", type=_count(MAX_SESSIONS), help="session mode: this many sessions of --session-rounds")
    si.add_argument("--session-rounds", type=_count(MAX_SESSION_ROUNDS), help="rounds a session lasts at most")
    si.add_argument("--bankroll", type=_count(MAX_STAKE * MAX_SESSION_ROUNDS),
                    help="session mode: starting bankroll in minor units")
    si.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://host:8786")
    si.add_argument("--plot", metavar="FILE", help="draw the return's convergence (or the sessions) to FILE")
    si.add_argument("--json", action="store_true", help="print the result as JSON (no progress bar)")
    si.set_defaults(run=_cmd_simulate)

    pr = commands.add_parser(
        "protect",
        help="game protection: how often each bet turns positive as a shoe is dealt, and whether a count beats it",
        description=(
            "Deal shoes exactly as the rules prescribe and play two strategies on every bet: perfect "
            "information (bet whenever the exact EV of the unseen cards is positive) and a card count "
            "(each bet's balanced tags from its effect of removal, or --tags). Prints each bet's fresh-shoe "
            "edge, how often each strategy bets, its advantage and gain per 100 rounds, and marks the bets "
            "a player can beat. The same seed gives the same result whatever the workers."
        ),
        epilog="example: sanggong protect --rules macau --shoes 100000 --seed 1",
    )
    _table_options(pr, "decks", "positions")
    pr.add_argument("--shoes", type=_count(MAX_SHOES), default=10_000, help="shoes to play (default 10,000)")
    pr.add_argument("--seed", type=_seed, help="seed (default: fresh entropy, printed)")
    pr.add_argument("--cut", metavar="LO-HI", help="cut card between LO and HI cards from the end (e.g. 30-40)")
    pr.add_argument("--tags", metavar="FILE",
                    help="count tags, JSON or TOML: rank -> int for every bet, or bet -> {rank: int}")
    pr.add_argument("--bets", metavar="BET,BET", help="the bets to play (default: every bet of the table)")
    pr.add_argument("--strategy", default="perfect,count", help="perfect, count, or both (default)")
    pr.add_argument("--burned-seen", action="store_true", help="count burned cards as seen (default: unseen)")
    pr.add_argument("--bankroll", type=_count(10**15), help="units: report each strategy's risk of ruin (--json)")
    pr.add_argument("--workers", type=_count(MAX_THREADS), help="threads (default: every core)")
    pr.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://host:8786")
    pr.add_argument("--plot", metavar="FILE", help="draw each bet's EV by true count to FILE")
    pr.add_argument("--json", action="store_true", help="print the result as JSON (no progress bar)")
    pr.set_defaults(run=_cmd_protect)

    dg = commands.add_parser(
        "design",
        help="pay tables designed to an edge: the pays of a bet whose exact house edge lies in a range",
        description=(
            "List the pays of a bet (odds to 1, in steps of --step) whose exact fresh-shoe house edge lies "
            "in --edge, nearest the middle first, each with what perfect-information play gains on it per "
            "100 rounds: a table both profitable and unbeatable. Pair Plus is designed as a whole table "
            "(pays non-decreasing from pair to straight flush)."
        ),
        epilog="example: sanggong design --rules macau --bet point:0 --edge 0.02-0.06",
    )
    _table_options(dg, "decks", "positions")
    dg.add_argument("--bet", required=True, help="the bet, e.g. point:0 or pair_plus:1")
    dg.add_argument("--edge", required=True, metavar="LOW-HIGH", help="house edge range, e.g. 0.02-0.06 or 2%%-6%%")
    dg.add_argument("--step", default="0.5", help="odds in multiples of this (default 0.5)")
    dg.add_argument("--pays", metavar="LOW-HIGH", help="odds to try (default: 1 step to twice the current)")
    dg.add_argument("--shoes", type=_count(MAX_SHOES), default=1000,
                    help="shoes played for each pay's perfect-information gain (default 1,000)")
    dg.add_argument("--seed", type=_seed, default=1, help="seed of those shoes (default 1)")
    dg.add_argument("--workers", type=_count(MAX_THREADS), help="threads (default: every core)")
    dg.add_argument("--limit", type=_count(10_000), default=50, help="list at most this many (default 50)")
    dg.add_argument("--key", help="a banker game's multiplier to vary (e.g. 9 or face_trips; default the highest)")
    dg.add_argument("--json", action="store_true", help="print the options as JSON")
    dg.set_defaults(run=_cmd_design)

    ru = commands.add_parser(
        "rules",
        help="the preset rule sets: list them, or print one as a rule file to edit",
        description=(
            "List the preset rule sets (rules list), or print one as TOML, exactly as RuleSet.save writes "
            "it (rules show PRESET): save it, edit it, and use it with --rules-file."
        ),
        epilog=("examples: sanggong rules list; "
                "sanggong rules show macau > table.toml && sanggong bets --rules-file table.toml"),
    )
    # --json before the action (rules --json list) or after it (rules list --json): SUPPRESS
    # leaves it unset where not given, so that neither parser's default overwrites the other's
    json_help = "print the result as JSON (also after the action)"
    ru.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help=json_help)
    actions = ru.add_subparsers(dest="rules_command", required=True, metavar="ACTION", parser_class=_Parser)
    rl = actions.add_parser(
        "list",
        help="one line per preset: name, variant, decks, positions and what it is",
        description="List the preset rule sets, one line each: name, variant, decks, positions and a description.",
        epilog="example: sanggong rules list --json",
    )
    rl.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                    help='print {"default", "presets": [{"name", "variant", "decks", "positions", "description"}]}')
    rl.set_defaults(run=_cmd_rules_list)
    rs = actions.add_parser(
        "show",
        help="print a preset as a TOML rule file (what RuleSet.save writes), to edit and use with --rules-file",
        description=(
            "Print a preset rule set as TOML, exactly as RuleSet.save writes a .toml file (with --json, "
            "as it writes a .json file): every field, so that an edited copy works with --rules-file."
        ),
        epilog="example: sanggong rules show online > mine.toml && sanggong analyze --rules-file mine.toml",
    )
    rs.add_argument("preset", metavar="PRESET", choices=sorted(PRESETS),
                    help=f"the preset: {', '.join(sorted(PRESETS))}")
    rs.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                    help="print the rule set as JSON (a .json rule file) instead")
    rs.set_defaults(run=_cmd_rules_show)

    be = commands.add_parser(
        "bets",
        help="every bet of a table: what it wins on and what it pays",
        description=(
            "List every bet a table offers by its name (as --bet takes it), what it wins on and its pays: "
            "odds to 1, the pays with a 6-point hand where the table has them, commission where the bet "
            "pays one, the Pair Plus pays of each category, or a banker game's multipliers and the hands "
            "that set them."
        ),
        epilog="example: sanggong bets --rules online   (or: sanggong bets --rules macau --positions 3 --json)",
    )
    _table_options(be, "decks", "positions")
    be.add_argument("--json", action="store_true",
                    help="print the table and its bets as JSON (odds as ints or \"n/d\", as in a rule file)")
    be.set_defaults(run=_cmd_bets)
    return parser


def _one_line(text: str) -> str:
    """A message as one printable line: runs of white space folded to one space, any
    other character that is not printable (a control character from a bad argument,
    which some terminals and ``str.splitlines`` take for a line break) escaped."""
    text = " ".join(text.split())
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _once(action: type[argparse.Action]) -> type[argparse.Action]:
    """``action`` that refuses to be given twice: ``--rounds 10 --rounds 20`` (or an
    option and its alias) is an error naming the option, never the last one silently."""

    class Once(action):  # type: ignore[valid-type, misc]
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                     option_string: str | None = None) -> None:
            given: set[str] = namespace.__dict__.setdefault("_given_once", set())
            if self.dest in given:
                names = "/".join(self.option_strings) or self.metavar or self.dest
                parser.error(f"{names} is given twice: give it once")
            given.add(self.dest)
            super().__call__(parser, namespace, values, option_string)

    Once.__name__ = f"{action.__name__}Once"
    return Once


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors in one line (``sanggong deal: error: ...``), exit 2, and
    every option that takes one value or sets a flag refused when it is given twice
    (options given again on purpose, ``--bet`` and ``--hand``, are ``append``: their
    commands refuse a bet or a position given twice)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, action in (("store", argparse._StoreAction), (None, argparse._StoreAction),
                             ("store_true", argparse._StoreTrueAction), ("store_false", argparse._StoreFalseAction),
                             ("store_const", argparse._StoreConstAction)):
            self.register("action", name, _once(action))

    def error(self, message: str) -> NoReturn:
        self.exit(2, _one_line(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (it never raises, but for
    ``SystemExit`` from ``--help`` and ``--version``, whose status it returns)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version (0) and usage errors (2, one line)
        return exit_.code if isinstance(exit_.code, int) else 2
    if _impl.CONFIG_ERROR is not None:
        print(_one_line(f"sanggong {args.command}: error: {_impl.CONFIG_ERROR}"), file=sys.stderr)
        return 2
    try:
        with warnings.catch_warnings():  # a dependency's warning (matplotlib, Dask) never reaches the
            warnings.simplefilter("ignore")  # terminal around the one line a command prints; sanggong's do
            warnings.filterwarnings("default", module=r"sanggong(\.|$)")
            status: int = args.run(args)
    except BrokenPipeError:  # e.g. `sanggong analyze | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(f"sanggong {args.command}: interrupted", file=sys.stderr)
        return 130
    except (ValueError, TypeError, OSError, ArithmeticError, RecursionError, MemoryError) as exc:
        # bad input of any kind (a decimal or overflow error is the input's too): one line
        print(_one_line(f"sanggong {args.command}: error: {exc}" if str(exc) else
                        f"sanggong {args.command}: error: {type(exc).__name__}"), file=sys.stderr)
        return 2
    return status
