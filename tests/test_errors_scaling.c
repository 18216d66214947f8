/* test_errors_scaling.c — docs/ERRORS.md rows for the frequency generators
 * (SCL), M-RoPE (MRP) and model configs (CFG), in the harness of errors.h:
 * poisoned outputs, status, detail with the argument and value, and not one
 * output byte written by a rejected call. */
#include "errors.h"
#include "fixture_configs.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pe_rope_scaling scaling(pe_scaling_type type) {
    pe_rope_scaling s = pe_rope_scaling_defaults(type, 64);
    s.factor = 4;
    s.original_max_position = 4096;
    s.max_position = 16384;
    return s;
}

/* Frequencies into OUT, the interpolation weights after them. */
static int gen(const pe_rope_scaling *s) {
    return pe_freqs_from_scaling(s, OUT, (double *)OUT_AT(sizeof(pe_freqs) + 64));
}

TEST(errors_scaling) {
    static const double ones[32] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    static double with_zero[32];
    for (int i = 0; i < 32; i++) with_zero[i] = i == 5 ? 0.0 : 2.0;
    pe_rope_scaling s = scaling(PE_SCALING_LINEAR);
    EXPECT("SCL-1", PE_ERR_NULL, "scaling must not be NULL", pe_freqs_from_scaling(NULL, OUT, NULL));
    EXPECT("SCL-1", PE_ERR_NULL, "out must not be NULL", pe_freqs_from_scaling(&s, NULL, NULL));
    s.type = (pe_scaling_type)12;
    EXPECT("SCL-2", PE_ERR_PARAM, "type=12 is not a scaling type", gen(&s));
    s = scaling(PE_SCALING_DEFAULT);
    s.rotary_dim = 63;
    EXPECT("SCL-3", PE_ERR_DIM, "rotary_dim=63 must be even and in [2, 1024]", gen(&s));
    s.rotary_dim = 128;
    EXPECT("SCL-3", PE_ERR_DIM, "rotary_dim=128 exceeds head_dim=64", gen(&s));
    s = scaling(PE_SCALING_DEFAULT);
    s.base = NAN;
    EXPECT("SCL-4", PE_ERR_PARAM, "base=nan must be finite, positive and not 1", gen(&s));
    s.base = 1.0;
    EXPECT("SCL-4", PE_ERR_PARAM, "base=1 ", gen(&s));
    const double factors[] = {0.0, -2.0, INFINITY, NAN};
    const char *fn[] = {"factor=0 must be finite and > 0", "factor=-2 ", "factor=inf ", "factor=nan "};
    for (int k = 0; k < 4; k++) {
        s = scaling(PE_SCALING_LINEAR);
        s.factor = factors[k];
        EXPECT("SCL-5", PE_ERR_PARAM, fn[k], gen(&s));
    }
    s = scaling(PE_SCALING_YARN);
    s.original_max_position = 0;
    EXPECT("SCL-6", PE_ERR_PARAM, "original_max_position=0 must be > 0", gen(&s));
    s = scaling(PE_SCALING_DYNAMIC);
    s.max_position = -1;
    EXPECT("SCL-6", PE_ERR_PARAM, "max_position=-1 must be > 0", gen(&s));
    s = scaling(PE_SCALING_DYNAMIC);
    s.seq_len = -5;
    EXPECT("SCL-7", PE_ERR_PARAM, "seq_len=-5 must be >= 0 (0: not stated)", gen(&s));
    s = scaling(PE_SCALING_NTK);
    s.rotary_dim = 2;
    EXPECT("SCL-8", PE_ERR_DIM, "rotary_dim=2: NTK's exponent d/(d-2) needs d > 2", gen(&s));
    s.type = PE_SCALING_DYNAMIC;
    EXPECT("SCL-8", PE_ERR_DIM, "rotary_dim=2: dynamic NTK's exponent", gen(&s));
    s = scaling(PE_SCALING_YARN);
    s.factor = NAN;
    s.max_position = 0;
    EXPECT("SCL-9", PE_ERR_PARAM, "factor=nan needs max_position=0 > 0", gen(&s));
    s = scaling(PE_SCALING_YARN);
    s.beta_fast = 1;
    s.beta_slow = 32;
    EXPECT("SCL-10", PE_ERR_PARAM, "beta_fast=1 must be >= beta_slow=32", gen(&s));
    s.beta_slow = NAN;
    EXPECT("SCL-10", PE_ERR_PARAM, "beta_slow=nan and beta_fast=1 must be finite and > 0", gen(&s));
    s = scaling(PE_SCALING_YARN);
    s.mscale = -1;
    EXPECT("SCL-11", PE_ERR_PARAM, "mscale=-1 must be finite and >= 0 (0: unset)", gen(&s));
    s.mscale = 0;
    s.mscale_all_dim = INFINITY;
    EXPECT("SCL-11", PE_ERR_PARAM, "mscale_all_dim=inf must be finite and >= 0", gen(&s));
    s = scaling(PE_SCALING_YARN);
    s.attention_factor = 0;
    EXPECT("SCL-12", PE_ERR_PARAM, "attention_factor=0 must be finite and > 0 (NAN: derive)", gen(&s));
    s = scaling(PE_SCALING_LLAMA3);
    s.low_freq_factor = 0;
    EXPECT("SCL-13", PE_ERR_PARAM, "low_freq_factor=0 must be > 0 and high_freq_factor=4 finite", gen(&s));
    s.low_freq_factor = 4;
    s.high_freq_factor = 1;
    EXPECT("SCL-13", PE_ERR_PARAM, "low_freq_factor=4 must be < high_freq_factor=1", gen(&s));
    s = scaling(PE_SCALING_LONGROPE);
    EXPECT("SCL-14", PE_ERR_NULL, "short_factor must not be NULL", gen(&s));
    s.short_factor = ones;
    s.n_short_factor = 31;
    EXPECT("SCL-15", PE_ERR_SHAPE, "short_factor has 31 entries; it needs one per rotated pair: 32", gen(&s));
    s.n_short_factor = 32;
    s.long_factor = with_zero;
    s.n_long_factor = 32;
    EXPECT("SCL-16", PE_ERR_PARAM, "long_factor[5]=0 must be finite and > 0", gen(&s));
    s.long_factor = ones;
    s.original_max_position = 1;
    EXPECT("SCL-17", PE_ERR_PARAM, "original_max_position=1: LongRoPE's attention factor divides by ln(L0)",
           gen(&s));
    s = scaling(PE_SCALING_PROPORTIONAL);
    s.head_dim = 65;
    EXPECT("SCL-18", PE_ERR_DIM, "head_dim=65 must be even and <= PE_MAX_ROTARY_DIM=1024: proportional", gen(&s));
    s = scaling(PE_SCALING_EXPLICIT);
    s.divisors = with_zero;
    s.n_divisors = 32;
    EXPECT("SCL-16", PE_ERR_PARAM, "divisors[5]=0 must be finite and > 0", gen(&s));
    s = scaling(PE_SCALING_LINEAR);
    s.factor = 1e-300; /* w_0 / f = 1e300: past 1e240, yet finite in long double and double alike (valgrind) */
    EXPECT("SCL-19", PE_ERR_PARAM, "linear gives inv_freq[0]=1e+300 outside (0, 1e240] (base=10000, factor=1e-300)",
           gen(&s));
    s = scaling(PE_SCALING_YARN);
    s.factor = 1e10;
    s.mscale = 1e308;
    s.mscale_all_dim = 1e-300;
    EXPECT("SCL-20", PE_ERR_PARAM, "yarn gives attention factor A=inf", gen(&s));
    s.mscale = 0;
    s.mscale_all_dim = 1e200;
    EXPECT("SCL-21", PE_ERR_PARAM, "yarn gives softmax multiplier inf (mscale_all_dim=1e+200)", gen(&s));

    double *lh = OUTD;
    EXPECT("SCL-10", PE_ERR_PARAM, "beta_fast=1 must be >= beta_slow=32",
           pe_yarn_correction_range(64, 1e4, 4096, 1, 32, 1, lh, lh + 1));
    EXPECT("SCL-3", PE_ERR_DIM, "rotary_dim=63 ", pe_yarn_correction_range(63, 1e4, 4096, 32, 1, 1, lh, lh + 1));
    EXPECT("SCL-4", PE_ERR_PARAM, "base=0 ", pe_yarn_correction_range(64, 0, 4096, 32, 1, 1, lh, lh + 1));
    EXPECT("SCL-6", PE_ERR_PARAM, "original_max_position=-1 ",
           pe_yarn_correction_range(64, 1e4, -1, 32, 1, 1, lh, lh + 1));
    EXPECT("SCL-1", PE_ERR_NULL, "high must not be NULL", pe_yarn_correction_range(64, 1e4, 4096, 32, 1, 1, lh, NULL));
    EXPECT("SCL-22", PE_ERR_PARAM, "scaling name 'YaRN' is not one of default, linear",
           pe_scaling_from_name("YaRN", OUT));
    {
        pe_rope_scaling s2 = pe_rope_scaling_defaults(PE_SCALING_YARN, 8), keep;
        memcpy(&keep, &s2, sizeof s2);
        const int np = pe_scaling_num_params();
        EXPECT("SCL-23", PE_ERR_PARAM, "is not a scaling parameter (0 to ", pe_scaling_set_real(&s2, np, 1.0));
        EXPECT("SCL-23", PE_ERR_PARAM, "i=-1 is not a scaling parameter", pe_scaling_set_int(&s2, -1, 1));
        int real = -1, list = -1;
        for (int i = 0; i < np; i++) {
            if (pe_scaling_param_get(i)->kind == PE_SCALING_PARAM_REAL && real < 0) real = i;
            if (pe_scaling_param_get(i)->kind == PE_SCALING_PARAM_LIST && list < 0) list = i;
        }
        EXPECT("SCL-23", PE_ERR_PARAM, "is not of this kind", pe_scaling_set_list(&s2, real, NULL, 0));
        EXPECT("SCL-23", PE_ERR_PARAM, "is not of this kind", pe_scaling_set_real(&s2, list, 1.0));
        EXPECT("SCL-24", PE_ERR_NULL, "s must not be NULL", pe_scaling_set_real(NULL, real, 1.0));
        CHECK(memcmp(&s2, &keep, sizeof s2) == 0); /* refused calls wrote nothing */
    }
    EXPECT("SCL-1", PE_ERR_NULL, "name must not be NULL", pe_scaling_from_name(NULL, OUT));
}

TEST(errors_mrope) {
    pe_freqs f;
    CHECK_OK(pe_freqs_default(16, 1e4, &f));
    const int64_t ok[3] = {4, 2, 2}, neg[3] = {4, -1, 5}, sum7[3] = {4, 2, 1}, il[3] = {2, 3, 3};
    static const int64_t pos[6] = {0, 1, 2, 3, 4, 5};
    static const float x[2 * 16];
    const pe_tensor in = pe_tensor_dense((void *)x, PE_F32, 2, 1, 16);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, 2, 1, 16);
    pe_tensor bad;
    const pe_mrope_mode B = PE_MROPE_BLOCKED, I = PE_MROPE_INTERLEAVED;
    EXPECT("MRP-1", PE_ERR_PARAM, "mode=5 is not an M-RoPE mode", pe_mrope_slot_axes(16, ok, (pe_mrope_mode)5, OUT));
    EXPECT("MRP-2", PE_ERR_NULL, "sections must not be NULL", pe_mrope_slot_axes(16, NULL, B, OUT));
    EXPECT("MRP-2", PE_ERR_NULL, "axes must not be NULL", pe_mrope_slot_axes(16, ok, B, NULL));
    EXPECT("MRP-3", PE_ERR_PARAM, "sections s_h=-1 must be in [0, rotary_dim/2=8]",
           pe_mrope_slot_axes(16, neg, B, OUT));
    EXPECT("MRP-4", PE_ERR_PARAM, "sections {4, 2, 1} sum to 7, not rotary_dim/2=8",
           pe_mrope_cos_sin(&f, pos, 2, sum7, B, OUT, OUT_AT(4096), PE_F64));
    EXPECT("MRP-5", PE_ERR_PARAM, "interleaved sections {2, 3, 3}: s_w=3 gets only 2 of rotary_dim/2=8 slots",
           pe_mrope_apply(&f, PE_ROPE_HALF, pos, il, I, &in, &out, PE_ROPE_FORWARD));
    EXPECT("MRP-6", PE_ERR_DIM, "rotary_dim=7 must be even and in [2, 1024]", pe_mrope_slot_axes(7, ok, B, OUT));
    EXPECT("MRP-7", PE_ERR_SHAPE, "count=-1 must be >= 0",
           pe_mrope_cos_sin(&f, pos, -1, ok, B, OUT, OUT_AT(4096), PE_F64));
    EXPECT("MRP-8", PE_ERR_OVERFLOW, "positions (4611686018427387904, 3) overflow size_t",
           pe_mrope_cos_sin(&f, pos, (int64_t)1 << 62, ok, B, OUT, OUT_AT(4096), PE_F64));
    EXPECT("MRP-2", PE_ERR_NULL, "positions must not be NULL",
           pe_mrope_apply(&f, PE_ROPE_HALF, NULL, ok, B, &in, &out, PE_ROPE_FORWARD));
    EXPECT("MRP-9", PE_ERR_PARAM, "layout=2 is not a RoPE layout",
           pe_mrope_apply(&f, (pe_rope_layout)2, pos, ok, B, &in, &out, PE_ROPE_FORWARD));
    EXPECT("MRP-10", PE_ERR_PARAM, "direction=-1 is not a RoPE direction",
           pe_mrope_apply(&f, PE_ROPE_HALF, pos, ok, B, &in, &out, (pe_rope_direction)-1));
    bad = out;
    bad.dtype = PE_BF16;
    EXPECT("MRP-11", PE_ERR_DTYPE, "RoPE tensors must be f32, f16 or bf16, out like in (in f32, out bf16)",
           pe_mrope_apply(&f, PE_ROPE_HALF, pos, ok, B, &in, &bad, PE_ROPE_FORWARD));
    bad = pe_tensor_dense(OUT, PE_F32, 2, 1, 18);
    EXPECT("MRP-12", PE_ERR_SHAPE, "in (2, 1, 16) and out (2, 1, 18) differ",
           pe_mrope_apply(&f, PE_ROPE_HALF, pos, ok, B, &in, &bad, PE_ROPE_FORWARD));
    const pe_tensor in8 = pe_tensor_dense((void *)x, PE_F32, 2, 1, 8);
    const pe_tensor out8 = pe_tensor_dense(OUT, PE_F32, 2, 1, 8);
    EXPECT("MRP-13", PE_ERR_DIM, "rotary_dim=16 exceeds head_dim=8",
           pe_mrope_apply(&f, PE_ROPE_HALF, pos, ok, B, &in8, &out8, PE_ROPE_FORWARD));
    bad = out;
    bad.token_stride = 32;
    EXPECT("MRP-14", PE_ERR_SHAPE, "out overlaps in: only the same view (in place)",
           pe_mrope_apply(&f, PE_ROPE_HALF, pos, ok, B, &out, &bad, PE_ROPE_FORWARD));
    EXPECT("MRP-15", PE_ERR_DTYPE, "dtype=i64: cos/sin caches are f32, f64, f16 or bf16",
           pe_mrope_cos_sin(&f, pos, 2, ok, B, OUT, OUT_AT(4096), PE_I64));
    EXPECT("MRP-2", PE_ERR_NULL, "cos_out must not be NULL",
           pe_mrope_cos_sin(&f, pos, 2, ok, B, NULL, OUT_AT(4096), PE_F64));
}

/* The generic keys' errors, read as Llama's (a config names its family). */
static int cfg(const char *json) {
    char *as = pe_test_as_llama(json);
    int st = pe_config_parse(as, strlen(as), OUT);
    free(as);
    return st;
}

TEST(errors_config_parse) {
    EXPECT("CFG-1", PE_ERR_FORMAT, "key 'head_dim' appears more than once", cfg("{\"head_dim\":128,\"head_dim\":64}"));
    EXPECT("CFG-2", PE_ERR_FORMAT, "'rope_theta' must be a number, not string",
           cfg("{\"head_dim\":64,\"rope_theta\":\"1e4\"}"));
    EXPECT("CFG-3", PE_ERR_FORMAT, "'rope_theta' is not a finite number", cfg("{\"head_dim\":64,\"rope_theta\":1e999}"));
    EXPECT("CFG-4", PE_ERR_FORMAT, "'head_dim'=1.5 must be an integer below 2^53", cfg("{\"head_dim\":1.5}"));
    EXPECT("CFG-4", PE_ERR_FORMAT, "'max_position_embeddings'=1e+17 must be an integer",
           cfg("{\"head_dim\":64,\"max_position_embeddings\":1e17}"));
    EXPECT("CFG-5", PE_ERR_FORMAT, "'rope_interleave' must be true or false, not number",
           cfg("{\"model_type\":\"deepseek_v3\",\"head_dim\":64,\"rope_interleave\":1}"));
    EXPECT("CFG-6", PE_ERR_FORMAT, "'model_type' must be a string, not number", cfg("{\"head_dim\":64,\"model_type\":7}"));
    EXPECT("CFG-7", PE_ERR_FORMAT, "'rope_scaling.short_factor' must be an array of numbers, not string",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"short_factor\":\"1\"}}"));
    char *big = malloc(16 + 3 * (PE_MAX_PAIRS + 1) + 64);
    if (big != NULL) {
        size_t n = (size_t)sprintf(big, "{\"head_dim\":64,\"rope_scaling\":{\"long_factor\":[1");
        for (int i = 1; i < PE_MAX_PAIRS + 1; i++) n += (size_t)sprintf(big + n, ",1");
        sprintf(big + n, "]}}");
        EXPECT("CFG-8", PE_ERR_FORMAT, "'rope_scaling.long_factor' has more than 512 entries", cfg(big));
        free(big);
    }
    EXPECT("CFG-9", PE_ERR_FORMAT, "'rope_scaling.short_factor'[1] must be a finite number, not null",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"short_factor\":[1,null]}}"));
    EXPECT("CFG-10", PE_ERR_FORMAT, "'rope_parameters.rope_theta'=500000 and 'rope_theta'=10000 disagree",
           cfg("{\"head_dim\":64,\"rope_theta\":1e4,\"rope_parameters\":{\"rope_type\":\"default\","
               "\"rope_theta\":5e5}}"));
    EXPECT("CFG-10", PE_ERR_FORMAT, "'max_position_embeddings'=4096 and 'n_positions'=2048 disagree",
           cfg("{\"head_dim\":64,\"max_position_embeddings\":4096,\"n_positions\":2048}"));
    EXPECT("CFG-11", PE_ERR_FORMAT, "'rope_scaling' must be an object or null, not array",
           cfg("{\"head_dim\":64,\"rope_scaling\":[1]}"));
    EXPECT("CFG-11", PE_ERR_FORMAT, "'rope_parameters' must be an object or null, not number",
           cfg("{\"head_dim\":64,\"rope_parameters\":3}"));
    EXPECT("CFG-12", PE_ERR_FORMAT, "'rope_scaling' and 'rope_parameters' are both given and differ",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"linear\",\"factor\":2},"
               "\"rope_parameters\":{\"rope_type\":\"linear\",\"factor\":4}}"));
    EXPECT("CFG-13", PE_ERR_UNSUPPORTED, "the layers differ: sliding_attention (1 layers from 0: default base 10000), "
           "full_attention (1 layers from 1: linear base 10000); ask for a layer",
           cfg("{\"head_dim\":64,\"num_hidden_layers\":2,\"layer_types\":[\"sliding_attention\",\"full_attention\"],"
               "\"rope_parameters\":{\"full_attention\":{\"rope_type\":\"linear\",\"factor\":2},"
               "\"sliding_attention\":{\"rope_type\":\"default\"}}}"));
    EXPECT("CFG-14", PE_ERR_FORMAT, "'rope_scaling.rope_type'='yarn' and 'rope_scaling.type'='linear' disagree",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"yarn\",\"type\":\"linear\"}}"));
    EXPECT("CFG-15", PE_ERR_FORMAT, "'rope_scaling.type'='cubic' is not a known RoPE type",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"type\":\"cubic\"}}"));
    EXPECT("CFG-15", PE_ERR_FORMAT, "'rope_scaling.rope_type'='explicit' is not a known RoPE type",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"rope_type\":\"explicit\"}}"));
    EXPECT("CFG-16", PE_ERR_DIM, "'head_dim'=-4 must be > 0", cfg("{\"head_dim\":-4}"));
    EXPECT("CFG-17", PE_ERR_DIM, "'hidden_size'=100 is not a positive multiple of 'num_attention_heads'=3",
           cfg("{\"hidden_size\":100,\"num_attention_heads\":3}"));
    EXPECT("CFG-18", PE_ERR_FORMAT, "config has no qk_rope_head_dim or head_dim, and no hidden_size (or "
           "n_embd) to derive it from: posenc's record of 'kimi_k2' states no class default for it",
           cfg("{\"model_type\":\"kimi_k2\",\"num_hidden_layers\":2}"));
    EXPECT("CFG-18", PE_ERR_FORMAT, "config has no qk_rope_head_dim or head_dim, and no "
           "num_attention_heads (or n_head) to derive it from: posenc's record of 'kimi_k2'",
           cfg("{\"model_type\":\"kimi_k2\",\"num_hidden_layers\":2,\"hidden_size\":64}"));
    EXPECT("CFG-19", PE_ERR_FORMAT, "'partial_rotary_factor'=1.5 must be in (0, 1]",
           cfg("{\"head_dim\":64,\"partial_rotary_factor\":1.5}"));
    EXPECT("CFG-20", PE_ERR_FORMAT, "'rotary_pct' gives rotary dim 32, 'partial_rotary_factor' gives 16",
           cfg("{\"head_dim\":64,\"partial_rotary_factor\":0.25,\"rotary_pct\":0.5}"));
    EXPECT("CFG-20", PE_ERR_FORMAT, "'rotary_dim'=32 but 'partial_rotary_factor' gives 16",
           cfg("{\"head_dim\":64,\"partial_rotary_factor\":0.25,\"rotary_dim\":32}"));
    EXPECT("CFG-21", PE_ERR_FORMAT, "config must be a JSON object, not array", cfg("[1, 2]"));
    EXPECT("CFG-22", PE_ERR_FORMAT, "'model_type' is longer than 63 bytes",
           cfg("{\"head_dim\":64,\"model_type\":\"0123456789012345678901234567890123456789012345678901"
               "234567890123\"}"));
    EXPECT("CFG-23", PE_ERR_FORMAT, "rope_theta=0 must be > 0 and not 1", cfg("{\"head_dim\":64,\"rope_theta\":0}"));
    EXPECT("CFG-24", PE_ERR_DIM, "'head_dim' gives rotary dim 127: must be even and in [2, min(head_dim=127, PE_MAX_ROTARY_DIM=1024)]",
           cfg("{\"head_dim\":127}"));
    EXPECT("CFG-25", PE_ERR_DIM, "'head_dim'=131: proportional RoPE needs an even head of at most PE_MAX_ROTARY_DIM=1024",
           cfg("{\"head_dim\":131,\"rotary_dim\":64,\"rope_scaling\":{\"rope_type\":\"proportional\"}}"));
    EXPECT("CFG-26", PE_ERR_FORMAT, "'max_position_embeddings'=0 must be > 0",
           cfg("{\"head_dim\":64,\"max_position_embeddings\":0}"));
    EXPECT("CFG-27", PE_ERR_FORMAT,
           "rope_scaling.original_max_position_embeddings (or max_position_embeddings) is required for "
           "rope_type 'yarn'",
           cfg("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_scaling\":{\"type\":\"yarn\",\"factor\":4}}"));
    EXPECT("CFG-28", PE_ERR_FORMAT, "original_max_position_embeddings=-5 must be > 0",
           cfg("{\"head_dim\":64,\"original_max_position_embeddings\":-5,\"rope_scaling\":{\"type\":\"yarn\","
               "\"factor\":4}}"));
    EXPECT("CFG-29", PE_ERR_FORMAT, "max_position_embeddings is required for rope_type 'dynamic'",
           cfg("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_scaling\":{\"type\":\"dynamic\",\"factor\":2}}"));
    EXPECT("CFG-30", PE_ERR_FORMAT, "'rope_scaling.factor' is required for rope_type 'linear'",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"type\":\"linear\"}}"));
    EXPECT("CFG-31", PE_ERR_FORMAT, "'rope_scaling.factor' is missing and max_position_embeddings is absent",
           cfg("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_scaling\":{\"type\":\"longrope\",\"original_max_position_embeddings\":4096}}"));
    EXPECT("CFG-30", PE_ERR_FORMAT, "'rope_scaling.factor' is required for rope_type 'yarn'",
           cfg("{\"head_dim\":64,\"max_position_embeddings\":8192,\"rope_scaling\":{\"type\":\"yarn\","
               "\"original_max_position_embeddings\":4096}}"));
    EXPECT("CFG-32", PE_ERR_FORMAT, "'rope_scaling.factor'=-1 must be > 0",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"type\":\"linear\",\"factor\":-1}}"));
    EXPECT("CFG-33", PE_ERR_FORMAT, "'rope_scaling.attention_factor'=0 must be > 0",
           cfg("{\"head_dim\":64,\"rope_scaling\":{\"type\":\"linear\",\"factor\":2,\"attention_factor\":0}}"));
    EXPECT("CFG-34", PE_ERR_FORMAT, "rope_scaling.beta_fast=1, beta_slow=32, mscale=0, mscale_all_dim=0: need",
           cfg("{\"head_dim\":64,\"max_position_embeddings\":8192,\"rope_scaling\":{\"type\":\"yarn\","
               "\"factor\":4,\"beta_fast\":1,\"beta_slow\":32}}"));
    EXPECT("CFG-35", PE_ERR_FORMAT, "'rope_scaling.low_freq_factor' and 'high_freq_factor' are required",
           cfg("{\"head_dim\":64,\"max_position_embeddings\":8192,\"rope_scaling\":{\"rope_type\":\"llama3\","
               "\"factor\":8}}"));
    EXPECT("CFG-36", PE_ERR_FORMAT, "rope_scaling.low_freq_factor=4 must be > 0 and < high_freq_factor=1",
           cfg("{\"head_dim\":64,\"max_position_embeddings\":8192,\"rope_scaling\":{\"rope_type\":\"llama3\","
               "\"factor\":8,\"low_freq_factor\":4,\"high_freq_factor\":1}}"));
    EXPECT("CFG-37", PE_ERR_FORMAT, "'rope_scaling.short_factor' and 'long_factor' are required",
           cfg("{\"head_dim\":8,\"max_position_embeddings\":8192,\"rope_scaling\":{\"type\":\"longrope\"}}"));
    EXPECT("CFG-38", PE_ERR_FORMAT, "'rope_scaling.short_factor' (2) and 'long_factor' (4) must each have "
           "rotary_dim/2 = 4 entries",
           cfg("{\"head_dim\":8,\"max_position_embeddings\":8192,\"rope_scaling\":{\"type\":\"longrope\","
               "\"short_factor\":[1,1],\"long_factor\":[1,1,1,1]}}"));
    EXPECT("CFG-39", PE_ERR_FORMAT, "'rope_scaling.short_factor'/'long_factor'[2] must be > 0",
           cfg("{\"head_dim\":8,\"max_position_embeddings\":8192,\"rope_scaling\":{\"type\":\"longrope\","
               "\"short_factor\":[1,1,1,1],\"long_factor\":[1,1,0,1]}}"));
    /* what only the scheme's own check sees, named by the key */
    EXPECT("CFG-54", PE_ERR_FORMAT, "'original_max_position_embeddings': original_max_position=1: "
           "LongRoPE's attention factor divides by ln(L0)",
           cfg("{\"head_dim\":4,\"max_position_embeddings\":4,\"original_max_position_embeddings\":1,"
               "\"rope_scaling\":{\"type\":\"longrope\",\"short_factor\":[1,1],\"long_factor\":[1,1]}}"));
    EXPECT("CFG-40", PE_ERR_FORMAT, "config text is empty", pe_config_parse("{}", 0, OUT));
    EXPECT("CFG-41", PE_ERR_FORMAT, "config is not valid JSON (error near byte 13)", cfg("{\"head_dim\": }"));
    EXPECT("CFG-42", PE_ERR_FORMAT, "trailing data after the JSON value at byte 3", cfg("{} x"));
    EXPECT("CFG-43", PE_ERR_NULL, "json must not be NULL", pe_config_parse(NULL, 2, OUT));
    EXPECT("CFG-43", PE_ERR_NULL, "out must not be NULL", pe_config_parse("{}", 2, NULL));
}

TEST(errors_config_files_and_scaling) {
    /* 64 MiB + 1 of zeros: past the reader's limit, refused before parsing */
    const size_t over = ((size_t)64 << 20) + 1;
    char *huge = calloc(over, 1);
    if (huge != NULL) {
        EXPECT("CFG-44", PE_ERR_FORMAT, "config text of 67108865 bytes exceeds 67108864",
               pe_config_parse(huge, over, OUT));
        free(huge);
    }
    char dir[] = "/tmp/pe_errors_XXXXXX", path[96];
    CHECK(mkdtemp(dir) != NULL);
    EXPECT("CFG-45", PE_ERR_IO, "cannot open '/nonexistent/config.json'", pe_config_read("/nonexistent/config.json", OUT));
    snprintf(path, sizeof path, "%s/empty.json", dir);
    FILE *f = fopen(path, "w");
    if (f != NULL) fclose(f);
    EXPECT("CFG-46", PE_ERR_FORMAT, "empty.json' is empty", pe_config_read(path, OUT));
    EXPECT("CFG-47", PE_ERR_IO, "cannot read '/tmp/pe_errors_", pe_config_read(dir, OUT));
    snprintf(path, sizeof path, "%s/big.json", dir);
    f = fopen(path, "w");
    /* a sparse file one byte past the limit: read in chunks up to it */
    CHECK(f != NULL && ftruncate(fileno(f), (off_t)over) == 0);
    if (f != NULL) fclose(f);
    EXPECT("CFG-48", PE_ERR_FORMAT, "big.json' exceeds 67108864 bytes", pe_config_read(path, OUT));
    EXPECT("CFG-43", PE_ERR_NULL, "path must not be NULL", pe_config_read(NULL, OUT));
    unlink(path);
    snprintf(path, sizeof path, "%s/empty.json", dir);
    unlink(path);
    rmdir(dir);

    static pe_rope_config c;
    const char *llama = "{\"model_type\":\"llama\",\"head_dim\":64,\"max_position_embeddings\":4096,\"rope_scaling\":"
                        "{\"type\":\"dynamic\",\"factor\":2}}";
    CHECK_OK(pe_config_parse(llama, strlen(llama), &c));
    EXPECT("CFG-49", PE_ERR_PARAM, "seq_len=-1 must be >= 0 (0: not stated)", pe_config_scaling(&c, -1, OUT));
    EXPECT("CFG-49", PE_ERR_PARAM, "seq_len=-7 ", pe_config_freqs(&c, -7, OUT, NULL));
    EXPECT("CFG-43", PE_ERR_NULL, "config must not be NULL", pe_config_scaling(NULL, 0, OUT));
    EXPECT("CFG-43", PE_ERR_NULL, "out must not be NULL", pe_config_freqs(&c, 0, NULL, NULL));
    c.scaling.n_long_factor = PE_MAX_PAIRS + 1;
    EXPECT("CFG-50", PE_ERR_PARAM, "config list lengths: long_factor has 513 entries, outside [0, 512]", pe_config_scaling(&c, 0, OUT));
}

static int plan(const char *json) {
    char *as = pe_test_as_llama(json);
    int st = pe_plan_from_config_json(as, strlen(as), OUT);
    free(as);
    return st;
}

TEST(errors_plan) {
    EXPECT("PLAN-1", PE_ERR_FORMAT, "config has two decoder configs, 'text_config' and 'llm_config'",
           plan("{\"text_config\":{\"head_dim\":64},\"llm_config\":{\"head_dim\":64}}"));
    EXPECT("PLAN-2", PE_ERR_FORMAT, "'num_hidden_layers'=0 must be in [1, 65536]",
           plan("{\"head_dim\":64,\"num_hidden_layers\":0}"));
    EXPECT("PLAN-2", PE_ERR_FORMAT, "config has no 'num_hidden_layers' (or n_layer / num_layers), and "
           "posenc's record of 'kimi_k2' states no class default for it: add the key",
           plan("{\"model_type\":\"kimi_k2\",\"head_dim\":64}"));
    EXPECT("PLAN-2", PE_ERR_FORMAT, "config has no 'text_config.num_hidden_layers'",
           plan("{\"model_type\":\"llava\",\"text_config\":{\"model_type\":\"kimi_k2\"}}"));
    EXPECT("PLAN-3", PE_ERR_FORMAT, "'layer_types' must be an array of strings, not number",
           plan("{\"head_dim\":64,\"layer_types\":3}"));
    EXPECT("PLAN-3", PE_ERR_FORMAT, "'text_config.layer_types'[1] must be a string, not number",
           plan("{\"text_config\":{\"head_dim\":64,\"num_hidden_layers\":2,\"layer_types\":[\"full_attention\",2]}}"));
    EXPECT("PLAN-4", PE_ERR_FORMAT, "'layer_types' has 2 entries but num_hidden_layers=3",
           plan("{\"head_dim\":64,\"num_hidden_layers\":3,\"layer_types\":[\"full_attention\",\"full_attention\"]}"));
    EXPECT("PLAN-4", PE_ERR_FORMAT, "'layer_types' has 2 entries but the config has no num_hidden_layers "
           "and 'llama' defaults to 32 layers: add the key",
           plan("{\"head_dim\":64,\"layer_types\":[\"full_attention\",\"full_attention\"]}"));
    EXPECT("PLAN-5", PE_ERR_FORMAT, "layer type 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is longer than 63 bytes",
           plan("{\"head_dim\":64,\"num_hidden_layers\":1,\"layer_types\":[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]}"));
    EXPECT("PLAN-6", PE_ERR_FORMAT, "'sliding_window_pattern'=0 must be >= 1",
           plan("{\"model_type\":\"gemma3_text\",\"sliding_window_pattern\":0}"));
    EXPECT("PLAN-6", PE_ERR_FORMAT, "'full_attention_interval'=0 must be >= 1",
           plan("{\"model_type\":\"qwen3_next\",\"head_dim\":64,\"full_attention_interval\":0}"));
    EXPECT("PLAN-7", PE_ERR_FORMAT, "'no_rope_layers'[1] must be 0 or 1",
           plan("{\"model_type\":\"smollm3\",\"head_dim\":64,\"num_hidden_layers\":2,\"no_rope_layers\":[1,2]}"));
    EXPECT("PLAN-7", PE_ERR_FORMAT, "'no_rope_layers' must be an array of 0/1, not string",
           plan("{\"model_type\":\"smollm3\",\"head_dim\":64,\"no_rope_layers\":\"all\"}"));
    EXPECT("PLAN-8", PE_ERR_FORMAT, "'no_rope_layers' has 3 entries but num_hidden_layers=2",
           plan("{\"model_type\":\"llama4_text\",\"head_dim\":64,\"num_hidden_layers\":2,\"no_rope_layers\":[1,1,0]}"));
    EXPECT("PLAN-9", PE_ERR_FORMAT, "'no_rope_layer_interval'=-1 must be >= 1",
           plan("{\"model_type\":\"smollm3\",\"head_dim\":64,\"no_rope_layer_interval\":-1}"));
    EXPECT("PLAN-10", PE_ERR_FORMAT, "'rope_parameters' has no block for layer type 'sliding_attention'",
           plan("{\"head_dim\":64,\"num_hidden_layers\":2,\"layer_types\":[\"sliding_attention\",\"full_attention\"],"
                "\"rope_parameters\":{\"full_attention\":{\"rope_type\":\"default\"}}}"));
    EXPECT("PLAN-11", PE_ERR_FORMAT, "'rope_parameters.sliding_attention' must be an object, not number",
           plan("{\"head_dim\":64,\"num_hidden_layers\":2,\"layer_types\":[\"sliding_attention\",\"full_attention\"],"
                "\"rope_parameters\":{\"full_attention\":{\"rope_type\":\"default\"},\"sliding_attention\":4}}"));
    EXPECT("PLAN-12", PE_ERR_DIM, "'text_config.global_head_dim'=0 must be > 0",
           plan("{\"model_type\":\"gemma4\",\"text_config\":{\"num_hidden_layers\":6,\"global_head_dim\":0}}"));
    EXPECT("PLAN-13", PE_ERR_FORMAT, "'sliding_window'=-1 and 'attention_chunk_size'=0 must be >= 0",
           plan("{\"head_dim\":64,\"sliding_window\":-1}"));
    EXPECT("PLAN-14", PE_ERR_FORMAT, "'attn_temperature_tuning' must be true or false, not string",
           plan("{\"model_type\":\"llama4_text\",\"head_dim\":64,\"attn_temperature_tuning\":\"yes\"}"));
    EXPECT("PLAN-14", PE_ERR_FORMAT, "'floor_scale'=0.5 must be a positive integer",
           plan("{\"model_type\":\"llama4_text\",\"head_dim\":64,\"floor_scale\":0.5}"));
    EXPECT("PLAN-14", PE_ERR_FORMAT, "'attn_scale'=-1 must be >= 0",
           plan("{\"model_type\":\"llama4_text\",\"head_dim\":64,\"attn_scale\":-1}"));
    EXPECT("PLAN-15", PE_ERR_FORMAT, "'rope_scaling.mrope_section' sums to 60 pairs but the rotary dim 128 has 64",
           plan("{\"head_dim\":128,\"rope_scaling\":{\"type\":\"mrope\",\"mrope_section\":[16,24,20]}}"));
    EXPECT("PLAN-15", PE_ERR_FORMAT, "'rope_scaling.mrope_section' has 5 entries: want 1 to 4",
           plan("{\"head_dim\":128,\"rope_scaling\":{\"type\":\"mrope\",\"mrope_section\":[16,16,16,8,8]}}"));
    EXPECT("PLAN-15", PE_ERR_FORMAT, "'rope_scaling.mrope_section'[0]=1.5 must be an integer in [0, 512]",
           plan("{\"head_dim\":4,\"rope_scaling\":{\"type\":\"mrope\",\"mrope_section\":[1.5,0.5]}}"));
    EXPECT("PLAN-16", PE_ERR_FORMAT, "'rope_scaling.short_mscale' and 'long_mscale' come together",
           plan("{\"model_type\":\"phimoe\",\"head_dim\":8,\"rope_scaling\":{\"type\":\"longrope\","
                "\"original_max_position_embeddings\":4096,\"short_mscale\":1.1,"
                "\"short_factor\":[1,1,1,1],\"long_factor\":[1,1,1,1]}}"));
    EXPECT("PLAN-16", PE_ERR_FORMAT, "'rope_scaling.short_mscale'=0 and 'long_mscale'=1 must be > 0",
           plan("{\"model_type\":\"phimoe\",\"head_dim\":8,\"rope_scaling\":{\"type\":\"longrope\","
                "\"original_max_position_embeddings\":4096,\"short_mscale\":0,\"long_mscale\":1,"
                "\"short_factor\":[1,1,1,1],\"long_factor\":[1,1,1,1]}}"));
    EXPECT("PLAN-17", PE_ERR_FORMAT, "'rope_parameters.llama_4_scaling_beta'=-0.1 must be >= 0",
           plan("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_parameters\":{\"rope_type\":\"yarn\","
                "\"factor\":4,\"original_max_position_embeddings\":4096,\"llama_4_scaling_beta\":-0.1}}"));
    EXPECT("PLAN-17", PE_ERR_FORMAT, "'rope_parameters.llama_4_scaling_beta' needs original_max_position_embeddings",
           plan("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_parameters\":{\"rope_type\":\"default\","
                "\"llama_4_scaling_beta\":0.1}}"));
    EXPECT("PLAN-18", PE_ERR_FORMAT, "'rope_scaling.alpha'=-2 must be > 0",
           plan("{\"model_type\":\"hunyuan_v1_dense\",\"head_dim\":64,\"rope_scaling\":{\"type\":\"dynamic\","
                "\"factor\":1,\"alpha\":-2}}"));
    EXPECT("PLAN-18", PE_ERR_DIM, "'rope_scaling.alpha' needs a rotary dim above 2",
           plan("{\"model_type\":\"hunyuan_v1_dense\",\"head_dim\":2,\"rope_scaling\":{\"type\":\"linear\","
                "\"factor\":1,\"alpha\":2}}"));
    EXPECT("PLAN-18", PE_ERR_FORMAT, "'rope_scaling.alpha'=1e+300 makes the base overflow",
           plan("{\"model_type\":\"hunyuan_v1_dense\",\"head_dim\":8,\"rope_scaling\":{\"type\":\"linear\","
                "\"factor\":1,\"alpha\":1e300}}"));
    EXPECT("PLAN-19", PE_ERR_NULL, "json must not be NULL", pe_plan_from_config_json(NULL, 2, OUT));
    EXPECT("PLAN-19", PE_ERR_NULL, "out must not be NULL", pe_plan_from_config_json("{}", 2, NULL));
    EXPECT("PLAN-19", PE_ERR_NULL, "path must not be NULL", pe_plan_from_config_file(NULL, OUT));
    EXPECT("PLAN-20", PE_ERR_IO, "cannot open '/nonexistent/config.json'",
           pe_plan_from_config_file("/nonexistent/config.json", OUT));

    pe_plan *p = NULL;
    const char *smol = "{\"model_type\":\"smollm3\",\"head_dim\":64,\"num_hidden_layers\":4}";
    CHECK_OK(pe_plan_from_config_json(smol, strlen(smol), &p));
    EXPECT("PLAN-21", PE_ERR_RANGE, "layer=4 is outside [0, 4)", pe_plan_layer_info(p, 4, OUT));
    EXPECT("PLAN-21", PE_ERR_RANGE, "layer=-1 is outside [0, 4)", pe_plan_layer_freqs(p, -1, 0, OUT, NULL));
    EXPECT("PLAN-19", PE_ERR_NULL, "plan must not be NULL", pe_plan_layer_scaling(NULL, 0, 0, OUT));
    EXPECT("PLAN-19", PE_ERR_NULL, "out must not be NULL", pe_plan_layer_info(p, 0, NULL));
    EXPECT("PLAN-22", PE_ERR_PARAM, "layer 3 (full_attention) does not rotate: a NoPE layer",
           pe_plan_layer_freqs(p, 3, 0, OUT, NULL));
    EXPECT("PLAN-23", PE_ERR_PARAM, "seq_len=-2 must be >= 0 (0: not stated)", pe_plan_layer_scaling(p, 0, -2, OUT));
    EXPECT("PLAN-24", PE_ERR_RANGE, "position=-1 must be >= 0", pe_plan_layer_query_scale(p, 0, -1, OUT));
    pe_plan_free(p);

    EXPECT("CFG-51", PE_ERR_UNSUPPORTED, "no layer of this config rotates",
           cfg("{\"head_dim\":64,\"position_embedding_type\":\"nope\"}"));
    EXPECT("CFG-52", PE_ERR_UNSUPPORTED, "model_type 'phimoe': short_mscale/long_mscale set the magnitude",
           cfg("{\"model_type\":\"phimoe\",\"head_dim\":8,\"max_position_embeddings\":8192,\"rope_scaling\":{"
               "\"type\":\"longrope\",\"original_max_position_embeddings\":4096,\"short_mscale\":1.1,"
               "\"long_mscale\":1.2,\"short_factor\":[1,1,1,1],\"long_factor\":[1,1,1,1]}}"));
    EXPECT("CFG-53", PE_ERR_UNSUPPORTED, "model_type 'ministral3': a query scale",
           cfg("{\"model_type\":\"ministral3\",\"head_dim\":64,\"rope_parameters\":{\"rope_type\":\"yarn\","
               "\"factor\":4,\"original_max_position_embeddings\":4096,\"llama_4_scaling_beta\":0.1}}"));
}
