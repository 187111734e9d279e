# A vector of tables (included into _core.pyx; sanggong.vector.VectorTable is the public side
# and checks every stake before a kernel sees it; the twin is _pykernels.VectorKernel).
# Each table keeps a shoe_t and a bit generator of its own and deals its rounds by
# _shoe_round (deal.pxi: the shoe procedure of deal_chunk and Game), evaluates them by the
# ranking's tables and settles every bet through the settlement plan's view (sg_outcome);
# a stake's return is its integer factor num / den rounded by the rules' rounding.

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


cdef class VectorKernel:
    """``tables`` shoes of one table (``params``), each dealt from its own bit generator
    (``bit_generators[k]``, owned by the kernel: nobody else draws from it), with the bets
    of ``plan`` settled for ``players`` players a table. ``num``, ``den`` and ``carry``
    (bets, 256) give each bet's return on each outcome code (stake * num / den, rounded by
    ``rounding``, 0..3) and whether the code carries the stake; ``by_rank`` counts the
    unseen cards by rank (13) rather than by card (52)."""

    cdef shoe_t* shoes
    cdef bitgen_t** rngs
    cdef object generators, arrays, tables_obj
    cdef sg_settlement view
    cdef const tables_t* t
    cdef const int64_t* num
    cdef const int64_t* den
    cdef const uint8_t* carry
    cdef readonly Py_ssize_t n_tables, players, bets, hands, n_cards
    cdef int rounding
    cdef bint by_rank

    def __cinit__(self):
        self.shoes = NULL
        self.rngs = NULL

    def __init__(self, Tables tables not None, const int64_t[::1] params, plan, list bit_generators, Py_ssize_t players,
                 const int64_t[:, ::1] num not None, const int64_t[:, ::1] den not None,
                 const uint8_t[:, ::1] carry not None, int rounding, bint by_rank):
        cdef sg_params table
        cdef Py_ssize_t k, j, c
        if self.shoes != NULL:
            raise ValueError("a VectorKernel is set up once")
        _dealt_table(params, &table, True)
        self.tables_obj = tables
        self.t = &tables.t
        self.hands = sg_hands(&table)
        self.n_cards = sg_n_cards(&table)
        arrays = _settlement(plan, self.hands, tables.t.n_classes, &self.view)
        self.bets = self.view.bets
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
        self.num = &num[0, 0]
        self.den = &den[0, 0]
        self.carry = &carry[0, 0]
        self.rounding = rounding
        self.by_rank = by_rank
        self.players = players
        self.shoes = <shoe_t*>malloc(self.n_tables * sizeof(shoe_t))
        self.rngs = <bitgen_t**>malloc(self.n_tables * sizeof(bitgen_t*))
        if self.shoes == NULL or self.rngs == NULL:
            raise MemoryError()
        self.generators = list(bit_generators)
        for k in range(self.n_tables):
            self.rngs[k] = _bitgen(self.generators[k])
            shoe_init(&self.shoes[k], table.decks, table.positions, table.fresh_deck != 0, table.burn_first,
                      table.burn_per_round, table.head_card != 0, table.head_card_burned != 0,
                      table.one_at_a_time != 0, table.cut_low, table.cut_high)

    def __dealloc__(self):
        free(self.shoes)
        free(self.rngs)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def step(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t[:, :, ::1] stakes not None,
             int64_t[:, :, ::1] carried not None, int64_t[:, ::1] reward not None, uint8_t[:, :, ::1] cards not None,
             uint8_t[::1] head not None, uint8_t[:, ::1] outcome not None, int16_t[:, ::1] unseen not None,
             int64_t[:, ::1] shoe_state not None):
        """One round at tables lo..hi - 1: dealt, settled at ``stakes`` (checked by the
        caller: 0 no bet, else at least the stake carried), writing each player's net
        (``reward``), the stakes carried on, the round's hands (``cards``, banker first),
        head card (255: none), each bet's outcome code, the unseen composition and
        ``shoe_state[k]`` = (cards seen in the shoe, rounds dealt from it, shoe number, shoe
        ended), seen and unseen being what the next round is dealt from (a shoe that ended
        is full again)."""
        cdef Py_ssize_t T = self.n_tables, P = self.players, B = self.bets, H = self.hands
        cdef Py_ssize_t width = 13 if self.by_rank else 52
        if not (0 <= lo <= hi <= T):
            raise ValueError(f"tables {lo}..{hi} are not within 0..{T}")
        if (stakes.shape[0] != T or stakes.shape[1] != P or stakes.shape[2] != B or carried.shape[0] != T
                or carried.shape[1] != P or carried.shape[2] != B or reward.shape[0] != T or reward.shape[1] != P
                or cards.shape[0] != T or cards.shape[1] != H or cards.shape[2] != 3 or head.shape[0] != T
                or outcome.shape[0] != T or outcome.shape[1] != B or unseen.shape[0] != T
                or unseen.shape[1] != width or shoe_state.shape[0] != T or shoe_state.shape[1] != 4):
            raise ValueError("the step's arrays have the wrong shapes")
        _check_aligned(&stakes[0, 0, 0], sizeof(int64_t), "stakes")
        _check_aligned(&carried[0, 0, 0], sizeof(int64_t), "carried")
        _check_aligned(&reward[0, 0], sizeof(int64_t), "reward")
        _check_aligned(&unseen[0, 0], sizeof(int16_t), "unseen")
        _check_aligned(&shoe_state[0, 0], sizeof(int64_t), "shoe_state")
        with nogil:
            self._rounds(lo, hi, &stakes[0, 0, 0], &carried[0, 0, 0], &reward[0, 0], &cards[0, 0, 0], &head[0],
                         &outcome[0, 0], &unseen[0, 0], &shoe_state[0, 0])
        return None

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef void _rounds(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t* stakes, int64_t* carried, int64_t* reward,
                      uint8_t* cards, uint8_t* head, uint8_t* outcome, int16_t* unseen,
                      int64_t* shoe_state) noexcept nogil:
        cdef Py_ssize_t P = self.players, B = self.bets, H = self.hands, k, p, j, h, i
        cdef Py_ssize_t width = 13 if self.by_rank else 52, per = self.n_cards // width
        cdef sg_settlement v = self.view
        cdef const tables_t* t = self.t
        cdef const int64_t* num = self.num
        cdef const int64_t* den = self.den
        cdef const uint8_t* carry = self.carry
        cdef int mode = self.rounding
        cdef bint by_rank = self.by_rank
        cdef uint8_t burned[SG_MAX_ROUND_CARDS]
        cdef uint16_t rank[SG_MAX_HANDS]
        cdef uint8_t cls[SG_MAX_HANDS]
        cdef uint8_t pp[SG_MAX_HANDS]
        cdef uint16_t value
        cdef uint8_t* hc
        cdef shoe_t* s
        cdef int16_t* un
        cdef int64_t* st
        cdef int64_t stake, net, code, total, n_burned, seen
        for k in range(lo, hi):
            s = &self.shoes[k]
            hc = cards + k * H * 3
            n_burned = _shoe_round(s, self.rngs[k], hc, burned, head + k)
            for h in range(H):
                value = _value(t, hc[3 * h], hc[3 * h + 1], hc[3 * h + 2])
                rank[h] = _rank_of(t, value)
                cls[h] = _class_of(t, value)
                pp[h] = value & 7
            for j in range(B):
                h = v.hand[j]
                outcome[k * B + j] = sg_outcome(v, j, cls[h], pp[h], rank[h], cls[0], rank[0])
            for p in range(P):
                total = 0
                for j in range(B):
                    i = (k * P + p) * B + j
                    stake = stakes[i]
                    if stake == 0:
                        carried[i] = 0
                        continue
                    code = outcome[k * B + j]
                    if carry[j * 256 + code]:
                        carried[i] = stake  # kept on the table: no money moves
                        continue
                    carried[i] = 0
                    total += _vector_paid(stake, num[j * 256 + code], den[j * 256 + code], mode) - stake
                reward[k * P + p] = total
            # what the next round is dealt from: the seen cards out of the shoe, or a full shoe
            un = unseen + k * width
            st = shoe_state + 4 * k
            if s.last:
                for i in range(width):
                    un[i] = <int16_t>per
                st[0] = 0
                st[1] = 0
            else:
                if s.round_in_shoe == 1:
                    for i in range(width):
                        un[i] = <int16_t>per
                    st[0] = 0
                seen = 3 * H
                for i in range(3 * H):
                    un[hc[i] >> 2 if by_rank else hc[i]] -= 1
                if head[k] != SHOE_NO_CARD and s.head_burned:  # a burned head card is turned up too
                    un[head[k] >> 2 if by_rank else head[k]] -= 1
                    seen += 1
                st[0] += seen
                st[1] = s.round_in_shoe
            st[2] = s.number
            st[3] = s.last

    def state(self):
        """Each table's shoe as (pos, cut, number, round_in_shoe, last) and its deck's
        bytes, and each bit generator's state: what a refused step must leave alone."""
        cdef Py_ssize_t k
        cdef shoe_t* s
        out = []
        for k in range(self.n_tables):
            s = &self.shoes[k]
            out.append((s.pos, s.cut, s.number, s.round_in_shoe, s.last, (<char*>s.deck)[:s.n_cards],
                        repr(self.generators[k].state)))
        return out
