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
    default ranking's ``RankingTables`` are made from them (``sanggong._kernels.default_triples``)
    rather than computed again in Python for every process that ranks a hand."""
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
        return (_rebuild_lookups, (self.source.ranking,))


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
