/*
 * compare.c — posenc against ggml's CPU RoPE in one process (issue 31):
 * pe_rope_apply_ex against ggml_rope_ext_inplace (a graph planned once,
 * computed with ggml_graph_compute), on buffers of the same shape and type,
 * 32 heads x 128, base 500000: 4096 and 512 tokens and one decode token at
 * position 131071, half-split (ggml NEOX) and interleaved (ggml NORMAL),
 * f32 and f16 (4096 tokens), on 1 and 2 threads (posenc on a pe_pool,
 * ggml on its OpenMP threads): 21 samples of each (a sample: one call,
 * or as many as last a millisecond), in three blocks of seven per side,
 * interleaved, each block after a rest and a warm-up (side_block); medians.
 *
 * The floor: the same buffer scaled in place (x *= c, vectorized for the
 * widest set the CPU has, on as many threads), the least time any in-place rotation of
 * these bytes can take; floor/ggml is the lowest posenc/ggml ratio the
 * machine allows, whatever the kernel.
 *
 * Built by `make bench-ggml GGML_DIR=...` (Makefile), never by `make`:
 * it needs a ggml tree built in GGML_DIR/build, which posenc does not
 * fetch (docs/PERFORMANCE.md "Against ggml" says how it was built).
 */
#define _POSIX_C_SOURCE 200809L
#include "ggml-cpu.h"
#include "ggml.h"
#include "posenc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum { HEADS = 32, HD = 128, ROUNDS = 21 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v) {
    qsort(v, ROUNDS, sizeof *v, cmp);
    return v[ROUNDS / 2];
}

static volatile float unit = 1.0f; /* not a constant: the scale is not folded away */

/* The floors: plain loops, vectorized by the compiler for the widest set
 * this CPU has (target_clones: built for any x86-64, chosen at run time,
 * no -march=native) and F16C conversions where the CPU has them; on one
 * thread no OpenMP region at all (its fork costs microseconds, the size
 * of a decode step). */
#if defined(__x86_64__) && defined(__GNUC__)
#define FLOOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define FLOOR_CLONES
#endif

FLOOR_CLONES static void scale_f32(float *x, size_t n, float c) {
    for (size_t i = 0; i < n; i++) x[i] *= c;
}

#if defined(__x86_64__)
__attribute__((target("avx2,f16c"))) static void scale_f16_f16c(ggml_fp16_t *x, size_t n,
                                                                 float c) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_mul_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + i))),
                                       _mm256_set1_ps(c));
        _mm_storeu_si128((__m128i *)(x + i), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; i++) x[i] = ggml_fp32_to_fp16(ggml_fp16_to_fp32(x[i]) * c);
}
#endif

static void scale_f16(ggml_fp16_t *x, size_t n, float c) {
#if defined(__x86_64__)
    /* posenc's avx2 set runs only where the CPU and OS have AVX2 and F16C */
    if (pe_kernels_supported("avx2")) {
        scale_f16_f16c(x, n, c);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) x[i] = ggml_fp32_to_fp16(ggml_fp16_to_fp32(x[i]) * c);
}

static void floor_run(void *x, size_t n, int f16, int threads) {
    const float c = unit;
    if (threads <= 1) {
        if (f16)
            scale_f16(x, n, c);
        else
            scale_f32(x, n, c);
        return;
    }
    const size_t part = (n / (size_t)threads + 63) & ~(size_t)63; /* whole lines */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int t = 0; t < threads; t++) {
        const size_t b = (size_t)t * part, e = b + part < n ? b + part : n;
        if (b >= e) continue;
        if (f16)
            scale_f16((ggml_fp16_t *)x + b, e - b, c);
        else
            scale_f32((float *)x + b, e - b, c);
    }
}

/* The three timed sides of a case, in the order they run. */
enum { SIDE_POSENC, SIDE_GGML, SIDE_FLOOR, SIDES };

/* What one side's call needs (fields another side does not use are NULL). */
typedef struct {
    const pe_freqs *f;
    pe_rope_layout layout;
    const pe_positions *pos;
    const pe_tensor *x;
    const pe_rope_options *o;
    struct ggml_cgraph *gf;
    struct ggml_cplan *plan;
    void *buf;
    size_t n;
    int f16, threads, kind; /* kind: SIDE_POSENC, SIDE_GGML or SIDE_FLOOR */
} bench_side;

static int side_call(const bench_side *s) {
    if (s->kind == SIDE_POSENC)
        return pe_rope_apply_ex(s->f, s->layout, s->pos, s->x, s->x, PE_ROPE_FORWARD, s->o) != PE_OK;
    if (s->kind == SIDE_GGML) return ggml_graph_compute(s->gf, s->plan) != GGML_STATUS_SUCCESS;
    floor_run(s->buf, s->n, s->f16, s->threads);
    return 0;
}

enum { REST_NS = 20000000 };
#define WARM_SEC 0.005
#define SAMPLE_SEC 0.001

/* The rest, the warm-up (which also sizes a sample), then `count` samples:
 * seconds per call. */
static int side_block(const bench_side *s, double *out, int count) {
    const struct timespec rest = {0, REST_NS};
    nanosleep(&rest, NULL);
    long calls = 0;
    const double w0 = now();
    double elapsed = 0;
    do {
        if (side_call(s) != 0) return -1;
        calls++;
        elapsed = now() - w0;
    } while (elapsed < WARM_SEC);
    const double per_call = elapsed / (double)calls;
    const long reps = per_call >= SAMPLE_SEC ? 1 : (long)(SAMPLE_SEC / per_call) + 1;
    for (int i = 0; i < count; i++) {
        const double t0 = now();
        for (long q = 0; q < reps; q++)
            if (side_call(s) != 0) return -1;
        out[i] = (now() - t0) / (double)reps;
    }
    return 0;
}

static int run(const char *name, int tokens, int interleaved, int f16, int threads, int64_t p0) {
    const size_t n = (size_t)tokens * HEADS * HD;
    struct ggml_init_params ip = {n * 4 + (size_t)tokens * 4 + ((size_t)64 << 20), NULL, false};
    struct ggml_context *ctx = ggml_init(ip);
    if (ctx == NULL) return -1;
    struct ggml_tensor *a =
        ggml_new_tensor_3d(ctx, f16 ? GGML_TYPE_F16 : GGML_TYPE_F32, HD, HEADS, tokens);
    struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, tokens);
    for (int t = 0; t < tokens; t++) ((int32_t *)pos->data)[t] = (int32_t)(p0 + t);
    struct ggml_tensor *r = ggml_rope_ext_inplace(
        ctx, a, pos, NULL, HD, interleaved ? GGML_ROPE_TYPE_NORMAL : GGML_ROPE_TYPE_NEOX, 0,
        500000.0f, 1.0f, 0.0f, 1.0f, 0.0f, 0.0f);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, r);
    struct ggml_cplan plan = ggml_graph_plan(gf, threads, NULL);
    void *work = plan.work_size ? malloc(plan.work_size) : NULL;
    plan.work_data = work;
    void *x = aligned_alloc(64, n * 4);
    if (x == NULL || (plan.work_size && work == NULL)) return -1;
    for (size_t i = 0; i < n; i++) {
        const float v = (float)((i * 2654435761u) % 2000) / 1000.f - 1.f;
        if (f16) {
            ((ggml_fp16_t *)a->data)[i] = ggml_fp32_to_fp16(v);
            ((ggml_fp16_t *)x)[i] = ggml_fp32_to_fp16(v);
        } else {
            ((float *)a->data)[i] = v;
            ((float *)x)[i] = v;
        }
    }
    pe_freqs f;
    pe_freqs_default(HD, 500000.0, &f);
    const pe_positions ppos = pe_positions_range(p0);
    const pe_tensor X = pe_tensor_dense(x, f16 ? PE_F16 : PE_F32, tokens, HEADS, HD);
    pe_rope_options o = pe_rope_options_default();
    pe_pool *pool = NULL;
    if (threads > 1) {
        if (pe_pool_create(threads, &pool) != PE_OK) return -1;
        o.pool = pool;
    }
    const pe_rope_layout layout = interleaved ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
    const bench_side sides[SIDES] = {
        {&f, layout, &ppos, &X, &o, NULL, NULL, x, n, f16, threads, SIDE_POSENC},
        {NULL, layout, NULL, NULL, NULL, gf, &plan, NULL, 0, 0, 0, SIDE_GGML},
        {NULL, layout, NULL, NULL, NULL, NULL, NULL, x, n, f16, threads, SIDE_FLOOR}};
    double t[SIDES][ROUNDS];
    for (int w = 0; w < SIDES; w++) /* warm-up: buffers touched, the graph run once */
        if (side_call(&sides[w]) != 0) return -1;
    /* in blocks of 7 samples of each side (3 blocks each, interleaved).
     * Before each block a rest of 20 ms: posenc's pool and ggml's OpenMP
     * threads (GOMP_SPINCOUNT) both spin a while after a call, and on a
     * machine of few cores the one still spinning slows the other. After
     * the rest, the side runs alone for WARM_SEC before its samples are
     * taken: a core idle for 20 ms comes back slowly (clock, caches), and
     * a block of seven single 512-token calls (~1 ms) fell inside that:
     * posenc's and the floor's 512-token times read 1.5 - 2.5x what they
     * are a few milliseconds later, ggml's (2 ms calls) much less. Each
     * sample lasts at least SAMPLE_SEC (many calls of a decode step). */
    int k = 0;
    for (int block = 0; block < 3; block++) {
        for (int w = 0; w < SIDES; w++)
            if (side_block(&sides[w], t[w] + k, ROUNDS / 3) != 0) return -1;
        k += ROUNDS / 3;
    }
    const double p = median(t[SIDE_POSENC]), g = median(t[SIDE_GGML]), fl = median(t[SIDE_FLOOR]);
    printf("%-20s %3d %11.2f %11.2f %11.2f %7.3f %11.3f\n", name, threads, p * 1e6, g * 1e6,
           fl * 1e6, p / g, fl / g);
    pe_pool_destroy(pool);
    free(work);
    free(x);
    ggml_free(ctx);
    return 0;
}

int main(void) {
    printf("posenc %s (kernels %s) against ggml's CPU RoPE; medians of %d rounds\n",
           pe_version_string(), pe_kernels_name(), ROUNDS);
    printf("%-20s %3s %11s %11s %11s %7s %11s\n", "case (32 x 128)", "thr", "posenc us",
           "ggml us", "floor us", "p/g", "floor/g");
    static const struct {
        const char *name;
        int tokens, interleaved, f16;
        int64_t p0;
    } cases[] = {
        {"4096 NEOX f32", 4096, 0, 0, 0},     {"4096 NORMAL f32", 4096, 1, 0, 0},
        {"512 NEOX f32", 512, 0, 0, 0},       {"512 NORMAL f32", 512, 1, 0, 0},
        {"decode NEOX f32", 1, 0, 0, 131071}, {"decode NORMAL f32", 1, 1, 0, 131071},
        {"4096 NEOX f16", 4096, 0, 1, 0},     {"4096 NORMAL f16", 4096, 1, 1, 0},
    };
    for (int threads = 1; threads <= 2; threads++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
            if (run(cases[c].name, cases[c].tokens, cases[c].interleaved, cases[c].f16, threads,
                    cases[c].p0) != 0) {
                fprintf(stderr, "bench/ggml/compare: %s failed: %s\n", cases[c].name,
                        pe_last_error());
                return 1;
            }
    return 0;
}
