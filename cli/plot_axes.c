/* plot_axes.c — scales, nice ticks and their labels, the layout of a panel,
 * and its grid, frame, ticks, axis labels and title. */
#include "plot_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TICK_LEN 5.0
#define MINOR_LEN 3.0
#define TIMES "\xc3\x97"     /* U+00D7 */
#define MINUS "\xe2\x88\x92" /* U+2212 */

/* ---- numbers and ticks */

double plot__nice_step(double raw) {
    double mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    double s = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
    return s * mag;
}

/* Replaces ASCII '-' by the typographic minus U+2212. */
static void set_minus(char *buf, size_t size) {
    char tmp[96];
    size_t j = 0;
    for (size_t i = 0; buf[i] != '\0' && j + 4 < sizeof tmp; i++) {
        if (buf[i] == '-') {
            memcpy(tmp + j, MINUS, 3);
            j += 3;
        } else {
            tmp[j++] = buf[i];
        }
    }
    tmp[j] = '\0';
    snprintf(buf, size, "%s", tmp);
}

/* Decimals needed to write multiples of `step` exactly (0..12). */
static int decimals_for(double step) {
    step = fabs(step);
    for (int d = 0; d < 12; d++) {
        double s = step * pow(10, d);
        if (fabs(s - round(s)) < 1e-6 * fmax(s, 1e-300)) return d;
    }
    return 12;
}

void plot__format_number(double v, double step, char *buf, size_t size) {
    if (size == 0) return;
    step = fabs(step);
    /* scientific for big steps, and for tiny ones near zero (not 0.5 ± 1e-7) */
    bool tiny = step > 0 && step < 1e-4;
    if (v == 0 || (step > 0 && fabs(v) < 1e-9 * step)) {
        int d = step >= 1e5 || tiny || !(step > 0) ? 0 : decimals_for(step);
        snprintf(buf, size, "%.*f", d, 0.0); /* "0.0" next to "0.5" */
        return;
    }
    if (!(step > 0)) step = fabs(v);
    char tmp[96];
    if (step >= 1e5 || (tiny && fabs(v) < 1e-2)) {
        int e = (int)floor(log10(fabs(v)) + 1e-9);
        int es = (int)floor(log10(step) + 1e-9);
        double m = v / pow(10, e);
        int d = e - es > 0 ? e - es : 0;
        if (d > 6) d = 6;
        char ms[48];
        snprintf(ms, sizeof ms, "%.*f", d, m);
        if (strcmp(ms, "1") == 0)
            snprintf(tmp, sizeof tmp, "10^{%d}", e);
        else if (strcmp(ms, "-1") == 0)
            snprintf(tmp, sizeof tmp, "-10^{%d}", e);
        else
            snprintf(tmp, sizeof tmp, "%s" TIMES "10^{%d}", ms, e);
    } else {
        snprintf(tmp, sizeof tmp, "%.*f", decimals_for(step), v);
    }
    set_minus(tmp, sizeof tmp);
    snprintf(buf, size, "%s", tmp);
}

static void push_tick(plot_ticks *out, double v, const char *label) {
    if (out->n >= PLOT_MAX_TICKS) return;
    out->t[out->n].v = v;
    snprintf(out->t[out->n].label, sizeof out->t[out->n].label, "%s", label);
    out->n++;
}

void plot__linear_ticks(double lo, double hi, double step, plot_ticks *out) {
    out->n = 0;
    out->mult[0] = '\0';
    if (!(step > 0) || !(hi >= lo)) return;
    double k0 = ceil(lo / step - 1e-9), k1 = floor(hi / step + 1e-9);
    if (!isfinite(k0) || !isfinite(k1) || k1 < k0) return;
    /* The tick count in integers, capped: a double counter k++ stops
     * moving past 2^53 (k + 1 == k) and the loop would never end. */
    const int n = k1 - k0 + 1 > PLOT_MAX_TICKS ? PLOT_MAX_TICKS : (int)(k1 - k0) + 1;
    k1 = k0 + (n - 1);
    double big = fmax(fabs(k0 * step), fabs(k1 * step));
    int e = 0;
    if (big >= 1e6 || (big > 0 && big < 1e-3)) {
        e = (int)floor(log10(big) + 1e-9);
        snprintf(out->mult, sizeof out->mult, TIMES "10^{%d}", e);
        set_minus(out->mult, sizeof out->mult);
    }
    double scale = pow(10, -e);
    for (int i = 0; i < n; i++) {
        double v = (k0 + i) * step;
        /* Beyond 2^53 steps from zero neighbouring ticks round to the same
         * value: one tick per distinct value. */
        if (out->n > 0 && v <= out->t[out->n - 1].v) continue;
        if (fabs(v) < 1e-9 * step) v = 0;
        char label[64];
        if (e != 0) { /* mantissa: plain decimals */
            snprintf(label, sizeof label, "%.*f", decimals_for(step * scale), v * scale);
            set_minus(label, sizeof label);
        } else {
            plot__format_number(v, step, label, sizeof label);
        }
        push_tick(out, v, label);
    }
}

void plot__log_ticks(double lo, double hi, int stride, bool minor, plot_ticks *out) {
    out->n = 0;
    out->mult[0] = '\0';
    if (!(lo > 0) || !(hi > lo)) return;
    if (stride < 1) stride = 1;
    int e0 = (int)ceil(log10(lo) - 1e-9), e1 = (int)floor(log10(hi) + 1e-9);
    char label[64];
    int first = (int)floor(log10(lo));
    if ((e1 - first + 1) * 9 > PLOT_MAX_TICKS) minor = false; /* too many to show anyway */
    if (e1 - e0 >= 1 && log10(hi / lo) >= 2.5) {
        for (int e = first; e <= e1; e++) {
            double v = pow(10, e);
            bool major = ((e % stride) + stride) % stride == 0;
            if (v >= lo * (1 - 1e-9)) {
                if (major) {
                    snprintf(label, sizeof label, "10^{%d}", e);
                    set_minus(label, sizeof label);
                    push_tick(out, v, label);
                } else {
                    push_tick(out, v, "");
                }
            }
            if (minor && stride == 1)
                for (int m = 2; m <= 9; m++)
                    if (m * v >= lo && m * v <= hi) push_tick(out, m * v, "");
        }
        return;
    }
    /* under 2.5 decades: 1-2-5 ticks with plain numbers (stride > 1: the 1s) */
    for (int e = (int)floor(log10(lo)) - 1; e <= e1 + 1; e++)
        for (int m = 1; m <= 9; m++) {
            double v = m * pow(10, e);
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
            if (m == 1 || (stride == 1 && (m == 2 || m == 5))) {
                plot__format_number(v, pow(10, e), label, sizeof label);
                push_tick(out, v, label);
            } else if (minor) {
                push_tick(out, v, "");
            }
        }
    int labelled = 0;
    for (int i = 0; i < out->n; i++) labelled += out->t[i].label[0] != '\0';
    /* a narrow range: plain linear ticks, at least three of them */
    for (int k = 4; labelled < 2 && k <= 16; k += 2) {
        plot__linear_ticks(lo, hi, plot__nice_step((hi - lo) / k), out);
        if (out->n >= 3) break;
    }
}

/* ---- scales */

double plot__map(const plot_scale *s, double v) {
    if (!isfinite(v)) return NAN;
    double t;
    if (s->log) {
        if (!(v > 0)) return NAN;
        t = (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
    } else {
        t = (v - s->lo) / (s->hi - s->lo);
    }
    return s->p0 + t * (s->p1 - s->p0);
}

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
        push_tick(out, fx->at[i], label);
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
