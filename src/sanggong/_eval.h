/* Hand evaluation of C-contiguous uint8 card codes, the layout of the common batch.
 * The first two codes of a hand are read as one 16-bit word and index sg_state16, the
 * two-card state table SG_STATE re-laid by that word (built from SG_STATE at import, for
 * the platform's byte order); on little-endian machines four hands are read as three
 * 32-bit words and their values stored four at a time. The caller has checked that
 * every code is in 0..51. */
#ifndef SANGGONG_EVAL_H
#define SANGGONG_EVAL_H
#include <stdint.h>
#include <string.h>
#include <stddef.h>
#include "_tables.h"

#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
#define SG_LITTLE_ENDIAN 1
#else
#define SG_LITTLE_ENDIAN 0
#endif

static uint16_t sg_state16[52 * 256];

static void sg_init_state16(void) {
    for (unsigned a = 0; a < 52; a++) {
        for (unsigned b = 0; b < 52; b++) {
            uint8_t pair[2] = {(uint8_t)a, (uint8_t)b};
            uint16_t word;
            memcpy(&word, pair, 2);
            sg_state16[word] = SG_STATE[a * 52 + b];
        }
    }
}

static inline uint8_t sg_packed_u8(const uint8_t *hand) {
    uint16_t word;
    memcpy(&word, hand, 2);
    return SG_HAND[sg_state16[word] + hand[2]];
}

/* ranks[k] and pair_plus[k] for the m hands at h (3 codes each) */
static inline void sg_eval_u8(const uint8_t *h, ptrdiff_t m, uint8_t *ranks, uint8_t *pair_plus) {
    ptrdiff_t k = 0;
#if SG_LITTLE_ENDIAN
    for (; k + 4 <= m; k += 4) {
        uint32_t w0, w1, w2; /* codes of hands k .. k + 3: bytes 0-2, 3-5, 6-8, 9-11 */
        memcpy(&w0, h + 3 * k, 4);
        memcpy(&w1, h + 3 * k + 4, 4);
        memcpy(&w2, h + 3 * k + 8, 4);
        uint32_t v0 = SG_HAND[sg_state16[w0 & 0xffff] + ((w0 >> 16) & 0xff)];
        uint32_t v1 = SG_HAND[sg_state16[(w0 >> 24) | ((w1 & 0xff) << 8)] + ((w1 >> 8) & 0xff)];
        uint32_t v2 = SG_HAND[sg_state16[w1 >> 16] + (w2 & 0xff)];
        uint32_t v3 = SG_HAND[sg_state16[(w2 >> 8) & 0xffff] + (w2 >> 24)];
        uint32_t four = v0 | (v1 << 8) | (v2 << 16) | (v3 << 24);
        uint32_t r = four & 0x1f1f1f1fu, p = (four >> 5) & 0x07070707u;
        memcpy(ranks + k, &r, 4);
        memcpy(pair_plus + k, &p, 4);
    }
#endif
    for (; k < m; k++) {
        uint8_t v = sg_packed_u8(h + 3 * k);
        ranks[k] = v & 31;
        pair_plus[k] = v >> 5;
    }
}

/* The values (rid << 3 | pair plus) of the m hands at h under a ranking's run-time
 * tables: state16 is its two-card state table re-laid by the 16-bit word of two codes
 * (sanggong.ranking), value its value table. The same reads as sg_eval_u8. */
static inline void sg_values_u8(const uint16_t *state16, const uint16_t *value, const uint8_t *h,
                                ptrdiff_t m, uint16_t *out) {
    ptrdiff_t k = 0;
#if SG_LITTLE_ENDIAN
    for (; k + 4 <= m; k += 4) {
        uint32_t w0, w1, w2;
        memcpy(&w0, h + 3 * k, 4);
        memcpy(&w1, h + 3 * k + 4, 4);
        memcpy(&w2, h + 3 * k + 8, 4);
        out[k] = value[state16[w0 & 0xffff] + ((w0 >> 16) & 0xff)];
        out[k + 1] = value[state16[(w0 >> 24) | ((w1 & 0xff) << 8)] + ((w1 >> 8) & 0xff)];
        out[k + 2] = value[state16[w1 >> 16] + (w2 & 0xff)];
        out[k + 3] = value[state16[(w2 >> 8) & 0xffff] + (w2 >> 24)];
    }
#endif
    for (; k < m; k++) {
        uint16_t word;
        memcpy(&word, h + 3 * k, 2);
        out[k] = value[state16[word] + h[3 * k + 2]];
    }
}
#endif
