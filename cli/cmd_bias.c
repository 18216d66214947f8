/* cmd_bias.c — `posenc bias alibi|t5`: ALiBi slopes and bias matrices, T5
 * relative-position buckets. */
#include "commands.h"
#include "output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {"heads", "N", "alibi: number of heads (power of two or not)"},
    {"queries", "Q", "alibi: rows of the bias matrices to print (default 0: slopes only)"},
    {"keys", "K", "alibi: columns of the bias matrix (default: Q)"},
    {"range", "A:B", "t5: relative positions r = key - query from A to B-1"},
    {"buckets", "N", "t5: num_buckets (default 32)"},
    {"max-distance", "N", "t5: max_distance (default 128)"},
    {"causal", NULL, "alibi: mask future keys (-inf); t5: the decoder's one-sided buckets"},
    {"format", "table|csv|json", "output format (default table)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_bias_spec = {
    "bias",
    "alibi --heads N [--queries Q --keys K] [--causal] | t5 --range A:B [--causal]\n"
    "                   [--buckets 32] [--max-distance 128]   [--format table|csv|json]",
    "ALiBi slopes and biases, T5 relative-position buckets",
    "alibi: the slope of each head, m_h = 2^(-8(h+1)/c) for h < c = 2^floor(log2 N) and\n"
    "2^(-4(2(h-c)+1)/c) beyond, and each head's bias -m_h |i - j| for query i and key j (the\n"
    "queries are the last Q of the K keys). --causal masks future keys with -inf (null in JSON).\n"
    "t5: the bucket of each relative position r = key - query, exact at the logarithm\n"
    "boundaries (r = +-16, 32, 64 for 32 buckets and max distance 128); bidirectional unless\n"
    "--causal. docs/BIASES.md has the conventions.\n"
    "Limits: --heads, --queries, --keys <= 4096 and heads x queries x keys <= 2^24 = 16777216\n"
    "values; t5 --range <= 10^6 positions.",
    opts,
    1,
    1,
    "  posenc bias alibi --heads 12\n"
    "  posenc bias alibi --heads 8 --queries 4 --keys 6 --causal --format json\n"
    "  posenc bias t5 --range -40:41\n",
};

/* heads x queries x keys at most (docs/RELIABILITY.md, Bounded work). */
#define BIAS_MAX_VALUES ((int64_t)1 << 24)

static int run_alibi(const cli_spec *spec, const cli_args *a, int format) {
    int64_t heads = 0, nq = 0, nk = -1;
    int rc;
    if ((rc = cli_get_int64(a, "heads", &heads)) || (rc = cli_get_int64(a, "queries", &nq)) ||
        (rc = cli_get_int64(a, "keys", &nk)))
        return rc;
    if (!cli_has(a, "heads")) return cli_usage_error(spec, "alibi needs --heads N");
    if (cli_has(a, "range") || cli_has(a, "buckets") || cli_has(a, "max-distance"))
        return cli_usage_error(spec, "--range, --buckets and --max-distance belong to t5");
    if (nk < 0) nk = nq;
    if (heads > 4096 || nq > 4096 || nk > 4096)
        return cli_usage_error(spec, "--heads, --queries and --keys are limited to 4096 for printing");
    /* Bounded work: the matrices are printed, heads x queries x keys
     * values of them; 4096^3 would be 512 GiB. */
    const int64_t cells = (heads > 0 ? heads : 1) * (nq > 0 ? nq : 1) * (nk > 0 ? nk : 1);
    if (cells > BIAS_MAX_VALUES)
        return cli_usage_error(spec, "--heads %lld x --queries %lld x --keys %lld = %lld bias values, more than "
                               "the %lld a printout is limited to", (long long)heads, (long long)nq, (long long)nk,
                               (long long)cells, (long long)BIAS_MAX_VALUES);
    int causal = cli_has(a, "causal");
    double *slopes = malloc(sizeof(double) * (size_t)(heads > 0 ? heads : 1));
    double *bias = malloc(sizeof(double) * (size_t)((heads > 0 ? heads : 1) * (nq > 0 ? nq : 1) *
                                                    (nk > 0 ? nk : 1)));
    int st = slopes && bias ? pe_alibi_slopes(heads, slopes) : PE_ERR_NOMEM;
    if (st == PE_OK)
        st = pe_alibi_bias(heads, nq, nk, causal ? PE_ALIBI_CAUSAL : PE_ALIBI_SYMMETRIC, bias, PE_F64);
    if (st != PE_OK) {
        free(slopes);
        free(bias);
        return cli_opts_error(a, st);
    }
    if (format == OUT_JSON) {
        printf("{\"type\": \"alibi\", \"heads\": %lld, \"causal\": %s, \"slopes\": ", (long long)heads,
               causal ? "true" : "false");
        out_json_number_array(stdout, slopes, heads);
        printf(", \"queries\": %lld, \"keys\": %lld, \"bias\": [", (long long)nq, (long long)nk);
        for (int64_t h = 0; h < heads; h++) {
            if (h) printf(", ");
            out_rows_json(stdout, bias + h * nq * nk, nq, nk);
        }
        printf("]}\n");
    } else if (format == OUT_CSV) {
        printf("head,query,key,slope,bias\n");
        for (int64_t h = 0; h < heads; h++)
            for (int64_t i = 0; i < nq; i++)
                for (int64_t j = 0; j < nk; j++)
                    printf("%lld,%lld,%lld,%.17g,%.17g\n", (long long)h, (long long)i, (long long)j,
                           slopes[h], bias[(h * nq + i) * nk + j]);
    } else {
        printf("ALiBi, %lld heads%s: slopes\n", (long long)heads, causal ? ", causal" : "");
        for (int64_t h = 0; h < heads; h++) printf("  head %3lld  %.8f\n", (long long)h, slopes[h]);
        for (int64_t h = 0; h < heads && nq * nk > 0; h++) {
            printf("head %lld bias (%lld queries x %lld keys):\n", (long long)h, (long long)nq,
                   (long long)nk);
            for (int64_t i = 0; i < nq; i++) {
                for (int64_t j = 0; j < nk; j++) {
                    double v = bias[(h * nq + i) * nk + j];
                    if (isinf(v))
                        printf(" %10s", "-inf");
                    else
                        printf(" %10.5f", v);
                }
                printf("\n");
            }
        }
    }
    free(slopes);
    free(bias);
    return cli_close_output(spec, stdout, NULL);
}

static int run_t5(const cli_spec *spec, const cli_args *a, int format) {
    int64_t start = 0, count = 0, nb = 32, maxd = 128;
    int rc;
    if ((rc = cli_get_range(a, "range", &start, &count)) || (rc = cli_get_int64(a, "buckets", &nb)) ||
        (rc = cli_get_int64(a, "max-distance", &maxd)))
        return rc;
    if (!cli_has(a, "range")) return cli_usage_error(spec, "t5 needs --range A:B");
    if (cli_has(a, "heads") || cli_has(a, "queries") || cli_has(a, "keys"))
        return cli_usage_error(spec, "--heads, --queries and --keys belong to alibi");
    if (count > 1000000) return cli_usage_error(spec, "--range is limited to 10^6 positions");
    int bidirectional = !cli_has(a, "causal");
    int64_t *b = malloc(sizeof(int64_t) * (size_t)count);
    if (b == NULL) return cli_runtime_error(spec, "out of memory");
    int st = pe_t5_buckets(start, count, bidirectional, nb, maxd, b);
    if (st != PE_OK) {
        free(b);
        return cli_opts_error(a, st);
    }
    if (format == OUT_JSON) {
        printf("{\"type\": \"t5\", \"bidirectional\": %s, \"num_buckets\": %lld, \"max_distance\": %lld, "
               "\"relative_positions\": [",
               bidirectional ? "true" : "false", (long long)nb, (long long)maxd);
        for (int64_t k = 0; k < count; k++) printf("%s%lld", k ? ", " : "", (long long)(start + k));
        printf("], \"buckets\": ");
        out_json_int_array(stdout, b, count);
        printf("}\n");
    } else {
        if (format == OUT_CSV)
            printf("relative_position,bucket\n");
        else
            printf("T5 buckets (%s, %lld buckets, max distance %lld); r = key - query\n%10s %8s\n",
                   bidirectional ? "bidirectional" : "causal", (long long)nb, (long long)maxd, "r",
                   "bucket");
        for (int64_t k = 0; k < count; k++)
            printf(format == OUT_CSV ? "%lld,%lld\n" : "%10lld %8lld\n", (long long)(start + k),
                   (long long)b[k]);
    }
    free(b);
    return cli_close_output(spec, stdout, NULL);
}

int cmd_bias(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static const char *const formats[] = {"table", "csv", "json", NULL};
    int format = OUT_TABLE;
    if ((rc = cli_get_choice(&a, "format", formats, &format))) return rc;
    if (strcmp(a.positional[0], "alibi") == 0) return run_alibi(spec, &a, format);
    if (strcmp(a.positional[0], "t5") == 0) return run_t5(spec, &a, format);
    return cli_usage_error(spec, "unknown bias '%s' (alibi|t5)", a.positional[0]);
}
