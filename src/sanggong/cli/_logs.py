"""``deal``, ``verify`` and ``detect``: the log of round records, written, checked, and read
for players whose stakes follow the shoe."""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import Any

from ..dealing import Game, RoundRecord, first_hand
from ..limits import MAX_DEAL_ROUNDS
from ..records import check_hash
from ..rules import RuleSet
from ._options import (
    burned_seen,
    count,
    json_flag,
    key_file,
    own_options,
    plot,
    read_key,
    rules_of,
    seed,
    table,
    workers,
)
from ._output import json_text, nothing_to_plot, one_line, plot_target, plural, print_table, table_text
from ._parser import Commands


def _print_round(record: RoundRecord, rules: RuleSet) -> None:
    head = ""
    if record.head_card is not None:
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


def _cmd_deal(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    game = Game(rules, args.seed, recall=0, key=read_key(args.key_file, args))
    if not args.json:
        print(f"rules: {rules.name}, {plural(rules.decks, 'deck')}, {table_text(rules)}, seed {game.seed}")
    if args.json:  # streamed: each round's line as it is dealt (written a shoe at a time in the core)
        sys.stdout.writelines(f"{line}\n" for line in game.lines(args.rounds))
    else:
        for _ in range(args.rounds):
            _print_round(game.play(), rules)
    if args.json:  # the log's last line: its seal (a log cut short then verifies "not sealed")
        print(game.close().to_json())
    return 0


VERIFY_STATUS = {"ok": 0, "bad": 1, "unchecked": 3}
"""``sanggong verify``'s exit status by the report's ``status``: 0 every record checked and
good, 1 a finding about the log (a bad record: changed, moved, removed, not a record; a
record after the seal; with --require-seal a log without its seal; with --expect-last a
last hash that is not the one given), 3 a record this implementation cannot check
(nothing found wrong); 2 is the command line's own (bad usage or input: an unreadable
log or key file, a malformed --expect-last)."""


def _hash_arg(text: str) -> str:
    """An argparse type: a record's hash (``records.check_hash``), named as --expect-last."""
    try:
        return check_hash(text, "--expect-last")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--expect-last ")) from None


def _cmd_verify(args: argparse.Namespace) -> int:
    from ..verify import verify_log

    named = args.rules or args.rules_file or args.decks or args.positions
    if named and not (args.rules or args.rules_file):
        raise ValueError("--decks and --positions change a rule set: name it with --rules or --rules-file")
    rules = rules_of(args) if named else None  # None: the preset the records name
    key = read_key(args.key_file, args)
    bar = _bar()
    try:
        report = verify_log(_log_arg(args.log), rules=rules, key=key, replay=not args.no_replay,
                            require_seal=args.require_seal, expect_last=args.expect_last,
                            progress=lambda n: _advance(bar, n))
    finally:
        bar.close()
    if args.json:
        print(json_text({"ok": report.ok, "status": report.status, "records": report.records,
                         "first_bad": report.first_bad, "round": report.round, "reason": report.reason,
                         "replayed": report.replayed, "authenticated": report.authenticated, "signed": report.signed,
                         "void_rounds": report.void_rounds, "reshuffles": report.reshuffles,
                         "sealed": report.sealed, "seal_totals": report.seal_totals, "last_hash": report.last_hash}))
    else:  # (the last hash last: an operator keeps it apart, and gives it as --expect-last)
        print(one_line(str(report) + (f"; last hash {report.last_hash}" if report.last_hash is not None else "")))
    return VERIFY_STATUS[report.status]


def _advance(bar: Any, n: int) -> None:
    bar.update(n)


def _bar(json: bool = False) -> Any:
    """A progress bar of records on standard error, only where it is a terminal."""
    from tqdm import tqdm

    return tqdm(unit=" records", unit_scale=True, file=sys.stderr, disable=None if not json else True)


def _log_arg(log: str) -> Any:
    """A LOG argument: ``-`` is standard input (read as bytes, line by line)."""
    return sys.stdin.buffer if log == "-" else log


def _cmd_detect(args: argparse.Namespace) -> int:
    from ..detection import detect

    named = args.rules or args.rules_file
    rules = rules_of(args) if named else None  # None: the preset the records name
    if args.plot:
        plot_target(args.plot)
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha {args.alpha}: a probability strictly between 0 and 1")
    if "-" in args.logs and len(args.logs) > 1:
        raise ValueError("LOG -: standard input is read alone (give the other logs as files)")
    bar = _bar(args.json)
    try:
        logs = args.logs if len(args.logs) > 1 else _log_arg(args.logs[0])
        found = detect(logs, rules, alpha=args.alpha, burned_seen=args.burned_seen, verify=args.verify,
                       key=read_key(args.key_file, args), workers=args.workers, progress=lambda n: _advance(bar, n))
    finally:
        bar.close()
    if args.json:
        print(json_text(found.to_dict(), ensure_ascii=False))
    else:
        print(f"rules: {found.rules}, {found.records:,} records"
              + (f" ({found.skipped:,} of a shoe begun before the log, not read)" if found.skipped else "")
              + f", {len(found.players)} player{'s' if len(found.players) != 1 else ''}, alpha {found.alpha}")
        header = ["player", "rounds", "bets", "units", "mean EV", "baseline EV", "z", "p-value", "gain/100", "flagged"]
        rows = [[p.id, f"{p.rounds:,}", f"{p.bets:,}", f"{p.units:,.0f}", f"{100 * p.mean_ev:+.3f}%",
                 f"{100 * p.baseline_ev:+.3f}%", "" if p.z is None else f"{p.z:.2f}", f"{p.p_value:.3g}",
                 f"{p.expected_gain_per_100:+.2f}", "FLAGGED" if p.flagged else ""] for p in found.players]
        print_table(header, rows, right=range(1, len(header) - 1))
        print("mean EV: the exact EV per unit of the player's stakes when they were placed; baseline: the same "
              "bets' fresh-shoe EV. z, p-value: a one-sided test that the stakes follow the shoe (Holm-corrected "
              "over the players: flagged).")
    if args.plot:
        if found.flagged:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                found.plot(args.plot)
        else:
            nothing_to_plot(args.plot, "no player is flagged")
    return 0


def add_deal(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--rounds", type=count(MAX_DEAL_ROUNDS), default=1,
                     help=f"rounds to deal (default 1, at most {MAX_DEAL_ROUNDS:,})")
    de = commands.add_parser(
        "deal",
        help="shuffle and deal rounds as the rules prescribe",
        description="Deal rounds from a seeded shoe and print each hand and who won.",
        epilog="example: sanggong deal --rules macau --decks 8 --positions 5 --rounds 3 --seed 7",
        parents=[table("decks", "positions"), own,
                 seed("seed (default: fresh entropy, printed so it can be replayed)"),
                 key_file("sign each record with the operator key in FILE (HMAC-SHA256)"),
                 json_flag("print the round records as JSON Lines (one per line, hash-chained: a log for "
                           "`sanggong verify`), and last the log's seal (its rounds and money totals)")],
    )
    de.set_defaults(run=_cmd_deal)


def add_verify(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--no-replay", action="store_true",
                     help="check the chain and signatures only, without dealing again")
    own.add_argument("--require-seal", action="store_true",
                     help="a log must end with its seal (as `sanggong deal --json` writes it): without one it "
                          "may have lost its last records (exit status 1)")
    own.add_argument("--expect-last", metavar="HASH", type=_hash_arg,
                     help="the hash the log's last record must have (the last hash a report printed, kept "
                          "apart from the log): a log cut short or grown is bad (exit status 1)")
    ve = commands.add_parser(
        "verify",
        help="verify a log of round records: hash chain, signatures, and every round dealt again",
        description=(
            "Check a JSON Lines log of round records (as `sanggong deal --json` writes it): each "
            "record's hash and its link to the one before, its HMAC under --key-file, the round and "
            "shoe numbers, and each round dealt again from its seed or shoe state and settled again. "
            "Prints one line, ending with the log's last hash; exit status 0 when every record holds, 1 "
            "naming the first bad record (or a log not sealed under --require-seal, or whose last hash is "
            "not --expect-last), 3 naming the first record this implementation cannot check (nothing found "
            "wrong), 2 bad usage or input. A log is signed throughout or not at all: signatures that stop "
            "part way are a bad record, key or no key. A chain cannot show that a log's last records were "
            "removed: its seal (the last line `deal --json` writes) or a last hash kept apart can."
        ),
        epilog=("example: sanggong deal --rules macau --rounds 100 --seed 7 --json > log.jsonl && "
                "sanggong verify log.jsonl"),
        parents=[table("decks", "positions",
                       rules="the preset the log was dealt under (default: the one its records name)",
                       rules_file="the rule set the log was dealt under, in TOML or JSON",
                       override="the {name} the log was dealt with, if not the preset's"),
                 own, key_file("the operator key: every record must carry a valid HMAC under it"),
                 json_flag("print the report as JSON")],
    )
    ve.add_argument("log", metavar="LOG", help="the log: one JSON record per line (-: standard input)")
    ve.set_defaults(run=_cmd_verify)


def add_detect(commands: Commands) -> None:
    own = own_options()
    own.add_argument("--alpha", type=float, default=0.001, help="the family-wise error rate of the flags (0.001)")
    own.add_argument("--verify", action="store_true", help="deal every round again as it is read (as verify does)")
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
        parents=[table(rules="the preset (default: the one its records name)",
                       rules_file="the rule set played under, in TOML or JSON"),
                 own, burned_seen(), key_file("the operator key: every record's HMAC is checked"),
                 workers("processes reading several logs at once (default 1)", default=1),
                 plot("draw each flagged player's stakes against the EV to FILE"),
                 json_flag('print {"rules", "alpha", "players": [{"id", "rounds", "bets", "units", "mean_ev", '
                           '"baseline_ev", "z", "p_value", "expected_gain_per_100", "flagged"}]}')],
    )
    dt.add_argument("logs", nargs="+", metavar="LOG",
                    help="a log: one JSON record per line (several: one table's; -: standard input)")
    dt.set_defaults(run=_cmd_detect, decks=None, positions=None)
