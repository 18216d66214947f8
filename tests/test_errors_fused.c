/* test_errors_fused.c — docs/ERRORS.md rows of the fused QKV epilogue
 * (FUS), and the shared RoPE rows it also returns. Outputs (q_out, the
 * caches and scales, and q_in when it is rotated in place) point into OUT,
 * so every EXPECT also checks that a rejected call wrote nothing. */
#include "errors.h"

enum { T = 2, HQ = 2, HKV = 1, D = 8, ROW = (HQ + 2 * HKV) * D };
static float QKV[T * ROW];
static const float W[D] = {1, 1, 1, 1, 1, 1, 1, 1};

/* A valid call: q_out, k_cache, v_cache (f16) and room for scales in OUT. */
static pe_fused_qkv_params valid(void) {
    pe_fused_qkv_params p = pe_fused_qkv_params_default();
    (void)pe_fused_qkv_split(QKV, T, HQ, HKV, D, &p.q_in, &p.k_in, &p.v_in);
    p.q_out = pe_tensor_dense(OUT, PE_F32, T, HQ, D);
    p.k_cache = pe_tensor_dense(OUT_AT(1024), PE_F16, T, HKV, D);
    p.v_cache = pe_tensor_dense(OUT_AT(2048), PE_F16, T, HKV, D);
    p.q_norm_weight = W;
    p.k_norm_weight = W;
    return p;
}

TEST(errors_fused_qkv) {
    pe_freqs f;
    memset(&f, 0, sizeof f);
    (void)pe_freqs_default(D, 1e4, &f);
    pe_freqs f16;
    (void)pe_freqs_default(16, 1e4, &f16);
    const pe_positions r0 = pe_positions_range(0);
    pe_fused_qkv_params p;
    EXPECT("FUS-1", PE_ERR_NULL, "params must not be NULL", pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, NULL));
    p = valid();
    p.struct_size = 8;
    EXPECT("SIZE-1", PE_ERR_PARAM,
           "pe_fused_qkv_params.struct_size=8 is smaller than its first version",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    {   /* a newer caller's struct with a field this library does not know */
        struct {
            pe_fused_qkv_params p;
            int newer_field;
        } big;
        memset(&big, 0, sizeof big);
        big.p = valid();
        big.p.struct_size = sizeof big;
        big.newer_field = 1;
        EXPECT("SIZE-2", PE_ERR_PARAM, "pe_fused_qkv_params.struct_size=",
               pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &big.p));
    }
    p = valid();
    p.stores = (pe_store_policy)7;
    EXPECT("ROPE-11", PE_ERR_PARAM, "stores=7 is not a pe_store_policy",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.k_in.dtype = PE_F16;
    EXPECT("FUS-3", PE_ERR_DTYPE, "k_in dtype=f16: the fused QKV input is f32",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.q_out.dtype = PE_I8;
    EXPECT("FUS-4", PE_ERR_DTYPE, "q_out dtype=i8 must be f32, f16 or bf16",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.v_cache.dtype = PE_F64;
    EXPECT("FUS-5", PE_ERR_DTYPE, "v_cache dtype=f64 must be f32, f16, bf16 or i8",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.k_cache = pe_tensor_dense(OUT_AT(1024), PE_F16, T, 2, D);
    EXPECT("FUS-6", PE_ERR_SHAPE, "k_cache (2, 2, 8) does not match k_in (2, 1, 8)",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.q_out = pe_tensor_dense(OUT, PE_F32, 1, HQ, D);
    EXPECT("FUS-6", PE_ERR_SHAPE, "q_out (1, 2, 8) does not match q_in (2, 2, 8)",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.k_cache.dtype = PE_I8;
    EXPECT("FUS-7", PE_ERR_SHAPE, "k_scale f32 (0, 0, 0) must be an f32 (2, 1, 1) view for the i8 k_cache",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p.k_scale = pe_tensor_dense(OUT_AT(3072), PE_F32, T, HKV, 2);
    EXPECT("FUS-7", PE_ERR_SHAPE, "k_scale f32 (2, 1, 2) must be an f32 (2, 1, 1) view for the i8 k_cache",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.v_scale = pe_tensor_dense(OUT_AT(3072), PE_F32, T, HKV, 1);
    EXPECT("FUS-8", PE_ERR_PARAM, "v_scale is set but v_cache is f16: scales go with i8 caches only",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.norm_eps = -1e-6;
    EXPECT("FUS-9", PE_ERR_PARAM, "norm_eps=-1e-06 must be finite and >= 0",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p.norm_eps = NAN;
    EXPECT("FUS-9", PE_ERR_PARAM, "norm_eps=nan must be finite and >= 0",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p.norm_eps = 0; /* valid() normalises q and k: below the floor (issue 26) */
    EXPECT("FUS-9", PE_ERR_PARAM, "norm_eps=0 is below PE_MIN_NORM_EPS=1e-30",
               pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.norm_weight = (pe_norm_weight)7;
    EXPECT("FUS-10", PE_ERR_PARAM, "norm_weight=7 is not a pe_norm_weight",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    /* overlaps: an output on an input, on another output, on the weights
     * or the positions; q in place as a different view of the same bytes */
    p = valid();
    p.v_cache = pe_tensor_dense(OUT_AT(1040), PE_F16, T, HKV, D);
    EXPECT("FUS-11", PE_ERR_SHAPE, "v_cache overlaps k_cache: only the same view (in place) may share memory",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.k_cache = pe_tensor_dense(QKV + 4, PE_F32, T, HKV, D);
    EXPECT("FUS-11", PE_ERR_SHAPE, "k_cache overlaps q_in: only the same view (in place) may share memory",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    p.k_cache = pe_tensor_dense(OUT_AT(1024), PE_F16, T, HKV, D);
    p.q_norm_weight = (const float *)OUT_AT(4);
    EXPECT("FUS-11", PE_ERR_SHAPE, "q_out overlaps q_norm_weight",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    const pe_positions inside = pe_positions_list((const int64_t *)OUT_AT(2056));
    EXPECT("FUS-11", PE_ERR_SHAPE, "v_cache overlaps positions",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &inside, &p));
    /* q in place, but q_out a view of q_in's bytes with another dtype */
    p = valid();
    float *q_inplace = (float *)OUT_AT(8192);
    (void)pe_fused_qkv_split(q_inplace, T, HQ, HKV, D, &p.q_in, &p.k_in, &p.v_in);
    p.q_out = p.q_in;
    p.q_out.dtype = PE_BF16;
    EXPECT("FUS-11", PE_ERR_SHAPE, "q_out overlaps q_in: only the same view (in place) may share memory",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    /* pe_fused_qkv_split */
    EXPECT("FUS-12", PE_ERR_SHAPE, "fused qkv (tokens=2, n_q_heads=-1, n_kv_heads=1, head_dim=8) has a negative size",
           pe_fused_qkv_split(QKV, T, -1, 1, D, (pe_tensor *)OUT, (pe_tensor *)OUT_AT(64), (pe_tensor *)OUT_AT(128)));
    EXPECT("FUS-13", PE_ERR_OVERFLOW, "fused qkv row of (1 + 2 x 4611686018427387904) x 8 overflows",
           pe_fused_qkv_split(QKV, T, 1, INT64_C(1) << 62, D, (pe_tensor *)OUT, (pe_tensor *)OUT_AT(64),
                              (pe_tensor *)OUT_AT(128)));
    EXPECT("FUS-14", PE_ERR_NULL, "qkv must not be NULL",
           pe_fused_qkv_split(NULL, T, 1, 1, D, (pe_tensor *)OUT, (pe_tensor *)OUT_AT(64), (pe_tensor *)OUT_AT(128)));
    EXPECT("FUS-14", PE_ERR_NULL, "v must not be NULL",
           pe_fused_qkv_split(QKV, T, 1, 1, D, (pe_tensor *)OUT, (pe_tensor *)OUT_AT(64), NULL));
    /* the shared RoPE and view rows */
    p = valid();
    EXPECT("ROPE-14", PE_ERR_DIM, "rotary_dim=16 exceeds head_dim=8",
           pe_rope_fused_qkv(&f16, PE_ROPE_HALF, &r0, &p));
    EXPECT("ROPE-8", PE_ERR_PARAM, "layout=9 is not a RoPE layout",
           pe_rope_fused_qkv(&f, (pe_rope_layout)9, &r0, &p));
    p.threads = 0;
    EXPECT("ROPE-10", PE_ERR_PARAM, "threads=0 must be in [1, 1024]",
           pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
    p = valid();
    EXPECT("ROPE-3", PE_ERR_NULL, "freqs must not be NULL", pe_rope_fused_qkv(NULL, PE_ROPE_HALF, &r0, &p));
    EXPECT("COM-1", PE_ERR_NULL, "positions must not be NULL", pe_rope_fused_qkv(&f, PE_ROPE_HALF, NULL, &p));
    p.v_cache.data = NULL;
    EXPECT("COM-7", PE_ERR_NULL, "v_cache data must not be NULL", pe_rope_fused_qkv(&f, PE_ROPE_HALF, &r0, &p));
}
