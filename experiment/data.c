/* data.c — the copy, reverse and sort tasks and their packed batches. */
#include "data.h"

#include "posenc.h" /* status codes */

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *ex_task_name(ex_task t) {
    switch (t) {
    case EX_TASK_COPY: return "copy";
    case EX_TASK_REVERSE: return "reverse";
    case EX_TASK_SORT: return "sort";
    }
    return NULL;
}

void ex_batch_free(ex_batch *b) {
    free(b->off);
    free(b->n);
    free(b->tok);
    free(b->pos);
    free(b->ans_row);
    free(b->ans_tgt);
    free(b->ans_off);
    memset(b, 0, sizeof *b);
}

/* Replace the arrays p[0..k) with fresh ones of n elements of size sz each
 * (contents are not kept: a batch is rebuilt from scratch). All or none. */
static int regrow(void **p[], int k, int n, size_t sz, int *cap) {
    if (n <= *cap) return 0;
    int ok = 1;
    for (int i = 0; i < k; i++) {
        free(*p[i]);
        *p[i] = malloc(sz * (size_t)n);
        ok &= *p[i] != NULL;
    }
    *cap = ok ? n : 0;
    return ok ? 0 : PE_ERR_NOMEM;
}

static int reserve(ex_batch *b, int n_ex, int n_tok, int n_ans) {
    void **ex[] = {(void **)&b->off, (void **)&b->n, (void **)&b->ans_off};
    void **tok[] = {(void **)&b->tok};
    void **pos[] = {(void **)&b->pos};
    void **ans[] = {(void **)&b->ans_row, (void **)&b->ans_tgt};
    int cap_pos = b->cap_tok;
    if (regrow(ex, 3, n_ex + 1, sizeof(int), &b->cap_ex)) return PE_ERR_NOMEM;
    if (regrow(pos, 1, n_tok, sizeof(int64_t), &cap_pos)) return b->cap_tok = 0, PE_ERR_NOMEM;
    if (regrow(tok, 1, n_tok, sizeof(int), &b->cap_tok)) return PE_ERR_NOMEM;
    return regrow(ans, 2, n_ans, sizeof(int), &b->cap_ans);
}

/* Lay out examples whose symbols are given: BOS x SEP y1..y(n-1), scored
 * at rows n+1 .. 2n of each example (the predictions of y1..yn). */
static int batch_from_symbols(ex_batch *b, ex_task task, const int *lengths, int n_ex,
                              const int *symbols) {
    int n_tok = 0, n_ans = 0;
    for (int e = 0; e < n_ex; e++) {
        n_tok += ex_seq_len(lengths[e]);
        n_ans += lengths[e];
    }
    if (reserve(b, n_ex, n_tok, n_ans)) return PE_ERR_NOMEM;
    b->n_ex = n_ex;
    b->n_tok = n_tok;
    b->n_ans = n_ans;
    b->max_tokens = 0;
    int t = 0, a = 0;
    const int *x = symbols;
    for (int e = 0; e < n_ex; e++) {
        const int n = lengths[e], T = ex_seq_len(n);
        b->off[e] = t;
        b->ans_off[e] = a;
        b->n[e] = n;
        if (T > b->max_tokens) b->max_tokens = T;
        b->tok[t] = EX_BOS;
        for (int i = 0; i < n; i++) b->tok[t + 1 + i] = x[i];
        b->tok[t + n + 1] = EX_SEP;
        /* sort: the answer is x in ascending order, read off the symbols'
         * counts (a counting sort: 64 symbols) */
        int count[EX_SYMBOLS] = {0}, next = 0;
        if (task == EX_TASK_SORT)
            for (int i = 0; i < n; i++) count[x[i]]++;
        for (int j = 0; j < n; j++) {
            int y;
            if (task == EX_TASK_SORT) {
                while (count[next] == 0) next++;
                count[next]--;
                y = next;
            } else {
                y = task == EX_TASK_COPY ? x[j] : x[n - 1 - j];
            }
            if (j + 1 < n) b->tok[t + n + 2 + j] = y;
            b->ans_row[a + j] = t + n + 1 + j;
            b->ans_tgt[a + j] = y;
        }
        for (int i = 0; i < T; i++) b->pos[t + i] = i;
        t += T;
        a += n;
        x += n;
    }
    b->off[n_ex] = t;
    b->ans_off[n_ex] = a;
    return 0;
}

int ex_batch_make(ex_batch *b, ex_task task, const int *lengths, int n_ex, ex_rng *r) {
    int total = 0;
    for (int e = 0; e < n_ex; e++) total += lengths[e];
    int *sym = malloc(sizeof(int) * (size_t)(total > 0 ? total : 1));
    if (sym == NULL) return PE_ERR_NOMEM;
    for (int i = 0; i < total; i++) sym[i] = ex_rng_int(r, 0, EX_SYMBOLS - 1);
    int st = batch_from_symbols(b, task, lengths, n_ex, sym);
    free(sym);
    return st;
}

int ex_batch_random(ex_batch *b, ex_task task, int n_ex, int train_max, ex_rng *r) {
    int *len = malloc(sizeof(int) * (size_t)n_ex);
    if (len == NULL) return PE_ERR_NOMEM;
    for (int e = 0; e < n_ex; e++) len[e] = ex_rng_int(r, 1, train_max);
    int st = ex_batch_make(b, task, len, n_ex, r);
    free(len);
    return st;
}

int ex_eval_set_make(ex_eval_set *s, int n, int train_max, int count, uint64_t set_seed) {
    memset(s, 0, sizeof *s);
    ex_rng r;
    /* The stream names the length, so each length's set is fixed no matter
     * which other lengths are evaluated. */
    ex_rng_seed(&r, set_seed, 0x7E57000000ull + (uint64_t)n);
    s->count = count;
    s->lengths = malloc(sizeof(int) * (size_t)count);
    s->sym_off = malloc(sizeof(int) * (size_t)(count + 1));
    if (s->lengths == NULL || s->sym_off == NULL) goto nomem;
    int total = 0;
    for (int e = 0; e < count; e++) {
        s->lengths[e] = n > 0 ? n : ex_rng_int(&r, 1, train_max);
        s->sym_off[e] = total;
        total += s->lengths[e];
    }
    s->sym_off[count] = total;
    s->symbols = malloc(sizeof(int) * (size_t)(total > 0 ? total : 1));
    if (s->symbols == NULL) goto nomem;
    for (int i = 0; i < total; i++) s->symbols[i] = ex_rng_int(&r, 0, EX_SYMBOLS - 1);
    return 0;
nomem:
    ex_eval_set_free(s);
    return PE_ERR_NOMEM;
}

void ex_eval_set_free(ex_eval_set *s) {
    free(s->lengths);
    free(s->symbols);
    free(s->sym_off);
    memset(s, 0, sizeof *s);
}

int ex_eval_set_batch(const ex_eval_set *s, ex_task task, int first, int n_ex, ex_batch *b) {
    return batch_from_symbols(b, task, s->lengths + first, n_ex, s->symbols + s->sym_off[first]);
}
