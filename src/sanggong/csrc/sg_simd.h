/* Vectorised hand evaluation of C-contiguous uint8 card codes, 32 hands a step, by
 * arithmetic on the codes (byte shuffles and compares, no table in memory and no gather),
 * with the check that every code is in 0..51 in the same pass. Chosen at run time, the best
 * the CPU runs: AVX-512 with VBMI (its byte permutes read the 48-entry tables), AVX-512 F,
 * BW and VL (the AVX2 source with 32 registers), AVX2; each compiled for its instruction
 * set in its own functions (sg_simd_kernel.h, included once per kernel), so the rest of the
 * core and the wheel stay baseline x86-64; else the scalar table kernel of sg_eval.h.
 * aarch64 stays on the scalar kernel, MSVC builds AVX2 and the scalar kernel.
 *
 * A ranking enters as a formula of three small byte tables (built and checked against the
 * ranking's tables by sanggong._core): every hand has a key K < 48 (4 * points + faces, or
 * for trips a key of their rank) and a high card H (0; the highest card's rank 0..12; or
 * its rank and suit, 0..51), and under every ranking (all 585 of them)
 *
 *     rank = A[K] + H - (H >= G ? B[K] : 0)                  (uint8 ranks: mod 2**8)
 *
 * or, where H is the rank and suit (uint16 ranks, numbered so by sanggong.ranking),
 *
 *     rank = 256 * A_hi[K] + H                               (one byte each: no carry)
 *
 * with A as the formula's A_lo, or A_hi. The B step keeps uint8 ranks consecutive: it skips
 * the high cards no hand of key K has. Such gaps come only from hands of 4, 5 or 6 points
 * without a face (keys 16, 20, 24), whose highest card cannot be a 3 or 4, a 4 or 5, a 5:
 * below every gap the highest card is at most a 4 and above it at least a 5, so one G (a
 * five, 4 by rank) serves all, and B, 0 but for the keys 16..31, fits a 16-entry table.
 * The uint16 numbering leaves those ranks unused instead, which spares the kernel the step
 * and a 16-bit carry. The Pair Plus category is the same under every ranking.
 * the twin's (_kernels/twin/) rules are the source of truth: sanggong._core derives the formula from a
 * ranking's tables and checks it on all 140,608 ordered triples before it uses it, and the
 * tests compare both kernels with the reference. */
#ifndef SANGGONG_SG_SIMD_H
#define SANGGONG_SG_SIMD_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "sg_common.h"

typedef struct {
    uint8_t a_lo[64];    /* A, uint8 ranks */
    uint8_t a_hi[64];    /* A / 256, uint16 ranks (A_lo is then 0) */
    uint8_t gap[16];     /* B of the keys 16..31 (uint8 ranks) */
    int high;            /* 0 none, 1 the highest card's rank, 2 its rank and suit */
    int wide;            /* ranks are uint16: where high is 2, and only there */
} sg_eval_formula;

/* x86-64 with gcc or clang (target attributes, __builtin_cpu_supports) or MSVC (intrinsics
 * in any function, __cpuid); not clang-cl, whose CPU detection needs a runtime library
 * MSVC's linker is not given: it builds the scalar kernel only. */
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(_M_ARM64EC) && \
    ((defined(__GNUC__) && !defined(_MSC_VER)) || (defined(_MSC_VER) && !defined(__clang__)))
#define SG_HAVE_AVX2_KERNEL 1
#include <immintrin.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define SG_AVX2 /* MSVC compiles AVX2 intrinsics in any function */
#else
#define SG_AVX2 __attribute__((target("avx2")))
#endif

/* Whether this CPU (and its OS, which must save the ymm registers) runs AVX2. */
static inline int sg_cpu_has_avx2(void) {
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
 * s4 and s5 are the masks of k > 15 and k > 31 (compares: GCC would turn a blend on a
 * shifted k's top bit into a compare and a blend). */
SG_AVX2 SG_ALWAYS_INLINE __m256i sg_lut48(const __m256i *t, __m256i k, __m256i s4, __m256i s5) {
    __m256i lo = _mm256_blendv_epi8(_mm256_shuffle_epi8(t[0], k), _mm256_shuffle_epi8(t[1], k), s4);
    return _mm256_blendv_epi8(lo, _mm256_shuffle_epi8(t[2], k), s5);
}

SG_AVX2 SG_ALWAYS_INLINE __m256i sg_bcast16(const uint8_t *p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

/* 96 bytes at h (32 hands) as three vectors of their first, second and third codes, hands
 * 0..15 in the low lane and 16..31 in the high one (the order of a 32-byte store). */
SG_AVX2 SG_ALWAYS_INLINE void sg_load32(const uint8_t *h, __m256i *a, __m256i *b, __m256i *c) {
#if defined(_MSC_VER) || defined(SG_LOAD_256)
    /* 256-bit loads only: MSVC, not told to compile for AVX, would encode a 128-bit load
     * as legacy SSE, and mixing that with AVX code costs a state transition. (SG_LOAD_256
     * compiles this path with gcc, to test it.) */
    __m256i x = _mm256_loadu_si256((const __m256i *)(h + 16)), y = _mm256_loadu_si256((const __m256i *)(h + 64));
    *a = _mm256_permute2x128_si256(_mm256_loadu_si256((const __m256i *)h),
                                   _mm256_loadu_si256((const __m256i *)(h + 48)), 0x20);
    *b = _mm256_permute2x128_si256(x, y, 0x20);
    *c = _mm256_permute2x128_si256(x, y, 0x31);
#else
    *a = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)h)),
                                 _mm_loadu_si128((const __m128i *)(h + 48)), 1);
    *b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(h + 16))),
                                 _mm_loadu_si128((const __m128i *)(h + 64)), 1);
    *c = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(h + 32))),
                                 _mm_loadu_si128((const __m128i *)(h + 80)), 1);
#endif
}

#define SG_X (-1)
SG_AVX2 SG_ALWAYS_INLINE void sg_split(__m256i a, __m256i b, __m256i c, __m256i *c0, __m256i *c1, __m256i *c2) {
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

/* The kernel's constants, read from memory where they are used (GCC would otherwise
 * rebuild each uniform one in the loop from an immediate, three instructions each, where
 * the sixteen vector registers do not hold them all). */
#define SG_R4(v) v, v, v, v
#define SG_R32(v) {SG_R4(v), SG_R4(v), SG_R4(v), SG_R4(v), SG_R4(v), SG_R4(v), SG_R4(v), SG_R4(v)}
#define SG_LANES(...) {__VA_ARGS__, __VA_ARGS__}
enum { SG_RANK_BITS, SG_1, SG_2, SG_3, SG_4, SG_8, SG_15, SG_16, SG_31, SG_40, SG_48, SG_51, SG_92, SG_112, SG_POINTS_FACES,
       SG_TRIPS_KEY, SG_PAIR_PLUS, SG_SUIT_FLIP };
static const uint8_t sg_const[][32] = {
    SG_R32(0xfc), SG_R32(1), SG_R32(2), SG_R32(3), SG_R32(4), SG_R32(8), SG_R32(15), SG_R32(16), SG_R32(31), SG_R32(40), SG_R32(48),
    SG_R32(51), SG_R32(92), SG_R32(112),
    /* 4 * points of A..K (by rank) + 1 for a face: three cards sum to 4 * points + faces */
    SG_LANES(4, 8, 12, 16, 20, 24, 28, 32, 36, 0, 1, 1, 1, 0, 0, 0),
    /* the key of trips of each rank (sanggong._kernels.vector_formula.TRIPS_KEY) */
    SG_LANES(7, 11, 15, 19, 23, 27, 31, 35, 39, 40, 41, 42, 43, 0, 0, 0),
    /* Pair Plus by trips << 3 | straight << 2 | flush << 1 | pair */
    SG_LANES(0, 1, 2, 2, 3, 3, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4),
    /* 4 * rank + suit strength from the code: the suit bits 0 1 2 3 (c d h s) read 1 0 2 3 */
    SG_LANES(1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0),
};
/* (read through a volatile pointer, once a call, so that the compiler cannot see the values) */
typedef const uint8_t (*sg_const_t)[32];
static sg_const_t volatile sg_const_at = sg_const;
#define SG_K(name) _mm256_loadu_si256((const __m256i *)sgk[name])

/* 4 * (p mod 10) + f from x = 4 * p + f, p < 20, f < 4: x - 40 wraps above x when p < 10. */
SG_AVX2 SG_ALWAYS_INLINE __m256i sg_mod10(sg_const_t sgk, __m256i x) {
    return _mm256_min_epu8(x, _mm256_sub_epi8(x, SG_K(SG_40)));
}

/* The kernels: AVX2, and on GCC and clang two AVX-512 ones (F, BW and VL; and with VBMI),
 * each the same source (sg_simd_kernel.h) compiled for its instruction set in its own
 * functions. MSVC builds the AVX2 kernel only. */
#define SG_T SG_AVX2
#define SG_FN(name) name##_avx2
#define SG_VBMI 0
#include "sg_simd_kernel.h"
#undef SG_T
#undef SG_FN
#undef SG_VBMI

#if defined(__GNUC__) && !defined(_MSC_VER)
#define SG_HAVE_AVX512_KERNEL 1
#define SG_T __attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
#define SG_FN(name) name##_avx512
#define SG_VBMI 0
#include "sg_simd_kernel.h"
#undef SG_T
#undef SG_FN
#undef SG_VBMI
#define SG_T __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))
#define SG_FN(name) name##_avx512vbmi
#define SG_VBMI 1
#include "sg_simd_kernel.h"
#undef SG_T
#undef SG_FN
#undef SG_VBMI

/* Whether this CPU (and its OS, which must save the zmm and mask registers) runs AVX-512
 * F, BW and VL; and VBMI too. */
static int sg_cpu_has_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
}
static int sg_cpu_has_avx512vbmi(void) {
    return sg_cpu_has_avx512() && __builtin_cpu_supports("avx512vbmi");
}
#else
#define SG_HAVE_AVX512_KERNEL 0
static int sg_cpu_has_avx512(void) { return 0; }
static int sg_cpu_has_avx512vbmi(void) { return 0; }
#endif

#else
#define SG_HAVE_AVX2_KERNEL 0
#define SG_HAVE_AVX512_KERNEL 0
static int sg_cpu_has_avx2(void) { return 0; }
static int sg_cpu_has_avx512(void) { return 0; }
static int sg_cpu_has_avx512vbmi(void) { return 0; }
#endif

/* The evaluation kernels, the fallback first: each runs where the ones before it do. */
enum { SG_KERNEL_SCALAR, SG_KERNEL_AVX2, SG_KERNEL_AVX512, SG_KERNEL_AVX512VBMI };

/* The best kernel this build runs on this CPU. */
static int sg_best_kernel(void) {
    if (!SG_HAVE_AVX2_KERNEL || !sg_cpu_has_avx2()) return SG_KERNEL_SCALAR;
    if (!SG_HAVE_AVX512_KERNEL || !sg_cpu_has_avx512()) return SG_KERNEL_AVX2;
    return sg_cpu_has_avx512vbmi() ? SG_KERNEL_AVX512VBMI : SG_KERNEL_AVX512;
}

/* The vector kernel `kernel` (at most sg_best_kernel(), not the scalar one): see sg_eval
 * in sg_simd_kernel.h. */
static ptrdiff_t sg_eval_vector(int kernel, const sg_eval_formula *formula, const uint8_t *h, ptrdiff_t n, void *ranks,
                                uint8_t *pp) {
    switch (kernel) {
#if SG_HAVE_AVX2_KERNEL
    case SG_KERNEL_AVX2: return sg_eval_avx2(formula, h, n, ranks, pp);
#endif
#if SG_HAVE_AVX512_KERNEL
    case SG_KERNEL_AVX512: return sg_eval_avx512(formula, h, n, ranks, pp);
    case SG_KERNEL_AVX512VBMI: return sg_eval_avx512vbmi(formula, h, n, ranks, pp);
#endif
    default:
        (void)formula; (void)h; (void)n; (void)ranks; (void)pp;
        return -2;  /* never called: no such kernel here */
    }
}
#endif
