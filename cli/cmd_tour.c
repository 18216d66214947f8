/*
 * cmd_tour.c — `posenc tour`: walks the seeds' claims in order and prints,
 * for each, one line with the number that supports it. Every number is
 * computed by the library here and now; nothing is hard-coded but the
 * claims' wording and the seeds' printed values they are compared with.
 */
#include "commands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {NULL, NULL, NULL},
};

const cli_spec cmd_tour_spec = {
    "tour",
    "",
    "the seeds' story, one claim and its number per line",
    "Checks the claims of the design notes with numbers computed now: the sinusoidal value\n"
    "of position 7 at D = 4, attention without positions as a bag of words, RoPE's\n"
    "relativity (same offset, same score), norm preservation, and RoPE's direction\n"
    "awareness against the symmetric sinusoidal dot product. `make run` runs it.",
    opts,
    0,
    0,
    "  posenc tour\n",
};

/* Deterministic test vectors in [-1, 1) (splitmix64), so the tour prints the
 * same numbers on every machine. */
static void fill_vector(float *x, int64_t n, uint64_t seed) {
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        x[i] = (float)((double)(z >> 11) * 0x1p-52 - 1.0);
    }
}

static double dot(const float *a, const float *b, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += (double)a[i] * (double)b[i];
    return s;
}

/* RoPE score <R(m) q, R(n) k> with default frequencies, half-split pairs. */
static int rope_score(const pe_freqs *f, const float *q, const float *k, int64_t D, int64_t m,
                      int64_t n, double *score) {
    float rq[256], rk[256];
    pe_positions pm = pe_positions_range(m), pn = pe_positions_range(n);
    pe_tensor tq = pe_tensor_dense((void *)q, PE_F32, 1, 1, D), oq = pe_tensor_dense(rq, PE_F32, 1, 1, D);
    pe_tensor tk = pe_tensor_dense((void *)k, PE_F32, 1, 1, D), ok = pe_tensor_dense(rk, PE_F32, 1, 1, D);
    int st = pe_rope_apply(f, PE_ROPE_HALF, &pm, &tq, &oq, PE_ROPE_FORWARD);
    if (st == PE_OK) st = pe_rope_apply(f, PE_ROPE_HALF, &pn, &tk, &ok, PE_ROPE_FORWARD);
    if (st == PE_OK) *score = dot(rq, rk, D);
    return st;
}

static void claim(int *n, const char *text) { printf("[%d] %s\n", ++*n, text); }

/* The tour's state: the claim counter and the test vectors. */
typedef struct {
    int n;
    pe_freqs freqs; /* default RoPE, D = 64 */
    float q[64], k[64];
} tour;

static int sinusoidal_golden(tour *t) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    pe_positions pos = pe_positions_range(7);
    double row[4];
    int st = pe_additive_encode(&p, &pos, 1, row, PE_F64);
    if (st != PE_OK) return st;
    claim(&t->n, "Sinusoidal encoding of position 7 at D = 4 is (sin 7, cos 7, sin 0.07, cos 0.07).");
    printf("    PE(7) = (%.5f, %.5f, %.5f, %.5f)\n", row[0], row[1], row[2], row[3]);
    printf("    The seeds' sheet prints the third value as 0.0698; sin(0.07) = %.9f rounds to %.4f:"
           " trust the math.\n", row[2], row[2]);
    return PE_OK;
}

static int bag_of_words(tour *t) {
    /* Self-attention of 6 tokens, then of the same tokens reversed. */
    enum { T = 6, D = 8 };
    float x[T * D], xr[T * D], o[T * D], orr[T * D];
    fill_vector(x, T * D, 11);
    for (int i = 0; i < T; i++) memcpy(xr + i * D, x + (T - 1 - i) * D, sizeof(float) * D);
    pe_attention_params p = {T, T, D, D, 0.0, 0, NULL};
    int st = pe_attention(&p, x, x, x, o);
    if (st == PE_OK) st = pe_attention(&p, xr, xr, xr, orr);
    if (st != PE_OK) return st;
    double gap = 0;
    for (int i = 0; i < T; i++)
        for (int e = 0; e < D; e++) gap = fmax(gap, fabs((double)orr[i * D + e] - o[(T - 1 - i) * D + e]));
    claim(&t->n, "Without positions, attention is a bag of words: reversing the tokens only reverses the outputs.");
    printf("    max |attn(reversed x) - reversed attn(x)| = %.2g (float rounding only)\n", gap);
    return PE_OK;
}

static int rope_relativity(tour *t) {
    const int64_t m[3] = {0, 1000, 1000000};
    double s[3];
    for (int i = 0; i < 3; i++) {
        int st = rope_score(&t->freqs, t->q, t->k, 64, m[i], m[i] + 5, &s[i]);
        if (st != PE_OK) return st;
    }
    double spread = fmax(fabs(s[1] - s[0]), fabs(s[2] - s[0]));
    claim(&t->n, "RoPE scores depend on the offset only: q at m, k at m + 5, for m = 0, 1000, 10^6.");
    printf("    scores %.7f, %.7f, %.7f (largest difference %.2g)\n", s[0], s[1], s[2], spread);
    return PE_OK;
}

static int rope_norm(tour *t) {
    float r[64];
    pe_positions p = pe_positions_range(123456);
    pe_tensor in = pe_tensor_dense(t->q, PE_F32, 1, 1, 64), out = pe_tensor_dense(r, PE_F32, 1, 1, 64);
    int st = pe_rope_apply(&t->freqs, PE_ROPE_HALF, &p, &in, &out, PE_ROPE_FORWARD);
    if (st != PE_OK) return st;
    double a = sqrt(dot(t->q, t->q, 64)), b = sqrt(dot(r, r, 64));
    claim(&t->n, "RoPE is a rotation: it preserves the norm of q at any position.");
    printf("    |q| = %.7f, |R(123456) q| = %.7f (relative difference %.2g)\n", a, b, fabs(b - a) / a);
    return PE_OK;
}

static int rope_direction(tour *t) {
    const int64_t m = 100, k = 7;
    double plus, minus;
    int st = rope_score(&t->freqs, t->q, t->k, 64, m, m + k, &plus);
    if (st == PE_OK) st = rope_score(&t->freqs, t->q, t->k, 64, m, m - k, &minus);
    if (st != PE_OK) return st;
    pe_additive_params sp = pe_additive_defaults(PE_ADD_SINUSOIDAL, 64);
    double pe[3 * 64];
    int64_t ids[3] = {m, m + k, m - k};
    pe_positions pos = pe_positions_list(ids);
    st = pe_additive_encode(&sp, &pos, 3, pe, PE_F64);
    if (st != PE_OK) return st;
    double sp_plus = 0, sp_minus = 0;
    for (int j = 0; j < 64; j++) {
        sp_plus += pe[j] * pe[64 + j];
        sp_minus += pe[j] * pe[128 + j];
    }
    claim(&t->n, "RoPE knows direction; the sinusoidal dot product does not (offset +7 vs -7).");
    printf("    RoPE: score(+7) - score(-7) = %.6f;  sinusoidal: PE(m).PE(m+7) - PE(m).PE(m-7) = %.2g\n",
           plus - minus, sp_plus - sp_minus);
    return PE_OK;
}

int cmd_tour(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    tour *t = calloc(1, sizeof *t);
    if (t == NULL) return cli_runtime_error(spec, "out of memory");
    int st = pe_freqs_default(64, 10000.0, &t->freqs);
    fill_vector(t->q, 64, 1);
    fill_vector(t->k, 64, 2);
    printf("posenc %s tour: the claims of the design notes, checked with numbers.\n\n", pe_version_string());
    int (*const steps[])(tour *) = {sinusoidal_golden, bag_of_words, rope_relativity, rope_norm,
                                     rope_direction};
    for (size_t i = 0; st == PE_OK && i < sizeof steps / sizeof steps[0]; i++) st = steps[i](t);
    free(t);
    if (st != PE_OK) return cli_lib_error(spec, st);
    return cli_close_output(spec, stdout, NULL);
}
