/*
 * test_threads.c — thread safety: every public function, called from 8
 * threads at once on shared read-only inputs, gives bit for bit the result
 * it gives on one thread, and each thread's pe_last_error() is its own.
 * `make tsan` runs this under ThreadSanitizer, which turns any data race
 * behind those results (a lazily initialised table, a static scratch
 * buffer) into a failure even when the numbers happen to agree.
 *
 * Functions that change state the caller owns (pe_learned_sgd_step, the
 * writers) run on per-thread objects and files, built identically, so their
 * results must agree too. pe_kernels_select is left out on purpose: it
 * changes the process-wide kernel set and is documented as a tool for tests
 * and benchmarks, not something to call while other threads compute.
 */
#include "runner.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N_THREADS 8
#define ROUNDS 2 /* each thread runs the whole list twice: state must not leak */

/* Results of one run: a hash of each function's outputs, by slot. */
enum { MAX_SLOTS = 96 };
typedef struct {
    uint64_t h[MAX_SLOTS];
    const char *name[MAX_SLOTS];
    int n;
    int errors_own; /* every error detail named this thread's own value */
    int io_ok;      /* every file round trip worked */
} run_result;

/* Read-only inputs every thread shares, built once before any thread. */
enum { T = 24, H = 3, D = 32, NQ = 6, NK = 9, LMAX = 40, LD = 16 };
static struct {
    pe_freqs freqs, yarn;
    float x[T * H * D], q[NQ * D], k[NK * D], v[NK * D], kv[T * 2 * D];
    float grad[T * LD], table5[5 * 32];
    int64_t ids[T], ids3[T * 3];
    double Q[LD * LD], K[LD * LD], vec[D], vec2[D], emb[4 * LD];
    pe_learned *table;
    unsigned char npy_image[512];
    size_t npy_len;
    unsigned char *st_image;
    size_t st_len;
    char dir[64];
    const char *config;
} S;

static uint64_t fnv(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* Record a slot: the status folded into the hash of the outputs. */
static void put(run_result *r, const char *name, int status, const void *p, size_t n) {
    if (r->n >= MAX_SLOTS) abort(); /* raise MAX_SLOTS */
    r->name[r->n] = name;
    r->h[r->n++] = fnv(p, n) ^ (uint64_t)(int64_t)status;
}

/* An error whose detail must carry this thread's value: another thread's
 * failure between the call and the check would show up here. */
static void own_error(run_result *r, int tid) {
    const int64_t bad = 1001 + 2 * (int64_t)tid; /* odd: always rejected */
    pe_freqs f;
    char want[32];
    snprintf(want, sizeof want, "rotary_dim=%lld", (long long)bad);
    if (pe_freqs_default(bad, 10000.0, &f) != PE_ERR_DIM) r->errors_own = 0;
    for (int spin = 0; spin < 50; spin++) sched_yield(); /* let others fail too */
    if (strstr(pe_last_error(), want) == NULL) r->errors_own = 0;
}

static void run_additive_and_learned(run_result *r, int tid) {
    static const pe_additive_scheme schemes[4] = {PE_ADD_RAW, PE_ADD_NORMALIZED,
                                                  PE_ADD_BINARY, PE_ADD_SINUSOIDAL};
    double out[T * D], m[D * D], w = 0;
    pe_positions pos = pe_positions_list(S.ids);
    for (int s = 0; s < 4; s++) {
        pe_additive_params p = pe_additive_defaults(schemes[s], D);
        p.length = 1 << 20;
        put(r, "pe_additive_encode", pe_additive_encode(&p, &pos, T, out, PE_F64), out,
            sizeof out);
    }
    pe_additive_params sp = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    put(r, "pe_sinusoidal_frequency", pe_sinusoidal_frequency(&sp, 5, &w), &w, sizeof w);
    put(r, "pe_shift_matrix", pe_shift_matrix(&sp, 123456789, m), m, sizeof m);
    memcpy(m, S.vec, sizeof S.vec);
    put(r, "pe_shift_apply", pe_shift_apply(&sp, -77, m, m), m, sizeof S.vec);
    put(r, "pe_binary_nbits", 0, &(int64_t){pe_binary_nbits(1000)}, sizeof(int64_t));
    own_error(r, tid);

    float fo[T * LD], gt[LMAX * LD];
    int64_t lpos[T];
    for (int t = 0; t < T; t++) lpos[t] = S.ids[t] % LMAX;
    put(r, "pe_learned_forward", pe_learned_forward(S.table, lpos, T, fo), fo, sizeof fo);
    memset(gt, 0, sizeof gt);
    put(r, "pe_learned_backward", pe_learned_backward(S.table, lpos, T, S.grad, gt), gt,
        sizeof gt);
    /* sgd_step mutates: a private table from the same seed */
    pe_learned *mine = NULL;
    int st = pe_learned_create(LMAX, LD, 42, &mine);
    if (st == PE_OK) st = pe_learned_sgd_step(mine, gt, 0.5f);
    put(r, "pe_learned_sgd_step", st, pe_learned_weights_const(mine),
        mine ? sizeof(float) * LMAX * LD : 0);
    int64_t shape[2] = {pe_learned_max_len(mine), pe_learned_dim(mine)};
    put(r, "pe_learned_max_len/dim", 0, shape, sizeof shape);
    char path[128];
    snprintf(path, sizeof path, "%s/learned_%d.npy", S.dir, tid);
    pe_learned *back = NULL;
    st = pe_learned_save(mine, path);
    if (st == PE_OK) st = pe_learned_load(path, &back);
    if (st != PE_OK) r->io_ok = 0;
    put(r, "pe_learned_save/load", st, pe_learned_weights(back),
        back ? sizeof(float) * LMAX * LD : 0);
    pe_learned_free(back);
    pe_learned_free(mine);
}

static void run_rope(run_result *r, int tid) {
    float y[T * H * D], y2[T * H * D];
    pe_positions pos = pe_positions_list(S.ids);
    pe_tensor in = pe_tensor_dense(S.x, PE_F32, T, H, D);
    pe_tensor out = pe_tensor_dense(y, PE_F32, T, H, D);
    for (int layout = 0; layout < 2; layout++)
        for (int dir = 0; dir < 3; dir++)
            put(r, "pe_rope_apply",
                pe_rope_apply(&S.yarn, (pe_rope_layout)layout, &pos, &in, &out,
                              (pe_rope_direction)dir),
                y, sizeof y);
    { /* pe_check_rotation: the yarn rotation judged against the plain frequencies */
        pe_check_expect ex;
        pe_check_report *rep = malloc(sizeof *rep);
        int st = pe_check_expect_from_freqs(&S.freqs, PE_ROPE_HALF, &ex);
        pe_rope_apply(&S.yarn, PE_ROPE_HALF, &pos, &in, &out, PE_ROPE_FORWARD);
        if (st == PE_OK && rep != NULL) st = pe_check_rotation(&ex, &pos, NULL, &in, &out, rep);
        double summary[2 + 2 * PE_DIAG_COUNT] = {0};
        if (st == PE_OK && rep != NULL) {
            summary[0] = rep->max_abs_err;
            summary[1] = rep->n_diagnoses;
            for (int k = 0; k < rep->n_diagnoses; k++) {
                summary[2 + 2 * k] = rep->diagnoses[k].name;
                summary[3 + 2 * k] = rep->diagnoses[k].residual;
            }
        }
        put(r, "pe_check_rotation", st, summary, sizeof summary);
        free(rep);
    }
    /* nested threads: a rotation that starts its own */
    pe_rope_options opt = pe_rope_options_default();
    opt.threads = 3;
    put(r, "pe_rope_apply_ex", pe_rope_apply_ex(&S.freqs, PE_ROPE_HALF, &pos, &in, &out,
                                                PE_ROPE_FORWARD, &opt),
        y, sizeof y);
    pe_tensor kin = pe_tensor_dense(S.kv, PE_F32, T, 2, D);
    pe_tensor kout = pe_tensor_dense(y2, PE_F32, T, 2, D);
    put(r, "pe_rope_apply_qk", pe_rope_apply_qk(&S.freqs, PE_ROPE_INTERLEAVED, &pos, &in,
                                                &out, &kin, &kout, PE_ROPE_FORWARD, &opt),
        y, sizeof y);
    put(r, "pe_rope_apply_qk(k)", 0, y2, sizeof(float) * T * 2 * D);
    double c[T * D / 2], s[T * D / 2];
    put(r, "pe_rope_cos_sin", pe_rope_cos_sin(&S.freqs, &pos, T, c, s, PE_F64), c, sizeof c);
    put(r, "pe_rope_cos_sin(sin)", 0, s, sizeof s);
    put(r, "pe_rope_cos_sin_ex", pe_rope_cos_sin_ex(&S.yarn, &pos, T, c, s, PE_F64, &opt),
        s, sizeof s);
    int64_t perm[D];
    put(r, "pe_rope_layout_permutation", pe_rope_layout_permutation(D, 24, perm), perm,
        sizeof perm);
    const int64_t secs[3] = {6, 5, 5};
    int axes[D / 2];
    put(r, "pe_mrope_slot_axes", pe_mrope_slot_axes(D, secs, PE_MROPE_INTERLEAVED, axes),
        axes, sizeof axes);
    put(r, "pe_mrope_apply", pe_mrope_apply(&S.freqs, PE_ROPE_HALF, S.ids3, secs,
                                            PE_MROPE_BLOCKED, &in, &out, PE_ROPE_INVERSE),
        y, sizeof y);
    put(r, "pe_mrope_cos_sin", pe_mrope_cos_sin(&S.freqs, S.ids3, T, secs,
                                                PE_MROPE_INTERLEAVED, c, s, PE_F64),
        c, sizeof c);
    float ao[NQ * D];
    pe_attention_params ap = pe_attention_params_default(NQ, NK, D, D);
    ap.causal = 1;
    put(r, "pe_attention", pe_attention(&ap, S.q, S.k, S.v, ao), ao, sizeof ao);
    pe_positions qp = pe_positions_range(1000 + NK - NQ), kp = pe_positions_range(1000);
    put(r, "pe_attention_rope", pe_attention_rope(&ap, &S.yarn, PE_ROPE_HALF, &qp, &kp, S.q,
                                                  S.k, S.v, ao),
        ao, sizeof ao);
    own_error(r, tid);
}

static void run_scaling_and_bias(run_result *r, int tid) {
    double shorts[D / 2], longs[D / 2];
    for (int i = 0; i < D / 2; i++) {
        shorts[i] = 1.0 + 0.1 * i;
        longs[i] = 2.0 + 0.5 * i;
    }
    pe_freqs f;
    double weight[PE_MAX_PAIRS], lo = 0, hi = 0; /* the config has its own D */
    for (int t = 0; t < pe_scaling_count(); t++) { /* every row of PE_SCALING_MAP */
        memset(&f, 0, sizeof f); /* hashed whole: no stale bytes */
        pe_rope_scaling s = pe_rope_scaling_defaults((pe_scaling_type)t, D);
        s.factor = 4;
        s.original_max_position = 2048;
        s.max_position = 8192;
        s.seq_len = 5000;
        s.short_factor = shorts;
        s.long_factor = longs;
        s.n_short_factor = s.n_long_factor = D / 2;
        s.divisors = longs;
        s.n_divisors = D / 2;
        put(r, "pe_freqs_from_scaling", pe_freqs_from_scaling(&s, &f, weight), &f,
            sizeof f);
        put(r, "pe_scaling_name", 0, pe_scaling_name((pe_scaling_type)t),
            strlen(pe_scaling_name((pe_scaling_type)t)));
    }
    pe_scaling_type ty = PE_SCALING_DEFAULT;
    put(r, "pe_scaling_from_name", pe_scaling_from_name("su", &ty), &ty, sizeof ty);
    put(r, "pe_yarn_correction_range",
        pe_yarn_correction_range(128, 1e4, 2048, 32, 1, 1, &lo, &hi), &hi, sizeof hi);
    put(r, "pe_freqs_validate", pe_freqs_validate(&S.yarn), NULL, 0);
    pe_rope_config *cfg = calloc(1, sizeof *cfg); /* ~70 KB: not on the stack */
    if (cfg == NULL) abort();
    put(r, "pe_config_parse", pe_config_parse(S.config, strlen(S.config), cfg), cfg,
        sizeof *cfg);
    pe_rope_scaling cs;
    put(r, "pe_config_scaling", pe_config_scaling(cfg, 70000, &cs), &cs.factor,
        sizeof cs.factor);
    memset(&f, 0, sizeof f);
    put(r, "pe_config_freqs", pe_config_freqs(cfg, 70000, &f, weight), &f, sizeof f);
    char path[128];
    snprintf(path, sizeof path, "%s/config_%d.json", S.dir, tid);
    FILE *fp = fopen(path, "w");
    if (fp == NULL || fputs(S.config, fp) == EOF) r->io_ok = 0;
    if (fp != NULL && fclose(fp) != 0) r->io_ok = 0;
    memset(cfg, 0, sizeof *cfg);
    put(r, "pe_config_read", pe_config_read(path, cfg), cfg, sizeof *cfg);
    free(cfg);

    double slopes[12];
    put(r, "pe_alibi_slopes", pe_alibi_slopes(12, slopes), slopes, sizeof slopes);
    float bias[3 * NQ * NK];
    put(r, "pe_alibi_bias", pe_alibi_bias(3, NQ, NK, PE_ALIBI_CAUSAL, bias, PE_F32), bias,
        sizeof bias);
    int64_t b1 = 0, bs[64];
    put(r, "pe_t5_bucket", pe_t5_bucket(-64, 1, 32, 128, &b1), &b1, sizeof b1);
    put(r, "pe_t5_buckets", pe_t5_buckets(-32, 64, 0, 32, 128, bs), bs, sizeof bs);
    float bias5[5 * NQ * NK];
    put(r, "pe_t5_bias", pe_t5_bias(S.table5, PE_T5_TABLE_BUCKET_MAJOR, 5, 1, 32, 128, NQ,
                                    NK, bias5),
        bias5, sizeof bias5);
    own_error(r, tid);
}

static void run_analysis(run_result *r, int tid) {
    (void)tid;
    pe_logit_terms lt;
    put(r, "pe_logit_terms_compute",
        pe_logit_terms_compute(LD, S.Q, S.K, S.emb, S.emb + LD, S.emb + 2 * LD,
                               S.emb + 3 * LD, &lt),
        &lt, sizeof lt);
    pe_toy_report toy;
    memset(&toy, 0, sizeof toy);
    const int64_t kpos[3] = {0, 1, 2};
    put(r, "pe_toy_analyze",
        pe_toy_analyze(LD, S.Q, S.K, S.emb, 7, S.emb + LD, kpos, 3, 1e-9, &toy), &toy,
        sizeof toy);
    const int64_t lens[4] = {3, 5, 10, 100};
    double vals[4], sp[4];
    put(r, "pe_normalized_inconsistency", pe_normalized_inconsistency(2, lens, 4, vals, sp),
        vals, sizeof vals);
    int64_t dist[64];
    pe_hamming_report hr;
    memset(&hr, 0, sizeof hr);
    put(r, "pe_binary_hamming", pe_binary_hamming(0, 64, dist, &hr), dist, sizeof dist);
    double wl[D / 2], fl[D / 2], ph[D / 2], tu[D / 2];
    put(r, "pe_pair_periods", pe_pair_periods(&S.freqs, 32000, wl, fl, ph, tu), ph,
        sizeof ph);
    int64_t offs[5], found = 0;
    double dd[5];
    put(r, "pe_near_collisions",
        pe_near_collisions(&S.freqs, 10, 3000, 5, offs, dd, &found), offs, sizeof offs);
    const int64_t ko[5] = {-3, -1, 0, 1, 3};
    double sc[5];
    put(r, "pe_rope_score_curve",
        pe_rope_score_curve(&S.freqs, PE_ROPE_INTERLEAVED, D, S.vec, S.vec2, 100, ko, 5, sc),
        sc, sizeof sc);
    double sim[8 * 8];
    pe_positions pos = pe_positions_range(-3);
    pe_additive_params sp2 = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    put(r, "pe_similarity_additive", pe_similarity_additive(&sp2, &pos, 8, sim), sim,
        sizeof sim);
    put(r, "pe_similarity_rope",
        pe_similarity_rope(&S.freqs, PE_ROPE_HALF, D, S.vec, S.vec2, &pos, 8, sim), sim,
        sizeof sim);
}

static void run_io(run_result *r, int tid) {
    pe_npy_array a;
    int st = pe_npy_parse(S.npy_image, S.npy_len, &a);
    put(r, "pe_npy_parse", st, st == PE_OK ? a.data : NULL, st == PE_OK ? a.nbytes : 0);
    char path[128];
    snprintf(path, sizeof path, "%s/x_%d.npy", S.dir, tid);
    if (st == PE_OK) {
        int st2 = pe_npy_write(path, a.dtype, a.ndim, a.shape, a.data);
        pe_npy_free(&a);
        if (st2 != PE_OK) r->io_ok = 0;
        st = pe_npy_read(path, &a);
        put(r, "pe_npy_write/read", st, st == PE_OK ? a.data : NULL,
            st == PE_OK ? a.nbytes : 0);
        if (st == PE_OK) pe_npy_free(&a);
    }
    pe_safetensors *stf = NULL;
    st = pe_safetensors_parse(S.st_image, S.st_len, &stf);
    pe_st_tensor tn;
    memset(&tn, 0, sizeof tn);
    int64_t cnt = pe_safetensors_count(stf);
    int st2 = st == PE_OK ? pe_safetensors_find(stf, "k", &tn) : st;
    put(r, "pe_safetensors_parse/find", st2, tn.data, tn.data ? tn.nbytes : 0);
    const char *key = NULL, *val = NULL;
    if (st == PE_OK) st2 = pe_safetensors_metadata_at(stf, 0, &key, &val);
    put(r, "pe_safetensors_metadata", st2, val, val ? strlen(val) : 0);
    put(r, "pe_safetensors_count", 0, &cnt, sizeof cnt);
    const char *fmt = stf ? pe_safetensors_metadata_get(stf, "format") : NULL;
    const int64_t n_meta = pe_safetensors_metadata_count(stf);
    put(r, "pe_safetensors_metadata_get/count", (int)n_meta, fmt, fmt ? strlen(fmt) : 0);
    snprintf(path, sizeof path, "%s/w_%d.safetensors", S.dir, tid);
    if (st == PE_OK && pe_safetensors_get(stf, 0, &tn) == PE_OK) {
        const char *meta[] = {"format", "pt", NULL};
        st2 = pe_safetensors_write(path, &tn, 1, meta);
        pe_safetensors *back = NULL;
        if (st2 == PE_OK) st2 = pe_safetensors_read(path, &back);
        pe_st_tensor bt;
        memset(&bt, 0, sizeof bt);
        if (st2 == PE_OK) st2 = pe_safetensors_get(back, 0, &bt);
        if (st2 != PE_OK) r->io_ok = 0;
        put(r, "pe_safetensors_write/read", st2, bt.data, bt.data ? bt.nbytes : 0);
        pe_safetensors_free(back);
    }
    pe_safetensors_free(stf);
    float perm[D * 2];
    put(r, "pe_qk_permute_rows",
        pe_qk_permute_rows(S.x, perm, 2 * D, sizeof(float), D, D, PE_ROPE_HALF), perm,
        sizeof perm);
    put(r, "pe_kernels_name", 0, pe_kernels_name(), strlen(pe_kernels_name()));
    put(r, "pe_kernels_supported", 0, &(int){pe_kernels_supported("scalar")}, sizeof(int));
    put(r, "pe_version_string", pe_version_number(), pe_version_string(),
        strlen(pe_version_string()));
    put(r, "pe_strerror", 0, pe_strerror(PE_ERR_SHAPE), strlen(pe_strerror(PE_ERR_SHAPE)));
    put(r, "pe_dtype_size/name", (int)pe_dtype_size(PE_BF16), pe_dtype_name(PE_BF16), 4);
    pe_tensor tv = pe_tensor_dense(S.x, PE_F32, T, H, D);
    put(r, "pe_tensor_dense", 0, &tv.token_stride, sizeof tv.token_stride);
}

static void run_all(run_result *r, int tid) {
    memset(r, 0, sizeof *r);
    r->errors_own = 1;
    r->io_ok = 1;
    run_additive_and_learned(r, tid);
    run_rope(r, tid);
    run_scaling_and_bias(r, tid);
    run_analysis(r, tid);
    run_io(r, tid);
}

typedef struct {
    int tid;
    run_result res[ROUNDS];
} thread_arg;

static void *thread_main(void *p) {
    thread_arg *a = p;
    for (int k = 0; k < ROUNDS; k++) run_all(&a->res[k], a->tid);
    return NULL;
}

/* The shared inputs: deterministic values, positions up to +-2^31. */
static int setup(void) {
    pe_rng rng = {12345};
    for (size_t i = 0; i < sizeof S.x / sizeof S.x[0]; i++)
        S.x[i] = (float)pe_rng_uniform(&rng, -1, 1);
    for (size_t i = 0; i < NQ * D; i++) S.q[i] = (float)pe_rng_uniform(&rng, -1, 1);
    for (size_t i = 0; i < NK * D; i++) {
        S.k[i] = (float)pe_rng_uniform(&rng, -1, 1);
        S.v[i] = (float)pe_rng_uniform(&rng, -1, 1);
    }
    for (size_t i = 0; i < T * 2 * D; i++) S.kv[i] = (float)pe_rng_uniform(&rng, -2, 2);
    for (size_t i = 0; i < T * LD; i++) S.grad[i] = (float)pe_rng_uniform(&rng, -1, 1);
    for (size_t i = 0; i < 5 * 32; i++) S.table5[i] = (float)i * 0.25f;
    for (int t = 0; t < T; t++) {
        S.ids[t] = t % 3 == 0 ? t : pe_rng_int(&rng, 0, 2147483647);
        for (int a = 0; a < 3; a++) S.ids3[3 * t + a] = pe_rng_int(&rng, -100000, 100000);
    }
    for (int i = 0; i < LD * LD; i++) {
        S.Q[i] = pe_rng_uniform(&rng, -1, 1);
        S.K[i] = pe_rng_uniform(&rng, -1, 1);
    }
    for (int i = 0; i < D; i++) {
        S.vec[i] = pe_rng_uniform(&rng, -1, 1);
        S.vec2[i] = pe_rng_uniform(&rng, -1, 1);
    }
    for (int i = 0; i < 4 * LD; i++) S.emb[i] = pe_rng_uniform(&rng, -1, 1);
    if (pe_freqs_default(D, 10000.0, &S.freqs) != PE_OK) return -1;
    pe_rope_scaling ys = pe_rope_scaling_defaults(PE_SCALING_YARN, D);
    ys.factor = 16;
    ys.original_max_position = 4096;
    if (pe_freqs_from_scaling(&ys, &S.yarn, NULL) != PE_OK) return -1;
    if (pe_learned_create(LMAX, LD, 7, &S.table) != PE_OK) return -1;
    S.config = "{\"model_type\":\"llama\",\"head_dim\":64,\"rope_theta\":500000,"
               "\"max_position_embeddings\":131072,\"rope_scaling\":{\"rope_type\":"
               "\"llama3\",\"factor\":8,\"low_freq_factor\":1,\"high_freq_factor\":4,"
               "\"original_max_position_embeddings\":8192}}";
    snprintf(S.dir, sizeof S.dir, "/tmp/pe_threads_XXXXXX");
    if (mkdtemp(S.dir) == NULL) return -1;
    /* the images the parsers share: one written by the library itself */
    char path[128];
    snprintf(path, sizeof path, "%s/shared.npy", S.dir);
    int64_t shape[2] = {T, 4};
    if (pe_npy_write(path, PE_F32, 2, shape, S.x) != PE_OK) return -1;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return -1;
    S.npy_len = fread(S.npy_image, 1, sizeof S.npy_image, f);
    fclose(f);
    pe_st_tensor ts[2];
    memset(ts, 0, sizeof ts);
    ts[0].name = "q";
    ts[0].dtype = PE_F32;
    ts[0].ndim = 2;
    ts[0].shape[0] = NQ;
    ts[0].shape[1] = D;
    ts[0].data = S.q;
    ts[0].nbytes = sizeof S.q;
    ts[1] = ts[0];
    ts[1].name = "k";
    ts[1].shape[0] = NK;
    ts[1].data = S.k;
    ts[1].nbytes = sizeof S.k;
    const char *meta[] = {"format", "pt", NULL};
    snprintf(path, sizeof path, "%s/shared.safetensors", S.dir);
    if (pe_safetensors_write(path, ts, 2, meta) != PE_OK) return -1;
    f = fopen(path, "rb");
    if (f == NULL) return -1;
    S.st_image = malloc(1 << 16);
    S.st_len = S.st_image ? fread(S.st_image, 1, 1 << 16, f) : 0;
    fclose(f);
    return S.st_image ? 0 : -1;
}

static void teardown(void) {
    pe_learned_free(S.table);
    free(S.st_image);
    S.st_image = NULL;
    char cmd[128];
    /* every file this test made lives in S.dir */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", S.dir);
    if (S.dir[0] != '\0' && system(cmd) != 0) CHECK_MSG(0, "could not remove %s", S.dir);
}

TEST(threads_every_function_matches_single_thread) {
    CHECK_MSG(setup() == 0, "setup failed: %s", pe_last_error());
    if (pe_test_failures()) return;
    static run_result ref;
    run_all(&ref, 0);
    CHECK(ref.errors_own && ref.io_ok && ref.n > 60);
    static thread_arg args[N_THREADS];
    pthread_t tid[N_THREADS];
    int started[N_THREADS] = {0};
    for (int i = 0; i < N_THREADS; i++) {
        args[i].tid = i + 1; /* 0 was the reference run's files */
        started[i] = pthread_create(&tid[i], NULL, thread_main, &args[i]) == 0;
        CHECK_MSG(started[i], "pthread_create %d failed", i);
    }
    for (int i = 0; i < N_THREADS; i++)
        if (started[i]) pthread_join(tid[i], NULL);
    for (int i = 0; i < N_THREADS; i++)
        for (int k = 0; k < ROUNDS && started[i]; k++) {
            const run_result *g = &args[i].res[k];
            CHECK_MSG(g->errors_own, "thread %d round %d saw another thread's error detail",
                      i, k);
            CHECK_MSG(g->io_ok, "thread %d round %d: a file round trip failed", i, k);
            CHECK_MSG(g->n == ref.n, "thread %d made %d calls, reference %d", i, g->n, ref.n);
            for (int j = 0; j < g->n && j < ref.n; j++)
                CHECK_MSG(g->h[j] == ref.h[j], "thread %d round %d: %s (call %d) differs",
                          i, k, ref.name[j], j);
        }
    teardown();
}

/* ------------------------------------------------------------------------
 * Who runs the threads (include/posenc.h, pe_pool and parallel_for): every
 * call that takes thread options gives the same bits with threads started
 * per call, a caller's pool (reused across many calls, and shared by two
 * calling threads at once), a parallel-for hook that runs tasks on threads
 * or one after another, and on one thread. The tensors are large enough
 * (several MiB of traffic) that the scheduler really splits them. */
enum { BT = 2048, BH = 4, BD = 128, BKV = 2 };

typedef struct {
    float *x, *k, *v, *y, *ky, *vy;
    double *cs, *sn;
    int64_t *ids, *ids3, *deltas;
    pe_freqs f, g;
} big_bufs;

/* Per-call hashes into hs (OPT_CALLS of them). */
enum { OPT_CALLS = 15 };
static const char *const opt_call_name[OPT_CALLS] = {
    "pe_rope_apply_ex", "pe_rope_apply_qk (k)", "pe_rope_apply_qk (q)", "pe_rope_cos_sin_ex (sin)",
    "pe_rope_cos_sin_ex (cos)", "pe_rope_shift", "pe_rope_rebase", "pe_rope_apply_table",
    "pe_rope_apply_table_qk", "pe_mrope_apply_ex", "pe_mrope_apply_qk", "pe_rope_fused_qkv (q)",
    "pe_rope_fused_qkv (k)", "pe_rope_fused_qkv (v)", ""};

static void run_every_options_call(big_bufs *b, const pe_rope_options *o, uint64_t *hs) {
    int nh = 0;
    const size_t n = (size_t)BT * BH * BD, nk = (size_t)BT * BKV * BD;
    const pe_positions pos = pe_positions_list(b->ids), r5 = pe_positions_range(5);
    const pe_tensor in = pe_tensor_dense(b->x, PE_F32, BT, BH, BD);
    const pe_tensor out = pe_tensor_dense(b->y, PE_F32, BT, BH, BD);
    const pe_tensor kin = pe_tensor_dense(b->k, PE_F32, BT, BKV, BD);
    const pe_tensor kout = pe_tensor_dense(b->ky, PE_F32, BT, BKV, BD);
/* the call first, then the hash of what it wrote (operands of ^ have no order) */
#define FOLD(st, p, bytes)                                   \
    do {                                                     \
        const int st_ = (st);                                \
        CHECK_MSG(st_ == PE_OK, "%s: %s", opt_call_name[nh], pe_last_error()); \
        hs[nh++] = fnv(p, bytes) ^ (uint64_t)(int64_t)st_;   \
    } while (0)
    FOLD(pe_rope_apply_ex(&b->f, PE_ROPE_HALF, &pos, &in, &out, PE_ROPE_FORWARD, o), b->y, n * 4);
    FOLD(pe_rope_apply_qk(&b->g, PE_ROPE_INTERLEAVED, &r5, &in, &out, &kin, &kout,
                          PE_ROPE_INVERSE, o),
         b->ky, nk * 4);
    FOLD(0, b->y, n * 4);
    FOLD(pe_rope_cos_sin_ex(&b->g, &pos, BT, b->cs, b->sn, PE_F64, o), b->sn,
         (size_t)BT * BD / 2 * 8);
    FOLD(0, b->cs, (size_t)BT * BD / 2 * 8);
    FOLD(pe_rope_shift(&b->f, PE_ROPE_HALF, b->deltas, 0, &in, &out, o), b->y, n * 4);
    FOLD(pe_rope_rebase(&b->f, &b->g, PE_ROPE_HALF, &pos, &in, &out, o), b->y, n * 4);
    pe_rope_table tb = pe_rope_table_default();
    tb.rotary_dim = BD;
    tb.rows = BT;
    tb.cos = b->cs;
    tb.sin = b->sn;
    tb.dtype = PE_F64;
    const pe_positions r0 = pe_positions_range(0);
    FOLD(pe_rope_apply_table(&tb, PE_ROPE_HALF, &r0, &in, &out, PE_ROPE_FORWARD, o), b->y, n * 4);
    FOLD(pe_rope_apply_table_qk(&tb, PE_ROPE_HALF, &r0, &in, &out, &kin, &kout,
                                PE_ROPE_BACKWARD, o),
         b->ky, nk * 4);
    const int64_t secs[3] = {32, 16, 16};
    FOLD(pe_mrope_apply_ex(&b->f, PE_ROPE_HALF, b->ids3, secs, PE_MROPE_INTERLEAVED, &in, &out,
                           PE_ROPE_FORWARD, o),
         b->y, n * 4);
    FOLD(pe_mrope_apply_qk(&b->f, PE_ROPE_HALF, b->ids3, secs, PE_MROPE_BLOCKED, &in, &out, &kin,
                           &kout, PE_ROPE_FORWARD, o),
         b->ky, nk * 4);
    pe_fused_qkv_params p = pe_fused_qkv_params_default();
    p.q_in = in;
    p.q_out = out;
    p.k_in = kin;
    p.v_in = pe_tensor_dense(b->v, PE_F32, BT, BKV, BD);
    p.k_cache = kout;
    p.v_cache = pe_tensor_dense(b->vy, PE_F32, BT, BKV, BD);
    p.threads = o->threads;
    p.pool = o->pool;
    p.parallel_for = o->parallel_for;
    p.parallel_for_ctx = o->parallel_for_ctx;
    FOLD(pe_rope_fused_qkv(&b->f, PE_ROPE_HALF, &pos, &p), b->y, n * 4);
    FOLD(0, b->ky, nk * 4);
    FOLD(0, b->vy, nk * 4);
#undef FOLD
    hs[nh] = 0;
}

/* The first call whose hash differs from ref, or NULL. */
static const char *first_difference(const uint64_t *ref, const uint64_t *got) {
    for (int i = 0; i < OPT_CALLS; i++)
        if (ref[i] != got[i]) return opt_call_name[i];
    return NULL;
}

static int big_alloc(big_bufs *b) {
    const size_t n = (size_t)BT * BH * BD, nk = (size_t)BT * BKV * BD;
    b->x = malloc(n * 4), b->y = malloc(n * 4);
    b->k = malloc(nk * 4), b->ky = malloc(nk * 4), b->v = malloc(nk * 4), b->vy = malloc(nk * 4);
    b->cs = malloc((size_t)BT * BD / 2 * 8), b->sn = malloc((size_t)BT * BD / 2 * 8);
    b->ids = malloc(BT * 8), b->ids3 = malloc(BT * 3 * 8), b->deltas = malloc(BT * 8);
    if (!b->x || !b->y || !b->k || !b->ky || !b->v || !b->vy || !b->cs || !b->sn || !b->ids ||
        !b->ids3 || !b->deltas)
        return -1;
    uint64_t s = 12345;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        b->x[i] = (float)((double)(s >> 11) * 0x1p-53 * 2.0 - 1.0);
    }
    for (size_t i = 0; i < nk; i++) b->k[i] = b->x[i] * 0.5f, b->v[i] = b->x[n - 1 - i];
    for (int64_t t = 0; t < BT; t++) {
        b->ids[t] = (t * 7919) % 100003;
        b->deltas[t] = t % 5 == 0 ? -t : t / 3;
        b->ids3[3 * t] = t / 64, b->ids3[3 * t + 1] = (t / 8) % 8, b->ids3[3 * t + 2] = t % 8;
    }
    if (pe_freqs_default(BD, 10000.0, &b->f) != PE_OK) return -1;
    pe_rope_scaling sc = pe_rope_scaling_defaults(PE_SCALING_YARN, BD);
    sc.factor = 4.0;
    sc.original_max_position = 4096;
    return pe_freqs_from_scaling(&sc, &b->g, NULL) == PE_OK ? 0 : -1;
}

static void big_free(big_bufs *b) {
    free(b->x), free(b->y), free(b->k), free(b->ky), free(b->v), free(b->vy);
    free(b->cs), free(b->sn), free(b->ids), free(b->ids3), free(b->deltas);
}

/* An engine's parallel-for: a thread per task, or every task on the caller. */
typedef struct {
    pe_task_fn fn;
    void *arg;
    int task;
} engine_task;

static void *engine_task_main(void *p) {
    engine_task *t = p;
    t->fn(t->arg, t->task);
    return NULL;
}

static int engine_threads(void *ctx, int n_tasks, pe_task_fn fn, void *arg) {
    atomic_int *calls = ctx;
    atomic_fetch_add(calls, 1);
    engine_task t[64];
    pthread_t tid[64];
    int ok[64];
    for (int i = 1; i < n_tasks && i < 64; i++) {
        t[i] = (engine_task){fn, arg, i};
        ok[i] = pthread_create(&tid[i], NULL, engine_task_main, &t[i]) == 0;
    }
    fn(arg, 0);
    for (int i = 1; i < n_tasks && i < 64; i++)
        if (ok[i]) pthread_join(tid[i], NULL);
    return 0;
}

static int engine_serial(void *ctx, int n_tasks, pe_task_fn fn, void *arg) {
    atomic_int *calls = ctx;
    atomic_fetch_add(calls, 1);
    for (int i = 0; i < n_tasks; i++) fn(arg, i);
    return 0;
}

typedef struct {
    big_bufs b;
    const pe_rope_options *o;
    uint64_t h[3][OPT_CALLS];
} pool_user;

static void *pool_user_main(void *p) {
    pool_user *u = p;
    for (int r = 0; r < 3; r++) run_every_options_call(&u->b, u->o, u->h[r]);
    return NULL;
}

TEST(threads_pool_and_hook_give_the_same_bits) {
    big_bufs b;
    CHECK_MSG(big_alloc(&b) == 0, "setup: %s", pe_last_error());
    if (pe_test_failures()) {
        big_free(&b);
        return;
    }
    pe_rope_options o = pe_rope_options_default();
    uint64_t ref[OPT_CALLS], got[OPT_CALLS];
    const char *diff;
    run_every_options_call(&b, &o, ref);
    o.threads = 3;
    run_every_options_call(&b, &o, got);
    CHECK_MSG((diff = first_difference(ref, got)) == NULL, "3 started threads: %s differs", diff);

    pe_pool *pool = NULL;
    CHECK(pe_pool_create(3, &pool) == PE_OK);
    if (pool != NULL) {
        pe_rope_options po = pe_rope_options_default();
        po.pool = pool; /* threads left at 1: the pool's 3 */
        for (int r = 0; r < 4; r++) { /* one pool, many calls */
            run_every_options_call(&b, &po, got);
            CHECK_MSG((diff = first_difference(ref, got)) == NULL, "pool round %d: %s differs", r,
                      diff);
        }
        /* two calling threads on one pool at once, each with its own buffers */
        pool_user u[2];
        u[0].o = u[1].o = &po;
        int ok = big_alloc(&u[0].b) == 0 && big_alloc(&u[1].b) == 0;
        CHECK(ok);
        pthread_t t;
        if (ok && pthread_create(&t, NULL, pool_user_main, &u[1]) == 0) {
            pool_user_main(&u[0]);
            pthread_join(t, NULL);
            for (int k = 0; k < 2; k++)
                for (int r = 0; r < 3; r++)
                    CHECK_MSG((diff = first_difference(ref, u[k].h[r])) == NULL,
                              "caller %d round %d on a shared pool: %s differs", k, r, diff);
        }
        big_free(&u[0].b), big_free(&u[1].b);
        pe_pool_destroy(pool);
    }

    atomic_int calls;
    atomic_init(&calls, 0);
    pe_rope_options ho = pe_rope_options_default();
    ho.threads = 3;
    ho.parallel_for_ctx = &calls;
    ho.parallel_for = engine_threads;
    run_every_options_call(&b, &ho, got);
    CHECK_MSG((diff = first_difference(ref, got)) == NULL, "threaded hook: %s differs", diff);
    ho.parallel_for = engine_serial;
    run_every_options_call(&b, &ho, got);
    CHECK_MSG((diff = first_difference(ref, got)) == NULL, "serial hook: %s differs", diff);
    /* the hook was really used, by each of the 10 calls in both rounds */
    CHECK_MSG(atomic_load(&calls) == 2 * 10, "hook called %d times", atomic_load(&calls));
    big_free(&b);
}

/* Threads started in the call split a call of 32 MiB of traffic (16 MiB
 * rotated out of place: two parts of 16 MiB, the started-thread rule of
 * src/rope_threads.c) and give the bits of one thread, in both layouts. */
TEST(threads_started_per_call_split_a_large_call_bit_identically) {
    enum { BIG_T = 4096, BIG_H = 8, BIG_D = 128 };
    const size_t n = (size_t)BIG_T * BIG_H * BIG_D;
    float *x = malloc(4 * n), *a = malloc(4 * n), *b = malloc(4 * n);
    CHECK(x != NULL && a != NULL && b != NULL);
    if (x == NULL || a == NULL || b == NULL) {
        free(x), free(a), free(b);
        return;
    }
    pe_rng rng = {pe_test_seed() + 31};
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(&rng, -1.0, 1.0);
    pe_freqs f;
    CHECK_OK(pe_freqs_default(BIG_D, 500000.0, &f));
    const pe_positions pos = pe_positions_range(17);
    const pe_tensor in = pe_tensor_dense(x, PE_F32, BIG_T, BIG_H, BIG_D), va = pe_tensor_dense(a, PE_F32, BIG_T, BIG_H, BIG_D),
                    vb = pe_tensor_dense(b, PE_F32, BIG_T, BIG_H, BIG_D);
    pe_rope_options three = pe_rope_options_default();
    three.threads = 3;
    for (int layout = 0; layout < 2; layout++) {
        const pe_rope_layout l = layout ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
        CHECK_OK(pe_rope_apply_ex(&f, l, &pos, &in, &va, PE_ROPE_FORWARD, NULL));
        CHECK_OK(pe_rope_apply_ex(&f, l, &pos, &in, &vb, PE_ROPE_FORWARD, &three));
        CHECK_MSG(memcmp(a, b, 4 * n) == 0, "layout %d: 3 started threads differ", layout);
    }
    free(x), free(a), free(b);
}
