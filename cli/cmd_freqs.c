/* cmd_freqs.c — `posenc freqs`: the RoPE frequencies a rotation would use,
 * for any scaling scheme or a model's config.json. */
#include "commands.h"
#include "freq_opts.h"
#include "output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt own_opts[] = {
    {"format", "table|json", "output format (default table)"},
    {NULL, NULL, NULL},
};
/* own_opts and the frequency options, generated from the library's scheme
 * table before parsing (cli_freq_opts). */
static cli_opt opts[CLI_MAX_OPTS + 1];
/* The description, its last paragraph (the schemes) generated likewise. */
static char description[4096];
static const char intro[] =
    "Prints, per rotated pair i, the default frequency w_i = base^(-2i/d), the scaled w'_i the\n"
    "rotation uses, the wavelength 2 pi / w'_i in tokens and the interpolation weight of the\n"
    "unscaled frequency (YaRN's ramp, Llama 3's t; '-' where the scheme has none), plus the\n"
    "magnitude A and the softmax-scale multiplier. With --config the file is read the way the\n"
    "checkpoint's own code reads it (rope_theta, rope_scaling/rope_parameters, partial rotary,\n"
    "head_dim, model-specific keys) and the pair layout is reported when the model type tells it.\n"
    "JSON: {\"rope_type\", \"head_dim\", \"rotary_dim\", \"inv_freq\": [...], \"attention_factor\",\n"
    "\"softmax_scale_multiplier\", \"layout\" (with --config when known)}, 17 significant digits.\n"
    "Schemes (--scaling; docs/SCALING.md has the formulas):\n";

const cli_spec cmd_freqs_spec = {
    "freqs",
    "(--head-dim D [--rotary-dim d] [--base B] [--scaling TYPE ...] | --config config.json)\n"
    "                    [--seq-len S] [--format table|json]",
    "RoPE frequencies of any scaling scheme or model config",
    description,
    opts,
    0,
    0,
    "  posenc freqs --head-dim 128\n"
    "  posenc freqs --head-dim 128 --base 500000 --scaling llama3 --factor 8 \\\n"
    "        --original-max-position 8192 --format json\n"
    "  posenc freqs --head-dim 128 --scaling yarn --factor 4 --original-max-position 32768\n"
    "  posenc freqs --config tests/fixtures/configs/llama-3.1-8b.json\n",
};

int cmd_freqs(const cli_spec *spec, int argc, char **argv) {
    cli_freq_opts(opts, own_opts);
    if (!description[0]) {
        snprintf(description, sizeof description, "%s", intro);
        size_t len = strlen(description);
        cli_freq_schemes_text(description + len, sizeof description - len);
        len = strlen(description);
        if (len && description[len - 1] == '\n') description[len - 1] = '\0';
    }
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    int format = 0;
    static const char *const formats[] = {"table", "json", NULL};
    if ((rc = cli_get_choice(&a, "format", formats, &format))) return rc;
    cli_freq_setup *fs = malloc(sizeof *fs);
    if (fs == NULL) return cli_runtime_error(spec, "out of memory");
    if ((rc = cli_freq_setup_resolve(&a, 0, fs))) {
        free(fs);
        return rc;
    }
    const pe_freqs *f = &fs->freqs;
    const int64_t half = f->rotary_dim / 2;
    const char *layout = fs->layout_known ? (fs->layout == PE_ROPE_HALF ? "half" : "interleaved") : NULL;
    if (format == 1) {
        printf("{\"rope_type\": \"%s\", \"head_dim\": %lld, \"rotary_dim\": %lld, \"inv_freq\": ",
               pe_scaling_name(fs->type), (long long)fs->head_dim, (long long)f->rotary_dim);
        out_json_number_array(stdout, f->inv_freq, half);
        printf(", \"attention_factor\": ");
        out_json_number(stdout, f->attention_factor);
        printf(", \"softmax_scale_multiplier\": ");
        out_json_number(stdout, f->softmax_scale_multiplier);
        if (layout) printf(", \"layout\": \"%s\"", layout);
        printf("}\n");
    } else {
        printf("rope_type %s, head_dim %lld, rotary_dim %lld, attention_factor %.17g, "
               "softmax_scale_multiplier %.17g",
               pe_scaling_name(fs->type), (long long)fs->head_dim, (long long)f->rotary_dim,
               f->attention_factor, f->softmax_scale_multiplier);
        if (fs->model_type[0]) printf(", model_type %s", fs->model_type);
        if (layout) printf(", layout %s", layout);
        printf("\n%6s %24s %24s %24s %8s\n", "pair", "w (default)", "w' (used)", "wavelength", "weight");
        for (int64_t i = 0; i < half; i++) {
            double w = f->inv_freq[i];
            char weight[16] = "-";
            if (!isnan(fs->interp[i])) snprintf(weight, sizeof weight, "%.4f", fs->interp[i]);
            printf("%6lld %24.17g %24.17g %24.17g %8s\n", (long long)i, fs->unscaled.inv_freq[i], w,
                   w > 0 ? 6.283185307179586476925 / w : INFINITY, weight);
        }
    }
    free(fs);
    return cli_close_output(spec, stdout, NULL);
}
