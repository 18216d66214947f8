/*
 * rope_scaling.c — RoPE frequency generators (SPEC §2.1), one descriptor per
 * scheme: its defaults, its checks, its base rule and correction range, its
 * per-pair rule, its magnitude, the parameters it reads (with their config
 * keys, CLI flags, Python keywords and help). The table is the only
 * description of a parameter: names, the CLI's choices and options,
 * Python's keywords and dicts, the config reader (config_scaling.c), the
 * plan's equality of layer kinds (pe__scaling_equal) and printing, check's
 * hypotheses all go through it, so a new scheme is one row of
 * PE_SCALING_MAP and one descriptor here (docs/ARCHITECTURE.md, "Adding a
 * scaling scheme").
 *
 * Every frequency is evaluated in long double and stored as a double-double,
 * the same way pe_freqs_default() does, so a factor of 1 reproduces the
 * default frequencies bit for bit. The semantics follow Hugging Face
 * transformers' modeling_rope_utils.py (the v5 reading; see docs/SCALING.md).
 */
#include "scaling_internal.h"
#include "struct_size.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const long double PE_PI_L = 3.141592653589793238462643383279502884L;

/* ------------------------------------------------------------ validation */

static int check_rotary(int64_t d, int64_t head_dim) {
    PE_TRY(pe__check_rotary_dim(d));
    return pe__check_rotary_within(d, head_dim);
}

/* name: the scheme's word for its factor (its parameter row's name). */
static int check_factor(double f, const char *name) {
    if (!(f > 0.0) || !isfinite(f))
        return pe__fail(PE_ERR_PARAM, "%s=%g must be finite and > 0", name, f);
    return PE_OK;
}

static int check_positive_len(int64_t v, const char *name) {
    if (v <= 0)
        return pe__fail(PE_ERR_PARAM, "%s=%lld must be > 0", name, (long long)v);
    return PE_OK;
}

static int check_seq_len(int64_t s) {
    if (s < 0)
        return pe__fail(PE_ERR_PARAM, "seq_len=%lld must be >= 0 (0: not stated)",
                        (long long)s);
    return PE_OK;
}

static int check_list(const double *v, int64_t n, int64_t want, const char *name) {
    if (v == NULL) return pe__fail(PE_ERR_NULL, "%s must not be NULL", name);
    if (n != want)
        return pe__fail(PE_ERR_SHAPE, "%s has %lld entries; it needs one per rotated pair: %lld",
                        name, (long long)n, (long long)want);
    for (int64_t i = 0; i < n; i++)
        if (!(v[i] > 0.0) || !isfinite(v[i]))
            return pe__fail(PE_ERR_PARAM, "%s[%lld]=%g must be finite and > 0", name,
                            (long long)i, v[i]);
    return PE_OK;
}

static int check_attention_factor(double a) {
    /* NAN means "derive it"; anything else must be a usable magnitude. */
    if (!isnan(a) && (!(a > 0.0) || !isfinite(a)))
        return pe__fail(PE_ERR_PARAM,
                        "attention_factor=%g must be finite and > 0 (NAN: derive)", a);
    return PE_OK;
}

static int check_betas(double fast, double slow) {
    if (!(slow > 0.0) || !isfinite(slow) || !isfinite(fast))
        return pe__fail(PE_ERR_PARAM, "beta_slow=%g and beta_fast=%g must be finite "
                        "and > 0", slow, fast);
    /* Equal betas are allowed, as in HF (Kimi K2 ships 1 and 1): the ramp
     * then nudges its end by 0.001. */
    if (!(fast >= slow))
        return pe__fail(PE_ERR_PARAM, "beta_fast=%g must be >= beta_slow=%g", fast,
                        slow);
    return PE_OK;
}

/* ---------------------------------------------------------- computation */

/* w_i = b^(-2i/d) from ln b, written exactly as pe_freqs_default() writes
 * it so that unscaled schemes reproduce it bit for bit. */
static long double omega(int64_t i, int64_t d, long double log_base) {
    return expl(-(long double)(2 * i) / (long double)d * log_base);
}

/* hi + lo of a long double frequency; false if it leaves the range every
 * rotation accepts (posenc.h: (0, PE_MAX_INV_FREQ], or 0 where the scheme
 * itself stops a pair: zero_ok), or underflows to 0 where it should not. */
static bool store(pe_freqs *f, int64_t i, long double w, bool zero_ok) {
    double hi = (double)w;
    if (!(hi >= 0.0) || !(hi <= PE_MAX_INV_FREQ) || (hi == 0.0 && !zero_ok)) return false;
    f->inv_freq[i] = hi;
    f->inv_freq_lo[i] = (double)(w - (long double)hi);
    return true;
}

/* YaRN's mscale(f, m) = 0.1 m ln f + 1, and 1 for f <= 1. */
static long double yarn_mscale(long double f, long double m) {
    return f <= 1.0L ? 1.0L : 0.1L * m * logl(f) + 1.0L;
}

static long double yarn_corr(int64_t d, long double log_base, long double l0,
                             long double beta) {
    return (long double)d * logl(l0 / (2.0L * PE_PI_L * beta)) / (2.0L * log_base);
}

/* Clamped (and optionally truncated) YaRN range in long double. */
static void yarn_range(int64_t d, long double log_base, int64_t l0, double beta_fast,
                       double beta_slow, int truncate, long double *low,
                       long double *high) {
    long double lo = yarn_corr(d, log_base, (long double)l0, beta_fast);
    long double hi = yarn_corr(d, log_base, (long double)l0, beta_slow);
    if (truncate) {
        lo = floorl(lo);
        hi = ceill(hi);
    }
    *low = lo > 0.0L ? lo : 0.0L;
    *high = hi < (long double)(d - 1) ? hi : (long double)(d - 1);
}

int pe_yarn_correction_range(int64_t rotary_dim, double base,
                             int64_t original_max_position, double beta_fast,
                             double beta_slow, int truncate, double *low,
                             double *high) {
    PE_TRY(check_rotary(rotary_dim, rotary_dim));
    PE_TRY(pe__check_base(base));
    PE_TRY(check_positive_len(original_max_position, "original_max_position"));
    PE_TRY(check_betas(beta_fast, beta_slow));
    PE_CHECK_NULL(low);
    PE_CHECK_NULL(high);
    long double lo, hi;
    yarn_range(rotary_dim, logl((long double)base), original_max_position, beta_fast,
               beta_slow, truncate, &lo, &hi);
    *low = (double)lo;
    *high = (double)hi;
    return PE_OK;
}


/* ------------------------------------------------------------ parameters */

/* Every scheme parameter: a field of pe_rope_scaling, its words in each
 * front end and in config.json. Order is the CLI's option order. */
enum {
    P_FACTOR, P_L0, P_L, P_SEQ_LEN, P_BETA_FAST, P_BETA_SLOW, P_TRUNCATE, P_MSCALE,
    P_MSCALE_ALL_DIM, P_ATTENTION_FACTOR, P_LOW_FREQ, P_HIGH_FREQ, P_SHORT, P_LONG,
    P_DIVISORS, P_ALPHA, N_PARAMS
};
#define BIT(p) (1u << (p))

typedef struct {
    pe_scaling_param pub;
    size_t offset;   /* the field in pe_rope_scaling */
    size_t n_offset; /* LIST: its count field */
    unsigned config; /* PE__CFG_*: how a config block states it */
    size_t store;    /* LIST with a config key: its inline array in pe_rope_config */
} param_row;

#define FIELD(f) offsetof(pe_rope_scaling, f)
#define STORE(f) offsetof(pe_rope_config, f)
static const param_row params[N_PARAMS] = {
    [P_FACTOR] = {{"factor", "factor", "F", "scaling factor f", "factor", PE_SCALING_PARAM_REAL},
                  FIELD(factor), 0, PE__CFG_POSITIVE, 0},
    [P_L0] = {{"original_max_position", "original-max-position", "N",
               "L0, the original training context", "original_max_position_embeddings",
               PE_SCALING_PARAM_INT}, FIELD(original_max_position), 0, 0, 0},
    [P_L] = {{"max_position", "max-position", "N", "max_position_embeddings L", NULL,
              PE_SCALING_PARAM_INT}, FIELD(max_position), 0, 0, 0},
    [P_SEQ_LEN] = {{"seq_len", "seq-len", "S",
                    "current sequence length (dynamic, longrope; with --config too)", NULL,
                    PE_SCALING_PARAM_INT}, FIELD(seq_len), 0, 0, 0},
    [P_BETA_FAST] = {{"beta_fast", "beta-fast", "B", "yarn beta_fast (default 32)", "beta_fast",
                      PE_SCALING_PARAM_REAL}, FIELD(beta_fast), 0, PE__CFG_ZERO_UNSET, 0},
    [P_BETA_SLOW] = {{"beta_slow", "beta-slow", "B", "yarn beta_slow (default 1)", "beta_slow",
                      PE_SCALING_PARAM_REAL}, FIELD(beta_slow), 0, PE__CFG_ZERO_UNSET, 0},
    [P_TRUNCATE] = {{"truncate", "no-truncate", NULL,
                     "yarn: do not floor/ceil the correction range", "truncate",
                     PE_SCALING_PARAM_BOOL}, FIELD(truncate), 0, 0, 0},
    [P_MSCALE] = {{"mscale", "mscale", "M", "yarn mscale", "mscale", PE_SCALING_PARAM_REAL},
                  FIELD(mscale), 0, 0, 0},
    [P_MSCALE_ALL_DIM] = {{"mscale_all_dim", "mscale-all-dim", "M", "yarn mscale_all_dim (DeepSeek)",
                           "mscale_all_dim", PE_SCALING_PARAM_REAL}, FIELD(mscale_all_dim), 0, 0, 0},
    [P_ATTENTION_FACTOR] = {{"attention_factor", "attention-factor", "A",
                             "magnitude A applied to rotated pairs (yarn, longrope)",
                             "attention_factor", PE_SCALING_PARAM_REAL},
                            FIELD(attention_factor), 0, PE__CFG_POSITIVE, 0},
    [P_LOW_FREQ] = {{"low_freq_factor", "low-freq-factor", "L", "llama3 low_freq_factor (default 1)",
                     "low_freq_factor", PE_SCALING_PARAM_REAL}, FIELD(low_freq_factor), 0, 0, 0},
    [P_HIGH_FREQ] = {{"high_freq_factor", "high-freq-factor", "H",
                      "llama3 high_freq_factor (default 4)", "high_freq_factor",
                      PE_SCALING_PARAM_REAL}, FIELD(high_freq_factor), 0, 0, 0},
    [P_SHORT] = {{"short_factor", "short-factor", "LIST",
                  "longrope short_factor, rotary_dim/2 numbers", "short_factor",
                  PE_SCALING_PARAM_LIST}, FIELD(short_factor), FIELD(n_short_factor), 0,
                 STORE(short_factor)},
    [P_LONG] = {{"long_factor", "long-factor", "LIST", "longrope long_factor, rotary_dim/2 numbers",
                 "long_factor", PE_SCALING_PARAM_LIST}, FIELD(long_factor), FIELD(n_long_factor), 0,
                STORE(long_factor)},
    [P_DIVISORS] = {{"divisors", "divisors", "LIST", "explicit per-pair divisors c_i (w' = w / c_i)",
                     NULL, PE_SCALING_PARAM_LIST}, FIELD(divisors), FIELD(n_divisors), 0, 0},
    /* HunYuan's word for NTK's factor, kept in the factor field */
    [P_ALPHA] = {{"alpha", "alpha", "A", "ntk_alpha alpha: base' = base alpha^(d/(d-2)) (HunYuan)",
                  "alpha", PE_SCALING_PARAM_REAL}, FIELD(factor), 0, 0, 0},
};

/* ------------------------------------------------------- shared rules */

/* What a missing factor (NAN) means for a scheme. */
typedef enum { NAN_REFUSED, NAN_IS_ONE, NAN_FROM_L } nan_rule;

/* The factor a scheme actually uses: YaRN and LongRoPE derive a missing one
 * from the context extension L / L0 (Phi-3 and DeepSeek ship without it in
 * some revisions); PROPORTIONAL's is optional and 1 when absent. */
static int resolve_factor(const pe_rope_scaling *s, nan_rule rule, long double *f) {
    if (isnan(s->factor) && rule == NAN_IS_ONE) {
        *f = 1.0L;
        return PE_OK;
    }
    if (isnan(s->factor) && rule == NAN_FROM_L) {
        if (s->max_position <= 0)
            return pe__fail(PE_ERR_PARAM, "factor=nan needs max_position=%lld > 0 "
                            "to derive max_position / original_max_position",
                            (long long)s->max_position);
        *f = (long double)s->max_position / (long double)s->original_max_position;
        return PE_OK;
    }
    PE_TRY(check_factor(s->factor, "factor"));
    *f = (long double)s->factor;
    return PE_OK;
}

/* NTK's exponent d/(d-2) has no value at d = 2. */
static int check_ntk_dim(int64_t d, const char *who) {
    if (d == 2)
        return pe__fail(PE_ERR_DIM, "rotary_dim=2: %s exponent d/(d-2) needs d > 2", who);
    return PE_OK;
}

/* ln of b m^(d/(d-2)), taken in the log domain so the base cannot overflow. */
static long double ntk_log_base(long double log_base, int64_t d, long double m) {
    return log_base + (long double)d / (long double)(d - 2) * logl(m);
}

/* ------------------------------------------------------------ schemes */

/* What a scheme's rules see while the frequencies are computed. */
typedef struct {
    const pe_rope_scaling *s;
    long double factor;   /* resolved */
    long double log_base; /* after the scheme's base rule */
    int64_t d, half;      /* rotary_dim and its pairs */
    long double low, high; /* YaRN's ramp */
    bool use_long;        /* LongRoPE: the long factors */
} ctx;

/* default */
static int default_check(const pe_rope_scaling *s, long double *f) {
    (void)s;
    (void)f;
    return PE_OK;
}

static long double plain_pair(const ctx *c, int64_t i, double *weight) {
    (void)weight;
    return omega(i, c->d, c->log_base);
}

/* linear */
static int linear_check(const pe_rope_scaling *s, long double *f) {
    return resolve_factor(s, NAN_REFUSED, f);
}

static long double linear_pair(const ctx *c, int64_t i, double *weight) {
    (void)weight;
    return omega(i, c->d, c->log_base) / c->factor;
}

/* ntk: b' = b f^(d/(d-2)) */
static int ntk_check(const pe_rope_scaling *s, long double *f) {
    PE_TRY(check_ntk_dim(s->rotary_dim, "NTK's"));
    return resolve_factor(s, NAN_REFUSED, f);
}

static void ntk_prepare(ctx *c) {
    c->log_base = ntk_log_base(c->log_base, c->d, c->factor);
}

/* dynamic */
static int dynamic_check(const pe_rope_scaling *s, long double *f) {
    PE_TRY(check_ntk_dim(s->rotary_dim, "dynamic NTK's"));
    PE_TRY(check_positive_len(s->max_position, "max_position"));
    PE_TRY(check_seq_len(s->seq_len));
    return resolve_factor(s, NAN_REFUSED, f);
}

/* Only a sequence longer than L changes anything; nothing is cached, the
 * caller states s every time. */
static void dynamic_prepare(ctx *c) {
    const pe_rope_scaling *s = c->s;
    if (s->seq_len > s->max_position) {
        long double r = c->factor * (long double)s->seq_len / (long double)s->max_position -
                        (c->factor - 1.0L);
        c->log_base = ntk_log_base(c->log_base, c->d, r);
    }
}

/* yarn */
static int yarn_check(const pe_rope_scaling *s, long double *f) {
    PE_TRY(check_positive_len(s->original_max_position, "original_max_position"));
    PE_TRY(resolve_factor(s, NAN_FROM_L, f));
    PE_TRY(check_betas(s->beta_fast, s->beta_slow));
    if (!(s->mscale >= 0.0) || !isfinite(s->mscale))
        return pe__fail(PE_ERR_PARAM, "mscale=%g must be finite and >= 0 "
                        "(0: unset)", s->mscale);
    if (!(s->mscale_all_dim >= 0.0) || !isfinite(s->mscale_all_dim))
        return pe__fail(PE_ERR_PARAM, "mscale_all_dim=%g must be finite and "
                        ">= 0 (0: unset)", s->mscale_all_dim);
    return check_attention_factor(s->attention_factor);
}

static void yarn_prepare(ctx *c) {
    const pe_rope_scaling *s = c->s;
    yarn_range(c->d, c->log_base, s->original_max_position, s->beta_fast, s->beta_slow,
               s->truncate, &c->low, &c->high);
    if (c->low == c->high) c->high += 0.001L; /* HF's singularity guard */
}

/* Extrapolation weight w_i: 1 keeps w_i, 0 takes w_i / f. Written as
 * w/f + weight (w - w/f) so that f = 1 gives w exactly. */
static long double yarn_pair(const ctx *c, int64_t i, double *weight) {
    long double w = omega(i, c->d, c->log_base);
    long double ramp = ((long double)i - c->low) / (c->high - c->low);
    ramp = ramp < 0.0L ? 0.0L : ramp > 1.0L ? 1.0L : ramp;
    long double keep = 1.0L - ramp, scaled = w / c->factor;
    *weight = (double)keep;
    return scaled + keep * (w - scaled);
}

static void yarn_magnitude(const ctx *c, long double *amp, long double *softmax_mult) {
    const pe_rope_scaling *s = c->s;
    if (!isnan(s->attention_factor))
        *amp = s->attention_factor;
    else if (s->mscale != 0.0 && s->mscale_all_dim != 0.0)
        *amp = yarn_mscale(c->factor, s->mscale) / yarn_mscale(c->factor, s->mscale_all_dim);
    else
        *amp = yarn_mscale(c->factor, 1.0L);
    /* DeepSeek folds mscale(f, mscale_all_dim)^2 into the softmax scale (its
     * attention code, not the rotary embedding, applies it). */
    if (s->mscale_all_dim != 0.0) {
        long double m = yarn_mscale(c->factor, s->mscale_all_dim);
        *softmax_mult = m * m;
    }
}

/* llama3 */
static int llama3_check(const pe_rope_scaling *s, long double *f) {
    PE_TRY(check_positive_len(s->original_max_position, "original_max_position"));
    PE_TRY(resolve_factor(s, NAN_REFUSED, f));
    if (!(s->low_freq_factor > 0.0) || !isfinite(s->high_freq_factor))
        return pe__fail(PE_ERR_PARAM, "low_freq_factor=%g must be > 0 and "
                        "high_freq_factor=%g finite", s->low_freq_factor,
                        s->high_freq_factor);
    if (!(s->low_freq_factor < s->high_freq_factor))
        return pe__fail(PE_ERR_PARAM, "low_freq_factor=%g must be < "
                        "high_freq_factor=%g", s->low_freq_factor,
                        s->high_freq_factor);
    return PE_OK;
}

static long double llama3_pair(const ctx *c, int64_t i, double *weight) {
    const pe_rope_scaling *s = c->s;
    const long double l0 = (long double)s->original_max_position;
    long double w = omega(i, c->d, c->log_base);
    long double wavelen = 2.0L * PE_PI_L / w, scaled = w / c->factor, t;
    if (wavelen < l0 / (long double)s->high_freq_factor)
        t = 1.0L; /* high frequency: untouched */
    else if (wavelen > l0 / (long double)s->low_freq_factor)
        t = 0.0L; /* low frequency: interpolated by f */
    else
        t = (l0 / wavelen - (long double)s->low_freq_factor) /
            ((long double)s->high_freq_factor - (long double)s->low_freq_factor);
    *weight = (double)t;
    return t == 1.0L ? w : t == 0.0L ? scaled : scaled + t * (w - scaled);
}

/* longrope */
static int longrope_check(const pe_rope_scaling *s, long double *f) {
    const int64_t half = s->rotary_dim / 2;
    PE_TRY(check_positive_len(s->original_max_position, "original_max_position"));
    PE_TRY(check_seq_len(s->seq_len));
    PE_TRY(resolve_factor(s, NAN_FROM_L, f));
    PE_TRY(check_attention_factor(s->attention_factor));
    PE_TRY(check_list(s->short_factor, s->n_short_factor, half, "short_factor"));
    PE_TRY(check_list(s->long_factor, s->n_long_factor, half, "long_factor"));
    if (isnan(s->attention_factor) && *f > 1.0L && s->original_max_position == 1)
        return pe__fail(PE_ERR_PARAM, "original_max_position=1: LongRoPE's "
                        "attention factor divides by ln(L0)");
    return PE_OK;
}

static void longrope_prepare(ctx *c) {
    c->use_long = c->s->seq_len > c->s->original_max_position;
}

static long double longrope_pair(const ctx *c, int64_t i, double *weight) {
    (void)weight;
    const pe_rope_scaling *s = c->s;
    return omega(i, c->d, c->log_base) /
           (long double)(c->use_long ? s->long_factor[i] : s->short_factor[i]);
}

static void longrope_magnitude(const ctx *c, long double *amp, long double *softmax_mult) {
    (void)softmax_mult;
    if (!isnan(c->s->attention_factor))
        *amp = c->s->attention_factor;
    else if (c->factor > 1.0L)
        *amp = sqrtl(1.0L + logl(c->factor) / logl((long double)c->s->original_max_position));
}

/* proportional */
static int proportional_check(const pe_rope_scaling *s, long double *f) {
    if (s->head_dim % 2 != 0 || s->head_dim > PE_MAX_ROTARY_DIM)
        return pe__fail(PE_ERR_DIM, "head_dim=%lld must be even and <= PE_MAX_ROTARY_DIM=%d: "
                        "proportional RoPE pairs the whole head",
                        (long long)s->head_dim, PE_MAX_ROTARY_DIM);
    return resolve_factor(s, NAN_IS_ONE, f);
}

/* Exponent over the whole head; pairs past d/2 do not rotate (frequency 0,
 * the one place a zero is by design). */
static long double proportional_pair(const ctx *c, int64_t i, double *weight) {
    (void)weight;
    return i < c->half ? omega(i, c->s->head_dim, c->log_base) / c->factor : 0.0L;
}

/* explicit */
static int explicit_check(const pe_rope_scaling *s, long double *f) {
    (void)f;
    return check_list(s->divisors, s->n_divisors, s->rotary_dim / 2, "divisors");
}

static long double explicit_pair(const ctx *c, int64_t i, double *weight) {
    (void)weight;
    return omega(i, c->d, c->log_base) / (long double)c->s->divisors[i];
}

/* ntk_alpha: HunYuan's rotary class (Hugging Face's HunYuanDenseV1 and
 * HunYuanMoEV1, vLLM's DynamicNTKAlphaRotaryEmbedding) takes base
 * b alpha^(d/(d-2)) once, at construction: NTK's rule under the name its
 * config key uses, with no length dependence and A = 1 despite the block's
 * "dynamic" type. alpha lives in the factor field. */
static int ntk_alpha_check(const pe_rope_scaling *s, long double *f) {
    PE_TRY(check_ntk_dim(s->rotary_dim, "ntk_alpha's"));
    PE_TRY(check_factor(s->factor, "alpha"));
    *f = (long double)s->factor;
    return PE_OK;
}

/* ------------------------------------------------------------ the table */

typedef struct {
    const char *help;   /* one line: what the scheme does */
    unsigned params;    /* BIT(P_*) of every parameter it reads */
    unsigned config_required; /* of those, the ones a config block must state */
    double factor;      /* default factor (NAN: must be given or derived) */
    int64_t original_max_position; /* default L0 (0: must be given) */
    int (*check)(const pe_rope_scaling *s, long double *factor); /* after dims and base */
    void (*prepare)(ctx *c);        /* base rule, correction range; NULL: none */
    long double (*pair)(const ctx *c, int64_t i, double *weight); /* w'_i */
    void (*magnitude)(const ctx *c, long double *amp, long double *softmax_mult); /* NULL: 1, 1 */
    bool whole_head;    /* out->rotary_dim = head_dim (pairs past d/2 are 0) */
    bool hf_rope_type;  /* config.json names it in rope_type */
} scheme;

static const scheme schemes[] = {
    [PE_SCALING_DEFAULT] = {"w_i = b^(-2i/d), A = 1", 0, 0, NAN, 0, default_check, NULL,
                            plain_pair, NULL, false, true},
    [PE_SCALING_LINEAR] = {"w_i / f (position interpolation)", BIT(P_FACTOR), BIT(P_FACTOR), 1.0, 0,
                           linear_check, NULL, linear_pair, NULL, false, true},
    [PE_SCALING_NTK] = {"base b f^(d/(d-2))", BIT(P_FACTOR), BIT(P_FACTOR), 1.0, 0, ntk_check,
                        ntk_prepare, plain_pair, NULL, false, true},
    [PE_SCALING_DYNAMIC] = {"s > L: base b (f s/L - (f-1))^(d/(d-2))",
                            BIT(P_FACTOR) | BIT(P_L) | BIT(P_SEQ_LEN), BIT(P_FACTOR), 1.0, 0,
                            dynamic_check, dynamic_prepare, plain_pair, NULL, false, true},
    [PE_SCALING_YARN] = {"ramp between w/f and w; A from mscale",
                         BIT(P_FACTOR) | BIT(P_L0) | BIT(P_L) | BIT(P_BETA_FAST) |
                             BIT(P_BETA_SLOW) | BIT(P_TRUNCATE) | BIT(P_MSCALE) |
                             BIT(P_MSCALE_ALL_DIM) | BIT(P_ATTENTION_FACTOR),
                         BIT(P_FACTOR), NAN, 0, yarn_check, yarn_prepare, yarn_pair,
                         yarn_magnitude, false, true},
    [PE_SCALING_LLAMA3] = {"wavelength bands around L0/h .. L0/l",
                           BIT(P_FACTOR) | BIT(P_L0) | BIT(P_LOW_FREQ) | BIT(P_HIGH_FREQ),
                           BIT(P_FACTOR) | BIT(P_LOW_FREQ) | BIT(P_HIGH_FREQ), 8.0, 8192,
                           llama3_check, NULL, llama3_pair, NULL, false, true},
    [PE_SCALING_LONGROPE] = {"w_i / e_i, e = long (s > L0) or short",
                             BIT(P_FACTOR) | BIT(P_L0) | BIT(P_L) | BIT(P_SEQ_LEN) |
                                 BIT(P_ATTENTION_FACTOR) | BIT(P_SHORT) | BIT(P_LONG),
                             BIT(P_SHORT) | BIT(P_LONG), NAN, 0, longrope_check,
                             longrope_prepare, longrope_pair, longrope_magnitude, false, true},
    [PE_SCALING_PROPORTIONAL] = {"exponent 2i/head_dim; pairs past d/2 are 0", BIT(P_FACTOR), 0,
                                 NAN, 0, proportional_check, NULL, proportional_pair, NULL,
                                 true, true},
    [PE_SCALING_EXPLICIT] = {"w_i / c_i, caller's per-pair divisors", BIT(P_DIVISORS), 0, NAN, 0,
                             explicit_check, NULL, explicit_pair, NULL, false, false},
    [PE_SCALING_NTK_ALPHA] = {"base b alpha^(d/(d-2)), HunYuan's alpha (A = 1)", BIT(P_ALPHA),
                              BIT(P_ALPHA), 1.0, 0, ntk_alpha_check, ntk_prepare, plain_pair, NULL,
                              false, false},
};
#define N_SCHEMES ((int)(sizeof schemes / sizeof schemes[0]))

/* Every row of PE_SCALING_MAP has a descriptor, in the map's order. */
#define PE_SCALING_COUNT_(name, value, str) +1
_Static_assert(N_SCHEMES == 0 PE_SCALING_MAP(PE_SCALING_COUNT_),
               "PE_SCALING_MAP and the scheme table disagree");
#undef PE_SCALING_COUNT_
_Static_assert(N_PARAMS <= 32, "params is a 32-bit set");

static const char *const scheme_names[] = {
#define PE_SCALING_NAME_(name, value, str) [value] = str,
    PE_SCALING_MAP(PE_SCALING_NAME_)
#undef PE_SCALING_NAME_
};

/* A value with a name and a descriptor (a map row whose descriptor was left
 * out counts as unknown, which the table test reports, instead of a call
 * through NULL). */
static bool known(pe_scaling_type type) {
    return (unsigned)type < (unsigned)N_SCHEMES && scheme_names[type] != NULL &&
           schemes[type].check != NULL && schemes[type].pair != NULL && schemes[type].help != NULL;
}

/* ------------------------------------------------ names and accessors */

const char *pe_scaling_name(pe_scaling_type type) {
    return known(type) ? scheme_names[type] : "?";
}

const char *pe_scaling_help(pe_scaling_type type) {
    return known(type) ? schemes[type].help : "?";
}

int pe_scaling_count(void) { return N_SCHEMES; }

int pe_scaling_num_params(void) { return N_PARAMS; }

const pe_scaling_param *pe_scaling_param_get(int i) {
    return i >= 0 && i < N_PARAMS ? &params[i].pub : NULL;
}

int pe_scaling_reads(pe_scaling_type type, int i) {
    return known(type) && i >= 0 && i < N_PARAMS && (schemes[type].params & BIT(i)) ? 1 : 0;
}

bool pe__scaling_config_requires(pe_scaling_type type, int i) {
    return pe_scaling_reads(type, i) && (schemes[type].config_required & BIT(i));
}

/* s given and i a parameter of kind a or b (the accessors' checks). */
static int param_of_kind(const pe_rope_scaling *s, int i, pe_scaling_param_kind a,
                         pe_scaling_param_kind b) {
    PE_CHECK_NULL(s);
    if (i < 0 || i >= N_PARAMS)
        return pe__fail(PE_ERR_PARAM, "i=%d is not a scaling parameter (0 to %d)", i,
                        N_PARAMS - 1);
    if (params[i].pub.kind != a && params[i].pub.kind != b)
        return pe__fail(PE_ERR_PARAM, "i=%d: parameter '%s' is not of this kind", i,
                        params[i].pub.name);
    return PE_OK;
}

int pe_scaling_set_real(pe_rope_scaling *s, int i, double value) {
    PE_TRY(param_of_kind(s, i, PE_SCALING_PARAM_REAL, PE_SCALING_PARAM_REAL));
    memcpy((char *)s + params[i].offset, &value, sizeof value);
    return PE_OK;
}

int pe_scaling_set_int(pe_rope_scaling *s, int i, int64_t value) {
    PE_TRY(param_of_kind(s, i, PE_SCALING_PARAM_INT, PE_SCALING_PARAM_BOOL));
    if (params[i].pub.kind == PE_SCALING_PARAM_BOOL) {
        int b = value != 0;
        memcpy((char *)s + params[i].offset, &b, sizeof b);
    } else {
        memcpy((char *)s + params[i].offset, &value, sizeof value);
    }
    return PE_OK;
}

int pe_scaling_set_list(pe_rope_scaling *s, int i, const double *values, int64_t n) {
    PE_TRY(param_of_kind(s, i, PE_SCALING_PARAM_LIST, PE_SCALING_PARAM_LIST));
    memcpy((char *)s + params[i].offset, &values, sizeof values);
    memcpy((char *)s + params[i].n_offset, &n, sizeof n);
    return PE_OK;
}

int pe_scaling_get_real(const pe_rope_scaling *s, int i, double *value) {
    PE_TRY(param_of_kind(s, i, PE_SCALING_PARAM_REAL, PE_SCALING_PARAM_REAL));
    PE_CHECK_NULL(value);
    memcpy(value, (const char *)s + params[i].offset, sizeof *value);
    return PE_OK;
}

int pe_scaling_get_int(const pe_rope_scaling *s, int i, int64_t *value) {
    PE_TRY(param_of_kind(s, i, PE_SCALING_PARAM_INT, PE_SCALING_PARAM_BOOL));
    PE_CHECK_NULL(value);
    if (params[i].pub.kind == PE_SCALING_PARAM_BOOL) {
        int b;
        memcpy(&b, (const char *)s + params[i].offset, sizeof b);
        *value = b != 0;
    } else {
        memcpy(value, (const char *)s + params[i].offset, sizeof *value);
    }
    return PE_OK;
}

int pe_scaling_get_list(const pe_rope_scaling *s, int i, const double **values, int64_t *n) {
    PE_TRY(param_of_kind(s, i, PE_SCALING_PARAM_LIST, PE_SCALING_PARAM_LIST));
    PE_CHECK_NULL(values);
    PE_CHECK_NULL(n);
    memcpy(values, (const char *)s + params[i].offset, sizeof *values);
    memcpy(n, (const char *)s + params[i].n_offset, sizeof *n);
    return PE_OK;
}

unsigned pe__scaling_param_config(int i) {
    return i >= 0 && i < N_PARAMS ? params[i].config : 0u;
}

bool pe__scaling_reads_key(pe_scaling_type type, const char *key) {
    for (int i = 0; i < N_PARAMS; i++)
        if (params[i].pub.config_key != NULL && strcmp(params[i].pub.config_key, key) == 0 &&
            pe_scaling_reads(type, i))
            return true;
    return false;
}

double *pe__scaling_param_store(pe_rope_config *c, int i) {
    return i >= 0 && i < N_PARAMS && params[i].store != 0
               ? (double *)(void *)((char *)c + params[i].store)
               : NULL;
}

const double *pe__scaling_param_store_const(const pe_rope_config *c, int i) {
    return i >= 0 && i < N_PARAMS && params[i].store != 0
               ? (const double *)(const void *)((const char *)c + params[i].store)
               : NULL;
}

static bool same_real(double x, double y) { return x == y || (isnan(x) && isnan(y)); }

/* Parameter i of a and b holds the same value (lists: the same entries). */
static bool param_equal(const pe_rope_scaling *a, const pe_rope_scaling *b, int i) {
    switch (params[i].pub.kind) {
    case PE_SCALING_PARAM_REAL: {
        double x, y;
        pe_scaling_get_real(a, i, &x);
        pe_scaling_get_real(b, i, &y);
        return same_real(x, y);
    }
    case PE_SCALING_PARAM_INT:
    case PE_SCALING_PARAM_BOOL: {
        int64_t x, y;
        pe_scaling_get_int(a, i, &x);
        pe_scaling_get_int(b, i, &y);
        return x == y;
    }
    case PE_SCALING_PARAM_LIST: {
        const double *x, *y;
        int64_t nx, ny;
        pe_scaling_get_list(a, i, &x, &nx);
        pe_scaling_get_list(b, i, &y, &ny);
        if (nx != ny) return false;
        if (nx <= 0 || x == y) return true;
        if (x == NULL || y == NULL) return false;
        for (int64_t k = 0; k < nx; k++)
            if (!same_real(x[k], y[k])) return false;
        return true;
    }
    }
    return false;
}

bool pe__scaling_equal(const pe_rope_scaling *a, const pe_rope_scaling *b) {
    if (a->type != b->type || a->head_dim != b->head_dim || a->rotary_dim != b->rotary_dim ||
        !same_real(a->base, b->base) || memcmp(a->reserved, b->reserved, sizeof a->reserved) != 0)
        return false;
    for (int i = 0; i < N_PARAMS; i++)
        if (!param_equal(a, b, i)) return false;
    return true;
}

void pe__scaling_keep_params(pe_rope_scaling *to, const pe_rope_scaling *from) {
    for (int i = 0; i < N_PARAMS; i++) {
        if (params[i].offset == FIELD(factor) || !pe_scaling_reads(to->type, i) ||
            !pe_scaling_reads(from->type, i))
            continue;
        static const size_t size[] = {[PE_SCALING_PARAM_REAL] = sizeof(double),
                                      [PE_SCALING_PARAM_INT] = sizeof(int64_t),
                                      [PE_SCALING_PARAM_BOOL] = sizeof(int),
                                      [PE_SCALING_PARAM_LIST] = sizeof(const double *)};
        memcpy((char *)to + params[i].offset, (const char *)from + params[i].offset,
               size[params[i].pub.kind]);
        if (params[i].pub.kind == PE_SCALING_PARAM_LIST)
            memcpy((char *)to + params[i].n_offset, (const char *)from + params[i].n_offset,
                   sizeof(int64_t));
    }
}

int pe_scaling_from_name(const char *name, pe_scaling_type *out) {
    PE_CHECK_NULL(name);
    PE_CHECK_NULL(out);
    for (int i = 0; i < N_SCHEMES; i++)
        if (known((pe_scaling_type)i) && strcmp(name, scheme_names[i]) == 0) {
            *out = (pe_scaling_type)i;
            return PE_OK;
        }
    /* Phi-3's first configs called LongRoPE "su"; HF still maps it. */
    if (strcmp(name, "su") == 0) {
        *out = PE_SCALING_LONGROPE;
        return PE_OK;
    }
    char list[512] = "";
    for (int i = 0; i < N_SCHEMES; i++) {
        if (!known((pe_scaling_type)i)) continue;
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s%s", i ? ", " : "", scheme_names[i],
                 i == PE_SCALING_LONGROPE ? " (su)" : "");
    }
    return pe__fail(PE_ERR_PARAM, "scaling name '%.64s' is not one of %s", name, list);
}

pe_rope_scaling pe_rope_scaling_defaults(pe_scaling_type type, int64_t head_dim) {
    pe_rope_scaling s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    s.type = type;
    s.head_dim = head_dim;
    s.rotary_dim = head_dim;
    s.base = 10000.0;
    /* Linear/NTK/dynamic have no published default factor: 1 is the
     * identity. YaRN and LongRoPE derive theirs from L / L0 when it is not
     * given. Each scheme's row says. */
    s.factor = known(type) ? schemes[type].factor : NAN;
    s.original_max_position = known(type) ? schemes[type].original_max_position : 0;
    s.beta_fast = 32.0;
    s.beta_slow = 1.0;
    s.truncate = 1;
    s.attention_factor = NAN;
    s.low_freq_factor = 1.0;
    s.high_freq_factor = 4.0;
    return s;
}

/* ---------------------------------------------------------- the engine */

/* Every check of a scaling, before anything is computed or written. */
static int validate_scaling(const pe_rope_scaling *s, long double *f) {
    *f = 1.0L;
    if (!known(s->type))
        return pe__fail(PE_ERR_PARAM, "type=%d is not a scaling type", (int)s->type);
    /* A slot a newer posenc gave a parameter: ignoring it would silently
     * change the result (the struct_size rule's twin, README "ABI and
     * versions"). */
    for (size_t k = 0; k < sizeof s->reserved / sizeof s->reserved[0]; k++)
        if (s->reserved[k] != 0)
            return pe__fail(PE_ERR_PARAM, "pe_rope_scaling.reserved[%zu] is not zero (a "
                            "parameter of a newer posenc than %s?): start from "
                            "pe_rope_scaling_defaults()", k, pe_version_string());
    PE_TRY(check_rotary(s->rotary_dim, s->head_dim));
    PE_TRY(pe__check_base(s->base));
    return schemes[s->type].check(s, f);
}

bool pe__scaling_hf_rope_type(pe_scaling_type type) {
    return known(type) && schemes[type].hf_rope_type;
}

int pe__scaling_validate(const pe_rope_scaling *s) {
    long double f;
    return validate_scaling(s, &f);
}

int pe__scaling_fold_base(const pe_rope_scaling *s, long double *log_base) {
    long double f;
    PE_TRY(validate_scaling(s, &f));
    const scheme *sc = &schemes[s->type];
    if (sc->pair != plain_pair || sc->magnitude != NULL || sc->whole_head)
        return pe__fail(PE_ERR_UNSUPPORTED, "%s changes more than the base",
                        pe_scaling_name(s->type));
    ctx c = {s, f, logl((long double)s->base), s->rotary_dim, s->rotary_dim / 2, 0.0L, 0.0L,
             false};
    if (sc->prepare) sc->prepare(&c);
    *log_base = c.log_base;
    return PE_OK;
}

/* Fill f (already zeroed) and weight[] for a validated scaling. Returns
 * PE_OK or an error naming the parameters that overflowed. */
static int compute(const pe_rope_scaling *s, long double factor, pe_freqs *f,
                   double *weight) {
    const scheme *sc = &schemes[s->type];
    ctx c = {s, factor, logl((long double)s->base), s->rotary_dim, s->rotary_dim / 2,
             0.0L, 0.0L, false};
    const int64_t n_out = sc->whole_head ? s->head_dim / 2 : c.half;
    f->rotary_dim = sc->whole_head ? s->head_dim : c.d;
    for (int64_t i = 0; i < PE_MAX_PAIRS; i++) weight[i] = NAN;
    if (sc->prepare) sc->prepare(&c);
    for (int64_t i = 0; i < n_out; i++) {
        long double wp = sc->pair(&c, i, &weight[i]);
        if (!store(f, i, wp, i >= c.half))
            return pe__fail(PE_ERR_PARAM, "%s gives inv_freq[%lld]=%Lg outside (0, 1e240] "
                            "(base=%g, factor=%g)",
                            pe_scaling_name(s->type), (long long)i, wp, s->base,
                            (double)factor);
    }
    long double amp = 1.0L, softmax_mult = 1.0L;
    if (sc->magnitude) sc->magnitude(&c, &amp, &softmax_mult);
    f->attention_factor = (double)amp;
    f->softmax_scale_multiplier = (double)softmax_mult;
    if (!(f->attention_factor > 0.0) || !isfinite(f->attention_factor))
        return pe__fail(PE_ERR_PARAM, "%s gives attention factor A=%g (factor=%g, "
                        "mscale=%g, mscale_all_dim=%g): must be finite and > 0",
                        pe_scaling_name(s->type), f->attention_factor, (double)factor,
                        s->mscale, s->mscale_all_dim);
    if (!(f->softmax_scale_multiplier > 0.0) || !isfinite(f->softmax_scale_multiplier))
        return pe__fail(PE_ERR_PARAM, "%s gives softmax multiplier %g "
                        "(mscale_all_dim=%g): must be finite and > 0",
                        pe_scaling_name(s->type), f->softmax_scale_multiplier,
                        s->mscale_all_dim);
    return PE_OK;
}

int pe_freqs_from_scaling(const pe_rope_scaling *scaling, pe_freqs *out,
                          double *interp_weight) {
    PE_CHECK_NULL(scaling);
    /* the struct_size rule (struct_size.h): fields past it get defaults */
    pe_rope_scaling resolved;
    const pe_rope_scaling defaults = pe_rope_scaling_defaults(scaling->type, scaling->head_dim);
    PE_TRY(pe__struct_resolve(scaling, &defaults, &resolved, sizeof resolved,
                              PE__SIZE_THROUGH(pe_rope_scaling, n_divisors), "pe_rope_scaling",
                              "pe_rope_scaling_defaults"));
    scaling = &resolved;
    long double factor;
    PE_TRY(validate_scaling(scaling, &factor));
    PE_CHECK_NULL(out);
    /* Computed into scratch first: a derived value can still fail (an
     * overflowing frequency, A <= 0), and a rejected call must leave the
     * caller's buffers untouched. */
    struct scratch {
        pe_freqs f;
        double weight[PE_MAX_PAIRS];
    } scratch = {0}, *tmp = &scratch; /* 12 KiB */
    int status = compute(scaling, factor, &tmp->f, tmp->weight);
    if (status == PE_OK) status = pe_freqs_validate(&tmp->f);
    if (status == PE_OK) {
        *out = tmp->f;
        if (interp_weight != NULL)
            memcpy(interp_weight, tmp->weight,
                   sizeof(double) * (size_t)(tmp->f.rotary_dim / 2));
    }
    return status;
}
