/*
 * plot_scale.h — the numbers under an axis (plot_scale.c): nice steps, tick
 * positions and labels, and the map from data values to figure pixels. The
 * bottom of the plotting layer beside plot_text.h; knows no cairo.
 */
#ifndef PE_CLI_PLOT_SCALE_H
#define PE_CLI_PLOT_SCALE_H

#include <stdbool.h>
#include <stddef.h>

/* ---- ticks */
#define PLOT_MAX_TICKS 64
typedef struct {
    double v;
    char label[64]; /* "" for a minor tick */
} plot_tick;
typedef struct {
    plot_tick t[PLOT_MAX_TICKS];
    int n;
    char mult[32]; /* "×10^{e}" when labels are mantissas of a common power; else "" */
} plot_ticks;

/* Appends a tick (dropped past PLOT_MAX_TICKS); label "" for a minor tick. */
void plot__push_tick(plot_ticks *out, double v, const char *label);
/* The smallest 1, 2 or 5 × 10^k that is >= raw (raw > 0). */
double plot__nice_step(double raw);
/* Multiples of `step` in [lo, hi], labelled with as many decimals as the
 * step needs. When the largest |tick| is >= 1e6 or < 1e-3 the labels are
 * mantissas and out->mult holds the common factor "×10^{e}". */
void plot__linear_ticks(double lo, double hi, double step, plot_ticks *out);
/* Log-axis ticks for [lo, hi] (lo > 0): labelled decades "10^{k}" every
 * `stride` decades, unlabelled minor ticks 2..9 × 10^k when stride is 1 and
 * `minor`. Under 2.5 decades: 1-2-5 ticks with numbers (only the 1s when
 * stride > 1); within a decade, linear ticks. */
void plot__log_ticks(double lo, double hi, int stride, bool minor, plot_ticks *out);
/* A value as text with the decimals that `step` needs, e.g. "0.25", "−3"
 * (U+2212 minus); scientific "2×10^{6}" for steps >= 1e5 or tiny values. */
void plot__format_number(double v, double step, char *buf, size_t size);

/* ---- a scale maps data to device-independent figure pixels */
typedef struct {
    double lo, hi;  /* data limits (lo < hi, > 0 when log) */
    bool log;
    double p0, p1;  /* pixel of lo and of hi (p1 < p0 for y, swapped when inverted) */
} plot_scale;
double plot__map(const plot_scale *s, double v); /* NAN if v cannot be placed */

#endif
