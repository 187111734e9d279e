# Advantage-play detection's tally (included into _core.pyx; sanggong.detection is the public
# side and explains the statistic; the twin is _kernels.twin.tally_stakes): a batch of shoes'
# stakes added to every player's sums, and each player's martingale differences, in one call.


ctypedef struct tally_work_t:
    # tally_stakes' work arrays: each (player, column) pair's place (players x columns), the pairs staked
    # in a shoe (player, column, W), and the players staking them (their Y_k, listed, marked)
    int64_t* slot
    int64_t* pair_p
    int64_t* pair_c
    double* w
    double* ys
    int64_t* active
    uint8_t* is_active


cdef Py_ssize_t _tally_check(const double[:, ::1] ev, const int64_t[::1] shoe_ends, const int64_t[::1] rows,
                const int64_t[::1] sets, const int64_t[::1] set_start, const int64_t[::1] stake_player,
                const int64_t[::1] stake_bet, const double[::1] stake_amount, const uint8_t[::1] stake_first,
                const double[::1] bet_fresh, const int64_t[::1] bet_column, double[:, ::1] sums,
                double[::1] at_stake) except -1:
    """tally_stakes' checks: every index in its range; returns the batch's stakes."""
    cdef Py_ssize_t n = ev.shape[0], m = ev.shape[1], players = sums.shape[0], bets = bet_column.shape[0]
    cdef Py_ssize_t shoes = shoe_ends.shape[0], staked = rows.shape[0], stakes = stake_player.shape[0]
    cdef Py_ssize_t i, t, s, j, a = 0, total = 0
    if sums.shape[1] != 7:
        raise ValueError("sums must be (players, 7)")
    if sets.shape[0] != staked or stake_bet.shape[0] != stakes or stake_amount.shape[0] != stakes \
            or stake_first.shape[0] != stakes or bet_fresh.shape[0] != bets or set_start.shape[0] == 0:
        raise ValueError("the stakes' arrays must be of one length, and the sets' too")
    for i in range(shoes):
        if shoe_ends[i] <= a or shoe_ends[i] > n:
            raise ValueError("shoe_ends must rise within the rounds, the last at len(ev)")
        a = shoe_ends[i]
    if a != n:
        raise ValueError("shoe_ends must rise within the rounds, the last at len(ev)")
    for s in range(set_start.shape[0]):
        if set_start[s] < (set_start[s - 1] if s else 0) or set_start[s] > stakes:
            raise ValueError("set_start must rise within the stakes")
    for t in range(stakes):
        if not 0 <= stake_player[t] < players or not 0 <= stake_bet[t] < bets:
            raise ValueError("a stake's player or bet is out of range")
    for j in range(bets):
        if not -1 <= bet_column[j] < m:
            raise ValueError("bet_column must name columns of ev (or -1)")
    for i in range(staked):
        if not 0 <= rows[i] < n or (i and rows[i] <= rows[i - 1]) or not 0 <= sets[i] < set_start.shape[0] - 1:
            raise ValueError("rows must rise within the rounds, and sets name sets")
        for t in range(set_start[sets[i]], set_start[sets[i] + 1]):
            if bet_column[stake_bet[t]] < 0:
                raise ValueError("a stake's bet has no column of ev")
        total += set_start[sets[i] + 1] - set_start[sets[i]]
    if at_stake.shape[0] < total:
        raise ValueError(f"at_stake must hold the batch's {total} stakes")
    return total


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _tally_loop(const double[:, ::1] ev, const int64_t[::1] shoe_ends, const int64_t[::1] rows,
                const int64_t[::1] sets, const int64_t[::1] set_start, const int64_t[::1] stake_player,
                const int64_t[::1] stake_bet, const double[::1] stake_amount, const uint8_t[::1] stake_first,
                const double[::1] bet_fresh, const int64_t[::1] bet_column, double[:, ::1] sums,
                double[::1] at_stake, tally_work_t* wk) noexcept nogil:
    """tally_stakes' loops, its arguments checked (_tally_check): the stakes in order, then
    shoe by shoe from its last round back, W and each player's Y_k."""
    cdef Py_ssize_t m = ev.shape[1], shoes = shoe_ends.shape[0], staked = rows.shape[0]
    cdef Py_ssize_t i, t, k, j, p, c, a, b, lo, hi, total = 0, pairs, actives, key
    cdef double amount, e, y
    for key in range(sums.shape[0] * m):
        wk.slot[key] = -1
    for i in range(staked):
        k = rows[i]
        for t in range(set_start[sets[i]], set_start[sets[i] + 1]):
            p = stake_player[t]
            amount = stake_amount[t]
            e = ev[k, bet_column[stake_bet[t]]]
            at_stake[total] = e
            total += 1
            sums[p, 0] += stake_first[t]
            sums[p, 1] += 1
            sums[p, 2] += amount
            sums[p, 3] += amount * e
            sums[p, 4] += amount * bet_fresh[stake_bet[t]]
    hi = staked  # the staked rows not yet added to W: rows[lo .. hi - 1]
    for i in range(shoes - 1, -1, -1):
        a = shoe_ends[i - 1] if i else 0
        b = shoe_ends[i]
        lo = hi
        while lo > 0 and rows[lo - 1] >= a:
            lo -= 1
        pairs = 0
        actives = 0
        for k in range(b - 2, a - 1, -1):  # round k: W then holds the stakes of rounds k + 1 ..
            while hi > lo and rows[hi - 1] == k + 1:
                hi -= 1
                for t in range(set_start[sets[hi]], set_start[sets[hi] + 1]):
                    p = stake_player[t]
                    c = bet_column[stake_bet[t]]
                    key = p * m + c
                    if wk.slot[key] < 0:
                        wk.slot[key] = pairs
                        wk.pair_p[pairs] = p
                        wk.pair_c[pairs] = c
                        wk.w[pairs] = 0.0
                        pairs += 1
                        if not wk.is_active[p]:
                            wk.is_active[p] = 1
                            wk.active[actives] = p
                            actives += 1
                    wk.w[wk.slot[key]] += stake_amount[t]
            if pairs == 0:
                continue
            for j in range(actives):
                wk.ys[wk.active[j]] = 0.0
            for j in range(pairs):
                c = wk.pair_c[j]
                wk.ys[wk.pair_p[j]] += wk.w[j] * (ev[k + 1, c] - ev[k, c])
            for j in range(actives):
                p = wk.active[j]
                y = wk.ys[p]
                sums[p, 5] += y
                sums[p, 6] += y * y
        hi = lo  # (the shoe's first round's stakes: no round before it in the shoe)
        for j in range(pairs):
            wk.slot[wk.pair_p[j] * m + wk.pair_c[j]] = -1
        for j in range(actives):
            wk.is_active[wk.active[j]] = 0


def tally_stakes(const double[:, ::1] ev not None, const int64_t[::1] shoe_ends not None,
                 const int64_t[::1] rows not None, const int64_t[::1] sets not None,
                 const int64_t[::1] set_start not None, const int64_t[::1] stake_player not None,
                 const int64_t[::1] stake_bet not None, const double[::1] stake_amount not None,
                 const uint8_t[::1] stake_first not None, const double[::1] bet_fresh not None,
                 const int64_t[::1] bet_column not None, double[:, ::1] sums not None,
                 double[::1] at_stake not None):
    """Add a batch's stakes to every player's sums; returns the stakes read.

    ``ev[k, j]``: round k's EV of column j, the rounds in shoes (shoe i ends before row
    ``shoe_ends[i]``, the last at ``len(ev)``). Round ``rows[i]`` (rising) stakes decision set
    ``sets[i]``: stakes ``set_start[s]`` .. ``set_start[s + 1] - 1``, each a player, a bet (its
    column of ``ev``: ``bet_column[bet]``, its fresh EV ``bet_fresh[bet]``), an amount and
    whether it is the player's first in the round. For each stake in that order, its EV goes
    to ``at_stake`` and its player's row of ``sums`` gets: [0] + first, [1] + 1, [2] + amount,
    [3] + amount x EV, [4] + amount x fresh EV. Then, shoe by shoe and from its last round
    back, with W(p, b) player p's stakes on b after round k in the shoe, each player's
    Y_k = sum over b of W(p, b) (ev[k + 1, b] - ev[k, b]) adds [5] + Y_k and [6] + Y_k**2.
    ValueError, with nothing changed, where an index is out of its range. The inputs are
    read from copies (what is checked is what the loop reads, whatever the caller's buffers
    do meanwhile, ``sums`` and ``at_stake`` among them)."""
    import numpy as np
    ev, shoe_ends, rows, sets, set_start = np.array(ev), np.array(shoe_ends), np.array(rows), np.array(sets), \
        np.array(set_start)
    stake_player, stake_bet, stake_amount, stake_first = np.array(stake_player), np.array(stake_bet), \
        np.array(stake_amount), np.array(stake_first)
    bet_fresh, bet_column = np.array(bet_fresh), np.array(bet_column)
    cdef Py_ssize_t total = _tally_check(ev, shoe_ends, rows, sets, set_start, stake_player, stake_bet, stake_amount,
                                         stake_first, bet_fresh, bet_column, sums, at_stake)
    cdef Py_ssize_t cells = max(sums.shape[0] * ev.shape[1], 1), players = max(sums.shape[0], 1)
    cdef tally_work_t wk
    wk.slot = <int64_t*>malloc(cells * sizeof(int64_t))
    wk.pair_p = <int64_t*>malloc(cells * sizeof(int64_t))
    wk.pair_c = <int64_t*>malloc(cells * sizeof(int64_t))
    wk.w = <double*>malloc(cells * sizeof(double))
    wk.ys = <double*>malloc(players * sizeof(double))
    wk.active = <int64_t*>malloc(players * sizeof(int64_t))
    wk.is_active = <uint8_t*>calloc(players, 1)
    try:
        if wk.slot == NULL or wk.pair_p == NULL or wk.pair_c == NULL or wk.w == NULL or wk.ys == NULL \
                or wk.active == NULL or wk.is_active == NULL:
            raise MemoryError()
        with nogil:
            _tally_loop(ev, shoe_ends, rows, sets, set_start, stake_player, stake_bet, stake_amount, stake_first,
                        bet_fresh, bet_column, sums, at_stake, &wk)
    finally:
        free(wk.slot); free(wk.pair_p); free(wk.pair_c); free(wk.w); free(wk.ys); free(wk.active)
        free(wk.is_active)
    return total
