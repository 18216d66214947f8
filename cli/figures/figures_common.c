/* figures_common.c — what every figure file uses to open, save and report
 * a figure (figures_common.h). Below the figure files; the table of named
 * figures (figures.c) sits above them. */
#include "figures_common.h"

#include <stdio.h>

int fig_begin(const figure_opts *o, int rows, int cols, const char *title, plot_figure **fig,
              char *err, size_t errlen) {
    plot_figure_opts fo = {o->width, o->height, o->scale, rows, cols, title};
    int st = plot_figure_create(&fo, fig);
    if (st != PLOT_OK) snprintf(err, errlen, "cannot create the figure: %s", plot_strerror(st));
    return st;
}

int fig_finish(plot_figure *fig, const char *path, char *err, size_t errlen) {
    int st = plot_figure_save(fig, path);
    if (st != PLOT_OK) snprintf(err, errlen, "%s", plot_figure_error(fig));
    plot_figure_free(fig);
    return st;
}

int fig_lib_error(int status, char *err, size_t errlen) {
    snprintf(err, errlen, "%s: %s", pe_strerror(status), pe_last_error());
    return status;
}

void fig_power_label(char *buf, size_t n, double v) {
    double e = log10(v);
    if (v > 0 && fabs(e - nearbyint(e)) < 1e-9 && fabs(e) >= 2)
        snprintf(buf, n, "10^{%d}", (int)nearbyint(e));
    else
        snprintf(buf, n, "%g", v);
}
