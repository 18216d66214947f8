/*
 * plan_families.c — per-model_type class defaults and code semantics: what
 * Hugging Face transformers' configuration_<model>.py uses when config.json
 * leaves a key out (v5: each class's default_theta, partial_rotary_factor,
 * max_position_embeddings), and what its modeling_<model>.py does beyond
 * the generic keys (pair layout, local/global layers, NoPE layers, query
 * temperature, softmax multiplier). docs/SCALING.md restates the table with
 * the same sources; tests/test_plan.c checks rows against it.
 */
#include "plan_internal.h"

#include <string.h>

#define HALF PE_ROPE_HALF
#define INTER PE_ROPE_INTERLEAVED
#define K PE__FAM_LAYOUT_KNOWN

/* model_type, rope_theta, partial, max_position, head_dim, local_base, pattern,
 * nope_interval, layout, flags, source. 0 = no class default. */
static const pe__family families[] = {
    {"llama", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K, "configuration_llama.py"},
    {"mistral", 10000.0, 0, 131072, 0, 0, 0, 0, HALF, K, "configuration_mistral.py"},
    {"mixtral", 1e6, 0, 131072, 0, 0, 0, 0, HALF, K, "configuration_mixtral.py"},
    {"ministral", 10000.0, 0, 131072, 0, 0, 0, 0, HALF, K, "configuration_ministral.py"},
    {"ministral3", 1e6, 0, 0, 0, 0, 0, 0, HALF, K | PE__FAM_LLAMA4_BETA,
     "configuration_ministral3.py, modeling_ministral3.py (get_llama_4_attn_scale)"},
    {"qwen2", 10000.0, 0, 32768, 0, 0, 0, 0, HALF, K | PE__FAM_QWEN_WINDOW, "configuration_qwen2.py"},
    {"qwen2_moe", 10000.0, 0, 32768, 0, 0, 0, 0, HALF, K | PE__FAM_QWEN_WINDOW, "configuration_qwen2_moe.py"},
    {"qwen3", 10000.0, 0, 32768, 0, 0, 0, 0, HALF, K | PE__FAM_QWEN_WINDOW, "configuration_qwen3.py"},
    {"qwen3_moe", 10000.0, 0, 32768, 0, 0, 0, 0, HALF, K | PE__FAM_QWEN_WINDOW, "configuration_qwen3_moe.py"},
    {"qwen3_next", 10000.0, 0.25, 32768, 0, 0, 4, 0, HALF, K | PE__FAM_LINEAR_INTERVAL,
     "configuration_qwen3_next.py (linear_attention layers have no RoPE)"},
    {"qwen3_5_text", 10000.0, 0.25, 0, 0, 0, 4, 0, HALF, K | PE__FAM_LINEAR_INTERVAL,
     "configuration_qwen3_5.py (linear_attention layers have no RoPE)"},
    {"qwen3_5_moe_text", 10000.0, 0.25, 0, 0, 0, 4, 0, HALF, K | PE__FAM_LINEAR_INTERVAL,
     "configuration_qwen3_5_moe.py"},
    {"qwen2_vl", 1e6, 0, 32768, 0, 0, 0, 0, HALF, K, "configuration_qwen2_vl.py"},
    {"qwen2_vl_text", 1e6, 0, 32768, 0, 0, 0, 0, HALF, K, "configuration_qwen2_vl.py"},
    {"qwen2_5_vl", 1e6, 0, 32768, 0, 0, 0, 0, HALF, K, "configuration_qwen2_5_vl.py"},
    {"qwen2_5_vl_text", 1e6, 0, 32768, 0, 0, 0, 0, HALF, K, "configuration_qwen2_5_vl.py"},
    {"qwen3_vl_text", 5e6, 0, 128000, 0, 0, 0, 0, HALF, K, "configuration_qwen3_vl.py"},
    {"qwen3_vl_moe_text", 5e6, 0, 128000, 0, 0, 0, 0, HALF, K, "configuration_qwen3_vl_moe.py"},
    {"phi", 10000.0, 0.5, 2048, 0, 0, 0, 0, HALF, K, "configuration_phi.py"},
    {"phi3", 10000.0, 0, 4096, 0, 0, 0, 0, HALF, K, "configuration_phi3.py"},
    {"phimoe", 1e6, 0, 131072, 0, 0, 0, 0, HALF, K | PE__FAM_PHIMOE_MSCALE,
     "configuration_phimoe.py, modeling_phimoe.py (short_mscale/long_mscale)"},
    {"gpt_neox", 10000.0, 0.25, 2048, 0, 0, 0, 0, HALF, K, "configuration_gpt_neox.py (rotary_pct)"},
    {"stablelm", 10000.0, 0.25, 4096, 0, 0, 0, 0, HALF, K, "configuration_stablelm.py"},
    {"gptj", 10000.0, 0, 2048, 0, 0, 0, 0, INTER, K, "configuration_gptj.py (rotary_dim)"},
    {"codegen", 10000.0, 0, 2048, 0, 0, 0, 0, INTER, K, "configuration_codegen.py"},
    {"falcon", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K, "configuration_falcon.py"},
    {"starcoder2", 10000.0, 0, 4096, 0, 0, 0, 0, HALF, K, "configuration_starcoder2.py"},
    {"olmo", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K, "configuration_olmo.py"},
    {"olmo2", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K, "configuration_olmo2.py"},
    {"olmo3", 500000.0, 0, 2048, 0, 0, 0, 0, HALF, K | PE__FAM_SLIDING_UNSCALED,
     "configuration_olmo3.py, modeling_olmo3.py (sliding layers: rope_type default)"},
    {"gemma", 10000.0, 0, 8192, 256, 0, 0, 0, HALF, K, "configuration_gemma.py"},
    {"gemma2", 10000.0, 0, 8192, 256, 0, 0, 0, HALF, K | PE__FAM_ALTERNATE, "configuration_gemma2.py"},
    {"gemma3_text", 1e6, 0, 131072, 256, 10000.0, 6, 0, HALF,
     K | PE__FAM_SLIDING_LOCAL_BASE | PE__FAM_PATTERN,
     "configuration_gemma3.py (rope_local_base_freq, sliding_window_pattern)"},
    {"gemma3n_text", 1e6, 0, 32768, 256, 10000.0, 5, 0, HALF,
     K | PE__FAM_SLIDING_LOCAL_BASE | PE__FAM_PATTERN, "configuration_gemma3n.py"},
    {"gemma4_text", 10000.0, 0, 131072, 256, 0, 6, 0, HALF,
     K | PE__FAM_PATTERN | PE__FAM_GLOBAL_HEAD_DIM,
     "configuration_gemma4.py (per-layer-type rope_parameters, global_head_dim)"},
    {"cohere", 500000.0, 0, 8192, 0, 0, 0, 0, INTER, K, "configuration_cohere.py"},
    {"cohere2", 500000.0, 0, 8192, 0, 0, 4, 0, INTER, K | PE__FAM_PATTERN | PE__FAM_FULL_NOPE,
     "configuration_cohere2.py, modeling_cohere2.py (RoPE on sliding layers only)"},
    {"deepseek_v2", 10000.0, 0, 2048, 0, 0, 0, 0, INTER, K | PE__FAM_DEEPSEEK_SOFTMAX,
     "configuration_deepseek_v2.py, modeling_deepseek_v2.py (softmax_scale * mscale^2)"},
    {"deepseek_v3", 10000.0, 0, 4096, 0, 0, 0, 0, INTER, K | PE__FAM_DEEPSEEK_SOFTMAX,
     "configuration_deepseek_v3.py, modeling_deepseek_v3.py (rope_interleave, mscale^2)"},
    {"kimi_k2", 10000.0, 0, 4096, 0, 0, 0, 0, INTER, K | PE__FAM_DEEPSEEK_SOFTMAX,
     "Kimi K2's modeling_deepseek.py (DeepSeek V3 attention)"},
    {"gpt_oss", 150000.0, 0, 131072, 0, 0, 0, 0, HALF, K | PE__FAM_ALTERNATE, "configuration_gpt_oss.py"},
    {"granite", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K, "configuration_granite.py"},
    {"granitemoe", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K, "configuration_granitemoe.py"},
    {"glm", 10000.0, 0.5, 131072, 0, 0, 0, 0, INTER, K, "configuration_glm.py, modeling_glm.py"},
    {"glm4", 10000.0, 0.5, 131072, 0, 0, 0, 0, INTER, K, "configuration_glm4.py, modeling_glm4.py"},
    {"glm4_moe", 10000.0, 0.5, 131072, 0, 0, 0, 0, HALF, K, "configuration_glm4_moe.py"},
    {"smollm3", 2e6, 0, 32768, 0, 0, 0, 4, HALF, K | PE__FAM_NOPE_MASK,
     "configuration_smollm3.py (no_rope_layers, no_rope_layer_interval)"},
    {"llama4_text", 500000.0, 0, 131072, 0, 0, 0, 4, INTER,
     K | PE__FAM_NOPE_MASK | PE__FAM_LLAMA4_TEMPERATURE | PE__FAM_CHUNKED_ROPE,
     "configuration_llama4.py, modeling_llama4.py (complex RoPE, NoPE temperature)"},
    {"hunyuan_v1_dense", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K | PE__FAM_HUNYUAN_ALPHA,
     "configuration_hunyuan_v1_dense.py, modeling_hunyuan_v1_dense.py (alpha)"},
    {"hunyuan_v1_moe", 10000.0, 0, 2048, 0, 0, 0, 0, HALF, K | PE__FAM_HUNYUAN_ALPHA,
     "configuration_hunyuan_v1_moe.py, modeling_hunyuan_v1_moe.py (alpha)"},
};

const pe__family *pe__family_find(const char *model_type) {
    if (model_type == NULL) return NULL;
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        if (strcmp(families[i].model_type, model_type) == 0) return &families[i];
    return NULL;
}

size_t pe__family_count(void) { return sizeof families / sizeof *families; }

const pe__family *pe__family_at(size_t i) {
    return i < pe__family_count() ? &families[i] : NULL;
}
