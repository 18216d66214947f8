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

/* The frequency options that are not scheme parameters. */
static const cli_opt fixed_opts[] = {
    {"head-dim", "D", "head dimension"},
    {"rotary-dim", "d", "rotated slice, even, <= D (default D)"},
    {"partial-rotary-factor", "F", "rotary_dim = int(D * F) (instead of --rotary-dim)"},
    {"base", "B", "RoPE base theta (default 10000)"},
    {"config", "config.json", "read everything from a Hugging Face config.json"},
    {"layer", "N", "with --config: the decoder layer whose RoPE to use (needed when layers differ)"},
    {"family", "NAME", "with --config: read it as this registry family on purpose (posenc plan --families)"},
    {"scaling", "TYPE", NULL /* the scheme names, generated */},
    {NULL, NULL, NULL},
};

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

/* "default|linear|...": every scheme the linked library knows. */
static const char *scheme_choices(void) {
    static char buf[512];
    if (buf[0]) return buf;
    for (int t = 0; t < pe_scaling_count(); t++)
        put(buf, sizeof buf, "%s%s", t ? "|" : "", pe_scaling_name((pe_scaling_type)t));
    return buf;
}

void cli_freq_opts(cli_opt *table, const cli_opt *own) {
    int n = 0;
    const int cap = CLI_MAX_OPTS;
    for (int i = 0; own && own[i].name; i++)
        if (n < cap) table[n++] = own[i];
    for (int i = 0; fixed_opts[i].name; i++)
        if (n < cap) {
            table[n] = fixed_opts[i];
            if (strcmp(table[n].name, "scaling") == 0) table[n].help = scheme_choices();
            n++;
        }
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        if (n < cap) table[n++] = (cli_opt){p->flag, p->metavar, p->help};
    }
    if (n == cap) { /* a programming error: raise CLI_MAX_OPTS */
        fprintf(stderr, "posenc: more than %d options; raise CLI_MAX_OPTS\n", cap);
        abort();
    }
    table[n] = (cli_opt){NULL, NULL, NULL};
}

void cli_freq_schemes_text(char *buf, size_t cap) {
    buf[0] = '\0';
    for (int t = 0; t < pe_scaling_count(); t++) {
        put(buf, cap, "  %-13s %s\n", pe_scaling_name((pe_scaling_type)t),
            pe_scaling_help((pe_scaling_type)t));
        size_t col = 0; /* width of the current "reads" line */
        for (int i = 0; i < pe_scaling_num_params(); i++) {
            if (!pe_scaling_reads((pe_scaling_type)t, i)) continue;
            const char *flag = pe_scaling_param_get(i)->flag;
            if (col == 0 || col + strlen(flag) + 4 > 92) {
                put(buf, cap, "%s%16s%s", col ? ",\n" : "", "", col ? "" : "reads ");
                col = col ? 16 : 22;
            } else {
                put(buf, cap, ", ");
                col += 2;
            }
            put(buf, cap, "--%s", flag);
            col += strlen(flag) + 2;
        }
        if (col) put(buf, cap, "\n");
    }
}

/* The library's field name a scheme parameter or fixed option stands for,
 * and its flag: index < 0 is one of the fixed three. */
static const struct {
    const char *field, *flag;
} fixed_fields[] = {
    {"rotary_dim", "rotary-dim"},
    {"head_dim", "head-dim"},
    {"base", "base"},
};
#define N_FIXED_FIELDS ((int)(sizeof fixed_fields / sizeof fixed_fields[0]))

static const char *field_name(int k) {
    return k < N_FIXED_FIELDS ? fixed_fields[k].field : pe_scaling_param_get(k - N_FIXED_FIELDS)->name;
}

static const char *field_flag(int k) {
    return k < N_FIXED_FIELDS ? fixed_fields[k].flag : pe_scaling_param_get(k - N_FIXED_FIELDS)->flag;
}

static int n_fields(void) { return N_FIXED_FIELDS + pe_scaling_num_params(); }

/* An option given to a scheme that ignores it is refused, not dropped. */
static int refuse_ignored(const cli_args *a, pe_scaling_type type) {
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        const char *flag = pe_scaling_param_get(i)->flag;
        if (!cli_has(a, flag) || pe_scaling_reads(type, i)) continue;
        char users[256] = "";
        for (int t = 0; t < pe_scaling_count(); t++)
            if (pe_scaling_reads((pe_scaling_type)t, i))
                put(users, sizeof users, "%s%s", users[0] ? ", " : "", pe_scaling_name((pe_scaling_type)t));
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

/* Where the head dimension came from when --head-dim was not typed. */
static bool head_dim_words(const cli_args *a, const char *dim_source, const char *value, char *buf,
                           size_t cap) {
    if (cli_has(a, "head-dim")) {
        put(buf, cap, "--head-dim %s", cli_get(a, "head-dim"));
        return true;
    }
    put(buf, cap, "%s %s", dim_source ? dim_source : "the head dimension", value);
    return false;
}

/* The words for one library field: the flag and its value as typed, or the
 * file or default it came from. True when they name an option the user typed. */
static bool field_words(const cli_args *a, const char *dim_source, const char *field,
                        const char *flag, const char *value, char *buf, size_t cap) {
    if (cli_has(a, flag)) {
        const char *v = cli_get(a, flag);
        put(buf, cap, "--%s%s%s", flag, v ? " " : "", v ? v : "");
        return true;
    }
    if (strcmp(field, "rotary_dim") == 0 && cli_has(a, "partial-rotary-factor")) {
        put(buf, cap, "--partial-rotary-factor %s (rotary dim %s)", cli_get(a, "partial-rotary-factor"),
            value);
        return true;
    }
    if (strcmp(field, "rotary_dim") == 0 || strcmp(field, "head_dim") == 0)
        return head_dim_words(a, dim_source, value, buf, cap);
    put(buf, cap, "--%s (not given: %s)", flag, value[0] ? value : "unset");
    return false;
}

int cli_freq_error(const cli_args *a, int status, const char *dim_source) {
    const char *detail = pe_last_error();
    char msg[1024] = "";
    /* A parameter the scheme needs and the user did not give: say so. */
    for (int i = 0; i < n_fields(); i++) {
        const char *field = field_name(i), *flag = field_flag(i);
        size_t n = strlen(field);
        if (strncmp(detail, field, n) == 0 && detail[n] == '=' && !cli_has(a, flag) &&
            cli_has(a, "scaling") && strcmp(field, "rotary_dim") != 0 && strcmp(field, "head_dim") != 0) {
            const cli_opt *o = find_opt(a->spec, flag);
            /* a missing option is a usage error; the library's own words
             * (its field name) are not the user's */
            fprintf(stderr, "posenc %s: error: --scaling %s needs --%s %s (%s)\n", a->spec->command,
                    cli_get(a, "scaling"), flag, o && o->metavar ? o->metavar : "",
                    o ? o->help : "");
            return CLI_USAGE;
        }
    }
    /* Otherwise rewrite every field=value (or bare list field) in place.
     * When one of them is an option the user typed, its value is what was
     * wrong: a usage error (exit 2), as for any option the parser refuses;
     * values that came from a file (--config, a tensor's shape) are not. */
    bool typed = false;
    for (const char *p = detail; *p;) {
        int matched = 0;
        if (p == detail || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
            for (int i = 0; i < n_fields() && !matched; i++) {
                const char *field = field_name(i), *flag = field_flag(i);
                size_t n = strlen(field);
                if (strncmp(p, field, n) != 0) continue;
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
                if (field_words(a, dim_source, field, flag, value, msg, sizeof msg)) typed = true;
                p = q;
                matched = 1;
            }
        }
        if (!matched) put(msg, sizeof msg, "%c", *p++);
    }
    fprintf(stderr, "posenc %s: error: %s: %s\n", a->spec->command, pe_strerror(status), msg);
    return typed ? CLI_USAGE : CLI_RUNTIME;
}

/* Options that describe a scheme by hand and so conflict with --config:
 * the dimensions, --base, --scaling and every scheme parameter except
 * --seq-len, which --config reads too. */
static const char *manual_opt(const cli_args *a) {
    static const char *const dims[] = {"head-dim", "rotary-dim", "partial-rotary-factor", "base",
                                       "scaling", NULL};
    for (int i = 0; dims[i]; i++)
        if (cli_has(a, dims[i])) return dims[i];
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        const char *flag = pe_scaling_param_get(i)->flag;
        if (strcmp(flag, "seq-len") != 0 && cli_has(a, flag)) return flag;
    }
    return NULL;
}

/* --config with --layer N: that layer of the per-layer plan. */
static int from_plan_layer(const cli_args *a, int64_t seq_len, cli_freq_setup *out) {
    int64_t layer = 0;
    int rc = cli_get_int64(a, "layer", &layer);
    if (rc) return rc;
    pe_plan *plan = NULL;
    int st = pe_plan_from_config_file_as(cli_get(a, "config"), cli_get(a, "family"), &plan);
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
    const char *manual = manual_opt(a);
    if (manual) return cli_usage_error(a->spec, "--config gives the frequencies; drop --%s", manual);
    if (cli_has(a, "layer")) return from_plan_layer(a, seq_len, out);
    pe_rope_config *cfg = malloc(sizeof *cfg);
    if (cfg == NULL) return cli_runtime_error(a->spec, "out of memory");
    int st = pe_config_read_as(cli_get(a, "config"), cli_get(a, "family"), cfg);
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
    if (cli_has(a, "family")) return cli_usage_error(a->spec, "--family NAME needs --config config.json");

    pe_scaling_type type = PE_SCALING_DEFAULT;
    const char *name = cli_get(a, "scaling");
    if (name && pe_scaling_from_name(name, &type) != PE_OK)
        return cli_usage_error(a->spec, "--scaling: '%s' is not one of %s", name, scheme_choices());
    int64_t head_dim = default_head_dim;
    if ((rc = cli_get_int64(a, "head-dim", &head_dim))) return rc;
    if (!cli_has(a, "head-dim") && default_head_dim <= 0)
        return cli_usage_error(a->spec, "--head-dim D is required (or --config)");
    if ((rc = refuse_ignored(a, type))) return rc;
    pe_rope_scaling s = pe_rope_scaling_defaults(type, head_dim);
    double prf = NAN;
    double *lists[32] = {NULL}; /* LIST parameters' arrays, freed at the end */
    if ((rc = cli_get_int64(a, "rotary-dim", &s.rotary_dim)) ||
        (rc = cli_get_double(a, "partial-rotary-factor", &prf)) ||
        (rc = cli_get_double(a, "base", &s.base)))
        goto done;
    /* Every scheme parameter given (refuse_ignored let through only the
     * ones this scheme reads), in the table's order. */
    for (int i = 0; i < pe_scaling_num_params() && i < 32; i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        if (!cli_has(a, p->flag)) continue;
        double v;
        int64_t iv, n;
        switch (p->kind) {
        case PE_SCALING_PARAM_REAL:
            if ((rc = cli_get_double(a, p->flag, &v))) goto done;
            pe_scaling_set_real(&s, i, v);
            break;
        case PE_SCALING_PARAM_INT:
            if ((rc = cli_get_int64(a, p->flag, &iv))) goto done;
            pe_scaling_set_int(&s, i, iv);
            break;
        case PE_SCALING_PARAM_BOOL: /* the flag turns it off */
            pe_scaling_set_int(&s, i, 0);
            break;
        case PE_SCALING_PARAM_LIST:
            if ((rc = cli_get_double_list(a, p->flag, &lists[i], &n))) goto done;
            pe_scaling_set_list(&s, i, lists[i], n);
            break;
        }
    }
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
    s.seq_len = seq_len;
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
    for (int i = 0; i < 32; i++) free(lists[i]);
    return rc;
}
