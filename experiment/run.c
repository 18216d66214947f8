/* run.c — a whole experiment: configurations, the (scheme, seed) jobs on
 * worker threads, evaluation of every scheme, progress. */
#include "experiment.h"
#include "layers.h"
#include "matmul.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ex_config_default(ex_config *c) {
    memset(c, 0, sizeof *c);
    c->task = EX_TASK_COPY;
    for (int s = 0; s < EX_N_SCHEMES; s++) c->schemes[c->n_schemes++] = s;
    c->n_seeds = 3;
    c->steps = 2000;
    c->batch = 32;
    c->train_max = 16;
    const int lengths[] = {8, 16, 24, 32, 48, 64};
    for (int i = 0; i < 6; i++) c->lengths[c->n_lengths++] = lengths[i];
    c->eval_examples = 500;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c->threads = cpus < 1 ? 1 : cpus > 64 ? 64 : (int)cpus;
    c->lr = 3e-3;
    c->dim = 64;
    c->heads = 4;
    c->ffn = 256;
    c->layers = 3;
    c->set_seed = 20240512;
}

void ex_config_quick(ex_config *c) {
    ex_config_default(c);
    c->quick = 1;
    /* Four trained models x 3 seeds, so the tour can show the spread between
     * seeds, in about 5 CPU-minutes with the tour (docs/EXPERIMENT.md): the
     * design notes' claims (learned, sinusoidal, RoPE and its rescalings)
     * and ALiBi, trained on n <= TRAIN_MAX, tested at 1.5x, 2x and 4x.
     * TRAIN_MAX 12 rather than the default 16 pays for the seeds (a step
     * costs about the tokens of its batch: 14 a sequence on average, not
     * 18); at 8 the models learn but ALiBi's slowest slopes meet too few
     * distances to show anything (measured, docs/EXPERIMENT.md). */
    enum { TRAIN_MAX = 12 };
    c->n_seeds = 3;
    c->steps = 1500;
    c->train_max = TRAIN_MAX;
    const int schemes[] = {EX_SINUSOIDAL, EX_LEARNED, EX_ROPE, EX_ROPE_LINEAR, EX_ROPE_NTK,
                           EX_ROPE_YARN, EX_ALIBI};
    c->n_schemes = 0;
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        c->schemes[c->n_schemes++] = schemes[i];
    const int lengths[] = {TRAIN_MAX / 2, TRAIN_MAX, 3 * TRAIN_MAX / 2, 2 * TRAIN_MAX, 4 * TRAIN_MAX};
    c->n_lengths = 0;
    for (int i = 0; i < 5; i++) c->lengths[c->n_lengths++] = lengths[i];
    c->eval_examples = 200;
}

const char *ex_config_check(const ex_config *c) {
    if (c->n_schemes < 1 || c->n_schemes > EX_N_SCHEMES) return "no scheme to run";
    for (int i = 0; i < c->n_schemes; i++) {
        if ((unsigned)c->schemes[i] >= EX_N_SCHEMES) return "unknown scheme";
        for (int j = 0; j < i; j++)
            if (c->schemes[j] == c->schemes[i]) return "a scheme is listed twice";
    }
    if (c->n_seeds < 1 || c->n_seeds > EX_MAX_SEEDS) return "seeds must be in 1..32";
    if (c->steps < 1 || c->steps > 10000000) return "steps must be in 1..10000000";
    if (c->batch < 1 || c->batch > 4096) return "batch must be in 1..4096";
    if (c->train_max < 2 || c->train_max > 256) return "train-max must be in 2..256";
    if (c->n_lengths < 1 || c->n_lengths > EX_MAX_LENGTHS) return "1 to 16 test lengths";
    for (int i = 0; i < c->n_lengths; i++)
        if (c->lengths[i] < 1 || ex_seq_len(c->lengths[i]) > EX_MAX_TOKENS)
            return "test lengths must be in 1..1023";
    if (c->eval_examples < 1 || c->eval_examples > 100000) return "examples must be in 1..100000";
    if (c->threads < 1 || c->threads > 256) return "threads must be in 1..256";
    if (!(c->lr > 0 && c->lr < 1)) return "lr must be in (0, 1)";
    ex_arch a;
    if (ex_arch_init(&a, EX_NONE, c->dim, c->heads, c->ffn, c->layers, c->train_max))
        return "impossible model shape (dim a multiple of heads, even head size, <= 8 layers)";
    return NULL;
}

const ex_run_result *ex_result_at(const ex_results *r, int scheme_index, int seed_index) {
    return &r->runs[(size_t)scheme_index * r->cfg.n_seeds + seed_index];
}

void ex_results_free(ex_results *r) {
    free(r->runs);
    free(r->curves);
    free(r->curve_scheme);
    free(r->curve_seed);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------ the jobs */

typedef struct {
    const ex_config *c;
    ex_results *res;
    int *job_scheme;           /* trained scheme of each job */
    int *job_seed;             /* seed index */
    int n_jobs, next_job, jobs_done;
    ex_eval_set id_set, sets[EX_MAX_LENGTHS];
    pthread_mutex_t lock;
    ex_progress_fn progress;
    void *ctx;
    double t0, last_report, work_done, work_total, eval_units;
    int status;
    char error[256];
} shared_state;

typedef struct {
    shared_state *sh;
    int scheme, seed;
} worker_ctx;

static void report_locked(shared_state *sh, const char *scheme, int seed, int step, double loss,
                          int force) {
    if (sh->progress == NULL) return;
    const double now = ex_now();
    if (!force && now - sh->last_report < 0.2) return;
    sh->last_report = now;
    const ex_progress p = {scheme, seed, step, sh->c->steps, loss, sh->work_done, sh->work_total,
                           now - sh->t0, sh->jobs_done, sh->n_jobs};
    sh->progress(sh->ctx, &p);
}

static void on_step(void *ctx, int step, double loss) {
    worker_ctx *w = ctx;
    pthread_mutex_lock(&w->sh->lock);
    w->sh->work_done += 1;
    report_locked(w->sh, ex_scheme_name(w->scheme), w->seed, step, loss, 0);
    pthread_mutex_unlock(&w->sh->lock);
}

/* Train one (scheme, seed) and evaluate it and every listed scheme that
 * reuses it. */
static int run_job(shared_state *sh, int job) {
    const ex_config *c = sh->c;
    ex_results *res = sh->res;
    const int trained = sh->job_scheme[job], si = sh->job_seed[job], seed = si + 1;
    worker_ctx w = {sh, trained, seed};
    ex_train_spec spec = {.task = c->task, .seed = (uint64_t)seed, .steps = c->steps,
                          .batch = c->batch, .train_max = c->train_max, .on_step = on_step,
                          .ctx = &w};
    int st = ex_arch_init(&spec.arch, trained, c->dim, c->heads, c->ffn, c->layers, c->train_max);
    if (st) return st;
    spec.opt = ex_adamw_defaults(c->steps);
    spec.opt.lr = c->lr;
    ex_net_f32 *net = NULL;
    ex_train_stats ts;
    st = ex_train(&spec, &net, &ts, res->curves + (size_t)job * c->steps);
    if (st) return st;

    pthread_mutex_lock(&sh->lock);
    report_locked(sh, ex_scheme_name(trained), seed, c->steps, NAN, 1); /* evaluating */
    pthread_mutex_unlock(&sh->lock);
    const double t0 = ex_now();
    ex_metric id, at[EX_MAX_LENGTHS];
    st = ex_evaluate(net, c->task, &sh->id_set, NULL, c->batch, &id);
    for (int L = 0; !st && L < c->n_lengths; L++)
        st = ex_evaluate(net, c->task, &sh->sets[L], NULL, c->batch, &at[L]);
    pe_freqs *f = malloc(sizeof *f);
    if (!st && f == NULL) st = PE_ERR_NOMEM;
    for (int i = 0; !st && i < c->n_schemes; i++) {
        if ((int)ex_scheme_trained(c->schemes[i]) != trained) continue;
        ex_run_result *r = &res->runs[(size_t)i * c->n_seeds + si];
        r->scheme = c->schemes[i];
        r->seed = seed;
        r->id = id;
        r->learned = id.exact >= EX_LEARNED_THRESHOLD;
        r->final_loss = ts.final_loss;
        r->train_seconds = ts.seconds;
        r->train_tokens = ts.tokens;
        for (int L = 0; !st && L < c->n_lengths; L++) {
            r->at[L] = at[L];
            if (c->schemes[i] == trained) continue; /* the model itself */
            /* A rescaled RoPE: new frequencies, same weights. Where the
             * scale is 1 the generator returns the default frequencies bit
             * for bit, and the trained model's numbers stand. */
            const int n = c->lengths[L];
            st = ex_rope_freqs(&spec.arch, c->schemes[i], n, c->train_max, ex_seq_len(n), f);
            if (!st && memcmp(f, net->rope, sizeof *f) != 0)
                st = ex_evaluate(net, c->task, &sh->sets[L], f, c->batch, &r->at[L]);
        }
    }
    free(f);
    const double eval_s = ex_now() - t0;
    for (int i = 0; i < c->n_schemes; i++)
        if ((int)ex_scheme_trained(c->schemes[i]) == trained)
            res->runs[(size_t)i * c->n_seeds + si].eval_seconds = eval_s;
    ex_net_free_f32(net);
    return st;
}

static void *worker(void *arg) {
    shared_state *sh = arg;
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        const int job = sh->status ? sh->n_jobs : sh->next_job++;
        pthread_mutex_unlock(&sh->lock);
        if (job >= sh->n_jobs) return NULL;
        const int st = run_job(sh, job);
        pthread_mutex_lock(&sh->lock);
        if (st && !sh->status) {
            /* pe_last_error() is per thread: keep this worker's detail. */
            sh->status = st;
            snprintf(sh->error, sizeof sh->error, "%s seed %d: %s",
                     ex_scheme_name(sh->job_scheme[job]), sh->job_seed[job] + 1,
                     st == PE_ERR_NOMEM ? "out of memory" : pe_last_error());
        }
        sh->jobs_done++;
        sh->work_done += sh->eval_units;
        report_locked(sh, ex_scheme_name(sh->job_scheme[job]), sh->job_seed[job] + 1,
                      sh->c->steps, NAN, 0);
        pthread_mutex_unlock(&sh->lock);
    }
}

int ex_run_all(const ex_config *c, ex_progress_fn progress, void *ctx, ex_results *out) {
    memset(out, 0, sizeof *out);
    const char *why = ex_config_check(c);
    if (why) {
        snprintf(out->error, sizeof out->error, "%s", why);
        return PE_ERR_PARAM;
    }
    out->cfg = *c;
    shared_state sh = {.c = c, .res = out, .progress = progress, .ctx = ctx};
    int trained[EX_N_SCHEMES], n_trained = 0;
    for (int i = 0; i < c->n_schemes; i++) {
        const int t = ex_scheme_trained(c->schemes[i]);
        int seen = 0;
        for (int j = 0; j < n_trained; j++) seen |= trained[j] == t;
        if (!seen) trained[n_trained++] = t;
    }
    sh.n_jobs = n_trained * c->n_seeds;
    out->n_trained = sh.n_jobs;
    out->runs = calloc((size_t)c->n_schemes * c->n_seeds, sizeof *out->runs);
    out->curves = calloc((size_t)sh.n_jobs * c->steps, sizeof(float));
    out->curve_scheme = malloc(sizeof(int) * (size_t)sh.n_jobs);
    out->curve_seed = malloc(sizeof(int) * (size_t)sh.n_jobs);
    sh.job_scheme = out->curve_scheme;
    sh.job_seed = malloc(sizeof(int) * (size_t)sh.n_jobs);
    int st = 0;
    if (!out->runs || !out->curves || !out->curve_scheme || !out->curve_seed || !sh.job_seed)
        st = PE_ERR_NOMEM;
    for (int j = 0; !st && j < sh.n_jobs; j++) {
        sh.job_scheme[j] = trained[j / c->n_seeds]; /* seeds of a scheme side by side */
        sh.job_seed[j] = j % c->n_seeds;
        out->curve_seed[j] = j % c->n_seeds + 1;
    }
    /* The fixed evaluation sets, shared read-only by every job. */
    if (!st) st = ex_eval_set_make(&sh.id_set, 0, c->train_max, c->eval_examples, c->set_seed);
    for (int L = 0; !st && L < c->n_lengths; L++)
        st = ex_eval_set_make(&sh.sets[L], c->lengths[L], c->train_max, c->eval_examples,
                              c->set_seed);
    /* Progress units: a training step; evaluating is forward only over
     * the sets' tokens, about a third of a training token each. */
    double eval_tokens = (double)c->eval_examples * (c->train_max + 2);
    for (int L = 0; L < c->n_lengths; L++) eval_tokens += (double)c->eval_examples * ex_seq_len(c->lengths[L]);
    sh.eval_units = eval_tokens / (3.0 * c->batch * (c->train_max + 2));
    sh.work_total = sh.n_jobs * (c->steps + sh.eval_units);

    const int threads = c->threads < sh.n_jobs ? c->threads : sh.n_jobs;
    out->threads_used = threads;
    /* libposenc's kernel sets agree within documented bounds, not to the
     * bit, and training turns a last-bit difference in RoPE into other
     * weights and another table. The trainer therefore runs the scalar
     * reference set, the same on every CPU (together with matmul.c's fixed
     * order this makes a run's numbers independent of the machine), and
     * gives the process its own set back at the end. */
    char kernels_before[16];
    snprintf(kernels_before, sizeof kernels_before, "%s", pe_kernels_name());
    if (!st) st = pe_kernels_select("scalar");
    snprintf(out->kernels, sizeof out->kernels, "%s", pe_kernels_name());
    snprintf(out->matmul, sizeof out->matmul, "%s", ex_matmul_path());
    pthread_t tid[256];
    int started = 0;
    if (!st && pthread_mutex_init(&sh.lock, NULL) != 0) st = PE_ERR_NOMEM;
    else if (!st) {
        sh.t0 = sh.last_report = ex_now();
        for (; started < threads; started++)
            if (pthread_create(&tid[started], NULL, worker, &sh) != 0) break;
        if (started == 0) worker(&sh); /* no thread at all: run here */
        for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
        out->wall_seconds = ex_now() - sh.t0;
        st = sh.status;
        report_locked(&sh, NULL, 0, 0, NAN, 1);
        pthread_mutex_destroy(&sh.lock);
    }
    pe_kernels_select(kernels_before);
    ex_eval_set_free(&sh.id_set);
    for (int L = 0; L < c->n_lengths; L++) ex_eval_set_free(&sh.sets[L]);
    free(sh.job_seed);
    if (!st) {
        double tok = 0, sec = 0;
        for (int i = 0; i < c->n_schemes; i++)
            for (int s = 0; s < c->n_seeds; s++) {
                const ex_run_result *r = ex_result_at(out, i, s);
                if (ex_scheme_trained(r->scheme) != r->scheme) continue; /* counted once */
                tok += (double)r->train_tokens;
                sec += r->train_seconds;
            }
        out->train_tokens_per_s = sec > 0 ? tok / sec : 0;
    }
    if (st) {
        char keep[sizeof out->error];
        snprintf(keep, sizeof keep, "%s", sh.error[0] ? sh.error : "out of memory");
        ex_results_free(out);
        memcpy(out->error, keep, sizeof keep);
    }
    return st;
}

/* --------------------------------------------------------------- stats */

ex_stat ex_stat_of(const ex_results *r, int scheme_index, int length_index, ex_metric_kind k) {
    ex_stat s = {0, 0, INFINITY, -INFINITY, r->cfg.n_seeds};
    double v[EX_MAX_SEEDS];
    for (int i = 0; i < s.n; i++) {
        const ex_run_result *x = ex_result_at(r, scheme_index, i);
        const ex_metric *m = length_index < 0 ? &x->id : &x->at[length_index];
        v[i] = k == EX_EXACT ? m->exact : k == EX_TOKEN_ACC ? m->token_acc : m->loss;
        s.mean += v[i];
        s.min = fmin(s.min, v[i]);
        s.max = fmax(s.max, v[i]);
    }
    s.mean /= s.n;
    double ss = 0;
    for (int i = 0; i < s.n; i++) ss += (v[i] - s.mean) * (v[i] - s.mean);
    s.std = s.n > 1 ? sqrt(ss / (s.n - 1)) : 0;
    return s;
}

int ex_learned_count(const ex_results *r, int scheme_index) {
    int n = 0;
    for (int i = 0; i < r->cfg.n_seeds; i++) n += ex_result_at(r, scheme_index, i)->learned;
    return n;
}
