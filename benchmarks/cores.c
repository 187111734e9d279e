/* How much two threads get from this machine's cores, with nothing shared: each thread
 * adds into eight registers (throughput-bound, no memory traffic), or steps one 64-bit LCG
 * (latency-bound). On two real cores both scale about 2x; on two hyperthreads of one core,
 * or cores a hypervisor shares with other guests, the throughput-bound loop scales less.
 * A ceiling for any simulation's 2-core scaling measured here, sanggong's included.
 *
 *     cc -O2 -pthread -o /tmp/cores benchmarks/cores.c && /tmp/cores
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

static void *latency_bound(void *arg) {
    uint64_t a = 1;
    for (long i = 0; i < (long)arg; i++)
        a = a * 6364136223846793005ULL + 1442695040888963407ULL;
    sink = a;
    return NULL;
}

static void *throughput_bound(void *arg) {
    uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
    for (long i = 0; i < (long)arg; i++) {
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
        a += i; b += i; c += i; d += i; e += i; f += i; g += i; h += i;
    }
    sink = a + b + c + d + e + f + g + h;
    return NULL;
}

static void run(const char *name, void *(*work)(void *), long n) {
    double t = now();
    work((void *)n);
    double one = now() - t;
    pthread_t x, y;
    t = now();
    pthread_create(&x, NULL, work, (void *)n);
    pthread_create(&y, NULL, work, (void *)n);
    pthread_join(x, NULL);
    pthread_join(y, NULL);
    double two = now() - t;
    printf("%s: 1 thread %.3f s, 2 threads %.3f s (twice the work): x%.2f\n", name, one, two, 2 * one / two);
}

int main(void) {
    for (int repeat = 0; repeat < 3; repeat++) {
        run("latency-bound   ", latency_bound, 300000000L);
        run("throughput-bound", throughput_bound, 600000000L);
    }
    return 0;
}
