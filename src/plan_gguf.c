/*
 * plan_gguf.c — the per-layer plan of a llama.cpp GGUF file (pe_plan_from_gguf):
 * the metadata the GGUF reader (io/gguf.c) hands over, read back into the
 * Hugging Face parameters convert_hf_to_gguf.py wrote them from, with the
 * layer rules of llama.cpp's own model setup (sliding-window pattern,
 * NoPE step, sliding layers' base). Every float that went through float32
 * is named on the layers it feeds, so a comparison with the config can say
 * why a frequency differs.
 */
#include "plan_internal.h"

#include "io/gguf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* llama.cpp's rope type of an architecture: NORM rotates adjacent pairs
 * (its conversion permutes Llama-family q/k weights back to Meta's order),
 * NEOX the two halves (llama-model.cpp, llama_model_rope_type). */
static const char *const norm_archs[] = {
    "llama", "llama4", "deci", "baichuan", "starcoder", "internlm2", "minicpm", "xverse",
    "command-r", "cohere2", "olmo", "arctic", "deepseek", "deepseek2", "chatglm", "glm4",
    "granite", "granitemoe", "smollm3"};
static const char *const neox_archs[] = {
    "falcon", "qwen", "qwen2", "qwen2moe", "qwen3", "qwen3moe", "phi2", "phi3", "phimoe",
    "gemma", "gemma2", "gemma3", "gemma3n", "starcoder2", "stablelm", "gptneox", "olmo2",
    "olmo3", "olmoe", "exaone", "nemotron", "gpt-oss", "glm4moe", "qwen2vl", "qwen3vl",
    "hunyuan-dense", "hunyuan-moe"};

static bool in_list(const char *s, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0) return true;
    return false;
}

/* The sliding-window period llama.cpp sets in code for architectures whose
 * files carry no pattern key (every n-th layer is full attention). */
static uint64_t default_swa_period(const char *arch) {
    if (strcmp(arch, "gemma2") == 0 || strcmp(arch, "gpt-oss") == 0) return 2;
    if (strcmp(arch, "gemma3") == 0) return 6;
    if (strcmp(arch, "cohere2") == 0) return 4;
    return 0;
}

/* Architectures whose sliding layers run default RoPE (no scaling) at the
 * swa base: Gemma 3 (local base) and OLMo 3 (YaRN on full layers only). */
static bool swa_unscaled(const char *arch) {
    return strcmp(arch, "gemma3") == 0 || strcmp(arch, "gemma3n") == 0 ||
           strcmp(arch, "olmo3") == 0;
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
    if (type == NULL) type = g->rope_scale_linear.present ? "linear" : "none";
    if (!factor->present && g->rope_scale_linear.present) factor = &g->rope_scale_linear;
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

    bool is_norm = in_list(arch, norm_archs, sizeof norm_archs / sizeof *norm_archs);
    bool is_neox = in_list(arch, neox_archs, sizeof neox_archs / sizeof *neox_archs);
    if (!is_norm && !is_neox)
        PE_TRY(pe__plan_warn(p, "architecture '%s': llama.cpp rope type unknown here; half "
                             "(NEOX) assumed", arch));
    const pe_rope_layout layout = is_norm ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;

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
        x.n_mrope_section = n;
    }
    int32_t full_kind, swa_kind;
    PE_TRY(pe__plan_add_kind(p, &full, &x, layout, is_norm || is_neox, deepseek, notes.note,
                             &full_kind));
    /* Sliding layers: the swa base, without scaling where llama.cpp drops it. */
    pe_rope_scaling swa = full;
    f32_notes swa_notes = notes;
    if (g->rope_freq_base_swa.present) {
        swa.base = g->rope_freq_base_swa.value;
        swa_notes.note[0] = '\0';
        note_f32(&swa_notes, &g->rope_freq_base_swa, "rope.freq_base_swa");
    }
    if (swa_unscaled(arch)) {
        pe_rope_scaling plain = pe_rope_scaling_defaults(PE_SCALING_DEFAULT, head_dim);
        plain.rotary_dim = n_rot;
        plain.base = swa.base;
        plain.max_position = swa.max_position;
        swa = plain;
        if (!g->rope_freq_base_swa.present) {
            swa_notes.note[0] = '\0';
            note_f32(&swa_notes, &g->rope_freq_base, "rope.freq_base");
        }
    }
    PE_TRY(pe__plan_add_kind(p, &swa, &x, layout, is_norm || is_neox, deepseek, swa_notes.note,
                             &swa_kind));

    p->layers = calloc((size_t)p->n_layers, sizeof *p->layers);
    if (p->layers == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)p->n_layers);
    int32_t t_full, t_swa;
    PE_TRY(pe__plan_type_index(p, "full_attention", &t_full));
    PE_TRY(pe__plan_type_index(p, "sliding_attention", &t_swa));
    const int64_t window = g->sliding_window.present ? (int64_t)g->sliding_window.value : 0;
    uint64_t period = g->swa_pattern_present && !g->swa_pattern_is_array ? g->swa_pattern_period
                                                                          : default_swa_period(arch);
    if (g->swa_pattern_is_array && g->swa_pattern_count != (size_t)p->n_layers)
        return pe__fail(PE_ERR_FORMAT, "'%s.attention.sliding_window_pattern' has %zu entries "
                        "but block_count=%lld", arch, g->swa_pattern_count,
                        (long long)p->n_layers);
    const uint64_t nope_step = g->no_rope_layer_step.present ? g->no_rope_layer_step.value : 0;
    for (int64_t i = 0; i < p->n_layers; i++) {
        pe__layer_rec *L = &p->layers[i];
        bool sliding;
        if (window <= 0) sliding = false;
        else if (g->swa_pattern_is_array) sliding = g->swa_pattern_layers[i];
        else if (period > 0) sliding = (uint64_t)i % period < period - 1; /* llama.cpp's rule */
        else sliding = true;
        L->type = sliding ? t_swa : t_full;
        L->attention = 1;
        L->head_dim = head_dim;
        L->sliding_window = sliding ? window : 0;
        bool rope = true;
        if (nope_step > 0 && ((uint64_t)i + 1) % nope_step == 0) rope = false;
        if (strcmp(arch, "cohere2") == 0 && !sliding) rope = false;
        L->kind = rope ? (sliding ? swa_kind : full_kind) : -1;
    }
    if (window > 0 && !g->swa_pattern_present && period == 0)
        PE_TRY(pe__plan_warn(p, "'%s.attention.sliding_window' without a pattern: every layer "
                             "taken as sliding", arch));
    if (strcmp(arch, "llama4") == 0)
        PE_TRY(pe__plan_warn(p, "llama4: the GGUF carries no attention temperature or chunk "
                             "keys; the NoPE layers' query scale is not in this plan"));
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
