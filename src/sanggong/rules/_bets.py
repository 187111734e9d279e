"""Bets: their canonical names (``parse_bet``), what a name says (``BetSpec``) and a
table's bets checked (``offered_bets``) (``sanggong.rules``; the kinds each variant offers
are its record's, ``_variants``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from .._spec import total_number

__all__ = ["MULTIPLIER_POINTS", "PAIR_PLUS_CATEGORIES", "TOTAL_RE", "BetSpec", "Variant", "offered_bets", "parse_bet"]

Variant: TypeAlias = str
"""A rule set's ``variant``: the name of a registered ``TableVariant`` (``_variants``)."""
PAIR_PLUS_CATEGORIES = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")

MULTIPLIER_POINTS = tuple(str(n) for n in range(10))
# A range of winning totals: "n" or "a-b", 1 <= a < b <= 9 (a total of 0 returns the bets).
TOTAL_RE = re.compile(r"([1-9])(?:-([1-9]))?")
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


class _Offering(Protocol):
    """What ``offered_bets`` reads of a rule set: its bets and the lookup naming one."""

    @property
    def bets(self) -> Mapping[str, str]: ...

    def bet(self, name: str) -> BetSpec: ...


def offered_bets(rules: _Offering, bets: Iterable[str] | None, what: str) -> tuple[str, ...]:
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
