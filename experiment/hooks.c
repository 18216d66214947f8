/* hooks.c — the experiment as other commands use it: the tour's section
 * and `posenc bench`'s train_step measurement. */
#include "experiment.h"

#include <string.h>
#include <unistd.h>

/* Cells of one metric over the test lengths, a bar after the training range. */
static void tour_cells(FILE *out, const ex_config *c, const ex_run_result *x, int token_acc) {
    for (int L = 0; L < c->n_lengths; L++) {
        const int last_in = c->lengths[L] <= c->train_max &&
                            (L + 1 == c->n_lengths || c->lengths[L + 1] > c->train_max);
        fprintf(out, " %5.1f%s", 100 * (token_acc ? x->at[L].token_acc : x->at[L].exact),
                last_in ? " |" : "");
    }
}

int ex_tour_section(FILE *out, FILE *progress, int claim) {
    ex_config c;
    ex_config_quick(&c);
    ex_results r;
    const int tty = progress != NULL && isatty(fileno(progress));
    int st = ex_run_all(&c, tty ? ex_progress_bar : NULL, progress, &r);
    if (st) return st;
    fprintf(out,
            "[%d] Train short, test long: tiny decoders trained on copy with n = 1..%d symbols,\n"
            "    tested on longer n (posenc experiment --quick: seed 1, %d steps; %.0f s).\n",
            claim, c.train_max, c.steps, r.wall_seconds);
    char heads[128] = "";
    for (int L = 0; L < c.n_lengths; L++)
        snprintf(heads + strlen(heads), sizeof heads - strlen(heads), " %5d%s", c.lengths[L],
                 c.lengths[L] <= c.train_max &&
                 (L + 1 == c.n_lengths || c.lengths[L + 1] > c.train_max) ? " |" : "");
    const int w = (int)strlen(heads);
    fprintf(out, "    %-18s %-*s   %s\n", "", w - 1, "exact match (%)", "token accuracy (%)");
    fprintf(out, "    %-18s%s  %s\n", "n =", heads, heads);
    for (int i = 0; i < c.n_schemes; i++) {
        const ex_run_result *x = ex_result_at(&r, i, 0);
        fprintf(out, "    %-18s", c.schemes[i] == EX_LEARNED ? "learned (clamped)"
                                                           : ex_scheme_name(c.schemes[i]));
        tour_cells(out, &c, x, 0);
        fprintf(out, "  ");
        tour_cells(out, &c, x, 1);
        fprintf(out, "%s\n", x->learned ? "" : "  (did not learn: < 95% in distribution)");
    }
    fprintf(out, "    Exact match is every answer token right; rope-* are the trained RoPE model\n"
                 "    with rescaled frequencies. One short seed: `posenc experiment` runs every\n"
                 "    scheme with 3 seeds (README, docs/EXPERIMENT.md).\n");
    ex_results_free(&r);
    return 0;
}

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
