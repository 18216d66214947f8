/*
 * bench.c — `posenc bench`'s list of cases and its report (table or JSON).
 * The top of bench/: it calls the cases (cases*.c, python.c,
 * train_step.c), which time themselves with bench_measure (measure.c);
 * nothing calls back into this file.
 */
#include "bench.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Defined in cases.c: runs every case into res (at most max), returns the
 * count or -1. */
int bench_cases(const bench_opts *opts, const bench_baselines *base,
                bench_result *res, int max, double *scale_f32_sec);
/* Defined in cases_driver.c: the driver's angle sources (tables, M-RoPE,
 * packed sequences); the count written or -1. */
int bench_cases_driver(const bench_opts *opts, const bench_baselines *base,
                       bench_result *res, int max);

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
    enum { MAX_RESULTS = 40 };
    bench_result res[MAX_RESULTS];
    memset(res, 0, sizeof res);
    const char *isa = pe_kernels_name();
    double scale_sec = 0;
    int n = bench_cases(opts, bench_baselines_for(isa), res, MAX_RESULTS, &scale_sec);
    if (n < 0) return -1;
    const int nd = bench_cases_driver(opts, bench_baselines_for(isa), res + n, MAX_RESULTS - n);
    if (nd < 0) return -1;
    n += nd;
    n += bench_fused(opts->quick, bench_baselines_for(isa), res + n, MAX_RESULTS - n);
    n += bench_python(opts->quick, scale_sec, res + n, MAX_RESULTS - n);
    n += bench_train_step(opts->quick, res + n, MAX_RESULTS - n);
    bench_parallel_stop();
    if (opts->json)
        print_json(out, isa, res, n);
    else
        print_table(out, isa, opts, res, n);
    return 0;
}
