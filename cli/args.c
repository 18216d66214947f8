/* args.c — option parsing, typed getters and error messages for the CLI. */
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int find_opt(const cli_spec *spec, const char *name, size_t len) {
    for (int i = 0; spec->opts && spec->opts[i].name; i++)
        if (strlen(spec->opts[i].name) == len && strncmp(spec->opts[i].name, name, len) == 0)
            return i;
    return -1;
}

void cli_print_help(const cli_spec *spec, FILE *f) {
    fprintf(f, "Usage: posenc %s %s\n\n%s\n", spec->command, spec->usage, spec->description);
    if (spec->opts && spec->opts[0].name) {
        fprintf(f, "\nOptions:\n");
        for (int i = 0; spec->opts[i].name; i++) {
            char left[64];
            snprintf(left, sizeof left, "--%s%s%s", spec->opts[i].name,
                     spec->opts[i].metavar ? " " : "",
                     spec->opts[i].metavar ? spec->opts[i].metavar : "");
            fprintf(f, "  %-26s %s\n", left, spec->opts[i].help);
        }
    }
    fprintf(f, "  %-26s %s\n", "-h, --help", "show this help and exit");
    if (spec->examples) fprintf(f, "\nExamples:\n%s", spec->examples);
}

int cli_usage_error(const cli_spec *spec, const char *fmt, ...) {
    fprintf(stderr, "posenc %s: ", spec->command);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'posenc %s --help'.\n", spec->command);
    return CLI_USAGE;
}

int cli_lib_error(const cli_spec *spec, int status) {
    const char *detail = pe_last_error();
    fprintf(stderr, "posenc %s: error: %s%s%s\n", spec->command, pe_strerror(status),
            detail[0] ? ": " : "", detail);
    return CLI_RUNTIME;
}

/* Library field names that are spelled differently as options. */
static const struct {
    const char *field, *opt;
} field_aliases[] = {
    {"num_buckets", "buckets"},
    {"rotary_dim", "dim"}, /* commands whose one --dim is also the rotary dimension */
    {"head_dim", "dim"},
    {NULL, NULL},
};

/* The option a library field name stands for, if the user typed it. */
static int typed_option(const cli_args *a, const char *field, size_t len) {
    char name[64];
    if (len == 0 || len >= sizeof name) return -1;
    for (size_t i = 0; i < len; i++) name[i] = field[i] == '_' ? '-' : field[i];
    int k = find_opt(a->spec, name, len);
    if (k >= 0 && a->present[k]) return k;
    for (int i = 0; field_aliases[i].field; i++)
        if (strlen(field_aliases[i].field) == len && strncmp(field_aliases[i].field, field, len) == 0) {
            k = find_opt(a->spec, field_aliases[i].opt, strlen(field_aliases[i].opt));
            if (k >= 0 && a->present[k]) return k;
        }
    return -1;
}

int cli_opts_error(const cli_args *a, int status) {
    const char *detail = pe_last_error();
    char msg[1024];
    size_t n = 0;
    /* The library refused the value of an option the user typed: a usage
     * error (exit 2), as when the parser refuses one; otherwise (a file's
     * contents, memory) a runtime error. */
    bool typed = false;
    for (const char *p = detail; *p && n + 1 < sizeof msg;) {
        /* field=value at a word start, for an option the user typed. */
        if (p == detail || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
            size_t len = 0;
            while (isalnum((unsigned char)p[len]) || p[len] == '_') len++;
            int k = len && p[len] == '=' ? typed_option(a, p, len) : -1;
            if (k >= 0) {
                typed = true;
                const char *v = a->values[k];
                int w = snprintf(msg + n, sizeof msg - n, "--%s%s%s", a->spec->opts[k].name, v ? " " : "",
                                 v ? v : "");
                n = w < 0 ? n : n + (size_t)w < sizeof msg ? n + (size_t)w : sizeof msg - 1;
                p += len + 1;
                while (*p && *p != ' ' && *p != ',' && *p != ')' && *p != ':') p++; /* the library's value */
                continue;
            }
        }
        msg[n++] = *p++;
    }
    msg[n] = '\0';
    fprintf(stderr, "posenc %s: error: %s%s%s\n", a->spec->command, pe_strerror(status), msg[0] ? ": " : "",
            msg);
    return typed ? CLI_USAGE : CLI_RUNTIME;
}

int cli_runtime_error(const cli_spec *spec, const char *fmt, ...) {
    fprintf(stderr, "posenc %s: error: ", spec->command);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_RUNTIME;
}

int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *out) {
    memset(out, 0, sizeof *out);
    out->spec = spec;
    bool only_positional = false;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_positional && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)) {
            cli_print_help(spec, stdout);
            return CLI_HELP_SHOWN;
        }
        if (!only_positional && strcmp(arg, "--") == 0) {
            only_positional = true;
            continue;
        }
        if (!only_positional && arg[0] == '-' && arg[1] == '-') {
            const char *name = arg + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            int k = find_opt(spec, name, len);
            if (k < 0)
                return cli_usage_error(spec, "unknown option '--%.*s'", (int)len, name);
            if (out->present[k])
                return cli_usage_error(spec, "option '--%s' given twice", spec->opts[k].name);
            out->present[k] = true;
            if (spec->opts[k].metavar) {
                if (eq) {
                    out->values[k] = eq + 1;
                } else if (i + 1 < argc) {
                    out->values[k] = argv[++i];
                } else {
                    return cli_usage_error(spec, "option '--%s' needs a value (%s)",
                                           spec->opts[k].name, spec->opts[k].metavar);
                }
            } else if (eq) {
                return cli_usage_error(spec, "option '--%s' takes no value", spec->opts[k].name);
            }
            /* No option takes an empty value: '' is a quoting slip, and as a
             * path it used to surface as "cannot create : Is a directory". */
            if (out->values[k] != NULL && out->values[k][0] == '\0')
                return cli_usage_error(spec, "option '--%s' needs a value (%s), not an empty string",
                                       spec->opts[k].name, spec->opts[k].metavar);
            continue;
        }
        if (!only_positional && arg[0] == '-' && arg[1] != '\0' &&
            !(arg[1] >= '0' && arg[1] <= '9')) {
            if (strcmp(arg, "-o") == 0 && find_opt(spec, "output", 6) >= 0) {
                int k = find_opt(spec, "output", 6);
                if (out->present[k]) return cli_usage_error(spec, "option '-o' given twice");
                if (i + 1 >= argc) return cli_usage_error(spec, "option '-o' needs a value (FILE)");
                out->present[k] = true;
                out->values[k] = argv[++i];
                if (out->values[k][0] == '\0')
                    return cli_usage_error(spec, "option '-o' needs a value (FILE), not an empty string");
                continue;
            }
            return cli_usage_error(spec, "unknown option '%s'", arg);
        }
        if (out->n_positional >= spec->max_positional)
            return cli_usage_error(spec, "unexpected argument '%s'", arg);
        out->positional[out->n_positional++] = arg;
    }
    if (out->n_positional < spec->min_positional)
        return cli_usage_error(spec, "missing argument (usage: posenc %s %s)", spec->command,
                               spec->usage);
    return CLI_OK;
}

bool cli_has(const cli_args *a, const char *name) {
    int k = find_opt(a->spec, name, strlen(name));
    return k >= 0 && a->present[k];
}

const char *cli_get(const cli_args *a, const char *name) {
    int k = find_opt(a->spec, name, strlen(name));
    return k >= 0 && a->present[k] ? a->values[k] : NULL;
}

static bool parse_int64(const char *s, int64_t *out) {
    if (s == NULL || *s == '\0') return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *out = (int64_t)v;
    return true;
}

/* The interval an option's help ends with ("... [1, 8192]", "... (0, 8]"):
 * 1 and *lo, *hi, *lo_open when there is one, 0 when there is none, -1
 * when the help ends in ']' but the interval is malformed (a spec bug,
 * reported rather than ignored). */
static int help_interval(const char *help, double *lo, double *hi, bool *lo_open) {
    const size_t n = help ? strlen(help) : 0;
    if (n == 0 || help[n - 1] != ']') return 0;
    const char *open = NULL;
    for (const char *p = help + n - 1; p > help; p--)
        if (p[-1] == '[' || p[-1] == '(') {
            open = p - 1;
            break;
        }
    if (open == NULL) return -1;
    char *end;
    *lo_open = *open == '(';
    *lo = strtod(open + 1, &end);
    if (end == open + 1 || *end != ',') return -1;
    const char *h = end + 1;
    *hi = strtod(h, &end);
    if (end == h || *end != ']' || end != help + n - 1 || !(*lo <= *hi)) return -1;
    return 1;
}

/* The option's interval check: CLI_OK, or the usage error naming it. */
static int check_interval(const cli_args *a, const char *name, const char *typed, double v) {
    const int k = find_opt(a->spec, name, strlen(name));
    double lo, hi;
    bool lo_open;
    const int has = k < 0 ? 0 : help_interval(a->spec->opts[k].help, &lo, &hi, &lo_open);
    if (has < 0) return cli_usage_error(a->spec, "--%s: its help states no readable range (a bug)", name);
    if (has == 0 || ((lo_open ? v > lo : v >= lo) && v <= hi)) return CLI_OK;
    return cli_usage_error(a->spec, "--%s: %s is outside its range %s%.17g, %.17g]", name, typed,
                           lo_open ? "(" : "[", lo, hi);
}

int cli_get_int64(const cli_args *a, const char *name, int64_t *out) {
    const char *s = cli_get(a, name);
    if (s == NULL) return CLI_OK;
    int64_t v;
    if (!parse_int64(s, &v)) return cli_usage_error(a->spec, "--%s: '%s' is not an integer", name, s);
    const int rc = check_interval(a, name, s, (double)v);
    if (rc == CLI_OK) *out = v;
    return rc;
}

int cli_get_double(const cli_args *a, const char *name, double *out) {
    const char *s = cli_get(a, name);
    if (s == NULL) return CLI_OK;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0')
        return cli_usage_error(a->spec, "--%s: '%s' is not a number", name, s);
    if (isnan(v)) return cli_usage_error(a->spec, "--%s: '%s' is not a number (NaN)", name, s);
    /* strtod says ERANGE both for overflow and for a result below the
     * smallest normal double: say which, not "not a number". */
    if (errno == ERANGE && fabs(v) > 1.0)
        return cli_usage_error(a->spec, "--%s: '%s' is out of range (overflows a double)", name, s);
    if (isinf(v)) return cli_usage_error(a->spec, "--%s: '%s' is not finite", name, s);
    if (errno == ERANGE || (v != 0 && fabs(v) < DBL_MIN))
        return cli_usage_error(a->spec,
                               "--%s: '%s' is out of range (below the smallest normal double, %.17g: "
                               "subnormal or zero after rounding)",
                               name, s, DBL_MIN);
    const int rc = check_interval(a, name, s, v);
    if (rc == CLI_OK) *out = v;
    return rc;
}

int cli_get_choice(const cli_args *a, const char *name, const char *const *choices, int *out) {
    const char *s = cli_get(a, name);
    if (s == NULL) return CLI_OK;
    for (int i = 0; choices[i]; i++)
        if (strcmp(s, choices[i]) == 0) {
            *out = i;
            return CLI_OK;
        }
    char list[256] = "";
    for (int i = 0; choices[i]; i++) {
        strncat(list, i ? "|" : "", sizeof list - strlen(list) - 1);
        strncat(list, choices[i], sizeof list - strlen(list) - 1);
    }
    return cli_usage_error(a->spec, "--%s: '%s' is not one of %s", name, s, list);
}

int cli_get_int_list(const cli_args *a, const char *name, int64_t **out, int64_t *n) {
    const char *s = cli_get(a, name);
    if (s == NULL) return CLI_OK;
    int64_t cap = 1;
    for (const char *c = s; *c; c++) cap += *c == ',';
    int64_t *v = malloc(sizeof(int64_t) * (size_t)cap);
    if (v == NULL) return cli_runtime_error(a->spec, "out of memory");
    int64_t k = 0;
    const char *p = s;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[32];
        if (len == 0 || len >= sizeof item) {
            free(v);
            return cli_usage_error(a->spec, "--%s: '%s' is not a comma-separated list of integers",
                                   name, s);
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (!parse_int64(item, &v[k])) {
            free(v);
            return cli_usage_error(a->spec, "--%s: '%s' in '%s' is not an integer", name, item, s);
        }
        k++;
        if (!comma) break;
        p = comma + 1;
    }
    *out = v;
    *n = k;
    return CLI_OK;
}

int cli_get_double_list(const cli_args *a, const char *name, double **out, int64_t *n) {
    const char *s = cli_get(a, name);
    if (s == NULL) return CLI_OK;
    int64_t cap = 1;
    for (const char *c = s; *c; c++) cap += *c == ',';
    double *v = malloc(sizeof(double) * (size_t)cap);
    if (v == NULL) return cli_runtime_error(a->spec, "out of memory");
    int64_t k = 0;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        double x = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0') || errno == ERANGE || isnan(x) || isinf(x)) {
            free(v);
            return cli_usage_error(a->spec, "--%s: '%s' is not a comma-separated list of numbers",
                                   name, s);
        }
        v[k++] = x;
        if (*end == '\0') break;
        p = end + 1;
    }
    *out = v;
    *n = k;
    return CLI_OK;
}

int cli_get_range(const cli_args *a, const char *name, int64_t *start, int64_t *count) {
    const char *s = cli_get(a, name);
    if (s == NULL) return CLI_OK;
    const char *colon = strchr(s, ':');
    char lo[32], hi[32];
    int64_t A, B;
    if (colon == NULL || (size_t)(colon - s) >= sizeof lo || strlen(colon + 1) >= sizeof hi)
        return cli_usage_error(a->spec, "--%s: '%s' is not a range A:B", name, s);
    memcpy(lo, s, (size_t)(colon - s));
    lo[colon - s] = '\0';
    strcpy(hi, colon + 1);
    if (!parse_int64(lo, &A) || !parse_int64(hi, &B))
        return cli_usage_error(a->spec, "--%s: '%s' is not a range A:B of integers", name, s);
    if (B <= A)
        return cli_usage_error(a->spec, "--%s: '%s' is empty (B must exceed A; B is exclusive)",
                               name, s);
    if (A < 0 && B > INT64_MAX + A)
        return cli_usage_error(a->spec, "--%s: '%s' is too long", name, s);
    *start = A;
    *count = B - A;
    return CLI_OK;
}
