/* test_errors_pool.c — docs/ERRORS.md rows of the caller's threads (THR):
 * pe_pool_create's bounds, and the options that say who runs a call's
 * threads (a pool or a parallel-for hook), checked by every call taking
 * pe_rope_options and by the fused epilogue before anything is written.
 * Outputs point into OUT (errors.h). */
#include "errors.h"

enum { T = 2, D = 8 };
static const float X[T * D] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8};
static float QKV[T * 3 * D];

static pe_freqs F;
static const pe_positions R0 = {0};
static const pe_tensor IN = {(void *)X, PE_F32, T, 1, D, D, D};

static int never_called(void *ctx, int n_tasks, pe_task_fn fn, void *arg) {
    (void)ctx, (void)n_tasks, (void)fn, (void)arg;
    return 0;
}

/* Each options row on the calls that take options (one of each kind). */
static void expect_options(const char *id, const char *needle, const pe_rope_options *o,
                           const pe_fused_qkv_params *fp) {
    pe_freqs f;
    (void)pe_freqs_default(D, 1e4, &f);
    const pe_positions r0 = pe_positions_range(0);
    const pe_tensor in = pe_tensor_dense((void *)X, PE_F32, T, 1, D);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    const pe_tensor kout = pe_tensor_dense(OUT_AT(1024), PE_F32, T, 1, D);
    EXPECT(id, PE_ERR_PARAM, needle, pe_rope_apply_ex(&f, PE_ROPE_HALF, &r0, &in, &out, 0, o));
    EXPECT(id, PE_ERR_PARAM, needle,
           pe_rope_apply_qk(&f, PE_ROPE_HALF, &r0, &in, &out, &in, &kout, 0, o));
    EXPECT(id, PE_ERR_PARAM, needle, pe_rope_cos_sin_ex(&f, &r0, T, OUT, OUT_AT(4096), PE_F32, o));
    EXPECT(id, PE_ERR_PARAM, needle, pe_rope_shift(&f, PE_ROPE_HALF, NULL, 3, &in, &out, o));
    EXPECT(id, PE_ERR_PARAM, needle, pe_rope_rebase(&f, &f, PE_ROPE_HALF, &r0, &in, &out, o));
    const int64_t pos3[T * 3] = {0, 0, 0, 1, 1, 1}, sections[3] = {2, 1, 1};
    EXPECT(id, PE_ERR_PARAM, needle,
           pe_mrope_apply_ex(&f, PE_ROPE_HALF, pos3, sections, PE_MROPE_BLOCKED, &in, &out, 0, o));
    static const float cs[T * D / 2] = {1, 1, 1, 1, 1, 1, 1, 1};
    pe_rope_table tb = pe_rope_table_default();
    tb.rotary_dim = D;
    tb.rows = T;
    tb.cos = cs;
    tb.sin = cs;
    EXPECT(id, PE_ERR_PARAM, needle, pe_rope_apply_table(&tb, PE_ROPE_HALF, &r0, &in, &out, 0, o));
    EXPECT(id, PE_ERR_PARAM, needle, pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, fp));
}

TEST(errors_pool_and_hook) {
    EXPECT("THR-1", PE_ERR_PARAM, "pool threads=0 must be in [1, 64]", pe_pool_create(0, (pe_pool **)OUT));
    EXPECT("THR-1", PE_ERR_PARAM, "pool threads=65 must be in [1, 64]", pe_pool_create(65, (pe_pool **)OUT));
    EXPECT("THR-2", PE_ERR_NULL, "out must not be NULL", pe_pool_create(2, NULL));

    (void)pe_freqs_default(D, 1e4, &F);
    pe_pool *pool = NULL;
    CHECK(pe_pool_create(2, &pool) == PE_OK);
    if (pool == NULL) return;
    pe_fused_qkv_params fp = pe_fused_qkv_params_default();
    (void)pe_fused_qkv_split(QKV, T, 1, 1, D, &fp.q_in, &fp.k_in, &fp.v_in);
    fp.q_out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    fp.k_cache = pe_tensor_dense(OUT_AT(1024), PE_F32, T, 1, D);
    fp.v_cache = pe_tensor_dense(OUT_AT(2048), PE_F32, T, 1, D);

    pe_rope_options o = pe_rope_options_default();
    o.pool = pool;
    o.parallel_for = never_called;
    fp.pool = pool;
    fp.parallel_for = never_called;
    EXPECT("THR-3", PE_ERR_PARAM, "pool and parallel_for are both set",
           pe_rope_apply_ex(&F, PE_ROPE_HALF, &R0, &IN, (pe_tensor *)&(pe_tensor){OUT, PE_F32, T, 1, D, D, D}, 0, &o));
    expect_options("THR-3", "pool and parallel_for are both set", &o, &fp);

    o = pe_rope_options_default();
    o.parallel_for_ctx = &o;
    fp.pool = NULL;
    fp.parallel_for = NULL;
    fp.parallel_for_ctx = &o;
    EXPECT("THR-4", PE_ERR_PARAM, "parallel_for_ctx is set without parallel_for",
           pe_rope_apply_ex(&F, PE_ROPE_HALF, &R0, &IN, (pe_tensor *)&(pe_tensor){OUT, PE_F32, T, 1, D, D, D}, 0, &o));
    expect_options("THR-4", "parallel_for_ctx is set without parallel_for", &o, &fp);

    o = pe_rope_options_default();
    o.pool = pool;
    o.threads = 3;
    fp.parallel_for_ctx = NULL;
    fp.pool = pool;
    fp.threads = 3;
    EXPECT("THR-5", PE_ERR_PARAM, "threads=3 with a pool of 2 threads",
           pe_rope_apply_ex(&F, PE_ROPE_HALF, &R0, &IN, (pe_tensor *)&(pe_tensor){OUT, PE_F32, T, 1, D, D, D}, 0, &o));
    expect_options("THR-5", "threads=3 with a pool of 2 threads", &o, &fp);
    pe_pool_destroy(pool);
}
