"""``detect``, its report (``Detection``, ``PlayerStats``) and the statistic
(``shoe_terms``): ``sanggong.detection`` explains the test. A log is read through
``verify``'s typed stream (``LogReader.checked``) and tallied by ``_stakes.Tallier``."""

from __future__ import annotations

import functools
import io
import math
import os
import stat
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._checks import flag
from .._parallel import check_executor, check_progress, execute
from .._parallel import workers as workers_of
from .._presentation import html_sheet, pandas, percent
from ..limits import MAX_RECORD_BYTES
from ..records import ZERO_HASH, RoundRecord, SealRecord
from ..rules import RuleSet, as_rules
from ..verify import CheckedRound, LogFailed, LogFiles, LogReader, verify_log
from ._stakes import PLAYER, Names, Points, Staker, Tallier, Tally

if TYPE_CHECKING:  # pandas is optional (the "frame" extra), and typed only with pandas-stubs
    from pandas import DataFrame  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["Detection", "PlayerStats", "detect"]

Progress = Callable[[int], None]


# --- the statistic ------------------------------------------------------------------------------


def shoe_terms(evs: Sequence[Mapping[str, float]], stakes: Sequence[tuple[int, str, float]]) -> list[float]:
    """The martingale differences Y_k of one player over one shoe (see the module's doc).

    :param evs: each round's EV of every bet staked, before the round (``evs[k][bet]``).
    :param stakes: (round index in the shoe, bet, stake) of the player's stakes.
    :returns: Y_k for k = 0 .. len(evs) - 2 (the changes across each round but the last).
    """
    later: dict[str, float] = defaultdict(float)  # W_k(b): stakes on b after round k
    by_round: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for k, bet, stake in stakes:
        by_round[k].append((bet, stake))
    terms = [0.0] * max(len(evs) - 1, 0)
    for k in range(len(evs) - 2, -1, -1):  # from the shoe's end back, adding round k + 1's stakes
        for bet, stake in by_round.get(k + 1, ()):
            later[bet] += stake
        terms[k] = sum(w * (evs[k + 1][b] - evs[k][b]) for b, w in later.items() if w)
    return terms


def _tally_log(log: Any, rules: RuleSet | None, burned_seen: bool, verify: bool, key: bytes | None,
               progress: Progress | None = None) -> tuple[str, dict[Staker, Tally], int, int]:
    """One log (a path or lines; or a game's logs, a tuple of paths in the order of its
    chain, read as one log: ``LogFiles``) read and tallied; picklable, for any executor."""
    files = LogFiles(log) if isinstance(log, tuple) else None
    reader = LogReader(files if files is not None else log, rules, key=key, replay=verify)
    tally: Tallier | None = None
    try:
        told = 0
        for checked in reader.checked():  # checked by verify's fast pass where it can
            if tally is None:
                assert reader.rules is not None
                tally = Tallier(reader.rules, burned_seen, shared=True, helper=_second_core())
            tally.read(checked)
            if progress is not None and tally.records - told >= 1000:
                progress(tally.records - told)
                told = tally.records
        report = reader.report()
        if not report.ok:
            where = files.where() if files is not None else os.fspath(log) if isinstance(
                log, str | os.PathLike) else "the log"
            raise LogFailed(f"{where}: {report}", report)
        assert tally is not None and reader.rules is not None
        if progress is not None and tally.records > told:
            progress(tally.records - told)
        return reader.rules.name, tally.finish(), tally.records, tally.skipped
    finally:
        if tally is not None:
            tally.close()


@dataclass(frozen=True)
class _Ends:
    """Where a log file is in its game, from its first and last records, read before the
    log is (``_games``; picklable: read where the logs are, on an executor's workers).

    :ivar name: the file.
    :ivar starts: its first record is its game's first (round 1).
    :ivar anchor: the hash of its first record where it is the game's first, else of the
        record it goes on from (its ``prev``): two logs with the same anchor (and
        ``starts``) hold the same rounds.
    :ivar tail: the hash of its last record (a log goes on from it).
    :ivar seed: the rules' digest and the seed its rounds are dealt from, if a seed.
    :ivar rounds: its first and last rounds.
    """

    name: str
    starts: bool
    anchor: str
    tail: str
    seed: tuple[str | None, int] | None
    rounds: tuple[int, int]


def _ends(index: int, path: Any, rules: RuleSet | None, key: bytes | None) -> tuple[int, _Ends]:
    """A log file's ``_Ends``, and its place in the list; a file that is not a log (its
    first or last line not a record) raises ValueError, saying why as ``verify_log`` does."""
    name = os.fspath(path)
    if not stat.S_ISREG(os.stat(path).st_mode):  # (before opening it: a pipe's opening waits for a writer)
        raise ValueError(f"{name}: not a regular file; several logs are read from files (a pipe is read once: "
                         f"give it alone, or as a file)")
    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
        first = _record(handle.readline(MAX_RECORD_BYTES + 2))
        tail = _last_line(handle, info.st_size)
    last: RoundRecord | SealRecord | None = _record(tail) or _seal(tail)  # (a sealed log ends with its seal)
    if first is None or last is None:  # (a bad log: why, as verify says it)
        start = None if first is None or first.prev == ZERO_HASH else first.prev
        report = verify_log(path, rules, key=key, replay=False, start_prev=start)
        if report.ok:  # (a last line verify reads and this does not: never counted as a finding)
            raise ValueError(f"{name}: its first or last line is not a record of a log")
        raise LogFailed(f"{name}: {report}", report)
    starts = first.prev == ZERO_HASH
    end = last.rounds if isinstance(last, SealRecord) else last.round
    return index, _Ends(name, starts, first.hash if starts else first.prev, last.hash,
                        None if first.seed is None else (first.rules_digest, first.seed), (first.round, end))


def _seal(line: bytes | None) -> SealRecord | None:
    if line is None:
        return None
    try:
        return SealRecord.from_json(line.removesuffix(b"\n").removesuffix(b"\r"))
    except (ValueError, TypeError):
        return None


def _record(line: bytes | None) -> RoundRecord | None:
    if line is None:
        return None
    try:
        return RoundRecord.from_json(line.removesuffix(b"\n").removesuffix(b"\r"))
    except (ValueError, TypeError):
        return None


def _last_line(handle: Any, size: int) -> bytes | None:
    """A file's last line, as a log's lines are read (without its ``\n``); None where
    it is longer than a record may be."""
    block = 1 << 16
    while True:
        start = max(0, size - block)
        handle.seek(start)
        tail: bytes = handle.read(size - start)
        body = tail.removesuffix(b"\n")
        cut = body.rfind(b"\n")
        if cut >= 0 or start == 0:
            return body[cut + 1:]
        if block > MAX_RECORD_BYTES:
            return None
        block *= 4


def _games(paths: Sequence[Any], ends: Sequence[_Ends]) -> list[tuple[Any, ...]]:
    """Several log files as games: each game's files in the order of its chain (a file
    whose first record's ``prev`` is another's last record's hash goes on from it), the
    games in the order of their first files. A game is counted once: two files that hold
    a round of the same game (the same file twice, a copy, a log and a longer one, two
    logs going on from the same record, two games dealt from one seed) are refused,
    naming both and the rounds; so is a file that starts within a game and goes on from
    none of the files given."""
    def overlap(i: int, j: int, why: str = "") -> ValueError:
        (a, b), (c, d) = ends[i].rounds, ends[j].rounds
        lo, hi = max(a, c), min(b, d)
        rounds = f"round {lo}" if lo == hi else f"rounds {lo}-{hi}"
        both = f"{ends[i].name}, given twice," if ends[i].name == ends[j].name else \
            f"{ends[i].name} and {ends[j].name} both"
        return ValueError(f"{both} hold {rounds} of one game{why}: each round of a game is counted once (give "
                          f"each log once, and no log another holds)")

    for same in (lambda e: (e.starts, e.anchor), lambda e: e.tail):  # from the same record, or to the same one
        seen: dict[Any, int] = {}
        for i, e in enumerate(ends):
            j = seen.setdefault(same(e), i)
            if j != i:
                raise overlap(j, i)
    seeded: dict[tuple[str | None, int], list[int]] = defaultdict(list)  # (a seed deals the same cards, whatever
    # the bets: two games of one seed are one game's cards twice)
    for i, e in enumerate(ends):
        if e.seed is not None:
            seeded[e.seed].append(i)
    for group in seeded.values():
        group.sort(key=lambda i: ends[i].rounds)
        reach = group[0]  # the file reaching furthest so far
        for i in group[1:]:
            if ends[i].rounds[0] <= ends[reach].rounds[1]:
                raise overlap(reach, i, " (dealt from one seed)")
            reach = i
    after = {e.anchor: i for i, e in enumerate(ends) if not e.starts}  # each file going on from another's last
    games: list[tuple[Any, ...]] = []
    placed: set[int] = set()
    for i, e in enumerate(ends):
        if e.starts:
            chain = [i]
            while (following := after.get(ends[chain[-1]].tail)) is not None and following not in placed:
                chain.append(following)
                placed.add(following)
            placed.add(i)
            games.append(tuple(paths[k] for k in chain))
    for i, e in enumerate(ends):
        if i not in placed:
            raise ValueError(f"{e.name}: its first record, round {e.rounds[0]}, goes on from none of the logs "
                             f"given (a log starts its game at round 1, or goes on from another log's last record)")
    return games


def _second_core() -> bool:
    """Whether this process may run on more than one core (then a tallier computes its
    batches' sums on a helper thread, beside the reading)."""
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    return len(cores) > 1


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    """One player's stakes against the shoe (see ``sanggong.detect``).

    :ivar id: the player's id (a record's player), or an anonymous staker's
        (``"position <p>"`` or ``"table"``, for a record of bets alone).
    :ivar rounds: rounds in which the player placed a stake.
    :ivar bets: stakes placed (a stake carried into a round is not one).
    :ivar units: the total staked, in minor units (a Decimal's in units of the rules'
        ``minor_unit``).
    :ivar mean_ev: the stake-weighted exact EV per unit at the moments of betting.
    :ivar baseline_ev: the same stakes' EV had they been placed without knowledge of the
        shoe: each bet's fresh-shoe EV, stake-weighted.
    :ivar z: the test statistic (None where there is no EV variation to follow).
    :ivar p_value: P(Z >= z) under the null (1 where z is None).
    :ivar expected_gain_per_100: units the player is expected to win per 100 rounds, from
        the exact EVs, over the rounds from the player's first stake to the last.
    :ivar flagged: the p-value passes Holm's correction at ``alpha`` over the players.
    :ivar kind: ``"player"`` (a record's player), or the anonymous staker's: ``"position"``
        or ``"table"``. A player and an anonymous staker are never one, whatever the
        player's id reads as (a player may be called ``"table"``): ``(kind, id)`` names
        each once (``key``).
    """

    id: str
    rounds: int
    bets: int
    units: float
    mean_ev: float
    baseline_ev: float
    z: float | None
    p_value: float
    expected_gain_per_100: float
    flagged: bool
    kind: str

    @property
    def key(self) -> tuple[str, str]:
        """``(kind, id)``: the staker, told apart from any other."""
        return (self.kind, self.id)

    @property
    def anonymous(self) -> bool:
        """An anonymous staker of a record of bets alone (a position, or the table)."""
        return self.kind != PLAYER

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "rounds": self.rounds, "bets": self.bets, "units": self.units,
                "mean_ev": self.mean_ev, "baseline_ev": self.baseline_ev, "z": self.z, "p_value": self.p_value,
                "expected_gain_per_100": self.expected_gain_per_100, "flagged": self.flagged}


NO_STAKES = "the log holds no stakes"
"""``Detection.note`` of records that hold no stake (no player to test)."""


@dataclass(frozen=True)
class Detection(Mapping[str | Staker, PlayerStats]):
    """What ``detect`` found: every player, the most suspect first (by p-value). It is a
    read-only mapping of each staker's name to its :class:`PlayerStats`, in the order of
    ``players``: its id (``found["ann"]``), or its ``(kind, id)`` where a player and an
    anonymous staker share the id (a player called ``"table"``: ``found["player",
    "table"]``, ``found["table", "table"]``; a pair names a staker either way). Equality
    is the dataclass's; ``points`` is keyed alike.
    """

    rules: str
    alpha: float
    records: int
    skipped: int
    players: tuple[PlayerStats, ...]
    points: Mapping[Staker | str, tuple[tuple[float, float], ...]] = field(default_factory=dict, compare=False,
                                                                           repr=False)

    @property
    def flagged(self) -> tuple[PlayerStats, ...]:
        return tuple(p for p in self.players if p.flagged)

    def __getitem__(self, player: str | Staker) -> PlayerStats:
        return self._by_key[self._names.find(player)]

    def __iter__(self) -> Iterator[str | Staker]:
        return iter(self._names.by_name)

    def __len__(self) -> int:
        return len(self.players)

    @functools.cached_property
    def _names(self) -> Names:
        return Names(p.key for p in self.players)

    @functools.cached_property
    def _by_key(self) -> dict[Staker, PlayerStats]:
        return {p.key: p for p in self.players}

    @property
    def note(self) -> str | None:
        """Why no player is found, where none is: ``NO_STAKES`` (the records read hold no
        stake: rounds dealt without bets; those of a shoe begun before a log are not
        read); None where there are players."""
        if self.players:
            return None
        return NO_STAKES if not self.skipped else f"{NO_STAKES} in the records read"

    def to_dict(self) -> dict[str, Any]:
        """``{"rules", "alpha", "records", "skipped", "players": [...]}``, and ``"note"``
        where there is one: strict JSON."""
        out: dict[str, Any] = {"rules": self.rules, "alpha": self.alpha, "records": self.records, "skipped": self.skipped,
               "players": [p.to_dict() for p in self.players]}
        if self.note is not None:
            out["note"] = self.note
        return out

    def to_frame(self) -> DataFrame:
        """One row per player, indexed by id, its ``kind`` a column (pandas: the ``frame``
        extra). An id may index two rows: a player's and an anonymous staker's."""
        pd = pandas()
        rows = [p.to_dict() for p in self.players]
        frame = pd.DataFrame.from_records(rows, index="id") if rows else pd.DataFrame(
            columns=[f for f in PlayerStats.__dataclass_fields__ if f != "id"])
        frame.attrs.update(rules=self.rules, alpha=self.alpha, records=self.records, skipped=self.skipped)
        return frame

    def _repr_html_(self) -> str:
        header = ("player", "kind", "rounds", "bets", "units", "mean EV", "baseline EV", "z", "p-value", "gain/100",
                  "flagged")
        rows = [(p.id, p.kind, f"{p.rounds:,}", f"{p.bets:,}", f"{p.units:,.0f}", percent(p.mean_ev), percent(p.baseline_ev),
                 "" if p.z is None else f"{p.z:.2f}", f"{p.p_value:.3g}", f"{p.expected_gain_per_100:+.2f}",
                 "yes" if p.flagged else "") for p in self.players]
        return html_sheet("detection", f"Detection: {self.rules}, {self.records:,} records, alpha {self.alpha}",
                           header, rows)

    def plot(self, path: str | os.PathLike[str], players: Iterable[str | Staker] | None = None) -> None:
        """Each flagged player's (or ``players``': ids or ``(kind, id)``) stakes against the
        bet's EV at the moment of betting, saved to ``path`` (matplotlib: the ``plot`` extra);
        an anonymous staker's label says so. KeyError for a player the report does not hold."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        chosen = list(self.flagged) if players is None else [self[player] for player in players]
        fig, ax = plt.subplots(figsize=(8, 4.5))
        try:
            for player in chosen:
                points = self.points.get(player.key, ())
                label = f"{player.id} (anonymous)" if player.anonymous else player.id
                ax.scatter([100 * e for e, _ in points], [s for _, s in points], s=6, alpha=0.5, label=label)
            ax.axvline(0, color="black", linewidth=1)
            ax.set_xlabel("exact EV of the bet when the stake was placed (%)")
            ax.set_ylabel("stake (minor units)")
            ax.set_title(f"{self.rules}: stakes against the shoe")
            if chosen:
                ax.legend(fontsize="small")
            fig.tight_layout()
            fig.savefig(path)
        finally:
            plt.close(fig)


def _holm(p_values: Sequence[float], alpha: float) -> list[bool]:
    """Holm's step-down rejections at family-wise level ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    flagged = [False] * len(p_values)
    m = len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] < alpha / (m - rank):
            flagged[i] = True
        else:
            break
    return flagged


def _results(rules: str, alpha: float, tallies: Mapping[Staker, Tally], records: int, skipped: int) -> Detection:
    ids = sorted(tallies)
    stats = []
    for player in ids:
        t = tallies[player]
        z = t.excess / math.sqrt(t.square) if t.square > 0 else None
        p = 0.5 * math.erfc(z / math.sqrt(2)) if z is not None else 1.0
        stats.append((player, t, z, p, t.span))
    flagged = _holm([p for _, _, _, p, _ in stats], alpha)
    players = [
        PlayerStats(
            id=player[1], kind=player[0], rounds=t.rounds, bets=t.bets, units=t.units,
            mean_ev=t.ev_units / t.units if t.units else 0.0, baseline_ev=t.base_units / t.units if t.units else 0.0,
            z=z, p_value=p, expected_gain_per_100=100 * t.ev_units / span if span else 0.0, flagged=f,
        )
        for (player, t, z, p, span), f in zip(stats, flagged, strict=True)
    ]
    players.sort(key=lambda s: (s.p_value, s.id, s.kind))
    return Detection(rules, alpha, records, skipped, tuple(players),
                     Points({player: tallies[player].points for player in ids}))


# --- the entry point --------------------------------------------------------------------------


def detect(
    records: Iterable[RoundRecord] | str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    rules: RuleSet | str | None = None,
    *,
    alpha: float = 0.001,
    burned_seen: bool = False,
    verify: bool = False,
    key: bytes | None = None,
    workers: int | None = 1,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> Detection:
    """Test every player of a log for stakes that follow the shoe (see the module's doc).

    :param records: the ``RoundRecord`` objects of one game in order (each record going
        on from the one before), a log's path (or a binary file: ``sys.stdin.buffer``), or
        a list of paths of log files (several logs: each game read on its own, the
        players' sums added). A game is counted once: logs are known by their records'
        hash chain (the first record's, the last's, the one each goes on from) and seed,
        and two that hold the same round of a game (a log given twice, a copy, a log and a
        longer one) are refused, naming both and the rounds. A log that goes on from
        another given (its first record's ``prev`` is that one's last record's hash) is
        read with it as one game, in whatever order the two are given.
    :param rules: the rules played under (a ``RuleSet`` or a preset's name); None: the
        preset the records name.
    :param alpha: the family-wise error rate of ``flagged`` (Holm's correction).
    :param burned_seen: count burned cards as seen (by default they are unseen).
    :param verify: a log is read through ``verify_log``'s checks in the same pass (its
        chain, every record's hash, and by default not replayed: ``verify=True`` deals
        every round again too); a log that fails them raises ValueError.
    :param key: the operator's HMAC key, checked on every record of a log.
    :param workers: processes reading several logs at once (None: every core).
    :param executor: read several logs on this executor instead (e.g. Dask's).
    :param progress: called with the number of records read since its last call.
    """
    rules = as_rules(rules, optional=True)
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a probability strictly between 0 and 1, got {alpha!r}"[:120])
    flag("burned_seen", burned_seen)
    flag("verify", verify)
    check_progress(progress)
    check_executor(executor)
    window = workers_of(workers)
    if isinstance(records, str | os.PathLike | io.BufferedIOBase | io.RawIOBase):
        name, tallies, count, skipped = _tally_log(records, rules, burned_seen, verify, key, progress)
        return _results(name, float(alpha), tallies, count, skipped)
    if isinstance(records, bytes | bytearray):
        raise TypeError("records: give RoundRecords, a log's path or a list of paths, not bytes")
    if not isinstance(records, Iterable):
        raise TypeError(f"records: give RoundRecords, a log's path or a list of paths, not {type(records).__name__}")
    items = list(records) if isinstance(records, Sequence) else None
    if items is not None and items and all(isinstance(x, str | os.PathLike) for x in items):
        return _many(items, rules, float(alpha), burned_seen, verify, key, window, executor, progress)
    given = items if items is not None else records
    if verify or key is not None:  # checked as a log is: through its lines
        name, tallies, count, skipped = _tally_log((_line(r) for r in given), rules, burned_seen, verify, key,
                                                   progress)
        return _results(name, float(alpha), tallies, count, skipped)
    tallier: Tallier | None = None
    last = ""
    for record in given:  # the caller's own records, in order: read as they are
        if not isinstance(record, RoundRecord):
            raise TypeError(f"records: a log holds RoundRecords, not {type(record).__name__}")
        if tallier is None:
            tallier = Tallier(rules if rules is not None else _rules_of(record), burned_seen)
        elif record.rules != tallier.rules.name:
            raise ValueError(f"records: round {record.round} was played under {record.rules!r}, not "
                             f"{tallier.rules.name!r}")
        elif record.prev != last:
            raise ValueError(f"records: round {record.round} does not go on from the record before it (its prev "
                             f"is not that record's hash): give one game's records in order, each once")
        last = record.hash
        tallier.feed(CheckedRound.of(record))
        if progress is not None and tallier.records % 1000 == 0:
            progress(1000)
    if tallier is None:
        raise ValueError("records: no record to read")
    if progress is not None:
        progress(tallier.records % 1000)
    return _results(tallier.rules.name, float(alpha), tallier.finish(), tallier.records, tallier.skipped)


def _rules_of(record: RoundRecord) -> RuleSet:
    from ..records import rules_digest
    from ..rules import PRESETS

    preset = PRESETS.get(record.rules)
    if preset is None or rules_digest(preset) != record.rules_digest:
        raise ValueError(f"records: their rules {record.rules!r} are not a preset's: give the rules they were "
                         f"played under")
    return preset


def _line(record: object) -> str:
    if not isinstance(record, RoundRecord):
        raise TypeError(f"records: a log holds RoundRecords, not {type(record).__name__}")
    return record.to_json()


def _numbered(index: int, *task: Any) -> tuple[int, tuple[str, dict[Staker, Tally], int, int]]:
    """``_tally_log(*task)`` and the log's place in the list (picklable, for any executor)."""
    return index, _tally_log(*task)


def _many(paths: list[Any], rules: RuleSet | None, alpha: float, burned_seen: bool, verify: bool,
          key: bytes | None, window: int, executor: Executor | None, progress: Progress | None) -> Detection:
    names: set[str] = set()
    total: dict[Staker, Tally] = defaultdict(Tally)
    counts = [0, 0, 0]  # records, skipped, logs added

    done: dict[int, tuple[str, dict[Staker, Tally], int, int]] = {}

    def absorb(numbered: tuple[int, tuple[str, dict[Staker, Tally], int, int]]) -> None:
        """Add each log's sums in the order of the logs, whatever order they end in (float
        sums, and the points kept, are so the same on any executor)."""
        index, result = numbered
        if progress is not None:
            progress(result[2])
        done[index] = result
        while counts[2] in done:
            name, tallies, count, skipped = done.pop(counts[2])
            names.add(name)
            for player, tally in tallies.items():
                total[player].add(tally)
            counts[0] += count
            counts[1] += skipped
            counts[2] += 1

    found: dict[int, _Ends] = {}  # each log's place in its game, read where the logs are read
    peeks = ((index, path, rules, key) for index, path in enumerate(paths))
    if executor is None:
        for peek in peeks:
            found.update([_ends(*peek)])
    elif execute(peeks, _ends, executor, 2 * window, lambda pair: found.update([pair]), None):
        raise KeyboardInterrupt
    games = _games(paths, [found[i] for i in range(len(paths))])
    tasks = ((index, game if len(game) > 1 else game[0], rules, burned_seen, verify, key)
             for index, game in enumerate(games))
    if executor is None and window == 1:
        for task in tasks:
            absorb(_numbered(*task))
    elif executor is None:
        with ProcessPoolExecutor(max_workers=window) as pool:
            if execute(tasks, _numbered, pool, 2 * window, absorb, None):
                raise KeyboardInterrupt
    elif execute(tasks, _numbered, executor, 2 * window, absorb, None):
        raise KeyboardInterrupt
    if len(names) > 1:
        raise ValueError(f"the logs were played under different rules ({', '.join(sorted(names))}): detect one "
                         f"table's logs at a time")
    return _results(names.pop(), alpha, total, counts[0], counts[1])
