/* numpy's PCG64 (PCG XSL RR 128/64, O'Neill 2014), written once for the core: the state
 * advanced by the 128-bit LCG (state = state * multiplier + increment), then the output of
 * the new state, in 64-bit halves (sg_mul128, sg_random.h) so that it needs no compiler's
 * 128-bit integer. The vector table inlines sg_pcg64_next on its tables' generators
 * (sg_vector.h); the core's own bit generator (csrc/pcg64.pxi) adds numpy's buffered 32-bit
 * draws (has_uint32, uinteger) and doubles, and exposes numpy's bitgen_t, so that every
 * kernel draws from it as from numpy's PCG64 and a state numpy's holds gives the same words.
 * Its twin is sanggong._spec.pcg64; the tests hold both to numpy's own, word for word. */
#ifndef SANGGONG_SG_PCG64_H
#define SANGGONG_SG_PCG64_H
#include <stdint.h>
#include "sg_random.h"

typedef struct {
    uint64_t hi, lo, inc_hi, inc_lo;
} sg_pcg64;
/* numpy's PCG_DEFAULT_MULTIPLIER_128, high and low halves */
#define SG_PCG64_MULT_HI 2549297995355413924ULL
#define SG_PCG64_MULT_LO 4865540595714422341ULL

static inline uint64_t sg_pcg64_next(void *state) {
    sg_pcg64 *g = (sg_pcg64 *)state;
    uint64_t lo, hi = sg_mul128(g->lo, SG_PCG64_MULT_LO, &lo);
    hi += g->lo * SG_PCG64_MULT_HI + g->hi * SG_PCG64_MULT_LO;
    const uint64_t sum = lo + g->inc_lo;
    hi += g->inc_hi + (sum < lo);
    g->lo = sum;
    g->hi = hi;
    const uint64_t x = hi ^ sum;
    const unsigned rot = (unsigned)(hi >> 58);
    return (x >> rot) | (x << ((0u - rot) & 63u));
}

/* numpy's pcg64_state: the generator, and the high half of a 64-bit word whose low half
 * a 32-bit draw returned (has_uint32: the next 32-bit draw returns it) */
typedef struct {
    sg_pcg64 g;
    int has_uint32;
    uint32_t uinteger;
} sg_pcg64_state;

static uint64_t sg_pcg64_next_uint64(void *state) {
    return sg_pcg64_next(&((sg_pcg64_state *)state)->g);
}

static uint32_t sg_pcg64_next_uint32(void *state) {
    sg_pcg64_state *s = (sg_pcg64_state *)state;
    if (s->has_uint32) {
        s->has_uint32 = 0;
        return s->uinteger;
    }
    const uint64_t next = sg_pcg64_next(&s->g);
    s->has_uint32 = 1;
    s->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)(next & 0xffffffffULL);
}

static double sg_pcg64_next_double(void *state) {
    return (double)(sg_pcg64_next(&((sg_pcg64_state *)state)->g) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
