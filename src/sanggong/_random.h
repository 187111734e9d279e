/* Unbiased bounded integers from 64-bit draws: Lemire's multiply-and-reject method
 * ("Fast random integer generation in an interval", ACM TOMACS 2019).
 * The pure-Python twin is _reference.bounded; both must consume the same draws. */
#ifndef SANGGONG_RANDOM_H
#define SANGGONG_RANDOM_H
#include <stdint.h>
#if defined(_MSC_VER) && defined(_M_X64)
#include <intrin.h>
#endif

/* high 64 bits of a * b, low 64 bits through *lo */
static inline uint64_t sg_mul128(uint64_t a, uint64_t b, uint64_t *lo) {
#if defined(__SIZEOF_INT128__)
    __uint128_t m = (__uint128_t)a * b;
    *lo = (uint64_t)m;
    return (uint64_t)(m >> 64);
#elif defined(_MSC_VER) && defined(_M_X64)
    uint64_t hi;
    *lo = _umul128(a, b, &hi);
    return hi;
#else
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
    *lo = (mid << 32) | (uint32_t)p0;
    return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
#endif
}

/* uniform in [0, n), n >= 1; next(state) returns uniform 64-bit words */
static inline uint64_t sg_bounded(uint64_t (*next)(void *), void *state, uint64_t n) {
    uint64_t lo, hi = sg_mul128(next(state), n, &lo);
    if (lo < n) {
        uint64_t threshold = (0 - n) % n; /* 2**64 mod n */
        while (lo < threshold) {
            hi = sg_mul128(next(state), n, &lo);
        }
    }
    return hi;
}
/* A stream of 32-bit words cut from 64-bit draws, low half first: two cards per draw.
 * What is left of the last draw when a call ends is dropped (the reference does the same). */
typedef struct {
    uint64_t (*next)(void *);
    void *state;
    uint64_t word;
    int have;
} sg_stream32;

static inline uint32_t sg_next32(sg_stream32 *s) {
    if (s->have) {
        s->have = 0;
        return (uint32_t)(s->word >> 32);
    }
    s->word = s->next(s->state);
    s->have = 1;
    return (uint32_t)s->word;
}

/* uniform in [0, n), 1 <= n < 2**32: Lemire's method on 32-bit words */
static inline uint32_t sg_bounded32(sg_stream32 *s, uint32_t n) {
    uint64_t m = (uint64_t)sg_next32(s) * n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t threshold = (uint32_t)(0u - n) % n; /* 2**32 mod n */
        while (lo < threshold) {
            m = (uint64_t)sg_next32(s) * n;
            lo = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}
#endif
