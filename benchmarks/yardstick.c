/* The yardstick: the best plain-C loop we know for the two round workloads, to measure
 * the project's round loop (sanggong._core.simulate_chunk) against the machine rather than
 * against NumPy. Each function deals `rounds` rounds from a numpy BitGenerator's bitgen_t
 * and adds them to the same histograms as simulate_chunk with the default ranking:
 *     pairs[h, rid_h * n_classes + rid_banker]   (positions h = 1 .. hands - 1)
 *     single[h, 6 * rid_h + pair_plus_h]         (every hand, the banker's h = 0)
 * consuming the bit generator exactly as src/sanggong/_random.h does (lazy Fisher-Yates,
 * batched Lemire draws in the groups of sg_group, Lemire's rejection per group; the cut
 * card by sg_bounded), so the histograms must equal the project's for the same seed
 * (tests/test_yardstick.py checks it).
 *
 * Everything the project takes as a run-time value is a compile-time constant here:
 * the table's shape, the groups of a fresh deck's draw, the positions' layout. The hand
 * tables (the default ranking's two-card state table and value table, rid << 3 | pair
 * plus) are passed in. It is built at benchmark or test time by benchmarks/yardstick.py
 * with the system C compiler and loaded with ctypes. Not part of the package. */
#include <stdint.h>
#include <string.h>

typedef struct { /* numpy/random/bitgen.h */
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

#define LIMIT ((uint64_t)1 << 52)

static inline uint64_t mulhi(uint64_t a, uint64_t b) {
    return (uint64_t)(((__uint128_t)a * b) >> 64);
}

/* How many bounds b, b - 1, ... one word takes: sg_group[b] of src/sanggong/_random.h. */
static int group_size(uint64_t b) { /* as sg_init_groups */
    uint64_t product = b, size = 1;
    while (size < b && product * (b - size) <= LIMIT) {
        product *= b - size;
        size++;
    }
    return (int)size;
}

/* One word for a group, redrawn while Lemire's rejection says so (the threshold
 * 2**64 mod P only computed in the rare case x * P mod 2**64 < P). */
static inline uint64_t group_word(bitgen_t *rng, uint64_t product) {
    for (;;) {
        uint64_t x = rng->next_uint64(rng->state);
        uint64_t low = x * product;
        if (low >= product || low >= (0 - product) % product)
            return x;
    }
}

#define SINGLE(h) (single + (h) * 6 * n_classes)
#define PAIRS(h) (pairs + (h) * n_classes * n_classes)
#define SINGLE_AT(v) (6 * ((v) >> 3) + ((v) & 7))

/* The online table: one deck shuffled every round, a head card burned (its rank names the
 * first hand), then three cards to each of 4 hands in turn (banker 0, positions 1-3).
 * 13 cards: one word for the bounds 52 .. 44, one for 43 .. 40 (sg_group[52] == 9). */
#define O_FIRST 9

void yard_online(bitgen_t *rng, const uint16_t *state, const uint16_t *value, int64_t n_classes,
                 int64_t rounds, uint64_t *pairs, uint64_t *single) {
    static const uint8_t fresh[52] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17,
        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
        36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51};
    if (group_size(52) != O_FIRST)
        return;
    uint64_t q[14]; /* q[t]: the product of the bounds before t in its group */
    q[0] = 1;
    for (int t = 1; t <= O_FIRST; t++)
        q[t] = q[t - 1] * (uint64_t)(53 - t);
    q[O_FIRST] = 1;
    for (int t = O_FIRST + 1; t <= 13; t++)
        q[t] = q[t - 1] * (uint64_t)(53 - t);
    uint64_t p0 = q[O_FIRST - 1] * (52 - O_FIRST + 1), p1 = q[13];
    uint8_t deck[64];
    uint8_t c[16];
    uint64_t *s0 = single, *s1 = single + 6 * n_classes, *s2 = s1 + 6 * n_classes, *s3 = s2 + 6 * n_classes;
    uint64_t *a1 = pairs + n_classes * n_classes, *a2 = a1 + n_classes * n_classes, *a3 = a2 + n_classes * n_classes;
    for (int64_t r = 0; r < rounds; r++) {
        memcpy(deck, fresh, 52);
        uint64_t x0 = group_word(rng, p0), x1 = group_word(rng, p1);
        int jj[13];
        for (int t = 0; t < O_FIRST; t++) jj[t] = t + (int)mulhi(x0 * q[t], (uint64_t)(52 - t));
        for (int t = O_FIRST; t < 13; t++) jj[t] = t + (int)mulhi(x1 * q[t], (uint64_t)(52 - t));
#pragma GCC unroll 13
        for (int t = 0; t < 13; t++) {
            int j = jj[t];
            uint8_t card = deck[j];
            deck[j] = deck[t];
            deck[t] = card;
            c[t] = card;
        }
        unsigned first = (c[0] >> 2) & 3;
        uint64_t v0 = value[state[c[1] * 52 + c[2]] + c[3]];
        uint64_t v1 = value[state[c[4] * 52 + c[5]] + c[6]];
        uint64_t v2 = value[state[c[7] * 52 + c[8]] + c[9]];
        uint64_t v3 = value[state[c[10] * 52 + c[11]] + c[12]];
        /* hand (first + k) mod 4 holds v_k: rotate the four values packed in a word */
        uint64_t packed = v0 | v1 << 16 | v2 << 32 | v3 << 48;
        unsigned sh = 16 * first;
        packed = (packed << sh) | (packed >> ((64 - sh) & 63));
        uint64_t b = packed & 0xffff, h1 = (packed >> 16) & 0xffff, h2 = (packed >> 32) & 0xffff,
                 h3 = packed >> 48;
        uint64_t rb = b >> 3;
        s0[SINGLE_AT(b)]++;
        s1[SINGLE_AT(h1)]++;
        s2[SINGLE_AT(h2)]++;
        s3[SINGLE_AT(h3)]++;
        a1[(h1 >> 3) * n_classes + rb]++;
        a2[(h2 >> 3) * n_classes + rb]++;
        a3[(h3 >> 3) * n_classes + rb]++;
    }
}

/* The Macau table: an 8-deck shoe, a cut card 30 .. 40 cards from the end, 8 cards burned
 * after the shuffle and 1 before each later round, then one card at a time to positions
 * 1-7 and the banker (0) last, three times round; the shoe is shuffled after the round in
 * which the cut card comes out. Every shoe deals its rounds from the same positions, so
 * the draw plan of each round of a shoe is made once: its groups' products (for the
 * rejection) and, card by card, the word, the product of the bounds before it in its
 * group, and its bound; then a round draws its words and its cards in loops of fixed
 * length. */
#define M_CARDS 416
#define M_HANDS 8
#define M_ROUNDS 17 /* more rounds than a shoe deals: 32 + 16 * 25 > 416 */
#define M_GROUPS 8
#define M_FIRST (8 + 3 * M_HANDS)
#define M_LATER (1 + 3 * M_HANDS)

typedef struct {
    int begin, n_groups;
    uint64_t product[M_GROUPS];
    uint8_t word[M_FIRST];
    uint64_t q[M_FIRST];
} round_plan_t;

static inline void deal_cards(uint8_t *deck, int begin, int count, const round_plan_t *plan,
                              const uint64_t *x, uint8_t *out) {
    for (int t = 0; t < count; t++) {
        int i = begin + t;
        int j = i + (int)mulhi(x[plan->word[t]] * plan->q[t], (uint64_t)(M_CARDS - i));
        uint8_t card = deck[j];
        deck[j] = deck[i];
        deck[i] = card;
        out[t] = card;
    }
}

void yard_macau(bitgen_t *rng, const uint16_t *state, const uint16_t *value, int64_t n_classes,
                int64_t rounds, uint64_t *pairs, uint64_t *single) {
    round_plan_t plan[M_ROUNDS];
    int n_rounds = 0;
    for (int pos = 0; n_rounds < M_ROUNDS; n_rounds++) {
        round_plan_t *p = &plan[n_rounds];
        int k = n_rounds == 0 ? M_FIRST : M_LATER;
        if (pos + k > M_CARDS)
            break;
        p->begin = pos;
        int i = pos, g = 0;
        while (i < pos + k && g < M_GROUPS) {
            int size = group_size((uint64_t)(M_CARDS - i));
            if (size > pos + k - i)
                size = pos + k - i;
            uint64_t q = 1;
            for (int t = 0; t < size; t++, i++) {
                p->word[i - pos] = (uint8_t)g;
                p->q[i - pos] = q;
                q *= (uint64_t)(M_CARDS - i);
            }
            p->product[g++] = q;
        }
        p->n_groups = g;
        pos += k;
    }
    uint8_t fresh[M_CARDS], deck[M_CARDS];
    for (int i = 0; i < M_CARDS; i++)
        fresh[i] = (uint8_t)(i % 52);
    uint8_t cards[M_FIRST];
    uint64_t x[M_GROUPS];
    int cut = 0, r = 0;
    int shuffle = 1;
    for (int64_t done = 0; done < rounds; done++) {
        if (shuffle) {
            memcpy(deck, fresh, M_CARDS);
            /* cut = 416 - (30 + bounded(11)), as sg_bounded */
            __uint128_t m = (__uint128_t)rng->next_uint64(rng->state) * 11;
            if ((uint64_t)m < 11) {
                uint64_t threshold = (0 - (uint64_t)11) % 11;
                while ((uint64_t)m < threshold)
                    m = (__uint128_t)rng->next_uint64(rng->state) * 11;
            }
            cut = M_CARDS - (30 + (int)(m >> 64));
            r = 0;
            shuffle = 0;
        }
        const round_plan_t *p = &plan[r];
        for (int g = 0; g < p->n_groups; g++)
            x[g] = group_word(rng, p->product[g]);
        const uint8_t *rest;
        if (r == 0) {
            deal_cards(deck, 0, M_FIRST, p, x, cards);
            rest = cards + 8;
            shuffle = cut < M_FIRST;
        } else {
            deal_cards(deck, p->begin, M_LATER, p, x, cards);
            rest = cards + 1;
            shuffle = p->begin <= cut && cut < p->begin + M_LATER;
        }
        r++;
        uint64_t vb = value[state[rest[7] * 52 + rest[15]] + rest[23]];
        uint64_t rb = vb >> 3;
        SINGLE(0)[SINGLE_AT(vb)]++;
        for (int k = 0; k < 7; k++) {
            uint64_t v = value[state[rest[k] * 52 + rest[k + 8]] + rest[k + 16]];
            SINGLE(k + 1)[SINGLE_AT(v)]++;
            PAIRS(k + 1)[(v >> 3) * n_classes + rb]++;
        }
    }
}
