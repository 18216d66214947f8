/*
 * vec_sincos.h — the vector cos/sin algorithms written once over a layer's
 * pe_vd (vec_avx512.h, vec_avx2.h, vec_neon.h; include the layer first).
 * The methods and bounds are vecmath.h's; every layer runs the same IEEE
 * operations in the same order per lane, so the sets agree bit for bit.
 */
#ifndef PE_KERNELS_VEC_SINCOS_H
#define PE_KERNELS_VEC_SINCOS_H

#ifndef PE_VEC_INLINE
#error "include a vec_<isa>.h layer before vec_sincos.h"
#endif

#define PE_VD_(x) pe_vd_set1(x)

/* sin and cos of p (w + wl), exact reduction into a double-double and
 * Taylor polynomials by Estrin's scheme (within 1.1e-16); returns the lane
 * bitmask of lanes outside the exact range (|p w| >= 2^40 or not finite),
 * which the caller redoes through the scalar path. */
PE_VEC_INLINE unsigned pe_vsincos(pe_vd P, pe_vd w, pe_vd wl, pe_vd *sn, pe_vd *cs) {
    const pe_vd xh = pe_vd_mul(P, w);
    pe_vd xl = pe_vd_fmsub(P, w, xh); /* P w - xh, exact */
    xl = pe_vd_fmadd(P, wl, xl);
    const unsigned bad = pe_vd_beyond_limit(xh);
    const pe_vd kd = pe_vd_fmadd(xh, PE_VD_(PE_VM_TWO_OVER_PI), PE_VD_(PE_VM_ROUND_MAGIC));
    const pe_vd k = pe_vd_sub(kd, PE_VD_(PE_VM_ROUND_MAGIC));
    /* r = rh + rl: the reduced angle as a double-double (TwoSum: near a
     * multiple of pi/2 the small terms can outweigh r1) */
    const pe_vd r1 = pe_vd_fnmadd(k, PE_VD_(PE_VM_PIO2_1), xh); /* exact */
    pe_vd t = pe_vd_fnmadd(k, PE_VD_(PE_VM_PIO2_2), xl);
    t = pe_vd_fnmadd(k, PE_VD_(PE_VM_PIO2_3), t);
    const pe_vd rh = pe_vd_add(r1, t), bb = pe_vd_sub(rh, r1);
    const pe_vd rl = pe_vd_add(pe_vd_sub(r1, pe_vd_sub(rh, bb)), pe_vd_sub(t, bb));
    /* Estrin's scheme: dependency chains of 4 instead of 8 operations */
    const pe_vd z = pe_vd_mul(rh, rh), z2 = pe_vd_mul(z, z), z4 = pe_vd_mul(z2, z2);
    const pe_vd zl = pe_vd_fmsub(rh, rh, z); /* rh^2 = z + zl exactly */
    const pe_vd hz = pe_vd_mul(PE_VD_(0.5), z);
    const pe_vd s01 = pe_vd_fmadd(PE_VD_(PE_VM_S2), z, PE_VD_(PE_VM_S1));
    const pe_vd s23 = pe_vd_fmadd(PE_VD_(PE_VM_S4), z, PE_VD_(PE_VM_S3));
    const pe_vd s45 = pe_vd_fmadd(PE_VD_(PE_VM_S6), z, PE_VD_(PE_VM_S5));
    const pe_vd s67 = pe_vd_fmadd(PE_VD_(PE_VM_S8), z, PE_VD_(PE_VM_S7));
    const pe_vd ps = pe_vd_fmadd(pe_vd_fmadd(s67, z2, s45), z4, pe_vd_fmadd(s23, z2, s01));
    /* sin(rh + rl) = rh + (rh z P(z) + rl (1 - z/2)): one final rounding */
    const pe_vd sr =
        pe_vd_add(rh, pe_vd_fmadd(pe_vd_mul(rh, z), ps, pe_vd_fnmadd(hz, rl, rl)));
    const pe_vd c23 = pe_vd_fmadd(PE_VD_(PE_VM_C3), z, PE_VD_(PE_VM_C2));
    const pe_vd c45 = pe_vd_fmadd(PE_VD_(PE_VM_C5), z, PE_VD_(PE_VM_C4));
    const pe_vd c67 = pe_vd_fmadd(PE_VD_(PE_VM_C7), z, PE_VD_(PE_VM_C6));
    const pe_vd pc =
        pe_vd_fmadd(pe_vd_fmadd(PE_VD_(PE_VM_C8), z2, c67), z4, pe_vd_fmadd(c45, z2, c23));
    /* cos(rh + rl) = hw + ((1 - hw) - hz - zl/2 - rh rl + z^2 Q(z)), hw =
     * 1 - z/2 rounded; (1 - hw) - hz is exact (Sterbenz) */
    const pe_vd one = PE_VD_(1.0);
    const pe_vd hw = pe_vd_sub(one, hz);
    pe_vd e = pe_vd_sub(pe_vd_sub(one, hw), hz);
    e = pe_vd_fnmadd(PE_VD_(0.5), zl, pe_vd_fnmadd(rh, rl, e));
    const pe_vd cr = pe_vd_add(hw, pe_vd_fmadd(z2, pc, e));
    pe_vd_quadrant(kd, sr, cr, sn, cs);
    return bad;
}

/* The same angle for rotation tables (vecmath.h): reduced into one double,
 * shorter Horner polynomials, within 7.1e-12. Same return value. */
PE_VEC_INLINE unsigned pe_vsincos_rot(pe_vd P, pe_vd w, pe_vd wl, pe_vd *sn, pe_vd *cs) {
    const pe_vd xh = pe_vd_mul(P, w);
    const pe_vd xl = pe_vd_fmadd(P, wl, pe_vd_fmsub(P, w, xh));
    const unsigned bad = pe_vd_beyond_limit(xh);
    const pe_vd kd = pe_vd_fmadd(xh, PE_VD_(PE_VM_TWO_OVER_PI), PE_VD_(PE_VM_ROUND_MAGIC));
    const pe_vd k = pe_vd_sub(kd, PE_VD_(PE_VM_ROUND_MAGIC));
    const pe_vd r1 = pe_vd_fnmadd(k, PE_VD_(PE_VM_PIO2_1), xh); /* exact */
    const pe_vd r = pe_vd_add(r1, pe_vd_fnmadd(k, PE_VD_(PE_VM_PIO2_2), xl));
    const pe_vd z = pe_vd_mul(r, r);
    pe_vd ps = pe_vd_fmadd(PE_VD_(PE_VM_S5), z, PE_VD_(PE_VM_S4));
    ps = pe_vd_fmadd(ps, z, PE_VD_(PE_VM_S3));
    ps = pe_vd_fmadd(ps, z, PE_VD_(PE_VM_S2));
    ps = pe_vd_fmadd(ps, z, PE_VD_(PE_VM_S1));
    const pe_vd sr = pe_vd_fmadd(pe_vd_mul(r, z), ps, r);
    pe_vd pc = pe_vd_fmadd(PE_VD_(PE_VM_C6), z, PE_VD_(PE_VM_C5));
    pc = pe_vd_fmadd(pc, z, PE_VD_(PE_VM_C4));
    pc = pe_vd_fmadd(pc, z, PE_VD_(PE_VM_C3));
    pc = pe_vd_fmadd(pc, z, PE_VD_(PE_VM_C2));
    pc = pe_vd_fmadd(pc, z, PE_VD_(-0.5));
    const pe_vd cr = pe_vd_fmadd(pc, z, PE_VD_(1.0));
    pe_vd_quadrant(kd, sr, cr, sn, cs);
    return bad;
}

/* One position step of a table (vecmath.h): (c, s) rotated by (c1, s1). */
PE_VEC_INLINE void pe_vstep(pe_vd c, pe_vd s, pe_vd c1, pe_vd s1, pe_vd *cn, pe_vd *sn) {
    *cn = pe_vd_fmsub(c, c1, pe_vd_mul(s, s1));
    *sn = pe_vd_fmadd(s, c1, pe_vd_mul(c, s1));
}

#undef PE_VD_
#endif
