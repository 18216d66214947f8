/*
 * families_hf.c — the Hugging Face family registry: one named record per
 * transformers model_type posenc reads (the record type is in
 * plan_internal.h). Each record says what the family's configuration_*.py
 * defaults and its modeling_*.py does with positions; `source` names the
 * files read (transformers commit in docs/FAMILIES.md). A model_type not
 * here is refused by plan.c; a record with `refusal` set is a family posenc
 * knows but does not model. tests/test_plan.c restates each record's class
 * defaults from the same sources.
 */
#include "plan_internal.h"
#include "closest_names.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HALF_PAIRS {.layout = PE_ROPE_HALF}
#define INTERLEAVED_PAIRS {.layout = PE_ROPE_INTERLEAVED}

/* ------------------------------------------------ Llama and its kin */

static const pe__family llama = {
    .model_type = "llama", .position = PE_POSITION_ROPE,
    .source = "models/llama/configuration_llama.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family mistral = {
    .model_type = "mistral", .position = PE_POSITION_ROPE,
    .source = "models/mistral/configuration_mistral.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family mixtral = {
    .model_type = "mixtral", .position = PE_POSITION_ROPE,
    .source = "models/mixtral/configuration_mixtral.py",
    .defaults = {.rope_theta = 1e6, .max_position = 131072,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family ministral = {
    .model_type = "ministral", .position = PE_POSITION_ROPE,
    .source = "models/ministral/configuration_ministral.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family ministral3 = {
    .model_type = "ministral3", .position = PE_POSITION_ROPE,
    .source = "models/ministral3/configuration_ministral3.py, modeling_ministral3.py "
              "(get_llama_4_attn_scale)",
    .defaults = {.rope_theta = 1e6, .head_dim = 128,
                 .layers = 34, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .query = PE__QUERY_LLAMA4_BETA,
};
static const pe__family granite = {
    .model_type = "granite", .position = PE_POSITION_ROPE,
    .source = "models/granite/configuration_granite.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family granitemoe = {
    .model_type = "granitemoe", .position = PE_POSITION_ROPE,
    .source = "models/granitemoe/configuration_granitemoe.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family llama4_text = {
    .model_type = "llama4_text", .position = PE_POSITION_ROPE,
    .source = "models/llama4/configuration_llama4.py, modeling_llama4.py (complex RoPE, "
              "NoPE temperature)",
    .defaults = {.rope_theta = 500000.0, .head_dim = 128, .max_position = 131072, .nope_interval = 4,
                 .layers = 48, .hidden = 5120, .heads = 40},
    .pairs = INTERLEAVED_PAIRS,
    .layers = PE__LAYERS_CHUNKED,
    .nope = PE__NOPE_MASK,
    .query = PE__QUERY_LLAMA4_TEMPERATURE,
};
static const pe__family smollm3 = {
    .model_type = "smollm3", .position = PE_POSITION_ROPE,
    .source = "models/smollm3/configuration_smollm3.py (no_rope_layers, no_rope_layer_interval)",
    .defaults = {.rope_theta = 2e6, .max_position = 32768, .nope_interval = 4,
                 .layers = 36, .hidden = 2048, .heads = 16},
    .pairs = HALF_PAIRS,
    .nope = PE__NOPE_MASK,
};

/* ------------------------------------------------------------- Qwen */

static const pe__family qwen2 = {
    .model_type = "qwen2", .position = PE_POSITION_ROPE,
    .source = "models/qwen2/configuration_qwen2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen2_moe = {
    .model_type = "qwen2_moe", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_moe/configuration_qwen2_moe.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768,
                 .layers = 24, .hidden = 2048, .heads = 16},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen3 = {
    .model_type = "qwen3", .position = PE_POSITION_ROPE,
    .source = "models/qwen3/configuration_qwen3.py",
    .defaults = {.rope_theta = 10000.0, .head_dim = 128, .max_position = 32768,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen3_moe = {
    .model_type = "qwen3_moe", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_moe/configuration_qwen3_moe.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768,
                 .layers = 24, .hidden = 2048, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen3_next = {
    .model_type = "qwen3_next", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_next/configuration_qwen3_next.py (linear_attention layers have no RoPE)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .head_dim = 256, .max_position = 32768, .pattern = 4,
                 .layers = 48, .hidden = 2048, .heads = 16},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_LINEAR_INTERVAL,
};
static const pe__family qwen3_5_text = {
    .model_type = "qwen3_5_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_5/configuration_qwen3_5.py (linear_attention layers have no RoPE)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .max_position = 32768, .pattern = 4, .head_dim = 256,
                 .layers = 32, .hidden = 4096, .heads = 16},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_LINEAR_INTERVAL,
};
static const pe__family qwen3_5_moe_text = {
    .model_type = "qwen3_5_moe_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_5_moe/configuration_qwen3_5_moe.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .max_position = 32768, .pattern = 4, .head_dim = 256,
                 .layers = 40, .hidden = 2048, .heads = 16},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_LINEAR_INTERVAL,
};
static const pe__family qwen2_vl = {
    .model_type = "qwen2_vl", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_vl/configuration_qwen2_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768,
                 .layers = 80, .hidden = 8192, .heads = 64},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen2_vl_text = {
    .model_type = "qwen2_vl_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_vl/configuration_qwen2_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768,
                 .layers = 80, .hidden = 8192, .heads = 64},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen2_5_vl = {
    .model_type = "qwen2_5_vl", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_5_vl/configuration_qwen2_5_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768,
                 .layers = 80, .hidden = 8192, .heads = 64},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen2_5_vl_text = {
    .model_type = "qwen2_5_vl_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_5_vl/configuration_qwen2_5_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768,
                 .layers = 80, .hidden = 8192, .heads = 64},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen3_vl_text = {
    .model_type = "qwen3_vl_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_vl/configuration_qwen3_vl.py",
    .defaults = {.rope_theta = 500000.0, .head_dim = 128, .max_position = 128000,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen3_vl_moe_text = {
    .model_type = "qwen3_vl_moe_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_vl_moe/configuration_qwen3_vl_moe.py",
    .defaults = {.rope_theta = 500000.0, .max_position = 128000,
                 .layers = 24, .hidden = 2048, .heads = 16},
    .pairs = HALF_PAIRS,
};

/* ------------------------------------------------------ Phi, NeoX, ... */

static const pe__family phi = {
    .model_type = "phi", .position = PE_POSITION_ROPE,
    .source = "models/phi/configuration_phi.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 2048,
                 .layers = 24, .hidden = 2048, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family phi3 = {
    .model_type = "phi3", .position = PE_POSITION_ROPE,
    .source = "models/phi3/configuration_phi3.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096,
                 .layers = 32, .hidden = 3072, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family phimoe = {
    .model_type = "phimoe", .position = PE_POSITION_ROPE,
    .source = "models/phimoe/configuration_phimoe.py, modeling_phimoe.py (short_mscale/long_mscale)",
    .defaults = {.rope_theta = 1e6, .max_position = 131072,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .rope_extra = PE__EXTRA_PHIMOE_MSCALE,
};
static const pe__family gpt_neox = {
    .model_type = "gpt_neox", .position = PE_POSITION_ROPE,
    .source = "models/gpt_neox/configuration_gpt_neox.py (rotary_pct)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .max_position = 2048,
                 .layers = 44, .hidden = 6144, .heads = 64},
    .pairs = HALF_PAIRS,
};
static const pe__family stablelm = {
    .model_type = "stablelm", .position = PE_POSITION_ROPE,
    .source = "models/stablelm/configuration_stablelm.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .max_position = 4096,
                 .layers = 32, .hidden = 2560, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family gptj = {
    .model_type = "gptj", .position = PE_POSITION_ROPE,
    .source = "models/gptj/configuration_gptj.py (rotary_dim)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 28, .hidden = 4096, .heads = 16},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family codegen = {
    .model_type = "codegen", .position = PE_POSITION_ROPE,
    .source = "models/codegen/configuration_codegen.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 28, .hidden = 4096, .heads = 16},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family starcoder2 = {
    .model_type = "starcoder2", .position = PE_POSITION_ROPE,
    .source = "models/starcoder2/configuration_starcoder2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096,
                 .layers = 30, .hidden = 3072, .heads = 24},
    .pairs = HALF_PAIRS,
};
static const pe__family olmo = {
    .model_type = "olmo", .position = PE_POSITION_ROPE,
    .source = "models/olmo/configuration_olmo.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family olmo2 = {
    .model_type = "olmo2", .position = PE_POSITION_ROPE,
    .source = "models/olmo2/configuration_olmo2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family olmo3 = {
    .model_type = "olmo3", .position = PE_POSITION_ROPE,
    .source = "models/olmo3/configuration_olmo3.py, modeling_olmo3.py (sliding layers: rope_type "
              "default)",
    .defaults = {.rope_theta = 500000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .sliding = PE__SLIDING_UNSCALED,
};

/* ------------------------------------------------------------ Gemma */

static const pe__family gemma = {
    .model_type = "gemma", .position = PE_POSITION_ROPE,
    .source = "models/gemma/configuration_gemma.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192, .head_dim = 256,
                 .layers = 28, .hidden = 3072, .heads = 16},
    .pairs = HALF_PAIRS,
};
static const pe__family gemma2 = {
    .model_type = "gemma2", .position = PE_POSITION_ROPE,
    .source = "models/gemma2/configuration_gemma2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192, .head_dim = 256,
                 .layers = 26, .hidden = 2304, .heads = 8},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ALTERNATE,
};
static const pe__family gemma3_text = {
    .model_type = "gemma3_text", .position = PE_POSITION_ROPE,
    .source = "models/gemma3/configuration_gemma3.py (rope_local_base_freq, sliding_window_pattern)",
    .defaults = {.rope_theta = 1e6, .max_position = 131072, .head_dim = 256,
                 .local_base = 10000.0, .pattern = 6,
                 .layers = 26, .hidden = 2304, .heads = 8},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .sliding = PE__SLIDING_LOCAL_BASE,
};
static const pe__family gemma3n_text = {
    .model_type = "gemma3n_text", .position = PE_POSITION_ROPE,
    .source = "models/gemma3n/configuration_gemma3n.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768, .head_dim = 256,
                 .local_base = 10000.0, .pattern = 5,
                 .layers = 35, .hidden = 2048, .heads = 8},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .sliding = PE__SLIDING_LOCAL_BASE,
};
static const pe__family gemma4_text = {
    .model_type = "gemma4_text", .position = PE_POSITION_ROPE,
    .source = "models/gemma4/configuration_gemma4.py (per-layer-type rope_parameters, "
              "global_head_dim)",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072, .head_dim = 256, .pattern = 6,
                 .layers = 30, .hidden = 2304, .heads = 8},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .full = PE__FULL_GLOBAL_HEAD_DIM,
};

/* ----------------------------------------------------- Cohere, GLM, ... */

static const pe__family cohere = {
    .model_type = "cohere", .position = PE_POSITION_ROPE,
    .source = "models/cohere/configuration_cohere.py",
    .defaults = {.rope_theta = 500000.0, .max_position = 8192,
                 .layers = 40, .hidden = 8192, .heads = 64},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family cohere2 = {
    .model_type = "cohere2", .position = PE_POSITION_ROPE,
    .source = "models/cohere2/configuration_cohere2.py, modeling_cohere2.py (RoPE on sliding "
              "layers only)",
    .defaults = {.rope_theta = 500000.0, .max_position = 8192, .pattern = 4,
                 .layers = 40, .hidden = 8192, .heads = 64},
    .pairs = INTERLEAVED_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .full = PE__FULL_NOPE,
};
static const pe__family glm = {
    .model_type = "glm", .position = PE_POSITION_ROPE,
    .source = "models/glm/configuration_glm.py, modeling_glm.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .head_dim = 128, .max_position = 131072,
                 .layers = 40, .hidden = 4096, .heads = 32},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family glm4 = {
    .model_type = "glm4", .position = PE_POSITION_ROPE,
    .source = "models/glm4/configuration_glm4.py, modeling_glm4.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .head_dim = 128, .max_position = 131072,
                 .layers = 40, .hidden = 4096, .heads = 32},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family glm4_moe = {
    .model_type = "glm4_moe", .position = PE_POSITION_ROPE,
    .source = "models/glm4_moe/configuration_glm4_moe.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 131072,
                 .layers = 46, .hidden = 4096, .heads = 96},
    .pairs = HALF_PAIRS,
};
static const pe__family gpt_oss = {
    .model_type = "gpt_oss", .position = PE_POSITION_ROPE,
    .source = "models/gpt_oss/configuration_gpt_oss.py",
    .defaults = {.rope_theta = 150000.0, .head_dim = 64, .max_position = 131072,
                 .layers = 36, .hidden = 2880, .heads = 64},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ALTERNATE,
};
static const pe__family hunyuan_v1_dense = {
    .model_type = "hunyuan_v1_dense", .position = PE_POSITION_ROPE,
    .source = "models/hunyuan_v1_dense/configuration_hunyuan_v1_dense.py, "
              "modeling_hunyuan_v1_dense.py (alpha)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .rope_extra = PE__EXTRA_HUNYUAN_ALPHA,
};
static const pe__family hunyuan_v1_moe = {
    .model_type = "hunyuan_v1_moe", .position = PE_POSITION_ROPE,
    .source = "models/hunyuan_v1_moe/configuration_hunyuan_v1_moe.py, "
              "modeling_hunyuan_v1_moe.py (alpha)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .rope_extra = PE__EXTRA_HUNYUAN_ALPHA,
};

/* ------------------------------------------------------ DeepSeek (MLA) */

static const pe__family deepseek_v2 = {
    .model_type = "deepseek_v2", .position = PE_POSITION_ROPE,
    .source = "models/deepseek_v2/configuration_deepseek_v2.py, modeling_deepseek_v2.py "
              "(softmax_scale * mscale^2)",
    .defaults = {.rope_theta = 10000.0, .head_dim = 64, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = INTERLEAVED_PAIRS,
    .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
};
static const pe__family deepseek_v3 = {
    .model_type = "deepseek_v3", .position = PE_POSITION_ROPE,
    .source = "models/deepseek_v3/configuration_deepseek_v3.py, modeling_deepseek_v3.py "
              "(rope_interleave, mscale^2)",
    .defaults = {.rope_theta = 10000.0, .head_dim = 64, .max_position = 4096,
                 .layers = 61, .hidden = 7168, .heads = 128},
    .pairs = {.layout = PE_ROPE_HALF, .switch_key = "rope_interleave", .switch_default = true},
    .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
};
/* GLM-4.7-Flash: Glm4MoeLiteAttention is DeepseekV3Attention (MLA,
 * rope_interleave default True, softmax x mscale^2); qk_rope_head_dim 64,
 * max_position_embeddings 202752, no partial rotary. */
static const pe__family glm4_moe_lite = {
    .model_type = "glm4_moe_lite", .position = PE_POSITION_ROPE,
    .source = "models/glm4_moe_lite/modular_glm4_moe_lite.py (qk_rope_head_dim=64, "
              "max_position_embeddings=202752, rope_interleave=True; Glm4MoeLiteAttention("
              "DeepseekV3Attention))",
    .defaults = {.rope_theta = 10000.0, .max_position = 202752, .head_dim = 64,
                 .layers = 47, .hidden = 2048, .heads = 20},
    .pairs = {.layout = PE_ROPE_HALF, .switch_key = "rope_interleave", .switch_default = true},
    .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
};
static const pe__family kimi_k2 = {
    .model_type = "kimi_k2", .position = PE_POSITION_ROPE,
    .source = "Kimi K2's modeling_deepseek.py (DeepSeek V3 attention)",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096},
    .pairs = INTERLEAVED_PAIRS,
    .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
};

/* ---------------------------------------------- ALiBi: Falcon, BLOOM, MPT */

/* FalconConfig: alibi (default False) switches RoPE off (its `rotary`
 * property is `not alibi`); modeling_falcon.py's build_alibi_tensor is
 * BLOOM's with the slopes cast to bfloat16 before the product. */
static const pe__family falcon = {
    .model_type = "falcon", .position = PE_POSITION_ROPE,
    .source = "models/falcon/configuration_falcon.py (alibi=False, rope_theta=10000.0, "
              "max_position_embeddings=2048), modeling_falcon.py (build_alibi_tensor: "
              "slopes[..., None].bfloat16() * arange)",
    .kind_switch = {.key = "alibi", .default_value = false, .when_true = PE_POSITION_ALIBI},
    .defaults = {.rope_theta = 10000.0, .max_position = 2048, .heads = 71, .layers = 32,
                 .hidden = 4544},
    .pairs = HALF_PAIRS,
    .alibi = {.slopes = PE_ALIBI_SLOPES_PRESS, .max_bias = 8.0, .hf_slope_dtype = PE_BF16},
};
/* BloomConfig: hidden_size=64, n_layer=2, n_head=8 (class defaults);
 * modeling_bloom.py build_alibi_tensor computes the slopes in float32. */
static const pe__family bloom = {
    .model_type = "bloom", .position = PE_POSITION_ALIBI,
    .source = "models/bloom/configuration_bloom.py (n_layer=2, n_head=8, hidden_size=64), "
              "modeling_bloom.py (build_alibi_tensor, float32 slopes)",
    .defaults = {.heads = 8, .layers = 2, .hidden = 64},
    .alibi = {.slopes = PE_ALIBI_SLOPES_PRESS, .max_bias = 8.0, .hf_slope_dtype = PE_F32},
    .ignored = {{.key = "offset_alibi", .used = NAN,
                 .why = "BLOOM's Megatron training key; HF's build_alibi_tensor does not read it"}},
};
/* MptConfig: d_model=2048, n_heads=16, n_layers=24; modeling_mpt.py's
 * build_mpt_alibi_tensor(num_heads, max_seq_len) is called without
 * alibi_bias_max, so HF always runs 8 whatever attn_config says. */
static const pe__family mpt = {
    .model_type = "mpt", .position = PE_POSITION_ALIBI,
    .source = "models/mpt/configuration_mpt.py (d_model=2048, n_heads=16, n_layers=24, "
              "attn_config.alibi_bias_max=8), modeling_mpt.py (build_mpt_alibi_tensor called "
              "without alibi_bias_max: 8)",
    .defaults = {.heads = 16, .layers = 24, .hidden = 2048},
    .alibi = {.slopes = PE_ALIBI_SLOPES_MPT, .max_bias = 8.0, .hf_slope_dtype = PE_F32},
    .ignored = {{.key = "attn_config.alibi_bias_max", .used = 8.0,
                 .why = "HF's MptModel calls build_mpt_alibi_tensor without it (8)"},
                {.key = "attn_config.alibi", .used = 1.0,
                 .why = "HF's MptModel always adds the ALiBi bias"},
                {.key = "learned_pos_emb", .used = 0.0,
                 .why = "HF's MptModel has no learned position table (wte, blocks, norm_f)"}},
};

/* ------------------------------------------- learned absolute positions */

/* GPT2Config: n_positions=1024, n_embd=768, n_layer=12, n_head=12; wpe =
 * nn.Embedding(max_position_embeddings (= n_positions), n_embd). */
static const pe__family gpt2 = {
    .model_type = "gpt2", .position = PE_POSITION_LEARNED,
    .source = "models/gpt2/configuration_gpt2.py (n_positions=1024, n_embd=768, n_layer=12, "
              "n_head=12), modeling_gpt2.py (wpe)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "n_positions", .rows_default = 1024},
};
/* OPTConfig: max_position_embeddings=2048; OPTLearnedPositionalEmbedding
 * holds max_position_embeddings + 2 rows and looks up position + 2. */
static const pe__family opt = {
    .model_type = "opt", .position = PE_POSITION_LEARNED,
    .source = "models/opt/configuration_opt.py (max_position_embeddings=2048, hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12), modeling_opt.py "
              "(OPTLearnedPositionalEmbedding offset 2)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 2048, .rows_extra = 2,
                .offset = 2},
};
/* GPTNeoConfig: max_position_embeddings=2048, hidden_size=2048,
 * num_layers=24, num_heads=16; wpe as GPT-2's. */
static const pe__family gpt_neo = {
    .model_type = "gpt_neo", .position = PE_POSITION_LEARNED,
    .source = "models/gpt_neo/configuration_gpt_neo.py (max_position_embeddings=2048, "
              "hidden_size=2048, num_layers=24, num_heads=16), modeling_gpt_neo.py (wpe)",
    .defaults = {.heads = 16, .layers = 24, .hidden = 2048},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 2048},
};
/* BigCode's GPTBigCodeConfig: n_positions=1024 (wpe), n_embd=768. */
static const pe__family gpt_bigcode = {
    .model_type = "gpt_bigcode", .position = PE_POSITION_LEARNED,
    .source = "models/gpt_bigcode/configuration_gpt_bigcode.py (n_positions=1024, n_embd=768, "
              "n_layer=12, n_head=12), modeling_gpt_bigcode.py (wpe)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "n_positions", .rows_default = 1024},
};

/* BertConfig: max_position_embeddings=512, hidden_size=768,
 * num_hidden_layers=12, num_attention_heads=12,
 * position_embedding_type="absolute" (the relative_key variants are not
 * modelled). RoBERTa / XLM-R: the table's first rows are padding; positions
 * start at padding_idx + 1 = 2 (pad_token_id 1), inside
 * max_position_embeddings rows. */
static const pe__family bert = {
    .model_type = "bert", .position = PE_POSITION_LEARNED,
    .source = "models/bert/configuration_bert.py (max_position_embeddings=512, hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, position_embedding_type="
              "\"absolute\"), modeling_bert.py (BertEmbeddings.position_embeddings)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
static const pe__family roberta = {
    .model_type = "roberta", .position = PE_POSITION_LEARNED,
    .source = "models/roberta/configuration_roberta.py (max_position_embeddings=512, "
              "pad_token_id=1), modeling_roberta.py (create_position_ids_from_input_ids: "
              "padding_idx + 1 onwards)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
static const pe__family xlm_roberta = {
    .model_type = "xlm-roberta", .position = PE_POSITION_LEARNED,
    .source = "models/xlm_roberta/configuration_xlm_roberta.py (as RoBERTa: 512 rows, "
              "pad_token_id=1), modeling_xlm_roberta.py (RoBERTa's embeddings)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};

/* ---------------------------------------- sinusoidal absolute positions */

/* XGLMConfig: max_position_embeddings=2048, d_model=1024, num_layers=24,
 * attention_heads=16; XGLMSinusoidalPositionalEmbedding: fairseq's table
 * (sin | cos halves, exponent i / (d/2 - 1)) of max_position_embeddings + 2
 * rows, looked up at position + 2 (padding_idx 1 + 1). */
static const pe__family xglm = {
    .model_type = "xglm", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/xglm/configuration_xglm.py (d_model=1024, num_layers=24, "
              "attention_heads=16), modeling_xglm.py (XGLMSinusoidalPositionalEmbedding, "
              "offset 2)",
    .defaults = {.heads = 16, .layers = 24, .hidden = 1024},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_T2T, .offset = 2},
};

/* -------------------------------------------------------- T5 buckets */

/* T5Config: num_layers=6, num_decoder_layers=None (= num_layers),
 * num_heads=8, relative_attention_num_buckets=32,
 * relative_attention_max_distance=128; modeling_t5.py: the first layer of
 * each stack has has_relative_attention_bias and shares its bias; the
 * encoder's buckets are bidirectional, the decoder's causal;
 * cross-attention has no positions. */
static const pe__family t5 = {
    .model_type = "t5", .position = PE_POSITION_T5,
    .source = "models/t5/configuration_t5.py (num_layers=6, num_heads=8, "
              "relative_attention_num_buckets=32, relative_attention_max_distance=128), "
              "modeling_t5.py (has_relative_attention_bias=bool(i == 0))",
    .defaults = {.heads = 8, .layers = 6, .hidden = 512},
    .layers = PE__LAYERS_ENCODER_DECODER,
    .t5 = {.num_buckets = 32, .max_distance = 128},
};
/* MT5Config: num_layers=8, num_heads=6; the rest as T5. */
static const pe__family mt5 = {
    .model_type = "mt5", .position = PE_POSITION_T5,
    .source = "models/mt5/configuration_mt5.py (num_layers=8, num_heads=6, buckets 32, max "
              "distance 128), modeling_mt5.py (T5's attention)",
    .defaults = {.heads = 6, .layers = 8, .hidden = 512},
    .layers = PE__LAYERS_ENCODER_DECODER,
    .t5 = {.num_buckets = 32, .max_distance = 128},
};
/* UMT5: every layer has its own relative_attention_bias. */
static const pe__family umt5 = {
    .model_type = "umt5", .position = PE_POSITION_T5,
    .source = "models/umt5/configuration_umt5.py (num_layers=8, num_heads=6, buckets 32, max "
              "distance 128), modeling_umt5.py (UMT5Attention: a bias table in every layer)",
    .defaults = {.heads = 6, .layers = 8, .hidden = 512},
    .layers = PE__LAYERS_ENCODER_DECODER,
    .t5 = {.num_buckets = 32, .max_distance = 128, .bias_per_layer = true},
};

/* ----------------------------------------- hybrids and cross-attention */

/* EXAONE 4: "We use global NoPE for hybrid attention model": rotate only
 * when sliding_window is None or the layer slides. */
static const pe__family exaone4 = {
    .model_type = "exaone4", .position = PE_POSITION_ROPE,
    .source = "models/exaone4/configuration_exaone4.py (max_position_embeddings=2048, "
              "sliding_window=4096, sliding_window_pattern=4), modeling_exaone4.py "
              "(apply_rotary_pos_emb only if sliding_window is None or is_sliding)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048, .pattern = 4, .window = 4096,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .full = PE__FULL_NOPE_IF_WINDOW,
};
/* LFM2: layer_types lists "conv" (short convolution, no positions) and
 * "full_attention" (RoPE); without it, full_attn_idxs lists the attention
 * layers (the key LiquidAI/LFM2-1.2B's own config.json writes), and without
 * either every layer is full_attention. The base is read from "theta"
 * before "rope_theta" (the original config keys). */
static const pe__family lfm2 = {
    .model_type = "lfm2", .position = PE_POSITION_ROPE,
    .source = "models/lfm2/configuration_lfm2.py (rope_theta=1000000.0, "
              "max_position_embeddings=128000, layer_types, else full_attn_idxs, else "
              "range(num_hidden_layers); base from theta before rope_theta), modeling_lfm2.py "
              "(conv layers: Lfm2ShortConv, no positions)",
    .defaults = {.rope_theta = 1e6, .max_position = 128000,
                 .layers = 32, .hidden = 2560, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ATTN_INDEXES,
    .none_types = (const char *const[]){"conv", NULL},
    .base_alias = "theta", /* kwargs.get("theta", kwargs.get("rope_theta", 1000000.0)) */
};
/* Jamba: attention every attn_layer_period layers at attn_layer_offset,
 * Mamba elsewhere; JambaAttention has no positional encoding at all. */
static const pe__family jamba = {
    .model_type = "jamba", .position = PE_POSITION_NOPE,
    .source = "models/jamba/configuration_jamba.py (attn_layer_period=8, attn_layer_offset=4, "
              "num_hidden_layers=32), modeling_jamba.py (JambaAttention: no rotary)",
    .defaults = {.period = 8, .offset = 4,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .layers = PE__LAYERS_PERIOD,
};
/* GraniteMoeHybrid (Granite 4): position_embedding_type defaults to None
 * (no positions; only "rope" rotates); layer_types "mamba" / "attention",
 * all mamba without it; rope_theta 10000, max_position_embeddings 2048. */
static const pe__family granitemoehybrid = {
    .model_type = "granitemoehybrid", .position = PE_POSITION_NOPE,
    .source = "models/granitemoehybrid/configuration_granitemoehybrid.py (position_embedding_type="
              "None, rope_theta=10000.0, max_position_embeddings=2048, layers_block_type: "
              "layer_types or [\"mamba\"] * num_hidden_layers)",
    .kind_switch = {.key = "position_embedding_type", .equals = "rope",
                    .when_true = PE_POSITION_ROPE},
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ALL_MAMBA,
};
/* Mllama (Llama 3.2 Vision): cross_attention_layers attend to the image
 * tokens without positions; the rest are Llama self-attention. */
static const pe__family mllama_text = {
    .model_type = "mllama_text_model", .position = PE_POSITION_ROPE,
    .source = "models/mllama/configuration_mllama.py (MllamaTextConfig: rope_theta=500000, "
              "max_position_embeddings=131072, cross_attention_layers), modeling_mllama.py "
              "(MllamaTextCrossAttention: no rotary)",
    .defaults = {.rope_theta = 500000.0, .max_position = 131072,
                 .layers = 40, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_CROSS_LIST,
};
static const pe__family mllama = {
    .model_type = "mllama", .position = PE_POSITION_ROPE,
    .source = "models/mllama/configuration_mllama.py (text_config: MllamaTextConfig)",
    .defaults = {.rope_theta = 500000.0, .max_position = 131072,
                 .layers = 40, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_CROSS_LIST,
};

/* ERNIE 4.5: GLM-style rotate_half on interleaved pairs ("Interleave them
 * instead of usual shape"), default_theta 500000, head_dim 128. */
static const pe__family ernie4_5 = {
    .model_type = "ernie4_5", .position = PE_POSITION_ROPE,
    .source = "models/ernie4_5/configuration_ernie4_5.py (default_theta=500000.0, "
              "max_position_embeddings=131072, head_dim=128), modular_ernie4_5.py "
              "(apply_rotary_pos_emb: repeat_interleave cos/sin, glm rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 131072, .head_dim = 128,
                 .layers = 18, .hidden = 1024, .heads = 16},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family ernie4_5_moe = {
    .model_type = "ernie4_5_moe", .position = PE_POSITION_ROPE,
    .source = "models/ernie4_5_moe/configuration_ernie4_5_moe.py (rope_theta 500000, "
              "max_position_embeddings=131072), modeling_ernie4_5_moe.py (ERNIE 4.5's "
              "interleaved apply_rotary_pos_emb)",
    .defaults = {.rope_theta = 500000.0, .max_position = 131072,
                 .layers = 28, .hidden = 2560, .heads = 20},
    .pairs = INTERLEAVED_PAIRS,
};
/* Class-default partial rotary: NemotronConfig partial_rotary_factor=0.5,
 * rope_theta 10000, max_position_embeddings=4096; PersimmonConfig 0.5,
 * 25000, 16384. */
static const pe__family nemotron = {
    .model_type = "nemotron", .position = PE_POSITION_ROPE,
    .source = "models/nemotron/configuration_nemotron.py (partial_rotary_factor=0.5, "
              "rope_theta 10000.0, max_position_embeddings=4096)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 4096,
                 .layers = 32, .hidden = 6144, .heads = 48},
    .pairs = HALF_PAIRS,
};
static const pe__family persimmon = {
    .model_type = "persimmon", .position = PE_POSITION_ROPE,
    .source = "models/persimmon/configuration_persimmon.py (partial_rotary_factor=0.5, "
              "rope_theta=25000.0, max_position_embeddings=16384)",
    .defaults = {.rope_theta = 25000.0, .partial_rotary = 0.5, .max_position = 16384,
                 .layers = 36, .hidden = 4096, .heads = 64},
    .pairs = HALF_PAIRS,
};
/* Wrappers whose text_config without a model_type is a LlamaConfig
 * (configuration_llava.py and kin: text_config.get("model_type", "llama")). */
static const pe__family llava = {
    .model_type = "llava", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/llava/configuration_llava.py (text_config model_type default \"llama\")",
};
static const pe__family llava_next = {
    .model_type = "llava_next", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/llava_next/configuration_llava_next.py (text_config model_type default "
              "\"llama\")",
};
static const pe__family vipllava = {
    .model_type = "vipllava", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/vipllava/configuration_vipllava.py (text_config model_type default \"llama\")",
};
static const pe__family janus = {
    .model_type = "janus", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/janus/configuration_janus.py (text_config model_type default \"llama\")",
};

/* ------------------------------ coverage of issue #25 (transformers 008e5743...) */

/* OlmoeConfig: max_position_embeddings 4096, no default_theta (PreTrainedConfig's
 * 10000), standard rotate_half. */
static const pe__family olmoe = {
    .model_type = "olmoe", .position = PE_POSITION_ROPE,
    .source = "models/olmoe/configuration_olmoe.py (max_position_embeddings: int = 4096, no "
              "default_theta), modeling_olmoe.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096,
                 .layers = 16, .hidden = 2048, .heads = 16},
    .pairs = HALF_PAIRS,
};
/* ArceeConfig: Llama's attention; max_position_embeddings 4096. */
static const pe__family arcee = {
    .model_type = "arcee", .position = PE_POSITION_ROPE,
    .source = "models/arcee/configuration_arcee.py (max_position_embeddings: int = 4096, "
              "head_dim = hidden_size // num_attention_heads), modeling_arcee.py (Llama "
              "rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096,
                 .layers = 32, .hidden = 2560, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* HeliumConfig: default_theta 100000, head_dim 128, max_position_embeddings
 * 4096; modeling_helium.py interleaves cos/sin (repeat_interleave) and
 * rotates x[0::2], x[1::2] together. */
static const pe__family helium = {
    .model_type = "helium", .position = PE_POSITION_ROPE,
    .source = "models/helium/configuration_helium.py (default_theta = 100000.0, head_dim: int = "
              "128, max_position_embeddings: int = 4096), modeling_helium.py at 015bfeb86891 "
              "(apply_rotary_pos_emb: \"Interleave them instead of usual shape\")",
    .defaults = {.rope_theta = 100000.0, .max_position = 4096, .head_dim = 128,
                 .layers = 24, .hidden = 2560, .heads = 20},
    .pairs = INTERLEAVED_PAIRS,
};
/* Mistral3Config: text_config.get("model_type", "mistral"). */
static const pe__family mistral3 = {
    .model_type = "mistral3", .position = PE_POSITION_ROPE, .text_family = "mistral",
    .source = "models/mistral3/configuration_mistral3.py at 0db25542f219 (text_config "
              "model_type default \"mistral\")",
};
/* MambaConfig: num_hidden_layers 32, hidden_size 768; MambaMixer layers
 * only: no attention, no positions. */
static const pe__family mamba = {
    .model_type = "mamba", .position = PE_POSITION_NONE,
    .source = "models/mamba/configuration_mamba.py at 00328d4e5b22 (num_hidden_layers=32, "
              "hidden_size=768), modeling_mamba.py (MambaMixer: no attention)",
    .defaults = {.layers = 32, .hidden = 768},
    .none_types = (const char *const[]){"mamba", NULL},
};
/* GraniteMoeSharedConfig: rope_theta=10000.0, max_position_embeddings=2048,
 * position_embedding_type hard-coded "rope"; Granite's attention. */
static const pe__family granitemoeshared = {
    .model_type = "granitemoeshared", .position = PE_POSITION_ROPE,
    .source = "models/granitemoeshared/configuration_granitemoeshared.py at 040e1a7e4bb4 "
              "(rope_theta=10000.0, max_position_embeddings=2048, position_embedding_type "
              "\"rope\"), modeling_granitemoeshared.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* BitNetConfig: rope_theta=500000.0, max_position_embeddings=2048. */
static const pe__family bitnet = {
    .model_type = "bitnet", .position = PE_POSITION_ROPE,
    .source = "models/bitnet/configuration_bitnet.py at 008f5c8c29be (rope_theta=500000.0, "
              "max_position_embeddings=2048), modeling_bitnet.py (rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 2048,
                 .layers = 30, .hidden = 2560, .heads = 20},
    .pairs = HALF_PAIRS,
};
/* SeedOssConfig: max_position_embeddings 524288, head_dim 128, no
 * default_theta (10000). */
static const pe__family seed_oss = {
    .model_type = "seed_oss", .position = PE_POSITION_ROPE,
    .source = "models/seed_oss/configuration_seed_oss.py (max_position_embeddings: int = 524288, "
              "head_dim: int | None = 128, no default_theta), modeling_seed_oss.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 524288, .head_dim = 128,
                 .layers = 64, .hidden = 4096, .heads = 80},
    .pairs = HALF_PAIRS,
};
/* FalconMambaConfig: num_hidden_layers 32, hidden_size 768; Mamba mixers. */
static const pe__family falcon_mamba = {
    .model_type = "falcon_mamba", .position = PE_POSITION_NONE,
    .source = "models/falcon_mamba/configuration_falcon_mamba.py at 8f578db559ac "
              "(num_hidden_layers: int = 32, hidden_size: int = 768), modeling_falcon_mamba.py "
              "(FalconMambaMixer: no attention)",
    .defaults = {.layers = 32, .hidden = 768},
    .none_types = (const char *const[]){"mamba", NULL},
};
/* RwkvConfig: num_hidden_layers=32, hidden_size=4096; the WKV time mixing
 * has no positions (context_length only bounds the CUDA kernel). */
static const pe__family rwkv = {
    .model_type = "rwkv", .position = PE_POSITION_NONE,
    .source = "models/rwkv/configuration_rwkv.py at 053f59efe493 (num_hidden_layers=32, "
              "hidden_size=4096, context_length=1024), modeling_rwkv.py (RwkvSelfAttention: "
              "WKV recurrence, no positions)",
    .defaults = {.layers = 32, .hidden = 4096},
    .none_types = (const char *const[]){"recurrent", NULL},
};
static const pe__family pixtral = {
    .model_type = "pixtral", .position = PE_POSITION_ROPE,
    .source = "models/pixtral/modeling_pixtral.py at 4a1e279ebe65 (PixtralRotaryEmbedding: "
              "2-D over patch rows and columns)",
    .refusal = "2-D vision RoPE over image patches; posenc plans the language model (read the "
               "checkpoint's config.json, whose text_config it follows)",
};
/* Wrappers whose text_config without a model_type is the named family
 * (each configuration file's text_config model_type default; AyaVision's
 * dict default is "llama" though its text_config=None default is Cohere 2). */
static const pe__family llava_onevision = {
    .model_type = "llava_onevision", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "models/llava_onevision/configuration_llava_onevision.py at 04ea11d8880b (text_config model_type default "
              "\"qwen2\")",
};
static const pe__family llava_next_video = {
    .model_type = "llava_next_video", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/llava_next_video/configuration_llava_next_video.py at 0ff79f407306 (text_config model_type default "
              "\"llama\")",
};
static const pe__family paligemma = {
    .model_type = "paligemma", .position = PE_POSITION_ROPE, .text_family = "gemma",
    .source = "models/paligemma/configuration_paligemma.py at 04d596e68f3d (text_config model_type default "
              "\"gemma\")",
};
static const pe__family internvl = {
    .model_type = "internvl", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "models/internvl/configuration_internvl.py at 04ea98d573ce (text_config model_type default "
              "\"qwen2\")",
};
static const pe__family aya_vision = {
    .model_type = "aya_vision", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/aya_vision/configuration_aya_vision.py at 0e97420c9957 (text_config model_type default "
              "\"llama\")",
};
static const pe__family idefics3 = {
    .model_type = "idefics3", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/idefics3/configuration_idefics3.py at 0025a6f5085c (text_config model_type default "
              "\"llama\")",
};
static const pe__family smolvlm = {
    .model_type = "smolvlm", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "models/smolvlm/configuration_smolvlm.py at 0be0e2a34a8f (text_config model_type default "
              "\"llama\")",
};
/* FalconH1Config: max_position_embeddings 8192, no default_theta (10000);
 * layers_block_type is "hybrid" for every layer: attention (Llama's RoPE)
 * beside a Mamba-2 mixer, so every layer rotates. */
static const pe__family falcon_h1 = {
    .model_type = "falcon_h1", .position = PE_POSITION_ROPE,
    .source = "models/falcon_h1/configuration_falcon_h1.py at 020a37d2264e "
              "(max_position_embeddings: int = 8192, no default_theta, layers_block_type "
              "[\"hybrid\"] * num_hidden_layers), modeling_falcon_h1.py (FalconH1Attention("
              "LlamaAttention) beside the mixer)",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* BioGptConfig: max_position_embeddings=1024, hidden_size=1024,
 * num_hidden_layers=24, num_attention_heads=16; BioGptLearnedPositionalEmbedding
 * is OPT's (max_position_embeddings + 2 rows, position + 2). */
static const pe__family biogpt = {
    .model_type = "biogpt", .position = PE_POSITION_LEARNED,
    .source = "models/biogpt/configuration_biogpt.py at 053f59efe493 (max_position_embeddings="
              "1024, hidden_size=1024, num_hidden_layers=24, num_attention_heads=16), "
              "modeling_biogpt.py (BioGptLearnedPositionalEmbedding(OPTLearnedPositionalEmbedding))",
    .defaults = {.heads = 16, .layers = 24, .hidden = 1024},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 1024, .rows_extra = 2,
                .offset = 2},
};
/* CamemBERT / XLM-RoBERTa-XL: RoBERTa's embeddings (positions from
 * padding_idx + 1 = 2, pad_token_id 1) inside max_position_embeddings rows. */
static const pe__family camembert = {
    .model_type = "camembert", .position = PE_POSITION_LEARNED,
    .source = "models/camembert/configuration_camembert.py at 04ea98d573ce (max_position_embeddings: "
              "int = 512, hidden_size 768, 12 layers, 12 heads, pad_token_id 1), "
              "modeling_camembert.py (RoBERTa's embeddings)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
static const pe__family xlm_roberta_xl = {
    .model_type = "xlm-roberta-xl", .position = PE_POSITION_LEARNED,
    .source = "models/xlm_roberta_xl/configuration_xlm_roberta_xl.py at 053f59efe493 "
              "(max_position_embeddings=514, hidden_size=2560, num_hidden_layers=36, "
              "num_attention_heads=32, pad_token_id=1), modeling_xlm_roberta_xl.py (RoBERTa's "
              "position ids)",
    .defaults = {.heads = 32, .layers = 36, .hidden = 2560},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 514, .offset = 2,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
/* RecurrentGemmaConfig: partial_rotary_factor=0.5, rope_theta=10000.0, no
 * max_position_embeddings (attention_window_size=2048), block_types
 * ("recurrent", "recurrent", "attention") repeated over the layers;
 * recurrent blocks (RG-LRU) see no positions. */
static const pe__family recurrent_gemma = {
    .model_type = "recurrent_gemma", .position = PE_POSITION_ROPE,
    .source = "models/recurrent_gemma/configuration_recurrent_gemma.py at 052b1dcdbe75 "
              "(partial_rotary_factor=0.5, rope_theta=10000.0, block_types=(\"recurrent\", "
              "\"recurrent\", \"attention\"), layers_block_type: (block_types * 100)"
              "[:num_hidden_layers]), modeling_recurrent_gemma.py (rotate_half on the first "
              "half; RecurrentGemmaRecurrentBlock: no positions)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5,
                 .layers = 26, .hidden = 2560, .heads = 10},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_CYCLE,
    .cycle = (const char *const[]){"recurrent", "recurrent", "attention", NULL},
    .cycle_key = "block_types",
};
/* MiniMaxConfig: default_theta 1e6, max_position_embeddings 4096 * 32,
 * layer_types default full_attention if (i + 1) % 2 else linear_attention;
 * MiniMaxAttention is Mixtral's (rotate_half); lightning attention layers
 * have no positions. */
static const pe__family minimax = {
    .model_type = "minimax", .position = PE_POSITION_ROPE,
    .source = "models/minimax/configuration_minimax.py (default_theta = 1000000.0, "
              "max_position_embeddings: int = 4096 * 32, layer_types: \"full_attention\" if "
              "bool((i + 1) % 2) else \"linear_attention\"), modular_minimax.py "
              "(MiniMaxAttention(MixtralAttention); MiniMaxLightningAttention: no positions)",
    .defaults = {.rope_theta = 1e6, .max_position = 131072,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_CYCLE,
    .cycle = (const char *const[]){"full_attention", "linear_attention", NULL},
};
/* GPTNeoXJapaneseConfig: max_position_embeddings 2048; rope_theta from
 * rotary_emb_base (default_theta 10000), partial_rotary_factor from
 * rotary_pct (default 1.0). */
static const pe__family gpt_neox_japanese = {
    .model_type = "gpt_neox_japanese", .position = PE_POSITION_ROPE,
    .source = "models/gpt_neox_japanese/configuration_gpt_neox_japanese.py at 020a37d2264e "
              "(max_position_embeddings: int = 2048; convert_rope_params_to_dict: rope_theta <- "
              "rotary_emb_base (default_theta), partial_rotary_factor <- rotary_pct (1.0)), "
              "modeling_gpt_neox_japanese.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 2560, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* Qwen2AudioConfig: text_config.get("model_type", "qwen2");
 * GraniteSpeechConfig: llm_config's model_type default "granite". */
static const pe__family qwen2_audio = {
    .model_type = "qwen2_audio", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "models/qwen2_audio/configuration_qwen2_audio.py at 124ddc4e81e0 (text_config "
              "model_type default \"qwen2\")",
};
static const pe__family granite_speech = {
    .model_type = "granite_speech", .position = PE_POSITION_ROPE, .text_family = "granite",
    .source = "models/granite_speech/configuration_granite_speech.py at 052a4e900bb3 (llm_config "
              "model_type default \"granite\")",
};

/* CTRLConfig: n_positions=256, n_embd=1280, n_layer=48, n_head=16;
 * modeling_ctrl.py positional_encoding: angle 1 / 10000^(2 * (i // 2) / d),
 * sines of the even columns then cosines of the odd ones ([sin | cos], the
 * paper's exponent 2j/d), added to the scaled token embeddings. */
static const pe__family ctrl = {
    .model_type = "ctrl", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/ctrl/configuration_ctrl.py at 06053b84c14d (n_positions=256, n_embd=1280, "
              "n_layer=48, n_head=16), modeling_ctrl.py at b6763b86c66c (positional_encoding: "
              "cat([sin(angle[:, 0::2]), cos(angle[:, 1::2])]), angle_defn 1 / 10000^(2 * (i // 2) "
              "/ d))",
    .defaults = {.heads = 16, .layers = 48, .hidden = 1280},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_PAPER},
};

/* FuyuConfig: text_config.get("model_type", "persimmon"); Cohere2VisionConfig:
 * "cohere2". */
static const pe__family fuyu = {
    .model_type = "fuyu", .position = PE_POSITION_ROPE, .text_family = "persimmon",
    .source = "models/fuyu/configuration_fuyu.py at 053f59efe493 (text_model_type = "
              "text_config.get(\"model_type\", \"persimmon\"))",
};
static const pe__family cohere2_vision = {
    .model_type = "cohere2_vision", .position = PE_POSITION_ROPE, .text_family = "cohere2",
    .source = "models/cohere2_vision/configuration_cohere2_vision.py at 0d7e95d96b4e (text_config "
              "model_type default \"cohere2\")",
};
/* Data2VecTextConfig / RobertaPreLayerNormConfig (BertConfig's defaults):
 * max_position_embeddings 512, 768 / 12 layers / 12 heads, pad_token_id 1;
 * RoBERTa's embeddings (positions from padding_idx + 1 = 2). */
static const pe__family data2vec_text = {
    .model_type = "data2vec-text", .position = PE_POSITION_LEARNED,
    .source = "models/data2vec/configuration_data2vec_text.py at 06053b84c14d "
              "(max_position_embeddings=512, hidden_size=768, num_hidden_layers=12, "
              "num_attention_heads=12, pad_token_id=1), modeling_data2vec_text.py (RoBERTa's "
              "position ids)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
static const pe__family roberta_prelayernorm = {
    .model_type = "roberta-prelayernorm", .position = PE_POSITION_LEARNED,
    .source = "models/roberta_prelayernorm/configuration_roberta_prelayernorm.py at 00ce4e9a3963 "
              "(RobertaPreLayerNormConfig(BertConfig), pad_token_id=1), "
              "modeling_roberta_prelayernorm.py (RoBERTa's position ids)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};

/* ErnieConfig / MegatronBertConfig: BERT's embeddings, positions from 0
 * inside max_position_embeddings (512) rows; ERNIE 768 / 12 / 12, Megatron
 * BERT 1024 / 24 / 16. */
static const pe__family ernie = {
    .model_type = "ernie", .position = PE_POSITION_LEARNED,
    .source = "models/ernie/configuration_ernie.py at 0db25542f219 (max_position_embeddings=512, "
              "hidden_size=768, num_hidden_layers=12, num_attention_heads=12), modeling_ernie.py "
              "(ErnieEmbeddings.position_embeddings, position ids from 0)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
static const pe__family megatron_bert = {
    .model_type = "megatron-bert", .position = PE_POSITION_LEARNED,
    .source = "models/megatron_bert/configuration_megatron_bert.py at 0af41688bf5b "
              "(max_position_embeddings=512, hidden_size=1024, num_hidden_layers=24, "
              "num_attention_heads=16, position_embedding_type=\"absolute\"), "
              "modeling_megatron_bert.py (BERT's embeddings)",
    .defaults = {.heads = 16, .layers = 24, .hidden = 1024},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};

/* ------------------------------------------- families posenc refuses */

static const pe__family longt5 = {
    .model_type = "longt5", .position = PE_POSITION_T5,
    .source = "models/longt5/modeling_longt5.py",
    .refusal = "LongT5's local and transient-global attention bucket positions within blocks; "
               "posenc models T5's full-attention buckets only",
};
static const pe__family whisper = {
    .model_type = "whisper", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/whisper/modeling_whisper.py",
    .refusal = "an encoder-decoder over audio frames (sinusoidal encoder, learned decoder); "
               "posenc plans decoder-only and T5 text models",
};
static const pe__family qwen2_vl_vision = {
    .model_type = "qwen2_vl_vision", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_vl/modeling_qwen2_vl.py (VisionRotaryEmbedding)",
    .refusal = "2-D vision RoPE over image patches; posenc plans the language model (read the "
               "checkpoint's config.json, whose text_config it follows)",
};

/* ---------------------------------------------------------- registry */

static const pe__family *const first[] = {
    &llama, &mistral, &mixtral, &ministral, &ministral3, &granite, &granitemoe,
    &llama4_text, &smollm3,
    &qwen2, &qwen2_moe, &qwen3, &qwen3_moe, &qwen3_next, &qwen3_5_text, &qwen3_5_moe_text,
    &qwen2_vl, &qwen2_vl_text, &qwen2_5_vl, &qwen2_5_vl_text, &qwen3_vl_text,
    &qwen3_vl_moe_text,
    &phi, &phi3, &phimoe, &gpt_neox, &stablelm, &gptj, &codegen, &starcoder2, &olmo, &olmo2,
    &olmo3,
    &gemma, &gemma2, &gemma3_text, &gemma3n_text, &gemma4_text,
    &cohere, &cohere2, &glm, &glm4, &glm4_moe, &gpt_oss, &hunyuan_v1_dense, &hunyuan_v1_moe,
    &deepseek_v2, &deepseek_v3, &kimi_k2, &glm4_moe_lite,
    &falcon, &bloom, &mpt,
    &gpt2, &opt, &gpt_neo, &gpt_bigcode, &bert, &roberta, &xlm_roberta, &xglm,
    &t5, &mt5, &umt5,
    &exaone4, &lfm2, &jamba, &granitemoehybrid, &mllama_text, &mllama,
    &ernie4_5, &ernie4_5_moe, &nemotron, &persimmon, &llava, &llava_next, &vipllava, &janus,
    &longt5, &whisper, &qwen2_vl_vision,
    /* issue #25 coverage */
    &olmoe, &arcee, &helium, &mistral3, &mamba,
    &granitemoeshared, &bitnet, &seed_oss, &falcon_mamba, &rwkv,
    &pixtral, /* bart, mbart, marian: modelled in families_hf_encoders.c */
    &llava_onevision, &llava_next_video, &paligemma, &internvl, &aya_vision, &idefics3, &smolvlm,
    &falcon_h1, &biogpt, &camembert, &xlm_roberta_xl,
    &recurrent_gemma, &minimax, &gpt_neox_japanese, &qwen2_audio, &granite_speech,
    &ctrl, &fuyu, &cohere2_vision, &data2vec_text, &roberta_prelayernorm,
    &ernie, &megatron_bert, NULL,
};
const pe__family_group pe__families_hf_first = {.records = first};

/* Every group, in the order `posenc plan --families` lists them. */
static const pe__family_group *const groups[] = {
    &pe__families_hf_first, &pe__families_hf_decoders, &pe__families_hf_encoders,
    &pe__families_hf_other,
};

size_t pe__family_count(void) {
    size_t n = 0;
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
        for (const pe__family *const *r = groups[g]->records; *r != NULL; r++) n++;
    return n;
}

const pe__family *pe__family_at(size_t i) {
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
        for (const pe__family *const *r = groups[g]->records; *r != NULL; r++)
            if (i-- == 0) return *r;
    return NULL;
}

const pe__family *pe__family_find(const char *model_type) {
    if (model_type == NULL) return NULL;
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
        for (const pe__family *const *r = groups[g]->records; *r != NULL; r++)
            if (strcmp((*r)->model_type, model_type) == 0) return *r;
    return NULL;
}

static const char *model_type_at(size_t i) { return pe__family_at(i)->model_type; }

void pe__family_closest(const char *name, char *buf, size_t cap) {
    pe__closest_names(name, model_type_at, pe__family_count(), buf, cap);
}

unsigned pe__family_kinds(const pe__family *f) {
    unsigned k = 1u << f->position;
    if (f->kind_switch.key != NULL) k |= 1u << f->kind_switch.when_true;
    if (f->nope != PE__NOPE_NONE || f->full == PE__FULL_NOPE || f->full == PE__FULL_NOPE_IF_WINDOW)
        k |= 1u << PE_POSITION_NOPE;
    if (f->none_types != NULL || f->layers == PE__LAYERS_LINEAR_INTERVAL ||
        f->layers == PE__LAYERS_CROSS_LIST || f->layers == PE__LAYERS_PERIOD ||
        f->layers == PE__LAYERS_ALL_MAMBA || f->layers == PE__LAYERS_CYCLE ||
        f->layers == PE__LAYERS_ATTN_LIST || f->layers == PE__LAYERS_HYBRID_PATTERN ||
        f->layers == PE__LAYERS_ZAMBA || f->types_key != NULL)
        k |= 1u << PE_POSITION_NONE;
    return k;
}

int64_t pe_family_count(void) { return (int64_t)pe__family_count(); }

int pe_family_get(int64_t index, pe_family_info *out) {
    PE_CHECK_NULL(out);
    if (index < 0 || index >= pe_family_count())
        return pe__fail(PE_ERR_RANGE, "family index %lld is outside [0, %lld)",
                        (long long)index, (long long)pe_family_count());
    const pe__family *f = pe__family_at((size_t)index);
    out->model_type = f->model_type;
    out->kinds = pe__family_kinds(f);
    out->source = f->source;
    out->refusal = f->refusal;
    return PE_OK;
}
