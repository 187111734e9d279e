# The batch evaluation kernels (included into _core.pyx): ranks, Pair Plus categories and
# comparisons of many hands, by the table loops (sg_eval.h for C-contiguous bytes) or by a
# vector kernel (sg_simd.h: AVX2, AVX-512, AVX-512 VBMI) where the CPU has one and the
# ranking has a vector formula.

cdef extern from "sg_eval.h" nogil:
    void sg_values_u8(const uint16_t *state16, const uint16_t *value, const uint8_t *h, Py_ssize_t m, uint16_t *out)

ctypedef fused code_t:  # the card codes' dtypes the batch kernels read in place
    uint8_t
    int8_t
    uint16_t
    int16_t
    uint32_t
    int32_t
    uint64_t
    int64_t


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


# The vector kernel (sg_simd.h): 32 hands a step by arithmetic on the codes, the check of the
# codes in the same pass, for C-contiguous byte codes on CPUs with AVX2 or AVX-512 (the best
# the CPU runs, chosen at run time, so one build serves every x86-64 CPU); everything else takes the table loops below. A
# ranking enters it as a formula (rank = A[K] + H - (H >= G) * B[K]), derived by
# sanggong._kernels.vector_formula from the ranking's own tables and checked on all 140,608 ordered
# triples, by the formula and by every vector kernel the CPU runs, before it is used; tables no formula fits keep
# the scalar kernel. Rankings are data: this is how the arithmetic kernel serves any.

cdef extern from "sg_simd.h" nogil:
    ctypedef struct sg_eval_formula:
        int high
    int SG_KERNEL_SCALAR
    int sg_best_kernel()
    Py_ssize_t sg_eval_vector(int kernel, const sg_eval_formula* formula, const uint8_t* h, Py_ssize_t n, void* ranks,
                              uint8_t* pp)

# The kernels by their numbers in sg_simd.h, each running where the ones before it do.
_KERNEL_NAMES = ("scalar", "avx2", "avx512", "avx512vbmi")
cdef int _chosen_kernel = -1  # -1: not chosen yet (the CPU is asked on first use)


cdef inline int _kernel() noexcept:
    global _chosen_kernel
    if _chosen_kernel < 0:
        _chosen_kernel = sg_best_kernel()
    return _chosen_kernel


def _eval_kernels():
    """The batch evaluation kernels this build can run on this CPU, the fallback first."""
    return _KERNEL_NAMES[:1 + sg_best_kernel()]


def _eval_kernel():
    """The name of the batch evaluation kernel in use (see _use_eval_kernel)."""
    return _KERNEL_NAMES[_kernel()]


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


def _formula_mode(Lookups lookups not None):
    """The high-card mode of the vector kernel's formula for these lookups (0 none, 1 rank,
    2 rank and suit), or None where no formula fits them (then the scalar kernel serves
    them); makes the formula if need be. For the tests."""
    cdef const sg_eval_formula* formula = _vector_formula(lookups)
    return None if formula == NULL else formula.high


def _formula_run(bytes formula not None, const uint8_t[:, ::1] hands not None, ranks, pp):
    """Run every vector kernel this CPU has with a formula (the bytes of an sg_eval_formula) on
    C-contiguous uint8 codes into ranks (uint8 or uint16, the formula's width) and pp (uint8):
    the best kernel, then each other one into copies, compared; the first bad row, or -1,
    or -3 where the kernels disagree. For sanggong._kernels.vector_formula's check: the caller holds
    to the formula's layout and sizes."""
    cdef int best = sg_best_kernel(), kernel
    cdef Py_ssize_t n = hands.shape[0], bad
    if len(formula) != sizeof(sg_eval_formula) or best == SG_KERNEL_SCALAR or n > len(pp) \
            or n > len(ranks) or hands.shape[1] != 3 or n == 0:
        raise ValueError("no vector kernel here, or arrays that do not fit")
    cdef const sg_eval_formula* p = <const sg_eval_formula*><const char*>formula
    bad = sg_eval_vector(best, p, &hands[0, 0], n, _data(ranks), <uint8_t*>_data(pp))
    for kernel in range(SG_KERNEL_SCALAR + 1, best):
        other_ranks, other_pp = ranks.copy(), pp.copy()
        if sg_eval_vector(kernel, p, &hands[0, 0], n, _data(other_ranks), <uint8_t*>_data(other_pp)) != bad \
                or bytes(other_ranks) != bytes(ranks) or bytes(other_pp) != bytes(pp):
            return -3
    return bad


cdef void* _data(object arr) except NULL:
    cdef uint16_t[::1] r16
    cdef uint8_t[::1] r8
    if arr.dtype.itemsize == 2:
        r16 = arr
        return &r16[0]
    r8 = arr
    return &r8[0]


cdef const sg_eval_formula* _vector_formula(Lookups lookups) except? NULL:
    """The vector formula of these lookups (made on first use), or NULL where none fits."""
    if lookups._vector is None:
        from sanggong._kernels.vector_formula import make_formula
        lookups._vector = False  # (the scalar kernel while the formula is made)
        lookups._vector = make_formula(lookups.source, lookups.wide, sizeof(sg_eval_formula),
                                   None if sg_best_kernel() == SG_KERNEL_SCALAR else _formula_run) or False
    if lookups._vector is False:
        return NULL
    return <const sg_eval_formula*><const char*>lookups._vector


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


cdef inline void _values(const lookups_t* t, const code_t* b, Py_ssize_t m, Py_ssize_t s0, Py_ssize_t s1,
                         uint16_t* vals) noexcept nogil:
    """The values of m rows (codes checked) into vals."""
    cdef Py_ssize_t k
    cdef const uint16_t* value = t.value
    cdef const uint16_t* state = t.state
    if s0 == 3 and s1 == 1:
        if code_t is uint8_t:  # the common batch: a kernel of its own (sg_eval.h)
            sg_values_u8(t.state16, value, b, m, vals)
        else:
            for k in range(m):
                vals[k] = value[state[<size_t>b[3 * k] * 52 + <size_t>b[3 * k + 1]] + <size_t>b[3 * k + 2]]
    else:
        for k in range(m):
            vals[k] = value[state[<size_t>b[k * s0] * 52 + <size_t>b[k * s0 + s1]] + <size_t>b[k * s0 + 2 * s1]]


cdef Py_ssize_t _eval_rows(
    const lookups_t* t, const code_t* h, Py_ssize_t n, Py_ssize_t s0, Py_ssize_t s1,
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
    const lookups_t* t,
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


cdef Py_ssize_t _block_ranks(int kernel, const sg_eval_formula* formula, bint wide, const lookups_t* t, const uint8_t* x, Py_ssize_t m,
                             Py_ssize_t s0, Py_ssize_t s1, uint16_t* vals, void* r) noexcept nogil:
    """The ranks of m rows of byte codes at x (int8 read as uint8: a negative code is
    above 51) into r (uint16 where wide, else uint8), by the vector kernel for C-contiguous
    rows, else by the table loops (one lookup for a broadcast row); the first bad row, or
    -1. vals is scratch."""
    cdef Py_ssize_t k, bad
    if s0 == 3 and s1 == 1:
        return sg_eval_vector(kernel, formula, x, m, r, NULL)
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
    int kernel, const sg_eval_formula* formula, bint wide, const lookups_t* t,
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
        bad_a = _block_ranks(kernel, formula, wide, t, a + start * as0, m, as0, as1, vals, ra)
        bad_b = _block_ranks(kernel, formula, wide, t, b + start * bs0, m, bs0, bs1, vals, rb)
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
cdef Py_ssize_t _eval_batch(Lookups lookups, const code_t[:, :] hands, rank_t* ranks, uint8_t* pair_plus) except? -2:
    """Strides and pointers for _eval_rows, or for the vector kernel where the codes are
    C-contiguous bytes, the CPU has it and the ranking has a formula (the caller has checked
    the shapes); an output that is NULL is not written."""
    cdef Py_ssize_t n = hands.shape[0], bad
    if n == 0:
        return -1
    cdef Py_ssize_t s0 = _element_stride(hands.strides[0], sizeof(code_t), "hands")
    cdef Py_ssize_t s1 = _element_stride(hands.strides[1], sizeof(code_t), "hands")
    cdef const code_t* h = &hands[0, 0]
    cdef const lookups_t* t = &lookups.t
    cdef const sg_eval_formula* formula = NULL
    cdef int kernel = _kernel()
    if (code_t is uint8_t or code_t is int8_t) and s0 == 3 and s1 == 1 and kernel != SG_KERNEL_SCALAR:
        formula = _vector_formula(lookups)  # (int8 codes read as bytes: a negative one is above 51)
    with nogil:
        if formula != NULL:
            bad = sg_eval_vector(kernel, formula, <const uint8_t*>h, n, ranks, pair_plus)
        else:
            bad = _eval_rows(t, h, n, s0, s1, ranks, pair_plus)
    return bad


cdef Py_ssize_t _eval_any(Lookups lookups, const code_t[:, :] hands, object ranks, object pair_plus) except? -2:
    """Check the outputs (a rank array of the lookups' width, or None) and evaluate."""
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
        return _eval_batch(lookups, hands, <uint8_t*>NULL, p)
    if lookups.wide:
        r16 = ranks
        _check_shape(n, hands.shape[1], r16.shape[0], "hands")
        return _eval_batch(lookups, hands, &r16[0] if r16.shape[0] else <uint16_t*>NULL, p)
    r8 = ranks
    _check_shape(n, hands.shape[1], r8.shape[0], "hands")
    return _eval_batch(lookups, hands, &r8[0] if r8.shape[0] else <uint8_t*>NULL, p)


def rank_batch(Lookups lookups not None, const code_t[:, :] hands, out not None):
    """Write the rank of each row of ``hands`` under ``lookups`` into ``out`` (uint16 where
    the ranking has more than 256 ranks, else uint8); return the first row holding a code
    outside 0..51, or -1."""
    return _eval_any(lookups, hands, out, None)


def pair_plus_batch(Lookups lookups not None, const code_t[:, :] hands, uint8_t[::1] out not None):
    """Write the Pair Plus category of each row of ``hands`` into ``out``; return the
    first row holding a code outside 0..51, or -1."""
    return _eval_any(lookups, hands, None, out)


def evaluate_batch(Lookups lookups not None, const code_t[:, :] hands, ranks not None, pair_plus not None):
    """Write the rank and the Pair Plus category of each row; return the first row
    holding a code outside 0..51, or -1."""
    return _eval_any(lookups, hands, ranks, pair_plus)


@cython.boundscheck(False)
@cython.wraparound(False)
def compare_batch(Lookups lookups not None, const code_t[:, :] a, const code_t[:, :] b, int8_t[::1] out not None):
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
    cdef const lookups_t* t = &lookups.t
    cdef const sg_eval_formula* formula = NULL
    cdef bint wide = lookups.wide
    cdef int kernel = _kernel()
    if (code_t is uint8_t or code_t is int8_t) and ((as0 == 3 and as1 == 1) or (bs0 == 3 and bs1 == 1)) \
            and kernel != SG_KERNEL_SCALAR:
        formula = _vector_formula(lookups)
    with nogil:
        if code_t is uint8_t or code_t is int8_t:  # (the other dtypes never have a formula here)
            if formula != NULL:
                bad = _compare_rows_vec(kernel, formula, wide, t, <const uint8_t*>pa, as0, as1, <const uint8_t*>pb,
                                        bs0, bs1, n, o)
            else:
                bad = _compare_rows(t, pa, as0, as1, pb, bs0, bs1, n, o)
        else:
            bad = _compare_rows(t, pa, as0, as1, pb, bs0, bs1, n, o)
    return bad
