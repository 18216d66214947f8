/*
 * args.h — the CLI's option parser and its error conventions.
 *
 * Each subcommand declares a cli_spec (usage line, description, options);
 * cli_parse() accepts "--name value", "--name=value" and flags, rejects
 * unknown or repeated options, and prints --help from the same table, so a
 * command's help can never drift from what it accepts.
 *
 * Exit status: 0 success; 2 usage error (one line naming the problem, plus a
 * hint); 1 runtime error carrying the library's detail message.
 */
#ifndef PE_CLI_ARGS_H
#define PE_CLI_ARGS_H

#include "posenc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_MAX_OPTS 48
#define CLI_MAX_POSITIONAL 4

enum { CLI_OK = 0, CLI_RUNTIME = 1, CLI_USAGE = 2, CLI_HELP_SHOWN = -1 };

/* An option's help may end with the interval of values it accepts,
 * "[1, 8192]" or "(0, 8]" (integers or doubles, "inf" allowed): the typed
 * getters enforce exactly that interval, so the range a user reads in
 * --help is the range that is checked, from one string. NaN is never a
 * value of any option. */
typedef struct {
    const char *name;    /* without the leading "--" */
    const char *metavar; /* NULL for a flag */
    const char *help;
} cli_opt;

typedef struct {
    const char *command; /* "encode" */
    const char *usage;   /* after "posenc encode " */
    const char *summary; /* one line, for `posenc --help` */
    const char *description;
    const cli_opt *opts; /* terminated by {NULL} */
    int min_positional, max_positional;
    const char *examples;
} cli_spec;

typedef struct {
    const cli_spec *spec;
    const char *values[CLI_MAX_OPTS];
    bool present[CLI_MAX_OPTS];
    const char *positional[CLI_MAX_POSITIONAL];
    int n_positional;
} cli_args;

/* Parse argv (after the subcommand name). Returns CLI_OK, CLI_USAGE (message
 * printed) or CLI_HELP_SHOWN (help printed to stdout). */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *out);
void cli_print_help(const cli_spec *spec, FILE *f);

bool cli_has(const cli_args *a, const char *name);
const char *cli_get(const cli_args *a, const char *name); /* NULL if absent */

/* Typed getters: return CLI_OK, or CLI_USAGE after printing which option
 * and value were wrong (not a number, NaN, out of a double's range or
 * subnormal, or outside the interval its help ends with). Absent options
 * leave *out unchanged (the default). */
int cli_get_int64(const cli_args *a, const char *name, int64_t *out);
int cli_get_double(const cli_args *a, const char *name, double *out);
/* One of `choices` (NULL-terminated); *out is its index. */
int cli_get_choice(const cli_args *a, const char *name, const char *const *choices,
                   int *out);
/* "1,2,-5" -> malloc'd array; *n its length. */
int cli_get_int_list(const cli_args *a, const char *name, int64_t **out, int64_t *n);
/* "0.5,1,2e-3" -> malloc'd array; *n its length. */
int cli_get_double_list(const cli_args *a, const char *name, double **out, int64_t *n);
/* "A:B" (B exclusive) -> start, count. */
int cli_get_range(const cli_args *a, const char *name, int64_t *start, int64_t *count);

/* Print "posenc CMD: message" + hint to stderr and return CLI_USAGE. */
int cli_usage_error(const cli_spec *spec, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Print "posenc CMD: error: <strerror>: <detail>" and return CLI_RUNTIME. */
int cli_lib_error(const cli_spec *spec, int status);
/* cli_lib_error in the user's words: each field=value of the library's
 * message whose option the user typed (dim=5 from --dim 5, num_buckets=0 from
 * --buckets 0) reads as that option and its value as typed. Returns
 * CLI_USAGE when the message names such an option (the user's value was
 * wrong), else CLI_RUNTIME. */
int cli_opts_error(const cli_args *a, int status);
/* Print "posenc CMD: error: message" and return CLI_RUNTIME. */
int cli_runtime_error(const cli_spec *spec, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
