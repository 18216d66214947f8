/*
 * positions.h — positions of every kind (pe_positions: a range, a list,
 * packed variable-length sequences) as the families read them: a random
 * access for calls that visit tokens in any order, and a cursor for the
 * rotations, which visit tokens in order and so never search (positions.c).
 */
#ifndef PE_POSITIONS_H
#define PE_POSITIONS_H

#include "posenc.h"

#include <stddef.h>
#include <stdint.h>

/* Kind-specific checks of pe__check_positions (common.c calls this after
 * its NULL and count checks): a known kind; for VARLEN, one cu_seqlens
 * pointer, n_seqs >= 0, cu_seqlens[0] == 0, monotone, last == count, and
 * no position past INT64_MAX. */
int pe__check_positions_kind(const pe_positions *pos, int64_t count);

/* Entry s of a validated cu_seqlens. */
static inline int64_t pe__cu_at(const pe_positions *pos, int64_t s) {
    return pos->cu_seqlens_i64 ? pos->cu_seqlens_i64[s] : (int64_t)pos->cu_seqlens_i32[s];
}

/* Position of token t of a VARLEN positions (a binary search; in bounds
 * whatever the arrays hold). */
int64_t pe__varlen_position_at(const pe_positions *pos, int64_t t);

/* Position of token t of any kind (packed sequences: the search above; the
 * rotations read them sequentially through the cursor below). */
static inline int64_t pe__position_at(const pe_positions *pos, int64_t t) {
    if (pos->kind == PE_POSITIONS_VARLEN) return pe__varlen_position_at(pos, t);
    if (pos->kind == PE_POSITIONS_LIST_I32) return pos->ids_i32[t];
    return pos->ids ? pos->ids[t] : pos->start + t;
}

/* Whether the positions are start + t (a range: no array is read). */
static inline int pe__positions_is_range(const pe_positions *pos) {
    return pos->kind == PE_POSITIONS_DEFAULT && pos->ids == NULL;
}

/* Sequential reader: pe__pos_cursor_init at the first token of a range,
 * then pe__pos_cursor_at for increasing t. */
typedef struct {
    const pe_positions *pos;
    int64_t seq;      /* VARLEN: the sequence of the last token asked */
    int64_t seq_end;  /* its end (cu_seqlens[seq + 1]) */
    int64_t base;     /* the sequence's first position minus its first token: position = base + t */
} pe__pos_cursor;

void pe__pos_cursor_init(pe__pos_cursor *c, const pe_positions *pos, int64_t t0);
void pe__pos_cursor_advance(pe__pos_cursor *c, int64_t t);
static inline int64_t pe__pos_cursor_at(pe__pos_cursor *c, int64_t t) {
    const pe_positions *p = c->pos;
    if (p->kind == PE_POSITIONS_DEFAULT) return p->ids ? p->ids[t] : p->start + t;
    if (p->kind == PE_POSITIONS_LIST_I32) return p->ids_i32[t];
    if (t >= c->seq_end) pe__pos_cursor_advance(c, t);
    /* base may have wrapped (positions.c): the sum is in range, add unsigned */
    return (int64_t)((uint64_t)c->base + (uint64_t)t);
}

/* PE_ERR_SHAPE "<out_name> overlaps positions" when the bytes of out share
 * a byte with any array the positions of count tokens read (ids, ids_i32,
 * cu_seqlens, seq_starts). */
int pe__check_positions_apart(const pe_positions *pos, int64_t count, const void *out,
                              size_t out_bytes, const char *out_name);

#endif /* PE_POSITIONS_H */
