/*
 * tour_claims.c — the tour's story up to the learned table: bag of words,
 * raw integers and the four terms, normalized, binary, sinusoidal (base,
 * sin and cos, M_k, entanglement, symmetry), learned. Each claim names the
 * inputs its sentence is about (a length, a base, a shift, a mask), passes
 * them through tour_inputs() (where a test may perturb them), computes its
 * numbers from them through the library, judges them, and says what they
 * show. A perturbed input is a different experiment, so every predicate can
 * fail: tests/cli/tour.sh shows each one failing.
 */
#include "tour.h"
#include "../figures/inputs.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A base as the notes write it: 10^4, 10^8; others as numbers. */
static const char *base_text(double b, char buf[32]) {
    const double e = round(log10(b));
    if (e >= 3 && e <= 15 && b == pow(10.0, e))
        snprintf(buf, 32, "10^%.0f", e);
    else
        snprintf(buf, 32, "%g", b);
    return buf;
}

#define TRY(expr)                                   \
    do {                                            \
        int st_ = (expr);                           \
        if (st_ != PE_OK) return tour_fail(t, st_); \
    } while (0)

/* max |attn(reversed x) - reversed attn(x)| with or without a causal mask. */
static int reversal_gap(tour *t, int causal, double *gap) {
    enum { T = TOUR_BAG_T, D = TOUR_BAG_D };
    float x[T * D], xr[T * D], o[T * D], orr[T * D];
    int64_t rev[T];
    tour_bag_tokens(x);
    for (int i = 0; i < T; i++) {
        rev[i] = T - 1 - i;
        memcpy(xr + i * D, x + rev[i] * D, sizeof(float) * D);
    }
    pe_attention_params p = pe_attention_params_default(T, T, D, D);
    p.causal = causal;
    TRY(pe_attention(&p, x, x, x, o));
    TRY(pe_attention(&p, xr, xr, xr, orr));
    TRY(pe_permutation_gap(o, orr, rev, T, D, gap));
    return 0;
}

static int bag_of_words(tour *t) {
    enum { T = TOUR_BAG_T, D = TOUR_BAG_D };
    /* input: whether the first run masks causally (the claim: it does not) */
    double in[1] = {0};
    tour_inputs(t, "bag", in, 1);
    double plain = 0, causal = 0;
    int st = reversal_gap(t, in[0] != 0, &plain);
    if (st == 0) st = reversal_gap(t, 1, &causal);
    if (st != 0) return st;
    /* float32 outputs of order one: a reordered sum differs by rounding, ~1e-7 */
    const int blind = plain <= 1e-6, masked_sees = causal > 1e-3;
    const int holds = blind && masked_sees;
    char say[1024];
    snprintf(say, sizeof say,
             "Without positions, attention %s: reversing the six tokens %s. The exception is a causal mask, "
             "which lets each token see only the ones before it: that is an order already, and reversing then "
             "%s (by %.2f).",
             blind ? "cannot see order" : "DOES see order here",
             blind ? "only reverses the six outputs" : "changes the outputs by more than rounding",
             masked_sees ? "changes the outputs" : "does NOT change the outputs", causal);
    return tour_claim(t, "bag", "bag", holds, "bag-of-words", say,
                      "max |attn(reversed x) - reversed attn(x)| over %d tokens of D = %d: %.2g %s (float32 "
                      "rounding is about 1e-7); %.3f with a causal mask", T, D, plain,
                      in[0] != 0 ? "with a causal mask (perturbed)" : "without a mask", causal);
}

static int four_terms(tour *t) {
    enum { D = TOUR_TOY_D };
    double Q[D * D], K[D * D], em[D], en[D], pm[D], pn[D];
    tour_toy_weights(Q, K, em, en);
    double in[2] = {TOUR_TOY_M, TOUR_TOY_N}; /* the query's and the key's position */
    tour_inputs(t, "toy-terms", in, 2);
    for (int i = 0; i < D; i++) {
        pm[i] = in[0];
        pn[i] = in[1];
    }
    pe_logit_terms lt;
    TRY(pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &lt));
    double v[5] = {lt.content_content, lt.content_position, lt.position_content, lt.position_position, lt.logit};
    const double sum = v[0] + v[1] + v[2] + v[3], rest = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
    const int adds_up = fabs(sum - v[4]) <= 1e-9 * fmax(1.0, fabs(v[4]));
    const int holds = adds_up && fabs(v[3]) > rest;
    char say[1024];
    if (!adds_up)
        snprintf(say, sizeof say, "The four terms (sum %.4g) do NOT add up to the logit %.4g.", sum, v[4]);
    else
        snprintf(say, sizeof say,
                 "With p_m = m·1 the logit is four terms, and at m = %g, n = %g the position-position term "
                 "(%.1f) %s the other three together (%.1f)%s",
                 in[0], in[1], v[3], holds ? "outweighs" : "does NOT outweigh", rest,
                 holds ? ": position, not content, decides this score." : ".");
    return tour_claim(t, "raw", "toy-terms", holds, "toy-terms", say,
                      "content-content %.3f, content-position %.1f, position-content %.1f, "
                      "position-position %.1f (sum %.1f = logit %.1f)",
                      v[0], v[1], v[2], v[3], sum, v[4]);
}

static int toy_drift(tour *t) {
    enum { D = TOUR_TOY_D, N = TOUR_TOY_KEYS };
    double Q[D * D], K[D * D], em[D], en[D], keys[N * D];
    int64_t kp[N];
    tour_toy_weights(Q, K, em, en);
    double in[1] = {1}; /* 1: centre Q's rows so that Q·1 = 0 (regime ii) */
    tour_inputs(t, "toy-drift", in, 1);
    if (in[0] != 0) tour_toy_regime2(Q);
    tour_toy_keys(keys);
    for (int n = 0; n < N; n++) kp[n] = n;
    pe_toy_report r;
    TRY(pe_toy_analyze(D, Q, K, em, N - 1, keys, kp, N, 1e-9, &r));
    double v[4] = {r.effective_slope, r.content_min, r.content_max, r.regime};
    const double drift = fabs(v[0]) * (N - 1), range = v[2] - v[1];
    const int regime2 = v[3] == PE_TOY_KEY_DRIFT;
    const int holds = regime2 && drift > range;
    char say[1024];
    if (!regime2)
        snprintf(say, sizeof say, "The centred Q was meant to put the toy design in regime ii (Q·1 = 0), "
                                  "but the library classifies it as regime %g.", v[3]);
    else
        snprintf(say, sizeof say,
                 "Even with Q·1 = 0 (regime ii) the logit drifts linearly with the key's position: the slope "
                 "(Q e_m)ᵀK1 = %+.4f is %s, so %s keys score higher, and the drift over %d keys (%.2f) %s every "
                 "content difference (%.2f)%s",
                 v[0], v[0] > 0 ? "positive" : "negative", v[0] > 0 ? "later" : "earlier", N, drift,
                 holds ? "beats" : "does NOT beat", range,
                 holds ? (v[0] > 0 ? ": the last keys win." : ": the first keys win.") : ": content still decides.");
    return tour_claim(t, "raw", "toy-drift", holds, "toy-drift", say,
                      "D = %d, query at m = %d, keys at n = 0..%d: slope %+.4f per position; drift %.2f vs content "
                      "range %.2f (sufficient condition for end-skew: drift > range)",
                      D, N - 1, N - 1, v[0], drift, range);
}

/* The toy's four regimes and how its terms grow. Centring Q's rows makes
 * Q1 = 0, centring K's rows K1 = 0: neither is regime iv (the m·n term),
 * Q alone ii, K alone iii, both i (positions vanish). With p_m = m·1 the
 * cross terms grow linearly in m or n and the position-position term with
 * m·n: ten times further, ten and a hundred times larger. */
static int toy_regimes(tour *t) {
    enum { D = TOUR_TOY_D, N = TOUR_TOY_KEYS };
    double in[1] = {1}; /* 1: centre K's rows where the regime needs K1 = 0 */
    tour_inputs(t, "toy-regimes", in, 1);
    double Q0[D * D], K0[D * D], em[D], en[D], keys[N * D];
    int64_t kp[N];
    tour_toy_weights(Q0, K0, em, en);
    tour_toy_keys(keys);
    for (int n = 0; n < N; n++) kp[n] = n;
    int got[4];
    for (int c = 0; c < 4; c++) { /* c bit 0: centre Q; bit 1: centre K */
        double Q[D * D], K[D * D];
        memcpy(Q, Q0, sizeof Q);
        memcpy(K, K0, sizeof K);
        if (c & 1) TRY(pe_zero_row_sums(Q, D, D));
        if ((c & 2) && in[0] != 0) TRY(pe_zero_row_sums(K, D, D));
        pe_toy_report r;
        TRY(pe_toy_analyze(D, Q, K, em, N - 1, keys, kp, N, 1e-9, &r));
        got[c] = (int)r.regime;
    }
    const int regimes = got[0] == PE_TOY_QUADRATIC && got[1] == PE_TOY_KEY_DRIFT && got[2] == PE_TOY_QUERY_SCALE &&
                        got[3] == PE_TOY_CONTENT_ONLY;
    /* growth of the four terms of the uncentred toy at (m, n) = s·(10, 9) */
    pe_logit_terms lt[3];
    for (int k = 0; k < 3; k++) {
        double pm[D], pn[D];
        const double scale = k == 0 ? 1 : k == 1 ? 10 : 100;
        for (int i = 0; i < D; i++) {
            pm[i] = 10 * scale;
            pn[i] = 9 * scale;
        }
        TRY(pe_logit_terms_compute(D, Q0, K0, em, en, pm, pn, &lt[k]));
    }
    const double cc = lt[2].content_content / lt[0].content_content,
                 cp = lt[2].content_position / lt[0].content_position,
                 pc = lt[2].position_content / lt[0].position_content,
                 pp = lt[2].position_position / lt[0].position_position;
    const int grows = fabs(cc - 1) < 1e-9 && fabs(cp - 100) < 1e-6 && fabs(pc - 100) < 1e-6 && fabs(pp - 1e4) < 1e-3;
    const int holds = regimes && grows;
    static const char *const roman[5] = {"?", "i", "ii", "iii", "iv"};
    const char *name[4];
    for (int c = 0; c < 4; c++) name[c] = got[c] >= 1 && got[c] <= 4 ? roman[got[c]] : "?";
    char say[1024];
    snprintf(say, sizeof say,
             "The toy design has four regimes, set by whether Q1 and K1 vanish. With neither zero it is regime %s "
             "(the m·n term dominates); centring Q's rows (Q1 = 0) gives %s (logits drift with the key's "
             "position), centring K's rows (K1 = 0) gives %s (the query's position scales the logit), and both "
             "give %s (positions vanish)%s. Moving both positions 100 times further, from (10, 9) to (1000, 900), "
             "multiplies the content term by %.0f, the two cross terms by %.0f and %.0f, and the position-position "
             "term by %.0f: position overtakes content quadratically.",
             name[0], name[1], name[2], name[3], regimes ? "" : ": NOT the four regimes of the notes", cc, cp, pc,
             pp);
    return tour_claim(t, "raw", "toy-regimes", holds, NULL, say,
                      "D = 8, query at m = 63, keys at n = 0..63: regimes %s, %s, %s, %s (none, Q, K, both centred). "
                      "Terms at (10, 9): %.3f, %.3f, %.3f, %.3f; at (1000, 900): %.3f, %.1f, %.1f, %.1f",
                      name[0], name[1], name[2], name[3], lt[0].content_content, lt[0].content_position,
                      lt[0].position_content, lt[0].position_position, lt[2].content_content,
                      lt[2].content_position, lt[2].position_content, lt[2].position_position);
}

static int normalized(tour *t) {
    double in[4] = {3, 5, 10, 100}; /* the input lengths L */
    tour_inputs(t, "normalized", in, 4);
    int64_t L[4];
    for (int i = 0; i < 4; i++) L[i] = (int64_t)in[i];
    double val[4], sp[4];
    TRY(pe_normalized_inconsistency(2, L, 4, val, sp));
    double v[6] = {val[0], val[1], val[2], val[3], sp[0], sp[3]};
    int distinct = 1;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) distinct &= fabs(v[i] - v[j]) > 1e-3;
    const int holds = distinct && fabs(v[4] - v[5]) > 1e-3;
    char say[1024];
    if (holds)
        snprintf(say, sizeof say,
                 "Dividing by the length bounds the values but breaks consistency: position 2 encodes as %.3f at "
                 "L = %lld and %.4f at L = %lld, and the step between neighbours shrinks from %.3f to %.4f.",
                 v[0], (long long)L[0], v[3], (long long)L[3], v[4], v[5]);
    else
        snprintf(say, sizeof say, "Position 2 encodes alike at some of the lengths %lld, %lld, %lld, %lld, or the "
                                  "neighbour spacing does not change: normalization looks consistent here.",
                 (long long)L[0], (long long)L[1], (long long)L[2], (long long)L[3]);
    return tour_claim(t, "normalized", "normalized", holds, "normalized", say,
                      "p = 2 encodes as %.4f (L = %lld), %.4f (L = %lld), %.4f (L = %lld), %.4f (L = %lld); "
                      "neighbour spacing %.4f (L = %lld) down to %.4f (L = %lld)",
                      v[0], (long long)L[0], v[1], (long long)L[1], v[2], (long long)L[2], v[3], (long long)L[3],
                      v[4], (long long)L[0], v[5], (long long)L[3]);
}

static int binary(tour *t) {
    double in[1] = {1024}; /* how many steps p -> p+1 from p = 0 */
    tour_inputs(t, "binary", in, 1);
    const int64_t steps = (int64_t)in[0];
    pe_hamming_report r;
    TRY(pe_binary_hamming(0, steps, NULL, &r));
    double v[4] = {(double)r.max_distance, (double)r.argmax, r.mean_distance, (double)r.jumps};
    const int holds = v[0] > 1;
    char say[1024];
    if (holds)
        snprintf(say, sizeof say,
                 "Binary codes are bounded and consistent but not smooth: the step from %.0f to %.0f flips %.0f "
                 "bits at once, and %.0f of the %lld steps flip more than one.", v[1], v[1] + 1, v[0], v[3],
                 (long long)steps);
    else
        snprintf(say, sizeof say, "No step between neighbours flips more than one bit here: the binary codes "
                                  "look smooth.");
    return tour_claim(t, "binary", "binary", holds, "binary", say,
                      "steps p -> p+1 for p = 0..%lld: at most %.0f bits (first at %.0f -> %.0f); mean %.3f bits "
                      "per step; %.0f steps flip more than one bit",
                      (long long)steps - 1, v[0], v[1], v[1] + 1, v[2], v[3]);
}

static int sinusoidal_value(tour *t) {
    double in[2] = {7, 1e4}; /* the position and the base */
    tour_inputs(t, "pe7", in, 2);
    pe_additive_params p4 = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    p4.base = in[1];
    const int64_t pos[1] = {(int64_t)in[0]};
    pe_positions p7 = pe_positions_list(pos);
    double v[4];
    TRY(pe_additive_encode(&p4, &p7, 1, v, PE_F64));
    /* D = 4, base 10^4: ω_0 = 1, ω_1 = 10^4^(-2/4) = 1/100 */
    const double want[4] = {sin(7.0), cos(7.0), sin(0.07), cos(0.07)};
    double err = 0;
    for (int i = 0; i < 4; i++) err = fmax(err, fabs(v[i] - want[i]));
    const int holds = err <= 4e-16;
    char say[1024];
    if (holds)
        snprintf(say, sizeof say,
                 "At D = 4 position 7 encodes as (sin 7, cos 7, sin 0.07, cos 0.07): two pairs, one turning a "
                 "radian per token and one turning a hundred times slower.");
    else
        snprintf(say, sizeof say, "At D = 4 position %g, base %g, does NOT encode as (sin 7, cos 7, sin 0.07, "
                                  "cos 0.07): off by %.2g.", in[0], in[1], err);
    return tour_claim(t, "sinusoidal", "pe7", holds, "waves", say,
                      "PE(%g) = (%.5f, %.5f, %.5f, %.5f). The seeds' sheet prints the third value as "
                      "0.0698; sin(0.07) = %.9f rounds to %.4f: trust the math.",
                      in[0], v[0], v[1], v[2], v[3], v[2], v[2]);
}

static int sinusoidal_base(tour *t) {
    /* D = 128: per base, the pairs that complete a turn within 1000 tokens
     * and the pairs that turn less than 0.1 rad over them (barely move). */
    double bases[3] = {100.0, 1e4, 1e8}; /* the inputs: small, the paper's, large */
    tour_inputs(t, "base", bases, 3);
    double v[6] = {0}, wl_fast = 0, wl_slow = 0;
    pe_freqs fbuf, *f = &fbuf;
    double wl[64], ph[64];
    int st = PE_OK;
    for (int b = 0; b < 3 && st == PE_OK; b++) {
        st = pe_freqs_default(128, bases[b], f);
        if (st == PE_OK) st = pe_pair_periods(f, 0, wl, NULL, NULL, NULL);
        for (int i = 0; st == PE_OK && i < 64; i++) {
            ph[i] = 1000.0 * f->inv_freq[i];
            v[b] += wl[i] <= 1000.0;
            v[3 + b] += ph[i] < 0.1;
        }
        if (st == PE_OK && b == 1) {
            wl_fast = wl[0];
            wl_slow = wl[63];
        }
    }
    if (st != PE_OK) return tour_fail(t, st);
    /* dims 126 and 127 (the slowest pair: a sine and a cosine) over
     * positions 0..1000 at the large base: one note calls dim 127 flat at
     * zero, but a cosine of a tiny angle is flat at one */
    double lo126 = INFINITY, hi126 = -INFINITY, lo127 = INFINITY, hi127 = -INFINITY;
    {
        enum { NP = 1001, DD = 128 };
        double *rows = malloc(sizeof(double) * NP * DD);
        if (rows == NULL) return tour_fail(t, PE_ERR_NOMEM);
        pe_additive_params pl = pe_additive_defaults(PE_ADD_SINUSOIDAL, DD);
        pl.base = bases[2];
        pe_positions all = pe_positions_range(0);
        st = pe_additive_encode(&pl, &all, NP, rows, PE_F64);
        for (int p = 0; st == PE_OK && p < NP; p++) {
            lo126 = fmin(lo126, rows[p * DD + 126]);
            hi126 = fmax(hi126, rows[p * DD + 126]);
            lo127 = fmin(lo127, rows[p * DD + 127]);
            hi127 = fmax(hi127, rows[p * DD + 127]);
        }
        free(rows);
        if (st != PE_OK) return tour_fail(t, st);
    }
    const int holds = v[0] == 64 && v[5] >= 16 && v[1] < 64 && v[4] == 0 && lo127 > 0.999 && fabs(lo126) < 0.02 &&
                      fabs(hi126) < 0.02;
    char say[1024], all[64];
    if (v[0] == 64)
        snprintf(all, sizeof all, "all 64 pairs");
    else
        snprintf(all, sizeof all, "only %.0f of the 64 pairs", v[0]);
    char b0[32], b1[32], b2[32];
    base_text(bases[0], b0);
    base_text(bases[1], b1);
    base_text(bases[2], b2);
    snprintf(say, sizeof say,
             "The base sets the spread of wavelengths. At base %s %s of D = 128 complete a turn within 1000 "
             "tokens%s; at base %s, %.0f pairs turn less than 0.1 rad and barely move; base %s sits between "
             "(%.0f pairs turn, %.0f frozen)%s At base %s the slowest pair's dim 126 (a sine) stays near 0 and "
             "dim 127 (a cosine) stays at 1; one note says dim 127 is flat at zero, but it is flat at one.",
             b0, all, v[0] == 64 ? ", so even the slowest repeats" : "", b2, v[5], b1, v[1], v[4],
             holds ? "." : ": NOT the spread the notes describe.", b2);
    return tour_claim(t, "sinusoidal", "base", holds, "base-grid", say,
                      "pairs completing a turn within 1000 tokens: %.0f (base %s), %.0f (%s), %.0f (%s); "
                      "pairs turning < 0.1 rad in 1000 tokens: %.0f, %.0f, %.0f. Base %s, positions 0..1000: dim 126 "
                      "in [%.2g, %.2g], dim 127 in [%.12f, %.0f]. Wavelengths at base 10^4, D = 128 run from %.4f "
                      "(2π) to %.0f = 2π·%.0f, about 2π·10^4 (one note says 10000π, which is half of that)",
                      v[0], b0, v[1], b1, v[2], b2, v[3], v[4], v[5], b2, lo126, hi126,
                      lo127, hi127, wl_fast, wl_slow, wl_slow / (2 * 3.14159265358979323846));
}

static int sinusoidal_shift(tour *t) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 64);
    double in[1] = {17}; /* the shift M is built from (the target is always p + 17) */
    tour_inputs(t, "shift", in, 1);
    double a[64], b[64], ma[64], v[1] = {0};
    const int64_t ps[3] = {0, 1000, 123456};
    for (int r = 0; r < 3; r++) {
        pe_positions pa = pe_positions_range(ps[r]), pb = pe_positions_range(ps[r] + 17);
        TRY(pe_additive_encode(&p, &pa, 1, a, PE_F64));
        TRY(pe_additive_encode(&p, &pb, 1, b, PE_F64));
        TRY(pe_shift_apply(&p, (int64_t)in[0], a, ma));
        for (int j = 0; j < 64; j++) v[0] = fmax(v[0], fabs(ma[j] - b[j]));
    }
    /* angles of up to 1.2·10^5 rad reduced in double: a few 1e-12 at most */
    const int holds = v[0] <= 1e-9;
    char say[1024];
    if (holds)
        snprintf(say, sizeof say,
                 "Why both sin and cos: one fixed matrix M_17, built from the shift k = 17 alone, carries PE(p) "
                 "to PE(p + 17) at p = 0, 1000 and 123456 alike.");
    else
        snprintf(say, sizeof say, "M_%g does NOT carry PE(p) to PE(p + 17) at every p: off by %.2g.", in[0], v[0]);
    return tour_claim(t, "sinusoidal", "shift", holds, "shift", say,
                      "D = 64: max |M_%g·PE(p) - PE(p + 17)| = %.2g over p = 0, 1000, 123456 (one matrix for all)",
                      in[0], v[0]);
}

/* Why the cosine is needed: sin((p + k)ω) = sin(pω)cos(kω) + cos(pω)sin(kω)
 * needs cos(pω). With the sine alone, the best single number a fitting
 * sin((p+k)ω) ≈ a·sin(pω) over many p leaves a large error; with the pair
 * (sin, cos) a 2x2 matrix fits exactly. Least squares over p = 0..N-1. */
static int sine_alone(tour *t) {
    enum { N = 1000, K = 17 };
    double in[1] = {1}; /* 1: the pair fit may use the cosine; 0: sine only */
    tour_inputs(t, "sine-alone", in, 1);
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 2); /* one pair, ω = 1 */
    double *rows = malloc(sizeof(double) * 2 * (N + K));
    if (rows == NULL) return tour_fail(t, PE_ERR_NOMEM);
    pe_positions all = pe_positions_range(0);
    int st = pe_additive_encode(&p, &all, N + K, rows, PE_F64);
    if (st != PE_OK) {
        free(rows);
        return tour_fail(t, st);
    }
    /* sine only: a = Σ s_p s_(p+k) / Σ s_p² */
    double ss = 0, st_ = 0;
    for (int i = 0; i < N; i++) {
        ss += rows[2 * i] * rows[2 * i];
        st_ += rows[2 * i] * rows[2 * (i + K)];
    }
    const double a = st_ / ss;
    double err1 = 0, norm = 0;
    for (int i = 0; i < N; i++) {
        const double r = rows[2 * (i + K)] - a * rows[2 * i];
        err1 += r * r;
        norm += rows[2 * (i + K)] * rows[2 * (i + K)];
    }
    err1 = sqrt(err1 / norm);
    /* the pair: 2x2 normal equations for the sine target from (s_p, c_p),
     * or from (s_p, 0) when perturbed to sine only */
    const double use_cos = in[0] != 0 ? 1.0 : 0.0;
    double g00 = 0, g01 = 0, g11 = 0, b0 = 0, b1 = 0;
    for (int i = 0; i < N; i++) {
        const double x0 = rows[2 * i], x1 = use_cos * rows[2 * i + 1], y = rows[2 * (i + K)];
        g00 += x0 * x0;
        g01 += x0 * x1;
        g11 += x1 * x1;
        b0 += x0 * y;
        b1 += x1 * y;
    }
    const double det = g00 * g11 - g01 * g01;
    const double m0 = det != 0 ? (b0 * g11 - b1 * g01) / det : b0 / g00;
    const double m1 = det != 0 ? (g00 * b1 - g01 * b0) / det : 0;
    double err2 = 0;
    for (int i = 0; i < N; i++) {
        const double r = rows[2 * (i + K)] - m0 * rows[2 * i] - m1 * use_cos * rows[2 * i + 1];
        err2 += r * r;
    }
    err2 = sqrt(err2 / norm);
    free(rows);
    const int holds = err1 > 0.1 && err2 < 1e-9;
    char say[1024];
    snprintf(say, sizeof say,
             "The sine alone cannot be shifted by a fixed matrix: fitting sin((p + 17)ω) as a·sin(pω) over p = "
             "0..999 (ω = 1), the best a = %.4f still misses by %.0f%% of the signal, because the shifted sine needs "
             "the cosine of the same angle. Given the pair (sin, cos), the best 2×2 fit %s (%.2g): (%.4f, %.4f) "
             "= (cos 17, sin 17), the rotation M_17 of the claim above.",
             a, 100 * err1, err2 < 1e-9 ? "is exact" : "is NOT exact", err2, m0, m1);
    return tour_claim(t, "sinusoidal", "sine-alone", holds, NULL, say,
                      "relative rms error over p = 0..999: sine alone %.4f (a = %.6f); sin and cos %.2g (coefficients "
                      "%.9f, %.9f; cos 17 = %.9f, sin 17 = %.9f)",
                      err1, a, err2, m0, m1, cos(17.0), sin(17.0));
}

/* The four terms of the logit with sinusoidal codes at (m, n) added to the
 * claim's tokens. */
static int entangle_terms(const double *Q, const double *K, const double *em, const double *en, int64_t m,
                          int64_t n, pe_logit_terms *lt) {
    enum { D = TOUR_ENT_D };
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    const int64_t mn[2] = {m, n};
    pe_positions pmn = pe_positions_list(mn);
    double rows[2 * D];
    int st = pe_additive_encode(&p, &pmn, 2, rows, PE_F64);
    if (st == PE_OK) st = pe_logit_terms_compute(D, Q, K, em, en, rows, rows + D, lt);
    return st;
}

static int sinusoidal_entangle(tour *t) {
    enum { D = TOUR_ENT_D };
    double *Q = malloc(sizeof(double) * (2 * D * D + 2 * D));
    if (Q == NULL) return tour_fail(t, PE_ERR_NOMEM);
    double *K = Q + D * D, *em = K + D * D, *en = em + D;
    tour_entangle_weights(Q, K, em, en);
    double in[1] = {100}; /* how far both positions move together */
    tour_inputs(t, "entangle", in, 1);
    const int64_t move = (int64_t)in[0];
    pe_logit_terms lt, far;
    int st = entangle_terms(Q, K, em, en, TOUR_ENT_M, TOUR_ENT_N, &lt);
    /* the same tokens and the same offset, `move` positions later */
    if (st == PE_OK) st = entangle_terms(Q, K, em, en, TOUR_ENT_M + move, TOUR_ENT_N + move, &far);
    free(Q);
    if (st != PE_OK) return tour_fail(t, st);
    double v[5] = {lt.content_content, lt.content_position, lt.position_content, lt.position_position,
                   far.position_position};
    const double pos = fabs(v[1]) + fabs(v[2]) + fabs(v[3]);
    const int nonzero = fabs(v[1]) > 1e-3 && fabs(v[2]) > 1e-3 && fabs(v[3]) > 1e-3;
    const int weighs = pos >= fabs(v[0]), not_relative = fabs(v[3] - v[4]) > 1e-3;
    const int holds = nonzero && weighs && not_relative;
    char say[1024];
    snprintf(say, sizeof say,
             "Added at the input, position and content entangle: with sinusoidal codes at m = %d, n = %d the logit "
             "has %s, the three that involve position weigh %.2f against the content term's %.2f, and the "
             "position-position term %s (%.3f, then %.3f %lld tokens later): %s",
             TOUR_ENT_M, TOUR_ENT_N, nonzero ? "four non-zero terms" : "a vanishing position term", pos, fabs(v[0]),
             not_relative ? "changes when both move by the same amount" : "stays put when both move together", v[3],
             v[4], (long long)move, holds ? "through Q and K it is no longer a function of the offset alone."
                         : "NOT the entanglement the notes describe.");
    return tour_claim(t, "sinusoidal", "entangle", holds, "entanglement", say,
                      "D = %d, random Q, K, e: content-content %.3f, content-position %.3f, position-content %.3f, "
                      "position-position %.3f; at m = %d, n = %d: position-position %.3f",
                      D, v[0], v[1], v[2], v[3], (int)(TOUR_ENT_M + move), (int)(TOUR_ENT_N + move), v[4]);
}

static int sinusoidal_symmetry(tour *t) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 64);
    double pe3[3 * 64];
    double in[2] = {7, 7}; /* how far ahead and how far behind position 100 */
    tour_inputs(t, "symmetry", in, 2);
    const int64_t ids[3] = {100, 100 + (int64_t)in[0], 100 - (int64_t)in[1]};
    pe_positions pos3 = pe_positions_list(ids);
    TRY(pe_additive_encode(&p, &pos3, 3, pe3, PE_F64));
    double v[2] = {0, 0};
    for (int j = 0; j < 64; j++) {
        v[0] += pe3[j] * pe3[64 + j];
        v[1] += pe3[j] * pe3[128 + j];
    }
    const int holds = fabs(v[0] - v[1]) <= 1e-12 * fmax(1.0, fabs(v[0]));
    char say[1024];
    if (holds)
        snprintf(say, sizeof say,
                 "The codes' dot product PE(m)·PE(n) = Σ cos((m-n)ω_i) depends on the offset alone and is even in "
                 "it: %g tokens ahead and %g behind give the same %.4f, so it cannot tell before from after.", in[0],
                 in[1], v[0]);
    else
        snprintf(say, sizeof say, "PE(100)·PE(%lld) = %.6f and PE(100)·PE(%lld) = %.6f differ: this dot product "
                                  "does tell before from after.", (long long)ids[1], v[0], (long long)ids[2], v[1]);
    return tour_claim(t, "sinusoidal", "symmetry", holds, "similarity", say,
                      "D = 64: PE(100)·PE(%lld) = %.6f, PE(100)·PE(%lld) = %.6f, difference %.2g", (long long)ids[1],
                      v[0], (long long)ids[2], v[1], v[0] - v[1]);
}

static int learned(tour *t) {
    enum { ROWS = 512, DIM = 16, SEEN = 256 };
    /* inputs: the table's rows, and the longest training sequence */
    double in[2] = {ROWS, SEEN};
    tour_inputs(t, "learned", in, 2);
    const int64_t rows = (int64_t)in[0], seen = (int64_t)in[1];
    if (rows < 1 || rows > 4 * ROWS || seen < 0 || seen > rows) {
        snprintf(t->err, sizeof t->err, "learned: the inputs need 1 <= rows <= %d and 0 <= seen <= rows", 4 * ROWS);
        return -1;
    }
    pe_learned *tab = NULL;
    TRY(pe_learned_create(rows, DIM, 1, &tab));
    float row[DIM];
    int64_t inside = ROWS - 1, outside = ROWS;
    int ok = pe_learned_forward(tab, &inside, 1, row);
    int bad = pe_learned_forward(tab, &outside, 1, row);
    char detail[256];
    snprintf(detail, sizeof detail, "%s", pe_last_error());
    /* One training step on sequences of positions 0..seen-1: the gradient
     * reaches only the rows those positions read. */
    float *grad = calloc((size_t)rows * DIM, sizeof(float)), *gout = malloc(sizeof(float) * (size_t)rows * DIM);
    int64_t *pos = malloc(sizeof(int64_t) * (size_t)rows);
    int st = grad && gout && pos ? PE_OK : PE_ERR_NOMEM;
    int64_t moved_seen = 0, moved_unseen = 0;
    for (int64_t i = 0; st == PE_OK && i < seen; i++) {
        pos[i] = i;
        for (int j = 0; j < DIM; j++) gout[i * DIM + j] = (float)(((i * 7 + j * 3) % 11) + 1) / 11.0f;
    }
    if (st == PE_OK && seen > 0) st = pe_learned_backward(tab, pos, seen, gout, grad);
    for (int64_t r = 0; st == PE_OK && r < rows; r++) {
        int any = 0;
        for (int j = 0; j < DIM; j++) any |= grad[r * DIM + j] != 0.0f;
        if (r < SEEN) moved_seen += any;
        else moved_unseen += any;
    }
    free(grad);
    free(gout);
    free(pos);
    pe_learned_free(tab);
    if (st != PE_OK) return tour_fail(t, st);
    const int answers = ok == PE_OK, refuses = bad == PE_ERR_RANGE;
    const int holds = answers && refuses && moved_seen == SEEN && moved_unseen == 0;
    char say[1024];
    snprintf(say, sizeof say,
             "A learned table of %lld rows %s position %d and %s position %d: past its last row it has nothing to "
             "say. Inside the table it is no better off: trained on sequences of at most %d tokens, a step's "
             "gradient moves %lld of the first %d rows and %lld of the %lld rows after them, so rows never seen "
             "keep their random start.",
             (long long)rows, answers ? "answers for" : "does NOT answer for", ROWS - 1,
             refuses ? "refuses" : "does NOT refuse", ROWS, SEEN, (long long)moved_seen, SEEN,
             (long long)moved_unseen, (long long)(rows - SEEN));
    return tour_claim(t, "learned", "learned", holds, "learned", say,
                      "table of %lld rows: position %d -> %s; position %d -> %s (%s). Gradient of one step on "
                      "positions 0..%lld: %lld rows below %d moved, %lld rows from %d on moved",
                      (long long)rows, ROWS - 1, answers ? "a row" : "an error", ROWS,
                      refuses ? "refused" : "ACCEPTED", refuses ? detail : "no error", (long long)seen - 1,
                      (long long)moved_seen, SEEN, (long long)moved_unseen, SEEN);
}

/* Mean of a (rows, rows) cosine matrix's entries (r, r + gap) over r in [lo, hi - gap). */
static double mean_row_cosine(const double *cosine, int64_t rows, int64_t lo, int64_t hi, int64_t gap) {
    double sum = 0;
    int64_t n = 0;
    for (int64_t r = lo; r + gap < hi; r++, n++) sum += cosine[r * rows + r + gap];
    return n > 0 ? sum / (double)n : NAN;
}

/* Where a learned table's similarity structure comes from. Its rows start
 * as independent N(0, 0.02^2) draws, so neighbours are no more alike than
 * far rows. Training is what gives them structure; here the signal pulls
 * the rows a model reads, 0..seen-1, toward codes in which neighbours are
 * alike (the sinusoidal codes of the same width), by plain SGD through the
 * library's forward, backward and step. The rows past the training lengths
 * get no gradient and keep their random start. */
static int learned_similarity(tour *t) {
    enum { ROWS = TOUR_LSIM_ROWS, DIM = TOUR_LSIM_DIM, FAR = TOUR_LSIM_FAR };
    /* inputs: SGD steps, the learning rate, the longest training sequence */
    double in[3] = {TOUR_LSIM_STEPS, TOUR_LSIM_LR, TOUR_LSIM_SEEN};
    tour_inputs(t, "learned-similarity", in, 3);
    const int64_t steps = (int64_t)in[0], seen = (int64_t)in[2];
    if (steps < 0 || steps > 10000 || !(in[1] >= 0 && in[1] <= 1) || seen < FAR + 2 || seen > ROWS - FAR - 2) {
        snprintf(t->err, sizeof t->err,
                 "learned-similarity: the inputs need 0 <= steps <= 10000, 0 <= lr <= 1 and %d <= seen <= %d",
                 FAR + 2, ROWS - FAR - 2);
        return -1;
    }
    float *start = malloc(sizeof(float) * ROWS * DIM), *trained = malloc(sizeof(float) * ROWS * DIM);
    double *c0 = malloc(sizeof(double) * ROWS * ROWS), *c1 = malloc(sizeof(double) * ROWS * ROWS);
    double *pe = malloc(sizeof(double) * (size_t)seen * (size_t)seen);
    int st = start && trained && c0 && c1 && pe ? PE_OK : PE_ERR_NOMEM;
    if (st == PE_OK) st = tour_learned_trained(steps, in[1], seen, start, trained);
    /* the codes the trained rows were pulled toward: their dot products, from the library */
    const pe_additive_params sp = pe_additive_defaults(PE_ADD_SINUSOIDAL, DIM);
    const pe_positions from0 = pe_positions_range(0);
    if (st == PE_OK) st = pe_similarity_additive(&sp, &from0, seen, pe);
    double init_near = NAN, init_far = NAN, seen_near = NAN, seen_far = NAN, unseen_near = NAN, gap = NAN;
    if (st == PE_OK) {
        tour_row_cosines(start, ROWS, DIM, c0);
        tour_row_cosines(trained, ROWS, DIM, c1);
        init_near = mean_row_cosine(c0, ROWS, 0, seen, 1);
        init_far = mean_row_cosine(c0, ROWS, 0, seen, FAR);
        seen_near = mean_row_cosine(c1, ROWS, 0, seen, 1);
        seen_far = mean_row_cosine(c1, ROWS, 0, seen, FAR);
        unseen_near = mean_row_cosine(c1, ROWS, seen, ROWS, 1);
        /* the trained block of the figure's right map against the codes' own cosines */
        gap = 0;
        for (int64_t r = 0; r < seen; r++)
            for (int64_t c = 0; c < seen; c++)
                gap = fmax(gap, fabs(c1[r * ROWS + c] - pe[r * seen + c] / sqrt(pe[r * seen + r] * pe[c * seen + c])));
    }
    free(start);
    free(trained);
    free(c0);
    free(c1);
    free(pe);
    if (st != PE_OK) return tour_fail(t, st);
    /* "no more alike than far rows": both means within 0.1 of 0 (one pair's
     * cosine of independent draws has spread 1/sqrt(16) = 0.25; a mean over
     * >= 150 pairs, 0.25/sqrt(150) = 0.02); "alike": above 0.8, and the
     * neighbours more alike than rows FAR apart; "the codes' structure": every
     * trained pair's cosine within 1e-4 of the codes' (the start's residual
     * after 50 steps is 0.8^50 = 1.4e-5 of a row of norm 0.08 against codes of
     * norm sqrt 8, so about 1e-6 is expected, and float32 rows round cosines
     * at about 1e-7: 1e-4 leaves a hundredfold margin and still fails at 5
     * steps, 1.8e-2). */
    const int random_start = fabs(init_near) < 0.1 && fabs(init_far) < 0.1;
    const int trained_alike = seen_near > 0.8 && seen_near > seen_far + 0.2;
    const int copies_codes = gap < 1e-4;
    const int untouched = fabs(unseen_near) < 0.1;
    const int holds = random_start && trained_alike && copies_codes && untouched;
    char say[1024];
    snprintf(say, sizeof say,
             "A learned table's similarity structure is only what training gives it. At its random start "
             "neighbouring rows are %s alike than rows %d apart (mean cosine %.3f and %.3f). After %lld SGD steps "
             "pulling the rows of positions 0..%lld toward codes whose neighbours are alike, those rows' neighbours "
             "%s (mean cosine %.3f, against %.3f for rows %d apart), the rows' cosines %s the codes' (to %.1e), "
             "and the %lld rows past the training lengths %s (neighbours' mean cosine %.3f).",
             random_start ? "no more" : "MORE", FAR, init_near, init_far, (long long)steps, (long long)seen - 1,
             trained_alike ? "are alike" : "are NOT alike", seen_near, seen_far, FAR,
             copies_codes ? "are" : "are NOT", gap, (long long)(ROWS - seen),
             untouched ? "keep their random start" : "do NOT keep their random start", unseen_near);
    return tour_claim(t, "learned", "learned-similarity", holds, "learned-similarity", say,
                      "table %d x %d, N(0, 0.02^2) seed 1; target sinusoidal D = %d base 10^4; lr %g; mean cosine "
                      "of rows (m, m+1) / (m, m+%d): start %.4f / %.4f, trained %.4f / %.4f; rows %lld..%d: %.4f; "
                      "largest |cosine - the codes' cosine| over rows 0..%lld: %.2e",
                      ROWS, DIM, DIM, in[1], FAR, init_near, init_far, seen_near, seen_far, (long long)seen, ROWS - 1,
                      unseen_near, (long long)seen - 1, gap);
}

int tour_additive_claims(tour *t) {
    int (*const steps[])(tour *) = {bag_of_words,     four_terms,      toy_drift,        toy_regimes,
                                     normalized,       binary,          sinusoidal_value, sinusoidal_base,
                                     sinusoidal_shift, sine_alone,      sinusoidal_entangle, sinusoidal_symmetry,
                                     learned,          learned_similarity};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        int st = steps[i](t);
        if (st != 0) return st;
    }
    return 0;
}

int tour_run_all(tour *t) {
    int st = tour_additive_claims(t);
    if (st == 0) st = tour_rope_claims(t);
    if (st == 0) st = tour_scaling_claims(t);
    if (st == 0) st = tour_compare_claims(t);
    if (st == 0) st = tour_experiment_claims(t);
    return st;
}
