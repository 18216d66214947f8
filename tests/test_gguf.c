/* test_gguf.c — the GGUF reader (src/io/gguf.c) on files written by the
 * tests' own builder (gguf_build.c): good files of several architectures
 * (every key the plan reads, the rope tensors, float32 versus float64
 * storage, version 2, a sparse 64 GiB file of which only the header and the
 * rope tensor may be read), and the bad ones as the GGUF-n rows of
 * docs/ERRORS.md in the harness of errors.h (a rejected parse leaves *out
 * untouched; ASan and valgrind see that it leaks nothing). Every prefix of
 * a small file is refused. */
#include "errors.h"
#include "gguf_build.h"

#include "../src/io/gguf.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* An exact-size copy, so that a read one byte past the end is an
 * ASan/valgrind error. */
static int parse_exact(const unsigned char *p, size_t n, pe__gguf_rope **out) {
    unsigned char *exact = malloc(n ? n : 1);
    if (exact == NULL) return PE_ERR_NOMEM;
    if (n) memcpy(exact, p, n);
    int st = pe__gguf_rope_parse(exact, n, out);
    free(exact);
    return st;
}

/* Finish b, free it, parse the bytes into the poisoned OUT. */
static int parse_build(gguf_build *b) {
    size_t n;
    unsigned char *p = gb_finish(b, &n);
    gb_free(b);
    int st = parse_exact(p, n, (pe__gguf_rope **)OUT);
    free(p);
    return st;
}

/* Finish b (freed) and parse it; NULL (and a failed check) if refused. */
static pe__gguf_rope *parse_good(gguf_build *b) {
    size_t n;
    unsigned char *p = gb_finish(b, &n);
    gb_free(b);
    pe__gguf_rope *g = NULL;
    int st = parse_exact(p, n, &g);
    CHECK_MSG(st == PE_OK, "good file refused: %s", pe_last_error());
    free(p);
    return st == PE_OK ? g : NULL;
}

static void tmp_path(char *buf, size_t cap, const char *tag) {
    snprintf(buf, cap, "/tmp/pe_test_gguf_%ld_%s.gguf", (long)getpid(), tag);
}

/* Llama 3's frequency divisors as its conversion to GGUF computes them
 * (rope_type "llama3": factor 8, low 1, high 4, original context 8192),
 * re-derived here in double: pairs whose wavelength is short keep 1, long
 * ones get the factor, the band between is smoothed. */
static void llama3_divisors(int half, double base, float *out) {
    const double pi = 3.14159265358979323846, factor = 8, lo = 1, hi = 4, ctx = 8192;
    const double lo_wave = ctx / lo, hi_wave = ctx / hi;
    for (int i = 0; i < half; i++) {
        const double freq = 1.0 / pow(base, 2.0 * i / (2.0 * half));
        const double wave = 2 * pi / freq;
        double d;
        if (wave < hi_wave) d = 1;
        else if (wave > lo_wave) d = factor;
        else {
            const double smooth = (ctx / wave - lo) / (hi - lo);
            d = 1 / ((1 - smooth) / factor + smooth);
        }
        out[i] = (float)d;
    }
}

static void add_tokenizer(gguf_build *b) {
    static const char *const tokens[] = {"<s>", "</s>", "\xc4\xa0the", "\xe2\x96\x81x"};
    const float scores[4] = {0, 0, -1.5f, -2.25f};
    const int32_t kinds[4] = {3, 3, 1, 1};
    gb_str(b, "tokenizer.ggml.model", "gpt2");
    gb_str_array(b, "tokenizer.ggml.tokens", 4, tokens);
    gb_array(b, "tokenizer.ggml.scores", GB_F32, 4, scores);
    gb_array(b, "tokenizer.ggml.token_type", GB_I32, 4, kinds);
}

/* The good files, one builder each (the tests and the fuzz seeds). */

static gguf_build *llama3_file(void) {
    float div[64];
    llama3_divisors(64, 500000.0, div);
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_str(b, "general.name", "Meta Llama 3.1 8B Instruct");
    gb_u32(b, "general.alignment", 32);
    gb_u32(b, "llama.block_count", 32);
    gb_u32(b, "llama.context_length", 131072);
    gb_u32(b, "llama.embedding_length", 4096);
    gb_u32(b, "llama.attention.head_count", 32);
    gb_u32(b, "llama.attention.head_count_kv", 8);
    gb_u32(b, "llama.rope.dimension_count", 128);
    gb_f32(b, "llama.rope.freq_base", 500000.0f);
    gb_f32(b, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
    add_tokenizer(b);
    const float norm[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    gb_tensor_f32(b, "output_norm.weight", 8, norm);
    gb_tensor_f32(b, "rope_freqs.weight", 64, div);
    const uint64_t dims[2] = {32, 2};
    unsigned char q[2 * 18] = {0};
    gb_tensor(b, "token_embd.weight", 2, dims, GB_GGML_Q4_0, q, sizeof q);
    return b;
}

static gguf_build *qwen2_yarn_file(void) {
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "qwen2");
    gb_u32(b, "qwen2.block_count", 64);
    gb_u32(b, "qwen2.context_length", 131072);
    gb_u32(b, "qwen2.rope.dimension_count", 128);
    gb_f32(b, "qwen2.rope.freq_base", 1000000.0f);
    gb_str(b, "qwen2.rope.scaling.type", "yarn");
    gb_f32(b, "qwen2.rope.scaling.factor", 4.0f);
    gb_u32(b, "qwen2.rope.scaling.original_context_length", 32768);
    /* a value float32 cannot hold: the reader gives float32's value and
     * says it was float32, so the plan can report the difference */
    gb_f32(b, "qwen2.rope.scaling.attn_factor", 0.1f);
    /* keys of another architecture are not this file's */
    gb_f32(b, "llama.rope.freq_base", 10000.0f);
    return b;
}

static gguf_build *gemma3_file(void) {
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "gemma3");
    gb_u32(b, "gemma3.block_count", 26);
    gb_u32(b, "gemma3.attention.key_length", 256);
    gb_u32(b, "gemma3.attention.value_length", 256);
    gb_u32(b, "gemma3.attention.sliding_window", 512);
    gb_f32(b, "gemma3.rope.freq_base", 1000000.0f);
    gb_f32(b, "gemma3.rope.freq_base_swa", 10000.0f);
    gb_str(b, "gemma3.rope.scaling.type", "linear");
    gb_f32(b, "gemma3.rope.scaling.factor", 8.0f);
    gb_u32(b, "gemma3.attention.sliding_window_pattern", 6);
    return b;
}

static gguf_build *gpt_oss_file(void) {
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "gpt-oss");
    gb_f32(b, "gpt-oss.rope.freq_base", 150000.0f);
    gb_str(b, "gpt-oss.rope.scaling.type", "yarn");
    gb_f32(b, "gpt-oss.rope.scaling.factor", 32.0f);
    gb_u32(b, "gpt-oss.rope.scaling.original_context_length", 4096);
    gb_u32(b, "gpt-oss.attention.sliding_window", 128);
    gb_u32(b, "gpt-oss.expert_count", 32);
    return b;
}

static gguf_build *deepseek2_file(void) {
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "deepseek2");
    gb_u32(b, "deepseek2.block_count", 61);
    gb_u32(b, "deepseek2.rope.dimension_count", 64);
    gb_u32(b, "deepseek2.attention.key_length", 192);
    gb_f32(b, "deepseek2.rope.freq_base", 10000.0f);
    gb_str(b, "deepseek2.rope.scaling.type", "yarn");
    gb_f32(b, "deepseek2.rope.scaling.factor", 40.0f);
    gb_u32(b, "deepseek2.rope.scaling.original_context_length", 4096);
    gb_f32(b, "deepseek2.rope.scaling.yarn_log_multiplier", 0.1f);
    gb_f32(b, "deepseek2.rope.scaling.yarn_beta_fast", 32.0f);
    gb_f32(b, "deepseek2.rope.scaling.yarn_beta_slow", 1.0f);
    gb_f32(b, "deepseek2.rope.scaling.yarn_ext_factor", 1.0f);
    gb_f32(b, "deepseek2.rope.scaling.yarn_attn_factor", 1.0f);
    gb_bool(b, "deepseek2.rope.scaling.finetuned", 1);
    /* llama 4: NoPE every 4th layer, MoE interleave */
    gb_u32(b, "deepseek2.no_rope_layer_step", 4);
    gb_u64(b, "deepseek2.interleave_moe_layer_step", 1);
    return b;
}

static gguf_build *phi3_file(void) {
    const int32_t sections[4] = {16, 24, 24, 0};
    const int32_t heads[3] = {12, 16, 20}; /* per-layer head counts (OpenELM) */
    gguf_build *b = gb_new(2);
    gb_str(b, "general.architecture", "phi3");
    gb_array(b, "phi3.rope.dimension_sections", GB_I32, 4, sections);
    gb_array(b, "phi3.attention.head_count", GB_I32, 3, heads);
    gb_f64(b, "phi3.rope.freq_base", 10000.5);
    gb_i8(b, "x.i8", -5);
    gb_i16(b, "x.i16", -300);
    gb_u16(b, "x.u16", 65535);
    gb_u8(b, "x.u8", 200);
    gb_i64(b, "x.i64", INT64_MIN);
    gb_u64(b, "x.u64", UINT64_MAX);
    float lng[3] = {1.0f, 2.5f, 40.0f};
    gb_tensor_f32(b, "rope_factors_long.weight", 3, lng);
    unsigned char hb[4] = {0x00, 0x3c, 0x00, 0x3e}; /* f16 1.0, 1.5 */
    const uint64_t d2[1] = {2};
    gb_tensor(b, "rope_factors_short.weight", 1, d2, GB_GGML_F16, hb, 4);
    double f64[2] = {1.0 / 3.0, 7.0};
    unsigned char fb[16];
    for (int i = 0; i < 2; i++) {
        uint64_t u;
        memcpy(&u, &f64[i], 8);
        for (int k = 0; k < 8; k++) fb[8 * i + k] = (unsigned char)(u >> (8 * k));
    }
    gb_tensor(b, "rope_freqs.weight", 1, d2, GB_GGML_F64, fb, 16);
    return b;
}

static gguf_build *unknown_type_file(void) {
    gguf_build *b = gb_new(3);
    gb_f32(b, "llama.rope.freq_base", 10000.0f);
    /* a ggml type newer than this reader (size unknown) before the rope
     * tensor: accepted, and the rope tensor still read */
    const uint64_t d[1] = {64};
    unsigned char blob[64] = {0};
    gb_tensor(b, "blk.0.new_quant.weight", 1, d, 77, blob, sizeof blob);
    const float one[2] = {1.0f, 2.0f};
    gb_tensor_f32(b, "rope_freqs.weight", 2, one);
    return b;
}

/* Arrays past PE_GGUF_KEEP_ARRAY: a vocabulary-sized bool, f32 and string
 * array (kept as type and count only) and one of exactly the keep length. */
static gguf_build *long_arrays_file(void) {
    enum { N = PE_GGUF_KEEP_ARRAY + 1 };
    static uint8_t flags[N];
    static float scores[N];
    static const char *tokens[N];
    for (int i = 0; i < N; i++) {
        flags[i] = (uint8_t)(i % 2);
        scores[i] = (float)-i;
        tokens[i] = i % 3 ? "ab" : "";
    }
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_array(b, "a.flags", GB_BOOL, N, flags);
    gb_array(b, "a.scores", GB_F32, N, scores);
    gb_array(b, "a.kept", GB_F32, N - 1, scores);
    gb_str_array(b, "a.tokens", N, tokens);
    return b;
}

TEST(gguf_llama3_with_rope_freqs) {
    float div[64];
    llama3_divisors(64, 500000.0, div);
    /* the smoothed band exists: some divisors strictly between 1 and 8 */
    int between = 0;
    for (int i = 0; i < 64; i++) between += div[i] > 1 && div[i] < 8;
    CHECK(between > 0 && div[0] == 1.0f && div[63] == 8.0f);

    pe__gguf_rope *g = parse_good(llama3_file());
    if (g == NULL) return;
    CHECK(g->version == 3 && g->n_tensors == 3 && g->alignment == 32);
    CHECK(g->architecture && strcmp(g->architecture, "llama") == 0);
    CHECK(g->name && strcmp(g->name, "Meta Llama 3.1 8B Instruct") == 0);
    CHECK(g->block_count.present && g->block_count.value == 32 && g->block_count.type == PE_GGUF_U32);
    CHECK(g->context_length.value == 131072 && g->embedding_length.value == 4096);
    CHECK(g->head_count.value == 32 && g->head_count_kv.value == 8);
    CHECK(g->rope_dimension_count.present && g->rope_dimension_count.value == 128);
    CHECK(g->rope_freq_base.present && g->rope_freq_base.type == PE_GGUF_F32 &&
          g->rope_freq_base.value == 500000.0);
    CHECK(!g->rope_freq_base_swa.present && !g->rope_scaling_factor.present &&
          g->rope_scaling_type == NULL && !g->swa_pattern_present && !g->key_length.present);
    CHECK(g->rope_freqs.present && g->rope_freqs.count == 64 && g->rope_freqs.ggml_type == 0);
    for (int i = 0; g->rope_freqs.present && i < 64; i++)
        CHECK_MSG(g->rope_freqs.values[i] == (double)div[i], "rope_freqs[%d] = %.17g, wrote %.9g", i,
                  g->rope_freqs.values[i], (double)div[i]);
    CHECK(!g->rope_factors_long.present && !g->rope_factors_short.present);
    /* every key in file order, each found again by name */
    CHECK(pe__gguf_key_count(g) == 15);
    for (int64_t i = 0; i < pe__gguf_key_count(g); i++) {
        const char *name = NULL;
        pe__gguf_value v, w;
        CHECK(pe__gguf_key_at(g, i, &name, &v) == PE_OK && name != NULL);
        CHECK(pe__gguf_find(g, name, &w) && w.type == v.type && w.count == v.count);
    }
    pe__gguf_value v;
    CHECK(pe__gguf_find(g, "tokenizer.ggml.tokens", &v) && v.type == PE_GGUF_ARRAY &&
          v.elem_type == PE_GGUF_STRING && v.count == 4 && v.num == NULL);
    CHECK(pe__gguf_find(g, "tokenizer.ggml.scores", &v) && v.elem_type == PE_GGUF_F32 &&
          v.count == 4 && v.num && v.num[3] == -2.25);
    CHECK(pe__gguf_find(g, "llama.attention.layer_norm_rms_epsilon", &v) && v.type == PE_GGUF_F32 &&
          v.f == (double)1e-5f);
    CHECK(!pe__gguf_find(g, "llama.rope.freq_base_swa", &v));
    CHECK(strcmp(pe__gguf_type_name(PE_GGUF_F64), "f64") == 0 &&
          strcmp(pe__gguf_type_name((pe__gguf_type)13), "?") == 0);
    pe__gguf_rope_free(g);
}

TEST(gguf_qwen2_yarn_float32_storage) {
    pe__gguf_rope *g = parse_good(qwen2_yarn_file());
    if (g == NULL) return;
    CHECK(g->n_tensors == 0 && !g->rope_freqs.present);
    CHECK(g->rope_scaling_type && strcmp(g->rope_scaling_type, "yarn") == 0);
    CHECK(g->rope_scaling_factor.present && g->rope_scaling_factor.value == 4.0);
    CHECK(g->rope_scaling_original_context_length.value == 32768);
    CHECK(g->rope_freq_base.value == 1e6 && g->rope_freq_base.type == PE_GGUF_F32);
    CHECK(g->rope_scaling_attn_factor.type == PE_GGUF_F32 &&
          g->rope_scaling_attn_factor.value == (double)0.1f && g->rope_scaling_attn_factor.value != 0.1);
    CHECK_NEAR(g->rope_scaling_attn_factor.value, 0.1, 1.5e-9);
    pe__gguf_rope_free(g);
}

TEST(gguf_gemma3_local_base_and_sliding_window) {
    pe__gguf_rope *g = parse_good(gemma3_file());
    if (g == NULL) return;
    CHECK(g->rope_freq_base_swa.present && g->rope_freq_base_swa.value == 10000.0);
    CHECK(g->sliding_window.present && g->sliding_window.value == 512);
    CHECK(g->key_length.value == 256 && g->value_length.value == 256);
    CHECK(g->swa_pattern_present && !g->swa_pattern_is_array && g->swa_pattern_period == 6);
    CHECK(g->rope_scaling_factor.value == 8.0 && strcmp(g->rope_scaling_type, "linear") == 0);
    pe__gguf_rope_free(g);

    /* the per-layer form (Gemma 3n): true = sliding layer */
    uint8_t pattern[5] = {1, 1, 1, 1, 0};
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "gemma3n");
    gb_array(b, "gemma3n.attention.sliding_window_pattern", GB_BOOL, 5, pattern);
    g = parse_good(b);
    if (g == NULL) return;
    CHECK(g->swa_pattern_present && g->swa_pattern_is_array && g->swa_pattern_count == 5);
    for (int i = 0; g->swa_pattern_layers && i < 5; i++) CHECK(g->swa_pattern_layers[i] == (pattern[i] != 0));
    pe__gguf_rope_free(g);
}

TEST(gguf_yarn_keys_of_gpt_oss_and_deepseek) {
    pe__gguf_rope *g = parse_good(gpt_oss_file());
    if (g == NULL) return;
    CHECK(g->rope_freq_base.value == 150000.0 && g->rope_scaling_factor.value == 32.0);
    CHECK(g->rope_scaling_original_context_length.value == 4096 && g->sliding_window.value == 128);
    pe__gguf_value v;
    CHECK(pe__gguf_find(g, "gpt-oss.expert_count", &v) && v.u == 32 && v.is_integer);
    pe__gguf_rope_free(g);

    g = parse_good(deepseek2_file());
    if (g == NULL) return;
    CHECK(g->yarn_log_multiplier.present && g->yarn_log_multiplier.value == (double)0.1f);
    CHECK(g->yarn_beta_fast.value == 32.0 && g->yarn_beta_slow.value == 1.0);
    CHECK(g->yarn_ext_factor.present && g->yarn_attn_factor.present);
    CHECK(g->rope_scaling_finetuned.present && g->rope_scaling_finetuned.value);
    CHECK(g->no_rope_layer_step.value == 4 && g->interleave_moe_layer_step.value == 1 &&
          g->interleave_moe_layer_step.type == PE_GGUF_U64);
    CHECK(g->key_length.value == 192 && g->rope_dimension_count.value == 64);
    pe__gguf_rope_free(g);
}

TEST(gguf_mrope_sections_longrope_factors_f64_f16_version2) {
    pe__gguf_rope *g = parse_good(phi3_file());
    if (g == NULL) return;
    CHECK(g->version == 2);
    CHECK(g->dimension_sections_count == 4 && g->dimension_sections[0] == 16 &&
          g->dimension_sections[1] == 24 && g->dimension_sections[3] == 0);
    CHECK(!g->head_count.present); /* per-layer: via pe__gguf_find */
    pe__gguf_value v;
    CHECK(pe__gguf_find(g, "phi3.attention.head_count", &v) && v.count == 3 && v.num[2] == 20);
    CHECK(g->rope_freq_base.type == PE_GGUF_F64 && g->rope_freq_base.value == 10000.5);
    CHECK(pe__gguf_find(g, "x.i8", &v) && v.negative && v.i == -5 && v.u == 0 && v.f == -5);
    CHECK(pe__gguf_find(g, "x.i16", &v) && v.i == -300);
    CHECK(pe__gguf_find(g, "x.u16", &v) && v.u == 65535 && v.i == 65535);
    CHECK(pe__gguf_find(g, "x.u8", &v) && v.u == 200);
    CHECK(pe__gguf_find(g, "x.i64", &v) && v.i == INT64_MIN);
    CHECK(pe__gguf_find(g, "x.u64", &v) && v.u == UINT64_MAX && v.i == INT64_MAX);
    CHECK(g->rope_factors_long.present && g->rope_factors_long.count == 3 &&
          g->rope_factors_long.values[1] == 2.5 && g->rope_factors_long.values[2] == 40.0);
    CHECK(g->rope_factors_short.present && g->rope_factors_short.ggml_type == 1 &&
          g->rope_factors_short.values[0] == 1.0 && g->rope_factors_short.values[1] == 1.5);
    CHECK(g->rope_freqs.present && g->rope_freqs.ggml_type == 28 &&
          g->rope_freqs.values[0] == 1.0 / 3.0 && g->rope_freqs.values[1] == 7.0);
    pe__gguf_rope_free(g);
}

TEST(gguf_no_architecture_and_unknown_newer_tensor_type) {
    /* a file with no general.architecture: every {arch} key absent */
    pe__gguf_rope *g = parse_good(unknown_type_file());
    if (g == NULL) return;
    CHECK(g->architecture == NULL && !g->rope_freq_base.present);
    CHECK(g->rope_freqs.present && g->rope_freqs.values[1] == 2.0);
    pe__gguf_rope_free(g);
}

TEST(gguf_read_file_equals_parse) {
    char path[128];
    tmp_path(path, sizeof path, "rt");
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_f32(b, "llama.rope.freq_base", 500000.0f);
    add_tokenizer(b);
    float div[64];
    llama3_divisors(64, 500000.0, div);
    gb_tensor_f32(b, "rope_freqs.weight", 64, div);
    CHECK(gb_write(b, path) == 0);
    gb_free(b);
    pe__gguf_rope *g = NULL;
    CHECK_MSG(pe__gguf_rope_read(path, &g) == PE_OK, "%s", pe_last_error());
    if (g != NULL) {
        CHECK(g->rope_freqs.present && g->rope_freqs.count == 64 && g->rope_freqs.values[63] == 8.0);
        CHECK(g->rope_freq_base.value == 500000.0 && pe__gguf_key_count(g) == 6);
        pe__gguf_rope_free(g);
    }
    /* a truncated file names the path and what was cut */
    struct stat sb;
    CHECK(stat(path, &sb) == 0);
    CHECK(truncate(path, sb.st_size - 10) == 0);
    g = NULL;
    CHECK(pe__gguf_rope_read(path, &g) == PE_ERR_FORMAT && g == NULL);
    CHECK(strstr(pe_last_error(), path) != NULL &&
          strstr(pe_last_error(), "tensor 'rope_freqs.weight' data") != NULL);
    remove(path);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

TEST(gguf_reads_only_the_header_of_a_64_gib_file) {
    /* A sparse 64 GiB file: a tiny header, the rope tensor first, then a
     * 64 GiB "weight". Reading it whole would take tens of seconds; the
     * reader stats the size, checks the layout against it and seeks. */
    char path[128];
    tmp_path(path, sizeof path, "big");
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    const float f[4] = {1, 2, 4, 8};
    gb_tensor_f32(b, "rope_freqs.weight", 4, f);
    const uint64_t dims[2] = {1u << 20, 1u << 14}; /* 2^34 floats = 64 GiB */
    gb_tensor(b, "token_embd.weight", 2, dims, GB_GGML_F32, NULL, 0);
    gb_tensor_offset(b, 1, 32);
    size_t n;
    unsigned char *p = gb_finish(b, &n);
    gb_free(b);
    /* the builder's file ends with the rope tensor's 16 bytes padded to
     * 32, where the big tensor starts: extend it by the big tensor */
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL && fwrite(p, 1, n, fp) == n);
    if (fp) fclose(fp);
    free(p);
    const off_t size = (off_t)n + ((off_t)1 << 36);
    if (truncate(path, size) != 0) {
        remove(path);
        return; /* a file system without sparse files: nothing to show */
    }
    const double t0 = now_seconds();
    pe__gguf_rope *g = NULL;
    CHECK_MSG(pe__gguf_rope_read(path, &g) == PE_OK, "%s", pe_last_error());
    const double dt = now_seconds() - t0;
    CHECK_MSG(dt < 5.0, "reading the header took %.2f s", dt);
    if (g != NULL) {
        CHECK(g->rope_freqs.present && g->rope_freqs.values[3] == 8.0 && g->file_size == (uint64_t)size);
        pe__gguf_rope_free(g);
    }
    /* one byte short: the big tensor runs past the end */
    CHECK(truncate(path, size - 1) == 0);
    g = NULL;
    CHECK(pe__gguf_rope_read(path, &g) == PE_ERR_FORMAT && g == NULL);
    CHECK(strstr(pe_last_error(), "'token_embd.weight' data") != NULL);
    remove(path);
}

/* A small file with a pair of every type, an array of each kind and three
 * tensors, the last one ending the file (its size a multiple of the
 * alignment, so no padding follows it). */
static unsigned char *all_types_file(size_t *n) {
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    gb_u8(b, "a.u8", 1);
    gb_i8(b, "a.i8", -1);
    gb_u16(b, "a.u16", 2);
    gb_i16(b, "a.i16", -2);
    gb_u32(b, "llama.block_count", 2);
    gb_i32(b, "a.i32", -3);
    gb_f32(b, "llama.rope.freq_base", 10000.0f);
    gb_bool(b, "llama.rope.scaling.finetuned", 0);
    gb_u64(b, "a.u64", 4);
    gb_i64(b, "a.i64", -4);
    gb_f64(b, "a.f64", 0.5);
    const uint8_t bools[3] = {1, 0, 1};
    gb_array(b, "llama.attention.sliding_window_pattern", GB_BOOL, 3, bools);
    static const char *const s[2] = {"x", "yz"};
    gb_str_array(b, "a.strs", 2, s);
    const float fl[2] = {1.5f, 2.5f};
    gb_array(b, "a.f32s", GB_F32, 2, fl);
    const float r[8] = {1, 1, 2, 2, 4, 4, 8, 8};
    gb_tensor_f32(b, "rope_freqs.weight", 4, r);
    gb_tensor_f32(b, "output_norm.weight", 8, r);
    unsigned char *p = gb_finish(b, n);
    gb_free(b);
    return p;
}

TEST(gguf_long_arrays_keep_type_and_count) {
    pe__gguf_rope *g = parse_good(long_arrays_file());
    if (g == NULL) return;
    pe__gguf_value v;
    CHECK(pe__gguf_find(g, "a.flags", &v) && v.elem_type == PE_GGUF_BOOL &&
          v.count == PE_GGUF_KEEP_ARRAY + 1 && v.num == NULL);
    CHECK(pe__gguf_find(g, "a.scores", &v) && v.count == PE_GGUF_KEEP_ARRAY + 1 && v.num == NULL);
    CHECK(pe__gguf_find(g, "a.kept", &v) && v.count == PE_GGUF_KEEP_ARRAY && v.num != NULL &&
          v.num[PE_GGUF_KEEP_ARRAY - 1] == -(double)(PE_GGUF_KEEP_ARRAY - 1));
    CHECK(pe__gguf_find(g, "a.tokens", &v) && v.elem_type == PE_GGUF_STRING &&
          v.count == PE_GGUF_KEEP_ARRAY + 1);
    pe__gguf_rope_free(g);
}

TEST(gguf_every_prefix_of_a_file_is_refused) {
    size_t n;
    unsigned char *p = all_types_file(&n);
    pe__gguf_rope *g = NULL;
    CHECK_MSG(parse_exact(p, n, &g) == PE_OK, "%s", pe_last_error());
    pe__gguf_rope_free(g);
    for (size_t k = 0; k < n; k++) {
        g = (pe__gguf_rope *)(uintptr_t)0x5a5a;
        int st = parse_exact(p, k, &g);
        const char *e = pe_last_error();
        CHECK_MSG(st == PE_ERR_FORMAT && g == (pe__gguf_rope *)(uintptr_t)0x5a5a,
                  "prefix of %zu bytes: status %d (%s)", k, st, e);
        CHECK_MSG(strstr(e, k < 4 ? "not a GGUF file" : k < 24 ? "truncated" : "gguf:") != NULL,
                  "prefix of %zu bytes: %s", k, e);
    }
    free(p);
}

/* --------------------------------------------------- the GGUF-n rows */

static gguf_build *arch(const char *a) {
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", a);
    return b;
}

static gguf_build *with_tensor(const char *name, uint32_t n_dims, const uint64_t *dims,
                               uint32_t type, size_t nbytes) {
    gguf_build *b = arch("llama");
    unsigned char *zero = calloc(1, nbytes ? nbytes : 1);
    gb_tensor(b, name, n_dims, dims, type, zero, nbytes);
    free(zero);
    return b;
}

static gguf_build *rope_f32(const float *v, size_t n) {
    gguf_build *b = arch("llama");
    gb_tensor_f32(b, "rope_freqs.weight", n, v);
    return b;
}

TEST(errors_gguf_header) {
    EXPECT("GGUF-1", PE_ERR_FORMAT, "not a GGUF file (2 bytes", parse_exact((const unsigned char *)"GG", 2, OUT));
    EXPECT("GGUF-1", PE_ERR_FORMAT, "not a GGUF file (magic 47 47 55 58)",
           parse_exact((const unsigned char *)"GGUX\3\0\0\0", 8, OUT));
    EXPECT("GGUF-2", PE_ERR_UNSUPPORTED, "version 1 is not supported", parse_build(gb_new(1)));
    EXPECT("GGUF-2", PE_ERR_UNSUPPORTED, "version 4 is not supported", parse_build(gb_new(4)));
    EXPECT("GGUF-2", PE_ERR_UNSUPPORTED, "version 0 is not supported", parse_build(gb_new(0)));
    EXPECT("GGUF-3", PE_ERR_UNSUPPORTED, "big-endian file (version field 0x03000000)",
           parse_build(gb_new(0x03000000u)));
    EXPECT("GGUF-4", PE_ERR_FORMAT, "truncated: the header at byte 8 needs 8 bytes, 2 remain",
           parse_exact((const unsigned char *)"GGUF\3\0\0\0\0\0", 10, OUT));
    gguf_build *b = gb_new(3);
    gb_counts(b, 0, PE_GGUF_MAX_KV + 1u);
    EXPECT("GGUF-5", PE_ERR_FORMAT, "kv_count=1048577 exceeds the cap of 1048576", parse_build(b));
    b = gb_new(3);
    gb_counts(b, (uint64_t)1 << 40, 0);
    EXPECT("GGUF-6", PE_ERR_FORMAT, "tensor_count=1099511627776 exceeds the cap", parse_build(b));
    b = arch("llama");
    gb_counts(b, 2, 1000);
    EXPECT("GGUF-7", PE_ERR_FORMAT, "kv_count=1000 and tensor_count=2 cannot fit in the 45 bytes",
           parse_build(b));
}

TEST(errors_gguf_keys) {
    gguf_build *b = gb_new(3);
    gb_raw_kv(b, "", 0, GB_U8, "\1", 1);
    gb_u8(b, "next", 1);
    EXPECT("GGUF-8", PE_ERR_FORMAT, "key 0 at byte 24 is empty", parse_build(b));
    b = gb_new(3);
    char big[1100];
    memset(big, 'k', sizeof big);
    gb_raw_kv(b, big, sizeof big, GB_U8, "\1", 1);
    EXPECT("GGUF-8", PE_ERR_FORMAT, "key 0: key length 1100 at byte 24 exceeds the cap of 1024", parse_build(b));
    b = arch("llama");
    gb_raw_kv(b, "bad\xff\xfe", 5, GB_U8, "\1", 1);
    EXPECT("GGUF-9", PE_ERR_FORMAT, "key 1 at byte 69 is not valid UTF-8", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "a\0b", 3, GB_U8, "\1", 1);
    EXPECT("GGUF-9", PE_ERR_FORMAT, "key 0 at byte 24 is not valid UTF-8 (or holds a NUL)", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "\xed\xa0\x80", 3, GB_U8, "\1", 1); /* a UTF-16 surrogate */
    EXPECT("GGUF-9", PE_ERR_FORMAT, "is not valid UTF-8", parse_build(b));
    b = arch("llama");
    gb_u32(b, "llama.block_count", 2);
    gb_u32(b, "llama.block_count", 3);
    EXPECT("GGUF-10", PE_ERR_FORMAT, "key 'llama.block_count' appears twice", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "k", 1, 13, "\1", 1);
    EXPECT("GGUF-11", PE_ERR_FORMAT, "key 'k' has value type 13 at byte 33 (GGUF types are 0..12)", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "k", 1, GB_ARRAY, "\x63\0\0\0\0\0\0\0\0\0\0\0", 12);
    EXPECT("GGUF-11", PE_ERR_FORMAT, "key 'k': array element type 99 is not a GGUF type", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "k", 1, GB_ARRAY, "\x09\0\0\0\1\0\0\0\0\0\0\0\x04\0\0\0\0\0\0\0\0\0\0\0", 24);
    EXPECT("GGUF-12", PE_ERR_UNSUPPORTED, "key 'k': arrays of arrays are not supported", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "k", 1, GB_ARRAY, "\x00\0\0\0\x01\0\0\x04\0\0\0\0", 12);
    EXPECT("GGUF-13", PE_ERR_FORMAT, "key 'k': array count 67108865 at byte 41 exceeds the cap of 67108864",
           parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "k", 1, GB_ARRAY, "\x04\0\0\0\x10\0\0\0\0\0\0\0", 12);
    EXPECT("GGUF-4", PE_ERR_FORMAT, "truncated: key 'k' at byte 49 needs 64 bytes, 0 remain", parse_build(b));
}

TEST(errors_gguf_values) {
    gguf_build *b = gb_new(3);
    gb_raw_kv(b, "s", 1, GB_STRING, "\x01\0\0\x04\0\0\0\0", 8);
    EXPECT("GGUF-14", PE_ERR_FORMAT, "key 's': string length 67108865 at byte 37 exceeds the cap of 67108864",
           parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "s", 1, GB_STRING, "\xe8\x03\0\0\0\0\0\0abc", 11);
    EXPECT("GGUF-4", PE_ERR_FORMAT, "truncated: key 's' at byte 45 needs 1000 bytes, 3 remain", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "s", 1, GB_STRING, "\2\0\0\0\0\0\0\0\xc0\x80", 10);
    EXPECT("GGUF-14", PE_ERR_FORMAT, "key 's': string at byte 45 is not valid UTF-8", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "b", 1, GB_BOOL, "\2", 1);
    EXPECT("GGUF-15", PE_ERR_FORMAT, "key 'b': bool at byte 37 is 2, not 0 or 1", parse_build(b));
    b = gb_new(3);
    gb_raw_kv(b, "b", 1, GB_ARRAY, "\x07\0\0\0\x02\0\0\0\0\0\0\0\x01\x07", 14);
    EXPECT("GGUF-15", PE_ERR_FORMAT, "key 'b': bool at byte 50 is 7, not 0 or 1", parse_build(b));
    /* in an array too long to keep, every bool is still checked */
    static uint8_t many[PE_GGUF_KEEP_ARRAY + 10];
    many[PE_GGUF_KEEP_ARRAY + 9] = 2;
    b = gb_new(3);
    gb_array(b, "b", GB_BOOL, sizeof many, many);
    EXPECT("GGUF-15", PE_ERR_FORMAT, "key 'b': bool at byte 4154 is 2, not 0 or 1", parse_build(b));
    b = gb_new(3);
    gb_u64(b, "general.alignment", 32);
    EXPECT("GGUF-16", PE_ERR_FORMAT, "key 'general.alignment' has type u64, expected u32", parse_build(b));
    b = gb_new(3);
    gb_u32(b, "general.alignment", 48);
    EXPECT("GGUF-16", PE_ERR_FORMAT, "general.alignment = 48 is not a power of 2", parse_build(b));
    b = gb_new(3);
    gb_u32(b, "general.alignment", 0);
    EXPECT("GGUF-16", PE_ERR_FORMAT, "general.alignment = 0 is not a power of 2", parse_build(b));
    b = arch("llama");
    gb_str(b, "llama.rope.freq_base", "10000");
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'llama.rope.freq_base' has type string, expected f32 or f64", parse_build(b));
    b = arch("llama");
    gb_i32(b, "llama.block_count", -1);
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'llama.block_count' = -1 must be >= 0", parse_build(b));
    b = arch("llama");
    gb_f32(b, "llama.rope.dimension_count", 128.0f);
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'llama.rope.dimension_count' has type f32, expected an integer", parse_build(b));
    b = gb_new(3);
    gb_u32(b, "general.architecture", 1);
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'general.architecture' has type u32, expected a string", parse_build(b));
    const int32_t nine[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    b = arch("qwen2vl");
    gb_array(b, "qwen2vl.rope.dimension_sections", GB_I32, 9, nine);
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'qwen2vl.rope.dimension_sections' has 9 sections, more than 8", parse_build(b));
    const uint64_t huge[2] = {8, UINT64_MAX};
    b = arch("qwen2vl");
    gb_array(b, "qwen2vl.rope.dimension_sections", GB_U64, 2, huge);
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'qwen2vl.rope.dimension_sections'[1] = 1.8446744073709552e+19 must be in [0, 1048576]",
           parse_build(b));
    b = arch("gemma3n");
    gb_array(b, "gemma3n.attention.sliding_window_pattern", GB_I32, 3, nine);
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'gemma3n.attention.sliding_window_pattern'[1] = 2 must be 0 or 1", parse_build(b));
    b = arch("llama");
    gb_array(b, "llama.rope.freq_base", GB_F32, 1, (const float[]){1.0f});
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'llama.rope.freq_base' is an array of f32, expected f32 or f64", parse_build(b));
    b = arch("llama");
    gb_str(b, "llama.rope.scaling.finetuned", "yes");
    EXPECT("GGUF-17", PE_ERR_FORMAT, "key 'llama.rope.scaling.finetuned' has type string, expected a bool", parse_build(b));
}

TEST(errors_gguf_tensor_infos) {
    const uint64_t d4[1] = {4};
    gguf_build *b = with_tensor("", 1, d4, GB_GGML_F32, 16);
    EXPECT("GGUF-18", PE_ERR_FORMAT, "tensor 0 at byte 69 has an empty name", parse_build(b));
    char long_name[65];
    memset(long_name, 'n', 64);
    long_name[64] = '\0';
    b = with_tensor(long_name, 1, d4, GB_GGML_F32, 16);
    EXPECT("GGUF-18", PE_ERR_FORMAT, "tensor 0: name length 64 at byte 69 exceeds the cap of 63", parse_build(b));
    const uint64_t d5[5] = {1, 1, 1, 1, 1};
    b = with_tensor("t", 5, d5, GB_GGML_F32, 4);
    EXPECT("GGUF-19", PE_ERR_FORMAT, "tensor 't' has n_dims=5, more than 4", parse_build(b));
    const uint64_t dneg[1] = {(uint64_t)1 << 63};
    b = with_tensor("t", 1, dneg, GB_GGML_F32, 4);
    EXPECT("GGUF-19", PE_ERR_FORMAT, "tensor 't' dimension 0 = 9223372036854775808 exceeds INT64_MAX", parse_build(b));
    const uint64_t dbig[2] = {(uint64_t)1 << 32, (uint64_t)1 << 32};
    b = with_tensor("t", 2, dbig, GB_GGML_F32, 4);
    EXPECT("GGUF-19", PE_ERR_FORMAT, "tensor 't' has more than INT64_MAX elements", parse_build(b));
    b = with_tensor("t", 1, d4, 4, 16);
    EXPECT("GGUF-20", PE_ERR_FORMAT, "tensor 't' has ggml type 4, which is not a type", parse_build(b));
    b = with_tensor("t", 1, d4, 5000, 16);
    EXPECT("GGUF-20", PE_ERR_FORMAT, "tensor 't' has ggml type 5000, which is not a type", parse_build(b));
    const uint64_t d33[1] = {33};
    b = with_tensor("t", 1, d33, GB_GGML_Q4_0, 18);
    EXPECT("GGUF-20", PE_ERR_FORMAT, "tensor 't' row of 33 elements is not a multiple of its ggml type 2's block of 32",
           parse_build(b));
    const uint64_t dov[2] = {(uint64_t)1 << 60, 4};
    b = with_tensor("t", 2, dov, GB_GGML_F64, 8);
    EXPECT("GGUF-21", PE_ERR_OVERFLOW, "tensor 't' byte size overflows 64 bits", parse_build(b));
}

TEST(errors_gguf_layout) {
    const uint64_t d8[1] = {8};
    unsigned char z[32] = {0};
    gguf_build *b = arch("llama");
    gb_tensor(b, "a", 1, d8, GB_GGML_F32, z, 32);
    gb_tensor_offset(b, 0, 8);
    EXPECT("GGUF-22", PE_ERR_FORMAT, "tensor 'a' offset 8 is not a multiple of the alignment 32", parse_build(b));
    /* the alignment key says 64, the data was laid out for 32 */
    const uint64_t d4[1] = {4};
    b = arch("llama");
    gb_u32(b, "general.alignment", 64);
    gb_tensor(b, "a", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor(b, "b", 1, d4, GB_GGML_F32, z, 16);
    EXPECT("GGUF-22", PE_ERR_FORMAT, "tensor 'b' offset 32 is not a multiple of the alignment 64", parse_build(b));
    b = arch("llama");
    gb_tensor(b, "a", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor(b, "b", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor_offset(b, 1, 64);
    EXPECT("GGUF-23", PE_ERR_FORMAT, "tensor 'b' has offset 64, expected 32", parse_build(b));
    b = arch("llama");
    gb_tensor(b, "a", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor(b, "b", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor_offset(b, 1, 0); /* overlapping the first */
    EXPECT("GGUF-23", PE_ERR_FORMAT, "tensor 'b' has offset 0, expected 32", parse_build(b));
    const uint64_t d1000[1] = {1000};
    b = arch("llama");
    gb_tensor(b, "w", 1, d1000, GB_GGML_F32, z, 16);
    EXPECT("GGUF-24", PE_ERR_FORMAT, "tensor 'w' data at byte 128 (+4000) runs past the end of the file (160 bytes)",
           parse_build(b));
    b = arch("llama");
    gb_tensor(b, "new", 1, d4, 300, z, 16);
    gb_tensor(b, "w", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor_offset(b, 1, (uint64_t)1 << 40);
    EXPECT("GGUF-24", PE_ERR_FORMAT, "tensor 'w' data at byte 1099511627936 (+16) runs past the end of the file (224 bytes)", parse_build(b));
    b = arch("llama");
    gb_tensor(b, "new", 1, d4, 300, z, 16);
    gb_tensor(b, "w", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor_offset(b, 1, UINT64_MAX - 31);
    EXPECT("GGUF-21", PE_ERR_OVERFLOW, "tensor 'w' offset 18446744073709551584 overflows 64 bits", parse_build(b));
    b = arch("llama");
    gb_tensor(b, "a", 1, d4, GB_GGML_F32, z, 16);
    gb_tensor(b, "a", 1, d4, GB_GGML_F32, z, 16);
    EXPECT("GGUF-25", PE_ERR_FORMAT, "tensor name 'a' appears twice", parse_build(b));
}

TEST(errors_gguf_rope_tensors) {
    const uint64_t d32[1] = {32}, d22[2] = {2, 2}, d0[1] = {0};
    unsigned char z[34] = {0};
    gguf_build *b = with_tensor("rope_freqs.weight", 1, d32, GB_GGML_Q8_0, 34);
    (void)z;
    EXPECT("GGUF-26", PE_ERR_FORMAT, "tensor 'rope_freqs.weight' has ggml type 8; a rope tensor must be F32, F16 or F64",
           parse_build(b));
    const float one[4] = {1, 1, 1, 1};
    b = arch("llama");
    gb_tensor(b, "rope_factors_long.weight", 2, d22, GB_GGML_F32, one, 16);
    EXPECT("GGUF-26", PE_ERR_FORMAT, "tensor 'rope_factors_long.weight' has 2 dimensions; a rope tensor has 1",
           parse_build(b));
    b = with_tensor("rope_freqs.weight", 1, d0, GB_GGML_F32, 0);
    EXPECT("GGUF-26", PE_ERR_FORMAT, "tensor 'rope_freqs.weight' has 0 elements; a rope tensor has 1..65536",
           parse_build(b));
    const float nan[3] = {1.0f, NAN, 2.0f}, zero[2] = {1.0f, 0.0f}, neg[1] = {-1.0f}, inf[1] = {INFINITY};
    EXPECT("GGUF-27", PE_ERR_FORMAT, "tensor 'rope_freqs.weight'[1] = nan must be finite and > 0",
           parse_build(rope_f32(nan, 3)));
    EXPECT("GGUF-27", PE_ERR_FORMAT, "tensor 'rope_freqs.weight'[1] = 0 must be finite and > 0",
           parse_build(rope_f32(zero, 2)));
    EXPECT("GGUF-27", PE_ERR_FORMAT, "tensor 'rope_freqs.weight'[0] = -1 must be finite and > 0",
           parse_build(rope_f32(neg, 1)));
    EXPECT("GGUF-27", PE_ERR_FORMAT, "tensor 'rope_freqs.weight'[0] = inf must be finite and > 0",
           parse_build(rope_f32(inf, 1)));
}

TEST(errors_gguf_arguments_and_files) {
    EXPECT("GGUF-28", PE_ERR_NULL, "out must not be NULL", pe__gguf_rope_parse((const unsigned char *)"GGUF", 4, NULL));
    EXPECT("GGUF-28", PE_ERR_NULL, "buf must not be NULL", pe__gguf_rope_parse(NULL, 4, OUT));
    EXPECT("GGUF-28", PE_ERR_NULL, "path must not be NULL", pe__gguf_rope_read(NULL, OUT));
    EXPECT("GGUF-29", PE_ERR_IO, "cannot open /nonexistent/x.gguf", pe__gguf_rope_read("/nonexistent/x.gguf", OUT));
    EXPECT("GGUF-29", PE_ERR_IO, "/tmp: not a regular file", pe__gguf_rope_read("/tmp", OUT));
    pe__gguf_rope *g = parse_good(arch("llama"));
    if (g == NULL) return;
    EXPECT("GGUF-30", PE_ERR_RANGE, "index=1 outside [0, key count=1)",
           pe__gguf_key_at(g, 1, OUT, (pe__gguf_value *)OUT_AT(64)));
    EXPECT("GGUF-30", PE_ERR_RANGE, "index=-1 outside [0, key count=1)",
           pe__gguf_key_at(g, -1, OUT, (pe__gguf_value *)OUT_AT(64)));
    EXPECT("GGUF-28", PE_ERR_NULL, "name must not be NULL", pe__gguf_key_at(g, 0, NULL, (pe__gguf_value *)OUT));
    pe__gguf_rope_free(g);
}

/* Every good file parses; PE_GGUF_WRITE_CORPUS=dir also writes them there
 * as seeds (how fuzz/corpus/gguf/'s seeds were made). */
TEST(gguf_good_files_as_fuzz_seeds) {
    static const struct {
        const char *name;
        gguf_build *(*make)(void);
    } files[] = {{"llama3", llama3_file},       {"qwen2_yarn", qwen2_yarn_file},
                 {"gemma3", gemma3_file},       {"gpt_oss", gpt_oss_file},
                 {"deepseek2", deepseek2_file}, {"phi3_v2", phi3_file},
                 {"unknown_type", unknown_type_file}, {"long_arrays", long_arrays_file}};
    const char *dir = getenv("PE_GGUF_WRITE_CORPUS");
    for (size_t i = 0; i < sizeof files / sizeof files[0] + 1; i++) {
        size_t n;
        unsigned char *p;
        if (i < sizeof files / sizeof files[0]) {
            gguf_build *b = files[i].make();
            p = gb_finish(b, &n);
            gb_free(b);
        } else {
            p = all_types_file(&n);
        }
        pe__gguf_rope *g = NULL;
        CHECK(parse_exact(p, n, &g) == PE_OK);
        pe__gguf_rope_free(g);
        if (dir != NULL) {
            char path[512];
            snprintf(path, sizeof path, "%s/seed_%s.gguf", dir,
                     i < sizeof files / sizeof files[0] ? files[i].name : "all_types");
            FILE *f = fopen(path, "wb");
            CHECK(f != NULL && fwrite(p, 1, n, f) == n);
            if (f) fclose(f);
        }
        free(p);
    }
}
