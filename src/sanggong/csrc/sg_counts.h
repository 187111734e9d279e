/* What simulate_chunk's round loops count, and where (sg_loop.h, sg_online.h): a chunk's
 * table, ranking, histograms and bet slip (sg_chunk), a rid's entry into the histograms
 * (sg_entry), and the compact counters of the default kind of ranking (sg_counts). */
#ifndef SANGGONG_SG_COUNTS_H
#define SANGGONG_SG_COUNTS_H
#include <stdint.h>
#include <stdlib.h>
#include "sg_common.h"
#include "sg_deal.h"
#include "sg_settle.h"

#define SG_STOP_EVERY 4096 /* rounds between two reads of the stop flag */

/* A chunk of rounds: the table, the ranking, what the loop counts. */
typedef struct {
    sg_params table;       /* how the table deals (the kernel's params) */
    const uint16_t *state; /* the ranking's two-card state table, 52 * 52 */
    const uint16_t *value; /* its value table: rid << 3 | pair plus */
    const uint64_t *entry; /* per rid: sg_entry */
    const uint16_t *rank;  /* per rid */
    const uint8_t *cls;    /* per rid */
    int counted;           /* the order against the banker is counted (pairs width 3) */
    int plain;             /* a rid is its own class and rank, the order not counted (the default ranking) */
    int64_t n_classes;
    uint64_t *pairs, *single;
    int64_t pair_len, single_len;
    const uint8_t *stop; /* read every SG_STOP_EVERY rounds */
    /* session mode: each round's net of a bet slip into net[round], bet j's outcome code
     * by the plan (sg_outcome) and its net money[j * money_row + code] */
    int session;
    sg_settlement plan;
    const int64_t *money;
    int64_t *net;
    int64_t money_row;
} sg_chunk;

/* A rid's entry: 6 * class (bits 0-15: plus the pair plus category, the hand's index in
 * its row of the single histogram), class * n_classes * width (16-31: its offset as the
 * hand in a row of the pairs histogram), class * width (32-47: as the banker), rank
 * (48-63). */
static inline uint64_t sg_entry(uint64_t cls, uint64_t rank, uint64_t n_classes, uint64_t width) {
    return 6 * cls | (cls * n_classes * width) << 16 | (cls * width) << 32 | rank << 48;
}

/* The counts of a plain ranking (a rid is its own class and rank, ordered by class) of at
 * most 32 classes, the common case, kept compact so that they and the tables stay in a
 * 48 kB L1 data cache (30 kB of tables where the ranking's are 53 kB): the state table with
 * rows of 64 (c1 << 6 | c2, no multiply), the value table in bytes (rid << 3 | pair plus <
 * 256), and 16-bit counters indexed by the hand's value itself (the single cell) and by
 * rid_h * 32 + rid_banker (the pairs cell), added into the histograms every
 * SG_FLUSH_EVERY rounds (so that none can pass 65,535) and at the end. */
#define SG_FLUSH_EVERY 32768 /* a multiple of SG_STOP_EVERY: flushed where the stop flag is read */
typedef struct {
    uint16_t state[52 << 6]; /* rows of 64: c0 << 6 | c1 */
    uint8_t *value;
    uint16_t *single; /* [hands][256] */
    uint16_t *pairs;  /* [hands][32 * 32] (row 0, the banker's, unused) */
} sg_counts;

static int sg_counts_make(sg_counts *c, const sg_chunk *t) {
    const int64_t hands = sg_hands(&t->table);
    size_t n_values = 0;
    for (int i = 0; i < 52 * 52; i++)
        if (t->state[i] + (size_t)52 > n_values)
            n_values = t->state[i] + (size_t)52;
    for (int a = 0; a < 52; a++)
        for (int b = 0; b < 52; b++)
            c->state[a << 6 | b] = t->state[a * 52 + b];
    c->value = (uint8_t *)malloc(n_values);
    c->single = (uint16_t *)calloc((size_t)hands * (256 + 1024), sizeof(uint16_t));
    if (!c->value || !c->single) {
        free(c->value);
        free(c->single);
        return -1;
    }
    c->pairs = c->single + 256 * hands;
    for (size_t i = 0; i < n_values; i++)
        c->value[i] = (uint8_t)t->value[i];
    return 0;
}

/* The counters added into t's histograms, and zeroed. */
static void sg_counts_flush(sg_counts *c, const sg_chunk *t) {
    const int64_t n_classes = t->n_classes, hands = sg_hands(&t->table);
    for (int64_t h = 0; h < hands; h++) {
        uint16_t *s = c->single + 256 * h, *a = c->pairs + 1024 * h;
        uint64_t *single = t->single + h * t->single_len, *pairs = t->pairs + h * t->pair_len;
        for (int64_t v = 0; v < 8 * n_classes; v++) {
            if ((v & 7) < 6)
                single[6 * (v >> 3) + (v & 7)] += s[v];
            s[v] = 0;
        }
        for (int64_t x = 0; h && x < n_classes; x++)
            for (int64_t y = 0; y < n_classes; y++) {
                pairs[x * n_classes + y] += a[x * 32 + y];
                a[x * 32 + y] = 0;
            }
    }
}

static void sg_counts_free(sg_counts *c) {
    free(c->value);
    free(c->single);
}

/* The counts of one hand (entry e, the pair plus category added) against the banker's
 * (entry b): its cell of the single histogram's row and of the pairs histogram's row. */
#define SG_SINGLE_CELL(e) ((e) & 0xffff)
#define SG_RANK(e) ((e) >> 48)

SG_ALWAYS_INLINE uint64_t sg_pair_cell(uint64_t e, uint64_t b, const int counted) {
    uint64_t cell = ((e >> 16) & 0xffff) + ((b >> 32) & 0xffff);
    if (counted) /* order + 1 (sg_order's, in arithmetic: the compiler must not make it a branch) */
        cell += 1 + ((SG_RANK(b) - SG_RANK(e)) >> 63) - ((SG_RANK(e) - SG_RANK(b)) >> 63);
    return cell;
}

/* A hand's entry, the pair plus category added; for a plain ranking its value (rid << 3 |
 * pair plus), the cells then computed from it (no lookup). The value also to *raw unless
 * raw is NULL. */
SG_ALWAYS_INLINE uint64_t sg_hand(const uint16_t *state, const uint16_t *value, const uint64_t *entry,
                                  uint8_t c0, uint8_t c1, uint8_t c2, const int plain, uint16_t *raw) {
    uint64_t v = value[state[c0 * 52 + c1] + c2];
    if (raw)
        *raw = (uint16_t)v;
    return plain ? v : entry[v >> 3] + (v & 7);
}

SG_ALWAYS_INLINE uint64_t sg_single(uint64_t e, const int plain) {
    return plain ? 6 * (e >> 3) + (e & 7) : SG_SINGLE_CELL(e);
}

SG_ALWAYS_INLINE uint64_t sg_pair(uint64_t e, uint64_t b, const int counted, const int plain, int64_t n_classes) {
    return plain ? (e >> 3) * (uint64_t)n_classes + (b >> 3) : sg_pair_cell(e, b, counted);
}

/* A hand's value in compact tables (sg_counts' state and value, which a loop keeps in locals:
 * a store to a counter may alias a field read through a pointer). */
SG_ALWAYS_INLINE uint64_t sg_compact_value(const uint16_t *state, const uint8_t *value, unsigned c0, unsigned c1,
                                           unsigned c2) {
    return value[state[c0 << 6 | c1] + c2];
}

#endif
