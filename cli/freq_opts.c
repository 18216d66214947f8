/* freq_opts.c — turn the shared frequency options into a pe_freqs, and say
 * what went wrong in the words the user typed: the library names its fields
 * (rotary_dim, original_max_position), the user typed flags (--head-dim,
 * --original-max-position) or gave a file. */
#include "freq_opts.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The library's field names and the flag that sets each. */
static const struct {
    const char *field, *flag;
} field_flags[] = {
    {"rotary_dim", "rotary-dim"},
    {"head_dim", "head-dim"},
    {"base", "base"},
    {"factor", "factor"},
    {"original_max_position", "original-max-position"},
    {"max_position", "max-position"},
    {"seq_len", "seq-len"},
    {"beta_fast", "beta-fast"},
    {"beta_slow", "beta-slow"},
    {"mscale_all_dim", "mscale-all-dim"},
    {"mscale", "mscale"},
    {"attention_factor", "attention-factor"},
    {"low_freq_factor", "low-freq-factor"},
    {"high_freq_factor", "high-freq-factor"},
    {"short_factor", "short-factor"},
    {"long_factor", "long-factor"},
    {"divisors", "divisors"},
    {NULL, NULL},
};

/* Which schemes read each scheme parameter (bit 1 << pe_scaling_type); an
 * option given to a scheme that ignores it is refused, not dropped. */
#define SCHEMES(x) (1u << PE_SCALING_##x)
static const struct {
    const char *flag;
    unsigned schemes;
} scheme_params[] = {
    {"factor", SCHEMES(LINEAR) | SCHEMES(NTK) | SCHEMES(DYNAMIC) | SCHEMES(YARN) | SCHEMES(LLAMA3) |
                   SCHEMES(LONGROPE) | SCHEMES(PROPORTIONAL)},
    {"original-max-position", SCHEMES(YARN) | SCHEMES(LLAMA3) | SCHEMES(LONGROPE)},
    {"max-position", SCHEMES(DYNAMIC) | SCHEMES(YARN) | SCHEMES(LONGROPE)},
    {"seq-len", SCHEMES(DYNAMIC) | SCHEMES(LONGROPE)},
    {"beta-fast", SCHEMES(YARN)},
    {"beta-slow", SCHEMES(YARN)},
    {"no-truncate", SCHEMES(YARN)},
    {"mscale", SCHEMES(YARN)},
    {"mscale-all-dim", SCHEMES(YARN)},
    {"attention-factor", SCHEMES(YARN) | SCHEMES(LONGROPE)},
    {"low-freq-factor", SCHEMES(LLAMA3)},
    {"high-freq-factor", SCHEMES(LLAMA3)},
    {"short-factor", SCHEMES(LONGROPE)},
    {"long-factor", SCHEMES(LONGROPE)},
    {"divisors", SCHEMES(EXPLICIT)},
    {NULL, 0},
};

static int refuse_ignored(const cli_args *a, pe_scaling_type type) {
    for (int i = 0; scheme_params[i].flag; i++) {
        const char *flag = scheme_params[i].flag;
        if (!cli_has(a, flag) || (scheme_params[i].schemes & (1u << type))) continue;
        char users[160] = "";
        for (int t = 0; t <= PE_SCALING_EXPLICIT; t++)
            if (scheme_params[i].schemes & (1u << t)) {
                strncat(users, users[0] ? ", " : "", sizeof users - strlen(users) - 1);
                strncat(users, pe_scaling_name((pe_scaling_type)t), sizeof users - strlen(users) - 1);
            }
        const char *v = cli_get(a, flag);
        if (!cli_has(a, "scaling"))
            return cli_usage_error(a->spec, "--%s%s%s has no effect without --scaling (it is read by %s)",
                                   flag, v ? " " : "", v ? v : "", users);
        return cli_usage_error(a->spec, "--%s%s%s has no effect with --scaling %s (it is read by %s)",
                               flag, v ? " " : "", v ? v : "", cli_get(a, "scaling"), users);
    }
    /* YaRN and LongRoPE read L only to derive a missing factor f = L / L0. */
    if ((type == PE_SCALING_YARN || type == PE_SCALING_LONGROPE) && cli_has(a, "max-position") &&
        cli_has(a, "factor"))
        return cli_usage_error(a->spec, "--max-position %s has no effect with --factor %s (--scaling %s "
                               "derives f = L / L0 only when --factor is absent): drop one",
                               cli_get(a, "max-position"), cli_get(a, "factor"), cli_get(a, "scaling"));
    return CLI_OK;
}

static const cli_opt *find_opt(const cli_spec *spec, const char *name) {
    for (int i = 0; spec->opts && spec->opts[i].name; i++)
        if (strcmp(spec->opts[i].name, name) == 0) return &spec->opts[i];
    return NULL;
}

/* Append to a bounded string. */
static void put(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void put(char *buf, size_t cap, const char *fmt, ...) {
    size_t len = strlen(buf);
    if (len + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

/* Where the head dimension came from when --head-dim was not typed. */
static void head_dim_words(const cli_args *a, const char *dim_source, const char *value, char *buf,
                           size_t cap) {
    if (cli_has(a, "head-dim"))
        put(buf, cap, "--head-dim %s", cli_get(a, "head-dim"));
    else
        put(buf, cap, "%s %s", dim_source ? dim_source : "the head dimension", value);
}

/* The words for one library field: the flag and its value as typed, or the
 * file or default it came from. */
static void field_words(const cli_args *a, const char *dim_source, const char *field,
                        const char *flag, const char *value, char *buf, size_t cap) {
    if (cli_has(a, flag)) {
        const char *v = cli_get(a, flag);
        put(buf, cap, "--%s%s%s", flag, v ? " " : "", v ? v : "");
    } else if (strcmp(field, "rotary_dim") == 0 && cli_has(a, "partial-rotary-factor")) {
        put(buf, cap, "--partial-rotary-factor %s (rotary dim %s)", cli_get(a, "partial-rotary-factor"),
            value);
    } else if (strcmp(field, "rotary_dim") == 0 || strcmp(field, "head_dim") == 0) {
        head_dim_words(a, dim_source, value, buf, cap);
    } else {
        put(buf, cap, "--%s (not given: %s)", flag, value[0] ? value : "unset");
    }
}

int cli_freq_error(const cli_args *a, int status, const char *dim_source) {
    const char *detail = pe_last_error();
    char msg[1024] = "";
    /* A parameter the scheme needs and the user did not give: say so. */
    for (int i = 0; field_flags[i].field; i++) {
        size_t n = strlen(field_flags[i].field);
        if (strncmp(detail, field_flags[i].field, n) == 0 && detail[n] == '=' &&
            !cli_has(a, field_flags[i].flag) && cli_has(a, "scaling") &&
            strcmp(field_flags[i].field, "rotary_dim") != 0 &&
            strcmp(field_flags[i].field, "head_dim") != 0) {
            const cli_opt *o = find_opt(a->spec, field_flags[i].flag);
            fprintf(stderr, "posenc %s: error: --scaling %s needs --%s %s (%s) [%s]\n", a->spec->command,
                    cli_get(a, "scaling"), field_flags[i].flag, o && o->metavar ? o->metavar : "",
                    o ? o->help : "", detail);
            return CLI_RUNTIME;
        }
    }
    /* Otherwise rewrite every field=value (or bare list field) in place. */
    for (const char *p = detail; *p;) {
        int matched = 0;
        if (p == detail || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
            for (int i = 0; field_flags[i].field && !matched; i++) {
                size_t n = strlen(field_flags[i].field);
                if (strncmp(p, field_flags[i].field, n) != 0) continue;
                char next = p[n];
                if (isalnum((unsigned char)next) || next == '_' || next == '/') continue;
                char value[64] = "";
                const char *q = p + n;
                if (next == '=') {
                    size_t k = 0;
                    for (q++; *q && *q != ' ' && *q != ',' && *q != ')' && *q != ':' &&
                              k + 1 < sizeof value;
                         q++)
                        value[k++] = *q;
                    value[k] = '\0';
                }
                field_words(a, dim_source, field_flags[i].field, field_flags[i].flag, value, msg,
                            sizeof msg);
                p = q;
                matched = 1;
            }
        }
        if (!matched) put(msg, sizeof msg, "%c", *p++);
    }
    fprintf(stderr, "posenc %s: error: %s: %s\n", a->spec->command, pe_strerror(status), msg);
    return CLI_RUNTIME;
}

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
    if (st == PE_OK) return CLI_OK;
    /* The config's own keys are the user's words here; add the file's name
     * when the library's message does not already carry it. */
    const char *path = cli_get(a, "config");
    if (strstr(pe_last_error(), path) != NULL) return cli_lib_error(a->spec, st);
    fprintf(stderr, "posenc %s: error: --config %s: %s: %s\n", a->spec->command, path, pe_strerror(st),
            pe_last_error());
    return CLI_RUNTIME;
}

int cli_freq_setup_resolve(const cli_args *a, int64_t default_head_dim, cli_freq_setup *out) {
    return cli_freq_setup_resolve_from(a, default_head_dim, default_head_dim > 0 ? "the default head dimension" : NULL,
                                       out);
}

int cli_freq_setup_resolve_from(const cli_args *a, int64_t default_head_dim, const char *dim_source,
                                cli_freq_setup *out) {
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
    if ((rc = refuse_ignored(a, type))) return rc;
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
        rc = cli_freq_error(a, st, dim_source);
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
