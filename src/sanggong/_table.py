"""A table's dealing parameters as the kernels take them: one named type, ``TableParams``.

The compiled core reads these ten numbers as a struct whose fields are generated, at
build time, from this type's fields (in this order), and the pure-Python reference reads
them by name: neither spells the layout again. ``table_params(rules)`` is the one place a
rule set becomes them (``RuleSet.table_params``), reading the fields ``DealingRules`` names.

>>> from sanggong import MACAU
>>> MACAU.table_params
TableParams(decks=8, positions=7, fresh_deck=0, burn_first=8, burn_per_round=1, head_card=0, head_card_burned=1, one_at_a_time=1, cut_low=30, cut_high=40)
>>> table_params(MACAU).array().tolist()[:3]
[8, 7, 0]
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["ROUNDINGS", "DealingRules", "TableParams", "table_params"]


ROUNDINGS = ("down", "up", "half_up", "half_even")
"""``rules.rounding``'s modes, numbered as the kernels take them (``VectorKernel``): one
tuple for the core's constants, the twin and ``sanggong.vector``."""


class TableParams(NamedTuple):
    """How a table deals (every field an int; flags 0 or 1)."""

    decks: int
    """Decks in the box or shoe."""
    positions: int
    """Player positions (hands besides the banker's)."""
    fresh_deck: int
    """1: every round is dealt from a freshly shuffled deck (no cut card)."""
    burn_first: int
    """Cards burned after a shuffle."""
    burn_per_round: int
    """Cards burned before every later round of a shoe."""
    head_card: int
    """1: a head card is turned up and names the hand dealt first."""
    head_card_burned: int
    """1: the head card is burned (else it is the first card of the hand it names)."""
    one_at_a_time: int
    """1: one card at a time round the table (else three to each hand in turn)."""
    cut_low: int
    """The cut card lies at least this many cards from the end of a shoe."""
    cut_high: int
    """... and at most this many."""

    def array(self) -> npt.NDArray[np.int64]:
        """The parameters as the kernels take them: int64, in field order."""
        return np.array(self, dtype=np.int64)


class DealingRules(Protocol):
    """What ``table_params`` reads of a rule set (``sanggong.rules.RuleSet``)."""

    @property
    def decks(self) -> int: ...
    @property
    def positions(self) -> int: ...
    @property
    def fresh_deck_each_round(self) -> bool: ...
    @property
    def burn_first(self) -> int: ...
    @property
    def burn_per_round(self) -> int: ...
    @property
    def head_card(self) -> bool: ...
    @property
    def head_card_burned(self) -> bool: ...
    @property
    def deal_one_at_a_time(self) -> bool: ...
    @property
    def cut_card_range(self) -> tuple[int, int]: ...


def table_params(rules: DealingRules) -> TableParams:
    """The dealing parameters of ``rules`` (a rule set's own: ``RuleSet.table_params``)."""
    low, high = rules.cut_card_range
    return TableParams(
        decks=rules.decks, positions=rules.positions, fresh_deck=int(rules.fresh_deck_each_round),
        burn_first=rules.burn_first, burn_per_round=rules.burn_per_round, head_card=int(rules.head_card),
        head_card_burned=int(rules.head_card_burned), one_at_a_time=int(rules.deal_one_at_a_time),
        cut_low=low, cut_high=high,
    )
