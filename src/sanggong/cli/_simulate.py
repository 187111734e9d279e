"""``simulate``: rounds (or sessions) played by Monte Carlo on every core, against the exact values."""

from __future__ import annotations

import argparse
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .. import _kernels
from .. import plot as figures
from ..limits import MAX_SESSION_ROUNDS, MAX_SESSIONS, MAX_SIM_ROUNDS
from ..money import Money, exact_decimal
from ..rules import RuleSet
from ._options import (
    amount,
    bet_slip,
    count,
    dask_executor,
    json_flag,
    money_unit,
    own_options,
    plot,
    rules_of,
    scheduler,
    seed,
    slip,
    table,
    workers,
    workers_text,
)
from ._output import Bar, draw, json_text, plot_target, print_text
from ._parser import Commands


def _print_simulation(result: Any, rules: RuleSet, where: str, implementation: str) -> None:
    """The table of ``simulate``: a header naming the run, each bet's return per unit staked
    (simulated, its 95% interval, exact), the house edge and z, and what they mean."""
    rate = result.rounds / result.seconds if result.seconds else float("nan")
    note = " (INTERRUPTED: partial result)" if result.interrupted else ""
    print_text(f"rules: {rules.name}, {result.rounds:,} rounds in {result.seconds:.2f} s "
               f"({rate / 1e6:.2f} M rounds/s), seed {result.seed}; {where}, implementation {implementation}{note}")
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
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    print_text("RTP = returned / staked, the stake included (a carried stake counts as returned); house edge = 1 - RTP")
    print_text("z = (simulated - exact) / standard error; by chance |z| > 2 for about 1 bet in 20, > 3 for 1 in 370")


def _minor_units(what: str, value: Money, rules: RuleSet) -> int:
    """An amount as whole minor units (session mode counts in them): a major-unit amount
    that is not a whole number of the table's minor unit is refused, naming it."""
    if isinstance(value, int):
        return value
    units = Fraction(value) / Fraction(rules.minor_unit)
    if units.denominator != 1:
        raise ValueError(f"{what}: {value} is not a whole number of the minor unit {rules.minor_unit}")
    return int(units)


def _shown(minor: float, unit: str, rules: RuleSet, places: int = 0) -> str:
    """An amount of minor units as the run's unit writes it: ``1,050`` or ``10.50``."""
    if unit == "minor":
        return f"{minor:,.{places}f}"
    exponent = rules.minor_unit.as_tuple().exponent
    digits = max(0, -exponent if isinstance(exponent, int) else 0) + places
    with exact_decimal():
        major = Decimal(minor) * rules.minor_unit if isinstance(minor, int) else Decimal(repr(minor)) * rules.minor_unit
    return f"{major:,.{digits}f}"


def _print_sessions(sessions: Any, rules: RuleSet, where: str, unit: str) -> None:
    """The report of ``simulate --sessions``: a header naming the run and its unit, the risk
    of ruin, the mean final bankroll and its quantiles."""
    data = sessions.to_dict()
    note = " (INTERRUPTED: the sessions finished so far)" if sessions.interrupted else ""
    slip_text = ", ".join(f"{k}={_shown(v, unit, rules)}" for k, v in data["slip"].items())
    print_text(f"rules: {rules.name}, {data['sessions']:,} sessions of {data['rounds']:,} rounds, "
               f"bankroll {_shown(data['bankroll'], unit, rules)}, slip {slip_text} "
               f"({money_unit(unit, rules.minor_unit)}), "
               f"seed {data['seed']}; {where}, implementation {_kernels.kernels.IMPLEMENTATION}{note}")
    if data["sessions"]:
        print(f"risk of ruin {100 * data['risk_of_ruin']:.2f}%, mean final bankroll "
              f"{_shown(data['mean_final'], unit, rules, places=1)}")
        print("final bankroll quantiles: " + ", ".join(f"{k} {_shown(v, unit, rules)}"
                                                     for k, v in data["quantiles"].items()))


def _cmd_simulate(args: argparse.Namespace) -> int:
    from ..simulation import simulate, simulate_sessions

    rules = rules_of(args)
    if args.plot:
        plot_target(args.plot)  # the extra and the file's folder are checked before any work
    bets = slip(args.bet, args.unit)
    if not args.sessions:
        given = [name for name, value in (("--bankroll", args.bankroll), ("--session-rounds", args.session_rounds))
                 if value is not None]
        if given:  # (never read without sessions: refused rather than silently ignored)
            raise ValueError(f"{' and '.join(given)}: an option of session mode, which --sessions N chooses")
    client, executor = dask_executor(args)
    try:
        if args.sessions:
            if not bets or args.bankroll is None or args.session_rounds is None:
                raise ValueError("--sessions needs --bet NAME=STAKE, --bankroll and --session-rounds")
            stakes = {name: _minor_units(f"stake on {name}", stake, rules) for name, stake in bets.items()}
            bankroll = _minor_units("--bankroll", amount("--bankroll", args.bankroll, args.unit), rules)
            with Bar(args.sessions, unit=" sessions", show=not args.json) as bar:
                sessions = simulate_sessions(rules, stakes, bankroll, args.session_rounds, args.sessions,
                                             seed=args.seed, workers=args.workers, executor=executor,
                                             progress=bar.update, partial_on_interrupt=True)
            if args.json:
                print(json_text(sessions.to_dict()))
            else:
                _print_sessions(sessions, rules, workers_text(args), args.unit)
            if args.plot:
                draw(args.plot, figures.bankroll, sessions)
            return 130 if sessions.interrupted else 0
        with Bar(args.rounds, show=not args.json) as rounds_bar:
            result = simulate(rules, args.rounds, bets or None, seed=args.seed, workers=args.workers, executor=executor,
                              progress=rounds_bar.update, chunk_size=args.chunk, partial_on_interrupt=True)
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(json_text(result.to_dict()))
    else:
        _print_simulation(result, rules, workers_text(args), result.versions.get("implementation", "unknown"))
    if args.plot:
        draw(args.plot, figures.convergence, result)
    return 130 if result.interrupted else 0


def add_simulate(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--rounds", type=count(MAX_SIM_ROUNDS), default=1_000_000,
                     help="rounds to play (default 1,000,000; also 1_000_000 or 1e6)")
    own.add_argument("--chunk", type=count(MAX_SIM_ROUNDS), default=1 << 18, help="rounds per chunk (default 262,144)")
    own.add_argument("--sessions", type=count(MAX_SESSIONS),
                     help="session mode: this many sessions of --session-rounds")
    own.add_argument("--session-rounds", type=count(MAX_SESSION_ROUNDS), help="rounds a session lasts at most")
    own.add_argument("--bankroll", metavar="AMOUNT", help="session mode: the starting bankroll (in --unit)")
    si = commands.add_parser(
        "simulate",
        help="Monte Carlo: play rounds on every core and compare with the exact values",
        description=(
            "Deal and settle rounds exactly as the rules prescribe, on every core (or a Dask "
            "cluster), and print each bet's return, its 95% interval, the exact value and z. "
            "The same seed gives the same result whatever the workers. Ctrl-C prints the partial result."
        ),
        epilog="example: sanggong simulate --rules online --rounds 100000000 --seed 1",
        parents=[table("decks", "positions"), own,
                 bet_slip("bet slip (default: every bet, one unit); stakes in --unit"), seed(), workers(),
                 scheduler(), plot("draw the return's convergence (or the sessions) to FILE"),
                 json_flag("print the result as JSON (no progress bar)")],
    )
    si.set_defaults(run=_cmd_simulate)
