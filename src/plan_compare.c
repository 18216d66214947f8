/*
 * plan_compare.c — pe_plan_compare: what differs between two plans of one
 * model (typically its config.json and a GGUF conversion), layer by layer.
 * Each difference is a sentence; layers that share a sentence are listed
 * together ("layers 0-4, 6-10: ..."), so a 60-layer model with one float32
 * base gives one line, not sixty.
 *
 * A frequency or magnitude difference is said to come from a GGUF's float32
 * storage only when that is predicted: the other plan's scaling, with every
 * real input (base, factor, magnitude, betas, lists) rounded to float32 as
 * the conversion stores it, must give the GGUF's values; otherwise the line
 * says float32 does not explain it.
 */
#include "plan_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pe_plan_diff {
    char **lines;
    int64_t n;
};

/* Distinct messages with the layers that produced each. */
typedef struct {
    char *msg;
    int64_t *layers;
    int64_t n;
} group;

typedef struct {
    group *g;
    int64_t n, cap;
    int64_t max_layers; /* capacity of each group's layer list */
} groups;

static int add(groups *gs, int64_t layer, const char *msg) {
    for (int64_t i = 0; i < gs->n; i++)
        if (strcmp(gs->g[i].msg, msg) == 0) {
            gs->g[i].layers[gs->g[i].n++] = layer;
            return PE_OK;
        }
    if (gs->n == gs->cap) {
        int64_t cap = gs->cap ? gs->cap * 2 : 16;
        group *grown = realloc(gs->g, (size_t)cap * sizeof *grown);
        if (grown == NULL) return pe__fail(PE_ERR_NOMEM, "no memory to compare plans");
        gs->g = grown;
        gs->cap = cap;
    }
    group *g = &gs->g[gs->n];
    g->msg = malloc(strlen(msg) + 1);
    g->layers = malloc(sizeof(int64_t) * (size_t)gs->max_layers);
    if (g->msg == NULL || g->layers == NULL) {
        free(g->msg);
        free(g->layers);
        return pe__fail(PE_ERR_NOMEM, "no memory to compare plans");
    }
    strcpy(g->msg, msg);
    g->layers[0] = layer;
    g->n = 1;
    gs->n++;
    return PE_OK;
}

static void groups_free(groups *gs) {
    for (int64_t i = 0; i < gs->n; i++) {
        free(gs->g[i].msg);
        free(gs->g[i].layers);
    }
    free(gs->g);
}

/* Largest relative difference between two frequency vectors (hi + lo);
 * *where gets the pair. Zero frequencies compare absolutely. */
static double max_rel(const pe_freqs *a, const pe_freqs *b, int64_t *where) {
    double worst = 0.0;
    *where = 0;
    for (int64_t i = 0; i < a->rotary_dim / 2; i++) {
        long double x = (long double)a->inv_freq[i] + a->inv_freq_lo[i];
        long double y = (long double)b->inv_freq[i] + b->inv_freq_lo[i];
        long double den = fabsl(x) > 0 ? fabsl(x) : 1.0L;
        double r = (double)(fabsl(x - y) / den);
        if (r > worst) {
            worst = r;
            *where = i;
        }
    }
    return worst;
}

static const char *layout_name(pe_rope_layout l) {
    return l == PE_ROPE_HALF ? "half" : "interleaved";
}

static double f32(double v) { return isfinite(v) ? (double)(float)v : v; }

/* Round a list into buf (n <= PE_MAX_ROTARY_DIM / 2) and point at it. */
static const double *f32_list(const double *v, int64_t n, double *buf) {
    if (v == NULL) return NULL;
    for (int64_t i = 0; i < n && i < PE_MAX_ROTARY_DIM / 2; i++) buf[i] = f32(v[i]);
    return buf;
}

/* The GGUF's frequencies predicted from the other plan's layer with every
 * real input rounded to float32. A GGUF carrying explicit divisors
 * (rope_freqs.weight) gets the other plan's ratios to the default
 * frequencies, rounded. *ok false when the prediction cannot be made. */
static int predict_f32(const pe_plan *c, const pe_plan *g, int64_t i, int64_t seq_len,
                       const pe_freqs *fc, pe_freqs *out, bool *ok) {
    static const size_t half = PE_MAX_ROTARY_DIM / 2;
    pe_rope_scaling s, sg;
    *ok = false;
    PE_TRY(pe_plan_layer_scaling(c, i, seq_len, &s));
    PE_TRY(pe_plan_layer_scaling(g, i, seq_len, &sg));
    double shortf[PE_MAX_ROTARY_DIM / 2], longf[PE_MAX_ROTARY_DIM / 2], divs[PE_MAX_ROTARY_DIM / 2];
    pe_rope_scaling p = s;
    if (sg.type == PE_SCALING_EXPLICIT && s.type != PE_SCALING_EXPLICIT) {
        /* the conversion wrote w_default(b) / w_i per pair */
        pe_freqs def;
        PE_TRY(pe_freqs_default(fc->rotary_dim, s.base, &def));
        for (int64_t k = 0; k < fc->rotary_dim / 2 && (size_t)k < half; k++) {
            long double d = (long double)def.inv_freq[k] + def.inv_freq_lo[k];
            long double w = (long double)fc->inv_freq[k] + fc->inv_freq_lo[k];
            divs[k] = (double)(float)(d / w);
        }
        p = pe_rope_scaling_defaults(PE_SCALING_EXPLICIT, s.head_dim);
        p.rotary_dim = s.rotary_dim;
        p.base = f32(s.base);
        p.divisors = divs;
        p.n_divisors = fc->rotary_dim / 2;
    } else {
        if (sg.type != s.type) return PE_OK;
        p.base = f32(s.base);
        p.factor = f32(s.factor);
        p.beta_fast = f32(s.beta_fast);
        p.beta_slow = f32(s.beta_slow);
        p.mscale = f32(s.mscale);
        p.mscale_all_dim = f32(s.mscale_all_dim);
        p.low_freq_factor = f32(s.low_freq_factor);
        p.high_freq_factor = f32(s.high_freq_factor);
        /* a derived magnitude is stored as a number */
        p.attention_factor = f32(fc->attention_factor);
        p.short_factor = f32_list(s.short_factor, s.n_short_factor, shortf);
        p.long_factor = f32_list(s.long_factor, s.n_long_factor, longf);
        p.divisors = f32_list(s.divisors, s.n_divisors, divs);
    }
    if (pe_freqs_from_scaling(&p, out, NULL) != PE_OK) return PE_OK;
    *ok = true;
    return PE_OK;
}

/* What float32 says about a difference of relative size diff whose
 * prediction (the other plan's inputs rounded to float32) misses the GGUF
 * by err: it explains it (err within tol), it may (the difference is
 * within a few float32 ulps, as a converter computing in float32 makes:
 * Llama 3's divisors), or it does not. */
static void f32_clause(char *buf, size_t cap, bool predicted, double err, double diff,
                       double tol, const char *inputs) {
    const double few_f32_ulps = 8.0 * 5.9604644775390625e-8; /* 8 * 2^-24 */
    if (predicted && err <= tol)
        snprintf(buf, cap, "; float32 storage explains it (%s)", inputs);
    else if (diff <= few_f32_ulps)
        snprintf(buf, cap, "; within float32 precision, but rounding the inputs to float32 does "
                 "not reproduce it (the conversion's float32 arithmetic)");
    else
        snprintf(buf, cap, "; float32 storage does not explain it");
}

/* The parameters of two layers of one non-RoPE kind: "" when equal, else
 * the first that differs. ALiBi slopes compare exactly (each plan's own
 * rule and head count give them). */
static int position_diffs(const pe_plan *a, const pe_plan *b, int64_t i, pe_position_kind kind,
                          char *m, size_t cap) {
    m[0] = '\0';
    if (kind == PE_POSITION_ALIBI) {
        pe_plan_alibi x, y;
        PE_TRY(pe_plan_layer_alibi(a, i, &x));
        PE_TRY(pe_plan_layer_alibi(b, i, &y));
        if (x.heads != y.heads) {
            snprintf(m, cap, "ALiBi heads: %s %lld, %s %lld", a->source, (long long)x.heads,
                     b->source, (long long)y.heads);
            return PE_OK;
        }
        if (x.heads < 1 || x.heads > 65536) return PE_OK;
        double *sx = malloc(2 * (size_t)x.heads * sizeof *sx);
        if (sx == NULL) return pe__fail(PE_ERR_NOMEM, "no memory to compare plans");
        double *sy = sx + x.heads;
        int st = pe_plan_layer_alibi_slopes(a, i, sx, NULL);
        if (st == PE_OK) st = pe_plan_layer_alibi_slopes(b, i, sy, NULL);
        for (int64_t h = 0; st == PE_OK && h < x.heads; h++)
            if (sx[h] != sy[h]) {
                snprintf(m, cap, "ALiBi slopes: head %lld: %s %.17g, %s %.17g", (long long)h,
                         a->source, sx[h], b->source, sy[h]);
                break;
            }
        free(sx);
        return st;
    }
    if (kind == PE_POSITION_LEARNED) {
        pe_plan_learned x, y;
        PE_TRY(pe_plan_layer_learned(a, i, &x));
        PE_TRY(pe_plan_layer_learned(b, i, &y));
        if (x.rows != y.rows || x.offset != y.offset || x.dim != y.dim)
            snprintf(m, cap, "learned table: %s %lld rows offset %lld dim %lld, %s %lld rows "
                     "offset %lld dim %lld", a->source, (long long)x.rows, (long long)x.offset,
                     (long long)x.dim, b->source, (long long)y.rows, (long long)y.offset,
                     (long long)y.dim);
    }
    return PE_OK;
}

/* The attention pattern a layer type's name states: 1 sliding, 2 chunked,
 * 0 anything else (full attention, or no attention at all). */
static int attention_pattern(const char *layer_type) {
    if (strcmp(layer_type, "sliding_attention") == 0) return 1;
    if (strcmp(layer_type, "chunked_attention") == 0) return 2;
    return 0;
}

/* Every difference of layer i, each through emit. */
static int layer_diffs(const pe_plan *a, const pe_plan *b, int64_t i, int64_t seq_len,
                       pe_freqs *fa, pe_freqs *fb, groups *gs) {
    pe_plan_layer x, y;
    PE_TRY(pe_plan_layer_info(a, i, &x));
    PE_TRY(pe_plan_layer_info(b, i, &y));
    char m[560];
    const char *na = a->source, *nb = b->source;
    /* A layer type is a name, and a config and a GGUF name layers in their
     * own vocabularies (Hugging Face's "conv", "mamba", "attention";
     * llama.cpp's "shortconv", "mamba2", "full_attention"). What a name
     * stands for (attention or not, the position kind, the window, the
     * chunk) is compared below, so across sources only a name that changes
     * the attention pattern (sliding or chunked against full) is reported;
     * two plans of one source compare their names as they are. */
    if (strcmp(x.layer_type, y.layer_type) != 0 &&
        (strcmp(na, nb) == 0 || attention_pattern(x.layer_type) != attention_pattern(y.layer_type))) {
        snprintf(m, sizeof m, "layer type: %s %s, %s %s", na, x.layer_type, nb, y.layer_type);
        PE_TRY(add(gs, i, m));
    }
    pe_plan_position px, py;
    PE_TRY(pe_plan_layer_position(a, i, &px));
    PE_TRY(pe_plan_layer_position(b, i, &py));
    if (px.kind != py.kind || x.attention != y.attention || x.rope != y.rope) {
        snprintf(m, sizeof m, "positions: %s %s, %s %s", na, pe_position_kind_name(px.kind), nb,
                 pe_position_kind_name(py.kind));
        return add(gs, i, m);
    }
    if (px.kind != PE_POSITION_ROPE) {
        PE_TRY(position_diffs(a, b, i, px.kind, m, sizeof m));
        if (m[0] != '\0') PE_TRY(add(gs, i, m));
    }
    if (x.sliding_window != y.sliding_window) {
        snprintf(m, sizeof m, "sliding window: %s %lld, %s %lld", na, (long long)x.sliding_window,
                 nb, (long long)y.sliding_window);
        PE_TRY(add(gs, i, m));
    }
    if (x.chunk_size != y.chunk_size) {
        snprintf(m, sizeof m, "attention chunk: %s %lld, %s %lld", na, (long long)x.chunk_size,
                 nb, (long long)y.chunk_size);
        PE_TRY(add(gs, i, m));
    }
    if (x.temperature.active != y.temperature.active ||
        (x.temperature.active && (x.temperature.beta != y.temperature.beta ||
                                  x.temperature.span != y.temperature.span ||
                                  x.temperature.offset != y.temperature.offset))) {
        char tx[96] = "none", ty[96] = "none";
        if (x.temperature.active)
            snprintf(tx, sizeof tx, "beta %.17g span %lld offset %lld", x.temperature.beta,
                     (long long)x.temperature.span, (long long)x.temperature.offset);
        if (y.temperature.active)
            snprintf(ty, sizeof ty, "beta %.17g span %lld offset %lld", y.temperature.beta,
                     (long long)y.temperature.span, (long long)y.temperature.offset);
        /* predicted: the same scale but for one beta rounded to float32 */
        const bool f32_beta = x.temperature.active && y.temperature.active &&
                              x.temperature.span == y.temperature.span &&
                              x.temperature.offset == y.temperature.offset &&
                              (f32(x.temperature.beta) == y.temperature.beta ||
                               f32(y.temperature.beta) == x.temperature.beta);
        snprintf(m, sizeof m, "query scale: %s %s, %s %s%s", na, tx, nb, ty,
                 f32_beta ? "; float32 storage explains it (the beta)" : "");
        PE_TRY(add(gs, i, m));
    }
    if (!x.rope) return PE_OK;
    if (x.head_dim != y.head_dim || x.rotary_dim != y.rotary_dim) {
        snprintf(m, sizeof m, "dims: %s rotary %lld of head %lld, %s rotary %lld of head %lld", na,
                 (long long)x.rotary_dim, (long long)x.head_dim, nb, (long long)y.rotary_dim,
                 (long long)y.head_dim);
        PE_TRY(add(gs, i, m));
        /* the rotated pairs still compare when only the head differs (an
         * MLA GGUF's key_length holds the latent width) */
        if (x.rotary_dim != y.rotary_dim) return PE_OK;
    }
    if (x.layout != y.layout) {
        snprintf(m, sizeof m, "pair layout: %s %s, %s %s (a GGUF's q/k weights are permuted to "
                 "match its own layout; each is right for its weights)", na,
                 layout_name(x.layout), nb, layout_name(y.layout));
        PE_TRY(add(gs, i, m));
    }
    bool sections_differ = x.n_mrope_section != y.n_mrope_section;
    for (int64_t k = 0; !sections_differ && k < x.n_mrope_section && k < 4; k++)
        sections_differ = x.mrope_section[k] != y.mrope_section[k];
    if (sections_differ || (x.n_mrope_section > 0 && x.mrope_interleaved != y.mrope_interleaved)) {
        char sx[64] = "none", sy[64] = "none";
        if (x.n_mrope_section > 0)
            snprintf(sx, sizeof sx, "[%lld,%lld,%lld] %s", (long long)x.mrope_section[0],
                     (long long)x.mrope_section[1], (long long)x.mrope_section[2],
                     x.mrope_interleaved ? "interleaved" : "blocked");
        if (y.n_mrope_section > 0)
            snprintf(sy, sizeof sy, "[%lld,%lld,%lld] %s", (long long)y.mrope_section[0],
                     (long long)y.mrope_section[1], (long long)y.mrope_section[2],
                     y.mrope_interleaved ? "interleaved" : "blocked");
        snprintf(m, sizeof m, "M-RoPE sections: %s %s, %s %s", na, sx, nb, sy);
        PE_TRY(add(gs, i, m));
    }
    PE_TRY(pe_plan_layer_freqs(a, i, seq_len, fa, NULL));
    PE_TRY(pe_plan_layer_freqs(b, i, seq_len, fb, NULL));
    if (fa->rotary_dim != fb->rotary_dim) {
        snprintf(m, sizeof m, "frequency count: %s %lld pairs, %s %lld", na,
                 (long long)(fa->rotary_dim / 2), nb, (long long)(fb->rotary_dim / 2));
        return add(gs, i, m);
    }
    /* 4 ulps: two exact routes to one closed form agree far closer. */
    const double tol = 4 * 2.220446049250313e-16;
    int64_t at;
    double r = max_rel(fa, fb, &at);
    double ra = fabs(fa->attention_factor - fb->attention_factor) / fabs(fa->attention_factor);
    /* The float32 prediction, when exactly one side is a GGUF with float32
     * inputs. */
    const bool a_gguf = strcmp(a->source, "gguf") == 0, b_gguf = strcmp(b->source, "gguf") == 0;
    const pe_plan_layer *gl = b_gguf ? &y : &x;
    char fclause[200] = "", aclause[200] = "";
    if ((r > tol || ra > tol) && a_gguf != b_gguf && gl->f32_inputs[0] != '\0') {
        pe_freqs pred;
        bool ok;
        const pe_freqs *fg = b_gguf ? fb : fa, *fc = b_gguf ? fa : fb;
        PE_TRY(predict_f32(b_gguf ? a : b, b_gguf ? b : a, i, seq_len, fc, &pred, &ok));
        int64_t w;
        f32_clause(fclause, sizeof fclause, ok, ok ? max_rel(&pred, fg, &w) : 0.0, r, tol,
                   gl->f32_inputs);
        f32_clause(aclause, sizeof aclause, ok,
                   ok ? fabs(pred.attention_factor - fg->attention_factor) /
                            fabs(fg->attention_factor)
                      : 0.0,
                   ra, tol, gl->f32_inputs);
    }
    if (r > tol) {
        snprintf(m, sizeof m, "inv_freq differ by up to %.3g relative (pair %lld: %s %.17g, %s "
                 "%.17g; %s %s, base %.17g vs %.17g)%s", r, (long long)at, na,
                 fa->inv_freq[at], nb, fb->inv_freq[at], pe_scaling_name(x.scaling),
                 pe_scaling_name(y.scaling), x.base, y.base, fclause);
        PE_TRY(add(gs, i, m));
    }
    if (ra > tol) {
        snprintf(m, sizeof m, "magnitude A: %s %.17g, %s %.17g (%.3g relative)%s", na,
                 fa->attention_factor, nb, fb->attention_factor, ra, aclause);
        PE_TRY(add(gs, i, m));
    }
    double rm = fabs(fa->softmax_scale_multiplier - fb->softmax_scale_multiplier) /
                fabs(fa->softmax_scale_multiplier);
    if (rm > tol) {
        snprintf(m, sizeof m, "softmax multiplier: %s %.17g, %s %.17g", na,
                 fa->softmax_scale_multiplier, nb, fb->softmax_scale_multiplier);
        PE_TRY(add(gs, i, m));
    }
    return PE_OK;
}

/* "layers 0-4, 6-10: msg" into a new string. */
static char *format_group(const group *g) {
    size_t cap = strlen(g->msg) + 64 + (size_t)g->n * 24, used = 0;
    char *s = malloc(cap);
    if (s == NULL) return NULL;
    used += (size_t)snprintf(s, cap, g->n == 1 ? "layer " : "layers ");
    for (int64_t k = 0; k < g->n;) {
        int64_t j = k;
        while (j + 1 < g->n && g->layers[j + 1] == g->layers[j] + 1) j++;
        if (j == k)
            used += (size_t)snprintf(s + used, cap - used, "%s%lld", k ? ", " : "",
                                     (long long)g->layers[k]);
        else
            used += (size_t)snprintf(s + used, cap - used, "%s%lld-%lld", k ? ", " : "",
                                     (long long)g->layers[k], (long long)g->layers[j]);
        k = j + 1;
    }
    snprintf(s + used, cap - used, ": %s", g->msg);
    return s;
}

int pe_plan_compare(const pe_plan *a, const pe_plan *b, int64_t seq_len, pe_plan_diff **out) {
    PE_CHECK_NULL(a);
    PE_CHECK_NULL(b);
    PE_CHECK_NULL(out);
    if (seq_len < 0)
        return pe__fail(PE_ERR_PARAM, "seq_len=%lld must be >= 0 (0: not stated)",
                        (long long)seq_len);
    groups gs = {NULL, 0, 0, a->n_layers < b->n_layers ? a->n_layers : b->n_layers};
    pe_freqs f[2]; /* 16 KiB */
    pe_plan_diff *d = calloc(1, sizeof *d);
    int st = d == NULL ? pe__fail(PE_ERR_NOMEM, "no memory to compare plans") : PE_OK;
    char head[160] = "";
    if (st == PE_OK && a->n_layers != b->n_layers)
        snprintf(head, sizeof head, "layer count: %s %lld, %s %lld", a->source,
                 (long long)a->n_layers, b->source, (long long)b->n_layers);
    const int64_t n = a->n_layers < b->n_layers ? a->n_layers : b->n_layers;
    for (int64_t i = 0; st == PE_OK && i < n; i++) st = layer_diffs(a, b, i, seq_len, &f[0], &f[1], &gs);
    if (st == PE_OK) {
        d->lines = calloc((size_t)gs.n + 1, sizeof *d->lines);
        if (d->lines == NULL) st = pe__fail(PE_ERR_NOMEM, "no memory to compare plans");
    }
    if (st == PE_OK && head[0]) {
        d->lines[d->n] = malloc(strlen(head) + 1);
        if (d->lines[d->n] == NULL) st = pe__fail(PE_ERR_NOMEM, "no memory to compare plans");
        else strcpy(d->lines[d->n++], head);
    }
    for (int64_t i = 0; st == PE_OK && i < gs.n; i++) {
        d->lines[d->n] = format_group(&gs.g[i]);
        if (d->lines[d->n] == NULL) st = pe__fail(PE_ERR_NOMEM, "no memory to compare plans");
        else d->n++;
    }
    groups_free(&gs);
    if (st != PE_OK) {
        pe_plan_diff_free(d);
        return st;
    }
    *out = d;
    return PE_OK;
}

int64_t pe_plan_diff_count(const pe_plan_diff *diff) { return diff != NULL ? diff->n : 0; }

const char *pe_plan_diff_line(const pe_plan_diff *diff, int64_t index) {
    if (diff == NULL || index < 0 || index >= diff->n) return NULL;
    return diff->lines[index];
}

void pe_plan_diff_free(pe_plan_diff *diff) {
    if (diff == NULL) return;
    for (int64_t i = 0; i < diff->n; i++) free(diff->lines[i]);
    free(diff->lines);
    free(diff);
}
