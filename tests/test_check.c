/* test_check.c — pe_check_rotation / pe_check_cos_sin: correct dumps of real
 * checkpoints agree in f32, f16 and bf16; each fault the issue lists, made
 * here with the library's own building blocks (another layout, base, slice,
 * scaling, magnitude, positions, M-RoPE axis, and float32 angles / f16
 * tables computed in this file the way engines compute them), is named
 * first; the error rows CHK-* of docs/ERRORS.md.
 *
 * Bounds (posenc.h, pe_check_report): a correct f32 dump of pe_rope_apply
 * is within 1x the f32 term, the check allows 4x; a correct f16/bf16 dump
 * is that f32 value rounded once, within half an ulp of the largest stored
 * value more. Faults are made large enough to matter and small enough to
 * be subtle: float32 angles at p >= 1e5 miss by ~1e-3, a doubled magnitude
 * by 35%, f16 tables by ~2^-12 relative. */
#include "../src/checked.h"
#include "errors.h"
#include "fixture_configs.h"
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define T_MAX 256
#define H_MAX 4
#define D_MAX 256

static pe_plan *load_cfg(const char *name) { return pe_test_fixture_plan(name); }

/* One layer's dump: in and out (T, H, D), f32 plus 16-bit copies. */
typedef struct {
    int64_t T, H, D;
    float in[T_MAX * H_MAX * D_MAX];
    float out[T_MAX * H_MAX * D_MAX];
    uint16_t in16[T_MAX * H_MAX * D_MAX];
    uint16_t out16[T_MAX * H_MAX * D_MAX];
    pe_check_expect ex;
    pe_freqs f; /* the plan's frequencies */
    pe_plan_layer info;
    pe_check_report rep;
} fixture;

static fixture *make(const char *cfg, int64_t layer, int64_t T, int64_t H, uint64_t seed) {
    fixture *fx = calloc(1, sizeof *fx);
    if (fx == NULL) return NULL;
    pe_plan *plan = load_cfg(cfg);
    if (plan == NULL) {
        free(fx);
        return NULL;
    }
    CHECK(pe_plan_layer_info(plan, layer, &fx->info) == PE_OK);
    CHECK(pe_plan_layer_freqs(plan, layer, 0, &fx->f, NULL) == PE_OK);
    CHECK_MSG(pe_check_expect_from_plan(plan, layer, 0, &fx->ex) == PE_OK, "%s", pe_last_error());
    /* the scaling's lists point into the plan: none of these configs has any */
    CHECK(fx->ex.scaling.short_factor == NULL && fx->ex.scaling.long_factor == NULL);
    pe_plan_free(plan);
    fx->T = T;
    fx->H = H;
    fx->D = fx->info.head_dim;
    CHECK(fx->D <= D_MAX && T <= T_MAX && H <= H_MAX);
    pe_rng r = {seed};
    /* k/256, |k| <= 256: exact in f16 and bf16 alike, so 16-bit dumps see the same inputs */
    for (int64_t i = 0; i < T * H * fx->D; i++) fx->in[i] = (float)pe_rng_int(&r, -256, 256) / 256.0f;
    return fx;
}

/* An input value k/256 in a 16-bit type (exact: no rounding to decide). */
static uint16_t to16(float v, pe_dtype dt) {
    if (dt == PE_BF16) {
        uint32_t u;
        memcpy(&u, &v, sizeof u);
        return (uint16_t)(u >> 16);
    }
    if (v == 0) return 0;
    int e;
    const double m = frexp(fabs((double)v), &e); /* |v| = m 2^e, m in [0.5, 1) */
    /* |v| >= 2^-8 here: a normal f16, exponent e - 1, 10 fraction bits */
    uint16_t h = (uint16_t)(((e - 1 + 15) << 10) | (uint16_t)nearbyint((2 * m - 1) * 1024));
    return v < 0 ? (uint16_t)(h | 0x8000) : h;
}

/* Round a double to the nearest f16 (via float: no double rounding at the
 * magnitudes of cos/sin that matters here) and back. */
static uint16_t to16_round(double v) {
    const float f = (float)v;
    if (f == 0) return 0;
    int e;
    frexp(fabs((double)f), &e);
    int ex = e - 1 < -14 ? -14 : e - 1;
    const double ulp = ldexp(1.0, ex - 10);
    const double q = nearbyint(fabs((double)f) / ulp) * ulp; /* ties to even */
    int qe;
    const double qm = frexp(q, &qe);
    uint16_t h;
    if (qe - 1 < -14) h = (uint16_t)nearbyint(q / ldexp(1.0, -24));
    else h = (uint16_t)(((qe - 1 + 15) << 10) | (uint16_t)nearbyint((2 * qm - 1) * 1024));
    return f < 0 ? (uint16_t)(h | 0x8000) : h;
}

static double from16(uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const double v = e == 0 ? ldexp((double)m, -24) : ldexp(1.0 + m / 1024.0, e - 15);
    return (h & 0x8000) ? -v : v;
}

static pe_tensor view(fixture *fx, float *data) {
    return pe_tensor_dense(data, PE_F32, fx->T, fx->H, fx->D);
}

/* out = the rotation of in under (freqs, layout) at positions, by pe_rope_apply. */
static void rotate(fixture *fx, const pe_freqs *f, pe_rope_layout layout, const pe_positions *pos) {
    pe_tensor in = view(fx, fx->in), out = view(fx, fx->out);
    CHECK_MSG(pe_rope_apply(f, layout, pos, &in, &out, PE_ROPE_FORWARD) == PE_OK, "%s",
              pe_last_error());
}

static void run(fixture *fx, const pe_positions *pos, const int64_t *mpos) {
    pe_tensor in = view(fx, fx->in), out = view(fx, fx->out);
    int st = pe_check_rotation(&fx->ex, pos, mpos, &in, &out, &fx->rep);
    CHECK_MSG(st == PE_OK, "%s", pe_last_error());
}

static void expect_first(fixture *fx, pe_diagnosis want, const char *detail_part) {
    const pe_check_report *r = &fx->rep;
    CHECK_MSG(!r->agree, "a faulty dump agreed: max_abs_err %g, bound %g", r->max_abs_err, r->bound);
    CHECK(r->n_diagnoses > 0);
    if (r->n_diagnoses == 0) return;
    CHECK_MSG(r->diagnoses[0].name == want, "first diagnosis %s (%s, residual %g), want %s",
              pe_diagnosis_name(r->diagnoses[0].name), r->diagnoses[0].detail,
              r->diagnoses[0].residual, pe_diagnosis_name(want));
    /* the explanation reproduces the dump within its bound */
    CHECK_MSG(r->diagnoses[0].max_err <= r->bound, "%s explains only to %g (bound %g)",
              r->diagnoses[0].detail, r->diagnoses[0].max_err, r->bound);
    if (detail_part)
        CHECK_MSG(strstr(r->diagnoses[0].detail, detail_part) != NULL, "detail '%s' lacks '%s'",
                  r->diagnoses[0].detail, detail_part);
    CHECK(r->first_token >= 0 && r->first_head >= 0);
}

TEST(check_correct_dumps_agree_in_f32_f16_bf16) {
    static const struct {
        const char *cfg;
        int64_t layer, start;
    } cases[] = {
        {"llama-3.1-8b.json", 0, 100000}, {"gemma-3-1b-it.json", 0, 0},
        {"gemma-3-1b-it.json", 5, 5000},  {"gpt-oss-20b.json", 1, 70000},
        {"gpt-neox-20b.json", 0, 3},      {"glm-4-9b-0414.json", 0, 123456},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture *fx = make(cases[c].cfg, cases[c].layer, 96, 3, 11 + c);
        if (fx == NULL) return;
        pe_positions pos = pe_positions_range(cases[c].start);
        rotate(fx, &fx->f, fx->info.layout, &pos);
        run(fx, &pos, NULL);
        CHECK_MSG(fx->rep.agree, "%s f32: max_abs_err %g > bound %g", cases[c].cfg,
                  fx->rep.max_abs_err, fx->rep.bound);
        CHECK(fx->rep.n_diagnoses == 0 && fx->rep.first_token == -1);
        for (int k = 0; k < 2; k++) {
            const pe_dtype dt = k ? PE_BF16 : PE_F16;
            const int64_t n = fx->T * fx->H * fx->D;
            for (int64_t i = 0; i < n; i++) fx->in16[i] = to16(fx->in[i], dt);
            pe_tensor in16 = pe_tensor_dense(fx->in16, dt, fx->T, fx->H, fx->D);
            pe_tensor out16 = pe_tensor_dense(fx->out16, dt, fx->T, fx->H, fx->D);
            CHECK(pe_rope_apply(&fx->f, fx->info.layout, &pos, &in16, &out16, PE_ROPE_FORWARD) ==
                  PE_OK);
            int st = pe_check_rotation(&fx->ex, &pos, NULL, &in16, &out16, &fx->rep);
            CHECK_MSG(st == PE_OK, "%s", pe_last_error());
            CHECK_MSG(fx->rep.agree, "%s %s: max_abs_err %g > bound %g", cases[c].cfg,
                      pe_dtype_name(dt), fx->rep.max_abs_err, fx->rep.bound);
        }
        free(fx);
    }
}

TEST(check_names_layout) {
    fixture *fx = make("llama-3.1-8b.json", 0, 64, 2, 1);
    if (fx == NULL) return;
    pe_positions pos = pe_positions_range(10);
    rotate(fx, &fx->f, fx->info.layout == PE_ROPE_HALF ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF, &pos);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_LAYOUT, "interleaved instead of half-split");
    free(fx);
}

/* Gemma 3's sliding layers use base 10000, its global ones 1e6: an engine
 * that gives a sliding layer the global base. */
TEST(check_names_base_on_a_gemma_layer) {
    fixture *fx = make("gemma-3-1b-it.json", 0, 96, 2, 2);
    if (fx == NULL) return;
    CHECK(fx->info.base == 10000);
    pe_freqs global;
    CHECK(pe_freqs_default(fx->info.rotary_dim, 1e6, &global) == PE_OK);
    pe_positions pos = pe_positions_range(0);
    rotate(fx, &global, fx->info.layout, &pos);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_BASE, "base 1000000 instead of 10000");
    free(fx);
}

/* GPT-NeoX rotates the first 24 of 96 elements: an engine that rotates the
 * last 24 (the same frequencies, the wrong slice). */
TEST(check_names_partial_rotary_slice) {
    fixture *fx = make("gpt-neox-20b.json", 0, 64, 2, 3);
    if (fx == NULL) return;
    CHECK(fx->info.rotary_dim == 24 && fx->D == 96);
    memcpy(fx->out, fx->in, sizeof(float) * (size_t)(fx->T * fx->H * fx->D));
    pe_tensor slice = {fx->out + 72, PE_F32, fx->T, fx->H, 24, fx->H * fx->D, fx->D};
    pe_positions pos = pe_positions_range(7);
    CHECK(pe_rope_apply(&fx->f, fx->info.layout, &pos, &slice, &slice, PE_ROPE_FORWARD) == PE_OK);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_PARTIAL_ROTARY, "[72, 96)");
    free(fx);
}

/* ... or rotates the whole head with rotary_dim = head_dim frequencies. */
TEST(check_names_partial_rotary_width) {
    fixture *fx = make("gpt-neox-20b.json", 0, 64, 2, 4);
    if (fx == NULL) return;
    pe_freqs full;
    CHECK(pe_freqs_default(96, 10000, &full) == PE_OK);
    pe_positions pos = pe_positions_range(0);
    rotate(fx, &full, fx->info.layout, &pos);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_PARTIAL_ROTARY, "[0, 96)");
    free(fx);
}

TEST(check_names_position_off_by_one) {
    fixture *fx = make("llama-3.1-8b.json", 0, 64, 2, 5);
    if (fx == NULL) return;
    pe_positions engine = pe_positions_range(501), plan = pe_positions_range(500);
    rotate(fx, &fx->f, fx->info.layout, &engine);
    run(fx, &plan, NULL);
    expect_first(fx, PE_DIAG_POSITION_OFFSET, "off by +1");
    free(fx);
}

TEST(check_names_positions_restarted_per_chunk) {
    fixture *fx = make("llama-3.1-8b.json", 0, 128, 2, 6);
    if (fx == NULL) return;
    int64_t ids[128];
    for (int64_t t = 0; t < 128; t++) ids[t] = t % 32;
    pe_positions engine = pe_positions_list(ids), plan = pe_positions_range(0);
    rotate(fx, &fx->f, fx->info.layout, &engine);
    run(fx, &plan, NULL);
    expect_first(fx, PE_DIAG_POSITION_OFFSET, "restart every 32 tokens");
    free(fx);
}

/* What Hugging Face's float32 path and ggml do: inv_freq in float, the
 * position as a float, their product rounded to float, cos/sin of it. */
static void rotate_float32_angles(fixture *fx, int64_t start) {
    const int64_t d = fx->f.rotary_dim, n = d / 2;
    const float A = (float)fx->f.attention_factor;
    for (int64_t t = 0; t < fx->T; t++) {
        const float p = (float)(start + t);
        for (int64_t h = 0; h < fx->H; h++) {
            const float *x = fx->in + (t * fx->H + h) * fx->D;
            float *y = fx->out + (t * fx->H + h) * fx->D;
            memcpy(y, x, sizeof(float) * (size_t)fx->D);
            for (int64_t j = 0; j < n; j++) {
                const float theta = p * (float)fx->f.inv_freq[j];
                const float c = cosf(theta) * A, s = sinf(theta) * A;
                const int64_t i0 = fx->info.layout == PE_ROPE_HALF ? j : 2 * j;
                const int64_t i1 = fx->info.layout == PE_ROPE_HALF ? j + n : 2 * j + 1;
                y[i0] = x[i0] * c - x[i1] * s;
                y[i1] = x[i0] * s + x[i1] * c;
            }
        }
    }
}

TEST(check_names_float32_angles) {
    fixture *fx = make("llama-3.1-8b.json", 0, 64, 2, 7);
    if (fx == NULL) return;
    rotate_float32_angles(fx, 100000);
    pe_positions pos = pe_positions_range(100000);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_FLOAT32_ANGLES, NULL);
    /* the error grows with p w: the fastest band errs more than the slowest */
    const pe_check_report *r = &fx->rep;
    CHECK(r->err[0][0] > r->err[0][r->n_bands - 1]);
    CHECK(r->pred[0][0] > 0);
    free(fx);
}

TEST(check_names_scaling_missing) {
    fixture *fx = make("llama-3.1-8b.json", 0, 64, 2, 8);
    if (fx == NULL) return;
    CHECK(fx->info.scaling == PE_SCALING_LLAMA3);
    pe_freqs plain;
    CHECK(pe_freqs_default(fx->info.rotary_dim, fx->info.base, &plain) == PE_OK);
    pe_positions pos = pe_positions_range(3000);
    rotate(fx, &plain, fx->info.layout, &pos);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_SCALING_MISSING, NULL);
    free(fx);
}

TEST(check_names_scaling_type) {
    fixture *fx = make("llama-3.1-8b.json", 0, 64, 2, 9);
    if (fx == NULL) return;
    pe_rope_scaling lin = pe_rope_scaling_defaults(PE_SCALING_LINEAR, fx->D);
    lin.base = fx->info.base;
    lin.factor = 8;
    pe_freqs f;
    CHECK(pe_freqs_from_scaling(&lin, &f, NULL) == PE_OK);
    pe_positions pos = pe_positions_range(3000);
    rotate(fx, &f, fx->info.layout, &pos);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_SCALING_TYPE, "linear factor 8 instead of llama3 factor 8");
    free(fx);
}

/* gpt-oss says truncate: false; ggml truncates the correction range anyway. */
TEST(check_names_yarn_truncate) {
    fixture *fx = make("gpt-oss-20b.json", 0, 64, 2, 10);
    if (fx == NULL) return;
    CHECK(fx->ex.scaling.type == PE_SCALING_YARN && fx->ex.scaling.truncate == 0);
    pe_rope_scaling y = fx->ex.scaling;
    y.truncate = 1;
    pe_freqs f;
    CHECK(pe_freqs_from_scaling(&y, &f, NULL) == PE_OK);
    pe_positions pos = pe_positions_range(0);
    rotate(fx, &f, fx->info.layout, &pos);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_YARN_TRUNCATE, "truncated");
    free(fx);
}

TEST(check_names_magnitude_twice_and_missing) {
    for (int twice = 0; twice < 2; twice++) {
        fixture *fx = make("gpt-oss-20b.json", 0, 64, 2, 11);
        if (fx == NULL) return;
        CHECK(fx->f.attention_factor > 1.3);
        pe_freqs f = fx->f;
        f.attention_factor = twice ? f.attention_factor * f.attention_factor : 1.0;
        pe_positions pos = pe_positions_range(40);
        rotate(fx, &f, fx->info.layout, &pos);
        run(fx, &pos, NULL);
        expect_first(fx, PE_DIAG_MAGNITUDE, twice ? "twice" : "missing");
        free(fx);
    }
}

/* f16 tables: cos and sin (A folded in) stored in half precision, the
 * rotation itself in float, as Hugging Face does under autocast. */
TEST(check_names_half_precision_tables) {
    fixture *fx = make("llama-3.1-8b.json", 0, 64, 2, 12);
    if (fx == NULL) return;
    const int64_t n = fx->f.rotary_dim / 2;
    double c[64], s[64];
    for (int64_t t = 0; t < fx->T; t++) {
        pe_positions one = pe_positions_range(1000 + t);
        CHECK(pe_rope_cos_sin(&fx->f, &one, 1, c, s, PE_F64) == PE_OK);
        for (int64_t j = 0; j < n; j++) { /* round to f16 through its bit pattern */
            uint16_t hc = to16_round(c[j]), hs = to16_round(s[j]);
            c[j] = from16(hc);
            s[j] = from16(hs);
        }
        for (int64_t h = 0; h < fx->H; h++) {
            const float *x = fx->in + (t * fx->H + h) * fx->D;
            float *y = fx->out + (t * fx->H + h) * fx->D;
            for (int64_t j = 0; j < n; j++) {
                y[j] = (float)((double)x[j] * c[j] - (double)x[j + n] * s[j]);
                y[j + n] = (float)((double)x[j] * s[j] + (double)x[j + n] * c[j]);
            }
        }
    }
    pe_positions pos = pe_positions_range(1000);
    run(fx, &pos, NULL);
    expect_first(fx, PE_DIAG_HALF_PRECISION_TABLES, "f16");
    free(fx);
}

/* Qwen2.5-VL: an image of 4 x 8 patches after 16 text tokens; the engine
 * leaves the h axis at 0 for the image tokens. */
static void vl_positions(int64_t T, int64_t *mpos, int zero_h) {
    for (int64_t t = 0; t < T; t++) {
        int64_t *p = mpos + 3 * t;
        if (t < 16) {
            p[0] = p[1] = p[2] = t;
        } else if (t < 48) {
            const int64_t k = t - 16;
            p[0] = 16;
            p[1] = zero_h ? 0 : 16 + k / 8;
            p[2] = 16 + k % 8;
        } else {
            p[0] = p[1] = p[2] = t - 48 + 24;
        }
    }
}

TEST(check_mrope_correct_and_zeroed_axis) {
    fixture *fx = make("qwen2.5-vl-7b-instruct.json", 0, 64, 2, 13);
    if (fx == NULL) return;
    CHECK(fx->ex.n_mrope_section == 3);
    static int64_t good[64 * 3], bad[64 * 3];
    vl_positions(64, good, 0);
    vl_positions(64, bad, 1);
    pe_tensor in = view(fx, fx->in), out = view(fx, fx->out);
    pe_positions pos = pe_positions_range(0);
    CHECK(pe_mrope_apply(&fx->f, fx->info.layout, good, fx->ex.mrope_section, fx->ex.mrope_mode, &in,
                         &out, PE_ROPE_FORWARD) == PE_OK);
    run(fx, &pos, good);
    CHECK_MSG(fx->rep.agree, "max_abs_err %g, bound %g", fx->rep.max_abs_err, fx->rep.bound);
    CHECK(pe_mrope_apply(&fx->f, fx->info.layout, bad, fx->ex.mrope_section, fx->ex.mrope_mode, &in,
                         &out, PE_ROPE_FORWARD) == PE_OK);
    run(fx, &pos, good);
    expect_first(fx, PE_DIAG_MROPE_AXES, "h axis's positions left at 0 for the non-text");
    /* the first divergence is the first image token */
    CHECK(fx->rep.first_token == 16);
    free(fx);
}

/* The verdict's max_abs_err against an independent long double rotation. */
TEST(check_max_error_matches_long_double_reference) {
    fixture *fx = make("gemma-3-1b-it.json", 0, 32, 2, 14);
    if (fx == NULL) return;
    const int64_t d = fx->info.rotary_dim, n = d / 2;
    pe_positions pos = pe_positions_range(20);
    /* the engine: interleaved pairs */
    rotate(fx, &fx->f, PE_ROPE_INTERLEAVED, &pos);
    long double mx = 0;
    for (int64_t t = 0; t < fx->T; t++)
        for (int64_t h = 0; h < fx->H; h++) {
            const float *x = fx->in + (t * fx->H + h) * fx->D, *y = fx->out + (t * fx->H + h) * fx->D;
            for (int64_t j = 0; j < n; j++) {
                const long double w = powl(10000.0L, -2.0L * (long double)j / (long double)d);
                const long double a = (long double)(20 + t) * w;
                const long double e0 = x[j] * cosl(a) - x[j + n] * sinl(a);
                const long double e1 = x[j] * sinl(a) + x[j + n] * cosl(a);
                mx = fmaxl(mx, fmaxl(fabsl(e0 - y[j]), fabsl(e1 - y[j + n])));
            }
        }
    run(fx, &pos, NULL);
    CHECK_NEAR(fx->rep.max_abs_err, (double)mx, 1e-12);
    free(fx);
}

/* cos/sin caches: (positions, d) rows [A cos..., A sin...]. */
TEST(check_cos_sin_cache) {
    fixture *fx = make("llama-3.1-8b.json", 0, 1, 1, 15);
    if (fx == NULL) return;
    enum { N = 64 };
    const int64_t d = fx->f.rotary_dim, n = d / 2;
    static float cache[N * 128];
    static double c[N * 64], s[N * 64];
    pe_positions pos = pe_positions_range(200000);
    CHECK(pe_rope_cos_sin(&fx->f, &pos, N, c, s, PE_F64) == PE_OK);
    for (int64_t t = 0; t < N; t++)
        for (int64_t j = 0; j < n; j++) {
            cache[t * d + j] = (float)c[t * n + j];
            cache[t * d + n + j] = (float)s[t * n + j];
        }
    CHECK(pe_check_cos_sin(&fx->ex, &pos, NULL, N, cache, PE_F32, d, &fx->rep) == PE_OK);
    CHECK_MSG(fx->rep.agree, "max_abs_err %g, bound %g", fx->rep.max_abs_err, fx->rep.bound);
    /* the same cache with float32 angles */
    for (int64_t t = 0; t < N; t++)
        for (int64_t j = 0; j < n; j++) {
            const float theta = (float)(200000 + t) * (float)fx->f.inv_freq[j];
            cache[t * d + j] = cosf(theta);
            cache[t * d + n + j] = sinf(theta);
        }
    CHECK(pe_check_cos_sin(&fx->ex, &pos, NULL, N, cache, PE_F32, d, &fx->rep) == PE_OK);
    expect_first(fx, PE_DIAG_FLOAT32_ANGLES, NULL);
    free(fx);
}

TEST(check_errors_table) {
    pe_freqs f;
    CHECK(pe_freqs_default(8, 10000, &f) == PE_OK);
    pe_check_expect ex;
    CHECK(pe_check_expect_from_freqs(&f, PE_ROPE_HALF, &ex) == PE_OK);
    static float in[2 * 8], out6[2 * 6];
    pe_tensor tin = pe_tensor_dense(in, PE_F32, 2, 1, 8);
    pe_tensor tout = pe_tensor_dense(OUT, PE_F32, 2, 1, 8);
    pe_positions pos = pe_positions_range(0);
    pe_check_report *rep = OUT;
    EXPECT("CHK-1", PE_ERR_NULL, "report must not be NULL",
           pe_check_rotation(&ex, &pos, NULL, &tin, &tin, NULL));
    pe_tensor tf64 = pe_tensor_dense(in, PE_F64, 2, 1, 4);
    EXPECT("CHK-2", PE_ERR_DTYPE, "in dtype=f64", pe_check_rotation(&ex, &pos, NULL, &tf64, &tf64, rep));
    pe_tensor t6 = pe_tensor_dense(out6, PE_F32, 2, 1, 6);
    EXPECT("CHK-3", PE_ERR_SHAPE, "out shape (2, 1, 6) differs from in (2, 1, 8)",
           pe_check_rotation(&ex, &pos, NULL, &tin, &t6, rep));
    pe_tensor t0 = pe_tensor_dense(in, PE_F32, 0, 1, 8);
    EXPECT("CHK-4", PE_ERR_SHAPE, "has nothing to check", pe_check_rotation(&ex, &pos, NULL, &t0, &t0, rep));
    pe_tensor in6 = pe_tensor_dense(out6, PE_F32, 2, 1, 6);
    EXPECT("CHK-5", PE_ERR_DIM, "rotary_dim=8 exceeds head_dim=6",
           pe_check_rotation(&ex, &pos, NULL, &in6, &in6, rep));
    int64_t mp[6] = {0};
    EXPECT("CHK-6", PE_ERR_PARAM, "mrope_positions given",
           pe_check_rotation(&ex, &pos, mp, &tin, &tin, rep));
    in[3] = NAN;
    EXPECT("CHK-7", PE_ERR_PARAM, "in[0][0][3]=nan is not finite",
           pe_check_rotation(&ex, &pos, NULL, &tin, &tin, rep));
    in[3] = 0;
    pe_check_expect bad = ex;
    bad.layout = (pe_rope_layout)7;
    EXPECT("CHK-8", PE_ERR_PARAM, "expect->layout=7", pe_check_rotation(&bad, &pos, NULL, &tin, &tin, rep));
    bad = ex;
    bad.n_mrope_section = 2;
    EXPECT("CHK-9", PE_ERR_PARAM, "expect->n_mrope_section=2",
           pe_check_rotation(&bad, &pos, NULL, &tin, &tin, rep));
    EXPECT("CHK-10", PE_ERR_SHAPE, "cache width=6 must be rotary_dim=8",
           pe_check_cos_sin(&ex, &pos, NULL, 2, in, PE_F32, 6, rep));
    EXPECT("CHK-11", PE_ERR_DTYPE, "cache dtype=i64", pe_check_cos_sin(&ex, &pos, NULL, 2, in, PE_I64, 8, rep));
    EXPECT("CHK-12", PE_ERR_SHAPE, "count=0", pe_check_cos_sin(&ex, &pos, NULL, 0, in, PE_F32, 8, rep));
    EXPECT("CHK-13", PE_ERR_PARAM, "layout=3 is not a pe_rope_layout",
           pe_check_expect_from_freqs(&f, (pe_rope_layout)3, OUT));
    pe_plan *plan = load_cfg("llama-4-scout-17b-16e.json");
    if (plan) {
        /* Llama 4: every fourth layer is NoPE (layer 3) */
        EXPECT("CHK-14", PE_ERR_PARAM, "does not rotate", pe_check_expect_from_plan(plan, 3, 0, OUT));
        pe_plan_free(plan);
    }
    (void)tout;
}

/* LongRoPE (Phi-3 128k): the expectation's per-pair factor lists point into
 * the plan, which stays alive through the check; past L0 the long factors
 * apply (seq_len = largest position + 1). An engine one position behind is
 * named, with every hypothesis built from those lists. */
TEST(check_longrope_keeps_the_plan_and_names_offset) {
    pe_plan *plan = load_cfg("phi-3-mini-128k-instruct.json");
    if (plan == NULL) return;
    enum { T = 48, H = 2, D = 96 };
    static float in[T * H * D], out[T * H * D];
    pe_rng r = {21};
    for (int i = 0; i < T * H * D; i++) in[i] = (float)pe_rng_uniform(&r, -1, 1);
    const int64_t start = 9000, seq_len = start + T;
    pe_check_expect ex;
    pe_freqs f;
    pe_plan_layer info;
    CHECK(pe_plan_layer_info(plan, 0, &info) == PE_OK && info.head_dim == D);
    CHECK(pe_check_expect_from_plan(plan, 0, seq_len, &ex) == PE_OK);
    CHECK(ex.scaling.type == PE_SCALING_LONGROPE && ex.scaling.long_factor != NULL);
    CHECK(pe_plan_layer_freqs(plan, 0, seq_len, &f, NULL) == PE_OK);
    pe_tensor tin = pe_tensor_dense(in, PE_F32, T, H, D), tout = pe_tensor_dense(out, PE_F32, T, H, D);
    pe_positions engine = pe_positions_range(start - 1), plan_pos = pe_positions_range(start);
    CHECK(pe_rope_apply(&f, info.layout, &engine, &tin, &tout, PE_ROPE_FORWARD) == PE_OK);
    pe_check_report repbuf, *rep = &repbuf;
    CHECK(pe_check_rotation(&ex, &plan_pos, NULL, &tin, &tout, rep) == PE_OK);
    CHECK(!rep->agree && rep->n_diagnoses > 0);
    CHECK_MSG(rep->diagnoses[0].name == PE_DIAG_POSITION_OFFSET && strstr(rep->diagnoses[0].detail, "off by -1"),
              "%s: %s", pe_diagnosis_name(rep->diagnoses[0].name), rep->diagnoses[0].detail);
    pe_plan_free(plan);
}

/* ------------------------------------------- float32 engines (issue #28) */

/* The dump of a float32 engine whose angle for pair j at position p is
 * angle(p, j): cos/sin in float (cosf/sinf), the rotation in float, pairs
 * under `layout`, A = 1. */
typedef float (*angle_fn)(int64_t p, int64_t j, int64_t d);

static void rotate_float_engine(fixture *fx, int64_t start, pe_rope_layout layout, angle_fn angle) {
    const int64_t d = fx->f.rotary_dim, n = d / 2;
    for (int64_t t = 0; t < fx->T; t++)
        for (int64_t h = 0; h < fx->H; h++) {
            const float *x = fx->in + (t * fx->H + h) * fx->D;
            float *y = fx->out + (t * fx->H + h) * fx->D;
            memcpy(y, x, sizeof(float) * (size_t)fx->D);
            for (int64_t j = 0; j < n; j++) {
                const float a = angle(start + t, j, d);
                const float c = cosf(a), s = sinf(a);
                const int64_t i0 = layout == PE_ROPE_HALF ? j : 2 * j;
                const int64_t i1 = layout == PE_ROPE_HALF ? j + n : 2 * j + 1;
                y[i0] = x[i0] * c - x[i1] * s;
                y[i1] = x[i0] * s + x[i1] * c;
            }
        }
}

/* llama2.c's loop (karpathy/llama2.c run.c, commit 350e04fe, lines 265-270):
 * head_dim = i % head_size, freq = 1.0f / powf(10000.0f, head_dim /
 * (float)head_size), val = pos * freq, cosf/sinf(val); pairs (i, i+1). */
static float llama2c_angle(int64_t p, int64_t j, int64_t d) {
    const int head_dim = (int)(2 * j), head_size = (int)d;
    const float freq = 1.0f / powf(10000.0f, (float)head_dim / (float)head_size);
    return (float)(int)p * freq;
}

/* ggml's CPU cache (ggml-org/ggml src/ggml-cpu/ops.cpp, commit d99724f2,
 * ggml_rope_cache_init and its caller): theta_scale = powf(freq_base,
 * -2.0f/n_dims), theta = (float)pos, then theta *= theta_scale after each
 * pair; rope_yarn with freq_scale 1 and ext_factor 0 takes cosf(theta). */
static double ggml_base = 1e6;
static float ggml_recurrence_angle(int64_t p, int64_t j, int64_t d) {
    const float theta_scale = powf((float)ggml_base, -2.0f / (float)d);
    float theta = (float)(int32_t)p; /* ggml positions are int32 */
    for (int64_t k = 0; k < j; k++) theta *= theta_scale;
    return theta;
}

/* ggml's CUDA kernel (src/ggml-cuda/rope.cu, same commit, line 107):
 * theta_base = pos * powf(theta_scale, i0 / 2.0f). */
static float ggml_cuda_angle(int64_t p, int64_t j, int64_t d) {
    const float theta_scale = powf((float)ggml_base, -2.0f / (float)d);
    return (float)(int32_t)p * powf(theta_scale, (float)(2 * j) / 2.0f);
}

/* The log-space form w = expf(-(2j/d) logf(b)) in float. */
static float expf_angle(int64_t p, int64_t j, int64_t d) {
    const float e = (float)(2 * j) / (float)d;
    return (float)p * expf(-(e * logf((float)ggml_base)));
}

static void expect_float32(fixture *fx, pe_check_angles recipe) {
    const pe_check_report *r = &fx->rep;
    CHECK_MSG(r->verdict == PE_CHECK_FLOAT32, "verdict %s (max_abs_err %g, bound %g; first %s: %s)",
              pe_check_verdict_name(r->verdict), r->max_abs_err, r->bound,
              r->n_diagnoses ? pe_diagnosis_name(r->diagnoses[0].name) : "-",
              r->n_diagnoses ? r->diagnoses[0].detail : "-");
    CHECK(!r->agree && r->explained);
    CHECK_MSG(r->float32_angles == recipe, "recipe %s, want %s",
              pe_check_angles_name(r->float32_angles), pe_check_angles_name(recipe));
    CHECK(r->n_diagnoses > 0 && r->diagnoses[0].name == PE_DIAG_FLOAT32_ANGLES &&
          r->diagnoses[0].angles == recipe);
}

/* Unmodified llama2.c on a Llama-2 config stated interleaved: float32,
 * already at positions 0..63 (the exact rotation's bound is missed there)
 * and at 1e5; the recipe is powf's. */
TEST(check_llama2c_powf_loop_is_float32) {
    static const int64_t starts[2] = {0, 100000};
    for (int k = 0; k < 2; k++) {
        fixture *fx = make("llama-2-7b.json", 0, 64, 2, 30 + k);
        if (fx == NULL) return;
        CHECK(fx->info.base == 10000 && fx->f.rotary_dim == 128);
        fx->ex.layout = PE_ROPE_INTERLEAVED; /* the engine's pairing, not HF's */
        rotate_float_engine(fx, starts[k], PE_ROPE_INTERLEAVED, llama2c_angle);
        pe_positions pos = pe_positions_range(starts[k]);
        run(fx, &pos, NULL);
        expect_float32(fx, PE_ANGLES_F32_POWF);
        /* under the config's half-split convention: the layout, on top of powf */
        fx->ex.layout = PE_ROPE_HALF;
        run(fx, &pos, NULL);
        CHECK(fx->rep.verdict == PE_CHECK_DISAGREE && fx->rep.explained);
        expect_first(fx, PE_DIAG_LAYOUT, "interleaved instead of half-split + float32 angles (powf)");
        CHECK(fx->rep.diagnoses[0].angles == PE_ANGLES_F32_POWF &&
              fx->rep.diagnoses[0].layout == PE_ROPE_INTERLEAVED);
        free(fx);
    }
}

/* ggml's recurrence, its CUDA powf form and the expf form on Qwen3
 * (base 1e6, half-split = ggml's NEOX mode) at 2e5: each named as itself. */
TEST(check_ggml_and_expf_recipes_are_float32) {
    static const struct {
        angle_fn fn;
        pe_check_angles want;
    } cases[] = {{ggml_recurrence_angle, PE_ANGLES_F32_GGML_RECURRENCE},
                 {ggml_cuda_angle, PE_ANGLES_F32_GGML_POWF_SCALE},
                 {expf_angle, PE_ANGLES_F32_EXPF}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture *fx = make("qwen3-8b.json", 0, 64, 2, 40 + c);
        if (fx == NULL) return;
        CHECK(fx->info.base == 1e6 && fx->info.layout == PE_ROPE_HALF);
        ggml_base = fx->info.base;
        rotate_float_engine(fx, 200000, PE_ROPE_HALF, cases[c].fn);
        pe_positions pos = pe_positions_range(200000);
        run(fx, &pos, NULL);
        expect_float32(fx, cases[c].want);
        free(fx);
    }
}

/* A fault on top of float32 arithmetic: ggml's recurrence one position
 * late is position_offset + float32 angles, not a float32 verdict. */
TEST(check_names_offset_on_top_of_ggml_recurrence) {
    fixture *fx = make("qwen3-8b.json", 0, 64, 2, 45);
    if (fx == NULL) return;
    ggml_base = fx->info.base;
    rotate_float_engine(fx, 300001, PE_ROPE_HALF, ggml_recurrence_angle);
    pe_positions pos = pe_positions_range(300000);
    run(fx, &pos, NULL);
    CHECK(fx->rep.verdict == PE_CHECK_DISAGREE);
    expect_first(fx, PE_DIAG_POSITION_OFFSET, "off by +1 + float32 angles (ggml_recurrence)");
    free(fx);
}

/* A slice rotated with the full-width frequencies, the upper pairs copied:
 * "pairs [32, 64) not rotated", not a llama3 x64 scaling (Llama 3.1, where
 * llama3's low frequencies barely turn and once explained this best). */
TEST(check_names_pairs_unrotated) {
    static const struct {
        const char *cfg;
        pe_rope_layout layout;
    } cases[] = {{"llama-3.1-8b.json", PE_ROPE_HALF}, {"llama-2-7b.json", PE_ROPE_INTERLEAVED}};
    for (size_t c = 0; c < 2; c++) {
        fixture *fx = make(cases[c].cfg, 0, 64, 2, 50 + c);
        if (fx == NULL) return;
        fx->ex.layout = cases[c].layout;
        pe_freqs f = fx->f;
        for (int64_t j = 32; j < 64; j++) f.inv_freq[j] = f.inv_freq_lo[j] = 0; /* out = in there */
        pe_positions pos = pe_positions_range(1000);
        rotate(fx, &f, cases[c].layout, &pos);
        run(fx, &pos, NULL);
        expect_first(fx, PE_DIAG_PAIRS_UNROTATED, "pairs [32, 64) not rotated");
        free(fx);
    }
}

/* Noise is not explained by anything, and the report says so. */
TEST(check_says_when_nothing_explains) {
    fixture *fx = make("llama-3.1-8b.json", 0, 32, 2, 55);
    if (fx == NULL) return;
    pe_rng r = {56};
    for (int64_t i = 0; i < fx->T * fx->H * fx->D; i++) fx->out[i] = (float)pe_rng_uniform(&r, -1, 1);
    pe_positions pos = pe_positions_range(0);
    run(fx, &pos, NULL);
    CHECK(fx->rep.verdict == PE_CHECK_DISAGREE && !fx->rep.explained && fx->rep.n_diagnoses > 0);
    CHECK(fx->rep.diagnoses[0].max_err > fx->rep.bound);
    free(fx);
}

/* ----------------------------------------- issue #26: extremes and floor */

/* The correctly rounded exact rotation of inputs near 1e-42 (subnormal in
 * f32) agrees: near zero the rounding error is absolute (up to 2^-150),
 * which the bound's subnormal floor covers. The reference is long double. */
TEST(check_subnormal_inputs_agree) {
    fixture *fx = make("llama-3.1-8b.json", 0, 16, 2, 60);
    if (fx == NULL) return;
    const int64_t n = fx->f.rotary_dim / 2;
    for (int64_t i = 0; i < fx->T * fx->H * fx->D; i++) fx->in[i] *= 1e-42f * 256.0f;
    for (int64_t t = 0; t < fx->T; t++)
        for (int64_t h = 0; h < fx->H; h++) {
            const float *x = fx->in + (t * fx->H + h) * fx->D;
            float *y = fx->out + (t * fx->H + h) * fx->D;
            for (int64_t j = 0; j < n; j++) {
                const long double a = (long double)(5 + t) * (long double)fx->f.inv_freq[j];
                y[j] = (float)(x[j] * cosl(a) - x[j + n] * sinl(a));
                y[j + n] = (float)(x[j] * sinl(a) + x[j + n] * cosl(a));
            }
        }
    pe_positions pos = pe_positions_range(5);
    run(fx, &pos, NULL);
    CHECK_MSG(fx->rep.verdict == PE_CHECK_AGREE, "max_abs_err %g > bound %g", fx->rep.max_abs_err,
              fx->rep.bound);
    CHECK(fx->rep.max_abs_err > 0); /* the rounding really happened */
    free(fx);
}

/* Positions at INT64_MIN and INT64_MAX: bins are exact integer ranges that
 * tile [min, max] (they collapsed into one before), every hypothesis runs
 * without overflow (the asan build runs this), the cos/sin path too. */
TEST(check_positions_at_int64_ends) {
    fixture *fx = make("llama-3.1-8b.json", 0, 4, 1, 61);
    if (fx == NULL) return;
    memcpy(fx->out, fx->in, sizeof(float) * (size_t)(fx->T * fx->D)); /* disagrees: the search runs */
    static const int64_t ids[4] = {INT64_MIN, INT64_MAX, 0, INT64_MIN + 1};
    pe_positions pos = pe_positions_list(ids);
    run(fx, &pos, NULL);
    const pe_check_report *r = &fx->rep;
    CHECK(r->n_bins == PE_CHECK_POS_BINS && r->bin_lo[0] == INT64_MIN &&
          r->bin_hi[r->n_bins - 1] == INT64_MAX);
    for (int64_t b = 0; b + 1 < r->n_bins; b++)
        CHECK(r->bin_lo[b] <= r->bin_hi[b] && r->bin_hi[b] + 1 == r->bin_lo[b + 1]);
    CHECK(r->err[0][0] > 0 && r->err[r->n_bins - 1][0] > 0); /* each end in its own bin */
    /* two tokens at INT64_MAX - 1, INT64_MAX: two bins of one position */
    pe_positions top = pe_positions_range(INT64_MAX - 3);
    run(fx, &top, NULL);
    CHECK(fx->rep.n_bins == 4 && fx->rep.bin_lo[3] == INT64_MAX && fx->rep.bin_hi[3] == INT64_MAX &&
          fx->rep.bin_lo[0] == INT64_MAX - 3);
    static float cache[4 * 128];
    for (int i = 0; i < 4 * 128; i++) cache[i] = (float)(i % 7) / 7.0f;
    CHECK(pe_check_cos_sin(&fx->ex, &pos, NULL, 4, cache, PE_F32, 128, &fx->rep) == PE_OK);
    CHECK(fx->rep.n_bins == PE_CHECK_POS_BINS && fx->rep.bin_hi[PE_CHECK_POS_BINS - 1] == INT64_MAX);
    free(fx);
}

/* The position helpers of checked.h at the ends of int64. */
TEST(check_position_helpers_exact) {
    CHECK(pe__pos_distance(INT64_MIN, INT64_MAX) == (uint64_t)UINT64_MAX);
    CHECK(pe__pos_distance(-5, 7) == 12);
    CHECK(pe__pos_advance(INT64_MIN, UINT64_MAX) == INT64_MAX);
    CHECK(pe__pos_advance(INT64_MIN, 1) == INT64_MIN + 1);
    CHECK(pe__pos_advance(-3, 5) == 2);
    /* 2^64 positions in 32 parts of 2^59 */
    for (uint64_t b = 0; b < 32; b++) CHECK(pe__pos_split(UINT64_MAX, b, 32) == b << 59);
    CHECK(pe__pos_split(UINT64_MAX, 32, 32) - 1 == UINT64_MAX);
    /* 10 positions in 4 parts: 0, 2, 5, 7, 10 (floor(10 b / 4)) */
    static const uint64_t want[5] = {0, 2, 5, 7, 10};
    for (uint64_t b = 0; b <= 4; b++) CHECK(pe__pos_split(9, b, 4) == want[b]);
    int64_t out;
    CHECK(!pe__i64_sub(0, INT64_MIN, &out) && pe__i64_sub(-1, INT64_MIN, &out) && out == INT64_MAX);
}
