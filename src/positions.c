/*
 * positions.c — packed variable-length batches as a positions kind
 * (issue 15 item 5): cu_seqlens (int32 or int64, n_seqs + 1 entries, the
 * way flash-attn passes them) plus one start position per sequence, read
 * in place: no int64 per token is materialised. Validation names the
 * entry at fault (docs/ERRORS.md POS-*).
 */
#include "internal.h"
#include "positions.h"

pe_positions pe_positions_varlen(const int32_t *cu_seqlens, int64_t n_seqs,
                                 const int64_t *seq_starts) {
    pe_positions p = {0, NULL, PE_POSITIONS_VARLEN, n_seqs, cu_seqlens, NULL, seq_starts, NULL};
    return p;
}

pe_positions pe_positions_varlen_i64(const int64_t *cu_seqlens, int64_t n_seqs,
                                     const int64_t *seq_starts) {
    pe_positions p = {0, NULL, PE_POSITIONS_VARLEN, n_seqs, NULL, cu_seqlens, seq_starts, NULL};
    return p;
}

static int check_varlen(const pe_positions *pos, int64_t count) {
    if ((pos->cu_seqlens_i32 == NULL) == (pos->cu_seqlens_i64 == NULL))
        return pe__fail(pos->cu_seqlens_i32 == NULL ? PE_ERR_NULL : PE_ERR_PARAM,
                        pos->cu_seqlens_i32 == NULL
                            ? "positions cu_seqlens must not be NULL"
                            : "positions give both cu_seqlens_i32 and cu_seqlens_i64: one of the two");
    if (pos->n_seqs < 0)
        return pe__fail(PE_ERR_SHAPE, "positions n_seqs=%lld must be >= 0",
                        (long long)pos->n_seqs);
    if (pos->ids != NULL)
        return pe__fail(PE_ERR_PARAM, "positions ids must be NULL for packed sequences");
    if (pe__cu_at(pos, 0) != 0)
        return pe__fail(PE_ERR_PARAM, "cu_seqlens[0]=%lld must be 0",
                        (long long)pe__cu_at(pos, 0));
    for (int64_t s = 0; s < pos->n_seqs; s++) {
        const int64_t a = pe__cu_at(pos, s), b = pe__cu_at(pos, s + 1);
        if (b < a)
            return pe__fail(PE_ERR_PARAM,
                            "cu_seqlens[%lld]=%lld < cu_seqlens[%lld]=%lld: must not decrease",
                            (long long)(s + 1), (long long)b, (long long)s, (long long)a);
        if (b > count) continue; /* reported below as the last entry's error */
        const int64_t first = pos->seq_starts ? pos->seq_starts[s] : pos->start;
        if (b > a && first > INT64_MAX - (b - a - 1))
            return pe__fail(PE_ERR_RANGE,
                            "sequence %lld starts at %lld: its %lld tokens overflow int64",
                            (long long)s, (long long)first, (long long)(b - a));
    }
    const int64_t last = pe__cu_at(pos, pos->n_seqs);
    if (last != count)
        return pe__fail(PE_ERR_SHAPE, "cu_seqlens[n_seqs=%lld]=%lld must equal tokens=%lld",
                        (long long)pos->n_seqs, (long long)last, (long long)count);
    return PE_OK;
}

pe_positions pe_positions_list_i32(const int32_t *ids) {
    pe_positions p = {0, NULL, PE_POSITIONS_LIST_I32, 0, NULL, NULL, NULL, ids};
    return p;
}

int pe__check_positions_kind(const pe_positions *pos, int64_t count) {
    if (pos->kind == PE_POSITIONS_DEFAULT) return PE_OK;
    if (pos->kind == PE_POSITIONS_VARLEN) return check_varlen(pos, count);
    if (pos->kind == PE_POSITIONS_LIST_I32) {
        if (pos->ids != NULL)
            return pe__fail(PE_ERR_PARAM,
                            "positions give both ids and ids_i32: one of the two");
        if (pos->ids_i32 == NULL && count > 0)
            return pe__fail(PE_ERR_NULL, "positions ids_i32 must not be NULL");
        return PE_OK;
    }
    return pe__fail(PE_ERR_PARAM, "positions kind=%d is not a pe_positions_kind",
                    (int)pos->kind);
}

/* The sequence holding token t: the last s with cu_seqlens[s] <= t, among
 * sequences [0, n_seqs) (so empty sequences are skipped). */
static int64_t seq_of(const pe_positions *pos, int64_t t) {
    int64_t lo = 0, hi = pos->n_seqs - 1; /* answer in [lo, hi] */
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (pe__cu_at(pos, mid) <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int64_t seq_base(const pe_positions *pos, int64_t s) {
    const int64_t first = pos->seq_starts ? pos->seq_starts[s] : pos->start;
    /* first + (t - cu[s]) written as base + t; validated not to overflow
     * for the tokens of s, so compute it in unsigned arithmetic (wraps
     * harmlessly: base + t lands back in range) */
    return (int64_t)((uint64_t)first - (uint64_t)pe__cu_at(pos, s));
}

int64_t pe__varlen_position_at(const pe_positions *pos, int64_t t) {
    if (pos->n_seqs <= 0) return pos->start + t;
    return (int64_t)((uint64_t)seq_base(pos, seq_of(pos, t)) + (uint64_t)t);
}

void pe__pos_cursor_init(pe__pos_cursor *c, const pe_positions *pos, int64_t t0) {
    c->pos = pos;
    c->seq = 0;
    c->seq_end = INT64_MIN; /* forces a search on the first token */
    c->base = 0;
    (void)t0;
}

void pe__pos_cursor_advance(pe__pos_cursor *c, int64_t t) {
    const pe_positions *pos = c->pos;
    if (pos->n_seqs <= 0) { /* no tokens can be asked for; stay defined */
        c->base = pos->start;
        c->seq_end = INT64_MAX;
        return;
    }
    /* the next sequence when t just crossed into it, else a search */
    int64_t s = c->seq_end == INT64_MIN ? seq_of(pos, t) : c->seq + 1;
    while (s < pos->n_seqs - 1 && pe__cu_at(pos, s + 1) <= t) s++;
    c->seq = s;
    c->seq_end = s + 1 < pos->n_seqs ? pe__cu_at(pos, s + 1) : INT64_MAX;
    c->base = seq_base(pos, s);
}

int pe__check_positions_apart(const pe_positions *pos, int64_t count, const void *out,
                              size_t out_bytes, const char *out_name) {
    if (count <= 0) return PE_OK;
    if (pos->kind == PE_POSITIONS_LIST_I32) /* validated: count entries exist */
        return pe__check_bytes_apart(out, out_bytes, out_name, pos->ids_i32,
                                     (size_t)count * sizeof(int32_t), "positions");
    if (pos->kind != PE_POSITIONS_VARLEN) {
        if (pos->ids == NULL) return PE_OK;
        return pe__check_bytes_apart(out, out_bytes, out_name, pos->ids,
                                     (size_t)count * sizeof(int64_t), "positions");
    }
    /* validated: n_seqs + 1 entries exist, so their size fits */
    const size_t n = (size_t)pos->n_seqs;
    if (pos->cu_seqlens_i32)
        PE_TRY(pe__check_bytes_apart(out, out_bytes, out_name, pos->cu_seqlens_i32,
                                     (n + 1) * sizeof(int32_t), "positions"));
    else
        PE_TRY(pe__check_bytes_apart(out, out_bytes, out_name, pos->cu_seqlens_i64,
                                     (n + 1) * sizeof(int64_t), "positions"));
    if (pos->seq_starts)
        PE_TRY(pe__check_bytes_apart(out, out_bytes, out_name, pos->seq_starts,
                                     n * sizeof(int64_t), "positions"));
    return PE_OK;
}
