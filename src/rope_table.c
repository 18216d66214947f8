/*
 * rope_table.c — rotation from a caller's cos/sin table (issue 15 item 3):
 * the table is built once per batch (pe_rope_cos_sin, pe_mrope_cos_sin, or
 * by the caller: vision freqs_cis, learned mixing, HF's `cos, sin`) and
 * applied to every layer. This file validates the table and the rows the
 * positions ask for; the rotation is the one driver's (rope_driver.c) with
 * the table as angle source, so threads, f16/bf16 views, q and k and any
 * positions kind come with it.
 */
#include "internal.h"
#include "positions.h"
#include "rope_driver.h"
#include "struct_size.h"

pe_rope_table pe_rope_table_default(void) {
    pe_rope_table t = {.struct_size = sizeof(pe_rope_table), .dtype = PE_F32,
                       .width = PE_TABLE_PAIRS};
    return t;
}

/* The first (and so far only) version of the struct ends after row_stride. */
#define TABLE_V1_SIZE sizeof(pe_rope_table)

static int check_table(const pe_rope_table *tb, pe_rope_layout layout,
                       pe__table_source *src) {
    if (tb == NULL) return pe__fail(PE_ERR_NULL, "table must not be NULL");
    if (tb->struct_size < TABLE_V1_SIZE)
        return pe__fail(PE_ERR_PARAM,
                        "pe_rope_table struct_size=%zu is below its first version's %zu: "
                        "start from pe_rope_table_default()",
                        tb->struct_size, (size_t)TABLE_V1_SIZE);
    /* A larger struct_size with a non-zero byte past this library's struct
     * is a field it does not know (SIZE-2): the one rule of struct_size.c,
     * as every other extensible struct. The resolved copy has the same
     * fields as tb (one version so far). */
    pe_rope_table resolved;
    const pe_rope_table defaults = pe_rope_table_default();
    PE_TRY(pe__struct_resolve(tb, &defaults, &resolved, sizeof resolved, TABLE_V1_SIZE,
                              "pe_rope_table", "pe_rope_table_default"));
    const int64_t d = tb->rotary_dim;
    if (d < 2 || d > PE_MAX_ROTARY_DIM || d % 2 != 0)
        return pe__fail(PE_ERR_DIM, "table rotary_dim=%lld must be even and in [2, %d]",
                        (long long)d, PE_MAX_ROTARY_DIM);
    if (tb->dtype != PE_F32 && tb->dtype != PE_F64 && tb->dtype != PE_F16 &&
        tb->dtype != PE_BF16)
        return pe__fail(PE_ERR_DTYPE, "table dtype=%s: tables are f32, f64, f16 or bf16",
                        pe_dtype_name(tb->dtype));
    if (tb->width != PE_TABLE_PAIRS && tb->width != PE_TABLE_DUPLICATED)
        return pe__fail(PE_ERR_PARAM, "table width=%d is not a pe_table_width",
                        (int)tb->width);
    const int64_t width = tb->width == PE_TABLE_PAIRS ? d / 2 : d;
    if (tb->rows < 0)
        return pe__fail(PE_ERR_SHAPE, "table rows=%lld must be >= 0", (long long)tb->rows);
    const int64_t stride = tb->row_stride == 0 ? width : tb->row_stride;
    if (stride < width)
        return pe__fail(PE_ERR_SHAPE, "table row_stride=%lld is shorter than a row of %lld entries",
                        (long long)tb->row_stride, (long long)width);
    size_t bytes;
    if (pe__bytes("table", tb->rows, stride, pe__dtype_size(tb->dtype), &bytes) != PE_OK ||
        (uint64_t)bytes > PE__MAX_EXTENT)
        return pe__fail(PE_ERR_OVERFLOW, "table rows=%lld x row_stride=%lld overflows size_t",
                        (long long)tb->rows, (long long)stride);
    if (tb->rows > 0 && tb->cos == NULL) return pe__fail(PE_ERR_NULL, "table cos must not be NULL");
    if (tb->rows > 0 && tb->sin == NULL) return pe__fail(PE_ERR_NULL, "table sin must not be NULL");
    src->cos = tb->cos;
    src->sin = tb->sin;
    src->dtype = tb->dtype;
    src->row_stride = stride;
    /* duplicated interleaved rows are repeat_interleave(f, 2): pair i at 2i */
    src->pair_step = tb->width == PE_TABLE_DUPLICATED && layout == PE_ROPE_INTERLEAVED ? 2 : 1;
    return PE_OK;
}

/* Bytes of the table from its first entry to one past its last. */
static size_t table_bytes(const pe_rope_table *tb, const pe__table_source *src) {
    const int64_t width = tb->width == PE_TABLE_PAIRS ? tb->rotary_dim / 2 : tb->rotary_dim;
    return ((size_t)(tb->rows - 1) * (size_t)src->row_stride + (size_t)width) *
           pe__dtype_size(tb->dtype);
}

static int row_error(int64_t t, int64_t p, int64_t rows) {
    return pe__fail(PE_ERR_RANGE, "position %lld (token %lld) outside the table's rows [0, %lld)",
                    (long long)p, (long long)t, (long long)rows);
}

/* Every token's row exists: positions are validated for `tokens`. */
static int check_rows(const pe_positions *pos, int64_t tokens, int64_t rows) {
    if (tokens == 0) return PE_OK;
    if (pos->kind == PE_POSITIONS_VARLEN) {
        for (int64_t s = 0; s < pos->n_seqs; s++) {
            const int64_t a = pe__cu_at(pos, s), b = pe__cu_at(pos, s + 1);
            if (b == a) continue;
            const int64_t first = pos->seq_starts ? pos->seq_starts[s] : pos->start;
            if (first < 0) return row_error(a, first, rows);
            if (first > rows - (b - a)) { /* the first token past the last row */
                const int64_t off = rows - first < 0 ? 0 : rows - first;
                return row_error(a + off, first + off, rows);
            }
        }
        return PE_OK;
    }
    if (pe__positions_is_range(pos)) {
        if (pos->start < 0) return row_error(0, pos->start, rows);
        if (pos->start > rows - tokens) {
            const int64_t off = rows - pos->start < 0 ? 0 : rows - pos->start;
            return row_error(off, pos->start + off, rows);
        }
        return PE_OK;
    }
    for (int64_t t = 0; t < tokens; t++) {
        const int64_t p = pe__position_at(pos, t); /* a list, int64 or int32 */
        if (p < 0 || p >= rows) return row_error(t, p, rows);
    }
    return PE_OK;
}

/* Common checks of both calls; *o gets the options to use. */
static int table_checks(const pe_rope_table *table, pe_rope_layout layout,
                        pe_rope_direction direction, const pe_rope_options **o,
                        pe_rope_options *defaults, pe__table_source *src) {
    PE_TRY(check_table(table, layout, src));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    PE_TRY(pe__rope_check_direction(direction));
    if (direction == PE_ROPE_INVERSE)
        return pe__fail(PE_ERR_PARAM,
                        "direction=inverse: a table does not state its magnitude; "
                        "BACKWARD rotates by (cos, -sin), the inverse of a unit table");
    PE_TRY(pe__rope_options_resolve(*o, defaults));
    *o = defaults;
    return PE_OK;
}

/* An output must not hold the table (read while rows are written). */
static int check_table_apart(const pe_rope_table *tb, const pe__table_source *src,
                             const pe_tensor *out, const char *out_name) {
    if (out->tokens == 0 || out->heads == 0 || out->head_dim == 0 || tb->rows == 0)
        return PE_OK;
    const pe__span o = pe__view_span(out);
    const size_t n = table_bytes(tb, src);
    PE_TRY(pe__check_bytes_apart((const void *)o.lo, o.hi - o.lo, out_name, tb->cos, n,
                                 "table cos"));
    return pe__check_bytes_apart((const void *)o.lo, o.hi - o.lo, out_name, tb->sin, n,
                                 "table sin");
}

static int table_run(const pe_rope_table *table, const pe__table_source *src,
                     pe_rope_layout layout, const pe_positions *positions, int n,
                     const pe_tensor *const *in, const pe_tensor *const *out,
                     pe_rope_direction direction, const pe_rope_options *o) {
    pe__angles a;
    a.kind = PE__ANGLES_TABLE;
    a.freqs = NULL;
    a.positions = positions;
    a.table = *src;
    return pe__rope_drive(&a, table->rotary_dim, layout, direction, n, in, out, o);
}

int pe_rope_apply_table(const pe_rope_table *table, pe_rope_layout layout,
                        const pe_positions *positions, const pe_tensor *in,
                        const pe_tensor *out, pe_rope_direction direction,
                        const pe_rope_options *options) {
    pe_rope_options defaults;
    pe__table_source src;
    PE_TRY(table_checks(table, layout, direction, &options, &defaults, &src));
    PE_TRY(pe__rope_check_pair_d(table->rotary_dim, in, out, "in", "out"));
    PE_TRY(pe__check_positions(positions, in->tokens));
    PE_TRY(check_rows(positions, in->tokens, table->rows));
    PE_TRY(pe__rope_check_positions_apart(positions, in->tokens, out, "out"));
    PE_TRY(check_table_apart(table, &src, out, "out"));
    const pe_tensor *ins[1] = {in}, *outs[1] = {out};
    return table_run(table, &src, layout, positions, 1, ins, outs, direction, options);
}

int pe_rope_apply_table_qk(const pe_rope_table *table, pe_rope_layout layout,
                           const pe_positions *positions, const pe_tensor *q_in,
                           const pe_tensor *q_out, const pe_tensor *k_in,
                           const pe_tensor *k_out, pe_rope_direction direction,
                           const pe_rope_options *options) {
    pe_rope_options defaults;
    pe__table_source src;
    PE_TRY(table_checks(table, layout, direction, &options, &defaults, &src));
    PE_TRY(pe__rope_check_qk(table->rotary_dim, q_in, q_out, k_in, k_out));
    PE_TRY(pe__check_positions(positions, q_in->tokens));
    PE_TRY(check_rows(positions, q_in->tokens, table->rows));
    PE_TRY(pe__rope_check_positions_apart(positions, q_in->tokens, q_out, "q_out"));
    PE_TRY(pe__rope_check_positions_apart(positions, q_in->tokens, k_out, "k_out"));
    PE_TRY(check_table_apart(table, &src, q_out, "q_out"));
    PE_TRY(check_table_apart(table, &src, k_out, "k_out"));
    const pe_tensor *ins[2] = {q_in, k_in}, *outs[2] = {q_out, k_out};
    return table_run(table, &src, layout, positions, 2, ins, outs, direction, options);
}
