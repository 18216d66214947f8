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

bench_verdict bench_verdict_of(const bench_result *r) {
    if (r->target <= 0) return BENCH_NO_TARGET;
    if (r->ratio <= r->target) return BENCH_MET;
    /* Past the target by less than the baseline's own spread: the machine,
     * not the kernel, cannot be told apart here. */
    return r->ratio - r->target <= r->ratio * r->baseline_spread ? BENCH_NOISY : BENCH_MISSED;
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
        static const char *const verdicts[] = {"none", "met", "missed", "noisy"};
        fprintf(out, ", \"target\": ");
        num(out, r[i].target);
        fprintf(out, ", \"baseline_spread\": ");
        num(out, r[i].baseline_spread);
        fprintf(out, ", \"verdict\": \"%s\"}", verdicts[bench_verdict_of(&r[i])]);
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
    int met = 0, missed = 0, noisy = 0;
    double worst_spread = 0;
    for (int i = 0; i < n; i++) {
        char target[16] = "-";
        const bench_verdict v = bench_verdict_of(&r[i]);
        if (v != BENCH_NO_TARGET)
            snprintf(target, sizeof target, "%s%.2f",
                     v == BENCH_MET ? "<=" : v == BENCH_NOISY ? "~>" : "!>", r[i].target);
        met += v == BENCH_MET, missed += v == BENCH_MISSED, noisy += v == BENCH_NOISY;
        if (v == BENCH_NOISY) worst_spread = fmax(worst_spread, r[i].baseline_spread);
        fprintf(out, "%-28s %3d %9.4g %7.3g  %-22s %9.4g %6.3f %7s %10.2g%s\n", r[i].name,
                r[i].threads, r[i].ns_per_elem, r[i].gbps, r[i].baseline,
                r[i].baseline_ns_per_elem, r[i].ratio, target, r[i].max_abs_err,
                v == BENCH_NOISY ? "  noisy" : "");
    }
    fprintf(out, "(elem = one tensor element, or one (position, pair) of a cos/sin table)\n");
    fprintf(out, "targets: %d met, %d missed (!>), %d noisy (~>)\n", met, missed, noisy);
    if (noisy)
        fprintf(out, "noisy: past the target by less than the baseline's own spread between "
                     "samples (up to %.0f%% here, after widening the case to more samples): the "
                     "machine was busy, not the kernel slow; rerun on a quiet machine to decide\n",
                worst_spread * 100);
}

int bench_run(const bench_opts *opts, FILE *out) {
    enum { MAX_RESULTS = 32 };
    bench_result res[MAX_RESULTS];
    memset(res, 0, sizeof res);
    const char *isa = pe_kernels_name();
    double scale_sec = 0;
    int n = bench_cases(opts, bench_baselines_for(isa), res, MAX_RESULTS, &scale_sec);
    if (n < 0) return -1;
    n += bench_fused(opts->quick, bench_baselines_for(isa), res + n, MAX_RESULTS - n);
    n += bench_python(opts->quick, scale_sec, res + n, MAX_RESULTS - n);
    n += bench_train_step(opts->quick, res + n, MAX_RESULTS - n);
    if (opts->json)
        print_json(out, isa, res, n);
    else
        print_table(out, isa, opts, res, n);
    return 0;
}
