/*
 * plot_model.h — the data the plot_*.c files share: a figure's retained
 * items and panels (built by plot_figure.c), and the pixel layout and font sizes
 * of a panel (computed by plot_axes.c, read by plot_draw.c). Types only:
 * every function lives in the header of its layer. Not for the rest of
 * the CLI.
 *
 * The layers, each using only those below it (no file calls upward):
 *   plot_text.c, plot_scale.c   text and colours; ticks and scales
 *   plot_draw.c                 series, heatmaps, legend
 *   plot_axes.c                 panel layout, axes, colour bar
 *   plot_figure.c               the public builder API (plot.h), saving
 */
#ifndef PE_CLI_PLOT_MODEL_H
#define PE_CLI_PLOT_MODEL_H

#include "plot.h"
#include "plot_scale.h"

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

#endif
