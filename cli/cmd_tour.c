/* cmd_tour.c — `posenc tour [--out DIR]`: the main job (`make run`). */
#include "commands.h"
#include "tour/tour.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const cli_opt opts[] = {
    {"out", "DIR", "where figures and index.html go (default ./tour)"},
    {"no-figures", NULL, "print the claims and numbers only; write nothing"},
    {"no-experiment", NULL, "skip training the tiny models (the last section, about 5 CPU-minutes)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_tour_spec = {
    "tour",
    "[--out DIR] [--no-figures] [--no-experiment]",
    "the design notes' story as a lesson of checked claims, with figures",
    "Walks the design notes in order - bag of words, raw integers and the four terms,\n"
    "normalized, binary, sinusoidal (base, sin and cos, the shift matrix M_k,\n"
    "sine alone, entanglement, symmetry), learned, RoPE (rotation, relativity, direction,\n"
    "locality, the flip, aliasing, near-collisions, pair layouts, the 34-token gap, added\n"
    "once or rotated in every layer), the scaling schemes and NTK-aware scaling, and\n"
    "train short, test long: tiny models trained in C (posenc experiment --quick).\n"
    "Each claim computes its numbers now, tests them with a predicate and says what\n"
    "they show; a claim whose test fails is printed as FAILED. The figures go into DIR\n"
    "with DIR/index.html, one static page (formulas in MathML, no network).\n"
    "Exit status: 0 when every claim holds; 3 when the tour ran to the end and a claim\n"
    "failed (the page is still written, the failure marked, the claims named on stderr);\n"
    "1 on an error, 2 on a usage error. `make run` runs it and passes 3 on as a verdict,\n"
    "not a failed build.",
    opts,
    0,
    0,
    "  posenc tour\n"
    "  posenc tour --out /tmp/tour && xdg-open /tmp/tour/index.html\n",
};

/* The exit status of a tour that ran to the end with a claim that did not
 * hold: a verdict, kept apart from errors (1) and usage errors (2). */
enum { TOUR_CLAIMS_FAILED = 3 };

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
    /* Test-only: perturb one claim's input to watch its predicate fail
     * (tests/cli/tour.sh). Announced, so nobody mistakes the result. */
    const char *fault = getenv("POSENC_TOUR_FAULT");
    if (fault && *fault && tour_set_fault(t, fault) != 0) {
        free(t);
        return cli_usage_error(spec, "POSENC_TOUR_FAULT='%s' is not KEY:INDEX=VALUE", fault);
    }
    printf("posenc %s tour: the claims of the design notes, checked with numbers.\n", pe_version_string());
    if (t->fault_key[0])
        printf("(test fault: input %d of claim '%s' set to %g)\n", t->fault_index, t->fault_key, t->fault_value);
    int st = tour_run_all(t);
    if (st != 0) {
        int r = cli_runtime_error(spec, "%s", t->err);
        free(t);
        return r;
    }
    if (t->draw) {
        char path[1024];
        snprintf(path, sizeof path, "%s/index.html", t->dir);
        char err[1024] = "";
        if (tour_write_html(t, path, err, sizeof err) != 0) {
            free(t);
            return cli_runtime_error(spec, "%s", err[0] ? err : path);
        }
        if (t->failed)
            printf("\n%d of %d claims hold, %d FAILED; open %s in a browser.\n", t->n - t->failed, t->n,
                   t->failed, path);
        else
            printf("\n%d claims checked; open %s in a browser.\n", t->n, path);
    } else {
        if (t->failed)
            printf("\n%d of %d claims hold, %d FAILED.\n", t->n - t->failed, t->n, t->failed);
        else
            printf("\n%d claims checked.\n", t->n);
    }
    if (t->fault_key[0] && !t->fault_used) {
        int r = cli_runtime_error(spec, "POSENC_TOUR_FAULT names no input of a claim that ran: '%s' index %d",
                                  t->fault_key, t->fault_index);
        free(t);
        return r;
    }
    if (t->failed) {
        char list[256] = "";
        for (int i = 0; i < t->n; i++)
            if (!t->items[i].holds)
                snprintf(list + strlen(list), sizeof list - strlen(list), " [%d] %s", i + 1, t->items[i].key);
        fprintf(stderr, "posenc tour: %d claim%s FAILED:%s\n", t->failed, t->failed > 1 ? "s" : "",
                list);
        int r = cli_close_output(spec, stdout, NULL);
        free(t);
        return r != CLI_OK ? r : TOUR_CLAIMS_FAILED;
    }
    free(t);
    return cli_close_output(spec, stdout, NULL);
}
