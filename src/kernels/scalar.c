/*
 * scalar.c — the reference kernel set: plain C, always built, and what every
 * vectorized set is tested against. Exactness first, speed second.
 *
 * Accuracy: angles come from angle.h (p * w reduced modulo 2 pi in
 * double-double arithmetic, ~1e-15 rad for |p w| < 2^40), then the double
 * libm sin/cos (< 1 ulp). Rotated rows are computed in double from the
 * inputs and rounded once to float, so each f32 output element is within
 * 0.5 ulp(f32) + 1e-14 of the exact rotation of its inputs; f16 and bf16
 * outputs are that float rounded to nearest even (SPEC: compute in f32,
 * round on store).
 */
#include "kernels.h"
#include "angle.h"

#include <math.h>
#include <string.h>

static void scalar_cos_sin(int64_t p, const double *w, const double *w_lo,
                           int64_t n, double *c, double *s) {
    for (int64_t i = 0; i < n; i++) {
        double r = pe__reduced_angle(p, w[i], w_lo[i]);
        c[i] = cos(r);
        s[i] = sin(r);
    }
}

static void scalar_cos_sin_f32(int64_t p, const double *w, const double *w_lo,
                               int64_t n, float *c, float *s) {
    for (int64_t i = 0; i < n; i++) {
        double r = pe__reduced_angle(p, w[i], w_lo[i]);
        c[i] = (float)cos(r);
        s[i] = (float)sin(r);
    }
}

/* Indices of the two elements of pair i. */
static void pair_index(pe_rope_layout layout, int64_t i, int64_t half,
                       int64_t *ia, int64_t *ib) {
    if (layout == PE_ROPE_INTERLEAVED) {
        *ia = 2 * i;
        *ib = 2 * i + 1;
    } else {
        *ia = i;
        *ib = i + half;
    }
}

static void rotate_row_f32(const float *in, float *out, int64_t d, pe_rope_layout layout,
                           const double *c, const double *s, double magnitude) {
    const int64_t half = d / 2;
    for (int64_t i = 0; i < half; i++) {
        int64_t ia, ib;
        pair_index(layout, i, half, &ia, &ib);
        double a = in[ia], b = in[ib];
        double ra = magnitude * (a * c[i] - b * s[i]);
        double rb = magnitude * (a * s[i] + b * c[i]);
        out[ia] = (float)ra;
        out[ib] = (float)rb;
    }
}

/* One 16-bit row: widen each pair, rotate in double, round to float, then
 * to the storage type. Both elements are read before either is written, so
 * in place is safe. */
static void rotate_row_16(const uint16_t *in, uint16_t *out, int64_t d,
                          pe_rope_layout layout, int bf16, const double *c,
                          const double *s, double magnitude) {
    const int64_t half = d / 2;
    for (int64_t i = 0; i < half; i++) {
        int64_t ia, ib;
        pair_index(layout, i, half, &ia, &ib);
        double a = bf16 ? pe__bf16_to_f32(in[ia]) : pe__f16_to_f32(in[ia]);
        double b = bf16 ? pe__bf16_to_f32(in[ib]) : pe__f16_to_f32(in[ib]);
        float ra = (float)(magnitude * (a * c[i] - b * s[i]));
        float rb = (float)(magnitude * (a * s[i] + b * c[i]));
        out[ia] = bf16 ? pe__f32_to_bf16(ra) : pe__f32_to_f16(ra);
        out[ib] = bf16 ? pe__f32_to_bf16(rb) : pe__f32_to_f16(rb);
    }
}

/* The reference evaluates every token afresh (it never steps) and keeps
 * double cos/sin, exact at every position. */
static int scalar_rope_tables(int step, int64_t p, const double *w, const double *w_lo,
                              int64_t n, pe_rope_layout layout, int negate,
                              pe__rope_trig *t) {
    (void)step;
    (void)layout; /* the reference indexes pairs directly */
    scalar_cos_sin(p, w, w_lo, n, t->c, t->s);
    if (negate)
        for (int64_t i = 0; i < n; i++) t->s[i] = -t->s[i];
    return 0;
}

static void scalar_rope_prepare_cs(const double *c, const double *s, int64_t n,
                                   pe_rope_layout layout, int negate, pe__rope_trig *t) {
    (void)layout;
    for (int64_t i = 0; i < n; i++) {
        t->c[i] = c[i];
        t->s[i] = negate ? -s[i] : s[i];
    }
}

static void scalar_rope_prepare_cs_f32(const float *c, const float *s, int64_t n,
                                       pe_rope_layout layout, int negate, pe__rope_trig *t) {
    (void)layout;
    for (int64_t i = 0; i < n; i++) {
        t->c[i] = c[i];
        t->s[i] = negate ? -(double)s[i] : (double)s[i];
    }
}

static void scalar_rope_token(const pe__rope_rows *r, const pe__rope_trig *t) {
    const size_t esz = pe_dtype_size(r->dtype);
    const char *in = r->in;
    char *out = r->out;
    for (int64_t h = 0; h < r->heads; h++) {
        const void *src = in + (size_t)(h * r->in_head_stride) * esz;
        void *dst = out + (size_t)(h * r->out_head_stride) * esz;
        if (r->dtype == PE_F32)
            rotate_row_f32(src, dst, r->d, r->layout, t->c, t->s, t->magnitude);
        else
            rotate_row_16(src, dst, r->d, r->layout, r->dtype == PE_BF16, t->c, t->s,
                          t->magnitude);
    }
}

static int scalar_freqs_ok(const double *w, const double *w_lo, int64_t n) {
    int ok = 1; /* no early exit: one predictable pass; NaN fails every test */
    for (int64_t i = 0; i < n; i++)
        ok &= (w[i] >= 0.0) & (w[i] <= PE_MAX_INV_FREQ) &
              (fabs(w_lo[i]) <= w[i] * 0x1p-52);
    return ok;
}

static void scalar_alibi_row(double m, int64_t qpos, int64_t n, int causal, void *out,
                             pe_dtype dtype) {
    for (int64_t j = 0; j < n; j++) {
        const int64_t dist = qpos - j;
        double v;
        if (dist < 0 && causal)
            v = -INFINITY; /* a future key */
        else
            v = -m * (double)(dist < 0 ? -dist : dist) + 0.0; /* +0 on the diagonal */
        if (dtype == PE_F32)
            ((float *)out)[j] = (float)v;
        else
            ((double *)out)[j] = v;
    }
}

static void scalar_scatter_add_f32(float *table, int64_t dim, const int64_t *pos,
                                   int64_t n, const float *grad) {
    for (int64_t r = 0; r < n; r++) {
        float *dst = table + pos[r] * dim;
        const float *src = grad + r * dim;
        for (int64_t j = 0; j < dim; j++) dst[j] += src[j];
    }
}

/* The fused epilogue's RMSNorm (rms_norm), the definition every set
 * reproduces bit for bit (the vector sets hold the 8 partial sums in the
 * lanes of registers and do the same roundings in the same order):
 *   s_l = sum over i = l (mod 8), in index order, of x_i^2     (double; exact squares)
 *   r   = fl32(1 / sqrt(((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) / n + eps))
 *   y_i = fl32(fl32(x_i r) w'_i),  w'_i = w_i, or fl32(1 + w_i) when one_plus
 * The scaling is Hugging Face's Qwen3RMSNorm / Gemma3RMSNorm in float32
 * (x * rsqrt(var + eps), then * weight), with r the float nearest the
 * exact 1/rms: a double sum keeps r within half an ulp of f32 (+ ~1e-15),
 * so y_i is within 1.5 ulp of the exact value, and equals the reference
 * code's bits whenever its float32 r is the nearest float too. */
void pe__rms_norm(const float *x, int64_t heads, int64_t x_stride, int64_t n, const float *w,
                  int one_plus, double eps, float *y, pe__side_prefetch *side) {
    const int64_t steps = (n + 15) / 16; /* per pass of a head (kernels.h) */
    for (int64_t h = 0; h < heads; h++, x += x_stride, y += n) {
        double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int64_t i = 0; i < n; i++) s[i & 7] += (double)x[i] * (double)x[i];
        if (side) pe__side_steps(side, steps);
        const float r = pe__rms_norm_inv(s, n, eps);
        if (one_plus)
            for (int64_t i = 0; i < n; i++) y[i] = (x[i] * r) * (1.0f + w[i]);
        else
            for (int64_t i = 0; i < n; i++) y[i] = (x[i] * r) * w[i];
        if (side) pe__side_steps(side, steps);
    }
}

const pe_kernel_table pe__kernels_scalar = {
    .name = "scalar",
    .cos_sin = scalar_cos_sin,
    .cos_sin_f32 = scalar_cos_sin_f32,
    .steps = 0,
    .rope_tables = scalar_rope_tables,
    .rope_prepare_cs = scalar_rope_prepare_cs,
    .rope_prepare_cs_f32 = scalar_rope_prepare_cs_f32,
    .rope_token = scalar_rope_token,
    .freqs_ok = scalar_freqs_ok,
    .alibi_row = scalar_alibi_row,
    .scatter_add_f32 = scalar_scatter_add_f32,
    .narrow_f32 = pe__narrow_f32,
    .rms_norm = pe__rms_norm,
};
