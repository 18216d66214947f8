/* hooks.c — the experiment as other commands use it: `posenc bench`'s
 * train_step measurement (the tour runs and judges the experiment itself,
 * cli/tour/tour_experiment.c). */
#include "experiment.h"


int ex_bench_train_step(int steps, double *train_tokens_per_s, double *forward_tokens_per_s) {
    ex_arch a;
    ex_config c;
    ex_config_default(&c);
    int st = ex_arch_default(&a, EX_ROPE, c.train_max);
    ex_net_f32 *net = NULL;
    ex_adamw opt = {0};
    ex_batch b = {0};
    ex_rng rng;
    ex_rng_seed(&rng, 1, 0xBE7C4ull);
    if (!st) st = ex_net_create_f32(&a, 1, &net);
    const ex_adamw_config oc = ex_adamw_defaults(steps + 3);
    if (!st) st = ex_adamw_init(&opt, &oc, net);
    /* One fixed batch of the training distribution: every timed step does
     * the same work. */
    if (!st) st = ex_batch_random(&b, EX_TASK_COPY, c.batch, c.train_max, &rng);
    double t_fwd = 0, t_train = 0;
    for (int round = 0; !st && round < 2; round++) {
        /* Round 0 warms caches and the workspace; round 1 is timed. */
        const int n = round ? steps : 3;
        double t0 = ex_now();
        for (int i = 0; !st && i < n; i++) st = ex_forward_f32(net, &b, NULL, 0, NULL, NULL);
        t_fwd = ex_now() - t0;
        t0 = ex_now();
        for (int i = 0; !st && i < n; i++) {
            st = ex_forward_f32(net, &b, NULL, 1, NULL, NULL);
            if (!st) st = ex_backward_f32(net, &b);
            if (!st) ex_adamw_step(&opt, i);
        }
        t_train = ex_now() - t0;
    }
    if (!st) {
        *forward_tokens_per_s = (double)b.n_tok * steps / t_fwd;
        *train_tokens_per_s = (double)b.n_tok * steps / t_train;
    }
    ex_batch_free(&b);
    ex_adamw_free(&opt);
    ex_net_free_f32(net);
    return st;
}
