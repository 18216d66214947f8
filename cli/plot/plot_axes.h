/*
 * plot_axes.h — a panel's layout, axes and colour bar (plot_axes.c): the
 * top drawing layer, which plot_figure.c calls when it saves a figure.
 */
#ifndef PE_CLI_PLOT_AXES_H
#define PE_CLI_PLOT_AXES_H

#include "plot_model.h"

#include <cairo.h>

/* Font sizes for a figure. */
plot_fonts plot__fonts(const plot_figure *fig);

void plot__layout_panel(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                        double cx, double cy, double cw, double ch, plot_layout *L);
/* "label (×10^{e})" when the ticks carry a common factor, else the label. */
void plot__axis_label(const char *label, const char *mult, char *buf, size_t size);
void plot__draw_axes_under(cairo_t *cr, const plot_axes *ax, const plot_layout *L);
void plot__draw_axes_over(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                          const plot_layout *L);

void plot__draw_colorbar(cairo_t *cr, const plot_fonts *f, const plot_layout *L);

#endif
