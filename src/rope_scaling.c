/*
 * rope_scaling.c — RoPE frequency generators (SPEC §2.1): linear, NTK,
 * dynamic NTK, YaRN, Llama 3, LongRoPE, proportional and explicit divisors,
 * each a pure function of a pe_rope_scaling. Every frequency is evaluated
 * in long double and stored as a double-double, the same way
 * pe_freqs_default() does, so a factor of 1 reproduces the default
 * frequencies bit for bit. The semantics follow Hugging Face transformers'
 * modeling_rope_utils.py (the v5 reading; see docs/SCALING.md).
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const long double PE_PI_L = 3.141592653589793238462643383279502884L;

static const char *const scaling_names[] = {
    "default", "linear", "ntk", "dynamic", "yarn",
    "llama3", "longrope", "proportional", "explicit",
};
#define N_SCALING_NAMES (sizeof scaling_names / sizeof scaling_names[0])

const char *pe_scaling_name(pe_scaling_type type) {
    if ((unsigned)type >= N_SCALING_NAMES) return "?";
    return scaling_names[type];
}

int pe_scaling_from_name(const char *name, pe_scaling_type *out) {
    PE_CHECK_NULL(name);
    PE_CHECK_NULL(out);
    for (size_t i = 0; i < N_SCALING_NAMES; i++)
        if (strcmp(name, scaling_names[i]) == 0) {
            *out = (pe_scaling_type)i;
            return PE_OK;
        }
    /* Phi-3's first configs called LongRoPE "su"; HF still maps it. */
    if (strcmp(name, "su") == 0) {
        *out = PE_SCALING_LONGROPE;
        return PE_OK;
    }
    return pe__fail(PE_ERR_PARAM, "scaling name '%.64s' is not one of default, "
                    "linear, ntk, dynamic, yarn, llama3, longrope (su), "
                    "proportional, explicit", name);
}

pe_rope_scaling pe_rope_scaling_defaults(pe_scaling_type type, int64_t head_dim) {
    pe_rope_scaling s;
    memset(&s, 0, sizeof s);
    s.type = type;
    s.head_dim = head_dim;
    s.rotary_dim = head_dim;
    s.base = 10000.0;
    /* Linear/NTK/dynamic have no published default factor: 1 is the identity.
     * YaRN and LongRoPE derive theirs from L / L0 when it is not given. */
    s.factor = (type == PE_SCALING_LINEAR || type == PE_SCALING_NTK ||
                type == PE_SCALING_DYNAMIC) ? 1.0
               : type == PE_SCALING_LLAMA3 ? 8.0 : NAN;
    s.original_max_position = type == PE_SCALING_LLAMA3 ? 8192 : 0;
    s.beta_fast = 32.0;
    s.beta_slow = 1.0;
    s.truncate = 1;
    s.attention_factor = NAN;
    s.low_freq_factor = 1.0;
    s.high_freq_factor = 4.0;
    return s;
}

/* ------------------------------------------------------------ validation */

static int check_rotary(int64_t d, int64_t head_dim) {
    PE_TRY(pe__check_rotary_dim(d));
    return pe__check_rotary_within(d, head_dim);
}

static int check_factor(double f) {
    if (!(f > 0.0) || !isfinite(f))
        return pe__fail(PE_ERR_PARAM, "factor=%g must be finite and > 0", f);
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
        return pe__fail(PE_ERR_SHAPE, "%s has %lld entries, rotary_dim/2 = %lld",
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

/* The factor a scheme actually uses: YaRN and LongRoPE derive a missing one
 * from the context extension L / L0 (Phi-3 and DeepSeek ship without it in
 * some revisions); PROPORTIONAL's is optional and 1 when absent. */
static int resolve_factor(const pe_rope_scaling *s, long double *f) {
    if (isnan(s->factor)) {
        if (s->type == PE_SCALING_PROPORTIONAL) {
            *f = 1.0L;
            return PE_OK;
        }
        if (s->type == PE_SCALING_YARN || s->type == PE_SCALING_LONGROPE) {
            if (s->max_position <= 0)
                return pe__fail(PE_ERR_PARAM, "factor=nan needs max_position=%lld > 0 "
                                "to derive max_position / original_max_position",
                                (long long)s->max_position);
            *f = (long double)s->max_position / (long double)s->original_max_position;
            return PE_OK;
        }
    }
    PE_TRY(check_factor(s->factor));
    *f = (long double)s->factor;
    return PE_OK;
}

/* Every check of a scaling, before anything is computed or written. */
static int validate_scaling(const pe_rope_scaling *s, long double *f) {
    const int64_t d = s->rotary_dim, half = d / 2;
    *f = 1.0L;
    if ((unsigned)s->type >= N_SCALING_NAMES)
        return pe__fail(PE_ERR_PARAM, "type=%d is not a scaling type", (int)s->type);
    PE_TRY(check_rotary(d, s->head_dim));
    PE_TRY(pe__check_base(s->base));
    switch (s->type) {
    case PE_SCALING_DEFAULT:
        return PE_OK;
    case PE_SCALING_LINEAR:
    case PE_SCALING_NTK:
        if (s->type == PE_SCALING_NTK && d == 2)
            return pe__fail(PE_ERR_DIM, "rotary_dim=2: NTK's exponent d/(d-2) "
                            "needs d > 2");
        return resolve_factor(s, f);
    case PE_SCALING_DYNAMIC:
        if (d == 2)
            return pe__fail(PE_ERR_DIM, "rotary_dim=2: dynamic NTK's exponent "
                            "d/(d-2) needs d > 2");
        PE_TRY(check_positive_len(s->max_position, "max_position"));
        PE_TRY(check_seq_len(s->seq_len));
        return resolve_factor(s, f);
    case PE_SCALING_YARN:
        PE_TRY(check_positive_len(s->original_max_position, "original_max_position"));
        PE_TRY(resolve_factor(s, f));
        PE_TRY(check_betas(s->beta_fast, s->beta_slow));
        if (!(s->mscale >= 0.0) || !isfinite(s->mscale))
            return pe__fail(PE_ERR_PARAM, "mscale=%g must be finite and >= 0 "
                            "(0: unset)", s->mscale);
        if (!(s->mscale_all_dim >= 0.0) || !isfinite(s->mscale_all_dim))
            return pe__fail(PE_ERR_PARAM, "mscale_all_dim=%g must be finite and "
                            ">= 0 (0: unset)", s->mscale_all_dim);
        return check_attention_factor(s->attention_factor);
    case PE_SCALING_LLAMA3:
        PE_TRY(check_positive_len(s->original_max_position, "original_max_position"));
        PE_TRY(resolve_factor(s, f));
        if (!(s->low_freq_factor > 0.0) || !isfinite(s->high_freq_factor))
            return pe__fail(PE_ERR_PARAM, "low_freq_factor=%g must be > 0 and "
                            "high_freq_factor=%g finite", s->low_freq_factor,
                            s->high_freq_factor);
        if (!(s->low_freq_factor < s->high_freq_factor))
            return pe__fail(PE_ERR_PARAM, "low_freq_factor=%g must be < "
                            "high_freq_factor=%g", s->low_freq_factor,
                            s->high_freq_factor);
        return PE_OK;
    case PE_SCALING_LONGROPE:
        PE_TRY(check_positive_len(s->original_max_position, "original_max_position"));
        PE_TRY(check_seq_len(s->seq_len));
        PE_TRY(resolve_factor(s, f));
        PE_TRY(check_attention_factor(s->attention_factor));
        PE_TRY(check_list(s->short_factor, s->n_short_factor, half, "short_factor"));
        PE_TRY(check_list(s->long_factor, s->n_long_factor, half, "long_factor"));
        if (isnan(s->attention_factor) && *f > 1.0L && s->original_max_position == 1)
            return pe__fail(PE_ERR_PARAM, "original_max_position=1: LongRoPE's "
                            "attention factor divides by ln(L0)");
        return PE_OK;
    case PE_SCALING_PROPORTIONAL:
        if (s->head_dim % 2 != 0 || s->head_dim > PE_MAX_ROTARY_DIM)
            return pe__fail(PE_ERR_DIM, "head_dim=%lld must be even and <= %d: "
                            "proportional RoPE pairs the whole head",
                            (long long)s->head_dim, PE_MAX_ROTARY_DIM);
        return resolve_factor(s, f);
    case PE_SCALING_EXPLICIT:
        return check_list(s->divisors, s->n_divisors, half, "divisors");
    }
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

/* Fill f (already zeroed) and weight[] for a validated scaling. Returns
 * PE_OK or an error naming the parameters that overflowed. */
static int compute(const pe_rope_scaling *s, long double factor, pe_freqs *f,
                   double *weight) {
    const int64_t d = s->rotary_dim, half = d / 2;
    long double log_base = logl((long double)s->base);
    long double amp = 1.0L, softmax_mult = 1.0L;
    int64_t n_out = half;

    f->rotary_dim = d;
    for (int64_t i = 0; i < PE_MAX_PAIRS; i++) weight[i] = NAN;

    switch (s->type) {
    case PE_SCALING_NTK:
        /* b' = b f^(d/(d-2)), taken in the log domain so b' cannot overflow. */
        log_base += (long double)d / (long double)(d - 2) * logl(factor);
        break;
    case PE_SCALING_DYNAMIC:
        /* Only a sequence longer than L changes anything; nothing is cached,
         * the caller states s every time. */
        if (s->seq_len > s->max_position) {
            long double r = factor * (long double)s->seq_len /
                            (long double)s->max_position - (factor - 1.0L);
            log_base += (long double)d / (long double)(d - 2) * logl(r);
        }
        break;
    case PE_SCALING_PROPORTIONAL:
        n_out = s->head_dim / 2;
        f->rotary_dim = s->head_dim;
        break;
    default:
        break;
    }

    long double yarn_low = 0.0L, yarn_high = 0.0L;
    if (s->type == PE_SCALING_YARN) {
        yarn_range(d, log_base, s->original_max_position, s->beta_fast, s->beta_slow,
                   s->truncate, &yarn_low, &yarn_high);
        if (yarn_low == yarn_high) yarn_high += 0.001L; /* HF's singularity guard */
    }
    const long double l0 = (long double)s->original_max_position;
    const bool use_long = s->type == PE_SCALING_LONGROPE &&
                          s->seq_len > s->original_max_position;

    for (int64_t i = 0; i < n_out; i++) {
        long double w, wp;
        switch (s->type) {
        case PE_SCALING_LINEAR:
            wp = omega(i, d, log_base) / factor;
            break;
        case PE_SCALING_YARN: {
            /* Extrapolation weight w_i: 1 keeps w_i, 0 takes w_i / f. Written
             * as w/f + weight (w - w/f) so that f = 1 gives w exactly. */
            w = omega(i, d, log_base);
            long double ramp = ((long double)i - yarn_low) / (yarn_high - yarn_low);
            ramp = ramp < 0.0L ? 0.0L : ramp > 1.0L ? 1.0L : ramp;
            long double keep = 1.0L - ramp, scaled = w / factor;
            wp = scaled + keep * (w - scaled);
            weight[i] = (double)keep;
            break;
        }
        case PE_SCALING_LLAMA3: {
            w = omega(i, d, log_base);
            long double wavelen = 2.0L * PE_PI_L / w, scaled = w / factor, t;
            if (wavelen < l0 / (long double)s->high_freq_factor)
                t = 1.0L; /* high frequency: untouched */
            else if (wavelen > l0 / (long double)s->low_freq_factor)
                t = 0.0L; /* low frequency: interpolated by f */
            else
                t = (l0 / wavelen - (long double)s->low_freq_factor) /
                    ((long double)s->high_freq_factor - (long double)s->low_freq_factor);
            wp = t == 1.0L ? w : t == 0.0L ? scaled : scaled + t * (w - scaled);
            weight[i] = (double)t;
            break;
        }
        case PE_SCALING_LONGROPE:
            wp = omega(i, d, log_base) /
                 (long double)(use_long ? s->long_factor[i] : s->short_factor[i]);
            break;
        case PE_SCALING_PROPORTIONAL:
            /* Exponent over the whole head; pairs past d/2 do not rotate. */
            wp = i < half ? omega(i, s->head_dim, log_base) / factor : 0.0L;
            break;
        case PE_SCALING_EXPLICIT:
            wp = omega(i, d, log_base) / (long double)s->divisors[i];
            break;
        default: /* DEFAULT, NTK, DYNAMIC: only the base differs */
            wp = omega(i, d, log_base);
            break;
        }
        /* only PROPORTIONAL's pairs past d/2 are zero by design */
        const bool zero_ok = s->type == PE_SCALING_PROPORTIONAL && i >= half;
        if (!store(f, i, wp, zero_ok))
            return pe__fail(PE_ERR_PARAM, "%s gives inv_freq[%lld]=%Lg outside (0, 1e240] "
                            "(base=%g, factor=%g)",
                            pe_scaling_name(s->type), (long long)i, wp, s->base,
                            (double)factor);
    }

    if (s->type == PE_SCALING_YARN) {
        if (!isnan(s->attention_factor))
            amp = s->attention_factor;
        else if (s->mscale != 0.0 && s->mscale_all_dim != 0.0)
            amp = yarn_mscale(factor, s->mscale) / yarn_mscale(factor, s->mscale_all_dim);
        else
            amp = yarn_mscale(factor, 1.0L);
        /* DeepSeek folds mscale(f, mscale_all_dim)^2 into the softmax scale
         * (its attention code, not the rotary embedding, applies it). */
        if (s->mscale_all_dim != 0.0) {
            long double m = yarn_mscale(factor, s->mscale_all_dim);
            softmax_mult = m * m;
        }
    } else if (s->type == PE_SCALING_LONGROPE) {
        if (!isnan(s->attention_factor))
            amp = s->attention_factor;
        else if (factor > 1.0L)
            amp = sqrtl(1.0L + logl(factor) / logl(l0));
    }
    f->attention_factor = (double)amp;
    f->softmax_scale_multiplier = (double)softmax_mult;
    if (!(f->attention_factor > 0.0) || !isfinite(f->attention_factor))
        return pe__fail(PE_ERR_PARAM, "%s gives attention factor A=%g (factor=%g, "
                        "mscale=%g, mscale_all_dim=%g): must be finite and > 0",
                        pe_scaling_name(s->type), f->attention_factor, (double)factor,
                        s->mscale, s->mscale_all_dim);
    if (!(f->softmax_scale_multiplier > 0.0) || !isfinite(f->softmax_scale_multiplier))
        return pe__fail(PE_ERR_PARAM, "yarn gives softmax multiplier %g "
                        "(mscale_all_dim=%g): must be finite and > 0",
                        f->softmax_scale_multiplier, s->mscale_all_dim);
    return PE_OK;
}

int pe_freqs_from_scaling(const pe_rope_scaling *scaling, pe_freqs *out,
                          double *interp_weight) {
    PE_CHECK_NULL(scaling);
    long double factor;
    PE_TRY(validate_scaling(scaling, &factor));
    PE_CHECK_NULL(out);
    /* Computed into scratch first: a derived value can still fail (an
     * overflowing frequency, A <= 0), and a rejected call must leave the
     * caller's buffers untouched. */
    struct scratch {
        pe_freqs f;
        double weight[PE_MAX_PAIRS];
    } *tmp = calloc(1, sizeof *tmp);
    if (tmp == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for frequency scratch");
    int status = compute(scaling, factor, &tmp->f, tmp->weight);
    if (status == PE_OK) status = pe_freqs_validate(&tmp->f);
    if (status == PE_OK) {
        *out = tmp->f;
        if (interp_weight != NULL)
            memcpy(interp_weight, tmp->weight,
                   sizeof(double) * (size_t)(tmp->f.rotary_dim / 2));
    }
    free(tmp);
    return status;
}
