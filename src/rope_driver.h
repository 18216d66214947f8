/*
 * rope_driver.h — the one rotation driver (rope_driver.c) and the angle
 * sources it reads: every rotation call (RoPE at positions of any kind,
 * M-RoPE, a caller's cos/sin table, the re-rotation of cached keys by a
 * delta or onto new frequencies) validates its arguments, describes
 * where a token's angles come from, and hands the views to
 * pe__rope_drive, which owns threads, scratch, store policy and the
 * stepping of consecutive positions. A new feature of the driver (a
 * storage type, an epilogue) therefore reaches every source at once.
 */
#ifndef PE_ROPE_DRIVER_H
#define PE_ROPE_DRIVER_H

#include "internal.h"

/* Non-temporal stores pay off only for outputs much larger than the caches
 * that nobody reads right away; 16 MiB is past the L2 of any current core
 * and a large share of a typical L3. */
#define PE__STREAM_MIN_BYTES ((size_t)16 << 20)

/* Below this a tensor stays in L2 and prefetching ahead only costs. */
#define PE__PREFETCH_MIN_BYTES ((size_t)1 << 20)

/* Whether an output view of `bytes` is written with non-temporal stores
 * under a validated policy (the rotation's and the fused call's rule). */
static inline int pe__streams(pe_store_policy stores, size_t bytes) {
    return stores == PE_STORES_STREAMING ||
           (stores == PE_STORES_AUTO && bytes >= PE__STREAM_MIN_BYTES);
}

typedef enum {
    PE__ANGLES_POSITIONS = 0, /* p_t * w_i: pe_positions of any kind */
    PE__ANGLES_MROPE = 1,     /* p_t[axis_i] * w_i: three positions, a section map */
    PE__ANGLES_TABLE = 2,     /* entries of a caller's table, row positions[t] */
    PE__ANGLES_SHIFT = 3,     /* delta_t * w_i: per-token deltas or one delta; A = 1 */
    PE__ANGLES_REBASE = 4     /* p_t w_new,i - p_t w_old,i; A = A_new / A_old */
} pe__angle_kind;

/* M-RoPE's section map (rope_mrope.c): the slots of axis a gathered at
 * [start[a], start[a] + n[a]), slot[g] the slot at gathered place g
 * (NULL when gathering is the identity, as for blocked sections). */
typedef struct {
    const int64_t *pos3; /* (tokens, 3) {t, h, w} */
    int64_t start[3], n[3];
    const int64_t *slot;
    const double *w, *w_lo;     /* (d/2,) frequencies in gathered order */
    const unsigned char *axis;  /* (d/2,) the axis of each slot, slot order */
} pe__mrope_source;

/* A caller's table (rope_table.c validated it and the rows asked for). */
typedef struct {
    const void *cos, *sin;
    pe_dtype dtype;     /* f32, f64, f16, bf16 */
    int64_t row_stride; /* elements between rows */
    int64_t pair_step;  /* elements between the entries of pairs i and i + 1 */
} pe__table_source;

/* Key re-rotation (rope_shift.c validated it). SHIFT: token t turns by
 * deltas[t] positions, or every token by delta when deltas is NULL (one
 * angle set for all tokens, never stepped). REBASE: freqs are the new
 * frequencies, old the keys' own, positions where the keys sit. Both
 * leave A alone (the keys carry it): magnitude 1, or A_new / A_old. */
typedef struct {
    const int64_t *deltas; /* SHIFT: (tokens,) or NULL */
    int64_t delta;         /* SHIFT: when deltas is NULL */
    const pe_freqs *old;   /* REBASE */
} pe__shift_source;

typedef struct {
    pe__angle_kind kind;
    const pe_freqs *freqs;         /* POSITIONS, MROPE, SHIFT, REBASE (new);
                                    * NULL for TABLE (A = 1) */
    const pe_positions *positions; /* POSITIONS, REBASE; TABLE: the row of each token */
    pe__mrope_source mrope;
    pe__table_source table;
    pe__shift_source shift;
} pe__angles;

/* Rotate n validated (in, out) pairs (same tokens, rotary_dim <= head_dim,
 * overlap rules checked) with the angles of `a`: the rotation of every
 * pe_rope_apply*, pe_mrope_apply*, pe_rope_apply_table*, pe_rope_shift and
 * pe_rope_rebase call (the last two PE_ROPE_FORWARD). Options
 * validated. PE_OK, or PE_ERR_NOMEM for the per-thread scratch. */
int pe__rope_drive(const pe__angles *a, int64_t rotary_dim, pe_rope_layout layout,
                   pe_rope_direction direction, int n, const pe_tensor *const *in,
                   const pe_tensor *const *out, const pe_rope_options *o);

/* Argument checks the rotation calls share (rope.c; docs/ERRORS.md ROPE-*):
 * a direction; freqs, layout, direction and options (NULL options: the
 * defaults, through *defaults); an (in, out) pair for rotary dim d; q and k
 * pairs (each a pair, same tokens and head_dim, outputs apart from the
 * other pair); positions arrays apart from an output view. */
int pe__rope_check_direction(pe_rope_direction direction);
int pe__rope_common_checks(const pe_freqs *freqs, pe_rope_layout layout,
                           pe_rope_direction direction, const pe_rope_options **options,
                           pe_rope_options *defaults);
int pe__rope_check_pair_d(int64_t rotary_dim, const pe_tensor *in, const pe_tensor *out,
                          const char *in_name, const char *out_name);
int pe__rope_check_qk(int64_t rotary_dim, const pe_tensor *q_in, const pe_tensor *q_out,
                      const pe_tensor *k_in, const pe_tensor *k_out);
int pe__rope_check_positions_apart(const pe_positions *positions, int64_t tokens,
                                   const pe_tensor *out, const char *out_name);

/* Store n doubles as dtype (f32, f64, f16, bf16), each correctly rounded
 * from the double (16-bit types through round-to-odd f32, so there is one
 * rounding): the cos/sin caches' writer. */
void pe__store_entries(const double *v, int64_t n, void *dst, pe_dtype dtype);

#endif /* PE_ROPE_DRIVER_H */
