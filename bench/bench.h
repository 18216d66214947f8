/*
 * bench.h — `posenc bench`: each case and its baseline measured in the same
 * run on the same buffers (warm-up first, then medians of alternating
 * repeats), ratio = posenc time / baseline time. The cases and their
 * targets are in bench/cases.c; the baselines (plain loops a programmer
 * would write, vectorized with the same instruction set as the active
 * kernels) in bench/baseline*.c and bench/base_*.c.
 */
#ifndef PE_BENCH_H
#define PE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    int quick; /* fewer repeats and sampled error checks: about 20 s, < 60 s */
    int json;  /* one JSON object instead of the table */
} bench_opts;

/* One line of the report. target <= 0: none. */
typedef struct {
    char name[48];
    int threads;
    double ns_per_elem, gbps;
    char baseline[48];
    double baseline_ns_per_elem, ratio, target, max_abs_err;
    /* The baseline's own spread over its samples: interquartile range /
     * median. A ratio past its target by less than this is "noisy", not a
     * miss: the yardstick itself moved that much. */
    double baseline_spread;
} bench_result;

/* Verdict of a result against its target. */
typedef enum { BENCH_NO_TARGET, BENCH_MET, BENCH_MISSED, BENCH_NOISY } bench_verdict;
bench_verdict bench_verdict_of(const bench_result *r);

/* Runs every case and prints the report to out; 0 on success, -1 (with a
 * message on stderr) if memory or the library failed. */
int bench_run(const bench_opts *opts, FILE *out);

/* ------------------------------------------------------------ harness */

typedef void (*bench_fn)(void *ctx);

/* Median seconds per call of a and of b, measured alternately after a
 * warm-up (measure.c), and the baseline's spread (IQR / median). A case whose
 * baseline varied by more than BENCH_STEADY, or whose ratio is past
 * `target` (> 0), is measured again with more samples (up to three rounds
 * in all), so one busy moment neither fails nor passes it. */
#define BENCH_STEADY 0.03
void bench_measure(bench_fn a, void *actx, bench_fn b, void *bctx, int quick, double target,
                   double *sec_a, double *sec_b, double *spread_b);

/* n deterministic floats in [-amp, amp) (amp a power of two: exact) from
 * a 64-bit LCG started at seed: the cases' inputs (baseline.c). */
void bench_fill(float *x, size_t n, uint64_t seed, double amp);

/* Split [0, n) into parts like the library does (no more threads than
 * `threads`, none below 2 MiB of traffic per part, the rule for running workers); run fn on each part,
 * part 0 on the calling thread, the others on workers started once and
 * kept between calls (baseline.c). */
void bench_parallel(int threads, size_t n, double traffic_bytes,
                    void (*fn)(void *ctx, size_t begin, size_t end), void *ctx);
/* Stops and joins the workers bench_parallel keeps between calls. */
void bench_parallel_stop(void);

/* ---------------------------------------------------------- baselines */

typedef struct {
    const char *isa;
    void (*scale_f32)(float *x, size_t n, float c);       /* x *= c */
    void (*scale_f16)(uint16_t *x, size_t n, float c);    /* widen, *c, RNE */
    void (*scale_bf16)(uint16_t *x, size_t n, float c);
    void (*copy_nt)(float *dst, const float *src, size_t n); /* streaming */
} bench_baselines;

/* The baselines compiled for the active kernel set's instructions. */
const bench_baselines *bench_baselines_for(const char *kernels);

extern const bench_baselines bench_base_generic;
#if defined(__x86_64__)
extern const bench_baselines bench_base_avx2, bench_base_avx512;
#endif
#if defined(__aarch64__)
extern const bench_baselines bench_base_neon;
#endif

/* The extra lines for numpy / PyTorch RoPE when /usr/bin/python3 can import
 * them (python.c); returns how many results it wrote (<= max), 0 if
 * neither is importable. baseline_sec: this run's in-place scale of the
 * same f32 tensor, for the ratio. */
int bench_python(int quick, double baseline_sec, bench_result *out, int max);

/* The `train_step` line (train_step.c): one training step of `posenc
 * experiment`'s model per token against its forward pass; returns 1, or 0
 * if it could not run. */
int bench_train_step(int quick, bench_result *out, int max);

/* The fused QKV epilogue's cases (cases_fused.c): returns how many results
 * it wrote (<= max), 0 if it could not run. */
int bench_fused(int quick, const bench_baselines *base, bench_result *out, int max);

#endif
