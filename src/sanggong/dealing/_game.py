"""A game: a table that owns its shoe and its random numbers and plays round after round,
recording each (``Game``), and replays of its records (``Replayer``) (``sanggong.dealing``)."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .. import _kernels
from .._checks import count, memory
from .._spec import pcg64 as _pcg64
from .._threads import locked, new_lock
from ..hands import HandValue
from ..limits import MAX_RECALL, MAX_REPLAY_ROUNDS, MAX_ROUND
from ..records import (
    ZERO_HASH,
    RoundRecord,
    RoundWriter,
    SealRecord,
    Totals,
    bit_generator_from_state,
    check_key,
    check_rules,
    make_record,
    record_amounts,
    rules_digest,
)
from ..rules import RuleSet, as_rules
from ..seeds import SeedLike, pcg64_state, recorded_seed
from ..settlement import Money, TableSession, carry, check_slip
from ._procedure import Deal, GameShoe

if TYPE_CHECKING:
    import numpy as np

_FAST = True  # a game of its own generator deals a shoe ahead and writes through RoundWriter (tests turn it off)

__all__ = [
    "CANNOT_REPLAY", "COMPARED", "CannotCheck", "Game", "GameLog", "Replayer", "Sealable", "check_bets", "compare_records",
    "positioned_game",
]

# --- a game -------------------------------------------------------------------------------


def _bit_generator(seed: object, rng: object) -> tuple[Any, int | None]:
    """The game's bit generator, and the int seed its records carry (None where no int
    re-creates it: records then carry the shoe's state). A seed's is the kernels' own
    PCG64 (``_kernels.kernels.PCG64``), in the state numpy's ``PCG64`` seeded with it holds
    (``seeds.pcg64_state``): numpy's words, and no NumPy for an int's."""
    if rng is not None:
        if seed is not None:
            raise TypeError("give a seed or an rng, not both")
        if isinstance(rng, _kernels.kernels.PCG64 | _pcg64.PCG64):  # (the kernels' own: a replay's, from a state)
            return rng, None
        import numpy as np

        if isinstance(rng, np.random.Generator):
            return rng.bit_generator, None
        if isinstance(rng, np.random.BitGenerator):
            return rng, None
        raise TypeError(f"rng must be a numpy Generator or BitGenerator, not {type(rng).__name__}")
    recorded = recorded_seed(seed)  # its size checked before anything hashes it
    return _kernels.kernels.PCG64(pcg64_state(recorded)), recorded if isinstance(recorded, int) else \
        recorded.state_int


class GameLog:
    """A game's log as its records are made: their money (``records.Totals``), the round
    and shoe of the last, and its seal once closed (``close``), after which it takes no
    more rounds. A ``Sealable`` table holds one: ``check_open`` before a round,
    ``recorded`` after one."""

    def __init__(self) -> None:
        self.totals = Totals()
        self.last: tuple[int, int] | None = None  # the round and shoe of the last record
        self.seal: SealRecord | None = None

    def check_open(self) -> None:
        """Refuse a round once the log is sealed."""
        if self.seal is not None:
            raise ValueError(f"the game was closed after round {self.seal.rounds} (its log sealed): it deals "
                             f"no more rounds")

    def recorded(self, record: RoundRecord) -> None:
        """Keep ``record``'s money and place."""
        self.totals.add(record_amounts(record))
        self.last = record.round, record.shoe

    def close(self, rules: RuleSet, seed: int | None, key: bytes | None, prev: str,
              carried: Mapping[str, Money]) -> SealRecord:
        """The seal of the records made (``Game.close``), which closes the log: chained to
        ``prev``, signed with ``key``, its totals counting ``carried`` as on the table."""
        self.check_open()
        if self.last is None:
            raise ValueError("the game has recorded no round: there is no log to seal")
        totals = self.totals.values(carried)
        if totals is None:
            raise ValueError("the game's money totals are longer than a seal holds (its stakes are fractions of "
                             "too many denominators)")
        rounds, shoes = self.last
        seal = SealRecord(rules=rules.name, rules_digest=rules_digest(rules), seed=seed, rounds=rounds,
                          shoes=shoes, staked=totals["staked"], returned=totals["returned"],
                          commission=totals["commission"], on_table=totals["on_table"],
                          house_net=totals["house_net"], prev=prev)
        self.seal = seal.with_hmac(key) if key is not None else seal
        return self.seal


class Sealable:
    """A table whose records are one game's log, closed by its seal (``Game`` and
    ``ObservedTable``): its ``GameLog`` (``_log``), made as it starts, which keeps the
    money of its records and refuses rounds after ``close`` (the seal)."""

    rules: RuleSet
    _log: GameLog

    @property
    def sealed(self) -> bool:
        """The table was closed (``close``): it records no more rounds."""
        return self._log.seal is not None


RECORD_BYTES = 2048
"""A round record's memory without its hands and stakes, at most (bytes; measured with
tracemalloc in ``tests/test_memory_limits.py``, which holds the bound)."""
RECORD_HAND_BYTES = 512
"""What each hand of a round adds to its record, at most (bytes)."""
RECORD_STAKE_BYTES = 1024
"""What each stake of a round's slip adds to its record, at most (bytes)."""


def recall_bytes(rules: RuleSet, recall: int) -> int:
    """The memory ``recall`` round records of ``rules`` without stakes take, at most: what a
    ``Game`` keeping them asks of the machine before it deals."""
    return recall * (RECORD_BYTES + RECORD_HAND_BYTES * rules.hands)


class Game(Sealable):
    """A table that owns its shoe and its random numbers and plays round after round.

    :param rules: the rule set (already checked to deal a round from its cards), or a preset's
        name.
    :param seed: an int (0 .. 2**256 - 1), a ``SeedSequence``, a ``seeds.Seed`` or a numpy
        ``Generator`` (a 256-bit seed drawn from it, as every entry point does); None
        draws OS entropy (kept in ``seed``). ``seed`` holds the int that re-creates the
        game (None for a sequence no int re-creates: its records carry the shoe's state).
    :param rng: a numpy ``Generator`` or ``BitGenerator`` to deal every shuffle from
        instead (an operator's own generator: the records carry its state).
    :param recall: how many round records the game keeps (``records``), at most
        ``limits.MAX_RECALL``, and at most what the machine's memory holds: a record
        takes up to ``recall_bytes(rules, 1)`` bytes without stakes, and up to
        ``RECORD_STAKE_BYTES`` more for each stake (a ``MemoryError`` before anything is
        dealt where ``recall`` records without stakes would not fit).
    :param key: the operator's HMAC key: every record then carries an ``hmac``.

    The records of one game form a hash chain; write each as a line of a log
    (``record.to_json()``, or the lines of many rounds at once: ``lines``) and check the
    log with ``sanggong.verify.verify_log``. A chain
    cannot show that its last records are all there: ``close()`` ends the game with a
    seal (``records.SealRecord``), the log's last line, which ``verify_log`` checks.

    Thread-safety: safe to share between threads. Each call holds the game's lock, so
    concurrent ``play`` calls deal one round each, numbered and chained in the order they
    took the lock (``sanggong._threads``). A bit generator given as ``rng`` is drawn under
    its own lock, as numpy asks.
    """

    def __init__(
        self,
        rules: RuleSet | str,
        seed: SeedLike = None,
        *,
        rng: np.random.Generator | np.random.BitGenerator | None = None,
        recall: int = 10,
        key: bytes | None = None,
    ) -> None:
        rules = as_rules(rules)
        memory(f"Game(recall={count('recall', recall, MAX_RECALL, low=0):,})", recall_bytes(rules, recall),
               "a smaller recall (a log keeps every round: write each record as it is played)")
        self._key = check_key(key)
        self.rules = rules
        bit_generator, self.seed = _bit_generator(seed, rng)
        self._shoe = GameShoe(rules, bit_generator, ahead=rng is None and _FAST)  # (a generator of its own)
        self._writer: RoundWriter | None = None
        self._session = TableSession(rules)
        self._records: deque[RoundRecord] = deque(maxlen=recall)
        self._prev = ZERO_HASH
        self._lock = new_lock()
        self.round = 0
        self._log = GameLog()

    @property
    @locked
    def records(self) -> tuple[RoundRecord, ...]:
        """The last ``recall`` rounds, oldest first."""
        return tuple(self._records)

    @property
    def carried(self) -> Mapping[str, Money]:
        """Stakes on the table from the last round."""
        return self._session.carried

    @locked
    def deal(self) -> Deal:
        """Deal a round without bets (kept in no record)."""
        self._log.check_open()
        deal, _ = self._shoe.deal_round()
        self.round += 1
        return deal

    @locked
    def play(self, bets: Mapping[str, Money] | None = None) -> RoundRecord:
        """Deal a round, settle ``bets`` (plus any carried stakes) and record it."""
        self._log.check_open()
        if self._shoe.ahead:
            _, record = self._write(bets, True)
            assert record is not None
            return record
        slip = self._session.slip(bets or {})  # checked before any card comes out
        record = self._next(slip, self._session, prev=self._prev, key=self._key)
        self._prev = record.hash
        self._records.append(record)
        self._log.recorded(record)
        return record

    def lines(self, rounds: int, bets: Mapping[str, Money] | None = None) -> Iterator[str]:
        """Play ``rounds`` rounds, each settling ``bets`` (plus any carried stakes), and
        give each round's line of the log (``record.to_json()`` of the record ``play``
        makes, without making it where the game keeps none: ``recall=0``), as it is
        played. A game of its own generator writes them from the core's template a shoe
        at a time; the log's text is ``play``'s, byte for byte.

        >>> from sanggong import MACAU
        >>> a, b = Game(MACAU, seed=4, key=b"k"), Game(MACAU, seed=4, key=b"k", recall=0)
        >>> [a.play({"win:1": 100}).to_json() for _ in range(30)] == list(b.lines(30, {"win:1": 100}))
        True

        :raises ValueError: ``rounds`` not a whole number of rounds, the game closed, a
            bad slip (as ``play``: raised as the round is played).
        """
        count("rounds", rounds, MAX_ROUND, low=0)
        return self._lines(rounds, bets)

    def _lines(self, rounds: int, bets: Mapping[str, Money] | None) -> Iterator[str]:
        while rounds:
            lines, error = self._shoe_lines(rounds, bets)
            rounds -= len(lines)
            yield from lines
            if error is not None:
                raise error

    @locked
    def _shoe_lines(self, rounds: int, bets: Mapping[str, Money] | None) -> tuple[list[str], Exception | None]:
        """The lines of up to ``rounds`` rounds, to the end of the shoe (under one hold of
        the lock), and the error that stopped them (None: none did)."""
        lines: list[str] = []
        try:
            self._log.check_open()
            if not self._shoe.ahead:
                return [self.play(bets).to_json()], None
            keep = self._records.maxlen != 0
            while len(lines) < rounds:
                lines.append(self._write(bets, keep)[0])
                if self._shoe.last:
                    break
        except (ValueError, TypeError) as exc:  # (a bad slip, the game closed: after the lines made before it)
            return lines, exc
        return lines, None

    def _write(self, bets: Mapping[str, Money] | None, keep: bool) -> tuple[str, RoundRecord | None]:
        """Play a round through the game's writer (``RoundWriter``): its line, and its
        record where ``keep``."""
        writer = self._writer
        if writer is None:
            writer = self._writer = RoundWriter(self.rules, self.seed, self._key)
        session = self._session
        slip = writer.slip(session, {} if bets is None else bets)  # checked before any card comes out
        self._shoe.next_round()
        self.round += 1
        line, record, settled, digest = writer.write(self._shoe, self.round, slip, self._prev, keep)
        carry(session, settled.session)  # (the writer settled the slip once for these outcomes; under the lock)
        writer.carried_key = settled.carried_key
        self._prev = digest
        if record is not None:
            self._records.append(record)
        log = self._log
        if settled.amounts:
            log.totals.add(settled.amounts)
        log.last = self.round, self._shoe.number
        return line, record

    @locked
    def close(self) -> SealRecord:
        """End the game: its seal, the last line of its log, chained to the last round's
        record and signed like it, stating the rules, the seed, the last round and shoe,
        and the money of every round (``records.SealRecord``). The game then deals no
        more rounds (``play`` and ``deal`` raise ValueError).

        A hash chain cannot show that a log's last records were removed: a log cut short
        is a shorter good chain. Its seal can: ``verify.verify_log`` reports a log that
        does not end with its seal (and with ``require_seal=True`` refuses it).

        >>> from sanggong import MACAU
        >>> game = Game(MACAU, seed=3)
        >>> records = [game.play({"win:1": 100}) for _ in range(20)]
        >>> seal = game.close()
        >>> seal.rounds, seal.prev == records[-1].hash, seal.house_net == seal.staked - seal.returned
        (20, True, True)

        :raises ValueError: the game has recorded no round, was closed already, or (stakes
            that are fractions of ever new denominators) its totals are longer than a seal
            holds (``records._seal.MAX_TOTAL_TEXT``).
        """
        return self._log.close(self.rules, self.seed, self._key, self._prev, self._session.carried)

    @locked
    def _next(self, slip: Mapping[str, Money], session: TableSession, *, prev: str, key: bytes | None) -> RoundRecord:
        deal, cut = self._shoe.deal_round()
        state = self._shoe.state  # as the shoe was shuffled: enough to deal this round again
        self.round += 1
        result = session.settle_slip(deal.banker, deal.hands, slip) if slip else None
        return make_record(
            self.rules, deal, result, slip, round_=self.round, shoe=self._shoe.number,
            round_in_shoe=self._shoe.rounds, last=self._shoe.last, cut=cut, seed=self.seed,
            state=state, carried=session.carried, prev=prev, key=key,
        )

    @classmethod
    def replay(
        cls, rules: RuleSet | str, seed: int, round: int, bets: Mapping[str, Money] | None = None
    ) -> RoundRecord:
        """Round ``round`` (from 1) of the game seeded with ``seed``, dealt again and
        settled with ``bets`` (give the record's ``bets`` to re-settle it as it was).
        The result is a one-record game's (its ``prev`` is the zero hash)."""
        if isinstance(round, bool) or not isinstance(round, int) or round < 1:
            raise ValueError(f"round must be 1 or more, got {round!r}")
        if round - 1 > MAX_REPLAY_ROUNDS:
            raise ValueError(f"round: a replay deals at most {MAX_REPLAY_ROUNDS} rounds before its own, got {round}")
        game = cls(rules, seed, recall=1)
        for _ in range(round - 1):
            game._shoe.skip()
        game.round = round - 1
        return game.play(bets)  # nothing is carried into it: the earlier rounds had no bets

    @classmethod
    def replay_record(cls, rules: RuleSet | str, record: RoundRecord) -> RoundRecord:
        """Deal ``record``'s round again from its own evidence, settle its bets, and
        compare every field of the result with the record; return the result.

        With a ``seed``, the game is dealt again from the seed up to the record's round:
        that derives the round, shoe and round-in-shoe numbers and the shoe's state, and
        all must be the record's. Without one (a bit generator of your own), the round
        is dealt again from ``shoe_state`` (a bit generator of ``records.REPLAYABLE``
        only) for ``round_in_shoe`` rounds; its round and shoe numbers are then the
        record's (a log's chain checks them: ``verify.verify_log``). The record must
        carry the digest of ``rules``. ``prev`` and ``hmac`` are the record's (nothing
        deals them).

        :raises ValueError: ``record round N: field 'F' disagrees with the replay``,
            naming the first field that differs (or what cannot be replayed).
        """
        replayer = Replayer(rules)
        try:
            return replayer.check(record)
        except ValueError as exc:
            raise ValueError(f"record round {record.round}: {exc}") from None


# --- replays -------------------------------------------------------------------------------


class CannotCheck(ValueError):
    """A record that cannot be dealt again here, which says nothing about whether it was
    tampered with: ``verify_log`` reports it as unchecked, never as bad."""


CANNOT_REPLAY: dict[str, frozenset[str]] = {"cython": frozenset(), "python": frozenset()}
"""The bit generators of ``records.REPLAYABLE`` each implementation cannot replay: none.
(Both draw ``next_uint64`` as numpy defines it, for MT19937 too; a generator added to
``REPLAYABLE`` that one of them cannot draw exactly would be named here, and its logs
reported as unchecked rather than tampered.)"""

COMPARED = ("void", "reshuffled", "seed", "round", "shoe", "round_in_shoe", "shoe_state", "cut_card", "last_of_shoe",
             "head_card", "burned", "banker", "hands", "bets", "results", "carried")


def _compared(value: object) -> object:
    """A field as compared: hands as their cards and value (``HandValue`` s are equal when
    equally strong: here the cards must agree too)."""
    if isinstance(value, HandValue):
        return value.cards, value.rank, value.pair_plus, value.ranking
    if isinstance(value, Mapping):
        return {k: _compared(v) for k, v in value.items()}
    return value


def compare_records(derived: RoundRecord, record: RoundRecord, how: str) -> None:
    for name in COMPARED:
        if _compared(getattr(derived, name)) != _compared(getattr(record, name)):
            raise ValueError(f"field {name!r} disagrees with {how}")
    if derived.hash != record.hash:  # every field agrees: the canonical forms must too
        raise ValueError(f"the record's canonical form disagrees with {how}")


def check_bets(rules: RuleSet, bets: Mapping[str, Money]) -> None:
    """Check a record's slip as a replay reads it: a ValueError naming the field ``bets``
    for a slip the rules refuse (``settlement.check_slip``)."""
    try:
        check_slip(rules, bets)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"field 'bets': {exc}") from None


def positioned_game(rules: RuleSet, state: Mapping[str, Any], seed: int | None, shoe: int, rounds_done: int,
                    round_: int) -> Game:
    """A game whose shoe ``shoe`` was shuffled from ``state`` (a record's ``shoe_state``)
    and has dealt ``rounds_done`` rounds, the game ``round_`` rounds: what a ``Replayer``
    continuing a log holds there (verify's fast pass hands it its game so)."""
    game = Game(rules, rng=bit_generator_from_state(state), recall=0)
    game.seed = seed
    dealer = game._shoe
    dealer.number = shoe - 1  # the first deal shuffles: shoe `shoe`
    for _ in range(rounds_done):
        dealer.skip()
    game.round = round_
    return game


class Replayer:
    """Deal a game's records again, one after the other, and compare every field.

    A record that follows the last one replayed (round + 1) continues its game, so a
    whole log costs one deal a round and every field of every record, its seed
    included, is derived from the first; any other record starts again, from its seed
    (dealing the rounds before it) or from its shoe state. ``Game.replay_record``
    replays one record; ``verify.verify_log`` replays a log with one ``Replayer``.

    :param rules: the rules the records were played under (a ``RuleSet`` or a preset's name).

    >>> import dataclasses
    >>> from sanggong import MACAU
    >>> game = Game(MACAU, seed=5)
    >>> records = [game.play({"win:1": 100}) for _ in range(40)]
    >>> replayer = Replayer(MACAU)
    >>> all(replayer.check(record) == record for record in records)
    True
    >>> replayer.check(dataclasses.replace(records[-1], bets={"win:1": 200}))
    Traceback (most recent call last):
    ...
    ValueError: field 'results' disagrees with the replay

    Thread-safety: safe to share between threads; each ``check`` holds the replayer's
    lock (records checked from several threads are checked one at a time).
    """

    def __init__(self, rules: RuleSet | str) -> None:
        rules = as_rules(rules)
        self.rules = rules
        self.game: Game | None = None
        self._lock = new_lock()

    @locked
    def check(self, record: RoundRecord) -> RoundRecord:
        """Deal ``record``'s round again, settle its bets and compare every field of the
        result with the record's; return the result (with the record's ``prev`` and
        ``hmac``, which nothing deals: ``verify.verify_log`` checks the chain).

        :raises ValueError: naming the first field that disagrees with the replay, or
            what cannot be replayed (an observed round: see ``Resettler``).
        """
        if not isinstance(record, RoundRecord):
            raise TypeError(f"record must be a RoundRecord, not {type(record).__name__}")
        check_rules(record, self.rules)
        game = self.game
        self.game = None  # until this record replays equal
        if game is None or record.round != game.round + 1:
            state = record.shoe_state
            generator = state.get("bit_generator") if isinstance(state, Mapping) else None
            if generator in CANNOT_REPLAY.get(_kernels.kernels.IMPLEMENTATION, ()):
                raise CannotCheck(f"the {_kernels.kernels.IMPLEMENTATION} implementation cannot replay the bit "
                                  f"generator {generator}: check this log with the other one")
            if record.seed is not None:
                game = self._from_seed(record)
            elif state is not None:
                game = self._from_state(record)
            else:
                raise ValueError("no seed and no shoe state (an observed round): nothing to replay")
        check_bets(self.rules, record.bets)
        derived = game._next(record.bets, TableSession(self.rules), prev=record.prev, key=None)
        derived = dataclasses.replace(derived, hmac=record.hmac)
        compare_records(derived, record, "the replay")
        self.game = game
        return derived

    def _from_seed(self, record: RoundRecord) -> Game:
        if record.round - 1 > MAX_REPLAY_ROUNDS:
            raise CannotCheck(f"a replay from the seed deals at most {MAX_REPLAY_ROUNDS} "
                             f"rounds before the record's, this is round {record.round}")
        game = Game(self.rules, record.seed, recall=0)
        for _ in range(record.round - 1):
            game._shoe.skip()
        game.round = record.round - 1
        return game

    def _from_state(self, record: RoundRecord) -> Game:
        game = Game(self.rules, rng=bit_generator_from_state(record.shoe_state), recall=0)
        shoe = game._shoe
        shoe.number = record.shoe - 1  # the first deal shuffles: shoe record.shoe
        for _ in range(record.round_in_shoe - 1):
            shoe.skip()
            if shoe.last:
                raise ValueError(f"field 'round_in_shoe' disagrees with the replay: the shoe ends "
                                 f"after round {shoe.rounds}")
        game.round = record.round - 1
        return game


