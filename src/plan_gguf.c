/*
 * plan_gguf.c — the per-layer plan of a llama.cpp GGUF file (pe_plan_from_gguf):
 * the metadata the GGUF reader (io/gguf.c) hands over, read the way
 * llama.cpp's own loader and graph read it for the file's architecture. The
 * architecture's record (families_gguf.c: rope type, sliding-window rule,
 * NextN and recurrent layers, the YaRN keys it reads, NoPE step) decides;
 * an architecture without a record is refused, never planned by guess.
 * Every float that went through float32 is named on the layers it feeds, so
 * a comparison with the config can say why a frequency differs.
 *
 * llama.cpp at 34af94cd9ab2 (docs/FAMILIES.md, GGUF; docs/SCALING.md §7):
 *   generic keys   src/llama-model.cpp load_hparams (n_ctx_orig_yarn defaults
 *                  to context_length; scaling type defaults to "linear";
 *                  rope.scaling.factor 0 means none; rope.scaling.attn_factor)
 *   magnitude      src/llama-context.cpp (YaRN: get_mscale, the
 *                  yarn_log_multiplier rule; times rope_attn_factor)
 *   factors        llama_model::get_rope_factors: rope_freqs, else
 *                  rope_factors_long beyond n_ctx_orig_yarn, else short
 */
#include "plan_internal.h"

#include "families_gguf.h"
#include "checked.h"
#include "io/gguf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* llama.cpp's hparams.use_mrope(): the first two sections non-zero. */
static bool uses_mrope(const pe__gguf_rope *g) {
    return g->dimension_sections_count >= 2 && g->dimension_sections[0] > 0 &&
           g->dimension_sections[1] > 0;
}

/* The rope type the record gives this file (resolving glm4's, glm4moe's and
 * hunyuan_vl's choice by the file's sections). */
static pe__gguf_rope_type rope_type_of(const pe__gguf_arch *a, const pe__gguf_rope *g) {
    switch (a->rope) {
    case PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NORM:
        return uses_mrope(g) ? PE__GGUF_ROPE_MROPE : PE__GGUF_ROPE_NORM;
    case PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NEOX:
        return uses_mrope(g) ? PE__GGUF_ROPE_MROPE : PE__GGUF_ROPE_NEOX;
    default:
        return a->rope;
    }
}

typedef struct {
    char note[128];
} f32_notes;

static void note_f32(f32_notes *n, const pe__gguf_real *r, const char *name) {
    if (!r->present || r->type != PE_GGUF_F32) return;
    size_t used = strlen(n->note);
    snprintf(n->note + used, sizeof n->note - used, "%s%s", used ? ", " : "", name);
}

/* Keys under {arch}. the plan reads (every other key with "rope" in it is
 * a warning). */
static const char *const known_suffixes[] = {
    ".rope.freq_base", ".rope.freq_base_swa", ".rope.dimension_count",
    ".rope.dimension_sections", ".rope.scale_linear", ".rope.scaling.type",
    ".rope.scaling.factor", ".rope.scaling.original_context_length",
    ".rope.scaling.attn_factor", ".rope.scaling.yarn_log_multiplier",
    ".rope.scaling.yarn_beta_fast", ".rope.scaling.yarn_beta_slow",
    ".rope.scaling.finetuned", ".rope.scaling.alpha",
    /* llama.cpp's runtime knobs (context parameters override them): read,
     * not part of the checkpoint's positions */
    ".rope.scaling.yarn_ext_factor", ".rope.scaling.yarn_attn_factor"};

static int warn_unknown_keys(const pe__gguf_rope *g, const pe__gguf_arch *a, pe_plan *p) {
    for (int64_t i = 0; i < pe__gguf_key_count(g); i++) {
        const char *name;
        pe__gguf_value v;
        PE_TRY(pe__gguf_key_at(g, i, &name, &v));
        if (strstr(name, "rope") == NULL) continue;
        bool known = false;
        size_t al = strlen(g->architecture);
        if (strncmp(name, g->architecture, al) == 0)
            for (size_t k = 0; k < sizeof known_suffixes / sizeof *known_suffixes; k++)
                if (strcmp(name + al, known_suffixes[k]) == 0) known = true;
        /* read per layer by the architectures whose record says so */
        if (a->swa.rot_key && strncmp(name, g->architecture, al) == 0 &&
            strcmp(name + al, ".rope.dimension_count_swa") == 0)
            known = true;
        if (!known) PE_TRY(pe__plan_warn(p, "'%.120s': not understood; ignored", name));
    }
    return PE_OK;
}

static int check_list(const pe__gguf_tensor *t, const char *name, int64_t half) {
    if (t->count != half)
        return pe__fail(PE_ERR_FORMAT, "'%s' has %lld values but the rotary dim has %lld pairs",
                        name, (long long)t->count, (long long)half);
    for (int64_t i = 0; i < half; i++)
        if (!(t->values[i] > 0.0) || !isfinite(t->values[i]))
            return pe__fail(PE_ERR_FORMAT, "'%s'[%lld]=%g must be finite and > 0", name,
                            (long long)i, t->values[i]);
    return PE_OK;
}

/* A float key of the file under {arch}. (not one of the reader's typed
 * fields): present, its value, and whether it was stored as float32. */
static bool find_real(const pe__gguf_rope *g, const char *suffix, pe__gguf_real *out) {
    char key[160];
    snprintf(key, sizeof key, "%s.%s", g->architecture, suffix);
    pe__gguf_value v;
    *out = (pe__gguf_real){false, PE_GGUF_F32, 0.0};
    if (!pe__gguf_find(g, key, &v) || v.type == PE_GGUF_ARRAY || v.type == PE_GGUF_STRING)
        return false;
    *out = (pe__gguf_real){true, v.type, v.f};
    return true;
}

/* llama-context.cpp's get_mscale: 1 at or below factor 1. */
static double yarn_get_mscale(double factor, double mscale) {
    return factor <= 1.0 ? 1.0 : 0.1 * mscale * log(factor) + 1.0;
}

/* The full-attention RoPE of the file, as llama.cpp runs it. */
static int read_scaling(const pe__gguf_rope *g, const pe__gguf_arch *a, int64_t head_dim,
                        int64_t n_rot, pe_rope_scaling *s, bool *deepseek, f32_notes *notes,
                        pe_plan *p) {
    const char *arch = g->architecture;
    const char *type = g->rope_scaling_type;
    const pe__gguf_real *factor = &g->rope_scaling_factor;
    if (!factor->present && g->rope_scale_linear.present) factor = &g->rope_scale_linear;
    const bool scaled = factor->present && factor->value != 0.0 && factor->value != 1.0;
    const bool rope_factors = g->rope_factors_long.present || g->rope_factors_short.present;
    /* load_hparams: the type defaults to "linear" (a factor of 0 meaning
     * none); get_rope_factors applies rope_factors_long/short whatever the
     * type: Phi-3's converter writes those tensors and no type at all. */
    pe_scaling_type t;
    if (type == NULL) t = scaled ? PE_SCALING_LINEAR : PE_SCALING_DEFAULT;
    else if (strcmp(type, "none") == 0) t = PE_SCALING_DEFAULT;
    else if (strcmp(type, "linear") == 0) t = scaled ? PE_SCALING_LINEAR : PE_SCALING_DEFAULT;
    else if (strcmp(type, "yarn") == 0) t = PE_SCALING_YARN;
    else if (strcmp(type, "longrope") == 0) t = PE_SCALING_LONGROPE;
    else
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.type'='%.40s' is not none, linear, yarn "
                        "or longrope", arch, type);
    if (rope_factors) {
        if (t == PE_SCALING_YARN || t == PE_SCALING_LINEAR)
            return pe__fail(PE_ERR_UNSUPPORTED, "'rope_factors_long.weight' together with "
                            "rope.scaling.type '%s'", type != NULL ? type : "linear");
        t = PE_SCALING_LONGROPE;
    }
    const int64_t half = n_rot / 2;
    if (g->rope_freqs.present) {
        /* Llama 3 (and some LongRoPE) conversions bake the scaling into
         * per-pair divisors: w'_i = w_i / rope_freqs[i]. */
        if (t != PE_SCALING_DEFAULT)
            return pe__fail(PE_ERR_UNSUPPORTED, "'rope_freqs.weight' together with "
                            "rope.scaling.type '%s'", type != NULL ? type : "longrope");
        PE_TRY(check_list(&g->rope_freqs, "rope_freqs.weight", half));
        t = PE_SCALING_EXPLICIT;
    }
    *s = pe_rope_scaling_defaults(t, head_dim);
    s->rotary_dim = n_rot;
    s->base = g->rope_freq_base.present ? g->rope_freq_base.value : 10000.0;
    note_f32(notes, &g->rope_freq_base, "rope.freq_base");
    pe__gguf_real alpha;
    if (a->alpha && find_real(g, "rope.scaling.alpha", &alpha) && alpha.value > 0.0) {
        /* hunyuan-vl.cpp: base * alpha^(d / (d - 2)), d the key head size */
        if (!isfinite(alpha.value))
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.alpha'=%g must be finite", arch,
                            alpha.value);
        s->base *= pow(alpha.value, (double)head_dim / (double)(head_dim - 2));
        note_f32(notes, &alpha, "rope.scaling.alpha");
    }
    if (g->context_length.present) s->max_position = (int64_t)g->context_length.value;
    if (t == PE_SCALING_EXPLICIT) {
        s->divisors = g->rope_freqs.values;
        s->n_divisors = half;
        if (g->rope_freqs.ggml_type == 0) {
            size_t used = strlen(notes->note);
            snprintf(notes->note + used, sizeof notes->note - used, "%srope_freqs.weight",
                     used ? ", " : "");
        }
        return PE_OK;
    }
    if (t == PE_SCALING_DEFAULT) return PE_OK;
    if (t == PE_SCALING_LINEAR) {
        s->factor = factor->value;
        note_f32(notes, factor, "rope.scaling.factor");
        if (!(s->factor > 0.0) || !isfinite(s->factor))
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.factor'=%g must be > 0", arch,
                            s->factor);
        return PE_OK;
    }
    /* YaRN and LongRoPE: n_ctx_orig_yarn is original_context_length, else
     * context_length (load_hparams). */
    const pe__gguf_uint *orig = g->rope_scaling_original_context_length.present
                                    ? &g->rope_scaling_original_context_length
                                    : &g->context_length;
    if (!orig->present || orig->value == 0 || orig->value > INT64_MAX)
        return pe__fail(PE_ERR_FORMAT, "scaling type '%s' needs '%s.rope.scaling."
                        "original_context_length' or '%s.context_length' > 0",
                        t == PE_SCALING_YARN ? "yarn" : "longrope", arch, arch);
    s->original_max_position = (int64_t)orig->value;
    /* The magnitude: ggml multiplies by attn_factor, which llama-context
     * sets from rope.scaling.attn_factor (default 1) and, under YaRN, the
     * mscale rule below. */
    const double attn = g->rope_scaling_attn_factor.present ? g->rope_scaling_attn_factor.value
                                                            : 1.0;
    if (g->rope_scaling_attn_factor.present) {
        if (!(attn > 0.0) || !isfinite(attn))
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.attn_factor'=%g must be > 0", arch,
                            attn);
        note_f32(notes, &g->rope_scaling_attn_factor, "rope.scaling.attn_factor");
    }
    if (t == PE_SCALING_LONGROPE) {
        if (!g->rope_factors_long.present || !g->rope_factors_short.present)
            return pe__fail(PE_ERR_FORMAT, "scaling type 'longrope' needs the "
                            "rope_factors_long.weight and rope_factors_short.weight tensors");
        PE_TRY(check_list(&g->rope_factors_long, "rope_factors_long.weight", half));
        PE_TRY(check_list(&g->rope_factors_short, "rope_factors_short.weight", half));
        if (g->rope_factors_long.ggml_type == 0 || g->rope_factors_short.ggml_type == 0) {
            size_t used = strlen(notes->note);
            snprintf(notes->note + used, sizeof notes->note - used, "%srope_factors_long/short",
                     used ? ", " : "");
        }
        s->long_factor = g->rope_factors_long.values;
        s->short_factor = g->rope_factors_short.values;
        s->n_long_factor = s->n_short_factor = half;
        if (s->max_position <= 0) s->max_position = s->original_max_position;
        s->attention_factor = attn; /* llama.cpp: no LongRoPE magnitude of its own */
        return PE_OK;
    }
    /* YaRN */
    if (!factor->present || !(factor->value > 0.0) || !isfinite(factor->value))
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.factor' > 0 is required for scaling "
                        "type 'yarn'", arch);
    s->factor = factor->value;
    note_f32(notes, factor, "rope.scaling.factor");
    if (a->yarn_betas) {
        if (g->yarn_beta_fast.present) s->beta_fast = g->yarn_beta_fast.value;
        if (g->yarn_beta_slow.present) s->beta_slow = g->yarn_beta_slow.value;
        note_f32(notes, &g->yarn_beta_fast, "yarn_beta_fast");
        note_f32(notes, &g->yarn_beta_slow, "yarn_beta_slow");
        if (!(s->beta_fast > s->beta_slow) || !(s->beta_slow > 0.0))
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.yarn_beta_fast'=%g and "
                            "'yarn_beta_slow'=%g: need beta_fast > beta_slow > 0", arch,
                            s->beta_fast, s->beta_slow);
    } else if (g->yarn_beta_fast.present || g->yarn_beta_slow.present) {
        PE_TRY(pe__plan_warn(p, "'%s.rope.scaling.yarn_beta_fast/slow': llama.cpp reads them for "
                             "grok and mistral3 only; '%s' runs 32 / 1", arch, arch));
    }
    double mscale_all = 0.0;
    if (a->log_mul != PE__GGUF_LOG_MUL_IGNORED && g->yarn_log_multiplier.present) {
        mscale_all = g->yarn_log_multiplier.value;
        if (a->log_mul == PE__GGUF_LOG_MUL_OVER_0_1) mscale_all /= 0.1;
        if (!(mscale_all >= 0.0) || !isfinite(mscale_all))
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.yarn_log_multiplier'=%g must be "
                            ">= 0", arch, g->yarn_log_multiplier.value);
        note_f32(notes, &g->yarn_log_multiplier, "yarn_log_multiplier");
    } else if (g->yarn_log_multiplier.present) {
        PE_TRY(pe__plan_warn(p, "'%s.rope.scaling.yarn_log_multiplier': llama.cpp does not read "
                             "it for '%s'", arch, arch));
    }
    double A;
    if (mscale_all != 0.0) {
        /* llama-context.cpp: mscale 1 (DeepSeek 2: mscale_all_dim when it
         * is not 1), A = get_mscale(f, mscale) / get_mscale(f, all). */
        const double mscale = a->deepseek2_mscale && mscale_all != 1.0 ? mscale_all : 1.0;
        A = yarn_get_mscale(s->factor, mscale) / yarn_get_mscale(s->factor, mscale_all);
        if (a->deepseek_softmax) {
            s->mscale_all_dim = mscale_all;
            *deepseek = true;
        }
    } else {
        A = yarn_get_mscale(s->factor, 1.0);
    }
    s->attention_factor = A * attn;
    return PE_OK;
}

/* The sliding layers' RoPE under rule r (NULL: the file's freq_base_swa if
 * any, scaling as the full layers). The float32 notes name the base's key,
 * and for scaled layers the full layers' notes when the base is theirs. */
static void swa_scaling(const pe__gguf_rope *g, const pe__gguf_swa_rule *r,
                        const pe_rope_scaling *full, int64_t head_dim, int64_t n_rot,
                        const f32_notes *notes, pe_rope_scaling *swa, f32_notes *swa_notes) {
    const pe__gguf_real *key = NULL;
    if (g->rope_freq_base_swa.present && r->base != PE__GGUF_SWA_BASE_FULL)
        key = &g->rope_freq_base_swa;
    double base = full->base;
    if (key != NULL) base = key->value;
    else if (r->base == PE__GGUF_SWA_BASE_KEY_OR_1E4) base = 10000.0;
    *swa = *full;
    *swa_notes = *notes;
    if (r->unscaled) {
        *swa = pe_rope_scaling_defaults(PE_SCALING_DEFAULT, head_dim);
        swa->rotary_dim = n_rot;
        swa->max_position = full->max_position;
        swa_notes->note[0] = '\0';
        if (key == NULL && base == full->base)
            note_f32(swa_notes, &g->rope_freq_base, "rope.freq_base");
    } else if (key != NULL) {
        swa_notes->note[0] = '\0';
    }
    swa->base = base;
    if (key != NULL) note_f32(swa_notes, key, "rope.freq_base_swa");
}

/* An integer key under {arch}. (>= 0), or false. */
static bool find_uint(const pe__gguf_rope *g, const char *suffix, uint64_t *out) {
    char key[160];
    snprintf(key, sizeof key, "%s.%s", g->architecture, suffix);
    pe__gguf_value v;
    if (!pe__gguf_find(g, key, &v) || !v.is_integer || v.negative) return false;
    *out = v.u;
    return true;
}

/* Store a non-RoPE position on layer L. */
static int set_position(pe_plan *p, pe__layer_rec *L, const pe__position *pos) {
    int32_t at;
    PE_TRY(pe__plan_add_position(p, pos, &at));
    L->position = at + 1;
    return PE_OK;
}

/* The layers of an architecture whose attention takes no RoPE at all:
 * ALiBi, a learned table, or no attention over positions (Mamba, RWKV). */
static int build_fixed(const pe__gguf_rope *g, const pe__gguf_arch *a, pe_position_kind kind,
                       int64_t head_dim, pe_plan *p) {
    const char *arch = g->architecture;
    pe__position pos;
    memset(&pos, 0, sizeof pos);
    pos.kind = kind;
    if (kind == PE_POSITION_ALIBI) {
        double max_bias = a->alibi.max_bias;
        pe__gguf_real key;
        if (a->alibi.key != NULL && find_real(g, a->alibi.key, &key)) max_bias = key.value;
        /* ggml_soft_max_ext: m0 = 2^(-max_bias / c), c = 2^floor(log2 H):
         * Press et al.'s slopes, which posenc models at max_bias 8 only */
        if (max_bias != 8.0)
            return pe__fail(PE_ERR_UNSUPPORTED, "'%s.%s'=%g: ALiBi slopes are modelled for a "
                            "max bias of 8 only", arch, a->alibi.key, max_bias);
        if (!g->head_count.present || g->head_count.value < 1 ||
            g->head_count.value > PE_MAX_ROTARY_DIM * 64)
            return pe__fail(PE_ERR_FORMAT, "GGUF gives no '%s.attention.head_count' for ALiBi",
                            arch);
        pos.alibi = (pe_plan_alibi){(int64_t)g->head_count.value, PE_ALIBI_SLOPES_PRESS, 8.0,
                                    PE_F32, 1};
    } else if (kind == PE_POSITION_LEARNED) {
        if (!g->context_length.present || !g->embedding_length.present)
            return pe__fail(PE_ERR_FORMAT, "GGUF gives no '%s.context_length' and "
                            "'%s.embedding_length' for its learned positions", arch, arch);
        pos.learned = (pe_plan_learned){(int64_t)g->context_length.value, 0,
                                        (int64_t)g->embedding_length.value};
    } else {
        snprintf(pos.why, sizeof pos.why, "%s", a->none_why != NULL ? a->none_why : "recurrent");
    }
    int32_t t;
    PE_TRY(pe__plan_type_index(p, kind == PE_POSITION_NONE ? pos.why : "full_attention", &t));
    for (int64_t i = 0; i < p->n_layers; i++) {
        pe__layer_rec *L = &p->layers[i];
        L->type = t;
        L->kind = -1;
        L->attention = kind != PE_POSITION_NONE;
        L->head_dim = head_dim;
        PE_TRY(set_position(p, L, &pos));
    }
    return warn_unknown_keys(g, a, p);
}

/* The head size llama.cpp computes: attention.key_length, else
 * embedding_length / head_count of layer 0 (a per-layer head_count array
 * must have block_count entries; n_head() is its first). */
static int head_size(const pe__gguf_rope *g, int64_t n_layer_all, int64_t *out) {
    const char *arch = g->architecture;
    uint64_t heads = 0;
    bool have_heads = false;
    if (g->head_count.present) {
        heads = g->head_count.value;
        have_heads = true;
    } else {
        char key[160];
        snprintf(key, sizeof key, "%s.attention.head_count", arch);
        pe__gguf_value v;
        if (pe__gguf_find(g, key, &v) && v.type == PE_GGUF_ARRAY) {
            if (v.count != (uint64_t)n_layer_all || v.num == NULL)
                return pe__fail(PE_ERR_FORMAT, "'%s' has %llu entries but block_count=%lld", key,
                                (unsigned long long)v.count, (long long)n_layer_all);
            if (!(v.num[0] >= 0.0))
                return pe__fail(PE_ERR_FORMAT, "'%s'[0]=%g must be >= 0", key, v.num[0]);
            heads = (uint64_t)v.num[0];
            have_heads = true;
        }
    }
    if (g->key_length.present) {
        *out = (int64_t)g->key_length.value;
    } else if (g->embedding_length.present && have_heads && heads > 0 &&
               g->embedding_length.value % heads == 0) {
        *out = (int64_t)(g->embedding_length.value / heads);
    } else {
        return pe__fail(PE_ERR_FORMAT, "GGUF gives no head size: '%s.attention.key_length', or "
                        "'%s.embedding_length' a multiple of '%s.attention.head_count'", arch,
                        arch, arch);
    }
    return PE_OK;
}

/* What a layer of a hybrid is: attention over positions, a recurrent mixer
 * (kind none: state-space, convolution, linear attention), or an MLP-only
 * block (Nemotron-H). */
typedef enum { ROLE_ATTENTION = 0, ROLE_RECURRENT, ROLE_MLP } layer_role;

/* A per-layer integer as llama_model_loader::get_key_or_arr reads it into
 * an n_layer_all array: a scalar fills every layer, an array must have one
 * entry per block. Absent: false (out untouched). */
static int per_layer_uint(const pe__gguf_rope *g, const char *suffix, int64_t n_layer_all,
                          double *out, bool *found) {
    char key[160];
    snprintf(key, sizeof key, "%s.%s", g->architecture, suffix);
    pe__gguf_value v;
    *found = false;
    if (!pe__gguf_find(g, key, &v)) return PE_OK;
    if (v.type == PE_GGUF_ARRAY) {
        if (v.count != (uint64_t)n_layer_all || v.num == NULL)
            return pe__fail(PE_ERR_FORMAT, "'%s' has %llu entries but block_count=%lld", key,
                            (unsigned long long)v.count, (long long)n_layer_all);
        for (int64_t i = 0; i < n_layer_all; i++) {
            if (!(v.num[i] >= 0.0))
                return pe__fail(PE_ERR_FORMAT, "'%s'[%lld]=%g must be >= 0", key, (long long)i,
                                v.num[i]);
            out[i] = v.num[i];
        }
    } else if (v.is_integer && !v.negative) {
        for (int64_t i = 0; i < n_layer_all; i++) out[i] = (double)v.u;
    } else {
        return pe__fail(PE_ERR_FORMAT, "'%s' must be a non-negative integer or an array of "
                        "block_count=%lld of them", key, (long long)n_layer_all);
    }
    *found = true;
    return PE_OK;
}

/* The layers of a hybrid, as its load_arch_hparams marks them:
 *   RECURRENT_INTERVAL  (qwen3next.cpp:20-27, qwen35*.cpp, minimax-01.cpp:11-18)
 *                       attention.recurrent_layers, else recurrent unless
 *                       (i + 1) % full_attention_interval == 0
 *   RECURRENT_IF_NO_KV  (jamba.cpp:11-13, lfm2.cpp:9-11, plamo2.cpp:18-20, ...)
 *                       recurrent iff n_head_kv(i) == 0
 *   NEMOTRON_H          (nemotron-h.cpp:16-18, graph 191-198) recurrent iff
 *                       n_head_kv(i) == 0 and n_ff(i) == 0; attention iff
 *                       n_ff(i) == 0 otherwise; an MLP block else.
 * n_head_kv defaults to n_head (llama-model.cpp:1172-1181), n_ff to 0. */
static int layer_roles(const pe__gguf_rope *g, const pe__gguf_arch *a, int64_t n_layer,
                       int64_t n_layer_all, layer_role *role) {
    for (int64_t i = 0; i < n_layer; i++) role[i] = ROLE_ATTENTION;
    if (a->layers == PE__GGUF_LAYERS_RECURRENT_INTERVAL) {
        char key[160];
        snprintf(key, sizeof key, "%s.attention.recurrent_layers", g->architecture);
        pe__gguf_value v;
        if (pe__gguf_find(g, key, &v)) {
            if (v.type != PE_GGUF_ARRAY || v.count != (uint64_t)n_layer_all || v.num == NULL)
                return pe__fail(PE_ERR_FORMAT, "'%s' must be an array of block_count=%lld "
                                "entries", key, (long long)n_layer_all);
            for (int64_t i = 0; i < n_layer; i++)
                role[i] = v.num[i] != 0.0 ? ROLE_RECURRENT : ROLE_ATTENTION;
            return PE_OK;
        }
        uint64_t interval = a->recurrent_interval > 0 ? a->recurrent_interval : 4;
        (void)find_uint(g, "full_attention_interval", &interval);
        if (interval == 0)
            return pe__fail(PE_ERR_FORMAT, "'%s.full_attention_interval'=0 must be >= 1",
                            g->architecture);
        for (int64_t i = 0; i < n_layer; i++)
            role[i] = ((uint64_t)i + 1) % interval != 0 ? ROLE_RECURRENT : ROLE_ATTENTION;
        return PE_OK;
    }
    if (a->layers != PE__GGUF_LAYERS_RECURRENT_IF_NO_KV && a->layers != PE__GGUF_LAYERS_NEMOTRON_H)
        return PE_OK;
    size_t count; /* three per-layer arrays: n_head_kv, n_head, n_ff */
    if (!pe__mul_size(n_layer_all, 3, &count))
        return pe__fail(PE_ERR_RANGE, "block_count=%lld is too large", (long long)n_layer_all);
    double *kv = calloc(count, sizeof *kv);
    if (kv == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)n_layer_all);
    double *heads = kv + n_layer_all, *ff = kv + 2 * n_layer_all;
    bool have_heads, have_kv, have_ff;
    int st = per_layer_uint(g, "attention.head_count", n_layer_all, heads, &have_heads);
    if (st == PE_OK) st = per_layer_uint(g, "attention.head_count_kv", n_layer_all, kv, &have_kv);
    if (st == PE_OK) st = per_layer_uint(g, "feed_forward_length", n_layer_all, ff, &have_ff);
    if (st == PE_OK && !have_kv) {
        if (!have_heads)
            st = pe__fail(PE_ERR_FORMAT, "'%s' marks its recurrent layers by "
                          "'%s.attention.head_count_kv' = 0, but the file has neither it nor "
                          "'%s.attention.head_count'", a->arch, g->architecture, g->architecture);
        else
            memcpy(kv, heads, (size_t)n_layer_all * sizeof *kv);
    }
    for (int64_t i = 0; st == PE_OK && i < n_layer; i++) {
        if (a->layers == PE__GGUF_LAYERS_RECURRENT_IF_NO_KV)
            role[i] = kv[i] == 0.0 ? ROLE_RECURRENT : ROLE_ATTENTION;
        else if (kv[i] == 0.0 && ff[i] == 0.0)
            role[i] = ROLE_RECURRENT;
        else
            role[i] = ff[i] == 0.0 ? ROLE_ATTENTION : ROLE_MLP;
    }
    free(kv);
    return st;
}

/* Whether attention.head_count is a per-layer array whose first entry is
 * 0 (llama_hparams::n_head() reads layer 0). */
static bool first_head_count_zero(const pe__gguf_rope *g) {
    char key[160];
    snprintf(key, sizeof key, "%s.attention.head_count", g->architecture);
    pe__gguf_value v;
    return !g->head_count.present && pe__gguf_find(g, key, &v) && v.type == PE_GGUF_ARRAY &&
           v.count > 0 && v.num != NULL && v.num[0] == 0.0;
}

/* A hybrid whose attention layers take no position at all (llama.cpp
 * gives the architecture rope type NONE and its graph calls no ggml_rope:
 * Jamba, Nemotron-H, Kimi Linear's MLA layers): attention layers NoPE, the
 * others kind none. */
static int build_nope_hybrid(const pe__gguf_rope *g, const pe__gguf_arch *a, int64_t head_dim,
                             int64_t n_layer_all, const char *why, pe_plan *p) {
    layer_role *role = calloc((size_t)p->n_layers, sizeof *role);
    if (role == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)p->n_layers);
    int st = layer_roles(g, a, p->n_layers, n_layer_all, role);
    pe__position pos[3];
    memset(pos, 0, sizeof pos);
    pos[ROLE_ATTENTION].kind = PE_POSITION_NOPE;
    snprintf(pos[ROLE_ATTENTION].why, sizeof pos[ROLE_ATTENTION].why, "%s", why);
    pos[ROLE_RECURRENT].kind = PE_POSITION_NONE;
    snprintf(pos[ROLE_RECURRENT].why, sizeof pos[ROLE_RECURRENT].why, "%s",
             a->none_why != NULL ? a->none_why : "recurrent");
    pos[ROLE_MLP].kind = PE_POSITION_NONE;
    snprintf(pos[ROLE_MLP].why, sizeof pos[ROLE_MLP].why, "mlp");
    const char *type_name[3] = {"full_attention", pos[ROLE_RECURRENT].why, "mlp"};
    for (int64_t i = 0; st == PE_OK && i < p->n_layers; i++) {
        pe__layer_rec *L = &p->layers[i];
        int32_t t;
        st = pe__plan_type_index(p, type_name[role[i]], &t);
        if (st != PE_OK) break;
        L->type = t;
        L->kind = -1;
        L->attention = role[i] == ROLE_ATTENTION;
        L->head_dim = head_dim;
        st = set_position(p, L, &pos[role[i]]);
    }
    free(role);
    PE_TRY(st);
    return warn_unknown_keys(g, a, p);
}

/* Which layers slide (or take chunks), as the architecture's hparams set
 * them up: llama_hparams::is_swa(il) from set_swa_pattern(n, dense_first)
 * (llama-hparams.cpp:8-22) or from a per-layer array. */
typedef enum { SWA_BY_PERIOD = 0, SWA_BY_ARRAY, SWA_ALL, SWA_NONE } swa_marking;

typedef struct {
    int64_t window;      /* tokens of a sliding layer or of a chunk */
    uint64_t period;     /* set_swa_pattern(n); 0: every layer matches */
    bool dense_first;    /* set_swa_pattern(n, true) */
    swa_marking marking;
    const bool *layers;  /* SWA_BY_ARRAY: the file's flags */
    bool swa_on;         /* sliding layers exist */
    bool chunked;        /* Llama 4's chunked attention */
} swa_setup;

/* llama_hparams::is_swa(i) as set up (before the window decides whether
 * sliding layers exist at all). */
static bool swa_marked(const swa_setup *sw, int64_t i) {
    switch (sw->marking) {
    case SWA_BY_ARRAY: return sw->layers[i];
    case SWA_ALL: return true;
    case SWA_NONE: return false;
    case SWA_BY_PERIOD: break;
    }
    if (sw->period == 0) return true;
    const uint64_t k = (uint64_t)i % sw->period;
    return sw->dense_first ? k != 0 : k < sw->period - 1;
}

static int sliding_setup(const pe__gguf_rope *g, const pe__gguf_arch *a, pe_plan *p,
                         int64_t n_layer_all, swa_setup *out) {
    const char *arch = g->architecture;
    const pe__gguf_swa_rule *r = &a->swa;
    bool rule_on = r->rule == PE__GGUF_SWA_PERIOD || r->rule == PE__GGUF_SWA_CHUNKED;
    if (r->only_layers > 0 && r->only_layers != p->n_layers) rule_on = false;
    memset(out, 0, sizeof *out);
    out->window = g->sliding_window.present ? (int64_t)g->sliding_window.value : 0;
    out->marking = SWA_NONE;
    if (!rule_on) {
        if (out->window > 0 || g->swa_pattern_present)
            PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window': llama.cpp runs every layer "
                                 "of '%s' with full attention%s; ignored", arch, a->arch,
                                 r->only_layers > 0 ? " at this layer count" : ""));
        out->window = 0;
        return PE_OK;
    }
    /* window_fixed (SmallThinker): a window > 0 in the file switches sliding
     * layers on at the window set in code; otherwise the code's default
     * stands in for an absent key */
    if (!g->sliding_window.present) out->window = r->window_fixed ? 0 : r->default_window;
    else if (r->window_fixed && out->window > 0) out->window = r->default_window;
    out->marking = SWA_BY_PERIOD;
    out->period = r->period;
    out->dense_first = r->dense_first;
    if (r->pattern == PE__GGUF_PATTERN_NOT_READ) {
        if (g->swa_pattern_present)
            PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window_pattern': llama.cpp does not "
                                 "read it for '%s'; ignored", arch, a->arch));
    } else if (r->pattern == PE__GGUF_PATTERN_PERIOD) {
        if (g->swa_pattern_present && !g->swa_pattern_is_array) out->period = g->swa_pattern_period;
        else if (g->swa_pattern_is_array)
            PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window_pattern' is an array: llama.cpp "
                                 "reads an integer period for '%s' and keeps %u", arch, a->arch,
                                 r->period));
    } else if (g->swa_pattern_present && g->swa_pattern_is_array) {
        /* get_key_or_arr(..., is_swa_impl, n_layer()): n_layer() at that
         * point of load_arch_hparams (block_count, or without the NextN
         * blocks when they were read first) */
        const int64_t want = r->pattern_after_nextn ? p->n_layers : n_layer_all;
        if ((int64_t)g->swa_pattern_count != want)
            return pe__fail(PE_ERR_FORMAT, "'%s.attention.sliding_window_pattern' has %zu entries "
                            "but '%s' reads %lld", arch, g->swa_pattern_count, a->arch,
                            (long long)want);
        out->marking = SWA_BY_ARRAY;
        out->layers = g->swa_pattern_layers;
    } else if (g->swa_pattern_present) {
        if (r->pattern == PE__GGUF_PATTERN_ARRAY) /* an integer fills every layer's flag */
            out->marking = g->swa_pattern_period != 0 ? SWA_ALL : SWA_NONE;
        else
            out->period = g->swa_pattern_period;
    } else if (r->pattern == PE__GGUF_PATTERN_ARRAY) {
        return pe__fail(PE_ERR_FORMAT, "'%s' needs '%s.attention.sliding_window_pattern' "
                        "(llama.cpp requires it)", a->arch, arch);
    } else {
        out->marking = SWA_NONE; /* no pattern key: no layer is marked sliding */
    }
    if (r->rule == PE__GGUF_SWA_CHUNKED) {
        /* llama4.cpp:13-20: a window of 0 turns chunks off; any other
         * value is replaced by the chunk of 8192 set in code */
        out->chunked = !(g->sliding_window.present && g->sliding_window.value == 0);
        out->window = r->default_window;
        return PE_OK;
    }
    out->swa_on = out->window > 0;
    if (!out->swa_on && !r->needs_window)
        PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window' absent or 0: llama.cpp sets "
                             "sliding layers for '%s' but no window; every layer taken as full "
                             "attention", arch, a->arch));
    return PE_OK;
}

/* The RoPE a file describes must be one the library runs: its frequencies
 * are computed once here (at L0 and, for LongRoPE, past it), so a plan
 * never holds a kind whose frequencies would be refused later. */
static int check_runs(const pe_rope_scaling *s, const char *arch, const char *which) {
    pe_freqs *f = malloc(sizeof *f);
    if (f == NULL) return pe__fail(PE_ERR_NOMEM, "no memory to check a RoPE");
    pe_rope_scaling t = *s;
    int st = pe_freqs_from_scaling(&t, f, NULL);
    if (st == PE_OK && s->type == PE_SCALING_LONGROPE) {
        t.seq_len = s->original_max_position + 1;
        st = pe_freqs_from_scaling(&t, f, NULL);
    }
    free(f);
    if (st != PE_OK) {
        char detail[200];
        snprintf(detail, sizeof detail, "%s", pe_last_error());
        return pe__fail(PE_ERR_FORMAT, "'%s' describes %s RoPE posenc cannot run: %s", arch,
                        which, detail);
    }
    return PE_OK;
}

static int build(const pe__gguf_rope *g, const char *as, pe_plan *p) {
    if (g->architecture == NULL)
        return pe__fail(PE_ERR_FORMAT, "GGUF has no general.architecture");
    const char *arch = g->architecture;
    const char *family = as != NULL ? as : arch;
    const pe__gguf_arch *a = pe__gguf_arch_find(family);
    if (a == NULL) {
        char closest[160];
        pe__gguf_arch_closest(family, closest, sizeof closest);
        return pe__fail(PE_ERR_UNSUPPORTED, "GGUF architecture '%.60s' is not in posenc's "
                        "llama.cpp registry (closest: %s); to read the file as a known "
                        "architecture on purpose, name it (--family NAME, "
                        "pe_plan_from_gguf_as)", family, closest);
    }
    if (a->refusal != NULL)
        return pe__fail(PE_ERR_UNSUPPORTED, "GGUF architecture '%s': %s", a->arch, a->refusal);
    snprintf(p->model_type, sizeof p->model_type, "%.63s", arch);
    snprintf(p->source, sizeof p->source, "gguf");
    if (!g->block_count.present)
        return pe__fail(PE_ERR_FORMAT, "GGUF has no '%s.block_count'", arch);
    if (g->block_count.value < 1 || g->block_count.value > PE_PLAN_MAX_LAYERS)
        return pe__fail(PE_ERR_FORMAT, "'%s.block_count'=%llu must be in [1, %d]", arch,
                        (unsigned long long)g->block_count.value, PE_PLAN_MAX_LAYERS);
    const int64_t n_layer_all = (int64_t)g->block_count.value;
    /* llama_hparams::n_layer(): the NextN (MTP) blocks are appended beyond
     * the decoder's layers and take no part in its positions. */
    uint64_t nextn = 0;
    if (a->nextn && find_uint(g, "nextn_predict_layers", &nextn) &&
        nextn >= (uint64_t)n_layer_all)
        return pe__fail(PE_ERR_FORMAT, "'%s.nextn_predict_layers'=%llu must be below "
                        "block_count=%lld", arch, (unsigned long long)nextn,
                        (long long)n_layer_all);
    p->n_layers = n_layer_all - (int64_t)nextn;
    /* nanbeige.cpp:6-32: num_loops (default 1, >= 1) repeats the blocks;
     * the logical layers, each with its block's hparams, are what runs */
    uint64_t loops = 1;
    if (a->loops && find_uint(g, "num_loops", &loops) &&
        (loops < 1 || loops > (uint64_t)(PE_PLAN_MAX_LAYERS / p->n_layers)))
        return pe__fail(PE_ERR_FORMAT, "'%s.num_loops'=%llu must be in [1, %lld] (block_count=%lld "
                        "times it at most %d layers)", arch, (unsigned long long)loops,
                        (long long)(PE_PLAN_MAX_LAYERS / p->n_layers), (long long)p->n_layers,
                        PE_PLAN_MAX_LAYERS);
    p->n_layers *= (int64_t)loops;
    p->layers = calloc((size_t)p->n_layers, sizeof *p->layers);
    if (p->layers == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)p->n_layers);

    int64_t head_dim = 0;
    if (a->layers == PE__GGUF_LAYERS_ALL_RECURRENT) return build_fixed(g, a, PE_POSITION_NONE, 0, p);
    PE_TRY(head_size(g, n_layer_all, &head_dim));
    pe_position_kind kind = a->position;
    if (a->alibi_at_layers > 0 && p->n_layers == a->alibi_at_layers) kind = PE_POSITION_ALIBI;
    if (kind == PE_POSITION_NOPE)
        return build_nope_hybrid(g, a, head_dim, n_layer_all, "rope_type_none", p);
    /* llama_model::load_hparams (llama-model.cpp:1212-1235): n_head() is
     * layer 0's; when it is 0 (a per-layer head_count whose first block is
     * recurrent: PLaMo 2's converter writes one) the model is taken as
     * without attention heads and n_rot is set to 0, which the graph's
     * ggml_rope_ext then applies to every layer: q and k pass unrotated. */
    if (kind == PE_POSITION_ROPE && first_head_count_zero(g)) {
        PE_TRY(pe__plan_warn(p, "'%s.attention.head_count'[0] is 0: llama.cpp sets n_rot to 0 and "
                             "runs every attention layer of '%s' without rotation", arch, a->arch));
        return build_nope_hybrid(g, a, head_dim, n_layer_all, "n_rot_0", p);
    }
    if (kind != PE_POSITION_ROPE) return build_fixed(g, a, kind, head_dim, p);

    int64_t n_rot = g->rope_dimension_count.present ? (int64_t)g->rope_dimension_count.value
                                                    : head_dim;
    if (head_dim < 2 || head_dim > PE_MAX_ROTARY_DIM || n_rot < 2 || n_rot % 2 != 0 ||
        n_rot > head_dim)
        return pe__fail(PE_ERR_DIM, "'%s.rope.dimension_count'=%lld must be even and in [2, "
                        "head size %lld <= PE_MAX_ROTARY_DIM=%d]", arch, (long long)n_rot,
                        (long long)head_dim, PE_MAX_ROTARY_DIM);

    /* llama_model::load_hparams: the sliding layers' head size and rotary
     * dims default to the full ones (llama-model.cpp:1238-1247); the
     * architectures that use them per layer read attention.key_length_swa /
     * rope.dimension_count_swa (Gemma 4, Laguna, Step 3.5); Step 3.5's full
     * layers rotate half of rope.dimension_count (step35.cpp:8-9). */
    int64_t swa_head = head_dim, swa_rot = n_rot;
    if (a->swa.head_key) {
        uint64_t v;
        if (find_uint(g, "attention.key_length_swa", &v)) swa_head = v > INT64_MAX ? -1 : (int64_t)v;
    }
    if (a->swa.rot_key) {
        uint64_t v;
        if (find_uint(g, "rope.dimension_count_swa", &v)) swa_rot = v > INT64_MAX ? -1 : (int64_t)v;
    }
    if (swa_head < 2 || swa_head > PE_MAX_ROTARY_DIM || swa_rot < 2 || swa_rot % 2 != 0 ||
        swa_rot > swa_head)
        return pe__fail(PE_ERR_DIM, "'%s.rope.dimension_count_swa'=%lld must be even and in [2, "
                        "sliding head size %lld <= PE_MAX_ROTARY_DIM=%d]", arch,
                        (long long)swa_rot, (long long)swa_head, PE_MAX_ROTARY_DIM);
    if (a->swa.full_rot_half) {
        n_rot /= 2;
        if (n_rot < 2 || n_rot % 2 != 0)
            return pe__fail(PE_ERR_DIM, "'%s.rope.dimension_count'=%lld: '%s' rotates half of it "
                            "on its full layers, which must be even and >= 2", arch,
                            (long long)(2 * n_rot), a->arch);
    }

    const pe__gguf_rope_type rt = rope_type_of(a, g);
    const bool mrope = rt == PE__GGUF_ROPE_MROPE || rt == PE__GGUF_ROPE_IMROPE;
    const pe_rope_layout layout = rt == PE__GGUF_ROPE_NORM ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
    if (mrope && g->dimension_sections_count == 0)
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.dimension_sections' is required for '%s' "
                        "(llama.cpp rope type %s)", arch, a->arch, pe__gguf_rope_type_name(rt));

    f32_notes notes = {""};
    bool deepseek = false;
    pe_rope_scaling full;
    PE_TRY(read_scaling(g, a, head_dim, n_rot, &full, &deepseek, &notes, p));
    PE_TRY(check_runs(&full, arch, "a"));
    pe__rope_extras x;
    memset(&x, 0, sizeof x);
    if (mrope) {
        int64_t sum = 0, n = 0;
        for (size_t i = 0; i < g->dimension_sections_count && i < 4; i++) {
            x.mrope_section[i] = g->dimension_sections[i];
            sum += g->dimension_sections[i];
            if (g->dimension_sections[i] > 0) n = (int64_t)i + 1;
        }
        if (sum != n_rot / 2)
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.dimension_sections' sum to %lld pairs but "
                            "the rotary dim %lld has %lld", arch, (long long)sum,
                            (long long)n_rot, (long long)(n_rot / 2));
        x.n_mrope_section = n;
        x.mrope_interleaved = rt == PE__GGUF_ROPE_IMROPE;
    }
    int32_t full_kind, swa_kind;
    PE_TRY(pe__plan_add_kind(p, &full, &x, layout, 1, deepseek, notes.note, &full_kind));

    /* Sliding layers: the architecture's rule (families_gguf.c). */
    const pe__gguf_swa_rule *r = &a->swa;
    swa_setup sw;
    PE_TRY(sliding_setup(g, a, p, n_layer_all, &sw));
    const int64_t window = sw.window;
    const bool swa_on = sw.swa_on, chunked = sw.chunked;
    swa_kind = full_kind;
    if (swa_on) { /* a kind no layer uses would show in the plan */
        pe_rope_scaling swa;
        f32_notes swa_notes;
        swa_scaling(g, r, &full, swa_head, swa_rot, &notes, &swa, &swa_notes);
        PE_TRY(check_runs(&swa, arch, "a sliding-window"));
        PE_TRY(pe__plan_add_kind(p, &swa, &x, layout, 1, deepseek, swa_notes.note, &swa_kind));
    }

    int32_t t_full, t_swa, t_chunk = -1, t_recr = -1;
    PE_TRY(pe__plan_type_index(p, "full_attention", &t_full));
    PE_TRY(pe__plan_type_index(p, "sliding_attention", &t_swa));
    if (chunked) PE_TRY(pe__plan_type_index(p, "chunked_attention", &t_chunk));

    layer_role *role = calloc((size_t)p->n_layers, sizeof *role);
    if (role == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)p->n_layers);
    int st = layer_roles(g, a, p->n_layers, n_layer_all, role);
    for (int64_t i = 0; st == PE_OK && i < p->n_layers && t_recr < 0; i++)
        if (role[i] == ROLE_RECURRENT) st = pe__plan_type_index(p, a->none_why, &t_recr);

    /* NoPE layers: n_no_rope_layer_step set in code ((i + 1) % step == 0
     * unrotated); Llama 4's is 4 with chunks, block_count without. */
    uint64_t dense_lead = 0;
    if (a->rope_switch == PE__GGUF_ROPE_SLIDING_OR_DENSE_LEAD)
        (void)find_uint(g, "leading_dense_block_count", &dense_lead);
    uint64_t nope_step = a->nope_step;
    if (r->rule == PE__GGUF_SWA_CHUNKED) nope_step = chunked ? 4 : (uint64_t)p->n_layers;
    /* Granite: rope.scaling.finetuned (default true) switches RoPE on. */
    const bool rope_off = a->rope_switch == PE__GGUF_FINETUNED_SWITCH &&
                          g->rope_scaling_finetuned.present && !g->rope_scaling_finetuned.value;
    /* Mistral 3 (src/models/mistral3.cpp:5-20, llama-graph.cpp:156-168):
     * q *= 1 + s ln(1 + floor(p / n_ctx_orig_yarn)) on every layer. */
    pe_plan_temperature temp = {0, 0.0, 0, 0};
    pe__gguf_real ts;
    if (a->temperature_key && find_real(g, "attention.temperature_scale", &ts) && ts.value != 0.0) {
        const pe__gguf_uint *orig = g->rope_scaling_original_context_length.present
                                        ? &g->rope_scaling_original_context_length
                                        : &g->context_length;
        if (!orig->present || orig->value == 0 || orig->value > INT64_MAX || !isfinite(ts.value)) {
            free(role);
            return pe__fail(PE_ERR_FORMAT, "'%s.attention.temperature_scale' needs "
                            "'%s.rope.scaling.original_context_length' or '%s.context_length' > 0",
                            arch, arch, arch);
        }
        temp = (pe_plan_temperature){1, ts.value, (int64_t)orig->value, 0};
    }
    pe__position none_pos, nope_pos;
    memset(&none_pos, 0, sizeof none_pos);
    memset(&nope_pos, 0, sizeof nope_pos);
    none_pos.kind = PE_POSITION_NONE;
    snprintf(none_pos.why, sizeof none_pos.why, "%s", a->none_why != NULL ? a->none_why : "");
    nope_pos.kind = PE_POSITION_NOPE;
    snprintf(nope_pos.why, sizeof nope_pos.why, "nope_layer");

    for (int64_t i = 0; st == PE_OK && i < p->n_layers; i++) {
        pe__layer_rec *L = &p->layers[i];
        L->head_dim = swa_on && swa_marked(&sw, i) ? swa_head : head_dim;
        if (role[i] != ROLE_ATTENTION) { /* only NoPE hybrids have MLP blocks */
            L->type = t_recr;
            L->kind = -1;
            L->attention = 0;
            st = set_position(p, L, &none_pos);
            continue;
        }
        /* llama_hparams::is_swa(i): set_swa_pattern(n) makes layer i
         * sliding when i % n < n - 1 (dense first: i % n != 0; n = 0:
         * every layer), or the file's per-layer array */
        const bool pattern = swa_marked(&sw, i);
        const bool sliding = swa_on && pattern;
        L->type = sliding ? t_swa : t_full;
        L->attention = 1;
        L->sliding_window = sliding ? window : 0;
        L->temperature = temp;
        bool rope = !rope_off;
        if (nope_step > 0 && ((uint64_t)i + 1) % nope_step == 0) rope = false;
        if (a->rope_switch == PE__GGUF_ROPE_SLIDING_ONLY && !pattern) rope = false;
        /* Cohere 2 MoE (cohere2moe.cpp graph 177-192): is_swa || il < n_layer_dense_lead */
        if (a->rope_switch == PE__GGUF_ROPE_SLIDING_OR_DENSE_LEAD && !pattern &&
            (uint64_t)i >= dense_lead)
            rope = false;
        /* SmallThinker (smallthinker.cpp:6-19, graph 108-109): with a window the
         * NoPE step stays 4 and use_rope = step == n_layer || il % step != 0 */
        if (a->rope_switch == PE__GGUF_NOPE_STEP_FIRST_WITH_SWA && swa_on && p->n_layers != 4 &&
            i % 4 == 0)
            rope = false;
        if (chunked) {
            if (pattern) {
                L->type = t_chunk;
                L->chunk = window;
            } else if (!rope) {
                L->temperature = (pe_plan_temperature){1, 0.1, 8192, 1};
            }
        }
        L->kind = rope ? (sliding ? swa_kind : full_kind) : -1;
        if (!rope) st = set_position(p, L, &nope_pos);
    }
    free(role);
    PE_TRY(st);
    return warn_unknown_keys(g, a, p);
}

static int from_gguf(const char *path, const char *as, pe_plan **out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    pe__gguf_rope *g = NULL;
    PE_TRY(pe__gguf_rope_read(path, &g));
    pe_plan *p = calloc(1, sizeof *p);
    if (p == NULL) {
        pe__gguf_rope_free(g);
        return pe__fail(PE_ERR_NOMEM, "no memory for a plan");
    }
    int st = build(g, as, p);
    pe__gguf_rope_free(g);
    if (st != PE_OK) {
        pe_plan_free(p);
        return st;
    }
    *out = p;
    return PE_OK;
}

int pe_plan_from_gguf(const char *path, pe_plan **out) { return from_gguf(path, NULL, out); }

int pe_plan_from_gguf_as(const char *path, const char *arch, pe_plan **out) {
    return from_gguf(path, arch, out);
}

/* ---------------------------------------------- the registry, listed */

int64_t pe_gguf_arch_count(void) { return (int64_t)pe__gguf_arch_count(); }

int pe_gguf_arch_get(int64_t index, pe_gguf_arch_info *out) {
    PE_CHECK_NULL(out);
    if (index < 0 || index >= pe_gguf_arch_count())
        return pe__fail(PE_ERR_RANGE, "architecture index %lld outside [0, %lld)",
                        (long long)index, (long long)pe_gguf_arch_count());
    const pe__gguf_arch *a = pe__gguf_arch_at((size_t)index);
    *out = (pe_gguf_arch_info){a->arch, pe__gguf_rope_type_name(a->rope), a->position, a->source,
                               a->refusal};
    return PE_OK;
}
