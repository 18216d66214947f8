/* test_config.c — config.json reading: ten real checkpoint configs whose
 * parameters are restated here from their model cards and whose frequencies
 * are recomputed in long double from the SPEC formulas; inline configs for
 * every key form, legacy spelling and error; and malformed input (every
 * prefix, random byte flips, exact-length buffers under ASan). */
#include "fixture_configs.h"
#include "runner.h"

#include <cjson/cJSON.h>

#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Same reasoning as test_rope_scaling.c: two long double routes to one
 * closed form agree to a few 1e-19; 2e-17 is below half a double ulp, so it
 * also checks that the low parts are carried. Where long double computes as
 * a double (valgrind emulates x87 in double, so the test is made at run
 * time), each side's rounding of x = (2i/d) ln b costs |x| <= 30 eps: 64 eps. */
static double rel_tol(void) {
    const double eps = pe_test_ld_eps();
    return eps < 1e-18 ? 2e-17 : 64 * eps;
}
#define REL_TOL rel_tol()

static const long double PI_L = 3.141592653589793238462643383279502884L;

static char *slurp(const char *name, size_t *len) {
    char path[512];
    const char *dir = getenv("PE_TEST_FIXTURES");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/fixtures/configs", name);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        pe_test_fail(__FILE__, __LINE__, "cannot open fixture %s (run from the repo "
                     "root or set PE_TEST_FIXTURES)", path);
        return NULL;
    }
    char *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, 1 << 20, fp) : 0;
    fclose(fp);
    return buf;
}

static pe_rope_config *load(const char *name) {
    static pe_rope_config c;
    char path[512];
    const char *dir = getenv("PE_TEST_FIXTURES");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/fixtures/configs", name);
    int st = pe_config_read(path, &c);
    CHECK_MSG(st == PE_OK, "%s: %s", name, pe_last_error());
    return st == PE_OK ? &c : NULL;
}

/* What the model card says, independent of the parser. */
typedef struct {
    const char *file, *model_type;
    pe_scaling_type type;
    int64_t D, d, L, L0;
    long double b, f; /* f: the factor in effect */
    pe_rope_layout layout;
    long double amp, mult;
} expect;

/* w'_i from the SPEC formula for the fixture's scheme. */
static long double ref_freq(const expect *e, int64_t i, int64_t s, const double *sf,
                            const double *lf) {
    long double w = powl(e->b, -(long double)(2 * i) / e->d);
    if (e->type == PE_SCALING_LLAMA3) {
        long double lam = 2 * PI_L / w; /* Llama 3.1: l = 1, h = 4 */
        if (lam < e->L0 / 4.0L) return w;
        if (lam > e->L0 / 1.0L) return w / e->f;
        long double t = (e->L0 / lam - 1) / (4 - 1);
        return (1 - t) * w / e->f + t * w;
    }
    if (e->type == PE_SCALING_YARN) {
        int trunc = strcmp(e->model_type, "gpt_oss") != 0;
        long double lo = e->d * logl(e->L0 / (2 * PI_L * 32)) / (2 * logl(e->b));
        long double hi = e->d * logl(e->L0 / (2 * PI_L * 1)) / (2 * logl(e->b));
        if (trunc) {
            lo = floorl(lo);
            hi = ceill(hi);
        }
        lo = lo < 0 ? 0 : lo;
        hi = hi > e->d - 1 ? e->d - 1 : hi;
        long double r = (i - lo) / (hi - lo);
        long double wi = 1 - (r < 0 ? 0 : r > 1 ? 1 : r);
        return (w / e->f) * (1 - wi) + w * wi;
    }
    if (e->type == PE_SCALING_LONGROPE) return w / (s > e->L0 ? lf[i] : sf[i]);
    return w;
}

static long double mscale(long double f, long double m) { return 0.1L * m * logl(f) + 1; }

static void check_fixture(const expect *e, const double *sf, const double *lf) {
    const pe_rope_config *c = load(e->file);
    if (c == NULL) return;
    const pe_rope_scaling *s = &c->scaling;
    CHECK_MSG(strcmp(c->model_type, e->model_type) == 0, "%s: model_type %s", e->file,
              c->model_type);
    CHECK_MSG(s->type == e->type && s->head_dim == e->D && s->rotary_dim == e->d &&
                  s->max_position == e->L && (long double)s->base == e->b,
              "%s: type %s D %lld d %lld L %lld b %g", e->file, pe_scaling_name(s->type),
              (long long)s->head_dim, (long long)s->rotary_dim, (long long)s->max_position,
              s->base);
    if (e->L0 > 0)
        CHECK_MSG(s->original_max_position == e->L0, "%s: L0 %lld", e->file,
                  (long long)s->original_max_position);
    CHECK_MSG(c->layout_known && c->layout == e->layout, "%s: layout %d known %d", e->file,
              (int)c->layout, c->layout_known);
    const int64_t lens[] = {0, 1, e->L0, e->L0 + 1, e->L > 0 ? e->L : 1};
    static pe_freqs f;
    for (int k = 0; k < 5; k++) {
        CHECK_OK(pe_config_freqs(c, lens[k], &f, NULL));
        CHECK(f.rotary_dim == e->d);
        int bad = 0;
        for (int64_t i = 0; i < e->d / 2; i++) {
            long double want = ref_freq(e, i, lens[k], sf, lf);
            long double got = (long double)f.inv_freq[i] + f.inv_freq_lo[i];
            if (fabsl(got - want) > REL_TOL * want && bad++ == 0)
                pe_test_fail(__FILE__, __LINE__, "%s s=%lld pair %lld: %.21Lg want %.21Lg",
                             e->file, (long long)lens[k], (long long)i, got, want);
        }
        /* A and the multiplier: one rounding of a long double value each. */
        CHECK_MSG(fabsl(f.attention_factor - e->amp) <= 3e-16L * e->amp &&
                      fabsl(f.softmax_scale_multiplier - e->mult) <= 3e-16L * e->mult,
                  "%s: A %.17g (want %.17Lg) multiplier %.17g (want %.17Lg)", e->file,
                  f.attention_factor, e->amp, f.softmax_scale_multiplier, e->mult);
    }
}

TEST(config_fixtures_default_rope) {
    const expect es[] = {
        {"llama-2-7b.json", "llama", PE_SCALING_DEFAULT, 128, 128, 4096, 0, 10000, 1,
         PE_ROPE_HALF, 1, 1},
        {"mistral-7b-v0.1.json", "mistral", PE_SCALING_DEFAULT, 128, 128, 32768, 0, 10000,
         1, PE_ROPE_HALF, 1, 1},
        /* GPT-NeoX: head 6144/64 = 96, rotary_pct 0.25 -> 24, rotary_emb_base. */
        {"gpt-neox-20b.json", "gpt_neox", PE_SCALING_DEFAULT, 96, 24, 2048, 0, 10000, 1,
         PE_ROPE_HALF, 1, 1},
        /* GPT-J: n_embd/n_head = 256, rotary_dim 64, n_positions, interleaved. */
        {"gpt-j-6b.json", "gptj", PE_SCALING_DEFAULT, 256, 64, 2048, 0, 10000, 1,
         PE_ROPE_INTERLEAVED, 1, 1},
    };
    for (size_t k = 0; k < sizeof es / sizeof *es; k++) check_fixture(&es[k], NULL, NULL);
}

TEST(config_fixture_llama31_llama3_scaling) {
    const expect e = {"llama-3.1-8b.json", "llama", PE_SCALING_LLAMA3, 128, 128, 131072,
                      8192, 500000, 8, PE_ROPE_HALF, 1, 1};
    check_fixture(&e, NULL, NULL);
    const pe_rope_config *c = load(e.file);
    if (c) CHECK(c->scaling.low_freq_factor == 1.0 && c->scaling.high_freq_factor == 4.0);
}

TEST(config_fixtures_yarn) {
    /* Qwen2.5-7B-Instruct with the rope_scaling block its model card adds:
     * the explicit factor 4 is used although L = L0 (HF v4.4x replaced it
     * by L/L0 = 1; transformers#38224). */
    const expect qwen = {"qwen2.5-7b-instruct-yarn.json", "qwen2", PE_SCALING_YARN, 128,
                         128, 32768, 32768, 1e6, 4, PE_ROPE_HALF, mscale(4, 1), 1};
    check_fixture(&qwen, NULL, NULL);
    /* DeepSeek-V3: MLA's rotated slice qk_rope_head_dim = 64, interleaved
     * pairs, A = mscale/mscale_all_dim = 1, softmax scale * mscale(40, 1)^2. */
    const expect ds = {"deepseek-v3.json", "deepseek_v3", PE_SCALING_YARN, 64, 64, 163840,
                       4096, 10000, 40, PE_ROPE_INTERLEAVED, 1,
                       mscale(40, 1) * mscale(40, 1)};
    check_fixture(&ds, NULL, NULL);
    /* gpt-oss: truncate false, b = 150000, head_dim 64 (not 2880/64 = 45). */
    const expect oss = {"gpt-oss-20b.json", "gpt_oss", PE_SCALING_YARN, 64, 64, 131072,
                        4096, 150000, 32, PE_ROPE_HALF, mscale(32, 1), 1};
    check_fixture(&oss, NULL, NULL);
    const pe_rope_config *c = load("gpt-oss-20b.json");
    if (c) CHECK(c->scaling.truncate == 0 && c->scaling.beta_fast == 32.0);
    c = load("deepseek-v3.json");
    if (c) CHECK(c->scaling.mscale == 1.0 && c->scaling.mscale_all_dim == 1.0);
}

/* The LongRoPE lists, read here with cJSON directly (not through the
 * library), plus literal spot checks against the published config. */
static void read_lists(const char *file, double *sf, double *lf) {
    size_t len = 0;
    char *text = slurp(file, &len);
    if (text == NULL) return;
    cJSON *root = cJSON_ParseWithLength(text, len);
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(root, "rope_scaling");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(rs, "short_factor");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(rs, "long_factor");
    CHECK(cJSON_GetArraySize(a) == 48 && cJSON_GetArraySize(b) == 48);
    for (int i = 0; i < 48 && i < cJSON_GetArraySize(a) && i < cJSON_GetArraySize(b); i++) {
        sf[i] = cJSON_GetArrayItem(a, i)->valuedouble;
        lf[i] = cJSON_GetArrayItem(b, i)->valuedouble;
    }
    cJSON_Delete(root);
    free(text);
}

TEST(config_fixtures_phi3_longrope) {
    static double sf[48], lf[48];
    /* Phi-3 mini 128k: head 3072/32 = 96, L0 = 4096 at the top level, no
     * factor -> 131072/4096 = 32, A = sqrt(1 + ln 32 / ln 4096) = sqrt(17/12). */
    read_lists("phi-3-mini-128k-instruct.json", sf, lf);
    CHECK(lf[0] == 1.0700000524520874 && lf[47] == 64.76000213623047 && sf[0] == 1.1 &&
          sf[47] == 3.049999999999997);
    const expect e = {"phi-3-mini-128k-instruct.json", "phi3", PE_SCALING_LONGROPE, 96,
                      96, 131072, 4096, 10000, 32, PE_ROPE_HALF, sqrtl(17.0L / 12), 1};
    check_fixture(&e, sf, lf);
    const pe_rope_config *c = load(e.file);
    if (c) {
        CHECK(isnan(c->scaling.factor) && c->scaling.n_short_factor == 48);
        CHECK(memcmp(c->long_factor, lf, sizeof lf) == 0);
    }
    read_lists("phi-3.5-mini-instruct.json", sf, lf);
    CHECK(sf[0] == 1.0 && lf[47] == 64.83999633789062);
    const expect e35 = {"phi-3.5-mini-instruct.json", "phi3", PE_SCALING_LONGROPE, 96, 96,
                        131072, 4096, 10000, 32, PE_ROPE_HALF, sqrtl(17.0L / 12), 1};
    check_fixture(&e35, sf, lf);
}

/* The generic keys, read as Llama's (a config names its family). */
static void parse_ok(const char *json, pe_rope_config *c) {
    char *as = pe_test_as_llama(json);
    int st = pe_config_parse(as, strlen(as), c);
    CHECK_MSG(st == PE_OK, "parse failed (%s) for %s", pe_last_error(), as);
    free(as);
}

TEST(config_key_forms_and_legacy_spellings) {
    static pe_rope_config c;
    parse_ok("{\"head_dim\":96,\"original_max_position_embeddings\":4096,"
             "\"max_position_embeddings\":8192,\"rope_scaling\":{\"type\":\"su\","
             "\"short_factor\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
             "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],\"long_factor\":[2,2,2,2,2,2,2,2,2,"
             "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,"
             "2]}}", &c);
    CHECK(c.scaling.type == PE_SCALING_LONGROPE && c.layout_known == 1);
    parse_ok("{\"model_type\":\"qwen2_vl\",\"hidden_size\":3584,\"num_attention_heads\":28,"
             "\"rope_scaling\":{\"type\":\"mrope\",\"mrope_section\":[16,24,24]}}", &c);
    CHECK(c.scaling.type == PE_SCALING_DEFAULT && c.scaling.head_dim == 128);
    /* transformers v5: rope_parameters with rope_theta inside. */
    parse_ok("{\"head_dim\":128,\"max_position_embeddings\":131072,\"rope_parameters\":"
             "{\"rope_type\":\"yarn\",\"rope_theta\":1000000,\"factor\":4.0,"
             "\"original_max_position_embeddings\":32768,\"beta_fast\":0}}", &c);
    CHECK(c.scaling.type == PE_SCALING_YARN && c.scaling.base == 1e6 &&
          c.scaling.original_max_position == 32768);
    CHECK(c.scaling.beta_fast == 32.0); /* HF: `get("beta_fast") or 32` */
    parse_ok("{\"head_dim\":64,\"rope_theta\":5e5,\"rope_scaling\":{\"rope_type\":"
             "\"linear\",\"factor\":2},\"rope_parameters\":{\"rope_type\":\"linear\","
             "\"factor\":2}}", &c); /* both, identical: fine */
    CHECK(c.scaling.type == PE_SCALING_LINEAR && c.scaling.factor == 2.0);
    /* Phi-2 style: 2560/32 = 80, partial_rotary_factor 0.4 -> int(32.0..) = 32. */
    parse_ok("{\"model_type\":\"phi\",\"hidden_size\":2560,\"num_attention_heads\":32,"
             "\"partial_rotary_factor\":0.4,\"head_dim\":null,\"rope_scaling\":null}", &c);
    CHECK(c.scaling.head_dim == 80 && c.scaling.rotary_dim == 32 && c.layout_known);
    parse_ok("{\"model_type\":\"deepseek_v3\",\"qk_rope_head_dim\":64,\"head_dim\":192,"
             "\"rope_interleave\":false}", &c);
    CHECK(c.scaling.head_dim == 64 && c.layout == PE_ROPE_HALF);
    parse_ok("{\"model_type\":\"gptj\",\"n_embd\":4096,\"n_head\":16,\"rotary_dim\":null}",
             &c);
    CHECK(c.scaling.rotary_dim == 256 && c.layout == PE_ROPE_INTERLEAVED);
    parse_ok("{\"hidden_size\":1024,\"num_attention_heads\":16,\"rotary_pct\":0.25,"
             "\"partial_rotary_factor\":0.25}   \n", &c);
    CHECK(c.scaling.rotary_dim == 16 && strcmp(c.model_type, "llama") == 0);
    parse_ok("{\"head_dim\":128,\"rope_scaling\":{\"rope_type\":\"proportional\"},"
             "\"partial_rotary_factor\":0.25}", &c);
    static pe_freqs f;
    CHECK_OK(pe_config_freqs(&c, 0, &f, NULL));
    CHECK(f.rotary_dim == 128 && f.inv_freq[15] > 0 && f.inv_freq[16] == 0);
}

TEST(config_dynamic_uses_stated_length) {
    static pe_rope_config c;
    parse_ok("{\"hidden_size\":4096,\"num_attention_heads\":32,\"max_position_embeddings\":"
             "4096,\"rope_scaling\":{\"type\":\"dynamic\",\"factor\":2.0}}", &c);
    static pe_freqs f;
    CHECK_OK(pe_config_freqs(&c, 8192, &f, NULL));
    /* base 1e4 ((2 * 8192/4096) - 1)^(128/126) = 1e4 3^(64/63) */
    long double b = 10000.0L * powl(3.0L, 128.0L / 126);
    for (int i = 0; i < 64; i++) {
        long double want = powl(b, -(long double)(2 * i) / 128);
        CHECK(fabsl((long double)f.inv_freq[i] + f.inv_freq_lo[i] - want) <= REL_TOL * want);
    }
    CHECK_OK(pe_config_freqs(&c, 4096, &f, NULL));
    CHECK(f.inv_freq[1] == (double)powl(10000.0L, -2.0L / 128));
    pe_rope_scaling s;
    CHECK_ERROR(pe_config_scaling(&c, -1, &s), PE_ERR_PARAM, "seq_len=-1");
    CHECK_ERROR(pe_config_scaling(NULL, 0, &s), PE_ERR_NULL, "config");
    CHECK_ERROR(pe_config_freqs(&c, 0, NULL, NULL), PE_ERR_NULL, "out");
    c.scaling.n_short_factor = PE_MAX_PAIRS + 1;
    CHECK_ERROR(pe_config_scaling(&c, 0, &s), PE_ERR_PARAM, "list lengths");
}

static void expect_reject(const char *json, size_t len, int status, const char *needle) {
    static pe_rope_config c, c0;
    memset(&c, 0x5A, sizeof c);
    c0 = c;
    CHECK_ERROR(pe_config_parse(json, len, &c), status, needle);
    CHECK_MSG(memcmp(&c, &c0, sizeof c) == 0, "rejected parse (%s) wrote out", needle);
}
static void expect_reject_as_llama(const char *json, int status, const char *needle) {
    char *as = pe_test_as_llama(json);
    expect_reject(as, strlen(as), status, needle);
    free(as);
}
#define REJECT(json, status, needle) expect_reject_as_llama(json, status, needle)

TEST(config_errors_name_the_key) {
    static pe_rope_config c;
    CHECK_ERROR(pe_config_parse(NULL, 2, &c), PE_ERR_NULL, "json");
    CHECK_ERROR(pe_config_parse("{}", 2, NULL), PE_ERR_NULL, "out");
    REJECT("", PE_ERR_FORMAT, "empty");
    /* The size limit is checked before a byte is read. */
    expect_reject("{}", (64u << 20) + 1, PE_ERR_FORMAT, "exceeds");
    REJECT("{\"head_dim\": 12", PE_ERR_FORMAT, "not valid JSON");
    REJECT("[1, 2]", PE_ERR_FORMAT, "must be a JSON object, not array");
    REJECT("{\"head_dim\":64} x", PE_ERR_FORMAT, "trailing data");
    expect_reject("{\"head_dim\":64}\0", 16, PE_ERR_FORMAT, "trailing data");
    /* LlamaConfig's class defaults give {} a head (4096 / 32); a family whose
     * record states none refuses by name. */
    static const char no_head[] = "{\"model_type\":\"kimi_k2\",\"num_hidden_layers\":2}";
    expect_reject(no_head, strlen(no_head), PE_ERR_FORMAT,
                  "no qk_rope_head_dim or head_dim, and no hidden_size (or n_embd)");
    REJECT("{\"hidden_size\":4096,\"num_attention_heads\":30}", PE_ERR_DIM,
           "'hidden_size'=4096 is not a positive multiple of 'num_attention_heads'=30");
    REJECT("{\"head_dim\":\"128\"}", PE_ERR_FORMAT, "'head_dim' must be a number, not string");
    REJECT("{\"head_dim\":128.5}", PE_ERR_FORMAT, "'head_dim'=128.5 must be an integer");
    REJECT("{\"head_dim\":1e300}", PE_ERR_FORMAT, "below 2^53");
    REJECT("{\"head_dim\":-4}", PE_ERR_DIM, "'head_dim'=-4");
    REJECT("{\"head_dim\":128,\"head_dim\":64}", PE_ERR_FORMAT, "'head_dim' appears more");
    REJECT("{\"head_dim\":64,\"rope_theta\":\"1e4\"}", PE_ERR_FORMAT,
           "'rope_theta' must be a number");
    REJECT("{\"head_dim\":64,\"rope_theta\":0}", PE_ERR_FORMAT, "rope_theta=0");
    REJECT("{\"head_dim\":64,\"rope_theta\":1e4,\"rotary_emb_base\":5e5}", PE_ERR_FORMAT,
           "'rope_theta'=10000 and 'rotary_emb_base'=500000 disagree");
    REJECT("{\"head_dim\":64,\"rope_theta\":1e4,\"rope_parameters\":{\"rope_type\":"
           "\"default\",\"rope_theta\":5e5}}", PE_ERR_FORMAT, "disagree");
    REJECT("{\"head_dim\":64,\"model_type\":7}", PE_ERR_FORMAT,
           "'model_type' must be a string, not number");
    REJECT("{\"head_dim\":64,\"model_type\":\"0123456789012345678901234567890123456789"
           "012345678901234567890123456789\"}", PE_ERR_FORMAT, "longer than 63");
    REJECT("{\"head_dim\":64,\"rope_scaling\":[1]}", PE_ERR_FORMAT,
           "'rope_scaling' must be an object or null, not array");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"type\":\"linear\"}}", PE_ERR_FORMAT,
           "'rope_scaling.factor' is required for rope_type 'linear'");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"foo\",\"factor\":2}}",
           PE_ERR_FORMAT, "'rope_scaling.rope_type'='foo' is not a known RoPE type");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"type\":\"explicit\"}}", PE_ERR_FORMAT,
           "not a known RoPE type");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"type\":7}}", PE_ERR_FORMAT,
           "'rope_scaling.type' must be a string");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"linear\",\"type\":"
           "\"dynamic\",\"factor\":2}}", PE_ERR_FORMAT, "disagree");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"linear\",\"factor\":\"2\"}}",
           PE_ERR_FORMAT, "'rope_scaling.factor' must be a number, not string");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"linear\",\"factor\":0}}",
           PE_ERR_FORMAT, "'rope_scaling.factor'=0 must be > 0");
    REJECT("{\"head_dim\":64,\"max_position_embeddings\":4096,\"rope_scaling\":{"
           "\"rope_type\":\"yarn\",\"factor\":4,\"truncate\":\"false\"}}", PE_ERR_FORMAT,
           "'rope_scaling.truncate' must be true or false, not string");
    REJECT("{\"head_dim\":64,\"max_position_embeddings\":4096,\"rope_scaling\":{"
           "\"rope_type\":\"yarn\",\"factor\":4,\"beta_fast\":1,\"beta_slow\":2}}",
           PE_ERR_FORMAT, "need beta_fast >= beta_slow");
    REJECT("{\"head_dim\":64,\"max_position_embeddings\":4096,\"rope_scaling\":{"
           "\"rope_type\":\"yarn\",\"factor\":4,\"attention_factor\":-1}}", PE_ERR_FORMAT,
           "'rope_scaling.attention_factor'=-1 must be > 0");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"yarn\","
           "\"original_max_position_embeddings\":4096}}", PE_ERR_FORMAT,
           "'rope_scaling.factor' is required for rope_type 'yarn'"); /* HF indexes it */
    REJECT("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"yarn\",\"factor\":4}}",
           PE_ERR_FORMAT, "original_max_position_embeddings (or max_position_embeddings)");
    REJECT("{\"head_dim\":64,\"original_max_position_embeddings\":4096,\"rope_scaling\":{"
           "\"rope_type\":\"yarn\",\"factor\":4,\"original_max_position_embeddings\":2048}}",
           PE_ERR_FORMAT, "disagree");
    REJECT("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_scaling\":{\"type\":\"dynamic\",\"factor\":2}}",
           PE_ERR_FORMAT, "max_position_embeddings is required for rope_type 'dynamic'");
    REJECT("{\"head_dim\":64,\"max_position_embeddings\":2048,\"n_positions\":1024}",
           PE_ERR_FORMAT, "'max_position_embeddings'=2048 and 'n_positions'=1024 disagree");
    REJECT("{\"head_dim\":64,\"max_position_embeddings\":0}", PE_ERR_FORMAT,
           "'max_position_embeddings'=0");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"llama3\",\"factor\":8,"
           "\"original_max_position_embeddings\":8192,\"high_freq_factor\":4}}",
           PE_ERR_FORMAT, "required for rope_type 'llama3'");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"llama3\",\"factor\":8,"
           "\"original_max_position_embeddings\":8192,\"low_freq_factor\":4,"
           "\"high_freq_factor\":1}}", PE_ERR_FORMAT, "low_freq_factor=4 must be > 0 and <");
    REJECT("{\"head_dim\":8,\"max_position_embeddings\":8,\"rope_scaling\":{\"rope_type\":"
           "\"longrope\",\"short_factor\":[1,1,1,1]}}", PE_ERR_FORMAT,
           "required for rope_type 'longrope'");
    REJECT("{\"head_dim\":8,\"max_position_embeddings\":8,\"rope_scaling\":{\"rope_type\":"
           "\"longrope\",\"short_factor\":[1,1],\"long_factor\":[1,1,1,1]}}", PE_ERR_FORMAT,
           "must each have rotary_dim/2 = 4 entries");
    REJECT("{\"head_dim\":8,\"max_position_embeddings\":8,\"rope_scaling\":{\"rope_type\":"
           "\"longrope\",\"short_factor\":[1,\"1\",1,1],\"long_factor\":[1,1,1,1]}}",
           PE_ERR_FORMAT, "'rope_scaling.short_factor'[1] must be a finite number, not string");
    REJECT("{\"head_dim\":8,\"max_position_embeddings\":8,\"rope_scaling\":{\"rope_type\":"
           "\"longrope\",\"short_factor\":[1,0,1,1],\"long_factor\":[1,1,1,1]}}",
           PE_ERR_FORMAT, "[1] must be > 0");
    REJECT("{\"head_dim\":64,\"partial_rotary_factor\":1.5}", PE_ERR_FORMAT,
           "'partial_rotary_factor'=1.5 must be in (0, 1]");
    REJECT("{\"head_dim\":100,\"partial_rotary_factor\":0.25}", PE_ERR_DIM,
           "'partial_rotary_factor' gives rotary dim 25");
    REJECT("{\"head_dim\":128,\"partial_rotary_factor\":0.5,\"rotary_dim\":32}",
           PE_ERR_FORMAT, "'rotary_dim'=32 but 'partial_rotary_factor' gives 64");
    REJECT("{\"head_dim\":128,\"partial_rotary_factor\":0.5,\"rotary_pct\":0.25}",
           PE_ERR_FORMAT, "'rotary_pct' gives rotary dim 32, 'partial_rotary_factor' gives 64");
    REJECT("{\"head_dim\":128,\"rotary_dim\":256}", PE_ERR_DIM, "'rotary_dim' gives rotary dim 256");
    REJECT("{\"head_dim\":2050,\"rope_scaling\":{\"rope_type\":\"proportional\"},"
           "\"partial_rotary_factor\":0.25}", PE_ERR_DIM, "proportional RoPE");
    REJECT("{\"head_dim\":64,\"num_hidden_layers\":2,\"layer_types\":[\"sliding_attention\","
           "\"full_attention\"],\"rope_parameters\":{\"full_attention\":{\"rope_type\":"
           "\"default\",\"rope_theta\":1e6},\"sliding_attention\":{\"rope_type\":\"default\"}}}",
           PE_ERR_UNSUPPORTED, "the layers differ: sliding_attention (1 layers from 0: default "
           "base 10000), full_attention (1 layers from 1: default base 1e+06)");
    REJECT("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"linear\",\"factor\":2},"
           "\"rope_parameters\":{\"rope_type\":\"linear\",\"factor\":4}}", PE_ERR_FORMAT,
           "both given and differ");
    REJECT("{\"head_dim\":64,\"model_type\":\"deepseek_v3\",\"rope_interleave\":1}",
           PE_ERR_FORMAT, "'rope_interleave' must be true or false");
    /* A list longer than any head: rejected, not written past the array. */
    size_t cap = 20 * (PE_MAX_PAIRS + 10) + 200, n = 0;
    char *big = malloc(cap);
    n += (size_t)snprintf(big + n, cap - n, "{\"head_dim\":64,\"max_position_embeddings\":8,"
                          "\"rope_scaling\":{\"type\":\"su\",\"long_factor\":[1,1],\"short_factor\":[1");
    for (int i = 0; i < PE_MAX_PAIRS + 5; i++) n += (size_t)snprintf(big + n, cap - n, ",1");
    snprintf(big + n, cap - n, "]}}");
    REJECT(big, PE_ERR_FORMAT, "more than 512 entries");
    free(big);
}

TEST(config_read_errors) {
    static pe_rope_config c;
    CHECK_ERROR(pe_config_read("tests/fixtures/configs/no-such-file.json", &c), PE_ERR_IO,
                "cannot open 'tests/fixtures/configs/no-such-file.json'");
    CHECK_ERROR(pe_config_read("tests/fixtures/configs", &c), PE_ERR_IO, "cannot read");
    CHECK_ERROR(pe_config_read("/dev/null", &c), PE_ERR_FORMAT, "'/dev/null' is empty");
    CHECK_ERROR(pe_config_read(NULL, &c), PE_ERR_NULL, "path");
    CHECK_ERROR(pe_config_read("x", NULL), PE_ERR_NULL, "out");
}

/* Malformed input fails cleanly: every prefix of a real config, random byte
 * flips, deep nesting. Buffers are allocated at exactly len bytes, so under
 * ASan any read past len is caught. */
TEST(config_malformed_input_never_crashes) {
    size_t len = 0;
    char *text = slurp("phi-3-mini-128k-instruct.json", &len);
    if (text == NULL) return;
    size_t body = len;
    while (body > 0 && (text[body - 1] == '\n' || text[body - 1] == ' ')) body--;
    static pe_rope_config c;
    for (size_t n = 0; n <= len; n++) {
        char *exact = malloc(n ? n : 1);
        memcpy(exact, text, n);
        int st = pe_config_parse(exact, n, &c);
        CHECK_MSG((st == PE_OK) == (n >= body), "prefix %zu of %zu: status %d (%s)", n, len,
                  st, pe_last_error());
        free(exact);
    }
    pe_rng rng = {pe_test_seed()};
    for (int it = 0; it < 3000; it++) {
        char *m = malloc(len);
        memcpy(m, text, len);
        int flips = (int)pe_rng_int(&rng, 1, 4);
        for (int k = 0; k < flips; k++)
            m[pe_rng_int(&rng, 0, (int64_t)len - 1)] = (char)pe_rng_int(&rng, 0, 255);
        int st = pe_config_parse(m, len, &c);
        CHECK_MSG(st == PE_OK || (st < 0 && st >= PE_ERR_UNSUPPORTED), "status %d", st);
        if (st == PE_OK) { /* whatever parsed must still produce sane frequencies or say why */
            static pe_freqs f;
            int fs = pe_config_freqs(&c, 5000, &f, NULL);
            CHECK(fs == PE_OK || fs < 0);
        }
        free(m);
    }
    free(text);
    size_t depth = 5000;
    char *deep = malloc(2 * depth);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    CHECK_ERROR(pe_config_parse(deep, 2 * depth, &c), PE_ERR_FORMAT, "not valid JSON");
    free(deep);
}

/* HunYuan's alpha block is read through the ntk_alpha scheme's row and
 * folded into the default scheme at b alpha^(d/(d-2)) (the plan reports
 * DEFAULT, as test_plan.c pins). The folded frequencies equal ntk_alpha's
 * own, which keep the base in the log domain, up to the one double rounding
 * of the folded base: that moves w_i by at most (2i/d) 2^-53 relative
 * (1.1e-16); 4e-16 leaves room for the two long double routes. */
TEST(config_hunyuan_alpha_is_ntk_alpha_folded) {
    pe_rope_config *c = load("hy-mt2-7b.json");
    if (c == NULL) return;
    CHECK(c->scaling.type == PE_SCALING_DEFAULT);
    static pe_freqs got, want;
    CHECK_OK(pe_config_freqs(c, 0, &got, NULL));
    pe_rope_scaling a = pe_rope_scaling_defaults(PE_SCALING_NTK_ALPHA, 128);
    a.factor = 1000.0; /* the file's rope_scaling.alpha */
    CHECK_OK(pe_freqs_from_scaling(&a, &want, NULL));
    const double tol = rel_tol() > 4e-16 ? rel_tol() : 4e-16;
    CHECK(got.rotary_dim == 128 && got.attention_factor == 1.0);
    for (int64_t i = 0; i < 64; i++) {
        long double g = (long double)got.inv_freq[i] + got.inv_freq_lo[i];
        long double w = (long double)want.inv_freq[i] + want.inv_freq_lo[i];
        CHECK_MSG(fabsl(g - w) <= tol * w, "pair %lld: %.21Lg want %.21Lg", (long long)i, g, w);
    }
    /* the key comes from the scheme table: 'alpha' is known, not warned */
    pe_plan *p = NULL;
    const char *json = "{\"model_type\":\"hunyuan_v1_dense\",\"head_dim\":8,\"rope_scaling\":"
                       "{\"type\":\"dynamic\",\"factor\":1,\"alpha\":2}}";
    CHECK_OK(pe_plan_from_config_json(json, strlen(json), &p));
    for (int64_t k = 0; p != NULL && k < pe_plan_num_warnings(p); k++)
        CHECK_MSG(strstr(pe_plan_warning(p, k), "alpha") == NULL, "warning: %s", pe_plan_warning(p, k));
    pe_plan_free(p);
}
