/* main.c — `posenc`: dispatches to a subcommand; --help and --version. */
#include "commands.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const cli_command commands[] = {
    {&cmd_encode_spec, cmd_encode},
    {&cmd_freqs_spec, cmd_freqs},
    {&cmd_plan_spec, cmd_plan},
    {&cmd_check_spec, cmd_check},
    {&cmd_rope_spec, cmd_rope},
    {&cmd_bias_spec, cmd_bias},
    {&cmd_attention_spec, cmd_attention},
    {&cmd_analyze_spec, cmd_analyze},
    {&cmd_plot_spec, cmd_plot},
    {&cmd_convert_qk_spec, cmd_convert_qk},
    {&cmd_experiment_spec, cmd_experiment},
    {&cmd_tour_spec, cmd_tour},
    {&cmd_bench_spec, cmd_bench},
    {&cmd_info_spec, cmd_info},
};
static const size_t n_commands = sizeof commands / sizeof commands[0];

static void print_main_help(FILE *f) {
    fprintf(f,
            "Usage: posenc COMMAND [OPTIONS]\n\n"
            "posenc computes, inspects and compares transformer positional encodings:\n"
            "additive (raw, normalized, binary, sinusoidal, learned), rotary (RoPE) and\n"
            "attention biases. The formulas and the error list are in the repository's docs/\n"
            "(SCALING.md, BIASES.md, MROPE.md, ERRORS.md, PYTHON.md).\n\nCommands:\n");
    for (size_t i = 0; i < n_commands; i++)
        fprintf(f, "  %-12s %s\n", commands[i].spec->command, commands[i].spec->summary);
    fprintf(f,
            "\nOptions:\n"
            "  -h, --help     show this help (posenc COMMAND --help for a command's)\n"
            "  --version      print the version and the active kernel set\n"
            "\nExit status: 0 success, 1 runtime error, 2 usage error.\n");
}

/* Every byte any command wrote to stdout reaches it, or the run fails: a
 * buffered write to a full disk or a closed pipe only shows at the flush,
 * so the one place that sees every command's output (help, --version and
 * attention included) checks it once, after the command returns. A run
 * that already failed keeps its status and its own message (the -o -
 * writers report "write to stdout failed" themselves); a successful one
 * becomes 1 with a message. */
static int finish_stdout(int rc) {
    errno = 0;
    const bool failed = fflush(stdout) != 0 || ferror(stdout);
    const int err = errno;
    const bool close_failed = fclose(stdout) != 0;
    if ((!failed && !close_failed) || rc != CLI_OK) return rc;
    const int why = failed ? err : errno;
    fprintf(stderr, "posenc: write to standard output failed: %s\n",
            why != 0 ? strerror(why) : "I/O error");
    return rc == CLI_OK ? CLI_RUNTIME : rc;
}

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        print_main_help(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        if (strcmp(cmd, "help") == 0 && argc > 2) {
            for (size_t i = 0; i < n_commands; i++)
                if (strcmp(argv[2], commands[i].spec->command) == 0) {
                    /* through the command: some build their options first */
                    char help[] = "--help", *hargv[] = {help, NULL};
                    int rc = commands[i].run(commands[i].spec, 1, hargv);
                    return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
                }
            fprintf(stderr, "posenc: no command '%s'\nTry 'posenc --help'.\n", argv[2]);
            return CLI_USAGE;
        }
        print_main_help(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("posenc %s (kernels: %s)\n", pe_version_string(), pe_kernels_name());
        return CLI_OK;
    }
    for (size_t i = 0; i < n_commands; i++)
        if (strcmp(cmd, commands[i].spec->command) == 0) {
            int rc = commands[i].run(commands[i].spec, argc - 2, argv + 2);
            return rc == CLI_HELP_SHOWN ? CLI_OK : rc;
        }
    fprintf(stderr, "posenc: unknown command '%s'\nTry 'posenc --help'.\n", cmd);
    return CLI_USAGE;
}

int main(int argc, char **argv) { return finish_stdout(dispatch(argc, argv)); }
