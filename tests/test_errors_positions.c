/* test_errors_positions.c — docs/ERRORS.md rows of int32 position lists
 * (PE_POSITIONS_LIST_I32): a struct naming both lists, or none. Outputs
 * point into OUT (errors.h). */
#include "errors.h"

enum { T = 2, D = 8 };
static const float X[T * D] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8};

TEST(errors_positions_i32) {
    pe_freqs f;
    (void)pe_freqs_default(D, 1e4, &f);
    const pe_tensor in = pe_tensor_dense((void *)X, PE_F32, T, 1, D);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    static const int32_t ids32[T] = {3, 4};
    static const int64_t ids64[T] = {3, 4};
    pe_positions p = pe_positions_list_i32(ids32);
    p.ids = ids64;
    EXPECT("POS-11", PE_ERR_PARAM, "positions give both ids and ids_i32: one of the two",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, 0));
    EXPECT("POS-11", PE_ERR_PARAM, "positions give both ids and ids_i32",
           pe_rope_cos_sin(&f, &p, T, OUT, OUT_AT(4096), PE_F32));
    p = pe_positions_list_i32(NULL);
    EXPECT("POS-12", PE_ERR_NULL, "positions ids_i32 must not be NULL",
           pe_rope_apply(&f, PE_ROPE_HALF, &p, &in, &out, 0));
    pe_additive_params ap = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    EXPECT("POS-12", PE_ERR_NULL, "positions ids_i32 must not be NULL",
           pe_additive_encode(&ap, &p, T, OUT, PE_F32));
}
