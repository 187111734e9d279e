/* The general round loop of simulate_chunk (sg_simulate.h picks it, or the online table's
 * own, sg_online.h): rounds dealt by the shoe procedure (sg_deal.h) with the draws of the
 * chunk's draws (sg_draws.h), the hands evaluated by the ranking's tables and counted into
 * the histograms (sg_counts.h), and in session mode a bet slip settled every round
 * (sg_settle.h).
 *
 * The loop takes the table as an sg_dealing and what it counts as an sg_counting, both by
 * value and always inlined: a caller that passes constants for some of their fields gets a
 * loop specialised for them (sg_simulate does so for the Macau table and for each kind of
 * counting). Its steps take what they read as arguments or locals: a store to a histogram
 * or to net through a pointer may alias any field read through another pointer, which
 * would then be reloaded after each store. */
#ifndef SANGGONG_SG_LOOP_H
#define SANGGONG_SG_LOOP_H
#include <stdint.h>
#include <string.h>
#include "sg_common.h"
#include "sg_counts.h"
#include "sg_deal.h"
#include "sg_draws.h"
#include "sg_random.h"
#include "sg_settle.h"

/* How the loop deals: the table's procedure, in the numbers sg_deal.h takes. */
typedef struct {
    int64_t n, hands;            /* cards in the box or shoe; hands, the banker's included */
    int64_t burn_first, burn_later;
    int fresh;                   /* a fresh deck every round (no cut card) */
    int head, head_burned;       /* a head card; burned */
    int one_at_a_time;           /* one card at a time round the table (no head card) */
} sg_dealing;

/* What the loop counts, and where. */
typedef struct {
    int counted; /* the order against the banker is counted (pairs width 3) */
    int plain;   /* a rid is its own class and rank (the default kind of ranking) */
    int session; /* a bet slip is settled every round (its net to t->net) */
    int compact; /* the counts go to sg_counts' compact counters (plain, at most 32 classes) */
} sg_counting;

/* The dealing of t's table, every field as it has it. */
static inline sg_dealing sg_dealing_of(const sg_chunk *t) {
    const sg_params *p = &t->table;
    const sg_dealing d = {
        .n = sg_n_cards(p), .hands = sg_hands(p), .burn_first = p->burn_first, .burn_later = p->burn_per_round,
        .fresh = p->fresh_deck != 0, .head = p->head_card != 0, .head_burned = p->head_card && p->head_card_burned,
        .one_at_a_time = p->one_at_a_time != 0,
    };
    return d;
}

/* Where a round's hands are counted, read from the chunk once. */
typedef struct {
    const uint16_t *state, *value;
    const uint64_t *entry;
    uint64_t *pairs, *single;
    int64_t pair_len, single_len, n_classes;
    const uint16_t *cstate; /* compact: c's state table (rows of 64) */
    const uint8_t *cvalue;  /* compact: c's value table */
    uint16_t *cs, *ca;      /* compact: its single and pairs counters */
} sg_tallies;

/* A hand's value (rid << 3 | pair plus) or entry (sg_hand), from its three cards at
 * rest[at], rest[at + step], rest[at + 2 step]; in session mode its value also to *raw. */
SG_ALWAYS_INLINE uint64_t sg_tally_value(const sg_tallies x, const uint8_t *rest, int64_t at, int64_t step,
                                         const sg_counting k, uint16_t *raw) {
    const uint8_t c0 = rest[at], c1 = rest[at + step], c2 = rest[at + 2 * step];
    return k.compact ? sg_compact_value(x.cstate, x.cvalue, c0, c1, c2)
                     : sg_hand(x.state, x.value, x.entry, c0, c1, c2, k.plain, k.session ? raw : NULL);
}

/* Hand h (value or entry e) counted in its row of the single histogram, and (add: 1, or 0
 * for the banker's own row) against the banker's (b) in its row of the pairs histogram. */
SG_ALWAYS_INLINE void sg_tally_hand(const sg_tallies x, int64_t h, uint64_t e, uint64_t b, uint64_t add,
                                    const sg_counting k) {
    if (k.compact) {
        x.cs[256 * h + e]++;
        x.ca[1024 * h + (e >> 3) * 32 + (b >> 3)] += add;
    } else {
        x.single[h * x.single_len + sg_single(e, k.plain)]++;
        x.pairs[h * x.pair_len + sg_pair(e, b, k.counted, k.plain, x.n_classes)] += add;
    }
}

/* A round with a head card (rest: the hands' cards, three a hand): every hand's value in
 * the order dealt from `first`, the hand the head card named; then each counted in its row
 * against the banker's. */
SG_ALWAYS_INLINE void sg_tally_named(const sg_tallies x, const uint8_t *rest, int64_t first, const sg_dealing d,
                                     const sg_counting k, uint16_t *raw) {
    uint64_t e[SG_MAX_HANDS];
    uint16_t raw_k[SG_MAX_HANDS];
    for (int64_t q = 0; q < d.hands; q++)
        e[q] = sg_tally_value(x, rest, sg_card_of(q, 0, d.hands, 0), 1, k, &raw_k[q]);
    const uint64_t b = e[sg_banker_dealt(first, d.hands)];
    for (int64_t q = 0; q < d.hands; q++) {
        const int64_t h = sg_dealt_hand(q, first, d.hands);
        if (k.session)
            raw[h] = raw_k[q];
        sg_tally_hand(x, h, e[q], b, h != 0, k); /* (row 0 is the banker's: 0 added) */
    }
}

/* A round without a head card: position 1 first and the banker last, so the banker's hand
 * (the last dealt) first, then each position's counted against it. */
SG_ALWAYS_INLINE void sg_tally_in_turn(const sg_tallies x, const uint8_t *rest, const sg_dealing d,
                                       const sg_counting k, uint16_t *raw) {
    const int one = sg_one_by_one(0, d.one_at_a_time);
    const int64_t step = one ? d.hands : 1, banker = sg_banker_dealt(1, d.hands);
    const uint64_t b = sg_tally_value(x, rest, sg_card_of(banker, 0, d.hands, one), step, k, &raw[0]);
    if (k.compact)
        x.cs[b]++;
    else
        x.single[sg_single(b, k.plain)]++;
    for (int64_t q = 0; q < banker; q++) {
        const int64_t h = sg_dealt_hand(q, 1, d.hands);
        const uint64_t e = sg_tally_value(x, rest, sg_card_of(q, 0, d.hands, one), step, k, &raw[h]);
        sg_tally_hand(x, h, e, b, 1, k);
    }
}

/* The bet slip's net for a round whose hands have the values raw[0 .. hands - 1]. */
SG_ALWAYS_INLINE int64_t sg_slip_net(const sg_settlement plan, const int64_t *money, int64_t money_row,
                                     const uint16_t *rank_of, const uint8_t *cls_of, const uint16_t *raw,
                                     int64_t hands, const int plain) {
    int64_t rank[SG_MAX_HANDS], cls[SG_MAX_HANDS], pp[SG_MAX_HANDS]; /* (int64: as ints, measured 1.2 times slower) */
    for (int64_t h = 0; h < hands; h++) {
        rank[h] = plain ? raw[h] >> 3 : rank_of[raw[h] >> 3];
        cls[h] = plain ? raw[h] >> 3 : cls_of[raw[h] >> 3];
        pp[h] = raw[h] & 7;
    }
    int64_t total = 0;
    for (int64_t j = 0; j < plan.bets; j++) {
        const int64_t h = plan.hand[j];
        total += money[j * money_row + sg_outcome(plan, j, cls[h], pp[h], rank[h], cls[0], rank[0])];
    }
    return total;
}

/* Up to `rounds` rounds of the chunk t dealt as d says and counted as k says, by the draws
 * p (the compact counters c where k.compact); deck holds d.n cards, ordered the box in code
 * order. Returns the rounds done (fewer when t->stop[0] was set). */
SG_ALWAYS_INLINE int64_t sg_loop(uint64_t (*next)(void *), void *rng, const sg_chunk *t, const sg_draws *p,
                                 sg_counts *c, int64_t rounds, uint8_t *deck, const uint8_t *ordered,
                                 const sg_dealing d, const sg_counting k) {
    const sg_tallies x = {
        .state = t->state, .value = t->value, .entry = t->entry, .pairs = t->pairs, .single = t->single,
        .pair_len = t->pair_len, .single_len = t->single_len, .n_classes = t->n_classes,
        .cstate = k.compact ? c->state : NULL, .cvalue = k.compact ? c->value : NULL,
        .cs = k.compact ? c->single : NULL, .ca = k.compact ? c->pairs : NULL,
    };
    const sg_settlement plan = t->plan;
    const int64_t *money = t->money, money_row = t->money_row;
    int64_t *net = t->net;
    const uint16_t *rank_of = t->rank;
    const uint8_t *cls_of = t->cls, *stop = t->stop;
    const int64_t cut_low = t->table.cut_low, cut_high = t->table.cut_high;
    const int64_t *begin_at = p->begin, *group_at = p->group;
    const uint64_t *product = p->product;
    const uint8_t *size_of = p->size;
    int64_t picked[SG_MAX_ROUND_CARDS]; /* a fresh deck: where each card was taken from */
    uint16_t raw[SG_MAX_HANDS];         /* session mode: position h's value */
    int64_t first_of[4];                /* the hand a head card of each count names */
    for (int64_t q = 0; q < 4; q++)
        first_of[q] = sg_named_hand((uint8_t)(4 * q), d.hands);
    int64_t done = 0, r = 0, cut = 0;
    int last = 1;
    memcpy(deck, ordered, (size_t)d.n);
    while (done < rounds) {
        if ((done & (SG_STOP_EVERY - 1)) == 0) {
            if (stop[0])
                break;
            if (k.compact && (done & (SG_FLUSH_EVERY - 1)) == 0 && done)
                sg_counts_flush(c, t);
        }
        if (!d.fresh && last) { /* shuffle: cards back in code order, the cut card placed */
            memcpy(deck, ordered, (size_t)d.n);
            cut = sg_cut_card(next, rng, d.n, cut_low, cut_high);
            r = 0;
            last = 0;
        }
        const int64_t begin = d.fresh ? 0 : begin_at[r];
        const int64_t burn = sg_burn(d.fresh ? 0 : r, d.burn_first, d.burn_later);
        const int64_t count = sg_round_cards(burn, d.head && d.head_burned, d.hands);
        const int64_t g0 = d.fresh ? 0 : group_at[r], groups = (d.fresh ? group_at[1] : group_at[r + 1]) - g0;
        sg_draws_deal(next, rng, deck, d.n, begin, g0, groups, product, size_of, d.fresh ? picked : NULL);
        if (!d.fresh) {
            last = sg_takes_cut(begin, count, cut);
            r++;
        }
        const uint8_t *rest = deck + begin + burn; /* the head card, then the hands' cards */
        if (d.head) {
            const int64_t first = first_of[sg_head_count(rest[0])];
            sg_tally_named(x, rest + (d.head_burned ? 1 : 0), first, d, k, raw);
        } else {
            sg_tally_in_turn(x, rest, d, k, raw);
        }
        if (d.fresh) /* the deck in code order again, for the next round */
            sg_reset(deck, ordered, d.n, count, picked);
        if (k.session)
            net[done] = sg_slip_net(plan, money, money_row, rank_of, cls_of, raw, d.hands, k.plain);
        done++;
    }
    return done;
}

#endif
