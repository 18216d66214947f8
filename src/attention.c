/*
 * attention.c — the reference attention of SPEC §4, accumulated in double:
 * out = softmax(scale q k^T + bias + mask) v with a max-subtracted softmax.
 * It is the yardstick for every position scheme's effect on attention, not a
 * fast path.
 */
#include "internal.h"
#include "positions.h"
#include "struct_size.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Largest accepted scale (see check_params). */
#define PE_ATTENTION_MAX_SCALE 1e200

/* Every matrix of the call (f32) and the scratch of pe_attention (n_k +
 * dim_v doubles) fit in size_t; pe_attention_rope's rotated copies are
 * sized by pe__alloc. */
static bool attention_sizes_ok(const pe_attention_params *p) {
    size_t b;
    return pe__mul_size(p->n_q, p->n_k, &b) && pe__size_mul(b, 4, &b) &&
           pe__mul_size(p->n_q, p->dim, &b) && pe__size_mul(b, 4, &b) &&
           pe__mul_size(p->n_k, p->dim, &b) && pe__size_mul(b, 4, &b) &&
           pe__mul_size(p->n_k, p->dim_v, &b) && pe__size_mul(b, 4, &b) &&
           pe__mul_size(p->n_q, p->dim_v, &b) && pe__size_mul(b, 4, &b) &&
           pe__size_add((size_t)p->n_k, (size_t)p->dim_v, &b) &&
           pe__size_mul(b, sizeof(double), &b);
}

pe_attention_params pe_attention_params_default(int64_t n_q, int64_t n_k, int64_t dim,
                                                int64_t dim_v) {
    pe_attention_params p = {sizeof(pe_attention_params), n_q, n_k, dim, dim_v, 0.0, 0, NULL};
    return p;
}

static int check_params(const pe_attention_params *params) {
    PE_CHECK_NULL(params);
    /* The struct_size rule (struct_size.h). Every field read here belongs to
     * the first version, so the caller's struct is read in place; a field
     * added later must be read from the resolved copy. */
    pe_attention_params resolved;
    const pe_attention_params defaults =
        pe_attention_params_default(params->n_q, params->n_k, params->dim, params->dim_v);
    PE_TRY(pe__struct_resolve(params, &defaults, &resolved, sizeof resolved,
                              PE__SIZE_THROUGH(pe_attention_params, bias), "pe_attention_params",
                              "pe_attention_params_default"));
    const pe_attention_params *p = params;
    if (p->n_q < 1 || p->n_k < 1 || p->dim < 1 || p->dim_v < 1)
        return pe__fail(PE_ERR_DIM,
                        "n_q=%lld, n_k=%lld, dim=%lld, dim_v=%lld must all be >= 1",
                        (long long)p->n_q, (long long)p->n_k, (long long)p->dim,
                        (long long)p->dim_v);
    if (p->causal && p->n_q > p->n_k)
        return pe__fail(PE_ERR_SHAPE,
                        "causal attention needs n_q=%lld <= n_k=%lld (queries are "
                        "the last keys)",
                        (long long)p->n_q, (long long)p->n_k);
    if (!isfinite(p->scale))
        return pe__fail(PE_ERR_PARAM, "scale=%g must be finite", p->scale);
    /* |q.k| <= dim FLT_MAX^2 < 2^61 x 1.2e77: below this scale every logit
     * is finite, so the softmax never meets inf - inf */
    if (p->scale > PE_ATTENTION_MAX_SCALE)
        return pe__fail(PE_ERR_RANGE, "scale=%g exceeds 1e200", p->scale);
    if (!attention_sizes_ok(p))
        return pe__fail(PE_ERR_OVERFLOW, "attention sizes overflow size_t");
    return PE_OK;
}

/* Byte sizes of q, k, v, out and bias as the call reads them. */
typedef struct {
    size_t q, k, v, out, bias;
} attention_bytes;

static attention_bytes attention_sizes(const pe_attention_params *p) {
    /* checked by check_params */
    attention_bytes b = {(size_t)p->n_q * (size_t)p->dim * 4, (size_t)p->n_k * (size_t)p->dim * 4,
                         (size_t)p->n_k * (size_t)p->dim_v * 4,
                         (size_t)p->n_q * (size_t)p->dim_v * 4,
                         p->bias ? (size_t)p->n_q * (size_t)p->n_k * 4 : 0};
    return b;
}

/* out is written row by row while k, v and bias are read for every row:
 * it must not share memory with any input (overlap.c). A bias entry of
 * NaN or +inf would turn the softmax into inf - inf. */
static int check_inputs(const pe_attention_params *p, const float *q, const float *k,
                        const float *v, const float *out) {
    const attention_bytes b = attention_sizes(p);
    PE_TRY(pe__check_bytes_apart(out, b.out, "out", q, b.q, "q"));
    PE_TRY(pe__check_bytes_apart(out, b.out, "out", k, b.k, "k"));
    PE_TRY(pe__check_bytes_apart(out, b.out, "out", v, b.v, "v"));
    PE_TRY(pe__check_bytes_apart(out, b.out, "out", p->bias, b.bias, "bias"));
    if (p->bias)
        for (size_t i = 0; i < b.bias / 4; i++)
            if (!(p->bias[i] < INFINITY))
                return pe__fail(PE_ERR_PARAM, "bias[%zu]=%g must be < +inf (-inf masks)", i,
                                (double)p->bias[i]);
    return PE_OK;
}

int pe_attention(const pe_attention_params *p, const float *q, const float *k,
                 const float *v, float *out) {
    PE_TRY(check_params(p));
    PE_CHECK_NULL(q);
    PE_CHECK_NULL(k);
    PE_CHECK_NULL(v);
    PE_CHECK_NULL(out);
    PE_TRY(check_inputs(p, q, k, v, out));
    const double scale = p->scale > 0 ? p->scale : 1.0 / sqrt((double)p->dim);
    const int64_t shift = p->n_k - p->n_q; /* query i sits at key position i + shift */
    double *logits; /* and acc: n_k + dim_v, checked by check_params */
    PE_TRY(pe__alloc("attention logits", p->n_k + p->dim_v, 1, sizeof(double), &logits));
    double *acc = logits + p->n_k;
    for (int64_t i = 0; i < p->n_q; i++) {
        const float *qi = q + i * p->dim;
        const int64_t visible = p->causal ? i + shift + 1 : p->n_k;
        double mx = -INFINITY;
        for (int64_t j = 0; j < visible; j++) {
            const float *kj = k + j * p->dim;
            double dot = 0.0;
            for (int64_t e = 0; e < p->dim; e++) dot += (double)qi[e] * (double)kj[e];
            double l = scale * dot;
            if (p->bias) l += (double)p->bias[i * p->n_k + j];
            logits[j] = l;
            if (l > mx) mx = l;
        }
        memset(acc, 0, sizeof(double) * (size_t)p->dim_v);
        float *oi = out + i * p->dim_v;
        if (mx == -INFINITY) { /* every key masked out: no information */
            for (int64_t e = 0; e < p->dim_v; e++) oi[e] = 0.0f;
            continue;
        }
        double sum = 0.0;
        for (int64_t j = 0; j < visible; j++) {
            double w = exp(logits[j] - mx);
            sum += w;
            const float *vj = v + j * p->dim_v;
            for (int64_t e = 0; e < p->dim_v; e++) acc[e] += w * (double)vj[e];
        }
        for (int64_t e = 0; e < p->dim_v; e++) oi[e] = (float)(acc[e] / sum);
    }
    free(logits);
    return PE_OK;
}

int pe_attention_rope(const pe_attention_params *p, const pe_freqs *freqs,
                      pe_rope_layout layout, const pe_positions *q_positions,
                      const pe_positions *k_positions, const float *q,
                      const float *k, const float *v, float *out) {
    PE_TRY(check_params(p));
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_positions(q_positions, p->n_q));
    PE_TRY(pe__check_positions(k_positions, p->n_k));
    PE_CHECK_NULL(q);
    PE_CHECK_NULL(k);
    PE_CHECK_NULL(v);
    PE_CHECK_NULL(out);
    if (freqs->rotary_dim > p->dim)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld exceeds dim=%lld",
                        (long long)freqs->rotary_dim, (long long)p->dim);
    PE_TRY(check_inputs(p, q, k, v, out));
    /* positions of every kind are inputs too (overlap.c) */
    const size_t out_bytes = attention_sizes(p).out;
    PE_TRY(pe__check_positions_apart(q_positions, p->n_q, out, out_bytes, "out"));
    PE_TRY(pe__check_positions_apart(k_positions, p->n_k, out, out_bytes, "out"));
    const size_t nq = (size_t)p->n_q * (size_t)p->dim; /* checked by check_params */
    float *rq;
    PE_TRY(pe__alloc("rotated q and k", p->n_q + p->n_k, p->dim, sizeof(float), &rq));
    float *rk = rq + nq;
    pe_tensor tq_in = pe_tensor_dense((void *)q, PE_F32, p->n_q, 1, p->dim);
    pe_tensor tq_out = pe_tensor_dense(rq, PE_F32, p->n_q, 1, p->dim);
    pe_tensor tk_in = pe_tensor_dense((void *)k, PE_F32, p->n_k, 1, p->dim);
    pe_tensor tk_out = pe_tensor_dense(rk, PE_F32, p->n_k, 1, p->dim);
    int status = pe_rope_apply(freqs, layout, q_positions, &tq_in, &tq_out,
                               PE_ROPE_FORWARD);
    if (status == PE_OK)
        status = pe_rope_apply(freqs, layout, k_positions, &tk_in, &tk_out,
                               PE_ROPE_FORWARD);
    if (status == PE_OK) {
        pe_attention_params scaled = *p;
        double base = p->scale > 0 ? p->scale : 1.0 / sqrt((double)p->dim);
        scaled.scale = base * freqs->softmax_scale_multiplier;
        status = pe_attention(&scaled, rq, rk, v, out);
    }
    free(rq);
    return status;
}
