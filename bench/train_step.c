/*
 * train_step.c — the `train_step` case of `posenc bench`: one training step
 * (forward, backward, AdamW) of `posenc experiment`'s model per token,
 * against the same model's forward pass alone as the baseline. Default
 * model (RoPE, D 64, 4 heads, FFN 256, 3 layers), one batch of 32 copy
 * examples of 1..16 symbols, one thread, as each experiment job runs.
 * elem = one token; no target (the ratio is what backward and the
 * optimizer cost on top of the forward, about 3 by the usual count).
 */
#include "bench.h"

#include "../experiment/experiment.h"

int bench_train_step(int quick, bench_result *out, int max) {
    if (max < 1) return 0;
    double train = 0, fwd = 0;
    if (ex_bench_train_step(quick ? 10 : 50, &train, &fwd) != 0) return 0;
    bench_result *r = out;
    snprintf(r->name, sizeof r->name, "train_step");
    r->threads = 1;
    r->ns_per_elem = 1e9 / train;
    r->gbps = 0;
    snprintf(r->baseline, sizeof r->baseline, "forward_pass");
    r->baseline_ns_per_elem = 1e9 / fwd;
    r->ratio = fwd / train;
    r->target = 0;
    r->max_abs_err = 0;
    return 1;
}
