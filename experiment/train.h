/*
 * train.h — training one model (one scheme, one seed) and evaluating it.
 */
#ifndef PE_EXPERIMENT_TRAIN_H
#define PE_EXPERIMENT_TRAIN_H

#include "net.h"
#include "optim.h"

typedef struct {
    ex_arch arch;
    ex_task task;
    uint64_t seed;     /* parameters and training data both follow it */
    int steps, batch, train_max;
    ex_adamw_config opt;
    /* Called after every step (nullable): step (1-based), that step's loss. */
    void (*on_step)(void *ctx, int step, double loss);
    void *ctx;
} ex_train_spec;

typedef struct {
    double seconds;     /* wall time of the training loop */
    long tokens;        /* token rows processed (forward + backward) */
    double final_loss;  /* mean loss of the last 1% of steps (at least one) */
} ex_train_stats;

/* Train a new model. loss_curve (nullable, steps entries) receives every
 * step's loss. */
int ex_train(const ex_train_spec *s, ex_net_f32 **out, ex_train_stats *stats, float *loss_curve);

typedef struct {
    double exact;     /* fraction of examples with every answer token right */
    double token_acc; /* fraction of answer tokens right */
    double loss;      /* mean cross-entropy per answer token (nats) */
} ex_metric;

/* Evaluate on a fixed set in batches of `batch` examples, with RoPE
 * frequencies freqs (NULL: the net's own). */
int ex_evaluate(ex_net_f32 *net, ex_task task, const ex_eval_set *set, const pe_freqs *freqs,
                int batch, ex_metric *out);

/* Wall-clock seconds (monotonic). */
double ex_now(void);

#endif
