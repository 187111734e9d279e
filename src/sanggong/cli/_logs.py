"""``deal``, ``verify`` and ``detect``: the log of round records, written, checked, and read
for players whose stakes follow the shoe."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from .._text import did_you_mean
from ..dealing import Game, RoundRecord, first_hand
from ..limits import MAX_DEAL_ROUNDS
from ..records import check_hash
from ..rules import RuleSet
from ..settlement import Money
from ._options import (
    bet_slip,
    burned_seen,
    count,
    json_flag,
    key_file,
    money_unit,
    own_options,
    player_slips,
    plot,
    read_key,
    rules_of,
    seed,
    slip,
    strategy_of,
    table,
    workers,
)
from ._output import json_text, nothing_to_plot, one_line, plot_target, plural, print_sheet, table_text
from ._parser import Commands
from ._status import VERIFY_STATUS

if TYPE_CHECKING:
    from ..shoe import ShoeEvaluator

T = TypeVar("T")


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
    table = rules.table_variant
    if table.two_hands:  # hand 1 (Dragon) against hand 0 (Phoenix, the banker's place)
        dragon, phoenix = table.position_hand, table.banker_hand
        for name, hand in ((dragon, record.hands[1]), (phoenix, record.banker)):
            print(f"  {name:<7}  {' '.join(map(str, hand.cards))}  {hand.label}")
        print(f"  {f'{dragon} wins' if winners[1] == 'win' else f'{phoenix} wins' if winners[1] == 'lose' else 'tie'}")
        return
    print(f"  banker  {' '.join(map(str, record.banker.cards))}  {record.banker.label}")
    for position, hand in record.hands.items():
        print(f"  {position:<6}  {' '.join(map(str, hand.cards))}  {hand.label:<{width}} {winners[position]}")


class Stakes:
    """The slip of each round ``sanggong deal`` plays: bets alone (``--bet``), or by player
    (``--player``), each player staking as its strategy says (``--strategy``) from what a
    player at the table knows: the hands shown in the shoe so far (burned cards stay
    unseen, as ``detect`` and ``play_shoes`` read them), never the cut card's place.

    A flat player stakes its bets every round. A perfect player (``PerfectPlay``) stakes
    each of its bets when its exact EV of the unseen cards is positive
    (``ShoeEvaluator.positive``). A counter (``CountPlay``) keeps each bet's balanced tags
    (its effect of removal) over the seen cards; its true count is the running count per
    52 unseen cards, and it stakes a bet once from the threshold up, or as many times as
    its spread's units at the largest true count not above the round's. A stake carried
    into a round stays on the table: a bet the strategy stakes less on (or not at all)
    keeps its carried stake.

    :param rules: the table's rules.
    :param bets: ``{bet: stake}`` (bets alone) or ``{player: {bet: stake}}``: each bet's
        stake (a strategy's unit).
    :param strategies: each player's ``PerfectPlay`` or ``CountPlay`` (a player left out
        is flat).
    :param named: the option that named each player (``--player ...``), and each
        strategy (by ``=`` and the player: ``--strategy ...``), for the messages.
    :raises ValueError: a slip or a strategy the table refuses, named (every slip the
        strategies can make is checked before any round is dealt).
    """

    def __init__(self, rules: RuleSet, bets: Mapping[str, Any], strategies: Mapping[str, Any],
                 named: Mapping[str, str]) -> None:
        from ..settlement import check_slip

        self.rules = rules
        self._fixed = dict(bets)
        self._players: list[tuple[str, str, Money, Any]] = []  # (player, bet, stake, strategy) of non-flat play
        self._perfect: ShoeEvaluator | None = None
        self._counts: dict[str, tuple[int, ...]] = {}
        by_player = any(isinstance(v, Mapping) for v in bets.values())
        for player, own in bets.items() if by_player else ():  # (each named by its own option)
            _checked(named[player], check_slip, rules, {player: own})
        if not strategies:
            _checked("--player" if by_player else "--bet", check_slip, rules, bets)
            return
        from ..shoe import CountPlay, PerfectPlay, ShoeEvaluator, play_setup

        most: dict[str, dict[str, Money]] = {}
        for player, own in bets.items():
            play = strategies.get(player)
            most[player] = dict(own)
            if play is None:
                continue
            del self._fixed[player]
            names = tuple(own)
            for bet, stake in own.items():  # (a strategy stakes each bet on its own)
                _checked(named[player], check_slip, rules, {player: {bet: stake}})
                self._players.append((player, bet, stake, play))
            if isinstance(play, PerfectPlay):
                perfect: set[str] = set(self._perfect.bets) if self._perfect is not None else set()
                self._perfect = ShoeEvaluator(rules, bets=sorted(perfect | set(names)))
            elif isinstance(play, CountPlay):
                _, tags = _checked(named[f"={player}"], play_setup, rules, names, False, play, False)
                self._counts.update(tags)
                top = max(play.spread.values(), default=1) if play.spread is not None else 1
                most[player] = {bet: _times(stake, max(top, 1)) for bet, stake in own.items()}
        _checked("--player", check_slip, rules, most)  # the most every player stakes at once
        self._running = dict.fromkeys(self._counts, 0)
        self._unseen = 52 * rules.decks

    @property
    def fixed(self) -> dict[str, Any] | None:
        """The one slip of every round where no player follows a strategy (None where one
        does: each round's slip is then ``next``'s)."""
        return None if self._players else self._fixed

    def next(self, last: RoundRecord | None, carried: Mapping[str, Any]) -> dict[str, Any]:
        """The slip of the next round, given the last round's record (None before the
        first) and the stakes it carried (``Game.carried``)."""
        if not self._players:
            return self._fixed
        if last is not None:
            self._see(last)
        slip: dict[str, Any] = {player: dict(bets) for player, bets in self._fixed.items()}
        positive = set(self._perfect.positive()) if self._perfect is not None else set()
        for player, bet, stake, play in self._players:
            units = 1 if play.name == "perfect" and bet in positive else 0 if play.name == "perfect" else \
                self._units(play, bet)
            amount = _times(stake, units)
            held = carried.get(player, {}).get(bet)
            if units and (held is None or amount >= held):  # (less than a carried stake: it stays as it is)
                slip.setdefault(player, {})[bet] = amount
        return slip

    def _units(self, play: Any, bet: str) -> int:
        """A counter's units on ``bet`` at the true count of the cards seen."""
        running = self._running[bet] * 52  # true count >= level: running * 52 >= level * unseen
        if play.spread is None:
            return 1 if running >= play.threshold * self._unseen else 0
        reached = [level for level in play.spread if running >= level * self._unseen]
        return int(play.spread[max(reached)]) if reached else 0

    def _see(self, record: RoundRecord) -> None:
        """The last round's hands, seen; a new shoe after its last round."""
        if record.last_of_shoe or self.rules.fresh_deck_each_round:
            if self._perfect is not None:
                self._perfect = type(self._perfect)(self.rules, bets=self._perfect.bets)
            self._running = dict.fromkeys(self._running, 0)
            self._unseen = 52 * self.rules.decks
            return
        assert record.banker is not None  # (a game deals every round it begins)
        seen = [card for hand in (record.banker, *record.hands.values()) for card in hand.cards]
        if self._perfect is not None:
            self._perfect.remove(seen)
        for bet, tags in self._counts.items():
            self._running[bet] += sum(tags[card.rank - 1] for card in seen)
        self._unseen -= len(seen)


def _times(stake: Money, units: int) -> Money:
    """``units`` stakes of ``stake``, exact (a Decimal made from its digits, never
    rounded by a context)."""
    if isinstance(stake, Decimal):
        sign, digits, exponent = stake.as_tuple()
        coefficient = int("".join(map(str, digits)) or "0") * units
        return Decimal(f"{'-' if sign else ''}{coefficient}E{exponent}")
    return stake * units


def _checked(what: str, check: Callable[..., T], *args: Any) -> T:
    """``check(*args)``, its ValueError or TypeError named by the option ``what`` that
    asked for it."""
    try:
        return check(*args)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{what}: {exc}") from None


def _stakes(args: argparse.Namespace, rules: RuleSet) -> Stakes:
    """The slips ``--bet``, ``--player`` and ``--strategy`` ask for (``Stakes``)."""
    if args.bet and args.player:
        raise ValueError(f"--bet {args.bet[0]} and --player {args.player[0]}: a round's slip is of bets alone "
                         f"(--bet) or by player (--player), not both")
    bets: dict[str, Any] = slip(args.bet, args.unit) if args.bet else player_slips(args.player, args.unit)
    named = {player: f"--player {text}" for player, text in zip(bets, args.player, strict=False)}
    strategies: dict[str, Any] = {}
    for text in args.strategy:
        player, play = strategy_of(text)
        if player in strategies:
            raise ValueError(f"--strategy {text}: {player} is given a strategy twice")
        if player not in named:
            raise ValueError(f"--strategy {text}: {player} is no --player's name{did_you_mean(player, named)}"
                             + ("" if named else " (give the player's bets with --player NAME:BET=STAKE)"))
        strategies[player] = play
        named[f"={player}"] = f"--strategy {text}"
    return Stakes(rules, bets, {p: s for p, s in strategies.items() if s is not None}, named)


def _print_stakes(record: RoundRecord) -> None:
    for r in record.results:
        who = f"{r['player']} " if r["player"] is not None else ""
        print(f"  {who}{r['bet']} {r['stake']}: {r['outcome']}, returned {r['returned']}"
              + (f", carried {r['carried']}" if r["carried"] else ""))


def _write_lines(lines: Iterable[str], batch: int = 16) -> None:
    """Write each line and a newline to standard output, ``batch`` lines a write (one text
    write a line cost about a tenth of ``sanggong deal``'s time; 16 lines keep the memory a
    write takes a few tens of kB, as a round's does); the lines made before an error are
    written before it goes on."""
    out, kept = sys.stdout.write, []
    try:
        for line in lines:
            kept.append(line)
            if len(kept) == batch:
                kept.append("")
                out("\n".join(kept))
                kept.clear()
    finally:
        if kept:
            kept.append("")
            out("\n".join(kept))


def _cmd_deal(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    stakes = _stakes(args, rules)  # (every slip checked before anything is dealt)
    game = Game(rules, args.seed, recall=0, key=read_key(args.key_file, args))
    if not args.json:
        print(f"rules: {rules.name}, {plural(rules.decks, 'deck')}, {table_text(rules)}, seed {game.seed}"
              + (f", {money_unit(args.unit, rules.minor_unit)}" if args.bet or args.player else ""))
    fixed = stakes.fixed
    if args.json and fixed is not None:  # streamed: each round's line as it is dealt (a shoe at a time in the core)
        _write_lines(game.lines(args.rounds, fixed))
    else:  # (a strategy decides each round's slip from the last round's record)
        record: RoundRecord | None = None
        for _ in range(args.rounds):
            record = game.play(stakes.next(record, game.carried))
            if args.json:
                print(record.to_json())
            else:
                _print_round(record, rules)
                _print_stakes(record)
    if args.json:  # the log's last line: its seal (a log cut short then verifies "not sealed")
        print(game.close().to_json())
    return 0




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
    return int(VERIFY_STATUS[report.status])


def _advance(bar: Any, n: int) -> None:
    bar.update(n)


def _bar(json: bool = False) -> Any:
    """A progress bar of records on standard error, only where it is a terminal."""
    from ._progress import tqdm  # (tqdm itself only where a bar is shown)

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
        header = ["player", "kind", "rounds", "bets", "units", "mean EV", "baseline EV", "z", "p-value", "gain/100",
                  "flagged"]
        rows = [[p.id, p.kind, f"{p.rounds:,}", f"{p.bets:,}", f"{p.units:,.0f}", f"{100 * p.mean_ev:+.3f}%",
                 f"{100 * p.baseline_ev:+.3f}%", "" if p.z is None else f"{p.z:.2f}", f"{p.p_value:.3g}",
                 f"{p.expected_gain_per_100:+.2f}", "FLAGGED" if p.flagged else ""] for p in found.players]
        if found.note is not None:  # (no player: the log says why, never an empty table)
            print(f"{found.note}: no player to test (deal with --bet or --player to stake)")
        else:
            print_sheet(header, rows, right=range(2, len(header) - 1))
            print("mean EV: the exact EV per unit of the player's stakes when they were placed; baseline: the "
                  "same bets' fresh-shoe EV. z, p-value: a one-sided test that the stakes follow the shoe "
                  "(Holm-corrected over the players: flagged).")
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
    own.add_argument("--player", action="append", default=[], metavar="NAME:BET=STAKE[,BET=STAKE...]",
                     help="a player and its bets, staked every round (or as its --strategy says); one per player "
                          "(instead of --bet), stakes in --unit")
    own.add_argument("--strategy", action="append", default=[], metavar="NAME=STRATEGY",
                     help="how a --player's stakes follow the shoe: flat (the default: every round), perfect "
                          "(each bet when its exact EV of the unseen cards is positive), count:TC (each bet from "
                          "the true count TC up, by the bet's balanced tags) or count:TC=UNITS,... (a spread: "
                          "the units of its stake at the largest TC reached, e.g. count:2=1,4=2,6=4)")
    de = commands.add_parser(
        "deal",
        help="shuffle and deal rounds as the rules prescribe",
        description=("Deal rounds from a seeded shoe and print each hand and who won; with --bet or --player, "
                     "settle the stakes of every round too (a log with stakes: for `sanggong detect`). A "
                     "strategy sees what a player at the table sees: the hands of the shoe's earlier rounds "
                     "(burned cards stay unseen)."),
        epilog=("examples: sanggong deal --rules macau --decks 8 --positions 5 --rounds 3 --seed 7; "
                "sanggong deal --rules macau --rounds 3000 --seed 3 --player ann:point:0=10 "
                "--player pro:point:0=10 --strategy pro=perfect --json > table.jsonl"),
        parents=[table("decks", "positions"), own,
                 bet_slip("a bet of the slip of bets alone staked every round, and its stake; repeat"),
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
            "of bets alone reads as one anonymous player per position and one for the table's bets (kind "
            "'position' or 'table', never a player's, whatever a player's id reads as). Several logs are "
            "added up, each game once: a log given twice, or one that another holds (a copy, a longer log "
            "of the game), is refused, naming both and the rounds; a log that goes on from another's last "
            "record is read with it as one game, in either order."
        ),
        epilog="example: sanggong detect table.jsonl --alpha 0.001 --plot flagged.png",
        parents=[table(rules="the preset (default: the one its records name)",
                       rules_file="the rule set played under, in TOML or JSON"),
                 own, burned_seen(), key_file("the operator key: every record's HMAC is checked"),
                 workers("processes reading several logs at once (default 1)", default=1),
                 plot("draw each flagged player's stakes against the EV to FILE"),
                 json_flag('print {"rules", "alpha", "records", "skipped", "players": [{"id", "kind", "rounds", "bets", '
                           '"units", "mean_ev", "baseline_ev", "z", "p_value", "expected_gain_per_100", "flagged"}]} '
                           'and, where no player is found, "note": why (a log without stakes)')],
    )
    dt.add_argument("logs", nargs="+", metavar="LOG",
                    help="a log: one JSON record per line (several: one table's files, each game once; -: standard "
                         "input, alone)")
    dt.set_defaults(run=_cmd_detect, decks=None, positions=None)
