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
 *   rotation compensated f32: cos and sin are carried as float pairs
 *            hi + lo (A folded in) and
 *              a' = fma(a, ch, fma(-b, sh, fma(a, cl, -(b sl))))
 *              b' = fma(b, ch, fma(a, sh, fma(b, cl, a sl)))
 *            so only the last two roundings are of the result's size: with
 *            u the inner fma (|u| <= A |y|, y the partner element),
 *            |error| <= ulp(u)/2 + ulp(x')/2 + 1e-14 A (|x| + |y|) (the
 *            lo parts, their products and cos/sin's 1.1e-16), hence
 *            <= 2^-24 (A |y| + |x'|) + 1e-14 A (|x| + |y|), and <= 8.9e-8
 *            for elements in [-1, 1] and A = 1 (SPEC goal 1.5e-7). Both
 *            layouts and every tail compute exactly these operations, so
 *            results do not depend on vector boundaries.
 *            16-bit storage uses the plain form a' = fma(a, ch, -(b sh)),
 *            b' = fma(b, ch, a sh) (half the arithmetic): its f32 error,
 *            <= 2^-24 (A (|x| + 2 |y|) + |x'|), is 2^13 (f16) or 2^16 (bf16)
 *            times smaller than the 16-bit rounding that follows, and only
 *            decides that rounding when the exact value sits that close to
 *            a rounding boundary.
 */
#include "../internal.h"

#if defined(__x86_64__)
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512VL__) || \
    !defined(__AVX512DQ__) || !defined(__FMA__) || !defined(__F16C__)
#error "avx512.c needs -mavx512f -mavx512bw -mavx512vl -mavx512dq -mfma -mf16c (see Makefile)"
#endif

#include "angle.h"
#include "vecmath.h"

#include <immintrin.h>
#include <string.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------ cos / sin */

/* sin and cos of p * (w + wl) for 8 lanes; *bad flags lanes outside the
 * exact range (|p w| >= 2^40 or not finite) for the scalar path. */
ALWAYS_INLINE void sincos8(__m512d P, __m512d w, __m512d wl, __m512d *sn,
                           __m512d *cs, __mmask8 *bad) {
    const __m512d xh = _mm512_mul_pd(P, w);
    __m512d xl = _mm512_fmsub_pd(P, w, xh); /* P w - xh, exact */
    xl = _mm512_fmadd_pd(P, wl, xl);
    *bad = _mm512_cmp_pd_mask(_mm512_abs_pd(xh), _mm512_set1_pd(PE_VM_LIMIT),
                              _CMP_NLT_UQ);
    const __m512d kd = _mm512_fmadd_pd(xh, _mm512_set1_pd(PE_VM_TWO_OVER_PI),
                                       _mm512_set1_pd(PE_VM_ROUND_MAGIC));
    const __m512d k = _mm512_sub_pd(kd, _mm512_set1_pd(PE_VM_ROUND_MAGIC));
    /* r = rh + rl: the reduced angle as a double-double (TwoSum: near a
     * multiple of pi/2 the small terms can outweigh r1) */
    const __m512d r1 = _mm512_fnmadd_pd(k, _mm512_set1_pd(PE_VM_PIO2_1), xh); /* exact */
    __m512d t = _mm512_fnmadd_pd(k, _mm512_set1_pd(PE_VM_PIO2_2), xl);
    t = _mm512_fnmadd_pd(k, _mm512_set1_pd(PE_VM_PIO2_3), t);
    const __m512d rh = _mm512_add_pd(r1, t), bb = _mm512_sub_pd(rh, r1);
    const __m512d rl = _mm512_add_pd(_mm512_sub_pd(r1, _mm512_sub_pd(rh, bb)), _mm512_sub_pd(t, bb));
    /* Estrin's scheme: the polynomials with dependency chains of 4 instead
     * of 8 operations */
    const __m512d z = _mm512_mul_pd(rh, rh), z2 = _mm512_mul_pd(z, z), z4 = _mm512_mul_pd(z2, z2);
    const __m512d zl = _mm512_fmsub_pd(rh, rh, z); /* rh^2 = z + zl exactly */
    const __m512d hz = _mm512_mul_pd(_mm512_set1_pd(0.5), z);
#define C_(x) _mm512_set1_pd(x)
    const __m512d s01 = _mm512_fmadd_pd(C_(PE_VM_S2), z, C_(PE_VM_S1));
    const __m512d s23 = _mm512_fmadd_pd(C_(PE_VM_S4), z, C_(PE_VM_S3));
    const __m512d s45 = _mm512_fmadd_pd(C_(PE_VM_S6), z, C_(PE_VM_S5));
    const __m512d s67 = _mm512_fmadd_pd(C_(PE_VM_S8), z, C_(PE_VM_S7));
    const __m512d ps = _mm512_fmadd_pd(_mm512_fmadd_pd(s67, z2, s45), z4, _mm512_fmadd_pd(s23, z2, s01));
    /* sin(rh + rl) = rh + (rh z P(z) + rl (1 - z/2)): one final rounding */
    const __m512d sr = _mm512_add_pd(
        rh, _mm512_fmadd_pd(_mm512_mul_pd(rh, z), ps, _mm512_fnmadd_pd(hz, rl, rl)));
    const __m512d c23 = _mm512_fmadd_pd(C_(PE_VM_C3), z, C_(PE_VM_C2));
    const __m512d c45 = _mm512_fmadd_pd(C_(PE_VM_C5), z, C_(PE_VM_C4));
    const __m512d c67 = _mm512_fmadd_pd(C_(PE_VM_C7), z, C_(PE_VM_C6));
    const __m512d pc = _mm512_fmadd_pd(_mm512_fmadd_pd(C_(PE_VM_C8), z2, c67), z4, _mm512_fmadd_pd(c45, z2, c23));
    /* cos(rh + rl) = hw + ((1 - hw) - hz - zl/2 - rh rl + z^2 Q(z)), hw =
     * 1 - z/2 rounded; (1 - hw) - hz is exact (Sterbenz) */
    const __m512d one = C_(1.0);
    const __m512d hw = _mm512_sub_pd(one, hz);
    __m512d e = _mm512_sub_pd(_mm512_sub_pd(one, hw), hz);
    e = _mm512_fnmadd_pd(C_(0.5), zl, _mm512_fnmadd_pd(rh, rl, e));
    const __m512d cr = _mm512_add_pd(hw, _mm512_fmadd_pd(z2, pc, e));
#undef C_
    /* quadrant q = k mod 4 sits in the low bits of kd */
    const __m512i q = _mm512_castpd_si512(kd);
    const __mmask8 swap = _mm512_test_epi64_mask(q, _mm512_set1_epi64(1));
    const __m512i two = _mm512_set1_epi64(2);
    const __m512i sflip = _mm512_slli_epi64(_mm512_and_si512(q, two), 62);
    const __m512i cflip = _mm512_slli_epi64(
        _mm512_and_si512(_mm512_add_epi64(q, _mm512_set1_epi64(1)), two), 62);
    *sn = _mm512_xor_pd(_mm512_mask_blend_pd(swap, sr, cr), _mm512_castsi512_pd(sflip));
    *cs = _mm512_xor_pd(_mm512_mask_blend_pd(swap, cr, sr), _mm512_castsi512_pd(cflip));
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

/*
 * Per-token tables for m pairs from double cos/sin and magnitude A:
 *   half-split   ch[m] cl[m] sh[m] sl[m]          (pair i at index i)
 *   interleaved  CH[2m] CL[2m] SH[2m] SL[2m]      (element j of the span:
 *                pair j/2, SH/SL negated at even j, the a' lanes)
 * hi = (float)(A c), lo = (float)(A c - hi): the same values in every set.
 */
static void build_tables(const double *c, const double *s, int64_t m,
                         double magnitude, pe_rope_layout layout, float *tab) {
    const __m512d A = _mm512_set1_pd(magnitude);
    const __m512i dup = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
    const __m512 alt = _mm512_castsi512_ps(_mm512_set_epi32(
        0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0,
        INT32_MIN, 0, INT32_MIN, 0, INT32_MIN));
    for (int64_t i = 0; i < m; i += 8) {
        const int64_t k = m - i < 8 ? m - i : 8;
        const __mmask8 mask = (__mmask8)((1u << k) - 1u);
        const __m512d C = _mm512_mul_pd(A, _mm512_maskz_loadu_pd(mask, c + i));
        const __m512d S = _mm512_mul_pd(A, _mm512_maskz_loadu_pd(mask, s + i));
        const __m256 ch = _mm512_cvtpd_ps(C), sh = _mm512_cvtpd_ps(S);
        const __m256 cl = _mm512_cvtpd_ps(_mm512_sub_pd(C, _mm512_cvtps_pd(ch)));
        const __m256 sl = _mm512_cvtpd_ps(_mm512_sub_pd(S, _mm512_cvtps_pd(sh)));
        if (layout == PE_ROPE_HALF) {
            _mm256_mask_storeu_ps(tab + i, mask, ch);
            _mm256_mask_storeu_ps(tab + m + i, mask, cl);
            _mm256_mask_storeu_ps(tab + 2 * m + i, mask, sh);
            _mm256_mask_storeu_ps(tab + 3 * m + i, mask, sl);
        } else {
            const __mmask16 m2 = (__mmask16)((1u << (2 * k)) - 1u);
            const int64_t j = 2 * i, n2 = 2 * m;
            _mm512_mask_storeu_ps(tab + j, m2, _mm512_permutexvar_ps(dup, _mm512_castps256_ps512(ch)));
            _mm512_mask_storeu_ps(tab + n2 + j, m2, _mm512_permutexvar_ps(dup, _mm512_castps256_ps512(cl)));
            _mm512_mask_storeu_ps(tab + 2 * n2 + j, m2,
                                  _mm512_xor_ps(alt, _mm512_permutexvar_ps(dup, _mm512_castps256_ps512(sh))));
            _mm512_mask_storeu_ps(tab + 3 * n2 + j, m2,
                                  _mm512_xor_ps(alt, _mm512_permutexvar_ps(dup, _mm512_castps256_ps512(sl))));
        }
    }
}

/* Load 16 (or the masked lanes of) elements of storage type dt as floats. */
ALWAYS_INLINE __m512 ld(const void *base, int64_t i, pe_dtype dt, __mmask16 m, int full) {
    if (dt == PE_F32)
        return full ? _mm512_loadu_ps((const float *)base + i)
                    : _mm512_maskz_loadu_ps(m, (const float *)base + i);
    const uint16_t *p = (const uint16_t *)base + i;
    const __m256i h = full ? _mm256_loadu_si256((const __m256i *)p)
                           : _mm256_maskz_loadu_epi16(m, p);
    if (dt == PE_F16) return _mm512_cvtph_ps(h);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

/* float -> bf16 with round to nearest even; NaN stays a quiet NaN. */
ALWAYS_INLINE __m256i to_bf16(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i hi = _mm512_srli_epi32(u, 16);
    const __m512i lsb = _mm512_and_si512(hi, _mm512_set1_epi32(1));
    __m512i r = _mm512_srli_epi32(
        _mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7FFF), lsb)), 16);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    r = _mm512_mask_or_epi32(r, nan, hi, _mm512_set1_epi32(0x40));
    return _mm512_cvtepi32_epi16(r);
}

ALWAYS_INLINE void st(void *base, int64_t i, __m512 v, pe_dtype dt, __mmask16 m,
                      int full, int nt) {
    if (dt == PE_F32) {
        float *p = (float *)base + i;
        if (!full)
            _mm512_mask_storeu_ps(p, m, v);
        else if (nt)
            _mm512_stream_ps(p, v);
        else
            _mm512_storeu_ps(p, v);
        return;
    }
    const __m256i h = dt == PE_F16
                          ? _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
                          : to_bf16(v);
    uint16_t *p = (uint16_t *)base + i;
    if (full)
        _mm256_storeu_si256((__m256i *)p, h);
    else
        _mm256_mask_storeu_epi16(p, m, h);
}

/* Pair vectors j..j+16 of a half-split span (full: no mask, else lanes k). */
ALWAYS_INLINE void vec_half(const void *in_a, const void *in_b, void *out_a, void *out_b,
                            int64_t j, const float *tab, int64_t m, pe_dtype dt, int nt,
                            int full, __mmask16 k) {
    const float *ch = tab, *cl = tab + m, *sh = tab + 2 * m, *sl = tab + 3 * m;
    const __m512 a = ld(in_a, j, dt, k, full), b = ld(in_b, j, dt, k, full);
    const __m512 CH = full ? _mm512_loadu_ps(ch + j) : _mm512_maskz_loadu_ps(k, ch + j);
    const __m512 SH = full ? _mm512_loadu_ps(sh + j) : _mm512_maskz_loadu_ps(k, sh + j);
    __m512 ra, rb;
    if (dt == PE_F32) { /* compensated */
        const __m512 CL = full ? _mm512_loadu_ps(cl + j) : _mm512_maskz_loadu_ps(k, cl + j);
        const __m512 SL = full ? _mm512_loadu_ps(sl + j) : _mm512_maskz_loadu_ps(k, sl + j);
        ra = _mm512_fmadd_ps(a, CH, _mm512_fnmadd_ps(b, SH, _mm512_fmsub_ps(a, CL, _mm512_mul_ps(b, SL))));
        rb = _mm512_fmadd_ps(b, CH, _mm512_fmadd_ps(a, SH, _mm512_fmadd_ps(b, CL, _mm512_mul_ps(a, SL))));
    } else { /* plain: 16-bit storage rounds the difference away */
        ra = _mm512_fmsub_ps(a, CH, _mm512_mul_ps(b, SH));
        rb = _mm512_fmadd_ps(b, CH, _mm512_mul_ps(a, SH));
    }
    st(out_a, j, ra, dt, k, full, nt);
    st(out_b, j, rb, dt, k, full, nt);
}

/* Half-split: a = in_a[0..m), b = in_b[0..m) -> out_a, out_b. */
ALWAYS_INLINE void span_half(const void *in_a, const void *in_b, void *out_a,
                             void *out_b, int64_t m, const float *tab,
                             pe_dtype dt, int nt) {
    int64_t j = 0;
    for (; j + 16 <= m; j += 16)
        vec_half(in_a, in_b, out_a, out_b, j, tab, m, dt, nt, 1, (__mmask16)0xFFFF);
    if (j < m)
        vec_half(in_a, in_b, out_a, out_b, j, tab, m, dt, 0, 0,
                 (__mmask16)((1u << (m - j)) - 1u));
}

/* Elements j..j+16 of an interleaved span [a0 b0 a1 b1 ...]; the pair swap
 * stays in 128-bit lanes, so a vector never splits a pair. */
ALWAYS_INLINE void vec_inter(const void *in, void *out, int64_t j, const float *tab,
                             int64_t n2, pe_dtype dt, int nt, int full, __mmask16 k) {
    const float *CHt = tab, *CLt = tab + n2, *SHt = tab + 2 * n2, *SLt = tab + 3 * n2;
    const __m512 x = ld(in, j, dt, k, full);
    const __m512 xs = _mm512_permute_ps(x, 0xB1);
    const __m512 CH = full ? _mm512_loadu_ps(CHt + j) : _mm512_maskz_loadu_ps(k, CHt + j);
    const __m512 SH = full ? _mm512_loadu_ps(SHt + j) : _mm512_maskz_loadu_ps(k, SHt + j);
    __m512 r;
    if (dt == PE_F32) { /* compensated */
        const __m512 CL = full ? _mm512_loadu_ps(CLt + j) : _mm512_maskz_loadu_ps(k, CLt + j);
        const __m512 SL = full ? _mm512_loadu_ps(SLt + j) : _mm512_maskz_loadu_ps(k, SLt + j);
        r = _mm512_fmadd_ps(x, CH, _mm512_fmadd_ps(xs, SH, _mm512_fmadd_ps(x, CL, _mm512_mul_ps(xs, SL))));
    } else { /* plain */
        r = _mm512_fmadd_ps(x, CH, _mm512_mul_ps(xs, SH));
    }
    st(out, j, r, dt, k, full, nt);
}

ALWAYS_INLINE void span_inter(const void *in, void *out, int64_t n2,
                              const float *tab, pe_dtype dt, int nt) {
    int64_t j = 0;
    for (; j + 16 <= n2; j += 16) vec_inter(in, out, j, tab, n2, dt, nt, 1, (__mmask16)0xFFFF);
    if (j < n2)
        vec_inter(in, out, j, tab, n2, dt, 0, 0, (__mmask16)((1u << (n2 - j)) - 1u));
}

/* Every head of one token, one storage type and store kind. */
ALWAYS_INLINE void heads_loop(const pe__rope_rows *r, const float *tab, pe_dtype dt,
                              int nt) {
    const size_t esz = dt == PE_F32 ? 4 : 2;
    const int64_t d = r->d, m = d / 2;
    const size_t row_bytes = (size_t)r->head_dim * esz;
    for (int64_t h = 0; h < r->heads; h++) {
        const char *in = (const char *)r->in + (size_t)(h * r->in_head_stride) * esz;
        char *out = (char *)r->out + (size_t)(h * r->out_head_stride) * esz;
        if (r->prefetch) /* the hardware prefetcher alone lags on in-place streams */
            for (size_t b = 0; b < row_bytes; b += 64)
                _mm_prefetch(in + PE__PREFETCH_BYTES + b, _MM_HINT_T0);
        if (r->layout == PE_ROPE_HALF)
            span_half(in, in + (size_t)m * esz, out, out + (size_t)m * esz, m, tab, dt, nt);
        else
            span_inter(in, out, d, tab, dt, nt);
        if (in != out && r->head_dim > d)
            memcpy(out + (size_t)d * esz, in + (size_t)d * esz,
                   (size_t)(r->head_dim - d) * esz);
    }
}

/* Cache-resident f32 half-split rows (a decode step): pair-chunk outer,
 * heads inner, so each chunk's four table vectors stay in registers
 * across the heads. The same operations per element as span_half. */
static void rows_f32_resident_half(const pe__rope_rows *r, const float *tab) {
    const int64_t m = r->d / 2;
    const float *ch = tab, *cl = tab + m, *sh = tab + 2 * m, *sl = tab + 3 * m;
    const float *in = r->in;
    float *out = r->out;
    for (int64_t j = 0; j < m; j += 16) {
        const __m512 CH = _mm512_loadu_ps(ch + j), CL = _mm512_loadu_ps(cl + j);
        const __m512 SH = _mm512_loadu_ps(sh + j), SL = _mm512_loadu_ps(sl + j);
        for (int64_t h = 0; h < r->heads; h++) {
            const float *pi = in + h * r->in_head_stride + j;
            float *po = out + h * r->out_head_stride + j;
            const __m512 a = _mm512_loadu_ps(pi), b = _mm512_loadu_ps(pi + m);
            _mm512_storeu_ps(po, _mm512_fmadd_ps(a, CH, _mm512_fnmadd_ps(b, SH, _mm512_fmsub_ps(a, CL, _mm512_mul_ps(b, SL)))));
            _mm512_storeu_ps(po + m, _mm512_fmadd_ps(b, CH, _mm512_fmadd_ps(a, SH, _mm512_fmadd_ps(b, CL, _mm512_mul_ps(a, SL)))));
        }
    }
    if (r->in != r->out && r->head_dim > r->d)
        for (int64_t h = 0; h < r->heads; h++)
            memcpy(out + h * r->out_head_stride + r->d, in + h * r->in_head_stride + r->d,
                   sizeof(float) * (size_t)(r->head_dim - r->d));
}

static void rows_f32(const pe__rope_rows *r, const float *tab) { heads_loop(r, tab, PE_F32, 0); }
static void rows_f32_nt(const pe__rope_rows *r, const float *tab) { heads_loop(r, tab, PE_F32, 1); }
static void rows_f16(const pe__rope_rows *r, const float *tab) { heads_loop(r, tab, PE_F16, 0); }
static void rows_bf16(const pe__rope_rows *r, const float *tab) { heads_loop(r, tab, PE_BF16, 0); }

/* Non-temporal stores need every full-vector store 64-byte aligned: the
 * rows, the strides and (half-split) the offset of the b half. */
static int can_stream(const pe__rope_rows *r) {
    if (!r->stream || r->dtype != PE_F32) return 0;
    if (((uintptr_t)r->out & 63) != 0 || (r->heads > 1 && r->out_head_stride % 16 != 0))
        return 0;
    return r->layout == PE_ROPE_INTERLEAVED || (r->d / 2) % 16 == 0;
}

static void avx512_rope_token(const pe__rope_rows *r, const double *c,
                              const double *s, double magnitude, float *scratch) {
    build_tables(c, s, r->d / 2, magnitude, r->layout, scratch);
    if (r->dtype == PE_F16) {
        rows_f16(r, scratch);
    } else if (r->dtype == PE_BF16) {
        rows_bf16(r, scratch);
    } else if (can_stream(r)) {
        rows_f32_nt(r, scratch);
        _mm_sfence(); /* order the streamed stores before anything later */
    } else if (!r->prefetch && r->layout == PE_ROPE_HALF && (r->d / 2) % 16 == 0) {
        rows_f32_resident_half(r, scratch);
    } else {
        rows_f32(r, scratch);
    }
}

/* One f32 row from double cos/sin, in chunks of 64 pairs so the tables fit
 * on the stack; per element the same operations as rope_token. */
static void avx512_rotate_row_f32(const float *in, float *out, int64_t d,
                                  int64_t head_dim, pe_rope_layout layout,
                                  const double *c, const double *s,
                                  double magnitude) {
    enum { CHUNK = 64 };
    float tab[4 * 2 * CHUNK];
    const int64_t half = d / 2;
    for (int64_t i = 0; i < half; i += CHUNK) {
        const int64_t m = half - i < CHUNK ? half - i : CHUNK;
        build_tables(c + i, s + i, m, magnitude, layout, tab);
        if (layout == PE_ROPE_HALF)
            span_half(in + i, in + half + i, out + i, out + half + i, m, tab, PE_F32, 0);
        else
            span_inter(in + 2 * i, out + 2 * i, 2 * m, tab, PE_F32, 0);
    }
    if (out != in && head_dim > d) memcpy(out + d, in + d, sizeof(float) * (size_t)(head_dim - d));
}

static int avx512_freqs_ok(const double *w, const double *w_lo, int64_t n) {
    const __m512d big = _mm512_set1_pd(0x1.fffffffffffffp1023), zero = _mm512_setzero_pd();
    const __m512d eps = _mm512_set1_pd(0x1p-52);
    for (int64_t i = 0; i < n; i += 8) {
        const __mmask8 k = n - i >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (n - i)) - 1u);
        const __m512d W = _mm512_maskz_loadu_pd(k, w + i), L = _mm512_maskz_loadu_pd(k, w_lo + i);
        /* ordered comparisons: NaN fails each */
        __mmask8 good = _mm512_mask_cmp_pd_mask(k, W, zero, _CMP_GE_OQ);
        good = _mm512_mask_cmp_pd_mask(good, W, big, _CMP_LE_OQ);
        good = _mm512_mask_cmp_pd_mask(good, _mm512_abs_pd(L), _mm512_mul_pd(W, eps), _CMP_LE_OQ);
        if (good != k) return 0;
    }
    return 1;
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
    .rotate_row_f32 = avx512_rotate_row_f32,
    .rope_token = avx512_rope_token,
    .freqs_ok = avx512_freqs_ok,
    .scatter_add_f32 = avx512_scatter_add_f32,
};

#else
/* Not x86-64: this set does not exist (dispatch.c never names it). */
typedef int pe__avx512_unavailable;
#endif
