/*
 * avx512.c — the AVX-512 (F/BW/VL/DQ) kernel set: 8 doubles or 16 floats
 * per register. Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512dq
 * -mavx2 -mfma -mf16c for this file only; dispatch.c enters it only when
 * CPUID and XCR0 say the CPU and the OS support all of them.
 *
 * The algorithms (shared with avx2.c, documented in vecmath.h):
 *   cos/sin  exact angle reduction modulo pi/2 with FMA into a
 *            double-double, Taylor polynomials on [-pi/4, pi/4] with the
 *            low part folded in; within 1.1e-16 of the exact value for
 *            |p w| < 2^40 (98.5% correctly rounded); larger angles go
 *            through the scalar path.
 *   tables   for a rotation, each token's cos and sin come from the same
 *            exact angle through shorter polynomials, or for the next of
 *            consecutive positions from the previous token's by one angle
 *            addition (vecmath.h: both within 7.1e-12; fresh every 32
 *            tokens), times A in double, rounded to float: ch = fl(A c),
 *            sh = fl(A s), within 2^-25 A' + 7.1e-12 A of the exact value
 *            (A' the power of two at or above A).
 *   rotation plain f32, what the reference implementations compute but
 *            with exact angles:
 *              a' = fma(a, ch, -(b sh)),   b' = fma(b, ch, a sh)
 *            so |error| <= |a| |ch - A c| + |b| |sh - A s| + ulp(b sh)/2 +
 *            ulp(a')/2. For A = 1 and elements in [-1, 1] every product is
 *            below 1 and |a'| < 2: <= 2^-25 + 2^-25 + 2^-25 + 2^-24 +
 *            1.5e-11 < 1.4903e-7 (SPEC's goal: 1.5e-7). In general
 *            <= 2^-24 (A (|a| + 2 |b|) + |a'|) + 1e-11 A (|a| + |b|).
 *            Both layouts and every tail compute exactly these operations
 *            on the same table values, so results do not depend on vector
 *            boundaries; 16-bit storage rounds the same f32 value on store.
 */
#include "kernels.h"

#if defined(__x86_64__)
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512VL__) || \
    !defined(__AVX512DQ__) || !defined(__FMA__) || !defined(__F16C__)
#error "avx512.c needs -mavx512f -mavx512bw -mavx512vl -mavx512dq -mfma -mf16c (see Makefile)"
#endif

#include "angle.h"
#include "vecmath.h"
#include "vec_avx512.h"
#include "vec_sincos.h"
#include "vec_rows.h"

#include <immintrin.h>
#include <math.h>
#include <string.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------ cos / sin */

/* sin and cos of p * (w + wl) for 8 lanes (vec_sincos.h); *bad flags lanes
 * outside the exact range (|p w| >= 2^40 or not finite) for the scalar
 * path. */
ALWAYS_INLINE void sincos8(__m512d P, __m512d w, __m512d wl, __m512d *sn,
                           __m512d *cs, __mmask8 *bad) {
    *bad = (__mmask8)pe_vsincos(P, w, wl, sn, cs);
}


/* Lanes i..i+8 (mask k) into double or float outputs; the scalar path for
 * any lane outside the exact range. */
ALWAYS_INLINE void cs_block(int64_t p, __m512d P, const double *w, const double *wl,
                            int64_t i, __mmask8 k, int64_t m, double *c64, double *s64,
                            float *c32, float *s32) {
    __m512d sn, cs;
    __mmask8 bad;
    sincos8(P, _mm512_maskz_loadu_pd(k, w + i), _mm512_maskz_loadu_pd(k, wl + i), &sn, &cs, &bad);
    if (c64) {
        _mm512_mask_storeu_pd(c64 + i, k, cs);
        _mm512_mask_storeu_pd(s64 + i, k, sn);
    } else {
        _mm256_mask_storeu_ps(c32 + i, k, _mm512_cvtpd_ps(cs));
        _mm256_mask_storeu_ps(s32 + i, k, _mm512_cvtpd_ps(sn));
    }
    bad &= k;
    for (int64_t l = 0; bad && l < m; l++) /* rare: redo those lanes exactly */
        if (bad & (1u << l)) {
            if (c64) pe__kernels_scalar.cos_sin(p, w + i + l, wl + i + l, 1, c64 + i + l, s64 + i + l);
            else pe__kernels_scalar.cos_sin_f32(p, w + i + l, wl + i + l, 1, c32 + i + l, s32 + i + l);
        }
}

ALWAYS_INLINE void cos_sin_any(int64_t p, const double *w, const double *wl, int64_t n,
                               double *c64, double *s64, float *c32, float *s32) {
    if (p > PE_VM_MAX_POSITION || p < -PE_VM_MAX_POSITION) {
        if (c64) pe__kernels_scalar.cos_sin(p, w, wl, n, c64, s64);
        else pe__kernels_scalar.cos_sin_f32(p, w, wl, n, c32, s32);
        return;
    }
    const __m512d P = _mm512_set1_pd((double)p);
    int64_t i = 0;
    /* two independent blocks per step: the polynomials are latency chains */
    for (; i + 16 <= n; i += 16) {
        cs_block(p, P, w, wl, i, 0xFF, 8, c64, s64, c32, s32);
        cs_block(p, P, w, wl, i + 8, 0xFF, 8, c64, s64, c32, s32);
    }
    for (; i < n; i += 8) {
        const int64_t m = n - i < 8 ? n - i : 8;
        cs_block(p, P, w, wl, i, (__mmask8)((1u << m) - 1u), m, c64, s64, c32, s32);
    }
}

static void avx512_cos_sin(int64_t p, const double *w, const double *wl, int64_t n,
                           double *c, double *s) {
    cos_sin_any(p, w, wl, n, c, s, NULL, NULL);
}

static void avx512_cos_sin_f32(int64_t p, const double *w, const double *wl, int64_t n,
                               float *c, float *s) {
    cos_sin_any(p, w, wl, n, NULL, NULL, c, s);
}

/* ------------------------------------------------------------ rotation */

/* cos and sin of p * (w + wl) for rotation tables (vec_sincos.h). */
ALWAYS_INLINE void sincos8_rot(__m512d P, __m512d w, __m512d wl, __m512d *sn,
                               __m512d *cs, __mmask8 *bad) {
    *bad = (__mmask8)pe_vsincos_rot(P, w, wl, sn, cs);
}

/*
 * Pairs i..min(i+8, m) of a token's tables from C = A cos, S = +-A sin:
 *   half-split   ch[m] sh[m]        pair i at index i
 *   interleaved  CH[2m] SH[2m]      element j of the span: pair j/2, SH
 *                                   negated at even j (the a' lanes)
 */
ALWAYS_INLINE void store_tables(__m512d C, __m512d S, int64_t i, int64_t m,
                                pe_rope_layout layout, float *tab, int full) {
    const int64_t cnt = full ? 8 : m - i;
    const __mmask8 k = (__mmask8)((1u << cnt) - 1u);
    const __mmask16 k2 = (__mmask16)((1u << (2 * cnt)) - 1u);
    const __m256 ch = _mm512_cvtpd_ps(C), sh = _mm512_cvtpd_ps(S);
    if (layout == PE_ROPE_HALF) {
        if (full) {
            _mm256_storeu_ps(tab + i, ch);
            _mm256_storeu_ps(tab + m + i, sh);
        } else {
            _mm256_mask_storeu_ps(tab + i, k, ch);
            _mm256_mask_storeu_ps(tab + m + i, k, sh);
        }
        return;
    }
    const __m512i dup = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
    const __m512 alt = _mm512_castsi512_ps(_mm512_set_epi32(
        0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0,
        INT32_MIN, 0, INT32_MIN, 0, INT32_MIN));
    const __m512 CH = _mm512_permutexvar_ps(dup, _mm512_castps256_ps512(ch));
    const __m512 SH = _mm512_xor_ps(alt, _mm512_permutexvar_ps(dup, _mm512_castps256_ps512(sh)));
    if (full) {
        _mm512_storeu_ps(tab + 2 * i, CH);
        _mm512_storeu_ps(tab + 2 * m + 2 * i, SH);
    } else {
        _mm512_mask_storeu_ps(tab + 2 * i, k2, CH);
        _mm512_mask_storeu_ps(tab + 2 * m + 2 * i, k2, SH);
    }
}

/* A cos and +-A sin: for A = 1 (most models) the product is exact, so a
 * sign flip gives the same bits with no arithmetic. */
ALWAYS_INLINE void scaled(__m512d cs, __m512d sn, int unit, __m512d mc, __m512d ms,
                          __m512d *C, __m512d *S) {
    if (unit) {
        *C = cs;
        *S = _mm512_xor_pd(sn, _mm512_andnot_pd(_mm512_set1_pd(1.0), ms)); /* sign of ms */
    } else {
        *C = _mm512_mul_pd(mc, cs);
        *S = _mm512_mul_pd(ms, sn);
    }
}

ALWAYS_INLINE __mmask8 lanes(int64_t n, int64_t i) {
    return n - i >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (n - i)) - 1u);
}

/* A token's tables from given cos and sin, double (cd, sd) or float (cf,
 * sf: widened exactly); one pair of pointers is NULL, a constant after
 * inlining. */
ALWAYS_INLINE void prepare_cs(const double *cd, const double *sd, const float *cf,
                              const float *sf, int64_t n, pe_rope_layout layout, int negate,
                              pe__rope_trig *t) {
    const __m512d mc = _mm512_set1_pd(t->magnitude);
    const __m512d ms = _mm512_set1_pd(negate ? -t->magnitude : t->magnitude);
    for (int64_t i = 0; i < n; i += 8) {
        const __mmask8 k = lanes(n, i);
        const __m512d C = cf ? _mm512_cvtps_pd(_mm256_maskz_loadu_ps(k, cf + i))
                             : _mm512_maskz_loadu_pd(k, cd + i);
        const __m512d S = sf ? _mm512_cvtps_pd(_mm256_maskz_loadu_ps(k, sf + i))
                             : _mm512_maskz_loadu_pd(k, sd + i);
        store_tables(_mm512_mul_pd(mc, C), _mm512_mul_pd(ms, S), i, n, layout, t->tab, k == 0xFF);
    }
}

static void avx512_rope_prepare_cs(const double *c, const double *s, int64_t n,
                                   pe_rope_layout layout, int negate, pe__rope_trig *t) {
    prepare_cs(c, s, NULL, NULL, n, layout, negate, t);
}

static void avx512_rope_prepare_cs_f32(const float *c, const float *s, int64_t n,
                                       pe_rope_layout layout, int negate, pe__rope_trig *t) {
    prepare_cs(NULL, NULL, c, s, n, layout, negate, t);
}

/* Pairs i..i+8 (mask k) of a token: its cos and sin kept in c, s for the
 * next position's step, and its tables. */
ALWAYS_INLINE void keep_block(__m512d cs, __m512d sn, double *c, double *s, float *tab,
                              int64_t i, int full, __mmask8 k, int64_t n, int unit,
                              __m512d mc, __m512d ms, pe_rope_layout layout) {
    if (full) {
        _mm512_storeu_pd(c + i, cs);
        _mm512_storeu_pd(s + i, sn);
    } else {
        _mm512_mask_storeu_pd(c + i, k, cs);
        _mm512_mask_storeu_pd(s + i, k, sn);
    }
    __m512d C, S;
    scaled(cs, sn, unit, mc, ms, &C, &S);
    store_tables(C, S, i, n, layout, tab, full);
}

/* Pairs i..i+8 (mask k) of a token's tables from its position, keeping
 * its cos and sin in c, s; returns the lanes outside the fast range. */
ALWAYS_INLINE __mmask8 prepare_block(__m512d P, const double *w, const double *wl, int64_t i,
                                     __mmask8 k, int64_t n, int unit, __m512d mc, __m512d ms,
                                     pe_rope_layout layout, double *c, double *s, float *tab) {
    __m512d sn, cs;
    __mmask8 bad;
    const __m512d W = k == 0xFF ? _mm512_loadu_pd(w + i) : _mm512_maskz_loadu_pd(k, w + i);
    const __m512d L = k == 0xFF ? _mm512_loadu_pd(wl + i) : _mm512_maskz_loadu_pd(k, wl + i);
    sincos8_rot(P, W, L, &sn, &cs, &bad);
    keep_block(cs, sn, c, s, tab, i, k == 0xFF, k, n, unit, mc, ms, layout);
    return bad & k;
}

/* The same one position further: (c, s) rotated by the step (c1, s1).
 * Pointers come as locals: vector stores may alias *t, which would force
 * reloads of its fields after every store. */
ALWAYS_INLINE void step_block(double *c, double *s, const double *c1, const double *s1,
                              float *tab, int64_t i, int full, __mmask8 k, int64_t n, int unit,
                              __m512d mc, __m512d ms, pe_rope_layout layout) {
    const __m512d C = full ? _mm512_loadu_pd(c + i) : _mm512_maskz_loadu_pd(k, c + i);
    const __m512d S = full ? _mm512_loadu_pd(s + i) : _mm512_maskz_loadu_pd(k, s + i);
    const __m512d C1 = full ? _mm512_loadu_pd(c1 + i) : _mm512_maskz_loadu_pd(k, c1 + i);
    const __m512d S1 = full ? _mm512_loadu_pd(s1 + i) : _mm512_maskz_loadu_pd(k, s1 + i);
    __m512d Cn, Sn;
    pe_vstep(C, S, C1, S1, &Cn, &Sn);
    keep_block(Cn, Sn, c, s, tab, i, full, k, n, unit, mc, ms, layout);
}

/* One token's blocks, a step from the previous position or fresh (P);
 * unit and layout are constants in each instantiation below, so the loops
 * carry no per-block branches. Returns the lanes outside the fast range. */
ALWAYS_INLINE __mmask8 token_blocks(int step, __m512d P, const double *w, const double *wl,
                                    int64_t n, int unit, pe_rope_layout layout, __m512d mc,
                                    __m512d ms, double *c, double *s, const double *c1,
                                    const double *s1, float *tab) {
    int64_t i = 0;
    if (step) {
        for (; i + 8 <= n; i += 8)
            step_block(c, s, c1, s1, tab, i, 1, (__mmask8)0xFF, n, unit, mc, ms, layout);
        if (i < n) step_block(c, s, c1, s1, tab, i, 0, lanes(n, i), n, unit, mc, ms, layout);
        return 0;
    }
    __mmask8 bad = 0;
    /* two independent blocks per step: the polynomials are latency chains */
    for (; i + 16 <= n; i += 16) {
        bad |= prepare_block(P, w, wl, i, 0xFF, n, unit, mc, ms, layout, c, s, tab);
        bad |= prepare_block(P, w, wl, i + 8, 0xFF, n, unit, mc, ms, layout, c, s, tab);
    }
    for (; i < n; i += 8)
        bad |= prepare_block(P, w, wl, i, lanes(n, i), n, unit, mc, ms, layout, c, s, tab);
    return bad;
}

#define TOKEN_BLOCKS(name, unit, layout)                                                     \
    static __mmask8 name(int step, __m512d P, const double *w, const double *wl, int64_t n, \
                         __m512d mc, __m512d ms, double *c, double *s, const double *c1,    \
                         const double *s1, float *tab) {                                    \
        return token_blocks(step, P, w, wl, n, unit, layout, mc, ms, c, s, c1, s1, tab);    \
    }
TOKEN_BLOCKS(blocks_unit_half, 1, PE_ROPE_HALF)
TOKEN_BLOCKS(blocks_unit_inter, 1, PE_ROPE_INTERLEAVED)
TOKEN_BLOCKS(blocks_scaled_half, 0, PE_ROPE_HALF)
TOKEN_BLOCKS(blocks_scaled_inter, 0, PE_ROPE_INTERLEAVED)
#undef TOKEN_BLOCKS

static int avx512_rope_tables(int step, int64_t p, const double *w, const double *wl,
                              int64_t n, pe_rope_layout layout, int negate, pe__rope_trig *t) {
    if (!step && (p > PE_VM_MAX_POSITION || p < -PE_VM_MAX_POSITION)) return 1;
    const __m512d mc = _mm512_set1_pd(t->magnitude);
    const __m512d ms = _mm512_set1_pd(negate ? -t->magnitude : t->magnitude);
    const int half = layout == PE_ROPE_HALF;
    __mmask8 (*const blocks)(int, __m512d, const double *, const double *, int64_t, __m512d,
                             __m512d, double *, double *, const double *, const double *,
                             float *) =
        t->magnitude == 1.0 ? (half ? blocks_unit_half : blocks_unit_inter)
                            : (half ? blocks_scaled_half : blocks_scaled_inter);
    /* locals: vector stores may alias *t, which would force reloads */
    return blocks(step, _mm512_set1_pd((double)p), w, wl, n, mc, ms, t->c, t->s, t->c1, t->s1,
                  t->tab) != 0;
}

/* Every rotation runs this (a decode step included): three independent
 * ordered comparisons per block (NaN fails each) ANDed, and the verdict
 * once at the end, not a chain of masked comparisons and a branch per
 * block. */
ALWAYS_INLINE __mmask8 freqs_good(__m512d W, __m512d L) {
    const __m512d big = _mm512_set1_pd(PE_MAX_INV_FREQ), eps = _mm512_set1_pd(0x1p-52);
    return (__mmask8)(_mm512_cmp_pd_mask(W, _mm512_setzero_pd(), _CMP_GE_OQ) &
                      _mm512_cmp_pd_mask(W, big, _CMP_LE_OQ) &
                      _mm512_cmp_pd_mask(_mm512_abs_pd(L), _mm512_mul_pd(W, eps), _CMP_LE_OQ));
}

static int avx512_freqs_ok(const double *w, const double *w_lo, int64_t n) {
    unsigned bad = 0;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        bad |= (__mmask8)~freqs_good(_mm512_loadu_pd(w + i), _mm512_loadu_pd(w_lo + i));
    if (i < n) {
        const __mmask8 k = lanes(n, i);
        bad |= k & (__mmask8)~freqs_good(_mm512_maskz_loadu_pd(k, w + i),
                                         _mm512_maskz_loadu_pd(k, w_lo + i));
    }
    return bad == 0;
}

/* 8 keys per step: distances as exact doubles (|qpos - j| < 2^53), one
 * product each like the scalar set, + 0 turning the diagonal's -0 into +0. */
static void avx512_alibi_row(double m, int64_t qpos, int64_t n, int causal, void *out,
                             pe_dtype dtype) {
    const __m512d neg_m = _mm512_set1_pd(-m), zero = _mm512_setzero_pd();
    const __m512d ninf = _mm512_set1_pd(-INFINITY);
    const __m512d iota = _mm512_set_pd(7, 6, 5, 4, 3, 2, 1, 0);
    for (int64_t j = 0; j < n; j += 8) {
        const __mmask8 k = lanes(n, j);
        const __m512d D = _mm512_sub_pd(_mm512_set1_pd((double)(qpos - j)), iota);
        __m512d v = _mm512_add_pd(_mm512_mul_pd(neg_m, _mm512_abs_pd(D)), zero);
        if (causal) v = _mm512_mask_mov_pd(v, _mm512_cmp_pd_mask(D, zero, _CMP_LT_OQ), ninf);
        if (dtype == PE_F32)
            _mm256_mask_storeu_ps((float *)out + j, k, _mm512_cvtpd_ps(v));
        else
            _mm512_mask_storeu_pd((double *)out + j, k, v);
    }
}

static void avx512_scatter_add_f32(float *table, int64_t dim, const int64_t *pos,
                                   int64_t n, const float *grad) {
    for (int64_t r = 0; r < n; r++) {
        float *dst = table + pos[r] * dim;
        const float *src = grad + r * dim;
        for (int64_t j = 0; j < dim; j += 16) {
            const __mmask16 k = dim - j >= 16 ? (__mmask16)0xFFFF
                                              : (__mmask16)((1u << (dim - j)) - 1u);
            _mm512_mask_storeu_ps(dst + j, k,
                                  _mm512_add_ps(_mm512_maskz_loadu_ps(k, dst + j),
                                                _mm512_maskz_loadu_ps(k, src + j)));
        }
    }
}

const pe_kernel_table pe__kernels_avx512 = {
    .name = "avx512",
    .cos_sin = avx512_cos_sin,
    .cos_sin_f32 = avx512_cos_sin_f32,
    .steps = 1,
    .rope_tables = avx512_rope_tables,
    .rope_prepare_cs = avx512_rope_prepare_cs,
    .rope_prepare_cs_f32 = avx512_rope_prepare_cs_f32,
    .rope_token = pe_vrope_token,
    .freqs_ok = avx512_freqs_ok,
    .alibi_row = avx512_alibi_row,
    .scatter_add_f32 = avx512_scatter_add_f32,
    .narrow_f32 = pe_vnarrow_f32,
    .rms_norm = pe_vrms_norm,
};

#else
/* Not x86-64: this set does not exist (dispatch.c never names it). */
typedef int pe__avx512_unavailable;
#endif
