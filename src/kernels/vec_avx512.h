/*
 * vec_avx512.h — the AVX-512 layer of the kernels' vector abstraction
 * (vec_sincos.h writes the algorithms once over it, SLEEF-style): pe_vd is
 * 8 doubles; each operation is one IEEE operation per lane (FMA forms
 * round once), so every layer gives the same bits lane for lane.
 * Included only by avx512.c (compiled with the AVX-512 flags).
 */
#ifndef PE_KERNELS_VEC_AVX512_H
#define PE_KERNELS_VEC_AVX512_H

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

#endif
