# cython: language_level=3
"""sanggong's compiled core: hand evaluation by table lookup, without the GIL.

The kernels here have twins of the same names and results in ``_reference.py``; the
tables in ``_tables.h`` are generated from that reference at build time. The batch
kernels take already shape- and dtype-checked arrays from ``sanggong.batch`` and check
every card code themselves (the table indices are only formed from valid codes).
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cimport cython

import operator

cdef extern from "_tables.h" nogil:
    const uint8_t SG_CARD_KEY[52]
    const uint8_t SG_RANK_BY_KEY[128]
    const uint8_t SG_PAIR_PLUS[4394]
    const uint8_t SG_HAND[140608]

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


# A hand's key is the sum of its cards' keys (points + 32 * is_face): < 128, see
# tools/gen_tables.py. No branch: three byte loads, two adds, one load.
cdef inline uint8_t _rank(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil:
    return SG_RANK_BY_KEY[SG_CARD_KEY[c0] + SG_CARD_KEY[c1] + SG_CARD_KEY[c2]]


# Index (r0 * 169 + r1 * 13 + r2) * 2 + suited with r = code >> 2; the three suits
# (code & 3) are alike exactly when c0 ^ c1 and c1 ^ c2 have both low bits clear.
cdef inline uint8_t _pair_plus(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil:
    cdef unsigned int suited = (((c0 ^ c1) | (c1 ^ c2)) & 3) == 0
    return SG_PAIR_PLUS[((c0 >> 2) * 169 + (c1 >> 2) * 13 + (c2 >> 2)) * 2 + suited]


cdef uint8_t hand_rank(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil:
    return _rank(c0, c1, c2)


cdef uint8_t hand_pair_plus(uint8_t c0, uint8_t c1, uint8_t c2) noexcept nogil:
    return _pair_plus(c0, c1, c2)


cdef inline bint _valid(code_t c0, code_t c1, code_t c2) noexcept nogil:
    # Casting to unsigned sends negative codes of signed dtypes far above 51.
    return <uint64_t>c0 < 52 and <uint64_t>c1 < 52 and <uint64_t>c2 < 52


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
# rows: first a scan of the block's codes for any outside 0..51 (a reduction the
# compiler vectorizes), returning the first bad row if there is one, so that no table is
# ever indexed with a bad code; then the block's lookups, with no check left in that
# loop. Pointers and strides are kept in locals: a store through a uint8_t pointer may
# alias anything, so struct fields read in the loop would be reloaded after each store.
# Each loop is inlined with the constant strides of a C-contiguous array too, which the
# compiler specializes.

cdef enum:
    BLOCK = 512  # rows: a block of int64 codes (12 KiB) stays in L1 between the two passes

cdef enum Op:
    OP_RANK = 1
    OP_PAIR_PLUS = 2
    OP_BOTH = 3


cdef inline Py_ssize_t _first_bad_row(
    const code_t* h, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1
) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef bint bad = False
    cdef code_t c
    if s0 == 3 and s1 == 1:
        for j in range(3 * n):
            c = h[j]
            bad |= (c < 0) | (c > 51)
    else:
        for i in range(n):
            bad |= not _valid(h[i * s0], h[i * s0 + s1], h[i * s0 + 2 * s1])
    if bad:
        for i in range(n):
            if not _valid(h[i * s0], h[i * s0 + s1], h[i * s0 + 2 * s1]):
                return i
    return -1


cdef inline Py_ssize_t _eval_rows(
    const code_t* h, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1, Op op,
    uint8_t* ranks, uint8_t* pair_plus,
) noexcept nogil:
    cdef Py_ssize_t start, stop, i, bad
    cdef const code_t* row
    cdef size_t c0, c1, c2
    cdef uint8_t v
    start = 0
    while start < n:
        stop = min(start + BLOCK, n)
        bad = _first_bad_row(h + start * s0, stop - start, s0, s1)
        if bad >= 0:
            return start + bad
        for i in range(start, stop):
            row = h + i * s0
            c0, c1, c2 = <size_t>row[0], <size_t>row[s1], <size_t>row[2 * s1]
            if op == OP_RANK:
                ranks[i] = _rank(<uint8_t>c0, <uint8_t>c1, <uint8_t>c2)
            else:
                v = SG_HAND[(c0 * 52 + c1) * 52 + c2]
                if op == OP_PAIR_PLUS:
                    pair_plus[i] = v >> 5
                else:
                    ranks[i] = v & 31
                    pair_plus[i] = v >> 5
        start = stop
    return -1


cdef inline Py_ssize_t _compare_rows(
    const code_t* a, Py_ssize_t as0, Py_ssize_t as1,
    const code_t* b, Py_ssize_t bs0, Py_ssize_t bs1,
    Py_ssize_t n, int8_t* out,
) noexcept nogil:
    cdef Py_ssize_t start, stop, i, bad_a, bad_b
    cdef const code_t* ra
    cdef const code_t* rb
    cdef int x, y
    start = 0
    while start < n:
        stop = min(start + BLOCK, n)
        bad_a = _first_bad_row(a + start * as0, stop - start, as0, as1)
        bad_b = _first_bad_row(b + start * bs0, stop - start, bs0, bs1)
        if bad_a >= 0 or bad_b >= 0:
            return start + (bad_b if bad_a < 0 or 0 <= bad_b < bad_a else bad_a)
        for i in range(start, stop):
            ra = a + i * as0
            rb = b + i * bs0
            x = _rank(<uint8_t>ra[0], <uint8_t>ra[as1], <uint8_t>ra[2 * as1])
            y = _rank(<uint8_t>rb[0], <uint8_t>rb[bs1], <uint8_t>rb[2 * bs1])
            out[i] = (x > y) - (x < y)
        start = stop
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
cdef inline Py_ssize_t _eval_batch(const code_t[:, :] hands, Op op, uint8_t[::1] ranks, uint8_t[::1] pair_plus) except? -2:
    cdef Py_ssize_t n = hands.shape[0], bad
    _check_shape(n, hands.shape[1], min(ranks.shape[0], pair_plus.shape[0]), "hands")
    if n == 0:
        return -1
    cdef Py_ssize_t s0 = _element_stride(hands.strides[0], sizeof(code_t), "hands")
    cdef Py_ssize_t s1 = _element_stride(hands.strides[1], sizeof(code_t), "hands")
    cdef const code_t* h = &hands[0, 0]
    cdef uint8_t* r = &ranks[0] if ranks.shape[0] else NULL
    cdef uint8_t* p = &pair_plus[0] if pair_plus.shape[0] else NULL
    with nogil:
        if s0 == 3 and s1 == 1:
            bad = _eval_rows(h, n, 3, 1, op, r, p)
        else:
            bad = _eval_rows(h, n, s0, s1, op, r, p)
    return bad


def rank_batch(const code_t[:, :] hands, uint8_t[::1] out):
    """Write the class number of each row of ``hands`` into ``out``; return the first
    row holding a code outside 0..51, or -1."""
    return _eval_batch(hands, OP_RANK, out, out)


def pair_plus_batch(const code_t[:, :] hands, uint8_t[::1] out):
    """Write the Pair Plus category of each row of ``hands`` into ``out``; return the
    first row holding a code outside 0..51, or -1."""
    return _eval_batch(hands, OP_PAIR_PLUS, out, out)


def evaluate_batch(const code_t[:, :] hands, uint8_t[::1] ranks, uint8_t[::1] pair_plus):
    """Write the class number and the Pair Plus category of each row; return the first
    row holding a code outside 0..51, or -1."""
    return _eval_batch(hands, OP_BOTH, ranks, pair_plus)


@cython.boundscheck(False)
@cython.wraparound(False)
def compare_batch(const code_t[:, :] a, const code_t[:, :] b, int8_t[::1] out):
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
        if as0 == 3 and as1 == 1 and bs0 == 3 and bs1 == 1:
            bad = _compare_rows(pa, 3, 1, pb, 3, 1, n, o)
        else:
            bad = _compare_rows(pa, as0, as1, pb, bs0, bs1, n, o)
    return bad
