# The shoe evaluator and the shoe player (included into _core.pyx; sanggong.shoe is
# the public side and explains the method). Twins: _reference.ShoeKernel, play_chunk.

cdef extern from "_shoe.h" nogil:
    ctypedef struct sg_i128:
        uint64_t lo
        int64_t hi
    void sg_binoms(const int64_t *counts, int64_t kinds, int64_t top, int64_t *B)
    void sg_suit_table(const int64_t *cards, const uint8_t *suit_order, int64_t *E)
    void sg_card_binoms(const int64_t *cards, int64_t *B)
    void sg_multiset_dot(const int64_t *B, const uint16_t *idx, int64_t width, int64_t n,
                         const int64_t *values, int64_t rows, int narrow, sg_i128 *out)
    void sg_count_cards(const uint8_t *cards, int64_t n, const int16_t *by_rank, int64_t stride,
                        int32_t *running)
    void sg_tally(const int64_t *bets, int64_t m, const int64_t *keys, const uint8_t *cols,
                  const int64_t *bin_base, uint64_t *hist)
    enum:
        SG_BINOM_STRIDE
        SG_MAX_EV_ROWS
    const int64_t SG_MAX_TIE_VALUE
    enum:
        SG_RANKS_AT
        SG_CARDS_TABLE

cdef enum:
    PART_PAIRS = 0  # the position bets: 6-card multisets of counting kinds
    PART_SINGLE = 1  # one hand's class: 3-card multisets of counting kinds
    PART_CARDS = 2  # Pair Plus: 3-card multisets of the 52 cards
    N_PARTS = 3
    SHOE_MAX_PER_CARD = 64  # a shoe holds at most 64 decks


ctypedef struct shoe_part_t:
    const uint16_t* idx  # (n, width) indices into the binomial table of its kinds
    const int64_t* values  # (n, rows) scaled net value of each multiset for each row
    int64_t width
    int64_t n
    int64_t rows
    double most  # the largest |value| (rounded up), times the weights' bound factor (see _narrow)


ctypedef struct shoe_state_t:
    shoe_part_t part[N_PARTS]
    int64_t kinds  # counting kinds (11 or 13)
    uint8_t fold[52]  # card code -> counting kind
    bint ties  # suits break ties: the pairs' table holds each rank's E_t(a, b) (sanggong.shoe)
    uint8_t suit_order[4]  # then the suit codes, weakest first
    int64_t cards[52]  # unseen cards of each code
    int64_t by_kind[52]  # unseen cards of each counting kind
    int64_t n_cards
    int64_t rows  # rows of all parts together


cdef inline int _narrow(const shoe_part_t* p, int64_t n_cards) noexcept nogil:
    """Whether a part's sums fit 64 bits for a shoe of n_cards: its weights sum to at most
    C(n_cards, width) (times 65 with suit tie terms, 2 for Pair Plus's: folded into ``most``), and every
    partial sum is at most that times the largest |value|. In doubles, with a factor 2 of
    margin for their rounding."""
    cdef double bound = 1.0, nn = <double>n_cards
    cdef int64_t j
    for j in range(p.width):
        bound = bound * (nn - j) / (j + 1)
    return bound * p.most < 4.6e18  # 2**62


cdef inline void _shoe_numerators(const shoe_state_t* s, bint with_pairs, sg_i128* out) noexcept nogil:
    """Each row's sum of weight x scaled net, parts in order (pairs, single, cards); the
    pairs' rows are left alone when ``with_pairs`` is false."""
    cdef int64_t bk[SG_BINOM_STRIDE * 53]  # (13 kinds with ties: 8 * 13 + 1 + 16 * 13 entries)
    cdef int64_t bc[SG_CARDS_TABLE]
    cdef int64_t at = 0
    cdef const shoe_part_t* p
    if s.part[PART_PAIRS].n or s.part[PART_SINGLE].n:
        sg_binoms(s.by_kind, s.kinds, 6 if (with_pairs and s.part[PART_PAIRS].n) else 3, bk)
        if s.ties and with_pairs and s.part[PART_PAIRS].n:
            sg_suit_table(s.cards, s.suit_order, bk + SG_BINOM_STRIDE * s.kinds + 1)
    if s.part[PART_CARDS].n:
        sg_card_binoms(s.cards, bc)
    p = &s.part[PART_PAIRS]  # (a part of rows but no multisets sums to 0: dot zeroes them)
    if p.rows and with_pairs:
        sg_multiset_dot(bk, p.idx, p.width, p.n, p.values, p.rows, _narrow(p, s.n_cards), out)
    at += p.rows
    p = &s.part[PART_SINGLE]
    if p.rows:
        sg_multiset_dot(bk, p.idx, p.width, p.n, p.values, p.rows, _narrow(p, s.n_cards), out + at)
    at += p.rows
    p = &s.part[PART_CARDS]
    if p.rows:
        sg_multiset_dot(bc, p.idx, p.width, p.n, p.values, p.rows, _narrow(p, s.n_cards), out + at)


def _int_array(value, name, ndim):
    """An integer array of ``ndim`` dimensions, as given (int64), or ValueError naming it."""
    import numpy as np
    arr = np.asarray(value)
    if arr.dtype == object:  # Python integers: only where each is an int that fits 64 bits
        if not all(isinstance(x, int) and not isinstance(x, bool) and -2**63 <= x < 2**63 for x in arr.ravel().tolist()):
            raise ValueError(f"the shoe plan's {name} holds a value that is not a 64-bit integer")
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu" or arr.ndim != ndim:
        raise ValueError(f"the shoe plan's {name} must be a {ndim}-dimensional integer array")
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) >= 2**63:
        raise ValueError(f"the shoe plan's {name} holds a value beyond 64 bits")
    return arr.astype(np.int64)


cdef inline object _i128(sg_i128 v):
    return (<object>v.hi << 64) | <object>v.lo


cdef class ShoeKernel:
    """The exact sums behind every bet's EV for an unseen composition, updated card by
    card (built by ``sanggong.shoe``; every index it will form is checked here)."""

    cdef shoe_state_t s
    cdef object _arrays
    cdef readonly object plan

    def __init__(self, plan, counts):
        import numpy as np
        kinds = plan.kinds
        if isinstance(kinds, bool) or not isinstance(kinds, int) or not 1 <= kinds <= 52:
            raise ValueError(f"a shoe plan counts over 1..52 kinds, not {kinds!r}")
        fold = _int_array(plan.fold, "fold", 1)
        if fold.shape != (52,) or int(fold.min()) < 0 or int(fold.max()) >= kinds:
            raise ValueError("the shoe plan's fold must give each of the 52 cards a kind of its own kinds")
        fold = fold.astype(np.uint8)
        self.s.kinds = kinds
        cdef Py_ssize_t total = 0, q
        suit_order = _int_array(plan.suit_order, "suit_order", 1)
        self.s.ties = suit_order.shape[0] > 0
        if self.s.ties:  # the ranks as kinds (so a rank's cards, at most 256, bound each term) and each suit once
            if (kinds != 13 or sorted(suit_order.tolist()) != [0, 1, 2, 3]
                    or not (fold == np.arange(52) // 4).all()):
                raise ValueError("a suit tie-break needs the 13 ranks as kinds and its suit order, each suit once")
            for q in range(4):
                self.s.suit_order[q] = suit_order[q]
        arrays = []
        cdef const uint16_t[:, ::1] idx
        cdef const int64_t[:, ::1] values
        for q, (name, width, part_kinds, top) in enumerate(
                (("pairs", 6, kinds, 6), ("single", 3, kinds, 3), ("cards", 3, 52, 3))):
            # every entry checked as given, before any cast could wrap it: a multiset holds
            # `width` cards of distinct kinds, each multiset once (so that the weights sum to
            # C(n, 6) < 2**61; Pair Plus's rank and suited multisets to 2 C(n, 3)), and every
            # value fits 64 bits (_int_array): the sums stay within 128 bits (with suit ties:
            # see _shoe.h). Past the padding: the tie terms E_t(a, b) at 16 t + 4 a + b, or
            # Pair Plus's ranks' binomials (SG_RANKS_AT), a row of them or none
            entry = _int_array(getattr(plan, name + "_idx"), name + "_idx", 2)
            raw_values = _int_array(getattr(plan, name + "_values"), name + "_values", 2)
            n = entry.shape[0]
            if raw_values.shape[0] != n or (n and entry.shape[1] != width):
                raise ValueError(f"the shoe plan's {name} arrays have the wrong shapes")
            rows = raw_values.shape[1]
            ties = q == PART_PAIRS and self.s.ties
            if n:
                pad = entry == SG_BINOM_STRIDE * part_kinds
                past = entry - (SG_BINOM_STRIDE * part_kinds + 1)
                if ties:
                    extra = (past >= 0) & (past < 16 * part_kinds)
                    extra_kind, extra_mult = past // 16, past // 4 % 4 + past % 4
                    extra_bad = (past // 4 % 4 < 1) | (past % 4 < 1) | (extra.sum(axis=1) > 1)[:, None]
                elif q == PART_CARDS:
                    extra = (past >= 0) & (past < 13 * SG_BINOM_STRIDE)
                    extra_kind, extra_mult = part_kinds + past // SG_BINOM_STRIDE, past % SG_BINOM_STRIDE
                    extra_bad = ((extra_mult < 1) | (extra_mult > top)
                                 | (extra.any(axis=1) & (~pad & ~extra).any(axis=1))[:, None])
                else:
                    extra = extra_bad = np.zeros(entry.shape, dtype=bool)
                    extra_kind = extra_mult = entry
                plain = ~pad & ~extra
                kind = np.where(extra, extra_kind, entry // SG_BINOM_STRIDE)
                mult = np.where(extra, extra_mult, np.where(pad, 0, entry % SG_BINOM_STRIDE))
                if (int(entry.min()) < 0 or (plain & ((entry > SG_BINOM_STRIDE * part_kinds)
                                                       | (entry % SG_BINOM_STRIDE < 1)
                                                       | (entry % SG_BINOM_STRIDE > top))).any()
                        or (extra & extra_bad).any() or not (mult.sum(axis=1) == width).all()):
                    raise ValueError(f"the shoe plan's {name} multisets name an entry outside the binomials")
                ordered = np.sort(np.where(pad, -1 - np.arange(width), kind), axis=1)
                if (ordered[:, 1:] == ordered[:, :-1]).any():
                    raise ValueError(f"a multiset of the shoe plan's {name} names a kind twice")
                packed = (np.sort(entry, axis=1) << (10 * np.arange(width))).sum(axis=1)  # entries < 1024
                if len(np.unique(packed)) != n:
                    raise ValueError(f"a multiset of the shoe plan's {name} is given twice")
                if ties and ((raw_values <= -SG_MAX_TIE_VALUE) | (raw_values >= SG_MAX_TIE_VALUE)).any():
                    raise ValueError(f"the shoe plan's {name} values pass the suit ties' bound, 2**59")
            idx_arr = np.ascontiguousarray(entry, dtype=np.uint16)
            val_arr = np.ascontiguousarray(raw_values, dtype=np.int64)
            total += rows
            if total > SG_MAX_EV_ROWS:
                raise ValueError(f"a shoe plan holds at most {SG_MAX_EV_ROWS} rows")
            arrays += [idx_arr, val_arr]
            self.s.part[q].n = n
            self.s.part[q].width = width
            self.s.part[q].rows = rows
            # (the largest |value| as a Python int: abs(-2**63) does not fit an int64)
            most = max(-int(raw_values.min()), int(raw_values.max())) if raw_values.size else 0
            self.s.part[q].most = float(most + 1) * (65 if ties else 2 if q == PART_CARDS else 1)
            if n:
                idx = idx_arr
                values = val_arr
                self.s.part[q].idx = &idx[0, 0]
                self.s.part[q].values = &values[0, 0]
        self._arrays = arrays
        self.s.rows = total
        for q in range(52):
            self.s.fold[q] = fold[q]
        self.plan = plan
        self.set_counts(counts)

    def set_counts(self, counts):
        """Make the unseen composition ``counts`` (52 counts, each 0..64)."""
        cdef Py_ssize_t c
        values = [int(x) for x in counts]
        if len(values) != 52 or min(values) < 0 or max(values) > SHOE_MAX_PER_CARD:
            raise ValueError("a composition is 52 counts of 0..64")
        self.s.n_cards = 0
        for c in range(52):
            self.s.by_kind[c] = 0
        for c in range(52):
            self.s.cards[c] = values[c]
            self.s.by_kind[self.s.fold[c]] += values[c]
            self.s.n_cards += values[c]

    def remove(self, Py_ssize_t code):
        """One card of ``code`` leaves the unseen cards (seen, or dealt)."""
        if not 0 <= code < 52 or self.s.cards[code] == 0:
            raise ValueError(f"no card of code {code} is left to remove")
        self.s.cards[code] -= 1
        self.s.by_kind[self.s.fold[code]] -= 1
        self.s.n_cards -= 1

    def add(self, Py_ssize_t code):
        """One card of ``code`` returns to the unseen cards."""
        if not 0 <= code < 52 or self.s.cards[code] >= SHOE_MAX_PER_CARD:
            raise ValueError(f"cannot add a card of code {code}: at most {SHOE_MAX_PER_CARD} of a card")
        self.s.cards[code] += 1
        self.s.by_kind[self.s.fold[code]] += 1
        self.s.n_cards += 1

    @property
    def n_cards(self):
        return self.s.n_cards

    @property
    def counts(self):
        return [self.s.cards[c] for c in range(52)]

    def numerators(self, bint with_pairs=True):
        """Every row's exact sum (Python ints), parts in order: pairs, single, cards
        (the pairs' rows are 0 when ``with_pairs`` is false)."""
        cdef sg_i128 out[SG_MAX_EV_ROWS]
        cdef Py_ssize_t r
        for r in range(self.s.rows):
            out[r].lo = 0
            out[r].hi = 0
        with nogil:
            _shoe_numerators(&self.s, with_pairs, out)
        return [_i128(out[r]) for r in range(self.s.rows)]


# --- playing shoes ---------------------------------------------------------------------------
# Shoes dealt exactly as simulate_chunk (and sanggong.dealing.Game) deal them. Before each
# round: every bet's exact EV of the unseen cards (perfect information) and each tag
# vector's true count; after it, each bet's outcome counted by true-count bin (and, where
# the EV is positive, as a perfect-information bet), then the seen cards leave the shoe.

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


cdef inline double _i128_double(sg_i128 v) noexcept nogil:
    # a value within 64 bits converts in one rounding; hi * 2**64 + lo would cancel
    # catastrophically for a small negative value (hi = -1, lo near 2**64)
    if (v.hi == 0 and v.lo < (<uint64_t>1 << 63)) or (v.hi == -1 and v.lo >= (<uint64_t>1 << 63)):
        return <double>(<int64_t>v.lo)
    return <double>v.hi * 18446744073709551616.0 + <double>v.lo


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
def play_chunk(bit_generator, Tables tables not None, const int64_t[::1] params, Py_ssize_t shoes,
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
    give, in place of the outcome code of ``plan.table``) by the true count of its tag vector
    (``count_hist[bin, j]``: a round's counts lie close together) and, when ``kernel`` (the unseen composition's EVs, a full
    shoe when called) or ``fixed_ev`` (a fresh deck's) is given, over the rounds its EV
    is positive (``perfect_hist[j]``), with the EV's sums (``ev_bins``, ``moments``).
    Returns (rounds, shoes) done: fewer when ``stop[0]`` was set (read every shoe)."""
    if params.shape[0] != N_PARAMS:
        raise ValueError("params must hold 10 values")
    _check_aligned(&params[0], sizeof(int64_t), "params")
    cdef int64_t decks = params[P_DECKS], positions = params[P_POSITIONS]
    cdef int64_t hands = positions + 1
    cdef bint fresh = params[P_FRESH] != 0, head = params[P_HEAD] != 0
    cdef bint head_burned = params[P_HEAD_BURNED] != 0, one_at_a_time = params[P_ONE_AT_A_TIME] != 0
    cdef int64_t burn_first = params[P_BURN_FIRST], burn_later = params[P_BURN_LATER]
    cdef int64_t cut_lo = params[P_CUT_LO], cut_hi = params[P_CUT_HI]
    cdef int64_t n_cards = 52 * decks
    cdef int64_t head_card = 1 if head and head_burned else 0
    if not (1 <= decks <= 64 and 1 <= positions < MAX_HANDS and 0 <= burn_first <= 64 and 0 <= burn_later <= 64
            and burn_first + head_card + 3 * hands <= n_cards and (fresh or 1 <= cut_lo <= cut_hi < n_cards)):
        raise ValueError(f"params {list(params)} do not describe a table this kernel deals")
    if not fresh and burn_later + head_card + 3 * hands > cut_lo:
        raise ValueError("a later round may need more cards than the cut card leaves")
    cdef const tables_t* t = &tables.t
    cdef const uint8_t[::1] table = plan.table
    cdef const int32_t[::1] row = plan.row, hand = plan.hand, ka = plan.ka, kb = plan.kb, kc = plan.kc, kd = plan.kd
    cdef Py_ssize_t key_space = plan.key_space, m = row.shape[0], j, i, r
    if plan.n_classes != t.n_classes:
        raise ValueError("the settlement plan was made for another ranking")
    cdef Py_ssize_t bins = count_hist.shape[0], codes = count_hist.shape[2]
    cdef Py_ssize_t n_tags = tags.shape[0]
    # before any element is read: the shapes, then the alignment (a typed memoryview does
    # not check it, and a misaligned int32 or double read is undefined: see _check_aligned)
    if not (1 <= m and hand.shape[0] == m and ka.shape[0] == m and kb.shape[0] == m and kc.shape[0] == m
            and kd.shape[0] == m and bet_tag.shape[0] == m and bet_row.shape[0] == m
            and 1 <= n_tags <= MAX_TAGS and tags.shape[1] == 13):
        raise ValueError(f"the bets' arrays (plan, bet_tag, bet_row) must have a value for every bet, and tags "
                         f"must be (1..{MAX_TAGS}, 13)")
    _check_aligned(&tags[0, 0], sizeof(int32_t), "tags")
    _check_aligned(&bet_tag[0], sizeof(int32_t), "bet_tag")
    _check_aligned(&bet_row[0], sizeof(int32_t), "bet_row")
    _check_aligned(&row[0], sizeof(int32_t), "plan.row")
    _check_aligned(&hand[0], sizeof(int32_t), "plan.hand")
    _check_aligned(&ka[0], sizeof(int32_t), "plan.ka")
    _check_aligned(&kb[0], sizeof(int32_t), "plan.kb")
    _check_aligned(&kc[0], sizeof(int32_t), "plan.kc")
    _check_aligned(&kd[0], sizeof(int32_t), "plan.kd")
    if row_scale.shape[0]:
        _check_aligned(&row_scale[0], sizeof(double), "row_scale")
    if fixed_ev.shape[0]:
        _check_aligned(&fixed_ev[0], sizeof(double), "fixed_ev")
    _check_plan(table, key_space, t.n_classes, row, hand, ka, kb, kc, kd, hands)
    if (m < 1 or count_hist.shape[1] != m or bins < 1 or codes < 1 or columns.shape[1] != key_space
            or columns.shape[0] * key_space != table.shape[0]):
        raise ValueError("count_hist must be (bins, bets, codes) and columns (plan rows, key space)")
    for j in range(columns.shape[0]):
        for i in range(key_space):
            if columns[j, i] >= codes:
                raise ValueError(f"columns names an outcome column outside count_hist in row {j}")
    if not (1 <= n_tags <= MAX_TAGS) or tags.shape[1] != 13 or bet_tag.shape[0] != m:
        raise ValueError(f"tags must be (1..{MAX_TAGS}, 13) with a tag vector for every bet")
    for i in range(n_tags):
        for r in range(13):
            if not -MAX_KERNEL_TAG <= tags[i, r] <= MAX_KERNEL_TAG:
                raise ValueError(f"tag {tags[i, r]} is beyond +-{MAX_KERNEL_TAG}")
    for j in range(m):
        if not 0 <= bet_tag[j] < n_tags:
            raise ValueError(f"bet {j}'s tag vector is outside tags")
    if not (1e-6 <= bin_width <= 1e6 and 0 <= bin_zero < bins <= (1 << 20)):
        raise ValueError("the true-count bins are ill-formed")
    cdef bint perfect = kernel is not None or fixed_ev.shape[0] > 0
    cdef Py_ssize_t n_rows = kernel.s.rows if kernel is not None else fixed_ev.shape[0]
    if kernel is not None and fixed_ev.shape[0] > 0:
        raise ValueError("give a kernel or fixed EVs, not both")
    if kernel is not None and fresh:
        raise ValueError("a fresh deck has fixed EVs: give them, not a kernel")
    if kernel is not None:  # it follows this shoe: it must start as the full shoe
        for i in range(52):
            if kernel.s.cards[i] != n_cards // 52:
                raise ValueError(f"the kernel holds {kernel.s.cards[i]} of card {i}, not the full shoe's {n_cards // 52}")
    if perfect:
        if (perfect_hist.shape[0] != m or perfect_hist.shape[1] != codes or ev_bins.shape[0] != bins
                or ev_bins.shape[1] != m or moments.shape[0] != m or moments.shape[1] != N_MOMENTS
                or row_scale.shape[0] != n_rows or row_part.shape[0] != n_rows):
            raise ValueError("the perfect-information arrays have the wrong shapes")
        for j in range(m):
            if not 0 <= bet_row[j] < n_rows:
                raise ValueError(f"bet {j}'s EV row is outside the kernel's rows")
        _check_aligned(&perfect_hist[0, 0], sizeof(uint64_t), "perfect_hist")
        _check_aligned(&ev_bins[0, 0], sizeof(double), "ev_bins")
        _check_aligned(&moments[0, 0], sizeof(double), "moments")
    _check_aligned(&count_hist[0, 0, 0], sizeof(uint64_t), "count_hist")
    if stop.shape[0] < 1:
        raise ValueError("stop must hold one flag")
    cdef shoe_state_t* state = &kernel.s if kernel is not None else NULL
    cdef shoe_state_t start_state
    if state != NULL:
        start_state = state[0]  # the full shoe, restored at every shuffle
    cdef bitgen_t* rng = _bitgen(bit_generator)
    # one block: each bet's record (see below), then the shoe and a fresh shoe
    # (the key patterns: the distinct (ka, kb, kc, kd) of the bets, and a round's key of
    # each pattern for each hand, which a bet reads at pattern * hands + its hand)
    cdef int64_t* bet = <int64_t*>malloc((BET_FIELDS + 5 + 2 * MAX_HANDS) * m * sizeof(int64_t) + 2 * n_cards)
    if bet == NULL:
        raise MemoryError()
    cdef int64_t* pattern = bet + BET_FIELDS * m
    cdef int64_t* keys = pattern + 4 * m
    cdef int64_t* pattern_hands = keys + MAX_HANDS * m  # the hands bets read under each pattern
    cdef int64_t* pattern_count = pattern_hands + MAX_HANDS * m
    cdef uint8_t* deck = <uint8_t*>(pattern_count + m)
    cdef uint8_t* ordered = deck + n_cards
    for i in range(n_cards):
        ordered[i] = i % 52
    cdef uint8_t cards[1 + 64 + 3 * MAX_HANDS]
    cdef int64_t picked[1 + 64 + 3 * MAX_HANDS]
    cdef uint16_t rank[MAX_HANDS]
    cdef uint8_t cls[MAX_HANDS]
    cdef uint8_t pp[MAX_HANDS]
    cdef uint8_t c0, c1, c2, col
    cdef uint16_t v
    cdef int order
    cdef int64_t pos = 0, cut = 0, in_shoe = 0, burn, count, start, first, k, h
    cdef int64_t rounds = 0, shoes_done = 0, seen_from, unseen = n_cards
    cdef bint last = True
    cdef uint8_t* rest
    cdef sg_i128 nums[SG_MAX_EV_ROWS]
    cdef double ev_row[SG_MAX_EV_ROWS]
    cdef bint positive[SG_MAX_EV_ROWS]
    cdef int32_t running[MAX_TAGS]
    # tags[i, r] at [r * tag_stride + i], zero-padded to whole blocks of 8 (sg_count_cards)
    cdef int16_t by_rank[13 * MAX_TAGS]
    cdef Py_ssize_t tag_stride = (n_tags + 7) & ~7
    cdef double per_card, scale
    cdef double tc[MAX_TAGS]
    cdef Py_ssize_t tc_bin[MAX_TAGS]
    cdef double pairs_total, single_total, nn, e, x, b
    cdef const uint16_t* state_p = t.state
    cdef const uint16_t* value_p = t.value
    cdef const uint16_t* rank_p = t.rank
    cdef const uint8_t* cls_p = t.cls
    cdef bint plain = t.identity and t.class_identity  # the default ranking: the rid is rank and class
    cdef const uint8_t* colp = &columns[0, 0]
    cdef const int32_t* browp = &bet_row[0]
    cdef const double* scalep = &row_scale[0] if n_rows else NULL
    cdef const uint8_t* partp = &row_part[0] if n_rows else NULL
    cdef Py_ssize_t per_bin = m * codes  # a bin's counts are every bet's, side by side
    # each bet's settlement and counting in one record: its row's offset, the key's
    # coefficients, its hand, tag vector and histogram (indices checked above)
    cdef Py_ssize_t n_patterns = 0, p
    for j in range(m):
        for p in range(n_patterns + 1):
            if p == n_patterns:  # a new pattern
                pattern[4 * p] = ka[j]
                pattern[4 * p + 1] = kb[j]
                pattern[4 * p + 2] = kc[j]
                pattern[4 * p + 3] = kd[j]
                pattern_count[p] = 0
                n_patterns += 1
                break
            if (pattern[4 * p] == ka[j] and pattern[4 * p + 1] == kb[j] and pattern[4 * p + 2] == kc[j]
                    and pattern[4 * p + 3] == kd[j]):
                break
        for i in range(pattern_count[p] + 1):
            if i == pattern_count[p]:
                pattern_hands[p * MAX_HANDS + i] = hand[j]
                pattern_count[p] += 1
                break
            if pattern_hands[p * MAX_HANDS + i] == hand[j]:
                break
        bet[BET_FIELDS * j + BET_ROW] = row[j] * key_space
        bet[BET_FIELDS * j + BET_KEY] = p * hands + hand[j]
        bet[BET_FIELDS * j + BET_TAG] = bet_tag[j]
        bet[BET_FIELDS * j + BET_HIST] = j * codes
    cdef const int64_t* bj
    cdef const int64_t* pat
    cdef int64_t* kp
    cdef int64_t hand_order[MAX_HANDS]
    cdef int64_t tc_base[MAX_TAGS]
    cdef uint16_t rank0
    cdef uint8_t cls0
    for k in range(13):
        for i in range(tag_stride):
            by_rank[k * tag_stride + i] = tags[i, k] if i < n_tags else 0
    cdef uint64_t* histp = &count_hist[0, 0, 0]
    cdef uint64_t* perfp = &perfect_hist[0, 0] if perfect else NULL
    cdef double* evbp = &ev_bins[0, 0] if perfect else NULL
    cdef double* momp = &moments[0, 0] if perfect else NULL
    cdef const uint8_t* stopp = &stop[0]
    for r in range(n_rows if perfect and kernel is None else 0):
        ev_row[r] = fixed_ev[r]
        positive[r] = fixed_ev[r] > 0
    try:
        with bit_generator.lock, nogil:
            while shoes_done < shoes and not stopp[0]:
                # a fresh shoe: cards back in code order, the cut card placed
                memcpy(deck, ordered, n_cards)
                pos = 0
                in_shoe = 0
                unseen = n_cards
                if not fresh:
                    cut = n_cards - (cut_lo + <int64_t>_below(rng, <uint64_t>(cut_hi - cut_lo + 1)))
                if state != NULL:
                    state[0] = start_state
                for i in range(tag_stride):
                    running[i] = 0
                last = False
                while not last:
                    if state != NULL:  # the exact EVs of what is unseen now
                        _shoe_numerators(state, True, nums)
                        nn = <double>state.n_cards
                        single_total = nn * (nn - 1) * (nn - 2) / 6
                        pairs_total = single_total * ((nn - 3) * (nn - 4) * (nn - 5) / 6)
                        for r in range(n_rows):
                            ev_row[r] = _i128_double(nums[r]) * scalep[r] / (
                                pairs_total if partp[r] == PART_PAIRS else single_total)
                            positive[r] = nums[r].hi > 0 or (nums[r].hi == 0 and nums[r].lo > 0)
                    per_card = 52.0 / <double>unseen
                    scale = per_card / bin_width
                    for i in range(n_tags):  # true counts: per 52 unseen cards
                        tc[i] = <double>running[i] * per_card
                        b = <double>running[i] * scale + <double>bin_zero  # the bin, before flooring
                        if b < 0:
                            tc_bin[i] = 0
                        elif b >= <double>bins:
                            tc_bin[i] = bins - 1
                        else:
                            tc_bin[i] = <Py_ssize_t>b  # (b >= 0: truncation floors)
                            if tc_bin[i] >= bins:
                                tc_bin[i] = bins - 1
                    # the round dealt as deal_chunk's _shoe_round deals it (the same draws; its
                    # tests compare both with Game), here inline and reading the hands straight
                    # from the cards: calling it cost this loop a tenth of its speed
                    burn = burn_first if in_shoe == 0 else burn_later
                    count = burn + (1 if head and head_burned else 0) + 3 * hands
                    sg_draw(rng.next_uint64, rng.state, deck, n_cards, pos, count, cards,
                            &picked[0] if fresh else NULL)
                    start = pos
                    pos += count
                    in_shoe += 1
                    last = fresh or (start <= cut < pos)
                    if fresh:
                        sg_reset(deck, ordered, n_cards, count, picked)
                    rest = cards + burn
                    if head:
                        first = (rest[0] >> 2) & 3
                        if head_burned:
                            rest += 1
                        for k in range(hands):
                            h = first + k
                            while h >= hands:
                                h -= hands
                            v = value_p[state_p[rest[3 * k] * 52 + rest[3 * k + 1]] + rest[3 * k + 2]]
                            if plain:
                                rank[h] = v >> 3
                                cls[h] = <uint8_t>(v >> 3)
                            else:
                                rank[h] = rank_p[v >> 3]
                                cls[h] = cls_p[v >> 3]
                            pp[h] = v & 7
                    else:
                        for k in range(hands):
                            h = k + 1 if k + 1 < hands else 0
                            if one_at_a_time:
                                c0 = rest[k]
                                c1 = rest[k + hands]
                                c2 = rest[k + 2 * hands]
                            else:
                                c0 = rest[3 * k]
                                c1 = rest[3 * k + 1]
                                c2 = rest[3 * k + 2]
                            v = value_p[state_p[c0 * 52 + c1] + c2]
                            if plain:
                                rank[h] = v >> 3
                                cls[h] = <uint8_t>(v >> 3)
                            else:
                                rank[h] = rank_p[v >> 3]
                                cls[h] = cls_p[v >> 3]
                            pp[h] = v & 7
                    rank0 = rank[0]
                    cls0 = cls[0]
                    for h in range(hands):
                        hand_order[h] = 1 + (rank[h] > rank0) - (rank[h] < rank0)
                    for p in range(n_patterns):  # the key of each hand a bet reads, under each pattern
                        pat = &pattern[4 * p]
                        kp = &keys[p * hands]
                        for i in range(pattern_count[p]):
                            h = pattern_hands[p * MAX_HANDS + i]
                            kp[h] = pat[0] * cls[h] + pat[1] * pp[h] + pat[2] * cls0 + pat[3] * hand_order[h]
                    for i in range(n_tags):
                        tc_base[i] = tc_bin[i] * per_bin
                    sg_tally(bet, m, keys, colp, tc_base, histp)  # each bet's outcome, by true count
                    if perfect:  # and where its EV is positive
                        for j in range(m):
                            bj = &bet[BET_FIELDS * j]
                            col = colp[bj[BET_ROW] + keys[bj[BET_KEY]]]
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
                    rounds += 1
                    # the seen cards leave the unseen: every hand's, the head card, burns if shown
                    seen_from = 0 if burned_seen else burn
                    sg_count_cards(cards + seen_from, count - seen_from, by_rank, tag_stride, running)
                    if state != NULL:
                        for k in range(seen_from, count):
                            state.cards[cards[k]] -= 1
                            state.by_kind[state.fold[cards[k]]] -= 1
                    if state != NULL:
                        state.n_cards -= count - seen_from
                    unseen -= count - seen_from
                shoes_done += 1
    finally:
        free(bet)
        if state != NULL:
            state[0] = start_state
    return rounds, shoes_done
