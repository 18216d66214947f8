/*
 * plan_gguf.c — the per-layer plan of a llama.cpp GGUF file (pe_plan_from_gguf):
 * the metadata the GGUF reader (io/gguf.c) hands over, read back into the
 * Hugging Face parameters convert_hf_to_gguf.py wrote them from, with the
 * layer rules of llama.cpp's own model setup (sliding-window pattern,
 * NoPE step, sliding layers' base). Every float that went through float32
 * is named on the layers it feeds, so a comparison with the config can say
 * why a frequency differs.
 *
 * The tables below restate llama.cpp (github.com/ggml-org/llama.cpp), checked
 * against its source (docs/SCALING.md §7 names the files):
 *   rope types   src/llama-model.cpp llama_model_rope_type() @ 00395eb285c7
 *   key names    src/llama-arch.cpp LLM_KV_NAMES @ 00395eb285c7
 *   window rules src/models/{gemma2,cohere2}.cpp @ 82234e08ad11,
 *                src/models/olmo2.cpp @ 8a5c4e03d11b, openai-moe.cpp and the
 *                load_hparams switch of src/llama-model.cpp (Dec 2025
 *                revision: gemma3, gemma3n, gemma-embedding, llama4,
 *                exaone4, smollm3, granite).
 * An architecture absent from them gets a warning, never a guess presented
 * as llama.cpp's.
 */
#include "plan_internal.h"

#include "io/gguf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* llama.cpp's rope type of an architecture. NORM rotates adjacent pairs
 * (its conversion permutes Llama-family q/k weights back to Meta's order),
 * NEOX the two halves; MROPE and IMROPE rotate halves too, with the pairs
 * split into contiguous (MROPE) or interleaved (IMROPE) t/h/w sections.
 * Only architectures whose positions need nothing beyond the generic keys
 * (and the rules below) are listed; the hybrid, draft and per-layer-special
 * ones llama.cpp also lists (falcon-h1, plamo2/3, lfm2, qwen3next, qwen35,
 * granitehybrid, jamba, gemma4, mimo2, step35, deepseek32/4, glm-dsa,
 * mistral4, afmoe, smallthinker, cohere2moe, modern-bert, ...) take the
 * "unknown" path. glm4, glm4moe and hunyuan_vl depend on the file (below). */
static const char *const norm_archs[] = {
    "llama", "llada", "llama4", "deci", "baichuan", "starcoder", "internlm2", "minicpm",
    "xverse", "command-r", "cohere2", "olmo", "arctic", "deepseek", "deepseek2", "plm",
    "chatglm", "granite", "granitemoe", "chameleon", "bailingmoe", "smollm3", "arcee",
    "ernie4_5", "ernie4_5-moe", "mistral3", "llama-embed", "maincoder"};
static const char *const neox_archs[] = {
    "falcon", "dbrx", "stablelm", "bitnet", "qwen", "qwen2", "dream", "qwen2moe", "qwen3",
    "qwen3moe", "llada-moe", "rnd1", "olmo2", "olmoe", "phi2", "phi3", "phimoe", "plamo",
    "gemma", "gemma2", "gemma3", "gemma3n", "gemma-embedding", "starcoder2", "openelm",
    "gptneox", "codeshell", "orion", "nemotron", "exaone", "exaone4", "bailingmoe2", "dots1",
    "hunyuan-moe", "gpt-oss", "hunyuan-dense", "seed_oss", "grovemoe", "apertus",
    "minimax-m2", "cogvlm", "pangu-embedded"};
static const char *const mrope_archs[] = {"qwen2vl"};
static const char *const imrope_archs[] = {"qwen3vl", "qwen3vlmoe"};

typedef enum { ROPE_UNKNOWN, ROPE_NORM, ROPE_NEOX, ROPE_MROPE, ROPE_IMROPE } rope_type;

static bool in_list(const char *s, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0) return true;
    return false;
}
#define IN(s, list) in_list((s), (list), sizeof(list) / sizeof *(list))

/* llama.cpp's hparams.use_mrope(): the first two sections non-zero. */
static bool uses_mrope(const pe__gguf_rope *g) {
    return g->dimension_sections_count >= 2 && g->dimension_sections[0] > 0 &&
           g->dimension_sections[1] > 0;
}

static rope_type rope_type_of(const char *arch, const pe__gguf_rope *g) {
    if (IN(arch, norm_archs)) return ROPE_NORM;
    if (IN(arch, neox_archs)) return ROPE_NEOX;
    if (IN(arch, mrope_archs)) return ROPE_MROPE;
    if (IN(arch, imrope_archs)) return ROPE_IMROPE;
    if (strcmp(arch, "glm4") == 0) return uses_mrope(g) ? ROPE_MROPE : ROPE_NORM;
    if (strcmp(arch, "glm4moe") == 0 || strcmp(arch, "hunyuan_vl") == 0)
        return uses_mrope(g) ? ROPE_MROPE : ROPE_NEOX;
    return ROPE_UNKNOWN;
}

/* Where a sliding layer's base comes from in llama.cpp. */
typedef enum {
    SWA_BASE_KEY_OR_FULL, /* rope.freq_base_swa, else rope.freq_base */
    SWA_BASE_KEY_OR_1E4,  /* rope.freq_base_swa, else llama_hparams' 10000 */
    SWA_BASE_FULL         /* the graph rotates with rope.freq_base whatever the key */
} swa_base;

/* llama.cpp's sliding-window setup of an architecture: the period it sets in
 * code (layer i slides when i % n < n - 1; the integer
 * attention.sliding_window_pattern overrides it), whether the window key
 * must be > 0 for any layer to slide, the window when the key is absent,
 * and the sliding layers' RoPE. */
typedef struct {
    const char *arch;
    uint64_t period;
    bool needs_window;      /* sliding only when the file's window > 0 */
    int64_t default_window; /* when the key is absent (0: none) */
    int64_t only_layers;    /* > 0: the rule applies at this block_count only */
    swa_base base;
    bool unscaled;          /* sliding layers: default RoPE (scale 1, no YaRN) */
} swa_rule;

static const swa_rule swa_rules[] = {
    {"gemma2", 2, false, 4096, 0, SWA_BASE_KEY_OR_FULL, false},
    {"gemma3", 6, true, 0, 0, SWA_BASE_KEY_OR_1E4, true},
    {"gemma3n", 5, false, 0, 0, SWA_BASE_KEY_OR_1E4, true},
    {"gemma-embedding", 6, false, 0, 0, SWA_BASE_KEY_OR_1E4, true},
    {"cohere2", 4, false, 0, 0, SWA_BASE_FULL, false},
    {"gpt-oss", 2, false, 0, 0, SWA_BASE_KEY_OR_FULL, false},
    {"olmo2", 4, true, 0, 0, SWA_BASE_FULL, true}, /* OLMo 3 converts to olmo2 */
    {"exaone4", 4, false, 4096, 64, SWA_BASE_KEY_OR_FULL, false},
};

static const swa_rule *swa_rule_of(const char *arch, int64_t n_layers) {
    for (size_t i = 0; i < sizeof swa_rules / sizeof *swa_rules; i++)
        if (strcmp(arch, swa_rules[i].arch) == 0)
            return swa_rules[i].only_layers == 0 || swa_rules[i].only_layers == n_layers
                       ? &swa_rules[i]
                       : NULL;
    return NULL;
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
    ".rope.scaling.finetuned", ".no_rope_layer_step",
    /* llama.cpp's runtime knobs (context parameters override them): read,
     * not part of the checkpoint's positions */
    ".rope.scaling.yarn_ext_factor", ".rope.scaling.yarn_attn_factor"};

static int warn_unknown_keys(const pe__gguf_rope *g, pe_plan *p) {
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

/* The full-attention RoPE of the file. */
static int read_scaling(const pe__gguf_rope *g, const char *arch, int64_t head_dim,
                        int64_t n_rot, pe_rope_scaling *s, bool *deepseek, f32_notes *notes) {
    const char *type = g->rope_scaling_type;
    const pe__gguf_real *factor = &g->rope_scaling_factor;
    if (!factor->present && g->rope_scale_linear.present) factor = &g->rope_scale_linear;
    /* Without a type llama.cpp takes "linear" with the factor (the old
     * scale_linear key too), a factor of 0 or 1 meaning none. */
    if (type == NULL)
        type = factor->present && factor->value != 0.0 && factor->value != 1.0 ? "linear"
                                                                               : "none";
    pe_scaling_type t;
    if (strcmp(type, "none") == 0) t = PE_SCALING_DEFAULT;
    else if (strcmp(type, "linear") == 0) t = PE_SCALING_LINEAR;
    else if (strcmp(type, "yarn") == 0) t = PE_SCALING_YARN;
    else if (strcmp(type, "longrope") == 0) t = PE_SCALING_LONGROPE;
    else
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.type'='%.40s' is not none, linear, yarn "
                        "or longrope", arch, type);
    const int64_t half = n_rot / 2;
    if (g->rope_freqs.present) {
        /* Llama 3 (and some LongRoPE) conversions bake the scaling into
         * per-pair divisors: w'_i = w_i / rope_freqs[i]. */
        if (t != PE_SCALING_DEFAULT)
            return pe__fail(PE_ERR_UNSUPPORTED, "'rope_freqs.weight' together with "
                            "rope.scaling.type '%s'", type);
        PE_TRY(check_list(&g->rope_freqs, "rope_freqs.weight", half));
        t = PE_SCALING_EXPLICIT;
    }
    *s = pe_rope_scaling_defaults(t, head_dim);
    s->rotary_dim = n_rot;
    s->base = g->rope_freq_base.present ? g->rope_freq_base.value : 10000.0;
    note_f32(notes, &g->rope_freq_base, "rope.freq_base");
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
    if (!factor->present && t != PE_SCALING_LONGROPE)
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.factor' is required for scaling type "
                        "'%s'", arch, type);
    if (factor->present) {
        s->factor = factor->value;
        note_f32(notes, factor, "rope.scaling.factor");
        if (!(s->factor > 0.0))
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.factor'=%g must be > 0", arch,
                            s->factor);
    }
    if (t == PE_SCALING_LINEAR) return PE_OK;
    if (!g->rope_scaling_original_context_length.present)
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.original_context_length' is required "
                        "for scaling type '%s'", arch, type);
    s->original_max_position = (int64_t)g->rope_scaling_original_context_length.value;
    if (s->original_max_position <= 0)
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.original_context_length'=0 must be > 0",
                        arch);
    if (g->rope_scaling_attn_factor.present) {
        s->attention_factor = g->rope_scaling_attn_factor.value;
        note_f32(notes, &g->rope_scaling_attn_factor, "rope.scaling.attn_factor");
    }
    if (t == PE_SCALING_LONGROPE) {
        if (!g->rope_factors_long.present || !g->rope_factors_short.present)
            return pe__fail(PE_ERR_FORMAT, "scaling type 'longrope' needs the "
                            "rope_factors_long.weight and rope_factors_short.weight tensors");
        PE_TRY(check_list(&g->rope_factors_long, "rope_factors_long.weight", half));
        PE_TRY(check_list(&g->rope_factors_short, "rope_factors_short.weight", half));
        s->long_factor = g->rope_factors_long.values;
        s->short_factor = g->rope_factors_short.values;
        s->n_long_factor = s->n_short_factor = half;
        if (s->max_position <= 0 && isnan(s->factor))
            return pe__fail(PE_ERR_FORMAT, "scaling type 'longrope' needs '%s.context_length' "
                            "or '%s.rope.scaling.factor'", arch, arch);
        return PE_OK;
    }
    /* YaRN */
    if (g->yarn_beta_fast.present) s->beta_fast = g->yarn_beta_fast.value;
    if (g->yarn_beta_slow.present) s->beta_slow = g->yarn_beta_slow.value;
    note_f32(notes, &g->yarn_beta_fast, "yarn_beta_fast");
    note_f32(notes, &g->yarn_beta_slow, "yarn_beta_slow");
    if (!(s->beta_fast >= s->beta_slow) || !(s->beta_slow > 0.0))
        return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.yarn_beta_fast'=%g and "
                        "'yarn_beta_slow'=%g: need beta_fast >= beta_slow > 0", arch,
                        s->beta_fast, s->beta_slow);
    if (g->yarn_log_multiplier.present) {
        /* DeepSeek conversions write 0.1 * mscale_all_dim; their mscale
         * equals it, so the magnitude is 1 and the attention multiplies the
         * softmax scale by mscale(f, mscale_all_dim)^2. */
        double m = g->yarn_log_multiplier.value / 0.1;
        if (!(m >= 0.0) || !isfinite(m))
            return pe__fail(PE_ERR_FORMAT, "'%s.rope.scaling.yarn_log_multiplier'=%g must be "
                            ">= 0", arch, g->yarn_log_multiplier.value);
        s->mscale = s->mscale_all_dim = m;
        note_f32(notes, &g->yarn_log_multiplier, "yarn_log_multiplier");
        *deepseek = strcmp(arch, "deepseek2") == 0;
    }
    return PE_OK;
}


/* The sliding layers' RoPE under rule r (NULL: the file's freq_base_swa if
 * any, scaling as the full layers). The float32 notes name the base's key,
 * and for scaled layers the full layers' notes when the base is theirs. */
static void swa_scaling(const pe__gguf_rope *g, const swa_rule *r, const pe_rope_scaling *full,
                        int64_t head_dim, int64_t n_rot, const f32_notes *notes,
                        pe_rope_scaling *swa, f32_notes *swa_notes) {
    const pe__gguf_real *key = NULL;
    if (g->rope_freq_base_swa.present && (r == NULL || r->base != SWA_BASE_FULL))
        key = &g->rope_freq_base_swa;
    double base = full->base;
    if (key != NULL) base = key->value;
    else if (r != NULL && r->base == SWA_BASE_KEY_OR_1E4) base = 10000.0;
    *swa = *full;
    *swa_notes = *notes;
    if (r != NULL && r->unscaled) {
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

static int build(const pe__gguf_rope *g, pe_plan *p) {
    if (g->architecture == NULL)
        return pe__fail(PE_ERR_FORMAT, "GGUF has no general.architecture");
    const char *arch = g->architecture;
    snprintf(p->model_type, sizeof p->model_type, "%.63s", arch);
    snprintf(p->source, sizeof p->source, "gguf");
    if (!g->block_count.present)
        return pe__fail(PE_ERR_FORMAT, "GGUF has no '%s.block_count'", arch);
    if (g->block_count.value < 1 || g->block_count.value > PE_PLAN_MAX_LAYERS)
        return pe__fail(PE_ERR_FORMAT, "'%s.block_count'=%llu must be in [1, %d]", arch,
                        (unsigned long long)g->block_count.value, PE_PLAN_MAX_LAYERS);
    p->n_layers = (int64_t)g->block_count.value;
    int64_t head_dim = 0;
    if (g->key_length.present) {
        head_dim = (int64_t)g->key_length.value;
    } else if (g->embedding_length.present && g->head_count.present &&
               g->head_count.value > 0 && g->embedding_length.value % g->head_count.value == 0) {
        head_dim = (int64_t)(g->embedding_length.value / g->head_count.value);
    } else {
        return pe__fail(PE_ERR_FORMAT, "GGUF gives no head size: '%s.attention.key_length', or "
                        "'%s.embedding_length' a multiple of '%s.attention.head_count'", arch,
                        arch, arch);
    }
    int64_t n_rot = g->rope_dimension_count.present ? (int64_t)g->rope_dimension_count.value
                                                    : head_dim;
    if (head_dim < 2 || head_dim > PE_MAX_ROTARY_DIM || n_rot < 2 || n_rot % 2 != 0 ||
        n_rot > head_dim)
        return pe__fail(PE_ERR_DIM, "'%s.rope.dimension_count'=%lld must be even and in [2, "
                        "head size %lld <= PE_MAX_ROTARY_DIM=%d]", arch, (long long)n_rot, (long long)head_dim,
                        PE_MAX_ROTARY_DIM);

    const rope_type rt = rope_type_of(arch, g);
    const bool known = rt != ROPE_UNKNOWN;
    if (!known)
        PE_TRY(pe__plan_warn(p, "architecture '%s': llama.cpp rope type unknown here; half "
                             "(NEOX) assumed", arch));
    const pe_rope_layout layout = rt == ROPE_NORM ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
    if ((rt == ROPE_MROPE || rt == ROPE_IMROPE) && g->dimension_sections_count == 0)
        PE_TRY(pe__plan_warn(p, "'%s.rope.dimension_sections' absent (llama.cpp requires it "
                             "for '%s'): plain RoPE assumed", arch, arch));

    f32_notes notes = {""};
    bool deepseek = false;
    pe_rope_scaling full;
    PE_TRY(read_scaling(g, arch, head_dim, n_rot, &full, &deepseek, &notes));
    pe__rope_extras x;
    memset(&x, 0, sizeof x);
    if (g->dimension_sections_count > 0) {
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
        /* ggml's sections apply only under an M-RoPE type (glm4 without
         * use_mrope, or a plain architecture, ignores the key). */
        if (rt == ROPE_MROPE || rt == ROPE_IMROPE || !known) x.n_mrope_section = n;
        x.mrope_interleaved = rt == ROPE_IMROPE;
    }
    int32_t full_kind, swa_kind;
    PE_TRY(pe__plan_add_kind(p, &full, &x, layout, known, deepseek, notes.note, &full_kind));

    /* Sliding layers: llama.cpp's rule of the architecture. */
    const swa_rule *rule = swa_rule_of(arch, p->n_layers);
    const bool llama4 = strcmp(arch, "llama4") == 0;
    int64_t window = g->sliding_window.present ? (int64_t)g->sliding_window.value : 0;
    uint64_t period = 0;
    bool swa_on;
    if (rule != NULL) {
        if (!g->sliding_window.present) window = rule->default_window;
        swa_on = window > 0;
        period = g->swa_pattern_present && !g->swa_pattern_is_array ? g->swa_pattern_period
                                                                     : rule->period;
        if (!swa_on && !rule->needs_window)
            PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window' absent or 0: llama.cpp "
                                 "sets sliding layers for '%s' but no window; every layer "
                                 "taken as full attention", arch, arch));
    } else if (llama4) {
        swa_on = false; /* chunked attention, below */
    } else if (known) {
        swa_on = false;
        if (window > 0 || g->swa_pattern_present)
            PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window': llama.cpp runs every layer "
                                 "of '%s' with full attention%s; ignored", arch, arch,
                                 strcmp(arch, "exaone4") == 0 ? " unless block_count is 64"
                                                              : ""));
    } else {
        /* not restated: the file's keys taken at their word */
        swa_on = window > 0;
        if (g->swa_pattern_present && !g->swa_pattern_is_array) period = g->swa_pattern_period;
        if (swa_on && !g->swa_pattern_present)
            PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window' without a pattern: every "
                                 "layer taken as sliding", arch));
    }
    swa_kind = full_kind;
    if (swa_on) { /* a kind no layer uses would show in the plan */
        pe_rope_scaling swa;
        f32_notes swa_notes;
        swa_scaling(g, rule, &full, head_dim, n_rot, &notes, &swa, &swa_notes);
        PE_TRY(pe__plan_add_kind(p, &swa, &x, layout, known, deepseek, swa_notes.note,
                                 &swa_kind));
    }

    p->layers = calloc((size_t)p->n_layers, sizeof *p->layers);
    if (p->layers == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)p->n_layers);
    int32_t t_full, t_swa, t_chunk = -1;
    PE_TRY(pe__plan_type_index(p, "full_attention", &t_full));
    PE_TRY(pe__plan_type_index(p, "sliding_attention", &t_swa));
    if (swa_on && g->swa_pattern_is_array && g->swa_pattern_count != (size_t)p->n_layers)
        return pe__fail(PE_ERR_FORMAT, "'%s.attention.sliding_window_pattern' has %zu entries "
                        "but block_count=%lld", arch, g->swa_pattern_count,
                        (long long)p->n_layers);

    /* NoPE layers: llama.cpp's in-code step (n_no_rope_layer_step: layer i
     * has no RoPE when (i + 1) % step == 0); a file's own key, which
     * llama.cpp does not read, is honoured when present. Llama 4: chunked
     * attention (8192 tokens, period 4) with the NoPE layers' temperature
     * set in code, unless the file's sliding_window is 0 (then no chunks
     * and the step is block_count). */
    uint64_t nope_step = 0;
    bool llama4_chunked = false;
    if (llama4) {
        llama4_chunked = !(g->sliding_window.present && g->sliding_window.value == 0);
        nope_step = llama4_chunked ? 4 : (uint64_t)p->n_layers;
        if (llama4_chunked) PE_TRY(pe__plan_type_index(p, "chunked_attention", &t_chunk));
    } else if (strcmp(arch, "smollm3") == 0) {
        nope_step = 4;
    }
    if (g->no_rope_layer_step.present) nope_step = g->no_rope_layer_step.value;
    /* Granite: rope.scaling.finetuned (default true) switches RoPE on. */
    const bool granite_nope = (strcmp(arch, "granite") == 0 || strcmp(arch, "granitemoe") == 0) &&
                              g->rope_scaling_finetuned.present && !g->rope_scaling_finetuned.value;

    for (int64_t i = 0; i < p->n_layers; i++) {
        pe__layer_rec *L = &p->layers[i];
        /* llama.cpp's set_swa_pattern(n): layer i slides when i % n < n - 1 */
        bool pattern = true;
        if (g->swa_pattern_is_array && g->swa_pattern_count == (size_t)p->n_layers)
            pattern = g->swa_pattern_layers[i];
        else if (period > 0) pattern = (uint64_t)i % period < period - 1;
        const bool sliding = swa_on && pattern;
        L->type = sliding ? t_swa : t_full;
        L->attention = 1;
        L->head_dim = head_dim;
        L->sliding_window = sliding ? window : 0;
        bool rope = !granite_nope;
        if (nope_step > 0 && ((uint64_t)i + 1) % nope_step == 0) rope = false;
        /* cohere2 rotates its sliding-pattern layers only (window or not) */
        if (strcmp(arch, "cohere2") == 0 && !pattern) rope = false;
        if (llama4_chunked) {
            if ((uint64_t)i % 4 < 3) {
                L->type = t_chunk;
                L->chunk = 8192;
            } else if (!rope) {
                L->temperature = (pe_plan_temperature){1, 0.1, 8192, 1};
            }
        }
        L->kind = rope ? (sliding ? swa_kind : full_kind) : -1;
    }
    return warn_unknown_keys(g, p);
}

int pe_plan_from_gguf(const char *path, pe_plan **out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    pe__gguf_rope *g = NULL;
    PE_TRY(pe__gguf_rope_read(path, &g));
    pe_plan *p = calloc(1, sizeof *p);
    if (p == NULL) {
        pe__gguf_rope_free(g);
        return pe__fail(PE_ERR_NOMEM, "no memory for a plan");
    }
    int st = build(g, p);
    pe__gguf_rope_free(g);
    if (st != PE_OK) {
        pe_plan_free(p);
        return st;
    }
    *out = p;
    return PE_OK;
}
