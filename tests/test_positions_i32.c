/*
 * test_positions_i32.c — int32 positions (PE_POSITIONS_LIST_I32, the way
 * ggml, vLLM and flash-attn pass them): every function that takes
 * pe_positions gives bit for bit what it gives for the int64 list of the
 * same values (the reference: that path is tested against long double
 * elsewhere), on positions that include INT32_MIN, INT32_MAX, negatives and
 * repeats, with and without threads; and the int32 array is checked
 * against the outputs (overlap) like an int64 list.
 */
#include "runner.h"

#include <stdlib.h>

enum { T = 40, H = 3, D = 16, HALF = D / 2 };

static int32_t P32[T];
static int64_t P64[T];

static void make_positions(void) {
    for (int t = 0; t < T; t++) P32[t] = (int32_t)((t * 2654435761u) % 100000u) - 50000;
    P32[0] = INT32_MIN, P32[1] = INT32_MAX, P32[2] = 0, P32[3] = P32[4] = 7, P32[5] = -1;
    for (int t = 0; t < T; t++) P64[t] = P32[t];
}

static void fill(float *x, size_t n, uint32_t seed) {
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)(seed >> 8) * 0x1p-23f - 1.0f;
    }
}

#define SAME(a, b, n, what) CHECK_MSG(memcmp(a, b, n) == 0, "%s: int32 positions differ from int64", what)

TEST(positions_i32_rotations_equal_int64_list) {
    make_positions();
    const pe_positions p32 = pe_positions_list_i32(P32), p64 = pe_positions_list(P64);
    pe_freqs f;
    CHECK(pe_freqs_default(D, 10000.0, &f) == PE_OK);
    float x[T * H * D], k[T * 2 * D], a[T * H * D], b[T * H * D], ka[T * 2 * D], kb[T * 2 * D];
    fill(x, sizeof x / 4, 1), fill(k, sizeof k / 4, 2);
    const pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D), kin = pe_tensor_dense(k, PE_F32, T, 2, D);
    const pe_tensor oa = pe_tensor_dense(a, PE_F32, T, H, D), ob = pe_tensor_dense(b, PE_F32, T, H, D);
    const pe_tensor ka_ = pe_tensor_dense(ka, PE_F32, T, 2, D), kb_ = pe_tensor_dense(kb, PE_F32, T, 2, D);
    for (int layout = 0; layout < 2; layout++)
        for (int dir = 0; dir < 3; dir++) {
            CHECK(pe_rope_apply(&f, layout, &p32, &in, &oa, dir) == PE_OK);
            CHECK(pe_rope_apply(&f, layout, &p64, &in, &ob, dir) == PE_OK);
            SAME(a, b, sizeof a, "pe_rope_apply");
        }
    CHECK(pe_rope_apply_qk(&f, PE_ROPE_HALF, &p32, &in, &oa, &kin, &ka_, 0, NULL) == PE_OK);
    CHECK(pe_rope_apply_qk(&f, PE_ROPE_HALF, &p64, &in, &ob, &kin, &kb_, 0, NULL) == PE_OK);
    SAME(a, b, sizeof a, "pe_rope_apply_qk q");
    SAME(ka, kb, sizeof ka, "pe_rope_apply_qk k");
    /* in place */
    memcpy(a, x, sizeof x), memcpy(b, x, sizeof x);
    CHECK(pe_rope_apply(&f, PE_ROPE_INTERLEAVED, &p32, &oa, &oa, 0) == PE_OK);
    CHECK(pe_rope_apply(&f, PE_ROPE_INTERLEAVED, &p64, &ob, &ob, 0) == PE_OK);
    SAME(a, b, sizeof a, "pe_rope_apply in place");
    /* rebase onto other frequencies */
    pe_freqs g;
    CHECK(pe_freqs_default(D, 500000.0, &g) == PE_OK);
    CHECK(pe_rope_rebase(&f, &g, PE_ROPE_HALF, &p32, &in, &oa, NULL) == PE_OK);
    CHECK(pe_rope_rebase(&f, &g, PE_ROPE_HALF, &p64, &in, &ob, NULL) == PE_OK);
    SAME(a, b, sizeof a, "pe_rope_rebase");
    /* cos/sin caches in every dtype */
    static const pe_dtype dts[4] = {PE_F32, PE_F64, PE_F16, PE_BF16};
    double c32[T * HALF], s32[T * HALF], c64[T * HALF], s64[T * HALF];
    for (int i = 0; i < 4; i++) {
        CHECK(pe_rope_cos_sin(&f, &p32, T, c32, s32, dts[i]) == PE_OK);
        CHECK(pe_rope_cos_sin(&f, &p64, T, c64, s64, dts[i]) == PE_OK);
        SAME(c32, c64, T * HALF * pe_dtype_size(dts[i]), "pe_rope_cos_sin cos");
        SAME(s32, s64, T * HALF * pe_dtype_size(dts[i]), "pe_rope_cos_sin sin");
    }
    /* a caller's table, rows chosen by int32 positions */
    int32_t rows32[T];
    int64_t rows64[T];
    for (int t = 0; t < T; t++) rows32[t] = (int32_t)((t * 7) % T), rows64[t] = rows32[t];
    float tc[T * HALF], ts[T * HALF];
    const pe_positions r0 = pe_positions_range(0);
    CHECK(pe_rope_cos_sin(&f, &r0, T, tc, ts, PE_F32) == PE_OK);
    pe_rope_table tb = pe_rope_table_default();
    tb.rotary_dim = D, tb.rows = T, tb.cos = tc, tb.sin = ts;
    const pe_positions q32 = pe_positions_list_i32(rows32), q64 = pe_positions_list(rows64);
    CHECK(pe_rope_apply_table(&tb, PE_ROPE_HALF, &q32, &in, &oa, 0, NULL) == PE_OK);
    CHECK(pe_rope_apply_table(&tb, PE_ROPE_HALF, &q64, &in, &ob, 0, NULL) == PE_OK);
    SAME(a, b, sizeof a, "pe_rope_apply_table");
    CHECK(pe_rope_apply_table_qk(&tb, PE_ROPE_HALF, &q32, &in, &oa, &kin, &ka_, 2, NULL) == PE_OK);
    CHECK(pe_rope_apply_table_qk(&tb, PE_ROPE_HALF, &q64, &in, &ob, &kin, &kb_, 2, NULL) == PE_OK);
    SAME(ka, kb, sizeof ka, "pe_rope_apply_table_qk k");
    /* a row past the table is refused with the same words */
    rows32[9] = T;
    CHECK(pe_rope_apply_table(&tb, PE_ROPE_HALF, &q32, &in, &oa, 0, NULL) == PE_ERR_RANGE);
    CHECK(strstr(pe_last_error(), "40") != NULL);
}

TEST(positions_i32_threads_and_fused_equal_int64_list) {
    enum { BT = 4096, BH = 8, BD = 64 };
    int32_t *p32 = malloc(BT * sizeof *p32);
    int64_t *p64 = malloc(BT * sizeof *p64);
    float *x = malloc((size_t)BT * BH * BD * 4), *a = malloc((size_t)BT * BH * BD * 4),
          *b = malloc((size_t)BT * BH * BD * 4);
    float *kv = malloc((size_t)BT * 2 * BD * 4), *ca = malloc((size_t)BT * 2 * BD * 4),
          *cb = malloc((size_t)BT * 2 * BD * 4);
    CHECK(p32 && p64 && x && a && b && kv && ca && cb);
    if (!(p32 && p64 && x && a && b && kv && ca && cb)) goto done;
    for (int t = 0; t < BT; t++) p32[t] = t % 3 == 0 ? INT32_MAX - t : t * 3, p64[t] = p32[t];
    fill(x, (size_t)BT * BH * BD, 3), fill(kv, (size_t)BT * 2 * BD, 4);
    pe_freqs f;
    CHECK(pe_freqs_default(BD, 10000.0, &f) == PE_OK);
    const pe_positions q32 = pe_positions_list_i32(p32), q64 = pe_positions_list(p64);
    const pe_tensor in = pe_tensor_dense(x, PE_F32, BT, BH, BD);
    const pe_tensor oa = pe_tensor_dense(a, PE_F32, BT, BH, BD), ob = pe_tensor_dense(b, PE_F32, BT, BH, BD);
    pe_rope_options o = pe_rope_options_default();
    o.threads = 3;
    o.pool = pe_test_pool(3); /* running workers: the call splits */
    CHECK(pe_rope_apply_ex(&f, PE_ROPE_HALF, &q32, &in, &oa, 0, &o) == PE_OK);
    CHECK(pe_rope_apply_ex(&f, PE_ROPE_HALF, &q64, &in, &ob, 0, NULL) == PE_OK);
    SAME(a, b, (size_t)BT * BH * BD * 4, "pe_rope_apply_ex on 3 threads");
    pe_fused_qkv_params fp = pe_fused_qkv_params_default();
    fp.q_in = in;
    fp.k_in = pe_tensor_dense(kv, PE_F32, BT, 1, BD);
    fp.v_in = pe_tensor_dense(kv + (size_t)BT * BD, PE_F32, BT, 1, BD);
    fp.q_out = oa;
    fp.k_cache = pe_tensor_dense(ca, PE_F32, BT, 1, BD);
    fp.v_cache = pe_tensor_dense(ca + (size_t)BT * BD, PE_F32, BT, 1, BD);
    fp.threads = 2;
    fp.pool = pe_test_pool(2);
    CHECK(pe_rope_fused_qkv(&f, PE_ROPE_INTERLEAVED, &q32, &fp) == PE_OK);
    fp.q_out = ob;
    fp.k_cache = pe_tensor_dense(cb, PE_F32, BT, 1, BD);
    fp.v_cache = pe_tensor_dense(cb + (size_t)BT * BD, PE_F32, BT, 1, BD);
    CHECK(pe_rope_fused_qkv(&f, PE_ROPE_INTERLEAVED, &q64, &fp) == PE_OK);
    SAME(a, b, (size_t)BT * BH * BD * 4, "pe_rope_fused_qkv q");
    SAME(ca, cb, (size_t)BT * 2 * BD * 4, "pe_rope_fused_qkv cache");
done:
    free(p32), free(p64), free(x), free(a), free(b), free(kv), free(ca), free(cb);
}

TEST(positions_i32_encodings_attention_check_equal_int64_list) {
    make_positions();
    const pe_positions p32 = pe_positions_list_i32(P32), p64 = pe_positions_list(P64);
    /* additive: sinusoidal accepts any position; raw scales it */
    double e32[T * D], e64[T * D];
    pe_additive_params ap = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    CHECK(pe_additive_encode(&ap, &p32, T, e32, PE_F64) == PE_OK);
    CHECK(pe_additive_encode(&ap, &p64, T, e64, PE_F64) == PE_OK);
    SAME(e32, e64, sizeof e32, "pe_additive_encode sinusoidal");
    ap = pe_additive_defaults(PE_ADD_RAW, D);
    CHECK(pe_additive_encode(&ap, &p32, T, e32, PE_F64) == PE_OK);
    CHECK(pe_additive_encode(&ap, &p64, T, e64, PE_F64) == PE_OK);
    SAME(e32, e64, sizeof e32, "pe_additive_encode raw");
    /* similarities */
    enum { C = 12 };
    double s32[C * C], s64[C * C], q[D], k[D];
    for (int i = 0; i < D; i++) q[i] = 0.1 * i - 0.5, k[i] = 0.3 - 0.05 * i;
    ap = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    CHECK(pe_similarity_additive(&ap, &p32, C, s32) == PE_OK);
    CHECK(pe_similarity_additive(&ap, &p64, C, s64) == PE_OK);
    SAME(s32, s64, sizeof s32, "pe_similarity_additive");
    pe_freqs f;
    CHECK(pe_freqs_default(D, 10000.0, &f) == PE_OK);
    CHECK(pe_similarity_rope(&f, PE_ROPE_HALF, D, q, k, &p32, C, s32) == PE_OK);
    CHECK(pe_similarity_rope(&f, PE_ROPE_HALF, D, q, k, &p64, C, s64) == PE_OK);
    SAME(s32, s64, sizeof s32, "pe_similarity_rope");
    /* reference attention with RoPE: queries and keys at int32 positions */
    enum { NQ = 4, NK = 6 };
    float qf[NQ * D], kf[NK * D], vf[NK * D], o32[NQ * D], o64[NQ * D];
    fill(qf, NQ * D, 5), fill(kf, NK * D, 6), fill(vf, NK * D, 7);
    pe_attention_params at = pe_attention_params_default(NQ, NK, D, D);
    const pe_positions qp32 = pe_positions_list_i32(P32 + 10), qp64 = pe_positions_list(P64 + 10);
    CHECK(pe_attention_rope(&at, &f, PE_ROPE_HALF, &qp32, &p32, qf, kf, vf, o32) == PE_OK);
    CHECK(pe_attention_rope(&at, &f, PE_ROPE_HALF, &qp64, &p64, qf, kf, vf, o64) == PE_OK);
    SAME(o32, o64, sizeof o32, "pe_attention_rope");
    /* the rotation check reads the dump's positions as int32 too */
    float x[T * H * D], y[T * H * D];
    fill(x, sizeof x / 4, 8);
    const pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D), out = pe_tensor_dense(y, PE_F32, T, H, D);
    CHECK(pe_rope_apply(&f, PE_ROPE_HALF, &p64, &in, &out, 0) == PE_OK);
    pe_check_expect ex;
    CHECK(pe_check_expect_from_freqs(&f, PE_ROPE_HALF, &ex) == PE_OK);
    pe_check_report *r32 = malloc(sizeof *r32), *r64 = malloc(sizeof *r64);
    CHECK(r32 && r64);
    if (r32 && r64) {
        CHECK(pe_check_rotation(&ex, &p32, NULL, &in, &out, r32) == PE_OK);
        CHECK(pe_check_rotation(&ex, &p64, NULL, &in, &out, r64) == PE_OK);
        CHECK(r32->agree == r64->agree && r32->agree);
        CHECK(r32->max_abs_err == r64->max_abs_err && r32->rms_err == r64->rms_err);
    }
    free(r32), free(r64);
}

TEST(positions_i32_refusals) {
    make_positions();
    pe_freqs f;
    CHECK(pe_freqs_default(D, 10000.0, &f) == PE_OK);
    float x[T * D];
    fill(x, T * D, 9);
    const pe_tensor in = pe_tensor_dense(x, PE_F32, T, 1, D);
    /* the int32 array inside the output: refused before anything is written */
    int32_t *buf = malloc(T * D * 4 + T * 4);
    CHECK(buf != NULL);
    if (buf == NULL) return;
    const pe_tensor out = pe_tensor_dense(buf, PE_F32, T, 1, D);
    int32_t *inside = buf + 5; /* inside out's bytes */
    for (int t = 0; t < T; t++) inside[t] = t;
    const pe_positions bad = pe_positions_list_i32(inside);
    CHECK(pe_rope_apply(&f, PE_ROPE_HALF, &bad, &in, &out, 0) == PE_ERR_SHAPE);
    CHECK(strstr(pe_last_error(), "out overlaps positions") != NULL);
    free(buf);
}
