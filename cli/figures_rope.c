/* figures_rope.c — figures of the frequency-based schemes: wavelengths, RoPE
 * score vs offset, a vector rotating in its pairs, flips and aliasing, and the
 * scaling schemes side by side. */
#include "figures_internal.h"
#include "random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* A heap copy of o->freqs, or the default frequencies of (dim, base): NULL
 * with err filled on failure. pe_freqs is large (inline arrays). */
static pe_freqs *fig_freqs_new(const figure_opts *o, int64_t def_dim, char *err, size_t errlen) {
    pe_freqs *f = malloc(sizeof *f);
    if (f == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (o->freqs) {
        *f = *o->freqs;
        return f;
    }
    int st = pe_freqs_default(FIG_OR(o->dim, def_dim), FIG_OR(o->base, 10000.0), f);
    if (st != PE_OK) {
        fig_lib_error(st, err, errlen);
        free(f);
        return NULL;
    }
    return f;
}

int fig_wavelengths(const figure_opts *o, const char *path, char *err, size_t errlen) {
    const int64_t D = FIG_OR(o->dim, 128);
    const double bases[4] = {100.0, 1e4, 5e5, 1e8};
    const double context = (double)FIG_OR(o->count, 4096);
    plot_figure *fig;
    int st = fig_begin(o, 1, 1, "Wavelength 2π/ω_{i} per pair: where each pair completes a turn", &fig, err, errlen);
    if (st) return st;
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, NULL, "pair i", "wavelength (tokens)");
    plot_axes_options(ax, PLOT_LOG_Y | PLOT_INT_X);
    plot_axes_legend(ax, PLOT_LEGEND_NW);
    pe_freqs *f = malloc(sizeof *f);
    double x[PE_MAX_PAIRS], wl[PE_MAX_PAIRS];
    for (int k = 0; k < 4 && f && st == PE_OK; k++) {
        st = pe_freqs_default(D, bases[k], f);
        if (st == PE_OK) st = pe_pair_periods(f, 0, wl, NULL, NULL, NULL);
        if (st != PE_OK) {
            fig_lib_error(st, err, errlen);
            break;
        }
        for (int64_t i = 0; i < D / 2; i++) x[i] = (double)i;
        char label[48], b[32];
        fig_power_label(b, sizeof b, bases[k]);
        snprintf(label, sizeof label, "base %s", b);
        plot_line(ax, x, wl, (size_t)(D / 2), &(plot_style){.label = label});
    }
    free(f);
    if (st != PE_OK) {
        plot_figure_free(fig);
        return st;
    }
    char cl[64];
    snprintf(cl, sizeof cl, "context %g", context);
    plot_hline(ax, context, &(plot_style){.label = cl});
    return fig_finish(fig, path, err, errlen);
}

int fig_rope_score(const figure_opts *o, const char *path, char *err, size_t errlen) {
    pe_freqs *f = fig_freqs_new(o, 64, err, errlen);
    if (f == NULL) return PE_ERR_NOMEM;
    int st = PE_OK;
    const int64_t D = f->rotary_dim, K = FIG_OR(o->count, 200), n = 2 * K + 1;
    double *buf = malloc(sizeof(double) * (size_t)(3 * D + 3 * n));
    int64_t *offs = malloc(sizeof(int64_t) * (size_t)n);
    if (buf == NULL || offs == NULL) {
        free(f);
        free(buf);
        free(offs);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *q = buf, *k = q + D, *u = k + D, *x = u + D, *s = x + n, *c = s + n;
    cli_fill_uniform(q, 2 * D, FIG_OR(o->seed, 1));
    for (int64_t i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0; /* unit vector in each half-split pair */
    for (int64_t j = 0; j < n; j++) {
        offs[j] = j - K;
        x[j] = (double)(j - K);
    }
    st = pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, 1000, offs, n, s);
    if (st == PE_OK) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 1000, offs, n, c);
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else st = fig_begin(o, 2, 1, "Score vs relative position k = n - m", &fig, err, errlen);
    if (st == PE_OK) {
        plot_axes *a = plot_figure_axes(fig, 0, 0);
        plot_axes_labels(a, "RoPE ⟨R(m)q, R(m+k)k⟩ for fixed random q, k: not symmetric in k (direction-aware)",
                         NULL, "score");
        plot_line(a, x, s, (size_t)n, &(plot_style){.color = PLOT_PALETTE(0)});
        plot_vline(a, 0, NULL);
        plot_axes *b = plot_figure_axes(fig, 1, 0);
        plot_axes_labels(b, "sinusoidal PE(m)·PE(m+k) = Σ_{i} cos(k·ω_{i}): symmetric in k, blind to direction",
                         "relative position k", "dot product");
        plot_line(b, x, c, (size_t)n, &(plot_style){.color = PLOT_PALETTE(1)});
        plot_vline(b, 0, NULL);
        st = fig_finish(fig, path, err, errlen);
    }
    free(f);
    free(buf);
    free(offs);
    return st;
}

int fig_rotation(const figure_opts *o, const char *path, char *err, size_t errlen) {
    pe_freqs *f = fig_freqs_new(o, 64, err, errlen);
    if (f == NULL) return PE_ERR_NOMEM;
    int st = PE_OK;
    const int64_t D = f->rotary_dim;
    const int64_t pairs[3] = {0, D / 4 - 1, D / 2 - 1}; /* elements (0,1), (30,31), (62,63) at D = 64 */
    const int64_t positions[8] = {0, 1, 2, 3, 10, 100, 1000, 10000};
    float *x = malloc(sizeof(float) * (size_t)(8 * D));
    if (x == NULL) {
        free(f);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    for (int t = 0; t < 8; t++)
        for (int64_t j = 0; j < D; j++) x[t * D + j] = j % 2 == 0 ? 1.0f : 0.0f; /* (1, 0) in every pair */
    pe_positions pos = pe_positions_list(positions);
    pe_tensor tv = pe_tensor_dense(x, PE_F32, 8, 1, D);
    st = pe_rope_apply(f, PE_ROPE_INTERLEAVED, &pos, &tv, &tv, PE_ROPE_FORWARD);
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else {
        figure_opts wide = *o; /* three square panels: a short figure fits them */
        if (wide.width == 0 && wide.height == 0) {
            wide.width = 1500;
            wide.height = 560;
        }
        st = fig_begin(&wide, 1, 3, "One vector at positions 0 to 10^{4}: fast pairs spin, slow pairs creep",
                       &fig, err, errlen);
    }
    for (int c = 0; c < 3 && st == PE_OK; c++) {
        plot_axes *ax = plot_figure_axes(fig, 0, c);
        char title[96];
        snprintf(title, sizeof title, "pair (%lld, %lld), ω = %.3g", (long long)(2 * pairs[c]),
                 (long long)(2 * pairs[c] + 1), f->inv_freq[pairs[c]]);
        plot_axes_labels(ax, title, "x_{2i}", c == 0 ? "x_{2i+1}" : NULL);
        plot_axes_options(ax, PLOT_EQUAL);
        plot_axes_xlim(ax, -1.25, 1.25);
        plot_axes_ylim(ax, -1.25, 1.25);
        plot_axes_legend(ax, c == 2 ? PLOT_LEGEND_OUTSIDE : PLOT_LEGEND_NONE);
        for (int t = 0; t < 8; t++) {
            double a = x[t * D + 2 * pairs[c]], b = x[t * D + 2 * pairs[c] + 1];
            char label[24];
            snprintf(label, sizeof label, "p = %lld", (long long)positions[t]);
            plot_arrow(ax, 0, 0, a, b, &(plot_style){.label = label, .color = PLOT_PALETTE(t)});
        }
    }
    if (st == PE_OK) st = fig_finish(fig, path, err, errlen);
    free(x);
    free(f);
    return st;
}

int fig_flip(const figure_opts *o, const char *path, char *err, size_t errlen) {
    pe_freqs *f = fig_freqs_new(o, 128, err, errlen);
    if (f == NULL) return PE_ERR_NOMEM;
    int st = PE_OK;
    const int64_t half = f->rotary_dim / 2, k = FIG_OR(o->offset, 32000);
    double *v = malloc(sizeof(double) * 3 * (size_t)half);
    if (v == NULL) {
        free(f);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *phase = v, *turns = v + half, *x = v + 2 * half;
    st = pe_pair_periods(f, k, NULL, NULL, phase, turns);
    for (int64_t i = 0; i < half; i++) {
        x[i] = (double)i;
        phase[i] *= 180.0 / PI;
    }
    plot_figure *fig = NULL;
    char title[128];
    snprintf(title, sizeof title, "Every pair at offset %lld: phase and turns", (long long)k);
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else st = fig_begin(o, 2, 1, title, &fig, err, errlen);
    if (st == PE_OK) {
        plot_axes *a = plot_figure_axes(fig, 0, 0);
        plot_axes_labels(a, "phase k·ω_{i} mod 360°: past 180° the pair's contribution flips sign", NULL,
                         "degrees");
        plot_axes_options(a, PLOT_INT_X);
        plot_axes_ylim(a, 0, 360);
        plot_bars(a, x, phase, (size_t)half, 0, &(plot_style){.color = PLOT_PALETTE(0)});
        plot_hline(a, 180, &(plot_style){.label = "180°: the flip"});
        plot_axes *b = plot_figure_axes(fig, 1, 0);
        plot_axes_labels(b, "full turns k·ω_{i}/2π: above 1 the pair has wrapped (aliased)", "pair i", "turns");
        plot_axes_options(b, PLOT_LOG_Y | PLOT_INT_X);
        plot_line(b, x, turns, (size_t)half, &(plot_style){.color = PLOT_PALETTE(1), .marker = PLOT_CIRCLE});
        plot_hline(b, 1, &(plot_style){.label = "one turn"});
        st = fig_finish(fig, path, err, errlen);
    }
    free(v);
    free(f);
    return st;
}

int fig_scaling(const figure_opts *o, const char *path, char *err, size_t errlen) {
    const int64_t D = FIG_OR(o->dim, 128);
    const double base = FIG_OR(o->base, 500000.0);
    const int64_t L0 = 8192;
    const double factor = 8.0;
    static const pe_scaling_type types[5] = {PE_SCALING_LINEAR, PE_SCALING_NTK, PE_SCALING_DYNAMIC,
                                             PE_SCALING_YARN, PE_SCALING_LLAMA3};
    pe_freqs *f = malloc(sizeof *f), *d = malloc(sizeof *d);
    plot_figure *fig = NULL;
    int st = f && d ? PE_OK : PE_ERR_NOMEM;
    if (st == PE_OK) st = pe_freqs_default(D, base, d);
    if (st != PE_OK) {
        free(f);
        free(d);
        return fig_lib_error(st, err, errlen);
    }
    char title[160], b[32];
    fig_power_label(b, sizeof b, base);
    snprintf(title, sizeof title, "RoPE scaling schemes, factor %g, L_{0} = %lld, D = %lld, base %s", factor,
             (long long)L0, (long long)D, b);
    if ((st = fig_begin(o, 1, 1, title, &fig, err, errlen))) {
        free(f);
        free(d);
        return st;
    }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "scaled frequency relative to the default (1 = untouched, 1/8 = fully interpolated)",
                     "pair i (fast to slow)", "ω'_{i} / ω_{i}");
    plot_axes_options(ax, PLOT_LOG_Y | PLOT_INT_X);
    plot_axes_legend(ax, PLOT_LEGEND_SW);
    double x[PE_MAX_PAIRS], r[PE_MAX_PAIRS];
    for (int k = 0; k < 5 && st == PE_OK; k++) {
        pe_rope_scaling s = pe_rope_scaling_defaults(types[k], D);
        s.base = base;
        s.factor = factor;
        s.original_max_position = L0;
        s.max_position = L0;
        s.seq_len = 4 * L0; /* dynamic: a sequence four times the trained length */
        st = pe_freqs_from_scaling(&s, f, NULL);
        if (st != PE_OK) {
            fig_lib_error(st, err, errlen);
            break;
        }
        for (int64_t i = 0; i < D / 2; i++) {
            x[i] = (double)i;
            r[i] = f->inv_freq[i] / d->inv_freq[i];
        }
        char label[64];
        snprintf(label, sizeof label, "%s%s", pe_scaling_name(types[k]),
                 types[k] == PE_SCALING_DYNAMIC ? " (s = 4 L_{0})" : "");
        plot_line(ax, x, r, (size_t)(D / 2), &(plot_style){.label = label, .marker = PLOT_MARKER_NONE});
    }
    free(f);
    free(d);
    if (st != PE_OK) {
        plot_figure_free(fig);
        return st;
    }
    return fig_finish(fig, path, err, errlen);
}
