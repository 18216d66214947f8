/*
 * plot_text.h — text with ^{}/_{} markup, colours, colormaps and pixel
 * snapping (plot_text.c): the bottom of the plotting layer, beside
 * plot_scale.h. Includes nothing of the layers above it.
 */
#ifndef PE_CLI_PLOT_TEXT_H
#define PE_CLI_PLOT_TEXT_H

#include "plot.h"

#include <cairo.h>

#define PLOT_PI 3.14159265358979323846
#define PLOT_CAP 0.73  /* cap height of DejaVu Sans, in em: text box above the baseline */
#define PLOT_DESC 0.21 /* descent used for layout, in em: text box below the baseline */

/* Width of a string with markup at font size `size` (logical px). */
double plot__text_width(cairo_t *cr, const char *s, double size, bool bold);
/* Draws s so that the point (x, y) is at fraction (ha, va) of its box:
 * ha 0 left, 0.5 centre, 1 right; va 0 top, 0.5 middle, 1 bottom.
 * angle in radians, counter-clockwise (π/2 for a y-axis label). */
void plot__draw_text(cairo_t *cr, const char *s, double x, double y, double size, bool bold,
                     double ha, double va, double angle);
void plot__set_rgb(cairo_t *cr, uint32_t rgb, double alpha);
uint32_t plot__palette(int k);
uint32_t plot__cmap(plot_cmap cmap, double t); /* t in [0, 1] */
/* Snap a coordinate so a line of `width` px is crisp on the device. */
double plot__snap(cairo_t *cr, double v, double width);

#endif
