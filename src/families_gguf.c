/*
 * families_gguf.c — the llama.cpp architecture registry (families_gguf.h):
 * one named record per architecture llama.cpp's src/llama-arch.cpp names,
 * each restated from llama.cpp at commit 34af94cd9ab2 (github.com/ggml-org/
 * llama.cpp, 2026-08-17):
 *   rope type  src/llama-model.cpp llama_model_rope_type() (the line of the
 *              architecture's case label, given in .source)
 *   rules      the architecture's load_arch_hparams in src/models/<file>.cpp
 *              (the line given in .source): sliding-window pattern, NextN
 *              layers, recurrent layers, YaRN keys it reads, NoPE step;
 *              llama-hparams.cpp set_swa_pattern(), n_layer(), use_mrope();
 *              llama-context.cpp (YaRN magnitude, yarn_log_multiplier);
 *              llama-model-loader.cpp get_key_or_arr (an array pattern given
 *              to a uint32_t period is ignored).
 * A record with .refusal set is an architecture llama.cpp runs but whose
 * positions posenc does not restate (DeepSeek-V4's compressed attention, a
 * drafter made only of NextN blocks, T5's buckets, ...): it is refused with
 * that reason rather than given a plausible plan. An architecture with no record is refused
 * naming the closest records. docs/FAMILIES.md (GGUF) lists the registry.
 */
#include "families_gguf.h"
#include "closest_names.h"

#include <stdio.h>
#include <string.h>

static const pe__gguf_arch arch_clip = {
    .arch = "clip",
    .source = "src/llama-model.cpp:2591 (rope type), src/models/clip.cpp:6 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .refusal = "a vision encoder llama-quantize alone uses; no decoder positions"};
static const pe__gguf_arch arch_llama = {
    .arch = "llama",
    .source = "src/llama-model.cpp:2616 (rope type), src/models/llama.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_llama4 = {
    .arch = "llama4",
    .source = "src/llama-model.cpp:2618 (rope type), src/models/llama4.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_CHUNKED, .period = 4, .default_window = 8192, .base = PE__GGUF_SWA_BASE_KEY_OR_FULL}};
static const pe__gguf_arch arch_deci = {
    .arch = "deci",
    .source = "src/llama-model.cpp:2619 (rope type), src/models/deci.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_falcon = {
    .arch = "falcon",
    .source = "src/llama-model.cpp:2661 (rope type), src/models/falcon.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_grok = {
    .arch = "grok",
    .source = "src/llama-model.cpp:2663 (rope type), src/models/grok.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .yarn_betas = true};
static const pe__gguf_arch arch_gpt2 = {
    .arch = "gpt2",
    .source = "src/llama-model.cpp:2592 (rope type), src/models/gpt2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_LEARNED};
static const pe__gguf_arch arch_gptj = {
    .arch = "gptj",
    .source = "src/llama-model.cpp:2593 (rope type)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .refusal = "llama.cpp has no model class for it (and its converter none for GPTJForCausalLM)"};
static const pe__gguf_arch arch_gptneox = {
    .arch = "gptneox",
    .source = "src/llama-model.cpp:2698 (rope type), src/models/gptneox.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_mpt = {
    .arch = "mpt",
    .source = "src/llama-model.cpp:2594 (rope type), src/models/mpt.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_ALIBI,
    .alibi = {.max_bias = 8.0, .key = "attention.max_alibi_bias"}};
static const pe__gguf_arch arch_baichuan = {
    .arch = "baichuan",
    .source = "src/llama-model.cpp:2620 (rope type), src/models/baichuan.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .alibi_at_layers = 40, .alibi = {.max_bias = 8.0}};
static const pe__gguf_arch arch_starcoder = {
    .arch = "starcoder",
    .source = "src/llama-model.cpp:2621 (rope type), src/models/starcoder.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_LEARNED};
static const pe__gguf_arch arch_refact = {
    .arch = "refact",
    .source = "src/llama-model.cpp:2595 (rope type), src/models/refact.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_ALIBI,
    .alibi = {.max_bias = 8.0}};
static const pe__gguf_arch arch_bert = {
    .arch = "bert",
    .source = "src/llama-model.cpp:2665 (rope type), src/models/bert.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_LEARNED};
static const pe__gguf_arch arch_modern_bert = {
    .arch = "modern-bert",
    .source = "src/llama-model.cpp:2667 (rope type), src/models/modern-bert.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* modern-bert.cpp:4-13: a window > 0 sets symmetric sliding layers, period 3 dense
     * first; their base rope.freq_base_swa else llama_hparams' 10000, scale 1 (graph 96-122) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 3, .dense_first = true, .needs_window = true,
            .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true}};
static const pe__gguf_arch arch_nomic_bert = {
    .arch = "nomic-bert",
    .source = "src/llama-model.cpp:2668 (rope type), src/models/nomic-bert.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_nomic_bert_moe = {
    .arch = "nomic-bert-moe",
    .source = "src/llama-model.cpp:2669 (rope type), src/models/nomic-bert-moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_neo_bert = {
    .arch = "neo-bert",
    .source = "src/llama-model.cpp:2645 (rope type), src/models/neo-bert.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_jina_bert_v2 = {
    .arch = "jina-bert-v2",
    .source = "src/llama-model.cpp:2600 (rope type), src/models/jina-bert-v2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_ALIBI,
    .alibi = {.max_bias = 8.0}};
static const pe__gguf_arch arch_jina_bert_v3 = {
    .arch = "jina-bert-v3",
    .source = "src/llama-model.cpp:2666 (rope type), src/models/jina-bert-v3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_eurobert = {
    .arch = "eurobert",
    .source = "src/llama-model.cpp:2670 (rope type), src/models/eurobert.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_bloom = {
    .arch = "bloom",
    .source = "src/llama-model.cpp:2596 (rope type), src/models/bloom.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_ALIBI,
    .alibi = {.max_bias = 8.0}};
static const pe__gguf_arch arch_stablelm = {
    .arch = "stablelm",
    .source = "src/llama-model.cpp:2671 (rope type), src/models/stablelm.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen = {
    .arch = "qwen",
    .source = "src/llama-model.cpp:2673 (rope type), src/models/qwen.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen2 = {
    .arch = "qwen2",
    .source = "src/llama-model.cpp:2674 (rope type), src/models/qwen2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen2moe = {
    .arch = "qwen2moe",
    .source = "src/llama-model.cpp:2676 (rope type), src/models/qwen2moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen2vl = {
    .arch = "qwen2vl",
    .source = "src/llama-model.cpp:2737 (rope type), src/models/qwen2vl.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_MROPE,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen3 = {
    .arch = "qwen3",
    .source = "src/llama-model.cpp:2677 (rope type), src/models/qwen3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen3moe = {
    .arch = "qwen3moe",
    .source = "src/llama-model.cpp:2678 (rope type), src/models/qwen3moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen3next = {
    .arch = "qwen3next",
    .source = "src/llama-model.cpp:2726 (rope type), src/models/qwen3next.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .layers = PE__GGUF_LAYERS_RECURRENT_INTERVAL, .none_why = "linear_attention",
    .nextn = true};
static const pe__gguf_arch arch_qwen3vl = {
    .arch = "qwen3vl",
    .source = "src/llama-model.cpp:2740 (rope type), src/models/qwen3vl.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_IMROPE,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen3vlmoe = {
    .arch = "qwen3vlmoe",
    .source = "src/llama-model.cpp:2741 (rope type), src/models/qwen3vlmoe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_IMROPE,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_qwen35 = {
    .arch = "qwen35",
    .source = "src/llama-model.cpp:2742 (rope type), src/models/qwen35.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_IMROPE,
    .position = PE_POSITION_ROPE,
    .layers = PE__GGUF_LAYERS_RECURRENT_INTERVAL, .none_why = "linear_attention",
    .nextn = true};
static const pe__gguf_arch arch_qwen35moe = {
    .arch = "qwen35moe",
    .source = "src/llama-model.cpp:2743 (rope type), src/models/qwen35moe.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_IMROPE,
    .position = PE_POSITION_ROPE,
    .layers = PE__GGUF_LAYERS_RECURRENT_INTERVAL, .none_why = "linear_attention",
    .nextn = true};
static const pe__gguf_arch arch_phi2 = {
    .arch = "phi2",
    .source = "src/llama-model.cpp:2683 (rope type), src/models/phi2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_phi3 = {
    .arch = "phi3",
    .source = "src/llama-model.cpp:2684 (rope type), src/models/phi3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_DISABLED}};
static const pe__gguf_arch arch_phimoe = {
    .arch = "phimoe",
    .source = "src/llama-model.cpp:2685 (rope type), src/models/phimoe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_NONE}};
static const pe__gguf_arch arch_plamo = {
    .arch = "plamo",
    .source = "src/llama-model.cpp:2686 (rope type), src/models/plamo.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_plamo2 = {
    .arch = "plamo2",
    .source = "src/llama-model.cpp:2687 (rope type), src/models/plamo2.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "mamba"}; /* plamo2.cpp:18-20 */
static const pe__gguf_arch arch_plamo3 = {
    .arch = "plamo3",
    .source = "src/llama-model.cpp:2688 (rope type), src/models/plamo3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* plamo3.cpp:5-14: a window > 0 sets period 8 (an integer key overrides); the sliding
     * base rope.freq_base_swa else 10000, scale 1 (graph 90-100, per-layer) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 8, .needs_window = true,
            .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true}};
static const pe__gguf_arch arch_codeshell = {
    .arch = "codeshell",
    .source = "src/llama-model.cpp:2699 (rope type), src/models/codeshell.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_orion = {
    .arch = "orion",
    .source = "src/llama-model.cpp:2700 (rope type), src/models/orion.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_internlm2 = {
    .arch = "internlm2",
    .source = "src/llama-model.cpp:2622 (rope type), src/models/internlm2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_minicpm = {
    .arch = "minicpm",
    .source = "src/llama-model.cpp:2623 (rope type), src/models/minicpm.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_minicpm3 = {
    .arch = "minicpm3",
    .source = "src/llama-model.cpp:2705 (rope type), src/models/minicpm3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_gemma = {
    .arch = "gemma",
    .source = "src/llama-model.cpp:2689 (rope type), src/models/gemma.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_gemma2 = {
    .arch = "gemma2",
    .source = "src/llama-model.cpp:2690 (rope type), src/models/gemma2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 2, .default_window = 4096, .base = PE__GGUF_SWA_BASE_KEY_OR_FULL}};
static const pe__gguf_arch arch_gemma3 = {
    .arch = "gemma3",
    .source = "src/llama-model.cpp:2691 (rope type), src/models/gemma3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 6, .needs_window = true, .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true}};
static const pe__gguf_arch arch_gemma3n = {
    .arch = "gemma3n",
    .source = "src/llama-model.cpp:2692 (rope type), src/models/gemma3n.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 5, .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true}};
static const pe__gguf_arch arch_gemma4 = {
    .arch = "gemma4",
    .source = "src/llama-model.cpp:2693 (rope type), src/models/gemma4.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* gemma4.cpp:3-20: the sliding layers from the required per-layer pattern array, their
     * head size attention.key_length_swa and rotary dims rope.dimension_count_swa
     * (llama-model.cpp:1238-1247), base rope.freq_base_swa else 10000, scale 1; the full
     * layers rotate with the rope_freqs factors (graph 182-236) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .pattern = PE__GGUF_PATTERN_ARRAY,
            .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true, .head_key = true,
            .rot_key = true}};
static const pe__gguf_arch arch_gemma4_assistant = {
    .arch = "gemma4-assistant",
    .source = "src/llama-model.cpp:2694 (rope type), src/models/gemma4-assistant.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .nextn = true,
    .refusal = "a drafter whose every block is a NextN block (gemma4-assistant.cpp:14-15: nextn_predict_layers == block_count): no decoder layers of its own to plan"};
static const pe__gguf_arch arch_gemma_embedding = {
    .arch = "gemma-embedding",
    .source = "src/llama-model.cpp:2695 (rope type), src/models/gemma-embedding.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 6, .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true}};
static const pe__gguf_arch arch_starcoder2 = {
    .arch = "starcoder2",
    .source = "src/llama-model.cpp:2696 (rope type), src/models/starcoder2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_mamba = {
    .arch = "mamba",
    .source = "src/llama-model.cpp:2597 (rope type), src/models/mamba.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .layers = PE__GGUF_LAYERS_ALL_RECURRENT, .none_why = "mamba"};
static const pe__gguf_arch arch_mamba2 = {
    .arch = "mamba2",
    .source = "src/llama-model.cpp:2598 (rope type), src/models/mamba2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .layers = PE__GGUF_LAYERS_ALL_RECURRENT, .none_why = "mamba"};
static const pe__gguf_arch arch_jamba = {
    .arch = "jamba",
    .source = "src/llama-model.cpp:2599 (rope type), src/models/jamba.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NOPE, /* rope type NONE: its attention layers carry no position */
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "mamba"}; /* jamba.cpp:11-13 */
static const pe__gguf_arch arch_falcon_h1 = {
    .arch = "falcon-h1",
    .source = "src/llama-model.cpp:2662 (rope type), src/models/falcon-h1.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* falcon-h1.cpp:14 marks every layer recurrent, but each layer runs its
     * attention beside the SSM (graph: ggml_rope_ext at 142-146): every layer rotates */
};
static const pe__gguf_arch arch_xverse = {
    .arch = "xverse",
    .source = "src/llama-model.cpp:2624 (rope type), src/models/xverse.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_command_r = {
    .arch = "command-r",
    .source = "src/llama-model.cpp:2625 (rope type), src/models/command-r.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_cohere2 = {
    .arch = "cohere2",
    .source = "src/llama-model.cpp:2626 (rope type), src/models/cohere2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .base = PE__GGUF_SWA_BASE_FULL},
    .rope_switch = PE__GGUF_ROPE_SLIDING_ONLY};
static const pe__gguf_arch arch_cohere2moe = {
    .arch = "cohere2moe",
    .source = "src/llama-model.cpp:2627 (rope type), src/models/cohere2moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .nextn = true,
    /* cohere2moe.cpp:23-40: an integer pattern is a period, dense first; an array (read after
     * the NextN count) marks each layer; neither: no sliding layer. Graph 177-202: the sliding
     * layers and the leading_dense_block_count first ones rotate, at the full base */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .dense_first = true,
            .pattern = PE__GGUF_PATTERN_PERIOD_OR_ARRAY, .pattern_after_nextn = true,
            .base = PE__GGUF_SWA_BASE_FULL},
    .rope_switch = PE__GGUF_ROPE_SLIDING_OR_DENSE_LEAD};
static const pe__gguf_arch arch_dbrx = {
    .arch = "dbrx",
    .source = "src/llama-model.cpp:2664 (rope type), src/models/dbrx.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_olmo = {
    .arch = "olmo",
    .source = "src/llama-model.cpp:2628 (rope type), src/models/olmo.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_olmo2 = {
    .arch = "olmo2",
    .source = "src/llama-model.cpp:2681 (rope type), src/models/olmo2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .needs_window = true, .base = PE__GGUF_SWA_BASE_FULL, .unscaled = true}};
static const pe__gguf_arch arch_olmoe = {
    .arch = "olmoe",
    .source = "src/llama-model.cpp:2682 (rope type), src/models/olmoe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_muse_glimmer = {
    .arch = "muse-glimmer",
    .source = "src/llama-model.cpp:2635 (rope type), src/models/muse-glimmer.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    /* muse-glimmer.cpp:5-18: an integer pattern is a period, an array marks each layer; the
     * sliding base rope.freq_base_swa else the full base, scale 1 (llama_hparams' default);
     * graph 87-130: only the sliding layers rotate */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4,
            .pattern = PE__GGUF_PATTERN_PERIOD_OR_ARRAY, .base = PE__GGUF_SWA_BASE_KEY_OR_FULL,
            .unscaled = true},
    .rope_switch = PE__GGUF_ROPE_SLIDING_ONLY};
static const pe__gguf_arch arch_openelm = {
    .arch = "openelm",
    .source = "src/llama-model.cpp:2697 (rope type), src/models/openelm.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_arctic = {
    .arch = "arctic",
    .source = "src/llama-model.cpp:2629 (rope type), src/models/arctic.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_deepseek = {
    .arch = "deepseek",
    .source = "src/llama-model.cpp:2630 (rope type), src/models/deepseek.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_deepseek2 = {
    .arch = "deepseek2",
    .source = "src/llama-model.cpp:2631 (rope type), src/models/deepseek2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .log_mul = PE__GGUF_LOG_MUL_OVER_0_1, .deepseek_softmax = true, .deepseek2_mscale = true,
    .nextn = true};
static const pe__gguf_arch arch_deepseek2_ocr = {
    .arch = "deepseek2-ocr",
    .source = "src/llama-model.cpp:2632 (rope type), src/models/deepseek2ocr.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_deepseek32 = {
    .arch = "deepseek32",
    .source = "src/llama-model.cpp:2633 (rope type), src/models/deepseek32.cpp:6 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .log_mul = PE__GGUF_LOG_MUL_OVER_0_1, .deepseek_softmax = true,
    .nextn = true};
static const pe__gguf_arch arch_deepseek4 = {
    .arch = "deepseek4",
    .source = "src/llama-model.cpp:2634 (rope type), src/models/deepseek4.cpp:18 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .nextn = true,
    .refusal = "DeepSeek-V4's compressed attention: per-layer attention.compress_ratios and a separate attention.compress_rope_freq_base (deepseek4.cpp:48-70); not restated yet"};
static const pe__gguf_arch arch_chatglm = {
    .arch = "chatglm",
    .source = "src/llama-model.cpp:2637 (rope type), src/models/chatglm.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_glm4 = {
    .arch = "glm4",
    .source = "src/llama-model.cpp:2747 (rope type), src/models/glm4.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NORM,
    .position = PE_POSITION_ROPE,
    .nextn = true};
static const pe__gguf_arch arch_glm4moe = {
    .arch = "glm4moe",
    .source = "src/llama-model.cpp:2749 (rope type), src/models/glm4-moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NEOX,
    .position = PE_POSITION_ROPE,
    .nextn = true};
static const pe__gguf_arch arch_glm_dsa = {
    .arch = "glm-dsa",
    .source = "src/llama-model.cpp:2655 (rope type), src/models/glm-dsa.cpp:29 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .nextn = true};
static const pe__gguf_arch arch_bitnet = {
    .arch = "bitnet",
    .source = "src/llama-model.cpp:2672 (rope type), src/models/bitnet.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_t5 = {
    .arch = "t5",
    .source = "src/llama-model.cpp:2601 (rope type), src/models/t5.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .refusal = "T5 relative buckets: llama.cpp gives each layer its own enc./dec.blk.N.attn_rel_b table when the file has one, else its stack's first (t5.cpp:158, 317; UMT5 has one per layer), and posenc reads no tensor names; read the buckets from config.json"};
static const pe__gguf_arch arch_t5encoder = {
    .arch = "t5encoder",
    .source = "src/llama-model.cpp:2602 (rope type), src/models/t5encoder.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .refusal = "T5 relative buckets: llama.cpp gives each layer its own enc./dec.blk.N.attn_rel_b table when the file has one, else its stack's first (t5.cpp:158, 317; UMT5 has one per layer), and posenc reads no tensor names; read the buckets from config.json"};
static const pe__gguf_arch arch_jais = {
    .arch = "jais",
    .source = "src/llama-model.cpp:2603 (rope type), src/models/jais.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_ALIBI,
    .alibi = {.max_bias = 8.0, .key = "attention.max_alibi_bias"}};
static const pe__gguf_arch arch_jais2 = {
    .arch = "jais2",
    .source = "src/llama-model.cpp:2709 (rope type), src/models/jais2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_nemotron = {
    .arch = "nemotron",
    .source = "src/llama-model.cpp:2701 (rope type), src/models/nemotron.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_nemotron_h = {
    .arch = "nemotron_h",
    .source = "src/llama-model.cpp:2609 (rope type), src/models/nemotron-h.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NOPE, /* rope type NONE; no ggml_rope in its graph */
    .layers = PE__GGUF_LAYERS_NEMOTRON_H, .none_why = "mamba2", /* nemotron-h.cpp:14-18, 191-198 */
    .nextn = true};
static const pe__gguf_arch arch_nemotron_h_moe = {
    .arch = "nemotron_h_moe",
    /* llama_model_nemotron_h_moe derives from llama_model_nemotron_h (src/models/models.h:1500)
     * and inherits its load_arch_hparams */
    .source = "src/llama-model.cpp:2610 (rope type), src/models/nemotron-h.cpp:3 (hparams, inherited)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NOPE,
    .layers = PE__GGUF_LAYERS_NEMOTRON_H, .none_why = "mamba2",
    .nextn = true};
static const pe__gguf_arch arch_exaone = {
    .arch = "exaone",
    .source = "src/llama-model.cpp:2702 (rope type), src/models/exaone.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_exaone4 = {
    .arch = "exaone4",
    .source = "src/llama-model.cpp:2703 (rope type), src/models/exaone4.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .default_window = 4096, .only_layers = 64, .base = PE__GGUF_SWA_BASE_KEY_OR_FULL},
    .nextn = true};
static const pe__gguf_arch arch_exaone_moe = {
    .arch = "exaone-moe",
    .source = "src/llama-model.cpp:2704 (rope type), src/models/exaone-moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .nextn = true,
    /* exaone-moe.cpp:4-13: window 128 unless the key, period 4 (an integer pattern key
     * overrides); the graph (135-160) rotates the sliding layers only, at the full base
     * and scale */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .default_window = 128,
            .base = PE__GGUF_SWA_BASE_FULL},
    .rope_switch = PE__GGUF_ROPE_SLIDING_ONLY};
static const pe__gguf_arch arch_rwkv6 = {
    .arch = "rwkv6",
    .source = "src/llama-model.cpp:2604 (rope type), src/models/rwkv6.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .layers = PE__GGUF_LAYERS_ALL_RECURRENT, .none_why = "rwkv"};
static const pe__gguf_arch arch_rwkv6qwen2 = {
    .arch = "rwkv6qwen2",
    .source = "src/llama-model.cpp:2605 (rope type), src/models/rwkv6qwen2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .layers = PE__GGUF_LAYERS_ALL_RECURRENT, .none_why = "rwkv"};
static const pe__gguf_arch arch_rwkv7 = {
    .arch = "rwkv7",
    .source = "src/llama-model.cpp:2606 (rope type), src/models/rwkv7.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .layers = PE__GGUF_LAYERS_ALL_RECURRENT, .none_why = "rwkv"};
static const pe__gguf_arch arch_arwkv7 = {
    .arch = "arwkv7",
    .source = "src/llama-model.cpp:2607 (rope type), src/models/arwkv7.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .layers = PE__GGUF_LAYERS_ALL_RECURRENT, .none_why = "rwkv"};
static const pe__gguf_arch arch_granite = {
    .arch = "granite",
    .source = "src/llama-model.cpp:2638 (rope type), src/models/granite.cpp:5 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .rope_switch = PE__GGUF_FINETUNED_SWITCH};
static const pe__gguf_arch arch_granitemoe = {
    .arch = "granitemoe",
    .source = "src/llama-model.cpp:2639 (rope type), src/models/granite-moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .rope_switch = PE__GGUF_FINETUNED_SWITCH};
static const pe__gguf_arch arch_granitehybrid = {
    .arch = "granitehybrid",
    .source = "src/llama-model.cpp:2640 (rope type), src/models/granite-hybrid.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "mamba2", /* granite-hybrid.cpp:21-24 */
    .rope_switch = PE__GGUF_FINETUNED_SWITCH}; /* granite-hybrid.cpp:16-19, graph 209-216 */
static const pe__gguf_arch arch_graniteswitch = {
    .arch = "graniteswitch",
    .source = "src/llama-model.cpp:2641 (rope type), src/models/granite-switch.cpp:5 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_chameleon = {
    .arch = "chameleon",
    .source = "src/llama-model.cpp:2642 (rope type), src/models/chameleon.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_wavtokenizer_dec = {
    .arch = "wavtokenizer-dec",
    .source = "src/llama-model.cpp:2608 (rope type), src/models/wavtokenizer-dec.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NONE,
    .refusal = "an audio decoder (convolutional), not a text model"};
static const pe__gguf_arch arch_plm = {
    .arch = "plm",
    .source = "src/llama-model.cpp:2636 (rope type), src/models/plm.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_bailingmoe = {
    .arch = "bailingmoe",
    .source = "src/llama-model.cpp:2643 (rope type), src/models/bailingmoe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_bailingmoe2 = {
    .arch = "bailingmoe2",
    .source = "src/llama-model.cpp:2706 (rope type), src/models/bailingmoe2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .nextn = true};
static const pe__gguf_arch arch_bailingmoe3 = {
    .arch = "bailingmoe3",
    .source = "src/llama-model.cpp:2644 (rope type), src/models/bailingmoe3.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .nextn = true, /* bailingmoe3.cpp:23 */
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "kda"}; /* bailingmoe3.cpp:34-36 */
static const pe__gguf_arch arch_dots1 = {
    .arch = "dots1",
    .source = "src/llama-model.cpp:2707 (rope type), src/models/dots1.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_arcee = {
    .arch = "arcee",
    .source = "src/llama-model.cpp:2647 (rope type), src/models/arcee.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_afmoe = {
    .arch = "afmoe",
    .source = "src/llama-model.cpp:2724 (rope type), src/models/afmoe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* afmoe.cpp:11-26: with a window > 0, period 4, sliding base rope.freq_base_swa else the
     * full base, scaled alike; graph 131-172: no RoPE where (il + 1) % 4 == 0 (the NoPE step
     * keeps llama_hparams' 4) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .needs_window = true,
            .base = PE__GGUF_SWA_BASE_KEY_OR_FULL},
    .nope_step = 4};
static const pe__gguf_arch arch_laguna = {
    .arch = "laguna",
    .source = "src/llama-model.cpp:2725 (rope type), src/models/laguna.cpp:9 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* laguna.cpp:34-51: a window > 0 sets period 4, dense first; sliding layers plain RoPE
     * (scale 1, no YaRN) at rope.freq_base_swa else the full base over
     * rope.dimension_count_swa (graph 175-223) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .dense_first = true, .needs_window = true,
            .base = PE__GGUF_SWA_BASE_KEY_OR_FULL, .unscaled = true, .rot_key = true}};
static const pe__gguf_arch arch_ernie4_5 = {
    .arch = "ernie4_5",
    .source = "src/llama-model.cpp:2648 (rope type), src/models/ernie4-5.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_ernie4_5_moe = {
    .arch = "ernie4_5-moe",
    .source = "src/llama-model.cpp:2649 (rope type)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_hunyuan_moe = {
    .arch = "hunyuan-moe",
    .source = "src/llama-model.cpp:2708 (rope type), src/models/hunyuan-moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_hunyuan_dense = {
    .arch = "hunyuan-dense",
    .source = "src/llama-model.cpp:2711 (rope type)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_hunyuan_vl = {
    .arch = "hunyuan_vl",
    .source = "src/llama-model.cpp:2752 (rope type), src/models/hunyuan-vl.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NEOX,
    .position = PE_POSITION_ROPE,
    .alpha = true};
static const pe__gguf_arch arch_hy_v3 = {
    .arch = "hy_v3",
    .source = "src/llama-model.cpp:2712 (rope type), src/models/hy-v3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .nextn = true};
static const pe__gguf_arch arch_smollm3 = {
    .arch = "smollm3",
    .source = "src/llama-model.cpp:2646 (rope type), src/models/smollm3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .nope_step = 4};
static const pe__gguf_arch arch_gpt_oss = {
    .arch = "gpt-oss",
    .source = "src/llama-model.cpp:2710 (rope type), src/models/openai-moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 2, .base = PE__GGUF_SWA_BASE_KEY_OR_FULL}};
static const pe__gguf_arch arch_lfm2 = {
    .arch = "lfm2",
    .source = "src/llama-model.cpp:2713 (rope type), src/models/lfm2.cpp:5 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "shortconv", /* lfm2.cpp:9-11 */
    /* lfm2.cpp:24-29: a window > 0 makes every attention layer sliding; the graph rotates
     * them at the full base and scale (ggml_rope_ext at 144-147) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 0, .needs_window = true,
            .pattern = PE__GGUF_PATTERN_NOT_READ, .base = PE__GGUF_SWA_BASE_FULL}};
static const pe__gguf_arch arch_lfm2moe = {
    .arch = "lfm2moe",
    .source = "src/llama-model.cpp:2714 (rope type), src/models/lfm2moe.cpp:5 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "shortconv"}; /* lfm2moe.cpp:12-14 */
static const pe__gguf_arch arch_dream = {
    .arch = "dream",
    .source = "src/llama-model.cpp:2675 (rope type), src/models/dream.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_smallthinker = {
    .arch = "smallthinker",
    .source = "src/llama-model.cpp:2715 (rope type), src/models/smallthinker.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* smallthinker.cpp:4-19: a window > 0 sets window 4096 and period 4, dense first, the
     * sliding base rope.freq_base_swa else the full base, scaled alike; without one the NoPE
     * step is n_layer (graph 108-109: every layer rotates) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .dense_first = true, .needs_window = true,
            .default_window = 4096, .window_fixed = true, .base = PE__GGUF_SWA_BASE_KEY_OR_FULL},
    .rope_switch = PE__GGUF_NOPE_STEP_FIRST_WITH_SWA};
static const pe__gguf_arch arch_llada = {
    .arch = "llada",
    .source = "src/llama-model.cpp:2617 (rope type), src/models/llada.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_llada_moe = {
    .arch = "llada-moe",
    .source = "src/llama-model.cpp:2679 (rope type), src/models/llada-moe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_seed_oss = {
    .arch = "seed_oss",
    .source = "src/llama-model.cpp:2716 (rope type), src/models/seed-oss.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_grovemoe = {
    .arch = "grovemoe",
    .source = "src/llama-model.cpp:2717 (rope type), src/models/grovemoe.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_apertus = {
    .arch = "apertus",
    .source = "src/llama-model.cpp:2718 (rope type), src/models/apertus.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_minimax_01 = {
    .arch = "minimax-01",
    .source = "src/llama-model.cpp:2719 (rope type), src/models/minimax-01.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* minimax-01.cpp:11-18: attention.recurrent_layers, else lightning attention unless
     * (i + 1) % full_attention_interval (default 8) == 0 */
    .layers = PE__GGUF_LAYERS_RECURRENT_INTERVAL, .none_why = "lightning_attention",
    .recurrent_interval = 8};
static const pe__gguf_arch arch_minimax_m2 = {
    .arch = "minimax-m2",
    .source = "src/llama-model.cpp:2720 (rope type), src/models/minimax-m2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_minimax_m3 = {
    .arch = "minimax-m3",
    .source = "src/llama-model.cpp:2721 (rope type), src/models/minimax-m3.cpp:13 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .refusal = "its attention passes ALiBi slopes to a flash-attention kernel beside RoPE; not restated"};
static const pe__gguf_arch arch_cogvlm = {
    .arch = "cogvlm",
    .source = "src/llama-model.cpp:2722 (rope type), src/models/cogvlm.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_rnd1 = {
    .arch = "rnd1",
    .source = "src/llama-model.cpp:2680 (rope type), src/models/rnd1.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_pangu_embedded = {
    .arch = "pangu-embedded",
    .source = "src/llama-model.cpp:2723 (rope type), src/models/pangu-embed.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_mistral3 = {
    .arch = "mistral3",
    .source = "src/llama-model.cpp:2650 (rope type), src/models/mistral3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .yarn_betas = true, .log_mul = PE__GGUF_LOG_MUL_AS_IS, .temperature_key = true};
static const pe__gguf_arch arch_eagle3 = {
    .arch = "eagle3",
    .source = "src/llama-model.cpp:2651 (rope type), src/models/eagle3.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_dflash = {
    .arch = "dflash",
    .source = "src/llama-model.cpp:2733 (rope type), src/models/dflash.cpp:7 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .refusal = "a drafter whose rope type depends on a DeepSeek-V4 hyper-connection key; not restated"};
static const pe__gguf_arch arch_mistral4 = {
    .arch = "mistral4",
    .source = "src/llama-model.cpp:2652 (rope type)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_paddleocr = {
    .arch = "paddleocr",
    .source = "src/llama-model.cpp:2738 (rope type)",
    .rope = PE__GGUF_ROPE_MROPE,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_mimo2 = {
    .arch = "mimo2",
    .source = "src/llama-model.cpp:2727 (rope type), src/models/mimo2.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .nextn = true,
    /* mimo2.cpp:6-20: the required per-layer pattern array, base rope.freq_base_swa else
     * 10000, scale 1 (graph 113-165: per-layer base and scale, n_rot of the file) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .pattern = PE__GGUF_PATTERN_ARRAY,
            .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true}};
static const pe__gguf_arch arch_step35 = {
    .arch = "step35",
    .source = "src/llama-model.cpp:2728 (rope type), src/models/step35.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    .nextn = true,
    /* step35.cpp:6-33: the full layers rotate half of rope.dimension_count (with the
     * rope_freqs factors), the sliding ones from the required pattern array all of it (or
     * rope.dimension_count_swa) without factors, base rope.freq_base_swa else 10000, scale 1
     * (graph 211-256) */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .pattern = PE__GGUF_PATTERN_ARRAY,
            .base = PE__GGUF_SWA_BASE_KEY_OR_1E4, .unscaled = true, .rot_key = true,
            .full_rot_half = true}};
static const pe__gguf_arch arch_llama_embed = {
    .arch = "llama-embed",
    .source = "src/llama-model.cpp:2653 (rope type)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_maincoder = {
    .arch = "maincoder",
    .source = "src/llama-model.cpp:2654 (rope type), src/models/maincoder.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_kimi_linear = {
    .arch = "kimi-linear",
    .source = "src/llama-model.cpp:2611 (rope type), src/models/kimi-linear.cpp:4 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NOPE, /* rope type NONE: its MLA layers run without RoPE */
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "kda"}; /* kimi-linear.cpp:15-19 */
static const pe__gguf_arch arch_kimi_k3 = {
    .arch = "kimi-k3",
    .source = "src/llama-model.cpp:2612 (rope type), src/models/kimi-k3.cpp:14 (hparams)",
    .rope = PE__GGUF_ROPE_NONE,
    .position = PE_POSITION_NOPE, /* rope type NONE: its MLA layers run without RoPE */
    .layers = PE__GGUF_LAYERS_RECURRENT_IF_NO_KV, .none_why = "kda"}; /* kimi-k3.cpp:28-31 */
static const pe__gguf_arch arch_talkie = {
    .arch = "talkie",
    .source = "src/llama-model.cpp:2729 (rope type), src/models/talkie.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_mellum = {
    .arch = "mellum",
    .source = "src/llama-model.cpp:2730 (rope type), src/models/mellum.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NEOX,
    .position = PE_POSITION_ROPE,
    /* mellum.cpp:6-25: a window > 0, then an integer pattern is a period, an array marks each
     * layer, neither marks none; the graph (126-155) rotates sliding layers at the full base
     * with scale 1 and no YaRN */
    .swa = {.rule = PE__GGUF_SWA_PERIOD, .period = 4, .needs_window = true,
            .pattern = PE__GGUF_PATTERN_PERIOD_OR_ARRAY, .base = PE__GGUF_SWA_BASE_FULL,
            .unscaled = true}};
static const pe__gguf_arch arch_nanbeige = {
    .arch = "nanbeige",
    .source = "src/llama-model.cpp:2656 (rope type), src/models/nanbeige.cpp:3 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE,
    .loops = true}; /* nanbeige.cpp:6-32 (graph 111-131: every logical layer rotates) */
static const pe__gguf_arch arch_qwen3tts = {
    .arch = "qwen3tts",
    .source = "src/llama-model.cpp:2744 (rope type)",
    .rope = PE__GGUF_ROPE_IMROPE,
    .position = PE_POSITION_ROPE};
static const pe__gguf_arch arch_pockettts = {
    .arch = "pockettts",
    .source = "src/llama-model.cpp:2657 (rope type), src/models/pockettts.cpp:6 (hparams)",
    .rope = PE__GGUF_ROPE_NORM,
    .position = PE_POSITION_ROPE};

static const pe__gguf_arch *const archs[] = {
    &arch_clip,
    &arch_llama,
    &arch_llama4,
    &arch_deci,
    &arch_falcon,
    &arch_grok,
    &arch_gpt2,
    &arch_gptj,
    &arch_gptneox,
    &arch_mpt,
    &arch_baichuan,
    &arch_starcoder,
    &arch_refact,
    &arch_bert,
    &arch_modern_bert,
    &arch_nomic_bert,
    &arch_nomic_bert_moe,
    &arch_neo_bert,
    &arch_jina_bert_v2,
    &arch_jina_bert_v3,
    &arch_eurobert,
    &arch_bloom,
    &arch_stablelm,
    &arch_qwen,
    &arch_qwen2,
    &arch_qwen2moe,
    &arch_qwen2vl,
    &arch_qwen3,
    &arch_qwen3moe,
    &arch_qwen3next,
    &arch_qwen3vl,
    &arch_qwen3vlmoe,
    &arch_qwen35,
    &arch_qwen35moe,
    &arch_phi2,
    &arch_phi3,
    &arch_phimoe,
    &arch_plamo,
    &arch_plamo2,
    &arch_plamo3,
    &arch_codeshell,
    &arch_orion,
    &arch_internlm2,
    &arch_minicpm,
    &arch_minicpm3,
    &arch_gemma,
    &arch_gemma2,
    &arch_gemma3,
    &arch_gemma3n,
    &arch_gemma4,
    &arch_gemma4_assistant,
    &arch_gemma_embedding,
    &arch_starcoder2,
    &arch_mamba,
    &arch_mamba2,
    &arch_jamba,
    &arch_falcon_h1,
    &arch_xverse,
    &arch_command_r,
    &arch_cohere2,
    &arch_cohere2moe,
    &arch_dbrx,
    &arch_olmo,
    &arch_olmo2,
    &arch_olmoe,
    &arch_muse_glimmer,
    &arch_openelm,
    &arch_arctic,
    &arch_deepseek,
    &arch_deepseek2,
    &arch_deepseek2_ocr,
    &arch_deepseek32,
    &arch_deepseek4,
    &arch_chatglm,
    &arch_glm4,
    &arch_glm4moe,
    &arch_glm_dsa,
    &arch_bitnet,
    &arch_t5,
    &arch_t5encoder,
    &arch_jais,
    &arch_jais2,
    &arch_nemotron,
    &arch_nemotron_h,
    &arch_nemotron_h_moe,
    &arch_exaone,
    &arch_exaone4,
    &arch_exaone_moe,
    &arch_rwkv6,
    &arch_rwkv6qwen2,
    &arch_rwkv7,
    &arch_arwkv7,
    &arch_granite,
    &arch_granitemoe,
    &arch_granitehybrid,
    &arch_graniteswitch,
    &arch_chameleon,
    &arch_wavtokenizer_dec,
    &arch_plm,
    &arch_bailingmoe,
    &arch_bailingmoe2,
    &arch_bailingmoe3,
    &arch_dots1,
    &arch_arcee,
    &arch_afmoe,
    &arch_laguna,
    &arch_ernie4_5,
    &arch_ernie4_5_moe,
    &arch_hunyuan_moe,
    &arch_hunyuan_dense,
    &arch_hunyuan_vl,
    &arch_hy_v3,
    &arch_smollm3,
    &arch_gpt_oss,
    &arch_lfm2,
    &arch_lfm2moe,
    &arch_dream,
    &arch_smallthinker,
    &arch_llada,
    &arch_llada_moe,
    &arch_seed_oss,
    &arch_grovemoe,
    &arch_apertus,
    &arch_minimax_01,
    &arch_minimax_m2,
    &arch_minimax_m3,
    &arch_cogvlm,
    &arch_rnd1,
    &arch_pangu_embedded,
    &arch_mistral3,
    &arch_eagle3,
    &arch_dflash,
    &arch_mistral4,
    &arch_paddleocr,
    &arch_mimo2,
    &arch_step35,
    &arch_llama_embed,
    &arch_maincoder,
    &arch_kimi_linear,
    &arch_kimi_k3,
    &arch_talkie,
    &arch_mellum,
    &arch_nanbeige,
    &arch_qwen3tts,
    &arch_pockettts,
};

size_t pe__gguf_arch_count(void) { return sizeof archs / sizeof *archs; }

const pe__gguf_arch *pe__gguf_arch_at(size_t i) {
    return i < pe__gguf_arch_count() ? archs[i] : NULL;
}

const pe__gguf_arch *pe__gguf_arch_find(const char *arch) {
    if (arch == NULL) return NULL;
    for (size_t i = 0; i < pe__gguf_arch_count(); i++)
        if (strcmp(archs[i]->arch, arch) == 0) return archs[i];
    return NULL;
}

static const char *arch_at(size_t i) { return archs[i]->arch; }

void pe__gguf_arch_closest(const char *name, char *buf, size_t cap) {
    pe__closest_names(name, arch_at, pe__gguf_arch_count(), buf, cap);
}

const char *pe__gguf_rope_type_name(pe__gguf_rope_type t) {
    switch (t) {
    case PE__GGUF_ROPE_NONE: return "none";
    case PE__GGUF_ROPE_NORM: return "norm";
    case PE__GGUF_ROPE_NEOX: return "neox";
    case PE__GGUF_ROPE_MROPE: return "mrope";
    case PE__GGUF_ROPE_IMROPE: return "imrope";
    case PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NORM: return "mrope|norm";
    case PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NEOX: return "mrope|neox";
    }
    return "?";
}
