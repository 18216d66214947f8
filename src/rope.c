/*
 * rope.c — rotary position embeddings (SPEC §2): default frequencies, the
 * rotation of strided (tokens, heads, head_dim) tensors in both pair layouts
 * (forward, inverse, backward; in place or out of place; f32, f16, bf16;
 * q and k together; optionally on several threads), cos/sin caches and the
 * layout permutation. The rotation consumes a pe_freqs and never asks
 * which generator made it.
 *
 * Shape of the work: each token's cos/sin is computed once (exact angles,
 * kernel cos_sin) into a small per-thread scratch and then every head of
 * the token (of q and of k) streams through the kernel's rope_token. Tokens
 * are split into contiguous ranges when the caller allows threads.
 */
#include "internal.h"
#include "rope_threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pe_freqs_default(int64_t rotary_dim, double base, pe_freqs *out) {
    PE_TRY(pe__check_rotary_dim(rotary_dim));
    PE_TRY(pe__check_base(base));
    PE_CHECK_NULL(out);
    memset(out, 0, sizeof *out);
    out->rotary_dim = rotary_dim;
    out->attention_factor = 1.0;
    out->softmax_scale_multiplier = 1.0;
    const long double log_base = logl((long double)base);
    for (int64_t i = 0; i < rotary_dim / 2; i++) {
        /* w_i = base^(-2i/d) in long double, kept as hi + lo doubles. */
        long double w = expl(-(long double)(2 * i) / (long double)rotary_dim * log_base);
        out->inv_freq[i] = (double)w;
        out->inv_freq_lo[i] = (double)(w - (long double)out->inv_freq[i]);
    }
    return PE_OK;
}

int pe_freqs_validate(const pe_freqs *freqs) {
    PE_CHECK_NULL(freqs);
    const pe_freqs *f = freqs;
    PE_TRY(pe__check_rotary_dim(f->rotary_dim));
    if (!(f->attention_factor > 0.0) || !isfinite(f->attention_factor))
        return pe__fail(PE_ERR_PARAM, "attention_factor=%g must be finite and > 0",
                        f->attention_factor);
    /* A and 1/A (the inverse) scale the f32 tables: kept far from overflow */
    if (!(f->attention_factor <= PE_MAX_ATTENTION_FACTOR) ||
        !(f->attention_factor >= 1.0 / PE_MAX_ATTENTION_FACTOR))
        return pe__fail(PE_ERR_RANGE, "attention_factor=%g outside [1e-9, 1e9]",
                        f->attention_factor);
    if (!(f->softmax_scale_multiplier > 0.0) || !isfinite(f->softmax_scale_multiplier))
        return pe__fail(PE_ERR_PARAM,
                        "softmax_scale_multiplier=%g must be finite and > 0",
                        f->softmax_scale_multiplier);
    /* Every rotation runs this, a one-token decode step included: a
     * vectorized pass, and the detailed loop only to name the first bad
     * entry. */
    const int64_t half = f->rotary_dim / 2;
    if (pe__kernels()->freqs_ok(f->inv_freq, f->inv_freq_lo, half)) return PE_OK;
    for (int64_t i = 0; i < half; i++) {
        if (!(f->inv_freq[i] >= 0.0) || !isfinite(f->inv_freq[i]))
            return pe__fail(PE_ERR_PARAM, "inv_freq[%lld]=%g must be finite and >= 0",
                            (long long)i, f->inv_freq[i]);
        if (f->inv_freq[i] > PE_MAX_INV_FREQ)
            return pe__fail(PE_ERR_RANGE,
                            "inv_freq[%lld]=%g exceeds PE_MAX_INV_FREQ=1e240: p*w would "
                            "overflow for large positions",
                            (long long)i, f->inv_freq[i]);
        if (!isfinite(f->inv_freq_lo[i]) ||
            fabs(f->inv_freq_lo[i]) > fabs(f->inv_freq[i]) * 0x1p-52)
            return pe__fail(PE_ERR_PARAM,
                            "inv_freq_lo[%lld]=%g is not a low part of inv_freq=%g",
                            (long long)i, f->inv_freq_lo[i], f->inv_freq[i]);
    }
    return PE_OK;
}

static int check_direction(pe_rope_direction direction) {
    if (direction != PE_ROPE_FORWARD && direction != PE_ROPE_INVERSE &&
        direction != PE_ROPE_BACKWARD)
        return pe__fail(PE_ERR_PARAM, "direction=%d is not a RoPE direction",
                        (int)direction);
    return PE_OK;
}

pe_rope_options pe_rope_options_default(void) {
    pe_rope_options o = {1, PE_STORES_AUTO};
    return o;
}

int pe__rope_check_options(const pe_rope_options *o) {
    if (o->threads < 1 || o->threads > 1024)
        return pe__fail(PE_ERR_PARAM, "threads=%d must be in [1, 1024]", o->threads);
    if (o->stores != PE_STORES_AUTO && o->stores != PE_STORES_CACHED &&
        o->stores != PE_STORES_STREAMING)
        return pe__fail(PE_ERR_PARAM, "stores=%d is not a pe_store_policy",
                        (int)o->stores);
    return PE_OK;
}

/* One (in, out) pair: views valid, same shape and storage, a rotatable
 * dtype, rotary_dim within head_dim, and in place only as the same view. */
int pe__rope_check_pair(const pe_freqs *freqs, const pe_tensor *in, const pe_tensor *out,
                         const char *in_name, const char *out_name) {
    PE_TRY(pe__check_tensor(in, in_name));
    if (out != in) PE_TRY(pe__check_tensor(out, out_name)); /* in place: one view */
    const int rotatable =
        in->dtype == PE_F32 || in->dtype == PE_F16 || in->dtype == PE_BF16;
    if (!rotatable || in->dtype != out->dtype)
        return pe__fail(PE_ERR_DTYPE,
                        "RoPE tensors must be f32, f16 or bf16, %s like %s "
                        "(%s %s, %s %s)",
                        out_name, in_name, in_name, pe_dtype_name(in->dtype),
                        out_name, pe_dtype_name(out->dtype));
    if (in->tokens != out->tokens || in->heads != out->heads ||
        in->head_dim != out->head_dim)
        return pe__fail(PE_ERR_SHAPE,
                        "%s (%lld, %lld, %lld) and %s (%lld, %lld, %lld) differ",
                        in_name, (long long)in->tokens, (long long)in->heads,
                        (long long)in->head_dim, out_name, (long long)out->tokens,
                        (long long)out->heads, (long long)out->head_dim);
    PE_TRY(pe__check_rotary_within(freqs->rotary_dim, in->head_dim));
    /* in place only as the same view; any other sharing is refused
     * (overlap.c): rows read after an earlier row wrote them would make
     * the result depend on the order of rows, and so on threads */
    if (out != in) PE_TRY(pe__check_apart(out, out_name, in, in_name, true));
    return PE_OK;
}

/* Explicit positions are read while rows are written: they must not sit
 * in an output. */
static int check_ids_apart(const pe_positions *positions, int64_t tokens, const pe_tensor *out,
                           const char *out_name) {
    if (positions->ids == NULL) return PE_OK;
    const pe__span o = pe__view_span(out);
    return pe__check_bytes_apart((const void *)o.lo, o.hi - o.lo, out_name, positions->ids,
                                 (size_t)tokens * sizeof(int64_t), "positions");
}

/* Non-temporal stores pay off only for outputs much larger than the caches
 * that nobody reads right away; 16 MiB is past the L2 of any current core
 * and a large share of a typical L3. */
#define PE_STREAM_MIN_BYTES ((size_t)16 << 20)

/* Below this a tensor stays in L2 and prefetching ahead only costs. */
#define PE_PREFETCH_MIN_BYTES ((size_t)1 << 20)

/* Bytes of a validated view's elements: its rows do not overlap (overlap.c)
 * and its extent fits (common.c), so the product cannot wrap. */
static size_t tensor_bytes(const pe_tensor *t) {
    return (size_t)t->tokens * (size_t)t->heads * (size_t)t->head_dim *
           pe__dtype_size(t->dtype);
}

/* Everything a part of a rotation needs; read-only while parts run. */
typedef struct {
    const pe_kernel_table *k;
    const pe_freqs *freqs;
    const pe_positions *positions;
    int64_t tokens;
    int n;                        /* tensors: 1 (x) or 2 (q, k) */
    const pe_tensor *in[2], *out[2];
    pe__rope_rows rows[2];        /* per-token template: pointers at token 0 */
    double magnitude;
    pe_rope_layout layout;
    int negate_sin;
    unsigned char *scratch;       /* parts * part_bytes */
    size_t part_bytes;
} rope_job;

/* Tokens [t0, t1) on one worker. Fresh cos/sin at the chunk's start and at
 * every PE__ROPE_RESTART-th token, steps in between (pe__rope_trig). */
static void rope_chunk(void *ctx, int worker, int64_t t0, int64_t t1) {
    const rope_job *j = ctx;
    const int64_t half = j->freqs->rotary_dim / 2;
    double *c = (double *)(void *)(j->scratch + (size_t)worker * j->part_bytes);
    pe__rope_trig trig = {c, c + half, c + 2 * half, c + 3 * half,
                          (float *)(void *)(c + 4 * half), j->magnitude, 0, 0, 0};
    for (int64_t t = t0; t < t1; t++) {
        trig.follows = t > t0 && t % PE__ROPE_RESTART != 0;
        pe__rope_prepare(j->k, pe__position_at(j->positions, t), j->freqs->inv_freq,
                         j->freqs->inv_freq_lo, half, j->layout, j->negate_sin, &trig);
        for (int x = 0; x < j->n; x++) {
            pe__rope_rows r = j->rows[x];
            const size_t esz = pe__dtype_size(r.dtype);
            r.in = (const char *)r.in + (size_t)(t * j->in[x]->token_stride) * esz;
            r.out = (char *)r.out + (size_t)(t * j->out[x]->token_stride) * esz;
            j->k->rope_token(&r, &trig);
            pe__rope_pass_through(&r);
        }
    }
}

/* The rotation of n (in, out) pairs after validation. */
static int rope_run(const pe_freqs *freqs, pe_rope_layout layout,
                    const pe_positions *positions, int n, const pe_tensor *const *in,
                    const pe_tensor *const *out, pe_rope_direction direction,
                    const pe_rope_options *o) {
    rope_job j; /* every field used is set below (no memset: decode steps
                 * are short enough for a 256-byte clear to show) */
    j.k = pe__kernels(); /* one set for the whole call */
    j.freqs = freqs;
    j.positions = positions;
    j.tokens = in[0]->tokens;
    j.n = 0;
    double traffic = 0;
    for (int x = 0; x < n; x++) {
        if (in[x]->heads == 0 || in[x]->head_dim == 0) continue; /* nothing to do */
        const bool in_place = in[x]->data == out[x]->data;
        const size_t bytes = tensor_bytes(out[x]);
        const int stream = !in_place && (o->stores == PE_STORES_STREAMING ||
                                         (o->stores == PE_STORES_AUTO &&
                                          bytes >= PE_STREAM_MIN_BYTES));
        j.in[j.n] = in[x];
        j.out[j.n] = out[x];
        j.rows[j.n] = (pe__rope_rows){in[x]->data,       out[x]->data,
                                      in[x]->heads,      in[x]->head_stride,
                                      out[x]->head_stride, freqs->rotary_dim,
                                      in[x]->head_dim,   layout,
                                      in[x]->dtype,      stream,
                                      bytes >= PE_PREFETCH_MIN_BYTES};
        traffic += 2.0 * (double)bytes;
        j.n++;
    }
    if (j.tokens == 0 || j.n == 0) return PE_OK;
    j.magnitude = direction == PE_ROPE_INVERSE ? 1.0 / freqs->attention_factor
                                               : freqs->attention_factor;
    j.negate_sin = direction != PE_ROPE_FORWARD;
    j.layout = layout;
    const int64_t half = freqs->rotary_dim / 2;
    /* a token's trigonometry costs about as much as moving 8 bytes per pair */
    traffic += 8.0 * (double)half * (double)j.tokens;
    const int parts = pe__threads_for(o->threads, traffic, j.tokens);
    j.part_bytes = sizeof(double) * 4 * (size_t)half +
                   sizeof(float) * PE__ROPE_TAB_FLOATS(freqs->rotary_dim);
    /* Small single-part calls (decode steps) use the stack: no allocator
     * on the path of a call that rotates a few KiB. */
    double stack[1024];
    const bool small = parts == 1 && j.part_bytes <= sizeof stack;
    if (small)
        j.scratch = (unsigned char *)stack;
    else
        PE_TRY(pe__alloc("cos/sin scratch", parts, 1, j.part_bytes, &j.scratch));
    /* chunks of whole restart intervals (results do not depend on the
     * split), about 128 KiB of rows each */
    int64_t chunk = j.tokens;
    if (parts > 1) {
        const double token_bytes = traffic / (double)j.tokens;
        chunk = PE__ROPE_RESTART;
        while (chunk < j.tokens && (double)chunk * token_bytes < 128.0 * 1024) chunk *= 2;
    }
    pe__parallel_chunks(parts, j.tokens, chunk, rope_chunk, &j);
    if (!small) free(j.scratch);
    return PE_OK;
}

static int rope_common_checks(const pe_freqs *freqs, pe_rope_layout layout,
                              pe_rope_direction direction,
                              const pe_rope_options **options,
                              pe_rope_options *defaults) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    PE_TRY(check_direction(direction));
    *defaults = pe_rope_options_default();
    if (*options == NULL) *options = defaults;
    return pe__rope_check_options(*options);
}

int pe_rope_apply_ex(const pe_freqs *freqs, pe_rope_layout layout,
                     const pe_positions *positions, const pe_tensor *in,
                     const pe_tensor *out, pe_rope_direction direction,
                     const pe_rope_options *options) {
    pe_rope_options defaults;
    PE_TRY(rope_common_checks(freqs, layout, direction, &options, &defaults));
    PE_TRY(pe__rope_check_pair(freqs, in, out, "in", "out"));
    PE_TRY(pe__check_positions(positions, in->tokens));
    PE_TRY(check_ids_apart(positions, in->tokens, out, "out"));
    const pe_tensor *ins[1] = {in}, *outs[1] = {out};
    return rope_run(freqs, layout, positions, 1, ins, outs, direction, options);
}

int pe_rope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                  const pe_positions *positions, const pe_tensor *in,
                  const pe_tensor *out, pe_rope_direction direction) {
    return pe_rope_apply_ex(freqs, layout, positions, in, out, direction, NULL);
}

int pe_rope_apply_qk(const pe_freqs *freqs, pe_rope_layout layout,
                     const pe_positions *positions, const pe_tensor *q_in,
                     const pe_tensor *q_out, const pe_tensor *k_in,
                     const pe_tensor *k_out, pe_rope_direction direction,
                     const pe_rope_options *options) {
    pe_rope_options defaults;
    PE_TRY(rope_common_checks(freqs, layout, direction, &options, &defaults));
    PE_TRY(pe__rope_check_pair(freqs, q_in, q_out, "q_in", "q_out"));
    PE_TRY(pe__rope_check_pair(freqs, k_in, k_out, "k_in", "k_out"));
    if (q_in->tokens != k_in->tokens || q_in->head_dim != k_in->head_dim)
        return pe__fail(PE_ERR_SHAPE,
                        "q (%lld tokens, head_dim %lld) and k (%lld tokens, "
                        "head_dim %lld) must agree",
                        (long long)q_in->tokens, (long long)q_in->head_dim,
                        (long long)k_in->tokens, (long long)k_in->head_dim);
    PE_TRY(pe__check_positions(positions, q_in->tokens));
    /* each output apart from everything else the call reads or writes */
    PE_TRY(pe__check_apart(k_out, "k_out", q_out, "q_out", false));
    PE_TRY(pe__check_apart(q_out, "q_out", k_in, "k_in", false));
    PE_TRY(pe__check_apart(k_out, "k_out", q_in, "q_in", false));
    PE_TRY(check_ids_apart(positions, q_in->tokens, q_out, "q_out"));
    PE_TRY(check_ids_apart(positions, q_in->tokens, k_out, "k_out"));
    const pe_tensor *ins[2] = {q_in, k_in}, *outs[2] = {q_out, k_out};
    return rope_run(freqs, layout, positions, 2, ins, outs, direction, options);
}

/* cos/sin cache rows [t0, t1) of one part. */
typedef struct {
    const pe_kernel_table *k;
    const pe_freqs *freqs;
    const pe_positions *positions;
    int64_t count;
    void *cos_out, *sin_out;
    pe_dtype dtype;
} cache_job;

static void cache_chunk(void *ctx, int worker, int64_t t0, int64_t t1) {
    const cache_job *j = ctx;
    (void)worker; /* rows are independent: no scratch */
    const int64_t half = j->freqs->rotary_dim / 2;
    for (int64_t t = t0; t < t1; t++) {
        const int64_t p = pe__position_at(j->positions, t);
        const size_t row = (size_t)t * (size_t)half;
        if (j->dtype == PE_F32)
            j->k->cos_sin_f32(p, j->freqs->inv_freq, j->freqs->inv_freq_lo, half,
                              (float *)j->cos_out + row, (float *)j->sin_out + row);
        else
            j->k->cos_sin(p, j->freqs->inv_freq, j->freqs->inv_freq_lo, half,
                          (double *)j->cos_out + row, (double *)j->sin_out + row);
    }
}

int pe_rope_cos_sin_ex(const pe_freqs *freqs, const pe_positions *positions,
                       int64_t count, void *cos_out, void *sin_out, pe_dtype dtype,
                       const pe_rope_options *options) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_positions(positions, count));
    pe_rope_options defaults = pe_rope_options_default();
    if (options == NULL) options = &defaults;
    PE_TRY(pe__rope_check_options(options));
    const int64_t half = freqs->rotary_dim / 2;
    PE_TRY(pe__check_cos_sin_out(count, half, cos_out, sin_out, dtype));
    if (count == 0) return PE_OK;
    const size_t cache_bytes = (size_t)count * (size_t)half * pe__dtype_size(dtype);
    if (positions->ids != NULL) {
        const size_t id_bytes = (size_t)count * sizeof(int64_t); /* ids exist: fits */
        PE_TRY(pe__check_bytes_apart(cos_out, cache_bytes, "cos_out", positions->ids, id_bytes,
                                     "positions"));
        PE_TRY(pe__check_bytes_apart(sin_out, cache_bytes, "sin_out", positions->ids, id_bytes,
                                     "positions"));
    }
    const size_t n = (size_t)count * (size_t)half; /* checked above */
    cache_job j = {pe__kernels(), freqs, positions, count, cos_out, sin_out, dtype};
    /* computing a pair costs about as much as moving 32 bytes; writing it
     * moves 2 entries */
    const double work = (double)n * (32.0 + 2.0 * (double)pe_dtype_size(dtype));
    /* rows claimed in chunks of ~256 KiB of output: a late thread takes fewer */
    const int64_t chunk = 1 + (int64_t)(256.0 * 1024 / (2.0 * (double)half * (double)pe__dtype_size(dtype)));
    pe__parallel_chunks(pe__threads_for(options->threads, work, count), count, chunk, cache_chunk, &j);
    return PE_OK;
}

int pe_rope_cos_sin(const pe_freqs *freqs, const pe_positions *positions,
                    int64_t count, void *cos_out, void *sin_out, pe_dtype dtype) {
    return pe_rope_cos_sin_ex(freqs, positions, count, cos_out, sin_out, dtype, NULL);
}

int pe_rope_layout_permutation(int64_t head_dim, int64_t rotary_dim,
                               int64_t *perm) {
    PE_TRY(pe__check_rotary_dim(rotary_dim));
    PE_TRY(pe__check_rotary_within(rotary_dim, head_dim));
    PE_CHECK_NULL(perm);
    const int64_t half = rotary_dim / 2;
    for (int64_t i = 0; i < half; i++) {
        perm[2 * i] = i;            /* element a of pair i */
        perm[2 * i + 1] = i + half; /* element b of pair i */
    }
    for (int64_t j = rotary_dim; j < head_dim; j++) perm[j] = j;
    return PE_OK;
}
