"""The dealing procedure: how many cards a round takes, whether a table can deal its
rounds, which hand gets which card, and a box or shoe dealt round after round (see
``sanggong._spec``).

``Shoe`` is the one Python definition of dealing a table's rounds: ``sanggong.dealing``'s
``Game`` deals through it (drawing with the active kernels), and so do the pure-Python
twins of the core's round loops (``sanggong._kernels.twin``: ``deal_chunk``,
``simulate_chunk``, ``play_chunk``), which must deal the compiled core's cards bit for
bit. A table is described by its dealing parameters (``TableFields``: the fields of
``sanggong._table.TableParams``, which ``rules.table_params`` makes from a rule set).

A round, as the rules prescribe it:

1. **Shuffle when due**: before a table's first round, after a shoe's last round (the one
   in which the cut card came out), and before every round of a fresh-deck table. The
   cards go back in code order (the draws do the shuffling) and, for a shoe, the cut card
   is placed with one draw, ``cut_low`` to ``cut_high`` cards from the end.
2. **Burn**: ``burn_first`` cards after a shuffle, ``burn_per_round`` before every later
   round of a shoe.
3. **The head card** (online): turned up, it names the hand dealt first (``first_hand``),
   and is burned (``head_card_burned``) or stays the first card of that hand.
4. **The hands**: Macau deals from position 1 clockwise, the banker last, one card at a
   time round the table (``one_at_a_time``) or three at a time; online deals three at a
   time from the hand the head card names, round the cycle banker, player 1, 2, 3.
5. **The cut card**: a round during which it comes out is the shoe's last.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, Protocol, SupportsIndex, TypeVar

from .cards import N_CARDS, card_rank
from .draws import bounded as _bounded
from .draws import draw as _draw

__all__ = [
    "NO_CARD", "Shoe", "TableFields", "assign", "burn_of", "deal_order", "first_hand", "most_burned", "round_length",
    "table_fits",
]

NO_CARD = 255
"""A card place a dealt round leaves empty: a burn the round did not take, no head card
(``sanggong.rounds.DealtRounds``, the kernels' ``deal_chunk``)."""

C = TypeVar("C", bound=SupportsIndex)

Draw = Callable[[Any, bytearray, int, int, bytearray], None]
"""``draw(bit_generator, deck, start, count, out)``: a kernel's lazy Fisher-Yates draw."""
Bounded = Callable[[Any, int], int]
"""``bounded(bit_generator, n)``: a kernel's uniform integer in [0, n)."""


class TableFields(Protocol):
    """A table's dealing parameters (``sanggong._table.TableParams``): ints, flags 0 or 1."""

    @property
    def decks(self) -> int: ...
    @property
    def positions(self) -> int: ...
    @property
    def fresh_deck(self) -> int: ...
    @property
    def burn_first(self) -> int: ...
    @property
    def burn_per_round(self) -> int: ...
    @property
    def head_card(self) -> int: ...
    @property
    def head_card_burned(self) -> int: ...
    @property
    def one_at_a_time(self) -> int: ...
    @property
    def cut_low(self) -> int: ...
    @property
    def cut_high(self) -> int: ...


def burn_of(table: TableFields, first: bool) -> int:
    """The cards burned before a round: the first after a shuffle (``first``), or a later
    round of a shoe."""
    return table.burn_first if first else table.burn_per_round


def round_length(table: TableFields, burn: int) -> int:
    """How many cards a round takes out of the box or shoe after ``burn`` burned cards: a
    burned head card, then three cards for each hand (every position and the banker)."""
    return burn + (1 if table.head_card and table.head_card_burned else 0) + 3 * (table.positions + 1)


def most_burned(table: TableFields) -> int:
    """The most cards one round burns, a burned head card included: the first round's
    after a shuffle, or for a shoe a later round's where that burns more."""
    burn = table.burn_first if table.fresh_deck else max(table.burn_first, table.burn_per_round)
    return burn + (1 if table.head_card and table.head_card_burned else 0)


def table_fits(table: TableFields) -> tuple[bool, bool]:
    """Whether a table's rounds fit its cards: (the first round after a shuffle fits the
    full box or shoe, and a shoe's cut card lies within it, ``1 <= cut_low <= cut_high <
    52 * decks``; every later round of a shoe fits behind the cut card at its earliest,
    ``cut_low`` cards from the end: always true of a fresh deck). A rule set is made only
    if both hold (``sanggong.rules``); the kernels refuse parameters where either fails."""
    cards = N_CARDS * table.decks
    first = round_length(table, table.burn_first) <= cards and (
        bool(table.fresh_deck) or 1 <= table.cut_low <= table.cut_high < cards)
    later = bool(table.fresh_deck) or round_length(table, table.burn_per_round) <= table.cut_low
    return first, later


def first_hand(head_card: SupportsIndex) -> int:
    """The hand the online head card sends the first three cards to: 0 the banker, i
    player i. A, 5, 9, K start at the banker; 2, 6, 10 at player 1; 3, 7, J at player 2;
    4, 8, Q at player 3 (counting counter-clockwise from the banker)."""
    return (card_rank(operator.index(head_card)) - 1) % 4


def deal_order(table: TableFields, head_card: SupportsIndex | None) -> list[int]:
    """The hands in the order they are dealt (0 the banker): Macau position 1 first and
    the banker last; online from the hand the head card names, round the cycle banker,
    1, 2, 3."""
    hands = table.positions + 1
    if table.head_card:
        if head_card is None:
            raise ValueError("a table with a head card deals from the hand it names: give the head card")
        first = first_hand(head_card)
        return [(first + k) % hands for k in range(hands)]
    return [*range(1, hands), 0]


def assign(table: TableFields, rest: Sequence[C]) -> tuple[C | None, dict[int, Sequence[C]]]:
    """A round's cards after the burned ones, in the order they came out, assigned: the
    head card (None at a table without one) and each hand's three cards, by hand in the
    order they are dealt. A burned head card is the first of ``rest`` and no hand's; an
    unburned one stays the first card of the hand it names."""
    hands = table.positions + 1
    head = None
    if table.head_card:
        head = rest[0]
        if table.head_card_burned:
            rest = rest[1:]
    order = deal_order(table, head)
    if not table.head_card and table.one_at_a_time:  # one card at a time round the table
        return head, {h: rest[k::hands] for k, h in enumerate(order)}
    return head, {h: rest[3 * k : 3 * k + 3] for k, h in enumerate(order)}


class Shoe:
    """A table's box or shoe, dealt round after round exactly as the rules prescribe (this
    module's doc): a shuffle when one is due (the cut card placed with one draw, for a
    shoe), the burns, then each round's cards by lazy Fisher-Yates from ``bit_generator``.

    ``draw`` and ``bounded`` are the kernels' (``sanggong._kernels.kernels``: the compiled
    core's, or this package's own, which draw the same words); the deck is a
    ``bytearray``, which both read in place. After ``deal``: ``number`` is the shoe (from
    1), ``rounds`` the rounds dealt from it, ``last`` whether the round ended it, and
    ``cut_card`` the cut card's place from the end (0 for a fresh deck); ``fresh_deck``:
    every round is dealt from a freshly shuffled deck (the table's).
    """

    def __init__(self, table: TableFields, bit_generator: Any, *, draw: Draw = _draw,
                 bounded: Bounded = _bounded) -> None:
        self.table = table
        self.bit_generator = bit_generator
        self._draw, self._bounded = draw, bounded
        self.fresh_deck = bool(table.fresh_deck)
        # (burn, cards) of the first round after a shuffle and of a later round of a shoe
        self._rounds = {first: (burn_of(table, first), round_length(table, burn_of(table, first)))
                        for first in (True, False)}
        self._in_order = bytes(code % N_CARDS for code in range(N_CARDS * table.decks))
        self.deck = bytearray(self._in_order)
        self.pos = 0  # cards out of the shoe
        self.cut = len(self.deck)  # cards before the cut card (a fresh deck: every card)
        self.number = 0  # shoes begun
        self.rounds = 0  # rounds dealt from the current shoe
        self.last = True  # the round dealt last ended its shoe: the next one shuffles first

    @property
    def cut_card(self) -> int:
        """The cut card's place from the end of the current shoe (0 for a fresh deck)."""
        return 0 if self.fresh_deck else len(self.deck) - self.cut

    def shuffle(self) -> None:
        """A fresh shoe: the cards back in code order (the draws do the shuffling), the cut
        card placed uniformly ``cut_low`` .. ``cut_high`` cards from the end (a shoe only)."""
        table = self.table
        self.deck[:] = self._in_order
        self.pos = 0
        self.number += 1
        self.rounds = 0
        if not self.fresh_deck:
            self.cut = len(self.deck) - (table.cut_low + self._bounded(
                self.bit_generator, table.cut_high - table.cut_low + 1))
        self.last = False

    def deal(self) -> tuple[bytearray, int]:
        """Shuffle when due, then take one round's cards: the cards in the order they came
        out, and how many of them are burned (a burned head card not counted)."""
        if self.last:  # (every round of a fresh deck)
            self.shuffle()
        burn, count = self._rounds[self.rounds == 0]
        cards = bytearray(count)
        self._draw(self.bit_generator, self.deck, self.pos, count, cards)
        start, self.pos = self.pos, self.pos + count
        self.rounds += 1
        self.last = self.fresh_deck or start <= self.cut < self.pos  # the cut card came out: the shoe's last
        return cards, burn
