"""Dealing (the twin of ``csrc/deal.pxi``): ``bounded`` and ``draw`` are the specification's own."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..._spec import N_CARDS, NO_CARD, Shoe, assign, bounded, draw, most_burned
from ...limits import MAX_DECKS
from .common import table_of

__all__ = ["bounded", "deal_chunk", "deal_fresh_batch", "draw"]


def deal_fresh_batch(bit_generator: Any, decks: int, out: npt.NDArray[np.uint8]) -> None:
    """For each row of ``out``: a fresh shoe in code order, then the first cards of a
    lazy Fisher-Yates shuffle."""
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be in 1..{MAX_DECKS}, got {decks}")
    n = N_CARDS * decks
    rows, k = out.shape
    if k > n:
        raise ValueError(f"cannot draw {k} cards from {decks} deck(s)")
    for r in range(rows):
        deck = [i % N_CARDS for i in range(n)]
        cards = [0] * k
        draw(bit_generator, deck, 0, k, cards)
        out[r, :] = cards


def deal_chunk(
    bit_generator: Any, params: npt.NDArray[np.int64], hands: npt.NDArray[np.uint8], burned: npt.NDArray[np.uint8],
    burn_counts: npt.NDArray[np.uint8], head_cards: npt.NDArray[np.uint8] | None, shoe: npt.NDArray[np.int64],
    round_in_shoe: npt.NDArray[np.uint16], last: npt.NDArray[np.uint8], cut_card: npt.NDArray[np.uint16],
) -> int:
    """Deal ``len(hands)`` rounds from a fresh shoe (the table of ``params``, laid out as
    ``TableParams``) as ``sanggong.dealing.Game`` deals them, and write for round i:
    its hands (``hands[i, 0]`` the banker's, ``hands[i, p]`` position p's), its burned
    cards (``burned[i, :burn_counts[i]]``, a burned head card last; the rest of the row
    ``NO_CARD``), its head card (``head_cards[i]``, ``NO_CARD`` where there is none;
    ``head_cards`` may be None), its shoe (from 1), round in shoe (from 1), whether it was
    the shoe's last (1 or 0) and the cut card's place from the end (0 for a fresh deck).
    Returns the shoes begun."""
    table = table_of(params, later_apart=False)
    head_burned = 1 if table.head_card and table.head_card_burned else 0
    rounds = hands.shape[0]
    most = most_burned(table)
    if hands.shape[1:] != (table.positions + 1, 3):
        raise ValueError(f"hands must have shape (rounds, {table.positions + 1}, 3), got {hands.shape}")
    width = burned.shape[1]
    if width < most:
        raise ValueError(f"burned must hold {most} cards a round, it holds {width}")
    for name, array in (("burned", burned), ("burn_counts", burn_counts), ("shoe", shoe),
                        ("round_in_shoe", round_in_shoe), ("last", last), ("cut_card", cut_card)):
        if len(array) != rounds:
            raise ValueError(f"{name} must hold {rounds} rounds, it holds {len(array)}")
    if head_cards is not None and len(head_cards) != rounds:
        raise ValueError(f"head_cards must hold {rounds} rounds, it holds {len(head_cards)}")
    dealer = Shoe(table, bit_generator)
    for i in range(rounds):
        cards, burn = dealer.deal()
        head, by_hand = assign(table, cards[burn:])
        gone = list(cards[:burn]) + ([head] if head is not None and head_burned else [])
        for h, hand in by_hand.items():
            hands[i, h] = list(hand)
        burned[i] = gone + [NO_CARD] * (width - len(gone))
        burn_counts[i] = len(gone)
        if head_cards is not None:
            head_cards[i] = NO_CARD if head is None else head
        shoe[i] = dealer.number
        round_in_shoe[i] = dealer.rounds
        last[i] = dealer.last
        cut_card[i] = dealer.cut_card
    return dealer.number
