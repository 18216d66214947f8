/*
 * tour_claims.c — the seeds' story in order: bag of words, raw integers,
 * normalized, binary, sinusoidal, learned, RoPE, scaling. Every number is
 * computed here and now through the library; only the wording is fixed.
 */
#include "tour.h"

#include "posenc.h"
#include "random.h"
#include "../experiment/experiment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

#define TRY(expr)                                 \
    do {                                          \
        int st_ = (expr);                         \
        if (st_ != PE_OK) return tour_fail(t, st_); \
    } while (0)

static int bag_of_words(tour *t) {
    enum { T = 6, D = 8 };
    double xd[T * D];
    float x[T * D], xr[T * D], o[T * D], orr[T * D];
    cli_fill_uniform(xd, T * D, 11);
    for (int i = 0; i < T * D; i++) x[i] = (float)xd[i];
    for (int i = 0; i < T; i++) memcpy(xr + i * D, x + (T - 1 - i) * D, sizeof(float) * D);
    pe_attention_params p = {T, T, D, D, 0.0, 0, NULL};
    TRY(pe_attention(&p, x, x, x, o));
    TRY(pe_attention(&p, xr, xr, xr, orr));
    double gap = 0;
    for (int i = 0; i < T; i++)
        for (int e = 0; e < D; e++) gap = fmax(gap, fabs((double)orr[i * D + e] - o[(T - 1 - i) * D + e]));
    return tour_claim(t, "Attention alone is a bag of words",
                      "Without positions, attention is permutation-equivariant: reversing the tokens only "
                      "reverses the outputs.", NULL,
                      "max |attn(reversed x) - reversed attn(x)| = %.2g over 6 tokens (rounding only)", gap);
}

static int raw_integers(tour *t) {
    enum { D = 8 };
    double Q[D * D], K[D * D], em[D], en[D], pm[D], pn[D];
    cli_fill_uniform(Q, D * D, 5); /* fixed pseudo-random Q, K and token embeddings */
    cli_fill_uniform(K, D * D, 6);
    cli_fill_uniform(em, D, 7);
    cli_fill_uniform(en, D, 8);
    for (int i = 0; i < D * D; i++) {
        Q[i] /= sqrt((double)D);
        K[i] /= sqrt((double)D);
    }
    for (int i = 0; i < D; i++) {
        pm[i] = 100.0;
        pn[i] = 90.0;
    }
    pe_logit_terms lt;
    TRY(pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &lt));
    int st = tour_claim(t, "Raw integer positions (the toy design)",
                        "With p_m = m·1 the logit splits into four terms, and the position-position term "
                        "m·n·(Q1)ᵀK1 swamps the content at m = 100, n = 90.", "toy-drift",
                        "content-content %.3f, content-position %.1f, position-content %.1f, "
                        "position-position %.1f (sum %.1f = logit %.1f)",
                        lt.content_content, lt.content_position, lt.position_content, lt.position_position,
                        lt.content_content + lt.content_position + lt.position_content + lt.position_position,
                        lt.logit);
    if (st) return st;
    /* Regime ii: Q 1 = 0 (rows of Q sum to 0), keys at 0..63. */
    for (int r = 0; r < D; r++) {
        double mean = 0;
        for (int c = 0; c < D; c++) mean += Q[r * D + c] / D;
        for (int c = 0; c < D; c++) Q[r * D + c] -= mean;
    }
    enum { N = 64 };
    double keys[N * D];
    int64_t kp[N];
    cli_fill_uniform(keys, N * D, 12);
    for (int n = 0; n < N; n++) kp[n] = n;
    pe_toy_report r;
    TRY(pe_toy_analyze(D, Q, K, em, N - 1, keys, kp, N, 1e-9, &r));
    return tour_claim(t, "Raw integer positions (the toy design)",
                      "Even with Q·1 = 0 (regime ii) the logit drifts linearly in the key position, and "
                      "the end-skew condition holds: the drift beats every content difference.", NULL,
                      "slope (Q e_m)ᵀK1 = %.4f per position; drift over 64 keys %.2f vs content range %.2f -> %s",
                      r.slope, r.drift, r.content_max - r.content_min,
                      r.end_skew ? (r.skew_to_end ? "the last keys win" : "the first keys win")
                                 : "content still decides");
}

static int normalized(tour *t) {
    const int64_t L[4] = {3, 5, 10, 100};
    double v[4], s[4];
    TRY(pe_normalized_inconsistency(2, L, 4, v, s));
    return tour_claim(t, "Normalized positions",
                      "Dividing by the length bounds the values but breaks consistency: position 2 means "
                      "something different at every length, and so does the step between neighbours.",
                      "normalized",
                      "p = 2 encodes as %.4f (L = 3), %.4f (L = 5), %.4f (L = 10), %.4f (L = 100); "
                      "neighbour spacing %.4f down to %.4f",
                      v[0], v[1], v[2], v[3], s[0], s[3]);
}

static int binary(tour *t) {
    pe_hamming_report r;
    TRY(pe_binary_hamming(0, 1024, NULL, &r));
    return tour_claim(t, "Binary positions",
                      "Binary codes are bounded and consistent but not smooth: neighbours can differ in "
                      "many bits at once.", "binary",
                      "over p = 0..1023: %lld -> %lld flips %lld bits; mean %.3f bits per step; %lld of 1024 "
                      "steps flip more than one bit",
                      (long long)r.argmax, (long long)r.argmax + 1, (long long)r.max_distance, r.mean_distance,
                      (long long)r.jumps);
}

static int sinusoidal(tour *t) {
    pe_additive_params p4 = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    pe_positions p7 = pe_positions_range(7);
    double row[4];
    TRY(pe_additive_encode(&p4, &p7, 1, row, PE_F64));
    int st = tour_claim(t, "Sinusoidal encodings",
                        "The sinusoidal encoding of position 7 at D = 4 is (sin 7, cos 7, sin 0.07, cos 0.07).",
                        "sinusoidal-heatmap",
                        "PE(7) = (%.5f, %.5f, %.5f, %.5f). The seeds' sheet prints the third value as "
                        "0.0698; sin(0.07) = %.9f rounds to %.4f: trust the math.",
                        row[0], row[1], row[2], row[3], row[2], row[2]);
    if (st) return st;
    /* Base choice: pairs that complete a cycle within 1000 tokens, D = 128. */
    const double bases[3] = {100.0, 1e4, 1e8};
    int64_t complete[3] = {0, 0, 0};
    pe_freqs *f = malloc(sizeof *f);
    if (f == NULL) return tour_fail(t, PE_ERR_NOMEM);
    double wl[64];
    for (int b = 0; b < 3 && st == PE_OK; b++) {
        st = pe_freqs_default(128, bases[b], f);
        if (st == PE_OK) st = pe_pair_periods(f, 0, wl, NULL, NULL, NULL);
        for (int i = 0; i < 64; i++) complete[b] += wl[i] <= 1000.0;
    }
    free(f);
    if (st != PE_OK) return tour_fail(t, st);
    st = tour_claim(t, "Sinusoidal encodings",
                    "The base sets the spread of wavelengths: too small and slow pairs repeat within the "
                    "context, too large and most pairs barely move.", "base-grid",
                    "pairs of D = 128 that complete a full cycle within 1000 tokens: %lld of 64 at base 100, "
                    "%lld at base 10^4, %lld at base 10^8",
                    (long long)complete[0], (long long)complete[1], (long long)complete[2]);
    if (st) return st;
    /* Why sin and cos: the shift matrix. */
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 64);
    double a[64], b2[64], ma[64], worst = 0;
    const int64_t ps[3] = {0, 1000, 123456};
    for (int r = 0; r < 3; r++) {
        pe_positions pa = pe_positions_range(ps[r]), pb = pe_positions_range(ps[r] + 17);
        TRY(pe_additive_encode(&p, &pa, 1, a, PE_F64));
        TRY(pe_additive_encode(&p, &pb, 1, b2, PE_F64));
        TRY(pe_shift_apply(&p, 17, a, ma));
        for (int j = 0; j < 64; j++) worst = fmax(worst, fabs(ma[j] - b2[j]));
    }
    st = tour_claim(t, "Sinusoidal encodings",
                    "Why both sin and cos: a fixed matrix M_k, depending on k alone, moves every position "
                    "by k: PE(p + k) = M_k·PE(p).", "waves",
                    "max |M_17·PE(p) - PE(p + 17)| = %.2g at p = 0, 1000 and 123456 (one matrix for all)", worst);
    if (st) return st;
    /* Entanglement: four non-zero terms with sinusoidal positions. */
    enum { D = 64 };
    double *Q = malloc(sizeof(double) * (2 * D * D + 4 * D));
    if (Q == NULL) return tour_fail(t, PE_ERR_NOMEM);
    double *K = Q + D * D, *em = K + D * D, *en = em + D, *pm = en + D, *pn = pm + D;
    cli_fill_uniform(Q, 2 * D * D + 2 * D, 9);
    for (int i = 0; i < 2 * D * D; i++) Q[i] /= sqrt((double)D);
    int64_t mn[2] = {40, 33};
    pe_positions pmn = pe_positions_list(mn);
    double rows[2 * D];
    pe_logit_terms lt;
    st = pe_additive_encode(&p, &pmn, 2, rows, PE_F64);
    if (st == PE_OK) {
        memcpy(pm, rows, sizeof(double) * D);
        memcpy(pn, rows + D, sizeof(double) * D);
        st = pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &lt);
    }
    free(Q);
    if (st != PE_OK) return tour_fail(t, st);
    st = tour_claim(t, "Sinusoidal encodings",
                    "Added at the input, position and content entangle: the logit has four terms, and "
                    "content-position cross terms are as large as the content term itself.", NULL,
                    "m = 40, n = 33, D = 64, random Q, K, e: content-content %.3f, content-position %.3f, "
                    "position-content %.3f, position-position %.3f",
                    lt.content_content, lt.content_position, lt.position_content, lt.position_position);
    if (st) return st;
    /* Symmetry */
    double pe3[3 * 64];
    int64_t ids[3] = {100, 107, 93};
    pe_positions pos3 = pe_positions_list(ids);
    TRY(pe_additive_encode(&p, &pos3, 3, pe3, PE_F64));
    double plus = 0, minus = 0;
    for (int j = 0; j < 64; j++) {
        plus += pe3[j] * pe3[64 + j];
        minus += pe3[j] * pe3[128 + j];
    }
    return tour_claim(t, "Sinusoidal encodings",
                      "The dot product PE(m)·PE(n) = Σ cos((m-n)ω_i) depends on the offset only and is "
                      "symmetric: it cannot tell before from after.", "similarity",
                      "PE(100)·PE(107) = %.6f, PE(100)·PE(93) = %.6f, difference %.2g", plus, minus, plus - minus);
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
    if (ok != PE_OK) return tour_fail(t, ok);
    return tour_claim(t, "Learned positions",
                      "A learned table is consistent and bounded, but has nothing to say past its last row: "
                      "it cannot extrapolate.", NULL,
                      "table of 512 rows: position 511 -> a row; position 512 -> %s (%s)",
                      bad == PE_ERR_RANGE ? "refused" : "UNEXPECTEDLY ACCEPTED", detail);
}

/* <R(m)q, R(m+k)k> for each offset, D = 64 default frequencies. */
static int rope(tour *t) {
    enum { D = 64 };
    pe_freqs *f = malloc(sizeof *f);
    if (f == NULL) return tour_fail(t, PE_ERR_NOMEM);
    int st = pe_freqs_default(D, 10000.0, f);
    double q[D], k[D], u[D];
    cli_fill_uniform(q, D, 1);
    cli_fill_uniform(k, D, 2);
    for (int i = 0; i < D; i++) u[i] = i < D / 2 ? 1.0 : 0.0;
    const int64_t off5[1] = {5}, pm7[2] = {7, -7};
    double s[3], s7[2], u7[2];
    const int64_t ms[3] = {0, 1000, 1000000};
    for (int i = 0; i < 3 && st == PE_OK; i++) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, ms[i], off5, 1, &s[i]);
    if (st == PE_OK) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, q, k, 100, pm7, 2, s7);
    if (st == PE_OK) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 100, pm7, 2, u7);
    /* norm through the f32 rotation itself */
    float qf[D], rq[D];
    for (int i = 0; i < D; i++) qf[i] = (float)q[i];
    pe_positions big = pe_positions_range(123456);
    pe_tensor tin = pe_tensor_dense(qf, PE_F32, 1, 1, D), tout = pe_tensor_dense(rq, PE_F32, 1, 1, D);
    if (st == PE_OK) st = pe_rope_apply(f, PE_ROPE_HALF, &big, &tin, &tout, PE_ROPE_FORWARD);
    /* locality: the average score of q = k = ones-per-pair decays with offset */
    const int64_t far[4] = {0, 10, 100, 1000};
    double loc[4];
    if (st == PE_OK) st = pe_rope_score_curve(f, PE_ROPE_HALF, D, u, u, 0, far, 4, loc);
    free(f);
    if (st != PE_OK) return tour_fail(t, st);
    double n0 = 0, n1 = 0;
    for (int i = 0; i < D; i++) {
        n0 += (double)qf[i] * qf[i];
        n1 += (double)rq[i] * rq[i];
    }
    double spread = fmax(fabs(s[1] - s[0]), fabs(s[2] - s[0]));
    if ((st = tour_claim(t, "Rotary embeddings (RoPE)",
                         "RoPE scores depend on the offset only: q at m, k at m + 5 score the same for "
                         "m = 0, 1000 and 10^6.", "rope-score",
                         "scores %.9f, %.9f, %.9f (largest difference %.2g)", s[0], s[1], s[2], spread)))
        return st;
    if ((st = tour_claim(t, "Rotary embeddings (RoPE)",
                         "RoPE is a rotation: the norm of q is the same at every position.", "rotation",
                         "|q| = %.7f, |R(123456)·q| = %.7f (float32 rotation, relative difference %.2g)",
                         sqrt(n0), sqrt(n1), fabs(sqrt(n1) - sqrt(n0)) / sqrt(n0))))
        return st;
    if ((st = tour_claim(t, "Rotary embeddings (RoPE)",
                         "RoPE knows direction: the score at offset +7 differs from -7, where the sinusoidal "
                         "dot product is blind to the sign.", NULL,
                         "RoPE: score(+7) - score(-7) = %.6f; sinusoidal Σ cos(kω_i): %.2g", s7[0] - s7[1],
                         u7[0] - u7[1])))
        return st;
    if ((st = tour_claim(t, "Rotary embeddings (RoPE)",
                         "Locality: for aligned q and k the score falls as the offset grows, because pair after "
                         "pair turns away.", NULL,
                         "Σ_i cos(k·ω_i), D = 64: %.2f at k = 0, %.2f at k = 10, %.2f at k = 100, %.2f at k = 1000",
                         loc[0], loc[1], loc[2], loc[3])))
        return st;
    /* The slow pair past 180 degrees, and aliasing. */
    pe_freqs one;
    TRY(pe_freqs_default(2, 10.0, &one));
    one.inv_freq[0] = 1e-4;
    double phase, turns;
    TRY(pe_pair_periods(&one, 32000, NULL, NULL, &phase, &turns));
    if ((st = tour_claim(t, "Rotary embeddings (RoPE)",
                         "Even the slow pairs flip: with ω = 10^-4, an offset of 32000 turns the pair by 3.2 rad, "
                         "past 180°, so its contribution changes sign.", "flip",
                         "phase at k = 32000: %.4f rad = %.2f°; cos = %.4f", phase, phase * 180 / PI, cos(phase))))
        return st;
    one.inv_freq[0] = 1.0;
    TRY(pe_pair_periods(&one, 44, NULL, NULL, &phase, &turns));
    if ((st = tour_claim(t, "Rotary embeddings (RoPE)",
                         "Fast pairs alias: pair 0 (ω = 1) wraps every 2π ≈ 6.28 tokens, so offsets 0 and 44 look "
                         "alike to it; only the other pairs tell them apart.", "wavelengths",
                         "pair 0 at offset 44: %.2f turns, phase %.4f rad (%.2f° from offset 0)", turns, phase,
                         (phase > PI ? phase - 2 * PI : phase) * 180 / PI)))
        return st;
    pe_freqs *g = malloc(sizeof *g);
    if (g == NULL) return tour_fail(t, PE_ERR_NOMEM);
    int64_t off[2], found = 0, one_off = 1, f1 = 0;
    double dist[2], d1 = 0;
    st = pe_freqs_default(128, 10000.0, g);
    if (st == PE_OK) st = pe_near_collisions(g, 100, 100000, 1, off, dist, &found);
    if (st == PE_OK) st = pe_near_collisions(g, 1, 1, 1, &one_off, &d1, &f1);
    free(g);
    if (st != PE_OK) return tour_fail(t, st);
    return tour_claim(t, "Rotary embeddings (RoPE)",
                      "No two offsets collide exactly, but far offsets can come close: the nearest return "
                      "within 10^5 tokens is still farther than the next token.", NULL,
                      "D = 128: |PE(p+1) - PE(p)| = %.4f; closest offset in [100, 10^5] is %lld at %.4f",
                      d1, (long long)off[0], dist[0]);
}

static int scaling(tour *t) {
    double low, high;
    TRY(pe_yarn_correction_range(128, 10000.0, 2048, 32, 1, 1, &low, &high));
    pe_freqs *f = malloc(sizeof *f), *d = malloc(sizeof *d);
    double w[64];
    if (f == NULL || d == NULL) {
        free(f);
        free(d);
        return tour_fail(t, PE_ERR_NOMEM);
    }
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LLAMA3, 128);
    s.base = 500000.0;
    int st = pe_freqs_from_scaling(&s, f, w);
    if (st == PE_OK) st = pe_freqs_default(128, 500000.0, d);
    int64_t kept = 0, scaled = 0, mixed = 0;
    for (int i = 0; st == PE_OK && i < 64; i++) {
        if (w[i] == 1.0) kept++;
        else if (w[i] == 0.0) scaled++;
        else mixed++;
    }
    pe_rope_scaling y = pe_rope_scaling_defaults(PE_SCALING_YARN, 128);
    y.factor = 10;
    y.original_max_position = 2048;
    if (st == PE_OK) st = pe_freqs_from_scaling(&y, f, NULL);
    double yarn_a = f->attention_factor;
    pe_rope_scaling dy = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, 128);
    dy.factor = 4;
    dy.max_position = 4096;
    dy.seq_len = 4096;
    int same = 0;
    if (st == PE_OK) st = pe_freqs_from_scaling(&dy, f, NULL);
    if (st == PE_OK) {
        pe_freqs_default(128, 10000.0, d);
        same = memcmp(f->inv_freq, d->inv_freq, sizeof(double) * 64) == 0;
    }
    free(f);
    free(d);
    if (st != PE_OK) return tour_fail(t, st);
    return tour_claim(t, "Scaling RoPE to longer contexts",
                      "Scaling schemes stretch the slow pairs and leave the fast ones alone: Llama 3 keeps the "
                      "high-frequency band, scales the low one by 8 and blends between; YaRN ramps between pairs "
                      "16 and 41 and raises the logits' temperature; dynamic NTK does nothing until the "
                      "sequence outgrows the trained length.", "scaling",
                      "Llama 3 (D = 128, base 5·10^5): %lld pairs kept, %lld scaled by 1/8, %lld blended; YaRN "
                      "(f = 10, L0 = 2048) correction range [%g, %g], magnitude A = %.4f; dynamic NTK at "
                      "s = L: %s the default",
                      (long long)kept, (long long)scaled, (long long)mixed, low, high, yarn_a,
                      same ? "bit-identical to" : "DIFFERENT FROM");
}

/* Trains the tiny models of `posenc experiment --quick` and records their
 * table as one claim (the experiment prints it; we capture it). */
static int train_short_test_long(tour *t) {
    if (!t->experiment) return 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m == NULL) return tour_fail(t, PE_ERR_NOMEM);
    int st = ex_tour_section(m, stderr, t->n + 1);
    fclose(m);
    if (st != 0) {
        free(buf);
        return tour_fail(t, st);
    }
    /* First line "[n] claim...", the rest the table, indented by 4. */
    const char *nl = buf ? strchr(buf, '\n') : NULL;
    const char *body = nl ? nl + 1 : "";
    while (*body == ' ') body++;
    st = tour_claim(t, "Train short, test long",
                    "Tiny decoders trained on copy at lengths up to 16, tested longer: learned "
                    "positions cannot go past their table, sinusoidal and RoPE fail past the "
                    "training length, rescaled RoPE keeps more tokens right but not whole answers, "
                    "and ALiBi holds on longest.", NULL, "%s", body);
    free(buf);
    return st;
}

int tour_run_all(tour *t) {
    int (*const steps[])(tour *) = {bag_of_words, raw_integers, normalized, binary, sinusoidal,
                                     learned,      rope,         scaling,    train_short_test_long};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        int st = steps[i](t);
        if (st != 0) return st;
    }
    return 0;
}
