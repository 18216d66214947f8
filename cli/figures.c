/* figures.c — the table of named figures and what they share. */
#include "figures.h"
#include "figures_internal.h"

#include <stdio.h>
#include <string.h>

const figure_entry figure_table[] = {
    {"sinusoidal-heatmap", "the sinusoidal encoding as a heatmap (positions x dimensions)", fig_sinusoidal_heatmap},
    {"waves", "individual sinusoidal dimensions as waves of different frequency", fig_waves},
    {"base-grid", "bases 100, 10^4, 10^8 x dims 0, 64, 96, 127 of D = 128 over positions 0-1000", fig_base_grid},
    {"wavelengths", "wavelength per pair on a log scale for several bases", fig_wavelengths},
    {"similarity", "the PE.PE^T similarity matrix", fig_similarity},
    {"rope-score", "RoPE score vs relative position for fixed q, k, against the symmetric sinusoidal dot", fig_rope_score},
    {"rotation", "a vector rotating in pairs (0,1), (30,31), (62,63) at several positions", fig_rotation},
    {"binary", "binary encoding as square waves, with neighbour Hamming distances", fig_binary},
    {"normalized", "the normalized encoding: one position, a different value at every length", fig_normalized},
    {"toy-drift", "the toy design p_m = m*1: the logit drifts with the key position", fig_toy_drift},
    {"flip", "per pair: phase at an offset (past 180 degrees?) and turns (aliasing)", fig_flip},
    {"scaling", "the frequencies of each RoPE scaling scheme side by side", fig_scaling},
};
const size_t figure_count = sizeof figure_table / sizeof figure_table[0];

const figure_entry *figure_find(const char *name) {
    for (size_t i = 0; i < figure_count; i++)
        if (strcmp(figure_table[i].name, name) == 0) return &figure_table[i];
    return NULL;
}

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
