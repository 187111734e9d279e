"""Cards, hand classes and Pair Plus categories (see ``sanggong._spec``)."""

from __future__ import annotations

import operator
from typing import SupportsIndex

__all__ = [
    "N_CARDS", "N_CLASSES", "N_PAIR_PLUS", "N_RANKS", "N_SUITS", "PAIR_PLUS_NAMES", "PP_FLUSH", "PP_NONE", "PP_PAIR",
    "PP_STRAIGHT", "PP_STRAIGHT_FLUSH", "PP_THREE_OF_A_KIND", "RANK_SYMBOLS", "SUIT_SYMBOLS", "THREE_FACES_RANK",
    "card_code", "card_is_face", "card_points", "card_rank", "card_suit", "class_rank", "default_rank3", "hand_faces",
    "hand_points", "pair_plus3", "rank_faces", "rank_label", "rank_points"
]

N_CARDS = 52
N_RANKS = 13
N_SUITS = 4
N_CLASSES = 31
THREE_FACES_RANK = 30
RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "cdhs"

PP_NONE = 0
PP_PAIR = 1
PP_FLUSH = 2
PP_STRAIGHT = 3
PP_THREE_OF_A_KIND = 4
PP_STRAIGHT_FLUSH = 5
N_PAIR_PLUS = 6
PAIR_PLUS_NAMES = ("none", "pair", "flush", "straight", "three of a kind", "straight flush")


# --- cards -------------------------------------------------------------------------


def card_rank(code: int) -> int:
    """Rank of a card code: 1 (ace) .. 13 (king)."""
    return code // 4 + 1


def card_suit(code: int) -> int:
    """Suit of a card code: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return code % 4


def card_points(code: int) -> int:
    """Points of a card: ace 1, two to nine their pips, ten and the faces 0."""
    rank = card_rank(code)
    return rank if rank <= 9 else 0


def card_is_face(code: int) -> bool:
    """True for J, Q and K only; a ten is worth 0 but is not a face (公)."""
    return card_rank(code) >= 11


def card_code(value: SupportsIndex) -> int:
    """A card code as an int, checked: a bool is refused, anything else outside 0..51 too."""
    if type(value) is int and 0 <= value < N_CARDS:  # (a plain int in range, at once: the hands' loops)
        return value
    if isinstance(value, bool):
        raise TypeError(f"card code {value!r} is a bool, not an int")
    code = operator.index(value)
    if not 0 <= code < N_CARDS:
        raise ValueError(f"card code {code} is out of range (expected 0..51)")
    return code


# --- hand classes ------------------------------------------------------------------


def class_rank(points: int, faces: int) -> int:
    """The class number of a hand with these points (0..9) and faces (0..3)."""
    if faces == 3:
        return THREE_FACES_RANK
    return 3 * points + faces


def rank_points(rank: int) -> int:
    """Points of a hand class (three faces count 0 points)."""
    return 0 if rank == THREE_FACES_RANK else rank // 3


def rank_faces(rank: int) -> int:
    """Number of face cards of a hand class."""
    return 3 if rank == THREE_FACES_RANK else rank % 3


def rank_label(rank: int) -> str:
    """Display string of a hand class: ``3P``, ``2Pn``, ``Pn`` or ``n``."""
    faces = rank_faces(rank)
    if faces == 3:
        return "3P"
    points = rank_points(rank)
    return ("", "P", "2P")[faces] + str(points)


def hand_points(c0: int, c1: int, c2: int) -> int:
    return (card_points(card_code(c0)) + card_points(card_code(c1)) + card_points(card_code(c2))) % 10


def hand_faces(c0: int, c1: int, c2: int) -> int:
    return int(card_is_face(card_code(c0))) + card_is_face(card_code(c1)) + card_is_face(card_code(c2))


def default_rank3(c0: int, c1: int, c2: int) -> int:
    """Class number (0..30) of a hand under the default ranking: ``3 * points + faces``,
    30 for three faces (the numbers of the build-time tables, ``_lookups.h``)."""
    c0, c1, c2 = card_code(c0), card_code(c1), card_code(c2)
    points = (card_points(c0) + card_points(c1) + card_points(c2)) % 10
    faces = card_is_face(c0) + card_is_face(c1) + card_is_face(c2)
    return class_rank(points, faces)


def pair_plus3(c0: int, c1: int, c2: int) -> int:
    """Pair Plus category (0..5) of the hand of these three card codes.

    Aces play high or low (A-2-3 and Q-K-A are straights, K-A-2 is not). With
    identical cards from a multi-deck shoe a hand may fit several categories and
    takes the highest: suited three of a kind is three of a kind, a suited pair a flush.
    """
    c0, c1, c2 = card_code(c0), card_code(c1), card_code(c2)
    ranks = sorted((card_rank(c0), card_rank(c1), card_rank(c2)))
    flush = card_suit(c0) == card_suit(c1) == card_suit(c2)
    distinct = len(set(ranks))
    straight = distinct == 3 and (ranks[2] - ranks[0] == 2 or ranks == [1, 12, 13])
    if distinct == 1:
        return PP_THREE_OF_A_KIND
    if straight and flush:
        return PP_STRAIGHT_FLUSH
    if straight:
        return PP_STRAIGHT
    if flush:
        return PP_FLUSH
    if distinct == 2:
        return PP_PAIR
    return PP_NONE


