/*
 * optim.h — AdamW with linear warmup, cosine decay and global-norm gradient
 * clipping, over the float32 net's parameters (flat array and, for the
 * learned scheme, the library-owned table).
 */
#ifndef PE_EXPERIMENT_OPTIM_H
#define PE_EXPERIMENT_OPTIM_H

#include "net.h"

typedef struct {
    double lr;           /* peak learning rate */
    double min_lr_frac;  /* the cosine ends at min_lr_frac * lr */
    int warmup;          /* steps of linear warmup from 0 */
    int steps;           /* total steps (the cosine's length) */
    double beta1, beta2, eps;
    double weight_decay; /* decoupled, on the weight matrices only */
    double clip;         /* global gradient norm limit (<= 0: none) */
} ex_adamw_config;

/* lr 3e-3, min 0.1, warmup 100, betas 0.9/0.98, eps 1e-8, decay 0.01, clip 1. */
ex_adamw_config ex_adamw_defaults(int steps);

/* Learning rate of step (0-based). */
double ex_lr_at(const ex_adamw_config *c, int step);

enum { EX_MAX_GROUPS = 4 * EX_MAX_LAYERS + 8 };

typedef struct {
    float *w;
    const float *g;
    float *m, *v;
    size_t n;
    int decay;
} ex_param_group;

typedef struct {
    ex_adamw_config cfg;
    ex_param_group group[EX_MAX_GROUPS];
    int n_groups;
    float *state; /* every group's m and v */
} ex_adamw;

int ex_adamw_init(ex_adamw *o, const ex_adamw_config *c, ex_net_f32 *net);
void ex_adamw_free(ex_adamw *o);
/* One update with the net's current gradients at step (0-based). Returns the
 * global gradient norm before clipping. */
double ex_adamw_step(ex_adamw *o, int step);

#endif
