/* test_train.c — the trainer end to end: the schedule and AdamW, the RoPE
 * frequencies of each inference-only rescaling, determinism (same seed and
 * threads: bit-identical; also across thread counts), and a tiny model that
 * must learn copy. Training here is a few seconds of CPU; timings are never
 * asserted (speed is `posenc bench`'s business). */
#include "../runner.h"

#include "../../experiment/experiment.h"

#include <stdlib.h>

TEST(exp_schedule_warmup_then_cosine) {
    ex_adamw_config c = ex_adamw_defaults(1000);
    CHECK(c.warmup == 100);
    CHECK_NEAR(ex_lr_at(&c, 0), c.lr / 100, 1e-18);
    CHECK_NEAR(ex_lr_at(&c, 99), c.lr, 1e-18);
    CHECK_NEAR(ex_lr_at(&c, 100), c.lr, 1e-18);
    CHECK_NEAR(ex_lr_at(&c, 999), c.lr * c.min_lr_frac, 1e-15);
    double prev = ex_lr_at(&c, 100);
    for (int s = 101; s < 1000; s++) {
        CHECK(ex_lr_at(&c, s) <= prev);
        prev = ex_lr_at(&c, s);
    }
    CHECK(ex_adamw_defaults(50).warmup == 10); /* short runs warm up for a fifth */
}

TEST(exp_adamw_first_step_and_clipping) {
    /* One parameter group, one step: Adam's first step moves every weight
     * by lr * sign(g) (m/sqrt(v) = g/|g| after bias correction); decay
     * shrinks decayed weights by lr * wd first; clipping scales the
     * gradient so the global norm is clip, which at step 1 changes
     * nothing in the direction. */
    ex_arch a;
    CHECK_OK(ex_arch_init(&a, EX_NONE, 8, 2, 16, 1, 3));
    ex_net_f32 *net = NULL;
    CHECK_OK(ex_net_create_f32(&a, 1, &net));
    ex_adamw_config c = ex_adamw_defaults(10);
    c.warmup = 0;
    ex_adamw o;
    CHECK_OK(ex_adamw_init(&o, &c, net));
    float *w0 = malloc(sizeof(float) * a.n_params);
    memcpy(w0, net->w, sizeof(float) * a.n_params);
    for (size_t i = 0; i < a.n_params; i++) net->g[i] = (i % 3 == 0 ? 2.0f : -0.5f);
    const double norm = ex_adamw_step(&o, 0);
    double want = 0;
    for (size_t i = 0; i < a.n_params; i++) want += (double)net->g[i] * net->g[i];
    CHECK_NEAR(norm, sqrt(want), 1e-9 * sqrt(want));
    const size_t wq = a.layer[0].wqkv, e = a.tok_emb + 4;
    const double lr = ex_lr_at(&c, 0);
    /* decayed (wqkv): w (1 - lr wd) - lr sign(g); not decayed (embedding).
     * The update is computed in float: a few roundings of |w| <~ 1, so
     * 1e-6 absolute, against a step of lr = 3e-5 that a wrong sign,
     * decay or bias correction would miss by its own size. */
    CHECK_NEAR(net->w[wq], w0[wq] * (1 - lr * c.weight_decay) - lr * (wq % 3 == 0 ? 1 : -1), 1e-6);
    CHECK_NEAR(net->w[e], w0[e] - lr * (e % 3 == 0 ? 1 : -1), 1e-6);
    CHECK(fabs(net->w[e] - w0[e]) > 0.9 * lr);
    ex_adamw_free(&o);
    free(w0);
    ex_net_free_f32(net);
}

TEST(exp_rope_variants_are_the_library_generators) {
    ex_arch a;
    CHECK_OK(ex_arch_default(&a, EX_ROPE, 16));
    pe_freqs defbuf, fbuf, *def = &defbuf, *f = &fbuf;
    CHECK_OK(ex_rope_freqs(&a, EX_ROPE, 64, 16, 129, def));
    CHECK(def->rotary_dim == 16 && def->inv_freq[0] == 1.0);
    /* At or below the training length every variant is the default,
     * bit for bit: the trained model's numbers stand. */
    for (int v = EX_ROPE_LINEAR; v <= EX_ROPE_YARN; v++) {
        CHECK_OK(ex_rope_freqs(&a, (ex_scheme)v, 16, 16, 33, f));
        CHECK_MSG(memcmp(f, def, sizeof *f) == 0, "%s at scale 1", ex_scheme_name((ex_scheme)v));
    }
    /* Linear at n = 64 (f = 4): every frequency divided by 4. */
    CHECK_OK(ex_rope_freqs(&a, EX_ROPE_LINEAR, 64, 16, 129, f));
    for (int i = 0; i < 8; i++) CHECK_NEAR(f->inv_freq[i], def->inv_freq[i] / 4, 1e-17);
    /* NTK at f = 4: base 10000 * 4^(16/14); pair 0 untouched. */
    CHECK_OK(ex_rope_freqs(&a, EX_ROPE_NTK, 64, 16, 129, f));
    CHECK(f->inv_freq[0] == 1.0);
    CHECK_NEAR(f->inv_freq[7], pow(10000.0 * pow(4.0, 16.0 / 14), -14.0 / 16), 1e-15);
    /* Dynamic: the sequence's own length, 129 tokens against 33. */
    CHECK_OK(ex_rope_freqs(&a, EX_ROPE_DYNAMIC, 64, 16, 129, f));
    CHECK_NEAR(f->inv_freq[7], pow(10000.0 * pow(129.0 / 33, 16.0 / 14), -14.0 / 16), 1e-15);
    /* YaRN at f = 4, L0 = 33: the fastest pair is kept, the slow ones are
     * divided by 4, and the magnitude is 0.1 ln 4 + 1. */
    CHECK_OK(ex_rope_freqs(&a, EX_ROPE_YARN, 64, 16, 129, f));
    CHECK(f->inv_freq[0] == def->inv_freq[0]);
    CHECK_NEAR(f->inv_freq[7], def->inv_freq[7] / 4, 1e-17);
    CHECK_NEAR(f->attention_factor, 0.1 * log(4.0) + 1, 1e-15);
    /* The ramp at this size (docs/EXPERIMENT.md): beta 32/1 over L0 = 33
     * tokens keep pair 0 (wavelength 6.3 tokens), blend pair 1 (19.9) and
     * interpolate pairs 2..7 (62.8 tokens and up, under one turn in 33). */
    double lo = 0, hi = 0, w[8];
    CHECK_OK(pe_yarn_correction_range(16, 10000.0, 33, 32, 1, 1, &lo, &hi));
    CHECK(lo == 0 && hi == 2);
    pe_rope_scaling ys = pe_rope_scaling_defaults(PE_SCALING_YARN, 16);
    ys.factor = 4;
    ys.original_max_position = 33;
    CHECK_OK(pe_freqs_from_scaling(&ys, f, w));
    CHECK(w[0] == 1 && w[1] == 0.5 && w[2] == 0 && w[7] == 0);
}

TEST(exp_t5_is_t5s_default_and_learned_follows_train_max) {
    ex_arch a;
    CHECK_OK(ex_arch_default(&a, EX_T5, 16));
    CHECK(a.t5_max_distance == 128 && a.t5_buckets == 32 && a.max_len == 33);
    CHECK_OK(ex_arch_default(&a, EX_T5, 4));
    CHECK(a.t5_max_distance == 128 && a.t5_buckets == 32 && a.max_len == 9);
    /* the buckets reach the test distances: the copy offsets n + 1 of
     * n = 16, 32, 64 (17, 33, 65) fall in distinct buckets */
    int64_t bk[3];
    CHECK_OK(pe_t5_buckets(-17, 1, 0, 32, 128, &bk[0]));
    CHECK_OK(pe_t5_buckets(-33, 1, 0, 32, 128, &bk[1]));
    CHECK_OK(pe_t5_buckets(-65, 1, 0, 32, 128, &bk[2]));
    CHECK(bk[0] < bk[1] && bk[1] < bk[2]);
    CHECK(ex_arch_init(&a, EX_NONE, 64, 3, 256, 3, 16) == PE_ERR_PARAM); /* 64 % 3 */
    CHECK(ex_arch_init(&a, EX_NONE, 64, 4, 256, 9, 16) == PE_ERR_PARAM); /* > 8 layers */
}

/* A small run through ex_run_all: two trained schemes (one with its
 * rescaled variants), two seeds, lengths past training. */
static ex_config tiny_config(int threads) {
    ex_config c;
    ex_config_default(&c);
    const int schemes[] = {EX_ROPE, EX_ROPE_YARN, EX_LEARNED};
    c.n_schemes = 3;
    memcpy(c.schemes, schemes, sizeof schemes);
    c.n_seeds = 2;
    c.steps = 12;
    c.batch = 8;
    c.train_max = 4;
    c.dim = 16, c.heads = 2, c.ffn = 32, c.layers = 2;
    c.n_lengths = 2;
    c.lengths[0] = 4, c.lengths[1] = 9;
    c.eval_examples = 20;
    c.threads = threads;
    return c;
}

static int same_results(const ex_results *a, const ex_results *b) {
    if (a->n_trained != b->n_trained) return 0;
    if (memcmp(a->curves, b->curves, sizeof(float) * (size_t)a->n_trained * a->cfg.steps)) return 0;
    for (int i = 0; i < a->cfg.n_schemes * a->cfg.n_seeds; i++) {
        const ex_run_result *x = &a->runs[i], *y = &b->runs[i];
        if (memcmp(&x->id, &y->id, sizeof x->id) || memcmp(x->at, y->at, sizeof x->at)) return 0;
    }
    return 1;
}

TEST(exp_runs_are_deterministic) {
    ex_config c = tiny_config(2);
    ex_results r1, r2, r3;
    CHECK_OK(ex_run_all(&c, NULL, NULL, &r1));
    CHECK_OK(ex_run_all(&c, NULL, NULL, &r2));
    CHECK_MSG(same_results(&r1, &r2), "same seeds and threads gave different numbers");
    /* Each job is single-threaded: the thread count changes nothing. */
    c.threads = 1;
    CHECK_OK(ex_run_all(&c, NULL, NULL, &r3));
    CHECK_MSG(same_results(&r1, &r3), "1 thread and 2 threads differ");
    /* Seeds do matter: seed 1 and seed 2 trained differently. */
    CHECK(memcmp(r1.curves, r1.curves + c.steps, sizeof(float) * c.steps) != 0);
    CHECK(r1.n_trained == 4); /* rope and learned, 2 seeds; rope-yarn reuses rope */
    /* rope-yarn at n = 4 (scale 1) is the RoPE model's own number; at
     * n = 9 (scale 2.25) it is a different evaluation of the same model. */
    const ex_run_result *rope = ex_result_at(&r1, 0, 0), *yarn = ex_result_at(&r1, 1, 0);
    CHECK(memcmp(&rope->at[0], &yarn->at[0], sizeof rope->at[0]) == 0);
    CHECK(memcmp(&rope->id, &yarn->id, sizeof rope->id) == 0);
    CHECK(rope->at[1].loss != yarn->at[1].loss);
    /* The learned model is evaluated past its table (clamped), not refused. */
    const ex_run_result *lr = ex_result_at(&r1, 2, 1);
    CHECK(lr->at[1].loss > 0 && isfinite(lr->at[1].loss));
    ex_results_free(&r1), ex_results_free(&r2), ex_results_free(&r3);
}

TEST(exp_config_errors_are_reported) {
    ex_config c;
    ex_config_default(&c);
    c.train_max = 1;
    ex_results r;
    CHECK(ex_run_all(&c, NULL, NULL, &r) == PE_ERR_PARAM);
    CHECK(strstr(r.error, "train-max") != NULL);
    ex_config_default(&c);
    c.lengths[0] = 5000;
    CHECK(ex_config_check(&c) != NULL);
    ex_config_quick(&c);
    /* the tour's run: several seeds, and the test lengths 1.5x and 2x its training length that its claims judge */
    CHECK(ex_config_check(&c) == NULL && c.n_seeds == 3 && c.quick);
    int onehalf = 0, twice = 0;
    for (int i = 0; i < c.n_lengths; i++) {
        onehalf += 2 * c.lengths[i] == 3 * c.train_max;
        twice += c.lengths[i] == 2 * c.train_max;
    }
    CHECK(onehalf == 1 && twice == 1);
}

TEST(exp_tiny_model_learns_copy) {
    /* Copy at n <= 4 with RoPE, D 32, 2 heads, FFN 64, 2 layers, 1000 steps
     * of 32 examples (about 3 s): the trainer must reach > 99% exact match
     * in distribution. Seeds 1-3 all reach 100% here (600 steps: 97-99%);
     * a broken gradient or optimizer stays near chance, 1/64 per token. */
    ex_train_spec s = {.task = EX_TASK_COPY, .seed = 1, .steps = 1000, .batch = 32, .train_max = 4};
    CHECK_OK(ex_arch_init(&s.arch, EX_ROPE, 32, 2, 64, 2, 4));
    s.opt = ex_adamw_defaults(s.steps);
    ex_net_f32 *net = NULL;
    ex_train_stats st;
    CHECK_OK(ex_train(&s, &net, &st, NULL));
    if (net == NULL) return;
    ex_eval_set set;
    CHECK_OK(ex_eval_set_make(&set, 0, 4, 500, 77));
    ex_metric m;
    CHECK_OK(ex_evaluate(net, EX_TASK_COPY, &set, NULL, 64, &m));
    CHECK_MSG(m.exact > 0.99, "exact match %.3f, token accuracy %.3f, loss %.4f", m.exact,
              m.token_acc, m.loss);
    CHECK_MSG(st.final_loss < 0.1, "final training loss %.4f (chance: ln 64 = 4.16)",
              st.final_loss);
    ex_eval_set_free(&set);
    ex_net_free_f32(net);
}
