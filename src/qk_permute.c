/*
 * qk_permute.c — moves the rows of a q/k projection between the two RoPE pair
 * layouts, the step checkpoint converters most often get wrong. Rows are
 * moved as opaque bytes, so any storage type (f32, bf16, quantized rows)
 * converts without a round trip through float.
 */
#include "internal.h"

#include <string.h>

int pe_qk_permute_rows(const void *in, void *out, int64_t rows, size_t row_bytes,
                       int64_t head_dim, int64_t rotary_dim, pe_rope_layout to) {
    PE_TRY(pe__check_rope_layout(to, "to"));
    if (head_dim < 2)
        return pe__fail(PE_ERR_DIM, "head_dim=%lld must be >= 2", (long long)head_dim);
    if (rows < 0 || rows % head_dim != 0)
        return pe__fail(PE_ERR_SHAPE, "rows=%lld is not a multiple of head_dim=%lld",
                        (long long)rows, (long long)head_dim);
    size_t total;
    if (!pe__mul_size(rows, (uint64_t)row_bytes > (uint64_t)INT64_MAX ? -1 : (int64_t)row_bytes, &total))
        return pe__fail(PE_ERR_OVERFLOW, "rows=%lld x row_bytes=%zu overflows size_t",
                        (long long)rows, row_bytes);
    PE_TRY(pe__check_rotary_within(rotary_dim, head_dim));
    /* The permutation itself, and rotary_dim's own checks, come from rope.c:
     * one definition of the pairing for the rotation and the conversion.
     * Only its first rotary_dim entries move anything (the rest is the
     * identity), so the table never depends on head_dim's size. */
    int64_t perm[PE_MAX_ROTARY_DIM];
    PE_TRY(pe_rope_layout_permutation(rotary_dim, rotary_dim, perm));
    if (total == 0) return PE_OK;
    PE_CHECK_NULL(in);
    PE_CHECK_NULL(out);
    /* Rows are scattered: a partial overlap would read rows already
     * overwritten (overlap.c). */
    PE_TRY(pe__check_bytes_apart(out, total, "out", in, total, "in"));
    const unsigned char *src = in;
    unsigned char *dst = out;
    for (int64_t h = 0; h < rows / head_dim; h++) {
        const size_t base = (size_t)(h * head_dim); /* < rows: fits */
        for (int64_t j = 0; j < head_dim; j++) {
            /* perm[j]: the half-split index of interleaved element j */
            const int64_t pj = j < rotary_dim ? perm[j] : j;
            size_t from = base + (size_t)(to == PE_ROPE_HALF ? j : pj);
            size_t into = base + (size_t)(to == PE_ROPE_HALF ? pj : j);
            memcpy(dst + into * row_bytes, src + from * row_bytes, row_bytes);
        }
    }
    return PE_OK;
}
