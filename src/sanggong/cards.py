"""Cards: ranks, suits, the ``Card`` type, and parsing of card strings.

A card is identified by an integer code in ``0..51``, ``code = 4 * (rank - 1) + suit``
(ace of clubs 0, ace of diamonds 1, ..., king of spades 51), so integer order is rank
order and ``code >> 2`` is the rank index. Cards print as two characters, the rank
(``A 2-9 T J Q K``) then the suit (``c d h s``); parsing also takes ``10`` for the ten,
either case, and the suit symbols ``♣ ♦ ♥ ♠`` (or their white forms).

>>> card = Card.parse("K♥")
>>> card, card.code, card.points, card.is_face
(Card('Kh'), 50, 0, True)
>>> parse_cards("10h js 9D")
(Card('Th'), Card('Js'), Card('9d'))
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeAlias

from ._spec import N_CARDS, RANK_SYMBOLS, SUIT_SYMBOLS, card_is_face, card_points

__all__ = ["Card", "CardLike", "CardsLike", "Rank", "Suit", "parse_card", "parse_cards"]


class Rank(IntEnum):
    """A card rank, valued 1 (ace) to 13 (king)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """One character: ``A 2-9 T J Q K``."""
        return RANK_SYMBOLS[self - 1]

    @property
    def points(self) -> int:
        """Sam Gong points: ace 1, two to nine their pips, ten and faces 0."""
        return int(self) if self <= 9 else 0

    @property
    def is_face(self) -> bool:
        """True for J, Q and K (公); a ten is not a face."""
        return self >= Rank.JACK


class Suit(IntEnum):
    """A card suit, valued 0..3 in the order clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """One letter: ``c d h s``."""
        return SUIT_SYMBOLS[self]

    @property
    def glyph(self) -> str:
        """The suit symbol ``♣ ♦ ♥ ♠``."""
        return "♣♦♥♠"[self]


_RANKS_IN = {symbol: Rank(i + 1) for i, symbol in enumerate(RANK_SYMBOLS)} | {"10": Rank.TEN}
_SUITS_IN = {s.symbol: s for s in Suit} | {s.glyph: s for s in Suit} | dict(zip("♧♢♡♤", Suit, strict=True))
_CARD = r"(10|[2-9atjqkAJTQK])([cdhsCDHS♣♦♥♠♧♢♡♤])"
_CARD_RE = re.compile(_CARD)
_CARDS_RE = re.compile(f"(?:{_CARD})+")
_SEPARATORS = re.compile(r"[\s,]+")
_EXPECTED = "expected a rank (A, 2-9, 10 or T, J, Q, K) then a suit (c, d, h, s or ♣ ♦ ♥ ♠)"


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card, stored as its code ``0..51``.

    >>> Card(0), Card.of(Rank.KING, Suit.SPADES), Card.parse("9d").code
    (Card('Ac'), Card('Ks'), 33)
    >>> Card(52)
    Traceback (most recent call last):
    ...
    ValueError: card code 52 is out of range (expected 0..51)
    """

    code: int

    def __post_init__(self) -> None:
        if isinstance(self.code, bool) or not isinstance(self.code, int):
            raise TypeError(f"card code {self.code!r} is not an int")
        if not 0 <= self.code < N_CARDS:
            raise ValueError(f"card code {self.code} is out of range (expected 0..51)")

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of this rank (1..13) and suit (0..3)."""
        r, s = Rank(rank), Suit(suit)
        return cls(4 * (r - 1) + s)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``"Kh"``, ``"K♥"``, ``"10h"``, ``"th"``.

        >>> Card.parse("1h")
        Traceback (most recent call last):
        ...
        ValueError: '1h' is not a card: expected a rank (A, 2-9, 10 or T, J, Q, K) then a suit (c, d, h, s or ♣ ♦ ♥ ♠)
        """
        if not isinstance(text, str):
            raise TypeError(f"a card string is expected, not {type(text).__name__} {text!r}")
        known = _BY_TEXT.get(text) if cls is Card else None
        if known is not None:
            return known
        match = _CARD_RE.fullmatch(text.strip())
        if match is None:
            raise ValueError(f"{text!r} is not a card: {_EXPECTED}")
        rank = _RANKS_IN[match[1].upper()]
        suit = _SUITS_IN[match[2].lower()]
        return cls.of(rank, suit)

    @property
    def rank(self) -> Rank:
        return Rank(self.code // 4 + 1)

    @property
    def suit(self) -> Suit:
        return Suit(self.code % 4)

    @property
    def points(self) -> int:
        """Sam Gong points of the card (0..9)."""
        return card_points(self.code)

    @property
    def is_face(self) -> bool:
        """True for J, Q and K."""
        return card_is_face(self.code)

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``K♥``."""
        return self.rank.symbol + self.suit.glyph

    def __index__(self) -> int:
        return self.code

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


CardLike: TypeAlias = Card | str | int
"""One card: a ``Card``, a string such as ``"Kh"``, or a code ``0..51``."""

CardsLike: TypeAlias = str | Card | int | Iterable[Card | str | int]
"""Several cards: a string such as ``"Kh Qs 9d"`` or an iterable of card-likes."""


def parse_card(card: CardLike) -> Card:
    """Normalise one card-like value to a ``Card``.

    >>> parse_card("qs"), parse_card(51), parse_card(Card(0))
    (Card('Qs'), Card('Ks'), Card('Ac'))
    """
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    if type(card) is int and 0 <= card < N_CARDS:
        return _BY_CODE[card]
    if isinstance(card, bool):
        raise TypeError(f"{card!r} is not a card (a bool, not a card code)")
    try:
        code = operator.index(card)
    except TypeError:
        raise TypeError(
            f"{card!r} is not a card: expected a Card, a string such as 'Kh', or a code 0..51"
        ) from None
    return Card(code)


def _split(text: str) -> list[str]:
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if not tokens:
        raise ValueError(f"{text!r} holds no cards")
    out: list[str] = []
    for token in tokens:
        if _CARDS_RE.fullmatch(token) and not _CARD_RE.fullmatch(token):
            out.extend(m[0] for m in _CARD_RE.finditer(token))  # "KhQs9d"
        else:
            out.append(token)
    return out


_BYTES = (bytes, bytearray, memoryview)


def card_items(cards: CardsLike, what: str = "cards") -> Iterator[Card | str | int]:
    """The card-likes of ``cards`` (a string's tokens, one card, or the items of an
    iterable), one at a time (nothing long is gathered before it is checked). Bytes are
    refused, never read as card codes: ``b"123"`` is not the cards 49, 50 and 51."""
    if isinstance(cards, _BYTES):
        raise TypeError(f"{what}: {type(cards).__name__} is not cards: write them as text ('Kh Qs 9d'), "
                        f"or decode the bytes first")
    if isinstance(cards, str):
        yield from _split(cards)
    elif isinstance(cards, Card) or not isinstance(cards, Iterable):
        yield cards  # parse_card names a value of a wrong type
    else:
        for card in cards:
            if isinstance(card, _BYTES):
                raise TypeError((f"{what}: {card!r}"[:60]) + " is bytes, not a card: write cards as text")
            yield card


def parse_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Normalise cards given as one string, one card, or an iterable of card-likes.

    Cards in a string are separated by spaces or commas, or written back to back.

    >>> parse_cards("KhQs9d") == parse_cards(["Kh", "Qs", 33])
    True
    >>> parse_cards("Kh Qx")
    Traceback (most recent call last):
    ...
    ValueError: 'Qx' is not a card: expected a rank (A, 2-9, 10 or T, J, Q, K) then a suit (c, d, h, s or ♣ ♦ ♥ ♠)
    """
    if isinstance(cards, str):
        tokens = cards.split()  # the common case: cards as written, one a token
        if tokens and all(token in _BY_TEXT for token in tokens):
            return tuple(_BY_TEXT[token] for token in tokens)
        return tuple(Card.parse(token) for token in _split(cards))
    return tuple(parse_card(card) for card in card_items(cards))


# Every card once, and every spelling of one card that Card.parse reads (a rank's symbol in
# either case or "10", then a suit's letter in either case or its symbol): parsing a
# card is then a look-up. Made from the parser itself, so the two cannot disagree.
_BY_CODE: tuple[Card, ...] = tuple(Card(code) for code in range(N_CARDS))
_BY_TEXT: dict[str, Card] = {}
for _rank in [*RANK_SYMBOLS, *RANK_SYMBOLS.lower(), "10"]:
    for _suit in [*SUIT_SYMBOLS, *SUIT_SYMBOLS.upper(), *"♣♦♥♠♧♢♡♤"]:
        if _CARD_RE.fullmatch(_rank + _suit):
            _BY_TEXT[_rank + _suit] = _BY_CODE[Card.parse(_rank + _suit).code]
del _rank, _suit
