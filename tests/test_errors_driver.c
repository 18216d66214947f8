/* test_errors_driver.c — docs/ERRORS.md rows for packed-sequence positions
 * (POS) and rotation from caller tables (TBL). Each EXPECT poisons OUT,
 * calls, and checks status, detail and untouched bytes (errors.h). */
#include "errors.h"

enum { D = 8, T = 2 };
static const float X[T * D] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8};
static const float C[4 * D / 2] = {1, 1, 1, 1, 0.5f, 0.5f, 0.5f, 0.5f, 0, 0, 0, 0, 1, 1, 1, 1};

TEST(errors_packed_positions) {
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 1e4, &f));
    const pe_tensor in = pe_tensor_dense((void *)X, PE_F32, T, 1, D);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    static const int32_t cu_ok[3] = {0, 1, T}, cu_start1[3] = {1, 1, T}, cu_down[4] = {0, 2, 1, T},
                         cu_short[3] = {0, 1, 3};
    static const int64_t cu64[3] = {0, 1, T}, ids[T] = {0, 1}, big[2] = {INT64_MAX, 0};
    pe_positions p = pe_positions_varlen(NULL, 2, NULL);
    EXPECT("POS-1", PE_ERR_NULL, "positions cu_seqlens must not be NULL",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    p = pe_positions_varlen(cu_ok, 2, NULL);
    p.cu_seqlens_i64 = cu64;
    EXPECT("POS-2", PE_ERR_PARAM, "positions give both cu_seqlens_i32 and cu_seqlens_i64",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    p = pe_positions_varlen(cu_ok, -1, NULL);
    EXPECT("POS-3", PE_ERR_SHAPE, "positions n_seqs=-1 must be >= 0",
           pe_rope_cos_sin(&f, &p, T, OUT, OUT_AT(4096), PE_F32));
    p = pe_positions_varlen(cu_ok, 2, NULL);
    p.ids = ids;
    EXPECT("POS-4", PE_ERR_PARAM, "positions ids must be NULL for packed sequences",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    p = pe_positions_varlen(cu_start1, 2, NULL);
    EXPECT("POS-5", PE_ERR_PARAM, "cu_seqlens[0]=1 must be 0",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    p = pe_positions_varlen(cu_down, 3, NULL);
    EXPECT("POS-6", PE_ERR_PARAM, "cu_seqlens[2]=1 < cu_seqlens[1]=2: must not decrease",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    p = pe_positions_varlen(cu_short, 2, NULL);
    EXPECT("POS-7", PE_ERR_SHAPE, "cu_seqlens[n_seqs=2]=3 must equal tokens=2",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    const int32_t cu_one[2] = {0, T};
    p = pe_positions_varlen(cu_one, 1, big);
    EXPECT("POS-8", PE_ERR_RANGE, "sequence 0 starts at 9223372036854775807: its 2 tokens overflow int64",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    p = pe_positions_range(0);
    p.kind = (pe_positions_kind)7;
    EXPECT("POS-9", PE_ERR_PARAM, "positions kind=7 is not a pe_positions_kind",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD));
    /* the arrays a packed positions reads, stored inside the output */
    int32_t *cu_in_out = (int32_t *)OUT_AT(8);
    p = pe_positions_varlen(cu_in_out, 1, NULL);
    pe_err_poison();
    cu_in_out[0] = 0, cu_in_out[1] = T;
    {
        int got = pe_rope_apply(&f, PE_ROPE_HALF, &p, &out, &out, PE_ROPE_FORWARD);
        CHECK(got == PE_ERR_SHAPE && strstr(pe_last_error(), "out overlaps positions") != NULL);
    }
    p = pe_positions_varlen(cu_ok, 2, (const int64_t *)OUT_AT(16));
    EXPECT("POS-10", PE_ERR_SHAPE, "cos_out overlaps positions",
           pe_rope_cos_sin(&f, &p, T, OUT, OUT_AT(4096), PE_F32));
}

TEST(errors_rope_table) {
    const pe_tensor in = pe_tensor_dense((void *)X, PE_F32, T, 1, D);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    const pe_tensor kout = pe_tensor_dense(OUT_AT(4096), PE_F32, T, 1, D);
    const pe_positions r0 = pe_positions_range(0), r3 = pe_positions_range(3);
    pe_rope_table tb = pe_rope_table_default(), bad;
    tb.rotary_dim = D;
    tb.rows = 4;
    tb.cos = C;
    tb.sin = C;
    EXPECT("TBL-1", PE_ERR_NULL, "table must not be NULL",
           pe_rope_apply_table(NULL, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.struct_size = 8;
    EXPECT("TBL-2", PE_ERR_PARAM, "pe_rope_table struct_size=8 is below its first version's",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.rotary_dim = 7;
    EXPECT("TBL-3", PE_ERR_DIM, "table rotary_dim=7 must be even and in [2, 1024]",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.dtype = PE_I64;
    EXPECT("TBL-4", PE_ERR_DTYPE, "table dtype=i64: tables are f32, f64, f16 or bf16",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.width = (pe_table_width)3;
    EXPECT("TBL-5", PE_ERR_PARAM, "table width=3 is not a pe_table_width",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.rows = -1;
    EXPECT("TBL-6", PE_ERR_SHAPE, "table rows=-1 must be >= 0",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.row_stride = 3;
    EXPECT("TBL-6", PE_ERR_SHAPE, "table row_stride=3 is shorter than a row of 4 entries",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.rows = INT64_MAX / 2;
    EXPECT("TBL-7", PE_ERR_OVERFLOW, "table rows=4611686018427387903 x row_stride=4 overflows size_t",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.sin = NULL;
    EXPECT("TBL-8", PE_ERR_NULL, "table sin must not be NULL",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
    EXPECT("TBL-9", PE_ERR_PARAM, "direction=inverse: a table does not state its magnitude",
           pe_rope_apply_table(&tb, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_INVERSE, NULL));
    EXPECT("TBL-10", PE_ERR_RANGE, "position 4 (token 1) outside the table's rows [0, 4)",
           pe_rope_apply_table(&tb, PE_ROPE_HALF, &r3, &in, &out, PE_ROPE_FORWARD, NULL));
    static const int64_t neg[T] = {0, -1};
    const pe_positions pn = pe_positions_list(neg);
    EXPECT("TBL-10", PE_ERR_RANGE, "position -1 (token 1) outside the table's rows [0, 4)",
           pe_rope_apply_table_qk(&tb, PE_ROPE_HALF, &pn, &in, &out, &in, &kout, PE_ROPE_FORWARD, NULL));
    bad = tb;
    bad.cos = OUT_AT(32);
    EXPECT("TBL-11", PE_ERR_SHAPE, "out overlaps table cos",
           pe_rope_apply_table(&bad, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, NULL));
}
