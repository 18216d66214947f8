/* test_plan.c — per-layer positional plans of real checkpoints. Each
 * fixture's expected plan is restated here from the model's published
 * config and its Hugging Face code (which layers slide, which rotate, which
 * base and scaling each kind uses), independently of the reader; the
 * frequencies are recomputed in long double from the closed forms
 * (docs/SCALING.md), never taken from posenc. Then the family semantics the
 * fixtures do not cover (PhiMoE mscales, equal YaRN betas, nesting keys,
 * unknown model types) on inline configs, and every contradiction the
 * reader must name. */
#include "fixture_configs.h"
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>

static const long double PI_L = 3.141592653589793238462643383279502884L;

/* Two long double routes to one closed form agree to a few 1e-19, so 2e-17
 * (half a double ulp) also checks that the low parts are carried; where
 * long double is a double (valgrind) the rounding of x = (2i/d) ln b costs
 * up to |x| <= 30 eps on each side: 64 eps. */
static double rel_tol(void) {
    const double eps = pe_test_ld_eps();
    return eps < 1e-18 ? 2e-17 : 64 * eps;
}

static pe_plan *load(const char *name) { return pe_test_fixture_plan(name); }

static pe_plan *parse(const char *json) {
    pe_plan *p = NULL;
    int st = pe_plan_from_config_json(json, strlen(json), &p);
    CHECK_MSG(st == PE_OK, "%s: %s", json, pe_last_error());
    return st == PE_OK ? p : NULL;
}

/* ------------------------------------------------ what a kind should be */

typedef enum { K_NONE, K_DEFAULT, K_LINEAR, K_PROP, K_YARN, K_LLAMA3 } kscheme;

typedef struct {
    const char *type;     /* layer_type */
    int attention, rope;
    kscheme scheme;
    int64_t D, d;         /* head, rotated dims */
    long double b, f;     /* base (as the code uses it), factor */
    int64_t L0;
    long double beta_fast, beta_slow;
    int truncate;
    long double amp;      /* magnitude; 0: derive mscale(f) (yarn) or 1 */
    long double mult;     /* softmax multiplier */
    pe_rope_layout layout;
    int64_t window, chunk;
    long double t_beta;   /* query scale 1 + beta ln(1 + floor((p + off) / span)); 0: none */
    int64_t t_span, t_off;
    int64_t mrope[3];
} kind;

/* w'_i by the closed form of the kind's scheme; pairs are over D/2 for
 * proportional RoPE, d/2 otherwise. */
static long double ref_freq(const kind *k, int64_t i) {
    if (k->scheme == K_PROP)
        return i < k->d / 2 ? powl(k->b, -(long double)(2 * i) / k->D) / k->f : 0.0L;
    long double w = powl(k->b, -(long double)(2 * i) / k->d);
    switch (k->scheme) {
    case K_LINEAR:
        return w / k->f;
    case K_LLAMA3: { /* low 1, high 4 for every Llama 3/4 release */
        long double lam = 2 * PI_L / w;
        if (lam < k->L0 / 4.0L) return w;
        if (lam > k->L0 / 1.0L) return w / k->f;
        long double t = (k->L0 / lam - 1) / (4 - 1);
        return (1 - t) * w / k->f + t * w;
    }
    case K_YARN: {
        long double lo = k->d * logl(k->L0 / (2 * PI_L * k->beta_fast)) / (2 * logl(k->b));
        long double hi = k->d * logl(k->L0 / (2 * PI_L * k->beta_slow)) / (2 * logl(k->b));
        if (k->truncate) {
            lo = floorl(lo);
            hi = ceill(hi);
        }
        lo = lo < 0 ? 0 : lo;
        hi = hi > k->d - 1 ? k->d - 1 : hi;
        if (lo == hi) hi += 0.001L; /* HF's linear_ramp_factor */
        long double r = (i - lo) / (hi - lo);
        long double keep = 1 - (r < 0 ? 0 : r > 1 ? 1 : r);
        return w / k->f * (1 - keep) + w * keep;
    }
    default:
        return w;
    }
}

static long double ref_amp(const kind *k) {
    if (k->amp > 0) return k->amp;
    if (k->scheme == K_YARN) return 0.1L * logl(k->f) + 1;
    return 1;
}

static void check_kind_freqs(const char *file, const pe_plan *p, int64_t layer,
                             const kind *k, double tol) {
    static pe_freqs f;
    CHECK_OK(pe_plan_layer_freqs(p, layer, 0, &f, NULL));
    int64_t pairs = k->scheme == K_PROP ? k->D / 2 : k->d / 2;
    CHECK_MSG(f.rotary_dim == 2 * pairs, "%s layer %lld: rotary_dim %lld, want %lld", file,
              (long long)layer, (long long)f.rotary_dim, (long long)(2 * pairs));
    int bad = 0;
    for (int64_t i = 0; i < pairs && i < PE_MAX_PAIRS; i++) {
        long double want = ref_freq(k, i);
        long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
        long double err = fabsl(got - want);
        if (err > tol * (want > 0 ? want : 1) && bad++ == 0)
            pe_test_fail(__FILE__, __LINE__, "%s layer %lld pair %lld: %.20Lg, want %.20Lg",
                         file, (long long)layer, (long long)i, got, want);
    }
    CHECK_MSG(fabsl(f.attention_factor - ref_amp(k)) <= 4e-16L * ref_amp(k),
              "%s layer %lld: A=%.17g, want %.17Lg", file, (long long)layer,
              f.attention_factor, ref_amp(k));
    long double mult = k->mult > 0 ? k->mult : 1;
    CHECK_MSG(fabsl(f.softmax_scale_multiplier - mult) <= 4e-16L * mult,
              "%s layer %lld: multiplier %.17g, want %.17Lg", file, (long long)layer,
              f.softmax_scale_multiplier, mult);
}

/* The query scale the model's attention applies at position pos. */
static long double ref_query_scale(const kind *k, int64_t pos) {
    if (k->t_beta == 0) return 1;
    return 1 + k->t_beta * logl(1 + floorl((long double)(pos + k->t_off) / k->t_span));
}

typedef struct {
    const char *file, *model_type;
    int64_t n_layers;
    int (*kind_of)(int64_t layer); /* index into kinds */
    kind kinds[3];
    double tol; /* 0: rel_tol() */
} fixture;

static void check_fixture(const fixture *fx) {
    pe_plan *p = load(fx->file);
    if (p == NULL) return;
    CHECK_MSG(strcmp(pe_plan_model_type(p), fx->model_type) == 0, "%s: model_type %s",
              fx->file, pe_plan_model_type(p));
    CHECK_MSG(pe_plan_num_layers(p) == fx->n_layers, "%s: %lld layers", fx->file,
              (long long)pe_plan_num_layers(p));
    CHECK_MSG(pe_plan_num_warnings(p) == 0, "%s: warns '%s'", fx->file,
              pe_plan_warning(p, 0) ? pe_plan_warning(p, 0) : "");
    const double tol = fx->tol > 0 ? fx->tol : rel_tol();
    int checked_freqs[3] = {0, 0, 0};
    for (int64_t l = 0; l < fx->n_layers && l < pe_plan_num_layers(p); l++) {
        const kind *k = &fx->kinds[fx->kind_of(l)];
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, l, &L));
        int ok = strcmp(L.layer_type, k->type) == 0 && L.attention == k->attention &&
                 L.rope == k->rope && L.sliding_window == k->window &&
                 L.chunk_size == k->chunk;
        if (k->rope)
            ok = ok && L.head_dim == k->D && L.rotary_dim == k->d &&
                 (long double)L.base == k->b && L.layout == k->layout && L.layout_known;
        else if (k->attention)
            ok = ok && L.head_dim == k->D;
        for (int a = 0; a < 3; a++)
            ok = ok && L.mrope_section[a] == k->mrope[a];
        if (!ok) {
            pe_test_fail(__FILE__, __LINE__, "%s layer %lld: %s attn %d rope %d D %lld d %lld "
                         "base %.17g layout %d window %lld chunk %lld", fx->file,
                         (long long)l, L.layer_type, L.attention, L.rope,
                         (long long)L.head_dim, (long long)L.rotary_dim, L.base,
                         (int)L.layout, (long long)L.sliding_window,
                         (long long)L.chunk_size);
            continue;
        }
        /* Query scale at positions around the span boundaries. */
        const int64_t span = k->t_span > 0 ? k->t_span : 8192;
        const int64_t probes[] = {0, span - 2, span - 1, span, 7 * span + 3, 1000000};
        for (int q = 0; q < 6; q++) {
            double s;
            CHECK_OK(pe_plan_layer_query_scale(p, l, probes[q], &s));
            long double want = ref_query_scale(k, probes[q]);
            CHECK_MSG(fabsl(s - want) <= 4e-16L * want, "%s layer %lld pos %lld: query "
                      "scale %.17g, want %.17Lg", fx->file, (long long)l,
                      (long long)probes[q], s, want);
        }
        if (!k->rope) {
            static pe_freqs f;
            CHECK_ERROR(pe_plan_layer_freqs(p, l, 0, &f, NULL), PE_ERR_PARAM,
                        "does not rotate");
            continue;
        }
        int ki = fx->kind_of(l);
        if (checked_freqs[ki] < 2) { /* the first two layers of each kind */
            check_kind_freqs(fx->file, p, l, k, tol);
            checked_freqs[ki]++;
        }
    }
    pe_plan_free(p);
}

/* ----------------------------------------------------------- schedules */

static int all0(int64_t l) { (void)l; return 0; }
static int every6th(int64_t l) { return (l + 1) % 6 == 0; }  /* Gemma 3, Gemma 4 26B */
static int every5th(int64_t l) { return (l + 1) % 5 == 0; }  /* Gemma 3n, Gemma 4 E2B */
static int every4th(int64_t l) { return (l + 1) % 4 == 0; }  /* OLMo 3, SmolLM3, Llama 4, Cohere 2, Qwen3-Next */
static int odd(int64_t l) { return l % 2 == 1; }             /* Gemma 2 */

#define HALF PE_ROPE_HALF
#define INTER PE_ROPE_INTERLEAVED

TEST(plan_gemma_local_global) {
    /* Gemma 2: alternating windows, one RoPE for all (modeling_gemma2). */
    const fixture g2 = {"gemma-2-9b-it.json", "gemma2", 42, odd, {
        {"sliding_attention", 1, 1, K_DEFAULT, 256, 256, 10000, 1, .layout = HALF, .window = 4096},
        {"full_attention", 1, 1, K_DEFAULT, 256, 256, 10000, 1, .layout = HALF}}, 0};
    /* Gemma 3 1B: 5 local layers at rope_local_base_freq 1e4 per global at
     * 1e6; no scaling. */
    const fixture g31 = {"gemma-3-1b-it.json", "gemma3_text", 26, every6th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 256, 256, 10000, 1, .layout = HALF, .window = 512},
        {"full_attention", 1, 1, K_DEFAULT, 256, 256, 1e6L, 1, .layout = HALF}}, 0};
    /* Gemma 3 4B: the sparse text_config leaves head_dim (256), rope_theta
     * (1e6) and the local base (1e4) to Gemma3TextConfig; linear x8 on the
     * global layers only. */
    const fixture g34 = {"gemma-3-4b-it.json", "gemma3_text", 34, every6th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 256, 256, 10000, 1, .layout = HALF, .window = 1024},
        {"full_attention", 1, 1, K_LINEAR, 256, 256, 1e6L, 8, .layout = HALF}}, 0};
    const fixture g327 = {"gemma-3-27b-it.json", "gemma3_text", 62, every6th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 128, 128, 10000, 1, .layout = HALF, .window = 1024},
        {"full_attention", 1, 1, K_LINEAR, 128, 128, 1e6L, 8, .layout = HALF}}, 0};
    const fixture g3n = {"gemma-3n-e4b-it.json", "gemma3n_text", 35, every5th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 256, 256, 10000, 1, .layout = HALF, .window = 512},
        {"full_attention", 1, 1, K_DEFAULT, 256, 256, 1e6L, 1, .layout = HALF}}, 0};
    check_fixture(&g2);
    check_fixture(&g31);
    check_fixture(&g34);
    check_fixture(&g327);
    check_fixture(&g3n);
}

TEST(plan_gemma4_proportional_global_head) {
    /* Gemma 4: global layers use global_head_dim 512, proportional RoPE
     * with 0.25 of it rotated (exponent over all 512), base 1e6. */
    const fixture e2b = {"gemma-4-e2b-it.json", "gemma4_text", 35, every5th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 256, 256, 10000, 1, .layout = HALF, .window = 512},
        {"full_attention", 1, 1, K_PROP, 512, 128, 1e6L, 1, .layout = HALF}}, 0};
    const fixture moe = {"gemma-4-26b-a4b-it.json", "gemma4_text", 30, every6th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 256, 256, 10000, 1, .layout = HALF, .window = 1024},
        {"full_attention", 1, 1, K_PROP, 512, 128, 1e6L, 1, .layout = HALF}}, 0};
    check_fixture(&e2b);
    check_fixture(&moe);
}

TEST(plan_olmo3_yarn_on_full_layers_only) {
    const fixture o = {"olmo-3-7b.json", "olmo3", 32, every4th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 128, 128, 500000, 1, .layout = HALF, .window = 4096},
        {"full_attention", 1, 1, K_YARN, 128, 128, 500000, 8, 8192, 32, 1, 1,
         .amp = 1.2079441541679836L, .layout = HALF}}, 0};
    check_fixture(&o);
}

TEST(plan_nope_schedules_and_temperature) {
    /* SmolLM3: every 4th layer NoPE, nothing else changes. */
    const fixture smol = {"smollm3-3b.json", "smollm3", 36, every4th, {
        {"full_attention", 1, 1, K_DEFAULT, 128, 128, 5e6L, 1, .layout = HALF},
        {"full_attention", 1, 0, .D = 128}}, 0};
    /* Llama 4 Scout: rope layers are chunked (8192), llama3 x8 and complex
     * (interleaved) pairs; every 4th layer is global NoPE with the
     * temperature 1 + 0.1 ln(1 + floor((p + 1) / 8192)). */
    const fixture l4 = {"llama-4-scout-17b-16e.json", "llama4_text", 48, every4th, {
        {"chunked_attention", 1, 1, K_LLAMA3, 128, 128, 500000, 8, 8192, .layout = INTER,
         .chunk = 8192},
        {"full_attention", 1, 0, .D = 128, .t_beta = 0.1L, .t_span = 8192, .t_off = 1}}, 0};
    /* Command R7B: RoPE (GPT-J pairs) on the sliding layers only. */
    const fixture c2 = {"c4ai-command-r7b-12-2024.json", "cohere2", 32, every4th, {
        {"sliding_attention", 1, 1, K_DEFAULT, 128, 128, 50000, 1, .layout = INTER, .window = 4096},
        {"full_attention", 1, 0, .D = 128}}, 0};
    /* Qwen3-Next: gated-delta-net layers see no positions; every 4th layer
     * is attention with a quarter of its 256-dim head rotated. */
    const fixture qn = {"qwen3-next-80b-a3b-instruct.json", "qwen3_next", 48, every4th, {
        {"linear_attention", 0, 0, .scheme = K_NONE},
        {"full_attention", 1, 1, K_DEFAULT, 256, 64, 1e7L, 1, .layout = HALF}}, 0};
    check_fixture(&smol);
    check_fixture(&l4);
    check_fixture(&c2);
    check_fixture(&qn);
}

TEST(plan_uniform_families) {
    const fixture fx[] = {
        {"qwen3-8b.json", "qwen3", 36, all0, {
            {"full_attention", 1, 1, K_DEFAULT, 128, 128, 1e6L, 1, .layout = HALF}}, 0},
        {"qwen2.5-vl-7b-instruct.json", "qwen2_5_vl", 28, all0, {
            {"full_attention", 1, 1, K_DEFAULT, 128, 128, 1e6L, 1, .layout = HALF,
             .mrope = {16, 24, 24}}}, 0},
        {"qwen3-vl-8b-instruct.json", "qwen3_vl_text", 36, all0, {
            {"full_attention", 1, 1, K_DEFAULT, 128, 128, 5e6L, 1, .layout = HALF,
             .mrope = {24, 20, 20}}}, 0},
        /* GLM-4: half of the head, rotated in adjacent pairs. */
        {"glm-4-9b-0414.json", "glm4", 40, all0, {
            {"full_attention", 1, 1, K_DEFAULT, 128, 64, 10000, 1, .layout = INTER}}, 0},
        {"glm-4.5-air.json", "glm4_moe", 46, all0, {
            {"full_attention", 1, 1, K_DEFAULT, 128, 64, 1e6L, 1, .layout = HALF}}, 0},
        {"granite-3.3-8b-instruct.json", "granite", 40, all0, {
            {"full_attention", 1, 1, K_DEFAULT, 128, 128, 1e7L, 1, .layout = HALF}}, 0},
        /* Ministral 3: YaRN x16 with mscale = mscale_all_dim (A = 1), no
         * softmax multiplier (not DeepSeek attention), and the Llama 4
         * query scale 1 + 0.1 ln(1 + floor(p / 16384)) on every layer. */
        {"ministral-3-8b-instruct-2512.json", "ministral3", 34, all0, {
            {"full_attention", 1, 1, K_YARN, 128, 128, 1e6L, 16, 16384, 32, 1, 1, .amp = 1,
             .layout = HALF, .t_beta = 0.1L, .t_span = 16384}}, 0},
        /* Kimi K2: DeepSeek V3 attention, beta_fast == beta_slow == 1
         * accepted, A = 1, softmax multiplier mscale(32, 1)^2. */
        {"kimi-k2-instruct.json", "kimi_k2", 61, all0, {
            {"full_attention", 1, 1, K_YARN, 64, 64, 50000, 32, 4096, 1, 1, 1, .amp = 1,
             .mult = (0.1L * 3.4657359027997265470861606L + 1) * (0.1L * 3.4657359027997265470861606L + 1),
             .layout = INTER}}, 0},
    };
    for (size_t i = 0; i < sizeof fx / sizeof *fx; i++) check_fixture(&fx[i]);
}

TEST(plan_hunyuan_alpha) {
    /* HunYuan's rotary class: base * alpha^(d/(d-2)), magnitude 1, and no
     * max_position_embeddings needed. The base is a double in HF as here:
     * the two roundings of b alpha^(d/(d-2)) may differ by an ulp, which
     * moves w_i by at most (2i/d) 2^-52 relative: 4e-16. */
    const long double base = (double)(10000.0L * powl(1000.0L, 128.0L / 126.0L));
    fixture hy = {"hy-mt2-7b.json", "hunyuan_v1_dense", 32, all0, {
        {"full_attention", 1, 1, K_DEFAULT, 128, 128, 0, 1, .layout = HALF}}, 0};
    hy.tol = rel_tol() > 4e-16 ? rel_tol() : 4e-16;
    hy.kinds[0].b = base;
    pe_plan *p = load(hy.file);
    if (p == NULL) return;
    pe_plan_layer L;
    CHECK_OK(pe_plan_layer_info(p, 0, &L));
    /* one double rounding on each side (64 long double eps where long
     * double is a double, as under valgrind) */
    const long double btol = rel_tol() > 2.3e-16 ? rel_tol() : 2.3e-16;
    CHECK_MSG(fabsl(L.base - base) <= btol * base, "base %.17g, want %.17Lg", L.base, base);
    CHECK(L.scaling == PE_SCALING_DEFAULT);
    hy.kinds[0].b = L.base; /* the field checks compare bases exactly */
    pe_plan_free(p);
    check_fixture(&hy);
}

/* -------------------------------------------------- semantics, inline */

TEST(plan_phimoe_mscale_switches_at_original_length) {
    /* PhiMoE: LongRoPE frequencies, but the magnitude is short_mscale up to
     * L0 and long_mscale past it (modeling_phimoe), not LongRoPE's formula. */
    char json[4096];
    int n = snprintf(json, sizeof json,
                     "{\"model_type\":\"phimoe\",\"hidden_size\":64,\"num_attention_heads\":8,"
                     "\"num_hidden_layers\":2,\"max_position_embeddings\":131072,"
                     "\"rope_theta\":10000,\"rope_scaling\":{\"type\":\"longrope\","
                     "\"original_max_position_embeddings\":4096,\"short_mscale\":1.1,"
                     "\"long_mscale\":1.3,\"short_factor\":[1,1,1,1],\"long_factor\":[1,2,3,4]}}");
    CHECK(n > 0 && n < (int)sizeof json);
    pe_plan *p = parse(json);
    if (p == NULL) return;
    static pe_freqs f;
    CHECK_OK(pe_plan_layer_freqs(p, 1, 4096, &f, NULL));
    CHECK(f.attention_factor == 1.1);
    CHECK_NEAR(f.inv_freq[3], powl(10000.0L, -6.0L / 8), 1e-16);
    CHECK_OK(pe_plan_layer_freqs(p, 1, 4097, &f, NULL));
    CHECK(f.attention_factor == 1.3);
    CHECK_NEAR(f.inv_freq[3], powl(10000.0L, -6.0L / 8) / 4, 1e-16);
    pe_plan_free(p);
    /* The single-RoPE API cannot carry the switch: it says so. */
    static pe_rope_config c;
    CHECK_ERROR(pe_config_parse(json, strlen(json), &c), PE_ERR_UNSUPPORTED, "short_mscale");
}

TEST(plan_yarn_equal_betas_ramp_nudged) {
    /* Untruncated, beta_fast == beta_slow gives low == high exactly: HF adds
     * 0.001 to high, so the ramp is a step of width 0.001. */
    const char *json = "{\"model_type\":\"deepseek_v3\",\"qk_rope_head_dim\":64,"
                       "\"num_hidden_layers\":1,\"rope_theta\":10000,"
                       "\"max_position_embeddings\":163840,\"rope_scaling\":{\"type\":\"yarn\","
                       "\"factor\":40,\"original_max_position_embeddings\":4096,"
                       "\"beta_fast\":2,\"beta_slow\":2,\"truncate\":false,\"mscale\":1,"
                       "\"mscale_all_dim\":1}}";
    pe_plan *p = parse(json);
    if (p == NULL) return;
    kind k = {"full_attention", 1, 1, K_YARN, 64, 64, 10000, 40, 4096, 2, 2, 0, .amp = 1,
              .mult = (0.1L * logl(40) + 1) * (0.1L * logl(40) + 1), .layout = INTER};
    check_kind_freqs("equal betas", p, 0, &k, rel_tol());
    pe_plan_free(p);
}

TEST(plan_deepseek_multiplier_only_for_deepseek_attention) {
    /* The same YaRN block under a Llama model type: no softmax multiplier,
     * through the plan and through pe_config_freqs. */
#define YARN_FMT                                                                         \
    "{\"model_type\":\"%s\",\"head_dim\":64,\"num_hidden_layers\":1,"                           \
    "\"max_position_embeddings\":65536,\"rope_scaling\":{\"rope_type\":\"yarn\",\"factor\":16,"    \
    "\"original_max_position_embeddings\":4096,\"mscale\":1,\"mscale_all_dim\":1}}"
    const char *types[] = {"llama", "deepseek_v2"};
    const long double m = (0.1L * logl(16) + 1) * (0.1L * logl(16) + 1);
    for (int t = 0; t < 2; t++) {
        char json[512];
        snprintf(json, sizeof json, YARN_FMT, types[t]);
        pe_plan *p = parse(json);
        if (p == NULL) continue;
        static pe_freqs f;
        CHECK_OK(pe_plan_layer_freqs(p, 0, 0, &f, NULL));
        long double want = t == 0 ? 1 : m;
        CHECK_MSG(fabsl(f.softmax_scale_multiplier - want) < 1e-15L, "%s: %.17g", types[t],
                  f.softmax_scale_multiplier);
        static pe_rope_config c;
        CHECK_OK(pe_config_parse(json, strlen(json), &c));
        CHECK_OK(pe_config_freqs(&c, 0, &f, NULL));
        CHECK_MSG(fabsl(f.softmax_scale_multiplier - want) < 1e-15L, "%s config: %.17g",
                  types[t], f.softmax_scale_multiplier);
        pe_plan_free(p);
    }
}

TEST(plan_text_config_nesting) {
    /* get_text_config(): any of the nesting keys, thinker_config's inner
     * text_config, and the root model_type's "_text" class when the nested
     * block has none. */
    const char *cases[][2] = {
        {"{\"model_type\":\"x\",\"language_config\":{\"model_type\":\"qwen2\",\"head_dim\":64,"
         "\"rope_theta\":5e5,\"num_hidden_layers\":3}}", "qwen2"},
        {"{\"model_type\":\"x\",\"llm_config\":{\"model_type\":\"qwen2\",\"head_dim\":64,"
         "\"rope_theta\":5e5,\"num_hidden_layers\":3}}", "qwen2"},
        {"{\"model_type\":\"qwen2_5_omni\",\"thinker_config\":{\"text_config\":{\"model_type\":"
         "\"qwen2\",\"head_dim\":64,\"rope_theta\":5e5,\"num_hidden_layers\":3}}}", "qwen2"},
        {"{\"model_type\":\"gemma3\",\"text_config\":{\"num_hidden_layers\":3,\"rope_theta\":5e5,"
         "\"rope_local_base_freq\":5e5}}", "gemma3_text"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pe_plan *p = parse(cases[i][0]);
        if (p == NULL) continue;
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 2, &L));
        CHECK_MSG(strcmp(pe_plan_model_type(p), cases[i][1]) == 0 && L.base == 5e5 &&
                      pe_plan_num_layers(p) == 3,
                  "case %zu: %s base %g", i, pe_plan_model_type(p), L.base);
        pe_plan_free(p);
    }
}

TEST(plan_class_defaults_when_keys_are_absent) {
    /* Each family's own defaults (configuration_<model>.py), not 10000 / 1. */
    struct { const char *json; double base; int64_t d; } cases[] = {
        {"{\"model_type\":\"cohere\",\"hidden_size\":1024,\"num_attention_heads\":8}", 5e5, 128},
        {"{\"model_type\":\"gpt_oss\",\"head_dim\":64}", 150000, 64},
        {"{\"model_type\":\"qwen2_vl\",\"head_dim\":128}", 1e6, 128},
        {"{\"model_type\":\"smollm3\",\"head_dim\":128,\"num_hidden_layers\":3}", 2e6, 128},
        {"{\"model_type\":\"olmo3\",\"head_dim\":128}", 5e5, 128},
        {"{\"model_type\":\"gpt_neox\",\"hidden_size\":1024,\"num_attention_heads\":8}", 10000, 32},
        {"{\"model_type\":\"phi\",\"hidden_size\":1024,\"num_attention_heads\":8}", 10000, 64},
        {"{\"model_type\":\"stablelm\",\"hidden_size\":1024,\"num_attention_heads\":8}", 10000, 32},
        {"{\"model_type\":\"glm\",\"head_dim\":128}", 10000, 64},
        {"{\"model_type\":\"gemma3_text\",\"num_hidden_layers\":6}", 1e6, 256},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pe_plan *p = parse(cases[i].json);
        if (p == NULL) continue;
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, pe_plan_num_layers(p) - 1, &L));
        CHECK_MSG(L.base == cases[i].base && L.rotary_dim == cases[i].d &&
                      pe_plan_num_warnings(p) == 0,
                  "%s: base %g d %lld warnings %lld", cases[i].json, L.base,
                  (long long)L.rotary_dim, (long long)pe_plan_num_warnings(p));
        pe_plan_free(p);
    }
    /* Gemma 3 without rope_local_base_freq: its sliding layers use 1e4. */
    pe_plan *p = parse("{\"model_type\":\"gemma3_text\",\"num_hidden_layers\":6}");
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 0, &L));
        CHECK(L.base == 10000 && strcmp(L.layer_type, "sliding_attention") == 0);
        pe_plan_free(p);
    }
}

static int has_warning(const pe_plan *p, const char *needle) {
    for (int64_t i = 0; i < pe_plan_num_warnings(p); i++)
        if (strstr(pe_plan_warning(p, i), needle) != NULL) return 1;
    return 0;
}

TEST(plan_warnings_name_what_was_not_understood) {
    /* Keys a known family does not read stay warnings. */
    pe_plan *p = parse("{\"model_type\":\"llama\",\"head_dim\":64,\"rope_theta\":1e5,"
                       "\"rope_scaling\":{\"rope_type\":\"linear\",\"factor\":2,\"alpha\":3,"
                       "\"wobble\":1},\"rotary_emb_fraction\":0.5}");
    if (p == NULL) return;
    CHECK(has_warning(p, "'rope_scaling.wobble': not understood; ignored"));
    CHECK(has_warning(p, "'rope_scaling.alpha': only HunYuan's code reads it"));
    CHECK(has_warning(p, "'rotary_emb_fraction': not understood; ignored"));
    CHECK(pe_plan_warning(p, pe_plan_num_warnings(p)) == NULL);
    CHECK(pe_plan_warning(p, -1) == NULL);
    pe_plan_layer L;
    CHECK_OK(pe_plan_layer_info(p, 0, &L));
    CHECK(L.base == 1e5 && L.scaling == PE_SCALING_LINEAR && L.layout_known);
    pe_plan_free(p);
    p = parse("{\"model_type\":\"llama\",\"head_dim\":64,\"rope_local_base_freq\":10,"
              "\"no_rope_layers\":[1]}");
    if (p != NULL) {
        CHECK(has_warning(p, "'rope_local_base_freq': model_type 'llama' does not read it"));
        CHECK(has_warning(p, "'no_rope_layers': model_type 'llama' does not read it"));
        pe_plan_free(p);
    }
}

TEST(plan_single_rope_api_refuses_mixed_layers) {
    /* pe_config_* cannot answer for a model whose layers differ: it names the
     * layer types and asks for a layer, instead of returning one of them. */
    const char *dir = getenv("PE_TEST_FIXTURES");
    char path[512];
    static pe_rope_config c;
    snprintf(path, sizeof path, "%s/gemma-3-1b-it.json", dir ? dir : "tests/fixtures/configs");
    CHECK_ERROR(pe_config_read(path, &c), PE_ERR_UNSUPPORTED,
                "the layers differ: sliding_attention (22 layers from 0: default base "
                "10000), full_attention (4 layers from 5: default base 1e+06); ask for a "
                "layer");
    snprintf(path, sizeof path, "%s/smollm3-3b.json", dir ? dir : "tests/fixtures/configs");
    CHECK_ERROR(pe_config_read(path, &c), PE_ERR_UNSUPPORTED, "full_attention (9 layers from 3: NoPE)");
    snprintf(path, sizeof path, "%s/ministral-3-8b-instruct-2512.json",
             dir ? dir : "tests/fixtures/configs");
    CHECK_ERROR(pe_config_read(path, &c), PE_ERR_UNSUPPORTED, "query scale");
    /* Layers that differ only in their window still have one RoPE. */
    snprintf(path, sizeof path, "%s/gemma-2-9b-it.json", dir ? dir : "tests/fixtures/configs");
    CHECK_OK(pe_config_read(path, &c));
    CHECK(c.scaling.base == 10000 && c.scaling.rotary_dim == 256);
}

TEST(plan_accessors_validate) {
    pe_plan *p = parse("{\"model_type\":\"smollm3\",\"head_dim\":64,\"num_hidden_layers\":4}");
    if (p == NULL) return;
    pe_plan_layer L;
    static pe_freqs f;
    double s;
    CHECK_ERROR(pe_plan_layer_info(p, 4, &L), PE_ERR_RANGE, "layer=4 is outside [0, 4)");
    CHECK_ERROR(pe_plan_layer_info(p, -1, &L), PE_ERR_RANGE, "layer=-1");
    CHECK_ERROR(pe_plan_layer_info(NULL, 0, &L), PE_ERR_NULL, "plan");
    CHECK_ERROR(pe_plan_layer_info(p, 0, NULL), PE_ERR_NULL, "out");
    CHECK_ERROR(pe_plan_layer_freqs(p, 3, 0, &f, NULL), PE_ERR_PARAM,
                "layer 3 (full_attention) does not rotate: a NoPE layer");
    CHECK_ERROR(pe_plan_layer_freqs(p, 0, -1, &f, NULL), PE_ERR_PARAM, "seq_len=-1");
    CHECK_ERROR(pe_plan_layer_query_scale(p, 0, -1, &s), PE_ERR_RANGE, "position=-1");
    CHECK(pe_plan_num_layers(NULL) == 0 && pe_plan_num_warnings(NULL) == 0);
    CHECK(strcmp(pe_plan_model_type(NULL), "") == 0);
    pe_plan_free(p);
    pe_plan_free(NULL);
}

TEST(plan_every_prefix_of_a_fixture_fails_cleanly) {
    /* Truncated files never crash or leak, and succeed only when whole. */
    const char *dir = getenv("PE_TEST_FIXTURES");
    char path[512];
    snprintf(path, sizeof path, "%s/gemma-4-e2b-it.json", dir ? dir : "tests/fixtures/configs");
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    if (fp == NULL) return;
    char *buf = malloc(1 << 16);
    size_t len = buf ? fread(buf, 1, 1 << 16, fp) : 0;
    fclose(fp);
    int ok = 0;
    for (size_t n = 1; n <= len; n += 7) {
        pe_plan *p = NULL;
        if (pe_plan_from_config_json(buf, n, &p) == PE_OK) {
            ok++;
            pe_plan_free(p);
        }
    }
    pe_plan *p = NULL;
    CHECK_OK(pe_plan_from_config_json(buf, len, &p));
    pe_plan_free(p);
    CHECK(ok <= 2); /* only whitespace-trailing prefixes of the whole text */
    free(buf);
}

TEST(plan_qwen35_shape_interleaved_mrope_on_partial_heads) {
    /* Qwen3.5's layout (configuration_qwen3_5.py): a nested qwen3_5_text
     * block, gated-delta-net layers with a full-attention layer every
     * full_attention_interval (class default 4), v5 rope_parameters with a
     * quarter of the head rotated and interleaved M-RoPE sections covering
     * those 32 pairs. */
    const char *json =
        "{\"model_type\":\"qwen3_5\",\"text_config\":{\"model_type\":\"qwen3_5_text\","
        "\"head_dim\":256,\"num_hidden_layers\":8,\"rope_parameters\":{\"rope_type\":\"default\","
        "\"rope_theta\":10000000,\"partial_rotary_factor\":0.25,\"mrope_interleaved\":true,"
        "\"mrope_section\":[11,11,10]}}}";
    pe_plan *p = parse(json);
    if (p == NULL) return;
    CHECK(strcmp(pe_plan_model_type(p), "qwen3_5_text") == 0 && pe_plan_num_warnings(p) == 0);
    for (int64_t l = 0; l < 8; l++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, l, &L));
        if ((l + 1) % 4 != 0) {
            CHECK(!L.attention && !L.rope && strcmp(L.layer_type, "linear_attention") == 0);
            continue;
        }
        CHECK(L.rope && L.rotary_dim == 64 && L.head_dim == 256 && L.base == 1e7 &&
              L.mrope_interleaved && L.n_mrope_section == 3 && L.mrope_section[0] == 11 &&
              L.mrope_section[1] == 11 && L.mrope_section[2] == 10);
        static pe_freqs f;
        CHECK_OK(pe_plan_layer_freqs(p, l, 0, &f, NULL));
        CHECK(f.rotary_dim == 64);
        for (int i = 0; i < 32; i++) {
            long double want = powl(1e7L, -(long double)(2 * i) / 64);
            CHECK(fabsl(((long double)f.inv_freq[i] + f.inv_freq_lo[i]) - want) <= rel_tol() * want);
        }
    }
    pe_plan_free(p);
}
