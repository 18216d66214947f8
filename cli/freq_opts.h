/*
 * freq_opts.h — the RoPE frequency options every command shares (freqs, rope,
 * analyze, plot): the head and rotary dimensions, the base, a scaling scheme
 * with its parameters, or a model's config.json. One parser, so the commands
 * cannot disagree about what a flag means.
 */
#ifndef PE_CLI_FREQ_OPTS_H
#define PE_CLI_FREQ_OPTS_H

#include "args.h"

/* Option table entries; put FREQ_OPTS inside a command's cli_opt array. */
#define FREQ_OPTS                                                                              \
    {"head-dim", "D", "head dimension"},                                                       \
    {"rotary-dim", "d", "rotated slice, even, <= D (default D)"},                              \
    {"partial-rotary-factor", "F", "rotary_dim = int(D * F) (instead of --rotary-dim)"},       \
    {"base", "B", "RoPE base theta (default 10000)"},                                          \
    {"config", "config.json", "read everything from a Hugging Face config.json"},              \
    {"layer", "N", "with --config: the decoder layer whose RoPE to use (needed when layers differ)"}, \
    {"scaling", "TYPE",                                                                        \
     "default|linear|ntk|dynamic|yarn|llama3|longrope|proportional|explicit"},                 \
    {"factor", "F", "scaling factor f"},                                                       \
    {"original-max-position", "N", "L0, the original training context"},                       \
    {"max-position", "N", "max_position_embeddings L"},                                        \
    {"seq-len", "S", "current sequence length (dynamic, longrope; with --config too)"},        \
    {"beta-fast", "B", "yarn beta_fast (default 32)"},                                         \
    {"beta-slow", "B", "yarn beta_slow (default 1)"},                                          \
    {"no-truncate", NULL, "yarn: do not floor/ceil the correction range"},                     \
    {"mscale", "M", "yarn mscale"},                                                            \
    {"mscale-all-dim", "M", "yarn mscale_all_dim (DeepSeek)"},                                 \
    {"attention-factor", "A", "magnitude A applied to rotated pairs (yarn, longrope)"},        \
    {"low-freq-factor", "L", "llama3 low_freq_factor (default 1)"},                            \
    {"high-freq-factor", "H", "llama3 high_freq_factor (default 4)"},                          \
    {"short-factor", "LIST", "longrope short_factor, rotary_dim/2 numbers"},                   \
    {"long-factor", "LIST", "longrope long_factor, rotary_dim/2 numbers"},                     \
    {"divisors", "LIST", "explicit per-pair divisors c_i (w' = w / c_i)"}

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
 * becomes "--scaling yarn needs --original-max-position N". CLI_RUNTIME. */
int cli_freq_error(const cli_args *a, int status, const char *dim_source);

#endif
