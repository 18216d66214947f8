/* test_analysis.c — the SPEC §5 analyses on hand-computable cases. */
#include "runner.h"

#include <stdlib.h>

#define M_PI_CONST 3.14159265358979323846

TEST(analysis_logit_terms_sum_to_logit) {
    pe_rng rng = {pe_test_seed()};
    enum { D = 6 };
    double Q[D * D], K[D * D], em[D], en[D], pm[D], pn[D];
    for (int i = 0; i < D * D; i++) {
        Q[i] = pe_rng_uniform(&rng, -1, 1);
        K[i] = pe_rng_uniform(&rng, -1, 1);
    }
    for (int i = 0; i < D; i++) {
        em[i] = pe_rng_uniform(&rng, -1, 1);
        en[i] = pe_rng_uniform(&rng, -1, 1);
        pm[i] = 3.0; /* the toy: p_m = m 1 with m = 3 */
        pn[i] = 5.0;
    }
    pe_logit_terms t;
    CHECK_OK(pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &t));
    CHECK_NEAR(t.content_content + t.content_position + t.position_content + t.position_position,
               t.logit, 1e-12);
    /* position-position of the toy is m n (Q1)^T K 1, by hand */
    double q1[D] = {0}, k1[D] = {0}, pp = 0;
    for (int r = 0; r < D; r++)
        for (int c = 0; c < D; c++) {
            q1[r] += Q[r * D + c];
            k1[r] += K[r * D + c];
        }
    for (int i = 0; i < D; i++) pp += q1[i] * k1[i];
    CHECK_NEAR(t.position_position, 15.0 * pp, 1e-12);
    CHECK_ERROR(pe_logit_terms_compute(0, Q, K, em, en, pm, pn, &t), PE_ERR_DIM, "dim=0");
    CHECK_ERROR(pe_logit_terms_compute(D, Q, NULL, em, en, pm, pn, &t), PE_ERR_NULL, "K");
}

TEST(analysis_toy_regimes) {
    /* dim 2. Q1 ~ 0 when Q's rows sum to 0; K1 ~ 0 likewise. */
    const double Qz[4] = {1, -1, 2, -2}, Kz[4] = {1, -1, -3, 3};
    const double Qn[4] = {1, 0, 0, 1}, Kn[4] = {1, 0, 0, 1};
    const double em[2] = {1, 0.5};
    const double keys[3 * 2] = {1, 0, 0, 1, 1, 1};
    const int64_t pos[3] = {0, 10, 20};
    pe_toy_report r;
    CHECK_OK(pe_toy_analyze(2, Qz, Kz, em, 7, keys, pos, 3, 1e-12, &r));
    CHECK(r.regime == PE_TOY_CONTENT_ONLY);
    CHECK_OK(pe_toy_analyze(2, Qz, Kn, em, 7, keys, pos, 3, 1e-12, &r));
    CHECK(r.regime == PE_TOY_KEY_DRIFT);
    /* slope = (Q e_m)^T K 1 = (0.5, 1) . (1, 1) = 1.5; quadratic 0 */
    CHECK_NEAR(r.slope, 1.5, 1e-15);
    CHECK_NEAR(r.effective_slope, 1.5, 1e-15);
    /* content scores (Q e_m)^T K e_n = (0.5, 1) . e_n: 0.5, 1, 1.5 -> range 1;
     * drift 1.5 * 20 = 30 > 1: the end-skew condition holds, towards the end */
    CHECK_NEAR(r.content_min, 0.5, 1e-15);
    CHECK_NEAR(r.content_max, 1.5, 1e-15);
    CHECK_NEAR(r.drift, 30.0, 1e-12);
    CHECK(r.end_skew == 1 && r.skew_to_end == 1);
    CHECK_OK(pe_toy_analyze(2, Qn, Kz, em, 7, keys, pos, 3, 1e-12, &r));
    CHECK(r.regime == PE_TOY_QUERY_SCALE);
    CHECK_OK(pe_toy_analyze(2, Qn, Kn, em, 7, keys, pos, 3, 1e-12, &r));
    CHECK(r.regime == PE_TOY_QUADRATIC);
    /* quadratic (Q1)^T K 1 = 2; effective slope at m = 7: 1.5 + 14 */
    CHECK_NEAR(r.quadratic, 2.0, 1e-15);
    CHECK_NEAR(r.effective_slope, 15.5, 1e-15);
    CHECK_ERROR(pe_toy_analyze(2, Qn, Kn, em, 7, keys, pos, 0, 1e-12, &r), PE_ERR_SHAPE, "n_keys=0");
    CHECK_ERROR(pe_toy_analyze(2, Qn, Kn, em, 7, keys, pos, 3, -1, &r), PE_ERR_PARAM, "tol=-1");
}

TEST(analysis_normalized_inconsistency) {
    const int64_t L[3] = {3, 5, 11};
    double v[3], s[3];
    CHECK_OK(pe_normalized_inconsistency(2, L, 3, v, s));
    CHECK_NEAR(v[0], 1.0, 0);
    CHECK_NEAR(v[1], 0.5, 0);
    CHECK_NEAR(v[2], 0.2, 1e-16);
    CHECK_NEAR(s[0], 0.5, 0);
    CHECK_NEAR(s[2], 0.1, 1e-16);
    CHECK_ERROR(pe_normalized_inconsistency(3, L, 3, v, s), PE_ERR_RANGE, "position 3");
}

TEST(analysis_binary_hamming) {
    int64_t d[16];
    pe_hamming_report r;
    CHECK_OK(pe_binary_hamming(0, 16, d, &r));
    /* 0->1: 1 bit; 1->2: 2 bits; 3->4: 3; 7->8: 4; 15->16: 5 */
    CHECK(d[0] == 1 && d[1] == 2 && d[3] == 3 && d[7] == 4 && d[15] == 5);
    CHECK(r.min_distance == 1 && r.max_distance == 5 && r.argmax == 15);
    CHECK(r.jumps == 8); /* every odd p */
    /* mean over a full period of 2^k: sum_{j>=1} j/2^j -> 2 - (k+2)/2^k */
    CHECK_OK(pe_binary_hamming(0, 1024, NULL, &r));
    CHECK_NEAR(r.mean_distance, (2.0 - 12.0 / 1024.0) + 11.0 / 1024.0, 1e-12);
    CHECK_ERROR(pe_binary_hamming(-1, 4, d, &r), PE_ERR_RANGE, "start=-1");
}

TEST(analysis_pair_periods_flip_past_180_degrees) {
    /* SPEC §5: w = 1e-4 at offset 32000 is 3.2 rad ~ 183 degrees, past the flip. */
    pe_freqs f;
    CHECK_OK(pe_freqs_default(2, 10.0, &f));
    f.inv_freq[0] = 1e-4;
    double wl, flip, phase, turns;
    CHECK_OK(pe_pair_periods(&f, 32000, &wl, &flip, &phase, &turns));
    CHECK_NEAR(wl, 62831.853071795864, 1e-9);
    CHECK_NEAR(flip, 31415.926535897932, 1e-9);
    CHECK_NEAR(phase, 3.2, 1e-14);
    CHECK_NEAR(phase * 180 / M_PI_CONST, 183.3464944, 1e-6);
    CHECK(phase > M_PI_CONST); /* past the flip: cos < 0 */
    CHECK_NEAR(turns, 3.2 / (2 * M_PI_CONST), 1e-15);
    /* default 128-dim freqs: pair 0 has wavelength 2 pi */
    CHECK_OK(pe_freqs_default(128, 10000.0, &f));
    double w[64];
    CHECK_OK(pe_pair_periods(&f, 0, w, NULL, NULL, NULL));
    CHECK_NEAR(w[0], 2 * M_PI_CONST, 1e-15);
    CHECK_NEAR(w[63], 2 * M_PI_CONST * powl(10000.0L, 126.0L / 128.0L), 1e-7);
}

TEST(analysis_near_collisions) {
    /* One pair of w = 1: the encoding comes back closest to itself at the
     * integers nearest a multiple of 2 pi; the reference finds them by brute
     * force in long double. */
    pe_freqs f;
    CHECK_OK(pe_freqs_default(2, 10.0, &f));
    int64_t off[3];
    double dist[3];
    int64_t found = 0;
    CHECK_OK(pe_near_collisions(&f, 1, 400, 3, off, dist, &found));
    CHECK(found == 3);
    int64_t best = 0;
    double bd = 1e9;
    for (int64_t k = 1; k <= 400; k++) {
        double d = sqrtl(2 - 2 * cosl((long double)k));
        if (d < bd) {
            bd = d;
            best = k;
        }
    }
    CHECK(off[0] == best);
    CHECK_NEAR(dist[0], bd, 1e-12);
    CHECK(dist[0] <= dist[1] && dist[1] <= dist[2]);
    /* many offsets fast enough for N = 10^5 here (10^6 in the CLI) */
    CHECK_OK(pe_freqs_default(16, 10000.0, &f));
    int64_t o2[5];
    double d2[5];
    CHECK_OK(pe_near_collisions(&f, 2, 100000, 5, o2, d2, &found));
    CHECK(found == 5 && d2[0] <= d2[4]);
    CHECK_ERROR(pe_near_collisions(&f, 0, 10, 3, o2, d2, &found), PE_ERR_RANGE, "1 <= min");
    CHECK_ERROR(pe_near_collisions(&f, 1, 10, 0, o2, d2, &found), PE_ERR_PARAM, "top=0");
}

TEST(analysis_rope_relativity_and_direction) {
    pe_rng rng = {pe_test_seed()};
    enum { D = 32 };
    double q[D], k[D];
    for (int i = 0; i < D; i++) {
        q[i] = pe_rng_uniform(&rng, -1, 1);
        k[i] = pe_rng_uniform(&rng, -1, 1);
    }
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f));
    const int64_t offs[4] = {5, -5, 0, 300};
    double s0[4], s1[4];
    CHECK_OK(pe_rope_score_curve(&f, PE_ROPE_INTERLEAVED, D, q, k, 0, offs, 4, s0));
    CHECK_OK(pe_rope_score_curve(&f, PE_ROPE_INTERLEAVED, D, q, k, 123456789, offs, 4, s1));
    for (int j = 0; j < 4; j++) CHECK_NEAR(s0[j], s1[j], 1e-12); /* relativity, double */
    /* SPEC per-pair decomposition as the reference */
    for (int j = 0; j < 4; j++) {
        long double ref = 0;
        for (int i = 0; i < D / 2; i++) {
            long double w = powl(10000.0L, -2.0L * i / D), th = offs[j] * w;
            long double qa = q[2 * i], qb = q[2 * i + 1], ka = k[2 * i], kb = k[2 * i + 1];
            ref += (qa * ka + qb * kb) * cosl(th) - (qa * kb - qb * ka) * sinl(th);
        }
        CHECK_NEAR(s0[j], (double)ref, 1e-13);
    }
    CHECK(fabs(s0[0] - s0[1]) > 1e-3); /* direction-aware */
}

TEST(analysis_similarity_matrices) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 16);
    pe_positions pos = pe_positions_range(10);
    double S[5 * 5];
    CHECK_OK(pe_similarity_additive(&p, &pos, 5, S));
    for (int i = 0; i < 5; i++) {
        CHECK_NEAR(S[i * 5 + i], 8.0, 1e-13); /* D/2 unit pairs */
        for (int j = 0; j < 5; j++) CHECK_NEAR(S[i * 5 + j], S[j * 5 + i], 1e-13); /* symmetric */
    }
    /* Toeplitz: depends on i - j only */
    CHECK_NEAR(S[0 * 5 + 2], S[2 * 5 + 4], 1e-13);
    pe_freqs f;
    CHECK_OK(pe_freqs_default(16, 10000.0, &f));
    double q[16], k[16];
    for (int i = 0; i < 16; i++) {
        q[i] = i % 3 - 1;
        k[i] = (i % 5) * 0.25;
    }
    CHECK_OK(pe_similarity_rope(&f, PE_ROPE_HALF, 16, q, k, &pos, 5, S));
    CHECK_NEAR(S[0 * 5 + 2], S[2 * 5 + 4], 1e-13);
    CHECK(fabs(S[0 * 5 + 2] - S[2 * 5 + 0]) > 1e-6); /* not symmetric: direction */
    CHECK_ERROR(pe_similarity_rope(&f, PE_ROPE_HALF, 8, q, k, &pos, 5, S), PE_ERR_DIM, "head_dim=8");
}

/* The permutation gap against a long double restatement, on outputs that
 * differ from a row permutation by a known amount; then the property it
 * exists for: attention alone is equivariant, RoPE is not. */
TEST(analysis_permutation_gap) {
    pe_rng rng = {pe_test_seed()};
    enum { T = 7, C = 5 };
    float y[T * C], yp[T * C];
    int64_t perm[T];
    for (int t = 0; t < T; t++) perm[t] = (t * 3 + 2) % T; /* 3 is coprime to 7: a permutation */
    for (int i = 0; i < T * C; i++) y[i] = (float)pe_rng_uniform(&rng, -2, 2);
    for (int t = 0; t < T; t++) memcpy(yp + t * C, y + perm[t] * C, sizeof(float) * C);
    double gap = -1;
    CHECK_OK(pe_permutation_gap(y, yp, perm, T, C, &gap));
    CHECK(gap == 0); /* exactly permuted rows */
    yp[3 * C + 2] += 0.25f;
    yp[5 * C + 0] -= 0.5f;
    long double want = 0;
    for (int t = 0; t < T; t++)
        for (int e = 0; e < C; e++) {
            long double d = fabsl((long double)yp[t * C + e] - (long double)y[perm[t] * C + e]);
            if (d > want) want = d;
        }
    CHECK_OK(pe_permutation_gap(y, yp, perm, T, C, &gap));
    /* a difference of two floats is exact in double: equal to the reference */
    CHECK(gap == (double)want);
    CHECK(gap >= 0.49 && gap <= 0.51);

    /* attention: reversing the tokens without positions reverses the outputs */
    enum { N = 6, D = 8 };
    float x[N * D], xr[N * D], o[N * D], orr[N * D];
    int64_t rev[N];
    for (int i = 0; i < N * D; i++) x[i] = (float)pe_rng_uniform(&rng, -1, 1);
    for (int t = 0; t < N; t++) {
        rev[t] = N - 1 - t;
        memcpy(xr + t * D, x + rev[t] * D, sizeof(float) * D);
    }
    pe_attention_params p = pe_attention_params_default(N, N, D, D);
    CHECK_OK(pe_attention(&p, x, x, x, o));
    CHECK_OK(pe_attention(&p, xr, xr, xr, orr));
    CHECK_OK(pe_permutation_gap(o, orr, rev, N, D, &gap));
    CHECK_MSG(gap <= 1e-6, "gap without positions %g", gap); /* f32 rounding of reordered sums */
    pe_freqs f;
    pe_positions pos = pe_positions_range(0);
    CHECK_OK(pe_freqs_default(D, 1e4, &f));
    CHECK_OK(pe_attention_rope(&p, &f, PE_ROPE_HALF, &pos, &pos, x, x, x, o));
    CHECK_OK(pe_attention_rope(&p, &f, PE_ROPE_HALF, &pos, &pos, xr, xr, xr, orr));
    CHECK_OK(pe_permutation_gap(o, orr, rev, N, D, &gap));
    CHECK_MSG(gap > 1e-3, "gap with RoPE %g", gap);
}

/* Q 1 = 0: each row minus its mean, against long double means. */
TEST(analysis_zero_row_sums) {
    pe_rng rng = {pe_test_seed()};
    enum { R = 5, C = 9 };
    double m[R * C], orig[R * C];
    for (int i = 0; i < R * C; i++) orig[i] = m[i] = pe_rng_uniform(&rng, -3, 5);
    CHECK_OK(pe_zero_row_sums(m, R, C));
    const double eps = 2.220446049250313e-16;
    for (int r = 0; r < R; r++) {
        long double mean = 0, sum = 0, big = 0;
        for (int c = 0; c < C; c++) mean += orig[r * C + c];
        mean /= C;
        for (int c = 0; c < C; c++) {
            /* the mean carries up to C roundings of values <= 5, the
             * subtraction one more: (C + 2) eps 5 bounds the difference */
            CHECK_NEAR(m[r * C + c], (double)(orig[r * C + c] - mean), (C + 2) * eps * 5);
            sum += m[r * C + c];
            big = fmaxl(big, fabsl((long double)m[r * C + c]));
        }
        CHECK_MSG(fabsl(sum) <= 2 * C * (C + 2) * eps * 5, "row %d sums to %Lg", r, sum);
    }
    /* a row that already sums to 0 in binary stays as it is */
    double z[4] = {1.5, -0.5, -2, 1};
    CHECK_OK(pe_zero_row_sums(z, 1, 4));
    CHECK(z[0] == 1.5 && z[1] == -0.5 && z[2] == -2 && z[3] == 1);
}

/* softmax against expl in long double; large, masked and in-place inputs. */
TEST(analysis_softmax) {
    pe_rng rng = {pe_test_seed()};
    enum { N = 40 };
    double x[N], w[N];
    for (int i = 0; i < N; i++) x[i] = pe_rng_uniform(&rng, -20, 20);
    CHECK_OK(pe_softmax(x, N, w));
    long double mx = -INFINITY, s = 0;
    for (int i = 0; i < N; i++) mx = fmaxl(mx, x[i]);
    for (int i = 0; i < N; i++) s += expl((long double)x[i] - mx);
    double total = 0;
    for (int i = 0; i < N; i++) {
        long double want = expl((long double)x[i] - mx) / s;
        /* exp's last-bit error, N roundings in the sum, one in the division */
        CHECK_NEAR(w[i], (double)want, (N + 4) * 2.220446049250313e-16 * (double)want + 1e-300);
        total += w[i];
    }
    CHECK_NEAR(total, 1.0, N * 2.220446049250313e-16);
    /* shifting every logit changes nothing; huge logits do not overflow */
    double big[3] = {1000, 1001, 999}, small[3] = {0, 1, -1}, wb[3], ws[3];
    CHECK_OK(pe_softmax(big, 3, wb));
    CHECK_OK(pe_softmax(small, 3, ws));
    for (int i = 0; i < 3; i++) CHECK(wb[i] == ws[i] && isfinite(wb[i]));
    CHECK_NEAR(ws[1], 1 / (1 + exp(-1.0) + exp(-2.0)), 4e-16);
    /* -inf is masked; all -inf gives zeros; in place is allowed */
    double masked[3] = {0, -INFINITY, 0};
    CHECK_OK(pe_softmax(masked, 3, masked));
    CHECK(masked[0] == 0.5 && masked[1] == 0 && masked[2] == 0.5);
    double none[2] = {-INFINITY, -INFINITY};
    CHECK_OK(pe_softmax(none, 2, none));
    CHECK(none[0] == 0 && none[1] == 0);
}
