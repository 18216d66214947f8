/*
 * tour.h — `posenc tour`: the seeds' story as claims, each with the number
 * that supports it (computed now by the library) and, where one helps, a
 * figure. tour_claims.c holds the story; tour_report.c writes index.html.
 */
#ifndef PE_CLI_TOUR_H
#define PE_CLI_TOUR_H

#include <stddef.h>
#include <stdio.h>

#define TOUR_MAX_ITEMS 64

typedef struct {
    const char *section; /* static: the section heading */
    char claim[320];
    char number[4096];
    char figure[64];     /* file name in the output directory, or "" */
} tour_item;

typedef struct {
    tour_item items[TOUR_MAX_ITEMS];
    int n;
    const char *dir;    /* output directory for figures and index.html */
    int draw;           /* 0: numbers only (--no-figures) */
    int experiment;     /* 1: train the --quick experiment (about a minute) */
    char err[512];      /* the first failure */
} tour;

/* Record and print one claim ("[n] claim" then "    number"). figure: the
 * name of a figure_table entry drawn into DIR/<figure>.png, or NULL. Returns
 * 0, or non-zero with t->err set. */
int tour_claim(tour *t, const char *section, const char *claim, const char *figure,
               const char *number_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Record the library's last error into t->err; returns status. */
int tour_fail(tour *t, int status);

/* The story, in order (tour_claims.c). Returns 0 or the first failure. */
int tour_run_all(tour *t);

/* DIR/index.html: one static page of every claim, number and figure. */
int tour_write_html(const tour *t, const char *path);

#endif
