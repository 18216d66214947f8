/*
 * tour_claims.c — the tour's story up to the learned table: bag of words,
 * raw integers and the four terms, normalized, binary, sinusoidal (base,
 * sin and cos, M_k, entanglement, symmetry), learned. Each claim computes
 * its numbers through the library, passes them through tour_inputs() (where
 * a test may perturb them), judges them, and says what they show.
 */
#include "tour.h"
#include "../figures/inputs.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TRY(expr)                                   \
    do {                                            \
        int st_ = (expr);                           \
        if (st_ != PE_OK) return tour_fail(t, st_); \
    } while (0)

static int bag_of_words(tour *t) {
    enum { T = TOUR_BAG_T, D = TOUR_BAG_D };
    float x[T * D], xr[T * D], o[T * D], orr[T * D];
    int64_t rev[T];
    tour_bag_tokens(x);
    for (int i = 0; i < T; i++) {
        rev[i] = T - 1 - i;
        memcpy(xr + i * D, x + rev[i] * D, sizeof(float) * D);
    }
    pe_attention_params p = pe_attention_params_default(T, T, D, D);
    TRY(pe_attention(&p, x, x, x, o));
    TRY(pe_attention(&p, xr, xr, xr, orr));
    double v[1] = {0};
    TRY(pe_permutation_gap(o, orr, rev, T, D, &v[0]));
    tour_inputs(t, "bag", v, 1);
    /* float32 outputs of order one: a reordered sum differs by rounding, ~1e-7 */
    const int holds = v[0] <= 1e-6;
    char say[640];
    if (holds)
        snprintf(say, sizeof say, "Without positions, attention cannot see order: reversing the six tokens "
                                  "only reverses the six outputs.");
    else
        snprintf(say, sizeof say, "Reversing the six tokens changed the outputs by %.2g, more than rounding: "
                                  "this attention sees order without positions.", v[0]);
    return tour_claim(t, "bag", "bag", holds, "bag-of-words", say,
                      "max |attn(reversed x) - reversed attn(x)| = %.2g over %d tokens of D = %d "
                      "(float32 rounding is about 1e-7)", v[0], T, D);
}

static int four_terms(tour *t) {
    enum { D = TOUR_TOY_D };
    double Q[D * D], K[D * D], em[D], en[D], pm[D], pn[D];
    tour_toy_weights(Q, K, em, en);
    for (int i = 0; i < D; i++) {
        pm[i] = TOUR_TOY_M;
        pn[i] = TOUR_TOY_N;
    }
    pe_logit_terms lt;
    TRY(pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &lt));
    double v[5] = {lt.content_content, lt.content_position, lt.position_content, lt.position_position, lt.logit};
    tour_inputs(t, "toy-terms", v, 5);
    const double sum = v[0] + v[1] + v[2] + v[3], rest = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
    const int adds_up = fabs(sum - v[4]) <= 1e-9 * fmax(1.0, fabs(v[4]));
    const int holds = adds_up && fabs(v[3]) > rest;
    char say[640];
    if (!adds_up)
        snprintf(say, sizeof say, "The four terms (sum %.4g) do NOT add up to the logit %.4g.", sum, v[4]);
    else
        snprintf(say, sizeof say,
                 "With p_m = m·1 the logit is four terms, and at m = %d, n = %d the position-position term "
                 "(%.1f) %s the other three together (%.1f)%s",
                 TOUR_TOY_M, TOUR_TOY_N, v[3], holds ? "outweighs" : "does NOT outweigh", rest,
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
    tour_toy_regime2(Q);
    tour_toy_keys(keys);
    for (int n = 0; n < N; n++) kp[n] = n;
    pe_toy_report r;
    TRY(pe_toy_analyze(D, Q, K, em, N - 1, keys, kp, N, 1e-9, &r));
    double v[4] = {r.effective_slope, r.content_min, r.content_max, r.regime};
    tour_inputs(t, "toy-drift", v, 4);
    const double drift = fabs(v[0]) * (N - 1), range = v[2] - v[1];
    const int regime2 = v[3] == PE_TOY_KEY_DRIFT;
    const int holds = regime2 && drift > range;
    char say[640];
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

static int normalized(tour *t) {
    const int64_t L[4] = {3, 5, 10, 100};
    double val[4], sp[4];
    TRY(pe_normalized_inconsistency(2, L, 4, val, sp));
    double v[6] = {val[0], val[1], val[2], val[3], sp[0], sp[3]};
    tour_inputs(t, "normalized", v, 6);
    int distinct = 1;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) distinct &= fabs(v[i] - v[j]) > 1e-3;
    const int holds = distinct && fabs(v[4] - v[5]) > 1e-3;
    char say[640];
    if (holds)
        snprintf(say, sizeof say,
                 "Dividing by the length bounds the values but breaks consistency: position 2 encodes as %.3f at "
                 "L = 3 and %.4f at L = 100, and the step between neighbours shrinks from %.3f to %.4f.",
                 v[0], v[3], v[4], v[5]);
    else
        snprintf(say, sizeof say, "Position 2 encodes alike at some of the lengths 3, 5, 10, 100, or the "
                                  "neighbour spacing does not change: normalization looks consistent here.");
    return tour_claim(t, "normalized", "normalized", holds, "normalized", say,
                      "p = 2 encodes as %.4f (L = 3), %.4f (L = 5), %.4f (L = 10), %.4f (L = 100); "
                      "neighbour spacing %.4f (L = 3) down to %.4f (L = 100)",
                      v[0], v[1], v[2], v[3], v[4], v[5]);
}

static int binary(tour *t) {
    pe_hamming_report r;
    TRY(pe_binary_hamming(0, 1024, NULL, &r));
    double v[4] = {(double)r.max_distance, (double)r.argmax, r.mean_distance, (double)r.jumps};
    tour_inputs(t, "binary", v, 4);
    const int holds = v[0] > 1;
    char say[640];
    if (holds)
        snprintf(say, sizeof say,
                 "Binary codes are bounded and consistent but not smooth: the step from %.0f to %.0f flips %.0f "
                 "bits at once, and %.0f of the 1024 steps flip more than one.", v[1], v[1] + 1, v[0], v[3]);
    else
        snprintf(say, sizeof say, "No step between neighbours flips more than one bit here: the binary codes "
                                  "look smooth.");
    return tour_claim(t, "binary", "binary", holds, "binary", say,
                      "steps p -> p+1 for p = 0..1023: at most %.0f bits (first at %.0f -> %.0f); mean %.3f bits "
                      "per step; %.0f steps flip more than one bit",
                      v[0], v[1], v[1] + 1, v[2], v[3]);
}

static int sinusoidal_value(tour *t) {
    pe_additive_params p4 = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    pe_positions p7 = pe_positions_range(7);
    double v[4];
    TRY(pe_additive_encode(&p4, &p7, 1, v, PE_F64));
    tour_inputs(t, "pe7", v, 4);
    /* D = 4, base 10^4: ω_0 = 1, ω_1 = 10^4^(-2/4) = 1/100 */
    const double want[4] = {sin(7.0), cos(7.0), sin(0.07), cos(0.07)};
    double err = 0;
    for (int i = 0; i < 4; i++) err = fmax(err, fabs(v[i] - want[i]));
    const int holds = err <= 4e-16;
    char say[640];
    if (holds)
        snprintf(say, sizeof say,
                 "At D = 4 position 7 encodes as (sin 7, cos 7, sin 0.07, cos 0.07): two pairs, one turning a "
                 "radian per token and one turning a hundred times slower.");
    else
        snprintf(say, sizeof say, "At D = 4 position 7 does NOT encode as (sin 7, cos 7, sin 0.07, cos 0.07): "
                                  "off by %.2g.", err);
    return tour_claim(t, "sinusoidal", "pe7", holds, "waves", say,
                      "PE(7) = (%.5f, %.5f, %.5f, %.5f). The seeds' sheet prints the third value as "
                      "0.0698; sin(0.07) = %.9f rounds to %.4f: trust the math.",
                      v[0], v[1], v[2], v[3], v[2], v[2]);
}

static int sinusoidal_base(tour *t) {
    /* D = 128: per base, the pairs that complete a turn within 1000 tokens
     * and the pairs that turn less than 0.1 rad over them (barely move). */
    const double bases[3] = {100.0, 1e4, 1e8};
    double v[6] = {0};
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
    }
    if (st != PE_OK) return tour_fail(t, st);
    tour_inputs(t, "base", v, 6);
    const int holds = v[0] == 64 && v[5] >= 16 && v[1] < 64 && v[4] == 0;
    char say[640], all[64];
    if (v[0] == 64)
        snprintf(all, sizeof all, "all 64 pairs");
    else
        snprintf(all, sizeof all, "only %.0f of the 64 pairs", v[0]);
    snprintf(say, sizeof say,
             "The base sets the spread of wavelengths. At base 100 %s of D = 128 complete a turn within 1000 "
             "tokens%s; at base 10^8, %.0f pairs turn less than 0.1 rad and barely move; base 10^4 sits between "
             "(%.0f pairs turn, %.0f frozen)%s",
             all, v[0] == 64 ? ", so even the slowest repeats" : "", v[5], v[1], v[4],
             holds ? "." : ": NOT the spread the notes describe.");
    return tour_claim(t, "sinusoidal", "base", holds, "base-grid", say,
                      "pairs completing a turn within 1000 tokens: %.0f (base 100), %.0f (10^4), %.0f (10^8); "
                      "pairs turning < 0.1 rad in 1000 tokens: %.0f, %.0f, %.0f",
                      v[0], v[1], v[2], v[3], v[4], v[5]);
}

static int sinusoidal_shift(tour *t) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 64);
    double a[64], b[64], ma[64], v[1] = {0};
    const int64_t ps[3] = {0, 1000, 123456};
    for (int r = 0; r < 3; r++) {
        pe_positions pa = pe_positions_range(ps[r]), pb = pe_positions_range(ps[r] + 17);
        TRY(pe_additive_encode(&p, &pa, 1, a, PE_F64));
        TRY(pe_additive_encode(&p, &pb, 1, b, PE_F64));
        TRY(pe_shift_apply(&p, 17, a, ma));
        for (int j = 0; j < 64; j++) v[0] = fmax(v[0], fabs(ma[j] - b[j]));
    }
    tour_inputs(t, "shift", v, 1);
    /* angles of up to 1.2·10^5 rad reduced in double: a few 1e-12 at most */
    const int holds = v[0] <= 1e-9;
    char say[640];
    if (holds)
        snprintf(say, sizeof say,
                 "Why both sin and cos: one fixed matrix M_17, built from the shift k = 17 alone, carries PE(p) "
                 "to PE(p + 17) at p = 0, 1000 and 123456 alike.");
    else
        snprintf(say, sizeof say, "M_17 does NOT carry PE(p) to PE(p + 17) at every p: off by %.2g.", v[0]);
    return tour_claim(t, "sinusoidal", "shift", holds, "shift", say,
                      "D = 64: max |M_17·PE(p) - PE(p + 17)| = %.2g over p = 0, 1000, 123456 (one matrix for all)",
                      v[0]);
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
    pe_logit_terms lt, far;
    int st = entangle_terms(Q, K, em, en, TOUR_ENT_M, TOUR_ENT_N, &lt);
    /* the same tokens and the same offset, 100 positions later */
    if (st == PE_OK) st = entangle_terms(Q, K, em, en, TOUR_ENT_M + 100, TOUR_ENT_N + 100, &far);
    free(Q);
    if (st != PE_OK) return tour_fail(t, st);
    double v[5] = {lt.content_content, lt.content_position, lt.position_content, lt.position_position,
                   far.position_position};
    tour_inputs(t, "entangle", v, 5);
    const double pos = fabs(v[1]) + fabs(v[2]) + fabs(v[3]);
    const int nonzero = fabs(v[1]) > 1e-3 && fabs(v[2]) > 1e-3 && fabs(v[3]) > 1e-3;
    const int weighs = pos >= fabs(v[0]), not_relative = fabs(v[3] - v[4]) > 1e-3;
    const int holds = nonzero && weighs && not_relative;
    char say[640];
    snprintf(say, sizeof say,
             "Added at the input, position and content entangle: with sinusoidal codes at m = %d, n = %d the logit "
             "has %s, the three that involve position weigh %.2f against the content term's %.2f, and the "
             "position-position term %s (%.3f, then %.3f 100 tokens later): %s",
             TOUR_ENT_M, TOUR_ENT_N, nonzero ? "four non-zero terms" : "a vanishing position term", pos, fabs(v[0]),
             not_relative ? "changes when both move by the same amount" : "stays put when both move together", v[3],
             v[4], holds ? "through Q and K it is no longer a function of the offset alone."
                         : "NOT the entanglement the notes describe.");
    return tour_claim(t, "sinusoidal", "entangle", holds, "entanglement", say,
                      "D = %d, random Q, K, e: content-content %.3f, content-position %.3f, position-content %.3f, "
                      "position-position %.3f; at m = %d, n = %d: position-position %.3f",
                      D, v[0], v[1], v[2], v[3], TOUR_ENT_M + 100, TOUR_ENT_N + 100, v[4]);
}

static int sinusoidal_symmetry(tour *t) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 64);
    double pe3[3 * 64];
    const int64_t ids[3] = {100, 107, 93};
    pe_positions pos3 = pe_positions_list(ids);
    TRY(pe_additive_encode(&p, &pos3, 3, pe3, PE_F64));
    double v[2] = {0, 0};
    for (int j = 0; j < 64; j++) {
        v[0] += pe3[j] * pe3[64 + j];
        v[1] += pe3[j] * pe3[128 + j];
    }
    tour_inputs(t, "symmetry", v, 2);
    const int holds = fabs(v[0] - v[1]) <= 1e-12 * fmax(1.0, fabs(v[0]));
    char say[640];
    if (holds)
        snprintf(say, sizeof say,
                 "The codes' dot product PE(m)·PE(n) = Σ cos((m-n)ω_i) depends on the offset alone and is even in "
                 "it: 7 tokens ahead and 7 behind give the same %.4f, so it cannot tell before from after.", v[0]);
    else
        snprintf(say, sizeof say, "PE(100)·PE(107) = %.6f and PE(100)·PE(93) = %.6f differ: this dot product "
                                  "does tell before from after.", v[0], v[1]);
    return tour_claim(t, "sinusoidal", "symmetry", holds, "similarity", say,
                      "D = 64: PE(100)·PE(107) = %.6f, PE(100)·PE(93) = %.6f, difference %.2g", v[0], v[1],
                      v[0] - v[1]);
}

static int learned(tour *t) {
    pe_learned *tab = NULL;
    TRY(pe_learned_create(512, 16, 1, &tab));
    float row[16];
    int64_t inside = 511, outside = 512;
    int ok = pe_learned_forward(tab, &inside, 1, row);
    int bad = pe_learned_forward(tab, &outside, 1, row);
    char detail[256];
    snprintf(detail, sizeof detail, "%s", pe_last_error());
    pe_learned_free(tab);
    double v[2] = {ok == PE_OK, bad == PE_ERR_RANGE};
    tour_inputs(t, "learned", v, 2);
    const int holds = v[0] == 1 && v[1] == 1;
    char say[640];
    if (holds)
        snprintf(say, sizeof say, "A learned table of 512 rows answers for position 511 and refuses position "
                                  "512: past its last row it has nothing to say.");
    else
        snprintf(say, sizeof say, "The learned table of 512 rows %s position 511 and %s position 512.",
                 v[0] == 1 ? "answers for" : "does NOT answer for", v[1] == 1 ? "refuses" : "does NOT refuse");
    return tour_claim(t, "learned", "learned", holds, "learned", say,
                      "table of 512 rows: position 511 -> %s; position 512 -> %s (%s)",
                      v[0] == 1 ? "a row" : "an error", v[1] == 1 ? "refused" : "UNEXPECTEDLY ACCEPTED", detail);
}

int tour_additive_claims(tour *t) {
    int (*const steps[])(tour *) = {bag_of_words,        four_terms,       toy_drift,           normalized,
                                     binary,              sinusoidal_value, sinusoidal_base,     sinusoidal_shift,
                                     sinusoidal_entangle, sinusoidal_symmetry, learned};
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
    if (st == 0) st = tour_experiment_claims(t);
    return st;
}
