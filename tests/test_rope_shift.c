/* test_rope_shift.c — pe_rope_shift (key re-rotation) against a long double
 * reference: shift(rotate(x, p), delta) against rotate(x, p + delta), the
 * shift alone against the exact rotation of its own inputs (one rounding,
 * not two), every kernel set, both layouts, partial rotary, f16/bf16
 * storage, strided views, threads bit for bit, and rejected calls that
 * leave the buffer untouched. */
#include "runner.h"

#include <stdlib.h>

static const char *const SETS[] = {"scalar", "avx2", "avx512"};

/* Rotate row x at angle multiple p (long double, default frequencies of
 * base b over d), magnitude 1: pairs in `layout`, [d, D) passed through. */
static void ref_rotate_ld(const long double *x, long double *y, int64_t D, int64_t d,
                          long double b, long double p, int interleaved) {
    for (int64_t j = 0; j < D; j++) y[j] = x[j];
    for (int64_t i = 0; i < d / 2; i++) {
        long double w = powl(b, -(long double)(2 * i) / (long double)d);
        long double th = p * w;
        int64_t ia = interleaved ? 2 * i : i, ib = interleaved ? 2 * i + 1 : i + d / 2;
        long double a = x[ia], bb = x[ib];
        y[ia] = a * cosl(th) - bb * sinl(th);
        y[ib] = a * sinl(th) + bb * cosl(th);
    }
}

/* Partner index of element j within a rotated head, or -1 past d. */
static int64_t partner(int64_t j, int64_t d, int interleaved) {
    if (j >= d) return -1;
    if (interleaved) return j ^ 1;
    return j < d / 2 ? j + d / 2 : j - d / 2;
}

static float load(const void *buf, pe_dtype dt, size_t i) {
    if (dt == PE_F32) return ((const float *)buf)[i];
    const uint16_t h = ((const uint16_t *)buf)[i];
    if (dt == PE_F16) {
        /* exact f16 widening, written out here rather than borrowed */
        const int e = (h >> 10) & 31, m = h & 1023;
        float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 1024), e - 25);
        return (h & 0x8000) ? -v : v;
    }
    union { uint32_t u; float f; } c = {(uint32_t)h << 16};
    return c.f;
}

/* Single-rotation bound of the header (vector kernels, the looser one) for
 * output x' from inputs x, y, A = 1, plus 1e-12 for the reference angle of
 * positions up to ~2^32 (long double p * w: 2^32 * 2^-64 relative). */
static double single_bound(double xo, double x, double y) {
    return ldexp(1.0, -24) * (fabs(xo) + fabs(x) + 2 * fabs(y)) + 1e-11 * (fabs(x) + fabs(y)) +
           1e-12;
}

/* shift(rotate(x, p), delta) vs rotate(x, p + delta), f32, one set. The
 * first rotation leaves each element within B1 = 1.4903e-7 (header, inputs
 * in [-1, 1]); a pair's error vector (norm <= sqrt2 B1) is carried through
 * the shift unchanged in length (a rotation); the shift adds its own
 * rounding, the single bound on elements of pairs of norm <= sqrt2:
 * 2^-24 (4 sqrt2) + 1e-11 (2 sqrt2). So tol = sqrt2 (4 2^-24 + B1) + 3e-11
 * ~ 5.5e-7: about twice one rotation's bound, as the header says. */
static void shift_vs_rotation(const char *set, pe_dtype dt) {
    pe_rng rng = {pe_test_seed()};
    enum { T = 7, H = 3, D = 64 };
    const int64_t ds[2] = {64, 48};
    const double sq2 = sqrt(2.0);
    const double tol32 = sq2 * (4 * ldexp(1.0, -24) + 1.4903e-7) + 3e-11 + 1e-12;
    /* 16-bit: the first result is stored with half an ulp (values < 2:
     * 2^-11 f16, 2^-8 bf16), carried (x sqrt2 per pair) and the shift's
     * result stored again: tol = (1 + sqrt2)(h + tol32). */
    const double h = dt == PE_F16 ? ldexp(1.0, -11) : dt == PE_BF16 ? ldexp(1.0, -8) : 0;
    const double tol = dt == PE_F32 ? tol32 : (1 + sq2) * (h + tol32);
    const size_t esz = pe_dtype_size(dt);
    for (int layout = 0; layout < 2; layout++)
        for (int di = 0; di < 2; di++)
            for (int per_token = 0; per_token < 2; per_token++) {
                const int64_t d = ds[di];
                pe_freqs f;
                CHECK_OK(pe_freqs_default(d, 500000.0, &f));
                f.attention_factor = 1.3; /* the rotation applies A; the shift must not */
                float x[T * H * D];
                unsigned char buf[T * H * D * 4];
                for (size_t i = 0; i < (size_t)(T * H * D); i++) {
                    x[i] = (float)pe_rng_uniform(&rng, -1.0, 1.0);
                    if (dt == PE_F32) ((float *)(void *)buf)[i] = x[i];
                    else {
                        /* x exactly representable in the storage type */
                        uint16_t v = dt == PE_F16 ? (uint16_t)0 : (uint16_t)0;
                        union { float f; uint32_t u; } c = {x[i]};
                        if (dt == PE_BF16) {
                            v = (uint16_t)(c.u >> 16);
                        } else {
                            /* |x| < 1: a normal f16 or subnormal; round toward zero */
                            float a = fabsf(x[i]);
                            int e;
                            (void)frexpf(a, &e);
                            if (e < -13) e = -13;
                            float q = ldexpf(truncf(ldexpf(a, 11 - e)), e - 11);
                            int ee;
                            float mm = frexpf(q, &ee);
                            if (q == 0) v = 0;
                            else if (ee >= -13)
                                v = (uint16_t)(((ee + 14) << 10) |
                                               ((uint32_t)ldexpf(mm, 11) & 1023));
                            else
                                v = (uint16_t)ldexpf(q, 24);
                            if (x[i] < 0) v |= 0x8000;
                        }
                        ((uint16_t *)(void *)buf)[i] = v;
                        x[i] = load(buf, dt, i);
                    }
                }
                int64_t pos[T] = {0, 5, -3, 4095, 1 << 20, (int64_t)1 << 31,
                                  ((int64_t)1 << 31) - 1};
                int64_t del[T] = {-1, 7, 3, -4096, -(1 << 20), -((int64_t)1 << 31) + 9,
                                  (int64_t)1 << 30};
                const int64_t cdelta = -(int64_t)pe_rng_int(&rng, 1, (int64_t)1 << 31);
                const pe_positions ps = pe_positions_list(pos);
                const pe_tensor v = pe_tensor_dense(buf, dt, T, H, D);
                CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &ps, &v, &v, PE_ROPE_FORWARD));
                /* undo A on the reference side: compare to A rotate(x, p + delta) */
                unsigned char before[sizeof buf];
                memcpy(before, buf, sizeof buf);
                CHECK_OK(pe_rope_shift(&f, (pe_rope_layout)layout, per_token ? del : NULL,
                                       per_token ? 0 : cdelta, &v, &v, NULL));
                for (int64_t t = 0; t < T; t++)
                    for (int64_t hh = 0; hh < H; hh++) {
                        long double xi[D], y[D], yin[D], ys[D];
                        const size_t row = (size_t)((t * H + hh) * D);
                        const int64_t dl = per_token ? del[t] : cdelta;
                        for (int j = 0; j < D; j++) xi[j] = x[row + (size_t)j];
                        /* the reference's own angle error, |p w| eps(long double)
                         * per unit of pair norm (eps is 2^-52 under valgrind,
                         * which runs long double as double) */
                        const double ref_err = 8.0 * (fabs((double)pos[t]) + fabs((double)dl)) *
                                               pe_test_ld_eps();
                        ref_rotate_ld(xi, y, D, d, 500000.0L, (long double)pos[t] + dl,
                                      layout == 0);
                        /* the shift alone against the exact rotation of its inputs */
                        for (int j = 0; j < D; j++) yin[j] = load(before, dt, row + (size_t)j);
                        ref_rotate_ld(yin, ys, D, d, 500000.0L, (long double)dl, layout == 0);
                        for (int64_t j = 0; j < D; j++) {
                            const double got = load(buf, dt, row + (size_t)j);
                            const double want = (double)(j < d ? 1.3L * y[j] : y[j]);
                            /* A = 1.3 scales the f32 bound (elements up to 1.3 sqrt2) */
                            CHECK_MSG(fabs(got - want) <= 1.3 * (tol + ref_err), "%s %s layout %d d %lld "
                                      "t %lld j %lld: %.9g vs %.9g (p %lld + %lld)", set,
                                      pe_dtype_name(dt), layout, (long long)d, (long long)t,
                                      (long long)j, got, want, (long long)pos[t], (long long)dl);
                            if (dt != PE_F32) continue;
                            const int64_t k = partner(j, d, layout == 0);
                            const double b = single_bound((double)ys[j], (double)yin[j],
                                                          k < 0 ? 0.0 : (double)yin[k]);
                            CHECK_MSG(fabs(got - (double)ys[j]) <= b + 1.3 * ref_err,
                                      "%s one-rounding t %lld j %lld: %.9g vs %.12Lg", set,
                                      (long long)t, (long long)j, got, ys[j]);
                        }
                    }
                (void)esz;
            }
}

static void each_set(pe_dtype dt) {
    for (size_t i = 0; i < sizeof SETS / sizeof *SETS; i++) {
        if (pe_kernels_select(SETS[i]) != PE_OK) continue; /* CPU lacks it */
        shift_vs_rotation(SETS[i], dt);
    }
    CHECK_OK(pe_kernels_select("auto"));
}

TEST(rope_shift_f32_matches_rotation_at_new_position) { each_set(PE_F32); }
TEST(rope_shift_f16_matches_rotation_at_new_position) { each_set(PE_F16); }
TEST(rope_shift_bf16_matches_rotation_at_new_position) { each_set(PE_BF16); }

/* A strided view (heads-major cache, padded rows): only the view's rows
 * change, padding stays byte-identical, and out of place into a second
 * strided view gives the same bits as in place. */
TEST(rope_shift_strided_views) {
    enum { T = 6, H = 2, D = 32, TS = 40, HS = T * TS }; /* (heads, tokens) cache */
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f));
    pe_rng rng = {pe_test_seed()};
    float a[H * HS], b[H * HS], c[H * HS];
    for (int i = 0; i < H * HS; i++) a[i] = (float)pe_rng_uniform(&rng, -1.0, 1.0);
    memcpy(b, a, sizeof a);
    for (int i = 0; i < H * HS; i++) c[i] = -5.0f;
    pe_tensor va = {a, PE_F32, T, H, D, TS, HS}, vc = {c, PE_F32, T, H, D, TS, HS};
    const int64_t del[T] = {-3, 1, 100, -100000, 7, 0};
    CHECK_OK(pe_rope_shift(&f, PE_ROPE_HALF, del, 0, &va, &va, NULL));
    CHECK_OK(pe_rope_shift(&f, PE_ROPE_HALF, del, 0,
                           &(pe_tensor){b, PE_F32, T, H, D, TS, HS}, &vc, NULL));
    for (int hh = 0; hh < H; hh++)
        for (int t = 0; t < T; t++)
            for (int j = 0; j < TS; j++) {
                const int i = hh * HS + t * TS + j;
                if (j >= D) {
                    CHECK(memcmp(&a[i], &b[i], sizeof(float)) == 0); /* padding */
                    CHECK(c[i] == -5.0f);
                } else {
                    CHECK(memcmp(&a[i], &c[i], sizeof(float)) == 0);
                    /* against the reference: rows are independent */
                    long double xi[D], y[D];
                    for (int q = 0; q < D; q++) xi[q] = b[hh * HS + t * TS + q];
                    ref_rotate_ld(xi, y, D, D, 10000.0L, (long double)del[t], 0);
                    CHECK_NEAR(a[i], (double)y[j], 3e-7);
                }
            }
    /* delta 0 in place changes nothing */
    memcpy(b, a, sizeof a);
    CHECK_OK(pe_rope_shift(&f, PE_ROPE_HALF, NULL, 0, &va, &va, NULL));
    CHECK(memcmp(a, b, sizeof a) == 0);
}

/* Threads: consecutive and scattered deltas, f32 and bf16, 1..4 threads
 * give the same bits (chunks are whole restart intervals). */
TEST(rope_shift_threads_bit_identical) {
    enum { T = 2048, H = 8, D = 128 };
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 500000.0, &f));
    pe_rng rng = {pe_test_seed()};
    const size_t n = (size_t)T * H * D;
    float *x = malloc(n * sizeof *x), *ref = malloc(n * sizeof *ref), *y = malloc(n * sizeof *y);
    int64_t *del = malloc(T * sizeof *del);
    CHECK(x && ref && y && del);
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(&rng, -1.0, 1.0);
    for (int kind = 0; kind < 3; kind++) {
        for (int64_t t = 0; t < T; t++)
            del[t] = kind == 0 ? t - 4000 : kind == 1 ? pe_rng_int(&rng, -(1 << 30), 1 << 30) : 0;
        const pe_tensor vx = pe_tensor_dense(x, PE_F32, T, H, D);
        for (int th = 1; th <= 4; th++) {
            float *dst = th == 1 ? ref : y;
            pe_rope_options o = pe_rope_options_default();
            o.threads = th;
            o.pool = pe_test_pool(th); /* running workers: the call splits */
            const pe_tensor vo = pe_tensor_dense(dst, PE_F32, T, H, D);
            CHECK_OK(pe_rope_shift(&f, PE_ROPE_INTERLEAVED, kind == 2 ? NULL : del,
                                   kind == 2 ? -12345 : 0, &vx, &vo, &o));
            if (th > 1) CHECK_MSG(memcmp(ref, y, n * sizeof *y) == 0, "kind %d threads %d", kind, th);
        }
    }
    free(x), free(ref), free(y), free(del);
}

/* Rejected calls leave the cache byte-identical (the error tables test
 * every ID; this is the in-place cache case an engine hits). */
TEST(rope_shift_rejects_without_writing) {
    enum { T = 4, D = 16 };
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f));
    float a[T * D], keep[T * D];
    for (int i = 0; i < T * D; i++) a[i] = (float)i;
    memcpy(keep, a, sizeof a);
    int64_t del[T] = {1, 2, 3, 4};
    const pe_tensor v = pe_tensor_dense(a, PE_F32, T, 1, D);
    const pe_tensor shifted = pe_tensor_dense(a + 1, PE_F32, T - 1, 1, D);
    CHECK_ERROR(pe_rope_shift(&f, PE_ROPE_HALF, del, 5, &v, &v, NULL), PE_ERR_PARAM, "delta=5");
    CHECK_ERROR(pe_rope_shift(&f, (pe_rope_layout)7, NULL, 1, &v, &v, NULL), PE_ERR_PARAM,
                "layout=7");
    const pe_tensor v3 = pe_tensor_dense(a, PE_F32, T - 1, 1, D);
    CHECK_ERROR(pe_rope_shift(&f, PE_ROPE_HALF, NULL, 1, &v3, &shifted, NULL), PE_ERR_SHAPE,
                "out overlaps in");
    pe_freqs bad = f;
    bad.inv_freq[1] = NAN;
    CHECK_ERROR(pe_rope_shift(&bad, PE_ROPE_HALF, NULL, 1, &v, &v, NULL), PE_ERR_PARAM,
                "inv_freq[1]");
    CHECK_ERROR(pe_rope_shift(&f, PE_ROPE_HALF, (const int64_t *)(void *)(a + 8), 0, &v, &v,
                              NULL),
                PE_ERR_SHAPE, "out overlaps deltas");
    CHECK(memcmp(a, keep, sizeof a) == 0);
}

/* rebase(rotate_old(x, p)) vs rotate_new(x, p): dynamic NTK after growth
 * (base 10000 -> 10000 * 8^(d/(d-2))), magnitudes 1.1 -> 1.25, positions
 * up to 2^31, every set, both layouts, partial rotary, f32 and bf16.
 * Tolerance (f32, inputs in [-1, 1], pair norms <= sqrt2 before A): the
 * cached element is within A_old (2^-24 (sqrt2 + 3) + 2e-11) (header bound);
 * scaled by A_new / A_old and carried through the rotation with its pair
 * (x sqrt2); the rebase's own rounding 2^-24 (4 sqrt2) A_new + 2e-11
 * 2 sqrt2 A_new; 1e-9 for the reference's long double angles at 2^31.
 * bf16: half an ulp (2^-8 relative, values below 2 A) before and after,
 * the first carried with its pair. Also: the rebase alone within the
 * single-rotation bound of the exact rotation of its own inputs. */
static void rebase_case(const char *set, pe_dtype dt) {
    pe_rng rng = {pe_test_seed()};
    enum { T = 6, H = 2, D = 64 };
    const int64_t ds[2] = {64, 40};
    const long double A0 = 1.1L, A1 = 1.25L;
    const double sq2 = sqrt(2.0), u = ldexp(1.0, -24);
    const double tol32 = (double)A1 * (sq2 * (u * (sq2 + 3) + 2e-11) + u * 4 * sq2 + 2e-11 * 2 * sq2) + 1e-9;
    for (int layout = 0; layout < 2; layout++)
        for (int di = 0; di < 2; di++) {
            const int64_t d = ds[di];
            const long double b0 = 10000.0L, b1 = 10000.0L * powl(8.0L, (long double)d / (long double)(d - 2));
            pe_freqs f0, f1;
            CHECK_OK(pe_freqs_default(d, (double)b0, &f0));
            CHECK_OK(pe_freqs_default(d, (double)b1, &f1));
            f0.attention_factor = (double)A0;
            f1.attention_factor = (double)A1;
            float x[T * H * D];
            uint16_t h[T * H * D];
            for (int i = 0; i < T * H * D; i++) {
                x[i] = (float)pe_rng_uniform(&rng, -1.0, 1.0);
                if (dt == PE_BF16) {
                    union { float f; uint32_t v; } c = {x[i]};
                    h[i] = (uint16_t)(c.v >> 16);
                    x[i] = load(h, PE_BF16, (size_t)i);
                }
            }
            void *buf = dt == PE_F32 ? (void *)x : (void *)h;
            float x0[T * H * D];
            memcpy(x0, x, sizeof x);
            int64_t pos[T] = {0, 1, -9, 65535, ((int64_t)1 << 31) - 3, (int64_t)1 << 31};
            const pe_positions ps = pe_positions_list(pos);
            const pe_tensor v = pe_tensor_dense(buf, dt, T, H, D);
            CHECK_OK(pe_rope_apply(&f0, (pe_rope_layout)layout, &ps, &v, &v, PE_ROPE_FORWARD));
            float before[T * H * D];
            for (int i = 0; i < T * H * D; i++) before[i] = load(buf, dt, (size_t)i);
            CHECK_OK(pe_rope_rebase(&f0, &f1, (pe_rope_layout)layout, &ps, &v, &v, NULL));
            const double hh = dt == PE_BF16 ? ldexp(1.0, -8) * 2 * (double)A1 : 0;
            const double tol = tol32 + (1 + sq2) * hh;
            for (int64_t t = 0; t < T; t++)
                for (int64_t k = 0; k < H; k++) {
                    const size_t row = (size_t)((t * H + k) * D);
                    long double xi[D], y[D], yin[D], ys[D];
                    for (int j = 0; j < D; j++) xi[j] = x0[row + (size_t)j];
                    /* the reference's angle error (see shift_vs_rotation) */
                    const double ref_err = 8.0 * fabs((double)pos[t]) * pe_test_ld_eps() * (double)A1;
                    ref_rotate_ld(xi, y, D, d, b1, (long double)pos[t], layout == 0);
                    /* the rebase alone: rotate the stored key by p (w1 - w0)
                     * with the exact double-double frequencies, times A1/A0 */
                    for (int j = 0; j < D; j++) yin[j] = before[row + (size_t)j];
                    for (int j = 0; j < D; j++) ys[j] = yin[j];
                    for (int64_t i = 0; i < d / 2; i++) {
                        const long double w1 = (long double)f1.inv_freq[i] + f1.inv_freq_lo[i];
                        const long double w0 = (long double)f0.inv_freq[i] + f0.inv_freq_lo[i];
                        const long double th = (long double)pos[t] * (w1 - w0);
                        const int64_t ia = layout == 0 ? 2 * i : i, ib = layout == 0 ? 2 * i + 1 : i + d / 2;
                        ys[ia] = A1 / A0 * (yin[ia] * cosl(th) - yin[ib] * sinl(th));
                        ys[ib] = A1 / A0 * (yin[ia] * sinl(th) + yin[ib] * cosl(th));
                    }
                    for (int64_t j = 0; j < D; j++) {
                        const double got = load(buf, dt, row + (size_t)j);
                        const double want = (double)(j < d ? A1 * y[j] : y[j]);
                        CHECK_MSG(fabs(got - want) <= tol + ref_err, "%s %s rebase layout %d d %lld t %lld j %lld: "
                                  "%.9g vs %.9g", set, pe_dtype_name(dt), layout, (long long)d,
                                  (long long)t, (long long)j, got, want);
                        if (dt != PE_F32) continue;
                        const int64_t q = partner(j, d, layout == 0);
                        const double r = (double)(A1 / A0), xin = fabs((double)yin[j]),
                                     yp = q < 0 ? 0.0 : fabs((double)yin[q]);
                        const double b = u * (fabs((double)ys[j]) + r * (xin + 2 * yp)) +
                                         1e-11 * r * (xin + yp) + 1e-9 + ref_err;
                        CHECK_MSG(fabs(got - (double)ys[j]) <= b + 1.3 * ref_err, "%s rebase alone t %lld j %lld: %.9g vs %.12Lg",
                                  set, (long long)t, (long long)j, got, ys[j]);
                    }
                }
        }
}

TEST(rope_rebase_matches_rotation_with_new_freqs) {
    for (size_t i = 0; i < sizeof SETS / sizeof *SETS; i++) {
        if (pe_kernels_select(SETS[i]) != PE_OK) continue;
        rebase_case(SETS[i], PE_F32);
        rebase_case(SETS[i], PE_BF16);
    }
    CHECK_OK(pe_kernels_select("auto"));
}

/* Threads bit for bit; same frequencies give the identity up to one
 * rounding (angle exactly 0: cos 1, sin 0, magnitude 1: bit-identical). */
TEST(rope_rebase_threads_and_identity) {
    enum { T = 1024, H = 8, D = 128 };
    pe_freqs f0, f1;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f0));
    CHECK_OK(pe_freqs_default(D, 160000.0, &f1));
    pe_rng rng = {pe_test_seed()};
    const size_t n = (size_t)T * H * D;
    float *x = malloc(n * 4), *a = malloc(n * 4), *b = malloc(n * 4);
    CHECK(x && a && b);
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(&rng, -1.0, 1.0);
    const pe_positions ps = pe_positions_range(1000);
    const pe_tensor vx = pe_tensor_dense(x, PE_F32, T, H, D), va = pe_tensor_dense(a, PE_F32, T, H, D),
                    vb = pe_tensor_dense(b, PE_F32, T, H, D);
    CHECK_OK(pe_rope_rebase(&f0, &f1, PE_ROPE_HALF, &ps, &vx, &va, NULL));
    pe_rope_options o = pe_rope_options_default();
    for (o.threads = 2; o.threads <= 4; o.threads++) {
        o.pool = pe_test_pool(o.threads); /* running workers: the call splits */
        CHECK_OK(pe_rope_rebase(&f0, &f1, PE_ROPE_HALF, &ps, &vx, &vb, &o));
        CHECK(memcmp(a, b, n * 4) == 0);
    }
    CHECK_OK(pe_rope_rebase(&f0, &f0, PE_ROPE_HALF, &ps, &vx, &vb, NULL));
    CHECK(memcmp(x, b, n * 4) == 0);
    free(x), free(a), free(b);
}
