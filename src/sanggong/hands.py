"""Evaluate and compare single three-card hands.

A hand's **rank** is its class number ``0..30``: higher is stronger, equal ranks tie.
``rank = 3 * points + faces`` for hands with 0, 1 or 2 faces and 30 for three faces, so
the order is ``3P > 2P9 > P9 > 9 > 2P8 > ... > 2P0 > P0 > 0``.

>>> hand = evaluate("Kh Qs 9d")
>>> hand.label, hand.points, hand.faces, hand.rank, hand.pair_plus
('2P9', 9, 2, 29, <PairPlus.NONE: 0>)
>>> compare("Kh Qs 9d", "9c 9h 9s")
1
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from . import _impl
from . import _reference as _ref
from .cards import Card, CardsLike, parse_cards

__all__ = ["CLASS_LABELS", "HandValue", "PairPlus", "compare", "evaluate", "hand_cards"]

CLASS_LABELS: tuple[str, ...] = tuple(_ref.rank_label(r) for r in range(_ref.N_CLASSES))
"""The 31 class labels, indexed by rank: ``CLASS_LABELS[30] == "3P"``."""


class PairPlus(IntEnum):
    """Pair Plus ("对牌以上") category of a hand; a higher value is a better category."""

    NONE = _ref.PP_NONE
    PAIR = _ref.PP_PAIR
    FLUSH = _ref.PP_FLUSH
    STRAIGHT = _ref.PP_STRAIGHT
    THREE_OF_A_KIND = _ref.PP_THREE_OF_A_KIND
    STRAIGHT_FLUSH = _ref.PP_STRAIGHT_FLUSH

    @property
    def label(self) -> str:
        """Lower-case name: ``"straight flush"``, ``"pair"``, ``"none"``, ..."""
        return _ref.PAIR_PLUS_NAMES[self]


def hand_cards(cards: CardsLike) -> tuple[Card, Card, Card]:
    """Parse exactly three cards; identical cards are allowed (multi-deck shoes).

    >>> hand_cards("Kh Qs")
    Traceback (most recent call last):
    ...
    ValueError: a hand is three cards, got 2: Kh Qs
    """
    parsed = parse_cards(cards)
    if len(parsed) != 3:
        shown = " ".join(map(str, parsed))
        raise ValueError(f"a hand is three cards, got {len(parsed)}: {shown}")
    return parsed[0], parsed[1], parsed[2]


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of one hand: its cards, class rank and Pair Plus category.

    >>> evaluate("Jc Qd Kh")
    HandValue(cards='Jc Qd Kh', label='3P', rank=30, pair_plus='straight')
    """

    cards: tuple[Card, Card, Card]
    rank: int
    pair_plus: PairPlus

    def __post_init__(self) -> None:
        """A HandValue made by hand must be the true value of its cards (``evaluate``
        makes them without this check, having just computed them)."""
        cards = hand_cards(self.cards)
        true = evaluate(cards)
        if self.rank != true.rank or self.pair_plus != true.pair_plus or isinstance(self.rank, bool):
            raise ValueError(
                f"HandValue(rank={self.rank!r}, pair_plus={self.pair_plus!r}) is not the value of "
                f"{' '.join(map(str, cards))}: rank {true.rank}, pair plus {true.pair_plus.label}"
            )
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "pair_plus", true.pair_plus)

    @classmethod
    def _trusted(cls, cards: tuple[Card, Card, Card], rank: int, pair_plus: PairPlus) -> HandValue:
        value = object.__new__(cls)
        object.__setattr__(value, "cards", cards)
        object.__setattr__(value, "rank", rank)
        object.__setattr__(value, "pair_plus", pair_plus)
        return value

    @property
    def points(self) -> int:
        """Sum of the card points modulo 10 (0 for three faces)."""
        return _ref.rank_points(self.rank)

    @property
    def faces(self) -> int:
        """Number of face cards (J, Q, K): 0..3."""
        return _ref.rank_faces(self.rank)

    @property
    def label(self) -> str:
        """``3P``, ``2Pn``, ``Pn`` or ``n``."""
        return CLASS_LABELS[self.rank]

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        cards = " ".join(map(str, self.cards))
        label = CLASS_LABELS[self.rank] if self.rank in range(len(CLASS_LABELS)) else "?"
        pair_plus = getattr(self.pair_plus, "label", self.pair_plus)  # even for a forged value
        return f"HandValue(cards={cards!r}, label={label!r}, rank={self.rank!r}, pair_plus={pair_plus!r})"


def evaluate(cards: CardsLike | HandValue) -> HandValue:
    """Evaluate a three-card hand.

    :param cards: a string such as ``"Kh Qs 9d"``, or three cards, strings or codes; a
        ``HandValue`` is evaluated again from its cards (its other fields are never trusted).
    :raises ValueError: a malformed card, a code outside 0..51, or not three cards.
    :raises TypeError: something that is not a card at all.

    >>> evaluate(["Ts", "Jh", "Qd"]).label
    '2P0'
    >>> evaluate("Ah 2h 3h").pair_plus.label
    'straight flush'
    """
    c0, c1, c2 = hand_cards(cards.cards if isinstance(cards, HandValue) else cards)
    kernels = _impl.kernels
    return HandValue._trusted(
        (c0, c1, c2),
        kernels.rank3(c0.code, c1.code, c2.code),
        PairPlus(kernels.pair_plus3(c0.code, c1.code, c2.code)),
    )


def compare(a: CardsLike | HandValue, b: CardsLike | HandValue) -> int:
    """Compare two hands: 1 if ``a`` beats ``b``, 0 for a tie, -1 if ``b`` beats ``a``.

    Hands of the same class tie: same points and same number of faces, or both 3P.

    >>> compare("9c 9d 9h", "Kh Qs 9d"), compare("5c Jd Kh", "Qs Jc 5d")
    (-1, 0)
    """
    ra, rb = evaluate(a).rank, evaluate(b).rank
    return (ra > rb) - (ra < rb)
