/* plot_text.c — text with ^{}/_{} markup, colours and colormaps, pixel
 * snapping: the bottom of the plotting layer (cairo only; it knows no
 * panel, scale or figure). */
#include "plot_text.h"

#include <math.h>
#include <string.h>

/* ---- text */

#define CAP PLOT_CAP
#define DESC PLOT_DESC
#define SCRIPT 0.7    /* size of super- and subscripts */
#define SUP_RISE 0.42 /* baseline shift of a superscript, in em of the main size */
#define SUB_DROP 0.18

typedef struct {
    const char *s;
    size_t n;
    int mode; /* 0 normal, 1 superscript, 2 subscript */
} text_run;

static int parse_runs(const char *s, text_run *runs, int max) {
    int n = 0;
    const char *p = s, *start = s;
    while (*p) {
        if ((p[0] == '^' || p[0] == '_') && p[1] == '{') {
            const char *end = strchr(p + 2, '}');
            if (end != NULL) {
                if (p > start && n < max) runs[n++] = (text_run){start, (size_t)(p - start), 0};
                if (n < max)
                    runs[n++] = (text_run){p + 2, (size_t)(end - p - 2), p[0] == '^' ? 1 : 2};
                p = start = end + 1;
                continue;
            }
        }
        p++;
    }
    if (p > start && n < max) runs[n++] = (text_run){start, (size_t)(p - start), 0};
    return n;
}

static void select_font(cairo_t *cr, double size, bool bold) {
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* Measures (and with draw, shows at the current point's baseline) the runs. */
static double runs_width(cairo_t *cr, const text_run *runs, int n, double size, bool bold,
                         bool draw, double x, double baseline) {
    double w = 0;
    char buf[512];
    for (int i = 0; i < n; i++) {
        size_t len = runs[i].n < sizeof buf - 1 ? runs[i].n : sizeof buf - 1;
        memcpy(buf, runs[i].s, len);
        buf[len] = '\0';
        double sz = runs[i].mode ? SCRIPT * size : size;
        select_font(cr, sz, bold);
        cairo_text_extents_t te;
        cairo_text_extents(cr, buf, &te);
        if (draw) {
            double dy = runs[i].mode == 1   ? -SUP_RISE * size
                        : runs[i].mode == 2 ? SUB_DROP * size
                                            : 0;
            cairo_move_to(cr, x + w, baseline + dy);
            cairo_show_text(cr, buf);
        }
        w += te.x_advance + (runs[i].mode && i + 1 < n && runs[i + 1].mode == 0 ? 0.05 * size : 0);
    }
    return w;
}

double plot__text_width(cairo_t *cr, const char *s, double size, bool bold) {
    text_run runs[32];
    int n = parse_runs(s, runs, 32);
    return runs_width(cr, runs, n, size, bold, false, 0, 0);
}

void plot__draw_text(cairo_t *cr, const char *s, double x, double y, double size, bool bold,
                     double ha, double va, double angle) {
    text_run runs[32];
    int n = parse_runs(s, runs, 32);
    if (n == 0) return;
    double top = -CAP * size, bottom = DESC * size;
    for (int i = 0; i < n; i++) {
        if (runs[i].mode == 1) top = fmin(top, -(SUP_RISE + SCRIPT * CAP) * size);
        if (runs[i].mode == 2) bottom = fmax(bottom, (SUB_DROP + SCRIPT * DESC) * size);
    }
    double w = runs_width(cr, runs, n, size, bold, false, 0, 0);
    cairo_save(cr);
    cairo_translate(cr, x, y);
    if (angle != 0) cairo_rotate(cr, -angle);
    runs_width(cr, runs, n, size, bold, true, -ha * w, -(top + va * (bottom - top)));
    cairo_new_path(cr);
    cairo_restore(cr);
}

/* ---- colours */

void plot__set_rgb(cairo_t *cr, uint32_t rgb, double alpha) {
    cairo_set_source_rgba(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0,
                          (rgb & 255) / 255.0, alpha);
}

uint32_t plot__palette(int k) {
    /* Okabe & Ito (2008), "Color Universal Design" */
    static const uint32_t okabe_ito[8] = {0x0072B2, 0xD55E00, 0x009E73, 0xE69F00,
                                          0xCC79A7, 0x56B4E9, 0x000000, 0xF0E442};
    return okabe_ito[((k % 8) + 8) % 8];
}

/* viridis (van der Walt & Smith, CC0), every 8th of its 256 entries */
static const unsigned char viridis_idx[33] = {
    0,   8,   16,  24,  32,  40,  48,  56,  64,  72,  80,  88,  96,  104, 112, 120, 128,
    136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 255};
static const float viridis_rgb[33][3] = {
    {0.267004f, 0.004874f, 0.329415f}, {0.277018f, 0.050344f, 0.375715f},
    {0.282327f, 0.094955f, 0.417331f}, {0.282884f, 0.135920f, 0.453427f},
    {0.278826f, 0.175490f, 0.483397f}, {0.270595f, 0.214069f, 0.507052f},
    {0.258965f, 0.251537f, 0.524736f}, {0.244972f, 0.287675f, 0.537260f},
    {0.229739f, 0.322361f, 0.545706f}, {0.214298f, 0.355619f, 0.551184f},
    {0.199430f, 0.387607f, 0.554642f}, {0.185556f, 0.418570f, 0.556753f},
    {0.172719f, 0.448791f, 0.557885f}, {0.160665f, 0.478540f, 0.558115f},
    {0.149039f, 0.508051f, 0.557250f}, {0.137770f, 0.537492f, 0.554906f},
    {0.127568f, 0.566949f, 0.550556f}, {0.120565f, 0.596422f, 0.543611f},
    {0.120638f, 0.625828f, 0.533488f}, {0.132268f, 0.655014f, 0.519661f},
    {0.157851f, 0.683765f, 0.501686f}, {0.196571f, 0.711827f, 0.479221f},
    {0.246070f, 0.738910f, 0.452024f}, {0.304148f, 0.764704f, 0.419943f},
    {0.369214f, 0.788888f, 0.382914f}, {0.440137f, 0.811138f, 0.340967f},
    {0.515992f, 0.831158f, 0.294279f}, {0.595839f, 0.848717f, 0.243329f},
    {0.678489f, 0.863742f, 0.189503f}, {0.762373f, 0.876424f, 0.137064f},
    {0.845561f, 0.887322f, 0.099702f}, {0.926106f, 0.897330f, 0.104071f},
    {0.993248f, 0.906157f, 0.143936f}};

/* ColorBrewer RdBu (11 classes), reversed so that low is blue */
static const uint32_t rdbu[11] = {0x053061, 0x2166AC, 0x4393C3, 0x92C5DE, 0xD1E5F0, 0xF7F7F7,
                                  0xFDDBC7, 0xF4A582, 0xD6604D, 0xB2182B, 0x67001F};

static uint32_t pack(double r, double g, double b) {
    uint32_t R = (uint32_t)lround(fmin(fmax(r, 0), 1) * 255),
             G = (uint32_t)lround(fmin(fmax(g, 0), 1) * 255),
             B = (uint32_t)lround(fmin(fmax(b, 0), 1) * 255);
    return R << 16 | G << 8 | B;
}

uint32_t plot__cmap(plot_cmap cmap, double t) {
    t = isfinite(t) ? fmin(fmax(t, 0), 1) : 0;
    if (cmap == PLOT_DIVERGING) {
        double u = t * 10;
        int i = (int)fmin(floor(u), 9);
        double a = u - i;
        uint32_t c0 = rdbu[i], c1 = rdbu[i + 1];
        double r = ((c0 >> 16) & 255) * (1 - a) + ((c1 >> 16) & 255) * a;
        double g = ((c0 >> 8) & 255) * (1 - a) + ((c1 >> 8) & 255) * a;
        double b = (c0 & 255) * (1 - a) + (c1 & 255) * a;
        return pack(r / 255, g / 255, b / 255);
    }
    double u = t * 255;
    int i = 0;
    while (i < 31 && viridis_idx[i + 1] < u) i++;
    double a = (u - viridis_idx[i]) / (viridis_idx[i + 1] - viridis_idx[i]);
    a = fmin(fmax(a, 0), 1);
    const float *c0 = viridis_rgb[i], *c1 = viridis_rgb[i + 1];
    return pack(c0[0] + a * (c1[0] - c0[0]), c0[1] + a * (c1[1] - c0[1]),
                c0[2] + a * (c1[2] - c0[2]));
}

double plot__snap(cairo_t *cr, double v, double width) {
    double s = 1, t = 0;
    cairo_user_to_device_distance(cr, &s, &t);
    if (!(s > 0)) return v;
    double wd = fmax(1, round(width * s)), d = v * s;
    d = fmod(wd, 2) == 1 ? floor(d) + 0.5 : round(d);
    return d / s;
}

