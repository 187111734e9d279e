/* The shoe procedure: how a table's rounds are dealt, written once for every kernel of the
 * core (deal_chunk and the C-level shoe_deal, simulate_chunk's round loops, play_chunk). Its
 * twin is sanggong._spec.procedure (the game's specification); sanggong.dealing.Game deals the same way,
 * and the tests hold each kernel to the reference card for card.
 *
 * A table (sg_params, sg_table.h) deals from a box of `decks` decks. A shuffle puts the
 * cards back in code order; they are then drawn by lazy Fisher-Yates (sg_draw, sg_random.h),
 * only as many as the rounds take, which is the same as drawing from a shuffled box.
 * - A fresh-deck table shuffles before every round and has no cut card. A shoe is shuffled,
 *   and its cut card placed cut_low .. cut_high cards from its end by one bounded draw
 *   (sg_cut_card); the round that takes the card at that place is the shoe's last
 *   (sg_takes_cut), and the shoe is shuffled again before the next round.
 * - A round takes, in order: its burns (burn_first in the first round after a shuffle, every
 *   round of a fresh deck; burn_per_round in the later ones: sg_burn), the head card where
 *   the table turns one up (burned, or the first card of the hand it names), and three cards
 *   a hand (sg_round_cards).
 * - With a head card the hands are dealt from the one it names ((rank - 1) mod 4, counting
 *   round the cycle banker, 1, 2, ...: sg_named_hand), three cards to each in turn; without,
 *   position 1 first and the banker last, one card at a time round the table or three at
 *   once (sg_first_dealt, sg_dealt_hand, sg_card_of).
 * - A table can be dealt when its first round after a shuffle fits the box and, for a shoe,
 *   a later round fits before the cut card at its earliest place (sg_dealable): RuleSet's
 *   conditions, which every kernel checks again.
 * Everything here is inline and takes its table's numbers as arguments, so that a loop
 * specialised for a table (constants in place of them) compiles to straight-line code. */
#ifndef SANGGONG_SG_DEAL_H
#define SANGGONG_SG_DEAL_H
#include <stdint.h>
#include <string.h>
#include "sg_common.h"
#include "sg_limits.h"
#include "sg_random.h"
#include "sg_table.h"

/* A table's hands (the banker's and one a position) and the cards of its box or shoe. */
SG_ALWAYS_INLINE int64_t sg_hands(const sg_params *p) {
    return p->positions + 1;
}

SG_ALWAYS_INLINE int64_t sg_n_cards(const sg_params *p) {
    return 52 * p->decks;
}

/* The cards burned before a round: burn_first in the first round after a shuffle
 * (in_shoe, the rounds dealt since it, is 0; a fresh deck's every round), else burn_later. */
SG_ALWAYS_INLINE int64_t sg_burn(int64_t in_shoe, int64_t burn_first, int64_t burn_later) {
    return in_shoe == 0 ? burn_first : burn_later;
}

/* The cards a round takes: its burns, a burned head card, three a hand. */
SG_ALWAYS_INLINE int64_t sg_round_cards(int64_t burn, int head_burned, int64_t hands) {
    return burn + (head_burned ? 1 : 0) + 3 * hands;
}

/* At a shuffle of an n-card shoe: the cut card placed low .. high cards from the end, by one
 * bounded draw; returns the cards before it (the card at that index is the first behind it). */
SG_ALWAYS_INLINE int64_t sg_cut_card(uint64_t (*next)(void *), void *state, int64_t n, int64_t low, int64_t high) {
    return n - (low + (int64_t)sg_bounded(next, state, (uint64_t)(high - low + 1)));
}

/* The latest index the cut card can be at (sg_cut_card's largest answer): a round starting
 * after it can only follow the shoe's last round. */
SG_ALWAYS_INLINE int64_t sg_cut_latest(int64_t n, int64_t low) {
    return n - low;
}

/* Whether the round that took the cards start .. start + count - 1 took the one at the cut
 * card's place: then it was the shoe's last. */
SG_ALWAYS_INLINE int sg_takes_cut(int64_t start, int64_t count, int64_t cut) {
    return start <= cut && cut < start + count;
}

/* h mod hands, for 0 <= h < 2 hands: a hand's place round the cycle (a conditional move: where
 * it wraps is random, a branch would miss). */
SG_ALWAYS_INLINE int64_t sg_cycle(int64_t h, int64_t hands) {
    return h >= hands ? h - hands : h;
}

/* The head card's count: (rank - 1) mod 4 (code = 4 (rank - 1) + suit). */
SG_ALWAYS_INLINE int64_t sg_head_count(uint8_t head) {
    return (head >> 2) & 3;
}

/* The hand a head card names, 0 the banker: its count round the cycle of `hands` hands
 * (fewer than four hands: the count passes the banker again). */
SG_ALWAYS_INLINE int64_t sg_named_hand(uint8_t head, int64_t hands) {
    int64_t h = sg_head_count(head);
    while (h >= hands)
        h -= hands;
    return h;
}

/* The hand dealt first: the one the head card names, else position 1. */
SG_ALWAYS_INLINE int64_t sg_first_dealt(int head, uint8_t head_code, int64_t hands) {
    return head ? sg_named_hand(head_code, hands) : 1;
}

/* The k-th hand dealt (k = 0 .. hands - 1), round the cycle from the first: 0 the banker, p
 * position p. */
SG_ALWAYS_INLINE int64_t sg_dealt_hand(int64_t k, int64_t first, int64_t hands) {
    return sg_cycle(first + k, hands);
}

/* The hand dealt after hand h (sg_dealt_hand of the next k). */
SG_ALWAYS_INLINE int64_t sg_next_hand(int64_t h, int64_t hands) {
    return h + 1 < hands ? h + 1 : 0;
}

/* The k at which the banker's hand is dealt. */
SG_ALWAYS_INLINE int64_t sg_banker_dealt(int64_t first, int64_t hands) {
    return first ? hands - first : 0;
}

/* Whether the cards go one at a time round the table: where the table says so and turns up
 * no head card (a head card's hands take three at once). */
SG_ALWAYS_INLINE int sg_one_by_one(int head, int one_at_a_time) {
    return !head && one_at_a_time;
}

/* Where card j (0..2) of the k-th hand dealt lies among the hands' cards (the round's cards
 * after the burns and a burned head card). */
SG_ALWAYS_INLINE int64_t sg_card_of(int64_t k, int64_t j, int64_t hands, int one_by_one) {
    return one_by_one ? k + j * hands : 3 * k + j;
}

/* The next round of a shoe (not a fresh deck's), for the kernels that deal round by round:
 * after the shoe's last round (*last) a shuffle, the deck back in code order (ordered) and
 * the cut card placed, *number counting the shoes; then the round's cards drawn from *pos
 * on into cards[0 .. sg_round_cards - 1], *in_shoe counting its rounds and *last set when
 * it took the cut card. Returns the cards it burns (sg_burn). The state is in the caller's
 * variables: a caller that keeps them in locals keeps them out of memory. */
SG_ALWAYS_INLINE int64_t sg_shoe_round(uint64_t (*next)(void *), void *rng, uint8_t *deck, const uint8_t *ordered,
                                       int64_t n, int64_t hands, int64_t burn_first, int64_t burn_later,
                                       int head_burned, int64_t cut_low, int64_t cut_high, int64_t *pos,
                                       int64_t *cut, int64_t *in_shoe, int64_t *number, int *last, uint8_t *cards) {
    if (*last) {
        memcpy(deck, ordered, (size_t)n);
        *pos = 0;
        *in_shoe = 0;
        *number += 1;
        *cut = sg_cut_card(next, rng, n, cut_low, cut_high);
    }
    const int64_t burn = sg_burn(*in_shoe, burn_first, burn_later), start = *pos;
    const int64_t count = sg_round_cards(burn, head_burned, hands);
    sg_draw(next, rng, deck, n, start, count, cards, NULL);
    *pos = start + count;
    *in_shoe += 1;
    *last = sg_takes_cut(start, count, *cut);
    return burn;
}

/* sg_dealable's answers */
#define SG_DEALABLE 0
#define SG_NOT_A_TABLE 1   /* a number out of range, or a first round the box cannot hold */
#define SG_CUT_TOO_EARLY 2 /* a later round may need more cards than the cut card leaves */

/* Whether the table p describes can be dealt: SG_DEALABLE, or why not. Each bound is
 * checked before a sum uses it, so that no arithmetic here can overflow. */
static inline int sg_dealable(const sg_params *p) {
    const int head_burned = p->head_card && p->head_card_burned;
    if (!(1 <= p->decks && p->decks <= SG_MAX_DECKS && 1 <= p->positions && p->positions <= SG_MAX_POSITIONS
          && 0 <= p->burn_first && p->burn_first <= SG_MAX_BURN && 0 <= p->burn_per_round
          && p->burn_per_round <= SG_MAX_BURN))
        return SG_NOT_A_TABLE;
    const int64_t n = sg_n_cards(p), hands = sg_hands(p);
    if (sg_round_cards(p->burn_first, head_burned, hands) > n)
        return SG_NOT_A_TABLE;
    if (p->fresh_deck)
        return SG_DEALABLE;
    if (!(1 <= p->cut_low && p->cut_low <= p->cut_high && p->cut_high < n))
        return SG_NOT_A_TABLE;
    return sg_round_cards(p->burn_per_round, head_burned, hands) > p->cut_low ? SG_CUT_TOO_EARLY : SG_DEALABLE;
}

/* The hands' cards (rest: the round's cards after its burns and a burned head card) to
 * hand_cards[3 h .. 3 h + 2], hand h's in the order it received them, the hands dealt from
 * `first` round the cycle; one_by_one a constant at each call (a loop of its own each). */
SG_ALWAYS_INLINE void sg_give(const uint8_t *rest, int64_t hands, int64_t first, const int one_by_one,
                              uint8_t *hand_cards) {
    for (int64_t k = 0, h = first; k < hands; k++) {
        hand_cards[3 * h] = rest[sg_card_of(k, 0, hands, one_by_one)];
        hand_cards[3 * h + 1] = rest[sg_card_of(k, 1, hands, one_by_one)];
        hand_cards[3 * h + 2] = rest[sg_card_of(k, 2, hands, one_by_one)];
        h = sg_next_hand(h, hands);
    }
}

/* A round's cards, in the order they came out (count of them: sg_round_cards), given to the
 * hands: hands[3 h .. 3 h + 2] hand h's three cards in the order it received them, burned[0 ..
 * burn] the burned cards (a burned head card last), *head_card (unless NULL) the head card or
 * no_card where the table turns none up. Returns the cards burned. Everything it reads is in
 * its arguments: a store through uint8_t * may alias anything, and a struct's fields would
 * be reloaded after each. */
SG_ALWAYS_INLINE int64_t sg_assign(const uint8_t *cards, int64_t burn, int64_t hands, int head, int head_burned,
                                   int one_by_one, uint8_t no_card, uint8_t *hand_cards, uint8_t *burned,
                                   uint8_t *head_card) {
    const uint8_t *rest = cards + burn;
    for (int64_t k = 0; k < burn; k++)
        burned[k] = cards[k];
    const uint8_t head_code = rest[0]; /* (the first card of the hands where there is no head card) */
    if (head_card)
        *head_card = head ? head_code : no_card;
    int64_t first = 1;
    if (head) {
        first = sg_named_hand(head_code, hands);
        if (head_burned) {
            burned[burn++] = head_code;
            rest++;
        }
    }
    if (one_by_one) /* (sg_one_by_one of the table) */
        sg_give(rest, hands, first, 1, hand_cards);
    else
        sg_give(rest, hands, first, 0, hand_cards);
    return burn;
}

#endif
