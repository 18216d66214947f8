/* test_bias.c — ALiBi slopes and biases, T5 buckets and bias fills (SPEC §3),
 * against references written here from the SPEC formulas: long double
 * powers for the slopes, exact big-integer comparisons for the buckets, a
 * long double attention for the "usable as pe_attention's bias" claim. */
#include "runner.h"

#include <stdlib.h>

/* ------------------------------------------------------------- references */

/* Largest power of two <= n. */
static int64_t ref_pow2_floor(int64_t n) {
    int64_t c = 1;
    while (2 * c <= n) c *= 2;
    return c;
}

/* SPEC slope in long double: the exponent is a dyadic rational (exact), and
 * powl(2, x) is within an ulp of long double, 11 bits finer than double. */
static long double ref_slope(int64_t h, int64_t n) {
    const int64_t c = ref_pow2_floor(n);
    const long double x = h < c ? 8.0L * (long double)(h + 1) / (long double)c
                                : 4.0L * (long double)(2 * (h - c) + 1) / (long double)c;
    return powl(2.0L, -x);
}

/* Press et al.'s construction, written independently of the SPEC's closed
 * form: a geometric ladder start^(i+1), start = 2^(-8/c), and for a
 * non-power of two the even-indexed rungs of the 2c ladder. */
static long double press_slope(int64_t h, int64_t n) {
    const int64_t c = ref_pow2_floor(n);
    if (h < c) return powl(powl(2.0L, -8.0L / (long double)c), (long double)(h + 1));
    const int64_t i = 2 * (h - c); /* even index into the 2c ladder */
    return powl(powl(2.0L, -8.0L / (long double)(2 * c)), (long double)(i + 1));
}

static uint64_t bits_of(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* The library's slope is exp2l of the fractional exponent rounded once to
 * double: correctly rounded because exp2l carries 11 bits more than double.
 * Where long double computes as a double (valgrind emulates x87 in double)
 * that guarantee is void in the library and in the reference alike, so only
 * closeness is checked there: each side's exp2/powl is within an ulp or two,
 * 4 ulps for both. Natively the check stays bit for bit. */
static int slope_matches(double got, double want) {
    if (pe_test_ld_eps() < 1e-18) return bits_of(got) == bits_of(want);
    return fabs(got - want) <= 4 * 0x1p-52 * fabs(want);
}

/* A small unsigned big integer, 32-bit limbs, for exact T5 comparisons. */
#define BIG_LIMBS 192
typedef struct {
    uint32_t d[BIG_LIMBS];
    int n;
} big;

static void big_one(big *b) {
    b->d[0] = 1;
    b->n = 1;
}

static void big_mul(big *b, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry) {
        if (b->n == BIG_LIMBS) abort(); /* a test sizing bug, not a result */
        b->d[b->n++] = (uint32_t)carry;
    }
}

static int big_cmp(const big *a, const big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/*
 * SPEC T5 bucket, exactly: with W = nb - e, floor(ln(n/e)/ln(M/e) * W) is
 * the largest k with (n/e)^W >= (M/e)^k, i.e. n^W e^k >= M^k e^W, decided
 * in big integers (no logarithm anywhere). n and M must fit in 32 bits.
 */
static int64_t ref_t5(int64_t r, int bidirectional, int64_t num_buckets, int64_t M) {
    int64_t nb = num_buckets, offset = 0, n;
    if (bidirectional) {
        nb /= 2;
        if (r > 0) offset = nb;
        n = r < 0 ? -r : r;
    } else {
        n = r < 0 ? -r : 0;
    }
    const int64_t e = nb / 2, W = nb - e;
    if (n < e) return offset + n;
    big a, b; /* a = n^W e^k, b = M^k e^W, for k = 0, 1, ... */
    big_one(&a);
    big_one(&b);
    for (int64_t i = 0; i < W; i++) {
        big_mul(&a, (uint32_t)n);
        big_mul(&b, (uint32_t)e);
    }
    int64_t k = 0;
    while (k < W) { /* past W the bucket is clamped anyway */
        big_mul(&a, (uint32_t)e);
        big_mul(&b, (uint32_t)M);
        if (big_cmp(&a, &b) < 0) break;
        k++;
    }
    int64_t bucket = e + k;
    if (bucket > nb - 1) bucket = nb - 1;
    return offset + bucket;
}

/* softmax(q k^T / sqrt(D) + bias) v for one query row, long double,
 * -inf bias entries dropped. */
static void ref_attention_row(const float *q, const float *k, const float *v,
                              const long double *bias, int64_t n_k, int64_t D,
                              long double *out) {
    long double mx = -INFINITY, w[64], sum = 0;
    for (int64_t j = 0; j < n_k; j++) {
        long double dot = 0;
        for (int64_t e = 0; e < D; e++) dot += (long double)q[e] * k[j * D + e];
        w[j] = dot / sqrtl((long double)D) + bias[j];
        if (w[j] > mx) mx = w[j];
    }
    for (int64_t j = 0; j < n_k; j++) {
        w[j] = isinf(w[j]) ? 0 : expl(w[j] - mx);
        sum += w[j];
    }
    for (int64_t e = 0; e < D; e++) {
        out[e] = 0;
        for (int64_t j = 0; j < n_k; j++) out[e] += w[j] * v[j * D + e] / sum;
    }
}

/* ------------------------------------------------------------------ ALiBi */

TEST(alibi_slopes_spec_fact_n12) {
    double s[12];
    CHECK_OK(pe_alibi_slopes(12, s));
    /* c = 8: eight exact powers 2^-1 .. 2^-8, then the odd rungs of the
     * 16-head ladder 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5. */
    for (int h = 0; h < 8; h++) CHECK(s[h] == ldexp(1.0, -(h + 1)));
    CHECK_NEAR(s[0], 0.5, 0.0);
    CHECK_NEAR(s[7], 0.00390625, 0.0);
    /* the SPEC prints 8 decimals: half a unit of the last digit */
    CHECK_NEAR(s[8], 0.70710678, 5e-9);
    CHECK_NEAR(s[9], 0.35355339, 5e-9);
    CHECK_NEAR(s[10], 0.17677670, 5e-9);
    CHECK_NEAR(s[11], 0.08838835, 5e-9);
    /* sqrt is correctly rounded and ldexp exact: bit-exact expectations
     * (natively; see slope_matches) */
    for (int k = 0; k < 4; k++) CHECK(slope_matches(s[8 + k], ldexp(sqrt(0.5), -k)));
}

TEST(alibi_slopes_bit_exact_against_long_double) {
    /* Every head count 1..300 and a few large ones: the library's double is
     * the long double reference rounded once to double. */
    double *s = malloc(sizeof(double) * 4096);
    const int64_t extra[] = {511, 512, 513, 1000, 4095, 4096};
    for (int64_t idx = 0; idx < 300 + 6; idx++) {
        const int64_t n = idx < 300 ? idx + 1 : extra[idx - 300];
        CHECK_OK(pe_alibi_slopes(n, s));
        for (int64_t h = 0; h < n; h++) {
            const double ref = (double)ref_slope(h, n);
            CHECK_MSG(slope_matches(s[h], ref), "heads=%lld h=%lld: %a != %a",
                      (long long)n, (long long)h, s[h], ref);
            /* Press et al.'s ladder computes the same numbers another way:
             * the rounded base start = 2^(-8/c) raised to h+1 <= 4096 carries
             * (h+1) ulps of long double plus powl's own, <= 9e-16 with x87
             * (2^-63 eps); where long double is a double the same count of
             * its ulps, hence the run-time eps. */
            const double ladder_tol = fmax(1e-15, 2.0 * (double)(h + 2) * pe_test_ld_eps());
            CHECK_NEAR(s[h] / (double)press_slope(h, n), 1.0, ladder_tol);
            CHECK(s[h] >= ldexp(1.0, -8) && s[h] < 1.0);
        }
    }
    free(s);
}

TEST(alibi_bias_values_both_modes_and_dtypes) {
    const int64_t H = 5, cases[3][2] = {{3, 7}, {4, 4}, {7, 3}};
    double slopes[5];
    CHECK_OK(pe_alibi_slopes(H, slopes));
    for (int ci = 0; ci < 3; ci++)
        for (int mode = 0; mode < 2; mode++) {
            const int64_t nq = cases[ci][0], nk = cases[ci][1];
            if (mode == PE_ALIBI_CAUSAL && nq > nk) continue; /* an error, below */
            double out64[5 * 7 * 7];
            float out32[5 * 7 * 7];
            CHECK_OK(pe_alibi_bias(H, nq, nk, (pe_alibi_mode)mode, out64, PE_F64));
            CHECK_OK(pe_alibi_bias(H, nq, nk, (pe_alibi_mode)mode, out32, PE_F32));
            for (int64_t h = 0; h < H; h++)
                for (int64_t i = 0; i < nq; i++)
                    for (int64_t j = 0; j < nk; j++) {
                        const int64_t o = (h * nq + i) * nk + j;
                        const int64_t dist = i + nk - nq - j; /* query at i + nk - nq */
                        if (mode == PE_ALIBI_CAUSAL && dist < 0) {
                            CHECK(isinf(out64[o]) && out64[o] < 0);
                            CHECK(isinf(out32[o]) && out32[o] < 0);
                            continue;
                        }
                        /* slope (53 bits) times |dist| < 2^11 is exact in
                         * long double: one rounding to double, then float. */
                        const long double exact = -(long double)slopes[h] *
                                                  (long double)(dist < 0 ? -dist : dist);
                        const double ref = (double)exact;
                        CHECK(bits_of(out64[o]) == bits_of(ref == 0 ? 0.0 : ref));
                        CHECK(out32[o] == (float)ref);
                        CHECK_NEAR(out64[o], -ref_slope(h, H) * fabsl((long double)dist), 1e-15);
                    }
        }
}

TEST(alibi_bias_feeds_attention_and_matches_bloom_form) {
    /* One head's slice is pe_attention's bias as is; and BLOOM/Press add
     * +m*j (key position only), which differs from -m(i'-j) by a per-row
     * constant m*i' and so gives the same causal softmax. */
    pe_rng rng = {pe_test_seed()};
    enum { H = 3, NQ = 4, NK = 6, D = 8 };
    float q[NQ * D], k[NK * D], v[NK * D], bias[H * NQ * NK], bloom[NQ * NK];
    for (int i = 0; i < NQ * D; i++) q[i] = (float)pe_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < NK * D; i++) {
        k[i] = (float)pe_rng_uniform(&rng, -1, 1);
        v[i] = (float)pe_rng_uniform(&rng, -1, 1);
    }
    CHECK_OK(pe_alibi_bias(H, NQ, NK, PE_ALIBI_CAUSAL, bias, PE_F32));
    for (int h = 0; h < H; h++) {
        pe_attention_params p = pe_attention_params_default(NQ, NK, D, D);
        p.causal = 1;
        p.bias = bias + h * NQ * NK;
        float out[NQ * D], out_bloom[NQ * D];
        CHECK_OK(pe_attention(&p, q, k, v, out));
        const long double m = ref_slope(h, H);
        for (int i = 0; i < NQ; i++) {
            long double rb[NK], ro[D];
            for (int j = 0; j < NK; j++) {
                const int qpos = i + NK - NQ;
                rb[j] = j > qpos ? -INFINITY : -m * (long double)(qpos - j);
                bloom[i * NK + j] = (float)(m * j);
            }
            ref_attention_row(q + i * D, k, v, rb, NK, D, ro);
            /* f32 inputs and outputs; bias rounded to f32 (6e-8 relative of
             * at most 0.25*5): logit errors ~1e-7, outputs |v| <= 1. */
            for (int e = 0; e < D; e++) CHECK_NEAR(out[i * D + e], (double)ro[e], 1e-6);
        }
        p.bias = bloom;
        CHECK_OK(pe_attention(&p, q, k, v, out_bloom));
        for (int e = 0; e < NQ * D; e++) CHECK_NEAR(out_bloom[e], out[e], 1e-6);
    }
}

TEST(alibi_errors_leave_buffers_untouched) {
    double buf[64];
    unsigned char before[sizeof buf];
    memset(buf, 0x5a, sizeof buf);
    memcpy(before, buf, sizeof buf);
    CHECK_ERROR(pe_alibi_slopes(0, buf), PE_ERR_PARAM, "heads=0");
    CHECK_ERROR(pe_alibi_slopes(-3, buf), PE_ERR_PARAM, "heads=-3");
    CHECK_ERROR(pe_alibi_slopes(4, NULL), PE_ERR_NULL, "slopes");
    CHECK_ERROR(pe_alibi_bias(0, 2, 2, PE_ALIBI_SYMMETRIC, buf, PE_F64), PE_ERR_PARAM,
                "heads=0");
    CHECK_ERROR(pe_alibi_bias(2, -1, 2, PE_ALIBI_SYMMETRIC, buf, PE_F64), PE_ERR_SHAPE,
                "n_q=-1");
    CHECK_ERROR(pe_alibi_bias(2, 2, -4, PE_ALIBI_SYMMETRIC, buf, PE_F64), PE_ERR_SHAPE,
                "n_k=-4");
    CHECK_ERROR(pe_alibi_bias(2, 2, 2, (pe_alibi_mode)7, buf, PE_F64), PE_ERR_PARAM,
                "mode=7");
    CHECK_ERROR(pe_alibi_bias(2, 2, 2, PE_ALIBI_SYMMETRIC, buf, PE_F16), PE_ERR_DTYPE,
                "f16");
    CHECK_ERROR(pe_alibi_bias(2, 2, 2, PE_ALIBI_SYMMETRIC, buf, PE_I64), PE_ERR_DTYPE,
                "i64");
    CHECK_ERROR(pe_alibi_bias(2, 5, 3, PE_ALIBI_CAUSAL, buf, PE_F64), PE_ERR_SHAPE,
                "n_q=5 <= n_k=3");
    CHECK_ERROR(pe_alibi_bias(2, 2, 2, PE_ALIBI_SYMMETRIC, NULL, PE_F64), PE_ERR_NULL,
                "out");
    CHECK_ERROR(pe_alibi_bias(INT64_MAX / 2, 4, 4, PE_ALIBI_SYMMETRIC, buf, PE_F32),
                PE_ERR_OVERFLOW, "overflows");
    CHECK_ERROR(pe_alibi_bias(1, INT64_MAX, 3, PE_ALIBI_SYMMETRIC, buf, PE_F64),
                PE_ERR_OVERFLOW, "overflows");
    CHECK(memcmp(buf, before, sizeof buf) == 0);
    /* Empty matrices are legal and write nothing, even through NULL. */
    CHECK_OK(pe_alibi_bias(3, 0, 5, PE_ALIBI_SYMMETRIC, NULL, PE_F32));
    CHECK_OK(pe_alibi_bias(3, 0, 0, PE_ALIBI_CAUSAL, NULL, PE_F32));
}

/* ------------------------------------------------------------- T5 buckets */

TEST(t5_spec_facts_and_log_boundaries) {
    /* SPEC facts, bidirectional 32/128 */
    const int64_t facts[][2] = {{-8, 8}, {-16, 10}, {-32, 12}, {1, 17}, {16, 26}, {127, 31}};
    for (int i = 0; i < 6; i++) {
        int64_t b = -1;
        CHECK_OK(pe_t5_bucket(facts[i][0], 1, 32, 128, &b));
        CHECK_MSG(b == facts[i][1], "r=%lld -> %lld, want %lld", (long long)facts[i][0],
                  (long long)b, (long long)facts[i][1]);
    }
    /* n = 16, 32, 64 sit exactly where 2 log2(n/8) is an integer: the upper
     * bucket, and one less just below. */
    const int64_t at[3] = {16, 32, 64}, want[3] = {10, 12, 14};
    for (int i = 0; i < 3; i++) {
        int64_t b;
        CHECK_OK(pe_t5_bucket(-at[i], 1, 32, 128, &b));
        CHECK(b == want[i]);
        CHECK_OK(pe_t5_bucket(at[i], 1, 32, 128, &b));
        CHECK(b == 16 + want[i]);
        CHECK_OK(pe_t5_bucket(-(at[i] - 1), 1, 32, 128, &b));
        CHECK(b == want[i] - 1);
        CHECK_OK(pe_t5_bucket(at[i] - 1, 1, 32, 128, &b));
        CHECK(b == 16 + want[i] - 1);
    }
    /* causal 32/128: e = 16, boundaries only at 16 and 128; the future is 0 */
    int64_t b;
    CHECK_OK(pe_t5_bucket(5, 0, 32, 128, &b));
    CHECK(b == 0);
    CHECK_OK(pe_t5_bucket(-15, 0, 32, 128, &b));
    CHECK(b == 15);
    CHECK_OK(pe_t5_bucket(-16, 0, 32, 128, &b));
    CHECK(b == 16);
    CHECK_OK(pe_t5_bucket(-127, 0, 32, 128, &b));
    CHECK(b == 31);
}

TEST(t5_every_r_matches_exact_reference) {
    /* Every r in [-300, 300], both directions, against the big-integer
     * reference. The configurations include ratios M/e that are powers
     * (2^4, 2^8, 3^3, 6^2, and (3/2)^2 for causal 16/18, whose boundary
     * n = 12 is an integer although M/e is not) so that many r land exactly
     * on a boundary. */
    const int64_t cfg[][2] = {{32, 128}, {64, 128}, {32, 256}, {16, 64},   {128, 256},
                              {8, 20},   {24, 324}, {12, 216}, {64, 4096}, {4, 3},
                              {33, 100}, {2, 2},    {6, 30},   {320, 800}, {16, 18}};
    int64_t *vec = malloc(sizeof(int64_t) * 601);
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++)
        for (int bi = 0; bi < 2; bi++) {
            const int64_t NB = cfg[c][0], M = cfg[c][1];
            const int64_t nb = bi ? NB / 2 : NB;
            if (bi && (NB % 2 != 0 || NB < 4)) continue;
            if (M <= nb / 2) continue;
            CHECK_OK(pe_t5_buckets(-300, 601, bi, NB, M, vec));
            int64_t mismatches = 0;
            for (int64_t r = -300; r <= 300; r++) {
                int64_t b;
                CHECK_OK(pe_t5_bucket(r, bi, NB, M, &b));
                const int64_t ref = ref_t5(r, bi, NB, M);
                if (b != ref || vec[r + 300] != b) {
                    if (mismatches++ < 3)
                        pe_test_fail(__FILE__, __LINE__,
                                     "%s %lld/%lld r=%lld: %lld (vector %lld), exact %lld",
                                     bi ? "bidirectional" : "causal", (long long)NB,
                                     (long long)M, (long long)r, (long long)b,
                                     (long long)vec[r + 300], (long long)ref);
                }
                CHECK(b >= 0 && b < NB);
            }
        }
    free(vec);
}

TEST(t5_random_configs_match_exact_reference) {
    pe_rng rng = {pe_test_seed()};
    for (int it = 0; it < 300; it++) {
        const int bi = (int)pe_rng_int(&rng, 0, 1);
        const int64_t NB = bi ? 2 * pe_rng_int(&rng, 2, 80) : pe_rng_int(&rng, 2, 120);
        const int64_t e = (bi ? NB / 2 : NB) / 2;
        const int64_t M = pe_rng_int(&rng, e + 1, e + 3000);
        for (int s = 0; s < 40; s++) {
            const int64_t r = pe_rng_int(&rng, -2 * M, 2 * M);
            int64_t b;
            CHECK_OK(pe_t5_bucket(r, bi, NB, M, &b));
            const int64_t ref = ref_t5(r, bi, NB, M);
            CHECK_MSG(b == ref, "%d %lld/%lld r=%lld: %lld, exact %lld", bi,
                      (long long)NB, (long long)M, (long long)r, (long long)b,
                      (long long)ref);
        }
    }
}

TEST(t5_extreme_relative_positions) {
    int64_t b;
    CHECK_OK(pe_t5_bucket(INT64_MIN, 1, 32, 128, &b));
    CHECK(b == 15);
    CHECK_OK(pe_t5_bucket(INT64_MAX, 1, 32, 128, &b));
    CHECK(b == 31);
    CHECK_OK(pe_t5_bucket(INT64_MIN, 0, 32, 128, &b));
    CHECK(b == 31);
    CHECK_OK(pe_t5_bucket(INT64_MAX, 0, 32, 128, &b));
    CHECK(b == 0);
    CHECK_OK(pe_t5_bucket(0, 1, 32, 128, &b));
    CHECK(b == 0);
    /* max_distance near the int64 limit still takes the logarithm path */
    CHECK_OK(pe_t5_bucket(-(INT64_MAX - 1), 0, 32, INT64_MAX, &b));
    CHECK(b == 31);
    /* causal 32 buckets, M = 2^36, n = 2^32: (n/e)^16 = 2^448 = (M/e)^14, an
     * exact boundary far beyond the reference's 32-bit range: bucket e + 14 */
    CHECK_OK(pe_t5_bucket(-(INT64_C(1) << 32), 0, 32, INT64_C(1) << 36, &b));
    CHECK(b == 30);
    CHECK_OK(pe_t5_bucket(-(INT64_C(1) << 32) + 1, 0, 32, INT64_C(1) << 36, &b));
    CHECK(b == 29);
}

TEST(t5_vector_range_edges) {
    int64_t v[4];
    CHECK_OK(pe_t5_buckets(INT64_MAX - 3, 4, 1, 32, 128, v));
    for (int i = 0; i < 4; i++) CHECK(v[i] == 31);
    CHECK_OK(pe_t5_buckets(5, 0, 1, 32, 128, NULL)); /* empty: nothing written */
}

TEST(t5_bias_fill_both_layouts_and_attention) {
    pe_rng rng = {pe_test_seed()};
    enum { H = 3, NB = 32, M = 128, D = 4 };
    float head_major[H * NB], bucket_major[NB * H];
    for (int h = 0; h < H; h++)
        for (int b = 0; b < NB; b++) {
            head_major[h * NB + b] = (float)pe_rng_uniform(&rng, -2, 2);
            bucket_major[b * H + h] = head_major[h * NB + b];
        }
    const int64_t shapes[3][2] = {{5, 9}, {40, 40}, {9, 5}};
    for (int si = 0; si < 3; si++)
        for (int bi = 0; bi < 2; bi++) {
            const int64_t nq = shapes[si][0], nk = shapes[si][1];
            float *a = malloc(sizeof(float) * H * nq * nk);
            float *b = malloc(sizeof(float) * H * nq * nk);
            CHECK_OK(pe_t5_bias(head_major, PE_T5_TABLE_HEAD_MAJOR, H, bi, NB, M, nq, nk, a));
            CHECK_OK(pe_t5_bias(bucket_major, PE_T5_TABLE_BUCKET_MAJOR, H, bi, NB, M, nq,
                                nk, b));
            CHECK(memcmp(a, b, sizeof(float) * H * nq * nk) == 0);
            for (int64_t h = 0; h < H; h++)
                for (int64_t i = 0; i < nq; i++)
                    for (int64_t j = 0; j < nk; j++) {
                        const int64_t r = j - (i + nk - nq); /* key - query */
                        CHECK(a[(h * nq + i) * nk + j] ==
                              head_major[h * NB + ref_t5(r, bi, NB, M)]);
                    }
            free(a);
            free(b);
        }
    /* a head's slice drives pe_attention exactly like the reference */
    enum { NQ = 6, NK = 6 };
    float q[NQ * D], k[NK * D], v[NK * D], bias[H * NQ * NK];
    for (int i = 0; i < NQ * D; i++) {
        q[i] = (float)pe_rng_uniform(&rng, -1, 1);
        k[i] = (float)pe_rng_uniform(&rng, -1, 1);
        v[i] = (float)pe_rng_uniform(&rng, -1, 1);
    }
    CHECK_OK(pe_t5_bias(head_major, PE_T5_TABLE_HEAD_MAJOR, H, 1, NB, M, NQ, NK, bias));
    pe_attention_params p = pe_attention_params_default(NQ, NK, D, D);
    p.bias = bias + 2 * NQ * NK;
    float out[NQ * D];
    CHECK_OK(pe_attention(&p, q, k, v, out));
    for (int i = 0; i < NQ; i++) {
        long double rb[NK], ro[D];
        for (int j = 0; j < NK; j++) rb[j] = head_major[2 * NB + ref_t5(j - i, 1, NB, M)];
        ref_attention_row(q + i * D, k, v, rb, NK, D, ro);
        /* the bias entries are the f32 table values themselves: only the
         * attention's own double accumulation and f32 output rounding */
        for (int e = 0; e < D; e++) CHECK_NEAR(out[i * D + e], (double)ro[e], 1e-6);
    }
}

TEST(t5_errors_leave_buffers_untouched) {
    int64_t buf[16];
    float fbuf[16];
    const float table[64] = {0};
    unsigned char before[sizeof buf], fbefore[sizeof fbuf];
    memset(buf, 0x5a, sizeof buf);
    memset(fbuf, 0x5a, sizeof fbuf);
    memcpy(before, buf, sizeof buf);
    memcpy(fbefore, fbuf, sizeof fbuf);
    CHECK_ERROR(pe_t5_bucket(1, 2, 32, 128, buf), PE_ERR_PARAM, "bidirectional=2");
    CHECK_ERROR(pe_t5_bucket(1, 1, 33, 128, buf), PE_ERR_PARAM, "num_buckets=33");
    CHECK_ERROR(pe_t5_bucket(1, 1, 2, 128, buf), PE_ERR_PARAM, "num_buckets=2");
    CHECK_ERROR(pe_t5_bucket(1, 0, 1, 128, buf), PE_ERR_PARAM, "num_buckets=1");
    CHECK_ERROR(pe_t5_bucket(1, 0, -4, 128, buf), PE_ERR_PARAM, "num_buckets=-4");
    CHECK_ERROR(pe_t5_bucket(1, 1, 32, 8, buf), PE_ERR_PARAM, "max_distance=8");
    CHECK_ERROR(pe_t5_bucket(1, 0, 32, 16, buf), PE_ERR_PARAM, "max_distance=16");
    CHECK_ERROR(pe_t5_bucket(1, 0, 32, -1, buf), PE_ERR_PARAM, "max_distance=-1");
    int64_t legal;
    CHECK_OK(pe_t5_bucket(-17, 0, 32, 17, &legal)); /* the smallest legal M */
    CHECK(legal == 31);
    CHECK_ERROR(pe_t5_bucket(1, 1, 32, 128, NULL), PE_ERR_NULL, "bucket");
    CHECK_ERROR(pe_t5_buckets(0, -1, 1, 32, 128, buf), PE_ERR_SHAPE, "count=-1");
    CHECK_ERROR(pe_t5_buckets(INT64_MAX, 2, 1, 32, 128, buf), PE_ERR_RANGE, "overflows");
    CHECK_ERROR(pe_t5_buckets(0, 3, 1, 32, 128, NULL), PE_ERR_NULL, "buckets");
    CHECK_ERROR(pe_t5_buckets(0, 3, 1, 31, 128, buf), PE_ERR_PARAM, "num_buckets=31");
    CHECK_ERROR(pe_t5_buckets(0, INT64_MAX / 2, 1, 32, 128, buf), PE_ERR_OVERFLOW,
                "overflow");
    CHECK(memcmp(buf, before, sizeof buf) == 0);
    CHECK_ERROR(pe_t5_bias(NULL, PE_T5_TABLE_HEAD_MAJOR, 2, 1, 32, 128, 2, 2, fbuf),
                PE_ERR_NULL, "table");
    CHECK_ERROR(pe_t5_bias(table, (pe_t5_table_layout)5, 2, 1, 32, 128, 2, 2, fbuf),
                PE_ERR_PARAM, "layout=5");
    CHECK_ERROR(pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 0, 1, 32, 128, 2, 2, fbuf),
                PE_ERR_PARAM, "heads=0");
    CHECK_ERROR(pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 2, 1, 30, 7, 2, 2, fbuf),
                PE_ERR_PARAM, "max_distance=7");
    CHECK_ERROR(pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 2, 1, 32, 128, -2, 2, fbuf),
                PE_ERR_SHAPE, "n_q=-2");
    CHECK_ERROR(pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 2, 1, 32, 128, 2, 2, NULL),
                PE_ERR_NULL, "out");
    CHECK_ERROR(pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, INT64_MAX / 8, 1, 32, 128, 1,
                           1, fbuf),
                PE_ERR_OVERFLOW, "num_buckets=32 overflows");
    CHECK_ERROR(pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 2, 1, 32, 128, INT64_MAX / 2,
                           4, fbuf),
                PE_ERR_OVERFLOW, "overflows");
    CHECK(memcmp(fbuf, fbefore, sizeof fbuf) == 0);
    CHECK_OK(pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 2, 1, 32, 128, 0, 3, NULL));
}
