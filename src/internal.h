/*
 * internal.h — what the families share and the public header does not show:
 * error reporting, argument checks, size arithmetic, and the kernel table.
 */
#ifndef PE_INTERNAL_H
#define PE_INTERNAL_H

#include "posenc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Record a printf-style detail for pe_last_error() and return status. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int pe__fail(int status, const char *fmt, ...);

/* Checks that name the argument in the error detail. Each returns PE_OK or
 * the failing status (already recorded). */
#define PE_CHECK_NULL(ptr)                                                  \
    do {                                                                    \
        if ((ptr) == NULL)                                                  \
            return pe__fail(PE_ERR_NULL, "%s must not be NULL", #ptr);      \
    } while (0)

#define PE_TRY(expr)                                                        \
    do {                                                                    \
        int pe_try_status_ = (expr);                                        \
        if (pe_try_status_ != PE_OK) return pe_try_status_;                 \
    } while (0)

/* a * b into *out, false on size_t overflow (or a negative operand). */
bool pe__mul_size(int64_t a, int64_t b, size_t *out);

/* Position of token t. */
static inline int64_t pe__position_at(const pe_positions *pos, int64_t t) {
    return pos->ids ? pos->ids[t] : pos->start + t;
}

/* Validate positions for count tokens: ids != NULL or start + count not
 * overflowing int64. */
int pe__check_positions(const pe_positions *pos, int64_t count);

/* Validate a tensor view: non-null data, known dtype, non-negative sizes,
 * strides that keep rows from overlapping within one token, and an extent
 * that fits in size_t. */
int pe__check_tensor(const pe_tensor *t, const char *name);

/*
 * The kernel table: the hot loops, one implementation per instruction set.
 * Families call these and contain no intrinsics. The scalar set is the
 * reference every other set is tested against.
 */
typedef struct {
    const char *name;
    /* For one position p and n pairs: c[i] = cos(p w_i), s[i] = sin(p w_i)
     * with w_i = w[i] + w_lo[i], the angle formed and reduced modulo 2 pi in
     * extended precision. */
    void (*cos_sin)(int64_t p, const double *w, const double *w_lo, int64_t n,
                    double *c, double *s);
    /* Rotate the first d elements of one f32 row (in -> out, may alias):
     * layout, cos/sin per pair (angle already signed), magnitude. Elements
     * [d, head_dim) are copied when out != in. */
    void (*rotate_row_f32)(const float *in, float *out, int64_t d,
                           int64_t head_dim, pe_rope_layout layout,
                           const double *c, const double *s, double magnitude);
    /* table[pos[r]] += grad[r] for r < n rows of dim elements. */
    void (*scatter_add_f32)(float *table, int64_t dim, const int64_t *pos,
                            int64_t n, const float *grad);
} pe_kernel_table;

extern const pe_kernel_table pe__kernels_scalar;
/* The active set, chosen once. */
const pe_kernel_table *pe__kernels(void);

#endif /* PE_INTERNAL_H */
