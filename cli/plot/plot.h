/*
 * plot.h — figures for the posenc CLI, drawn with cairo into PNG or SVG.
 * CLI side only: the library never links cairo.
 *
 * Retained mode: create a figure (a grid of panels), add series to its
 * panels — the data is copied — then plot_figure_save() lays everything out
 * and draws it, so limits and ticks see all the data. A figure can be saved
 * more than once (a .png and a .svg of the same plot).
 *
 *     plot_figure *fig;
 *     if (plot_figure_create(&(plot_figure_opts){.title = "Sinusoidal PE"}, &fig)) ...
 *     plot_axes *ax = plot_figure_axes(fig, 0, 0);
 *     plot_axes_labels(ax, "dimension 0", "position", "value");
 *     plot_line(ax, NULL, y, n, &(plot_style){.label = "sin(p·ω_{0})"});
 *     if (plot_figure_save(fig, "pe.png") != PLOT_OK)
 *         fprintf(stderr, "%s\n", plot_figure_error(fig));
 *     plot_figure_free(fig);
 *
 * Conventions
 *  - Every function returns PLOT_OK (0) or a negative plot_status. An error
 *    while building (bad argument, out of memory) is sticky: the figure
 *    remembers the first one and plot_figure_save() returns it, so callers
 *    may check the save alone. plot_figure_error() holds the message.
 *  - Positions are in data units; sizes (widths, marker sizes) in logical
 *    pixels of the W×H figure. Fonts scale with the figure's size.
 *  - Non-finite values (and values <= 0 on a log axis) are skipped: a line
 *    breaks there, a marker or bar is not drawn, a heatmap cell stays blank.
 *  - Text (titles, labels, legend entries, annotations) is UTF-8 with two
 *    bits of markup: "^{...}" is a superscript, "_{...}" a subscript
 *    ("10^{4}", "ω_{i}"). A lone ^ or _ is printed as is.
 *  - A zero-initialised option struct (or NULL) means "all defaults", so
 *    compound literals name only what differs: &(plot_style){.dash = PLOT_DASHED}.
 */
#ifndef PE_CLI_PLOT_H
#define PE_CLI_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    PLOT_OK = 0,
    PLOT_ERR_ARG = -1,    /* bad argument: NULL, empty, out of range */
    PLOT_ERR_FORMAT = -2, /* the path ends in neither .png nor .svg */
    PLOT_ERR_IO = -3,     /* the file could not be written */
    PLOT_ERR_NOMEM = -4,
    PLOT_ERR_CAIRO = -5,  /* cairo failed for another reason */
} plot_status;

const char *plot_strerror(int status);

/* ---- colours: 0xRRGGBB tagged, so that 0 means "automatic" */
typedef uint32_t plot_color;
#define PLOT_AUTO 0u /* the panel's next palette colour (grey for reference lines) */
#define PLOT_RGB(r, g, b)                                                        \
    (0x1000000u | (((uint32_t)(r) & 255u) << 16) | (((uint32_t)(g) & 255u) << 8) | \
     ((uint32_t)(b) & 255u))
#define PLOT_HEX(rrggbb) (0x1000000u | ((uint32_t)(rrggbb) & 0xFFFFFFu))
/* Colour k (mod 8) of the Okabe–Ito colour-blind-safe palette, in the order
 * blue, vermillion, green, orange, purple, sky blue, black, yellow. */
#define PLOT_PALETTE(k) (0x2000000u | ((uint32_t)(k) & 7u))
#define PLOT_BLACK PLOT_HEX(0x000000)
#define PLOT_GREY PLOT_HEX(0x666666)

/* ---- a figure: W×H logical pixels, a grid of panels, a title on top */
typedef struct plot_figure plot_figure;
typedef struct plot_axes plot_axes; /* a panel; owned by its figure */

typedef struct {
    int width, height;  /* logical pixels; 0: 1200 × 800 */
    double scale;       /* PNG pixels per logical pixel (2 for hi-dpi); 0: 1.
                           SVG is vector: its size is always W×H px. */
    int rows, cols;     /* panel grid; 0: 1 × 1 */
    const char *title;  /* the figure's title (suptitle); NULL: none */
} plot_figure_opts;

/* *out = a new figure (NULL opts: all defaults). PLOT_ERR_ARG for negative
 * or absurd sizes (> 16384 device pixels a side), PLOT_ERR_NOMEM. */
int plot_figure_create(const plot_figure_opts *opts, plot_figure **out);
void plot_figure_free(plot_figure *fig); /* NULL is a no-op */

/* The panel at (row, col), 0-based from the top left; NULL if outside the
 * grid (and a sticky PLOT_ERR_ARG). */
plot_axes *plot_figure_axes(plot_figure *fig, int row, int col);

/* Draws the figure into `path`; the format follows its extension, ".png" or
 * ".svg" (case-insensitive). Returns the figure's sticky error if any, else
 * PLOT_ERR_FORMAT, PLOT_ERR_IO (the message names the path and the reason),
 * PLOT_ERR_CAIRO or PLOT_OK. A failed save does not spoil the figure. */
int plot_figure_save(plot_figure *fig, const char *path);

/* The message of the figure's last error; "" if none. */
const char *plot_figure_error(const plot_figure *fig);

/* ---- a panel's axes */
enum {
    PLOT_LOG_X = 1 << 0,     /* log10 scale: ticks at decades, labelled 10^k */
    PLOT_LOG_Y = 1 << 1,
    PLOT_INVERT_X = 1 << 2,  /* x grows to the left */
    PLOT_INVERT_Y = 1 << 3,  /* y grows downwards (matrix order for heatmaps) */
    PLOT_INT_X = 1 << 4,     /* ticks only at integers (positions, dimensions) */
    PLOT_INT_Y = 1 << 5,
    PLOT_EQUAL = 1 << 6,     /* one data unit is as long on x as on y */
    PLOT_NO_GRID = 1 << 7,   /* no grid lines (heatmap panels never get them) */
};
/* OR of the flags above; replaces the panel's previous flags. */
int plot_axes_options(plot_axes *ax, unsigned flags);

/* Panel title, x-axis label, y-axis label; NULL for none. */
int plot_axes_labels(plot_axes *ax, const char *title, const char *xlabel, const char *ylabel);

/* Fixed limits; NAN for an automatic end (the data range, with a 5 % margin
 * on y and on x for scatter, bars and arrows; heatmaps fit exactly). */
int plot_axes_xlim(plot_axes *ax, double lo, double hi);
int plot_axes_ylim(plot_axes *ax, double lo, double hi);

/* Explicit ticks at `at` (n of them) instead of automatic ones, labelled by
 * `labels` (NULL: the numbers). For categories ("NTK", "YaRN") or π/2 steps. */
int plot_axes_xticks(plot_axes *ax, const double *at, const char *const *labels, size_t n);
int plot_axes_yticks(plot_axes *ax, const double *at, const char *const *labels, size_t n);

typedef enum {
    PLOT_LEGEND_NE = 0,   /* top right, inside the plot (the default) */
    PLOT_LEGEND_NW,
    PLOT_LEGEND_SW,
    PLOT_LEGEND_SE,
    PLOT_LEGEND_BEST,     /* the inside corner that hides the fewest points */
    PLOT_LEGEND_OUTSIDE,  /* right of the plot, outside it */
    PLOT_LEGEND_NONE,
} plot_legend;
/* Where the legend goes. It lists every series with a label, in order. */
int plot_axes_legend(plot_axes *ax, plot_legend where);

/* ---- series */
typedef enum { PLOT_DASH_DEFAULT = 0, PLOT_SOLID, PLOT_DASHED, PLOT_DOTTED, PLOT_DASHDOT } plot_dash;
typedef enum {
    PLOT_MARKER_NONE = 0,
    PLOT_CIRCLE,
    PLOT_SQUARE,
    PLOT_TRIANGLE,
    PLOT_DIAMOND,
    PLOT_CROSS
} plot_marker;

typedef struct {
    const char *label;     /* legend entry (inline label for reference lines); NULL: none */
    plot_color color;      /* PLOT_AUTO: next palette colour */
    double width;          /* line width, px; 0: 2 (1.5 for reference lines) */
    plot_dash dash;        /* default: solid; dashed for reference lines */
    plot_marker marker;    /* markers at the points; plot_scatter's default: circles */
    double marker_size;    /* px across; 0: 7 */
    double alpha;          /* opacity in (0, 1]; 0: 1 */
} plot_style;

/* y[i] against x[i] (x NULL: i = 0..n-1), joined by straight segments. */
int plot_line(plot_axes *ax, const double *x, const double *y, size_t n, const plot_style *st);
/* Markers only. */
int plot_scatter(plot_axes *ax, const double *x, const double *y, size_t n, const plot_style *st);
/* A staircase: y[i] holds on [x[i], x[i+1]); the last value holds for one
 * more step as wide as the one before (a bit of a binary encoding fills its
 * whole position). For square waves. */
int plot_step(plot_axes *ax, const double *x, const double *y, size_t n, const plot_style *st);
/* Bars from the axis floor (0, or the bottom of a log axis) to y[i], centred
 * on x[i], `bar_width` data units wide (0: 0.8 × the smallest spacing of x).
 * Offset x per series for grouped bars. */
int plot_bars(plot_axes *ax, const double *x, const double *y, size_t n, double bar_width,
              const plot_style *st);
/* An arrow from (x0, y0) to (x1, y1), its head at the end. */
int plot_arrow(plot_axes *ax, double x0, double y0, double x1, double y1, const plot_style *st);
/* Reference lines across the whole panel, labelled inline with st->label
 * (at the right end for hline, at the top for vline). */
int plot_hline(plot_axes *ax, double y, const plot_style *st);
int plot_vline(plot_axes *ax, double x, const plot_style *st);

/* Where an annotation sits relative to its point: centred on it, or to the
 * north (above), north-east, ... of it with a small gap. */
typedef enum { PLOT_AT_CENTER = 0, PLOT_AT_N, PLOT_AT_NE, PLOT_AT_E, PLOT_AT_SE,
               PLOT_AT_S, PLOT_AT_SW, PLOT_AT_W, PLOT_AT_NW } plot_place;
/* Text at (x, y) in data units; color PLOT_AUTO is near-black. */
int plot_text(plot_axes *ax, double x, double y, const char *text, plot_place where,
              plot_color color);

/* ---- heatmaps */
typedef enum {
    PLOT_VIRIDIS = 0,  /* perceptually uniform, for values of one sign */
    PLOT_DIVERGING,    /* blue–white–red (ColorBrewer RdBu), white at 0, for signed data */
} plot_cmap;

typedef struct {
    plot_cmap cmap;
    double vmin, vmax;      /* colour limits; both 0: the data range, or ±max|z| if diverging */
    double x0, x1;          /* centres of column 0 and of the last column; x0 == x1 (both
                               0): the column index */
    double y0, y1;          /* centres of row 0 and of the last row; y0 == y1: the row index */
    const char *cbar_label; /* label of the colour bar; NULL: none */
    bool no_colorbar;
} plot_heatmap_opts;

/* z: (rows, cols), row-major. Row r is drawn at y = y0 + r·(y1-y0)/(rows-1);
 * add PLOT_INVERT_Y to put row 0 at the top as in a printed matrix. One
 * colour bar per panel, right of it (from the last heatmap). Large matrices
 * are averaged down to the output resolution, never decimated. */
int plot_heatmap(plot_axes *ax, const double *z, size_t rows, size_t cols,
                 const plot_heatmap_opts *opts);

#endif
