/*
 * config.c — the single-RoPE API (pe_config_*) on top of the per-layer plan
 * (plan.c): a config whose layers differ is refused there, naming the layer
 * types, instead of answering for one of them. The key reader itself is
 * config_rope.c, below the plan.
 */
#include "plan_internal.h"

#include <stdlib.h>

/* ------------------------------------------------ the single-RoPE API */

static int config_from_text(const char *json, size_t len, const char *family,
                            pe_rope_config *out) {
    pe_plan *plan = NULL;
    pe_rope_config tmp_cfg = {0}, *tmp = &tmp_cfg; /* out stays untouched on failure */
    int status = pe_plan_from_config_json_as(json, len, family, &plan);
    if (status == PE_OK) status = pe__plan_uniform_config(plan, tmp);
    if (status == PE_OK) *out = *tmp;
    pe_plan_free(plan);
    return status;
}

int pe_config_parse_as(const char *json, size_t len, const char *family,
                       pe_rope_config *out) {
    PE_CHECK_NULL(json);
    PE_CHECK_NULL(out);
    return config_from_text(json, len, family, out);
}

int pe_config_parse(const char *json, size_t len, pe_rope_config *out) {
    return pe_config_parse_as(json, len, NULL, out);
}

int pe_config_read_as(const char *path, const char *family, pe_rope_config *out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    char *buf;
    size_t len;
    PE_TRY(pe__json_slurp(path, &buf, &len));
    int status = config_from_text(buf, len, family, out);
    free(buf);
    return status;
}

int pe_config_read(const char *path, pe_rope_config *out) {
    return pe_config_read_as(path, NULL, out);
}

int pe_config_freqs(const pe_rope_config *config, int64_t seq_len, pe_freqs *out,
                    double *interp_weight) {
    pe_rope_scaling s;
    PE_TRY(pe_config_scaling(config, seq_len, &s));
    PE_TRY(pe_freqs_from_scaling(&s, out, interp_weight));
    /* Only DeepSeek-family attention folds mscale(f, mscale_all_dim)^2 into
     * its softmax scale; every other model's attention leaves it alone. */
    const pe__family *fam = pe__family_find(config->model_type);
    if (fam == NULL || fam->softmax != PE__SOFTMAX_DEEPSEEK_MSCALE)
        out->softmax_scale_multiplier = 1.0;
    return PE_OK;
}
