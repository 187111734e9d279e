"""Playing shoes (the twin of ``csrc/play.pxi``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..._spec import N_CARDS, Shoe, card_rank
from .common import table_of
from .lookups import Lookups
from .settle import outcome_of
from .shoe import ShoeKernel
from .simulate import Round

if TYPE_CHECKING:
    from ..protocol import SettlementSource

__all__ = ["play_chunk"]


def _columns_of(plan: SettlementSource, columns: npt.NDArray[np.uint8]) -> list[dict[int, int]]:
    """Each bet's outcome code -> its column (``columns`` by the plan's row and key)."""
    column_of = []
    for j in range(len(plan.specs)):
        start = int(plan.row[j]) * plan.key_space
        codes = plan.outcome_codes[start : start + plan.key_space].tolist()
        column_of.append(dict(zip(codes, columns[int(plan.row[j])].tolist(), strict=True)))
    return column_of


def _true_counts(running: list[int], unseen: int, bin_width: float, bin_zero: int,
                 bins: int) -> tuple[list[float], list[int]]:
    """Each tag vector's true count (its running count per 52 unseen cards) and its bin."""
    tcs, tc_bins = [], []
    per_card = 52.0 / unseen
    scale = per_card / bin_width
    for value in running:
        tc = value * per_card
        b = value * scale + bin_zero
        tcs.append(tc)
        tc_bins.append(0 if b < 0 else bins - 1 if b >= bins else min(math.floor(b), bins - 1))
    return tcs, tc_bins


def _round_evs(kernel: ShoeKernel | None, fixed_ev: npt.NDArray[np.float64], row_scale: npt.NDArray[np.float64],
               row_part: npt.NDArray[np.uint8]) -> tuple[list[float], list[bool]]:
    """Each shoe terms row's EV before the round (the kernel's exact sums, or a fresh
    deck's fixed EVs), and whether it is positive."""
    if kernel is None:
        evs = [float(x) for x in fixed_ev]
        return evs, [x > 0 for x in evs]
    sums, n = kernel.numerators(), kernel.n_cards
    totals = (math.comb(n, 3) * math.comb(n - 3, 3), math.comb(n, 3))
    evs = [float(s) * float(row_scale[r]) / float(totals[0 if row_part[r] == 0 else 1]) for r, s in enumerate(sums)]
    return evs, [s > 0 for s in sums]


def play_chunk(
    bit_generator: Any, lookups: Lookups, params: npt.NDArray[np.int64], shoes: int, plan: SettlementSource,
    columns: npt.NDArray[np.uint8], kernel: ShoeKernel | None, bet_row: npt.NDArray[np.int32],
    row_scale: npt.NDArray[np.float64], row_part: npt.NDArray[np.uint8], fixed_ev: npt.NDArray[np.float64],
    tags: npt.NDArray[np.int32], bet_tag: npt.NDArray[np.int32], bin_width: float, bin_zero: int, burned_seen: bool,
    count_hist: npt.NDArray[np.uint64], perfect_hist: npt.NDArray[np.uint64], ev_bins: npt.NDArray[np.float64],
    moments: npt.NDArray[np.float64], stop: npt.NDArray[np.uint8],
) -> tuple[int, int]:
    """Deal ``shoes`` shoes as ``simulate_chunk`` does and count every bet's outcomes by
    true count and, where its exact EV is positive, as a perfect-information bet (the
    compiled core's ``play_chunk``; outcomes from ``bet_outcome`` directly, EVs from the
    kernel's exact sums)."""
    table = table_of(params, later_apart=True)
    if kernel is not None and len(fixed_ev):
        raise ValueError("give a kernel or fixed EVs, not both")
    bins = count_hist.shape[0]
    perfect = kernel is not None or len(fixed_ev) > 0
    full = kernel.counts if kernel is not None else None
    rounds = shoes_done = 0
    tag_rows = [[int(x) for x in row] for row in tags]
    column_of = _columns_of(plan, columns)
    dealer = Shoe(table, bit_generator)
    while shoes_done < shoes and not stop[0]:
        unseen = N_CARDS * table.decks
        if kernel is not None and full is not None:
            kernel.set_counts(full)
        running = [0] * len(tag_rows)
        while True:
            evs, positive = _round_evs(kernel, fixed_ev, row_scale, row_part) if perfect else ([], [])
            tcs, tc_bins = _true_counts(running, unseen, bin_width, bin_zero, bins)
            cards, burn = dealer.deal()
            hand = Round(lookups, table, cards, burn)
            for j in range(len(plan.specs)):
                col = column_of[j][outcome_of(plan, j, lookups.class_keys, hand.classes, hand.ranks, hand.pps)]
                t = int(bet_tag[j])
                count_hist[tc_bins[t], j, col] += 1
                if perfect:
                    r = int(bet_row[j])
                    e, x = evs[r], tcs[t]
                    if positive[r]:
                        perfect_hist[j, col] += 1
                        moments[j, 0] += e
                    ev_bins[tc_bins[t], j] += e
                    moments[j, 1:] += (e, e * e, x, x * x, x * e)
            rounds += 1
            seen = cards if burned_seen else cards[burn:]
            for c in seen:
                if kernel is not None:
                    kernel.remove(c)
                for t, row in enumerate(tag_rows):
                    running[t] += row[card_rank(c) - 1]
            unseen -= len(seen)
            if dealer.last:
                break
        shoes_done += 1
    if kernel is not None and full is not None:
        kernel.set_counts(full)
    return rounds, shoes_done
