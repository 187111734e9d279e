# Playing shoes (included into _core.pyx; sanggong.shoe is the public side and explains the
# method; the twin is _kernels.twin.play_chunk). Shoes dealt by the shoe procedure (sg_deal.h),
# as simulate_chunk and sanggong.dealing.Game deal them. Before each round: every bet's
# exact EV of the unseen cards (perfect information) and each tag vector's true count;
# after it, each bet's outcome counted by true-count bin (and, where the EV is positive, as
# a perfect-information bet), then the seen cards leave the shoe.

cdef enum:
    M_EV_BET = 0  # sum of the EV over the rounds perfect information bets
    M_EV = 1  # sum of the EV over every round
    M_EV2 = 2
    M_TC = 3
    M_TC2 = 4
    M_TC_EV = 5
    N_MOMENTS = 6
    MAX_TAGS = 64  # a multiple of 8 (sg_count_cards)
    MAX_KERNEL_TAG = 127  # a round's change of a running count then fits 16 bits
    BET_ROW = 0  # the fields of a bet's record in play_chunk
    BET_KEY = 1
    BET_TAG = 2
    BET_HIST = 3
    BET_FIELDS = 4


ctypedef struct play_t:
    # what play_chunk's loop reads, its arguments checked (the loop copies what it reads
    # every round into locals: a store through a pointer may alias any field)
    sg_params table
    const lookups_t* t
    shoe_state_t* state  # the kernel's, or NULL (fixed EVs, or none)
    const uint8_t* columns
    const int32_t* bet_row
    const double* row_scale
    const uint8_t* row_part
    const double* fixed_ev
    const int16_t* by_rank  # tags[i, r] at [r * tag_stride + i]
    Py_ssize_t m, codes, bins, n_tags, tag_stride, n_rows, bin_zero
    double bin_width
    bint burned_seen, perfect
    uint64_t* count_hist
    uint64_t* perfect_hist
    double* ev_bins
    double* moments
    const uint8_t* stop


ctypedef struct play_bets_t:
    # each bet's settlement and counting in one record (BET_FIELDS a bet): its row's
    # offset, the key it reads, its tag vector and its histogram; and the key patterns: the
    # distinct (ka, kb, kc, kd) of the bets (4 a pattern), with the hands bets read under
    # each (SG_MAX_HANDS a pattern), and a round's key of each pattern for each hand (a
    # bet reads it at pattern * hands + its hand)
    int64_t* bet
    int64_t* pattern
    int64_t* keys
    int64_t* pattern_hands
    int64_t* pattern_count
    Py_ssize_t n_patterns


cdef inline double _i128_double(sg_i128 v) noexcept nogil:
    # a value within 64 bits converts in one rounding; hi * 2**64 + lo would cancel
    # catastrophically for a small negative value (hi = -1, lo near 2**64)
    if (v.hi == 0 and v.lo < (<uint64_t>1 << 63)) or (v.hi == -1 and v.lo >= (<uint64_t>1 << 63)):
        return <double>(<int64_t>v.lo)
    return <double>v.hi * 18446744073709551616.0 + <double>v.lo


@cython.boundscheck(False)
@cython.wraparound(False)
def play_chunk(bit_generator, Lookups lookups not None, const int64_t[::1] params, Py_ssize_t shoes,
               plan, const uint8_t[:, ::1] columns not None, ShoeKernel kernel,
               const int32_t[::1] bet_row not None, const double[::1] row_scale not None,
               const uint8_t[::1] row_part not None, const double[::1] fixed_ev not None,
               const int32_t[:, ::1] tags not None, const int32_t[::1] bet_tag not None,
               double bin_width, Py_ssize_t bin_zero, bint burned_seen,
               uint64_t[:, :, ::1] count_hist not None, uint64_t[:, ::1] perfect_hist not None,
               double[:, ::1] ev_bins not None, double[:, ::1] moments not None,
               const uint8_t[::1] stop not None):
    """Deal ``shoes`` shoes (a fresh deck: a round each) and count, for every bet j of
    ``plan``, its outcomes (the column ``columns[row, key]`` its settlement row and key
    give, in place of the outcome code of ``plan.outcome_codes``) by the true count of its tag vector
    (``count_hist[bin, j]``: a round's counts lie close together) and, when ``kernel`` (the unseen composition's EVs, a full
    shoe when called) or ``fixed_ev`` (a fresh deck's) is given, over the rounds its EV
    is positive (``perfect_hist[j]``), with the EV's sums (``ev_bins``, ``moments``).
    Returns (rounds, shoes) done: fewer when ``stop[0]`` was set (read every shoe)."""
    cdef play_t g
    cdef sg_settlement view
    _dealt_table(params, &g.table, True)
    g.t = &lookups.t
    arrays = _settlement(plan, sg_hands(&g.table), g.t.n_classes, &view)
    _check_play_bets(&view, columns, count_hist, tags, bet_tag, bet_row, &g)
    if not (1e-6 <= bin_width <= 1e6 and 0 <= bin_zero < g.bins <= (1 << 20)):
        raise ValueError("the true-count bins are ill-formed")
    _check_play_evs(&g, kernel, bet_row, row_scale, row_part, fixed_ev, perfect_hist, ev_bins, moments)
    _check_aligned(&count_hist[0, 0, 0], sizeof(uint64_t), "count_hist")
    if stop.shape[0] < 1:
        raise ValueError("stop must hold one flag")
    g.bin_width = bin_width
    g.bin_zero = bin_zero
    g.burned_seen = burned_seen
    g.columns = &columns[0, 0]
    g.bet_row = &bet_row[0]
    g.count_hist = &count_hist[0, 0, 0]
    g.stop = &stop[0]
    cdef int16_t by_rank[13 * MAX_TAGS]  # zero-padded to whole blocks of 8 (sg_count_cards)
    cdef Py_ssize_t i, r
    g.tag_stride = (g.n_tags + 7) & ~7
    for r in range(13):
        for i in range(g.tag_stride):
            by_rank[r * g.tag_stride + i] = tags[i, r] if i < g.n_tags else 0
    g.by_rank = by_rank
    return _play(bit_generator, &g, &view, bet_tag, shoes)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _check_play_bets(const sg_settlement* view, const uint8_t[:, ::1] columns,
                          uint64_t[:, :, ::1] count_hist, const int32_t[:, ::1] tags,
                          const int32_t[::1] bet_tag, const int32_t[::1] bet_row, play_t* g) except -1:
    """play_chunk's bets: a tag vector and an EV row each, the columns of their outcomes
    inside count_hist's, the tags within the kernel's bound."""
    cdef Py_ssize_t m = view.bets, key_space = view.key_space, n_tags = tags.shape[0], i, j, r
    cdef Py_ssize_t bins = count_hist.shape[0], codes = count_hist.shape[2]
    # before any element is read: the shapes, then the alignment (a typed memoryview does
    # not check it, and a misaligned int32 or double read is undefined: see _check_aligned)
    if not (1 <= m and bet_tag.shape[0] == m and bet_row.shape[0] == m and 1 <= n_tags <= MAX_TAGS
            and tags.shape[1] == 13):
        raise ValueError(f"the bets' arrays (plan, bet_tag, bet_row) must have a value for every bet, and tags "
                         f"must be (1..{MAX_TAGS}, 13)")
    _check_aligned(&tags[0, 0], sizeof(int32_t), "tags")
    _check_aligned(&bet_tag[0], sizeof(int32_t), "bet_tag")
    _check_aligned(&bet_row[0], sizeof(int32_t), "bet_row")
    if (count_hist.shape[1] != m or bins < 1 or codes < 1 or columns.shape[1] != key_space
            or columns.shape[0] * key_space != view.outcome_codes_len):
        raise ValueError("count_hist must be (bins, bets, codes) and columns (plan rows, key space)")
    for j in range(columns.shape[0]):
        for i in range(key_space):
            if columns[j, i] >= codes:
                raise ValueError(f"columns names an outcome column outside count_hist in row {j}")
    for i in range(n_tags):
        for r in range(13):
            if not -MAX_KERNEL_TAG <= tags[i, r] <= MAX_KERNEL_TAG:
                raise ValueError(f"tag {tags[i, r]} is beyond +-{MAX_KERNEL_TAG}")
    for j in range(m):
        if not 0 <= bet_tag[j] < n_tags:
            raise ValueError(f"bet {j}'s tag vector is outside tags")
    g.m, g.codes, g.bins, g.n_tags = m, codes, bins, n_tags
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _check_play_evs(play_t* g, ShoeKernel kernel, const int32_t[::1] bet_row, const double[::1] row_scale,
                         const uint8_t[::1] row_part, const double[::1] fixed_ev, uint64_t[:, ::1] perfect_hist,
                         double[:, ::1] ev_bins, double[:, ::1] moments) except -1:
    """play_chunk's perfect information: a kernel that follows the shoe (starting full) or a
    fresh deck's fixed EVs, never both, and the arrays of its counts and sums."""
    cdef Py_ssize_t m = g.m, j, i
    cdef int64_t n_cards = sg_n_cards(&g.table)
    if row_scale.shape[0]:
        _check_aligned(&row_scale[0], sizeof(double), "row_scale")
    if fixed_ev.shape[0]:
        _check_aligned(&fixed_ev[0], sizeof(double), "fixed_ev")
    g.perfect = kernel is not None or fixed_ev.shape[0] > 0
    g.n_rows = kernel.s.rows if kernel is not None else fixed_ev.shape[0]
    if kernel is not None and fixed_ev.shape[0] > 0:
        raise ValueError("give a kernel or fixed EVs, not both")
    if kernel is not None and g.table.fresh_deck:
        raise ValueError("a fresh deck has fixed EVs: give them, not a kernel")
    if kernel is not None:  # it follows this shoe: it must start as the full shoe
        for i in range(52):
            if kernel.s.cards[i] != n_cards // 52:
                raise ValueError(f"the kernel holds {kernel.s.cards[i]} of card {i}, not the full shoe's {n_cards // 52}")
    g.state = &kernel.s if kernel is not None else NULL
    g.fixed_ev = &fixed_ev[0] if fixed_ev.shape[0] else NULL
    g.row_scale = &row_scale[0] if g.n_rows else NULL
    g.row_part = &row_part[0] if g.n_rows else NULL
    g.perfect_hist = NULL
    g.ev_bins = NULL
    g.moments = NULL
    if not g.perfect:
        return 0
    if (perfect_hist.shape[0] != m or perfect_hist.shape[1] != g.codes or ev_bins.shape[0] != g.bins
            or ev_bins.shape[1] != m or moments.shape[0] != m or moments.shape[1] != N_MOMENTS
            or row_scale.shape[0] != g.n_rows or row_part.shape[0] != g.n_rows):
        raise ValueError("the perfect-information arrays have the wrong shapes")
    for j in range(m):
        if not 0 <= bet_row[j] < g.n_rows:
            raise ValueError(f"bet {j}'s EV row is outside the kernel's rows")
    _check_aligned(&perfect_hist[0, 0], sizeof(uint64_t), "perfect_hist")
    _check_aligned(&ev_bins[0, 0], sizeof(double), "ev_bins")
    _check_aligned(&moments[0, 0], sizeof(double), "moments")
    g.perfect_hist = &perfect_hist[0, 0]
    g.ev_bins = &ev_bins[0, 0]
    g.moments = &moments[0, 0]
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _bet_records(const sg_settlement* view, const int32_t[::1] bet_tag, Py_ssize_t codes,
                      int64_t hands, play_bets_t* b) except -1:
    """Each bet's record and the key patterns (play_bets_t)."""
    cdef Py_ssize_t n_patterns = 0, p = 0, i, j
    cdef int64_t* pattern = b.pattern
    for j in range(view.bets):
        for p in range(n_patterns + 1):
            if p == n_patterns:  # a new pattern
                pattern[4 * p] = view.ka[j]
                pattern[4 * p + 1] = view.kb[j]
                pattern[4 * p + 2] = view.kc[j]
                pattern[4 * p + 3] = view.kd[j]
                b.pattern_count[p] = 0
                n_patterns += 1
                break
            if (pattern[4 * p] == view.ka[j] and pattern[4 * p + 1] == view.kb[j]
                    and pattern[4 * p + 2] == view.kc[j] and pattern[4 * p + 3] == view.kd[j]):
                break
        for i in range(b.pattern_count[p] + 1):
            if i == b.pattern_count[p]:
                b.pattern_hands[p * SG_MAX_HANDS + i] = view.hand[j]
                b.pattern_count[p] += 1
                break
            if b.pattern_hands[p * SG_MAX_HANDS + i] == view.hand[j]:
                break
        b.bet[BET_FIELDS * j + BET_ROW] = view.row[j] * view.key_space
        b.bet[BET_FIELDS * j + BET_KEY] = p * hands + view.hand[j]
        b.bet[BET_FIELDS * j + BET_TAG] = bet_tag[j]
        b.bet[BET_FIELDS * j + BET_HIST] = j * codes
    b.n_patterns = n_patterns
    return 0


cdef object _play(object bit_generator, play_t* g, const sg_settlement* view, const int32_t[::1] bet_tag,
                  Py_ssize_t shoes):
    """play_chunk's shoes, its arguments checked into g: (rounds, shoes) done."""
    cdef Py_ssize_t m = g.m
    cdef int64_t n_cards = sg_n_cards(&g.table), hands = sg_hands(&g.table), rounds = 0, shoes_done = 0
    cdef shoe_state_t start_state
    if g.state != NULL:
        start_state = g.state[0]  # the full shoe, restored at every shuffle (and at the end)
    cdef bitgen_t* rng = _bitgen(bit_generator)
    # one block: the bets' records and patterns (play_bets_t), then the shoe and a fresh shoe
    cdef int64_t* block = <int64_t*>malloc((BET_FIELDS + 5 + 2 * SG_MAX_HANDS) * m * sizeof(int64_t) + 2 * n_cards)
    if block == NULL:
        raise MemoryError()
    cdef play_bets_t b
    b.bet = block
    b.pattern = b.bet + BET_FIELDS * m
    b.keys = b.pattern + 4 * m
    b.pattern_hands = b.keys + SG_MAX_HANDS * m
    b.pattern_count = b.pattern_hands + SG_MAX_HANDS * m
    cdef uint8_t* deck = <uint8_t*>(b.pattern_count + m)
    cdef Py_ssize_t i
    for i in range(n_cards):
        deck[n_cards + i] = i % 52
    _bet_records(view, bet_tag, g.codes, hands, &b)
    try:
        with bit_generator.lock, nogil:
            shoes_done = _play_shoes(g, b, rng, deck, deck + n_cards, &start_state, shoes, &rounds)
    finally:
        free(block)
        if g.state != NULL:
            g.state[0] = start_state
    return rounds, shoes_done


@cython.cdivision(True)
cdef Py_ssize_t _play_shoes(const play_t* g, const play_bets_t b, bitgen_t* rng, uint8_t* deck, const uint8_t* ordered,
                            const shoe_state_t* start_state, Py_ssize_t shoes, int64_t* rounds) noexcept nogil:
    """play_chunk's loop: up to ``shoes`` shoes (until g.stop[0] is set, read every shoe),
    each round by the shoe procedure; the shoes done, and the rounds to *rounds."""
    # (every value a round reads in a local: a store through a pointer may alias any field)
    cdef const sg_params* table = &g.table
    cdef int64_t n_cards = sg_n_cards(table), hands = sg_hands(table)
    cdef bint fresh = table.fresh_deck != 0, head = table.head_card != 0
    cdef bint head_burned = head and table.head_card_burned != 0, one = sg_one_by_one(head, table.one_at_a_time != 0)
    cdef int64_t burn_first = table.burn_first, burn_later = table.burn_per_round
    cdef int64_t cut_low = table.cut_low, cut_high = table.cut_high
    cdef shoe_state_t* state = g.state
    cdef Py_ssize_t m = g.m, codes = g.codes, n_tags = g.n_tags, n_rows = g.n_rows, tag_stride = g.tag_stride
    cdef Py_ssize_t per_bin = m * codes  # a bin's counts are every bet's, side by side
    cdef bint perfect = g.perfect, burned_seen = g.burned_seen
    cdef const uint8_t* colp = g.columns
    cdef uint64_t* histp = g.count_hist
    cdef const uint8_t* stopp = g.stop
    cdef const int16_t* by_rank = g.by_rank
    cdef const lookups_t* t = g.t
    cdef const double* scalep = g.row_scale
    cdef const uint8_t* partp = g.row_part
    cdef const int32_t* browp = g.bet_row
    cdef uint64_t* perfp = g.perfect_hist
    cdef double* evbp = g.ev_bins
    cdef double* momp = g.moments
    cdef double bin_width = g.bin_width
    cdef Py_ssize_t bin_zero = g.bin_zero, bins = g.bins
    cdef uint8_t cards[SG_MAX_ROUND_CARDS]
    cdef int64_t picked[SG_MAX_ROUND_CARDS]
    cdef uint16_t rank[SG_MAX_HANDS]
    cdef uint8_t cls[SG_MAX_HANDS]
    cdef uint8_t pp[SG_MAX_HANDS]
    cdef sg_i128 nums[SG_MAX_EV_ROWS]
    cdef double ev_row[SG_MAX_EV_ROWS]
    cdef bint positive[SG_MAX_EV_ROWS]
    cdef int32_t running[MAX_TAGS]
    cdef double tc[MAX_TAGS]
    cdef Py_ssize_t tc_bin[MAX_TAGS]
    cdef int64_t tc_base[MAX_TAGS]
    cdef int64_t pos, cut = 0, in_shoe, burn, count, start, seen_from, unseen, k
    cdef Py_ssize_t shoes_done = 0, r, i
    cdef bint last
    for r in range(n_rows if perfect and state == NULL else 0):
        ev_row[r] = g.fixed_ev[r]
        positive[r] = g.fixed_ev[r] > 0
    while shoes_done < shoes and not stopp[0]:
        # a fresh shoe: cards back in code order, the cut card placed
        memcpy(deck, ordered, n_cards)
        pos = 0
        in_shoe = 0
        unseen = n_cards
        if not fresh:
            cut = sg_cut_card(rng.next_uint64, rng.state, n_cards, cut_low, cut_high)
        if state != NULL:
            state[0] = start_state[0]
        for i in range(tag_stride):
            running[i] = 0
        last = False
        while not last:
            if state != NULL:  # the exact EVs of what is unseen now
                _unseen_evs(state, n_rows, scalep, partp, nums, ev_row, positive)
            _true_counts(running, n_tags, unseen, bin_width, bin_zero, bins, tc, tc_bin)
            # the round, by the shoe procedure (the same draws as deal_chunk's; its tests
            # compare both with Game), its hands read straight from the cards
            burn = sg_burn(in_shoe, burn_first, burn_later)
            count = sg_round_cards(burn, head_burned, hands)
            sg_draw(rng.next_uint64, rng.state, deck, n_cards, pos, count, cards, &picked[0] if fresh else NULL)
            start = pos
            pos += count
            in_shoe += 1
            last = fresh or sg_takes_cut(start, count, cut)
            if fresh:
                sg_reset(deck, ordered, n_cards, count, picked)
            _round_hands(t, cards + burn, head, head_burned, one, hands, rank, cls, pp)
            _round_keys(b, hands, rank, cls, pp)
            for i in range(n_tags):
                tc_base[i] = tc_bin[i] * per_bin
            sg_tally(b.bet, m, b.keys, colp, tc_base, histp)  # each bet's outcome, by true count
            if perfect:  # and where its EV is positive
                _perfect_bets(b, m, codes, colp, browp, tc, tc_bin, ev_row, positive, perfp, evbp, momp)
            rounds[0] += 1
            # the seen cards leave the unseen: every hand's, the head card, burns if shown
            seen_from = 0 if burned_seen else burn
            sg_count_cards(cards + seen_from, count - seen_from, by_rank, tag_stride, running)
            if state != NULL:
                for k in range(seen_from, count):
                    state.cards[cards[k]] -= 1
                    state.by_kind[state.fold[cards[k]]] -= 1
                state.n_cards -= count - seen_from
            unseen -= count - seen_from
        shoes_done += 1
    return shoes_done


cdef inline void _unseen_evs(const shoe_state_t* state, Py_ssize_t n_rows, const double* scale, const uint8_t* part,
                             sg_i128* nums, double* ev_row, bint* positive) noexcept nogil:
    """Every EV row of the unseen composition, and whether it is positive (exactly)."""
    cdef Py_ssize_t r
    _shoe_numerators(state, True, nums)
    cdef double nn = <double>state.n_cards
    cdef double single_total = nn * (nn - 1) * (nn - 2) / 6
    cdef double pairs_total = single_total * ((nn - 3) * (nn - 4) * (nn - 5) / 6)
    for r in range(n_rows):
        ev_row[r] = _i128_double(nums[r]) * scale[r] / (pairs_total if part[r] == PART_PAIRS else single_total)
        positive[r] = nums[r].hi > 0 or (nums[r].hi == 0 and nums[r].lo > 0)


cdef inline void _true_counts(const int32_t* running, Py_ssize_t n_tags, int64_t unseen, double bin_width,
                              Py_ssize_t bin_zero, Py_ssize_t bins, double* tc, Py_ssize_t* tc_bin) noexcept nogil:
    """Each tag vector's true count (per 52 unseen cards) and its bin."""
    cdef double per_card = 52.0 / <double>unseen
    cdef double scale = per_card / bin_width, x
    cdef Py_ssize_t i
    for i in range(n_tags):
        tc[i] = <double>running[i] * per_card
        x = <double>running[i] * scale + <double>bin_zero  # the bin, before flooring
        if x < 0:
            tc_bin[i] = 0
        elif x >= <double>bins:
            tc_bin[i] = bins - 1
        else:
            tc_bin[i] = <Py_ssize_t>x  # (x >= 0: truncation floors)
            if tc_bin[i] >= bins:
                tc_bin[i] = bins - 1


cdef inline void _round_hands(const lookups_t* t, const uint8_t* rest, bint head, bint head_burned, bint one,
                              int64_t hands, uint16_t* rank, uint8_t* cls, uint8_t* pp) noexcept nogil:
    """Every hand's rank, class and Pair Plus category from the round's cards after its
    burns (rest), dealt by the shoe procedure: from the hand a head card names (a burned
    one is not a hand's), else position 1 first; one card at a time round the table or
    three at once (a loop each: its stride a constant)."""
    cdef int64_t first = sg_first_dealt(head, rest[0], hands)
    if head_burned:
        rest += 1
    if one:
        _hand_values(t, rest, hands, first, True, rank, cls, pp)
    else:
        _hand_values(t, rest, hands, first, False, rank, cls, pp)


cdef inline void _hand_values(const lookups_t* t, const uint8_t* rest, int64_t hands, int64_t first, bint one,
                              uint16_t* rank, uint8_t* cls, uint8_t* pp) noexcept nogil:
    cdef const uint16_t* state_p = t.state
    cdef const uint16_t* value_p = t.value
    cdef const uint16_t* rank_p = t.rank
    cdef const uint8_t* cls_p = t.cls
    cdef bint plain = t.identity and t.class_identity  # the default ranking: the rid is rank and class
    cdef int64_t k, h = first
    cdef uint16_t v
    for k in range(hands):
        v = value_p[state_p[rest[sg_card_of(k, 0, hands, one)] * 52 + rest[sg_card_of(k, 1, hands, one)]]
                    + rest[sg_card_of(k, 2, hands, one)]]
        if plain:
            rank[h] = v >> 3
            cls[h] = <uint8_t>(v >> 3)
        else:
            rank[h] = rank_p[v >> 3]
            cls[h] = cls_p[v >> 3]
        pp[h] = v & 7
        h = sg_next_hand(h, hands)  # (the next dealt: sg_dealt_hand(k + 1, first, hands))


cdef inline void _round_keys(const play_bets_t b, int64_t hands, const uint16_t* rank, const uint8_t* cls,
                             const uint8_t* pp) noexcept nogil:
    """The key of each hand a bet reads, under each pattern (sg_key)."""
    cdef Py_ssize_t p, i
    cdef int64_t h
    cdef int order[SG_MAX_HANDS]
    cdef const int64_t* pat
    cdef int64_t* kp
    for h in range(hands):
        order[h] = sg_order(rank[h], rank[0])
    for p in range(b.n_patterns):
        pat = &b.pattern[4 * p]
        kp = &b.keys[p * hands]
        for i in range(b.pattern_count[p]):
            h = b.pattern_hands[p * SG_MAX_HANDS + i]
            kp[h] = sg_key(<int32_t>pat[0], <int32_t>pat[1], <int32_t>pat[2], <int32_t>pat[3], cls[h], pp[h], cls[0],
                           order[h])


cdef inline void _perfect_bets(const play_bets_t b, Py_ssize_t m, Py_ssize_t codes, const uint8_t* colp,
                               const int32_t* browp, const double* tc, const Py_ssize_t* tc_bin, const double* ev_row,
                               const bint* positive, uint64_t* perfp, double* evbp, double* momp) noexcept nogil:
    """Each bet's outcome where its EV is positive, and the EV's sums (perfect information)."""
    cdef Py_ssize_t j, i, r
    cdef const int64_t* bj
    cdef uint8_t col
    cdef double e, x
    for j in range(m):
        bj = &b.bet[BET_FIELDS * j]
        col = colp[bj[BET_ROW] + b.keys[bj[BET_KEY]]]
        i = bj[BET_TAG]
        r = browp[j]
        e = ev_row[r]
        x = tc[i]
        if positive[r]:
            perfp[j * codes + col] += 1
            momp[j * N_MOMENTS + M_EV_BET] += e
        evbp[tc_bin[i] * m + j] += e
        momp[j * N_MOMENTS + M_EV] += e
        momp[j * N_MOMENTS + M_EV2] += e * e
        momp[j * N_MOMENTS + M_TC] += x
        momp[j * N_MOMENTS + M_TC2] += x * x
        momp[j * N_MOMENTS + M_TC_EV] += x * e
