/*
 * rope_mrope.c — multi-axis RoPE (SPEC §2.3): each token carries three
 * positions (t, h, w) and every frequency slot takes its angle from one of
 * them, by a section list in the blocked (Qwen2-VL) or interleaved
 * (Qwen3-VL) assignment. This file holds only that section mapping and the
 * argument checks: the rotation is the one driver's (rope_driver.c) with
 * an M-RoPE angle source, so threads, f16/bf16, q and k together and the
 * stepping of consecutive positions are plain RoPE's.
 */
#include "internal.h"
#include "rope_driver.h"

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
 * The section map of a call: the slots of each axis gathered into one
 * contiguous group (slot indices and their frequencies), so that a token
 * needs one cos_sin call (or one step) per axis over exactly its slots.
 * Blocked sections are already grouped: slot is then NULL.
 */
typedef struct {
    pe__mrope_source src;
    void *mem;
} mrope_map;

static int map_make(const pe_freqs *f, const int64_t *sections, pe_mrope_mode mode,
                    mrope_map *m) {
    const int64_t half = f->rotary_dim / 2;
    unsigned char *mem;
    PE_TRY(pe__alloc("M-RoPE map", half, 1, 2 * sizeof(double) + sizeof(int64_t) + 1, &mem));
    double *w = (double *)(void *)mem, *w_lo = w + half;
    int64_t *slot = (int64_t *)(void *)(w_lo + half);
    unsigned char *axis = (unsigned char *)(slot + half);
    for (int64_t j = 0; j < half; j++) axis[j] = (unsigned char)slot_axis(j, sections, mode);
    int64_t at = 0;
    int identity = 1;
    for (int a = 0; a < 3; a++) {
        m->src.start[a] = at;
        for (int64_t j = 0; j < half; j++)
            if (slot_axis(j, sections, mode) == a) {
                slot[at] = j;
                identity &= at == j;
                w[at] = f->inv_freq[j];
                w_lo[at] = f->inv_freq_lo[j];
                at++;
            }
        m->src.n[a] = at - m->src.start[a];
    }
    m->src.slot = identity ? NULL : slot;
    m->src.w = w;
    m->src.w_lo = w_lo;
    m->src.axis = axis;
    m->src.pos3 = NULL;
    m->mem = mem;
    return PE_OK;
}

/* The (tokens, 3) positions are read while rows are written. */
static int check_positions3_apart(const int64_t *positions, int64_t tokens,
                                  const pe_tensor *out, const char *out_name) {
    if (tokens == 0) return PE_OK;
    const pe__span o = pe__view_span(out);
    return pe__check_bytes_apart((const void *)o.lo, o.hi - o.lo, out_name, positions,
                                 (size_t)tokens * 3 * sizeof(int64_t), "positions");
}

static int mrope_run(const pe_freqs *freqs, pe_rope_layout layout, const int64_t *positions,
                     const int64_t *sections, pe_mrope_mode mode, int n,
                     const pe_tensor *const *in, const pe_tensor *const *out,
                     pe_rope_direction direction, const pe_rope_options *options) {
    if (in[0]->tokens == 0) return PE_OK;
    mrope_map m;
    PE_TRY(map_make(freqs, sections, mode, &m));
    pe__angles a;
    a.kind = PE__ANGLES_MROPE;
    a.freqs = freqs;
    a.positions = NULL;
    a.mrope = m.src;
    a.mrope.pos3 = positions;
    const int st = pe__rope_drive(&a, freqs->rotary_dim, layout, direction, n, in, out, options);
    free(m.mem);
    return st;
}

/* The checks every M-RoPE rotation makes first, in the order their errors
 * take precedence: frequencies, layout, sections (they need a valid
 * rotary_dim), then direction and options as a plain rotation. */
static int mrope_common_checks(const pe_freqs *freqs, pe_rope_layout layout,
                               const int64_t sections[3], pe_mrope_mode mode,
                               pe_rope_direction direction, const pe_rope_options **options,
                               pe_rope_options *defaults) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    PE_TRY(check_sections(freqs->rotary_dim / 2, sections, mode));
    return pe__rope_common_checks(freqs, layout, direction, options, defaults);
}

int pe_mrope_apply_ex(const pe_freqs *freqs, pe_rope_layout layout,
                      const int64_t *positions, const int64_t sections[3],
                      pe_mrope_mode mode, const pe_tensor *in, const pe_tensor *out,
                      pe_rope_direction direction, const pe_rope_options *options) {
    pe_rope_options defaults;
    PE_TRY(mrope_common_checks(freqs, layout, sections, mode, direction, &options, &defaults));
    PE_TRY(pe__rope_check_pair_d(freqs->rotary_dim, in, out, "in", "out"));
    PE_TRY(check_positions3(positions, in->tokens));
    PE_TRY(check_positions3_apart(positions, in->tokens, out, "out"));
    const pe_tensor *ins[1] = {in}, *outs[1] = {out};
    return mrope_run(freqs, layout, positions, sections, mode, 1, ins, outs, direction,
                     options);
}

int pe_mrope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                   const int64_t *positions, const int64_t sections[3],
                   pe_mrope_mode mode, const pe_tensor *in,
                   const pe_tensor *out, pe_rope_direction direction) {
    return pe_mrope_apply_ex(freqs, layout, positions, sections, mode, in, out, direction,
                             NULL);
}

int pe_mrope_apply_qk(const pe_freqs *freqs, pe_rope_layout layout,
                      const int64_t *positions, const int64_t sections[3],
                      pe_mrope_mode mode, const pe_tensor *q_in, const pe_tensor *q_out,
                      const pe_tensor *k_in, const pe_tensor *k_out,
                      pe_rope_direction direction, const pe_rope_options *options) {
    pe_rope_options defaults;
    PE_TRY(mrope_common_checks(freqs, layout, sections, mode, direction, &options, &defaults));
    PE_TRY(pe__rope_check_qk(freqs->rotary_dim, q_in, q_out, k_in, k_out));
    PE_TRY(check_positions3(positions, q_in->tokens));
    PE_TRY(check_positions3_apart(positions, q_in->tokens, q_out, "q_out"));
    PE_TRY(check_positions3_apart(positions, q_in->tokens, k_out, "k_out"));
    const pe_tensor *ins[2] = {q_in, k_in}, *outs[2] = {q_out, k_out};
    return mrope_run(freqs, layout, positions, sections, mode, 2, ins, outs, direction,
                     options);
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
    const size_t esz = pe__dtype_size(dtype);
    const size_t cache_bytes = (size_t)count * (size_t)half * esz;
    const size_t id_bytes = (size_t)count * 3 * sizeof(int64_t); /* checked */
    PE_TRY(pe__check_bytes_apart(cos_out, cache_bytes, "cos_out", positions, id_bytes,
                                 "positions"));
    PE_TRY(pe__check_bytes_apart(sin_out, cache_bytes, "sin_out", positions, id_bytes,
                                 "positions"));
    mrope_map m;
    PE_TRY(map_make(freqs, sections, mode, &m));
    const pe_kernel_table *k = pe__kernels();
    /* exact cos/sin of every slot, gathered per axis then in slot order */
    double g[2 * PE_MAX_PAIRS], v[2 * PE_MAX_PAIRS];
    for (int64_t t = 0; t < count; t++) {
        const int64_t *p = positions + 3 * t;
        if (p[0] == p[1] && p[1] == p[2]) { /* a text token: pe_rope_cos_sin's call */
            k->cos_sin(p[0], freqs->inv_freq, freqs->inv_freq_lo, half, v, v + half);
        } else {
            for (int a = 0; a < 3; a++)
                if (m.src.n[a] > 0)
                    k->cos_sin(p[a], m.src.w + m.src.start[a], m.src.w_lo + m.src.start[a],
                               m.src.n[a], g + m.src.start[a], g + half + m.src.start[a]);
            for (int64_t i = 0; i < half; i++) {
                const int64_t j = m.src.slot ? m.src.slot[i] : i;
                v[j] = g[i];
                v[half + j] = g[half + i];
            }
        }
        const size_t row = (size_t)t * (size_t)half * esz;
        pe__store_entries(v, half, (char *)cos_out + row, dtype);
        pe__store_entries(v + half, half, (char *)sin_out + row, dtype);
    }
    free(m.mem);
    return PE_OK;
}
