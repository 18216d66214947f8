/*
 * rope_shift.c — key re-rotation (issue 15, item 4): cached keys rotated at
 * position p become keys rotated at p + delta in one pass.
 *
 * Why this is one rotation: R(p + d) = R(d) R(p) for each pair, so a
 * shifted key is the cached key rotated by the angle d * w alone. That
 * angle goes through the same exact path as a rotation's p * w
 * (pe__rope_prepare: double-double product, reduction modulo 2 pi), with
 * magnitude 1 since the keys already carry A, and the rows stream through
 * the active kernel set's rope_token, so every vector set, 16-bit storage
 * and the threading of rope.c apply unchanged. An inverse rotation followed
 * by a forward one would round twice and pass over memory twice.
 *
 * Re-basing (pe_rope_rebase) is the same pass with a per-token angle
 * p w_new - p w_old formed as one double-double before its reduction
 * (angle.h, pe__reduced_angle_diff), cos/sin from libm in double, and the
 * magnitude A_new / A_old; the rows again go through rope_token.
 */
#include "internal.h"
#include "kernels/pass_through.h"
#include "rope_threads.h"
#include "positions.h"
#include "kernels/angle.h"

#include <math.h>
#include <stdlib.h>

/* Everything one part of a shift needs; read-only while parts run. */
typedef struct {
    const pe_kernel_table *k;
    const pe_freqs *freqs;
    const pe_freqs *old_freqs;     /* rebase: the keys' frequencies; NULL: a shift */
    const pe_positions *positions; /* rebase: the keys' positions */
    double magnitude;              /* 1 (shift) or A_new / A_old (rebase) */
    const int64_t *deltas; /* NULL: every token by delta */
    int64_t delta;
    const pe_tensor *in, *out;
    pe__rope_rows rows; /* pointers at token 0 */
    pe_rope_layout layout;
    unsigned char *scratch; /* parts * part_bytes */
    size_t part_bytes;
} shift_job;

/* Tokens [t0, t1) on one worker. A constant delta is one angle set for
 * the whole chunk (prepared once); per-token deltas are prepared per
 * token, stepped between consecutive deltas as rope.c steps consecutive
 * positions (fresh every PE__ROPE_RESTART tokens at fixed indices, so the
 * split between threads does not change a bit). */
static void shift_chunk(void *ctx, int worker, int64_t t0, int64_t t1) {
    const shift_job *j = ctx;
    const int64_t half = j->freqs->rotary_dim / 2;
    double *c = (double *)(void *)(j->scratch + (size_t)worker * j->part_bytes);
    pe__rope_trig trig = {c, c + half, c + 2 * half, c + 3 * half,
                          (float *)(void *)(c + 4 * half), j->magnitude, 0, 0, 0};
    const size_t esz = pe__dtype_size(j->rows.dtype);
    for (int64_t t = t0; t < t1; t++) {
        if (j->old_freqs != NULL) {
            const int64_t p = pe__position_at(j->positions, t);
            const pe_freqs *n = j->freqs, *o = j->old_freqs;
            for (int64_t i = 0; i < half; i++) {
                const double r = pe__reduced_angle_diff(p, n->inv_freq[i], n->inv_freq_lo[i],
                                                        o->inv_freq[i], o->inv_freq_lo[i]);
                trig.c[i] = cos(r);
                trig.s[i] = sin(r);
            }
            j->k->rope_prepare_cs(trig.c, trig.s, half, j->layout, 0, &trig);
        } else if (j->deltas != NULL || t == t0) {
            trig.follows = j->deltas != NULL && t > t0 && t % PE__ROPE_RESTART != 0;
            pe__rope_prepare(j->k, j->deltas ? j->deltas[t] : j->delta, j->freqs->inv_freq,
                             j->freqs->inv_freq_lo, half, j->layout, 0, &trig);
        }
        pe__rope_rows r = j->rows;
        r.in = (const char *)r.in + (size_t)(t * j->in->token_stride) * esz;
        r.out = (char *)r.out + (size_t)(t * j->out->token_stride) * esz;
        j->k->rope_token(&r, &trig);
        pe__rope_pass_through(&r);
    }
}

/* Bytes of a validated view's elements (rows disjoint, extent fits). */
static size_t view_bytes(const pe_tensor *t) {
    return (size_t)t->tokens * (size_t)t->heads * (size_t)t->head_dim *
           pe__dtype_size(t->dtype);
}

/* One pass after validation: a shift (old == NULL) or a rebase. */
static int shift_run(const pe_freqs *freqs, const pe_freqs *old, const pe_positions *positions,
                     double magnitude, pe_rope_layout layout, const int64_t *deltas,
                     int64_t delta, const pe_tensor *in, const pe_tensor *out,
                     const pe_rope_options *options) {
    if (in->tokens == 0 || in->heads == 0 || in->head_dim == 0) return PE_OK;
    shift_job j;
    j.k = pe__kernels(); /* one set for the whole call */
    j.freqs = freqs;
    j.old_freqs = old;
    j.positions = positions;
    j.magnitude = magnitude;
    j.deltas = deltas;
    j.delta = delta;
    j.in = in;
    j.out = out;
    j.layout = layout;
    const bool in_place = in->data == out->data;
    const size_t bytes = view_bytes(out);
    const int stream = !in_place && (options->stores == PE_STORES_STREAMING ||
                                     (options->stores == PE_STORES_AUTO &&
                                      bytes >= ((size_t)16 << 20)));
    j.rows = (pe__rope_rows){in->data,         out->data,        in->heads,
                             in->head_stride,  out->head_stride, freqs->rotary_dim,
                             in->head_dim,     layout,           in->dtype,
                             stream,           bytes >= ((size_t)1 << 20)};
    const int64_t half = freqs->rotary_dim / 2;
    /* as rope.c: a token's trigonometry costs about 8 bytes of traffic per pair */
    const double traffic = 2.0 * (double)bytes +
                           (deltas || old ? 8.0 * (double)half * (double)in->tokens : 0.0);
    const int parts = pe__threads_for(options->threads, traffic, in->tokens);
    j.part_bytes = sizeof(double) * 4 * (size_t)half +
                   sizeof(float) * PE__ROPE_TAB_FLOATS(freqs->rotary_dim);
    PE_TRY(pe__alloc("cos/sin scratch", parts, 1, j.part_bytes, &j.scratch));
    /* whole restart intervals per chunk (results independent of the
     * split), about 128 KiB of rows each */
    int64_t chunk = in->tokens;
    if (parts > 1) {
        const double token_bytes = traffic / (double)in->tokens;
        chunk = PE__ROPE_RESTART;
        while (chunk < in->tokens && (double)chunk * token_bytes < 128.0 * 1024) chunk *= 2;
    }
    pe__parallel_chunks(parts, in->tokens, chunk, shift_chunk, &j);
    free(j.scratch);
    return PE_OK;
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
    return shift_run(freqs, NULL, NULL, 1.0, layout, deltas, delta, in, out, options);
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
    if (positions->ids != NULL && in->tokens > 0) {
        const pe__span o = pe__view_span(out);
        PE_TRY(pe__check_bytes_apart((const void *)o.lo, o.hi - o.lo, "out", positions->ids,
                                     (size_t)in->tokens * sizeof(int64_t), "positions"));
    }
    /* both factors are in [1e-9, 1e9] (validated): the ratio is finite */
    const double magnitude = new_freqs->attention_factor / old_freqs->attention_factor;
    return shift_run(new_freqs, old_freqs, positions, magnitude, layout, NULL, 0, in, out, options);
}
