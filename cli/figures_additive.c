/* figures_additive.c — figures of the additive schemes: the sinusoidal
 * heatmap, waves, the base grid, similarity, binary square waves, the
 * normalized pitfall and the toy design's drift. */
#include "figures_internal.h"
#include "random.h"

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
    char title[160], b[32];
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
    const int64_t D = FIG_OR(o->dim, 128), n = FIG_OR(o->count, 200), start = o->start;
    const double base = FIG_OR(o->base, 10000.0);
    double *v;
    int st = sinusoidal_rows(D, base, start, n, &v, err, errlen);
    if (st) return st;
    plot_figure *fig;
    if ((st = fig_begin(o, 1, 1, "Each sinusoidal dimension is a wave of its own frequency", &fig, err, errlen))) {
        free(v);
        return st;
    }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, NULL, "position p", "sin(p·ω_{i})");
    plot_axes_legend(ax, PLOT_LEGEND_OUTSIDE);
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    const int64_t dims[5] = {0, 4, 12, 24, 40};
    for (int k = 0; x && y && k < 5; k++) {
        int64_t j = dims[k] < D ? dims[k] : D - 2;
        for (int64_t t = 0; t < n; t++) {
            x[t] = (double)(start + t);
            y[t] = v[t * D + j];
        }
        char label[64];
        double w = 0;
        pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
        p.base = base;
        pe_sinusoidal_frequency(&p, j / 2, &w);
        snprintf(label, sizeof label, "dim %lld (ω = %.3g)", (long long)j, w);
        plot_line(ax, x, y, (size_t)n, &(plot_style){.label = label});
    }
    free(x);
    free(y);
    free(v);
    return fig_finish(fig, path, err, errlen);
}

int fig_base_grid(const figure_opts *o, const char *path, char *err, size_t errlen) {
    const int64_t D = FIG_OR(o->dim, 128), n = FIG_OR(o->count, 1001);
    const double bases[3] = {100.0, 1e4, 1e8};
    const int64_t dims[4] = {0, D / 2, 3 * D / 4, D - 1};
    plot_figure *fig;
    int st = fig_begin(o, 3, 4, "Base choice: dims 0, D/2, 3D/4, D-1 over positions 0-1000 (rows: base)", &fig, err,
                       errlen);
    if (st) return st;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    for (int r = 0; r < 3 && x && y; r++) {
        double *v;
        if ((st = sinusoidal_rows(D, bases[r], 0, n, &v, err, errlen))) break;
        for (int c = 0; c < 4; c++) {
            plot_axes *ax = plot_figure_axes(fig, r, c);
            for (int64_t t = 0; t < n; t++) {
                x[t] = (double)t;
                y[t] = v[t * D + dims[c]];
            }
            char title[80], b[32];
            fig_power_label(b, sizeof b, bases[r]);
            snprintf(title, sizeof title, "base %s, dim %lld", b, (long long)dims[c]);
            plot_axes_labels(ax, title, r == 2 ? "position" : NULL, c == 0 ? "value" : NULL);
            plot_axes_ylim(ax, -1.1, 1.1);
            plot_line(ax, x, y, (size_t)n, &(plot_style){.color = PLOT_PALETTE(r), .width = 1.5});
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

int fig_similarity(const figure_opts *o, const char *path, char *err, size_t errlen) {
    const int64_t D = FIG_OR(o->dim, 128), n = FIG_OR(o->count, 128), start = o->start;
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    p.base = FIG_OR(o->base, 10000.0);
    pe_positions pos = pe_positions_range(start);
    double *S = malloc(sizeof(double) * (size_t)(n * n));
    if (S == NULL) {
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    int st = pe_similarity_additive(&p, &pos, n, S);
    if (st != PE_OK) {
        free(S);
        return fig_lib_error(st, err, errlen);
    }
    plot_figure *fig;
    if ((st = fig_begin(o, 1, 1, "PE·PE^{T}: similarity depends on the offset only, and falls with it", &fig, err,
                        errlen))) {
        free(S);
        return st;
    }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, NULL, "position n", "position m");
    plot_axes_options(ax, PLOT_INVERT_Y | PLOT_EQUAL | PLOT_INT_X | PLOT_INT_Y);
    plot_heatmap(ax, S, (size_t)n, (size_t)n,
                 &(plot_heatmap_opts){.cmap = PLOT_VIRIDIS, .x0 = (double)start, .x1 = (double)(start + n - 1),
                                      .y0 = (double)start, .y1 = (double)(start + n - 1),
                                      .cbar_label = "PE(m)·PE(n)"});
    free(S);
    return fig_finish(fig, path, err, errlen);
}

int fig_binary(const figure_opts *o, const char *path, char *err, size_t errlen) {
    const int64_t n = FIG_OR(o->count, 32);
    pe_additive_params p = pe_additive_defaults(PE_ADD_BINARY, pe_binary_nbits(n));
    p.length = n;
    const int64_t nb = p.dim;
    pe_positions pos = pe_positions_range(0);
    double *v = malloc(sizeof(double) * (size_t)(n * nb)), *x = malloc(sizeof(double) * (size_t)n),
           *y = malloc(sizeof(double) * (size_t)n);
    int64_t *d = malloc(sizeof(int64_t) * (size_t)n);
    int st = v && x && y && d ? pe_additive_encode(&p, &pos, n, v, PE_F64) : PE_ERR_NOMEM;
    pe_hamming_report rep;
    if (st == PE_OK) st = pe_binary_hamming(0, n - 1 > 0 ? n - 1 : 1, d, &rep);
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else st = fig_begin(o, 2, 1, "Binary encoding: square waves, and the jumps between neighbours", &fig, err, errlen);
    if (st == PE_OK) {
        plot_axes *ax = plot_figure_axes(fig, 0, 0);
        plot_axes_labels(ax, "bits of p (most significant at the top)", NULL, "bit");
        plot_axes_options(ax, PLOT_INT_X);
        double at[64];
        char names[64][32];
        const char *labels[64];
        for (int64_t j = 0; j < nb && j < 64; j++) {
            for (int64_t t = 0; t < n; t++) {
                x[t] = (double)t;
                y[t] = (double)(nb - 1 - j) * 1.5 + v[t * nb + j];
            }
            plot_step(ax, x, y, (size_t)n, &(plot_style){.color = PLOT_PALETTE(j)});
            at[j] = (double)(nb - 1 - j) * 1.5 + 0.5;
            snprintf(names[j], sizeof names[j], "2^{%lld}", (long long)(nb - 1 - j));
            labels[j] = names[j];
        }
        plot_axes_yticks(ax, at, labels, (size_t)(nb < 64 ? nb : 64));
        plot_axes *hx = plot_figure_axes(fig, 1, 0);
        plot_axes_labels(hx, "Hamming distance between p and p+1", "position p", "bits flipped");
        plot_axes_options(hx, PLOT_INT_X | PLOT_INT_Y);
        for (int64_t t = 0; t + 1 < n; t++) {
            x[t] = (double)t;
            y[t] = (double)d[t];
        }
        plot_bars(hx, x, y, (size_t)(n - 1), 0, &(plot_style){.color = PLOT_PALETTE(1)});
        st = fig_finish(fig, path, err, errlen);
    }
    free(v);
    free(x);
    free(y);
    free(d);
    return st;
}

int fig_normalized(const figure_opts *o, const char *path, char *err, size_t errlen) {
    (void)o;
    const int64_t lengths[4] = {4, 8, 16, 32};
    plot_figure *fig;
    int st = fig_begin(o, 1, 1, "Normalized positions p/(L-1): the same p means something else at every length",
                       &fig, err, errlen);
    if (st) return st;
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, NULL, "position p", "encoding value");
    plot_axes_options(ax, PLOT_INT_X);
    plot_axes_legend(ax, PLOT_LEGEND_SE);
    for (int k = 0; k < 4; k++) {
        double x[32], y[32], sp[32];
        int64_t L = lengths[k];
        for (int64_t p = 0; p < L; p++) {
            st = pe_normalized_inconsistency(p, &L, 1, &y[p], &sp[p]);
            if (st != PE_OK) {
                plot_figure_free(fig);
                return fig_lib_error(st, err, errlen);
            }
            x[p] = (double)p;
        }
        char label[32];
        snprintf(label, sizeof label, "L = %lld", (long long)L);
        plot_line(ax, x, y, (size_t)L, &(plot_style){.label = label, .marker = PLOT_CIRCLE});
    }
    plot_vline(ax, 2, &(plot_style){.label = "p = 2"});
    return fig_finish(fig, path, err, errlen);
}

int fig_toy_drift(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* Regime ii (Q1 = 0, K1 not): logit_mn = content + n (Q e_m)^T K 1. */
    const int64_t D = FIG_OR(o->dim, 16), L = FIG_OR(o->count, 256);
    const uint64_t seed = FIG_OR(o->seed, 1);
    double *buf = malloc(sizeof(double) * (size_t)(2 * D * D + 4 * D + 4 * L));
    if (buf == NULL) {
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *Q = buf, *K = Q + D * D, *em = K + D * D, *en = em + D, *pm = en + D, *pn = pm + D,
           *x = pn + D, *content = x + L, *logit = content + L, *w = logit + L;
    cli_fill_uniform(Q, 2 * D * D + D, seed);
    for (int64_t i = 0; i < 2 * D * D + D; i++) Q[i] /= sqrt((double)D);
    for (int64_t r = 0; r < D; r++) { /* Q 1 = 0: rows of Q sum to zero */
        double mean = 0;
        for (int64_t c = 0; c < D; c++) mean += Q[r * D + c] / (double)D;
        for (int64_t c = 0; c < D; c++) Q[r * D + c] -= mean;
    }
    const int64_t m = L - 1;
    int st = PE_OK;
    for (int64_t n = 0; n < L && st == PE_OK; n++) {
        for (int64_t i = 0; i < D; i++) { /* a fresh pseudo-random key token */
            en[i] = sin((double)(n * 7 + i * 13) * 0.618);
            pm[i] = (double)m;
            pn[i] = (double)n;
        }
        pe_logit_terms t;
        st = pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &t);
        x[n] = (double)n;
        content[n] = t.content_content;
        logit[n] = t.logit;
    }
    if (st != PE_OK) {
        free(buf);
        return fig_lib_error(st, err, errlen);
    }
    double mx = -INFINITY, sum = 0;
    for (int64_t n = 0; n < L; n++) mx = fmax(mx, logit[n]);
    for (int64_t n = 0; n < L; n++) sum += (w[n] = exp(logit[n] - mx));
    for (int64_t n = 0; n < L; n++) w[n] /= sum;
    plot_figure *fig;
    if ((st = fig_begin(o, 1, 2, "The toy design p_m = m·1 (Q·1 = 0): the logit drifts linearly with the key position",
                        &fig, err, errlen))) {
        free(buf);
        return st;
    }
    plot_axes *a = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(a, "logit of the last query against each key", "key position n", "logit");
    plot_axes_legend(a, PLOT_LEGEND_BEST);
    plot_line(a, x, logit, (size_t)L, &(plot_style){.label = "with toy positions"});
    plot_line(a, x, content, (size_t)L, &(plot_style){.label = "content only"});
    plot_axes *b = plot_figure_axes(fig, 0, 1);
    plot_axes_labels(b, "softmax attention weights", "key position n", "weight");
    plot_line(b, x, w, (size_t)L, &(plot_style){.color = PLOT_PALETTE(1)});
    free(buf);
    return fig_finish(fig, path, err, errlen);
}
