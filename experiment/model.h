/*
 * model.h — the tiny transformer of `posenc experiment`: its position schemes,
 * its shape, and where each parameter sits in the flat parameter array.
 *
 * Precision-independent: the float32 net that trains (net_f32.c) and the
 * float64 net the gradient checks use (tests/experiment/net_f64.c) share all
 * of this and differ only in their element type. The tokens it reads (the
 * vocabulary, the length of an example) are the tasks' (data.h): the model
 * sits above the data, which knows nothing of it.
 */
#ifndef PE_EXPERIMENT_MODEL_H
#define PE_EXPERIMENT_MODEL_H

#include "data.h"
#include "posenc.h"

#include <stddef.h>
#include <stdint.h>

/* Position schemes. The rope-* entries are not trained: they evaluate the
 * trained RoPE model with rescaled frequencies (inference-only scaling). */
typedef enum {
    EX_NONE = 0,       /* NoPE: only the causal mask orders the tokens */
    EX_RAW,            /* additive, every element = p */
    EX_NORMALIZED,     /* additive, every element = p / (T - 1), T the example's length */
    EX_BINARY,         /* additive, bits of p */
    EX_SINUSOIDAL,     /* additive, Vaswani et al. */
    EX_LEARNED,        /* additive learned table, clamped to its last row beyond it */
    EX_ROPE,           /* rotary on q and k */
    EX_ROPE_LINEAR,    /* RoPE model, positions interpolated (PI) */
    EX_ROPE_NTK,       /* RoPE model, NTK-aware base */
    EX_ROPE_DYNAMIC,   /* RoPE model, dynamic NTK from the sequence length */
    EX_ROPE_YARN,      /* RoPE model, YaRN ramp and temperature */
    EX_ALIBI,          /* causal linear biases */
    EX_T5,             /* causal T5 bucket biases, one trained table */
    EX_N_SCHEMES
} ex_scheme;

/* "none", "raw", ..., "rope-yarn", "alibi", "t5"; NULL out of range. */
const char *ex_scheme_name(ex_scheme s);
/* -1 if the name is unknown. */
int ex_scheme_from_name(const char *name);
/* The scheme whose model s evaluates: EX_ROPE for every rope-*, else s. */
ex_scheme ex_scheme_trained(ex_scheme s);
/* One line on how the scheme reaches the model, for reports. */
const char *ex_scheme_note(ex_scheme s);

enum { EX_MAX_LAYERS = 8 };

/* Where each tensor of one layer starts in the flat parameter array. All
 * matrices are (in, out) row-major: y = x W + b. */
typedef struct {
    size_t ln1_g, ln1_b;  /* (D) */
    size_t wqkv, bqkv;    /* (D, 3D), (3D): q | k | v, head h at h*Dh */
    size_t wo, bo;        /* (D, D), (D) */
    size_t ln2_g, ln2_b;  /* (D) */
    size_t w1, b1;        /* (D, F), (F) */
    size_t w2, b2;        /* (F, D), (D) */
} ex_layer_offsets;

typedef struct {
    ex_scheme scheme;       /* the trained scheme (never a rope-* variant) */
    int vocab, dim, heads, head_dim, ffn, layers;
    int max_len;            /* learned table rows: the longest training sequence */
    int t5_buckets, t5_max_distance; /* causal T5 */
    double rope_base;       /* RoPE and sinusoidal base (10000) */
    double emb_scale;       /* token embeddings are multiplied by sqrt(D) */
    /* Flat parameter layout. The output layer is tied to tok_emb. */
    size_t tok_emb;         /* (V, D) */
    ex_layer_offsets layer[EX_MAX_LAYERS];
    size_t lnf_g, lnf_b;    /* (D) */
    size_t t5_table;        /* (heads, t5_buckets), only for EX_T5 */
    size_t n_params;
} ex_arch;

/*
 * The experiment's model for a scheme: width dim, heads, ffn, layers, and a
 * training length of train_max symbols (sequences of 2 train_max + 1
 * tokens). Returns 0, or PE_ERR_PARAM for a shape it cannot build (odd head
 * size, dim not a multiple of heads, more than EX_MAX_LAYERS layers,
 * train_max < 2); the CLI checks its options before getting here.
 */
int ex_arch_init(ex_arch *a, ex_scheme scheme, int dim, int heads, int ffn, int layers,
                 int train_max);
/* The experiment's default shape: D 64, 4 heads, FFN 256, 3 layers. */
int ex_arch_default(ex_arch *a, ex_scheme scheme, int train_max);

/*
 * RoPE frequencies for an evaluation of the trained RoPE model on sequences
 * of n_test symbols (seq_len tokens), trained on train_max symbols: default
 * frequencies for EX_ROPE, and for the rope-* variants the library's
 * generator at scale f = max(1, n_test / train_max) (dynamic NTK: from the
 * sequence length itself, against the longest training sequence).
 */
int ex_rope_freqs(const ex_arch *a, ex_scheme variant, int n_test, int train_max,
                  int seq_len, pe_freqs *out);

/* The initial parameters (n_params of them) of seed: weight matrices
 * N(0, 1/fan_in), the output projections of each residual branch (wo, w2)
 * further scaled by 1/sqrt(2 layers), the token embedding and the T5 table
 * N(0, 0.02^2), gains 1, biases 0. (The learned position table is the
 * library's own N(0, 0.02^2) init, pe_learned_create.) */
void ex_params_init(const ex_arch *a, uint64_t seed, double *w);

/* Which parameters AdamW decays: the four weight matrices of each layer.
 * Embeddings, tables, gains and biases are not decayed. Fills up to cap
 * (offset, count) ranges; returns how many. */
int ex_decay_ranges(const ex_arch *a, size_t *off, size_t *len, int cap);

#endif
