"""Rule sets: everything a Sam Gong table varies, as data.

Two presets follow ``RULES.md``: ``MACAU`` (Portaria 22/96/M) and ``ONLINE`` (the
three-player live-dealer variant). A variant is a preset with fields replaced, or a
TOML/JSON file:

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

Odds are "to 1" and exact (``Fraction``); in files they are written as integers or
strings (``"1/2"``, ``"0.05"``); a float is read through its shortest decimal text.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

__all__ = ["MACAU", "ONLINE", "PRESETS", "BetSpec", "RuleSet", "parse_bet"]

Variant = Literal["macau", "online"]
PAIR_PLUS_CATEGORIES = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")

# Bet kinds of each variant and what they are placed on: "position" (a position or a
# player, numbered from 1), "banker" (the banker's hand), "point" (0..9), "hand"
# (a player or "banker").
_KINDS: dict[str, dict[str, str]] = {
    "macau": {
        "win": "position", "tie": "position", "odd": "banker", "even": "banker",
        "three_faces": "banker", "point": "point",
    },
    "online": {
        "win": "position", "lose": "position", "tie": "position",
        "three_faces": "position", "pair_plus": "hand",
    },
}
_PAY_KEYS = {
    "macau": {"win", "tie", "odd", "even", "three_faces", "point"},
    "online": {"win", "win_on_six", "lose", "lose_on_six", "tie", "three_faces"},
}
_DESCRIPTIONS = {
    ("macau", "win"): "position {t} beats the banker; a tie carries the stake",
    ("macau", "tie"): "position {t} ties the banker (needs a Win bet on the position)",
    ("macau", "odd"): "the banker's points are odd",
    ("macau", "even"): "the banker's points are even",
    ("macau", "three_faces"): "the banker has three faces (3P)",
    ("macau", "point"): "the banker's points are {t}",
    ("online", "win"): "player {t} beats the banker",
    ("online", "lose"): "the banker beats player {t}",
    ("online", "tie"): "player {t} ties the banker",
    ("online", "three_faces"): "player {t} has three faces (3P)",
    ("online", "pair_plus"): "{t}'s hand is a pair or better",
}
_BET_RE = re.compile(r"([a-z_]+)(?::([0-9a-z]+))?")


class _FrozenMap(Mapping[str, Fraction]):
    """A read-only, hashable table of odds (so that rule sets can key caches)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Fraction]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Fraction:
        return self._items[key]

    def __iter__(self) -> Any:
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
    number for ``point:<n>``.
    """

    name: str
    kind: str
    position: int


def _fraction(value: object, name: str) -> Fraction:
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected a number, got {value!r}")
    if isinstance(value, float):
        value = repr(value)  # the shortest text that reads back as this float
    try:
        result: Fraction = Fraction(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValueError(f"{name}: {value!r} is not a number") from None
    if result < 0:
        raise ValueError(f"{name}: must not be negative, got {value!r}")
    return result


def _fraction_text(value: Fraction) -> str | int:
    return value.numerator if value.denominator == 1 else str(value)


@dataclass(frozen=True)
class RuleSet:
    """Everything a table varies. Build one from a preset with ``replace`` or from a
    file with ``load``; every field is checked when the rule set is made.

    :param variant: ``"macau"`` (positions, Odd/Even, Point bets, commission) or
        ``"online"`` (three players, Win/Lose/Tie, Three Faces, Pair Plus).
    :param decks: decks in the box or shoe.
    :param positions: player positions (``"online"``: exactly 3 players).
    :param pays: odds "to 1" of each bet kind; a kind without odds is not offered.
        ``win_on_six``/``lose_on_six`` (online) pay when the winning hand has 6 points.
    :param pair_plus_pays: odds of each Pair Plus category (online).
    :param commission: rate charged on the winnings of ``commission_bets``.
    :param tie_by: ``"class"`` (same points and faces) or ``"points"`` (same points;
        three faces still beat everything and tie only each other).
    :param push: a pushed Win/Lose or Odd/Even stake is ``"carried"`` to the next round
        (Macau) or ``"returned"`` (online).
    :param banker_three_faces_odd_even: a banker 3P makes Odd/Even ``"push"`` or ``"lose"``.
    :param banker_three_faces_point: the Point bet a banker 3P pays (0), or None: none.
    :param tie_requires_win: a Tie bet needs a Win bet on the same position (Macau).
    :param rounding: how a player's payout is rounded to the minor unit: ``"down"``,
        ``"half_up"``, ``"half_even"`` or ``"up"``.
    :param minor_unit: the smallest amount of a ``Decimal`` stake (0.01).
    :param burn_after_shuffle: cards burned after a shuffle (None: as many as decks).
    :param burn_per_round: cards burned before every later round of a shoe.
    :param cut_card_range: the cut card goes between these many cards from the end.
    :param deal_one_at_a_time: deal one card at a time round the table (else three).
    :param head_card: the online head card fixes the dealing order.
    :param head_card_burned: the head card is burned, not dealt into a hand.
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
    banker_three_faces_odd_even: Literal["push", "lose"] = "push"
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

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: normalise in place once, here
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name: expected a non-empty string, got {self.name!r}")
        if self.variant not in _KINDS:
            raise ValueError(f"variant: expected 'macau' or 'online', got {self.variant!r}")
        for name in ("decks", "positions", "burn_per_round"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name}: expected an int, got {value!r}")
        if self.decks < 1:
            raise ValueError(f"decks: must be at least 1, got {self.decks}")
        if self.positions < 1:
            raise ValueError(f"positions: must be at least 1, got {self.positions}")
        if self.variant == "online" and self.positions != 3:
            raise ValueError(f"positions: the online variant has 3 players, got {self.positions}")
        if not isinstance(self.pays, Mapping):
            raise TypeError(f"pays: expected a table of odds, got {self.pays!r}")
        unknown = set(self.pays) - _PAY_KEYS[self.variant]
        if unknown:
            raise ValueError(
                f"pays: unknown bet {sorted(unknown)[0]!r} for the {self.variant} variant "
                f"(known: {', '.join(sorted(_PAY_KEYS[self.variant]))})"
            )
        set_(self, "pays", _FrozenMap({k: _fraction(v, f"pays.{k}") for k, v in self.pays.items()}))
        unknown = set(self.pair_plus_pays) - set(PAIR_PLUS_CATEGORIES)
        if unknown:
            raise ValueError(f"pair_plus_pays: unknown category {sorted(unknown)[0]!r}")
        if self.pair_plus_pays and self.variant != "online":
            raise ValueError("pair_plus_pays: Pair Plus is a bet of the online variant")
        set_(self, "pair_plus_pays", _FrozenMap(
            {k: _fraction(v, f"pair_plus_pays.{k}") for k, v in self.pair_plus_pays.items()}))
        rate = _fraction(self.commission, "commission")
        if rate >= 1:
            raise ValueError(f"commission: must be below 1, got {self.commission!r}")
        set_(self, "commission", rate)
        bets = frozenset(self.commission_bets)
        unknown_bets = bets - set(_KINDS[self.variant])
        if unknown_bets:
            raise ValueError(f"commission_bets: unknown bet {sorted(unknown_bets)[0]!r}")
        set_(self, "commission_bets", bets)
        for name, allowed in (
            ("tie_by", ("class", "points")),
            ("push", ("carried", "returned")),
            ("banker_three_faces_odd_even", ("push", "lose")),
            ("rounding", ("down", "half_up", "half_even", "up")),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name}: expected one of {allowed}, got {getattr(self, name)!r}")
        point = self.banker_three_faces_point
        if point is not None and (isinstance(point, bool) or point not in range(10)):
            raise ValueError(f"banker_three_faces_point: expected 0..9 or None, got {point!r}")
        unit = Decimal(str(self.minor_unit)) if not isinstance(self.minor_unit, Decimal) else self.minor_unit
        if not unit.is_finite() or unit <= 0:
            raise ValueError(f"minor_unit: must be a positive amount, got {self.minor_unit!r}")
        set_(self, "minor_unit", unit)
        burn = self.burn_after_shuffle
        if burn is not None and (isinstance(burn, bool) or not isinstance(burn, int) or burn < 0):
            raise ValueError(f"burn_after_shuffle: expected a count >= 0 or None, got {burn!r}")
        if self.burn_per_round < 0:
            raise ValueError(f"burn_per_round: must not be negative, got {self.burn_per_round}")
        lo, hi = self.cut_card_range
        if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi < 52 * self.decks):
            raise ValueError(f"cut_card_range: expected 1 <= low <= high < cards, got {self.cut_card_range!r}")
        set_(self, "cut_card_range", (lo, hi))
        needed = self.cards_per_round
        if self.fresh_deck_each_round:
            available, where = 52 * self.decks, f"in {self.decks} deck(s)"
        else:  # the shoe's last round may start with only the cut card's minimum left
            available, where = lo, "behind the cut card at the least"
        if needed > available:
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

    @property
    def cards_per_round(self) -> int:
        """Most cards one round takes, burns and the head card included."""
        burn = self.burn_first if self.fresh_deck_each_round else self.burn_per_round
        return 3 * self.hands + burn + (1 if self.head_card and self.head_card_burned else 0)

    @property
    def bets(self) -> dict[str, str]:
        """Every bet this table offers, by canonical name, with a one-line description."""
        out: dict[str, str] = {}
        for kind, target in _KINDS[self.variant].items():
            if not self._offers(kind):
                continue
            text = _DESCRIPTIONS[(self.variant, kind)]
            if target == "banker":
                out[kind] = text
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
        return bool(self.pair_plus_pays) if kind == "pair_plus" else kind in self.pays

    def bet(self, name: str) -> BetSpec:
        """Parse a canonical bet name and check that this table offers it.

        >>> ONLINE.bet("pair_plus:banker"), MACAU.bet("point:7").position
        (BetSpec(name='pair_plus:banker', kind='pair_plus', position=0), 7)
        >>> MACAU.bet("lose:1")
        Traceback (most recent call last):
        ...
        ValueError: unknown bet 'lose:1': the macau table offers win, tie, odd, even, three_faces, point
        """
        spec = parse_bet(name)
        kinds = _KINDS[self.variant]
        offered = ", ".join(k for k in kinds if self._offers(k))
        if spec.kind not in kinds or not self._offers(spec.kind):
            raise ValueError(f"unknown bet {name!r}: the {self.variant} table offers {offered}")
        target = kinds[spec.kind]
        if target == "banker":
            ok = spec.position == -1
        elif target == "point":
            ok = 0 <= spec.position <= 9
        elif target == "hand":
            ok = 0 <= spec.position <= self.positions
        else:
            ok = 1 <= spec.position <= self.positions
        if not ok:
            raise ValueError(f"unknown bet {name!r}: no such {spec.kind} bet at this table")
        return BetSpec(spec.name, spec.kind, max(spec.position, 0))

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (and checked again)."""
        return dataclasses.replace(self, **changes)

    # --- files ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of JSON/TOML types (odds as ints or ``"n/d"`` strings)."""
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
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            if f.name == "banker_three_faces_point" and value is None:
                value = "none"  # TOML has no null
            if value is not None:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build from ``to_dict``'s form; an unknown or invalid field raises naming it."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a rule set is a table of fields, not {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"{sorted(unknown)[0]}: unknown field of a rule set")
        missing = {"name", "variant", "decks", "positions", "pays"} - set(data)
        if missing:
            raise ValueError(f"{sorted(missing)[0]}: missing")
        kwargs = dict(data)
        if "cut_card_range" in kwargs:
            kwargs["cut_card_range"] = tuple(kwargs["cut_card_range"])
        if "commission_bets" in kwargs:
            kwargs["commission_bets"] = frozenset(kwargs["commission_bets"])
        if kwargs.get("banker_three_faces_point") == "none":
            kwargs["banker_three_faces_point"] = None
        if "minor_unit" in kwargs:
            kwargs["minor_unit"] = Decimal(str(kwargs["minor_unit"]))
        return cls(**kwargs)

    @classmethod
    def load(cls, path: str | Path) -> RuleSet:
        """Read a rule set from a ``.toml`` or ``.json`` file."""
        path = Path(path)
        text = path.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not valid {path.suffix[1:].upper() or 'JSON'}: {exc}") from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        """Write the rule set as ``.toml`` or ``.json`` (by the file's suffix)."""
        path = Path(path)
        data = self.to_dict()
        path.write_text(_toml(data) if path.suffix == ".toml" else json.dumps(data, indent=2) + "\n",
                        encoding="utf-8")


def parse_bet(name: str) -> BetSpec:
    """Parse a canonical bet name (``win:1``, ``odd``, ``point:0``, ``pair_plus:banker``)
    without checking it against a table. The banker's hand is position 0 for
    ``pair_plus:banker`` and -1 for bets on the banker without a suffix."""
    if not isinstance(name, str):
        raise TypeError(f"a bet name is a string, not {name!r}")
    match = _BET_RE.fullmatch(name)
    if match is None:
        raise ValueError(f"unknown bet {name!r}: expected a name such as win:1, odd or point:7")
    kind, arg = match[1], match[2]
    if arg is None:
        return BetSpec(name, kind, -1)
    if arg == "banker":
        return BetSpec(name, kind, 0)
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

PRESETS: dict[str, RuleSet] = {"macau": MACAU, "online": ONLINE}
