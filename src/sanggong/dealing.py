"""Shuffling and dealing as the rules prescribe, games with records and replays, and
settlement of the cards a physical shoe actually dealt.

Randomness comes from a numpy ``BitGenerator``: pass ``seed`` (an int or a
``SeedSequence``; None draws fresh OS entropy, which is recorded so that the game can be
replayed) or ``rng`` (a ``Generator`` or ``BitGenerator`` of your own). Cards are drawn by
a lazy Fisher-Yates shuffle, so every order stays equally likely and a round costs only
the cards it takes; its unbiased bounded integers come several from each 64-bit word
(Lemire's method, batched: see ``sanggong._spec.draw``). The dealing procedure itself
(when to shuffle, the cut card, the burns, the head card, which hand gets which card) is
the specification's, ``sanggong._spec.procedure``, which the pure-Python twins of the
core's round loops deal through too. The compiled core and the pure-Python reference
deal the same cards, bit for bit, from any bit generator (both draw its
``next_uint64``).

**Records.** Every round a ``Game`` or an ``ObservedTable`` plays comes back as a
``RoundRecord``: its cards, hands, bets and results, where it came from (seed, shoe, the
bit generator's state at the shuffle) and the digest of the rules it was played under.
Records of one game form a hash chain (each carries the SHA-256 of the one before), and
with an operator ``key`` each carries an HMAC: see ``sanggong.records`` for the record and
its exact canonical form, and ``sanggong.verify`` for ``verify_log``, which checks a whole
JSON Lines log (dealing it again round by round with ``Replayer`` and ``Resettler``).
``RoundRecord.from_dict``/``from_json`` read a record strictly (every field checked and
every derived field, such as a hand's label, recomputed from the cards), and
``Game.replay_record`` deals a record's round again from its own evidence and compares
every field.

**Real money.** A cryptographically secure generator plugs in as any ``BitGenerator``:
e.g. ``randomgen``'s ``AESCounter`` or ``ChaCha`` (``Game(rules, rng=ChaCha(key=...))``),
or a ``numpy.random.BitGenerator`` you write around your own certified source. sanggong
only calls its ``next_uint64``. Records name and
replay only the bit generators of ``records.REPLAYABLE`` (a record never makes sanggong
call anything else); the records of other generators carry no shoe state, and are
checked like observed rounds (chain, HMAC, continuity, the shoe's cards and the
settlement).

>>> from sanggong import ONLINE
>>> game = Game(ONLINE, seed=7)
>>> record = game.play({"win:1": 100, "pair_plus:banker": 10})
>>> record.round, record.head_card is not None, len(record.hands)
(1, True, 3)
>>> Game.replay(ONLINE, seed=7, round=1, bets=record.bets) == record
True
>>> Game.replay_record(ONLINE, RoundRecord.from_json(record.to_json())) == record
True
"""

from __future__ import annotations

import dataclasses
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _impl
from ._spec import Shoe, TableFields, deal_order, first_hand
from ._spec import assign as assign_cards
from ._spec import round_length as cards_of_round
from ._table import table_params
from .cards import Card, CardLike, card_items, parse_card
from .hands import evaluate
from .limits import MAX_RECALL, MAX_REPLAY_ROUNDS, MAX_RESHUFFLES
from .records import (
    ZERO_HASH,
    RoundRecord,
    bit_generator_from_state,
    check_key,
    check_rules,
    result_entry,
    rules_digest,
    state_json,
)
from .rules import RuleSet
from ._threads import locked, new_lock
from .seeds import SeedLike, check_seed
from .settlement import Money, Settlement, TableSession, check_slip

__all__ = [
    "Deal",
    "Game",
    "ObservedTable",
    "Replayer",
    "CannotCheck",
    "Resettler",
    "RoundRecord",
    "assign",
    "dealing_sequence",
    "first_hand",
    "round_length",
]


# --- dealing procedures -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one round as they were assigned: burned cards (the head card
    included, when it is burned), the head card, the banker's hand and each position's."""

    burned: tuple[Card, ...]
    head_card: Card | None
    banker: tuple[Card, Card, Card]
    hands: Mapping[int, tuple[Card, Card, Card]]


def round_length(rules: RuleSet, burn: int) -> int:
    """How many cards a round takes out of the box or shoe after ``burn`` burned cards
    (``_spec.round_length``)."""
    return cards_of_round(table_params(rules), burn)


def assign(rules: RuleSet, cards: Sequence[Card], burn: int) -> Deal:
    """Assign a round's cards, in the order they came out, to the hands.

    Macau: ``burn`` cards are burned, then the cards go from position 1 clockwise, the
    banker last, one card at a time round the table (or three at a time). Online: the head
    card is turned up (and burned, by default); the hand it names gets the next three
    cards, and so on round the cycle banker, player 1, 2, 3.
    """
    return _assign(table_params(rules), cards, burn)


def _assign(table: TableFields, cards: Sequence[Card], burn: int) -> Deal:
    """``assign`` by a table's dealing parameters (``_spec.assign``)."""
    if len(cards) != cards_of_round(table, burn):
        raise ValueError(f"a round takes {cards_of_round(table, burn)} cards here, got {len(cards)}")
    head, dealt = assign_cards(table, cards[burn:])  # an unburned head card stays in its hand
    burned = (*cards[:burn], head) if head is not None and table.head_card_burned else tuple(cards[:burn])
    hands = {h: (c[0], c[1], c[2]) for h, c in sorted(dealt.items()) if h}
    b = dealt[0]
    return Deal(burned, head, (b[0], b[1], b[2]), hands)


def dealing_sequence(
    rules: RuleSet, burned: Sequence[Card], head_card: Card | None,
    banker: tuple[Card, Card, Card], hands: Mapping[int, tuple[Card, Card, Card]],
) -> list[Card]:
    """The inverse of ``assign``: a round's cards in the order they came out of the box
    or shoe. Raises ValueError (naming the field) where the cards cannot have been dealt
    so: hands of positions other than 1..positions, a head card where the rules have none
    or none where they have one, or a burned head card that is not the last card burned."""
    if sorted(hands) != list(range(1, rules.positions + 1)):
        raise ValueError(f"field 'hands': expected the hands of positions 1..{rules.positions}, "
                         f"got positions {sorted(hands)}")
    by_hand = {0: banker, **hands}
    pre = list(burned)
    if rules.head_card:
        if head_card is None:
            raise ValueError("field 'head_card': these rules turn up a head card, the record has none")
        order = deal_order(table_params(rules), head_card)
        if rules.head_card_burned:
            if not pre or pre[-1] != head_card:
                raise ValueError("field 'burned': the burned head card must be the last card burned")
        elif by_hand[order[0]][0] != head_card:
            raise ValueError("field 'head_card': it must be the first card of the hand it names")
    else:
        if head_card is not None:
            raise ValueError("field 'head_card': these rules turn up no head card")
        order = deal_order(table_params(rules), None)
    if rules.head_card or not rules.deal_one_at_a_time:
        return pre + [c for h in order for c in by_hand[h]]
    return pre + [by_hand[h][k] for k in range(3) for h in order]


# --- the shoe --------------------------------------------------------------------------


class _Shoe(Shoe):
    """A game's box or shoe: the dealing procedure (``_spec.Shoe``) drawing with the active
    kernels, which keeps the bit generator's state at each shuffle (a record's
    ``shoe_state``: enough to deal the shoe's rounds again)."""

    def __init__(self, rules: RuleSet, bit_generator: np.random.BitGenerator) -> None:
        kernels = _impl.kernels
        super().__init__(table_params(rules), bit_generator, draw=kernels.draw, bounded=kernels.bounded)
        self.rules = rules
        self.state: dict[str, Any] | None = None  # as JSON; None: not a replayable generator

    def shuffle(self) -> None:
        self.state = state_json(self.bit_generator.state)
        super().shuffle()

    def skip(self) -> None:
        """Take one round's cards without assigning them (a replay's fast-forward)."""
        self.deal()

    def deal_round(self) -> tuple[Deal, int]:
        """Shuffle when due, then take one round's cards; return the deal and the cut
        card's place from the end (0 where there is none)."""
        cards, burn = self.deal()
        return _assign(self.table, [Card(c) for c in cards], burn), self.cut_card


# --- a round's record -------------------------------------------------------------------


def _sorted(slip: Mapping[str, Any]) -> dict[str, Any]:
    """A slip (or carried stakes) in the order of its names, a player's bets too."""
    return {k: _sorted(v) if isinstance(v, Mapping) else v for k, v in sorted(slip.items())}


def _record(
    rules: RuleSet, deal: Deal | Sequence[Card], result: Settlement | None, bets: Mapping[str, Money], *,
    round_: int, shoe: int, round_in_shoe: int, last: bool, cut: int | None, seed: int | None,
    state: Mapping[str, Any] | None, carried: Mapping[str, Money], prev: str = ZERO_HASH,
    key: bytes | None = None, reshuffled: int = 0,
) -> RoundRecord:
    """A round's record, bets and results in the order of their names (as the canonical
    form sorts the bets), chained to ``prev`` and MACed under ``key``. ``deal`` is the
    round's assigned cards, or for a void round the cards that came out before it was
    abandoned."""
    results = sorted((result_entry(r) for r in result.results), key=lambda r: (str(r["bet"]), r["player"] or "")) \
        if result else []
    void = not isinstance(deal, Deal)
    record = RoundRecord(
        rules=rules.name,
        rules_digest=rules_digest(rules),
        round=round_,
        shoe=shoe,
        round_in_shoe=round_in_shoe,
        burned=tuple(deal) if not isinstance(deal, Deal) else deal.burned,
        head_card=None if not isinstance(deal, Deal) else deal.head_card,
        ranking=rules.ranking,
        banker=None if not isinstance(deal, Deal) else evaluate(deal.banker, rules),
        hands={} if not isinstance(deal, Deal) else {p: evaluate(c, rules) for p, c in deal.hands.items()},
        bets=_sorted(bets),
        results=tuple(results),
        carried=_sorted(carried),
        last_of_shoe=last,
        cut_card=cut or None,
        seed=seed,
        shoe_state=state,
        prev=prev,
        void=void,
        reshuffled=reshuffled,
    )
    if key is None:
        return record
    return record.with_hmac(key)


# --- a game -------------------------------------------------------------------------------


def _bit_generator(seed: object, rng: object) -> tuple[np.random.BitGenerator, int | None]:
    """The game's bit generator, and the int seed its records carry (None where no int
    re-creates it: records then carry the shoe's state)."""
    if rng is not None:
        if seed is not None:
            raise TypeError("give a seed or an rng, not both")
        if isinstance(rng, np.random.Generator):
            return rng.bit_generator, None
        if isinstance(rng, np.random.BitGenerator):
            return rng, None
        raise TypeError(f"rng must be a numpy Generator or BitGenerator, not {type(rng).__name__}")
    sequence, recorded = check_seed(seed)  # its size checked before numpy hashes it
    return np.random.PCG64(sequence), recorded if isinstance(recorded, int) else recorded.state_int


class Game:
    """A table that owns its shoe and its random numbers and plays round after round.

    :param rules: the rule set (already checked to deal a round from its cards).
    :param seed: an int (0 .. 2**256 - 1), a ``SeedSequence`` or a ``seeds.Seed``; None
        draws OS entropy (kept in ``seed``). ``seed`` holds the int that re-creates the
        game (None for a sequence no int re-creates: its records carry the shoe's state).
    :param rng: a numpy ``Generator`` or ``BitGenerator`` to draw from instead.
    :param recall: how many round records the game keeps (``records``), at most
        ``limits.MAX_RECALL``.
    :param key: the operator's HMAC key: every record then carries an ``hmac``.

    The records of one game form a hash chain; write each as a line of a log
    (``record.to_json()``) and check the log with ``sanggong.verify.verify_log``.

    Thread-safety: safe to share between threads. Each call holds the game's lock, so
    concurrent ``play`` calls deal one round each, numbered and chained in the order they
    took the lock (``sanggong._threads``). A bit generator given as ``rng`` is drawn under
    its own lock, as numpy asks.
    """

    def __init__(
        self,
        rules: RuleSet,
        seed: SeedLike = None,
        *,
        rng: np.random.Generator | np.random.BitGenerator | None = None,
        recall: int = 10,
        key: bytes | None = None,
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if isinstance(recall, bool) or not isinstance(recall, int) or not 0 <= recall <= MAX_RECALL:
            raise ValueError(f"recall must be a count 0..{MAX_RECALL}, got {recall!r}")
        self._key = check_key(key)
        self.rules = rules
        bit_generator, self.seed = _bit_generator(seed, rng)
        self._shoe = _Shoe(rules, bit_generator)
        self._session = TableSession(rules)
        self._records: deque[RoundRecord] = deque(maxlen=recall)
        self._prev = ZERO_HASH
        self._lock = new_lock()
        self.round = 0

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
        deal, _ = self._shoe.deal_round()
        self.round += 1
        return deal

    @locked
    def play(self, bets: Mapping[str, Money] | None = None) -> RoundRecord:
        """Deal a round, settle ``bets`` (plus any carried stakes) and record it."""
        slip = self._session.slip(bets or {})  # checked before any card comes out
        record = self._next(slip, self._session, prev=self._prev, key=self._key)
        self._prev = record.hash
        self._records.append(record)
        return record

    @locked
    def _next(self, slip: Mapping[str, Money], session: TableSession, *, prev: str, key: bytes | None) -> RoundRecord:
        deal, cut = self._shoe.deal_round()
        state = self._shoe.state  # as the shoe was shuffled: enough to deal this round again
        self.round += 1
        result = session.settle_slip(deal.banker, deal.hands, slip) if slip else None
        return _record(
            self.rules, deal, result, slip, round_=self.round, shoe=self._shoe.number,
            round_in_shoe=self._shoe.rounds, last=self._shoe.last, cut=cut, seed=self.seed,
            state=state, carried=session.carried, prev=prev, key=key,
        )

    @classmethod
    def replay(
        cls, rules: RuleSet, seed: int, round: int, bets: Mapping[str, Money] | None = None
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
    def replay_record(cls, rules: RuleSet, record: RoundRecord) -> RoundRecord:
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


_CANNOT_REPLAY: dict[str, frozenset[str]] = {"cython": frozenset(), "python": frozenset()}
"""The bit generators of ``records.REPLAYABLE`` each implementation cannot replay: none.
(Both draw ``next_uint64`` as numpy defines it, for MT19937 too; a generator added to
``REPLAYABLE`` that one of them cannot draw exactly would be named here, and its logs
reported as unchecked rather than tampered.)"""

_COMPARED = ("void", "reshuffled", "seed", "round", "shoe", "round_in_shoe", "shoe_state", "cut_card", "last_of_shoe",
             "head_card", "burned", "banker", "hands", "bets", "results", "carried")


def _compare(derived: RoundRecord, record: RoundRecord, how: str) -> None:
    for name in _COMPARED:
        if getattr(derived, name) != getattr(record, name):
            raise ValueError(f"field {name!r} disagrees with {how}")
    if derived.hash != record.hash:  # every field agrees: the canonical forms must too
        raise ValueError(f"the record's canonical form disagrees with {how}")


def _check_bets(rules: RuleSet, bets: Mapping[str, Money]) -> None:
    try:
        check_slip(rules, bets)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"field 'bets': {exc}") from None


class Replayer:
    """Deal a game's records again, one after the other, and compare every field.

    A record that follows the last one replayed (round + 1) continues its game, so a
    whole log costs one deal a round and every field of every record, its seed
    included, is derived from the first; any other record starts again, from its seed
    (dealing the rounds before it) or from its shoe state. ``Game.replay_record``
    replays one record; ``verify.verify_log`` replays a log with one ``Replayer``.

    :param rules: the rules the records were played under.

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

    def __init__(self, rules: RuleSet) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
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
            if generator in _CANNOT_REPLAY.get(_impl.kernels.IMPLEMENTATION, ()):
                raise CannotCheck(f"the {_impl.kernels.IMPLEMENTATION} implementation cannot replay the bit "
                                  f"generator {generator}: check this log with the other one")
            if record.seed is not None:
                game = self._from_seed(record)
            elif state is not None:
                game = self._from_state(record)
            else:
                raise ValueError("no seed and no shoe state (an observed round): nothing to replay")
        _check_bets(self.rules, record.bets)
        derived = game._next(record.bets, TableSession(self.rules), prev=record.prev, key=None)
        derived = dataclasses.replace(derived, hmac=record.hmac)
        _compare(derived, record, "the replay")
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


# --- observed shoes -------------------------------------------------------------------------


class ObservedTable:
    """Settle the cards a physical shoe or card reader actually dealt.

    Give each round's cards in the order they came out, burned cards and the head card
    included. The table checks every card against what its box or shoe can hold (a fifth
    K♠ in one deck, a ninth in eight) since the last shuffle, assigns the cards to the
    hands by the dealing procedure, and settles the bets. An invalid sequence raises,
    naming the card and its place, and leaves the table as it was.

    A shoe (not a fresh-deck table) holds its cut card between ``low`` and ``high`` cards
    from the end (``rules.cut_card_range``): once more than ``52 * decks - low`` cards are
    out, the cut card has come out, the round in progress is the shoe's last
    (``last_of_shoe``), and no round may start before ``shuffle()``. The house may also
    shuffle after any round.

    **Irregular rounds** (the docs' rules page, "Irregular rounds"). Cards dealt to the
    wrong place are put right by giving them in the order they came out of the shoe: the
    dealing procedure assigns them, which is what putting them in their right place
    means; a card exposed while dealing changes nothing. A round that cannot be put right
    is voided (``void``): its cards are out of the shoe and every stake is returned. A
    shuffle done again before a shoe's first round (a card dropped or exposed while
    shuffling) is counted in that round's record (``reshuffled``).

    :param key: the operator's HMAC key: every record then carries an ``hmac``.

    >>> from sanggong import ONLINE
    >>> table = ObservedTable(ONLINE)
    >>> record = table.play("5h  Ks Qs 9d  As 2d 3c  4h 4d 4c  Jh Jd Tc", {"win:1": 100})
    >>> record.banker.label, record.hands[1].label, record.results[0]["outcome"]
    ('2P9', '6', 'lose')
    >>> table.play("5h Ks Ks 9d As 2d 3c 4h 4d 4c Jh Jd Tc")
    Traceback (most recent call last):
    ...
    ValueError: card 3 of the sequence, Ks, is one more than 1 deck holds

    Thread-safety: safe to share between threads; each call holds the table's lock, so
    rounds are checked and recorded one at a time (``sanggong._threads``).
    """

    def __init__(self, rules: RuleSet, *, key: bytes | None = None) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        self._key = check_key(key)
        self.rules = rules
        self._session = TableSession(rules)
        self._seen: Counter[int] = Counter()
        self._shoes = 0  # shoes begun
        self._rounds = 0  # rounds dealt from the current shoe
        self._taken = 0  # cards out of the current shoe
        self._cut: int | None = None  # the current shoe's cut card (cards from the end), where known
        self._fresh = True  # the next round starts a new shoe (after a shuffle)
        self._reshuffled = 0  # shuffles done again before the next shoe's first round
        self._prev = ZERO_HASH
        self._lock = new_lock()
        self.round = 0

    @locked
    def shuffle(self) -> None:
        """The dealer shuffled: every card is back in the shoe, and the next round starts
        a new one. Where the next round would start a new shoe (or deck) anyway (the table
        starts shuffled, a fresh-deck table shuffles before every round), this is a
        shuffle done again before the shoe's first round: that round's record counts it
        (``reshuffled``)."""
        if self.rules.fresh_deck_each_round or self._fresh:
            if self._reshuffled >= MAX_RESHUFFLES:
                raise ValueError(f"a shoe is shuffled again at most {MAX_RESHUFFLES} times before its first round")
            self._reshuffled += 1
        else:
            self._fresh = True

    @locked
    def play(
        self, cards: str | Sequence[CardLike], bets: Mapping[str, Money] | None = None
    ) -> RoundRecord:
        """Assign and settle one round's observed cards."""
        return self._play(self._parse(cards), bets or {}, cut_card=None)

    @locked
    def void(
        self, cards: str | Sequence[CardLike] = (), bets: Mapping[str, Money] | None = None
    ) -> RoundRecord:
        """Void a round that could not be put right (Macau's article 2.5: every card dealt
        is cancelled). ``cards`` are those that came out of the shoe before it was
        abandoned, in order, burns and head card included (any number up to a round's):
        each is checked against the shoe as ``play`` checks it and is out of it for good.
        Every stake of the slip (carried stakes plus ``bets``) is returned in full, but a
        stake carried into the round, which stays carried. The round is numbered and
        recorded (``void``), and counts as a round of its shoe: where its cards take the
        shoe past the cut card, it was the shoe's last.

        >>> from sanggong import MACAU
        >>> table = ObservedTable(MACAU.replace(decks=2, positions=1))
        >>> record = table.void("Qh Qh Td", {"win:1": 100})     # both Q♥ of the shoe came out
        >>> record.void, [str(c) for c in record.burned], record.results[0]["returned"]
        (True, ['Qh', 'Qh', 'Td'], 100)
        >>> table.play("Qh 5s 6s 7s 8s 9s 9d")
        Traceback (most recent call last):
        ...
        ValueError: card 1 of the sequence, Qh, is one more than 2 decks hold
        """
        return self._play(self._parse(cards), bets or {}, cut_card=None, void=True)

    @locked
    def _play(self, parsed: list[Card], bets: Mapping[str, Money], *, cut_card: int | None,
              void: bool = False) -> RoundRecord:
        """``play`` (or ``void``) on parsed cards; ``cut_card`` (cards from the end) where it
        is known (a game's record whose bit generator a record cannot name)."""
        rules = self.rules
        fresh = rules.fresh_deck_each_round
        new = fresh or self._fresh
        burn = rules.burn_first if new else rules.burn_per_round
        need = round_length(rules, burn)
        if void and len(parsed) > need:
            raise ValueError(f"a void round's cards are those dealt before it was abandoned: at most the {need} "
                             f"of a round here ({burn} burned), the sequence has {len(parsed)}")
        if not void and len(parsed) != need:
            raise ValueError(f"a round here takes {need} cards ({burn} burned), the sequence has {len(parsed)}")
        total = 52 * rules.decks
        start = 0 if new else self._taken
        limit = total
        if fresh:
            if cut_card is not None:
                raise ValueError("field 'cut_card': a fresh deck has no cut card")
        else:
            low, high = rules.cut_card_range
            if cut_card is not None:
                if not low <= cut_card <= high:
                    raise ValueError(f"field 'cut_card': the cut card lies {low}..{high} cards from the end, "
                                     f"not {cut_card}")
                if not new and cut_card != self._cut:
                    raise ValueError("field 'cut_card': the cut card moved within the shoe")
            limit = total - (low if cut_card is None else cut_card)
            if start > limit:
                raise ValueError(
                    f"a round cannot start after {start} cards of the shoe: the cut card lies at least "
                    f"{low} cards from the end of the {total}, so it came out by card {limit}, in an "
                    f"earlier round, which was the shoe's last: the dealer must shuffle first (shuffle())"
                )
        seen = Counter() if new else Counter(self._seen)
        for place, card in enumerate(parsed, start=1):
            seen[card.code] += 1
            if seen[card.code] > rules.decks:
                raise ValueError(
                    f"card {place} of the sequence, {card}, is one more than {rules.decks} "
                    f"deck{'s' if rules.decks > 1 else ''} hold{'s' if rules.decks == 1 else ''}"
                )
        slip = self._session.slip(bets)
        deal: Deal | list[Card]
        if void:
            deal = parsed
            result = self._session.void_slip(slip) if slip else None
        else:
            deal = assign(rules, parsed, burn)
            result = self._session.settle_slip(deal.banker, deal.hands, slip) if slip else None
        # the round is valid: keep it
        if new:
            self._shoes += 1
            self._rounds = 0
            self._cut = cut_card
        reshuffled = self._reshuffled if new else 0
        self._reshuffled = 0
        self._fresh = False
        self._seen = seen
        self._rounds += 1
        self._taken = start + len(parsed)
        self.round += 1
        last = fresh or self._taken > limit  # the cut card is out: the shoe's last round
        record = _record(
            rules, deal, result, slip, round_=self.round, shoe=self._shoes,
            round_in_shoe=self._rounds, last=last, cut=cut_card, seed=None, state=None,
            carried=self._session.carried, prev=self._prev, key=self._key, reshuffled=reshuffled,
        )
        self._prev = record.hash
        return record

    def _parse(self, cards: str | Sequence[CardLike]) -> list[Card]:
        parsed: list[Card] = []
        if isinstance(cards, str) and not cards.strip():
            return parsed  # no cards (a void round abandoned before any came out)
        most = round_length(self.rules, max(self.rules.burn_first, self.rules.burn_per_round))
        for place, token in enumerate(card_items(cards, "the sequence"), start=1):
            if place > 4 * most:  # (nothing far longer than a round is read: an endless iterable stops here)
                raise ValueError(f"a round here takes at most {most} cards, the sequence has more than {4 * most}")
            try:
                parsed.append(parse_card(token))
            except (ValueError, TypeError) as exc:
                raise type(exc)(f"card {place} of the sequence: {exc}") from None
        return parsed


class Resettler:
    """Check records that cannot be dealt again (observed rounds, or those of a bit
    generator a record cannot name) by playing their cards, in the order the procedure
    dealt them, on an ``ObservedTable`` along the log: the burns, the cards each shoe can
    hold, the cut card, the hands and the settlement of the bets (carried stakes
    included) must all be the record's.

    A record that follows the last one checked continues its table; any other starts a
    new one (within a shoe, whose earlier cards are then unknown).

    :param rules: the rules the records were played under.

    >>> import dataclasses
    >>> from sanggong import ONLINE
    >>> table = ObservedTable(ONLINE)
    >>> cards = "5h Ks Qs 9d As 2d 3c 4h 4d 4c Jh Jd Tc"
    >>> records = [table.play(cards, {"win:1": 100}) for _ in range(3)]
    >>> resettler = Resettler(ONLINE)
    >>> [resettler.check(record) == record for record in records]
    [True, True, True]
    >>> resettler.check(dataclasses.replace(records[0], bets={"win:1": 200}))
    Traceback (most recent call last):
    ...
    ValueError: field 'results' disagrees with the cards as dealt and settled

    Thread-safety: safe to share between threads; each ``check`` holds the resettler's
    lock.
    """

    def __init__(self, rules: RuleSet) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
        self.rules = rules
        self.table: ObservedTable | None = None
        self._lock = new_lock()

    @locked
    def check(self, record: RoundRecord) -> RoundRecord:
        """Play ``record``'s cards again on the table and compare every field of the
        result with the record's; return the result (with the record's ``hmac``).

        :raises ValueError: naming the first field that disagrees, or what the cards
            cannot have been (a card more than the shoe holds, a round after the cut
            card); a record with a seed or a shoe state is for ``Replayer``.
        """
        if not isinstance(record, RoundRecord):
            raise TypeError(f"record must be a RoundRecord, not {type(record).__name__}")
        rules = self.rules
        check_rules(record, rules)
        if record.seed is not None or record.shoe_state is not None:
            raise ValueError("the record can be dealt again: replay it")
        table = self.table
        self.table = None
        if table is None or record.round != table.round + 1:
            table = ObservedTable(rules)
            table.round = record.round - 1
            table._shoes = record.shoe - 1
            if record.round_in_shoe > 1 and not rules.fresh_deck_each_round:
                # the log starts within a shoe: its earlier cards are unknown
                done = record.round_in_shoe - 1
                table._shoes, table._rounds, table._fresh, table._cut = record.shoe, done, False, record.cut_card
                table._taken = round_length(rules, rules.burn_first) + (done - 1) * round_length(rules, rules.burn_per_round)
        elif record.shoe != table._shoes and not rules.fresh_deck_each_round:
            table.shuffle()  # (the shoe ended: a fresh-deck table starts a new deck by itself)
        for _ in range(record.reshuffled):  # the shoe's shuffles done again before this, its first round
            table.shuffle()
        if record.void:  # every card that came out, in order
            sequence = list(record.burned)
        else:
            if record.banker is None:
                raise ValueError("field 'banker': a round that is not void has a banker's hand")
            sequence = dealing_sequence(rules, record.burned, record.head_card, record.banker.cards,
                                        {p: h.cards for p, h in record.hands.items()})
        _check_bets(rules, record.bets)
        table._prev = record.prev
        try:
            derived = table._play(sequence, record.bets, cut_card=record.cut_card, void=record.void)
        except ValueError as exc:
            raise ValueError(str(exc) if str(exc).startswith("field ") else f"the cards as dealt: {exc}") from None
        derived = dataclasses.replace(derived, hmac=record.hmac)
        _compare(derived, record, "the cards as dealt and settled")
        self.table = table
        return derived
