"""The options several commands share, each declared once as an argparse parent parser,
and what they yield: the table (a preset or a rule file, with --decks and --positions),
counts and seeds, the bet slip, the operator's key, and where the work runs (--workers,
--scheduler)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from .._text import check_choice
from ..limits import MAX_DECKS, MAX_POSITIONS, MAX_RULE_FILE_BYTES, MAX_THREADS
from ..money import Money
from ..rules import PRESETS, RuleSet
from ._parser import Parser

if TYPE_CHECKING:  # (the shoe's package is imported where a strategy is named, not by every command)
    from ..shoe import CountPlay, PerfectPlay

DEFAULT_PRESET = "macau"
"""The rule set of a command given neither --rules nor --rules-file."""

MAX_KEY_BYTES = 4096
"""The longest operator key a key file may hold."""


# --- argument types -------------------------------------------------------------------------


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


def count(limit: int) -> Any:
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


def seed_number(text: str) -> int:
    """An argparse type: a seed as the API takes it (``seeds.check_seed``: 0 .. 2**256 - 1)."""
    value = _count_text(text.strip(), longest=110)  # 2**256 has 78 digits, more with separators
    if value is None:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a seed (a whole number, at most 2**256 - 1)")
    from ..seeds import recorded_seed  # (check_seed's checks of an int, without making its SeedSequence: NumPy)

    try:
        recorded_seed(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}...: {exc}" if len(text) > 40 else f"{text!r}: {exc}") from None
    return value


# --- standard input: `-` wherever a command reads a file or hands ----------------------------

STDIN = "-"
"""What a file or hands option is given to read standard input instead."""

MAX_STDIN_LINE = 4096
"""The longest line of hands standard input may hold (a hand is a few characters)."""


def _take_stdin(args: argparse.Namespace, option: str) -> BinaryIO:
    """Standard input's bytes, for ``option`` given ``-``: read by one option of a command
    only (a second is refused, naming both)."""
    taken = args.__dict__.get("_stdin_by")
    if taken is not None:
        raise ValueError(f"{option} -: standard input is already read by {taken} -: give one of them a file "
                         "(or the hands)")
    args._stdin_by = option
    stream: BinaryIO | None = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ValueError(f"{option} -: there is no standard input to read")
    return stream


def read_stdin(args: argparse.Namespace, option: str, limit: int) -> bytes:
    """The whole of standard input, for ``option -``: at most ``limit`` bytes (more is
    refused, never cut)."""
    data = _take_stdin(args, option).read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{option} -: standard input holds more than the {limit:,} bytes it may have")
    return data


def stdin_text(args: argparse.Namespace, option: str, limit: int) -> str:
    """Standard input as UTF-8 text (``read_stdin``)."""
    data = read_stdin(args, option, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{option} -: standard input is not UTF-8 text (byte {exc.start})") from None


def stdin_lines(args: argparse.Namespace, what: str) -> Iterator[tuple[int, str]]:
    """Standard input line by line as it comes (a filter: ``... | sanggong eval -``), each
    with its number from 1: blank lines and ``#`` comments skipped, a line that is not
    UTF-8 or longer than ``MAX_STDIN_LINE`` refused with its number."""
    stream = _take_stdin(args, what)
    number = 0
    while True:
        raw = stream.readline(MAX_STDIN_LINE + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_STDIN_LINE and not raw.endswith(b"\n"):
            raise ValueError(f"standard input, line {number}: longer than {MAX_STDIN_LINE:,} bytes")
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            raise ValueError(f"standard input, line {number}: not UTF-8 text (byte {exc.start})") from None
        if line and not line.startswith("#"):
            yield number, line


def text_or_stdin(args: argparse.Namespace, option: str, value: str | None, limit: int = 1 << 16) -> str | None:
    """An option's text (cards, hands), or standard input's where it is ``-``."""
    return stdin_text(args, option, limit).strip() if value == STDIN else value


# --- parent parsers: each shared option declared once --------------------------------------
# A command's parser is made of parents, in this order: its table (table), its own options
# (own_options), then the shared ones it takes: --bet, --burned-seen, --seed, --key-file,
# --workers, --scheduler, --plot, --json. (argparse lists a parent's options where the parent
# comes, before any option added to the command itself: so a command's own options are a
# parent too, and every command's help reads table, own options, shared options.) Where a
# command says more than the shared help text, it passes its own.


def _parent() -> Parser:
    return Parser(add_help=False)


def own_options() -> Parser:
    """A parent parser for a command's own options (those no other command shares)."""
    return _parent()


def table(*overrides: str, rules: str = f"preset rule set (default: {DEFAULT_PRESET})",
          rules_file: str = "a rule set in TOML or JSON (instead of --rules)",
          override: str = "override the rule set's number of {name} (at most {limit})") -> Parser:
    """--rules or --rules-file (never both), and the overrides named (``decks``,
    ``positions``) with their limits; ``override`` is their help, ``{name}`` and
    ``{limit}`` filled in."""
    parent = _parent()
    which = parent.add_mutually_exclusive_group()  # both given: one of them would be dropped
    # (no default here: argparse does not count an option given its default value as given)
    which.add_argument("--rules", choices=sorted(PRESETS), help=rules)
    which.add_argument("--rules-file", metavar="FILE", help=rules_file + " (-: read standard input)")
    limits = {"decks": MAX_DECKS, "positions": MAX_POSITIONS}
    for name in overrides:
        parent.add_argument(f"--{name}", type=count(limits[name]), help=override.format(name=name, limit=limits[name]))
    return parent


def _rules_file(args: argparse.Namespace) -> RuleSet:
    """--rules-file FILE, or ``-``: a rule set from standard input, JSON if it opens with
    ``{``, else TOML."""
    if args.rules_file != STDIN:
        return RuleSet.load(args.rules_file)
    text = stdin_text(args, "--rules-file", MAX_RULE_FILE_BYTES)
    try:
        return RuleSet.loads(text, "json" if text.lstrip().startswith("{") else "toml")
    except ValueError as exc:
        raise ValueError(f"--rules-file - (standard input): {exc}") from None


def rules_of(args: argparse.Namespace) -> RuleSet:
    """The preset or file the command names, with --decks and --positions applied (a
    change the rule set refuses is named with the options that asked for it)."""
    rules = _rules_file(args) if args.rules_file else PRESETS[args.rules or DEFAULT_PRESET]
    changes = {k: getattr(args, k, None) for k in ("decks", "positions")}
    changes = {k: v for k, v in changes.items() if v is not None}
    if not changes:
        return rules
    try:
        return rules.replace(**changes)
    except (TypeError, ValueError) as exc:
        asked = " ".join(f"--{k} {v}" for k, v in changes.items())
        named = f"--rules-file {args.rules_file}" if args.rules_file else f"--rules {args.rules or DEFAULT_PRESET}"
        raise ValueError(f"{asked} with {named}: {exc}") from None


UNITS = ("minor", "major")
"""What a stake on the command line counts: whole minor units (the default), or major units."""


def bet_slip(help: str) -> Parser:
    """--bet BET=STAKE, given once per bet, and --unit, what every stake counts (``slip``
    reads them)."""
    parent = _parent()
    parent.add_argument("--bet", action="append", default=[], metavar="BET=STAKE", help=help)
    parent.add_argument("--unit", choices=UNITS, default="minor",
                        help="what every amount counts: minor (the default) is whole minor units (100 is 1.00 at a "
                             "table whose minor unit is 0.01), major is major units, decimals allowed (1.00); "
                             "every table of money says which")
    return parent


def assignment(text: str, what: str) -> tuple[str, str]:
    """``NAME=VALUE`` (of the option ``what``), both sides stripped and not empty."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise ValueError(f"{what} {text!r}: expected NAME=VALUE")
    return key.strip(), value.strip()


_AMOUNT = re.compile(r"[+-]?(\d{1,20})(?:\.(\d{1,20}))?")


def amount(what: str, text: str, unit: str) -> Money:
    """An amount as ``--unit`` counts it: in minor units a whole number written as counts
    are (``100``, ``1,000``, ``1_000`` or ``1e3``), an ``int``; in major units digits with
    an optional decimal point (``10.50``), a ``Decimal``. Nothing long is parsed and no
    exponent beyond two digits is expanded (no NaN, no ``1e999999``). A decimal point in
    minor units is refused, never guessed at: ``10.50`` is not a number of minor units."""
    match = _AMOUNT.fullmatch(text)
    if unit == "major":
        if match is None:
            raise ValueError(f"{what}: {text[:40]!r} is not an amount (digits, with an optional decimal point)")
        return Decimal(text)
    digits = sum(c.isdigit() for c in text)
    whole = _count_text(text.lstrip("+"), longest=40) if digits <= 20 and not text.startswith("-") else None
    if whole is not None:
        return whole
    if match is not None and match[2] is None and text.startswith("-"):
        return int(text)  # (the API names a stake that is not positive)
    if match is not None and match[2] is not None:
        raise ValueError(f"{what}: {text} is not a whole number of minor units (--unit minor, the default): "
                         f"give --unit major for {text} in major units")
    raise ValueError(f"{what}: {text[:40]!r} is not an amount (a whole number of minor units, or with "
                     f"--unit major digits with an optional decimal point)")


def slip(given: Sequence[str], unit: str = "minor", what: str = "--bet") -> dict[str, Money]:
    """The slip of ``--bet NAME=STAKE`` options (or of the ``BET=STAKE`` parts of the
    option ``what``), each stake in ``unit`` (``amount``); a bet given twice is refused
    (never the last stake silently)."""
    bets: dict[str, Money] = {}
    for text in given:
        name, stake = assignment(text, what)
        if name in bets:
            raise ValueError(f"{what} {text!r}: {name} is given twice")
        bets[name] = amount(f"{what} {text}", stake, unit)
    return bets


def player_slips(given: Sequence[str], unit: str = "minor") -> dict[str, dict[str, Money]]:
    """The slip by player of ``--player NAME:BET=STAKE[,BET=STAKE...]`` options, one for
    each player (a player given twice is refused: give all of a player's bets in one),
    each stake in ``unit`` (``slip``)."""
    players: dict[str, dict[str, Money]] = {}
    for text in given:
        name, sep, bets = text.partition(":")
        name = name.strip()
        if not sep or not name or not bets.strip():
            raise ValueError(f"--player {text!r}: expected NAME:BET=STAKE (more bets comma-separated)")
        if name in players:
            raise ValueError(f"--player {text!r}: {name} is given twice (give a player's bets in one --player, "
                             f"comma-separated)")
        players[name] = slip(bets.split(","), unit, f"--player {name}:")
    return players


STRATEGY_NAMES = ("flat", "perfect", "count")
"""The strategies ``--strategy`` names (``strategy_of``)."""

_TRUE_COUNT = re.compile(r"[+-]?\d{1,5}(?:\.\d{1,6})?")
_UNITS = re.compile(r"\d{1,8}")


def _true_count(what: str, text: str) -> int | Fraction:
    """A true count as written (``2``, ``-1.5``): exact (an int where it is whole)."""
    if _TRUE_COUNT.fullmatch(text) is None:
        raise ValueError(f"{what}: {text[:40]!r} is not a true count (a number such as 2 or -1.5)")
    value = Fraction(Decimal(text))
    return value.numerator if value.denominator == 1 else value


def strategy_of(text: str) -> tuple[str, PerfectPlay | CountPlay | None]:
    """``--strategy NAME=STRATEGY``: a player and how its stakes follow the shoe: ``flat``
    (None: every round, its stakes as given), ``perfect`` (``PerfectPlay``: each bet when
    its exact EV of the unseen cards is positive), ``count:TC`` (``CountPlay`` with a
    threshold: each bet when its true count reaches TC) or ``count:TC=UNITS,...``
    (``CountPlay`` with a spread: as many times its stake as the units of the largest TC
    not above the true count). The ranges are ``play_shoes``'s (checked by ``CountPlay``'s
    user, with the bets); the true counts are kept exact (an int or a ``Fraction``, which
    ``play_shoes``'s checks take), and compared exactly."""
    from ..shoe import CountPlay, PerfectPlay

    name, value = assignment(text, "--strategy")
    kind, _, params = value.partition(":")
    what = f"--strategy {text}"
    check_choice(kind.strip(), what, STRATEGY_NAMES)
    kind, params = kind.strip(), params.strip()
    if kind != "count":
        if params:
            raise ValueError(f"{what}: {kind} takes no parameters (count does: count:TC or count:TC=UNITS,...)")
        return name, None if kind == "flat" else PerfectPlay()
    if not params:
        raise ValueError(f"{what}: a count bets from a true count: count:TC (one stake from TC up) or a spread "
                         f"count:TC=UNITS,... (e.g. count:2=1,4=2,6=4)")
    if "=" not in params:
        return name, CountPlay(threshold=cast(float, _true_count(what, params)))
    spread: dict[int | Fraction, int] = {}
    for step in params.split(","):
        tc, units = assignment(step, what)
        level = _true_count(what, tc)
        if level in spread:
            raise ValueError(f"{what}: the true count {tc} is given twice")
        if _UNITS.fullmatch(units) is None:
            raise ValueError(f"{what}: {units[:40]!r} is not a number of units (a whole number)")
        spread[level] = int(units)
    return name, CountPlay(spread=cast(dict[float, int], spread))


def money_unit(unit: str, minor_unit: Decimal) -> str:
    """What a table's amounts count, for its header: ``amounts in minor units, 100 = 1.00``
    or ``amounts in major units, to 0.01``."""
    if unit == "major":
        return f"amounts in major units, to {minor_unit}"
    per = 1 / Fraction(minor_unit)
    exponent = minor_unit.as_tuple().exponent
    if per.denominator == 1 and per > 1 and isinstance(exponent, int):
        return f"amounts in minor units, {per.numerator} = {Decimal(1).quantize(Decimal(1).scaleb(exponent))}"
    return f"amounts in minor units of {minor_unit}"


def burned_seen() -> Parser:
    parent = _parent()
    parent.add_argument("--burned-seen", action="store_true", help="count burned cards as seen (default: unseen)")
    return parent


def seed(help: str = "seed (default: fresh entropy, printed)", default: int | None = None) -> Parser:
    parent = _parent()
    parent.add_argument("--seed", type=seed_number, default=default, help=help)
    return parent


def key_file(help: str) -> Parser:
    """--key-file FILE: the operator's key (``read_key`` reads it)."""
    parent = _parent()
    parent.add_argument("--key-file", metavar="FILE", help=help)
    return parent


def read_key(path: str | None, args: argparse.Namespace | None = None) -> bytes | None:
    """The operator's key: the whole of a file (``-``: of standard input, given ``args``),
    1 to 4,096 bytes (one trailing newline, as an editor leaves it, is not part of the
    key). A longer file is refused, never cut: a key is the file's every byte, or no key
    at all."""
    if path is None:
        return None
    if path == STDIN and args is not None:
        key = _take_stdin(args, "--key-file").read(MAX_KEY_BYTES + 3)
    else:
        try:
            with open(path, "rb") as handle:
                key = handle.read(MAX_KEY_BYTES + 3)  # one byte past a key and its CRLF: more is too long
        except OSError as exc:  # (an OSError's own text names the file, not that it was the key's)
            raise ValueError(f"--key-file {path}: cannot read the key ({exc.strerror or type(exc).__name__})") \
                from None
    key = key[:-2] if key.endswith(b"\r\n") else key[:-1] if key.endswith(b"\n") else key
    if not 1 <= len(key) <= MAX_KEY_BYTES:
        raise ValueError(f"--key-file {path}: a key is 1 to {MAX_KEY_BYTES:,} bytes (and one final newline), "
                         f"{'the file is empty' if not key else 'the file holds more'}")
    return key


def workers(help: str = "threads (default: every core)", default: int | None = None) -> Parser:
    parent = _parent()
    parent.add_argument("--workers", type=count(MAX_THREADS), default=default, help=help)
    return parent


def scheduler() -> Parser:
    """--scheduler ADDRESS: a Dask cluster to run on (``dask_executor`` connects)."""
    parent = _parent()
    parent.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://host:8786")
    return parent


def dask_executor(args: argparse.Namespace) -> tuple[Any, Any]:
    """A Dask client and its executor where ``--scheduler`` names one, else (None, None)."""
    if not getattr(args, "scheduler", None):
        return None, None
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask: pip install 'sanggong[distributed]'") from None
    client = Client(args.scheduler)  # type: ignore[no-untyped-call]
    return client, client.get_executor()  # type: ignore[no-untyped-call]


def workers_text(args: argparse.Namespace) -> str:
    """Where a run goes: ``2 workers (every core)``, ``1 worker``, or a Dask cluster."""
    if args.scheduler:
        return f"on the Dask cluster {args.scheduler}"
    n = args.workers if args.workers is not None else os.cpu_count() or 1
    return f"{n} worker{'s' if n > 1 else ''}{' (every core)' if args.workers is None else ''}"


def plot(help: str) -> Parser:
    """--plot FILE (``_output.plot_target`` checks it before any work)."""
    parent = _parent()
    parent.add_argument("--plot", metavar="FILE", help=help)
    return parent


def json_flag(help: str = "print the result as JSON", unset_if_absent: bool = False) -> Parser:
    """--json. ``unset_if_absent``: left out of the namespace where not given, for an option
    that a command and its actions both take (``rules --json list``, ``rules list --json``),
    so that neither parser's default overwrites the other's."""
    parent = _parent()
    parent.add_argument("--json", action="store_true", default=argparse.SUPPRESS if unset_if_absent else False,
                        help=help)
    return parent
