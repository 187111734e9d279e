/* Hand evaluation of C-contiguous uint8 card codes, the layout of the common batch, under
 * a ranking's run-time tables (sanggong.ranking). The first two codes of a hand are read
 * as one 16-bit word and index the ranking's two-card state table re-laid by that word
 * (state16, built for the platform's byte order); on little-endian machines four hands are
 * read as three 32-bit words. The caller has checked that every code is in 0..51. */
#ifndef SANGGONG_SG_EVAL_H
#define SANGGONG_SG_EVAL_H
#include <stdint.h>
#include <string.h>
#include <stddef.h>

#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
#define SG_LITTLE_ENDIAN 1
#else
#define SG_LITTLE_ENDIAN 0
#endif

/* The values (rid << 3 | pair plus) of the m hands at h under a ranking's run-time
 * tables: state16 is its two-card state table re-laid by the 16-bit word of two codes
 * (sanggong.ranking), value its value table. */
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
