/*
 * cases.c — the cases of `posenc bench`, each with its baseline and target
 * (ratio = posenc time / baseline time), and the error of each case's
 * output against the exact result (long double angles and products).
 *
 *   rope_inplace_4096     4096 tokens x 32 heads x 128, f32, half-split,
 *                         in place            vs x *= c in place   <= 1.10
 *   rope_outofplace_4096  the same into a second buffer
 *                                             vs streaming copy     <= 1.15
 *   rope_inplace_512      512 tokens (8 MiB, cache-resident), cos/sin in
 *                         the call            vs x *= c in place   <= 1.20
 *   rope_decode_1         1 token (16 KiB) at position 131071
 *                                             vs x *= c in place   <= 2.0
 *   cossin_table_32768    exact f32 cos/sin, 32768 positions x 64 pairs
 *                                             vs libm sinf/cosf on
 *                                             float angles          <= 0.33
 *   ..._2t                the same on 2 threads (a pe_pool's, kept between
 *                         calls) against the baseline on 2 threads
 *                         (targets as above; decode: none)
 *   rope_inplace_4096_f16, _bf16  16-bit storage vs x *= c in the same
 *                         16-bit buffer                             <= 1.20
 *   rope_inplace_4096_scalar  the naive scalar reference kernels on the
 *                         first case (no target)
 *   rope_inplace_4096_inter, rope_inplace_512_inter (and _2t)
 *                         the same two in the interleaved layout (pairs
 *                         2i, 2i + 1: Meta's Llama, llama.cpp NORM)
 *                                             vs x *= c in place   <= 1.10, 1.20
 *   rope_inplace_4096_f16_inter  f16, interleaved                  <= 1.20
 *   rope_shift_4096       pe_rope_shift of the first case's tensor in place,
 *                         per-token deltas t - 2048 (context shifting)
 *                                             vs x *= c in place   <= 1.15
 * Frequencies: head_dim 128, base 500000 (Llama 3); positions 0..T-1.
 */
#include "bench.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_cases(const bench_opts *opts, const bench_baselines *base,
                bench_result *res, int max, double *scale_f32_sec);

enum { TOK = 4096, HEADS = 32, HD = 128, TOK_SMALL = 512, CS_POS = 32768, PAIRS = HD / 2 };
#define DECODE_POS 131071

/* What a timed function needs; one struct serves every case. */
typedef struct {
    const pe_freqs *freqs;
    pe_positions pos;
    pe_tensor in, out;
    pe_rope_options opt;
    const bench_baselines *base;
    void *buf;       /* baseline: the buffer scaled in place, or copied into */
    const void *src; /* baseline copy: source */
    size_t n;        /* elements */
    pe_dtype dt;
    int threads;
    float *c, *s;    /* cos/sin tables */
    const float *wf; /* float frequencies for the naive loop */
    int64_t count;
    int status;
    const int64_t *deltas; /* rope_shift: per-token deltas */
    int interleaved;       /* pairs (2i, 2i + 1), Meta / llama.cpp NORM; else half-split */
} job;

static void rope_call(void *p) {
    job *j = p;
    const int st = pe_rope_apply_ex(j->freqs, j->interleaved ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF,
                                    &j->pos, &j->in, &j->out, PE_ROPE_FORWARD, &j->opt);
    if (st != PE_OK) j->status = st;
}

static void shift_call(void *p) {
    job *j = p;
    const int st = pe_rope_shift(j->freqs, PE_ROPE_HALF, j->deltas, 0, &j->in, &j->out, &j->opt);
    if (st != PE_OK) j->status = st;
}

static void cossin_call(void *p) {
    job *j = p;
    const int st = pe_rope_cos_sin_ex(j->freqs, &j->pos, j->count, j->c, j->s, PE_F32, &j->opt);
    if (st != PE_OK) j->status = st;
}

static void scale_part(void *p, size_t b, size_t e) {
    const job *j = p;
    if (j->dt == PE_F32) j->base->scale_f32((float *)j->buf + b, e - b, 1.0f);
    else if (j->dt == PE_F16) j->base->scale_f16((uint16_t *)j->buf + b, e - b, 1.0f);
    else j->base->scale_bf16((uint16_t *)j->buf + b, e - b, 1.0f);
}

static void scale_call(void *p) {
    job *j = p;
    bench_parallel(j->threads, j->n, 2.0 * (double)(j->n * pe_dtype_size(j->dt)), scale_part, j);
}

static void copy_part(void *p, size_t b, size_t e) {
    const job *j = p;
    j->base->copy_nt((float *)j->buf + b, (const float *)j->src + b, e - b);
}

static void copy_call(void *p) {
    job *j = p;
    bench_parallel(j->threads, j->n, 2.0 * 4.0 * (double)j->n, copy_part, j);
}

/* The loop a programmer writes first: float angle, libm sinf/cosf. */
static void naive_part(void *p, size_t b, size_t e) {
    const job *j = p;
    for (size_t t = b; t < e; t++)
        for (int i = 0; i < PAIRS; i++) {
            const float a = (float)t * j->wf[i];
            j->c[t * PAIRS + i] = cosf(a);
            j->s[t * PAIRS + i] = sinf(a);
        }
}

static void naive_call(void *p) {
    job *j = p;
    bench_parallel(j->threads, (size_t)j->count, 8.0 * PAIRS * (double)j->count, naive_part, j);
}

/* ------------------------------------------------------------ errors */

static double elem(const void *base, size_t i, pe_dtype dt) {
    if (dt == PE_F32) return ((const float *)base)[i];
    const uint16_t h = ((const uint16_t *)base)[i];
    if (dt == PE_BF16) {
        const uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    const int e = (h >> 10) & 31, m = h & 1023;
    const double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return (h & 0x8000) ? -v : v;
}

/* Max |y - R(p) x| over every `step`-th token of dense (T, HEADS, HD)
 * tensors, half-split (pair i: elements i, i + HD/2) or interleaved (2i,
 * 2i + 1), token t at position p0 + t, exact angle in long double (p <
 * 2^17: angle error < 1e-14). */
static double rope_error_layout(const pe_freqs *f, int interleaved, int64_t p0, int64_t T,
                                const void *x, const void *y, pe_dtype dt, int64_t step) {
    double worst = 0;
    for (int64_t t = 0; t < T; t += step) {
        long double c[PAIRS], s[PAIRS];
        for (int i = 0; i < PAIRS; i++) {
            const long double th = (long double)(p0 + t) *
                                   ((long double)f->inv_freq[i] + (long double)f->inv_freq_lo[i]);
            c[i] = cosl(th);
            s[i] = sinl(th);
        }
        for (int h = 0; h < HEADS; h++) {
            const size_t row = ((size_t)t * HEADS + (size_t)h) * HD;
            for (int i = 0; i < PAIRS; i++) {
                const size_t ia = row + (interleaved ? 2 * (size_t)i : (size_t)i);
                const size_t ib = interleaved ? ia + 1 : ia + PAIRS;
                const long double a = elem(x, ia, dt), b = elem(x, ib, dt);
                const double ea = fabs((double)((long double)elem(y, ia, dt) - (a * c[i] - b * s[i])));
                const double eb = fabs((double)((long double)elem(y, ib, dt) - (a * s[i] + b * c[i])));
                worst = fmax(worst, fmax(ea, eb));
            }
        }
    }
    return worst;
}

static double rope_error(const pe_freqs *f, int64_t p0, int64_t T, const void *x, const void *y,
                         pe_dtype dt, int64_t step) {
    return rope_error_layout(f, 0, p0, T, x, y, dt, step);
}

static double cossin_error(const pe_freqs *f, const float *c, const float *s, int64_t count,
                           int64_t step) {
    double worst = 0;
    for (int64_t t = 0; t < count; t += step)
        for (int i = 0; i < PAIRS; i++) {
            const long double th = (long double)t * ((long double)f->inv_freq[i] + (long double)f->inv_freq_lo[i]);
            worst = fmax(worst, fabs((double)((long double)c[t * PAIRS + i] - cosl(th))));
            worst = fmax(worst, fabs((double)((long double)s[t * PAIRS + i] - sinl(th))));
        }
    return worst;
}

/* ------------------------------------------------------------ cases */

static void add(bench_result *r, const char *name, int threads, double sec, double base_sec, double spread,
                const char *baseline, double elems, double bytes, double target, double err) {
    snprintf(r->name, sizeof r->name, "%s%s", name, threads > 1 ? "_2t" : "");
    r->threads = threads;
    r->ns_per_elem = 1e9 * sec / elems;
    r->gbps = bytes / sec / 1e9;
    snprintf(r->baseline, sizeof r->baseline, "%s", baseline);
    r->baseline_ns_per_elem = 1e9 * base_sec / elems;
    r->ratio = sec / base_sec;
    r->target = target;
    r->max_abs_err = err;
    r->baseline_spread = spread;
}

static uint16_t to16(float v, pe_dtype dt) {
    /* the test inputs only: round to nearest even through the library's own
     * rotation by angle 0 would be circular, so do it here */
    uint32_t u;
    memcpy(&u, &v, 4);
    if (dt == PE_BF16) return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
    const double a = fabs(v); /* |v| in [2^-14, 1]: normal f16 */
    int e;
    frexp(a, &e);
    double m = nearbyint(ldexp(a, 11 - e)); /* 1024..2048, ties to even */
    if (m == 2048) m = 1024, e++;
    if (a < 0x1p-14) return (uint16_t)((v < 0 ? 0x8000 : 0) | (uint16_t)nearbyint(ldexp(a, 24)));
    return (uint16_t)((v < 0 ? 0x8000 : 0) | ((e + 14) << 10) | (int)(m - 1024));
}

int bench_cases(const bench_opts *o, const bench_baselines *base, bench_result *res, int max,
                double *scale_f32_sec) {
    const size_t n = (size_t)TOK * HEADS * HD, bytes = n * 4;
    const int64_t step = o->quick ? 8 : 1; /* tokens checked for the error */
    float *x0 = aligned_alloc(64, bytes), *x = aligned_alloc(64, bytes), *y = aligned_alloc(64, bytes);
    uint16_t *h0 = aligned_alloc(64, n * 2), *h = aligned_alloc(64, n * 2);
    float *c = aligned_alloc(64, (size_t)CS_POS * PAIRS * 4), *s = aligned_alloc(64, (size_t)CS_POS * PAIRS * 4);
    pe_freqs *f = malloc(sizeof *f);
    int k = 0, status = PE_OK;
    pe_pool *pool = NULL; /* the _2t cases' workers */
    if (!x0 || !x || !y || !h0 || !h || !c || !s || !f || max < 20) {
        fprintf(stderr, "posenc bench: out of memory\n");
        k = -1;
        goto done;
    }
    pe_freqs_default(HD, 500000.0, f);
    bench_fill(x0, n, 0x9E3779B97F4A7C15ull, 1.0); /* deterministic values in [-1, 1) */
    memset(y, 0, bytes);
    memset(c, 0, (size_t)CS_POS * PAIRS * 4), memset(s, 0, (size_t)CS_POS * PAIRS * 4);
    const pe_rope_options one = pe_rope_options_default();
    if (pe_pool_create(2, &pool) != PE_OK) pool = NULL; /* then threads per call */
    double ta, tb, spread;
    for (int thr = 1; thr <= 2; thr++) {
        job r = {f, pe_positions_range(0), pe_tensor_dense(x, PE_F32, TOK, HEADS, HD),
                 pe_tensor_dense(x, PE_F32, TOK, HEADS, HD), one, base, x, NULL, n, PE_F32, thr,
                 NULL, NULL, NULL, 0, PE_OK, NULL, 0};
        r.opt.threads = thr;
        /* 2 threads on a pool, as an engine keeps its workers: no thread
         * start per call (issue 31.2; the baseline's threads still start
         * per call, bench_parallel) */
        if (thr > 1 && pool != NULL) r.opt.pool = pool;
        job b = r;
        /* in place, 4096 tokens */
        memcpy(x, x0, bytes);
        bench_measure(rope_call, &r, scale_call, &b, o->quick, 1.10, &ta, &tb, &spread);
        if (thr == 1) *scale_f32_sec = tb;
        memcpy(x, x0, bytes);
        rope_call(&r);
        add(&res[k++], "rope_inplace_4096", thr, ta, tb, spread, "scale_inplace_f32", (double)n, 2.0 * (double)bytes,
            1.10, rope_error(f, 0, TOK, x0, x, PE_F32, step));
        if (thr == 1) { /* the naive scalar reference on the same case */
            char saved[16];
            snprintf(saved, sizeof saved, "%s", pe_kernels_name());
            pe_kernels_select("scalar");
            const bench_opts few = {1, 0};
            bench_measure(rope_call, &r, scale_call, &b, few.quick, 0, &ta, &tb, &spread);
            memcpy(x, x0, bytes);
            rope_call(&r);
            add(&res[k++], "rope_inplace_4096_scalar", 1, ta, tb, spread, "scale_inplace_f32", (double)n,
                2.0 * (double)bytes, 0, rope_error(f, 0, TOK, x0, x, PE_F32, step));
            pe_kernels_select(saved);
        }
        /* out of place: x0 -> y */
        r.in = pe_tensor_dense(x0, PE_F32, TOK, HEADS, HD);
        r.out = pe_tensor_dense(y, PE_F32, TOK, HEADS, HD);
        b.buf = y, b.src = x0;
        bench_measure(rope_call, &r, copy_call, &b, o->quick, 1.15, &ta, &tb, &spread);
        rope_call(&r); /* the baseline ran last: y holds a copy */
        add(&res[k++], "rope_outofplace_4096", thr, ta, tb, spread, "copy_nontemporal_f32", (double)n,
            2.0 * (double)bytes, 1.15, rope_error(f, 0, TOK, x0, y, PE_F32, step));
        /* in place, 512 tokens (8 MiB) */
        const size_t ns = (size_t)TOK_SMALL * HEADS * HD;
        r.in = r.out = pe_tensor_dense(x, PE_F32, TOK_SMALL, HEADS, HD);
        b.buf = x, b.n = ns;
        bench_measure(rope_call, &r, scale_call, &b, o->quick, 1.20, &ta, &tb, &spread);
        memcpy(x, x0, ns * 4);
        rope_call(&r);
        add(&res[k++], "rope_inplace_512", thr, ta, tb, spread, "scale_inplace_f32", (double)ns, 8.0 * (double)ns,
            1.20, rope_error(f, 0, TOK_SMALL, x0, x, PE_F32, 1));
        /* the interleaved layout (Meta's Llama code, llama.cpp's NORM: most
         * GGUF models on CPU), 4096 and 512 tokens in place, same targets */
        r.interleaved = 1;
        r.in = r.out = pe_tensor_dense(x, PE_F32, TOK, HEADS, HD);
        b.n = n;
        memcpy(x, x0, bytes);
        bench_measure(rope_call, &r, scale_call, &b, o->quick, 1.10, &ta, &tb, &spread);
        memcpy(x, x0, bytes);
        rope_call(&r);
        add(&res[k++], "rope_inplace_4096_inter", thr, ta, tb, spread, "scale_inplace_f32", (double)n,
            2.0 * (double)bytes, 1.10, rope_error_layout(f, 1, 0, TOK, x0, x, PE_F32, step));
        r.in = r.out = pe_tensor_dense(x, PE_F32, TOK_SMALL, HEADS, HD);
        b.n = ns;
        bench_measure(rope_call, &r, scale_call, &b, o->quick, 1.20, &ta, &tb, &spread);
        memcpy(x, x0, ns * 4);
        rope_call(&r);
        add(&res[k++], "rope_inplace_512_inter", thr, ta, tb, spread, "scale_inplace_f32", (double)ns,
            8.0 * (double)ns, 1.20, rope_error_layout(f, 1, 0, TOK_SMALL, x0, x, PE_F32, 1));
        r.interleaved = 0;
        /* decode: one token at position 131071 */
        const size_t nd = (size_t)HEADS * HD;
        r.in = r.out = pe_tensor_dense(x, PE_F32, 1, HEADS, HD);
        r.pos = pe_positions_range(DECODE_POS);
        b.n = nd;
        bench_measure(rope_call, &r, scale_call, &b, o->quick, (thr == 1 ? 2.0 : 0), &ta, &tb, &spread);
        memcpy(x, x0, nd * 4);
        rope_call(&r);
        add(&res[k++], "rope_decode_1", thr, ta, tb, spread, "scale_inplace_f32", (double)nd, 8.0 * (double)nd,
            thr == 1 ? 2.0 : 0, rope_error(f, DECODE_POS, 1, x0, x, PE_F32, 1));
        /* exact cos/sin table */
        float wf[PAIRS];
        for (int i = 0; i < PAIRS; i++) wf[i] = (float)f->inv_freq[i];
        r.pos = pe_positions_range(0);
        r.c = b.c = c, r.s = b.s = s, r.count = b.count = CS_POS, b.wf = wf;
        bench_measure(cossin_call, &r, naive_call, &b, o->quick, 0.33, &ta, &tb, &spread);
        cossin_call(&r);
        const double pairs = (double)CS_POS * PAIRS;
        add(&res[k++], "cossin_table_32768", thr, ta, tb, spread, "libm_sinf_cosf_f32", pairs, 8.0 * pairs, 0.33,
            cossin_error(f, c, s, CS_POS, step));
        if (r.status != PE_OK) status = r.status;
    }
    /* key re-rotation in place: token t of x0 moved by t - 2048, so the
     * result is x0 rotated at position t - 2048 (rope_error with p0 = -2048) */
    {
        int64_t *del = malloc(TOK * sizeof *del);
        if (del == NULL) {
            fprintf(stderr, "posenc bench: out of memory\n");
            k = -1;
            goto done;
        }
        for (int64_t t = 0; t < TOK; t++) del[t] = t - 2048;
        job r = {f, pe_positions_range(0), pe_tensor_dense(x, PE_F32, TOK, HEADS, HD),
                 pe_tensor_dense(x, PE_F32, TOK, HEADS, HD), one, base, x, NULL, n, PE_F32, 1,
                 NULL, NULL, NULL, 0, PE_OK, del, 0};
        job b = r;
        memcpy(x, x0, bytes);
        bench_measure(shift_call, &r, scale_call, &b, o->quick, 1.15, &ta, &tb, &spread);
        memcpy(x, x0, bytes);
        shift_call(&r);
        add(&res[k++], "rope_shift_4096", 1, ta, tb, spread, "scale_inplace_f32", (double)n,
            2.0 * (double)bytes, 1.15, rope_error(f, -2048, TOK, x0, x, PE_F32, step));
        free(del);
        if (r.status != PE_OK) status = r.status;
    }
    /* 16-bit storage, in place, 4096 tokens: f16 and bf16 half-split, f16
     * interleaved */
    for (int v = 0; v < 3; v++) {
        const int bf = v == 1, inter = v == 2;
        const pe_dtype dt = bf ? PE_BF16 : PE_F16;
        for (size_t i = 0; i < n; i++) h0[i] = to16(x0[i], dt);
        job r = {f, pe_positions_range(0), pe_tensor_dense(h, dt, TOK, HEADS, HD),
                 pe_tensor_dense(h, dt, TOK, HEADS, HD), one, base, h, NULL, n, dt, 1,
                 NULL, NULL, NULL, 0, PE_OK, NULL, inter};
        job b = r;
        memcpy(h, h0, n * 2);
        bench_measure(rope_call, &r, scale_call, &b, o->quick, 1.20, &ta, &tb, &spread);
        memcpy(h, h0, n * 2);
        rope_call(&r);
        add(&res[k++], inter ? "rope_inplace_4096_f16_inter" : bf ? "rope_inplace_4096_bf16" : "rope_inplace_4096_f16",
            1, ta, tb, spread, bf ? "scale_inplace_bf16" : "scale_inplace_f16", (double)n, 4.0 * (double)n,
            1.20, rope_error_layout(f, inter, 0, TOK, h0, h, dt, step));
        if (r.status != PE_OK) status = r.status;
    }
    if (status != PE_OK) {
        fprintf(stderr, "posenc bench: error: %s: %s\n", pe_strerror(status), pe_last_error());
        k = -1;
    }
done:
    pe_pool_destroy(pool);
    free(x0), free(x), free(y), free(h0), free(h), free(c), free(s), free(f);
    return k;
}
