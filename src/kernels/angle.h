/*
 * angle.h — the exact RoPE/sinusoidal angle: p * w reduced modulo 2 pi, in
 * plain IEEE double arithmetic (double-double where it matters), so it is
 * portable, deterministic and needs neither long double nor FMA.
 *
 * Error analysis (|p w| < 2^40, the range that matters; positions up to 2^31
 * and w <= 1 give |p w| <= 2^31):
 *   - p is split exactly into ph (multiple of 2^11) + pl (< 2^11), both exact
 *     doubles, so int64 positions need no rounding;
 *   - ph*wh and pl*wh are formed exactly as double-doubles (Dekker's
 *     TwoProduct with Veltkamp splitting); ph*wl and pl*wl carry a relative
 *     error of 2^-53 on terms of size <= 2^-53 |p w|: negligible;
 *   - k = nearest integer of (p w)/(2 pi); k * C1 is formed exactly and the
 *     subtraction from the high part is exact (Sterbenz), then k*C2 and k*C3
 *     (2 pi = C1 + C2 + C3 to ~160 bits) are subtracted with one rounding
 *     each on terms <= 2^40 * 2.5e-16;
 * so the reduced angle r in [-pi - eps, pi + eps] is within a few ulp of
 * pi (about 1e-15 rad) of the exact angle of the double-double frequency.
 * Beyond |p w| = 2^40 the result stays finite but loses accuracy gradually.
 *
 * Requires -ffp-contract=off (set in the Makefile): a fused multiply-add
 * contracted into Dekker's error terms would break their exactness.
 */
#ifndef PE_KERNELS_ANGLE_H
#define PE_KERNELS_ANGLE_H

#include <math.h>
#include <stdint.h>

#define PE_TWO_PI_C1 0x1.921fb54442d18p+2
#define PE_TWO_PI_C2 0x1.1a62633145c07p-52
#define PE_TWO_PI_C3 (-0x1.f1976b7ed8fbcp-108)
#define PE_INV_TWO_PI 0.15915494309189535

/* a * b = *p + *e exactly (no overflow assumed). */
static inline void pe__two_prod(double a, double b, double *p, double *e) {
    const double split = 134217729.0; /* 2^27 + 1 */
    double t = split * a;
    double ah = t - (t - a), al = a - ah;
    t = split * b;
    double bh = t - (t - b), bl = b - bh;
    *p = a * b;
    *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* a + b = *s + *e exactly. */
static inline void pe__two_sum(double a, double b, double *s, double *e) {
    *s = a + b;
    double bb = *s - a;
    *e = (a - (*s - bb)) + (b - bb);
}

/* p * (wh + wl) reduced modulo 2 pi into roughly [-pi, pi]. */
static inline double pe__reduced_angle(int64_t p, double wh, double wl) {
    /* Exact split of the position: the high part keeps <= 52 significant
     * bits, the low part < 2^11. */
    const int64_t pbig = (int64_t)((uint64_t)p & ~(uint64_t)0x7FF);
    const double ph = (double)pbig, pl = (double)(p - pbig);
    double s1, e1, s2, e2, hi, lo;
    pe__two_prod(ph, wh, &s1, &e1);
    pe__two_prod(pl, wh, &s2, &e2);
    pe__two_sum(s1, s2, &hi, &lo);
    lo += e1 + e2 + (ph * wl + pl * wl);
    /* Renormalise so that hi carries the value and lo the rest. */
    double h2, l2;
    pe__two_sum(hi, lo, &h2, &l2);
    const double k = nearbyint(h2 * PE_INV_TWO_PI);
    double kp, ke;
    pe__two_prod(k, PE_TWO_PI_C1, &kp, &ke);
    double r = h2 - kp; /* exact: h2 and kp agree to within a factor 2 */
    r -= ke;
    r -= k * PE_TWO_PI_C2;
    r += l2;
    r -= k * PE_TWO_PI_C3;
    return r;
}

/* hi + lo (a renormalised double-double) reduced modulo 2 pi into roughly
 * [-pi, pi], the same steps as the end of pe__reduced_angle. */
static inline double pe__reduce_two_pi(double hi, double lo) {
    const double k = nearbyint(hi * PE_INV_TWO_PI);
    double kp, ke;
    pe__two_prod(k, PE_TWO_PI_C1, &kp, &ke);
    double r = hi - kp; /* exact (Sterbenz) */
    r -= ke;
    r -= k * PE_TWO_PI_C2;
    r += lo;
    r -= k * PE_TWO_PI_C3;
    return r;
}

/* p (wh_new + wl_new) - p (wh_old + wl_old) reduced modulo 2 pi (re-basing
 * keys from one set of frequencies to another): the four products of the
 * split position with the high parts are exact (TwoProduct), summed
 * exactly (TwoSum) into hi with their errors in lo, and only then reduced,
 * so the difference is never formed from two separately rounded angles. */
static inline double pe__reduced_angle_diff(int64_t p, double wh_new, double wl_new,
                                            double wh_old, double wl_old) {
    const int64_t pbig = (int64_t)((uint64_t)p & ~(uint64_t)0x7FF);
    const double ph = (double)pbig, pl = (double)(p - pbig);
    double t[4], e[4];
    pe__two_prod(ph, wh_new, &t[0], &e[0]);
    pe__two_prod(pl, wh_new, &t[1], &e[1]);
    pe__two_prod(ph, -wh_old, &t[2], &e[2]);
    pe__two_prod(pl, -wh_old, &t[3], &e[3]);
    double hi = t[0], lo = 0.0;
    for (int i = 1; i < 4; i++) {
        double err;
        pe__two_sum(hi, t[i], &hi, &err);
        lo += err;
    }
    const double dwl = wl_new - wl_old; /* both <= 2^-52 w: tiny terms */
    lo += (e[0] + e[1]) + (e[2] + e[3]) + (ph * dwl + pl * dwl);
    double h2, l2;
    pe__two_sum(hi, lo, &h2, &l2);
    return pe__reduce_two_pi(h2, l2);
}

#endif
