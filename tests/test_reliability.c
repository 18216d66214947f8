/*
 * test_reliability.c — every library case of issue 13 as a regression test,
 * and the exactness of the overlap rule (docs/RELIABILITY.md): sizes that
 * wrap, views whose rows or outputs overlap, frequencies whose angles would
 * overflow, generator parameters that give NaN, lenient npy/safetensors
 * headers. The bad-input rows themselves are EXPECT lines in
 * tests/test_errors_core.c; here are the cases that need more than a row.
 */
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pe_freqs freqs_d(int64_t d) {
    pe_freqs f;
    memset(&f, 0, sizeof f);
    (void)pe_freqs_default(d, 10000.0, &f);
    return f;
}

/* --------------------------------------------------------------- sizes */

TEST(reliability_qk_permute_huge_head_dim_zero_rows) {
    /* issue: sizeof(int64) x 2^61 wrapped to 0 bytes, then 2^61 entries
     * were written. Now the table never depends on head_dim. */
    unsigned char in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
    const int64_t huge = (int64_t)1 << 61;
    CHECK_OK(pe_qk_permute_rows(in, out, 0, 8, huge, 64, PE_ROPE_HALF));
    CHECK_OK(pe_qk_permute_rows(in, out, 0, 8, INT64_MAX, 64, PE_ROPE_INTERLEAVED));
    CHECK_ERROR(pe_qk_permute_rows(in, out, 0, 8, huge, huge, PE_ROPE_HALF), PE_ERR_DIM,
                "rotary_dim=2305843009213693952 exceeds PE_MAX_ROTARY_DIM=1024");
    for (int i = 0; i < 8; i++) CHECK(out[i] == 0);
}

TEST(reliability_safetensors_write_huge_count) {
    /* issue: (count + 1) x 16 bytes overflowed for count >= 2^60 */
    const int64_t counts[] = {(int64_t)1 << 60, INT64_MAX, ((int64_t)1 << 62) + 3};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        pe_st_tensor one;
        memset(&one, 0, sizeof one);
        CHECK_ERROR(pe_safetensors_write("/nonexistent-dir/x.safetensors", &one, counts[i], NULL),
                    PE_ERR_OVERFLOW, "tensor list");
    }
}

TEST(reliability_tensor_dense_overflow_is_refused_not_wrapped) {
    /* issue: heads * head_dim overflowed int64 (UBSan) inside the
     * constructor; now the view carries INT64_MAX and every call refuses it */
    static float buf[16];
    const pe_tensor t = pe_tensor_dense(buf, PE_F32, 2, (int64_t)1 << 40, (int64_t)1 << 40);
    CHECK(t.token_stride == INT64_MAX);
    const pe_freqs f = freqs_d(8);
    const pe_positions p = pe_positions_range(0);
    CHECK_ERROR(pe_rope_apply(&f, PE_ROPE_HALF, &p, &t, &t, PE_ROPE_FORWARD), PE_ERR_OVERFLOW,
                "in extent overflows");
    const pe_tensor w = pe_tensor_dense(buf, PE_F32, 1, INT64_MAX, 2);
    CHECK_ERROR(pe_rope_apply(&f, PE_ROPE_HALF, &p, &w, &w, PE_ROPE_FORWARD), PE_ERR_OVERFLOW,
                "extent overflows");
}

TEST(reliability_unused_huge_head_stride_every_kernel_set) {
    /* issue: the AVX-512 set stepped its row pointer past the last head by
     * an unused head stride of 2^62 elements (pointer overflow). One head:
     * the stride is never used, so every set must give the scalar result. */
    enum { T = 5, D = 64 };
    static float x[T * D], ref[T * D], got[T * D];
    for (int i = 0; i < T * D; i++) x[i] = (float)((i * 7) % 13) / 8.0f - 0.75f;
    const pe_freqs f = freqs_d(D);
    const pe_positions p = pe_positions_range(1000);
    pe_tensor in = pe_tensor_dense(x, PE_F32, T, 1, D), out = pe_tensor_dense(ref, PE_F32, T, 1, D);
    in.head_stride = out.head_stride = (int64_t)1 << 62;
    const char *sets[] = {"scalar", "avx2", "avx512"};
    CHECK_OK(pe_kernels_select("scalar"));
    CHECK_OK(pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    for (int s = 1; s < 3; s++) {
        if (!pe_kernels_supported(sets[s])) continue;
        CHECK_OK(pe_kernels_select(sets[s]));
        out.data = got;
        CHECK_OK(pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
        for (int i = 0; i < T * D; i++) CHECK_NEAR(got[i], ref[i], 2e-6);
        out.data = ref;
    }
    CHECK_OK(pe_kernels_select("auto"));
}

/* ------------------------------------------------------------- overlap */

/* Do two (token, head) rows of the view at byte offset base share a byte?
 * By brute force over byte marks. */
static int rows_overlap_brute(int64_t T, int64_t H, int64_t D, int64_t ts, int64_t hs) {
    static unsigned char mark[4096];
    memset(mark, 0, sizeof mark);
    for (int64_t t = 0; t < T; t++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t e = 0; e < D; e++) {
                const int64_t at = t * ts + h * hs + e;
                if (mark[at]) return 1;
                mark[at] = 1;
            }
    return 0;
}

TEST(reliability_row_overlap_is_decided_exactly) {
    /* Every small layout, accepted exactly when no two rows share an
     * element: nested, interleaved and overlapping strides alike. */
    static float buf[4096], x[4096];
    const pe_freqs f = freqs_d(2);
    const pe_positions p = pe_positions_range(0);
    int accepted = 0, refused = 0;
    for (int64_t T = 1; T <= 4; T++)
        for (int64_t H = 1; H <= 4; H++)
            for (int64_t D = 2; D <= 6; D += 2)
                for (int64_t ts = 0; ts <= 14; ts++)
                    for (int64_t hs = 0; hs <= 14; hs++) {
                        const pe_tensor out = {buf, PE_F32, T, H, D, ts, hs};
                        const pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D);
                        const int st = pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, 0);
                        const int overlap = rows_overlap_brute(T, H, D, ts, hs);
                        CHECK_MSG(overlap ? st == PE_ERR_SHAPE : st == PE_OK,
                                  "T=%lld H=%lld D=%lld ts=%lld hs=%lld: status %d, overlap %d (%s)",
                                  (long long)T, (long long)H, (long long)D, (long long)ts,
                                  (long long)hs, st, overlap, pe_last_error());
                        accepted += st == PE_OK;
                        refused += st != PE_OK;
                    }
    CHECK(accepted > 1000 && refused > 1000);
}

TEST(reliability_in_out_overlap_is_decided_exactly) {
    /* in and out in one buffer with the same strides, out shifted by delta
     * elements: accepted exactly when delta = 0 (in place) or no element of
     * out is an element of in (the fused-qkv case included). */
    static float buf[8192];
    const pe_freqs f = freqs_d(2);
    const pe_positions p = pe_positions_range(0);
    for (int64_t T = 1; T <= 3; T++)
        for (int64_t H = 1; H <= 3; H++)
            for (int64_t ts = 2; ts <= 12; ts += 2)
                for (int64_t hs = 2; hs <= 12; hs += 2)
                    for (int64_t delta = 0; delta <= 40; delta++) {
                        const int64_t D = 2;
                        if (rows_overlap_brute(T, H, D, ts, hs)) continue;
                        const pe_tensor in = {buf, PE_F32, T, H, D, ts, hs};
                        const pe_tensor out = {buf + delta, PE_F32, T, H, D, ts, hs};
                        static unsigned char mark[4096];
                        memset(mark, 0, sizeof mark);
                        int shared = 0;
                        for (int pass = 0; pass < 2; pass++)
                            for (int64_t t = 0; t < T; t++)
                                for (int64_t h = 0; h < H; h++)
                                    for (int64_t e = 0; e < D; e++) {
                                        const int64_t at = (pass ? delta : 0) + t * ts + h * hs + e;
                                        if (pass == 0) mark[at] = 1;
                                        else shared |= mark[at];
                                    }
                        const int st = pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, 0);
                        const int want_ok = delta == 0 || !shared;
                        CHECK_MSG(want_ok ? st == PE_OK : st == PE_ERR_SHAPE,
                                  "T=%lld H=%lld ts=%lld hs=%lld delta=%lld: status %d (%s)",
                                  (long long)T, (long long)H, (long long)ts, (long long)hs,
                                  (long long)delta, st, pe_last_error());
                    }
}

TEST(reliability_issue_overlap_cases_are_refused) {
    enum { T = 4, D = 8 };
    static float buf[T * D * 4];
    for (int i = 0; i < T * D * 4; i++) buf[i] = (float)i;
    float before[T * D * 4];
    memcpy(before, buf, sizeof buf);
    const pe_freqs f = freqs_d(D);
    const pe_positions p = pe_positions_range(0);
    const pe_tensor x = pe_tensor_dense(buf, PE_F32, T, 1, D);
    /* out = in + 1 row */
    const pe_tensor shifted = pe_tensor_dense(buf + D, PE_F32, T, 1, D);
    CHECK_ERROR(pe_rope_apply(&f, PE_ROPE_HALF, &p, &x, &shifted, 0), PE_ERR_SHAPE,
                "out overlaps in");
    /* a token stride smaller than a row, in place */
    const pe_tensor squeezed = {buf, PE_F32, T, 1, D, D / 2, D};
    CHECK_ERROR(pe_rope_apply(&f, PE_ROPE_HALF, &p, &squeezed, &squeezed, 0), PE_ERR_SHAPE,
                "rows of in overlap");
    /* q's output aliasing k's input */
    const pe_tensor k = pe_tensor_dense(buf + 2 * T * D, PE_F32, T, 1, D);
    const pe_tensor k_out = pe_tensor_dense(buf + 3 * T * D, PE_F32, T, 1, D);
    CHECK_ERROR(pe_rope_apply_qk(&f, PE_ROPE_HALF, &p, &x, &k, &k, &k_out, 0, NULL), PE_ERR_SHAPE,
                "q_out overlaps k_in");
    /* M-RoPE: out one row into in */
    const int64_t sec[3] = {2, 1, 1}, pos[T * 3] = {0};
    CHECK_ERROR(pe_mrope_apply(&f, PE_ROPE_HALF, pos, sec, PE_MROPE_BLOCKED, &x, &shifted, 0),
                PE_ERR_SHAPE, "out overlaps in");
    CHECK(memcmp(before, buf, sizeof buf) == 0);
}

TEST(reliability_fused_qkv_slices_stay_accepted_and_thread_independent) {
    /* q, k, v interleaved per token in one buffer (token stride 3 rows):
     * disjoint though their spans interleave, so in-place q/k rotation is
     * accepted, and the result is the same for 1 and 4 threads, bit for bit. */
    enum { T = 4096, H = 2, D = 64, ROW = 3 * H * D };
    float *a = malloc(sizeof(float) * T * ROW), *b = malloc(sizeof(float) * T * ROW);
    CHECK(a != NULL && b != NULL);
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return;
    }
    for (int64_t i = 0; i < (int64_t)T * ROW; i++) a[i] = (float)((i * 31) % 17) / 16.0f;
    memcpy(b, a, sizeof(float) * T * ROW);
    const pe_freqs f = freqs_d(D);
    const pe_positions p = pe_positions_range(7);
    for (int run = 0; run < 2; run++) {
        float *base = run ? b : a;
        pe_tensor q = {base, PE_F32, T, H, D, ROW, D}, k = {base + H * D, PE_F32, T, H, D, ROW, D};
        pe_rope_options o = pe_rope_options_default();
        o.threads = run ? 4 : 1;
        o.pool = pe_test_pool(o.threads); /* running workers: the call splits */
        CHECK_OK(pe_rope_apply_qk(&f, PE_ROPE_HALF, &p, &q, &q, &k, &k, 0, &o));
    }
    CHECK(memcmp(a, b, sizeof(float) * T * ROW) == 0);
    free(a);
    free(b);
}

/* -------------------------------------------------------------- ranges */

TEST(reliability_yarn_tiny_factor_is_refused_not_nan) {
    /* issue: a YaRN factor of 1e-300 in a config gave 196 of 256 outputs
     * NaN; the generator now refuses it, naming the scheme and the factor */
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_YARN, 128);
    s.factor = 1e-300;
    s.original_max_position = 4096;
    pe_freqs f;
    CHECK_ERROR(pe_freqs_from_scaling(&s, &f, NULL), PE_ERR_PARAM, "yarn gives inv_freq[");
    CHECK_MSG(strstr(pe_last_error(), "factor=1e-300") != NULL, "%s", pe_last_error());
    pe_rope_scaling lin = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 64);
    lin.base = 1e300;
    lin.factor = 1e300; /* w / f underflows to 0 for the low pairs */
    CHECK_ERROR(pe_freqs_from_scaling(&lin, &f, NULL), PE_ERR_PARAM, "outside (0, 1e240]");
}

TEST(reliability_accepted_frequencies_give_finite_angles_everywhere) {
    /* at the edge of the range rule, every int64 position */
    pe_freqs f = freqs_d(8);
    memset(f.inv_freq_lo, 0, sizeof f.inv_freq_lo);
    f.inv_freq[0] = PE_MAX_INV_FREQ;
    f.inv_freq[1] = 1.0;
    f.inv_freq[2] = 0x1p-1074;
    f.inv_freq[3] = 0.0;
    CHECK_OK(pe_freqs_validate(&f));
    const int64_t ids[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX};
    const pe_positions p = pe_positions_list(ids);
    double c[7 * 4], s[7 * 4];
    CHECK_OK(pe_rope_cos_sin(&f, &p, 7, c, s, PE_F64));
    for (int i = 0; i < 28; i++) CHECK(fabs(c[i]) <= 1.0 && fabs(s[i]) <= 1.0);
    /* a rotation of bounded inputs with A at its bound stays finite */
    f.attention_factor = PE_MAX_ATTENTION_FACTOR;
    float x[7 * 8], y[7 * 8];
    for (int i = 0; i < 56; i++) x[i] = (float)(i % 5) - 2.0f;
    const pe_tensor in = pe_tensor_dense(x, PE_F32, 7, 1, 8), out = pe_tensor_dense(y, PE_F32, 7, 1, 8);
    for (int dir = 0; dir < 3; dir++) {
        CHECK_OK(pe_rope_apply(&f, PE_ROPE_INTERLEAVED, &p, &in, &out, (pe_rope_direction)dir));
        for (int i = 0; i < 56; i++) CHECK(isfinite(y[i]));
    }
    f.inv_freq[0] = nextafter(PE_MAX_INV_FREQ, INFINITY);
    CHECK_ERROR(pe_freqs_validate(&f), PE_ERR_RANGE, "exceeds PE_MAX_INV_FREQ");
}

/* ------------------------------------------------------------- parsers */

/* A v1.0 npy image of one f64 whose header is dict + tail (padded to 64). */
static size_t npy_image(unsigned char *buf, const char *tail, size_t tail_len) {
    const char dict[] = "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }";
    const size_t hlen = 128 - 10;
    memset(buf, ' ', 128);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)hlen;
    buf[9] = 0;
    memcpy(buf + 10, dict, sizeof dict - 1);
    memcpy(buf + 128 - tail_len, tail, tail_len);
    memset(buf + 128, 0, 8);
    return 136;
}

TEST(reliability_npy_header_tail_is_numpys) {
    unsigned char img[136];
    pe_npy_array a;
    CHECK_OK(pe_npy_parse(img, npy_image(img, "\n", 1), &a));
    pe_npy_free(&a);
    static const struct {
        const char *tail;
        size_t len;
    } bad[] = {{"x\n", 2}, {"\0\n", 2}, {" ", 1}, {"\n\n", 2}, {"\n ", 2}, {"#\n", 2}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_ERROR(pe_npy_parse(img, npy_image(img, bad[i].tail, bad[i].len), &a), PE_ERR_FORMAT,
                    "the dict must be followed by spaces and one newline");
    /* what pe_npy_write writes parses back */
    char path[] = "/tmp/pe_rel_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    const int64_t shape[1] = {3};
    const double v[3] = {1, 2, 3};
    CHECK_OK(pe_npy_write(path, PE_F64, 1, shape, v));
    CHECK_OK(pe_npy_read(path, &a));
    pe_npy_free(&a);
    unlink(path);
}

/* A safetensors image: header JSON padded with pad bytes to 8, one U8
 * tensor of one byte. */
static size_t st_image(unsigned char *buf, const char *name, char pad) {
    char json[256];
    int n = snprintf(json, sizeof json, "{\"%s\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}",
                     name);
    size_t len = (size_t)n;
    while ((8 + len) % 8) json[len++] = pad;
    for (int i = 0; i < 8; i++) buf[i] = (unsigned char)((uint64_t)len >> (8 * i));
    memcpy(buf + 8, json, len);
    buf[8 + len] = 42;
    return 8 + len + 1;
}

TEST(reliability_safetensors_as_the_reference_reads_them) {
    unsigned char img[300];
    pe_safetensors *st = NULL;
    CHECK_OK(pe_safetensors_parse(img, st_image(img, "w", ' '), &st));
    pe_safetensors_free(st);
    CHECK_OK(pe_safetensors_parse(img, st_image(img, "caf\xc3\xa9", ' '), &st)); /* UTF-8 name */
    pe_safetensors_free(st);
    st = NULL;
    CHECK_ERROR(pe_safetensors_parse(img, st_image(img, "w", '\0'), &st), PE_ERR_FORMAT,
                "bytes after the header's JSON object");
    CHECK_ERROR(pe_safetensors_parse(img, st_image(img, "caf\xe9", ' '), &st), PE_ERR_FORMAT,
                "not valid UTF-8"); /* Latin-1, not UTF-8 */
    CHECK_ERROR(pe_safetensors_parse(img, st_image(img, "\xed\xa0\x80", ' '), &st), PE_ERR_FORMAT,
                "not valid UTF-8"); /* an encoded surrogate */
    CHECK_ERROR(pe_safetensors_parse(img, st_image(img, "\xc0\xaf", ' '), &st), PE_ERR_FORMAT,
                "not valid UTF-8"); /* overlong */
    CHECK(st == NULL);
    /* the writer refuses what the reader would */
    const unsigned char byte = 1;
    pe_st_tensor t;
    memset(&t, 0, sizeof t);
    t.name = "caf\xe9";
    strcpy(t.st_dtype, "U8");
    t.ndim = 1;
    t.shape[0] = 1;
    t.data = &byte;
    t.nbytes = 1;
    CHECK_ERROR(pe_safetensors_write("/nonexistent-dir/x.safetensors", &t, 1, NULL), PE_ERR_PARAM,
                "tensors[0].name is not valid UTF-8");
    t.name = "ok";
    const char *meta[] = {"key", "val\xff", NULL};
    CHECK_ERROR(pe_safetensors_write("/nonexistent-dir/x.safetensors", &t, 1, meta), PE_ERR_PARAM,
                "metadata value 0 is not valid UTF-8");
}

TEST(reliability_unsigned_positions_are_not_read_as_int64) {
    /* issue: uint64 positions 2^64 - 1 became -1. The npy reader takes
     * int64 positions only (the CLI reads positions through it), so a u8
     * file is refused by dtype; Python refuses values above INT64_MAX
     * (python/tests/test_hypothesis.py). */
    unsigned char img[136];
    npy_image(img, "\n", 1);
    memcpy(img + 10 + 12, "u8", 2); /* '<f8' -> '<u8' */
    pe_npy_array a;
    CHECK_ERROR(pe_npy_parse(img, 136, &a), PE_ERR_DTYPE, "npy dtype '<u8' is not supported");
}

TEST(reliability_mixed_dtype_outputs_overlap_exactly) {
    /* q f32 and k f16 outputs in one buffer, equal byte strides (a row of q
     * is 16 bytes, of k 8): k_out shifted by delta bytes is refused exactly
     * when some byte is in both (found by the API fuzzer: the window of the
     * translate test had La and Lb swapped, which only shows when rows have
     * different lengths). */
    static _Alignas(64) unsigned char buf[1024];
    static float qin[4 * 8];
    static uint16_t kin[4 * 8];
    const pe_freqs f = freqs_d(4);
    const pe_positions p = pe_positions_range(0);
    for (int64_t T = 1; T <= 3; T++)
        for (int64_t delta = 0; delta <= 80; delta += 2) {
            const pe_tensor q_in = pe_tensor_dense(qin, PE_F32, T, 1, 4);
            const pe_tensor k_in = pe_tensor_dense(kin, PE_F16, T, 1, 4);
            const pe_tensor q_out = {buf, PE_F32, T, 1, 4, 8, 4};             /* rows 32 B apart */
            const pe_tensor k_out = {buf + delta, PE_F16, T, 1, 4, 16, 4};    /* rows 32 B apart */
            int shared = 0;
            for (int64_t a = 0; a < T; a++)
                for (int64_t b = 0; b < T; b++) {
                    const int64_t qa = a * 32, kb = delta + b * 32;
                    shared |= qa < kb + 8 && kb < qa + 16;
                }
            const int st = pe_rope_apply_qk(&f, PE_ROPE_HALF, &p, &q_in, &q_out, &k_in, &k_out, 0, NULL);
            CHECK_MSG(shared ? st == PE_ERR_SHAPE : st == PE_OK, "T=%lld delta=%lld: status %d (%s)",
                      (long long)T, (long long)delta, st, pe_last_error());
        }
}

/* ---------------------------------------------- struct_size, one rule */

TEST(reliability_rope_table_bytes_past_struct_size_are_refused) {
    /* issue 26: pe_rope_table checked only the lower bound of struct_size,
     * so a newer caller's field past this library's struct was ignored. */
    enum { D = 8 };
    float C[4 * D / 2], x[D] = {1, 2, 3, 4, 5, 6, 7, 8}, y[D], y0[D];
    for (int i = 0; i < 4 * D / 2; i++) C[i] = 0.5f;
    struct {
        pe_rope_table t;
        unsigned char more[16];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.t = pe_rope_table_default();
    newer.t.rotary_dim = D;
    newer.t.rows = 4;
    newer.t.cos = C;
    newer.t.sin = C;
    newer.t.struct_size = sizeof newer;
    pe_positions p = pe_positions_range(1);
    pe_tensor in = pe_tensor_dense(x, PE_F32, 1, 1, D), out = pe_tensor_dense(y, PE_F32, 1, 1, D);
    CHECK_OK(pe_rope_apply_table(&newer.t, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD, NULL));
    memcpy(y0, y, sizeof y);
    newer.more[5] = 1;
    memset(y, 0x7f, sizeof y);
    CHECK_ERROR(pe_rope_apply_table(&newer.t, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD, NULL),
                PE_ERR_PARAM, "pe_rope_table.struct_size=");
    CHECK(strstr(pe_last_error(), "sets fields past this library's") != NULL);
    for (int i = 0; i < D; i++) CHECK(((unsigned char *)y)[4 * i] == 0x7f);
}

TEST(reliability_llama4_attn_scale_keeps_the_query_scale_finite) {
    /* issue 26: attn_scale 1e308 gave scale = 1 + 1e308 log1p(p / 8192) = inf */
    static const char big[] = "{\"model_type\":\"llama4_text\",\"head_dim\":64,\"num_hidden_layers\":4,"
                              "\"attn_scale\":1e308}";
    pe_plan *p = NULL;
    CHECK_ERROR(pe_plan_from_config_json(big, sizeof big - 1, &p), PE_ERR_FORMAT,
                "'attn_scale'=1e+308 must be >= 0 and <= 1e+09");
    static const char edge[] = "{\"model_type\":\"llama4_text\",\"head_dim\":64,\"num_hidden_layers\":4,"
                               "\"attn_scale\":1e9}";
    CHECK_OK(pe_plan_from_config_json(edge, sizeof edge - 1, &p));
    if (p != NULL) {
        for (int64_t layer = 0; layer < 4; layer++) {
            double s = 0;
            CHECK_OK(pe_plan_layer_query_scale(p, layer, INT64_MAX, &s));
            CHECK_MSG(isfinite(s) && s >= 1.0, "layer %lld scale %g at INT64_MAX", (long long)layer, s);
        }
        pe_plan_free(p);
    }
}

/* ------------------------------------------------ fused call (issue 26) */

enum { FT = 4, FH = 1, FD = 8 };
typedef struct {
    float qkv[FT * 3 * FD], qout[FT * FD], kc[FT * FD], vc[FT * FD], w[FD];
    pe_freqs f;
    pe_fused_qkv_params p;
} fused_case;

static void fused_setup(fused_case *c) {
    memset(c, 0, sizeof *c);
    for (int i = 0; i < FT * 3 * FD; i++) c->qkv[i] = (float)(i % 7) - 3.0f;
    for (int i = 0; i < FD; i++) c->w[i] = 1.0f;
    CHECK_OK(pe_freqs_default(FD, 10000.0, &c->f));
    c->p = pe_fused_qkv_params_default();
    CHECK_OK(pe_fused_qkv_split(c->qkv, FT, FH, FH, FD, &c->p.q_in, &c->p.k_in, &c->p.v_in));
    c->p.q_out = pe_tensor_dense(c->qout, PE_F32, FT, FH, FD);
    c->p.k_cache = pe_tensor_dense(c->kc, PE_F32, FT, FH, FD);
    c->p.v_cache = pe_tensor_dense(c->vc, PE_F32, FT, FH, FD);
}

TEST(reliability_fused_norm_eps_floor_keeps_zero_heads_finite) {
    /* issue 26: eps 0 or 1e-300 with a zero or subnormal head gave NaN/inf */
    static fused_case c;
    const pe_positions pos = pe_positions_range(0);
    const double tiny[2] = {0.0, 1e-300};
    for (int e = 0; e < 2; e++) {
        fused_setup(&c);
        c.p.q_norm_weight = c.w;
        c.p.norm_eps = tiny[e];
        CHECK_ERROR(pe_rope_fused_qkv(&c.f, PE_ROPE_HALF, &pos, &c.p), PE_ERR_PARAM,
                    "is below PE_MIN_NORM_EPS=1e-30");
        c.p.q_norm_weight = NULL; /* eps is not used without a norm: accepted */
        CHECK_OK(pe_rope_fused_qkv(&c.f, PE_ROPE_HALF, &pos, &c.p));
    }
    /* at the floor: a zero head gives 0, a subnormal head a finite vector */
    const float heads[3] = {0.0f, 1e-45f, -1e-40f};
    for (int h = 0; h < 3; h++) {
        fused_setup(&c);
        for (int t = 0; t < FT; t++)
            for (int i = 0; i < 2 * FD; i++) c.qkv[t * 3 * FD + i] = i % 3 == 0 ? heads[h] : 0.0f;
        c.p.q_norm_weight = c.p.k_norm_weight = c.w;
        c.p.norm_eps = PE_MIN_NORM_EPS;
        CHECK_OK(pe_rope_fused_qkv(&c.f, PE_ROPE_HALF, &pos, &c.p));
        for (int i = 0; i < FT * FD; i++) {
            CHECK_MSG(isfinite(c.qout[i]) && isfinite(c.kc[i]), "head %g: q %g k %g at %d",
                      (double)heads[h], (double)c.qout[i], (double)c.kc[i], i);
            if (h == 0) CHECK(c.qout[i] == 0.0f && c.kc[i] == 0.0f);
        }
    }
}

TEST(reliability_fused_packed_positions_are_inputs) {
    /* issue 26: cu_seqlens or seq_starts inside k_cache, v_cache or q_out
     * were accepted, and the call overwrote what it was reading */
    static fused_case c;
    for (int target = 0; target < 3; target++)
        for (int which = 0; which < 2; which++) {
            fused_setup(&c);
            float *out = target == 0 ? c.qout : target == 1 ? c.kc : c.vc;
            int64_t *inside = (int64_t *)(void *)(out + 4); /* 8-byte aligned */
            int64_t cu[3] = {0, 2, 4}, starts[2] = {5, 9};
            const char *name = target == 0 ? "q_out" : target == 1 ? "k_cache" : "v_cache";
            pe_positions pos;
            if (which == 0) {
                memcpy(inside, cu, sizeof cu);
                pos = pe_positions_varlen_i64(inside, 2, starts);
            } else {
                memcpy(inside, starts, sizeof starts);
                pos = pe_positions_varlen_i64(cu, 2, inside);
            }
            float before[FT * FD];
            memcpy(before, out, sizeof before);
            CHECK_ERROR(pe_rope_fused_qkv(&c.f, PE_ROPE_HALF, &pos, &c.p), PE_ERR_SHAPE, name);
            CHECK(strstr(pe_last_error(), "overlaps positions") != NULL);
            CHECK(memcmp(before, out, sizeof before) == 0);
        }
}

TEST(reliability_plain_outputs_are_apart_from_their_inputs) {
    /* pe_pair_periods: two outputs in one buffer; pe_normalized_inconsistency
     * writing over the lengths it reads; pe_additive_encode over cu_seqlens */
    pe_freqs f = freqs_d(8);
    double buf[16];
    CHECK_ERROR(pe_pair_periods(&f, 3, buf, buf + 2, NULL, NULL), PE_ERR_SHAPE, "flip overlaps wavelength");
    CHECK_OK(pe_pair_periods(&f, 3, buf, buf + 4, buf + 8, buf + 12));
    CHECK_ERROR(pe_pair_periods(&f, 3, (double *)(void *)&f, NULL, NULL, NULL), PE_ERR_SHAPE,
                "wavelength overlaps freqs");
    int64_t lengths[4] = {5, 6, 7, 8};
    double spacing[4];
    CHECK_ERROR(pe_normalized_inconsistency(2, lengths, 4, (double *)(void *)lengths, spacing),
                PE_ERR_SHAPE, "values overlaps lengths");
    CHECK(lengths[0] == 5 && lengths[3] == 8);
    CHECK_ERROR(pe_normalized_inconsistency(2, lengths, 4, spacing, spacing), PE_ERR_SHAPE,
                "spacing overlaps values");
    double out[4 * 8];
    int32_t *cu = (int32_t *)(void *)(out + 8);
    cu[0] = 0, cu[1] = 2, cu[2] = 4;
    pe_positions pos = pe_positions_varlen(cu, 2, NULL);
    pe_additive_params ap = pe_additive_defaults(PE_ADD_SINUSOIDAL, 8);
    CHECK_ERROR(pe_additive_encode(&ap, &pos, 4, out, PE_F64), PE_ERR_SHAPE, "out overlaps positions");
    CHECK(cu[0] == 0 && cu[1] == 2 && cu[2] == 4);
}

TEST(reliability_cos_sin_cache_past_2p61_bytes_is_refused) {
    /* found by fuzz_api (issue 26 run): INT64_MAX/3 positions x 3 pairs in
     * f16 is 1.8e19 bytes, which fits size_t, so the cache was accepted and
     * written past the caller's buffer; the overlap spans wrapped too. */
    pe_freqs f = freqs_d(6);
    uint16_t c[8], s[8];
    const pe_positions p = pe_positions_range(0);
    memset(c, 0x55, sizeof c);
    CHECK_ERROR(pe_rope_cos_sin(&f, &p, INT64_MAX / 3, c, s, PE_F16), PE_ERR_OVERFLOW,
                "count=3074457345618258602 x pairs overflows size_t (or 2^61 bytes)");
    CHECK(c[0] == 0x5555);
    CHECK_OK(pe_rope_cos_sin(&f, &p, 2, c, s, PE_F16));
}
