/* test_attention.c — reference attention against a long double softmax
 * written here; permutation equivariance without positions and its loss with
 * RoPE or sinusoidal encodings; causal masking; bias; errors. */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>

static void ref_attention(const float *q, const float *k, const float *v, int64_t nq,
                          int64_t nk, int64_t D, int64_t Dv, const float *bias,
                          int causal, long double *out) {
    for (int64_t i = 0; i < nq; i++) {
        long double l[64], mx = -INFINITY, sum = 0;
        int64_t vis = causal ? i + (nk - nq) + 1 : nk;
        for (int64_t j = 0; j < vis; j++) {
            long double dot = 0;
            for (int64_t e = 0; e < D; e++) dot += (long double)q[i * D + e] * k[j * D + e];
            l[j] = dot / sqrtl((long double)D) + (bias ? bias[i * nk + j] : 0);
            if (l[j] > mx) mx = l[j];
        }
        for (int64_t e = 0; e < Dv; e++) out[i * Dv + e] = 0;
        for (int64_t j = 0; j < vis; j++) {
            long double w = expl(l[j] - mx);
            sum += w;
            for (int64_t e = 0; e < Dv; e++) out[i * Dv + e] += w * v[j * Dv + e];
        }
        for (int64_t e = 0; e < Dv; e++) out[i * Dv + e] /= sum;
    }
}

static void fill(float *x, size_t n, pe_rng *r, double scale) {
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(r, -scale, scale);
}

TEST(attention_matches_reference) {
    pe_rng rng = {pe_test_seed()};
    float q[6 * 8], k[9 * 8], v[9 * 5], bias[6 * 9], out[6 * 5];
    fill(q, 48, &rng, 2);
    fill(k, 72, &rng, 2);
    fill(v, 45, &rng, 1);
    fill(bias, 54, &rng, 3);
    long double ref[30];
    for (int causal = 0; causal < 2; causal++)
        for (int b = 0; b < 2; b++) {
            pe_attention_params p = pe_attention_params_default(6, 9, 8, 5);
            p.causal = causal;
            p.bias = b ? bias : NULL;
            CHECK_OK(pe_attention(&p, q, k, v, out));
            ref_attention(q, k, v, 6, 9, 8, 5, b ? bias : NULL, causal, ref);
            /* outputs are convex combinations of v in [-1, 1], accumulated in
             * double and rounded once to float (6e-8) */
            for (int i = 0; i < 30; i++) CHECK_NEAR(out[i], (double)ref[i], 1.2e-7);
        }
    /* stable softmax: huge logits do not overflow */
    for (int i = 0; i < 48; i++) q[i] *= 1e4f;
    pe_attention_params p = pe_attention_params_default(6, 9, 8, 5);
    CHECK_OK(pe_attention(&p, q, k, v, out));
    for (int i = 0; i < 30; i++) CHECK(isfinite(out[i]));
}

TEST(attention_causal_first_query_sees_first_key) {
    float q[3 * 2] = {1, 0, 0, 1, 1, 1}, k[3 * 2] = {1, 0, 0, 1, 1, 1};
    float v[3 * 1] = {10, 20, 30}, out[3];
    pe_attention_params p = pe_attention_params_default(3, 3, 2, 1);
    p.causal = 1;
    CHECK_OK(pe_attention(&p, q, k, v, out));
    CHECK(out[0] == 10.0f); /* only key 0 is visible to query 0 */
}

/* Rows of `out` for the permuted input equal the permuted rows of `out`. */
static double equivariance_gap(const float *x, const int64_t *perm, int64_t T, int64_t D,
                               int scheme) {
    float *xp = malloc(sizeof(float) * T * D), *o = malloc(sizeof(float) * T * D),
          *op = malloc(sizeof(float) * T * D), *a = malloc(sizeof(float) * T * D),
          *ap = malloc(sizeof(float) * T * D);
    for (int64_t t = 0; t < T; t++) memcpy(xp + t * D, x + perm[t] * D, sizeof(float) * D);
    pe_attention_params p = pe_attention_params_default(T, T, D, D);
    if (scheme == 0) {
        CHECK_OK(pe_attention(&p, x, x, x, o));
        CHECK_OK(pe_attention(&p, xp, xp, xp, op));
    } else if (scheme == 1) {
        /* RoPE: the token that moved to slot t now sits at position t */
        pe_freqs f;
        CHECK_OK(pe_freqs_default(D, 10000.0, &f));
        pe_positions pos = pe_positions_range(0);
        CHECK_OK(pe_attention_rope(&p, &f, PE_ROPE_HALF, &pos, &pos, x, x, x, o));
        CHECK_OK(pe_attention_rope(&p, &f, PE_ROPE_HALF, &pos, &pos, xp, xp, xp, op));
    } else {
        /* sinusoidal added at the input */
        pe_additive_params s = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
        pe_positions pos = pe_positions_range(0);
        float *pe = malloc(sizeof(float) * T * D);
        CHECK_OK(pe_additive_encode(&s, &pos, T, pe, PE_F32));
        for (int64_t i = 0; i < T * D; i++) {
            a[i] = x[i] + pe[i];
            ap[i] = xp[i] + pe[i];
        }
        CHECK_OK(pe_attention(&p, a, a, a, o));
        CHECK_OK(pe_attention(&p, ap, ap, ap, op));
        /* compare content (subtract the encoding the slot added) */
        for (int64_t i = 0; i < T * D; i++) {
            o[i] -= pe[i];
            op[i] -= pe[i];
        }
        free(pe);
    }
    double gap = 0;
    for (int64_t t = 0; t < T; t++)
        for (int64_t e = 0; e < D; e++) {
            double g = fabs((double)op[t * D + e] - (double)o[perm[t] * D + e]);
            if (g > gap) gap = g;
        }
    free(xp);
    free(o);
    free(op);
    free(a);
    free(ap);
    return gap;
}

TEST(attention_permutation_equivariance) {
    pe_rng rng = {pe_test_seed()};
    const int64_t T = 6, D = 8;
    float x[6 * 8];
    fill(x, 48, &rng, 1.5);
    const int64_t perm[6] = {3, 0, 5, 1, 4, 2};
    /* no position information: a bag of words, equal up to float rounding of
     * sums taken in another order (~1e-7) */
    CHECK(equivariance_gap(x, perm, T, D, 0) < 1e-6);
    /* with RoPE or sinusoidal encodings order matters: the outputs differ by
     * far more than rounding */
    CHECK(equivariance_gap(x, perm, T, D, 1) > 1e-2);
    CHECK(equivariance_gap(x, perm, T, D, 2) > 1e-2);
}

TEST(attention_errors) {
    float q[4] = {0}, out[4];
    memset(out, 0x44, sizeof out);
    unsigned char b[sizeof out];
    memcpy(b, out, sizeof out);
    pe_attention_params p = pe_attention_params_default(2, 1, 2, 2);
    p.causal = 1;
    CHECK_ERROR(pe_attention(&p, q, q, q, out), PE_ERR_SHAPE, "n_q=2 <= n_k=1");
    p = pe_attention_params_default(0, 1, 2, 2);
    CHECK_ERROR(pe_attention(&p, q, q, q, out), PE_ERR_DIM, "n_q=0");
    p = pe_attention_params_default(1, 1, 2, 2);
    p.scale = NAN;
    CHECK_ERROR(pe_attention(&p, q, q, q, out), PE_ERR_PARAM, "scale=nan");
    p = pe_attention_params_default(1, 1, 2, 2);
    CHECK_ERROR(pe_attention(&p, q, NULL, q, out), PE_ERR_NULL, "k");
    pe_freqs f;
    CHECK_OK(pe_freqs_default(4, 10000.0, &f));
    pe_positions pos = pe_positions_range(0);
    CHECK_ERROR(pe_attention_rope(&p, &f, PE_ROPE_HALF, &pos, &pos, q, q, q, out), PE_ERR_DIM,
                "rotary_dim=4 exceeds dim=2");
    CHECK(memcmp(out, b, sizeof out) == 0);
}

TEST(version_and_strerror) {
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", PE_VERSION_MAJOR, PE_VERSION_MINOR, PE_VERSION_PATCH);
    CHECK(strcmp(pe_version_string(), want) == 0);
    CHECK(pe_version_number() == PE_VERSION_NUMBER);
    CHECK(strcmp(pe_strerror(PE_OK), "success") == 0);
    CHECK(strcmp(pe_strerror(PE_ERR_DIM), "invalid dimension") == 0);
    CHECK(strcmp(pe_strerror(12345), "unknown status") == 0);
    const char *k = pe_kernels_name();
    CHECK(strcmp(k, "scalar") == 0 || strcmp(k, "avx2") == 0 || strcmp(k, "avx512") == 0 ||
          strcmp(k, "neon") == 0);
    CHECK(pe_dtype_size(PE_BF16) == 2 && strcmp(pe_dtype_name(PE_I64), "i64") == 0);
}
