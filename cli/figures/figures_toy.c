/* figures_toy.c — figures of the designs before the sinusoids: attention
 * as a bag of words, the toy design's four terms and drift, normalized and
 * binary positions, and the learned table that ends. Each uses its claim's
 * inputs (inputs.h) and marks the claim's number. */
#include "figures_common.h"
#include "inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fig_bag_of_words(const figure_opts *o, const char *path, char *err, size_t errlen) {
    /* Top row without a mask, bottom row with a causal mask (the claim's
     * exception): attn(x), attn(reversed x), and attn(x) with its rows
     * reversed. Without a mask the last two agree; with one they do not. */
    enum { T = TOUR_BAG_T, D = TOUR_BAG_D };
    float x[T * D], xr[T * D], of[T * D], orf[T * D];
    int64_t rev[T];
    tour_bag_tokens(x);
    for (int i = 0; i < T; i++) {
        rev[i] = T - 1 - i;
        memcpy(xr + i * D, x + rev[i] * D, sizeof(float) * D);
    }
    double z[2][3][T * D], worst[2] = {0, 0};
    for (int causal = 0; causal < 2; causal++) {
        pe_attention_params p = pe_attention_params_default(T, T, D, D);
        p.causal = causal;
        int st = pe_attention(&p, x, x, x, of);
        if (st == PE_OK) st = pe_attention(&p, xr, xr, xr, orf);
        if (st == PE_OK) st = pe_permutation_gap(of, orf, rev, T, D, &worst[causal]);
        if (st != PE_OK) return fig_lib_error(st, err, errlen);
        for (int i = 0; i < T; i++)
            for (int e = 0; e < D; e++) {
                z[causal][0][i * D + e] = of[i * D + e];
                z[causal][1][i * D + e] = orf[i * D + e];
                z[causal][2][i * D + e] = of[rev[i] * D + e]; /* the plain run's rows, last first */
            }
    }
    figure_opts wide = *o;
    if (wide.width == 0 && wide.height == 0) {
        wide.width = 1500;
        wide.height = 950;
    }
    char title[256];
    snprintf(title, sizeof title,
             "Attention without positions: the right two panels agree to %.1g without a mask, differ by %.2f with a "
             "causal mask", worst[0], worst[1]);
    plot_figure *fig;
    int st;
    if ((st = fig_begin(&wide, 2, 3, title, &fig, err, errlen))) return st;
    const char *titles[2][3] = {{"no mask: attn(x), tokens 0 to 5", "no mask: attn(reversed x)",
                                 "no mask: attn(x), rows reversed"},
                                {"causal: attn(x)", "causal: attn(reversed x)", "causal: attn(x), rows reversed"}};
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++) {
            plot_axes *ax = plot_figure_axes(fig, r, c);
            plot_axes_labels(ax, titles[r][c], r == 1 ? "feature" : NULL, c == 0 ? "output row (token)" : NULL);
            plot_axes_options(ax, PLOT_INVERT_Y | PLOT_INT_X | PLOT_INT_Y);
            plot_heatmap(ax, z[r][c], T, D,
                         &(plot_heatmap_opts){.cmap = PLOT_DIVERGING, .vmin = -1, .vmax = 1, .cbar_label = "value"});
        }
    return fig_finish(fig, path, err, errlen);
}

/* Four logit terms and their sum as bars, each labelled with its value. */
/* shifted (nullable): the position-position term with m and n both moved
 * by the same amount, drawn as a ringed dot on that bar. */
static int terms_figure(const figure_opts *o, const char *path, const char *title, const char *subtitle,
                        const pe_logit_terms *lt, const double *shifted, const char *shifted_note, char *err,
                        size_t errlen) {
    figure_opts low = *o;
    if (low.width == 0 && low.height == 0) {
        low.width = 1200;
        low.height = 620;
    }
    plot_figure *fig;
    int st = fig_begin(&low, 1, 1, title, &fig, err, errlen);
    if (st) return st;
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, subtitle, NULL, "contribution to the logit");
    const double y[5] = {lt->content_content, lt->content_position, lt->position_content, lt->position_position,
                         lt->logit};
    static const char *const names[5] = {"content-content", "content-position", "position-content",
                                         "position-position", "logit (their sum)"};
    double at[5], lo = 0, hi = 0;
    for (int i = 0; i < 5; i++) {
        at[i] = i;
        lo = fmin(lo, y[i]);
        hi = fmax(hi, y[i]);
        plot_bars(ax, &at[i], &y[i], 1, 0.6, &(plot_style){.color = i == 4 ? PLOT_GREY : PLOT_PALETTE(i)});
        char v[64];
        snprintf(v, sizeof v, fabs(y[i]) >= 100 ? "%.0f" : "%.3f", y[i]);
        plot_text(ax, at[i], y[i], v, y[i] >= 0 ? PLOT_AT_N : PLOT_AT_S, PLOT_AUTO);
    }
    if (shifted) {
        const double x3 = 3;
        lo = fmin(lo, *shifted);
        hi = fmax(hi, *shifted);
        plot_scatter(ax, &x3, shifted, 1, &(plot_style){.color = PLOT_BLACK, .marker = PLOT_DIAMOND, .marker_size = 12});
        /* the note goes on the empty side of the zero line above (or below)
         * its own column, where no bar is: beside the marker it ran over
         * the next bar */
        const double zero = 0, above = lt->position_position < 0;
        plot_text(ax, x3, zero, shifted_note, above ? PLOT_AT_N : PLOT_AT_S, PLOT_AUTO);
    }
    const double pad = 0.15 * (hi - lo);
    plot_axes_ylim(ax, lo - pad, hi + pad);
    plot_axes_xlim(ax, -0.6, 4.6);
    plot_axes_xticks(ax, at, names, 5);
    plot_hline(ax, 0, &(plot_style){.color = PLOT_GREY, .dash = PLOT_SOLID, .width = 1});
    return fig_finish(fig, path, err, errlen);
}

int fig_toy_terms(const figure_opts *o, const char *path, char *err, size_t errlen) {
    enum { D = TOUR_TOY_D };
    double Q[D * D], K[D * D], em[D], en[D], pm[D], pn[D];
    tour_toy_weights(Q, K, em, en);
    for (int i = 0; i < D; i++) {
        pm[i] = TOUR_TOY_M;
        pn[i] = TOUR_TOY_N;
    }
    pe_logit_terms lt;
    int st = pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &lt);
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    char sub[256];
    snprintf(sub, sizeof sub, "D = %d, query at m = %d, key at n = %d, random Q, K, e (the claim's inputs)", D,
             TOUR_TOY_M, TOUR_TOY_N);
    return terms_figure(o, path, "Raw positions p_{m} = m·1: the position-position term swamps the content",
                        sub, &lt, NULL, NULL, err, errlen);
}

int fig_entanglement(const figure_opts *o, const char *path, char *err, size_t errlen) {
    enum { D = TOUR_ENT_D };
    double *Q = malloc(sizeof(double) * (2 * D * D + 4 * D));
    if (Q == NULL) {
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    double *K = Q + D * D, *em = K + D * D, *en = em + D, *pm = en + D, *pn = pm + D;
    tour_entangle_weights(Q, K, em, en);
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    const int64_t mn[2] = {TOUR_ENT_M, TOUR_ENT_N};
    pe_positions pos = pe_positions_list(mn);
    const int64_t mn2[2] = {TOUR_ENT_M + 100, TOUR_ENT_N + 100};
    pe_positions pos2 = pe_positions_list(mn2);
    double rows[2 * D];
    pe_logit_terms lt, far;
    int st = pe_additive_encode(&p, &pos, 2, rows, PE_F64);
    if (st == PE_OK) {
        memcpy(pm, rows, sizeof(double) * D);
        memcpy(pn, rows + D, sizeof(double) * D);
        st = pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &lt);
    }
    if (st == PE_OK) st = pe_additive_encode(&p, &pos2, 2, rows, PE_F64);
    if (st == PE_OK) st = pe_logit_terms_compute(D, Q, K, em, en, rows, rows + D, &far);
    free(Q);
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    char sub[256];
    snprintf(sub, sizeof sub, "sinusoidal codes, D = %d, m = %d, n = %d, random Q, K, e (the claim's inputs)", D,
             TOUR_ENT_M, TOUR_ENT_N);
    char note[160];
    snprintf(note, sizeof note, "diamond: m = %d, n = %d (same offset), %.3f", TOUR_ENT_M + 100, TOUR_ENT_N + 100,
             far.position_position);
    return terms_figure(o, path, "Sinusoidal codes added to tokens: four terms, position weighs as much as content",
                        sub, &lt, &far.position_position, note, err, errlen);
}

int fig_toy_drift(const figure_opts *o, const char *path, char *err, size_t errlen) {
    enum { D = TOUR_TOY_D, L = TOUR_TOY_KEYS };
    double Q[D * D], K[D * D], em[D], en[D], keys[L * D], pm[D], pn[D];
    double x[L], content[L], logit[L], w[L];
    int64_t kp[L];
    tour_toy_weights(Q, K, em, en);
    tour_toy_regime2(Q);
    tour_toy_keys(keys);
    const int64_t m = L - 1;
    int st = PE_OK;
    for (int64_t n = 0; n < L && st == PE_OK; n++) {
        for (int i = 0; i < D; i++) {
            pm[i] = (double)m;
            pn[i] = (double)n;
        }
        pe_logit_terms t;
        st = pe_logit_terms_compute(D, Q, K, em, keys + n * D, pm, pn, &t);
        x[n] = (double)n;
        kp[n] = n;
        content[n] = t.content_content;
        logit[n] = t.logit;
    }
    pe_toy_report r;
    if (st == PE_OK) st = pe_toy_analyze(D, Q, K, em, m, keys, kp, L, 1e-9, &r);
    if (st == PE_OK) st = pe_softmax(logit, L, w);
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    double tail = 0;
    for (int n = L - 8; n < L; n++) tail += w[n];
    char title[256];
    snprintf(title, sizeof title, "Toy design, regime ii (Q·1 = 0): slope (Q e_{m})^{T}K1 = %+.4f per position, so the %s keys win",
             r.effective_slope, r.effective_slope > 0 ? "last" : "first");
    figure_opts wide = *o;
    if (wide.width == 0 && wide.height == 0) {
        wide.width = 1400;
        wide.height = 600;
    }
    plot_figure *fig;
    if ((st = fig_begin(&wide, 1, 2, title, &fig, err, errlen))) return st;
    plot_axes *a = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(a, "logit of the last query (m = 63) against each key", "key position n", "logit");
    plot_axes_legend(a, r.effective_slope > 0 ? PLOT_LEGEND_NW : PLOT_LEGEND_SW);
    plot_line(a, x, content, L, &(plot_style){.label = "content only (Q e_{m})^{T}K e_{n}", .color = PLOT_PALETTE(1)});
    plot_line(a, x, logit, L, &(plot_style){.label = "with toy positions", .color = PLOT_PALETTE(0)});
    char note[160];
    snprintf(note, sizeof note, "drift %.2f > content range %.2f", fabs(r.effective_slope) * (L - 1),
             r.content_max - r.content_min);
    plot_text(a, L - 1, logit[L - 1], note, r.effective_slope > 0 ? PLOT_AT_SW : PLOT_AT_NW, PLOT_AUTO);
    plot_axes *b = plot_figure_axes(fig, 0, 1);
    plot_axes_labels(b, "softmax attention weights of that query", "key position n", "weight");
    plot_line(b, x, w, L, &(plot_style){.color = PLOT_PALETTE(2), .marker = PLOT_CIRCLE, .marker_size = 4});
    snprintf(note, sizeof note, "last 8 keys: %.0f%% of the weight", 100 * tail);
    plot_text(b, r.effective_slope > 0 ? L - 9 : 8, w[r.effective_slope > 0 ? L - 9 : 8] , note,
              r.effective_slope > 0 ? PLOT_AT_NW : PLOT_AT_NE, PLOT_AUTO);
    return fig_finish(fig, path, err, errlen);
}

int fig_normalized(const figure_opts *o, const char *path, char *err, size_t errlen) {
    const int64_t lengths[4] = {3, 5, 10, 100};
    plot_figure *fig;
    int st = fig_begin(o, 1, 1, "Normalized positions p/(L-1): position 2 lands somewhere else at every length", &fig,
                       err, errlen);
    if (st) return st;
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "every position of an input of length L (dots), position 2 ringed", "encoding value p/(L-1)",
                     NULL);
    plot_axes_xlim(ax, -0.05, 1.12);
    plot_axes_ylim(ax, -0.7, 3.7);
    double at[4];
    char names[4][32];
    const char *labels[4];
    for (int k = 0; k < 4; k++) {
        const int64_t L = lengths[k];
        double x[100], y[100], sp[100];
        for (int64_t p = 0; p < L; p++) {
            st = pe_normalized_inconsistency(p, &L, 1, &x[p], &sp[p]);
            if (st != PE_OK) {
                plot_figure_free(fig);
                return fig_lib_error(st, err, errlen);
            }
            y[p] = 3 - k;
        }
        at[k] = 3 - k;
        snprintf(names[k], sizeof names[k], "L = %lld", (long long)L);
        labels[k] = names[k];
        plot_scatter(ax, x, y, (size_t)L, &(plot_style){.color = PLOT_PALETTE(k), .marker_size = L > 20 ? 5 : 9});
        plot_scatter(ax, &x[2], &y[2], 1,
                     &(plot_style){.color = PLOT_BLACK, .marker = PLOT_CIRCLE, .marker_size = 20, .alpha = 0.35});
        char note[160];
        snprintf(note, sizeof note, "p = 2 -> %.4f, step %.4f", x[2], sp[2]);
        /* near the right edge the label goes to the left of its point */
        plot_text(ax, x[2], y[2], note, x[2] > 0.6 ? PLOT_AT_NW : PLOT_AT_NE, PLOT_AUTO);
    }
    plot_axes_yticks(ax, at, labels, 4);
    return fig_finish(fig, path, err, errlen);
}

int fig_binary(const figure_opts *o, const char *path, char *err, size_t errlen) {
    enum { N = 1024, W = 12 }; /* the claim's steps; a window of 2W+1 positions around the biggest jump */
    int64_t *d = malloc(sizeof(int64_t) * N);
    double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
    pe_hamming_report rep;
    int st = d && x && y ? pe_binary_hamming(0, N, d, &rep) : PE_ERR_NOMEM;
    const int64_t start = st == PE_OK ? rep.argmax + 1 - W : 0, n = 2 * W;
    const int64_t length = start + n > N + 1 ? start + n : N + 1; /* every shown position has a code */
    pe_additive_params p = pe_additive_defaults(PE_ADD_BINARY, pe_binary_nbits(length));
    p.length = length;
    const int64_t nb = p.dim;
    double *v = malloc(sizeof(double) * (size_t)(n * nb));
    pe_positions pos = pe_positions_range(start);
    if (st == PE_OK) st = v ? pe_additive_encode(&p, &pos, n, v, PE_F64) : PE_ERR_NOMEM;
    plot_figure *fig = NULL;
    if (st != PE_OK) fig_lib_error(st, err, errlen);
    else {
        char title[256];
        snprintf(title, sizeof title, "Binary positions: the step %lld -> %lld flips %lld bits at once",
                 (long long)rep.argmax, (long long)rep.argmax + 1, (long long)rep.max_distance);
        figure_opts wide = *o;
        if (wide.width == 0 && wide.height == 0) {
            wide.width = 1400;
            wide.height = 640;
        }
        st = fig_begin(&wide, 1, 2, title, &fig, err, errlen);
    }
    if (st == PE_OK) {
        plot_axes *ax = plot_figure_axes(fig, 0, 0);
        char sub[256];
        snprintf(sub, sizeof sub, "the %lld bits around the jump", (long long)nb);
        plot_axes_labels(ax, sub, "position p", "bit");
        plot_axes_options(ax, PLOT_INT_X | PLOT_NO_GRID);
        double at[64];
        char names[64][32];
        const char *labels[64];
        for (int64_t j = 0; j < nb && j < 64; j++) {
            for (int64_t t = 0; t < n; t++) {
                x[t] = (double)(start + t);
                y[t] = (double)(nb - 1 - j) * 1.5 + v[t * nb + j];
            }
            plot_step(ax, x, y, (size_t)n, &(plot_style){.color = PLOT_PALETTE(j)});
            at[j] = (double)(nb - 1 - j) * 1.5 + 0.5;
            snprintf(names[j], sizeof names[j], "2^{%lld}", (long long)(nb - 1 - j));
            labels[j] = names[j];
        }
        plot_axes_yticks(ax, at, labels, (size_t)(nb < 64 ? nb : 64));
        plot_vline(ax, (double)rep.argmax + 1, &(plot_style){.label = "the jump"});
        plot_axes *hx = plot_figure_axes(fig, 0, 1);
        plot_axes_labels(hx, "bits flipped from p to p+1, every step of the claim", "position p", "bits flipped");
        plot_axes_options(hx, PLOT_INT_Y);
        for (int64_t t = 0; t < N; t++) {
            x[t] = (double)t;
            y[t] = (double)d[t];
        }
        plot_line(hx, x, y, N, &(plot_style){.color = PLOT_PALETTE(1), .width = 1});
        char note[160];
        snprintf(note, sizeof note, "%lld -> %lld: %lld bits", (long long)rep.argmax, (long long)rep.argmax + 1,
                 (long long)rep.max_distance);
        double ax_ = (double)rep.argmax, ay = (double)rep.max_distance;
        plot_scatter(hx, &ax_, &ay, 1, &(plot_style){.color = PLOT_BLACK, .marker_size = 9});
        plot_text(hx, ax_, ay, note, PLOT_AT_W, PLOT_AUTO);
        plot_axes_ylim(hx, 0, (double)rep.max_distance + 1);
        st = fig_finish(fig, path, err, errlen);
    }
    free(v);
    free(x);
    free(y);
    free(d);
    return st;
}

int fig_learned(const figure_opts *o, const char *path, char *err, size_t errlen) {
    enum { ROWS = 512, DIM = 16, SHOWN = 640 };
    pe_learned *tab = NULL;
    int st = pe_learned_create(ROWS, DIM, 1, &tab);
    if (st != PE_OK) return fig_lib_error(st, err, errlen);
    double *z = malloc(sizeof(double) * SHOWN * DIM);
    if (z == NULL) {
        pe_learned_free(tab);
        snprintf(err, errlen, "out of memory");
        return PE_ERR_NOMEM;
    }
    int refused = -1;
    char why[256] = "";
    for (int64_t p = 0; p < SHOWN; p++) {
        float row[DIM];
        int s = pe_learned_forward(tab, &p, 1, row);
        if (s != PE_OK && refused < 0) {
            refused = (int)p;
            snprintf(why, sizeof why, "positions %lld to %d: refused (%s)", (long long)p, SHOWN - 1, pe_strerror(s));
        }
        for (int e = 0; e < DIM; e++) z[p * DIM + e] = s == PE_OK ? row[e] : NAN; /* no row: a blank cell */
    }
    pe_learned_free(tab);
    plot_figure *fig;
    char title[256];
    snprintf(title, sizeof title, "A learned table of %d rows: positions past its last row get nothing", ROWS);
    if ((st = fig_begin(o, 1, 1, title, &fig, err, errlen))) {
        free(z);
        return st;
    }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "the table's rows (random initialisation, seed 1); blank where the library refuses",
                     "feature", "position");
    plot_axes_options(ax, PLOT_INVERT_Y | PLOT_INT_X);
    plot_heatmap(ax, z, SHOWN, DIM,
                 &(plot_heatmap_opts){.cmap = PLOT_DIVERGING, .y0 = 0, .y1 = SHOWN - 1, .cbar_label = "value"});
    plot_hline(ax, ROWS - 0.5, &(plot_style){.label = "last row: 511", .color = PLOT_BLACK});
    if (refused >= 0) plot_text(ax, (DIM - 1) / 2.0, (ROWS + SHOWN) / 2.0, why, PLOT_AT_CENTER, PLOT_AUTO);
    free(z);
    return fig_finish(fig, path, err, errlen);
}

/* The learned-similarity claim's two tables as cosine maps: rows m, n of the
 * table at its random start and after training the rows of positions
 * 0..255 (inputs.c), the last trained row marked. */
int fig_learned_similarity(const figure_opts *o, const char *path, char *err, size_t errlen) {
    enum { ROWS = TOUR_LSIM_ROWS, DIM = TOUR_LSIM_DIM, SEEN = TOUR_LSIM_SEEN, FAR = TOUR_LSIM_FAR };
    float *start = malloc(sizeof(float) * ROWS * DIM), *trained = malloc(sizeof(float) * ROWS * DIM);
    double *c0 = malloc(sizeof(double) * ROWS * ROWS), *c1 = malloc(sizeof(double) * ROWS * ROWS);
    int st = start && trained && c0 && c1 ? PE_OK : PE_ERR_NOMEM;
    if (st == PE_OK) st = tour_learned_trained(TOUR_LSIM_STEPS, TOUR_LSIM_LR, SEEN, start, trained);
    if (st == PE_OK) {
        tour_row_cosines(start, ROWS, DIM, c0);
        tour_row_cosines(trained, ROWS, DIM, c1);
    }
    free(start);
    free(trained);
    plot_figure *fig = NULL;
    if (st == PE_OK)
        st = fig_begin(&(figure_opts){.width = FIG_OR(o->width, 1200), .height = FIG_OR(o->height, 640),
                                      .scale = o->scale},
                       1, 2, "A learned table's rows: alike only where training made them so", &fig, err, errlen);
    else
        fig_lib_error(st, err, errlen);
    if (st != PE_OK) {
        free(c0);
        free(c1);
        return st;
    }
    const double *maps[2] = {c0, c1};
    for (int p = 0; p < 2; p++) {
        /* the claim's two means, over the trained rows */
        double near = 0, far = 0;
        for (int r = 0; r + 1 < SEEN; r++) near += maps[p][r * ROWS + r + 1];
        for (int r = 0; r + FAR < SEEN; r++) far += maps[p][r * ROWS + r + FAR];
        near /= SEEN - 1;
        far /= SEEN - FAR;
        char sub[160], note[160];
        snprintf(sub, sizeof sub, p == 0 ? "at the random start (seed 1): no structure"
                                         : "after %d SGD steps on rows 0..%d (dashed: the last)", TOUR_LSIM_STEPS, SEEN - 1);
        snprintf(note, sizeof note, "row n; rows < %d: mean cos (m, m+1) %.3f, (m, m+%d) %.3f", SEEN, near, FAR, far);
        plot_axes *ax = plot_figure_axes(fig, 0, p);
        plot_axes_labels(ax, sub, note, "row m");
        plot_axes_options(ax, PLOT_INVERT_Y | PLOT_EQUAL | PLOT_INT_X | PLOT_INT_Y);
        plot_heatmap(ax, maps[p], ROWS, ROWS,
                     &(plot_heatmap_opts){.cmap = PLOT_DIVERGING, .vmin = -1, .vmax = 1,
                                          .cbar_label = "cosine of rows m, n"});
        /* the last trained row and column: the claim's boundary */
        plot_hline(ax, SEEN - 0.5, &(plot_style){.color = PLOT_BLACK});
        plot_vline(ax, SEEN - 0.5, &(plot_style){.color = PLOT_BLACK});
    }
    free(c0);
    free(c1);
    return fig_finish(fig, path, err, errlen);
}
