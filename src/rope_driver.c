/*
 * rope_driver.c — the one rotation driver (issue 15 item 1). Every
 * rotation — RoPE at positions of any kind (a range, a list, packed
 * sequences), M-RoPE (three positions and a section map), a caller's
 * cos/sin table, and the re-rotation of cached keys (pe_rope_shift by
 * per-token or constant deltas, pe_rope_rebase onto new frequencies) — is
 * a per-token angle source read here; threads, f16/bf16 storage, q and k
 * together, store policy and the stepping of consecutive positions are
 * this file's, once, for all of them. What differs between sources lives
 * in one small function per source (mrope_token, table_row, shift_token,
 * rebase_token) and in the per-source sizes below (scratch, trigonometry
 * traffic, magnitude).
 *
 * Shape of the work: each token's trigonometry is prepared once into a
 * small per-thread scratch (pe__rope_trig) and every head of the token (of
 * q and of k) streams through the kernel set's rope_token. Tokens are split
 * into chunks of whole restart intervals (PE__ROPE_RESTART), and every
 * source starts afresh at each restart point, so the result of a token
 * depends only on tokens of its own interval: bit-identical whatever the
 * number of threads.
 */
#include "rope_driver.h"
#include "kernels/pass_through.h"
#include "rope_threads.h"
#include "positions.h"
#include "kernels/angle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of a validated view's elements: its rows do not overlap (overlap.c)
 * and its extent fits (common.c), so the product cannot wrap. */
static size_t tensor_bytes(const pe_tensor *t) {
    return (size_t)t->tokens * (size_t)t->heads * (size_t)t->head_dim *
           pe__dtype_size(t->dtype);
}

/* Everything a part of a rotation needs; read-only while parts run. */
typedef struct {
    const pe_kernel_table *k;
    const pe__angles *a;
    int64_t half;
    int n;                        /* tensors: 1 (x) or 2 (q, k) */
    const pe_tensor *in[2], *out[2];
    pe__rope_rows rows[2];        /* per-token template: pointers at token 0 */
    double magnitude;
    pe_rope_layout layout;
    int negate_sin;
    unsigned char *scratch;       /* parts * part_bytes */
    size_t part_bytes;
} rope_job;

/* Doubles of scratch a source needs past the trig (c, s, c1, s1 and tab). */
static size_t extra_doubles(pe__angle_kind kind, int64_t half) {
    if (kind == PE__ANGLES_MROPE) return 4 * (size_t)half; /* cg sg (gathered), c1 s1 (slot order) */
    if (kind == PE__ANGLES_TABLE) return 2 * (size_t)half;
    return 0;
}

/* The magnitude A a source's rotation carries: the frequencies' attention
 * factor; 1 for a caller's table and for a shift (cached keys already
 * carry A); A_new / A_old for a rebase (both validated in [1e-9, 1e9], so
 * the ratio is finite). */
static double source_amplitude(const pe__angles *a) {
    if (a->kind == PE__ANGLES_SHIFT || a->freqs == NULL) return 1.0;
    if (a->kind == PE__ANGLES_REBASE)
        return a->freqs->attention_factor / a->shift.old->attention_factor;
    return a->freqs->attention_factor;
}

/* Bytes of traffic a token's trigonometry costs, for the thread count:
 * about as much as moving 8 bytes per pair when every token has its own
 * angles; nothing for one constant shift, prepared once per chunk. */
static double trig_bytes(const pe__angles *a, int64_t half) {
    if (a->kind == PE__ANGLES_SHIFT && a->shift.deltas == NULL) return 0.0;
    return 8.0 * (double)half;
}

/* State of a chunk's M-RoPE source between tokens. */
typedef struct {
    double *cg, *sg;   /* gathered cos/sin of a fresh evaluation */
    double *c1, *s1;   /* cos, sin of one position, slot order (once per chunk) */
    int64_t at[3];     /* the position of each axis that trig->c, s hold */
    int valid;         /* trig->c, s hold slot-order cos/sin at `at` (vector sets) */
    int prev_text;     /* the previous token was a text token (t = h = w) */
    int step_ready;    /* c1, s1 computed */
    int pattern;       /* axes whose step trig->c1, s1 hold (bit a: axis a); 0: none */
} mrope_state;

/*
 * One M-RoPE token. Text tokens (t = h = w) take plain RoPE's path, so a
 * run of them is plain RoPE bit for bit. Other tokens, on a set that steps
 * (the vector sets), after a token in the same restart interval: when each
 * axis either holds the previous token's position or advanced by one (t
 * and h along an image row, w stepping), the kernel's own step runs with a
 * per-slot step of one position on the advancing axes and of zero (cos 1,
 * sin 0: exact) on the others, the fused path plain RoPE's consecutive
 * positions take; when no axis moved, the tables stand. Otherwise each
 * axis group is evaluated exactly (cos_sin over its gathered slots) and
 * scattered to slot order, then rope_prepare_cs. The reference set never
 * steps: its cos/sin stay exact.
 */
static void mrope_token(const rope_job *j, mrope_state *st, pe__rope_trig *trig, int64_t t,
                        int restart) {
    const pe__mrope_source *m = &j->a->mrope;
    const pe_freqs *f = j->a->freqs;
    const int64_t *p = m->pos3 + 3 * t, half = j->half;
    if (p[0] == p[1] && p[1] == p[2]) {
        if (st->pattern != 0 && st->pattern != 7) trig->step_ready = 0; /* c1 holds a partial step */
        trig->follows = !restart && st->prev_text;
        pe__rope_prepare(j->k, p[0], f->inv_freq, f->inv_freq_lo, half, j->layout,
                         j->negate_sin, trig);
        if (trig->step_ready) st->pattern = 7;
        st->prev_text = 1;
        st->valid = j->k->steps; /* vector sets keep c, s of p (pe__rope_prepare) */
        st->at[0] = st->at[1] = st->at[2] = p[0];
        return;
    }
    st->prev_text = 0;
    if (!restart && st->valid) {
        int pattern = 0, stepable = 1;
        for (int ax = 0; ax < 3; ax++) {
            if (m->n[ax] == 0 || p[ax] == st->at[ax]) continue;
            if (p[ax] != INT64_MIN && p[ax] - 1 == st->at[ax])
                pattern |= 1 << ax;
            else
                stepable = 0;
        }
        if (stepable) {
            for (int ax = 0; ax < 3; ax++) st->at[ax] = p[ax];
            if (pattern == 0) return; /* the same angles: the tables stand */
            if (pattern != st->pattern) {
                if (!st->step_ready) {
                    j->k->cos_sin(1, f->inv_freq, f->inv_freq_lo, half, st->c1, st->s1);
                    st->step_ready = 1;
                }
                for (int64_t i = 0; i < half; i++) {
                    const int on = (pattern >> m->axis[i]) & 1;
                    trig->c1[i] = on ? st->c1[i] : 1.0;
                    trig->s1[i] = on ? st->s1[i] : 0.0;
                }
                st->pattern = pattern;
                trig->step_ready = pattern == 7; /* full step: what text tokens use */
            }
            (void)j->k->rope_tables(1, p[0], f->inv_freq, f->inv_freq_lo, half, j->layout,
                                   j->negate_sin, trig);
            return;
        }
    }
    for (int ax = 0; ax < 3; ax++) {
        const int64_t b = m->start[ax];
        if (m->n[ax] > 0)
            j->k->cos_sin(p[ax], m->w + b, m->w_lo + b, m->n[ax], st->cg + b, st->sg + b);
        st->at[ax] = p[ax];
    }
    for (int64_t g = 0; g < half; g++) { /* slot order, where the kernels keep them */
        const int64_t slot = m->slot ? m->slot[g] : g;
        trig->c[slot] = st->cg[g];
        trig->s[slot] = st->sg[g];
    }
    j->k->rope_prepare_cs(trig->c, trig->s, half, j->layout, j->negate_sin, trig);
    st->valid = j->k->steps;
}

/* One table row widened to double. */
static void table_row(const pe__table_source *tb, int64_t row, int64_t half, double *c,
                      double *s) {
    const size_t base = (size_t)row * (size_t)tb->row_stride, step = (size_t)tb->pair_step;
    switch (tb->dtype) {
    case PE_F32: {
        const float *pc = (const float *)tb->cos + base, *ps = (const float *)tb->sin + base;
        for (int64_t i = 0; i < half; i++) {
            c[i] = pc[(size_t)i * step];
            s[i] = ps[(size_t)i * step];
        }
        break;
    }
    case PE_F64: {
        const double *pc = (const double *)tb->cos + base, *ps = (const double *)tb->sin + base;
        for (int64_t i = 0; i < half; i++) {
            c[i] = pc[(size_t)i * step];
            s[i] = ps[(size_t)i * step];
        }
        break;
    }
    default: { /* PE_F16, PE_BF16 */
        const uint16_t *pc = (const uint16_t *)tb->cos + base,
                       *ps = (const uint16_t *)tb->sin + base;
        const int bf = tb->dtype == PE_BF16;
        for (int64_t i = 0; i < half; i++) {
            const uint16_t hc = pc[(size_t)i * step], hs = ps[(size_t)i * step];
            c[i] = bf ? pe__bf16_to_f32(hc) : pe__f16_to_f32(hc);
            s[i] = bf ? pe__bf16_to_f32(hs) : pe__f16_to_f32(hs);
        }
        break;
    }
    }
}

/*
 * One token of a shift: delta_t * w through the exact path of a rotation's
 * p * w (pe__rope_prepare), so per-token deltas that go up by one are
 * stepped as consecutive positions are (follows cleared at restart
 * points, as for PE__ANGLES_POSITIONS; repeated or jumping deltas are
 * evaluated afresh). One constant delta is one angle set for the whole
 * chunk, prepared fresh at its first token and never stepped (the same
 * delta again is not "the next position").
 */
static void shift_token(const rope_job *j, pe__rope_trig *trig, int64_t t, int first,
                        int restart) {
    const pe__shift_source *sh = &j->a->shift;
    if (sh->deltas == NULL && !first) return; /* the chunk's angles stand */
    const pe_freqs *f = j->a->freqs;
    trig->follows = sh->deltas != NULL && !restart;
    pe__rope_prepare(j->k, sh->deltas ? sh->deltas[t] : sh->delta, f->inv_freq, f->inv_freq_lo,
                     j->half, j->layout, j->negate_sin, trig);
}

/* One token of a rebase at position p: each pair's p w_new - p w_old
 * formed as one double-double and reduced once (pe__reduced_angle_diff),
 * cos/sin from libm in double, never stepped. */
static void rebase_token(const rope_job *j, pe__rope_trig *trig, int64_t p) {
    const pe_freqs *n = j->a->freqs, *o = j->a->shift.old;
    for (int64_t i = 0; i < j->half; i++) {
        const double r = pe__reduced_angle_diff(p, n->inv_freq[i], n->inv_freq_lo[i],
                                                o->inv_freq[i], o->inv_freq_lo[i]);
        trig->c[i] = cos(r);
        trig->s[i] = sin(r);
    }
    j->k->rope_prepare_cs(trig->c, trig->s, j->half, j->layout, j->negate_sin, trig);
}

/* Tokens [t0, t1) on one worker. */
static void rope_chunk(void *ctx, int worker, int64_t t0, int64_t t1) {
    const rope_job *j = ctx;
    const int64_t half = j->half;
    double *c = (double *)(void *)(j->scratch + (size_t)worker * j->part_bytes);
    pe__rope_trig trig = {c, c + half, c + 2 * half, c + 3 * half,
                          (float *)(void *)(c + 4 * half), j->magnitude, 0, 0, 0};
    /* past the trig: 4 half doubles, then tab (2 d floats = 2 half doubles) */
    double *extra = c + 6 * half;
    const pe__angles *a = j->a;
    pe__pos_cursor cur;
    if (a->positions != NULL) pe__pos_cursor_init(&cur, a->positions, t0);
    mrope_state ms = {extra, extra + half, extra + 2 * half, extra + 3 * half, {0, 0, 0},
                      0, 0, 0, 0};
    int64_t last_row = -1;
    for (int64_t t = t0; t < t1; t++) {
        const int restart = t == t0 || t % PE__ROPE_RESTART == 0;
        switch (a->kind) {
        case PE__ANGLES_POSITIONS:
            trig.follows = !restart;
            pe__rope_prepare(j->k, pe__pos_cursor_at(&cur, t), a->freqs->inv_freq,
                             a->freqs->inv_freq_lo, half, j->layout, j->negate_sin, &trig);
            break;
        case PE__ANGLES_MROPE:
            mrope_token(j, &ms, &trig, t, restart);
            break;
        case PE__ANGLES_TABLE: {
            /* the same row again (a repeated position) gives the same trig */
            const int64_t row = pe__pos_cursor_at(&cur, t);
            if (row != last_row) {
                const pe__table_source *tb = &a->table;
                if (tb->dtype == PE_F32 && tb->pair_step == 1) { /* straight from the row */
                    const size_t at = (size_t)row * (size_t)tb->row_stride;
                    j->k->rope_prepare_cs_f32((const float *)tb->cos + at,
                                              (const float *)tb->sin + at, half, j->layout,
                                              j->negate_sin, &trig);
                } else {
                    table_row(tb, row, half, extra, extra + half);
                    j->k->rope_prepare_cs(extra, extra + half, half, j->layout, j->negate_sin,
                                          &trig);
                }
                last_row = row;
            }
            break;
        }
        case PE__ANGLES_SHIFT:
            shift_token(j, &trig, t, t == t0, restart);
            break;
        case PE__ANGLES_REBASE:
            rebase_token(j, &trig, pe__pos_cursor_at(&cur, t));
            break;
        }
        for (int x = 0; x < j->n; x++) {
            pe__rope_rows r = j->rows[x];
            const size_t esz = pe__dtype_size(r.dtype);
            r.in = (const char *)r.in + (size_t)(t * j->in[x]->token_stride) * esz;
            r.out = (char *)r.out + (size_t)(t * j->out[x]->token_stride) * esz;
            j->k->rope_token(&r, &trig);
            pe__rope_pass_through(&r);
        }
    }
}

int pe__rope_drive(const pe__angles *a, int64_t rotary_dim, pe_rope_layout layout,
                   pe_rope_direction direction, int n, const pe_tensor *const *in,
                   const pe_tensor *const *out, const pe_rope_options *o) {
    rope_job j; /* every field used is set below (no memset: decode steps
                 * are short enough for a 256-byte clear to show) */
    j.k = pe__kernels(); /* one set for the whole call */
    j.a = a;
    j.half = rotary_dim / 2;
    j.n = 0;
    const int64_t tokens = in[0]->tokens;
    double traffic = 0;
    for (int x = 0; x < n; x++) {
        if (in[x]->heads == 0 || in[x]->head_dim == 0) continue; /* nothing to do */
        const bool in_place = in[x]->data == out[x]->data;
        const size_t bytes = tensor_bytes(out[x]);
        const int stream = !in_place && pe__streams(o->stores, bytes);
        j.in[j.n] = in[x];
        j.out[j.n] = out[x];
        j.rows[j.n] = (pe__rope_rows){in[x]->data,       out[x]->data,
                                      in[x]->heads,      in[x]->head_stride,
                                      out[x]->head_stride, rotary_dim,
                                      in[x]->head_dim,   layout,
                                      in[x]->dtype,      stream,
                                      bytes >= PE__PREFETCH_MIN_BYTES && pe__kernels_prefetch_rows()};
        traffic += 2.0 * (double)bytes;
        j.n++;
    }
    if (tokens == 0 || j.n == 0) return PE_OK;
    const double amp = source_amplitude(a);
    j.magnitude = direction == PE_ROPE_INVERSE ? 1.0 / amp : amp;
    j.negate_sin = direction != PE_ROPE_FORWARD;
    j.layout = layout;
    const int64_t half = j.half;
    traffic += trig_bytes(a, half) * (double)tokens;
    const int parts = pe__threads_for(o, traffic, tokens);
    /* trig (4 half doubles), tab (PE__ROPE_TAB_FLOATS(d) = 2 d floats, as
     * many bytes as 2 half doubles... rounded to them), the source's extra */
    j.part_bytes = sizeof(double) * (6 * (size_t)half + extra_doubles(a->kind, half));
    /* Small single-part calls (decode steps) use the stack: no allocator
     * on the path of a call that rotates a few KiB. */
    double stack[1024];
    const bool small = parts == 1 && j.part_bytes <= sizeof stack;
    if (small)
        j.scratch = (unsigned char *)stack;
    else
        PE_TRY(pe__alloc("cos/sin scratch", parts, 1, j.part_bytes, &j.scratch));
    const int64_t chunk = pe__token_chunk(parts, tokens, traffic);
    pe__parallel_chunks(o, parts, tokens, chunk, rope_chunk, &j);
    if (!small) free(j.scratch);
    return PE_OK;
}

/* Round-to-odd narrowing of a double to float: exact values stay; an
 * inexact one becomes the neighbour (of the two floats around it) with an
 * odd last bit. A second rounding of that float to a format with at least
 * two bits fewer (f16: 11, bf16: 8 of f32's 24) is then the correct
 * rounding of the double itself. */
static float to_odd_f32(double v) {
    float f = (float)v;
    if ((double)f == v || v != v) return f;
    if (fabs((double)f) > fabs(v)) f = nextafterf(f, 0.0f); /* truncate */
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bits |= 1u;
    memcpy(&f, &bits, sizeof f);
    return f;
}

void pe__store_entries(const double *v, int64_t n, void *dst, pe_dtype dtype) {
    switch (dtype) {
    case PE_F32:
        for (int64_t i = 0; i < n; i++) ((float *)dst)[i] = (float)v[i];
        break;
    case PE_F64:
        memcpy(dst, v, (size_t)n * sizeof(double));
        break;
    case PE_F16:
        for (int64_t i = 0; i < n; i++) ((uint16_t *)dst)[i] = pe__f32_to_f16(to_odd_f32(v[i]));
        break;
    case PE_BF16:
        for (int64_t i = 0; i < n; i++) ((uint16_t *)dst)[i] = pe__f32_to_bf16(to_odd_f32(v[i]));
        break;
    default:
        break;
    }
}
