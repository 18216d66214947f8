/*
 * measure.c — how `posenc bench` times a case against its baseline
 * (bench_measure in bench.h), apart from the report (bench.c) and the cases
 * (cases*.c), which both sit above it.
 *
 * Method: both functions of a case are warmed up, the number of calls per
 * sample is calibrated so a sample lasts a few milliseconds (clock
 * resolution and call overhead vanish), then samples of the case and of its
 * baseline alternate (so drifting clocks, turbo and neighbours hit both
 * alike) and the medians per call are compared.
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Calls per sample so that one sample lasts about `target` seconds. */
static long calls_for(bench_fn f, void *ctx, double target) {
    long calls = 1;
    for (;;) {
        const double t0 = now();
        for (long i = 0; i < calls; i++) f(ctx);
        const double dt = now() - t0;
        if (dt >= target || calls >= (1L << 24)) return calls;
        calls = dt <= 0 ? calls * 16 : (long)(calls * fmin(16.0, 1.2 * target / dt)) + 1;
    }
}

/* Quartile q (0.25, 0.5, 0.75) of n sorted values, linearly interpolated. */
static double quartile(const double *sorted, int n, double q) {
    const double at = q * (double)(n - 1);
    const int i = (int)at;
    return i + 1 < n ? sorted[i] + (at - i) * (sorted[i + 1] - sorted[i]) : sorted[n - 1];
}

void bench_measure(bench_fn a, void *actx, bench_fn b, void *bctx, int quick, double target,
                   double *sec_a, double *sec_b, double *spread_b) {
    enum { MAX_ROUNDS = 3, MAX_SAMPLES = 21 * MAX_ROUNDS };
    const int repeats = quick ? 7 : 21;
    const double sample = quick ? 0.004 : 0.010;
    /* warm-up: pages touched, caches and frequency settled, calls sized */
    const long na = calls_for(a, actx, sample), nb = calls_for(b, bctx, sample);
    double ta[MAX_SAMPLES], tb[MAX_SAMPLES], sorted[MAX_SAMPLES];
    int n = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
        for (int r = 0; r < repeats; r++, n++) {
            double t0 = now();
            for (long i = 0; i < na; i++) a(actx);
            double t1 = now();
            for (long i = 0; i < nb; i++) b(bctx);
            double t2 = now();
            ta[n] = (t1 - t0) / (double)na;
            tb[n] = (t2 - t1) / (double)nb;
        }
        memcpy(sorted, ta, sizeof(double) * (size_t)n);
        *sec_a = median(sorted, n);
        memcpy(sorted, tb, sizeof(double) * (size_t)n);
        *sec_b = median(sorted, n); /* sorts `sorted` */
        *spread_b = *sec_b > 0 ? (quartile(sorted, n, 0.75) - quartile(sorted, n, 0.25)) / *sec_b : 0;
        const int steady = *spread_b <= BENCH_STEADY, met = target <= 0 || *sec_a <= target * *sec_b;
        if (steady && met) break; /* otherwise widen: more samples of both */
    }
}

