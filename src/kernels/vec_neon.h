/*
 * vec_neon.h — the AArch64 NEON layer of the kernels' vector abstraction
 * (see vec_avx512.h): pe_vd is 2 doubles. x86's fmsub(a, b, c) (a b - c,
 * one rounding) is vfmaq(-c, a, b) and fnmadd(a, b, c) (c - a b) is
 * vfmsq(c, a, b): the same exact value rounded once. Included only by
 * neon.c.
 */
#ifndef PE_KERNELS_VEC_NEON_H
#define PE_KERNELS_VEC_NEON_H

#include "vecmath.h"

#include <arm_neon.h>

#define PE_VEC_INLINE static inline __attribute__((always_inline))

typedef float64x2_t pe_vd;
#define PE_VD_LANES 2

PE_VEC_INLINE pe_vd pe_vd_set1(double x) { return vdupq_n_f64(x); }
PE_VEC_INLINE pe_vd pe_vd_add(pe_vd a, pe_vd b) { return vaddq_f64(a, b); }
PE_VEC_INLINE pe_vd pe_vd_sub(pe_vd a, pe_vd b) { return vsubq_f64(a, b); }
PE_VEC_INLINE pe_vd pe_vd_mul(pe_vd a, pe_vd b) { return vmulq_f64(a, b); }
PE_VEC_INLINE pe_vd pe_vd_fmadd(pe_vd a, pe_vd b, pe_vd c) { return vfmaq_f64(c, a, b); }
PE_VEC_INLINE pe_vd pe_vd_fmsub(pe_vd a, pe_vd b, pe_vd c) { return vfmaq_f64(vnegq_f64(c), a, b); }
PE_VEC_INLINE pe_vd pe_vd_fnmadd(pe_vd a, pe_vd b, pe_vd c) { return vfmsq_f64(c, a, b); }

/* |x| < limit is false for NaN: the complement is x86's _CMP_NLT_UQ */
PE_VEC_INLINE unsigned pe_vd_beyond_limit(pe_vd x) {
    const uint64x2_t lt = vcltq_f64(vabsq_f64(x), vdupq_n_f64(PE_VM_LIMIT));
    return (unsigned)((vgetq_lane_u64(lt, 0) == 0) | ((vgetq_lane_u64(lt, 1) == 0) << 1));
}

PE_VEC_INLINE void pe_vd_quadrant(pe_vd kd, pe_vd sr, pe_vd cr, pe_vd *sn, pe_vd *cs) {
    const uint64x2_t q = vreinterpretq_u64_f64(kd);
    const uint64x2_t swap = vtstq_u64(q, vdupq_n_u64(1));
    const uint64x2_t two = vdupq_n_u64(2);
    const uint64x2_t sflip = vshlq_n_u64(vandq_u64(q, two), 62);
    const uint64x2_t cflip = vshlq_n_u64(vandq_u64(vaddq_u64(q, vdupq_n_u64(1)), two), 62);
    *sn = vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(vbslq_f64(swap, cr, sr)), sflip));
    *cs = vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(vbslq_f64(swap, sr, cr)), cflip));
}

#endif
