/*
 * scalar.c — the reference kernel set: plain C, always built, and what every
 * vectorized set is tested against. Exactness first, speed second.
 *
 * Accuracy: the angle p*w is formed in long double (64-bit significand on
 * x86-64) from the int64 position and the double-double frequency w + w_lo,
 * which costs at most 2^-64 |angle| for the rounding of the product, and is
 * reduced exactly (remainderl) against 2 pi rounded to long double, which
 * adds at most 2^-64 |angle| more: in all |error| <= 2^-63 |p w| rad, i.e.
 * 1.1e-13 at |p w| = 2^20 and 2.3e-10 at 2^31. The double libm sin/cos of
 * the reduced angle adds < 1 ulp. Rotated rows are computed in double from
 * the f32 inputs and rounded once to float, so each output element is within
 * 0.5 ulp(f32) + 1e-9 of the exact rotation of the f32 inputs for |p| < 2^31.
 */
#include "../internal.h"

#include <math.h>

static const long double PE_TWO_PI_L = 6.28318530717958647692528676655900577L;

static void scalar_cos_sin(int64_t p, const double *w, const double *w_lo,
                           int64_t n, double *c, double *s) {
    const long double lp = (long double)p;
    const long double two_pi = PE_TWO_PI_L;
    for (int64_t i = 0; i < n; i++) {
        long double freq = (long double)w[i] + (long double)w_lo[i];
        long double angle = lp * freq;
        /* remainderl is exact: the only error is that of the product and of
         * two_pi itself (2^-64 relative, times |angle|/2pi turns). */
        long double r = remainderl(angle, two_pi);
        double rd = (double)r;
        c[i] = cos(rd);
        s[i] = sin(rd);
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
