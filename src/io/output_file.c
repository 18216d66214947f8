/*
 * output_file.c — write to a temporary file and rename it over the target,
 * or in place for devices, pipes and symlinks (output_file.h).
 */
#include "output_file.h"

#include "../internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pe__output_open(const char *path, pe__output *out) {
    struct stat sb;
    const bool exists = lstat(path, &sb) == 0;
    out->f = NULL;
    out->tmp = NULL;
    if (exists && !S_ISREG(sb.st_mode)) {
        out->f = fopen(path, "wb");
        if (out->f == NULL)
            return pe__fail(PE_ERR_IO, "cannot create %s: %s", path, strerror(errno));
        return PE_OK;
    }
    const size_t len = strlen(path) + 16;
    char *name = malloc(len);
    if (name == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for a file name");
    snprintf(name, len, "%s.tmp-XXXXXX", path);
    const int fd = mkstemp(name);
    if (fd < 0) {
        const int err = errno;
        free(name);
        return pe__fail(PE_ERR_IO, "cannot create %s: %s", path, strerror(err));
    }
    out->f = fchmod(fd, exists ? sb.st_mode & 07777 : 0644) == 0 ? fdopen(fd, "wb") : NULL;
    if (out->f == NULL) {
        const int err = errno;
        close(fd);
        remove(name);
        free(name);
        return pe__fail(PE_ERR_IO, "cannot create %s: %s", path, strerror(err));
    }
    out->tmp = name;
    return PE_OK;
}

int pe__output_sync(const char *path, pe__output *out) {
    if (out->tmp == NULL) return PE_OK; /* a device or pipe: nothing to make durable */
    if (fflush(out->f) != 0 || fsync(fileno(out->f)) != 0)
        return pe__fail(PE_ERR_IO, "error writing %s: %s", path, strerror(errno));
    return PE_OK;
}

int pe__output_close(const char *path, pe__output *out, int status) {
    if (fclose(out->f) != 0 && status == PE_OK)
        status = pe__fail(PE_ERR_IO, "error writing %s: %s", path, strerror(errno));
    out->f = NULL;
    if (out->tmp != NULL) {
        if (status == PE_OK && rename(out->tmp, path) != 0)
            status = pe__fail(PE_ERR_IO, "cannot rename %s to %s: %s", out->tmp, path,
                              strerror(errno));
        if (status != PE_OK) remove(out->tmp);
        free(out->tmp);
        out->tmp = NULL;
    }
    return status;
}
