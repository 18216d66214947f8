/* freq_opts.c — turn the shared frequency options into a pe_freqs. */
#include "freq_opts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Options that describe a scheme by hand and so conflict with --config. */
static const char *const manual_opts[] = {
    "head-dim", "rotary-dim", "partial-rotary-factor", "base", "scaling", "factor",
    "original-max-position", "max-position", "beta-fast", "beta-slow", "no-truncate",
    "mscale", "mscale-all-dim", "attention-factor", "low-freq-factor", "high-freq-factor",
    "short-factor", "long-factor", "divisors", NULL};

/* --config with --layer N: that layer of the per-layer plan. */
static int from_plan_layer(const cli_args *a, int64_t seq_len, cli_freq_setup *out) {
    int64_t layer = 0;
    int rc = cli_get_int64(a, "layer", &layer);
    if (rc) return rc;
    pe_plan *plan = NULL;
    int st = pe_plan_from_config_file(cli_get(a, "config"), &plan);
    if (st != PE_OK) return cli_lib_error(a->spec, st);
    pe_plan_layer info;
    if (layer < 0 || layer >= pe_plan_num_layers(plan)) {
        rc = cli_usage_error(a->spec, "--layer %lld: %s has layers 0 to %lld", (long long)layer,
                             cli_get(a, "config"), (long long)pe_plan_num_layers(plan) - 1);
        pe_plan_free(plan);
        return rc;
    }
    st = pe_plan_layer_info(plan, layer, &info);
    if (st == PE_OK) st = pe_plan_layer_freqs(plan, layer, seq_len, &out->freqs, out->interp);
    if (st == PE_OK) {
        out->type = info.scaling;
        out->head_dim = info.head_dim;
        out->layout_known = info.layout_known;
        out->layout = info.layout;
        snprintf(out->model_type, sizeof out->model_type, "%s", pe_plan_model_type(plan));
        st = pe_freqs_default(info.rotary_dim, info.base, &out->unscaled);
        if (st == PE_OK && info.scaling == PE_SCALING_PROPORTIONAL) {
            /* proportional: the exponent runs over the whole head */
            pe_rope_scaling plain = pe_rope_scaling_defaults(PE_SCALING_PROPORTIONAL, info.head_dim);
            plain.rotary_dim = info.rotary_dim;
            plain.base = info.base;
            st = pe_freqs_from_scaling(&plain, &out->unscaled, NULL);
        }
    }
    pe_plan_free(plan);
    return st == PE_OK ? CLI_OK : cli_lib_error(a->spec, st);
}

static int from_config(const cli_args *a, int64_t seq_len, cli_freq_setup *out) {
    for (int i = 0; manual_opts[i]; i++)
        if (cli_has(a, manual_opts[i]))
            return cli_usage_error(a->spec, "--config gives the frequencies; drop --%s",
                                   manual_opts[i]);
    if (cli_has(a, "layer")) return from_plan_layer(a, seq_len, out);
    pe_rope_config *cfg = malloc(sizeof *cfg);
    if (cfg == NULL) return cli_runtime_error(a->spec, "out of memory");
    int st = pe_config_read(cli_get(a, "config"), cfg);
    if (st == PE_OK) st = pe_config_freqs(cfg, seq_len, &out->freqs, out->interp);
    if (st == PE_OK) {
        out->type = cfg->scaling.type;
        out->head_dim = cfg->scaling.head_dim;
        out->layout_known = cfg->layout_known;
        out->layout = cfg->layout;
        snprintf(out->model_type, sizeof out->model_type, "%s", cfg->model_type);
        pe_rope_scaling plain = pe_rope_scaling_defaults(PE_SCALING_DEFAULT, cfg->scaling.head_dim);
        plain.rotary_dim = cfg->scaling.rotary_dim;
        plain.base = cfg->scaling.base;
        if (cfg->scaling.type == PE_SCALING_PROPORTIONAL) plain.rotary_dim = out->freqs.rotary_dim;
        st = pe_freqs_from_scaling(&plain, &out->unscaled, NULL);
    }
    free(cfg);
    return st == PE_OK ? CLI_OK : cli_lib_error(a->spec, st);
}

int cli_freq_setup_resolve(const cli_args *a, int64_t default_head_dim, cli_freq_setup *out) {
    memset(out, 0, sizeof *out);
    int rc;
    int64_t seq_len = 0;
    if ((rc = cli_get_int64(a, "seq-len", &seq_len))) return rc;
    if (seq_len < 0) return cli_usage_error(a->spec, "--seq-len must be >= 0 (got %lld)", (long long)seq_len);
    if (cli_has(a, "config")) return from_config(a, seq_len, out);
    if (cli_has(a, "layer")) return cli_usage_error(a->spec, "--layer N needs --config config.json");

    pe_scaling_type type = PE_SCALING_DEFAULT;
    const char *name = cli_get(a, "scaling");
    if (name && pe_scaling_from_name(name, &type) != PE_OK)
        return cli_usage_error(a->spec,
                               "--scaling: '%s' is not one of default|linear|ntk|dynamic|yarn|"
                               "llama3|longrope|proportional|explicit", name);
    int64_t head_dim = default_head_dim;
    if ((rc = cli_get_int64(a, "head-dim", &head_dim))) return rc;
    if (!cli_has(a, "head-dim") && default_head_dim <= 0)
        return cli_usage_error(a->spec, "--head-dim D is required (or --config)");
    pe_rope_scaling s = pe_rope_scaling_defaults(type, head_dim);
    double prf = NAN;
    double *shorts = NULL, *longs = NULL, *divs = NULL;
    if ((rc = cli_get_int64(a, "rotary-dim", &s.rotary_dim)) ||
        (rc = cli_get_double(a, "partial-rotary-factor", &prf)) ||
        (rc = cli_get_double(a, "base", &s.base)) || (rc = cli_get_double(a, "factor", &s.factor)) ||
        (rc = cli_get_int64(a, "original-max-position", &s.original_max_position)) ||
        (rc = cli_get_int64(a, "max-position", &s.max_position)) ||
        (rc = cli_get_double(a, "beta-fast", &s.beta_fast)) ||
        (rc = cli_get_double(a, "beta-slow", &s.beta_slow)) ||
        (rc = cli_get_double(a, "mscale", &s.mscale)) ||
        (rc = cli_get_double(a, "mscale-all-dim", &s.mscale_all_dim)) ||
        (rc = cli_get_double(a, "attention-factor", &s.attention_factor)) ||
        (rc = cli_get_double(a, "low-freq-factor", &s.low_freq_factor)) ||
        (rc = cli_get_double(a, "high-freq-factor", &s.high_freq_factor)) ||
        (rc = cli_get_double_list(a, "short-factor", &shorts, &s.n_short_factor)) ||
        (rc = cli_get_double_list(a, "long-factor", &longs, &s.n_long_factor)) ||
        (rc = cli_get_double_list(a, "divisors", &divs, &s.n_divisors)))
        goto done;
    if (cli_has(a, "partial-rotary-factor")) {
        if (cli_has(a, "rotary-dim")) {
            rc = cli_usage_error(a->spec, "give --rotary-dim or --partial-rotary-factor, not both");
            goto done;
        }
        if (!(prf > 0 && prf <= 1)) {
            rc = cli_usage_error(a->spec, "--partial-rotary-factor must be in (0, 1] (got %g)", prf);
            goto done;
        }
        s.rotary_dim = (int64_t)((double)head_dim * prf); /* int(), as Hugging Face does */
    }
    s.truncate = !cli_has(a, "no-truncate");
    s.seq_len = seq_len;
    s.short_factor = shorts;
    s.long_factor = longs;
    s.divisors = divs;
    int st = pe_freqs_from_scaling(&s, &out->freqs, out->interp);
    if (st == PE_OK) {
        pe_rope_scaling plain = pe_rope_scaling_defaults(PE_SCALING_DEFAULT, head_dim);
        plain.rotary_dim = type == PE_SCALING_PROPORTIONAL ? head_dim : s.rotary_dim;
        plain.base = s.base;
        st = pe_freqs_from_scaling(&plain, &out->unscaled, NULL);
    }
    if (st != PE_OK) {
        rc = cli_lib_error(a->spec, st);
        goto done;
    }
    out->type = type;
    out->head_dim = head_dim;
done:
    free(shorts);
    free(longs);
    free(divs);
    return rc;
}
