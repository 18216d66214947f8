/*
 * tour_rope.c — the tour's RoPE claims in the notes' order (rotation,
 * relativity, direction, locality, the flip, aliasing, near-collisions) and
 * the scaling schemes. Same pattern as tour_claims.c: name the inputs,
 * tour_inputs() (a test may perturb them), compute through the library,
 * judge, say what the numbers show.
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
    /* input: the magnitude A the rotated pairs are scaled by (plain RoPE: 1;
     * YaRN's A = 1.23 would make this more than a rotation) */
    double in[1] = {1.0};
    tour_inputs(t, "rotation", in, 1);
    pe_freqs fa = *f;
    fa.attention_factor = in[0];
    pe_positions big = pe_positions_range(123456);
    pe_tensor tin = pe_tensor_dense(qf, PE_F32, 1, 1, D), tout = pe_tensor_dense(rq, PE_F32, 1, 1, D);
    TRY(pe_rope_apply(&fa, PE_ROPE_HALF, &big, &tin, &tout, PE_ROPE_FORWARD));
    double v[2] = {0, 0};
    for (int i = 0; i < D; i++) {
        v[0] += (double)qf[i] * qf[i];
        v[1] += (double)rq[i] * rq[i];
    }
    v[0] = sqrt(v[0]);
    v[1] = sqrt(v[1]);
    const double rel = fabs(v[1] - v[0]) / v[0];
    /* float32 rotation of 64 elements: a few ulps of 6e-8 */
    const int holds = rel <= 1e-6;
    char say[1024];
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
    const int64_t ms[3] = {0, 1000, 1000000};
    double in[3] = {5, 5, 5}; /* the key's offset from the query at each m */
    tour_inputs(t, "relativity", in, 3);
    for (int i = 0; i < 3; i++) {
        const int64_t off[1] = {(int64_t)in[i]};
        TRY(pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, ms[i], off, 1, &v[i]));
    }
    const double spread = fmax(fabs(v[1] - v[0]), fabs(v[2] - v[0]));
    /* double angles up to 10^6 rad: reduction error about 1e-10 at most */
    const int holds = spread <= 1e-9 * fmax(1.0, fabs(v[0]));
    char say[1024];
    if (holds)
        snprintf(say, sizeof say, "RoPE's score depends on the offset alone: q at m and k at m + 5 score %.6f "
                                  "for m = 0, 1000 and 10^6 alike.", v[0]);
    else
        snprintf(say, sizeof say, "q at m and k at m + (%g, %g, %g) do NOT score the same for m = 0, 1000 and 10^6 "
                                  "(they differ by %.2g): the score depends on more than the offset.", in[0], in[1],
                 in[2], spread);
    return tour_claim(t, "rope", "relativity", holds, "relativity", say,
                      "offsets %g, %g, %g: scores %.9f, %.9f, %.9f (largest difference %.2g)", in[0], in[1], in[2],
                      v[0], v[1], v[2], spread);
}

static int direction(tour *t, const pe_freqs *f) {
    enum { D = TOUR_ROPE_D };
    double q[D], k[D], u[D], s7[2], u7[2];
    tour_rope_qk(q, k);
    for (int i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0; /* (1, 0) in every half-split pair */
    double in[2] = {7, -7}; /* the two offsets compared */
    tour_inputs(t, "direction", in, 2);
    const int64_t pm7[2] = {(int64_t)in[0], (int64_t)in[1]};
    TRY(pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, 100, pm7, 2, s7));
    TRY(pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 100, pm7, 2, u7));
    double v[4] = {s7[0], s7[1], u7[0], u7[1]};
    const int rope_sees = fabs(v[0] - v[1]) > 1e-3, sin_blind = fabs(v[2] - v[3]) <= 1e-12 * fmax(1, fabs(v[2]));
    const int holds = rope_sees && sin_blind;
    char say[1024];
    snprintf(say, sizeof say,
             "RoPE knows direction: the same q and k score %.3f at offset %+g and %.3f at %+g%s, while the sinusoidal "
             "codes' dot product gives %.3f and %.3f%s",
             v[0], in[0], v[1], in[1], rope_sees ? "" : " (NOT different)", v[2], v[3],
             sin_blind ? ", the same for both." : ": NOT blind to the sign.");
    return tour_claim(t, "rope", "direction", holds, "direction", say,
                      "D = 64, query at m = 100: RoPE score(+7) - score(-7) = %.6f; sinusoidal Σ cos(kω_i): %.2g",
                      v[0] - v[1], v[2] - v[3]);
}

/* Locality. The score of aligned q and k (all-ones pairs: Σ_i cos(kω_i),
 * which is also, up to |q|², the mean over random q of q·R(k)q) is not
 * monotone step by step; what falls is its average over each octave of
 * offsets [2^j, 2^(j+1)). For independent random q and k the expected
 * score is zero at every offset: there is nothing to decay. */
enum { LOC_OCTAVES = 16, LOC_FALLING = 12 };
static int locality(tour *t) {
    enum { D = TOUR_ROPE_D, N = 1 << LOC_OCTAVES };
    double in[1] = {10000.0}; /* the base */
    tour_inputs(t, "locality", in, 1);
    pe_freqs fb;
    TRY(pe_freqs_default(D, in[0], &fb));
    double u[D];
    for (int i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0;
    int64_t *ks = malloc(sizeof(int64_t) * N);
    double *sc = malloc(sizeof(double) * N);
    if (ks == NULL || sc == NULL) {
        free(ks);
        free(sc);
        return tour_fail(t, PE_ERR_NOMEM);
    }
    for (int64_t k = 0; k < N; k++) ks[k] = k;
    int st = pe_rope_score_curve(&fb, PE_ROPE_HALF, D, u, u, 0, ks, N, sc);
    double oct[LOC_OCTAVES];
    int rises = 0;
    if (st == PE_OK) {
        for (int j = 0; j < LOC_OCTAVES; j++) {
            const int64_t lo = (int64_t)1 << j, hi = (int64_t)1 << (j + 1);
            double sum = 0;
            for (int64_t k = lo; k < hi; k++) sum += sc[k];
            oct[j] = sum / (double)(hi - lo);
        }
        for (int k = 1; k <= 2000; k++) rises += sc[k] > sc[k - 1];
    }
    const double at0 = st == PE_OK ? sc[0] : 0;
    free(ks);
    free(sc);
    if (st != PE_OK) return tour_fail(t, st);
    int falls = 1;
    for (int j = 1; j < LOC_FALLING; j++) falls &= oct[j] < oct[j - 1];
    double tail = 0;
    for (int j = LOC_FALLING; j < LOC_OCTAVES; j++) tail = fmax(tail, fabs(oct[j]));
    const int settles = tail < 0.1 * at0;
    const int holds = falls && settles;
    char say[1024];
    snprintf(say, sizeof say,
             "Locality, said precisely: for aligned q and k (every pair (1, 0)) the score %s octave by octave "
             "when averaged over each octave of offsets [2^j, 2^(j+1)), from %.1f at k = 0 and %.1f at k = 1 to "
             "%.1f over [1024, 2048), and from k = 4096 to 65535 its octave averages stay within ±%.1f of zero%s. "
             "It is not a steady fall step by step (it rises on %d of the first 2000 unit steps), and for "
             "independent random q and k the expected score is zero at every offset: nothing decays there.",
             falls ? "falls" : "does NOT fall", at0, oct[0], oct[10], tail, settles ? "" : " (NOT near zero)", rises);
    return tour_claim(t, "rope", "locality", holds, "locality", say,
                      "Σ_i cos(k·ω_i), D = 64, base %g; octave averages for j = 0..15: %.2f %.2f %.2f %.2f %.2f %.2f "
                      "%.2f %.2f %.2f %.2f %.2f %.2f | %.2f %.2f %.2f %.2f (falling through j = 11, then within "
                      "±%.2f); rises on %d of the steps k -> k+1, k < 2000",
                      in[0], oct[0], oct[1], oct[2], oct[3], oct[4], oct[5], oct[6], oct[7], oct[8], oct[9], oct[10],
                      oct[11], oct[12], oct[13], oct[14], oct[15], tail, rises);
}

static int flip(tour *t) {
    double in[2] = {1e-4, 32000}; /* the notes' slow pair's ω and the offset */
    tour_inputs(t, "flip", in, 2);
    pe_freqs one;
    TRY(pe_freqs_default(2, 10.0, &one));
    one.inv_freq[0] = in[0];
    double v[1], turns;
    TRY(pe_pair_periods(&one, (int64_t)in[1], NULL, NULL, &v[0], &turns));
    /* cos turns negative at a quarter turn; past a half turn the pair's term
     * is near its most negative: full strength against the score */
    const int holds = v[0] > PI && cos(v[0]) < -0.9;
    char say[1024];
    snprintf(say, sizeof say,
             "Even a slow pair turns against the score: with ω = %g, offset %g turns it by %.2f rad (%.1f°), "
             "%s a half turn, so its term, full strength at offset 0, is %s (cos = %.3f). One note says the cosine "
             "turns negative past 180°; it is negative already past 90°, a quarter turn (offset %.0f here), and "
             "past 180° it is near its most negative.",
             in[0], in[1], v[0], v[0] * 180 / PI, v[0] > PI ? "past" : "NOT past",
             cos(v[0]) < -0.9 ? "now almost fully reversed" : "NOT reversed", cos(v[0]), PI / 2 / one.inv_freq[0]);
    return tour_claim(t, "rope", "flip", holds, "flip", say,
                      "phase at k = %g: %.4f rad = %.2f°; cos = %.4f; cos < 0 for k in (%.0f, %.0f)", in[1], v[0],
                      v[0] * 180 / PI, cos(v[0]), PI / 2 / one.inv_freq[0], 1.5 * PI / one.inv_freq[0]);
}

static int aliasing(tour *t) {
    double in[2] = {1.0, 44}; /* pair 0's ω and the offset */
    tour_inputs(t, "aliasing", in, 2);
    pe_freqs one;
    TRY(pe_freqs_default(2, 10.0, &one));
    one.inv_freq[0] = in[0];
    double v[2];
    TRY(pe_pair_periods(&one, (int64_t)in[1], NULL, NULL, &v[1], &v[0]));
    const double from0 = (v[1] > PI ? v[1] - 2 * PI : v[1]) * 180 / PI;
    const int holds = v[0] > 1 && fabs(from0) < 2.0;
    char say[1024];
    snprintf(say, sizeof say,
             "Fast pairs alias: pair 0 (ω = %g) has turned %.2f times at offset %g and sits %.2f° from where it "
             "started, so %s; only the slower pairs tell them apart.",
             in[0], v[0], in[1], from0,
             holds ? "to this pair offsets 0 and 44 look alike" : "it does NOT confuse this offset with 0");
    return tour_claim(t, "rope", "aliasing", holds, "aliasing", say,
                      "pair 0 at offset %g: %.2f turns, phase %.4f rad (%.2f° from offset 0)", in[1], v[0], v[1],
                      from0);
}

/* The offset in [lo, hi] where the code moves least, and the distance. */
static int closest(const pe_freqs *f, int64_t lo, int64_t hi, double *k, double *d) {
    int64_t off = 0, found = 0;
    int st = pe_near_collisions(f, lo, hi, 1, &off, d, &found);
    *k = (double)off;
    return st;
}

/* Near-collisions. At base 10^4 and D = 8 the four frequencies are 1,
 * 1/10, 1/100 and 1/1000, exactly ten times apart, so an offset of 1000·j
 * turns of the slowest pair is a whole number of turns of every pair, up to
 * the rounding of 2π·1000·j to an integer: j = 11 gives 69115.04. At D = 10,
 * 12, 16 the ratios are not powers of ten and nothing comes as close. */
static int collisions(tour *t) {
    double in[2] = {TOUR_COLL_SMALL_D, 10000.0}; /* the small head dim and the base */
    tour_inputs(t, "collisions", in, 2);
    const int64_t others[3] = {10, 12, 16};
    double k[4], d[4], k1, d1;
    pe_freqs fb;
    TRY(pe_freqs_default((int64_t)in[0], in[1], &fb));
    TRY(closest(&fb, 2, TOUR_COLL_MAX, &k[0], &d[0]));
    TRY(closest(&fb, 1, 1, &k1, &d1));
    for (int i = 0; i < 3; i++) {
        TRY(pe_freqs_default(others[i], in[1], &fb));
        TRY(closest(&fb, 2, TOUR_COLL_MAX, &k[i + 1], &d[i + 1]));
    }
    /* the whole-turn offset nearest k[0]: 2π·1000·j */
    const double j = round(k[0] / (2 * PI * 1000)), whole = 2 * PI * 1000 * j;
    const int on_turns = j >= 1 && fabs(k[0] - whole) < 0.5;
    const int closest_by_far = d[0] < d1 && d[0] * 5 < d[1] && d[0] * 5 < d[2] && d[0] * 5 < d[3];
    const int holds = on_turns && closest_by_far;
    char say[1024];
    snprintf(say, sizeof say,
             "No offset returns exactly, but at D = %g one comes close: offset %.0f lands %.3f from the start, "
             "%s than the next token (%.3f)%s. The reason is the base, not how few pairs there are: at base 10^4 "
             "D = 8's four frequencies are 1, 1/10, 1/100, 1/1000, and offset 2π·%.0f·1000 = %.2f is a whole number "
             "of turns of every pair, %s. At D = 10, 12, 16 the closest offsets up to 10^5 sit %.3f, %.3f, %.3f away.",
             in[0], k[0], d[0], d[0] < d1 ? "closer" : "NOT closer", d1,
             closest_by_far ? ", several times closer than at any nearby D" : " (NOT the closest by far)", j, whole,
             on_turns ? "and the offset found is its nearest integer" : "but the offset found is NOT there", d[1],
             d[2], d[3]);
    return tour_claim(t, "rope", "collisions", holds, "collisions", say,
                      "|PE(p+k) - PE(p)| for unit pairs, base %g, k in [2, 10^5]. D = %g: closest k = %.0f at "
                      "%.4f (k = 1 at %.4f; 2π·%.0f·1000 = %.3f). D = 10: k = %.0f at %.4f; D = 12: k = %.0f at "
                      "%.4f; D = 16: k = %.0f at %.4f",
                      in[1], in[0], k[0], d[0], d1, j, whole, k[1], d[1], k[2], d[2], k[3], d[3]);
}

/* Pairing. The notes pair dims (2i, 2i+1); the tour and Llama-family
 * models pair i with i + D/2 (half-split). Interleaved, R(m) is block
 * diagonal: a basis vector e_j rotates inside its own pair only. The two
 * layouts are one rotation up to a permutation of q's (and k's) rows. */
static int layouts(tour *t) {
    enum { D = 8 };
    double in[2] = {PE_ROPE_INTERLEAVED, 1}; /* the layout checked for 2x2 blocks; 1: permute */
    tour_inputs(t, "layout", in, 2);
    pe_freqs fb;
    TRY(pe_freqs_default(D, 10000.0, &fb));
    pe_positions at = pe_positions_range(5);
    const pe_rope_layout blocks = in[0] == PE_ROPE_HALF ? PE_ROPE_HALF : PE_ROPE_INTERLEAVED;
    /* R(5) column by column: how much of e_j lands outside (2i, 2i+1) */
    float e[D], col[D];
    double outside = 0, inside = 0;
    for (int j = 0; j < D; j++) {
        for (int r = 0; r < D; r++) e[r] = r == j ? 1.0f : 0.0f;
        pe_tensor ti = pe_tensor_dense(e, PE_F32, 1, 1, D), to = pe_tensor_dense(col, PE_F32, 1, 1, D);
        TRY(pe_rope_apply(&fb, blocks, &at, &ti, &to, PE_ROPE_FORWARD));
        for (int r = 0; r < D; r++) {
            if ((r ^ 1) == j || r == j) inside += fabs(col[r]);
            else outside = fmax(outside, fabs(col[r]));
        }
    }
    /* the permutation: interleaved q at (2i, 2i+1) is half-split q at (i, i + D/2) */
    double q[TOUR_ROPE_D], k[TOUR_ROPE_D];
    tour_rope_qk(q, k);
    float qi[D], qh[D], ri[D], rh[D];
    for (int i = 0; i < D / 2; i++) {
        qi[2 * i] = (float)q[2 * i];
        qi[2 * i + 1] = (float)q[2 * i + 1];
        qh[i] = in[1] != 0 ? qi[2 * i] : qi[i];
        qh[i + D / 2] = in[1] != 0 ? qi[2 * i + 1] : qi[i + D / 2];
    }
    pe_tensor a = pe_tensor_dense(qi, PE_F32, 1, 1, D), ra = pe_tensor_dense(ri, PE_F32, 1, 1, D);
    pe_tensor b = pe_tensor_dense(qh, PE_F32, 1, 1, D), rb = pe_tensor_dense(rh, PE_F32, 1, 1, D);
    TRY(pe_rope_apply(&fb, PE_ROPE_INTERLEAVED, &at, &a, &ra, PE_ROPE_FORWARD));
    TRY(pe_rope_apply(&fb, PE_ROPE_HALF, &at, &b, &rb, PE_ROPE_FORWARD));
    double perm_gap = 0;
    for (int i = 0; i < D / 2; i++) {
        perm_gap = fmax(perm_gap, fabs((double)rh[i] - ri[2 * i]));
        perm_gap = fmax(perm_gap, fabs((double)rh[i + D / 2] - ri[2 * i + 1]));
    }
    const int block = outside == 0 && inside > 0, same = perm_gap <= 1e-6;
    const int holds = block && same;
    char say[1024];
    snprintf(say, sizeof say,
             "Which dims form a pair is a convention. The notes pair (2i, 2i+1): then R(m) is block diagonal, "
             "2×2 rotations down the diagonal, and a basis vector turns only inside its own pair%s. This tour, "
             "like Llama and GPT-NeoX, pairs i with i + D/2 (half-split); moving q's rows (2i, 2i+1) to (i, i + "
             "D/2) and rotating half-split gives the interleaved result %s: the two layouts are the same rotation "
             "with the rows of q and k permuted, so a checkpoint must be read with the layout it was trained in.",
             block ? "" : " (NOT so here: it leaks into other dims)",
             same ? "exactly" : "NOT exactly (so they are NOT a permutation apart here)");
    return tour_claim(t, "rope", "layout", holds, NULL, say,
                      "D = 8, base 10^4, m = 5, %s layout: largest entry of R(5) outside the 2×2 blocks %.2g; "
                      "half-split of the permuted q against interleaved q, largest difference %.2g (float32)",
                      blocks == PE_ROPE_HALF ? "half-split" : "interleaved", outside, perm_gap);
}

/* The notes' "He ... Naveen" example: at 34 tokens a slow pair (w = 10^-4)
 * adds 0.0034 rad, about 0.2 degrees, while the fastest pair has turned
 * more than five times. */
static int gap34(tour *t) {
    double in[2] = {34, 1e-4}; /* the gap and the slow pair's frequency */
    tour_inputs(t, "gap34", in, 2);
    pe_freqs one;
    TRY(pe_freqs_default(2, 10.0, &one));
    one.inv_freq[0] = in[1];
    double slow, fast, turns;
    TRY(pe_pair_periods(&one, (int64_t)in[0], NULL, NULL, &slow, &turns));
    one.inv_freq[0] = 1.0;
    double fast_turns;
    TRY(pe_pair_periods(&one, (int64_t)in[0], NULL, NULL, &fast, &fast_turns));
    /* and in a real head, D = 128 at base 10^4: how many pairs stay under 1 degree at this gap */
    pe_freqs fb;
    TRY(pe_freqs_default(128, 10000.0, &fb));
    double ph[64];
    TRY(pe_pair_periods(&fb, (int64_t)in[0], NULL, NULL, ph, NULL));
    int calm = 0;
    for (int i = 0; i < 64; i++) calm += ph[i] * 180 / PI < 1.0;
    const double deg = slow * 180 / PI;
    const int holds = deg < 0.25 && cos(slow) > 0.9999 && fast_turns > 5;
    char say[1024];
    snprintf(say, sizeof say,
             "The notes' example: two words %g tokens apart. A slow pair (ω = 10^-4) adds %.4f rad = %.2f° to "
             "their angle, cos = %.6f, %s, while the fastest pair (ω = 1) has turned %.2f times. In a real head "
             "(D = 128, base 10^4) %d of the 64 pairs turn less than 1° over this gap: a link between them can "
             "live in those pairs, where position barely changes the score.",
             in[0], slow, deg, cos(slow), holds ? "about a fifth of a degree" : "NOT a fifth of a degree", fast_turns,
             calm);
    return tour_claim(t, "rope", "gap34", holds, NULL, say,
                      "offset %g: slow pair %.5f rad (%.3f°, cos %.7f); fast pair %.2f turns; D = 128, base 10^4: "
                      "%d pairs under 1°",
                      in[0], slow, deg, cos(slow), fast_turns, calm);
}

/* Two causal attention layers over the bag-of-words tokens, with every
 * position shifted by c: RoPE (rotating q and k inside each layer) or a
 * sinusoidal code added once to the input. out: (T, D) of layer 2. */
static int two_layers(int rope, int64_t c, float *out) {
    enum { T = TOUR_BAG_T, D = TOUR_BAG_D };
    float x[T * D], h[T * D];
    tour_bag_tokens(x);
    pe_attention_params p = pe_attention_params_default(T, T, D, D);
    p.causal = 1;
    pe_positions pos = pe_positions_range(c);
    int st = PE_OK;
    if (rope) {
        pe_freqs f;
        st = pe_freqs_default(D, 10000.0, &f);
        if (st == PE_OK) st = pe_attention_rope(&p, &f, PE_ROPE_INTERLEAVED, &pos, &pos, x, x, x, h);
        if (st == PE_OK) st = pe_attention_rope(&p, &f, PE_ROPE_INTERLEAVED, &pos, &pos, h, h, h, out);
        return st;
    }
    pe_additive_params a = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    float pe[T * D];
    st = pe_additive_encode(&a, &pos, T, pe, PE_F32);
    for (int i = 0; st == PE_OK && i < T * D; i++) x[i] += pe[i];
    if (st == PE_OK) st = pe_attention(&p, x, x, x, h);
    if (st == PE_OK) st = pe_attention(&p, h, h, h, out);
    return st;
}

static int every_layer(tour *t) {
    enum { T = TOUR_BAG_T, D = TOUR_BAG_D };
    double in[1] = {100}; /* how far every position moves */
    tour_inputs(t, "every-layer", in, 1);
    float r0[T * D], r1[T * D], a0[T * D], a1[T * D];
    TRY(two_layers(1, 0, r0));
    TRY(two_layers(1, (int64_t)in[0], r1));
    TRY(two_layers(0, 0, a0));
    TRY(two_layers(0, (int64_t)in[0], a1));
    double rope_gap = 0, add_gap = 0;
    for (int i = 0; i < T * D; i++) {
        rope_gap = fmax(rope_gap, fabs((double)r1[i] - r0[i]));
        add_gap = fmax(add_gap, fabs((double)a1[i] - a0[i]));
    }
    /* float32 rotations of angles up to ~100 rad: a few 1e-6 at most */
    const int holds = rope_gap < 1e-4 && add_gap > 1e-2;
    char say[1024];
    snprintf(say, sizeof say,
             "Added once or rotated in every layer: RoPE turns q and k inside each attention layer, so a stack "
             "of two causal layers over the same six tokens gives the same outputs when every position moves %g "
             "further (largest change %.1g, float32 rounding): each layer sees offsets only. A sinusoidal code "
             "added once to the input, through the same two layers, changes the outputs by %.2f: what later "
             "layers know of position is whatever the first layer mixed into the tokens%s.",
             in[0], rope_gap, add_gap, holds ? "" : " (NOT what these numbers show)");
    return tour_claim(t, "rope", "every-layer", holds, NULL, say,
                      "T = 6, D = 8, two causal layers, q = k = v = the layer's input; positions 0..5 against "
                      "%g..%g: RoPE max |Δ out| = %.2g, sinusoidal added at the input max |Δ out| = %.4f",
                      in[0], in[0] + 5, rope_gap, add_gap);
}

int tour_rope_claims(tour *t) {
    pe_freqs fbuf, *f = &fbuf;
    TRY(pe_freqs_default(TOUR_ROPE_D, 10000.0, f));
    int st = rotation(t, f);
    if (st == 0) st = relativity(t, f);
    if (st == 0) st = direction(t, f);
    if (st == 0) st = locality(t);
    if (st == 0) st = flip(t);
    if (st == 0) st = aliasing(t);
    if (st == 0) st = collisions(t);
    if (st == 0) st = layouts(t);
    if (st == 0) st = gap34(t);
    if (st == 0) st = every_layer(t);
    return st;
}

static int scaling_schemes(tour *t) {
    enum { D = TOUR_SCALE_D, H = TOUR_SCALE_D / 2 };
    /* inputs: Llama 3's factor, YaRN's factor, and the sequence length
     * dynamic NTK is asked about (its trained length, 4096) */
    double in[3] = {8, TOUR_YARN_FACTOR, 4096};
    tour_inputs(t, "scaling", in, 3);
    double low, high;
    TRY(pe_yarn_correction_range(D, 10000.0, TOUR_YARN_L0, 32, 1, 1, &low, &high));
    pe_freqs fbuf, dbuf, *f = &fbuf, *d = &dbuf;
    double w[H];
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LLAMA3, D);
    s.base = TOUR_LLAMA3_BASE;
    s.factor = in[0];
    int st = pe_freqs_from_scaling(&s, f, w);
    double v[9] = {0};
    for (int i = 0; st == PE_OK && i < H; i++) v[w[i] == 1.0 ? 0 : w[i] == 0.0 ? 1 : 2] += 1;
    /* how much slower Llama 3's slowest pair turns than the default's, and
     * whether its fastest pair is untouched */
    double llama_slow = 0, llama_fast_same = 0;
    if (st == PE_OK) st = pe_freqs_default(D, TOUR_LLAMA3_BASE, d);
    if (st == PE_OK) {
        llama_slow = d->inv_freq[H - 1] / f->inv_freq[H - 1];
        llama_fast_same = d->inv_freq[0] == f->inv_freq[0];
    }
    pe_rope_scaling y = pe_rope_scaling_defaults(PE_SCALING_YARN, D);
    y.factor = in[1];
    y.original_max_position = TOUR_YARN_L0;
    if (st == PE_OK) st = pe_freqs_from_scaling(&y, f, NULL);
    v[3] = low;
    v[4] = high;
    v[5] = f->attention_factor;
    pe_rope_scaling dy = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, D);
    dy.factor = 4;
    dy.max_position = 4096;
    dy.seq_len = (int64_t)in[2];
    if (st == PE_OK) st = pe_freqs_from_scaling(&dy, f, NULL);
    if (st == PE_OK) st = pe_freqs_default(D, 10000.0, d);
    if (st == PE_OK) v[6] = memcmp(f->inv_freq, d->inv_freq, sizeof(double) * H) == 0;
    /* and past it, at s = 4L (the figure's panel): how much slower the
     * slowest pair turns, against the NTK formula's (f·s/L - (f-1)) */
    dy.seq_len = 4 * 4096;
    if (st == PE_OK) st = pe_freqs_from_scaling(&dy, f, NULL);
    if (st == PE_OK) {
        v[7] = d->inv_freq[H - 1] / f->inv_freq[H - 1];
        v[8] = d->inv_freq[1] / f->inv_freq[1];
    }
    if (st != PE_OK) return tour_fail(t, st);
    const double grow = 4.0 * 4 - 3; /* f·s/L - (f - 1) at f = 4, s = 4L */
    const int llama = v[0] > 0 && v[1] > 0 && v[0] + v[1] + v[2] == H && llama_slow > 1.5 && llama_fast_same;
    const int yarn = v[3] > 0 && v[3] < v[4] && v[4] < H && v[5] > 1;
    /* the base grows by grow^(d/(d-2)); pair i slows by that to the 2i/d */
    const int dyn = v[6] == 1 && fabs(v[7] - pow(grow, (double)(H - 1) * 2 / (D - 2))) < 1e-9 * v[7];
    const int holds = llama && yarn && dyn;
    char say[1024];
    snprintf(say, sizeof say,
             "Scaling stretches the slow pairs and spares the fast ones: Llama 3 keeps %.0f fast pairs, scales %.0f "
             "slow ones by 1/%g and blends %.0f%s; YaRN (f = %g from 2048 tokens) ramps between pairs %g and %g and "
             "scales the rotated q and k by A = %.3f, so their logits by A² = %.3f%s; dynamic NTK (factor 4) at "
             "s = %g %s, and only past the trained length raises the base: at s = 4L the slowest pair turns %.2f "
             "times slower, (f·s/L − (f − 1)) = %.0f to the power 2·63/126, the fastest pairs hardly at all.",
             v[0], v[1], in[0], v[2], llama ? "" : " (NOT a split)", in[1], v[3], v[4], v[5], v[5] * v[5],
             yarn ? "" : " (NOT a ramp)", in[2],
             v[6] == 1 ? "leaves every frequency as it was" : "CHANGES the frequencies", v[7], grow);
    return tour_claim(t, "scaling", "scaling", holds, "scaling", say,
                      "Llama 3 (D = 128, base 5·10^5, factor %g): %.0f pairs kept, %.0f scaled (the slowest turns "
                      "%.4g times slower, the fastest %s), %.0f blended; "
                      "YaRN (D = 128, base 10^4, f = %g, L0 = 2048) correction range [%g, %g], magnitude A = %.4f "
                      "(logits × A² = %.4f); dynamic NTK (factor 4, L = 4096) at s = %g: %s the default; at s = 4L: "
                      "slowest pair ÷ %.4f, pair 1 ÷ %.4f",
                      in[0], v[0], v[1], llama_slow, llama_fast_same ? "as before" : "CHANGED", v[2], in[1], v[3],
                      v[4], v[5], v[5] * v[5], in[2],
                      v[6] == 1 ? "bit-identical to" : "DIFFERENT FROM", v[7], v[8]);
}

/* NTK-aware scaling on its own: base b·f^(d/(d-2)). Pair 0 keeps w = 1;
 * pair i slows by f^(2i/(d-2)), so the slowest (i = d/2 - 1) by exactly f,
 * as position interpolation slows every pair. */
static int ntk(tour *t) {
    enum { D = TOUR_SCALE_D, H = TOUR_SCALE_D / 2 };
    double in[1] = {8}; /* the factor */
    tour_inputs(t, "ntk", in, 1);
    pe_rope_scaling n = pe_rope_scaling_defaults(PE_SCALING_NTK, D);
    n.factor = in[0];
    pe_freqs fb, db;
    TRY(pe_freqs_from_scaling(&n, &fb, NULL));
    TRY(pe_freqs_default(D, 10000.0, &db));
    const double first = db.inv_freq[0] / fb.inv_freq[0], mid = db.inv_freq[H / 2] / fb.inv_freq[H / 2],
                 last = db.inv_freq[H - 1] / fb.inv_freq[H - 1];
    const double want_mid = pow(8.0, (double)(2 * (H / 2)) / (D - 2));
    const int holds = fabs(first - 1) < 1e-12 && fabs(last - 8) < 1e-9 && fabs(mid - want_mid) < 1e-9;
    char say[1024];
    snprintf(say, sizeof say,
             "NTK-aware scaling changes only the base, to 10^4·8^(128/126) for factor 8 at D = 128. The fastest pair "
             "keeps its frequency (÷ %.6f), the middle pair turns %.4f times slower (8^(64/126)) and the slowest "
             "%.4f times slower%s: the fast pairs, which tell near tokens apart, are left alone, and only the "
             "slowest is divided by the whole factor, as position interpolation divides every pair.",
             first, mid, last, holds ? ", exactly the factor 8" : ": NOT the factor 8 at the slow end");
    return tour_claim(t, "scaling", "ntk", holds, NULL, say,
                      "D = 128, base 10^4, NTK factor %g: base %.2f; ω_0 ÷ %.12f, ω_32 ÷ %.9f (8^(64/126) = %.9f), "
                      "ω_63 ÷ %.9f",
                      in[0], fb.inv_freq[1] > 0 ? pow(fb.inv_freq[1], -(double)D / 2) : 0.0, first, mid, want_mid,
                      last);
}

int tour_scaling_claims(tour *t) {
    int st = scaling_schemes(t);
    if (st == 0) st = ntk(t);
    return st;
}
