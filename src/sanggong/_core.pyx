# cython: language_level=3
"""sanggong's compiled core: hand evaluation by table lookup, without the GIL.

The kernels here have twins of the same names and results in ``_reference.py``; the
tables in ``_tables.h`` are generated from that reference at build time. The batch
kernels take already shape- and dtype-checked arrays from ``sanggong.batch`` and check
every card code themselves (the table indices are only formed from valid codes).
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cimport cython
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

import operator

cdef extern from "_tables.h" nogil:
    const uint16_t SG_STATE[2704]
    const uint8_t SG_HAND[23660]

cdef extern from "_eval.h" nogil:
    void sg_init_state16()
    void sg_eval_u8(const uint8_t *h, Py_ssize_t m, uint8_t *ranks, uint8_t *pair_plus)

sg_init_state16()  # fills the uint8 kernel's state table from SG_STATE, once, at import

IMPLEMENTATION = "cython"

ctypedef fused code_t:
    uint8_t
    int8_t
    uint16_t
    int16_t
    uint32_t
    int32_t
    uint64_t
    int64_t


# Two lookups, both in L1 (see tools/gen_tables.py): the first two cards give a state,
# the state and the third card the packed value rank | pair_plus << 5. No branch.
cdef inline uint8_t _packed(size_t c0, size_t c1, size_t c2) noexcept nogil:
    return SG_HAND[SG_STATE[c0 * 52 + c1] + c2]


cdef inline uint8_t _rank(size_t c0, size_t c1, size_t c2) noexcept nogil:
    return _packed(c0, c1, c2) & 31


cdef inline uint8_t _pair_plus(size_t c0, size_t c1, size_t c2) noexcept nogil:
    return _packed(c0, c1, c2) >> 5


cdef uint8_t hand_rank(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil:
    return _rank(c0, c1, c2)


cdef uint8_t hand_pair_plus(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil:
    return _pair_plus(c0, c1, c2)


cdef uint8_t _code(object value) except? 255:
    if isinstance(value, bool):
        raise TypeError(f"card code {value!r} is a bool, not an int")
    cdef object index = operator.index(value)
    if not 0 <= index < 52:
        raise ValueError(f"card code {index} is out of range (expected 0..51)")
    cdef Py_ssize_t code = index
    return <uint8_t>code


def rank3(c0, c1, c2):
    """Class number (0..30) of the hand of these three card codes."""
    return _rank(_code(c0), _code(c1), _code(c2))


def pair_plus3(c0, c1, c2):
    """Pair Plus category (0..5) of the hand of these three card codes."""
    return _pair_plus(_code(c0), _code(c1), _code(c2))


# --- batch kernels -------------------------------------------------------------------
# The def functions check what is O(1) to check (shape, output lengths, strides) and
# hand raw pointers and element strides to the nogil loops. The loops go by blocks of
# rows: first a scan of the block's codes for any outside 0..51 (for a C-contiguous
# array a flat reduction the compiler vectorizes), returning the first bad row if there
# is one, so that no table is ever indexed with a bad code; then the block's lookups,
# with no check left in that loop. C-contiguous arrays get loops of their own rather
# than relying on the compiler to specialize constant strides. Pointers and strides are
# kept in locals: a store through a uint8_t pointer may alias anything, so struct fields
# read in the loop would be reloaded after each store.

cdef enum:
    BLOCK = 512  # rows: a block of int64 codes (12 KiB) stays in L1 between the two passes


cdef inline bint _bad(code_t c) noexcept nogil:
    return (c < 0) | (c > 51)  # c < 0 is constant-false for the unsigned dtypes


cdef inline Py_ssize_t _scan(
    const code_t* h, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1
) noexcept nogil:
    """First row of the n at h holding a bad code, or -1."""
    cdef Py_ssize_t i, j
    cdef bint bad = False
    cdef code_t lo, hi
    if s0 == 3 and s1 == 1 and n > 0:
        # min and max in the codes' own type: reductions the compiler vectorizes at
        # full lane width (16 uint8 codes an SSE2 instruction)
        lo = hi = h[0]
        for j in range(3 * n):
            lo = h[j] if h[j] < lo else lo
            hi = h[j] if h[j] > hi else hi
        bad = (lo < 0) | (hi > 51)
    else:
        for i in range(n):
            bad |= _bad(h[i * s0]) | _bad(h[i * s0 + s1]) | _bad(h[i * s0 + 2 * s1])
    if bad:
        for i in range(n):
            if _bad(h[i * s0]) or _bad(h[i * s0 + s1]) or _bad(h[i * s0 + 2 * s1]):
                return i
    return -1


cdef Py_ssize_t _eval_rows(
    const code_t* h, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1,
    uint8_t* ranks, uint8_t* pair_plus,
) noexcept nogil:
    """Write rank and Pair Plus category of n rows; either output may be NULL (then
    that block's values go to a scratch buffer, which keeps one branch-free loop)."""
    cdef uint8_t scratch_r[BLOCK]
    cdef uint8_t scratch_p[BLOCK]
    cdef Py_ssize_t start = 0, m, k, bad
    cdef const code_t* b
    cdef uint8_t* r
    cdef uint8_t* p
    cdef uint8_t v
    while start < n:
        m = min(<Py_ssize_t>BLOCK, n - start)
        b = h + start * s0
        bad = _scan(b, m, s0, s1)
        if bad >= 0:
            return start + bad
        r = ranks + start if ranks != NULL else scratch_r
        p = pair_plus + start if pair_plus != NULL else scratch_p
        if s0 == 3 and s1 == 1:
            if code_t is uint8_t:  # the common batch: a kernel of its own (_eval.h)
                sg_eval_u8(b, m, r, p)
            else:
                for k in range(m):
                    v = _packed(<size_t>b[3 * k], <size_t>b[3 * k + 1], <size_t>b[3 * k + 2])
                    r[k] = v & 31
                    p[k] = v >> 5
        else:
            for k in range(m):
                v = _packed(<size_t>b[k * s0], <size_t>b[k * s0 + s1], <size_t>b[k * s0 + 2 * s1])
                r[k] = v & 31
                p[k] = v >> 5
        start += m
    return -1


cdef Py_ssize_t _compare_rows(
    const code_t* a, Py_ssize_t as0, Py_ssize_t as1,
    const code_t* b, Py_ssize_t bs0, Py_ssize_t bs1,
    Py_ssize_t n, int8_t* out,
) noexcept nogil:
    cdef Py_ssize_t start = 0, m, k, bad_a, bad_b
    cdef const code_t* x
    cdef const code_t* y
    cdef int ra, rb
    while start < n:
        m = min(<Py_ssize_t>BLOCK, n - start)
        x = a + start * as0
        y = b + start * bs0
        bad_a = _scan(x, m, as0, as1)
        bad_b = _scan(y, m, bs0, bs1)
        if bad_a >= 0 or bad_b >= 0:
            return start + (bad_b if bad_a < 0 or 0 <= bad_b < bad_a else bad_a)
        for k in range(m):
            ra = _rank(<size_t>x[k * as0], <size_t>x[k * as0 + as1], <size_t>x[k * as0 + 2 * as1])
            rb = _rank(<size_t>y[k * bs0], <size_t>y[k * bs0 + bs1], <size_t>y[k * bs0 + 2 * bs1])
            out[start + k] = (ra > rb) - (ra < rb)
        start += m
    return -1


cdef Py_ssize_t _element_stride(Py_ssize_t stride, size_t itemsize, str name) except? -1:
    if stride % <Py_ssize_t>itemsize:
        raise ValueError(f"{name} has a stride ({stride} bytes) that is not a whole number of items")
    return stride // <Py_ssize_t>itemsize


cdef int _check_shape(Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t out_len, str name) except -1:
    if cols != 3:
        raise ValueError(f"{name} must have shape (n, 3), got {cols} columns")
    if out_len < rows:
        raise ValueError(f"output holds {out_len} items, {name} has {rows} rows")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
cdef Py_ssize_t _eval_batch(const code_t[:, :] hands, uint8_t* ranks, uint8_t* pair_plus) except? -2:
    """Strides and pointers for _eval_rows (the caller has checked the shapes); an
    output that is NULL is not written."""
    cdef Py_ssize_t n = hands.shape[0], bad
    if n == 0:
        return -1
    cdef Py_ssize_t s0 = _element_stride(hands.strides[0], sizeof(code_t), "hands")
    cdef Py_ssize_t s1 = _element_stride(hands.strides[1], sizeof(code_t), "hands")
    cdef const code_t* h = &hands[0, 0]
    with nogil:
        bad = _eval_rows(h, n, s0, s1, ranks, pair_plus)
    return bad


cdef inline uint8_t* _start(uint8_t[::1] out) noexcept:
    return &out[0] if out.shape[0] else NULL


def rank_batch(const code_t[:, :] hands, uint8_t[::1] out not None):
    """Write the class number of each row of ``hands`` into ``out``; return the first
    row holding a code outside 0..51, or -1."""
    _check_shape(hands.shape[0], hands.shape[1], out.shape[0], "hands")
    return _eval_batch(hands, _start(out), NULL)


def pair_plus_batch(const code_t[:, :] hands, uint8_t[::1] out not None):
    """Write the Pair Plus category of each row of ``hands`` into ``out``; return the
    first row holding a code outside 0..51, or -1."""
    _check_shape(hands.shape[0], hands.shape[1], out.shape[0], "hands")
    return _eval_batch(hands, NULL, _start(out))


def evaluate_batch(
    const code_t[:, :] hands, uint8_t[::1] ranks not None, uint8_t[::1] pair_plus not None
):
    """Write the class number and the Pair Plus category of each row; return the first
    row holding a code outside 0..51, or -1."""
    _check_shape(hands.shape[0], hands.shape[1], ranks.shape[0], "hands")
    _check_shape(hands.shape[0], hands.shape[1], pair_plus.shape[0], "hands")
    return _eval_batch(hands, _start(ranks), _start(pair_plus))


@cython.boundscheck(False)
@cython.wraparound(False)
def compare_batch(const code_t[:, :] a, const code_t[:, :] b, int8_t[::1] out not None):
    """Write 1, 0 or -1 as row i of ``a`` beats, ties or loses to row i of ``b``;
    return the first row where either holds a code outside 0..51, or -1."""
    cdef Py_ssize_t n = a.shape[0], bad
    _check_shape(n, a.shape[1], out.shape[0], "a")
    _check_shape(n, b.shape[1], n, "b")
    if b.shape[0] != n:
        raise ValueError(f"a has {n} rows but b has {b.shape[0]}")
    if n == 0:
        return -1
    cdef Py_ssize_t as0 = _element_stride(a.strides[0], sizeof(code_t), "a")
    cdef Py_ssize_t as1 = _element_stride(a.strides[1], sizeof(code_t), "a")
    cdef Py_ssize_t bs0 = _element_stride(b.strides[0], sizeof(code_t), "b")
    cdef Py_ssize_t bs1 = _element_stride(b.strides[1], sizeof(code_t), "b")
    cdef const code_t* pa = &a[0, 0]
    cdef const code_t* pb = &b[0, 0]
    cdef int8_t* o = &out[0]
    with nogil:
        bad = _compare_rows(pa, as0, as1, pb, bs0, bs1, n, o)
    return bad


# --- settlement ------------------------------------------------------------------------
# Every bet's outcome is one lookup: table[row * 961 + key], key = a * hand_rank +
# b * hand_pair_plus + c * banker_rank with per-bet coefficients, so no bet is special
# in the loop. The plan (tables and coefficients) is built in sanggong.settlement from
# the reference's bet_outcome; this kernel checks the plan's shape once and every
# round's ranks (<= 30) and categories (<= 5) before it reads the table.

cdef enum:
    KEY_SPACE = 961  # 31 hand classes x 31 banker classes


cdef int _check_plan(const uint8_t[::1] table, const int32_t[::1] row, const int32_t[::1] hand,
                     const int32_t[::1] ka, const int32_t[::1] kb, const int32_t[::1] kc,
                     Py_ssize_t hands) except -1:
    """Every table index a settlement plan can form (ranks <= 30, categories <= 5) is in
    bounds, and every bet's hand is dealt: then the loops need no check of their own."""
    cdef Py_ssize_t m = row.shape[0], j
    if hand.shape[0] != m or ka.shape[0] != m or kb.shape[0] != m or kc.shape[0] != m:
        raise ValueError("the settlement plan's arrays disagree in length")
    for j in range(m):
        if not (0 <= hand[j] < hands and 0 <= row[j] and (row[j] + 1) * KEY_SPACE <= table.shape[0]
                and 0 <= ka[j] and 0 <= kb[j] and 0 <= kc[j]
                and 30 * ka[j] + 5 * kb[j] + 30 * kc[j] < KEY_SPACE):
            raise ValueError(f"the settlement plan's bet {j} indexes outside its table")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def settle_batch(plan, const uint8_t[:, ::1] ranks, const uint8_t[:, ::1] pps, uint8_t[:, ::1] out not None):
    """Write the outcome code of bet j in round i to out[i, j]; ranks and pps are
    (rounds, hands) with column 0 the banker. Returns the first round holding a rank
    above 30 or a category above 5, or -1."""
    cdef const uint8_t[::1] table = plan.table
    cdef const int32_t[::1] row = plan.row
    cdef const int32_t[::1] hand = plan.hand
    cdef const int32_t[::1] ka = plan.ka
    cdef const int32_t[::1] kb = plan.kb
    cdef const int32_t[::1] kc = plan.kc
    cdef Py_ssize_t n = ranks.shape[0], nh = ranks.shape[1], m = row.shape[0]
    cdef Py_ssize_t i, j, h, bad = -1
    if pps.shape[0] != n or pps.shape[1] != nh or out.shape[0] != n or out.shape[1] != m:
        raise ValueError("ranks, pair plus categories and outcomes disagree in shape")
    _check_plan(table, row, hand, ka, kb, kc, nh)
    with nogil:
        for i in range(n):
            for h in range(nh):
                if ranks[i, h] > 30 or pps[i, h] > 5:
                    bad = i
                    break
            if bad >= 0:
                break
            for j in range(m):
                h = hand[j]
                out[i, j] = table[row[j] * KEY_SPACE
                                  + ka[j] * ranks[i, h] + kb[j] * pps[i, h] + kc[j] * ranks[i, 0]]
    return bad


# --- shuffling and dealing ---------------------------------------------------------------
# Cards are drawn by a lazy Fisher-Yates shuffle: the i-th card drawn swaps a uniformly
# chosen card of deck[i:] into place i, so a round draws only as many numbers as it
# takes cards, and every order of the cards drawn stays equally likely. The choices are
# unbiased bounded integers, several from each 64-bit draw of a numpy BitGenerator's
# bitgen_t (sg_draw in _random.h), taken under its lock with the GIL released.

cdef extern from "_random.h" nogil:
    uint64_t sg_bounded(uint64_t (*next)(void *), void *state, uint64_t n)
    void sg_init_groups()
    void sg_draw(uint64_t (*next)(void *), void *state, uint8_t *deck, int64_t n,
                 int64_t start, int64_t count, uint8_t *out, int64_t *picked)
    void sg_reset(uint8_t *deck, const uint8_t *fresh, int64_t n, int64_t count, const int64_t *picked)

sg_init_groups()  # fills a table sg_draw reads, once, at import


cdef bitgen_t* _bitgen(object bit_generator) except NULL:
    capsule = getattr(bit_generator, "capsule", None)
    if capsule is None or not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise TypeError(f"{bit_generator!r} is not a numpy BitGenerator")
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


cdef inline uint64_t _below(bitgen_t* rng, uint64_t n) noexcept nogil:
    return sg_bounded(rng.next_uint64, rng.state, n)


def bounded(bit_generator, n):
    """A uniform integer in [0, n), n >= 1 (Lemire's method on 64-bit draws)."""
    cdef uint64_t bound = n
    if bound < 1:
        raise ValueError(f"bound {n} must be at least 1")
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef uint64_t value
    with bit_generator.lock, nogil:
        value = _below(rng, bound)
    return value


@cython.boundscheck(False)
@cython.wraparound(False)
def draw(bit_generator, uint8_t[::1] deck not None, Py_ssize_t start, Py_ssize_t count, uint8_t[::1] out not None):
    """Draw ``count`` cards from ``deck[start:]`` into ``out`` by lazy Fisher-Yates,
    permuting ``deck`` in place (``deck[start:start + count]`` ends up equal to ``out``)."""
    cdef Py_ssize_t n = deck.shape[0]
    if n > 52 * 64:  # sg_draw's group table covers 64 decks
        raise ValueError(f"cannot draw from a {n}-card deck: at most {52 * 64} cards")
    if start < 0 or count < 0 or start + count > n:
        raise ValueError(f"cannot draw {count} cards from position {start} of a {n}-card deck")
    if out.shape[0] < count:
        raise ValueError(f"out holds {out.shape[0]} cards, {count} are drawn")
    cdef bitgen_t* rng = _bitgen(bit_generator)
    if count == 0:
        return None
    with bit_generator.lock, nogil:
        sg_draw(rng.next_uint64, rng.state, &deck[0], n, start, count, &out[0], NULL)
    return None


@cython.boundscheck(False)
@cython.wraparound(False)
def deal_fresh_batch(bit_generator, Py_ssize_t decks, uint8_t[:, ::1] out not None):
    """For each row of ``out``: a fresh shoe of ``decks`` decks in code order, then the
    first ``out.shape[1]`` cards of a lazy Fisher-Yates shuffle (as ``draw`` would)."""
    if decks < 1 or decks > 64:
        raise ValueError(f"decks must be in 1..64, got {decks}")
    cdef Py_ssize_t n = 52 * decks, rows = out.shape[0], k = out.shape[1], r, i
    if k > n:
        raise ValueError(f"cannot draw {k} cards from {decks} deck(s)")
    cdef uint8_t fresh[52 * 64]
    cdef uint8_t deck[52 * 64]
    for i in range(n):
        fresh[i] = i % 52
    cdef int64_t picked[52 * 64]
    cdef bitgen_t* rng = _bitgen(bit_generator)
    memcpy(deck, fresh, n)
    if k == 0:
        return None
    with bit_generator.lock, nogil:
        for r in range(rows):
            sg_draw(rng.next_uint64, rng.state, deck, n, 0, k, &out[r, 0], picked)
            sg_reset(deck, fresh, n, k, picked)
    return None


# --- exact counting -------------------------------------------------------------------------
# The compiled twins of _reference.joint_class_counts and hand_counts, in uint64: the
# caller (sanggong.analysis) checks that the shoe is small enough for no sum to overflow.

cdef inline uint64_t _choose(int64_t n, uint8_t k) noexcept nogil:
    if k == 0:
        return 1
    if n < k:
        return 0
    if k == 1:
        return <uint64_t>n
    if k == 2:
        return <uint64_t>(n * (n - 1) // 2)
    return <uint64_t>(n * (n - 1) * (n - 2) // 6)


cdef int _check_multisets(Py_ssize_t kinds, const uint8_t[:, :, ::1] multisets,
                          const uint8_t[::1] values, Py_ssize_t out_len) except -1:
    """Every index the counting loops form from these arrays is in bounds."""
    cdef Py_ssize_t n = multisets.shape[0], i, t
    if multisets.shape[1] != 3 or multisets.shape[2] != 2 or values.shape[0] != n or kinds > 64:
        raise ValueError("multisets must be (n, 3, 2) with a value each, over at most 64 kinds")
    for i in range(n):
        if values[i] >= out_len:
            raise ValueError(f"value {values[i]} of multiset {i} is outside the output")
        for t in range(3):
            if multisets[i, t, 0] >= kinds or multisets[i, t, 1] > 3:
                raise ValueError(f"multiset {i} names a kind outside the shoe")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def joint_class_counts(const int64_t[::1] counts, const uint8_t[:, :, ::1] multisets,
                       const uint8_t[::1] classes, uint64_t[:, ::1] out not None):
    """out[p, b] += ordered (position hand, banker hand) pairs of disjoint hands of
    classes p and b; see _reference.joint_class_counts."""
    cdef Py_ssize_t n = multisets.shape[0], kinds = counts.shape[0], i, j, t
    cdef int64_t rest[64]
    cdef uint64_t w1, w2
    _check_multisets(kinds, multisets, classes, min(out.shape[0], out.shape[1]))
    with nogil:
        for i in range(n):
            w1 = 1
            for t in range(3):
                w1 *= _choose(counts[multisets[i, t, 0]], multisets[i, t, 1])
            if w1 == 0:
                continue
            for t in range(kinds):
                rest[t] = counts[t]
            for t in range(3):
                rest[multisets[i, t, 0]] -= multisets[i, t, 1]
            for j in range(n):
                w2 = w1
                for t in range(3):
                    w2 *= _choose(rest[multisets[j, t, 0]], multisets[j, t, 1])
                out[classes[i], classes[j]] += w2
    return None


@cython.boundscheck(False)
@cython.wraparound(False)
def hand_counts(const int64_t[::1] counts, const uint8_t[:, :, ::1] multisets,
                const uint8_t[::1] values, uint64_t[::1] out not None):
    """out[values[i]] += the ways to draw multiset i; see _reference.hand_counts."""
    cdef Py_ssize_t n = multisets.shape[0], kinds = counts.shape[0], i, t
    cdef uint64_t w
    _check_multisets(kinds, multisets, values, out.shape[0])
    with nogil:
        for i in range(n):
            w = 1
            for t in range(3):
                w *= _choose(counts[multisets[i, t, 0]], multisets[i, t, 1])
            out[values[i]] += w
    return None


@cython.boundscheck(False)
@cython.wraparound(False)
def brute_force_one_deck(const uint8_t[::1] hand_class, uint64_t[:, ::1] out not None):
    """Every ordered pair of disjoint hands of one deck, card by card: out[p, b] counts
    pairs of classes p and b. ``hand_class[i]`` is the class of the i-th hand of
    itertools.combinations(range(52), 3). A check of the counting above, independent of
    it: 22,100 x 22,100 pairs, those sharing a card skipped (407,170,400 remain)."""
    cdef Py_ssize_t n = 22100, i, j, a, b, c
    cdef uint64_t m
    if hand_class.shape[0] != n or out.shape[0] < 31 or out.shape[1] < 31:
        raise ValueError("hand_class must hold the 22,100 one-deck hands; out must be 31 x 31")
    for i in range(n):
        if hand_class[i] > 30:
            raise ValueError(f"hand_class[{i}] = {hand_class[i]} is not a class")
    cdef uint64_t* masks = <uint64_t*>malloc(n * sizeof(uint64_t))
    if masks == NULL:
        raise MemoryError()
    i = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                masks[i] = ((<uint64_t>1) << a) | ((<uint64_t>1) << b) | ((<uint64_t>1) << c)
                i += 1
    try:
        with nogil:
            for i in range(n):
                m = masks[i]
                for j in range(n):
                    if not (m & masks[j]):
                        out[hand_class[i], hand_class[j]] += 1
    finally:
        free(masks)
    return None


# --- simulation ----------------------------------------------------------------------------
# Rounds dealt exactly as sanggong.dealing.Game deals them (the same draws, in the same
# order, so a chunk's hands are the game's hands for the same bit generator), evaluated
# and settled by table lookup, all without the GIL. Money never enters the loop except
# as the per-outcome integer net of a bet slip (session mode); returns are summed from
# the outcome counts afterwards, exactly.

cdef enum:
    P_DECKS = 0
    P_POSITIONS = 1
    P_FRESH = 2
    P_BURN_FIRST = 3
    P_BURN_LATER = 4
    P_HEAD = 5
    P_HEAD_BURNED = 6
    P_ONE_AT_A_TIME = 7
    P_CUT_LO = 8
    P_CUT_HI = 9
    N_PARAMS = 10
    MAX_HANDS = 17
    STOP_EVERY = 4096


cdef int _check_aligned(const void* address, size_t size, str name) except -1:
    # a typed memoryview does not check alignment, and reading an int64 through a pointer
    # that is not 8-byte aligned is undefined behaviour (an array that came through a
    # pickle, e.g. to a Dask worker, can be a view into a byte buffer at any offset)
    if <size_t>address % size:
        raise ValueError(f"{name} is not aligned to {size} bytes: pass a fresh array (numpy.require(..., requirements='A'))")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def simulate_chunk(bit_generator, const int64_t[::1] params, Py_ssize_t rounds,
                   uint64_t[:, ::1] pairs not None, uint64_t[:, ::1] single not None,
                   plan, const int64_t[:, ::1] money, int64_t[::1] net, const uint8_t[::1] stop not None):
    """Deal and evaluate ``rounds`` rounds from a fresh shoe and count what settles
    every bet: ``pairs[h, 31 * rank_h + rank_banker]`` for each position h and
    ``single[h, 6 * rank_h + pair_plus_h]`` for every hand (the banker's is h = 0);
    sanggong.simulation turns these into each bet's outcome counts with the settlement
    tables. With ``plan`` and ``money`` (net per bet and outcome), each round's net for
    that slip is written to ``net`` (session mode). Returns the rounds done: fewer when
    ``stop[0]`` was set (it is read every 4,096 rounds)."""
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
    # the same conditions as RuleSet's (sanggong.rules): the first round after a shuffle
    # fits the shoe, and a later one fits behind the cut card at its earliest
    if not (1 <= decks <= 64 and 1 <= positions < MAX_HANDS and 0 <= burn_first <= 64 and 0 <= burn_later <= 64
            and burn_first + head_card + 3 * hands <= n_cards and (fresh or 1 <= cut_lo <= cut_hi < n_cards)):
        raise ValueError(f"params {list(params)} do not describe a table this kernel deals")
    if not fresh and burn_later + head_card + 3 * hands > cut_lo:
        raise ValueError("a later round may need more cards than the cut card leaves")
    if pairs.shape[0] != hands or pairs.shape[1] != KEY_SPACE or single.shape[0] != hands or single.shape[1] != 186:
        raise ValueError("pairs must be (hands, 961) and single (hands, 186)")
    _check_aligned(&pairs[0, 0], sizeof(uint64_t), "pairs")
    _check_aligned(&single[0, 0], sizeof(uint64_t), "single")
    if stop.shape[0] < 1:
        raise ValueError("stop must hold one flag")
    cdef bint with_money = money is not None
    cdef const uint8_t[::1] table
    cdef const int32_t[::1] row, hand, ka, kb, kc
    cdef Py_ssize_t m = 0, j, i
    if with_money:
        table = plan.table
        row = plan.row
        hand = plan.hand
        ka = plan.ka
        kb = plan.kb
        kc = plan.kc
        m = row.shape[0]
        _check_plan(table, row, hand, ka, kb, kc, hands)
        if net is None or net.shape[0] < rounds or money.shape[0] != m or money.shape[1] < 10:
            raise ValueError("money must be (bets, 10) and net hold a value per round")
        if m:
            _check_aligned(&money[0, 0], sizeof(int64_t), "money")
            _check_aligned(&row[0], sizeof(int32_t), "plan.row")
            _check_aligned(&hand[0], sizeof(int32_t), "plan.hand")
            _check_aligned(&ka[0], sizeof(int32_t), "plan.ka")
            _check_aligned(&kb[0], sizeof(int32_t), "plan.kb")
            _check_aligned(&kc[0], sizeof(int32_t), "plan.kc")
        if rounds > 0:
            _check_aligned(&net[0], sizeof(int64_t), "net")
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef uint8_t* deck = <uint8_t*>malloc(2 * n_cards)
    if deck == NULL:
        raise MemoryError()
    cdef uint8_t* ordered = deck + n_cards  # a fresh shoe, copied in at every shuffle
    for i in range(n_cards):
        ordered[i] = i % 52
    cdef uint8_t cards[1 + 64 + 3 * MAX_HANDS]
    cdef int64_t picked[1 + 64 + 3 * MAX_HANDS]
    cdef uint8_t rank[MAX_HANDS]
    cdef uint8_t pp[MAX_HANDS]
    cdef uint8_t c0, c1, c2, v, code
    cdef int64_t pos = 0, cut = 0, in_shoe = 0, burn, count, start, first, k, h, done = 0
    cdef int64_t total
    cdef bint last = True
    cdef uint8_t* rest
    # raw pointers in locals: a store through uint64_t* may alias a memoryview's own
    # fields (its strides are 64-bit), which would be reloaded after every count
    cdef uint64_t* pairp = &pairs[0, 0]
    cdef uint64_t* singlep = &single[0, 0]
    cdef const uint8_t* tab = &table[0] if with_money else NULL
    cdef const int32_t* rowp = &row[0] if with_money and m else NULL
    cdef const int32_t* handp = &hand[0] if with_money and m else NULL
    cdef const int32_t* kap = &ka[0] if with_money and m else NULL
    cdef const int32_t* kbp = &kb[0] if with_money and m else NULL
    cdef const int32_t* kcp = &kc[0] if with_money and m else NULL
    cdef const int64_t* monp = &money[0, 0] if with_money and m else NULL
    cdef Py_ssize_t mon_row = money.strides[0] // sizeof(int64_t) if with_money else 0
    cdef int64_t* netp = &net[0] if with_money and rounds else NULL
    cdef const uint8_t* stopp = &stop[0]
    try:
        with bit_generator.lock, nogil:
            while done < rounds:
                if (done & (STOP_EVERY - 1)) == 0 and stopp[0]:  # (no division in this loop)
                    break
                if last:  # shuffle: cards back in code order, the cut card placed
                    memcpy(deck, ordered, n_cards)
                    pos = 0
                    in_shoe = 0
                    if not fresh:
                        cut = n_cards - (cut_lo + <int64_t>_below(rng, <uint64_t>(cut_hi - cut_lo + 1)))
                    last = False
                burn = burn_first if in_shoe == 0 else burn_later
                count = burn + (1 if head and head_burned else 0) + 3 * hands
                sg_draw(rng.next_uint64, rng.state, deck, n_cards, pos, count, cards,
                        &picked[0] if fresh else NULL)  # as draw(); positions kept to reset a fresh deck
                start = pos
                pos += count
                in_shoe += 1
                last = not fresh and start <= cut < pos
                if fresh:  # the shoe in code order again, for the next round
                    sg_reset(deck, ordered, n_cards, count, picked)
                    pos = 0
                    in_shoe = 0
                rest = cards + burn
                if head:  # the head card names the first hand; three cards a hand
                    first = (rest[0] >> 2) & 3  # (rank - 1) mod 4
                    if head_burned:
                        rest += 1
                    for k in range(hands):
                        h = first + k
                        if h >= hands:
                            h -= hands
                        v = _packed(rest[3 * k], rest[3 * k + 1], rest[3 * k + 2])
                        rank[h] = v & 31
                        pp[h] = v >> 5
                else:
                    for k in range(hands):  # position k + 1, the banker (0) last
                        h = k + 1 if k + 1 < hands else 0
                        if one_at_a_time:
                            c0 = rest[k]
                            c1 = rest[k + hands]
                            c2 = rest[k + 2 * hands]
                        else:
                            c0 = rest[3 * k]
                            c1 = rest[3 * k + 1]
                            c2 = rest[3 * k + 2]
                        v = _packed(c0, c1, c2)
                        rank[h] = v & 31
                        pp[h] = v >> 5
                singlep[6 * rank[0] + pp[0]] += 1
                for h in range(1, hands):
                    pairp[h * KEY_SPACE + 31 * rank[h] + rank[0]] += 1
                    singlep[h * 186 + 6 * rank[h] + pp[h]] += 1
                if with_money:
                    total = 0
                    for j in range(m):
                        h = handp[j]
                        code = tab[rowp[j] * KEY_SPACE + kap[j] * rank[h] + kbp[j] * pp[h] + kcp[j] * rank[0]]
                        total += monp[j * mon_row + code]
                    netp[done] = total
                done += 1
    finally:
        free(deck)
    return done
