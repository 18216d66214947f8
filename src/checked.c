/* checked.c — the status-returning size helpers of checked.h: one wording
 * of "this size overflows" for every allocation in the library. */
#include "checked.h"
#include "errors.h"

#include <stdlib.h>
#include <string.h>

int pe__bytes(const char *what, int64_t n, int64_t m, size_t elem, size_t *out) {
    if (n < 0 || m < 0)
        return pe__fail(PE_ERR_SHAPE, "%s: size %lld x %lld is negative", what, (long long)n,
                        (long long)m);
    size_t nm, bytes;
    if (!pe__mul_size(n, m, &nm) || !pe__size_mul(nm, elem, &bytes))
        return pe__fail(PE_ERR_OVERFLOW, "%s: %lld x %lld x %zu bytes overflows size_t", what,
                        (long long)n, (long long)m, elem);
    *out = bytes;
    return PE_OK;
}

int pe__alloc(const char *what, int64_t n, int64_t m, size_t elem, void *out) {
    void *p = NULL;
    memcpy(out, &p, sizeof p);
    size_t bytes;
    PE_TRY(pe__bytes(what, n, m, elem, &bytes));
    p = malloc(bytes ? bytes : 1);
    if (p == NULL)
        return pe__fail(PE_ERR_NOMEM, "%s: no memory for %zu bytes", what, bytes);
    memcpy(out, &p, sizeof p);
    return PE_OK;
}
