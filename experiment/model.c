/* model.c — scheme names, the model's shape and parameter layout, its
 * initial values, and the RoPE frequencies of each evaluation. */
#include "model.h"
#include "rng.h"

#include <math.h>
#include <string.h>

static const char *const scheme_names[EX_N_SCHEMES] = {
    "none", "raw", "normalized", "binary", "sinusoidal", "learned", "rope",
    "rope-linear", "rope-ntk", "rope-dynamic", "rope-yarn", "alibi", "t5",
};

static const char *const scheme_notes[EX_N_SCHEMES] = {
    "no position information; the causal mask alone orders tokens",
    "adds p to every element (a constant vector: pre-norm LayerNorm removes it)",
    "adds p/(T-1) to every element (a constant vector: LayerNorm removes it)",
    "adds the bits of p, most significant first",
    "adds sin/cos pairs, base 10000",
    "adds a trained row per position; past the table the last row (clamped)",
    "rotates q and k, base 10000, half-split pairs",
    "trained RoPE, positions divided by f (PI), no retraining",
    "trained RoPE, NTK-aware base b f^(d/(d-2)), no retraining",
    "trained RoPE, dynamic NTK from the sequence length, no retraining",
    "trained RoPE, YaRN ramp (beta 32/1) and temperature, no retraining",
    "causal linear biases -m_h (i - j), 4 heads: m = 1/4, 1/16, 1/64, 1/256",
    "causal T5 buckets, one trained (heads, buckets) table shared by the layers",
};

const char *ex_scheme_name(ex_scheme s) {
    return (unsigned)s < EX_N_SCHEMES ? scheme_names[s] : NULL;
}

const char *ex_scheme_note(ex_scheme s) {
    return (unsigned)s < EX_N_SCHEMES ? scheme_notes[s] : NULL;
}

int ex_scheme_from_name(const char *name) {
    for (int i = 0; i < EX_N_SCHEMES; i++)
        if (strcmp(name, scheme_names[i]) == 0) return i;
    return -1;
}

ex_scheme ex_scheme_trained(ex_scheme s) {
    return s >= EX_ROPE_LINEAR && s <= EX_ROPE_YARN ? EX_ROPE : s;
}

int ex_arch_init(ex_arch *a, ex_scheme scheme, int dim, int heads, int ffn, int layers,
                 int train_max) {
    memset(a, 0, sizeof *a);
    if (heads < 1 || dim < 2 || dim % heads != 0 || (dim / heads) % 2 != 0 || ffn < 1 ||
        layers < 1 || layers > EX_MAX_LAYERS || train_max < 2 ||
        (unsigned)scheme >= EX_N_SCHEMES)
        return PE_ERR_PARAM;
    a->scheme = ex_scheme_trained(scheme);
    a->vocab = EX_VOCAB;
    a->dim = dim;
    a->heads = heads;
    a->head_dim = dim / heads;
    a->ffn = ffn;
    a->layers = layers;
    a->max_len = ex_seq_len(train_max);
    /* T5 at its published defaults (Raffel et al.; HF T5Config: 32 buckets,
     * max distance 128), causal: exact buckets for distances 0..15, then
     * logarithmic ones up to 128. They reach every test distance of the
     * default lengths (n = 64's copy offset is 65: bucket 26), so a test
     * offset past training lands in a bucket of its own, which training
     * never updated, instead of sharing one catch-all bucket with the
     * training distances 16 and 17 (the earlier choice, max distance =
     * train_max, put every test copy offset in that one bucket). */
    a->t5_max_distance = 128;
    a->t5_buckets = 32;
    a->rope_base = 10000.0;
    a->emb_scale = sqrt((double)dim);

    const size_t D = (size_t)dim, F = (size_t)ffn;
    size_t o = 0;
    a->tok_emb = o;
    o += (size_t)a->vocab * D;
    for (int l = 0; l < layers; l++) {
        ex_layer_offsets *L = &a->layer[l];
        L->ln1_g = o, o += D;
        L->ln1_b = o, o += D;
        L->wqkv = o, o += D * 3 * D;
        L->bqkv = o, o += 3 * D;
        L->wo = o, o += D * D;
        L->bo = o, o += D;
        L->ln2_g = o, o += D;
        L->ln2_b = o, o += D;
        L->w1 = o, o += D * F;
        L->b1 = o, o += F;
        L->w2 = o, o += F * D;
        L->b2 = o, o += D;
    }
    a->lnf_g = o, o += D;
    a->lnf_b = o, o += D;
    a->t5_table = o;
    if (a->scheme == EX_T5) o += (size_t)heads * (size_t)a->t5_buckets;
    a->n_params = o;
    return 0;
}

int ex_arch_default(ex_arch *a, ex_scheme scheme, int train_max) {
    return ex_arch_init(a, scheme, 64, 4, 256, 3, train_max);
}

void ex_params_init(const ex_arch *a, uint64_t seed, double *w) {
    ex_rng r;
    ex_rng_seed(&r, seed, 0x9A2A45ull);
    memset(w, 0, sizeof(double) * a->n_params);
    const size_t D = (size_t)a->dim, F = (size_t)a->ffn;
    /* Weights N(0, 1/fan_in) (LeCun), the residual branches' output
     * projections further scaled by 1/sqrt(2 layers) (GPT-2). GPT-2's flat
     * 0.02 suits widths near 768; at width 64 it leaves the attention
     * logits near 0 and training slow (sinusoidal, 1000 steps: 19% exact
     * match in distribution with 0.02, 96% with this). */
    const double sd_d = 1 / sqrt((double)D), sd_f = 1 / sqrt((double)F);
    const double proj = 1 / sqrt(2.0 * a->layers);
#define FILL(off, count, s)                                                          \
    do {                                                                             \
        for (size_t i_ = 0; i_ < (count); i_++) w[(off) + i_] = (s) * ex_rng_normal(&r); \
    } while (0)
    FILL(a->tok_emb, (size_t)a->vocab * D, 0.02);
    for (int l = 0; l < a->layers; l++) {
        const ex_layer_offsets *L = &a->layer[l];
        for (size_t i = 0; i < D; i++) w[L->ln1_g + i] = w[L->ln2_g + i] = 1.0;
        FILL(L->wqkv, D * 3 * D, sd_d);
        FILL(L->wo, D * D, sd_d * proj);
        FILL(L->w1, D * F, sd_d);
        FILL(L->w2, F * D, sd_f * proj);
    }
    for (size_t i = 0; i < D; i++) w[a->lnf_g + i] = 1.0;
    if (a->scheme == EX_T5) FILL(a->t5_table, (size_t)a->heads * (size_t)a->t5_buckets, 0.02);
#undef FILL
}

int ex_decay_ranges(const ex_arch *a, size_t *off, size_t *len, int cap) {
    const size_t D = (size_t)a->dim, F = (size_t)a->ffn;
    int k = 0;
    for (int l = 0; l < a->layers && k + 4 <= cap; l++) {
        const ex_layer_offsets *L = &a->layer[l];
        off[k] = L->wqkv, len[k++] = D * 3 * D;
        off[k] = L->wo, len[k++] = D * D;
        off[k] = L->w1, len[k++] = D * F;
        off[k] = L->w2, len[k++] = F * D;
    }
    return k;
}

int ex_rope_freqs(const ex_arch *a, ex_scheme variant, int n_test, int train_max, int seq_len,
                  pe_freqs *out) {
    const int64_t d = a->head_dim;
    const double f = n_test > train_max ? (double)n_test / train_max : 1.0;
    pe_rope_scaling s;
    switch (variant) {
    case EX_ROPE:
        return pe_freqs_default(d, a->rope_base, out);
    case EX_ROPE_LINEAR:
        s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, d);
        s.factor = f;
        break;
    case EX_ROPE_NTK:
        s = pe_rope_scaling_defaults(PE_SCALING_NTK, d);
        s.factor = f;
        break;
    case EX_ROPE_DYNAMIC:
        /* Hugging Face's dynamic NTK with factor 1: the default frequencies
         * up to the longest training sequence L, beyond it the base
         * b (s/L)^(d/(d-2)) from the sequence's own length s. */
        s = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, d);
        s.factor = 1.0;
        s.max_position = a->max_len;
        s.seq_len = seq_len;
        break;
    case EX_ROPE_YARN:
        /* beta_fast 32, beta_slow 1 (the paper's and HF's defaults), L0 the
         * longest training sequence: docs/EXPERIMENT.md shows what that
         * ramp is at head_dim 16. */
        s = pe_rope_scaling_defaults(PE_SCALING_YARN, d);
        s.factor = f;
        s.original_max_position = a->max_len;
        break;
    default:
        return PE_ERR_PARAM;
    }
    s.base = a->rope_base;
    return pe_freqs_from_scaling(&s, out, NULL);
}
