# A vector of tables (included into _core.pyx; sanggong.vector.VectorTable is the public side
# and checks every stake before a kernel sees it; the twin is _kernels.twin.VectorKernel).
# Each table keeps a shoe_t and a bit generator of its own and deals its rounds by
# _shoe_round (deal.pxi: the shoe procedure of deal_chunk and Game), evaluates them by the
# ranking's tables and settles every bet through the settlement plan's view (sg_outcome);
# a stake's return is its integer factor num / den rounded by the rules' rounding.
# A step's tables are dealt by _vec_rounds over a _vec_ctx (every pointer the loop reads, in
# one struct): on the caller's thread alone, or handed in chunks to a pool of worker threads
# started once per kernel (sg_vector.h), never holding the GIL. sg_vector.h also checks a
# step's stakes in one pass (VectorKernel.legal).

cdef extern from "sg_vector.h" nogil:
    ctypedef void (*sg_task)(void* ctx, int64_t lo, int64_t hi) noexcept nogil
    ctypedef struct sg_pool:
        int64_t started
    ctypedef struct sg_pcg64:
        uint64_t hi, lo, inc_hi, inc_lo
    uint64_t sg_pcg64_next(void* state)
    ctypedef struct sg_draws:
        int64_t rounds
    int sg_draws_make(sg_draws* p, const sg_params* t)
    void sg_draws_free(sg_draws* p)
    int64_t sg_vector_draws_round(sg_pcg64* rng, const sg_draws* draws, uint8_t* deck, const uint8_t* ordered, int64_t n,
                                 int64_t hands, int64_t burn_first, int64_t burn_later, bint head_burned,
                                 int64_t cut_low, int64_t cut_high, int64_t* pos, int64_t* cut, int64_t* in_shoe,
                                 int64_t* number, bint* last)
    int sg_pool_start(sg_pool* p, int64_t threads, int64_t most)
    int sg_pool_run(sg_pool* p, sg_task task, void* ctx, int64_t n, int64_t chunk)
    void sg_pool_stop(sg_pool* p)
    void sg_vector_give(const uint8_t* rest, const uint8_t* give, int64_t n, uint8_t* hand_cards)
    void sg_vector_prefetch(const uint8_t* p, int64_t n)
    void sg_vector_unseen(int16_t* un, const uint8_t* cards, int64_t count, unsigned shift)
    int sg_vector_legal(const int64_t* stakes, const int64_t* carried, const int64_t* high, const int64_t* requires,
                        const int64_t* money, int64_t tables, int64_t players, int64_t bets, int partners)

cdef enum:
    VR_CHUNK = 64  # tables a worker claims at a time
    VR_BLOCK = 16  # tables dealt back to back before they are settled

cdef enum:
    VR_DOWN = 0  # the rounding modes, in sanggong._table.ROUNDINGS's order
    VR_UP = 1
    VR_HALF_UP = 2
    VR_HALF_EVEN = 3


@cython.cdivision(True)
cdef inline int64_t _floor_div(int64_t x, int64_t d) noexcept nogil:
    # floor(x / d) for d > 0
    cdef int64_t q = x / d
    if (x % d) != 0 and x < 0:
        q -= 1
    return q


cdef inline int64_t _vector_paid(int64_t stake, int64_t num, int64_t den, int mode) noexcept nogil:
    """stake * num / den rounded to a whole minor unit by ``mode`` (money.round_to_unit's
    four modes, in integers: the caller's stake cap keeps 2 * stake * num + 2 * den in
    64 bits)."""
    cdef int64_t x = stake * num, f, r
    if mode == VR_DOWN:
        return _floor_div(x, den)
    if mode == VR_UP:
        return -_floor_div(-x, den)
    if mode == VR_HALF_UP:
        return _floor_div(2 * x + den, 2 * den)
    f = _floor_div(x, den)
    r = x - f * den
    if 2 * r > den or (2 * r == den and (f & 1)):
        f += 1
    return f


cdef inline void _vec_shoe_round(shoe_t* s, sg_pcg64* rng, const sg_draws* draws, const uint8_t* give,
                                 uint8_t* hands, uint8_t* burned, uint8_t* head_card) noexcept nogil:
    """_shoe_round (deal.pxi) drawing from a table's PCG64 inlined (sg_pcg64_next: the
    words numpy's PCG64 gives), a shoe's rounds by the draws: the same cards, given to the
    hands from where the draws left them in the deck (a fresh deck's from a copy: its deck
    is put back in order at once), by ``give`` (sg_vector_give) at a table without a head
    card (NULL: by sg_assign)."""
    cdef uint8_t cards[SG_MAX_ROUND_CARDS]
    cdef int64_t picked[SG_MAX_ROUND_CARDS]
    cdef int64_t n = s.n_cards, nh = s.hands, burn, count
    cdef const uint8_t* dealt = cards
    if s.fresh:
        burn = sg_burn(0, s.burn_first, s.burn_later)
        count = sg_round_cards(burn, s.head_burned, nh)
        sg_draw(sg_pcg64_next, rng, s.deck, n, 0, count, cards, picked)
        sg_reset(s.deck, _FRESH_SHOE, n, count, picked)
        s.number += 1
        s.round_in_shoe = 1
        s.last = True
    else:
        burn = sg_vector_draws_round(rng, draws, s.deck, _FRESH_SHOE, n, nh, s.burn_first, s.burn_later, s.head_burned,
                                    s.cut_lo, s.cut_hi, &s.pos, &s.cut, &s.round_in_shoe, &s.number, &s.last)
        dealt = s.deck + s.pos - sg_round_cards(burn, s.head_burned, nh)
    if give != NULL:
        sg_vector_give(dealt + burn, give, 3 * nh, hands)
        head_card[0] = SHOE_NO_CARD
    else:
        sg_assign(dealt, burn, nh, s.head, s.head_burned, sg_one_by_one(s.head, s.one_at_a_time), SHOE_NO_CARD, hands,
                  burned, head_card)


cdef struct _vec_ctx:
    # the kernel's (fixed at set-up)
    shoe_t* shoes
    sg_pcg64* rngs
    const sg_draws* draws  # the draws of a shoe's rounds (unused for a fresh deck)
    uint8_t give[3 * SG_MAX_HANDS]  # hand card i is the round's card give[i] after the burns
    bint by_give  # (a table without a head card; else sg_assign, the head card naming the first hand)
    const lookups_t* t
    sg_settlement view
    const int64_t* num
    const int64_t* den
    const uint8_t* carry
    Py_ssize_t tables, players, bets, hands, width, per
    Py_ssize_t n_settled  # the hands a bet settles on (and the banker's, first): the only ones evaluated
    uint8_t settled[SG_MAX_HANDS]
    int rounding
    bint by_rank
    # the stake check's (bound): each bet's highest stake and partner, each player's money or NULL
    const int64_t* high
    const int64_t* requires
    const int64_t* money
    int partners
    # a step's arrays
    const int64_t* stakes
    int64_t* carried
    int64_t* reward
    uint8_t* cards
    uint8_t* head
    uint8_t* outcome
    int16_t* unseen
    int64_t* shoe_state


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
cdef void _vec_rounds(void* context, int64_t lo, int64_t hi) noexcept nogil:
    """One round at tables lo..hi - 1 (VectorKernel.step's): everything it reads in locals,
    a table's shoe state in its shoe_t."""
    cdef const _vec_ctx* c = <const _vec_ctx*>context
    cdef Py_ssize_t T = c.tables, P = c.players, B = c.bets, H = c.hands, width = c.width, per = c.per, k, p, j, h, i
    cdef sg_settlement v = c.view
    cdef const lookups_t* t = c.t
    cdef const int64_t* num = c.num
    cdef const int64_t* den = c.den
    cdef const uint8_t* carry = c.carry
    cdef const int64_t* stakes = c.stakes
    cdef int64_t* carried = c.carried
    cdef int64_t* reward = c.reward
    cdef uint8_t* cards = c.cards
    cdef uint8_t* head = c.head
    cdef uint8_t* outcome = c.outcome
    cdef int16_t* unseen = c.unseen
    cdef int64_t* shoe_state = c.shoe_state
    cdef shoe_t* shoes = c.shoes
    cdef sg_pcg64* rngs = c.rngs
    cdef int mode = c.rounding
    cdef const sg_draws* draws = c.draws
    cdef const uint8_t* give = NULL
    cdef const uint8_t* settled = &c.settled[0]
    cdef Py_ssize_t n_settled = c.n_settled
    cdef unsigned shift = 2 if c.by_rank else 0  # (a card's unseen count: un[code >> shift])
    cdef uint8_t burned[SG_MAX_ROUND_CARDS]
    cdef uint16_t rank[SG_MAX_HANDS]
    cdef uint8_t cls[SG_MAX_HANDS]
    cdef uint8_t pp[SG_MAX_HANDS]
    cdef uint16_t value
    cdef uint16_t vals[VR_BLOCK * SG_MAX_HANDS]  # a block's settled hands' values
    cdef uint8_t* hc
    cdef uint8_t* oc
    cdef shoe_t* s
    cdef int16_t* un
    cdef int64_t* st
    cdef int64_t stake, code, total, seen
    cdef Py_ssize_t b0 = lo, b1
    if c.by_give:
        give = &c.give[0]
    while b0 < hi:  # blocks of tables: dealt back to back (one deal's chain of multiplies overlaps the
        b1 = min(b0 + VR_BLOCK, hi)  # next's), then evaluated and settled
        for k in range(b0, b1):
            if k + 1 < hi:  # (the next table's cards, out of L1 at a thousand tables: fetched while this one deals)
                sg_vector_prefetch(shoes[k + 1].deck, shoes[k + 1].n_cards)
            _vec_shoe_round(&shoes[k], &rngs[k], draws, give, cards + k * H * 3, burned, head + k)
        for k in range(b0, b1):  # the settled hands' values, the unseen counts and the shoe state: a
            s = &shoes[k]  # block's tables' lookups side by side, not each waiting on the last's settling
            hc = cards + k * H * 3
            for i in range(n_settled):
                h = settled[i]
                vals[(k - b0) * SG_MAX_HANDS + i] = _value(t, hc[3 * h], hc[3 * h + 1], hc[3 * h + 2])
            # what the next round is dealt from: the seen cards out of the shoe, or a full shoe
            un = unseen + k * width
            st = shoe_state + k  # (its column: the four rows T apart)
            if s.last:
                for i in range(width):
                    un[i] = <int16_t>per
                st[0] = 0
                st[T] = 0
            else:
                if s.round_in_shoe == 1:
                    for i in range(width):
                        un[i] = <int16_t>per
                    st[0] = 0
                seen = 3 * H
                sg_vector_unseen(un, hc, 3 * H, shift)
                if head[k] != SHOE_NO_CARD and s.head_burned:  # a burned head card is turned up too
                    un[head[k] >> shift] -= 1
                    seen += 1
                st[0] += seen
                st[T] = s.round_in_shoe
            st[2 * T] = s.number
            st[3 * T] = s.last
        for k in range(b0, b1):  # then each bet's outcome, and the stakes settled
            oc = outcome + k * B
            for i in range(n_settled):
                h = settled[i]
                value = vals[(k - b0) * SG_MAX_HANDS + i]
                rank[h] = _rank_of(t, value)
                cls[h] = _class_of(t, value)
                pp[h] = value & 7
            for j in range(B):
                h = v.hand[j]
                oc[j] = sg_outcome(v, j, cls[h], pp[h], rank[h], cls[0], rank[0])
            for p in range(P):
                total = 0
                i = (k * P + p) * B
                for j in range(B):
                    stake = stakes[i + j]
                    if stake == 0:
                        carried[i + j] = 0
                        continue
                    code = j * 256 + oc[j]
                    if carry[code]:
                        carried[i + j] = stake  # kept on the table: no money moves
                        continue
                    carried[i + j] = 0
                    # (every return divides, by 1 where it can: a branch on the divisor follows which way
                    # the round went, is mispredicted as often, and cost a tenth of the kernel's time)
                    total += _vector_paid(stake, num[code], den[code], mode) - stake
                reward[k * P + p] = total
        b0 = b1


cdef class VectorKernel:
    """``tables`` shoes of one table (``params``), each dealt from its own bit generator
    (``bit_generators[k]``, a numpy ``PCG64`` whose state the kernel copies and draws from
    itself: the generator is not advanced), with the bets
    of ``plan`` settled for ``players`` players a table. ``num``, ``den`` and ``carry``
    (bets, 256) give each bet's return on each outcome code (stake * num / den, rounded by
    ``rounding``, 0..3) and whether the code carries the stake; ``by_rank`` counts the
    unseen cards by rank (13) rather than by card (52). ``bind`` and ``run`` step every
    table into arrays given once, over a pool of threads started at the first run that
    asks for more than one (stopped by ``close`` or when the kernel goes)."""

    cdef shoe_t* shoes
    cdef sg_pcg64* rngs
    cdef object generators, arrays, lookups_obj, bound
    cdef _vec_ctx ctx
    cdef sg_pool pool
    cdef sg_draws draws
    cdef bint has_draws
    cdef Py_ssize_t pool_workers
    cdef bint running
    cdef sg_params table
    cdef readonly Py_ssize_t n_tables, players, bets, hands, n_cards

    def __cinit__(self):
        self.shoes = NULL
        self.rngs = NULL
        memset(&self.pool, 0, sizeof(sg_pool))
        self.has_draws = False
        self.pool_workers = 1
        self.running = False

    def __init__(self, Lookups lookups not None, const int64_t[::1] params, plan, list bit_generators, Py_ssize_t players,
                 const int64_t[:, ::1] num not None, const int64_t[:, ::1] den not None,
                 const uint8_t[:, ::1] carry not None, int rounding, bint by_rank):
        cdef Py_ssize_t j, c
        cdef uint8_t order[4 * SG_MAX_HANDS]
        if self.shoes != NULL:
            raise ValueError("a VectorKernel is set up once")
        _dealt_table(params, &self.table, True)
        self.lookups_obj = lookups
        self.hands = sg_hands(&self.table)
        self.n_cards = sg_n_cards(&self.table)
        arrays = _settlement(plan, self.hands, lookups.t.n_classes, &self.ctx.view)
        self.bets = self.ctx.view.bets
        self.n_tables = len(bit_generators)
        if self.n_tables < 1 or players < 1 or self.bets < 1:
            raise ValueError("a vector needs a table, a player and a bet")
        for name, a in (("num", num), ("den", den), ("carry", carry)):
            if a.shape[0] != self.bets or a.shape[1] != 256:
                raise ValueError(f"{name} must be (bets, 256)")
        _check_aligned(&num[0, 0], sizeof(int64_t), "num")
        _check_aligned(&den[0, 0], sizeof(int64_t), "den")
        for j in range(self.bets):
            for c in range(256):
                if den[j, c] < 1:
                    raise ValueError(f"den[{j}, {c}] must be positive")
        if not 0 <= rounding <= 3:
            raise ValueError("rounding must be 0..3")
        self.arrays = (arrays, num, den, carry)
        self.players = players
        self.shoes = <shoe_t*>malloc(self.n_tables * sizeof(shoe_t))
        self.rngs = <sg_pcg64*>malloc(self.n_tables * sizeof(sg_pcg64))
        if self.shoes == NULL or self.rngs == NULL:
            raise MemoryError()
        if not self.table.fresh_deck:
            if sg_draws_make(&self.draws, &self.table) != 0:
                raise MemoryError()
            self.has_draws = True
        self.ctx.draws = &self.draws
        self.ctx.shoes = self.shoes
        self.ctx.rngs = self.rngs
        self.ctx.t = &lookups.t
        self.ctx.num = &num[0, 0]
        self.ctx.den = &den[0, 0]
        self.ctx.carry = &carry[0, 0]
        self.ctx.tables = self.n_tables
        self.ctx.players = players
        self.ctx.bets = self.bets
        self.ctx.hands = self.hands
        self.ctx.width = 13 if by_rank else 52
        self.ctx.per = self.n_cards // self.ctx.width
        settled = sorted({0, *(self.ctx.view.hand[j] for j in range(self.bets))})
        for j, h in enumerate(settled):
            self.ctx.settled[j] = h
        self.ctx.n_settled = len(settled)
        self.ctx.by_give = not self.table.head_card
        if self.ctx.by_give:  # (sg_assign's order, read off by dealing it the cards 0, 1, 2, ...)
            for j in range(3 * self.hands):
                order[j] = <uint8_t>j
            sg_assign(order, 0, self.hands, False, False, sg_one_by_one(False, self.table.one_at_a_time != 0),
                      SHOE_NO_CARD, self.ctx.give, order + 3 * self.hands, order + 3 * self.hands)
        self.ctx.rounding = rounding
        self.ctx.by_rank = by_rank
        self.reseed(bit_generators)

    def reseed(self, list bit_generators):
        """Fresh shoes at every table, dealt from these bit generators (one a table)."""
        cdef Py_ssize_t k
        cdef sg_params* table = &self.table
        if self.running:
            raise RuntimeError("the kernel is stepping in another thread")
        if len(bit_generators) != self.n_tables:
            raise ValueError(f"{self.n_tables} bit generators are needed, not {len(bit_generators)}")
        from numpy.random import PCG64  # (here, not at the module's import: see bitgen_t in _core.pyx)
        states = []
        for g in bit_generators:  # (each checked before any is taken)
            if type(g) is not PCG64:
                raise TypeError(f"the vector's bit generators are numpy PCG64s, not {type(g).__name__}")
            states.append(g.state["state"])
        self.generators = list(bit_generators)
        mask = (1 << 64) - 1
        for k in range(self.n_tables):
            state, inc = states[k]["state"], states[k]["inc"]
            self.rngs[k].hi, self.rngs[k].lo = state >> 64, state & mask
            self.rngs[k].inc_hi, self.rngs[k].inc_lo = inc >> 64, inc & mask
            shoe_init(&self.shoes[k], table.decks, table.positions, table.fresh_deck != 0, table.burn_first,
                      table.burn_per_round, table.head_card != 0, table.head_card_burned != 0,
                      table.one_at_a_time != 0, table.cut_low, table.cut_high)
        return None

    def __dealloc__(self):
        sg_pool_stop(&self.pool)
        if self.has_draws:
            sg_draws_free(&self.draws)
        free(self.shoes)
        free(self.rngs)

    cdef int _arrays(self, int64_t[:, :, ::1] carried, int64_t[:, ::1] reward, uint8_t[:, :, ::1] cards,
                     uint8_t[::1] head, uint8_t[:, ::1] outcome, int16_t[:, ::1] unseen,
                     int64_t[:, ::1] shoe_state, _vec_ctx* ctx) except -1:
        """The step's arrays checked (shapes, alignment) into ctx."""
        cdef Py_ssize_t T = self.n_tables, P = self.players, B = self.bets, H = self.hands
        cdef Py_ssize_t width = self.ctx.width
        if (carried.shape[0] != T or carried.shape[1] != P or carried.shape[2] != B or reward.shape[0] != T
                or reward.shape[1] != P or cards.shape[0] != T or cards.shape[1] != H or cards.shape[2] != 3
                or head.shape[0] != T or outcome.shape[0] != T or outcome.shape[1] != B or unseen.shape[0] != T
                or unseen.shape[1] != width or shoe_state.shape[0] != 4 or shoe_state.shape[1] != T):
            raise ValueError("the step's arrays have the wrong shapes")
        _check_aligned(&carried[0, 0, 0], sizeof(int64_t), "carried")
        _check_aligned(&reward[0, 0], sizeof(int64_t), "reward")
        _check_aligned(&unseen[0, 0], sizeof(int16_t), "unseen")
        _check_aligned(&shoe_state[0, 0], sizeof(int64_t), "shoe_state")
        ctx.carried = &carried[0, 0, 0]
        ctx.reward = &reward[0, 0]
        ctx.cards = &cards[0, 0, 0]
        ctx.head = &head[0]
        ctx.outcome = &outcome[0, 0]
        ctx.unseen = &unseen[0, 0]
        ctx.shoe_state = &shoe_state[0, 0]
        return 0

    cdef const int64_t* _stakes(self, const int64_t[:, :, ::1] stakes) except NULL:
        if stakes.shape[0] != self.n_tables or stakes.shape[1] != self.players or stakes.shape[2] != self.bets:
            raise ValueError("the step's arrays have the wrong shapes")
        _check_aligned(&stakes[0, 0, 0], sizeof(int64_t), "stakes")
        return &stakes[0, 0, 0]

    def step(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t[:, :, ::1] stakes not None,
             int64_t[:, :, ::1] carried not None, int64_t[:, ::1] reward not None, uint8_t[:, :, ::1] cards not None,
             uint8_t[::1] head not None, uint8_t[:, ::1] outcome not None, int16_t[:, ::1] unseen not None,
             int64_t[:, ::1] shoe_state not None):
        """One round at tables lo..hi - 1: dealt, settled at ``stakes`` (checked by the
        caller: 0 no bet, else at least the stake carried), writing each player's net
        (``reward``), the stakes carried on, the round's hands (``cards``, banker first),
        head card (255: none), each bet's outcome code, the unseen composition and
        ``shoe_state[:, k]`` = (cards seen in the shoe, rounds dealt from it, shoe number, shoe
        ended), seen and unseen being what the next round is dealt from (a shoe that ended
        is full again)."""
        cdef _vec_ctx ctx = self.ctx
        if not (0 <= lo <= hi <= self.n_tables):
            raise ValueError(f"tables {lo}..{hi} are not within 0..{self.n_tables}")
        ctx.stakes = self._stakes(stakes)
        self._arrays(carried, reward, cards, head, outcome, unseen, shoe_state, &ctx)
        self._enter()
        try:
            with nogil:
                _vec_rounds(&ctx, lo, hi)
        finally:
            self.running = False
        return None

    cdef int _enter(self) except -1:
        if self.running:
            raise RuntimeError("the kernel is stepping in another thread")
        self.running = True
        return 0

    def bind(self, int64_t[:, :, ::1] carried not None, int64_t[:, ::1] reward not None,
             uint8_t[:, :, ::1] cards not None, uint8_t[::1] head not None, uint8_t[:, ::1] outcome not None,
             int16_t[:, ::1] unseen not None, int64_t[:, ::1] shoe_state not None,
             const int64_t[::1] high not None, const int64_t[::1] requires not None, money):
        """The arrays every ``run`` writes (``step``'s, kept by the kernel) and those it
        checks the stakes by (``legal``'s: read at every run, so a change to them counts)."""
        cdef const int64_t[:, ::1] cash
        cdef Py_ssize_t j
        if high.shape[0] != self.bets or requires.shape[0] != self.bets:
            raise ValueError("high and requires must hold a value a bet")
        self._arrays(carried, reward, cards, head, outcome, unseen, shoe_state, &self.ctx)
        self.ctx.high = &high[0]
        self.ctx.requires = &requires[0]
        self.ctx.partners = 0
        for j in range(self.bets):
            if requires[j] >= 0:
                self.ctx.partners = 1
        self.ctx.money = NULL
        if money is not None:
            cash = money
            if cash.shape[0] != self.n_tables or cash.shape[1] != self.players:
                raise ValueError("money must be (tables, players)")
            self.ctx.money = &cash[0, 0]
        self.bound = (carried, reward, cards, head, outcome, unseen, shoe_state, high, requires, money)
        return None

    def run(self, const int64_t[:, :, ::1] stakes not None, Py_ssize_t workers):
        """One round at every table into the bound arrays, over ``workers`` threads (the
        caller's and ``workers - 1`` of the kernel's pool, started at the first run that
        asks for them, again when it asks for another number), if every stake is legal
        (``legal`` on the bound arrays): True; else False, and nothing is dealt."""
        cdef int failed = 0, ok = 0
        cdef _vec_ctx* c = &self.ctx
        if self.bound is None:
            raise ValueError("bind the step's arrays first")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        c.stakes = self._stakes(stakes)
        with nogil:
            ok = sg_vector_legal(c.stakes, c.carried, c.high, c.requires, c.money, self.n_tables, c.players, c.bets,
                                 c.partners)
        if not ok:
            return False
        self._enter()
        try:
            if workers > 1 and self.pool_workers != workers:
                with nogil:
                    sg_pool_stop(&self.pool)
                if sg_pool_start(&self.pool, workers - 1, (self.n_tables + VR_CHUNK - 1) // VR_CHUNK) != 0:
                    raise MemoryError("could not start the kernel's worker threads")
                self.pool_workers = workers
            with nogil:
                if workers > 1:
                    failed = sg_pool_run(&self.pool, _vec_rounds, &self.ctx, self.n_tables, VR_CHUNK)
                else:
                    _vec_rounds(&self.ctx, 0, self.n_tables)
            if failed:
                raise MemoryError()
        finally:
            self.running = False
        return True

    def close(self):
        """Stop the pool's threads (a later run with workers starts them again)."""
        self._enter()
        try:
            with nogil:
                sg_pool_stop(&self.pool)
            self.pool_workers = 1
        finally:
            self.running = False
        return None

    @property
    def threads(self):
        """The pool's threads running now (0: none started)."""
        return self.pool.started

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def legal(self, const int64_t[:, :, ::1] stakes not None, const int64_t[:, :, ::1] carried not None,
              const int64_t[::1] high not None, const int64_t[::1] requires not None, money):
        """Whether every stake is legal, in one pass: 0 where nothing is carried, else within
        the stake carried .. ``high[bet]``; a bet with a partner (``requires[bet]`` >= 0,
        ``bets`` for one not staked here) beside a stake of it; with ``money`` (tables,
        players; or None), a player's stakes no more than it. (The caller names the
        first stake that is not: this only says yes or no, fast.)"""
        cdef Py_ssize_t T = self.n_tables, P = self.players, B = self.bets, j
        cdef const int64_t[:, ::1] cash
        cdef const int64_t* m = NULL
        cdef int partners = 0, ok
        if (stakes.shape[0] != T or stakes.shape[1] != P or stakes.shape[2] != B or carried.shape[0] != T
                or carried.shape[1] != P or carried.shape[2] != B or high.shape[0] != B or requires.shape[0] != B):
            raise ValueError("the stakes' arrays have the wrong shapes")
        for j in range(B):
            if requires[j] >= 0:
                partners = 1
        if money is not None:
            cash = money
            if cash.shape[0] != T or cash.shape[1] != P:
                raise ValueError("money must be (tables, players)")
            m = &cash[0, 0]
        with nogil:
            ok = sg_vector_legal(&stakes[0, 0, 0], &carried[0, 0, 0], &high[0], &requires[0], m, T, P, B, partners)
        return ok != 0

    def state(self):
        """Each table's shoe as (pos, cut, number, round_in_shoe, last) and its deck's
        bytes, and each bit generator's state (PCG64's state and increment): what a refused
        step must leave alone."""
        cdef Py_ssize_t k
        cdef shoe_t* s
        cdef sg_pcg64* g
        out = []
        for k in range(self.n_tables):
            s = &self.shoes[k]
            g = &self.rngs[k]
            out.append((s.pos, s.cut, s.number, s.round_in_shoe, s.last, (<char*>s.deck)[:s.n_cards],
                        ((<object>g.hi) << 64 | g.lo, (<object>g.inc_hi) << 64 | g.inc_lo)))
        return out
