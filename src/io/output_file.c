/*
 * output_file.c — pe_output: every file the library writes (and, through
 * the public calls, every file the posenc CLI writes) is put in place here.
 *
 * A regular file (or a new one) is written under a temporary name in the
 * target's own directory (rename is atomic only within one file system)
 * and renamed over the target once every byte is out and synced: a full
 * disk, a failed write or a crash leaves the old file as it was. The name
 *
 *     .NAME.posenc-tmp-PID-XXXXXX
 *
 * is hidden, says what made it, and carries the writer's process id so a
 * later open can tell a crashed writer's leftover (its process is gone)
 * from a live writer's file (left alone). Devices, pipes and symlinks are
 * written in place: renaming would replace the node itself (a symlink
 * would stop pointing at its target, /dev/stdout would become a file).
 *
 * No global state and no signal handler: a caller that must not leave the
 * temporary behind on a signal asks for its name (pe_output_temp_path) and
 * removes it from its own handler (cli/atomic_file.c does).
 */
#include "../internal.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

struct pe_output {
    FILE *f;
    char *path; /* the target, as given */
    char *tmp;  /* the temporary name, NULL when writing in place */
};

static const char TMP_TAG[] = ".posenc-tmp-";
/* NAME is cut to this many bytes in the temporary's name, so that the
 * name stays under NAME_MAX (255) with the tag, a pid and the suffix. */
#define TMP_NAME_BYTES 200

/* The directory part of path ("." for a bare name) and the last component. */
static char *split_dir(const char *path, const char **base) {
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (slash == NULL) {
        char *dot = malloc(2);
        if (dot) memcpy(dot, ".", 2);
        return dot;
    }
    const size_t n = slash == path ? 1 : (size_t)(slash - path); /* "/x": the root */
    char *dir = malloc(n + 1);
    if (dir) {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return dir;
}

/* The process id of a temporary of the target whose last component is
 * base, or 0 when name is not one. */
static pid_t temp_owner(const char *name, const char *base) {
    const size_t bl = strnlen(base, TMP_NAME_BYTES), tl = sizeof TMP_TAG - 1;
    if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 ||
        strncmp(name + 1 + bl, TMP_TAG, tl) != 0)
        return 0;
    const char *p = name + 1 + bl + tl;
    long long pid = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 12; p++, digits++) pid = pid * 10 + (*p - '0');
    if (digits == 0 || *p != '-' || strlen(p + 1) != 6 || pid <= 0 || pid != (pid_t)pid) return 0;
    return (pid_t)pid;
}

/* Remove the temporaries a crashed writer of this target left in dir: only
 * those whose process no longer exists (kill(pid, 0) says ESRCH), never
 * our own or a live one's. Best effort: a directory that cannot be listed
 * is simply not swept. */
static void sweep_stale(const char *dir, const char *base) {
    DIR *d = opendir(dir);
    if (d == NULL) return;
    const pid_t self = getpid();
    const size_t dl = strlen(dir);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const pid_t pid = temp_owner(e->d_name, base);
        if (pid == 0 || pid == self || kill(pid, 0) == 0 || errno != ESRCH) continue;
        char *full = malloc(dl + strlen(e->d_name) + 2);
        if (full == NULL) break;
        snprintf(full, dl + strlen(e->d_name) + 2, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (lstat(full, &sb) == 0 && S_ISREG(sb.st_mode)) unlink(full);
        free(full);
    }
    closedir(d);
}

static int open_fail(pe_output *o, const char *path, int err) {
    free(o->tmp);
    free(o->path);
    free(o);
    return pe__fail(PE_ERR_IO, "cannot create %s: %s", path, strerror(err));
}

int pe_output_open(const char *path, pe_output **out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    pe_output *o = calloc(1, sizeof *o);
    const size_t plen = strlen(path);
    if (o == NULL || (o->path = malloc(plen + 1)) == NULL) {
        free(o);
        return pe__fail(PE_ERR_NOMEM, "no memory to open %s", path);
    }
    memcpy(o->path, path, plen + 1);
    struct stat sb;
    const bool exists = lstat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) {
        o->f = fopen(path, "wb");
        if (o->f == NULL) return open_fail(o, path, errno);
        *out = o;
        return PE_OK;
    }
    const char *base;
    char *dir = split_dir(path, &base);
    if (dir == NULL) return open_fail(o, path, ENOMEM);
    if (base[0] == '\0') { /* "dir/": no file name to write */
        free(dir);
        return open_fail(o, path, EISDIR);
    }
    sweep_stale(dir, base);
    const size_t len = strlen(dir) + TMP_NAME_BYTES + sizeof TMP_TAG + 48;
    o->tmp = malloc(len);
    if (o->tmp == NULL) {
        free(dir);
        return open_fail(o, path, ENOMEM);
    }
    snprintf(o->tmp, len, "%s/.%.*s%s%lld-XXXXXX", dir, TMP_NAME_BYTES, base, TMP_TAG,
             (long long)getpid());
    free(dir);
    const int fd = mkstemp(o->tmp);
    if (fd < 0) return open_fail(o, path, errno);
    o->f = fchmod(fd, exists ? sb.st_mode & 07777 : 0644) == 0 ? fdopen(fd, "wb") : NULL;
    if (o->f == NULL) {
        const int err = errno;
        close(fd);
        unlink(o->tmp);
        return open_fail(o, path, err);
    }
    *out = o;
    return PE_OK;
}

FILE *pe_output_stream(const pe_output *o) { return o ? o->f : NULL; }

const char *pe_output_temp_path(const pe_output *o) { return o ? o->tmp : NULL; }

int pe_output_close(pe_output *o, int status) {
    if (o == NULL) return status != PE_OK ? status : pe__fail(PE_ERR_NULL, "o must not be NULL");
    /* Flush and sync before the rename: a rename is only as durable as the
     * data behind it. ferror catches a write that failed earlier. */
    if (status == PE_OK) {
        errno = 0;
        bool bad = ferror(o->f) != 0;
        if (fflush(o->f) != 0) bad = true; /* retried: says why the write failed */
        if (!bad && o->tmp != NULL && fsync(fileno(o->f)) != 0) bad = true;
        if (bad)
            status = pe__fail(PE_ERR_IO, "error writing %s: %s", o->path,
                              strerror(errno ? errno : EIO));
    }
    if (fclose(o->f) != 0 && status == PE_OK)
        status = pe__fail(PE_ERR_IO, "error writing %s: %s", o->path, strerror(errno));
    if (o->tmp != NULL) {
        if (status == PE_OK && rename(o->tmp, o->path) != 0)
            status = pe__fail(PE_ERR_IO, "cannot rename %s to %s: %s", o->tmp, o->path,
                              strerror(errno));
        if (status != PE_OK) unlink(o->tmp);
    }
    free(o->tmp);
    free(o->path);
    free(o);
    return status;
}
