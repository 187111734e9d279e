"""Bets: the kinds each variant offers and what each is placed on, their canonical names
(``parse_bet``) and what a name says (``BetSpec``) (``sanggong.rules``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .._spec import total_number

if TYPE_CHECKING:
    from ._ruleset import RuleSet

__all__ = [
    "DESCRIPTIONS", "KINDS", "MULTIPLIER_POINTS", "PAIR_PLUS_CATEGORIES", "PAY_KEYS", "TOTAL_RE", "VARIANTS",
    "BetSpec", "Variant", "offered_bets", "parse_bet"
]

Variant = Literal["macau", "online", "dragon_phoenix", "banker_game"]
VARIANTS = ("macau", "online", "dragon_phoenix", "banker_game")
PAIR_PLUS_CATEGORIES = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")

# Bet kinds of each variant and what they are placed on: "position" (a position or a
# player, numbered from 1), "banker" (the banker's hand), "point" (0..9), "hand"
# (a player or "banker"), "pair" (a two-hand table's two hands: no suffix), "side" (one of
# them: "dragon" or "phoenix"), "total" (a range of winning totals, a key of total_pays).
KINDS: dict[str, dict[str, str]] = {
    "macau": {
        "win": "position", "tie": "position", "odd": "banker", "even": "banker",
        "three_faces": "banker", "point": "point",
    },
    "online": {
        "win": "position", "lose": "position", "tie": "position",
        "three_faces": "position", "pair_plus": "hand",
    },
    # two hands, Dragon (hand 1) and Phoenix (hand 0, where the banker sits elsewhere):
    # the main bets name no position, the side bets name the hand or the totals
    "dragon_phoenix": {
        "dragon": "pair", "phoenix": "pair", "tie": "pair",
        "odd": "side", "even": "side", "pair": "side", "total": "total",
    },
    "banker_game": {"player": "position"},
}
PAY_KEYS = {
    "macau": {"win", "win_on_six", "tie", "odd", "even", "three_faces", "point"},
    "online": {"win", "win_on_six", "lose", "lose_on_six", "tie", "three_faces"},
    "dragon_phoenix": {"dragon", "dragon_on_six", "phoenix", "phoenix_on_six", "tie", "odd", "even", "pair"},
    "banker_game": set(),
}
MULTIPLIER_POINTS = tuple(str(n) for n in range(10))
# A range of winning totals: "n" or "a-b", 1 <= a < b <= 9 (a total of 0 returns the bets).
TOTAL_RE = re.compile(r"([1-9])(?:-([1-9]))?")
DESCRIPTIONS = {
    ("macau", "win"): "position {t} beats the banker; a tie {push} the stake",
    ("macau", "tie"): "position {t} ties the banker{needs_win}",
    ("macau", "odd"): "the banker's points are odd",
    ("macau", "even"): "the banker's points are even",
    ("macau", "three_faces"): "the banker has three faces (3P)",
    ("macau", "point"): "the banker's points are {t}",
    ("online", "win"): "player {t} beats the banker",
    ("online", "lose"): "the banker beats player {t}",
    ("online", "tie"): "player {t} ties the banker",
    ("online", "three_faces"): "player {t} has three faces (3P)",
    ("online", "pair_plus"): "{t}'s hand is a pair or better",
    ("dragon_phoenix", "dragon"): "Dragon beats Phoenix",
    ("dragon_phoenix", "phoenix"): "Phoenix beats Dragon",
    ("dragon_phoenix", "tie"): "Dragon and Phoenix tie",
    ("dragon_phoenix", "odd"): "{t}'s points are odd{three_faces}",
    ("dragon_phoenix", "even"): "{t}'s points are even (0 too){three_faces}",
    ("dragon_phoenix", "pair"): "{t}'s three cards hold a pair{trips}",
    ("dragon_phoenix", "total"): "the winning hand's points are {t}{zero}",
    ("banker_game", "player"): "player {t} against the banker: the loser pays the stake x the winner's multiplier",
}
_BET_RE = re.compile(r"([a-z_]+)(?::([0-9a-z-]+))?")


@dataclass(frozen=True, slots=True)
class BetSpec:
    """A parsed canonical bet name: its kind and what it is on.

    ``position`` is 1.. for a position or player, 0 for the banker's hand, and the
    number for ``point:<n>``; at a two-hand table 1 for Dragon (and for the bets that
    read both hands) and 0 for Phoenix. ``number`` is what settlement reads besides the
    hands: n of ``point:<n>``, a total bet's range as 10 x low + high (``total:1-6`` 16,
    ``total:9`` 99), else 0.
    """

    name: str
    kind: str
    position: int
    number: int = 0


def parse_bet(name: str) -> BetSpec:
    """Parse a canonical bet name (``win:1``, ``odd``, ``point:0``, ``pair_plus:banker``,
    ``odd:dragon``, ``total:1-6``) without checking it against a table. The banker's hand
    is position 0 for ``pair_plus:banker`` and -1 for bets on the banker without a
    suffix; Dragon is 1 and Phoenix 0; a range of totals is position -1 and its number
    10 x low + high."""
    if not isinstance(name, str):
        raise TypeError(f"a bet name is a string, not {name!r}")
    match = _BET_RE.fullmatch(name)
    if match is None:
        raise ValueError(f"unknown bet {name!r}: expected a name such as win:1, odd or point:7")
    kind, arg = match[1], match[2]
    if arg is None:
        return BetSpec(name, kind, -1)
    if arg in ("banker", "phoenix", "dragon"):
        return BetSpec(name, kind, int(arg == "dragon"))
    total = TOTAL_RE.fullmatch(arg) if "-" in arg else None
    if total is not None and total[2] is not None:
        if total[1] >= total[2]:
            raise ValueError(f"unknown bet {name!r}: {arg!r} is not a range of totals (low-high, low below high)")
        return BetSpec(name, kind, -1, total_number(arg))
    if not arg.isdigit() or (arg != "0" and arg.startswith("0")):
        raise ValueError(f"unknown bet {name!r}: {arg!r} is not a position")
    return BetSpec(name, kind, int(arg))


def offered_bets(rules: RuleSet, bets: Iterable[str] | None, what: str) -> tuple[str, ...]:
    """``bets`` checked against ``rules`` (None: every bet of the table): a list of offered
    bet names, none twice (``what``: the verb an empty list is refused with)."""
    if isinstance(bets, str):
        raise TypeError(f"bets: give a list of bet names, not one string ({bets!r})")
    names = tuple(rules.bets if bets is None else bets)
    if not names:
        raise ValueError(f"bets: no bet to {what}")
    for name in names:
        rules.bet(name)  # an offered bet (names it if not)
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"bets: {twice} is given twice")
    return names
