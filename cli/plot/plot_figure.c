/* plot_figure.c — the figure builder of plot.h: panels, retained series, errors, saving.
 * The top of the plotting layer: it calls plot_axes, plot_draw and
 * plot_text to draw a saved figure; none of them calls back. */
#include "plot.h"

#include "plot_axes.h"
#include "plot_draw.h"
#include "plot_model.h"
#include "plot_text.h"

#include "../atomic_file.h"

#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PLOT_MAX_SIDE 16384 /* device pixels, either side */
#define PLOT_MAX_GRID 16     /* panels, either way */

/* Under AddressSanitizer: fontconfig (loaded by cairo's text) loses a few
 * hundred bytes while parsing its configuration, outside our control; keep
 * LeakSanitizer to our own leaks in every binary that draws figures. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLOT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(PLOT_ASAN)
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }
#endif

const char *plot_strerror(int status) {
    switch (status) {
    case PLOT_OK: return "success";
    case PLOT_ERR_ARG: return "invalid argument";
    case PLOT_ERR_FORMAT: return "unsupported output format";
    case PLOT_ERR_IO: return "cannot write file";
    case PLOT_ERR_NOMEM: return "out of memory";
    case PLOT_ERR_CAIRO: return "cairo error";
    default: return "unknown plot status";
    }
}

/* Records status + message on the figure (sticky if `sticky`); returns status. */
static int plot__fail(plot_figure *fig, bool sticky, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int plot__fail(plot_figure *fig, bool sticky, int status, const char *fmt, ...) {
    if (fig == NULL) return status;
    if (sticky && fig->sticky != PLOT_OK) return status; /* keep the first message */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fig->msg, sizeof fig->msg, fmt, ap);
    va_end(ap);
    if (sticky) fig->sticky = status;
    return status;
}

static char *dup_str(const char *s) {
    if (s == NULL) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL) memcpy(d, s, n);
    return d;
}

/* Replaces *slot with a copy of s (NULL allowed). */
static int set_str(plot_figure *fig, char **slot, const char *s, const char *what) {
    char *d = NULL;
    if (s != NULL && (d = dup_str(s)) == NULL)
        return plot__fail(fig, true, PLOT_ERR_NOMEM, "%s: out of memory", what);
    free(*slot);
    *slot = d;
    return PLOT_OK;
}

static void free_fixed_ticks(plot_fixed_ticks *t) {
    if (t->labels != NULL)
        for (size_t i = 0; i < t->n; i++) free(t->labels[i]);
    free(t->labels);
    free(t->at);
    memset(t, 0, sizeof *t);
}

static void free_item(plot_item *it) {
    free(it->label);
    free(it->x);
    free(it->y);
    free(it->text);
    free(it->z);
}

static void free_panel(plot_axes *ax) {
    for (size_t i = 0; i < ax->n_items; i++) free_item(&ax->items[i]);
    free(ax->items);
    free(ax->title);
    free(ax->xlabel);
    free(ax->ylabel);
    free_fixed_ticks(&ax->xticks);
    free_fixed_ticks(&ax->yticks);
}

int plot_figure_create(const plot_figure_opts *opts, plot_figure **out) {
    if (out == NULL) return PLOT_ERR_ARG;
    *out = NULL;
    plot_figure_opts o = opts != NULL ? *opts : (plot_figure_opts){0};
    if (o.width == 0) o.width = 1200;
    if (o.height == 0) o.height = 800;
    if (o.scale == 0) o.scale = 1;
    if (o.rows == 0) o.rows = 1;
    if (o.cols == 0) o.cols = 1;
    if (o.width < 16 || o.height < 16 || !(o.scale >= 0.25 && o.scale <= 16) ||
        o.width * o.scale > PLOT_MAX_SIDE || o.height * o.scale > PLOT_MAX_SIDE || o.rows < 1 ||
        o.cols < 1 || o.rows > PLOT_MAX_GRID || o.cols > PLOT_MAX_GRID)
        return PLOT_ERR_ARG;
    plot_figure *fig = calloc(1, sizeof *fig);
    if (fig == NULL) return PLOT_ERR_NOMEM;
    fig->width = o.width;
    fig->height = o.height;
    fig->scale = o.scale;
    fig->rows = o.rows;
    fig->cols = o.cols;
    fig->panels = calloc((size_t)o.rows * (size_t)o.cols, sizeof *fig->panels);
    if (fig->panels == NULL || (o.title != NULL && (fig->title = dup_str(o.title)) == NULL)) {
        free(fig->panels);
        free(fig);
        return PLOT_ERR_NOMEM;
    }
    for (int i = 0; i < o.rows * o.cols; i++) {
        plot_axes *ax = &fig->panels[i];
        ax->fig = fig;
        ax->xlim[0] = ax->xlim[1] = ax->ylim[0] = ax->ylim[1] = NAN;
    }
    *out = fig;
    return PLOT_OK;
}

void plot_figure_free(plot_figure *fig) {
    if (fig == NULL) return;
    for (int i = 0; i < fig->rows * fig->cols; i++) free_panel(&fig->panels[i]);
    free(fig->panels);
    free(fig->title);
    free(fig);
}

plot_axes *plot_figure_axes(plot_figure *fig, int row, int col) {
    if (fig == NULL) return NULL;
    if (row < 0 || col < 0 || row >= fig->rows || col >= fig->cols) {
        plot__fail(fig, true, PLOT_ERR_ARG,
                   "plot_figure_axes: panel (%d, %d) is outside the %d x %d grid", row, col,
                   fig->rows, fig->cols);
        return NULL;
    }
    return &fig->panels[row * fig->cols + col];
}

const char *plot_figure_error(const plot_figure *fig) {
    return fig != NULL ? fig->msg : "no figure";
}

/* ---- panel settings */

int plot_axes_options(plot_axes *ax, unsigned flags) {
    if (ax == NULL) return PLOT_ERR_ARG;
    if (flags >= (PLOT_NO_GRID << 1))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "plot_axes_options: unknown flags 0x%x",
                          flags);
    ax->flags = flags;
    return PLOT_OK;
}

int plot_axes_labels(plot_axes *ax, const char *title, const char *xlabel, const char *ylabel) {
    if (ax == NULL) return PLOT_ERR_ARG;
    int st = set_str(ax->fig, &ax->title, title, "plot_axes_labels");
    if (st == PLOT_OK) st = set_str(ax->fig, &ax->xlabel, xlabel, "plot_axes_labels");
    if (st == PLOT_OK) st = set_str(ax->fig, &ax->ylabel, ylabel, "plot_axes_labels");
    return st;
}

static int set_lim(plot_axes *ax, double *lim, double lo, double hi, const char *fn) {
    if (ax == NULL) return PLOT_ERR_ARG;
    if (isinf(lo) || isinf(hi) || (!isnan(lo) && !isnan(hi) && !(lo < hi)))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG,
                          "%s: need lo < hi (or NAN for automatic), got lo=%g hi=%g", fn, lo, hi);
    lim[0] = lo;
    lim[1] = hi;
    return PLOT_OK;
}

int plot_axes_xlim(plot_axes *ax, double lo, double hi) {
    return set_lim(ax, ax ? ax->xlim : NULL, lo, hi, "plot_axes_xlim");
}
int plot_axes_ylim(plot_axes *ax, double lo, double hi) {
    return set_lim(ax, ax ? ax->ylim : NULL, lo, hi, "plot_axes_ylim");
}

static int set_ticks(plot_axes *ax, plot_fixed_ticks *t, const double *at,
                     const char *const *labels, size_t n, const char *fn) {
    if (ax == NULL) return PLOT_ERR_ARG;
    if ((at == NULL && n > 0) || n > PLOT_MAX_TICKS)
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: need at != NULL and n <= %d, got n=%zu",
                          fn, PLOT_MAX_TICKS, n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(at[i]))
            return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: at[%zu] is not finite", fn, i);
    plot_fixed_ticks nt = {0};
    nt.n = n;
    if (n > 0) {
        nt.at = malloc(n * sizeof *nt.at);
        if (labels != NULL) nt.labels = calloc(n, sizeof *nt.labels);
        bool ok = nt.at != NULL && (labels == NULL || nt.labels != NULL);
        for (size_t i = 0; ok && i < n; i++) {
            nt.at[i] = at[i];
            if (labels != NULL) ok = (nt.labels[i] = dup_str(labels[i] ? labels[i] : "")) != NULL;
        }
        if (!ok) {
            free_fixed_ticks(&nt);
            return plot__fail(ax->fig, true, PLOT_ERR_NOMEM, "%s: out of memory", fn);
        }
    }
    free_fixed_ticks(t);
    *t = nt;
    return PLOT_OK;
}

int plot_axes_xticks(plot_axes *ax, const double *at, const char *const *labels, size_t n) {
    return set_ticks(ax, ax ? &ax->xticks : NULL, at, labels, n, "plot_axes_xticks");
}
int plot_axes_yticks(plot_axes *ax, const double *at, const char *const *labels, size_t n) {
    return set_ticks(ax, ax ? &ax->yticks : NULL, at, labels, n, "plot_axes_yticks");
}

int plot_axes_legend(plot_axes *ax, plot_legend where) {
    if (ax == NULL) return PLOT_ERR_ARG;
    if ((int)where < PLOT_LEGEND_NE || where > PLOT_LEGEND_NONE)
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "plot_axes_legend: unknown place %d",
                          (int)where);
    ax->legend = where;
    return PLOT_OK;
}

/* ---- series */

static uint32_t resolve_color(plot_axes *ax, plot_color c, bool consumes) {
    if (c == PLOT_AUTO) return consumes ? plot__palette(ax->next_color++) : 0x555555u;
    if ((c >> 24) == 2u) return plot__palette((int)(c & 7u));
    return c & 0xFFFFFFu;
}

static int check_style(plot_axes *ax, const plot_style *st, const char *fn) {
    if (!(st->width >= 0 && st->width <= 100) ||
        !(st->marker_size >= 0 && st->marker_size <= 200) || !(st->alpha >= 0 && st->alpha <= 1))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG,
                          "%s: style out of range (width=%g, marker_size=%g, alpha=%g)", fn,
                          st->width, st->marker_size, st->alpha);
    if ((int)st->dash < 0 || st->dash > PLOT_DASHDOT || (int)st->marker < 0 ||
        st->marker > PLOT_CROSS)
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: unknown dash %d or marker %d", fn,
                          (int)st->dash, (int)st->marker);
    uint32_t tag = st->color >> 24;
    if (st->color != PLOT_AUTO && tag != 1u && tag != 2u)
        return plot__fail(ax->fig, true, PLOT_ERR_ARG,
                          "%s: color 0x%x is not PLOT_RGB/PLOT_HEX/PLOT_PALETTE", fn, st->color);
    return PLOT_OK;
}

/* Appends a zeroed item with style resolved; NULL after recording the error. */
static plot_item *new_item(plot_axes *ax, plot_item_kind kind, const plot_style *style,
                           const char *fn, int *status) {
    *status = PLOT_ERR_ARG;
    if (ax == NULL) return NULL;
    plot_style st = style != NULL ? *style : (plot_style){0};
    if ((*status = check_style(ax, &st, fn)) != PLOT_OK) return NULL;
    if (ax->n_items == ax->cap_items) {
        size_t cap = ax->cap_items ? 2 * ax->cap_items : 8;
        plot_item *p = realloc(ax->items, cap * sizeof *p);
        if (p == NULL) {
            *status = plot__fail(ax->fig, true, PLOT_ERR_NOMEM, "%s: out of memory", fn);
            return NULL;
        }
        ax->items = p;
        ax->cap_items = cap;
    }
    plot_item *it = &ax->items[ax->n_items];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    bool ref = kind == PLOT_IT_HLINE || kind == PLOT_IT_VLINE;
    if (st.label != NULL && (it->label = dup_str(st.label)) == NULL) {
        *status = plot__fail(ax->fig, true, PLOT_ERR_NOMEM, "%s: out of memory", fn);
        return NULL;
    }
    st.label = it->label;
    if (st.width == 0) st.width = ref ? 1.5 : 2.0;
    if (st.dash == PLOT_DASH_DEFAULT) st.dash = ref ? PLOT_DASHED : PLOT_SOLID;
    if (st.marker_size == 0) st.marker_size = 7;
    if (st.alpha == 0) st.alpha = 1;
    if (kind == PLOT_IT_SCATTER && st.marker == PLOT_MARKER_NONE) st.marker = PLOT_CIRCLE;
    it->rgb = resolve_color(ax, st.color, !ref && kind != PLOT_IT_TEXT && kind != PLOT_IT_HEATMAP);
    if (kind == PLOT_IT_TEXT && st.color == PLOT_AUTO) it->rgb = 0x222222u;
    it->st = st;
    *status = PLOT_OK;
    return it;
}

/* Commits the item made by new_item (after its data was attached). */
static int commit(plot_axes *ax) {
    ax->n_items++;
    return PLOT_OK;
}

static int abandon(plot_axes *ax, plot_item *it, int status, const char *fn) {
    free_item(it);
    if (status == PLOT_ERR_NOMEM) return plot__fail(ax->fig, true, status, "%s: out of memory", fn);
    return status;
}

static int add_xy(plot_axes *ax, plot_item_kind kind, const double *x, const double *y, size_t n,
                  const plot_style *st, const char *fn, plot_item **made) {
    if (ax == NULL) return PLOT_ERR_ARG;
    if (y == NULL || n == 0)
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: need y != NULL and n > 0 (n=%zu)", fn,
                          n);
    if (n > ((size_t)1 << 28))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: n=%zu points is too many", fn, n);
    int status;
    plot_item *it = new_item(ax, kind, st, fn, &status);
    if (it == NULL) return status;
    it->x = malloc(n * sizeof *it->x);
    it->y = malloc(n * sizeof *it->y);
    if (it->x == NULL || it->y == NULL) return abandon(ax, it, PLOT_ERR_NOMEM, fn);
    for (size_t i = 0; i < n; i++) it->x[i] = x != NULL ? x[i] : (double)i;
    memcpy(it->y, y, n * sizeof *y);
    it->n = n;
    if (made != NULL) *made = it;
    return commit(ax);
}

int plot_line(plot_axes *ax, const double *x, const double *y, size_t n, const plot_style *st) {
    return add_xy(ax, PLOT_IT_LINE, x, y, n, st, "plot_line", NULL);
}

int plot_scatter(plot_axes *ax, const double *x, const double *y, size_t n, const plot_style *st) {
    return add_xy(ax, PLOT_IT_SCATTER, x, y, n, st, "plot_scatter", NULL);
}

int plot_step(plot_axes *ax, const double *x, const double *y, size_t n, const plot_style *st) {
    return add_xy(ax, PLOT_IT_STEP, x, y, n, st, "plot_step", NULL);
}

static int cmp_double(const void *a, const void *b) {
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

int plot_bars(plot_axes *ax, const double *x, const double *y, size_t n, double bar_width,
              const plot_style *st) {
    if (ax != NULL && !(bar_width >= 0 && isfinite(bar_width)))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "plot_bars: bar_width=%g must be >= 0",
                          bar_width);
    plot_item *it = NULL;
    int s = add_xy(ax, PLOT_IT_BARS, x, y, n, st, "plot_bars", &it);
    if (s != PLOT_OK) return s;
    if (bar_width == 0) {
        /* 0.8 × the smallest gap between distinct finite x */
        double *sx = malloc(n * sizeof *sx), gap = INFINITY;
        size_t m = 0;
        if (sx != NULL) {
            for (size_t i = 0; i < n; i++)
                if (isfinite(it->x[i])) sx[m++] = it->x[i];
            qsort(sx, m, sizeof *sx, cmp_double);
            for (size_t i = 1; i < m; i++)
                if (sx[i] > sx[i - 1] && sx[i] - sx[i - 1] < gap) gap = sx[i] - sx[i - 1];
            free(sx);
        }
        bar_width = 0.8 * (isfinite(gap) ? gap : 1.0);
    }
    it->bar_width = bar_width;
    return PLOT_OK;
}

static int add_points(plot_axes *ax, plot_item_kind kind, const double *px, const double *py,
                      size_t n, const plot_style *st, const char *fn, plot_item **made) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(px[i]) || !isfinite(py[i]))
            return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: coordinates must be finite", fn);
    return add_xy(ax, kind, px, py, n, st, fn, made);
}

int plot_arrow(plot_axes *ax, double x0, double y0, double x1, double y1, const plot_style *st) {
    if (ax == NULL) return PLOT_ERR_ARG;
    double x[2] = {x0, x1}, y[2] = {y0, y1};
    return add_points(ax, PLOT_IT_ARROW, x, y, 2, st, "plot_arrow", NULL);
}

int plot_hline(plot_axes *ax, double y, const plot_style *st) {
    if (ax == NULL) return PLOT_ERR_ARG;
    double x = 0;
    return add_points(ax, PLOT_IT_HLINE, &x, &y, 1, st, "plot_hline", NULL);
}

int plot_vline(plot_axes *ax, double x, const plot_style *st) {
    if (ax == NULL) return PLOT_ERR_ARG;
    double y = 0;
    return add_points(ax, PLOT_IT_VLINE, &x, &y, 1, st, "plot_vline", NULL);
}

int plot_text(plot_axes *ax, double x, double y, const char *text, plot_place where,
              plot_color color) {
    if (ax == NULL) return PLOT_ERR_ARG;
    if (text == NULL || (int)where < PLOT_AT_CENTER || where > PLOT_AT_NW)
        return plot__fail(ax->fig, true, PLOT_ERR_ARG,
                          "plot_text: need text != NULL and a known place");
    plot_item *it = NULL;
    int s =
        add_points(ax, PLOT_IT_TEXT, &x, &y, 1, &(plot_style){.color = color}, "plot_text", &it);
    if (s != PLOT_OK) return s;
    it->where = where;
    if ((it->text = dup_str(text)) == NULL) {
        ax->n_items--;
        return abandon(ax, it, PLOT_ERR_NOMEM, "plot_text");
    }
    return PLOT_OK;
}

int plot_heatmap(plot_axes *ax, const double *z, size_t rows, size_t cols,
                 const plot_heatmap_opts *opts) {
    static const char fn[] = "plot_heatmap";
    if (ax == NULL) return PLOT_ERR_ARG;
    plot_heatmap_opts o = opts != NULL ? *opts : (plot_heatmap_opts){0};
    if (z == NULL || rows == 0 || cols == 0 || rows > (1u << 20) || cols > (1u << 20) ||
        rows * cols > ((size_t)1 << 28))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG,
                          "%s: need z != NULL and 0 < rows, cols (rows=%zu, cols=%zu)", fn, rows,
                          cols);
    if ((int)o.cmap < PLOT_VIRIDIS || o.cmap > PLOT_DIVERGING)
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: unknown colormap %d", fn, (int)o.cmap);
    bool auto_lim = o.vmin == 0 && o.vmax == 0;
    if (!auto_lim && !(o.vmin < o.vmax && isfinite(o.vmin) && isfinite(o.vmax)))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: need vmin < vmax, got %g, %g", fn,
                          o.vmin, o.vmax);
    if (!isfinite(o.x0) || !isfinite(o.x1) || !isfinite(o.y0) || !isfinite(o.y1))
        return plot__fail(ax->fig, true, PLOT_ERR_ARG, "%s: extents must be finite", fn);
    int status;
    plot_item *it = new_item(ax, PLOT_IT_HEATMAP, NULL, fn, &status);
    if (it == NULL) return status;
    size_t n = rows * cols;
    it->z = malloc(n * sizeof *it->z);
    if (it->z == NULL || (o.cbar_label != NULL && (it->label = dup_str(o.cbar_label)) == NULL))
        return abandon(ax, it, PLOT_ERR_NOMEM, fn);
    memcpy(it->z, z, n * sizeof *z);
    if (auto_lim) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; i++)
            if (isfinite(z[i])) {
                if (z[i] < lo) lo = z[i];
                if (z[i] > hi) hi = z[i];
            }
        if (!(lo <= hi)) lo = 0, hi = 1;
        if (o.cmap == PLOT_DIVERGING) {
            double m = fmax(fabs(lo), fabs(hi));
            lo = -m, hi = m;
        }
        if (lo == hi) {
            double d = lo != 0 ? 0.5 * fabs(lo) : 1;
            lo -= d, hi += d;
        }
        o.vmin = lo, o.vmax = hi;
    }
    if (o.x0 == o.x1) o.x0 = 0, o.x1 = (double)(cols - 1);
    if (o.y0 == o.y1) o.y0 = 0, o.y1 = (double)(rows - 1);
    o.cbar_label = it->label;
    it->hm = o;
    it->rows = rows;
    it->cols = cols;
    it->st.label = NULL; /* not a legend entry */
    return commit(ax);
}

/* ---- rendering */

static void render(const plot_figure *fig, cairo_t *cr, double device_scale) {
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF); /* same layout at any scale */
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_SLIGHT);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);

    plot_fonts f = plot__fonts(fig);
    double W = fig->width, H = fig->height;
    double top = 0.6 * f.pad;
    if (fig->title != NULL) {
        double size = f.suptitle, tw = plot__text_width(cr, fig->title, size, true);
        if (tw > W - 2 * f.pad) size *= fmax(0.6, (W - 2 * f.pad) / tw);
        cairo_set_source_rgb(cr, 0.07, 0.07, 0.07);
        plot__draw_text(cr, fig->title, W / 2, f.pad, size, true, 0.5, 0, 0);
        top = f.pad + 1.45 * size;
    }
    double outer = 0.4 * f.pad;
    double cw = (W - 2 * outer) / fig->cols, ch = (H - top - outer) / fig->rows;
    for (int r = 0; r < fig->rows; r++)
        for (int c = 0; c < fig->cols; c++) {
            const plot_axes *ax = &fig->panels[r * fig->cols + c];
            if (ax->n_items == 0 && !ax->title && !ax->xlabel && !ax->ylabel)
                continue; /* unused cell */
            plot_layout L;
            plot__layout_panel(cr, ax, &f, outer + c * cw, top + r * ch, cw, ch, &L);
            plot__draw_axes_under(cr, ax, &L);
            plot__draw_items(cr, ax, &f, &L, device_scale);
            plot__draw_axes_over(cr, ax, &f, &L);
            plot__draw_colorbar(cr, &f, &L);
            plot__draw_legend(cr, ax, &f, &L);
        }
}

/* The encoded figure, in memory: cairo writes the whole PNG or SVG here
 * before a file is touched, so a slow or failed drawing never leaves a
 * 0-byte or half file (nor removes an existing one). */
typedef struct {
    unsigned char *buf;
    size_t len, cap;
} plot_sink;

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length) {
    plot_sink *k = closure;
    if (length > k->cap - k->len) {
        size_t cap = k->cap ? k->cap : 1 << 16;
        while (cap - k->len < length) {
            if (cap > SIZE_MAX / 2) return CAIRO_STATUS_NO_MEMORY;
            cap *= 2;
        }
        unsigned char *b = realloc(k->buf, cap);
        if (b == NULL) return CAIRO_STATUS_NO_MEMORY;
        k->buf = b;
        k->cap = cap;
    }
    memcpy(k->buf + k->len, data, length);
    k->len += length;
    return CAIRO_STATUS_SUCCESS;
}

int plot_figure_save(plot_figure *fig, const char *path) {
    if (fig == NULL) return PLOT_ERR_ARG;
    if (fig->sticky != PLOT_OK) return fig->sticky;
    fig->msg[0] = '\0';
    if (path == NULL || path[0] == '\0')
        return plot__fail(fig, false, PLOT_ERR_ARG, "plot_figure_save: empty path");
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    bool png = false, svg = false;
    if (dot != NULL && (slash == NULL || dot > slash)) {
        png = strcasecmp(dot, ".png") == 0;
        svg = strcasecmp(dot, ".svg") == 0;
    }
    if (!png && !svg)
        return plot__fail(fig, false, PLOT_ERR_FORMAT,
                          "cannot save '%s': the file name must end in .png or .svg", path);

    plot_sink sink = {NULL, 0, 0};
    cairo_surface_t *s;
    double device_scale;
    if (png) {
        s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)lround(fig->width * fig->scale),
                                       (int)lround(fig->height * fig->scale));
        device_scale = fig->scale;
    } else {
        s = cairo_svg_surface_create_for_stream(write_stream, &sink, fig->width, fig->height);
        if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)
            cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
        device_scale = 2; /* resolution of raster parts (heatmaps) */
    }
    cairo_t *cr = cairo_create(s);
    if (png) cairo_scale(cr, fig->scale, fig->scale);
    render(fig, cr, device_scale);
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    if (cs == CAIRO_STATUS_SUCCESS && png)
        cs = cairo_surface_write_to_png_stream(s, write_stream, &sink);
    cairo_surface_finish(s);
    if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (cs != CAIRO_STATUS_SUCCESS) {
        free(sink.buf);
        if (cs == CAIRO_STATUS_NO_MEMORY)
            return plot__fail(fig, false, PLOT_ERR_NOMEM, "out of memory drawing '%s'", path);
        return plot__fail(fig, false, PLOT_ERR_CAIRO, "drawing '%s': %s", path,
                          cairo_status_to_string(cs));
    }
    /* Only now is a file made: atomic_file.h writes a temporary next to
     * path and renames it over path, so a full disk or a signal leaves the
     * previous figure as it was. */
    char err[1024];
    FILE *f = atomic_open(path, err, sizeof err);
    if (f == NULL) {
        free(sink.buf);
        return plot__fail(fig, false, PLOT_ERR_IO, "%s", err);
    }
    const bool wrote = fwrite(sink.buf, 1, sink.len, f) == sink.len;
    const int werr = errno;
    free(sink.buf);
    if (!wrote) {
        atomic_close(f, false, err, sizeof err);
        return plot__fail(fig, false, PLOT_ERR_IO, "cannot write '%s': %s", path, strerror(werr));
    }
    if (atomic_close(f, true, err, sizeof err) != 0) return plot__fail(fig, false, PLOT_ERR_IO, "%s", err);
    return PLOT_OK;
}
