/*
 * replay.c — runs a fuzz target without libFuzzer: every file named on the
 * command line, or every regular file in a directory named there, is fed to
 * LLVMFuzzerTestOneInput once, in sorted order so runs are reproducible.
 * `make test` runs each target over fuzz/corpus/<target>/ with it; the
 * sanitizer builds (`make asan`, `make valgrind`) then turn the corpus into
 * memory-safety regression tests. Prints "replay: N inputs" and exits
 * non-zero if a file cannot be read or nothing was replayed.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Targets that need no set-up leave this undefined. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    return 0;
}

/* Where this driver reports, fixed before a target can silence stdio. */
static FILE *err;

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(err, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) break;
        if (n == cap) {
            unsigned char *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int bad = buf == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(err, "replay: cannot read %s\n", path);
        return -1;
    }
    /* An exact-size copy, so that ASan flags a read one byte past the
     * input, as libFuzzer's own buffer would. */
    unsigned char *exact = malloc(n ? n : 1);
    if (exact == NULL) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, sorted; returns files replayed or -1. */
static long run_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d == NULL) return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    long done = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (grown == NULL) {
                done = -1;
                break;
            }
            names = grown;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (names[n] == NULL) {
            done = -1;
            break;
        }
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (done == 0 && n > 0) qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (done >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) != 0)
                done = -1;
            else
                done++;
        }
        free(names[i]);
    }
    free(names);
    return done;
}

int main(int argc, char **argv) {
    /* A target may silence stdio in its initializer (fuzz_args does):
     * keep the streams this driver reports on. */
    FILE *out = stdout;
    err = stderr;
    LLVMFuzzerInitialize(&argc, &argv);
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(err, "replay: no such file or directory: %s\n", argv[i]);
            return 1;
        }
        long k = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : (run_file(argv[i]) == 0 ? 1 : -1);
        if (k < 0) {
            fprintf(err, "replay: failed on %s\n", argv[i]);
            return 1;
        }
        total += k;
    }
    fprintf(out, "replay %s: %ld inputs\n", argc > 0 ? argv[0] : "?", total);
    return total > 0 ? 0 : 1;
}
