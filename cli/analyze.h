/* analyze.h — `posenc analyze`: shared pieces of the analysis subcommands
 * (cmd_analyze.c dispatches; analyze_additive.c and analyze_rope.c run). */
#ifndef PE_CLI_ANALYZE_H
#define PE_CLI_ANALYZE_H

#include "args.h"
#include "output.h"

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(const cli_spec *spec, const cli_args *a, int format);
    const char *reads; /* the analysis's own options it reads, space-separated: another one
                          given on the command line is refused as having no effect */
    int freq;          /* 1: reads the frequency options of `posenc freqs`; 2: only with
                          --scheme rope (similarity) */
    const char *sin_reads, *rope_reads; /* similarity: read only with --scheme sinusoidal /
                                           --scheme rope */
} analysis_entry;

int analyze_logit_terms(const cli_spec *spec, const cli_args *a, int format);
int analyze_toy(const cli_spec *spec, const cli_args *a, int format);
int analyze_normalized(const cli_spec *spec, const cli_args *a, int format);
int analyze_binary(const cli_spec *spec, const cli_args *a, int format);
int analyze_wavelengths(const cli_spec *spec, const cli_args *a, int format);
int analyze_flip(const cli_spec *spec, const cli_args *a, int format);
int analyze_collisions(const cli_spec *spec, const cli_args *a, int format);
int analyze_relativity(const cli_spec *spec, const cli_args *a, int format);
int analyze_similarity(const cli_spec *spec, const cli_args *a, int format);

/* collisions: (max_offset - min_offset + 1) x pairs cos/sin evaluations at
 * most (2^31; docs/RELIABILITY.md, Bounded work). */
#define COLLISIONS_MAX_EVALS ((uint64_t)1 << 31)


#endif
