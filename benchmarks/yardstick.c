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
 * Everything the project takes as a run-time value is a compile-time constant here (the
 * table's shape, the groups of a fresh deck's draw, the positions' layout), and what can
 * be made once is made once per call:
 * - the draw plan: every round of a shoe starts at the same place from shoe to shoe, so
 *   its groups of bounds, their products and sizes are known before the first round;
 * - a card's digit of its group's word by a short chain of multiplies (the high half of
 *   low * bound is the digit, the low half goes on to the next bound), each chain started
 *   afresh every few cards from x * (the product of the bounds before it), so that the
 *   chains of a round run side by side; the rejection of a group costs one multiply;
 * - compact tables: the two-card state table with rows of 64 (c1 << 6 | c2, no multiply)
 *   and the value table in bytes (the default ranking's rid << 3 | pair plus is below 256),
 *   30 kB where the ranking's own are 53 kB: with the counters below they stay in a 48 kB
 *   L1 data cache, which is worth more than any instruction saved;
 * - the counts in 16-bit counters indexed by the hand's value itself (no multiply, no
 *   branch: the single cell is the value, the pairs cell rid_h * 32 + rid_banker), added
 *   into the caller's histograms every 65,535 rounds and at the end;
 * - the online round: the 13 draws unrolled, the four hands' values in one register
 *   rotated by the head card, so that each position's counters are at a constant place;
 * - the Macau round: each group's word drawn and its cards dealt at once, the cards of a
 *   group unrolled (a jump into a run of straight-line draws by the group's size), the
 *   hands read from the shoe where the draws leave them (no copy of the round's cards).
 *
 * The hand tables (the default ranking's two-card state table and value table, rid << 3 |
 * pair plus) are passed in. It is built at benchmark or test time by benchmarks/yardstick.py
 * with the system C compiler and loaded with ctypes. Not part of the package. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { /* numpy/random/bitgen.h */
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

#define LIMIT ((uint64_t)1 << 52)

/* How many bounds b, b - 1, ... one word takes: sg_group[b] of src/sanggong/_random.h. */
static int group_size(uint64_t b) { /* as sg_init_groups */
    uint64_t product = b, size = 1;
    while (size < b && product * (b - size) <= LIMIT) {
        product *= b - size;
        size++;
    }
    return (int)size;
}

/* Lemire's rejection of a group's word x of product P, from low = x * P mod 2**64: kept
 * when low >= 2**64 mod P (computed only in the rare case low < P). */
static inline int accepted(uint64_t low, uint64_t product) {
    return __builtin_expect(low >= product, 1) || low >= (0 - product) % product;
}

static inline uint64_t group_word(bitgen_t *rng, uint64_t product) {
    uint64_t x;
    do
        x = rng->next_uint64(rng->state);
    while (!accepted(x * product, product));
    return x;
}

/* The compact tables and the counters (see above). */
#define FLUSH_EVERY 65535

typedef struct {
    uint16_t state[52 * 64]; /* state[c1 << 6 | c2] */
    uint8_t *value;          /* value[state + c3]: rid << 3 | pair plus */
    uint16_t *single;        /* [hands][256], by value */
    uint16_t *pairs;         /* [hands - 1][32 * 32], by rid_h * 32 + rid_banker */
    int hands;
} counts_t;

static int counts_make(counts_t *c, const uint16_t *state, const uint16_t *value, int hands) {
    size_t n_values = 0;
    for (int i = 0; i < 52 * 52; i++)
        if (state[i] + (size_t)52 > n_values)
            n_values = state[i] + (size_t)52;
    for (int a = 0; a < 52; a++)
        for (int b = 0; b < 52; b++)
            c->state[a << 6 | b] = state[a * 52 + b];
    c->hands = hands;
    c->value = (uint8_t *)malloc(n_values);
    c->single = (uint16_t *)calloc((size_t)hands * 256 + (size_t)(hands - 1) * 1024, sizeof(uint16_t));
    if (!c->value || !c->single) {
        free(c->value);
        free(c->single);
        return -1;
    }
    c->pairs = c->single + hands * 256;
    for (size_t i = 0; i < n_values; i++)
        c->value[i] = (uint8_t)value[i];
    return 0;
}

/* The counters added into the caller's histograms, and zeroed. */
static void counts_flush(counts_t *c, int64_t n_classes, uint64_t *pairs, uint64_t *single) {
    for (int h = 0; h < c->hands; h++)
        for (int v = 0; v < 256; v++) {
            uint16_t *cell = &c->single[h * 256 + v];
            if ((v >> 3) < n_classes && (v & 7) < 6)
                single[h * 6 * n_classes + 6 * (v >> 3) + (v & 7)] += *cell;
            *cell = 0;
        }
    for (int h = 1; h < c->hands; h++)
        for (int a = 0; a < n_classes; a++)
            for (int b = 0; b < n_classes; b++) {
                uint16_t *cell = &c->pairs[(h - 1) * 1024 + a * 32 + b];
                pairs[h * n_classes * n_classes + a * n_classes + b] += *cell;
                *cell = 0;
            }
}

static void counts_free(counts_t *c) {
    free(c->value);
    free(c->single);
}

/* The online table: one deck shuffled every round, a head card burned (its rank names the
 * first hand), then three cards to each of 4 hands in turn (banker 0, positions 1-3).
 * 13 cards: one word for the bounds 52 .. 44, one for 43 .. 40 (sg_group[52] == 9).
 * Q(t) is the product of the bounds before card t in its group; the chains start afresh
 * at cards 0, 3, 6 and 9, 12. */
#define O_FIRST 9
#define Q0 1ull
#define Q1 52ull
#define Q2 (Q1 * 51)
#define Q3 (Q2 * 50)
#define Q4 (Q3 * 49)
#define Q5 (Q4 * 48)
#define Q6 (Q5 * 47)
#define Q7 (Q6 * 46)
#define Q8 (Q7 * 45)
#define O_P0 (Q8 * 44)
#define Q9 1ull
#define Q10 43ull
#define Q11 (Q10 * 42)
#define Q12 (Q11 * 41)
#define O_P1 (Q12 * 40)
#define O_CHAIN 3

static const uint8_t FRESH_DECK[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

void yard_online(bitgen_t *rng, const uint16_t *state, const uint16_t *value, int64_t n_classes,
                 int64_t rounds, uint64_t *pairs, uint64_t *single) {
    counts_t c;
    if (group_size(52) != O_FIRST || group_size(52 - O_FIRST) < 4 || counts_make(&c, state, value, 4) < 0)
        return;
    const uint16_t *st = c.state;
    const uint8_t *val = c.value;
    uint16_t *s = c.single, *a = c.pairs;
    uint8_t deck[64];
    for (int64_t done = 0; done < rounds;) {
        int64_t block = rounds - done < FLUSH_EVERY ? rounds - done : FLUSH_EVERY;
        for (int64_t r = 0; r < block; r++) {
            uint64_t x0 = group_word(rng, O_P0), x1 = group_word(rng, O_P1), low;
            unsigned j0, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11, j12;
            /* card t: its digit j_t - t and the low half carried to card t + 1 */
#define DIGIT(t, x, start)                                                                         \
    {                                                                                              \
        __uint128_t m = (__uint128_t)(((t) - (start)) % O_CHAIN == 0 ? (x) * Q##t : low) * (52 - (t)); \
        low = (uint64_t)m;                                                                         \
        j##t = (t) + (unsigned)(m >> 64);                                                          \
    }
            DIGIT(0, x0, 0) DIGIT(1, x0, 0) DIGIT(2, x0, 0) DIGIT(3, x0, 0) DIGIT(4, x0, 0)
            DIGIT(5, x0, 0) DIGIT(6, x0, 0) DIGIT(7, x0, 0) DIGIT(8, x0, 0)
            DIGIT(9, x1, 9) DIGIT(10, x1, 9) DIGIT(11, x1, 9) DIGIT(12, x1, 9)
#undef DIGIT
            memcpy(deck, FRESH_DECK, 64); /* one deck in code order: deck[i] == i */
            /* the lazy swap: position t is never read again, so only deck[j] is written */
#define DRAW(t)                     \
    unsigned c##t = deck[j##t];     \
    deck[j##t] = deck[t];
            DRAW(0) DRAW(1) DRAW(2) DRAW(3) DRAW(4) DRAW(5) DRAW(6) DRAW(7) DRAW(8) DRAW(9)
            DRAW(10) DRAW(11) DRAW(12)
#undef DRAW
            unsigned first = (c0 >> 2) & 3; /* (rank - 1) mod 4 */
            uint64_t v0 = val[st[c1 << 6 | c2] + c3];
            uint64_t v1 = val[st[c4 << 6 | c5] + c6];
            uint64_t v2 = val[st[c7 << 6 | c8] + c9];
            uint64_t v3 = val[st[c10 << 6 | c11] + c12];
            /* hand k is position (first + k) mod 4: rotate the four values packed in a word */
            uint64_t packed = v0 | v1 << 16 | v2 << 32 | v3 << 48;
            unsigned shift = 16 * first;
            packed = (packed << shift) | (packed >> ((64 - shift) & 63));
            uint64_t b = packed & 0xffff, h1 = (packed >> 16) & 0xffff, h2 = (packed >> 32) & 0xffff,
                     h3 = packed >> 48;
            uint64_t rb = b >> 3;
            s[b]++;
            s[256 + h1]++;
            s[512 + h2]++;
            s[768 + h3]++;
            a[(h1 >> 3) * 32 + rb]++;
            a[1024 + (h2 >> 3) * 32 + rb]++;
            a[2048 + (h3 >> 3) * 32 + rb]++;
        }
        done += block;
        counts_flush(&c, n_classes, pairs, single);
    }
    counts_free(&c);
}

/* The Macau table: an 8-deck shoe, a cut card 30 .. 40 cards from the end, 8 cards burned
 * after the shuffle and 1 before each later round, then one card at a time to positions
 * 1-7 and the banker (0) last, three times round; the shoe is shuffled after the round in
 * which the cut card comes out. Each round's groups (their products and sizes) come from
 * the plan; a group's cards are drawn by one chain from its word, unrolled: the switch
 * jumps to the run of straight-line draws that ends with the group. A group has at most
 * 17 cards (17! <= 2**52 < 18!). */
#define M_CARDS 416
#define M_HANDS 8
#define M_ROUNDS 17 /* more rounds than a shoe deals: 32 + 16 * 25 > 416 */
#define M_GROUPS 8
#define M_FIRST (8 + 3 * M_HANDS)
#define M_LATER (1 + 3 * M_HANDS)

typedef struct {
    int begin, count, n_groups;
    uint8_t size[M_GROUPS];
    uint64_t product[M_GROUPS];
} round_plan_t;

void yard_macau(bitgen_t *rng, const uint16_t *state, const uint16_t *value, int64_t n_classes,
                int64_t rounds, uint64_t *pairs, uint64_t *single) {
    round_plan_t plan[M_ROUNDS];
    for (int r = 0, pos = 0; r < M_ROUNDS; r++) {
        round_plan_t *p = &plan[r];
        int count = r == 0 ? M_FIRST : M_LATER, i = pos, g = 0;
        if (pos + count > M_CARDS)
            break;
        p->begin = pos;
        p->count = count;
        while (i < pos + count) {
            int size = group_size((uint64_t)(M_CARDS - i));
            if (size > pos + count - i)
                size = pos + count - i;
            if (g == M_GROUPS || size > 17)
                return;
            uint64_t product = 1;
            for (int t = 0; t < size; t++)
                product *= (uint64_t)(M_CARDS - i - t);
            p->size[g] = (uint8_t)size;
            p->product[g++] = product;
            i += size;
        }
        p->n_groups = g;
        pos += count;
    }
    counts_t c;
    if (counts_make(&c, state, value, M_HANDS) < 0)
        return;
    const uint16_t *st = c.state;
    const uint8_t *val = c.value;
    uint16_t *s = c.single, *a = c.pairs;
    uint8_t fresh[M_CARDS], deck[M_CARDS];
    for (int i = 0; i < M_CARDS; i++)
        fresh[i] = (uint8_t)(i % 52);
    int cut = 0, r = 0, shuffle = 1;
    for (int64_t done = 0; done < rounds;) {
        int64_t block = rounds - done < FLUSH_EVERY ? rounds - done : FLUSH_EVERY;
        for (int64_t k = 0; k < block; k++) {
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
            const round_plan_t *p = &plan[r++];
            unsigned i = (unsigned)p->begin;
            for (int g = 0; g < p->n_groups; g++) {
                unsigned size = p->size[g];
                uint64_t low = group_word(rng, p->product[g]);
                /* the group's cards are deck[i .. i + size - 1], their bounds end + size .. end + 1 */
                uint8_t *e = deck + i + size;
                uint64_t end = (uint64_t)(M_CARDS - i - size);
                __uint128_t m;
#define CARD(t)                                           \
    case t: {                                             \
        m = (__uint128_t)low * (end + t);                 \
        low = (uint64_t)m;                                \
        int64_t j = (int64_t)(m >> 64) - t;               \
        uint8_t card = e[j];                              \
        e[j] = e[-t];                                     \
        e[-t] = card;                                     \
    }                                                     \
    __attribute__((fallthrough));
                switch (size) {
                    CARD(17) CARD(16) CARD(15) CARD(14) CARD(13) CARD(12) CARD(11) CARD(10) CARD(9)
                    CARD(8) CARD(7) CARD(6) CARD(5) CARD(4) CARD(3) CARD(2) CARD(1)
                    default:;
                }
#undef CARD
                i += size;
            }
            shuffle = p->begin <= cut && cut < p->begin + p->count;
            const uint8_t *h = deck + p->begin + p->count - 3 * M_HANDS; /* the hands' cards, after the burn */
            unsigned vb = val[st[h[7] << 6 | h[15]] + h[23]], rb = vb >> 3;
            s[vb]++;
#pragma GCC unroll 7
            for (int k = 0; k < 7; k++) {
                unsigned v = val[st[h[k] << 6 | h[k + 8]] + h[k + 16]];
                s[(k + 1) * 256 + v]++;
                a[k * 1024 + (v >> 3) * 32 + rb]++;
            }
        }
        done += block;
        counts_flush(&c, n_classes, pairs, single);
    }
    counts_free(&c);
}
