/* output_file.c — the commands' -o FILE: stdout, or a file written through
 * atomic_file.h, with errors reported in the command's words. */
#include "atomic_file.h"
#include "commands.h"

#include <string.h>

FILE *cli_open_output(const cli_spec *spec, const char *path) {
    if (path == NULL || strcmp(path, "-") == 0) return stdout;
    char err[1024];
    FILE *f = atomic_open(path, err, sizeof err);
    if (f == NULL) cli_runtime_error(spec, "%s", err);
    return f;
}

int cli_close_output(const cli_spec *spec, FILE *f, const char *path) {
    (void)path; /* the library's message names it */
    if (f == stdout) return fflush(stdout) == 0 ? CLI_OK : cli_runtime_error(spec, "write to stdout failed");
    char err[1024];
    if (atomic_close(f, true, err, sizeof err) != 0) return cli_runtime_error(spec, "%s", err);
    return CLI_OK;
}

void cli_discard_output(FILE *f) {
    char err[8];
    if (f != NULL && f != stdout) atomic_close(f, false, err, sizeof err);
}

/* The library's stream writers into a file opened as above: a refused
 * array or a failed write leaves FILE as it was. */
int cli_write_npy(const cli_spec *spec, const char *path, pe_dtype dtype, int ndim,
                  const int64_t *shape, const void *data) {
    FILE *f = cli_open_output(spec, path);
    if (f == NULL) return CLI_RUNTIME;
    const int st = pe_npy_write_stream(f, dtype, ndim, shape, data);
    if (st != PE_OK) {
        cli_discard_output(f);
        return cli_lib_error(spec, st);
    }
    return cli_close_output(spec, f, path);
}

int cli_write_safetensors(const cli_spec *spec, const char *path, const pe_st_tensor *tensors,
                          int64_t count, const char *const *metadata) {
    FILE *f = cli_open_output(spec, path);
    if (f == NULL) return CLI_RUNTIME;
    const int st = pe_safetensors_write_stream(f, tensors, count, metadata);
    if (st != PE_OK) {
        cli_discard_output(f);
        return cli_lib_error(spec, st);
    }
    return cli_close_output(spec, f, path);
}
