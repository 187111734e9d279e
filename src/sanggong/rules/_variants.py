"""Table variants and their bet kinds, each one record (``sanggong.rules``; the presets,
each a rule set with its description, are ``_ruleset``'s registry).

A variant is a ``TableVariant``: its bet kinds (``BetKind``: what each is placed on, the
odds it reads, what it wins on), how many positions it deals, the fields only it reads,
what its hands are called and how a table of it is shown. The rule set, its files and
the command line ask the record; nothing else spells a variant's name. A new variant is
one ``register_variant`` call here and the outcome function of each new bet kind in
``sanggong._spec.bets`` (``@outcome``); a new preset is one ``preset`` call in
``_presets``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from .._spec import total_key
from .._text import did_you_mean

__all__ = [
    "VARIANTS", "BetKind", "TableVariant", "forget_variant", "pay_keys", "register_variant", "variant_of",
]


class _Odds(Protocol):
    """What a bet kind reads of a rule set: its odds (``pays`` and the fields a kind's
    ``odds`` names, read by name)."""

    @property
    def pays(self) -> Mapping[str, Fraction]: ...


@dataclass(frozen=True)
class BetKind:
    """One kind of bet of a variant.

    :param name: the kind, the first part of a bet's name (``win`` of ``win:1``).
    :param on: what a bet of the kind is placed on: ``"position"`` (a position or player,
        from 1), ``"banker"`` (the banker's hand: no suffix), ``"point"`` (0..9),
        ``"hand"`` (a player or ``banker``), ``"pair"`` (a two-hand table's two hands: no
        suffix), ``"side"`` (one of them: ``dragon`` or ``phoenix``) or ``"total"`` (a range
        of winning totals, a key of ``total_pays``).
    :param description: what it wins on, a template of ``RuleSet.bets``: ``{t}`` the
        target, and the table's fields (``{push}``, ``{needs_win}``, ``{trips}``, ...).
    :param odds: the rule set's field its odds are in: ``"pays"`` (keyed by the kind),
        ``"total_pays"`` (by range), ``"pair_plus_pays"`` (by the hand's category) or
        ``"multipliers"`` (by the winning hand). A table offers the kind where it has its
        odds (``pays``: the kind's key; another field: any entry).
    :param on_six: a win with a 6-point hand pays ``<name>_on_six`` where it is given.
    """

    name: str
    on: str
    description: str
    odds: str = "pays"
    on_six: bool = False

    @property
    def pay_keys(self) -> tuple[str, ...]:
        """The keys of ``pays`` this kind reads."""
        if self.odds != "pays":
            return ()
        return (self.name, f"{self.name}_on_six") if self.on_six else (self.name,)

    @property
    def by_winning_hand(self) -> bool:
        """Its odds are one of several, set by the winning hand (a banker game's
        multipliers): one of them is chosen to vary (``design``'s ``key``)."""
        return self.odds == "multipliers"

    @property
    def whole_table(self) -> bool:
        """Its odds are a table of several, paid by the hand's category (Pair Plus):
        designed as a whole, with no one pay of its own."""
        return self.odds == "pair_plus_pays"

    def offered(self, rules: _Odds) -> bool:
        """A table offers the kind where it has its odds."""
        return self.name in rules.pays if self.odds == "pays" else bool(getattr(rules, self.odds))

    def odds_of(self, rules: _Odds, number: int, key: str | None = None) -> dict[str, Fraction]:
        """The odds a bet of the kind reads, keyed as its field keys them: its kind's, its
        range's (``number``), every category's, or one multiplier (``key``)."""
        table: Mapping[str, Fraction] = getattr(rules, self.odds)
        if self.odds == "pays":
            return {self.name: table[self.name]}
        if self.odds == "total_pays":
            return {total_key(number): table[total_key(number)]}
        if key is not None:
            return {key: table[key]}
        return dict(table)


@dataclass(frozen=True)
class TableVariant:
    """A table variant: its bet kinds and what sets its tables apart.

    :param name: the ``variant`` of its rule sets.
    :param kinds: its bet kinds, in the order its bets are listed.
    :param positions: the positions every table of it has, or None (any); with
        ``positions_text``, the error naming a rule set's other count (``{got}``).
    :param fresh_deck: every round is dealt from a freshly shuffled deck (whatever the decks).
    :param fields: the rule set's fields only this variant reads, each with the error a
        rule set of another variant that gives it is refused with (``{variant}``: that
        variant's name); another variant keeps their defaults.
    :param unlisted: those of ``fields`` that a rule set of another variant leaves out of
        its dict, its files and its digest (they came after its records were bound to it).
    :param banker_hand: what the banker's hand (hand 0) is called.
    :param position_hand: what a position's hand is called (``{}``: its number).
    :param two_hands: a two-hand table (positions 1): its hands are named, not numbered,
        the position's hand shown first.
    :param table_text: the hands a table deals, for a table's header (``{n}`` positions,
        ``{s}`` their plural ending).
    """

    name: str
    kinds: tuple[BetKind, ...]
    positions: int | None = None
    positions_text: str = ""
    fresh_deck: bool = False
    fields: Mapping[str, str] = field(default_factory=dict)
    unlisted: frozenset[str] = frozenset()
    banker_hand: str = "banker"
    position_hand: str = "hand {}"
    two_hands: bool = False
    table_text: str = "{n} position{s}"

    def kind(self, name: str) -> BetKind | None:
        """Its bet kind of this name, or None."""
        return next((k for k in self.kinds if k.name == name), None)

    @property
    def kind_names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.kinds)

    @property
    def pay_keys(self) -> frozenset[str]:
        """The keys its ``pays`` may hold."""
        return frozenset(key for k in self.kinds for key in k.pay_keys)

    def hands_text(self, positions: int) -> str:
        """The hands a table of ``positions`` deals, for a table's header."""
        return self.table_text.format(n=positions, s="s" if positions > 1 else "")


VARIANTS: dict[str, TableVariant] = {}
"""Every variant, by name, in the order registered."""


def register_variant(variant: TableVariant) -> TableVariant:
    """Add a variant (its name not yet taken) and return it: a ``TableVariant`` whose name is
    an identifier and whose kinds are ``BetKind``\\ s of different names (TypeError,
    ValueError otherwise: the registry holds only what the rule set can read)."""
    if not isinstance(variant, TableVariant):
        raise TypeError(f"register_variant takes a TableVariant, not {type(variant).__name__}")
    if not isinstance(variant.name, str) or not variant.name.isidentifier():
        raise ValueError(f"a variant's name is an identifier (letters, digits, _), not {variant.name!r}"[:200])
    kinds = variant.kinds
    if not isinstance(kinds, tuple) or not kinds or not all(isinstance(k, BetKind) for k in kinds):
        raise TypeError(f"variant {variant.name!r}: kinds must be a non-empty tuple of BetKind")
    if len({k.name for k in kinds}) != len(kinds):
        raise ValueError(f"variant {variant.name!r}: two of its kinds have the same name")
    if variant.positions is not None and (isinstance(variant.positions, bool) or not isinstance(variant.positions, int)
                                          or variant.positions < 1):
        raise ValueError(f"variant {variant.name!r}: positions must be a positive int or None, not "
                         f"{variant.positions!r}"[:200])
    if variant.name in VARIANTS:
        raise ValueError(f"variant {variant.name!r} is registered already")
    VARIANTS[variant.name] = variant
    return variant


def forget_variant(name: str) -> None:
    """Remove a registered variant (a test's own, once it is done)."""
    del VARIANTS[name]


def variant_of(name: str) -> TableVariant:
    """The variant of this name (a rule set's ``variant`` is checked against the names)."""
    if name not in VARIANTS:
        raise ValueError(f"variant: unknown variant {name!r}{did_you_mean(name, VARIANTS)}")
    return VARIANTS[name]


def field_owner(name: str) -> TableVariant | None:
    """The variant whose own field this is, if any."""
    return next((v for v in VARIANTS.values() if name in v.fields), None)


_FILE_ORDER = ("win", "win_on_six", "lose", "lose_on_six", "tie", "odd", "even", "three_faces", "point", "dragon",
               "dragon_on_six", "phoenix", "phoenix_on_six", "pair")
"""The order the pay keys of the first four variants have always had in a rule file
(``rules._files.pays_file``): a rule set read from a file has its ``pays`` in this order
(the bytes of its dict and files), and a mistyped key's hint reads them in it. A bet kind
registered since comes after them, in the order registered: a new kind is not added here."""


def pay_keys() -> tuple[str, ...]:
    """Every key of ``pays`` a registered bet kind reads (``BetKind.pay_keys``): those of
    ``_FILE_ORDER`` in its order, then the others in the order registered."""
    keys = dict.fromkeys(key for variant in VARIANTS.values() for kind in variant.kinds for key in kind.pay_keys)
    return tuple(sorted(keys, key=lambda k: _FILE_ORDER.index(k) if k in _FILE_ORDER else len(_FILE_ORDER)))


# --- the variants ------------------------------------------------------------------------

_SIDE_BETS = "a field of the side bets of a Dragon/Phoenix table (variant 'dragon_phoenix'), not of the {variant} variant"

register_variant(TableVariant(
    "macau",
    (
        BetKind("win", "position", "position {t} beats the banker; a tie {push} the stake", on_six=True),
        BetKind("tie", "position", "position {t} ties the banker{needs_win}"),
        BetKind("odd", "banker", "the banker's points are odd"),
        BetKind("even", "banker", "the banker's points are even"),
        BetKind("three_faces", "banker", "the banker has three faces (3P)"),
        BetKind("point", "point", "the banker's points are {t}"),
    ),
))
register_variant(TableVariant(
    "online",
    (
        BetKind("win", "position", "player {t} beats the banker", on_six=True),
        BetKind("lose", "position", "the banker beats player {t}", on_six=True),
        BetKind("tie", "position", "player {t} ties the banker"),
        BetKind("three_faces", "position", "player {t} has three faces (3P)"),
        BetKind("pair_plus", "hand", "{t}'s hand is a pair or better", odds="pair_plus_pays"),
    ),
    positions=3,
    positions_text="positions: the online variant has 3 players, got {got}",
    fresh_deck=True,
    fields={"pair_plus_pays": "pair_plus_pays: Pair Plus is a bet of the online variant"},
))
# two hands, Dragon (hand 1) and Phoenix (hand 0, where the banker sits elsewhere): the
# main bets name no position, the side bets name the hand or the totals
register_variant(TableVariant(
    "dragon_phoenix",
    (
        BetKind("dragon", "pair", "Dragon beats Phoenix", on_six=True),
        BetKind("phoenix", "pair", "Phoenix beats Dragon", on_six=True),
        BetKind("tie", "pair", "Dragon and Phoenix tie"),
        BetKind("odd", "side", "{t}'s points are odd{three_faces}"),
        BetKind("even", "side", "{t}'s points are even (0 too){three_faces}"),
        BetKind("pair", "side", "{t}'s three cards hold a pair{trips}"),
        BetKind("total", "total", "the winning hand's points are {t}{zero}", odds="total_pays"),
    ),
    positions=1,
    positions_text="positions: a Dragon/Phoenix table deals two hands (positions = 1), got {got}",
    fields={
        "total_pays": "total_pays: total bets are bets of a Dragon/Phoenix table (variant 'dragon_phoenix')",
        "pair_counts_trips": f"pair_counts_trips: {_SIDE_BETS}",
        "total_tier": f"total_tier: {_SIDE_BETS}",
        "total_zero": f"total_zero: {_SIDE_BETS}",
    },
    unlisted=frozenset({"total_pays", "pair_counts_trips", "total_tier", "total_zero"}),
    banker_hand="phoenix",
    position_hand="dragon",
    two_hands=True,
    table_text="two hands (Dragon and Phoenix)",
))
register_variant(TableVariant(
    "banker_game",
    (BetKind("player", "position", "player {t} against the banker: the loser pays the stake x the winner's multiplier",
             odds="multipliers"),),
    fields={"multipliers": "multipliers: only a banker game (variant 'banker_game') pays by multipliers"},
    position_hand="player {}",
    table_text="{n} player{s} against the banker",
))

