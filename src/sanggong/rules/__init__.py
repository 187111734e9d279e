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

The package's modules: ``_ruleset`` (``RuleSet`` and its checks, and the
presets' registry), ``_values`` (checking one field's value), ``_variants`` (each
variant and its bet kinds as one record), ``_bets`` (``BetSpec``, ``parse_bet``),
``_files`` (TOML and JSON files, read through strict structs) and ``_presets``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._bets import MULTIPLIER_POINTS as MULTIPLIER_POINTS
from ._bets import PAIR_PLUS_CATEGORIES as PAIR_PLUS_CATEGORIES
from ._bets import BetSpec, parse_bet
from ._bets import Variant as Variant
from ._bets import offered_bets as offered_bets
from ._presets import (
    CHINESE,
    GENTING,
    GENTING_NO_COMMISSION,
    MACAU,
    NAGAWORLD,
    ONLINE,
    PRESETS,
    PROSPERITY,
    SAN_GONG,
    as_rules,
)
from ._ruleset import RuleSet
from ._ruleset import preset_description as preset_description
from ._variants import VARIANTS as VARIANTS
from ._variants import BetKind as BetKind
from ._variants import TableVariant as TableVariant
from ._variants import register_variant as register_variant
from ._variants import variant_of as variant_of

__all__ = [
    "CHINESE", "GENTING", "GENTING_NO_COMMISSION", "MACAU", "NAGAWORLD", "ONLINE", "PRESETS", "PROSPERITY",
    "SAN_GONG", "BetSpec", "RuleSet", "as_rules", "parse_bet",
]

if TYPE_CHECKING:
    from ._files import to_toml as to_toml


def __getattr__(name: str) -> object:
    """``to_toml``, from ``_files`` on first use: its strict structs need msgspec, which a
    program that reads no rule file (a command's start) is spared."""
    if name == "to_toml":
        from ._files import to_toml

        return to_toml
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
