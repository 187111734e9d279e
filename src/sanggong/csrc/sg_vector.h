/* The vector of tables' C side (csrc/vector.pxi's VectorKernel): its stake check in one pass,
 * and a pool of worker threads started once, which a step hands its tables to.
 *
 * The pool: `threads` helper threads wait on a condition variable; sg_pool_run publishes a
 * task (a function of a range of tables) and a count of chunks, wakes them, and takes chunks
 * itself too. Each thread starts at its own share of the chunks (the same tables every step,
 * so a table's state stays in that core's cache) and goes on round them, claiming each
 * chunk by a compare-and-swap on its flag, until none is left: a helper that the machine
 * runs late leaves its share to the others (the result does not depend on who dealt which
 * table: each table has its own shoe and bit generator). The caller returns when every
 * chunk is finished, without waiting for a helper that claimed none. A helper never
 * touches Python objects: no GIL. POSIX threads, or Windows' own. */
#ifndef SANGGONG_SG_VECTOR_H
#define SANGGONG_SG_VECTOR_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sg_common.h"
#include "sg_deal.h"
#include "sg_draws.h"
#include "sg_random.h"
#include "sg_pcg64.h"

/* --- the tables' bit generators ------------------------------------------------------------
 * numpy's PCG64 (sg_pcg64, sg_pcg64_next: sg_pcg64.h): the kernel copies each table's
 * generator state in and draws the same words numpy's next_uint64 would, inlined. */

#if defined(__GNUC__) || defined(__clang__)
#define SG_PREFETCH(p) __builtin_prefetch(p)
#else
#define SG_PREFETCH(p) ((void)(p))
#endif

#if defined(_MSC_VER)
#define SG_NOINLINE static __declspec(noinline)
#else
#define SG_NOINLINE static __attribute__((noinline))
#endif

/* A shoe's next round (sg_shoe_round, sg_deal.h: a fresh deck's is csrc/vector.pxi's) drawn
 * from a table's PCG64 by simulate's draws (sg_draws.h): a round of a shoe starts at the
 * same place in every shoe, so its groups of bounds, their sizes and products, are known
 * before (draws, from sg_draws_make), and each group's cards are drawn by one unrolled chain of
 * multiplies: the same words, the same cards as sg_shoe_round's, left where the draws put
 * them (deck[*pos - count .. *pos - 1], until the next round's shuffle: the caller reads
 * them there, no copy). A function of its own, with
 * the generator's state in locals (a store to the deck, a uint8_t *, may alias anything read
 * through a pointer, which would be reloaded after every card), so that the chain stays in
 * registers. */
SG_NOINLINE int64_t sg_vector_draws_round(sg_pcg64 *rng, const sg_draws *draws, uint8_t *deck, const uint8_t *ordered,
                                         int64_t n, int64_t hands, int64_t burn_first, int64_t burn_later,
                                         int head_burned, int64_t cut_low, int64_t cut_high, int64_t *pos,
                                         int64_t *cut, int64_t *in_shoe, int64_t *number, int *last) {
    sg_pcg64 g = *rng;
    int64_t r = *in_shoe, c = *cut;
    if (*last) {
        memcpy(deck, ordered, (size_t)n);
        r = 0;
        *number += 1;
        c = sg_cut_card(sg_pcg64_next, &g, n, cut_low, cut_high);
    }
    const int64_t begin = draws->begin[r], burn = sg_burn(r, burn_first, burn_later);
    const int64_t count = sg_round_cards(burn, head_burned, hands), g0 = draws->group[r];
    sg_draws_deal(sg_pcg64_next, &g, deck, n, begin, g0, draws->group[r + 1] - g0, draws->product, draws->size, NULL);
    *rng = g;
    *pos = begin + count;
    *cut = c;
    *in_shoe = r + 1;
    *last = sg_takes_cut(begin, count, c);
    return burn;
}

/* --- a round's cards ------------------------------------------------------------------------
 * The hands' cards of a table without a head card, hand_cards[i] = rest[give[i]] (rest: the
 * round's cards after its burns): give is sg_assign's answer for cards 0, 1, 2, ... (the
 * kernel's, made once), so the order is sg_give's, not written again here; three a hand. */
SG_ALWAYS_INLINE void sg_vector_give(const uint8_t *rest, const uint8_t *give, int64_t n, uint8_t *hand_cards) {
    for (int64_t i = 0; i < n; i += 3) {
        hand_cards[i] = rest[give[i]];
        hand_cards[i + 1] = rest[give[i + 1]];
        hand_cards[i + 2] = rest[give[i + 2]];
    }
}

/* The n bytes from p on fetched into the cache, a line (64 bytes) at a time. */
SG_ALWAYS_INLINE void sg_vector_prefetch(const uint8_t *p, int64_t n) {
    for (const uint8_t *end = p + n; p < end; p += 64)
        SG_PREFETCH(p);
}

/* --- the unseen counts ----------------------------------------------------------------------
 * count cards (codes, at cards[0 .. count - 1], three a hand) taken out of a table's unseen
 * counts, un[code >> shift]: shift 0 counts by card, 2 by rank (code = 4 (rank - 1) + suit).
 * A loop for each, chosen once a table (shift a constant in each: a load and a decrement a
 * card), three cards a turn. */
SG_ALWAYS_INLINE void sg_vector_unseen_by(int16_t *un, const uint8_t *cards, int64_t count, const unsigned shift) {
    for (int64_t i = 0; i < count; i += 3) {
        un[cards[i] >> shift] -= 1;
        un[cards[i + 1] >> shift] -= 1;
        un[cards[i + 2] >> shift] -= 1;
    }
}

SG_ALWAYS_INLINE void sg_vector_unseen(int16_t *un, const uint8_t *cards, int64_t count, unsigned shift) {
    if (shift)
        sg_vector_unseen_by(un, cards, count, 2);
    else
        sg_vector_unseen_by(un, cards, count, 0);
}

/* --- the stake check ------------------------------------------------------------------------
 * stakes, carried (tables, players, bets); high, requires (bets); money (tables, players) or
 * NULL. Legal when every stake s of bet j is 0 where nothing is carried, or else within
 * carried .. high[j] (so never negative: a carried stake is not); a bet with a partner
 * (requires[j] >= 0; requires[j] == bets: a partner not staked in this vector) has a stake of
 * the partner beside it; and, with money, a player's stakes sum to no more than it. Returns 1
 * when every stake is legal, else 0 (the caller names the first that is not). */
static int sg_vector_legal(const int64_t *stakes, const int64_t *carried, const int64_t *high, const int64_t *requires,
                           const int64_t *money, int64_t tables, int64_t players, int64_t bets, int partners) {
    const int64_t rows = tables * players;
    for (int64_t r = 0; r < rows; r++) {
        const int64_t *s = stakes + r * bets, *c = carried + r * bets;
        int64_t bad = 0, sum = 0;
        for (int64_t j = 0; j < bets; j++) {
            bad |= (int64_t)(s[j] < c[j]) | (int64_t)(s[j] > high[j]);
            sum += s[j];
        }
        if (bad)
            return 0;
        if (partners) {
            for (int64_t j = 0; j < bets; j++) {
                const int64_t q = requires[j];
                if (q >= 0 && s[j] > 0 && (q >= bets || s[q] == 0))
                    return 0;
            }
        }
        if (money && sum > money[r]) /* (each stake is at most high, so the sum stays in 64 bits) */
            return 0;
    }
    return 1;
}

/* --- threads ------------------------------------------------------------------------------ */
#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX /* (no min and max macros over the generated code) */
#endif
#include <windows.h>
typedef HANDLE sg_thread_t;
typedef SRWLOCK sg_mutex_t;
typedef CONDITION_VARIABLE sg_cond_t;
#define SG_THREAD_RESULT DWORD WINAPI
static void sg_mutex_init(sg_mutex_t *m) { InitializeSRWLock(m); }
static void sg_mutex_destroy(sg_mutex_t *m) { (void)m; }
static void sg_lock(sg_mutex_t *m) { AcquireSRWLockExclusive(m); }
static void sg_unlock(sg_mutex_t *m) { ReleaseSRWLockExclusive(m); }
static void sg_cond_init(sg_cond_t *c) { InitializeConditionVariable(c); }
static void sg_cond_destroy(sg_cond_t *c) { (void)c; }
static void sg_wait(sg_cond_t *c, sg_mutex_t *m) { SleepConditionVariableSRW(c, m, INFINITE, 0); }
static void sg_wake_all(sg_cond_t *c) { WakeAllConditionVariable(c); }
static void sg_wake_one(sg_cond_t *c) { WakeConditionVariable(c); }
static int64_t sg_load(volatile int64_t *x) { return InterlockedOr64((volatile LONG64 *)x, 0); }
static int64_t sg_add(volatile int64_t *x, int64_t v) { return InterlockedExchangeAdd64((volatile LONG64 *)x, v) + v; }
static int sg_swap_if(volatile int64_t *x, int64_t old, int64_t v) {
    return InterlockedCompareExchange64((volatile LONG64 *)x, v, old) == old;
}
static int64_t sg_process(void) { return (int64_t)GetCurrentProcessId(); }
#else
#include <pthread.h>
#include <unistd.h>
typedef pthread_t sg_thread_t;
typedef pthread_mutex_t sg_mutex_t;
typedef pthread_cond_t sg_cond_t;
#define SG_THREAD_RESULT void *
static void sg_mutex_init(sg_mutex_t *m) { pthread_mutex_init(m, NULL); }
static void sg_mutex_destroy(sg_mutex_t *m) { pthread_mutex_destroy(m); }
static void sg_lock(sg_mutex_t *m) { pthread_mutex_lock(m); }
static void sg_unlock(sg_mutex_t *m) { pthread_mutex_unlock(m); }
static void sg_cond_init(sg_cond_t *c) { pthread_cond_init(c, NULL); }
static void sg_cond_destroy(sg_cond_t *c) { pthread_cond_destroy(c); }
static void sg_wait(sg_cond_t *c, sg_mutex_t *m) { pthread_cond_wait(c, m); }
static void sg_wake_all(sg_cond_t *c) { pthread_cond_broadcast(c); }
static void sg_wake_one(sg_cond_t *c) { pthread_cond_signal(c); }
static int64_t sg_load(volatile int64_t *x) { return __atomic_load_n(x, __ATOMIC_ACQUIRE); }
static int64_t sg_add(volatile int64_t *x, int64_t v) { return __atomic_add_fetch(x, v, __ATOMIC_ACQ_REL); }
static int sg_swap_if(volatile int64_t *x, int64_t old, int64_t v) {
    return __atomic_compare_exchange_n(x, &old, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}
static int64_t sg_process(void) { return (int64_t)getpid(); }
#endif

typedef void (*sg_task)(void *ctx, int64_t lo, int64_t hi);

struct sg_pool;
typedef struct {
    struct sg_pool *pool;
    int64_t index;
} sg_helper;

/* A run's chunks are claimed by writing the run's number (its generation) into their flags:
 * a flag below it is free. A helper that wakes after its run has ended (the machine ran it
 * late) holds an older number and can claim nothing, so the caller waits only for the
 * chunks to be finished, never for a helper to come back. */
typedef struct sg_pool {
    sg_mutex_t lock;
    sg_cond_t go, done;
    int64_t threads, started;   /* helpers wanted, and started */
    int64_t generation;         /* runs published (under lock) */
    int stop, live, waiting;    /* end the helpers; started and not stopped; the caller sleeps on done */
    sg_task task;               /* this run's (set under lock before it is published) */
    void *ctx;
    int64_t n, chunk, chunks;
    volatile int64_t *taken;    /* a flag a chunk: the generation that claimed it */
    int64_t most;               /* chunks a run may have (taken's length) */
    volatile int64_t finished;  /* chunks of this run done */
    int64_t process;            /* the process that started the helpers (a forked child has none) */
    sg_thread_t *handles;
    sg_helper *helpers;
} sg_pool;

/* Claims chunks of run `generation`, from thread `index`'s share on round them, until none is
 * left; the one that finishes the last chunk wakes the caller if it sleeps. */
static void sg_pool_work(sg_pool *p, int64_t index, int64_t generation, sg_task task, void *ctx, int64_t n,
                         int64_t chunk, int64_t chunks) {
    const int64_t first = index * chunks / (p->started + 1);
    for (int64_t i = 0; i < chunks; i++) {
        const int64_t c = first + i < chunks ? first + i : first + i - chunks;
        const int64_t seen = sg_load(&p->taken[c]);
        if (seen >= generation || !sg_swap_if(&p->taken[c], seen, generation))
            continue;
        const int64_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
        task(ctx, lo, hi);
        if (sg_add(&p->finished, 1) == chunks) {
            sg_lock(&p->lock);
            if (p->waiting)
                sg_wake_one(&p->done);
            sg_unlock(&p->lock);
        }
    }
}

static SG_THREAD_RESULT sg_pool_helper(void *arg) {
    sg_pool *p = ((sg_helper *)arg)->pool;
    const int64_t index = ((sg_helper *)arg)->index;
    int64_t seen = 0;
    sg_lock(&p->lock);
    for (;;) {
        while (p->generation == seen && !p->stop)
            sg_wait(&p->go, &p->lock);
        if (p->stop)
            break;
        seen = p->generation;
        sg_task task = p->task;
        void *ctx = p->ctx;
        const int64_t n = p->n, chunk = p->chunk, chunks = p->chunks;
        sg_unlock(&p->lock);
        sg_pool_work(p, index, seen, task, ctx, n, chunk, chunks);
        sg_lock(&p->lock);
    }
    sg_unlock(&p->lock);
    return 0;
}

static void sg_pool_stop(sg_pool *p);

/* A pool of `threads` helpers (0: none, every run on the caller's thread alone) for runs of at
 * most `most` chunks. Returns 0, or -1 when a thread or memory could not be had (the pool is
 * then stopped and freed). */
static int sg_pool_start(sg_pool *p, int64_t threads, int64_t most) {
    memset(p, 0, sizeof(*p));
    sg_mutex_init(&p->lock);
    sg_cond_init(&p->go);
    sg_cond_init(&p->done);
    p->live = 1;
    p->threads = threads;
    p->process = sg_process();
    if (threads == 0)
        return 0;
    p->handles = (sg_thread_t *)calloc((size_t)threads, sizeof(sg_thread_t));
    p->helpers = (sg_helper *)calloc((size_t)threads, sizeof(sg_helper));
    p->taken = (volatile int64_t *)calloc((size_t)(most > 0 ? most : 1), sizeof(int64_t));
    p->most = most;
    if (!p->handles || !p->helpers || !p->taken) {
        sg_pool_stop(p);
        return -1;
    }
    for (int64_t i = 0; i < threads; i++) {
        p->helpers[i].pool = p;
        p->helpers[i].index = i + 1;
#if defined(_WIN32)
        p->handles[i] = CreateThread(NULL, 0, sg_pool_helper, &p->helpers[i], 0, NULL);
        if (p->handles[i] == NULL) {
#else
        if (pthread_create(&p->handles[i], NULL, sg_pool_helper, &p->helpers[i]) != 0) {
#endif
            sg_pool_stop(p);
            return -1;
        }
        p->started = i + 1;
    }
    return 0;
}

/* task(ctx, lo, hi) over 0 .. n - 1 in chunks of `chunk`, on the caller's thread and every
 * helper; returns when all of it is done (0), or -1 when there are more chunks than the pool
 * was started for (nothing done). One run at a time (the caller's lock). */
static int sg_pool_run(sg_pool *p, sg_task task, void *ctx, int64_t n, int64_t chunk) {
    const int64_t chunks = (n + chunk - 1) / chunk;
    if (p->started == 0 || chunks < 2 || p->process != sg_process()) { /* (a forked child: no helpers) */
        if (n > 0)
            task(ctx, 0, n);
        return 0;
    }
    if (chunks > p->most)
        return -1;
    sg_lock(&p->lock);
    const int64_t generation = ++p->generation;
    p->task = task;
    p->ctx = ctx;
    p->n = n;
    p->chunk = chunk;
    p->chunks = chunks;
    p->finished = 0;
    sg_wake_all(&p->go);
    sg_unlock(&p->lock);
    sg_pool_work(p, 0, generation, task, ctx, n, chunk, chunks);
    for (int spin = 0; spin < 4096 && sg_load(&p->finished) < chunks; spin++) {
        /* (a helper's last chunk is a few microseconds: wait for it awake, then asleep) */
    }
    if (sg_load(&p->finished) < chunks) {
        sg_lock(&p->lock);
        p->waiting = 1;
        while (sg_load(&p->finished) < chunks)
            sg_wait(&p->done, &p->lock);
        p->waiting = 0;
        sg_unlock(&p->lock);
    }
    return 0;
}

/* Stops and joins the helpers, frees the pool's memory (a pool stopped twice, or never
 * started, is left alone: zeroed memory is a stopped pool). */
static void sg_pool_stop(sg_pool *p) {
    if (!p->live)
        return;
    if (p->started && p->process != sg_process()) { /* a forked child: the helpers are the parent's */
        p->started = 0;
        p->live = 0;
        free(p->handles);
        free(p->helpers);
        free((void *)p->taken);
        memset(p, 0, sizeof(*p));
        return;
    }
    if (p->started) {
        sg_lock(&p->lock);
        p->stop = 1;
        sg_wake_all(&p->go);
        sg_unlock(&p->lock);
        for (int64_t i = 0; i < p->started; i++) {
#if defined(_WIN32)
            WaitForSingleObject(p->handles[i], INFINITE);
            CloseHandle(p->handles[i]);
#else
            pthread_join(p->handles[i], NULL);
#endif
        }
        p->started = 0;
    }
    free(p->handles);
    free(p->helpers);
    free((void *)p->taken);
    p->handles = NULL;
    p->helpers = NULL;
    p->taken = NULL;
    p->most = 0;
    p->threads = 0;
    sg_cond_destroy(&p->go);
    sg_cond_destroy(&p->done);
    sg_mutex_destroy(&p->lock);
    p->live = 0;
}

#endif
