/*
 * plot_internal.h — what the plot_*.c files share: the figure's retained
 * items, the panel layout, ticks and text. Not for the rest of the CLI.
 *
 *   plot.c        the public builder API, errors, plot_figure_save
 *   plot_axes.c   scales, nice ticks and their labels, panel layout, axes
 *   plot_draw.c   series, heatmaps, legend
 *   plot_text.c   text with ^{}/_{} markup, colours, colormaps, colour bar
 */
#ifndef PE_CLI_PLOT_INTERNAL_H
#define PE_CLI_PLOT_INTERNAL_H

#include "plot.h"

#include <cairo.h>

#define PLOT_PI 3.14159265358979323846
#define PLOT_CAP 0.73  /* cap height of DejaVu Sans, in em: text box above the baseline */
#define PLOT_DESC 0.21 /* descent used for layout, in em: text box below the baseline */

typedef enum {
    PLOT_IT_LINE,
    PLOT_IT_SCATTER,
    PLOT_IT_STEP,
    PLOT_IT_BARS,
    PLOT_IT_ARROW,
    PLOT_IT_HLINE,
    PLOT_IT_VLINE,
    PLOT_IT_TEXT,
    PLOT_IT_HEATMAP,
} plot_item_kind;

/* One retained series or annotation. Owned arrays and strings. */
typedef struct {
    plot_item_kind kind;
    plot_style st;       /* st.label points at `label` */
    char *label;
    uint32_t rgb;        /* resolved 0xRRGGBB */
    double *x, *y;       /* n points (arrow: 2, hline/vline/text: 1) */
    size_t n;
    double bar_width;    /* bars: data units, resolved */
    char *text;          /* text items */
    plot_place where;
    double *z;           /* heatmap: (rows, cols) row-major */
    size_t rows, cols;
    plot_heatmap_opts hm; /* resolved extents and limits; hm.cbar_label points at `label` */
} plot_item;

typedef struct {
    double *at;
    char **labels; /* NULL: numbers */
    size_t n;
} plot_fixed_ticks;

struct plot_axes {
    plot_figure *fig;
    char *title, *xlabel, *ylabel;
    unsigned flags;
    plot_legend legend;
    double xlim[2], ylim[2]; /* NAN: automatic */
    plot_fixed_ticks xticks, yticks;
    plot_item *items;
    size_t n_items, cap_items;
    int next_color;
};

struct plot_figure {
    int width, height, rows, cols;
    double scale;
    char *title;
    plot_axes *panels; /* rows × cols, row-major */
    int sticky;        /* first building error, or PLOT_OK */
    char msg[512];
};

/* Records status + message on the figure (sticky if `sticky`); returns status. */
int plot__fail(plot_figure *fig, bool sticky, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- ticks (plot_axes.c) */
#define PLOT_MAX_TICKS 64
typedef struct {
    double v;
    char label[64]; /* "" for a minor tick */
} plot_tick;
typedef struct {
    plot_tick t[PLOT_MAX_TICKS];
    int n;
    char mult[32]; /* "×10^{e}" when labels are mantissas of a common power; else "" */
} plot_ticks;

/* The smallest 1, 2 or 5 × 10^k that is >= raw (raw > 0). */
double plot__nice_step(double raw);
/* Multiples of `step` in [lo, hi], labelled with as many decimals as the
 * step needs. When the largest |tick| is >= 1e6 or < 1e-3 the labels are
 * mantissas and out->mult holds the common factor "×10^{e}". */
void plot__linear_ticks(double lo, double hi, double step, plot_ticks *out);
/* Log-axis ticks for [lo, hi] (lo > 0): labelled decades "10^{k}" every
 * `stride` decades, unlabelled minor ticks 2..9 × 10^k when stride is 1 and
 * `minor`. Under 2.5 decades: 1-2-5 ticks with numbers (only the 1s when
 * stride > 1); within a decade, linear ticks. */
void plot__log_ticks(double lo, double hi, int stride, bool minor, plot_ticks *out);
/* A value as text with the decimals that `step` needs, e.g. "0.25", "−3"
 * (U+2212 minus); scientific "2×10^{6}" for steps >= 1e5 or tiny values. */
void plot__format_number(double v, double step, char *buf, size_t size);

/* ---- a scale maps data to device-independent figure pixels */
typedef struct {
    double lo, hi;  /* data limits (lo < hi, > 0 when log) */
    bool log;
    double p0, p1;  /* pixel of lo and of hi (p1 < p0 for y, swapped when inverted) */
} plot_scale;
double plot__map(const plot_scale *s, double v); /* NAN if v cannot be placed */

/* The pixel layout of a panel, computed at save time. */
typedef struct {
    double cx, cy, cw, ch;  /* the grid cell */
    double x, y, w, h;      /* the plot area (data rectangle) */
    plot_scale sx, sy;
    plot_ticks xt, yt;
    bool has_heatmap, grid;
    const plot_item *cbar; /* heatmap whose colour bar is drawn, or NULL */
    plot_ticks ct;          /* colour bar ticks */
    double cbar_x;          /* left edge of the colour bar */
    double ylabel_x;        /* left edge of the (rotated) y-axis label */
    double legend_w, legend_h; /* legend box size (0: none) */
    int legend_cols;
} plot_layout;

/* Font sizes in logical pixels for a figure. */
typedef struct {
    double tick, label, title, suptitle, legend, text, pad;
} plot_fonts;
plot_fonts plot__fonts(const plot_figure *fig);

void plot__layout_panel(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                        double cx, double cy, double cw, double ch, plot_layout *L);
/* "label (×10^{e})" when the ticks carry a common factor, else the label. */
void plot__axis_label(const char *label, const char *mult, char *buf, size_t size);
void plot__draw_axes_under(cairo_t *cr, const plot_axes *ax, const plot_layout *L);
void plot__draw_axes_over(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                          const plot_layout *L);

/* ---- text and colours (plot_text.c) */
/* Width of a string with markup at font size `size` (logical px). */
double plot__text_width(cairo_t *cr, const char *s, double size, bool bold);
/* Draws s so that the point (x, y) is at fraction (ha, va) of its box:
 * ha 0 left, 0.5 centre, 1 right; va 0 top, 0.5 middle, 1 bottom.
 * angle in radians, counter-clockwise (π/2 for a y-axis label). */
void plot__draw_text(cairo_t *cr, const char *s, double x, double y, double size, bool bold,
                     double ha, double va, double angle);
void plot__set_rgb(cairo_t *cr, uint32_t rgb, double alpha);
uint32_t plot__palette(int k);
uint32_t plot__cmap(plot_cmap cmap, double t); /* t in [0, 1] */
/* Snap a coordinate so a line of `width` px is crisp on the device. */
double plot__snap(cairo_t *cr, double v, double width);
void plot__draw_colorbar(cairo_t *cr, const plot_fonts *f, const plot_layout *L);

/* ---- series and legend (plot_draw.c) */

void plot__draw_items(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                      const plot_layout *L, double device_scale);
void plot__legend_size(cairo_t *cr, const plot_axes *ax, const plot_fonts *f, double max_h,
                       double *w, double *h, int *cols);
void plot__draw_legend(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                       const plot_layout *L);

#endif
