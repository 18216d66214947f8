/* input_file.c — opening a reader's input without blocking (input_file.h). */
#include "input_file.h"

#include "../errors.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_name(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a file";
}

static int refuse_kind(const char *name, mode_t mode) {
    return pe__fail(PE_ERR_IO, "%.300s: not a regular file (%s)", name, kind_name(mode));
}

int pe__input_open_as(const char *path, const char *name, pe__input_kind kind, FILE **out,
                      int64_t *size) {
    *out = NULL;
    *size = -1;
    struct stat sb;
    /* A regular-only reader looks before it opens, so a device is never
     * opened at all (an open can have effects: a tape rewinds). */
    if (kind == PE__INPUT_REGULAR && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return refuse_kind(name, sb.st_mode);
    /* O_NONBLOCK: a FIFO's open returns at once even with no writer. The
     * fstat below decides on the file actually opened (the path may have
     * been replaced since the stat). */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return pe__fail(PE_ERR_IO, "cannot open %.300s: %s", name, strerror(errno));
    int status = PE_OK;
    unsigned char first = 0;
    ssize_t probed = -1;
    if (fstat(fd, &sb) != 0) {
        status = pe__fail(PE_ERR_IO, "cannot stat %.300s: %s", name, strerror(errno));
    } else if (kind == PE__INPUT_REGULAR && !S_ISREG(sb.st_mode)) {
        status = refuse_kind(name, sb.st_mode);
    } else if (S_ISFIFO(sb.st_mode)) {
        /* Without O_NONBLOCK a read of a pipe nobody writes to would wait
         * for a writer forever; non-blocking, it says 0 (no writer: nothing
         * will ever come), EAGAIN (a writer, no bytes yet: wait for them)
         * or hands over the first byte, which is pushed back below. */
        probed = read(fd, &first, 1);
        if (probed == 0)
            status = pe__fail(PE_ERR_IO, "%.300s: a pipe with no writer (nothing to read)", name);
        else if (probed < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            status = pe__fail(PE_ERR_IO, "error reading %.300s: %s", name, strerror(errno));
    }
    if (status == PE_OK) {
        const int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
            status = pe__fail(PE_ERR_IO, "cannot read %.300s: %s", name, strerror(errno));
    }
    FILE *f = NULL;
    if (status == PE_OK && (f = fdopen(fd, "rb")) == NULL) /* atomic-ok: opens for reading */
        status = pe__fail(PE_ERR_IO, "cannot open %.300s: %s", name, strerror(errno));
    if (status == PE_OK && probed == 1 && ungetc(first, f) == EOF)
        status = pe__fail(PE_ERR_IO, "cannot read %.300s", name);
    if (status != PE_OK) {
        if (f != NULL)
            fclose(f);
        else
            close(fd);
        return status;
    }
    *out = f;
    if (S_ISREG(sb.st_mode)) *size = (int64_t)sb.st_size;
    return PE_OK;
}

int pe__input_open(const char *path, pe__input_kind kind, FILE **out, int64_t *size) {
    return pe__input_open_as(path, path, kind, out, size);
}
