/*
 * test_kernels2.c — the rest of the kernel-set tests (see test_kernels.c):
 * threads and streaming stores change no bit, the two vector sets rotate
 * bit-identically, q+k in one call equals two calls, M-RoPE rows equal
 * RoPE rows, ALiBi rows and scatter-add are bit-identical across sets,
 * sinusoidal tables and threaded cos/sin caches agree with the scalar set,
 * and the options are validated.
 */
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const SETS[] = {"scalar", "avx2", "avx512", "neon"};
enum { N_SETS = 4 };

static void fill(float *x, size_t n, pe_rng *r) {
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(r, -1.0, 1.0);
}

static void fill16(uint16_t *x, size_t n, pe_rng *r) {
    /* any finite f16/bf16 pattern of moderate size: exponent field 10..17 */
    for (size_t i = 0; i < n; i++)
        x[i] = (uint16_t)((pe_rng_next(r) & 0x83FF) | ((10 + pe_rng_int(r, 0, 7)) << 10));
}

TEST(kernels_threads_and_streaming_change_no_bit) {
    /* 1025 tokens x 4 heads x 128: 2 MiB of f32 (1 MiB of 16-bit) each way
     * plus the cos/sin work, just enough for two parts. */
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { T = 1025, H = 4, D = 128 };
    const size_t n = (size_t)T * H * D;
    float *x = malloc(4 * n), *a = malloc(4 * n), *b = malloc(4 * n);
    uint16_t *x16 = malloc(2 * n), *a16 = malloc(2 * n), *b16 = malloc(2 * n);
    fill(x, n, &rng);
    fill16(x16, n, &rng);
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 500000.0, &f));
    pe_positions p = pe_positions_range(123456);
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (int layout = 0; layout < 2; layout++) {
            pe_rope_options one = pe_rope_options_default(), two = one;
            one.stores = PE_STORES_CACHED;
            two.threads = 2;
            two.pool = pe_test_pool(2); /* running workers: the calls split */
            two.stores = PE_STORES_STREAMING;
            pe_tensor tx = pe_tensor_dense(x, PE_F32, T, H, D);
            pe_tensor ta = pe_tensor_dense(a, PE_F32, T, H, D), tb = pe_tensor_dense(b, PE_F32, T, H, D);
            CHECK_OK(pe_rope_apply_ex(&f, (pe_rope_layout)layout, &p, &tx, &ta, PE_ROPE_FORWARD, &one));
            CHECK_OK(pe_rope_apply_ex(&f, (pe_rope_layout)layout, &p, &tx, &tb, PE_ROPE_FORWARD, &two));
            CHECK_MSG(memcmp(a, b, 4 * n) == 0, "%s: 2 threads + streaming differ", SETS[si]);
            /* a small call (cache-resident loop order) gives the same bits
             * as the large one (prefetching, streaming loop order) */
            pe_tensor t3 = pe_tensor_dense(x, PE_F32, 3, H, D), o3 = pe_tensor_dense(b, PE_F32, 3, H, D);
            CHECK_OK(pe_rope_apply_ex(&f, (pe_rope_layout)layout, &p, &t3, &o3, PE_ROPE_FORWARD, NULL));
            CHECK_MSG(memcmp(a, b, 4 * 3 * H * D) == 0, "%s: small and large calls differ", SETS[si]);
            memcpy(b, x, 4 * n); /* in place on 2 threads */
            CHECK_OK(pe_rope_apply_ex(&f, (pe_rope_layout)layout, &p, &tb, &tb, PE_ROPE_FORWARD, &two));
            CHECK_MSG(memcmp(a, b, 4 * n) == 0, "%s: in place on 2 threads differs", SETS[si]);
            for (int bf = 0; bf < 2; bf++) {
                const pe_dtype dt = bf ? PE_BF16 : PE_F16;
                pe_tensor sx = pe_tensor_dense(x16, dt, T, H, D);
                pe_tensor sa = pe_tensor_dense(a16, dt, T, H, D), sb = pe_tensor_dense(b16, dt, T, H, D);
                CHECK_OK(pe_rope_apply_ex(&f, (pe_rope_layout)layout, &p, &sx, &sa, PE_ROPE_INVERSE, &one));
                CHECK_OK(pe_rope_apply_ex(&f, (pe_rope_layout)layout, &p, &sx, &sb, PE_ROPE_INVERSE, &two));
                CHECK_MSG(memcmp(a16, b16, 2 * n) == 0, "%s %s: 2 threads differ", SETS[si],
                          pe_dtype_name(dt));
            }
        }
        /* threaded cos/sin cache, both dtypes */
        enum { NC = 2001 }; /* 2001 x 64 pairs: two parts */
        double *c1 = malloc(8 * NC * 64), *s1 = malloc(8 * NC * 64);
        double *c2 = malloc(8 * NC * 64), *s2 = malloc(8 * NC * 64);
        pe_rope_options two = pe_rope_options_default();
        two.threads = 2;
        two.pool = pe_test_pool(2);
        for (int dt = 0; dt < 2; dt++) {
            const pe_dtype t = dt ? PE_F64 : PE_F32;
            CHECK_OK(pe_rope_cos_sin_ex(&f, &p, NC, c1, s1, t, NULL));
            CHECK_OK(pe_rope_cos_sin_ex(&f, &p, NC, c2, s2, t, &two));
            const size_t bytes = pe_dtype_size(t) * NC * 64;
            CHECK_MSG(memcmp(c1, c2, bytes) == 0 && memcmp(s1, s2, bytes) == 0,
                      "%s: threaded %s cache differs", SETS[si], pe_dtype_name(t));
        }
        free(c1), free(s1), free(c2), free(s2);
    }
    free(x), free(a), free(b), free(x16), free(a16), free(b16);
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_vector_sets_rotate_bit_identically) {
    /* avx2 and avx512 compute the same operations per element (posenc.h):
     * every layout, storage type, rotary dim with tails, magnitude, and
     * positions both consecutive (stepped) and scattered (fresh). */
    if (!pe_kernels_supported("avx512")) SKIP("no AVX-512 on this CPU: nothing to compare avx2 with");
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { T = 70, H = 3, D = 128 };
    const size_t n = (size_t)T * H * D;
    float *x = malloc(4 * n), *a = malloc(4 * n), *b = malloc(4 * n);
    uint16_t *x16 = malloc(2 * n), *a16 = malloc(2 * n), *b16 = malloc(2 * n);
    int64_t ids[T];
    for (int t = 0; t < T; t++) ids[t] = pe_rng_int(&rng, -2147483647LL, 2147483647LL);
    fill(x, n, &rng);
    fill16(x16, n, &rng);
    const int64_t dims[] = {128, 110, 74, 2};
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++)
        for (int layout = 0; layout < 2; layout++)
            for (int scattered = 0; scattered < 2; scattered++)
                for (int ti = 0; ti < 3; ti++) {
                    pe_freqs f;
                    CHECK_OK(pe_freqs_default(dims[di], 500000.0, &f));
                    f.attention_factor = ti == 1 ? 1.0 : 1.17;
                    const pe_positions p = scattered ? pe_positions_list(ids) : pe_positions_range(99990);
                    const pe_dtype dt = ti == 0 ? PE_F32 : ti == 1 ? PE_F16 : PE_BF16;
                    void *src = dt == PE_F32 ? (void *)x : (void *)x16;
                    void *o1 = dt == PE_F32 ? (void *)a : (void *)a16;
                    void *o2 = dt == PE_F32 ? (void *)b : (void *)b16;
                    pe_tensor ti_ = pe_tensor_dense(src, dt, T, H, D);
                    pe_tensor t1 = pe_tensor_dense(o1, dt, T, H, D), t2 = pe_tensor_dense(o2, dt, T, H, D);
                    const pe_rope_direction dir = (pe_rope_direction)((di + (size_t)layout) % 3);
                    CHECK_OK(pe_kernels_select("avx2"));
                    CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &p, &ti_, &t1, dir));
                    CHECK_OK(pe_kernels_select("avx512"));
                    CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &p, &ti_, &t2, dir));
                    CHECK_MSG(memcmp(o1, o2, pe_dtype_size(dt) * n) == 0,
                              "d=%lld layout %d scattered %d %s: avx2 and avx512 differ",
                              (long long)dims[di], layout, scattered, pe_dtype_name(dt));
                }
    free(x), free(a), free(b), free(x16), free(a16), free(b16);
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_qk_one_call_equals_two) {
    /* grouped-query shapes: q 8 heads f32, k 2 heads bf16, strided k */
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { T = 9, HQ = 8, HK = 2, D = 96 };
    float q[T * HQ * D], q1[T * HQ * D], q2[T * HQ * D];
    uint16_t kbuf[T * 3 * HK * D], k1[T * 3 * HK * D], k2[T * 3 * HK * D];
    fill(q, sizeof q / 4, &rng);
    fill16(kbuf, sizeof kbuf / 2, &rng);
    int64_t ids[T];
    for (int t = 0; t < T; t++) ids[t] = pe_rng_int(&rng, -5, 1 << 30);
    pe_positions pos = pe_positions_list(ids);
    pe_freqs f;
    CHECK_OK(pe_freqs_default(64, 10000.0, &f));
    f.attention_factor = 1.1;
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (int dir = 0; dir < 3; dir++) {
            memcpy(k1, kbuf, sizeof kbuf);
            memcpy(k2, kbuf, sizeof kbuf);
            pe_tensor tq = pe_tensor_dense(q, PE_F32, T, HQ, D);
            pe_tensor o1 = pe_tensor_dense(q1, PE_F32, T, HQ, D), o2 = pe_tensor_dense(q2, PE_F32, T, HQ, D);
            /* k: the middle third of each token's fused row, in place */
            pe_tensor tk1 = {k1 + HK * D, PE_BF16, T, HK, D, 3 * HK * D, D};
            pe_tensor tk2 = {k2 + HK * D, PE_BF16, T, HK, D, 3 * HK * D, D};
            CHECK_OK(pe_rope_apply_ex(&f, PE_ROPE_HALF, &pos, &tq, &o1, (pe_rope_direction)dir, NULL));
            CHECK_OK(pe_rope_apply_ex(&f, PE_ROPE_HALF, &pos, &tk1, &tk1, (pe_rope_direction)dir, NULL));
            CHECK_OK(pe_rope_apply_qk(&f, PE_ROPE_HALF, &pos, &tq, &o2, &tk2, &tk2, (pe_rope_direction)dir, NULL));
            CHECK(memcmp(q1, q2, sizeof q1) == 0);
            CHECK(memcmp(k1, k2, sizeof k1) == 0);
        }
    }
    /* errors: validated before anything is written */
    memcpy(k2, kbuf, sizeof kbuf);
    memset(q2, 0x33, sizeof q2);
    pe_tensor tq = pe_tensor_dense(q, PE_F32, T, HQ, D), o2 = pe_tensor_dense(q2, PE_F32, T, HQ, D);
    pe_tensor short_k = pe_tensor_dense(k2, PE_BF16, T - 1, HK, D);
    CHECK_ERROR(pe_rope_apply_qk(&f, PE_ROPE_HALF, &pos, &tq, &o2, &short_k, &short_k, PE_ROPE_FORWARD, NULL),
                PE_ERR_SHAPE, "must agree");
    pe_tensor kf = pe_tensor_dense(k2, PE_BF16, T, HK, D), kf16 = pe_tensor_dense(k1, PE_F16, T, HK, D);
    CHECK_ERROR(pe_rope_apply_qk(&f, PE_ROPE_HALF, &pos, &tq, &o2, &kf, &kf16, PE_ROPE_FORWARD, NULL),
                PE_ERR_DTYPE, "k_in bf16, k_out f16");
    CHECK_ERROR(pe_rope_apply_qk(&f, PE_ROPE_HALF, &pos, &tq, &o2, NULL, &kf, PE_ROPE_FORWARD, NULL),
                PE_ERR_NULL, "k_in");
    pe_rope_options bad = pe_rope_options_default();
    bad.threads = 0;
    CHECK_ERROR(pe_rope_apply_qk(&f, PE_ROPE_HALF, &pos, &tq, &o2, &kf, &kf, PE_ROPE_FORWARD, &bad),
                PE_ERR_PARAM, "threads=0");
    bad.threads = 1;
    bad.stores = (pe_store_policy)7;
    CHECK_ERROR(pe_rope_apply_ex(&f, PE_ROPE_HALF, &pos, &tq, &o2, PE_ROPE_FORWARD, &bad),
                PE_ERR_PARAM, "stores=7");
    bad = pe_rope_options_default();
    bad.threads = 2000;
    CHECK_ERROR(pe_rope_cos_sin_ex(&f, &pos, T, q1, q2, PE_F32, &bad), PE_ERR_PARAM, "threads=2000");
    pe_tensor f64 = pe_tensor_dense(q2, PE_F64, T, 1, D);
    CHECK_ERROR(pe_rope_apply_ex(&f, PE_ROPE_HALF, &pos, &f64, &f64, PE_ROPE_FORWARD, NULL), PE_ERR_DTYPE,
                "in f64");
    float before[T * HQ * D];
    memset(before, 0x33, sizeof before);
    CHECK(memcmp(q2, before, sizeof before) == 0);
    CHECK(memcmp(k2, kbuf, sizeof kbuf) == 0);
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_mrope_rows_equal_rope_rows) {
    /* M-RoPE goes through the same per-token kernels; with t = h = w it must
     * give RoPE's bits in every set, also with > 64 pairs per head and on
     * consecutive positions (where the vector sets step cos/sin). */
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { T = 3, H = 2, D = 272 };
    const int64_t ds[2] = {272, 200};
    float x[T * H * D], a[T * H * D], b[T * H * D];
    fill(x, sizeof x / 4, &rng);
    int64_t ids[T] = {77777, 77778, -3}, pos3[3 * T];
    for (int t = 0; t < T; t++) pos3[3 * t] = pos3[3 * t + 1] = pos3[3 * t + 2] = ids[t];
    pe_positions pos = pe_positions_list(ids);
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (int di = 0; di < 2; di++)
            for (int layout = 0; layout < 2; layout++) {
                pe_freqs f;
                CHECK_OK(pe_freqs_default(ds[di], 10000.0, &f));
                f.attention_factor = 0.9;
                const int64_t half = ds[di] / 2, secs[3] = {half - 20, 10, 10};
                pe_tensor tx = pe_tensor_dense(x, PE_F32, T, H, D);
                pe_tensor ta = pe_tensor_dense(a, PE_F32, T, H, D), tb = pe_tensor_dense(b, PE_F32, T, H, D);
                CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &pos, &tx, &ta, PE_ROPE_BACKWARD));
                CHECK_OK(pe_mrope_apply(&f, (pe_rope_layout)layout, pos3, secs, PE_MROPE_BLOCKED, &tx, &tb,
                                        PE_ROPE_BACKWARD));
                CHECK_MSG(memcmp(a, b, sizeof a) == 0, "%s d=%lld layout %d: M-RoPE rows differ",
                          SETS[si], (long long)ds[di], layout);
            }
    }
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_alibi_bias_bit_identical) {
    /* Every set fills the same bits: key counts around each vector width
     * and tail, both modes and dtypes, the diagonal +0 and -inf past it. */
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    const int64_t nks[] = {1, 3, 4, 7, 8, 9, 17, 100};
    enum { H = 12, MAXK = 100 };
    static double ref[H * MAXK * MAXK], got[H * MAXK * MAXK];
    int compared = 0;
    for (size_t a = 0; a < sizeof nks / sizeof nks[0]; a++)
        for (int mode = 0; mode < 2; mode++)
            for (int dt = 0; dt < 2; dt++) {
                const int64_t nk = nks[a], nq = mode == PE_ALIBI_CAUSAL ? (nk + 1) / 2 : nk;
                const pe_dtype t = dt ? PE_F64 : PE_F32;
                const size_t bytes = pe_dtype_size(t) * (size_t)(H * nq * nk);
                CHECK_OK(pe_kernels_select("scalar"));
                CHECK_OK(pe_alibi_bias(H, nq, nk, (pe_alibi_mode)mode, ref, t));
                if (t == PE_F64 && mode == PE_ALIBI_SYMMETRIC) /* the diagonal is +0 */
                    CHECK(ref[0] == 0.0 && !signbit(ref[0]) && ref[nk + 1 < nk * nq ? nk + 1 : 0] == 0.0);
                for (int si = 1; si < N_SETS; si++) {
                    if (pe_kernels_select(SETS[si]) != PE_OK) continue;
                    memset(got, 0x5A, bytes);
                    CHECK_OK(pe_alibi_bias(H, nq, nk, (pe_alibi_mode)mode, got, t));
                    CHECK_MSG(memcmp(ref, got, bytes) == 0, "%s n_k=%lld mode %d %s differs",
                              SETS[si], (long long)nk, mode, pe_dtype_name(t));
                    compared++;
                }
            }
    CHECK(compared >= 32 || !pe_kernels_supported("avx2"));
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_scatter_add_bit_identical) {
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    const int64_t dims[] = {1, 7, 8, 15, 16, 17, 64, 67};
    enum { L = 11, N = 40 };
    for (int di = 0; di < 8; di++) {
        const int64_t dim = dims[di];
        pe_learned *tab;
        CHECK_OK(pe_learned_create(L, dim, 5, &tab));
        int64_t pos[N];
        for (int r = 0; r < N; r++) pos[r] = pe_rng_int(&rng, 0, L - 1); /* repeats */
        float *g = malloc(sizeof(float) * N * (size_t)dim);
        float *ref = malloc(sizeof(float) * L * (size_t)dim), *got = malloc(sizeof(float) * L * (size_t)dim);
        fill(g, (size_t)(N * dim), &rng);
        for (int si = 0; si < N_SETS; si++) {
            if (pe_kernels_select(SETS[si]) != PE_OK) continue;
            float *dst = si == 0 ? ref : got;
            pe_rng start = {7}; /* every set accumulates onto the same table */
            fill(dst, (size_t)(L * dim), &start);
            CHECK_OK(pe_learned_backward(tab, pos, N, g, dst));
            if (si != 0)
                CHECK_MSG(memcmp(ref, got, sizeof(float) * L * (size_t)dim) == 0,
                          "%s dim=%lld: scatter-add differs", SETS[si], (long long)dim);
        }
        pe_learned_free(tab);
        free(g), free(ref), free(got);
    }
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_sinusoidal_tables_match_scalar) {
    /* additive tables take their angles from the same kernels: f64 within
     * the cos/sin bounds (1.3e-15 between sets), f32 the rounded f64 */
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { C = 33, DIM = 130 };
    static double ref[C * DIM], got[C * DIM];
    static float ref32[C * DIM], got32[C * DIM];
    int64_t ids[C];
    for (int i = 0; i < C; i++) ids[i] = (int64_t)i * i * i * 977 - 5000;
    pe_positions pos = pe_positions_list(ids);
    for (int conv = 0; conv < 2; conv++) {
        pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, DIM);
        p.layout = (pe_sin_layout)conv;
        p.convention = (pe_sin_convention)conv;
        for (int si = 0; si < N_SETS; si++) {
            if (pe_kernels_select(SETS[si]) != PE_OK) continue;
            CHECK_OK(pe_additive_encode(&p, &pos, C, si ? got : ref, PE_F64));
            CHECK_OK(pe_additive_encode(&p, &pos, C, si ? got32 : ref32, PE_F32));
            if (si == 0) continue;
            double worst = 0;
            int f32_ok = 1;
            for (int i = 0; i < C * DIM; i++) {
                worst = fmax(worst, fabs(got[i] - ref[i]));
                f32_ok &= got32[i] == (float)got[i];
            }
            CHECK_MSG(worst <= 1.3e-15, "%s: sinusoidal %.3g from scalar", SETS[si], worst);
            CHECK(f32_ok);
        }
    }
    CHECK_OK(pe_kernels_select(saved));
}

/* Every set's frequency check (the vectorized pass every rotation runs)
 * refuses a bad entry wherever it sits: at each index of rotary dims whose
 * halves fill whole vectors, leave a tail, or are shorter than a vector;
 * NaN, infinity, negative, above PE_MAX_INV_FREQ, and a low part too large
 * for its high part. The good table passes on every set. */
TEST(kernels_frequency_check_finds_a_bad_entry_anywhere) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    static const int64_t dims[] = {2, 6, 16, 18, 34, 64, 128, 130};
    int checked = 0;
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
            pe_freqs f;
            CHECK_OK(pe_freqs_default(dims[di], 10000.0, &f));
            CHECK_MSG(pe_freqs_validate(&f) == PE_OK, "%s d=%lld: good table refused", SETS[si],
                      (long long)dims[di]);
            for (int64_t i = 0; i < dims[di] / 2; i++)
                for (int kind = 0; kind < 5; kind++) {
                    pe_freqs g = f;
                    if (kind == 0) g.inv_freq[i] = NAN;
                    if (kind == 1) g.inv_freq[i] = INFINITY;
                    if (kind == 2) g.inv_freq[i] = -0.25;
                    if (kind == 3) g.inv_freq[i] = 1e300;
                    if (kind == 4) g.inv_freq_lo[i] = g.inv_freq[i] * 0x1p-40 + 1e-300;
                    CHECK_MSG(pe_freqs_validate(&g) != PE_OK, "%s d=%lld: bad entry %d at %lld passed",
                              SETS[si], (long long)dims[di], kind, (long long)i);
                    checked++;
                }
        }
    }
    CHECK(checked > 0);
    pe_kernels_select(saved);
}
