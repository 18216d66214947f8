/* test_plan_gguf.c — plans from GGUF files written by llama.cpp's own
 * converter (tests/fixtures/gguf, commit and classes in its README) against
 * llama.cpp's runtime rules restated here from its source at 34af94cd9ab2
 * (each test names the file and line) and against the same models'
 * config.json plans; the llama.cpp architecture registry against
 * llama_model_rope_type() restated; bad files (written by the tests' own
 * gguf_build, which writes nothing else here but probes of one rule on a
 * file no converter writes) refused by name. */
#include "fixture_configs.h"
#include "errors.h"
#include "gguf_build.h"

#include "../src/io/gguf.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const long double PI_L = 3.141592653589793238462643383279502884L;

static pe_plan *plan_of(gguf_build *b, const char *tag) {
    char path[128];
    snprintf(path, sizeof path, "/tmp/pe_test_plan_gguf_%ld_%s.gguf", (long)getpid(), tag);
    CHECK(gb_write(b, path) == 0);
    gb_free(b);
    pe_plan *p = NULL;
    int st = pe_plan_from_gguf(path, &p);
    CHECK_MSG(st == PE_OK, "%s: %s", tag, pe_last_error());
    unlink(path);
    return st == PE_OK ? p : NULL;
}

/* Write b (freed) where the error rows read it. */
static const char *bad_file(gguf_build *b) {
    static char path[128];
    snprintf(path, sizeof path, "/tmp/pe_test_plan_gguf_%ld_bad.gguf", (long)getpid());
    CHECK(gb_write(b, path) == 0);
    gb_free(b);
    return path;
}

static pe_plan *config(const char *name) { return pe_test_fixture_plan(name); }

/* A llama.cpp-written fixture (tests/fixtures/gguf). */
static pe_plan *fixture(const char *name) {
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/gguf/%s", name);
    pe_plan *p = NULL;
    int st = pe_plan_from_gguf(path, &p);
    CHECK_MSG(st == PE_OK, "%s: %s", name, pe_last_error());
    return st == PE_OK ? p : NULL;
}

/* The GGUF-only configs (tests/fixtures/gguf/configs). */
static pe_plan *gguf_config(const char *name) {
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/gguf/configs/%s", name);
    pe_plan *p = NULL;
    int st = pe_plan_from_config_file(path, &p);
    CHECK_MSG(st == PE_OK, "%s: %s", name, pe_last_error());
    return st == PE_OK ? p : NULL;
}

static pe_plan_diff *compare(const pe_plan *a, const pe_plan *b) {
    pe_plan_diff *d = NULL;
    CHECK_OK(pe_plan_compare(a, b, 0, &d));
    return d;
}

/* The config's plan c against the GGUF's g: exactly `count` lines, the
 * first holding want and also want2 (each NULL: not checked). */
static void check_diff(const pe_plan *c, const pe_plan *g, int64_t count, const char *want,
                       const char *want2) {
    pe_plan_diff *d = compare(c, g);
    const char *line0 = d && pe_plan_diff_line(d, 0) ? pe_plan_diff_line(d, 0) : "";
    CHECK_MSG(d && pe_plan_diff_count(d) == count && (!want || strstr(line0, want)) &&
                  (!want2 || strstr(line0, want2)),
              "%lld lines: %s (want %s)", d ? (long long)pe_plan_diff_count(d) : -1LL, line0,
              want ? want : "-");
    pe_plan_diff_free(d);
}

TEST(plan_gguf_hunyuan_folded_base_in_float32) {
    /* llama.cpp folds HunYuan's alpha into freq_base, stored as float32:
     * the frequencies of pair i move by (b32 / b)^(-2i/d) - 1. (A probe:
     * the converter at the fixtures' commit refuses the hy-mt2 config,
     * which names no architectures.) */
    const double base = (double)(10000.0L * powl(1000.0L, 128.0L / 126.0L));
    const float b32 = (float)base;
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "hunyuan-dense");
    gb_u32(b, "hunyuan-dense.block_count", 32);
    gb_u32(b, "hunyuan-dense.embedding_length", 4096);
    gb_u32(b, "hunyuan-dense.attention.head_count", 32);
    gb_u32(b, "hunyuan-dense.attention.key_length", 128);
    gb_f32(b, "hunyuan-dense.rope.freq_base", b32);
    gb_f32(b, "hunyuan-dense.rope.scaling.factor", 1.0f);
    pe_plan *g = plan_of(b, "hunyuan");
    pe_plan *c = config("hy-mt2-7b.json");
    if (g != NULL && c != NULL) {
        pe_plan_layer Lc, Lg;
        CHECK_OK(pe_plan_layer_info(c, 0, &Lc));
        CHECK_OK(pe_plan_layer_info(g, 0, &Lg));
        long double worst = 0;
        for (int i = 0; i < 64; i++) {
            long double r = fabsl(powl((long double)b32 / Lc.base, -(long double)(2 * i) / 128) - 1);
            if (r > worst) worst = r;
        }
        CHECK(Lg.base == (double)b32 && worst > 0);
        char want[96];
        snprintf(want, sizeof want, "layers 0-31: inv_freq differ by up to %.3g relative", (double)worst);
        check_diff(c, g, 1, want, "float32 storage explains it (rope.freq_base)");
    }
    pe_plan_free(g);
    pe_plan_free(c);
}

TEST(plan_gguf_unknown_keys_and_llama4_rules) {
    /* A positional key nobody reads is a warning (a probe file: the
     * converter writes no such key). */
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "qwen2");
    gb_u32(b, "qwen2.block_count", 2);
    gb_u32(b, "qwen2.attention.key_length", 64);
    gb_f32(b, "qwen2.rope.wobble", 1.0f);
    pe_plan *g = plan_of(b, "qwen2");
    CHECK(g && pe_plan_num_warnings(g) == 1 &&
          strcmp(pe_plan_warning(g, 0), "'qwen2.rope.wobble': not understood; ignored") == 0);
    pe_plan_free(g);
    pe_plan *c;
    /* Llama 4: llama.cpp (src/llama-model.cpp, LLM_ARCH_LLAMA4 hparams)
     * sets chunked attention of 8192 tokens on layers i % 4 < 3, NoPE on
     * (i + 1) % 4 == 0 with the temperature 0.1 / 8192 / offset 1, all in
     * code: the GGUF plan then equals the config's but for the llama3
     * divisors this file leaves out (no rope_freqs.weight). */
    g = fixture("llama-4-scout-17b-16e.gguf");
    c = config("llama-4-scout-17b-16e.json");
    if (g != NULL && c != NULL) {
        CHECK(pe_plan_num_warnings(g) == 0);
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 3, &L));
        CHECK(!L.rope && L.attention && strcmp(L.layer_type, "full_attention") == 0 &&
              L.temperature.active && L.temperature.beta == 0.1 && L.temperature.span == 8192 &&
              L.temperature.offset == 1 && L.chunk_size == 0);
        CHECK_OK(pe_plan_layer_info(g, 2, &L));
        CHECK(L.rope && L.layout == PE_ROPE_INTERLEAVED && !L.temperature.active &&
              strcmp(L.layer_type, "chunked_attention") == 0 && L.chunk_size == 8192);
        /* the converter's float32 divisors against the config's llama3
         * scheme: within float32 precision, not reproduced by rounding the
         * inputs (conversion/llama.py computes the frequencies in float32) */
        check_diff(c, g, 1, "layers 0-2, 4-6, 8-10,", "the conversion's float32 arithmetic");
    }
    pe_plan_free(g);
    pe_plan_free(c);
    /* sliding_window = 0: no chunks, NoPE step = block_count (the last
     * layer only), no temperature. */
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama4");
    gb_u32(b, "llama4.block_count", 8);
    gb_u32(b, "llama4.attention.key_length", 64);
    gb_u32(b, "llama4.attention.sliding_window", 0);
    g = plan_of(b, "llama4_nochunk");
    for (int64_t i = 0; g != NULL && i < 8; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        CHECK_MSG(L.rope == (i != 7) && L.chunk_size == 0 && !L.temperature.active &&
                      strcmp(L.layer_type, "full_attention") == 0, "layer %lld", (long long)i);
    }
    pe_plan_free(g);
}

/* One tiny file per architecture: the layout, M-RoPE form and warning the
 * plan must show, restated from llama_model_rope_type() in llama.cpp's
 * src/llama-model.cpp at commit 00395eb285c7c6821ff372e3ca41dae9da33c2c7
 * (NORM: adjacent pairs; NEOX, MROPE, IMROPE: halves; glm4 / glm4moe are
 * MROPE when their dimension_sections make hparams.use_mrope() true). */
TEST(plan_gguf_rope_type_table) {
    static const struct {
        const char *arch;
        int sections;            /* write dimension_sections {8, 12, 12, 0} */
        pe_rope_layout layout;
        int known, n_sections, interleaved;
    } rows[] = {
        {"llama", 0, PE_ROPE_INTERLEAVED, 1, 0, 0},
        {"mistral3", 0, PE_ROPE_INTERLEAVED, 1, 0, 0},
        {"ernie4_5-moe", 0, PE_ROPE_INTERLEAVED, 1, 0, 0},
        {"deepseek2", 0, PE_ROPE_INTERLEAVED, 1, 0, 0},
        {"granite", 0, PE_ROPE_INTERLEAVED, 1, 0, 0},
        {"glm4", 0, PE_ROPE_INTERLEAVED, 1, 0, 0},
        {"glm4", 1, PE_ROPE_HALF, 1, 3, 0},
        {"glm4moe", 0, PE_ROPE_HALF, 1, 0, 0},
        {"glm4moe", 1, PE_ROPE_HALF, 1, 3, 0},
        {"qwen2", 1, PE_ROPE_HALF, 1, 0, 0}, /* sections mean nothing to NEOX */
        {"gpt-oss", 0, PE_ROPE_HALF, 1, 0, 0},
        {"seed_oss", 0, PE_ROPE_HALF, 1, 0, 0},
        {"minimax-m2", 0, PE_ROPE_HALF, 1, 0, 0},
        {"olmo2", 0, PE_ROPE_HALF, 1, 0, 0},
        {"qwen2vl", 1, PE_ROPE_HALF, 1, 3, 0},
        {"qwen3vl", 1, PE_ROPE_HALF, 1, 3, 1},
        {"qwen3vlmoe", 1, PE_ROPE_HALF, 1, 3, 1},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char key[96];
        gguf_build *b = gb_new(3);
        gb_str(b, "general.architecture", rows[r].arch);
        snprintf(key, sizeof key, "%s.block_count", rows[r].arch);
        gb_u32(b, key, 2);
        snprintf(key, sizeof key, "%s.attention.key_length", rows[r].arch);
        gb_u32(b, key, 64);
        if (rows[r].sections) {
            const uint32_t sec[4] = {8, 12, 12, 0};
            snprintf(key, sizeof key, "%s.rope.dimension_sections", rows[r].arch);
            gb_array(b, key, 4 /* u32 */, 4, sec);
        }
        pe_plan *g = plan_of(b, "table");
        if (g == NULL) continue;
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 1, &L));
        CHECK_MSG(L.layout == rows[r].layout && L.layout_known == rows[r].known &&
                      L.n_mrope_section == rows[r].n_sections &&
                      L.mrope_interleaved == rows[r].interleaved,
                  "%s (sections %d): layout %d known %d sections %lld interleaved %d",
                  rows[r].arch, rows[r].sections, (int)L.layout, L.layout_known,
                  (long long)L.n_mrope_section, L.mrope_interleaved);
        pe_plan_free(g);
    }
}

/* Layer i's type, window, base and scaling against a restatement. */
typedef struct {
    int64_t period;     /* 0: no sliding layer */
    int64_t window;
    double full_base, swa_base;
    pe_scaling_type full_scaling, swa_scaling;
    int full_nope;      /* cohere2: the full layers have no RoPE */
} swa_expect;

static void check_swa(const pe_plan *g, int64_t n, const swa_expect *e, const char *what) {
    for (int64_t i = 0; i < n; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        const int sliding = e->period > 0 && i % e->period < e->period - 1;
        int ok = strcmp(L.layer_type, sliding ? "sliding_attention" : "full_attention") == 0 &&
                 L.sliding_window == (sliding ? e->window : 0);
        if (!sliding && e->full_nope) ok = ok && !L.rope;
        else
            ok = ok && L.rope && L.base == (sliding ? e->swa_base : e->full_base) &&
                 L.scaling == (sliding ? e->swa_scaling : e->full_scaling);
        CHECK_MSG(ok, "%s layer %lld: %s window %lld rope %d base %g scaling %d", what,
                  (long long)i, L.layer_type, (long long)L.sliding_window, L.rope, L.base,
                  (int)L.scaling);
    }
}

static gguf_build *swa_file(const char *arch, uint32_t layers) {
    char key[96];
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", arch);
    snprintf(key, sizeof key, "%s.block_count", arch);
    gb_u32(b, key, layers);
    snprintf(key, sizeof key, "%s.attention.key_length", arch);
    gb_u32(b, key, 64);
    snprintf(key, sizeof key, "%s.rope.freq_base", arch);
    gb_f32(b, key, 1e6f);
    return b;
}

/* The sliding-window rules llama.cpp sets in code when a file has no
 * pattern key, restated from load_arch_hparams at llama.cpp 34af94cd9ab2:
 * src/models/gemma2.cpp:3-13, gemma3.cpp:3-15, gemma3n.cpp:3-14,
 * openai-moe.cpp:3-16 (gpt-oss), cohere2.cpp:3-15 (and its graph's
 * freq_base, :74-100), olmo2.cpp:3-20 (graph: freq_base, scale 1 on the
 * sliding layers, :120-145), exaone4.cpp:3-20; llama-hparams.cpp:8-22
 * set_swa_pattern(n) makes layer i sliding when i % n < n - 1. (Probe
 * files: each isolates one rule no converter output varies.) */
TEST(plan_gguf_sliding_rules_from_llama_cpp) {
    /* gemma2: period 2, window 4096 when the key is absent, the swa base
     * from rope.freq_base_swa else the full base, scaled alike. */
    gguf_build *b = swa_file("gemma2", 6);
    pe_plan *g = plan_of(b, "gemma2");
    if (g) {
        swa_expect e = {2, 4096, 1e6, 1e6, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 0};
        check_swa(g, 6, &e, "gemma2");
        CHECK(pe_plan_num_warnings(g) == 0);
    }
    pe_plan_free(g);
    /* gemma3 (27B: linear 8 on the full layers): period 6, sliding layers
     * default RoPE at 10000 (llama_hparams' rope_freq_base_train_swa) */
    b = swa_file("gemma3", 12);
    gb_u32(b, "gemma3.attention.sliding_window", 1024);
    gb_str(b, "gemma3.rope.scaling.type", "linear");
    gb_f32(b, "gemma3.rope.scaling.factor", 8.0f);
    g = plan_of(b, "gemma3");
    if (g) {
        swa_expect e = {6, 1024, 1e6, 1e4, PE_SCALING_LINEAR, PE_SCALING_DEFAULT, 0};
        check_swa(g, 12, &e, "gemma3");
    }
    pe_plan_free(g);
    /* gemma3 without a window: llama.cpp's swa_type NONE, every layer full */
    b = swa_file("gemma3", 12);
    g = plan_of(b, "gemma3_nowindow");
    if (g) {
        swa_expect e = {0, 0, 1e6, 1e6, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 0};
        check_swa(g, 12, &e, "gemma3 without window");
        CHECK(pe_plan_num_warnings(g) == 0);
    }
    pe_plan_free(g);
    /* gemma3n: period 5, swa base from the key */
    b = swa_file("gemma3n", 10);
    gb_u32(b, "gemma3n.attention.sliding_window", 512);
    gb_f32(b, "gemma3n.rope.freq_base_swa", 1e4f);
    g = plan_of(b, "gemma3n");
    if (g) {
        swa_expect e = {5, 512, 1e6, 1e4, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 0};
        check_swa(g, 10, &e, "gemma3n");
    }
    pe_plan_free(g);
    /* gpt-oss: period 2, YaRN on both kinds of layer, the swa key read */
    b = swa_file("gpt-oss", 4);
    gb_u32(b, "gpt-oss.attention.sliding_window", 128);
    gb_f32(b, "gpt-oss.rope.freq_base_swa", 2e5f);
    gb_str(b, "gpt-oss.rope.scaling.type", "yarn");
    gb_f32(b, "gpt-oss.rope.scaling.factor", 32.0f);
    gb_u32(b, "gpt-oss.rope.scaling.original_context_length", 4096);
    g = plan_of(b, "gptoss");
    if (g) {
        swa_expect e = {2, 128, 1e6, 2e5, PE_SCALING_YARN, PE_SCALING_YARN, 0};
        check_swa(g, 4, &e, "gpt-oss");
    }
    pe_plan_free(g);
    /* cohere2: period 4, the full layers NoPE, the sliding ones at
     * rope.freq_base (the graph ignores the per-layer base) */
    b = swa_file("cohere2", 8);
    gb_u32(b, "cohere2.attention.sliding_window", 4096);
    gb_f32(b, "cohere2.rope.freq_base_swa", 5e4f);
    g = plan_of(b, "cohere2");
    if (g) {
        swa_expect e = {4, 4096, 1e6, 1e6, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 1};
        check_swa(g, 8, &e, "cohere2");
    }
    pe_plan_free(g);
    /* olmo2 (OLMo 3): period 4 when the window > 0; sliding layers plain
     * RoPE at rope.freq_base, YaRN on the full ones only */
    b = swa_file("olmo2", 8);
    gb_u32(b, "olmo2.attention.sliding_window", 4096);
    gb_str(b, "olmo2.rope.scaling.type", "yarn");
    gb_f32(b, "olmo2.rope.scaling.factor", 8.0f);
    gb_u32(b, "olmo2.rope.scaling.original_context_length", 8192);
    g = plan_of(b, "olmo2");
    if (g) {
        swa_expect e = {4, 4096, 1e6, 1e6, PE_SCALING_YARN, PE_SCALING_DEFAULT, 0};
        check_swa(g, 8, &e, "olmo2");
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 0, &L));
        CHECK(strcmp(L.f32_inputs, "rope.freq_base") == 0);
    }
    pe_plan_free(g);
    /* exaone4: the 64-layer model only, window 4096 when absent */
    b = swa_file("exaone4", 64);
    g = plan_of(b, "exaone4");
    if (g) {
        swa_expect e = {4, 4096, 1e6, 1e6, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 0};
        check_swa(g, 64, &e, "exaone4");
    }
    pe_plan_free(g);
    /* A file's integer pattern overrides the period. */
    b = swa_file("gemma2", 6);
    gb_u32(b, "gemma2.attention.sliding_window_pattern", 3);
    g = plan_of(b, "gemma2_pattern");
    if (g) {
        swa_expect e = {3, 4096, 1e6, 1e6, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 0};
        check_swa(g, 6, &e, "gemma2 with pattern 3");
    }
    pe_plan_free(g);
    /* An architecture llama.cpp reads no window for: full attention,
     * warned (Mistral 7B's GGUF is "llama" with a sliding_window key). */
    b = swa_file("llama", 4);
    gb_u32(b, "llama.attention.sliding_window", 4096);
    g = plan_of(b, "llama_window");
    if (g) {
        swa_expect e = {0, 0, 1e6, 1e6, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 0};
        check_swa(g, 4, &e, "llama with a window");
        CHECK(pe_plan_num_warnings(g) == 1 &&
              strstr(pe_plan_warning(g, 0), "llama.cpp runs every layer of 'llama' with full "
                                            "attention") != NULL);
    }
    pe_plan_free(g);
}

/* Rules a converter's output does not vary, each probed on one small file:
 * an array sliding_window_pattern is ignored where the architecture reads
 * a uint32_t period (llama-model-loader.cpp:498-518 returns false for an
 * array); Llama 4's integer pattern (llama4.cpp:20); YaRN without
 * original_context_length runs n_ctx_orig_yarn = context_length
 * (llama-model.cpp:1187-1188); HunYuan-VL folds rope.scaling.alpha into the
 * base as b alpha^(d/(d-2)) (hunyuan-vl.cpp:7-11); a per-layer head_count
 * array gives n_head() of layer 0 (llama-model.cpp:1173, 1219); Mistral 3's
 * query temperature (mistral3.cpp:5-20, llama-graph.cpp:156-168). */
TEST(plan_gguf_rule_probes) {
    gguf_build *b = swa_file("gemma2", 6);
    const uint8_t arr[6] = {1, 1, 1, 0, 1, 1};
    gb_array(b, "gemma2.attention.sliding_window_pattern", 7 /* bool */, 6, arr);
    pe_plan *g = plan_of(b, "gemma2_array");
    if (g) {
        swa_expect e = {2, 4096, 1e6, 1e6, PE_SCALING_DEFAULT, PE_SCALING_DEFAULT, 0};
        check_swa(g, 6, &e, "gemma2 with an array pattern");
        CHECK(pe_plan_num_warnings(g) == 1 &&
              strstr(pe_plan_warning(g, 0), "is an array: llama.cpp reads an integer period for "
                                            "'gemma2' and keeps 2") != NULL);
    }
    pe_plan_free(g);
    b = swa_file("llama4", 6);
    gb_u32(b, "llama4.attention.sliding_window_pattern", 3);
    gb_u32(b, "llama4.attention.sliding_window", 1000); /* replaced by 8192 in code */
    g = plan_of(b, "llama4_pattern3");
    for (int64_t i = 0; g && i < 6; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        const int chunked = i % 3 < 2;
        /* the NoPE step stays 4 (hparams default, llama-hparams.h:219) */
        CHECK_MSG(L.rope == ((i + 1) % 4 != 0) &&
                      strcmp(L.layer_type, chunked ? "chunked_attention" : "full_attention") == 0 &&
                      L.chunk_size == (chunked ? 8192 : 0),
                  "llama4 pattern 3, layer %lld: %s rope %d", (long long)i, L.layer_type, L.rope);
    }
    pe_plan_free(g);
    b = swa_file("qwen2", 2);
    gb_u32(b, "qwen2.context_length", 32768);
    gb_str(b, "qwen2.rope.scaling.type", "yarn");
    gb_f32(b, "qwen2.rope.scaling.factor", 4.0f);
    g = plan_of(b, "yarn_no_orig");
    if (g) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 0, &L));
        CHECK(L.scaling == PE_SCALING_YARN && L.original_max_position == 32768);
    }
    pe_plan_free(g);
    b = swa_file("hunyuan_vl", 2);
    gb_f32(b, "hunyuan_vl.rope.scaling.alpha", 1000.0f);
    g = plan_of(b, "hunyuan_vl");
    if (g) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 0, &L));
        const long double want = 1e6L * powl(1000.0L, 64.0L / 62.0L);
        CHECK_MSG(fabsl((long double)L.base - want) <= 4e-16L * want &&
                      strstr(L.f32_inputs, "rope.scaling.alpha") != NULL,
                  "base %.17g want %.17Lg", L.base, want);
    }
    pe_plan_free(g);
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 3);
    gb_u32(b, "llama.embedding_length", 256);
    const uint32_t heads[3] = {4, 8, 8};
    gb_array(b, "llama.attention.head_count", 4 /* u32 */, 3, heads);
    g = plan_of(b, "head_array");
    for (int64_t i = 0; g && i < 3; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        CHECK(L.head_dim == 64 && L.rotary_dim == 64);
    }
    pe_plan_free(g);
    g = fixture("ministral-3-8b-instruct-2512.gguf");
    for (int64_t i = 0; g && i < pe_plan_num_layers(g); i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        CHECK(L.temperature.active && L.temperature.beta == (double)0.1f &&
              L.temperature.span == 16384 && L.temperature.offset == 0);
    }
    pe_plan_free(g);
}

/* Rules set in code outside the window (llama.cpp's load_hparams): the
 * scaling type "linear" when a factor comes without a type; SmolLM3's NoPE
 * step 4; Granite's rope.scaling.finetuned = false switching RoPE off. */
TEST(plan_gguf_code_defaults) {
    gguf_build *b = swa_file("qwen2", 2);
    gb_f32(b, "qwen2.rope.scaling.factor", 4.0f);
    pe_plan *g = plan_of(b, "linear_default");
    if (g) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 0, &L));
        CHECK(L.scaling == PE_SCALING_LINEAR && L.factor == 4.0);
    }
    pe_plan_free(g);
    b = gb_new(3);
    gb_str(b, "general.architecture", "smollm3");
    gb_u32(b, "smollm3.block_count", 36);
    gb_u32(b, "smollm3.context_length", 65536);
    gb_u32(b, "smollm3.embedding_length", 2048);
    gb_u32(b, "smollm3.attention.head_count", 16);
    gb_f32(b, "smollm3.rope.freq_base", 5e6f);
    g = plan_of(b, "smollm3");
    pe_plan *c = config("smollm3-3b.json");
    if (g && c) {
        for (int64_t i = 0; i < 36; i++) {
            pe_plan_layer L;
            CHECK_OK(pe_plan_layer_info(g, i, &L));
            CHECK_MSG(L.rope == ((i + 1) % 4 != 0), "smollm3 layer %lld", (long long)i);
        }
        /* the same NoPE layers as the config; only the pair layout of the
         * permuted Llama-family weights differs */
        check_diff(c, g, 1, "pair layout: config half, gguf interleaved", NULL);
    }
    pe_plan_free(g);
    pe_plan_free(c);
    b = swa_file("granite", 3);
    gb_bool(b, "granite.rope.scaling.finetuned", 0);
    g = plan_of(b, "granite");
    for (int64_t i = 0; g && i < 3; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        CHECK(!L.rope && L.attention);
    }
    pe_plan_free(g);
}

/* llama_model_rope_type() at llama.cpp 34af94cd9ab2, src/llama-model.cpp
 * lines 2588-2770, restated architecture by architecture (the names of
 * src/llama-arch.cpp LLM_ARCH_NAMES): every record of the registry gives
 * exactly this rope type, and every architecture here has a record. glm4,
 * glm4moe and hunyuan_vl choose MROPE by the file's sections; dflash by a
 * DeepSeek-V4 key (refused). */
TEST(plan_gguf_registry_restates_llama_model_rope_type) {
    static const char *const none[] = {"clip", "gpt2", "gptj", "mpt", "refact", "jina-bert-v2",
        "bloom", "mamba", "mamba2", "jamba", "t5", "t5encoder", "jais", "nemotron_h",
        "nemotron_h_moe", "rwkv6", "rwkv6qwen2", "rwkv7", "arwkv7", "wavtokenizer-dec",
        "kimi-linear", "kimi-k3"};
    static const char *const norm[] = {"llama", "llama4", "deci", "baichuan", "starcoder",
        "neo-bert", "internlm2", "minicpm", "xverse", "command-r", "cohere2", "cohere2moe",
        "olmo", "muse-glimmer", "arctic", "deepseek", "deepseek2", "deepseek2-ocr", "deepseek32",
        "deepseek4", "chatglm", "glm-dsa", "granite", "granitemoe", "granitehybrid",
        "graniteswitch", "chameleon", "plm", "bailingmoe", "bailingmoe3", "arcee", "ernie4_5",
        "ernie4_5-moe", "smollm3", "llada", "mistral3", "eagle3", "mistral4", "llama-embed",
        "maincoder", "nanbeige", "pockettts"};
    static const char *const neox[] = {"falcon", "grok", "gptneox", "bert", "modern-bert",
        "nomic-bert", "nomic-bert-moe", "jina-bert-v3", "eurobert", "stablelm", "qwen", "qwen2",
        "qwen2moe", "qwen3", "qwen3moe", "qwen3next", "phi2", "phi3", "phimoe", "plamo",
        "plamo2", "plamo3", "codeshell", "orion", "minicpm3", "gemma", "gemma2", "gemma3",
        "gemma3n", "gemma4", "gemma4-assistant", "gemma-embedding", "starcoder2", "falcon-h1",
        "dbrx", "olmo2", "olmoe", "openelm", "bitnet", "jais2", "nemotron", "exaone", "exaone4",
        "exaone-moe", "bailingmoe2", "dots1", "afmoe", "laguna", "hunyuan-moe", "hunyuan-dense",
        "hy_v3", "gpt-oss", "lfm2", "lfm2moe", "dream", "smallthinker", "llada-moe", "seed_oss",
        "grovemoe", "apertus", "minimax-01", "minimax-m2", "minimax-m3", "cogvlm", "rnd1",
        "pangu-embedded", "mimo2", "step35", "talkie", "mellum"};
    static const char *const mrope[] = {"qwen2vl", "paddleocr"};
    static const char *const imrope[] = {"qwen3vl", "qwen3vlmoe", "qwen35", "qwen35moe",
        "qwen3tts"};
    static const struct {
        const char *const *names;
        size_t n;
        const char *type;
    } groups[] = {
        {none, sizeof none / sizeof *none, "none"},
        {norm, sizeof norm / sizeof *norm, "norm"},
        {neox, sizeof neox / sizeof *neox, "neox"},
        {mrope, sizeof mrope / sizeof *mrope, "mrope"},
        {imrope, sizeof imrope / sizeof *imrope, "imrope"},
    };
    static const char *const by_file[][2] = {
        {"glm4", "mrope|norm"}, {"glm4moe", "mrope|neox"}, {"hunyuan_vl", "mrope|neox"}};
    size_t total = 3 + 1; /* by_file and dflash */
    for (size_t k = 0; k < sizeof groups / sizeof *groups; k++) {
        total += groups[k].n;
        for (size_t i = 0; i < groups[k].n; i++) {
            int found = 0;
            for (int64_t r = 0; r < pe_gguf_arch_count(); r++) {
                pe_gguf_arch_info a;
                CHECK_OK(pe_gguf_arch_get(r, &a));
                if (strcmp(a.arch, groups[k].names[i]) != 0) continue;
                found = 1;
                CHECK_MSG(strcmp(a.rope_type, groups[k].type) == 0, "%s: %s, llama.cpp %s", a.arch,
                          a.rope_type, groups[k].type);
                /* a RoPE type means rotated attention unless the record
                 * refuses or names another kind its graph uses */
                CHECK_MSG(a.refusal != NULL || strcmp(groups[k].type, "none") == 0 ||
                              a.position == PE_POSITION_ROPE ||
                              strcmp(a.arch, "starcoder") == 0 || strcmp(a.arch, "bert") == 0,
                          "%s: kind %d", a.arch, (int)a.position);
                CHECK_MSG(strstr(a.source, "src/llama-model.cpp:") == a.source, "%s: %s", a.arch,
                          a.source);
            }
            CHECK_MSG(found, "%s has no record", groups[k].names[i]);
        }
    }
    for (size_t i = 0; i < sizeof by_file / sizeof *by_file; i++) {
        pe_gguf_arch_info a;
        int found = 0;
        for (int64_t r = 0; r < pe_gguf_arch_count(); r++) {
            CHECK_OK(pe_gguf_arch_get(r, &a));
            if (strcmp(a.arch, by_file[i][0]) == 0) {
                found = 1;
                CHECK_MSG(strcmp(a.rope_type, by_file[i][1]) == 0, "%s: %s", a.arch, a.rope_type);
            }
        }
        CHECK_MSG(found, "%s has no record", by_file[i][0]);
    }
    CHECK_MSG((size_t)pe_gguf_arch_count() == total, "%lld records, llama.cpp %zu",
              (long long)pe_gguf_arch_count(), total);
    /* the kinds of the architectures llama.cpp gives no RoPE, from their
     * graphs: src/models/bloom.cpp:18 (f_max_alibi_bias 8), mpt.cpp:6,
     * gpt2.cpp:74 (pos_embd rows), mamba.cpp / rwkv6.cpp (no attention) */
    static const struct {
        const char *arch;
        pe_position_kind kind;
    } kinds[] = {{"bloom", PE_POSITION_ALIBI}, {"mpt", PE_POSITION_ALIBI},
                 {"jais", PE_POSITION_ALIBI}, {"refact", PE_POSITION_ALIBI},
                 {"gpt2", PE_POSITION_LEARNED}, {"starcoder", PE_POSITION_LEARNED},
                 {"mamba", PE_POSITION_NONE}, {"rwkv6", PE_POSITION_NONE}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        for (int64_t r = 0; r < pe_gguf_arch_count(); r++) {
            pe_gguf_arch_info a;
            CHECK_OK(pe_gguf_arch_get(r, &a));
            if (strcmp(a.arch, kinds[i].arch) == 0)
                CHECK_MSG(a.position == kinds[i].kind && a.refusal == NULL, "%s: %d", a.arch,
                          (int)a.position);
        }
}

/* The fixtures whose every layer agrees with the config's plan (bases and
 * factors exact in float32, llama.cpp's rules matching the HF code's),
 * and those whose only difference is the pair layout a Llama-family
 * conversion permutes its q/k weights to. */
TEST(plan_gguf_fixtures_equal_their_configs) {
    static const char *const equal[] = {
        "c4ai-command-r7b-12-2024", "gemma-2-9b-it", "gemma-3-1b-it", "gemma-3-4b-it",
        "gemma-3-27b-it", "glm-4-9b-0414", "glm-4.5-air", "gpt-neox-20b", "olmo-3-7b",
        "qwen2.5-7b-instruct-yarn", "qwen2.5-vl-7b-instruct", "qwen3-8b",
        "qwen3-next-80b-a3b-instruct", "qwen3-vl-8b-instruct"};
    static const char *const layout_only[] = {"granite-3.3-8b-instruct", "llama-2-7b",
                                              "smollm3-3b"};
    char name[96];
    for (size_t i = 0; i < sizeof equal / sizeof *equal; i++) {
        snprintf(name, sizeof name, "%s.gguf", equal[i]);
        pe_plan *g = fixture(name);
        snprintf(name, sizeof name, "%s.json", equal[i]);
        pe_plan *c = config(name);
        if (g && c) check_diff(c, g, 0, NULL, NULL);
        pe_plan_free(g);
        pe_plan_free(c);
    }
    for (size_t i = 0; i < sizeof layout_only / sizeof *layout_only; i++) {
        snprintf(name, sizeof name, "%s.gguf", layout_only[i]);
        pe_plan *g = fixture(name);
        snprintf(name, sizeof name, "%s.json", layout_only[i]);
        pe_plan *c = config(name);
        if (g && c) check_diff(c, g, 1, "pair layout: config half, gguf interleaved", NULL);
        pe_plan_free(g);
        pe_plan_free(c);
    }
}

/* Phi-3.5-mini, Phi-3-mini-128k and Phi-4-mini as conversion/phi.py writes
 * them (no rope.scaling.type; rope_factors_long/short as F32 tensors;
 * rope.scaling.attn_factor = float32(sqrt(1 + ln(L/L0) / ln L0)),
 * conversion/phi.py:189-202), run as llama.cpp runs them:
 * llama_model::get_rope_factors takes the long factors past
 * n_ctx_orig_yarn (original_context_length, 4096) and the short ones up to
 * it (src/llama-model.cpp:2077-2091); ggml's magnitude is the attn_factor
 * (llama-context.cpp:213, no YaRN). */
TEST(plan_gguf_phi3_longrope_from_tensors) {
    static const struct {
        const char *name;
        int64_t d, head;
        int own_config;
    } rows[] = {{"phi-3.5-mini-instruct", 96, 96, 0},
                {"phi-3-mini-128k-instruct", 96, 96, 0},
                {"phi-4-mini-instruct", 96, 128, 1}};
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char name[96];
        snprintf(name, sizeof name, "%s.gguf", rows[r].name);
        pe_plan *g = fixture(name);
        snprintf(name, sizeof name, "%s.json", rows[r].name);
        pe_plan *c = rows[r].own_config ? gguf_config(name) : config(name);
        if (g == NULL || c == NULL) {
            pe_plan_free(g);
            pe_plan_free(c);
            continue;
        }
        /* the config's factor lists: the values the converter rounds */
        pe_rope_scaling sc;
        CHECK_OK(pe_plan_layer_scaling(c, 0, 131072, &sc));
        const long double A = (long double)(float)sqrtl(1.0L + logl(32.0L) / logl(4096.0L));
        for (int pass = 0; pass < 2; pass++) {
            const int64_t seq = pass ? 131072 : 4096; /* long past L0, short at it */
            const double *list = pass ? sc.long_factor : sc.short_factor;
            pe_freqs f;
            CHECK_OK(pe_plan_layer_freqs(g, 31, seq, &f, NULL));
            long double worst = 0;
            for (int64_t i = 0; i < rows[r].d / 2; i++) {
                long double want = powl(10000.0L, -(long double)(2 * i) / rows[r].d) /
                                   (long double)(float)list[i];
                long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
                long double e = fabsl(got - want) / want;
                if (e > worst) worst = e;
            }
            /* 4 double ulps: powl and the library's double-double agree far
             * closer; under valgrind (long double run as double) powl itself
             * is off by a few ulps of the exponent's logarithm */
            CHECK_MSG(worst <= 4 * 2.220446049250313e-16L + 64 * (long double)pe_test_ld_eps() &&
                          f.rotary_dim == rows[r].d &&
                          fabsl((long double)f.attention_factor - A) <= 0,
                      "%s seq %lld: worst %Lg, d %lld, A %.17g want %.17Lg", rows[r].name,
                      (long long)seq, worst, (long long)f.rotary_dim, f.attention_factor, A);
        }
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 0, &L));
        CHECK(L.scaling == PE_SCALING_LONGROPE && L.head_dim == rows[r].head &&
              strstr(L.f32_inputs, "rope_factors_long/short") != NULL);
        /* against the config: Phi-3's SWA switched off by llama.cpp
         * (src/models/phi3.cpp:15-24) and A through float32, which the
         * comparison predicts from the config's own A rounded */
        pe_plan_diff *d = compare(c, g);
        int a_line = 0, window = 0;
        for (int64_t k = 0; d && k < pe_plan_diff_count(d); k++) {
            const char *line = pe_plan_diff_line(d, k);
            if (strstr(line, "magnitude A") &&
                strstr(line, "float32 storage explains it (") != NULL)
                a_line = 1;
            if (strstr(line, "sliding window: config 262144, gguf 0")) window = 1;
            CHECK_MSG(!strstr(line, "does not explain"), "%s: %s", rows[r].name, line);
        }
        CHECK_MSG(a_line && window, "%s: A line %d window line %d", rows[r].name, a_line, window);
        pe_plan_diff_free(d);
        pe_plan_free(g);
        pe_plan_free(c);
    }
}

/* Kimi K2 and DeepSeek V3 as conversion/deepseek.py writes them (yarn,
 * yarn_beta_fast/slow from the config, yarn_log_multiplier = 0.1 *
 * mscale_all_dim in float32, key_length 576 = the MLA latent), run as
 * llama.cpp runs them: betas 32 / 1 (llama_hparams defaults,
 * src/llama-hparams.h:142-143; only grok.cpp:26 and mistral3.cpp:7 read the
 * keys), mscale_all_dim = float(0.1 m) / 0.1 (src/models/deepseek2.cpp:34-38),
 * A = get_mscale(f, m) / get_mscale(f, m) = 1 and the softmax scale times
 * (1 + 0.1 m ln f)^2 (deepseek2.cpp:315-319, llama-context.cpp:184-213). */
TEST(plan_gguf_deepseek_yarn_as_llama_cpp_runs_it) {
    static const struct {
        const char *name;
        double base, factor;
        int64_t orig;
    } rows[] = {{"kimi-k2-instruct", 50000, 32, 4096}, {"deepseek-v3", 10000, 40, 4096}};
    for (size_t r = 0; r < 2; r++) {
        char name[96];
        snprintf(name, sizeof name, "%s.gguf", rows[r].name);
        pe_plan *g = fixture(name);
        if (g == NULL) continue;
        CHECK(pe_plan_num_layers(g) == 61);
        pe_freqs f;
        CHECK_OK(pe_plan_layer_freqs(g, 0, 0, &f, NULL));
        /* YaRN restated: ramp over corr(32)..corr(1), floor / ceil */
        const long double d = 64, b = rows[r].base, F = rows[r].factor, L0 = (long double)rows[r].orig;
        long double lo = floorl(d * logl(L0 / (32 * 2 * PI_L)) / (2 * logl(b)));
        long double hi = ceill(d * logl(L0 / (1 * 2 * PI_L)) / (2 * logl(b)));
        if (lo < 0) lo = 0;
        if (hi > d - 1) hi = d - 1;
        long double worst = 0;
        for (int i = 0; i < 32; i++) {
            long double w = powl(b, -2.0L * i / d);
            long double ramp = (i - lo) / (hi - lo);
            if (ramp < 0) ramp = 0;
            if (ramp > 1) ramp = 1;
            long double keep = 1 - ramp; /* 1: extrapolated (fast), 0: interpolated */
            long double want = w / F * (1 - keep) + w * keep;
            long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
            long double e = fabsl(got - want) / want;
            if (e > worst) worst = e;
        }
        const long double m = (long double)(float)0.1 / 0.1L;
        const long double soft = (1 + 0.1L * m * logl(F)) * (1 + 0.1L * m * logl(F));
        CHECK_MSG(worst <= 8 * 2.220446049250313e-16L && f.attention_factor == 1.0 &&
                      fabsl((long double)f.softmax_scale_multiplier - soft) <= 4e-16L * soft,
                  "%s: worst %Lg A %.17g softmax %.17g want %.17Lg", rows[r].name, worst,
                  f.attention_factor, f.softmax_scale_multiplier, soft);
        int warned = 0;
        for (int64_t w = 0; w < pe_plan_num_warnings(g); w++)
            if (strstr(pe_plan_warning(g, w), "runs 32 / 1")) warned = 1;
        CHECK(warned);
        /* the config's plan: the MLA head differs, and the frequencies are
         * still compared after it (Kimi's config betas 1 / 1 are not what
         * llama.cpp runs, which float32 does not explain) */
        snprintf(name, sizeof name, "%s.json", rows[r].name);
        pe_plan *c = config(name);
        pe_plan_diff *dd = c ? compare(c, g) : NULL;
        int dims = 0, freq = 0;
        for (int64_t k = 0; dd && k < pe_plan_diff_count(dd); k++) {
            const char *line = pe_plan_diff_line(dd, k);
            if (strstr(line, "dims: config rotary 64 of head 64, gguf rotary 64 of head 576"))
                dims = 1;
            if (strstr(line, "inv_freq differ") && strstr(line, "float32 storage does not explain it"))
                freq = 1;
        }
        CHECK_MSG(dims && freq == (r == 0), "%s: dims %d freq %d", rows[r].name, dims, freq);
        pe_plan_diff_free(dd);
        pe_plan_free(c);
        pe_plan_free(g);
    }
}

/* The hybrid Qwens as conversion/qwen.py writes them (the MTP block counted
 * in block_count, nextn_predict_layers 1, full_attention_interval 4), run
 * as llama.cpp runs them (src/models/qwen3next.cpp:3-30, qwen35moe.cpp:3-34):
 * n_layer = block_count - nextn (llama-hparams.cpp:297), layer i recurrent
 * (linear attention: kind none) unless (i + 1) % 4 == 0; Qwen3.5/3.6 rotate
 * with IMROPE (llama-model.cpp:2741-2746), sections [11, 11, 10]. */
TEST(plan_gguf_hybrid_qwen_layers) {
    static const struct {
        const char *name;
        int64_t layers;
        int mrope;
    } rows[] = {{"qwen3-next-80b-a3b-instruct.gguf", 48, 0}, {"qwen3.6-35b-a3b.gguf", 40, 1}};
    for (size_t r = 0; r < 2; r++) {
        pe_plan *g = fixture(rows[r].name);
        if (g == NULL) continue;
        CHECK_MSG(pe_plan_num_layers(g) == rows[r].layers, "%s: %lld layers", rows[r].name,
                  (long long)pe_plan_num_layers(g));
        for (int64_t i = 0; i < pe_plan_num_layers(g); i++) {
            pe_plan_layer L;
            pe_plan_position pos;
            CHECK_OK(pe_plan_layer_info(g, i, &L));
            CHECK_OK(pe_plan_layer_position(g, i, &pos));
            const int full = (i + 1) % 4 == 0;
            if (full)
                CHECK_MSG(L.rope && pos.kind == PE_POSITION_ROPE && L.rotary_dim == 64 &&
                              L.head_dim == 256 && L.layout == PE_ROPE_HALF &&
                              L.n_mrope_section == (rows[r].mrope ? 3 : 0) &&
                              L.mrope_interleaved == rows[r].mrope &&
                              (!rows[r].mrope || (L.mrope_section[0] == 11 &&
                                                  L.mrope_section[1] == 11 &&
                                                  L.mrope_section[2] == 10)),
                          "%s layer %lld", rows[r].name, (long long)i);
            else
                CHECK_MSG(!L.attention && !L.rope && pos.kind == PE_POSITION_NONE &&
                              strcmp(pos.why, "linear_attention") == 0,
                          "%s layer %lld", rows[r].name, (long long)i);
        }
        pe_plan_free(g);
    }
    /* the Qwen3.6 config's plan: the same layers, interleaved sections */
    pe_plan *g = fixture("qwen3.6-35b-a3b.gguf");
    pe_plan *c = gguf_config("qwen3.6-35b-a3b.json");
    if (g && c) check_diff(c, g, 0, NULL, NULL);
    pe_plan_free(g);
    pe_plan_free(c);
}

/* Compare mode's float32 verdicts, each predicted: Llama 3.1's divisors
 * differ within float32 precision but are not the rounded exact divisors
 * (conversion/llama.py:304-326 computes them from float32 frequencies);
 * gpt-oss's differ by HF's untruncated YaRN ("truncate": false), which
 * float32 cannot explain. */
TEST(plan_gguf_compare_predicts_float32) {
    pe_plan *g = fixture("llama-3.1-8b.gguf");
    pe_plan *c = config("llama-3.1-8b.json");
    if (g && c) {
        pe_plan_diff *d = compare(c, g);
        CHECK(d && pe_plan_diff_count(d) == 2 &&
              strstr(pe_plan_diff_line(d, 1), "within float32 precision") != NULL);
        pe_plan_diff_free(d);
    }
    pe_plan_free(g);
    pe_plan_free(c);
    g = fixture("gpt-oss-20b.gguf");
    c = config("gpt-oss-20b.json");
    if (g && c) check_diff(c, g, 1, "layers 0-23: inv_freq differ", "float32 storage does not explain it");
    pe_plan_free(g);
    pe_plan_free(c);
    /* M-RoPE interleaving compared: Qwen3-VL's file read as qwen2vl on
     * purpose (blocked sections) against its own config (interleaved) */
    g = NULL;
    CHECK_OK(pe_plan_from_gguf_as("tests/fixtures/gguf/qwen3-vl-8b-instruct.gguf", "qwen2vl", &g));
    c = config("qwen3-vl-8b-instruct.json");
    if (g && c)
        check_diff(c, g, 1, "M-RoPE sections: config [24,20,20] interleaved, gguf [24,20,20] blocked",
                   NULL);
    pe_plan_free(g);
    pe_plan_free(c);
}

/* The GGUF reader on files llama.cpp's converter wrote: the keys and
 * tensors each conversion class writes (conversion/phi.py:180-205,
 * deepseek.py, qwen.py, olmo.py, llama.py:300-326 at 34af94cd9ab2), read
 * back with their stored types. */
TEST(gguf_reader_on_llama_cpp_fixtures) {
    pe__gguf_rope *g = NULL;
    CHECK_OK(pe__gguf_rope_read("tests/fixtures/gguf/phi-3.5-mini-instruct.gguf", &g));
    if (g) {
        CHECK(g->version == 3 && g->n_tensors == 2 && strcmp(g->architecture, "phi3") == 0);
        CHECK(g->rope_scaling_type == NULL && !g->rope_scaling_factor.present);
        CHECK(g->rope_scaling_attn_factor.present && g->rope_scaling_attn_factor.type == PE_GGUF_F32 &&
              g->rope_scaling_attn_factor.value == (double)(float)sqrt(1 + log(32.0) / log(4096.0)));
        CHECK(g->rope_factors_long.present && g->rope_factors_long.count == 48 &&
              g->rope_factors_long.ggml_type == 0 && g->rope_factors_short.count == 48);
        CHECK(g->rope_scaling_original_context_length.value == 4096 &&
              g->context_length.value == 131072 && g->sliding_window.value == 262144);
        pe__gguf_rope_free(g);
    }
    g = NULL;
    CHECK_OK(pe__gguf_rope_read("tests/fixtures/gguf/kimi-k2-instruct.gguf", &g));
    if (g) {
        /* the config's betas 1 / 1 as written, which llama.cpp never reads */
        CHECK(g->yarn_beta_fast.value == 1.0 && g->yarn_beta_slow.value == 1.0 &&
              g->yarn_log_multiplier.type == PE_GGUF_F32 &&
              g->yarn_log_multiplier.value == (double)0.1f && g->key_length.value == 576 &&
              g->rope_dimension_count.value == 64 && g->block_count.value == 61);
        pe__gguf_rope_free(g);
    }
    g = NULL;
    CHECK_OK(pe__gguf_rope_read("tests/fixtures/gguf/qwen3.6-35b-a3b.gguf", &g));
    if (g) {
        pe__gguf_value v;
        CHECK(g->block_count.value == 41 && g->dimension_sections_count == 4 &&
              g->dimension_sections[0] == 11 && g->dimension_sections[2] == 10 &&
              g->dimension_sections[3] == 0);
        CHECK(pe__gguf_find(g, "qwen35moe.nextn_predict_layers", &v) && v.u == 1 &&
              pe__gguf_find(g, "qwen35moe.full_attention_interval", &v) && v.u == 4);
        pe__gguf_rope_free(g);
    }
    g = NULL;
    CHECK_OK(pe__gguf_rope_read("tests/fixtures/gguf/olmo-3-7b.gguf", &g));
    if (g) {
        /* OLMo 3's per-layer pattern, written as a bool array */
        CHECK(g->swa_pattern_present && g->swa_pattern_is_array && g->swa_pattern_count == 32 &&
              g->swa_pattern_layers[0] && !g->swa_pattern_layers[3]);
        pe__gguf_rope_free(g);
    }
    g = NULL;
    CHECK_OK(pe__gguf_rope_read("tests/fixtures/gguf/llama-3.1-8b.gguf", &g));
    if (g) {
        CHECK(g->rope_freqs.present && g->rope_freqs.count == 64 && g->rope_freqs.ggml_type == 0 &&
              g->rope_freqs.values[0] == 1.0 && g->rope_freqs.values[63] == 8.0);
        pe__gguf_rope_free(g);
    }
}

/* The architectures llama.cpp gives no RoPE, as its converter writes them:
 * GPT-2's learned rows (src/models/gpt2.cpp:19, 74: n_ctx_train rows of
 * n_embd) and MPT's ALiBi (mpt.cpp:6; ggml's soft_max_ext slopes, Press et
 * al.'s at max bias 8, which for MPT-7B's 32 heads equal MPT's own) agree
 * with the configs' plans; Falcon-RW's file is a falcon architecture,
 * which llama.cpp rotates (NEOX, llama-model.cpp:2665) whatever the
 * config's "alibi": true: the comparison names the kinds. LFM2 and T5 are
 * refused by name. */
TEST(plan_gguf_non_rope_architectures) {
    static const char *const equal[] = {"gpt2", "mpt-7b"};
    char name[64];
    for (size_t i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "%s.gguf", equal[i]);
        pe_plan *g = fixture(name);
        snprintf(name, sizeof name, "%s.json", equal[i]);
        pe_plan *c = config(name);
        if (g && c) check_diff(c, g, 0, NULL, NULL);
        pe_plan_free(c);
        for (int64_t l = 0; g && l < pe_plan_num_layers(g); l++) {
            pe_plan_position pos;
            CHECK_OK(pe_plan_layer_position(g, l, &pos));
            if (i == 0) {
                pe_plan_learned L;
                CHECK(pos.kind == PE_POSITION_LEARNED && pe_plan_layer_learned(g, l, &L) == PE_OK &&
                      L.rows == 1024 && L.offset == 0 && L.dim == 768);
            } else {
                double s[32];
                CHECK(pos.kind == PE_POSITION_ALIBI &&
                      pe_plan_layer_alibi_slopes(g, l, s, NULL) == PE_OK);
                for (int h = 0; h < 32; h++) /* 2^(-8(h+1)/32) */
                    CHECK(s[h] == (double)exp2l(-8.0L * (h + 1) / 32));
            }
        }
        pe_plan_free(g);
    }
    pe_plan *g = fixture("falcon-rw-1b.gguf");
    pe_plan *c = config("falcon-rw-1b.json");
    if (g && c) check_diff(c, g, 1, "layers 0-23: positions: config alibi, gguf rope", NULL);
    pe_plan_free(g);
    pe_plan_free(c);
    pe_plan *p = NULL;
    CHECK(pe_plan_from_gguf("tests/fixtures/gguf/t5-small.gguf", &p) == PE_ERR_UNSUPPORTED &&
          strstr(pe_last_error(), "GGUF architecture 't5': T5 relative buckets") != NULL && p == NULL);
}

/* The hybrids as llama.cpp 34af94cd9ab2 runs them, on converter-written
 * files. LFM2 (lfm2.cpp:9-11): layer i is a short convolution iff
 * attention.head_count_kv[i] == 0; the converter (conversion/lfm2.py) writes
 * 0 for the layers its config's layer_types does not call full_attention, so
 * 2, 5, 8, 10, 12 and 14 of 16 attend, rotated NEOX (llama-model.cpp:2713)
 * at rope_theta 1e6 over the whole head, 2048 / 32 = 64. Jamba (jamba.cpp:
 * 11-13, rope type NONE at llama-model.cpp:2599): the converter
 * (conversion/jamba.py) gives the layers i % attn_layer_period ==
 * attn_layer_offset (8, 4) their 8 KV heads, the rest 0: layers 4, 12, 20,
 * 28 of 32 attend without any position, the others are Mamba. */
TEST(plan_gguf_hybrid_layers_from_head_count_kv) {
    static const struct {
        const char *file;
        int64_t layers;
    } rows[] = {{"lfm2-1.2b.gguf", 16}, {"ai21-jamba-1.5-mini.gguf", 32}};
    for (size_t r = 0; r < 2; r++) {
        pe_plan *g = fixture(rows[r].file);
        if (g == NULL) continue;
        CHECK_MSG(pe_plan_num_layers(g) == rows[r].layers, "%s: %lld layers", rows[r].file,
                  (long long)pe_plan_num_layers(g));
        for (int64_t i = 0; i < pe_plan_num_layers(g); i++) {
            pe_plan_layer L;
            pe_plan_position pos;
            CHECK_OK(pe_plan_layer_info(g, i, &L));
            CHECK_OK(pe_plan_layer_position(g, i, &pos));
            int attends;
            if (r == 0)
                attends = i == 2 || i == 5 || i == 8 || i == 10 || i == 12 || i == 14;
            else
                attends = i % 8 == 4;
            int ok;
            if (!attends)
                ok = !L.attention && !L.rope && pos.kind == PE_POSITION_NONE &&
                     strcmp(pos.why, r == 0 ? "shortconv" : "mamba") == 0;
            else if (r == 0)
                ok = L.attention && L.rope && pos.kind == PE_POSITION_ROPE &&
                     L.layout == PE_ROPE_HALF && L.base == 1e6 && L.head_dim == 64 &&
                     L.rotary_dim == 64 && L.scaling == PE_SCALING_DEFAULT &&
                     L.sliding_window == 0;
            else
                ok = L.attention && !L.rope && pos.kind == PE_POSITION_NOPE &&
                     L.head_dim == 4096 / 32;
            CHECK_MSG(ok, "%s layer %lld: attention %d rope %d kind %d", rows[r].file,
                      (long long)i, L.attention, L.rope, (int)pos.kind);
        }
        if (r == 0) {
            /* the frequencies llama.cpp's NEOX rope runs: 1e6^(-2i/64) */
            pe_freqs f;
            CHECK_OK(pe_plan_layer_freqs(g, 2, 0, &f, NULL));
            CHECK(f.rotary_dim == 64 && f.attention_factor == 1.0);
            for (int k = 0; k < 32; k++) {
                const long double want = powl(1e6L, -2.0L * k / 64.0L);
                const long double got = (long double)f.inv_freq[k] + f.inv_freq_lo[k];
                /* 4 double ulps, as the Phi-3 rows above (powl under valgrind) */
                CHECK_MSG(fabsl(got - want) <= (4 * 2.220446049250313e-16L +
                                                64 * (long double)pe_test_ld_eps()) * want,
                          "lfm2 w[%d] = %.17Lg, want %.17Lg", k, got, want);
            }
        }
        /* the configs' plans (Hugging Face's "conv" / "attention" layer
         * names against llama.cpp's "shortconv" / "full_attention"): the
         * same positions, so compare mode reports nothing */
        pe_plan *c = r == 0 ? config("lfm2-1.2b.json") : gguf_config("ai21-jamba-1.5-mini.json");
        if (c) check_diff(c, g, 0, NULL, NULL);
        pe_plan_free(c);
        pe_plan_free(g);
    }
    /* Across sources a name still counts when it changes the attention
     * pattern, and a chunk difference is always reported: Llama 4 with
     * chunks (window absent: 8192 in code) against one without (window 0) */
    gguf_build *b = swa_file("llama4", 4);
    pe_plan *chunked = plan_of(b, "llama4_chunked");
    b = swa_file("llama4", 4);
    gb_u32(b, "llama4.attention.sliding_window", 0);
    pe_plan *plain = plan_of(b, "llama4_plain");
    if (chunked && plain) {
        pe_plan_diff *d = compare(chunked, plain);
        int seen = 0;
        for (int64_t k = 0; d && k < pe_plan_diff_count(d); k++)
            if (strstr(pe_plan_diff_line(d, k), "layers 0-2: attention chunk: gguf 8192, gguf 0"))
                seen = 1;
        CHECK_MSG(seen, "no chunk line among %lld", d ? (long long)pe_plan_diff_count(d) : -1LL);
        pe_plan_diff_free(d);
    }
    pe_plan_free(chunked);
    pe_plan_free(plain);
}

/* Hybrid rules no fixture here exercises, each on a probe file (llama.cpp
 * 34af94cd9ab2): MiniMax-01 (minimax-01.cpp:11-18) without a
 * recurrent_layers key is lightning attention unless (i + 1) % 8 == 0;
 * Nemotron-H (nemotron-h.cpp:14-18, graph 191-198) is Mamba where
 * head_count_kv and feed_forward_length are both 0, attention (no RoPE:
 * rope type NONE, llama-model.cpp:2609) where only the FFN is 0, an MLP
 * block elsewhere, its NextN block excluded; Granite 4 hybrids
 * (granite-hybrid.cpp:16-24) rotate their attention layers only when
 * rope.scaling.finetuned is true (its converter writes false for a hybrid,
 * conversion/granite.py use_rope); Falcon-H1 (falcon-h1.cpp:14, graph
 * 142-146) rotates every layer beside its SSM. */
TEST(plan_gguf_hybrid_rule_probes) {
    gguf_build *b = swa_file("minimax-01", 16);
    pe_plan *g = plan_of(b, "minimax01");
    for (int64_t i = 0; g && i < 16; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        const int full = (i + 1) % 8 == 0;
        CHECK_MSG(L.attention == full && L.rope == full &&
                      strcmp(L.layer_type, full ? "full_attention" : "lightning_attention") == 0,
                  "minimax-01 layer %lld: %s", (long long)i, L.layer_type);
    }
    pe_plan_free(g);

    b = gb_new(3);
    gb_str(b, "general.architecture", "nemotron_h");
    gb_u32(b, "nemotron_h.block_count", 7);
    gb_u32(b, "nemotron_h.embedding_length", 512);
    gb_u32(b, "nemotron_h.attention.head_count", 8);
    gb_u32(b, "nemotron_h.attention.key_length", 128);
    gb_u32(b, "nemotron_h.nextn_predict_layers", 1);
    /* M - * M * M (MTP): Mamba, MLP, attention, Mamba, attention, Mamba; the 7th is NextN */
    const uint32_t kv[7] = {0, 0, 2, 0, 2, 0, 2};
    const uint32_t ff[7] = {0, 1024, 0, 0, 0, 0, 1024};
    gb_array(b, "nemotron_h.attention.head_count_kv", 4 /* u32 */, 7, kv);
    gb_array(b, "nemotron_h.feed_forward_length", 4 /* u32 */, 7, ff);
    g = plan_of(b, "nemotron_h");
    if (g) CHECK(pe_plan_num_layers(g) == 6);
    static const int role[6] = {0, 2, 1, 0, 1, 0}; /* 0 Mamba, 1 attention, 2 MLP */
    for (int64_t i = 0; g && i < 6; i++) {
        pe_plan_layer L;
        pe_plan_position pos;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        CHECK_OK(pe_plan_layer_position(g, i, &pos));
        int ok = !L.rope;
        if (role[i] == 1) ok = ok && L.attention && pos.kind == PE_POSITION_NOPE && L.head_dim == 128;
        else
            ok = ok && !L.attention && pos.kind == PE_POSITION_NONE &&
                 strcmp(pos.why, role[i] == 0 ? "mamba2" : "mlp") == 0;
        CHECK_MSG(ok, "nemotron_h layer %lld: %s kind %d", (long long)i, L.layer_type, (int)pos.kind);
    }
    pe_plan_free(g);

    for (int finetuned = 0; finetuned < 2; finetuned++) {
        b = swa_file("granitehybrid", 4);
        gb_u32(b, "granitehybrid.attention.head_count", 4);
        const uint32_t gkv[4] = {0, 0, 0, 4};
        gb_array(b, "granitehybrid.attention.head_count_kv", 4 /* u32 */, 4, gkv);
        gb_bool(b, "granitehybrid.rope.scaling.finetuned", finetuned);
        g = plan_of(b, finetuned ? "granitehybrid_rope" : "granitehybrid_nope");
        for (int64_t i = 0; g && i < 4; i++) {
            pe_plan_layer L;
            CHECK_OK(pe_plan_layer_info(g, i, &L));
            CHECK_MSG(L.attention == (i == 3) && L.rope == (i == 3 && finetuned) &&
                          (i != 3 || !finetuned || L.layout == PE_ROPE_INTERLEAVED),
                      "granitehybrid finetuned %d layer %lld", finetuned, (long long)i);
        }
        pe_plan_free(g);
    }

    /* PLaMo 2 (plamo2.cpp:18-20): a 0 in head_count_kv marks Mamba. Its
     * converter (conversion/plamo.py) also writes head_count per layer with
     * 0 on the Mamba layers, layer 0 among them: llama-model.cpp:1212-1235
     * then sets n_rot to 0 (n_head() is layer 0's), so the attention layers
     * run unrotated; with a scalar head_count they rotate (NEOX). */
    for (int scalar = 0; scalar < 2; scalar++) {
        b = gb_new(3);
        gb_str(b, "general.architecture", "plamo2");
        gb_u32(b, "plamo2.block_count", 4);
        gb_u32(b, "plamo2.embedding_length", 2048);
        gb_u32(b, "plamo2.attention.key_length", 128);
        gb_f32(b, "plamo2.rope.freq_base", 1e4f);
        const uint32_t pkv[4] = {0, 4, 0, 4}, pheads[4] = {0, 32, 0, 32};
        gb_array(b, "plamo2.attention.head_count_kv", 4 /* u32 */, 4, pkv);
        if (scalar) gb_u32(b, "plamo2.attention.head_count", 32);
        else gb_array(b, "plamo2.attention.head_count", 4 /* u32 */, 4, pheads);
        g = plan_of(b, scalar ? "plamo2_scalar" : "plamo2_array");
        for (int64_t i = 0; g && i < 4; i++) {
            pe_plan_layer L;
            pe_plan_position pos;
            CHECK_OK(pe_plan_layer_info(g, i, &L));
            CHECK_OK(pe_plan_layer_position(g, i, &pos));
            int ok;
            if (i % 2 == 0) ok = !L.attention && pos.kind == PE_POSITION_NONE && strcmp(pos.why, "mamba") == 0;
            else if (scalar) ok = L.attention && L.rope && L.layout == PE_ROPE_HALF && L.rotary_dim == 128;
            else ok = L.attention && !L.rope && pos.kind == PE_POSITION_NOPE && strcmp(pos.why, "n_rot_0") == 0;
            CHECK_MSG(ok, "plamo2 (%s head_count) layer %lld", scalar ? "scalar" : "array", (long long)i);
        }
        if (g) CHECK(pe_plan_num_warnings(g) == (scalar ? 0 : 1));
        pe_plan_free(g);
    }

    /* Nanbeige (nanbeige.cpp:6-32): num_loops 3 over 2 blocks runs 6 layers, all NORM RoPE */
    b = swa_file("nanbeige", 2);
    gb_u32(b, "nanbeige.num_loops", 3);
    g = plan_of(b, "nanbeige");
    if (g) CHECK(pe_plan_num_layers(g) == 6);
    for (int64_t i = 0; g && i < 6; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        CHECK(L.attention && L.rope && L.layout == PE_ROPE_INTERLEAVED && L.base == 1e6);
    }
    pe_plan_free(g);

    /* LFM2 with a window (lfm2.cpp:24-29): every attention layer slides at
     * the full base; it reads no pattern key, so one in the file is a
     * warning and changes nothing */
    b = swa_file("lfm2", 4);
    gb_u32(b, "lfm2.attention.sliding_window", 512);
    gb_u32(b, "lfm2.attention.sliding_window_pattern", 2);
    const uint32_t lkv[4] = {0, 8, 0, 8};
    gb_u32(b, "lfm2.attention.head_count", 8);
    gb_array(b, "lfm2.attention.head_count_kv", 4 /* u32 */, 4, lkv);
    g = plan_of(b, "lfm2_swa");
    for (int64_t i = 0; g && i < 4; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        if (i % 2 == 1)
            CHECK_MSG(L.rope && L.base == 1e6 && L.sliding_window == 512 &&
                          strcmp(L.layer_type, "sliding_attention") == 0,
                      "lfm2 layer %lld: %s window %lld", (long long)i, L.layer_type,
                      (long long)L.sliding_window);
        else
            CHECK(!L.attention);
    }
    if (g) CHECK(pe_plan_num_warnings(g) == 1 && strstr(pe_plan_warning(g, 0), "does not read it"));
    pe_plan_free(g);

    b = swa_file("falcon-h1", 3);
    g = plan_of(b, "falcon_h1");
    for (int64_t i = 0; g && i < 3; i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        CHECK(L.attention && L.rope && L.layout == PE_ROPE_HALF && L.base == 1e6);
    }
    pe_plan_free(g);
}

/* One layer as a sliding-window rule of llama.cpp should leave it. */
typedef struct {
    int sliding;         /* a sliding_attention layer */
    int rope;
    double base;         /* when rope */
    int64_t head, rot;   /* when rope */
    pe_scaling_type scaling;
} layer_expect;

static void check_layers(const pe_plan *g, int64_t n, int64_t window, const layer_expect *e,
                         const char *what) {
    CHECK_MSG(pe_plan_num_layers(g) == n, "%s: %lld layers", what, (long long)pe_plan_num_layers(g));
    for (int64_t i = 0; i < n && i < pe_plan_num_layers(g); i++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, i, &L));
        int ok = strcmp(L.layer_type, e[i].sliding ? "sliding_attention" : "full_attention") == 0 &&
                 L.sliding_window == (e[i].sliding ? window : 0) && L.rope == e[i].rope;
        if (ok && e[i].rope)
            ok = L.base == e[i].base && L.head_dim == e[i].head && L.rotary_dim == e[i].rot &&
                 L.scaling == e[i].scaling;
        CHECK_MSG(ok, "%s layer %lld: %s window %lld rope %d base %g head %lld rot %lld scaling %d",
                  what, (long long)i, L.layer_type, (long long)L.sliding_window, L.rope, L.base,
                  (long long)L.head_dim, (long long)L.rotary_dim, (int)L.scaling);
    }
}

/* The per-layer sliding rules of llama.cpp 34af94cd9ab2's newer
 * architectures, each restated from its load_arch_hparams and graph (the
 * record cites the lines) on a probe file: swa_file gives head 64, base 1e6.
 *   exaone-moe    period 4 (i % 4 < 3 slides), window 128 by default; only
 *                 sliding layers rotate, at the full base
 *   afmoe         window > 0: period 4, sliding base freq_base_swa; NoPE on
 *                 (i + 1) % 4 == 0
 *   smallthinker  window > 0: window 4096, period 4 dense first (i % 4 != 0
 *                 slides), NoPE on i % 4 == 0; no window: all rotate
 *   modern-bert   window > 0: period 3 dense first, sliding base 10000
 *   cohere2moe    array pattern of block_count - nextn; rotate where sliding
 *                 or i < leading_dense_block_count, at the full base
 *   gemma4        array pattern; sliding head key_length_swa and rotary
 *                 rope.dimension_count_swa, base freq_base_swa else 10000
 *   step35        array pattern; full layers rotate half the dims
 *   laguna        window > 0: period 4 dense first; sliding layers unscaled
 *                 over rope.dimension_count_swa */
TEST(plan_gguf_sliding_arrays_and_head_sizes) {
    const double F = 1e6, B = 1e4; /* full base, llama_hparams' swa default */
    gguf_build *b = swa_file("exaone-moe", 8);
    pe_plan *g = plan_of(b, "exaone_moe");
    if (g) {
        layer_expect e[8];
        for (int i = 0; i < 8; i++)
            e[i] = (layer_expect){i % 4 < 3, i % 4 < 3, F, 64, 64, PE_SCALING_DEFAULT};
        check_layers(g, 8, 128, e, "exaone-moe");
    }
    pe_plan_free(g);

    b = swa_file("afmoe", 8);
    gb_u32(b, "afmoe.attention.sliding_window", 512);
    gb_f32(b, "afmoe.rope.freq_base_swa", 5e4f);
    g = plan_of(b, "afmoe");
    if (g) {
        layer_expect e[8];
        for (int i = 0; i < 8; i++)
            e[i] = (layer_expect){i % 4 < 3, (i + 1) % 4 != 0, i % 4 < 3 ? 5e4 : F, 64, 64,
                                  PE_SCALING_DEFAULT};
        check_layers(g, 8, 512, e, "afmoe");
    }
    pe_plan_free(g);

    for (int with_window = 0; with_window < 2; with_window++) {
        b = swa_file("smallthinker", 8);
        if (with_window) gb_u32(b, "smallthinker.attention.sliding_window", 1000);
        g = plan_of(b, with_window ? "smallthinker_swa" : "smallthinker");
        if (g) {
            layer_expect e[8];
            for (int i = 0; i < 8; i++) {
                const int slides = with_window && i % 4 != 0;
                e[i] = (layer_expect){slides, !with_window || i % 4 != 0, F, 64, 64,
                                      PE_SCALING_DEFAULT};
            }
            check_layers(g, 8, 4096, e, with_window ? "smallthinker with a window" : "smallthinker");
        }
        pe_plan_free(g);
    }

    b = swa_file("modern-bert", 6);
    gb_u32(b, "modern-bert.attention.sliding_window", 128);
    g = plan_of(b, "modern_bert");
    if (g) {
        layer_expect e[6];
        for (int i = 0; i < 6; i++)
            e[i] = (layer_expect){i % 3 != 0, 1, i % 3 != 0 ? B : F, 64, 64, PE_SCALING_DEFAULT};
        check_layers(g, 6, 128, e, "modern-bert");
    }
    pe_plan_free(g);

    b = swa_file("cohere2moe", 7);
    gb_u32(b, "cohere2moe.attention.sliding_window", 4096);
    gb_u32(b, "cohere2moe.nextn_predict_layers", 1);
    gb_u32(b, "cohere2moe.leading_dense_block_count", 2);
    gb_f32(b, "cohere2moe.rope.freq_base_swa", 5e4f); /* read, but the graph uses the full base */
    const uint8_t cpat[6] = {0, 1, 1, 0, 1, 0};
    gb_array(b, "cohere2moe.attention.sliding_window_pattern", 7 /* bool */, 6, cpat);
    g = plan_of(b, "cohere2moe");
    if (g) {
        layer_expect e[6];
        for (int i = 0; i < 6; i++)
            e[i] = (layer_expect){cpat[i], cpat[i] || i < 2, F, 64, 64, PE_SCALING_DEFAULT};
        check_layers(g, 6, 4096, e, "cohere2moe");
    }
    pe_plan_free(g);

    b = gb_new(3); /* swa_file's head size is the full layers' here: 512 */
    gb_str(b, "general.architecture", "gemma4");
    gb_u32(b, "gemma4.block_count", 6);
    gb_u32(b, "gemma4.attention.key_length", 512);
    gb_f32(b, "gemma4.rope.freq_base", 1e6f);
    gb_u32(b, "gemma4.attention.sliding_window", 512);
    gb_u32(b, "gemma4.rope.dimension_count", 512);
    gb_u32(b, "gemma4.attention.key_length_swa", 256);
    gb_u32(b, "gemma4.rope.dimension_count_swa", 256);
    const uint8_t gpat[6] = {1, 1, 1, 1, 1, 0};
    gb_array(b, "gemma4.attention.sliding_window_pattern", 7 /* bool */, 6, gpat);
    g = plan_of(b, "gemma4");
    if (g) {
        layer_expect e[6];
        for (int i = 0; i < 6; i++)
            e[i] = (layer_expect){gpat[i], 1, gpat[i] ? B : F, gpat[i] ? 256 : 512,
                                  gpat[i] ? 256 : 512, PE_SCALING_DEFAULT};
        check_layers(g, 6, 512, e, "gemma4");
        CHECK(pe_plan_num_warnings(g) == 0);
    }
    pe_plan_free(g);

    b = swa_file("step35", 4);
    gb_u32(b, "step35.attention.sliding_window", 512);
    gb_u32(b, "step35.rope.dimension_count", 64);
    const uint8_t spat[4] = {0, 1, 1, 1};
    gb_array(b, "step35.attention.sliding_window_pattern", 7 /* bool */, 4, spat);
    g = plan_of(b, "step35");
    if (g) {
        layer_expect e[4];
        for (int i = 0; i < 4; i++)
            e[i] = (layer_expect){spat[i], 1, spat[i] ? B : F, 64, spat[i] ? 64 : 32,
                                  PE_SCALING_DEFAULT};
        check_layers(g, 4, 512, e, "step35");
    }
    pe_plan_free(g);

    b = swa_file("laguna", 8);
    gb_u32(b, "laguna.attention.sliding_window", 512);
    gb_u32(b, "laguna.rope.dimension_count", 32);
    gb_u32(b, "laguna.rope.dimension_count_swa", 64);
    gb_str(b, "laguna.rope.scaling.type", "yarn");
    gb_f32(b, "laguna.rope.scaling.factor", 4.0f);
    gb_u32(b, "laguna.rope.scaling.original_context_length", 4096);
    g = plan_of(b, "laguna");
    if (g) {
        layer_expect e[8];
        for (int i = 0; i < 8; i++) {
            const int slides = i % 4 != 0;
            e[i] = (layer_expect){slides, 1, F, 64, slides ? 64 : 32,
                                  slides ? PE_SCALING_DEFAULT : PE_SCALING_YARN};
        }
        check_layers(g, 8, 512, e, "laguna");
    }
    pe_plan_free(g);
}

/* Converter-written files of the per-layer sliding rules (llama.cpp
 * 34af94cd9ab2). ModernBERT-ja-310m (conversion/bert.py ModernBertModel
 * writes local_attention 128 as the window and global_attn_every_n_layers
 * 3 as an integer pattern): modern-bert.cpp:4-13 makes layer i sliding when
 * i % 3 != 0, at rope.freq_base_swa 10000, the others at 160000; 768 / 12
 * = 64 dims, NEOX. SmallThinker-4BA0.6B (its sliding_window_layout is all
 * 0, so conversion/smallthinker.py writes no window): no sliding layers,
 * the NoPE step is n_layer and every layer rotates (smallthinker.cpp:16-19,
 * graph 108-109) at rope_theta 1.5e6 over head_dim 128. */
TEST(plan_gguf_sliding_rule_fixtures) {
    pe_plan *g = fixture("modernbert-ja-310m.gguf");
    if (g) {
        layer_expect e[25];
        for (int i = 0; i < 25; i++)
            e[i] = (layer_expect){i % 3 != 0, 1, i % 3 != 0 ? 1e4 : 160000.0, 64, 64,
                                  PE_SCALING_DEFAULT};
        check_layers(g, 25, 128, e, "modernbert-ja-310m");
        pe_freqs f;
        CHECK_OK(pe_plan_layer_freqs(g, 1, 0, &f, NULL));
        for (int k = 0; k < 32; k++) {
            const long double want = powl(1e4L, -2.0L * k / 64.0L);
            const long double got = (long double)f.inv_freq[k] + f.inv_freq_lo[k];
            CHECK_MSG(fabsl(got - want) <= (4 * 2.220446049250313e-16L +
                                            64 * (long double)pe_test_ld_eps()) * want,
                      "modernbert w[%d] = %.17Lg, want %.17Lg", k, got, want);
        }
    }
    pe_plan_free(g);
    g = fixture("smallthinker-4ba0.6b-instruct.gguf");
    if (g) {
        layer_expect e[32];
        for (int i = 0; i < 32; i++) e[i] = (layer_expect){0, 1, 1.5e6, 128, 128, PE_SCALING_DEFAULT};
        check_layers(g, 32, 0, e, "smallthinker-4ba0.6b-instruct");
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 0, &L));
        CHECK(L.layout == PE_ROPE_HALF);
    }
    pe_plan_free(g);
}

TEST(errors_plan_gguf) {
    gguf_build *b = gb_new(3);
    gb_u32(b, "llama.block_count", 2);
    EXPECT("PLAN-25", PE_ERR_FORMAT, "GGUF has no general.architecture", pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    EXPECT("PLAN-26", PE_ERR_FORMAT, "GGUF has no 'llama.block_count'", pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 0);
    EXPECT("PLAN-26", PE_ERR_FORMAT, "'llama.block_count'=0 must be in [1, 65536]", pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 2);
    EXPECT("PLAN-27", PE_ERR_FORMAT, "GGUF gives no head size", pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 2);
    gb_u32(b, "llama.attention.key_length", 64);
    gb_u32(b, "llama.rope.dimension_count", 65);
    EXPECT("PLAN-27", PE_ERR_DIM, "'llama.rope.dimension_count'=65 must be even", pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 2);
    gb_u32(b, "llama.attention.key_length", 64);
    gb_str(b, "llama.rope.scaling.type", "cubic");
    EXPECT("PLAN-28", PE_ERR_FORMAT, "'llama.rope.scaling.type'='cubic' is not none, linear, yarn or longrope",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "qwen2");
    gb_u32(b, "qwen2.block_count", 2);
    gb_u32(b, "qwen2.attention.key_length", 64);
    gb_str(b, "qwen2.rope.scaling.type", "yarn");
    gb_f32(b, "qwen2.rope.scaling.factor", 4.0f);
    EXPECT("PLAN-28", PE_ERR_FORMAT, "scaling type 'yarn' needs 'qwen2.rope.scaling.original_context_length' or 'qwen2.context_length' > 0",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "qwen2");
    gb_u32(b, "qwen2.block_count", 2);
    gb_u32(b, "qwen2.attention.key_length", 64);
    gb_u32(b, "qwen2.context_length", 4096);
    gb_str(b, "qwen2.rope.scaling.type", "yarn");
    EXPECT("PLAN-28", PE_ERR_FORMAT, "'qwen2.rope.scaling.factor' > 0 is required for scaling type 'yarn'",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 2);
    gb_u32(b, "llama.attention.key_length", 64);
    const float div[3] = {1, 2, 3};
    gb_tensor_f32(b, "rope_freqs.weight", 3, div);
    EXPECT("PLAN-29", PE_ERR_FORMAT, "'rope_freqs.weight' has 3 values but the rotary dim has 32 pairs",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "phi3");
    gb_u32(b, "phi3.block_count", 2);
    gb_u32(b, "phi3.attention.key_length", 8);
    gb_str(b, "phi3.rope.scaling.type", "longrope");
    gb_u32(b, "phi3.rope.scaling.original_context_length", 4096);
    EXPECT("PLAN-29", PE_ERR_FORMAT, "scaling type 'longrope' needs the rope_factors_long.weight",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 2);
    gb_u32(b, "llama.attention.key_length", 64);
    gb_str(b, "llama.rope.scaling.type", "linear");
    gb_f32(b, "llama.rope.scaling.factor", 2.0f);
    float ones[32];
    for (int i = 0; i < 32; i++) ones[i] = 1.0f;
    gb_tensor_f32(b, "rope_freqs.weight", 32, ones);
    EXPECT("PLAN-30", PE_ERR_UNSUPPORTED, "'rope_freqs.weight' together with rope.scaling.type 'linear'",
           pe_plan_from_gguf(bad_file(b), OUT));
    /* the architecture registry (docs/FAMILIES.md, GGUF) */
    b = gb_new(3);
    gb_str(b, "general.architecture", "lama");
    gb_u32(b, "lama.block_count", 2);
    EXPECT("ARCH-1", PE_ERR_UNSUPPORTED, "GGUF architecture 'lama' is not in posenc's llama.cpp registry (closest: 'llama', ",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 2);
    EXPECT("ARCH-1", PE_ERR_UNSUPPORTED, "GGUF architecture 'olmo3' is not in posenc's llama.cpp registry (closest: 'olmo', ",
           pe_plan_from_gguf_as(bad_file(b), "olmo3", OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "wavtokenizer-dec");
    gb_u32(b, "wavtokenizer-dec.block_count", 2);
    EXPECT("ARCH-2", PE_ERR_UNSUPPORTED, "GGUF architecture 'wavtokenizer-dec': an audio decoder",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "qwen3next");
    gb_u32(b, "qwen3next.block_count", 2);
    gb_u32(b, "qwen3next.nextn_predict_layers", 2);
    EXPECT("ARCH-3", PE_ERR_FORMAT, "'qwen3next.nextn_predict_layers'=2 must be below block_count=2",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "qwen35");
    gb_u32(b, "qwen35.block_count", 4);
    gb_u32(b, "qwen35.attention.key_length", 64);
    const uint32_t sec[4] = {8, 12, 12, 0};
    gb_array(b, "qwen35.rope.dimension_sections", 4 /* u32 */, 4, sec);
    const uint32_t recr[3] = {1, 1, 0};
    gb_array(b, "qwen35.attention.recurrent_layers", 4 /* u32 */, 3, recr);
    EXPECT("ARCH-4", PE_ERR_FORMAT, "'qwen35.attention.recurrent_layers' must be an array of block_count=4 entries",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "qwen2vl");
    gb_u32(b, "qwen2vl.block_count", 2);
    gb_u32(b, "qwen2vl.attention.key_length", 64);
    EXPECT("ARCH-5", PE_ERR_FORMAT, "'qwen2vl.rope.dimension_sections' is required for 'qwen2vl' (llama.cpp rope type mrope)",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 3);
    gb_u32(b, "llama.embedding_length", 256);
    const uint32_t heads[2] = {4, 4};
    gb_array(b, "llama.attention.head_count", 4 /* u32 */, 2, heads);
    EXPECT("ARCH-6", PE_ERR_FORMAT, "'llama.attention.head_count' has 2 entries but block_count=3",
           pe_plan_from_gguf(bad_file(b), OUT));
    /* a hybrid's per-layer KV heads, which mark its recurrent layers */
    b = gb_new(3);
    gb_str(b, "general.architecture", "jamba");
    gb_u32(b, "jamba.block_count", 3);
    gb_u32(b, "jamba.embedding_length", 256);
    gb_u32(b, "jamba.attention.head_count", 4);
    const uint32_t kv[2] = {0, 4};
    gb_array(b, "jamba.attention.head_count_kv", 4 /* u32 */, 2, kv);
    EXPECT("ARCH-6", PE_ERR_FORMAT, "'jamba.attention.head_count_kv' has 2 entries but block_count=3",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "mpt");
    gb_u32(b, "mpt.block_count", 2);
    gb_u32(b, "mpt.embedding_length", 256);
    gb_u32(b, "mpt.attention.head_count", 4);
    gb_f32(b, "mpt.attention.max_alibi_bias", 16.0f);
    EXPECT("ARCH-7", PE_ERR_UNSUPPORTED, "'mpt.attention.max_alibi_bias'=16: ALiBi slopes are modelled for a max bias of 8 only",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 2);
    gb_u32(b, "llama.attention.key_length", 64);
    gb_f32(b, "llama.rope.freq_base", -5.0f);
    EXPECT("ARCH-9", PE_ERR_FORMAT, "'llama' describes a RoPE posenc cannot run: ",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = swa_file("gemma2", 2);
    gb_u32(b, "gemma2.attention.sliding_window", 64);
    gb_f32(b, "gemma2.rope.freq_base_swa", 1.0f);
    EXPECT("ARCH-9", PE_ERR_FORMAT, "'gemma2' describes a sliding-window RoPE posenc cannot run: ",
           pe_plan_from_gguf(bad_file(b), OUT));
    /* per-layer sliding patterns and the sliding layers' own dims */
    b = swa_file("gemma4", 3);
    gb_u32(b, "gemma4.attention.sliding_window", 64);
    EXPECT("ARCH-10", PE_ERR_FORMAT, "'gemma4' needs 'gemma4.attention.sliding_window_pattern' (llama.cpp requires it)",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = swa_file("mimo2", 3);
    gb_u32(b, "mimo2.attention.sliding_window", 64);
    const uint8_t pat2[2] = {1, 0};
    gb_array(b, "mimo2.attention.sliding_window_pattern", 7 /* bool */, 2, pat2);
    EXPECT("ARCH-10", PE_ERR_FORMAT, "'mimo2.attention.sliding_window_pattern' has 2 entries but 'mimo2' reads 3",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = swa_file("laguna", 4);
    gb_u32(b, "laguna.attention.sliding_window", 64);
    gb_u32(b, "laguna.rope.dimension_count_swa", 65);
    EXPECT("ARCH-10", PE_ERR_DIM, "'laguna.rope.dimension_count_swa'=65 must be even and in [2, sliding head size 64",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = swa_file("nanbeige", 2);
    gb_u32(b, "nanbeige.num_loops", 0);
    EXPECT("ARCH-11", PE_ERR_FORMAT, "'nanbeige.num_loops'=0 must be in [1, ",
           pe_plan_from_gguf(bad_file(b), OUT));
    pe_gguf_arch_info info;
    EXPECT("ARCH-8", PE_ERR_RANGE, "architecture index -1 outside [0, ", pe_gguf_arch_get(-1, &info));
    EXPECT("ARCH-8", PE_ERR_NULL, "out must not be NULL", pe_gguf_arch_get(0, NULL));
    unlink(bad_file(gb_new(3)));
    EXPECT("PLAN-20", PE_ERR_IO, "/nonexistent/model.gguf", pe_plan_from_gguf("/nonexistent/model.gguf", OUT));
    EXPECT("PLAN-19", PE_ERR_NULL, "path must not be NULL", pe_plan_from_gguf(NULL, OUT));
    EXPECT("PLAN-19", PE_ERR_NULL, "a must not be NULL", pe_plan_compare(NULL, NULL, 0, OUT));
    pe_plan *p = NULL;
    const char *cfg = "{\"model_type\":\"llama\",\"head_dim\":64}";
    CHECK_OK(pe_plan_from_config_json(cfg, strlen(cfg), &p));
    EXPECT("PLAN-23", PE_ERR_PARAM, "seq_len=-1 must be >= 0", pe_plan_compare(p, p, -1, OUT));
    pe_plan_free(p);
    CHECK(pe_plan_diff_count(NULL) == 0 && pe_plan_diff_line(NULL, 0) == NULL);
    pe_plan_diff_free(NULL);
}
