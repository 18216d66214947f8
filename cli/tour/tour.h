/*
 * tour.h — `posenc tour`: the design notes' story as a lesson of checked
 * claims. Each claim computes its numbers now through the library, judges
 * them with a predicate, and says in a sentence what they show; a claim
 * whose predicate fails is reported as failed (the command then exits 1).
 *
 * tour_claims.c and tour_rope.c hold the claims, tour_compare.c the closing
 * table of every scheme on the notes' criteria, tour_experiment.c the
 * trained models' section, tour_lesson.c the sections' prose and formulas,
 * cli/figures/inputs.c the fixed inputs a claim and its figure share,
 * tour_report.c records claims and draws their figures, tour_html.c writes
 * index.html.
 */
#ifndef PE_CLI_TOUR_H
#define PE_CLI_TOUR_H

#include <stddef.h>
#include <stdio.h>

#define TOUR_MAX_ITEMS 64
#define TOUR_TABLE_ROWS 12
#define TOUR_TABLE_COLS 12

/* A small table a claim may carry (the experiment's), written as an HTML
 * table on the page so it reflows on a narrow screen. */
typedef struct {
    int rows, cols;                  /* row 0 is the header */
    int split;                       /* columns after this one are a second group; 0: none */
    char cell[TOUR_TABLE_ROWS][TOUR_TABLE_COLS][24];
} tour_table;

typedef struct {
    const char *section; /* static: the key of its tour_lesson section */
    const char *key;     /* static: the claim's stable name ("rope-relativity") */
    char claim[1024];     /* what the numbers show, in words */
    char number[2048];   /* the numbers themselves */
    char figure[64];     /* file name in the output directory, or "" */
    int holds;           /* the predicate's verdict */
    tour_table table;    /* rows == 0: none */
} tour_item;

typedef struct {
    tour_item items[TOUR_MAX_ITEMS];
    int n, failed;
    FILE *out;          /* where claims are printed; NULL: stdout */
    const char *dir;    /* output directory for figures and index.html */
    int draw;           /* 0: numbers only (--no-figures) */
    int experiment;     /* 1: train the --quick experiment (about 5 CPU-minutes) */
    /* Test-only fault injection (POSENC_TOUR_FAULT="key:index=value"): the
     * claim named key sees input number index replaced by value, so a test
     * can watch a predicate fail. fault_key[0] == 0: none. */
    char fault_key[48];
    int fault_index;
    double fault_value;
    int fault_used;
    char err[512];      /* the first error (not a failed claim: those are items) */
} tour;

/* Parse a POSENC_TOUR_FAULT value into t; -1 if it is malformed. */
int tour_set_fault(tour *t, const char *spec);

/* A claim's inputs (the setup its sentence is about: a base, a shift, a
 * length, a mask; for the experiment's claims, the measured table's cells):
 * if the test fault names this claim, inputs[index] is replaced. Call before
 * computing from them, so a perturbed input is a different experiment and
 * the predicate can fail on it. */
void tour_inputs(tour *t, const char *key, double *inputs, size_t n);

/* Record and print one judged claim: "[n] sentence" (or "[n] FAILED:
 * sentence"), then "    number", and draw `figure` (a figure_table name,
 * or NULL) into DIR/<figure>.png. Returns 0 (also for a failed claim), or
 * non-zero with t->err set when the claim could not be recorded or drawn. */
int tour_claim(tour *t, const char *section, const char *key, int holds, const char *figure,
               const char *sentence, const char *number_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
/* The item tour_claim recorded last (to attach a table). */
tour_item *tour_last(tour *t);

/* Record the library's last error into t->err; returns status. */
int tour_fail(tour *t, int status);

/* The story, in order. Returns 0 or the first error (failed claims are not
 * errors: they are counted in t->failed). */
int tour_run_all(tour *t);
/* The parts of the story (tour_claims.c, tour_rope.c, tour_experiment.c). */
int tour_additive_claims(tour *t);
int tour_rope_claims(tour *t);
int tour_scaling_claims(tour *t);
int tour_compare_claims(tour *t); /* tour_compare.c: the closing table */
int tour_experiment_claims(tour *t);

/* DIR/index.html: one static page of every section, claim, number and
 * figure (tour_report.c opens the file, tour_html.c writes the body). 0,
 * or -1 with the reason, naming the file, in err. */
int tour_write_html(const tour *t, const char *path, char *err, size_t errlen);
void tour_html_page(const tour *t, FILE *f);

#endif
