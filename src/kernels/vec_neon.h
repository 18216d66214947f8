/*
 * vec_neon.h — the AArch64 NEON layer of the kernels' vector abstraction
 * (see vec_avx512.h): pe_vd is 2 doubles. x86's fmsub(a, b, c) (a b - c,
 * one rounding) is vfmaq(-c, a, b) and fnmadd(a, b, c) (c - a b) is
 * vfmsq(c, a, b): the same exact value rounded once. Included only by
 * neon.c.
 */
#ifndef PE_KERNELS_VEC_NEON_H
#define PE_KERNELS_VEC_NEON_H

#include "kernels.h"
#include "vecmath.h"

#include <arm_neon.h>
#include <string.h>

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

/* ---- floats (see vec_avx512.h): pe_vf is 4 floats; a part (k < 4
 * lanes) goes through a zero-padded buffer. No streaming stores: NEON has
 * no non-temporal store intrinsic, and a plain store changes no value. */
typedef float32x4_t pe_vf;
#define PE_VF_LANES 4
#define PE_ROWS_MAX_Q 4
#define PE_ROWS_GROUP 2
#define PE_VF_CAN_STREAM 0
#define PE_VF_HAS_BF16_HW 0

PE_VEC_INLINE pe_vf pe_vf_set1(float x) { return vdupq_n_f32(x); }
PE_VEC_INLINE pe_vf pe_vf_add(pe_vf a, pe_vf b) { return vaddq_f32(a, b); }
PE_VEC_INLINE pe_vf pe_vf_mul(pe_vf a, pe_vf b) { return vmulq_f32(a, b); }
/* a b + c = vfmaq(c, a, b); a b - c = vfmaq(-c, a, b): one rounding each */
PE_VEC_INLINE pe_vf pe_vf_fmadd(pe_vf a, pe_vf b, pe_vf c) { return vfmaq_f32(c, a, b); }
PE_VEC_INLINE pe_vf pe_vf_fmsub(pe_vf a, pe_vf b, pe_vf c) { return vfmaq_f32(vnegq_f32(c), a, b); }
PE_VEC_INLINE pe_vf pe_vf_swap_pairs(pe_vf x) { return vrev64q_f32(x); }
PE_VEC_INLINE pe_vf pe_vf_loadu(const float *p) { return vld1q_f32(p); }
PE_VEC_INLINE pe_vf pe_vf_load_part(const float *p, int k) {
    float b[4] = {0, 0, 0, 0};
    memcpy(b, p, sizeof(float) * (size_t)k);
    return vld1q_f32(b);
}
PE_VEC_INLINE void pe_vf_storeu(float *p, pe_vf v) { vst1q_f32(p, v); }
PE_VEC_INLINE void pe_vf_store_part(float *p, pe_vf v, int k) {
    float b[4];
    vst1q_f32(b, v);
    memcpy(p, b, sizeof(float) * (size_t)k);
}

PE_VEC_INLINE pe_vf pe_vf_ld(const void *base, int64_t i, pe_dtype dt) {
    if (dt == PE_F32) return vld1q_f32((const float *)base + i);
    const uint16x4_t h = vld1_u16((const uint16_t *)base + i);
    if (dt == PE_F16) return vcvt_f32_f16(vreinterpret_f16_u16(h));
    return vreinterpretq_f32_u32(vshll_n_u16(h, 16));
}
PE_VEC_INLINE pe_vf pe_vf_ld_part(const void *base, int64_t i, pe_dtype dt, int k) {
    const size_t esz = dt == PE_F32 ? 4 : 2;
    unsigned char b[16] = {0};
    memcpy(b, (const char *)base + (size_t)i * esz, (size_t)k * esz);
    return pe_vf_ld(b, 0, dt);
}

/* float -> bf16 rounded to nearest even; NaN stays a quiet NaN. */
PE_VEC_INLINE uint16x4_t pe_vf_to_bf16_(pe_vf v) {
    const uint32x4_t u = vreinterpretq_u32_f32(v);
    const uint32x4_t hi = vshrq_n_u32(u, 16);
    const uint32x4_t lsb = vandq_u32(hi, vdupq_n_u32(1));
    const uint32x4_t r = vshrq_n_u32(vaddq_u32(u, vaddq_u32(vdupq_n_u32(0x7FFF), lsb)), 16);
    const uint32x4_t qnan = vorrq_u32(hi, vdupq_n_u32(0x40));
    const uint32x4_t ordered = vceqq_f32(v, v);
    return vmovn_u32(vbslq_u32(ordered, r, qnan));
}

PE_VEC_INLINE int pe_vf_bf16_hw(void) { return 0; }
enum { PE_ST_PLAIN = 0, PE_ST_STREAM = 1, PE_ST_BF16_HW = 2 };

/* Every kind is a plain store here. Conversions round to nearest even (the
 * FPCR default), as F16C's and the x86 bf16 rounding do. */
PE_VEC_INLINE void pe_vf_st(void *base, int64_t i, pe_vf v, pe_dtype dt, int kind) {
    (void)kind;
    if (dt == PE_F32) {
        vst1q_f32((float *)base + i, v);
        return;
    }
    const uint16x4_t h = dt == PE_F16 ? vreinterpret_u16_f16(vcvt_f16_f32(v)) : pe_vf_to_bf16_(v);
    vst1_u16((uint16_t *)base + i, h);
}
PE_VEC_INLINE void pe_vf_st_part(void *base, int64_t i, pe_vf v, pe_dtype dt, int k, int kind) {
    (void)kind;
    const size_t esz = dt == PE_F32 ? 4 : 2;
    unsigned char b[16];
    pe_vf_st(b, 0, v, dt, PE_ST_PLAIN);
    memcpy((char *)base + (size_t)i * esz, b, (size_t)k * esz);
}
PE_VEC_INLINE void pe_vf_st2(void *base, int64_t i, pe_vf v0, pe_vf v1, pe_dtype dt, int kind) {
    pe_vf_st(base, i, v0, dt, kind);
    pe_vf_st(base, i + 4, v1, dt, kind);
}

PE_VEC_INLINE pe_vd pe_vd_load_f32(const float *p) { return vcvt_f64_f32(vld1_f32(p)); }
PE_VEC_INLINE pe_vd pe_vd_load_f32_part(const float *p, int k) {
    float b[2] = {0, 0};
    memcpy(b, p, sizeof(float) * (size_t)k);
    return vcvt_f64_f32(vld1_f32(b));
}
PE_VEC_INLINE pe_vd pe_vd_zero(void) { return vdupq_n_f64(0.0); }
PE_VEC_INLINE void pe_vd_storeu(double *p, pe_vd v) { vst1q_f64(p, v); }
PE_VEC_INLINE pe_vd pe_vd_loadu(const double *p) { return vld1q_f64(p); }
PE_VEC_INLINE pe_vd pe_vd_div(pe_vd a, pe_vd b) { return vdivq_f64(a, b); }
PE_VEC_INLINE pe_vd pe_vd_sqrt(pe_vd a) { return vsqrtq_f64(a); }
PE_VEC_INLINE void pe_vd_store_f32(float *p, pe_vd v) { vst1_f32(p, vcvt_f32_f64(v)); }

#endif
