# Settlement (included into _core.pyx): one view of a settlement plan, which every kernel
# that settles bets reads (settle_batch here, simulate_chunk's session mode, play_chunk),
# and settle_batch. Every bet's outcome is one lookup (sg_settle.h says how): no bet is
# special in a loop. The plan (outcome codes and coefficients) is built in sanggong.settlement
# from the reference's bet_outcome; the view checks it once, and the kernels check every
# round's classes and categories before they read its codes.

cdef extern from "sg_settle.h" nogil:
    ctypedef struct sg_settlement:
        const uint8_t* outcome_codes
        const int32_t* row
        const int32_t* hand
        const int32_t* ka
        const int32_t* kb
        const int32_t* kc
        const int32_t* kd
        int64_t outcome_codes_len, bets, key_space, n_classes
    int sg_key(int32_t ka, int32_t kb, int32_t kc, int32_t kd, int cls, int pair_plus, int banker_cls, int order)
    int sg_order(int a, int b)
    uint8_t sg_outcome(const sg_settlement s, int64_t j, int cls, int pair_plus, int rank, int banker_cls,
                       int banker_rank)


cdef object _settlement(object plan, Py_ssize_t hands, Py_ssize_t n_classes, sg_settlement* view):
    """Check a settlement plan (``sanggong.settlement.SettlementPlan``) for a table of
    ``hands`` hands and a ranking of ``n_classes`` classes (-1: the plan's own), and point
    ``view`` at its arrays. Checked: their dtypes and lengths (a value per bet), their
    alignment (a typed memoryview does not check it), and that every index a round can form
    (classes below n_classes, categories up to 5, order + 1 up to 2) stays inside its bet's
    row and names a hand that is dealt: then the loops need no check of their own. Returns
    the arrays, which the caller holds while it reads the view."""
    arrays = (plan.outcome_codes, plan.row, plan.hand, plan.ka, plan.kb, plan.kc, plan.kd)
    cdef const uint8_t[::1] codes = arrays[0]
    cdef const int32_t[::1] row = arrays[1], hand = arrays[2], ka = arrays[3], kb = arrays[4]
    cdef const int32_t[::1] kc = arrays[5], kd = arrays[6]
    cdef Py_ssize_t key_space = plan.key_space, m = row.shape[0], j
    if n_classes < 0:
        n_classes = plan.n_classes
    elif plan.n_classes != n_classes:
        raise ValueError("the settlement plan was made for another ranking")
    if hand.shape[0] != m or ka.shape[0] != m or kb.shape[0] != m or kc.shape[0] != m or kd.shape[0] != m:
        raise ValueError("the settlement plan's arrays disagree in length")
    if not (1 <= n_classes <= MAX_CLASSES and 1 <= key_space <= (1 << 20)):
        raise ValueError("the settlement plan's key space is out of range")
    if m:
        _check_aligned(&row[0], sizeof(int32_t), "plan.row")
        _check_aligned(&hand[0], sizeof(int32_t), "plan.hand")
        _check_aligned(&ka[0], sizeof(int32_t), "plan.ka")
        _check_aligned(&kb[0], sizeof(int32_t), "plan.kb")
        _check_aligned(&kc[0], sizeof(int32_t), "plan.kc")
        _check_aligned(&kd[0], sizeof(int32_t), "plan.kd")
    for j in range(m):
        if not (0 <= hand[j] < hands and 0 <= row[j] and (row[j] + 1) * key_space <= codes.shape[0]
                and 0 <= ka[j] <= key_space and 0 <= kb[j] <= key_space and 0 <= kc[j] <= key_space
                and 0 <= kd[j] <= key_space
                and (n_classes - 1) * (ka[j] + kc[j]) + 5 * kb[j] + 2 * kd[j] < key_space):
            raise ValueError(f"the settlement plan's bet {j} indexes outside its table")
    view.outcome_codes = &codes[0] if codes.shape[0] else NULL
    view.row = &row[0] if m else NULL
    view.hand = &hand[0] if m else NULL
    view.ka = &ka[0] if m else NULL
    view.kb = &kb[0] if m else NULL
    view.kc = &kc[0] if m else NULL
    view.kd = &kd[0] if m else NULL
    view.outcome_codes_len = codes.shape[0]
    view.bets = m
    view.key_space = key_space
    view.n_classes = n_classes
    return arrays


@cython.boundscheck(False)
@cython.wraparound(False)
def settle_batch(plan, const uint8_t[:, ::1] classes, const uint16_t[:, ::1] ranks,
                 const uint8_t[:, ::1] pps, uint8_t[:, ::1] out not None):
    """Write the outcome code of bet j in round i to out[i, j]; classes, ranks and pps are
    (rounds, hands) with column 0 the banker (or a two-hand table's second hand).
    Returns the first round holding a class of ``plan.n_classes`` or more or a category
    above 5, or -1."""
    cdef sg_settlement view
    cdef Py_ssize_t n = classes.shape[0], nh = classes.shape[1]
    cdef Py_ssize_t i, j, h, bad = -1
    if (ranks.shape[0] != n or ranks.shape[1] != nh or pps.shape[0] != n or pps.shape[1] != nh
            or out.shape[0] != n):
        raise ValueError("classes, ranks, pair plus categories and outcomes disagree in shape")
    arrays = _settlement(plan, nh, -1, &view)
    if out.shape[1] != view.bets:
        raise ValueError("classes, ranks, pair plus categories and outcomes disagree in shape")
    if n and nh:
        _check_aligned(&ranks[0, 0], sizeof(uint16_t), "ranks")
    cdef sg_settlement v = view  # (a copy whose address is never taken: its fields stay in registers)
    cdef int64_t n_classes = v.n_classes
    with nogil:
        for i in range(n):
            for h in range(nh):
                if classes[i, h] >= n_classes or pps[i, h] > 5:
                    bad = i
                    break
            if bad >= 0:
                break
            for j in range(v.bets):
                h = v.hand[j]
                out[i, j] = sg_outcome(v, j, classes[i, h], pps[i, h], ranks[i, h], classes[i, 0], ranks[i, 0])
    return bad
