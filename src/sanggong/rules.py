"""Rule sets: everything a Sam Gong table varies, as data.

Eight presets (``PRESETS``): ``MACAU`` (Portaria 22/96/M), ``ONLINE`` (the three-player
live-dealer variant) and the family of other tables, ``NAGAWORLD``, ``GENTING``,
``GENTING_NO_COMMISSION``, ``PROSPERITY``, ``SAN_GONG`` (Dragon and Phoenix) and
``CHINESE`` (the banker game), each with its ranking (``sanggong.ranking``). A variant is a
preset with fields replaced, or a TOML/JSON file:

>>> from sanggong.rules import MACAU, ONLINE, RuleSet
>>> MACAU.pays["tie"], MACAU.commission, sorted(MACAU.commission_bets)
(Fraction(20, 1), Fraction(1, 20), ['even', 'odd', 'win'])
>>> three_pictures = MACAU.replace(name="three pictures", tie_by="points", pays={**MACAU.pays, "tie": 8})
>>> three_pictures.pays["tie"], three_pictures.tie_by
(Fraction(8, 1), 'points')
>>> sorted(ONLINE.bets)[:4]
['lose:1', 'lose:2', 'lose:3', 'pair_plus:1']
>>> RuleSet.from_dict({**MACAU.to_dict(), "positions": 0})
Traceback (most recent call last):
...
ValueError: positions: must be at least 1, got 0
>>> RuleSet.from_dict({**MACAU.to_dict(), "tie_requires_win": "false"})
Traceback (most recent call last):
...
TypeError: tie_requires_win: expected a bool, got a str

One validation serves every way in: a file is read into strict ``msgspec`` structs
(exact types, no unknown fields, the failing path named), ``from_dict`` converts a
mapping through the same structs, and the semantic checks live in one place, the
constructor, which every rule set passes (``RuleSet(...)``, ``replace``, ``from_dict``,
``load``). Every number is bounded (``sanggong.limits``) before it is expanded.

Odds are "to 1" and exact (``Fraction``), from 0 (a win returns the stake only) to
``MAX_ODDS``, with a denominator of at most ``MAX_DENOMINATOR``. In files they are
written as integers or strings (``"1/2"``, ``"0.05"``: at most ``MAX_TEXT_NUMBER``
characters, no exponent); a float is read through its shortest decimal text. The minor
unit is a ``Decimal`` (a string or an int in files, never a float: money is never a
float here).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Context, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from ._spec import burn_of, round_length, table_fits, total_key, total_number, total_range
from ._table import table_params
from ._canonical import DuplicateKey, canonical_json, loads_strict
from .money import money_text
from .ranking import DEFAULT_RANKING, Ranking
from .limits import (
    MAX_BURN,
    MAX_DECIMAL_EXPONENT,
    MAX_DECKS,
    MAX_DENOMINATOR,
    MAX_NAME_LENGTH,
    MAX_ODDS,
    MAX_POSITIONS,
    MAX_RULE_FILE_BYTES,
    MAX_TEXT_NUMBER,
)

__all__ = [
    "CHINESE", "GENTING", "GENTING_NO_COMMISSION", "MACAU", "NAGAWORLD", "ONLINE", "PRESETS", "PROSPERITY",
    "SAN_GONG", "BetSpec", "RuleSet", "parse_bet",
]

"""The longest rule set name, in characters."""

Variant = Literal["macau", "online", "dragon_phoenix", "banker_game"]
VARIANTS = ("macau", "online", "dragon_phoenix", "banker_game")
PAIR_PLUS_CATEGORIES = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")

# Bet kinds of each variant and what they are placed on: "position" (a position or a
# player, numbered from 1), "banker" (the banker's hand), "point" (0..9), "hand"
# (a player or "banker"), "pair" (a two-hand table's two hands: no suffix), "side" (one of
# them: "dragon" or "phoenix"), "total" (a range of winning totals, a key of total_pays).
_KINDS: dict[str, dict[str, str]] = {
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
_PAY_KEYS = {
    "macau": {"win", "win_on_six", "tie", "odd", "even", "three_faces", "point"},
    "online": {"win", "win_on_six", "lose", "lose_on_six", "tie", "three_faces"},
    "dragon_phoenix": {"dragon", "dragon_on_six", "phoenix", "phoenix_on_six", "tie", "odd", "even", "pair"},
    "banker_game": set(),
}
MULTIPLIER_POINTS = tuple(str(n) for n in range(10))
MAX_MULTIPLIERS = 16  # distinct multipliers of a banker game (outcome codes hold 16)
_CHOICES: dict[str, tuple[str, ...]] = {
    "tie_by": ("class", "points"),
    "push": ("carried", "returned"),
    "banker_three_faces_odd_even": ("push", "lose", "points"),
    "rounding": ("down", "half_up", "half_even", "up"),
    "total_tier": ("points", "push"),
    "total_zero": ("winner", "both"),
}
_FLAGS = ("tie_requires_win", "deal_one_at_a_time", "head_card", "head_card_burned", "pair_counts_trips")
# Fields that only the side bets of a two-hand table read: a rule set of another variant
# keeps their defaults, and leaves them out of its dict, its files and its digest (which
# they reached after the other variants' rule sets had records bound to their digests).
_DRAGON_PHOENIX_FIELDS = {"total_pays": {}, "pair_counts_trips": False, "total_tier": "points", "total_zero": "winner"}
# A range of winning totals: "n" or "a-b", 1 <= a < b <= 9 (a total of 0 returns the bets).
_TOTAL_RE = re.compile(r"([1-9])(?:-([1-9]))?")
_DESCRIPTIONS = {
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
# Odds and rates as text: an integer, a decimal or a ratio of integers, ASCII digits
# only and never an exponent, so that Fraction() never expands 10**huge.
_RATIO_RE = re.compile(r"[+-]?(?:[0-9]+/[0-9]+|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
# A minor unit as text: Decimal() reads an exponent without expanding it, and the
# exponent is bounded right after.
_DECIMAL_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_HUGE_BITS = 1024  # ints this large are refused before msgspec sees them (see _scan_ints)


class _FrozenMap(Mapping[str, Fraction]):
    """A read-only, hashable table of odds (so that rule sets can key caches)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Fraction]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Fraction:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __repr__(self) -> str:
        return repr(self._items)


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


# --- checking one value ---------------------------------------------------------------------


def _show(value: object) -> str:
    """A short text for a bad value in a message: never a huge int's digits (Python
    refuses to print them) nor a whole container."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"an int of {value.bit_length()} bits"
    if isinstance(value, Fraction):
        bits = max(value.numerator.bit_length(), value.denominator.bit_length())
        return repr(value) if bits <= 64 else f"a Fraction of {bits} bits"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + f"... ({len(value)} characters)"
    if isinstance(value, Decimal):
        digits = len(value.as_tuple().digits)
        return repr(value) if digits <= 40 else f"a Decimal of {digits} digits"
    return f"a {type(value).__name__}"


def _int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an int, got {_show(value)}")
    if value < low:
        raise ValueError(f"{name}: must be at least {low}, got {_show(value)}")
    if value > high:
        raise ValueError(f"{name}: must be at most {high}, got {_show(value)}")
    return int(value)


def _choice(value: object, name: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected one of {allowed}, got {_show(value)}")
    if value not in allowed:
        raise ValueError(f"{name}: expected one of {allowed}, got {_show(value)}")
    return value


def _number(value: object, name: str, high: Fraction, *, below: bool = False) -> Fraction:
    """An exact non-negative number at most ``high`` (below it if ``below``) with a
    denominator of at most ``MAX_DENOMINATOR``, bounded before anything is expanded."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected a number, got {value!r}")
    if isinstance(value, int | Fraction):
        result = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{name}: expected a finite number, got {value!r}")
        if value < 0:
            raise ValueError(f"{name}: must not be negative, got {value!r}")
        if value > high:
            raise ValueError(f"{name}: must be {'below' if below else 'at most'} {high}, got {value!r}")
        result = Fraction(repr(value))  # the shortest text that reads back as this float
    elif isinstance(value, str):
        if len(value) > MAX_TEXT_NUMBER:
            raise ValueError(f"{name}: a number as text has at most {MAX_TEXT_NUMBER} characters, "
                             f"got {len(value)}")
        if not _RATIO_RE.fullmatch(value):
            raise ValueError(f"{name}: {value!r} is not a number (expected an int or text such as "
                             "'1/2' or '0.05', without an exponent)")
        try:
            result = Fraction(value)
        except ZeroDivisionError:
            raise ValueError(f"{name}: {value!r} divides by zero") from None
    elif isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        if not value.is_finite() or not isinstance(exponent, int):
            raise ValueError(f"{name}: expected a finite number, got {_show(value)}")
        if abs(exponent) > MAX_DECIMAL_EXPONENT or len(value.as_tuple().digits) > MAX_TEXT_NUMBER:
            raise ValueError(f"{name}: {_show(value)} is out of range")
        result = Fraction(value)
    else:
        raise TypeError(f"{name}: expected a number (an int, or text such as '1/2'), got {_show(value)}")
    if result < 0:
        raise ValueError(f"{name}: must not be negative, got {_show(value)}")
    if result > high or (below and result == high):
        raise ValueError(f"{name}: must be {'below' if below else 'at most'} {high}, got {_show(value)}")
    if result.denominator > MAX_DENOMINATOR:
        raise ValueError(f"{name}: {_show(value)} has a denominator above {MAX_DENOMINATOR}")
    return result


def _fraction_text(value: Fraction) -> str | int:
    return value.numerator if value.denominator == 1 else str(value)


def _table(value: object, name: str) -> dict[str, object]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{name}: expected a table of odds, got {_show(value)}")
    for key in value:
        if not isinstance(key, str):
            raise TypeError(f"{name}: keys are names (strings), got {_show(key)}")
    return dict(value)


def _odds(table: Mapping[str, object], name: str) -> _FrozenMap:
    return _FrozenMap({k: _number(v, f"{name}.{k}", Fraction(MAX_ODDS)) for k, v in table.items()})


def _minor_unit(value: object) -> Decimal:
    """A positive Decimal, canonical (``0.010`` is ``0.01``, ``1E+2`` is ``100``), of at
    most ``MAX_TEXT_NUMBER`` characters, its exponent within +-``MAX_DECIMAL_EXPONENT``."""
    name = "minor_unit"
    if isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"{name}: expected a Decimal, an int or decimal text such as '0.01', got "
                        f"{_show(value)} (money is never a float)")
    if isinstance(value, int):
        if not 0 < value <= 10**MAX_DECIMAL_EXPONENT:
            raise ValueError(f"{name}: must be a positive amount of at most 1E+{MAX_DECIMAL_EXPONENT}, "
                             f"got {_show(value)}")
        unit = Decimal(value)
    elif isinstance(value, str):
        if len(value) > MAX_TEXT_NUMBER or not _DECIMAL_RE.fullmatch(value):
            raise ValueError(f"{name}: expected decimal text such as '0.01', got {_show(value)}")
        unit = Decimal(value)
    elif isinstance(value, Decimal):
        unit = value
    else:
        raise TypeError(f"{name}: expected a Decimal, an int or decimal text such as '0.01', got {_show(value)}")
    if not unit.is_finite() or unit <= 0:
        raise ValueError(f"{name}: must be a positive amount, got {_show(value)}")
    digits = len(unit.as_tuple().digits)
    if not -MAX_DECIMAL_EXPONENT <= unit.adjusted() <= MAX_DECIMAL_EXPONENT or digits > MAX_TEXT_NUMBER:
        raise ValueError(f"{name}: must lie within 1E-{MAX_DECIMAL_EXPONENT} .. 1E+{MAX_DECIMAL_EXPONENT} "
                         f"with at most {MAX_TEXT_NUMBER} digits, got {_show(value)}")
    canonical = unit.normalize(Context(prec=digits))  # exact: as many digits as it has
    exponent = canonical.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    if exponent < -MAX_DECIMAL_EXPONENT:
        raise ValueError(f"{name}: its exponent must lie within +-{MAX_DECIMAL_EXPONENT}, got {_show(value)}")
    if exponent > 0:
        canonical = Decimal(int(canonical))  # 1E+2 is 100: at most 31 digits, by adjusted()
    if len(str(canonical)) > MAX_TEXT_NUMBER:
        raise ValueError(f"{name}: has more than {MAX_TEXT_NUMBER} characters as text, got {_show(value)}")
    return canonical


def _check_name(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"name: expected a non-empty string, got {_show(value)}")
    if not value.strip():
        raise ValueError(f"name: expected a non-empty string, got {_show(value)}")
    if len(value) > MAX_NAME_LENGTH:
        raise ValueError(f"name: at most {MAX_NAME_LENGTH} characters, got {len(value)}")
    if not value.isprintable():
        raise ValueError(f"name: must be printable (no control characters), got {_show(value)}")
    return value


# --- the rule set ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleSet:
    """Everything a table varies. Build one from a preset with ``replace`` or from a
    file with ``load``; every field is checked when the rule set is made, and a rule set
    is made only if its box or shoe can deal every round it may be asked for
    (``round_cards``).

    :param name: a printable name of 1 to 64 characters.
    :param variant: ``"macau"`` (positions, Odd/Even, Point bets, commission),
        ``"online"`` (three players, Win/Lose/Tie, Three Faces, Pair Plus),
        ``"dragon_phoenix"`` (two hands, Dragon and Phoenix, and a Tie: ``positions`` is 1,
        Dragon being hand 1 and Phoenix hand 0) or ``"banker_game"`` (each player against
        the banker, paid by ``multipliers``).
    :param decks: decks in the box or shoe, 1 to ``MAX_DECKS``.
    :param positions: player positions, 1 to ``MAX_POSITIONS`` (``"online"``: exactly 3).
    :param pays: odds "to 1" of each bet kind; a kind without odds is not offered.
        ``win_on_six``/``lose_on_six`` (online) pay when the winning hand has 6 points.
        Odds 0 are allowed: a win then returns the stake only.
    :param pair_plus_pays: odds of every Pair Plus category (online), or none at all.
    :param commission: rate charged on the winnings of ``commission_bets``, 0 <= rate < 1.
    :param commission_bets: the bet kinds whose winnings pay ``commission`` (Macau:
        ``win``, ``odd`` and ``even``).
    :param tie_by: what a Tie bet compares: ``"class"`` (the two hands tie under the
        ranking) or ``"points"`` (equal points, a tier hand such as 3P tying only its own
        tier). Win, Lose and every other comparison always follow ``ranking``.
    :param push: a pushed Win/Lose or Odd/Even stake is ``"carried"`` to the next round
        (Macau) or ``"returned"`` (online).
    :param banker_three_faces_odd_even: a banker 3P makes Odd/Even ``"push"`` or ``"lose"``,
        or counts its points (0: even) as any hand does (``"points"``). At a two-hand
        table, the same for Dragon's or Phoenix's Odd/Even.
    :param banker_three_faces_point: the Point bet a banker 3P pays (0), or None: none.
    :param tie_requires_win: a Tie bet needs a Win bet on the same position (Macau).
    :param rounding: how a player's payout is rounded to the minor unit: ``"down"``,
        ``"half_up"``, ``"half_even"`` or ``"up"``.
    :param minor_unit: the smallest amount of a ``Decimal`` stake (0.01); kept canonical
        (``Decimal("0.010")`` becomes ``Decimal("0.01")``).
    :param burn_after_shuffle: cards burned after a shuffle, 0 to ``MAX_BURN`` (None: as
        many as decks).
    :param burn_per_round: cards burned before every later round of a shoe, 0 to ``MAX_BURN``.
    :param cut_card_range: the cut card goes between these many cards from the end.
    :param deal_one_at_a_time: deal one card at a time round the table (else three).
    :param head_card: the online head card fixes the dealing order (only where a fresh
        deck is dealt each round: the head card is the first card of a shuffled deck).
    :param head_card_burned: the head card is burned, not dealt into a hand.
    :param ranking: how hands are ordered (``sanggong.ranking.Ranking``; a mapping with
        ``order``, ``tiers`` and ``high_card`` is read as one). Default: points, then
        faces, 3P on top, equal classes tie.
    :param multipliers: a banker game's multipliers (``variant="banker_game"`` only,
        and required there): points ``"0"`` .. ``"9"`` and each of the ranking's tiers.
        The loser of a ``player:<i>`` bet pays the stake times the winner's multiplier.
    :param total_pays: a two-hand table's total bets (``variant="dragon_phoenix"`` only):
        the odds of each range of the winning hand's points, keyed ``"a-b"`` (1 <= a < b
        <= 9) or ``"n"``; each key is a bet, ``total:<key>``. Both hands at 0 return them.
    :param pair_counts_trips: a two-hand table's pair bets (``pair:dragon``,
        ``pair:phoenix``) win on three of a kind too (else on a pair only).
    :param total_tier: what a winning hand of a tier (three of a kind, three faces) counts
        as for the total bets: its ``"points"``, as any hand, or nothing: the bets are
        returned (``"push"``).
    :param total_zero: the total bets are returned when the winning hand has 0 points
        (``"winner"``: a three faces over a hand of points too) or only when both hands
        have (``"both"``; a winner of 0 over a hand of points then loses them).

    The last four are fields of the ``dragon_phoenix`` variant only: another variant keeps
    their defaults and leaves them out of ``to_dict``, its files and its digest.
    :raises TypeError: a field of the wrong type, named.
    :raises ValueError: a field out of range or inconsistent with the others, named.
    """

    name: str
    variant: Variant
    decks: int
    positions: int
    pays: Mapping[str, Fraction]
    pair_plus_pays: Mapping[str, Fraction] = field(default_factory=dict)
    commission: Fraction = Fraction(0)
    commission_bets: frozenset[str] = frozenset()
    tie_by: Literal["class", "points"] = "class"
    push: Literal["carried", "returned"] = "returned"
    banker_three_faces_odd_even: Literal["push", "lose", "points"] = "push"
    banker_three_faces_point: int | None = 0
    tie_requires_win: bool = False
    rounding: Literal["down", "half_up", "half_even", "up"] = "down"
    minor_unit: Decimal = Decimal("0.01")
    burn_after_shuffle: int | None = None
    burn_per_round: int = 1
    cut_card_range: tuple[int, int] = (30, 40)
    deal_one_at_a_time: bool = True
    head_card: bool = False
    head_card_burned: bool = True
    ranking: Ranking = DEFAULT_RANKING
    multipliers: Mapping[str, Fraction] = field(default_factory=dict)
    total_pays: Mapping[str, Fraction] = field(default_factory=dict)
    pair_counts_trips: bool = False
    total_tier: Literal["points", "push"] = "points"
    total_zero: Literal["winner", "both"] = "winner"

    def __post_init__(self) -> None:
        # The one place a rule set's fields are checked: files and dicts come here too,
        # after msgspec has checked their types. Frozen: normalise in place once, here.
        set_ = object.__setattr__
        set_(self, "name", _check_name(self.name))
        variant = self.variant
        if not isinstance(variant, str):
            raise TypeError(f"variant: expected one of {VARIANTS}, got {_show(variant)}")
        if variant not in _KINDS:
            raise ValueError(f"variant: expected one of {VARIANTS}, got {_show(variant)}")
        set_(self, "decks", _int(self.decks, "decks", 1, MAX_DECKS))
        set_(self, "positions", _int(self.positions, "positions", 1, MAX_POSITIONS))
        if variant == "online" and self.positions != 3:
            raise ValueError(f"positions: the online variant has 3 players, got {self.positions}")
        if variant == "dragon_phoenix" and self.positions != 1:
            raise ValueError(f"positions: a Dragon/Phoenix table deals two hands (positions = 1), got {self.positions}")
        ranking = self.ranking
        if isinstance(ranking, Mapping):
            ranking = Ranking.from_dict(ranking)
        if not isinstance(ranking, Ranking):
            raise TypeError(f"ranking: expected a Ranking, got {_show(ranking)}")
        set_(self, "ranking", ranking)
        set_(self, "multipliers", self._check_multipliers())

        pays = _table(self.pays, "pays")
        unknown = set(pays) - _PAY_KEYS[variant]
        if unknown:
            raise ValueError(
                f"pays: unknown bet {_show(sorted(unknown)[0])} for the {variant} variant "
                f"(known: {', '.join(sorted(_PAY_KEYS[variant]))})"
            )
        set_(self, "pays", _odds(pays, "pays"))
        pair_plus = _table(self.pair_plus_pays, "pair_plus_pays")
        unknown = set(pair_plus) - set(PAIR_PLUS_CATEGORIES)
        if unknown:
            raise ValueError(f"pair_plus_pays: unknown category {_show(sorted(unknown)[0])}")
        if pair_plus and variant != "online":
            raise ValueError("pair_plus_pays: Pair Plus is a bet of the online variant")
        missing = [c for c in PAIR_PLUS_CATEGORIES if c not in pair_plus]
        if pair_plus and missing:  # settlement pays every category of a Pair Plus bet
            raise ValueError(f"pair_plus_pays: no odds for {missing[0]!r} (give every category, or none)")
        set_(self, "pair_plus_pays", _odds(pair_plus, "pair_plus_pays"))
        set_(self, "total_pays", self._check_totals())

        set_(self, "commission", _number(self.commission, "commission", Fraction(1), below=True))
        bets = self.commission_bets
        if isinstance(bets, str | bytes | Mapping) or not isinstance(bets, frozenset | set | list | tuple):
            raise TypeError(f"commission_bets: expected a set of bet kinds, got {_show(bets)}")
        for bet in bets:
            if not isinstance(bet, str):
                raise TypeError(f"commission_bets: bet kinds are strings, got {_show(bet)}")
            if bet not in _KINDS[variant]:
                raise ValueError(f"commission_bets: unknown bet {bet!r}")
        set_(self, "commission_bets", frozenset(bets))

        for name, allowed in _CHOICES.items():
            _choice(getattr(self, name), name, allowed)
        point = self.banker_three_faces_point
        if point is not None:
            if isinstance(point, bool) or not isinstance(point, int):
                raise TypeError(f"banker_three_faces_point: expected 0..9 or None, got {_show(point)}")
            if not 0 <= point <= 9:
                raise ValueError(f"banker_three_faces_point: expected 0..9 or None, got {_show(point)}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name}: expected a bool, got {_show(getattr(self, name))}")
        if variant != "dragon_phoenix":  # (total_pays: checked with its odds)
            for name, default in _DRAGON_PHOENIX_FIELDS.items():
                if name != "total_pays" and getattr(self, name) != default:
                    raise ValueError(f"{name}: a field of the side bets of a Dragon/Phoenix table "
                                     f"(variant 'dragon_phoenix'), not of the {variant} variant")
        if self.tie_requires_win and "tie" in self.pays and "win" not in self.pays:
            raise ValueError("pays: a Tie bet needs a Win bet here (tie_requires_win), but there are no odds for 'win'")
        set_(self, "minor_unit", _minor_unit(self.minor_unit))

        if self.burn_after_shuffle is not None:
            _int(self.burn_after_shuffle, "burn_after_shuffle", 0, MAX_BURN)
        _int(self.burn_per_round, "burn_per_round", 0, MAX_BURN)
        cut = self.cut_card_range
        if not isinstance(cut, tuple | list) or len(cut) != 2:
            raise TypeError(f"cut_card_range: expected two ints (low, high), got {_show(cut)}")
        for end in cut:
            if isinstance(end, bool) or not isinstance(end, int):
                raise TypeError(f"cut_card_range: expected two ints (low, high), got {_show(end)}")
        lo, hi = int(cut[0]), int(cut[1])
        cards = 52 * self.decks
        if not 1 <= lo <= hi < cards:
            raise ValueError(f"cut_card_range: expected 1 <= low <= high < {cards} (the cards in "
                             f"{self.decks} deck(s)), got ({_show(lo)}, {_show(hi)})")
        set_(self, "cut_card_range", (lo, hi))
        if self.head_card and not self.fresh_deck_each_round:
            raise ValueError(
                f"head_card: a head card needs a fresh deck each round (the online variant or "
                f"one deck), not a shoe of {self.decks} decks"
            )
        self._check_dealable()

    def _check_multipliers(self) -> _FrozenMap:
        table = _table(self.multipliers, "multipliers")
        if self.variant != "banker_game":
            if table:
                raise ValueError("multipliers: only a banker game (variant 'banker_game') pays by multipliers")
            return _FrozenMap({})
        keys = (*MULTIPLIER_POINTS, *self.ranking.tiers)
        for key in table:
            if key not in keys:
                raise ValueError(f"multipliers: unknown key {_show(key)} (expected points '0'..'9' and the "
                                 f"ranking's tiers {list(self.ranking.tiers)})")
        for key in keys:
            if key not in table:
                raise ValueError(f"multipliers: no multiplier for {key!r} (give points '0'..'9' and every tier)")
        out = _odds(table, "multipliers")
        for key, value in out.items():
            if value <= 0:
                raise ValueError(f"multipliers.{key}: must be positive, got {_show(value)}")
        if len(set(out.values())) > MAX_MULTIPLIERS:
            raise ValueError(f"multipliers: at most {MAX_MULTIPLIERS} different multipliers")
        return _FrozenMap({k: out[k] for k in keys})

    def _check_totals(self) -> _FrozenMap:
        table = _table(self.total_pays, "total_pays")
        for key in table:
            match = _TOTAL_RE.fullmatch(key)
            if match is None or (match[2] is not None and match[1] >= match[2]):
                raise ValueError(f"total_pays: {_show(key)} is not a range of winning totals (expected "
                                 "'a-b' with 1 <= a < b <= 9, or 'n' for one total, such as '1-6' or '9')")
        if table and self.variant != "dragon_phoenix":
            raise ValueError("total_pays: total bets are bets of a Dragon/Phoenix table (variant 'dragon_phoenix')")
        return _odds(table, "total_pays")

    @property
    def multiplier_values(self) -> tuple[Fraction, ...]:
        """The distinct multipliers of a banker game, ascending (outcome codes index them)."""
        return tuple(sorted(set(self.multipliers.values())))

    @property
    def max_multiplier(self) -> Fraction:
        """The most a banker-game stake can win or lose, per unit (1 elsewhere)."""
        return max(self.multipliers.values(), default=Fraction(1))

    def _check_dealable(self) -> None:
        """The rounds fit the cards (``_spec.table_fits``): the first round in a full box
        or shoe, and for a shoe a later round behind the cut card at its earliest."""
        first, later = table_fits(table_params(self))
        for fits, needed, available, where in (
            (first, self.round_cards(True), 52 * self.decks, f"in {self.decks} deck(s)"),
            (later, self.round_cards(False), self.cut_card_range[0], "behind the cut card at the least"),
        ):
            if not fits:
                raise ValueError(
                    f"positions: {self.positions} positions need {needed} cards a round "
                    f"(burns included), more than the {available} {where}"
                )

    # --- derived --------------------------------------------------------------------

    @property
    def hands(self) -> int:
        """Hands dealt a round: every position and the banker."""
        return self.positions + 1

    @property
    def fresh_deck_each_round(self) -> bool:
        """Online tables and one-deck boxes shuffle before every round; shoes do not."""
        return self.variant == "online" or self.decks == 1

    @property
    def burn_first(self) -> int:
        """Cards burned after a shuffle (by default as many as decks)."""
        return self.decks if self.burn_after_shuffle is None else self.burn_after_shuffle

    def round_cards(self, first: bool) -> int:
        """Cards a round takes out of the box or shoe, burns and a burned head card
        included: the first round after a shuffle (``first``) or a later round of a shoe.

        A rule set is made only if every round it can be asked to deal fits: the first
        round in a full box or shoe (``round_cards(True) <= 52 * decks``, every round of a
        fresh-deck table) and, for a shoe, every later round in the fewest cards the cut
        card can leave (``round_cards(False) <= cut_card_range[0]``).

        >>> MACAU.round_cards(True), MACAU.round_cards(False), ONLINE.round_cards(True)
        (32, 25, 13)
        """
        table = table_params(self)
        return round_length(table, burn_of(table, first))

    @property
    def cards_per_round(self) -> int:
        """Most cards one round takes, burns and the head card included (the first round
        after a shuffle, or a later round of a shoe if that takes more)."""
        if self.fresh_deck_each_round:
            return self.round_cards(True)
        return max(self.round_cards(True), self.round_cards(False))

    @property
    def bets(self) -> dict[str, str]:
        """Every bet this table offers, by canonical name, with a one-line description."""
        out: dict[str, str] = {}
        fields = {  # the table's own fields; {t} stays
            "t": "{t}", "push": "carries" if self.push == "carried" else "returns",
            "needs_win": " (needs a Win bet on the position)" if self.tie_requires_win else "",
        }
        if self.variant == "dragon_phoenix":
            three_faces = self.banker_three_faces_odd_even
            fields |= {
                "trips": " or three of a kind" if self.pair_counts_trips else " (three of a kind is not a pair)",
                "three_faces": "" if three_faces == "points" else "; three faces lose" if three_faces == "lose" else
                f"; three faces: {'carried' if self.push == 'carried' else 'returned'}",
                "zero": (" (a winning three of a kind or three faces, or both hands 0: returned)"
                         if self.total_tier == "push" else
                         " (0: returned)" if self.total_zero == "winner" else " (both hands 0: returned)"),
            }
        for kind, target in _KINDS[self.variant].items():
            if not self._offers(kind):
                continue
            text = _DESCRIPTIONS[(self.variant, kind)].format(**fields)
            if target in ("banker", "pair"):
                out[kind] = text
            elif target == "side":
                for hand in ("dragon", "phoenix"):
                    out[f"{kind}:{hand}"] = text.format(t=hand.capitalize())
            elif target == "total":
                for key in self.total_pays:
                    low, high = total_range(total_number(key))
                    out[f"{kind}:{key}"] = text.format(
                        t=str(low) if low == high else f"{low} or {high}" if high == low + 1 else f"{low} to {high}")
            elif target == "point":
                for n in range(10):
                    out[f"{kind}:{n}"] = text.format(t=n)
            else:
                for i in range(1, self.positions + 1):
                    out[f"{kind}:{i}"] = text.format(t=f"player {i}" if target == "hand" else i)
                if target == "hand":
                    out[f"{kind}:banker"] = text.format(t="the banker")
        return out

    def _offers(self, kind: str) -> bool:
        if kind == "player":
            return self.variant == "banker_game"
        if kind == "total":
            return bool(self.total_pays)
        return bool(self.pair_plus_pays) if kind == "pair_plus" else kind in self.pays

    def bet_odds(self, name: str) -> Fraction | None:
        """The odds ("to 1") a winning bet pays, before any commission: its kind's, a
        total bet's range's; None where the hand decides them (Pair Plus by category, a
        banker game by multiplier).

        >>> SAN_GONG.bet_odds("total:7-8"), SAN_GONG.bet_odds("odd:dragon"), ONLINE.bet_odds("pair_plus:1")
        (Fraction(2, 1), Fraction(47, 50), None)
        """
        spec = self.bet(name)
        if spec.kind == "total":
            return self.total_pays[total_key(spec.number)]
        return self.pays.get(spec.kind)

    def bet(self, name: str) -> BetSpec:
        """Parse a canonical bet name and check that this table offers it.

        >>> ONLINE.bet("pair_plus:banker"), MACAU.bet("point:7").number
        (BetSpec(name='pair_plus:banker', kind='pair_plus', position=0, number=0), 7)
        >>> SAN_GONG.bet("pair:phoenix").position, SAN_GONG.bet("total:1-6")
        (0, BetSpec(name='total:1-6', kind='total', position=1, number=16))
        >>> MACAU.bet("lose:1")
        Traceback (most recent call last):
        ...
        ValueError: unknown bet 'lose:1': the macau table offers win, tie, odd, even, three_faces, point
        """
        spec = parse_bet(name)
        kinds = _KINDS[self.variant]
        if spec.kind not in kinds or not self._offers(spec.kind):
            offered = ", ".join(k for k in kinds if self._offers(k))
            raise ValueError(f"unknown bet {name!r}: the {self.variant} table offers {offered}")
        target = kinds[spec.kind]
        suffix = name.partition(":")[2]
        digits = suffix.isdigit()  # (parse_bet has refused digits with a leading zero)
        if target in ("banker", "pair"):
            ok = suffix == ""
            if ok and target == "pair":  # a two-hand table's bets read hand 1 against hand 0
                return BetSpec(spec.name, spec.kind, 1)
        elif target == "side":  # Dragon is hand 1, Phoenix hand 0
            ok = suffix in ("dragon", "phoenix")
        elif target == "total":  # Dragon against Phoenix, and the range
            ok = suffix in self.total_pays
            if ok:
                return BetSpec(spec.name, spec.kind, 1, total_number(suffix))
        elif target == "point":
            ok = digits and 0 <= spec.position <= 9
            if ok:
                return BetSpec(spec.name, spec.kind, spec.position, spec.position)
        elif target == "hand":
            ok = (digits or suffix == "banker") and 0 <= spec.position <= self.positions
        else:
            ok = digits and 1 <= spec.position <= self.positions
        if not ok:
            raise ValueError(f"unknown bet {name!r}: no such {spec.kind} bet at this table")
        return BetSpec(spec.name, spec.kind, max(spec.position, 0))

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (and checked again).

        >>> MACAU.replace(colour="red")
        Traceback (most recent call last):
        ...
        TypeError: colour: unknown field of a rule set
        """
        for name in changes:
            if name not in _FIELDS:
                raise TypeError(f"{name}: unknown field of a rule set")
        return dataclasses.replace(self, **changes)

    def digest(self) -> str:
        """The SHA-256 of the rule set's canonical JSON (``to_dict`` canonicalised by RFC
        8785, as records are: sorted keys, no spaces, UTF-8): equal rule sets have equal
        digests, any change changes it, and the caller's ``decimal`` context changes
        nothing. A round record carries it to bind the round to the exact rules it was
        dealt under.

        >>> MACAU.digest() == MACAU.replace().digest() != MACAU.replace(decks=6).digest()
        True
        """
        return hashlib.sha256(canonical_json(self.to_dict())).hexdigest()

    # --- files ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of JSON/TOML types (odds as ints or ``"n/d"`` strings; a
        ``banker_three_faces_point`` of None as ``"none"``, since TOML has no null)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Fraction):
                value = _fraction_text(value)
            elif isinstance(value, Mapping):
                value = {k: _fraction_text(v) for k, v in value.items()}
            elif isinstance(value, frozenset):
                value = sorted(value)
            elif isinstance(value, Decimal):
                value = money_text(value)  # never the caller's context's spelling (1e-30)
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, Ranking):
                value = value.to_dict()
            if f.name == "banker_three_faces_point" and value is None:
                value = "none"  # TOML has no null
            if f.name in _DRAGON_PHOENIX_FIELDS and self.variant != "dragon_phoenix":
                continue  # their defaults: left out, so that other tables keep their digests
            if value is not None:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build from ``to_dict``'s form, as strictly as a file is read: exact types (no
        ``"false"`` for a bool, no float where an int goes), no unknown fields. A value
        of the wrong type raises ``TypeError`` (as ``RuleSet(...)`` does), any other
        invalid field ``ValueError``; either names the field."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a rule set is a table of fields, not {type(data).__name__}")
        data = dict(data)
        _scan_ints(data)
        try:
            parsed = msgspec.convert(data, _RuleFile, strict=True)
        except msgspec.ValidationError as exc:
            # a value of the wrong type is a TypeError, as when given to RuleSet(...)
            raise (TypeError if str(exc).startswith("Expected") else ValueError)(_explain(str(exc))) from None
        return cls(**_fields_of(parsed))

    @classmethod
    def load(cls, path: str | Path) -> RuleSet:
        """Read a rule set from a ``.toml`` or ``.json`` file (any other suffix: JSON).

        Every problem raises ``ValueError`` naming the file and the field: a missing,
        unreadable or oversized file (over ``MAX_RULE_FILE_BYTES``, refused before it is
        read whole), text that is not UTF-8, TOML or JSON, or a field that is invalid.
        """
        path = Path(path)
        text = _read(path)
        toml = path.suffix == ".toml"
        kind = "TOML" if toml else "JSON"
        if not toml:  # (TOML's grammar refuses a repeated key itself)
            _refuse_repeated_keys(path, text)
        try:
            if toml:
                parsed = msgspec.toml.decode(text, type=_RuleFile, strict=True)
            else:
                parsed = msgspec.json.decode(text, type=_RuleFile, strict=True)
        except msgspec.ValidationError as exc:
            raise ValueError(f"{path}: {_explain(str(exc))}") from None
        except msgspec.DecodeError as exc:
            raise ValueError(f"{path}: not valid {kind}: {exc}") from None
        except RecursionError:
            raise ValueError(f"{path}: not valid {kind}: nested too deeply") from None
        except ValueError as exc:  # tomllib refuses an int of more digits than Python prints
            raise ValueError(f"{path}: {_huge_toml_int(text)}: not valid {kind}: {exc}") from None
        try:
            return cls(**_fields_of(parsed))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{path}: {exc}") from None

    def save(self, path: str | Path) -> None:
        """Write the rule set as ``.toml`` or ``.json`` (by the file's suffix); ``load``
        reads it back equal."""
        path = Path(path)
        data = self.to_dict()
        text = _toml(data) if path.suffix == ".toml" else json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")


_FIELDS = frozenset(f.name for f in dataclasses.fields(RuleSet))


# --- files: strict structs ---------------------------------------------------------------
# Types only: a file (or from_dict's mapping) becomes one of these, exactly typed, then its
# fields go to RuleSet(...), where every semantic check lives. UNSET: take RuleSet's default.

_Number = int | float | str


class _PaysFile(msgspec.Struct, forbid_unknown_fields=True):
    win: _Number | UnsetType = UNSET
    win_on_six: _Number | UnsetType = UNSET
    lose: _Number | UnsetType = UNSET
    lose_on_six: _Number | UnsetType = UNSET
    tie: _Number | UnsetType = UNSET
    odd: _Number | UnsetType = UNSET
    even: _Number | UnsetType = UNSET
    three_faces: _Number | UnsetType = UNSET
    point: _Number | UnsetType = UNSET
    dragon: _Number | UnsetType = UNSET
    dragon_on_six: _Number | UnsetType = UNSET
    phoenix: _Number | UnsetType = UNSET
    phoenix_on_six: _Number | UnsetType = UNSET
    pair: _Number | UnsetType = UNSET


class _PairPlusFile(msgspec.Struct, forbid_unknown_fields=True):
    pair: _Number | UnsetType = UNSET
    flush: _Number | UnsetType = UNSET
    straight: _Number | UnsetType = UNSET
    three_of_a_kind: _Number | UnsetType = UNSET
    straight_flush: _Number | UnsetType = UNSET


class _RankingFile(msgspec.Struct, forbid_unknown_fields=True):
    order: str | UnsetType = UNSET
    tiers: list[str] | UnsetType = UNSET
    high_card: str | UnsetType = UNSET


class _RuleFile(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    variant: str
    decks: int
    positions: int
    pays: _PaysFile
    pair_plus_pays: _PairPlusFile | UnsetType = UNSET
    commission: _Number | UnsetType = UNSET
    commission_bets: list[str] | UnsetType = UNSET
    tie_by: str | UnsetType = UNSET
    push: str | UnsetType = UNSET
    banker_three_faces_odd_even: str | UnsetType = UNSET
    banker_three_faces_point: int | str | None | UnsetType = UNSET  # "none" (TOML) or null: None
    tie_requires_win: bool | UnsetType = UNSET
    rounding: str | UnsetType = UNSET
    minor_unit: str | int | UnsetType = UNSET  # never a float: money
    burn_after_shuffle: int | None | UnsetType = UNSET
    burn_per_round: int | UnsetType = UNSET
    cut_card_range: tuple[int, int] | UnsetType = UNSET
    deal_one_at_a_time: bool | UnsetType = UNSET
    head_card: bool | UnsetType = UNSET
    head_card_burned: bool | UnsetType = UNSET
    ranking: _RankingFile | UnsetType = UNSET
    multipliers: dict[str, _Number] | UnsetType = UNSET
    total_pays: dict[str, _Number] | UnsetType = UNSET
    pair_counts_trips: bool | UnsetType = UNSET
    total_tier: str | UnsetType = UNSET
    total_zero: str | UnsetType = UNSET


def _fields_of(parsed: _RuleFile) -> dict[str, Any]:
    """RuleSet's keyword arguments from a parsed file: fields left out take the defaults."""
    out: dict[str, Any] = {}
    for name in parsed.__struct_fields__:
        value = getattr(parsed, name)
        if value is UNSET:
            continue
        if isinstance(value, _PaysFile | _PairPlusFile | _RankingFile):
            value = {k: getattr(value, k) for k in value.__struct_fields__ if getattr(value, k) is not UNSET}
        out[name] = value
    if out.get("banker_three_faces_point") == "none":
        out["banker_three_faces_point"] = None
    return out


_AT = re.compile(r"(?P<message>.*?)(?: - at `(?P<key>key` in `)?(?P<path>[^`]*)`)?", re.DOTALL)
_UNKNOWN = {"pays": "unknown bet", "pair_plus_pays": "unknown category"}
_ARTICLES = {"int": "an int", "bool": "a bool", "str": "a str", "float": "a float", "object": "a table",
             "array": "an array", "date": "a date", "time": "a time", "datetime": "a datetime"}


def _explain(message: str) -> str:
    """msgspec's ``Expected `bool`, got `str` - at `$.tie_requires_win``` as
    ``tie_requires_win: expected a bool, got a str``: the failing path first."""
    match = _AT.fullmatch(message)
    assert match is not None  # the pattern matches any text
    text = match["message"]
    path = (match["path"] or "$").removeprefix("$").removeprefix(".")
    if match["key"]:
        text += " (a key)"
    missing = re.fullmatch(r"Object missing required field `(.*)`", text)
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", text)
    if missing:
        return f"{f'{path}.' if path else ''}{missing[1]}: missing"
    if unknown:
        if path in _UNKNOWN:
            return f"{path}: {_UNKNOWN[path]} {_show(unknown[1])}"
        if path == "ranking":
            return f"ranking.{unknown[1]}: unknown field of a ranking"
        return f"{f'{path}.' if path else ''}{unknown[1]}: unknown field of a rule set"
    text = re.sub(r"`([^`]*)`", _types, text)
    text = text[:1].lower() + text[1:]
    if not path:
        return f"a rule set is a table of fields: {text}"
    if path == "minor_unit" and text.endswith("got a float"):
        text += " (money is never a float: write it as text, such as \"0.01\")"
    return f"{path}: {text}"


def _types(match: re.Match[str]) -> str:
    names = [_ARTICLES.get(name, name) for name in match[1].split(" | ")]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _scan_ints(data: Mapping[str, Any]) -> None:
    """Refuse an int too large to be any field's value before msgspec converts it (it
    fails on ints of more digits than Python prints, naming no field). Fields nest two
    deep at most; anything deeper is refused by its type anyway."""
    def check(value: object, path: str) -> None:
        if isinstance(value, int) and value.bit_length() > _HUGE_BITS:
            raise ValueError(f"{path}: {_show(value)} is out of range")

    for key, value in data.items():
        path = key if isinstance(key, str) else _show(key)
        check(value, path)
        if isinstance(value, Mapping):
            for k, v in value.items():
                check(k, f"{path} (a key)")
                check(v, f"{path}.{k}" if isinstance(k, str) else path)
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                check(v, f"{path}[{i}]")


def _huge_toml_int(text: str) -> str:
    """The dotted key of the first very long run of digits in a TOML text (for tomllib's
    error about an int too long to read, which names no key)."""
    match = re.search(r"[0-9_]{100,}", text)
    if match is None:
        return "a value"
    before = text[: match.start()]
    table = ""
    for line in before.splitlines():
        header = re.fullmatch(r"\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(?:#.*)?", line)
        if header:
            table = header[1] + "."
    key = re.match(r"\s*([A-Za-z0-9_.-]+)\s*=", before.rsplit("\n", 1)[-1])
    return f"{table}{key[1]}" if key else "a value"


def _read(path: Path) -> str:
    """A rule file's text: refused (ValueError naming the file) if it is missing, a
    directory, larger than ``MAX_RULE_FILE_BYTES`` (never read whole) or not UTF-8."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"{path}: is a directory, not a rule file")
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_RULE_FILE_BYTES:
            raise ValueError(f"{path}: {info.st_size} bytes, more than the {MAX_RULE_FILE_BYTES} a rule file may have")
        with path.open("rb") as file:  # not regular (a pipe): read at most one byte too many
            data = file.read(MAX_RULE_FILE_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the rule file: {exc.strerror or exc}") from None
    if len(data) > MAX_RULE_FILE_BYTES:
        raise ValueError(f"{path}: more than the {MAX_RULE_FILE_BYTES} bytes a rule file may have")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _refuse_repeated_keys(path: Path, text: str) -> None:
    """A JSON rule file that gives a key twice is refused (as TOML's grammar and records
    refuse it), never read as its last value: ``{"tie": 80, "tie": 8}`` is not a table
    paying 8. Text that is not JSON is left for msgspec to name."""
    try:
        loads_strict(text)
    except DuplicateKey as exc:
        raise ValueError(f"{path}: {exc}") from None
    except (ValueError, RecursionError):  # not JSON, or nested too deeply: msgspec says which
        pass


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
    total = _TOTAL_RE.fullmatch(arg) if "-" in arg else None
    if total is not None and total[2] is not None:
        if total[1] >= total[2]:
            raise ValueError(f"unknown bet {name!r}: {arg!r} is not a range of totals (low-high, low below high)")
        return BetSpec(name, kind, -1, total_number(arg))
    if not arg.isdigit() or (arg != "0" and arg.startswith("0")):
        raise ValueError(f"unknown bet {name!r}: {arg!r} is not a position")
    return BetSpec(name, kind, int(arg))


def _toml(data: Mapping[str, Any]) -> str:
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v, ensure_ascii=False)

    lines, tables = [], []
    for key, v in data.items():
        if isinstance(v, Mapping):
            tables.append(f"\n[{key}]\n" + "".join(f"{k} = {value(x)}\n" for k, x in v.items()))
        else:
            lines.append(f"{key} = {value(v)}\n")
    return "".join(lines) + "".join(tables)


F = Fraction

MACAU = RuleSet(
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
)
"""Portaria 22/96/M: 8-deck shoe and 7 positions by default (both configurable)."""

ONLINE = RuleSet(
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
)
"""The online three-player variant: one deck shuffled every round, a burned head card."""

GENTING = RuleSet(
    name="genting",
    variant="macau",
    decks=8,
    positions=7,
    pays={"win": F(1), "tie": F(8), "three_faces": F(16)},
    commission=F(5, 100),
    commission_bets=frozenset({"win"}),
    push="returned",
)
"""Resorts World Genting: Win 1:1 less 5%, Tie 8:1, Three Faces ("Three Knights") 16:1."""

NAGAWORLD = GENTING.replace(name="nagaworld", tie_by="points")
"""NagaWorld's "Three Pictures": as Genting, but the Tie (8:1) wins on equal points while
Win (1:1 less 5%) still compares faces and is returned on a tie of classes; Three
Pictures 16:1 on the banker's hand."""

GENTING_NO_COMMISSION = GENTING.replace(
    name="genting_no_commission",
    pays={"win": F(1), "win_on_six": F(1, 2), "tie": F(8), "three_faces": F(16)},
    commission=F(0),
    commission_bets=frozenset(),
)
"""Genting without commission: a Win with a 6-point hand pays 1:2."""

PROSPERITY = RuleSet(
    name="prosperity",
    variant="macau",
    decks=8,
    positions=7,
    pays={"win": F(1), "win_on_six": F(1, 2), "tie": F(10)},
    push="returned",
    ranking=Ranking(order="faces_points"),
)
"""A faces-first table: more faces wins, then points; a 6-point Win pays 1:2, Tie 10:1."""

SAN_GONG = RuleSet(
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
)
"""An online "San Gong" game: Dragon and Phoenix pay 0.94:1 and are returned on a tie of
the ranking (possible with several decks only); Tie pays 8:1 on equal points (Choice: with
one deck, hands never tie exactly under a suit tie-break); three of a kind > three faces >
points, then the highest card by rank and suit. Side bets on each hand: odd and even
points (0 even, every hand by its points) and a pair (not three of a kind), each 0.94:1;
on the winning hand's points: 1-6 1:1, 7-8 2:1, 9 4:1, returned when it has 0 points
(Choices: the readings whose house edges agree with the published ~3% and ~67%)."""

CHINESE = RuleSet(
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
)
"""The 三公 banker game: 大三公 > 小三公 > 混三公 > points; each player against the banker,
the loser paying the stake x the winner's multiplier (points 0-7 x1, 8 x2, 9 x3, 混三公 x4,
小三公 x5, 大三公 x6)."""

PRESETS: dict[str, RuleSet] = {
    "macau": MACAU, "online": ONLINE, "nagaworld": NAGAWORLD, "genting": GENTING,
    "genting_no_commission": GENTING_NO_COMMISSION, "prosperity": PROSPERITY, "san_gong": SAN_GONG,
    "chinese": CHINESE,
}
