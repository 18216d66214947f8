/*
 * freq_opts.h — the RoPE frequency options every command shares (freqs, rope,
 * analyze, plot): the head and rotary dimensions, the base, a scaling scheme
 * with its parameters, or a model's config.json. One parser, so the commands
 * cannot disagree about what a flag means.
 */
#ifndef PE_CLI_FREQ_OPTS_H
#define PE_CLI_FREQ_OPTS_H

#include "args.h"

/* A command's option table: its own options (NULL-terminated) followed by
 * the frequency options: the dimensions, --base, --config, --layer,
 * --scaling (its choices) and every scheme parameter, generated from the
 * library's scheme table (pe_scaling_param_get), so a scheme or parameter
 * added to the library appears here without an edit. table holds
 * CLI_MAX_OPTS + 1 entries; call before cli_parse (filling twice is
 * harmless). */
void cli_freq_opts(cli_opt *table, const cli_opt *own);
/* One line per scheme for --help: its name, what it does and the options
 * it reads, from the same table. */
void cli_freq_schemes_text(char *buf, size_t cap);

/* What the options resolved to. Large (inline frequency arrays): allocate it. */
typedef struct {
    pe_freqs freqs;
    pe_freqs unscaled;             /* the default frequencies of the same dims */
    double interp[PE_MAX_PAIRS];   /* NAN where the scheme has no ramp */
    pe_scaling_type type;
    int64_t head_dim;
    int layout_known;
    pe_rope_layout layout;
    char model_type[64];
} cli_freq_setup;

/* Resolve the options. default_head_dim > 0 is used when --head-dim is
 * absent (and no --config); 0 makes --head-dim required. Returns a CLI
 * status (messages printed). */
int cli_freq_setup_resolve(const cli_args *a, int64_t default_head_dim, cli_freq_setup *out);
/* The same, saying where default_head_dim came from when an error involves
 * it ("q.npy's last dimension"), so the message names the file. Options a
 * scheme would ignore (--factor without --scaling, --beta-fast with llama3)
 * are refused. */
int cli_freq_setup_resolve_from(const cli_args *a, int64_t default_head_dim, const char *dim_source,
                                cli_freq_setup *out);
/* Report the library error `status` (pe_last_error()) in the user's words:
 * each field=value the library names becomes the flag and its value as typed
 * (rotary_dim=127 -> --head-dim 127), or dim_source when the head dimension
 * came from a file; a scheme parameter that was needed and not given
 * becomes "--scaling yarn needs --original-max-position N". CLI_USAGE when
 * the user's own option was wrong or missing, CLI_RUNTIME when the value came
 * from a file. */
int cli_freq_error(const cli_args *a, int status, const char *dim_source);

#endif
