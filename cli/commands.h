/* commands.h — the subcommands of `posenc`, each in its own cmd_*.c. */
#ifndef PE_CLI_COMMANDS_H
#define PE_CLI_COMMANDS_H

#include "args.h"

typedef struct {
    const cli_spec *spec;
    int (*run)(const cli_spec *spec, int argc, char **argv);
} cli_command;

extern const cli_spec cmd_encode_spec, cmd_freqs_spec, cmd_rope_spec,
    cmd_attention_spec, cmd_tour_spec, cmd_bias_spec, cmd_analyze_spec, cmd_plot_spec;
int cmd_encode(const cli_spec *spec, int argc, char **argv);
int cmd_freqs(const cli_spec *spec, int argc, char **argv);
int cmd_rope(const cli_spec *spec, int argc, char **argv);
int cmd_attention(const cli_spec *spec, int argc, char **argv);
int cmd_tour(const cli_spec *spec, int argc, char **argv);
int cmd_bias(const cli_spec *spec, int argc, char **argv);
int cmd_analyze(const cli_spec *spec, int argc, char **argv);
extern const cli_spec cmd_bench_spec, cmd_info_spec;
int cmd_bench(const cli_spec *spec, int argc, char **argv);
int cmd_info(const cli_spec *spec, int argc, char **argv);
int cmd_plot(const cli_spec *spec, int argc, char **argv);
extern const cli_spec cmd_convert_qk_spec; int cmd_convert_qk(const cli_spec *spec, int argc, char **argv);
extern const cli_spec cmd_experiment_spec;
int cmd_experiment(const cli_spec *spec, int argc, char **argv);
extern const cli_spec cmd_plan_spec;
int cmd_plan(const cli_spec *spec, int argc, char **argv);
extern const cli_spec cmd_check_spec;
int cmd_check(const cli_spec *spec, int argc, char **argv);

/* Opens -o FILE (or stdout when path is NULL or "-") through
 * atomic_file.h: FILE appears whole or not at all; reports failures. */
FILE *cli_open_output(const cli_spec *spec, const char *path);
/* Closes what cli_open_output opened and puts the file in place;
 * CLI_RUNTIME if a write failed (the old FILE is then left as it was). */
int cli_close_output(const cli_spec *spec, FILE *f, const char *path);
/* Closes what cli_open_output opened without keeping it (after an error). */
void cli_discard_output(FILE *f);
/* pe_npy_write / pe_safetensors_write, but through cli_open_output (and
 * its signal cleanup); CLI_OK, or the error already reported. */
int cli_write_npy(const cli_spec *spec, const char *path, pe_dtype dtype, int ndim,
                  const int64_t *shape, const void *data);
int cli_write_safetensors(const cli_spec *spec, const char *path, const pe_st_tensor *tensors,
                          int64_t count, const char *const *metadata);

#endif
