/* plot_axes.c — the layout of a panel (limits, ticks, room for labels and
 * legend) and its grid, frame, ticks, axis labels, title and colour bar.
 * The top drawing layer: it uses plot_scale (numbers), plot_text (text,
 * colours) and plot_draw (the legend's size); nothing below calls back. */
#include "plot_axes.h"

#include "plot_draw.h"
#include "plot_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TICK_LEN 5.0
#define MINOR_LEN 3.0

plot_fonts plot__fonts(const plot_figure *fig) {
    /* grows with the fourth root of the area: 1 at 1200 × 800, 0.9 at 800 × 800 */
    double k = pow((double)fig->width * fig->height / (1200.0 * 800.0), 0.25);
    k = fmin(fmax(k, 0.7), 2.0);
    int dense = fig->rows > fig->cols ? fig->rows : fig->cols;
    if (dense >= 3) k *= 0.92;
    if (dense >= 5) k *= 0.9;
    return (plot_fonts){.tick = 13 * k,
                        .label = 15 * k,
                        .title = 16 * k,
                        .suptitle = 21 * k,
                        .legend = 13 * k,
                        .text = 13.5 * k,
                        .pad = 12 * k};
}

/* ---- data limits */

typedef struct {
    double lo, hi;
    bool any;
} range;

static void widen(range *r, double v, bool log) {
    if (!isfinite(v) || (log && !(v > 0))) return;
    if (!r->any || v < r->lo) r->lo = v;
    if (!r->any || v > r->hi) r->hi = v;
    r->any = true;
}

static void step_last_x(const plot_item *it, double *last) {
    *last = NAN;
    if (it->n >= 2 && isfinite(it->x[it->n - 1]) && isfinite(it->x[it->n - 2]))
        *last = 2 * it->x[it->n - 1] - it->x[it->n - 2];
}

/* Data range of a panel on x (axis 0) or y (axis 1); sets *padded when a
 * margin suits the items (points that should not touch the frame). */
static range data_range(const plot_axes *ax, int axis, bool log, bool *padded, bool *bars_floor) {
    range r = {0, 0, false};
    *padded = false;
    *bars_floor = false;
    bool heat = false;
    for (size_t k = 0; k < ax->n_items; k++) {
        const plot_item *it = &ax->items[k];
        const double *v = axis == 0 ? it->x : it->y;
        switch (it->kind) {
        case PLOT_IT_HEATMAP: {
            double a = axis == 0 ? it->hm.x0 : it->hm.y0, b = axis == 0 ? it->hm.x1 : it->hm.y1;
            size_t n = axis == 0 ? it->cols : it->rows;
            double d = n > 1 ? (b - a) / (double)(n - 1) : 1;
            widen(&r, a - d / 2, log);
            widen(&r, b + d / 2, log);
            heat = true;
            break;
        }
        case PLOT_IT_HLINE:
            if (axis == 1) widen(&r, it->y[0], log);
            break;
        case PLOT_IT_VLINE:
            if (axis == 0) widen(&r, it->x[0], log);
            break;
        case PLOT_IT_BARS:
            for (size_t i = 0; i < it->n; i++) {
                if (!isfinite(it->x[i]) || !isfinite(it->y[i])) continue;
                if (axis == 0) {
                    widen(&r, it->x[i] - it->bar_width / 2, log);
                    widen(&r, it->x[i] + it->bar_width / 2, log);
                } else {
                    widen(&r, it->y[i], log);
                }
            }
            if (axis == 1 && !log) {
                widen(&r, 0, log);
                *bars_floor = true;
            }
            *padded = true;
            break;
        default:
            for (size_t i = 0; i < it->n; i++)
                if (isfinite(it->x[i]) && isfinite(it->y[i])) widen(&r, v[i], log);
            if (it->kind == PLOT_IT_STEP && axis == 0) {
                double last;
                step_last_x(it, &last);
                widen(&r, last, log);
            }
            if (it->kind == PLOT_IT_SCATTER || it->kind == PLOT_IT_ARROW ||
                it->kind == PLOT_IT_TEXT || axis == 1)
                *padded = true;
            break;
        }
    }
    if (heat) *padded = false;
    return r;
}

static void axis_limits(const plot_axes *ax, int axis, double *lo, double *hi) {
    bool log = (ax->flags & (axis == 0 ? PLOT_LOG_X : PLOT_LOG_Y)) != 0;
    const double *fixed = axis == 0 ? ax->xlim : ax->ylim;
    bool padded, floor0;
    range r = data_range(ax, axis, log, &padded, &floor0);
    double a, b;
    if (!r.any) {
        a = log ? 1 : 0;
        b = log ? 10 : 1;
    } else if (log) {
        a = log10(r.lo), b = log10(r.hi);
        if (a == b) a -= 0.5, b += 0.5;
        if (padded) {
            double m = 0.05 * (b - a);
            a -= m, b += m;
        }
        a = pow(10, a), b = pow(10, b);
    } else {
        a = r.lo, b = r.hi;
        if (a == b) {
            double d = a != 0 ? 0.1 * fabs(a) : 1;
            a -= d, b += d;
        } else if (padded) {
            double m = 0.05 * (b - a);
            bool a0 = floor0 && a == 0, b0 = floor0 && b == 0;
            if (!a0) a -= m;
            if (!b0) b += m;
        }
    }
    if (isfinite(fixed[0]) && (!log || fixed[0] > 0)) a = fixed[0];
    if (isfinite(fixed[1]) && (!log || fixed[1] > 0)) b = fixed[1];
    if (!(a < b)) {
        if (isfinite(fixed[0]))
            b = log ? a * 10 : a + 1;
        else
            a = log ? b / 10 : b - 1;
    }
    *lo = a;
    *hi = b;
}

/* ---- choosing ticks that fit */

static double max_label_width(cairo_t *cr, const plot_ticks *t, double size) {
    double w = 0;
    for (int i = 0; i < t->n; i++)
        if (t->t[i].label[0]) w = fmax(w, plot__text_width(cr, t->t[i].label, size, false));
    return w;
}

static void fixed_ticks(const plot_fixed_ticks *fx, plot_ticks *out) {
    out->n = 0;
    out->mult[0] = '\0';
    double gap = INFINITY;
    for (size_t i = 1; i < fx->n; i++)
        if (fabs(fx->at[i] - fx->at[i - 1]) > 0) gap = fmin(gap, fabs(fx->at[i] - fx->at[i - 1]));
    double step = isfinite(gap) ? gap : (fx->n ? fabs(fx->at[0]) : 1);
    for (size_t i = 0; i < fx->n; i++) {
        char label[64];
        if (fx->labels != NULL)
            snprintf(label, sizeof label, "%s", fx->labels[i]);
        else
            plot__format_number(fx->at[i], step, label, sizeof label);
        plot__push_tick(out, fx->at[i], label);
    }
}

/* Ticks for [lo, hi] drawn over `len` px. Horizontal axes need room for
 * each label's width, vertical ones for its height. */
static void choose_ticks(cairo_t *cr, double lo, double hi, bool log, bool int_only,
                         const plot_fixed_ticks *fx, double len, bool horizontal, double font,
                         plot_ticks *out) {
    if (fx != NULL && fx->n > 0) {
        fixed_ticks(fx, out);
        return;
    }
    len = fmax(len, 1);
    if (log) {
        double decades = log10(hi) - log10(lo);
        double per = len / fmax(decades, 1e-9); /* px per decade */
        static const int strides[] = {1, 2, 3, 4, 5, 10, 20, 50, 100};
        for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
            plot__log_ticks(lo, hi, strides[i], per >= 4.0 * font, out);
            double need = horizontal ? max_label_width(cr, out, font) + 1.2 * font : 2.0 * font;
            double gap = INFINITY, prev = NAN; /* px between neighbouring labels */
            for (int k = 0; k < out->n; k++) {
                if (!out->t[k].label[0]) continue;
                double at = per * log10(out->t[k].v);
                if (!isnan(prev)) gap = fmin(gap, at - prev);
                prev = at;
            }
            if (gap >= need) break;
        }
        return;
    }
    /* The finest 1-2-5 step whose labels fit and that gives no more ticks
     * than the density allows; failing that, the coarsest with two ticks. */
    double max_ticks = horizontal ? fmax(3, len / (6.0 * font)) : fmax(4, len / (4.0 * font));
    double step = plot__nice_step((hi - lo) / 40);
    plot_ticks best = {.n = 0};
    for (int iter = 0; iter < 40; iter++, step = plot__nice_step(step * 1.01)) {
        if (int_only && step < 1) continue;
        plot__linear_ticks(lo, hi, step, out);
        if (out->n < 2) break;
        best = *out;
        double px = len * step / (hi - lo);
        double need = horizontal ? max_label_width(cr, out, font) + 1.2 * font : 2.0 * font;
        if (px >= need && out->n <= max_ticks) return;
    }
    if (best.n >= 2)
        *out = best;
    else if (out->n < 2)
        plot__linear_ticks(lo, hi, (hi - lo) / 1.0000001, out); /* the two ends */
}

/* ---- layout */

static bool is_log(const plot_axes *ax, int axis) {
    return (ax->flags & (axis == 0 ? PLOT_LOG_X : PLOT_LOG_Y)) != 0;
}

static void set_scales(const plot_axes *ax, plot_layout *L, double xlo, double xhi, double ylo,
                       double yhi) {
    bool invx = (ax->flags & PLOT_INVERT_X) != 0, invy = (ax->flags & PLOT_INVERT_Y) != 0;
    L->sx =
        (plot_scale){xlo, xhi, is_log(ax, 0), invx ? L->x + L->w : L->x, invx ? L->x : L->x + L->w};
    L->sy =
        (plot_scale){ylo, yhi, is_log(ax, 1), invy ? L->y : L->y + L->h, invy ? L->y + L->h : L->y};
}

void plot__layout_panel(cairo_t *cr, const plot_axes *ax, const plot_fonts *f, double cx, double cy,
                        double cw, double ch, plot_layout *L) {
    memset(L, 0, sizeof *L);
    L->cx = cx, L->cy = cy, L->cw = cw, L->ch = ch;
    for (size_t k = 0; k < ax->n_items; k++)
        if (ax->items[k].kind == PLOT_IT_HEATMAP) {
            L->has_heatmap = true;
            if (!ax->items[k].hm.no_colorbar) L->cbar = &ax->items[k];
        }
    L->grid = !L->has_heatmap && !(ax->flags & PLOT_NO_GRID);

    double xlo, xhi, ylo, yhi;
    axis_limits(ax, 0, &xlo, &xhi);
    axis_limits(ax, 1, &ylo, &yhi);

    /* vertical: title, plot, tick labels, x label */
    double top = ax->title ? 0.5 * f->pad + 1.5 * f->title : 0.5 * f->pad + 0.7 * f->tick;
    double bottom = TICK_LEN + 0.35 * f->tick + 1.15 * f->tick +
                    (ax->xlabel ? 1.55 * f->label : 0) + 0.7 * f->pad;
    L->y = cy + top;
    L->h = fmax(ch - top - bottom, 10);

    choose_ticks(cr, ylo, yhi, is_log(ax, 1), ax->flags & PLOT_INT_Y, &ax->yticks, L->h, false,
                 f->tick, &L->yt);
    double ylabels = max_label_width(cr, &L->yt, f->tick) + 0.4 * f->tick + TICK_LEN;
    double left = 0.5 * f->pad + (ax->ylabel ? 1.5 * f->label : 0) + ylabels;

    double right = 0.9 * f->pad;
    if (L->cbar != NULL) {
        const plot_heatmap_opts *o = &L->cbar->hm;
        choose_ticks(cr, o->vmin, o->vmax, false, false, NULL, L->h, false, f->tick, &L->ct);
        right += 0.9 * f->pad + 1.3 * f->tick + 4 + 0.4 * f->tick +
                 max_label_width(cr, &L->ct, f->tick) + (o->cbar_label ? 1.5 * f->label : 0);
    }
    if (ax->legend == PLOT_LEGEND_OUTSIDE) {
        plot__legend_size(cr, ax, f, L->h, &L->legend_w, &L->legend_h, &L->legend_cols);
        if (L->legend_w > 0) right += L->legend_w + 0.8 * f->pad;
    }
    L->x = cx + left;
    L->w = fmax(cw - left - right, 10);

    /* the last x tick label may stick out to the right: make room */
    for (int pass = 0; pass < 4; pass++) {
        set_scales(ax, L, xlo, xhi, ylo, yhi);
        choose_ticks(cr, xlo, xhi, is_log(ax, 0), ax->flags & PLOT_INT_X, &ax->xticks, L->w, true,
                     f->tick, &L->xt);
        if (pass == 3) break;
        double over = 0;
        for (int i = 0; i < L->xt.n; i++) {
            if (!L->xt.t[i].label[0]) continue;
            double px = plot__map(&L->sx, L->xt.t[i].v);
            double end = px + plot__text_width(cr, L->xt.t[i].label, f->tick, false) / 2;
            over = fmax(over, end - (cx + cw - 0.3 * f->pad));
        }
        if (over <= 0 || L->cbar != NULL || ax->legend == PLOT_LEGEND_OUTSIDE) break;
        L->w = fmax(L->w - over, 10);
    }

    if (ax->flags & PLOT_EQUAL) {
        double ux = L->w / (xhi - xlo), uy = L->h / (yhi - ylo); /* px per unit */
        if (!is_log(ax, 0) && !is_log(ax, 1)) {
            if (ux > uy) {
                double w = (xhi - xlo) * uy;
                L->x += (L->w - w) / 2;
                L->w = w;
            } else {
                double h = (yhi - ylo) * ux;
                L->y += (L->h - h) / 2;
                L->h = h;
            }
            set_scales(ax, L, xlo, xhi, ylo, yhi);
            choose_ticks(cr, xlo, xhi, false, ax->flags & PLOT_INT_X, &ax->xticks, L->w, true,
                         f->tick, &L->xt);
            choose_ticks(cr, ylo, yhi, false, ax->flags & PLOT_INT_Y, &ax->yticks, L->h, false,
                         f->tick, &L->yt);
            /* same units, same step: the coarser of the two serves both */
            if (ax->xticks.n == 0 && ax->yticks.n == 0 && L->xt.n >= 2 && L->yt.n >= 2) {
                double step = fmax(L->xt.t[1].v - L->xt.t[0].v, L->yt.t[1].v - L->yt.t[0].v);
                plot__linear_ticks(xlo, xhi, step, &L->xt);
                plot__linear_ticks(ylo, yhi, step, &L->yt);
            }
            if (L->cbar != NULL)
                choose_ticks(cr, L->cbar->hm.vmin, L->cbar->hm.vmax, false, false, NULL, L->h,
                             false, f->tick, &L->ct);
        }
    }
    set_scales(ax, L, xlo, xhi, ylo, yhi);
    L->ylabel_x = L->x - ylabels - 1.5 * f->label;
    if (L->cbar != NULL) L->cbar_x = L->x + L->w + 0.9 * f->pad;
    if (ax->legend != PLOT_LEGEND_OUTSIDE)
        plot__legend_size(cr, ax, f, L->h, &L->legend_w, &L->legend_h, &L->legend_cols);
}

/* ---- drawing the axes */

void plot__axis_label(const char *label, const char *mult, char *buf, size_t size) {
    if (mult[0])
        snprintf(buf, size, "%s (%s)", label, mult);
    else
        snprintf(buf, size, "%s", label);
}

void plot__draw_axes_under(cairo_t *cr, const plot_axes *ax, const plot_layout *L) {
    (void)ax;
    if (!L->grid) return;
    cairo_save(cr);
    cairo_set_line_width(cr, 1);
    cairo_set_source_rgb(cr, 0.90, 0.90, 0.90);
    for (int i = 0; i < L->xt.n; i++) {
        if (!L->xt.t[i].label[0]) continue;
        double px = plot__map(&L->sx, L->xt.t[i].v);
        if (!(px > L->x + 0.5 && px < L->x + L->w - 0.5)) continue;
        px = plot__snap(cr, px, 1);
        cairo_move_to(cr, px, L->y);
        cairo_line_to(cr, px, L->y + L->h);
    }
    for (int i = 0; i < L->yt.n; i++) {
        if (!L->yt.t[i].label[0]) continue;
        double py = plot__map(&L->sy, L->yt.t[i].v);
        if (!(py > L->y + 0.5 && py < L->y + L->h - 0.5)) continue;
        py = plot__snap(cr, py, 1);
        cairo_move_to(cr, L->x, py);
        cairo_line_to(cr, L->x + L->w, py);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

static bool inside(double p, double a, double b) {
    double lo = fmin(a, b), hi = fmax(a, b);
    return p >= lo - 0.5 && p <= hi + 0.5;
}

void plot__draw_axes_over(cairo_t *cr, const plot_axes *ax, const plot_fonts *f,
                          const plot_layout *L) {
    cairo_save(cr);
    /* frame */
    double x0 = plot__snap(cr, L->x, 1), x1 = plot__snap(cr, L->x + L->w, 1);
    double y0 = plot__snap(cr, L->y, 1), y1 = plot__snap(cr, L->y + L->h, 1);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
    cairo_stroke(cr);

    /* x ticks and labels */
    double bottom = L->y + L->h;
    for (int i = 0; i < L->xt.n; i++) {
        double px = plot__map(&L->sx, L->xt.t[i].v);
        if (!inside(px, L->x, L->x + L->w)) continue;
        bool major = L->xt.t[i].label[0] != '\0';
        px = plot__snap(cr, px, 1);
        cairo_move_to(cr, px, y1);
        cairo_line_to(cr, px, y1 + (major ? TICK_LEN : MINOR_LEN));
        cairo_stroke(cr);
        if (major)
            plot__draw_text(cr, L->xt.t[i].label, px, bottom + TICK_LEN + 0.35 * f->tick, f->tick,
                            false, 0.5, 0, 0);
    }
    /* y ticks and labels */
    double label_right = L->x - TICK_LEN - 0.4 * f->tick;
    for (int i = 0; i < L->yt.n; i++) {
        double py = plot__map(&L->sy, L->yt.t[i].v);
        if (!inside(py, L->y, L->y + L->h)) continue;
        bool major = L->yt.t[i].label[0] != '\0';
        py = plot__snap(cr, py, 1);
        cairo_move_to(cr, x0, py);
        cairo_line_to(cr, x0 - (major ? TICK_LEN : MINOR_LEN), py);
        cairo_stroke(cr);
        if (major)
            plot__draw_text(cr, L->yt.t[i].label, label_right, py, f->tick, false, 1, 0.5, 0);
    }
    /* axis labels (with the ticks' common factor) and title */
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    char text[600];
    double xl_y = bottom + TICK_LEN + 0.35 * f->tick + 1.15 * f->tick + 1.55 * f->label;
    if (ax->xlabel) {
        plot__axis_label(ax->xlabel, L->xt.mult, text, sizeof text);
        plot__draw_text(cr, text, L->x + L->w / 2, xl_y, f->label, false, 0.5, 1, 0);
    } else if (L->xt.mult[0]) {
        plot__draw_text(cr, L->xt.mult, L->x + L->w, xl_y, f->tick, false, 1, 1, 0);
    }
    if (ax->ylabel) {
        plot__axis_label(ax->ylabel, L->yt.mult, text, sizeof text);
        plot__draw_text(cr, text, L->ylabel_x, L->y + L->h / 2, f->label, false, 0.5, 0,
                        PLOT_PI / 2);
    } else if (L->yt.mult[0]) {
        plot__draw_text(cr, L->yt.mult, L->x, L->y - 0.4 * f->tick, f->tick, false, 0, 1, 0);
    }
    if (ax->title) {
        double size = f->title, tw = plot__text_width(cr, ax->title, size, true);
        double room = L->cw - 0.5 * f->pad;
        if (tw > room) size *= fmax(0.65, room / tw);
        tw = plot__text_width(cr, ax->title, size, true);
        /* centred on the plot, shifted to stay inside the cell */
        double cxm = L->x + L->w / 2;
        cxm = fmin(cxm, L->cx + L->cw - tw / 2 - 0.25 * f->pad);
        cxm = fmax(cxm, L->cx + tw / 2 + 0.25 * f->pad);
        plot__draw_text(cr, ax->title, cxm, L->y - 0.55 * f->title, size, true, 0.5, 1, 0);
    }
    cairo_restore(cr);
}

/* ---- colour bar */

void plot__draw_colorbar(cairo_t *cr, const plot_fonts *f, const plot_layout *L) {
    if (L->cbar == NULL) return;
    const plot_heatmap_opts *o = &L->cbar->hm;
    double bx = L->cbar_x, bw = 1.3 * f->tick, by = L->y, bh = L->h;
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 256);
    if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
        cairo_surface_flush(img);
        unsigned char *data = cairo_image_surface_get_data(img);
        int stride = cairo_image_surface_get_stride(img);
        for (int j = 0; j < 256; j++)
            *(uint32_t *)(void *)(data + (size_t)stride * (size_t)j) =
                plot__cmap(o->cmap, 1 - j / 255.0);
        cairo_surface_mark_dirty(img);
        cairo_save(cr);
        cairo_rectangle(cr, bx, by, bw, bh);
        cairo_clip(cr);
        cairo_translate(cr, bx, by);
        cairo_scale(cr, bw, bh / 256);
        cairo_set_source_surface(cr, img, 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
        cairo_paint(cr);
        cairo_restore(cr);
    }
    cairo_surface_destroy(img);

    cairo_save(cr);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    double x0 = plot__snap(cr, bx, 1), x1 = plot__snap(cr, bx + bw, 1);
    double y0 = plot__snap(cr, by, 1), y1 = plot__snap(cr, by + bh, 1);
    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
    cairo_stroke(cr);
    double maxw = 0, lx = x1 + 4 + 0.4 * f->tick;
    for (int i = 0; i < L->ct.n; i++) {
        double t = (L->ct.t[i].v - o->vmin) / (o->vmax - o->vmin);
        if (t < -1e-9 || t > 1 + 1e-9) continue;
        double py = plot__snap(cr, by + bh * (1 - t), 1);
        cairo_move_to(cr, x1, py);
        cairo_line_to(cr, x1 + 4, py);
        cairo_stroke(cr);
        plot__draw_text(cr, L->ct.t[i].label, lx, py, f->tick, false, 0, 0.5, 0);
        maxw = fmax(maxw, plot__text_width(cr, L->ct.t[i].label, f->tick, false));
    }
    if (o->cbar_label != NULL) {
        char text[600];
        plot__axis_label(o->cbar_label, L->ct.mult, text, sizeof text);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        plot__draw_text(cr, text, lx + maxw + 0.45 * f->label, by + bh / 2, f->label, false, 0.5, 0,
                        PLOT_PI / 2);
    } else if (L->ct.mult[0]) {
        plot__draw_text(cr, L->ct.mult, bx, by - 0.4 * f->tick, f->tick, false, 0, 1, 0);
    }
    cairo_restore(cr);
}
