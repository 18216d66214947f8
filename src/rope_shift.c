/*
 * rope_shift.c — key re-rotation (issue 15, item 4): cached keys rotated at
 * position p become keys rotated at p + delta in one pass.
 *
 * Why this is one rotation: R(p + d) = R(d) R(p) for each pair, so a
 * shifted key is the cached key rotated by the angle d * w alone. That
 * angle goes through the same exact path as a rotation's p * w
 * (pe__rope_prepare: double-double product, reduction modulo 2 pi), with
 * magnitude 1 since the keys already carry A. An inverse rotation followed
 * by a forward one would round twice and pass over memory twice.
 *
 * Re-basing (pe_rope_rebase) is the same pass with a per-token angle
 * p w_new - p w_old formed as one double-double before its reduction
 * (angle.h, pe__reduced_angle_diff), cos/sin from libm in double, and the
 * magnitude A_new / A_old.
 *
 * This file only validates the arguments and describes the angles: both
 * calls are angle sources of the one rotation driver (rope_driver.c,
 * PE__ANGLES_SHIFT and PE__ANGLES_REBASE; shift_token and rebase_token
 * there), which owns the pass — threads, scratch, store policy, f16/bf16
 * rows through the kernel set's rope_token, and the stepping of
 * consecutive deltas — as for every other rotation.
 */
#include "rope_driver.h"

/* The one pass: the driver (rope_driver.c) reads the shift as an angle
 * source, forward, one tensor. */
static int shift_drive(const pe__angles *a, pe_rope_layout layout, const pe_tensor *in,
                       const pe_tensor *out, const pe_rope_options *options) {
    const pe_tensor *const ins[1] = {in}, *const outs[1] = {out};
    return pe__rope_drive(a, a->freqs->rotary_dim, layout, PE_ROPE_FORWARD, 1, ins, outs, options);
}

int pe_rope_shift(const pe_freqs *freqs, pe_rope_layout layout, const int64_t *deltas,
                  int64_t delta, const pe_tensor *in, const pe_tensor *out,
                  const pe_rope_options *options) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    pe_rope_options resolved;
    PE_TRY(pe__rope_options_resolve(options, &resolved));
    options = &resolved;
    PE_TRY(pe__rope_check_pair(freqs, in, out, "in", "out"));
    if (deltas != NULL && delta != 0)
        return pe__fail(PE_ERR_PARAM,
                        "delta=%lld must be 0 when per-token deltas are given",
                        (long long)delta);
    if (deltas != NULL && in->tokens > 0) {
        const pe__span o = pe__view_span(out);
        PE_TRY(pe__check_bytes_apart((const void *)o.lo, o.hi - o.lo, "out", deltas,
                                     (size_t)in->tokens * sizeof(int64_t), "deltas"));
    }
    pe__angles a;
    a.kind = PE__ANGLES_SHIFT;
    a.freqs = freqs;
    a.positions = NULL;
    a.shift = (pe__shift_source){deltas, delta, NULL};
    return shift_drive(&a, layout, in, out, options);
}

int pe_rope_rebase(const pe_freqs *old_freqs, const pe_freqs *new_freqs, pe_rope_layout layout,
                   const pe_positions *positions, const pe_tensor *in, const pe_tensor *out,
                   const pe_rope_options *options) {
    PE_TRY(pe_freqs_validate(old_freqs));
    PE_TRY(pe_freqs_validate(new_freqs));
    if (old_freqs->rotary_dim != new_freqs->rotary_dim)
        return pe__fail(PE_ERR_DIM, "new_freqs rotary_dim=%lld differs from old_freqs rotary_dim=%lld",
                        (long long)new_freqs->rotary_dim, (long long)old_freqs->rotary_dim);
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    pe_rope_options resolved;
    PE_TRY(pe__rope_options_resolve(options, &resolved));
    options = &resolved;
    PE_TRY(pe__rope_check_pair(new_freqs, in, out, "in", "out"));
    PE_TRY(pe__check_positions(positions, in->tokens));
    /* ids, or a packed batch's cu_seqlens and seq_starts (read while rows are written) */
    PE_TRY(pe__rope_check_positions_apart(positions, in->tokens, out, "out"));
    pe__angles a;
    a.kind = PE__ANGLES_REBASE;
    a.freqs = new_freqs;
    a.positions = positions;
    a.shift = (pe__shift_source){NULL, 0, old_freqs};
    return shift_drive(&a, layout, in, out, options);
}
