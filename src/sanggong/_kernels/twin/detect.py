"""Detection's tallies (the twin of ``csrc/detect.pxi``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["tally_stakes"]


def tally_stakes(ev: npt.NDArray[np.float64], shoe_ends: npt.NDArray[np.int64], rows: npt.NDArray[np.int64],
                 sets: npt.NDArray[np.int64], set_start: npt.NDArray[np.int64], stake_player: npt.NDArray[np.int64],
                 stake_bet: npt.NDArray[np.int64], stake_amount: npt.NDArray[np.float64],
                 stake_first: npt.NDArray[np.uint8], bet_fresh: npt.NDArray[np.float64],
                 bet_column: npt.NDArray[np.int64], sums: npt.NDArray[np.float64],
                 at_stake: npt.NDArray[np.float64]) -> int:
    """A batch's stakes added to every player's sums, the stakes' EVs to ``at_stake``, and
    each player's martingale differences shoe by shoe from its last round back (the
    compiled core's ``tally_stakes``, which documents the arguments)."""
    n, m = ev.shape
    players = sums.shape[0]
    ends, staked, starts = shoe_ends.tolist(), rows.tolist(), set_start.tolist()
    chosen, player, bet = sets.tolist(), stake_player.tolist(), stake_bet.tolist()
    amount, first, fresh, column = stake_amount.tolist(), stake_first.tolist(), bet_fresh.tolist(), bet_column.tolist()
    if sums.shape[1] != 7:
        raise ValueError("sums must be (players, 7)")
    if len(chosen) != len(staked) or not len(player) == len(bet) == len(amount) == len(first) \
            or len(fresh) != len(column) or not starts:
        raise ValueError("the stakes' arrays must be of one length, and the sets' too")
    if any(e <= d for d, e in zip([0, *ends], ends, strict=False)) or any(e > n for e in ends) or \
            (ends[-1] if ends else 0) != n:
        raise ValueError("shoe_ends must rise within the rounds, the last at len(ev)")
    if any(s < r for r, s in zip([0, *starts], starts, strict=False)) or starts[-1] > len(player):
        raise ValueError("set_start must rise within the stakes")
    if any(not 0 <= p < players for p in player) or any(not 0 <= b < len(column) for b in bet):
        raise ValueError("a stake's player or bet is out of range")
    if any(not -1 <= c < m for c in column):
        raise ValueError("bet_column must name columns of ev (or -1)")
    total = 0
    for i, (k, s) in enumerate(zip(staked, chosen, strict=True)):
        if not 0 <= k < n or (i and k <= staked[i - 1]) or not 0 <= s < len(starts) - 1:
            raise ValueError("rows must rise within the rounds, and sets name sets")
        if any(column[bet[t]] < 0 for t in range(starts[s], starts[s + 1])):
            raise ValueError("a stake's bet has no column of ev")
        total += starts[s + 1] - starts[s]
    if len(at_stake) < total:
        raise ValueError(f"at_stake must hold the batch's {total} stakes")
    evs = ev.tolist()
    out = sums.tolist()
    total = 0
    for k, s in zip(staked, chosen, strict=True):
        for t in range(starts[s], starts[s + 1]):
            p, e = player[t], evs[k][column[bet[t]]]
            at_stake[total] = e
            total += 1
            row = out[p]
            row[0] += first[t]
            row[1] += 1
            row[2] += amount[t]
            row[3] += amount[t] * e
            row[4] += amount[t] * fresh[bet[t]]
    hi = len(staked)
    for i in range(len(ends) - 1, -1, -1):
        a, b = ends[i - 1] if i else 0, ends[i]
        lo = hi
        while lo > 0 and staked[lo - 1] >= a:
            lo -= 1
        w: dict[tuple[int, int], float] = {}  # W(p, b), the pairs in the order first staked from the end back
        for k in range(b - 2, a - 1, -1):
            while hi > lo and staked[hi - 1] == k + 1:
                hi -= 1
                for t in range(starts[chosen[hi]], starts[chosen[hi] + 1]):
                    pair = (player[t], column[bet[t]])
                    w[pair] = w.get(pair, 0.0) + amount[t]
            if not w:
                continue
            ys: dict[int, float] = {}
            for (p, c), x in w.items():
                ys[p] = ys.get(p, 0.0) + x * (evs[k + 1][c] - evs[k][c])
            for p, y in ys.items():
                out[p][5] += y
                out[p][6] += y * y
        hi = lo
    sums[:] = out
    return total
