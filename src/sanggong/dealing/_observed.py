"""Observed shoes: settling the cards a physical shoe or card reader dealt
(``ObservedTable``), and checking records that cannot be dealt again by playing their
cards along the log (``Resettler``) (``sanggong.dealing``)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence

from .._threads import locked, new_lock
from ..cards import Card, CardLike, card_items, parse_card
from ..limits import MAX_RESHUFFLES
from ..records import ZERO_HASH, RoundRecord, SealRecord, check_key, check_rules, make_record
from ..rules import RuleSet, as_rules
from ..settlement import Money, TableSession
from ._game import GameLog, Sealable, check_bets, compare_records
from ._procedure import Deal, assign, dealing_sequence, round_length

__all__ = ["ObservedTable", "Resettler"]

# --- observed shoes -------------------------------------------------------------------------


class ObservedTable(Sealable):
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

    def __init__(self, rules: RuleSet | str, *, key: bytes | None = None) -> None:
        rules = as_rules(rules)
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
        self._log = GameLog()

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
        self._log.check_open()
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
        record = make_record(
            rules, deal, result, slip, round_=self.round, shoe=self._shoes,
            round_in_shoe=self._rounds, last=last, cut=cut_card, seed=None, state=None,
            carried=self._session.carried, prev=self._prev, key=self._key, reshuffled=reshuffled,
        )
        self._prev = record.hash
        self._log.recorded(record)
        return record

    @locked
    def close(self) -> SealRecord:
        """End the table's log: its seal (``records.SealRecord``), as ``Game.close`` makes
        one (no seed: the cards were observed). The table then records no more rounds.

        :raises ValueError: no round recorded, or closed already.
        """
        return self._log.close(self.rules, None, self._key, self._prev, self._session.carried)

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

    :param rules: the rules the records were played under (a ``RuleSet`` or a preset's name).

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

    def __init__(self, rules: RuleSet | str) -> None:
        rules = as_rules(rules)
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
        check_bets(rules, record.bets)
        table._prev = record.prev
        try:
            derived = table._play(sequence, record.bets, cut_card=record.cut_card, void=record.void)
        except ValueError as exc:
            raise ValueError(str(exc) if str(exc).startswith("field ") else f"the cards as dealt: {exc}") from None
        derived = dataclasses.replace(derived, hmac=record.hmac)
        compare_records(derived, record, "the cards as dealt and settled")
        self.table = table
        return derived
