/* train.c — the training loop and the evaluation of a trained model. */
#include "train.h"

#include <stdlib.h>
#include <time.h>

double ex_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ex_train(const ex_train_spec *s, ex_net_f32 **out, ex_train_stats *stats, float *loss_curve) {
    *out = NULL;
    ex_net_f32 *net = NULL;
    ex_adamw opt = {0};
    ex_batch b = {0};
    int st = ex_net_create_f32(&s->arch, s->seed, &net);
    if (!st) st = ex_adamw_init(&opt, &s->opt, net);
    /* Fresh examples every step from the seed's own data stream: the same
     * sequence of batches for every scheme at a given seed. */
    ex_rng data;
    ex_rng_seed(&data, s->seed, 0xDA7Aull);
    const double t0 = ex_now();
    long tokens = 0;
    double tail = 0;
    const int tail_n = s->steps / 100 > 0 ? s->steps / 100 : 1;
    for (int step = 0; !st && step < s->steps; step++) {
        double loss = 0;
        st = ex_batch_random(&b, s->task, s->batch, s->train_max, &data);
        if (!st) st = ex_forward_f32(net, &b, NULL, 1, &loss, NULL);
        if (!st) st = ex_backward_f32(net, &b);
        if (st) break;
        ex_adamw_step(&opt, step);
        tokens += b.n_tok;
        if (loss_curve) loss_curve[step] = (float)loss;
        if (step >= s->steps - tail_n) tail += loss;
        if (s->on_step) s->on_step(s->ctx, step + 1, loss);
    }
    ex_batch_free(&b);
    ex_adamw_free(&opt);
    if (st) {
        ex_net_free_f32(net);
        return st;
    }
    if (stats) {
        stats->seconds = ex_now() - t0;
        stats->tokens = tokens;
        stats->final_loss = tail / tail_n;
    }
    *out = net;
    return 0;
}

int ex_evaluate(ex_net_f32 *net, ex_task task, const ex_eval_set *set, const pe_freqs *freqs,
                int batch, ex_metric *out) {
    ex_batch b = {0};
    ex_counts c = {0};
    int st = 0;
    for (int first = 0; !st && first < set->count; first += batch) {
        const int n = set->count - first < batch ? set->count - first : batch;
        st = ex_eval_set_batch(set, task, first, n, &b);
        if (!st) st = ex_forward_f32(net, &b, freqs, 0, NULL, &c);
    }
    ex_batch_free(&b);
    if (st) return st;
    out->exact = c.examples ? (double)c.exact / c.examples : 0;
    out->token_acc = c.tokens ? (double)c.correct / c.tokens : 0;
    out->loss = c.tokens ? c.loss_sum / c.tokens : 0;
    return 0;
}
