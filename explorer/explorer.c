/*
 * explorer.c — what the browser explorer (explorer/app.js) asks libposenc,
 * compiled with the library's portable C to WebAssembly (make explorer).
 * Each function is a thin call into the public API with the same inputs the
 * CLI builds for the matching command (cli/freq_opts.c, cli/analyze_rope.c,
 * and the CLI's seeded random q, k from cli/random.c), so the page and
 * `posenc` print the same numbers. Buffers are the caller's (the page
 * allocates them in the module's memory); every function returns a
 * pe_status, and px_last_error() says what a rejected call rejected.
 * Integers cross as int: the page's ranges are small.
 */
#include "explorer.h"

#include "../cli/random.h"

#include <emscripten/emscripten.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

EMSCRIPTEN_KEEPALIVE const char *px_last_error(void) { return pe_last_error(); }

EMSCRIPTEN_KEEPALIVE const char *px_version(void) { return pe_version_string(); }

EMSCRIPTEN_KEEPALIVE int px_freqs_size(void) { return (int)sizeof(pe_freqs); }

/* The frequencies of `posenc freqs --head-dim D --base B --scaling S
 * --factor F --original-max-position L0` (F, L0 read only by the schemes
 * that take them; as the CLI, everything else at its default). */
EMSCRIPTEN_KEEPALIVE int px_freqs(pe_freqs *out, const char *scaling, int head_dim, double base,
                                  double factor, int original_max_position) {
    pe_scaling_type type;
    int st = pe_scaling_from_name(scaling, &type);
    if (st != PE_OK) return st;
    pe_rope_scaling s = pe_rope_scaling_defaults(type, head_dim);
    s.base = base;
    if (type != PE_SCALING_DEFAULT) s.factor = factor;
    if (type == PE_SCALING_YARN || type == PE_SCALING_LLAMA3)
        s.original_max_position = original_max_position;
    return pe_freqs_from_scaling(&s, out, NULL);
}

/* Pairs of the frequencies (rotary_dim / 2), and frequency i / magnitude. */
EMSCRIPTEN_KEEPALIVE int px_pairs(const pe_freqs *f) { return (int)(f->rotary_dim / 2); }
EMSCRIPTEN_KEEPALIVE double px_inv_freq(const pe_freqs *f, int i) { return f->inv_freq[i]; }
EMSCRIPTEN_KEEPALIVE double px_attention_factor(const pe_freqs *f) { return f->attention_factor; }

/* `posenc analyze flip --offset K`: per pair (rotary_dim / 2 each). */
EMSCRIPTEN_KEEPALIVE int px_pair_periods(const pe_freqs *f, int offset, double *wavelength,
                                         double *flip, double *phase, double *turns) {
    return pe_pair_periods(f, offset, wavelength, flip, phase, turns);
}

/* `posenc analyze relativity --m M --range A:A+n --seed S --layout L`
 * (step 1): score(+k) and score(-k) for k = start + j step, j < n. q and k
 * are the CLI's seeded uniform vectors (its rope_score), or with unit != 0
 * both the vector with a 1 in the first element of every rotated pair (its
 * sinusoidal_dot, sum_i cos(k w_i)). layout: 0 interleaved, 1 half. */
EMSCRIPTEN_KEEPALIVE int px_score_curve(const pe_freqs *f, int head_dim, int layout, int m,
                                        int start, int step, int n, int seed, int unit,
                                        double *plus, double *minus) {
    /* Sizes for the buffers below; the library checks the rest and names it. */
    if (head_dim < 1 || head_dim > PE_MAX_ROTARY_DIM || n < 1 || n > 100000) return PE_ERR_PARAM;
    double *q = malloc(sizeof(double) * 2 * (size_t)head_dim);
    int64_t *offs = malloc(sizeof(int64_t) * 2 * (size_t)n);
    int st = PE_ERR_NOMEM;
    if (q && offs) {
        cli_fill_uniform(q, 2 * (int64_t)head_dim, (uint64_t)seed);
        if (unit) {
            memset(q, 0, sizeof(double) * 2 * (size_t)head_dim);
            for (int64_t i = 0; i < f->rotary_dim / 2 && i < head_dim; i++)
                q[layout == 0 ? 2 * i : i] = q[head_dim + (layout == 0 ? 2 * i : i)] = 1.0;
        }
        for (int j = 0; j < n; j++) {
            offs[j] = start + (int64_t)j * step;
            offs[n + j] = -offs[j];
        }
        st = pe_rope_score_curve(f, (pe_rope_layout)layout, head_dim, q, q + head_dim, m, offs, n,
                                 plus);
        if (st == PE_OK)
            st = pe_rope_score_curve(f, (pe_rope_layout)layout, head_dim, q, q + head_dim, m,
                                     offs + n, n, minus);
    }
    free(q);
    free(offs);
    return st;
}

/* `posenc analyze similarity --scheme rope --range A:A+n --seed S --layout L`:
 * (n, n) row-major <R(p_i) q, R(p_j) k>. */
EMSCRIPTEN_KEEPALIVE int px_similarity_rope(const pe_freqs *f, int head_dim, int layout, int start,
                                            int n, int seed, double *out) {
    if (head_dim < 1 || head_dim > PE_MAX_ROTARY_DIM) return PE_ERR_PARAM;
    double *q = malloc(sizeof(double) * 2 * (size_t)head_dim);
    if (q == NULL) return PE_ERR_NOMEM;
    cli_fill_uniform(q, 2 * (int64_t)head_dim, (uint64_t)seed);
    const pe_positions pos = pe_positions_range(start);
    const int st =
        pe_similarity_rope(f, (pe_rope_layout)layout, head_dim, q, q + head_dim, &pos, n, out);
    free(q);
    return st;
}

/* `posenc analyze similarity --scheme sinusoidal --dim D --base B --range A:A+n`. */
EMSCRIPTEN_KEEPALIVE int px_similarity_sinusoidal(int dim, double base, int start, int n,
                                                  double *out) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, dim);
    p.base = base;
    const pe_positions pos = pe_positions_range(start);
    return pe_similarity_additive(&p, &pos, n, out);
}

/* `posenc encode sinusoidal --dim D --base B --range A:A+n --layout L`:
 * (n, D) rows. layout: 0 interleaved (sin, cos per pair), 1 concatenated. */
EMSCRIPTEN_KEEPALIVE int px_sinusoidal_rows(int dim, double base, int layout, int start, int n,
                                            double *out) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, dim);
    p.base = base;
    p.layout = layout ? PE_SIN_CONCATENATED : PE_SIN_INTERLEAVED;
    const pe_positions pos = pe_positions_range(start);
    return pe_additive_encode(&p, &pos, n, out, PE_F64);
}

/* `posenc analyze logit-terms --scheme raw|sinusoidal --dim D --m M --n N
 * --seed S`: the four terms and the logit (out: 5) of a query token at m and
 * a key token at n with positions added, Q, K and the tokens the CLI's
 * seeded uniform values (Q, K scaled by 1/sqrt D), as that command builds
 * them (cli/analyze_additive.c). */
EMSCRIPTEN_KEEPALIVE int px_logit_terms(int sinusoidal, int dim, int m, int n, int seed, double *out) {
    if (dim < 1 || dim > 256) return PE_ERR_PARAM; /* the page passes 8 (the CLI's default) */
    const int64_t D = dim;
    double *buf = malloc(sizeof(double) * (size_t)(2 * D * D + 6 * D));
    if (buf == NULL) return PE_ERR_NOMEM;
    double *Q = buf, *K = Q + D * D, *em = K + D * D, *en = em + D, *rows = en + D;
    cli_fill_uniform(Q, 2 * D * D + 2 * D, (uint64_t)seed);
    for (int64_t i = 0; i < 2 * D * D; i++) Q[i] /= sqrt((double)D);
    pe_additive_params p = pe_additive_defaults(sinusoidal ? PE_ADD_SINUSOIDAL : PE_ADD_RAW, D);
    const int64_t ids[2] = {m, n};
    const pe_positions pos = pe_positions_list(ids);
    pe_logit_terms t;
    int st = pe_additive_encode(&p, &pos, 2, rows, PE_F64);
    if (st == PE_OK) st = pe_logit_terms_compute(D, Q, K, em, en, rows, rows + D, &t);
    free(buf);
    if (st != PE_OK) return st;
    out[0] = t.content_content;
    out[1] = t.content_position;
    out[2] = t.position_content;
    out[3] = t.position_position;
    out[4] = t.logit;
    return PE_OK;
}

/* The shift matrix M_k on a sinusoidal code: out (3, D) holds PE(p), M_k·PE(p)
 * (pe_shift_apply, built from k alone) and PE(p + k) (`posenc encode
 * sinusoidal --range p+k:p+k+1`), so the page can show the last two agree. */
EMSCRIPTEN_KEEPALIVE int px_shift(int dim, double base, int p, int k, double *out) {
    pe_additive_params a = pe_additive_defaults(PE_ADD_SINUSOIDAL, dim);
    a.base = base;
    const pe_positions at = pe_positions_range(p), later = pe_positions_range((int64_t)p + k);
    int st = pe_additive_encode(&a, &at, 1, out, PE_F64);
    if (st == PE_OK) st = pe_shift_apply(&a, k, out, out + dim);
    if (st == PE_OK) st = pe_additive_encode(&a, &later, 1, out + 2 * dim, PE_F64);
    return st;
}
