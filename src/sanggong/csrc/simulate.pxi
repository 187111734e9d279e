# Simulation (included into _core.pyx): rounds dealt exactly as sanggong.dealing.Game deals
# them (the same draws, in the same order, so a chunk's hands are the game's hands for the
# same bit generator), evaluated and settled by table lookup, all without the GIL. Money
# never enters the loop except as the per-outcome integer net of a bet slip (session mode);
# returns are summed from the outcome counts afterwards, exactly. simulate_chunk checks its
# arguments; the loops are C (sg_simulate.h: specialised for the online and Macau tables,
# general for the rest).

cdef extern from "sg_simulate.h" nogil:
    ctypedef struct sg_chunk:
        sg_params table
        const uint16_t *state
        const uint16_t *value
        const uint64_t *entry
        const uint16_t *rank
        const uint8_t *cls
        int counted
        int plain
        int64_t n_classes
        uint64_t *pairs
        uint64_t *single
        int64_t pair_len, single_len
        const uint8_t *stop
        int session
        sg_settlement plan
        const int64_t *money
        int64_t *net
        int64_t money_row
    uint64_t sg_entry(uint64_t cls, uint64_t rank, uint64_t n_classes, uint64_t width)
    int64_t sg_simulate(uint64_t (*next)(void *), void *rng, const sg_chunk *t, int64_t rounds)


@cython.boundscheck(False)
@cython.wraparound(False)
def simulate_chunk(bit_generator, Lookups lookups not None, const int64_t[::1] params, Py_ssize_t rounds,
                   uint64_t[:, ::1] pairs not None, uint64_t[:, ::1] single not None,
                   plan, const int64_t[:, ::1] money, int64_t[::1] net, const uint8_t[::1] stop not None):
    """Deal and evaluate ``rounds`` rounds from a fresh shoe and count what settles
    every bet, with the hands ranked by ``lookups``: for each position h
    ``pairs[h, (class_h * C + class_banker) * W + w]`` (C classes; W = 1 and w = 0 where
    the order of two hands follows from their classes, else W = 3 and w = order + 1, the
    order 1, 0 or -1 as the hand beats, ties or loses to the banker's) and
    ``single[h, 6 * class_h + pair_plus_h]`` for every hand (the banker's is h = 0);
    sanggong.simulation turns these into each bet's outcome counts with the settlement
    tables. With ``plan`` and ``money`` (net per bet and outcome), each round's net for
    that slip is written to ``net`` (session mode). Returns the rounds done: fewer when
    ``stop[0]`` was set (it is read every 4,096 rounds)."""
    cdef sg_chunk chunk
    _dealt_table(params, &chunk.table, True)
    cdef int64_t hands = sg_hands(&chunk.table)
    cdef const lookups_t* t = &lookups.t
    cdef Py_ssize_t n_classes = t.n_classes
    cdef Py_ssize_t width = 1 if t.ordered_by_class else 3
    cdef Py_ssize_t pair_len = n_classes * n_classes * width, single_len = n_classes * 6
    if pairs.shape[0] != hands or pairs.shape[1] != pair_len or single.shape[0] != hands or single.shape[1] != single_len:
        raise ValueError(f"pairs must be (hands, {pair_len}) and single (hands, {single_len})")
    _check_aligned(&pairs[0, 0], sizeof(uint64_t), "pairs")
    _check_aligned(&single[0, 0], sizeof(uint64_t), "single")
    if stop.shape[0] < 1:
        raise ValueError("stop must hold one flag")
    chunk.session = money is not None
    arrays = _session(plan, money, net, rounds, hands, n_classes, &chunk) if chunk.session else None
    chunk.pairs = &pairs[0, 0]
    chunk.single = &single[0, 0]
    chunk.pair_len = pair_len
    chunk.single_len = single_len
    chunk.stop = &stop[0]
    return _simulate_rounds(bit_generator, lookups, rounds, &chunk)


cdef object _session(object plan, const int64_t[:, ::1] money, int64_t[::1] net, Py_ssize_t rounds,
                     int64_t hands, Py_ssize_t n_classes, sg_chunk* chunk):
    """simulate_chunk's session mode: the plan's view, and money (bets, 256) and net (a
    value a round) checked, into the chunk; returns the plan's arrays, held while the chunk
    is read."""
    arrays = _settlement(plan, hands, n_classes, &chunk.plan)
    cdef Py_ssize_t m = chunk.plan.bets
    if net is None or net.shape[0] < rounds or money.shape[0] != m or money.shape[1] < 256:
        raise ValueError("money must be (bets, 256) and net hold a value per round")
    if m:
        _check_aligned(&money[0, 0], sizeof(int64_t), "money")
    if rounds > 0:
        _check_aligned(&net[0], sizeof(int64_t), "net")
    chunk.money = &money[0, 0] if m else NULL
    chunk.net = &net[0] if rounds else NULL
    chunk.money_row = money.strides[0] // sizeof(int64_t)
    return arrays


cdef Py_ssize_t _simulate_rounds(object bit_generator, Lookups lookups, Py_ssize_t rounds, sg_chunk* chunk) except -1:
    """simulate_chunk's rounds, its arguments checked into ``chunk`` (the table, the
    histograms, the session mode's): sg_simulate's loops, with a hand's counts from one
    entry per rid of the ranking (sg_entry)."""
    cdef const lookups_t* t = &lookups.t
    cdef Py_ssize_t n_rids = lookups.n_rids, i
    cdef uint64_t width = 1 if t.ordered_by_class else 3
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef uint64_t* entry = <uint64_t*>malloc(n_rids * sizeof(uint64_t))
    if entry == NULL:
        raise MemoryError()
    for i in range(n_rids):
        entry[i] = sg_entry(t.cls[i], t.rank[i], t.n_classes, width)
    chunk.state = t.state
    chunk.value = t.value
    chunk.entry = entry
    chunk.rank = t.rank
    chunk.cls = t.cls
    chunk.counted = width == 3
    chunk.plain = t.identity and t.class_identity and t.ordered_by_class
    chunk.n_classes = t.n_classes
    cdef int64_t done
    try:
        with bit_generator.lock, nogil:
            done = sg_simulate(rng.next_uint64, rng.state, chunk, rounds)
    finally:
        free(entry)
    if done < 0:
        raise MemoryError()
    return done
