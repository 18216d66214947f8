/*
 * test_fused.c — pe_rope_fused_qkv against an independent long double
 * reference of RMSNorm + rotation + store (every output dtype, GQA, partial
 * rotary, both layouts, in place and out, int8 scales), and its
 * invariances: thread counts 1/2/3 and the vector kernel sets bit for bit,
 * the scalar set within the documented bound, and equality with the
 * separate calls it replaces (pe_rope_apply_qk + rounding) when no norm is
 * asked for.
 */
#include "runner.h"

#include <float.h>
#include <stdlib.h>

static const char *const SETS[] = {"scalar", "avx2", "avx512", "neon"};
enum { N_SETS = 4 };

/* ------------------------------------------------------------ reference */

/* f16 / bf16 bits to double, written independently of src/kernels/half.c. */
static double f16_value(uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31) return m ? NAN : s * INFINITY;
    if (e == 0) return s * ldexp(m, -24);
    return s * ldexp(1024 + m, e - 25);
}

static double bf16_value(uint16_t h) {
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The nearest f16 to x, ties to even, by exhaustive search of the two
 * neighbours (independent of the library's bit manipulation). */
static uint16_t f16_nearest(double x) {
    if (x != x) return 0x7E00;
    const uint16_t sign = signbit(x) ? 0x8000 : 0;
    const double a = fabs(x);
    if (a >= 65520.0) return sign | 0x7C00;
    uint16_t lo = 0;
    for (uint16_t b = 0x4000; b; b >>= 1) /* largest f16 bits with value <= a */
        if ((uint16_t)(lo | b) < 0x7C00 && f16_value((uint16_t)(lo | b)) <= a) lo |= b;
    const double vl = f16_value(lo), vh = f16_value((uint16_t)(lo + 1));
    uint16_t r = lo;
    if (a - vl > vh - a || (a - vl == vh - a && (lo & 1))) r = (uint16_t)(lo + 1);
    return sign | r;
}

typedef struct {
    int64_t T, Hq, Hkv, D, d;
    pe_rope_layout layout;
    int qnorm, knorm, gemma;
    pe_dtype qdt;
    int q_inplace;
    pe_dtype kdt, vdt;
    double A;
    int ids; /* explicit positions with gaps */
} cfg;

/* Buffers of one configuration. */
typedef struct {
    float *qkv, *qkv0;
    void *qout, *kc, *vc;
    float *ks, *vs, *qw, *kw;
    int64_t *pos;
    pe_freqs f;
    pe_fused_qkv_params p;
    pe_positions positions;
} bufs;

static void setup(const cfg *c, uint64_t seed, bufs *b) {
    pe_rng rng = {seed};
    const int64_t H = c->Hq + 2 * c->Hkv, n = c->T * H * c->D;
    b->qkv = malloc((size_t)n * 4);
    b->qkv0 = malloc((size_t)n * 4);
    for (int64_t i = 0; i < n; i++) {
        /* heads of different sizes: the norm has something to do */
        const double scale = 0.05 + (double)((i / c->D) % 7);
        b->qkv0[i] = (float)(pe_rng_uniform(&rng, -1, 1) * scale);
    }
    memcpy(b->qkv, b->qkv0, (size_t)n * 4);
    const size_t qn = (size_t)(c->T * c->Hq * c->D), kn = (size_t)(c->T * c->Hkv * c->D);
    b->qout = calloc(qn, 4);
    b->kc = calloc(kn, 4);
    b->vc = calloc(kn, 4);
    b->ks = calloc((size_t)(c->T * c->Hkv) + 1, 4);
    b->vs = calloc((size_t)(c->T * c->Hkv) + 1, 4);
    b->qw = malloc((size_t)c->D * 4);
    b->kw = malloc((size_t)c->D * 4);
    for (int64_t i = 0; i < c->D; i++) {
        b->qw[i] = (float)(c->gemma ? pe_rng_uniform(&rng, -0.5, 0.5) : pe_rng_uniform(&rng, 0.5, 1.5));
        b->kw[i] = (float)(c->gemma ? pe_rng_uniform(&rng, -0.5, 0.5) : pe_rng_uniform(&rng, 0.5, 1.5));
    }
    b->pos = malloc((size_t)(c->T + 1) * 8);
    int64_t p = 3;
    for (int64_t t = 0; t < c->T; t++) { /* runs of consecutive positions, then a jump */
        b->pos[t] = p;
        p += (t % 11 == 10) ? pe_rng_int(&rng, 2, 5000) : 1;
    }
    b->positions = c->ids ? pe_positions_list(b->pos) : pe_positions_range(17);
    CHECK_OK(pe_freqs_default(c->d, 10000.0, &b->f));
    b->f.attention_factor = c->A;
    pe_fused_qkv_params *q = &b->p;
    *q = pe_fused_qkv_params_default();
    CHECK_OK(pe_fused_qkv_split(b->qkv, c->T, c->Hq, c->Hkv, c->D, &q->q_in, &q->k_in, &q->v_in));
    q->q_out = c->q_inplace ? q->q_in : pe_tensor_dense(b->qout, c->qdt, c->T, c->Hq, c->D);
    q->k_cache = pe_tensor_dense(b->kc, c->kdt, c->T, c->Hkv, c->D);
    q->v_cache = pe_tensor_dense(b->vc, c->vdt, c->T, c->Hkv, c->D);
    if (c->kdt == PE_I8) q->k_scale = pe_tensor_dense(b->ks, PE_F32, c->T, c->Hkv, 1);
    if (c->vdt == PE_I8) q->v_scale = pe_tensor_dense(b->vs, PE_F32, c->T, c->Hkv, 1);
    q->q_norm_weight = c->qnorm ? b->qw : NULL;
    q->k_norm_weight = c->knorm ? b->kw : NULL;
    q->norm_eps = 1e-6;
    q->norm_weight = c->gemma ? PE_NORM_ONE_PLUS_WEIGHT : PE_NORM_WEIGHT;
}

static void teardown(bufs *b) {
    free(b->qkv), free(b->qkv0), free(b->qout), free(b->kc), free(b->vc);
    free(b->ks), free(b->vs), free(b->qw), free(b->kw), free(b->pos);
}

/* Exact norm + rotation of one head x (D floats) at position p: y (the
 * normalised head, long double) and r (rotated). */
static void ref_head(const cfg *c, const pe_freqs *f, const float *x, const float *w, int64_t p,
                     long double *y, long double *r) {
    const int64_t D = c->D, d = c->d;
    long double ms = 0;
    for (int64_t i = 0; i < D; i++) ms += (long double)x[i] * x[i];
    const long double inv = 1.0L / sqrtl(ms / D + 1e-6L);
    for (int64_t i = 0; i < D; i++)
        y[i] = w ? (long double)x[i] * inv * (c->gemma ? 1.0L + w[i] : (long double)w[i])
                 : (long double)x[i];
    for (int64_t i = 0; i < D; i++) r[i] = y[i];
    for (int64_t i = 0; i < d / 2; i++) {
        const int64_t a = c->layout == PE_ROPE_INTERLEAVED ? 2 * i : i;
        const int64_t b = c->layout == PE_ROPE_INTERLEAVED ? 2 * i + 1 : i + d / 2;
        const long double ang = (long double)p * ((long double)f->inv_freq[i] + f->inv_freq_lo[i]);
        const long double co = cosl(ang), si = sinl(ang);
        r[a] = c->A * (y[a] * co - y[b] * si);
        r[b] = c->A * (y[a] * si + y[b] * co);
    }
}

/* Tolerance of the f32 rotated element j (posenc.h): the rotation's bound
 * on the normalised f32 inputs plus the norm's rounding (r rounded to f32,
 * then two f32 products: within 3 * 2^-24 relative of each input, carried
 * through a rotation scaled by A). */
static double f32_tol(const cfg *c, const long double *y, const long double *r, int64_t j) {
    float yf[512];
    for (int64_t i = 0; i < c->D; i++) yf[i] = (float)y[i];
    const int inter = c->layout == PE_ROPE_INTERLEAVED;
    const int64_t partner = j >= c->d ? j : inter ? (j ^ 1) : (j + c->d / 2) % c->d;
    const double own = fabsl(y[j]), par = partner == j ? 0.0 : (double)fabsl(y[partner]);
    const double A = j >= c->d ? 1.0 : c->A;
    return pe_test_rope_row_bound(yf, j, c->d, inter, (double)r[j], c->A) +
           3 * 0x1p-24 * 1.001 * A * (own + par) + 1e-30;
}

static double stored(const void *base, pe_dtype dt, size_t i) {
    switch (dt) {
    case PE_F32: return ((const float *)base)[i];
    case PE_F16: return f16_value(((const uint16_t *)base)[i]);
    case PE_BF16: return bf16_value(((const uint16_t *)base)[i]);
    case PE_I8: return ((const int8_t *)base)[i];
    default: return NAN;
    }
}

/* Half an ulp of the 16-bit storage at |x| (plus the subnormal step). */
static double half_ulp16(pe_dtype dt, double x) {
    if (dt == PE_F16) return fabs(x) * 0x1p-11 + 0x1p-25;
    if (dt == PE_BF16) return fabs(x) * 0x1p-8 + 1e-38;
    return 0;
}

/* Every output of one call against the reference; returns failures. */
static void check_outputs(const cfg *c, const bufs *b, const char *set) {
    const int64_t H = c->Hq + 2 * c->Hkv, D = c->D;
    long double y[512], r[512];
    double worst = 0;
    for (int64_t t = 0; t < c->T; t++) {
        const int64_t p = c->ids ? b->pos[t] : 17 + t;
        for (int64_t h = 0; h < H; h++) {
            const float *x = b->qkv0 + (t * H + h) * D;
            const int is_q = h < c->Hq, is_k = !is_q && h < c->Hq + c->Hkv;
            const int64_t kh = is_q ? h : is_k ? h - c->Hq : h - c->Hq - c->Hkv;
            if (is_q || is_k) {
                const float *w = is_q ? (c->qnorm ? b->qw : NULL) : (c->knorm ? b->kw : NULL);
                ref_head(c, &b->f, x, w, p, y, r);
            } else {
                for (int64_t i = 0; i < D; i++) y[i] = r[i] = x[i];
            }
            pe_dtype dt = is_q ? (c->q_inplace ? PE_F32 : c->qdt) : is_k ? c->kdt : c->vdt;
            const void *base = is_q ? (c->q_inplace ? (const void *)b->qkv : b->qout)
                                    : is_k ? b->kc : b->vc;
            const size_t row = is_q && c->q_inplace ? (size_t)((t * H + h) * D)
                                                    : (size_t)((t * (is_q ? c->Hq : c->Hkv) + kh) * D);
            double scale = 1;
            if (dt == PE_I8) {
                scale = (is_k ? b->ks : b->vs)[t * c->Hkv + kh];
                long double amax = 0;
                for (int64_t i = 0; i < D; i++) amax = fmaxl(amax, fabsl(r[i]));
                double tmax = 0;
                for (int64_t i = 0; i < D; i++) tmax = fmax(tmax, is_k || is_q ? f32_tol(c, y, r, i) : 0);
                CHECK_MSG(fabs(scale - (double)(amax / 127)) <= (tmax + 1e-7 * (double)amax) / 127 + 1e-30,
                          "%s: scale %g vs absmax/127 %g (t %lld head %lld)", set, scale,
                          (double)(amax / 127), (long long)t, (long long)h);
            }
            for (int64_t j = 0; j < D; j++) {
                const double got = stored(base, dt, row + (size_t)j) * scale;
                const double exact = (double)r[j];
                double tol = (is_q || is_k) ? f32_tol(c, y, r, j) : 0;
                if (dt == PE_F16 || dt == PE_BF16) tol += half_ulp16(dt, exact) * 1.0001;
                if (dt == PE_I8) tol += scale * (0.5 + 0x1p-16);
                const double e = fabs(got - exact);
                if (e / (tol + 1e-300) > worst) worst = e / (tol + 1e-300);
                if (!(e <= tol)) {
                    CHECK_MSG(0, "%s: t %lld head %lld elem %lld (%s): got %.9g exact %.9g tol %.3g", set,
                              (long long)t, (long long)h, (long long)j, pe_dtype_name(dt), got,
                              exact, tol);
                    return;
                }
            }
        }
    }
}

static const cfg CONFIGS[] = {
    /* T  Hq Hkv D  d  layout              qn kn g  qdt      inpl kdt      vdt      A    ids */
    {37, 4, 2, 16, 16, PE_ROPE_HALF, 1, 1, 0, PE_F32, 1, PE_F16, PE_F16, 1.0, 0},
    {37, 4, 2, 16, 16, PE_ROPE_INTERLEAVED, 1, 1, 0, PE_F32, 0, PE_F32, PE_F32, 1.0, 1},
    {40, 6, 2, 20, 12, PE_ROPE_HALF, 1, 0, 1, PE_BF16, 0, PE_BF16, PE_I8, 1.25, 1},
    {40, 6, 3, 20, 12, PE_ROPE_INTERLEAVED, 0, 1, 1, PE_F16, 0, PE_I8, PE_BF16, 0.8, 0},
    {35, 8, 1, 128, 64, PE_ROPE_HALF, 0, 0, 0, PE_F32, 1, PE_I8, PE_I8, 1.0, 1},
    {33, 8, 2, 128, 128, PE_ROPE_HALF, 1, 1, 0, PE_F16, 0, PE_F16, PE_F32, 1.0, 0},
    {9, 3, 3, 34, 34, PE_ROPE_INTERLEAVED, 1, 1, 1, PE_F32, 0, PE_I8, PE_F16, 1.0, 1},
    {1, 32, 8, 128, 128, PE_ROPE_HALF, 1, 1, 0, PE_F32, 1, PE_F16, PE_F16, 1.0, 1},
};
enum { N_CONFIGS = sizeof CONFIGS / sizeof CONFIGS[0] };

TEST(fused_matches_long_double_reference) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (int ci = 0; ci < N_CONFIGS; ci++) {
            const cfg *c = &CONFIGS[ci];
            bufs b;
            setup(c, pe_test_seed() + (uint64_t)ci, &b);
            CHECK_OK(pe_rope_fused_qkv(&b.f, c->layout, &b.positions, &b.p));
            char what[48];
            snprintf(what, sizeof what, "%s config %d", SETS[si], ci);
            check_outputs(c, &b, what);
            teardown(&b);
        }
    }
    CHECK_OK(pe_kernels_select(saved));
}

/* Every output byte of one call, concatenated. */
static unsigned char *snapshot(const cfg *c, const bufs *b, size_t *len) {
    const size_t qn = (size_t)(c->T * (c->Hq + 2 * c->Hkv) * c->D) * 4;
    const size_t on = (size_t)(c->T * c->Hq * c->D) * 4, kn = (size_t)(c->T * c->Hkv * c->D) * 4;
    const size_t sn = (size_t)(c->T * c->Hkv) * 4;
    *len = qn + on + 2 * kn + 2 * sn;
    unsigned char *s = malloc(*len), *p = s;
    memcpy(p, b->qkv, qn), p += qn;
    memcpy(p, b->qout, on), p += on;
    memcpy(p, b->kc, kn), p += kn;
    memcpy(p, b->vc, kn), p += kn;
    memcpy(p, b->ks, sn), p += sn;
    memcpy(p, b->vs, sn);
    return s;
}

/* Threads 1, 2, 3 and every vector set give the same bytes; large enough
 * (about 10 MiB of traffic) that the call really splits. */
TEST(fused_threads_and_vector_sets_bit_identical) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    const cfg cs[] = {
        {1200, 16, 4, 128, 128, PE_ROPE_HALF, 1, 1, 0, PE_F32, 1, PE_F16, PE_F16, 1.0, 1},
        {1100, 12, 4, 96, 64, PE_ROPE_INTERLEAVED, 1, 0, 1, PE_BF16, 0, PE_I8, PE_I8, 1.1, 0},
    };
    for (int ci = 0; ci < 2; ci++) {
        unsigned char *ref = NULL;
        size_t ref_len = 0;
        for (int si = 1; si < N_SETS; si++) {
            if (pe_kernels_select(SETS[si]) != PE_OK) continue;
            for (int thr = 1; thr <= 3; thr++) {
                bufs b;
                setup(&cs[ci], 99 + (uint64_t)ci, &b);
                b.p.threads = thr;
                b.p.pool = pe_test_pool(thr); /* running workers: the call splits */
                CHECK_OK(pe_rope_fused_qkv(&b.f, cs[ci].layout, &b.positions, &b.p));
                size_t len;
                unsigned char *s = snapshot(&cs[ci], &b, &len);
                if (ref == NULL) {
                    ref = s, ref_len = len;
                    check_outputs(&cs[ci], &b, SETS[si]);
                } else {
                    CHECK_MSG(len == ref_len && memcmp(s, ref, len) == 0,
                              "config %d: %s with %d threads differs", ci, SETS[si], thr);
                    free(s);
                }
                teardown(&b);
            }
        }
        /* the scalar set: the same call threaded alike, within the bound */
        if (pe_kernels_select("scalar") == PE_OK) {
            unsigned char *one = NULL;
            size_t one_len = 0;
            for (int thr = 1; thr <= 3; thr += 2) {
                bufs b;
                setup(&cs[ci], 99 + (uint64_t)ci, &b);
                b.p.threads = thr;
                b.p.pool = pe_test_pool(thr); /* running workers: the call splits */
                CHECK_OK(pe_rope_fused_qkv(&b.f, cs[ci].layout, &b.positions, &b.p));
                size_t len;
                unsigned char *s = snapshot(&cs[ci], &b, &len);
                if (one == NULL) {
                    one = s, one_len = len;
                    check_outputs(&cs[ci], &b, "scalar");
                } else {
                    CHECK(len == one_len && memcmp(s, one, len) == 0);
                    free(s);
                }
                teardown(&b);
            }
            free(one);
        }
        free(ref);
    }
    CHECK_OK(pe_kernels_select(saved));
}

/* The outputs (q_out, k and v caches) of one call of configuration c
 * written into 64-byte aligned blocks `off` elements in, as one byte
 * string of *len bytes. */
static unsigned char *outputs_at(const cfg *c, uint64_t seed, int off, int threads,
                                 pe_store_policy stores, size_t *len) {
    const size_t qn = (size_t)(c->T * c->Hq * c->D), kn = (size_t)(c->T * c->Hkv * c->D);
    const size_t qb = qn * pe_dtype_size(c->qdt), kb = kn * pe_dtype_size(c->kdt),
                 vb = kn * pe_dtype_size(c->vdt);
    bufs b;
    setup(c, seed, &b);
    unsigned char *blk[3] = {aligned_alloc(64, qb + 64), aligned_alloc(64, kb + 64),
                             aligned_alloc(64, vb + 64)};
    CHECK(blk[0] && blk[1] && blk[2]);
    b.p.q_out.data = blk[0] + off * pe_dtype_size(c->qdt);
    b.p.k_cache.data = blk[1] + off * pe_dtype_size(c->kdt);
    b.p.v_cache.data = blk[2] + off * pe_dtype_size(c->vdt);
    b.p.threads = threads;
    b.p.pool = pe_test_pool(threads);
    b.p.stores = stores;
    CHECK_OK(pe_rope_fused_qkv(&b.f, c->layout, &b.positions, &b.p));
    unsigned char *s = malloc(qb + kb + vb);
    memcpy(s, b.p.q_out.data, qb);
    memcpy(s + qb, b.p.k_cache.data, kb);
    memcpy(s + qb + kb, b.p.v_cache.data, vb);
    *len = qb + kb + vb;
    free(blk[0]), free(blk[1]), free(blk[2]);
    teardown(&b);
    return s;
}

/* Streaming stores (p.stores) change where bytes go through the caches,
 * never the bytes: every set, threads 1 and 2, with q_out and the caches
 * 64-byte aligned (the non-temporal paths run) and one element off (they
 * fall back to plain stores), against PE_STORES_CACHED. Large enough
 * (about 2 MiB of input) for the side prefetch of the next token's rows. */
TEST(fused_streaming_stores_bit_identical) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    const cfg cs[] = {
        {300, 8, 2, 128, 128, PE_ROPE_HALF, 1, 1, 0, PE_F32, 0, PE_F16, PE_F32, 1.0, 0},
        {300, 8, 2, 96, 64, PE_ROPE_INTERLEAVED, 1, 1, 1, PE_BF16, 0, PE_BF16, PE_F16, 1.0, 1},
    };
    for (int ci = 0; ci < 2; ci++)
        for (int si = 0; si < N_SETS; si++) {
            if (pe_kernels_select(SETS[si]) != PE_OK) continue;
            for (int off = 0; off < 2; off++)
                for (int thr = 1; thr <= 2; thr++) {
                    size_t n0, n1;
                    unsigned char *cached = outputs_at(&cs[ci], 7, off, thr, PE_STORES_CACHED, &n0);
                    unsigned char *streamed =
                        outputs_at(&cs[ci], 7, off, thr, PE_STORES_STREAMING, &n1);
                    CHECK_MSG(n0 == n1 && memcmp(cached, streamed, n0) == 0,
                              "config %d, %s, offset %d, %d threads: streaming stores changed "
                              "the output",
                              ci, SETS[si], off, thr);
                    free(cached), free(streamed);
                }
        }
    CHECK_OK(pe_kernels_select(saved));
}

/* Without a norm the fused call is the separate calls it replaces, bit for
 * bit: pe_rope_apply_qk on f32 copies, then each value rounded to the
 * cache's storage (16-bit: nearest even, checked by an exhaustive search). */
TEST(fused_equals_separate_calls_without_norm) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        const cfg c = {70, 8, 2, 64, 48, PE_ROPE_HALF, 0, 0, 0, PE_F16, 0, PE_F16, PE_BF16, 1.0, 1};
        bufs b;
        setup(&c, 7, &b);
        CHECK_OK(pe_rope_fused_qkv(&b.f, c.layout, &b.positions, &b.p));
        const size_t qn = (size_t)(c.T * c.Hq * c.D), kn = (size_t)(c.T * c.Hkv * c.D);
        float *q = malloc(qn * 4), *k = malloc(kn * 4);
        pe_tensor qv = pe_tensor_dense(q, PE_F32, c.T, c.Hq, c.D);
        pe_tensor kv = pe_tensor_dense(k, PE_F32, c.T, c.Hkv, c.D);
        CHECK_OK(pe_rope_apply_qk(&b.f, c.layout, &b.positions, &b.p.q_in, &qv, &b.p.k_in, &kv,
                                  PE_ROPE_FORWARD, NULL));
        int bad = 0;
        for (size_t i = 0; i < qn && !bad; i++)
            bad = ((uint16_t *)b.qout)[i] != f16_nearest(q[i]);
        for (size_t i = 0; i < kn && !bad; i++)
            bad = ((uint16_t *)b.kc)[i] != f16_nearest(k[i]);
        /* v: the input rounded to bf16 (nearest even) */
        for (int64_t t = 0; t < c.T && !bad; t++)
            for (int64_t i = 0; i < c.Hkv * c.D && !bad; i++) {
                const float x = b.qkv0[t * (c.Hq + 2 * c.Hkv) * c.D + (c.Hq + c.Hkv) * c.D + i];
                const double got = bf16_value(((uint16_t *)b.vc)[t * c.Hkv * c.D + i]);
                const double ulp = ldexp(1.0, ilogb(x) - 7);
                bad = fabs(got - x) > ulp / 2 ||
                      (fabs(got - x) == ulp / 2 && (((uint16_t *)b.vc)[t * c.Hkv * c.D + i] & 1));
            }
        CHECK_MSG(!bad, "%s: fused differs from pe_rope_apply_qk + rounding", SETS[si]);
        free(q), free(k);
        teardown(&b);
    }
    CHECK_OK(pe_kernels_select(saved));
}

/* 16-bit stores of special values (v goes through unrotated): NaN stays
 * NaN, overflow is infinity, subnormals round to nearest even; int8 of a
 * zero head and of a head holding NaN. Every kernel set. */
TEST(fused_stores_special_values) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { D = 40 };
    static const float special[D] = {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, -1e9f,
                                     INFINITY, -INFINITY, 5.9604645e-8f, 2.9802322e-8f,
                                     2.9802326e-8f, 8.940697e-8f, 6.1035156e-5f, 6.1e-5f,
                                     1.0f + 0x1p-11f, 1.0f + 0x3p-11f, 3.3895314e38f,
                                     -3.389531e38f, 1e-40f, 0x1.0101p0f, 0x1.0081p0f,
                                     0x1.0180p0f, 0x1.0080p0f, 1.5f, -2.75f, 1e-3f, 1e3f,
                                     -7.0e-6f, 123.456f, NAN, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f,
                                     0.6f, 0.7f, 0.8f, 0.9f, 1.0f};
    pe_freqs f;
    CHECK_OK(pe_freqs_default(8, 10000.0, &f));
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (int bf = 0; bf < 2; bf++) {
            float qkv[3 * D];
            for (int i = 0; i < D; i++) qkv[i] = qkv[D + i] = 0.5f, qkv[2 * D + i] = special[i];
            uint16_t kc[D], vc[D];
            pe_fused_qkv_params p = pe_fused_qkv_params_default();
            CHECK_OK(pe_fused_qkv_split(qkv, 1, 1, 1, D, &p.q_in, &p.k_in, &p.v_in));
            p.q_out = p.q_in;
            p.k_cache = pe_tensor_dense(kc, bf ? PE_BF16 : PE_F16, 1, 1, D);
            p.v_cache = pe_tensor_dense(vc, bf ? PE_BF16 : PE_F16, 1, 1, D);
            const pe_positions pos = pe_positions_range(0);
            CHECK_OK(pe_rope_fused_qkv(&f, PE_ROPE_HALF, &pos, &p));
            for (int i = 0; i < D; i++) {
                const float x = special[i];
                if (x != x) {
                    CHECK_MSG(bf ? (vc[i] & 0x7F80) == 0x7F80 && (vc[i] & 0x7F)
                                 : (vc[i] & 0x7C00) == 0x7C00 && (vc[i] & 0x3FF),
                              "%s: NaN stored as %04x", SETS[si], vc[i]);
                    continue;
                }
                if (bf) {
                    uint32_t u;
                    memcpy(&u, &x, 4);
                    const uint16_t want = (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
                    CHECK_MSG(vc[i] == want, "%s: bf16 of %a is %04x, want %04x", SETS[si],
                              (double)x, vc[i], want);
                } else {
                    CHECK_MSG(vc[i] == f16_nearest(x), "%s: f16 of %a is %04x, want %04x",
                              SETS[si], (double)x, vc[i], f16_nearest(x));
                }
            }
        }
        /* int8: a zero head stores zeros and scale 0; NaN: zeros and NaN */
        float qkv[3 * 8] = {1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0,
                            1, -2, 0.5f, NAN, 0, 0, 0, 0};
        int8_t kc[8], vc[8];
        memset(kc, 55, 8), memset(vc, 55, 8);
        float ks = 9, vs = 9;
        pe_fused_qkv_params p = pe_fused_qkv_params_default();
        CHECK_OK(pe_fused_qkv_split(qkv, 1, 1, 1, 8, &p.q_in, &p.k_in, &p.v_in));
        p.q_out = p.q_in;
        p.k_cache = pe_tensor_dense(kc, PE_I8, 1, 1, 8);
        p.v_cache = pe_tensor_dense(vc, PE_I8, 1, 1, 8);
        p.k_scale = pe_tensor_dense(&ks, PE_F32, 1, 1, 1);
        p.v_scale = pe_tensor_dense(&vs, PE_F32, 1, 1, 1);
        const pe_positions pos = pe_positions_range(4);
        CHECK_OK(pe_rope_fused_qkv(&f, PE_ROPE_HALF, &pos, &p));
        CHECK(ks == 0.0f);
        CHECK(vs != vs);
        for (int i = 0; i < 8; i++) CHECK(kc[i] == 0 && vc[i] == 0);
    }
    CHECK_OK(pe_kernels_select(saved));
}

/* The int8 rule on values chosen so that every step is exact: absmax 127
 * gives s = 1, and x / s = x rounds half to even. */
TEST(fused_int8_rounds_half_to_even) {
    pe_freqs f;
    CHECK_OK(pe_freqs_default(2, 10000.0, &f));
    enum { D = 10 };
    const float v[D] = {127.0f, -127.0f, 2.5f, 3.5f, -2.5f, -0.5f, 0.5f, 1.49f, 100.5f, -126.5f};
    const int8_t want[D] = {127, -127, 2, 4, -2, 0, 0, 1, 100, -126};
    float qkv[3 * D] = {0};
    for (int i = 0; i < D; i++) qkv[2 * D + i] = v[i];
    int8_t kc[D], vc[D];
    float ks, vs;
    pe_fused_qkv_params p = pe_fused_qkv_params_default();
    CHECK_OK(pe_fused_qkv_split(qkv, 1, 1, 1, D, &p.q_in, &p.k_in, &p.v_in));
    p.q_out = p.q_in;
    p.k_cache = pe_tensor_dense(kc, PE_I8, 1, 1, D);
    p.v_cache = pe_tensor_dense(vc, PE_I8, 1, 1, D);
    p.k_scale = pe_tensor_dense(&ks, PE_F32, 1, 1, 1);
    p.v_scale = pe_tensor_dense(&vs, PE_F32, 1, 1, 1);
    const pe_positions pos = pe_positions_range(0);
    CHECK_OK(pe_rope_fused_qkv(&f, PE_ROPE_HALF, &pos, &p));
    CHECK(vs == 1.0f);
    for (int i = 0; i < D; i++) CHECK_MSG(vc[i] == want[i], "q(%g) = %d, want %d", v[i], vc[i], want[i]);
}

/* struct_size: a caller built against a later, larger struct that leaves
 * its new fields zero is read up to this version's fields (a set field is
 * refused: SIZE-2, test_errors_fused.c); one built against 0.2.0, before
 * `stores`, gets the default for it whatever lies past its struct; the
 * views of an empty call write nothing. */
TEST(fused_struct_size_and_empty_calls) {
    pe_freqs f;
    CHECK_OK(pe_freqs_default(8, 10000.0, &f));
    struct {
        pe_fused_qkv_params p;
        double later_field;
    } big;
    memset(&big, 0, sizeof big);
    big.p = pe_fused_qkv_params_default();
    big.p.struct_size = sizeof big;
    big.later_field = 0;
    float qkv[3 * 8];
    for (int i = 0; i < 24; i++) qkv[i] = (float)i;
    float kc[8], vc[8];
    CHECK_OK(pe_fused_qkv_split(qkv, 1, 1, 1, 8, &big.p.q_in, &big.p.k_in, &big.p.v_in));
    big.p.q_out = big.p.q_in;
    big.p.k_cache = pe_tensor_dense(kc, PE_F32, 1, 1, 8);
    big.p.v_cache = pe_tensor_dense(vc, PE_F32, 1, 1, 8);
    const pe_positions pos = pe_positions_range(0);
    CHECK_OK(pe_rope_fused_qkv(&f, PE_ROPE_HALF, &pos, &big.p));
    for (int i = 0; i < 8; i++) CHECK(vc[i] == (float)(16 + i) && kc[i] == (float)(8 + i));
    /* a 0.2.0 caller: struct_size through `threads`; stores is not read */
    for (int i = 0; i < 24; i++) qkv[i] = (float)i;
    big.p.struct_size = offsetof(pe_fused_qkv_params, threads) + sizeof(int);
    big.p.stores = (pe_store_policy)7;
    CHECK_OK(pe_rope_fused_qkv(&f, PE_ROPE_HALF, &pos, &big.p));
    for (int i = 0; i < 8; i++) CHECK(vc[i] == (float)(16 + i) && kc[i] == (float)(8 + i));
    /* zero tokens: nothing read or written */
    pe_fused_qkv_params e = pe_fused_qkv_params_default();
    CHECK_OK(pe_fused_qkv_split(NULL, 0, 4, 2, 8, &e.q_in, &e.k_in, &e.v_in));
    e.q_out = e.q_in;
    e.k_cache = pe_tensor_dense(NULL, PE_F16, 0, 2, 8);
    e.v_cache = pe_tensor_dense(NULL, PE_F16, 0, 2, 8);
    CHECK_OK(pe_rope_fused_qkv(&f, PE_ROPE_HALF, &pos, &e));
}

/* The definition (docs/FUSED.md), re-derived independently: r is the
 * float nearest 1/sqrt(mean(x^2) + eps) (long double here), then
 * y = fl32(fl32(x r) w') in float arithmetic, as Hugging Face's
 * Qwen3RMSNorm / Gemma3RMSNorm scale in float32. The library's r comes
 * from a double sum: the two roundings of r to f32 differ only when the
 * exact value lies within ~1e-15 relative of a midpoint between floats,
 * which these few heads do not hit. got: q rows then k rows; rotary_dim 2,
 * so elements past the first pair are the normalised values. */
static void norm_matches_float32_formula(const cfg *c, const bufs *b, const float *got) {
    const int64_t H = c->Hq + 2 * c->Hkv, D = c->D;
    int bad = 0;
    for (int64_t t = 0; t < c->T; t++)
        for (int64_t h = 0; h < c->Hq + c->Hkv; h++) {
            const float *x = b->qkv0 + (t * H + h) * D;
            const float *w = h < c->Hq ? b->qw : b->kw;
            long double ms = 0;
            for (int64_t i = 0; i < D; i++) ms += (long double)x[i] * x[i];
            const float r = (float)(1.0L / sqrtl(ms / D + 1e-6L));
            const float *y = h < c->Hq ? got + (t * c->Hq + h) * D
                                       : got + c->T * c->Hq * D + (t * c->Hkv + h - c->Hq) * D;
            for (int64_t i = 2; i < D; i++) {
                const float wi = c->gemma ? 1.0f + w[i] : w[i];
                const float xr = x[i] * r;
                const float want = xr * wi;
                if (memcmp(&want, &y[i], 4) != 0) bad++;
            }
        }
    CHECK_MSG(bad == 0, "%d normalised values differ from fl32(fl32(x r) w)", bad);
}

/* The norm is one definition on every set, the scalar one included: with
 * rotary_dim 2 the elements past the first pair are the normalised values
 * themselves, which must agree bit for bit (head counts and head_dim chosen
 * to leave partial vector blocks and a group of heads short). */
TEST(fused_norm_bit_identical_on_every_set) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    /* 70 q heads: past the AVX-512 norm's block of 64 heads; head_dim 45
     * (two whole lines of 16, then 8 + 5), 128 (lines only) and 24 (a line
     * and a block of 8): the norm's loop over lines and each tail */
    static const int dims[] = {45, 128, 24};
    for (int run = 0; run < 12; run++) {
        const int gemma = run & 1, many = (run >> 1) & 1, D = dims[run / 4];
        const cfg c = {5, many ? 70 : 7, many ? 9 : 3, D, 2, PE_ROPE_HALF, 1, 1, gemma, PE_F32, 0,
                       PE_F32, PE_F32, 1.0, 0};
        float *ref = NULL;
        const size_t qn = (size_t)(c.T * c.Hq * c.D), kn = (size_t)(c.T * c.Hkv * c.D);
        for (int si = 0; si < N_SETS; si++) {
            if (pe_kernels_select(SETS[si]) != PE_OK) continue;
            bufs b;
            setup(&c, 5, &b);
            CHECK_OK(pe_rope_fused_qkv(&b.f, c.layout, &b.positions, &b.p));
            float *got = malloc((qn + kn) * 4);
            memcpy(got, b.qout, qn * 4), memcpy(got + qn, b.kc, kn * 4);
            if (ref == NULL) {
                ref = got;
                check_outputs(&c, &b, SETS[si]);
                norm_matches_float32_formula(&c, &b, got);
            } else {
                int same = 1;
                for (size_t i = 0; i < qn + kn; i++)
                    if (i % (size_t)c.D >= 2 && memcmp(&got[i], &ref[i], 4) != 0) same = 0;
                CHECK_MSG(same, "%s: normalised values differ from the scalar set's", SETS[si]);
                free(got);
            }
            teardown(&b);
        }
        free(ref);
    }
    CHECK_OK(pe_kernels_select(saved));
}
