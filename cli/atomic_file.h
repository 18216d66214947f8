/*
 * atomic_file.h — the one way the CLI writes a file (text, CSV, JSON, .npy,
 * safetensors, PNG, SVG, the tour's and the experiment's reports).
 *
 * The file goes through the library's pe_output (posenc.h): a temporary
 * ".NAME.posenc-tmp-PID-XXXXXX" next to the target, renamed over it only
 * when every byte is out and synced, removed on failure, so an existing
 * file is never truncated or removed by a full disk or a failed write, and
 * keeps its mode; symlinks, devices and pipes are written through. What
 * this layer adds is the CLI's signal policy, which a library must not
 * have: while a temporary exists its name sits in a fixed table, and
 * SIGINT, SIGTERM and SIGHUP handlers (installed at the first open, only
 * where the signal is not ignored) unlink every listed temporary with
 * async-signal-safe calls and then let the signal kill the process as it
 * would have. Creating the temporary and listing it, and unlisting it and
 * renaming or removing it, run with those signals blocked, so a temporary
 * is never unlisted while it exists; the flush and fsync before the rename
 * run unblocked, so ^C is never held up by a slow disk. A temporary left by
 * SIGKILL or a crash is removed by the next write to the same target
 * (pe_output_open removes those whose process is gone).
 *
 * tests/cli/reliability.sh checks all of this on a full tmpfs and with
 * signals, and fails `make test` if a file is opened for writing anywhere
 * else in the sources.
 */
#ifndef PE_CLI_ATOMIC_FILE_H
#define PE_CLI_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* At most this many files are open for writing at once (the CLI needs one). */
#define ATOMIC_MAX_OPEN 8

/* A stream that writes to path as above; NULL with the reason in err. */
FILE *atomic_open(const char *path, char *err, size_t errlen);

/* keep: put the file in place (if no write failed), else discard the
 * temporary and leave path as it was. 0, or -1 with the reason in err
 * (the temporary is then gone too). */
int atomic_close(FILE *f, bool keep, char *err, size_t errlen);

#endif
