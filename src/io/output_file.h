/*
 * output_file.h — how the writers (npy, safetensors) put a file in place.
 *
 * A regular file (or a new one) is written to a temporary file next to it,
 * renamed over path once every byte is out: a full disk or a crash never
 * leaves half a file under the name. Devices, pipes and symlinks are opened
 * in place: renaming would replace the node itself (a symlink would stop
 * pointing at its target, /dev/stdout would become a file). The temporary
 * file gets the mode of the file it replaces, 0644 for a new one.
 */
#ifndef PE_IO_OUTPUT_FILE_H
#define PE_IO_OUTPUT_FILE_H

#include <stdio.h>

typedef struct {
    FILE *f;
    char *tmp; /* the temporary name, NULL when writing in place */
} pe__output;

/* Open path for writing as above; errors are PE_ERR_IO/PE_ERR_NOMEM. */
int pe__output_open(const char *path, pe__output *out);

/* Flush the bytes to stable storage when they go to a temporary file (a
 * rename is only as durable as the data behind it); a no-op in place. */
int pe__output_sync(const char *path, pe__output *out);

/* Close; with status PE_OK rename the temporary file over path, otherwise
 * remove it. Returns status, or the close/rename failure. */
int pe__output_close(const char *path, pe__output *out, int status);

#endif
