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

/* The same with AVX512_BF16's vcvtneps2bf16 (one instruction instead of
 * eight): it rounds to nearest even and quiets NaNs exactly as to_bf16, but
 * treats denormal inputs as zero, so lanes holding a denormal (vfpclassps
 * category 0x20; rare) take to_bf16. Inline assembly: the rest of the file
 * is compiled without -mavx512bf16, and the instruction runs only where
 * the CPU reports it (has_bf16). */
ALWAYS_INLINE __m256i to_bf16_hw(__m512 v) {
    __m256i h;
    __asm__("vcvtneps2bf16 %1, %0" : "=v"(h) : "v"(v));
    const __mmask16 dn = _mm512_fpclass_ps_mask(v, 0x20);
    if (__builtin_expect(dn != 0, 0)) h = _mm256_mask_mov_epi16(h, dn, to_bf16(v));
    return h;
}

/* 32 bf16 from two vectors (v0 low, v1 high) with one vcvtne2ps2bf16 and
 * one 64-byte store: half the conversions and stores of two to_bf16_hw. */
ALWAYS_INLINE void st2_bf16_hw(void *base, int64_t i, __m512 v0, __m512 v1) {
    __m512i h;
    __asm__("vcvtne2ps2bf16 %2, %1, %0" : "=v"(h) : "v"(v1), "v"(v0));
    const __mmask32 dn = (__mmask32)_mm512_fpclass_ps_mask(v0, 0x20) |
                         ((__mmask32)_mm512_fpclass_ps_mask(v1, 0x20) << 16);
    if (__builtin_expect(dn != 0, 0))
        h = _mm512_mask_mov_epi16(
            h, dn, _mm512_inserti64x4(_mm512_castsi256_si512(to_bf16(v0)), to_bf16(v1), 1));
    _mm512_storeu_si512((uint16_t *)base + i, h);
}

/* Store kinds: plain, non-temporal (f32), bf16 through AVX512_BF16. */
enum { ST_PLAIN = 0, ST_STREAM = 1, ST_BF16_HW = 2 };

/* 16 floats rounded to f16 or bf16 (nearest even; bf16 by the CPU's own
 * conversion when nt is ST_BF16_HW). */
ALWAYS_INLINE __m256i narrow16(__m512 v, pe_dtype dt, int nt) {
    return dt == PE_F16 ? _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
                        : nt == ST_BF16_HW ? to_bf16_hw(v) : to_bf16(v);
}

ALWAYS_INLINE void st(void *base, int64_t i, __m512 v, pe_dtype dt, __mmask16 m,
                      int full, int nt) {
    if (dt == PE_F32) {
        float *p = (float *)base + i;
        if (!full)
            _mm512_mask_storeu_ps(p, m, v);
        else if (nt == ST_STREAM)
            _mm512_stream_ps(p, v);
        else
            _mm512_storeu_ps(p, v);
        return;
    }
    const __m256i h = narrow16(v, dt, nt);
    uint16_t *p = (uint16_t *)base + i;
    if (full)
        _mm256_storeu_si256((__m256i *)p, h);
    else
        _mm256_mask_storeu_epi16(p, m, h);
}

/*
 * The rows of one token, in blocks of up to 4 table vectors (64 pairs
 * half-split, 32 interleaved) held in registers while every head streams
 * through: the loop does only the rows' own loads and stores. Loading the
 * tables inside the loop instead cost up to 3x on cache-resident rows:
 * table loads 4 KiB apart from pending stores to the rows wait for them
 * (4K aliasing). A block is q full vectors, or (q = 1) one masked tail.
 *
 * Half-split: vector u covers pairs p = j + 16u of every head, a at p and
 * b at m + p; tables ch = tab[p], sh = tab[m + p]. Interleaved: vector u
 * covers elements e = j + 16u of the span, tables CH = tab[e], SH =
 * tab[2m + e].
 */
ALWAYS_INLINE void rows_block(const pe__rope_rows *r, const float *tab, int64_t j, int q,
                              int full, __mmask16 k, int half, pe_dtype dt, int nt,
                              int prefetch) {
    /* locals: vector stores may alias *r, which would force reloads */
    const size_t esz = dt == PE_F32 ? 4 : 2;
    const int64_t m = r->d / 2, sh_at = half ? m : 2 * m, heads = r->heads;
    const size_t is = (size_t)r->in_head_stride * esz, os = (size_t)r->out_head_stride * esz;
    const char *const in0 = r->in;
    char *const out0 = r->out;
    __m512 C[4], S[4];
#pragma GCC unroll 4
    for (int u = 0; u < q; u++) {
        C[u] = full ? _mm512_loadu_ps(tab + j + 16 * u) : _mm512_maskz_loadu_ps(k, tab + j);
        S[u] = full ? _mm512_loadu_ps(tab + sh_at + j + 16 * u)
                    : _mm512_maskz_loadu_ps(k, tab + sh_at + j);
    }
    for (int64_t h = 0; h < heads; h++) {
        /* addresses of existing heads only: stepping past the last one by
         * a huge unused stride would overflow the pointer */
        const char *const in = in0 + (size_t)h * is;
        char *const out = out0 + (size_t)h * os;
        if (dt == PE_BF16 && nt == ST_BF16_HW && full && q % 2 == 0) {
            /* two vectors per conversion and store; every load of a pair
             * comes before its stores, so in place stays in place */
#pragma GCC unroll 2
            for (int u = 0; u < q; u += 2) {
                const int64_t e = j + 16 * u;
                if (prefetch) {
                    _mm_prefetch(in + PE__PREFETCH_BYTES + (size_t)e * esz, _MM_HINT_T0);
                    if (half)
                        _mm_prefetch(in + PE__PREFETCH_BYTES + (size_t)(m + e) * esz,
                                     _MM_HINT_T0);
                }
                if (half) {
                    const __m512 a0 = ld(in, e, dt, k, 1), b0 = ld(in, m + e, dt, k, 1);
                    const __m512 a1 = ld(in, e + 16, dt, k, 1), b1 = ld(in, m + e + 16, dt, k, 1);
                    st2_bf16_hw(out, e, _mm512_fmsub_ps(a0, C[u], _mm512_mul_ps(b0, S[u])),
                                _mm512_fmsub_ps(a1, C[u + 1], _mm512_mul_ps(b1, S[u + 1])));
                    st2_bf16_hw(out, m + e, _mm512_fmadd_ps(b0, C[u], _mm512_mul_ps(a0, S[u])),
                                _mm512_fmadd_ps(b1, C[u + 1], _mm512_mul_ps(a1, S[u + 1])));
                } else {
                    const __m512 x0 = ld(in, e, dt, k, 1), x1 = ld(in, e + 16, dt, k, 1);
                    const __m512 s0 = _mm512_permute_ps(x0, 0xB1), s1 = _mm512_permute_ps(x1, 0xB1);
                    st2_bf16_hw(out, e, _mm512_fmadd_ps(x0, C[u], _mm512_mul_ps(s0, S[u])),
                                _mm512_fmadd_ps(x1, C[u + 1], _mm512_mul_ps(s1, S[u + 1])));
                }
            }
            continue;
        }
        if (half && full) {
            /* all of a, then all of b, stores in address order: one
             * sequential stream per row like a plain copy, not a and b
             * alternating 256 bytes apart (~5% on L3-resident rows,
             * rope_inplace_512) */
            __m512 A[4], B[4];
#pragma GCC unroll 4
            for (int u = 0; u < q; u++) {
                const int64_t e = j + 16 * u;
                if (prefetch && (esz == 4 || u % 2 == 0))
                    _mm_prefetch(in + PE__PREFETCH_BYTES + (size_t)e * esz, _MM_HINT_T0);
                A[u] = ld(in, e, dt, k, 1);
            }
#pragma GCC unroll 4
            for (int u = 0; u < q; u++) {
                const int64_t e = j + 16 * u;
                if (prefetch && (esz == 4 || u % 2 == 0))
                    _mm_prefetch(in + PE__PREFETCH_BYTES + (size_t)(m + e) * esz, _MM_HINT_T0);
                B[u] = ld(in, m + e, dt, k, 1);
            }
#pragma GCC unroll 4
            for (int u = 0; u < q; u++)
                st(out, j + 16 * u, _mm512_fmsub_ps(A[u], C[u], _mm512_mul_ps(B[u], S[u])), dt, k, 1, nt);
#pragma GCC unroll 4
            for (int u = 0; u < q; u++)
                st(out, m + j + 16 * u, _mm512_fmadd_ps(B[u], C[u], _mm512_mul_ps(A[u], S[u])), dt, k, 1, nt);
            continue;
        }
#pragma GCC unroll 4
        for (int u = 0; u < q; u++) {
            const int64_t e = j + 16 * u;
            /* the hardware prefetcher alone lags on in-place streams: one
             * prefetch per 64-byte line the loads below read (16-bit
             * vectors are 32 bytes: every other one), no loop of its own —
             * a per-row prefetch loop cost more than it saved on rows
             * resident in L2/L3 (rope_inplace_512) */
            if (prefetch && (esz == 4 || u % 2 == 0)) {
                _mm_prefetch(in + PE__PREFETCH_BYTES + (size_t)e * esz, _MM_HINT_T0);
                if (half)
                    _mm_prefetch(in + PE__PREFETCH_BYTES + (size_t)(m + e) * esz, _MM_HINT_T0);
            }
            if (half) {
                const __m512 a = ld(in, e, dt, k, full), b = ld(in, m + e, dt, k, full);
                st(out, e, _mm512_fmsub_ps(a, C[u], _mm512_mul_ps(b, S[u])), dt, k, full, nt);
                st(out, m + e, _mm512_fmadd_ps(b, C[u], _mm512_mul_ps(a, S[u])), dt, k, full, nt);
            } else { /* the pair swap stays in 128-bit lanes: no pair is split */
                const __m512 x = ld(in, e, dt, k, full);
                const __m512 xs = _mm512_permute_ps(x, 0xB1);
                st(out, e, _mm512_fmadd_ps(x, C[u], _mm512_mul_ps(xs, S[u])), dt, k, full, nt);
            }
        }
    }
}

/* Every head of one token, one layout, storage type and store kind. */
ALWAYS_INLINE void rows(const pe__rope_rows *r, const float *tab, int half, pe_dtype dt,
                        int nt) {
    const int64_t len = half ? r->d / 2 : r->d; /* elements per span part */
    const int pf = r->prefetch;
    int64_t j = 0;
    for (; j + 64 <= len; j += 64)
        rows_block(r, tab, j, 4, 1, (__mmask16)0xFFFF, half, dt, nt, pf);
    for (; j + 16 <= len; j += 16)
        rows_block(r, tab, j, 1, 1, (__mmask16)0xFFFF, half, dt, nt, pf);
    if (j < len)
        rows_block(r, tab, j, 1, 0, (__mmask16)((1u << (len - j)) - 1u), half, dt,
                   nt == ST_STREAM ? ST_PLAIN : nt, pf);
}

static void rows_half_f32(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_F32, 0); }
static void rows_half_f32_nt(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_F32, 1); }
static void rows_half_f16(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_F16, 0); }
static void rows_half_bf16(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_BF16, 0); }
static void rows_half_bf16_hw(const pe__rope_rows *r, const float *t) {
    rows(r, t, 1, PE_BF16, ST_BF16_HW);
}
static void rows_inter_f32(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_F32, 0); }
static void rows_inter_f32_nt(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_F32, 1); }
static void rows_inter_f16(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_F16, 0); }
static void rows_inter_bf16(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_BF16, 0); }
static void rows_inter_bf16_hw(const pe__rope_rows *r, const float *t) {
    rows(r, t, 0, PE_BF16, ST_BF16_HW);
}

/* AVX512_BF16 (Zen 4, Cooper Lake, Sapphire Rapids): libgcc's CPU model,
 * read once at start, so the test costs a load per token. */
static int has_bf16(void) { return __builtin_cpu_supports("avx512bf16"); }

/* Non-temporal stores need every full-vector store 64-byte aligned: the
 * rows, the strides and (half-split) the offset of the b half. */
static int can_stream(const pe__rope_rows *r) {
    if (!r->stream || r->dtype != PE_F32) return 0;
    if (((uintptr_t)r->out & 63) != 0 || (r->heads > 1 && r->out_head_stride % 16 != 0))
        return 0;
    return r->layout == PE_ROPE_INTERLEAVED || (r->d / 2) % 16 == 0;
}

static void avx512_rope_token(const pe__rope_rows *r, const pe__rope_trig *t) {
    const int half = r->layout == PE_ROPE_HALF;
    if (r->dtype == PE_F16) {
        (half ? rows_half_f16 : rows_inter_f16)(r, t->tab);
    } else if (r->dtype == PE_BF16) {
        if (has_bf16())
            (half ? rows_half_bf16_hw : rows_inter_bf16_hw)(r, t->tab);
        else
            (half ? rows_half_bf16 : rows_inter_bf16)(r, t->tab);
    } else if (can_stream(r)) {
        (half ? rows_half_f32_nt : rows_inter_f32_nt)(r, t->tab);
        /* no sfence here: the chunk's end orders the streamed stores
         * (pe__parallel_chunks); one per token cost ~20% of a streaming
         * rotation (each waits for the token's 16 KiB to drain) */
    } else {
        (half ? rows_half_f32 : rows_inter_f32)(r, t->tab);
    }
}

static int avx512_freqs_ok(const double *w, const double *w_lo, int64_t n) {
    const __m512d big = _mm512_set1_pd(PE_MAX_INV_FREQ), zero = _mm512_setzero_pd();
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

/* The fused epilogue's cache stores (internal.h narrow_f32): the same
 * conversions as the rotation's stores (st); the input (a v row straight
 * from a large projection buffer) prefetched ahead as the rotation does. */
static void avx512_narrow_f32(const float *in, void *out, int64_t n, pe_dtype dt, int stream,
                              pe__side_prefetch *side) {
    /* non-temporal: whole vectors from an aligned start (64 bytes for f32
     * rows, 32 for 16-bit ones), converted as st converts */
    const int nt = stream && ((uintptr_t)out & (dt == PE_F32 ? 63 : 31)) == 0;
    uintptr_t pf = side ? side->pos : 0; /* a register while it runs */
    const uintptr_t pf_end = side ? side->end : 0, pf_stride = side ? side->stride : 0;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        if (side)
            pe__side_step(&pf, pf_end, pf_stride);
        else
            _mm_prefetch((const char *)(in + i) + PE__PREFETCH_BYTES, _MM_HINT_T0);
        const __m512 v = _mm512_loadu_ps(in + i);
        if (nt && dt != PE_F32)
            _mm256_stream_si256((__m256i *)((uint16_t *)out + i), narrow16(v, dt, ST_PLAIN));
        else
            st(out, i, v, dt, (__mmask16)0xFFFF, 1, nt ? ST_STREAM : ST_PLAIN);
    }
    if (side) side->pos = pf;
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        st(out, i, _mm512_maskz_loadu_ps(m, in + i), dt, m, 0, 0);
    }
}

/* The fused epilogue's RMSNorm (kernels/scalar.c defines it), bit for bit:
 * lane l of a head's accumulator is partial sum l; x_i^2 is exact in
 * double, so fma(x, x, s) is the separately rounded s + x*x of the
 * definition; a partial block is loaded masked (zeros add +0 exactly). */
ALWAYS_INLINE __m512d sq_acc(__m512d acc, const float *p, __mmask8 m, int own_prefetch) {
    if (own_prefetch) _mm_prefetch((const char *)p + PE__PREFETCH_BYTES, _MM_HINT_T0);
    const __m512d v = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, p));
    return _mm512_fmadd_pd(v, v, acc);
}

/* Two blocks of 8 in index order (lane l: x_{i+l}, then x_{i+8+l}). */
ALWAYS_INLINE __m512d sq_acc16(__m512d acc, const float *p, int own_prefetch) {
    if (own_prefetch) _mm_prefetch((const char *)p + PE__PREFETCH_BYTES, _MM_HINT_T0);
    const __m512 v = _mm512_loadu_ps(p);
    const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
    const __m512d hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
    return _mm512_fmadd_pd(hi, hi, _mm512_fmadd_pd(lo, lo, acc));
}

/* The tree ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)) of a's lanes, in every lane
 * (each step adds a lane to its neighbour: the same sum both ways round). */
ALWAYS_INLINE __m512d tree8(__m512d a) {
    a = _mm512_add_pd(a, _mm512_permute_pd(a, 0x55));                    /* s0+s1, s2+s3, ... */
    a = _mm512_add_pd(a, _mm512_permutex_pd(a, _MM_SHUFFLE(1, 0, 3, 2))); /* (..)+(..) per 256 */
    return _mm512_add_pd(a, _mm512_shuffle_f64x2(a, a, _MM_SHUFFLE(1, 0, 3, 2)));
}

/* The sums of g = 1 or 4 heads (a constant after inlining: accumulators
 * in registers, four independent chains of FMAs in flight), each head's
 * tree total into sums[k]; a side stream stepped per 16 floats, or else
 * the rows prefetched ahead. */
ALWAYS_INLINE void norm_sums(const float *x, int64_t xs, int64_t n, double *sums,
                             uintptr_t *side_pos, uintptr_t side_end, uintptr_t side_stride,
                             const int g) {
    __m512d a0 = _mm512_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
    const int pf = side_stride == 0; /* no side stream: prefetch ahead */
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) { /* a line per head: elements i..i+7, then i+8..i+15 */
        for (int k = 0; k < g; k++) pe__side_step(side_pos, side_end, side_stride);
        a0 = sq_acc16(a0, x + i, pf);
        if (g == 4) {
            a1 = sq_acc16(a1, x + xs + i, pf);
            a2 = sq_acc16(a2, x + 2 * xs + i, pf);
            a3 = sq_acc16(a3, x + 3 * xs + i, pf);
        }
    }
    for (; i < n; i += 8) {
        const __mmask8 m = n - i >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (n - i)) - 1u);
        for (int k = 0; k < g; k++) pe__side_step(side_pos, side_end, side_stride);
        a0 = sq_acc(a0, x + i, m, pf);
        if (g == 4) {
            a1 = sq_acc(a1, x + xs + i, m, pf);
            a2 = sq_acc(a2, x + 2 * xs + i, m, pf);
            a3 = sq_acc(a3, x + 3 * xs + i, m, pf);
        }
    }
    sums[0] = _mm512_cvtsd_f64(tree8(a0));
    if (g == 4) {
        sums[1] = _mm512_cvtsd_f64(tree8(a1));
        sums[2] = _mm512_cvtsd_f64(tree8(a2));
        sums[3] = _mm512_cvtsd_f64(tree8(a3));
    }
}

/* Three passes over a block of heads: every head's sum (the next heads'
 * loads never wait on a division), r = fl32(1 / sqrt(sum / n + eps)) of
 * eight heads per vector (pe__rms_norm_inv's steps), then the scaling in
 * float32 from rows the first pass brought into L1 (16 lanes of every head
 * in turn, the weights loaded once per 16). */
static void avx512_rms_norm(const float *x, int64_t heads, int64_t xs, int64_t n,
                            const float *w, int one_plus, double eps, float *y,
                            pe__side_prefetch *side) {
    enum { BLOCK = 64 };
    double sums[BLOCK];
    float r[BLOCK];
    const __m512d vn = _mm512_set1_pd((double)n);
    uintptr_t pf = side ? side->pos : 0; /* a register while it runs */
    const uintptr_t pf_end = side ? side->end : 0, pf_stride = side ? side->stride : 0;
    for (int64_t h0 = 0; h0 < heads; h0 += BLOCK) {
        const int64_t nb = heads - h0 < BLOCK ? heads - h0 : BLOCK;
        const float *xb = x + h0 * xs;
        float *yb = y + h0 * n;
        int64_t h = 0;
        for (; h + 4 <= nb; h += 4) norm_sums(xb + h * xs, xs, n, sums + h, &pf, pf_end, pf_stride, 4);
        for (; h < nb; h++) norm_sums(xb + h * xs, xs, n, sums + h, &pf, pf_end, pf_stride, 1);
        for (h = 0; h < nb; h += 8) {
            const __mmask8 m = nb - h >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (nb - h)) - 1u);
            const __m512d t = _mm512_maskz_loadu_pd(m, sums + h);
            const __m512d q = _mm512_add_pd(_mm512_div_pd(t, vn), _mm512_set1_pd(eps));
            _mm256_mask_storeu_ps(r + h, m,
                                  _mm512_cvtpd_ps(_mm512_div_pd(_mm512_set1_pd(1.0), _mm512_sqrt_pd(q))));
        }
        for (int64_t i = 0; i < n; i += 16) {
            const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
            __m512 wv = _mm512_maskz_loadu_ps(m, w + i);
            if (one_plus) wv = _mm512_add_ps(_mm512_set1_ps(1.0f), wv);
            for (h = 0; h < nb; h++) {
                pe__side_step(&pf, pf_end, pf_stride);
                _mm512_mask_storeu_ps(yb + h * n + i, m,
                                      _mm512_mul_ps(_mm512_mul_ps(_mm512_maskz_loadu_ps(m, xb + h * xs + i),
                                                                  _mm512_set1_ps(r[h])),
                                                    wv));
            }
        }
    }
    if (side) side->pos = pf;
}

const pe_kernel_table pe__kernels_avx512 = {
    .name = "avx512",
    .cos_sin = avx512_cos_sin,
    .cos_sin_f32 = avx512_cos_sin_f32,
    .steps = 1,
    .rope_tables = avx512_rope_tables,
    .rope_prepare_cs = avx512_rope_prepare_cs,
    .rope_prepare_cs_f32 = avx512_rope_prepare_cs_f32,
    .rope_token = avx512_rope_token,
    .freqs_ok = avx512_freqs_ok,
    .alibi_row = avx512_alibi_row,
    .scatter_add_f32 = avx512_scatter_add_f32,
    .narrow_f32 = avx512_narrow_f32,
    .rms_norm = avx512_rms_norm,
};

#else
/* Not x86-64: this set does not exist (dispatch.c never names it). */
typedef int pe__avx512_unavailable;
#endif
