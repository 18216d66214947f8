/*
 * rope_mrope.c — multi-axis RoPE (SPEC §2.3): each token carries three
 * positions (t, h, w) and every frequency slot takes its angle from one of
 * them, by a section list in the blocked (Qwen2-VL) or interleaved
 * (Qwen3-VL) assignment. The rotation itself is pe_rope_apply's: the same
 * kernels, the same views and directions; only the position feeding each
 * slot changes.
 */
#include "internal.h"

#include <stdlib.h>

/* Axis of slot j under a validated section list. */
static int slot_axis(int64_t j, const int64_t *s, pe_mrope_mode mode) {
    if (mode == PE_MROPE_BLOCKED) {
        if (j < s[0]) return PE_MROPE_AXIS_T;
        if (j < s[0] + s[1]) return PE_MROPE_AXIS_H;
        return PE_MROPE_AXIS_W;
    }
    /* Qwen3-VL: h and w take every third slot from 1 and from 2, as far as
     * their sections reach; t keeps the rest, including the tail. */
    if (j % 3 == 1 && j < 3 * s[1]) return PE_MROPE_AXIS_H;
    if (j % 3 == 2 && j < 3 * s[2]) return PE_MROPE_AXIS_W;
    return PE_MROPE_AXIS_T;
}

static int check_sections(int64_t half, const int64_t *sections,
                          pe_mrope_mode mode) {
    if (mode != PE_MROPE_BLOCKED && mode != PE_MROPE_INTERLEAVED)
        return pe__fail(PE_ERR_PARAM, "mode=%d is not an M-RoPE mode", (int)mode);
    PE_CHECK_NULL(sections);
    static const char *const names[3] = {"s_t", "s_h", "s_w"};
    for (int a = 0; a < 3; a++)
        if (sections[a] < 0 || sections[a] > half)
            return pe__fail(PE_ERR_PARAM,
                            "sections %s=%lld must be in [0, rotary_dim/2=%lld]",
                            names[a], (long long)sections[a], (long long)half);
    const int64_t sum = sections[0] + sections[1] + sections[2];
    if (sum != half)
        return pe__fail(PE_ERR_PARAM,
                        "sections {%lld, %lld, %lld} sum to %lld, not rotary_dim/2=%lld",
                        (long long)sections[0], (long long)sections[1],
                        (long long)sections[2], (long long)sum, (long long)half);
    if (mode == PE_MROPE_INTERLEAVED) {
        /* The rule only reaches slots below d/2: an h or w section longer
         * than a third of them would silently lose slots to t. */
        int64_t count[3] = {0, 0, 0};
        for (int64_t j = 0; j < half; j++) count[slot_axis(j, sections, mode)]++;
        for (int a = 1; a < 3; a++)
            if (count[a] != sections[a])
                return pe__fail(PE_ERR_PARAM,
                                "interleaved sections {%lld, %lld, %lld}: %s=%lld "
                                "gets only %lld of rotary_dim/2=%lld slots (needs "
                                "3 s_h <= d/2 + 1 and 3 s_w <= d/2)",
                                (long long)sections[0], (long long)sections[1],
                                (long long)sections[2], names[a],
                                (long long)sections[a], (long long)count[a],
                                (long long)half);
    }
    return PE_OK;
}

int pe_mrope_slot_axes(int64_t rotary_dim, const int64_t sections[3],
                       pe_mrope_mode mode, int *axes) {
    PE_TRY(pe__check_rotary_dim(rotary_dim));
    PE_TRY(check_sections(rotary_dim / 2, sections, mode));
    PE_CHECK_NULL(axes);
    for (int64_t j = 0; j < rotary_dim / 2; j++) axes[j] = slot_axis(j, sections, mode);
    return PE_OK;
}

/* (count, 3) positions: non-NULL when count > 0, size within size_t. */
static int check_positions3(const int64_t *positions, int64_t count) {
    size_t n;
    if (count < 0)
        return pe__fail(PE_ERR_SHAPE, "count=%lld must be >= 0", (long long)count);
    if (pe__bytes("positions", count, 3, sizeof(int64_t), &n) != PE_OK)
        return pe__fail(PE_ERR_OVERFLOW, "positions (%lld, 3) overflow size_t",
                        (long long)count);
    if (count > 0 && positions == NULL)
        return pe__fail(PE_ERR_NULL, "positions must not be NULL");
    return PE_OK;
}

/*
 * Per-call plan: the slots of each axis gathered into one contiguous group
 * (slot indices and their frequencies), so that a token needs one cos_sin
 * call per axis over exactly its slots, then a scatter back to slot order.
 */
typedef struct {
    int64_t half;
    int64_t start[3], n[3]; /* group of axis a: [start[a], start[a] + n[a]) */
    int64_t *slot;          /* (half,) slot index at each gathered place */
    double *w, *w_lo;       /* (half,) gathered frequencies */
    double *cg, *sg;        /* (half,) gathered cos/sin scratch */
    double *c, *s;          /* (half,) cos/sin in slot order */
    double *tc, *ts, *tc1, *ts1; /* (half,) and tab (2 d floats): the kernels' trig */
    float *tab;
} mrope_plan;

static int plan_make(const pe_freqs *f, const int64_t *sections,
                     pe_mrope_mode mode, mrope_plan *pl) {
    const int64_t half = f->rotary_dim / 2;
    /* 10 double arrays, the float tables (as many bytes as 2 more) and slot */
    double *buf;
    PE_TRY(pe__alloc("M-RoPE plan", half, 1, sizeof(double) * 12 + sizeof(int64_t), &buf));
    pl->half = half;
    pl->w = buf;
    pl->w_lo = buf + half;
    pl->cg = buf + 2 * half;
    pl->sg = buf + 3 * half;
    pl->c = buf + 4 * half;
    pl->s = buf + 5 * half;
    pl->tc = buf + 6 * half;
    pl->ts = buf + 7 * half;
    pl->tc1 = buf + 8 * half;
    pl->ts1 = buf + 9 * half;
    pl->tab = (float *)(void *)(buf + 10 * half);
    pl->slot = (int64_t *)(buf + 12 * half);
    int64_t at = 0;
    for (int a = 0; a < 3; a++) {
        pl->start[a] = at;
        for (int64_t j = 0; j < half; j++)
            if (slot_axis(j, sections, mode) == a) {
                pl->slot[at] = j;
                pl->w[at] = f->inv_freq[j];
                pl->w_lo[at] = f->inv_freq_lo[j];
                at++;
            }
        pl->n[a] = at - pl->start[a];
    }
    return PE_OK;
}

static void plan_free(mrope_plan *pl) { free(pl->w); }

/* cos/sin of every slot of a token at p = {t, h, w}, into pl->c, pl->s. */
static void plan_cos_sin(mrope_plan *pl, const pe_freqs *f, const int64_t *p,
                         const pe_kernel_table *k) {
    if (p[0] == p[1] && p[1] == p[2]) { /* a text token: pe_rope_cos_sin's call */
        k->cos_sin(p[0], f->inv_freq, f->inv_freq_lo, pl->half, pl->c, pl->s);
        return;
    }
    for (int a = 0; a < 3; a++)
        if (pl->n[a] > 0)
            k->cos_sin(p[a], pl->w + pl->start[a], pl->w_lo + pl->start[a],
                       pl->n[a], pl->cg + pl->start[a], pl->sg + pl->start[a]);
    for (int64_t g = 0; g < pl->half; g++) {
        pl->c[pl->slot[g]] = pl->cg[g];
        pl->s[pl->slot[g]] = pl->sg[g];
    }
}

int pe_mrope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                   const int64_t *positions, const int64_t sections[3],
                   pe_mrope_mode mode, const pe_tensor *in,
                   const pe_tensor *out, pe_rope_direction direction) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    PE_TRY(check_sections(freqs->rotary_dim / 2, sections, mode));
    PE_TRY(pe__check_tensor(in, "in"));
    PE_TRY(pe__check_tensor(out, "out"));
    if (direction != PE_ROPE_FORWARD && direction != PE_ROPE_INVERSE &&
        direction != PE_ROPE_BACKWARD)
        return pe__fail(PE_ERR_PARAM, "direction=%d is not a RoPE direction",
                        (int)direction);
    if (in->dtype != PE_F32 || out->dtype != PE_F32)
        return pe__fail(PE_ERR_DTYPE, "M-RoPE tensors must be f32 (in %s, out %s)",
                        pe_dtype_name(in->dtype), pe_dtype_name(out->dtype));
    if (in->tokens != out->tokens || in->heads != out->heads ||
        in->head_dim != out->head_dim)
        return pe__fail(PE_ERR_SHAPE,
                        "in (%lld, %lld, %lld) and out (%lld, %lld, %lld) differ",
                        (long long)in->tokens, (long long)in->heads,
                        (long long)in->head_dim, (long long)out->tokens,
                        (long long)out->heads, (long long)out->head_dim);
    PE_TRY(pe__check_rotary_within(freqs->rotary_dim, in->head_dim));
    PE_TRY(check_positions3(positions, in->tokens));
    /* in place only as the same view; positions are read while rows are
     * written (overlap.c) */
    if (out != in) PE_TRY(pe__check_apart(out, "out", in, "in", true));
    if (in->tokens > 0) {
        const pe__span o = pe__view_span(out);
        PE_TRY(pe__check_bytes_apart((const void *)o.lo, o.hi - o.lo, "out", positions,
                                     (size_t)in->tokens * 3 * sizeof(int64_t), "positions"));
    }
    if (in->tokens == 0 || in->heads == 0) return PE_OK;

    mrope_plan pl;
    PE_TRY(plan_make(freqs, sections, mode, &pl));
    double magnitude = freqs->attention_factor;
    if (direction == PE_ROPE_INVERSE) magnitude = 1.0 / magnitude;
    const pe_kernel_table *k = pe__kernels();
    pe__rope_trig trig = {pl.tc, pl.ts, pl.tc1, pl.ts1, pl.tab, magnitude, 0, 0, 0};
    const int negate = direction != PE_ROPE_FORWARD; /* inverse, backward: -theta */
    int text_run = 0; /* the previous token was a text token */
    for (int64_t t = 0; t < in->tokens; t++) {
        const int64_t *p = positions + 3 * t;
        if (p[0] == p[1] && p[1] == p[2]) {
            /* a text token: pe_rope_apply's call with its restart points,
             * so runs of text tokens are bit-identical to plain RoPE */
            trig.follows = text_run && t % PE__ROPE_RESTART != 0;
            pe__rope_prepare(k, p[0], freqs->inv_freq, freqs->inv_freq_lo, pl.half, layout,
                             negate, &trig);
            text_run = 1;
        } else {
            plan_cos_sin(&pl, freqs, p, k);
            k->rope_prepare_cs(pl.c, pl.s, pl.half, layout, negate, &trig);
            text_run = 0;
        }
        const pe__rope_rows rows = {(const float *)in->data + t * in->token_stride,
                                    (float *)out->data + t * out->token_stride,
                                    in->heads,
                                    in->head_stride,
                                    out->head_stride,
                                    freqs->rotary_dim,
                                    in->head_dim,
                                    layout,
                                    PE_F32,
                                    0,
                                    0};
        k->rope_token(&rows, &trig);
        pe__rope_pass_through(&rows);
    }
    plan_free(&pl);
    return PE_OK;
}

int pe_mrope_cos_sin(const pe_freqs *freqs, const int64_t *positions,
                     int64_t count, const int64_t sections[3],
                     pe_mrope_mode mode, void *cos_out, void *sin_out,
                     pe_dtype dtype) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(check_sections(freqs->rotary_dim / 2, sections, mode));
    PE_TRY(check_positions3(positions, count));
    const int64_t half = freqs->rotary_dim / 2;
    PE_TRY(pe__check_cos_sin_out(count, half, cos_out, sin_out, dtype));
    if (count == 0) return PE_OK;
    const size_t cache_bytes = (size_t)count * (size_t)half * pe__dtype_size(dtype);
    const size_t id_bytes = (size_t)count * 3 * sizeof(int64_t); /* checked */
    PE_TRY(pe__check_bytes_apart(cos_out, cache_bytes, "cos_out", positions, id_bytes,
                                 "positions"));
    PE_TRY(pe__check_bytes_apart(sin_out, cache_bytes, "sin_out", positions, id_bytes,
                                 "positions"));
    mrope_plan pl;
    PE_TRY(plan_make(freqs, sections, mode, &pl));
    const pe_kernel_table *k = pe__kernels();
    for (int64_t t = 0; t < count; t++) {
        plan_cos_sin(&pl, freqs, positions + 3 * t, k);
        const size_t row = (size_t)t * (size_t)half;
        for (int64_t i = 0; i < half; i++) {
            if (dtype == PE_F32) {
                ((float *)cos_out)[row + i] = (float)pl.c[i];
                ((float *)sin_out)[row + i] = (float)pl.s[i];
            } else {
                ((double *)cos_out)[row + i] = pl.c[i];
                ((double *)sin_out)[row + i] = pl.s[i];
            }
        }
    }
    plan_free(&pl);
    return PE_OK;
}
