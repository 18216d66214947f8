/*
 * neon.c — the AArch64 Advanced SIMD (NEON) kernel set: 2 doubles or 4
 * floats per register. NEON and its double-precision FMA are baseline on
 * armv8-a, so no compile flag and no run-time check are needed; dispatch.c
 * selects this set on every aarch64 CPU.
 *
 * Bit-identical to avx2.c and avx512.c: every lane goes through the same
 * IEEE operations in the same order (vecmath.h's exact reduction and
 * polynomials for cos/sin, the same shorter polynomials for the rotation
 * tables, the same stepping, and the f32 rotation
 *   a' = fma(a, ch, -(b sh)),   b' = fma(b, ch, a sh)),
 * only fewer lanes at a time. x86's fmsub(a, b, c) (a b - c, one rounding)
 * is vfmaq(-c, a, b) here and fnmadd(a, b, c) (c - a b) is vfmsq(c, a, b):
 * the same exact value rounded once. Conversions round to nearest even (the
 * FPCR default) like F16C's _MM_FROUND_TO_NEAREST_INT and cvtpd_ps. There
 * are no streaming stores (NEON has no non-temporal store intrinsic):
 * stores are plain, which changes no value.
 */
#include "kernels.h"

#if defined(__aarch64__)
#include "angle.h"
#include "vecmath.h"
#include "vec_neon.h"
#include "vec_sincos.h"
#include "vec_rows.h"

#include <arm_neon.h>
#include <math.h>
#include <string.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))


/* ------------------------------------------------------------ cos / sin */


/* sin and cos of p (w + wl), 2 lanes (vec_sincos.h). */
ALWAYS_INLINE int sincos2(float64x2_t P, float64x2_t w, float64x2_t wl, float64x2_t *sn,
                          float64x2_t *cs) {
    return (int)pe_vsincos(P, w, wl, sn, cs);
}

/* Lanes i, i+1 of a, zero-padded past n. */
ALWAYS_INLINE float64x2_t load2(const double *a, int64_t i, int64_t n) {
    if (n - i >= 2) return vld1q_f64(a + i);
    double b[2] = {a[i], 0};
    return vld1q_f64(b);
}

/* Both outputs: double (c64/s64) or float (c32/s32), whichever is given. */
static void cos_sin_any(int64_t p, const double *w, const double *wl, int64_t n, double *c64,
                        double *s64, float *c32, float *s32) {
    if (p > PE_VM_MAX_POSITION || p < -PE_VM_MAX_POSITION) {
        if (c64) pe__kernels_scalar.cos_sin(p, w, wl, n, c64, s64);
        else pe__kernels_scalar.cos_sin_f32(p, w, wl, n, c32, s32);
        return;
    }
    const float64x2_t P = vdupq_n_f64((double)p);
    for (int64_t i = 0; i < n; i += 2) {
        const int64_t m = n - i < 2 ? n - i : 2;
        float64x2_t sn, cs;
        const int bad = sincos2(P, load2(w, i, n), load2(wl, i, n), &sn, &cs) & ((1 << m) - 1);
        if (c64) {
            double bc[2], bs[2];
            vst1q_f64(bc, cs);
            vst1q_f64(bs, sn);
            memcpy(c64 + i, bc, sizeof(double) * (size_t)m);
            memcpy(s64 + i, bs, sizeof(double) * (size_t)m);
        } else {
            float bc[2], bs[2];
            vst1_f32(bc, vcvt_f32_f64(cs));
            vst1_f32(bs, vcvt_f32_f64(sn));
            memcpy(c32 + i, bc, sizeof(float) * (size_t)m);
            memcpy(s32 + i, bs, sizeof(float) * (size_t)m);
        }
        for (int64_t l = 0; bad && l < m; l++) /* rare: redo those lanes exactly */
            if (bad & (1 << l)) {
                if (c64) pe__kernels_scalar.cos_sin(p, w + i + l, wl + i + l, 1, c64 + i + l, s64 + i + l);
                else pe__kernels_scalar.cos_sin_f32(p, w + i + l, wl + i + l, 1, c32 + i + l, s32 + i + l);
            }
    }
}

static void neon_cos_sin(int64_t p, const double *w, const double *wl, int64_t n, double *c,
                         double *s) {
    cos_sin_any(p, w, wl, n, c, s, NULL, NULL);
}

static void neon_cos_sin_f32(int64_t p, const double *w, const double *wl, int64_t n, float *c,
                             float *s) {
    cos_sin_any(p, w, wl, n, NULL, NULL, c, s);
}

/* ------------------------------------------------------------ rotation */

/* cos and sin for rotation tables (vec_sincos.h). */
ALWAYS_INLINE int sincos2_rot(float64x2_t P, float64x2_t w, float64x2_t wl, float64x2_t *sn,
                              float64x2_t *cs) {
    return (int)pe_vsincos_rot(P, w, wl, sn, cs);
}

/* Pairs i..min(i+2, m) of a token's tables from C = A cos, S = +-A sin:
 * half-split ch[m] sh[m]; interleaved CH[2m] SH[2m], SH negated at even
 * elements (as in avx2.c). */
ALWAYS_INLINE void store_tables(float64x2_t C, float64x2_t S, int64_t i, int64_t m,
                                pe_rope_layout layout, float *tab) {
    const size_t k = m - i >= 2 ? 2 : 1;
    const float32x2_t ch = vcvt_f32_f64(C), sh = vcvt_f32_f64(S);
    if (layout == PE_ROPE_HALF) {
        float b[2][2];
        vst1_f32(b[0], ch);
        vst1_f32(b[1], sh);
        memcpy(tab + i, b[0], sizeof(float) * k);
        memcpy(tab + m + i, b[1], sizeof(float) * k);
        return;
    }
    const float32x4_t CH = vcombine_f32(vdup_lane_f32(ch, 0), vdup_lane_f32(ch, 1));
    const uint32x4_t alt = {0x80000000u, 0, 0x80000000u, 0};
    const float32x4_t SH = vreinterpretq_f32_u32(veorq_u32(
        alt, vreinterpretq_u32_f32(vcombine_f32(vdup_lane_f32(sh, 0), vdup_lane_f32(sh, 1)))));
    float b[2][4];
    vst1q_f32(b[0], CH);
    vst1q_f32(b[1], SH);
    memcpy(tab + 2 * i, b[0], sizeof(float) * 2 * k);
    memcpy(tab + 2 * m + 2 * i, b[1], sizeof(float) * 2 * k);
}

static void neon_rope_prepare_cs(const double *c, const double *s, int64_t n,
                                 pe_rope_layout layout, int negate, pe__rope_trig *t) {
    const float64x2_t mc = vdupq_n_f64(t->magnitude);
    const float64x2_t ms = vdupq_n_f64(negate ? -t->magnitude : t->magnitude);
    for (int64_t i = 0; i < n; i += 2)
        store_tables(vmulq_f64(mc, load2(c, i, n)), vmulq_f64(ms, load2(s, i, n)), i, n, layout,
                     t->tab);
}

static void neon_rope_prepare_cs_f32(const float *c, const float *s, int64_t n,
                                     pe_rope_layout layout, int negate, pe__rope_trig *t) {
    const float64x2_t mc = vdupq_n_f64(t->magnitude);
    const float64x2_t ms = vdupq_n_f64(negate ? -t->magnitude : t->magnitude);
    for (int64_t i = 0; i < n; i += 2) {
        const int two = n - i >= 2; /* floats i, i + 1 widened exactly; zero past n */
        const float64x2_t C = {c[i], two ? c[i + 1] : 0.0}, S = {s[i], two ? s[i + 1] : 0.0};
        store_tables(vmulq_f64(mc, C), vmulq_f64(ms, S), i, n, layout, t->tab);
    }
}

/* One token's tables, stepped from the previous position or fresh (P):
 * token_blocks of avx2.c. For A = 1 the sine's sign is flipped by the
 * sign bit of ms (the same bits as the product). */
static int neon_rope_tables(int step, int64_t p, const double *w, const double *wl, int64_t n,
                            pe_rope_layout layout, int negate, pe__rope_trig *t) {
    if (!step && (p > PE_VM_MAX_POSITION || p < -PE_VM_MAX_POSITION)) return 1;
    const float64x2_t mc = vdupq_n_f64(t->magnitude);
    const float64x2_t ms = vdupq_n_f64(negate ? -t->magnitude : t->magnitude);
    const uint64x2_t ms_sign = vandq_u64(vreinterpretq_u64_f64(ms), vdupq_n_u64(1ull << 63));
    const int unit = t->magnitude == 1.0;
    const float64x2_t P = vdupq_n_f64((double)p);
    double *const c = t->c, *const s = t->s;
    const double *const c1 = t->c1, *const s1 = t->s1;
    float *const tab = t->tab;
    int bad = 0;
    for (int64_t i = 0; i < n; i += 2) {
        const int full = n - i >= 2;
        float64x2_t cs, sn;
        if (step) {
            const float64x2_t C = load2(c, i, n), S = load2(s, i, n);
            const float64x2_t C1 = load2(c1, i, n), S1 = load2(s1, i, n);
            pe_vstep(C, S, C1, S1, &cs, &sn);
        } else {
            bad |= sincos2_rot(P, load2(w, i, n), load2(wl, i, n), &sn, &cs) & (full ? 3 : 1);
        }
        if (full) {
            vst1q_f64(c + i, cs);
            vst1q_f64(s + i, sn);
        } else {
            c[i] = vgetq_lane_f64(cs, 0);
            s[i] = vgetq_lane_f64(sn, 0);
        }
        if (unit)
            store_tables(cs, vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(sn), ms_sign)),
                         i, n, layout, tab);
        else
            store_tables(vmulq_f64(mc, cs), vmulq_f64(ms, sn), i, n, layout, tab);
    }
    return bad != 0;
}

/* A yes/no test of every frequency (NaN fails each comparison), 2 lanes. */
static int neon_freqs_ok(const double *w, const double *w_lo, int64_t n) {
    const float64x2_t big = vdupq_n_f64(PE_MAX_INV_FREQ), zero = vdupq_n_f64(0.0);
    const float64x2_t eps = vdupq_n_f64(0x1p-52);
    int64_t i = 0;
    for (; i + 2 <= n; i += 2) {
        const float64x2_t W = vld1q_f64(w + i), L = vabsq_f64(vld1q_f64(w_lo + i));
        const uint64x2_t good = vandq_u64(vandq_u64(vcgeq_f64(W, zero), vcleq_f64(W, big)),
                                          vcleq_f64(L, vmulq_f64(W, eps)));
        if ((vgetq_lane_u64(good, 0) & vgetq_lane_u64(good, 1)) == 0) return 0;
    }
    for (; i < n; i++)
        if (!((w[i] >= 0.0) & (w[i] <= PE_MAX_INV_FREQ) & (fabs(w_lo[i]) <= w[i] * 0x1p-52)))
            return 0;
    return 1;
}

/* 2 keys per step, as avx2_alibi_row; the tail through the scalar set. */
static void neon_alibi_row(double m, int64_t qpos, int64_t n, int causal, void *out,
                           pe_dtype dtype) {
    const float64x2_t neg_m = vdupq_n_f64(-m), zero = vdupq_n_f64(0.0);
    const float64x2_t ninf = vdupq_n_f64(-INFINITY);
    const float64x2_t iota = {0.0, 1.0};
    int64_t j = 0;
    for (; j + 2 <= n; j += 2) {
        const float64x2_t D = vsubq_f64(vdupq_n_f64((double)(qpos - j)), iota);
        float64x2_t v = vaddq_f64(vmulq_f64(neg_m, vabsq_f64(D)), zero);
        if (causal) v = vbslq_f64(vcltq_f64(D, zero), ninf, v);
        if (dtype == PE_F32) vst1_f32((float *)out + j, vcvt_f32_f64(v));
        else vst1q_f64((double *)out + j, v);
    }
    if (j < n)
        pe__kernels_scalar.alibi_row(m, qpos - j, n - j, causal,
                                     (char *)out + (size_t)j * pe__dtype_size(dtype), dtype);
}

static void neon_scatter_add_f32(float *table, int64_t dim, const int64_t *pos, int64_t n,
                                 const float *grad) {
    for (int64_t r = 0; r < n; r++) {
        float *dst = table + pos[r] * dim;
        const float *src = grad + r * dim;
        int64_t j = 0;
        for (; j + 4 <= dim; j += 4)
            vst1q_f32(dst + j, vaddq_f32(vld1q_f32(dst + j), vld1q_f32(src + j)));
        for (; j < dim; j++) dst[j] += src[j];
    }
}

const pe_kernel_table pe__kernels_neon = {
    .name = "neon",
    .cos_sin = neon_cos_sin,
    .cos_sin_f32 = neon_cos_sin_f32,
    .steps = 1,
    .rope_tables = neon_rope_tables,
    .rope_prepare_cs = neon_rope_prepare_cs,
    .rope_prepare_cs_f32 = neon_rope_prepare_cs_f32,
    .rope_token = pe_vrope_token,
    .freqs_ok = neon_freqs_ok,
    .alibi_row = neon_alibi_row,
    .scatter_add_f32 = neon_scatter_add_f32,
    .narrow_f32 = pe_vnarrow_f32,
    .rms_norm = pe_vrms_norm,
};

#else
/* Not AArch64: this set does not exist (dispatch.c never names it). */
typedef int pe__neon_unavailable;
#endif
