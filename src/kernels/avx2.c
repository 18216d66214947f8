/*
 * avx2.c — the AVX2 + FMA + F16C kernel set: 4 doubles or 8 floats per
 * register. Compiled with -mavx2 -mfma -mf16c for this file only; dispatch.c
 * enters it only when CPUID and XCR0 say the CPU and the OS support them.
 *
 * Same algorithms and error bounds as avx512.c (see its header and
 * vecmath.h): exact reduction modulo pi/2 with Taylor polynomials for
 * cos/sin, the shorter polynomials for rotation tables, and the plain f32
 * rotation with exact angles
 *   a' = fma(a, ch, -(b sh)),   b' = fma(b, ch, a sh)
 * (the same operations and table values as avx512.c, so the two sets give
 * bit-identical rotations).
 * AVX2 has no masked 16-bit loads, so partial vectors go through a small
 * zero-padded buffer on the stack; per element the operations are the same.
 */
#include "kernels.h"

#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__FMA__) || !defined(__F16C__)
#error "avx2.c needs -mavx2 -mfma -mf16c (see Makefile)"
#endif

#include "angle.h"
#include "vecmath.h"
#include "vec_avx2.h"
#include "vec_sincos.h"
#include "vec_rows.h"

#include <immintrin.h>
#include <math.h>
#include <string.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------ cos / sin */

/* sin and cos of p * (w + wl) for 4 lanes (vec_sincos.h); returns a lane
 * bitmask of lanes outside the exact range (|p w| >= 2^40 or not finite). */
ALWAYS_INLINE int sincos4(__m256d P, __m256d w, __m256d wl, __m256d *sn, __m256d *cs) {
    return (int)pe_vsincos(P, w, wl, sn, cs);
}

/* Both outputs: double (c64/s64) or float (c32/s32), whichever is given. */
static void cos_sin_any(int64_t p, const double *w, const double *wl, int64_t n,
                        double *c64, double *s64, float *c32, float *s32) {
    if (p > PE_VM_MAX_POSITION || p < -PE_VM_MAX_POSITION) {
        if (c64) pe__kernels_scalar.cos_sin(p, w, wl, n, c64, s64);
        else pe__kernels_scalar.cos_sin_f32(p, w, wl, n, c32, s32);
        return;
    }
    const __m256d P = _mm256_set1_pd((double)p);
    for (int64_t i = 0; i < n; i += 4) {
        const int64_t m = n - i < 4 ? n - i : 4;
        __m256d W, WL, sn, cs;
        if (m == 4) {
            W = _mm256_loadu_pd(w + i);
            WL = _mm256_loadu_pd(wl + i);
        } else {
            double bw[4] = {0, 0, 0, 0}, bl[4] = {0, 0, 0, 0};
            memcpy(bw, w + i, sizeof(double) * (size_t)m);
            memcpy(bl, wl + i, sizeof(double) * (size_t)m);
            W = _mm256_loadu_pd(bw);
            WL = _mm256_loadu_pd(bl);
        }
        const int bad = sincos4(P, W, WL, &sn, &cs) & ((1 << m) - 1);
        if (c64) {
            double bc[4], bs[4];
            _mm256_storeu_pd(bc, cs);
            _mm256_storeu_pd(bs, sn);
            memcpy(c64 + i, bc, sizeof(double) * (size_t)m);
            memcpy(s64 + i, bs, sizeof(double) * (size_t)m);
        } else {
            float bc[4], bs[4];
            _mm_storeu_ps(bc, _mm256_cvtpd_ps(cs));
            _mm_storeu_ps(bs, _mm256_cvtpd_ps(sn));
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

static void avx2_cos_sin(int64_t p, const double *w, const double *wl, int64_t n,
                         double *c, double *s) {
    cos_sin_any(p, w, wl, n, c, s, NULL, NULL);
}

static void avx2_cos_sin_f32(int64_t p, const double *w, const double *wl,
                             int64_t n, float *c, float *s) {
    cos_sin_any(p, w, wl, n, NULL, NULL, c, s);
}

/* ------------------------------------------------------------ rotation */

/* cos and sin for rotation tables (vec_sincos.h); returns the lane bitmask
 * of lanes outside the fast range. */
ALWAYS_INLINE int sincos4_rot(__m256d P, __m256d w, __m256d wl, __m256d *sn, __m256d *cs) {
    return (int)pe_vsincos_rot(P, w, wl, sn, cs);
}

/* Pairs i..min(i+4, m) of a token's tables from C = A cos, S = +-A sin:
 * half-split ch[m] sh[m]; interleaved CH[2m] SH[2m], SH negated at even
 * elements (as in avx512.c). */
ALWAYS_INLINE void store_tables(__m256d C, __m256d S, int64_t i, int64_t m, pe_rope_layout layout,
                                float *tab, int full) {
    const size_t k = full ? 4 : (size_t)(m - i);
    const __m128 ch = _mm256_cvtpd_ps(C), sh = _mm256_cvtpd_ps(S);
    if (layout == PE_ROPE_HALF) {
        if (k == 4) {
            _mm_storeu_ps(tab + i, ch);
            _mm_storeu_ps(tab + m + i, sh);
        } else {
            float b[2][4];
            _mm_storeu_ps(b[0], ch);
            _mm_storeu_ps(b[1], sh);
            memcpy(tab + i, b[0], sizeof(float) * k);
            memcpy(tab + m + i, b[1], sizeof(float) * k);
        }
        return;
    }
    const __m256i dup = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
    const __m256 alt = _mm256_castsi256_ps(
        _mm256_setr_epi32(INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0));
    const __m256 CH = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(ch), dup);
    const __m256 SH = _mm256_xor_ps(alt, _mm256_permutevar8x32_ps(_mm256_castps128_ps256(sh), dup));
    if (k == 4) {
        _mm256_storeu_ps(tab + 2 * i, CH);
        _mm256_storeu_ps(tab + 2 * m + 2 * i, SH);
    } else {
        float b[2][8];
        _mm256_storeu_ps(b[0], CH);
        _mm256_storeu_ps(b[1], SH);
        memcpy(tab + 2 * i, b[0], sizeof(float) * 2 * k);
        memcpy(tab + 2 * m + 2 * i, b[1], sizeof(float) * 2 * k);
    }
}

/* Lanes i..i+4 of a, zero-padded past n. */
ALWAYS_INLINE __m256d load4(const double *a, int64_t i, int64_t n) {
    if (n - i >= 4) return _mm256_loadu_pd(a + i);
    double b[4] = {0, 0, 0, 0};
    memcpy(b, a + i, sizeof(double) * (size_t)(n - i));
    return _mm256_loadu_pd(b);
}

/* Floats a[i..i+4) widened to double (exactly), zeros past n. */
ALWAYS_INLINE __m256d load4f(const float *a, int64_t i, int64_t n) {
    if (n - i >= 4) return _mm256_cvtps_pd(_mm_loadu_ps(a + i));
    float b[4] = {0, 0, 0, 0};
    memcpy(b, a + i, sizeof(float) * (size_t)(n - i));
    return _mm256_cvtps_pd(_mm_loadu_ps(b));
}

/* A token's tables from given cos and sin, double (cd, sd) or float (cf,
 * sf); one pair of pointers is NULL, a constant after inlining. */
ALWAYS_INLINE void prepare_cs(const double *cd, const double *sd, const float *cf,
                              const float *sf, int64_t n, pe_rope_layout layout, int negate,
                              pe__rope_trig *t) {
    const __m256d mc = _mm256_set1_pd(t->magnitude);
    const __m256d ms = _mm256_set1_pd(negate ? -t->magnitude : t->magnitude);
    for (int64_t i = 0; i < n; i += 4) {
        const __m256d C = cf ? load4f(cf, i, n) : load4(cd, i, n);
        const __m256d S = sf ? load4f(sf, i, n) : load4(sd, i, n);
        store_tables(_mm256_mul_pd(mc, C), _mm256_mul_pd(ms, S), i, n, layout, t->tab, n - i >= 4);
    }
}

static void avx2_rope_prepare_cs(const double *c, const double *s, int64_t n,
                                 pe_rope_layout layout, int negate, pe__rope_trig *t) {
    prepare_cs(c, s, NULL, NULL, n, layout, negate, t);
}

static void avx2_rope_prepare_cs_f32(const float *c, const float *s, int64_t n,
                                     pe_rope_layout layout, int negate, pe__rope_trig *t) {
    prepare_cs(NULL, NULL, c, s, n, layout, negate, t);
}

/* Lanes i..i+4 of a token (full, or the n - i < 4 left): its cos and sin
 * kept in c, s for the next position's step, and its tables from A cos
 * and +-A sin (for A = 1 a sign flip, the same bits as the product). */
ALWAYS_INLINE void keep_block(__m256d cs, __m256d sn, double *c, double *s, float *tab,
                              int64_t i, int64_t n, int full, int unit, __m256d mc, __m256d ms,
                              pe_rope_layout layout) {
    if (full) {
        _mm256_storeu_pd(c + i, cs);
        _mm256_storeu_pd(s + i, sn);
    } else {
        double bc[4], bs[4];
        _mm256_storeu_pd(bc, cs);
        _mm256_storeu_pd(bs, sn);
        memcpy(c + i, bc, sizeof(double) * (size_t)(n - i));
        memcpy(s + i, bs, sizeof(double) * (size_t)(n - i));
    }
    if (unit)
        store_tables(cs, _mm256_xor_pd(sn, _mm256_andnot_pd(_mm256_set1_pd(1.0), ms)), i, n,
                     layout, tab, full);
    else
        store_tables(_mm256_mul_pd(mc, cs), _mm256_mul_pd(ms, sn), i, n, layout, tab, full);
}

/* One token's blocks, a step from the previous position or fresh (P), as
 * in avx512.c: unit and layout are constants per instantiation. Pointers
 * come as locals (vector stores may alias the trig struct). */
ALWAYS_INLINE int token_blocks(int step, __m256d P, const double *w, const double *wl, int64_t n,
                               int unit, pe_rope_layout layout, __m256d mc, __m256d ms,
                               double *c, double *s, const double *c1, const double *s1,
                               float *tab) {
    int bad = 0;
    for (int64_t i = 0; i < n; i += 4) {
        const int full = n - i >= 4;
        __m256d cs, sn;
        if (step) {
            const __m256d C = full ? _mm256_loadu_pd(c + i) : load4(c, i, n);
            const __m256d S = full ? _mm256_loadu_pd(s + i) : load4(s, i, n);
            const __m256d C1 = full ? _mm256_loadu_pd(c1 + i) : load4(c1, i, n);
            const __m256d S1 = full ? _mm256_loadu_pd(s1 + i) : load4(s1, i, n);
            pe_vstep(C, S, C1, S1, &cs, &sn);
        } else {
            const __m256d W = full ? _mm256_loadu_pd(w + i) : load4(w, i, n);
            const __m256d L = full ? _mm256_loadu_pd(wl + i) : load4(wl, i, n);
            bad |= sincos4_rot(P, W, L, &sn, &cs) & (full ? 0xF : (1 << (n - i)) - 1);
        }
        keep_block(cs, sn, c, s, tab, i, n, full, unit, mc, ms, layout);
    }
    return bad;
}

#define TOKEN_BLOCKS(name, unit, layout)                                                      \
    static int name(int step, __m256d P, const double *w, const double *wl, int64_t n,        \
                    __m256d mc, __m256d ms, double *c, double *s, const double *c1,          \
                    const double *s1, float *tab) {                                          \
        return token_blocks(step, P, w, wl, n, unit, layout, mc, ms, c, s, c1, s1, tab);     \
    }
TOKEN_BLOCKS(blocks_unit_half, 1, PE_ROPE_HALF)
TOKEN_BLOCKS(blocks_unit_inter, 1, PE_ROPE_INTERLEAVED)
TOKEN_BLOCKS(blocks_scaled_half, 0, PE_ROPE_HALF)
TOKEN_BLOCKS(blocks_scaled_inter, 0, PE_ROPE_INTERLEAVED)
#undef TOKEN_BLOCKS

static int avx2_rope_tables(int step, int64_t p, const double *w, const double *wl, int64_t n,
                            pe_rope_layout layout, int negate, pe__rope_trig *t) {
    if (!step && (p > PE_VM_MAX_POSITION || p < -PE_VM_MAX_POSITION)) return 1;
    const __m256d mc = _mm256_set1_pd(t->magnitude);
    const __m256d ms = _mm256_set1_pd(negate ? -t->magnitude : t->magnitude);
    const int half = layout == PE_ROPE_HALF;
    int (*const blocks)(int, __m256d, const double *, const double *, int64_t, __m256d, __m256d,
                        double *, double *, const double *, const double *, float *) =
        t->magnitude == 1.0 ? (half ? blocks_unit_half : blocks_unit_inter)
                            : (half ? blocks_scaled_half : blocks_scaled_inter);
    return blocks(step, _mm256_set1_pd((double)p), w, wl, n, mc, ms, t->c, t->s, t->c1, t->s1,
                  t->tab) != 0;
}

static int avx2_freqs_ok(const double *w, const double *w_lo, int64_t n) {
    const __m256d big = _mm256_set1_pd(PE_MAX_INV_FREQ), zero = _mm256_setzero_pd();
    const __m256d eps = _mm256_set1_pd(0x1p-52), sign = _mm256_set1_pd(-0.0);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d W = _mm256_loadu_pd(w + i), L = _mm256_andnot_pd(sign, _mm256_loadu_pd(w_lo + i));
        /* ordered comparisons: NaN fails each */
        const __m256d good = _mm256_and_pd(
            _mm256_and_pd(_mm256_cmp_pd(W, zero, _CMP_GE_OQ), _mm256_cmp_pd(W, big, _CMP_LE_OQ)),
            _mm256_cmp_pd(L, _mm256_mul_pd(W, eps), _CMP_LE_OQ));
        if (_mm256_movemask_pd(good) != 0xF) return 0;
    }
    for (; i < n; i++)
        if (!((w[i] >= 0.0) & (w[i] <= PE_MAX_INV_FREQ) & (fabs(w_lo[i]) <= w[i] * 0x1p-52)))
            return 0;
    return 1;
}

/* 4 keys per step, as avx512_alibi_row; the tail through the scalar set. */
static void avx2_alibi_row(double m, int64_t qpos, int64_t n, int causal, void *out,
                           pe_dtype dtype) {
    const __m256d neg_m = _mm256_set1_pd(-m), zero = _mm256_setzero_pd();
    const __m256d ninf = _mm256_set1_pd(-INFINITY), sign = _mm256_set1_pd(-0.0);
    const __m256d iota = _mm256_setr_pd(0, 1, 2, 3);
    int64_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const __m256d D = _mm256_sub_pd(_mm256_set1_pd((double)(qpos - j)), iota);
        __m256d v = _mm256_add_pd(_mm256_mul_pd(neg_m, _mm256_andnot_pd(sign, D)), zero);
        if (causal) v = _mm256_blendv_pd(v, ninf, _mm256_cmp_pd(D, zero, _CMP_LT_OQ));
        if (dtype == PE_F32)
            _mm_storeu_ps((float *)out + j, _mm256_cvtpd_ps(v));
        else
            _mm256_storeu_pd((double *)out + j, v);
    }
    if (j < n)
        pe__kernels_scalar.alibi_row(m, qpos - j, n - j, causal,
                                     (char *)out + (size_t)j * pe__dtype_size(dtype), dtype);
}

static void avx2_scatter_add_f32(float *table, int64_t dim, const int64_t *pos, int64_t n,
                                 const float *grad) {
    for (int64_t r = 0; r < n; r++) {
        float *dst = table + pos[r] * dim;
        const float *src = grad + r * dim;
        int64_t j = 0;
        for (; j + 8 <= dim; j += 8)
            _mm256_storeu_ps(dst + j, _mm256_add_ps(_mm256_loadu_ps(dst + j), _mm256_loadu_ps(src + j)));
        for (; j < dim; j++) dst[j] += src[j];
    }
}

const pe_kernel_table pe__kernels_avx2 = {
    .name = "avx2",
    .cos_sin = avx2_cos_sin,
    .cos_sin_f32 = avx2_cos_sin_f32,
    .steps = 1,
    .rope_tables = avx2_rope_tables,
    .rope_prepare_cs = avx2_rope_prepare_cs,
    .rope_prepare_cs_f32 = avx2_rope_prepare_cs_f32,
    .rope_token = pe_vrope_token,
    .freqs_ok = avx2_freqs_ok,
    .alibi_row = avx2_alibi_row,
    .scatter_add_f32 = avx2_scatter_add_f32,
    .narrow_f32 = pe_vnarrow_f32,
    .rms_norm = pe_vrms_norm,
};

#else
/* Not x86-64: this set does not exist (dispatch.c never names it). */
typedef int pe__avx2_unavailable;
#endif
