/* The online table's round loop (a fresh deck every round, no burns, a head card, burned or
 * dealt, 4 hands, the order not counted): sg_loop's work with the draws' two groups (52 ..
 * 44 and the rest: sg_group[52] == 9) unrolled with their products as constants, the digits
 * of a group by chains of three multiplies started from x * (the product of the bounds
 * before the chain), all computed before the swaps; the swaps lazy (position t is never
 * read again, so only deck[j] is written); and the four hands' values packed in one word
 * rotated by the head card, so that each hand's row of the histograms is a constant. The
 * shoe procedure is sg_deal.h's, for this table's numbers. */
#ifndef SANGGONG_SG_ONLINE_H
#define SANGGONG_SG_ONLINE_H
#include <stdint.h>
#include <string.h>
#include "sg_common.h"
#include "sg_counts.h"
#include "sg_deal.h"
#include "sg_draws.h"
#include "sg_random.h"

#define SG_ONLINE_HANDS 4
#define SG_ONLINE_FIRST 9
#define SG_ONLINE_CHAIN 3
#define SG_OQ0 1ull
#define SG_OQ1 52ull
#define SG_OQ2 (SG_OQ1 * 51)
#define SG_OQ3 (SG_OQ2 * 50)
#define SG_OQ4 (SG_OQ3 * 49)
#define SG_OQ5 (SG_OQ4 * 48)
#define SG_OQ6 (SG_OQ5 * 47)
#define SG_OQ7 (SG_OQ6 * 46)
#define SG_OQ8 (SG_OQ7 * 45)
#define SG_OP0 (SG_OQ8 * 44) /* the first group's product */
#define SG_OQ9 1ull
#define SG_OQ10 43ull
#define SG_OQ11 (SG_OQ10 * 42)
#define SG_OQ12 (SG_OQ11 * 41)

static const uint8_t sg_fresh_deck[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* Whether the chunk's draws are the online table's (the two groups this loop unrolls). */
static inline int sg_online_draws(const sg_draws *p, const int burned) {
    const uint64_t p1 = burned ? SG_OQ12 * 40 : SG_OQ12; /* the second group: 43 .. 40, or 43 .. 41 */
    return p->group[1] == 2 && p->begin[1] == sg_round_cards(0, burned, SG_ONLINE_HANDS)
           && p->size[0] == SG_ONLINE_FIRST && p->product[0] == SG_OP0 && p->product[1] == p1;
}

/* A round's cards: the 12 cards of the hands to hc[0 .. 11], in the order dealt (three a
 * hand), from two words; returns the hand the head card names. */
SG_ALWAYS_INLINE int64_t sg_online_cards(uint64_t (*next)(void *), void *rng, const int burned, unsigned *hc) {
    const uint64_t p1 = burned ? SG_OQ12 * 40 : SG_OQ12;
    uint64_t x0 = sg_group_word(next, rng, SG_OP0), x1 = sg_group_word(next, rng, p1), low = 0;
    unsigned j0, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11, j12 = 0;
    /* card t's position j_t, and the low half carried on to card t + 1 */
#define SG_DIGIT(k, x, start)                                                                                    \
    {                                                                                                            \
        uint64_t lo_;                                                                                            \
        j##k = (k) + (unsigned)sg_mul128(((k) - (start)) % SG_ONLINE_CHAIN == 0 ? (x) * SG_OQ##k : low, 52 - (k), \
                                         &lo_);                                                                  \
        low = lo_;                                                                                               \
    }
    SG_DIGIT(0, x0, 0) SG_DIGIT(1, x0, 0) SG_DIGIT(2, x0, 0) SG_DIGIT(3, x0, 0) SG_DIGIT(4, x0, 0)
    SG_DIGIT(5, x0, 0) SG_DIGIT(6, x0, 0) SG_DIGIT(7, x0, 0) SG_DIGIT(8, x0, 0)
    SG_DIGIT(9, x1, 9) SG_DIGIT(10, x1, 9) SG_DIGIT(11, x1, 9)
    if (burned)
        SG_DIGIT(12, x1, 9)
#undef SG_DIGIT
    uint8_t deck[64];
    memcpy(deck, sg_fresh_deck, 64); /* one deck in code order: deck[i] == i */
#define SG_SWAP(k)                   \
    unsigned c##k = deck[j##k];      \
    deck[j##k] = deck[k];
    SG_SWAP(0) SG_SWAP(1) SG_SWAP(2) SG_SWAP(3) SG_SWAP(4) SG_SWAP(5) SG_SWAP(6) SG_SWAP(7) SG_SWAP(8)
    SG_SWAP(9) SG_SWAP(10) SG_SWAP(11)
    unsigned c12 = burned ? deck[j12] : 0;
#undef SG_SWAP
    /* the head card is c0; the hands' cards c1 .. c12 when it is burned, else c0 .. c11 */
    hc[0] = burned ? c1 : c0, hc[1] = burned ? c2 : c1, hc[2] = burned ? c3 : c2, hc[3] = burned ? c4 : c3;
    hc[4] = burned ? c5 : c4, hc[5] = burned ? c6 : c5, hc[6] = burned ? c7 : c6, hc[7] = burned ? c8 : c7;
    hc[8] = burned ? c9 : c8, hc[9] = burned ? c10 : c9, hc[10] = burned ? c11 : c10, hc[11] = burned ? c12 : c11;
    return sg_named_hand((uint8_t)c0, SG_ONLINE_HANDS);
}

/* What the online loop reads and counts into, in locals (a store to a histogram may alias
 * a field read through a pointer, which would then be reloaded after each store). */
typedef struct {
    const uint16_t *state, *value; /* compact: c's state table (rows of 64); else the ranking's */
    const uint8_t *value8;         /* compact: c's value table */
    const uint64_t *entry;
    uint64_t *s0, *s1, *s2, *s3, *a1, *a2, *a3; /* each hand's row of the histograms */
    uint16_t *cs, *ca;                          /* compact: the counters */
} sg_online_rows;

/* The four hands' values (in the order dealt from `first`) counted: packed in one word and
 * rotated by 16 first bits, so that position h's value is at bits 16 h (the k-th dealt is
 * hand sg_dealt_hand(k, first, 4)) and every row of the histograms is a constant. */
SG_ALWAYS_INLINE void sg_online_tally(const sg_online_rows o, const int compact, const unsigned *hc, int64_t first) {
    uint64_t v0, v1, v2, v3;
    if (compact) {
        v0 = sg_compact_value(o.state, o.value8, hc[0], hc[1], hc[2]);
        v1 = sg_compact_value(o.state, o.value8, hc[3], hc[4], hc[5]);
        v2 = sg_compact_value(o.state, o.value8, hc[6], hc[7], hc[8]);
        v3 = sg_compact_value(o.state, o.value8, hc[9], hc[10], hc[11]);
    } else {
        v0 = o.value[o.state[hc[0] * 52 + hc[1]] + hc[2]];
        v1 = o.value[o.state[hc[3] * 52 + hc[4]] + hc[5]];
        v2 = o.value[o.state[hc[6] * 52 + hc[7]] + hc[8]];
        v3 = o.value[o.state[hc[9] * 52 + hc[10]] + hc[11]];
    }
    uint64_t packed = v0 | v1 << 16 | v2 << 32 | v3 << 48;
    unsigned shift = 16 * (unsigned)first;
    packed = (packed << shift) | (packed >> ((64 - shift) & 63));
    uint64_t vb = packed & 0xffff, w1 = (packed >> 16) & 0xffff, w2 = (packed >> 32) & 0xffff, w3 = packed >> 48;
    if (compact) {
        uint64_t rb = vb >> 3;
        o.cs[vb]++;
        o.cs[256 + w1]++;
        o.cs[512 + w2]++;
        o.cs[768 + w3]++;
        o.ca[1024 + (w1 >> 3) * 32 + rb]++;
        o.ca[2048 + (w2 >> 3) * 32 + rb]++;
        o.ca[3072 + (w3 >> 3) * 32 + rb]++;
    } else {
        uint64_t b = o.entry[vb >> 3] + (vb & 7), e1 = o.entry[w1 >> 3] + (w1 & 7), e2 = o.entry[w2 >> 3] + (w2 & 7),
                 e3 = o.entry[w3 >> 3] + (w3 & 7);
        o.s0[SG_SINGLE_CELL(b)]++;
        o.s1[SG_SINGLE_CELL(e1)]++;
        o.s2[SG_SINGLE_CELL(e2)]++;
        o.s3[SG_SINGLE_CELL(e3)]++;
        o.a1[sg_pair_cell(e1, b, 0)]++;
        o.a2[sg_pair_cell(e2, b, 0)]++;
        o.a3[sg_pair_cell(e3, b, 0)]++;
    }
}

/* The online table's loop: up to `rounds` rounds of t (whose draws sg_online_draws have
 * checked), counted compact or through the ranking's entries; the rounds done. */
SG_ALWAYS_INLINE int64_t sg_online(uint64_t (*next)(void *), void *rng, const sg_chunk *t, sg_counts *c,
                                   int64_t rounds, const int burned, const int compact) {
    const uint8_t *stop = t->stop;
    uint64_t *s0 = t->single, *s1 = s0 + t->single_len, *s2 = s1 + t->single_len, *s3 = s2 + t->single_len;
    uint64_t *a1 = t->pairs + t->pair_len, *a2 = a1 + t->pair_len, *a3 = a2 + t->pair_len;
    const sg_online_rows o = {
        .state = compact ? c->state : t->state, .value = t->value, .value8 = compact ? c->value : NULL,
        .entry = t->entry, .s0 = s0, .s1 = s1, .s2 = s2, .s3 = s3, .a1 = a1, .a2 = a2, .a3 = a3,
        .cs = compact ? c->single : NULL, .ca = compact ? c->pairs : NULL,
    };
    int64_t done = 0;
    for (; done < rounds; done++) {
        if ((done & (SG_STOP_EVERY - 1)) == 0) {
            if (stop[0])
                break;
            if (compact && (done & (SG_FLUSH_EVERY - 1)) == 0 && done)
                sg_counts_flush(c, t);
        }
        unsigned hc[12];
        const int64_t first = sg_online_cards(next, rng, burned, hc);
        sg_online_tally(o, compact, hc, first);
    }
    return done;
}

#endif
