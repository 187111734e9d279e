"""The pure-Python reference: the game's logic written plainly, the single source of truth.

Every kernel of the compiled core (``_core.pyx``) has a twin here with the same name,
signature and results; the lookup tables of the core are generated from the functions
of this module (``tools/gen_tables.py``), never typed in by hand.

This module depends on the standard library and NumPy only and uses no relative
import, so that the build can load it by path to generate the tables.

Card codes
----------
A card is an integer ``code = 4 * (rank - 1) + suit`` in ``0..51``: ``rank`` is
1 (ace) .. 13 (king) and ``suit`` is 0 clubs, 1 diamonds, 2 hearts, 3 spades.
So ``code // 4`` is the rank index, ``code % 4`` the suit, ``0`` is the ace of clubs
and ``51`` the king of spades; integer order is rank order.

Hand ranks
----------
The 31 hand classes are numbered ``0..30`` so that a higher number is a stronger hand
and equal numbers tie: ``rank = 3 * points + faces`` for hands with 0, 1 or 2 faces
(``0`` is "0", ``29`` is "2P9") and ``30`` is three faces ("3P").

Pair Plus categories
--------------------
``0`` none, ``1`` pair, ``2`` flush, ``3`` straight, ``4`` three of a kind,
``5`` straight flush: a higher number is a better category.
"""

from __future__ import annotations

import itertools
import math
import operator
from typing import Any
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

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

IMPLEMENTATION = "python"


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


def _code(value: int) -> int:
    if isinstance(value, bool):
        raise TypeError(f"card code {value!r} is a bool, not an int")
    code = operator.index(value)
    if not 0 <= code < N_CARDS:
        raise ValueError(f"card code {code} is out of range (expected 0..51)")
    return code


def pair_plus3(c0: int, c1: int, c2: int) -> int:
    """Pair Plus category (0..5) of the hand of these three card codes.

    Aces play high or low (A-2-3 and Q-K-A are straights, K-A-2 is not). With
    identical cards from a multi-deck shoe a hand may fit several categories and
    takes the highest: suited three of a kind is three of a kind, a suited pair a flush.
    """
    c0, c1, c2 = _code(c0), _code(c1), _code(c2)
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


# --- rankings ---------------------------------------------------------------------------
# A ranking orders hands in three steps, each a field of ``sanggong.ranking.Ranking``
# (read here only through its attributes ``order``, ``tiers`` and ``high_card``):
#
# 1. **tiers**, strongest first: a hand that fits a tier beats every hand that fits a later
#    tier or none; a hand belongs to the first tier it fits.
# 2. below the tiers, the **order**: ``points_faces`` (points, then more faces; today's
#    Macau and online ranking), ``points`` (points only) or ``faces_points`` (more faces
#    first, then points).
# 3. hands still equal are separated by the **high card**: ``none`` (they tie), ``rank``
#    (the rank of each hand's highest card, K high .. A low) or ``rank_suit`` (that, then
#    the highest card's suit, spades > hearts > clubs > diamonds).
#
# ``hand_key`` is the comparison key (higher wins, equal ties); ``class_key`` the coarse
# class every bet but a comparison reads: (tier level, points, faces).

ORDERS = ("points_faces", "points", "faces_points")
TIERS = ("three_threes", "face_trips", "trips", "three_faces")
TIER_LABELS = {"three_threes": "333", "face_trips": "3P trips", "trips": "trips", "three_faces": "3P"}
HIGH_CARDS = ("none", "rank", "rank_suit")
SUIT_STRENGTH = (1, 0, 2, 3)  # by suit code (clubs, diamonds, hearts, spades): d < c < h < s


def fits_tier(tier: str, ranks: Sequence[int]) -> bool:
    """Whether three cards of these ranks (1 ace .. 13 king) fit a tier."""
    trips = ranks[0] == ranks[1] == ranks[2]
    if tier == "three_threes":
        return trips and ranks[0] == 3
    if tier == "face_trips":
        return trips and ranks[0] >= 11
    if tier == "trips":
        return trips
    if tier == "three_faces":
        return min(ranks) >= 11
    raise ValueError(f"unknown tier {tier!r}")


def hand_level(ranking, c0: int, c1: int, c2: int) -> int:  # type: ignore[no-untyped-def]
    """0 for a hand outside every tier, else ``len(tiers) - i`` for the first tier i it fits."""
    ranks = [card_rank(_code(c)) for c in (c0, c1, c2)]
    for i, tier in enumerate(ranking.tiers):
        if fits_tier(tier, ranks):
            return len(ranking.tiers) - i
    return 0


def hand_points(c0: int, c1: int, c2: int) -> int:
    return (card_points(_code(c0)) + card_points(_code(c1)) + card_points(_code(c2))) % 10


def hand_faces(c0: int, c1: int, c2: int) -> int:
    return int(card_is_face(_code(c0))) + card_is_face(_code(c1)) + card_is_face(_code(c2))


def high_card_key(ranking, c0: int, c1: int, c2: int) -> int:  # type: ignore[no-untyped-def]
    """The highest card's strength: 0 (``none``), its rank less one (``rank``) or
    4 * (rank - 1) + suit strength (``rank_suit``)."""
    if ranking.high_card == "none":
        return 0
    codes = [_code(c) for c in (c0, c1, c2)]
    if ranking.high_card == "rank":
        return max(card_rank(c) for c in codes) - 1
    return max(4 * (card_rank(c) - 1) + SUIT_STRENGTH[card_suit(c)] for c in codes)


def hand_key(ranking, c0: int, c1: int, c2: int) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    """The comparison key of a hand: (tier level, order within the level, high card).
    Of two hands the one with the larger key wins; equal keys tie."""
    level = hand_level(ranking, c0, c1, c2)
    points, faces = hand_points(c0, c1, c2), hand_faces(c0, c1, c2)
    if level:
        base = 0  # every hand of a tier is alike but for its high card
    elif ranking.order == "points_faces":
        base = 4 * points + faces
    elif ranking.order == "points":
        base = points
    elif ranking.order == "faces_points":
        base = 10 * faces + points
    else:
        raise ValueError(f"unknown order {ranking.order!r}")
    return (level, base, high_card_key(ranking, c0, c1, c2))


def class_key(ranking, c0: int, c1: int, c2: int) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    """The class of a hand that bets other than a comparison read: (tier level, points,
    faces). Under an order of points only, faces count only as three (3P) or not (0):
    nothing else reads them, and the classes stay as coarse as the ranking."""
    faces = hand_faces(c0, c1, c2)
    if ranking.order == "points" and faces < 3:
        faces = 0
    return (hand_level(ranking, c0, c1, c2), hand_points(c0, c1, c2), faces)


def class_label(ranking, key: tuple[int, int, int]) -> str:  # type: ignore[no-untyped-def]
    """Display string of a class: a tier's label (``3P``, ``trips``, ``3P trips``,
    ``333``), else ``3P``, ``2Pn``, ``Pn`` or ``n``."""
    level, points, faces = key
    if level:
        return TIER_LABELS[ranking.tiers[len(ranking.tiers) - level]]
    if faces == 3:
        return "3P"
    return ("", "P", "2P")[faces] + str(points)


def triple_keys(ranking) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:  # type: ignore[no-untyped-def]
    """``hand_key`` and ``class_key`` of all 140,608 ordered triples of card codes at once,
    each key packed in one integer in the same order (index ``52 * (52 * c0 + c1) + c2``).
    The same rules as the functions above, written with NumPy so that a ranking's tables
    take milliseconds; the test suite checks the two agree on every triple."""
    codes = np.arange(N_CARDS)
    c0, c1, c2 = (a.reshape(-1) for a in np.meshgrid(codes, codes, codes, indexing="ij"))
    r0, r1, r2 = c0 // 4 + 1, c1 // 4 + 1, c2 // 4 + 1
    pts = np.where(r0 <= 9, r0, 0) + np.where(r1 <= 9, r1, 0) + np.where(r2 <= 9, r2, 0)
    points = pts % 10
    faces = (r0 >= 11).astype(np.int64) + (r1 >= 11) + (r2 >= 11)
    trips = (r0 == r1) & (r1 == r2)
    fits = {
        "three_threes": trips & (r0 == 3),
        "face_trips": trips & (r0 >= 11),
        "trips": trips,
        "three_faces": faces == 3,
    }
    level = np.zeros_like(c0)
    for i, tier in reversed(list(enumerate(ranking.tiers))):  # the first tier fitted wins
        level = np.where(fits[tier], len(ranking.tiers) - i, level)
    base = {"points_faces": 4 * points + faces, "points": points, "faces_points": 10 * faces + points}[ranking.order]
    base = np.where(level > 0, 0, base)
    if ranking.high_card == "none":
        high = np.zeros_like(c0)
    elif ranking.high_card == "rank":
        high = np.maximum(np.maximum(r0, r1), r2) - 1
    else:
        strength = np.array(SUIT_STRENGTH)
        k0, k1, k2 = (4 * (r - 1) + strength[c % 4] for r, c in ((r0, c0), (r1, c1), (r2, c2)))
        high = np.maximum(np.maximum(k0, k1), k2)
    if ranking.order == "points":
        faces = np.where(faces == 3, 3, 0)
    return (level * 64 + base) * 64 + high, (level * 16 + points) * 4 + faces


def triple_pair_plus() -> npt.NDArray[np.int64]:
    """``pair_plus3`` of all 140,608 ordered triples at once (same index as
    ``triple_keys``), with NumPy; checked against ``pair_plus3`` by the test suite."""
    codes = np.arange(N_CARDS)
    c = [a.reshape(-1) for a in np.meshgrid(codes, codes, codes, indexing="ij")]
    ranks = np.sort(np.stack([x // 4 + 1 for x in c]), axis=0)
    lo, mid, hi = ranks
    flush = (c[0] % 4 == c[1] % 4) & (c[1] % 4 == c[2] % 4)
    distinct = 1 + (mid != lo) + (hi != mid)
    straight = (distinct == 3) & ((hi - lo == 2) | ((lo == 1) & (mid == 12) & (hi == 13)))
    out = np.select(
        [distinct == 1, straight & flush, straight, flush, distinct == 2],
        [PP_THREE_OF_A_KIND, PP_STRAIGHT_FLUSH, PP_STRAIGHT, PP_FLUSH, PP_PAIR],
        PP_NONE,
    )
    return out.astype(np.int64)


def unpack_hand_key(packed: int) -> tuple[int, int, int]:
    return (packed // 4096, packed // 64 % 64, packed % 64)


def unpack_class_key(packed: int) -> tuple[int, int, int]:
    return (packed // 64, packed // 4 % 16, packed % 4)


class Tables:
    """A ranking's hand ranks and classes, computed plainly: the twin of the compiled
    core's ``Tables``. ``source`` is a ``sanggong.ranking.RankingTables``, whose
    ``rank_keys`` and ``rank_values`` number the ranks and sorted ``class_keys`` the
    classes; every hand is ranked here by ``hand_key`` and ``class_key`` themselves, not by
    its lookup tables."""

    def __init__(self, source) -> None:  # type: ignore[no-untyped-def]
        self.source = source
        self.ranking = source.ranking
        self.rank_of_key: dict[tuple[int, int, int], int] = dict(zip(source.rank_keys, source.rank_values, strict=True))
        self.class_of_key = {key: i for i, key in enumerate(source.class_keys)}
        self.class_keys = tuple(source.class_keys)
        self.n_ranks, self.n_classes = int(source.n_ranks), len(source.class_keys)
        self.ordered_by_class = bool(source.ordered_by_class)
        self.wide = self.n_ranks > 256

    def rank(self, c0: int, c1: int, c2: int) -> int:
        return self.rank_of_key[hand_key(self.ranking, c0, c1, c2)]

    def cls(self, c0: int, c1: int, c2: int) -> int:
        return self.class_of_key[class_key(self.ranking, c0, c1, c2)]

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Tables, (self.source,))


def rank3(tables: Tables, c0: int, c1: int, c2: int) -> int:
    """Rank (higher wins, equal ties) of the hand of these three card codes."""
    return tables.rank(c0, c1, c2)


def class3(tables: Tables, c0: int, c1: int, c2: int) -> int:
    """Class number of the hand of these three card codes."""
    return tables.cls(c0, c1, c2)


def default_rank3(c0: int, c1: int, c2: int) -> int:
    """Class number (0..30) of a hand under the default ranking: ``3 * points + faces``,
    30 for three faces (the numbers of the build-time tables, ``_tables.h``)."""
    c0, c1, c2 = _code(c0), _code(c1), _code(c2)
    points = (card_points(c0) + card_points(c1) + card_points(c2)) % 10
    faces = card_is_face(c0) + card_is_face(c1) + card_is_face(c2)
    return class_rank(points, faces)


# --- batch kernels -----------------------------------------------------------------
# Same contract as the compiled core: ``hands`` is an (n, 3) integer array already
# checked for shape and dtype by ``sanggong.batch``; the kernels check every code and
# return the index of the first row holding one outside 0..51 (-1 when all are valid),
# leaving the outputs from that row on unspecified.

Rows = Sequence[Sequence[int]]


def _first_bad_row(rows: Rows) -> int:
    for i, row in enumerate(rows):
        if any(not 0 <= code < N_CARDS for code in row):
            return i
    return -1


def _rows(hands: npt.NDArray[np.integer]) -> list[list[int]]:
    rows: list[list[int]] = hands.tolist()
    return rows


def rank_batch(tables: Tables, hands: npt.NDArray[np.integer], out: npt.NDArray[np.integer]) -> int:
    """Write the rank of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = tables.rank(c0, c1, c2)
    return bad


def pair_plus_batch(tables: Tables, hands: npt.NDArray[np.integer], out: npt.NDArray[np.uint8]) -> int:
    """Write the Pair Plus category of each row of ``hands`` into ``out``."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        out[i] = pair_plus3(c0, c1, c2)
    return bad


def evaluate_batch(
    tables: Tables,
    hands: npt.NDArray[np.integer],
    ranks: npt.NDArray[np.integer],
    pair_plus: npt.NDArray[np.uint8],
) -> int:
    """Write both the rank and the Pair Plus category of each row."""
    rows = _rows(hands)
    bad = _first_bad_row(rows)
    for i, (c0, c1, c2) in enumerate(rows[: bad if bad >= 0 else len(rows)]):
        ranks[i] = tables.rank(c0, c1, c2)
        pair_plus[i] = pair_plus3(c0, c1, c2)
    return bad


def compare_batch(
    tables: Tables, a: npt.NDArray[np.integer], b: npt.NDArray[np.integer], out: npt.NDArray[np.int8]
) -> int:
    """Write 1, 0 or -1 as row i of ``a`` beats, ties or loses to row i of ``b``."""
    rows_a, rows_b = _rows(a), _rows(b)
    bad_a, bad_b = _first_bad_row(rows_a), _first_bad_row(rows_b)
    bad = min((i for i in (bad_a, bad_b) if i >= 0), default=-1)
    stop = bad if bad >= 0 else len(rows_a)
    for i in range(stop):
        ra = tables.rank(*rows_a[i])
        rb = tables.rank(*rows_b[i])
        out[i] = (ra > rb) - (ra < rb)
    return bad


# --- settlement ----------------------------------------------------------------------
# The outcome of a bet, written plainly from the rules (docs/rules.md). The compiled core
# settles by table lookup; its tables (``sanggong.settlement``) are generated from
# ``bet_outcome`` below and the two are compared on every input in the test suite.

OUT_LOSE = 0
OUT_WIN = 1
OUT_WIN_ON_SIX = 2  # Win/Lose (Dragon/Phoenix) when the winning hand has 6 points
OUT_PUSH = 3  # the stake is returned
OUT_CARRIED = 4  # the stake stays on the table for the next round
OUT_PAIR_PLUS = 4  # Pair Plus wins: OUT_PAIR_PLUS + category (5 pair .. 9 straight flush)
OUT_MULTIPLIED = 10  # banker game: 10 + 2 i the player wins, 11 + 2 i loses, x multiplier i
MAX_MULTIPLIERS = 16
OUT_TOTAL = OUT_MULTIPLIED + 2 * MAX_MULTIPLIERS  # a total bet wins: 42 + i, the i-th range of total_pays
MAX_TOTALS = 45  # ranges of winning totals: 1 .. 9 alone and a-b, 1 <= a < b <= 9
N_OUTCOMES = OUT_TOTAL + MAX_TOTALS

# bets that read two hands (the hand at their position, or a two-hand table's first hand,
# Dragon, against the banker's, or the second hand, Phoenix) and the order of the two
COMPARISONS = ("win", "lose", "tie", "dragon", "phoenix", "player", "total")
# bets that read a hand's Pair Plus category
CATEGORY_BETS = ("pair_plus", "pair")
# bets that read the hand at their position (0: the banker's, or Phoenix's)
ON_HAND = (*COMPARISONS, "three_faces", *CATEGORY_BETS, "odd", "even")


def total_number(key: str) -> int:
    """A total bet's range (``"1-6"``, ``"9"``) as one number, 10 x low + high: the n of
    its name that ``bet_outcome`` reads (16, 99)."""
    low, _, high = key.partition("-")
    return 10 * int(low) + int(high or low)


def total_range(number: int) -> tuple[int, int]:
    """The lowest and highest winning total of a total bet's number (``total_number``)."""
    return divmod(number, 10)


def total_key(number: int) -> str:
    """The key of ``total_pays`` (and the suffix of the bet's name) of a total bet's number."""
    low, high = total_range(number)
    return str(low) if low == high else f"{low}-{high}"


def winning_total(  # type: ignore[no-untyped-def]
    rules, hand: tuple[int, int, int], banker: tuple[int, int, int], order: int,
) -> int | None:
    """The total the total bets read (docs/rules.md): the winning hand's points, a hand of
    a tier counting its own (``rules.total_tier = "points"``); on an exact tie the points
    both hands have. None where every total bet is returned: both hands total 0, a winner
    of 0 points over a hand of points (``total_zero = "winner"``: no bet covers a total of
    0), a winning hand of a tier (``total_tier = "push"``), or an exact tie of hands of
    unequal points (a tier without a high-card tie-break: no one winning total)."""
    if hand[1] == 0 and banker[1] == 0:
        return None
    if order == 0 and hand[1] != banker[1]:
        return None
    winner = banker if order < 0 else hand
    if winner[0] and rules.total_tier == "push":
        return None
    if winner[1] == 0 and rules.total_zero == "winner":
        return None
    return winner[1]


def points_tie(hand: tuple[int, int, int], banker: tuple[int, int, int]) -> bool:
    """Two hands of these classes tie on points: both outside every tier with equal
    points, or both in the same tier (so three faces tie only three faces)."""
    return hand[0] == banker[0] and (hand[0] > 0 or hand[1] == banker[1])


def multiplier_key(ranking, key: tuple[int, int, int]) -> str:  # type: ignore[no-untyped-def]
    """Which multiplier of a banker game a winning hand of this class sets: its tier's,
    or its points' (``"0"`` .. ``"9"``)."""
    level, points, _ = key
    return ranking.tiers[len(ranking.tiers) - level] if level else str(points)


def bet_outcome(  # type: ignore[no-untyped-def]
    rules, kind: str, number: int, hand: tuple[int, int, int], hand_pp: int,
    banker: tuple[int, int, int], order: int,
) -> int:
    """Outcome code of one bet, written plainly from the rules (docs/rules.md).

    ``hand`` is the class key (tier level, points, faces) of the hand the bet is on (the
    banker's for bets on the banker), ``hand_pp`` its Pair Plus category, ``banker`` the
    banker's class key (a two-hand table's second hand, Phoenix), ``order`` 1, 0 or -1 as
    the hand beats, ties or loses to it under the ranking; ``number`` is n of ``point:n``,
    or a total bet's range (``total_number``). ``rules`` is a ``sanggong.rules.RuleSet``.
    """
    push = OUT_CARRIED if rules.push == "carried" else OUT_PUSH
    if kind == "tie":
        tied = points_tie(hand, banker) if rules.tie_by == "points" else order == 0
        return OUT_WIN if tied else OUT_LOSE
    if kind == "player":
        if order == 0:
            return OUT_PUSH
        winner = hand if order > 0 else banker
        index: int = rules.multiplier_values.index(rules.multipliers[multiplier_key(rules.ranking, winner)])
        return OUT_MULTIPLIED + 2 * index + (order < 0)
    if kind in ("win", "lose", "dragon", "phoenix"):
        if order == 0:
            return push
        if kind in ("lose", "phoenix"):
            order, winner = -order, banker
        else:
            winner = hand
        if order < 0:
            return OUT_LOSE
        on_six = winner[0] == 0 and winner[1] == 6 and winner[2] < 3
        return OUT_WIN_ON_SIX if on_six and f"{kind}_on_six" in rules.pays else OUT_WIN
    if kind == "total":
        total = winning_total(rules, hand, banker, order)
        if total is None:
            return OUT_PUSH
        low, high = total_range(number)
        if not low <= total <= high:
            return OUT_LOSE
        return OUT_TOTAL + list(rules.total_pays).index(total_key(number))
    three_faces = hand[2] == 3
    if kind in ("odd", "even"):
        if three_faces and rules.banker_three_faces_odd_even != "points":
            return push if rules.banker_three_faces_odd_even == "push" else OUT_LOSE
        return OUT_WIN if (hand[1] % 2 == 1) == (kind == "odd") else OUT_LOSE
    if kind == "three_faces":
        return OUT_WIN if three_faces else OUT_LOSE
    if kind == "point":
        points = rules.banker_three_faces_point if three_faces else hand[1]
        return OUT_WIN if points == number else OUT_LOSE
    if kind == "pair_plus":
        return OUT_LOSE if hand_pp == PP_NONE else OUT_PAIR_PLUS + hand_pp
    if kind == "pair":  # the hand's category is a pair (or three of a kind, where they count)
        won = hand_pp == PP_PAIR or (hand_pp == PP_THREE_OF_A_KIND and rules.pair_counts_trips)
        return OUT_WIN if won else OUT_LOSE
    raise ValueError(f"unknown bet kind {kind!r}")


def settle_batch(plan, classes, ranks, pps, out) -> int:  # type: ignore[no-untyped-def]
    """Outcome of every bet of ``plan`` in every round: ``classes``, ``ranks`` and ``pps``
    are (n, hands) arrays (column 0 the banker, column i position i), ``out`` is
    (n, bets). Returns the first round holding a class of ``plan.n_classes`` or more or a
    category above 5, or -1."""
    keys = plan.class_keys
    rows_c, rows_r, rows_p = classes.tolist(), ranks.tolist(), pps.tolist()
    for i, (hand_classes, hand_ranks, hand_pps) in enumerate(zip(rows_c, rows_r, rows_p)):
        if any(not 0 <= c < plan.n_classes for c in hand_classes) or any(not 0 <= p < N_PAIR_PLUS for p in hand_pps):
            return i
        for j, spec in enumerate(plan.specs):
            h = spec.position if spec.kind in ON_HAND else 0
            a, b = hand_ranks[h], hand_ranks[0]
            out[i, j] = bet_outcome(
                plan.rules, spec.kind, spec.number, keys[hand_classes[h]], hand_pps[h],
                keys[hand_classes[0]], (a > b) - (a < b),
            )
    return -1


# --- shuffling and dealing -------------------------------------------------------------
# The same algorithms as the compiled core, drawing the same 64-bit words: the core calls
# the bit generator's ``next_uint64``, and so does the reference, through ``next_uint64``
# below, for every bit generator: ``random_raw()`` where it is that word (PCG64,
# PCG64DXSM, Philox, SFC64), and otherwise (MT19937, whose raw output is 32-bit, or a bit
# generator of the caller's) numpy's own full-range draw, which is one ``next_uint64``.
# Both implementations therefore deal the same cards, bit for bit, from any bit
# generator. (Each draw takes the bit generator's lock itself, so the reference does not
# hold it around a loop: the lock is not reentrant.)

_MASK64 = (1 << 64) - 1
_RAW_IS_64 = (np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64)


def next_uint64(bit_generator) -> int:  # type: ignore[no-untyped-def]
    """The bit generator's next 64-bit word, as the core's ``next_uint64`` draws it."""
    if type(bit_generator) in _RAW_IS_64:
        return int(bit_generator.random_raw())
    if not isinstance(bit_generator, np.random.BitGenerator):
        raise TypeError(f"{bit_generator!r} is not a numpy BitGenerator")
    # integers over the whole 64-bit range is exactly one next_uint64 (numpy's bounded
    # draw returns the word itself when the range is 2**64); the Generator shares the state
    return int(np.random.Generator(bit_generator).integers(0, 1 << 64, dtype=np.uint64))


def _bounded_raw(bit_generator, n: int) -> int:  # type: ignore[no-untyped-def]
    product = next_uint64(bit_generator) * n
    if product & _MASK64 < n:
        threshold = (1 << 64) % n
        while product & _MASK64 < threshold:
            product = next_uint64(bit_generator) * n
    return product >> 64


def bounded(bit_generator, n: int) -> int:  # type: ignore[no-untyped-def]
    """A uniform integer in [0, n), n >= 1 (Lemire's method on 64-bit draws)."""
    if n < 1:
        raise ValueError(f"bound {n} must be at least 1")
    return _bounded_raw(bit_generator, n)


# Batched bounded integers (the compiled sg_draw in _random.h takes the same words): the
# Fisher-Yates bounds of a draw are grouped, each group the longest run of the next bounds
# whose product stays at most 2**52, and one 64-bit word x gives a whole group. Here the
# group's numbers are read plainly as the mixed-radix digits of floor(x * P / 2**64),
# rejected (and x redrawn) while x * P mod 2**64 < 2**64 mod P; the compiled core gets
# the same digits by a chain of multiplications instead, and the tests compare the two.

BATCH_LIMIT = 1 << 52


def _fisher_yates_offsets(bit_generator, n: int, start: int, count: int) -> list[int]:  # type: ignore[no-untyped-def]
    """For drawing cards start .. start + count - 1 of an n-card deck: the offset r of
    each (card i is swapped with card i + r, r uniform in [0, n - i))."""
    offsets: list[int] = []
    i, end = start, start + count
    while i < end:
        bounds = [n - i]
        product = n - i
        while i + len(bounds) < end and product * (n - i - len(bounds)) <= BATCH_LIMIT:
            product *= n - i - len(bounds)
            bounds.append(n - i - len(bounds))
        number = _bounded_raw(bit_generator, product)  # one word: floor(x * P / 2**64), Lemire
        digits = []
        for bound in reversed(bounds):
            number, digit = divmod(number, bound)
            digits.append(digit)
        offsets.extend(reversed(digits))
        i += len(bounds)
    return offsets


def draw(bit_generator, deck, start: int, count: int, out) -> None:  # type: ignore[no-untyped-def]
    """Draw ``count`` cards from ``deck[start:]`` into ``out`` by lazy Fisher-Yates."""
    n = len(deck)
    if n > 52 * 64:  # as the compiled core, whose group table covers 64 decks
        raise ValueError(f"cannot draw from a {n}-card deck: at most {52 * 64} cards")
    if start < 0 or count < 0 or start + count > n:
        raise ValueError(f"cannot draw {count} cards from position {start} of a {n}-card deck")
    if len(out) < count:
        raise ValueError(f"out holds {len(out)} cards, {count} are drawn")
    for i, offset in enumerate(_fisher_yates_offsets(bit_generator, n, start, count), start):
        j = i + offset
        deck[i], deck[j] = deck[j], deck[i]
        out[i - start] = deck[i]


def deal_fresh_batch(bit_generator, decks: int, out) -> None:  # type: ignore[no-untyped-def]
    """For each row of ``out``: a fresh shoe in code order, then the first cards of a
    lazy Fisher-Yates shuffle."""
    if not 1 <= decks <= 64:
        raise ValueError(f"decks must be in 1..64, got {decks}")
    n = 52 * decks
    rows, k = out.shape
    if k > n:
        raise ValueError(f"cannot draw {k} cards from {decks} deck(s)")
    for r in range(rows):
        deck = [i % 52 for i in range(n)]
        cards = [0] * k
        draw(bit_generator, deck, 0, k, cards)
        out[r, :] = cards


# Raw rounds (the compiled deal_chunk, and shoe_init / shoe_deal of _core.pxd): a shoe
# dealt round after round exactly as sanggong.dealing.Game deals, the cards of each
# round assigned to the hands and written out for simulators of their own.

NO_CARD = 255


def deal_chunk(  # type: ignore[no-untyped-def]
    bit_generator, params, hands, burned, burn_counts, head_cards, shoe, round_in_shoe, last, cut_card
) -> int:
    """Deal ``len(hands)`` rounds from a fresh shoe (the table of ``params``, laid out as
    ``simulate_chunk``'s) as ``sanggong.dealing.Game`` deals them, and write for round i:
    its hands (``hands[i, 0]`` the banker's, ``hands[i, p]`` position p's), its burned
    cards (``burned[i, :burn_counts[i]]``, a burned head card last; the rest of the row
    ``NO_CARD``), its head card (``head_cards[i]``, ``NO_CARD`` where there is none;
    ``head_cards`` may be None), its shoe (from 1), round in shoe (from 1), whether it was
    the shoe's last (1 or 0) and the cut card's place from the end (0 for a fresh deck).
    Returns the shoes begun."""
    if len(params) != 10:
        raise ValueError("params must hold 10 values")
    decks, positions, fresh, burn_first, burn_later, head, head_burned, one_at_a_time, cut_lo, cut_hi = (
        int(x) for x in params
    )
    head_burned = 1 if head and head_burned else 0
    n_cards = 52 * decks
    n_hands = positions + 1
    if not (1 <= decks <= 64 and 1 <= positions < 17 and 0 <= burn_first <= 64 and 0 <= burn_later <= 64
            and burn_first + head_burned + 3 * n_hands <= n_cards
            and (fresh or (1 <= cut_lo <= cut_hi < n_cards and burn_later + head_burned + 3 * n_hands <= cut_lo))):
        raise ValueError(f"params {[int(x) for x in params]} do not describe a table this kernel deals")
    rounds = hands.shape[0]
    most = (burn_first if fresh else max(burn_first, burn_later)) + head_burned
    if hands.shape[1:] != (n_hands, 3):
        raise ValueError(f"hands must have shape (rounds, {n_hands}, 3), got {hands.shape}")
    width = burned.shape[1]
    if width < most:
        raise ValueError(f"burned must hold {most} cards a round, it holds {width}")
    for name, array in (("burned", burned), ("burn_counts", burn_counts), ("shoe", shoe),
                        ("round_in_shoe", round_in_shoe), ("last", last), ("cut_card", cut_card)):
        if len(array) != rounds:
            raise ValueError(f"{name} must hold {rounds} rounds, it holds {len(array)}")
    if head_cards is not None and len(head_cards) != rounds:
        raise ValueError(f"head_cards must hold {rounds} rounds, it holds {len(head_cards)}")
    deck: list[int] = []
    number = in_shoe = pos = 0
    cut = n_cards
    is_last = True
    for i in range(rounds):
        if fresh or is_last:  # shuffle: the cards back in code order, the cut card placed
            deck = [c % 52 for c in range(n_cards)]
            number += 1
            in_shoe = pos = 0
            if not fresh:
                cut = n_cards - (cut_lo + _bounded_raw(bit_generator, cut_hi - cut_lo + 1))
        burn = burn_first if in_shoe == 0 else burn_later
        count = burn + head_burned + 3 * n_hands
        cards = [0] * count
        draw(bit_generator, deck, pos, count, cards)
        start, pos = pos, pos + count
        in_shoe += 1
        is_last = bool(fresh) or start <= cut < pos
        # assign the cards as dealing.assign does
        gone, rest = cards[:burn], cards[burn:]
        head_code = NO_CARD
        if head:
            head_code = rest[0]
            if head_burned:
                gone.append(rest.pop(0))
            first = (card_rank(head_code) - 1) % 4  # the hand the head card names (dealing.first_hand)
            order = [(first + k) % n_hands for k in range(n_hands)]  # from the hand it names, round the cycle
        else:
            order = [*range(1, n_hands), 0]  # position 1 first, the banker last
        for k, h in enumerate(order):
            if head or not one_at_a_time:
                hands[i, h] = rest[3 * k : 3 * k + 3]
            else:  # one card at a time round the table
                hands[i, h] = rest[k :: n_hands]
        burned[i] = gone + [NO_CARD] * (width - len(gone))
        burn_counts[i] = len(gone)
        if head_cards is not None:
            head_cards[i] = head_code
        shoe[i] = number
        round_in_shoe[i] = in_shoe
        last[i] = is_last
        cut_card[i] = n_cards - cut
    return number


# --- exact counting ---------------------------------------------------------------------
# A hand's class and rank depend on as little as its ranking reads: counting goes over 11
# "class ranks" (A..9, T, a face: J, Q and K alike) or the 13 ranks (``Ranking.kinds``),
# whose hands are the multisets of 3 (``kind_multisets``). A multiset with m_k cards of
# kind k can be drawn in prod C(c_k, m_k) ways from a shoe holding c_k such cards; a
# second hand then in prod C(c_k - m_k, m'_k). A ranking that breaks ties by suit counts
# over the 13 ranks as well: two hands then compare by their ranks with the strongest
# card's suit left out, and where those are equal the hands share their highest rank, so
# only the suits of that one rank's cards can still separate them: the ways to draw those
# cards are split by how the two hands' strongest suits compare (``suit_split``), the
# other cards counted as for any ranking. Pair Plus needs every suit: its counts go over
# the 52 card kinds.

N_CLASS_RANKS = 11


def class_rank_of(code: int) -> int:
    """0..8 for A..9, 9 for a ten, 10 for a face (J, Q, K)."""
    return min(card_rank(code) - 1, 10)


def _comb(n: int, k: int) -> int:
    if n < k:
        return 0
    if k == 1:
        return n
    if k == 2:
        return n * (n - 1) // 2
    if k == 3:
        return n * (n - 1) * (n - 2) // 6
    return 1


def kind_code(kind: int, kinds: int) -> int:
    """A card of a counting kind: kinds 52 are the cards, 13 the ranks (A .. K), 11 the
    class ranks (A .. 9, a ten, a face); suits are the lowest code's (where the ranking
    counted with 13 or 11 kinds, suits do not change a hand's rank or class)."""
    if kinds == N_CARDS:
        return kind
    if kinds == N_RANKS:
        return 4 * kind
    return 4 * kind if kind <= 9 else 40


def kind_of(code: int, kinds: int) -> int:
    """The counting kind of a card: the inverse of ``kind_code`` on its kinds."""
    if kinds == N_CARDS:
        return code
    if kinds == N_RANKS:
        return code // 4
    return class_rank_of(code)


def kind_multisets(kinds: int) -> list[tuple[tuple[int, int], ...]]:
    """Every 3-card hand over ``kinds`` kinds, as ((kind, multiplicity), ...), kinds
    ascending: 286 over 11 kinds, 455 over 13, 24,804 over 52."""
    out = []
    for a in range(kinds):
        for b in range(a, kinds):
            for c in range(b, kinds):
                counts: dict[int, int] = {}
                for k in (a, b, c):
                    counts[k] = counts.get(k, 0) + 1
                out.append(tuple(sorted(counts.items())))
    return out


def multiset_cards(multiset: tuple[tuple[int, int], ...], kinds: int) -> list[int]:
    """Three card codes of a multiset of kinds."""
    return [kind_code(k, kinds) for k, m in multiset for _ in range(m)]


def _ways(left: Any, kinds: npt.NDArray[np.intp], mult: Any) -> Any:
    """The ways to draw each multiset from a shoe holding ``left[k]`` of kind k:
    prod C(left[kind], multiplicity), for every multiset at once."""
    w = np.ones(len(kinds), dtype=left.dtype)
    for t in range(3):
        n, k = left[kinds[:, t]], mult[:, t]
        choose = np.where(k == 0, 1, np.where(k == 1, n, np.where(k == 2, n * (n - 1) // 2, n * (n - 1) * (n - 2) // 6)))
        w = w * np.where(n >= k, choose, 0)
    return w


def _suit_shares(cards: int) -> list[tuple[int, ...]]:
    """Every way ``cards`` cards of one rank can fall in the 4 suits: how many in each."""
    return [x for x in itertools.product(range(cards + 1), repeat=N_SUITS) if sum(x) == cards]


def suit_split(suits: Sequence[int], a: int, b: int) -> tuple[int, int, int]:
    """The ways to draw ``a`` cards (a first hand's) and then ``b`` other cards (a second
    hand's) of one rank, of which the shoe holds ``suits[s]`` in suit s (suits by strength,
    weakest first), by how the strongest suit among the first cards compares with the
    strongest among the second: (lower, equal, higher). Equal: each holds a card of that
    suit, two copies of one card (several decks). The three add up to C(c, a) C(c - a, b)
    for the c cards of the rank."""
    out = [0, 0, 0]
    for x in _suit_shares(a):
        for y in _suit_shares(b):
            ways = 1
            for held, first, second in zip(suits, x, y, strict=True):
                ways *= _comb_any(held, first) * _comb_any(held - first, second)
            top_x = max(s for s in range(N_SUITS) if x[s])
            top_y = max(s for s in range(N_SUITS) if y[s])
            out[1 + (top_x > top_y) - (top_x < top_y)] += ways
    return out[0], out[1], out[2]


def _comb_any(n: int, k: int) -> int:
    """C(n, k), 0 where n < k (n may be negative: more drawn than held)."""
    return math.comb(n, k) if 0 <= k <= n else 0


def joint_class_counts(counts, multisets, classes, ranks, n_classes: int, out, suits=None) -> None:  # type: ignore[no-untyped-def]
    """``out[(p * n_classes + b) * 3 + order + 1]`` += ordered (position hand, banker hand)
    pairs of disjoint hands with classes p and b, the position's hand beating (order 1),
    tying (0) or losing to (-1) the banker's, from a shoe holding ``counts[k]`` cards of
    kind k. ``multisets`` is (n, 3, 2) (kind, multiplicity; multiplicity 0 pads), each
    with its hand's class and rank. For each first hand, the ways to draw every second
    hand from what it leaves, all at once (in Python integers where ``out`` holds them).

    ``suits``, for a ranking that breaks ties by suit, holds the cards of each kind (the 13
    ranks) by suit, weakest suit first, as a (kinds, 4) array; ``ranks`` are then the
    hands' ranks with the strongest card's suit left out. Two hands of equal rank share
    their highest kind t, a cards of it in the first and b in the second: their pairs are
    counted without kind t, times ``suit_split(suits[t], a, b)``, which orders them."""
    exact = out.dtype == object
    left = np.array([int(x) for x in counts], dtype=object if exact else np.int64)
    ms = np.asarray(multisets)
    kinds, mult = ms[:, :, 0].astype(np.intp), ms[:, :, 1].astype(np.int64)
    if exact:
        mult = mult.astype(object)
    cls = np.asarray(classes, dtype=np.int64)
    rk = np.asarray(ranks, dtype=np.int64)
    first = _ways(left, kinds, mult)
    plain = [{int(k): int(m) for k, m in row if m} for row in ms.tolist()]  # each multiset as {kind: count}
    for i in np.flatnonzero(first):
        rest = left.copy()
        for t in range(3):
            rest[kinds[i, t]] -= mult[i, t]
        w = first[i] * _ways(rest, kinds, mult)
        keep = w != 0
        if suits is not None:
            tied = keep & (rk == rk[i])
            keep &= ~tied
            for j in np.flatnonzero(tied):
                top = max(plain[i])  # the highest kind: of both hands
                a, b = plain[i][top], plain[j][top]
                ways = 1
                for k, m in plain[i].items():
                    if k != top:
                        ways *= math.comb(int(left[k]), m)
                for k, m in plain[j].items():
                    if k != top:
                        ways *= math.comb(int(left[k]) - plain[i].get(k, 0), m)
                base = (cls[i] * n_classes + cls[j]) * 3
                for order, split in enumerate(suit_split([int(x) for x in suits[top]], a, b)):
                    out[base + order] += ways * split
        index = (cls[i] * n_classes + cls[keep]) * 3 + 1 + np.sign(rk[i] - rk[keep])
        np.add.at(out, index, w[keep].astype(out.dtype))


def hand_counts(counts, multisets, values, out) -> None:  # type: ignore[no-untyped-def]
    """``out[values[i]]`` += the ways to draw multiset i (of card kinds or class ranks)
    from a shoe holding ``counts[k]`` of kind k."""
    c = [int(x) for x in counts]
    for ms, value in zip(multisets.tolist(), values.tolist()):
        w = 1
        for k, m in ms:
            if m:
                w *= _comb(c[k], m)
        out[value] += w


# --- simulation ----------------------------------------------------------------------------


def _hands_of(rest: list[int], hands: int, head: int, head_burned: int, one_at_a_time: int) -> dict[int, list[int]]:
    """A round's cards after the burned ones, by hand (0 the banker), as Game assigns them."""
    dealt: dict[int, list[int]] = {}
    if head:
        first = (card_rank(rest[0]) - 1) % 4
        if head_burned:
            rest = rest[1:]
        for k in range(hands):
            dealt[(first + k) % hands] = rest[3 * k : 3 * k + 3]
    else:
        for k in range(hands):
            h = (k + 1) % hands
            dealt[h] = rest[k::hands][:3] if one_at_a_time else rest[3 * k : 3 * k + 3]
    return dealt


class _ShoeRounds:
    """A table's rounds as Game deals them: a shuffle when one is due (the cut card placed
    with one draw, for a shoe), then each round's cards by lazy Fisher-Yates."""

    def __init__(self, bit_generator: Any, n_cards: int, fresh: int, burn_first: int, burn_later: int,
                 round_cards: int, cut_lo: int, cut_hi: int) -> None:
        self.bit_generator, self.n_cards, self.fresh = bit_generator, n_cards, bool(fresh)
        self.burn_first, self.burn_later, self.round_cards = burn_first, burn_later, round_cards
        self.cut_lo, self.cut_hi = cut_lo, cut_hi
        self.deck: list[int] = []
        self.pos = self.cut = self.in_shoe = 0
        self.last = True  # the next round shuffles first

    def deal(self) -> tuple[list[int], int]:
        """One round's cards, in the order they came out, and how many of them are burned
        (a burned head card not counted); ``last`` then says whether it ended the shoe."""
        if self.last:
            self.deck = [i % 52 for i in range(self.n_cards)]
            self.pos = self.in_shoe = 0
            if not self.fresh:
                self.cut = self.n_cards - (self.cut_lo + bounded(self.bit_generator, self.cut_hi - self.cut_lo + 1))
        burn = self.burn_first if self.in_shoe == 0 else self.burn_later
        count = burn + self.round_cards
        cards = [0] * count
        draw(self.bit_generator, self.deck, self.pos, count, cards)
        start, self.pos = self.pos, self.pos + count
        self.in_shoe += 1
        self.last = self.fresh or start <= self.cut < self.pos
        return cards, burn


def simulate_chunk(bit_generator, tables, params, rounds: int, pairs, single, plan, money, net, stop) -> int:  # type: ignore[no-untyped-def]
    """Deal and evaluate ``rounds`` rounds from a fresh shoe and count what settles
    every bet, exactly as the compiled core's ``simulate_chunk`` (and
    ``sanggong.dealing.Game``) do."""
    decks, positions, fresh, burn_first, burn_later, head, head_burned, one_at_a_time, cut_lo, cut_hi = (
        int(x) for x in params
    )
    hands = positions + 1
    n_cards = 52 * decks
    head_card = 1 if head and head_burned else 0
    if not (1 <= decks <= 64 and 1 <= positions < 17 and 0 <= burn_first <= 64 and 0 <= burn_later <= 64
            and burn_first + head_card + 3 * hands <= n_cards and (fresh or 1 <= cut_lo <= cut_hi < n_cards)):
        raise ValueError(f"params {[int(x) for x in params]} do not describe a table this kernel deals")
    if not fresh and burn_later + head_card + 3 * hands > cut_lo:
        raise ValueError("a later round may need more cards than the cut card leaves")
    shoe = _ShoeRounds(bit_generator, n_cards, fresh, burn_first, burn_later, head_card + 3 * hands, cut_lo, cut_hi)
    for done in range(rounds):
        if done % 4096 == 0 and stop[0]:
            return done
        cards, burn = shoe.deal()
        dealt = _hands_of(cards[burn:], hands, head, head_burned, one_at_a_time)
        ranks = {h: tables.rank(*c) for h, c in dealt.items()}
        classes = {h: tables.cls(*c) for h, c in dealt.items()}
        pps = {h: pair_plus3(*c) for h, c in dealt.items()}
        n_classes, width = tables.n_classes, 1 if tables.ordered_by_class else 3
        for h in range(hands):
            single[h, 6 * classes[h] + pps[h]] += 1
            if h:
                order = (ranks[h] > ranks[0]) - (ranks[h] < ranks[0])
                pairs[h, (classes[h] * n_classes + classes[0]) * width + (order + 1 if width == 3 else 0)] += 1
        if money is not None:
            total = 0
            for j, spec in enumerate(plan.specs):
                h = spec.position if spec.kind in ON_HAND else 0
                order = (ranks[h] > ranks[0]) - (ranks[h] < ranks[0])
                code = bet_outcome(plan.rules, spec.kind, spec.number, tables.class_keys[classes[h]], pps[h],
                                   tables.class_keys[classes[0]], order)
                total += int(money[j, code])
            net[done] = total
    return rounds


# --- the shoe evaluator -----------------------------------------------------------------------
# The twin of _core.ShoeKernel (sanggong.shoe explains the method): each row's sum over
# multisets of (ways to draw the multiset) x (its scaled net value), in Python integers.
# A multiset is a row of indices into a table: C(c_k, j) at 8 k + j for the c_k unseen
# cards of kind k, 1 at 8 K (K kinds: the padding), and past it where suits break ties
# E_t(a, b), the third of ``suit_split`` (the first hand's strongest suit above), at 8 K +
# 1 + 16 t + 4 a + b; in Pair Plus's table (the 52 cards as kinds) the 13 ranks'
# binomials, at ``RANKS_AT`` + 8 r + j. Its ways are the product of its entries.

BINOM_STRIDE = 8
RANKS_AT = N_CARDS * BINOM_STRIDE + 1


class ShoeKernel:
    """The exact sums behind every bet's EV for an unseen composition, card by card."""

    def __init__(self, plan: Any, counts: Any) -> None:
        self.plan = plan
        kinds_of = plan.kinds
        if isinstance(kinds_of, bool) or not isinstance(kinds_of, int) or not 1 <= kinds_of <= N_CARDS:
            raise ValueError(f"a shoe plan counts over 1..52 kinds, not {kinds_of!r}")
        fold = np.asarray(plan.fold)
        if fold.shape != (N_CARDS,) or fold.dtype.kind not in "iu" or not all(0 <= int(k) < kinds_of for k in fold):
            raise ValueError("the shoe plan's fold must give each of the 52 cards a kind of its own kinds")
        self._fold = [int(k) for k in fold]
        suit_order = np.asarray(plan.suit_order)
        self._suit_order = [int(s) for s in suit_order.tolist()] if suit_order.dtype.kind in "iu" else []
        if len(suit_order) and (sorted(self._suit_order) != list(range(N_SUITS)) or kinds_of != N_RANKS
                                or self._fold != [kind_of(c, N_RANKS) for c in range(N_CARDS)]):
            raise ValueError("a suit tie-break needs the 13 ranks as kinds and its suit order, each suit once")
        self._parts = []
        for name, kinds, width in (("pairs", kinds_of, 6), ("single", kinds_of, 3), ("cards", N_CARDS, 3)):
            idx, values = np.asarray(getattr(plan, name + "_idx")), np.asarray(getattr(plan, name + "_values"))
            if idx.ndim != 2 or values.ndim != 2 or values.shape[0] != len(idx) or (len(idx) and idx.shape[1] != width):
                raise ValueError(f"the shoe plan's {name} arrays have the wrong shapes")
            if idx.dtype.kind not in "iu" or not all(isinstance(v, int) and not isinstance(v, bool)
                                                    for v in values.ravel().tolist()):
                raise ValueError(f"the shoe plan's {name} arrays must hold integers")
            rows = values.shape[1]
            ties = name == "pairs" and len(self._suit_order) > 0
            entries = [[int(e) for e in row if int(e) != BINOM_STRIDE * kinds] for row in idx.tolist()]
            for row in entries:
                cards, held, by_rank = 0, [], 0
                for e in row:
                    past = e - BINOM_STRIDE * kinds - 1
                    if 0 <= e < BINOM_STRIDE * kinds and 1 <= e % BINOM_STRIDE <= 6:
                        cards += e % BINOM_STRIDE
                        held.append(e // BINOM_STRIDE)
                    elif ties and 0 <= past < 16 * kinds and past % 4 and past // 4 % 4:
                        cards += past % 4 + past // 4 % 4
                        held.append(past // 16)
                    elif name == "cards" and 0 <= past < BINOM_STRIDE * N_RANKS and 1 <= past % BINOM_STRIDE <= 3:
                        cards += past % BINOM_STRIDE
                        held.append(N_CARDS + past // BINOM_STRIDE)
                        by_rank += 1
                    else:
                        raise ValueError(f"the shoe plan's {name} multisets name an entry outside the binomials")
                if cards != width or len(set(held)) != len(held) or by_rank not in (0, len(row)):
                    raise ValueError(f"the shoe plan's {name} multisets name an entry outside the binomials")
            if len({tuple(sorted(row)) for row in entries}) != len(entries):
                raise ValueError(f"a multiset of the shoe plan's {name} is given twice")
            self._parts.append((name, kinds, entries, values.tolist(), rows))
        self.set_counts(counts)

    def set_counts(self, counts: Any) -> None:
        values = [int(x) for x in counts]
        if len(values) != N_CARDS or min(values) < 0 or max(values) > 64:
            raise ValueError("a composition is 52 counts of 0..64")
        self._cards = values

    def remove(self, code: int) -> None:
        if not 0 <= code < N_CARDS or self._cards[code] == 0:
            raise ValueError(f"no card of code {code} is left to remove")
        self._cards[code] -= 1

    def add(self, code: int) -> None:
        if not 0 <= code < N_CARDS or self._cards[code] >= 64:
            raise ValueError(f"cannot add a card of code {code}: at most 64 of a card")
        self._cards[code] += 1

    @property
    def n_cards(self) -> int:
        return sum(self._cards)

    @property
    def counts(self) -> list[int]:
        return list(self._cards)

    def _table(self, name: str, by_kind: list[int]) -> list[int]:
        """The entries a part's rows index: binomials of its kinds, the padding 1, then the
        E_t(a, b) (pairs, where suits break ties) or the ranks' binomials (Pair Plus)."""
        held = self._cards if name == "cards" else by_kind
        table = [math.comb(c, j) if j <= c else 0 for c in held for j in range(BINOM_STRIDE)] + [1]
        if name == "pairs" and self._suit_order:
            for t in range(N_RANKS):
                suits = [self._cards[4 * t + s] for s in self._suit_order]
                table += [suit_split(suits, a, b)[2] if a and b else 0 for a in range(4) for b in range(4)]
        if name == "cards":
            ranks = [sum(self._cards[4 * r : 4 * r + 4]) for r in range(N_RANKS)]
            table += [math.comb(c, j) if j <= c else 0 for c in ranks for j in range(BINOM_STRIDE)]
        return table

    def numerators(self, with_pairs: bool = True) -> list[int]:
        by_kind = [0] * self.plan.kinds
        for code, n in enumerate(self._cards):
            by_kind[self._fold[code]] += n
        out: list[int] = []
        for name, kinds, entries, values, rows in self._parts:
            sums = [0] * rows
            if name != "pairs" or with_pairs:
                table = self._table(name, by_kind)
                for multiset, row in zip(entries, values):
                    w = 1
                    for e in multiset:
                        w *= table[e]
                    if w:
                        for r in range(rows):
                            sums[r] += w * row[r]
            out += sums
        return out


def play_chunk(  # type: ignore[no-untyped-def]
    bit_generator, tables, params, shoes: int, plan, columns, kernel, bet_row, row_scale, row_part, fixed_ev,
    tags, bet_tag, bin_width: float, bin_zero: int, burned_seen: bool, count_hist, perfect_hist, ev_bins,
    moments, stop,
) -> tuple[int, int]:
    """Deal ``shoes`` shoes as ``simulate_chunk`` does and count every bet's outcomes by
    true count and, where its exact EV is positive, as a perfect-information bet (the
    compiled core's ``play_chunk``; outcomes from ``bet_outcome`` directly, EVs from the
    kernel's exact sums)."""
    decks, positions, fresh, burn_first, burn_later, head, head_burned, one_at_a_time, cut_lo, cut_hi = (
        int(x) for x in params
    )
    hands = positions + 1
    n_cards = 52 * decks
    if not (1 <= decks <= 64 and 1 <= positions < 17 and 0 <= burn_first <= 64 and 0 <= burn_later <= 64
            and burn_first + (1 if head and head_burned else 0) + 3 * hands <= n_cards
            and (fresh or 1 <= cut_lo <= cut_hi < n_cards)):
        raise ValueError(f"params {[int(x) for x in params]} do not describe a table this kernel deals")
    if kernel is not None and len(fixed_ev):
        raise ValueError("give a kernel or fixed EVs, not both")
    bins = count_hist.shape[0]
    perfect = kernel is not None or len(fixed_ev) > 0
    full = kernel.counts if kernel is not None else None
    rounds = shoes_done = 0
    tag_rows = [[int(x) for x in row] for row in tags]
    column_of = []  # each bet's outcome code -> its column
    for j in range(len(plan.specs)):
        start = int(plan.row[j]) * plan.key_space
        codes = plan.table[start : start + plan.key_space].tolist()
        column_of.append(dict(zip(codes, columns[int(plan.row[j])].tolist())))
    shoe = _ShoeRounds(bit_generator, n_cards, fresh, burn_first, burn_later,
                       (1 if head and head_burned else 0) + 3 * hands, cut_lo, cut_hi)
    while shoes_done < shoes and not stop[0]:
        unseen = n_cards
        if kernel is not None:
            kernel.set_counts(full)
        running = [0] * len(tag_rows)
        last = False
        while not last:
            if kernel is not None:
                sums, n = kernel.numerators(), kernel.n_cards
                totals = (math.comb(n, 3) * math.comb(n - 3, 3), math.comb(n, 3))
                evs = [float(s) * float(row_scale[r]) / float(totals[0 if row_part[r] == 0 else 1])
                       for r, s in enumerate(sums)]
                positive = [s > 0 for s in sums]
            elif perfect:
                evs = [float(x) for x in fixed_ev]
                positive = [x > 0 for x in evs]
            tcs, tc_bins = [], []
            per_card = 52.0 / unseen
            scale = per_card / bin_width
            for value in running:
                tc = value * per_card
                b = value * scale + bin_zero
                tcs.append(tc)
                tc_bins.append(0 if b < 0 else bins - 1 if b >= bins else min(math.floor(b), bins - 1))
            cards, burn = shoe.deal()
            last = shoe.last
            dealt = _hands_of(cards[burn:], hands, head, head_burned, one_at_a_time)
            ranks = {h: tables.rank(*c) for h, c in dealt.items()}
            classes = {h: tables.cls(*c) for h, c in dealt.items()}
            pps = {h: pair_plus3(*c) for h, c in dealt.items()}
            for j, spec in enumerate(plan.specs):
                h = spec.position if spec.kind in ON_HAND else 0
                order = (ranks[h] > ranks[0]) - (ranks[h] < ranks[0])
                code = bet_outcome(plan.rules, spec.kind, spec.number, tables.class_keys[classes[h]], pps[h],
                                   tables.class_keys[classes[0]], order)
                col = column_of[j][code]
                t = int(bet_tag[j])
                count_hist[tc_bins[t], j, col] += 1
                if perfect:
                    r = int(bet_row[j])
                    e, x = evs[r], tcs[t]
                    if positive[r]:
                        perfect_hist[j, col] += 1
                        moments[j, 0] += e
                    ev_bins[tc_bins[t], j] += e
                    moments[j, 1:] += (e, e * e, x, x * x, x * e)
            rounds += 1
            seen = cards if burned_seen else cards[burn:]
            for c in seen:
                if kernel is not None:
                    kernel.remove(c)
                for t, row in enumerate(tag_rows):
                    running[t] += row[card_rank(c) - 1]
            unseen -= len(seen)
        shoes_done += 1
    if kernel is not None:
        kernel.set_counts(full)
    return rounds, shoes_done
