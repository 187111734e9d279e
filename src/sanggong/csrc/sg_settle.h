/* A settlement plan as the kernels read it (sanggong.settlement.SettlementPlan, checked and
 * viewed by _core's settlement view): every bet's outcome is one lookup,
 *
 *     outcome_codes[row[j] * key_space + key],  key = ka * class_h + kb * pair_plus_h
 *                                                     + kc * class_banker + kd * (order + 1)
 *
 * where h = hand[j] is the bet's hand (0 the banker) and order is 1, 0 or -1 as that hand
 * beats, ties or loses to the banker's (the other hand of a two-hand table): no bet is
 * special in a loop. The view has checked that every key a round can form (classes below
 * n_classes, categories up to 5) stays inside its bet's row, and every hand is dealt. */
#ifndef SANGGONG_SG_SETTLE_H
#define SANGGONG_SG_SETTLE_H
#include <stdint.h>
#include "sg_common.h"

typedef struct {
    const uint8_t *outcome_codes;                  /* key_space a row */
    const int32_t *row, *hand, *ka, *kb, *kc, *kd; /* per bet */
    int64_t outcome_codes_len, bets, key_space, n_classes;
} sg_settlement;

/* A bet's key (its coefficients ka .. kd) for a round's hand and banker. In int: every key
 * is below key_space <= 2**20 (the view checks it), and int arithmetic is what the plan's
 * int32 coefficients take without widening. */
SG_ALWAYS_INLINE int sg_key(int32_t ka, int32_t kb, int32_t kc, int32_t kd, int cls, int pair_plus, int banker_cls,
                            int order) {
    return ka * cls + kb * pair_plus + kc * banker_cls + kd * (order + 1);
}

/* 1, 0 or -1 as a hand of rank a beats, ties or loses to one of rank b (ranks below 2**16).
 * In arithmetic, the signs of b - a and a - b: which way a comparison of two hands goes is
 * random, and a compiler that turned it into a branch would have it mispredicted a third of
 * the time (measured: the online table's loops 1.3 to 1.5 times slower). */
SG_ALWAYS_INLINE int sg_order(int a, int b) {
    return (int)((unsigned)(b - a) >> 31) - (int)((unsigned)(a - b) >> 31);
}

/* Bet j's outcome code: its hand's class, category and rank against the banker's. */
SG_ALWAYS_INLINE uint8_t sg_outcome(const sg_settlement s, int64_t j, int cls, int pair_plus, int rank,
                                    int banker_cls, int banker_rank) {
    return s.outcome_codes[s.row[j] * s.key_space
                           + sg_key(s.ka[j], s.kb[j], s.kc[j], s.kd[j], cls, pair_plus, banker_cls, sg_order(rank, banker_rank))];
}

#endif
