"""A table's dealing parameters as the kernels take them: ``table_params(rules)`` is the one
place a rule set becomes a ``TableParams`` (the kernels' own type, ``_kernels.inputs``,
which says how both implementations read it), reading the fields ``DealingRules`` names
(``RuleSet.table_params``).

>>> from sanggong import MACAU
>>> MACAU.table_params
TableParams(decks=8, positions=7, fresh_deck=0, burn_first=8, burn_per_round=1, head_card=0, head_card_burned=1, one_at_a_time=1, cut_low=30, cut_high=40)
>>> table_params(MACAU).array().tolist()[:3]
[8, 7, 0]
"""

from __future__ import annotations

from typing import Protocol

from ._kernels.inputs import ROUNDINGS as ROUNDINGS
from ._kernels.inputs import TableParams as TableParams

__all__ = ["ROUNDINGS", "DealingRules", "TableParams", "table_params"]


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
