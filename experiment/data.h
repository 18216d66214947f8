/*
 * data.h — the copy, reverse and sort tasks and their batches (random numbers:
 * rng.h).
 *
 * An example of n symbols is the sequence BOS x1..xn SEP y1..yn; the model
 * reads its first 2n + 1 tokens and is scored on the n predictions made at
 * SEP and at y1..y(n-1) (teacher forcing: every answer token is predicted
 * from the true prefix). Copy: y = x. Reverse: y_j = x_(n+1-j). Sort: y is
 * x in ascending order (ties kept), Kazemnejad et al. 2023's sorting task.
 * The examples of a batch are packed without padding: token rows of
 * example b are [off[b], off[b+1]).
 */
#ifndef PE_EXPERIMENT_DATA_H
#define PE_EXPERIMENT_DATA_H

#include "rng.h"

#include <stdint.h>

/* Tokens: 64 symbols, then BOS and SEP. */
enum { EX_SYMBOLS = 64, EX_BOS = 64, EX_SEP = 65, EX_VOCAB = 66 };

/* Tokens an example of n symbols feeds the model: BOS x1..xn SEP y1..y(n-1). */
static inline int ex_seq_len(int n) { return 2 * n + 1; }

typedef enum { EX_TASK_COPY = 0, EX_TASK_REVERSE = 1, EX_TASK_SORT = 2 } ex_task;
/* "copy", "reverse", "sort"; NULL out of range. */
const char *ex_task_name(ex_task t);

typedef struct {
    int n_ex, n_tok, n_ans; /* examples, token rows, scored rows */
    int max_tokens;         /* longest example, in tokens */
    int *off;               /* (n_ex + 1) token offsets */
    int *n;                 /* (n_ex) symbols per example */
    int *tok;               /* (n_tok) token ids */
    int64_t *pos;           /* (n_tok) position of each token in its example */
    int *ans_row;           /* (n_ans) token row whose prediction is scored */
    int *ans_tgt;           /* (n_ans) the symbol it must predict */
    int *ans_off;           /* (n_ex + 1) offsets into ans_row per example */
    /* capacities */
    int cap_ex, cap_tok, cap_ans;
} ex_batch;

void ex_batch_free(ex_batch *b);

/* Fill b with examples of the given lengths (lengths[i] symbols, each in
 * 1..1000), drawing the symbols from r. Returns 0 or PE_ERR_NOMEM. */
int ex_batch_make(ex_batch *b, ex_task task, const int *lengths, int n_ex, ex_rng *r);

/* Training batch: n_ex examples, each length uniform in 1..train_max. */
int ex_batch_random(ex_batch *b, ex_task task, int n_ex, int train_max, ex_rng *r);

/* A fixed evaluation set: count examples of n symbols (n > 0), or of
 * lengths uniform in 1..train_max when n == 0 (the training distribution).
 * The symbols depend on (task, n, count, set_seed) only, so every scheme
 * and every training seed meets the same examples. */
typedef struct {
    int count;
    int *lengths; /* (count) */
    int *symbols; /* all examples' x, concatenated */
    int *sym_off; /* (count + 1) */
} ex_eval_set;

int ex_eval_set_make(ex_eval_set *s, int n, int train_max, int count, uint64_t set_seed);
void ex_eval_set_free(ex_eval_set *s);
/* Examples [first, first + n_ex) of the set as a batch. */
int ex_eval_set_batch(const ex_eval_set *s, ex_task task, int first, int n_ex, ex_batch *b);

#endif
