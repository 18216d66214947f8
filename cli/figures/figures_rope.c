/* figures_rope.c — figures of RoPE in the tour's order: the rotation of the
 * claim's q, relativity, direction, locality, the slow pair's flip, fast
 * pairs' aliasing, near-collisions, and the scaling schemes (plus the
 * wavelengths per base, for `posenc plot`). Each uses its claim's inputs
 * (inputs.h) and marks the claim's number. */
#include "figures_common.h"
#include "../random.h"
#include "inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* o->freqs, or the default frequencies of (dim, base), into *f (err filled
 * on failure). */
static int fig_freqs_get(const figure_opts *o, int64_t def_dim, pe_freqs *f, char *err, size_t errlen) {
    if (o->freqs) {
        *f = *o->freqs;
        return PE_OK;
    }
    int st = pe_freqs_default(FIG_OR(o->dim, def_dim), FIG_OR(o->base, 10000.0), f);
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    return PE_OK;
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
    pe_freqs fbuf, *f = &fbuf;
    double x[PE_MAX_PAIRS], wl[PE_MAX_PAIRS];
    for (int k = 0; k < 4 && st == PE_OK; k++) {
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
    if (st != PE_OK) {
        plot_figure_free(fig);
        return st;
    }
    char cl[96];
    snprintf(cl, sizeof cl, "context %g", context);
    plot_hline(ax, context, &(plot_style){.label = cl});
    return fig_finish(fig, path, err, errlen);
}

/* The claim's q and k (figure option seed: other random vectors). */
static void rope_qk(const figure_opts *o, int64_t D, double *q, double *k) {
    if (o->seed == 0 && D == TOUR_ROPE_D) {
        tour_rope_qk(q, k);
    } else {
        cli_fill_uniform(q, D, FIG_OR(o->seed, 1));
        cli_fill_uniform(k, D, FIG_OR(o->seed, 1) + 1);
    }
}

/* A big ringed dot at (x, y) with a note beside it: the claim's number. */
static void mark(plot_axes *ax, double x, double y, const char *note, plot_place where) {
    plot_scatter(ax, &x, &y, 1, &(plot_style){.color = PLOT_BLACK, .marker = PLOT_CIRCLE, .marker_size = 14,
                                              .alpha = 0.4});
    plot_text(ax, x, y, note, where, PLOT_AUTO);
}

int fig_rotation(const figure_opts *o, const char *path, char *err, size_t errlen) {
    pe_freqs fbuf, *f = &fbuf;
    int fst = fig_freqs_get(o, TOUR_ROPE_D, f, err, errlen);
    if (fst != PE_OK) return fst;
    const int64_t D = f->rotary_dim, H = D / 2;
    const int64_t pairs[3] = {0, H / 2 - 1, H - 1};
    enum { NP = 8 };
    const int64_t positions[NP] = {0, 1, 2, 3, 10, 100, 1000, 123456};
    double *q = malloc(sizeof(double) * (size_t)(2 * D));
    float *x = malloc(sizeof(float) * (size_t)(NP * D));
    if (q == NULL || x == NULL) {
        free(q);
        free(x);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    rope_qk(o, D, q, q + D);
    for (int t = 0; t < NP; t++)
        for (int64_t j = 0; j < D; j++) x[t * D + j] = (float)q[j];
    pe_positions pos = pe_positions_list(positions);
    pe_tensor tv = pe_tensor_dense(x, PE_F32, NP, 1, D);
    int st = pe_rope_apply(f, PE_ROPE_HALF, &pos, &tv, &tv, PE_ROPE_FORWARD);
    double n0 = 0, n1 = 0;
    for (int64_t j = 0; j < D; j++) {
        n0 += (double)(float)q[j] * (float)q[j];
        n1 += (double)x[(NP - 1) * D + j] * x[(NP - 1) * D + j];
    }
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else {
        figure_opts wide = *o;
        if (wide.width == 0 && wide.height == 0) {
            wide.width = 1500;
            wide.height = 500;
        }
        char title[256];
        snprintf(title, sizeof title, "q turned to positions 0 to 123456: |q| = %.6f, |R(123456)·q| = %.6f",
                 sqrt(n0), sqrt(n1));
        st = fig_begin(&wide, 1, 3, title, &fig, err, errlen);
    }
    double rmax = 0;
    for (int c = 0; c < 3; c++) rmax = fmax(rmax, hypot(q[pairs[c]], q[pairs[c] + H]));
    if (rmax == 0) rmax = 1;
    for (int c = 0; c < 3 && st == PE_OK; c++) {
        plot_axes *ax = plot_figure_axes(fig, 0, c);
        const int64_t i = pairs[c];
        const double r = hypot(q[i], q[i + H]);
        char title[256];
        snprintf(title, sizeof title, "pair %lld (elements %lld, %lld), ω = %.3g, radius %.3f", (long long)i,
                 (long long)i, (long long)(i + H), f->inv_freq[i], r);
        plot_axes_labels(ax, title, "x_{i}", c == 0 ? "x_{i+D/2}" : NULL);
        plot_axes_options(ax, PLOT_EQUAL);
        /* each panel framed on its pair's circle (the same shape in every
         * panel), with room right of it for the last panel's legend */
        const double lim = 1.2 * (r > 0 ? r : rmax);
        double cx[97], cy[97];
        for (int j = 0; j < 97; j++) { /* the circle the tips stay on */
            cx[j] = r * cos(2 * PI * j / 96.0);
            cy[j] = r * sin(2 * PI * j / 96.0);
        }
        plot_line(ax, cx, cy, 97, &(plot_style){.color = PLOT_GREY, .width = 1, .dash = PLOT_DOTTED});
        plot_axes_xlim(ax, -lim, 2.0 * lim);
        plot_axes_ylim(ax, -lim, lim);
        plot_axes_legend(ax, c == 2 ? PLOT_LEGEND_NE : PLOT_LEGEND_NONE);
        for (int t = 0; t < NP; t++) {
            char label[64];
            snprintf(label, sizeof label, "p = %lld", (long long)positions[t]);
            plot_arrow(ax, 0, 0, x[t * D + i], x[t * D + i + H], &(plot_style){.label = label, .color = PLOT_PALETTE(t)});
        }
    }
    if (st == PE_OK) st = fig_finish(fig, path, err, errlen);
    free(x);
    free(q);
    return st;
}

int fig_relativity(const figure_opts *o, const char *path, char *err, size_t errlen) {
    pe_freqs fbuf, *f = &fbuf;
    int fst = fig_freqs_get(o, TOUR_ROPE_D, f, err, errlen);
    if (fst != PE_OK) return fst;
    const int64_t D = f->rotary_dim, K = FIG_OR(o->count, 40), n = 2 * K + 1;
    const int64_t ms[3] = {0, 1000, 1000000};
    double *buf = malloc(sizeof(double) * (size_t)(2 * D + 4 * n));
    int64_t *offs = malloc(sizeof(int64_t) * (size_t)n);
    if (buf == NULL || offs == NULL) {
        free(buf);
        free(offs);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *q = buf, *k = q + D, *x = k + D, *s = x + n;
    rope_qk(o, D, q, k);
    for (int64_t j = 0; j < n; j++) {
        offs[j] = j - K;
        x[j] = (double)(j - K);
    }
    int st = PE_OK;
    for (int r = 0; r < 3 && st == PE_OK; r++) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, ms[r], offs, n, s + r * n);
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else st = fig_begin(o, 1, 1, "RoPE's score depends on the offset alone: three query positions, one curve", &fig,
                        err, errlen);
    if (st == PE_OK) {
        plot_axes *a = plot_figure_axes(fig, 0, 0);
        plot_axes_labels(a, "⟨R(m)q, R(m+k)k⟩ for the claim's q, k (D = 64, base 10^{4}) at m = 0, 1000, 10^{6}",
                         "offset k", "score");
        plot_axes_options(a, PLOT_INT_X);
        plot_axes_legend(a, PLOT_LEGEND_OUTSIDE);
        static const plot_dash dashes[3] = {PLOT_SOLID, PLOT_DASHED, PLOT_DOTTED};
        static const char *const names[3] = {"m = 0", "m = 1000", "m = 10^{6}"};
        for (int r = 0; r < 3; r++)
            plot_line(a, x, s + r * n, (size_t)n,
                      &(plot_style){.label = names[r], .color = PLOT_PALETTE(r), .dash = dashes[r], .width = 3 - r * 0.6});
        if (5 <= K) {
            char note[160];
            snprintf(note, sizeof note, "k = 5: %.6f at every m", s[K + 5]);
            mark(a, 5, s[K + 5], note, PLOT_AT_NE);
        }
        st = fig_finish(fig, path, err, errlen);
    }
    free(buf);
    free(offs);
    return st;
}

int fig_direction(const figure_opts *o, const char *path, char *err, size_t errlen) {
    pe_freqs fbuf, *f = &fbuf;
    int fst = fig_freqs_get(o, TOUR_ROPE_D, f, err, errlen);
    if (fst != PE_OK) return fst;
    const int64_t D = f->rotary_dim, K = FIG_OR(o->count, 40), n = 2 * K + 1, m = 100;
    double *buf = malloc(sizeof(double) * (size_t)(3 * D + 3 * n));
    int64_t *offs = malloc(sizeof(int64_t) * (size_t)n);
    if (buf == NULL || offs == NULL) {
        free(buf);
        free(offs);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *q = buf, *k = q + D, *u = k + D, *x = u + D, *s = x + n, *c = s + n;
    rope_qk(o, D, q, k);
    for (int64_t i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0; /* (1, 0) in each half-split pair */
    for (int64_t j = 0; j < n; j++) {
        offs[j] = j - K;
        x[j] = (double)(j - K);
    }
    int st = pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, m, offs, n, s);
    if (st == PE_OK) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, m, offs, n, c);
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else st = fig_begin(o, 2, 1, "Direction: offset +7 against -7, RoPE above, the sinusoidal dot product below", &fig,
                        err, errlen);
    if (st == PE_OK) {
        for (int panel = 0; panel < 2; panel++) {
            const double *y = panel ? c : s;
            plot_axes *a = plot_figure_axes(fig, panel, 0);
            plot_axes_labels(a,
                             panel ? "sinusoidal PE(m)·PE(m+k) = Σ_{i} cos(k·ω_{i}): the same at +k and -k"
                                   : "RoPE ⟨R(m)q, R(m+k)k⟩, the claim's q, k at m = 100: +k and -k differ",
                             panel ? "offset k" : NULL, panel ? "dot product" : "score");
            plot_axes_options(a, PLOT_INT_X);
            /* one x axis for both panels; y differs (a score, a dot product) */
            plot_axes_xlim(a, (double)-K, (double)K);
            plot_line(a, x, y, (size_t)n, &(plot_style){.color = PLOT_PALETTE(panel)});
            plot_vline(a, 0, NULL);
            if (7 <= K) {
                char n1[96], n2[96];
                snprintf(n1, sizeof n1, "+7: %.3f", y[K + 7]);
                snprintf(n2, sizeof n2, "-7: %.3f", y[K - 7]);
                mark(a, 7, y[K + 7], n1, PLOT_AT_NE);
                mark(a, -7, y[K - 7], n2, PLOT_AT_NW);
            }
        }
        st = fig_finish(fig, path, err, errlen);
    }
    free(buf);
    free(offs);
    return st;
}

int fig_locality(const figure_opts *o, const char *path, char *err, size_t errlen) {
    pe_freqs fbuf, *f = &fbuf;
    int fst = fig_freqs_get(o, TOUR_ROPE_D, f, err, errlen);
    if (fst != PE_OK) return fst;
    /* every offset 1..65535, as the claim checks; the octave averages over
     * [2^j, 2^(j+1)) drawn over the raw curve */
    const int64_t D = f->rotary_dim, n = 65535;
    double *buf = malloc(sizeof(double) * (size_t)(D + 2 * n));
    int64_t *offs = malloc(sizeof(int64_t) * (size_t)n);
    if (buf == NULL || offs == NULL) {
        free(buf);
        free(offs);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *u = buf, *x = u + D, *s = x + n;
    for (int64_t i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0;
    for (int64_t j = 0; j < n; j++) {
        offs[j] = j + 1;
        x[j] = (double)(j + 1);
    }
    double s0 = 0;
    const int64_t zero = 0;
    int st = pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 0, offs, n, s);
    if (st == PE_OK) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 0, &zero, 1, &s0);
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else
        st = fig_begin(o, 1, 1, "Locality: the octave averages of the aligned score fall; step by step it wiggles",
                       &fig, err, errlen);
    if (st == PE_OK) {
        plot_axes *a = plot_figure_axes(fig, 0, 0);
        char sub[256];
        snprintf(sub, sizeof sub, "Σ_{i} cos(k·ω_{i}) over the %lld pairs of D = %lld, base 10^{4}", (long long)(D / 2),
                 (long long)D);
        plot_axes_labels(a, sub, "offset k (log scale)", "score");
        plot_axes_options(a, PLOT_LOG_X);
        plot_line(a, x, s, (size_t)n,
                  &(plot_style){.label = "score at each offset", .color = PLOT_PALETTE(0), .width = 1.0, .alpha = 0.6});
        /* octave j: [2^j, 2^(j+1)), drawn as a step over its range */
        double ox[32], oy[32];
        size_t no = 0;
        for (int j = 0; j < 16; j++) {
            const int64_t lo = (int64_t)1 << j, hi = (int64_t)1 << (j + 1);
            double sum = 0;
            for (int64_t k = lo; k < hi && k <= n; k++) sum += s[k - 1];
            const double avg = sum / (double)(hi - lo);
            ox[no] = (double)lo;
            oy[no++] = avg;
            ox[no] = (double)(hi - 1);
            oy[no++] = avg;
        }
        plot_line(a, ox, oy, no,
                  &(plot_style){.label = "average over each octave [2^{j}, 2^{j+1})", .color = PLOT_BLACK, .width = 2.5});
        plot_axes_legend(a, PLOT_LEGEND_SW);
        char note[160];
        snprintf(note, sizeof note, "k = 0: %.2f", s0);
        plot_hline(a, s0, &(plot_style){.label = note});
        st = fig_finish(fig, path, err, errlen);
    }
    free(buf);
    free(offs);
    return st;
}

int fig_flip(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim: one pair, ω = 10^-4, offset 32000. */
    const int64_t k = FIG_OR(o->offset, 32000), n = 641, step = 100;
    pe_freqs one;
    int st = pe_freqs_default(2, 10.0, &one);
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    one.inv_freq[0] = 1e-4;
    double *x = malloc(sizeof(double) * 3 * (size_t)n);
    int64_t *offs = malloc(sizeof(int64_t) * (size_t)n);
    if (x == NULL || offs == NULL) {
        free(x);
        free(offs);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *c = x + n, *deg = c + n, phase = 0, turns = 0;
    const double u[2] = {1.0, 0.0};
    for (int64_t j = 0; j < n; j++) {
        offs[j] = j * step;
        x[j] = (double)(j * step);
    }
    st = pe_rope_score_curve(&one, PE_ROPE_HALF, 2, u, u, 0, offs, n, c);
    for (int64_t j = 0; j < n && st == PE_OK; j++) {
        st = pe_pair_periods(&one, offs[j], NULL, NULL, &deg[j], NULL);
        deg[j] *= 180.0 / PI;
    }
    if (st == PE_OK) st = pe_pair_periods(&one, k, NULL, NULL, &phase, &turns);
    plot_figure *fig = NULL;
    char title[256];
    snprintf(title, sizeof title, "A slow pair (ω = 10^{-4}) at offset %lld: %.2f rad = %.1f°, its term %s",
             (long long)k, phase, phase * 180 / PI, cos(phase) < 0 ? "reversed" : "not reversed");
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else st = fig_begin(o, 2, 1, title, &fig, err, errlen);
    if (st == PE_OK) {
        const double flip_at = PI / one.inv_freq[0], sign_at = flip_at / 2, xmax = x[n - 1];
        plot_axes *a = plot_figure_axes(fig, 0, 0);
        plot_axes_labels(a, "the pair's angle k·ω mod 360°", NULL, "degrees");
        plot_axes_xlim(a, 0, xmax);
        plot_axes_ylim(a, 0, 360);
        plot_line(a, x, deg, (size_t)n, &(plot_style){.color = PLOT_PALETTE(0)});
        plot_hline(a, 180, &(plot_style){.label = "180°"});
        char note[160];
        snprintf(note, sizeof note, "k = %lld: %.1f°", (long long)k, phase * 180 / PI);
        mark(a, (double)k, phase * 180 / PI, note, PLOT_AT_SE);
        plot_axes *b = plot_figure_axes(fig, 1, 0);
        plot_axes_labels(b, "its term in the score, cos(k·ω) for q = k = (1, 0): negative from 90° to 270°",
                         "offset k", "cos(k·ω)");
        plot_axes_xlim(b, 0, xmax);
        plot_axes_ylim(b, -1.1, 1.1);
        plot_line(b, x, c, (size_t)n, &(plot_style){.color = PLOT_PALETTE(1)});
        plot_hline(b, 0, &(plot_style){.color = PLOT_GREY, .dash = PLOT_SOLID, .width = 1});
        snprintf(note, sizeof note, "half turn π/ω = %.0f", flip_at);
        plot_vline(a, flip_at, NULL);
        plot_vline(b, flip_at, &(plot_style){.label = note});
        snprintf(note, sizeof note, "sign change π/2ω = %.0f", sign_at);
        plot_vline(a, sign_at, &(plot_style){.dash = PLOT_DOTTED});
        plot_vline(b, sign_at, &(plot_style){.label = note, .dash = PLOT_DOTTED});
        snprintf(note, sizeof note, "k = %lld: cos = %.4f", (long long)k, cos(phase));
        mark(b, (double)k, cos(phase), note, PLOT_AT_NE);
        st = fig_finish(fig, path, err, errlen);
    }
    free(x);
    free(offs);
    return st;
}

int fig_aliasing(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim: pair 0 with ω = 1 at offset 44; here every pair of D = 64,
     * base 10^4 (pair 0 has ω = 1), so the others show how they differ. */
    pe_freqs fbuf, *f = &fbuf;
    int fst = fig_freqs_get(o, TOUR_ROPE_D, f, err, errlen);
    if (fst != PE_OK) return fst;
    const int64_t H = f->rotary_dim / 2, k = FIG_OR(o->offset, 44);
    double *v = malloc(sizeof(double) * 3 * (size_t)H);
    if (v == NULL) {
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *phase = v, *turns = v + H, *x = v + 2 * H;
    int st = pe_pair_periods(f, k, NULL, NULL, phase, turns);
    for (int64_t i = 0; i < H; i++) {
        x[i] = (double)i;
        phase[i] = (phase[i] > PI ? phase[i] - 2 * PI : phase[i]) * 180.0 / PI; /* from offset 0, signed */
    }
    plot_figure *fig = NULL;
    char title[256];
    snprintf(title, sizeof title, "Offset %lld seen by each pair: pair 0 has turned %.2f times and is back near 0",
             (long long)k, st == PE_OK ? turns[0] : 0.0);
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else st = fig_begin(o, 2, 1, title, &fig, err, errlen);
    if (st == PE_OK) {
        plot_axes *a = plot_figure_axes(fig, 0, 0);
        plot_axes_labels(a, "angle from where the pair started at offset 0 (degrees, -180 to 180)", NULL, "degrees");
        plot_axes_options(a, PLOT_INT_X);
        plot_axes_xlim(a, -0.6, (double)H - 0.4);
        plot_axes_ylim(a, -190, 190);
        plot_bars(a, x, phase, (size_t)H, 0, &(plot_style){.color = PLOT_PALETTE(0)});
        char note[160];
        snprintf(note, sizeof note, "pair 0: %.2f° (looks like offset 0)", phase[0]);
        mark(a, 0, phase[0], note, PLOT_AT_NE);
        plot_axes *b = plot_figure_axes(fig, 1, 0);
        plot_axes_labels(b, "full turns k·ω_{i}/2π: above 1 the pair has wrapped", "pair i", "turns");
        plot_axes_options(b, PLOT_LOG_Y | PLOT_INT_X);
        plot_axes_xlim(b, -0.6, (double)H - 0.4);
        plot_line(b, x, turns, (size_t)H, &(plot_style){.color = PLOT_PALETTE(1), .marker = PLOT_CIRCLE});
        plot_hline(b, 1, &(plot_style){.label = "one turn"});
        snprintf(note, sizeof note, "pair 0: %.2f turns", turns[0]);
        mark(b, 0, turns[0], note, PLOT_AT_NE);
        st = fig_finish(fig, path, err, errlen);
    }
    free(v);
    return st;
}

int fig_collisions(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim: D = 8 against D = 10, 12, 16, base 10^4, offsets up to
     * 10^5. Per log-spaced bin of offsets, the closest approach in it; each
     * D's closest offset in [2, 10^5] marked. D = 8's frequencies are 1,
     * 1/10, 1/100, 1/1000, so 2π·11000 is whole turns of every pair. */
    enum { BINS = 240, ND = 4 };
    const int64_t dims[ND] = {TOUR_COLL_SMALL_D, 10, 12, 16};
    double y[ND][BINS];
    double x[ND][BINS], best_k[ND], best_d[ND], ref = 0; /* about 15 kB on the stack */
    size_t nb[ND] = {0};
    pe_freqs fbuf, *f = &fbuf;
    int st = PE_OK;
    for (int s = 0; s < ND && st == PE_OK; s++) {
        st = pe_freqs_default(dims[s], 10000.0, f);
        int64_t lo = 1, off = 0, found = 0;
        for (int b = 0; b < BINS && st == PE_OK; b++) {
            int64_t hi = (int64_t)floor(pow(10.0, 5.0 * (b + 1) / BINS));
            if (hi > TOUR_COLL_MAX) hi = TOUR_COLL_MAX;
            if (hi < lo) continue;
            double d;
            st = pe_near_collisions(f, lo, hi, 1, &off, &d, &found);
            x[s][nb[s]] = (double)off;
            y[s][nb[s]++] = d;
            lo = hi + 1;
        }
        if (st == PE_OK) st = pe_near_collisions(f, 2, TOUR_COLL_MAX, 1, &off, &best_d[s], &found);
        best_k[s] = (double)off;
        if (st == PE_OK && s == 0) st = pe_near_collisions(f, 1, 1, 1, &off, &ref, &found);
    }
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    plot_figure *fig;
    if ((st = fig_begin(o, 1, 1,
                        "Near-collisions up to 10^{5}: at D = 8 the base's powers of ten line the pairs up", &fig,
                        err, errlen)))
        return st;
    plot_axes *a = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(a, "|PE(p+k) - PE(p)| at the closest k of each log-spaced bin (unit pairs, base 10^{4})",
                     "offset k", "distance");
    plot_axes_options(a, PLOT_LOG_X | PLOT_LOG_Y);
    plot_axes_legend(a, PLOT_LEGEND_SW);
    char l[ND][96], note[128];
    for (int s = 0; s < ND; s++) {
        snprintf(l[s], sizeof l[s], "D = %lld (closest: k = %.0f, %.3f)", (long long)dims[s], best_k[s], best_d[s]);
        plot_line(a, x[s], y[s], nb[s], &(plot_style){.label = l[s], .color = PLOT_PALETTE(s), .marker = PLOT_CIRCLE,
                                                      .marker_size = 3, .width = s == 0 ? 2.0 : 1.2});
    }
    snprintf(note, sizeof note, "D = 8, k = 1: %.3f", ref);
    plot_hline(a, ref, &(plot_style){.label = note, .color = PLOT_PALETTE(0)});
    snprintf(note, sizeof note, "k = %.0f ≈ 2π·11000: %.3f", best_k[0], best_d[0]);
    mark(a, best_k[0], best_d[0], note, PLOT_AT_W);
    return fig_finish(fig, path, err, errlen);
}

int fig_scaling(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* The claim, one panel per part, the same axes in each: Llama 3 at its
     * defaults (D = 128, base 5·10^5, factor 8, L0 8192); YaRN f = 10 from
     * L0 = 2048, base 10^4, with its correction range; dynamic NTK at s = L0
     * and at s = 4 L0 (factor 4, L0 = 4096). */
    enum { D = TOUR_SCALE_D, H = TOUR_SCALE_D / 2 };
    pe_freqs fbuf, dbuf, *f = &fbuf, *d = &dbuf;
    double x[H], r[3][H], w[H], low = 0, high = 0, att = 1;
    int kept = 0, scaled = 0;
    for (int i = 0; i < H; i++) x[i] = i;
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LLAMA3, D);
    s.base = TOUR_LLAMA3_BASE;
    int st = pe_freqs_from_scaling(&s, f, w);
    if (st == PE_OK) st = pe_freqs_default(D, TOUR_LLAMA3_BASE, d);
    for (int i = 0; st == PE_OK && i < H; i++) {
        r[0][i] = f->inv_freq[i] / d->inv_freq[i];
        kept += w[i] == 1.0;
        scaled += w[i] == 0.0;
    }
    pe_rope_scaling y = pe_rope_scaling_defaults(PE_SCALING_YARN, D);
    y.factor = TOUR_YARN_FACTOR;
    y.original_max_position = TOUR_YARN_L0;
    if (st == PE_OK) st = pe_freqs_from_scaling(&y, f, NULL);
    if (st == PE_OK) {
        att = f->attention_factor;
        st = pe_freqs_default(D, 10000.0, d);
    }
    for (int i = 0; st == PE_OK && i < H; i++) r[1][i] = f->inv_freq[i] / d->inv_freq[i];
    if (st == PE_OK) st = pe_yarn_correction_range(D, 10000.0, TOUR_YARN_L0, 32, 1, 1, &low, &high);
    double dyn4[H];
    for (int k = 0; k < 2 && st == PE_OK; k++) {
        pe_rope_scaling dy = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, D);
        dy.factor = 4;
        dy.max_position = 4096;
        dy.seq_len = k ? 4 * 4096 : 4096;
        st = pe_freqs_from_scaling(&dy, f, NULL);
        for (int i = 0; st == PE_OK && i < H; i++) (k ? dyn4 : r[2])[i] = f->inv_freq[i] / d->inv_freq[i];
    }
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    figure_opts tall = *o;
    if (tall.width == 0 && tall.height == 0) {
        tall.width = 1200;
        tall.height = 1050;
    }
    plot_figure *fig;
    if ((st = fig_begin(&tall, 3, 1, "Scaling schemes: each pair's frequency over its default (1 = untouched)", &fig,
                        err, errlen)))
        return st;
    char sub[3][256];
    snprintf(sub[0], sizeof sub[0], "Llama 3 (D = 128, base 5·10^{5}, factor 8): %d pairs kept, %d scaled by 1/8, %d blended",
             kept, scaled, H - kept - scaled);
    /* YaRN scales the rotated q and k by A, so the logits by A² (the
     * tour's scaling claim says both) */
    snprintf(sub[1], sizeof sub[1],
             "YaRN (D = 128, base 10^{4}, f = 10, L_{0} = 2048): ramp over pairs [%g, %g]; q, k × A = %.4f, logits × A^{2} = %.4f",
             low, high, att, att * att);
    /* past L0 dynamic NTK raises the base to b·(f·s/L0 − (f − 1))^{d/(d−2)}:
     * at f = 4, s = 4 L0 that factor is 13, and pair i turns 13^{2i/(d−2)}
     * times slower, so the slowest (i = 63) by 13 */
    snprintf(sub[2], sizeof sub[2],
             "dynamic NTK (factor 4, L_{0} = 4096): untouched at s = L_{0}; at s = 4 L_{0} the base grows by "
             "(4·4 − 3)^{128/126}, the slowest pair ÷ %.1f",
             dyn4[H - 1] > 0 ? 1.0 / dyn4[H - 1] : 0.0);
    for (int p = 0; p < 3; p++) {
        plot_axes *ax = plot_figure_axes(fig, p, 0);
        plot_axes_labels(ax, sub[p], p == 2 ? "pair i (fast to slow)" : NULL, "ω'_{i} / ω_{i}");
        plot_axes_options(ax, PLOT_LOG_Y | PLOT_INT_X);
        plot_axes_xlim(ax, -0.5, H - 0.5);
        plot_axes_ylim(ax, 0.05, 1.6);
        plot_line(ax, x, r[p], H, &(plot_style){.label = p == 2 ? "s = L_{0}" : NULL, .color = PLOT_PALETTE(p),
                                                .marker = PLOT_CIRCLE, .marker_size = 4});
        if (p == 1) {
            plot_vline(ax, low, &(plot_style){.label = "ramp starts"});
            plot_vline(ax, high, &(plot_style){.label = "ramp ends"});
        }
        if (p == 2) {
            plot_line(ax, x, dyn4, H, &(plot_style){.label = "s = 4 L_{0}", .color = PLOT_PALETTE(3), .dash = PLOT_DASHED});
            plot_axes_legend(ax, PLOT_LEGEND_SW);
        }
    }
    return fig_finish(fig, path, err, errlen);
}
