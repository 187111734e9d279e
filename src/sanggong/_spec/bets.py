"""Bets: every bet's outcome code, written plainly from the rules (see ``sanggong._spec``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from math import ceil, floor
from typing import Any, Protocol

from .cards import PP_NONE, PP_PAIR, PP_THREE_OF_A_KIND
from .rankings import RankingFields

__all__ = [
    "MAX_MULTIPLIERS",
    "MAX_TOTALS",
    "N_OUTCOMES",
    "OUTCOMES",
    "OUT_CARRIED",
    "OUT_LOSE",
    "OUT_MULTIPLIED",
    "OUT_PAIR_PLUS",
    "OUT_PUSH",
    "OUT_TOTAL",
    "OUT_WIN",
    "OUT_WIN_ON_SIX",
    "READS",
    "ClassKey",
    "Outcome",
    "RuleFields",
    "bet_outcome",
    "multiplier_key",
    "on_hand",
    "outcome",
    "points_tie",
    "reads",
    "round_to_unit",
    "total_key",
    "total_number",
    "total_range",
    "winning_total"
]

class RuleFields(Protocol):
    """What the spec reads of a rule set to settle a bet (``sanggong.rules.RuleSet``)."""

    @property
    def ranking(self) -> Any: ...  # a RankingFields (typed Any: RuleSet's field is the concrete Ranking)
    @property
    def push(self) -> str: ...
    @property
    def tie_by(self) -> str: ...
    @property
    def pays(self) -> Mapping[str, Any]: ...
    @property
    def multipliers(self) -> Mapping[str, Any]: ...
    @property
    def multiplier_values(self) -> tuple[Any, ...]: ...
    @property
    def total_pays(self) -> Mapping[str, Any]: ...
    @property
    def total_tier(self) -> str: ...
    @property
    def total_zero(self) -> str: ...
    @property
    def banker_three_faces_odd_even(self) -> str: ...
    @property
    def banker_three_faces_point(self) -> int | None: ...
    @property
    def pair_counts_trips(self) -> bool: ...


# --- bets and their outcomes -------------------------------------------------------------
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

ClassKey = tuple[int, int, int]


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


def winning_total(rules: RuleFields, hand: ClassKey, banker: ClassKey, order: int) -> int | None:
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


def points_tie(hand: ClassKey, banker: ClassKey) -> bool:
    """Two hands of these classes tie on points: both outside every tier with equal
    points, or both in the same tier (so three faces tie only three faces)."""
    return hand[0] == banker[0] and (hand[0] > 0 or hand[1] == banker[1])


def multiplier_key(ranking: RankingFields, key: ClassKey) -> str:
    """Which multiplier of a banker game a winning hand of this class sets: its tier's,
    or its points' (``"0"`` .. ``"9"``)."""
    level, points, _ = key
    return ranking.tiers[len(ranking.tiers) - level] if level else str(points)


Outcome = Callable[[RuleFields, str, int, ClassKey, int, ClassKey, int], int]
"""A bet kind's outcome function: ``bet_outcome``'s arguments, its code."""
READS = ("two hands", "category", "hand", "banker")
"""What a bet kind reads (``outcome``): the hand at its position (or a two-hand table's
first hand, Dragon) against the banker's (or the second hand, Phoenix), that hand's Pair
Plus category, that hand alone, or the banker's hand alone."""
OUTCOMES: dict[str, tuple[Outcome, str]] = {}
"""Every bet kind's outcome function and what it reads, by kind (``outcome``)."""


def outcome(*kinds: str, reads: str) -> Callable[[Outcome], Outcome]:
    """Register a function as the outcome of these bet kinds (``bet_outcome`` calls it),
    reading ``reads`` (one of ``READS``)."""
    if reads not in READS:
        raise ValueError(f"reads: expected one of {READS}, got {reads!r}")

    def register(function: Outcome) -> Outcome:
        for kind in kinds:
            if kind in OUTCOMES:
                raise ValueError(f"bet kind {kind!r} has an outcome already")
            OUTCOMES[kind] = (function, reads)
        return function

    return register


def reads(kind: str) -> str:
    """What a bet kind's outcome function reads (one of ``READS``), asked of ``OUTCOMES``
    at each call, so that a kind registered after import is read as it was registered."""
    if kind not in OUTCOMES:
        raise ValueError(f"unknown bet kind {kind!r}")
    return OUTCOMES[kind][1]


def on_hand(kind: str) -> bool:
    """The kind reads the hand at its position (0: the banker's, or Phoenix's): every kind
    but those reading the banker's hand alone."""
    return reads(kind) != "banker"


def bet_outcome(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
                order: int) -> int:
    """Outcome code of one bet, written plainly from the rules (docs/rules.md): its kind's
    outcome function (``outcome``).

    ``hand`` is the class key (tier level, points, faces) of the hand the bet is on (the
    banker's for bets on the banker), ``hand_pp`` its Pair Plus category, ``banker`` the
    banker's class key (a two-hand table's second hand, Phoenix), ``order`` 1, 0 or -1 as
    the hand beats, ties or loses to it under the ranking; ``number`` is n of ``point:n``,
    or a total bet's range (``total_number``). ``rules`` is a ``sanggong.rules.RuleSet``.
    """
    if kind not in OUTCOMES:
        raise ValueError(f"unknown bet kind {kind!r}")
    return OUTCOMES[kind][0](rules, kind, number, hand, hand_pp, banker, order)


def _push(rules: RuleFields) -> int:
    return OUT_CARRIED if rules.push == "carried" else OUT_PUSH


@outcome("win", "lose", "dragon", "phoenix", reads="two hands")
def _win_lose(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
              order: int) -> int:
    if order == 0:
        return _push(rules)
    if kind in ("lose", "phoenix"):
        order, winner = -order, banker
    else:
        winner = hand
    if order < 0:
        return OUT_LOSE
    on_six = winner[0] == 0 and winner[1] == 6 and winner[2] < 3
    return OUT_WIN_ON_SIX if on_six and f"{kind}_on_six" in rules.pays else OUT_WIN


@outcome("tie", reads="two hands")
def _tie(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey, order: int) -> int:
    tied = points_tie(hand, banker) if rules.tie_by == "points" else order == 0
    return OUT_WIN if tied else OUT_LOSE


@outcome("player", reads="two hands")
def _player(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
            order: int) -> int:
    if order == 0:
        return OUT_PUSH
    winner = hand if order > 0 else banker
    index: int = rules.multiplier_values.index(rules.multipliers[multiplier_key(rules.ranking, winner)])
    return OUT_MULTIPLIED + 2 * index + (order < 0)


@outcome("total", reads="two hands")
def _total(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
           order: int) -> int:
    total = winning_total(rules, hand, banker, order)
    if total is None:
        return OUT_PUSH
    low, high = total_range(number)
    if not low <= total <= high:
        return OUT_LOSE
    return OUT_TOTAL + list(rules.total_pays).index(total_key(number))


@outcome("three_faces", reads="hand")
def _three_faces(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
                 order: int) -> int:
    return OUT_WIN if hand[2] == 3 else OUT_LOSE


@outcome("pair_plus", reads="category")
def _pair_plus(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
               order: int) -> int:
    return OUT_LOSE if hand_pp == PP_NONE else OUT_PAIR_PLUS + hand_pp


@outcome("pair", reads="category")
def _pair(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey, order: int) -> int:
    # the hand's category is a pair (or three of a kind, where they count)
    won = hand_pp == PP_PAIR or (hand_pp == PP_THREE_OF_A_KIND and rules.pair_counts_trips)
    return OUT_WIN if won else OUT_LOSE


@outcome("odd", "even", reads="hand")
def _odd_even(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
              order: int) -> int:
    if hand[2] == 3 and rules.banker_three_faces_odd_even != "points":
        return _push(rules) if rules.banker_three_faces_odd_even == "push" else OUT_LOSE
    return OUT_WIN if (hand[1] % 2 == 1) == (kind == "odd") else OUT_LOSE


@outcome("point", reads="banker")
def _point(rules: RuleFields, kind: str, number: int, hand: ClassKey, hand_pp: int, banker: ClassKey,
           order: int) -> int:
    points = rules.banker_three_faces_point if hand[2] == 3 else hand[1]
    return OUT_WIN if points == number else OUT_LOSE



def round_to_unit(value: Fraction, how: str) -> int:
    """``value`` rounded to a whole number (a payout in minor units, by ``rules.rounding``):
    ``"down"``, ``"up"``, ``"half_up"`` or ``"half_even"`` (exact: ``value`` is a Fraction)."""
    if how == "down":
        return floor(value)
    if how == "up":
        return ceil(value)
    if how == "half_up":
        return floor(value + Fraction(1, 2))
    return round(value)  # half_even: Fraction rounds half to even
