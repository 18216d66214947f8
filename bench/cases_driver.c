/*
 * cases_driver.c — `posenc bench` cases of the one rotation driver's angle
 * sources (issue 15 items 1, 3, 5), each with an in-run baseline on the
 * same buffer and the error of its output against the exact rotation (long
 * double angles and products):
 *
 *   rope_table_4096      4096 tokens x 32 heads x 128, f32, half-split, in
 *                        place, from a caller's f32 (4096, 64) cos/sin
 *                        table built once     vs x *= c in place   <= 1.15
 *   mrope_inplace_4096   M-RoPE (Qwen2-VL sections {16, 24, 24}) on 64 text
 *                        tokens + a 63 x 64 image grid, in place
 *                                             vs plain RoPE in place on
 *                                             the same shape        <= 1.15
 *   mrope_inplace_4096_2t  the same on 2 threads against plain RoPE on 2
 *   rope_varlen_4096     8 packed sequences of 512 tokens (int32
 *                        cu_seqlens, per-sequence start positions), in
 *                        place                vs x *= c in place   <= 1.15
 * Frequencies: head_dim 128, base 500000 (the cases of cases.c).
 */
#include "bench.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_cases_driver(const bench_opts *opts, const bench_baselines *base, bench_result *res,
                       int max);

enum { TOK = 4096, HEADS = 32, HD = 128, PAIRS = HD / 2, NSEQ = 8, TEXT = 64, GH = 63, GW = 64 };

typedef struct {
    const pe_freqs *freqs;
    pe_tensor x;
    pe_rope_options opt;
    pe_positions pos;
    const pe_rope_table *table;
    const int64_t *pos3;
    const int64_t *sections;
    const bench_baselines *base;
    float *buf;
    size_t n;
    int threads;
    int status;
} djob;

static void note(djob *j, int st) {
    if (st != PE_OK) j->status = st;
}

static void table_call(void *p) {
    djob *j = p;
    note(j, pe_rope_apply_table(j->table, PE_ROPE_HALF, &j->pos, &j->x, &j->x, PE_ROPE_FORWARD,
                                &j->opt));
}

static void mrope_call(void *p) {
    djob *j = p;
    note(j, pe_mrope_apply_ex(j->freqs, PE_ROPE_HALF, j->pos3, j->sections, PE_MROPE_BLOCKED,
                              &j->x, &j->x, PE_ROPE_FORWARD, &j->opt));
}

static void rope_call(void *p) {
    djob *j = p;
    note(j, pe_rope_apply_ex(j->freqs, PE_ROPE_HALF, &j->pos, &j->x, &j->x, PE_ROPE_FORWARD,
                             &j->opt));
}

static void scale_part(void *p, size_t b, size_t e) {
    const djob *j = p;
    j->base->scale_f32(j->buf + b, e - b, 1.0f);
}

static void scale_call(void *p) {
    djob *j = p;
    bench_parallel(j->threads, j->n, 8.0 * (double)j->n, scale_part, j);
}

/* Largest |error| of y = rotation of x against long double, token t's pair
 * i at angle pos[t * stride + axis[i]] * w_i, every step-th token. */
static double error_of(const pe_freqs *f, const float *x, const float *y, const int64_t *pos,
                       int stride, const int *axis, int64_t step) {
    double worst = 0;
    for (int64_t t = 0; t < TOK; t += step) {
        long double c[PAIRS], s[PAIRS];
        for (int i = 0; i < PAIRS; i++) {
            const long double th = (long double)pos[t * stride + axis[i]] *
                                   ((long double)f->inv_freq[i] + (long double)f->inv_freq_lo[i]);
            c[i] = cosl(th);
            s[i] = sinl(th);
        }
        for (int h = 0; h < HEADS; h++) {
            const size_t row = ((size_t)t * HEADS + (size_t)h) * HD;
            for (int i = 0; i < PAIRS; i++) {
                const long double a = x[row + i], b = x[row + i + PAIRS];
                worst = fmax(worst, fabs((double)(y[row + i] - (a * c[i] - b * s[i]))));
                worst = fmax(worst, fabs((double)(y[row + i + PAIRS] - (a * s[i] + b * c[i]))));
            }
        }
    }
    return worst;
}

static void put(bench_result *r, const char *name, int threads, double sec, double base_sec,
                double spread, const char *baseline, double target, double err) {
    const double n = (double)TOK * HEADS * HD;
    snprintf(r->name, sizeof r->name, "%s%s", name, threads > 1 ? "_2t" : "");
    r->threads = threads;
    r->ns_per_elem = 1e9 * sec / n;
    r->gbps = 8.0 * n / sec / 1e9;
    snprintf(r->baseline, sizeof r->baseline, "%s", baseline);
    r->baseline_ns_per_elem = 1e9 * base_sec / n;
    r->ratio = sec / base_sec;
    r->target = target;
    r->max_abs_err = err;
    r->baseline_spread = spread;
}

int bench_cases_driver(const bench_opts *o, const bench_baselines *base, bench_result *res,
                       int max) {
    const size_t n = (size_t)TOK * HEADS * HD, bytes = n * 4;
    const int64_t step = o->quick ? 16 : 4; /* tokens checked for the error */
    float *x0 = aligned_alloc(64, bytes), *x = aligned_alloc(64, bytes);
    float *tc = aligned_alloc(64, (size_t)TOK * PAIRS * 4), *ts = aligned_alloc(64, (size_t)TOK * PAIRS * 4);
    int64_t *pos3 = malloc(sizeof(int64_t) * 3 * TOK), *pos1 = malloc(sizeof(int64_t) * TOK);
    pe_freqs *f = malloc(sizeof *f);
    int k = 0;
    if (!x0 || !x || !tc || !ts || !pos3 || !pos1 || !f || max < 4) {
        fprintf(stderr, "posenc bench: out of memory\n");
        k = -1;
        goto done;
    }
    pe_freqs_default(HD, 500000.0, f);
    bench_fill(x0, n, 0x2545F4914F6CDD1Dull, 1.0); /* deterministic values in [-1, 1) */
    int axis0[PAIRS], axis_m[PAIRS];
    const int64_t sections[3] = {16, 24, 24};
    for (int i = 0; i < PAIRS; i++) axis0[i] = 0;
    pe_mrope_slot_axes(HD, sections, PE_MROPE_BLOCKED, axis_m);
    const pe_rope_options one = pe_rope_options_default();
    double ta, tb, spread;
    int status = PE_OK;

    /* rope_table_4096: the table built once (as an engine does per batch) */
    {
        const pe_positions all = pe_positions_range(0);
        status = pe_rope_cos_sin(f, &all, TOK, tc, ts, PE_F32);
        pe_rope_table tb_ = pe_rope_table_default();
        tb_.rotary_dim = HD;
        tb_.rows = TOK;
        tb_.cos = tc;
        tb_.sin = ts;
        djob r = {f, pe_tensor_dense(x, PE_F32, TOK, HEADS, HD), one, all, &tb_, NULL, NULL,
                  base, x, n, 1, PE_OK};
        djob b = r;
        memcpy(x, x0, bytes);
        bench_measure(table_call, &r, scale_call, &b, o->quick, 1.15, &ta, &tb, &spread);
        memcpy(x, x0, bytes);
        table_call(&r);
        for (int64_t t = 0; t < TOK; t++) pos1[t] = t;
        put(&res[k++], "rope_table_4096", 1, ta, tb, spread, "scale_inplace_f32", 1.15,
            error_of(f, x0, x, pos1, 1, axis0, step));
        if (r.status != PE_OK) status = r.status;
    }
    /* mrope_inplace_4096(_2t): text, then an image grid */
    {
        int64_t t = 0;
        for (; t < TEXT; t++) pos3[3 * t] = pos3[3 * t + 1] = pos3[3 * t + 2] = t;
        for (int64_t r = 0; r < GH; r++)
            for (int64_t c = 0; c < GW; c++, t++) {
                pos3[3 * t] = TEXT;
                pos3[3 * t + 1] = TEXT + r;
                pos3[3 * t + 2] = TEXT + c;
            }
        for (int thr = 1; thr <= 2 && k < max; thr++) {
            djob r = {f, pe_tensor_dense(x, PE_F32, TOK, HEADS, HD), one, pe_positions_range(0),
                      NULL, pos3, sections, base, x, n, thr, PE_OK};
            r.opt.threads = thr;
            djob b = r;
            memcpy(x, x0, bytes);
            bench_measure(mrope_call, &r, rope_call, &b, o->quick, 1.15, &ta, &tb, &spread);
            memcpy(x, x0, bytes);
            mrope_call(&r);
            put(&res[k++], "mrope_inplace_4096", thr, ta, tb, spread, "rope_inplace_same_shape", 1.15,
                error_of(f, x0, x, pos3, 3, axis_m, step));
            if (r.status != PE_OK) status = r.status;
            if (b.status != PE_OK) status = b.status;
        }
    }
    /* rope_varlen_4096: 8 packed sequences, each continuing a cache */
    if (k < max) {
        int32_t cu[NSEQ + 1];
        int64_t starts[NSEQ];
        for (int s = 0; s <= NSEQ; s++) cu[s] = s * (TOK / NSEQ);
        for (int s = 0; s < NSEQ; s++) starts[s] = 1000 * s + 17;
        for (int s = 0; s < NSEQ; s++)
            for (int64_t t = cu[s]; t < cu[s + 1]; t++) pos1[t] = starts[s] + (t - cu[s]);
        djob r = {f, pe_tensor_dense(x, PE_F32, TOK, HEADS, HD), one,
                  pe_positions_varlen(cu, NSEQ, starts), NULL, NULL, NULL, base, x, n, 1, PE_OK};
        djob b = r;
        memcpy(x, x0, bytes);
        bench_measure(rope_call, &r, scale_call, &b, o->quick, 1.15, &ta, &tb, &spread);
        memcpy(x, x0, bytes);
        rope_call(&r);
        put(&res[k++], "rope_varlen_4096", 1, ta, tb, spread, "scale_inplace_f32", 1.15,
            error_of(f, x0, x, pos1, 1, axis0, step));
        if (r.status != PE_OK) status = r.status;
    }
    if (status != PE_OK) {
        fprintf(stderr, "posenc bench: %s (%s)\n", pe_strerror(status), pe_last_error());
        k = -1;
    }
done:
    free(x0), free(x), free(tc), free(ts), free(pos3), free(pos1), free(f);
    return k;
}
