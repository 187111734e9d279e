/* The shoe evaluator's arithmetic: binomial tables of a composition and exact weighted
 * sums over multisets of counting kinds (sanggong.shoe explains the method; the
 * pure-Python twin is _kernels.twin.ShoeKernel).
 *
 * A multiset (a hand of 3 cards, or the 6 cards of a position's hand and the banker's)
 * is a row of indices into a table B of binomials, B[8 k + j] = C(c_k, j) for the c_k
 * cards of kind k the shoe holds (j <= 6), and B[8 K] = 1 pads a row. Its weight, the
 * ways to draw its cards, is the product of its entries, and the weights of a part's
 * multisets sum to C(n, 6) (or C(n, 3); Pair Plus's rank and suited multisets to 2 C(n, 3)),
 * below 2**61 for the n <= SG_MAX_CARDS cards of any shoe (checked below). Each sum adds
 * weight * value (a 64-bit value) in 128 bits: |sum| < 2**61 * 2**63 = 2**124, exact for
 * any shoe; in 64 where the caller has proved that the weights' sum times the largest
 * |value| stays below 2**62.
 *
 * Where suits break ties (the kinds are then the 13 ranks), a row may also hold one entry
 * E_t(a, b) (sg_suit_wins) at B[8 K + 1 + 16 t + 4 a + b], for a + b of its 6 cards: such
 * a term's weight is at most the ways to draw its 6 cards times C(a + b, a), which the
 * distinct terms sum to at most 2**6 C(n, 6) < 2**67; their values are kept below
 * SG_MAX_TIE_VALUE, so the sums stay below 2**68 * 2**59 = 2**127. */
#ifndef SANGGONG_SG_SUMS_H
#define SANGGONG_SG_SUMS_H
#include <stdint.h>
#include "sg_common.h"
#include "sg_limits.h"
#include "sg_random.h" /* sg_mul128 */

/* C(n, 6) < 2**61 holds for n <= 3443 cards: the largest shoe must stay within it (a
 * negative size stops the compiler otherwise) */
typedef char sg_sums_fit_the_shoe[SG_MAX_CARDS <= 3443 ? 1 : -1];

#define SG_BINOM_STRIDE 8
#define SG_MAX_EV_ROWS 64
#define SG_MAX_TIE_VALUE (INT64_C(1) << 59)
/* Pair Plus's weights: the 52 cards' binomials, the padding 1, then the 13 ranks' (a rank's
 * cards are codes 4 r .. 4 r + 3) from here: a rank multiset's entries, for its hands of
 * any suits, and three cards of one suit's, for the suited ones. */
#define SG_RANKS_AT (52 * SG_BINOM_STRIDE + 1)
#define SG_CARDS_WEIGHTS (SG_RANKS_AT + 13 * SG_BINOM_STRIDE + 1)

/* B[8 k + j] = C(counts[k], j) for j = 0..top; B[8 kinds] = 1 */
static inline void sg_binoms(const int64_t *counts, int64_t kinds, int64_t top, int64_t *B) {
    for (int64_t k = 0; k < kinds; k++) {
        int64_t c = counts[k], *b = B + SG_BINOM_STRIDE * k;
        b[0] = 1;
        for (int64_t j = 1; j <= top; j++)
            b[j] = c < j ? 0 : b[j - 1] * (c - j + 1) / j; /* exact: C(c, j - 1) (c - j + 1) = j C(c, j) */
    }
    B[SG_BINOM_STRIDE * kinds] = 1;
}

/* C(n, k) for k <= 3, 0 where n < k (n may be negative: more cards drawn than held). */
static inline int64_t sg_choose3(int64_t n, int64_t k) {
    if (n < k)
        return 0;
    switch (k) {
    case 0:
        return 1;
    case 1:
        return n;
    case 2:
        return n * (n - 1) / 2;
    default:
        return n * (n - 1) / 2 * (n - 2) / 3; /* exact: n (n - 1) / 2 is an integer, and so is C(n, 3) */
    }
}

/* The suit tie-break of rankings whose equal hands are told apart by the strongest card's
 * suit. Two hands equal but for it share their highest rank, a cards of it in the first
 * hand and b in the second: W[4 a + b] (a, b = 1..3) = the ways to draw those a cards and
 * then b others from the cards of that rank, n[s] of suit s (suits by strength, weakest
 * first), with the first cards' strongest suit above the second's. The second's above the
 * first's is W[4 b + a]; the rest of C(c, a) C(c - a, b) ties (two copies of one card).
 * Summed over x, the first cards' strongest suit: the b cards from the suits below x
 * (L[x - 1] cards), then the a cards from the suits up to x less those below x. The
 * reference (_spec.counting.suit_split) counts every spread of the cards over the suits. */
static inline void sg_suit_wins(const int64_t *n, int64_t *W) {
    int64_t L[5] = {0, n[0], n[0] + n[1], n[0] + n[1] + n[2], n[0] + n[1] + n[2] + n[3]}; /* L[x + 1]: suits <= x */
    for (int64_t a = 0; a < 4; a++)
        for (int64_t b = 0; b < 4; b++) {
            int64_t w = 0;
            if (a && b)
                for (int64_t x = 1; x < 4; x++)
                    w += sg_choose3(L[x], b) * (sg_choose3(L[x + 1] - b, a) - sg_choose3(L[x] - b, a));
            W[4 * a + b] = w;
        }
}

/* The E_t(a, b) of every rank t at E[16 t + 4 a + b]: cards[52] by card code, the four
 * suit codes of a rank in suit_order, weakest first. */
static inline void sg_suit_weights(const int64_t *cards, const uint8_t *suit_order, int64_t *E) {
    for (int64_t t = 0; t < 13; t++) {
        int64_t n[4];
        for (int s = 0; s < 4; s++)
            n[s] = cards[4 * t + suit_order[s]];
        sg_suit_wins(n, E + 16 * t);
    }
}

/* Pair Plus's weights (SG_CARDS_WEIGHTS entries) for cards[52], each C(c, j) for j <= 3. */
static inline void sg_card_binoms(const int64_t *cards, int64_t *B) {
    int64_t by_rank[13];
    for (int64_t r = 0; r < 13; r++)
        by_rank[r] = cards[4 * r] + cards[4 * r + 1] + cards[4 * r + 2] + cards[4 * r + 3];
    sg_binoms(cards, 52, 3, B);
    sg_binoms(by_rank, 13, 3, B + SG_RANKS_AT);
}

/* Signed 128-bit sums, as two 64-bit halves (value = hi * 2**64 + lo). */
typedef struct {
    uint64_t lo;
    int64_t hi;
} sg_i128;

#if defined(__SIZEOF_INT128__)
typedef __int128 sg_acc_t;
#define SG_ACC_ZERO(a) ((a) = 0)
#define SG_ACC_ADD(a, w, v) ((a) += (__int128)(w) * (v))
static inline sg_i128 sg_acc_out(sg_acc_t a) {
    sg_i128 r;
    r.lo = (uint64_t)a;
    r.hi = (int64_t)(a >> 64);
    return r;
}
#else
/* portable: the magnitude |w v| in 128 bits (sg_mul128), added or subtracted with carries */
typedef sg_i128 sg_acc_t;
#define SG_ACC_ZERO(a) ((a).lo = 0, (a).hi = 0)
static inline void sg_acc_add(sg_i128 *a, int64_t w, int64_t v) {
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, lo, hi = sg_mul128((uint64_t)w, mag, &lo);
    uint64_t old = a->lo;
    if (v >= 0) {
        a->lo += lo;
        a->hi += (int64_t)(hi + (a->lo < old));
    } else {
        a->lo -= lo;
        a->hi -= (int64_t)(hi + (a->lo > old));
    }
}
#define SG_ACC_ADD(a, w, v) sg_acc_add(&(a), (w), (v))
static inline sg_i128 sg_acc_out(sg_acc_t a) { return a; }
#endif

/* A multiset's weight: the product of its entries (width 6 and 3 unrolled, as a tree). */
SG_ALWAYS_INLINE int64_t sg_weight(const int64_t *B, const uint16_t *m, int64_t width) {
    if (width == 6)
        return (B[m[0]] * B[m[1]]) * (B[m[2]] * B[m[3]]) * (B[m[4]] * B[m[5]]);
    if (width == 3)
        return B[m[0]] * B[m[1]] * B[m[2]];
    int64_t w = B[m[0]];
    for (int64_t t = 1; t < width; t++)
        w *= B[m[t]];
    return w;
}

/* acc[r] += weight_i * values[i * rows + r] in 64 bits: the caller has checked that the
 * weights' sum times the largest |value| stays below 2**63, so no partial sum overflows.
 * Inlined with constant width and rows where the plans have them. */
SG_ALWAYS_INLINE void sg_dot64(const int64_t *B, const uint16_t *idx, int64_t width, int64_t n,
                               const int64_t *values, int64_t rows, int64_t *acc) {
    for (int64_t i = 0; i < n; i++) {
        int64_t w = sg_weight(B, idx + width * i, width);
        const int64_t *v = values + rows * i;
        for (int64_t r = 0; r < rows; r++)
            acc[r] += w * v[r];
    }
}

/* out[r] = sum over multisets i of weight_i * values[i * rows + r], r < rows <= SG_MAX_EV_ROWS;
 * narrow: the sums fit 64 bits (see sg_dot64), else they go in 128. */
static inline void sg_multiset_dot(const int64_t *B, const uint16_t *idx, int64_t width, int64_t n,
                                   const int64_t *values, int64_t rows, int narrow, sg_i128 *out) {
    if (narrow) {
        int64_t acc[SG_MAX_EV_ROWS] = {0};
        if (width == 6 && rows == 1)
            sg_dot64(B, idx, 6, n, values, 1, acc);
        else if (width == 6 && rows == 2)
            sg_dot64(B, idx, 6, n, values, 2, acc);
        else if (width == 6 && rows == 3)
            sg_dot64(B, idx, 6, n, values, 3, acc);
        else if (width == 3 && rows == 1)
            sg_dot64(B, idx, 3, n, values, 1, acc);
        else
            sg_dot64(B, idx, width, n, values, rows, acc);
        for (int64_t r = 0; r < rows; r++) {
            out[r].lo = (uint64_t)acc[r];
            out[r].hi = acc[r] < 0 ? -1 : 0;
        }
        return;
    }
    sg_acc_t acc[SG_MAX_EV_ROWS];
    for (int64_t r = 0; r < rows; r++)
        SG_ACC_ZERO(acc[r]);
    for (int64_t i = 0; i < n; i++) {
        int64_t w = sg_weight(B, idx + width * i, width);
        if (w == 0)
            continue;
        const int64_t *v = values + rows * i;
        for (int64_t r = 0; r < rows; r++)
            SG_ACC_ADD(acc[r], w, v[r]);
    }
    for (int64_t r = 0; r < rows; r++)
        out[r] = sg_acc_out(acc[r]);
}

/* Several rounds' sums at once (ShoeKernel.numerators_batch), SG_CHUNK rounds a pass over
 * the multisets, in doubles (sg_dot_kernel.h): one source compiled for baseline x86-64 (or
 * any CPU), and on x86-64 with gcc or clang for AVX2 with FMA too, in its own functions so
 * that the rest of the core stays baseline; sg_dot_rounds_at(kernel, ...) runs the one asked
 * for (sg_dot_best(): the best this CPU runs, 0 baseline, 1 AVX2). An AVX-512 build of the
 * same source measured no faster (0.9-1.0x of AVX2's time per round: the loop is bound by
 * its loads of the table's entries, not by the width of its products), so there is none. */
#define SG_CHUNK 8
#define SG_DT
#define SG_DFN(name) name##_base
#include "sg_dot_kernel.h"
#undef SG_DT
#undef SG_DFN

#if defined(__x86_64__) && defined(__GNUC__) && !defined(_MSC_VER)
#define SG_HAVE_DOT_VECTOR 1
#define SG_DT __attribute__((target("avx2,fma")))
#define SG_DFN(name) name##_avx2
#include "sg_dot_kernel.h"
#undef SG_DT
#undef SG_DFN
#else
#define SG_HAVE_DOT_VECTOR 0
#endif

/* The best sg_dot_rounds this build runs on this CPU (and its OS: ymm, zmm state saved). */
static inline int sg_dot_best(void) {
#if SG_HAVE_DOT_VECTOR
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
#else
    return 0;
#endif
}

static inline void sg_dot_rounds_at(int kernel, const double *BT, const uint16_t *idx, int64_t width, int64_t n,
                                    const double *values, int64_t rows, double *acc) {
#if SG_HAVE_DOT_VECTOR
    if (kernel == 1) {
        sg_dot_rounds_avx2(BT, idx, width, n, values, rows, acc);
        return;
    }
#endif
    (void)kernel;
    sg_dot_rounds_base(BT, idx, width, n, values, rows, acc);
}

/* A round's seen cards added to each tag vector's running count. by_rank[r * stride + i]
 * is vector i's tag for rank r (0 = ace), stride a multiple of 8, |tag| <= 127 and at most
 * 128 cards: a round's change of a count fits 16 bits, so eight vectors go at once (SSE2,
 * which every x86-64 has), card by card, the sums in registers. */
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
static inline void sg_count_cards(const uint8_t *cards, int64_t n, const int16_t *by_rank, int64_t stride,
                                  int32_t *running) {
    for (int64_t b = 0; b < stride; b += 16) { /* sixteen vectors a pass over the cards */
        __m128i acc0 = _mm_setzero_si128(), acc1 = _mm_setzero_si128();
        int two = b + 8 < stride;
        for (int64_t k = 0; k < n; k++) {
            const __m128i *row = (const __m128i *)(by_rank + (cards[k] >> 2) * stride + b);
            acc0 = _mm_add_epi16(acc0, _mm_loadu_si128(row));
            if (two)
                acc1 = _mm_add_epi16(acc1, _mm_loadu_si128(row + 1));
        }
        for (int half = 0; half <= two; half++) {
            __m128i acc = half ? acc1 : acc0;
            __m128i lo = _mm_srai_epi32(_mm_unpacklo_epi16(acc, acc), 16); /* sign-extended to 32 bits */
            __m128i hi = _mm_srai_epi32(_mm_unpackhi_epi16(acc, acc), 16);
            __m128i *r = (__m128i *)(running + b + 8 * half);
            _mm_storeu_si128(r, _mm_add_epi32(_mm_loadu_si128(r), lo));
            _mm_storeu_si128(r + 1, _mm_add_epi32(_mm_loadu_si128(r + 1), hi));
        }
    }
}
#else
static inline void sg_count_cards(const uint8_t *cards, int64_t n, const int16_t *by_rank, int64_t stride,
                                  int32_t *running) {
    for (int64_t b = 0; b < stride; b += 8) {
        int32_t acc[8] = {0};
        for (int64_t k = 0; k < n; k++) {
            const int16_t *row = by_rank + (cards[k] >> 2) * stride + b;
            for (int l = 0; l < 8; l++)
                acc[l] += row[l];
        }
        for (int l = 0; l < 8; l++)
            running[b + l] += acc[l];
    }
}
#endif

/* Each bet's outcome of a round counted in its true-count bin: bet j's record is
 * bets[4 j ..] = (its settlement row's offset in cols, where in keys its hand's key is,
 * its tag vector, its offset in a bin), and hist[bin_base[tag] + offset + column] += 1. */
static inline void sg_tally(const int64_t *bets, int64_t m, const int64_t *keys, const uint8_t *cols,
                            const int64_t *bin_base, uint64_t *hist) {
    for (int64_t j = 0; j < m; j++) {
        const int64_t *b = bets + 4 * j;
        hist[bin_base[b[2]] + b[3] + cols[b[0] + keys[b[1]]]] += 1;
    }
}

#endif
