/* sg_dot_rounds (sg_sums.h), included there once for each instruction set it is compiled
 * for, with
 *
 *     SG_DT         the target attribute of its functions (empty: baseline),
 *     SG_DFN(name)  its functions' names (sg_dot_rounds_base, sg_dot_rounds_avx2, ...).
 *
 * Plain C that the compiler vectorises over the SG_CHUNK rounds, as wide as the target
 * allows (2 doubles on baseline x86-64, 4 with AVX2, 8 with AVX-512). Every product and
 * partial sum is an integer below 2**53 (the caller's check, shoe.pxi's _doubles_exact), so
 * each is exact however the compiler orders or fuses the operations (FMA included): every
 * variant gives the same sums, which the tests check against the integer path.
 *
 * No include guard: included once per variant, by sg_sums.h only. */

/* A multiset's weights in the SG_CHUNK rounds: its entries' products (as sg_weight's tree for
 * 6 entries; any order is exact). */
SG_DT SG_ALWAYS_INLINE void SG_DFN(sg_round_weights)(const double *BT, const uint16_t *m, int64_t width,
                                                      double *w) {
    if (width == 6) {
        const double *a = BT + SG_CHUNK * m[0], *b = BT + SG_CHUNK * m[1], *c = BT + SG_CHUNK * m[2],
                     *d = BT + SG_CHUNK * m[3], *e = BT + SG_CHUNK * m[4], *f = BT + SG_CHUNK * m[5];
        for (int r = 0; r < SG_CHUNK; r++)
            w[r] = (a[r] * b[r]) * (c[r] * d[r]) * (e[r] * f[r]);
    } else if (width == 5) {
        const double *a = BT + SG_CHUNK * m[0], *b = BT + SG_CHUNK * m[1], *c = BT + SG_CHUNK * m[2],
                     *d = BT + SG_CHUNK * m[3], *e = BT + SG_CHUNK * m[4];
        for (int r = 0; r < SG_CHUNK; r++)
            w[r] = (a[r] * b[r]) * (c[r] * d[r]) * e[r];
    } else if (width == 4) {
        const double *a = BT + SG_CHUNK * m[0], *b = BT + SG_CHUNK * m[1], *c = BT + SG_CHUNK * m[2],
                     *d = BT + SG_CHUNK * m[3];
        for (int r = 0; r < SG_CHUNK; r++)
            w[r] = (a[r] * b[r]) * (c[r] * d[r]);
    } else if (width == 3) {
        const double *a = BT + SG_CHUNK * m[0], *b = BT + SG_CHUNK * m[1], *c = BT + SG_CHUNK * m[2];
        for (int r = 0; r < SG_CHUNK; r++)
            w[r] = a[r] * b[r] * c[r];
    } else if (width == 2) {
        const double *a = BT + SG_CHUNK * m[0], *b = BT + SG_CHUNK * m[1];
        for (int r = 0; r < SG_CHUNK; r++)
            w[r] = a[r] * b[r];
    } else {
        for (int r = 0; r < SG_CHUNK; r++)
            w[r] = BT[SG_CHUNK * m[0] + r];
        for (int64_t t = 1; t < width; t++)
            for (int r = 0; r < SG_CHUNK; r++)
                w[r] *= BT[SG_CHUNK * m[t] + r];
    }
}

/* sg_dot_rounds for a constant width and at most 3 rows: the sums in a local array that the
 * compiler keeps in registers (in acc, they would be read back after every store: acc may
 * alias BT). */
SG_DT SG_ALWAYS_INLINE void SG_DFN(sg_dot_rounds_few)(const double *BT, const uint16_t *idx, int64_t width,
                                                       int64_t n, const double *values, int64_t rows,
                                                       double *acc) {
    double s0[SG_CHUNK] = {0}, s1[SG_CHUNK] = {0}, s2[SG_CHUNK] = {0};
    for (int64_t i = 0; i < n; i++) {
        const uint16_t *m = idx + width * i;
        const double *v = values + rows * i;
        const double x0 = v[0], x1 = rows > 1 ? v[1] : 0.0, x2 = rows > 2 ? v[2] : 0.0;
        double w[SG_CHUNK];
        SG_DFN(sg_round_weights)(BT, m, width, w);
        for (int r = 0; r < SG_CHUNK; r++) {
            s0[r] += w[r] * x0;
            if (rows > 1)
                s1[r] += w[r] * x1;
            if (rows > 2)
                s2[r] += w[r] * x2;
        }
    }
    for (int r = 0; r < SG_CHUNK; r++) {
        acc[r] += s0[r];
        if (rows > 1)
            acc[SG_CHUNK + r] += s1[r];
        if (rows > 2)
            acc[2 * SG_CHUNK + r] += s2[r];
    }
}

/* Several rounds' sums at once (ShoeKernel.numerators_batch), SG_CHUNK rounds a pass over
 * the multisets, in doubles: BT[SG_CHUNK e + r] is round r's entry e of the binomial table
 * (a round past those given: zeros), and acc[SG_CHUNK q + r] += the sum over multisets i of
 * round r's weight times values[i * rows + q], each multiset's ``width`` entries (a caller may
 * leave out the padding 1s: shoe.pxi's layout in doubles). Exact where the caller has checked that
 * every partial product of a weight's entries, every |value| and every partial sum are
 * integers below 2**53 (shoe.pxi's _doubles_exact); the rounds are the inner loop, the
 * table's entries of a round contiguous, so that the products go in vectors. */
SG_DT static void SG_DFN(sg_dot_rounds)(const double *BT, const uint16_t *idx, int64_t width, int64_t n,
                                        const double *values, int64_t rows, double *acc) {
#define SG_FEW(W, R)                                                                                           \
    if (width == (W) && rows == (R)) {                                                                         \
        SG_DFN(sg_dot_rounds_few)(BT, idx, (W), n, values, (R), acc);                                          \
        return;                                                                                                \
    }
    SG_FEW(6, 1) SG_FEW(6, 2) SG_FEW(6, 3) SG_FEW(5, 1) SG_FEW(5, 2) SG_FEW(5, 3)
    SG_FEW(4, 1) SG_FEW(4, 2) SG_FEW(4, 3) SG_FEW(3, 1) SG_FEW(3, 2) SG_FEW(3, 3)
    SG_FEW(2, 1) SG_FEW(2, 2) SG_FEW(2, 3) SG_FEW(1, 1) SG_FEW(1, 2) SG_FEW(1, 3)
#undef SG_FEW
    double sums[SG_MAX_EV_ROWS * SG_CHUNK] = {0}; /* (local: no store to it changes BT) */
    for (int64_t i = 0; i < n; i++) {
        double w[SG_CHUNK];
        SG_DFN(sg_round_weights)(BT, idx + width * i, width, w);
        for (int64_t q = 0; q < rows; q++) {
            double x = values[rows * i + q], *sum = sums + SG_CHUNK * q;
            for (int r = 0; r < SG_CHUNK; r++)
                sum[r] += w[r] * x;
        }
    }
    for (int64_t q = 0; q < rows * SG_CHUNK; q++)
        acc[q] += sums[q];
}
