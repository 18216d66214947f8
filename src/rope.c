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
#include "struct_size.h"
#include "positions.h"
#include "rope_driver.h"

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

int pe__rope_check_direction(pe_rope_direction direction) {
    if (direction != PE_ROPE_FORWARD && direction != PE_ROPE_INVERSE &&
        direction != PE_ROPE_BACKWARD)
        return pe__fail(PE_ERR_PARAM, "direction=%d is not a RoPE direction",
                        (int)direction);
    return PE_OK;
}

pe_rope_options pe_rope_options_default(void) {
    pe_rope_options o = {sizeof(pe_rope_options), 1, PE_STORES_AUTO, NULL, NULL, NULL};
    return o;
}

int pe__rope_options_resolve(const pe_rope_options *given, pe_rope_options *out) {
    pe_rope_options o;
    if (given != NULL && given->struct_size == sizeof o) {
        /* this library's own size (every caller built against this header):
         * the struct as given, with no calls to copy it field range by field
         * range (a third of a decode step's validation) */
        o = *given;
    } else {
        const pe_rope_options defaults = pe_rope_options_default();
        PE_TRY(pe__struct_resolve(given, &defaults, &o, sizeof o,
                                  PE__SIZE_THROUGH(pe_rope_options, stores), "pe_rope_options",
                                  "pe_rope_options_default"));
    }
    PE_TRY(pe__rope_check_options(&o));
    if (o.pool != NULL) o.threads = pe_pool_threads(o.pool); /* the pool's threads run it */
    *out = o;
    return PE_OK;
}

int pe__rope_check_options(const pe_rope_options *o) {
    if (o->struct_size < PE__SIZE_THROUGH(pe_rope_options, stores))
        return pe__fail(PE_ERR_PARAM,
                        "pe_rope_options.struct_size=%zu is smaller than its first version "
                        "(%zu bytes): start from pe_rope_options_default()",
                        o->struct_size, PE__SIZE_THROUGH(pe_rope_options, stores));
    if (o->threads < 1 || o->threads > 1024)
        return pe__fail(PE_ERR_PARAM, "threads=%d must be in [1, 1024]", o->threads);
    if (o->stores != PE_STORES_AUTO && o->stores != PE_STORES_CACHED &&
        o->stores != PE_STORES_STREAMING)
        return pe__fail(PE_ERR_PARAM, "stores=%d is not a pe_store_policy",
                        (int)o->stores);
    if (o->pool != NULL && o->parallel_for != NULL)
        return pe__fail(PE_ERR_PARAM,
                        "pool and parallel_for are both set: one runs the threads, not both");
    if (o->parallel_for_ctx != NULL && o->parallel_for == NULL)
        return pe__fail(PE_ERR_PARAM, "parallel_for_ctx is set without parallel_for");
    if (o->pool != NULL && o->threads != 1 && o->threads != pe_pool_threads(o->pool))
        return pe__fail(PE_ERR_PARAM,
                        "threads=%d with a pool of %d threads: a call on a pool uses the "
                        "pool's threads (leave threads at 1)",
                        o->threads, pe_pool_threads(o->pool));
    return PE_OK;
}

/* One (in, out) pair: views valid, same shape and storage, a rotatable
 * dtype, rotary_dim within head_dim, and in place only as the same view. */
int pe__rope_check_pair(const pe_freqs *freqs, const pe_tensor *in, const pe_tensor *out,
                         const char *in_name, const char *out_name) {
    return pe__rope_check_pair_d(freqs->rotary_dim, in, out, in_name, out_name);
}

int pe__rope_check_pair_d(int64_t rotary_dim, const pe_tensor *in, const pe_tensor *out,
                          const char *in_name, const char *out_name) {
    PE_TRY(pe__check_tensor(in, in_name));
    /* in place: one view, whether passed once or as two equal structs (a
     * decode step's usual call: no second view check) */
    const bool same = pe__identical_view(out, in);
    if (!same) PE_TRY(pe__check_tensor(out, out_name));
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
    PE_TRY(pe__check_rotary_within(rotary_dim, in->head_dim));
    /* in place only as the same view; any other sharing is refused
     * (overlap.c): rows read after an earlier row wrote them would make
     * the result depend on the order of rows, and so on threads */
    if (!same) PE_TRY(pe__check_apart(out, out_name, in, in_name, false));
    return PE_OK;
}

/* Explicit positions (ids, cu_seqlens, seq_starts) are read while rows
 * are written: they must not sit in an output. */
int pe__rope_check_positions_apart(const pe_positions *positions, int64_t tokens,
                                   const pe_tensor *out, const char *out_name) {
    if (tokens == 0) return PE_OK;
    const pe__span o = pe__view_span(out);
    return pe__check_positions_apart(positions, tokens, (const void *)o.lo, o.hi - o.lo,
                                     out_name);
}

/* The rotation of n (in, out) pairs after validation: the one driver with
 * the positions as angle source. */
static int rope_run(const pe_freqs *freqs, pe_rope_layout layout,
                    const pe_positions *positions, int n, const pe_tensor *const *in,
                    const pe_tensor *const *out, pe_rope_direction direction,
                    const pe_rope_options *o) {
    pe__angles a;
    a.kind = PE__ANGLES_POSITIONS;
    a.freqs = freqs;
    a.positions = positions;
    return pe__rope_drive(&a, freqs->rotary_dim, layout, direction, n, in, out, o);
}

int pe__rope_common_checks(const pe_freqs *freqs, pe_rope_layout layout,
                           pe_rope_direction direction, const pe_rope_options **options,
                           pe_rope_options *defaults) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    PE_TRY(pe__rope_check_direction(direction));
    PE_TRY(pe__rope_options_resolve(*options, defaults));
    *options = defaults;
    return PE_OK;
}

int pe_rope_apply_ex(const pe_freqs *freqs, pe_rope_layout layout,
                     const pe_positions *positions, const pe_tensor *in,
                     const pe_tensor *out, pe_rope_direction direction,
                     const pe_rope_options *options) {
    pe_rope_options defaults;
    PE_TRY(pe__rope_common_checks(freqs, layout, direction, &options, &defaults));
    PE_TRY(pe__rope_check_pair(freqs, in, out, "in", "out"));
    PE_TRY(pe__check_positions(positions, in->tokens));
    PE_TRY(pe__rope_check_positions_apart(positions, in->tokens, out, "out"));
    const pe_tensor *ins[1] = {in}, *outs[1] = {out};
    return rope_run(freqs, layout, positions, 1, ins, outs, direction, options);
}

int pe_rope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                  const pe_positions *positions, const pe_tensor *in,
                  const pe_tensor *out, pe_rope_direction direction) {
    return pe_rope_apply_ex(freqs, layout, positions, in, out, direction, NULL);
}

int pe__rope_check_qk(int64_t rotary_dim, const pe_tensor *q_in, const pe_tensor *q_out,
                      const pe_tensor *k_in, const pe_tensor *k_out) {
    PE_TRY(pe__rope_check_pair_d(rotary_dim, q_in, q_out, "q_in", "q_out"));
    PE_TRY(pe__rope_check_pair_d(rotary_dim, k_in, k_out, "k_in", "k_out"));
    if (q_in->tokens != k_in->tokens || q_in->head_dim != k_in->head_dim)
        return pe__fail(PE_ERR_SHAPE,
                        "q (%lld tokens, head_dim %lld) and k (%lld tokens, "
                        "head_dim %lld) must agree",
                        (long long)q_in->tokens, (long long)q_in->head_dim,
                        (long long)k_in->tokens, (long long)k_in->head_dim);
    /* each output apart from everything else the call reads or writes */
    PE_TRY(pe__check_apart(k_out, "k_out", q_out, "q_out", false));
    PE_TRY(pe__check_apart(q_out, "q_out", k_in, "k_in", false));
    return pe__check_apart(k_out, "k_out", q_in, "q_in", false);
}

int pe_rope_apply_qk(const pe_freqs *freqs, pe_rope_layout layout,
                     const pe_positions *positions, const pe_tensor *q_in,
                     const pe_tensor *q_out, const pe_tensor *k_in,
                     const pe_tensor *k_out, pe_rope_direction direction,
                     const pe_rope_options *options) {
    pe_rope_options defaults;
    PE_TRY(pe__rope_common_checks(freqs, layout, direction, &options, &defaults));
    PE_TRY(pe__rope_check_qk(freqs->rotary_dim, q_in, q_out, k_in, k_out));
    PE_TRY(pe__check_positions(positions, q_in->tokens));
    PE_TRY(pe__rope_check_positions_apart(positions, q_in->tokens, q_out, "q_out"));
    PE_TRY(pe__rope_check_positions_apart(positions, q_in->tokens, k_out, "k_out"));
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
    (void)worker; /* rows are independent: no shared scratch */
    const int64_t half = j->freqs->rotary_dim / 2;
    double buf[PE_MAX_ROTARY_DIM]; /* 16-bit rows: cos then sin, d/2 each */
    const size_t esz = pe__dtype_size(j->dtype);
    pe__pos_cursor cur;
    pe__pos_cursor_init(&cur, j->positions, t0);
    for (int64_t t = t0; t < t1; t++) {
        const int64_t p = pe__pos_cursor_at(&cur, t);
        const size_t row = (size_t)t * (size_t)half;
        char *co = (char *)j->cos_out + row * esz, *so = (char *)j->sin_out + row * esz;
        if (j->dtype == PE_F32)
            j->k->cos_sin_f32(p, j->freqs->inv_freq, j->freqs->inv_freq_lo, half,
                              (float *)(void *)co, (float *)(void *)so);
        else if (j->dtype == PE_F64)
            j->k->cos_sin(p, j->freqs->inv_freq, j->freqs->inv_freq_lo, half,
                          (double *)(void *)co, (double *)(void *)so);
        else {
            j->k->cos_sin(p, j->freqs->inv_freq, j->freqs->inv_freq_lo, half, buf, buf + half);
            pe__store_entries(buf, half, co, j->dtype);
            pe__store_entries(buf + half, half, so, j->dtype);
        }
    }
}

int pe_rope_cos_sin_ex(const pe_freqs *freqs, const pe_positions *positions,
                       int64_t count, void *cos_out, void *sin_out, pe_dtype dtype,
                       const pe_rope_options *options) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_positions(positions, count));
    pe_rope_options resolved;
    PE_TRY(pe__rope_options_resolve(options, &resolved));
    options = &resolved;
    const int64_t half = freqs->rotary_dim / 2;
    PE_TRY(pe__check_cos_sin_out(count, half, cos_out, sin_out, dtype));
    if (count == 0) return PE_OK;
    const size_t cache_bytes = (size_t)count * (size_t)half * pe__dtype_size(dtype);
    PE_TRY(pe__check_positions_apart(positions, count, cos_out, cache_bytes, "cos_out"));
    PE_TRY(pe__check_positions_apart(positions, count, sin_out, cache_bytes, "sin_out"));
    const size_t n = (size_t)count * (size_t)half; /* checked above */
    cache_job j = {pe__kernels(), freqs, positions, count, cos_out, sin_out, dtype};
    /* computing a pair costs about as much as moving 32 bytes; writing it
     * moves 2 entries */
    const double work = (double)n * (32.0 + 2.0 * (double)pe_dtype_size(dtype));
    /* rows in chunks of ~256 KiB of output: a late thread runs fewer */
    const int64_t chunk = 1 + (int64_t)(256.0 * 1024 / (2.0 * (double)half * (double)pe__dtype_size(dtype)));
    pe__parallel_chunks(options, pe__threads_for(options, work, count), count, chunk,
                        cache_chunk, &j);
    return PE_OK;
}

int pe_rope_cos_sin(const pe_freqs *freqs, const pe_positions *positions,
                    int64_t count, void *cos_out, void *sin_out, pe_dtype dtype) {
    return pe_rope_cos_sin_ex(freqs, positions, count, cos_out, sin_out, dtype, NULL);
}

int pe_rope_layout_permutation(int64_t head_dim, int64_t rotary_dim,
                               int64_t *perm) {
    PE_TRY(pe__check_rotary_dim(rotary_dim));
    if (head_dim < rotary_dim)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld exceeds head_dim=%lld",
                        (long long)rotary_dim, (long long)head_dim);
    PE_CHECK_NULL(perm);
    const int64_t half = rotary_dim / 2;
    for (int64_t i = 0; i < half; i++) {
        perm[2 * i] = i;            /* element a of pair i */
        perm[2 * i + 1] = i + half; /* element b of pair i */
    }
    for (int64_t j = rotary_dim; j < head_dim; j++) perm[j] = j;
    return PE_OK;
}
