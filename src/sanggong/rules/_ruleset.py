"""The rule set: ``RuleSet``, everything a table varies, checked in one place, its
constructor (``sanggong.rules``)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from .._canonical import canonical_json
from .._spec import MAX_MULTIPLIERS, burn_of, round_length, table_fits, total_key, total_number, total_range
from .._table import TableParams, table_params
from .._text import check_choice, did_you_mean, show
from ..limits import MAX_BURN, MAX_DECKS, MAX_POSITIONS
from ..money import money_text
from ..ranking import DEFAULT_RANKING, Ranking
from ._bets import MULTIPLIER_POINTS, PAIR_PLUS_CATEGORIES, TOTAL_RE, BetSpec, parse_bet
from ._values import (
    FrozenMap,
    check_int,
    check_minor_unit,
    check_name,
    check_number,
    check_odds,
    check_table,
    fraction_text,
)
from ._variants import VARIANTS, TableVariant, field_owner, variant_of

__all__ = ["FIELDS", "PRESETS", "RuleSet", "forget_preset", "preset", "preset_description"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "tie_by": ("class", "points"),
    "push": ("carried", "returned"),
    "banker_three_faces_odd_even": ("push", "lose", "points"),
    "rounding": ("down", "half_up", "half_even", "up"),
    "total_tier": ("points", "push"),
    "total_zero": ("winner", "both"),
}
_FLAGS = ("tie_requires_win", "deal_one_at_a_time", "head_card", "head_card_burned", "pair_counts_trips")


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
    variant: str
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
        set_(self, "name", check_name(self.name))
        variant = check_choice(self.variant, "variant", tuple(VARIANTS))
        table = variant_of(variant)
        set_(self, "decks", check_int(self.decks, "decks", 1, MAX_DECKS))
        set_(self, "positions", check_int(self.positions, "positions", 1, MAX_POSITIONS))
        if table.positions is not None and self.positions != table.positions:
            raise ValueError(table.positions_text.format(got=self.positions))
        ranking = self.ranking
        if isinstance(ranking, Mapping):
            ranking = Ranking.from_dict(ranking)
        if not isinstance(ranking, Ranking):
            raise TypeError(f"ranking: expected a Ranking, got {show(ranking)}")
        set_(self, "ranking", ranking)
        set_(self, "multipliers", self._check_multipliers())

        pays = check_table(self.pays, "pays")
        known = table.pay_keys
        unknown = set(pays) - known
        if unknown:
            first = sorted(unknown)[0]
            raise ValueError(
                f"pays: unknown bet {show(first)} for the {variant} variant{did_you_mean(first, known)} "
                f"(known: {', '.join(sorted(known))})"
            )
        set_(self, "pays", check_odds(pays, "pays"))
        pair_plus = check_table(self.pair_plus_pays, "pair_plus_pays")
        unknown = set(pair_plus) - set(PAIR_PLUS_CATEGORIES)
        if unknown:
            first = sorted(unknown)[0]
            raise ValueError(f"pair_plus_pays: unknown category {show(first)}{did_you_mean(first, PAIR_PLUS_CATEGORIES)}")
        self._own_field("pair_plus_pays", bool(pair_plus))
        missing = [c for c in PAIR_PLUS_CATEGORIES if c not in pair_plus]
        if pair_plus and missing:  # settlement pays every category of a Pair Plus bet
            raise ValueError(f"pair_plus_pays: no odds for {missing[0]!r} (give every category, or none)")
        set_(self, "pair_plus_pays", check_odds(pair_plus, "pair_plus_pays"))
        set_(self, "total_pays", self._check_totals())

        set_(self, "commission", check_number(self.commission, "commission", Fraction(1), below=True))
        bets = self.commission_bets
        if isinstance(bets, str | bytes | Mapping) or not isinstance(bets, frozenset | set | list | tuple):
            raise TypeError(f"commission_bets: expected a set of bet kinds, got {show(bets)}")
        for bet in bets:
            if not isinstance(bet, str):
                raise TypeError(f"commission_bets: bet kinds are strings, got {show(bet)}")
            if bet not in table.kind_names:
                raise ValueError(f"commission_bets: unknown bet {show(bet)}{did_you_mean(bet, table.kind_names)}")
        set_(self, "commission_bets", frozenset(bets))

        for name, allowed in _CHOICES.items():
            check_choice(getattr(self, name), name, allowed)
        point = self.banker_three_faces_point
        if point is not None:
            if isinstance(point, bool) or not isinstance(point, int):
                raise TypeError(f"banker_three_faces_point: expected 0..9 or None, got {show(point)}")
            if not 0 <= point <= 9:
                raise ValueError(f"banker_three_faces_point: expected 0..9 or None, got {show(point)}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name}: expected a bool, got {show(getattr(self, name))}")
        for name, default in _VARIANT_DEFAULTS.items():  # (tables of odds: checked with their odds)
            if not isinstance(default, Mapping):
                self._own_field(name, getattr(self, name) != default)
        if self.tie_requires_win and "tie" in self.pays and "win" not in self.pays:
            raise ValueError("pays: a Tie bet needs a Win bet here (tie_requires_win), but there are no odds for 'win'")
        set_(self, "minor_unit", check_minor_unit(self.minor_unit))

        if self.burn_after_shuffle is not None:
            check_int(self.burn_after_shuffle, "burn_after_shuffle", 0, MAX_BURN)
        check_int(self.burn_per_round, "burn_per_round", 0, MAX_BURN)
        cut = self.cut_card_range
        if not isinstance(cut, tuple | list) or len(cut) != 2:
            raise TypeError(f"cut_card_range: expected two ints (low, high), got {show(cut)}")
        for end in cut:
            if isinstance(end, bool) or not isinstance(end, int):
                raise TypeError(f"cut_card_range: expected two ints (low, high), got {show(end)}")
        lo, hi = int(cut[0]), int(cut[1])
        cards = 52 * self.decks
        if not 1 <= lo <= hi < cards:
            raise ValueError(f"cut_card_range: expected 1 <= low <= high < {cards} (the cards in "
                             f"{self.decks} deck{'' if self.decks == 1 else 's'}), got ({show(lo)}, {show(hi)})")
        set_(self, "cut_card_range", (lo, hi))
        if self.head_card and not self.fresh_deck_each_round:
            raise ValueError(
                f"head_card: a head card needs a fresh deck each round (the online variant or "
                f"one deck), not a shoe of {self.decks} decks"
            )
        self._check_dealable()

    @property
    def table_variant(self) -> TableVariant:
        """The record of this rule set's variant: its bet kinds, what its hands are called."""
        return variant_of(self.variant)

    def _own_field(self, name: str, given: bool) -> None:
        """A field only one variant reads, given (not its default) at a table of another."""
        owner = field_owner(name)
        if given and owner is not None and owner.name != self.variant:
            raise ValueError(owner.fields[name].format(variant=self.variant))

    def _check_multipliers(self) -> FrozenMap:
        table = check_table(self.multipliers, "multipliers")
        owner = field_owner("multipliers")
        if owner is not None and owner.name != self.variant:
            self._own_field("multipliers", bool(table))
            return FrozenMap({})
        keys = (*MULTIPLIER_POINTS, *self.ranking.tiers)
        for key in table:
            if key not in keys:
                raise ValueError(f"multipliers: unknown key {show(key)} (expected points '0'..'9' and the "
                                 f"ranking's tiers {list(self.ranking.tiers)})")
        for key in keys:
            if key not in table:
                raise ValueError(f"multipliers: no multiplier for {key!r} (give points '0'..'9' and every tier)")
        out = check_odds(table, "multipliers")
        for key, value in out.items():
            if value <= 0:
                raise ValueError(f"multipliers.{key}: must be positive, got {show(value)}")
        if len(set(out.values())) > MAX_MULTIPLIERS:
            raise ValueError(f"multipliers: at most {MAX_MULTIPLIERS} different multipliers")
        return FrozenMap({k: out[k] for k in keys})

    def _check_totals(self) -> FrozenMap:
        table = check_table(self.total_pays, "total_pays")
        for key in table:
            match = TOTAL_RE.fullmatch(key)
            if match is None or (match[2] is not None and match[1] >= match[2]):
                raise ValueError(f"total_pays: {show(key)} is not a range of winning totals (expected "
                                 "'a-b' with 1 <= a < b <= 9, or 'n' for one total, such as '1-6' or '9')")
        self._own_field("total_pays", bool(table))
        return check_odds(table, "total_pays")

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
        first, later = table_fits(self.table_params)
        for fits, needed, available, where in (
            (first, self.round_cards(True), 52 * self.decks, f"in {self.decks} deck{'' if self.decks == 1 else 's'}"),
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
        return self.table_variant.fresh_deck or self.decks == 1

    @property
    def table_params(self) -> TableParams:
        """How this table deals, as the kernels take it (``sanggong._table.TableParams``)."""
        return table_params(self)

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

        >>> from sanggong import MACAU, ONLINE
        >>> MACAU.round_cards(True), MACAU.round_cards(False), ONLINE.round_cards(True)
        (32, 25, 13)
        """
        table = self.table_params
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
        three_faces = self.banker_three_faces_odd_even
        fields |= {  # (the side bets of a two-hand table)
            "trips": " or three of a kind" if self.pair_counts_trips else " (three of a kind is not a pair)",
            "three_faces": "" if three_faces == "points" else "; three faces lose" if three_faces == "lose" else
            f"; three faces: {'carried' if self.push == 'carried' else 'returned'}",
            "zero": (" (a winning three of a kind or three faces, or both hands 0: returned)"
                     if self.total_tier == "push" else
                     " (0: returned)" if self.total_zero == "winner" else " (both hands 0: returned)"),
        }
        for bet_kind in self.table_variant.kinds:
            if not bet_kind.offered(self):
                continue
            kind, target = bet_kind.name, bet_kind.on
            text = bet_kind.description.format(**fields)
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

    def bet_odds(self, name: str) -> Fraction | None:
        """The odds ("to 1") a winning bet pays, before any commission: its kind's, a
        total bet's range's; None where the hand decides them (Pair Plus by category, a
        banker game by multiplier).

        >>> from sanggong import ONLINE, SAN_GONG
        >>> SAN_GONG.bet_odds("total:7-8"), SAN_GONG.bet_odds("odd:dragon"), ONLINE.bet_odds("pair_plus:1")
        (Fraction(2, 1), Fraction(47, 50), None)
        """
        spec = self.bet(name)
        if spec.kind == "total":
            return self.total_pays[total_key(spec.number)]
        return self.pays.get(spec.kind)

    def bet(self, name: str) -> BetSpec:
        """Parse a canonical bet name and check that this table offers it.

        >>> from sanggong import MACAU, ONLINE, SAN_GONG
        >>> ONLINE.bet("pair_plus:banker"), MACAU.bet("point:7").number
        (BetSpec(name='pair_plus:banker', kind='pair_plus', position=0, number=0), 7)
        >>> SAN_GONG.bet("pair:phoenix").position, SAN_GONG.bet("total:1-6")
        (0, BetSpec(name='total:1-6', kind='total', position=1, number=16))
        >>> MACAU.bet("lose:1")
        Traceback (most recent call last):
        ...
        ValueError: unknown bet 'lose:1': the macau table offers win, tie, odd, even, three_faces, point
        """
        try:
            spec = parse_bet(name)
        except ValueError as exc:  # a name no table has: the closest this one offers
            raise ValueError(f"{exc}{did_you_mean(name, self.bets)}") from None
        table = self.table_variant
        kind = table.kind(spec.kind)
        if kind is None or not kind.offered(self):
            offered = ", ".join(k.name for k in table.kinds if k.offered(self))
            raise ValueError(f"unknown bet {name!r}{did_you_mean(name, self.bets)}: the {self.variant} table offers "
                             f"{offered}")
        target = kind.on
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
            names = [n for n in self.bets if n.partition(":")[0] == spec.kind]
            shown = ", ".join(names) if len(names) <= 4 else f"{names[0]}, {names[1]}, ..., {names[-1]}"
            raise ValueError(f"unknown bet {name!r}: no such {spec.kind} bet at this table (it has {shown})")
        return BetSpec(spec.name, spec.kind, max(spec.position, 0))

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed (and checked again).

        >>> from sanggong import MACAU
        >>> MACAU.replace(colour="red")
        Traceback (most recent call last):
        ...
        TypeError: 'colour': unknown field of a rule set
        >>> MACAU.replace(deck=8)
        Traceback (most recent call last):
        ...
        TypeError: 'deck': unknown field of a rule set (did you mean 'decks'?)
        """
        for name in changes:
            if name not in FIELDS:
                raise TypeError(f"{show(name)}: unknown field of a rule set{did_you_mean(name, FIELDS)}")
        return dataclasses.replace(self, **changes)

    def digest(self) -> str:
        """The SHA-256 of the rule set's canonical JSON (``to_dict`` canonicalised by RFC
        8785, as records are: sorted keys, no spaces, UTF-8): equal rule sets have equal
        digests, any change changes it, and the caller's ``decimal`` context changes
        nothing. A round record carries it to bind the round to the exact rules it was
        dealt under.

        >>> from sanggong import MACAU
        >>> MACAU.digest() == MACAU.replace().digest() != MACAU.replace(decks=6).digest()
        True
        """
        return hashlib.sha256(canonical_json(self.to_dict())).hexdigest()

    # --- files ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of JSON/TOML types (odds as ints or ``"n/d"`` strings; a
        ``banker_three_faces_point`` of None as ``"none"``, since TOML has no null)."""
        out: dict[str, Any] = {}
        unlisted = {name for v in VARIANTS.values() if v.name != self.variant for name in v.unlisted}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Fraction):
                value = fraction_text(value)
            elif isinstance(value, Mapping):
                value = {k: fraction_text(v) for k, v in value.items()}
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
            if f.name in unlisted:
                continue  # another variant's: left out, so that this table keeps its digest
            if value is not None:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build from ``to_dict``'s form, as strictly as a file is read: exact types (no
        ``"false"`` for a bool, no float where an int goes), no unknown fields. A value
        of the wrong type raises ``TypeError`` (as ``RuleSet(...)`` does), any other
        invalid field ``ValueError``; either names the field."""
        from ._files import fields_from_mapping  # (rule files' modules, msgspec: only where one is read)

        return cls(**fields_from_mapping(data))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> RuleSet:
        """Read a rule set from a ``.toml`` or ``.json`` file (any other suffix: JSON).

        Every problem raises ``ValueError`` naming the file and the field: a missing,
        unreadable or oversized file (over ``MAX_RULE_FILE_BYTES``, refused before it is
        read whole), text that is not UTF-8, TOML or JSON, or a field that is invalid.
        """
        from pathlib import Path

        from ._files import read_fields

        path = Path(path)
        return cls._from_fields(read_fields(path), str(path))

    @classmethod
    def loads(cls, text: str, format: Literal["toml", "json"] = "toml") -> RuleSet:
        """Read a rule set from the text of a rule file (``format``: ``"toml"`` or
        ``"json"``), as strictly as ``load`` reads a file; ``to_toml`` and ``to_json``
        write such text.

        >>> from sanggong import MACAU
        >>> RuleSet.loads(MACAU.to_toml()) == MACAU == RuleSet.loads(MACAU.to_json(), "json")
        True
        >>> RuleSet.loads(MACAU.to_toml().replace("decks = 8", "decks = 0"))
        Traceback (most recent call last):
        ...
        ValueError: decks: must be at least 1, got 0
        """
        if not isinstance(text, str):
            raise TypeError(f"text: expected a str, not {type(text).__name__}")
        from ._files import fields_from_text

        return cls._from_fields(fields_from_text(text, format, ""), "")

    @classmethod
    def _from_fields(cls, fields: dict[str, Any], where: str) -> RuleSet:
        try:
            return cls(**fields)
        except (TypeError, ValueError) as exc:
            if not where:
                raise
            raise ValueError(f"{where}: {exc}") from None

    def to_toml(self) -> str:
        """The rule set as the text of a ``.toml`` rule file (what ``save`` writes to one):
        its scalar fields, then a table for each mapping (pays, ranking, ...).

        >>> from sanggong import MACAU
        >>> print(MACAU.to_toml().splitlines()[0])
        name = "macau"
        """
        from ._files import rule_file_text

        return rule_file_text(self.to_dict(), "toml")

    def to_json(self) -> str:
        """The rule set as the text of a ``.json`` rule file (what ``save`` writes to one)."""
        from ._files import rule_file_text

        return rule_file_text(self.to_dict(), "json")

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the rule set as ``.toml`` or ``.json`` (by the file's suffix); ``load``
        reads it back equal."""
        from pathlib import Path

        from ._files import write_rule_file

        write_rule_file(Path(path), self.to_dict())


FIELDS = frozenset(f.name for f in dataclasses.fields(RuleSet))
# The defaults of the fields that only one variant reads (a table of another keeps them).
_VARIANT_DEFAULTS = {
    f.name: f.default_factory() if f.default is dataclasses.MISSING else f.default  # type: ignore[operator]
    for f in dataclasses.fields(RuleSet) if field_owner(f.name) is not None
}


# --- the presets -------------------------------------------------------------------------

PRESETS: dict[str, RuleSet] = {}
"""Every preset rule set, by name, in the order made (``preset``)."""
_PRESET_TEXT: dict[str, str] = {}


def preset(rules: RuleSet, description: str) -> RuleSet:
    """Make ``rules`` a preset, under its name, with a one-line description (what
    ``sanggong rules list`` shows); return it."""
    if rules.name in PRESETS:
        raise ValueError(f"preset {rules.name!r} is made already")
    PRESETS[rules.name] = rules
    _PRESET_TEXT[rules.name] = description
    return rules


def forget_preset(name: str) -> None:
    """Remove a preset (a test's own, once it is done)."""
    del PRESETS[name]
    del _PRESET_TEXT[name]


def preset_description(name: str) -> str:
    """The one-line description of a preset."""
    return _PRESET_TEXT[name]
