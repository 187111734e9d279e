/* The round loop of simulate_chunk (sanggong._core): rounds dealt exactly as sg_draw deals
 * them (the same draws of the bit generator, in the same order), evaluated by the ranking's
 * tables and counted into the histograms, and in session mode a bet slip settled every
 * round. The twin is _reference.simulate_chunk; tests/test_rounds.py and
 * tests/test_simulation.py check them equal for many shapes and every preset's ranking.
 *
 * What makes it fast (benchmarks/yardstick.c is the best plain-C loop for the two common
 * tables; benchmarks/report.py times this loop against it):
 * - the draw plan is made once per chunk: every round of a shoe starts at the same
 *   position from shoe to shoe (and a fresh deck's round at 0), so the groups of bounds
 *   sg_draw would take, their products and, card by card, the product of the bounds
 *   before it in its group are known before the first round (sg_plan);
 * - a card's digit of its group's word is computed on its own: digit t of x is the high
 *   half of (x * q_t mod 2**64) * bound_t, q_t the product of the bounds before it in its
 *   group, the same number as sg_draw's chain of multiplies; all the digits of a round
 *   are computed before its swaps, which leaves the swaps as the only chain;
 * - a hand's counts come from its value: computed from it for the default ranking (a rid
 *   is its own class and rank), else from one 64-bit entry per rid (sg_entry: its cell in
 *   the single histogram, its class's offsets in the pairs histogram as hand and as
 *   banker, its rank), built once per chunk;
 * - the dealing options are parameters of one always-inlined loop (sg_loop), which the
 *   dispatch (sg_simulate) instantiates with constants for the Macau table (an 8-deck shoe
 *   dealt one card at a time to 8 hands) and with run-time values for every other table;
 *   the online table (a fresh deck, a head card, 4 hands) has a loop of its own
 *   (sg_online) with the four hands' values in one register. */
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

/* high 64 bits of a * b */
SG_ALWAYS_INLINE uint64_t sg_mulhi(uint64_t a, uint64_t b) {
    uint64_t lo;
    return sg_mul128(a, b, &lo);
}

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
 * group[r + 1] - 1 of products product[]; the card at position i takes the word of its
 * round's group word[i] and its digit with q[i]. */
typedef struct {
    int64_t rounds;
    int64_t *begin, *group;
    uint64_t *product, *q;
    uint8_t *word;
} sg_plan;

static void sg_plan_free(sg_plan *p) {
    free(p->begin);
    free(p->group);
    free(p->product);
    free(p->q);
    free(p->word);
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
    p->q = (uint64_t *)malloc((size_t)n * sizeof(uint64_t));
    p->word = (uint8_t *)malloc((size_t)n);
    if (!p->begin || !p->group || !p->product || !p->q || !p->word) {
        sg_plan_free(p);
        return -1;
    }
    int64_t pos = 0, g = 0, r = 0;
    while (r == 0 || pos <= last_start) {
        int64_t end = pos + (r == 0 ? t->burn_first + head_card + 3 * t->hands : later);
        p->begin[r] = pos;
        p->group[r] = g;
        for (int64_t i = pos, w = 0; i < end; w++) {
            int64_t size = sg_group[n - i];
            if (size > end - i)
                size = end - i;
            uint64_t q = 1;
            for (int64_t k = 0; k < size; k++, i++) {
                p->q[i] = q;
                p->word[i] = (uint8_t)w;
                q *= (uint64_t)(n - i);
            }
            p->product[g++] = q;
        }
        pos = end;
        r++;
    }
    p->begin[r] = pos;
    p->group[r] = g;
    p->rounds = r;
    return 0;
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

/* The loop, for the table t and its plan; the other parameters are t's own values, given
 * again so that a caller can make them constants (then the compiler specialises). */
SG_ALWAYS_INLINE int64_t sg_loop(uint64_t (*next)(void *), void *rng, const sg_table *t, const sg_plan *p,
                                 int64_t rounds, uint8_t *deck, const uint8_t *ordered, const int64_t n,
                                 const int64_t hands, const int fresh, const int64_t burn_first,
                                 const int64_t burn_later, const int head, const int head_burned,
                                 const int one_at_a_time, const int counted, const int plain,
                                 const int with_money) {
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
    const uint8_t *stop = t->stop;
    const int64_t cut_lo = t->cut_lo, cut_hi = t->cut_hi;
    const int64_t *begin_at = p->begin, *group_at = p->group;
    const uint64_t *product = p->product, *q = p->q;
    const uint8_t *word = p->word;
    uint8_t cards[SG_MAX_ROUND_CARDS];
    int64_t jj[SG_MAX_ROUND_CARDS];
    uint64_t x[SG_MAX_ROUND_CARDS];
    uint64_t e[17];
    /* (rank - 1) mod 4 of the head card, taken mod hands: the first hand */
    int64_t first_of[4];
    for (int64_t k = 0; k < 4; k++)
        first_of[k] = k % hands;
    int64_t done = 0, r = 0, cut = 0;
    int last = 1;
    memcpy(deck, ordered, (size_t)n);
    while (done < rounds) {
        if ((done & (SG_STOP_EVERY - 1)) == 0 && stop[0])
            break;
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
        for (int64_t g = 0; g < groups; g++)
            x[g] = sg_group_word(next, rng, product[g0 + g]);
        for (int64_t k = 0; k < count; k++) {
            int64_t i = begin + k;
            jj[k] = i + (int64_t)sg_mulhi(x[word[i]] * q[i], (uint64_t)(n - i));
        }
        for (int64_t k = 0; k < count; k++) {
            int64_t i = begin + k, j = jj[k];
            uint8_t card = deck[j];
            deck[j] = deck[i];
            deck[i] = card;
            cards[k] = card;
        }
        if (fresh) { /* the deck in code order again, for the next round (as sg_reset) */
            if (n == 52 || 4 * count > n) {
                memcpy(deck, ordered, (size_t)n);
            } else {
                for (int64_t k = 0; k < count; k++) {
                    deck[k] = ordered[k];
                    deck[jj[k]] = ordered[jj[k]];
                }
            }
        } else {
            last = begin <= cut && cut < begin + count;
            r++;
        }
        const uint8_t *rest = cards + burn;
        if (head) { /* the head card names the first hand; three cards a hand */
            int64_t first = first_of[(rest[0] >> 2) & 3];
            if (head_burned)
                rest++;
            for (int64_t k = 0; k < hands; k++)
                e[k] = sg_hand(state, value, entry, rest[3 * k], rest[3 * k + 1], rest[3 * k + 2], plain,
                              with_money ? &raw_k[k] : NULL);
            uint64_t b = e[first ? hands - first : 0]; /* hand k is position (first + k) mod hands */
            for (int64_t k = 0; k < hands; k++) {
                int64_t h = first + k;
                h = h >= hands ? h - hands : h;
                if (with_money)
                    raw[h] = raw_k[k];
                single[h * single_len + sg_single(e[k], plain)]++;
                pairs[h * pair_len + sg_pair(e[k], b, counted, plain, n_classes)] += h != 0; /* (row 0 is the banker's: 0 added) */
            }
        } else { /* position k + 1, the banker (0) last */
            uint64_t b = one_at_a_time
                ? sg_hand(state, value, entry, rest[hands - 1], rest[2 * hands - 1], rest[3 * hands - 1], plain,
                          with_money ? &raw[0] : NULL)
                : sg_hand(state, value, entry, rest[3 * hands - 3], rest[3 * hands - 2], rest[3 * hands - 1], plain,
                          with_money ? &raw[0] : NULL);
            single[sg_single(b, plain)]++;
            for (int64_t k = 0; k + 1 < hands; k++) {
                uint64_t h = one_at_a_time
                    ? sg_hand(state, value, entry, rest[k], rest[k + hands], rest[k + 2 * hands], plain,
                              with_money ? &raw[k + 1] : NULL)
                    : sg_hand(state, value, entry, rest[3 * k], rest[3 * k + 1], rest[3 * k + 2], plain,
                              with_money ? &raw[k + 1] : NULL);
                single[(k + 1) * single_len + sg_single(h, plain)]++;
                pairs[(k + 1) * pair_len + sg_pair(h, b, counted, plain, n_classes)]++;
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
 * the rest: sg_group[52] == 9) in registers, and the four hands' values packed in one
 * word rotated by the head card, so that each hand's row of the histograms is a
 * constant. Returns -2 when the plan is not that (the caller then runs sg_loop). */
#define SG_ONLINE_FIRST 9
SG_ALWAYS_INLINE int64_t sg_online(uint64_t (*next)(void *), void *rng, const sg_table *t, const sg_plan *p,
                                   int64_t rounds, const uint8_t *ordered, const int burned) {
    enum { N = 12 + 1 }; /* at most 13 cards, 12 when the head card is dealt */
    const int count = 12 + burned;
    if (p->group[1] != 2 || p->begin[1] != count)
        return -2;
    for (int i = 0; i < count; i++)
        if (p->word[i] != (i >= SG_ONLINE_FIRST))
            return -2;
    const uint16_t *state = t->state, *value = t->value;
    const uint64_t *entry = t->entry;
    const uint8_t *stop = t->stop;
    uint64_t *s0 = t->single, *s1 = s0 + t->single_len, *s2 = s1 + t->single_len, *s3 = s2 + t->single_len;
    uint64_t *a1 = t->pairs + t->pair_len, *a2 = a1 + t->pair_len, *a3 = a2 + t->pair_len;
    uint64_t q[N];
    memcpy(q, p->q, sizeof(uint64_t) * (size_t)count);
    const uint64_t p0 = p->product[0], p1 = p->product[1];
    uint8_t deck[64], c[16];
    int64_t jj[N];
    int64_t done = 0;
    for (; done < rounds; done++) {
        if ((done & (SG_STOP_EVERY - 1)) == 0 && stop[0])
            break;
        memcpy(deck, ordered, 52);
        uint64_t x0 = sg_group_word(next, rng, p0), x1 = sg_group_word(next, rng, p1);
        for (int k = 0; k < SG_ONLINE_FIRST; k++)
            jj[k] = k + (int64_t)sg_mulhi(x0 * q[k], (uint64_t)(52 - k));
        for (int k = SG_ONLINE_FIRST; k < count; k++)
            jj[k] = k + (int64_t)sg_mulhi(x1 * q[k], (uint64_t)(52 - k));
        for (int k = 0; k < count; k++) {
            int64_t j = jj[k];
            uint8_t card = deck[j];
            deck[j] = deck[k];
            deck[k] = card;
            c[k] = card;
        }
        unsigned first = (c[0] >> 2) & 3; /* hand k is position (first + k) mod 4 */
        const uint8_t *h = c + burned;
        uint64_t v0 = value[state[h[0] * 52 + h[1]] + h[2]];
        uint64_t v1 = value[state[h[3] * 52 + h[4]] + h[5]];
        uint64_t v2 = value[state[h[6] * 52 + h[7]] + h[8]];
        uint64_t v3 = value[state[h[9] * 52 + h[10]] + h[11]];
        uint64_t packed = v0 | v1 << 16 | v2 << 32 | v3 << 48;
        unsigned shift = 16 * first; /* then position h's value is at bits 16 h */
        packed = (packed << shift) | (packed >> ((64 - shift) & 63));
        uint64_t vb = packed & 0xffff, w1 = (packed >> 16) & 0xffff, w2 = (packed >> 32) & 0xffff,
                 w3 = packed >> 48;
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
    return done;
}

/* Runs up to `rounds` rounds of the table t from a fresh shoe; returns the rounds done
 * (fewer when t->stop[0] was set), or -1 when out of memory. The caller has checked t
 * (the conditions of simulate_chunk) and holds the bit generator's lock. */
static int64_t sg_simulate(uint64_t (*next)(void *), void *rng, const sg_table *t, int64_t rounds) {
    int64_t n = 52 * t->decks, done;
    sg_plan p;
    if (sg_plan_make(&p, t) < 0)
        return -1;
    uint8_t *deck = (uint8_t *)malloc((size_t)(2 * n));
    if (!deck) {
        sg_plan_free(&p);
        return -1;
    }
    uint8_t *ordered = deck + n;
    for (int64_t i = 0; i < n; i++)
        ordered[i] = (uint8_t)(i % 52);
    int head = t->head != 0, burned = t->head_burned != 0, one = t->one_at_a_time != 0, counted = t->counted != 0;
    done = -2;
#define SG_LOOP(n_, hands_, fresh_, head_, burned_, one_, counted_, plain_, money_)                          \
    sg_loop(next, rng, t, &p, rounds, deck, ordered, n_, hands_, fresh_, t->burn_first, t->burn_later, head_, \
            burned_, one_, counted_, plain_, money_)
    if (t->session) /* session mode: the general loop, a bet slip settled every round */
        done = t->fresh ? (t->plain ? SG_LOOP(n, t->hands, 1, head, burned, one, 0, 1, 1)
                                    : SG_LOOP(n, t->hands, 1, head, burned, one, counted, 0, 1))
                        : (t->plain ? SG_LOOP(n, t->hands, 0, head, burned, one, 0, 1, 1)
                                    : SG_LOOP(n, t->hands, 0, head, burned, one, counted, 0, 1));
    else if (t->fresh && n == 52 && t->hands == 4 && t->burn_first == 0 && head && !counted)
        done = burned ? sg_online(next, rng, t, &p, rounds, ordered, 1) /* the online table */
                      : sg_online(next, rng, t, &p, rounds, ordered, 0);
    if (done != -2)
        ; /* done */
    else if (!t->fresh && n == 416 && t->hands == 8 && !head && one && !counted) /* Macau: 8 decks, 7 positions */
        done = t->plain && t->burn_first == 8 && t->burn_later == 1 /* the Macau preset's burns */
                   ? sg_loop(next, rng, t, &p, rounds, deck, ordered, 416, 8, 0, 8, 1, 0, 0, 1, 0, 1, 0)
               : t->plain ? SG_LOOP(416, 8, 0, 0, 0, 1, 0, 1, 0)
                          : SG_LOOP(416, 8, 0, 0, 0, 1, 0, 0, 0);
    else if (t->fresh)
        done = counted    ? SG_LOOP(n, t->hands, 1, head, burned, one, 1, 0, 0)
               : t->plain ? SG_LOOP(n, t->hands, 1, head, burned, one, 0, 1, 0)
                          : SG_LOOP(n, t->hands, 1, head, burned, one, 0, 0, 0);
    else
        done = counted    ? SG_LOOP(n, t->hands, 0, head, burned, one, 1, 0, 0)
               : t->plain ? SG_LOOP(n, t->hands, 0, head, burned, one, 0, 1, 0)
                          : SG_LOOP(n, t->hands, 0, head, burned, one, 0, 0, 0);
#undef SG_LOOP
    free(deck);
    sg_plan_free(&p);
    return done;
}
#endif
