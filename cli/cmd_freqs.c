/* cmd_freqs.c — `posenc freqs`: the RoPE frequencies a rotation would use. */
#include "commands.h"
#include "output.h"

#include <math.h>
#include <stdlib.h>

static const cli_opt opts[] = {
    {"head-dim", "D", "head dimension (required)"},
    {"rotary-dim", "d", "rotated slice, even, <= D (default D)"},
    {"base", "B", "RoPE base theta (default 10000)"},
    {"format", "table|json", "output format (default table)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_freqs_spec = {
    "freqs",
    "--head-dim D [--rotary-dim d] [--base B] [--format table|json]",
    "RoPE frequencies, wavelengths and magnitude",
    "Prints, per rotated pair i < d/2, the frequency w_i = base^(-2i/d) and its wavelength\n"
    "2 pi / w_i in tokens. JSON: {\"rope_type\": \"default\", \"head_dim\": D, \"rotary_dim\": d,\n"
    "\"inv_freq\": [...], \"attention_factor\": 1.0} with 17 significant digits.",
    opts,
    0,
    0,
    "  posenc freqs --head-dim 128\n"
    "  posenc freqs --head-dim 128 --rotary-dim 64 --base 500000 --format json\n",
};

int cmd_freqs(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    int64_t head_dim = 0, rotary_dim = 0;
    double base = 10000.0;
    int format = 0;
    static const char *const formats[] = {"table", "json", NULL};
    if ((rc = cli_get_int64(&a, "head-dim", &head_dim)) ||
        (rc = cli_get_int64(&a, "rotary-dim", &rotary_dim)) ||
        (rc = cli_get_double(&a, "base", &base)) ||
        (rc = cli_get_choice(&a, "format", formats, &format)))
        return rc;
    if (!cli_has(&a, "head-dim")) return cli_usage_error(spec, "--head-dim D is required");
    if (!cli_has(&a, "rotary-dim")) rotary_dim = head_dim;
    if (rotary_dim > head_dim)
        return cli_runtime_error(spec, "rotary_dim=%lld exceeds head_dim=%lld",
                                 (long long)rotary_dim, (long long)head_dim);
    pe_freqs *f = malloc(sizeof *f);
    if (f == NULL) return cli_runtime_error(spec, "out of memory");
    int st = pe_freqs_default(rotary_dim, base, f);
    if (st != PE_OK) {
        free(f);
        return cli_lib_error(spec, st);
    }
    const int64_t half = f->rotary_dim / 2;
    if (format == 1) {
        printf("{\"rope_type\": \"default\", \"head_dim\": %lld, \"rotary_dim\": %lld, \"inv_freq\": ",
               (long long)head_dim, (long long)rotary_dim);
        out_json_number_array(stdout, f->inv_freq, half);
        printf(", \"attention_factor\": ");
        out_json_number(stdout, f->attention_factor);
        printf("}\n");
    } else {
        printf("rope_type default, head_dim %lld, rotary_dim %lld, base %.17g, attention_factor %.17g\n",
               (long long)head_dim, (long long)rotary_dim, base, f->attention_factor);
        printf("%6s %24s %24s\n", "pair", "inv_freq", "wavelength");
        for (int64_t i = 0; i < half; i++) {
            double w = f->inv_freq[i];
            printf("%6lld %24.17g %24.17g\n", (long long)i, w, w > 0 ? 6.283185307179586476925 / w : INFINITY);
        }
    }
    free(f);
    return cli_close_output(spec, stdout, NULL);
}
