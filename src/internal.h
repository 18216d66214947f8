/*
 * internal.h — what the families share and the public header does not show:
 * argument checks, positions, views and their overlap. It re-exports the
 * error channel (errors.h), size arithmetic (checked.h) and the kernel
 * interface (kernels/kernels.h), so a family file includes this one header.
 * Kernels never include it (tests/check_includes.sh).
 */
#ifndef PE_INTERNAL_H
#define PE_INTERNAL_H

#include "posenc.h"
#include "checked.h"
#include "errors.h"
#include "kernels/kernels.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Validate positions for count tokens: ids != NULL or start + count not
 * overflowing int64. */
int pe__check_positions(const pe_positions *pos, int64_t count);

/* Validate the outputs of a cos/sin cache of count rows of half entries:
 * dtype f32, f64, f16 or bf16, a size that fits size_t, and (when count > 0) non-null
 * pointers. Shared by pe_rope_cos_sin_ex and pe_mrope_cos_sin. */
int pe__check_cos_sin_out(int64_t count, int64_t half, const void *cos_out,
                          const void *sin_out, pe_dtype dtype);

/* Argument checks more than one family makes, one wording each (common.c):
 *   "<name>=%d is not a RoPE layout" (PE_ERR_PARAM);
 *   "rotary_dim=%lld must be even and in [2, PE_MAX_ROTARY_DIM]" (PE_ERR_DIM);
 *   "rotary_dim=%lld exceeds head_dim=%lld" (PE_ERR_DIM);
 *   "base=%g must be finite, positive and not 1" (PE_ERR_PARAM). */
int pe__check_rope_layout(pe_rope_layout layout, const char *name);
int pe__check_rotary_dim(int64_t rotary_dim);
int pe__check_rotary_within(int64_t rotary_dim, int64_t head_dim);
int pe__check_base(double base);

/* RoPE argument checks shared by rope.c and rope_shift.c (docs/ERRORS.md
 * ROPE-*): threads and store policy; an (in, out) pair of rotatable views
 * of one shape, rotary_dim within head_dim, in place only as the same
 * view. */
int pe__rope_check_options(const pe_rope_options *o);
/* options (NULL: the defaults) read by the struct_size rule (struct_size.h)
 * into *out, then checked: what every call taking pe_rope_options uses. */
int pe__rope_options_resolve(const pe_rope_options *given, pe_rope_options *out);
int pe__rope_check_pair(const pe_freqs *freqs, const pe_tensor *in, const pe_tensor *out,
                        const char *in_name, const char *out_name);

/* Validate a tensor view: non-null data, known dtype, non-negative sizes,
 * strides that keep rows from overlapping within one token, and an extent
 * that fits in size_t. */
int pe__check_tensor(const pe_tensor *t, const char *name);

/* Largest byte extent of a view: far beyond any memory, and small enough
 * that overlap.c can add a few offsets in int64. */
#define PE__MAX_EXTENT ((uint64_t)1 << 61)

/* Overlap (overlap.c, docs/RELIABILITY.md ## Overlap). Views must have
 * passed pe__check_tensor. */
typedef struct {
    uintptr_t lo, hi; /* [lo, hi) */
} pe__span;
/* The bytes from a view's first element to one past its last. */
pe__span pe__view_span(const pe_tensor *t);
bool pe__spans_meet(pe__span a, pe__span b);
/* Same data, dtype, shape and (where an axis has more than one entry)
 * strides: an in-place pair. */
bool pe__same_view(const pe_tensor *a, const pe_tensor *b);
/* Every field equal (or the same pointer; NULL only as the same pointer):
 * a view that passed pe__check_tensor vouches for the other. Stricter than
 * pe__same_view, which ignores the stride of an axis of length <= 1 (one
 * the checks still refuse when negative). */
bool pe__identical_view(const pe_tensor *a, const pe_tensor *b);
/* Do some row of a and some row of b share a byte? */
bool pe__views_meet(const pe_tensor *a, const pe_tensor *b);
/* PE_ERR_SHAPE "<out> overlaps <other>: only the same view (in place) may
 * share memory" unless the views are disjoint (or the same view, when
 * may_be_same). */
int pe__check_apart(const pe_tensor *out, const char *out_name, const pe_tensor *other,
                    const char *other_name, bool may_be_same);
/* The same for plain byte ranges (NULL or empty ranges never meet). */
int pe__check_bytes_apart(const void *out, size_t out_bytes, const char *out_name,
                          const void *other, size_t other_bytes, const char *other_name);
/* A plain array a call reads or writes: data[0, bytes) (NULL or 0 bytes:
 * absent, meets nothing). */
typedef struct {
    const void *data;
    size_t bytes;
    const char *name;
} pe__region;
/* The rule for calls whose arrays are plain: every output shares no byte
 * with any other output or any input (tables, lengths, weights, the
 * parameter struct itself). PE_ERR_SHAPE naming the first pair. */
int pe__check_regions_apart(const pe__region *outs, int n_out, const pe__region *ins, int n_in);
/* PE_ERR_SHAPE "rows of <name> overlap: ..." when two (token, head) rows of
 * one view share a byte. Called by pe__check_tensor. */
int pe__check_rows_disjoint(const pe_tensor *t, const char *name);

#endif /* PE_INTERNAL_H */
