/*
 * vecmath.h — constants of the vectorized cos/sin shared by avx2.c and
 * avx512.c (plain macros: no code, so nothing here is compiled for the
 * wrong instruction set).
 *
 * Method, per lane, with x = p (w + wl) and FMA available:
 *   xh = p w, xl = fma(p, w, -xh) + p wl      p w = xh + xl exactly, p wl
 *                                             rounded (|p wl| <= 2^-13);
 *   k  = nearest integer to xh 2/pi           (fma with 1.5 2^52: the sum
 *                                             rounds to an integer and its
 *                                             low mantissa bits are k mod 4);
 *   r  = xh - k C1                            exact: for |xh| >= 1 both
 *                                             are multiples of 2^-52 and
 *                                             the difference is < 1; below
 *                                             1, k is 0 or +-1 (Sterbenz).
 *                                             C1 has 53 bits; pi/2 =
 *                                             C1 + C2 + C3 to ~160 bits;
 *   t  = (xl - k C2) - k C3, r = rh + rl = r1 + t exactly (TwoSum).
 * For |xh| < 2^40 (|k| < 2^40, positions |p| <= 2^40) rh + rl is within
 * 1e-19 of the exact reduced angle of the double-double frequency,
 * |rh| <= pi/4 + 1e-7. Lanes beyond go to the scalar path (angle.h +
 * libm), as do NaNs.
 *
 * With z = rh^2 (and zl = rh^2 - z exactly), Taylor series to r^17 / r^16
 * (truncation < 1e-19 and < 3e-18 on |r| <= pi/4 + 1e-7), evaluated by
 * Estrin's scheme for short dependency chains:
 *   sin(rh + rl) = rh + (rh z (S1 + S2 z + ... + S8 z^7) + rl (1 - z/2))
 *   cos(rh + rl) = hw + (((1 - hw) - z/2) - zl/2 - rh rl + z^2 (C2 + ... + C8 z^6))
 * with hw = 1 - z/2 rounded and (1 - hw) - z/2 its exact rounding error.
 * Everything but the last addition is a small tail (|tail| < 0.09) whose
 * roundings total < 5e-17, so |error| < ulp/2 + 5e-17 < 1.1e-16: measured
 * worst 0.74 ulp, 98.5% correctly rounded (the scalar reference, libm on a
 * double angle reduced into [-pi, pi], is within 1.2e-15). The quadrant's
 * swap and signs are exact.
 */
/*
 * Rotation tables (rope_tables) need cos and sin only to be rounded to
 * float afterwards, so they take a cheaper path from the same exact angle:
 *   r  = r1 + ((xl - k C2))                   one double, within
 *                                             ~2.3e-16 of the exact
 *                                             reduced angle (the dropped
 *                                             k C3 is < 2^40 2^-110 2);
 *   sin r = r + r z (S1 + ... + S5 z^4)       truncation <= (pi/4)^13/13!
 *                                             < 7.0e-12 (alternating
 *                                             series);
 *   cos r = 1 + z (-1/2 + C2 z + ... + C6 z^5) truncation <= (pi/4)^14/14!
 *                                             < 4e-13;
 * Horner in double adds < 5e-16, so |error| < 7.1e-12 against the exact
 * cos/sin of the double-double frequency: 1/4000 of the 2^-25 half ulp the
 * float tables round to next. More precisely the error vector (dc, ds) is
 * shorter than 7.02e-12 (sin carries the 7.0e-12, cos < 4e-13).
 *
 * Consecutive positions step (c, s) by one position instead:
 *   c' = fma(c, c1, -(s s1)),  s' = fma(s, c1, c s1)
 * with c1, s1 the exact (cos_sin) values of one step. A rotation keeps the
 * error vector's length; each step adds < 1.6e-16 of angle (c1, s1) and
 * < 3.4e-16 of rounding, so after the at most 31 steps between fresh
 * evaluations each component is still within 7.02e-12 + 1.6e-14 < 7.1e-12.
 */
#ifndef PE_KERNELS_VECMATH_H
#define PE_KERNELS_VECMATH_H

#define PE_VM_LIMIT 0x1p40
#define PE_VM_MAX_POSITION (INT64_C(1) << 40)
#define PE_VM_TWO_OVER_PI 0x1.45f306dc9c883p-1
#define PE_VM_ROUND_MAGIC 0x1.8p52
#define PE_VM_PIO2_1 0x1.921fb54442d18p+0
#define PE_VM_PIO2_2 0x1.1a62633145c07p-54
#define PE_VM_PIO2_3 (-0x1.f1976b7ed8fbcp-110)

/* (-1)^k / (2k+1)!: the compiler rounds each quotient correctly. */
#define PE_VM_S1 (-1.0 / 6.0)
#define PE_VM_S2 (1.0 / 120.0)
#define PE_VM_S3 (-1.0 / 5040.0)
#define PE_VM_S4 (1.0 / 362880.0)
#define PE_VM_S5 (-1.0 / 39916800.0)
#define PE_VM_S6 (1.0 / 6227020800.0)
#define PE_VM_S7 (-1.0 / 1307674368000.0)
#define PE_VM_S8 (1.0 / 355687428096000.0)
/* (-1)^k / (2k)! */
#define PE_VM_C2 (1.0 / 24.0)
#define PE_VM_C3 (-1.0 / 720.0)
#define PE_VM_C4 (1.0 / 40320.0)
#define PE_VM_C5 (-1.0 / 3628800.0)
#define PE_VM_C6 (1.0 / 479001600.0)
#define PE_VM_C7 (-1.0 / 87178291200.0)
#define PE_VM_C8 (1.0 / 20922789888000.0)

#endif
