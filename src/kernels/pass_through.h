/*
 * pass_through.h — the untouched tail of a partial rotation: elements
 * [d, head_dim) of every head of one token copied from in to out (out of
 * place; nothing to do in place). The rotation drivers call it next to a
 * kernel set's rope_token; no kernel set does.
 */
#ifndef PE_PASS_THROUGH_H
#define PE_PASS_THROUGH_H

#include "kernels.h"

/* The copy (pass_through.c); the test inline, since most calls have
 * nothing to copy. */
void pe__rope_copy_tail(const pe__rope_rows *r);
static inline void pe__rope_pass_through(const pe__rope_rows *r) {
    if (r->in != r->out && r->head_dim > r->d) pe__rope_copy_tail(r);
}

#endif /* PE_PASS_THROUGH_H */
