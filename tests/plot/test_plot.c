/*
 * test_plot.c — the plotting layer (cli/plot/): every element type drawn
 * into PNG (1× and 2×) and SVG under a temporary directory, each file read
 * back and checked; tick and colour helpers; error paths.
 *
 * One line per check ("ok   NAME" or "FAIL NAME: why"), then exactly
 * "N passed, N failed"; exit status 1 on any failure.
 * PLOT_KEEP=1 keeps the files (their directory is printed) to look at them.
 */
#include "../../cli/plot/plot_axes.h"
#include "../../cli/plot/plot_scale.h"
#include "../../cli/plot/plot_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;
static char dir[256];
static char made[64][400];
static int n_made;

/* One line per check: NAME, or "NAME: WHAT" when what is not NULL. */
static void vcheck(bool ok, const char *name, const char *what, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 0)))
#endif
    ;
static void vcheck(bool ok, const char *name, const char *what, const char *fmt, va_list ap) {
    printf("%s %s%s%s", ok ? "ok  " : "FAIL", name, what ? ": " : "", what ? what : "");
    if (ok) {
        passed++;
    } else {
        failed++;
        printf(": ");
        vprintf(fmt, ap);
    }
    printf("\n");
}

static void check(bool ok, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void check(bool ok, const char *name, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vcheck(ok, name, NULL, fmt, ap);
    va_end(ap);
}

static void check_of(bool ok, const char *name, const char *what, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void check_of(bool ok, const char *name, const char *what, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vcheck(ok, name, what, fmt, ap);
    va_end(ap);
}

static const char *path_of(const char *file) {
    static char p[400];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    if (n_made < 64) snprintf(made[n_made++], sizeof made[0], "%s", p);
    return p;
}

/* ---- reading the files back */

static void check_png(const char *name, const char *path, int w, int h) {
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    check_of(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, name, "readable PNG", "%s: %s", path,
             cairo_status_to_string(cairo_surface_status(s)));
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return;
    }
    int sw = cairo_image_surface_get_width(s), sh = cairo_image_surface_get_height(s);
    char what[64];
    snprintf(what, sizeof what, "size %dx%d", w, h);
    check_of(sw == w && sh == h, name, what, "got %dx%d", sw, sh);

    /* distinct colours (a blank or one-colour image has 1) and ink in the middle */
    const unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    enum { NB = 4096 };
    static unsigned char seen[NB];
    memset(seen, 0, sizeof seen);
    int distinct = 0;
    long ink = 0, area = 0;
    for (int y = 0; y < sh; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)stride * (size_t)y);
        for (int x = 0; x < sw; x++) {
            uint32_t c = row[x] & 0xFFFFFFu;
            uint32_t hsh = (c * 2654435761u) >> 20; /* 12-bit hash */
            if (!seen[hsh]) seen[hsh] = 1, distinct++;
            if (x > sw / 4 && x < 3 * sw / 4 && y > sh / 4 && y < 3 * sh / 4) {
                area++;
                ink += c != 0xFFFFFFu;
            }
        }
    }
    check_of(distinct >= 24, name, "not blank", "only %d distinct colours", distinct);
    check_of(ink > area / 200, name, "data area inked", "%ld of %ld central pixels are not white",
             ink, area);
    cairo_surface_destroy(s);
}

static void check_svg(const char *name, const char *path, int w, int h) {
    char want_w[48], want_h[48];
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n = 0;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL &&
        fread(buf, 1, (size_t)n, f) == (size_t)n)
        buf[n] = '\0';
    else
        n = 0;
    if (f != NULL) fclose(f);
    check_of(n > 0, name, "readable SVG", "cannot read %s", path);
    if (n == 0) {
        free(buf);
        return;
    }
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = '\0';
    const char *root = strstr(buf, "<svg");
    check_of(strncmp(buf, "<?xml", 5) == 0 && root != NULL && n > 6 &&
                 strcmp(buf + n - 6, "</svg>") == 0,
             name, "<svg> root", "no <?xml ... <svg ... </svg> structure");
    snprintf(want_w, sizeof want_w, "width=\"%dpx\"", w);
    snprintf(want_h, sizeof want_h, "height=\"%dpx\"", h);
    const char *end = root ? strchr(root, '>') : NULL;
    bool ok = root && end && strstr(root, want_w) && strstr(root, want_w) < end &&
              strstr(root, want_h) && strstr(root, want_h) < end;
    char what[128];
    snprintf(what, sizeof what, "svg %s %s", want_w, want_h);
    check_of(ok, name, what, "root element: %.160s", root ? root : "(none)");
    check_of(strstr(buf, "<path") != NULL && n > 4000, name, "svg has drawing", "%ld bytes", n);
    free(buf);
}

/* Saves fig as NAME.png, NAME@2x.png (a 2× copy built by `build`) and NAME.svg. */
typedef int (*build_fn)(plot_figure *fig);

static void save_all(const char *name, const plot_figure_opts *opts, build_fn build) {
    for (int v = 0; v < 3; v++) {
        plot_figure_opts o = *opts;
        if (v == 1) o.scale = 2;
        plot_figure *fig = NULL;
        char file[128];
        int st = plot_figure_create(&o, &fig);
        if (st == PLOT_OK) st = build(fig);
        snprintf(file, sizeof file, "%s%s", name, v == 0 ? ".png" : v == 1 ? "@2x.png" : ".svg");
        check_of(st == PLOT_OK, file, "build", "status %d (%s): %s", st, plot_strerror(st),
                 fig ? plot_figure_error(fig) : "");
        const char *path = path_of(file);
        st = plot_figure_save(fig, path);
        check_of(st == PLOT_OK, file, "save", "status %d: %s", st,
                 fig ? plot_figure_error(fig) : "");
        int W = o.width ? o.width : 1200, H = o.height ? o.height : 800;
        if (st == PLOT_OK) {
            if (v < 2)
                check_png(file, path,
                          (int)lround(W * (v == 1    ? 2.0
                                           : o.scale ? o.scale
                                                     : 1.0)),
                          (int)lround(H * (v == 1    ? 2.0
                                           : o.scale ? o.scale
                                                     : 1.0)));
            else
                check_svg(file, path, W, H);
        }
        plot_figure_free(fig);
    }
}

/* ---- the figures: one per element type, shaped like the project's own */

#define NP 256
static double xs[NP], ys[4][NP];

static int fig_lines(plot_figure *fig) {
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "Sinusoidal encoding, dimensions 0–3 (d = 64)", "position p", "PE(p, i)");
    for (int i = 0; i < NP; i++) {
        xs[i] = i * 0.25;
        double w0 = 1.0, w1 = pow(10000.0, -2.0 / 64);
        ys[0][i] = sin(xs[i] * w0);
        ys[1][i] = cos(xs[i] * w0);
        ys[2][i] = sin(xs[i] * w1);
        ys[3][i] = (i > 100 && i < 110) ? NAN : cos(xs[i] * w1); /* breaks at NaN */
    }
    int st = plot_line(ax, xs, ys[0], NP, &(plot_style){.label = "sin(p·ω_{0}), i = 0"});
    plot_line(ax, xs, ys[1], NP,
              &(plot_style){.label = "cos(p·ω_{0}), i = 1", .dash = PLOT_DASHED});
    plot_line(ax, xs, ys[2], NP,
              &(plot_style){.label = "sin(p·ω_{1}), i = 2", .dash = PLOT_DOTTED});
    plot_line(ax, xs, ys[3], NP,
              &(plot_style){
                  .label = "cos(p·ω_{1}), i = 3 (gap = NaN)", .dash = PLOT_DASHDOT, .width = 2.5});
    double mx[8], my[8];
    for (int i = 0; i < 8; i++) mx[i] = 8.0 * i, my[i] = sin(mx[i]);
    plot_line(
        ax, mx, my, 8,
        &(plot_style){.label = "samples", .marker = PLOT_SQUARE, .width = 1, .color = PLOT_GREY});
    plot_hline(ax, 0, &(plot_style){.label = "y = 0"});
    plot_vline(ax, 32, &(plot_style){.label = "p = 32", .color = PLOT_PALETTE(4)});
    plot_text(ax, 2 * 3.14159265 + 1.5707963, 1, "peak", PLOT_AT_N, PLOT_AUTO);
    plot_axes_ylim(ax, -1.25, 1.6);
    return st != PLOT_OK ? st : plot_axes_legend(ax, PLOT_LEGEND_BEST);
}

static int fig_scatter(plot_figure *fig) {
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "Attention score vs distance", "relative distance |m − n|", "q·k / √d");
    double x[200], y[200], y2[200];
    uint64_t s = 12345;
    for (int i = 0; i < 200; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(s >> 11) / 9007199254740992.0;
        x[i] = i * 2.5;
        y[i] = 8 * exp(-x[i] / 150) + 2 * (u - 0.5);
        y2[i] = 4 * exp(-x[i] / 60) + (u - 0.5) + (i == 50 ? NAN : 0);
    }
    plot_scatter(ax, x, y, 200, &(plot_style){.label = "RoPE, base 10^{4}"});
    plot_scatter(ax, x, y2, 200,
                 &(plot_style){.label = "ALiBi", .marker = PLOT_TRIANGLE, .alpha = 0.7});
    plot_scatter(ax, x, y2, 20,
                 &(plot_style){.label = "diamonds", .marker = PLOT_DIAMOND, .marker_size = 10});
    plot_scatter(ax, x + 100, y + 100, 20, &(plot_style){.label = "crosses", .marker = PLOT_CROSS});
    return plot_axes_legend(ax, PLOT_LEGEND_NE);
}

static int fig_steps(plot_figure *fig) {
    /* binary encoding: bit k of p is a square wave of period 2^{k+1} */
    for (int k = 0; k < 4; k++) {
        plot_axes *ax = plot_figure_axes(fig, k, 0);
        char title[64];
        snprintf(title, sizeof title, "bit %d (period %d)", k, 2 << k);
        plot_axes_labels(ax, title, k == 3 ? "position p" : NULL, "bit");
        double x[32], y[32];
        for (int p = 0; p < 32; p++) x[p] = p, y[p] = (p >> k) & 1;
        plot_step(ax, x, y, 32, &(plot_style){.color = PLOT_PALETTE(k)});
        plot_axes_options(ax, PLOT_INT_X | PLOT_INT_Y);
        plot_axes_ylim(ax, -0.2, 1.2);
    }
    return PLOT_OK;
}

static int fig_log(plot_figure *fig) {
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "Wavelength of each rotary pair", "pair index i",
                     "wavelength 2π/ω_{i} (tokens)");
    plot_axes_options(ax, PLOT_LOG_Y | PLOT_INT_X);
    double x[64], a[64], b[64];
    for (int i = 0; i < 64; i++) {
        x[i] = i;
        a[i] = 2 * 3.14159265358979 * pow(10000.0, 2.0 * i / 128);
        b[i] = 2 * 3.14159265358979 * pow(500000.0, 2.0 * i / 128);
    }
    plot_line(
        ax, x, a, 64,
        &(plot_style){.label = "base 10^{4} (Llama 2)", .marker = PLOT_CIRCLE, .marker_size = 5});
    plot_line(
        ax, x, b, 64,
        &(plot_style){.label = "base 5·10^{5} (Llama 3)", .marker = PLOT_CIRCLE, .marker_size = 5});
    plot_hline(ax, 8192, &(plot_style){.label = "context 8192"});
    return plot_axes_legend(ax, PLOT_LEGEND_NW);
}

static int fig_heatmap(plot_figure *fig) {
    enum { P = 128, D = 64 };
    static double z[P * D];
    for (int p = 0; p < P; p++)
        for (int i = 0; i < D; i += 2) {
            double w = pow(10000.0, -(double)i / D);
            z[p * D + i] = sin(p * w);
            z[p * D + i + 1] = cos(p * w);
        }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "Sinusoidal positional encoding", "dimension i", "position p");
    plot_axes_options(ax, PLOT_INVERT_Y | PLOT_INT_X | PLOT_INT_Y);
    return plot_heatmap(ax, z, P, D,
                        &(plot_heatmap_opts){.cmap = PLOT_VIRIDIS, .cbar_label = "PE(p, i)"});
}

static int fig_similarity(plot_figure *fig) {
    enum { P = 64 };
    static double z[P * P];
    for (int m = 0; m < P; m++)
        for (int n = 0; n < P; n++) {
            double s = 0;
            for (int i = 0; i < 16; i++) s += cos((m - n) * pow(10000.0, -i / 16.0));
            z[m * P + n] = s / 16 - 0.3;
        }
    z[5 * P + 7] = NAN;
    plot_axes *a = plot_figure_axes(fig, 0, 0), *b = plot_figure_axes(fig, 0, 1);
    plot_axes_labels(a, "⟨PE(m), PE(n)⟩ − 0.3", "n", "m");
    plot_axes_options(a, PLOT_INVERT_Y | PLOT_EQUAL | PLOT_INT_X | PLOT_INT_Y);
    int st = plot_heatmap(a, z, P, P,
                          &(plot_heatmap_opts){.cmap = PLOT_DIVERGING, .cbar_label = "similarity"});
    plot_axes_labels(b, "Same, fixed limits and extents", "n / 64", NULL);
    plot_axes_options(b, PLOT_INVERT_Y | PLOT_EQUAL);
    plot_heatmap(
        b, z, P, P,
        &(plot_heatmap_opts){
            .cmap = PLOT_DIVERGING, .vmin = -2, .vmax = 2, .x0 = 0, .x1 = 1, .y0 = 0, .y1 = 1});
    return st;
}

static int fig_rotation(plot_figure *fig) {
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "RoPE rotates each pair (x_{2i}, x_{2i+1}) by p·ω_{i}", "x_{2i}",
                     "x_{2i+1}");
    plot_axes_options(ax, PLOT_EQUAL);
    plot_axes_xlim(ax, -1.4, 1.4);
    plot_axes_ylim(ax, -1.4, 1.4);
    double cx[181], cy[181];
    for (int i = 0; i <= 180; i++)
        cx[i] = cos(i * 2 * 3.14159265358979 / 180), cy[i] = sin(i * 2 * 3.14159265358979 / 180);
    plot_line(ax, cx, cy, 181, &(plot_style){.color = PLOT_HEX(0xBBBBBB), .width = 1});
    double t0 = 0.5, w = 0.9;
    plot_arrow(ax, 0, 0, cos(t0), sin(t0), &(plot_style){.label = "q at p = 0", .width = 2.5});
    plot_arrow(ax, 0, 0, cos(t0 + w), sin(t0 + w), &(plot_style){.label = "q at p = 1"});
    plot_arrow(ax, 0, 0, cos(t0 + 2 * w), sin(t0 + 2 * w),
               &(plot_style){.label = "q at p = 2", .dash = PLOT_DASHED});
    double ax_[21], ay[21];
    for (int i = 0; i <= 20; i++)
        ax_[i] = 0.35 * cos(t0 + w * i / 20.0), ay[i] = 0.35 * sin(t0 + w * i / 20.0);
    plot_line(ax, ax_, ay, 21, &(plot_style){.color = PLOT_BLACK, .width = 1});
    plot_text(ax, 0.38 * cos(t0 + w / 2), 0.38 * sin(t0 + w / 2), "ω_{i}", PLOT_AT_NE, PLOT_AUTO);
    plot_text(ax, cos(t0), sin(t0), "p = 0", PLOT_AT_E, PLOT_PALETTE(0));
    plot_text(ax, 0, 0, "origin", PLOT_AT_SW, PLOT_AUTO);
    return plot_axes_legend(ax, PLOT_LEGEND_SE);
}

static int fig_bars(plot_figure *fig) {
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "Lowest frequency per scaling scheme", NULL,
                     "ω_{min} relative to default");
    static const char *const names[] = {"default",     "linear ×8", "NTK-aware",
                                        "dynamic NTK", "YaRN",      "Llama 3"};
    double x[6], a[6] = {1, 0.125, 0.19, 0.22, 0.125, 0.125},
                 b[6] = {1, 0.125, 0.35, 0.4, 0.6, 0.8};
    for (int i = 0; i < 6; i++) x[i] = i - 0.2;
    plot_bars(ax, x, a, 6, 0.38, &(plot_style){.label = "lowest pair"});
    for (int i = 0; i < 6; i++) x[i] = i + 0.2;
    plot_bars(ax, x, b, 6, 0.38, &(plot_style){.label = "median pair"});
    double at[6] = {0, 1, 2, 3, 4, 5};
    plot_axes_xticks(ax, at, names, 6);
    plot_hline(ax, 1, &(plot_style){.label = "unscaled", .color = PLOT_BLACK, .dash = PLOT_DOTTED});
    return plot_axes_legend(ax, PLOT_LEGEND_OUTSIDE);
}

static int fig_grid(plot_figure *fig) {
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++) {
            plot_axes *ax = plot_figure_axes(fig, r, c);
            int i = r * 3 + c;
            char t[64];
            snprintf(t, sizeof t, "pair i = %d", i * 6);
            plot_axes_labels(ax, t, r == 1 ? "position" : NULL, c == 0 ? "cos(p·ω_{i})" : NULL);
            double y[200];
            for (int p = 0; p < 200; p++)
                y[p] = cos(p * pow(10000.0, -i * 12 / 64.0)) * (i == 5 ? 1e-5 : 1);
            plot_line(ax, NULL, y, 200, &(plot_style){.color = PLOT_PALETTE(i)});
        }
    return PLOT_OK;
}

static int fig_big_heatmap(plot_figure *fig) {
    enum { P = 4096, D = 128 };
    double *z = malloc(sizeof(double) * P * D);
    if (z == NULL) return PLOT_ERR_NOMEM;
    for (int p = 0; p < P; p++)
        for (int i = 0; i < D; i++)
            z[(size_t)p * D + i] = cos(p * pow(10000.0, -(double)(i & ~1) / D));
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "4096 positions × 128 dims (averaged to the pixels)", "position p",
                     "dimension i");
    int st = PLOT_OK;
    double *zt = malloc(sizeof(double) * P * D); /* transposed: dims as rows */
    if (zt == NULL)
        st = PLOT_ERR_NOMEM;
    else {
        for (int p = 0; p < P; p++)
            for (int i = 0; i < D; i++) zt[(size_t)i * P + p] = z[(size_t)p * D + i];
        st = plot_heatmap(ax, zt, D, P,
                          &(plot_heatmap_opts){.cmap = PLOT_DIVERGING, .cbar_label = "value"});
    }
    free(zt);
    free(z);
    return st;
}

static int fig_log_x(plot_figure *fig) {
    plot_axes *a = plot_figure_axes(fig, 0, 0), *b = plot_figure_axes(fig, 0, 1);
    plot_axes_labels(a, "log–log, 12 decades", "frequency ω", "wavelength");
    plot_axes_options(a, PLOT_LOG_X | PLOT_LOG_Y);
    double x[100], y[100], y2[100];
    for (int i = 0; i < 100; i++)
        x[i] = pow(10, -8 + 0.12 * i), y[i] = 6.283 / x[i], y2[i] = i - 50;
    plot_line(a, x, y, 100, NULL);
    plot_axes_labels(b, "narrow log range, negatives skipped", "x", "y");
    plot_axes_options(b, PLOT_LOG_Y);
    for (int i = 0; i < 100; i++) y2[i] = 3 + 0.4 * sin(i / 10.0) + (i == 20 ? -10 : 0);
    plot_line(b, NULL, y2, 100, &(plot_style){.marker = PLOT_CIRCLE, .marker_size = 4});
    return PLOT_OK;
}

/* ---- layout: tick labels never overlap, whatever the size and range */

static void check_layouts(void) {
    static const double ranges[][2] = {{0, 1},          {0, 4096},  {-3.14159, 3.14159},
                                       {1e-6, 3e-6},    {0, 2.5e7}, {-1234.5, 99999},
                                       {0.5, 0.5000001}};
    static const int widths[] = {1200, 800, 500, 320};
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
    cairo_t *cr = cairo_create(s);
    int bad = 0, cases = 0;
    char why[256] = "";
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++)
            for (int cols = 1; cols <= 4; cols += 3) {
                if (widths[k] / cols < 200) continue; /* cells of small multiples: 200 px and up */
                plot_figure *fig;
                if (plot_figure_create(&(plot_figure_opts){.width = widths[k],
                                                           .height = widths[k] * 2 / 3,
                                                           .cols = cols},
                                       &fig) != PLOT_OK)
                    continue;
                plot_axes *ax = plot_figure_axes(fig, 0, 0);
                double x[2] = {ranges[r][0], ranges[r][1]};
                plot_line(ax, x, x, 2, NULL);
                plot_axes_labels(ax, "t", "x", "y");
                plot_fonts f = plot__fonts(fig);
                plot_layout L;
                plot__layout_panel(cr, ax, &f, 0, 0, (double)widths[k] / cols, widths[k] * 2 / 3.0,
                                   &L);
                cases++;
                double prev_end = -INFINITY, prev_y = NAN;
                int labelled = 0;
                for (int i = 0; i < L.xt.n; i++) {
                    if (!L.xt.t[i].label[0]) continue;
                    labelled++;
                    double px = plot__map(&L.sx, L.xt.t[i].v);
                    double hw = plot__text_width(cr, L.xt.t[i].label, f.tick, false) / 2;
                    if (px - hw < prev_end + 2) {
                        bad++;
                        snprintf(why, sizeof why, "x labels overlap at '%s' (range %g..%g, %gpx)",
                                 L.xt.t[i].label, ranges[r][0], ranges[r][1], L.w);
                    }
                    if (px + hw > (double)widths[k] / cols + 1) {
                        bad++;
                        snprintf(why, sizeof why, "x label '%s' leaves the %gpx cell",
                                 L.xt.t[i].label, (double)widths[k] / cols);
                    }
                    prev_end = px + hw;
                }
                for (int i = 0; i < L.yt.n; i++) {
                    double py = plot__map(&L.sy, L.yt.t[i].v);
                    if (!isnan(prev_y) && fabs(py - prev_y) < 1.2 * f.tick) {
                        bad++;
                        snprintf(why, sizeof why, "y labels %.1fpx apart (range %g..%g)",
                                 fabs(py - prev_y), ranges[r][0], ranges[r][1]);
                    }
                    prev_y = py;
                }
                if (labelled < 2) {
                    bad++;
                    snprintf(why, sizeof why, "%d x labels for range %g..%g", labelled,
                             ranges[r][0], ranges[r][1]);
                }
                plot_figure_free(fig);
            }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    check(bad == 0 && cases > 30, "layout: tick labels fit without overlap", "%d of %d cases: %s",
          bad, cases, why);
}

/* ---- helpers */

static void check_helpers(void) {
    check(plot__nice_step(0.13) == 0.2 && plot__nice_step(3) == 5 && plot__nice_step(7) == 10 &&
              plot__nice_step(1) == 1 && fabs(plot__nice_step(0.0011) - 0.002) < 1e-15,
          "nice_step: 1-2-5 steps", "0.13 -> %g, 3 -> %g, 7 -> %g", plot__nice_step(0.13),
          plot__nice_step(3), plot__nice_step(7));
    plot_ticks t;
    plot__linear_ticks(0, 1, 0.2, &t);
    check(t.n == 6 && strcmp(t.t[0].label, "0.0") == 0 && strcmp(t.t[1].label, "0.2") == 0 &&
              strcmp(t.t[5].label, "1.0") == 0,
          "linear_ticks: 0..1 by 0.2", "n=%d first '%s' last '%s'", t.n, t.t[0].label,
          t.n ? t.t[t.n - 1].label : "");
    plot__linear_ticks(-1, 1, 0.5, &t);
    check(t.n == 5 &&
              strcmp(t.t[0].label, "\xe2\x88\x92"
                                   "1.0") == 0 &&
              strcmp(t.t[2].label, "0.0") == 0,
          "linear_ticks: typographic minus, exact zero", "n=%d '%s' '%s'", t.n, t.t[0].label,
          t.t[2].label);
    plot__linear_ticks(0, 4096, 1000, &t);
    check(t.n == 5 && strcmp(t.t[4].label, "4000") == 0, "linear_ticks: integers", "n=%d last '%s'",
          t.n, t.t[t.n - 1].label);
    plot__linear_ticks(0, 2.5e7, 5e6, &t);
    check(t.n == 6 &&
              strcmp(t.mult, "\xc3\x97"
                             "10^{7}") == 0 &&
              strcmp(t.t[1].label, "0.5") == 0 && strcmp(t.t[5].label, "2.5") == 0,
          "linear_ticks: large values share a ×10^{7} factor", "n=%d mult '%s' '%s'", t.n, t.mult,
          t.t[1].label);
    plot__linear_ticks(0.99999e-5, 1.00001e-5, 5e-11, &t);
    check(strcmp(t.mult, "\xc3\x97"
                         "10^{\xe2\x88\x92"
                         "5}") == 0 &&
              strcmp(t.t[0].label, "0.999990") == 0,
          "linear_ticks: tiny values share a ×10^{−5} factor", "n=%d mult '%s' '%s'", t.n, t.mult,
          t.t[0].label);
    plot__linear_ticks(0.5, 0.5000001, 2e-8, &t);
    check(t.mult[0] == 0 && strcmp(t.t[1].label, "0.50000002") == 0,
          "linear_ticks: narrow range keeps decimals", "mult '%s' '%s'", t.mult, t.t[1].label);
    char b[64];
    plot__format_number(2e6, 1e6, b, sizeof b);
    check(strcmp(b, "2\xc3\x97"
                    "10^{6}") == 0,
          "format: 2×10^{6}", "got '%s'", b);
    plot__format_number(1e-5, 1e-5, b, sizeof b);
    check(strcmp(b, "10^{\xe2\x88\x92"
                    "5}") == 0,
          "format: 10^{−5}", "got '%s'", b);
    plot__log_ticks(1, 1e5, 1, false, &t);
    check(t.n == 6 && strcmp(t.t[0].label, "10^{0}") == 0 && strcmp(t.t[5].label, "10^{5}") == 0,
          "log_ticks: decades 10^{0}..10^{5}", "n=%d", t.n);
    plot__log_ticks(1e-3, 1, 1, true, &t);
    int majors = 0;
    for (int i = 0; i < t.n; i++) majors += t.t[i].label[0] != 0;
    check(majors == 4 && t.n == 4 + 3 * 8 &&
              strcmp(t.t[0].label, "10^{\xe2\x88\x92"
                                   "3}") == 0,
          "log_ticks: minor ticks, negative exponents", "n=%d majors=%d first '%s'", t.n, majors,
          t.t[0].label);
    plot__log_ticks(1, 1e12, 3, false, &t);
    majors = 0;
    for (int i = 0; i < t.n; i++) majors += t.t[i].label[0] != 0;
    check(majors == 5, "log_ticks: every 3rd decade labelled", "majors=%d", majors);
    plot__log_ticks(2.57, 3.46, 1, true, &t);
    check(t.n >= 3 && strcmp(t.t[0].label, "2.6") == 0, "log_ticks: within a decade, linear ticks",
          "n=%d '%s'", t.n, t.t[0].label);
    plot__log_ticks(1e-4, 1e10, 1, true, &t);
    check(t.n == 15 && strcmp(t.t[14].label, "10^{10}") == 0, "log_ticks: 14 decades, none dropped",
          "n=%d last '%s'", t.n, t.t[t.n - 1].label);
    plot__log_ticks(0.05, 1, 1, true, &t);
    majors = 0;
    for (int i = 0; i < t.n; i++) majors += t.t[i].label[0] != 0;
    check(majors == 5 && strcmp(t.t[0].label, "0.05") == 0, "log_ticks: 1.3 decades, 1-2-5 numbers",
          "majors=%d first '%s'", majors, t.t[0].label);
    plot__log_ticks(2, 60, 1, false, &t);
    check(t.n == 5 && strcmp(t.t[0].label, "2") == 0 && strcmp(t.t[4].label, "50") == 0,
          "log_ticks: under two decades, 1-2-5 numbers", "n=%d", t.n);
    check(plot__cmap(PLOT_VIRIDIS, 0) == 0x440154 && plot__cmap(PLOT_VIRIDIS, 1) == 0xFDE725 &&
              plot__cmap(PLOT_DIVERGING, 0.5) == 0xF7F7F7 &&
              plot__cmap(PLOT_DIVERGING, 0) == 0x053061,
          "colormaps: viridis ends, white diverging centre", "viridis %06x..%06x, rdbu centre %06x",
          plot__cmap(PLOT_VIRIDIS, 0), plot__cmap(PLOT_VIRIDIS, 1),
          plot__cmap(PLOT_DIVERGING, 0.5));
}

/* ---- errors */

static void check_errors(void) {
    plot_figure *fig = NULL;
    check(plot_figure_create(&(plot_figure_opts){.width = -5}, &fig) == PLOT_ERR_ARG && fig == NULL,
          "create: negative width rejected", "fig=%p", (void *)fig);
    check(plot_figure_create(&(plot_figure_opts){.scale = 100}, &fig) == PLOT_ERR_ARG,
          "create: scale 100 rejected", "accepted");
    check(plot_figure_create(NULL, NULL) == PLOT_ERR_ARG, "create: NULL out rejected", "accepted");

    int st = plot_figure_create(NULL, &fig);
    check(st == PLOT_OK && fig != NULL, "create: NULL opts gives defaults", "status %d", st);
    if (fig == NULL) return;
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    double y[3] = {1, 2, 3};
    plot_line(ax, NULL, y, 3, NULL);

    st = plot_figure_save(fig, path_of("figure.jpg"));
    check(st == PLOT_ERR_FORMAT && strstr(plot_figure_error(fig), ".png or .svg"),
          "save: .jpg is PLOT_ERR_FORMAT", "status %d: %s", st, plot_figure_error(fig));
    st = plot_figure_save(fig, path_of("no_extension"));
    check(st == PLOT_ERR_FORMAT, "save: no extension is PLOT_ERR_FORMAT", "status %d", st);
    st = plot_figure_save(fig, path_of("dir.png/file"));
    check(st == PLOT_ERR_FORMAT, "save: extension of a directory does not count", "status %d", st);
    st = plot_figure_save(fig, "/nonexistent-posenc-dir/figure.png");
    check(st == PLOT_ERR_IO &&
              strstr(plot_figure_error(fig), "/nonexistent-posenc-dir/figure.png") &&
              strstr(plot_figure_error(fig), "No such file"),
          "save: unwritable .png is PLOT_ERR_IO naming path and reason", "status %d: %s", st,
          plot_figure_error(fig));
    st = plot_figure_save(fig, "/nonexistent-posenc-dir/figure.SVG");
    check(st == PLOT_ERR_IO, "save: unwritable .SVG is PLOT_ERR_IO", "status %d: %s", st,
          plot_figure_error(fig));
    for (int v = 0; v < 2; v++) { /* writes fail: a disk that is full */
        const char *full = path_of(v ? "full.svg" : "full.png");
        if (symlink("/dev/full", full) != 0) continue;
        st = plot_figure_save(fig, full);
        check(st == PLOT_ERR_IO && strstr(plot_figure_error(fig), "No space left"),
              v ? "save: write error on .svg is PLOT_ERR_IO"
                : "save: write error on .png is PLOT_ERR_IO",
              "status %d: %s", st, plot_figure_error(fig));
        remove(full);
    }
    st = plot_figure_save(fig, dir); /* a directory */
    check(st == PLOT_ERR_FORMAT || st == PLOT_ERR_IO, "save: a directory is refused", "status %d",
          st);
    st = plot_figure_save(fig, path_of("after_errors.png"));
    check(st == PLOT_OK && plot_figure_error(fig)[0] == '\0',
          "save: a failed save does not spoil the figure", "status %d: %s", st,
          plot_figure_error(fig));

    check(plot_figure_axes(fig, 1, 0) == NULL, "axes: outside the grid is NULL", "non-NULL");
    st = plot_figure_save(fig, path_of("sticky.png"));
    check(st == PLOT_ERR_ARG && strstr(plot_figure_error(fig), "outside the 1 x 1 grid"),
          "save: building errors are sticky", "status %d: %s", st, plot_figure_error(fig));
    plot_figure_free(fig);

    plot_figure_create(NULL, &fig);
    ax = plot_figure_axes(fig, 0, 0);
    check(plot_line(ax, NULL, NULL, 3, NULL) == PLOT_ERR_ARG &&
              strstr(plot_figure_error(fig), "plot_line"),
          "line: NULL y rejected, message names the call", "%s", plot_figure_error(fig));
    check(plot_line(ax, NULL, y, 0, NULL) == PLOT_ERR_ARG, "line: n = 0 rejected", "accepted");
    check(plot_line(ax, NULL, y, 3, &(plot_style){.color = 0x123}) == PLOT_ERR_ARG,
          "line: untagged colour rejected", "accepted");
    check(plot_line(ax, NULL, y, 3, &(plot_style){.alpha = 2}) == PLOT_ERR_ARG,
          "line: alpha 2 rejected", "accepted");
    check(plot_axes_xlim(ax, 2, 1) == PLOT_ERR_ARG && plot_axes_ylim(ax, 1, 1) == PLOT_ERR_ARG,
          "limits: lo >= hi rejected", "accepted");
    check(plot_axes_xlim(ax, NAN, 1) == PLOT_OK, "limits: NAN end is automatic", "rejected");
    check(plot_heatmap(ax, y, 0, 3, NULL) == PLOT_ERR_ARG, "heatmap: 0 rows rejected", "accepted");
    check(plot_heatmap(ax, y, 1, 3, &(plot_heatmap_opts){.vmin = 1, .vmax = -1}) == PLOT_ERR_ARG,
          "heatmap: vmin > vmax rejected", "accepted");
    check(plot_arrow(ax, 0, 0, NAN, 1, NULL) == PLOT_ERR_ARG, "arrow: non-finite end rejected",
          "accepted");
    check(plot_text(ax, 0, 0, NULL, PLOT_AT_N, PLOT_AUTO) == PLOT_ERR_ARG, "text: NULL rejected",
          "accepted");
    check(plot_bars(ax, NULL, y, 3, -1, NULL) == PLOT_ERR_ARG, "bars: negative width rejected",
          "accepted");
    check(plot_axes_options(ax, 1u << 12) == PLOT_ERR_ARG, "options: unknown flag rejected",
          "accepted");
    plot_figure_free(fig);
    plot_figure_free(NULL);

    /* nothing but NaN, empty panels, a lone point: still a valid picture */
    plot_figure_create(&(plot_figure_opts){.rows = 2, .cols = 2, .title = "degenerate inputs"},
                       &fig);
    double nan3[3] = {NAN, NAN, NAN}, one = 5;
    plot_line(plot_figure_axes(fig, 0, 0), NULL, nan3, 3, &(plot_style){.label = "all NaN"});
    plot_scatter(plot_figure_axes(fig, 0, 1), &one, &one, 1, &(plot_style){.label = "one point"});
    plot_step(plot_figure_axes(fig, 1, 0), NULL, &one, 1, NULL);
    plot_heatmap(plot_figure_axes(fig, 1, 1), nan3, 1, 3, NULL);
    st = plot_figure_save(fig, path_of("degenerate.png"));
    check(st == PLOT_OK, "degenerate inputs draw", "status %d: %s", st, plot_figure_error(fig));
    plot_figure_free(fig);
}

int main(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/posenc-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    bool keep = getenv("PLOT_KEEP") != NULL;
    if (keep) printf("# files in %s\n", dir);

    check_helpers();
    check_layouts();
    save_all("lines", &(plot_figure_opts){0}, fig_lines);
    save_all("scatter", &(plot_figure_opts){.width = 900, .height = 600}, fig_scatter);
    save_all("steps",
             &(plot_figure_opts){.rows = 4, .title = "Binary encoding: each bit is a square wave"},
             fig_steps);
    save_all("log", &(plot_figure_opts){0}, fig_log);
    save_all("heatmap", &(plot_figure_opts){0}, fig_heatmap);
    save_all("similarity",
             &(plot_figure_opts){.cols = 2, .title = "Dot products of sinusoidal encodings"},
             fig_similarity);
    save_all("rotation", &(plot_figure_opts){.width = 800, .height = 800}, fig_rotation);
    save_all("bars", &(plot_figure_opts){0}, fig_bars);
    save_all("grid",
             &(plot_figure_opts){.rows = 2, .cols = 3, .title = "cos(p·ω_{i}) for six pairs"},
             fig_grid);
    save_all("big_heatmap", &(plot_figure_opts){0}, fig_big_heatmap);
    save_all("log_axes", &(plot_figure_opts){.cols = 2}, fig_log_x);
    check_errors();

    if (!keep) {
        for (int i = 0; i < n_made; i++) remove(made[i]);
        if (rmdir(dir) != 0) printf("# could not remove %s\n", dir);
    }
    cairo_debug_reset_static_data();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
