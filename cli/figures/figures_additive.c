/* figures_additive.c — figures of the sinusoidal encoding: the heatmap,
 * the waves of PE(7) at D = 4, the base grid, the shift matrix M_17 and the
 * similarity of codes. Each uses its claim's parameters and marks the
 * claim's number (the four-term bars are in figures_toy.c). */
#include "figures_common.h"
#include "../random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of a sinusoidal encoding for positions start..start+count-1. */
static int sinusoidal_rows(int64_t D, double base, int64_t start, int64_t count, double **out,
                           char *err, size_t errlen) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    p.base = base;
    pe_positions pos = pe_positions_range(start);
    double *v = malloc(sizeof(double) * (size_t)(count * (D > 0 ? D : 1)));
    if (v == NULL) {
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    int st = pe_additive_encode(&p, &pos, count, v, PE_F64);
    if (st != PE_OK) {
        free(v);
        return fig_lib_error(st, err, errlen);
    }
    *out = v;
    return PE_OK;
}

int fig_sinusoidal_heatmap(const figure_opts *o, const char *path, char *err, size_t errlen) {
    const int64_t D = FIG_OR(o->dim, 128), n = FIG_OR(o->count, 100), start = o->start;
    const double base = FIG_OR(o->base, 10000.0);
    double *v;
    int st = sinusoidal_rows(D, base, start, n, &v, err, errlen);
    if (st) return st;
    char title[256], b[32];
    fig_power_label(b, sizeof b, base);
    snprintf(title, sizeof title, "Sinusoidal positional encoding (D = %lld, base %s)", (long long)D, b);
    plot_figure *fig;
    if ((st = fig_begin(o, 1, 1, title, &fig, err, errlen))) {
        free(v);
        return st;
    }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "even columns sin(p·ω_{i}), odd columns cos(p·ω_{i}); fast pairs on the left",
                     "dimension", "position");
    plot_axes_options(ax, PLOT_INVERT_Y | PLOT_INT_X | PLOT_INT_Y);
    plot_heatmap(ax, v, (size_t)n, (size_t)D,
                 &(plot_heatmap_opts){.cmap = PLOT_DIVERGING, .vmin = -1, .vmax = 1,
                                      .y0 = (double)start, .y1 = (double)(start + n - 1),
                                      .cbar_label = "value"});
    free(v);
    return fig_finish(fig, path, err, errlen);
}

int fig_waves(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim: PE(7) at D = 4, base 10^4. One panel per dimension, the
     * same x and y axes in each; dots at the integer positions, a thin
     * curve of the same wave between them. */
    const int64_t D = FIG_OR(o->dim, 4), n = FIG_OR(o->count, 21), start = o->start, mark = 7;
    const double base = FIG_OR(o->base, 10000.0);
    if (D > 8) {
        snprintf(err, errlen, "waves draws one panel per dimension: --dim at most 8");
        return PE_ERR_DIM;
    }
    double *v;
    int st = sinusoidal_rows(D, base, start, n, &v, err, errlen);
    if (st) return st;
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    p.base = base;
    char title[256];
    snprintf(title, sizeof title, "PE(p) at D = %lld, one panel per dimension; p = %lld marked", (long long)D,
             (long long)mark);
    figure_opts tall = *o;
    if (tall.width == 0 && tall.height == 0) {
        tall.width = 1200;
        tall.height = (int)(180 * D + 120);
    }
    plot_figure *fig;
    if ((st = fig_begin(&tall, (int)D, 1, title, &fig, err, errlen))) {
        free(v);
        return st;
    }
    const int64_t fine = 20 * (n - 1) + 1;
    double *x = malloc(sizeof(double) * (size_t)(2 * n + 2 * fine)), *y = x ? x + n : NULL, *xf = y ? y + n : NULL;
    double *yf = xf ? xf + fine : NULL;
    for (int64_t j = 0; x && j < D; j++) {
        double w = 0;
        pe_sinusoidal_frequency(&p, j / 2, &w);
        plot_axes *ax = plot_figure_axes(fig, (int)j, 0);
        char sub[256];
        snprintf(sub, sizeof sub, "dim %lld: %s(p·ω_{%lld}), ω_{%lld} = %g", (long long)j, j % 2 ? "cos" : "sin",
                 (long long)(j / 2), (long long)(j / 2), w);
        plot_axes_labels(ax, sub, j == D - 1 ? "position p" : NULL, "value");
        plot_axes_options(ax, PLOT_INT_X);
        plot_axes_xlim(ax, (double)start - 0.5, (double)(start + n - 1) + 0.5);
        plot_axes_ylim(ax, -1.3, 1.3);
        for (int64_t t = 0; t < fine; t++) { /* the wave between the positions, for the eye */
            xf[t] = (double)start + (double)t / 20.0;
            yf[t] = j % 2 ? cos(xf[t] * w) : sin(xf[t] * w);
        }
        plot_line(ax, xf, yf, (size_t)fine, &(plot_style){.color = PLOT_GREY, .width = 1, .alpha = 0.6});
        for (int64_t t = 0; t < n; t++) {
            x[t] = (double)(start + t);
            y[t] = v[t * D + j];
        }
        plot_scatter(ax, x, y, (size_t)n, &(plot_style){.color = PLOT_PALETTE(j / 2), .marker_size = 7});
        if (mark >= start && mark < start + n) {
            const double mv = v[(mark - start) * D + j];
            char note[160];
            snprintf(note, sizeof note, "PE(7)_{%lld} = %.4f", (long long)j, mv);
            const double mx = (double)mark;
            plot_scatter(ax, &mx, &mv, 1,
                         &(plot_style){.color = PLOT_BLACK, .marker = PLOT_CIRCLE, .marker_size = 16, .alpha = 0.35});
            plot_text(ax, mx, mv, note, mv > 0 ? PLOT_AT_SE : PLOT_AT_NE, PLOT_AUTO);
        }
    }
    free(x);
    free(v);
    return fig_finish(fig, path, err, errlen);
}

int fig_base_grid(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim: D = 128, bases 100, 10^4, 10^8, 1000 tokens. Dim 0 turns
     * once per 2π tokens at every base: over 1000 positions it would be a
     * solid block, so its column shows the first 60 positions; the other
     * columns show 0..1000. Each panel says how many turns it makes. */
    const int64_t D = FIG_OR(o->dim, 128), n = 1001, zoom = 61;
    const double bases[3] = {100.0, 1e4, 1e8};
    const int64_t dims[4] = {0, D / 2, 3 * D / 4, D - 1};
    int64_t complete[3] = {0, 0, 0};
    for (int r = 0; r < 3; r++) {
        pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
        p.base = bases[r];
        for (int64_t i = 0; i < D / 2; i++) {
            double w = 0;
            int s = pe_sinusoidal_frequency(&p, i, &w);
            if (s != PE_OK) return fig_lib_error(s, err, errlen);
            complete[r] += 2 * 3.14159265358979323846 / w <= 1000.0;
        }
    }
    char title[256];
    snprintf(title, sizeof title,
             "Base choice, D = %lld: pairs completing a turn within 1000 tokens: %lld (base 100), %lld (10^{4}), "
             "%lld (10^{8}) of %lld", (long long)D, (long long)complete[0], (long long)complete[1],
             (long long)complete[2], (long long)(D / 2));
    figure_opts big = *o;
    if (big.width == 0 && big.height == 0) {
        big.width = 1500;
        big.height = 900;
    }
    plot_figure *fig;
    int st = fig_begin(&big, 3, 4, title, &fig, err, errlen);
    if (st) return st;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    for (int r = 0; r < 3 && x && y; r++) {
        double *v;
        if ((st = sinusoidal_rows(D, bases[r], 0, n, &v, err, errlen))) break;
        pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
        p.base = bases[r];
        for (int c = 0; c < 4; c++) {
            plot_axes *ax = plot_figure_axes(fig, r, c);
            const int64_t len = c == 0 ? zoom : n;
            for (int64_t t = 0; t < len; t++) {
                x[t] = (double)t;
                y[t] = v[t * D + dims[c]];
            }
            double w = 0;
            pe_sinusoidal_frequency(&p, dims[c] / 2, &w);
            char sub[256], b[32];
            fig_power_label(b, sizeof b, bases[r]);
            snprintf(sub, sizeof sub, "base %s, dim %lld: %.3g turns / 1000", b, (long long)dims[c],
                     1000.0 * w / (2 * 3.14159265358979323846));
            plot_axes_labels(ax, sub, r == 2 ? (c == 0 ? "position (first 60)" : "position") : NULL,
                             c == 0 ? "value" : NULL);
            plot_axes_xlim(ax, 0, (double)(len - 1));
            plot_axes_ylim(ax, -1.1, 1.1);
            plot_line(ax, x, y, (size_t)len,
                      &(plot_style){.color = PLOT_PALETTE(r), .width = 1.5,
                                    .marker = c == 0 ? PLOT_CIRCLE : PLOT_MARKER_NONE, .marker_size = 3});
        }
        free(v);
    }
    free(x);
    free(y);
    if (st) {
        plot_figure_free(fig);
        return st;
    }
    return fig_finish(fig, path, err, errlen);
}

int fig_shift(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim: D = 64, k = 17, p = 0, 1000, 123456. Per pair, the unit
     * circle: PE(p) (solid arrow), M_17·PE(p) (dashed arrow) landing on
     * PE(p + 17) (cross). The same turn 17·ω_i at every p. */
    const int64_t D = 64, k = 17, ps[3] = {0, 1000, 123456}, pairs[3] = {0, 8, 16};
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    double a[3][64], b[3][64], ma[3][64], worst = 0;
    for (int r = 0; r < 3; r++) {
        pe_positions pa = pe_positions_range(ps[r]), pb = pe_positions_range(ps[r] + k);
        int st = pe_additive_encode(&p, &pa, 1, a[r], PE_F64);
        if (st == PE_OK) st = pe_additive_encode(&p, &pb, 1, b[r], PE_F64);
        if (st == PE_OK) st = pe_shift_apply(&p, k, a[r], ma[r]);
        if (st != PE_OK) return fig_lib_error(st, err, errlen);
        for (int j = 0; j < D; j++) worst = fmax(worst, fabs(ma[r][j] - b[r][j]));
    }
    figure_opts wide = *o;
    if (wide.width == 0 && wide.height == 0) {
        wide.width = 1500;
        wide.height = 500;
    }
    char title[256];
    snprintf(title, sizeof title, "One matrix M_{17} for every p: M_{17}·PE(p) (dashed) lands on PE(p+17) (×), "
             "max error %.1g", worst);
    plot_figure *fig;
    int st = fig_begin(&wide, 1, 3, title, &fig, err, errlen);
    if (st) return st;
    for (int c = 0; c < 3; c++) {
        plot_axes *ax = plot_figure_axes(fig, 0, c);
        double w = 0;
        pe_sinusoidal_frequency(&p, pairs[c], &w);
        char sub[256];
        snprintf(sub, sizeof sub, "pair %lld (ω = %g): turned by 17ω = %.3g rad", (long long)pairs[c], w, 17 * w);
        plot_axes_labels(ax, sub, "cos(p·ω)", c == 0 ? "sin(p·ω)" : NULL);
        plot_axes_options(ax, PLOT_EQUAL);
        /* the same room right of the circle in every panel: equal panels,
         * and the legend of the last one fits inside it */
        plot_axes_xlim(ax, -1.3, 2.3);
        plot_axes_ylim(ax, -1.3, 1.3);
        plot_axes_legend(ax, c == 2 ? PLOT_LEGEND_NE : PLOT_LEGEND_NONE);
        const int64_t s = 2 * pairs[c], co = s + 1; /* interleaved: sin at 2i, cos at 2i+1 */
        for (int r = 0; r < 3; r++) {
            char l1[96];
            snprintf(l1, sizeof l1, "p = %lld", (long long)ps[r]);
            plot_arrow(ax, 0, 0, a[r][co], a[r][s], &(plot_style){.label = l1, .color = PLOT_PALETTE(r)});
            plot_arrow(ax, 0, 0, ma[r][co], ma[r][s], &(plot_style){.color = PLOT_PALETTE(r), .dash = PLOT_DASHED});
            plot_scatter(ax, &b[r][co], &b[r][s], 1,
                         &(plot_style){.color = PLOT_PALETTE(r), .marker = PLOT_CROSS, .marker_size = 14});
        }
    }
    return fig_finish(fig, path, err, errlen);
}

int fig_similarity(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim: D = 64, PE(100)·PE(107) against PE(100)·PE(93). */
    const int64_t D = FIG_OR(o->dim, 64), n = FIG_OR(o->count, 81), start = o->count ? o->start : 60, m = 100;
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    p.base = FIG_OR(o->base, 10000.0);
    pe_positions pos = pe_positions_range(start);
    double *S = malloc(sizeof(double) * (size_t)(n * n + 2 * n));
    if (S == NULL) {
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *x = S + n * n, *row = x + n;
    int st = pe_similarity_additive(&p, &pos, n, S);
    if (st != PE_OK) {
        free(S);
        return fig_lib_error(st, err, errlen);
    }
    figure_opts wide = *o;
    if (wide.width == 0 && wide.height == 0) {
        wide.width = 1500;
        wide.height = 640;
    }
    plot_figure *fig;
    if ((st = fig_begin(&wide, 1, 2, "PE(m)·PE(n) depends on the offset only and is even in it", &fig, err, errlen))) {
        free(S);
        return st;
    }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    char sub[256];
    snprintf(sub, sizeof sub, "D = %lld, positions %lld-%lld", (long long)D, (long long)start,
             (long long)(start + n - 1));
    plot_axes_labels(ax, sub, "position n", "position m");
    plot_axes_options(ax, PLOT_INVERT_Y | PLOT_EQUAL | PLOT_INT_X | PLOT_INT_Y);
    plot_heatmap(ax, S, (size_t)n, (size_t)n,
                 &(plot_heatmap_opts){.cmap = PLOT_VIRIDIS, .x0 = (double)start, .x1 = (double)(start + n - 1),
                                      .y0 = (double)start, .y1 = (double)(start + n - 1),
                                      .cbar_label = "PE(m)·PE(n)"});
    const int in = m >= start && m + 7 < start + n && m - 7 >= start;
    plot_axes *b = plot_figure_axes(fig, 0, 1);
    plot_axes_labels(b, in ? "row m = 100 of the matrix: mirror-symmetric about n = 100" : "row m = start",
                     "position n", "PE(100)·PE(n)");
    plot_axes_options(b, PLOT_INT_X);
    const int64_t mr = in ? m : start;
    for (int64_t j = 0; j < n; j++) {
        x[j] = (double)(start + j);
        row[j] = S[(mr - start) * n + j];
    }
    plot_line(b, x, row, (size_t)n, &(plot_style){.color = PLOT_PALETTE(0)});
    if (in) {
        const double xs[2] = {(double)(m + 7), (double)(m - 7)};
        const double ys[2] = {S[(m - start) * n + (m + 7 - start)], S[(m - start) * n + (m - 7 - start)]};
        plot_scatter(ax, xs, (const double[2]){(double)m, (double)m}, 2,
                     &(plot_style){.color = PLOT_PALETTE(1), .marker = PLOT_CROSS, .marker_size = 14});
        plot_scatter(b, xs, ys, 2, &(plot_style){.color = PLOT_PALETTE(1), .marker_size = 10});
        char n1[96], n2[96];
        snprintf(n1, sizeof n1, "n = 107: %.4f", ys[0]);
        snprintf(n2, sizeof n2, "n = 93: %.4f", ys[1]);
        plot_text(b, xs[0], ys[0], n1, PLOT_AT_NE, PLOT_AUTO);
        plot_text(b, xs[1], ys[1], n2, PLOT_AT_NW, PLOT_AUTO);
        plot_vline(b, (double)m, NULL);
    }
    free(S);
    return fig_finish(fig, path, err, errlen);
}
