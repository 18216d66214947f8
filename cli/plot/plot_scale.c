/* plot_scale.c — the numbers under an axis: nice steps, linear and log
 * ticks with their labels, and the map from data to figure pixels. Pure
 * arithmetic on doubles (no cairo), the bottom of the plotting layer with
 * plot_text.c. */
#include "plot_scale.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TIMES "\xc3\x97"     /* U+00D7 */
#define MINUS "\xe2\x88\x92" /* U+2212 */

/* ---- numbers and ticks */

double plot__nice_step(double raw) {
    double mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    double s = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
    return s * mag;
}

/* Replaces ASCII '-' by the typographic minus U+2212 (3 bytes), within
 * size bytes; a label too long to fit is cut before a whole character, never
 * inside the minus's bytes. */
static void set_minus(char *buf, size_t size) {
    char tmp[96];
    size_t n = strlen(buf);
    if (n >= sizeof tmp) n = sizeof tmp - 1;
    memcpy(tmp, buf, n);
    tmp[n] = '\0';
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        size_t need = tmp[i] == '-' ? 3 : 1;
        if (j + need >= size) break;
        if (tmp[i] == '-')
            memcpy(buf + j, MINUS, 3);
        else
            buf[j] = tmp[i];
        j += need;
    }
    buf[j] = '\0';
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

void plot__push_tick(plot_ticks *out, double v, const char *label) {
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
        plot__push_tick(out, v, label);
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
                    plot__push_tick(out, v, label);
                } else {
                    plot__push_tick(out, v, "");
                }
            }
            if (minor && stride == 1)
                for (int m = 2; m <= 9; m++)
                    if (m * v >= lo && m * v <= hi) plot__push_tick(out, m * v, "");
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
                plot__push_tick(out, v, label);
            } else if (minor) {
                plot__push_tick(out, v, "");
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

