/*
 * fuzz_args.c — the CLI's option parsing on arbitrary argument vectors.
 * Input: byte 0 picks a command's spec, the rest is split at '\n' into
 * argv words. cli_parse runs against the spec; when it accepts, every typed
 * getter of cli/args.h runs on every option (each must accept or reject
 * with a message, never crash or leak), and for the commands that take the
 * shared frequency options (those with --scaling) the options are resolved
 * into frequencies, which must pass pe_freqs_validate. Commands themselves
 * never run: they read and write files. --config is skipped for the same
 * reason.
 */
#include "fuzz.h"

#include "../cli/commands.h"
#include "../cli/freq_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile uint64_t pe_fuzz_sink;

/* Append only: byte 0 of the corpus files indexes this list. */
static const cli_spec *const specs[] = {
    &cmd_encode_spec,   &cmd_freqs_spec,   &cmd_rope_spec,       &cmd_bias_spec,
    &cmd_attention_spec, &cmd_analyze_spec, &cmd_tour_spec,       &cmd_plot_spec,
    &cmd_bench_spec,    &cmd_info_spec,    &cmd_convert_qk_spec, &cmd_experiment_spec,
};
#define N_SPECS (sizeof specs / sizeof specs[0])

/* The commands' output helpers live in cli/main.c, which also holds main();
 * no command runs here, so weak stand-ins satisfy the linker and yield to
 * the real ones should they ever move out of main.c. */
__attribute__((weak)) FILE *cli_open_output(const cli_spec *spec, const char *path) {
    (void)spec;
    (void)path;
    abort();
}
__attribute__((weak)) int cli_close_output(const cli_spec *spec, FILE *f, const char *path) {
    (void)spec;
    (void)f;
    (void)path;
    abort();
}

/* The parser prints usage errors and --help through stdio; a fuzzer doing
 * that millions of times is just slow. glibc's stdout and stderr are
 * assignable streams: pointing them at /dev/null silences the CLI while
 * fd 2 stays open for the sanitizers' and libFuzzer's own reports. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    FILE *null = fopen("/dev/null", "w"); /* atomic-ok: silences stdio, writes no file */
    if (null != NULL && getenv("PE_FUZZ_VERBOSE") == NULL) {
        stdout = null;
        stderr = null;
    }
    return 0;
}

static void run_getters(const cli_args *a) {
    static const char *const choices[] = {"table", "csv", "json", "npy", "interleaved",
                                          "half", NULL};
    for (int i = 0; a->spec->opts[i].name != NULL; i++) {
        const char *name = a->spec->opts[i].name;
        bool has = cli_has(a, name);
        const char *v = cli_get(a, name);
        if (has != (v != NULL) && a->spec->opts[i].metavar != NULL) abort();
        if (a->spec->opts[i].metavar == NULL) continue;
        int64_t iv = 0, start = 0, count = 0, n = -1;
        double dv = 0;
        int choice = -1;
        cli_get_int64(a, name, &iv);
        cli_get_double(a, name, &dv);
        cli_get_choice(a, name, choices, &choice);
        if (cli_get_range(a, name, &start, &count) == CLI_OK && has && count < 1) abort();
        int64_t *il = NULL;
        if (cli_get_int_list(a, name, &il, &n) == CLI_OK && has && (il == NULL || n < 1))
            abort();
        if (il != NULL) pe_fuzz_consume(il, sizeof *il * (size_t)n);
        free(il);
        double *dl = NULL;
        n = -1;
        if (cli_get_double_list(a, name, &dl, &n) == CLI_OK && has && (dl == NULL || n < 1))
            abort();
        if (dl != NULL) pe_fuzz_consume(dl, sizeof *dl * (size_t)n);
        free(dl);
        pe_fuzz_consume(&iv, sizeof iv);
        pe_fuzz_consume(&dv, sizeof dv);
    }
}

static bool has_option(const cli_spec *spec, const char *name) {
    for (int i = 0; spec->opts[i].name != NULL; i++)
        if (strcmp(spec->opts[i].name, name) == 0) return true;
    return false;
}

static void resolve_freqs(const cli_args *a) {
    if (!has_option(a->spec, "scaling") || cli_has(a, "config")) return;
    cli_freq_setup *fs = malloc(sizeof *fs);
    if (fs == NULL) return;
    if (cli_freq_setup_resolve(a, 128, fs) == CLI_OK) {
        if (pe_freqs_validate(&fs->freqs) != PE_OK || pe_freqs_validate(&fs->unscaled) != PE_OK)
            abort();
        pe_fuzz_consume(fs->freqs.inv_freq, sizeof(double) * (size_t)(fs->freqs.rotary_dim / 2));
    }
    free(fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const cli_spec *spec = specs[data[0] % N_SPECS];
    /* argv words: a private NUL-terminated copy split at '\n', as a shell
     * would hand them over (any byte but NUL may occur in a word). */
    char *text = malloc(size);
    char **argv = malloc(sizeof(char *) * size);
    if (text == NULL || argv == NULL) {
        free(text);
        free(argv);
        return 0;
    }
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    int argc = 0;
    if (size > 1) {
        argv[argc++] = text;
        for (size_t i = 0; i + 1 < size; i++)
            if (text[i] == '\n' || text[i] == '\0') {
                text[i] = '\0';
                if (i + 2 < size) argv[argc++] = text + i + 1;
            }
    }
    cli_args a;
    if (cli_parse(spec, argc, argv, &a) == CLI_OK) {
        if (a.n_positional < spec->min_positional || a.n_positional > spec->max_positional)
            abort();
        run_getters(&a);
        resolve_freqs(&a);
    }
    free(argv);
    free(text);
    return 0;
}
