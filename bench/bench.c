/*
 * bench.c — the measuring harness of `posenc bench` and its report.
 *
 * Method: both functions of a case are warmed up, the number of calls per
 * sample is calibrated so a sample lasts a few milliseconds (clock
 * resolution and call overhead vanish), then samples of the case and of its
 * baseline alternate (so drifting clocks, turbo and neighbours hit both
 * alike) and the medians per call are compared.
 */
#include "bench.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Defined in cases.c: runs every case into res (at most max), returns the
 * count or -1. */
int bench_cases(const bench_opts *opts, const bench_baselines *base,
                bench_result *res, int max, double *scale_f32_sec);

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

void bench_measure(bench_fn a, void *actx, bench_fn b, void *bctx, int quick,
                   double *sec_a, double *sec_b) {
    enum { MAX_REPEATS = 31 };
    const int repeats = quick ? 7 : 21;
    const double target = quick ? 0.004 : 0.010;
    /* warm-up: pages touched, caches and frequency settled, calls sized */
    const long na = calls_for(a, actx, target), nb = calls_for(b, bctx, target);
    double ta[MAX_REPEATS], tb[MAX_REPEATS];
    for (int r = 0; r < repeats; r++) {
        double t0 = now();
        for (long i = 0; i < na; i++) a(actx);
        double t1 = now();
        for (long i = 0; i < nb; i++) b(bctx);
        double t2 = now();
        ta[r] = (t1 - t0) / (double)na;
        tb[r] = (t2 - t1) / (double)nb;
    }
    *sec_a = median(ta, repeats);
    *sec_b = median(tb, repeats);
}

/* Numbers in the report: finite, short, valid JSON. */
static void num(FILE *out, double v) {
    if (!isfinite(v)) v = 0;
    fprintf(out, "%.4g", v);
}

static void print_json(FILE *out, const char *isa, const bench_result *r, int n) {
    fprintf(out, "{\"isa\": \"%s\", \"cases\": [", isa);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s{\"name\": \"%s\", \"threads\": %d, \"ns_per_elem\": ", i ? ", " : "",
                r[i].name, r[i].threads);
        num(out, r[i].ns_per_elem);
        fprintf(out, ", \"gbps\": ");
        num(out, r[i].gbps);
        fprintf(out, ", \"baseline\": \"%s\", \"baseline_ns_per_elem\": ", r[i].baseline);
        num(out, r[i].baseline_ns_per_elem);
        fprintf(out, ", \"ratio\": ");
        num(out, r[i].ratio);
        fprintf(out, ", \"max_abs_err\": ");
        num(out, r[i].max_abs_err);
        fprintf(out, "}");
    }
    fprintf(out, "]}\n");
}

static void print_table(FILE *out, const char *isa, const bench_opts *o,
                        const bench_result *r, int n) {
    fprintf(out, "posenc bench: kernels %s, %s; ratio = posenc time / baseline time "
                 "(medians of %d alternating repeats)\n",
            isa, o->quick ? "quick" : "full", o->quick ? 7 : 21);
    fprintf(out, "%-28s %3s %9s %7s  %-22s %9s %6s %7s %10s\n", "case", "thr", "ns/elem",
            "GB/s", "baseline", "ns/elem", "ratio", "target", "max_err");
    for (int i = 0; i < n; i++) {
        char target[16] = "-";
        if (r[i].target > 0)
            snprintf(target, sizeof target, "%s%.2f", r[i].ratio <= r[i].target ? "<=" : "!>",
                     r[i].target);
        fprintf(out, "%-28s %3d %9.4g %7.3g  %-22s %9.4g %6.3f %7s %10.2g\n", r[i].name,
                r[i].threads, r[i].ns_per_elem, r[i].gbps, r[i].baseline,
                r[i].baseline_ns_per_elem, r[i].ratio, target, r[i].max_abs_err);
    }
    fprintf(out, "(!> marks a ratio above its target; elem = one tensor element, or one "
                 "(position, pair) of a cos/sin table)\n");
}

int bench_run(const bench_opts *opts, FILE *out) {
    enum { MAX_RESULTS = 32 };
    bench_result res[MAX_RESULTS];
    memset(res, 0, sizeof res);
    const char *isa = pe_kernels_name();
    double scale_sec = 0;
    int n = bench_cases(opts, bench_baselines_for(isa), res, MAX_RESULTS, &scale_sec);
    if (n < 0) return -1;
    n += bench_python(opts->quick, scale_sec, res + n, MAX_RESULTS - n);
    n += bench_train_step(opts->quick, res + n, MAX_RESULTS - n);
    if (opts->json)
        print_json(out, isa, res, n);
    else
        print_table(out, isa, opts, res, n);
    return 0;
}
