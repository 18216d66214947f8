/*
 * rope.c — rotary position embeddings (SPEC §2): default frequencies, the
 * rotation of strided (tokens, heads, head_dim) tensors in both pair layouts
 * (forward, inverse, backward; in place or out of place), cos/sin caches and
 * the layout permutation. The rotation consumes a pe_freqs and never asks
 * which generator made it.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int check_rotary_dim(int64_t d) {
    if (d < 2 || d > PE_MAX_ROTARY_DIM || d % 2 != 0)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld must be even and in [2, %d]",
                        (long long)d, PE_MAX_ROTARY_DIM);
    return PE_OK;
}

int pe_freqs_default(int64_t rotary_dim, double base, pe_freqs *out) {
    PE_TRY(check_rotary_dim(rotary_dim));
    if (!(base > 0.0) || !isfinite(base) || base == 1.0)
        return pe__fail(PE_ERR_PARAM, "base=%g must be finite, positive and not 1",
                        base);
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

int pe_freqs_validate(const pe_freqs *f) {
    PE_CHECK_NULL(f);
    PE_TRY(check_rotary_dim(f->rotary_dim));
    if (!(f->attention_factor > 0.0) || !isfinite(f->attention_factor))
        return pe__fail(PE_ERR_PARAM, "attention_factor=%g must be finite and > 0",
                        f->attention_factor);
    if (!(f->softmax_scale_multiplier > 0.0) || !isfinite(f->softmax_scale_multiplier))
        return pe__fail(PE_ERR_PARAM,
                        "softmax_scale_multiplier=%g must be finite and > 0",
                        f->softmax_scale_multiplier);
    for (int64_t i = 0; i < f->rotary_dim / 2; i++) {
        if (!(f->inv_freq[i] >= 0.0) || !isfinite(f->inv_freq[i]))
            return pe__fail(PE_ERR_PARAM, "inv_freq[%lld]=%g must be finite and >= 0",
                            (long long)i, f->inv_freq[i]);
        if (!isfinite(f->inv_freq_lo[i]) ||
            fabs(f->inv_freq_lo[i]) > fabs(f->inv_freq[i]) * 0x1p-52)
            return pe__fail(PE_ERR_PARAM,
                            "inv_freq_lo[%lld]=%g is not a low part of inv_freq=%g",
                            (long long)i, f->inv_freq_lo[i], f->inv_freq[i]);
    }
    return PE_OK;
}

static int check_layout(pe_rope_layout layout) {
    if (layout != PE_ROPE_INTERLEAVED && layout != PE_ROPE_HALF)
        return pe__fail(PE_ERR_PARAM, "layout=%d is not a RoPE layout", (int)layout);
    return PE_OK;
}

static const float *row_const(const pe_tensor *t, int64_t tok, int64_t h) {
    return (const float *)t->data + tok * t->token_stride + h * t->head_stride;
}

static float *row_mut(const pe_tensor *t, int64_t tok, int64_t h) {
    return (float *)t->data + tok * t->token_stride + h * t->head_stride;
}

int pe_rope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                  const pe_positions *positions, const pe_tensor *in,
                  const pe_tensor *out, pe_rope_direction direction) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(check_layout(layout));
    PE_TRY(pe__check_tensor(in, "in"));
    PE_TRY(pe__check_tensor(out, "out"));
    if (direction != PE_ROPE_FORWARD && direction != PE_ROPE_INVERSE &&
        direction != PE_ROPE_BACKWARD)
        return pe__fail(PE_ERR_PARAM, "direction=%d is not a RoPE direction",
                        (int)direction);
    if (in->dtype != PE_F32 || out->dtype != PE_F32)
        return pe__fail(PE_ERR_DTYPE, "RoPE tensors must be f32 (in %s, out %s)",
                        pe_dtype_name(in->dtype), pe_dtype_name(out->dtype));
    if (in->tokens != out->tokens || in->heads != out->heads ||
        in->head_dim != out->head_dim)
        return pe__fail(PE_ERR_SHAPE,
                        "in (%lld, %lld, %lld) and out (%lld, %lld, %lld) differ",
                        (long long)in->tokens, (long long)in->heads,
                        (long long)in->head_dim, (long long)out->tokens,
                        (long long)out->heads, (long long)out->head_dim);
    if (freqs->rotary_dim > in->head_dim)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld exceeds head_dim=%lld",
                        (long long)freqs->rotary_dim, (long long)in->head_dim);
    PE_TRY(pe__check_positions(positions, in->tokens));
    const bool in_place = in->data == out->data &&
                          in->token_stride == out->token_stride &&
                          in->head_stride == out->head_stride;
    if (in->data == out->data && !in_place)
        return pe__fail(PE_ERR_SHAPE,
                        "in and out share data but not strides: in place needs "
                        "the same view");
    if (in->tokens == 0 || in->heads == 0) return PE_OK;

    const int64_t half = freqs->rotary_dim / 2;
    double *cs = malloc(sizeof(double) * 2 * (size_t)half);
    if (cs == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for cos/sin");
    double *c = cs, *s = cs + half;
    double magnitude = freqs->attention_factor;
    if (direction == PE_ROPE_INVERSE) magnitude = 1.0 / magnitude;
    const double sign = direction == PE_ROPE_FORWARD ? 1.0 : -1.0;
    const pe_kernel_table *k = pe__kernels();
    for (int64_t t = 0; t < in->tokens; t++) {
        /* cos/sin once per token, reused by every head. */
        k->cos_sin(pe__position_at(positions, t), freqs->inv_freq,
                   freqs->inv_freq_lo, half, c, s);
        if (sign < 0)
            for (int64_t i = 0; i < half; i++) s[i] = -s[i];
        for (int64_t h = 0; h < in->heads; h++)
            k->rotate_row_f32(row_const(in, t, h), row_mut(out, t, h),
                              freqs->rotary_dim, in->head_dim, layout, c, s,
                              magnitude);
    }
    free(cs);
    return PE_OK;
}

int pe_rope_cos_sin(const pe_freqs *freqs, const pe_positions *positions,
                    int64_t count, void *cos_out, void *sin_out, pe_dtype dtype) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_positions(positions, count));
    if (dtype != PE_F32 && dtype != PE_F64)
        return pe__fail(PE_ERR_DTYPE, "dtype=%s: cos/sin caches are f32 or f64",
                        pe_dtype_name(dtype));
    const int64_t half = freqs->rotary_dim / 2;
    size_t n;
    if (!pe__mul_size(count, half, &n) || n > SIZE_MAX / sizeof(double))
        return pe__fail(PE_ERR_OVERFLOW, "count=%lld x pairs overflows size_t",
                        (long long)count);
    if (count == 0) return PE_OK;
    PE_CHECK_NULL(cos_out);
    PE_CHECK_NULL(sin_out);
    double *cs = malloc(sizeof(double) * 2 * (size_t)half);
    if (cs == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for cos/sin");
    const pe_kernel_table *k = pe__kernels();
    for (int64_t t = 0; t < count; t++) {
        k->cos_sin(pe__position_at(positions, t), freqs->inv_freq,
                   freqs->inv_freq_lo, half, cs, cs + half);
        size_t row = (size_t)t * (size_t)half;
        for (int64_t i = 0; i < half; i++) {
            if (dtype == PE_F32) {
                ((float *)cos_out)[row + i] = (float)cs[i];
                ((float *)sin_out)[row + i] = (float)cs[half + i];
            } else {
                ((double *)cos_out)[row + i] = cs[i];
                ((double *)sin_out)[row + i] = cs[half + i];
            }
        }
    }
    free(cs);
    return PE_OK;
}

int pe_rope_layout_permutation(int64_t head_dim, int64_t rotary_dim,
                               int64_t *perm) {
    PE_TRY(check_rotary_dim(rotary_dim));
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
