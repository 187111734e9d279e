# The shoe evaluator (included into _core.pyx; sanggong.shoe is the public side and
# explains the method; the twin is _kernels.twin.ShoeKernel): the exact sums behind every
# bet's EV for an unseen composition, by sg_sums.h's arithmetic. play.pxi plays shoes by it.

cdef extern from "sg_sums.h" nogil:
    ctypedef struct sg_i128:
        uint64_t lo
        int64_t hi
    void sg_binoms(const int64_t *counts, int64_t kinds, int64_t top, int64_t *B)
    void sg_suit_weights(const int64_t *cards, const uint8_t *suit_order, int64_t *E)
    void sg_card_binoms(const int64_t *cards, int64_t *B)
    void sg_multiset_dot(const int64_t *B, const uint16_t *idx, int64_t width, int64_t n,
                         const int64_t *values, int64_t rows, int narrow, sg_i128 *out)
    void sg_count_cards(const uint8_t *cards, int64_t n, const int16_t *by_rank, int64_t stride,
                        int32_t *running)
    void sg_tally(const int64_t *bets, int64_t m, const int64_t *keys, const uint8_t *cols,
                  const int64_t *bin_base, uint64_t *hist)
    void sg_dot_rounds_at(int kernel, const double *BT, const uint16_t *idx, int64_t width, int64_t n,
                          const double *values, int64_t rows, double *acc)
    int sg_dot_best()
    enum:
        SG_BINOM_STRIDE
        SG_MAX_EV_ROWS
        SG_CHUNK
    const int64_t SG_MAX_TIE_VALUE
    enum:
        SG_RANKS_AT
        SG_CARDS_WEIGHTS

# numerators_batch's arithmetic in doubles by its numbers in sg_sums.h, each running where the
# ones before it do (one source, compiled for each: the same sums).
_DOT_KERNEL_NAMES = ("baseline", "avx2")
cdef int _dot_chosen = -1  # -1: not chosen yet (the CPU is asked on first use)


cdef inline int _dot_kernel() noexcept nogil:
    global _dot_chosen
    if _dot_chosen < 0:
        _dot_chosen = sg_dot_best()
    return _dot_chosen


def _dot_kernels():
    """The kernels of numerators_batch's sums in doubles this build runs on this CPU, the
    fallback first."""
    return _DOT_KERNEL_NAMES[:1 + sg_dot_best()]


def _use_dot_kernel(name=None):
    """Choose the kernel of numerators_batch's sums in doubles by name (None: the best this
    CPU runs, as on import); return the name of the one chosen before. For the tests and
    benchmarks, which compare the kernels on one machine."""
    global _dot_chosen
    before = _DOT_KERNEL_NAMES[_dot_kernel()]
    available = _dot_kernels()
    if name not in available and name is not None:
        raise ValueError(f"kernel {name!r} is not available here (choose from {available})")
    _dot_chosen = len(available) - 1 if name is None else _DOT_KERNEL_NAMES.index(name)
    return before


cdef enum:
    PART_PAIRS = 0  # the position bets: 6-card multisets of counting kinds
    PART_SINGLE = 1  # one hand's class: 3-card multisets of counting kinds
    PART_CARDS = 2  # Pair Plus: 3-card multisets of the 52 cards
    N_PARTS = 3
    SHOE_MAX_PER_CARD = SG_MAX_DECKS  # a card's copies in the largest shoe


ctypedef struct shoe_part_t:
    const uint16_t* idx  # (n, width) indices into the binomial table of its kinds
    const int64_t* values  # (n, rows) scaled net value of each multiset for each row
    int64_t width
    int64_t n
    int64_t rows
    double most  # the largest |value| (rounded up), times the weights' bound factor (see _narrow)
    # the layout in doubles (sg_dot_rounds; pairs and single, without suit ties): the multisets by their
    # number w of entries other than the padding 1, w = 1 .. width, those entries alone: group w is the
    # multisets dstart[w] .. dstart[w + 1] - 1, their entries at didx + doff[w] (w a multiset), their
    # values at dvalues + dstart[w] * rows (exact where _doubles_exact holds: only read then)
    const uint16_t* didx
    const double* dvalues
    int64_t dstart[8]
    int64_t doff[8]


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
    cdef int64_t bc[SG_CARDS_WEIGHTS]
    cdef int64_t at = 0
    cdef const shoe_part_t* p
    if s.part[PART_PAIRS].n or s.part[PART_SINGLE].n:
        sg_binoms(s.by_kind, s.kinds, 6 if (with_pairs and s.part[PART_PAIRS].n) else 3, bk)
        if s.ties and with_pairs and s.part[PART_PAIRS].n:
            sg_suit_weights(s.cards, s.suit_order, bk + SG_BINOM_STRIDE * s.kinds + 1)
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


cdef inline bint _fits64(sg_i128 v) noexcept nogil:
    """Whether a 128-bit sum is an int64 (its high half the sign of its low half's)."""
    return v.hi == (-1 if <int64_t>v.lo < 0 else 0)


cdef inline bint _doubles_exact(const shoe_part_t* p, int64_t n_cards) noexcept nogil:
    """Whether a part's sums for up to n_cards unseen cards are exact in doubles (sg_dot_rounds):
    a product of some of a multiset's binomials of distinct kinds is at most C(n, j) for the
    j <= width cards they count, so below the largest such binomial; every partial sum is
    at most the weights' sum, C(n, width), times the largest |value|, ``most`` (itself at
    most that bound times it). All within 2**52: a factor 2 of margin for the rounding of
    this bound's own doubles, as in _narrow."""
    cdef double binom = 1.0, largest = 1.0, nn = <double>n_cards
    cdef int64_t j
    for j in range(p.width):
        binom = binom * (nn - j) / (j + 1)
        if binom > largest:
            largest = binom
    return largest * p.most < 4503599627370496.0  # 2**52


cdef inline void _dot_part(int kernel, const double* BT, const shoe_part_t* p, double* acc) noexcept nogil:
    """A part's sums in doubles for SG_CHUNK rounds (sg_dot_rounds), its multisets a group
    of each number of entries at a time, the padding left out."""
    cdef int64_t w, count
    for w in range(1, p.width + 1):
        count = p.dstart[w + 1] - p.dstart[w]
        if count > 0:
            sg_dot_rounds_at(kernel, BT, p.didx + p.doff[w], w, count, p.dvalues + p.dstart[w] * p.rows, p.rows, acc)


ctypedef struct rounds_t:
    # where numerators_shoes' loop is: rounds of shoes one after the other (shoe j: rounds firsts[j] ..
    # firsts[j + 1] - 1, its cards from `base` on, its ends counted from there), each shoe from the state
    # the call began with (cards0, kinds0, n0)
    const uint8_t* cards
    const int64_t* ends
    const int64_t* firsts
    Py_ssize_t shoes
    Py_ssize_t shoe  # the shoe of the round the state is at
    Py_ssize_t base
    int64_t cards0[52]
    int64_t kinds0[52]
    int64_t n0


cdef inline void _at_round(shoe_state_t* s, rounds_t* w, Py_ssize_t k) noexcept nogil:
    """The state before round k: the call's first state again where k begins the next shoe."""
    cdef Py_ssize_t c
    if w.shoe + 1 < w.shoes and w.firsts[w.shoe + 1] == k:
        w.base += w.ends[k - 1]
        w.shoe += 1
        for c in range(52):
            s.cards[c] = w.cards0[c]
            s.by_kind[c] = w.kinds0[c]
        s.n_cards = w.n0


cdef inline void _remove_round(shoe_state_t* s, const rounds_t* w, Py_ssize_t k) noexcept nogil:
    """Round k's cards out of the state (the state at round k)."""
    cdef Py_ssize_t i
    cdef uint8_t c
    for i in range(w.base + (w.ends[k - 1] if k > w.firsts[w.shoe] else 0), w.base + w.ends[k]):
        c = w.cards[i]
        s.cards[c] -= 1
        s.by_kind[s.fold[c]] -= 1
        s.n_cards -= 1


cdef Py_ssize_t _rounds_sums(shoe_state_t* s, const uint8_t* cards, const int64_t* ends, const int64_t* firsts,
                             Py_ssize_t shoes, Py_ssize_t rounds, bint with_pairs, int64_t* out) noexcept nogil:
    """``ShoeKernel.numerators_shoes``'s loop (its removals checked by the caller): each
    round's sums into its row of ``out``, then the round's cards out of the state. Rounds go
    SG_CHUNK at a time in doubles (sg_dot_rounds, whatever shoes they are of) where the
    state has neither suit tie terms nor Pair Plus rows and the sums are exact in doubles
    for the most cards a chunk's rounds see, and at least two rounds are left (three
    without AVX2); the others one at a time in integers, stopping at a round whose sums do
    not all fit 64 bits (returned: the rounds done; the state is then that round's)."""
    cdef const shoe_part_t* pairs = &s.part[PART_PAIRS]
    cdef const shoe_part_t* single = &s.part[PART_SINGLE]
    cdef bint use_pairs = with_pairs and pairs.n > 0 and pairs.rows > 0
    cdef bint doubles = not s.ties and not s.part[PART_CARDS].rows and s.kinds <= 13
    cdef double BT[(SG_BINOM_STRIDE * 13 + 1) * SG_CHUNK]
    cdef double acc[SG_MAX_EV_ROWS * SG_CHUNK]
    cdef int64_t bk[SG_BINOM_STRIDE * 13 + 1]
    cdef sg_i128 sums[SG_MAX_EV_ROWS]
    cdef Py_ssize_t k = 0, m, r, e, q, c, most, entries = SG_BINOM_STRIDE * s.kinds + 1
    cdef int kernel = _dot_kernel()
    cdef Py_ssize_t least = 2 if kernel else 3  # (a chunk costs about as much for one round as for SG_CHUNK: on
    # Macau's plans one round in integers takes 17 us, a chunk 23 us with AVX2 and 35 without)
    cdef rounds_t w
    w.cards, w.ends, w.firsts, w.shoes, w.shoe, w.base, w.n0 = cards, ends, firsts, shoes, 0, 0, s.n_cards
    for c in range(52):
        w.cards0[c] = s.cards[c]
        w.kinds0[c] = s.by_kind[c]
    if doubles:  # (bk and BT hold 13 kinds' entries: read only where doubles holds)
        for e in range(entries):
            bk[e] = 0  # (a table of top 3 leaves the entries past it alone: none is read, all are copied)
    while k < rounds:
        _at_round(s, &w, k)
        m = rounds - k
        if m > SG_CHUNK:
            m = SG_CHUNK
        most = w.n0 if w.shoe + 1 < shoes and firsts[w.shoe + 1] < k + m else s.n_cards  # (the most cards seen)
        if doubles and m >= least and not (use_pairs and not _doubles_exact(pairs, most)) \
                and not (single.n and not _doubles_exact(single, most)):
            for r in range(SG_CHUNK):
                if r < m:
                    if r:
                        _at_round(s, &w, k + r)
                    sg_binoms(s.by_kind, s.kinds, 6 if use_pairs else 3, bk)
                    for e in range(entries):
                        BT[e * SG_CHUNK + r] = <double>bk[e]
                    _remove_round(s, &w, k + r)
                else:
                    for e in range(entries):
                        BT[e * SG_CHUNK + r] = 0.0
            for q in range(s.rows * SG_CHUNK):
                acc[q] = 0.0
            if use_pairs:
                _dot_part(kernel, BT, pairs, acc)
            if single.n and single.rows:
                _dot_part(kernel, BT, single, acc + SG_CHUNK * pairs.rows)
            for r in range(m):
                for q in range(s.rows):
                    out[(k + r) * s.rows + q] = <int64_t>acc[q * SG_CHUNK + r]
            k += m
            continue
        for r in range(s.rows):
            sums[r].lo = 0
            sums[r].hi = 0
        _shoe_numerators(s, with_pairs, sums)
        for r in range(s.rows):
            if not _fits64(sums[r]):
                return k
        for r in range(s.rows):
            out[k * s.rows + r] = <int64_t>sums[r].lo
        _remove_round(s, &w, k)
        k += 1
    return rounds


def _int_array(value, name, ndim):
    """An integer array of ``ndim`` dimensions, as given (int64), or ValueError naming it."""
    import numpy as np
    arr = np.asarray(value)
    if arr.dtype == object:  # Python integers: only where each is an int that fits 64 bits
        if not all(isinstance(x, int) and not isinstance(x, bool) and -2**63 <= x < 2**63 for x in arr.ravel().tolist()):
            raise ValueError(f"the shoe terms' {name} holds a value that is not a 64-bit integer")
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu" or arr.ndim != ndim:
        raise ValueError(f"the shoe terms' {name} must be a {ndim}-dimensional integer array")
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) >= 2**63:
        raise ValueError(f"the shoe terms' {name} holds a value beyond 64 bits")
    return arr.astype(np.int64)


cdef inline object _i128(sg_i128 v):
    return (<object>v.hi << 64) | <object>v.lo


cdef class ShoeKernel:
    """The exact sums behind every bet's EV for an unseen composition, updated card by
    card (built by ``sanggong.shoe``; every index it will form is checked here).

    Thread-safety: not to be shared without a lock (``ShoeEvaluator`` holds one around
    its kernel; ``detect``'s reader owns its own): ``numerators_batch`` changes the unseen
    cards with the GIL released."""

    cdef shoe_state_t s
    cdef object _arrays
    cdef readonly object terms

    def __init__(self, terms, counts):
        import numpy as np
        kinds = terms.kinds
        if isinstance(kinds, bool) or not isinstance(kinds, int) or not 1 <= kinds <= 52:
            raise ValueError(f"shoe terms count over 1..52 kinds, not {kinds!r}")
        fold = _int_array(terms.fold, "fold", 1)
        if fold.shape != (52,) or int(fold.min()) < 0 or int(fold.max()) >= kinds:
            raise ValueError("the shoe terms' fold must give each of the 52 cards a kind of its own kinds")
        fold = fold.astype(np.uint8)
        self.s.kinds = kinds
        cdef Py_ssize_t total = 0, q
        suit_order = _int_array(terms.suit_order, "suit_order", 1)
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
        cdef const double[:, ::1] dvalues
        cdef const uint16_t[::1] didx
        for q, (name, width, part_kinds, top) in enumerate(
                (("pairs", 6, kinds, 6), ("single", 3, kinds, 3), ("cards", 3, 52, 3))):
            # every entry checked as given, before any cast could wrap it: a multiset holds
            # `width` cards of distinct kinds, each multiset once (so that the weights sum to
            # C(n, 6) < 2**61; Pair Plus's rank and suited multisets to 2 C(n, 3)), and every
            # value fits 64 bits (_int_array): the sums stay within 128 bits (with suit ties:
            # see sg_sums.h). Past the padding: the tie terms E_t(a, b) at 16 t + 4 a + b, or
            # Pair Plus's ranks' binomials (SG_RANKS_AT), a row of them or none
            entry = _int_array(getattr(terms, name + "_idx"), name + "_idx", 2)
            raw_values = _int_array(getattr(terms, name + "_values"), name + "_values", 2)
            n = entry.shape[0]
            if raw_values.shape[0] != n or (n and entry.shape[1] != width):
                raise ValueError(f"the shoe terms' {name} arrays have the wrong shapes")
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
                    raise ValueError(f"the shoe terms' {name} multisets name an entry outside the binomials")
                ordered = np.sort(np.where(pad, -1 - np.arange(width), kind), axis=1)
                if (ordered[:, 1:] == ordered[:, :-1]).any():
                    raise ValueError(f"a multiset of the shoe terms' {name} names a kind twice")
                packed = (np.sort(entry, axis=1) << (10 * np.arange(width))).sum(axis=1)  # entries < 1024
                if len(np.unique(packed)) != n:
                    raise ValueError(f"a multiset of the shoe terms' {name} is given twice")
                if ties and ((raw_values <= -SG_MAX_TIE_VALUE) | (raw_values >= SG_MAX_TIE_VALUE)).any():
                    raise ValueError(f"the shoe terms' {name} values pass the suit ties' bound, 2**59")
            idx_arr = np.ascontiguousarray(entry, dtype=np.uint16)
            val_arr = np.ascontiguousarray(raw_values, dtype=np.int64)
            # the layout in doubles (read only where exact, _doubles_exact, and never for suit ties or Pair Plus)
            used = (entry != SG_BINOM_STRIDE * part_kinds).sum(axis=1) if n else np.zeros(0, np.int64)
            order = np.argsort(used, kind="stable")
            starts = np.searchsorted(used[order], np.arange(1, 9)) if n else np.zeros(8, np.int64)
            compact = [np.sort(entry[order[starts[w - 1]:starts[w]]], axis=1)[:, :w].ravel()
                       for w in range(1, width + 1)]  # (the padding, the largest entry, sorts last)
            didx_arr = np.ascontiguousarray(np.concatenate(compact) if n else np.zeros(1), dtype=np.uint16)
            dval_arr = np.ascontiguousarray(raw_values[order], dtype=np.float64)
            total += rows
            if total > SG_MAX_EV_ROWS:
                raise ValueError(f"shoe terms hold at most {SG_MAX_EV_ROWS} rows")
            arrays += [idx_arr, val_arr, dval_arr, didx_arr]
            at = 0
            for w in range(8):
                self.s.part[q].dstart[w] = starts[w - 1] if w else 0
                self.s.part[q].doff[w] = at
                if 1 <= w <= width:
                    at += len(compact[w - 1])
            self.s.part[q].n = n
            self.s.part[q].width = width
            self.s.part[q].rows = rows
            # (the largest |value| as a Python int: abs(-2**63) does not fit an int64)
            most = max(-int(raw_values.min()), int(raw_values.max())) if raw_values.size else 0
            self.s.part[q].most = float(most + 1) * (65 if ties else 2 if q == PART_CARDS else 1)
            if n:
                idx = idx_arr
                values = val_arr
                dvalues = dval_arr
                self.s.part[q].idx = &idx[0, 0]
                self.s.part[q].values = &values[0, 0]
                self.s.part[q].dvalues = &dvalues[0, 0]
                didx = didx_arr
                self.s.part[q].didx = &didx[0]
        self._arrays = arrays
        self.s.rows = total
        for q in range(52):
            self.s.fold[q] = fold[q]
        self.terms = terms
        self.set_counts(counts)

    def set_counts(self, counts):
        """Make the unseen composition ``counts`` (52 counts, each 0..SHOE_MAX_PER_CARD)."""
        cdef Py_ssize_t c
        values = [int(x) for x in counts]
        if len(values) != 52 or min(values) < 0 or max(values) > SHOE_MAX_PER_CARD:
            raise ValueError(f"a composition is 52 counts of 0..{SHOE_MAX_PER_CARD}")
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

    def numerators_batch(self, const uint8_t[::1] cards not None, const int64_t[::1] ends not None,
                         int64_t[:, ::1] out not None, bint with_pairs=True):
        """Round after round, k = 0 .. len(ends) - 1: ``out[k]`` = every row's sum for the
        unseen cards then (``numerators(with_pairs)``, each an int64), and then round k's
        cards, ``cards[ends[k - 1]:ends[k]]`` (from 0 for k = 0), leave the unseen cards.
        Returns the rounds done: len(ends), or the first round whose sums do not all fit
        64 bits (its row of ``out`` unwritten; the kernel then holds its unseen cards, and
        ``numerators`` gives them). ValueError, with nothing changed, where ``out`` is not
        (len(ends), rows), ``ends`` do not rise within ``cards``, or a card is not left."""
        import numpy as np
        return self.numerators_shoes(cards, ends, np.zeros(1 if ends.shape[0] else 0, dtype=np.int64), out,
                                     with_pairs)  # (one shoe, from the unseen cards now)

    def numerators_shoes(self, const uint8_t[::1] cards not None, const int64_t[::1] ends not None,
                         const int64_t[::1] firsts not None, int64_t[:, ::1] out not None, bint with_pairs=True):
        """``numerators_batch`` for several shoes in one call: shoe j is the rounds
        ``firsts[j]`` up to ``firsts[j + 1]`` (the last one up to ``len(ends)``), its cards the
        next ``ends[its last round]`` of ``cards``, and its ``ends`` counted from its first
        card; each shoe starts from the unseen cards the kernel holds now. Returns the rounds
        done: len(ends), or the first round whose sums do not all fit 64 bits (its row of
        ``out`` unwritten; the kernel then holds its unseen cards). ValueError, with nothing
        changed, where ``out`` is not (len(ends), rows), ``firsts`` do not rise from 0 below
        len(ends), a shoe's ``ends`` do not rise within the cards left, or a card is not left."""
        cdef Py_ssize_t rounds = ends.shape[0], shoes = firsts.shape[0], j, k, i, a, b, start, at = 0, done
        cdef int64_t left[52]
        cdef uint8_t c
        import numpy as np
        cards, ends, firsts = np.array(cards), np.array(ends), np.array(firsts)  # (copies: what is checked is
        # what the loop reads, whatever the caller's buffers do meanwhile, out among them)
        if out.shape[0] != rounds or out.shape[1] != self.s.rows:
            raise ValueError(f"out must be ({rounds}, {self.s.rows}): a row of sums for each round")
        if (shoes == 0) != (rounds == 0) or (shoes and firsts[0] != 0):
            raise ValueError("firsts must rise from 0, a shoe's first round, below len(ends)")
        for j in range(shoes):
            a = firsts[j]
            b = firsts[j + 1] if j + 1 < shoes else rounds
            if b <= a or b > rounds:
                raise ValueError("firsts must rise from 0, a shoe's first round, below len(ends)")
            for c in range(52):
                left[c] = self.s.cards[c]
            start = 0
            for k in range(a, b):
                if ends[k] < start or ends[k] > cards.shape[0] - at:
                    raise ValueError("a shoe's ends must rise from 0 to at most the cards left")
                for i in range(at + start, at + ends[k]):
                    c = cards[i]
                    if c >= 52 or left[c] == 0:
                        raise ValueError(f"no card of code {c} is left to remove")
                    left[c] -= 1
                start = ends[k]
            at += start
        if rounds == 0:
            return 0
        with nogil:
            done = _rounds_sums(&self.s, &cards[0] if cards.shape[0] else NULL, &ends[0], &firsts[0], shoes,
                                rounds, with_pairs, &out[0, 0] if self.s.rows else NULL)
        return done
