/*
 * vec_avx2.h — the AVX2 + FMA layer of the kernels' vector abstraction
 * (see vec_avx512.h): pe_vd is 4 doubles. Included only by avx2.c.
 */
#ifndef PE_KERNELS_VEC_AVX2_H
#define PE_KERNELS_VEC_AVX2_H

#include "vecmath.h"

#include <immintrin.h>

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

#endif
