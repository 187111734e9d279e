# Exact counting (included into _core.pyx): the compiled twins of _kernels.twin's
# joint_class_counts, suit_split and hand_counts, and the card-by-card enumeration of one
# deck that checks them. A pair's ways fit 64 bits (each kind holds at most MAX_KIND_COUNT
# cards: checked); the pair counts are summed in 128 bits, two words, and written to a
# uint64 output where they fit it (else OverflowError) or added to an object array's Python
# integers.

cdef extern from "sg_sums.h" nogil:
    int64_t sg_choose3(int64_t n, int64_t k)
    void sg_suit_wins(const int64_t *n, int64_t *W)

cdef enum:
    MAX_KIND_COUNT = 1024  # (a pair of hands: six cards, at most 1024 ** 6 = 2 ** 60 ways)
    MAX_KINDS = 64  # kinds of cards counted apart (the 52 cards at most)
    MAX_MULTISETS = 1024  # multisets of joint_class_counts' suit tie-break


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
    if multisets.shape[1] != 3 or multisets.shape[2] != 2 or values.shape[0] != n or kinds > MAX_KINDS:
        raise ValueError(f"multisets must be (n, 3, 2) with a value each, over at most {MAX_KINDS} kinds")
    for i in range(n):
        if values[i] >= out_len:
            raise ValueError(f"value {values[i]} of multiset {i} is outside the output")
        for t in range(3):
            if multisets[i, t, 0] >= kinds or multisets[i, t, 1] > 3:
                raise ValueError(f"multiset {i} names a kind outside the shoe")
    return 0


def suit_split(suits, Py_ssize_t a, Py_ssize_t b):
    """(lower, equal, higher): see _spec.counting.suit_split (here by the prefix sums of
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


ctypedef struct suit_ties_t:  # joint_class_counts' tie-break by suit
    bint by_suit
    # each kind's (lower, equal, higher) ways for a, b = 1..3 of its cards in the two hands
    int64_t split[MAX_KINDS * 16 * 3]
    uint8_t top[MAX_MULTISETS]  # each multiset's highest kind, and how many cards of it
    uint8_t top_m[MAX_MULTISETS]


@cython.boundscheck(False)
@cython.wraparound(False)
def joint_class_counts(const int64_t[::1] counts, const uint8_t[:, :, ::1] multisets,
                       const uint8_t[::1] classes, const uint16_t[::1] ranks, Py_ssize_t n_classes,
                       out not None, suits=None):
    """out[(p * n_classes + b) * 3 + order + 1] += ordered (position hand, banker hand)
    pairs of disjoint hands of classes p and b, the position's hand beating (order 1),
    tying (0) or losing to (-1) the banker's by their ranks, and where ``suits`` is given
    (a (kinds, 4) array: each kind's cards by suit, weakest first) equal ranks by their
    highest kind's suits; see _kernels.twin.joint_class_counts. ``out`` is uint64 or object."""
    cdef Py_ssize_t n = multisets.shape[0], kinds = counts.shape[0], size = n_classes * n_classes * 3
    cdef Py_ssize_t i, t
    if not 1 <= n_classes <= MAX_CLASSES or len(out) != size or ranks.shape[0] != n:
        raise ValueError("out must hold n_classes ** 2 * 3 counts, and every multiset have a rank")
    _check_multisets(kinds, multisets, classes, n_classes)
    for t in range(kinds):
        if not 0 <= counts[t] <= MAX_KIND_COUNT:
            raise ValueError(f"kind {t} holds {counts[t]} cards: at most {MAX_KIND_COUNT} are counted")
    cdef suit_ties_t ties
    ties.by_suit = suits is not None
    if ties.by_suit:
        _suit_ties(counts, multisets, suits, &ties)
    cdef bint wide = out.dtype == object
    cdef uint64_t[::1] out64 = None if wide else out
    cdef uint64_t* lo = <uint64_t*>calloc(2 * size, sizeof(uint64_t))  # the sums: lo, then hi words
    cdef int16_t* entry = <int16_t*>malloc(3 * n * sizeof(int16_t) + 1)  # each multiset's kind * 4 + count
    if lo == NULL or entry == NULL:
        free(lo)
        free(entry)
        raise MemoryError()
    cdef bint mismatch
    for i in range(n):
        for t in range(3):
            entry[3 * i + t] = multisets[i, t, 0] * 4 + multisets[i, t, 1]
    try:
        with nogil:
            mismatch = _count_pairs(counts, multisets, classes, ranks, n_classes, &ties, entry, lo, lo + size)
        if mismatch:
            raise ValueError("two multisets of equal rank have different highest kinds: suits cannot order them")
        _add_counts(out, out64, wide, lo, lo + size, size)
    finally:
        free(lo)
        free(entry)
    return None


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _suit_ties(const int64_t[::1] counts, const uint8_t[:, :, ::1] multisets, object suits,
                    suit_ties_t* ties) except -1:
    """The tables of joint_class_counts' tie-break: each kind's split of two hands' ways by
    their strongest suits (sg_suit_wins), each multiset's highest kind (checked: the
    suits add up to each kind's cards, and no multiset is empty)."""
    cdef Py_ssize_t n = multisets.shape[0], kinds = counts.shape[0], i, j, t, k
    cdef const int64_t[:, ::1] suit_counts = suits
    cdef int64_t W[16]
    if suit_counts.shape[0] != kinds or suit_counts.shape[1] != 4 or n > MAX_MULTISETS:
        raise ValueError(f"suits must be (kinds, 4): each kind's cards by suit, for at most {MAX_MULTISETS:,} multisets")
    for t in range(kinds):
        if (suit_counts[t, 0] < 0 or suit_counts[t, 1] < 0 or suit_counts[t, 2] < 0 or suit_counts[t, 3] < 0
                or suit_counts[t, 0] + suit_counts[t, 1] + suit_counts[t, 2] + suit_counts[t, 3] != counts[t]):
            raise ValueError(f"suits[{t}] does not add up to the {counts[t]} cards of kind {t}")
        sg_suit_wins(&suit_counts[t, 0], W)
        for i in range(1, 4):
            for j in range(1, 4):
                k = ((t * 4 + i) * 4 + j) * 3
                ties.split[k] = W[4 * j + i]
                ties.split[k + 2] = W[4 * i + j]
                ties.split[k + 1] = sg_choose3(counts[t], i) * sg_choose3(counts[t] - i, j) - ties.split[k] - ties.split[k + 2]
    for i in range(n):
        ties.top_m[i] = 0
        for t in range(3):
            if multisets[i, t, 1] and (ties.top_m[i] == 0 or multisets[i, t, 0] > ties.top[i]):
                ties.top[i] = multisets[i, t, 0]
                ties.top_m[i] = multisets[i, t, 1]
        if ties.top_m[i] == 0:
            raise ValueError(f"multiset {i} holds no card")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
cdef bint _count_pairs(const int64_t[::1] counts, const uint8_t[:, :, ::1] multisets, const uint8_t[::1] classes,
                       const uint16_t[::1] ranks, Py_ssize_t n_classes, const suit_ties_t* ties,
                       const int16_t* entry, uint64_t* lo, uint64_t* hi) noexcept nogil:
    """joint_class_counts' sums (the arguments checked), in 128 bits: lo and hi words.
    True where two multisets of equal rank have different highest kinds (suits cannot
    order them), and the sums are then incomplete."""
    cdef Py_ssize_t n = multisets.shape[0], kinds = counts.shape[0], i, j, t, k, s, base
    cdef uint64_t binom[MAX_KINDS * 4]  # C(left of kind k, m) at 4 k + m, for the second hand
    cdef uint64_t w1, w2, rest_w
    cdef int64_t left
    cdef int ri, rj
    cdef bint by_suit = ties.by_suit
    cdef const uint8_t* top = &ties.top[0]
    cdef const uint8_t* top_m = &ties.top_m[0]
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
                    return True
                rest_w = 1
                for t in range(3):
                    if multisets[i, t, 1] and multisets[i, t, 0] != top[i]:
                        rest_w *= _choose(counts[multisets[i, t, 0]], multisets[i, t, 1])
                    if multisets[j, t, 1] and multisets[j, t, 0] != top[i]:
                        rest_w *= binom[entry[3 * j + t]]
                s = ((top[i] * 4 + top_m[i]) * 4 + top_m[j]) * 3
                for t in range(3):
                    w2 = rest_w * <uint64_t>ties.split[s + t]
                    lo[k + t] += w2
                    hi[k + t] += lo[k + t] < w2
                continue
            k += 1 + (ri > rj) - (ri < rj)
            lo[k] += w2
            hi[k] += lo[k] < w2
    return False


cdef int _add_counts(object out, uint64_t[::1] out64, bint wide, const uint64_t* lo, const uint64_t* hi,
                     Py_ssize_t size) except -1:
    """The 128-bit sums added to out: an object array of Python ints (wide), or a uint64
    array, out64 (OverflowError where a cell would pass 2**64, checked whole before any is
    written)."""
    cdef Py_ssize_t k
    if wide:
        for k in range(size):
            if lo[k] or hi[k]:
                out[k] += (<object>hi[k] << 64) | <object>lo[k]
        return 0
    for k in range(size):
        if hi[k] or out64[k] + lo[k] < lo[k]:
            raise OverflowError(f"the count of cell {k} passes 2**64: count into an object array")
    for k in range(size):
        out64[k] += lo[k]
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def hand_counts(const int64_t[::1] counts, const uint8_t[:, :, ::1] multisets,
                const uint8_t[::1] values, uint64_t[::1] out not None):
    """out[values[i]] += the ways to draw multiset i; see _kernels.twin.hand_counts."""
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
