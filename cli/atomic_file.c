/* atomic_file.c — pe_output plus a signal-safe list of live temporaries
 * (atomic_file.h). The CLI is one process writing one file at a time, so
 * the list is a small static table; it is the CLI's only global state. */
#include "atomic_file.h"

#include "posenc.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    FILE *f;
    pe_output *out;
    const char *tmp;            /* pe_output_temp_path: NULL when in place */
    char *path;                 /* the target, for messages */
    volatile sig_atomic_t live; /* the handler unlinks tmp while set */
} slot;

static slot slots[ATOMIC_MAX_OPEN];
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CAUGHT (sizeof caught / sizeof caught[0])
static bool handlers_installed;

/* Only async-signal-safe calls: unlink, raise. SA_RESETHAND has already
 * restored the default action, so the raised signal ends the process with
 * the status the shell expects (130 for ^C). */
static void on_signal(int sig) {
    const int saved = errno;
    for (size_t i = 0; i < ATOMIC_MAX_OPEN; i++)
        if (slots[i].live && slots[i].tmp != NULL) unlink(slots[i].tmp);
    raise(sig);
    errno = saved;
}

static void install_handlers(void) {
    if (handlers_installed) return;
    handlers_installed = true;
    for (size_t i = 0; i < N_CAUGHT; i++) {
        struct sigaction old, sa;
        /* A signal the caller ignores (nohup, a background job) stays ignored. */
        if (sigaction(caught[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < N_CAUGHT; j++) sigaddset(&sa.sa_mask, caught[j]);
        sa.sa_flags = SA_RESETHAND;
        sigaction(caught[i], &sa, NULL);
    }
}

static void block(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_CAUGHT; i++) sigaddset(&set, caught[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void unblock(const sigset_t *old) { pthread_sigmask(SIG_SETMASK, old, NULL); }

FILE *atomic_open(const char *path, char *err, size_t errlen) {
    install_handlers();
    sigset_t old;
    block(&old);
    slot *s = NULL;
    for (size_t i = 0; i < ATOMIC_MAX_OPEN && s == NULL; i++)
        if (slots[i].f == NULL) s = &slots[i];
    FILE *f = NULL;
    if (s == NULL) {
        snprintf(err, errlen, "cannot create %s: more than %d files open for writing", path,
                 ATOMIC_MAX_OPEN);
    } else if ((s->path = strdup(path)) == NULL) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(ENOMEM));
    } else if (pe_output_open(path, &s->out) != PE_OK) {
        snprintf(err, errlen, "%s", pe_last_error());
        free(s->path);
        s->path = NULL;
    } else {
        f = s->f = pe_output_stream(s->out);
        s->tmp = pe_output_temp_path(s->out);
        s->live = 1;
    }
    unblock(&old);
    return f;
}

int atomic_close(FILE *f, bool keep, char *err, size_t errlen) {
    slot *s = NULL;
    for (size_t i = 0; i < ATOMIC_MAX_OPEN && s == NULL; i++)
        if (f != NULL && slots[i].f == f) s = &slots[i];
    if (s == NULL) {
        snprintf(err, errlen, "internal error: closing a stream atomic_open did not open");
        return -1;
    }
    /* The long part of a commit, flushing and syncing the data, runs with
     * the temporary still listed and the signals open: ^C during it
     * removes the temporary and the old file stays (pe_output_close's own
     * flush and sync then find nothing left to do, or the error flag). */
    /* The first failed write's errno is gone by now (stdio keeps only a
     * flag); flushing what is left says why when the disk is full. */
    int werr = 0;
    if (keep) {
        errno = 0;
        if (fflush(f) != 0 || ferror(f)) werr = errno ? errno : EIO;
        else if (s->tmp != NULL && fsync(fileno(f)) != 0) werr = errno;
    }
    sigset_t old;
    block(&old);
    /* Unlisted first: with the signals blocked nothing can run between
     * this and the rename or removal that ends the temporary's life. */
    s->live = 0;
    const int st = pe_output_close(s->out, keep && werr == 0 ? PE_OK : PE_ERR_IO);
    if (keep && werr != 0) snprintf(err, errlen, "error writing %s: %s", s->path, strerror(werr));
    else if (keep && st != PE_OK) snprintf(err, errlen, "%s", pe_last_error());
    free(s->path);
    s->f = NULL;
    s->out = NULL;
    s->tmp = NULL;
    s->path = NULL;
    unblock(&old);
    return keep && (werr != 0 || st != PE_OK) ? -1 : 0;
}
