/*
 * norm.c — the scalar RMSNorm of one head for the fused QKV epilogue
 * (rope_fused.c; kernel table entry rms_norm). The definition every set
 * reproduces bit for bit (the vector sets hold the 8 partial sums in the
 * lanes of a register and do the same roundings in the same order):
 *   s_l = sum over i = l (mod 8), in index order, of fl(x_i x_i)   (double)
 *   r   = 1 / sqrt(((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) / n + eps)
 *   y_i = fl32(fl(x_i r) w'_i),  w'_i = w_i, or fl(1 + w_i) when one_plus
 * Double accumulation keeps the sum's error near 1e-16 relative, so y_i
 * is within 0.5 ulp (f32) + ~1e-15 relative of the exact value.
 */
#include "../internal.h"

void pe__rms_norm(const float *x, int64_t heads, int64_t x_stride, int64_t n, const float *w,
                  int one_plus, double eps, float *y) {
    for (int64_t h = 0; h < heads; h++, x += x_stride, y += n) {
        double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int64_t i = 0; i < n; i++) s[i & 7] += (double)x[i] * (double)x[i];
        const double r = pe__rms_norm_inv(s, n, eps);
        if (one_plus)
            for (int64_t i = 0; i < n; i++)
                y[i] = (float)(((double)x[i] * r) * (1.0 + (double)w[i]));
        else
            for (int64_t i = 0; i < n; i++) y[i] = (float)(((double)x[i] * r) * (double)w[i]);
    }
}
