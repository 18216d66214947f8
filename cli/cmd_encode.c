/* cmd_encode.c — `posenc encode`: rows of an additive encoding. */
#include "commands.h"
#include "output.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {"dim", "D", "row length (required; binary defaults to the bits --length needs)"},
    {"positions", "LIST", "explicit positions, e.g. 0,1,7,-3"},
    {"range", "A:B", "positions A, A+1, ..., B-1"},
    {"base", "B", "sinusoidal base (default 10000)"},
    {"length", "L", "sequence length for normalized and binary (default: max position + 1)"},
    {"scale", "S", "raw: every element is S*p (default 1)"},
    {"layout", "interleaved|concatenated", "sinusoidal pair layout (default interleaved)"},
    {"convention", "paper|t2t", "sinusoidal exponent 2i/D (paper) or i/(D/2-1) (t2t)"},
    {"format", "table|csv|json|npy", "output format (default table; npy needs -o)"},
    {"dtype", "f32|f64", "element type of npy output (default f32)"},
    {"output", "FILE", "write to FILE instead of stdout (also -o FILE)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_encode_spec = {
    "encode",
    "SCHEME --dim D (--positions LIST | --range A:B) [options]",
    "rows of an additive encoding (raw, normalized, binary, sinusoidal)",
    "Prints the encoding row of each position for SCHEME:\n"
    "  raw         every element = scale * p            (the seeds' toy; unbounded)\n"
    "  normalized  every element = p / (L - 1)          (p must be in [0, L))\n"
    "  binary      bits of p, most significant first; --dim above the bits pads zeros on the left\n"
    "  sinusoidal  sin(p w_i), cos(p w_i), w_i = base^(-2i/D)\n"
    "JSON output: {\"scheme\": ..., \"dim\": D, \"positions\": [...], \"values\": [[...], ...]}.\n"
    "At most 2^27 = 134217728 values (positions x dim) per call; -o FILE appears whole or not at all.",
    opts,
    1,
    1,
    "  posenc encode sinusoidal --dim 4 --positions 7\n"
    "  posenc encode binary --range 0:8 --format csv\n"
    "  posenc encode sinusoidal --dim 128 --range 0:1024 --format npy -o pe.npy\n",
};

/* positions x dim at most: 2^27 values, 1 GiB as f64 (docs/RELIABILITY.md). */
#define ENCODE_MAX_VALUES ((int64_t)1 << 27)

static const char *const scheme_names[] = {"raw", "normalized", "binary", "sinusoidal", NULL};
static const char *const format_names[] = {"table", "csv", "json", "npy", NULL};

int cmd_encode(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    int scheme = -1;
    for (int i = 0; scheme_names[i]; i++)
        if (strcmp(a.positional[0], scheme_names[i]) == 0) scheme = i;
    if (scheme < 0)
        return cli_usage_error(spec, "unknown scheme '%s' (raw|normalized|binary|sinusoidal; "
                                     "learned tables: see the C API)", a.positional[0]);
    pe_additive_params p = pe_additive_defaults((pe_additive_scheme)scheme, 0);
    int64_t *ids = NULL, count = 0, start = 0;
    int format = OUT_TABLE, layout = 0, convention = 0, dtype = 0;
    static const char *const layouts[] = {"interleaved", "concatenated", NULL};
    static const char *const conventions[] = {"paper", "t2t", NULL};
    static const char *const dtypes[] = {"f32", "f64", NULL};
    if ((rc = cli_get_int64(&a, "dim", &p.dim)) || (rc = cli_get_double(&a, "base", &p.base)) ||
        (rc = cli_get_double(&a, "scale", &p.scale)) ||
        (rc = cli_get_int64(&a, "length", &p.length)) ||
        (rc = cli_get_choice(&a, "layout", layouts, &layout)) ||
        (rc = cli_get_choice(&a, "convention", conventions, &convention)) ||
        (rc = cli_get_choice(&a, "format", format_names, &format)) ||
        (rc = cli_get_choice(&a, "dtype", dtypes, &dtype)))
        return rc;
    p.layout = (pe_sin_layout)layout;
    p.convention = (pe_sin_convention)convention;
    if (cli_has(&a, "positions") == cli_has(&a, "range"))
        return cli_usage_error(spec, "give exactly one of --positions LIST or --range A:B");
    if ((rc = cli_get_int_list(&a, "positions", &ids, &count)) ||
        (rc = cli_get_range(&a, "range", &start, &count)))
        return rc;
    if (format == OUT_NPY && !cli_has(&a, "output")) {
        free(ids);
        return cli_usage_error(spec, "--format npy writes binary: give -o FILE.npy");
    }
    /* Bounded work: at most ENCODE_MAX_VALUES values (positions x dim),
     * checked on the count alone before anything is allocated. */
    if (count > ENCODE_MAX_VALUES) {
        free(ids);
        return cli_usage_error(spec, "%lld positions are more than the %lld values encode is limited to",
                               (long long)count, (long long)ENCODE_MAX_VALUES);
    }
    if (!cli_has(&a, "length") && (scheme == PE_ADD_NORMALIZED || scheme == PE_ADD_BINARY)) {
        int64_t mx = ids ? 0 : (start + count - 1 > 0 ? start + count - 1 : 0);
        for (int64_t t = 0; ids && t < count; t++)
            if (ids[t] > mx) mx = ids[t];
        if (mx == INT64_MAX) { /* the length mx + 1 would overflow */
            free(ids);
            return cli_usage_error(spec, "position %lld leaves no length; give --length", (long long)mx);
        }
        p.length = mx + 1;
    }
    if (!cli_has(&a, "dim")) {
        if (scheme != PE_ADD_BINARY) {
            free(ids);
            return cli_usage_error(spec, "--dim D is required for %s", scheme_names[scheme]);
        }
        p.dim = pe_binary_nbits(p.length);
    }
    if (p.dim > 0 && count > ENCODE_MAX_VALUES / p.dim) {
        free(ids);
        return cli_usage_error(spec, "%lld positions x --dim %lld are more than the %lld values encode is "
                               "limited to", (long long)count, (long long)p.dim, (long long)ENCODE_MAX_VALUES);
    }
    /* Positions as an explicit list, so labels and encoding agree. */
    if (ids == NULL) {
        ids = malloc(sizeof(int64_t) * (size_t)count);
        if (ids == NULL) return cli_runtime_error(spec, "out of memory for %lld positions", (long long)count);
        for (int64_t t = 0; t < count; t++) ids[t] = start + t;
    }
    size_t n = 0;
    double *values = NULL;
    if (p.dim > 0 && (uint64_t)count <= SIZE_MAX / sizeof(double) / (uint64_t)p.dim) {
        n = (size_t)count * (size_t)p.dim;
        values = malloc(n * sizeof(double) + 1);
    }
    pe_positions pos = pe_positions_list(ids);
    int st = values ? pe_additive_encode(&p, &pos, count, values, PE_F64)
                    : pe_additive_encode(&p, &pos, count, NULL, PE_F64);
    if (st != PE_OK) {
        free(ids);
        free(values);
        return cli_opts_error(&a, st);
    }
    const char *path = cli_get(&a, "output");
    if (format == OUT_NPY) {
        int64_t shape[2] = {count, p.dim};
        if (dtype == 0) { /* f32: round each value once */
            float *f32 = malloc(n * sizeof(float) + 1);
            if (f32 == NULL) {
                rc = cli_runtime_error(spec, "out of memory for %lld values", (long long)n);
            } else {
                /* the checked narrowing: a value past float32 is an error
                 * in the user's words, never an inf in the file */
                if (pe_narrow_f32(values, (int64_t)n, f32) == PE_OK) {
                    rc = cli_write_npy(spec, path, PE_F32, 2, shape, f32);
                } else {
                    size_t bad = 0;
                    while (bad + 1 < n && fabs(values[bad]) < 0x1.ffffffp127) bad++;
                    rc = cli_runtime_error(spec,
                                           "position %lld gives %.17g, beyond float32 (largest %.9g): "
                                           "use --dtype f64",
                                           (long long)ids[bad / (size_t)p.dim], values[bad], (double)FLT_MAX);
                }
                free(f32);
            }
        } else {
            rc = cli_write_npy(spec, path, PE_F64, 2, shape, values);
        }
        free(ids);
        free(values);
        return rc;
    }
    FILE *f = cli_open_output(spec, path);
    if (f == NULL) {
        free(ids);
        free(values);
        return CLI_RUNTIME;
    }
    if (format == OUT_TABLE) {
        out_rows_table(f, "position", ids, values, count, p.dim);
    } else if (format == OUT_CSV) {
        out_rows_csv(f, "position", ids, values, count, p.dim);
    } else {
        fprintf(f, "{\"scheme\": \"%s\", \"dim\": %lld, \"positions\": ", scheme_names[scheme],
                (long long)p.dim);
        out_json_int_array(f, ids, count);
        fputs(", \"values\": ", f);
        out_rows_json(f, values, count, p.dim);
        fputs("}\n", f);
    }
    free(ids);
    free(values);
    return cli_close_output(spec, f, path);
}
