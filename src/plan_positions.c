/*
 * plan_positions.c — the positions of every layer of a plan, by kind
 * (include/posenc.h, "pe_position_kind"): the plans of families whose
 * attention does not rotate (ALiBi, T5 relative buckets, learned or
 * sinusoidal absolute tables), built from their record and config; the
 * per-layer position accessors; ALiBi slopes exactly as each family's code
 * computes them (and as its float32 / bfloat16 arithmetic rounds them).
 * RoPE layers are plan.c's; this file knows the rest.
 */
#include "plan_internal.h"
#include "kernels/kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
    [PE_POSITION_ROPE] = "rope",       [PE_POSITION_NOPE] = "nope",
    [PE_POSITION_ALIBI] = "alibi",     [PE_POSITION_T5] = "t5",
    [PE_POSITION_LEARNED] = "learned", [PE_POSITION_SINUSOIDAL] = "sinusoidal",
    [PE_POSITION_NONE] = "none",       [PE_POSITION_RELATIVE] = "relative",
};
#define N_KINDS (sizeof kind_names / sizeof *kind_names)

const char *pe_position_kind_name(pe_position_kind kind) {
    return (unsigned)kind < N_KINDS ? kind_names[kind] : "?";
}

int pe_position_kind_from_name(const char *name, pe_position_kind *out) {
    PE_CHECK_NULL(name);
    PE_CHECK_NULL(out);
    for (size_t i = 0; i < N_KINDS; i++)
        if (strcmp(name, kind_names[i]) == 0) {
            *out = (pe_position_kind)i;
            return PE_OK;
        }
    return pe__fail(PE_ERR_PARAM, "position kind '%.40s' is not rope, nope, alibi, t5, "
                    "learned, sinusoidal, none or relative", name);
}

/* ------------------------------------------------- non-RoPE families */

/* The first of several alias keys the config has (HF attribute_map
 * aliases: n_head / n_heads / num_heads for num_attention_heads, ...). */
static int read_alias(pe__scope top, const char *const *keys, int64_t *v, const char **from) {
    bool has;
    for (const char *const *k = keys; *k != NULL; k++) {
        PE_TRY(pe__json_int(top, *k, v, &has));
        if (has) {
            *from = *k;
            return PE_OK;
        }
    }
    *from = NULL;
    return PE_OK;
}

static const char *const heads_keys[] = {"num_attention_heads", "n_head", "n_heads",
                                         "num_heads", "attention_heads", NULL};
static const char *const hidden_keys[] = {"hidden_size", "n_embd", "d_model", NULL};
static const char *const layer_keys[] = {"num_hidden_layers", "n_layer", "n_layers",
                                         "num_layers", NULL};

/* A count the family's code needs: the config's, else the class default
 * (def > 0), else an error naming the keys. */
static int read_required(pe__scope top, const char *const *keys, const char *what,
                         int64_t def, int64_t lo, int64_t hi, int64_t *v) {
    const char *from;
    PE_TRY(read_alias(top, keys, v, &from));
    if (from == NULL && def > 0) {
        *v = def;
        return PE_OK;
    }
    if (from == NULL)
        return pe__fail(PE_ERR_FORMAT, "config has no %s (%s%s%s)", what, keys[0],
                        keys[1] ? ", " : "", keys[1] ? keys[1] : "");
    if (*v < lo || *v > hi)
        return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be in [%lld, %lld]", top.prefix, from,
                        (long long)*v, (long long)lo, (long long)hi);
    return PE_OK;
}

static int alloc_layers(pe_plan *p, int64_t n) {
    p->n_layers = n;
    p->layers = calloc((size_t)n, sizeof *p->layers);
    if (p->layers == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory for %lld layers", (long long)n);
    return PE_OK;
}

/* Give layers [from, to) the type `type` and position `pos`. */
static int set_layers(pe_plan *p, int64_t from, int64_t to, const char *type,
                      const pe__position *pos, int64_t head_dim) {
    int32_t t, at;
    PE_TRY(pe__plan_type_index(p, type, &t));
    PE_TRY(pe__plan_add_position(p, pos, &at));
    for (int64_t i = from; i < to; i++) {
        pe__layer_rec *L = &p->layers[i];
        L->type = t;
        L->kind = -1;
        L->position = at + 1;
        L->attention = 1;
        L->head_dim = head_dim;
    }
    return PE_OK;
}

/* A nested "attn_config" (MPT) holds the ALiBi keys. */
static int read_alibi(pe__scope top, const pe__family *fam, int64_t heads, pe_plan_alibi *a) {
    a->heads = heads;
    a->rule = fam->alibi.slopes;
    a->max_bias = fam->alibi.max_bias > 0.0 ? fam->alibi.max_bias : 8.0;
    a->hf_slope_dtype = fam->alibi.hf_slope_dtype;
    a->causal = 1;
    if (fam->alibi.max_bias_key != NULL) {
        const cJSON *ac;
        PE_TRY(pe__json_object(top, "attn_config", &ac));
        char prefix[80];
        snprintf(prefix, sizeof prefix, "%sattn_config.", top.prefix);
        bool has;
        if (ac != NULL)
            PE_TRY(pe__json_number((pe__scope){ac, prefix}, fam->alibi.max_bias_key,
                                   &a->max_bias, &has));
        if (!(a->max_bias > 0.0) || a->max_bias > 1024.0)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%g must be in (0, 1024]", prefix,
                            fam->alibi.max_bias_key, a->max_bias);
    }
    return PE_OK;
}

int pe__plan_warn_ignored(pe_plan *p, pe__scope top, const pe__family *fam) {
    for (size_t k = 0; k < sizeof fam->ignored / sizeof *fam->ignored; k++) {
        const pe__ignored_key *ig = &fam->ignored[k];
        if (ig->key == NULL) continue;
        pe__scope where = top;
        const char *dot = strchr(ig->key, '.'), *leaf = ig->key;
        char prefix[96], block[48];
        if (dot != NULL) {
            snprintf(block, sizeof block, "%.*s", (int)(dot - ig->key), ig->key);
            const cJSON *o;
            PE_TRY(pe__json_object(top, block, &o));
            if (o == NULL) continue;
            snprintf(prefix, sizeof prefix, "%s%s.", top.prefix, block);
            where = (pe__scope){o, prefix};
            leaf = dot + 1;
        }
        const cJSON *j;
        PE_TRY(pe__json_find(where, leaf, &j));
        if (j == NULL) continue;
        bool differs = isnan(ig->used) ? true
                       : cJSON_IsBool(j) ? (cJSON_IsTrue(j) ? 1.0 : 0.0) != ig->used
                       : cJSON_IsNumber(j) ? j->valuedouble != ig->used : true;
        if (differs)
            PE_TRY(pe__plan_warn(p, "'%s%s': %s; ignored", where.prefix, leaf, ig->why));
    }
    return PE_OK;
}

/* Positional-looking keys a non-RoPE family's code does not read (a
 * rope_theta in an ALiBi Falcon, a rope_scaling in GPT-2): warnings. The
 * keys the record reads or names as ignored are not repeated. */
static int warn_unread(pe_plan *p, pe__scope top, const pe__family *fam, pe_position_kind kind) {
    static const char *const hints[] = {"rope", "rotary", "alibi", "position_embedding", "nope"};
    for (const cJSON *c = top.obj->child; c != NULL; c = c->next) {
        const char *k = c->string ? c->string : "";
        bool looks = false, read = cJSON_IsNull(c);
        for (size_t i = 0; i < sizeof hints / sizeof *hints; i++)
            if (strstr(k, hints[i]) != NULL) looks = true;
        if (fam->kind_switch.key != NULL && strcmp(k, fam->kind_switch.key) == 0) read = true;
        if (fam->learned.kind_key != NULL && strcmp(k, fam->learned.kind_key) == 0) read = true;
        /* the table's own keys (BERT's max_position_embeddings is its rows) */
        const char *table_keys[] = {fam->learned.rows_key, fam->learned.dec_rows_key,
                                    fam->learned.dim_key};
        for (size_t i = 0; i < sizeof table_keys / sizeof *table_keys; i++)
            if (kind == PE_POSITION_LEARNED && table_keys[i] != NULL &&
                strcmp(k, table_keys[i]) == 0)
                read = true;
        /* a sinusoidal table's length (its code sizes the table by it) */
        if (kind == PE_POSITION_SINUSOIDAL && strcmp(k, "max_position_embeddings") == 0)
            read = true;
        for (size_t i = 0; i < sizeof fam->ignored / sizeof *fam->ignored; i++)
            if (fam->ignored[i].key != NULL && strcmp(k, fam->ignored[i].key) == 0) read = true;
        if (looks && !read)
            PE_TRY(pe__plan_warn(p, "'%s%s': model_type '%s' has %s positions and its code does "
                                 "not read it; ignored", top.prefix, k, fam->model_type,
                                 pe_position_kind_name(kind)));
    }
    return PE_OK;
}

/* A learned table's width when it is not the hidden size (embedding_size),
 * and a RoBERTa-style offset padding_idx + 1 read from the config. */
static int learned_extras(pe__scope top, const pe__family *fam, pe_plan_learned *l) {
    bool has;
    if (fam->learned.dim_key != NULL) {
        if (fam->learned.dim_default > 0) l->dim = fam->learned.dim_default; /* else hidden */
        PE_TRY(pe__json_int(top, fam->learned.dim_key, &l->dim, &has));
        if (l->dim < 1 || l->dim > (int64_t)1 << 30)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be in [1, 2^30]", top.prefix,
                            fam->learned.dim_key, (long long)l->dim);
    }
    if (fam->learned.pad_offset_key != NULL) {
        int64_t pad = l->offset - 1;
        PE_TRY(pe__json_int(top, fam->learned.pad_offset_key, &pad, &has));
        if (!has && l->offset == 0) /* the class has no default (EsmConfig: None) */
            return pe__fail(PE_ERR_FORMAT, "config has no '%s%s': model_type '%s' starts its "
                            "position ids at padding_idx + 1 and its class has no default",
                            top.prefix, fam->learned.pad_offset_key, fam->model_type);
        if (pad < 0 || pad + 1 >= l->rows)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld: positions start at it + 1, which must "
                            "be inside the table's %lld rows", top.prefix,
                            fam->learned.pad_offset_key, (long long)pad, (long long)l->rows);
        l->offset = pad + 1;
    }
    return PE_OK;
}

/* One stack's table of an encoder-decoder (TWO_STACKS): the learned table
 * (the decoder's own size key where the family has one, LED) or the
 * sinusoidal table, each added to that stack's input. */
static int stack_table(pe__scope top, const pe__family *fam, pe_position_kind kind, int64_t hidden,
                       bool decoder, pe__position *pos) {
    memset(pos, 0, sizeof *pos);
    pos->kind = kind;
    bool has;
    if (kind == PE_POSITION_LEARNED) {
        const char *key = decoder && fam->learned.dec_rows_key ? fam->learned.dec_rows_key
                                                               : fam->learned.rows_key;
        int64_t rows = decoder && fam->learned.dec_rows_key ? fam->learned.dec_rows_default
                                                            : fam->learned.rows_default;
        PE_TRY(pe__json_int(top, key, &rows, &has));
        if (rows < 1 || rows > INT64_MAX / 2 || rows + fam->learned.rows_extra <= fam->learned.offset)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be >= %lld", top.prefix, key,
                            (long long)rows,
                            (long long)(fam->learned.offset - fam->learned.rows_extra + 1));
        pos->learned = (pe_plan_learned){rows + fam->learned.rows_extra, fam->learned.offset, hidden};
        return learned_extras(top, fam, &pos->learned);
    }
    pe_plan_sinusoidal *t = &pos->sinusoidal;
    *t = (pe_plan_sinusoidal){10000.0, fam->sinusoidal.layout, fam->sinusoidal.convention, hidden,
                              fam->sinusoidal.offset};
    if (fam->sinusoidal.pad_offset_key != NULL) {
        int64_t pad = t->offset - 1;
        PE_TRY(pe__json_int(top, fam->sinusoidal.pad_offset_key, &pad, &has));
        if (pad < 0 || pad > (int64_t)1 << 40)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be >= 0 (positions start at it + 1)",
                            top.prefix, fam->sinusoidal.pad_offset_key, (long long)pad);
        t->offset = pad + 1;
    }
    return PE_OK;
}

/* An encoder-decoder with BART's keys: encoder_layers layers (type
 * "encoder"), then decoder_layers layers ("decoder"), each stack with its
 * own table; heads per stack give the head size. Cross-attention sees the
 * encoder's output, not positions of its own. */
static int build_two_stacks(pe_plan *p, pe__scope top, const pe__family *fam,
                            pe_position_kind kind, int64_t hidden) {
    const pe__stacks_rule *d = &fam->stacks;
    int64_t n_enc, n_dec, h_enc, h_dec;
    PE_TRY(read_required(top, (const char *const[]){"encoder_layers", NULL}, "encoder layer count",
                         d->enc_layers, 0, PE_PLAN_MAX_LAYERS / 2, &n_enc));
    PE_TRY(read_required(top, (const char *const[]){"decoder_layers", NULL}, "decoder layer count",
                         d->dec_layers, 0, PE_PLAN_MAX_LAYERS / 2, &n_dec));
    PE_TRY(read_required(top, (const char *const[]){"encoder_attention_heads", NULL},
                         "encoder head count", d->enc_heads, 1, 1 << 20, &h_enc));
    PE_TRY(read_required(top, (const char *const[]){"decoder_attention_heads", NULL},
                         "decoder head count", d->dec_heads, 1, 1 << 20, &h_dec));
    if (n_enc + n_dec < 1)
        return pe__fail(PE_ERR_FORMAT, "'%sencoder_layers' and 'decoder_layers' are both 0",
                        top.prefix);
    pe__position enc, dec;
    PE_TRY(stack_table(top, fam, kind, hidden, false, &enc));
    PE_TRY(stack_table(top, fam, kind, hidden, true, &dec));
    PE_TRY(alloc_layers(p, n_enc + n_dec));
    if (n_enc > 0)
        PE_TRY(set_layers(p, 0, n_enc, "encoder", &enc,
                          hidden > 0 && hidden % h_enc == 0 ? hidden / h_enc : 0));
    if (n_dec > 0)
        PE_TRY(set_layers(p, n_enc, n_enc + n_dec, "decoder", &dec,
                          hidden > 0 && hidden % h_dec == 0 ? hidden / h_dec : 0));
    return PE_OK;
}

int pe__plan_build_fixed(pe_plan *p, pe__scope top, const pe__family *fam,
                         pe_position_kind kind) {
    int64_t heads = 0, hidden = 0, n = 0;
    const char *from;
    PE_TRY(pe__plan_warn_ignored(p, top, fam));
    PE_TRY(warn_unread(p, top, fam, kind));
    if (fam->hidden_key != NULL)
        PE_TRY(read_alias(top, (const char *const[]){fam->hidden_key, NULL}, &hidden, &from));
    if (fam->hidden_key == NULL || from == NULL) PE_TRY(read_alias(top, hidden_keys, &hidden, &from));
    if (from == NULL) hidden = fam->defaults.hidden;
    if (from != NULL && hidden <= 0)
        return pe__fail(PE_ERR_DIM, "'%s%s'=%lld must be > 0", top.prefix, from,
                        (long long)hidden);
    if (fam->layers == PE__LAYERS_TWO_STACKS &&
        (kind == PE_POSITION_LEARNED || kind == PE_POSITION_SINUSOIDAL))
        return build_two_stacks(p, top, fam, kind, hidden);
    pe__position pos;
    memset(&pos, 0, sizeof pos);
    pos.kind = kind;
    if (kind == PE_POSITION_T5) {
        /* Encoder layers (num_layers) then decoder layers
         * (num_decoder_layers, default num_layers); the first layer of each
         * stack holds the relative_attention_bias table the stack shares. */
        int64_t n_dec = 0;
        bool has;
        PE_TRY(read_required(top, heads_keys, "head count", fam->defaults.heads, 1, 1 << 20, &heads));
        PE_TRY(read_required(top, layer_keys, "layer count", fam->defaults.layers, 1,
                         PE_PLAN_MAX_LAYERS, &n));
        n_dec = n;
        PE_TRY(pe__json_int(top, "num_decoder_layers", &n_dec, &has));
        if (n_dec < 0 || n_dec > PE_PLAN_MAX_LAYERS - n)
            return pe__fail(PE_ERR_FORMAT, "'%snum_decoder_layers'=%lld must be in [0, %lld]",
                            top.prefix, (long long)n_dec, (long long)(PE_PLAN_MAX_LAYERS - n));
        bool enc_dec = true;
        PE_TRY(pe__json_bool(top, "is_encoder_decoder", &enc_dec, &has));
        if (!enc_dec) n_dec = 0;
        pe_plan_t5 *t = &pos.t5;
        t->num_buckets = fam->t5.num_buckets;
        t->max_distance = fam->t5.max_distance;
        t->heads = heads;
        PE_TRY(pe__json_int(top, "relative_attention_num_buckets", &t->num_buckets, &has));
        PE_TRY(pe__json_int(top, "relative_attention_max_distance", &t->max_distance, &has));
        /* pe_t5_bucket's own checks, as a config error naming the keys. */
        int64_t b;
        if (pe_t5_bucket(0, 1, t->num_buckets, t->max_distance, &b) != PE_OK ||
            pe_t5_bucket(0, 0, t->num_buckets, t->max_distance, &b) != PE_OK) {
            /* the reason is copied out first: pe__fail writes the buffer
             * pe_last_error() points into */
            char why[256];
            snprintf(why, sizeof why, "%s", pe_last_error());
            return pe__fail(PE_ERR_FORMAT, "'%srelative_attention_num_buckets'=%lld and "
                            "'relative_attention_max_distance'=%lld: %s", top.prefix,
                            (long long)t->num_buckets, (long long)t->max_distance, why);
        }
        int64_t d_kv = 0;
        PE_TRY(pe__json_int(top, "d_kv", &d_kv, &has));
        PE_TRY(alloc_layers(p, n + n_dec));
        t->bidirectional = 1;
        PE_TRY(set_layers(p, 0, n, "encoder", &pos, d_kv));
        t->bidirectional = 0;
        if (n_dec > 0) PE_TRY(set_layers(p, n, n + n_dec, "decoder", &pos, d_kv));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].t5_bias_layer = fam->t5.bias_per_layer ? i : i < n ? 0 : n;
        return PE_OK;
    }
    PE_TRY(read_required(top, layer_keys, "layer count", fam->defaults.layers, 1,
                         PE_PLAN_MAX_LAYERS, &n));
    PE_TRY(read_alias(top, heads_keys, &heads, &from));
    if (from == NULL) heads = fam->defaults.heads;
    if (from != NULL && heads <= 0)
        return pe__fail(PE_ERR_DIM, "'%s%s'=%lld must be > 0", top.prefix, from,
                        (long long)heads);
    int64_t head_dim = heads > 0 && hidden > 0 && hidden % heads == 0 ? hidden / heads : 0;
    PE_TRY(alloc_layers(p, n));
    if (kind == PE_POSITION_ALIBI) {
        PE_TRY(read_required(top, heads_keys, "head count", fam->defaults.heads, 1, 1 << 20, &heads));
        PE_TRY(read_alibi(top, fam, heads, &pos.alibi));
    } else if (kind == PE_POSITION_LEARNED) {
        bool has;
        if (fam->learned.kind_key != NULL) {
            const char *v = NULL;
            PE_TRY(pe__json_string(top, fam->learned.kind_key, &v));
            if (v != NULL && strcmp(v, fam->learned.kind_value) != 0 &&
                fam->learned.other_kind != NULL)
                return pe__fail(PE_ERR_UNSUPPORTED, "'%s%s'='%.40s': model_type '%s' then %s "
                                "(posenc models only '%s')", top.prefix, fam->learned.kind_key,
                                v, fam->model_type, fam->learned.other_kind,
                                fam->learned.kind_value);
            if (v != NULL && strcmp(v, fam->learned.kind_value) != 0)
                return pe__fail(PE_ERR_UNSUPPORTED, "'%s%s'='%.40s': model_type '%s' then uses "
                                "relative position embeddings, which posenc does not model "
                                "(only '%s')", top.prefix, fam->learned.kind_key, v,
                                fam->model_type, fam->learned.kind_value);
        }
        int64_t rows = fam->learned.rows_default;
        if (fam->learned.rows_key != NULL)
            PE_TRY(pe__json_int(top, fam->learned.rows_key, &rows, &has));
        if (rows < 1 || rows > INT64_MAX / 2 || rows + fam->learned.rows_extra <= fam->learned.offset)
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%lld must be >= %lld", top.prefix,
                            fam->learned.rows_key ? fam->learned.rows_key : "positions",
                            (long long)rows,
                            (long long)(fam->learned.offset - fam->learned.rows_extra + 1));
        pos.learned.rows = rows + fam->learned.rows_extra;
        pos.learned.offset = fam->learned.offset;
        pos.learned.dim = hidden;
        PE_TRY(learned_extras(top, fam, &pos.learned));
    } else if (kind == PE_POSITION_SINUSOIDAL) {
        pos.sinusoidal.base = 10000.0;
        pos.sinusoidal.layout = fam->sinusoidal.layout;
        pos.sinusoidal.convention = fam->sinusoidal.convention;
        pos.sinusoidal.offset = fam->sinusoidal.offset;
        pos.sinusoidal.dim = hidden;
        if (fam->sinusoidal.pad_offset_key != NULL) PE_TRY(stack_table(top, fam, kind, hidden,
                                                                   false, &pos));
    } else if (kind == PE_POSITION_NOPE) {
        snprintf(pos.why, sizeof pos.why, "family");
    } else if (kind == PE_POSITION_NONE && fam->none_types != NULL) {
        /* A family without attention (Mamba, RWKV): every layer is its
         * first none type, which sees no token positions. */
        snprintf(pos.why, sizeof pos.why, "%s", fam->none_types[0]);
        PE_TRY(set_layers(p, 0, n, fam->none_types[0], &pos, 0));
        for (int64_t i = 0; i < n; i++) p->layers[i].attention = 0;
        return PE_OK;
    } else {
        return pe__fail(PE_ERR_UNSUPPORTED, "model_type '%s': positional kind '%s' has no "
                        "plan builder", fam->model_type, pe_position_kind_name(kind));
    }
    return set_layers(p, 0, n, "full_attention", &pos, head_dim);
}

/* ---------------------------------------------------------- accessors */

static int layer_rec(const pe_plan *plan, int64_t layer, const pe__layer_rec **L) {
    PE_CHECK_NULL(plan);
    if (layer < 0 || layer >= plan->n_layers)
        return pe__fail(PE_ERR_RANGE, "layer=%lld is outside [0, %lld)", (long long)layer,
                        (long long)plan->n_layers);
    *L = &plan->layers[layer];
    return PE_OK;
}

int pe_plan_layer_position(const pe_plan *plan, int64_t layer, pe_plan_position *out) {
    const pe__layer_rec *L = NULL;
    PE_TRY(layer_rec(plan, layer, &L));
    PE_CHECK_NULL(out);
    if (L->kind >= 0) {
        *out = (pe_plan_position){PE_POSITION_ROPE, ""};
    } else if (L->position > 0) {
        const pe__position *pos = &plan->positions[L->position - 1];
        *out = (pe_plan_position){pos->kind, pos->why};
    } else {
        /* A GGUF layer: no stored record; NoPE or not attention. */
        *out = L->attention ? (pe_plan_position){PE_POSITION_NOPE, "nope_layer"}
                            : (pe_plan_position){PE_POSITION_NONE, plan->names[L->type]};
    }
    return PE_OK;
}

/* The layer's stored position of kind `want`, or a refusal naming its kind. */
static int position_of(const pe_plan *plan, int64_t layer, pe_position_kind want,
                       const pe__position **pos) {
    pe_plan_position got;
    PE_TRY(pe_plan_layer_position(plan, layer, &got));
    if (got.kind != want)
        return pe__fail(PE_ERR_PARAM, "layer %lld (%s) has %s positions, not %s",
                        (long long)layer, plan->names[plan->layers[layer].type],
                        pe_position_kind_name(got.kind), pe_position_kind_name(want));
    *pos = &plan->positions[plan->layers[layer].position - 1];
    return PE_OK;
}

int pe_plan_layer_alibi(const pe_plan *plan, int64_t layer, pe_plan_alibi *out) {
    const pe__position *pos = NULL;
    PE_TRY(position_of(plan, layer, PE_POSITION_ALIBI, &pos));
    PE_CHECK_NULL(out);
    *out = pos->alibi;
    return PE_OK;
}

/* Slope h of MPT's rule: index j of the power-of-two list, 2^(-max (j+1)/c);
 * with c != H the odd indices come first. */
static int64_t mpt_index(int64_t h, int64_t heads, int64_t c) {
    if (c == heads) return h;
    int64_t odd = c / 2; /* indices 1, 3, ..., c-1 */
    return h < odd ? 2 * h + 1 : 2 * (h - odd);
}

static int64_t pow2_ceil(int64_t n) {
    int64_t c = 1;
    while (c < n) c *= 2;
    return c;
}

static int64_t pow2_floor(int64_t n) {
    int64_t c = 1;
    while (c * 2 <= n) c *= 2;
    return c;
}

int pe_plan_layer_alibi_slopes(const pe_plan *plan, int64_t layer, double *exact,
                               double *as_hf) {
    const pe__position *pos = NULL;
    PE_TRY(position_of(plan, layer, PE_POSITION_ALIBI, &pos));
    const pe_plan_alibi *a = &pos->alibi;
    const int64_t H = a->heads;
    if (a->rule == PE_ALIBI_SLOPES_PRESS) {
        if (exact != NULL) PE_TRY(pe_alibi_slopes(H, exact));
        if (as_hf != NULL) {
            /* build_alibi_tensor: base = float32(2^(-8/c)), slopes =
             * torch.pow(base, 1..c) in float32; the extra heads likewise
             * from float32(2^(-4/c)) at the odd powers. */
            const int64_t c = pow2_floor(H);
            const float base = (float)exp2(-8.0 / (double)c);
            const float extra = (float)exp2(-4.0 / (double)c);
            for (int64_t h = 0; h < H; h++)
                as_hf[h] = h < c ? (double)(float)pow((double)base, (double)(h + 1))
                                 : (double)(float)pow((double)extra, (double)(2 * (h - c) + 1));
        }
    } else {
        const int64_t c = pow2_ceil(H);
        for (int64_t h = 0; h < H; h++) {
            const int64_t j = mpt_index(h, H, c);
            if (exact != NULL)
                exact[h] = (double)exp2l(-(long double)a->max_bias * (long double)(j + 1) /
                                         (long double)c);
            if (as_hf != NULL) {
                /* float32: base = (j+1) * float32(max/c); 1 / 2^base. */
                const float e = (float)(j + 1) * (float)(a->max_bias / (double)c);
                const float pw = (float)exp2((double)e);
                as_hf[h] = (double)(1.0f / pw);
            }
        }
    }
    if (as_hf != NULL && a->hf_slope_dtype == PE_BF16)
        for (int64_t h = 0; h < H; h++)
            as_hf[h] = (double)pe__bf16_to_f32(pe__f32_to_bf16((float)as_hf[h]));
    return PE_OK;
}

int pe_plan_layer_t5(const pe_plan *plan, int64_t layer, pe_plan_t5 *out) {
    const pe__position *pos = NULL;
    PE_TRY(position_of(plan, layer, PE_POSITION_T5, &pos));
    PE_CHECK_NULL(out);
    *out = pos->t5;
    out->bias_layer = plan->layers[layer].t5_bias_layer;
    out->owns_bias = out->bias_layer == layer;
    return PE_OK;
}

int pe_plan_layer_learned(const pe_plan *plan, int64_t layer, pe_plan_learned *out) {
    const pe__position *pos = NULL;
    PE_TRY(position_of(plan, layer, PE_POSITION_LEARNED, &pos));
    PE_CHECK_NULL(out);
    *out = pos->learned;
    return PE_OK;
}

int pe_plan_layer_sinusoidal(const pe_plan *plan, int64_t layer, pe_plan_sinusoidal *out) {
    const pe__position *pos = NULL;
    PE_TRY(position_of(plan, layer, PE_POSITION_SINUSOIDAL, &pos));
    PE_CHECK_NULL(out);
    *out = pos->sinusoidal;
    return PE_OK;
}
