/* figures_common.h — helpers shared by the figure files (figures_common.c). */
#ifndef PE_CLI_FIGURES_COMMON_H
#define PE_CLI_FIGURES_COMMON_H

#include "figures.h"
#include "../plot/plot.h"

#include <math.h>

/* Create a figure of o's size; on failure err is filled. */
int fig_begin(const figure_opts *o, int rows, int cols, const char *title, plot_figure **fig,
              char *err, size_t errlen);
/* Save (reporting into err) and free. */
int fig_finish(plot_figure *fig, const char *path, char *err, size_t errlen);
/* err = the library's message; returns status. */
int fig_lib_error(int status, char *err, size_t errlen);
/* "10^{4}" for exact powers of ten >= 100, else "%g". */
void fig_power_label(char *buf, size_t n, double v);

/* Option with a default. */
#define FIG_OR(v, def) ((v) ? (v) : (def))

#endif
