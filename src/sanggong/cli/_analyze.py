"""``analyze``: every bet's outcomes counted exactly, or each rank's effect of removal."""

from __future__ import annotations

import argparse

from .._presentation import pay_text
from ._options import json_flag, own_options, rules_of, table, text_or_stdin
from ._output import Bar, json_text, plural, print_sheet, print_text, same_figures, same_figures_note
from ._parser import Commands


def _cmd_analyze(args: argparse.Namespace) -> int:
    from ..analysis import analyze, composition, effect_of_removal  # (here: the other commands start without it)

    rules = rules_of(args)
    if args.eor:
        with Bar(unit=" ranks", show=not args.json) as bar:
            removal = effect_of_removal(rules, progress=bar.update)
        if args.json:
            print(json_text({"rules": rules.name, "decks": rules.decks, "effect_of_removal": [
                {"bet": r.bet, "ev": r.ev, "eor": r.eor, "tags": r.tags, "correlation": r.correlation}
                for r in removal.values()]}))
            return 0
        ranks = list(next(iter(removal.values())).eor)
        print_text(f"rules: {rules.name}, {plural(rules.decks, 'deck')}: change in return (%) when one card of a rank "
                   f"leaves")
        shown = same_figures(list(removal), [(tuple(r.eor.values()), tuple(r.tags.values())) for r in removal.values()])
        removals = list(removal.values())
        eor_rows = [[name, *(f"{100 * removals[g[0]].eor[k]:.4f}" for k in ranks),
                 " ".join(f"{removals[g[0]].tags[k]:+d}" for k in ranks), f"{removals[g[0]].correlation:.2f}"]
                for name, g in shown]
        print_sheet(["bet", *ranks, "tags", "corr"], eor_rows, right=range(1, len(ranks) + 1))
        print_text("tags: a balanced count's, from the effects; corr: their correlation with the effects.")
        same_figures_note(list(removal), shown)
        return 0
    args.remove = text_or_stdin(args, "--remove", args.remove)
    shoe = composition(rules.decks, args.remove) if args.remove else None
    result = analyze(rules, shoe)
    if args.json:
        print(json_text(result.to_dict()))
        return 0
    removed = f", less {' '.join(args.remove.split())}" if args.remove else ""
    print_text(f"rules: {rules.name}, {plural(rules.decks, 'deck')}, {result.cards:,} cards{removed}")
    # "net": what one unit staked gains (won less commission) or loses on that outcome; not
    # the simulation's return per unit staked (RTP), which counts the stake given back too
    header = ("bet", "outcome", "combinations", "probability", "pays", "net per unit")
    bets = list(result.bets.values())
    figures = [tuple((o.outcome, o.detail, o.combinations, o.pays, o.net) for o in b.outcomes) for b in bets]
    rows = []
    shown = same_figures([b.bet for b in bets], figures)
    for name, group in shown:
        bet = bets[group[0]]
        for k, line in enumerate(bet.outcomes):
            outcome = line.outcome + (f" ({line.detail})" if line.detail else "")
            # a banker game's loss costs the winner's multiplier (its detail): it pays nothing
            pays = "" if line.pays is None or line.net < 0 else pay_text(line.pays)
            rows.append((name if k == 0 else "", outcome, f"{line.combinations:,}",
                         f"{line.probability:.8f}", pays, f"{float(line.net):+.4f}"))
        edge = 100 * bet.house_edge + 0.0  # + 0.0: an even game's edge is 0, never -0
        rows.append(("", f"house edge {edge:.4f}%", "", "", "sd", f"{bet.sd:.4f}"))
    print_sheet(header, rows, right=(2, 3, 4, 5), wrap=(1,))
    same_figures_note([b.bet for b in bets], shown)
    return 0


def add_analyze(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--remove", metavar="CARDS",
                     help='analyse the shoe with these cards out, e.g. "Kh Qs 9d" (-: read them from standard input)')
    own.add_argument("--eor", action="store_true", help="print the effect of removal of each rank, and count tags")
    an = commands.add_parser(
        "analyze",
        help="exact probabilities, returns and house edges of every bet",
        description="Count every deal of the shoe exactly and print each bet's outcomes and house edge.",
        epilog='example: sanggong analyze --rules macau --decks 1 --remove "Kh Qs 9d 9c"',
        parents=[table("decks"), own, json_flag("print the analysis as JSON")],
    )
    an.set_defaults(run=_cmd_analyze)
