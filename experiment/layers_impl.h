/*
 * layers_impl.h — definitions of the layers declared in layers.h, written
 * once for an element type. Not a normal header: a translation unit defines
 *     EX_R       the element type (float or double)
 *     EX_S       the suffix (f32 or f64)
 *     EX_IS_F64  1 for double, 0 for float
 * and then includes this file (see net_f32.c). Long reductions (softmax
 * sums, the loss) are accumulated in double in both precisions; everything
 * else runs in EX_R.
 */
#ifndef EX_R
#error "define EX_R, EX_S and EX_IS_F64 before including layers_impl.h"
#endif

#include "layers.h"

#include "matmul.h"

#include <math.h>
#include <string.h>

#define EX_CAT2_(a, b) a##_##b
#define EX_CAT2(a, b) EX_CAT2_(a, b)
#define EXF(name) EX_CAT2(name, EX_S)

#if EX_IS_F64
#define EX_MATMUL ex_matmul_f64
#define EX_EXP exp
#else
#define EX_MATMUL ex_matmul_f32
#define EX_EXP expf
#endif

typedef EX_R R;

void EXF(ex_linear_fwd)(const R *x, int n, int in, const R *W, const R *b, int out,
                        int accumulate, R *y) {
    EX_MATMUL(EX_NOTRANS, EX_NOTRANS, n, out, in, 1, x, in, W, out,
            accumulate ? 1 : 0, y, out);
    if (b)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < out; c++) y[(size_t)r * out + c] += b[c];
}

void EXF(ex_linear_bwd)(const R *x, int n, int in, const R *W, int out, const R *dy, R *dx,
                        int accumulate, R *dW, R *db) {
    EX_MATMUL(EX_TRANS, EX_NOTRANS, in, out, n, 1, x, in, dy, out, 1, dW, out);
    if (db)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < out; c++) db[c] += dy[(size_t)r * out + c];
    if (dx)
        EX_MATMUL(EX_NOTRANS, EX_TRANS, n, in, out, 1, dy, out, W, out,
                accumulate ? 1 : 0, dx, in);
}

/* LayerNorm's row sums run in 8 interleaved partial sums (EX_LANES): eight
 * independent chains of adds, which gcc keeps in vector lanes, where one
 * running sum is a chain of dependent adds it may not reorder. The partial
 * sums meet in double. Rows of any length; D = 64 is 8 rounds. */
#define EX_LANES 8

void EXF(ex_layernorm_fwd)(const R *x, int n, int d, const R *g, const R *b, R *y, R *mean,
                           R *rstd) {
    for (int r = 0; r < n; r++) {
        const R *xr = x + (size_t)r * d;
        R *yr = y + (size_t)r * d;
        R acc[EX_LANES] = {0};
        int i = 0;
        for (; i + EX_LANES <= d; i += EX_LANES)
            for (int k = 0; k < EX_LANES; k++) acc[k] += xr[i + k];
        double m = 0;
        for (; i < d; i++) m += xr[i];
        for (int k = 0; k < EX_LANES; k++) m += acc[k];
        m /= d;
        const R mr = (R)m;
        R sq[EX_LANES] = {0};
        for (i = 0; i + EX_LANES <= d; i += EX_LANES)
            for (int k = 0; k < EX_LANES; k++) {
                const R c = xr[i + k] - mr;
                sq[k] += c * c;
            }
        double v = 0;
        for (; i < d; i++) v += (double)(xr[i] - mr) * (xr[i] - mr);
        for (int k = 0; k < EX_LANES; k++) v += sq[k];
        const R sr = (R)(1.0 / sqrt(v / d + 1e-5));
        mean[r] = mr;
        rstd[r] = sr;
        for (i = 0; i < d; i++) yr[i] = (xr[i] - mr) * sr * g[i] + b[i];
    }
}

void EXF(ex_layernorm_bwd)(const R *x, int n, int d, const R *g, const R *mean, const R *rstd,
                           const R *dy, R *dx, R *dg, R *db) {
    for (int r = 0; r < n; r++) {
        const R *xr = x + (size_t)r * d, *dyr = dy + (size_t)r * d;
        R *dxr = dx + (size_t)r * d;
        const R m = mean[r], s = rstd[r];
        /* With xh = (x - m) s and dxh = dy g:
         * dx = s (dxh - mean(dxh) - xh mean(dxh xh)). */
        R pa[EX_LANES] = {0}, pc[EX_LANES] = {0};
        int i = 0;
        for (; i + EX_LANES <= d; i += EX_LANES)
            for (int k = 0; k < EX_LANES; k++) {
                const R xh = (xr[i + k] - m) * s, dxh = dyr[i + k] * g[i + k];
                pa[k] += dxh;
                pc[k] += dxh * xh;
                dg[i + k] += dyr[i + k] * xh;
                db[i + k] += dyr[i + k];
            }
        double a = 0, c = 0;
        for (; i < d; i++) {
            const R xh = (xr[i] - m) * s, dxh = dyr[i] * g[i];
            a += dxh;
            c += (double)dxh * xh;
            dg[i] += dyr[i] * xh;
            db[i] += dyr[i];
        }
        for (int k = 0; k < EX_LANES; k++) a += pa[k], c += pc[k];
        const R ma = (R)(a / d), mc = (R)(c / d);
        for (i = 0; i < d; i++) {
            const R xh = (xr[i] - m) * s;
            dxr[i] += s * (dyr[i] * g[i] - ma - xh * mc);
        }
    }
}

#ifndef EX_TANH_F32_DEFINED
#define EX_TANH_F32_DEFINED
/* tanh for float as a rational function (Eigen's generic_fast_tanh_float,
 * the 13/6 minimax fit also used by XLA): a few ulp from tanhf, and plain
 * arithmetic the compiler vectorizes, where a libm call per element made
 * GELU a fifth of a training step. tests/experiment checks it against
 * tanh. Beyond |x| = 7.9 tanh rounds to +-1 in float. */
static inline float ex_tanh_f32(float x) {
    const float lim = 7.90531110763549805f;
    x = x > lim ? lim : x;
    x = x < -lim ? -lim : x;
    const float x2 = x * x;
    float p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
    p = p * x2 + -8.60467152213735e-11f;
    p = p * x2 + 5.12229709037114e-08f;
    p = p * x2 + 1.48572235717979e-05f;
    p = p * x2 + 6.37261928875436e-04f;
    p = p * x2 + 4.89352455891786e-03f;
    p = p * x;
    float q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
    q = q * x2 + 2.26843463243900e-03f;
    q = q * x2 + 4.89352518554385e-03f;
    return p / q;
}
#endif

/* GELU in the tanh form of Hendrycks & Gimpel (GPT-2's):
 *   y = u (1 + tanh(c (u + 0.044715 u^3))) / 2,  c = sqrt(2/pi).
 * The forward keeps dy/du in dgdu, so the backward is a product. The
 * float model takes tanh from ex_tanh_f32, the double one from libm (its
 * derivative must match its forward to double precision for the
 * finite-difference checks). */
void EXF(ex_gelu_fwd)(const R *restrict u, R *restrict y, R *restrict dgdu, size_t n) {
    const R c = (R)0.79788456080286535588, k = (R)0.044715;
#if EX_IS_F64
#define EX_GELU_TANH(z) tanh(z)
#else
#define EX_GELU_TANH(z) ex_tanh_f32(z)
#endif
    /* Two branch-free loops (with and without the slope, which only
     * training needs): the form gcc vectorizes. */
    if (dgdu == NULL) {
        for (size_t i = 0; i < n; i++) {
            const R x = u[i], th = EX_GELU_TANH(c * (x + k * x * x * x));
            y[i] = (R)0.5 * x * (1 + th);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const R x = u[i], th = EX_GELU_TANH(c * (x + k * x * x * x));
        y[i] = (R)0.5 * x * (1 + th);
        dgdu[i] = (R)0.5 * (1 + th) + (R)0.5 * x * (1 - th * th) * c * (1 + 3 * k * x * x);
    }
#undef EX_GELU_TANH
}

void EXF(ex_gelu_bwd)(const R *dgdu, const R *dy, R *du, size_t n) {
    /* du may be dy: no restrict here. */
    for (size_t i = 0; i < n; i++) du[i] = dy[i] * dgdu[i];
}

void EXF(ex_attention_fwd)(const R *qkv, int T, int H, int Dh, const R *bias, R scale, R *P,
                           R *out, int ld_out) {
    const int D = H * Dh, ld = 3 * D;
    for (int h = 0; h < H; h++) {
        const R *bh = bias ? bias + (size_t)h * T * T : NULL;
        R *Ph = P + (size_t)h * T * T;
        /* S = scale Q K^T for every pair (the masked half is computed and
         * discarded: one product beats a triangle of tiny dot products). */
        EX_MATMUL(EX_NOTRANS, EX_TRANS, T, T, Dh, scale, qkv + h * Dh, ld,
                qkv + D + h * Dh, ld, 0, Ph, T);
        for (int i = 0; i < T; i++) {
            R *p = Ph + (size_t)i * T;
            R mx = -INFINITY;
            for (int j = 0; j <= i; j++) {
                if (bh) p[j] += bh[(size_t)i * T + j];
                if (p[j] > mx) mx = p[j];
            }
            /* Key i itself is always visible and its bias finite, so mx is
             * finite and the sum is at least 1. */
            double sum = 0;
            for (int j = 0; j <= i; j++) {
                p[j] = EX_EXP(p[j] - mx);
                sum += p[j];
            }
            const R inv = (R)(1.0 / sum);
            for (int j = 0; j <= i; j++) p[j] *= inv;
            for (int j = i + 1; j < T; j++) p[j] = 0; /* the causal mask */
        }
        EX_MATMUL(EX_NOTRANS, EX_NOTRANS, T, Dh, T, 1, Ph, T,
                qkv + 2 * D + h * Dh, ld, 0, out + h * Dh, ld_out);
    }
}

void EXF(ex_attention_bwd)(const R *qkv, int T, int H, int Dh, const R *P, R scale,
                           const R *dout, int ld_dout, R *dqkv, R *dbias, R *dS) {
    const int D = H * Dh, ld = 3 * D;
    for (int h = 0; h < H; h++) {
        const R *Ph = P + (size_t)h * T * T, *go = dout + h * Dh;
        /* dV = P^T dO; dP = dO V^T. */
        EX_MATMUL(EX_TRANS, EX_NOTRANS, T, Dh, T, 1, Ph, T, go, ld_dout, 0,
                dqkv + 2 * D + h * Dh, ld);
        EX_MATMUL(EX_NOTRANS, EX_TRANS, T, T, Dh, 1, go, ld_dout,
                qkv + 2 * D + h * Dh, ld, 0, dS, T);
        /* Softmax: dS_ij = P_ij (dP_ij - sum_k P_ik dP_ik), zero where masked. */
        for (int i = 0; i < T; i++) {
            const R *p = Ph + (size_t)i * T;
            R *d = dS + (size_t)i * T;
            double dot = 0;
            for (int j = 0; j <= i; j++) dot += (double)p[j] * d[j];
            for (int j = 0; j <= i; j++) d[j] = p[j] * (d[j] - (R)dot);
            for (int j = i + 1; j < T; j++) d[j] = 0;
            if (dbias) {
                R *db = dbias + (size_t)h * T * T + (size_t)i * T;
                for (int j = 0; j <= i; j++) db[j] += d[j];
            }
        }
        /* dQ = scale dS K; dK = scale dS^T Q. */
        EX_MATMUL(EX_NOTRANS, EX_NOTRANS, T, Dh, T, scale, dS, T,
                qkv + D + h * Dh, ld, 0, dqkv + h * Dh, ld);
        EX_MATMUL(EX_TRANS, EX_NOTRANS, T, Dh, T, scale, dS, T, qkv + h * Dh,
                ld, 0, dqkv + D + h * Dh, ld);
    }
}

void EXF(ex_softmax_ce)(const R *logits, int n, int V, const int *tgt, R scale, R *dlogits,
                        double *loss_sum, unsigned char *correct) {
    for (int r = 0; r < n; r++) {
        const R *z = logits + (size_t)r * V;
        int arg = 0, tie = 0;
        for (int c = 1; c < V; c++) {
            if (z[c] > z[arg]) arg = c, tie = 0;
            else if (z[c] == z[arg]) tie = 1;
        }
        const double mx = z[arg];
        double sum = 0;
        for (int c = 0; c < V; c++) sum += exp((double)z[c] - mx);
        const double lse = mx + log(sum);
        *loss_sum += lse - (double)z[tgt[r]];
        if (correct) correct[r] = arg == tgt[r] && !tie;
        if (dlogits) {
            R *dz = dlogits + (size_t)r * V;
            for (int c = 0; c < V; c++) {
                const double p = exp((double)z[c] - lse);
                dz[c] = (R)(scale * (p - (c == tgt[r])));
            }
        }
    }
}
