# cython: language_level=3, freethreading_compatible=True
"""sanggong's compiled core: hand evaluation by table lookup, without the GIL.

The kernels here have twins of the same names and results in ``_reference.py``; the
tables in ``_tables.h`` are generated from that reference at build time. The batch
kernels take already shape- and dtype-checked arrays from ``sanggong.batch`` and check
every card code themselves (the table indices are only formed from valid codes).
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cimport cython
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

import operator

cdef extern from "_tables.h" nogil:
    const uint16_t SG_STATE[2704]
    const uint8_t SG_HAND[23660]

cdef extern from "_eval.h" nogil:
    void sg_values_u8(const uint16_t *state16, const uint16_t *value, const uint8_t *h, Py_ssize_t m, uint16_t *out)

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


def pair_plus3(c0, c1, c2):
    """Pair Plus category (0..5) of the hand of these three card codes."""
    return _pair_plus(_code(c0), _code(c1), _code(c2))


# --- a ranking's run-time tables ---------------------------------------------------------
# sanggong.ranking generates, for any ranking, a two-card state table and a value table
# (rid << 3 | pair plus, uint16), and per rid its comparable rank and its class. A Tables
# object holds them as C arrays after checking that every index a kernel can form from
# them (given card codes in 0..51) is in bounds, so the loops need no check of their own.

ctypedef struct tables_t:
    const uint16_t* state
    const uint16_t* state16
    const uint16_t* value
    const uint16_t* rank
    const uint8_t* cls
    Py_ssize_t n_ranks
    Py_ssize_t n_classes
    bint identity  # rank[rid] == rid: the ranks are the rids
    bint class_identity  # cls[rid] == rid: the classes are the rids
    bint ordered_by_class  # the order of two hands follows from their classes


cdef enum:
    MAX_CLASSES = 64


cdef class Tables:
    """A ranking's lookup tables as the kernels read them (built by
    ``sanggong.ranking.RankingTables.kernel``; pickled by the ranking, not the bytes)."""

    cdef tables_t t
    cdef readonly object source
    cdef readonly Py_ssize_t n_ranks, n_classes, n_rids
    cdef readonly bint ordered_by_class, wide
    cdef object _arrays
    cdef object _vector  # the batch kernels' vector plan, built on first use (_vector_plan)

    def __init__(self, source):
        import numpy as np
        state = np.ascontiguousarray(source.state, dtype=np.uint16)
        state16 = np.ascontiguousarray(source.state16, dtype=np.uint16)
        value = np.ascontiguousarray(source.value, dtype=np.uint16)
        rank = np.ascontiguousarray(source.rank, dtype=np.uint16)
        cls = np.ascontiguousarray(source.cls, dtype=np.uint8)
        n_ranks, n_classes = int(source.n_ranks), int(source.n_classes)
        n_values, n_rids = len(value), len(rank)
        if state.shape != (2704,) or state16.shape != (52 * 256,) or n_values < 52 or n_rids < 1:
            raise ValueError("ranking tables of the wrong shape")
        if int(state.max()) + 52 > n_values or int(state16.max()) + 52 > n_values:
            raise ValueError("a state of the ranking tables points outside the value table")
        if int((value >> 3).max()) >= n_rids or int((value & 7).max()) > 5 or cls.shape != (n_rids,):
            raise ValueError("a value of the ranking tables names no rid or category")
        if not (1 <= n_ranks <= 65536 and 1 <= n_classes <= MAX_CLASSES) or int(rank.max()) >= n_ranks \
                or int(cls.max()) >= n_classes:
            raise ValueError("a rid of the ranking tables has a rank or class out of range")
        by_class = bool(source.ordered_by_class)
        if by_class:  # then the kernels drop the comparison: check that it is redundant
            class_rank = np.full(n_classes, -1, dtype=np.int64)
            class_rank[cls] = rank
            if not np.array_equal(class_rank[cls], rank.astype(np.int64)):
                raise ValueError("ranking tables say ordered by class, but a class has two ranks")
        self._arrays = (state, state16, value, rank, cls)
        cdef const uint16_t[::1] s = state, s16 = state16, v = value, r = rank
        cdef const uint8_t[::1] c = cls
        self.t.state = &s[0]
        self.t.state16 = &s16[0]
        self.t.value = &v[0]
        self.t.rank = &r[0]
        self.t.cls = &c[0]
        self.t.n_ranks = n_ranks
        self.t.n_classes = n_classes
        self.t.identity = bool(np.array_equal(rank, np.arange(n_rids)))
        self.t.class_identity = bool(np.array_equal(cls, np.arange(n_rids)))
        self.t.ordered_by_class = by_class
        self.source = source
        self.n_ranks, self.n_classes, self.n_rids = n_ranks, n_classes, n_rids
        self.ordered_by_class = by_class
        self.wide = n_ranks > 256

    def __reduce__(self):
        return (_rebuild_tables, (self.source.ranking,))


def _rebuild_tables(ranking):
    from sanggong.ranking import tables_for
    return Tables(tables_for(ranking))


cdef inline uint16_t _value(const tables_t* t, size_t c0, size_t c1, size_t c2) noexcept nogil:
    return t.value[t.state[c0 * 52 + c1] + c2]


cdef inline uint16_t _rank_of(const tables_t* t, uint16_t value) noexcept nogil:
    return t.rank[value >> 3]


cdef inline uint8_t _class_of(const tables_t* t, uint16_t value) noexcept nogil:
    return t.cls[value >> 3]


def rank3(Tables tables not None, c0, c1, c2):
    """Rank (below n_ranks, higher wins) of these three card codes under ``tables``."""
    return _rank_of(&tables.t, _value(&tables.t, _code(c0), _code(c1), _code(c2)))


def class3(Tables tables not None, c0, c1, c2):
    """Class (0 .. n_classes - 1) of these three card codes under ``tables``."""
    return _class_of(&tables.t, _value(&tables.t, _code(c0), _code(c1), _code(c2)))


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


# The vector kernel (_simd.h): 32 hands a step by arithmetic on the codes, the check of the
# codes in the same pass, for C-contiguous byte codes on CPUs with AVX2 (chosen at run time,
# so one build serves every x86-64 CPU); everything else takes the table loops below. A
# ranking enters it as a plan (rank = A[K] + H - (H >= G) * B[K]), derived by
# sanggong._vector_plan from the ranking's own tables and checked on all 140,608 ordered
# triples, by the formula and by this kernel, before it is used; tables no plan fits keep
# the scalar kernel. Rankings are data: this is how the arithmetic kernel serves any.

cdef extern from "_simd.h" nogil:
    ctypedef struct sg_eval_plan:
        int high
    int SG_HAVE_AVX2_KERNEL
    int sg_cpu_has_avx2()
    Py_ssize_t sg_eval_avx2(const sg_eval_plan* plan, const uint8_t* h, Py_ssize_t n, void* ranks, uint8_t* pp)

cdef enum:
    KERNEL_SCALAR = 0
    KERNEL_AVX2 = 1

_KERNEL_NAMES = ("scalar", "avx2")
cdef int _chosen_kernel = -1  # -1: not chosen yet (the CPU is asked on first use)


cdef inline int _kernel() noexcept:
    global _chosen_kernel
    if _chosen_kernel < 0:
        _chosen_kernel = KERNEL_AVX2 if SG_HAVE_AVX2_KERNEL and sg_cpu_has_avx2() else KERNEL_SCALAR
    return _chosen_kernel


def _eval_kernels():
    """The batch evaluation kernels this build can run on this CPU, the fallback first."""
    return _KERNEL_NAMES[:1 + (SG_HAVE_AVX2_KERNEL and sg_cpu_has_avx2())]


def _use_eval_kernel(name=None):
    """Choose the batch evaluation kernel by name (None: the best this CPU runs, as on
    import); return the name of the one chosen before. For the tests and benchmarks,
    which compare the kernels on one machine."""
    global _chosen_kernel
    before = _KERNEL_NAMES[_kernel()]
    available = _eval_kernels()
    if name not in available and name is not None:
        raise ValueError(f"evaluation kernel {name!r} is not available here (choose from {available})")
    _chosen_kernel = len(available) - 1 if name is None else _KERNEL_NAMES.index(name)
    return before


def _plan_mode(Tables tables not None):
    """The high-card mode of the vector kernel's plan for these tables (0 none, 1 rank,
    2 rank and suit), or None where no plan fits them (then the scalar kernel serves
    them); makes the plan if need be. For the tests."""
    cdef const sg_eval_plan* plan = _vector_plan(tables)
    return None if plan == NULL else plan.high


def _plan_run(bytes plan not None, const uint8_t[:, ::1] hands not None, ranks, uint8_t[::1] pp not None):
    """Run the vector kernel with a plan (the bytes of an sg_eval_plan) on C-contiguous uint8
    codes into ranks (uint8 or uint16, the plan's width) and pp; the first bad row, or -1.
    For sanggong._vector_plan's check: the caller holds to the plan's layout and sizes."""
    if len(plan) != sizeof(sg_eval_plan) or not sg_cpu_has_avx2() or hands.shape[0] > pp.shape[0] \
            or hands.shape[0] > len(ranks) or hands.shape[1] != 3 or hands.shape[0] == 0:
        raise ValueError("no vector kernel here, or arrays that do not fit")
    return sg_eval_avx2(<const sg_eval_plan*><const char*>plan, &hands[0, 0], hands.shape[0], _data(ranks), &pp[0])


cdef void* _data(object arr) except NULL:
    cdef uint16_t[::1] r16
    cdef uint8_t[::1] r8
    if arr.dtype.itemsize == 2:
        r16 = arr
        return &r16[0]
    r8 = arr
    return &r8[0]


cdef const sg_eval_plan* _vector_plan(Tables tables) except? NULL:
    """The vector plan of these tables (made on first use), or NULL where none fits."""
    if tables._vector is None:
        from sanggong._vector_plan import make_plan
        tables._vector = False  # (the scalar kernel while the plan is made)
        tables._vector = make_plan(tables.source, tables.wide, sizeof(sg_eval_plan),
                                   _plan_run if sg_cpu_has_avx2() else None) or False
    if tables._vector is False:
        return NULL
    return <const sg_eval_plan*><const char*>tables._vector


ctypedef fused rank_t:
    uint8_t
    uint16_t


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


cdef inline void _values(const tables_t* t, const code_t* b, Py_ssize_t m, Py_ssize_t s0, Py_ssize_t s1,
                         uint16_t* vals) noexcept nogil:
    """The values of m rows (codes checked) into vals."""
    cdef Py_ssize_t k
    cdef const uint16_t* value = t.value
    cdef const uint16_t* state = t.state
    if s0 == 3 and s1 == 1:
        if code_t is uint8_t:  # the common batch: a kernel of its own (_eval.h)
            sg_values_u8(t.state16, value, b, m, vals)
        else:
            for k in range(m):
                vals[k] = value[state[<size_t>b[3 * k] * 52 + <size_t>b[3 * k + 1]] + <size_t>b[3 * k + 2]]
    else:
        for k in range(m):
            vals[k] = value[state[<size_t>b[k * s0] * 52 + <size_t>b[k * s0 + s1]] + <size_t>b[k * s0 + 2 * s1]]


cdef Py_ssize_t _eval_rows(
    const tables_t* t, const code_t* h, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1,
    rank_t* ranks, uint8_t* pair_plus,
) noexcept nogil:
    """Write rank and Pair Plus category of n rows; either output may be NULL (then
    that block's values go to a scratch buffer, which keeps one branch-free loop)."""
    cdef uint16_t vals[BLOCK]
    cdef rank_t scratch_r[BLOCK]
    cdef uint8_t scratch_p[BLOCK]
    cdef Py_ssize_t start = 0, m, k, bad
    cdef rank_t* r
    cdef uint8_t* p
    cdef const uint16_t* rank = t.rank
    cdef bint identity = t.identity
    while start < n:
        m = min(<Py_ssize_t>BLOCK, n - start)
        bad = _scan(h + start * s0, m, s0, s1)
        if bad >= 0:
            return start + bad
        _values(t, h + start * s0, m, s0, s1, vals)
        r = ranks + start if ranks != NULL else scratch_r
        p = pair_plus + start if pair_plus != NULL else scratch_p
        if identity:
            for k in range(m):
                r[k] = <rank_t>(vals[k] >> 3)
                p[k] = vals[k] & 7
        else:
            for k in range(m):
                r[k] = <rank_t>rank[vals[k] >> 3]
                p[k] = vals[k] & 7
        start += m
    return -1


cdef Py_ssize_t _compare_rows(
    const tables_t* t,
    const code_t* a, Py_ssize_t as0, Py_ssize_t as1,
    const code_t* b, Py_ssize_t bs0, Py_ssize_t bs1,
    Py_ssize_t n, int8_t* out,
) noexcept nogil:
    cdef uint16_t va[BLOCK]
    cdef uint16_t vb[BLOCK]
    cdef Py_ssize_t start = 0, m, k, bad_a, bad_b
    cdef const code_t* x
    cdef const code_t* y
    cdef int ra, rb
    cdef const uint16_t* rank = t.rank
    while start < n:
        m = min(<Py_ssize_t>BLOCK, n - start)
        x = a + start * as0
        y = b + start * bs0
        bad_a = _scan(x, m, as0, as1)
        bad_b = _scan(y, m, bs0, bs1)
        if bad_a >= 0 or bad_b >= 0:
            return start + (bad_b if bad_a < 0 or 0 <= bad_b < bad_a else bad_a)
        _values(t, x, m, as0, as1, va)
        _values(t, y, m, bs0, bs1, vb)
        for k in range(m):
            ra = rank[va[k] >> 3]
            rb = rank[vb[k] >> 3]
            out[start + k] = (ra > rb) - (ra < rb)
        start += m
    return -1


cdef Py_ssize_t _block_ranks(const sg_eval_plan* plan, bint wide, const tables_t* t, const uint8_t* x, Py_ssize_t m,
                             Py_ssize_t s0, Py_ssize_t s1, uint16_t* vals, void* r) noexcept nogil:
    """The ranks of m rows of byte codes at x (int8 read as uint8: a negative code is
    above 51) into r (uint16 where wide, else uint8), by the vector kernel for C-contiguous
    rows, else by the table loops (one lookup for a broadcast row); the first bad row, or
    -1. vals is scratch."""
    cdef Py_ssize_t k, bad
    if s0 == 3 and s1 == 1:
        return sg_eval_avx2(plan, x, m, r, NULL)
    bad = _scan(x, 1 if s0 == 0 else m, s0, s1)
    if bad >= 0:
        return bad
    if s0 == 0:  # one hand against many
        _values(t, x, 1, s0, s1, vals)
        for k in range(1, m):
            vals[k] = vals[0]
    else:
        _values(t, x, m, s0, s1, vals)
    if wide:
        for k in range(m):
            (<uint16_t*>r)[k] = t.rank[vals[k] >> 3]
    else:
        for k in range(m):
            (<uint8_t*>r)[k] = <uint8_t>t.rank[vals[k] >> 3]
    return -1


cdef Py_ssize_t _compare_rows_vec(
    const sg_eval_plan* plan, bint wide, const tables_t* t,
    const uint8_t* a, Py_ssize_t as0, Py_ssize_t as1,
    const uint8_t* b, Py_ssize_t bs0, Py_ssize_t bs1,
    Py_ssize_t n, int8_t* out,
) noexcept nogil:
    """_compare_rows where a side is C-contiguous byte codes: its ranks by the vector kernel."""
    cdef uint16_t vals[BLOCK]
    cdef uint16_t ra[BLOCK]
    cdef uint16_t rb[BLOCK]
    cdef const uint8_t* a8 = <const uint8_t*>ra
    cdef const uint8_t* b8 = <const uint8_t*>rb
    cdef Py_ssize_t start = 0, m, k, bad_a, bad_b
    while start < n:
        m = min(<Py_ssize_t>BLOCK, n - start)
        bad_a = _block_ranks(plan, wide, t, a + start * as0, m, as0, as1, vals, ra)
        bad_b = _block_ranks(plan, wide, t, b + start * bs0, m, bs0, bs1, vals, rb)
        if bad_a >= 0 or bad_b >= 0:
            return start + (bad_b if bad_a < 0 or 0 <= bad_b < bad_a else bad_a)
        if wide:
            for k in range(m):
                out[start + k] = (ra[k] > rb[k]) - (ra[k] < rb[k])
        else:
            for k in range(m):
                out[start + k] = (a8[k] > b8[k]) - (a8[k] < b8[k])
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
cdef Py_ssize_t _eval_batch(Tables tables, const code_t[:, :] hands, rank_t* ranks, uint8_t* pair_plus) except? -2:
    """Strides and pointers for _eval_rows, or for the vector kernel where the codes are
    C-contiguous bytes, the CPU has it and the ranking has a plan (the caller has checked
    the shapes); an output that is NULL is not written."""
    cdef Py_ssize_t n = hands.shape[0], bad
    if n == 0:
        return -1
    cdef Py_ssize_t s0 = _element_stride(hands.strides[0], sizeof(code_t), "hands")
    cdef Py_ssize_t s1 = _element_stride(hands.strides[1], sizeof(code_t), "hands")
    cdef const code_t* h = &hands[0, 0]
    cdef const tables_t* t = &tables.t
    cdef const sg_eval_plan* plan = NULL
    if (code_t is uint8_t or code_t is int8_t) and s0 == 3 and s1 == 1 and _kernel() == KERNEL_AVX2:
        plan = _vector_plan(tables)  # (int8 codes read as bytes: a negative one is above 51)
    with nogil:
        if plan != NULL:
            bad = sg_eval_avx2(plan, <const uint8_t*>h, n, ranks, pair_plus)
        else:
            bad = _eval_rows(t, h, n, s0, s1, ranks, pair_plus)
    return bad


cdef Py_ssize_t _eval_any(Tables tables, const code_t[:, :] hands, object ranks, object pair_plus) except? -2:
    """Check the outputs (a rank array of the tables' width, or None) and evaluate."""
    cdef uint8_t[::1] r8
    cdef uint16_t[::1] r16
    cdef uint8_t[::1] pp
    cdef uint8_t* p = NULL
    cdef Py_ssize_t n = hands.shape[0]
    if pair_plus is not None:
        pp = pair_plus
        _check_shape(n, hands.shape[1], pp.shape[0], "hands")
        p = &pp[0] if pp.shape[0] else NULL
    else:
        _check_shape(n, hands.shape[1], n, "hands")
    if ranks is None:
        return _eval_batch(tables, hands, <uint8_t*>NULL, p)
    if tables.wide:
        r16 = ranks
        _check_shape(n, hands.shape[1], r16.shape[0], "hands")
        return _eval_batch(tables, hands, &r16[0] if r16.shape[0] else <uint16_t*>NULL, p)
    r8 = ranks
    _check_shape(n, hands.shape[1], r8.shape[0], "hands")
    return _eval_batch(tables, hands, &r8[0] if r8.shape[0] else <uint8_t*>NULL, p)


def rank_batch(Tables tables not None, const code_t[:, :] hands, out not None):
    """Write the rank of each row of ``hands`` under ``tables`` into ``out`` (uint16 where
    the ranking has more than 256 ranks, else uint8); return the first row holding a code
    outside 0..51, or -1."""
    return _eval_any(tables, hands, out, None)


def pair_plus_batch(Tables tables not None, const code_t[:, :] hands, uint8_t[::1] out not None):
    """Write the Pair Plus category of each row of ``hands`` into ``out``; return the
    first row holding a code outside 0..51, or -1."""
    return _eval_any(tables, hands, None, out)


def evaluate_batch(Tables tables not None, const code_t[:, :] hands, ranks not None, pair_plus not None):
    """Write the rank and the Pair Plus category of each row; return the first row
    holding a code outside 0..51, or -1."""
    return _eval_any(tables, hands, ranks, pair_plus)


@cython.boundscheck(False)
@cython.wraparound(False)
def compare_batch(Tables tables not None, const code_t[:, :] a, const code_t[:, :] b, int8_t[::1] out not None):
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
    cdef const tables_t* t = &tables.t
    cdef const sg_eval_plan* plan = NULL
    cdef bint wide = tables.wide
    if (code_t is uint8_t or code_t is int8_t) and ((as0 == 3 and as1 == 1) or (bs0 == 3 and bs1 == 1)) \
            and _kernel() == KERNEL_AVX2:
        plan = _vector_plan(tables)
    with nogil:
        if code_t is uint8_t or code_t is int8_t:  # (the other dtypes never have a plan here)
            if plan != NULL:
                bad = _compare_rows_vec(plan, wide, t, <const uint8_t*>pa, as0, as1, <const uint8_t*>pb,
                                        bs0, bs1, n, o)
            else:
                bad = _compare_rows(t, pa, as0, as1, pb, bs0, bs1, n, o)
        else:
            bad = _compare_rows(t, pa, as0, as1, pb, bs0, bs1, n, o)
    return bad



# --- settlement ------------------------------------------------------------------------
# Every bet's outcome is one lookup: table[row * key_space + key], with
#     key = ka * hand_class + kb * hand_pair_plus + kc * banker_class + kd * (order + 1)
# where order is 1, 0 or -1 as the bet's hand beats, ties or loses to the banker's (the
# other hand of a two-hand table), and ka..kd are per-bet coefficients: no bet is special
# in the loop. The plan (tables and coefficients) is built in sanggong.settlement from
# the reference's bet_outcome; this kernel checks the plan once and every round's classes
# and categories before it reads the table.


cdef int _check_plan(const uint8_t[::1] table, Py_ssize_t key_space, Py_ssize_t n_classes,
                     const int32_t[::1] row, const int32_t[::1] hand,
                     const int32_t[::1] ka, const int32_t[::1] kb, const int32_t[::1] kc,
                     const int32_t[::1] kd, Py_ssize_t hands) except -1:
    """Every table index a settlement plan can form (classes < n_classes, categories <= 5,
    order + 1 <= 2) is in bounds, and every bet's hand is dealt: then the loops need no
    check of their own."""
    cdef Py_ssize_t m = row.shape[0], j
    if hand.shape[0] != m or ka.shape[0] != m or kb.shape[0] != m or kc.shape[0] != m or kd.shape[0] != m:
        raise ValueError("the settlement plan's arrays disagree in length")
    if not (1 <= n_classes <= MAX_CLASSES and 1 <= key_space <= (1 << 20)):
        raise ValueError("the settlement plan's key space is out of range")
    for j in range(m):
        if not (0 <= hand[j] < hands and 0 <= row[j] and (row[j] + 1) * key_space <= table.shape[0]
                and 0 <= ka[j] <= key_space and 0 <= kb[j] <= key_space and 0 <= kc[j] <= key_space
                and 0 <= kd[j] <= key_space
                and (n_classes - 1) * (ka[j] + kc[j]) + 5 * kb[j] + 2 * kd[j] < key_space):
            raise ValueError(f"the settlement plan's bet {j} indexes outside its table")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def settle_batch(plan, const uint8_t[:, ::1] classes, const uint16_t[:, ::1] ranks,
                 const uint8_t[:, ::1] pps, uint8_t[:, ::1] out not None):
    """Write the outcome code of bet j in round i to out[i, j]; classes, ranks and pps are
    (rounds, hands) with column 0 the banker (or a two-hand table's second hand).
    Returns the first round holding a class of ``plan.n_classes`` or more or a category
    above 5, or -1."""
    cdef const uint8_t[::1] table = plan.table
    cdef const int32_t[::1] row = plan.row
    cdef const int32_t[::1] hand = plan.hand
    cdef const int32_t[::1] ka = plan.ka
    cdef const int32_t[::1] kb = plan.kb
    cdef const int32_t[::1] kc = plan.kc
    cdef const int32_t[::1] kd = plan.kd
    cdef Py_ssize_t key_space = plan.key_space, n_classes = plan.n_classes
    cdef Py_ssize_t n = classes.shape[0], nh = classes.shape[1], m = row.shape[0]
    cdef Py_ssize_t i, j, h, bad = -1
    cdef int order
    if (ranks.shape[0] != n or ranks.shape[1] != nh or pps.shape[0] != n or pps.shape[1] != nh
            or out.shape[0] != n or out.shape[1] != m):
        raise ValueError("classes, ranks, pair plus categories and outcomes disagree in shape")
    _check_plan(table, key_space, n_classes, row, hand, ka, kb, kc, kd, nh)
    with nogil:
        for i in range(n):
            for h in range(nh):
                if classes[i, h] >= n_classes or pps[i, h] > 5:
                    bad = i
                    break
            if bad >= 0:
                break
            for j in range(m):
                h = hand[j]
                order = (ranks[i, h] > ranks[i, 0]) - (ranks[i, h] < ranks[i, 0])
                out[i, j] = table[row[j] * key_space + ka[j] * classes[i, h] + kb[j] * pps[i, h]
                                  + kc[j] * classes[i, 0] + kd[j] * (order + 1)]
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


# --- raw rounds ------------------------------------------------------------------------------
# A shoe dealt round after round exactly as sanggong.dealing.Game deals (the draws of
# simulate_chunk, in the same order), its cards assigned to the hands and written out:
# for simulators of their own. shoe_init and shoe_deal are the C-level API (_core.pxd
# documents them); deal_chunk, the kernel of sanggong.rounds.deal_batch, is the same
# round in a loop over caller arrays. The twin is _reference.deal_chunk.

cdef uint8_t _FRESH_SHOE[SHOE_MAX_CARDS]  # 64 decks in code order, copied in at a shuffle


cdef void _init_fresh_shoe() noexcept nogil:
    cdef Py_ssize_t i
    for i in range(SHOE_MAX_CARDS):
        _FRESH_SHOE[i] = i % 52


_init_fresh_shoe()


cdef int shoe_init(shoe_t* shoe, int64_t decks, int64_t positions, bint fresh, int64_t burn_first,
                   int64_t burn_later, bint head, bint head_burned, bint one_at_a_time, int64_t cut_lo,
                   int64_t cut_hi) noexcept nogil:
    cdef int64_t n_cards = 52 * decks, extra = 1 if head and head_burned else 0, hands = positions + 1
    shoe.n_cards = 0  # unusable unless the table is one this deals
    # the conditions of RuleSet (sanggong.rules), as simulate_chunk checks them: the first
    # round after a shuffle fits the shoe, a later one behind the cut card at its earliest
    if not (1 <= decks <= 64 and 1 <= positions < SHOE_MAX_HANDS and 0 <= burn_first <= 64
            and 0 <= burn_later <= 64 and burn_first + extra + 3 * hands <= n_cards):
        return -1
    if not fresh and not (1 <= cut_lo <= cut_hi < n_cards and burn_later + extra + 3 * hands <= cut_lo):
        return -1
    shoe.decks = decks
    shoe.positions = positions
    shoe.hands = hands
    shoe.n_cards = n_cards
    shoe.burn_first = burn_first
    shoe.burn_later = burn_later
    shoe.cut_lo = cut_lo if not fresh else 0
    shoe.cut_hi = cut_hi if not fresh else 0
    shoe.fresh = fresh
    shoe.head = head
    shoe.head_burned = head and head_burned
    shoe.one_at_a_time = one_at_a_time
    shoe.pos = 0
    shoe.cut = n_cards
    shoe.number = 0
    shoe.round_in_shoe = 0
    shoe.last = True
    memcpy(shoe.deck, _FRESH_SHOE, n_cards)  # a fresh deck stays in code order between rounds
    return 0


cdef inline void _assign(const uint8_t* cards, int64_t burn, int64_t nh, bint head, bint head_burned,
                         bint one_at_a_time, uint8_t* hands, uint8_t* burned, uint8_t* head_card) noexcept nogil:
    """Assign a round's cards, in the order they came out, as dealing.assign does: the
    burned cards (a burned head card last), the head card, the hands (the banker's
    first). Everything it reads is in its arguments: a store through uint8_t* may alias
    anything, and a struct's fields would be reloaded after each."""
    cdef int64_t k, h, first
    cdef const uint8_t* rest = cards + burn
    cdef uint8_t head_code
    for k in range(burn):
        burned[k] = cards[k]
    if head:  # the head card names the first hand; three cards a hand round the cycle
        head_code = rest[0]
        if head_card != NULL:
            head_card[0] = head_code
        first = (head_code >> 2) & 3  # (rank - 1) mod 4
        if head_burned:
            burned[burn] = head_code
            rest += 1
        h = first
        while h >= nh:  # first <= 3 may pass hands more than once
            h -= nh
        for k in range(nh):  # hand h = (first + k) mod hands
            hands[3 * h] = rest[3 * k]
            hands[3 * h + 1] = rest[3 * k + 1]
            hands[3 * h + 2] = rest[3 * k + 2]
            h += 1
            h = h if h < nh else 0  # (a conditional move: where it wraps is random, a branch would miss)
    else:
        if head_card != NULL:
            head_card[0] = SHOE_NO_CARD
        for k in range(nh):  # position k + 1, the banker (hand 0) last
            h = k + 1 if k + 1 < nh else 0
            if one_at_a_time:
                hands[3 * h] = rest[k]
                hands[3 * h + 1] = rest[k + nh]
                hands[3 * h + 2] = rest[k + 2 * nh]
            else:
                hands[3 * h] = rest[3 * k]
                hands[3 * h + 1] = rest[3 * k + 1]
                hands[3 * h + 2] = rest[3 * k + 2]


cdef inline int64_t _shoe_round(shoe_t* s, bitgen_t* rng, uint8_t* hands, uint8_t* burned,
                                uint8_t* head_card) noexcept nogil:
    """One round of shoe_deal (the shoe set up by shoe_init): the burned cards' count."""
    cdef uint8_t cards[SHOE_MAX_BURNED + 3 * SHOE_MAX_HANDS]
    cdef int64_t picked[SHOE_MAX_BURNED + 3 * SHOE_MAX_HANDS]
    cdef int64_t n = s.n_cards, nh = s.hands, burn, count, start
    cdef bint head = s.head, head_burned = s.head_burned, one_at_a_time = s.one_at_a_time
    if s.fresh:  # a shuffle every round: the deck is in code order, put back after the draw
        burn = s.burn_first
        count = burn + head_burned + 3 * nh
        sg_draw(rng.next_uint64, rng.state, s.deck, n, 0, count, cards, picked)
        sg_reset(s.deck, _FRESH_SHOE, n, count, picked)
        s.number += 1
        s.round_in_shoe = 1
        s.last = True
    else:
        if s.last:  # shuffle: cards back in code order, the cut card placed (one draw)
            memcpy(s.deck, _FRESH_SHOE, n)
            s.pos = 0
            s.round_in_shoe = 0
            s.number += 1
            s.cut = n - (s.cut_lo + <int64_t>sg_bounded(rng.next_uint64, rng.state,
                                                         <uint64_t>(s.cut_hi - s.cut_lo + 1)))
        burn = s.burn_first if s.round_in_shoe == 0 else s.burn_later
        count = burn + head_burned + 3 * nh
        start = s.pos
        sg_draw(rng.next_uint64, rng.state, s.deck, n, start, count, cards, NULL)
        s.pos = start + count
        s.round_in_shoe += 1
        s.last = start <= s.cut < start + count  # the cut card came out in this round: the shoe's last
    _assign(cards, burn, nh, head, head_burned, one_at_a_time, hands, burned, head_card)
    return burn + head_burned


cdef int64_t shoe_deal(shoe_t* shoe, void* bitgen, uint8_t* hands, uint8_t* burned,
                       uint8_t* head_card) noexcept nogil:
    if shoe.n_cards == 0:  # not set up (shoe_init refused the table): deal nothing
        return -1
    return _shoe_round(shoe, <bitgen_t*>bitgen, hands, burned, head_card)


@cython.boundscheck(False)
@cython.wraparound(False)
def deal_chunk(bit_generator, const int64_t[::1] params, uint8_t[:, :, ::1] hands not None,
               uint8_t[:, ::1] burned not None, uint8_t[::1] burn_counts not None, uint8_t[::1] head_cards,
               int64_t[::1] shoe not None, uint16_t[::1] round_in_shoe not None, uint8_t[::1] last not None,
               uint16_t[::1] cut_card not None):
    """Deal ``hands.shape[0]`` rounds from a fresh shoe (the table of ``params``, laid out
    as simulate_chunk's) as ``sanggong.Game`` deals them, and write for round i: its
    hands (``hands[i, 0]`` the banker's, ``hands[i, p]`` position p's), its burned cards
    (``burned[i, :burn_counts[i]]``, a burned head card last; the rest of the row 255),
    its head card (``head_cards[i]``, 255 where there is none; ``head_cards`` may be
    None), its shoe (from 1), round in shoe (from 1), whether it was the shoe's last (1
    or 0) and the cut card's place from the end (0 for a fresh deck). Returns the shoes
    begun."""
    if params.shape[0] != N_PARAMS:
        raise ValueError("params must hold 10 values")
    _check_aligned(&params[0], sizeof(int64_t), "params")
    cdef shoe_t* s = <shoe_t*>malloc(sizeof(shoe_t))
    if s == NULL:
        raise MemoryError()
    cdef int ok = shoe_init(s, params[P_DECKS], params[P_POSITIONS], params[P_FRESH] != 0, params[P_BURN_FIRST],
                            params[P_BURN_LATER], params[P_HEAD] != 0, params[P_HEAD_BURNED] != 0,
                            params[P_ONE_AT_A_TIME] != 0, params[P_CUT_LO], params[P_CUT_HI])
    cdef Py_ssize_t rounds = hands.shape[0], width = burned.shape[1]
    cdef int64_t most
    try:
        if ok != 0:
            raise ValueError(f"params {list(params)} do not describe a table this kernel deals")
        most = (s.burn_first if s.fresh else max(s.burn_first, s.burn_later)) + s.head_burned
        if hands.shape[1] != s.hands or hands.shape[2] != 3:
            raise ValueError(f"hands must have shape (rounds, {s.hands}, 3), "
                             f"got ({hands.shape[0]}, {hands.shape[1]}, {hands.shape[2]})")
        if width < most:
            raise ValueError(f"burned must hold {most} cards a round, it holds {width}")
        for name, length in (("burned", burned.shape[0]), ("burn_counts", burn_counts.shape[0]),
                             ("shoe", shoe.shape[0]), ("round_in_shoe", round_in_shoe.shape[0]),
                             ("last", last.shape[0]), ("cut_card", cut_card.shape[0])):
            if length != rounds:
                raise ValueError(f"{name} must hold {rounds} rounds, it holds {length}")
        if head_cards is not None and head_cards.shape[0] != rounds:
            raise ValueError(f"head_cards must hold {rounds} rounds, it holds {head_cards.shape[0]}")
        if rounds == 0:
            return 0
        _check_aligned(&shoe[0], sizeof(int64_t), "shoe")
        _check_aligned(&round_in_shoe[0], sizeof(uint16_t), "round_in_shoe")
        _check_aligned(&cut_card[0], sizeof(uint16_t), "cut_card")
        return _deal_rows(bit_generator, s, rounds, &hands[0, 0, 0], &burned[0, 0], width, &burn_counts[0],
                          &head_cards[0] if head_cards is not None else NULL, &shoe[0], &round_in_shoe[0],
                          &last[0], &cut_card[0])
    finally:
        free(s)


cdef int64_t _deal_rows(object bit_generator, shoe_t* s, Py_ssize_t rounds, uint8_t* hands, uint8_t* burned,
                        Py_ssize_t width, uint8_t* burn_counts, uint8_t* head_cards, int64_t* shoe,
                        uint16_t* round_in_shoe, uint8_t* last, uint16_t* cut_card) except -1:
    """deal_chunk's loop (the arrays checked), without the GIL. A fresh-deck table (every
    online table) has a loop of its own: the same rounds as _shoe_round's, with what
    every round shares in locals (a store through uint8_t* may alias any field read
    through a pointer, which would then be reloaded after each)."""
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef uint64_t (*next_word)(void *) noexcept nogil
    cdef void* state
    cdef Py_ssize_t i, k, row = 3 * s.hands
    cdef int64_t n_burned, n = s.n_cards, nh = s.hands, burn = s.burn_first, count, number = s.number
    cdef bint head = s.head, head_burned = s.head_burned, one_at_a_time = s.one_at_a_time
    cdef uint8_t* deck = s.deck
    cdef uint8_t cards[SHOE_MAX_BURNED + 3 * SHOE_MAX_HANDS]
    cdef int64_t picked[SHOE_MAX_BURNED + 3 * SHOE_MAX_HANDS]
    with bit_generator.lock, nogil:
        next_word = rng.next_uint64
        state = rng.state
        if s.fresh:
            count = burn + head_burned + 3 * nh
            n_burned = burn + head_burned
            for i in range(rounds):
                sg_draw(next_word, state, deck, n, 0, count, cards, picked)
                sg_reset(deck, _FRESH_SHOE, n, count, picked)
                _assign(cards, burn, nh, head, head_burned, one_at_a_time, hands + i * row, burned + i * width,
                        head_cards + i if head_cards != NULL else NULL)
                for k in range(n_burned, width):
                    burned[i * width + k] = SHOE_NO_CARD
                burn_counts[i] = <uint8_t>n_burned
                shoe[i] = number + 1 + i
                round_in_shoe[i] = 1
                last[i] = 1
                cut_card[i] = 0
            s.number = number + rounds
            s.round_in_shoe = 1
            s.last = True
        else:
            for i in range(rounds):
                n_burned = _shoe_round(s, rng, hands + i * row, burned + i * width,
                                       head_cards + i if head_cards != NULL else NULL)
                for k in range(n_burned, width):
                    burned[i * width + k] = SHOE_NO_CARD
                burn_counts[i] = <uint8_t>n_burned
                shoe[i] = s.number
                round_in_shoe[i] = <uint16_t>s.round_in_shoe
                last[i] = s.last
                cut_card[i] = <uint16_t>(s.n_cards - s.cut)
    return s.number


# --- exact counting -------------------------------------------------------------------------
# The compiled twins of _reference.joint_class_counts, suit_split and hand_counts. A pair's
# ways fit 64 bits (each kind holds at most MAX_KIND_COUNT cards: checked); the pair
# counts are summed in 128 bits, two words, and written to a uint64 output where they fit
# it (else OverflowError) or added to an object array's Python integers.

cdef extern from "_shoe.h" nogil:
    int64_t sg_choose3(int64_t n, int64_t k)
    void sg_suit_wins(const int64_t *n, int64_t *W)

cdef enum:
    MAX_KIND_COUNT = 1024  # (a pair of hands: six cards, at most 1024 ** 6 = 2 ** 60 ways)


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


def suit_split(suits, Py_ssize_t a, Py_ssize_t b):
    """(lower, equal, higher): see _reference.suit_split (here by the prefix sums of
    _shoe.h's sg_suit_wins, not by every spread over the suits)."""
    cdef int64_t n[4]
    cdef int64_t W[16]
    cdef Py_ssize_t s
    held = [int(x) for x in suits]
    if len(held) != 4 or not all(0 <= x <= MAX_KIND_COUNT for x in held) or not (1 <= a <= 3 and 1 <= b <= 3):
        raise ValueError(f"suit_split takes 4 counts of 0..{MAX_KIND_COUNT} and 1..3 cards a hand")
    for s in range(4):
        n[s] = held[s]
    sg_suit_wins(n, W)
    cdef int64_t c = n[0] + n[1] + n[2] + n[3]
    lower, higher = W[4 * b + a], W[4 * a + b]
    return lower, sg_choose3(c, a) * sg_choose3(c - a, b) - lower - higher, higher


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
def joint_class_counts(const int64_t[::1] counts, const uint8_t[:, :, ::1] multisets,
                       const uint8_t[::1] classes, const uint16_t[::1] ranks, Py_ssize_t n_classes,
                       out not None, suits=None):
    """out[(p * n_classes + b) * 3 + order + 1] += ordered (position hand, banker hand)
    pairs of disjoint hands of classes p and b, the position's hand beating (order 1),
    tying (0) or losing to (-1) the banker's by their ranks, and where ``suits`` is given
    (a (kinds, 4) array: each kind's cards by suit, weakest first) equal ranks by their
    highest kind's suits; see _reference.joint_class_counts. ``out`` is uint64 or object."""
    cdef Py_ssize_t n = multisets.shape[0], kinds = counts.shape[0], size = n_classes * n_classes * 3
    cdef Py_ssize_t i, j, t, k, s, base
    if not 1 <= n_classes <= MAX_CLASSES or len(out) != size or ranks.shape[0] != n:
        raise ValueError("out must hold n_classes ** 2 * 3 counts, and every multiset have a rank")
    _check_multisets(kinds, multisets, classes, n_classes)
    for t in range(kinds):
        if not 0 <= counts[t] <= MAX_KIND_COUNT:
            raise ValueError(f"kind {t} holds {counts[t]} cards: at most {MAX_KIND_COUNT} are counted")
    cdef bint by_suit = suits is not None
    cdef const int64_t[:, ::1] suit_counts
    # each kind's (lower, equal, higher) ways for a, b = 1..3 of its cards in the two hands
    cdef int64_t split[64 * 16 * 3]
    cdef int64_t W[16]
    cdef uint8_t top[1024]  # each multiset's highest kind, and how many cards of it
    cdef uint8_t top_m[1024]
    if by_suit:
        suit_counts = suits
        if suit_counts.shape[0] != kinds or suit_counts.shape[1] != 4 or n > 1024:
            raise ValueError("suits must be (kinds, 4): each kind's cards by suit, for at most 1,024 multisets")
        for t in range(kinds):
            if (suit_counts[t, 0] < 0 or suit_counts[t, 1] < 0 or suit_counts[t, 2] < 0 or suit_counts[t, 3] < 0
                    or suit_counts[t, 0] + suit_counts[t, 1] + suit_counts[t, 2] + suit_counts[t, 3] != counts[t]):
                raise ValueError(f"suits[{t}] does not add up to the {counts[t]} cards of kind {t}")
            sg_suit_wins(&suit_counts[t, 0], W)
            for i in range(1, 4):
                for j in range(1, 4):
                    k = ((t * 4 + i) * 4 + j) * 3
                    split[k] = W[4 * j + i]
                    split[k + 2] = W[4 * i + j]
                    split[k + 1] = sg_choose3(counts[t], i) * sg_choose3(counts[t] - i, j) - split[k] - split[k + 2]
        for i in range(n):
            top_m[i] = 0
            for t in range(3):
                if multisets[i, t, 1] and (top_m[i] == 0 or multisets[i, t, 0] > top[i]):
                    top[i] = multisets[i, t, 0]
                    top_m[i] = multisets[i, t, 1]
            if top_m[i] == 0:
                raise ValueError(f"multiset {i} holds no card")
    cdef bint wide = out.dtype == object
    cdef uint64_t[::1] out64
    if not wide:
        out64 = out
    cdef uint64_t* lo = <uint64_t*>calloc(2 * size, sizeof(uint64_t))  # the sums: lo, then hi words
    cdef int16_t* entry = <int16_t*>malloc(3 * n * sizeof(int16_t) + 1)  # each multiset's kind * 4 + count
    if lo == NULL or entry == NULL:
        free(lo)
        free(entry)
        raise MemoryError()
    cdef uint64_t* hi = lo + size
    cdef uint64_t binom[64 * 4]  # C(left of kind k, m) at 4 k + m, for the second hand
    cdef uint64_t w1, w2, rest_w
    cdef int64_t left
    cdef int ri, rj
    cdef bint mismatch = False
    for i in range(n):
        for t in range(3):
            entry[3 * i + t] = multisets[i, t, 0] * 4 + multisets[i, t, 1]
    try:
        with nogil:
            for i in range(n):
                w1 = 1
                for t in range(3):
                    w1 *= _choose(counts[multisets[i, t, 0]], multisets[i, t, 1])
                if w1 == 0:
                    continue
                for k in range(kinds):
                    left = counts[k]
                    for t in range(3):
                        if multisets[i, t, 1] and multisets[i, t, 0] == k:
                            left -= multisets[i, t, 1]
                    binom[4 * k] = 1
                    binom[4 * k + 1] = _choose(left, 1)
                    binom[4 * k + 2] = _choose(left, 2)
                    binom[4 * k + 3] = _choose(left, 3)
                base = classes[i] * n_classes
                ri = ranks[i]
                for j in range(n):
                    w2 = w1 * binom[entry[3 * j]] * binom[entry[3 * j + 1]] * binom[entry[3 * j + 2]]
                    if w2 == 0:
                        continue
                    rj = ranks[j]
                    k = (base + classes[j]) * 3
                    if by_suit and ri == rj:  # the highest kind's suits decide
                        if top[j] != top[i]:
                            mismatch = True
                            break
                        rest_w = 1
                        for t in range(3):
                            if multisets[i, t, 1] and multisets[i, t, 0] != top[i]:
                                rest_w *= _choose(counts[multisets[i, t, 0]], multisets[i, t, 1])
                            if multisets[j, t, 1] and multisets[j, t, 0] != top[i]:
                                rest_w *= binom[entry[3 * j + t]]
                        s = ((top[i] * 4 + top_m[i]) * 4 + top_m[j]) * 3
                        for t in range(3):
                            w2 = rest_w * <uint64_t>split[s + t]
                            lo[k + t] += w2
                            hi[k + t] += lo[k + t] < w2
                        continue
                    k += 1 + (ri > rj) - (ri < rj)
                    lo[k] += w2
                    hi[k] += lo[k] < w2
                if mismatch:
                    break
        if mismatch:
            raise ValueError("two multisets of equal rank have different highest kinds: suits cannot order them")
        for k in range(size if not wide else 0):  # (checked whole before any is written)
            if hi[k] or out64[k] + lo[k] < lo[k]:
                raise OverflowError(f"the count of cell {k} passes 2**64: count into an object array")
        for k in range(size):
            if wide and (lo[k] or hi[k]):
                out[k] += (<object>hi[k] << 64) | <object>lo[k]
            elif not wide:
                out64[k] += lo[k]
    finally:
        free(lo)
        free(entry)
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
def brute_force_one_deck(const uint8_t[::1] hand_class, const uint16_t[::1] hand_rank, Py_ssize_t n_classes,
                         uint64_t[::1] out not None):
    """Every ordered pair of disjoint hands of one deck, card by card: out[(p * n_classes
    + b) * 3 + order + 1] counts pairs of classes p and b in which the first hand beats
    (order 1), ties or loses to the second. ``hand_class[i]`` and ``hand_rank[i]`` are the
    class and rank of the i-th hand of itertools.combinations(range(52), 3). A check of
    the counting above, independent of it: 22,100 x 22,100 pairs, those sharing a card
    skipped (407,170,400 remain)."""
    cdef Py_ssize_t n = 22100, i, j, a, b, c, base
    cdef uint64_t m
    cdef int ri
    if hand_class.shape[0] != n or hand_rank.shape[0] != n:
        raise ValueError("hand_class and hand_rank must hold the 22,100 one-deck hands")
    if not 1 <= n_classes <= MAX_CLASSES or out.shape[0] != n_classes * n_classes * 3:
        raise ValueError("out must hold n_classes ** 2 * 3 counts")
    for i in range(n):
        if hand_class[i] >= n_classes:
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
                base = hand_class[i] * n_classes
                ri = hand_rank[i]
                for j in range(n):
                    if not (m & masks[j]):
                        out[(base + hand_class[j]) * 3 + 1 + (ri > hand_rank[j]) - (ri < hand_rank[j])] += 1
    finally:
        free(masks)
    return None



# --- simulation ----------------------------------------------------------------------------
# Rounds dealt exactly as sanggong.dealing.Game deals them (the same draws, in the same
# order, so a chunk's hands are the game's hands for the same bit generator), evaluated
# and settled by table lookup, all without the GIL. Money never enters the loop except
# as the per-outcome integer net of a bet slip (session mode); returns are summed from
# the outcome counts afterwards, exactly. simulate_chunk checks its arguments; the loops
# are C, in _rounds.h (specialised for the online and Macau tables, general for the rest).

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


cdef int _check_aligned(const void* address, size_t size, str name) except -1:
    # a typed memoryview does not check alignment, and reading an int64 through a pointer
    # that is not 8-byte aligned is undefined behaviour (an array that came through a
    # pickle, e.g. to a Dask worker, can be a view into a byte buffer at any offset)
    if <size_t>address % size:
        raise ValueError(f"{name} is not aligned to {size} bytes: pass a fresh array (numpy.require(..., requirements='A'))")
    return 0


cdef extern from "_rounds.h" nogil:
    ctypedef struct sg_table:
        int64_t decks, hands, fresh, burn_first, burn_later, head, head_burned, one_at_a_time, cut_lo, cut_hi
        const uint16_t *state
        const uint16_t *value
        const uint64_t *entry
        int counted
        int plain
        int64_t n_classes
        uint64_t *pairs
        uint64_t *single
        int64_t pair_len, single_len
        const uint8_t *stop
        int session
        const int64_t *money
        int64_t *net
        int64_t bets, key_space, money_row
        const uint8_t *outcome
        const int32_t *row
        const int32_t *hand
        const int32_t *ka
        const int32_t *kb
        const int32_t *kc
        const int32_t *kd
        const uint16_t *rank
        const uint8_t *cls
    uint64_t sg_entry(uint64_t cls, uint64_t rank, uint64_t n_classes, uint64_t width)
    int64_t sg_simulate(uint64_t (*next)(void *), void *rng, const sg_table *t, int64_t rounds)


cdef Py_ssize_t _simulate_rounds(object bit_generator, bitgen_t* rng, Tables tables, const int64_t[::1] params,
                                 Py_ssize_t rounds, uint64_t* pairs, uint64_t* single, Py_ssize_t pair_len,
                                 Py_ssize_t single_len, const uint8_t* stop, sg_table* table) except -1:
    """simulate_chunk's rounds, its arguments checked (``table`` holds the session mode's,
    or money NULL): sg_simulate's loops, with a hand's counts from one entry per rid of
    the ranking (sg_entry)."""
    cdef const tables_t* t = &tables.t
    cdef Py_ssize_t n_rids = tables.n_rids, i
    cdef uint64_t width = 1 if t.ordered_by_class else 3
    cdef uint64_t* entry = <uint64_t*>malloc(n_rids * sizeof(uint64_t))
    if entry == NULL:
        raise MemoryError()
    for i in range(n_rids):
        entry[i] = sg_entry(t.cls[i], t.rank[i], t.n_classes, width)
    table.decks = params[P_DECKS]
    table.hands = params[P_POSITIONS] + 1
    table.fresh = params[P_FRESH] != 0
    table.burn_first = params[P_BURN_FIRST]
    table.burn_later = params[P_BURN_LATER]
    table.head = params[P_HEAD] != 0
    table.head_burned = params[P_HEAD_BURNED] != 0
    table.one_at_a_time = params[P_ONE_AT_A_TIME] != 0
    table.cut_lo = params[P_CUT_LO]
    table.cut_hi = params[P_CUT_HI]
    table.state = t.state
    table.value = t.value
    table.entry = entry
    table.counted = width == 3
    table.plain = t.identity and t.class_identity and t.ordered_by_class
    table.n_classes = t.n_classes
    table.pairs = pairs
    table.single = single
    table.pair_len = pair_len
    table.single_len = single_len
    table.stop = stop
    table.rank = t.rank
    table.cls = t.cls
    cdef int64_t done
    try:
        with bit_generator.lock, nogil:
            done = sg_simulate(rng.next_uint64, rng.state, table, rounds)
    finally:
        free(entry)
    if done < 0:
        raise MemoryError()
    return done


@cython.boundscheck(False)
@cython.wraparound(False)
def simulate_chunk(bit_generator, Tables tables not None, const int64_t[::1] params, Py_ssize_t rounds,
                   uint64_t[:, ::1] pairs not None, uint64_t[:, ::1] single not None,
                   plan, const int64_t[:, ::1] money, int64_t[::1] net, const uint8_t[::1] stop not None):
    """Deal and evaluate ``rounds`` rounds from a fresh shoe and count what settles
    every bet, with the hands ranked by ``tables``: for each position h
    ``pairs[h, (class_h * C + class_banker) * W + w]`` (C classes; W = 1 and w = 0 where
    the order of two hands follows from their classes, else W = 3 and w = order + 1, the
    order 1, 0 or -1 as the hand beats, ties or loses to the banker's) and
    ``single[h, 6 * class_h + pair_plus_h]`` for every hand (the banker's is h = 0);
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
    cdef const tables_t* t = &tables.t
    cdef Py_ssize_t n_classes = t.n_classes
    cdef Py_ssize_t width = 1 if t.ordered_by_class else 3
    cdef Py_ssize_t pair_len = n_classes * n_classes * width, single_len = n_classes * 6
    if pairs.shape[0] != hands or pairs.shape[1] != pair_len or single.shape[0] != hands or single.shape[1] != single_len:
        raise ValueError(f"pairs must be (hands, {pair_len}) and single (hands, {single_len})")
    _check_aligned(&pairs[0, 0], sizeof(uint64_t), "pairs")
    _check_aligned(&single[0, 0], sizeof(uint64_t), "single")
    if stop.shape[0] < 1:
        raise ValueError("stop must hold one flag")
    cdef bint with_money = money is not None
    cdef const uint8_t[::1] outcomes
    cdef const int32_t[::1] row, hand, ka, kb, kc, kd
    cdef Py_ssize_t m = 0, key_space = 0
    if with_money:
        outcomes = plan.table
        row = plan.row
        hand = plan.hand
        ka = plan.ka
        kb = plan.kb
        kc = plan.kc
        kd = plan.kd
        key_space = plan.key_space
        m = row.shape[0]
        if plan.n_classes != n_classes:
            raise ValueError("the settlement plan was made for another ranking")
        _check_plan(outcomes, key_space, n_classes, row, hand, ka, kb, kc, kd, hands)
        if net is None or net.shape[0] < rounds or money.shape[0] != m or money.shape[1] < 256:
            raise ValueError("money must be (bets, 256) and net hold a value per round")
        if m:
            _check_aligned(&money[0, 0], sizeof(int64_t), "money")
            _check_aligned(&row[0], sizeof(int32_t), "plan.row")
            _check_aligned(&hand[0], sizeof(int32_t), "plan.hand")
            _check_aligned(&ka[0], sizeof(int32_t), "plan.ka")
            _check_aligned(&kb[0], sizeof(int32_t), "plan.kb")
            _check_aligned(&kc[0], sizeof(int32_t), "plan.kc")
            _check_aligned(&kd[0], sizeof(int32_t), "plan.kd")
        if rounds > 0:
            _check_aligned(&net[0], sizeof(int64_t), "net")
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef sg_table table
    table.session = with_money
    if with_money:
        table.money = &money[0, 0] if m else NULL
        table.net = &net[0] if rounds else NULL
        table.bets = m
        table.key_space = key_space
        table.money_row = money.strides[0] // sizeof(int64_t)
        table.outcome = &outcomes[0] if outcomes.shape[0] else NULL
        table.row = &row[0] if m else NULL
        table.hand = &hand[0] if m else NULL
        table.ka = &ka[0] if m else NULL
        table.kb = &kb[0] if m else NULL
        table.kc = &kc[0] if m else NULL
        table.kd = &kd[0] if m else NULL
    return _simulate_rounds(bit_generator, rng, tables, params, rounds, &pairs[0, 0], &single[0, 0],
                            pair_len, single_len, &stop[0], &table)


include "_shoe.pxi"
