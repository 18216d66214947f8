/*
 * config.c — a Hugging Face config.json to the RoPE parameters the
 * checkpoint was trained with, read the way the checkpoint's own code reads
 * them (transformers' config classes and modeling_rope_utils.py, v5 rules;
 * docs/SCALING.md lists every key and precedence). Parsing uses cJSON on a
 * private NUL-terminated copy of the input, so a malformed or truncated file
 * can fail but never over-read.
 */
#include "internal.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Larger than any real config.json by three orders of magnitude; bounds the
 * allocation a hostile path can cause. */
#define PE_CONFIG_MAX_BYTES (64u << 20)

/* Integers above 2^53 do not survive JSON's doubles. */
#define PE_JSON_MAX_INT 9007199254740992.0

/* Where a key lives, for error details: "" (top level) or "rope_scaling.". */
typedef struct {
    const cJSON *obj;
    const char *prefix;
} scope;

static const char *json_type_name(const cJSON *v) {
    if (cJSON_IsNumber(v)) return "number";
    if (cJSON_IsString(v)) return "string";
    if (cJSON_IsBool(v)) return "bool";
    if (cJSON_IsArray(v)) return "array";
    if (cJSON_IsObject(v)) return "object";
    if (cJSON_IsNull(v)) return "null";
    return "invalid";
}

/* The value of `key` in scope (NULL when absent or JSON null, which Python
 * configs treat alike). A key given twice is an error: Python keeps the
 * last, cJSON would find the first, and the two readings must not differ. */
static int find(scope sc, const char *key, const cJSON **out) {
    *out = NULL;
    if (sc.obj == NULL) return PE_OK;
    int seen = 0;
    for (const cJSON *c = sc.obj->child; c != NULL; c = c->next) {
        if (c->string == NULL || strcmp(c->string, key) != 0) continue;
        if (++seen > 1)
            return pe__fail(PE_ERR_FORMAT, "key '%s%s' appears more than once",
                            sc.prefix, key);
        *out = cJSON_IsNull(c) ? NULL : c;
    }
    return PE_OK;
}

static int get_number(scope sc, const char *key, double *v, bool *present) {
    const cJSON *j;
    PE_TRY(find(sc, key, &j));
    *present = j != NULL;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsNumber(j))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be a number, not %s", sc.prefix,
                        key, json_type_name(j));
    if (!isfinite(j->valuedouble))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' is not a finite number", sc.prefix, key);
    *v = j->valuedouble;
    return PE_OK;
}

static int get_int(scope sc, const char *key, int64_t *v, bool *present) {
    double d = 0.0;
    PE_TRY(get_number(sc, key, &d, present));
    if (!*present) return PE_OK;
    if (d != floor(d) || fabs(d) > PE_JSON_MAX_INT)
        return pe__fail(PE_ERR_FORMAT, "'%s%s'=%g must be an integer of at most 2^53",
                        sc.prefix, key, d);
    *v = (int64_t)d;
    return PE_OK;
}

static int get_bool(scope sc, const char *key, bool *v, bool *present) {
    const cJSON *j;
    PE_TRY(find(sc, key, &j));
    *present = j != NULL;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsBool(j))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be true or false, not %s",
                        sc.prefix, key, json_type_name(j));
    *v = cJSON_IsTrue(j);
    return PE_OK;
}

static int get_string(scope sc, const char *key, const char **v) {
    const cJSON *j;
    PE_TRY(find(sc, key, &j));
    *v = NULL;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsString(j) || j->valuestring == NULL)
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be a string, not %s", sc.prefix,
                        key, json_type_name(j));
    *v = j->valuestring;
    return PE_OK;
}

static int get_list(scope sc, const char *key, double *v, int64_t *n, bool *present) {
    const cJSON *j;
    PE_TRY(find(sc, key, &j));
    *present = j != NULL;
    *n = 0;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsArray(j))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be an array of numbers, not %s",
                        sc.prefix, key, json_type_name(j));
    for (const cJSON *c = j->child; c != NULL; c = c->next) {
        if (*n >= PE_MAX_PAIRS)
            return pe__fail(PE_ERR_FORMAT, "'%s%s' has more than %d entries", sc.prefix,
                            key, PE_MAX_PAIRS);
        if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble))
            return pe__fail(PE_ERR_FORMAT, "'%s%s'[%lld] must be a finite number, not %s",
                            sc.prefix, key, (long long)*n, json_type_name(c));
        v[(*n)++] = c->valuedouble;
    }
    return PE_OK;
}

/* Two spellings of one quantity (top level and scaling block, or two
 * historical names): equal if both are given, else whichever is. */
static int merge_number(double *v, bool *present, double other, bool other_present,
                        const char *name, const char *other_name) {
    if (other_present && *present && other != *v)
        return pe__fail(PE_ERR_FORMAT, "'%s'=%.17g and '%s'=%.17g disagree", name, *v,
                        other_name, other);
    if (other_present && !*present) {
        *v = other;
        *present = true;
    }
    return PE_OK;
}

static int merge_int(int64_t *v, bool *present, int64_t other, bool other_present,
                     const char *name, const char *other_name) {
    if (other_present && *present && other != *v)
        return pe__fail(PE_ERR_FORMAT, "'%s'=%lld and '%s'=%lld disagree", name,
                        (long long)*v, other_name, (long long)other);
    if (other_present && !*present) {
        *v = other;
        *present = true;
    }
    return PE_OK;
}

/*
 * The pair layout of each family's Hugging Face code. Interleaved: GPT-J's
 * rotate_every_two, CodeGen, Cohere, and DeepSeek V2/V3 (V2 multiplies
 * complex pairs (x[2i], x[2i+1]); V3 with rope_interleave, its default,
 * regroups x[2i], x[2i+1] into halves before rotate_half, so the weights'
 * pairing is interleaved). Everything else listed uses rotate_half.
 */
static const char *const interleaved_models[] = {
    "gptj", "codegen", "cohere", "cohere2", "deepseek_v2", "deepseek_v3",
};
static const char *const half_models[] = {
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
    "phi", "phi3", "gpt_neox", "gemma", "gemma2", "gemma3_text", "starcoder2",
    "olmo", "olmo2", "stablelm", "gpt_oss", "granite", "falcon",
};

static int set_layout(scope top, pe_rope_config *c) {
    c->layout = PE_ROPE_HALF;
    c->layout_known = 0;
    for (size_t i = 0; i < sizeof interleaved_models / sizeof *interleaved_models; i++)
        if (strcmp(c->model_type, interleaved_models[i]) == 0) {
            c->layout = PE_ROPE_INTERLEAVED;
            c->layout_known = 1;
        }
    for (size_t i = 0; i < sizeof half_models / sizeof *half_models; i++)
        if (strcmp(c->model_type, half_models[i]) == 0) c->layout_known = 1;
    if (strcmp(c->model_type, "deepseek_v3") == 0) {
        bool interleave = true, present;
        PE_TRY(get_bool(top, "rope_interleave", &interleave, &present));
        c->layout = interleave ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
    }
    return PE_OK;
}

/* The scaling block: rope_scaling, or rope_parameters (transformers v5). */
static int find_block(scope top, scope *block) {
    const cJSON *rs, *rp;
    PE_TRY(find(top, "rope_scaling", &rs));
    PE_TRY(find(top, "rope_parameters", &rp));
    if (rs != NULL && !cJSON_IsObject(rs))
        return pe__fail(PE_ERR_FORMAT, "'rope_scaling' must be an object or null, not %s",
                        json_type_name(rs));
    if (rp != NULL && !cJSON_IsObject(rp))
        return pe__fail(PE_ERR_FORMAT,
                        "'rope_parameters' must be an object or null, not %s",
                        json_type_name(rp));
    if (rs != NULL && rp != NULL && !cJSON_Compare(rs, rp, 1))
        return pe__fail(PE_ERR_FORMAT, "'rope_scaling' and 'rope_parameters' are both "
                        "given and differ");
    block->obj = rp != NULL ? rp : rs;
    block->prefix = rp != NULL ? "rope_parameters." : "rope_scaling.";
    if (block->obj != NULL)
        for (const cJSON *ch = block->obj->child; ch != NULL; ch = ch->next)
            if (cJSON_IsObject(ch))
                return pe__fail(PE_ERR_UNSUPPORTED, "'%s%s': per-layer-type RoPE "
                                "parameters are not supported", block->prefix,
                                ch->string ? ch->string : "?");
    return PE_OK;
}

static int read_type(scope block, pe_scaling_type *type) {
    const char *rope_type, *legacy;
    PE_TRY(get_string(block, "rope_type", &rope_type));
    PE_TRY(get_string(block, "type", &legacy));
    if (rope_type != NULL && legacy != NULL && strcmp(rope_type, legacy) != 0)
        return pe__fail(PE_ERR_FORMAT, "'%srope_type'='%.40s' and '%stype'='%.40s' "
                        "disagree", block.prefix, rope_type, block.prefix, legacy);
    const char *name = rope_type != NULL ? rope_type : legacy;
    *type = PE_SCALING_DEFAULT;
    /* Qwen2-VL writes "mrope": HF rewrites it to "default" (the sections
     * change which position each pair uses, not the frequencies). */
    if (name == NULL || strcmp(name, "mrope") == 0) return PE_OK;
    if (pe_scaling_from_name(name, type) != PE_OK || *type == PE_SCALING_EXPLICIT)
        return pe__fail(PE_ERR_FORMAT, "'%s%s'='%.40s' is not a known RoPE type",
                        block.prefix, rope_type != NULL ? "rope_type" : "type", name);
    return PE_OK;
}

/* D of the rotated head, by the first key family the file has. */
static int read_head_dim(scope top, int64_t *head_dim, const char **from) {
    int64_t v = 0, a = 0, b = 0;
    bool has, has_a, has_b;
    PE_TRY(get_int(top, "qk_rope_head_dim", &v, &has));
    *from = "qk_rope_head_dim";
    if (!has) {
        PE_TRY(get_int(top, "head_dim", &v, &has));
        *from = "head_dim";
    }
    if (has) {
        if (v <= 0) return pe__fail(PE_ERR_DIM, "'%s'=%lld must be > 0", *from, (long long)v);
        *head_dim = v;
        return PE_OK;
    }
    static const char *const pairs[2][2] = {{"hidden_size", "num_attention_heads"},
                                            {"n_embd", "n_head"}};
    for (int k = 0; k < 2; k++) {
        PE_TRY(get_int(top, pairs[k][0], &a, &has_a));
        PE_TRY(get_int(top, pairs[k][1], &b, &has_b));
        if (!has_a || !has_b) continue;
        *from = pairs[k][0];
        if (a <= 0 || b <= 0 || a % b != 0)
            return pe__fail(PE_ERR_DIM, "'%s'=%lld is not a positive multiple of "
                            "'%s'=%lld", pairs[k][0], (long long)a, pairs[k][1],
                            (long long)b);
        *head_dim = a / b;
        return PE_OK;
    }
    return pe__fail(PE_ERR_FORMAT, "config has no qk_rope_head_dim, head_dim, "
                    "hidden_size/num_attention_heads or n_embd/n_head");
}

/* d: partial_rotary_factor or rotary_pct (int(D * fraction), as HF
 * truncates) or rotary_dim (GPT-J); several given must agree. */
static int read_rotary_dim(scope top, scope block, int64_t head_dim, int64_t *rotary,
                           const char **from) {
    double prf = 1.0, pct = 1.0, prf_top = 1.0;
    int64_t rd = 0;
    bool has_prf, has_prf_top, has_pct, has_rd;
    PE_TRY(get_number(block, "partial_rotary_factor", &prf, &has_prf));
    PE_TRY(get_number(top, "partial_rotary_factor", &prf_top, &has_prf_top));
    PE_TRY(merge_number(&prf, &has_prf, prf_top, has_prf_top,
                        "rope_parameters.partial_rotary_factor", "partial_rotary_factor"));
    PE_TRY(get_number(top, "rotary_pct", &pct, &has_pct));
    PE_TRY(get_int(top, "rotary_dim", &rd, &has_rd));
    *rotary = head_dim;
    *from = "head_dim";
    bool set = false; /* whether a key has fixed d yet */
    struct { bool has; double frac; const char *name; } fr[2] = {
        {has_prf, prf, "partial_rotary_factor"}, {has_pct, pct, "rotary_pct"}};
    for (int k = 0; k < 2; k++) {
        if (!fr[k].has) continue;
        if (!(fr[k].frac > 0.0 && fr[k].frac <= 1.0))
            return pe__fail(PE_ERR_FORMAT, "'%s'=%g must be in (0, 1]", fr[k].name,
                            fr[k].frac);
        int64_t v = (int64_t)((double)head_dim * fr[k].frac);
        if (set && v != *rotary)
            return pe__fail(PE_ERR_FORMAT, "'%s' gives rotary dim %lld, '%s' gives %lld",
                            fr[k].name, (long long)v, *from, (long long)*rotary);
        *rotary = v;
        *from = fr[k].name;
        set = true;
    }
    if (has_rd) {
        if (set && rd != *rotary)
            return pe__fail(PE_ERR_FORMAT, "'rotary_dim'=%lld but '%s' gives %lld",
                            (long long)rd, *from, (long long)*rotary);
        *rotary = rd;
        *from = "rotary_dim";
    }
    return PE_OK;
}

static int parse_root(const cJSON *root, pe_rope_config *c) {
    if (!cJSON_IsObject(root))
        return pe__fail(PE_ERR_FORMAT, "config must be a JSON object, not %s",
                        json_type_name(root));
    scope top = {root, ""}, block;
    pe_rope_scaling *s = &c->scaling;

    const char *model_type;
    PE_TRY(get_string(top, "model_type", &model_type));
    if (model_type != NULL) {
        if (strlen(model_type) >= sizeof c->model_type)
            return pe__fail(PE_ERR_FORMAT, "'model_type' is longer than %zu bytes",
                            sizeof c->model_type - 1);
        strcpy(c->model_type, model_type);
    }
    PE_TRY(find_block(top, &block));
    pe_scaling_type type;
    PE_TRY(read_type(block, &type));
    *s = pe_rope_scaling_defaults(type, 0);

    /* Base: the block's rope_theta (v5), the top-level rope_theta, GPT-NeoX's
     * rotary_emb_base, else HF's default 10000 (GPT-J, Llama 2). */
    double base = 10000.0, v = 0.0;
    bool has_base, has;
    PE_TRY(get_number(block, "rope_theta", &base, &has_base));
    PE_TRY(get_number(top, "rope_theta", &v, &has));
    PE_TRY(merge_number(&base, &has_base, v, has, "rope_parameters.rope_theta",
                        "rope_theta"));
    PE_TRY(get_number(top, "rotary_emb_base", &v, &has));
    PE_TRY(merge_number(&base, &has_base, v, has, "rope_theta", "rotary_emb_base"));
    if (!(base > 0.0) || base == 1.0)
        return pe__fail(PE_ERR_FORMAT, "rope_theta=%g must be > 0 and not 1", base);
    s->base = base;

    const char *head_from, *rot_from;
    PE_TRY(read_head_dim(top, &s->head_dim, &head_from));
    PE_TRY(read_rotary_dim(top, block, s->head_dim, &s->rotary_dim, &rot_from));
    if (s->rotary_dim < 2 || s->rotary_dim % 2 != 0 || s->rotary_dim > s->head_dim ||
        s->rotary_dim > PE_MAX_ROTARY_DIM)
        return pe__fail(PE_ERR_DIM, "'%s' gives rotary dim %lld: must be even and in "
                        "[2, min(%s=%lld, %d)]", rot_from, (long long)s->rotary_dim,
                        head_from, (long long)s->head_dim, PE_MAX_ROTARY_DIM);
    if (type == PE_SCALING_PROPORTIONAL &&
        (s->head_dim % 2 != 0 || s->head_dim > PE_MAX_ROTARY_DIM))
        return pe__fail(PE_ERR_DIM, "'%s'=%lld: proportional RoPE needs an even head "
                        "of at most %d", head_from, (long long)s->head_dim,
                        PE_MAX_ROTARY_DIM);

    int64_t iv = 0, l0 = 0;
    bool has_max, has_l0;
    PE_TRY(get_int(top, "max_position_embeddings", &s->max_position, &has_max));
    PE_TRY(get_int(top, "n_positions", &iv, &has));
    PE_TRY(merge_int(&s->max_position, &has_max, iv, has, "max_position_embeddings",
                     "n_positions"));
    if (has_max && s->max_position <= 0)
        return pe__fail(PE_ERR_FORMAT, "'max_position_embeddings'=%lld must be > 0",
                        (long long)s->max_position);
    /* L0 at the top level (Phi-3) or in the block; HF v5 prefers the top
     * level, we require agreement. Absent, HF falls back to L. */
    PE_TRY(get_int(top, "original_max_position_embeddings", &l0, &has_l0));
    PE_TRY(get_int(block, "original_max_position_embeddings", &iv, &has));
    PE_TRY(merge_int(&l0, &has_l0, iv, has, "original_max_position_embeddings",
                     "rope_scaling.original_max_position_embeddings"));
    if (type == PE_SCALING_YARN || type == PE_SCALING_LLAMA3 ||
        type == PE_SCALING_LONGROPE) {
        if (!has_l0 && !has_max)
            return pe__fail(PE_ERR_FORMAT, "%soriginal_max_position_embeddings (or "
                            "max_position_embeddings) is required for rope_type '%s'",
                            block.prefix, pe_scaling_name(type));
        s->original_max_position = has_l0 ? l0 : s->max_position;
        if (s->original_max_position <= 0)
            return pe__fail(PE_ERR_FORMAT, "original_max_position_embeddings=%lld must "
                            "be > 0", (long long)s->original_max_position);
    } else if (has_l0) {
        s->original_max_position = l0;
    }
    if (type == PE_SCALING_DYNAMIC && !has_max)
        return pe__fail(PE_ERR_FORMAT, "max_position_embeddings is required for "
                        "rope_type 'dynamic'");

    /* factor: required where HF requires it; YaRN/LongRoPE derive a missing
     * one from L / L0 and need L for that. An explicit factor wins over the
     * ratio (HF v5; v4.4x let the ratio override YaRN's factor). */
    bool has_factor;
    double factor = NAN;
    PE_TRY(get_number(block, "factor", &factor, &has_factor));
    if (!has_factor && (type == PE_SCALING_LINEAR || type == PE_SCALING_NTK ||
                        type == PE_SCALING_DYNAMIC || type == PE_SCALING_LLAMA3))
        return pe__fail(PE_ERR_FORMAT, "'%sfactor' is required for rope_type '%s'",
                        block.prefix, pe_scaling_name(type));
    if (!has_factor && (type == PE_SCALING_YARN || type == PE_SCALING_LONGROPE) &&
        !has_max)
        return pe__fail(PE_ERR_FORMAT, "'%sfactor' is missing and "
                        "max_position_embeddings is absent to derive it", block.prefix);
    if (has_factor && !(factor > 0.0))
        return pe__fail(PE_ERR_FORMAT, "'%sfactor'=%g must be > 0", block.prefix, factor);
    s->factor = has_factor ? factor : NAN;
    if (type == PE_SCALING_DEFAULT) s->factor = NAN;

    double af = NAN;
    PE_TRY(get_number(block, "attention_factor", &af, &has));
    if (has && !(af > 0.0))
        return pe__fail(PE_ERR_FORMAT, "'%sattention_factor'=%g must be > 0",
                        block.prefix, af);
    s->attention_factor = has ? af : NAN;
    /* HF reads `get("beta_fast") or 32`: a 0 is as good as absent. */
    PE_TRY(get_number(block, "beta_fast", &v, &has));
    if (has && v != 0.0) s->beta_fast = v;
    PE_TRY(get_number(block, "beta_slow", &v, &has));
    if (has && v != 0.0) s->beta_slow = v;
    PE_TRY(get_number(block, "mscale", &s->mscale, &has));
    PE_TRY(get_number(block, "mscale_all_dim", &s->mscale_all_dim, &has));
    bool truncate = true;
    PE_TRY(get_bool(block, "truncate", &truncate, &has));
    s->truncate = truncate ? 1 : 0;
    if (type == PE_SCALING_YARN &&
        (!(s->beta_fast > s->beta_slow) || !(s->beta_slow > 0.0) ||
         !(s->mscale >= 0.0) || !(s->mscale_all_dim >= 0.0)))
        return pe__fail(PE_ERR_FORMAT, "%sbeta_fast=%g, beta_slow=%g, mscale=%g, "
                        "mscale_all_dim=%g: need beta_fast > beta_slow > 0 and "
                        "mscales >= 0", block.prefix, s->beta_fast, s->beta_slow,
                        s->mscale, s->mscale_all_dim);

    bool has_low, has_high;
    PE_TRY(get_number(block, "low_freq_factor", &s->low_freq_factor, &has_low));
    PE_TRY(get_number(block, "high_freq_factor", &s->high_freq_factor, &has_high));
    if (type == PE_SCALING_LLAMA3 && (!has_low || !has_high))
        return pe__fail(PE_ERR_FORMAT, "'%slow_freq_factor' and 'high_freq_factor' are "
                        "required for rope_type 'llama3'", block.prefix);
    if (type == PE_SCALING_LLAMA3 &&
        !(s->low_freq_factor > 0.0 && s->low_freq_factor < s->high_freq_factor))
        return pe__fail(PE_ERR_FORMAT, "%slow_freq_factor=%g must be > 0 and < "
                        "high_freq_factor=%g", block.prefix, s->low_freq_factor,
                        s->high_freq_factor);

    bool has_short, has_long;
    PE_TRY(get_list(block, "short_factor", c->short_factor, &s->n_short_factor,
                    &has_short));
    PE_TRY(get_list(block, "long_factor", c->long_factor, &s->n_long_factor, &has_long));
    if (type == PE_SCALING_LONGROPE) {
        if (!has_short || !has_long)
            return pe__fail(PE_ERR_FORMAT, "'%sshort_factor' and 'long_factor' are "
                            "required for rope_type 'longrope'", block.prefix);
        const int64_t half = s->rotary_dim / 2;
        if (s->n_short_factor != half || s->n_long_factor != half)
            return pe__fail(PE_ERR_FORMAT, "'%sshort_factor' (%lld) and 'long_factor' "
                            "(%lld) must each have rotary_dim/2 = %lld entries",
                            block.prefix, (long long)s->n_short_factor,
                            (long long)s->n_long_factor, (long long)half);
        for (int64_t i = 0; i < half; i++)
            if (!(c->short_factor[i] > 0.0) || !(c->long_factor[i] > 0.0))
                return pe__fail(PE_ERR_FORMAT, "'%sshort_factor'/'long_factor'[%lld] "
                                "must be > 0", block.prefix, (long long)i);
    }
    return set_layout(top, c);
}

int pe_config_parse(const char *json, size_t len, pe_rope_config *out) {
    PE_CHECK_NULL(json);
    PE_CHECK_NULL(out);
    if (len == 0) return pe__fail(PE_ERR_FORMAT, "config text is empty");
    if (len > PE_CONFIG_MAX_BYTES)
        return pe__fail(PE_ERR_FORMAT, "config text of %zu bytes exceeds %u", len,
                        PE_CONFIG_MAX_BYTES);
    /* A private NUL-terminated copy: cJSON then cannot read past our
     * allocation whatever the caller's buffer holds after len. */
    char *text = malloc(len + 1);
    pe_rope_config *tmp = calloc(1, sizeof *tmp);
    if (text == NULL || tmp == NULL) {
        free(text);
        free(tmp);
        return pe__fail(PE_ERR_NOMEM, "no memory to parse %zu bytes of config", len);
    }
    memcpy(text, json, len);
    text[len] = '\0';
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    int status = PE_OK;
    if (root == NULL) {
        size_t at = end != NULL && end >= text && end <= text + len ? (size_t)(end - text)
                                                                     : len;
        status = pe__fail(PE_ERR_FORMAT, "config is not valid JSON (error near byte %zu)",
                          at);
    } else {
        /* Only whitespace may follow the value; a NUL inside len counts as
         * garbage too. */
        for (const char *p = end; status == PE_OK && p < text + len; p++)
            if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
                status = pe__fail(PE_ERR_FORMAT, "trailing data after the JSON value "
                                  "at byte %zu", (size_t)(p - text));
        if (status == PE_OK) status = parse_root(root, tmp);
        cJSON_Delete(root);
    }
    if (status == PE_OK) *out = *tmp;
    free(tmp);
    free(text);
    return status;
}

int pe_config_read(const char *path, pe_rope_config *out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return pe__fail(PE_ERR_IO, "cannot open '%.200s': %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int status = buf == NULL ? pe__fail(PE_ERR_NOMEM, "no memory to read '%.200s'", path)
                             : PE_OK;
    /* Read in chunks rather than trusting ftell: works on pipes, and stops
     * at the size limit instead of allocating whatever the file claims. */
    while (status == PE_OK) {
        if (len == cap) {
            if (cap >= PE_CONFIG_MAX_BYTES) {
                status = pe__fail(PE_ERR_FORMAT, "'%.200s' exceeds %u bytes", path,
                                  PE_CONFIG_MAX_BYTES);
                break;
            }
            char *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                status = pe__fail(PE_ERR_NOMEM, "no memory to read '%.200s'", path);
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0) {
            if (ferror(fp))
                status = pe__fail(PE_ERR_IO, "cannot read '%.200s'", path);
            break;
        }
    }
    fclose(fp);
    if (status == PE_OK) {
        status = pe_config_parse(buf, len, out);
        if (status != PE_OK && len == 0)
            status = pe__fail(PE_ERR_FORMAT, "'%.200s' is empty", path);
    }
    free(buf);
    return status;
}

int pe_config_scaling(const pe_rope_config *config, int64_t seq_len,
                      pe_rope_scaling *out) {
    PE_CHECK_NULL(config);
    if (seq_len < 0)
        return pe__fail(PE_ERR_PARAM, "seq_len=%lld must be >= 0 (0: not stated)",
                        (long long)seq_len);
    const pe_rope_scaling *s = &config->scaling;
    if (s->n_short_factor < 0 || s->n_short_factor > PE_MAX_PAIRS ||
        s->n_long_factor < 0 || s->n_long_factor > PE_MAX_PAIRS)
        return pe__fail(PE_ERR_PARAM, "config list lengths %lld/%lld are outside "
                        "[0, %d]", (long long)s->n_short_factor,
                        (long long)s->n_long_factor, PE_MAX_PAIRS);
    PE_CHECK_NULL(out);
    *out = *s;
    out->seq_len = seq_len;
    out->short_factor = s->n_short_factor > 0 ? config->short_factor : NULL;
    out->long_factor = s->n_long_factor > 0 ? config->long_factor : NULL;
    out->divisors = NULL;
    out->n_divisors = 0;
    return PE_OK;
}

int pe_config_freqs(const pe_rope_config *config, int64_t seq_len, pe_freqs *out,
                    double *interp_weight) {
    pe_rope_scaling s;
    PE_TRY(pe_config_scaling(config, seq_len, &s));
    return pe_freqs_from_scaling(&s, out, interp_weight);
}
