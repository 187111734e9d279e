# Shuffle tests (included into _core.pyx): whole shoes dealt by the production procedure (the
# draws of deal_chunk, sg_draw and sg_shoe_round in sg_deal.h, from a fresh shoe, rounds until
# the one that takes the cut card), and the sufficient statistics of sanggong.shuffletest's
# battery tallied from them without the GIL, so that 10**9 cards need no array of 10**9 cards.
# The twin is _kernels.twin.shuffle_cards / shuffle_tally / shuffle_tally_cards.
#
# For each shoe, over its first K cards c[0:K] (K = bounds[rounds]) and y = 2 c - 51 (the
# card's code centred: odd, -51..51):
#   counts[p, c[p]] += 1                                    card by position
#   t0 = changes between low (code < 26) and high cards     runs
#   t1 = sum over rounds of sum_{i<j in the round} y_i y_j   correlation within a round
#   t2 = sum over consecutive rounds r, r+1 of y at the same place in each   serial, rounds
#   t3 = sum_p y_p * y_p of the shoe before (the previous row; none for the first)   serial, shoes
# and sums[k] += t_k, squares[k] += t_k * t_k (as a double).


cdef int64_t _deal_shoe(uint64_t (*next_word)(void *) noexcept nogil, void* state, const sg_params* t,
                        uint8_t* deck, int64_t* cut_place) noexcept nogil:
    """One shoe from a fresh shuffle of deck[0:n] by the shoe procedure, to the round that takes
    the cut card (a fresh deck: its one round). Returns the cards dealt, which are then
    deck[0:returned] in the order they came out; *cut_place: the cut card's place from the
    end (0 for a fresh deck)."""
    cdef int64_t n = sg_n_cards(t), hands = sg_hands(t), burn, count
    cdef bint head_burned = t.head_card != 0 and t.head_card_burned != 0
    cdef uint8_t cards[SG_MAX_ROUND_CARDS]
    cdef int64_t pos = 0, cut = n, in_shoe = 0, number = 0
    cdef bint last = True
    if t.fresh_deck:
        burn = sg_burn(0, t.burn_first, t.burn_per_round)
        count = sg_round_cards(burn, head_burned, hands)
        memcpy(deck, _FRESH_SHOE, n)
        sg_draw(next_word, state, deck, n, 0, count, cards, NULL)
        cut_place[0] = 0
        return count
    while True:
        sg_shoe_round(next_word, state, deck, _FRESH_SHOE, n, hands, t.burn_first, t.burn_per_round, head_burned,
                      t.cut_low, t.cut_high, &pos, &cut, &in_shoe, &number, &last, cards)
        if last:
            break
    cut_place[0] = n - cut
    return pos


@cython.cdivision(True)
cdef void _tally_shoe(const uint8_t* c, const uint8_t* prev, const int64_t* bounds, int64_t rounds,
                      int64_t* counts, int64_t* sums, double* squares) noexcept nogil:
    """Add one shoe's first bounds[rounds] cards (codes checked < 52) to the tallies."""
    cdef int64_t k = bounds[rounds], p, r, j, a, b, m, s, q, y
    cdef int64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0
    for p in range(k):
        counts[p * 52 + c[p]] += 1
    for p in range(1, k):
        t0 += (c[p] < 26) != (c[p - 1] < 26)
    for r in range(rounds):
        s = 0
        q = 0
        for p in range(bounds[r], bounds[r + 1]):
            y = 2 * <int64_t>c[p] - 51
            s += y
            q += y * y
        t1 += (s * s - q) // 2  # (even: twice the sum over pairs)
    for r in range(rounds - 1):
        a = bounds[r]
        b = bounds[r + 1]
        m = min(b - a, bounds[r + 2] - b)
        for j in range(m):
            t2 += (2 * <int64_t>c[a + j] - 51) * (2 * <int64_t>c[b + j] - 51)
    if prev != NULL:
        for p in range(k):
            t3 += (2 * <int64_t>c[p] - 51) * (2 * <int64_t>prev[p] - 51)
    sums[0] += t0
    sums[1] += t1
    sums[2] += t2
    sums[3] += t3
    squares[0] += <double>(t0 * t0)
    squares[1] += <double>(t1 * t1)
    squares[2] += <double>(t2 * t2)
    squares[3] += <double>(t3 * t3)


cdef int _check_tallies(const int64_t[::1] bounds, int64_t[:, ::1] counts, int64_t[::1] sums,
                        double[::1] squares, Py_ssize_t width) except -1:
    """The tallies' shapes: bounds from 0, non-decreasing, to K <= width; counts (K, 52); four sums."""
    cdef Py_ssize_t r, rounds = bounds.shape[0] - 1
    if rounds < 1 or bounds[0] != 0:
        raise ValueError("bounds must start at 0 and hold at least one round")
    for r in range(rounds):
        if bounds[r + 1] < bounds[r]:
            raise ValueError("bounds must not decrease")
    if bounds[rounds] > width:
        raise ValueError(f"bounds end at card {bounds[rounds]}, past the {width} there are")
    if counts.shape[0] != bounds[rounds] or counts.shape[1] != 52:
        raise ValueError(f"counts must have shape ({bounds[rounds]}, 52)")
    if sums.shape[0] != 4 or squares.shape[0] != 4:
        raise ValueError("sums and squares must hold 4 values")
    _check_aligned(&bounds[0], sizeof(int64_t), "bounds")
    _check_aligned(&sums[0], sizeof(int64_t), "sums")
    _check_aligned(&squares[0], sizeof(double), "squares")
    if counts.shape[0]:
        _check_aligned(&counts[0, 0], sizeof(int64_t), "counts")
    return 0


cdef struct _counted:
    bitgen_t* rng
    int64_t words


cdef uint64_t _counted_next(void* state) noexcept nogil:
    """The bit generator's next word, counted (shuffle_cards: the words the shoes took)."""
    cdef _counted* c = <_counted*>state
    c.words += 1
    return c.rng.next_uint64(c.rng.state)


@cython.boundscheck(False)
@cython.wraparound(False)
def shuffle_cards(bit_generator, const int64_t[::1] params, uint8_t[:, ::1] cards not None,
                  uint16_t[::1] cut_places not None):
    """Deal ``cards.shape[0]`` shoes, one after the other from a fresh shoe (the table of
    ``params``), as ``deal_chunk`` deals them, each to the round that takes its cut card (a
    fresh deck: one round), and write each shoe's first ``cards.shape[1]`` cards in the order
    they came out (burns and head card included) and its cut card's place from the end (0
    for a fresh deck). Returns the 64-bit words drawn (the first that many of the generator's
    ``next_uint64`` stream, in order). Refuses a width some shoe may not reach."""
    cdef sg_params table
    _dealt_table(params, &table, True)
    cdef Py_ssize_t shoes = cards.shape[0], width = cards.shape[1], i
    if cut_places.shape[0] != shoes:
        raise ValueError(f"cut_places must hold {shoes} shoes, it holds {cut_places.shape[0]}")
    if shoes:
        _check_aligned(&cut_places[0], sizeof(uint16_t), "cut_places")
    cdef _counted counter
    counter.rng = _bitgen(bit_generator)
    counter.words = 0
    cdef uint8_t deck[SG_MAX_CARDS]
    cdef int64_t dealt = 0, place = 0, shortest = SG_MAX_CARDS
    with bit_generator.lock, nogil:
        for i in range(shoes):
            dealt = _deal_shoe(_counted_next, &counter, &table, deck, &place)
            if dealt < shortest:
                shortest = dealt
            if dealt < width:
                break
            memcpy(&cards[i, 0], deck, width)
            cut_places[i] = <uint16_t>place
    if shoes and shortest < width:
        raise ValueError(f"a shoe dealt {shortest} cards, fewer than the {width} asked for")
    return counter.words


@cython.boundscheck(False)
@cython.wraparound(False)
def shuffle_tally(bit_generator, const int64_t[::1] params, Py_ssize_t shoes, const int64_t[::1] bounds not None,
                  int64_t[:, ::1] counts not None, int64_t[::1] cut_counts not None, int64_t[::1] sums not None,
                  double[::1] squares not None):
    """Deal ``shoes`` shoes as ``shuffle_cards`` does and add their tallies (this file's
    notes) over their first ``bounds[-1]`` cards, the rounds cut at ``bounds``: ``counts``
    (K, 52), ``sums`` and ``squares`` (4 each), ``cut_counts[place - cut_low]`` (a shoe's;
    untouched for a fresh deck). The first shoe has no shoe before it (t3 counts
    ``shoes - 1`` pairs). Refuses a K some shoe may not reach."""
    cdef sg_params table
    _dealt_table(params, &table, True)
    if shoes < 0:
        raise ValueError(f"shoes must be 0 or more, got {shoes}")
    _check_tallies(bounds, counts, sums, squares, sg_n_cards(&table))
    if not table.fresh_deck and cut_counts.shape[0] != table.cut_high - table.cut_low + 1:
        raise ValueError(f"cut_counts must hold {table.cut_high - table.cut_low + 1} places")
    if cut_counts.shape[0]:
        _check_aligned(&cut_counts[0], sizeof(int64_t), "cut_counts")
    cdef Py_ssize_t rounds = bounds.shape[0] - 1, i
    cdef int64_t k = bounds[rounds], n = sg_n_cards(&table), dealt = 0, place = 0, shortest = SG_MAX_CARDS
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef uint8_t* buffers = <uint8_t*>malloc(2 * SG_MAX_CARDS)
    if buffers == NULL:
        raise MemoryError()
    cdef uint8_t* deck = buffers
    cdef uint8_t* before = buffers + SG_MAX_CARDS
    cdef uint8_t* swap
    try:
        with bit_generator.lock, nogil:
            for i in range(shoes):
                dealt = _deal_shoe(rng.next_uint64, rng.state, &table, deck, &place)
                if dealt < shortest:
                    shortest = dealt
                if dealt < k:
                    break
                _tally_shoe(deck, before if i else NULL, &bounds[0], rounds, &counts[0, 0] if k else NULL,
                            &sums[0], &squares[0])
                if not table.fresh_deck:
                    cut_counts[place - table.cut_low] += 1
                swap = before
                before = deck
                deck = swap
        if shoes and shortest < k:
            raise ValueError(f"a shoe dealt {shortest} cards, fewer than the {k} tallied")
    finally:
        free(buffers)
    return None


@cython.boundscheck(False)
@cython.wraparound(False)
def shuffle_tally_cards(const uint8_t[:, ::1] cards not None, const int64_t[::1] bounds not None,
                        int64_t[:, ::1] counts not None, int64_t[::1] sums not None, double[::1] squares not None):
    """Add the tallies of recorded shoes, one a row (the row before a shoe's is the shoe
    before it), over their first ``bounds[-1]`` cards, as ``shuffle_tally`` adds dealt ones.
    Returns -1, or the first row whose first cards hold a code that is no card (>= 52), where
    it stopped (the rows before it added)."""
    _check_tallies(bounds, counts, sums, squares, cards.shape[1])
    cdef Py_ssize_t rounds = bounds.shape[0] - 1, shoes = cards.shape[0], i, p
    cdef int64_t k = bounds[rounds], bad = -1
    with nogil:
        for i in range(shoes):
            for p in range(k):
                if cards[i, p] >= 52:
                    bad = i
                    break
            if bad >= 0:
                break
            if k:
                _tally_shoe(&cards[i, 0], &cards[i - 1, 0] if i else NULL, &bounds[0], rounds, &counts[0, 0],
                            &sums[0], &squares[0])
    return bad
