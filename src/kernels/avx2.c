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

ALWAYS_INLINE __m256 ld(const void *base, int64_t i, pe_dtype dt) {
    if (dt == PE_F32) return _mm256_loadu_ps((const float *)base + i);
    const __m128i h = _mm_loadu_si128((const __m128i *)((const uint16_t *)base + i));
    if (dt == PE_F16) return _mm256_cvtph_ps(h);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

/* float -> bf16 with round to nearest even; NaN stays a quiet NaN. */
ALWAYS_INLINE __m128i to_bf16(__m256 v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i hi = _mm256_srli_epi32(u, 16);
    const __m256i lsb = _mm256_and_si256(hi, _mm256_set1_epi32(1));
    __m256i r = _mm256_srli_epi32(
        _mm256_add_epi32(u, _mm256_add_epi32(_mm256_set1_epi32(0x7FFF), lsb)), 16);
    const __m256i qnan = _mm256_or_si256(hi, _mm256_set1_epi32(0x40));
    r = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(r), _mm256_castsi256_ps(qnan),
                                             _mm256_cmp_ps(v, v, _CMP_UNORD_Q)));
    return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}

/* 8 floats rounded to f16 or bf16 (nearest even). */
ALWAYS_INLINE __m128i narrow16(__m256 v, pe_dtype dt) {
    return dt == PE_F16 ? _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
                        : to_bf16(v);
}

ALWAYS_INLINE void st(void *base, int64_t i, __m256 v, pe_dtype dt, int nt) {
    if (dt == PE_F32) {
        if (nt) _mm256_stream_ps((float *)base + i, v);
        else _mm256_storeu_ps((float *)base + i, v);
        return;
    }
    _mm_storeu_si128((__m128i *)((uint16_t *)base + i), narrow16(v, dt));
}

/* 8 elements of storage type dt from base + i, or k < 8 of them (zero
 * padded) through a stack buffer: AVX2 has no masked 16-bit loads. */
ALWAYS_INLINE __m256 ld_part(const void *base, int64_t i, pe_dtype dt, int k) {
    if (k == 8) return ld(base, i, dt);
    const size_t esz = dt == PE_F32 ? 4 : 2;
    unsigned char b[32] = {0};
    memcpy(b, (const char *)base + (size_t)i * esz, (size_t)k * esz);
    return ld(b, 0, dt);
}

ALWAYS_INLINE void st_part(void *base, int64_t i, __m256 v, pe_dtype dt, int k, int nt) {
    if (k == 8) {
        st(base, i, v, dt, nt);
        return;
    }
    const size_t esz = dt == PE_F32 ? 4 : 2;
    unsigned char b[32];
    st(b, 0, v, dt, 0);
    memcpy((char *)base + (size_t)i * esz, b, (size_t)k * esz);
}

/*
 * The rows of one token in blocks of up to 8 table vectors (64 pairs
 * half-split, 32 interleaved) held in registers while every head streams
 * through (as in avx512.c, where the 4 KiB aliasing of table loads against
 * the rows' stores is explained); a block is q full vectors or (q = 1) a
 * tail of k < 8 lanes. 16 table vectors leave AVX2 few registers, but one
 * pass over each row measured faster than two (in place 0.97 instead of
 * 1.05 of x *= c, out of place 1.22 instead of 1.32 of a streaming copy). Half-split:
 * vector u covers pairs p = j + 8u, a at p and b at m + p, tables tab[p],
 * tab[m + p]; interleaved: elements e = j + 8u, tables tab[e], tab[2m + e].
 */
ALWAYS_INLINE void rows_block(const pe__rope_rows *r, const float *tab, int64_t j, int q, int k,
                              int half, pe_dtype dt, int nt, int prefetch) {
    const size_t esz = dt == PE_F32 ? 4 : 2;
    const int64_t m = r->d / 2, sh_at = half ? m : 2 * m, heads = r->heads;
    const size_t is = (size_t)r->in_head_stride * esz, os = (size_t)r->out_head_stride * esz;
    const size_t row_bytes = (size_t)r->head_dim * esz;
    const char *const in0 = r->in;
    char *const out0 = r->out;
    __m256 C[8], S[8];
#pragma GCC unroll 8
    for (int u = 0; u < q; u++) {
        if (k == 8) {
            C[u] = _mm256_loadu_ps(tab + j + 8 * u);
            S[u] = _mm256_loadu_ps(tab + sh_at + j + 8 * u);
        } else {
            float bc[8] = {0}, bs[8] = {0};
            memcpy(bc, tab + j, sizeof(float) * (size_t)k);
            memcpy(bs, tab + sh_at + j, sizeof(float) * (size_t)k);
            C[u] = _mm256_loadu_ps(bc);
            S[u] = _mm256_loadu_ps(bs);
        }
    }
    for (int64_t h = 0; h < heads; h++) {
        /* addresses of existing heads only: stepping past the last one by
         * a huge unused stride would overflow the pointer */
        const char *const in = in0 + (size_t)h * is;
        char *const out = out0 + (size_t)h * os;
        if (prefetch) /* the hardware prefetcher alone lags on in-place streams */
            for (size_t b = 0; b < row_bytes; b += 64)
                _mm_prefetch(in + PE__PREFETCH_BYTES + b, _MM_HINT_T0);
        if (half && q % 2 == 0 && dt == PE_F32) { /* two vectors per line: each line's stores together */
#pragma GCC unroll 4
            for (int u = 0; u < q; u += 2) {
                const int64_t e = j + 8 * u;
                const __m256 a0 = ld(in, e, dt), b0 = ld(in, m + e, dt);
                const __m256 a1 = ld(in, e + 8, dt), b1 = ld(in, m + e + 8, dt);
                st(out, e, _mm256_fmsub_ps(a0, C[u], _mm256_mul_ps(b0, S[u])), dt, nt);
                st(out, e + 8, _mm256_fmsub_ps(a1, C[u + 1], _mm256_mul_ps(b1, S[u + 1])), dt, nt);
                st(out, m + e, _mm256_fmadd_ps(b0, C[u], _mm256_mul_ps(a0, S[u])), dt, nt);
                st(out, m + e + 8, _mm256_fmadd_ps(b1, C[u + 1], _mm256_mul_ps(a1, S[u + 1])), dt, nt);
            }
            continue;
        }
#pragma GCC unroll 8
        for (int u = 0; u < q; u++) {
            const int64_t e = j + 8 * u;
            if (half) {
                const __m256 a = ld_part(in, e, dt, k), b = ld_part(in, m + e, dt, k);
                st_part(out, e, _mm256_fmsub_ps(a, C[u], _mm256_mul_ps(b, S[u])), dt, k, nt);
                st_part(out, m + e, _mm256_fmadd_ps(b, C[u], _mm256_mul_ps(a, S[u])), dt, k, nt);
            } else { /* swap within pairs */
                const __m256 x = ld_part(in, e, dt, k);
                const __m256 xs = _mm256_permute_ps(x, 0xB1);
                st_part(out, e, _mm256_fmadd_ps(x, C[u], _mm256_mul_ps(xs, S[u])), dt, k, nt);
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
    for (; j + 64 <= len; j += 64) rows_block(r, tab, j, 8, 8, half, dt, nt, pf && j == 0);
    for (; j + 32 <= len; j += 32) rows_block(r, tab, j, 4, 8, half, dt, nt, pf && j == 0);
    for (; j + 8 <= len; j += 8) rows_block(r, tab, j, 1, 8, half, dt, nt, pf && j == 0);
    if (j < len) rows_block(r, tab, j, 1, (int)(len - j), half, dt, 0, pf && j == 0);
}

static void rows_half_f32(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_F32, 0); }
static void rows_half_f32_nt(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_F32, 1); }
static void rows_half_f16(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_F16, 0); }
static void rows_half_bf16(const pe__rope_rows *r, const float *t) { rows(r, t, 1, PE_BF16, 0); }
static void rows_inter_f32(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_F32, 0); }
static void rows_inter_f32_nt(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_F32, 1); }
static void rows_inter_f16(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_F16, 0); }
static void rows_inter_bf16(const pe__rope_rows *r, const float *t) { rows(r, t, 0, PE_BF16, 0); }

/* Streaming stores need every full-vector store 32-byte aligned. */
static int can_stream(const pe__rope_rows *r) {
    if (!r->stream || r->dtype != PE_F32) return 0;
    if (((uintptr_t)r->out & 31) != 0 || (r->heads > 1 && r->out_head_stride % 8 != 0))
        return 0;
    return r->layout == PE_ROPE_INTERLEAVED || (r->d / 2) % 8 == 0;
}

static void avx2_rope_token(const pe__rope_rows *r, const pe__rope_trig *t) {
    const int half = r->layout == PE_ROPE_HALF;
    if (r->dtype == PE_F16) {
        (half ? rows_half_f16 : rows_inter_f16)(r, t->tab);
    } else if (r->dtype == PE_BF16) {
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

/* The fused epilogue's cache stores (internal.h narrow_f32): the same
 * conversions as the rotation's stores (st); the tail through the scalar
 * ones, which round identically. */
static void avx2_narrow_f32(const float *in, void *out, int64_t n, pe_dtype dt, int stream,
                            pe__side_prefetch *side) {
    /* non-temporal: whole vectors from an aligned start (32 bytes for f32
     * rows, 16 for 16-bit ones) */
    const int nt = stream && ((uintptr_t)out & (dt == PE_F32 ? 31 : 15)) == 0;
    uintptr_t pf = side ? side->pos : 0; /* a register while it runs */
    const uintptr_t pf_end = side ? side->end : 0, pf_stride = side ? side->stride : 0;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        if (side == NULL)
            _mm_prefetch((const char *)(in + i) + PE__PREFETCH_BYTES, _MM_HINT_T0);
        else if (i % 16 == 0)
            pe__side_step(&pf, pf_end, pf_stride);
        const __m256 v = _mm256_loadu_ps(in + i);
        if (nt && dt != PE_F32)
            _mm_stream_si128((__m128i *)((uint16_t *)out + i), narrow16(v, dt));
        else
            st(out, i, v, dt, nt);
    }
    if (side) side->pos = pf;
    if (i < n)
        pe__narrow_f32(in + i, (char *)out + (size_t)i * pe__dtype_size(dt), n - i, dt, 0, side);
}

/* The fused epilogue's RMSNorm (kernels/scalar.c defines it): partial sums
 * 0-3 and 4-7 in the lanes of two registers, a partial block zero-padded
 * (zeros add +0 exactly), no FMA: each head's result is pe__rms_norm's bit
 * for bit. g heads at once (g a constant after inlining). */
ALWAYS_INLINE void norm_group(const float *x, int64_t xs, int64_t n, const float *w,
                              int one_plus, double eps, float *y, pe__side_prefetch *side,
                              const int g) {
    __m256d lo[4], hi[4];
    uintptr_t pf = side ? side->pos : 0; /* a register while it runs */
    const uintptr_t pf_end = side ? side->end : 0, pf_stride = side ? side->stride : 0;
    for (int k = 0; k < g; k++) lo[k] = hi[k] = _mm256_setzero_pd();
    for (int64_t i = 0; i < n; i += 8) {
        for (int k = 0; k < g; k++) {
            float b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            const float *p = x + k * xs + i;
            if (side == NULL)
                _mm_prefetch((const char *)p + PE__PREFETCH_BYTES, _MM_HINT_T0);
            else if (i % 16 == 0)
                pe__side_step(&pf, pf_end, pf_stride);
            if (n - i < 8) memcpy(b, p, (size_t)(n - i) * sizeof(float)), p = b;
            const __m256 v = _mm256_loadu_ps(p);
            const __m256d a = _mm256_cvtps_pd(_mm256_castps256_ps128(v));
            const __m256d c = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
            lo[k] = _mm256_add_pd(lo[k], _mm256_mul_pd(a, a));
            hi[k] = _mm256_add_pd(hi[k], _mm256_mul_pd(c, c));
        }
    }
    float r[4];
    for (int k = 0; k < g; k++) {
        double s[8];
        _mm256_storeu_pd(s, lo[k]);
        _mm256_storeu_pd(s + 4, hi[k]);
        r[k] = pe__rms_norm_inv(s, n, eps);
    }
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) { /* the scaling in float32, 8 lanes */
        __m256 wv = _mm256_loadu_ps(w + i);
        if (one_plus) wv = _mm256_add_ps(_mm256_set1_ps(1.0f), wv);
        for (int k = 0; k < g; k++) {
            if (i % 16 == 0) pe__side_step(&pf, pf_end, pf_stride);
            _mm256_storeu_ps(y + k * n + i,
                             _mm256_mul_ps(_mm256_mul_ps(_mm256_loadu_ps(x + k * xs + i),
                                                         _mm256_set1_ps(r[k])),
                                           wv));
        }
    }
    if (side) side->pos = pf;
    for (; i < n; i++)
        for (int k = 0; k < g; k++)
            y[k * n + i] = (x[k * xs + i] * r[k]) * (one_plus ? 1.0f + w[i] : w[i]);
}

static void avx2_rms_norm(const float *x, int64_t heads, int64_t xs, int64_t n, const float *w,
                          int one_plus, double eps, float *y, pe__side_prefetch *side) {
    int64_t h = 0;
    for (; h + 4 <= heads; h += 4)
        norm_group(x + h * xs, xs, n, w, one_plus, eps, y + h * n, side, 4);
    for (; h < heads; h++) norm_group(x + h * xs, xs, n, w, one_plus, eps, y + h * n, side, 1);
}

const pe_kernel_table pe__kernels_avx2 = {
    .name = "avx2",
    .cos_sin = avx2_cos_sin,
    .cos_sin_f32 = avx2_cos_sin_f32,
    .steps = 1,
    .rope_tables = avx2_rope_tables,
    .rope_prepare_cs = avx2_rope_prepare_cs,
    .rope_prepare_cs_f32 = avx2_rope_prepare_cs_f32,
    .rope_token = avx2_rope_token,
    .freqs_ok = avx2_freqs_ok,
    .alibi_row = avx2_alibi_row,
    .scatter_add_f32 = avx2_scatter_add_f32,
    .narrow_f32 = avx2_narrow_f32,
    .rms_norm = avx2_rms_norm,
};

#else
/* Not x86-64: this set does not exist (dispatch.c never names it). */
typedef int pe__avx2_unavailable;
#endif
