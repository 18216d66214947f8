/*
 * rope_fused.c — the fused QKV epilogue (issue 15, item 6): per-head
 * RMSNorm of q and k, RoPE, q stored in place or out, k and v stored into
 * a cache slot as f32, f16, bf16 or int8 with a per-(token, head) scale.
 *
 * Why one pass: an engine otherwise reads and writes q and k once for the
 * norm, once for the rotation and once more for the cache conversion.
 * Here each token's heads go through a small per-worker f32 scratch (the
 * normalised heads of q, then of k: at most heads * head_dim floats, 16 KiB
 * for 32 heads of 128, L1-resident), are rotated from there by the active
 * kernel set's rope_token with the token's trigonometry (pe__rope_prepare,
 * stepped and restarted exactly as rope.c does, so rotated values equal
 * pe_rope_apply's bit for bit), and leave through the set's narrow_f32 or
 * the int8 quantizer. Without a norm and with an f32 destination the rows
 * go from the input straight to the destination.
 *
 * The norm is the kernel table's rms_norm, one definition (kernels/scalar.c:
 * a fixed-order double sum gives r, the scaling is float32 as in the
 * reference code) that every set reproduces
 * bit for bit; the quantizer is plain C here. So results do not depend on
 * the set (beyond the rotation's own scalar/vector difference) or on
 * threads; tokens are split in whole PE__ROPE_RESTART intervals.
 */
#include "internal.h"
#include "kernels/pass_through.h"
#include "rope_driver.h"
#include "rope_threads.h"
#include "positions.h"
#include "struct_size.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The first version's size (0.2.0, through threads): callers built
 * against it pass at least this much; `stores` came in 0.2.1. */
#define PE_FUSED_V1_SIZE PE__SIZE_THROUGH(pe_fused_qkv_params, threads)

pe_fused_qkv_params pe_fused_qkv_params_default(void) {
    pe_fused_qkv_params p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.q_in.dtype = p.k_in.dtype = p.v_in.dtype = p.q_out.dtype = PE_F32;
    p.k_cache.dtype = p.v_cache.dtype = p.k_scale.dtype = p.v_scale.dtype = PE_F32;
    p.norm_eps = 1e-6;
    p.norm_weight = PE_NORM_WEIGHT;
    p.threads = 1;
    return p;
}

int pe_fused_qkv_split(float *qkv, int64_t tokens, int64_t n_q_heads, int64_t n_kv_heads,
                       int64_t head_dim, pe_tensor *q, pe_tensor *k, pe_tensor *v) {
    PE_CHECK_NULL(q);
    PE_CHECK_NULL(k);
    PE_CHECK_NULL(v);
    if (tokens < 0 || n_q_heads < 0 || n_kv_heads < 0 || head_dim < 0)
        return pe__fail(PE_ERR_SHAPE,
                        "fused qkv (tokens=%lld, n_q_heads=%lld, n_kv_heads=%lld, "
                        "head_dim=%lld) has a negative size",
                        (long long)tokens, (long long)n_q_heads, (long long)n_kv_heads,
                        (long long)head_dim);
    int64_t heads, row, q_elems, kv_elems;
    if (!pe__i64_mul(n_kv_heads, 2, &heads) || !pe__i64_add(heads, n_q_heads, &heads) ||
        !pe__i64_mul(heads, head_dim, &row) || !pe__i64_mul(n_q_heads, head_dim, &q_elems) ||
        !pe__i64_mul(n_kv_heads, head_dim, &kv_elems))
        return pe__fail(PE_ERR_OVERFLOW, "fused qkv row of (%lld + 2 x %lld) x %lld overflows",
                        (long long)n_q_heads, (long long)n_kv_heads, (long long)head_dim);
    if (qkv == NULL && tokens > 0 && row > 0) return pe__fail(PE_ERR_NULL, "qkv must not be NULL");
    /* views only: their extents are checked by the call that uses them */
    *q = (pe_tensor){qkv, PE_F32, tokens, n_q_heads, head_dim, row, head_dim};
    *k = (pe_tensor){qkv ? qkv + q_elems : NULL, PE_F32, tokens, n_kv_heads, head_dim, row,
                     head_dim};
    *v = (pe_tensor){qkv ? qkv + q_elems + kv_elems : NULL, PE_F32, tokens, n_kv_heads,
                     head_dim, row, head_dim};
    return PE_OK;
}

/* ---------------------------------------------------------- validation */

static int check_dtype_in(const pe_tensor *t, const char *name) {
    if (t->dtype != PE_F32)
        return pe__fail(PE_ERR_DTYPE, "%s dtype=%s: the fused QKV input is f32", name,
                        pe_dtype_name(t->dtype));
    return PE_OK;
}

static int check_like(const pe_tensor *t, const char *name, const pe_tensor *ref,
                      const char *ref_name, int64_t heads) {
    if (t->tokens != ref->tokens || t->heads != heads || t->head_dim != ref->head_dim)
        return pe__fail(PE_ERR_SHAPE, "%s (%lld, %lld, %lld) does not match %s (%lld, %lld, %lld)",
                        name, (long long)t->tokens, (long long)t->heads,
                        (long long)t->head_dim, ref_name, (long long)ref->tokens,
                        (long long)heads, (long long)ref->head_dim);
    return PE_OK;
}

/* An i8 cache needs its f32 (tokens, heads, 1) scale view; other caches
 * take none (a set scale pointer would be a caller's mistake). */
static int check_scale(const pe_tensor *scale, const char *scale_name, const pe_tensor *cache,
                       const char *cache_name) {
    if (cache->dtype != PE_I8) {
        if (scale->data != NULL)
            return pe__fail(PE_ERR_PARAM,
                            "%s is set but %s is %s: scales go with i8 caches only",
                            scale_name, cache_name, pe_dtype_name(cache->dtype));
        return PE_OK;
    }
    PE_TRY(pe__check_tensor(scale, scale_name));
    if (scale->dtype != PE_F32 || scale->tokens != cache->tokens ||
        scale->heads != cache->heads || scale->head_dim != 1)
        return pe__fail(PE_ERR_SHAPE,
                        "%s %s (%lld, %lld, %lld) must be an f32 (%lld, %lld, 1) view for "
                        "the i8 %s",
                        scale_name, pe_dtype_name(scale->dtype), (long long)scale->tokens,
                        (long long)scale->heads, (long long)scale->head_dim,
                        (long long)cache->tokens, (long long)cache->heads, cache_name);
    return PE_OK;
}

/* A caller's struct over the defaults, by the struct_size rule
 * (struct_size.h): fields past its struct_size keep their defaults. */
static int read_params(const pe_fused_qkv_params *params, pe_fused_qkv_params *p) {
    PE_CHECK_NULL(params);
    const pe_fused_qkv_params defaults = pe_fused_qkv_params_default();
    return pe__struct_resolve(params, &defaults, p, sizeof *p, PE_FUSED_V1_SIZE,
                              "pe_fused_qkv_params", "pe_fused_qkv_params_default");
}

enum { N_OUT = 5, N_IN = 3 };

/* The params' threads, stores, pool and hook as rope options (checked as
 * the rotations check them; a pool's threads resolved). */
static int runner_options(const pe_fused_qkv_params *p, pe_rope_options *o) {
    *o = pe_rope_options_default();
    o->threads = p->threads;
    o->stores = p->stores;
    o->pool = p->pool;
    o->parallel_for = p->parallel_for;
    o->parallel_for_ctx = p->parallel_for_ctx;
    PE_TRY(pe__rope_check_options(o));
    if (o->pool != NULL) o->threads = pe_pool_threads(o->pool);
    return PE_OK;
}

static int check_all(const pe_freqs *freqs, pe_rope_layout layout, const pe_positions *positions,
                     const pe_fused_qkv_params *p) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    pe_rope_options o;
    PE_TRY(runner_options(p, &o));
    const pe_tensor *in[N_IN] = {&p->q_in, &p->k_in, &p->v_in};
    static const char *const in_name[N_IN] = {"q_in", "k_in", "v_in"};
    for (int i = 0; i < N_IN; i++) {
        PE_TRY(pe__check_tensor(in[i], in_name[i]));
        PE_TRY(check_dtype_in(in[i], in_name[i]));
    }
    const bool in_place = pe__same_view(&p->q_out, &p->q_in);
    if (!in_place) PE_TRY(pe__check_tensor(&p->q_out, "q_out"));
    if (p->q_out.dtype != PE_F32 && p->q_out.dtype != PE_F16 && p->q_out.dtype != PE_BF16)
        return pe__fail(PE_ERR_DTYPE, "q_out dtype=%s must be f32, f16 or bf16",
                        pe_dtype_name(p->q_out.dtype));
    const pe_tensor *cache[2] = {&p->k_cache, &p->v_cache};
    static const char *const cache_name[2] = {"k_cache", "v_cache"};
    for (int i = 0; i < 2; i++) {
        PE_TRY(pe__check_tensor(cache[i], cache_name[i]));
        const pe_dtype d = cache[i]->dtype;
        if (d != PE_F32 && d != PE_F16 && d != PE_BF16 && d != PE_I8)
            return pe__fail(PE_ERR_DTYPE, "%s dtype=%s must be f32, f16, bf16 or i8",
                            cache_name[i], pe_dtype_name(d));
    }
    const pe_tensor *q = &p->q_in, *k = &p->k_in;
    PE_TRY(check_like(&p->q_out, "q_out", q, "q_in", q->heads));
    PE_TRY(check_like(k, "k_in", q, "q_in", k->heads)); /* tokens, head_dim */
    PE_TRY(check_like(&p->v_in, "v_in", k, "k_in", k->heads));
    PE_TRY(check_like(&p->k_cache, "k_cache", k, "k_in", k->heads));
    PE_TRY(check_like(&p->v_cache, "v_cache", k, "k_in", k->heads));
    if (freqs->rotary_dim > q->head_dim)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld exceeds head_dim=%lld",
                        (long long)freqs->rotary_dim, (long long)q->head_dim);
    PE_TRY(check_scale(&p->k_scale, "k_scale", &p->k_cache, "k_cache"));
    PE_TRY(check_scale(&p->v_scale, "v_scale", &p->v_cache, "v_cache"));
    if (!isfinite(p->norm_eps) || !(p->norm_eps >= 0.0))
        return pe__fail(PE_ERR_PARAM, "norm_eps=%g must be finite and >= 0", p->norm_eps);
    if ((p->q_norm_weight != NULL || p->k_norm_weight != NULL) && p->norm_eps < PE_MIN_NORM_EPS)
        return pe__fail(PE_ERR_PARAM,
                        "norm_eps=%g is below PE_MIN_NORM_EPS=%g: a zero or subnormal head would "
                        "normalise to NaN or inf",
                        p->norm_eps, PE_MIN_NORM_EPS);
    if (p->norm_weight != PE_NORM_WEIGHT && p->norm_weight != PE_NORM_ONE_PLUS_WEIGHT)
        return pe__fail(PE_ERR_PARAM, "norm_weight=%d is not a pe_norm_weight",
                        (int)p->norm_weight);
    PE_TRY(pe__check_positions(positions, q->tokens));
    /* Overlap: every output apart from every input and every other output;
     * q_out may be q_in itself (in place). Empty scale views never meet. */
    const pe_tensor *out[N_OUT] = {&p->q_out, &p->k_cache, &p->v_cache, &p->k_scale, &p->v_scale};
    static const char *const out_name[N_OUT] = {"q_out", "k_cache", "v_cache", "k_scale",
                                                "v_scale"};
    const size_t w_bytes = (size_t)q->head_dim * sizeof(float); /* a row: fits */
    for (int a = 0; a < N_OUT; a++) {
        if (a >= 3 && cache[a - 3]->dtype != PE_I8) continue;
        const pe_tensor *o_ = out[a];
        for (int i = 0; i < N_IN; i++)
            PE_TRY(pe__check_apart(o_, out_name[a], in[i], in_name[i], a == 0 && i == 0));
        for (int b = 0; b < a; b++) {
            if (b >= 3 && cache[b - 3]->dtype != PE_I8) continue;
            PE_TRY(pe__check_apart(o_, out_name[a], out[b], out_name[b], false));
        }
        if (o_->tokens == 0 || o_->heads == 0 || o_->head_dim == 0) continue;
        const pe__span s = pe__view_span(o_);
        PE_TRY(pe__check_bytes_apart((const void *)s.lo, s.hi - s.lo, out_name[a],
                                     p->q_norm_weight, p->q_norm_weight ? w_bytes : 0,
                                     "q_norm_weight"));
        PE_TRY(pe__check_bytes_apart((const void *)s.lo, s.hi - s.lo, out_name[a],
                                     p->k_norm_weight, p->k_norm_weight ? w_bytes : 0,
                                     "k_norm_weight"));
        /* positions of every kind: ids, or packed cu_seqlens and starts */
        PE_TRY(pe__check_positions_apart(positions, q->tokens, (const void *)s.lo, s.hi - s.lo,
                                         out_name[a]));
    }
    return PE_OK;
}

/* ------------------------------------------------------------- the pass */

typedef struct {
    const pe_kernel_table *k;
    const pe_freqs *freqs;
    const pe_positions *positions;
    pe_rope_layout layout;
    pe_fused_qkv_params p;
    unsigned char *scratch; /* parts * part_bytes */
    size_t part_bytes;
    int prefetch; /* inputs larger than L2: prefetch rows read straight from them */
    int stream_q, stream_k, stream_v; /* non-temporal stores (p.stores) */
    uintptr_t side_stride; /* > 0: a later token's rows go to the kernels
                            * as a side stream, this many bytes per step
                            * (kernels.h) */
    size_t trig_bytes; /* the trigonometry's share of a part, then the rows */
} fused_job;

/* int8 slot of one head: s = fl(absmax / 127), q = rne(fl(x / s)) within
 * [-127, 127]; s = 0, NaN or inf stores zeros (posenc.h). */
static void quantize_i8(const float *x, int64_t n, int8_t *q, float *scale) {
    float m = 0.0f;
    int nan = 0;
    for (int64_t i = 0; i < n; i++) {
        const float a = fabsf(x[i]);
        nan |= a != a;
        m = a > m ? a : m;
    }
    const float s = nan ? NAN : m / 127.0f;
    *scale = s;
    if (!(s > 0.0f) || !isfinite(s)) {
        memset(q, 0, (size_t)n);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        float v = x[i] / s;
        /* round half to even: exact for |v| < 2^22 (here |v| <= ~127) */
        v = (v + 0x1.8p23f) - 0x1.8p23f;
        v = v > 127.0f ? 127.0f : v < -127.0f ? -127.0f : v;
        q[i] = (int8_t)v;
    }
}

/* Element pointer of (t, h) in a validated view. */
static void *at(const pe_tensor *v, int64_t t, int64_t h) {
    return (char *)v->data +
           (size_t)(t * v->token_stride + h * v->head_stride) * pe__dtype_size(v->dtype);
}

/* Store the heads of one token from f32 rows (src_stride apart) into a
 * 16-bit, f32 or int8 destination (with its scales). */
static void store_rows(const fused_job *j, const float *src, int64_t src_stride,
                       const pe_tensor *dst, int64_t t, const pe_tensor *scale, int stream,
                       pe__side_prefetch *side) {
    const int64_t D = dst->head_dim;
    if (dst->dtype != PE_I8 && src_stride == D && dst->head_stride == D) { /* one run */
        j->k->narrow_f32(src, at(dst, t, 0), dst->heads * D, dst->dtype, stream, side);
        return;
    }
    for (int64_t h = 0; h < dst->heads; h++) {
        const float *x = src + h * src_stride;
        if (dst->dtype == PE_I8)
            quantize_i8(x, D, at(dst, t, h), at(scale, t, h));
        else
            j->k->narrow_f32(x, at(dst, t, h), D, dst->dtype, stream, side);
    }
}

/* Rotate the heads of one token from src (f32 rows at src_stride) and
 * store them into dst (any storage of the call). rot: an f32 scratch of
 * heads x head_dim for destinations that are not f32 (it may be src: the
 * rotation runs in place there). */
static void rotate_store(const fused_job *j, const pe__rope_trig *trig, const float *src,
                         int64_t src_stride, const pe_tensor *dst, int64_t t,
                         const pe_tensor *scale, int stream, float *rot,
                         pe__side_prefetch *side) {
    const int64_t heads = dst->heads, D = dst->head_dim;
    /* rows read from the input (no norm) are prefetched as rope.c does */
    pe__rope_rows r = {src, NULL, heads, src_stride, 0, j->freqs->rotary_dim, D, j->layout, PE_F32,
                       0,   src != rot && j->prefetch};
    if (dst->dtype == PE_F32) { /* straight into the destination */
        r.out = at(dst, t, 0);
        r.out_head_stride = dst->head_stride;
        r.stream = stream; /* where the rows allow it (f32, aligned) */
        j->k->rope_token(&r, trig);
        pe__rope_pass_through(&r);
        return;
    }
    r.out = rot;
    r.out_head_stride = D;
    j->k->rope_token(&r, trig);
    pe__rope_pass_through(&r);
    store_rows(j, rot, D, dst, t, scale, stream, side);
}

/* The heads of one token of q or k: normalised into the scratch when a
 * weight is given, then rotated and stored. */
static void norm_rotate_store(const fused_job *j, const pe__rope_trig *trig, const pe_tensor *in,
                              const float *w, const pe_tensor *dst, int64_t t,
                              const pe_tensor *scale, int stream, float *rows,
                              pe__side_prefetch *side) {
    if (in->heads == 0 || in->head_dim == 0) return;
    const int64_t D = in->head_dim;
    if (w == NULL) {
        rotate_store(j, trig, at(in, t, 0), in->head_stride, dst, t, scale, stream, rows, side);
        return;
    }
    j->k->rms_norm(at(in, t, 0), in->heads, in->head_stride, D, w,
                   j->p.norm_weight == PE_NORM_ONE_PLUS_WEIGHT, j->p.norm_eps, rows, side);
    rotate_store(j, trig, rows, D, dst, t, scale, stream, rows, side);
}

/* ------------------------------------------------- the side prefetch */

/* Steps (kernels.h: one per 16 floats of a pass) the kernels take for one
 * token: the norm's two passes over q and k, the narrowing of k and v. */
static int64_t side_steps_per_token(const pe_fused_qkv_params *p) {
    const int64_t per_head = (p->q_in.head_dim + 15) / 16;
    int64_t steps = 0;
    if (p->q_norm_weight) steps += 2 * p->q_in.heads * per_head;
    if (p->k_norm_weight) steps += 2 * p->k_in.heads * per_head;
    /* k is narrowed when rotated into the scratch (16-bit caches); an f32
     * k cache is rotated into directly, int8 slots are quantized here */
    if (p->k_cache.dtype == PE_F16 || p->k_cache.dtype == PE_BF16)
        steps += p->k_in.heads * per_head;
    if (p->v_cache.dtype != PE_I8) steps += p->v_in.heads * per_head;
    return steps;
}

/* How many tokens ahead the side stream fetches. With the fetches going
 * to L1 (prefetcht0) two measured 3 - 4 % faster than one on the Zen 5
 * EPYC; into L2 (prefetcht1, kernels.h) one measured 1.32 - 1.41x the copy
 * against two's 1.40 - 1.52x on the Zen 4 EPYC (fused_qkv_4096, runs
 * alternating), the nearer lines having less time to be evicted. The
 * first token of a chunk is fetched by its own loads. */
#define SIDE_AHEAD 1

/* The line-aligned run of bytes that holds the input rows of token t:
 * 0 when some view's heads are not one run, or when the rows lie apart
 * (more than twice their bytes from first to last) and a side stream
 * would fetch mostly what the call never reads. */
static int rows_span(const fused_job *j, int64_t t, uintptr_t *lo, uintptr_t *hi) {
    const pe_tensor *in[N_IN] = {&j->p.q_in, &j->p.k_in, &j->p.v_in};
    uintptr_t l = UINTPTR_MAX, h = 0, bytes = 0;
    for (int i = 0; i < N_IN; i++) {
        const pe_tensor *v = in[i];
        if (v->heads == 0 || v->head_dim == 0) continue;
        if (v->heads > 1 && v->head_stride != v->head_dim) return 0;
        const uintptr_t a = (uintptr_t)at(v, t, 0), n = (uintptr_t)(v->heads * v->head_dim) * 4;
        l = a < l ? a : l;
        h = a + n > h ? a + n : h;
        bytes += n;
    }
    if (bytes == 0 || h - l > 2 * bytes) return 0;
    *lo = l & ~(uintptr_t)63;
    *hi = (h + 63) & ~(uintptr_t)63;
    return 1;
}

/* Bytes per step of the side stream: a later token's run spread over this
 * token's steps, at most a line per step (a longer stride would skip
 * lines); 0 (no side stream) for small calls, calls of SIDE_AHEAD tokens
 * or fewer, rows not in one run, or too few steps. */
static uintptr_t side_stride(const fused_job *j) {
    uintptr_t lo, hi;
    if (!j->prefetch || j->p.q_in.tokens <= SIDE_AHEAD || !rows_span(j, 0, &lo, &hi))
        return 0;
    const uintptr_t steps = (uintptr_t)side_steps_per_token(&j->p);
    if (steps == 0) return 0;
    /* a line more than token 0's run: another token's rows may sit one
     * line further across line boundaries, and must be covered too */
    const uintptr_t stride = (hi - lo + 64 + steps - 1) / steps;
    return stride <= 64 ? stride : 0;
}

/* Tokens [t0, t1) on one worker: fresh cos/sin at the chunk's start and
 * every PE__ROPE_RESTART-th token, stepped in between (as rope.c). */
static void fused_chunk(void *ctx, int worker, int64_t t0, int64_t t1) {
    const fused_job *j = ctx;
    const pe_fused_qkv_params *p = &j->p;
    const int64_t half = j->freqs->rotary_dim / 2;
    unsigned char *base = j->scratch + (size_t)worker * j->part_bytes;
    double *c = (double *)(void *)base;
    pe__rope_trig trig = {c, c + half, c + 2 * half, c + 3 * half,
                          (float *)(void *)(c + 4 * half), j->freqs->attention_factor, 0, 0, 0};
    float *rows = (float *)(void *)(base + j->trig_bytes);
    const pe_tensor *v = &p->v_in;
    pe__side_prefetch next_rows;
    for (int64_t t = t0; t < t1; t++) {
        /* a later token's rows fetched under this token's arithmetic */
        pe__side_prefetch *side = NULL;
        if (j->side_stride > 0 && t + SIDE_AHEAD < t1 &&
            rows_span(j, t + SIDE_AHEAD, &next_rows.pos, &next_rows.end)) {
            next_rows.stride = j->side_stride;
            side = &next_rows;
        }
        trig.follows = t > t0 && t % PE__ROPE_RESTART != 0;
        pe__rope_prepare(j->k, pe__position_at(j->positions, t), j->freqs->inv_freq,
                         j->freqs->inv_freq_lo, half, j->layout, 0, &trig);
        norm_rotate_store(j, &trig, &p->q_in, p->q_norm_weight, &p->q_out, t, NULL,
                          j->stream_q, rows, side);
        norm_rotate_store(j, &trig, &p->k_in, p->k_norm_weight, &p->k_cache, t, &p->k_scale,
                          j->stream_k, rows, side);
        if (v->heads > 0 && v->head_dim > 0)
            store_rows(j, at(v, t, 0), v->head_stride, &p->v_cache, t, &p->v_scale,
                       j->stream_v, side);
    }
}

/* Bytes of a validated view's elements (rows disjoint, extent fits). */
static double view_bytes(const pe_tensor *t) {
    return (double)t->tokens * (double)t->heads * (double)t->head_dim *
           (double)pe__dtype_size(t->dtype);
}

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

int pe_rope_fused_qkv(const pe_freqs *freqs, pe_rope_layout layout,
                      const pe_positions *positions, const pe_fused_qkv_params *params) {
    fused_job j;
    PE_TRY(read_params(params, &j.p));
    PE_TRY(check_all(freqs, layout, positions, &j.p));
    const pe_fused_qkv_params *p = &j.p;
    const int64_t tokens = p->q_in.tokens;
    if (tokens == 0 || p->q_in.head_dim == 0 ||
        (p->q_in.heads == 0 && p->k_in.heads == 0))
        return PE_OK;
    j.k = pe__kernels(); /* one set for the whole call */
    j.freqs = freqs;
    j.positions = positions;
    j.layout = layout;
    const int64_t half = freqs->rotary_dim / 2;
    const int64_t heads = p->q_in.heads > p->k_in.heads ? p->q_in.heads : p->k_in.heads;
    /* heads x head_dim floats: a row of each validated view fits size_t */
    j.trig_bytes = round64(sizeof(double) * 4 * (size_t)half +
                           sizeof(float) * PE__ROPE_TAB_FLOATS(freqs->rotary_dim));
    j.part_bytes = j.trig_bytes + round64((size_t)heads * (size_t)p->q_in.head_dim * sizeof(float));
    /* read q, k, v; write q, k, v (and the scales); a token's trigonometry
     * costs about as much as moving 8 bytes per pair (rope.c) */
    const double traffic = view_bytes(&p->q_in) + view_bytes(&p->k_in) + view_bytes(&p->v_in) +
                           view_bytes(&p->q_out) + view_bytes(&p->k_cache) +
                           view_bytes(&p->v_cache) + 8.0 * (double)half * (double)tokens;
    pe_rope_options runner;
    PE_TRY(runner_options(p, &runner)); /* checked in check_all: cannot fail */
    const int parts = pe__threads_for(&runner, traffic, tokens);
    /* below 1 MiB the inputs stay in L2 and prefetching ahead only costs */
    j.prefetch = view_bytes(&p->q_in) + view_bytes(&p->k_in) >= (double)PE__PREFETCH_MIN_BYTES;
    /* views validated: their byte counts fit size_t */
    j.stream_q = !pe__same_view(&p->q_out, &p->q_in) &&
                 pe__streams(p->stores, (size_t)view_bytes(&p->q_out));
    j.stream_k = pe__streams(p->stores, (size_t)view_bytes(&p->k_cache));
    j.stream_v = pe__streams(p->stores, (size_t)view_bytes(&p->v_cache));
    j.side_stride = side_stride(&j);

    /* A decode step's scratch on the stack: no allocator on the path of a
     * call that moves a few tens of KiB. */
    _Alignas(64) unsigned char stack[32768];
    const bool small = parts == 1 && j.part_bytes <= sizeof stack;
    if (small)
        j.scratch = stack;
    else
        PE_TRY(pe__alloc("fused qkv scratch", parts, 1, j.part_bytes, &j.scratch));
    const int64_t chunk = pe__token_chunk(parts, tokens, traffic);
    pe__parallel_chunks(&runner, parts, tokens, chunk, fused_chunk, &j);
    if (!small) free(j.scratch);
    return PE_OK;
}
