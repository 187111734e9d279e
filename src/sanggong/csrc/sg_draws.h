/* The draws of simulate_chunk's round loops (sg_loop.h): every round of a shoe starts at
 * the same position from shoe to shoe (and a fresh deck's round at 0), so the groups of
 * bounds sg_draw would take, their sizes and products, are known before the first round
 * (sg_draws_make); a group's word is drawn (sg_group_word) and its cards swapped into place
 * by one chain of multiplies (sg_group_cards), the same draws as sg_draw's. */
#ifndef SANGGONG_SG_DRAWS_H
#define SANGGONG_SG_DRAWS_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sg_common.h"
#include "sg_deal.h"
#include "sg_random.h"

/* One word for a group of bounds of product P, redrawn while Lemire's rejection says so:
 * the word x is kept when x * P mod 2**64 >= 2**64 mod P (as sg_draw). */
SG_ALWAYS_INLINE uint64_t sg_group_word(uint64_t (*next)(void *), void *state, uint64_t product) {
    for (;;) {
        uint64_t x = next(state);
        uint64_t low = x * product;
        if (SG_LIKELY(low >= product || low >= (0 - product) % product)) /* (a redraw: once in 2**12 words at most) */
            return x;
    }
}

/* The draws of the rounds of a shoe (one round for a fresh deck): round r takes the
 * cards at positions begin[r] .. begin[r + 1] - 1, in the groups group[r] ..
 * group[r + 1] - 1 of products product[] and sizes size[] (at most 17 cards: 17! <= 2**52
 * < 18!). */
#define SG_MAX_GROUP_CARDS 17
typedef struct {
    int64_t rounds;
    int64_t *begin, *group;
    uint64_t *product;
    uint8_t *size;
} sg_draws;

static void sg_draws_free(sg_draws *p) {
    free(p->begin);
    free(p->group);
    free(p->product);
    free(p->size);
}

/* The draws of every round a shoe can deal: those starting at or before the last place the
 * cut card can be (a round starting after it would follow a round that took the cut card).
 * Returns 0, or -1 when out of memory. */
static int sg_draws_make(sg_draws *p, const sg_params *t) {
    const int64_t n = sg_n_cards(t), hands = sg_hands(t);
    const int head_burned = t->head_card && t->head_card_burned;
    const int64_t last_start = t->fresh_deck ? 0 : sg_cut_latest(n, t->cut_low);
    memset(p, 0, sizeof(*p));
    p->begin = (int64_t *)malloc((size_t)(n + 2) * sizeof(int64_t));
    p->group = (int64_t *)malloc((size_t)(n + 2) * sizeof(int64_t));
    p->product = (uint64_t *)malloc((size_t)n * sizeof(uint64_t));
    p->size = (uint8_t *)malloc((size_t)n);
    if (!p->begin || !p->group || !p->product || !p->size) {
        sg_draws_free(p);
        return -1;
    }
    int64_t pos = 0, g = 0, r = 0;
    while (r == 0 || pos <= last_start) {
        int64_t end = pos + sg_round_cards(sg_burn(r, t->burn_first, t->burn_per_round), head_burned, hands);
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

SG_ALWAYS_INLINE void sg_group_cards(uint64_t low, uint8_t *e, uint64_t end, int64_t size, int64_t *picked,
                                     int64_t at) {
    switch (size) {
        SG_CARD(17) SG_CARD(16) SG_CARD(15) SG_CARD(14) SG_CARD(13) SG_CARD(12) SG_CARD(11) SG_CARD(10)
        SG_CARD(9) SG_CARD(8) SG_CARD(7) SG_CARD(6) SG_CARD(5) SG_CARD(4) SG_CARD(3) SG_CARD(2) SG_CARD(1)
        default:;
    }
}
#undef SG_CARD

/* A round's cards by the draws: groups g0 .. g0 + groups - 1, from deck[begin] on, each word
 * drawn just before its cards (drawn all first, the groups' chains ran side by side and a
 * load of the deck could run ahead of a store to the same card, which costs the processor a
 * flush: measured, a third slower). With picked, where each card was taken from. */
SG_ALWAYS_INLINE void sg_draws_deal(uint64_t (*next)(void *), void *rng, uint8_t *deck, int64_t n, int64_t begin,
                                   int64_t g0, int64_t groups, const uint64_t *product, const uint8_t *size_of,
                                   int64_t *picked) {
    for (int64_t g = 0, i = begin; g < groups; g++) {
        const int64_t size = size_of[g0 + g];
        uint64_t low = sg_group_word(next, rng, product[g0 + g]);
        sg_group_cards(low, deck + i + size, (uint64_t)(n - i - size), size, picked ? picked + (i - begin) + size : NULL,
                       i + size);
        i += size;
    }
}

#endif
