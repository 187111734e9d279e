/* The round loop of simulate_chunk (sanggong._core): rounds dealt exactly as sg_draw deals
 * them (the same draws of the bit generator, in the same order), evaluated by the ranking's
 * tables and counted into the histograms, and in session mode a bet slip settled every
 * round. The twin is _reference.simulate_chunk; tests/test_rounds.py and
 * tests/test_simulation.py check them equal for many shapes and every preset's ranking.
 *
 * What makes it fast (benchmarks/yardstick.c is the best plain-C loop for the two common
 * tables; benchmarks/report.py times this loop, and simulate(), against it):
 * - the draw plan is made once per chunk: every round of a shoe starts at the same
 *   position from shoe to shoe (and a fresh deck's round at 0), so the groups of bounds
 *   sg_draw would take, their sizes and products are known before the first round
 *   (sg_plan);
 * - a group's cards are drawn as sg_draw draws them, by one chain of multiplies from its
 *   word, each card swapped into place as its digit comes: the switch of sg_group_cards
 *   jumps into a run of straight-line draws as long as the group. Drawing a group's word
 *   just before its cards keeps the swaps of one group behind those of the one before:
 *   with every word drawn first, the groups' chains ran side by side and a load of the
 *   deck could run ahead of a store to the same card, which costs the processor a flush
 *   (measured: a third slower);
 * - the hands are read from the deck where the draws leave them, and for the default
 *   kind of ranking (plain, at most 32 classes) their counts go to compact counters
 *   (sg_counts): tables and counters in 30 + 14 kB, which a 48 kB L1 data cache holds, a
 *   hand's cells its value itself and rid_h * 32 + rid_banker, no multiply and no branch;
 *   other rankings count through one 64-bit entry per rid (sg_entry: its cell in the
 *   single histogram, its class's offsets in the pairs histogram as hand and as banker,
 *   its rank), built once per chunk;
 * - the dealing options are parameters of one always-inlined loop (sg_loop), which the
 *   dispatch (sg_simulate) instantiates with constants for the Macau table (an 8-deck shoe
 *   dealt one card at a time to 8 hands) and with run-time values for every other table;
 *   the online table (a fresh deck, a head card, 4 hands) has a loop of its own
 *   (sg_online): its two groups unrolled with their products as constants, the digits by
 *   short chains all computed before the swaps, and the four hands' values in one
 *   register. */
#ifndef SANGGONG_ROUNDS_H
#define SANGGONG_ROUNDS_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "_random.h"

#if defined(_MSC_VER)
#define SG_ALWAYS_INLINE static __forceinline
#else
#define SG_ALWAYS_INLINE static inline __attribute__((always_inline))
#endif

#define SG_MAX_ROUND_CARDS (64 + 1 + 3 * 17) /* burns, a head card, 17 hands */
#define SG_STOP_EVERY 4096

/* One word for a group of bounds of product P, redrawn while Lemire's rejection says so:
 * the word x is kept when x * P mod 2**64 >= 2**64 mod P (as sg_draw). */
SG_ALWAYS_INLINE uint64_t sg_group_word(uint64_t (*next)(void *), void *state, uint64_t product) {
    for (;;) {
        uint64_t x = next(state);
        uint64_t low = x * product;
        if (low >= product || low >= (0 - product) % product)
            return x;
    }
}

/* The table and what the loop counts. */
typedef struct {
    int64_t decks, hands, fresh, burn_first, burn_later, head, head_burned, one_at_a_time, cut_lo, cut_hi;
    const uint16_t *state; /* the ranking's two-card state table, 52 * 52 */
    const uint16_t *value; /* its value table: rid << 3 | pair plus */
    const uint64_t *entry; /* per rid: sg_entry */
    int counted;           /* the order against the banker is counted (pairs width 3) */
    int plain;             /* a rid is its own class and rank, the order not counted (the default ranking) */
    int64_t n_classes;
    uint64_t *pairs, *single;
    int64_t pair_len, single_len;
    const uint8_t *stop; /* read every SG_STOP_EVERY rounds */
    int session; /* session mode: */
    /* each round's net of a bet slip of `bets` bets into
     * net[round], bet j's outcome code outcome[row[j] * key_space + ka[j] * class_h +
     * kb[j] * pair_plus_h + kc[j] * class_banker + kd[j] * (order + 1)] (h = hand[j]) and its
     * net money[j * money_row + code]; rank and cls per rid */
    const int64_t *money;
    int64_t *net;
    int64_t bets, key_space, money_row;
    const uint8_t *outcome;
    const int32_t *row, *hand, *ka, *kb, *kc, *kd;
    const uint16_t *rank;
    const uint8_t *cls;
} sg_table;

/* A rid's entry: 6 * class (bits 0-15: plus the pair plus category, the hand's index in
 * its row of the single histogram), class * n_classes * width (16-31: its offset as the
 * hand in a row of the pairs histogram), class * width (32-47: as the banker), rank
 * (48-63). */
static inline uint64_t sg_entry(uint64_t cls, uint64_t rank, uint64_t n_classes, uint64_t width) {
    return 6 * cls | (cls * n_classes * width) << 16 | (cls * width) << 32 | rank << 48;
}

/* The draw plan of the rounds of a shoe (one round for a fresh deck): round r takes the
 * cards at positions begin[r] .. begin[r + 1] - 1, in the groups group[r] ..
 * group[r + 1] - 1 of products product[] and sizes size[] (at most 17 cards: 17! <= 2**52
 * < 18!). */
#define SG_MAX_GROUP_CARDS 17
typedef struct {
    int64_t rounds;
    int64_t *begin, *group;
    uint64_t *product;
    uint8_t *size;
} sg_plan;

static void sg_plan_free(sg_plan *p) {
    free(p->begin);
    free(p->group);
    free(p->product);
    free(p->size);
}

/* The plan of every round a shoe can deal: those starting at or before the last place the
 * cut card can be (a round starting after it would follow a round that took the cut card).
 * Returns 0, or -1 when out of memory. */
static int sg_plan_make(sg_plan *p, const sg_table *t) {
    int64_t n = 52 * t->decks, head_card = t->head && t->head_burned;
    int64_t later = t->burn_later + head_card + 3 * t->hands;
    int64_t last_start = t->fresh ? 0 : n - t->cut_lo;
    memset(p, 0, sizeof(*p));
    p->begin = (int64_t *)malloc((size_t)(n + 2) * sizeof(int64_t));
    p->group = (int64_t *)malloc((size_t)(n + 2) * sizeof(int64_t));
    p->product = (uint64_t *)malloc((size_t)n * sizeof(uint64_t));
    p->size = (uint8_t *)malloc((size_t)n);
    if (!p->begin || !p->group || !p->product || !p->size) {
        sg_plan_free(p);
        return -1;
    }
    int64_t pos = 0, g = 0, r = 0;
    while (r == 0 || pos <= last_start) {
        int64_t end = pos + (r == 0 ? t->burn_first + head_card + 3 * t->hands : later);
        p->begin[r] = pos;
        p->group[r] = g;
        for (int64_t i = pos; i < end;) {
            int64_t size = sg_group[n - i];
            if (size > end - i)
                size = end - i;
            uint64_t product = 1;
            for (int64_t k = 0; k < size; k++, i++)
                product *= (uint64_t)(n - i);
            p->size[g] = (uint8_t)size;
            p->product[g++] = product;
        }
        pos = end;
        r++;
    }
    p->begin[r] = pos;
    p->group[r] = g;
    p->rounds = r;
    return 0;
}

/* A group's cards: the word low's digits by one chain of multiplies (the high half of
 * low * bound is the digit, the low half goes on to the next bound, as sg_draw), each
 * swapped into place at once, unrolled: the switch jumps into a run of straight-line draws
 * that ends with the group's last card, e[-1] (the first is e[-size]); the bound of e[-k] is
 * end + k; the cases go up to SG_MAX_GROUP_CARDS, the most a group can hold. With picked,
 * the position each card was taken from (its index in the deck, of which e is at index at)
 * is kept at picked[-k], for the fresh deck's reset. */
#define SG_CARD(k)                                        \
    case k: {                                             \
        uint64_t lo_;                                     \
        uint64_t j_ = sg_mul128(low, end + k, &lo_);      \
        low = lo_;                                        \
        uint8_t card_ = e[(int64_t)j_ - k];               \
        e[(int64_t)j_ - k] = e[-k];                       \
        e[-k] = card_;                                    \
        if (picked)                                       \
            picked[-k] = at + (int64_t)j_ - k;            \
    }                                                     \
    SG_FALLTHROUGH;
#if defined(__GNUC__) || defined(__clang__)
#define SG_FALLTHROUGH __attribute__((fallthrough))
#else
#define SG_FALLTHROUGH (void)0
#endif

SG_ALWAYS_INLINE void sg_group_cards(uint64_t low, uint8_t *e, uint64_t end, int64_t size, int64_t *picked,
                                     int64_t at) {
    switch (size) {
        SG_CARD(17) SG_CARD(16) SG_CARD(15) SG_CARD(14) SG_CARD(13) SG_CARD(12) SG_CARD(11) SG_CARD(10)
        SG_CARD(9) SG_CARD(8) SG_CARD(7) SG_CARD(6) SG_CARD(5) SG_CARD(4) SG_CARD(3) SG_CARD(2) SG_CARD(1)
        default:;
    }
}
#undef SG_CARD

/* The counts of a plain ranking (a rid is its own class and rank, ordered by class) of at
 * most 32 classes, the common case, kept compact so that they and the tables stay in a
 * 48 kB L1 data cache (30 kB of tables where the ranking's are 53 kB): the state table with
 * rows of 64 (c1 << 6 | c2, no multiply), the value table in bytes (rid << 3 | pair plus <
 * 256), and 16-bit counters indexed by the hand's value itself (the single cell) and by
 * rid_h * 32 + rid_banker (the pairs cell), added into the histograms every
 * SG_FLUSH_EVERY rounds (so that none can pass 65,535) and at the end. */
#define SG_FLUSH_EVERY 32768 /* a multiple of SG_STOP_EVERY: flushed where the stop flag is read */
typedef struct {
    uint16_t state[52 * 64];
    uint8_t *value;
    uint16_t *single; /* [hands][256] */
    uint16_t *pairs;  /* [hands][32 * 32] (row 0, the banker's, unused) */
} sg_counts;

static int sg_counts_make(sg_counts *c, const sg_table *t) {
    size_t n_values = 0;
    for (int i = 0; i < 52 * 52; i++)
        if (t->state[i] + (size_t)52 > n_values)
            n_values = t->state[i] + (size_t)52;
    for (int a = 0; a < 52; a++)
        for (int b = 0; b < 52; b++)
            c->state[a << 6 | b] = t->state[a * 52 + b];
    c->value = (uint8_t *)malloc(n_values);
    c->single = (uint16_t *)calloc((size_t)t->hands * (256 + 1024), sizeof(uint16_t));
    if (!c->value || !c->single) {
        free(c->value);
        free(c->single);
        return -1;
    }
    c->pairs = c->single + 256 * t->hands;
    for (size_t i = 0; i < n_values; i++)
        c->value[i] = (uint8_t)t->value[i];
    return 0;
}

/* The counters added into t's histograms, and zeroed. */
static void sg_counts_flush(sg_counts *c, const sg_table *t) {
    const int64_t n_classes = t->n_classes;
    for (int64_t h = 0; h < t->hands; h++) {
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
    if (counted)
        cell += 1 + (SG_RANK(e) > SG_RANK(b)) - (SG_RANK(e) < SG_RANK(b));
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

/* A hand's value and counts in the compact counters of c (counts of the hand at row h, and
 * against the banker's value b unless h is the banker's row 0). */
SG_ALWAYS_INLINE uint64_t sg_compact_value(const sg_counts *c, uint8_t c0, uint8_t c1, uint8_t c2) {
    return c->value[c->state[c0 << 6 | c1] + c2];
}

/* The loop, for the table t and its plan; the other parameters are t's own values, given
 * again so that a caller can make them constants (then the compiler specialises). With
 * compact (a plain ranking of at most 32 classes, not in session mode) the counts go to
 * c's counters. */
SG_ALWAYS_INLINE int64_t sg_loop(uint64_t (*next)(void *), void *rng, const sg_table *t, const sg_plan *p,
                                 sg_counts *c, int64_t rounds, uint8_t *deck, const uint8_t *ordered,
                                 const int64_t n, const int64_t hands, const int fresh, const int64_t burn_first,
                                 const int64_t burn_later, const int head, const int head_burned,
                                 const int one_at_a_time, const int counted, const int plain,
                                 const int with_money, const int compact) {
    const int64_t n_classes = t->n_classes;
    uint16_t raw_k[17], raw[17]; /* session mode: hand k's value, position h's value */
    int64_t rank_h[17];
    int64_t cls_h[17], pp_h[17];
    /* (all in locals: a store to a histogram or to net may alias t's fields) */
    const int64_t bets = t->bets, key_space = t->key_space, money_row = t->money_row;
    const int64_t *money = t->money;
    int64_t *net = t->net;
    const uint8_t *outcome = t->outcome;
    const int32_t *bet_row = t->row, *bet_hand = t->hand, *ka = t->ka, *kb = t->kb, *kc = t->kc, *kd = t->kd;
    const uint16_t *rank_of = t->rank;
    const uint8_t *cls_of = t->cls;
    const uint16_t *state = t->state, *value = t->value;
    const uint64_t *entry = t->entry;
    uint64_t *pairs = t->pairs, *single = t->single;
    const int64_t pair_len = t->pair_len, single_len = t->single_len;
    uint16_t *cs = compact ? c->single : NULL, *ca = compact ? c->pairs : NULL;
    const uint8_t *stop = t->stop;
    const int64_t cut_lo = t->cut_lo, cut_hi = t->cut_hi;
    const int64_t *begin_at = p->begin, *group_at = p->group;
    const uint64_t *product = p->product;
    const uint8_t *size_of = p->size;
    int64_t picked[SG_MAX_ROUND_CARDS]; /* a fresh deck: where each card was taken from */
    uint64_t e[17];
    /* (rank - 1) mod 4 of the head card, taken mod hands: the first hand */
    int64_t first_of[4];
    for (int64_t k = 0; k < 4; k++)
        first_of[k] = k % hands;
    int64_t done = 0, r = 0, cut = 0;
    int last = 1;
    memcpy(deck, ordered, (size_t)n);
    while (done < rounds) {
        if ((done & (SG_STOP_EVERY - 1)) == 0) {
            if (stop[0])
                break;
            if (compact && (done & (SG_FLUSH_EVERY - 1)) == 0 && done)
                sg_counts_flush(c, t);
        }
        if (!fresh && last) { /* shuffle: cards back in code order, the cut card placed */
            memcpy(deck, ordered, (size_t)n);
            cut = n - (cut_lo + (int64_t)sg_bounded(next, rng, (uint64_t)(cut_hi - cut_lo + 1)));
            r = 0;
            last = 0;
        }
        const int64_t begin = fresh ? 0 : begin_at[r];
        const int64_t burn = (fresh || r == 0) ? burn_first : burn_later;
        const int64_t count = burn + (head && head_burned) + 3 * hands;
        const int64_t g0 = fresh ? 0 : group_at[r], groups = (fresh ? group_at[1] : group_at[r + 1]) - g0;
        /* the cards, group by group: deck[begin .. begin + count - 1] in the order drawn */
        for (int64_t g = 0, i = begin; g < groups; g++) {
            const int64_t size = size_of[g0 + g];
            uint64_t low = sg_group_word(next, rng, product[g0 + g]);
            sg_group_cards(low, deck + i + size, (uint64_t)(n - i - size), size,
                           fresh ? picked + (i - begin) + size : NULL, i + size);
            i += size;
        }
        if (!fresh) {
            last = begin <= cut && cut < begin + count;
            r++;
        }
        const uint8_t *rest = deck + begin + burn;
        if (head) { /* the head card names the first hand; three cards a hand */
            int64_t first = first_of[(rest[0] >> 2) & 3];
            if (head_burned)
                rest++;
            for (int64_t k = 0; k < hands; k++)
                e[k] = compact ? sg_compact_value(c, rest[3 * k], rest[3 * k + 1], rest[3 * k + 2])
                               : sg_hand(state, value, entry, rest[3 * k], rest[3 * k + 1], rest[3 * k + 2],
                                         plain, with_money ? &raw_k[k] : NULL);
            uint64_t b = e[first ? hands - first : 0]; /* hand k is position (first + k) mod hands */
            for (int64_t k = 0; k < hands; k++) {
                int64_t h = first + k;
                h = h >= hands ? h - hands : h;
                if (with_money)
                    raw[h] = raw_k[k];
                if (compact) {
                    cs[256 * h + e[k]]++;
                    ca[1024 * h + (e[k] >> 3) * 32 + (b >> 3)] += h != 0; /* (row 0 is the banker's: 0 added) */
                } else {
                    single[h * single_len + sg_single(e[k], plain)]++;
                    pairs[h * pair_len + sg_pair(e[k], b, counted, plain, n_classes)] += h != 0;
                }
            }
        } else { /* position k + 1, the banker (0) last */
            const int64_t x = one_at_a_time ? hands - 1 : 3 * hands - 3, dx = one_at_a_time ? hands : 1;
            uint64_t b = compact ? sg_compact_value(c, rest[x], rest[x + dx], rest[x + 2 * dx])
                                 : sg_hand(state, value, entry, rest[x], rest[x + dx], rest[x + 2 * dx], plain,
                                           with_money ? &raw[0] : NULL);
            if (compact)
                cs[b]++;
            else
                single[sg_single(b, plain)]++;
            for (int64_t k = 0; k + 1 < hands; k++) {
                const int64_t y = one_at_a_time ? k : 3 * k;
                uint64_t h = compact ? sg_compact_value(c, rest[y], rest[y + dx], rest[y + 2 * dx])
                                     : sg_hand(state, value, entry, rest[y], rest[y + dx], rest[y + 2 * dx], plain,
                                               with_money ? &raw[k + 1] : NULL);
                if (compact) {
                    cs[256 * (k + 1) + h]++;
                    ca[1024 * (k + 1) + (h >> 3) * 32 + (b >> 3)]++;
                } else {
                    single[(k + 1) * single_len + sg_single(h, plain)]++;
                    pairs[(k + 1) * pair_len + sg_pair(h, b, counted, plain, n_classes)]++;
                }
            }
        }
        if (fresh) { /* the deck in code order again, for the next round (as sg_reset) */
            if (n == 52 || 4 * count > n) {
                memcpy(deck, ordered, (size_t)n);
            } else {
                for (int64_t k = 0; k < count; k++) {
                    deck[k] = ordered[k];
                    deck[picked[k]] = ordered[picked[k]];
                }
            }
        }
        if (with_money) { /* the bet slip's net this round */
            for (int64_t k = 0; k < hands; k++) {
                rank_h[k] = plain ? raw[k] >> 3 : rank_of[raw[k] >> 3];
                cls_h[k] = plain ? raw[k] >> 3 : cls_of[raw[k] >> 3];
                pp_h[k] = raw[k] & 7;
            }
            int64_t total = 0;
            for (int64_t j = 0; j < bets; j++) {
                int64_t h = bet_hand[j];
                int64_t order = (rank_h[h] > rank_h[0]) - (rank_h[h] < rank_h[0]);
                uint8_t code = outcome[bet_row[j] * key_space + ka[j] * cls_h[h] + kb[j] * pp_h[h] + kc[j] * cls_h[0]
                                       + kd[j] * (order + 1)];
                total += money[j * money_row + code];
            }
            net[done] = total;
        }
        done++;
    }
    return done;
}

/* The online table (a fresh deck every round, no burns, a head card, burned or dealt, 4
 * hands, the order not counted): sg_loop's work with the plan's two groups (52 .. 44 and
 * the rest: sg_group[52] == 9) unrolled with their products as constants, the digits of a
 * group by chains of three multiplies started from x * (the product of the bounds before
 * the chain), all computed before the swaps; the swaps lazy (position t is never read
 * again, so only deck[j] is written); and the four hands' values packed in one word rotated
 * by the head card, so that each hand's row of the histograms is a constant. Returns -2
 * when the plan is not that (the caller then runs sg_loop). */
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

SG_ALWAYS_INLINE int64_t sg_online(uint64_t (*next)(void *), void *rng, const sg_table *t, const sg_plan *p,
                                   sg_counts *c, int64_t rounds, const int burned, const int compact) {
    const int count = 12 + burned;
    const uint64_t p1 = burned ? SG_OQ12 * 40 : SG_OQ12; /* the second group: 43 .. 40, or 43 .. 41 */
    if (p->group[1] != 2 || p->begin[1] != count || p->size[0] != SG_ONLINE_FIRST || p->product[0] != SG_OP0
        || p->product[1] != p1)
        return -2;
    const uint16_t *state = compact ? c->state : t->state, *value = t->value;
    const uint8_t *value8 = compact ? c->value : NULL;
    const uint64_t *entry = t->entry;
    const uint8_t *stop = t->stop;
    uint64_t *s0 = t->single, *s1 = s0 + t->single_len, *s2 = s1 + t->single_len, *s3 = s2 + t->single_len;
    uint64_t *a1 = t->pairs + t->pair_len, *a2 = a1 + t->pair_len, *a3 = a2 + t->pair_len;
    uint16_t *cs = compact ? c->single : NULL, *ca = compact ? c->pairs : NULL;
    uint8_t deck[64];
    int64_t done = 0;
    for (; done < rounds; done++) {
        if ((done & (SG_STOP_EVERY - 1)) == 0) {
            if (stop[0])
                break;
            if (compact && (done & (SG_FLUSH_EVERY - 1)) == 0 && done)
                sg_counts_flush(c, t);
        }
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
        memcpy(deck, sg_fresh_deck, 64); /* one deck in code order: deck[i] == i */
#define SG_SWAP(k)                   \
    unsigned c##k = deck[j##k];      \
    deck[j##k] = deck[k];
        SG_SWAP(0) SG_SWAP(1) SG_SWAP(2) SG_SWAP(3) SG_SWAP(4) SG_SWAP(5) SG_SWAP(6) SG_SWAP(7) SG_SWAP(8)
        SG_SWAP(9) SG_SWAP(10) SG_SWAP(11)
        unsigned c12 = burned ? deck[j12] : 0;
#undef SG_SWAP
        unsigned first = (c0 >> 2) & 3; /* hand k is position (first + k) mod 4 */
        /* the hands' cards: c1 .. c12 when the head card is burned, else c0 .. c11 */
        unsigned h0 = burned ? c1 : c0, h1 = burned ? c2 : c1, h2 = burned ? c3 : c2, h3 = burned ? c4 : c3,
                 h4 = burned ? c5 : c4, h5 = burned ? c6 : c5, h6 = burned ? c7 : c6, h7 = burned ? c8 : c7,
                 h8 = burned ? c9 : c8, h9 = burned ? c10 : c9, h10 = burned ? c11 : c10, h11 = burned ? c12 : c11;
        uint64_t v0, v1, v2, v3;
        if (compact) {
            v0 = value8[state[h0 << 6 | h1] + h2];
            v1 = value8[state[h3 << 6 | h4] + h5];
            v2 = value8[state[h6 << 6 | h7] + h8];
            v3 = value8[state[h9 << 6 | h10] + h11];
        } else {
            v0 = value[state[h0 * 52 + h1] + h2];
            v1 = value[state[h3 * 52 + h4] + h5];
            v2 = value[state[h6 * 52 + h7] + h8];
            v3 = value[state[h9 * 52 + h10] + h11];
        }
        uint64_t packed = v0 | v1 << 16 | v2 << 32 | v3 << 48;
        unsigned shift = 16 * first; /* then position h's value is at bits 16 h */
        packed = (packed << shift) | (packed >> ((64 - shift) & 63));
        uint64_t vb = packed & 0xffff, w1 = (packed >> 16) & 0xffff, w2 = (packed >> 32) & 0xffff,
                 w3 = packed >> 48;
        if (compact) {
            uint64_t rb = vb >> 3;
            cs[vb]++;
            cs[256 + w1]++;
            cs[512 + w2]++;
            cs[768 + w3]++;
            ca[1024 + (w1 >> 3) * 32 + rb]++;
            ca[2048 + (w2 >> 3) * 32 + rb]++;
            ca[3072 + (w3 >> 3) * 32 + rb]++;
        } else {
            uint64_t b = entry[vb >> 3] + (vb & 7), e1 = entry[w1 >> 3] + (w1 & 7), e2 = entry[w2 >> 3] + (w2 & 7),
                     e3 = entry[w3 >> 3] + (w3 & 7);
            s0[SG_SINGLE_CELL(b)]++;
            s1[SG_SINGLE_CELL(e1)]++;
            s2[SG_SINGLE_CELL(e2)]++;
            s3[SG_SINGLE_CELL(e3)]++;
            a1[sg_pair_cell(e1, b, 0)]++;
            a2[sg_pair_cell(e2, b, 0)]++;
            a3[sg_pair_cell(e3, b, 0)]++;
        }
    }
    return done;
}

/* Runs up to `rounds` rounds of the table t from a fresh shoe; returns the rounds done
 * (fewer when t->stop[0] was set), or -1 when out of memory. The caller has checked t
 * (the conditions of simulate_chunk) and holds the bit generator's lock. */
static int64_t sg_simulate(uint64_t (*next)(void *), void *rng, const sg_table *t, int64_t rounds) {
    int64_t n = 52 * t->decks, done;
    sg_plan p;
    sg_counts counts, *c = &counts;
    /* the compact counts: a plain ranking of at most 32 classes (its values then < 256) */
    const int compact = !t->session && t->plain && t->n_classes <= 32;
    if (sg_plan_make(&p, t) < 0)
        return -1;
    if (compact && sg_counts_make(c, t) < 0) {
        sg_plan_free(&p);
        return -1;
    }
    uint8_t *deck = (uint8_t *)malloc((size_t)(2 * n));
    if (!deck) {
        if (compact)
            sg_counts_free(c);
        sg_plan_free(&p);
        return -1;
    }
    uint8_t *ordered = deck + n;
    for (int64_t i = 0; i < n; i++)
        ordered[i] = (uint8_t)(i % 52);
    int head = t->head != 0, burned = t->head_burned != 0, one = t->one_at_a_time != 0, counted = t->counted != 0;
    done = -2;
#define SG_LOOP(n_, hands_, fresh_, head_, burned_, one_, counted_, plain_, money_, compact_)                     \
    sg_loop(next, rng, t, &p, c, rounds, deck, ordered, n_, hands_, fresh_, t->burn_first, t->burn_later, head_, \
            burned_, one_, counted_, plain_, money_, compact_)
    if (t->session) /* session mode: the general loop, a bet slip settled every round */
        done = t->fresh ? (t->plain ? SG_LOOP(n, t->hands, 1, head, burned, one, 0, 1, 1, 0)
                                    : SG_LOOP(n, t->hands, 1, head, burned, one, counted, 0, 1, 0))
                        : (t->plain ? SG_LOOP(n, t->hands, 0, head, burned, one, 0, 1, 1, 0)
                                    : SG_LOOP(n, t->hands, 0, head, burned, one, counted, 0, 1, 0));
    else if (t->fresh && n == 52 && t->hands == 4 && t->burn_first == 0 && head && !counted)
        done = compact ? (burned ? sg_online(next, rng, t, &p, c, rounds, 1, 1) /* the online table */
                                 : sg_online(next, rng, t, &p, c, rounds, 0, 1))
                       : (burned ? sg_online(next, rng, t, &p, c, rounds, 1, 0)
                                 : sg_online(next, rng, t, &p, c, rounds, 0, 0));
    if (done != -2)
        ; /* done */
    else if (!t->fresh && n == 416 && t->hands == 8 && !head && one && !counted) /* Macau: 8 decks, 7 positions */
        done = compact && t->burn_first == 8 && t->burn_later == 1 /* the Macau preset's burns */
                   ? sg_loop(next, rng, t, &p, c, rounds, deck, ordered, 416, 8, 0, 8, 1, 0, 0, 1, 0, 1, 0, 1)
               : compact  ? SG_LOOP(416, 8, 0, 0, 0, 1, 0, 1, 0, 1)
               : t->plain ? SG_LOOP(416, 8, 0, 0, 0, 1, 0, 1, 0, 0)
                          : SG_LOOP(416, 8, 0, 0, 0, 1, 0, 0, 0, 0);
    else if (t->fresh)
        done = counted    ? SG_LOOP(n, t->hands, 1, head, burned, one, 1, 0, 0, 0)
               : compact  ? SG_LOOP(n, t->hands, 1, head, burned, one, 0, 1, 0, 1)
               : t->plain ? SG_LOOP(n, t->hands, 1, head, burned, one, 0, 1, 0, 0)
                          : SG_LOOP(n, t->hands, 1, head, burned, one, 0, 0, 0, 0);
    else
        done = counted    ? SG_LOOP(n, t->hands, 0, head, burned, one, 1, 0, 0, 0)
               : compact  ? SG_LOOP(n, t->hands, 0, head, burned, one, 0, 1, 0, 1)
               : t->plain ? SG_LOOP(n, t->hands, 0, head, burned, one, 0, 1, 0, 0)
                          : SG_LOOP(n, t->hands, 0, head, burned, one, 0, 0, 0, 0);
#undef SG_LOOP
    if (compact) {
        if (done >= 0)
            sg_counts_flush(c, t);
        sg_counts_free(c);
    }
    free(deck);
    sg_plan_free(&p);
    return done;
}
#endif
