"""Settling a round's bets (the twin of ``csrc/settle.pxi``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..._spec import N_PAIR_PLUS, ClassKey, bet_outcome, on_hand

if TYPE_CHECKING:
    from ..protocol import SettlementSource

__all__ = ["settle_batch"]


def order_of(ranks: Sequence[int], h: int) -> int:
    """1, 0 or -1 as hand h beats, ties or loses to the banker's (hand 0)."""
    return (ranks[h] > ranks[0]) - (ranks[h] < ranks[0])


def outcome_of(plan: SettlementSource, j: int, keys: Sequence[ClassKey], classes: Sequence[int], ranks: Sequence[int],
               pps: Sequence[int]) -> int:
    """The outcome code of bet j of ``plan`` in a round of these hands (0 the banker's)."""
    spec = plan.specs[j]
    h = spec.position if on_hand(spec.kind) else 0
    return bet_outcome(plan.rules, spec.kind, spec.number, keys[classes[h]], pps[h], keys[classes[0]],
                       order_of(ranks, h))


def settle_batch(plan: SettlementSource, classes: npt.NDArray[np.uint8], ranks: npt.NDArray[np.uint16],
                 pps: npt.NDArray[np.uint8], out: npt.NDArray[np.uint8]) -> int:
    """Outcome of every bet of ``plan`` in every round: ``classes``, ``ranks`` and ``pps``
    are (n, hands) arrays (column 0 the banker, column i position i), ``out`` is
    (n, bets). Returns the first round holding a class of ``plan.n_classes`` or more or a
    category above 5, or -1."""
    keys = plan.class_keys
    rows_c, rows_r, rows_p = classes.tolist(), ranks.tolist(), pps.tolist()
    for i, (hand_classes, hand_ranks, hand_pps) in enumerate(zip(rows_c, rows_r, rows_p, strict=True)):
        if any(not 0 <= c < plan.n_classes for c in hand_classes) or any(not 0 <= p < N_PAIR_PLUS for p in hand_pps):
            return i
        for j in range(len(plan.specs)):
            out[i, j] = outcome_of(plan, j, keys, hand_classes, hand_ranks, hand_pps)
    return -1
