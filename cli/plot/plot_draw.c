/* plot_draw.c — the series of a panel (lines, steps, markers, bars,
 * arrows, reference lines, annotations, heatmaps) and its legend. Above
 * plot_text.c and plot_scale.c; plot_axes.c sits above it. */
#include "plot_draw.h"

#include "plot_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- series */

static void set_line_style(cairo_t *cr, const plot_style *st, double width) {
    double u = fmax(width, 1.2);
    cairo_set_line_width(cr, width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    switch (st->dash) {
    case PLOT_DASHED: {
        double d[] = {3.7 * u, 1.6 * u};
        cairo_set_dash(cr, d, 2, 0);
        break;
    }
    case PLOT_DOTTED: {
        double d[] = {0, 2.0 * u};
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_set_dash(cr, d, 2, 0);
        break;
    }
    case PLOT_DASHDOT: {
        double d[] = {6.4 * u, 1.6 * u, 1.0 * u, 1.6 * u};
        cairo_set_dash(cr, d, 4, 0);
        break;
    }
    default: cairo_set_dash(cr, NULL, 0, 0); break;
    }
}

static void marker_at(cairo_t *cr, plot_marker m, double x, double y, double size) {
    double r = size / 2;
    switch (m) {
    case PLOT_CIRCLE:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * PLOT_PI);
        break;
    case PLOT_SQUARE: cairo_rectangle(cr, x - 0.9 * r, y - 0.9 * r, 1.8 * r, 1.8 * r); break;
    case PLOT_TRIANGLE:
        cairo_move_to(cr, x, y - 1.15 * r);
        cairo_line_to(cr, x + r, y + 0.6 * r);
        cairo_line_to(cr, x - r, y + 0.6 * r);
        cairo_close_path(cr);
        break;
    case PLOT_DIAMOND:
        cairo_move_to(cr, x, y - 1.2 * r);
        cairo_line_to(cr, x + 0.9 * r, y);
        cairo_line_to(cr, x, y + 1.2 * r);
        cairo_line_to(cr, x - 0.9 * r, y);
        cairo_close_path(cr);
        break;
    case PLOT_CROSS:
        cairo_move_to(cr, x - r, y - r);
        cairo_line_to(cr, x + r, y + r);
        cairo_move_to(cr, x - r, y + r);
        cairo_line_to(cr, x + r, y - r);
        break;
    default: break;
    }
}

static void finish_markers(cairo_t *cr, plot_marker m, double size) {
    if (m == PLOT_CROSS) {
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_set_line_width(cr, fmax(1.5, size / 5));
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_stroke(cr);
    } else {
        cairo_fill_preserve(cr);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_set_line_width(cr, fmax(0.6, size / 10));
        cairo_stroke(cr);
    }
}

static void draw_markers(cairo_t *cr, const plot_item *it, const plot_layout *L) {
    if (it->st.marker == PLOT_MARKER_NONE) return;
    cairo_save(cr);
    cairo_reset_clip(cr);
    double m = it->st.marker_size;
    cairo_rectangle(cr, L->x - m, L->y - m, L->w + 2 * m, L->h + 2 * m);
    cairo_clip(cr);
    /* batches keep SVG small; the white outline separates overlapping markers */
    size_t batch = 0;
    for (size_t i = 0; i < it->n; i++) {
        double px = plot__map(&L->sx, it->x[i]), py = plot__map(&L->sy, it->y[i]);
        if (isnan(px) || isnan(py) || px < L->x - 0.5 || px > L->x + L->w + 0.5 ||
            py < L->y - 0.5 || py > L->y + L->h + 0.5)
            continue;
        marker_at(cr, it->st.marker, px, py, m);
        if (++batch == 256 || it->st.marker == PLOT_CROSS) {
            plot__set_rgb(cr, it->rgb, it->st.alpha);
            finish_markers(cr, it->st.marker, m);
            batch = 0;
        }
    }
    if (batch) {
        plot__set_rgb(cr, it->rgb, it->st.alpha);
        finish_markers(cr, it->st.marker, m);
    }
    cairo_restore(cr);
}

static double step_end(const plot_item *it) {
    if (it->n == 1) return it->x[0] + 1;
    return 2 * it->x[it->n - 1] - it->x[it->n - 2];
}

static void draw_path(cairo_t *cr, const plot_item *it, const plot_layout *L) {
    bool pen = false;
    for (size_t i = 0; i < it->n; i++) {
        double px = plot__map(&L->sx, it->x[i]), py = plot__map(&L->sy, it->y[i]);
        if (isnan(px) || isnan(py)) {
            pen = false;
            continue;
        }
        if (it->kind == PLOT_IT_STEP) {
            double xn = plot__map(&L->sx, i + 1 < it->n ? it->x[i + 1] : step_end(it));
            if (isnan(xn)) {
                pen = false;
                continue;
            }
            if (pen)
                cairo_line_to(cr, px, py);
            else
                cairo_move_to(cr, px, py);
            cairo_line_to(cr, xn, py);
        } else if (pen) {
            cairo_line_to(cr, px, py);
        } else {
            cairo_move_to(cr, px, py);
        }
        pen = true;
    }
    plot__set_rgb(cr, it->rgb, it->st.alpha);
    set_line_style(cr, &it->st, it->st.width);
    cairo_stroke(cr);
}

static void draw_bars(cairo_t *cr, const plot_item *it, const plot_layout *L) {
    double base = L->sy.log ? L->sy.lo : fmin(fmax(0, L->sy.lo), L->sy.hi);
    double pb = plot__map(&L->sy, base);
    for (size_t i = 0; i < it->n; i++) {
        double xa = plot__map(&L->sx, it->x[i] - it->bar_width / 2);
        double xb = plot__map(&L->sx, it->x[i] + it->bar_width / 2);
        double py = plot__map(&L->sy, it->y[i]);
        if (isnan(xa) || isnan(xb) || isnan(py)) continue;
        cairo_rectangle(cr, fmin(xa, xb), fmin(py, pb), fabs(xb - xa), fabs(pb - py));
    }
    plot__set_rgb(cr, it->rgb, it->st.alpha);
    cairo_fill(cr);
}

static void draw_arrow(cairo_t *cr, const plot_item *it, const plot_layout *L) {
    double x0 = plot__map(&L->sx, it->x[0]), y0 = plot__map(&L->sy, it->y[0]);
    double x1 = plot__map(&L->sx, it->x[1]), y1 = plot__map(&L->sy, it->y[1]);
    double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
    if (!(len > 1e-6)) return;
    double ux = dx / len, uy = dy / len, w = it->st.width;
    double head = fmin(3.2 * w + 7, 0.5 * len), half = 0.42 * head;
    plot__set_rgb(cr, it->rgb, it->st.alpha);
    set_line_style(cr, &it->st, w);
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1 - ux * head * 0.9, y1 - uy * head * 0.9);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, x1 - ux * head - uy * half, y1 - uy * head + ux * half);
    cairo_line_to(cr, x1 - ux * head * 0.82, y1 - uy * head * 0.82);
    cairo_line_to(cr, x1 - ux * head + uy * half, y1 - uy * head - ux * half);
    cairo_close_path(cr);
    cairo_fill(cr);
}

static void draw_refline(cairo_t *cr, const plot_item *it, const plot_fonts *f,
                         const plot_layout *L) {
    bool h = it->kind == PLOT_IT_HLINE;
    double p = h ? plot__map(&L->sy, it->y[0]) : plot__map(&L->sx, it->x[0]);
    if (isnan(p) ||
        (h ? (p < L->y - 0.5 || p > L->y + L->h + 0.5) : (p < L->x - 0.5 || p > L->x + L->w + 0.5)))
        return;
    p = plot__snap(cr, p, it->st.width);
    plot__set_rgb(cr, it->rgb, it->st.alpha);
    set_line_style(cr, &it->st, it->st.width);
    if (h) {
        cairo_move_to(cr, L->x, p);
        cairo_line_to(cr, L->x + L->w, p);
    } else {
        cairo_move_to(cr, p, L->y);
        cairo_line_to(cr, p, L->y + L->h);
    }
    cairo_stroke(cr);
    if (it->label == NULL || !it->label[0]) return;
    double g = 0.35 * f->text, size = 0.92 * f->text, x, y, ha, va;
    if (h) {
        bool room_above = p - L->y > 1.6 * f->text;
        x = L->x + L->w - g, y = room_above ? p - 0.6 * g : p + 0.6 * g, ha = 1,
        va = room_above ? 1 : 0;
    } else {
        bool room_right = L->x + L->w - p > plot__text_width(cr, it->label, size, false) + 3 * g;
        x = room_right ? p + g : p - g, y = L->y + g, ha = room_right ? 0 : 1, va = 0;
    }
    /* a light box keeps the label readable over data */
    double w = plot__text_width(cr, it->label, size, false);
    double th = (PLOT_CAP + PLOT_DESC) * size, m = 0.2 * size;
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_rectangle(cr, x - ha * w - m, y - va * th - m, w + 2 * m, th + 2 * m);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_fill(cr);
    plot__set_rgb(cr, it->rgb, 1);
    plot__draw_text(cr, it->label, x, y, size, false, ha, va, 0);
}

static void draw_annotation(cairo_t *cr, const plot_item *it, const plot_fonts *f,
                            const plot_layout *L) {
    double px = plot__map(&L->sx, it->x[0]), py = plot__map(&L->sy, it->y[0]);
    if (isnan(px) || isnan(py)) return;
    /* where: C N NE E SE S SW W NW -> the text box's anchor and offset */
    static const double ha[9] = {0.5, 0.5, 0, 0, 0, 0.5, 1, 1, 1};
    static const double va[9] = {0.5, 1, 1, 0.5, 0, 0, 0, 0.5, 1};
    static const double ox[9] = {0, 0, 0.7, 1, 0.7, 0, -0.7, -1, -0.7};
    static const double oy[9] = {0, -1, -0.7, 0, 0.7, 1, 0.7, 0, -0.7};
    int k = (int)it->where;
    double g = 0.4 * f->text;
    plot__set_rgb(cr, it->rgb, it->st.alpha);
    plot__draw_text(cr, it->text, px + ox[k] * g, py + oy[k] * g, f->text, false, ha[k], va[k], 0);
}

/* Averages z down to at most (oh, ow) cells: each output cell is the mean of
 * the finite inputs it covers (never decimates). */
static void draw_heatmap(cairo_t *cr, const plot_item *it, const plot_layout *L, double dev) {
    const plot_heatmap_opts *o = &it->hm;
    double dx = it->cols > 1 ? (o->x1 - o->x0) / (double)(it->cols - 1) : 1;
    double dy = it->rows > 1 ? (o->y1 - o->y0) / (double)(it->rows - 1) : 1;
    double xa = plot__map(&L->sx, o->x0 - dx / 2), xb = plot__map(&L->sx, o->x1 + dx / 2);
    double ya = plot__map(&L->sy, o->y0 - dy / 2), yb = plot__map(&L->sy, o->y1 + dy / 2);
    if (isnan(xa) || isnan(xb) || isnan(ya) || isnan(yb) || xa == xb || ya == yb) return;
    double pw = fabs(xb - xa), ph = fabs(yb - ya);
    size_t dw = (size_t)ceil(pw * dev), dh = (size_t)ceil(ph * dev);
    if (dw < 1) dw = 1;
    if (dh < 1) dh = 1;
    size_t ow = it->cols <= dw ? it->cols : dw, oh = it->rows <= dh ? it->rows : dh;
    /* SVG viewers smooth embedded images: repeat each cell kx × ky times so
     * that the smoothing only touches the cell edges */
    size_t kx = 1, ky = 1;
    if (cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_SVG) {
        kx = dw / ow, ky = dh / oh;
        while (kx * ky > 1 && ow * kx * oh * ky > ((size_t)1 << 23)) {
            if (kx > 1) kx = (kx + 1) / 2;
            if (ky > 1) ky = (ky + 1) / 2;
        }
        if (kx < 1) kx = 1;
        if (ky < 1) ky = 1;
    }
    if (ow * kx > 32767 || oh * ky > 32767) return;
    cairo_surface_t *img =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(ow * kx), (int)(oh * ky));
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return;
    }
    cairo_surface_flush(img);
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    bool flip_x = xa > xb, flip_y = ya > yb; /* image row 0 is the top, column 0 the left */
    double span = o->vmax - o->vmin;
    for (size_t i = 0; i < oh; i++) {
        size_t r0 = i * it->rows / oh, r1 = (i + 1) * it->rows / oh;
        if (r1 <= r0) r1 = r0 + 1;
        size_t row = (flip_y ? oh - 1 - i : i) * ky;
        uint32_t *line = (uint32_t *)(void *)(data + (size_t)stride * row);
        for (size_t j = 0; j < ow; j++) {
            size_t c0 = j * it->cols / ow, c1 = (j + 1) * it->cols / ow;
            if (c1 <= c0) c1 = c0 + 1;
            double sum = 0;
            size_t cnt = 0;
            for (size_t r = r0; r < r1; r++)
                for (size_t c = c0; c < c1; c++) {
                    double v = it->z[r * it->cols + c];
                    if (isfinite(v)) sum += v, cnt++;
                }
            size_t col = (flip_x ? ow - 1 - j : j) * kx;
            uint32_t px =
                cnt ? 0xFF000000u | plot__cmap(o->cmap, (sum / (double)cnt - o->vmin) / span) : 0u;
            for (size_t k = 0; k < kx; k++) line[col + k] = px;
        }
        for (size_t k = 1; k < ky; k++)
            memcpy(data + (size_t)stride * (row + k), line, ow * kx * 4);
    }
    cairo_surface_mark_dirty(img);
    cairo_save(cr);
    cairo_translate(cr, fmin(xa, xb), fmin(ya, yb));
    cairo_scale(cr, pw / (double)(ow * kx), ph / (double)(oh * ky));
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
    cairo_rectangle(cr, 0, 0, (double)(ow * kx), (double)(oh * ky));
    cairo_fill(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
}

void plot__draw_items(cairo_t *cr, const plot_axes *ax, const plot_fonts *f, const plot_layout *L,
                      double device_scale) {
    cairo_save(cr);
    cairo_rectangle(cr, L->x, L->y, L->w, L->h);
    cairo_clip(cr);
    for (size_t k = 0; k < ax->n_items; k++)
        if (ax->items[k].kind == PLOT_IT_HEATMAP) draw_heatmap(cr, &ax->items[k], L, device_scale);
    for (size_t k = 0; k < ax->n_items; k++) {
        const plot_item *it = &ax->items[k];
        switch (it->kind) {
        case PLOT_IT_LINE:
        case PLOT_IT_STEP:
            draw_path(cr, it, L);
            draw_markers(cr, it, L);
            break;
        case PLOT_IT_SCATTER: draw_markers(cr, it, L); break;
        case PLOT_IT_BARS: draw_bars(cr, it, L); break;
        case PLOT_IT_ARROW: draw_arrow(cr, it, L); break;
        case PLOT_IT_HLINE:
        case PLOT_IT_VLINE: draw_refline(cr, it, f, L); break;
        default: break;
        }
    }
    cairo_restore(cr);
    for (size_t k = 0; k < ax->n_items; k++)
        if (ax->items[k].kind == PLOT_IT_TEXT) draw_annotation(cr, &ax->items[k], f, L);
}

/* ---- legend */

static bool in_legend(const plot_item *it) {
    return it->label != NULL && it->label[0] && it->kind != PLOT_IT_HEATMAP &&
           it->kind != PLOT_IT_HLINE && it->kind != PLOT_IT_VLINE && it->kind != PLOT_IT_TEXT;
}

typedef struct {
    double row_h, sample_w, gap, pad, col_w;
    int n, rows;
} legend_metrics;

static legend_metrics legend_measure(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                                     double max_h, int *cols) {
    legend_metrics m = {.row_h = 1.5 * f->legend,
                        .sample_w = 2.3 * f->legend,
                        .gap = 0.55 * f->legend,
                        .pad = 0.6 * f->legend};
    double tw = 0;
    for (size_t k = 0; k < ax->n_items; k++)
        if (in_legend(&ax->items[k])) {
            m.n++;
            tw = fmax(tw, plot__text_width(cr, ax->items[k].label, f->legend, false));
        }
    m.col_w = m.sample_w + m.gap + tw;
    *cols = 1;
    m.rows = m.n;
    while (m.rows > 1 && m.rows * m.row_h + 2 * m.pad > 0.95 * max_h) {
        (*cols)++;
        m.rows = (m.n + *cols - 1) / *cols;
    }
    return m;
}

void plot__legend_size(cairo_t *cr, const plot_axes *ax, const plot_fonts *f, double max_h,
                       double *w, double *h, int *cols) {
    *w = *h = 0;
    *cols = 0;
    if (ax->legend == PLOT_LEGEND_NONE) return;
    legend_metrics m = legend_measure(cr, ax, f, max_h, cols);
    if (m.n == 0) return;
    *w = 2 * m.pad + *cols * m.col_w + (*cols - 1) * 2 * m.gap;
    *h = 2 * m.pad + m.rows * m.row_h - 0.2 * f->legend;
}

/* How much of the data a legend box at (bx, by) would hide. */
static double legend_cost(const plot_axes *ax, const plot_layout *L, double bx, double by) {
    double bw = L->legend_w, bh = L->legend_h, cost = 0;
    for (size_t k = 0; k < ax->n_items; k++) {
        const plot_item *it = &ax->items[k];
        if (it->kind == PLOT_IT_HEATMAP || it->kind == PLOT_IT_HLINE || it->kind == PLOT_IT_VLINE)
            continue;
        double qx = NAN, qy = NAN;
        for (size_t i = 0; i < it->n; i++) {
            double px = plot__map(&L->sx, it->x[i]), py = plot__map(&L->sy, it->y[i]);
            int sub = (it->kind == PLOT_IT_LINE || it->kind == PLOT_IT_STEP ||
                       it->kind == PLOT_IT_ARROW) &&
                              !isnan(qx) && !isnan(px)
                          ? 6
                          : 1;
            for (int s = 1; s <= sub; s++) {
                double tx = sub == 1 ? px : qx + (px - qx) * s / sub;
                double ty = sub == 1 ? py : qy + (py - qy) * s / sub;
                if (tx >= bx && tx <= bx + bw && ty >= by && ty <= by + bh) cost += 1.0 / sub;
            }
            if (it->kind == PLOT_IT_BARS && !isnan(px) && !isnan(py) && px >= bx && px <= bx + bw &&
                fmax(py, plot__map(&L->sy, L->sy.log ? L->sy.lo : 0)) >= by)
                cost += 5;
            qx = px, qy = py;
        }
    }
    return cost;
}

void plot__draw_legend(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                       const plot_layout *L) {
    if (L->legend_w <= 0) return;
    int cols;
    legend_metrics m = legend_measure(cr, ax, f, L->h, &cols);
    double in = 0.6 * f->pad, bx, by;
    double left = L->x + in, right = L->x + L->w - in - L->legend_w;
    double top = L->y + in, bottom = L->y + L->h - in - L->legend_h;
    switch (ax->legend) {
    case PLOT_LEGEND_NW: bx = left, by = top; break;
    case PLOT_LEGEND_SW: bx = left, by = bottom; break;
    case PLOT_LEGEND_SE: bx = right, by = bottom; break;
    case PLOT_LEGEND_OUTSIDE: bx = L->cx + L->cw - 0.9 * f->pad - L->legend_w, by = L->y; break;
    case PLOT_LEGEND_BEST: {
        double cand[4][2] = {{right, top}, {left, top}, {right, bottom}, {left, bottom}};
        double best = INFINITY;
        bx = right, by = top;
        for (int i = 0; i < 4; i++) {
            double c = legend_cost(ax, L, cand[i][0], cand[i][1]);
            if (c < best - 1e-9) best = c, bx = cand[i][0], by = cand[i][1];
        }
        break;
    }
    default: bx = right, by = top; break;
    }
    cairo_save(cr);
    double r = 3;
    cairo_new_sub_path(cr);
    cairo_arc(cr, bx + L->legend_w - r, by + r, r, -PLOT_PI / 2, 0);
    cairo_arc(cr, bx + L->legend_w - r, by + L->legend_h - r, r, 0, PLOT_PI / 2);
    cairo_arc(cr, bx + r, by + L->legend_h - r, r, PLOT_PI / 2, PLOT_PI);
    cairo_arc(cr, bx + r, by + r, r, PLOT_PI, 1.5 * PLOT_PI);
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.88);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    int e = 0;
    for (size_t k = 0; k < ax->n_items; k++) {
        const plot_item *it = &ax->items[k];
        if (!in_legend(it)) continue;
        int col = e / m.rows, row = e % m.rows;
        e++;
        double sx = bx + m.pad + col * (m.col_w + 2 * m.gap);
        double cy = by + m.pad + row * m.row_h + 0.5 * (m.row_h - 0.2 * f->legend);
        plot__set_rgb(cr, it->rgb, it->st.alpha);
        if (it->kind == PLOT_IT_BARS) {
            cairo_rectangle(cr, sx + 0.2 * m.sample_w, cy - 0.4 * f->legend, 0.6 * m.sample_w,
                            0.8 * f->legend);
            cairo_fill(cr);
        } else if (it->kind != PLOT_IT_SCATTER) {
            set_line_style(cr, &it->st, fmin(it->st.width, 4));
            cairo_move_to(cr, sx, cy);
            cairo_line_to(cr, sx + m.sample_w, cy);
            cairo_stroke(cr);
        }
        if (it->st.marker != PLOT_MARKER_NONE && it->kind != PLOT_IT_BARS) {
            double ms = fmin(it->st.marker_size, 0.9 * f->legend);
            marker_at(cr, it->st.marker, sx + m.sample_w / 2, cy, ms);
            plot__set_rgb(cr, it->rgb, it->st.alpha);
            finish_markers(cr, it->st.marker, ms);
        }
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        plot__draw_text(cr, it->label, sx + m.sample_w + m.gap, cy, f->legend, false, 0, 0.5, 0);
    }
    cairo_restore(cr);
}
