/* test_plan_gguf.c — plans from llama.cpp GGUF files written by the tests'
 * own GGUF builder (header, metadata and rope tensor only), compared with the
 * plans of the same models' config.json fixtures. The differences float32
 * storage causes are predicted here from the stored values (rounded with a
 * float cast, independently of the reader) and must be exactly what
 * pe_plan_compare reports; bad files are refused by name. */
#include "fixture_configs.h"
#include "errors.h"
#include "gguf_build.h"

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

/* Llama 3.1's divisors w_i / w'_i from the llama3 formula (long double). */
static long double llama3_divisor(int i, int d) {
    long double w = powl(500000.0L, -(long double)(2 * i) / d), lam = 2 * PI_L / w;
    if (lam < 8192.0L / 4) return 1;
    if (lam > 8192.0L / 1) return 8;
    long double t = (8192.0L / lam - 1) / 3;
    return w / ((1 - t) * w / 8 + t * w);
}

TEST(plan_gguf_llama3_divisors_in_float32) {
    float div[64];
    for (int i = 0; i < 64; i++) div[i] = (float)llama3_divisor(i, 128);
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u32(b, "llama.block_count", 32);
    gb_u32(b, "llama.context_length", 131072);
    gb_u32(b, "llama.embedding_length", 4096);
    gb_u32(b, "llama.attention.head_count", 32);
    gb_u32(b, "llama.rope.dimension_count", 128);
    gb_f32(b, "llama.rope.freq_base", 500000.0f);
    gb_tensor_f32(b, "rope_freqs.weight", 64, div);
    pe_plan *g = plan_of(b, "llama3");
    pe_plan *c = config("llama-3.1-8b.json");
    if (g == NULL || c == NULL) goto done;
    CHECK(strcmp(pe_plan_source(g), "gguf") == 0 && strcmp(pe_plan_model_type(g), "llama") == 0);
    CHECK(pe_plan_num_warnings(g) == 0);
    pe_plan_layer L;
    CHECK_OK(pe_plan_layer_info(g, 31, &L));
    CHECK(L.scaling == PE_SCALING_EXPLICIT && L.layout == PE_ROPE_INTERLEAVED && L.rotary_dim == 128 &&
          strcmp(L.f32_inputs, "rope.freq_base, rope_freqs.weight") == 0);
    /* Frequencies: w_i / float(c_i), and the largest relative difference to
     * the config's w'_i is that of float(c_i) to c_i. */
    static pe_freqs f;
    CHECK_OK(pe_plan_layer_freqs(g, 0, 0, &f, NULL));
    long double worst = 0;
    int at = 0;
    for (int i = 0; i < 64; i++) {
        long double w = powl(500000.0L, -(long double)(2 * i) / 128);
        long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
        /* 1e-16, or 64 long double eps where long double is a double (valgrind) */
        const long double tol = 64 * pe_test_ld_eps() > 1e-16 ? 64 * pe_test_ld_eps() : 1e-16L;
        CHECK_MSG(fabsl(got - w / div[i]) <= tol * (w / div[i]), "pair %d", i);
        long double c_exact = llama3_divisor(i, 128), r = fabsl((long double)div[i] / c_exact - 1);
        /* w/c vs w/c32: relative |c32/c - 1| / (c32/c) */
        r = r / ((long double)div[i] / c_exact);
        if (r > worst) {
            worst = r;
            at = i;
        }
    }
    CHECK(worst > 1e-9L && worst < 6e-8L); /* float32 rounding of a divisor: <= 2^-24 */
    pe_plan_diff *d = compare(c, g);
    if (d != NULL) {
        char want_freq[160];
        snprintf(want_freq, sizeof want_freq, "layers 0-31: inv_freq differ by up to %.3g relative "
                 "(pair %d:", (double)worst, at);
        CHECK_MSG(pe_plan_diff_count(d) == 2, "%lld lines", (long long)pe_plan_diff_count(d));
        int seen_layout = 0, seen_freq = 0;
        for (int64_t i = 0; i < pe_plan_diff_count(d); i++) {
            const char *line = pe_plan_diff_line(d, i);
            if (strstr(line, "layers 0-31: pair layout: config half, gguf interleaved")) seen_layout = 1;
            if (strstr(line, want_freq) && strstr(line, "llama3 explicit") &&
                strstr(line, "stored as float32: rope.freq_base, rope_freqs.weight"))
                seen_freq = 1;
        }
        CHECK_MSG(seen_layout && seen_freq, "lines: %s | %s", pe_plan_diff_line(d, 0),
                  pe_plan_diff_line(d, 1) ? pe_plan_diff_line(d, 1) : "");
        CHECK(pe_plan_diff_line(d, 2) == NULL && pe_plan_diff_line(d, -1) == NULL);
        pe_plan_diff_free(d);
    }
done:
    pe_plan_free(g);
    pe_plan_free(c);
}

TEST(plan_gguf_gemma3_equals_its_config) {
    /* Bases 1e6 / 1e4 are exact in float32: the plans agree on every layer. */
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "gemma3");
    gb_u32(b, "gemma3.block_count", 26);
    gb_u32(b, "gemma3.context_length", 32768);
    gb_u32(b, "gemma3.embedding_length", 1152);
    gb_u32(b, "gemma3.attention.head_count", 4);
    gb_u32(b, "gemma3.attention.key_length", 256);
    gb_f32(b, "gemma3.rope.freq_base", 1e6f);
    gb_f32(b, "gemma3.rope.freq_base_swa", 1e4f);
    gb_u32(b, "gemma3.attention.sliding_window", 512);
    gb_u32(b, "gemma3.attention.sliding_window_pattern", 6);
    pe_plan *g = plan_of(b, "gemma3");
    pe_plan *c = config("gemma-3-1b-it.json");
    if (g != NULL && c != NULL) {
        check_diff(c, g, 0, NULL, NULL);
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 5, &L));
        CHECK(strcmp(L.layer_type, "full_attention") == 0 && L.base == 1e6 && L.sliding_window == 0);
        CHECK_OK(pe_plan_layer_info(g, 4, &L));
        CHECK(strcmp(L.layer_type, "sliding_attention") == 0 && L.base == 1e4 && L.sliding_window == 512);
    }
    pe_plan_free(g);
    pe_plan_free(c);
}

TEST(plan_gguf_hunyuan_folded_base_in_float32) {
    /* llama.cpp folds HunYuan's alpha into freq_base, stored as float32:
     * the frequencies of pair i move by (b32 / b)^(-2i/d) - 1. */
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
        check_diff(c, g, 1, want, "stored as float32: rope.freq_base");
    }
    pe_plan_free(g);
    pe_plan_free(c);
}

TEST(plan_gguf_yarn_nope_and_warnings) {
    /* Qwen2.5 YaRN: factor 4 and base 1e6 are exact in float32, A derived
     * alike: no difference. */
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "qwen2");
    gb_u32(b, "qwen2.block_count", 28);
    gb_u32(b, "qwen2.embedding_length", 3584);
    gb_u32(b, "qwen2.attention.head_count", 28);
    gb_u32(b, "qwen2.context_length", 131072);
    gb_f32(b, "qwen2.rope.freq_base", 1e6f);
    gb_str(b, "qwen2.rope.scaling.type", "yarn");
    gb_f32(b, "qwen2.rope.scaling.factor", 4.0f);
    gb_u32(b, "qwen2.rope.scaling.original_context_length", 32768);
    gb_f32(b, "qwen2.rope.wobble", 1.0f);
    pe_plan *g = plan_of(b, "qwen2");
    pe_plan *c = config("qwen2.5-7b-instruct-yarn.json");
    if (g != NULL && c != NULL) {
        check_diff(c, g, 0, NULL, NULL);
        CHECK(pe_plan_num_warnings(g) == 1 &&
              strcmp(pe_plan_warning(g, 0), "'qwen2.rope.wobble': not understood; ignored") == 0);
    }
    pe_plan_free(g);
    pe_plan_free(c);
    /* Llama 4: llama.cpp (src/llama-model.cpp, LLM_ARCH_LLAMA4 hparams)
     * sets chunked attention of 8192 tokens on layers i % 4 < 3, NoPE on
     * (i + 1) % 4 == 0 with the temperature 0.1 / 8192 / offset 1, all in
     * code: the GGUF plan then equals the config's but for the llama3
     * divisors this file leaves out (no rope_freqs.weight). */
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama4");
    gb_u32(b, "llama4.block_count", 48);
    gb_u32(b, "llama4.embedding_length", 5120);
    gb_u32(b, "llama4.attention.head_count", 40);
    gb_u32(b, "llama4.attention.key_length", 128);
    gb_f32(b, "llama4.rope.freq_base", 500000.0f);
    g = plan_of(b, "llama4");
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
        check_diff(c, g, 1, "layers 0-2, 4-6, 8-10,", "llama3 default");
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
 * pattern key (restated from src/models/gemma2.cpp and cohere2.cpp at
 * 82234e08ad119dbefb31fcc9c304a531016bd502, src/models/olmo2.cpp at
 * 8a5c4e03d11bbcb157cbf05b9cd2968f34a55969, and load_hparams of
 * src/llama-model.cpp for gemma3 / gemma3n / gpt-oss / exaone4):
 * set_swa_pattern(n) makes layer i sliding when i % n < n - 1. */
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

/* Files as llama.cpp's converter writes them (no pattern key: the period
 * comes from llama.cpp's code, restated above) against the models' own
 * configs: the layer types, windows, NoPE layers and sliding bases agree. */
TEST(plan_gguf_sliding_models_equal_their_configs) {
    /* gpt-oss-20b: layer_types alternate sliding/full from layer 0 */
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "gpt-oss");
    gb_u32(b, "gpt-oss.block_count", 24);
    gb_u32(b, "gpt-oss.context_length", 131072);
    gb_u32(b, "gpt-oss.embedding_length", 2880);
    gb_u32(b, "gpt-oss.attention.head_count", 64);
    gb_u32(b, "gpt-oss.attention.key_length", 64);
    gb_u32(b, "gpt-oss.attention.sliding_window", 128);
    gb_f32(b, "gpt-oss.rope.freq_base", 150000.0f);
    gb_str(b, "gpt-oss.rope.scaling.type", "yarn");
    gb_f32(b, "gpt-oss.rope.scaling.factor", 32.0f);
    gb_u32(b, "gpt-oss.rope.scaling.original_context_length", 4096);
    pe_plan *g = plan_of(b, "gptoss20b");
    pe_plan *c = config("gpt-oss-20b.json");
    if (g && c) {
        /* one line: HF's gpt-oss YaRN is untruncated ("truncate": false),
         * a GGUF has no such key; no layer-type, window or base line */
        check_diff(c, g, 1, "layers 0-23: inv_freq differ", NULL);
    }
    pe_plan_free(g);
    pe_plan_free(c);
    /* OLMo 3 (converted as olmo2): period 4, YaRN on the full layers only */
    b = gb_new(3);
    gb_str(b, "general.architecture", "olmo2");
    gb_u32(b, "olmo2.block_count", 32);
    gb_u32(b, "olmo2.context_length", 65536);
    gb_u32(b, "olmo2.embedding_length", 4096);
    gb_u32(b, "olmo2.attention.head_count", 32);
    gb_u32(b, "olmo2.attention.sliding_window", 4096);
    gb_f32(b, "olmo2.rope.freq_base", 500000.0f);
    gb_str(b, "olmo2.rope.scaling.type", "yarn");
    gb_f32(b, "olmo2.rope.scaling.factor", 8.0f);
    gb_u32(b, "olmo2.rope.scaling.original_context_length", 8192);
    gb_f32(b, "olmo2.rope.scaling.attn_factor", 1.2079441541679836f);
    g = plan_of(b, "olmo3");
    c = config("olmo-3-7b.json");
    if (g && c) {
        /* one line: the float32 attn_factor of the full layers; the sliding
         * layers (plain RoPE at 500000) agree exactly */
        check_diff(c, g, 1, "layers 3, 7, 11, 15, 19, 23, 27, 31: magnitude A", NULL);
    }
    pe_plan_free(g);
    pe_plan_free(c);
    /* Command R7B: period 4, the full layers NoPE */
    b = gb_new(3);
    gb_str(b, "general.architecture", "cohere2");
    gb_u32(b, "cohere2.block_count", 32);
    gb_u32(b, "cohere2.context_length", 8192);
    gb_u32(b, "cohere2.embedding_length", 4096);
    gb_u32(b, "cohere2.attention.head_count", 32);
    gb_u32(b, "cohere2.attention.sliding_window", 4096);
    gb_f32(b, "cohere2.rope.freq_base", 50000.0f);
    g = plan_of(b, "cohere2_7b");
    c = config("c4ai-command-r7b-12-2024.json");
    if (g && c) {
        check_diff(c, g, 0, NULL, NULL);
    }
    pe_plan_free(g);
    pe_plan_free(c);
    /* Gemma 2 9B: period 2, window 4096 */
    b = gb_new(3);
    gb_str(b, "general.architecture", "gemma2");
    gb_u32(b, "gemma2.block_count", 42);
    gb_u32(b, "gemma2.context_length", 8192);
    gb_u32(b, "gemma2.embedding_length", 3584);
    gb_u32(b, "gemma2.attention.head_count", 16);
    gb_u32(b, "gemma2.attention.key_length", 256);
    gb_u32(b, "gemma2.attention.sliding_window", 4096);
    gb_f32(b, "gemma2.rope.freq_base", 10000.0f);
    g = plan_of(b, "gemma2_9b");
    c = config("gemma-2-9b-it.json");
    if (g && c) {
        check_diff(c, g, 0, NULL, NULL);
    }
    pe_plan_free(g);
    pe_plan_free(c);
}
