/* test_edges.c — numeric edges: bases 2 and 10^9, every even D from 2 to
 * 1024, positions +-(2^31 - 1) and the int64 extremes wherever a scheme has
 * no table. Outputs must be finite, rotations must keep norms, and where
 * the library documents an accuracy it is checked against long double
 * references (README/SPEC: 1.5e-7 for rotated f32 at |p| < 2^31; kernels:
 * ~1e-15 rad for |p w| < 2^40, of which the references can confirm
 * |p w| < 2^35 — see ref_ok). */
#include "runner.h"

#include <float.h>
#include <stdlib.h>

static const double BASES[2] = {2.0, 1e9};
static const int64_t P31 = 2147483647;
static const int64_t EXTREMES[8] = {0, 1, -1, 2147483647, -2147483647,
                                    INT64_MAX, INT64_MIN, INT64_MIN + 1};

/* The long double angle p (hi + lo) is off by about |theta| eps_ld (p has
 * <= 63 bits, exact; hi + lo and the product round once each to 64 bits).
 * Below 2^35 rad that is <= 4e-9 rad with x87, well under the 1.5e-7 being
 * checked; above, the reference itself is not good enough to judge. */
static int ref_ok(long double theta) { return fabsl(theta) < 0x1p35L; }

TEST(edges_default_freqs_bases_2_and_1e9_every_even_dim) {
    static pe_freqs f;
    const double eps = pe_test_ld_eps();
    for (int b = 0; b < 2; b++)
        for (int64_t D = 2; D <= 1024; D += 2) {
            int bad = 0;
            CHECK_OK(pe_freqs_default(D, BASES[b], &f));
            CHECK(f.rotary_dim == D && f.inv_freq[0] == 1.0 && f.inv_freq_lo[0] == 0.0);
            const long double lb = logl((long double)BASES[b]);
            for (int64_t i = 0; i < D / 2; i++) {
                const long double x = (long double)(2 * i) / (long double)D * lb;
                const long double want = powl((long double)BASES[b], -(long double)(2 * i) / D);
                const long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
                /* each side rounds x = (2i/D) ln b (|x| eps_ld relative in
                 * b^-x) and its own exp/pow (a few eps_ld): (2|x| + 8) eps;
                 * hi + lo holds 106 bits, so a long double wider than that
                 * (quad on AArch64) loses up to 2^-106 relative in storage. */
                const double tol = (2.0 * (double)x + 8.0) * eps + 0x1p-106;
                const int ok = isfinite(f.inv_freq[i]) && f.inv_freq[i] > 0 &&
                               (i == 0 || f.inv_freq[i] < f.inv_freq[i - 1]) &&
                               fabsl(got - want) <= tol * want;
                if (!ok && bad++ == 0)
                    pe_test_fail(__FILE__, __LINE__, "b=%g D=%lld pair %lld: %.21Lg want %.21Lg",
                                 BASES[b], (long long)D, (long long)i, got, want);
            }
        }
}

/* Rotate one row of D floats at each of the positions and check every pair:
 * finite, norm kept, and close to the reference where that is decidable. */
static void check_rotation(const pe_freqs *f, pe_rope_layout layout, int64_t D,
                           const float *x, float *y, double *worst) {
    const int64_t n = sizeof EXTREMES / sizeof EXTREMES[0], half = f->rotary_dim / 2;
    pe_positions pos = pe_positions_list(EXTREMES);
    /* one token per position, each a copy of the same vector */
    float *xs = malloc(sizeof(float) * (size_t)(n * D));
    if (xs == NULL) return;
    for (int64_t t = 0; t < n; t++) memcpy(xs + t * D, x, sizeof(float) * (size_t)D);
    pe_tensor in = pe_tensor_dense(xs, PE_F32, n, 1, D);
    pe_tensor out = pe_tensor_dense(y, PE_F32, n, 1, D);
    CHECK_OK(pe_rope_apply(f, layout, &pos, &in, &out, PE_ROPE_FORWARD));
    const double eps = pe_test_ld_eps();
    for (int64_t t = 0; t < n; t++) {
        const long double p = (long double)EXTREMES[t];
        for (int64_t i = 0; i < half; i++) {
            const int64_t ia = layout == PE_ROPE_INTERLEAVED ? 2 * i : i;
            const int64_t ib = layout == PE_ROPE_INTERLEAVED ? 2 * i + 1 : i + half;
            const double a = x[ia], b = x[ib], ra = y[t * D + ia], rb = y[t * D + ib];
            /* |R x| = |x| up to the documented error e of each output,
             * 2^-24 (|x'| + |x| + 2 |y|) <= 2^-24 4 sqrt2 |v| for the pair
             * v together: |n1 - n0| <= 2 |v| |e| + |e|^2 < 12 2^-24 n0 */
            const double n0 = a * a + b * b, n1 = ra * ra + rb * rb;
            CHECK_MSG(isfinite(ra) && isfinite(rb) && fabs(n1 - n0) <= 12 * 0x1p-24 * n0 + 1e-30,
                      "p=%lld pair %lld: (%g, %g) -> (%g, %g)", (long long)EXTREMES[t],
                      (long long)i, a, b, ra, rb);
            const long double th = p * ((long double)f->inv_freq[i] + f->inv_freq_lo[i]);
            if (!ref_ok(th)) continue;
            const long double c = cosl(th), s = sinl(th);
            const double ea = fabs(ra - (double)(a * c - b * s)), eb = fabs(rb - (double)(a * s + b * c));
            /* SPEC's goal 1.5e-7 for elements in [-1, 1], plus the
             * reference's own |theta| eps_ld (x4: both factors). */
            const double tol = 1.5e-7 + 4.0 * (double)fabsl(th) * eps;
            const double e = fmax(ea, eb);
            if (e > *worst) *worst = e;
            CHECK_MSG(e <= tol, "p=%lld pair %lld theta %.6Lg: error %.3g > %.3g",
                      (long long)EXTREMES[t], (long long)i, th, e, tol);
        }
    }
    free(xs);
}

TEST(edges_rope_extreme_positions_bases_and_dims) {
    static const int64_t dims[] = {2, 4, 8, 64, 130, 512, 1024};
    static pe_freqs f;
    pe_rng rng = {pe_test_seed()};
    float *x = malloc(sizeof(float) * 1024), *y = malloc(sizeof(float) * 8 * 1024);
    if (x == NULL || y == NULL) {
        free(x);
        free(y);
        CHECK(0);
        return;
    }
    double worst = 0;
    for (int b = 0; b < 2; b++)
        for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++) {
            const int64_t D = dims[k];
            for (int64_t j = 0; j < D; j++) x[j] = (float)pe_rng_uniform(&rng, -1, 1);
            CHECK_OK(pe_freqs_default(D, BASES[b], &f));
            check_rotation(&f, PE_ROPE_HALF, D, x, y, &worst);
            check_rotation(&f, PE_ROPE_INTERLEAVED, D, x, y, &worst);
        }
    /* A rotation at p = +-(2^31 - 1) must be far better than the 1e-6 SPEC
     * requires: a float angle would be off by ~100 rad. */
    CHECK_MSG(worst < 1.5e-7 + 4 * 0x1p35 * pe_test_ld_eps(), "worst error %.3g", worst);
    free(x);
    free(y);
}

TEST(edges_caches_and_sinusoidal_at_extremes) {
    static const int64_t dims[] = {2, 64, 1024};
    double *c = malloc(sizeof(double) * 8 * 512), *s = malloc(sizeof(double) * 8 * 512);
    double *row = malloc(sizeof(double) * 8 * 1024);
    float *c32 = malloc(sizeof(float) * 8 * 512), *s32 = malloc(sizeof(float) * 8 * 512);
    static pe_freqs f;
    pe_positions pos = pe_positions_list(EXTREMES);
    const double eps = pe_test_ld_eps();
    for (int b = 0; b < 2 && c && s && row && c32 && s32; b++)
        for (size_t k = 0; k < 3; k++) {
            const int64_t D = dims[k], half = D / 2;
            CHECK_OK(pe_freqs_default(D, BASES[b], &f));
            CHECK_OK(pe_rope_cos_sin(&f, &pos, 8, c, s, PE_F64));
            CHECK_OK(pe_rope_cos_sin(&f, &pos, 8, c32, s32, PE_F32));
            pe_additive_params sp = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
            sp.base = BASES[b];
            CHECK_OK(pe_additive_encode(&sp, &pos, 8, row, PE_F64));
            int bad = 0;
            for (int64_t t = 0; t < 8; t++)
                for (int64_t i = 0; i < half; i++) {
                    const double cc = c[t * half + i], ss = s[t * half + i];
                    const double sr = row[t * D + 2 * i], cr = row[t * D + 2 * i + 1];
                    /* a cos/sin pair: |x| <= 1, c^2 + s^2 = 1 to a few ulps */
                    int ok = fabs(cc) <= 1 && fabs(ss) <= 1 && fabs(cc * cc + ss * ss - 1) <= 1e-15 &&
                             fabs(sr) <= 1 && fabs(cr) <= 1 && fabs(cr * cr + sr * sr - 1) <= 1e-15 &&
                             c32[t * half + i] == (float)cc && s32[t * half + i] == (float)ss;
                    const long double th =
                        (long double)EXTREMES[t] * ((long double)f.inv_freq[i] + f.inv_freq_lo[i]);
                    /* the library: ~1e-15 rad and libm's ulp; the reference:
                     * |theta| eps_ld per factor */
                    if (ref_ok(th))
                        ok = ok && fabs(cc - (double)cosl(th)) <= 2e-15 + 4 * (double)fabsl(th) * eps &&
                             fabs(ss - (double)sinl(th)) <= 2e-15 + 4 * (double)fabsl(th) * eps;
                    /* paper convention, interleaved: the same frequencies */
                    ok = ok && sr == ss && cr == cc;
                    if (!ok && bad++ == 0)
                        pe_test_fail(__FILE__, __LINE__, "b=%g D=%lld p=%lld pair %lld: cos %.17g sin %.17g "
                                     "(encoding %.17g, %.17g)", BASES[b], (long long)D,
                                     (long long)EXTREMES[t], (long long)i, cc, ss, cr, sr);
                }
        }
    CHECK(c && s && row && c32 && s32);
    free(c);
    free(s);
    free(row);
    free(c32);
    free(s32);
}

TEST(edges_int64_extremes_elsewhere) {
    static pe_freqs f;
    CHECK_OK(pe_freqs_default(16, 1e9, &f));
    /* raw, normalized and binary at the largest positions they allow */
    double v[4];
    const int64_t top[2] = {INT64_MAX - 1, INT64_MIN};
    pe_positions tp = pe_positions_list(top);
    pe_additive_params p = pe_additive_defaults(PE_ADD_RAW, 2);
    CHECK_OK(pe_additive_encode(&p, &tp, 2, v, PE_F64));
    CHECK(v[0] == 0x1p63 && v[2] == -0x1p63);
    p = pe_additive_defaults(PE_ADD_NORMALIZED, 1);
    p.length = INT64_MAX;
    CHECK_OK(pe_additive_encode(&p, &tp, 1, v, PE_F64));
    CHECK(v[0] == 1.0); /* (2^63 - 2) / (2^63 - 2) */
    p = pe_additive_defaults(PE_ADD_BINARY, 63);
    p.length = INT64_MAX;
    double bits[63];
    CHECK_OK(pe_additive_encode(&p, &tp, 1, bits, PE_F64));
    for (int j = 0; j < 63; j++) CHECK(bits[j] == (j < 62 ? 1.0 : 0.0)); /* 2^63 - 2 */
    /* T5 buckets: r = INT64_MIN has no int64 magnitude and still buckets */
    int64_t bk = -1;
    CHECK_OK(pe_t5_bucket(INT64_MIN, 1, 32, 128, &bk));
    CHECK(bk == 15);
    CHECK_OK(pe_t5_bucket(INT64_MAX, 1, 32, 128, &bk));
    CHECK(bk == 31);
    CHECK_OK(pe_t5_bucket(INT64_MIN, 0, 32, 128, &bk));
    CHECK(bk == 31);
    int64_t bks[3];
    CHECK_OK(pe_t5_buckets(INT64_MAX - 2, 3, 0, 32, 128, bks));
    CHECK(bks[0] == 0 && bks[2] == 0);
    /* periods and phases at the extreme offsets */
    double wl[8], fl[8], ph[8], tu[8];
    CHECK_OK(pe_pair_periods(&f, INT64_MIN, wl, fl, ph, tu));
    for (int i = 0; i < 8; i++)
        CHECK(isfinite(wl[i]) && isfinite(tu[i]) && ph[i] >= 0 && ph[i] < 6.283185307179587);
    /* near-collisions up to INT64_MAX: terminates and counts the offsets */
    int64_t offs[8], found = 0;
    double dist[8];
    CHECK_OK(pe_near_collisions(&f, INT64_MAX - 3, INT64_MAX, 8, offs, dist, &found));
    CHECK(found == 4);
    for (int i = 0; i < found && i < 8; i++) CHECK(offs[i] >= INT64_MAX - 3 && isfinite(dist[i]));
    /* relativity at the edge of int64 */
    double q[16], kv[16], sc[3];
    for (int i = 0; i < 16; i++) q[i] = kv[i] = 1.0 / (i + 1);
    const int64_t ko[3] = {-1, 0, 1};
    CHECK_OK(pe_rope_score_curve(&f, PE_ROPE_HALF, 16, q, kv, INT64_MAX - 1, ko, 3, sc));
    CHECK(isfinite(sc[0]) && isfinite(sc[1]) && isfinite(sc[2]));
    /* sc[1] = <R(m) q, R(m) q> = |q|^2 exactly in theory: the angle at
     * m = 2^63 - 2 is irrelevant, the rotation is orthogonal */
    double qq = 0;
    for (int i = 0; i < 16; i++) qq += q[i] * kv[i];
    CHECK_NEAR(sc[1], qq, 1e-14);
    /* M-RoPE and attention with the last int64 positions */
    const int64_t pos3[6] = {INT64_MAX, INT64_MIN, P31, -P31, INT64_MAX, 0};
    const int64_t secs[3] = {4, 2, 2};
    float x[2 * 16], y[2 * 16];
    for (int i = 0; i < 32; i++) x[i] = (float)(i % 7) / 7.0f - 0.4f;
    pe_tensor in = pe_tensor_dense(x, PE_F32, 2, 1, 16), out = pe_tensor_dense(y, PE_F32, 2, 1, 16);
    CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, pos3, secs, PE_MROPE_INTERLEAVED, &in, &out,
                            PE_ROPE_FORWARD));
    double n0 = 0, n1 = 0;
    for (int i = 0; i < 32; i++) {
        n0 += (double)x[i] * x[i];
        n1 += (double)y[i] * y[i];
        CHECK(isfinite(y[i]));
    }
    CHECK_NEAR(n1, n0, 1e-6 * n0);
    pe_attention_params ap = pe_attention_params_default(2, 2, 16, 16);
    ap.causal = 1;
    pe_positions qp = pe_positions_range(INT64_MAX - 1), kp = pe_positions_range(INT64_MAX - 1);
    float ao[32];
    CHECK_OK(pe_attention_rope(&ap, &f, PE_ROPE_INTERLEAVED, &qp, &kp, x, x, x, ao));
    for (int i = 0; i < 32; i++) CHECK(isfinite(ao[i]));
    /* query 0 sees key 0 only (causal): its output is v[0] exactly */
    for (int i = 0; i < 16; i++) CHECK_NEAR(ao[i], x[i], 1e-7);
}

TEST(edges_generators_at_bases_2_and_1e9) {
    static pe_freqs f;
    static double lists[512];
    for (int i = 0; i < 512; i++) lists[i] = 1.0 + i / 64.0;
    const int64_t dims[3] = {4, 64, 1024};
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 3; k++)
            for (int t = 0; t < pe_scaling_count(); t++) { /* every row of PE_SCALING_MAP */
                pe_rope_scaling s = pe_rope_scaling_defaults((pe_scaling_type)t, dims[k]);
                s.base = BASES[b];
                s.factor = 16;
                s.original_max_position = 4096;
                s.max_position = 65536;
                s.seq_len = P31;
                s.short_factor = s.long_factor = s.divisors = lists;
                s.n_short_factor = s.n_long_factor = s.n_divisors = dims[k] / 2;
                int st = pe_freqs_from_scaling(&s, &f, NULL);
                /* every generator either refuses with a reason or yields
                 * frequencies the rotation accepts */
                CHECK_MSG(st == PE_OK ? pe_freqs_validate(&f) == PE_OK : pe_last_error()[0] != 0,
                          "%s b=%g D=%lld: status %d (%s)", pe_scaling_name((pe_scaling_type)t),
                          BASES[b], (long long)dims[k], st, pe_last_error());
                CHECK_MSG(st == PE_OK, "%s b=%g D=%lld refused: %s", pe_scaling_name((pe_scaling_type)t),
                          BASES[b], (long long)dims[k], pe_last_error());
            }
}
