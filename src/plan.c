/*
 * plan.c — a checkpoint's per-layer positional plan from its config.json
 * (include/posenc.h, "per-layer positional plan"). The decoder's config is
 * found as transformers' get_text_config() finds it; each layer gets a
 * layer type (layer_types, or the family's rule), whether it attends and
 * rotates (NoPE schedules, linear-attention layers), and a RoPE kind read
 * by config_rope.c's pe__read_rope from the block that applies to that type.
 * Equal kinds are stored once; layers hold an index. Everything the reader
 * did not understand becomes a warning in the plan.
 */
#include "plan_internal.h"
#include "scaling_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

static void kind_release(pe__rope_kind *k) {
    free(k->short_factor);
    free(k->long_factor);
    free(k->divisors);
}

void pe_plan_free(pe_plan *plan) {
    if (plan == NULL) return;
    for (int64_t i = 0; i < plan->n_kinds; i++) kind_release(&plan->kinds[i]);
    free(plan->kinds);
    free(plan->positions);
    free(plan->layers);
    for (int64_t i = 0; i < plan->n_names; i++) free(plan->names[i]);
    for (int64_t i = 0; i < plan->n_warnings; i++) free(plan->warnings[i]);
    free(plan);
}

/* Layer types without attention over token positions: they see none. The
 * names transformers' hybrids write in layer_types, and the family's own. */
static bool is_attention_type(const pe__family *fam, const char *t) {
    static const char *const none[] = {"linear_attention", "mamba", "mamba2", "conv",
                                       "short_conv", "recurrent", "ssm"};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        if (strcmp(t, none[i]) == 0) return false;
    for (const char *const *n = fam->none_types; n != NULL && *n != NULL; n++)
        if (strcmp(t, *n) == 0) return false;
    return true;
}

/* --------------------------------------------------- the decoder config */

/* get_text_config(): the decoder's block when the file nests one (a
 * multimodal or omni checkpoint), else the top level. Two candidates are
 * a contradiction, as in HF. */
static int find_text_config(const cJSON *root, pe__scope *text, const char **name) {
    static const char *const keys[] = {"text_config", "language_config", "llm_config",
                                       "thinker_config"};
    pe__scope top = {root, ""};
    *text = top;
    *name = NULL;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const cJSON *o;
        PE_TRY(pe__json_object(top, keys[k], &o));
        if (o == NULL) continue;
        if (*name != NULL)
            return pe__fail(PE_ERR_FORMAT, "config has two decoder configs, '%s' and "
                            "'%s'", *name, keys[k]);
        *name = keys[k];
        text->obj = o;
    }
    if (*name != NULL && strcmp(*name, "thinker_config") == 0) {
        const cJSON *inner;
        PE_TRY(pe__json_object((pe__scope){text->obj, "thinker_config."}, "text_config",
                               &inner));
        if (inner != NULL) {
            text->obj = inner;
            *name = "thinker_config.text_config";
        }
    }
    return PE_OK;
}

/* ------------------------------------------------------- layer types */

typedef struct {
    const cJSON *root;
    pe__scope top;           /* decoder config */
    char top_prefix[48];
    const pe__family *fam;   /* never NULL once read_model_type succeeded */
    const char *family;      /* the caller's family override (NULL: model_type) */
    pe__scope block;         /* rope_parameters / rope_scaling (obj NULL: none) */
    char block_prefix[96];
    bool per_type;           /* block is {layer_type: {...}} */
    cJSON *owned_default;    /* a class-default block we built (Gemma 4) */
    pe__family merged;       /* the text family with a wrapper's text defaults (Voxtral) */
} reader;

/* The layer count: the file's key, else the family class's default
 * (LlamaConfig: 32; a wrapper's text_config uses its text family's record),
 * else a refusal naming the keys and the family: never a guessed count. A
 * layer_types list must then have that many entries, as transformers'
 * PreTrainedConfig.validate_layer_type requires. */
static int read_layer_count(reader *r, int64_t *n) {
    static const char *const keys[] = {"num_hidden_layers", "n_layer", "num_layers"};
    bool has;
    if (r->fam->layers_key != NULL) {
        /* LongCat-Flash: each of num_layers blocks holds two attention layers */
        int64_t blocks, stated;
        PE_TRY(pe__json_int(r->top, r->fam->layers_key, &blocks, &has));
        if (has) {
            if (blocks < 1 || blocks > PE_PLAN_MAX_LAYERS / r->fam->layers_factor)
                return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be in [1, %lld]",
                                r->top.prefix, r->fam->layers_key, (long long)blocks,
                                (long long)(PE_PLAN_MAX_LAYERS / r->fam->layers_factor));
            *n = blocks * r->fam->layers_factor;
            PE_TRY(pe__json_int(r->top, "num_hidden_layers", &stated, &has));
            if (has && stated != *n)
                return pe__fail(PE_ERR_FORMAT, "'%snum_hidden_layers'=%lld, but model_type '%s' "
                                "has %lld attention layers per '%s' block: %lld x %lld = %lld",
                                r->top.prefix, (long long)stated, r->fam->model_type,
                                (long long)r->fam->layers_factor, r->fam->layers_key,
                                (long long)blocks, (long long)r->fam->layers_factor,
                                (long long)*n);
            return PE_OK;
        }
    }
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        PE_TRY(pe__json_int(r->top, keys[k], n, &has));
        if (!has) continue;
        if (*n < 1 || *n > PE_PLAN_MAX_LAYERS)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be in [1, %d]", r->top.prefix,
                            keys[k], (long long)*n, PE_PLAN_MAX_LAYERS);
        return PE_OK;
    }
    bool found = false;
    PE_TRY(pe__plan_group_layer_count(r->top, r->fam, n, &found)); /* Nemotron-H */
    if (found) return PE_OK;
    if (r->fam->defaults.layers <= 0)
        return pe__fail(PE_ERR_FORMAT, "config has no '%snum_hidden_layers' (or n_layer / "
                        "num_layers), and posenc's record of '%s' states no class default for "
                        "it: add the key", r->top.prefix, r->fam->model_type);
    *n = r->fam->defaults.layers;
    const cJSON *lt;
    PE_TRY(pe__json_find(r->top, "layer_types", &lt));
    if (cJSON_IsArray(lt) && cJSON_GetArraySize(lt) != *n)
        return pe__fail(PE_ERR_FORMAT, "'%slayer_types' has %d entries but the config has no "
                        "num_hidden_layers and '%s' defaults to %lld layers: add the key",
                        r->top.prefix, cJSON_GetArraySize(lt), r->fam->model_type,
                        (long long)*n);
    return PE_OK;
}

/* Each layer's type name: layer_types, else the family's rule. */
static int assign_types(reader *r, pe_plan *p, const int *use_rope) {
    bool done = false; /* the hybrids' rules (plan_hybrid_layers.c) */
    PE_TRY(pe__plan_group_layer_types(r->top, r->fam, p, &done));
    if (done) return PE_OK;
    const cJSON *lt;
    PE_TRY(pe__json_find(r->top, "layer_types", &lt));
    if (lt != NULL) {
        if (!cJSON_IsArray(lt))
            return pe__fail(PE_ERR_FORMAT, "'%slayer_types' must be an array of strings, "
                            "not %s", r->top.prefix, pe__json_type_name(lt));
        int64_t i = 0;
        for (const cJSON *c = lt->child; c != NULL; c = c->next, i++) {
            if (!cJSON_IsString(c) || c->valuestring == NULL)
                return pe__fail(PE_ERR_FORMAT, "'%slayer_types'[%lld] must be a string, "
                                "not %s", r->top.prefix, (long long)i,
                                pe__json_type_name(c));
            if (i < p->n_layers) PE_TRY(pe__plan_type_index(p, c->valuestring, &p->layers[i].type));
        }
        if (i != p->n_layers)
            return pe__fail(PE_ERR_FORMAT, "'%slayer_types' has %lld entries but "
                            "num_hidden_layers=%lld", r->top.prefix, (long long)i,
                            (long long)p->n_layers);
        /* Gemma4TextConfig forces the last layer to full attention. */
        if (r->fam->full == PE__FULL_GLOBAL_HEAD_DIM &&
            strcmp(p->names[p->layers[p->n_layers - 1].type], "full_attention") != 0) {
            PE_TRY(pe__plan_warn(p, "'%slayer_types': the last layer is '%s'; Gemma 4 makes it "
                                 "full_attention", r->top.prefix,
                                 p->names[p->layers[p->n_layers - 1].type]));
            PE_TRY(pe__plan_type_index(p, "full_attention", &p->layers[p->n_layers - 1].type));
        }
        return PE_OK;
    }
    int32_t full, sliding, chunked;
    PE_TRY(pe__plan_type_index(p, "full_attention", &full));
    bool has;
    int64_t pattern = r->fam->defaults.pattern, window = 0, mwl = 0;
    PE_TRY(pe__json_int(r->top, "sliding_window", &window, &has));
    bool has_window = has;
    if (r->fam->layers == PE__LAYERS_PATTERN || r->fam->layers == PE__LAYERS_FULL_EVERY_NTH) {
        /* One global layer per period of n: the last of each (Gemma: sliding
         * if (i + 1) % n, n from sliding_window_pattern or the record's key)
         * or the first (ModernBERT: sliding if i % global_attn_every_n_layers,
         * layer 0 global; no key: the class default). */
        const bool first = r->fam->layers == PE__LAYERS_FULL_EVERY_NTH;
        const char *pattern_key = r->fam->pattern_key != NULL ? r->fam->pattern_key
                                  : first                     ? NULL
                                                              : "sliding_window_pattern";
        if (pattern_key != NULL) PE_TRY(pe__json_int(r->top, pattern_key, &pattern, &has));
        if (pattern_key != NULL && !has && r->fam->pattern_key == NULL) {
            int64_t v;
            PE_TRY(pe__json_int(r->top, "_sliding_window_pattern", &v, &has));
            if (has) pattern = v;
        }
        if (pattern < 1)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be >= 1", r->top.prefix,
                            pattern_key != NULL ? pattern_key : "pattern", (long long)pattern);
        PE_TRY(pe__plan_type_index(p, "sliding_attention", &sliding));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = (first ? i : i + 1) % pattern != 0 ? sliding : full;
        return PE_OK;
    }
    if (r->fam->layers == PE__LAYERS_LINEAR_INTERVAL) {
        /* Qwen3-Next / Qwen3.5: gated-delta-net layers with a full-attention
         * layer every full_attention_interval. */
        int32_t linear;
        PE_TRY(pe__json_int(r->top, "full_attention_interval", &pattern, &has));
        if (pattern < 1)
            return pe__fail(PE_ERR_FORMAT, "'%sfull_attention_interval'=%lld must be >= 1",
                            r->top.prefix, (long long)pattern);
        PE_TRY(pe__plan_type_index(p, "linear_attention", &linear));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = (i + 1) % pattern != 0 ? linear : full;
        return PE_OK;
    }
    if (r->fam->layers == PE__LAYERS_PERIOD) {
        /* Jamba: attention at i % attn_layer_period == attn_layer_offset. */
        int64_t period = r->fam->defaults.period, offset = r->fam->defaults.offset;
        int32_t attention, mamba;
        PE_TRY(pe__json_int(r->top, "attn_layer_period", &period, &has));
        PE_TRY(pe__json_int(r->top, "attn_layer_offset", &offset, &has));
        if (period < 1 || offset < 0 || offset >= period)
            return pe__fail(PE_ERR_FORMAT, "'%sattn_layer_period'=%lld and 'attn_layer_offset'=%lld: "
                            "need 0 <= offset < period", r->top.prefix, (long long)period,
                            (long long)offset);
        PE_TRY(pe__plan_type_index(p, "attention", &attention));
        PE_TRY(pe__plan_type_index(p, "mamba", &mamba));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = i % period == offset ? attention : mamba;
        return PE_OK;
    }
    if (r->fam->layers == PE__LAYERS_CYCLE) {
        /* RecurrentGemma: (block_types * 100)[:num_hidden_layers]; MiniMax:
         * full_attention on even layers, linear_attention on odd. */
        int32_t types[16];
        int64_t n = 0;
        const cJSON *list = NULL;
        if (r->fam->cycle_key != NULL) PE_TRY(pe__json_find(r->top, r->fam->cycle_key, &list));
        if (list != NULL) {
            if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) < 1 ||
                cJSON_GetArraySize(list) > 16)
                return pe__fail(PE_ERR_FORMAT, "'%s%s' must be an array of 1 to 16 strings",
                                r->top.prefix, r->fam->cycle_key);
            for (const cJSON *c = list->child; c != NULL; c = c->next, n++) {
                if (!cJSON_IsString(c) || c->valuestring == NULL)
                    return pe__fail(PE_ERR_FORMAT, "'%s%s'[%lld] must be a string, not %s",
                                    r->top.prefix, r->fam->cycle_key, (long long)n,
                                    pe__json_type_name(c));
                PE_TRY(pe__plan_type_index(p, c->valuestring, &types[n]));
            }
        } else {
            for (; r->fam->cycle != NULL && n < 16 && r->fam->cycle[n] != NULL; n++)
                PE_TRY(pe__plan_type_index(p, r->fam->cycle[n], &types[n]));
        }
        if (n == 0)
            return pe__fail(PE_ERR_UNSUPPORTED, "model_type '%s' has an empty layer cycle",
                            r->fam->model_type);
        for (int64_t i = 0; i < p->n_layers; i++) p->layers[i].type = types[i % n];
        return PE_OK;
    }
    if (r->fam->layers == PE__LAYERS_ALL_MAMBA) {
        int32_t mamba;
        PE_TRY(pe__plan_type_index(p, "mamba", &mamba));
        for (int64_t i = 0; i < p->n_layers; i++) p->layers[i].type = mamba;
        return PE_OK;
    }
    if (r->fam->layers == PE__LAYERS_ATTN_INDEXES) {
        /* Lfm2Config: "full_attention" if i in full_attn_idxs else "conv",
         * with full_attn_idxs = range(num_hidden_layers) when absent. An
         * entry HF's membership test would never match (not an integer,
         * outside the layers) means the file and num_hidden_layers disagree:
         * refused by name rather than dropped. A repeated index means what
         * HF's test makes of it: nothing more. */
        const cJSON *idx;
        PE_TRY(pe__json_find(r->top, "full_attn_idxs", &idx));
        if (idx == NULL || cJSON_IsNull(idx)) {
            for (int64_t i = 0; i < p->n_layers; i++) p->layers[i].type = full;
            return PE_OK;
        }
        if (!cJSON_IsArray(idx))
            return pe__fail(PE_ERR_FORMAT, "'%sfull_attn_idxs' must be an array of layer "
                            "indexes, not %s", r->top.prefix, pe__json_type_name(idx));
        int32_t conv;
        PE_TRY(pe__plan_type_index(p, "conv", &conv));
        for (int64_t i = 0; i < p->n_layers; i++) p->layers[i].type = conv;
        int64_t k = 0;
        for (const cJSON *c = idx->child; c != NULL; c = c->next, k++) {
            double v = cJSON_IsNumber(c) ? c->valuedouble : -1.0;
            if (!(v >= 0.0) || v != floor(v) || v >= (double)p->n_layers)
                return pe__fail(PE_ERR_FORMAT, "'%sfull_attn_idxs'[%lld] must be a layer index "
                                "in [0, %lld) (num_hidden_layers=%lld)", r->top.prefix,
                                (long long)k, (long long)p->n_layers, (long long)p->n_layers);
            p->layers[(int64_t)v].type = full;
        }
        return PE_OK;
    }
    if (r->fam->layers == PE__LAYERS_ALTERNATE) {
        PE_TRY(pe__plan_type_index(p, "sliding_attention", &sliding));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = i % 2 == 0 ? sliding : full;
        return PE_OK;
    }
    if (r->fam->layers == PE__LAYERS_CHUNKED) {
        PE_TRY(pe__plan_type_index(p, "chunked_attention", &chunked));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = use_rope[i] ? chunked : full;
        return PE_OK;
    }
    bool use_window = true;
    PE_TRY(pe__json_bool(r->top, "use_sliding_window", &use_window, &has));
    bool qwen = r->fam->layers == PE__LAYERS_QWEN_WINDOW;
    if (!has && qwen) use_window = false; /* Qwen's default */
    if (has_window && use_window) {
        PE_TRY(pe__plan_type_index(p, "sliding_attention", &sliding));
        PE_TRY(pe__json_int(r->top, "max_window_layers", &mwl, &has));
        if (!qwen) mwl = 0;
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = i >= mwl ? sliding : full;
        return PE_OK;
    }
    for (int64_t i = 0; i < p->n_layers; i++) p->layers[i].type = full;
    return PE_OK;
}

/* The NoPE schedule: no_rope_layers (1 = rotate) or every
 * no_rope_layer_interval-th layer NoPE. */
static int read_nope_mask(reader *r, pe_plan *p, int *use_rope) {
    for (int64_t i = 0; i < p->n_layers; i++) use_rope[i] = 1;
    const cJSON *list;
    int64_t interval = r->fam->defaults.nope_interval;
    bool has_interval;
    PE_TRY(pe__json_find(r->top, "no_rope_layers", &list));
    PE_TRY(pe__json_int(r->top, "no_rope_layer_interval", &interval, &has_interval));
    bool mask = r->fam->nope == PE__NOPE_MASK;
    if (list == NULL && !has_interval && !mask) return PE_OK;
    if (!mask) {
        if (list != NULL) PE_TRY(pe__plan_warn(p, "'%sno_rope_layers': model_type '%s' does not "
                                      "read it; ignored", r->top.prefix, p->model_type));
        if (has_interval) PE_TRY(pe__plan_warn(p, "'%sno_rope_layer_interval': model_type '%s' "
                                      "does not read it; ignored", r->top.prefix,
                                      p->model_type));
        return PE_OK;
    }
    if (list != NULL && !cJSON_IsArray(list))
        return pe__fail(PE_ERR_FORMAT, "'%sno_rope_layers' must be an array of 0/1, not %s",
                        r->top.prefix, pe__json_type_name(list));
    if (list != NULL && cJSON_GetArraySize(list) > 0) {
        int64_t i = 0;
        for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
            if (!cJSON_IsNumber(c) || (c->valuedouble != 0.0 && c->valuedouble != 1.0))
                return pe__fail(PE_ERR_FORMAT, "'%sno_rope_layers'[%lld] must be 0 or 1",
                                r->top.prefix, (long long)i);
            if (i < p->n_layers) use_rope[i] = c->valuedouble != 0.0;
        }
        if (i != p->n_layers)
            return pe__fail(PE_ERR_FORMAT, "'%sno_rope_layers' has %lld entries but "
                            "num_hidden_layers=%lld", r->top.prefix, (long long)i,
                            (long long)p->n_layers);
        return PE_OK;
    }
    if (interval == 0) return PE_OK;
    if (interval < 1)
        return pe__fail(PE_ERR_FORMAT, "'%sno_rope_layer_interval'=%lld must be >= 1",
                        r->top.prefix, (long long)interval);
    for (int64_t i = 0; i < p->n_layers; i++) use_rope[i] = (i + 1) % interval != 0;
    return PE_OK;
}

/* Mllama: cross_attention_layers lists the layers that attend to the
 * image (no positions there); the others are self-attention. */
static int read_cross_layers(reader *r, pe_plan *p, bool *cross) {
    const cJSON *list;
    PE_TRY(pe__json_find(r->top, "cross_attention_layers", &list));
    if (list == NULL) return PE_OK;
    if (!cJSON_IsArray(list))
        return pe__fail(PE_ERR_FORMAT, "'%scross_attention_layers' must be an array of layer "
                        "indices, not %s", r->top.prefix, pe__json_type_name(list));
    int32_t type;
    PE_TRY(pe__plan_type_index(p, "cross_attention", &type));
    int64_t k = 0;
    for (const cJSON *c = list->child; c != NULL; c = c->next, k++) {
        if (!cJSON_IsNumber(c) || c->valuedouble != floor(c->valuedouble) ||
            c->valuedouble < 0 || c->valuedouble >= (double)p->n_layers)
            return pe__fail(PE_ERR_FORMAT, "'%scross_attention_layers'[%lld] must be a layer "
                            "index in [0, %lld)", r->top.prefix, (long long)k,
                            (long long)p->n_layers);
        int64_t i = (int64_t)c->valuedouble;
        cross[i] = true;
        p->layers[i].type = type;
    }
    return PE_OK;
}

/* ------------------------------------------------------- RoPE kinds */

static bool kind_equal(const pe__rope_kind *a, const pe__rope_kind *b) {
    /* the scaling with its lists, compared over the scheme table */
    pe_rope_scaling x = a->s, y = b->s;
    x.short_factor = a->short_factor, x.long_factor = a->long_factor, x.divisors = a->divisors;
    y.short_factor = b->short_factor, y.long_factor = b->long_factor, y.divisors = b->divisors;
    if (!pe__scaling_equal(&x, &y)) return false;
    const pe__rope_extras *u = &a->x, *v = &b->x;
    if (u->n_mrope_section != v->n_mrope_section ||
        u->mrope_interleaved != v->mrope_interleaved || u->has_mscales != v->has_mscales ||
        u->short_mscale != v->short_mscale || u->long_mscale != v->long_mscale ||
        u->has_beta != v->has_beta || u->llama4_beta != v->llama4_beta ||
        u->llama4_span != v->llama4_span)
        return false;
    for (int64_t i = 0; i < u->n_mrope_section; i++)
        if (u->mrope_section[i] != v->mrope_section[i]) return false;
    return a->layout == b->layout && a->deepseek_softmax == b->deepseek_softmax &&
           strcmp(a->f32_note, b->f32_note) == 0;
}

static double *copy_list(const double *v, int64_t n, bool *failed) {
    if (n <= 0 || v == NULL) return NULL;
    double *d = malloc((size_t)n * sizeof(double));
    if (d == NULL) *failed = true;
    else memcpy(d, v, (size_t)n * sizeof(double));
    return d;
}

int pe__plan_add_kind(pe_plan *p, const pe_rope_scaling *s, const pe__rope_extras *x,
                      pe_rope_layout layout, int layout_known, bool deepseek,
                      const char *f32_note, int32_t *index) {
    pe__rope_kind k;
    memset(&k, 0, sizeof k);
    k.s = *s;
    k.s.seq_len = 0;
    k.s.short_factor = k.s.long_factor = k.s.divisors = NULL;
    k.x = *x;
    k.layout = layout;
    k.layout_known = layout_known;
    k.deepseek_softmax = deepseek;
    snprintf(k.f32_note, sizeof k.f32_note, "%s", f32_note ? f32_note : "");
    bool failed = false;
    k.short_factor = copy_list(s->short_factor, s->n_short_factor, &failed);
    k.long_factor = copy_list(s->long_factor, s->n_long_factor, &failed);
    k.divisors = copy_list(s->divisors, s->n_divisors, &failed);
    if (failed) {
        kind_release(&k);
        return pe__fail(PE_ERR_NOMEM, "no memory for a plan's RoPE lists");
    }
    for (int64_t i = 0; i < p->n_kinds; i++)
        if (kind_equal(&p->kinds[i], &k)) {
            kind_release(&k);
            *index = (int32_t)i;
            return PE_OK;
        }
    pe__rope_kind *grown = realloc(p->kinds, (size_t)(p->n_kinds + 1) * sizeof *grown);
    if (grown == NULL) {
        kind_release(&k);
        return pe__fail(PE_ERR_NOMEM, "no memory for a plan's RoPE kinds");
    }
    p->kinds = grown;
    p->kinds[p->n_kinds] = k;
    *index = (int32_t)p->n_kinds++;
    return PE_OK;
}

/* Warnings for the keys of a block the reader does not understand, and
 * for keys only another family's code reads. */
static int warn_block_keys(reader *r, pe_plan *p, pe__scope block) {
    if (block.obj == NULL) return PE_OK;
    for (const cJSON *c = block.obj->child; c != NULL; c = c->next) {
        const char *k = c->string ? c->string : "?";
        if (!pe__rope_key_known(k)) {
            PE_TRY(pe__plan_warn(p, "'%s%s': not understood; ignored", block.prefix, k));
            continue;
        }
        const pe__family *f = r->fam;
        struct { const char *key; bool reads; const char *who; } only[] = {
            {"alpha", f->rope_extra == PE__EXTRA_HUNYUAN_ALPHA, "HunYuan"},
            {"short_mscale", f->rope_extra == PE__EXTRA_PHIMOE_MSCALE, "PhiMoE"},
            {"long_mscale", f->rope_extra == PE__EXTRA_PHIMOE_MSCALE, "PhiMoE"},
            {"llama_4_scaling_beta", f->query == PE__QUERY_LLAMA4_BETA, "Ministral 3"},
        };
        for (size_t i = 0; i < sizeof only / sizeof *only; i++)
            if (strcmp(k, only[i].key) == 0 && !only[i].reads)
                PE_TRY(pe__plan_warn(p, "'%s%s': only %s's code reads it (model_type '%s'); "
                            "ignored", block.prefix, k, only[i].who, p->model_type));
    }
    return PE_OK;
}

/* A key the record names as one its family reads (base alias, local base,
 * layer pattern, a refused switch). */
static bool family_reads(const pe__family *fam, const char *k) {
    const char *named[] = {fam->base_alias, fam->local_base_key, fam->pattern_key,
                           fam->refuse_if[0].key, fam->refuse_if[1].key};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (named[i] != NULL && strcmp(k, named[i]) == 0) return true;
    return false;
}

/* A key the record lists as one its family's code ignores (warned by
 * pe__plan_warn_ignored, never read). */
static bool family_ignores(const pe__family *fam, const char *k) {
    for (size_t i = 0; i < sizeof fam->ignored / sizeof *fam->ignored; i++)
        if (fam->ignored[i].key != NULL && strcmp(fam->ignored[i].key, k) == 0) return true;
    return false;
}

/* Top-level keys that look positional but that the reader does not use. */
static int warn_top_keys(reader *r, pe_plan *p) {
    static const char *const known[] = {
        "rope_theta", "rope_scaling", "rope_parameters", "rope_local_base_freq",
        "partial_rotary_factor", "rotary_pct", "rotary_dim", "rotary_emb_base",
        "qk_rope_head_dim", "no_rope_layers", "no_rope_layer_interval", "rope_interleave",
        "attn_temperature_tuning", "position_embedding_type", "mrope_section",
        "max_position_embeddings", "original_max_position_embeddings", "floor_scale",
        "attn_scale", "rotary", "qk_nope_head_dim", "full_attention_interval"};
    static const char *const hints[] = {"rope", "rotary", "nope", "yarn", "alibi",
                                        "temperature", "position_embedding"};
    for (const cJSON *c = r->top.obj->child; c != NULL; c = c->next) {
        const char *k = c->string ? c->string : "";
        bool is_known = false, looks = false;
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if (strcmp(k, known[i]) == 0) is_known = true;
        if (family_reads(r->fam, k) || family_ignores(r->fam, k)) is_known = true;
        for (size_t i = 0; i < sizeof hints / sizeof *hints; i++)
            if (strstr(k, hints[i]) != NULL) looks = true;
        if (looks && !is_known)
            PE_TRY(pe__plan_warn(p, "'%s%s': not understood; ignored", r->top.prefix, k));
    }
    const cJSON *j;
    PE_TRY(pe__json_find(r->top, "rope_local_base_freq", &j));
    if (j != NULL && r->fam->sliding != PE__SLIDING_LOCAL_BASE && !r->per_type)
        PE_TRY(pe__plan_warn(p, "'%srope_local_base_freq': model_type '%s' does not read it; "
                    "ignored", r->top.prefix, p->model_type));
    return PE_OK;
}

/* Beside per-layer-type blocks, plain keys are not read by HF (it indexes
 * the dict by layer type); null ones are how v5 writes "unset". */
static int warn_per_type_plain(reader *r, pe_plan *p) {
    if (!r->per_type) return PE_OK;
    for (const cJSON *c = r->block.obj->child; c != NULL; c = c->next)
        if (!cJSON_IsObject(c) && !cJSON_IsNull(c))
            PE_TRY(pe__plan_warn(p, "'%s%s': beside per-layer-type blocks; ignored", r->block_prefix,
                        c->string ? c->string : "?"));
    return PE_OK;
}

/* The RoPE source of layers of type `type`. */
static int kind_for_type(reader *r, pe_plan *p, const char *type, int32_t *index,
                         char *prefix_buf, size_t prefix_cap) {
    pe__rope_source src;
    memset(&src, 0, sizeof src);
    src.top = r->top;
    src.fam = r->fam;
    src.block = r->block;
    bool sliding = strcmp(type, "sliding_attention") == 0;
    if (r->per_type) {
        const cJSON *b;
        PE_TRY(pe__json_find(r->block, type, &b));
        if (b == NULL)
            return pe__fail(PE_ERR_FORMAT, "'%.*s' has no block for layer type '%.60s'",
                            (int)strlen(r->block_prefix) - 1, r->block_prefix, type);
        if (!cJSON_IsObject(b))
            return pe__fail(PE_ERR_FORMAT, "'%s%.60s' must be an object, not %s",
                            r->block_prefix, type, pe__json_type_name(b));
        snprintf(prefix_buf, prefix_cap, "%s%s.", r->block_prefix, type);
        src.block = (pe__scope){b, prefix_buf};
    } else if (sliding && r->fam->sliding == PE__SLIDING_LOCAL_BASE) {
        /* Gemma 3 / 3n: local layers run default RoPE at the local base. */
        bool has;
        src.base_only = true;
        src.has_base = true;
        src.base = r->fam->defaults.local_base;
        PE_TRY(pe__json_number(r->top, r->fam->local_base_key ? r->fam->local_base_key
                                                              : "rope_local_base_freq",
                               &src.base, &has));
    } else if (sliding && r->fam->sliding == PE__SLIDING_UNSCALED) {
        src.base_only = true; /* OLMo 3: scaling on full-attention layers only */
    }
    if (r->fam->full == PE__FULL_GLOBAL_HEAD_DIM && strcmp(type, "full_attention") == 0) {
        bool has;
        src.head_dim = 512; /* Gemma4TextConfig's global_head_dim default */
        PE_TRY(pe__json_int(r->top, "global_head_dim", &src.head_dim, &has));
        if (src.head_dim <= 0)
            return pe__fail(PE_ERR_DIM, "'%sglobal_head_dim'=%lld must be > 0",
                            r->top.prefix, (long long)src.head_dim);
        src.head_key = "global_head_dim";
    }
    pe_rope_config cfg, *c = &cfg; /* 8.5 KiB since PE_MAX_ROTARY_DIM is 1024 */
    pe__rope_extras x;
    int st = pe__read_rope(&src, c, &x);
    if (st == PE_OK) st = warn_block_keys(r, p, src.block);
    if (st == PE_OK) {
        pe_rope_scaling sc = c->scaling;
        sc.short_factor = c->short_factor;
        sc.long_factor = c->long_factor;
        st = pe__plan_add_kind(p, &sc, &x, c->layout, c->layout_known,
                               r->fam->softmax == PE__SOFTMAX_DEEPSEEK_MSCALE, NULL, index);
    }
    return st;
}

/* The class-default block of a family that has one and a file without. */
static int default_block(reader *r) {
    if (r->fam->default_block != NULL) {
        /* the class's own default block (ApertusConfig, CwmConfig: llama3) */
        r->owned_default = cJSON_Parse(r->fam->default_block);
        if (r->owned_default == NULL)
            return pe__fail(PE_ERR_NOMEM, "no memory for model_type '%s''s default "
                            "rope_parameters", r->fam->model_type);
        r->block.obj = r->owned_default;
        return PE_OK;
    }
    if (r->fam->full != PE__FULL_GLOBAL_HEAD_DIM) return PE_OK;
    r->owned_default = cJSON_Parse(
        "{\"sliding_attention\":{\"rope_type\":\"default\",\"rope_theta\":10000.0},"
        "\"full_attention\":{\"rope_type\":\"proportional\",\"partial_rotary_factor\":0.25,"
        "\"rope_theta\":1000000.0}}");
    if (r->owned_default == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory for Gemma 4's default rope_parameters");
    r->block.obj = r->owned_default;
    return PE_OK;
}

static int find_block(reader *r) {
    const cJSON *rs, *rp;
    PE_TRY(pe__json_object(r->top, "rope_scaling", &rs));
    PE_TRY(pe__json_object(r->top, "rope_parameters", &rp));
    if (rs != NULL && rp != NULL && !cJSON_Compare(rs, rp, 1))
        return pe__fail(PE_ERR_FORMAT, "'%srope_scaling' and '%srope_parameters' are both "
                        "given and differ", r->top.prefix, r->top.prefix);
    snprintf(r->block_prefix, sizeof r->block_prefix, "%s%s", r->top.prefix,
             rp != NULL ? "rope_parameters." : "rope_scaling.");
    r->block = (pe__scope){rp != NULL ? rp : rs, r->block_prefix};
    if (r->block.obj == NULL) PE_TRY(default_block(r));
    /* v5 per-layer-type form: every member an object keyed by layer type. */
    int objects = 0;
    for (const cJSON *c = r->block.obj ? r->block.obj->child : NULL; c; c = c->next)
        if (cJSON_IsObject(c)) objects++;
    r->per_type = objects > 0;
    return PE_OK;
}

/* ------------------------------------------------------------ build */

/* A wrapper class that merges its own defaults into text_config
 * ({**_default_text_config_kwargs, **text_config}): the text family's
 * record with those defaults in place of its own. */
static void apply_text_defaults(reader *r, const pe__class_defaults *w) {
    r->merged = *r->fam;
    pe__class_defaults *d = &r->merged.defaults;
    if (w->rope_theta > 0.0) d->rope_theta = w->rope_theta;
    if (w->partial_rotary > 0.0) d->partial_rotary = w->partial_rotary;
    if (w->max_position > 0) d->max_position = w->max_position;
    if (w->head_dim > 0) d->head_dim = w->head_dim;
    if (w->layers > 0) d->layers = w->layers;
    if (w->hidden > 0) d->hidden = w->hidden;
    if (w->heads > 0) d->heads = w->heads;
    r->fam = &r->merged;
}

/* The record's refuse_if rules: a config value the family's code reads and
 * posenc does not model is refused with the record's reason. */
static int refuse_if(reader *r, const pe_plan *p) {
    for (size_t i = 0; i < sizeof r->fam->refuse_if / sizeof *r->fam->refuse_if; i++) {
        const pe__refuse_if *q = &r->fam->refuse_if[i];
        if (q->key == NULL) continue;
        bool on = false;
        if (q->equals != NULL) {
            const char *v = NULL;
            PE_TRY(pe__json_string(r->top, q->key, &v));
            on = v != NULL && strcmp(v, q->equals) == 0;
        } else {
            /* a boolean true, or any value other than false, 0 or null */
            const cJSON *j;
            PE_TRY(pe__json_find(r->top, q->key, &j));
            on = j != NULL && !cJSON_IsFalse(j) && !(cJSON_IsNumber(j) && j->valuedouble == 0.0);
        }
        if (on)
            return pe__fail(PE_ERR_UNSUPPORTED, "'%s%s': model_type '%s' then %s", r->top.prefix,
                            q->key, p->model_type, q->why);
    }
    return PE_OK;
}

/* The family: the caller's override, else the decoder config's model_type
 * (a nested text config without one is the root class's text sub-config,
 * "gemma3" -> "gemma3_text"). Closed world: a model_type the registry does
 * not hold, or none, is refused, never read as a plausible guess. */
static int read_model_type(reader *r, pe_plan *p, const char *text_name) {
    const char *mt, *root_mt;
    PE_TRY(pe__json_string(r->top, "model_type", &mt));
    PE_TRY(pe__json_string((pe__scope){r->root, ""}, "model_type", &root_mt));
    char derived[80] = "";
    if (mt == NULL && root_mt != NULL) {
        snprintf(derived, sizeof derived, "%.60s_text", root_mt);
        mt = text_name != NULL && pe__family_find(derived) ? derived : root_mt;
    }
    /* A wrapper's text_config without a model_type is the wrapper class's
     * default text family (LlavaConfig: text_config.get("model_type", "llama")). */
    const pe__family *root_fam = pe__family_find(root_mt);
    if (root_fam != NULL && root_fam->text_family != NULL && r->family == NULL) {
        if (text_name == NULL)
            return pe__fail(PE_ERR_UNSUPPORTED, "model_type '%s' keeps its decoder in text_config, "
                            "which this file lacks", root_mt);
        if (mt == root_mt || mt == derived) mt = root_fam->text_family;
    }
    if (r->family != NULL) mt = r->family;
    if (mt == NULL)
        return pe__fail(PE_ERR_UNSUPPORTED, "config has no 'model_type': posenc reads a config "
                        "only as a family of its registry; name one (--family NAME, "
                        "family=..., pe_plan_from_config_*_as; `posenc plan --families` "
                        "lists them)");
    if (strlen(mt) >= sizeof p->model_type)
        return pe__fail(PE_ERR_FORMAT, "'model_type' is longer than %zu bytes",
                        sizeof p->model_type - 1);
    strcpy(p->model_type, mt);
    r->fam = pe__family_find(p->model_type);
    if (r->fam == NULL) {
        char near[160];
        pe__family_closest(p->model_type, near, sizeof near);
        return pe__fail(PE_ERR_UNSUPPORTED, "%s '%.63s' is not in posenc's family registry "
                        "(closest: %s); if the checkpoint's code is one of those, read it "
                        "as that family on purpose (--family NAME, family=..., "
                        "pe_plan_from_config_*_as; `posenc plan --families` lists them)",
                        r->family != NULL ? "family" : "model_type", p->model_type, near);
    }
    if (r->fam->refusal != NULL)
        return pe__fail(PE_ERR_UNSUPPORTED, "model_type '%s': %s", p->model_type,
                        r->fam->refusal);
    if (root_fam != NULL && root_fam->text_defaults != NULL && text_name != NULL &&
        r->family == NULL)
        apply_text_defaults(r, root_fam->text_defaults);
    return refuse_if(r, p);
}

static int read_temperature(reader *r, pe_plan_temperature *t) {
    memset(t, 0, sizeof *t);
    const cJSON *j;
    PE_TRY(pe__json_find(r->top, "attn_temperature_tuning", &j));
    bool on = true; /* Llama4TextConfig's default */
    if (j != NULL) {
        if (cJSON_IsBool(j)) on = cJSON_IsTrue(j);
        else if (cJSON_IsNumber(j)) on = j->valuedouble != 0.0; /* early files wrote 4 */
        else
            return pe__fail(PE_ERR_FORMAT, "'%sattn_temperature_tuning' must be true or "
                            "false, not %s", r->top.prefix, pe__json_type_name(j));
    }
    if (!on) return PE_OK;
    bool has;
    double beta = 0.1, span = 8192.0; /* attn_scale, floor_scale defaults */
    PE_TRY(pe__json_number(r->top, "attn_scale", &beta, &has));
    PE_TRY(pe__json_number(r->top, "floor_scale", &span, &has));
    if (!(span >= 1.0) || span != floor(span) || span > 9007199254740991.0)
        return pe__fail(PE_ERR_FORMAT, "'%sfloor_scale'=%g must be a positive integer",
                        r->top.prefix, span);
    /* the scale 1 + beta log1p(p / span) stays finite at every int64 position */
    if (!(beta >= 0.0 && beta <= PE_MAX_ATTENTION_FACTOR))
        return pe__fail(PE_ERR_FORMAT, "'%sattn_scale'=%g must be >= 0 and <= %g", r->top.prefix,
                        beta, PE_MAX_ATTENTION_FACTOR);
    *t = (pe_plan_temperature){1, beta, (int64_t)span, 1};
    return PE_OK;
}

static int build(const cJSON *root, const char *family, pe_plan *p) {
    if (!cJSON_IsObject(root))
        return pe__fail(PE_ERR_FORMAT, "config must be a JSON object, not %s",
                        pe__json_type_name(root));
    reader r;
    memset(&r, 0, sizeof r);
    r.root = root;
    r.family = family;
    const char *text_name;
    PE_TRY(find_text_config(root, &r.top, &text_name));
    if (text_name != NULL) snprintf(r.top_prefix, sizeof r.top_prefix, "%s.", text_name);
    r.top.prefix = r.top_prefix;

    int status = read_model_type(&r, p, text_name);
    if (status != PE_OK) return status;
    /* Families without RoPE (or a config switching it off: Falcon's
     * "alibi": true) are planned by plan_positions.c. */
    pe_position_kind family_kind = r.fam->position;
    if (r.fam->kind_switch.key != NULL) {
        bool on = r.fam->kind_switch.default_value, has;
        if (r.fam->kind_switch.equals != NULL) {
            const char *v = NULL;
            PE_TRY(pe__json_string(r.top, r.fam->kind_switch.key, &v));
            on = v != NULL && strcmp(v, r.fam->kind_switch.equals) == 0;
        } else {
            PE_TRY(pe__json_bool(r.top, r.fam->kind_switch.key, &on, &has));
        }
        if (on) family_kind = r.fam->kind_switch.when_true;
    }
    if (family_kind != PE_POSITION_ROPE && family_kind != PE_POSITION_NOPE)
        return pe__plan_build_fixed(p, r.top, r.fam, family_kind);
    PE_TRY(pe__plan_warn_ignored(p, r.top, r.fam));
    status = read_layer_count(&r, &p->n_layers);
    if (status != PE_OK) return status;
    p->layers = calloc((size_t)p->n_layers, sizeof *p->layers);
    int *use_rope = calloc((size_t)p->n_layers, sizeof *use_rope);
    bool *cross = calloc((size_t)p->n_layers, sizeof *cross);
    if (p->layers == NULL || use_rope == NULL || cross == NULL) {
        free(use_rope);
        free(cross);
        return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)p->n_layers);
    }
    status = find_block(&r);
    if (status == PE_OK) status = read_nope_mask(&r, p, use_rope);
    if (status == PE_OK) status = assign_types(&r, p, use_rope);
    if (status == PE_OK && r.fam->layers == PE__LAYERS_CROSS_LIST)
        status = read_cross_layers(&r, p, cross);
    if (status == PE_OK) status = warn_top_keys(&r, p);
    if (status == PE_OK) status = warn_per_type_plain(&r, p);

    /* position_embedding_type: "rope" (or absent) rotates; "nope" and the
     * non-rotary kinds do not. */
    bool all_nope = family_kind == PE_POSITION_NOPE; /* Jamba: attention without positions */
    const char *pet = NULL;
    if (status == PE_OK && !family_ignores(r.fam, "position_embedding_type"))
        status = pe__json_string(r.top, "position_embedding_type", &pet);
    /* Cohere writes "rope_gptj": any "rope..." spelling rotates. */
    /* ESM writes "rotary" (its kind_switch chose RoPE). */
    if (status == PE_OK && pet != NULL && strncmp(pet, "rope", 4) != 0 &&
        strcmp(pet, "rotary") != 0) {
        all_nope = true;
        if (strcmp(pet, "nope") != 0)
            status = pe__plan_warn(p, "'%sposition_embedding_type'='%.40s': not rotary; no layer "
                          "rotates", r.top.prefix, pet);
    }
    int64_t window = 0, chunk = 0;
    bool has;
    if (status == PE_OK) status = pe__json_int(r.top, "sliding_window", &window, &has);
    /* an absent sliding_window is the class default (Exaone4Config: 4096);
     * null is None */
    bool windowed = window > 0 || (status == PE_OK && !has && r.fam->defaults.window > 0 &&
                                   cJSON_GetObjectItemCaseSensitive(r.top.obj, "sliding_window") == NULL);
    if (status == PE_OK) status = pe__json_int(r.top, "attention_chunk_size", &chunk, &has);
    if (status == PE_OK && (window < 0 || chunk < 0))
        status = pe__fail(PE_ERR_FORMAT, "'%ssliding_window'=%lld and "
                          "'attention_chunk_size'=%lld must be >= 0", r.top.prefix,
                          (long long)window, (long long)chunk);
    pe_plan_temperature nope_temp = {0, 0, 0, 0};
    if (status == PE_OK && r.fam->query == PE__QUERY_LLAMA4_TEMPERATURE)
        status = read_temperature(&r, &nope_temp);

    /* One RoPE kind per layer type, read once. */
    int32_t type_kind[PE_PLAN_MAX_TYPES];
    for (int i = 0; i < PE_PLAN_MAX_TYPES; i++) type_kind[i] = -2; /* -2: not read */
    char prefix[PE_PLAN_MAX_TYPES][160];
    for (int64_t i = 0; status == PE_OK && i < p->n_layers; i++) {
        pe__layer_rec *L = &p->layers[i];
        const char *type = p->names[L->type];
        L->attention = is_attention_type(r.fam, type) && !cross[i];
        bool rope = L->attention && use_rope[i] && !all_nope;
        const char *why = !L->attention ? (cross[i] ? "cross_attention" : type)
                          : family_kind == PE_POSITION_NOPE ? "family"
                          : all_nope ? "position_embedding_type" : "nope_layer";
        bool full = strcmp(type, "full_attention") == 0;
        if (full && (r.fam->full == PE__FULL_NOPE ||
                     (r.fam->full == PE__FULL_NOPE_IF_WINDOW && windowed))) {
            rope = false; /* the family's global layers are not rotated */
            why = "global_layer";
        }
        L->kind = -1;
        if (rope) {
            if (type_kind[L->type] == -2)
                status = kind_for_type(&r, p, type, &type_kind[L->type], prefix[L->type],
                                       sizeof prefix[L->type]);
            L->kind = type_kind[L->type];
        }
        if (status != PE_OK) break;
        if (L->kind >= 0) {
            const pe__rope_kind *k = &p->kinds[L->kind];
            L->head_dim = k->s.head_dim;
            if (k->x.has_beta)
                L->temperature = (pe_plan_temperature){1, k->x.llama4_beta, k->x.llama4_span, 0};
        } else if (L->attention) {
            L->temperature = nope_temp;
        }
        if (L->kind < 0) {
            pe__position pos;
            memset(&pos, 0, sizeof pos);
            pos.kind = L->attention ? PE_POSITION_NOPE : PE_POSITION_NONE;
            snprintf(pos.why, sizeof pos.why, "%s", why);
            int32_t at;
            status = pe__plan_add_position(p, &pos, &at);
            if (status != PE_OK) break;
            L->position = at + 1;
        }
        if (L->attention && strcmp(type, "sliding_attention") == 0) L->sliding_window = window;
        if (L->attention && strcmp(type, "chunked_attention") == 0) L->chunk = chunk;
    }
    /* A NoPE layer's head: the model's D (read once, without a RoPE kind). */
    for (int64_t i = 0; status == PE_OK && i < p->n_layers; i++) {
        pe__layer_rec *L = &p->layers[i];
        if (L->kind >= 0 || !L->attention) continue;
        int64_t d = 0;
        bool h;
        status = pe__json_int(r.top, "head_dim", &d, &h);
        if (status == PE_OK && !h) {
            int64_t a = 0, b = 0;
            bool ha, hb;
            status = pe__json_int(r.top, "hidden_size", &a, &ha);
            if (status == PE_OK) status = pe__json_int(r.top, "num_attention_heads", &b, &hb);
            if (status == PE_OK && ha && hb && a > 0 && b > 0) d = a / b;
        }
        L->head_dim = d > 0 ? d : 0;
    }
    free(use_rope);
    free(cross);
    cJSON_Delete(r.owned_default);
    return status;
}

int pe_plan_from_config_json_as(const char *json, size_t len, const char *family,
                                pe_plan **out) {
    PE_CHECK_NULL(json);
    PE_CHECK_NULL(out);
    cJSON *root;
    PE_TRY(pe__json_parse_text(json, len, &root));
    pe_plan *p = calloc(1, sizeof *p);
    if (p == NULL) {
        cJSON_Delete(root);
        return pe__fail(PE_ERR_NOMEM, "no memory for a plan");
    }
    snprintf(p->source, sizeof p->source, "config");
    int status = build(root, family, p);
    cJSON_Delete(root);
    if (status != PE_OK) {
        pe_plan_free(p);
        return status;
    }
    *out = p;
    return PE_OK;
}

int pe_plan_from_config_json(const char *json, size_t len, pe_plan **out) {
    return pe_plan_from_config_json_as(json, len, NULL, out);
}

int pe_plan_from_config_file_as(const char *path, const char *family, pe_plan **out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    char *buf;
    size_t len;
    PE_TRY(pe__json_slurp(path, &buf, &len));
    int status = pe_plan_from_config_json_as(buf, len, family, out);
    free(buf);
    return status;
}

int pe_plan_from_config_file(const char *path, pe_plan **out) {
    return pe_plan_from_config_file_as(path, NULL, out);
}

/* ---------------------------------------------------------- accessors */

const char *pe_plan_model_type(const pe_plan *plan) {
    return plan != NULL ? plan->model_type : "";
}
const char *pe_plan_source(const pe_plan *plan) { return plan != NULL ? plan->source : ""; }
int64_t pe_plan_num_layers(const pe_plan *plan) { return plan != NULL ? plan->n_layers : 0; }
int64_t pe_plan_num_rope_kinds(const pe_plan *plan) {
    return plan != NULL ? plan->n_kinds : 0;
}
int64_t pe_plan_num_warnings(const pe_plan *plan) {
    return plan != NULL ? plan->n_warnings : 0;
}
const char *pe_plan_warning(const pe_plan *plan, int64_t index) {
    if (plan == NULL || index < 0 || index >= plan->n_warnings) return NULL;
    return plan->warnings[index];
}

static int check_layer(const pe_plan *plan, int64_t layer) {
    PE_CHECK_NULL(plan);
    if (layer < 0 || layer >= plan->n_layers)
        return pe__fail(PE_ERR_RANGE, "layer=%lld is outside [0, %lld)", (long long)layer,
                        (long long)plan->n_layers);
    return PE_OK;
}

int pe_plan_layer_info(const pe_plan *plan, int64_t layer, pe_plan_layer *out) {
    PE_TRY(check_layer(plan, layer));
    PE_CHECK_NULL(out);
    const pe__layer_rec *L = &plan->layers[layer];
    pe_plan_layer v;
    memset(&v, 0, sizeof v);
    v.layer_type = plan->names[L->type];
    v.attention = L->attention;
    v.rope = L->kind >= 0;
    v.rope_kind = L->kind;
    v.head_dim = L->head_dim;
    v.sliding_window = L->sliding_window;
    v.chunk_size = L->chunk;
    v.temperature = L->temperature;
    v.factor = NAN;
    v.layout = PE_ROPE_HALF;
    v.f32_inputs = "";
    if (L->kind >= 0) {
        const pe__rope_kind *k = &plan->kinds[L->kind];
        v.rotary_dim = k->s.rotary_dim;
        v.layout = k->layout;
        v.layout_known = k->layout_known;
        v.scaling = k->s.type;
        v.base = k->s.base;
        v.factor = k->s.factor;
        v.max_position = k->s.max_position;
        v.original_max_position = k->s.original_max_position;
        v.n_mrope_section = k->x.n_mrope_section;
        for (int i = 0; i < 4; i++) v.mrope_section[i] = k->x.mrope_section[i];
        v.mrope_interleaved = k->x.mrope_interleaved;
        v.f32_inputs = k->f32_note;
    }
    *out = v;
    return PE_OK;
}

static int layer_kind(const pe_plan *plan, int64_t layer, int64_t seq_len,
                      const pe__rope_kind **k) {
    PE_TRY(check_layer(plan, layer));
    if (seq_len < 0)
        return pe__fail(PE_ERR_PARAM, "seq_len=%lld must be >= 0 (0: not stated)",
                        (long long)seq_len);
    const pe__layer_rec *L = &plan->layers[layer];
    if (L->kind < 0) {
        pe_plan_position pos;
        PE_TRY(pe_plan_layer_position(plan, layer, &pos));
        const char *what = pos.kind == PE_POSITION_NOPE   ? "a NoPE layer"
                           : pos.kind == PE_POSITION_NONE ? "not an attention layer"
                                                          : "its positions are";
        bool say_kind = pos.kind != PE_POSITION_NOPE && pos.kind != PE_POSITION_NONE;
        bool say_why = pos.why[0] && strcmp(pos.why, "nope_layer") != 0 &&
                       strcmp(pos.why, plan->names[L->type]) != 0;
        return pe__fail(PE_ERR_PARAM, "layer %lld (%s) does not rotate: %s%s%s%s%s",
                        (long long)layer, plan->names[L->type], what, say_kind ? " " : "",
                        say_kind ? pe_position_kind_name(pos.kind) : "", say_why ? ", " : "",
                        say_why ? pos.why : "");
    }
    *k = &plan->kinds[L->kind];
    return PE_OK;
}

int pe_plan_layer_scaling(const pe_plan *plan, int64_t layer, int64_t seq_len,
                          pe_rope_scaling *out) {
    const pe__rope_kind *k = NULL;
    PE_TRY(layer_kind(plan, layer, seq_len, &k));
    PE_CHECK_NULL(out);
    *out = k->s;
    out->seq_len = seq_len;
    out->short_factor = k->short_factor;
    out->long_factor = k->long_factor;
    out->divisors = k->divisors;
    return PE_OK;
}

int pe_plan_layer_freqs(const pe_plan *plan, int64_t layer, int64_t seq_len,
                        pe_freqs *out, double *interp_weight) {
    pe_rope_scaling s;
    PE_TRY(pe_plan_layer_scaling(plan, layer, seq_len, &s));
    const pe__rope_kind *k = &plan->kinds[plan->layers[layer].kind];
    PE_CHECK_NULL(out);
    PE_TRY(pe_freqs_from_scaling(&s, out, interp_weight));
    if (!k->deepseek_softmax) out->softmax_scale_multiplier = 1.0;
    /* PhiMoE: the magnitude is short_mscale up to L0, long_mscale past it. */
    if (k->x.has_mscales)
        out->attention_factor = seq_len > k->s.original_max_position ? k->x.long_mscale
                                                                     : k->x.short_mscale;
    return PE_OK;
}

int pe_plan_layer_query_scale(const pe_plan *plan, int64_t layer, int64_t position,
                              double *scale) {
    PE_TRY(check_layer(plan, layer));
    if (position < 0)
        return pe__fail(PE_ERR_RANGE, "position=%lld must be >= 0", (long long)position);
    PE_CHECK_NULL(scale);
    const pe_plan_temperature *t = &plan->layers[layer].temperature;
    if (!t->active) {
        *scale = 1.0;
        return PE_OK;
    }
    /* floor((p + offset) / span) in integers (offset is 0 or 1), exact for
     * every position and free of overflow at INT64_MAX. */
    int64_t q = position / t->span, rem = position % t->span;
    double steps = (double)q + (rem + t->offset >= t->span ? 1.0 : 0.0);
    *scale = 1.0 + t->beta * log1p(steps);
    return PE_OK;
}

/* --------------------------------------------- the single-RoPE view */

static int describe(const pe_plan *p, char *buf, size_t cap) {
    size_t used = 0;
    /* One entry per (layer type, kind) with its count and first layer. */
    for (int64_t i = 0; i < p->n_layers && used + 1 < cap; i++) {
        const pe__layer_rec *L = &p->layers[i];
        bool seen = false;
        for (int64_t j = 0; j < i; j++)
            if (p->layers[j].type == L->type && p->layers[j].kind == L->kind) seen = true;
        if (seen) continue;
        int64_t n = 0;
        for (int64_t j = i; j < p->n_layers; j++)
            if (p->layers[j].type == L->type && p->layers[j].kind == L->kind) n++;
        char what[96];
        if (L->kind < 0)
            snprintf(what, sizeof what, "%s", L->attention ? "NoPE" : "no attention");
        else
            snprintf(what, sizeof what, "%s base %g",
                     pe_scaling_name(p->kinds[L->kind].s.type), p->kinds[L->kind].s.base);
        int w = snprintf(buf + used, cap - used, "%s%s (%lld layers from %lld: %s)",
                         used > 0 ? ", " : "", p->names[L->type], (long long)n,
                         (long long)i, what);
        if (w < 0) break;
        used += (size_t)w < cap - used ? (size_t)w : cap - used - 1;
    }
    return PE_OK;
}

int pe__plan_uniform_config(const pe_plan *p, pe_rope_config *out) {
    bool uniform = p->n_kinds == 1, scaled = false;
    for (int64_t i = 0; i < p->n_layers; i++) {
        if (p->layers[i].kind != 0) uniform = false;
        if (p->layers[i].temperature.active) scaled = true;
    }
    if (p->n_kinds == 0) {
        pe_plan_position pos = {PE_POSITION_NONE, ""};
        for (int64_t i = 0; i < p->n_layers; i++) {
            pe_plan_layer_position(p, i, &pos);
            if (pos.kind != PE_POSITION_NONE) break;
        }
        return pe__fail(PE_ERR_UNSUPPORTED, "no layer of this config rotates: model_type '%s' "
                        "has %s positions%s", p->model_type, pe_position_kind_name(pos.kind),
                        pos.kind == PE_POSITION_ALIBI ? " (pe_plan_layer_alibi, posenc plan)"
                        : pos.kind == PE_POSITION_T5 ? " (pe_plan_layer_t5, posenc plan)"
                        : pos.kind == PE_POSITION_LEARNED ? " (pe_plan_layer_learned, posenc plan)"
                        : pos.kind == PE_POSITION_SINUSOIDAL
                            ? " (pe_plan_layer_sinusoidal, posenc plan)" : "");
    }
    if (uniform && scaled)
        return pe__fail(PE_ERR_UNSUPPORTED, "model_type '%s': a query scale (Llama 4 "
                        "temperature) applies after RoPE; read it from the plan "
                        "(pe_plan_layer_query_scale)", p->model_type);
    if (!uniform) {
        char what[320];
        what[0] = '\0';
        describe(p, what, sizeof what);
        return pe__fail(PE_ERR_UNSUPPORTED, "the layers differ: %s; ask for a layer "
                        "(pe_plan_layer_freqs, --layer N)", what);
    }
    const pe__rope_kind *k = &p->kinds[0];
    if (k->x.has_mscales)
        return pe__fail(PE_ERR_UNSUPPORTED, "model_type '%s': short_mscale/long_mscale "
                        "set the magnitude; read it from the plan (pe_plan_layer_freqs)",
                        p->model_type);
    memset(out, 0, sizeof *out);
    snprintf(out->model_type, sizeof out->model_type, "%s", p->model_type);
    out->scaling = k->s;
    out->scaling.short_factor = out->scaling.long_factor = NULL;
    for (int64_t i = 0; i < k->s.n_short_factor; i++) out->short_factor[i] = k->short_factor[i];
    for (int64_t i = 0; i < k->s.n_long_factor; i++) out->long_factor[i] = k->long_factor[i];
    out->layout = k->layout;
    out->layout_known = k->layout_known;
    return PE_OK;
}
