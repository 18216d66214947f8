/*
 * input_file.h — internal: how every reader opens the file it is given
 * (GGUF, safetensors, .npy, config.json). The decision about what kind of
 * file it is comes before anything can block: the path is opened with
 * O_NONBLOCK, so a FIFO with no writer or a device that waits for a carrier
 * never holds up the open (`mkfifo f; posenc plan --gguf f` used to hang
 * forever), and it is fstat'ed before the first read.
 */
#ifndef PE_IO_INPUT_FILE_H
#define PE_IO_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>

typedef enum {
    /* Only a regular file (GGUF, safetensors: they seek, and their size is
     * part of the format's checks). Anything else is refused before it is
     * opened ("PATH: not a regular file (a FIFO)"). */
    PE__INPUT_REGULAR,
    /* A regular file or a stream (pipe, process substitution, device): the
     * readers that read front to back (.npy, config.json). A pipe is taken
     * as it is at the open: one whose writer is gone or never came holds
     * nothing, and is refused as such rather than waited for. */
    PE__INPUT_STREAM,
} pe__input_kind;

/* Opens PATH for reading as KIND allows. On success *out is a FILE in
 * blocking mode and *size the byte size of a regular file (-1 for a
 * stream). Failures are PE_ERR_IO naming PATH ("cannot open PATH: ...",
 * "PATH: not a regular file (a KIND)", "PATH: a pipe with no writer"). */
int pe__input_open(const char *path, pe__input_kind kind, FILE **out, int64_t *size);
/* The same, but messages show the path as NAME (config.json quotes it). */
int pe__input_open_as(const char *path, const char *name, pe__input_kind kind, FILE **out,
                      int64_t *size);

#endif
