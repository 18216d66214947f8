/* test_rope_scaling.c — the frequency generators of SPEC §2.1 against a long
 * double reference written here from the SPEC formulas (powl for b^x, the
 * formulas exactly as SPEC prints them), the SPEC's YaRN facts, "factor 1 is
 * the default" bit for bit, and every error path with untouched outputs. */
#include "runner.h"
#include "../src/scaling_internal.h"

#include <float.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library and this reference evaluate the same closed forms in long
 * double by different routes (expl(x ln b) vs powl, rearranged blends), so
 * they agree to a few 1e-19 relative on x87/quad long double. 2e-17 leaves a
 * 10x margin yet sits 5x below half an ulp of a double: a frequency whose
 * inv_freq_lo were missing or wrong would fail. Where long double computes
 * as a double (a platform without extended precision, or valgrind, which
 * emulates x87 in double: hence a run-time test, not LDBL_MANT_DIG), each
 * side rounds x = (2i/d) ln b, which costs |x| eps relative in b^-x; |x|
 * stays below 30 for every base here (<= 1e13 after NTK/dynamic growth), so
 * 2 * 30 eps for the two sides plus a few for the blends: 64 eps (1.4e-14). */
static double rel_tol(void) {
    const double eps = pe_test_ld_eps();
    return eps < 1e-18 ? 2e-17 : 64 * eps;
}
#define REL_TOL rel_tol()

/* The interpolation weights (YaRN's ramp, Llama 3's t) are long double
 * values rounded once: 1e-15 natively. Where long double is a double they
 * are ratios of differences of few-ulp quantities, t = (L0/lambda - l)/(h - l)
 * magnifying them by h/(h - l) <= 20 for the parameters drawn here: 256 eps
 * (5.7e-14) bounds that. */
static long double weight_tol(void) {
    const double eps = pe_test_ld_eps();
    return eps < 1e-18 ? 1e-15L : 256.0L * eps;
}

static const long double PI_L = 3.141592653589793238462643383279502884L;

typedef struct {
    long double w[PE_MAX_PAIRS];      /* w'_i */
    long double weight[PE_MAX_PAIRS]; /* YaRN w_i / Llama 3 t_i, NAN otherwise */
    int64_t n;                        /* pairs in the output */
    long double amp, mult;
    long double f; /* the factor in effect */
} ref_out;

static long double ref_mscale(long double f, long double m) {
    return f <= 1 ? 1.0L : 0.1L * m * logl(f) + 1.0L;
}

static void ref_yarn_range(int64_t d, long double b, long double l0, long double bf,
                           long double bs, int trunc, long double *lo, long double *hi) {
    long double cf = d * logl(l0 / (2 * PI_L * bf)) / (2 * logl(b));
    long double cs = d * logl(l0 / (2 * PI_L * bs)) / (2 * logl(b));
    if (trunc) {
        cf = floorl(cf);
        cs = ceill(cs);
    }
    *lo = cf < 0 ? 0 : cf;
    *hi = cs > d - 1 ? (long double)(d - 1) : cs;
}

/* SPEC §2.1, scheme by scheme. */
static void reference(const pe_rope_scaling *s, ref_out *r) {
    const int64_t d = s->rotary_dim, half = d / 2;
    long double b = s->base, f = s->factor;
    if (isnan(s->factor))
        f = s->type == PE_SCALING_PROPORTIONAL ? 1.0L
            : (long double)s->max_position / (long double)s->original_max_position;
    r->n = half;
    r->amp = 1;
    r->f = f;
    r->mult = 1;
    if (s->type == PE_SCALING_NTK || s->type == PE_SCALING_NTK_ALPHA) /* f: NTK's f, HunYuan's alpha */
        b = b * powl(f, (long double)d / (d - 2));
    if (s->type == PE_SCALING_DYNAMIC && s->seq_len > s->max_position)
        b = b * powl(f * s->seq_len / s->max_position - (f - 1), (long double)d / (d - 2));
    long double lo = 0, hi = 0;
    if (s->type == PE_SCALING_YARN) {
        ref_yarn_range(d, b, s->original_max_position, s->beta_fast, s->beta_slow,
                       s->truncate, &lo, &hi);
        if (lo == hi) hi += 0.001L;
    }
    if (s->type == PE_SCALING_PROPORTIONAL) r->n = s->head_dim / 2;
    for (int64_t i = 0; i < r->n; i++) {
        long double w = powl(b, -(long double)(2 * i) / d);
        r->weight[i] = NAN;
        switch (s->type) {
        case PE_SCALING_LINEAR: r->w[i] = w / f; break;
        case PE_SCALING_YARN: {
            long double ramp = (i - lo) / (hi - lo);
            ramp = ramp < 0 ? 0 : ramp > 1 ? 1 : ramp;
            long double wi = 1 - ramp;
            r->w[i] = (w / f) * (1 - wi) + w * wi;
            r->weight[i] = wi;
            break;
        }
        case PE_SCALING_LLAMA3: {
            long double lam = 2 * PI_L / w, l0 = s->original_max_position;
            long double l = s->low_freq_factor, h = s->high_freq_factor;
            if (lam < l0 / h) {
                r->w[i] = w;
                r->weight[i] = 1;
            } else if (lam > l0 / l) {
                r->w[i] = w / f;
                r->weight[i] = 0;
            } else {
                long double t = (l0 / lam - l) / (h - l);
                r->w[i] = (1 - t) * w / f + t * w;
                r->weight[i] = t;
            }
            break;
        }
        case PE_SCALING_LONGROPE: {
            const double *e = s->seq_len > s->original_max_position ? s->long_factor
                                                                     : s->short_factor;
            r->w[i] = 1.0L / (e[i] * powl(b, (long double)(2 * i) / d));
            break;
        }
        case PE_SCALING_PROPORTIONAL:
            r->w[i] = i < half ? powl(b, -(long double)(2 * i) / s->head_dim) / f : 0;
            break;
        case PE_SCALING_EXPLICIT: r->w[i] = w / s->divisors[i]; break;
        default: r->w[i] = w; break;
        }
    }
    if (s->type == PE_SCALING_YARN) {
        if (!isnan(s->attention_factor)) r->amp = s->attention_factor;
        else if (s->mscale != 0 && s->mscale_all_dim != 0)
            r->amp = ref_mscale(f, s->mscale) / ref_mscale(f, s->mscale_all_dim);
        else r->amp = ref_mscale(f, 1);
        if (s->mscale_all_dim != 0)
            r->mult = ref_mscale(f, s->mscale_all_dim) * ref_mscale(f, s->mscale_all_dim);
    }
    if (s->type == PE_SCALING_LONGROPE) {
        if (!isnan(s->attention_factor)) r->amp = s->attention_factor;
        else if (f > 1) r->amp = sqrtl(1 + logl(f) / logl(s->original_max_position));
    }
}

/* Generate and compare everything against the reference; returns the
 * number of mismatching pairs (reports only the first). */
static int check_against_reference(const pe_rope_scaling *s, const char *what) {
    static pe_freqs f;
    static ref_out r;
    static double weight[PE_MAX_PAIRS];
    int bad = 0;
    CHECK_OK(pe_freqs_from_scaling(s, &f, weight));
    reference(s, &r);
    CHECK_MSG(f.rotary_dim == 2 * r.n, "%s: rotary_dim %lld, want %lld", what,
              (long long)f.rotary_dim, (long long)(2 * r.n));
    for (int64_t i = 0; i < r.n && i < PE_MAX_PAIRS; i++) {
        long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
        long double rel = r.w[i] == 0 ? fabsl(got) : fabsl(got - r.w[i]) / r.w[i];
        bool wok = isnan(r.weight[i]) ? isnan(weight[i])
                                      : fabsl(weight[i] - r.weight[i]) <= weight_tol();
        /* Where long double is a double, a blend w/f + t (w - w/f) also
         * carries t's error magnified by up to f. */
        const long double tol = pe_test_ld_eps() < 1e-18
                                    ? (long double)REL_TOL
                                    : (long double)REL_TOL * (1.0L + fabsl(r.f));
        if ((rel > tol || !wok) && bad++ == 0)
            pe_test_fail(__FILE__, __LINE__, "%s: pair %lld got %.21Lg (weight %.17g), "
                         "want %.21Lg (weight %.17Lg), rel %.3Lg", what, (long long)i,
                         got, weight[i], r.w[i], r.weight[i], rel);
    }
    /* A and the multiplier: one double rounding of a long double value. */
    CHECK_MSG(fabsl(f.attention_factor - r.amp) <= 2e-16L * r.amp, "%s: A %.17g want %.17Lg",
              what, f.attention_factor, r.amp);
    CHECK_MSG(fabsl(f.softmax_scale_multiplier - r.mult) <= 2e-16L * r.mult,
              "%s: softmax multiplier %.17g want %.17Lg", what,
              f.softmax_scale_multiplier, r.mult);
    return bad;
}

TEST(scaling_names_round_trip) {
    for (int t = 0; t <= PE_SCALING_EXPLICIT; t++) {
        pe_scaling_type back = PE_SCALING_DEFAULT;
        CHECK_OK(pe_scaling_from_name(pe_scaling_name((pe_scaling_type)t), &back));
        CHECK(back == (pe_scaling_type)t);
    }
    CHECK(strcmp(pe_scaling_name(PE_SCALING_LLAMA3), "llama3") == 0);
    CHECK(strcmp(pe_scaling_name((pe_scaling_type)99), "?") == 0);
    pe_scaling_type t = PE_SCALING_DEFAULT;
    CHECK_OK(pe_scaling_from_name("su", &t));
    CHECK(t == PE_SCALING_LONGROPE);
    CHECK_ERROR(pe_scaling_from_name("Linear", &t), PE_ERR_PARAM, "'Linear'");
    CHECK_ERROR(pe_scaling_from_name(NULL, &t), PE_ERR_NULL, "name");
    CHECK_ERROR(pe_scaling_from_name("yarn", NULL), PE_ERR_NULL, "out");
}

/* The scheme table (rope_scaling.c) is what the CLI, Python and config.c
 * generate their choices, options and keys from: every row complete. */
TEST(scaling_table_every_scheme_and_parameter_is_a_complete_row) {
    const int n = pe_scaling_count(), np = pe_scaling_num_params();
    CHECK(n >= PE_SCALING_EXPLICIT + 1);
    for (int t = 0; t < n; t++) {
        const char *name = pe_scaling_name((pe_scaling_type)t), *help = pe_scaling_help((pe_scaling_type)t);
        CHECK_MSG(name[0] && strcmp(name, "?") != 0, "scheme %d has no name", t);
        CHECK_MSG(help[0] && strcmp(help, "?") != 0, "scheme %s has no help", name);
        pe_scaling_type back = PE_SCALING_DEFAULT;
        CHECK_OK(pe_scaling_from_name(name, &back));
        CHECK(back == (pe_scaling_type)t);
        for (int u = 0; u < t; u++) CHECK(strcmp(name, pe_scaling_name((pe_scaling_type)u)) != 0);
    }
    CHECK(strcmp(pe_scaling_name((pe_scaling_type)n), "?") == 0);
    CHECK(strcmp(pe_scaling_help((pe_scaling_type)n), "?") == 0);
    CHECK(np > 0 && np <= 32);
    CHECK(pe_scaling_param_get(np) == NULL && pe_scaling_param_get(-1) == NULL);
    CHECK(pe_scaling_reads((pe_scaling_type)n, 0) == 0 && pe_scaling_reads(PE_SCALING_YARN, np) == 0);
    for (int i = 0; i < np; i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        CHECK(p != NULL && p->name && p->name[0] && p->flag && p->help && p->help[0]);
        if (p == NULL) continue;
        /* the CLI's flag is the keyword with '-' for '_' ("no-" + it for a BOOL) */
        char want[64];
        snprintf(want, sizeof want, "%s%s", p->kind == PE_SCALING_PARAM_BOOL ? "no-" : "", p->name);
        for (char *c = want; *c; c++) *c = *c == '_' ? '-' : *c;
        CHECK_MSG(strcmp(p->flag, want) == 0, "flag %s for %s", p->flag, p->name);
        CHECK((p->metavar == NULL) == (p->kind == PE_SCALING_PARAM_BOOL));
        CHECK(p->kind >= PE_SCALING_PARAM_REAL && p->kind <= PE_SCALING_PARAM_LIST);
        int readers = 0;
        for (int t = 0; t < n; t++) readers += pe_scaling_reads((pe_scaling_type)t, i);
        CHECK_MSG(readers > 0, "parameter %s is read by no scheme", p->name);
        for (int j = 0; j < i; j++) CHECK(strcmp(p->name, pe_scaling_param_get(j)->name) != 0);
    }
    /* what SPEC §2.1 says each scheme reads, spot-checked by name */
    static const struct { pe_scaling_type t; const char *param; int reads; } facts[] = {
        {PE_SCALING_DEFAULT, "factor", 0}, {PE_SCALING_LINEAR, "factor", 1},
        {PE_SCALING_YARN, "beta_fast", 1}, {PE_SCALING_LLAMA3, "beta_fast", 0},
        {PE_SCALING_LLAMA3, "high_freq_factor", 1}, {PE_SCALING_LONGROPE, "long_factor", 1},
        {PE_SCALING_DYNAMIC, "seq_len", 1}, {PE_SCALING_EXPLICIT, "divisors", 1},
        {PE_SCALING_EXPLICIT, "factor", 0},
    };
    for (size_t k = 0; k < sizeof facts / sizeof facts[0]; k++) {
        int found = 0;
        for (int i = 0; i < np; i++)
            if (strcmp(pe_scaling_param_get(i)->name, facts[k].param) == 0) {
                found = 1;
                CHECK_MSG(pe_scaling_reads(facts[k].t, i) == facts[k].reads, "%s reads %s: %d",
                          pe_scaling_name(facts[k].t), facts[k].param, facts[k].reads);
            }
        CHECK(found);
    }
}

/* Each parameter row sets the field its name says (the front ends set
 * fields only through these rows). The field table is written here. */
TEST(scaling_table_setters_write_the_named_field) {
    static const struct { const char *name; size_t off, n_off; } fields[] = {
        {"factor", offsetof(pe_rope_scaling, factor), 0},
        {"original_max_position", offsetof(pe_rope_scaling, original_max_position), 0},
        {"max_position", offsetof(pe_rope_scaling, max_position), 0},
        {"seq_len", offsetof(pe_rope_scaling, seq_len), 0},
        {"beta_fast", offsetof(pe_rope_scaling, beta_fast), 0},
        {"beta_slow", offsetof(pe_rope_scaling, beta_slow), 0},
        {"truncate", offsetof(pe_rope_scaling, truncate), 0},
        {"mscale", offsetof(pe_rope_scaling, mscale), 0},
        {"mscale_all_dim", offsetof(pe_rope_scaling, mscale_all_dim), 0},
        {"attention_factor", offsetof(pe_rope_scaling, attention_factor), 0},
        {"low_freq_factor", offsetof(pe_rope_scaling, low_freq_factor), 0},
        {"high_freq_factor", offsetof(pe_rope_scaling, high_freq_factor), 0},
        {"short_factor", offsetof(pe_rope_scaling, short_factor), offsetof(pe_rope_scaling, n_short_factor)},
        {"long_factor", offsetof(pe_rope_scaling, long_factor), offsetof(pe_rope_scaling, n_long_factor)},
        {"divisors", offsetof(pe_rope_scaling, divisors), offsetof(pe_rope_scaling, n_divisors)},
        {"alpha", offsetof(pe_rope_scaling, factor), 0}, /* ntk_alpha keeps alpha in factor */
    };
    static const double list[3] = {1, 2, 3};
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        size_t k = 0;
        while (k < sizeof fields / sizeof fields[0] && strcmp(fields[k].name, p->name) != 0) k++;
        CHECK_MSG(k < sizeof fields / sizeof fields[0], "parameter %s not in this test's table", p->name);
        if (k == sizeof fields / sizeof fields[0]) continue;
        pe_rope_scaling s, want;
        memset(&s, 0, sizeof s);
        memset(&want, 0, sizeof want);
        char *w = (char *)&want;
        if (p->kind == PE_SCALING_PARAM_REAL) {
            const double v = 0.75 + i;
            memcpy(w + fields[k].off, &v, sizeof v);
            CHECK_OK(pe_scaling_set_real(&s, i, v));
        } else if (p->kind == PE_SCALING_PARAM_INT) {
            const int64_t v = 1000 + i;
            memcpy(w + fields[k].off, &v, sizeof v);
            CHECK_OK(pe_scaling_set_int(&s, i, v));
        } else if (p->kind == PE_SCALING_PARAM_BOOL) {
            const int v = 1;
            memcpy(w + fields[k].off, &v, sizeof v);
            CHECK_OK(pe_scaling_set_int(&s, i, 7));
        } else {
            const double *v = list;
            const int64_t n = 3;
            memcpy(w + fields[k].off, &v, sizeof v);
            memcpy(w + fields[k].n_off, &n, sizeof n);
            CHECK_OK(pe_scaling_set_list(&s, i, list, 3));
        }
        CHECK_MSG(memcmp(&s, &want, sizeof s) == 0, "setting %s wrote elsewhere", p->name);
    }
}

/* ------------------------------------------------- the table is the only description */

/* A value of parameter i other than *cur, valid for every scheme reading it
 * (a factor or beta 1.5x, L0 halved, truncate flipped, lists 1.5 each). */
static double other_real(double cur) { return isfinite(cur) && cur != 0.0 ? cur * 1.5 : 0.75; }

/* Appends to buf the JSON value of parameter i: from's value (a required
 * key's base: the scheme's default, 2 where it has none) or, if change, a
 * value other than it. */
static void json_value(char *buf, size_t cap, int i, const pe_rope_scaling *from, bool change,
                       int64_t pairs) {
    const pe_scaling_param *p = pe_scaling_param_get(i);
    size_t len = strlen(buf);
    if (p->kind == PE_SCALING_PARAM_REAL) {
        double cur;
        pe_scaling_get_real(from, i, &cur);
        if (change) cur = other_real(cur);
        else if (!isfinite(cur) || cur == 0.0) cur = 2.0;
        snprintf(buf + len, cap - len, "%.17g", cur);
    } else if (p->kind == PE_SCALING_PARAM_INT) {
        int64_t cur;
        pe_scaling_get_int(from, i, &cur);
        if (change) cur = cur > 1 ? cur / 2 : 3;
        else if (cur <= 0) cur = 4096;
        snprintf(buf + len, cap - len, "%lld", (long long)cur);
    } else if (p->kind == PE_SCALING_PARAM_BOOL) {
        int64_t cur;
        pe_scaling_get_int(from, i, &cur);
        snprintf(buf + len, cap - len, "%s", (cur != 0) != change ? "true" : "false");
    } else {
        snprintf(buf + len, cap - len, "[");
        for (int64_t k = 0; k < pairs; k++) {
            len = strlen(buf);
            snprintf(buf + len, cap - len, "%s%s", k ? "," : "", change ? "1.5" : "1");
        }
        len = strlen(buf);
        snprintf(buf + len, cap - len, "]");
    }
}

/* The block of scheme t: every key it must state at its base value, and
 * key `changed` (-1: none) at a value other than from's. */
static void scheme_block(char *buf, size_t cap, pe_scaling_type t, int changed,
                         const pe_rope_scaling *from) {
    const pe_rope_scaling def = pe_rope_scaling_defaults(t, 16);
    snprintf(buf, cap, "{\"rope_type\":\"%s\"", pe_scaling_name(t));
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        if (!pe__scaling_config_requires(t, i) && i != changed) continue;
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, ",\"%s\":", pe_scaling_param_get(i)->config_key);
        json_value(buf, cap, i, i == changed ? from : &def, i == changed, 8);
    }
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "}");
}

/* A config.json of scheme t (its block: scheme_block). v5 per-layer-type
 * form when two_types: the full layers get the base block, the sliding ones
 * the block with `changed`. */
static void scheme_config(char *buf, size_t cap, pe_scaling_type t, int changed,
                          const pe_rope_scaling *from, bool two_types) {
    char base[4096], with[4096];
    scheme_block(base, sizeof base, t, -1, from);
    scheme_block(with, sizeof with, t, changed, from);
    if (two_types)
        snprintf(buf, cap, "{\"model_type\":\"llama\",\"head_dim\":16,\"max_position_embeddings\":4096,\"num_hidden_layers\":2,"
                 "\"layer_types\":[\"full_attention\",\"sliding_attention\"],\"rope_parameters\":"
                 "{\"full_attention\":%s,\"sliding_attention\":%s}}", base, with);
    else
        snprintf(buf, cap, "{\"model_type\":\"llama\",\"head_dim\":16,\"max_position_embeddings\":4096,\"rope_scaling\":%s}",
                 with);
}

/* Issue #29: a parameter added to the table must be read from its config key
 * and be part of the equality the plan merges layer kinds by, with no edit
 * elsewhere. For every scheme a config can name and every parameter it reads
 * from a key: the key alone at another value changes the read struct, and
 * two layer types differing only in it stay two RoPE kinds. */
TEST(scaling_table_every_config_key_is_read_and_compared) {
    char json[16384];
    int covered = 0;
    for (int t = 0; t < pe_scaling_count(); t++) {
        if (!pe__scaling_hf_rope_type((pe_scaling_type)t)) continue;
        pe_rope_config c0, c1;
        scheme_config(json, sizeof json, (pe_scaling_type)t, -1, NULL, false);
        int st = pe_config_parse(json, strlen(json), &c0);
        CHECK_MSG(st == PE_OK, "%s: %s (%s)", pe_scaling_name((pe_scaling_type)t), pe_last_error(), json);
        if (st != PE_OK) continue;
        for (int i = 0; i < pe_scaling_num_params(); i++) {
            const pe_scaling_param *p = pe_scaling_param_get(i);
            if (p->config_key == NULL || !pe_scaling_reads((pe_scaling_type)t, i)) continue;
            const char *who = pe_scaling_name((pe_scaling_type)t);
            scheme_config(json, sizeof json, (pe_scaling_type)t, i, &c0.scaling, false);
            st = pe_config_parse(json, strlen(json), &c1);
            CHECK_MSG(st == PE_OK, "%s %s: %s (%s)", who, p->config_key, pe_last_error(), json);
            if (st != PE_OK) continue;
            pe_rope_scaling s0, s1;
            CHECK_OK(pe_config_scaling(&c0, 0, &s0));
            CHECK_OK(pe_config_scaling(&c1, 0, &s1));
            CHECK_MSG(!pe__scaling_equal(&s0, &s1), "%s: '%s' in the block changed nothing", who,
                      p->config_key);
            pe_plan *plan = NULL;
            scheme_config(json, sizeof json, (pe_scaling_type)t, i, &c0.scaling, true);
            st = pe_plan_from_config_json(json, strlen(json), &plan);
            CHECK_MSG(st == PE_OK, "%s %s: %s (%s)", who, p->config_key, pe_last_error(), json);
            if (st == PE_OK)
                CHECK_MSG(pe_plan_num_rope_kinds(plan) == 2, "%s: layer types differing in '%s' "
                          "merged into %lld RoPE kind(s)", who, p->config_key,
                          (long long)pe_plan_num_rope_kinds(plan));
            pe_plan_free(plan);
            covered++;
        }
    }
    CHECK_MSG(covered >= 21, "%d keys", covered); /* the schemes' keys today (yarn 8, longrope 5, llama3 4, ...): a loop that skips them would pass */
}

/* Equality: two scalings differing in one parameter of the table (any
 * scheme's: the plan compares them all) are unequal; the getters read what
 * the setters wrote. */
TEST(scaling_table_every_param_is_part_of_equality) {
    static const double l1[3] = {1, 2, 3}, l2[3] = {1, 2, 4};
    pe_rope_scaling a = pe_rope_scaling_defaults(PE_SCALING_YARN, 16);
    a.short_factor = a.long_factor = a.divisors = l1;
    a.n_short_factor = a.n_long_factor = a.n_divisors = 3;
    pe_rope_scaling same = a;
    double copy[3] = {1, 2, 3};
    same.long_factor = copy; /* another array with the same entries */
    CHECK(pe__scaling_equal(&a, &same));
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        pe_rope_scaling b = a;
        if (p->kind == PE_SCALING_PARAM_REAL) {
            double v, got;
            CHECK_OK(pe_scaling_get_real(&a, i, &v));
            CHECK_OK(pe_scaling_set_real(&b, i, other_real(v)));
            CHECK_OK(pe_scaling_get_real(&b, i, &got));
            CHECK(got == other_real(v));
        } else if (p->kind == PE_SCALING_PARAM_LIST) {
            const double *v;
            int64_t n;
            CHECK_OK(pe_scaling_set_list(&b, i, l2, 3));
            CHECK_OK(pe_scaling_get_list(&b, i, &v, &n));
            CHECK(v == l2 && n == 3);
        } else {
            int64_t v, got;
            CHECK_OK(pe_scaling_get_int(&a, i, &v));
            const int64_t w = p->kind == PE_SCALING_PARAM_BOOL ? !v : v + 1;
            CHECK_OK(pe_scaling_set_int(&b, i, w));
            CHECK_OK(pe_scaling_get_int(&b, i, &got));
            CHECK(got == w);
        }
        CHECK_MSG(!pe__scaling_equal(&a, &b), "scalings differing in %s compare equal", p->name);
    }
    double v;
    int64_t n;
    const double *list;
    CHECK_ERROR(pe_scaling_get_real(&a, -1, &v), PE_ERR_PARAM, "i=-1");
    CHECK_ERROR(pe_scaling_get_int(&a, 0, &n), PE_ERR_PARAM, "not of this kind");
    CHECK_ERROR(pe_scaling_get_list(&a, 0, &list, &n), PE_ERR_PARAM, "not of this kind");
    CHECK_ERROR(pe_scaling_get_real(NULL, 0, &v), PE_ERR_NULL, "s");
    CHECK_ERROR(pe_scaling_get_real(&a, 0, NULL), PE_ERR_NULL, "value");
}

TEST(scaling_defaults_documented_values) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LLAMA3, 128);
    CHECK(s.head_dim == 128 && s.rotary_dim == 128 && s.base == 10000.0);
    CHECK(s.factor == 8.0 && s.original_max_position == 8192);
    CHECK(s.low_freq_factor == 1.0 && s.high_freq_factor == 4.0);
    s = pe_rope_scaling_defaults(PE_SCALING_YARN, 64);
    CHECK(isnan(s.factor) && s.beta_fast == 32.0 && s.beta_slow == 1.0 && s.truncate == 1);
    CHECK(s.mscale == 0.0 && s.mscale_all_dim == 0.0 && isnan(s.attention_factor));
    CHECK(pe_rope_scaling_defaults(PE_SCALING_LINEAR, 64).factor == 1.0);
}

/* Every scheme with factor 1 (and unit lists) is the default, bit for bit:
 * the generators compute w_i exactly as pe_freqs_default does and blend as
 * w/f + weight (w - w/f), which is w exactly when f = 1. */
TEST(scaling_factor_one_is_default_bit_for_bit) {
    static double ones[PE_MAX_PAIRS];
    for (int i = 0; i < PE_MAX_PAIRS; i++) ones[i] = 1.0;
    const int64_t heads[3][2] = {{128, 128}, {128, 64}, {96, 24}};
    const double bases[3] = {10000.0, 500000.0, 1e6};
    static pe_freqs want, got;
    for (int h = 0; h < 3; h++)
        for (int bi = 0; bi < 3; bi++) {
            int64_t D = heads[h][0], d = heads[h][1];
            CHECK_OK(pe_freqs_default(d, bases[bi], &want));
            for (int t = 0; t < pe_scaling_count(); t++) {
                pe_rope_scaling s = pe_rope_scaling_defaults((pe_scaling_type)t, D);
                s.rotary_dim = d;
                s.base = bases[bi];
                s.factor = 1.0;
                s.original_max_position = 4096;
                s.max_position = 4096;
                s.seq_len = t == PE_SCALING_DYNAMIC ? 4096 : 100000; /* dynamic: s <= L */
                s.mscale = 0.707;
                s.mscale_all_dim = 1.0;
                s.short_factor = s.long_factor = s.divisors = ones;
                s.n_short_factor = s.n_long_factor = s.n_divisors = d / 2;
                if (t == PE_SCALING_PROPORTIONAL) {
                    if (d != D) continue; /* the exponent is 2i/D: only d = D matches */
                }
                CHECK_OK(pe_freqs_from_scaling(&s, &got, NULL));
                CHECK_MSG(got.rotary_dim == d && got.attention_factor == 1.0 &&
                              got.softmax_scale_multiplier == 1.0,
                          "%s D=%lld d=%lld: dim %lld A %g mult %g", pe_scaling_name(s.type),
                          (long long)D, (long long)d, (long long)got.rotary_dim,
                          got.attention_factor, got.softmax_scale_multiplier);
                size_t bytes = sizeof(double) * (size_t)(d / 2);
                CHECK_MSG(memcmp(got.inv_freq, want.inv_freq, bytes) == 0 &&
                              memcmp(got.inv_freq_lo, want.inv_freq_lo, bytes) == 0,
                          "%s D=%lld d=%lld b=%g differs from the default",
                          pe_scaling_name(s.type), (long long)D, (long long)d, bases[bi]);
            }
        }
}

TEST(scaling_dynamic_factor_one_still_grows_the_base) {
    /* The trap: with f = 1, s > L gives base b (s/L)^(d/(d-2)), not b. */
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, 64);
    s.max_position = 2048;
    s.seq_len = 8192;
    check_against_reference(&s, "dynamic f=1 s=4L");
    static pe_freqs f, def;
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
    CHECK_OK(pe_freqs_default(64, 10000.0, &def));
    CHECK(f.inv_freq[1] < def.inv_freq[1]);
    s.seq_len = 0; /* not stated: default */
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
    CHECK(memcmp(f.inv_freq, def.inv_freq, sizeof(double) * 32) == 0);
}

TEST(scaling_linear_ntk_dynamic_match_reference) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 128);
    s.factor = 4.0;
    CHECK(check_against_reference(&s, "linear f=4") == 0);
    /* Partial rotary: NTK's d/(d-2) and the exponent use the rotary dim. */
    s = pe_rope_scaling_defaults(PE_SCALING_NTK, 128);
    s.rotary_dim = 32;
    s.factor = 8.0;
    CHECK(check_against_reference(&s, "ntk D=128 d=32") == 0);
    static pe_freqs f;
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
    /* Using D in the exponent instead would give b'^(-2/128) at pair 1. */
    long double wrong = powl(10000.0L * powl(8.0L, 128.0L / 126), -2.0L / 128);
    CHECK(fabsl(f.inv_freq[1] - wrong) > 1e-3L * wrong);
    s = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, 128);
    s.factor = 2.0;
    s.max_position = 4096;
    const int64_t lens[] = {1, 4096, 4097, 16384, 1 << 20};
    for (int k = 0; k < 5; k++) {
        s.seq_len = lens[k];
        CHECK(check_against_reference(&s, "dynamic") == 0);
    }
}

TEST(scaling_yarn_correction_range_spec_facts) {
    double lo, hi;
    CHECK_OK(pe_yarn_correction_range(128, 10000.0, 2048, 32, 1, 1, &lo, &hi));
    CHECK(lo == 16.0 && hi == 41.0);
    /* The SPEC prints the double-precision values to 16 digits; ours is the
     * long double value rounded once: within a couple of ulps (4e-15). */
    CHECK_OK(pe_yarn_correction_range(64, 150000.0, 4096, 32, 1, 0, &lo, &hi));
    CHECK_NEAR(lo, 8.092779115512402, 1e-14);
    CHECK_NEAR(hi, 17.39802450158856, 1e-14);
    CHECK_OK(pe_yarn_correction_range(64, 150000.0, 4096, 32, 1, 1, &lo, &hi));
    CHECK(lo == 8.0 && hi == 18.0);
    /* Clamps: a tiny L0 pushes low below 0, a huge one high above d-1. */
    CHECK_OK(pe_yarn_correction_range(16, 10000.0, 8, 32, 1, 1, &lo, &hi));
    CHECK(lo == 0.0);
    CHECK_OK(pe_yarn_correction_range(16, 10.0, 1 << 30, 32, 1, 1, &lo, &hi));
    CHECK(hi == 15.0);
    CHECK_ERROR(pe_yarn_correction_range(64, 1e4, 4096, 1, 32, 1, &lo, &hi), PE_ERR_PARAM,
                "beta_fast=1 must be >= beta_slow=32");
    CHECK_ERROR(pe_yarn_correction_range(63, 1e4, 4096, 32, 1, 1, &lo, &hi), PE_ERR_DIM,
                "rotary_dim=63");
    CHECK_ERROR(pe_yarn_correction_range(64, 1.0, 4096, 32, 1, 1, &lo, &hi), PE_ERR_PARAM,
                "base=1");
    CHECK_ERROR(pe_yarn_correction_range(64, 1e4, 0, 32, 1, 1, &lo, &hi), PE_ERR_PARAM,
                "original_max_position=0");
    CHECK_ERROR(pe_yarn_correction_range(64, 1e4, 4096, 32, 1, 1, NULL, &hi), PE_ERR_NULL,
                "low");
}

TEST(scaling_yarn_matches_reference) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_YARN, 128);
    s.factor = 10.0;
    s.original_max_position = 2048;
    CHECK(check_against_reference(&s, "yarn SPEC example") == 0);
    static pe_freqs f;
    static double w[64];
    CHECK_OK(pe_freqs_from_scaling(&s, &f, w));
    /* low = 16, high = 41: pairs up to 16 keep w_i, from 41 on take w_i/f. */
    CHECK(w[0] == 1.0 && w[16] == 1.0 && w[41] == 0.0 && w[63] == 0.0);
    CHECK_NEAR(w[20], 1.0 - 4.0 / 25.0, 1e-15);
    CHECK_NEAR(f.attention_factor, 0.1 * log(10.0) + 1.0, 2e-16);
    CHECK(f.softmax_scale_multiplier == 1.0);

    /* gpt-oss: b = 150000, d = 64, L0 = 4096, f = 32, no truncation. */
    s = pe_rope_scaling_defaults(PE_SCALING_YARN, 64);
    s.base = 150000.0;
    s.factor = 32.0;
    s.original_max_position = 4096;
    s.truncate = 0;
    CHECK(check_against_reference(&s, "yarn gpt-oss") == 0);
    /* Partial rotary: the correction range uses the rotary dim. */
    s.head_dim = 128;
    s.rotary_dim = 32;
    CHECK(check_against_reference(&s, "yarn partial") == 0);
    /* A: attention_factor wins; else mscale ratio; else mscale(f, 1). */
    s.mscale = 0.707;
    s.mscale_all_dim = 0.707;
    CHECK(check_against_reference(&s, "yarn mscale ratio") == 0);
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
    CHECK(f.attention_factor == 1.0);
    s.mscale = 1.0;
    s.mscale_all_dim = 0.0;
    CHECK(check_against_reference(&s, "yarn mscale without all_dim") == 0);
    s.attention_factor = 1.25;
    s.mscale_all_dim = 1.0;
    CHECK(check_against_reference(&s, "yarn explicit A with multiplier") == 0);
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
    CHECK(f.attention_factor == 1.25);
    CHECK_NEAR(f.softmax_scale_multiplier, pow(0.1 * log(32.0) + 1.0, 2), 1e-15);
    /* factor missing: L / L0 (DeepSeek's 163840 / 4096 = 40). */
    s = pe_rope_scaling_defaults(PE_SCALING_YARN, 64);
    s.original_max_position = 4096;
    s.max_position = 163840;
    CHECK(check_against_reference(&s, "yarn derived factor") == 0);
    /* low == high after clamping: high is nudged by 0.001 (d = 8, L0 = 2). */
    s = pe_rope_scaling_defaults(PE_SCALING_YARN, 8);
    s.factor = 4.0;
    s.original_max_position = 2;
    CHECK(check_against_reference(&s, "yarn low == high") == 0);
    CHECK_OK(pe_freqs_from_scaling(&s, &f, w));
    CHECK(w[0] == 1.0 && w[1] == 0.0);
}

TEST(scaling_llama3_matches_reference) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LLAMA3, 128);
    s.base = 500000.0; /* Llama 3.1: f 8, l 1, h 4, L0 8192 (the defaults) */
    CHECK(check_against_reference(&s, "llama 3.1") == 0);
    static double t[64];
    static pe_freqs f;
    CHECK_OK(pe_freqs_from_scaling(&s, &f, t));
    int kept = 0, scaled = 0, mid = 0;
    for (int i = 0; i < 64; i++) {
        kept += t[i] == 1.0;
        scaled += t[i] == 0.0;
        mid += t[i] > 0.0 && t[i] < 1.0;
    }
    CHECK(kept > 0 && scaled > 0 && mid > 0); /* all three bands exercised */
    CHECK(f.attention_factor == 1.0);
    s.factor = 32.0; /* Llama 3.2 */
    s.rotary_dim = 64;
    CHECK(check_against_reference(&s, "llama 3.2 partial") == 0);
}

TEST(scaling_longrope_switches_at_original_length) {
    static double sf[48], lf[48];
    pe_rng rng = {pe_test_seed()};
    for (int i = 0; i < 48; i++) {
        sf[i] = pe_rng_uniform(&rng, 1.0, 3.0);
        lf[i] = pe_rng_uniform(&rng, 1.0, 65.0);
    }
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LONGROPE, 96);
    s.original_max_position = 4096;
    s.max_position = 131072;
    s.short_factor = sf;
    s.long_factor = lf;
    s.n_short_factor = s.n_long_factor = 48;
    static pe_freqs f;
    const int64_t lens[] = {0, 1, 4096, 4097, 131072};
    for (int k = 0; k < 5; k++) {
        s.seq_len = lens[k];
        CHECK(check_against_reference(&s, "longrope") == 0);
        CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
        long double w5 = powl(10000.0L, -10.0L / 96) / (lens[k] > 4096 ? lf[5] : sf[5]);
        CHECK(fabsl(((long double)f.inv_freq[5] + f.inv_freq_lo[5]) - w5) <= REL_TOL * w5);
        /* Phi-3 mini: f = 131072/4096 = 32, ln 32 / ln 4096 = 5/12 exactly. */
        CHECK_NEAR(f.attention_factor, sqrt(17.0 / 12.0), 2e-16);
    }
    s.attention_factor = 1.1;
    CHECK(check_against_reference(&s, "longrope explicit A") == 0);
    s.attention_factor = NAN;
    s.factor = 1.0;
    CHECK(check_against_reference(&s, "longrope factor 1") == 0);
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
    CHECK(f.attention_factor == 1.0);
}

TEST(scaling_proportional_and_explicit) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_PROPORTIONAL, 256);
    s.rotary_dim = 64; /* partial_rotary_factor 0.25 */
    s.base = 1e6;
    CHECK(check_against_reference(&s, "proportional") == 0);
    static pe_freqs f;
    static double w[128];
    CHECK_OK(pe_freqs_from_scaling(&s, &f, w));
    CHECK(f.rotary_dim == 256);
    CHECK(f.inv_freq[31] > 0.0 && f.inv_freq[32] == 0.0 && f.inv_freq_lo[127] == 0.0);
    CHECK(isnan(w[0]) && isnan(w[127]));
    s.factor = 8.0;
    CHECK(check_against_reference(&s, "proportional f=8") == 0);
    static double c[16];
    for (int i = 0; i < 16; i++) c[i] = 1.0 + 0.5 * i;
    s = pe_rope_scaling_defaults(PE_SCALING_EXPLICIT, 32);
    s.divisors = c;
    s.n_divisors = 16;
    CHECK(check_against_reference(&s, "explicit") == 0);
}

TEST(scaling_randomized_against_reference) {
    pe_rng rng = {pe_test_seed()};
    static double l1[PE_MAX_PAIRS], l2[PE_MAX_PAIRS];
    for (int it = 0; it < 300; it++) {
        pe_scaling_type t = (pe_scaling_type)pe_rng_int(&rng, 0, pe_scaling_count() - 1);
        int64_t D = 2 * pe_rng_int(&rng, 2, 160);
        pe_rope_scaling s = pe_rope_scaling_defaults(t, D);
        s.rotary_dim = 2 * pe_rng_int(&rng, 2, D / 2);
        s.base = exp(pe_rng_uniform(&rng, log(100.0), log(1e7)));
        s.factor = pe_rng_uniform(&rng, 1.0, 64.0);
        s.original_max_position = pe_rng_int(&rng, 256, 65536);
        s.max_position = s.original_max_position * pe_rng_int(&rng, 1, 64);
        s.seq_len = pe_rng_int(&rng, 0, 4 * s.max_position);
        s.truncate = (int)pe_rng_int(&rng, 0, 1);
        s.beta_fast = pe_rng_uniform(&rng, 8, 64);
        s.beta_slow = pe_rng_uniform(&rng, 0.25, 4);
        s.mscale = pe_rng_int(&rng, 0, 1) ? pe_rng_uniform(&rng, 0.5, 1.5) : 0.0;
        s.mscale_all_dim = pe_rng_int(&rng, 0, 1) ? pe_rng_uniform(&rng, 0.5, 1.5) : 0.0;
        s.low_freq_factor = pe_rng_uniform(&rng, 0.5, 2);
        s.high_freq_factor = s.low_freq_factor + pe_rng_uniform(&rng, 0.5, 8);
        for (int i = 0; i < PE_MAX_PAIRS; i++) {
            l1[i] = pe_rng_uniform(&rng, 0.5, 4);
            l2[i] = pe_rng_uniform(&rng, 1, 80);
        }
        s.short_factor = s.divisors = l1;
        s.long_factor = l2;
        s.n_short_factor = s.n_long_factor = s.n_divisors = s.rotary_dim / 2;
        char what[96];
        snprintf(what, sizeof what, "it %d %s D=%lld d=%lld b=%g f=%g", it,
                 pe_scaling_name(t), (long long)D, (long long)s.rotary_dim, s.base,
                 s.factor);
        if (check_against_reference(&s, what) != 0) break;
    }
}

/* ntk_alpha, HunYuan's rotary class: HF's modeling_hunyuan_v1_dense.py builds
 * base = rope_theta * alpha ** (dim / (dim - 2)) once and then
 * inv_freq = 1 / base ** (arange(0, dim, 2) / dim), A = 1. The reference is
 * that expression in long double, written here; the tolerance is the one of
 * every scheme above (bases stay below 1e13: 1e6 * 2000^(8/6) = 2.5e10). */
TEST(scaling_ntk_alpha_matches_hunyuan_reference) {
    static const struct { int64_t D, d; double base, alpha; } cases[] = {
        {128, 128, 10000.0, 1000.0}, /* Hy-MT2-7B: rope_theta 1e4, alpha 1000 */
        {128, 64, 500000.0, 50.0},  /* partial rotary: d in the exponent, not D */
        {8, 8, 1e6, 2000.0},
        {64, 4, 10000.0, 0.25},     /* alpha < 1 shrinks the base */
    };
    static pe_freqs f;
    static double weight[PE_MAX_PAIRS];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_NTK_ALPHA, cases[k].D);
        s.rotary_dim = cases[k].d;
        s.base = cases[k].base;
        s.factor = cases[k].alpha;
        s.seq_len = 1 << 20; /* no length dependence, whatever the block's "dynamic" says */
        CHECK_OK(pe_freqs_from_scaling(&s, &f, weight));
        const int64_t d = cases[k].d;
        const long double base = (long double)cases[k].base *
                                 powl((long double)cases[k].alpha, (long double)d / (long double)(d - 2));
        CHECK(f.rotary_dim == d && f.attention_factor == 1.0 && f.softmax_scale_multiplier == 1.0);
        for (int64_t i = 0; i < d / 2; i++) {
            const long double want = 1.0L / powl(base, (long double)(2 * i) / (long double)d);
            const long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
            CHECK_MSG(fabsl(got - want) <= (long double)REL_TOL * want,
                      "case %zu pair %lld: %.21Lg want %.21Lg", k, (long long)i, got, want);
            CHECK(isnan(weight[i]));
        }
        /* the same frequencies as NTK with f = alpha: one rule, two names */
        pe_rope_scaling n = s;
        n.type = PE_SCALING_NTK;
        static pe_freqs g;
        CHECK_OK(pe_freqs_from_scaling(&n, &g, NULL));
        CHECK(memcmp(f.inv_freq, g.inv_freq, sizeof(double) * (size_t)(d / 2)) == 0);
    }
    /* alpha = 1 is the default; its errors name alpha and write nothing */
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_NTK_ALPHA, 16);
    CHECK(s.factor == 1.0);
    static pe_freqs def;
    CHECK_OK(pe_freqs_default(16, 10000.0, &def));
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
    CHECK(memcmp(f.inv_freq, def.inv_freq, sizeof(double) * 8) == 0 &&
          memcmp(f.inv_freq_lo, def.inv_freq_lo, sizeof(double) * 8) == 0);
    CHECK(strcmp(pe_scaling_name(PE_SCALING_NTK_ALPHA), "ntk_alpha") == 0);
    s.factor = -2.0;
    CHECK_ERROR(pe_freqs_from_scaling(&s, &f, NULL), PE_ERR_PARAM, "alpha=-2 must be finite and > 0");
    s.factor = NAN;
    CHECK_ERROR(pe_freqs_from_scaling(&s, &f, NULL), PE_ERR_PARAM, "alpha=nan must be");
    s.factor = 2.0;
    s.rotary_dim = 2;
    CHECK_ERROR(pe_freqs_from_scaling(&s, &f, NULL), PE_ERR_DIM,
                "rotary_dim=2: ntk_alpha's exponent d/(d-2) needs d > 2");
}

/* A rejected call leaves out and interp_weight byte-identical. */
static void expect_rejected(const pe_rope_scaling *s, int status, const char *needle) {
    static pe_freqs f, f0;
    static double w[PE_MAX_PAIRS], w0[PE_MAX_PAIRS];
    memset(&f, 0xAB, sizeof f);
    memset(w, 0xCD, sizeof w);
    f0 = f;
    memcpy(w0, w, sizeof w);
    CHECK_ERROR(pe_freqs_from_scaling(s, &f, w), status, needle);
    CHECK_MSG(memcmp(&f, &f0, sizeof f) == 0 && memcmp(w, w0, sizeof w) == 0,
              "rejected call (%s) wrote its outputs", needle);
}

TEST(scaling_errors_name_the_field_and_write_nothing) {
    static double good[8] = {1, 1, 1, 1, 1, 1, 1, 1}, bad[8] = {1, 0, 1, 1, 1, 1, 1, 1};
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 16);
    static pe_freqs f;
    CHECK_ERROR(pe_freqs_from_scaling(NULL, &f, NULL), PE_ERR_NULL, "scaling");
    CHECK_ERROR(pe_freqs_from_scaling(&s, NULL, NULL), PE_ERR_NULL, "out");
#define BAD(field, value, status, needle)                                    \
    do {                                                                     \
        pe_rope_scaling b_ = s;                                              \
        b_.field = value;                                                    \
        expect_rejected(&b_, status, needle);                                \
    } while (0)
    BAD(type, (pe_scaling_type)42, PE_ERR_PARAM, "type=42");
    BAD(rotary_dim, 15, PE_ERR_DIM, "rotary_dim=15");
    BAD(rotary_dim, 0, PE_ERR_DIM, "rotary_dim=0");
    BAD(rotary_dim, 18, PE_ERR_DIM, "rotary_dim=18 exceeds head_dim=16");
    BAD(base, 0.0, PE_ERR_PARAM, "base=0");
    BAD(base, 1.0, PE_ERR_PARAM, "base=1");
    BAD(base, NAN, PE_ERR_PARAM, "base=nan");
    BAD(base, INFINITY, PE_ERR_PARAM, "base=inf");
    BAD(factor, 0.0, PE_ERR_PARAM, "factor=0");
    BAD(factor, -2.0, PE_ERR_PARAM, "factor=-2");
    BAD(factor, NAN, PE_ERR_PARAM, "factor=nan");
    /* Valid inputs whose result overflows: caught after computing, still
     * before anything is written. */
    BAD(factor, 1e-300, PE_ERR_PARAM, "inv_freq[0]=1e+300 outside (0, 1e240]");
    s = pe_rope_scaling_defaults(PE_SCALING_NTK, 2);
    BAD(factor, 2.0, PE_ERR_DIM, "rotary_dim=2");
    s = pe_rope_scaling_defaults(PE_SCALING_DYNAMIC, 16);
    s.max_position = 1024;
    BAD(max_position, 0, PE_ERR_PARAM, "max_position=0");
    BAD(seq_len, -1, PE_ERR_PARAM, "seq_len=-1");
    s = pe_rope_scaling_defaults(PE_SCALING_YARN, 16);
    s.factor = 4.0;
    s.original_max_position = 2048;
    BAD(original_max_position, 0, PE_ERR_PARAM, "original_max_position=0");
    BAD(beta_fast, 0.5, PE_ERR_PARAM, "beta_fast=0.5 must be >= beta_slow=1");
    BAD(beta_slow, 0.0, PE_ERR_PARAM, "beta_slow=0");
    BAD(mscale, -1.0, PE_ERR_PARAM, "mscale=-1");
    BAD(mscale_all_dim, NAN, PE_ERR_PARAM, "mscale_all_dim=nan");
    BAD(attention_factor, 0.0, PE_ERR_PARAM, "attention_factor=0");
    BAD(attention_factor, INFINITY, PE_ERR_PARAM, "attention_factor=inf");
    BAD(factor, NAN, PE_ERR_PARAM, "factor=nan needs max_position=0");
    s = pe_rope_scaling_defaults(PE_SCALING_LLAMA3, 16);
    BAD(low_freq_factor, 4.0, PE_ERR_PARAM, "low_freq_factor=4 must be < high_freq_factor=4");
    BAD(low_freq_factor, 0.0, PE_ERR_PARAM, "low_freq_factor=0");
    BAD(original_max_position, -5, PE_ERR_PARAM, "original_max_position=-5");
    s = pe_rope_scaling_defaults(PE_SCALING_LONGROPE, 16);
    s.original_max_position = 4096;
    s.factor = 2.0;
    s.short_factor = s.long_factor = good;
    s.n_short_factor = s.n_long_factor = 8;
    BAD(short_factor, NULL, PE_ERR_NULL, "short_factor");
    BAD(n_long_factor, 3, PE_ERR_SHAPE, "long_factor has 3 entries; it needs one per rotated pair: 8");
    BAD(long_factor, bad, PE_ERR_PARAM, "long_factor[1]=0");
    BAD(original_max_position, 1, PE_ERR_PARAM, "ln(L0)");
    BAD(seq_len, -3, PE_ERR_PARAM, "seq_len=-3");
    s = pe_rope_scaling_defaults(PE_SCALING_PROPORTIONAL, 18);
    s.rotary_dim = 8;
    BAD(head_dim, 17, PE_ERR_DIM, "head_dim=17");
    BAD(head_dim, 8192, PE_ERR_DIM, "head_dim=8192");
    s = pe_rope_scaling_defaults(PE_SCALING_EXPLICIT, 16);
    s.divisors = good;
    s.n_divisors = 8;
    BAD(divisors, NULL, PE_ERR_NULL, "divisors");
    BAD(n_divisors, 9, PE_ERR_SHAPE, "divisors has 9 entries");
    BAD(divisors, bad, PE_ERR_PARAM, "divisors[1]=0");
#undef BAD
    /* The unused fields of a scheme are not checked: linear ignores lists. */
    s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 16);
    s.n_short_factor = -7;
    s.mscale = NAN;
    CHECK_OK(pe_freqs_from_scaling(&s, &f, NULL));
}
