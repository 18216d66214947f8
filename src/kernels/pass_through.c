/*
 * pass_through.c — the untouched tail of a partial rotation: elements
 * [d, head_dim) of every head copied from in to out as they are (any
 * storage type: bytes). Shared by every kernel set and every family that
 * rotates rows (pe__rope_pass_through in pass_through.h decides whether there is
 * anything to copy).
 */
#include "pass_through.h"

#include <string.h>

void pe__rope_copy_tail(const pe__rope_rows *r) {
    const size_t esz = pe__dtype_size(r->dtype);
    for (int64_t h = 0; h < r->heads; h++)
        memcpy((char *)r->out + (size_t)(h * r->out_head_stride + r->d) * esz,
               (const char *)r->in + (size_t)(h * r->in_head_stride + r->d) * esz,
               (size_t)(r->head_dim - r->d) * esz);
}
