/*
 * scalar.c — the reference kernel set: plain C, always built, and what every
 * vectorized set is tested against. Exactness first, speed second.
 *
 * Accuracy: angles come from angle.h (p * w reduced modulo 2 pi in
 * double-double arithmetic, ~1e-15 rad for |p w| < 2^40), then the double
 * libm sin/cos (< 1 ulp). Rotated rows are computed in double from the f32
 * inputs and rounded once to float, so each output element is within
 * 0.5 ulp(f32) + 1e-14 of the exact rotation of the f32 inputs.
 */
#include "../internal.h"
#include "angle.h"

#include <math.h>

static void scalar_cos_sin(int64_t p, const double *w, const double *w_lo,
                           int64_t n, double *c, double *s) {
    for (int64_t i = 0; i < n; i++) {
        double r = pe__reduced_angle(p, w[i], w_lo[i]);
        c[i] = cos(r);
        s[i] = sin(r);
    }
}

static void scalar_rotate_row_f32(const float *in, float *out, int64_t d,
                                  int64_t head_dim, pe_rope_layout layout,
                                  const double *c, const double *s,
                                  double magnitude) {
    const int64_t half = d / 2;
    for (int64_t i = 0; i < half; i++) {
        int64_t ia, ib;
        if (layout == PE_ROPE_INTERLEAVED) {
            ia = 2 * i;
            ib = 2 * i + 1;
        } else {
            ia = i;
            ib = i + half;
        }
        double a = in[ia], b = in[ib];
        double ra = magnitude * (a * c[i] - b * s[i]);
        double rb = magnitude * (a * s[i] + b * c[i]);
        out[ia] = (float)ra;
        out[ib] = (float)rb;
    }
    if (out != in)
        for (int64_t j = d; j < head_dim; j++) out[j] = in[j];
}

static void scalar_scatter_add_f32(float *table, int64_t dim, const int64_t *pos,
                                   int64_t n, const float *grad) {
    for (int64_t r = 0; r < n; r++) {
        float *dst = table + pos[r] * dim;
        const float *src = grad + r * dim;
        for (int64_t j = 0; j < dim; j++) dst[j] += src[j];
    }
}

const pe_kernel_table pe__kernels_scalar = {
    "scalar",
    scalar_cos_sin,
    scalar_rotate_row_f32,
    scalar_scatter_add_f32,
};
