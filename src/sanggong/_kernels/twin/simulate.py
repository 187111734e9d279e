"""The round loop of a simulation (the twin of ``csrc/simulate.pxi``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..._spec import Shoe, assign, pair_plus3
from ..inputs import TableParams
from .common import table_of
from .lookups import Lookups
from .settle import order_of, outcome_of

if TYPE_CHECKING:
    from ..protocol import SettlementSource

__all__ = ["simulate_chunk"]


class Round:
    """One round's hands, dealt by ``_spec.Shoe`` and assigned by ``_spec.assign``: each
    hand's rank, class and Pair Plus category (0 the banker's)."""

    def __init__(self, lookups: Lookups, table: TableParams, cards: bytearray, burn: int) -> None:
        _, dealt = assign(table, cards[burn:])
        hands = range(table.positions + 1)
        self.ranks = [lookups.rank(*dealt[h]) for h in hands]
        self.classes = [lookups.cls(*dealt[h]) for h in hands]
        self.pps = [pair_plus3(*dealt[h]) for h in hands]


def simulate_chunk(
    bit_generator: Any, lookups: Lookups, params: npt.NDArray[np.int64], rounds: int, pairs: npt.NDArray[np.uint64],
    single: npt.NDArray[np.uint64], plan: SettlementSource | None, money: npt.NDArray[np.int64] | None,
    net: npt.NDArray[np.int64] | None, stop: npt.NDArray[np.uint8],
) -> int:
    """Deal and evaluate ``rounds`` rounds from a fresh shoe and count what settles
    every bet, exactly as the compiled core's ``simulate_chunk`` (and
    ``sanggong.dealing.Game``) do."""
    table = table_of(params, later_apart=True)
    dealer = Shoe(table, bit_generator)
    n_classes, width = lookups.n_classes, 1 if lookups.ordered_by_class else 3
    for done in range(rounds):
        if done % 4096 == 0 and stop[0]:
            return done
        hand = Round(lookups, table, *dealer.deal())
        for h in range(table.positions + 1):
            single[h, 6 * hand.classes[h] + hand.pps[h]] += 1
            if h:
                order = order_of(hand.ranks, h)
                pairs[h, (hand.classes[h] * n_classes + hand.classes[0]) * width + (order + 1 if width == 3 else 0)] += 1
        if plan is not None and money is not None and net is not None:
            codes = (outcome_of(plan, j, lookups.class_keys, hand.classes, hand.ranks, hand.pps)
                     for j in range(len(plan.specs)))
            net[done] = sum(int(money[j, code]) for j, code in enumerate(codes))
    return rounds
