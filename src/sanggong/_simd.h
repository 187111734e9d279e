/* Vectorised hand evaluation of C-contiguous uint8 card codes, 32 hands a step, by
 * arithmetic on the codes (byte shuffles and compares, no table in memory and no gather),
 * with the check that every code is in 0..51 in the same pass. Chosen at run time: the
 * AVX2 kernel where the CPU has AVX2 (x86-64, compiled for AVX2 in its own functions, so
 * the rest of the core and the wheel stay baseline x86-64), else the scalar table kernel
 * of _eval.h. aarch64 stays on the scalar kernel.
 *
 * A ranking enters as a plan of four byte tables (built and checked against the ranking's
 * tables by sanggong._core): every hand has a key K < 48 (4 * points + faces, or for trips
 * a key of their rank) and a high card H (0; the highest card's rank 0..12; or its rank
 * and suit, 0..51), and under every ranking (all 585 of them)
 *
 *     rank = A[K] + H - (H >= T[K] ? B[K] : 0)         (mod 2**16, or 2**8 for uint8 ranks)
 *
 * (A as the bytes A_lo, A_hi; the B step skips the high cards that hands of key K never
 * have). The Pair Plus category is the same under every ranking. _reference.py's rules are
 * the source of truth: sanggong._core checks this formula on all 140,608 ordered triples
 * before it uses a plan, and the tests compare both kernels with the reference. */
#ifndef SANGGONG_SIMD_H
#define SANGGONG_SIMD_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>

typedef struct {
    uint8_t a_lo[64];
    uint8_t a_hi[64];
    uint8_t gap_at[64];  /* T: the first high card after the gap (255: none) */
    uint8_t gap[64];     /* B: the size of the gap */
    int high;            /* 0 none, 1 the highest card's rank, 2 its rank and suit */
    int wide;            /* ranks are uint16 */
} sg_plan;

/* The key of trips of each rank (A..K): the keys 4 * points + 3 no other hand has (three
 * faces have no points), then 40..43. Every key is below 48. */
static const unsigned char sg_trips_key[16] = {7, 11, 15, 19, 23, 27, 31, 35, 39, 40, 41, 42, 43, 0, 0, 0};

/* sg_key: the key K and high card H of one hand, as the vector kernel computes them (for
 * the plan's check and for machines without the vector kernel it is never used in a loop). */
static inline void sg_key(int high, unsigned c0, unsigned c1, unsigned c2, unsigned *key, unsigned *h) {
    static const unsigned char pts[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0};
    unsigned r0 = c0 >> 2, r1 = c1 >> 2, r2 = c2 >> 2;
    unsigned p = (pts[r0] + pts[r1] + pts[r2]) % 10, f = (r0 >= 10) + (r1 >= 10) + (r2 >= 10);
    *key = (r0 == r1 && r1 == r2) ? sg_trips_key[r0] : 4 * p + f;
    if (high == 0) {
        *h = 0;
    } else if (high == 1) {
        unsigned m = r0 > r1 ? r0 : r1;
        *h = m > r2 ? m : r2;
    } else {  /* 4 * rank + suit strength (diamonds 0, clubs 1, hearts 2, spades 3) */
        unsigned k0 = c0 ^ (((c0 >> 1) & 1) ^ 1), k1 = c1 ^ (((c1 >> 1) & 1) ^ 1), k2 = c2 ^ (((c2 >> 1) & 1) ^ 1);
        unsigned m = k0 > k1 ? k0 : k1;
        *h = m > k2 ? m : k2;
    }
}

#if (defined(__x86_64__) || defined(_M_X64)) && !defined(_M_ARM64EC) && \
    (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#define SG_HAVE_AVX2_KERNEL 1
#include <immintrin.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define SG_AVX2 /* MSVC compiles AVX2 intrinsics in any function */
#define SG_INLINE static __forceinline
#else
#define SG_AVX2 __attribute__((target("avx2")))
#define SG_INLINE static inline __attribute__((always_inline))
#endif

/* Whether this CPU (and its OS, which must save the ymm registers) runs AVX2. */
static int sg_cpu_has_avx2(void) {
#if defined(_MSC_VER) && !defined(__clang__)
    int info[4];
    __cpuid(info, 0);
    if (info[0] < 7) return 0;
    __cpuid(info, 1);
    if (!(info[2] & (1 << 27)) || !(info[2] & (1 << 28))) return 0;  /* OSXSAVE, AVX */
    if ((_xgetbv(0) & 6) != 6) return 0;                             /* xmm and ymm state */
    __cpuidex(info, 7, 0);
    return (info[1] & (1 << 5)) != 0;
#else
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;  /* (checks the OS's ymm support too) */
#endif
}

/* The 48-entry byte table t (three 16-byte thirds broadcast to both lanes) at k < 48:
 * s4 and s5 carry bits 4 and 5 of k in each byte's top bit. */
SG_AVX2 SG_INLINE __m256i sg_lut48(const __m256i *t, __m256i k, __m256i s4, __m256i s5) {
    __m256i lo = _mm256_blendv_epi8(_mm256_shuffle_epi8(t[0], k), _mm256_shuffle_epi8(t[1], k), s4);
    return _mm256_blendv_epi8(lo, _mm256_shuffle_epi8(t[2], k), s5);
}

SG_AVX2 SG_INLINE __m256i sg_bcast16(const uint8_t *p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

/* 96 bytes at h (32 hands) as three vectors of their first, second and third codes, hands
 * 0..15 in the low lane and 16..31 in the high one (the order of a 32-byte store). */
SG_AVX2 SG_INLINE void sg_load32(const uint8_t *h, __m256i *a, __m256i *b, __m256i *c) {
    *a = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)h)),
                                 _mm_loadu_si128((const __m128i *)(h + 48)), 1);
    *b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(h + 16))),
                                 _mm_loadu_si128((const __m128i *)(h + 64)), 1);
    *c = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(h + 32))),
                                 _mm_loadu_si128((const __m128i *)(h + 80)), 1);
}

#define SG_X (-1)
SG_AVX2 SG_INLINE void sg_split(__m256i a, __m256i b, __m256i c, __m256i *c0, __m256i *c1, __m256i *c2) {
    const __m256i m0a = _mm256_setr_epi8(0, 3, 6, 9, 12, 15, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X,
                                         0, 3, 6, 9, 12, 15, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X);
    const __m256i m0b = _mm256_setr_epi8(SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 2, 5, 8, 11, 14, SG_X, SG_X, SG_X, SG_X, SG_X,
                                         SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 2, 5, 8, 11, 14, SG_X, SG_X, SG_X, SG_X, SG_X);
    const __m256i m0c = _mm256_setr_epi8(SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 1, 4, 7, 10, 13,
                                         SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 1, 4, 7, 10, 13);
    const __m256i m1a = _mm256_setr_epi8(1, 4, 7, 10, 13, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X,
                                         1, 4, 7, 10, 13, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X);
    const __m256i m1b = _mm256_setr_epi8(SG_X, SG_X, SG_X, SG_X, SG_X, 0, 3, 6, 9, 12, 15, SG_X, SG_X, SG_X, SG_X, SG_X,
                                         SG_X, SG_X, SG_X, SG_X, SG_X, 0, 3, 6, 9, 12, 15, SG_X, SG_X, SG_X, SG_X, SG_X);
    const __m256i m1c = _mm256_setr_epi8(SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 2, 5, 8, 11, 14,
                                         SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 2, 5, 8, 11, 14);
    const __m256i m2a = _mm256_setr_epi8(2, 5, 8, 11, 14, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X,
                                         2, 5, 8, 11, 14, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X);
    const __m256i m2b = _mm256_setr_epi8(SG_X, SG_X, SG_X, SG_X, SG_X, 1, 4, 7, 10, 13, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X,
                                         SG_X, SG_X, SG_X, SG_X, SG_X, 1, 4, 7, 10, 13, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X);
    const __m256i m2c = _mm256_setr_epi8(SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 0, 3, 6, 9, 12, 15,
                                         SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, SG_X, 0, 3, 6, 9, 12, 15);
    *c0 = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, m0a), _mm256_shuffle_epi8(b, m0b)),
                          _mm256_shuffle_epi8(c, m0c));
    *c1 = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, m1a), _mm256_shuffle_epi8(b, m1b)),
                          _mm256_shuffle_epi8(c, m1c));
    *c2 = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, m2a), _mm256_shuffle_epi8(b, m2b)),
                          _mm256_shuffle_epi8(c, m2c));
}
#undef SG_X

/* First row of the n (<= 32) at h holding a code outside 0..51 (there is one). */
static ptrdiff_t sg_first_bad_u8(const uint8_t *h, ptrdiff_t n) {
    ptrdiff_t k;
    for (k = 0; k < n; k++)
        if (h[3 * k] > 51 || h[3 * k + 1] > 51 || h[3 * k + 2] > 51) return k;
    return n;  /* (not reached) */
}

/* 4 * (p mod 10) + f from x = 4 * p + f, p < 20, f < 4: x - 40 wraps above x when p < 10. */
SG_AVX2 SG_INLINE __m256i sg_mod10(__m256i x) {
    return _mm256_min_epu8(x, _mm256_sub_epi8(x, _mm256_set1_epi8(40)));
}

/* The ranks (uint8 where !wide, else uint16) and Pair Plus categories of the 32 hands of
 * codes c0, c1, c2 (checked), to r and pp (either may be NULL). */
SG_AVX2 SG_INLINE void sg_eval32(const __m256i *ta, const __m256i *th, const __m256i *tt, const __m256i *tb,
                                 const int high, const int wide, __m256i c0, __m256i c1, __m256i c2,
                                 void *r, uint8_t *pp) {
    const __m256i rank_mask = _mm256_set1_epi8((char)0xfc), three = _mm256_set1_epi8(3);
    /* 4 * points of A..K (index rank) + 1 for a face: three cards sum to 4 * points + faces */
    const __m256i pf_table = _mm256_setr_epi8(4, 8, 12, 16, 20, 24, 28, 32, 36, 0, 1, 1, 1, 0, 0, 0,
                                              4, 8, 12, 16, 20, 24, 28, 32, 36, 0, 1, 1, 1, 0, 0, 0);
    const __m256i trips_table = _mm256_setr_epi8(7, 11, 15, 19, 23, 27, 31, 35, 39, 40, 41, 42, 43, 0, 0, 0,
                                                 7, 11, 15, 19, 23, 27, 31, 35, 39, 40, 41, 42, 43, 0, 0, 0);
    /* Pair Plus by trips << 3 | straight << 2 | flush << 1 | pair */
    const __m256i pp_table = _mm256_setr_epi8(0, 1, 2, 2, 3, 3, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4,
                                              0, 1, 2, 2, 3, 3, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4);
    __m256i q0 = _mm256_and_si256(c0, rank_mask), q1 = _mm256_and_si256(c1, rank_mask);
    __m256i q2 = _mm256_and_si256(c2, rank_mask);  /* 4 * rank */
    __m256i r0 = _mm256_srli_epi16(q0, 2), r1 = _mm256_srli_epi16(q1, 2), r2 = _mm256_srli_epi16(q2, 2);
    __m256i e01 = _mm256_cmpeq_epi8(q0, q1), e12 = _mm256_cmpeq_epi8(q1, q2), e02 = _mm256_cmpeq_epi8(q0, q2);
    __m256i trips = _mm256_and_si256(e01, e12);
    __m256i any = _mm256_or_si256(_mm256_or_si256(e01, e12), e02);
    __m256i s = _mm256_add_epi8(_mm256_add_epi8(_mm256_shuffle_epi8(pf_table, r0), _mm256_shuffle_epi8(pf_table, r1)),
                                _mm256_shuffle_epi8(pf_table, r2));
    if (pp != NULL) {
        __m256i lo = _mm256_min_epu8(_mm256_min_epu8(q0, q1), q2), hi = _mm256_max_epu8(_mm256_max_epu8(q0, q1), q2);
        __m256i sum = _mm256_add_epi8(_mm256_add_epi8(q0, q1), q2);
        __m256i run = _mm256_cmpeq_epi8(_mm256_sub_epi8(hi, lo), _mm256_set1_epi8(8));
        __m256i aqk = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(lo, _mm256_setzero_si256()),
                                                        _mm256_cmpeq_epi8(hi, _mm256_set1_epi8(48))),
                                       _mm256_cmpeq_epi8(sum, _mm256_set1_epi8(92)));  /* A, Q, K */
        __m256i straight = _mm256_andnot_si256(any, _mm256_or_si256(run, aqk));
        __m256i suits = _mm256_and_si256(_mm256_or_si256(_mm256_xor_si256(c0, c1), _mm256_xor_si256(c1, c2)), three);
        __m256i flush = _mm256_cmpeq_epi8(suits, _mm256_setzero_si256());
        __m256i key = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(trips, _mm256_set1_epi8(8)), _mm256_and_si256(straight, _mm256_set1_epi8(4))),
            _mm256_or_si256(_mm256_and_si256(flush, _mm256_set1_epi8(2)),
                            _mm256_and_si256(_mm256_andnot_si256(trips, any), _mm256_set1_epi8(1))));
        _mm256_storeu_si256((__m256i *)pp, _mm256_shuffle_epi8(pp_table, key));
    }
    if (r == NULL) return;
    __m256i k = _mm256_blendv_epi8(sg_mod10(sg_mod10(s)), _mm256_shuffle_epi8(trips_table, r0), trips);
    __m256i s4 = _mm256_slli_epi16(k, 3), s5 = _mm256_slli_epi16(k, 2);
    __m256i lo = sg_lut48(ta, k, s4, s5);
    if (high) {
        __m256i h;
        if (high == 1) {
            h = _mm256_max_epu8(_mm256_max_epu8(r0, r1), r2);
        } else {  /* 4 * rank + suit strength: the suit bits 0 1 2 3 (c d h s) read 1 0 2 3 */
            const __m256i flip = _mm256_setr_epi8(1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0,
                                                  1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0);
            __m256i k0 = _mm256_xor_si256(c0, _mm256_shuffle_epi8(flip, c0));
            __m256i k1 = _mm256_xor_si256(c1, _mm256_shuffle_epi8(flip, c1));
            __m256i k2 = _mm256_xor_si256(c2, _mm256_shuffle_epi8(flip, c2));
            h = _mm256_max_epu8(_mm256_max_epu8(k0, k1), k2);
        }
        __m256i at = sg_lut48(tt, k, s4, s5);
        __m256i past = _mm256_cmpeq_epi8(_mm256_max_epu8(h, at), h);  /* h >= T[k] */
        h = _mm256_sub_epi8(h, _mm256_and_si256(past, sg_lut48(tb, k, s4, s5)));  /* 0..51 */
        if (wide) {
            __m256i hi = sg_lut48(th, k, s4, s5);
            __m256i sum = _mm256_add_epi8(lo, h);
            __m256i no_carry = _mm256_cmpeq_epi8(_mm256_max_epu8(sum, h), sum);  /* sum >= h */
            hi = _mm256_add_epi8(_mm256_add_epi8(hi, _mm256_set1_epi8(1)), no_carry);
            __m256i w0 = _mm256_unpacklo_epi8(sum, hi), w1 = _mm256_unpackhi_epi8(sum, hi);
            _mm256_storeu_si256((__m256i *)r, _mm256_permute2x128_si256(w0, w1, 0x20));
            _mm256_storeu_si256((__m256i *)r + 1, _mm256_permute2x128_si256(w0, w1, 0x31));
            return;
        }
        lo = _mm256_add_epi8(lo, h);
    }
    if (wide) {
        __m256i hi = sg_lut48(th, k, s4, s5);
        __m256i w0 = _mm256_unpacklo_epi8(lo, hi), w1 = _mm256_unpackhi_epi8(lo, hi);
        _mm256_storeu_si256((__m256i *)r, _mm256_permute2x128_si256(w0, w1, 0x20));
        _mm256_storeu_si256((__m256i *)r + 1, _mm256_permute2x128_si256(w0, w1, 0x31));
    } else {
        _mm256_storeu_si256((__m256i *)r, lo);
    }
}

/* The loop, for a high-card mode and rank width fixed at compile time. */
SG_AVX2 SG_INLINE ptrdiff_t sg_eval_avx2_loop(const sg_plan *plan, const int high, const int wide,
                                              const uint8_t *h, ptrdiff_t n, void *ranks, uint8_t *pp) {
    __m256i ta[3], th[3], tt[3], tb[3];
    const __m256i limit = _mm256_set1_epi8(51);
    const ptrdiff_t size = wide ? 2 : 1;
    uint8_t *r = (uint8_t *)ranks;
    ptrdiff_t i = 0, j;
    for (j = 0; j < 3; j++) {
        ta[j] = sg_bcast16(plan->a_lo + 16 * j);
        th[j] = sg_bcast16(plan->a_hi + 16 * j);
        tt[j] = sg_bcast16(plan->gap_at + 16 * j);
        tb[j] = sg_bcast16(plan->gap + 16 * j);
    }
    for (; i + 32 <= n; i += 32) {
        __m256i a, b, c, c0, c1, c2;
        sg_load32(h + 3 * i, &a, &b, &c);
        __m256i over = _mm256_subs_epu8(_mm256_max_epu8(_mm256_max_epu8(a, b), c), limit);
        if (!_mm256_testz_si256(over, over)) return i + sg_first_bad_u8(h + 3 * i, 32);
        sg_split(a, b, c, &c0, &c1, &c2);
        sg_eval32(ta, th, tt, tb, high, wide, c0, c1, c2, r ? r + size * i : NULL, pp ? pp + i : NULL);
    }
    if (i < n) {  /* the last hands, through a buffer padded with aces */
        uint8_t in[96] = {0}, out_r[64], out_p[32];
        ptrdiff_t m = n - i;
        __m256i a, b, c, c0, c1, c2;
        memcpy(in, h + 3 * i, (size_t)(3 * m));
        sg_load32(in, &a, &b, &c);
        __m256i over = _mm256_subs_epu8(_mm256_max_epu8(_mm256_max_epu8(a, b), c), limit);
        if (!_mm256_testz_si256(over, over)) return i + sg_first_bad_u8(in, m);
        sg_split(a, b, c, &c0, &c1, &c2);
        sg_eval32(ta, th, tt, tb, high, wide, c0, c1, c2, r ? out_r : NULL, pp ? out_p : NULL);
        if (r) memcpy(r + size * i, out_r, (size_t)(size * m));
        if (pp) memcpy(pp + i, out_p, (size_t)m);
    }
    return -1;
}

/* Rank (uint8, or uint16 where plan->wide) and Pair Plus category of the n hands at h
 * into ranks and pp (either may be NULL); returns the first row holding a code outside
 * 0..51 (the rows before it are written), or -1. Call only where sg_cpu_has_avx2(). */
SG_AVX2 static ptrdiff_t sg_eval_avx2(const sg_plan *plan, const uint8_t *h, ptrdiff_t n, void *ranks, uint8_t *pp) {
    ptrdiff_t bad;
    if (ranks == NULL || plan->high == 0)
        bad = plan->wide ? sg_eval_avx2_loop(plan, 0, 1, h, n, ranks, pp) : sg_eval_avx2_loop(plan, 0, 0, h, n, ranks, pp);
    else if (plan->high == 1)
        bad = plan->wide ? sg_eval_avx2_loop(plan, 1, 1, h, n, ranks, pp) : sg_eval_avx2_loop(plan, 1, 0, h, n, ranks, pp);
    else
        bad = plan->wide ? sg_eval_avx2_loop(plan, 2, 1, h, n, ranks, pp) : sg_eval_avx2_loop(plan, 2, 0, h, n, ranks, pp);
    _mm256_zeroupper();
    return bad;
}

#else
#define SG_HAVE_AVX2_KERNEL 0
static int sg_cpu_has_avx2(void) { return 0; }
static ptrdiff_t sg_eval_avx2(const sg_plan *plan, const uint8_t *h, ptrdiff_t n, void *ranks, uint8_t *pp) {
    (void)plan; (void)h; (void)n; (void)ranks; (void)pp;
    return -2;  /* never called: sg_cpu_has_avx2() is 0 */
}
#endif
#endif
