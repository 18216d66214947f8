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

#include <stdio.h>
#include <string.h>

#define HALF_PAIRS {.layout = PE_ROPE_HALF}
#define INTERLEAVED_PAIRS {.layout = PE_ROPE_INTERLEAVED}

/* ------------------------------------------------ Llama and its kin */

static const pe__family llama = {
    .model_type = "llama", .position = PE_POSITION_ROPE,
    .source = "models/llama/configuration_llama.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family mistral = {
    .model_type = "mistral", .position = PE_POSITION_ROPE,
    .source = "models/mistral/configuration_mistral.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072},
    .pairs = HALF_PAIRS,
};
static const pe__family mixtral = {
    .model_type = "mixtral", .position = PE_POSITION_ROPE,
    .source = "models/mixtral/configuration_mixtral.py",
    .defaults = {.rope_theta = 1e6, .max_position = 131072},
    .pairs = HALF_PAIRS,
};
static const pe__family ministral = {
    .model_type = "ministral", .position = PE_POSITION_ROPE,
    .source = "models/ministral/configuration_ministral.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072},
    .pairs = HALF_PAIRS,
};
static const pe__family ministral3 = {
    .model_type = "ministral3", .position = PE_POSITION_ROPE,
    .source = "models/ministral3/configuration_ministral3.py, modeling_ministral3.py "
              "(get_llama_4_attn_scale)",
    .defaults = {.rope_theta = 1e6},
    .pairs = HALF_PAIRS,
    .query = PE__QUERY_LLAMA4_BETA,
};
static const pe__family granite = {
    .model_type = "granite", .position = PE_POSITION_ROPE,
    .source = "models/granite/configuration_granite.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family granitemoe = {
    .model_type = "granitemoe", .position = PE_POSITION_ROPE,
    .source = "models/granitemoe/configuration_granitemoe.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family llama4_text = {
    .model_type = "llama4_text", .position = PE_POSITION_ROPE,
    .source = "models/llama4/configuration_llama4.py, modeling_llama4.py (complex RoPE, "
              "NoPE temperature)",
    .defaults = {.rope_theta = 500000.0, .max_position = 131072, .nope_interval = 4},
    .pairs = INTERLEAVED_PAIRS,
    .layers = PE__LAYERS_CHUNKED,
    .nope = PE__NOPE_MASK,
    .query = PE__QUERY_LLAMA4_TEMPERATURE,
};
static const pe__family smollm3 = {
    .model_type = "smollm3", .position = PE_POSITION_ROPE,
    .source = "models/smollm3/configuration_smollm3.py (no_rope_layers, no_rope_layer_interval)",
    .defaults = {.rope_theta = 2e6, .max_position = 32768, .nope_interval = 4},
    .pairs = HALF_PAIRS,
    .nope = PE__NOPE_MASK,
};

/* ------------------------------------------------------------- Qwen */

static const pe__family qwen2 = {
    .model_type = "qwen2", .position = PE_POSITION_ROPE,
    .source = "models/qwen2/configuration_qwen2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen2_moe = {
    .model_type = "qwen2_moe", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_moe/configuration_qwen2_moe.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen3 = {
    .model_type = "qwen3", .position = PE_POSITION_ROPE,
    .source = "models/qwen3/configuration_qwen3.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen3_moe = {
    .model_type = "qwen3_moe", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_moe/configuration_qwen3_moe.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen3_next = {
    .model_type = "qwen3_next", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_next/configuration_qwen3_next.py (linear_attention layers have no RoPE)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .max_position = 32768, .pattern = 4},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_LINEAR_INTERVAL,
};
static const pe__family qwen3_5_text = {
    .model_type = "qwen3_5_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_5/configuration_qwen3_5.py (linear_attention layers have no RoPE)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .pattern = 4},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_LINEAR_INTERVAL,
};
static const pe__family qwen3_5_moe_text = {
    .model_type = "qwen3_5_moe_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_5_moe/configuration_qwen3_5_moe.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .pattern = 4},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_LINEAR_INTERVAL,
};
static const pe__family qwen2_vl = {
    .model_type = "qwen2_vl", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_vl/configuration_qwen2_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen2_vl_text = {
    .model_type = "qwen2_vl_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_vl/configuration_qwen2_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen2_5_vl = {
    .model_type = "qwen2_5_vl", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_5_vl/configuration_qwen2_5_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen2_5_vl_text = {
    .model_type = "qwen2_5_vl_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen2_5_vl/configuration_qwen2_5_vl.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen3_vl_text = {
    .model_type = "qwen3_vl_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_vl/configuration_qwen3_vl.py",
    .defaults = {.rope_theta = 5e6, .max_position = 128000},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen3_vl_moe_text = {
    .model_type = "qwen3_vl_moe_text", .position = PE_POSITION_ROPE,
    .source = "models/qwen3_vl_moe/configuration_qwen3_vl_moe.py",
    .defaults = {.rope_theta = 5e6, .max_position = 128000},
    .pairs = HALF_PAIRS,
};

/* ------------------------------------------------------ Phi, NeoX, ... */

static const pe__family phi = {
    .model_type = "phi", .position = PE_POSITION_ROPE,
    .source = "models/phi/configuration_phi.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family phi3 = {
    .model_type = "phi3", .position = PE_POSITION_ROPE,
    .source = "models/phi3/configuration_phi3.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096},
    .pairs = HALF_PAIRS,
};
static const pe__family phimoe = {
    .model_type = "phimoe", .position = PE_POSITION_ROPE,
    .source = "models/phimoe/configuration_phimoe.py, modeling_phimoe.py (short_mscale/long_mscale)",
    .defaults = {.rope_theta = 1e6, .max_position = 131072},
    .pairs = HALF_PAIRS,
    .rope_extra = PE__EXTRA_PHIMOE_MSCALE,
};
static const pe__family gpt_neox = {
    .model_type = "gpt_neox", .position = PE_POSITION_ROPE,
    .source = "models/gpt_neox/configuration_gpt_neox.py (rotary_pct)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family stablelm = {
    .model_type = "stablelm", .position = PE_POSITION_ROPE,
    .source = "models/stablelm/configuration_stablelm.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.25, .max_position = 4096},
    .pairs = HALF_PAIRS,
};
static const pe__family gptj = {
    .model_type = "gptj", .position = PE_POSITION_ROPE,
    .source = "models/gptj/configuration_gptj.py (rotary_dim)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family codegen = {
    .model_type = "codegen", .position = PE_POSITION_ROPE,
    .source = "models/codegen/configuration_codegen.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family starcoder2 = {
    .model_type = "starcoder2", .position = PE_POSITION_ROPE,
    .source = "models/starcoder2/configuration_starcoder2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096},
    .pairs = HALF_PAIRS,
};
static const pe__family olmo = {
    .model_type = "olmo", .position = PE_POSITION_ROPE,
    .source = "models/olmo/configuration_olmo.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family olmo2 = {
    .model_type = "olmo2", .position = PE_POSITION_ROPE,
    .source = "models/olmo2/configuration_olmo2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family olmo3 = {
    .model_type = "olmo3", .position = PE_POSITION_ROPE,
    .source = "models/olmo3/configuration_olmo3.py, modeling_olmo3.py (sliding layers: rope_type "
              "default)",
    .defaults = {.rope_theta = 500000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
    .sliding = PE__SLIDING_UNSCALED,
};

/* ------------------------------------------------------------ Gemma */

static const pe__family gemma = {
    .model_type = "gemma", .position = PE_POSITION_ROPE,
    .source = "models/gemma/configuration_gemma.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192, .head_dim = 256},
    .pairs = HALF_PAIRS,
};
static const pe__family gemma2 = {
    .model_type = "gemma2", .position = PE_POSITION_ROPE,
    .source = "models/gemma2/configuration_gemma2.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192, .head_dim = 256},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ALTERNATE,
};
static const pe__family gemma3_text = {
    .model_type = "gemma3_text", .position = PE_POSITION_ROPE,
    .source = "models/gemma3/configuration_gemma3.py (rope_local_base_freq, sliding_window_pattern)",
    .defaults = {.rope_theta = 1e6, .max_position = 131072, .head_dim = 256,
                 .local_base = 10000.0, .pattern = 6},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .sliding = PE__SLIDING_LOCAL_BASE,
};
static const pe__family gemma3n_text = {
    .model_type = "gemma3n_text", .position = PE_POSITION_ROPE,
    .source = "models/gemma3n/configuration_gemma3n.py",
    .defaults = {.rope_theta = 1e6, .max_position = 32768, .head_dim = 256,
                 .local_base = 10000.0, .pattern = 5},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .sliding = PE__SLIDING_LOCAL_BASE,
};
static const pe__family gemma4_text = {
    .model_type = "gemma4_text", .position = PE_POSITION_ROPE,
    .source = "models/gemma4/configuration_gemma4.py (per-layer-type rope_parameters, "
              "global_head_dim)",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072, .head_dim = 256, .pattern = 6},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .full = PE__FULL_GLOBAL_HEAD_DIM,
};

/* ----------------------------------------------------- Cohere, GLM, ... */

static const pe__family cohere = {
    .model_type = "cohere", .position = PE_POSITION_ROPE,
    .source = "models/cohere/configuration_cohere.py",
    .defaults = {.rope_theta = 500000.0, .max_position = 8192},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family cohere2 = {
    .model_type = "cohere2", .position = PE_POSITION_ROPE,
    .source = "models/cohere2/configuration_cohere2.py, modeling_cohere2.py (RoPE on sliding "
              "layers only)",
    .defaults = {.rope_theta = 500000.0, .max_position = 8192, .pattern = 4},
    .pairs = INTERLEAVED_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .full = PE__FULL_NOPE,
};
static const pe__family glm = {
    .model_type = "glm", .position = PE_POSITION_ROPE,
    .source = "models/glm/configuration_glm.py, modeling_glm.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 131072},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family glm4 = {
    .model_type = "glm4", .position = PE_POSITION_ROPE,
    .source = "models/glm4/configuration_glm4.py, modeling_glm4.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 131072},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family glm4_moe = {
    .model_type = "glm4_moe", .position = PE_POSITION_ROPE,
    .source = "models/glm4_moe/configuration_glm4_moe.py",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 131072},
    .pairs = HALF_PAIRS,
};
static const pe__family gpt_oss = {
    .model_type = "gpt_oss", .position = PE_POSITION_ROPE,
    .source = "models/gpt_oss/configuration_gpt_oss.py",
    .defaults = {.rope_theta = 150000.0, .max_position = 131072},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ALTERNATE,
};
static const pe__family hunyuan_v1_dense = {
    .model_type = "hunyuan_v1_dense", .position = PE_POSITION_ROPE,
    .source = "models/hunyuan_v1_dense/configuration_hunyuan_v1_dense.py, "
              "modeling_hunyuan_v1_dense.py (alpha)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
    .rope_extra = PE__EXTRA_HUNYUAN_ALPHA,
};
static const pe__family hunyuan_v1_moe = {
    .model_type = "hunyuan_v1_moe", .position = PE_POSITION_ROPE,
    .source = "models/hunyuan_v1_moe/configuration_hunyuan_v1_moe.py, "
              "modeling_hunyuan_v1_moe.py (alpha)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
    .rope_extra = PE__EXTRA_HUNYUAN_ALPHA,
};

/* ------------------------------------------------------ DeepSeek (MLA) */

static const pe__family deepseek_v2 = {
    .model_type = "deepseek_v2", .position = PE_POSITION_ROPE,
    .source = "models/deepseek_v2/configuration_deepseek_v2.py, modeling_deepseek_v2.py "
              "(softmax_scale * mscale^2)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = INTERLEAVED_PAIRS,
    .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
};
static const pe__family deepseek_v3 = {
    .model_type = "deepseek_v3", .position = PE_POSITION_ROPE,
    .source = "models/deepseek_v3/configuration_deepseek_v3.py, modeling_deepseek_v3.py "
              "(rope_interleave, mscale^2)",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096},
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

/* ------------------------------------------------------------ falcon */

static const pe__family falcon = {
    .model_type = "falcon", .position = PE_POSITION_ROPE,
    .source = "models/falcon/configuration_falcon.py, modeling_falcon.py",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};

/* ---------------------------------------------------------- registry */

static const pe__family *const registry[] = {
    &llama, &mistral, &mixtral, &ministral, &ministral3, &granite, &granitemoe,
    &llama4_text, &smollm3,
    &qwen2, &qwen2_moe, &qwen3, &qwen3_moe, &qwen3_next, &qwen3_5_text, &qwen3_5_moe_text,
    &qwen2_vl, &qwen2_vl_text, &qwen2_5_vl, &qwen2_5_vl_text, &qwen3_vl_text,
    &qwen3_vl_moe_text,
    &phi, &phi3, &phimoe, &gpt_neox, &stablelm, &gptj, &codegen, &starcoder2, &olmo, &olmo2,
    &olmo3,
    &gemma, &gemma2, &gemma3_text, &gemma3n_text, &gemma4_text,
    &cohere, &cohere2, &glm, &glm4, &glm4_moe, &gpt_oss, &hunyuan_v1_dense, &hunyuan_v1_moe,
    &deepseek_v2, &deepseek_v3, &kimi_k2,
    &falcon,
};

const pe__family *pe__family_find(const char *model_type) {
    if (model_type == NULL) return NULL;
    for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
        if (strcmp(registry[i]->model_type, model_type) == 0) return registry[i];
    return NULL;
}

size_t pe__family_count(void) { return sizeof registry / sizeof *registry; }

const pe__family *pe__family_at(size_t i) {
    return i < pe__family_count() ? registry[i] : NULL;
}

/* Levenshtein distance, capped: names are short (< 64 bytes). */
static size_t edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > 63) n = 63;
    if (m > 63) m = 63;
    size_t row[64];
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

void pe__family_closest(const char *name, char *buf, size_t cap) {
    enum { N = 3 };
    size_t best[N] = {(size_t)-1, (size_t)-1, (size_t)-1};
    const char *who[N] = {NULL, NULL, NULL};
    for (size_t i = 0; i < pe__family_count(); i++) {
        size_t d = edit_distance(name, registry[i]->model_type);
        for (int k = 0; k < N; k++)
            if (d < best[k]) {
                for (int j = N - 1; j > k; j--) {
                    best[j] = best[j - 1];
                    who[j] = who[j - 1];
                }
                best[k] = d;
                who[k] = registry[i]->model_type;
                break;
            }
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < N && who[k] != NULL && used < cap; k++) {
        int w = snprintf(buf + used, cap - used, "%s'%s'",
                         k == 0 ? "" : (k + 1 < N && who[k + 1] != NULL ? ", " : " or "), who[k]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

unsigned pe__family_kinds(const pe__family *f) {
    unsigned k = 1u << f->position;
    if (f->kind_switch.key != NULL) k |= 1u << f->kind_switch.when_true;
    if (f->nope != PE__NOPE_NONE || f->full == PE__FULL_NOPE || f->full == PE__FULL_NOPE_IF_WINDOW)
        k |= 1u << PE_POSITION_NOPE;
    if (f->none_types != NULL || f->layers == PE__LAYERS_LINEAR_INTERVAL ||
        f->layers == PE__LAYERS_CROSS_LIST)
        k |= 1u << PE_POSITION_NONE;
    return k;
}

int64_t pe_family_count(void) { return (int64_t)pe__family_count(); }

int pe_family_get(int64_t index, pe_family_info *out) {
    PE_CHECK_NULL(out);
    if (index < 0 || index >= pe_family_count())
        return pe__fail(PE_ERR_RANGE, "family index %lld is outside [0, %lld)",
                        (long long)index, (long long)pe_family_count());
    const pe__family *f = registry[index];
    out->model_type = f->model_type;
    out->kinds = pe__family_kinds(f);
    out->source = f->source;
    out->refusal = f->refusal;
    return PE_OK;
}
