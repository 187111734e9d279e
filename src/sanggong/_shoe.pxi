# The shoe evaluator and the shoe player (included into _core.pyx; sanggong.shoe is
# the public side and explains the method). Twins: _reference.ShoeKernel, play_chunk.

cdef extern from "_shoe.h" nogil:
    ctypedef struct sg_i128:
        uint64_t lo
        int64_t hi
    void sg_binoms(const int64_t *counts, int64_t kinds, int64_t top, int64_t *B)
    void sg_multiset_dot(const int64_t *B, const uint16_t *idx, int64_t width, int64_t n,
                         const int32_t *values, int64_t rows, sg_i128 *out)
    enum:
        SG_BINOM_STRIDE
        SG_MAX_EV_ROWS

cdef enum:
    PART_PAIRS = 0  # the position bets: 6-card multisets of counting kinds
    PART_SINGLE = 1  # one hand's class: 3-card multisets of counting kinds
    PART_CARDS = 2  # Pair Plus: 3-card multisets of the 52 cards
    N_PARTS = 3
    SHOE_MAX_PER_CARD = 64  # a shoe holds at most 64 decks


ctypedef struct shoe_part_t:
    const uint16_t* idx  # (n, width) indices into the binomial table of its kinds
    const int32_t* values  # (n, rows) scaled net value of each multiset for each row
    int64_t width
    int64_t n
    int64_t rows


ctypedef struct shoe_state_t:
    shoe_part_t part[N_PARTS]
    int64_t kinds  # counting kinds (11, 13 or 52)
    uint8_t fold[52]  # card code -> counting kind
    int64_t cards[52]  # unseen cards of each code
    int64_t by_kind[52]  # unseen cards of each counting kind
    int64_t n_cards
    int64_t rows  # rows of all parts together


cdef inline void _shoe_numerators(const shoe_state_t* s, bint with_pairs, sg_i128* out) noexcept nogil:
    """Each row's sum of weight x scaled net, parts in order (pairs, single, cards); the
    pairs' rows are left alone when ``with_pairs`` is false."""
    cdef int64_t bk[SG_BINOM_STRIDE * 53]
    cdef int64_t bc[SG_BINOM_STRIDE * 53]
    cdef int64_t at = 0
    cdef const shoe_part_t* p
    if s.part[PART_PAIRS].n or s.part[PART_SINGLE].n:
        sg_binoms(s.by_kind, s.kinds, 6 if (with_pairs and s.part[PART_PAIRS].n) else 3, bk)
    if s.part[PART_CARDS].n:
        sg_binoms(s.cards, 52, 3, bc)
    p = &s.part[PART_PAIRS]
    if p.n and with_pairs:
        sg_multiset_dot(bk, p.idx, p.width, p.n, p.values, p.rows, out)
    at += p.rows
    p = &s.part[PART_SINGLE]
    if p.n:
        sg_multiset_dot(bk, p.idx, p.width, p.n, p.values, p.rows, out + at)
    at += p.rows
    p = &s.part[PART_CARDS]
    if p.n:
        sg_multiset_dot(bc, p.idx, p.width, p.n, p.values, p.rows, out + at)


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
        kinds = int(plan.kinds)
        if not 1 <= kinds <= 52:
            raise ValueError(f"a shoe plan counts over 1..52 kinds, not {kinds}")
        fold = np.ascontiguousarray(plan.fold, dtype=np.uint8)
        if fold.shape != (52,) or int(fold.max()) >= kinds:
            raise ValueError("the shoe plan's fold names a kind outside its kinds")
        self.s.kinds = kinds
        arrays = []
        cdef Py_ssize_t total = 0, q
        cdef const uint16_t[:, ::1] idx
        cdef const int32_t[:, ::1] values
        for q, (name, width, part_kinds, top) in enumerate(
                (("pairs", 6, kinds, 6), ("single", 3, kinds, 3), ("cards", 3, 52, 3))):
            idx_arr = np.ascontiguousarray(getattr(plan, name + "_idx"), dtype=np.uint16)
            val_arr = np.ascontiguousarray(getattr(plan, name + "_values"), dtype=np.int32)
            n = idx_arr.shape[0]
            if idx_arr.ndim != 2 or val_arr.ndim != 2 or val_arr.shape[0] != n or (n and idx_arr.shape[1] != width):
                raise ValueError(f"the shoe plan's {name} arrays have the wrong shapes")
            rows = val_arr.shape[1] if n else 0
            if n:
                entry = idx_arr.astype(np.int64)
                pad = entry == SG_BINOM_STRIDE * part_kinds
                if int(entry.max()) > SG_BINOM_STRIDE * part_kinds or int((entry % SG_BINOM_STRIDE)[~pad].max(initial=0)) > top:
                    raise ValueError(f"the shoe plan's {name} multisets name an entry outside the binomials")
            total += rows
            if total > SG_MAX_EV_ROWS:
                raise ValueError(f"a shoe plan holds at most {SG_MAX_EV_ROWS} rows")
            arrays += [idx_arr, val_arr]
            self.s.part[q].n = n
            self.s.part[q].width = width
            self.s.part[q].rows = rows
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
