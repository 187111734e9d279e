"""The presets: Macau's Portaria 22/96/M, the online variant and the other tables of the
family, each a ``RuleSet`` made a preset with its description (``preset``), in the order
``PRESETS`` lists them (``sanggong.rules``). A new preset is one ``preset(...)`` here."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, overload

from .._text import did_you_mean
from ..ranking import Ranking
from ._ruleset import PRESETS, RuleSet, preset

__all__ = [
    "CHINESE", "GENTING", "GENTING_NO_COMMISSION", "MACAU", "NAGAWORLD", "ONLINE", "PRESETS", "PROSPERITY",
    "SAN_GONG", "as_rules"
]

F = Fraction

MACAU = preset(RuleSet(
    name="macau",
    variant="macau",
    decks=8,
    positions=7,
    pays={"win": F(1), "tie": F(20), "odd": F(1), "even": F(1), "three_faces": F(16), "point": F(8)},
    commission=F(5, 100),
    commission_bets=frozenset({"win", "odd", "even"}),
    push="carried",
    banker_three_faces_odd_even="push",
    banker_three_faces_point=0,
    tie_requires_win=True,
), "Macau's official rules (Portaria 22/96/M): Win, Tie, Odd/Even, Three Faces, Point")
"""Portaria 22/96/M: 8-deck shoe and 7 positions by default (both configurable)."""

ONLINE = preset(RuleSet(
    name="online",
    variant="online",
    decks=1,
    positions=3,
    pays={
        "win": F(1), "win_on_six": F(1, 2), "lose": F(1), "lose_on_six": F(1, 2),
        "tie": F(8), "three_faces": F(16),
    },
    pair_plus_pays={"pair": F(1), "flush": F(3), "straight": F(6), "three_of_a_kind": F(30), "straight_flush": F(40)},
    push="returned",
    burn_after_shuffle=0,
    burn_per_round=0,
    head_card=True,
    head_card_burned=True,
), "the online live-dealer table: three players, a burned head card, Pair Plus")
"""The online three-player variant: one deck shuffled every round, a burned head card."""

_GENTING = RuleSet(
    name="genting",
    variant="macau",
    decks=8,
    positions=7,
    pays={"win": F(1), "tie": F(8), "three_faces": F(16)},
    commission=F(5, 100),
    commission_bets=frozenset({"win"}),
    push="returned",
)

NAGAWORLD = preset(_GENTING.replace(name="nagaworld", tie_by="points"),
                   "NagaWorld's Three Pictures: as genting, but the Tie wins on equal points")
"""NagaWorld's "Three Pictures": as Genting, but the Tie (8:1) wins on equal points while
Win (1:1 less 5%) still compares faces and is returned on a tie of classes; Three
Pictures 16:1 on the banker's hand."""

GENTING = preset(_GENTING, "Resorts World Genting: Win 1:1 less 5%, Tie 8:1, Three Faces 16:1")
"""Resorts World Genting: Win 1:1 less 5%, Tie 8:1, Three Faces ("Three Knights") 16:1."""

GENTING_NO_COMMISSION = preset(GENTING.replace(
    name="genting_no_commission",
    pays={"win": F(1), "win_on_six": F(1, 2), "tie": F(8), "three_faces": F(16)},
    commission=F(0),
    commission_bets=frozenset(),
), "Genting without commission: a Win with a 6-point hand pays 1:2")
"""Genting without commission: a Win with a 6-point hand pays 1:2."""

PROSPERITY = preset(RuleSet(
    name="prosperity",
    variant="macau",
    decks=8,
    positions=7,
    pays={"win": F(1), "win_on_six": F(1, 2), "tie": F(10)},
    push="returned",
    ranking=Ranking(order="faces_points"),
), "a faces-first table: more faces wins, then points; Tie 10:1")
"""A faces-first table: more faces wins, then points; a 6-point Win pays 1:2, Tie 10:1."""

SAN_GONG = preset(RuleSet(
    name="san_gong",
    variant="dragon_phoenix",
    decks=1,
    positions=1,
    pays={"dragon": F(94, 100), "phoenix": F(94, 100), "tie": F(8),
          "odd": F(94, 100), "even": F(94, 100), "pair": F(94, 100)},
    tie_by="points",
    push="returned",
    banker_three_faces_odd_even="points",
    burn_after_shuffle=0,
    burn_per_round=0,
    deal_one_at_a_time=False,
    ranking=Ranking(order="points", tiers=("trips", "three_faces"), high_card="rank_suit"),
    total_pays={"1-6": F(1), "7-8": F(2), "9": F(4)},
    pair_counts_trips=False,
    total_tier="points",
    total_zero="winner",
), "online Dragon and Phoenix: trips > three faces > points, then the highest card")
"""An online "San Gong" game: Dragon and Phoenix pay 0.94:1 and are returned on a tie of
the ranking (possible with several decks only); Tie pays 8:1 on equal points (Choice: with
one deck, hands never tie exactly under a suit tie-break); three of a kind > three faces >
points, then the highest card by rank and suit. Side bets on each hand: odd and even
points (0 even, every hand by its points) and a pair (not three of a kind), each 0.94:1;
on the winning hand's points: 1-6 1:1, 7-8 2:1, 9 4:1, returned when it has 0 points
(Choices: the readings whose house edges agree with the published ~3% and ~67%)."""

CHINESE = preset(RuleSet(
    name="chinese",
    variant="banker_game",
    decks=1,
    positions=4,
    pays={},
    burn_after_shuffle=0,
    burn_per_round=0,
    deal_one_at_a_time=False,
    ranking=Ranking(order="points", tiers=("face_trips", "trips", "three_faces"), high_card="rank_suit"),
    multipliers={**{str(n): F(1) for n in range(8)}, "8": F(2), "9": F(3),
                 "three_faces": F(4), "trips": F(5), "face_trips": F(6)},
), "the Chinese banker game: each player against the banker for a multiple of the stake")
"""The 三公 banker game: 大三公 > 小三公 > 混三公 > points; each player against the banker,
the loser paying the stake x the winner's multiplier (points 0-7 x1, 8 x2, 9 x3, 混三公 x4,
小三公 x5, 大三公 x6)."""

def _preset_named(name: str) -> RuleSet:
    """The preset of this name, or a ValueError naming it (cut to 40 characters) and the known ones."""
    if name not in PRESETS:
        shown = repr(name) if len(name) <= 40 else repr(name[:40]) + "..."
        raise ValueError(f"rules: unknown preset {shown}{did_you_mean(name, PRESETS)} (known: {', '.join(PRESETS)})")
    return PRESETS[name]


@overload
def as_rules(rules: RuleSet | str) -> RuleSet: ...
@overload
def as_rules(rules: RuleSet | str | None, *, optional: Literal[True]) -> RuleSet | None: ...
def as_rules(rules: object, *, optional: bool = False) -> RuleSet | None:
    """The rule set a ``rules`` argument gives: a ``RuleSet`` itself, or a preset by its
    name (``"macau"``); with ``optional``, None too (the entry point then finds the rules
    itself: a log's preset). Every entry point that takes ``rules`` calls this.

    >>> as_rules("online") is ONLINE, as_rules(MACAU) is MACAU
    (True, True)
    >>> as_rules(3)
    Traceback (most recent call last):
    ...
    TypeError: rules: expected a RuleSet or a preset name, not int

    :raises TypeError: neither (a ``Ranking`` too: give the rule set).
    :raises ValueError: a name that is no preset's, naming the presets there are.
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return _preset_named(rules)
    if rules is None and optional:
        return None
    expected = "a RuleSet, a preset name or None" if optional else "a RuleSet or a preset name"
    raise TypeError(f"rules: expected {expected}, not {type(rules).__name__}")
