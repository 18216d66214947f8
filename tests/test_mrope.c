/* test_mrope.c — multi-axis RoPE (SPEC §2.3): the slot assignments, the
 * rotation against two long double references written here (the SPEC rule,
 * and the Hugging Face procedure: cat(freqs, freqs), section split or
 * stride-3 overwrite, rotate_half), bit-identity with pe_rope_apply for text
 * tokens, relativity per axis, and every error path. */
#include "runner.h"

#include <stdlib.h>

/* ------------------------------------------------------------- references */

/* The SPEC rule for slot j of half = d/2 slots. */
static int ref_axis(int64_t j, const int64_t *s, int interleaved) {
    if (!interleaved) return j < s[0] ? 0 : j < s[0] + s[1] ? 1 : 2;
    if (j % 3 == 1 && j < 3 * s[1]) return 1;
    if (j % 3 == 2 && j < 3 * s[2]) return 2;
    return 0;
}

/*
 * The Hugging Face procedure, element by element over the d-long
 * emb = cat(freqs, freqs): blocked walks the doubled section list
 * [s_t, s_h, s_w, s_t, s_h, s_w] and takes axis (chunk index % 3); interleaved
 * starts from t everywhere and overwrites slices [1 : 3 s_h : 3] with h and
 * [2 : 3 s_w : 3] with w in the first d/2, then repeats the first half.
 */
static void hf_emb_axes(int64_t d, const int64_t *s, int interleaved, int *axis) {
    const int64_t half = d / 2;
    if (!interleaved) {
        int64_t k = 0;
        for (int chunk = 0; chunk < 6; chunk++)
            for (int64_t i = 0; i < s[chunk % 3]; i++) axis[k++] = chunk % 3;
        return;
    }
    for (int64_t j = 0; j < half; j++) axis[j] = 0;
    for (int64_t j = 1; j < 3 * s[1] && j < half; j += 3) axis[j] = 1;
    for (int64_t j = 2; j < 3 * s[2] && j < half; j += 3) axis[j] = 2;
    for (int64_t j = 0; j < half; j++) axis[j + half] = axis[j];
}

static long double ref_omega(long double base, int64_t j, int64_t d) {
    return powl(base, -(long double)(2 * j) / (long double)d);
}

/* SPEC rotation of one row: slot j at angle sign * p[axis_j] * w_j, pair
 * layout as given, magnitude A; elements past d pass through. */
static void ref_rotate(const float *x, long double *y, int64_t D, int64_t d,
                       long double base, const int64_t *p, const int64_t *s,
                       int interleaved_axes, int interleaved_pairs, long double A,
                       int sign) {
    for (int64_t j = 0; j < D; j++) y[j] = x[j];
    for (int64_t j = 0; j < d / 2; j++) {
        const long double th =
            sign * (long double)p[ref_axis(j, s, interleaved_axes)] * ref_omega(base, j, d);
        const int64_t ia = interleaved_pairs ? 2 * j : j;
        const int64_t ib = interleaved_pairs ? 2 * j + 1 : j + d / 2;
        const long double a = x[ia], b = x[ib];
        y[ia] = A * (a * cosl(th) - b * sinl(th));
        y[ib] = A * (a * sinl(th) + b * cosl(th));
    }
}

/* HF: q * cos + rotate_half(q) * sin over the first d elements, with
 * cos/sin read element-wise from emb (its own axis per element). */
static void hf_rotate(const float *x, long double *y, int64_t D, int64_t d,
                      long double base, const int64_t *p, const int *emb_axis) {
    const int64_t half = d / 2;
    for (int64_t k = 0; k < D; k++) y[k] = x[k];
    for (int64_t k = 0; k < d; k++) {
        const long double th = (long double)p[emb_axis[k]] * ref_omega(base, k % half, d);
        const long double rot = k < half ? -(long double)x[k + half] : (long double)x[k - half];
        y[k] = (long double)x[k] * cosl(th) + rot * sinl(th);
    }
}

static void fill_random(float *x, size_t n, pe_rng *rng) {
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(rng, -1.0, 1.0);
}

/* -------------------------------------------------------------- the tests */

TEST(mrope_slot_axes_blocked_and_interleaved) {
    int axes[64], hf[128];
    const int64_t qwen2[3] = {16, 24, 24}, qwen3[3] = {24, 20, 20};
    CHECK_OK(pe_mrope_slot_axes(128, qwen2, PE_MROPE_BLOCKED, axes));
    for (int j = 0; j < 64; j++) CHECK(axes[j] == (j < 16 ? 0 : j < 40 ? 1 : 2));
    CHECK_OK(pe_mrope_slot_axes(128, qwen3, PE_MROPE_INTERLEAVED, axes));
    int count[3] = {0, 0, 0};
    for (int j = 0; j < 64; j++) {
        CHECK(axes[j] == ref_axis(j, qwen3, 1));
        count[axes[j]]++;
    }
    CHECK(count[0] == 24 && count[1] == 20 && count[2] == 20);
    /* t h w t h w ... up to slot 59, then the tail 60..63 is all t */
    for (int j = 0; j < 60; j++) CHECK(axes[j] == j % 3);
    for (int j = 60; j < 64; j++) CHECK(axes[j] == PE_MROPE_AXIS_T);
    /* The header's small examples. */
    const int64_t b8[3] = {2, 3, 3}, i8[3] = {4, 2, 2};
    const int want_b[8] = {0, 0, 1, 1, 1, 2, 2, 2}, want_i[8] = {0, 1, 2, 0, 1, 2, 0, 0};
    CHECK_OK(pe_mrope_slot_axes(16, b8, PE_MROPE_BLOCKED, axes));
    for (int j = 0; j < 8; j++) CHECK(axes[j] == want_b[j]);
    CHECK_OK(pe_mrope_slot_axes(16, i8, PE_MROPE_INTERLEAVED, axes));
    for (int j = 0; j < 8; j++) CHECK(axes[j] == want_i[j]);
    /* The SPEC rule agrees with the HF procedures, whose second half of emb
     * mirrors the first: each half-split pair (j, j + d/2) is rotated by one
     * angle, a true rotation. Qwen3.5's {11, 11, 10} over d = 64 included. */
    const int64_t secs[4][3] = {{16, 24, 24}, {24, 20, 20}, {11, 11, 10}, {4, 2, 2}};
    const int64_t dims[4] = {128, 128, 64, 16};
    for (int c = 0; c < 4; c++)
        for (int mode = 0; mode < 2; mode++) {
            if (mode == 1 && c == 0) continue; /* not realisable interleaved */
            CHECK_OK(pe_mrope_slot_axes(dims[c], secs[c], (pe_mrope_mode)mode, axes));
            hf_emb_axes(dims[c], secs[c], mode, hf);
            for (int64_t j = 0; j < dims[c] / 2; j++) {
                CHECK(axes[j] == hf[j]);
                CHECK(hf[j + dims[c] / 2] == hf[j]);
            }
        }
}

TEST(mrope_text_tokens_bit_identical_to_rope) {
    pe_rng rng = {pe_test_seed()};
    enum { T = 6, H = 3, D = 80 };
    const int64_t ds[2] = {64, 80};
    const int64_t secs[2][2][3] = {{{8, 12, 12}, {12, 10, 10}}, {{20, 10, 10}, {14, 13, 13}}};
    float *x = malloc(sizeof(float) * T * H * D), *a = malloc(sizeof(float) * T * H * D),
          *b = malloc(sizeof(float) * T * H * D);
    fill_random(x, (size_t)T * H * D, &rng);
    int64_t ids[T] = {0, 1, -7, 4096, 1 << 30, 0};
    ids[5] = pe_rng_int(&rng, -(INT64_C(1) << 31), INT64_C(1) << 31);
    int64_t pos3[T * 3];
    for (int t = 0; t < T; t++) pos3[3 * t] = pos3[3 * t + 1] = pos3[3 * t + 2] = ids[t];
    pe_positions ps = pe_positions_list(ids);
    for (int di = 0; di < 2; di++)
        for (int mode = 0; mode < 2; mode++)
            for (int layout = 0; layout < 2; layout++)
                for (int dir = 0; dir < 3; dir++)
                    for (int strided = 0; strided < 2; strided++) {
                        pe_freqs f;
                        CHECK_OK(pe_freqs_default(ds[di], 10000.0, &f));
                        f.attention_factor = 1.25;
                        /* (tokens, heads, D) or the (heads, tokens, D) view */
                        pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D);
                        pe_tensor oa = pe_tensor_dense(a, PE_F32, T, H, D);
                        pe_tensor ob = pe_tensor_dense(b, PE_F32, T, H, D);
                        if (strided) {
                            in.token_stride = oa.token_stride = ob.token_stride = D;
                            in.head_stride = oa.head_stride = ob.head_stride = T * D;
                        }
                        memset(a, 0, sizeof(float) * T * H * D);
                        memset(b, 0xff, sizeof(float) * T * H * D);
                        CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &ps, &in, &oa,
                                               (pe_rope_direction)dir));
                        CHECK_OK(pe_mrope_apply(&f, (pe_rope_layout)layout, pos3,
                                                secs[di][mode], (pe_mrope_mode)mode, &in,
                                                &ob, (pe_rope_direction)dir));
                        CHECK(memcmp(a, b, sizeof(float) * T * H * D) == 0);
                    }
    free(x);
    free(a);
    free(b);
}

TEST(mrope_matches_long_double_reference) {
    pe_rng rng = {pe_test_seed()};
    enum { T = 7, H = 2, D = 72 };
    const int64_t d = 64; /* partial rotary: 8 elements pass through */
    const int64_t secs[2][3] = {{8, 12, 12}, {12, 10, 10}};
    float x[T * H * D], y[T * H * D];
    fill_random(x, (size_t)T * H * D, &rng);
    int64_t pos[T * 3];
    for (int t = 0; t < T; t++) /* vision tokens: three different axes */
        for (int a = 0; a < 3; a++) pos[3 * t + a] = pe_rng_int(&rng, -50, a == 0 ? 9000 : 300);
    pos[0] = 5, pos[1] = 5, pos[2] = 5; /* and one text token */
    pos[3] = INT64_C(1) << 30, pos[4] = -(INT64_C(1) << 29), pos[5] = 12345;
    for (int mode = 0; mode < 2; mode++)
        for (int layout = 0; layout < 2; layout++)
            for (int dir = 0; dir < 3; dir++) {
                pe_freqs f;
                CHECK_OK(pe_freqs_default(d, 1000000.0, &f));
                f.attention_factor = 1.25;
                pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D);
                pe_tensor out = pe_tensor_dense(y, PE_F32, T, H, D);
                CHECK_OK(pe_mrope_apply(&f, (pe_rope_layout)layout, pos, secs[mode],
                                        (pe_mrope_mode)mode, &in, &out,
                                        (pe_rope_direction)dir));
                const long double A = dir == PE_ROPE_INVERSE ? 1 / 1.25L : 1.25L;
                const int sign = dir == PE_ROPE_FORWARD ? 1 : -1;
                long double ref[D];
                for (int t = 0; t < T; t++)
                    for (int h = 0; h < H; h++) {
                        ref_rotate(x + (t * H + h) * D, ref, D, d, 1000000.0L, pos + 3 * t,
                                   secs[mode], mode, layout == PE_ROPE_INTERLEAVED, A, sign);
                        const float *xr = x + (t * H + h) * D;
                        /* the reference's own angle error: |p w| (w <= 1) of
                         * the largest axis times a few long double roundings */
                        const double pmax = fmax(fabs((double)pos[3 * t]),
                                                 fmax(fabs((double)pos[3 * t + 1]), fabs((double)pos[3 * t + 2])));
                        const double ref_err = 4.0 * pmax * pe_test_ld_eps();
                        for (int j = 0; j < D; j++) /* plus the documented bound */
                            CHECK_NEAR(y[(t * H + h) * D + j], (double)ref[j],
                                       pe_test_rope_row_bound(xr, j, d, layout == PE_ROPE_INTERLEAVED,
                                                              (double)ref[j], (double)A) + ref_err);
                    }
            }
}

TEST(mrope_matches_hugging_face_procedure) {
    /* Qwen2-VL (blocked {16, 24, 24}) and Qwen3-VL (interleaved {24, 20, 20})
     * at head_dim 128, base 1e6, half-split pairs as both checkpoints use. */
    pe_rng rng = {pe_test_seed()};
    enum { T = 5, D = 128 };
    const int64_t secs[2][3] = {{16, 24, 24}, {24, 20, 20}};
    float x[T * D], y[T * D];
    fill_random(x, (size_t)T * D, &rng);
    const int64_t pos[T * 3] = {0, 0, 0, 3, 3, 3, 4, 0, 0, 4, 7, 11, 150, 20, 31};
    for (int mode = 0; mode < 2; mode++) {
        pe_freqs f;
        CHECK_OK(pe_freqs_default(D, 1000000.0, &f));
        pe_tensor in = pe_tensor_dense(x, PE_F32, T, 1, D);
        pe_tensor out = pe_tensor_dense(y, PE_F32, T, 1, D);
        CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, pos, secs[mode], (pe_mrope_mode)mode, &in,
                                &out, PE_ROPE_FORWARD));
        int emb_axis[D];
        hf_emb_axes(D, secs[mode], mode, emb_axis);
        long double ref[D];
        for (int t = 0; t < T; t++) {
            hf_rotate(x + t * D, ref, D, D, 1000000.0L, pos + 3 * t, emb_axis);
            for (int j = 0; j < D; j++)
                /* |values| <= sqrt2: half an ulp is 1.2e-7 at most */
                CHECK_NEAR(y[t * D + j], (double)ref[j], 1.2e-7);
        }
    }
}

TEST(mrope_relativity_per_axis) {
    /* Scores depend on the per-axis offsets only: moving both tokens by the
     * same (dt, dh, dw) keeps every q.k; moving one axis of one token
     * changes it. */
    pe_rng rng = {pe_test_seed()};
    enum { D = 64 };
    const int64_t secs[3] = {12, 10, 10};
    float qk[2 * D], r1[2 * D], r2[2 * D], r3[2 * D];
    fill_random(qk, 2 * D, &rng);
    for (int mode = 0; mode < 2; mode++) {
        pe_freqs f;
        CHECK_OK(pe_freqs_default(D, 10000.0, &f));
        const int64_t p1[6] = {10, 3, 4, 17, 9, 1};
        const int64_t p2[6] = {10 + 500, 3 - 20, 4 + 77, 17 + 500, 9 - 20, 1 + 77};
        const int64_t p3[6] = {10, 3, 4, 17, 9 + 5, 1};
        pe_tensor in = pe_tensor_dense(qk, PE_F32, 2, 1, D);
        pe_tensor o1 = pe_tensor_dense(r1, PE_F32, 2, 1, D);
        pe_tensor o2 = pe_tensor_dense(r2, PE_F32, 2, 1, D);
        pe_tensor o3 = pe_tensor_dense(r3, PE_F32, 2, 1, D);
        CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, p1, secs, (pe_mrope_mode)mode, &in, &o1, 0));
        CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, p2, secs, (pe_mrope_mode)mode, &in, &o2, 0));
        CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, p3, secs, (pe_mrope_mode)mode, &in, &o3, 0));
        double s1 = 0, s2 = 0, s3 = 0;
        for (int j = 0; j < D; j++) {
            s1 += (double)r1[j] * r1[D + j];
            s2 += (double)r2[j] * r2[D + j];
            s3 += (double)r3[j] * r3[D + j];
        }
        /* 64 products of f32-rounded factors (6e-8 relative each), |x| <= 1 */
        CHECK_NEAR(s1, s2, 1e-5);
        CHECK(fabs(s1 - s3) > 1e-3);
    }
}

TEST(mrope_inverse_round_trip_and_in_place) {
    pe_rng rng = {pe_test_seed()};
    enum { T = 4, H = 2, D = 32 };
    const int64_t secs[3] = {6, 5, 5};
    float x[T * H * D], y[T * H * D], z[T * H * D], w[T * H * D];
    fill_random(x, (size_t)T * H * D, &rng);
    const int64_t pos[T * 3] = {1, 2, 3, 100, 0, 7, -5, 5, 9, 77777, 12, 13};
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f));
    f.attention_factor = 0.75;
    pe_tensor tx = pe_tensor_dense(x, PE_F32, T, H, D), ty = pe_tensor_dense(y, PE_F32, T, H, D),
              tz = pe_tensor_dense(z, PE_F32, T, H, D), tw = pe_tensor_dense(w, PE_F32, T, H, D);
    for (int mode = 0; mode < 2; mode++) {
        CHECK_OK(pe_mrope_apply(&f, PE_ROPE_INTERLEAVED, pos, secs, (pe_mrope_mode)mode, &tx,
                                &ty, PE_ROPE_FORWARD));
        CHECK_OK(pe_mrope_apply(&f, PE_ROPE_INTERLEAVED, pos, secs, (pe_mrope_mode)mode, &ty,
                                &tz, PE_ROPE_INVERSE));
        /* two f32 roundings of values <= 1.06 (and the 1/A rescale) */
        for (int i = 0; i < T * H * D; i++) CHECK_NEAR(z[i], x[i], 3e-7);
        memcpy(w, x, sizeof w);
        CHECK_OK(pe_mrope_apply(&f, PE_ROPE_INTERLEAVED, pos, secs, (pe_mrope_mode)mode, &tw,
                                &tw, PE_ROPE_FORWARD));
        CHECK(memcmp(w, y, sizeof w) == 0);
    }
}

TEST(mrope_cos_sin_cache) {
    const int64_t d = 32, secs[3] = {6, 5, 5};
    const int64_t pos[9] = {7, 7, 7, 3, 90, -4, 100000, 2, 1};
    pe_freqs f;
    CHECK_OK(pe_freqs_default(d, 10000.0, &f));
    for (int mode = 0; mode < 2; mode++) {
        double c[3 * 16], s[3 * 16], cr[16], sr[16];
        float c32[3 * 16], s32[3 * 16];
        CHECK_OK(pe_mrope_cos_sin(&f, pos, 3, secs, (pe_mrope_mode)mode, c, s, PE_F64));
        CHECK_OK(pe_mrope_cos_sin(&f, pos, 3, secs, (pe_mrope_mode)mode, c32, s32, PE_F32));
        pe_positions seven = pe_positions_range(7);
        CHECK_OK(pe_rope_cos_sin(&f, &seven, 1, cr, sr, PE_F64));
        CHECK(memcmp(c, cr, sizeof cr) == 0 && memcmp(s, sr, sizeof sr) == 0);
        for (int t = 0; t < 3; t++)
            for (int j = 0; j < 16; j++) {
                const long double th = (long double)pos[3 * t + ref_axis(j, secs, mode)] *
                                       ref_omega(10000.0L, j, d);
                /* angles < 1e5 rad: the reference's long double angle is off
                 * by ~|th| eps_ld (1e-14 with x87), then one double rounding:
                 * 1e-13. Where long double computes as a double (valgrind)
                 * the reference angle carries |th| eps_ld of its own, 2e-11
                 * at 1e5 rad: 4 |th| eps_ld covers it and is < 1e-13 with x87. */
                const double tol = fmax(1e-13, 4 * fabs((double)th) * pe_test_ld_eps());
                CHECK_NEAR(c[t * 16 + j], (double)cosl(th), tol);
                CHECK_NEAR(s[t * 16 + j], (double)sinl(th), tol);
                CHECK(c32[t * 16 + j] == (float)c[t * 16 + j]);
                CHECK(s32[t * 16 + j] == (float)s[t * 16 + j]);
            }
    }
}

TEST(mrope_errors_leave_buffers_untouched) {
    enum { T = 2, H = 1, D = 16 };
    float x[T * H * D], y[T * H * D];
    unsigned char before[sizeof y];
    memset(x, 0, sizeof x);
    memset(y, 0x5a, sizeof y);
    memcpy(before, y, sizeof y);
    const int64_t pos[6] = {0, 1, 2, 3, 4, 5};
    const int64_t ok[3] = {4, 2, 2};
    pe_freqs f, f8;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f));
    CHECK_OK(pe_freqs_default(8, 10000.0, &f8));
    pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D), out = pe_tensor_dense(y, PE_F32, T, H, D);
    const pe_mrope_mode B = PE_MROPE_BLOCKED, I = PE_MROPE_INTERLEAVED;
    const pe_rope_layout L = PE_ROPE_HALF;
    const pe_rope_direction F = PE_ROPE_FORWARD;
    const int64_t sum7[3] = {3, 2, 2}, neg[3] = {4, -1, 5}, big[3] = {9, 0, 0},
                  unreal_h[3] = {2, 4, 2}, unreal_w[3] = {3, 2, 3};
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, sum7, B, &in, &out, F), PE_ERR_PARAM, "sum to 7");
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, neg, B, &in, &out, F), PE_ERR_PARAM, "s_h=-1");
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, big, B, &in, &out, F), PE_ERR_PARAM, "s_t=9");
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, NULL, B, &in, &out, F), PE_ERR_NULL, "sections");
    /* 3 s_h = 12 > d/2 + 1 = 9: HF would give h only 3 slots */
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, unreal_h, I, &in, &out, F), PE_ERR_PARAM,
                "s_h=4 gets only 3");
    CHECK_OK(pe_mrope_slot_axes(D, unreal_h, B, (int[8]){0})); /* fine blocked */
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, unreal_w, I, &in, &out, F), PE_ERR_PARAM,
                "s_w=3 gets only 2");
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, ok, (pe_mrope_mode)2, &in, &out, F), PE_ERR_PARAM,
                "mode=2");
    CHECK_ERROR(pe_mrope_apply(&f, (pe_rope_layout)9, pos, ok, B, &in, &out, F), PE_ERR_PARAM,
                "layout=9");
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, ok, B, &in, &out, (pe_rope_direction)4),
                PE_ERR_PARAM, "direction=4");
    CHECK_ERROR(pe_mrope_apply(&f, L, NULL, ok, B, &in, &out, F), PE_ERR_NULL, "positions");
    CHECK_ERROR(pe_mrope_apply(NULL, L, pos, ok, B, &in, &out, F), PE_ERR_NULL,
                "must not be NULL");
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, ok, B, NULL, &out, F), PE_ERR_NULL, "in");
    pe_freqs bad = f;
    bad.rotary_dim = 7;
    CHECK_ERROR(pe_mrope_apply(&bad, L, pos, ok, B, &in, &out, F), PE_ERR_DIM, "rotary_dim=7");
    pe_tensor small = pe_tensor_dense(x, PE_F32, T, H, 8), small_out = pe_tensor_dense(y, PE_F32, T, H, 8);
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, ok, B, &small, &small_out, F), PE_ERR_DIM,
                "exceeds head_dim=8");
    pe_tensor wrong = out;
    wrong.dtype = PE_F64;
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, ok, B, &in, &wrong, F), PE_ERR_DTYPE, "f64");
    pe_tensor fewer = pe_tensor_dense(y, PE_F32, 1, H, D);
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, ok, B, &in, &fewer, F), PE_ERR_SHAPE, "differ");
    pe_tensor alias = pe_tensor_dense(x, PE_F32, T, H, D);
    alias.token_stride = 2 * D; /* same data, other strides */
    pe_tensor xin = pe_tensor_dense(x, PE_F32, T, H, D);
    float xb[T * H * D];
    memcpy(xb, x, sizeof xb);
    CHECK_ERROR(pe_mrope_apply(&f, L, pos, ok, B, &xin, &alias, F), PE_ERR_SHAPE, "in place");
    CHECK(memcmp(x, xb, sizeof xb) == 0);
    /* sections are checked against the frequencies' own d/2 */
    CHECK_ERROR(pe_mrope_apply(&f8, L, pos, ok, B, &in, &out, F), PE_ERR_PARAM,
                "not rotary_dim/2=4");
    CHECK(memcmp(y, before, sizeof y) == 0);

    int axes[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    CHECK_ERROR(pe_mrope_slot_axes(15, ok, B, axes), PE_ERR_DIM, "rotary_dim=15");
    CHECK_ERROR(pe_mrope_slot_axes(0, ok, B, axes), PE_ERR_DIM, "rotary_dim=0");
    CHECK_ERROR(pe_mrope_slot_axes(D, ok, B, NULL), PE_ERR_NULL, "axes");
    CHECK_ERROR(pe_mrope_slot_axes(D, sum7, I, axes), PE_ERR_PARAM, "sum to 7");
    for (int j = 0; j < 8; j++) CHECK(axes[j] == -1);

    double c[16], s[16];
    memset(c, 0x5a, sizeof c);
    CHECK_ERROR(pe_mrope_cos_sin(&f, pos, 2, ok, B, c, s, PE_I64), PE_ERR_DTYPE, "i64");
    CHECK_ERROR(pe_mrope_cos_sin(&f, pos, -1, ok, B, c, s, PE_F64), PE_ERR_SHAPE, "count=-1");
    CHECK_ERROR(pe_mrope_cos_sin(&f, NULL, 2, ok, B, c, s, PE_F64), PE_ERR_NULL, "positions");
    CHECK_ERROR(pe_mrope_cos_sin(&f, pos, 2, ok, B, NULL, s, PE_F64), PE_ERR_NULL, "cos_out");
    CHECK_ERROR(pe_mrope_cos_sin(&f, pos, 2, ok, B, c, NULL, PE_F64), PE_ERR_NULL, "sin_out");
    CHECK_ERROR(pe_mrope_cos_sin(&f, pos, INT64_MAX / 2, ok, B, c, s, PE_F64),
                PE_ERR_OVERFLOW, "overflow");
    CHECK_ERROR(pe_mrope_cos_sin(&f, pos, 2, unreal_h, I, c, s, PE_F64), PE_ERR_PARAM, "s_h=4");
    unsigned char cb[sizeof c];
    memset(cb, 0x5a, sizeof cb);
    CHECK(memcmp(c, cb, sizeof c) == 0);
    /* zero tokens or heads: nothing to do, positions may be NULL */
    pe_tensor none = pe_tensor_dense(x, PE_F32, 0, H, D);
    CHECK_OK(pe_mrope_apply(&f, L, NULL, ok, B, &none, &none, F));
}
