/*
 * config_rope.c — one RoPE kind of a Hugging Face config.json read the way
 * the checkpoint's own code reads it (transformers' config classes and
 * modeling_rope_utils.py, v5 rules; docs/SCALING.md lists every key and
 * precedence): pe__read_rope, which the per-layer plan (plan.c) calls once
 * per layer type, and the list of keys it understands. It knows nothing of
 * plans: the reader sits below plan.c, the single-RoPE API (config.c) above.
 */
#include "config_scaling.h"
#include "plan_internal.h"
#include "scaling_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys of a scaling block the reader understands besides the schemes'
 * parameters (whose keys come from the scheme table, pe_scaling_param);
 * the rest are listed as warnings by the plan. */
static const char *const known_block_keys[] = {
    "rope_type", "type", "rope_theta", "partial_rotary_factor", "mrope_section",
    "mrope_interleaved", "short_mscale", "long_mscale", "llama_4_scaling_beta",
};

bool pe__rope_key_known(const char *key) {
    for (size_t i = 0; i < sizeof known_block_keys / sizeof *known_block_keys; i++)
        if (strcmp(key, known_block_keys[i]) == 0) return true;
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        const char *k = pe_scaling_param_get(i)->config_key;
        if (k != NULL && strcmp(key, k) == 0) return true;
    }
    return false;
}

/* The keys a block of scheme type must state (the scheme table's
 * config_required), in one message: the factor alone (factor_group) or the
 * rest together ("'<block>.short_factor' and 'long_factor' are required"). */
static int require_keys(pe__scope block, pe_scaling_type type, bool factor_group) {
    const char *keys[8];
    int n = 0;
    bool missing = false;
    for (int i = 0; i < pe_scaling_num_params() && n < 8; i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        if (!pe__scaling_config_requires(type, i) || p->config_key == NULL ||
            (strcmp(p->name, "factor") == 0) != factor_group)
            continue;
        const cJSON *j;
        PE_TRY(pe__json_find(block, p->config_key, &j));
        missing = missing || j == NULL;
        keys[n++] = p->config_key;
    }
    if (!missing) return PE_OK;
    char list[256] = "";
    for (int i = 0; i < n; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, i == 0 ? "'%s%s'" : " and '%s%s'",
                 i == 0 ? block.prefix : "", keys[i]);
    }
    return pe__fail(PE_ERR_FORMAT, "%s %s required for rope_type '%s'", list,
                    n > 1 ? "are" : "is", pe_scaling_name(type));
}

/* The config key (with its block prefix where it lives in the block) that
 * sets the field a library message names first ("beta_fast=1 must be ..."). */
static void key_of_message(const char *msg, pe__scope block, const char *head_from,
                           const char *rot_from, char *key, size_t cap) {
    static const char *const fixed[][2] = {
        {"max_position", "max_position_embeddings"},
        {"original_max_position", "original_max_position_embeddings"},
        {"base", "rope_theta"},
    };
    size_t len = 0;
    while (msg[len] && msg[len] != '=' && msg[len] != ' ' && msg[len] != '[') len++;
    snprintf(key, cap, "%.*s", (int)len, msg);
    if (len == strlen("rotary_dim") && strncmp(msg, "rotary_dim", len) == 0) {
        snprintf(key, cap, "%s", rot_from);
        return;
    }
    if (len == strlen("head_dim") && strncmp(msg, "head_dim", len) == 0) {
        snprintf(key, cap, "%s", head_from);
        return;
    }
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strlen(fixed[i][0]) == len && strncmp(msg, fixed[i][0], len) == 0) {
            snprintf(key, cap, "%s", fixed[i][1]);
            return;
        }
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        if (p->config_key != NULL && strlen(p->name) == len && strncmp(msg, p->name, len) == 0) {
            snprintf(key, cap, "%s%s", block.prefix, p->config_key);
            return;
        }
    }
}

/* The scheme's own checks (rope_scaling.c) on what the config stated, as a
 * config error naming the key: PE_ERR_DIM stays, the rest is FORMAT. */
static int check_scheme(const pe_rope_config *c, pe__scope block, const char *head_from,
                        const char *rot_from) {
    pe_rope_scaling s;
    PE_TRY(pe_config_scaling(c, 0, &s));
    int st = pe__scaling_validate(&s);
    if (st == PE_OK) return PE_OK;
    char detail[512], key[160];
    snprintf(detail, sizeof detail, "%s", pe_last_error());
    key_of_message(detail, block, head_from, rot_from, key, sizeof key);
    return pe__fail(st == PE_ERR_DIM ? PE_ERR_DIM : PE_ERR_FORMAT, "'%s': %s", key, detail);
}

static int read_type(pe__scope block, pe_scaling_type *type) {
    const char *rope_type, *legacy;
    PE_TRY(pe__json_string(block, "rope_type", &rope_type));
    PE_TRY(pe__json_string(block, "type", &legacy));
    if (rope_type != NULL && legacy != NULL && strcmp(rope_type, legacy) != 0)
        return pe__fail(PE_ERR_FORMAT, "'%srope_type'='%.40s' and '%stype'='%.40s' "
                        "disagree", block.prefix, rope_type, block.prefix, legacy);
    const char *name = rope_type != NULL ? rope_type : legacy;
    *type = PE_SCALING_DEFAULT;
    /* Qwen2-VL writes "mrope": HF rewrites it to "default" (the sections
     * change which position each pair uses, not the frequencies). */
    if (name == NULL || strcmp(name, "mrope") == 0) return PE_OK;
    if (pe_scaling_from_name(name, type) != PE_OK || !pe__scaling_hf_rope_type(*type))
        return pe__fail(PE_ERR_FORMAT, "'%s%s'='%.40s' is not a known RoPE type",
                        block.prefix, rope_type != NULL ? "rope_type" : "type", name);
    return PE_OK;
}

/* The head from hidden_size / num_attention_heads (times the family's width
 * factor), each the file's value or else the class default. */
static int derive_head_dim(pe__scope top, const pe__family *fam, int64_t *head_dim,
                           const char **from) {
    /* hidden_size / num_attention_heads, each the file's value (under either
     * of its names: GPT-J's n_embd / n_head, Falcon's hidden_size with
     * n_head) or else that key's class default, independently: a
     * LlavaConfig's text_config without them is a LlamaConfig's 4096 / 32. */
    static const char *const names[2][2] = {{"hidden_size", "n_embd"},
                                            {"num_attention_heads", "n_head"}};
    const int64_t defaults[2] = {fam != NULL ? fam->defaults.hidden : 0,
                                 fam != NULL ? fam->defaults.heads : 0};
    int64_t val[2];
    const char *key[2];
    bool given[2];
    for (int i = 0; i < 2; i++) {
        key[i] = names[i][0];
        given[i] = false;
        for (int k = 0; k < 2 && !given[i]; k++) {
            PE_TRY(pe__json_int(top, names[i][k], &val[i], &given[i]));
            if (given[i]) key[i] = names[i][k];
        }
        if (given[i] && val[i] <= 0)
            return pe__fail(PE_ERR_DIM, "'%s%s'=%lld must be > 0", top.prefix, key[i],
                            (long long)val[i]);
        if (!given[i] && defaults[i] <= 0)
            return pe__fail(PE_ERR_FORMAT, "config has no %sqk_rope_head_dim or head_dim, and no "
                            "%s%s (or %s) to derive it from: posenc's record of '%s' states no "
                            "class default for it", top.prefix, top.prefix, names[i][0],
                            names[i][1], fam != NULL ? fam->model_type : "this family");
        if (!given[i]) val[i] = defaults[i];
    }
    *from = key[0];
    /* the attention width: hidden_size, or a multiple of it (Zamba2Config:
     * attention_head_dim = 2 * hidden_size // num_attention_heads) */
    int64_t factor = fam != NULL && fam->head_width_factor > 0 ? fam->head_width_factor : 1;
    int64_t width;
    if (!pe__i64_mul(val[0], factor, &width))
        return pe__fail(PE_ERR_DIM, "'%s%s'=%lld is too large", top.prefix, key[0],
                        (long long)val[0]);
    char times[32] = "";
    if (factor > 1) snprintf(times, sizeof times, "%lld * ", (long long)factor);
    if (width % val[1] != 0)
        return pe__fail(PE_ERR_DIM, "%s'%s%s'=%lld%s is not a positive multiple of '%s%s'=%lld%s",
                        times, top.prefix, key[0], (long long)val[0],
                        given[0] ? "" : " (class default)",
                        top.prefix, key[1], (long long)val[1],
                        given[1] ? "" : " (class default)");
    *head_dim = width / val[1];
    return PE_OK;
}

/* D of the rotated head: qk_rope_head_dim, head_dim, the class's head_dim,
 * else hidden size / head count (derive_head_dim). */
static int read_head_dim(pe__scope top, const pe__family *fam, int64_t *head_dim,
                         const char **from) {
    int64_t v = 0;
    bool has;
    PE_TRY(pe__json_int(top, "qk_rope_head_dim", &v, &has));
    *from = "qk_rope_head_dim";
    if (!has) {
        PE_TRY(pe__json_int(top, "head_dim", &v, &has));
        *from = "head_dim";
    }
    if (!has && fam != NULL && fam->head_dim_key != NULL) {
        PE_TRY(pe__json_int(top, fam->head_dim_key, &v, &has)); /* JetMoe: kv_channels */
        *from = fam->head_dim_key;
    }
    if (!has && fam != NULL && fam->defaults.head_dim > 0) {
        v = fam->defaults.head_dim; /* the class's head_dim default (Gemma: 256) */
        has = true;
    }
    if (has && v <= 0)
        return pe__fail(PE_ERR_DIM, "'%s%s'=%lld must be > 0", top.prefix, *from, (long long)v);
    if (has && (fam == NULL || fam->head_width_factor == 0)) {
        *head_dim = v;
        return PE_OK;
    }
    /* A class that recomputes its head from the counts whatever the file says
     * (Zamba2Config.__post_init__): a file stating another value is refused,
     * not planned with a head the model does not have. */
    const char *stated = *from;
    PE_TRY(derive_head_dim(top, fam, head_dim, from));
    if (has && v != *head_dim)
        return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld, but model_type '%s' recomputes it as "
                        "%lld * hidden_size // num_attention_heads = %lld: the file disagrees "
                        "with its own class", top.prefix, stated, (long long)v, fam->model_type,
                        (long long)fam->head_width_factor, (long long)*head_dim);
    return PE_OK;
}

/* d: partial_rotary_factor or rotary_pct (int(D * fraction), as HF
 * truncates; proportional RoPE: 2 floor(D * fraction / 2)) or rotary_dim
 * (GPT-J); several given must agree. A family default fraction applies
 * when no key gives one. */
static int read_rotary_dim(const pe__rope_source *src, pe__scope block,
                           pe_scaling_type type, int64_t head_dim, int64_t *rotary,
                           const char **from) {
    pe__scope top = src->top;
    double prf = 1.0, pct = 1.0, prf_top = 1.0;
    int64_t rd = 0;
    bool has_prf, has_prf_top, has_pct, has_rd;
    PE_TRY(pe__json_number(block, "partial_rotary_factor", &prf, &has_prf));
    PE_TRY(pe__json_number(top, "partial_rotary_factor", &prf_top, &has_prf_top));
    PE_TRY(pe__merge_number(&prf, &has_prf, prf_top, has_prf_top,
                            "rope_parameters.partial_rotary_factor",
                            "partial_rotary_factor"));
    PE_TRY(pe__json_number(top, "rotary_pct", &pct, &has_pct));
    PE_TRY(pe__json_int(top, "rotary_dim", &rd, &has_rd));
    if (src->fam != NULL && src->fam->partial_forced) {
        /* the class overwrites the file's value (BambaConfig: 0.5 "for BC");
         * pe__plan_warn_ignored says so when the file states another */
        has_prf = has_pct = has_rd = false;
    }
    if (!has_prf && !has_pct && !has_rd && src->fam != NULL &&
        src->fam->defaults.partial_rotary > 0.0) {
        prf = src->fam->defaults.partial_rotary; /* the class default (GLM, Phi, NeoX, ...) */
        has_prf = true;
    }
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
        int64_t v = type == PE_SCALING_PROPORTIONAL
                        ? 2 * (int64_t)floor((double)head_dim * fr[k].frac / 2.0)
                        : (int64_t)((double)head_dim * fr[k].frac);
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

static int read_extras(const pe__rope_source *src, pe__scope block,
                       const pe_rope_scaling *s, pe__rope_extras *x) {
    double v = 0.0;
    bool has;
    /* M-RoPE sections: in the block (Qwen2-VL's rope_scaling, Qwen3-VL's
     * rope_parameters) or at the top level. */
    double sec[PE_MAX_PAIRS];
    int64_t n = 0;
    PE_TRY(pe__json_list(block, "mrope_section", sec, &n, &has));
    if (!has) PE_TRY(pe__json_list(src->top, "mrope_section", sec, &n, &has));
    if (has) {
        if (n < 1 || n > 4)
            return pe__fail(PE_ERR_FORMAT, "'%smrope_section' has %lld entries: want 1 "
                            "to 4", block.prefix, (long long)n);
        int64_t sum = 0;
        for (int64_t i = 0; i < n; i++) {
            if (sec[i] != floor(sec[i]) || sec[i] < 0 || sec[i] > PE_MAX_PAIRS)
                return pe__fail(PE_ERR_FORMAT, "'%smrope_section'[%lld]=%g must be an "
                                "integer in [0, %d]", block.prefix, (long long)i, sec[i],
                                PE_MAX_PAIRS);
            x->mrope_section[i] = (int64_t)sec[i];
            sum += x->mrope_section[i];
        }
        if (sum != s->rotary_dim / 2)
            return pe__fail(PE_ERR_FORMAT, "'%smrope_section' sums to %lld pairs but the "
                            "rotary dim %lld has %lld", block.prefix, (long long)sum,
                            (long long)s->rotary_dim, (long long)(s->rotary_dim / 2));
        x->n_mrope_section = n;
    }
    bool inter = false;
    PE_TRY(pe__json_bool(block, "mrope_interleaved", &inter, &has));
    x->mrope_interleaved = inter;
    const pe__family *fam = src->fam;
    if (fam != NULL && fam->rope_extra == PE__EXTRA_PHIMOE_MSCALE) {
        bool hs, hl;
        PE_TRY(pe__json_number(block, "short_mscale", &x->short_mscale, &hs));
        PE_TRY(pe__json_number(block, "long_mscale", &x->long_mscale, &hl));
        if (hs != hl)
            return pe__fail(PE_ERR_FORMAT, "'%sshort_mscale' and 'long_mscale' come "
                            "together", block.prefix);
        if (hs && (!(x->short_mscale > 0.0) || !(x->long_mscale > 0.0)))
            return pe__fail(PE_ERR_FORMAT, "'%sshort_mscale'=%g and 'long_mscale'=%g "
                            "must be > 0", block.prefix, x->short_mscale, x->long_mscale);
        x->has_mscales = hs;
    }
    if (fam != NULL && fam->query == PE__QUERY_LLAMA4_BETA) {
        PE_TRY(pe__json_number(block, "llama_4_scaling_beta", &v, &has));
        if (has) {
            if (!(v >= 0.0))
                return pe__fail(PE_ERR_FORMAT, "'%sllama_4_scaling_beta'=%g must be >= "
                                "0", block.prefix, v);
            if (s->original_max_position <= 0)
                return pe__fail(PE_ERR_FORMAT, "'%sllama_4_scaling_beta' needs "
                                "original_max_position_embeddings", block.prefix);
            x->has_beta = true;
            x->llama4_beta = v;
            x->llama4_span = s->original_max_position;
        }
    }
    return PE_OK;
}

int pe__read_rope(const pe__rope_source *src, pe_rope_config *c, pe__rope_extras *x) {
    memset(c, 0, sizeof *c);
    memset(x, 0, sizeof *x);
    pe__scope top = src->top;
    /* A layer that ignores the block still reads its base from it (v5
     * keeps rope_theta there). */
    pe__scope block = src->block, scaling = src->base_only ? (pe__scope){NULL, ""} : block;
    pe_rope_scaling *s = &c->scaling;
    const pe__family *fam = src->fam;

    pe_scaling_type type;
    PE_TRY(read_type(scaling, &type));
    *s = pe_rope_scaling_defaults(type, 0);

    /* Base: the family's rule for this layer kind (Gemma's local base), else
     * the block's rope_theta (v5), the top-level rope_theta, GPT-NeoX's
     * rotary_emb_base, else the class default. */
    double base = fam != NULL && fam->defaults.rope_theta > 0.0 ? fam->defaults.rope_theta : 10000.0, v = 0.0;
    bool has_base, has;
    if (src->has_base) {
        base = src->base;
    } else {
        PE_TRY(pe__json_number(block, "rope_theta", &base, &has_base));
        PE_TRY(pe__json_number(top, "rope_theta", &v, &has));
        char name[160];
        snprintf(name, sizeof name, "%srope_theta", block.prefix);
        PE_TRY(pe__merge_number(&base, &has_base, v, has, name, "rope_theta"));
        PE_TRY(pe__json_number(top, "rotary_emb_base", &v, &has));
        PE_TRY(pe__merge_number(&base, &has_base, v, has, "rope_theta", "rotary_emb_base"));
        if (fam != NULL && fam->base_alias != NULL) {
            PE_TRY(pe__json_number(top, fam->base_alias, &v, &has));
            PE_TRY(pe__merge_number(&base, &has_base, v, has, "rope_theta", fam->base_alias));
        }
        if (!has_base && fam != NULL && fam->defaults.rope_theta > 0.0) base = fam->defaults.rope_theta;
    }
    if (!(base > 0.0) || base == 1.0)
        return pe__fail(PE_ERR_FORMAT, "rope_theta=%g must be > 0 and not 1", base);
    s->base = base;

    const char *head_from, *rot_from;
    if (src->head_dim > 0) {
        s->head_dim = src->head_dim;
        head_from = src->head_key;
    } else {
        PE_TRY(read_head_dim(top, fam, &s->head_dim, &head_from));
    }
    PE_TRY(read_rotary_dim(src, scaling.obj ? scaling : block, type, s->head_dim,
                           &s->rotary_dim, &rot_from));
    if (s->rotary_dim < 2 || s->rotary_dim % 2 != 0 || s->rotary_dim > s->head_dim ||
        s->rotary_dim > PE_MAX_ROTARY_DIM)
        return pe__fail(PE_ERR_DIM, "'%s' gives rotary dim %lld: must be even and in "
                        "[2, min(%s=%lld, PE_MAX_ROTARY_DIM=%d)]", rot_from, (long long)s->rotary_dim,
                        head_from, (long long)s->head_dim, PE_MAX_ROTARY_DIM);
    if (type == PE_SCALING_PROPORTIONAL &&
        (s->head_dim % 2 != 0 || s->head_dim > PE_MAX_ROTARY_DIM))
        return pe__fail(PE_ERR_DIM, "'%s'=%lld: proportional RoPE needs an even head "
                        "of at most PE_MAX_ROTARY_DIM=%d", head_from, (long long)s->head_dim,
                        PE_MAX_ROTARY_DIM);

    int64_t iv = 0, l0 = 0;
    bool has_max, has_l0;
    PE_TRY(pe__json_int(top, "max_position_embeddings", &s->max_position, &has_max));
    PE_TRY(pe__json_int(top, "n_positions", &iv, &has));
    PE_TRY(pe__merge_int(&s->max_position, &has_max, iv, has, "max_position_embeddings",
                         "n_positions"));
    if (has_max && s->max_position <= 0)
        return pe__fail(PE_ERR_FORMAT, "'max_position_embeddings'=%lld must be > 0",
                        (long long)s->max_position);
    if (!has_max && fam != NULL && fam->defaults.max_position > 0) {
        s->max_position = fam->defaults.max_position; /* the class default */
        has_max = true;
    }
    /* L0 at the top level (Phi-3) or in the block; HF v5 prefers the top
     * level, we require agreement. Absent, HF falls back to L. */
    PE_TRY(pe__json_int(top, "original_max_position_embeddings", &l0, &has_l0));
    PE_TRY(pe__json_int(scaling, "original_max_position_embeddings", &iv, &has));
    PE_TRY(pe__merge_int(&l0, &has_l0, iv, has, "original_max_position_embeddings",
                         "rope_scaling.original_max_position_embeddings"));
    if (pe__scaling_reads_key(type, "original_max_position_embeddings")) {
        if (!has_l0 && !has_max)
            return pe__fail(PE_ERR_FORMAT, "%soriginal_max_position_embeddings (or "
                            "max_position_embeddings) is required for rope_type '%s'",
                            scaling.prefix, pe_scaling_name(type));
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

    /* Every parameter the scheme reads, by its key in the scheme table
     * (config_scaling.c). factor is required where HF's rope functions
     * index it (linear, ntk, dynamic, llama3, yarn); LongRoPE derives a
     * missing one from L / L0. */
    PE_TRY(require_keys(scaling, type, true));
    PE_TRY(pe__scaling_read_block(scaling, c));
    if (type == PE_SCALING_LONGROPE && isnan(s->factor) && !has_max)
        return pe__fail(PE_ERR_FORMAT, "'%sfactor' is missing and "
                        "max_position_embeddings is absent to derive it", scaling.prefix);
    PE_TRY(require_keys(scaling, type, false));
    /* beta_fast == beta_slow is accepted as HF does (Kimi K2 ships 1 and 1):
     * the ramp's end is nudged by 0.001. */
    if (type == PE_SCALING_YARN &&
        (!(s->beta_fast >= s->beta_slow) || !(s->beta_slow > 0.0) ||
         !(s->mscale >= 0.0) || !(s->mscale_all_dim >= 0.0)))
        return pe__fail(PE_ERR_FORMAT, "%sbeta_fast=%g, beta_slow=%g, mscale=%g, "
                        "mscale_all_dim=%g: need beta_fast >= beta_slow > 0 and "
                        "mscales >= 0", scaling.prefix, s->beta_fast, s->beta_slow,
                        s->mscale, s->mscale_all_dim);
    if (type == PE_SCALING_LLAMA3 &&
        !(s->low_freq_factor > 0.0 && s->low_freq_factor < s->high_freq_factor))
        return pe__fail(PE_ERR_FORMAT, "%slow_freq_factor=%g must be > 0 and < "
                        "high_freq_factor=%g", scaling.prefix, s->low_freq_factor,
                        s->high_freq_factor);
    if (type == PE_SCALING_LONGROPE) {
        const int64_t half = s->rotary_dim / 2;
        if (s->n_short_factor != half || s->n_long_factor != half)
            return pe__fail(PE_ERR_FORMAT, "'%sshort_factor' (%lld) and 'long_factor' "
                            "(%lld) must each have rotary_dim/2 = %lld entries",
                            scaling.prefix, (long long)s->n_short_factor,
                            (long long)s->n_long_factor, (long long)half);
        for (int64_t i = 0; i < half; i++)
            if (!(c->short_factor[i] > 0.0) || !(c->long_factor[i] > 0.0))
                return pe__fail(PE_ERR_FORMAT, "'%sshort_factor'/'long_factor'[%lld] "
                                "must be > 0", scaling.prefix, (long long)i);
    }

    /* HunYuan: a "dynamic" block with alpha is ntk_alpha (rope_scaling.c),
     * folded into the default scheme at its base, magnitude 1 (its rotary
     * class). The key and the base rule come from ntk_alpha's row. */
    if (fam != NULL && fam->rope_extra == PE__EXTRA_HUNYUAN_ALPHA && scaling.obj != NULL) {
        int ia = 0; /* ntk_alpha's one parameter */
        while (ia < pe_scaling_num_params() && !pe_scaling_reads(PE_SCALING_NTK_ALPHA, ia)) ia++;
        const pe_scaling_param *pa = pe_scaling_param_get(ia);
        const char *key = pa != NULL ? pa->config_key : NULL;
        double alpha = 0.0;
        has = false;
        if (key != NULL) PE_TRY(pe__json_number(scaling, key, &alpha, &has));
        if (has && alpha != 0.0) {
            pe_rope_scaling a = pe_rope_scaling_defaults(PE_SCALING_NTK_ALPHA, s->head_dim);
            a.rotary_dim = s->rotary_dim;
            a.base = s->base;
            PE_TRY(pe_scaling_set_real(&a, ia, alpha));
            long double lb;
            int st = pe__scaling_fold_base(&a, &lb);
            if (st == PE_ERR_DIM)
                return pe__fail(PE_ERR_DIM, "'%s%s' needs a rotary dim above 2", scaling.prefix,
                                key);
            if (st != PE_OK)
                return pe__fail(PE_ERR_FORMAT, "'%s%s'=%g must be > 0", scaling.prefix, key, alpha);
            pe_rope_scaling plain = pe_rope_scaling_defaults(PE_SCALING_DEFAULT, s->head_dim);
            plain.rotary_dim = s->rotary_dim;
            plain.base = (double)expl(lb);
            plain.max_position = s->max_position;
            plain.original_max_position = s->original_max_position;
            if (!isfinite(plain.base))
                return pe__fail(PE_ERR_FORMAT, "'%s%s'=%g makes the base overflow",
                                scaling.prefix, key, alpha);
            *s = plain;
            x->alpha_applied = true;
            x->alpha = alpha;
        }
    }
    PE_TRY(check_scheme(c, scaling, head_from, rot_from));
    PE_TRY(read_extras(src, scaling, s, x));
    c->layout = fam != NULL ? fam->pairs.layout : PE_ROPE_HALF;
    c->layout_known = fam != NULL;
    if (fam != NULL && fam->pairs.switch_key != NULL) {
        /* DeepSeek V3: rope_interleave picks the interleaved pairing. */
        bool interleave = fam->pairs.switch_default;
        PE_TRY(pe__json_bool(top, fam->pairs.switch_key, &interleave, &has));
        c->layout = interleave ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
    }
    return PE_OK;
}

/* A config's scaling with its LongRoPE lists pointing into it (the reader's
 * own checks use it, and so does config.c's pe_config_freqs). */
int pe_config_scaling(const pe_rope_config *config, int64_t seq_len,
                      pe_rope_scaling *out) {
    PE_CHECK_NULL(config);
    if (seq_len < 0)
        return pe__fail(PE_ERR_PARAM, "seq_len=%lld must be >= 0 (0: not stated)",
                        (long long)seq_len);
    pe_rope_scaling s;
    PE_TRY(pe__scaling_point_lists(config, &s));
    PE_CHECK_NULL(out);
    *out = s;
    out->seq_len = seq_len;
    return PE_OK;
}
