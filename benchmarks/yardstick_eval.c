/* The yardstick for batch evaluation: the best plain-C loop found for the work of
 * sanggong.evaluate_batch(hands) on C-contiguous uint8 codes under the default ranking,
 * one thread. It gives exactly the same outputs: the rank (the class 3 * points + faces,
 * 30 for three faces) and the Pair Plus category of every hand, and the first row holding
 * a code outside 0..51 (-1 if none). AVX2, 32 hands a step, computed by arithmetic on the
 * codes with byte shuffles, no table in memory and no gather (gathers measured 3-12x slower
 * than scalar tables on this machine); the code check is folded into the same pass.
 *
 * Built by benchmarks/yardstick_eval.py with the system C compiler into a temporary shared
 * library, for benchmarks/report.py and tests/test_yardstick_eval.py:
 *
 *     cc -O3 -shared -fPIC -o yardstick_eval.so benchmarks/yardstick_eval.c
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The kernel is compiled for AVX2 in its own functions, so that yardstick_has_avx2 runs on any x86-64. */
#define AVX2 __attribute__((target("avx2")))
#define X (-1)
#define LANES(...) __VA_ARGS__, __VA_ARGS__

/* Uniform constants, read from memory through a pointer the compiler cannot see through:
 * GCC otherwise rebuilds each one in the loop from an immediate (three instructions) where
 * the sixteen vector registers do not hold them all. */
#define R4(v) v, v, v, v
#define ROW(v) {R4(v), R4(v), R4(v), R4(v), R4(v), R4(v), R4(v), R4(v)}
enum { RANK_BITS, ONE, TWO, THREE, FOUR, EIGHT, FIFTEEN, THIRTY, THIRTY_ONE, FORTY_EIGHT, FIFTY_ONE, NINETY_TWO };
static const uint8_t uniform[][32] = {ROW(0xfc), ROW(1), ROW(2), ROW(3), ROW(4), ROW(8), ROW(15), ROW(30), ROW(31), ROW(48),
                                      ROW(51), ROW(92)};
typedef const uint8_t (*constants)[32];
static constants volatile uniform_at = uniform;
#define U(name) _mm256_loadu_si256((const __m256i *)k[name])

AVX2 static inline __m256i load_lanes(const uint8_t *lo, const uint8_t *hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
                                   _mm_loadu_si128((const __m128i *)hi), 1);
}

/* The ranks and categories of the 32 hands at h (96 bytes, codes checked) into r and p. */
AVX2 static inline void eval32(constants k, __m256i a, __m256i b, __m256i c, uint8_t *r, uint8_t *p) {
    const __m256i c0 = _mm256_or_si256(
        _mm256_or_si256(_mm256_shuffle_epi8(a, _mm256_setr_epi8(LANES(0, 3, 6, 9, 12, 15, X, X, X, X, X, X, X, X, X, X))),
                        _mm256_shuffle_epi8(b, _mm256_setr_epi8(LANES(X, X, X, X, X, X, 2, 5, 8, 11, 14, X, X, X, X, X)))),
        _mm256_shuffle_epi8(c, _mm256_setr_epi8(LANES(X, X, X, X, X, X, X, X, X, X, X, 1, 4, 7, 10, 13))));
    const __m256i c1 = _mm256_or_si256(
        _mm256_or_si256(_mm256_shuffle_epi8(a, _mm256_setr_epi8(LANES(1, 4, 7, 10, 13, X, X, X, X, X, X, X, X, X, X, X))),
                        _mm256_shuffle_epi8(b, _mm256_setr_epi8(LANES(X, X, X, X, X, 0, 3, 6, 9, 12, 15, X, X, X, X, X)))),
        _mm256_shuffle_epi8(c, _mm256_setr_epi8(LANES(X, X, X, X, X, X, X, X, X, X, X, 2, 5, 8, 11, 14))));
    const __m256i c2 = _mm256_or_si256(
        _mm256_or_si256(_mm256_shuffle_epi8(a, _mm256_setr_epi8(LANES(2, 5, 8, 11, 14, X, X, X, X, X, X, X, X, X, X, X))),
                        _mm256_shuffle_epi8(b, _mm256_setr_epi8(LANES(X, X, X, X, X, 1, 4, 7, 10, 13, X, X, X, X, X, X)))),
        _mm256_shuffle_epi8(c, _mm256_setr_epi8(LANES(X, X, X, X, X, X, X, X, X, X, 0, 3, 6, 9, 12, 15))));
    const __m256i rank_bits = U(RANK_BITS), three = U(THREE), zero = _mm256_setzero_si256();
    /* 4 * rank of each card; its points (A..9: 1..9, ten and faces 0) + 32 for a face */
    const __m256i q0 = _mm256_and_si256(c0, rank_bits), q1 = _mm256_and_si256(c1, rank_bits),
                  q2 = _mm256_and_si256(c2, rank_bits);
    const __m256i pf = _mm256_setr_epi8(LANES(1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 32, 32, 32, 0, 0, 0));
    const __m256i s = _mm256_add_epi8(_mm256_add_epi8(_mm256_shuffle_epi8(pf, _mm256_srli_epi16(q0, 2)),
                                                      _mm256_shuffle_epi8(pf, _mm256_srli_epi16(q1, 2))),
                                      _mm256_shuffle_epi8(pf, _mm256_srli_epi16(q2, 2)));
    /* 3 * (points mod 10) by the sum of points (0..27): two 16-entry shuffles */
    const __m256i sum = _mm256_and_si256(s, U(THIRTY_ONE));
    const __m256i lo = _mm256_shuffle_epi8(_mm256_setr_epi8(LANES(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 0, 3, 6, 9, 12, 15)), sum);
    const __m256i hi = _mm256_shuffle_epi8(_mm256_setr_epi8(LANES(18, 21, 24, 27, 0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 0, 0)), sum);
    const __m256i faces = _mm256_and_si256(_mm256_srli_epi16(s, 5), three);
    __m256i rank = _mm256_add_epi8(_mm256_blendv_epi8(lo, hi, _mm256_cmpgt_epi8(sum, U(FIFTEEN))), faces);
    rank = _mm256_blendv_epi8(rank, U(THIRTY), _mm256_cmpeq_epi8(faces, three));
    _mm256_storeu_si256((__m256i *)r, rank);
    /* Pair Plus */
    const __m256i e01 = _mm256_cmpeq_epi8(q0, q1), e12 = _mm256_cmpeq_epi8(q1, q2), e02 = _mm256_cmpeq_epi8(q0, q2);
    const __m256i trips = _mm256_and_si256(e01, e12), any = _mm256_or_si256(_mm256_or_si256(e01, e12), e02);
    const __m256i low = _mm256_min_epu8(_mm256_min_epu8(q0, q1), q2), high = _mm256_max_epu8(_mm256_max_epu8(q0, q1), q2);
    const __m256i run = _mm256_cmpeq_epi8(_mm256_sub_epi8(high, low), U(EIGHT));
    const __m256i aqk = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_add_epi8(low, high), U(FORTY_EIGHT)),
                                         _mm256_cmpeq_epi8(_mm256_add_epi8(_mm256_add_epi8(q0, q1), q2), U(NINETY_TWO)));
    const __m256i straight = _mm256_andnot_si256(any, _mm256_or_si256(run, aqk));
    const __m256i flush = _mm256_cmpeq_epi8(
        _mm256_and_si256(_mm256_or_si256(_mm256_xor_si256(c0, c1), _mm256_xor_si256(c1, c2)), three), zero);
    /* trips 8 | straight 4 | flush 2 | pair 1, then the category by a 16-entry shuffle */
    const __m256i key = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(trips, U(EIGHT)), _mm256_and_si256(straight, U(FOUR))),
        _mm256_or_si256(_mm256_and_si256(flush, U(TWO)), _mm256_and_si256(any, U(ONE))));
    _mm256_storeu_si256((__m256i *)p,
                        _mm256_shuffle_epi8(_mm256_setr_epi8(LANES(0, 1, 2, 2, 3, 3, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4)), key));
}

static ptrdiff_t first_bad(const uint8_t *h, ptrdiff_t n) {
    for (ptrdiff_t k = 0; k < n; k++)
        if (h[3 * k] > 51 || h[3 * k + 1] > 51 || h[3 * k + 2] > 51) return k;
    return n;
}

AVX2 ptrdiff_t yardstick_eval(const uint8_t *h, ptrdiff_t n, uint8_t *rank, uint8_t *pair_plus) {
    const constants k = uniform_at;
    const __m256i limit = U(FIFTY_ONE);
    ptrdiff_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const uint8_t *x = h + 3 * i;
        const __m256i a = load_lanes(x, x + 48), b = load_lanes(x + 16, x + 64), c = load_lanes(x + 32, x + 80);
        const __m256i over = _mm256_subs_epu8(_mm256_max_epu8(_mm256_max_epu8(a, b), c), limit);
        if (!_mm256_testz_si256(over, over)) return i + first_bad(x, 32);
        eval32(k, a, b, c, rank + i, pair_plus + i);
    }
    if (i < n) {
        uint8_t in[96] = {0}, r[32], p[32];
        const ptrdiff_t m = n - i;
        memcpy(in, h + 3 * i, (size_t)(3 * m));
        const __m256i a = load_lanes(in, in + 48), b = load_lanes(in + 16, in + 64), c = load_lanes(in + 32, in + 80);
        const __m256i over = _mm256_subs_epu8(_mm256_max_epu8(_mm256_max_epu8(a, b), c), limit);
        if (!_mm256_testz_si256(over, over)) return i + first_bad(in, m);
        eval32(k, a, b, c, r, p);
        memcpy(rank + i, r, (size_t)m);
        memcpy(pair_plus + i, p, (size_t)m);
    }
    return -1;
}

/* Whether this CPU (and OS) runs AVX2: call before yardstick_eval. */
int yardstick_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}
