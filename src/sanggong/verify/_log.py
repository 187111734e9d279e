"""A log read and checked (``verify_log``, ``LogReader``): the full checks of each record
(``_Verifier``), which hand a dealt game's lines to the fast pass (``_fastlog``) where it
can; ``sanggong.verify`` describes the checks."""

from __future__ import annotations

import dataclasses
import hmac as _hmac
import io
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

from .._checks import flag
from .._parallel import check_progress
from .._presentation import html_sheet, pandas
from ..dealing import CannotCheck, Replayer, Resettler
from ..limits import MAX_RECORD_BYTES, MAX_ROUND
from ..records import (
    TOTALS,
    ZERO_HASH,
    RoundRecord,
    SealRecord,
    Totals,
    check_hash,
    check_key,
    is_seal,
    loads_record,
    record_amounts,
    record_hmac,
    rules_digest,
    stakes_of,
)
from ..rules import PRESETS, RuleSet, as_rules
from ._stream import CheckedRound, CheckedRun

if TYPE_CHECKING:  # pandas is optional (the "frame" extra), and typed only with pandas-stubs
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["LogFailed", "LogFiles", "LogReader", "VerifyReport", "verify_log"]

_FAST = True
"""Check a dealt game's lines by the fast pass where it can (``sanggong.verify._fastlog``); the
tests turn it off to hold its verdicts against the full checks'."""


@dataclass(frozen=True)
class VerifyReport:
    """What ``verify_log`` found.

    :ivar ok: every record passed every check (and the log holds at least one).
    :ivar records: the lines (records) of the log read: all of them for a good log, up to
        and including the first bad one otherwise (a file may never end).
    :ivar first_bad: the line number (from 1) of the first bad record, or None.
    :ivar round: that record's round, where it could be read, or None.
    :ivar reason: why it is bad, as ``"line 7 (round 7): hash does not match its
        contents"`` (None when ``ok``).
    :ivar replayed: the records were dealt again from their seed or shoe state and
        matched field by field (False for observed rounds, or with ``replay=False``).
    :ivar settled: every record's hands and bet results were recomputed from its cards
        and bets (True with ``replay=True``: by the replay, or for observed rounds by
        dealing their cards again on an ``ObservedTable``).
    :ivar authenticated: every record's HMAC was checked under the key.
    :ivar rules: the name of the rule set the records were checked against.
    :ivar last_hash: the hash of the last record that passed: give it as ``start_prev``
        to verify the log that continues this one.
    :ivar unchecked: the log stopped at a record this implementation cannot check (a
        round it cannot deal again), which says nothing against the record: ``ok`` is
        False, ``first_bad`` and ``reason`` name it, and ``status`` is ``"unchecked"``.
    :ivar signed: the records carry HMACs (checked only with a key: ``authenticated``).
    :ivar void_rounds: the records read that are void rounds (a misdeal voided).
    :ivar reshuffles: the shuffles done again before a shoe's first round, over the
        records read (a card dropped or exposed while shuffling).
    :ivar sealed: the log ends with its game's seal (``Game.close()``), which holds: it
        follows the last round, and its totals are the records' own. A log that is not
        sealed may have lost its last records (a chain cannot show it): give
        ``require_seal=True`` to refuse one, or ``expect_last`` its last hash.
    :ivar seal_totals: the seal's money totals were recomputed from the records and
        matched (False for a log that continues another, ``start_prev``: the totals are
        the whole game's, which it does not hold).
    """

    ok: bool
    records: int
    first_bad: int | None
    round: int | None
    reason: str | None
    replayed: bool
    settled: bool
    authenticated: bool
    rules: str | None
    last_hash: str | None
    unchecked: bool = False
    signed: bool = False
    void_rounds: int = 0
    reshuffles: int = 0
    sealed: bool = False
    seal_totals: bool = False

    @property
    def status(self) -> str:
        """``"ok"``, ``"bad"`` (a record failed a check: changed, removed, forged...) or
        ``"unchecked"`` (verification stopped at a record it cannot check here)."""
        return "ok" if self.ok else "unchecked" if self.unchecked else "bad"

    def __str__(self) -> str:
        """One line: ``ok: ...``, ``bad: <reason> (N records read)`` or ``cannot check:
        <reason> (...)``."""
        read = f"{self.records} record{'s' if self.records != 1 else ''} read"
        if self.unchecked:
            return f"cannot check: {self.reason} ({read}; nothing was found wrong before it)"
        if not self.ok:
            return f"bad: {self.reason} ({read})"
        checks = ["chained"]
        if self.authenticated:
            checks.append("HMAC verified")
        elif self.signed:
            checks.append("signed (HMAC not checked: no key given)")
        checks.append("every round replayed" if self.replayed else
                      "every round settled again from its cards" if self.settled else "not replayed")
        if self.void_rounds:
            checks.append(f"{self.void_rounds} void round{'s' if self.void_rounds != 1 else ''}")
        if self.reshuffles:
            checks.append(f"{self.reshuffles} shuffle{'s' if self.reshuffles != 1 else ''} done again "
                          f"before a shoe's first round")
        checks.append(("sealed" if self.seal_totals else "sealed (its totals not checked: the log continues "
                       "another)") if self.sealed else "not sealed")
        return f"ok: {self.records} record{'s' if self.records != 1 else ''}, rules {self.rules!r}, {', '.join(checks)}"

    def to_dict(self) -> dict[str, Any]:
        """Every field and the ``status``, as strict JSON."""
        return {"status": self.status, **dataclasses.asdict(self)}

    def to_frame(self) -> DataFrame:
        """The report as a one-row pandas ``DataFrame`` (the columns of ``to_dict``; pandas
        is optional: ``pip install 'sanggong[frame]'``)."""
        pd = pandas()
        return pd.DataFrame.from_records([self.to_dict()])

    def _repr_html_(self) -> str:
        """The report as an HTML table, for notebooks (needs no pandas)."""
        def text(value: object) -> str:
            return "\u2014" if value is None else "yes" if value is True else "no" if value is False else \
                f"{value:,}" if isinstance(value, int) else str(value)

        rows = [(name.replace("_", " "), text(value)) for name, value in self.to_dict().items()]
        return html_sheet("verify", f"Verification: {self.status}, {self.records:,} records", ("check", "result"),
                          rows)


class LogFailed(ValueError):
    """A log that fails ``verify_log``'s checks where a command reads it for something else
    (``detect``): a ``ValueError`` saying why as ``verify`` says it, carrying the
    ``VerifyReport`` as ``report``, so that the command line ends with ``verify``'s status for
    it (1 a bad record, 3 one this implementation cannot check) and not bad usage's 2."""

    def __init__(self, message: str, report: VerifyReport) -> None:
        super().__init__(message)
        self.report = report

    def __reduce__(self) -> tuple[Any, ...]:  # (it crosses a process pool as it is)
        return type(self), (str(self), self.report)


class _Bad(Exception):
    def __init__(self, reason: str, round_: int | None = None, unchecked: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.round = round_
        self.unchecked = unchecked


class _TooLong:
    """A line longer than ``MAX_RECORD_BYTES`` (not read into memory)."""


_TOO_LONG = _TooLong()


def _source(record: RoundRecord) -> str:
    if record.seed is not None:
        return "a seed"
    if record.shoe_state is not None:
        return "a shoe state"
    return "neither a seed nor a shoe state (observed cards)"


def _left_off(carried: Mapping[str, Any], bets: Mapping[str, Any]) -> tuple[str | None, str, Any] | None:
    """The first stake carried from a round that the next round's ``bets`` do not keep on
    the table (at least as much, of the same kind), as (player, bet, amount); or None."""
    stakes = stakes_of(bets)
    for (player, bet), amount in stakes_of(carried).items():
        stake = stakes.get((player, bet))
        if stake is None or type(stake) is not type(amount) or stake < amount:
            return player, bet, amount
    return None


def _keeps(carried: Mapping[str, Any], bets: Mapping[str, Any]) -> bool:
    return _left_off(carried, bets) is None


class _Verifier:
    def __init__(self, rules: RuleSet | None, key: bytes | None, replay: bool, start_prev: str,
                 no_fast: bool = False, require_seal: bool = False, expect_last: str | None = None) -> None:
        self.given = rules
        self.rules: RuleSet | None = None
        self.key = key
        self.replay = replay
        self.start_prev = start_prev
        self.count = 0
        self.bad: tuple[int, int | None, str] | None = None
        self.unchecked = False
        self.void_rounds = 0
        self.reshuffles = 0
        self.first: RoundRecord | None = None
        self.last: RoundRecord | None = None
        self.replayer: Replayer | None = None
        self.resettler: Resettler | None = None
        self.replayed = replay
        self.settled = replay
        self.fast: Any = None  # the fast pass (a _fastlog.FastReplay), once a record starts it
        self.last_line: str | bytes | None = None  # the last line, where it passed by the fast pass alone
        self.no_fast = no_fast or not _FAST
        self.require_seal = require_seal
        self.expect_last = expect_last
        self.totals = Totals()  # the money of the rounds read (the fast pass's added in when it stops)
        self.seal: SealRecord | None = None
        self.seal_line: int | None = None
        self.seal_totals = False

    def feed(self, number: int, line: str | bytes | _TooLong) -> None:
        self.count += 1
        if self.bad is not None:
            return
        fast = self.fast
        if fast is not None and not isinstance(line, _TooLong):
            try:
                if fast.check(line if isinstance(line, bytes) else _utf8(line), _keeps):
                    self.last_line = line  # (self.last is made from it only if a later line needs it)
                    return
            except Exception:  # noqa: BLE001 - (cannot happen) the full checks alone then, as they would be
                self._no_fast()
            self._resume()
        try:
            checked = self._check(number, line)
            if isinstance(checked, SealRecord):
                self.seal, self.seal_line = checked, number
                return
            self.last = checked
            self.totals.add(record_amounts(checked))
            self.void_rounds += self.last.void
            self.reshuffles += self.last.reshuffled
            if self.first is None:
                self.first = self.last
            self._fast_from(self.last)
        except _Bad as bad:
            where = f"line {number}" + (f" (round {bad.round})" if bad.round is not None else "")
            self.bad = (number, bad.round, f"{where}: {bad.reason}")
            self.unchecked = bad.unchecked
        except Exception as exc:  # noqa: BLE001 - a log never makes verify_log raise
            self.bad = (number, None, f"line {number}: cannot be checked ({type(exc).__name__}: {exc})")

    def _fast_from(self, record: RoundRecord) -> None:
        """Check the lines that follow ``record`` (which passed every check) by the fast
        pass, where it can (``sanggong.verify._fastlog``): it only ever accepts a line, and never
        changes a verdict, so anything wrong in it leaves the lines to the full checks."""
        try:
            if self.fast is not None:
                self.fast.follow(record)
            elif record.shoe_state is not None and record.round_in_shoe == 1 and not record.void and \
                    self.rules is not None and not self.no_fast:
                from ._fastlog import FastReplay

                self.fast = FastReplay(self.rules, record, self.key, self.totals)
        except Exception:  # noqa: BLE001 - (cannot happen) the full checks alone then
            self._no_fast()

    def _no_fast(self) -> None:
        self._resume()
        if self.fast is not None:
            self.fast.fold()  # (the money of the lines it accepted, into self.totals)
        self.fast, self.no_fast = None, True

    def _resume(self) -> None:
        """The full checks go on from the last line the fast pass accepted."""
        if self.last_line is not None:
            assert self.fast is not None
            self.last = RoundRecord.from_json(self.last_line)
            self.last_line = None
            if self.replayer is not None:
                self.replayer.game = self.fast.game()

    @property
    def last_hash(self) -> str | None:
        """The hash of the last record that passed."""
        if self.seal is not None:
            return self.seal.hash
        if self.last_line is not None:
            assert self.fast is not None
            found: str = self.fast.hash
            return found
        return None if self.last is None else self.last.hash

    def _check(self, number: int, line: str | bytes | _TooLong) -> RoundRecord | SealRecord:
        if self.seal_line is not None:
            raise _Bad(f"a record after the seal on line {self.seal_line}: a sealed log ends with its seal")
        if isinstance(line, _TooLong):
            raise _Bad(f"longer than {MAX_RECORD_BYTES} bytes (the longest record a log may hold)")
        if not line.strip():
            raise _Bad("an empty line (a log holds one record on each line)")
        try:
            raw = loads_record(line)
        except (ValueError, TypeError) as exc:
            raise _Bad(f"not a record: {exc}") from None
        if is_seal(raw):
            return self._check_seal(number, raw)
        round_ = raw.get("round") if isinstance(raw, dict) else None
        if isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= MAX_ROUND:
            round_ = None
        try:
            record = RoundRecord.from_dict(raw)
        except (ValueError, TypeError) as exc:
            raise _Bad(str(exc), round_) from None
        round_ = record.round
        last = self.last
        self._chain(record, number, round_)
        # the rules
        rules = self._rules(record, round_)
        # continuity
        if (record.prev == ZERO_HASH) != (record.round == 1):
            raise _Bad("round 1, and only round 1, is a game's first record, whose prev is the zero hash", round_)
        if record.reshuffled and record.round_in_shoe != 1:
            raise _Bad("field 'reshuffled': only a shoe's first round follows shuffles done again", round_)
        if record.void and (record.seed is not None or record.shoe_state is not None):
            raise _Bad("field 'void': a game deals every round it begins: only observed rounds are void", round_)
        fresh = rules.fresh_deck_each_round
        if fresh and not (record.last_of_shoe and record.round_in_shoe == 1 and record.cut_card is None):
            raise _Bad("a fresh-deck table deals every round from a new deck: round_in_shoe 1, "
                       "last_of_shoe true, no cut card", round_)
        if last is None:
            if record.round == 1 and (record.shoe, record.round_in_shoe) != (1, 1):
                raise _Bad("a game's first round is round 1 of shoe 1", round_)
        else:
            self._follows(record, last, number, round_)
        # the round itself
        if self.replay:
            try:
                if record.seed is not None or record.shoe_state is not None:
                    self.replayer = self.replayer or Replayer(rules)
                    self.replayer.check(record)
                else:
                    self.replayed = False
                    self.resettler = self.resettler or Resettler(rules)
                    self.resettler.check(record)
            except CannotCheck as exc:
                raise _Bad(str(exc), round_, unchecked=True) from None
            except ValueError as exc:
                raise _Bad(str(exc), round_) from None
        return record

    def _chain(self, record: RoundRecord | SealRecord, number: int, round_: int | None) -> None:
        """The record's ``prev`` is the hash of the record before it, and it is signed as
        the log's first record is (and its HMAC is the key's, with a key)."""
        last = self.last
        expected = last.hash if last is not None else self.start_prev
        if not _hmac.compare_digest(record.prev, expected):
            if last is not None:
                raise _Bad(f"prev is not the hash of line {number - 1}: a record was removed, inserted or "
                           f"moved, or line {number - 1} was changed", round_)
            if self.start_prev == ZERO_HASH:
                raise _Bad("prev is not the zero hash of a game's first record (a log starts with its "
                           "game's first round; pass start_prev to verify one that continues another)", round_)
            raise _Bad("prev is not the start_prev given", round_)
        # a game signs every record or none: a signature never vanishes (or appears) part way
        first = self.first
        if first is not None and (record.hmac is None) != (first.hmac is None):
            raise _Bad("has no HMAC, but line 1 has one: a signed log's records are all signed (its signatures "
                       "were removed from here on)" if record.hmac is None else
                       "has an HMAC, but line 1 has none: a log is signed from its first record or not at all",
                       round_)
        if self.key is not None:
            if record.hmac is None:
                raise _Bad("has no HMAC (the log was not written under a key)", round_)
            if not _hmac.compare_digest(record.hmac, record_hmac(record, self.key)):
                raise _Bad("HMAC does not match: a wrong key, or the record was changed", round_)

    def _check_seal(self, number: int, raw: Any) -> SealRecord:
        """A seal (``records.SealRecord``): read strictly, chained and signed as a round's
        record, the rules' and the game's, after the last round read, of that round and
        shoe, and (for a log from its game's first round) of the records' money."""
        try:
            seal = SealRecord.from_dict(raw)
        except (ValueError, TypeError) as exc:
            raise _Bad(f"the seal: {exc}") from None
        self._no_fast()  # (nothing follows a seal; the fast pass's money added in)
        last, first = self.last, self.first
        if last is None and self.start_prev == ZERO_HASH:
            raise _Bad("a seal with no round before it: a seal is the last record of a game's log")
        self._chain(seal, number, None)
        self._rules(seal, None)
        if first is not None and seal.seed != first.seed:
            raise _Bad("the seal: field 'seed' differs from line 1's (a log is one game)")
        if last is not None:
            for name, value, found in (("rounds", seal.rounds, last.round), ("shoes", seal.shoes, last.shoe)):
                if value != found:
                    raise _Bad(f"the seal: field {name!r} is {value}, but the last round before it, on line "
                               f"{number - 1}, is round {last.round} of shoe {last.shoe}")
        if last is not None and self.start_prev == ZERO_HASH:  # the whole game: its money is all here
            totals = self.totals.values(last.carried)
            stated = seal.totals()
            for name in TOTALS:
                if totals is None or stated[name] != totals[name]:
                    made = "more than a seal holds" if totals is None else repr(str(totals[name]))
                    raise _Bad(f"the seal: field {name!r} is {str(stated[name])[:40]!r}, but the records before "
                               f"it make {made}")
            self.seal_totals = True
        return seal

    def _rules(self, record: RoundRecord | SealRecord, round_: int | None) -> RuleSet:
        if self.rules is None:
            if self.given is not None:
                if record.rules_digest != rules_digest(self.given):
                    raise _Bad(f"field 'rules_digest' is not the digest of the rules given ({self.given.name!r})",
                               round_)
                self.rules = self.given
            else:
                preset = PRESETS.get(record.rules)
                if preset is None or record.rules_digest != rules_digest(preset):
                    raise _Bad(f"the records' rules {record.rules!r} are not a preset's (nor is their digest): "
                               f"give the rules they were played under", round_)
                self.rules = preset
        elif self.first is not None and record.rules_digest != self.first.rules_digest:
            raise _Bad("field 'rules_digest' differs from line 1's", round_)
        if record.rules != self.rules.name:
            raise _Bad(f"field 'rules' is {record.rules!r}, not the name of the rules {self.rules.name!r}", round_)
        return self.rules

    def _follows(self, record: RoundRecord, last: RoundRecord, number: int, round_: int) -> None:
        if record.round != last.round + 1:
            raise _Bad(f"round {record.round} does not follow line {number - 1}'s round {last.round}", round_)
        first = self.first
        assert first is not None
        if _source(record) != _source(first):
            raise _Bad(f"the record has {_source(record)}, line 1 has {_source(first)}", round_)
        if record.seed != first.seed:
            raise _Bad("field 'seed' differs from line 1's (a log is one game)", round_)
        same_shoe = record.shoe == last.shoe and record.round_in_shoe == last.round_in_shoe + 1
        new_shoe = record.shoe == last.shoe + 1 and record.round_in_shoe == 1
        where = f"shoe {record.shoe}, round {record.round_in_shoe} in the shoe"
        if last.last_of_shoe:
            if not new_shoe:
                raise _Bad(f"{where}: the round after the last of shoe {last.shoe} starts shoe "
                           f"{last.shoe + 1} (round 1 in it)", round_)
        elif same_shoe:
            if record.cut_card != last.cut_card:
                raise _Bad("field 'cut_card' changed within the shoe", round_)
        elif not (new_shoe and record.seed is None and record.shoe_state is None and record.cut_card is None):
            # only observed cards may come from a shoe the house shuffled early
            raise _Bad(f"{where} does not follow line {number - 1}'s shoe {last.shoe}, round "
                       f"{last.round_in_shoe} (not the last of its shoe)", round_)
        left = _left_off(last.carried, record.bets)
        if left is not None:
            player, bet, amount = left
            whose = f" by {player}" if player is not None else ""
            raise _Bad(f"field 'bets': the stake of {amount} on {bet}{whose} carried from line {number - 1} "
                       f"must stay on the table (at least that much, of the same kind)", round_)

    def report(self) -> VerifyReport:
        rules = None if self.rules is None else self.rules.name
        keyed = self.key is not None
        signed = self.first is not None and self.first.hmac is not None
        if self.bad is not None:
            line, round_, reason = self.bad
            return VerifyReport(False, self.count, line, round_, reason, self.replayed, self.settled, keyed,
                                rules, None, unchecked=self.unchecked, signed=signed, void_rounds=self.void_rounds,
                                reshuffles=self.reshuffles)
        if self.count == 0:
            return VerifyReport(False, 0, None, None, "the log holds no record", False, False, keyed, None, None)
        last_hash = self.last_hash
        assert last_hash is not None
        sealed = self.seal is not None
        finding: str | None = None  # (about the log's end: every record in it passed)
        if self.require_seal and not sealed:
            finding = (f"the log is not sealed: it ends at line {self.count} without its game's seal (its last "
                      f"records may have been removed)")
        elif self.expect_last is not None and not _hmac.compare_digest(last_hash, self.expect_last):
            finding = (f"the log ends at line {self.count} with hash {last_hash}, not the expected {self.expect_last} "
                      f"(records were removed from its end, or added)")
        return VerifyReport(finding is None, self.count, None, None, finding, self.replayed, self.settled, keyed,
                            rules, last_hash, signed=signed, void_rounds=self.void_rounds, reshuffles=self.reshuffles,
                            sealed=sealed, seal_totals=self.seal_totals)


_PROGRESS_EVERY = 4096  # records between two calls of a progress callable
_SEEN_AT_A_TIME = 256  # records the fast pass accepts before ``_seen`` yields them


def _utf8(line: str) -> bytes:
    try:
        return line.encode("utf-8")
    except UnicodeEncodeError:  # (a lone surrogate: the full checks say so)
        return b""


def _file_lines(handle: Any) -> Iterator[bytes | _TooLong]:
    """A binary file's lines, each without its ``\n`` (or ``\r\n``), read in blocks of what
    is there (``read1``: a pipe's lines as they come); a line longer than
    ``MAX_RECORD_BYTES`` is ``_TOO_LONG``, and one that does not end within that many
    bytes is the last read (the log is bad there: an endless line is never read)."""
    read = getattr(handle, "read1", handle.read)
    pending = b""
    while True:
        block = read(_BLOCK)
        if not block:
            break
        lines = (pending + block).split(b"\n") if pending else block.split(b"\n")
        pending = lines.pop()
        for line in lines:
            if line.endswith(b"\r"):
                line = line[:-1]
            yield line if len(line) <= MAX_RECORD_BYTES else _TOO_LONG
        if len(pending) > MAX_RECORD_BYTES + 1:  # the log is bad here: nothing after it is read
            yield _TOO_LONG
            return
    if pending:
        yield pending if len(pending) <= MAX_RECORD_BYTES else _TOO_LONG


_BLOCK = 1 << 16


def _given_lines(lines: Iterable[Any]) -> Iterator[str | bytes | _TooLong]:
    for item in lines:
        if not isinstance(item, str | bytes):
            raise TypeError(f"a log's lines are str (or bytes), not {type(item).__name__}")
        if len(item) > 4 * MAX_RECORD_BYTES + 2:
            yield _TOO_LONG  # too long whatever its encoding (loads_record checks the rest)
            continue
        if isinstance(item, str):
            yield item.removesuffix("\n").removesuffix("\r")
        else:
            yield item.removesuffix(b"\n").removesuffix(b"\r")


def verify_log(
    log: str | os.PathLike[str] | BinaryIO | Iterable[str] | LogFiles,
    rules: RuleSet | str | None = None,
    *,
    key: bytes | None = None,
    replay: bool = True,
    start_prev: str | None = None,
    require_seal: bool = False,
    expect_last: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> VerifyReport:
    """Check a JSON Lines log of round records and report the first bad record.

    :param log: a path (``str`` or ``PathLike``) or a binary file (``sys.stdin.buffer``),
        read line by line, each line at most ``MAX_RECORD_BYTES``; or an iterable of lines
        (``str``, or ``bytes`` of UTF-8; a final newline is dropped). To check text in
        memory, pass ``text.splitlines()``. A game's log kept in several files: ``LogFiles``.
    :param rules: the rules the game was played under (a ``RuleSet`` or a preset's name);
        None: the preset the records name, if their digest is that preset's (else the
        report says the rules are needed).
    :param key: the operator's HMAC key: every record must carry a valid ``hmac``.
    :param replay: deal every record again (from its seed, incrementally, so a whole
        log costs one deal a round; or from its shoe state) and compare every field;
        records of observed cards are dealt again on an ``ObservedTable`` instead.
    :param start_prev: the hash of the record before the log's first (``last_hash`` of
        the report on the log before it): a log that continues another. Without it, a
        log starts with its game's round 1.
    :param require_seal: the log must end with its game's seal (``Game.close()``): a
        log without one is bad (its last records may have been removed), not only
        reported ``sealed=False``.
    :param expect_last: the hash the log's last record must have (a hash kept apart from
        the log: ``last_hash`` of an earlier report, or of the seal, sent elsewhere as it
        was written): a log cut short, or grown, is then bad, naming both hashes.
    :param progress: called with the number of records read since its last call (in
        the calling thread; every few thousand records, and at the end).

    **A log cut short.** A hash chain shows that no record was changed, inserted or
    removed between two others, but not that the last ones are all there: a log whose
    end was cut off is a shorter good chain, and verifies ok. Two defences: the seal, a
    closing record after the last round (``Game.close()``, ``records.SealRecord``),
    which defends against a log cut short after it was closed (without the seal, the
    report says ``sealed=False``; with ``require_seal``, the log is bad); and
    ``expect_last``, a final hash anchored elsewhere (an audit system, a printed
    receipt), which defends against a log cut short or replaced by a shorter one whether
    or not it was sealed, and against records added after it. A seal is the log's last
    record: one with records after it, one that does not follow the last round (moved,
    doubled), one whose totals are not the records' own, or whose chain or HMAC fails,
    is a bad record. A seal without its key defends only as far as an unsigned chain
    does: whoever cuts the log can write a new seal; with a key, only its holder can.

    A dealt game's log is checked at the core's speed: once a record has passed every
    check at a shoe's first round, each line that is, byte for byte, the line its
    replay writes is accepted at once (``sanggong.verify._fastlog``); any other line gets the
    full checks below, so the verdicts and their reasons are the same.

    Each line is checked in this order, and the first failure is reported: it is a
    strict record (``RoundRecord.from_json``: size, JSON, every field, every derived
    field, the hash of its canonical bytes); ``prev`` is the previous line's hash (the
    zero hash, or ``start_prev``, for line 1); the ``hmac`` is present and valid (with a
    key); the rules digest is the rules' (the same on every line); rounds follow one
    another; the same source (seed, shoe state, or neither) and the same seed on every
    line; shoes follow one another (the next round of a shoe, or after the last round of
    a shoe round 1 of the next; a fresh-deck table's every round is the last of its
    deck; observed cards may start a new shoe after any round, as the house may
    shuffle); stakes carried from a round are in the next round's bets, at least as
    much and of the same money kind; and, with ``replay``, the record deals and settles
    again exactly.

    :returns: a ``VerifyReport``; a bad log never raises.
    :raises TypeError: an argument of a wrong type (a line that is not text).
    :raises ValueError: a bad argument (an empty key, a ``start_prev`` or ``expect_last``
        that is not a hash).
    :raises OSError: the file cannot be opened or read.
    """
    reader = LogReader(log, rules, key=key, replay=replay, start_prev=start_prev, require_seal=require_seal,
                       expect_last=expect_last)
    check_progress(progress)
    return reader._run(progress)


class LogFiles:
    """A game's log kept in several files, read as one log (give it as ``verify_log``'s
    or ``LogReader``'s ``log``): each file's lines after the one before's (its first record
    going on from that one's last record), checked across the files as within one, and
    numbered within their file. ``sanggong.detection`` reads a game's logs this way.

    :param paths: the files, in the order of the game's chain.
    :ivar at: the file being read (an index of ``paths``), by the reader reading them.
    """

    def __init__(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        if isinstance(paths, str | bytes | os.PathLike) or not isinstance(paths, Iterable):
            raise TypeError(f"give LogFiles the log's files as a list of paths, not {type(paths).__name__}")
        self.paths = tuple(paths)
        for path in self.paths:
            if not isinstance(path, str | os.PathLike):
                raise TypeError(f"a log's file is a path (str or PathLike), not {type(path).__name__}")
        if not self.paths:
            raise ValueError("LogFiles: give at least one file")
        self.at = 0

    def where(self) -> str:
        """The file being read (the one a bad line is in), and the one it goes on from."""
        path = os.fspath(self.paths[self.at])
        return f"{path} (going on from {os.fspath(self.paths[self.at - 1])})" if self.at else path


class LogReader:
    """The round records of a log, one at a time, each yielded once it has passed every
    check ``verify_log`` makes (the same arguments); iteration stops at the first bad
    record, and ``report()`` then says why. A seal (the log's last record, checked) ends
    the rounds: it is not yielded, and a line after it is bad. One pass over a log can so check it and feed its
    records to another reader; ``checked()`` hands them as a typed stream at the fast pass's speed
    (``sanggong.detection`` reads a log this way).

    Thread-safety: one reader is read by one thread (it is an iterator over a file).
    """

    def __init__(
        self,
        log: str | os.PathLike[str] | BinaryIO | Iterable[str] | LogFiles,
        rules: RuleSet | str | None = None,
        *,
        key: bytes | None = None,
        replay: bool = True,
        start_prev: str | None = None,
        require_seal: bool = False,
        expect_last: str | None = None,
    ) -> None:
        checked_rules = as_rules(rules, optional=True)
        checked_key = check_key(key)
        flag("replay", replay)
        flag("require_seal", require_seal)
        start_prev = ZERO_HASH if start_prev is None else check_hash(start_prev, "start_prev")
        if expect_last is not None:
            check_hash(expect_last, "expect_last")
        if isinstance(log, bytes | bytearray):
            raise TypeError("give a log as a path (str or PathLike) or as an iterable of lines, not bytes")
        if not isinstance(log, str | os.PathLike | Iterable | LogFiles):
            raise TypeError(f"give a log as a path or an iterable of lines, not {type(log).__name__}")
        self._log = log
        self._read_error: Exception | None = None  # (what stopped the lines, if a read failed)
        self._verifier = _Verifier(checked_rules, checked_key, replay, start_prev, require_seal=require_seal,
                                   expect_last=expect_last)

    @property
    def rules(self) -> RuleSet | None:
        """The rules the records are checked against (known once the first is read)."""
        return self._verifier.rules

    def __iter__(self) -> Iterator[RoundRecord]:
        yield from self._records(self._lines())

    def _lines(self) -> Iterator[tuple[int, Any]]:
        """The log's numbered lines. An error reading them (a file of ``LogFiles`` missing,
        a read failing) is kept as well as raised: the fast pass's loop leaves a line it
        cannot take to the full checks, and must not take a failed read for the log's end
        (``_passes`` raises it again)."""
        self._read_error = None
        try:
            yield from self._each_line()
        except Exception as exc:
            self._read_error = exc
            raise

    def _each_line(self) -> Iterator[tuple[int, Any]]:
        if isinstance(self._log, str | os.PathLike):
            with open(self._log, "rb") as handle:
                yield from enumerate(_file_lines(handle), start=1)
        elif isinstance(self._log, LogFiles):
            files = self._log
            for at, path in enumerate(files.paths):
                files.at = at
                with open(path, "rb") as handle:
                    yield from enumerate(_file_lines(handle), start=1)
        elif isinstance(self._log, io.BufferedIOBase | io.RawIOBase):
            yield from enumerate(_file_lines(self._log), start=1)
        else:
            yield from enumerate(_given_lines(self._log), start=1)

    def _run(self, progress: Callable[[int], None] | None = None) -> VerifyReport:
        """Read the log to its end or its first bad record (``verify_log``)."""
        verifier = self._verifier
        told = 0

        def tick(number: int) -> None:
            nonlocal told
            if progress is not None and number - told >= _PROGRESS_EVERY:
                progress(number - told)
                told = number

        for _ in self._passes(tick, keep=False):
            pass
        if progress is not None and verifier.count > told:
            progress(verifier.count - told)
        return verifier.report()

    def _passes(self, tick: Callable[[int], None] | None, keep: bool) \
            -> Iterator[Sequence[CheckedRound | CheckedRun]]:
        """Read the log to its end or its first bad record: each line by the full checks
        (``feed``), and by the fast pass's own loop wherever it takes over (``FastReplay.run``),
        calling ``tick(number)`` as lines are read. With ``keep``, yield the rounds read some
        at a time (``checked``): a record of the full checks alone (a ``CheckedRound``), and
        those of the fast pass's loop as runs within a shoe (``CheckedRun``), up to
        ``_SEEN_AT_A_TIME`` records at a go."""
        verifier = self._verifier
        lines = self._lines()
        most = _SEEN_AT_A_TIME if keep else -1
        for number, line in lines:
            while True:
                verifier.feed(number, line)  # (the full checks, which go on by the fast pass from a line they accept)
                if verifier.bad is not None:
                    return
                if tick is not None:
                    tick(number)
                if keep and verifier.seal_line != number:  # (a seal ends the rounds: detect reads none of it)
                    if verifier.last_line is not None:  # (the fast pass took the line from the full checks)
                        yield [verifier.fast.record()]
                    else:
                        assert verifier.last is not None
                        yield [CheckedRound.of(verifier.last)]
                rest = None
                while verifier.fast is not None:  # the fast pass's own loop, while it accepts the lines
                    seen: list[CheckedRun] | None = [] if keep else None
                    accepted, last, rest = verifier.fast.run(lines, _keeps, tick, seen, most)
                    if self._read_error is not None:  # (the loop ended on a failed read, not the log's end)
                        raise self._read_error
                    if accepted:
                        verifier.count += accepted
                        verifier.last_line = last
                        if seen:
                            yield seen
                    if rest is not None or accepted != most:
                        break
                if rest is None:
                    break  # (the end of the lines, or the full checks read on)
                number, line = rest

    def checked(self) -> Iterator[CheckedRound | CheckedRun]:
        """The log's rounds, checked as ``verify_log`` checks them (its fast pass included),
        as much of each record as a reader of stakes reads (``sanggong.detection`` reads a
        log this way): a round the full checks read is a ``CheckedRound``; rounds the fast
        pass accepted one after the other within a shoe come as one ``CheckedRun`` (its
        ``rounds()`` are the ``CheckedRound``\\ s the full checks would give). Iteration
        stops at the first bad record (``report()`` says why); a seal is not yielded.
        Read a reader's log once, by iterating it or by this."""
        for chunk in self._passes(None, keep=True):
            yield from chunk

    def _records(self, lines: Iterable[tuple[int, Any]]) -> Iterator[RoundRecord]:
        verifier = self._verifier
        verifier.no_fast = True  # (each record is made: the full checks make it)
        for number, line in lines:
            verifier.feed(number, line)
            if verifier.bad is not None:  # no need to read on (a file may never end)
                return
            assert verifier.last is not None
            if verifier.seal_line != number:  # (a seal ends the rounds; the lines after it are read, and bad)
                yield verifier.last

    def report(self) -> VerifyReport:
        """What the records read so far found (``verify_log``'s report)."""
        return self._verifier.report()
