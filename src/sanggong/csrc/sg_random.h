/* Unbiased bounded integers from 64-bit draws: Lemire's multiply-and-reject method
 * ("Fast random integer generation in an interval", ACM TOMACS 2019).
 * The pure-Python twin is _spec.draws.bounded; both must consume the same draws. */
#ifndef SANGGONG_SG_RANDOM_H
#define SANGGONG_SG_RANDOM_H
#include <stdint.h>
#include <string.h>
#include "sg_limits.h"
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
/* Lazy Fisher-Yates with batched bounded integers. Drawing card i of an n-card deck
 * swaps deck[i + r] into place i, r uniform in [0, n - i). The bounds n - i of a draw are
 * taken in groups: a group is the longest run of the next bounds whose product P stays
 * at most 2**52, and one 64-bit word x gives all of its numbers (Brackett-Rozinsky and
 * Lemire, "Batched ranged random integer generation", Software: Practice and Experience,
 * 2024): multiplying x by each bound in turn, the high half of each 128-bit product is
 * that bound's number and the low half carries on to the next. The numbers are then the
 * mixed-radix digits of floor(x * P / 2**64), and the final low half is x * P mod 2**64,
 * so Lemire's rejection on it (redraw while it is below 2**64 mod P) makes every digit
 * uniform and independent. A group's product fits in 64 bits without overflow check
 * because P <= 2**52 and a bound is at most SG_MAX_BOUND < 2**12 (checked below). An
 * online round of 13 cards takes two words; a round from an 8-deck shoe five cards a word.
 * The pure-Python twin is _spec.draws.draw; both must consume the same draws. */
#define SG_BATCH_LIMIT ((uint64_t)1 << 52)
#define SG_MAX_BOUND SG_MAX_CARDS /* the largest shoe's cards (limits.MAX_DECKS decks) */
/* a bound below 2**12, so that a product of at most 2**52 times a bound stays in 64 bits
 * (a negative size stops the compiler otherwise) */
typedef char sg_bounds_fit_a_word[SG_MAX_BOUND < 4096 ? 1 : -1];
#define SG_MAX_GROUP 24 /* 17 bounds at most: 17! <= 2**52 < 18! */

/* sg_group[b]: how many bounds b, b - 1, ... a group starting at bound b takes (when the
 * draw goes on that long): the most whose product stays within SG_BATCH_LIMIT. A table,
 * so that the group sizes cost no loop with an unpredictable exit. */
static uint8_t sg_group[SG_MAX_BOUND + 1];

static void sg_init_groups(void) {
    for (uint64_t b = 1; b <= SG_MAX_BOUND; b++) {
        uint64_t product = b, size = 1;
        while (size < b && product * (b - size) <= SG_BATCH_LIMIT) {
            product *= b - size;
            size++;
        }
        sg_group[b] = (uint8_t)size;
    }
}

/* Draws cards start .. start + count - 1 of deck[0:n] (count >= 0, start + count <= n,
 * n <= SG_MAX_BOUND), writing them to out[0:count] and, when picked is not NULL, the
 * position each was taken from to picked[0:count] (so that the swaps can be undone). */
static inline void sg_draw(uint64_t (*next)(void *), void *state, uint8_t *deck, int64_t n,
                           int64_t start, int64_t count, uint8_t *out, int64_t *picked) {
    int64_t i = start, end = start + count;
    uint64_t digits[SG_MAX_GROUP];
    while (i < end) {
        int64_t size = sg_group[n - i];
        if (size > end - i)
            size = end - i;
        uint64_t x, lo, product;
        for (;;) {
            x = next(state);
            product = 1;
            for (int64_t t = 0; t < size; t++) {
                uint64_t bound = (uint64_t)(n - i - t);
                digits[t] = sg_mul128(x, bound, &lo);
                x = lo;
                product *= bound;
            }
            if (x >= product || x >= (0 - product) % product) /* (0 - P) % P == 2**64 mod P */
                break;
        }
        for (int64_t t = 0; t < size; t++, i++) {
            int64_t j = i + (int64_t)digits[t];
            uint8_t card = deck[j];
            deck[j] = deck[i];
            deck[i] = card;
            out[i - start] = card;
            if (picked)
                picked[i - start] = j;
        }
    }
}

/* Puts a deck drawn from by sg_draw(..., start = 0, count, ..., picked) back as fresh
 * (fresh[0:n], the deck in code order), touching only what the draw touched when that
 * is less work than a copy; a one-deck copy has a fixed size, a few vector moves. */
static inline void sg_reset(uint8_t *deck, const uint8_t *fresh, int64_t n, int64_t count,
                            const int64_t *picked) {
    if (n == 52) {
        memcpy(deck, fresh, 52);
    } else if (4 * count > n) {
        memcpy(deck, fresh, (size_t)n);
    } else {
        for (int64_t i = 0; i < count; i++) {
            deck[i] = fresh[i];
            deck[picked[i]] = fresh[picked[i]];
        }
    }
}
#endif
