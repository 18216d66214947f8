/*
 * experiment.h — `posenc experiment`: train tiny transformers on short
 * copy/reverse examples and measure how each position scheme does on longer
 * ones. What the CLI, the tour and the bench see of experiment/.
 *
 * A run trains every scheme of the list once per seed (the rope-* entries
 * reuse the trained RoPE models: inference-only rescaling), evaluates each
 * on a fixed in-distribution set (lengths 1..train_max) and on fixed sets of
 * each test length, and aggregates over seeds. Jobs (scheme, seed) run in
 * parallel on `threads` threads; each job is single-threaded and
 * deterministic, so results do not depend on the thread count.
 * docs/EXPERIMENT.md describes the model and how to read the table.
 */
#ifndef PE_EXPERIMENT_H
#define PE_EXPERIMENT_H

#include "model.h"
#include "train.h"

#include <stdio.h>

enum { EX_MAX_LENGTHS = 16, EX_MAX_SEEDS = 32 };

/* A run is flagged "did not learn" below this in-distribution exact match. */
#define EX_LEARNED_THRESHOLD 0.95

typedef struct {
    ex_task task;
    int schemes[EX_N_SCHEMES]; /* ex_scheme values, in report order */
    int n_schemes;
    int n_seeds;               /* seeds 1..n_seeds */
    int steps, batch, train_max;
    int lengths[EX_MAX_LENGTHS]; /* test lengths, in symbols */
    int n_lengths;
    int eval_examples;         /* per test length (and in distribution) */
    int threads;               /* worker threads over (scheme, seed) jobs */
    double lr;
    int dim, heads, ffn, layers;
    uint64_t set_seed;         /* the fixed evaluation sets */
    int quick;                 /* made by ex_config_quick (reported) */
} ex_config;

/* The default run: copy, every scheme, 3 seeds, 2000 steps, batch 32,
 * train_max 16, lengths 8 16 24 32 48 64, 500 examples each, threads = the
 * online CPUs, lr 3e-3, D 64, 4 heads, FFN 256, 3 layers. */
void ex_config_default(ex_config *c);
/* --quick: 1 seed, 1500 steps, sinusoidal, learned, rope (and its linear,
 * NTK and YaRN rescalings) and alibi, lengths 8 16 32 64, 200 examples. */
void ex_config_quick(ex_config *c);
/* NULL if c can run, else a sentence saying what is wrong. */
const char *ex_config_check(const ex_config *c);

typedef struct {
    ex_scheme scheme;
    int seed;
    ex_metric id;                    /* in distribution: n uniform in 1..train_max */
    ex_metric at[EX_MAX_LENGTHS];    /* per test length */
    int learned;                     /* id.exact >= EX_LEARNED_THRESHOLD */
    double final_loss;               /* training loss at the end */
    double train_seconds, eval_seconds;
    long train_tokens;
} ex_run_result;

typedef struct {
    ex_config cfg;
    ex_run_result *runs;   /* n_schemes x n_seeds, scheme-major */
    int n_trained;         /* training jobs (distinct trained schemes x seeds) */
    float *curves;         /* n_trained x steps training losses */
    int *curve_scheme, *curve_seed; /* (n_trained) what each curve is */
    double wall_seconds;
    double train_tokens_per_s; /* per thread: all training tokens / all training time */
    double threads_used;
    char kernels[16];          /* libposenc kernel set the run used ("scalar") */
    char matmul[16];           /* ex_matmul_path(): code path of the matrix products */
    char error[256];           /* on failure: what went wrong (the rest is freed) */
} ex_results;

/* Progress reporting: called from the workers under a lock, at most every
 * 0.2 s and once at the end (done == total). NULL: quiet. */
typedef struct {
    const char *scheme;   /* what a worker is on ("rope"), NULL at the end */
    int seed, step, steps;
    double loss;
    double done, total;   /* work units (training steps + evaluation) */
    double elapsed;       /* seconds since the start */
    int jobs_done, jobs;
} ex_progress;
typedef void (*ex_progress_fn)(void *ctx, const ex_progress *p);

/* Returns 0, or a pe_status with out->error saying what failed (the library's
 * detail when a library call did) and nothing else to free. Selects
 * libposenc's scalar kernel set for the process while it runs (the same
 * bits on every CPU) and restores the one before: do not run it beside
 * other library work that must keep its own kernel set. */
int ex_run_all(const ex_config *c, ex_progress_fn progress, void *ctx, ex_results *out);
void ex_results_free(ex_results *r);
const ex_run_result *ex_result_at(const ex_results *r, int scheme_index, int seed_index);

/* A progress bar on f (a terminal): "[rope s2] step 1200/2000 loss 0.041
 * | 5/27 jobs | 3m12s, ETA 6m40s", redrawn in place, cleared at the end. */
void ex_progress_bar(void *f, const ex_progress *p);

/* Mean, sample standard deviation, min and max of one metric over seeds. */
typedef struct {
    double mean, std, min, max;
    int n;
} ex_stat;
typedef enum { EX_EXACT = 0, EX_TOKEN_ACC = 1, EX_LOSS = 2 } ex_metric_kind;
/* length_index -1 is the in-distribution set. */
ex_stat ex_stat_of(const ex_results *r, int scheme_index, int length_index, ex_metric_kind k);
/* Seeds of scheme_index that reached EX_LEARNED_THRESHOLD. */
int ex_learned_count(const ex_results *r, int scheme_index);

/* Reports (report.c). machine: a line naming the CPU, or NULL. */
void ex_print_table(FILE *f, const ex_results *r, const char *machine);
void ex_print_csv(FILE *f, const ex_results *r);
void ex_print_json(FILE *f, const ex_results *r, const char *machine);
/* step, then one column per training job ("rope/1"). */
void ex_print_curves_csv(FILE *f, const ex_results *r);
/* "Intel(R) Xeon(R) ... , 2 CPUs" from /proc/cpuinfo; "" if unknown. */
void ex_machine_name(char *buf, size_t len);

/* For `posenc bench`: tokens per second of one training step (forward,
 * backward, AdamW) and of the forward pass alone, default model (RoPE),
 * default batch, single thread, after a warm-up; `steps` timed steps each. */
int ex_bench_train_step(int steps, double *train_tokens_per_s, double *forward_tokens_per_s);

#endif
