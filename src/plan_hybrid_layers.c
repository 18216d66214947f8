/*
 * plan_hybrid_layers.c — the layer rules of the decoder group's records
 * (families_hf_decoders.c) that plan.c's assign_types hands over: a
 * per-layer type list under another key than layer_types (Nemotron-H,
 * Zamba2 layers_block_type) and the hybrids' own schedules of attention
 * and state-space layers (Bamba attn_layer_indices, Dots1
 * max_window_layers, Nemotron-H hybrid_override_pattern, Zamba's fixed
 * prefix). Each restates its configuration class's __post_init__ (cited
 * in the record's source).
 */
#include "plan_internal.h"

#include <math.h>
#include <string.h>

/* NemotronHConfig has no num_hidden_layers of its own: the property is
 * len(layers_block_type), that list being the file's, else
 * _pattern_to_list(hybrid_override_pattern), else the class's four-entry
 * default (configuration_nemotron_h.py __post_init__ and num_hidden_layers).
 * A file without num_hidden_layers gets that length; one with it must agree
 * (checked where the types are assigned). */
int pe__plan_group_layer_count(pe__scope top, const pe__family *f, int64_t *n, bool *found) {
    *found = false;
    if (f->layers != PE__LAYERS_HYBRID_PATTERN) return PE_OK;
    const cJSON *list;
    const char *pat = NULL, *from = f->types_key;
    PE_TRY(pe__json_find(top, f->types_key, &list));
    if (list != NULL && !cJSON_IsNull(list)) {
        if (!cJSON_IsArray(list))
            return pe__fail(PE_ERR_FORMAT, "'%s%s' must be an array of strings, not %s",
                            top.prefix, f->types_key, pe__json_type_name(list));
        *n = cJSON_GetArraySize(list);
    } else {
        PE_TRY(pe__json_string(top, "hybrid_override_pattern", &pat));
        from = "hybrid_override_pattern";
        if (pat != NULL) {
            *n = (int64_t)strlen(pat);
        } else {
            for (*n = 0; f->cycle != NULL && f->cycle[*n] != NULL; (*n)++) {}
            from = NULL;
        }
    }
    if (*n < 1 || *n > PE_PLAN_MAX_LAYERS)
        return pe__fail(PE_ERR_FORMAT, "'%s%s' gives %lld layers: must be in [1, %d]", top.prefix,
                        from != NULL ? from : "layers_block_type", (long long)*n,
                        PE_PLAN_MAX_LAYERS);
    *found = true;
    return PE_OK;
}

int pe__plan_group_layer_types(pe__scope top, const pe__family *f, pe_plan *p, bool *done) {
    *done = false;
    const cJSON *lt;
    PE_TRY(pe__json_find(top, "layer_types", &lt));
    if (lt != NULL) return PE_OK;
    bool has;
    if (f->types_key != NULL) {
        const cJSON *list;
        PE_TRY(pe__json_find(top, f->types_key, &list));
        if (list != NULL && !cJSON_IsNull(list)) {
            if (!cJSON_IsArray(list))
                return pe__fail(PE_ERR_FORMAT, "'%s%s' must be an array of strings, not %s",
                                top.prefix, f->types_key, pe__json_type_name(list));
            int64_t i = 0;
            for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
                if (!cJSON_IsString(c) || c->valuestring == NULL)
                    return pe__fail(PE_ERR_FORMAT, "'%s%s'[%lld] must be a string, not %s",
                                    top.prefix, f->types_key, (long long)i,
                                    pe__json_type_name(c));
                if (i < p->n_layers)
                    PE_TRY(pe__plan_type_index(p, c->valuestring, &p->layers[i].type));
            }
            if (i != p->n_layers)
                return pe__fail(PE_ERR_FORMAT, "'%s%s' has %lld entries but "
                                "num_hidden_layers=%lld", top.prefix, f->types_key,
                                (long long)i, (long long)p->n_layers);
            *done = true;
            return PE_OK;
        }
        if (f->layers == PE__LAYERS_UNIFORM)
            return pe__fail(PE_ERR_UNSUPPORTED, "model_type '%s' needs '%s%s': the class's "
                            "default layer list is not in posenc's registry", f->model_type,
                            top.prefix, f->types_key);
    }
    if (f->layers == PE__LAYERS_ATTN_LIST) {
        /* BambaConfig.layers_block_type: "attention" if i in attn_layer_indices
         * else "mamba"; an index no layer has means the file and
         * num_hidden_layers disagree: refused by name. */
        int32_t attention, mamba;
        const cJSON *idx;
        PE_TRY(pe__plan_type_index(p, "mamba", &mamba));
        for (int64_t i = 0; i < p->n_layers; i++) p->layers[i].type = mamba;
        PE_TRY(pe__json_find(top, f->index_key, &idx));
        *done = true;
        if (idx == NULL || cJSON_IsNull(idx)) return PE_OK;
        if (!cJSON_IsArray(idx))
            return pe__fail(PE_ERR_FORMAT, "'%s%s' must be an array of layer indexes, not %s",
                            top.prefix, f->index_key, pe__json_type_name(idx));
        PE_TRY(pe__plan_type_index(p, "attention", &attention));
        int64_t k = 0;
        for (const cJSON *c = idx->child; c != NULL; c = c->next, k++) {
            double v = cJSON_IsNumber(c) ? c->valuedouble : -1.0;
            if (!(v >= 0.0) || v != floor(v) || v >= (double)p->n_layers)
                return pe__fail(PE_ERR_FORMAT, "'%s%s'[%lld] must be a layer index in [0, %lld) "
                                "(num_hidden_layers=%lld)", top.prefix, f->index_key,
                                (long long)k, (long long)p->n_layers, (long long)p->n_layers);
            p->layers[(int64_t)v].type = attention;
        }
        return PE_OK;
    }
    if (f->layers == PE__LAYERS_MAX_WINDOW) {
        /* Dots1Config: "sliding_attention" if sliding_window is not None and
         * i >= max_window_layers else "full_attention". */
        int64_t mwl = f->defaults.offset;
        PE_TRY(pe__json_int(top, "max_window_layers", &mwl, &has));
        /* pe__json_find reads null as absent: look at the raw item */
        const cJSON *raw = cJSON_GetObjectItemCaseSensitive(top.obj, "sliding_window");
        bool windowed = raw == NULL ? f->defaults.window > 0 : !cJSON_IsNull(raw);
        int32_t full, sliding;
        PE_TRY(pe__plan_type_index(p, "full_attention", &full));
        if (windowed) PE_TRY(pe__plan_type_index(p, "sliding_attention", &sliding));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = windowed && i >= mwl ? sliding : full;
        *done = true;
        return PE_OK;
    }
    if (f->layers == PE__LAYERS_HYBRID_PATTERN) {
        /* NemotronHConfig._pattern_to_list: one character a layer. */
        static const char *const names[][2] = {
            {"M", "mamba"}, {"*", "attention"}, {"-", "mlp"}, {"E", "moe"}};
        const char *pat = NULL;
        PE_TRY(pe__json_string(top, "hybrid_override_pattern", &pat));
        *done = true;
        if (pat == NULL) {
            int64_t n = 0;
            int32_t types[16];
            for (; f->cycle != NULL && n < 16 && f->cycle[n] != NULL; n++)
                PE_TRY(pe__plan_type_index(p, f->cycle[n], &types[n]));
            if (n != p->n_layers)
                return pe__fail(PE_ERR_FORMAT, "model_type '%s' without layers_block_type or "
                                "hybrid_override_pattern has the class's %lld layers, but "
                                "num_hidden_layers=%lld", f->model_type, (long long)n,
                                (long long)p->n_layers);
            for (int64_t i = 0; i < n; i++) p->layers[i].type = types[i];
            return PE_OK;
        }
        if ((int64_t)strlen(pat) != p->n_layers)
            return pe__fail(PE_ERR_FORMAT, "'%shybrid_override_pattern' has %zu layers but "
                            "num_hidden_layers=%lld", top.prefix, strlen(pat),
                            (long long)p->n_layers);
        for (int64_t i = 0; i < p->n_layers; i++) {
            size_t k = 0;
            while (k < sizeof names / sizeof *names && names[k][0][0] != pat[i]) k++;
            if (k == sizeof names / sizeof *names)
                return pe__fail(PE_ERR_FORMAT, "'%shybrid_override_pattern'[%lld]='%c' is not "
                                "one of M, *, -, E", top.prefix, (long long)i, pat[i]);
            PE_TRY(pe__plan_type_index(p, names[k][1], &p->layers[i].type));
        }
        return PE_OK;
    }
    if (f->layers == PE__LAYERS_ZAMBA) {
        /* ZambaConfig._layers_block_type: mamba, mamba, hybrid, then
         * hybrid if i % attn_layer_period == attn_layer_offset over the
         * remaining num_hidden_layers - 3 (i counted from 0 there). */
        int64_t period = f->defaults.period, offset = f->defaults.offset;
        PE_TRY(pe__json_int(top, "attn_layer_period", &period, &has));
        PE_TRY(pe__json_int(top, "attn_layer_offset", &offset, &has));
        if (period < 1 || offset < 0)
            return pe__fail(PE_ERR_FORMAT, "'%sattn_layer_period'=%lld and "
                            "'attn_layer_offset'=%lld: need period >= 1, offset >= 0",
                            top.prefix, (long long)period, (long long)offset);
        if (p->n_layers < 3)
            return pe__fail(PE_ERR_FORMAT, "'%snum_hidden_layers'=%lld: Zamba's layer schedule "
                            "starts with 3 fixed layers", top.prefix, (long long)p->n_layers);
        int32_t mamba, hybrid;
        PE_TRY(pe__plan_type_index(p, "mamba", &mamba));
        PE_TRY(pe__plan_type_index(p, "hybrid", &hybrid));
        for (int64_t i = 0; i < p->n_layers; i++)
            p->layers[i].type = i == 2 || (i >= 3 && (i - 3) % period == offset) ? hybrid : mamba;
        *done = true;
        return PE_OK;
    }
    return PE_OK;
}
