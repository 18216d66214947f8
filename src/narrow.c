/* narrow.c — pe_narrow_f32: f64 -> f32 narrowing that refuses to make an
 * infinity out of a finite value (docs/RELIABILITY.md, Ranges). */
#include "checked.h"
#include "internal.h"

#include <float.h>
#include <math.h>

int pe_narrow_f32(const double *src, int64_t n, float *dst) {
    PE_CHECK_NULL(src);
    PE_CHECK_NULL(dst);
    if (n < 0) return pe__fail(PE_ERR_SHAPE, "n=%lld is negative", (long long)n);
    size_t src_bytes, dst_bytes;
    PE_TRY(pe__bytes("narrowed values", n, 1, sizeof(double), &src_bytes));
    PE_TRY(pe__bytes("narrowed values", n, 1, sizeof(float), &dst_bytes));
    PE_TRY(pe__check_bytes_apart(dst, dst_bytes, "dst", src, src_bytes, "src"));
    /* All checked before the first store: a refused call writes nothing. */
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(src[i]))
            return pe__fail(PE_ERR_RANGE, "value[%lld]=%g is not finite", (long long)i, src[i]);
        /* FLT_MAX + half its last place: from there on round-to-nearest
         * gives inf (the tie goes to the even 2^128). Compared as doubles:
         * converting an out-of-range double is undefined in ISO C. */
        if (fabs(src[i]) >= 0x1.ffffffp127)
            return pe__fail(PE_ERR_RANGE,
                            "value[%lld]=%.17g overflows float32 (largest finite %.9g); f64 keeps it",
                            (long long)i, src[i], (double)FLT_MAX);
    }
    for (int64_t i = 0; i < n; i++) dst[i] = (float)src[i];
    return PE_OK;
}
