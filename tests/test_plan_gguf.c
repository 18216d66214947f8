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
        pe_plan_diff *d = compare(c, g);
        CHECK_MSG(d && pe_plan_diff_count(d) == 0, "%s", d && pe_plan_diff_line(d, 0) ? pe_plan_diff_line(d, 0) : "");
        pe_plan_diff_free(d);
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
        pe_plan_diff *d = compare(c, g);
        char want[96];
        snprintf(want, sizeof want, "layers 0-31: inv_freq differ by up to %.3g relative", (double)worst);
        CHECK_MSG(d && pe_plan_diff_count(d) == 1 && strstr(pe_plan_diff_line(d, 0), want) &&
                      strstr(pe_plan_diff_line(d, 0), "stored as float32: rope.freq_base"),
                  "%s (want %s)", d && pe_plan_diff_line(d, 0) ? pe_plan_diff_line(d, 0) : "", want);
        pe_plan_diff_free(d);
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
        pe_plan_diff *d = compare(c, g);
        CHECK_MSG(d && pe_plan_diff_count(d) == 0, "%s", d && pe_plan_diff_line(d, 0) ? pe_plan_diff_line(d, 0) : "");
        pe_plan_diff_free(d);
        CHECK(pe_plan_num_warnings(g) == 1 &&
              strcmp(pe_plan_warning(g, 0), "'qwen2.rope.wobble': not understood; ignored") == 0);
    }
    pe_plan_free(g);
    pe_plan_free(c);
    /* Llama 4's NoPE step; the config's other differences are reported. */
    b = gb_new(3);
    gb_str(b, "general.architecture", "llama4");
    gb_u32(b, "llama4.block_count", 48);
    gb_u32(b, "llama4.embedding_length", 5120);
    gb_u32(b, "llama4.attention.head_count", 40);
    gb_u32(b, "llama4.attention.key_length", 128);
    gb_f32(b, "llama4.rope.freq_base", 500000.0f);
    gb_u32(b, "llama4.no_rope_layer_step", 4);
    g = plan_of(b, "llama4");
    c = config("llama-4-scout-17b-16e.json");
    if (g != NULL && c != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(g, 3, &L));
        CHECK(!L.rope && L.attention);
        CHECK_OK(pe_plan_layer_info(g, 2, &L));
        CHECK(L.rope && L.layout == PE_ROPE_INTERLEAVED);
        pe_plan_diff *d = compare(c, g);
        int temp = 0, type = 0;
        for (int64_t i = 0; d && i < pe_plan_diff_count(d); i++) {
            if (strstr(pe_plan_diff_line(d, i), "layers 3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47: query scale: config yes, gguf none")) temp = 1;
            if (strstr(pe_plan_diff_line(d, i), "layer type: config chunked_attention, gguf full_attention")) type = 1;
        }
        CHECK(temp && type);
        pe_plan_diff_free(d);
    }
    pe_plan_free(g);
    pe_plan_free(c);
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
    EXPECT("PLAN-28", PE_ERR_FORMAT, "'qwen2.rope.scaling.original_context_length' is required for scaling type 'yarn'",
           pe_plan_from_gguf(bad_file(b), OUT));
    b = gb_new(3);
    gb_str(b, "general.architecture", "qwen2");
    gb_u32(b, "qwen2.block_count", 2);
    gb_u32(b, "qwen2.attention.key_length", 64);
    gb_str(b, "qwen2.rope.scaling.type", "linear");
    EXPECT("PLAN-28", PE_ERR_FORMAT, "'qwen2.rope.scaling.factor' is required for scaling type 'linear'",
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
    const char *cfg = "{\"head_dim\":64}";
    CHECK_OK(pe_plan_from_config_json(cfg, strlen(cfg), &p));
    EXPECT("PLAN-23", PE_ERR_PARAM, "seq_len=-1 must be >= 0", pe_plan_compare(p, p, -1, OUT));
    pe_plan_free(p);
    CHECK(pe_plan_diff_count(NULL) == 0 && pe_plan_diff_line(NULL, 0) == NULL);
    pe_plan_diff_free(NULL);
}
