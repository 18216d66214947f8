/*
 * check.c — diagnose an engine's RoPE from what it dumped (include/posenc.h,
 * "rotation check"). The verdict compares every element of the dump with
 * the exact rotation of its inputs under the expectation; the diagnosis
 * re-rotates a sample of the dump's rows under candidate faults built from
 * the library's own pieces (frequency generators, layouts, M-RoPE slot
 * maps, exact cos/sin) and ranks them by how closely each reproduces the
 * dump. Nothing here knows what the answer should be: each hypothesis is
 * scored against the data, and the base and position offset are fitted
 * from the angles the dump shows.
 */
#include "internal.h"
#include "positions.h"
#include "scaling_internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2 pi, without relying on M_PI (not in strict C11) */
#define TWO_PI 6.283185307179586476925286766559

static const char *const diag_names[PE_DIAG_COUNT] = {
    "layout",          "partial_rotary", "base",           "scaling_missing",
    "scaling_type",    "yarn_truncate",  "magnitude",      "position_offset",
    "float32_angles",  "mrope_axes",     "half_precision_tables", "pairs_unrotated",
};

const char *pe_diagnosis_name(pe_diagnosis diagnosis) {
    if ((int)diagnosis < 0 || (int)diagnosis >= PE_DIAG_COUNT) return "?";
    return diag_names[diagnosis];
}

static const char *const angle_names[PE_ANGLES_COUNT] = {
    "exact", "rounded_freqs", "powf", "expf", "ggml_recurrence", "ggml_powf_scale",
};

/* The recipes in a diagnosis's words (docs/CHECK.md cites each source). */
static const char *const angle_words[PE_ANGLES_COUNT] = {
    "exact angles",
    "fl(fl(p) fl(w)), w rounded to float once",
    "w = 1/powf(b, 2j/d) in float (llama2.c, Hugging Face), fl(fl(p) w)",
    "w = expf(-(2j/d) logf(b)) in float, fl(fl(p) w)",
    "ggml's recurrence theta *= powf(b, -2/d) in float",
    "ggml CUDA's fl(p) powf(powf(b, -2/d), j) in float",
};

const char *pe_check_angles_name(pe_check_angles angles) {
    if ((int)angles < 0 || (int)angles >= PE_ANGLES_COUNT) return "?";
    return angle_names[angles];
}

const char *pe_check_verdict_name(pe_check_verdict verdict) {
    switch (verdict) {
    case PE_CHECK_AGREE: return "agree";
    case PE_CHECK_FLOAT32: return "float32";
    case PE_CHECK_DISAGREE: return "disagree";
    }
    return "?";
}

/* ------------------------------------------------------------ expectation */

int pe_check_expect_from_freqs(const pe_freqs *freqs, pe_rope_layout layout,
                               pe_check_expect *out) {
    PE_CHECK_NULL(freqs);
    PE_CHECK_NULL(out);
    if (layout != PE_ROPE_INTERLEAVED && layout != PE_ROPE_HALF)
        return pe__fail(PE_ERR_PARAM, "layout=%d is not a pe_rope_layout", (int)layout);
    PE_TRY(pe_freqs_validate(freqs));
    memset(out, 0, sizeof *out);
    out->freqs = *freqs;
    out->layout = layout;
    return PE_OK;
}

int pe_check_expect_from_plan(const pe_plan *plan, int64_t layer, int64_t seq_len,
                              pe_check_expect *out) {
    PE_CHECK_NULL(plan);
    PE_CHECK_NULL(out);
    pe_plan_layer info;
    PE_TRY(pe_plan_layer_info(plan, layer, &info));
    if (!info.rope)
        return pe__fail(PE_ERR_PARAM, "layer=%lld (%s) does not rotate: nothing to check",
                        (long long)layer, info.layer_type);
    int64_t n_sec = info.n_mrope_section;
    if (n_sec == 4 && info.mrope_section[3] == 0) n_sec = 3;
    if (n_sec != 0 && n_sec != 3)
        return pe__fail(PE_ERR_UNSUPPORTED, "layer=%lld has %lld M-RoPE sections (3 are checked)",
                        (long long)layer, (long long)info.n_mrope_section);
    pe_check_expect ex, *e = &ex; /* filled here, copied out only on success */
    memset(e, 0, sizeof *e);
    int st = pe_plan_layer_freqs(plan, layer, seq_len, &e->freqs, NULL);
    if (st == PE_OK) st = pe_plan_layer_scaling(plan, layer, seq_len, &e->scaling);
    if (st == PE_OK) {
        e->scaling_known = 1;
        e->layout = info.layout;
        e->n_mrope_section = n_sec;
        for (int k = 0; k < 3 && n_sec == 3; k++) e->mrope_section[k] = info.mrope_section[k];
        e->mrope_mode = info.mrope_interleaved ? PE_MROPE_INTERLEAVED : PE_MROPE_BLOCKED;
        e->chunk_size = info.chunk_size;
        *out = *e;
    }
    return st;
}

/* ------------------------------------------------------------- the dump */

/* A rotation dump, or a cos/sin cache seen as the rotation of (1, 0) in
 * every half-split pair: in = [1 .. 1, 0 .. 0], out = the cache row. */
typedef struct {
    const pe_tensor *in, *out;
    const void *cache;
    pe_dtype cache_dtype;
    int cache_mode;
    int64_t tokens, heads, head_dim;
    pe_dtype out_dtype;
} dump;

static double load(const void *data, pe_dtype dt, int64_t idx) {
    switch (dt) {
    case PE_F32: return ((const float *)data)[idx];
    case PE_F64: return ((const double *)data)[idx];
    case PE_F16: return pe__f16_to_f32(((const uint16_t *)data)[idx]);
    case PE_BF16: return pe__bf16_to_f32(((const uint16_t *)data)[idx]);
    case PE_I64:
    case PE_I8: break;
    }
    return NAN;
}

static void dump_in_row(const dump *d, int64_t t, int64_t h, double *row) {
    if (d->cache_mode) {
        for (int64_t e = 0; e < d->head_dim; e++) row[e] = e < d->head_dim / 2 ? 1.0 : 0.0;
        return;
    }
    const pe_tensor *v = d->in;
    int64_t base = t * v->token_stride + h * v->head_stride;
    for (int64_t e = 0; e < d->head_dim; e++) row[e] = load(v->data, v->dtype, base + e);
}

static void dump_out_row(const dump *d, int64_t t, int64_t h, double *row) {
    if (d->cache_mode) {
        for (int64_t e = 0; e < d->head_dim; e++)
            row[e] = load(d->cache, d->cache_dtype, t * d->head_dim + e);
        return;
    }
    const pe_tensor *v = d->out;
    int64_t base = t * v->token_stride + h * v->head_stride;
    for (int64_t e = 0; e < d->head_dim; e++) row[e] = load(v->data, v->dtype, base + e);
}

/* ----------------------------------------------------------- hypotheses */

enum { POS_SAME = 0, POS_SHIFT = 1, POS_RESTART = 2 };

/* One way an engine might have rotated: the expectation itself or a fault. */
typedef struct {
    pe_freqs f;           /* rotary_dim and A included */
    pe_rope_layout layout;
    int64_t offset;       /* first rotated element */
    pe_check_angles angles; /* how the angles are formed */
    double base;          /* the base f was made with (NaN: unknown) */
    int64_t skip_lo, skip_hi; /* pairs [skip_lo, skip_hi) left unrotated */
    pe_dtype tables;      /* PE_F16 / PE_BF16: A cos, A sin rounded; else none */
    int pos_mode;
    int64_t pos_k;        /* shift, or chunk length */
    int keep_start;       /* restart: at the first position (1) or at 0 */
    int mrope;
    int64_t sections[3];
    pe_mrope_mode mode;
    int zero_axis;        /* -1, or the axis whose positions are 0 ... */
    int zero_all;         /* ... on every token (1) or on non-text tokens only */
    int axis_map[3];      /* slot axis a reads position column axis_map[a] */
    int text_axes;        /* every axis takes the token's plain position */
    int axes[PE_MAX_PAIRS];
    /* prepared from the above by prepare_angles for the float32 recipes */
    float w32[PE_MAX_PAIRS]; /* float frequencies */
    float ff[PE_MAX_PAIRS];  /* ggml recurrence: the per-pair divisor (1: none) */
    float ts;                /* ggml: powf(b, -2/d) */
    int w32_given;           /* w32 set by refine_ulps: prepare_angles keeps it */
} hyp;

typedef struct {
    const pe_check_expect *ex;
    dump d;
    const pe_positions *pos;
    const int64_t *mpos;
    int64_t p_first, pmin, pmax;
    int64_t *st, nst; /* sampled tokens */
    int64_t *sh, nsh; /* sampled heads */
    double *c, *s, *ca, *sa, *cs, *ss; /* PE_MAX_PAIRS each */
    double *rin, *rout, *rhyp, *rexp; /* head_dim each */
    hyp *best;        /* PE_DIAG_COUNT: the best hypothesis of each name */
    hyp *work;        /* scratch hypotheses (4) */
    pe_check_report *r;
    double res[PE_DIAG_COUNT], maxe[PE_DIAG_COUNT];
    char detail[PE_DIAG_COUNT][160];
    const hyp *expect; /* the exact expectation (context words compare with it) */
    uint64_t span;     /* pmax - pmin */
} ctx;

static int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    if (pe__i64_add(a, b, &r)) return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

static int64_t hyp_position(const ctx *x, const hyp *h, int64_t p) {
    switch (h->pos_mode) {
    case POS_SHIFT: return sat_add(p, h->pos_k);
    case POS_RESTART: {
        /* positions relative to the first token, modulo the chunk (exact
         * at any two int64 positions: the distance is unsigned) */
        const uint64_t k = (uint64_t)h->pos_k;
        uint64_t m = p >= x->p_first ? pe__pos_distance(x->p_first, p) % k
                                     : (k - pe__pos_distance(p, x->p_first) % k) % k;
        return h->keep_start ? sat_add(x->p_first, (int64_t)m) : (int64_t)m;
    }
    default: return p;
    }
}

static double round_table(double v, pe_dtype dt) {
    if (dt == PE_F16) return pe__f16_to_f32(pe__f32_to_f16((float)v));
    if (dt == PE_BF16) return pe__bf16_to_f32(pe__f32_to_bf16((float)v));
    return v;
}

/* powf, expf, logf as correctly rounded float functions (through double,
 * whose one extra rounding decides a tie only in rare cases): what glibc's
 * float functions return, so the recipes do not depend on this host's libm. */
static float rn_powf(float b, float e) { return (float)pow((double)b, (double)e); }
static float rn_expf(float v) { return (float)exp((double)v); }
static float rn_logf(float v) { return (float)log((double)v); }

/* v as a float when it is one's range (a double past FLT_MAX converted to
 * float is undefined behaviour; frequencies may reach 1e240). */
static bool as_float(double v, float *out) {
    if (!(fabs(v) <= FLT_MAX)) return false;
    *out = (float)v;
    return true;
}

/* The float frequencies of h's recipe (docs/CHECK.md, "Float32 recipes").
 * The recipes start from the base; a plan's per-pair scaling (its w_j over
 * b^(-2j/d)) is then applied in float. False when the recipe needs a base
 * that is unknown. */
static bool prepare_angles(hyp *h) {
    const int64_t d = h->f.rotary_dim, n = d / 2;
    if (h->angles == PE_ANGLES_EXACT || h->w32_given) return true;
    if (h->angles == PE_ANGLES_F32_ROUNDED) {
        for (int64_t j = 0; j < n; j++)
            if (!as_float(h->f.inv_freq[j], &h->w32[j])) return false;
        return true;
    }
    if (!(h->base > 1) || !isfinite(h->base) || h->base > 3e38) return false;
    const float b = (float)h->base;
    h->ts = rn_powf(b, -2.0f / (float)d);
    for (int64_t j = 0; j < n; j++) {
        const double w_default = pow(h->base, -2.0 * (double)j / (double)d);
        double ratio = h->f.inv_freq[j] / w_default;
        if (fabs(ratio - 1.0) <= 1e-9) ratio = 1.0;
        const float e = (float)(2 * j) / (float)d;
        float w = 0;
        switch (h->angles) {
        case PE_ANGLES_F32_POWF: w = 1.0f / rn_powf(b, e); break;
        case PE_ANGLES_F32_EXPF: w = rn_expf(-(e * rn_logf(b))); break;
        case PE_ANGLES_F32_GGML_POWF_SCALE: w = rn_powf(h->ts, (float)j); break;
        default: break;
        }
        h->w32[j] = w;
        h->ff[j] = 1.0f;
        if (ratio != 1.0) { /* 0 for a pair that does not turn (proportional RoPE) */
            if (!(ratio >= 0) || !as_float((double)w * ratio, &h->w32[j])) return false;
            if (!as_float(1.0 / ratio, &h->ff[j])) h->ff[j] = INFINITY; /* the angle is 0 */
        }
    }
    return true;
}

/* cos/sin of one position for the n pairs of f, exact or in float32. */
static void trig_at(const hyp *h, int64_t p, double *c, double *s) {
    const int64_t n = h->f.rotary_dim / 2;
    if (h->angles == PE_ANGLES_EXACT) {
        pe_positions one = pe_positions_range(p);
        pe_rope_cos_sin(&h->f, &one, 1, c, s, PE_F64);
        return;
    }
    const float fp = (float)p;
    if (h->angles == PE_ANGLES_F32_GGML_RECURRENCE) {
        float theta = fp;
        for (int64_t j = 0; j < n; j++) {
            const float a = h->ff[j] == 1.0f ? theta : theta / h->ff[j];
            c[j] = cos((double)a);
            s[j] = sin((double)a);
            theta *= h->ts;
        }
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        const float theta = fp * h->w32[j];
        c[j] = cos((double)theta);
        s[j] = sin((double)theta);
    }
}

/* The token's cos/sin under h into x->c, x->s (A folded in). */
static void token_trig(ctx *x, const hyp *h, int64_t t) {
    const int64_t n = h->f.rotary_dim / 2;
    const int64_t p = pe__position_at(x->pos, t);
    if (!h->mrope) {
        trig_at(h, hyp_position(x, h, p), x->c, x->s);
    } else {
        int64_t col[3];
        for (int a = 0; a < 3; a++)
            col[a] = (x->mpos != NULL && !h->text_axes) ? x->mpos[t * 3 + a] : p;
        /* a text token has t = h = w and a temporal position of its own;
         * the patches of an image share theirs (the first patch included) */
        int text = col[0] == col[1] && col[1] == col[2];
        if (text && x->mpos != NULL && !h->text_axes)
            text = !(t > 0 && x->mpos[(t - 1) * 3] == col[0]) &&
                   !(t + 1 < x->d.tokens && x->mpos[(t + 1) * 3] == col[0]);
        for (int a = 0; a < 3; a++) {
            const int zeroed = a == h->zero_axis && (h->zero_all || !text);
            int64_t pa = zeroed ? 0 : hyp_position(x, h, col[h->axis_map[a]]);
            trig_at(h, pa, x->ca, x->sa);
            for (int64_t j = 0; j < n; j++)
                if (h->axes[j] == a) {
                    x->c[j] = x->ca[j];
                    x->s[j] = x->sa[j];
                }
        }
    }
    const double A = h->f.attention_factor;
    for (int64_t j = 0; j < n; j++) {
        x->c[j] = round_table(A * x->c[j], h->tables);
        x->s[j] = round_table(A * x->s[j], h->tables);
    }
    for (int64_t j = h->skip_lo; j < h->skip_hi && j < n; j++) { /* left as they were */
        x->c[j] = 1.0;
        x->s[j] = 0.0;
    }
}

/* Indices of pair j of a slice of width w at offset o. */
static void pair_index(pe_rope_layout layout, int64_t o, int64_t w, int64_t j, int64_t *i0,
                       int64_t *i1) {
    if (layout == PE_ROPE_INTERLEAVED) {
        *i0 = o + 2 * j;
        *i1 = o + 2 * j + 1;
    } else {
        *i0 = o + j;
        *i1 = o + j + w / 2;
    }
}

static void rotate_row(const ctx *x, const hyp *h, const double *in, double *out) {
    const int64_t D = x->d.head_dim, w = h->f.rotary_dim, n = w / 2;
    memcpy(out, in, (size_t)D * sizeof *out);
    for (int64_t j = 0; j < n; j++) {
        int64_t i0, i1;
        pair_index(h->layout, h->offset, w, j, &i0, &i1);
        const double a = in[i0], b = in[i1];
        out[i0] = a * x->c[j] - b * x->s[j];
        out[i1] = a * x->s[j] + b * x->c[j];
    }
}

/* Pair of element e under the expectation (slice [0, d)); -1 outside. */
static int64_t element_pair(pe_rope_layout layout, int64_t d, int64_t e) {
    if (e >= d) return -1;
    if (layout == PE_ROPE_INTERLEAVED) return e / 2;
    return e < d / 2 ? e : e - d / 2;
}

/* RMS and max of (h's rotation of in - out) over the sampled rows. */
static void score(ctx *x, const hyp *h, double *rms, double *maxerr) {
    double sum = 0, mx = 0;
    int64_t count = 0;
    for (int64_t a = 0; a < x->nst; a++) {
        const int64_t t = x->st[a];
        token_trig(x, h, t);
        for (int64_t b = 0; b < x->nsh; b++) {
            dump_in_row(&x->d, t, x->sh[b], x->rin);
            dump_out_row(&x->d, t, x->sh[b], x->rout);
            rotate_row(x, h, x->rin, x->rhyp);
            for (int64_t e = 0; e < x->d.head_dim; e++) {
                double err = fabs(x->rhyp[e] - x->rout[e]);
                if (!(err <= mx)) mx = err; /* NaN propagates as the max */
                sum += err * err;
                count++;
            }
        }
    }
    *rms = count ? sqrt(sum / (double)count) : 0;
    *maxerr = mx;
}

/* Score h as an explanation named `name`; keep it if it is that name's best. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void consider(ctx *x, pe_diagnosis name, hyp *h, const char *fmt, ...) {
    if (h->offset < 0 || h->f.rotary_dim < 2 || h->offset + h->f.rotary_dim > x->d.head_dim) return;
    if (!prepare_angles(h)) return;
    double rms, mx;
    score(x, h, &rms, &mx);
    if (isnan(rms)) rms = INFINITY;
    if (!(rms < x->res[name])) return;
    x->res[name] = rms;
    x->maxe[name] = mx;
    x->best[name] = *h;
    va_list ap;
    va_start(ap, fmt);
    char *buf = x->detail[name];
    const size_t len = sizeof x->detail[name];
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    /* what the hypothesis carries besides its own fault (a combination) */
    if (name != PE_DIAG_LAYOUT && h->layout != x->expect->layout)
        snprintf(buf + strlen(buf), len - strlen(buf), " + %s pairs",
                 h->layout == PE_ROPE_INTERLEAVED ? "interleaved" : "half-split");
    if (name != PE_DIAG_FLOAT32_ANGLES && h->angles != PE_ANGLES_EXACT)
        snprintf(buf + strlen(buf), len - strlen(buf), " + float32 angles (%s)",
                 angle_names[h->angles]);
}

static const char *layout_words(pe_rope_layout l) {
    return l == PE_ROPE_INTERLEAVED ? "interleaved" : "half-split";
}

static double expected_base(const pe_check_expect *ex);

/* The expectation as a hypothesis. */
static int expected_hyp(const ctx *x, const pe_check_expect *ex, hyp *h) {
    memset(h, 0, sizeof *h);
    h->f = ex->freqs;
    h->layout = x->d.cache_mode ? PE_ROPE_HALF : ex->layout;
    h->tables = PE_F64;
    h->angles = PE_ANGLES_EXACT;
    h->base = expected_base(ex);
    h->zero_axis = -1;
    for (int a = 0; a < 3; a++) h->axis_map[a] = a;
    if (ex->n_mrope_section == 3) {
        h->mrope = 1;
        memcpy(h->sections, ex->mrope_section, sizeof h->sections);
        h->mode = ex->mrope_mode;
        PE_TRY(pe_mrope_slot_axes(h->f.rotary_dim, h->sections, h->mode, h->axes));
    }
    return PE_OK;
}

/* The base the expectation was made with (scaling known), else the one
 * its second frequency implies, w_1 = b^(-2/d). */
static double expected_base(const pe_check_expect *ex) {
    if (ex->scaling_known) return ex->scaling.base;
    const int64_t d = ex->freqs.rotary_dim;
    if (d >= 4 && ex->freqs.inv_freq[1] > 0 && ex->freqs.inv_freq[1] < 1)
        return exp(-log(ex->freqs.inv_freq[1]) * (double)d / 2.0);
    return NAN;
}

/* Frequencies of the expectation with another base or rotary width (A
 * kept); nonzero when the generator refuses them. */
static int freqs_variant(const pe_check_expect *ex, double base, int64_t width, pe_freqs *f) {
    int st;
    if (ex->scaling_known) {
        pe_rope_scaling sc = ex->scaling;
        sc.base = base;
        sc.rotary_dim = width;
        if (sc.head_dim < width) sc.head_dim = width;
        st = pe_freqs_from_scaling(&sc, f, NULL);
        if (st != PE_OK && width != ex->freqs.rotary_dim) st = pe_freqs_default(width, base, f);
    } else {
        st = pe_freqs_default(width, base, f);
    }
    if (st == PE_OK) f->attention_factor = ex->freqs.attention_factor;
    return st;
}

/* ---------------------------------------------------- angles of the dump */

/* theta[a][j]: the angle the dump turned pair j of sampled token a by
 * (the heads' dot and cross products summed), under the expected layout. */
static void observed_angles(ctx *x, const hyp *e, double *theta) {
    const int64_t n = e->f.rotary_dim / 2;
    for (int64_t a = 0; a < x->nst; a++) {
        double *row = theta + a * n;
        for (int64_t j = 0; j < n; j++) x->ca[j] = x->sa[j] = 0;
        for (int64_t b = 0; b < x->nsh; b++) {
            dump_in_row(&x->d, x->st[a], x->sh[b], x->rin);
            dump_out_row(&x->d, x->st[a], x->sh[b], x->rout);
            for (int64_t j = 0; j < n; j++) {
                int64_t i0, i1;
                pair_index(e->layout, 0, e->f.rotary_dim, j, &i0, &i1);
                const double p = x->rin[i0], q = x->rin[i1], u = x->rout[i0], v = x->rout[i1];
                x->ca[j] += p * u + q * v;
                x->sa[j] += p * v - q * u;
            }
        }
        for (int64_t j = 0; j < n; j++) row[j] = atan2(x->sa[j], x->ca[j]);
    }
}

static double wrap(double a) { return atan2(sin(a), cos(a)); }

static void sort_by_position(const ctx *x, int64_t *idx) {
    for (int64_t a = 0; a < x->nst; a++) idx[a] = a;
    for (int64_t a = 1; a < x->nst; a++) {
        int64_t v = idx[a], b = a;
        int64_t pv = pe__position_at(x->pos, x->st[v]);
        while (b > 0 && pe__position_at(x->pos, x->st[idx[b - 1]]) > pv) {
            idx[b] = idx[b - 1];
            b--;
        }
        idx[b] = v;
    }
}

/* Base from the observed angles: each pair's angular speed unwrapped along
 * the sampled positions (nearest first, so every step is unambiguous),
 * then ln(w_obs / w_exp) = -(2j/d) ln(b_obs / b_exp) by least squares
 * through the origin over the pairs that turned at least a radian. */
static double fit_base(ctx *x, const hyp *e, const double *theta, const int64_t *idx,
                       double base) {
    const int64_t n = e->f.rotary_dim / 2, d = e->f.rotary_dim;
    const int64_t p0 = pe__position_at(x->pos, x->st[idx[0]]);
    double sxy = 0, sxx = 0;
    for (int64_t j = 1; j < n; j++) {
        const double w_exp = e->f.inv_freq[j];
        if (!(w_exp > 0)) continue;
        double w = NAN, span = 0;
        for (int64_t a = 1; a < x->nst; a++) {
            const int64_t pa = pe__position_at(x->pos, x->st[idx[a]]);
            const double dp = (double)pa - (double)p0;
            if (!(dp > 0)) continue;
            const double raw = theta[idx[a] * n + j] - theta[idx[0] * n + j];
            if (isnan(w)) {
                w = wrap(raw) / dp;
            } else {
                const double pred = w * dp;
                const double un = raw + TWO_PI * nearbyint((pred - raw) / (TWO_PI));
                w = un / dp;
            }
            span = dp;
        }
        if (!(w > 0) || w * span < 1.0) continue;
        const double xj = -2.0 * (double)j / (double)d, yj = log(w / w_exp);
        sxy += xj * yj;
        sxx += xj * xj;
    }
    if (!(sxx > 0)) return NAN;
    return exp(log(base) + sxy / sxx);
}

/* Position offset from the observed angles: per token, the lag k with
 * theta_j = (p + k) w_j, read first from the slowest pair (unambiguous for
 * |k w| < pi) and refined through faster ones; the median over tokens. */
static double fit_offset(ctx *x, const hyp *e, const double *theta, double *scratch) {
    const int64_t n = e->f.rotary_dim / 2;
    int64_t m = 0;
    for (int64_t a = 0; a < x->nst; a++) {
        const int64_t p = pe__position_at(x->pos, x->st[a]);
        pe_positions one = pe_positions_range(p);
        pe_rope_cos_sin(&e->f, &one, 1, x->ca, x->sa, PE_F64);
        double k = NAN;
        for (int64_t j = n - 1; j >= 0; j--) {
            const double w = e->f.inv_freq[j];
            if (!(w > 0)) continue;
            const double th = theta[a * n + j];
            const double dlt = atan2(sin(th) * x->ca[j] - cos(th) * x->sa[j],
                                     cos(th) * x->ca[j] + sin(th) * x->sa[j]);
            if (isnan(k)) k = dlt / w;
            else k = (dlt + TWO_PI * nearbyint((k * w - dlt) / (TWO_PI))) / w;
        }
        if (!isnan(k)) scratch[m++] = k;
    }
    if (m == 0) return NAN;
    for (int64_t a = 1; a < m; a++) { /* insertion sort: m <= 512 */
        double v = scratch[a];
        int64_t b = a;
        while (b > 0 && scratch[b - 1] > v) {
            scratch[b] = scratch[b - 1];
            b--;
        }
        scratch[b] = v;
    }
    return scratch[m / 2];
}

/* ------------------------------------------------------------ candidates */

static void try_layout(ctx *x, const hyp *e, hyp *h) {
    if (x->d.cache_mode) return;
    *h = *e;
    h->layout = e->layout == PE_ROPE_HALF ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
    consider(x, PE_DIAG_LAYOUT, h, "%s instead of %s", layout_words(h->layout),
             layout_words(e->layout));
}

static void try_partial(ctx *x, const hyp *e, hyp *h, double base) {
    if (x->d.cache_mode || e->mrope) return;
    const int64_t D = x->d.head_dim, d = e->f.rotary_dim;
    const int64_t widths[] = {d, D, d / 2, 2 * d, D / 2, D / 4};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        const int64_t w = widths[k];
        if (w < 2 || w % 2 || w > D || w > PE_MAX_ROTARY_DIM) continue;
        bool dup = false;
        for (size_t q = 0; q < k; q++) dup = dup || widths[q] == w;
        if (dup) continue;
        *h = *e;
        if (w != d && (isnan(base) || freqs_variant(x->ex, base, w, &h->f) != PE_OK)) continue;
        const int64_t offsets[2] = {0, D - w};
        for (int o = 0; o < 2; o++) {
            if (o == 1 && offsets[1] == 0) continue;
            if (w == d && offsets[o] == 0) continue;
            h->offset = offsets[o];
            consider(x, PE_DIAG_PARTIAL_ROTARY, h,
                     "elements [%lld, %lld) rotated instead of [0, %lld)%s", (long long)h->offset,
                     (long long)(h->offset + w), (long long)d,
                     w != d ? " (frequencies for that width)" : "");
        }
    }
}

static void try_base(ctx *x, const hyp *e, hyp *h, double fitted, double base) {
    if (!(fitted > 1) || !isfinite(fitted) || isnan(base)) return;
    double cand[6];
    int nc = 0;
    cand[nc++] = fitted;
    const double mag = pow(10.0, floor(log10(fitted)));
    for (int digits = 1; digits <= 3; digits++) {
        const double unit = mag / pow(10.0, digits - 1);
        cand[nc++] = nearbyint(fitted / unit) * unit;
    }
    cand[nc++] = pow(10.0, nearbyint(log10(fitted)));
    for (int k = 0; k < nc; k++) {
        if (!(cand[k] > 1) || fabs(cand[k] - base) <= 1e-4 * base) continue; /* the plan's own */
        bool dup = false;
        for (int q = 0; q < k; q++) dup = dup || cand[q] == cand[k];
        if (dup) continue;
        *h = *e;
        h->base = cand[k];
        if (freqs_variant(x->ex, cand[k], e->f.rotary_dim, &h->f) != PE_OK) continue;
        if (h->mrope && pe_mrope_slot_axes(h->f.rotary_dim, h->sections, h->mode, h->axes) != PE_OK)
            continue;
        consider(x, PE_DIAG_BASE, h, "base %.10g instead of %.10g (fit from the per-pair angles: %.6g)",
                 cand[k], base, fitted);
    }
}

static const char *scaling_words(const pe_rope_scaling *sc, char *buf, size_t len) {
    if (sc->type == PE_SCALING_DEFAULT) snprintf(buf, len, "no scaling");
    else if (isnan(sc->factor)) snprintf(buf, len, "%s", pe_scaling_name(sc->type));
    else snprintf(buf, len, "%s factor %g", pe_scaling_name(sc->type), sc->factor);
    return buf;
}

static void try_scaling(ctx *x, const hyp *e, hyp *h) {
    const pe_check_expect *ex = x->ex;
    if (!ex->scaling_known) return;
    const pe_rope_scaling *sc = &ex->scaling;
    char plan_words[64], words[64];
    scaling_words(sc, plan_words, sizeof plan_words);
    if (sc->type != PE_SCALING_DEFAULT) { /* scaling_missing */
        pe_rope_scaling def = pe_rope_scaling_defaults(PE_SCALING_DEFAULT, sc->head_dim);
        def.rotary_dim = sc->rotary_dim;
        def.base = sc->base;
        *h = *e;
        if (pe_freqs_from_scaling(&def, &h->f, NULL) == PE_OK &&
            h->f.rotary_dim == e->f.rotary_dim) {
            consider(x, PE_DIAG_SCALING_MISSING, h, "no scaling applied (the plan: %s)", plan_words);
            if (e->f.attention_factor != 1.0) {
                h->f.attention_factor = e->f.attention_factor;
                consider(x, PE_DIAG_SCALING_MISSING, h,
                         "no scaling applied, magnitude A=%g kept (the plan: %s)",
                         e->f.attention_factor, plan_words);
            }
        }
    }
    if (sc->type == PE_SCALING_YARN) { /* yarn_truncate */
        pe_rope_scaling y = *sc;
        y.truncate = !sc->truncate;
        *h = *e;
        if (pe_freqs_from_scaling(&y, &h->f, NULL) == PE_OK && h->f.rotary_dim == e->f.rotary_dim) {
            h->f.attention_factor = e->f.attention_factor;
            consider(x, PE_DIAG_YARN_TRUNCATE, h,
                     y.truncate ? "correction range truncated (floor/ceil) though the plan says "
                                  "truncate: false"
                                : "correction range not truncated though the plan says "
                                  "truncate: true");
        }
    }
    /* scaling_type: the common schemes at the plan's factor and powers of two */
    static const pe_scaling_type types[] = {PE_SCALING_LINEAR, PE_SCALING_NTK, PE_SCALING_YARN,
                                            PE_SCALING_LLAMA3};
    double factors[8];
    int nf = 0;
    if (isfinite(sc->factor) && sc->factor > 1) factors[nf++] = sc->factor;
    for (double f = 2; f <= 64; f *= 2) factors[nf++] = f;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        for (int k = 0; k < nf; k++) {
            if (types[t] == sc->type && factors[k] == sc->factor) continue;
            bool dup = false;
            for (int q = 0; q < k; q++) dup = dup || factors[q] == factors[k];
            if (dup) continue;
            pe_rope_scaling o = pe_rope_scaling_defaults(types[t], sc->head_dim);
            o.rotary_dim = sc->rotary_dim;
            o.base = sc->base;
            o.factor = factors[k];
            if (types[t] == PE_SCALING_YARN || types[t] == PE_SCALING_LLAMA3) {
                if (sc->original_max_position > 0) o.original_max_position = sc->original_max_position;
                else if (types[t] == PE_SCALING_YARN) {
                    /* without L0 in the plan: the context it implies */
                    if (sc->max_position <= 0) continue;
                    o.original_max_position = (int64_t)((double)sc->max_position / factors[k]);
                    if (o.original_max_position <= 0) continue;
                }
            }
            /* the plan's own scheme at another factor: its other parameters kept */
            if (types[t] == sc->type) pe__scaling_keep_params(&o, sc);
            *h = *e;
            if (pe_freqs_from_scaling(&o, &h->f, NULL) != PE_OK || h->f.rotary_dim != e->f.rotary_dim)
                continue;
            consider(x, PE_DIAG_SCALING_TYPE, h, "%s instead of %s",
                     scaling_words(&o, words, sizeof words), plan_words);
        }
    }
}

static void try_magnitude(ctx *x, const hyp *e, hyp *h) {
    const double A = e->f.attention_factor;
    *h = *e;
    if (A != 1.0) {
        h->f.attention_factor = 1.0;
        consider(x, PE_DIAG_MAGNITUDE, h, "magnitude A missing (1 instead of %g)", A);
        h->f.attention_factor = A * A;
        if (h->f.attention_factor <= PE_MAX_ATTENTION_FACTOR)
            consider(x, PE_DIAG_MAGNITUDE, h, "magnitude A applied twice (%g instead of %g)",
                     A * A, A);
    }
    /* the magnitude the dump shows: |out| / |in| over the rotated pairs */
    double num = 0, den = 0;
    for (int64_t a = 0; a < x->nst; a++)
        for (int64_t b = 0; b < x->nsh; b++) {
            dump_in_row(&x->d, x->st[a], x->sh[b], x->rin);
            dump_out_row(&x->d, x->st[a], x->sh[b], x->rout);
            for (int64_t i = 0; i < e->f.rotary_dim; i++) {
                num += x->rout[i] * x->rout[i];
                den += x->rin[i] * x->rin[i];
            }
        }
    if (den > 0 && num > 0) {
        const double m = sqrt(num / den);
        /* a value already tried (1, A^2) keeps its own words */
        const bool tried = fabs(m - 1) <= 1e-4 || fabs(m - A * A) <= 1e-4 * A * A;
        if (!tried && fabs(m - A) > 1e-6 * A && m <= PE_MAX_ATTENTION_FACTOR) {
            h->f.attention_factor = m;
            consider(x, PE_DIAG_MAGNITUDE, h, "magnitude %.6g instead of %g (|out| / |in|)", m, A);
        }
    }
}

static void try_positions(ctx *x, const hyp *e, hyp *h, double k_fit) {
    int64_t ks[5];
    int nk = 0;
    if (isfinite(k_fit) && fabs(k_fit) < 9e15) {
        int64_t k = (int64_t)nearbyint(k_fit);
        if (k != 0) ks[nk++] = k;
    }
    for (int64_t k = 1; k <= 2; k++) {
        ks[nk++] = k;
        ks[nk++] = -k;
    }
    for (int a = 0; a < nk; a++) {
        bool dup = false;
        for (int q = 0; q < a; q++) dup = dup || ks[q] == ks[a];
        if (dup) continue;
        *h = *e;
        h->pos_mode = POS_SHIFT;
        h->pos_k = ks[a];
        consider(x, PE_DIAG_POSITION_OFFSET, h, "positions off by %+lld", (long long)ks[a]);
    }
    const double span = (double)x->pmax - (double)x->pmin;
    for (int64_t c = 2; (double)c <= span; c *= 2) {
        for (int keep = 0; keep < 2; keep++) {
            *h = *e;
            h->pos_mode = POS_RESTART;
            h->pos_k = c;
            h->keep_start = keep;
            consider(x, PE_DIAG_POSITION_OFFSET, h, "positions restart every %lld tokens%s",
                     (long long)c, keep ? " (from the first position)" : " (from 0)");
        }
        if (c > INT64_MAX / 2) break;
    }
    if (x->ex->chunk_size > 1 && (double)x->ex->chunk_size <= span) {
        *h = *e;
        h->pos_mode = POS_RESTART;
        h->pos_k = x->ex->chunk_size;
        consider(x, PE_DIAG_POSITION_OFFSET, h, "positions restart every %lld tokens (the chunk size)",
                 (long long)x->ex->chunk_size);
    }
}

/* w stepped by k ulps (k in [-ULPS, ULPS]). */
#define ULPS 4
static float step_ulps(float w, int k) {
    for (; k > 0; k--) w = nextafterf(w, INFINITY);
    for (; k < 0; k++) w = nextafterf(w, -INFINITY);
    return w;
}

/* The engine's libm and scaling arithmetic: a float powf/expf within 1-2
 * ulps (torch's vectorized pow, CUDA's powf, numpy's float32 power), or a
 * scaling blend computed in float (Hugging Face's llama3 middle band: up to
 * 3 ulps), gives some pairs a frequency a few ulps off the recipe, which at
 * large positions misses the bound in that pair alone. Each pair's angle
 * depends on its own frequency only, so per pair the frequency within ULPS
 * ulps of h's that reproduces that pair best over the sample is kept, when
 * it at least halves that pair's squared error (a move within the noise of
 * the rotation's own rounding is no evidence). Returns how many pairs moved
 * (h->w32 updated); 0 when none did or the sums cannot be allocated. */
static int64_t refine_ulps(ctx *x, hyp *h) {
    const int64_t n = h->f.rotary_dim / 2, K = 2 * ULPS + 1;
    double *err = calloc((size_t)(n * K), sizeof *err);
    if (err == NULL) return 0;
    const double A = h->f.attention_factor;
    for (int64_t a = 0; a < x->nst; a++) {
        const float fp = (float)hyp_position(x, h, pe__position_at(x->pos, x->st[a]));
        for (int64_t b = 0; b < x->nsh; b++) {
            dump_in_row(&x->d, x->st[a], x->sh[b], x->rin);
            dump_out_row(&x->d, x->st[a], x->sh[b], x->rout);
            for (int64_t j = 0; j < n; j++) {
                int64_t i0, i1;
                pair_index(h->layout, h->offset, h->f.rotary_dim, j, &i0, &i1);
                for (int64_t k = 0; k < K; k++) {
                    const float th = fp * step_ulps(h->w32[j], (int)k - ULPS);
                    const double c = A * cos((double)th), s = A * sin((double)th);
                    const double e0 = x->rin[i0] * c - x->rin[i1] * s - x->rout[i0];
                    const double e1 = x->rin[i0] * s + x->rin[i1] * c - x->rout[i1];
                    err[j * K + k] += e0 * e0 + e1 * e1;
                }
            }
        }
    }
    int64_t moved = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t best = ULPS;
        for (int64_t k = 0; k < K; k++)
            if (err[j * K + k] < err[j * K + best]) best = k;
        if (best != ULPS && err[j * K + best] < 0.5 * err[j * K + ULPS]) {
            h->w32[j] = step_ulps(h->w32[j], (int)best - ULPS);
            moved++;
        }
    }
    free(err);
    return moved;
}

/* Float32 arithmetic alone: each recipe on the expectation (e exact); then,
 * when the best recipe still misses, that recipe with a libm a few ulps
 * off (refine_ulps) for the recipes that form each pair's frequency apart. */
static void try_float32(ctx *x, const hyp *e, hyp *h) {
    for (int v = PE_ANGLES_F32_ROUNDED; v < PE_ANGLES_COUNT; v++) {
        *h = *e;
        h->angles = (pe_check_angles)v;
        consider(x, PE_DIAG_FLOAT32_ANGLES, h, "angles formed in float32: %s (positions up to %lld)",
                 angle_words[v], (long long)x->pmax);
    }
    const pe_diagnosis F = PE_DIAG_FLOAT32_ANGLES;
    if (!isfinite(x->res[F]) || x->maxe[F] <= x->r->bound || e->mrope ||
        x->best[F].angles == PE_ANGLES_F32_GGML_RECURRENCE)
        return;
    *h = x->best[F];
    const int64_t moved = refine_ulps(x, h);
    if (moved == 0) return;
    h->w32_given = 1;
    consider(x, F, h,
             "angles formed in float32: recipe %s, %lld of %lld frequencies 1-%d ulps off it (the "
             "engine's float arithmetic; positions up to %lld)",
             angle_names[h->angles], (long long)moved, (long long)(h->f.rotary_dim / 2), ULPS,
             (long long)x->pmax);
}

static void try_precision(ctx *x, const hyp *e, hyp *h) {
    static const pe_dtype dts[2] = {PE_F16, PE_BF16};
    for (int k = 0; k < 2; k++) {
        *h = *e;
        h->tables = dts[k];
        consider(x, PE_DIAG_HALF_PRECISION_TABLES, h, "cos/sin tables rounded to %s",
                 pe_dtype_name(dts[k]));
    }
}

/* Pairs left as they were: an engine that rotates a slice with the
 * full-width frequencies and copies the rest. The run is read from the
 * angles: pair j is unrotated when its observed angles sit closer to 0 than
 * to e's, summed over the sampled tokens. */
static void try_unrotated(ctx *x, const hyp *e, hyp *h, const double *theta) {
    if (x->d.cache_mode) return;
    const int64_t n = e->f.rotary_dim / 2;
    double *still = x->cs, *turned = x->ss; /* scratch, PE_MAX_PAIRS each */
    for (int64_t j = 0; j < n; j++) still[j] = turned[j] = 0;
    for (int64_t a = 0; a < x->nst; a++) {
        token_trig(x, e, x->st[a]);
        for (int64_t j = 0; j < n; j++) {
            const double th = theta[a * n + j], dev = wrap(th - atan2(x->s[j], x->c[j]));
            still[j] += th * th;
            turned[j] += dev * dev;
        }
    }
    int64_t lo = -1, hi = -1;
    for (int64_t j = 0; j < n; j++) {
        if (still[j] < turned[j]) {
            if (lo < 0) lo = j;
            hi = j + 1;
        }
    }
    if (lo < 0) return;
    const int64_t runs[3][2] = {{lo, hi}, {lo, n}, {n / 2, n}};
    for (int k = 0; k < 3; k++) {
        bool dup = false;
        for (int q = 0; q < k; q++) dup = dup || (runs[q][0] == runs[k][0] && runs[q][1] == runs[k][1]);
        if (dup || runs[k][0] >= runs[k][1]) continue;
        *h = *e;
        h->skip_lo = runs[k][0];
        h->skip_hi = runs[k][1];
        consider(x, PE_DIAG_PAIRS_UNROTATED, h, "pairs [%lld, %lld) not rotated (of %lld)",
                 (long long)h->skip_lo, (long long)h->skip_hi, (long long)n);
    }
}

static void try_mrope(ctx *x, const hyp *e, hyp *h) {
    if (!e->mrope) return;
    static const char *const axis[3] = {"t", "h", "w"};
    *h = *e;
    h->mode = e->mode == PE_MROPE_BLOCKED ? PE_MROPE_INTERLEAVED : PE_MROPE_BLOCKED;
    if (pe_mrope_slot_axes(h->f.rotary_dim, h->sections, h->mode, h->axes) == PE_OK)
        consider(x, PE_DIAG_MROPE_AXES, h, "%s sections instead of %s",
                 h->mode == PE_MROPE_BLOCKED ? "blocked" : "interleaved",
                 e->mode == PE_MROPE_BLOCKED ? "blocked" : "interleaved");
    for (int a = 0; a < 3; a++)
        for (int all = 0; all < 2; all++) {
            if (!all && x->mpos == NULL) continue; /* every token is text */
            *h = *e;
            h->zero_axis = a;
            h->zero_all = all;
            consider(x, PE_DIAG_MROPE_AXES, h, "the %s axis's positions left at 0 %s", axis[a],
                     all ? "for every token" : "for the non-text (image, video) tokens");
        }
    static const int swaps[3][2] = {{1, 2}, {0, 1}, {0, 2}};
    for (int k = 0; k < 3; k++) {
        *h = *e;
        h->axis_map[swaps[k][0]] = swaps[k][1];
        h->axis_map[swaps[k][1]] = swaps[k][0];
        consider(x, PE_DIAG_MROPE_AXES, h, "the %s and %s axes swapped", axis[swaps[k][0]],
                 axis[swaps[k][1]]);
    }
    if (x->mpos != NULL) {
        *h = *e;
        h->text_axes = 1;
        consider(x, PE_DIAG_MROPE_AXES, h, "text positions (t = h = w) for every token");
    }
}

/* ------------------------------------------------------------- the check */

/* The bin of position p: the last whose first offset is <= p - pmin (exact
 * integer ranges at any int64 positions, pe__pos_split). */
static int64_t bin_of(const ctx *x, int64_t p) {
    const int64_t nb = x->r->n_bins;
    const uint64_t k = pe__pos_distance(x->pmin, p);
    int64_t b = nb - 1;
    while (b > 0 && pe__pos_split(x->span, (uint64_t)b, (uint64_t)nb) > k) b--;
    return b;
}

static int64_t band_of(const ctx *x, int64_t pair) {
    const int64_t n = x->ex->freqs.rotary_dim / 2;
    return pair * x->r->n_bands / n;
}

static double half_ulp(double v, pe_dtype dt) {
    if (dt != PE_F16 && dt != PE_BF16) return 0;
    const int mant = dt == PE_F16 ? 10 : 7, emin = dt == PE_F16 ? -14 : -126;
    int e;
    frexp(fabs(v), &e); /* |v| in [2^(e-1), 2^e) */
    int ex = e - 1 < emin ? emin : e - 1;
    return ldexp(0.5, ex - mant);
}

/* Every element against the expectation: verdict, first divergence, growth. */
static void full_pass(ctx *x, const hyp *e) {
    pe_check_report *r = x->r;
    const int64_t D = x->d.head_dim, d = e->f.rotary_dim;
    double sum = 0;
    int64_t count = 0;
    for (int64_t t = 0; t < x->d.tokens; t++) {
        token_trig(x, e, t);
        const int64_t bin = bin_of(x, pe__position_at(x->pos, t));
        for (int64_t h = 0; h < x->d.heads; h++) {
            dump_in_row(&x->d, t, h, x->rin);
            dump_out_row(&x->d, t, h, x->rout);
            rotate_row(x, e, x->rin, x->rexp);
            for (int64_t el = 0; el < D; el++) {
                double err = fabs(x->rout[el] - x->rexp[el]);
                if (isnan(err)) err = INFINITY;
                sum += err * err;
                count++;
                if (err > r->max_abs_err) r->max_abs_err = err;
                const int64_t pair = element_pair(e->layout, d, el);
                if (pair >= 0) {
                    if (err > r->pair_err[pair]) r->pair_err[pair] = err;
                    double *cell = &r->err[bin][band_of(x, pair)];
                    if (err > *cell) *cell = err;
                }
                if (err > r->bound && r->first_token < 0) {
                    r->first_token = t;
                    r->first_head = h;
                    r->first_element = el;
                    r->first_pair = pair;
                }
            }
        }
    }
    r->rms_err = count ? sqrt(sum / (double)count) : 0;
}

/* max |h's rotation - out| over every element (the float32 verdict reads
 * all of the dump, as the agree verdict does). */
static double max_err_all(ctx *x, const hyp *h) {
    double mx = 0;
    for (int64_t t = 0; t < x->d.tokens; t++) {
        token_trig(x, h, t);
        for (int64_t k = 0; k < x->d.heads; k++) {
            dump_in_row(&x->d, t, k, x->rin);
            dump_out_row(&x->d, t, k, x->rout);
            rotate_row(x, h, x->rin, x->rhyp);
            for (int64_t el = 0; el < x->d.head_dim; el++) {
                const double err = fabs(x->rhyp[el] - x->rout[el]);
                if (!(err <= mx)) mx = err;
            }
        }
    }
    return isnan(mx) ? INFINITY : mx;
}

/* Every single fault on top of context c (a layout and an angle recipe):
 * the base and position offset fitted from the dump's angles under c's
 * pairing. */
static void search_faults(ctx *x, const hyp *c, hyp *h, double *theta, const int64_t *idx,
                          double *scratch, double base) {
    observed_angles(x, c, theta);
    const double b_fit = isnan(base) ? NAN : fit_base(x, c, theta, idx, base);
    const double k_fit = fit_offset(x, c, theta, scratch);
    try_partial(x, c, h, base);
    try_base(x, c, h, b_fit, base);
    try_scaling(x, c, h);
    try_magnitude(x, c, h);
    try_positions(x, c, h, k_fit);
    try_mrope(x, c, h);
    try_unrotated(x, c, h, theta);
}

/* The best hypothesis so far reproduces the sampled rows within bound. */
static bool explained(const ctx *x) {
    for (int k = 0; k < PE_DIAG_COUNT; k++)
        if (isfinite(x->res[k]) && x->maxe[k] <= x->r->bound) return true;
    return false;
}

/* The best diagnosis's |hypothesis - expected| in the report's cells. */
static void predict(ctx *x, const hyp *best, const hyp *e) {
    const int64_t D = x->d.head_dim, d = e->f.rotary_dim, n = d / 2;
    for (int64_t a = 0; a < x->nst; a++) {
        const int64_t t = x->st[a];
        const int64_t bin = bin_of(x, pe__position_at(x->pos, t));
        token_trig(x, e, t);
        memcpy(x->cs, x->c, (size_t)n * sizeof *x->cs);
        memcpy(x->ss, x->s, (size_t)n * sizeof *x->ss);
        for (int64_t b = 0; b < x->nsh; b++) {
            dump_in_row(&x->d, t, x->sh[b], x->rin);
            memcpy(x->c, x->cs, (size_t)n * sizeof *x->c);
            memcpy(x->s, x->ss, (size_t)n * sizeof *x->s);
            rotate_row(x, e, x->rin, x->rexp);
            token_trig(x, best, t);
            rotate_row(x, best, x->rin, x->rhyp);
            for (int64_t el = 0; el < d && el < D; el++) {
                const double err = fabs(x->rhyp[el] - x->rexp[el]);
                double *cell = &x->r->pred[bin][band_of(x, element_pair(e->layout, d, el))];
                if (err > *cell) *cell = err;
            }
        }
    }
}

static void pick_samples(ctx *x) {
    /* the first tokens contiguous (angle unwrapping needs near neighbours),
     * then the rest evenly to the last token */
    const int64_t T = x->d.tokens, cap = 512, head = 128;
    if (T <= cap) {
        for (int64_t t = 0; t < T; t++) x->st[t] = t;
        x->nst = T;
    } else {
        int64_t n = 0;
        for (int64_t t = 0; t < head; t++) x->st[n++] = t;
        const int64_t rest = cap - head;
        for (int64_t k = 1; k <= rest; k++) {
            int64_t t = head - 1 + (int64_t)((double)(T - head) * (double)k / (double)rest);
            if (t >= T) t = T - 1;
            if (t > x->st[n - 1]) x->st[n++] = t;
        }
        x->nst = n;
    }
    const int64_t H = x->d.heads;
    if (H <= 8) {
        for (int64_t h = 0; h < H; h++) x->sh[h] = h;
        x->nsh = H;
    } else {
        x->nsh = 8;
        for (int64_t k = 0; k < 8; k++) x->sh[k] = k * (H - 1) / 7;
    }
}

static int validate_expect(const pe_check_expect *ex) {
    PE_CHECK_NULL(ex);
    PE_TRY(pe_freqs_validate(&ex->freqs));
    if (ex->layout != PE_ROPE_INTERLEAVED && ex->layout != PE_ROPE_HALF)
        return pe__fail(PE_ERR_PARAM, "expect->layout=%d is not a pe_rope_layout", (int)ex->layout);
    if (ex->n_mrope_section != 0 && ex->n_mrope_section != 3)
        return pe__fail(PE_ERR_PARAM, "expect->n_mrope_section=%lld must be 0 or 3",
                        (long long)ex->n_mrope_section);
    if (ex->chunk_size < 0)
        return pe__fail(PE_ERR_PARAM, "expect->chunk_size=%lld must be >= 0",
                        (long long)ex->chunk_size);
    return PE_OK;
}

static int check_positions(const pe_positions *positions, int64_t count, const int64_t *mpos,
                           const pe_check_expect *ex) {
    PE_CHECK_NULL(positions);
    PE_TRY(pe__check_positions(positions, count));
    if (mpos != NULL && ex->n_mrope_section != 3)
        return pe__fail(PE_ERR_PARAM,
                        "mrope_positions given but the expectation has no M-RoPE sections");
    return PE_OK;
}

static int run_check(const pe_check_expect *ex, const pe_positions *positions,
                     const int64_t *mpos, const dump *d, pe_check_report *report) {
    ctx x;
    memset(&x, 0, sizeof x);
    x.ex = ex;
    x.d = *d;
    x.pos = positions;
    x.mpos = mpos;
    int st = PE_OK;
    pe_check_report *r = NULL;
    double *theta = NULL, *scratch = NULL;
    int64_t *idx = NULL;
    const int64_t P = PE_MAX_PAIRS, D = d->head_dim;
    if ((st = pe__alloc("check report", 1, 1, sizeof *r, &r)) ||
        (st = pe__alloc("check samples", 512, 1, sizeof *x.st, &x.st)) ||
        (st = pe__alloc("check heads", 8, 1, sizeof *x.sh, &x.sh)) ||
        (st = pe__alloc("check trig", 6, P, sizeof(double), &x.c)) ||
        (st = pe__alloc("check rows", 4, D, sizeof(double), &x.rin)) ||
        (st = pe__alloc("check hypotheses", PE_DIAG_COUNT + 3, 1, sizeof(hyp), &x.best)))
        goto out;
    x.s = x.c + P;
    x.ca = x.c + 2 * P;
    x.sa = x.c + 3 * P;
    x.cs = x.c + 4 * P;
    x.ss = x.c + 5 * P;
    x.rout = x.rin + D;
    x.rhyp = x.rin + 2 * D;
    x.rexp = x.rin + 3 * D;
    x.work = x.best + PE_DIAG_COUNT;
    memset(r, 0, sizeof *r);
    x.r = r;
    hyp *e = &x.work[0], *h = &x.work[1], *c = &x.work[2];
    if ((st = expected_hyp(&x, ex, e)) != PE_OK) goto out;
    x.expect = e;

    /* position range and the bound's magnitudes */
    x.p_first = pe__position_at(positions, 0);
    x.pmin = x.pmax = x.p_first;
    double max_in = 0, max_out = 0;
    for (int64_t t = 0; t < d->tokens; t++) {
        const int64_t p = pe__position_at(positions, t);
        if (p < x.pmin) x.pmin = p;
        if (p > x.pmax) x.pmax = p;
        for (int64_t hh = 0; hh < d->heads; hh++) {
            dump_in_row(d, t, hh, x.rin);
            dump_out_row(d, t, hh, x.rout);
            for (int64_t el = 0; el < D; el++) {
                if (!isfinite(x.rin[el])) {
                    st = pe__fail(PE_ERR_PARAM, "in[%lld][%lld][%lld]=%g is not finite",
                                  (long long)t, (long long)hh, (long long)el, x.rin[el]);
                    goto out;
                }
                if (fabs(x.rin[el]) > max_in) max_in = fabs(x.rin[el]);
                if (fabs(x.rout[el]) > max_out) max_out = fabs(x.rout[el]);
            }
        }
    }
    const double A = e->f.attention_factor;
    const double max_exp = fmax(A * sqrt(2.0), 1.0) * max_in;
    /* the subnormal floor: 4 x the f32 spacing near zero, 2^-149 */
    r->bound = 4.0 * ldexp(1.0, -24) * (max_exp + 3.0 * A * max_in) +
               half_ulp(fmax(max_out, max_exp), d->out_dtype) + 4.0 * ldexp(1.0, -149);
    r->first_token = r->first_head = r->first_pair = r->first_element = -1;
    x.span = pe__pos_distance(x.pmin, x.pmax);
    r->n_bins = x.span < PE_CHECK_POS_BINS - 1 ? (int64_t)x.span + 1 : PE_CHECK_POS_BINS;
    for (int64_t b = 0; b < r->n_bins; b++) {
        const uint64_t nb = (uint64_t)r->n_bins;
        r->bin_lo[b] = pe__pos_advance(x.pmin, pe__pos_split(x.span, (uint64_t)b, nb));
        r->bin_hi[b] = pe__pos_advance(x.pmin, pe__pos_split(x.span, (uint64_t)b + 1, nb) - 1);
    }
    const int64_t n = e->f.rotary_dim / 2;
    r->n_bands = n < PE_CHECK_PAIR_BANDS ? n : PE_CHECK_PAIR_BANDS;
    for (int64_t b = 0; b < r->n_bands; b++) {
        r->band_lo[b] = b * n / r->n_bands;
        r->band_hi[b] = (b + 1) * n / r->n_bands;
    }
    full_pass(&x, e);
    r->verdict = r->max_abs_err <= r->bound ? PE_CHECK_AGREE : PE_CHECK_DISAGREE;
    r->float32_angles = PE_ANGLES_EXACT;
    r->explained = 1; /* nothing to explain until the dump disagrees */

    if (r->verdict != PE_CHECK_AGREE) {
        pick_samples(&x);
        if ((st = pe__alloc("check angles", x.nst, n, sizeof(double), &theta)) ||
            (st = pe__alloc("check fit", x.nst, 2, sizeof(int64_t), &idx)))
            goto out;
        scratch = (double *)(void *)(idx + x.nst);
        for (int k = 0; k < PE_DIAG_COUNT; k++) x.res[k] = INFINITY;
        const double base = expected_base(ex);
        sort_by_position(&x, idx);
        /* one hypothesis at a time: each fault, the other layout, each
         * float32 recipe alone, 16-bit tables */
        search_faults(&x, e, h, theta, idx, scratch, base);
        try_layout(&x, e, h);
        try_float32(&x, e, h);
        try_precision(&x, e, h);
        const hyp *f32 = &x.best[PE_DIAG_FLOAT32_ANGLES];
        if (isfinite(x.res[PE_DIAG_FLOAT32_ANGLES]) && x.maxe[PE_DIAG_FLOAT32_ANGLES] <= r->bound &&
            max_err_all(&x, f32) <= r->bound) {
            r->verdict = PE_CHECK_FLOAT32;
            r->float32_angles = f32->angles;
        }
        /* two at once, when no single one explains the dump: either
         * layout x each angle recipe as the context of every fault */
        for (int other = 0; other < 2 && !explained(&x); other++) {
            if (other && x.d.cache_mode) break;
            for (int v = 0; v < PE_ANGLES_COUNT && !explained(&x); v++) {
                if (!other && v == PE_ANGLES_EXACT) continue; /* the search above */
                *c = *e;
                if (other) c->layout = e->layout == PE_ROPE_HALF ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
                c->angles = (pe_check_angles)v;
                if (!prepare_angles(c)) continue;
                if (other) {
                    *h = *c;
                    consider(&x, PE_DIAG_LAYOUT, h, "%s instead of %s", layout_words(c->layout),
                             layout_words(e->layout));
                    if (v == PE_ANGLES_EXACT) try_precision(&x, c, h);
                }
                search_faults(&x, c, h, theta, idx, scratch, base);
            }
        }
        int order[PE_DIAG_COUNT], m = 0;
        for (int k = 0; k < PE_DIAG_COUNT; k++)
            if (isfinite(x.res[k])) {
                int b = m++;
                while (b > 0 && x.res[order[b - 1]] > x.res[k]) {
                    order[b] = order[b - 1];
                    b--;
                }
                order[b] = k;
            }
        r->n_diagnoses = m;
        for (int k = 0; k < m; k++) {
            pe_check_diagnosis *g = &r->diagnoses[k];
            g->name = (pe_diagnosis)order[k];
            g->residual = x.res[order[k]];
            g->max_err = x.maxe[order[k]];
            g->layout = x.best[order[k]].layout;
            g->angles = x.best[order[k]].angles;
            memcpy(g->detail, x.detail[order[k]], sizeof g->detail);
        }
        r->explained = m > 0 && r->diagnoses[0].max_err <= r->bound;
        if (m > 0) predict(&x, &x.best[order[0]], e);
    }
    r->agree = r->verdict == PE_CHECK_AGREE;
    *report = *r;
out:
    free(r);
    free(x.st);
    free(x.sh);
    free(x.c);
    free(x.rin);
    free(x.best);
    free(theta);
    free(idx);
    return st;
}

/* The expectation's M-RoPE sections map onto its rotary dim (both entry
 * points check this before reading a dump). */
static int check_mrope_sections(const pe_check_expect *expect) {
    if (expect->n_mrope_section != 3) return PE_OK;
    int *axes = malloc(PE_MAX_PAIRS * sizeof *axes);
    if (axes == NULL) return pe__fail(PE_ERR_NOMEM, "out of memory for the M-RoPE slot map");
    int st = pe_mrope_slot_axes(expect->freqs.rotary_dim, expect->mrope_section,
                                expect->mrope_mode, axes);
    free(axes);
    return st;
}

int pe_check_rotation(const pe_check_expect *expect, const pe_positions *positions,
                      const int64_t *mrope_positions, const pe_tensor *in,
                      const pe_tensor *out, pe_check_report *report) {
    PE_TRY(validate_expect(expect));
    PE_CHECK_NULL(in);
    PE_CHECK_NULL(out);
    PE_CHECK_NULL(report);
    PE_TRY(pe__check_tensor(in, "in"));
    PE_TRY(pe__check_tensor(out, "out"));
    const pe_tensor *views[2] = {in, out};
    for (int k = 0; k < 2; k++)
        if (views[k]->dtype != PE_F32 && views[k]->dtype != PE_F16 && views[k]->dtype != PE_BF16)
            return pe__fail(PE_ERR_DTYPE, "%s dtype=%s must be f32, f16 or bf16", k ? "out" : "in",
                            pe_dtype_name(views[k]->dtype));
    if (in->tokens != out->tokens || in->heads != out->heads || in->head_dim != out->head_dim)
        return pe__fail(PE_ERR_SHAPE, "out shape (%lld, %lld, %lld) differs from in (%lld, %lld, %lld)",
                        (long long)out->tokens, (long long)out->heads, (long long)out->head_dim,
                        (long long)in->tokens, (long long)in->heads, (long long)in->head_dim);
    if (in->tokens < 1 || in->heads < 1)
        return pe__fail(PE_ERR_SHAPE, "in shape (%lld, %lld, %lld) has nothing to check",
                        (long long)in->tokens, (long long)in->heads, (long long)in->head_dim);
    if (expect->freqs.rotary_dim > in->head_dim)
        return pe__fail(PE_ERR_DIM, "rotary_dim=%lld exceeds head_dim=%lld of in",
                        (long long)expect->freqs.rotary_dim, (long long)in->head_dim);
    PE_TRY(check_positions(positions, in->tokens, mrope_positions, expect));
    PE_TRY(check_mrope_sections(expect));
    dump d;
    memset(&d, 0, sizeof d);
    d.in = in;
    d.out = out;
    d.tokens = in->tokens;
    d.heads = in->heads;
    d.head_dim = in->head_dim;
    d.out_dtype = out->dtype;
    return run_check(expect, positions, mrope_positions, &d, report);
}

int pe_check_cos_sin(const pe_check_expect *expect, const pe_positions *positions,
                     const int64_t *mrope_positions, int64_t count, const void *cache,
                     pe_dtype dtype, int64_t width, pe_check_report *report) {
    PE_TRY(validate_expect(expect));
    PE_CHECK_NULL(cache);
    PE_CHECK_NULL(report);
    if (dtype != PE_F32 && dtype != PE_F64 && dtype != PE_F16 && dtype != PE_BF16)
        return pe__fail(PE_ERR_DTYPE, "cache dtype=%s must be f32, f64, f16 or bf16",
                        pe_dtype_name(dtype));
    if (count < 1)
        return pe__fail(PE_ERR_SHAPE, "count=%lld: the cache has no rows to check", (long long)count);
    if (width != expect->freqs.rotary_dim)
        return pe__fail(PE_ERR_SHAPE, "cache width=%lld must be rotary_dim=%lld ([cos..., sin...])",
                        (long long)width, (long long)expect->freqs.rotary_dim);
    size_t bytes;
    PE_TRY(pe__bytes("cos/sin cache", count, width, pe__dtype_size(dtype), &bytes));
    PE_TRY(check_positions(positions, count, mrope_positions, expect));
    PE_TRY(check_mrope_sections(expect));
    dump d;
    memset(&d, 0, sizeof d);
    d.cache = cache;
    d.cache_dtype = dtype;
    d.cache_mode = 1;
    d.tokens = count;
    d.heads = 1;
    d.head_dim = width;
    d.out_dtype = dtype;
    return run_check(expect, positions, mrope_positions, &d, report);
}
