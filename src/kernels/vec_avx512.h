/*
 * vec_avx512.h — the AVX-512 layer of the kernels' vector abstraction
 * (vec_sincos.h writes the algorithms once over it, SLEEF-style): pe_vd is
 * 8 doubles; each operation is one IEEE operation per lane (FMA forms
 * round once), so every layer gives the same bits lane for lane.
 * Included only by avx512.c (compiled with the AVX-512 flags).
 */
#ifndef PE_KERNELS_VEC_AVX512_H
#define PE_KERNELS_VEC_AVX512_H

#include "kernels.h"
#include "vecmath.h"

#include <immintrin.h>

#define PE_VEC_INLINE static inline __attribute__((always_inline))

typedef __m512d pe_vd;
#define PE_VD_LANES 8

PE_VEC_INLINE pe_vd pe_vd_set1(double x) { return _mm512_set1_pd(x); }
PE_VEC_INLINE pe_vd pe_vd_add(pe_vd a, pe_vd b) { return _mm512_add_pd(a, b); }
PE_VEC_INLINE pe_vd pe_vd_sub(pe_vd a, pe_vd b) { return _mm512_sub_pd(a, b); }
PE_VEC_INLINE pe_vd pe_vd_mul(pe_vd a, pe_vd b) { return _mm512_mul_pd(a, b); }
/* a b + c, a b - c, c - a b: each the exact value rounded once */
PE_VEC_INLINE pe_vd pe_vd_fmadd(pe_vd a, pe_vd b, pe_vd c) { return _mm512_fmadd_pd(a, b, c); }
PE_VEC_INLINE pe_vd pe_vd_fmsub(pe_vd a, pe_vd b, pe_vd c) { return _mm512_fmsub_pd(a, b, c); }
PE_VEC_INLINE pe_vd pe_vd_fnmadd(pe_vd a, pe_vd b, pe_vd c) { return _mm512_fnmadd_pd(a, b, c); }

/* Lane bitmask (bit l = lane l) of lanes with |x| >= PE_VM_LIMIT or NaN. */
PE_VEC_INLINE unsigned pe_vd_beyond_limit(pe_vd x) {
    return _mm512_cmp_pd_mask(_mm512_abs_pd(x), _mm512_set1_pd(PE_VM_LIMIT), _CMP_NLT_UQ);
}

/* sin and cos from those of the reduced angle: quadrant k mod 4 in the low
 * bits of kd (the rounding sum); odd quadrants swap, signs from bit 1 of k
 * (sin) and of k + 1 (cos). */
PE_VEC_INLINE void pe_vd_quadrant(pe_vd kd, pe_vd sr, pe_vd cr, pe_vd *sn, pe_vd *cs) {
    const __m512i q = _mm512_castpd_si512(kd);
    const __mmask8 swap = _mm512_test_epi64_mask(q, _mm512_set1_epi64(1));
    const __m512i two = _mm512_set1_epi64(2);
    const __m512i sflip = _mm512_slli_epi64(_mm512_and_si512(q, two), 62);
    const __m512i cflip = _mm512_slli_epi64(
        _mm512_and_si512(_mm512_add_epi64(q, _mm512_set1_epi64(1)), two), 62);
    *sn = _mm512_xor_pd(_mm512_mask_blend_pd(swap, sr, cr), _mm512_castsi512_pd(sflip));
    *cs = _mm512_xor_pd(_mm512_mask_blend_pd(swap, cr, sr), _mm512_castsi512_pd(cflip));
}

/* ---- floats: the rotation rows, 16-bit storage, narrowing, the norm
 * (vec_rows.h writes them once over these). pe_vf is 16 floats; a
 * "part" is the first k < 16 lanes (masked: AVX-512 loads and stores any
 * lane subset, zeros past k). */
typedef __m512 pe_vf;
#define PE_VF_LANES 16
/* Table vectors per layout part held in registers by a block of rows:
 * 8 + 8 of the 32 registers, so a 128-element interleaved row (or 128
 * half-split pairs) is one pass over every head. */
#define PE_ROWS_MAX_Q 8
/* Half-split: vectors of a, then of b, loaded per group before any store
 * (one sequential stream per row, like a copy). */
#define PE_ROWS_GROUP 4
/* Streaming stores exist (f32 rows and narrowing's stores). */
#define PE_VF_CAN_STREAM 1
/* AVX512_BF16 conversions where the CPU has them (pe_vf_bf16_hw). */
#define PE_VF_HAS_BF16_HW 1

PE_VEC_INLINE __mmask16 pe_vf_mask_(int k) { return (__mmask16)((1u << k) - 1u); }

PE_VEC_INLINE pe_vf pe_vf_set1(float x) { return _mm512_set1_ps(x); }
PE_VEC_INLINE pe_vf pe_vf_add(pe_vf a, pe_vf b) { return _mm512_add_ps(a, b); }
PE_VEC_INLINE pe_vf pe_vf_mul(pe_vf a, pe_vf b) { return _mm512_mul_ps(a, b); }
/* a b + c and a b - c, each rounded once */
PE_VEC_INLINE pe_vf pe_vf_fmadd(pe_vf a, pe_vf b, pe_vf c) { return _mm512_fmadd_ps(a, b, c); }
PE_VEC_INLINE pe_vf pe_vf_fmsub(pe_vf a, pe_vf b, pe_vf c) { return _mm512_fmsub_ps(a, b, c); }
/* lanes 2i and 2i + 1 exchanged (within 128-bit lanes: no pair split) */
PE_VEC_INLINE pe_vf pe_vf_swap_pairs(pe_vf x) { return _mm512_permute_ps(x, 0xB1); }
PE_VEC_INLINE pe_vf pe_vf_loadu(const float *p) { return _mm512_loadu_ps(p); }
PE_VEC_INLINE pe_vf pe_vf_load_part(const float *p, int k) {
    return _mm512_maskz_loadu_ps(pe_vf_mask_(k), p);
}
PE_VEC_INLINE void pe_vf_storeu(float *p, pe_vf v) { _mm512_storeu_ps(p, v); }
PE_VEC_INLINE void pe_vf_store_part(float *p, pe_vf v, int k) {
    _mm512_mask_storeu_ps(p, pe_vf_mask_(k), v);
}

/* Elements of storage type dt (f32, f16, bf16) at base + i as floats
 * (widening is exact); _part: k lanes, zeros past them. */
PE_VEC_INLINE pe_vf pe_vf_ld(const void *base, int64_t i, pe_dtype dt) {
    if (dt == PE_F32) return _mm512_loadu_ps((const float *)base + i);
    const __m256i h = _mm256_loadu_si256((const __m256i *)((const uint16_t *)base + i));
    if (dt == PE_F16) return _mm512_cvtph_ps(h);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
PE_VEC_INLINE pe_vf pe_vf_ld_part(const void *base, int64_t i, pe_dtype dt, int k) {
    if (dt == PE_F32) return _mm512_maskz_loadu_ps(pe_vf_mask_(k), (const float *)base + i);
    const __m256i h = _mm256_maskz_loadu_epi16(pe_vf_mask_(k), (const uint16_t *)base + i);
    if (dt == PE_F16) return _mm512_cvtph_ps(h);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

/* float -> bf16 with round to nearest even; NaN stays a quiet NaN. */
PE_VEC_INLINE __m256i pe_vf_to_bf16_(__m512 v) {
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
 * eight): it rounds to nearest even and quiets NaNs exactly as
 * pe_vf_to_bf16_, but treats denormal inputs as zero, so lanes holding a
 * denormal (vfpclassps category 0x20; rare) take pe_vf_to_bf16_. Inline
 * assembly: avx512.c is compiled without -mavx512bf16, and the
 * instruction runs only where the CPU reports it (pe_vf_bf16_hw). */
PE_VEC_INLINE __m256i pe_vf_to_bf16_hw_(__m512 v) {
    __m256i h;
    __asm__("vcvtneps2bf16 %1, %0" : "=v"(h) : "v"(v));
    const __mmask16 dn = _mm512_fpclass_ps_mask(v, 0x20);
    if (__builtin_expect(dn != 0, 0)) h = _mm256_mask_mov_epi16(h, dn, pe_vf_to_bf16_(v));
    return h;
}

/* AVX512_BF16 (Zen 4, Cooper Lake, Sapphire Rapids): libgcc's CPU model,
 * read once at start, so the test costs a load per token. */
PE_VEC_INLINE int pe_vf_bf16_hw(void) { return __builtin_cpu_supports("avx512bf16"); }

/* Store kinds: plain, non-temporal, bf16 through AVX512_BF16. */
enum { PE_ST_PLAIN = 0, PE_ST_STREAM = 1, PE_ST_BF16_HW = 2 };

/* 16 floats rounded to f16 or bf16 (nearest even). */
PE_VEC_INLINE __m256i pe_vf_narrow16_(pe_vf v, pe_dtype dt, int kind) {
    return dt == PE_F16 ? _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
           : kind == PE_ST_BF16_HW ? pe_vf_to_bf16_hw_(v)
                                   : pe_vf_to_bf16_(v);
}

/* 16 floats stored as dt at base + i; PE_ST_STREAM needs base + i aligned
 * to a whole vector of dt (64 bytes f32, 32 bytes f16/bf16). */
PE_VEC_INLINE void pe_vf_st(void *base, int64_t i, pe_vf v, pe_dtype dt, int kind) {
    if (dt == PE_F32) {
        if (kind == PE_ST_STREAM) _mm512_stream_ps((float *)base + i, v);
        else _mm512_storeu_ps((float *)base + i, v);
        return;
    }
    __m256i *const p = (__m256i *)((uint16_t *)base + i);
    if (kind == PE_ST_STREAM) _mm256_stream_si256(p, pe_vf_narrow16_(v, dt, kind));
    else _mm256_storeu_si256(p, pe_vf_narrow16_(v, dt, kind));
}
/* k lanes only (never streaming) */
PE_VEC_INLINE void pe_vf_st_part(void *base, int64_t i, pe_vf v, pe_dtype dt, int k, int kind) {
    if (dt == PE_F32) {
        _mm512_mask_storeu_ps((float *)base + i, pe_vf_mask_(k), v);
        return;
    }
    _mm256_mask_storeu_epi16((uint16_t *)base + i, pe_vf_mask_(k),
                             pe_vf_narrow16_(v, dt, kind == PE_ST_STREAM ? PE_ST_PLAIN : kind));
}
/* Two vectors at base + i and base + i + 16: with AVX512_BF16 one
 * vcvtne2ps2bf16 and one 64-byte store (half the conversions and stores). */
PE_VEC_INLINE void pe_vf_st2(void *base, int64_t i, pe_vf v0, pe_vf v1, pe_dtype dt, int kind) {
    if (dt != PE_BF16 || kind != PE_ST_BF16_HW) {
        pe_vf_st(base, i, v0, dt, kind);
        pe_vf_st(base, i + 16, v1, dt, kind);
        return;
    }
    __m512i h;
    __asm__("vcvtne2ps2bf16 %2, %1, %0" : "=v"(h) : "v"(v1), "v"(v0));
    const __mmask32 dn = (__mmask32)_mm512_fpclass_ps_mask(v0, 0x20) |
                         ((__mmask32)_mm512_fpclass_ps_mask(v1, 0x20) << 16);
    if (__builtin_expect(dn != 0, 0))
        h = _mm512_mask_mov_epi16(h, dn,
                                  _mm512_inserti64x4(_mm512_castsi256_si512(pe_vf_to_bf16_(v0)),
                                                     pe_vf_to_bf16_(v1), 1));
    _mm512_storeu_si512((uint16_t *)base + i, h);
}

/* PE_VD_LANES floats widened to double (exact); _part: k lanes, zeros. */
PE_VEC_INLINE pe_vd pe_vd_load_f32(const float *p) { return _mm512_cvtps_pd(_mm256_loadu_ps(p)); }
PE_VEC_INLINE pe_vd pe_vd_load_f32_part(const float *p, int k) {
    return _mm512_cvtps_pd(_mm256_maskz_loadu_ps((__mmask8)((1u << k) - 1u), p));
}
PE_VEC_INLINE pe_vd pe_vd_zero(void) { return _mm512_setzero_pd(); }
PE_VEC_INLINE void pe_vd_storeu(double *p, pe_vd v) { _mm512_storeu_pd(p, v); }
PE_VEC_INLINE pe_vd pe_vd_loadu(const double *p) { return _mm512_loadu_pd(p); }
PE_VEC_INLINE pe_vd pe_vd_div(pe_vd a, pe_vd b) { return _mm512_div_pd(a, b); }
PE_VEC_INLINE pe_vd pe_vd_sqrt(pe_vd a) { return _mm512_sqrt_pd(a); }
/* the PE_VD_LANES lanes rounded to float (nearest even) and stored */
PE_VEC_INLINE void pe_vd_store_f32(float *p, pe_vd v) { _mm256_storeu_ps(p, _mm512_cvtpd_ps(v)); }

#endif
