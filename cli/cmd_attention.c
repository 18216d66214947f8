/* cmd_attention.c — `posenc attention`: the reference attention on random or
 * .npy inputs, and the seeds' bag-of-words fact: without positions,
 * permuting the tokens only permutes the output rows. */
#include "commands.h"
#include "output.h"
#include "random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {"tokens", "T", "number of random tokens (default 6, at most 4096) [1, 4096]"},
    {"dim", "D", "random token width, even (default 8, at most 4096) [2, 4096]"},
    {"seed", "S", "seed of the random tokens (default 1)"},
    {"q", "Q.npy", "queries, float32 (T, D); with --k and --v instead of random tokens"},
    {"k", "K.npy", "keys, float32 (T, D)"},
    {"v", "V.npy", "values, float32 (T, Dv)"},
    {"scheme", "none|rope|sinusoidal", "position scheme to compare against none (default rope)"},
    {"base", "B", "base of the position scheme (default 10000)"},
    {"causal", NULL, "mask future keys"},
    {"format", "table|json", "output format (default table)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_attention_spec = {
    "attention",
    "[--tokens T --dim D --seed S | --q Q.npy --k K.npy --v V.npy] [--scheme S] [--causal]",
    "reference attention and the permutation-equivariance check",
    "Runs softmax(q k^T / sqrt(D) + mask) v in double precision on random tokens (q = k = v)\n"
    "or on .npy inputs, prints the output with the chosen position scheme, then permutes the\n"
    "tokens (reverses them) and reports max |attn(P x) - P attn(x)|: zero up to rounding\n"
    "without positions (attention alone sees a bag of words), large with RoPE or sinusoidal.",
    opts,
    0,
    0,
    "  posenc attention\n"
    "  posenc attention --tokens 16 --dim 32 --scheme sinusoidal\n",
};

enum { SCHEME_NONE, SCHEME_ROPE, SCHEME_SIN };

typedef struct {
    int64_t T, D, Dv;
    int causal, scheme;
    double base;
} attn_setup;

/* out = attention of (q, k, v) with the scheme applied at positions 0..T-1. */
static int run_scheme(const attn_setup *s, const float *q, const float *k, const float *v,
                      float *out) {
    pe_attention_params p = pe_attention_params_default(s->T, s->T, s->D, s->Dv);
    p.causal = s->causal;
    pe_positions pos = pe_positions_range(0);
    if (s->scheme == SCHEME_NONE) return pe_attention(&p, q, k, v, out);
    if (s->scheme == SCHEME_ROPE) {
        pe_freqs f;
        int st = pe_freqs_default(s->D, s->base, &f);
        if (st == PE_OK) st = pe_attention_rope(&p, &f, PE_ROPE_HALF, &pos, &pos, q, k, v, out);
        return st;
    }
    /* sinusoidal: added to q and k at the input */
    size_t n = (size_t)(s->T * s->D);
    float *buf = malloc(sizeof(float) * 3 * n);
    if (buf == NULL) return PE_ERR_NOMEM;
    float *pe = buf, *qa = buf + n, *ka = buf + 2 * n;
    pe_additive_params ap = pe_additive_defaults(PE_ADD_SINUSOIDAL, s->D);
    ap.base = s->base;
    int st = pe_additive_encode(&ap, &pos, s->T, pe, PE_F32);
    if (st == PE_OK) {
        for (size_t i = 0; i < n; i++) {
            qa[i] = q[i] + pe[i];
            ka[i] = k[i] + pe[i];
        }
        st = pe_attention(&p, qa, ka, v, out);
    }
    free(buf);
    return st;
}

/* max |attn(reversed x)[t] - attn(x)[T-1-t]| (pe_permutation_gap) */
static int permutation_gap(const attn_setup *s, const float *q, const float *k, const float *v,
                           double *gap) {
    size_t nq = (size_t)(s->T * s->D), nv = (size_t)(s->T * s->Dv);
    float *buf = malloc(sizeof(float) * (2 * nq + 3 * nv));
    int64_t *rev = malloc(sizeof(int64_t) * (size_t)s->T);
    if (buf == NULL || rev == NULL) {
        free(buf);
        free(rev);
        return PE_ERR_NOMEM;
    }
    float *qp = buf, *kp = qp + nq, *vp = kp + nq, *o = vp + nv, *op = o + nv;
    for (int64_t t = 0; t < s->T; t++) {
        int64_t src = rev[t] = s->T - 1 - t;
        memcpy(qp + t * s->D, q + src * s->D, sizeof(float) * (size_t)s->D);
        memcpy(kp + t * s->D, k + src * s->D, sizeof(float) * (size_t)s->D);
        memcpy(vp + t * s->Dv, v + src * s->Dv, sizeof(float) * (size_t)s->Dv);
    }
    int st = run_scheme(s, q, k, v, o);
    if (st == PE_OK) st = run_scheme(s, qp, kp, vp, op);
    if (st == PE_OK) st = pe_permutation_gap(o, op, rev, s->T, s->Dv, gap);
    free(buf);
    free(rev);
    return st;
}

static int load_input(const cli_spec *spec, const char *path, pe_npy_array *arr) {
    int st = pe_npy_read(path, arr);
    if (st != PE_OK) return cli_lib_error(spec, st);
    if (arr->dtype != PE_F32 || arr->ndim != 2)
        return cli_runtime_error(spec, "%s: need float32 of shape (T, D), got %s with %d dims", path,
                                 pe_dtype_name(arr->dtype), arr->ndim);
    return CLI_OK;
}

int cmd_attention(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static const char *const schemes[] = {"none", "rope", "sinusoidal", NULL};
    static const char *const formats[] = {"table", "json", NULL};
    attn_setup s = {6, 8, 8, cli_has(&a, "causal"), SCHEME_ROPE, 10000.0};
    int64_t seed = 1;
    int format = 0;
    if ((rc = cli_get_int64(&a, "tokens", &s.T)) || (rc = cli_get_int64(&a, "dim", &s.D)) ||
        (rc = cli_get_int64(&a, "seed", &seed)) ||
        (rc = cli_get_choice(&a, "scheme", schemes, &s.scheme)) ||
        (rc = cli_get_double(&a, "base", &s.base)) ||
        (rc = cli_get_choice(&a, "format", formats, &format)))
        return rc;
    int n_files = cli_has(&a, "q") + cli_has(&a, "k") + cli_has(&a, "v");
    if (n_files != 0 && n_files != 3)
        return cli_usage_error(spec, "give all of --q, --k and --v, or none");
    if (n_files && (cli_has(&a, "tokens") || cli_has(&a, "dim") || cli_has(&a, "seed")))
        return cli_usage_error(spec, "--tokens/--dim/--seed describe random inputs; not with --q/--k/--v");
    pe_npy_array qa = {0}, ka = {0}, va = {0};
    float *rnd = NULL, *out = NULL;
    const float *q, *k, *v;
    int result = CLI_OK;
    if (n_files) {
        if ((result = load_input(spec, cli_get(&a, "q"), &qa)) ||
            (result = load_input(spec, cli_get(&a, "k"), &ka)) ||
            (result = load_input(spec, cli_get(&a, "v"), &va)))
            goto done;
        if (qa.shape[0] != ka.shape[0] || ka.shape[0] != va.shape[0] || qa.shape[1] != ka.shape[1]) {
            result = cli_runtime_error(spec, "shapes differ: q (%lld, %lld), k (%lld, %lld), v (%lld, %lld)",
                                       (long long)qa.shape[0], (long long)qa.shape[1],
                                       (long long)ka.shape[0], (long long)ka.shape[1],
                                       (long long)va.shape[0], (long long)va.shape[1]);
            goto done;
        }
        s.T = qa.shape[0];
        s.D = qa.shape[1];
        s.Dv = va.shape[1];
        q = qa.data;
        k = ka.data;
        v = va.data;
    } else {
        if (s.T < 1 || s.T > 4096 || s.D < 2 || s.D > 4096) {
            result = cli_usage_error(spec, "--tokens must be in [1, 4096] and --dim in [2, 4096] (got %lld, %lld)",
                                     (long long)s.T, (long long)s.D);
            goto done;
        }
        s.Dv = s.D;
        rnd = malloc(sizeof(float) * (size_t)(s.T * s.D));
        if (rnd == NULL) {
            result = cli_runtime_error(spec, "out of memory");
            goto done;
        }
        cli_fill_uniform_f32(rnd, s.T * s.D, (uint64_t)seed);
        q = k = v = rnd;
    }
    out = malloc(sizeof(float) * (size_t)(s.T * s.Dv));
    if (out == NULL) {
        result = cli_runtime_error(spec, "out of memory");
        goto done;
    }
    int st = run_scheme(&s, q, k, v, out);
    double gap_none = 0, gap_scheme = 0;
    attn_setup none = s;
    none.scheme = SCHEME_NONE;
    if (st == PE_OK) st = permutation_gap(&none, q, k, v, &gap_none);
    if (st == PE_OK) st = permutation_gap(&s, q, k, v, &gap_scheme);
    if (st != PE_OK) {
        result = cli_opts_error(&a, st);
        goto done;
    }
    /* Float rounding of sums taken in another order is ~1e-7; anything above
     * 1e-5 is the position information at work. */
    const double tol = 1e-5;
    if (format == 1) {
        printf("{\"tokens\": %lld, \"dim\": %lld, \"dim_v\": %lld, \"scheme\": \"%s\", "
               "\"causal\": %s, \"output\": [",
               (long long)s.T, (long long)s.D, (long long)s.Dv, schemes[s.scheme],
               s.causal ? "true" : "false");
        for (int64_t t = 0; t < s.T; t++) {
            printf("%s[", t ? ", " : "");
            for (int64_t e = 0; e < s.Dv; e++) {
                if (e) printf(", ");
                out_json_number(stdout, out[t * s.Dv + e]);
            }
            printf("]");
        }
        printf("], \"permutation_gap_without_position\": ");
        out_json_number(stdout, gap_none);
        printf(", \"permutation_gap_with_scheme\": ");
        out_json_number(stdout, gap_scheme);
        printf(", \"equivariant_without_position\": %s, \"equivariant_with_scheme\": %s}\n",
               gap_none <= tol ? "true" : "false", gap_scheme <= tol ? "true" : "false");
    }
    if (format == 0) {
        printf("attention output (%lld tokens x %lld, scheme %s%s):\n", (long long)s.T,
               (long long)s.Dv, schemes[s.scheme], s.causal ? ", causal" : "");
        for (int64_t t = 0; t < s.T; t++) {
            printf("  token %3lld:", (long long)t);
            for (int64_t e = 0; e < s.Dv; e++) printf(" %9.5f", out[t * s.Dv + e]);
            printf("\n");
        }
        printf("permutation check (tokens reversed): max |attn(Px) - P attn(x)|\n");
        printf("  without position: %.3g -> %s\n", gap_none,
               gap_none <= tol ? "permutation-equivariant: attention alone sees a bag of words"
                               : "NOT equivariant (unexpected)");
        if (s.scheme != SCHEME_NONE)
            printf("  with %s: %.3g -> %s\n", schemes[s.scheme], gap_scheme,
                   gap_scheme > tol ? "order changes the output: positions are seen"
                                    : "equivariant (positions had no effect)");
    }
done:
    free(rnd);
    free(out);
    pe_npy_free(&qa);
    pe_npy_free(&ka);
    pe_npy_free(&va);
    return result;
}
