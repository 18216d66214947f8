/* cmd_tour.c — `posenc tour [--out DIR]`: the main job (`make run`). */
#include "commands.h"
#include "tour.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const cli_opt opts[] = {
    {"out", "DIR", "where figures and index.html go (default ./tour)"},
    {"no-figures", NULL, "print the claims and numbers only; write nothing"},
    {"no-experiment", NULL, "skip training the tiny models (the last section, about a minute)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_tour_spec = {
    "tour",
    "[--out DIR] [--no-figures] [--no-experiment]",
    "the seeds' story: each claim with its number and figure",
    "Walks the design notes in order - bag of words, raw integers, normalized, binary,\n"
    "sinusoidal (base choice, why sin and cos, the shift matrix, entanglement, symmetry),\n"
    "learned (no extrapolation), RoPE (relativity, direction, locality, the slow pair past\n"
    "180 degrees, aliasing), the scaling schemes, and train-short-test-long: tiny models\n"
    "trained in C (posenc experiment --quick). For each claim it prints one line with\n"
    "the number that supports it, computed now; it draws the figures into DIR and writes\n"
    "DIR/index.html, one static page to open in a browser. `make run` runs it.",
    opts,
    0,
    0,
    "  posenc tour\n"
    "  posenc tour --out /tmp/tour && xdg-open /tmp/tour/index.html\n",
};

/* mkdir -p for one level (the parent must exist). */
static int ensure_dir(const char *dir) {
    struct stat st;
    if (stat(dir, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    return mkdir(dir, 0777) == 0 ? 0 : errno;
}

int cmd_tour(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    tour *t = calloc(1, sizeof *t);
    if (t == NULL) return cli_runtime_error(spec, "out of memory");
    t->dir = cli_get(&a, "out") ? cli_get(&a, "out") : "tour";
    t->draw = !cli_has(&a, "no-figures");
    t->experiment = !cli_has(&a, "no-experiment");
    if (t->draw && cli_has(&a, "out") && strlen(t->dir) > 900) {
        free(t);
        return cli_usage_error(spec, "--out: the directory name is too long");
    }
    if (t->draw) {
        int e = ensure_dir(t->dir);
        if (e != 0) {
            int r = cli_runtime_error(spec, "cannot create %s: %s", t->dir, strerror(e));
            free(t);
            return r;
        }
    }
    printf("posenc %s tour: the claims of the design notes, checked with numbers.\n", pe_version_string());
    int st = tour_run_all(t);
    if (st != 0) {
        int r = cli_runtime_error(spec, "%s", t->err);
        free(t);
        return r;
    }
    if (t->draw) {
        char path[1024];
        snprintf(path, sizeof path, "%s/index.html", t->dir);
        if (tour_write_html(t, path) != 0) {
            free(t);
            return cli_runtime_error(spec, "cannot write %s", path);
        }
        printf("\n%d claims checked; open %s in a browser.\n", t->n, path);
    } else {
        printf("\n%d claims checked.\n", t->n);
    }
    free(t);
    return cli_close_output(spec, stdout, NULL);
}
