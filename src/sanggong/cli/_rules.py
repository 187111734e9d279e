"""``rules`` and ``bets``: what the tables are (the presets, a preset as a rule file, a table's
bets and pays)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from fractions import Fraction

from .._presentation import odds_text, pay_text
from ..rules import PRESETS, RuleSet, preset_description
from ._options import DEFAULT_PRESET, json_flag, rules_of, table
from ._output import json_text, plural, print_sheet, print_text, table_text
from ._parser import Commands, Parser

_TIER_TEXT = {
    "three_threes": "three_threes (3-3-3)",
    "face_trips": "face_trips (J-J-J, Q-Q-Q, K-K-K)",
    "trips": "trips (three of a kind)",
    "three_faces": "three_faces (three face cards)",
}


def _cmd_rules_list(args: argparse.Namespace) -> int:
    presets = [{"name": name, "variant": rules.variant, "decks": rules.decks, "positions": rules.positions,
                "description": preset_description(name)} for name, rules in PRESETS.items()]
    if getattr(args, "json", False):  # --json is left unset where not given (see add_rules)
        print(json_text({"default": DEFAULT_PRESET, "presets": presets}, ensure_ascii=False))
        return 0
    rows = [[str(p[k]) for k in ("name", "variant", "decks", "positions", "description")] for p in presets]
    print_sheet(("preset", "variant", "decks", "positions", "description"), rows, right=(2, 3), wrap=(4,))
    return 0


def _cmd_rules_show(args: argparse.Namespace) -> int:
    rules = PRESETS[args.preset]
    # exactly what RuleSet.save writes to a .json or a .toml file
    print(rules.to_json() if getattr(args, "json", False) else rules.to_toml(), end="")  # (--json: unset where
    return 0  # not given, see add_rules)


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
    if rules.multipliers:  # a banker game: by the winning hand's multiplier
        values = rules.multiplier_values
        return f"x{odds_text(values[0])} to x{odds_text(values[-1])} by the winning hand (below)"
    odds, kind = rules.bet_odds(name), rules.bet(name).kind
    if odds is None:
        return "by the hand (below)"
    text = pay_text(odds)
    six = rules.pays.get(f"{kind}_on_six")
    if six is not None:
        text += f" ({pay_text(six)} when the winning hand has 6 points)"
    if kind in rules.commission_bets and rules.commission:
        text += f", less {odds_text(100 * rules.commission)}% commission on the winnings"
    return text


def _cmd_bets(args: argparse.Namespace) -> int:
    rules = rules_of(args)
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
                            if rules.multipliers else None),
            "commission": (_json_odds(rules.commission)
                           if kind in rules.commission_bets and rules.commission else None),
        })
    if args.json:
        print(json_text({"rules": rules.name, "variant": rules.variant, "decks": rules.decks,
                         "positions": rules.positions, "bets": bets}, ensure_ascii=False))
        return 0
    print_text(f"rules: {rules.name} (variant {rules.variant}), {plural(rules.decks, 'deck')}, {table_text(rules)}: "
               f"{len(bets)} bet{'s' if len(bets) > 1 else ''}")
    rows = [(str(b["bet"]), str(b["description"]), _bet_pays(rules, str(b["bet"]))) for b in bets]
    print_sheet(("bet", "wins when", "pays"), rows, wrap=(1, 2))
    if any(b["pair_plus_pays"] for b in bets):
        print_text("Pair Plus pays by the hand's category: " + ", ".join(
            f"{k.replace('_', ' ')} {pay_text(v)}" for k, v in rules.pair_plus_pays.items()))
    if rules.multipliers:
        print_text("multipliers (the winning hand's; the loser pays the stake x it): " + "; ".join(
            f"x{odds_text(v)} {hands}" for v, hands in _multiplier_groups(rules.multipliers)))
    return 0


def add_rules(commands: Commands) -> None:
    # --json before the action (rules --json list) or after it (rules list --json): left
    # unset where not given, so that neither parser's default overwrites the other's
    ru = commands.add_parser(
        "rules",
        help="the preset rule sets: list them, or print one as a rule file to edit",
        description=(
            "List the preset rule sets (rules list), or print one as TOML, exactly as RuleSet.save writes "
            "it (rules show PRESET): save it, edit it, and use it with --rules-file."
        ),
        epilog=("examples: sanggong rules list; "
                "sanggong rules show macau > table.toml && sanggong bets --rules-file table.toml"),
        parents=[json_flag("print the result as JSON (also after the action)", unset_if_absent=True)],
    )
    actions = ru.add_subparsers(dest="rules_command", required=True, metavar="ACTION", parser_class=Parser)
    rl = actions.add_parser(
        "list",
        help="one line per preset: name, variant, decks, positions and what it is",
        description="List the preset rule sets, one line each: name, variant, decks, positions and a description.",
        epilog="example: sanggong rules list --json",
        parents=[json_flag('print {"default", "presets": [{"name", "variant", "decks", "positions", "description"}]}',
                           unset_if_absent=True)],
    )
    rl.set_defaults(run=_cmd_rules_list)
    rs = actions.add_parser(
        "show",
        help="print a preset as a TOML rule file (what RuleSet.save writes), to edit and use with --rules-file",
        description=(
            "Print a preset rule set as TOML, exactly as RuleSet.save writes a .toml file (with --json, "
            "as it writes a .json file): every field, so that an edited copy works with --rules-file."
        ),
        epilog="example: sanggong rules show online > mine.toml && sanggong analyze --rules-file mine.toml",
        parents=[json_flag("print the rule set as JSON (a .json rule file) instead", unset_if_absent=True)],
    )
    rs.add_argument("preset", metavar="PRESET", choices=sorted(PRESETS),
                    help=f"the preset: {', '.join(sorted(PRESETS))}")
    rs.set_defaults(run=_cmd_rules_show)


def add_bets(commands: Commands) -> None:
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
        parents=[table("decks", "positions"),
                 json_flag("print the table and its bets as JSON (odds as ints or \"n/d\", as in a rule file)")],
    )
    be.set_defaults(run=_cmd_bets)
