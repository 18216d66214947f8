/*
 * vec_avx2.h — the AVX2 + FMA layer of the kernels' vector abstraction
 * (see vec_avx512.h): pe_vd is 4 doubles. Included only by avx2.c.
 */
#ifndef PE_KERNELS_VEC_AVX2_H
#define PE_KERNELS_VEC_AVX2_H

#include "kernels.h"
#include "vecmath.h"

#include <immintrin.h>
#include <string.h>

#define PE_VEC_INLINE static inline __attribute__((always_inline))

typedef __m256d pe_vd;
#define PE_VD_LANES 4

PE_VEC_INLINE pe_vd pe_vd_set1(double x) { return _mm256_set1_pd(x); }
PE_VEC_INLINE pe_vd pe_vd_add(pe_vd a, pe_vd b) { return _mm256_add_pd(a, b); }
PE_VEC_INLINE pe_vd pe_vd_sub(pe_vd a, pe_vd b) { return _mm256_sub_pd(a, b); }
PE_VEC_INLINE pe_vd pe_vd_mul(pe_vd a, pe_vd b) { return _mm256_mul_pd(a, b); }
PE_VEC_INLINE pe_vd pe_vd_fmadd(pe_vd a, pe_vd b, pe_vd c) { return _mm256_fmadd_pd(a, b, c); }
PE_VEC_INLINE pe_vd pe_vd_fmsub(pe_vd a, pe_vd b, pe_vd c) { return _mm256_fmsub_pd(a, b, c); }
PE_VEC_INLINE pe_vd pe_vd_fnmadd(pe_vd a, pe_vd b, pe_vd c) { return _mm256_fnmadd_pd(a, b, c); }

PE_VEC_INLINE unsigned pe_vd_beyond_limit(pe_vd x) {
    const __m256d absx = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
    return (unsigned)_mm256_movemask_pd(
        _mm256_cmp_pd(absx, _mm256_set1_pd(PE_VM_LIMIT), _CMP_NLT_UQ));
}

PE_VEC_INLINE void pe_vd_quadrant(pe_vd kd, pe_vd sr, pe_vd cr, pe_vd *sn, pe_vd *cs) {
    const __m256i q = _mm256_castpd_si256(kd);
    /* blendv picks by the sign bit: move bit 0 of q there */
    const __m256d swap = _mm256_castsi256_pd(_mm256_slli_epi64(q, 63));
    const __m256i two = _mm256_set1_epi64x(2);
    const __m256i sflip = _mm256_slli_epi64(_mm256_and_si256(q, two), 62);
    const __m256i cflip = _mm256_slli_epi64(
        _mm256_and_si256(_mm256_add_epi64(q, _mm256_set1_epi64x(1)), two), 62);
    *sn = _mm256_xor_pd(_mm256_blendv_pd(sr, cr, swap), _mm256_castsi256_pd(sflip));
    *cs = _mm256_xor_pd(_mm256_blendv_pd(cr, sr, swap), _mm256_castsi256_pd(cflip));
}

/* ---- floats (see vec_avx512.h): pe_vf is 8 floats. AVX2 has no masked
 * 16-bit loads or stores, so a part (k < 8 lanes) goes through a small
 * zero-padded buffer on the stack; per element the operations are the
 * same. */
typedef __m256 pe_vf;
#define PE_VF_LANES 8
/* 8 + 8 table vectors fill the 16 registers, but one pass over each
 * half-split row measured faster than two (in place 0.97 instead of 1.05
 * of x *= c, out of place 1.22 instead of 1.32 of a streaming copy). */
#define PE_ROWS_MAX_Q 8
/* A 128-element interleaved row in one pass: 16 + 16 table vectors, more
 * than the registers, so GCC keeps most of them on the stack and reloads
 * them (L1 hits); still faster than walking every row twice in blocks of
 * 64: Zen 4, PE_ISA=avx2, same-process A/B: 4096 tokens in place 0.62x
 * the time, f16 0.61 - 0.89x, 512 tokens 0.96x (docs/PERFORMANCE.md). */
#define PE_ROWS_MAX_Q_INTER 16
#define PE_ROWS_GROUP 2
#define PE_VF_CAN_STREAM 1
#define PE_VF_HAS_BF16_HW 0

PE_VEC_INLINE pe_vf pe_vf_set1(float x) { return _mm256_set1_ps(x); }
PE_VEC_INLINE pe_vf pe_vf_add(pe_vf a, pe_vf b) { return _mm256_add_ps(a, b); }
PE_VEC_INLINE pe_vf pe_vf_mul(pe_vf a, pe_vf b) { return _mm256_mul_ps(a, b); }
PE_VEC_INLINE pe_vf pe_vf_fmadd(pe_vf a, pe_vf b, pe_vf c) { return _mm256_fmadd_ps(a, b, c); }
PE_VEC_INLINE pe_vf pe_vf_fmsub(pe_vf a, pe_vf b, pe_vf c) { return _mm256_fmsub_ps(a, b, c); }
PE_VEC_INLINE pe_vf pe_vf_swap_pairs(pe_vf x) { return _mm256_permute_ps(x, 0xB1); }
PE_VEC_INLINE pe_vf pe_vf_loadu(const float *p) { return _mm256_loadu_ps(p); }
PE_VEC_INLINE pe_vf pe_vf_load_part(const float *p, int k) {
    float b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(b, p, sizeof(float) * (size_t)k);
    return _mm256_loadu_ps(b);
}
PE_VEC_INLINE void pe_vf_storeu(float *p, pe_vf v) { _mm256_storeu_ps(p, v); }
PE_VEC_INLINE void pe_vf_store_part(float *p, pe_vf v, int k) {
    float b[8];
    _mm256_storeu_ps(b, v);
    memcpy(p, b, sizeof(float) * (size_t)k);
}

PE_VEC_INLINE pe_vf pe_vf_ld(const void *base, int64_t i, pe_dtype dt) {
    if (dt == PE_F32) return _mm256_loadu_ps((const float *)base + i);
    const __m128i h = _mm_loadu_si128((const __m128i *)((const uint16_t *)base + i));
    if (dt == PE_F16) return _mm256_cvtph_ps(h);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}
PE_VEC_INLINE pe_vf pe_vf_ld_part(const void *base, int64_t i, pe_dtype dt, int k) {
    const size_t esz = dt == PE_F32 ? 4 : 2;
    unsigned char b[32] = {0};
    memcpy(b, (const char *)base + (size_t)i * esz, (size_t)k * esz);
    return pe_vf_ld(b, 0, dt);
}

/* float -> bf16 with round to nearest even; NaN stays a quiet NaN. */
PE_VEC_INLINE __m128i pe_vf_to_bf16_(__m256 v) {
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

/* No AVX512_BF16 instructions in this set. */
PE_VEC_INLINE int pe_vf_bf16_hw(void) { return 0; }
enum { PE_ST_PLAIN = 0, PE_ST_STREAM = 1, PE_ST_BF16_HW = 2 };

/* 8 floats rounded to f16 or bf16 (nearest even). */
PE_VEC_INLINE __m128i pe_vf_narrow16_(pe_vf v, pe_dtype dt) {
    return dt == PE_F16 ? _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
                        : pe_vf_to_bf16_(v);
}

/* PE_ST_STREAM needs base + i aligned to a whole vector (32 bytes f32,
 * 16 bytes f16/bf16). */
PE_VEC_INLINE void pe_vf_st(void *base, int64_t i, pe_vf v, pe_dtype dt, int kind) {
    if (dt == PE_F32) {
        if (kind == PE_ST_STREAM) _mm256_stream_ps((float *)base + i, v);
        else _mm256_storeu_ps((float *)base + i, v);
        return;
    }
    __m128i *const p = (__m128i *)((uint16_t *)base + i);
    if (kind == PE_ST_STREAM) _mm_stream_si128(p, pe_vf_narrow16_(v, dt));
    else _mm_storeu_si128(p, pe_vf_narrow16_(v, dt));
}
PE_VEC_INLINE void pe_vf_st_part(void *base, int64_t i, pe_vf v, pe_dtype dt, int k, int kind) {
    (void)kind;
    const size_t esz = dt == PE_F32 ? 4 : 2;
    unsigned char b[32];
    pe_vf_st(b, 0, v, dt, PE_ST_PLAIN);
    memcpy((char *)base + (size_t)i * esz, b, (size_t)k * esz);
}
PE_VEC_INLINE void pe_vf_st2(void *base, int64_t i, pe_vf v0, pe_vf v1, pe_dtype dt, int kind) {
    pe_vf_st(base, i, v0, dt, kind);
    pe_vf_st(base, i + 8, v1, dt, kind);
}

PE_VEC_INLINE pe_vd pe_vd_load_f32(const float *p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
PE_VEC_INLINE pe_vd pe_vd_load_f32_part(const float *p, int k) {
    float b[4] = {0, 0, 0, 0};
    memcpy(b, p, sizeof(float) * (size_t)k);
    return _mm256_cvtps_pd(_mm_loadu_ps(b));
}
PE_VEC_INLINE pe_vd pe_vd_zero(void) { return _mm256_setzero_pd(); }
PE_VEC_INLINE void pe_vd_storeu(double *p, pe_vd v) { _mm256_storeu_pd(p, v); }
PE_VEC_INLINE pe_vd pe_vd_loadu(const double *p) { return _mm256_loadu_pd(p); }
PE_VEC_INLINE pe_vd pe_vd_div(pe_vd a, pe_vd b) { return _mm256_div_pd(a, b); }
PE_VEC_INLINE pe_vd pe_vd_sqrt(pe_vd a) { return _mm256_sqrt_pd(a); }
PE_VEC_INLINE void pe_vd_store_f32(float *p, pe_vd v) { _mm_storeu_ps(p, _mm256_cvtpd_ps(v)); }

#endif
