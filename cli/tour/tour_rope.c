/*
 * tour_rope.c — the tour's RoPE claims in the notes' order (rotation,
 * relativity, direction, locality, the flip, aliasing, near-collisions) and
 * the scaling schemes. Same pattern as tour_claims.c: compute through the
 * library, tour_inputs(), judge, say what the numbers show.
 */
#include "tour.h"
#include "../figures/inputs.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

#define TRY(expr)                                   \
    do {                                            \
        int st_ = (expr);                           \
        if (st_ != PE_OK) return tour_fail(t, st_); \
    } while (0)

static int rotation(tour *t, const pe_freqs *f) {
    enum { D = TOUR_ROPE_D };
    double q[D], k[D];
    tour_rope_qk(q, k);
    float qf[D], rq[D];
    for (int i = 0; i < D; i++) qf[i] = (float)q[i];
    pe_positions big = pe_positions_range(123456);
    pe_tensor tin = pe_tensor_dense(qf, PE_F32, 1, 1, D), tout = pe_tensor_dense(rq, PE_F32, 1, 1, D);
    TRY(pe_rope_apply(f, PE_ROPE_HALF, &big, &tin, &tout, PE_ROPE_FORWARD));
    double v[2] = {0, 0};
    for (int i = 0; i < D; i++) {
        v[0] += (double)qf[i] * qf[i];
        v[1] += (double)rq[i] * rq[i];
    }
    v[0] = sqrt(v[0]);
    v[1] = sqrt(v[1]);
    tour_inputs(t, "rotation", v, 2);
    const double rel = fabs(v[1] - v[0]) / v[0];
    /* float32 rotation of 64 elements: a few ulps of 6e-8 */
    const int holds = rel <= 1e-6;
    char say[640];
    snprintf(say, sizeof say,
             "RoPE is a rotation: turned to position 123456, q %s its length (%.6f before, %.6f after)%s",
             holds ? "keeps" : "does NOT keep", v[0], v[1], holds ? "; only the angles of its pairs change." : ".");
    return tour_claim(t, "rope", "rotation", holds, "rotation", say,
                      "D = 64, base 10^4: |q| = %.7f, |R(123456)·q| = %.7f (float32 rotation, relative difference "
                      "%.2g)", v[0], v[1], rel);
}

static int relativity(tour *t, const pe_freqs *f) {
    enum { D = TOUR_ROPE_D };
    double q[D], k[D], v[3];
    tour_rope_qk(q, k);
    const int64_t off5[1] = {5}, ms[3] = {0, 1000, 1000000};
    for (int i = 0; i < 3; i++) TRY(pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, ms[i], off5, 1, &v[i]));
    tour_inputs(t, "relativity", v, 3);
    const double spread = fmax(fabs(v[1] - v[0]), fabs(v[2] - v[0]));
    /* double angles up to 10^6 rad: reduction error about 1e-10 at most */
    const int holds = spread <= 1e-9 * fmax(1.0, fabs(v[0]));
    char say[640];
    if (holds)
        snprintf(say, sizeof say, "RoPE's score depends on the offset alone: q at m and k at m + 5 score %.6f "
                                  "for m = 0, 1000 and 10^6 alike.", v[0]);
    else
        snprintf(say, sizeof say, "q at m and k at m + 5 do NOT score the same for m = 0, 1000 and 10^6 "
                                  "(they differ by %.2g): the score depends on more than the offset.", spread);
    return tour_claim(t, "rope", "relativity", holds, "relativity", say,
                      "scores %.9f, %.9f, %.9f (largest difference %.2g)", v[0], v[1], v[2], spread);
}

static int direction(tour *t, const pe_freqs *f) {
    enum { D = TOUR_ROPE_D };
    double q[D], k[D], u[D], s7[2], u7[2];
    tour_rope_qk(q, k);
    for (int i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0; /* (1, 0) in every half-split pair */
    const int64_t pm7[2] = {7, -7};
    TRY(pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, 100, pm7, 2, s7));
    TRY(pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 100, pm7, 2, u7));
    double v[4] = {s7[0], s7[1], u7[0], u7[1]};
    tour_inputs(t, "direction", v, 4);
    const int rope_sees = fabs(v[0] - v[1]) > 1e-3, sin_blind = fabs(v[2] - v[3]) <= 1e-12 * fmax(1, fabs(v[2]));
    const int holds = rope_sees && sin_blind;
    char say[640];
    snprintf(say, sizeof say,
             "RoPE knows direction: the same q and k score %.3f at offset +7 and %.3f at -7%s, while the sinusoidal "
             "codes' dot product gives %.3f and %.3f%s",
             v[0], v[1], rope_sees ? "" : " (NOT different)", v[2], v[3],
             sin_blind ? ", the same for both." : ": NOT blind to the sign.");
    return tour_claim(t, "rope", "direction", holds, "direction", say,
                      "D = 64, query at m = 100: RoPE score(+7) - score(-7) = %.6f; sinusoidal Σ cos(kω_i): %.2g",
                      v[0] - v[1], v[2] - v[3]);
}

static int locality(tour *t, const pe_freqs *f) {
    enum { D = TOUR_ROPE_D };
    double u[D];
    for (int i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0;
    const int64_t far[4] = {0, 10, 100, 1000};
    double v[4];
    TRY(pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 0, far, 4, v));
    tour_inputs(t, "locality", v, 4);
    const int holds = v[0] > v[1] && v[1] > v[2] && v[2] > v[3];
    char say[640];
    snprintf(say, sizeof say,
             "Locality: for aligned q and k the score %s as the offset grows, %.1f at k = 0, %.1f at 10, %.1f at "
             "100, %.1f at 1000, because pair after pair turns out of phase.",
             holds ? "falls" : "does NOT fall steadily", v[0], v[1], v[2], v[3]);
    return tour_claim(t, "rope", "locality", holds, "locality", say,
                      "Σ_i cos(k·ω_i), D = 64: %.2f at k = 0, %.2f at k = 10, %.2f at k = 100, %.2f at k = 1000",
                      v[0], v[1], v[2], v[3]);
}

static int flip(tour *t) {
    pe_freqs one;
    TRY(pe_freqs_default(2, 10.0, &one));
    one.inv_freq[0] = 1e-4;
    double v[1], turns;
    TRY(pe_pair_periods(&one, 32000, NULL, NULL, &v[0], &turns));
    tour_inputs(t, "flip", v, 1);
    /* cos turns negative at a quarter turn; past a half turn the pair's term
     * is near its most negative: full strength against the score */
    const int holds = v[0] > PI && cos(v[0]) < -0.9;
    char say[640];
    snprintf(say, sizeof say,
             "Even a slow pair turns against the score: with ω = 10^-4, offset 32000 turns it by %.2f rad (%.1f°), "
             "%s a half turn, so its term, full strength at offset 0, is %s (cos = %.3f). It changed sign already "
             "at a quarter turn, offset %.0f.",
             v[0], v[0] * 180 / PI, v[0] > PI ? "past" : "NOT past",
             cos(v[0]) < -0.9 ? "now almost fully reversed" : "NOT reversed", cos(v[0]), PI / 2 / one.inv_freq[0]);
    return tour_claim(t, "rope", "flip", holds, "flip", say,
                      "phase at k = 32000: %.4f rad = %.2f°; cos = %.4f; cos < 0 for k in (%.0f, %.0f)", v[0],
                      v[0] * 180 / PI, cos(v[0]), PI / 2 / one.inv_freq[0], 1.5 * PI / one.inv_freq[0]);
}

static int aliasing(tour *t) {
    pe_freqs one;
    TRY(pe_freqs_default(2, 10.0, &one));
    one.inv_freq[0] = 1.0;
    double v[2];
    TRY(pe_pair_periods(&one, 44, NULL, NULL, &v[1], &v[0]));
    tour_inputs(t, "aliasing", v, 2);
    const double from0 = (v[1] > PI ? v[1] - 2 * PI : v[1]) * 180 / PI;
    const int holds = v[0] > 1 && fabs(from0) < 2.0;
    char say[640];
    snprintf(say, sizeof say,
             "Fast pairs alias: pair 0 (ω = 1) has turned %.2f times at offset 44 and sits %.2f° from where it "
             "started, so %s; only the slower pairs tell them apart.",
             v[0], from0, holds ? "to this pair offsets 0 and 44 look alike" : "it does NOT confuse 44 with 0");
    return tour_claim(t, "rope", "aliasing", holds, "aliasing", say,
                      "pair 0 at offset 44: %.2f turns, phase %.4f rad (%.2f° from offset 0)", v[0], v[1], from0);
}

/* The offset in [lo, hi] where the code moves least, and the distance. */
static int closest(const pe_freqs *f, int64_t lo, int64_t hi, double *k, double *d) {
    int64_t off = 0, found = 0;
    int st = pe_near_collisions(f, lo, hi, 1, &off, d, &found);
    *k = (double)off;
    return st;
}

static int collisions(tour *t) {
    pe_freqs sbuf, lbuf, *s = &sbuf, *l = &lbuf;
    TRY(pe_freqs_default(TOUR_COLL_SMALL_D, 10000.0, s));
    TRY(pe_freqs_default(TOUR_COLL_LARGE_D, 10000.0, l));
    /* v: small D's closest offset in [2, max] and its distance, its step
     * to the next token; large D's closest in [from, max], its distance,
     * and the distance at offset 10. */
    double v[6], k1;
    int st = closest(s, 2, TOUR_COLL_MAX, &v[0], &v[1]);
    if (st == PE_OK) st = closest(s, 1, 1, &k1, &v[2]);
    if (st == PE_OK) st = closest(l, TOUR_COLL_LARGE_FROM, TOUR_COLL_MAX, &v[3], &v[4]);
    if (st == PE_OK) st = closest(l, 10, 10, &k1, &v[5]);
    if (st != PE_OK) return tour_fail(t, st);
    tour_inputs(t, "collisions", v, 6);
    const int interior = v[0] > 2 && v[0] < TOUR_COLL_MAX && v[3] > TOUR_COLL_LARGE_FROM && v[3] < TOUR_COLL_MAX;
    const int small_close = v[1] > 0 && v[1] < v[2], large_far = v[4] > v[5];
    const int holds = interior && small_close && large_far;
    char say[640];
    snprintf(say, sizeof say,
             "No offset returns exactly, but with few pairs a far one comes close: at D = %d, offset %.0f lands "
             "%.3f from the start, %s than the next token (%.3f). With D = %d the closest offset in [10^4, 10^5] "
             "(%.0f, at %.2f) stays %s than offset 10 (%.2f): more slow pairs push near-collisions out%s",
             TOUR_COLL_SMALL_D, v[0], v[1], small_close ? "closer" : "NOT closer", v[2], TOUR_COLL_LARGE_D, v[3],
             v[4], large_far ? "farther" : "NOT farther", v[5],
             interior ? "." : " (a closest offset sits at the edge of its range: the search is too short).");
    return tour_claim(t, "rope", "collisions", holds, "collisions", say,
                      "|PE(p+k) - PE(p)| for unit pairs, base 10^4. D = %d: closest k in [2, 10^5] is %.0f at %.4f; "
                      "k = 1 at %.4f. D = %d: closest k in [10^4, 10^5] is %.0f at %.4f; k = 10 at %.4f",
                      TOUR_COLL_SMALL_D, v[0], v[1], v[2], TOUR_COLL_LARGE_D, v[3], v[4], v[5]);
}

int tour_rope_claims(tour *t) {
    pe_freqs fbuf, *f = &fbuf;
    TRY(pe_freqs_default(TOUR_ROPE_D, 10000.0, f));
    int st = rotation(t, f);
    if (st == 0) st = relativity(t, f);
    if (st == 0) st = direction(t, f);
    if (st == 0) st = locality(t, f);
    if (st == 0) st = flip(t);
    if (st == 0) st = aliasing(t);
    if (st == 0) st = collisions(t);
    return st;
}

int tour_scaling_claims(tour *t) {
    enum { D = TOUR_SCALE_D, H = TOUR_SCALE_D / 2 };
    double low, high;
    TRY(pe_yarn_correction_range(D, 10000.0, TOUR_YARN_L0, 32, 1, 1, &low, &high));
    pe_freqs fbuf, dbuf, *f = &fbuf, *d = &dbuf;
    double w[H];
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LLAMA3, D);
    s.base = TOUR_LLAMA3_BASE;
    int st = pe_freqs_from_scaling(&s, f, w);
    double v[7] = {0};
    for (int i = 0; st == PE_OK && i < H; i++) v[w[i] == 1.0 ? 0 : w[i] == 0.0 ? 1 : 2] += 1;
    pe_rope_scaling y = pe_rope_scaling_defaults(PE_SCALING_YARN, D);
    y.factor = TOUR_YARN_FACTOR;
    y.original_max_position = TOUR_YARN_L0;
    if (st == PE_OK) st = pe_freqs_from_scaling(&y, f, NULL);
    v[3] = low;
    v[4] = high;
    v[5] = f->attention_factor;
    pe_rope_scaling dy = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, D);
    dy.factor = 4;
    dy.max_position = 4096;
    dy.seq_len = 4096;
    if (st == PE_OK) st = pe_freqs_from_scaling(&dy, f, NULL);
    if (st == PE_OK) st = pe_freqs_default(D, 10000.0, d);
    if (st == PE_OK) v[6] = memcmp(f->inv_freq, d->inv_freq, sizeof(double) * H) == 0;
    if (st != PE_OK) return tour_fail(t, st);
    tour_inputs(t, "scaling", v, 7);
    const int llama = v[0] > 0 && v[1] > 0 && v[0] + v[1] + v[2] == H;
    const int yarn = v[3] > 0 && v[3] < v[4] && v[4] < H && v[5] > 1;
    const int dyn = v[6] == 1;
    const int holds = llama && yarn && dyn;
    char say[640];
    snprintf(say, sizeof say,
             "Scaling stretches the slow pairs and spares the fast ones: Llama 3 keeps %.0f fast pairs, scales %.0f "
             "slow ones by 1/8 and blends %.0f%s; YaRN (f = 10 from 2048 tokens) ramps between pairs %g and %g and "
             "scales the rotated q and k by A = %.3f, so their logits by A² = %.3f%s; dynamic NTK at the trained "
             "length %s.",
             v[0], v[1], v[2], llama ? "" : " (NOT a split)", v[3], v[4], v[5], v[5] * v[5],
             yarn ? "" : " (NOT a ramp)",
             dyn ? "leaves every frequency as it was" : "CHANGES the frequencies");
    return tour_claim(t, "scaling", "scaling", holds, "scaling", say,
                      "Llama 3 (D = 128, base 5·10^5, factor 8): %.0f pairs kept, %.0f scaled by 1/8, %.0f blended; "
                      "YaRN (D = 128, base 10^4, f = 10, L0 = 2048) correction range [%g, %g], magnitude A = %.4f; "
                      "dynamic NTK at s = L: %s the default",
                      v[0], v[1], v[2], v[3], v[4], v[5], v[6] == 1 ? "bit-identical to" : "DIFFERENT FROM");
}
