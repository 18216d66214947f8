/* common.c — version, dtypes, positions and tensor views: the small shared
 * vocabulary of the API. */
#include "internal.h"
#include "positions.h"

#include <limits.h>
#include <math.h>

#define PE_STR2_(x) #x
#define PE_STR_(x) PE_STR2_(x)

const char *pe_version_string(void) {
    return PE_STR_(PE_VERSION_MAJOR) "." PE_STR_(PE_VERSION_MINOR) "." PE_STR_(
        PE_VERSION_PATCH);
}

int pe_version_number(void) { return PE_VERSION_NUMBER; }

size_t pe_dtype_size(pe_dtype dtype) { return pe__dtype_size(dtype); }

const char *pe_dtype_name(pe_dtype dtype) {
    switch (dtype) {
    case PE_F32: return "f32";
    case PE_F64: return "f64";
    case PE_F16: return "f16";
    case PE_BF16: return "bf16";
    case PE_I64: return "i64";
    case PE_I8: return "i8";
    }
    return "?";
}

pe_positions pe_positions_range(int64_t start) {
    pe_positions p = {.start = start};
    return p;
}

pe_positions pe_positions_list(const int64_t *ids) {
    pe_positions p = {.ids = ids};
    return p;
}

pe_tensor pe_tensor_dense(void *data, pe_dtype dtype, int64_t tokens,
                          int64_t heads, int64_t head_dim) {
    pe_tensor t;
    t.data = data;
    t.dtype = dtype;
    t.tokens = tokens;
    t.heads = heads;
    t.head_dim = head_dim;
    t.head_stride = head_dim;
    /* A product that overflows int64 cannot describe memory: INT64_MAX
     * makes every call refuse the view as an overflowing extent (COM-10)
     * instead of wrapping here. */
    if (!pe__i64_mul(heads, head_dim, &t.token_stride)) t.token_stride = INT64_MAX;
    return t;
}

int pe__check_positions(const pe_positions *positions, int64_t count) {
    PE_CHECK_NULL(positions);
    if (count < 0)
        return pe__fail(PE_ERR_SHAPE, "count=%lld must be >= 0", (long long)count);
    if (pe__positions_is_range(positions) && count > 0 &&
        positions->start > INT64_MAX - (count - 1))
        return pe__fail(PE_ERR_RANGE,
                        "positions start=%lld + count=%lld overflow int64",
                        (long long)positions->start, (long long)count);
    return pe__check_positions_kind(positions, count); /* positions.c */
}

int pe__check_tensor(const pe_tensor *t, const char *name) {
    if (t == NULL) return pe__fail(PE_ERR_NULL, "%s must not be NULL", name);
    if (pe__dtype_size(t->dtype) == 0)
        return pe__fail(PE_ERR_DTYPE, "%s dtype=%d is not a known dtype", name,
                        (int)t->dtype);
    if (t->tokens < 0 || t->heads < 0 || t->head_dim < 0)
        return pe__fail(PE_ERR_SHAPE,
                        "%s shape (%lld, %lld, %lld) has a negative size", name,
                        (long long)t->tokens, (long long)t->heads,
                        (long long)t->head_dim);
    if (t->tokens == 0 || t->heads == 0 || t->head_dim == 0) return PE_OK;
    if (t->data == NULL) return pe__fail(PE_ERR_NULL, "%s data must not be NULL", name);
    if (t->heads > 1 && t->head_stride < t->head_dim &&
        t->head_stride > -t->head_dim)
        return pe__fail(PE_ERR_SHAPE,
                        "%s head_stride=%lld overlaps rows of head_dim=%lld",
                        name, (long long)t->head_stride, (long long)t->head_dim);
    if (t->head_stride < 0 || t->token_stride < 0)
        return pe__fail(PE_ERR_SHAPE, "%s strides must be >= 0 (token %lld, head %lld)",
                        name, (long long)t->token_stride, (long long)t->head_stride);
    /* Extent of the last element in bytes, checked for overflow, and below
     * PE__MAX_EXTENT so that overlap.c can add offsets in int64. */
    size_t a, b, ab, elems, ext;
    if (!pe__mul_size(t->tokens - 1, t->token_stride, &a) ||
        !pe__mul_size(t->heads - 1, t->head_stride, &b) || !pe__size_add(a, b, &ab) ||
        !pe__size_add(ab, (size_t)t->head_dim, &elems) ||
        !pe__size_mul(elems, pe__dtype_size(t->dtype), &ext) || (uint64_t)ext > PE__MAX_EXTENT)
        return pe__fail(PE_ERR_OVERFLOW, "%s extent overflows size_t (or 2^61 bytes)", name);
    if (t->tokens > 1 && t->token_stride == 0)
        return pe__fail(PE_ERR_SHAPE, "%s token_stride=0 with %lld tokens", name,
                        (long long)t->tokens);
    return pe__check_rows_disjoint(t, name);
}

int pe__check_cos_sin_out(int64_t count, int64_t half, const void *cos_out,
                          const void *sin_out, pe_dtype dtype) {
    if (dtype != PE_F32 && dtype != PE_F64 && dtype != PE_F16 && dtype != PE_BF16)
        return pe__fail(PE_ERR_DTYPE, "dtype=%s: cos/sin caches are f32, f64, f16 or bf16",
                        pe_dtype_name(dtype));
    size_t bytes;
    /* below 2^61 bytes, as a view's extent (COM-10): no memory is that
     * large, and a size_t near 2^64 would wrap the overlap spans */
    if (pe__bytes("cos/sin cache", count, half, pe__dtype_size(dtype), &bytes) != PE_OK ||
        (uint64_t)bytes > PE__MAX_EXTENT)
        return pe__fail(PE_ERR_OVERFLOW, "count=%lld x pairs overflows size_t (or 2^61 bytes)",
                        (long long)count);
    if (count > 0) {
        PE_CHECK_NULL(cos_out);
        PE_CHECK_NULL(sin_out);
    }
    return pe__check_bytes_apart(sin_out, bytes, "sin_out", cos_out, bytes, "cos_out");
}

/* The checks several families make, written once so that every caller
 * refuses the same value with the same words (docs/ERRORS.md). */
int pe__check_rope_layout(pe_rope_layout layout, const char *name) {
    if (layout != PE_ROPE_INTERLEAVED && layout != PE_ROPE_HALF)
        return pe__fail(PE_ERR_PARAM, "%s=%d is not a RoPE layout", name, (int)layout);
    return PE_OK;
}

int pe__check_rotary_dim(int64_t d) {
    if (d > PE_MAX_ROTARY_DIM)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld exceeds PE_MAX_ROTARY_DIM=%d",
                        (long long)d, PE_MAX_ROTARY_DIM);
    if (d < 2 || d > PE_MAX_ROTARY_DIM || d % 2 != 0)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld must be even and in [2, %d]",
                        (long long)d, PE_MAX_ROTARY_DIM);
    return PE_OK;
}

int pe__check_rotary_within(int64_t rotary_dim, int64_t head_dim) {
    if (rotary_dim > head_dim)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld exceeds head_dim=%lld",
                        (long long)rotary_dim, (long long)head_dim);
    return PE_OK;
}

int pe__check_base(double base) {
    if (!(base > 0.0) || !isfinite(base) || base == 1.0)
        return pe__fail(PE_ERR_PARAM, "base=%g must be finite, positive and not 1", base);
    return PE_OK;
}
