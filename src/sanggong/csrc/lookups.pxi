# A hand's value under the default ranking and under any ranking's run-time tables
# (included into _core.pyx): the single-hand kernels and the C-level API's hand_rank and
# hand_pair_plus. The batch kernels (eval.pxi) read the same tables.

cdef extern from "_lookups.h" nogil:
    const uint16_t SG_STATE[2704]
    const uint8_t SG_HAND[23660]

# Two lookups, both in L1 (see tools/gen_lookups.py): the first two cards give a state,
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


def default_lookups():
    """The build-time tables above (``_lookups.h``: the default ranking's), as bytes:
    ``(SG_STATE, SG_HAND)``, the first ``uint16`` in the machine's byte order. The
    default ranking's ``RankingTables`` are made from them in plain Python
    (``sanggong.ranking``, through ``sanggong._kernels.default_lookups``) rather than computed
    again from every triple, with NumPy, in every process that ranks a hand."""
    return ((<const char*>SG_STATE)[:sizeof(SG_STATE)], (<const char*>SG_HAND)[:sizeof(SG_HAND)])


# --- a ranking's run-time tables ---------------------------------------------------------
# sanggong.ranking generates, for any ranking, a two-card state table and a value table
# (rid << 3 | pair plus, uint16), and per rid its comparable rank and its class. A Lookups
# object holds them as C arrays after checking that every index a kernel can form from
# them (given card codes in 0..51) is in bounds, so the loops need no check of their own.

ctypedef struct lookups_t:
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


cdef class Lookups:
    """A ranking's lookup tables as the kernels read them (built by
    ``sanggong._kernels.lookups``; pickled by the ranking, not the bytes)."""

    cdef lookups_t t
    cdef readonly object source
    cdef readonly Py_ssize_t n_ranks, n_classes, n_rids
    cdef readonly bint ordered_by_class, wide
    cdef object _arrays
    cdef object _vector  # the batch kernels' vector formula, built on first use (_kernels.vector_formula)

    def __init__(self, source):
        # the tables as buffers: a RankingTables' own (``buffers``, made without NumPy), else
        # the source's arrays, made contiguous of their types by NumPy where they are not
        held = getattr(source, "buffers", source)
        state = _table(held.state, "uint16")
        state16 = _table(held.state16, "uint16")
        value = _table(held.value, "uint16")
        rank = _table(held.rank, "uint16")
        cls = _table(held.cls, "uint8")
        cdef const uint16_t[::1] s = state, s16 = state16, v = value, r = rank
        cdef const uint8_t[::1] c = cls
        cdef Py_ssize_t n_ranks = int(source.n_ranks), n_classes = int(source.n_classes)
        cdef Py_ssize_t n_values = v.shape[0], n_rids = r.shape[0], k
        cdef bint by_class, identity = True, class_identity = True
        cdef int64_t class_rank[MAX_CLASSES]
        if s.shape[0] != 2704 or s16.shape[0] != 52 * 256 or n_values < 52 or n_rids < 1:
            raise ValueError("ranking tables of the wrong shape")
        for k in range(2704):
            if s[k] + 52 > n_values:
                raise ValueError("a state of the ranking tables points outside the value table")
        for k in range(52 * 256):
            if s16[k] + 52 > n_values:
                raise ValueError("a state of the ranking tables points outside the value table")
        for k in range(n_values):
            if (v[k] >> 3) >= n_rids or (v[k] & 7) > 5:
                raise ValueError("a value of the ranking tables names no rid or category")
        if c.shape[0] != n_rids:
            raise ValueError("a value of the ranking tables names no rid or category")
        if not (1 <= n_ranks <= 65536 and 1 <= n_classes <= MAX_CLASSES):
            raise ValueError("a rid of the ranking tables has a rank or class out of range")
        for k in range(n_rids):
            if r[k] >= n_ranks or c[k] >= n_classes:
                raise ValueError("a rid of the ranking tables has a rank or class out of range")
            identity = identity and r[k] == k
            class_identity = class_identity and c[k] == k
        by_class = bool(source.ordered_by_class)
        if by_class:  # then the kernels drop the comparison: check that it is redundant
            for k in range(n_classes):
                class_rank[k] = -1
            for k in range(n_rids):  # (the last rid of a class gives its rank, as NumPy's assignment)
                class_rank[c[k]] = r[k]
            for k in range(n_rids):
                if class_rank[c[k]] != r[k]:
                    raise ValueError("ranking tables say ordered by class, but a class has two ranks")
        self._arrays = (state, state16, value, rank, cls)
        self.t.state = &s[0]
        self.t.state16 = &s16[0]
        self.t.value = &v[0]
        self.t.rank = &r[0]
        self.t.cls = &c[0]
        self.t.n_ranks = n_ranks
        self.t.n_classes = n_classes
        self.t.identity = identity
        self.t.class_identity = class_identity
        self.t.ordered_by_class = by_class
        self.source = source
        self.n_ranks, self.n_classes, self.n_rids = n_ranks, n_classes, n_rids
        self.ordered_by_class = by_class
        self.wide = n_ranks > 256

    def __reduce__(self):
        return (_rebuild_lookups, (self.source.ranking,))


cdef object _table(object table, str dtype):
    """``table`` where it is a one-dimensional contiguous buffer of ``dtype``'s items (an
    ``array.array``, or a NumPy array of that dtype), else it as one, made by NumPy."""
    cdef const uint16_t[::1] wide
    cdef const uint8_t[::1] narrow
    try:
        if dtype == "uint16":
            wide = table
        else:
            narrow = table
        return table
    except (ValueError, TypeError, BufferError):
        import numpy as np
        return np.ascontiguousarray(table, dtype=dtype)


def _rebuild_lookups(ranking):
    from sanggong.ranking import tables_for
    return Lookups(tables_for(ranking))


cdef inline uint16_t _value(const lookups_t* t, size_t c0, size_t c1, size_t c2) noexcept nogil:
    return t.value[t.state[c0 * 52 + c1] + c2]


cdef inline uint16_t _rank_of(const lookups_t* t, uint16_t value) noexcept nogil:
    return t.rank[value >> 3]


cdef inline uint8_t _class_of(const lookups_t* t, uint16_t value) noexcept nogil:
    return t.cls[value >> 3]


def rank3(Lookups lookups not None, c0, c1, c2):
    """Rank (below n_ranks, higher wins) of these three card codes under ``lookups``."""
    return _rank_of(&lookups.t, _value(&lookups.t, _code(c0), _code(c1), _code(c2)))


def class3(Lookups lookups not None, c0, c1, c2):
    """Class (0 .. n_classes - 1) of these three card codes under ``lookups``."""
    return _class_of(&lookups.t, _value(&lookups.t, _code(c0), _code(c1), _code(c2)))
