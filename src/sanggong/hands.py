"""Evaluate and compare single three-card hands, under any ranking.

A hand's **rank** is an integer: higher is stronger, equal ranks tie. Under the default
ranking (Macau, online) it is the class number ``0..30``: ``rank = 3 * points + faces``
for hands with 0, 1 or 2 faces and 30 for three faces, so the order is
``3P > 2P9 > P9 > 9 > 2P8 > ... > 2P0 > P0 > 0``. Give ``rules`` (a rule set, a preset
name or a ``Ranking``) to rank by another table's ranking.

>>> hand = evaluate("Kh Qs 9d")
>>> hand.label, hand.points, hand.faces, hand.rank, hand.pair_plus
('2P9', 9, 2, 29, <PairPlus.NONE: 0>)
>>> compare("Kh Qs 9d", "9c 9h 9s")
1
>>> compare("Kh Qs 9d", "9c 9h 9s", rules="chinese")    # 小三公 beats any points
-1
>>> evaluate("Kh Kd Ks", rules="chinese").label, evaluate("Jh Qd Ks", rules="chinese").label
('3P trips', '3P')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TypeAlias

from . import _kernels
from ._spec import (
    N_CLASSES,
    PAIR_PLUS_NAMES,
    PP_FLUSH,
    PP_NONE,
    PP_PAIR,
    PP_STRAIGHT,
    PP_STRAIGHT_FLUSH,
    PP_THREE_OF_A_KIND,
    rank_label,
)
from .cards import Card, CardsLike, parse_cards
from .ranking import DEFAULT_RANKING, Ranking, RankingTables, tables_for
from .rules import RuleSet, as_rules

__all__ = ["CLASS_LABELS", "HandValue", "PairPlus", "RulesLike", "compare", "evaluate", "hand_cards", "ranking_of"]

RulesLike: TypeAlias = RuleSet | Ranking | str | None
"""What ``rules=`` accepts: a rule set, a preset name, a ranking, or None (the default ranking)."""


def ranking_of(rules: RulesLike, *hands: object) -> Ranking:
    """The ranking of ``rules``: a rule set's, a preset's (by name), a ranking itself, or
    the default ranking for None.

    A ``HandValue`` carries the ranking it was ranked by, so where ``hands`` hold values
    the ranking is theirs: ``rules`` may then be None or name that same ranking, and every
    value must share it (other hands, cards or arrays, carry none). This is the one rule
    by which ``evaluate``, ``compare``, ``compare_batch`` and the operators of ``HandValue``
    choose a ranking: hands of two rankings raise a ``TypeError`` naming both, never
    an answer from one re-ranked by the other.

    >>> ranking_of("prosperity").order
    'faces_points'
    >>> ranking_of(None, evaluate("Kh Qs 9d", "prosperity"), "9c 9h 9s").order
    'faces_points'
    >>> ranking_of("baccarat")
    Traceback (most recent call last):
    ...
    ValueError: rules: unknown preset 'baccarat' (known: macau, online, nagaworld, genting, genting_no_commission, prosperity, san_gong, chinese)
    >>> ranking_of("macau", evaluate("Kh Qs 9d", "prosperity"))
    Traceback (most recent call last):
    ...
    TypeError: cannot order hands of two rankings: Ranking(order='faces_points', tiers=('three_faces',), high_card='none') and Ranking(order='points_faces', tiers=('three_faces',), high_card='none') (the second is rules=; to rank a value's cards by it, give value.cards)
    """
    ranking = None if rules is None else _ranking_of_rules(rules)
    for hand in hands:
        if isinstance(hand, HandValue):
            own = _own_ranking(hand)
            if ranking is None:
                ranking = own
            elif own != ranking:
                raise _two_rankings(own, ranking, "rules") if rules is not None else _two_rankings(ranking, own)
    return DEFAULT_RANKING if ranking is None else ranking


def _ranking_of_rules(rules: RulesLike) -> Ranking:
    if rules is None:
        return DEFAULT_RANKING
    if isinstance(rules, Ranking):
        return rules
    if isinstance(rules, RuleSet | str):
        return as_rules(rules).ranking
    raise TypeError(f"rules: expected a RuleSet, a preset name or a Ranking, not {type(rules).__name__}")


def _own_ranking(value: HandValue) -> Ranking:
    """A value's ranking, checked (a value forged behind its back may hold anything)."""
    ranking = value.ranking
    if not isinstance(ranking, Ranking):
        raise TypeError(f"ranking: expected a Ranking, not {type(ranking).__name__}")
    return ranking


def _two_rankings(first: Ranking, second: Ranking, second_from: str | None = None) -> TypeError:
    """The one error for hands of two rankings put against each other; ``second_from``
    names the argument the second ranking came from, when it is not a hand's."""
    hint = "" if second_from is None else \
        f" (the second is {second_from}=; to rank a value's cards by it, give value.cards)"
    return TypeError(f"cannot order hands of two rankings: {first!r} and {second!r}{hint}")


CLASS_LABELS: tuple[str, ...] = tuple(rank_label(r) for r in range(N_CLASSES))
"""The 31 class labels, indexed by rank: ``CLASS_LABELS[30] == "3P"``."""


class PairPlus(IntEnum):
    """Pair Plus ("对牌以上") category of a hand; a higher value is a better category."""

    NONE = PP_NONE
    PAIR = PP_PAIR
    FLUSH = PP_FLUSH
    STRAIGHT = PP_STRAIGHT
    THREE_OF_A_KIND = PP_THREE_OF_A_KIND
    STRAIGHT_FLUSH = PP_STRAIGHT_FLUSH

    @property
    def label(self) -> str:
        """Lower-case name: ``"straight flush"``, ``"pair"``, ``"none"``, ..."""
        return PAIR_PLUS_NAMES[self]


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


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """The value of one hand under a ranking: its cards, rank, Pair Plus category and
    class (``label``, ``tier``).

    >>> evaluate("Jc Qd Kh")
    HandValue(cards='Jc Qd Kh', label='3P', rank=30, pair_plus='straight')

    Values order by strength under their ranking, so ``max`` finds the winner and
    ``sorted`` ranks a table; ``compare`` is the spelled-out form. Equal means equally
    strong under one ranking (a tie), whatever the cards, and the hash follows equality:

    >>> evaluate("Kh Qs 9d") > evaluate("9c 9h 9s"), evaluate("5c Jd Kh") == evaluate("Qs Jc 5d")
    (True, True)
    >>> [str(v) for v in sorted(evaluate(h) for h in ("Kh Qs 9d", "Ah 2h 3h", "Jc Qd Kh"))]
    ['6', '2P9', '3P']
    >>> evaluate("Kh Kd Ks", "chinese") > evaluate("Qh Qd Qs")
    Traceback (most recent call last):
    ...
    TypeError: cannot order hands of two rankings: Ranking(order='points', tiers=('face_trips', 'trips', 'three_faces'), high_card='rank_suit') and Ranking(order='points_faces', tiers=('three_faces',), high_card='none')

    Values of two rankings are never equal (``==`` is False; only ordering them is an
    error). To tell hands apart by their cards, compare ``cards``.
    """

    cards: tuple[Card, Card, Card]
    rank: int
    pair_plus: PairPlus
    ranking: Ranking = DEFAULT_RANKING
    hand_class: int = -1

    def __post_init__(self) -> None:
        """A HandValue made by hand must be the true value of its cards (``evaluate``
        makes them without this check, having just computed them)."""
        cards = hand_cards(self.cards)
        true = evaluate(cards, _own_ranking(self))
        if self.rank != true.rank or self.pair_plus != true.pair_plus or isinstance(self.rank, bool) \
                or self.hand_class not in (-1, true.hand_class):
            raise ValueError(
                f"HandValue(rank={self.rank!r}, pair_plus={self.pair_plus!r}) is not the value of "
                f"{' '.join(map(str, cards))}: rank {true.rank}, pair plus {true.pair_plus.label}"
            )
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "pair_plus", true.pair_plus)
        object.__setattr__(self, "hand_class", true.hand_class)

    @property
    def _tables(self) -> RankingTables:
        return tables_for(self.ranking)

    @property
    def points(self) -> int:
        """Sum of the card points modulo 10 (0 for three faces)."""
        return sum(card.points for card in self.cards) % 10

    @property
    def faces(self) -> int:
        """Number of face cards (J, Q, K): 0..3."""
        return sum(card.is_face for card in self.cards)

    @property
    def tier(self) -> str | None:
        """The ranking's tier the hand fits first (``"three_faces"``, ``"trips"``, ...), or
        None for a hand ranked by its points and faces."""
        level = self._tables.class_keys[self.hand_class][0]
        return self.ranking.tiers[len(self.ranking.tiers) - level] if level else None

    @property
    def label(self) -> str:
        """The class's display: ``3P``, ``2Pn``, ``Pn`` or ``n`` (a hand without faces, or
        any hand where the ranking ignores faces), or a tier's label (``trips``,
        ``3P trips``, ``333``)."""
        return self._tables.labels[self.hand_class]

    def __str__(self) -> str:
        return self.label

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank == other.rank and self.ranking == other.ranking

    def __hash__(self) -> int:
        return hash((self.rank, self.ranking))

    def _rank_against(self, other: HandValue) -> int:
        """The rank of ``other``, which must be ranked by the same ranking."""
        if self.ranking != other.ranking:
            raise _two_rankings(self.ranking, other.ranking)
        return other.rank

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank < self._rank_against(other)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank <= self._rank_against(other)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank > self._rank_against(other)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank >= self._rank_against(other)

    def __repr__(self) -> str:
        cards = " ".join(map(str, self.cards))
        try:
            label = self.label
        except (IndexError, TypeError, AttributeError):  # a forged value: show what it holds
            label = "?"
        pair_plus = getattr(self.pair_plus, "label", self.pair_plus)  # even for a forged value
        ranking = "" if self.ranking == DEFAULT_RANKING else f", ranking={self.ranking!r}"
        return f"HandValue(cards={cards!r}, label={label!r}, rank={self.rank!r}, pair_plus={pair_plus!r}{ranking})"


def trusted_hand(
    cards: tuple[Card, Card, Card], rank: int, pair_plus: PairPlus, ranking: Ranking = DEFAULT_RANKING,
    hand_class: int | None = None,
) -> HandValue:
    """A ``HandValue`` of values computed already (by a kernel, for ``cards``), made without
    computing them again (``evaluate``; a log writer's hands)."""
    value = object.__new__(HandValue)
    object.__setattr__(value, "cards", cards)
    object.__setattr__(value, "rank", rank)
    object.__setattr__(value, "pair_plus", pair_plus)
    object.__setattr__(value, "ranking", ranking)
    object.__setattr__(value, "hand_class", rank if hand_class is None else hand_class)
    return value


def evaluate(cards: CardsLike | HandValue, rules: RulesLike = None) -> HandValue:
    """Evaluate a three-card hand.

    :param cards: a string such as ``"Kh Qs 9d"``, or three cards, strings or codes; a
        ``HandValue`` is evaluated again from its cards (its other fields are never trusted)
        under its own ranking.
    :param rules: whose ranking to rank by: a ``RuleSet``, a preset name (``"chinese"``),
        a ``Ranking``, or None for the default (points, then faces; 3P on top), or for a
        ``HandValue`` its own ranking. Given with a ``HandValue`` of another ranking it is
        refused (``ranking_of``): to rank a value's cards by other rules, give its ``cards``.
    :raises ValueError: a malformed card, a code outside 0..51, not three cards, an
        unknown preset.
    :raises TypeError: something that is not a card at all, or not rules; a ``HandValue``
        with ``rules`` of another ranking (naming both).

    >>> evaluate(["Ts", "Jh", "Qd"]).label
    '2P0'
    >>> evaluate("Ah 2h 3h").pair_plus.label
    'straight flush'
    >>> chinese = evaluate("Kh Kd Ks", "chinese")
    >>> evaluate(chinese).label, evaluate(chinese.cards).label, evaluate(chinese.cards, "macau") > evaluate("Qh Qd 9s")
    ('3P trips', '3P', True)
    """
    if isinstance(cards, HandValue):
        ranking = ranking_of(rules, cards)
        c0, c1, c2 = hand_cards(cards.cards)
    else:
        ranking = _ranking_of_rules(rules)
        c0, c1, c2 = hand_cards(cards)
    kernels = _kernels.kernels
    tables = _kernels.lookups(tables_for(ranking))
    a, b, c = c0.code, c1.code, c2.code
    return trusted_hand(
        (c0, c1, c2), kernels.rank3(tables, a, b, c), PairPlus(kernels.pair_plus3(a, b, c)),
        ranking, kernels.class3(tables, a, b, c),
    )


def compare(a: CardsLike | HandValue, b: CardsLike | HandValue, rules: RulesLike = None) -> int:
    """Compare two hands: 1 if ``a`` beats ``b``, 0 for a tie, -1 if ``b`` beats ``a``,
    under one ranking: that of ``rules`` (as for ``evaluate``; default: hands of the same
    class tie, same points and same number of faces, or both 3P), or of the ``HandValue``
    s given. The spelled-out form of ``evaluate(a, rules) > evaluate(b, rules)``, and it
    always agrees with the operators: ``compare(a, b) == (a > b) - (a < b)`` for two values.
    A value is ranked again from its cards under its own ranking; values of two rankings,
    or ``rules`` of another ranking than a value's, raise ``TypeError`` (``ranking_of``).

    >>> compare("9c 9d 9h", "Kh Qs 9d"), compare("5c Jd Kh", "Qs Jc 5d")
    (-1, 0)
    >>> compare("5c Jd Kh", "Qs Jc 5d", rules="san_gong")   # the highest card: K beats Q
    1
    >>> compare(evaluate("5c Jd Kh", "san_gong"), "Qs Jc 5d")  # the value's ranking
    1
    >>> compare(evaluate("Kh Kd Ks", "chinese"), evaluate("Qh Qd Qs"))
    Traceback (most recent call last):
    ...
    TypeError: cannot order hands of two rankings: Ranking(order='points', tiers=('face_trips', 'trips', 'three_faces'), high_card='rank_suit') and Ranking(order='points_faces', tiers=('three_faces',), high_card='none')
    """
    ranking = ranking_of(rules, a, b)
    ra, rb = evaluate(a, ranking).rank, evaluate(b, ranking).rank
    return (ra > rb) - (ra < rb)
