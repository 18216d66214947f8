/*
 * plot_draw.h — the series of a panel and its legend (plot_draw.c), drawn
 * into a layout plot_axes.c computed. Above plot_text and plot_scale.
 */
#ifndef PE_CLI_PLOT_DRAW_H
#define PE_CLI_PLOT_DRAW_H

#include "plot_model.h"

#include <cairo.h>

void plot__draw_items(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                      const plot_layout *L, double device_scale);
void plot__legend_size(cairo_t *cr, const plot_axes *ax, const plot_fonts *f, double max_h,
                       double *w, double *h, int *cols);
void plot__draw_legend(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                       const plot_layout *L);

#endif
