"""``protect`` and ``design``: shoes played with perfect information and a count, and pay
tables designed to an edge."""

from __future__ import annotations

import argparse
import re
from fractions import Fraction
from typing import Any

from .. import plot as figures
from .._canonical import loads_strict
from .._presentation import odds_text, pay_text
from .._text import did_you_mean
from ..limits import MAX_RULE_FILE_BYTES, MAX_SHOES
from ..rules import RuleSet
from ._options import (
    STDIN,
    burned_seen,
    count,
    dask_executor,
    json_flag,
    own_options,
    plot,
    read_stdin,
    rules_of,
    scheduler,
    seed,
    table,
    workers,
    workers_text,
)
from ._output import (
    Bar,
    draw,
    json_text,
    nothing_to_plot,
    plot_target,
    plural,
    print_sheet,
    print_text,
    same_figures,
    same_figures_note,
)
from ._parser import Commands

MIN_GAIN = "0.05"
"""``protect``'s default ``--min-gain``: a bet on which no strategy gains this many units per
100 rounds is not worth a table's attention (Macau's Point 0 gains about 1.1)."""

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


def _tags_file(path: str, args: argparse.Namespace) -> dict[str, Any]:
    """A tags file (``-``: standard input): JSON or TOML, rank symbol -> int for every bet,
    or bet -> such a table."""
    if path == STDIN:
        data = read_stdin(args, "--tags", MAX_RULE_FILE_BYTES)
    else:
        with open(path, "rb") as f:
            data = f.read(MAX_RULE_FILE_BYTES + 1)
    if len(data) > MAX_RULE_FILE_BYTES:
        raise ValueError(f"--tags {path}: larger than {MAX_RULE_FILE_BYTES:,} bytes")
    import tomllib  # (here: the other commands start without it)

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


def _signed(value: float | None, places: int = 3) -> str:
    return "" if value is None else f"{round(value, places) + 0.0:+.{places}f}"


_DECIMAL = re.compile(r"\d{1,12}(?:\.\d{1,12})?")


def _decimal(option: str, text: str | None, example: str, *, zero: bool = False) -> Fraction:
    """A positive decimal number (``zero``: or 0) given to ``option``, exactly."""
    value = Fraction(text) if text is not None and _DECIMAL.fullmatch(text) else None
    if value is None or value < 0 or (value == 0 and not zero):
        said = "a number, 0 or more" if zero else "a positive number"
        raise ValueError(f"{option} {str(text)[:40]!r}: expected {said}, e.g. {example}")
    return value


def _drop_empty(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The columns with something in them (a column no row fills says nothing)."""
    keep = [i for i in range(len(header)) if i == 0 or any(row[i] for row in rows)]
    return [header[i] for i in keep], [[row[i] for i in keep] for row in rows]


def _protection_rows(result: Any) -> tuple[list[str], list[tuple[Any, list[str], list[Any]]]]:
    """The header of ``protect``'s table, and each bet's row: (the bet, its cells after the
    name, the figures they show, as values: what rows are merged on)."""
    perfect = any(b.perfect is not None for b in result.bets.values())
    counted = any(b.count is not None for b in result.bets.values())
    header = ["bet", "house edge"]
    if perfect:
        header += ["perfect: bets", "advantage", "gain/100"]
    if counted:
        header += ["count: from", "bets", "gain/100", "± se", "corr"]
    out = []
    for b in result.bets.values():
        figures: list[Any] = [b.ev]
        cells = [f"{100 * b.house_edge:.3f}%"]
        if perfect:
            p = b.perfect
            figures.append(None if p is None else (p.frequency, p.advantage, p.expected_gain_per_100))
            cells += ["", "", ""] if p is None else [
                f"{100 * p.frequency:.2f}%", "" if p.advantage is None else f"{100 * p.advantage:+.3f}%",
                _signed(p.expected_gain_per_100)]
        if counted:
            c = b.count
            # the gain from the exact EVs of the rounds bet where perfect information was played
            # alongside (its error is far smaller, and not what ± se measures), else from the results
            by_evs = c is not None and c.expected_gain_per_100 is not None
            gain = None if c is None else c.expected_gain_per_100 if by_evs else c.gain_per_100
            se = None if c is None or by_evs else c.gain_per_100_se
            figures.append(None if c is None else (c.threshold, c.frequency, gain, se, c.correlation))
            cells += ["", "", "", "", ""] if c is None else [
                "never" if c.threshold is None else f"TC {c.threshold:+g}", f"{100 * c.frequency:.2f}%",
                _signed(gain), "" if se is None else f"{se:.3f}",
                "" if c.correlation is None else f"{c.correlation:.2f}"]
        out.append((b, cells, figures))
    return header, out


def _ranked(result: Any, min_gain: Fraction) -> tuple[list[tuple[str, list[int]]], list[tuple[str, list[int]]]]:
    """The bets of a ``PlayResult`` as ``protect`` lists them: bets of a kind whose figures
    are the same on one line (``same_figures``, as ``analyze`` has them), most gained first
    (``BetPlay.gain_per_100``); those a strategy gains at least ``min_gain`` units per 100
    rounds on, and the others. Each: (the name shown, the indices of the bets it stands for)."""
    bets = list(result.bets.values())
    _, rows = _protection_rows(result)
    groups = same_figures([b.bet for b in bets], [tuple(figures) for _, _, figures in rows])
    groups.sort(key=lambda g: -bets[g[1][0]].gain_per_100)  # (stable: the table's order among equals)
    material = [(name, g) for name, g in groups if bets[g[0]].gain_per_100 >= min_gain]
    rest = [(name, g) for name, g in groups if bets[g[0]].gain_per_100 < min_gain]
    return material, sorted(rest, key=lambda item: item[1][0])  # (the others in the table's order)


def _print_protection(result: Any, rules: RuleSet, where: str, min_gain: Fraction) -> None:
    """The table of ``protect``: a header naming the run, then the bets a strategy gains at
    least ``min_gain`` units per 100 rounds on, most first, each with its fresh-shoe edge and
    what perfect information and the count gain on it; the others named on one line; what
    the columns mean."""
    note = " (INTERRUPTED: partial result)" if result.interrupted else ""
    dealt = ("a fresh deck each round" if rules.fresh_deck_each_round else
             f"cut card {rules.cut_card_range[0]}-{rules.cut_card_range[1]} from the end")
    print_text(f"rules: {rules.name}, {plural(rules.decks, 'deck')}, {plural(rules.positions, 'position')}, {dealt}; "
               f"{result.shoes:,} shoes, "
               f"{result.rounds:,} rounds in {result.seconds:.1f} s, seed {result.seed}; "
               f"{where}{note}")
    header, rows = _protection_rows(result)
    names = [b.bet for b, _, _ in rows]
    material, rest = _ranked(result, min_gain)
    least = f"{odds_text(min_gain)} units per 100 rounds"
    counted = sum(len(g) for _, g in material)
    if not material:
        print_text(f"No strategy gains {least} or more on any of the {plural(len(names), 'bet')} played (--min-gain).")
    else:
        print_text(f"Material: {counted} of {plural(len(names), 'bet')}, on which a strategy gains at least {least} "
                   f"(--min-gain), the most first:")
        header, cells = _drop_empty(header, [[name, *rows[g[0]][1]] for name, g in material])
        print_sheet(header, cells, right=range(1, len(header)))
    if rest:
        print_text(f"Not material (a strategy gains less than {least}; --min-gain 0 lists "
                   f"{'them' if len(rest) > 1 else 'it'}): {', '.join(name for name, _ in rest)}.")
    if material:
        same_figures_note(names, material)
        print_text("house edge: fresh shoe, exact. perfect: one unit on each bet whenever its exact EV of the unseen "
                   "cards is positive. count: one unit when the bet's true count (its balanced tags per 52 unseen "
                   "cards) reaches the threshold that gains most. gain/100: units won per 100 rounds dealt, "
                   + ("from the results, ± their standard error" if "± se" in header else
                      "from the exact EVs of the rounds bet (--json has the results' too)")
                   + ". corr: the true count's correlation with the exact EV.")


def _cmd_protect(args: argparse.Namespace) -> int:
    from ..shoe import CountPlay, play_shoes

    rules = rules_of(args)
    min_gain = _decimal("--min-gain", args.min_gain, "0.05", zero=True)
    if args.cut:
        low, high = _range("--cut", args.cut)
        if low.denominator != 1 or high.denominator != 1:
            raise ValueError(f"--cut {args.cut}: the cut card's place is a whole number of cards")
        try:
            rules = rules.replace(cut_card_range=(int(low), int(high)))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"--cut {args.cut}: {exc}") from None
    if args.plot:
        plot_target(args.plot)
        if rules.fresh_deck_each_round:
            raise ValueError(f"--plot {args.plot}: nothing to plot: the {rules.name} table deals every round "
                             f"from a fresh deck{' (--decks 1)' if args.decks == 1 else ''}, so every true "
                             f"count is 0")
    tags = _tags_file(args.tags, args) if args.tags else None
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
            raise ValueError(f"--strategy: unknown strategy {name[:40]!r}{did_you_mean(name, ('perfect', 'count'))}: "
                             f"expected perfect, count or both")
    client, executor = dask_executor(args)
    try:
        with Bar(args.shoes, unit=" shoes", show=not args.json) as bar:
            result = play_shoes(rules, args.shoes, chosen, seed=args.seed, workers=args.workers, executor=executor,
                                progress=bar.update, bets=bets, burned_seen=args.burned_seen,
                                bankroll=args.bankroll, partial_on_interrupt=True)
    finally:
        if client is not None:
            client.close()
    material, _ = _ranked(result, min_gain)
    bets = list(result.bets)
    if args.json:  # (and the bets a strategy gains at least --min-gain on, the most gained first)
        print(json_text({**result.to_dict(), "min_gain": float(min_gain),
                         "material": [bets[i] for _, g in material for i in g]}))
    else:
        _print_protection(result, rules, workers_text(args), min_gain)
    if args.plot:
        if material:
            draw(args.plot, figures.ev_by_count, result, bets={bets[g[0]]: name for name, g in material})
        else:
            nothing_to_plot(args.plot, f"no strategy gains {odds_text(min_gain)} units per 100 rounds on any bet; "
                                       f"--min-gain 0 draws every bet")
    return 130 if result.interrupted else 0


def _cmd_design(args: argparse.Namespace) -> int:
    from ..shoe import design, edge_by_pay

    rules = rules_of(args)
    edge = _range("--edge", args.edge)
    pays = _range("--pays", args.pays) if args.pays else None
    step = _decimal("--step", args.step, "0.5")
    if args.plot:
        plot_target(args.plot)  # the extra and the file's folder are checked before any work
    with Bar(unit=" shoes", show=not args.json) as bar:
        options = design(rules, args.bet, edge, step=step, pays=pays, shoes=args.shoes, seed=args.seed,
                         workers=args.workers, limit=args.limit, key=args.key, progress=bar.update)
    if args.plot:  # the edge over every pay tried (Pair Plus, a whole table of pays, has no such line)
        line = (None if rules.bet(args.bet).kind == "pair_plus" else
                edge_by_pay(rules, args.bet, step=step, pays=pays, key=args.key))
        draw(args.plot, figures.pay_options, options, edge=(float(edge[0]), float(edge[1])), line=line)
    if args.json:
        print(json_text({"rules": rules.name, "decks": rules.decks, "bet": args.bet,
                         "edge": [float(edge[0]), float(edge[1])], "step": str(step), "shoes": args.shoes,
                         "seed": args.seed, "options": [o.to_dict() for o in options]}))
        return 0
    print_text(f"rules: {rules.name}, {plural(rules.decks, 'deck')}; {args.bet}: pays in steps of {odds_text(step)} with a "
               f"house edge in {100 * float(edge[0]):.2f}%..{100 * float(edge[1]):.2f}%, nearest the middle first")
    if not options:
        print("no pay in that range has such an edge")
        return 0
    header = ["pays", "house edge", "perfect: bets", "gain/100"]
    rows = [[", ".join(f"{k.replace('_', ' ')} {pay_text(v)}" for k, v in o.pays.items()), f"{100 * float(o.house_edge):.3f}%",
             "" if o.perfect_frequency is None else f"{100 * o.perfect_frequency:.2f}%",
             _signed(o.perfect_gain_per_100)] for o in options]
    print_sheet(header, rows, right=(1, 2, 3), wrap=(0,))
    print_text(f"perfect: how often, and how much per 100 rounds, a player who knows the exact EV of the unseen "
          f"cards gains on that pay ({args.shoes:,} shoes, seed {args.seed})")
    return 0


def add_protect(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--shoes", type=count(MAX_SHOES), default=10_000, help="shoes to play (default 10,000)")
    own.add_argument("--cut", metavar="LO-HI", help="cut card between LO and HI cards from the end (e.g. 30-40)")
    own.add_argument("--tags", metavar="FILE",
                     help="count tags, JSON or TOML: rank -> int for every bet, or bet -> {rank: int} "
                          "(-: read standard input)")
    own.add_argument("--bets", metavar="BET,BET", help="the bets to play (default: every bet of the table)")
    own.add_argument("--strategy", default="perfect,count", help="perfect, count, or both (default)")
    own.add_argument("--bankroll", type=count(10**15), help="units: report each strategy's risk of ruin (--json)")
    own.add_argument("--min-gain", default=str(MIN_GAIN), metavar="UNITS",
                     help=f"list the bets a strategy gains at least this on, in units per 100 rounds "
                          f"(default {MIN_GAIN}; 0: every bet); the others are named on one line")
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
        parents=[table("decks", "positions"), own, burned_seen(), seed(), workers(), scheduler(),
                 plot("draw each bet's EV by true count to FILE"),
                 json_flag("print the result as JSON (no progress bar)")],
    )
    pr.set_defaults(run=_cmd_protect)


def add_design(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--bet", required=True, help="the bet, e.g. point:0 or pair_plus:1")
    own.add_argument("--edge", required=True, metavar="LOW-HIGH", help="house edge range, e.g. 0.02-0.06 or 2%%-6%%")
    own.add_argument("--step", default="0.5", help="odds in multiples of this (default 0.5)")
    own.add_argument("--pays", metavar="LOW-HIGH", help="odds to try (default: 1 step to twice the current)")
    own.add_argument("--shoes", type=count(MAX_SHOES), default=1000,
                     help="shoes played for each pay's perfect-information gain (default 1,000)")
    own.add_argument("--limit", type=count(10_000), default=50, help="list at most this many (default 50)")
    own.add_argument("--key", help="a banker game's multiplier to vary (e.g. 9 or face_trips; default the highest)")
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
        parents=[table("decks", "positions"), own, seed("seed of those shoes (default 1)", default=1), workers(),
                 plot("draw each pay's house edge, and perfect play's gain, against the target range to FILE"),
                 json_flag("print the options as JSON (no progress bar)")],
    )
    dg.set_defaults(run=_cmd_design)
