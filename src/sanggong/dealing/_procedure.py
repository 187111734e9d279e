"""The dealing procedure of a rule set: a round's cards assigned to the hands and back, and
a game's box or shoe (``sanggong.dealing``; the procedure itself is ``_spec.procedure``'s)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import _kernels
from .._logline import NO_CARD
from .._spec import Shoe, TableFields, deal_order, first_hand, most_burned
from .._spec import assign as assign_cards
from .._spec import round_length as cards_of_round
from ..cards import Card
from ..records import Deal, state_json
from ..rules import RuleSet

if TYPE_CHECKING:  # (the dealt arrays are the kernels' own: _kernels.deal_arrays, no NumPy under the core)
    import numpy as np

__all__ = [
    "Deal", "GameShoe", "assign", "assign_by_table", "dealing_sequence", "first_hand", "round_length"
]

# --- dealing procedures -----------------------------------------------------------------



def round_length(rules: RuleSet, burn: int) -> int:
    """How many cards a round takes out of the box or shoe after ``burn`` burned cards
    (``_spec.round_length``)."""
    return cards_of_round(rules.table_params, burn)


def assign(rules: RuleSet, cards: Sequence[Card], burn: int) -> Deal:
    """Assign a round's cards, in the order they came out, to the hands.

    Macau: ``burn`` cards are burned, then the cards go from position 1 clockwise, the
    banker last, one card at a time round the table (or three at a time). Online: the head
    card is turned up (and burned, by default); the hand it names gets the next three
    cards, and so on round the cycle banker, player 1, 2, 3.
    """
    return assign_by_table(rules.table_params, cards, burn)


def assign_by_table(table: TableFields, cards: Sequence[Card], burn: int) -> Deal:
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
        order = deal_order(rules.table_params, head_card)
        if rules.head_card_burned:
            if not pre or pre[-1] != head_card:
                raise ValueError("field 'burned': the burned head card must be the last card burned")
        elif by_hand[order[0]][0] != head_card:
            raise ValueError("field 'head_card': it must be the first card of the hand it names")
    else:
        if head_card is not None:
            raise ValueError("field 'head_card': these rules turn up no head card")
        order = deal_order(rules.table_params, None)
    if rules.head_card or not rules.deal_one_at_a_time:
        return pre + [c for h in order for c in by_hand[h]]
    return pre + [by_hand[h][k] for k in range(3) for h in order]


# --- the shoe --------------------------------------------------------------------------


class GameShoe(Shoe):
    """A game's box or shoe: the dealing procedure (``_spec.Shoe``) drawing with the active
    kernels, which keeps the bit generator's state at each shuffle (a record's
    ``shoe_state``: enough to deal the shoe's rounds again).

    ``ahead``: a generator that nothing but this shoe draws from (a game's own) deals a
    whole shoe at its shuffle in the core (``deal_chunk``: the same draws, in the same
    order, as round by round), kept in ``dealt`` (``deal_chunk``'s arrays; ``dealt_id``
    tells the shoes apart) and handed out round by round."""

    def __init__(self, rules: RuleSet, bit_generator: np.random.BitGenerator, *, ahead: bool = False) -> None:
        kernels = _kernels.kernels
        super().__init__(rules.table_params, bit_generator, draw=kernels.draw, bounded=kernels.bounded)
        self.rules = rules
        self.state: dict[str, Any] | None = None  # as JSON; None: not a replayable generator
        self.ahead = ahead
        self.dealt: tuple[Any, ...] = ()  # (_kernels.deal_arrays)
        self.dealt_id = 0
        self._cut_ahead = 0
        self._probe: Any = None
        self._params: Any = rules.table_params.buffer()
        if ahead:
            table, most = self.table, 1 if self.fresh_deck else self.table.decks * 52 // (3 * (self.table.positions + 1)) + 2
            self._probe_arrays = _kernels.deal_arrays(most, table.positions + 1, most_burned(table))  # (more rounds
            # than a shoe holds)
            self._buffers = _kernels.deal_arrays(most, table.positions + 1, most_burned(table))
        self._ends: list[tuple[int, int]] = []  # each round of the shoe dealt ahead: (last, cut card)

    @property
    def cut_card(self) -> int:
        """The cut card's place from the end of the current shoe (0 for a fresh deck)."""
        return self._cut_ahead if self.ahead else super().cut_card

    def shuffle(self) -> None:
        self.state = state_json(self.bit_generator.state)
        if not self.ahead:
            super().shuffle()
            return
        if self.fresh_deck:
            rounds = 1
        else:  # the shoe's length: dealt from a copy of the generator first
            if type(self._probe) is not type(self.bit_generator):
                self._probe = type(self.bit_generator)()
            self._probe.state = self.bit_generator.state
            _kernels.kernels.deal_chunk(self._probe, self._params, *self._probe_arrays)
            rounds = self._probe_arrays[6].tolist().index(1) + 1
        dealt = self._buffers if self.fresh_deck else tuple(a[:rounds] for a in self._buffers)  # (rewritten by the next
        # shoe: its readers copy what they keep)
        _kernels.kernels.deal_chunk(self.bit_generator, self._params, *dealt)
        self.dealt = dealt
        self._ends = list(zip(dealt[6].tolist(), dealt[7].tolist(), strict=True))
        self._hands: list[list[list[int]]] = dealt[0].tolist()
        self._burned: list[list[int]] = dealt[1].tolist()
        self._counts: list[int] = dealt[2].tolist()
        self._heads: list[int] = dealt[3].tolist()
        self.dealt_id += 1
        self.number += 1
        self.rounds = 0
        self.last = False

    def next_round(self) -> int:
        """Take the next round of the shoe dealt ahead (shuffled when due): its index in
        ``dealt``."""
        if self.last:
            self.shuffle()
        k = self.rounds
        self.rounds += 1
        last, self._cut_ahead = self._ends[k]
        self.last = bool(last)
        return k

    def skip(self) -> None:
        """Take one round's cards without assigning them (a replay's fast-forward)."""
        if self.ahead:
            self.next_round()
        else:
            self.deal()

    def deal_round(self) -> tuple[Deal, int]:
        """Shuffle when due, then take one round's cards; return the deal and the cut
        card's place from the end (0 where there is none)."""
        if not self.ahead:
            cards, burn = self.deal()
            return assign_by_table(self.table, [Card(c) for c in cards], burn), self.cut_card
        k = self.next_round()
        of = _CARD_OF
        hand_cards = [(of[a], of[b], of[c]) for a, b, c in self._hands[k]]
        head = self._heads[k]
        return Deal(tuple([of[c] for c in self._burned[k][:self._counts[k]]]), None if head == NO_CARD else of[head],
                    hand_cards[0], dict(enumerate(hand_cards[1:], start=1))), self._cut_ahead


_CARD_OF = [Card(c) for c in range(52)]  # each card by its code
