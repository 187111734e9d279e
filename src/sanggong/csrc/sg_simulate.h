/* The round loops of simulate_chunk (sanggong._core): rounds dealt exactly as sg_draw deals
 * them (the same draws of the bit generator, in the same order, by the shoe procedure of
 * sg_deal.h), evaluated by the ranking's tables and counted into the histograms, and in
 * session mode a bet slip settled every round. The twin is _kernels.twin.simulate_chunk;
 * tests/test_rounds.py and tests/test_simulation.py check them equal for many shapes and
 * every preset's ranking.
 *
 * What makes it fast (benchmarks/yardstick.c is the best plain-C loop for the two common
 * tables; benchmarks/report.py times this loop, and simulate(), against it):
 * - the draws are made once per chunk (sg_draws.h): every round of a shoe starts at the
 *   same position from shoe to shoe, so the groups of bounds sg_draw would take, their
 *   sizes and products are known before the first round;
 * - a group's cards are drawn as sg_draw draws them, by one chain of multiplies from its
 *   word, each card swapped into place as its digit comes (sg_group_cards);
 * - the hands are read from the deck where the draws leave them, and for the default
 *   kind of ranking (plain, at most 32 classes) their counts go to compact counters
 *   (sg_counts.h): tables and counters in 30 + 14 kB, which a 48 kB L1 data cache holds;
 *   other rankings count through one 64-bit entry per rid (sg_entry), built once per chunk;
 * - the loop (sg_loop.h) takes the dealing and the counting as two named structs, always
 *   inlined: the functions below instantiate it, each in a function of its own, with
 *   constants for the Macau table (an 8-deck shoe dealt one card at a time to 8 hands) and
 *   for each kind of counting, and with run-time values for every other table; the online
 *   table (a fresh deck, a head card, 4 hands) has a loop of its own (sg_online.h).
 * - where a loop's code lies matters as much as what it runs (below, SG_LOOP_FN). */
#ifndef SANGGONG_SG_SIMULATE_H
#define SANGGONG_SG_SIMULATE_H
#include <stdint.h>
#include <stdlib.h>
#include "sg_counts.h"
#include "sg_deal.h"
#include "sg_loop.h"
#include "sg_online.h"
#include "sg_draws.h"

/* The kinds of counting (sg_counting), by name. */
static const sg_counting SG_COMPACT = {.counted = 0, .plain = 1, .session = 0, .compact = 1};
static const sg_counting SG_PLAIN = {.counted = 0, .plain = 1, .session = 0, .compact = 0};
static const sg_counting SG_BY_ENTRY = {.counted = 0, .plain = 0, .session = 0, .compact = 0};
static const sg_counting SG_BY_ENTRY_ORDERED = {.counted = 1, .plain = 0, .session = 0, .compact = 0};
static const sg_counting SG_SESSION_PLAIN = {.counted = 0, .plain = 1, .session = 1, .compact = 0};

/* The Macau preset's table: 8 decks, 7 positions and the banker, 8 cards burned after a
 * shuffle and 1 before every later round, one card at a time, no head card. */
static const sg_dealing SG_MACAU = {.n = 416, .hands = 8, .burn_first = 8, .burn_later = 1, .fresh = 0, .head = 0,
                                    .head_burned = 0, .one_at_a_time = 1};

/* Whether d is the Macau table but for its burns. */
static inline int sg_is_macau(const sg_dealing d) {
    return !d.fresh && d.n == SG_MACAU.n && d.hands == SG_MACAU.hands && !d.head && d.one_at_a_time;
}

/* Whether d is the online table (a fresh deck, 4 hands, no burns, a head card). */
static inline int sg_is_online(const sg_dealing d) {
    return d.fresh && d.n == 52 && d.hands == SG_ONLINE_HANDS && d.burn_first == 0 && d.head;
}

/* Each loop a function of its own, never inlined (SG_LOOP_FN): an instantiation of sg_loop
 * with the fields of the dealing and the counting it names as constants (fix: the dealing's
 * constants over the table's d; counting: an sg_counting). Inlined into one function, as
 * they were, the loops ran the same instructions as the old loops (callgrind, instruction
 * for instruction) 1.2-1.45 times slower (thread CPU time): a loop's speed hangs on where its
 * code lies, and there it moved with every other loop's size. A shoe's loops (SG_SHOE_LOOP:
 * the draws of up to 17 cards by a jump into a run of multiplies, sg_draws.h) have their
 * loops and jump targets aligned to 64 bytes with gcc: measured, Macau 0.94-0.98 of the old
 * build's time where unaligned it was 1.27; a fresh deck's (SG_FRESH_LOOP) are not: aligned,
 * the online table with the chinese ranking took 1.06 of the old time, unaligned 0.95.
 * That held only until other code of the core grew (the AVX-512 evaluation kernels): the
 * Macau loop was then 1.44-1.59 times the old build's time again. So with gcc each loop
 * function also starts on a 4 kB boundary (aligned(4096)): where its code lies within a
 * page, which is what the loop's speed hangs on, is then its own, whatever else the core
 * holds. Measured (thread CPU time, paired with the old build, 6 rounds): Macau 0.94-1.07,
 * the chinese ranking 0.91-1.05, the online loop 0.87-1.10, prosperity 0.84-0.94; the
 * core's .so grows by the padding (900 -> 973 kB, zeros: the wheel barely). */
#if defined(_MSC_VER)
#define SG_FRESH_LOOP static __declspec(noinline)
#define SG_SHOE_LOOP static __declspec(noinline)
#elif defined(__GNUC__) && !defined(__clang__)
#define SG_FRESH_LOOP static __attribute__((noinline, aligned(4096)))
#define SG_SHOE_LOOP static __attribute__((noinline, aligned(4096), optimize("align-loops=64", "align-jumps=64")))
#elif defined(__GNUC__)
#define SG_FRESH_LOOP static __attribute__((noinline))
#define SG_SHOE_LOOP static __attribute__((noinline))
#else
#define SG_FRESH_LOOP static
#define SG_SHOE_LOOP static
#endif
#define SG_ONLINE_LOOP SG_FRESH_LOOP
#define SG_LOOP_FN(kind, name, fix, counting)                                                                    \
    kind int64_t name(uint64_t (*next)(void *), void *rng, const sg_chunk *t, const sg_draws *p, sg_counts *c,     \
                      int64_t rounds, uint8_t *deck, const uint8_t *ordered, sg_dealing d) {                     \
        fix;                                                                                                     \
        return sg_loop(next, rng, t, p, c, rounds, deck, ordered, d, counting);                                  \
    }
/* the dealing's constants: a fresh deck, a shoe, the Macau table (its burns the table's), the
 * Macau preset's table */
#define SG_FRESH d.fresh = 1
#define SG_SHOE d.fresh = 0
#define SG_MACAU_TABLE d = sg_macau_burning(d.burn_first, d.burn_later)
#define SG_MACAU_PRESET d = SG_MACAU
/* (session mode: whether the order is counted, the chunk's) */
#define SG_SESSION_BY_ENTRY ((sg_counting){.counted = t->counted != 0, .plain = 0, .session = 1, .compact = 0})

/* The Macau table with the burns burn_first and burn_later. */
static inline sg_dealing sg_macau_burning(int64_t burn_first, int64_t burn_later) {
    sg_dealing m = SG_MACAU;
    m.burn_first = burn_first;
    m.burn_later = burn_later;
    return m;
}

SG_LOOP_FN(SG_FRESH_LOOP, sg_loop_fresh_session_plain, SG_FRESH, SG_SESSION_PLAIN)
SG_LOOP_FN(SG_FRESH_LOOP, sg_loop_fresh_session_by_entry, SG_FRESH, SG_SESSION_BY_ENTRY)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_shoe_session_plain, SG_SHOE, SG_SESSION_PLAIN)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_shoe_session_by_entry, SG_SHOE, SG_SESSION_BY_ENTRY)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_macau_preset_compact, SG_MACAU_PRESET, SG_COMPACT)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_macau_compact, SG_MACAU_TABLE, SG_COMPACT)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_macau_plain, SG_MACAU_TABLE, SG_PLAIN)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_macau_by_entry, SG_MACAU_TABLE, SG_BY_ENTRY)
SG_LOOP_FN(SG_FRESH_LOOP, sg_loop_fresh_by_entry_ordered, SG_FRESH, SG_BY_ENTRY_ORDERED)
SG_LOOP_FN(SG_FRESH_LOOP, sg_loop_fresh_compact, SG_FRESH, SG_COMPACT)
SG_LOOP_FN(SG_FRESH_LOOP, sg_loop_fresh_plain, SG_FRESH, SG_PLAIN)
SG_LOOP_FN(SG_FRESH_LOOP, sg_loop_fresh_by_entry, SG_FRESH, SG_BY_ENTRY)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_shoe_by_entry_ordered, SG_SHOE, SG_BY_ENTRY_ORDERED)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_shoe_compact, SG_SHOE, SG_COMPACT)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_shoe_plain, SG_SHOE, SG_PLAIN)
SG_LOOP_FN(SG_SHOE_LOOP, sg_loop_shoe_by_entry, SG_SHOE, SG_BY_ENTRY)
#undef SG_LOOP_FN
#undef SG_FRESH
#undef SG_SHOE
#undef SG_MACAU_TABLE
#undef SG_MACAU_PRESET
#undef SG_SESSION_BY_ENTRY

/* The online table's loop (sg_online.h), each of its four a function of its own as well
 * (SG_ONLINE_LOOP, not aligned), so that its place no longer moves with the code around it:
 * measured against the old build, inlined into sg_run 1.06-1.11 of its time once the other
 * loops had moved out, a function of its own 1.02 [0.97-1.17], with its loops aligned to 64
 * bytes 1.43 (the same instructions: this machine's speed for these loops hangs on where
 * their code lies). */
#define SG_ONLINE_FN(name, head_burned, compact)                                                          \
    SG_ONLINE_LOOP int64_t name(uint64_t (*next)(void *), void *rng, const sg_chunk *t, sg_counts *c,     \
                                int64_t rounds) {                                                         \
        return sg_online(next, rng, t, c, rounds, head_burned, compact);                                  \
    }
SG_ONLINE_FN(sg_online_burned_compact, 1, 1)
SG_ONLINE_FN(sg_online_compact, 0, 1)
SG_ONLINE_FN(sg_online_burned, 1, 0)
SG_ONLINE_FN(sg_online_shown, 0, 0)
#undef SG_ONLINE_FN
#undef SG_FRESH_LOOP
#undef SG_SHOE_LOOP
#undef SG_ONLINE_LOOP

/* The loop for t's table and counting, specialised where a table or a counting is common
 * (the functions above). */
static int64_t sg_run(uint64_t (*next)(void *), void *rng, const sg_chunk *t, const sg_draws *p, sg_counts *c,
                      int64_t rounds, uint8_t *deck, const uint8_t *ordered, const int compact) {
    const sg_dealing table = sg_dealing_of(t); /* every field as the table has it */
#define SG_LOOP(name) name(next, rng, t, p, c, rounds, deck, ordered, table)
    if (t->session) /* a bet slip settled every round */
        return table.fresh ? (t->plain ? SG_LOOP(sg_loop_fresh_session_plain) : SG_LOOP(sg_loop_fresh_session_by_entry))
                           : (t->plain ? SG_LOOP(sg_loop_shoe_session_plain) : SG_LOOP(sg_loop_shoe_session_by_entry));
    if (sg_is_online(table) && !t->counted && sg_online_draws(p, table.head_burned))
        return compact ? (table.head_burned ? sg_online_burned_compact(next, rng, t, c, rounds)
                                            : sg_online_compact(next, rng, t, c, rounds))
                       : (table.head_burned ? sg_online_burned(next, rng, t, c, rounds)
                                            : sg_online_shown(next, rng, t, c, rounds));
    if (sg_is_macau(table) && !t->counted)
        return compact && table.burn_first == SG_MACAU.burn_first && table.burn_later == SG_MACAU.burn_later
                   ? SG_LOOP(sg_loop_macau_preset_compact)
               : compact  ? SG_LOOP(sg_loop_macau_compact)
               : t->plain ? SG_LOOP(sg_loop_macau_plain)
                          : SG_LOOP(sg_loop_macau_by_entry);
    if (table.fresh)
        return t->counted  ? SG_LOOP(sg_loop_fresh_by_entry_ordered)
               : compact  ? SG_LOOP(sg_loop_fresh_compact)
               : t->plain ? SG_LOOP(sg_loop_fresh_plain)
                          : SG_LOOP(sg_loop_fresh_by_entry);
    return t->counted  ? SG_LOOP(sg_loop_shoe_by_entry_ordered)
           : compact  ? SG_LOOP(sg_loop_shoe_compact)
           : t->plain ? SG_LOOP(sg_loop_shoe_plain)
                      : SG_LOOP(sg_loop_shoe_by_entry);
#undef SG_LOOP
}

/* Runs up to `rounds` rounds of the chunk t from a fresh shoe; returns the rounds done
 * (fewer when t->stop[0] was set), or -1 when out of memory. The caller has checked t
 * (sg_dealable, the histograms' shapes, the settlement plan) and holds the bit generator's
 * lock. */
static int64_t sg_simulate(uint64_t (*next)(void *), void *rng, const sg_chunk *t, int64_t rounds) {
    const int64_t n = sg_n_cards(&t->table);
    sg_draws p;
    sg_counts counts, *c = &counts;
    /* the compact counts: a plain ranking of at most 32 classes (its values then < 256) */
    const int compact = !t->session && t->plain && t->n_classes <= 32;
    if (sg_draws_make(&p, &t->table) < 0)
        return -1;
    if (compact && sg_counts_make(c, t) < 0) {
        sg_draws_free(&p);
        return -1;
    }
    uint8_t *deck = (uint8_t *)malloc((size_t)(2 * n));
    if (!deck) {
        if (compact)
            sg_counts_free(c);
        sg_draws_free(&p);
        return -1;
    }
    uint8_t *ordered = deck + n;
    for (int64_t i = 0; i < n; i++)
        ordered[i] = (uint8_t)(i % 52);
    const int64_t done = sg_run(next, rng, t, &p, c, rounds, deck, ordered, compact);
    if (compact) {
        if (done >= 0)
            sg_counts_flush(c, t);
        sg_counts_free(c);
    }
    free(deck);
    sg_draws_free(&p);
    return done;
}

#endif
