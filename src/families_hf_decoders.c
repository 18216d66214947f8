/*
 * families_hf_decoders.c — one group of the Hugging Face family registry:
 * decoder LLMs, hybrids and multimodal wrappers (text_config) added after the first plans.
 * The record type and its rules are in plan_internal.h; docs/FAMILIES.md
 * says how to add a record. Each record's `source` names the transformers
 * files read, and tests/test_families_decoders.c restates each record's
 * class defaults from the same sources.
 *
 * Unless a source names another commit, every file was read at transformers
 * 28af8184fb00 (upstream main, 2026-03-24; read from the fork
 * Krishnachaitanyakc/transformers at 88020a578f96, whose only change is in
 * Whisper), under src/transformers/models/.
 */
#include "plan_internal.h"

#include <stddef.h>

#define HALF_PAIRS {.layout = PE_ROPE_HALF}
#define INTERLEAVED_PAIRS {.layout = PE_ROPE_INTERLEAVED}

/* ------------------------------------------------------------------ *
 * Wrappers: the text model is a family of the registry. A text_config
 * that names its model_type is read as that family; `text_family` is the
 * class's default when it names none.
 * ------------------------------------------------------------------ */

/* Gemma3Config / ShieldGemma2Config: text_config is a Gemma3TextConfig. */
static const pe__family gemma3 = {
    .model_type = "gemma3", .position = PE_POSITION_ROPE, .text_family = "gemma3_text",
    .source = "gemma3/configuration_gemma3.py (Gemma3Config.__post_init__: text_config = "
              "Gemma3TextConfig(**text_config))",
};
static const pe__family shieldgemma2 = {
    .model_type = "shieldgemma2", .position = PE_POSITION_ROPE, .text_family = "gemma3_text",
    .source = "shieldgemma2/configuration_shieldgemma2.py (text_config model_type default "
              "\"gemma3_text\")",
};
static const pe__family gemma3n = {
    .model_type = "gemma3n", .position = PE_POSITION_ROPE, .text_family = "gemma3n_text",
    .source = "gemma3n/configuration_gemma3n.py (Gemma3nConfig: text_config = "
              "Gemma3nTextConfig(**text_config))",
};
static const pe__family llama4 = {
    .model_type = "llama4", .position = PE_POSITION_ROPE, .text_family = "llama4_text",
    .source = "llama4/configuration_llama4.py (Llama4Config.sub_configs text_config: "
              "Llama4TextConfig)",
};
static const pe__family qwen3_vl = {
    .model_type = "qwen3_vl", .position = PE_POSITION_ROPE, .text_family = "qwen3_vl_text",
    .source = "qwen3_vl/configuration_qwen3_vl.py (sub_configs text_config: Qwen3VLTextConfig)",
};
static const pe__family qwen3_vl_moe = {
    .model_type = "qwen3_vl_moe", .position = PE_POSITION_ROPE,
    .text_family = "qwen3_vl_moe_text",
    .source = "qwen3_vl_moe/configuration_qwen3_vl_moe.py (sub_configs text_config: "
              "Qwen3VLMoeTextConfig)",
};
static const pe__family qwen3_5 = {
    .model_type = "qwen3_5", .position = PE_POSITION_ROPE, .text_family = "qwen3_5_text",
    .source = "qwen3_5/configuration_qwen3_5.py (sub_configs text_config: Qwen3_5TextConfig)",
};
static const pe__family qwen3_5_moe = {
    .model_type = "qwen3_5_moe", .position = PE_POSITION_ROPE,
    .text_family = "qwen3_5_moe_text",
    .source = "qwen3_5_moe/configuration_qwen3_5_moe.py (sub_configs text_config: "
              "Qwen3_5MoeTextConfig)",
};
static const pe__family aria = {
    .model_type = "aria", .position = PE_POSITION_ROPE, .text_family = "aria_text",
    .source = "aria/configuration_aria.py (AriaConfig: text_config = AriaTextConfig(...))",
};
static const pe__family idefics2 = {
    .model_type = "idefics2", .position = PE_POSITION_ROPE, .text_family = "mistral",
    .source = "idefics2/configuration_idefics2.py (text_config model_type default \"mistral\")",
};
static const pe__family lfm2_vl = {
    .model_type = "lfm2_vl", .position = PE_POSITION_ROPE, .text_family = "lfm2",
    .source = "lfm2_vl/configuration_lfm2_vl.py (text_config model_type default \"lfm2\")",
};
/* LFM2-VL's checkpoints were written while the class said "lfm2-vl"
 * (configuration_lfm2_vl.py at 077e4cd8b53a: model_type = "lfm2-vl"). */
static const pe__family lfm2_vl_dash = {
    .model_type = "lfm2-vl", .position = PE_POSITION_ROPE, .text_family = "lfm2",
    .source = "lfm2_vl/configuration_lfm2_vl.py at 077e4cd8b53a (model_type = \"lfm2-vl\"; "
              "text_config model_type default \"lfm2\")",
};
static const pe__family perception_lm = {
    .model_type = "perception_lm", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "perception_lm/configuration_perception_lm.py (text_config model_type default "
              "\"llama\")",
};
static const pe__family ovis2 = {
    .model_type = "ovis2", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "ovis2/configuration_ovis2.py (sub_configs text_config: Qwen2Config)",
};
static const pe__family video_llava = {
    .model_type = "video_llava", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "video_llava/configuration_video_llava.py (text_config default "
              "CONFIG_MAPPING[\"llama\"])",
};
/* VideoLlama3Config: a text_config dict must name its model_type (HF
 * indexes CONFIG_MAPPING with it); the class's own default is Qwen2. */
static const pe__family video_llama_3 = {
    .model_type = "video_llama_3", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "video_llama_3/configuration_video_llama_3.py (text_config None: "
              "CONFIG_MAPPING[\"qwen2\"]())",
};
static const pe__family deepseek_vl = {
    .model_type = "deepseek_vl", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "deepseek_vl/configuration_deepseek_vl.py (text_config model_type default "
              "\"llama\")",
};
static const pe__family deepseek_vl_hybrid = {
    .model_type = "deepseek_vl_hybrid", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "deepseek_vl_hybrid/configuration_deepseek_vl_hybrid.py (text_config model_type "
              "default \"llama\")",
};
static const pe__family got_ocr2 = {
    .model_type = "got_ocr2", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "got_ocr2/configuration_got_ocr2.py (text_config model_type default \"qwen2\")",
};
/* "granitevision" maps to LlavaNextConfig (configuration_auto.py). */
static const pe__family granitevision = {
    .model_type = "granitevision", .position = PE_POSITION_ROPE, .text_family = "llama",
    .source = "auto/configuration_auto.py (\"granitevision\": LlavaNextConfig), "
              "llava_next/configuration_llava_next.py (text_config model_type default \"llama\")",
};
static const pe__family fast_vlm = {
    .model_type = "fast_vlm", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "fast_vlm/configuration_fast_vlm.py (text_config model_type default \"qwen2\")",
};
static const pe__family lighton_ocr = {
    .model_type = "lighton_ocr", .position = PE_POSITION_ROPE, .text_family = "qwen3",
    .source = "lighton_ocr/configuration_lighton_ocr.py (text_config model_type default "
              "\"qwen3\")",
};
static const pe__family audioflamingo3 = {
    .model_type = "audioflamingo3", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "audioflamingo3/configuration_audioflamingo3.py (text_config model_type default "
              "\"qwen2\")",
};
static const pe__family vibevoice_asr = {
    .model_type = "vibevoice_asr", .position = PE_POSITION_ROPE, .text_family = "qwen2",
    .source = "vibevoice_asr/configuration_vibevoice_asr.py (text_config model_type default "
              "\"qwen2\")",
};
/* ColPaliConfig: text_config (else vlm_config.text_config) with model_type
 * default "gemma". */
static const pe__family colpali = {
    .model_type = "colpali", .position = PE_POSITION_ROPE, .text_family = "gemma",
    .source = "colpali/configuration_colpali.py (text_config model_type default \"gemma\")",
};
/* BLIP-2 / InstructBLIP(Video): the language model is OPT unless
 * text_config names another (Flan-T5 checkpoints name "t5"). */
static const pe__family blip_2 = {
    .model_type = "blip-2", .position = PE_POSITION_LEARNED, .text_family = "opt",
    .source = "blip_2/configuration_blip_2.py (text_config model_type default \"opt\")",
};
static const pe__family instructblip = {
    .model_type = "instructblip", .position = PE_POSITION_LEARNED, .text_family = "opt",
    .source = "instructblip/configuration_instructblip.py (text_config model_type default "
              "\"opt\")",
};
static const pe__family instructblipvideo = {
    .model_type = "instructblipvideo", .position = PE_POSITION_LEARNED, .text_family = "opt",
    .source = "instructblipvideo/configuration_instructblipvideo.py (text_config model_type "
              "default \"opt\")",
};

/* AriaTextConfig: max_position_embeddings 2048, head_dim None, no
 * default_theta; AriaTextAttention is Llama's. */
static const pe__family aria_text = {
    .model_type = "aria_text", .position = PE_POSITION_ROPE,
    .source = "aria/configuration_aria.py (AriaTextConfig: max_position_embeddings: int = 2048, "
              "head_dim None, no default_theta), modeling_aria.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};

/* Gemma4Config: text_config = Gemma4TextConfig(**text_config). */
static const pe__family gemma4 = {
    .model_type = "gemma4", .position = PE_POSITION_ROPE, .text_family = "gemma4_text",
    .source = "gemma4/configuration_gemma4.py at 008e57439125 (Gemma4Config.__post_init__: "
              "text_config = Gemma4TextConfig(**text_config))",
};

/* Kimi_K25Config: text_config model_type default "deepseek_v3" ("kimi_k2"
 * is read as deepseek_v3 too). */
static const pe__family kimi_k25 = {
    .model_type = "kimi_k25", .position = PE_POSITION_ROPE, .text_family = "deepseek_v3",
    .source = "kimi_k25/configuration_kimi_k25.py at 059101b2faba (text_config model_type default "
              "\"deepseek_v3\"; \"kimi_k2\" mapped to \"deepseek_v3\")",
};

/* Wrappers whose class merges its own defaults into text_config
 * ({**_default_text_config_kwargs, **text_config}). */
static const pe__class_defaults voxtral_text_defaults = {
    .rope_theta = 100000000.0, .max_position = 131072, .head_dim = 128, .layers = 30,
    .hidden = 3072};
static const pe__family voxtral = {
    .model_type = "voxtral", .position = PE_POSITION_ROPE, .text_family = "llama",
    .text_defaults = &voxtral_text_defaults,
    .source = "voxtral/configuration_voxtral.py (text_config model_type default \"llama\", "
              "_default_text_config_kwargs: max_position_embeddings 131072, rope_theta "
              "100000000.0, head_dim 128, num_hidden_layers 30, hidden_size 3072)",
};
static const pe__class_defaults glmasr_text_defaults = {
    .rope_theta = 10000.0, .max_position = 8192, .layers = 28, .hidden = 2048, .heads = 16};
static const pe__family glmasr = {
    .model_type = "glmasr", .position = PE_POSITION_ROPE, .text_family = "llama",
    .text_defaults = &glmasr_text_defaults,
    .source = "glmasr/configuration_glmasr.py (text_config model_type default \"llama\", "
              "_default_text_config_kwargs: max_position_embeddings 8192, rope_parameters "
              "{rope_theta 10000.0, default}, num_hidden_layers 28, hidden_size 2048, "
              "num_attention_heads 16)",
};
static const pe__class_defaults voxtral_realtime_text_defaults = {
    .rope_theta = 1000000.0, .max_position = 131072, .head_dim = 128, .layers = 26,
    .hidden = 3072, .heads = 32};
static const pe__family voxtral_realtime = {
    .model_type = "voxtral_realtime", .position = PE_POSITION_ROPE,
    .text_family = "voxtral_realtime_text", .text_defaults = &voxtral_realtime_text_defaults,
    .source = "voxtral_realtime/configuration_voxtral_realtime.py (text_config model_type "
              "default \"voxtral_realtime_text\", _default_text_config_kwargs: "
              "max_position_embeddings 131072, rope_theta 1000000.0, head_dim 128, "
              "sliding_window 8192, num_hidden_layers 26, hidden_size 3072, "
              "num_attention_heads 32)",
};
/* VoxtralRealtimeTextConfig(MistralConfig): Mistral's defaults. */
static const pe__family voxtral_realtime_text = {
    .model_type = "voxtral_realtime_text", .position = PE_POSITION_ROPE,
    .source = "voxtral_realtime/configuration_voxtral_realtime.py (VoxtralRealtimeTextConfig("
              "MistralConfig)), mistral/configuration_mistral.py (max_position_embeddings 4096 * "
              "32, no default_theta), modeling_voxtral_realtime.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};

/* ------------------------------------------------------------------ *
 * Decoder LMs with RoPE on every layer.
 * ------------------------------------------------------------------ */

/* "code_llama" maps to LlamaConfig (configuration_auto.py). */
static const pe__family code_llama = {
    .model_type = "code_llama", .position = PE_POSITION_ROPE,
    .source = "auto/configuration_auto.py (\"code_llama\": LlamaConfig), "
              "llama/configuration_llama.py (max_position_embeddings 2048, no default_theta)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* ApertusConfig: default_theta 12e6, max_position_embeddings 65536, and a
 * class-default llama3 rope_parameters block. */
static const pe__family apertus = {
    .model_type = "apertus", .position = PE_POSITION_ROPE,
    .source = "apertus/configuration_apertus.py (default_theta = 12000000.0, "
              "max_position_embeddings: int = 65536, rope_parameters default {rope_type llama3, "
              "rope_theta 12000000.0, factor 8.0, original_max_position_embeddings 8192, "
              "low_freq_factor 1.0, high_freq_factor 4.0}), modeling_apertus.py (rotate_half)",
    .defaults = {.rope_theta = 12000000.0, .max_position = 65536,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .default_block = "{\"rope_type\":\"llama3\",\"rope_theta\":12000000.0,\"factor\":8.0,"
                     "\"original_max_position_embeddings\":8192,\"low_freq_factor\":1.0,"
                     "\"high_freq_factor\":4.0}",
};
/* CwmConfig: llama3 default block (theta 1e6, factor 16), head_dim 128,
 * layer_types full_attention where i % 4 == 0, else sliding_attention. */
static const pe__family cwm = {
    .model_type = "cwm", .position = PE_POSITION_ROPE,
    .source = "cwm/configuration_cwm.py (default_theta = 1_000_000.0, max_position_embeddings: "
              "int = 131072, head_dim: int = 128, rope_parameters default {rope_theta 1e6, factor "
              "16.0, high_freq_factor 4.0, low_freq_factor 1.0, original_max_position_embeddings "
              "8192, rope_type llama3}, layer_types: full_attention if i % 4 == 0 else "
              "sliding_attention), modeling_cwm.py (rotate_half on every layer)",
    .defaults = {.rope_theta = 1e6, .max_position = 131072, .head_dim = 128,
                 .layers = 64, .hidden = 6144, .heads = 48},
    .pairs = HALF_PAIRS,
    .default_block = "{\"rope_type\":\"llama3\",\"rope_theta\":1000000.0,\"factor\":16.0,"
                     "\"original_max_position_embeddings\":8192,\"low_freq_factor\":1.0,"
                     "\"high_freq_factor\":4.0}",
    .layers = PE__LAYERS_CYCLE,
    .cycle = (const char *const[]){"full_attention", "sliding_attention", "sliding_attention",
                                   "sliding_attention", NULL},
};
/* Dots1Config: max_position_embeddings 2048, no default_theta,
 * sliding_window 4096, max_window_layers 62. */
static const pe__family dots1 = {
    .model_type = "dots1", .position = PE_POSITION_ROPE,
    .source = "dots1/configuration_dots1.py (max_position_embeddings: int = 2048, no "
              "default_theta, sliding_window 4096, max_window_layers 62, layer_types: "
              "sliding_attention if sliding_window is not None and i >= max_window_layers), "
              "modeling_dots1.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048, .offset = 62, .window = 4096,
                 .layers = 62, .hidden = 4608, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_MAX_WINDOW,
};
/* VaultGemmaConfig: head_dim 256, max_position_embeddings 8192,
 * sliding_attention where (i + 1) % 2 (even layers). */
static const pe__family vaultgemma = {
    .model_type = "vaultgemma", .position = PE_POSITION_ROPE,
    .source = "vaultgemma/configuration_vaultgemma.py (head_dim: int = 256, "
              "max_position_embeddings: int = 8192, no default_theta, layer_types: "
              "sliding_attention if (i + 1) % 2 else full_attention), modeling_vaultgemma.py "
              "(rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192, .head_dim = 256,
                 .layers = 26, .hidden = 2304, .heads = 8},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ALTERNATE,
};
static const pe__family flex_olmo = {
    .model_type = "flex_olmo", .position = PE_POSITION_ROPE,
    .source = "flex_olmo/configuration_flex_olmo.py (default_theta = 500000.0, "
              "max_position_embeddings: int = 4096), modeling_flex_olmo.py (rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 4096,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* DiffLlama: differential attention over two halves of the value heads;
 * queries and keys are rotated whole with Llama's RoPE. */
static const pe__family diffllama = {
    .model_type = "diffllama", .position = PE_POSITION_ROPE,
    .source = "diffllama/configuration_diffllama.py (max_position_embeddings: int = 2048, "
              "head_dim None, no default_theta), modeling_diffllama.py (apply_rotary_pos_emb "
              "on q, k; rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 16, .hidden = 2048, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family jais2 = {
    .model_type = "jais2", .position = PE_POSITION_ROPE,
    .source = "jais2/configuration_jais2.py (max_position_embeddings: int = 8192, head_dim None, "
              "no default_theta), modeling_jais2.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192,
                 .layers = 32, .hidden = 3328, .heads = 26},
    .pairs = HALF_PAIRS,
};
/* JetMoeConfig: attribute_map head_dim -> kv_channels (default 128). */
static const pe__family jetmoe = {
    .model_type = "jetmoe", .position = PE_POSITION_ROPE,
    .source = "jetmoe/configuration_jetmoe.py (attribute_map {\"head_dim\": \"kv_channels\"}, "
              "kv_channels: int = 128, max_position_embeddings: int = 4096, no default_theta), "
              "modeling_jetmoe.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096, .head_dim = 128,
                 .layers = 12, .hidden = 2048},
    .pairs = HALF_PAIRS,
    .head_dim_key = "kv_channels",
};
/* AfmoeConfig: sliding_attention unless (i + 1) % global_attn_every_n_layers
 * (default 4) == 0; AfmoeAttention rotates only when is_local_attention
 * (the sliding layers): its global layers are NoPE. */
static const pe__family afmoe = {
    .model_type = "afmoe", .position = PE_POSITION_ROPE,
    .source = "afmoe/configuration_afmoe.py (head_dim 128, max_position_embeddings: int = 16384, "
              "no default_theta, global_attn_every_n_layers 4, layer_types: sliding_attention if "
              "(i + 1) % global_attn_every_n_layers else full_attention), modeling_afmoe.py "
              "(apply_rotary_pos_emb only if self.is_local_attention)",
    .defaults = {.rope_theta = 10000.0, .max_position = 16384, .head_dim = 128, .pattern = 4,
                 .layers = 32, .hidden = 2048, .heads = 16},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .pattern_key = "global_attn_every_n_layers",
    .full = PE__FULL_NOPE,
};

/* ------------------------------------------------ learned positions */

/* OpenAIGPTConfig: n_positions 512, n_embd 768, n_layer 12, n_head 12;
 * positions_embed = nn.Embedding(n_positions, n_embd), positions from 0. */
static const pe__family openai_gpt = {
    .model_type = "openai-gpt", .position = PE_POSITION_LEARNED,
    .source = "openai/configuration_openai.py (n_positions 512, n_embd 768, n_layer 12, n_head "
              "12), modeling_openai.py (positions_embed, position_ids arange from 0)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "n_positions", .rows_default = 512},
};
/* "gpt-sw3" maps to GPT2Config: GPT-2's table (n_positions 1024). */
static const pe__family gpt_sw3 = {
    .model_type = "gpt-sw3", .position = PE_POSITION_LEARNED,
    .source = "auto/configuration_auto.py (\"gpt-sw3\": GPT2Config), gpt2/configuration_gpt2.py "
              "(n_positions 1024, n_embd 768, n_layer 12, n_head 12), modeling_gpt2.py (wpe)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "n_positions", .rows_default = 1024},
};

/* ------------------------------------------- state-space / recurrent */

static const pe__family mamba2 = {
    .model_type = "mamba2", .position = PE_POSITION_NONE,
    .source = "mamba2/configuration_mamba2.py (num_hidden_layers: int = 64, hidden_size: int = "
              "4096), modeling_mamba2.py (Mamba2Mixer: no attention)",
    .defaults = {.layers = 64, .hidden = 4096},
    .none_types = (const char *const[]){"mamba2", NULL},
};

/* ------------------------------------------------------------------ *
 * Vision / omni language models with M-RoPE (text positions: the three
 * position rows are equal, so the sections do not change a text plan;
 * mrope_section is read from the file's block as for Qwen2-VL).
 * ------------------------------------------------------------------ */

/* Glm4vTextConfig: max_position_embeddings 32768, no default_theta, no
 * partial default (compute_default_rope_parameters: 1.0); modeling_glm4v.py
 * apply_rotary_pos_emb: cos[..., :half].repeat_interleave(2) with
 * rotate_half_llm (x[0::2], x[1::2]): interleaved pairs. */
static const pe__family glm4v_text = {
    .model_type = "glm4v_text", .position = PE_POSITION_ROPE,
    .source = "glm4v/configuration_glm4v.py (Glm4vTextConfig: max_position_embeddings: int = "
              "32768, no default_theta), modeling_glm4v.py (partial_rotary_factor default 1.0, "
              "mrope_section default [8, 12, 12], apply_rotary_pos_emb: repeat_interleave(2) + "
              "rotate_half_llm)",
    .defaults = {.rope_theta = 10000.0, .max_position = 32768,
                 .layers = 40, .hidden = 4096, .heads = 32},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family glm4v = {
    .model_type = "glm4v", .position = PE_POSITION_ROPE, .text_family = "glm4v_text",
    .source = "glm4v/configuration_glm4v.py (sub_configs text_config: Glm4vTextConfig)",
};
static const pe__family glm46v = {
    .model_type = "glm46v", .position = PE_POSITION_ROPE, .text_family = "glm4v_text",
    .source = "glm46v/configuration_glm46v.py (text_config model_type default \"glm4v_text\")",
};
/* Glm4vMoeTextConfig: 65536, partial_rotary_factor setdefault 0.5;
 * modeling_glm4v_moe.py: rotate_half on the first rotary_dim (half-split). */
static const pe__family glm4v_moe_text = {
    .model_type = "glm4v_moe_text", .position = PE_POSITION_ROPE,
    .source = "glm4v_moe/configuration_glm4v_moe.py (Glm4vMoeTextConfig: max_position_embeddings: "
              "int = 65536, kwargs.setdefault(\"partial_rotary_factor\", 0.5), no default_theta), "
              "modeling_glm4v_moe.py (apply_rotary_pos_emb: rotate_half(q_rot))",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 65536,
                 .layers = 46, .hidden = 4096, .heads = 96},
    .pairs = HALF_PAIRS,
};
static const pe__family glm4v_moe = {
    .model_type = "glm4v_moe", .position = PE_POSITION_ROPE, .text_family = "glm4v_moe_text",
    .source = "glm4v_moe/configuration_glm4v_moe.py (sub_configs text_config: Glm4vMoeTextConfig)",
};
static const pe__family glm_ocr_text = {
    .model_type = "glm_ocr_text", .position = PE_POSITION_ROPE,
    .source = "glm_ocr/configuration_glm_ocr.py (GlmOcrTextConfig: max_position_embeddings: int = "
              "131072, no default_theta), modeling_glm_ocr.py (repeat_interleave(2) + "
              "rotate_half_llm: interleaved pairs)",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072,
                 .layers = 16, .hidden = 1024, .heads = 16},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family glm_ocr = {
    .model_type = "glm_ocr", .position = PE_POSITION_ROPE, .text_family = "glm_ocr_text",
    .source = "glm_ocr/configuration_glm_ocr.py (sub_configs text_config: GlmOcrTextConfig)",
};
static const pe__family glm_image_text = {
    .model_type = "glm_image_text", .position = PE_POSITION_ROPE,
    .source = "glm_image/configuration_glm_image.py (GlmImageTextConfig: max_position_embeddings: "
              "int = 131072, no default_theta), modeling_glm_image.py (rotate_half(q_rot))",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072,
                 .layers = 40, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family glm_image = {
    .model_type = "glm_image", .position = PE_POSITION_ROPE, .text_family = "glm_image_text",
    .source = "glm_image/configuration_glm_image.py (sub_configs text_config: GlmImageTextConfig)",
};
/* PaddleOCRTextConfig: default_theta 500000, head_dim 128, 131072;
 * Qwen2-VL's apply_multimodal_rotary_pos_emb (rotate_half). */
static const pe__family paddleocr_vl_text = {
    .model_type = "paddleocr_vl_text", .position = PE_POSITION_ROPE,
    .source = "paddleocr_vl/configuration_paddleocr_vl.py (PaddleOCRTextConfig: default_theta = "
              "500000.0, max_position_embeddings: int = 131072, head_dim: int | None = 128), "
              "modeling_paddleocr_vl.py (apply_multimodal_rotary_pos_emb: rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 131072, .head_dim = 128,
                 .layers = 18, .hidden = 1024, .heads = 16},
    .pairs = HALF_PAIRS,
};
static const pe__family paddleocr_vl = {
    .model_type = "paddleocr_vl", .position = PE_POSITION_ROPE, .text_family = "paddleocr_vl_text",
    .source = "paddleocr_vl/configuration_paddleocr_vl.py (sub_configs text_config: "
              "PaddleOCRTextConfig)",
};
/* Ernie4_5_VLMoeTextConfig: default_theta 500000, 131072; rotate_half_text
 * pairs x[0::2], x[1::2] (ERNIE 4.5's interleaved layout). */
static const pe__family ernie4_5_vl_moe_text = {
    .model_type = "ernie4_5_vl_moe_text", .position = PE_POSITION_ROPE,
    .source = "ernie4_5_vl_moe/configuration_ernie4_5_vl_moe.py (Ernie4_5_VLMoeTextConfig: "
              "default_theta = 500000.0, max_position_embeddings: int = 131072), "
              "modeling_ernie4_5_vl_moe.py (rotate_half_text: x[..., 0::2], x[..., 1::2])",
    .defaults = {.rope_theta = 500000.0, .max_position = 131072,
                 .layers = 28, .hidden = 2560, .heads = 20},
    .pairs = INTERLEAVED_PAIRS,
};
static const pe__family ernie4_5_vl_moe = {
    .model_type = "ernie4_5_vl_moe", .position = PE_POSITION_ROPE,
    .text_family = "ernie4_5_vl_moe_text",
    .source = "ernie4_5_vl_moe/configuration_ernie4_5_vl_moe.py (sub_configs text_config: "
              "Ernie4_5_VLMoeTextConfig)",
};
/* Qwen2.5-Omni / Qwen3-Omni: the thinker's text model (thinker_config.
 * text_config) is the decoder posenc plans. */
static const pe__family qwen2_5_omni_text = {
    .model_type = "qwen2_5_omni_text", .position = PE_POSITION_ROPE,
    .source = "qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniTextConfig: default_theta = "
              "1000000.0, max_position_embeddings: int = 32768, use_sliding_window False), "
              "modeling_qwen2_5_omni.py (apply_multimodal_rotary_pos_emb: rotate_half)",
    .defaults = {.rope_theta = 1e6, .max_position = 32768,
                 .layers = 28, .hidden = 3584, .heads = 28},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_QWEN_WINDOW,
};
static const pe__family qwen2_5_omni = {
    .model_type = "qwen2_5_omni", .position = PE_POSITION_ROPE, .text_family = "qwen2_5_omni_text",
    .source = "qwen2_5_omni/configuration_qwen2_5_omni.py (thinker_config.text_config: "
              "Qwen2_5OmniTextConfig)",
};
static const pe__family qwen3_omni_moe_text = {
    .model_type = "qwen3_omni_moe_text", .position = PE_POSITION_ROPE,
    .source = "qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeTextConfig: "
              "default_theta = 1000000.0, max_position_embeddings: int = 32768), "
              "modeling_qwen3_omni_moe.py (apply_interleaved_mrope; rotate_half)",
    .defaults = {.rope_theta = 1e6, .max_position = 32768,
                 .layers = 28, .hidden = 2048, .heads = 28},
    .pairs = HALF_PAIRS,
};
static const pe__family qwen3_omni_moe = {
    .model_type = "qwen3_omni_moe", .position = PE_POSITION_ROPE,
    .text_family = "qwen3_omni_moe_text",
    .source = "qwen3_omni_moe/configuration_qwen3_omni_moe.py (thinker_config.text_config: "
              "Qwen3OmniMoeTextConfig)",
};
/* The thinker configs themselves (CONFIG_MAPPING keys of their own): their
 * text_config is the decoder. */
static const pe__family qwen2_5_omni_thinker = {
    .model_type = "qwen2_5_omni_thinker", .position = PE_POSITION_ROPE,
    .text_family = "qwen2_5_omni_text",
    .source = "qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniThinkerConfig sub_configs "
              "text_config: Qwen2_5OmniTextConfig)",
};
static const pe__family qwen3_omni_moe_thinker = {
    .model_type = "qwen3_omni_moe_thinker", .position = PE_POSITION_ROPE,
    .text_family = "qwen3_omni_moe_text",
    .source = "qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeThinkerConfig "
              "sub_configs text_config: Qwen3OmniMoeTextConfig)",
};
/* Emu3 / Chameleon: token-level image+text LMs with Llama's RoPE. */
static const pe__family emu3_text_model = {
    .model_type = "emu3_text_model", .position = PE_POSITION_ROPE,
    .source = "emu3/configuration_emu3.py (Emu3TextConfig: default_theta = 1000000.0, "
              "max_position_embeddings: int = 9216), modeling_emu3.py (rotate_half)",
    .defaults = {.rope_theta = 1e6, .max_position = 9216,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family emu3 = {
    .model_type = "emu3", .position = PE_POSITION_ROPE, .text_family = "emu3_text_model",
    .source = "emu3/configuration_emu3.py (sub_configs text_config: Emu3TextConfig)",
};
static const pe__family chameleon = {
    .model_type = "chameleon", .position = PE_POSITION_ROPE,
    .source = "chameleon/configuration_chameleon.py (max_position_embeddings: int = 4096, no "
              "default_theta), modeling_chameleon.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};

/* ------------------------------------------------------------------ *
 * Hybrids: attention layers beside state-space / convolution / linear
 * attention layers, which see no positions.
 * ------------------------------------------------------------------ */

/* BambaConfig: layers_block_type "attention" if i in attn_layer_indices
 * else "mamba"; partial_rotary_factor hard-coded 0.5; 262144. */
static const pe__family bamba = {
    .model_type = "bamba", .position = PE_POSITION_ROPE,
    .source = "bamba/configuration_bamba.py (max_position_embeddings: int = 262144, no "
              "default_theta, kwargs[\"partial_rotary_factor\"] = 0.5, layers_block_type: "
              "attention if i in attn_layer_indices else mamba), modeling_bamba.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .partial_rotary = 0.5, .max_position = 262144,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ATTN_LIST,
    .index_key = "attn_layer_indices",
    .partial_forced = true,
    .ignored = {{.key = "partial_rotary_factor", .used = 0.5,
                 .why = "BambaConfig sets partial_rotary_factor = 0.5 whatever the file says"}},
};
/* ZambaConfig: mamba, mamba, hybrid, then hybrid where (i - 3) %
 * attn_layer_period (6) == attn_layer_offset (4); ZambaAttention has no
 * rotary (the hybrid layers' shared attention is NoPE). */
static const pe__family zamba = {
    .model_type = "zamba", .position = PE_POSITION_NOPE,
    .source = "zamba/configuration_zamba.py (attn_layer_period: int = 6, attn_layer_offset: int = 4, "
              "num_hidden_layers: int = 76, _layers_block_type), modeling_zamba.py "
              "(ZambaAttention: no rotary)",
    .defaults = {.period = 6, .offset = 4, .layers = 76, .hidden = 3712, .heads = 16},
    .layers = PE__LAYERS_ZAMBA,
};
/* Zamba2Config: layers_block_type lists "mamba" / "hybrid"; the hybrid
 * layers' shared attention rotates only when use_mem_rope (default False),
 * at head_dim = attention_head_dim (attribute_map). */
static const pe__family zamba2 = {
    .model_type = "zamba2", .position = PE_POSITION_NOPE,
    .source = "zamba2/configuration_zamba2.py (attribute_map {\"head_dim\": "
              "\"attention_head_dim\"}, max_position_embeddings: int = 4096, use_mem_rope False, "
              "layers_block_type), modeling_zamba2.py (apply_rotary_pos_emb only if "
              "config.use_mem_rope)",
    .kind_switch = {.key = "use_mem_rope", .default_value = false, .when_true = PE_POSITION_ROPE},
    .defaults = {.rope_theta = 10000.0, .max_position = 4096,
                 .layers = 54, .hidden = 2560, .heads = 32},
    .pairs = HALF_PAIRS,
    .types_key = "layers_block_type",
    .head_dim_key = "attention_head_dim",
    /* __post_init__: attention_head_dim = 2 * hidden_size // num_attention_heads (the
     * attention runs on attention_hidden_size = 2 * hidden_size) */
    .head_width_factor = 2,
};
/* NemotronHConfig: layers_block_type, else hybrid_override_pattern (M
 * mamba, * attention, E moe; "-" mlp in the earlier releases' map), else
 * [mamba, moe, attention, moe]; NemotronHAttention has no rotary. */
static const pe__family nemotron_h = {
    .model_type = "nemotron_h", .position = PE_POSITION_NOPE,
    .source = "nemotron_h/configuration_nemotron_h.py (layers_block_type, hybrid_override_pattern "
              "via _pattern_to_list {M: mamba, E: moe, *: attention}, default [mamba, moe, "
              "attention, moe], head_dim 128, max_position_embeddings 4096), "
              "modeling_nemotron_h.py (NemotronHAttention: no rotary_emb)",
    /* no num_hidden_layers default: the count is the layer list's length
     * (pe__plan_group_layer_count) */
    .defaults = {.head_dim = 128, .hidden = 4096, .heads = 32},
    .layers = PE__LAYERS_HYBRID_PATTERN,
    .types_key = "layers_block_type",
    .cycle = (const char *const[]){"mamba", "moe", "attention", "moe", NULL},
    .none_types = (const char *const[]){"mlp", "moe", NULL},
};
/* OlmoHybridConfig: linear_attention except every 4th layer (i % 4 == 3)
 * full_attention; 65536. */
static const pe__family olmo_hybrid = {
    .model_type = "olmo_hybrid", .position = PE_POSITION_ROPE,
    .source = "olmo_hybrid/configuration_olmo_hybrid.py (max_position_embeddings: int = 65536, "
              "no default_theta, layer_types: full_attention if i % 4 == 3 else "
              "linear_attention), modeling_olmo_hybrid.py (rotate_half; rotary_emb only when "
              "rope_parameters has a rope_theta)",
    .defaults = {.rope_theta = 10000.0, .max_position = 65536, .pattern = 4,
                 .layers = 32, .hidden = 3840, .heads = 30},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_LINEAR_INTERVAL,
};
/* Lfm2MoeConfig: layer_types ("conv" / "full_attention"), default_theta
 * 1e6, 128000. */
static const pe__family lfm2_moe = {
    .model_type = "lfm2_moe", .position = PE_POSITION_ROPE,
    .source = "lfm2_moe/configuration_lfm2_moe.py (default_theta = 1000000.0, "
              "max_position_embeddings: int = 128_000, layer_types), modeling_lfm2_moe.py "
              "(conv layers: no positions; rotate_half)",
    .defaults = {.rope_theta = 1e6, .max_position = 128000,
                 .layers = 32, .hidden = 2048, .heads = 32},
    .pairs = HALF_PAIRS,
    .none_types = (const char *const[]){"conv", NULL},
};
/* ExaoneMoeConfig: EXAONE 4's rule (global NoPE when a window is set;
 * sliding_window default 4096, pattern 4). */
static const pe__family exaone_moe = {
    .model_type = "exaone_moe", .position = PE_POSITION_ROPE,
    .source = "exaone_moe/configuration_exaone_moe.py (max_position_embeddings: int = 2048, "
              "sliding_window: int = 4096, sliding_window_pattern 4), modeling_exaone_moe.py "
              "(apply_rotary_pos_emb only if sliding_window is None or is_sliding)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048, .pattern = 4, .window = 4096,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_PATTERN,
    .full = PE__FULL_NOPE_IF_WINDOW,
};
static const pe__family xlstm = {
    .model_type = "xlstm", .position = PE_POSITION_NONE,
    .source = "xlstm/configuration_xlstm.py (num_hidden_layers: int = 32, hidden_size: int = "
              "4096), modeling_xlstm.py (mLSTM blocks: no attention)",
    .defaults = {.layers = 32, .hidden = 4096},
    .none_types = (const char *const[]){"mlstm", NULL},
};

/* ------------------------------------------------------------------ *
 * More decoder LMs.
 * ------------------------------------------------------------------ */

static const pe__family doge = {
    .model_type = "doge", .position = PE_POSITION_ROPE,
    .source = "doge/configuration_doge.py (max_position_embeddings: int = 2048, no "
              "default_theta), modeling_doge.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 1024, .heads = 8},
    .pairs = HALF_PAIRS,
};
static const pe__family minimax_m2 = {
    .model_type = "minimax_m2", .position = PE_POSITION_ROPE,
    .source = "minimax_m2/configuration_minimax_m2.py (default_theta = 5000000.0, head_dim: int = "
              "128, max_position_embeddings: int = 196608), modeling_minimax_m2.py "
              "(partial_rotary_factor default 1.0; rotate_half on q[..., :rotary_dim])",
    .defaults = {.rope_theta = 5e6, .max_position = 196608, .head_dim = 128,
                 .layers = 62, .hidden = 3072, .heads = 48},
    .pairs = HALF_PAIRS,
};
/* SolarOpenConfig: kwargs.setdefault("partial_rotary_factor", 1.0) comes
 * first, so the class default is 1.0. */
static const pe__family solar_open = {
    .model_type = "solar_open", .position = PE_POSITION_ROPE,
    .source = "solar_open/configuration_solar_open.py (default_theta = 1_000_000.0, head_dim: int "
              "= 128, max_position_embeddings: int = 131072, partial_rotary_factor setdefault "
              "1.0 first), modeling_solar_open.py (rotate_half)",
    .defaults = {.rope_theta = 1e6, .max_position = 131072, .head_dim = 128,
                 .layers = 48, .hidden = 4096, .heads = 64},
    .pairs = HALF_PAIRS,
};
static const pe__family higgs_audio_v2 = {
    .model_type = "higgs_audio_v2", .position = PE_POSITION_ROPE,
    .source = "higgs_audio_v2/configuration_higgs_audio_v2.py (max_position_embeddings: int = 2048, "
              "head_dim: int | None = 128, no default_theta), modeling_higgs_audio_v2.py "
              "(rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048, .head_dim = 128,
                 .layers = 28, .hidden = 3072, .heads = 24},
    .pairs = HALF_PAIRS,
};
/* Phi4MultimodalConfig: Phi-3's text model (LongRoPE from the file),
 * 131072, partial_rotary_factor default 1.0. */
static const pe__family phi4_multimodal = {
    .model_type = "phi4_multimodal", .position = PE_POSITION_ROPE,
    .source = "phi4_multimodal/configuration_phi4_multimodal.py (max_position_embeddings: int = "
              "131072, original_max_position_embeddings 4096, default_theta 10_000.0, "
              "partial_rotary_factor default 1.0), modeling_phi4_multimodal.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072,
                 .layers = 32, .hidden = 3072, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family evolla = {
    .model_type = "evolla", .position = PE_POSITION_ROPE,
    .source = "evolla/configuration_evolla.py (EvollaConfig: default_theta = 500000.0, "
              "max_position_embeddings: int = 8192), modeling_evolla.py (Llama's rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 8192,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* EvollaConfig.model_type is "EvollaModel" (the registry key is "evolla"):
 * files the class writes carry that name. */
static const pe__family evolla_model = {
    .model_type = "EvollaModel", .position = PE_POSITION_ROPE,
    .source = "evolla/configuration_evolla.py (model_type = \"EvollaModel\", default_theta = "
              "500000.0, max_position_embeddings: int = 8192)",
    .defaults = {.rope_theta = 500000.0, .max_position = 8192,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* CsmConfig (the backbone over audio frames): default_theta 500000, 2048. */
static const pe__family csm = {
    .model_type = "csm", .position = PE_POSITION_ROPE,
    .source = "csm/configuration_csm.py (CsmConfig: default_theta = 500000.0, "
              "max_position_embeddings: int = 2048), modeling_csm.py (rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 2048,
                 .layers = 16, .hidden = 2048, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* CsmDepthDecoderConfig: default_theta 500000, max_position_embeddings 33
 * (one position per codebook); CsmDepthDecoderModel has its rotary_emb. */
static const pe__family csm_depth_decoder_model = {
    .model_type = "csm_depth_decoder_model", .position = PE_POSITION_ROPE,
    .source = "csm/configuration_csm.py (CsmDepthDecoderConfig: default_theta = 500000.0, "
              "max_position_embeddings: int = 33), modeling_csm.py (CsmDepthDecoderModel: "
              "CsmRotaryEmbedding, rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 33,
                 .layers = 4, .hidden = 1024, .heads = 8},
    .pairs = HALF_PAIRS,
};
/* Moshi's temporal transformer / Kyutai STT: Llama's RoPE over frames. */
static const pe__family moshi = {
    .model_type = "moshi", .position = PE_POSITION_ROPE,
    .source = "moshi/configuration_moshi.py (MoshiConfig: max_position_embeddings: int = 3000, no "
              "default_theta), modeling_moshi.py (rotate_half; the depth decoder has no rotary)",
    .defaults = {.rope_theta = 10000.0, .max_position = 3000,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
};
static const pe__family kyutai_speech_to_text = {
    .model_type = "kyutai_speech_to_text", .position = PE_POSITION_ROPE,
    .source = "kyutai_speech_to_text/configuration_kyutai_speech_to_text.py "
              "(max_position_embeddings: int = 750, no default_theta), "
              "modeling_kyutai_speech_to_text.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 750,
                 .layers = 48, .hidden = 2048, .heads = 32},
    .pairs = HALF_PAIRS,
};
/* IdeficsEmbedding(head_dim) is built with its own defaults (base 10000,
 * max_position_embeddings 2048) whatever the config says. */
static const pe__family idefics = {
    .model_type = "idefics", .position = PE_POSITION_ROPE,
    .source = "idefics/modeling_idefics.py (IdeficsEmbedding(dim, max_position_embeddings=2048, "
              "base=10000), self.rotary_emb = IdeficsEmbedding(self.head_dim); rotate_half; the "
              "gated cross-attention blocks are added beside the self-attention layers)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                 .layers = 32, .hidden = 4096, .heads = 32},
    .pairs = HALF_PAIRS,
    .ignored = {{.key = "rope_theta", .used = 10000.0,
                 .why = "IdeficsEmbedding is built with base 10000 whatever the config says"}},
};
/* MLA families (DeepSeek V3's attention): rope_interleave default True,
 * softmax_scale * mscale^2 for YaRN. */
static const pe__family youtu = {
    .model_type = "youtu", .position = PE_POSITION_ROPE,
    .source = "youtu/configuration_youtu.py (qk_rope_head_dim 64, max_position_embeddings: int = "
              "131072, rope_interleave: bool | None = True, no default_theta), modeling_youtu.py "
              "(mscale_all_dim softmax scaling)",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072, .head_dim = 64,
                 .layers = 32, .hidden = 2048, .heads = 16},
    .pairs = {.layout = PE_ROPE_HALF, .switch_key = "rope_interleave", .switch_default = true},
    .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
};
/* LongcatFlashConfig: default_theta 1e7, qk_rope_head_dim 64, 131072;
 * apply_rotary_pos_emb_interleave always; scaling * mscale * mscale. */
static const pe__family longcat_flash = {
    .model_type = "longcat_flash", .position = PE_POSITION_ROPE,
    .source = "longcat_flash/configuration_longcat_flash.py (default_theta = 10000000.0, "
              "qk_rope_head_dim: int = 64, max_position_embeddings: int = 131072), "
              "modeling_longcat_flash.py (apply_rotary_pos_emb_interleave; self.scaling * mscale "
              "* mscale)",
    .defaults = {.rope_theta = 1e7, .max_position = 131072, .head_dim = 64,
                 .layers = 56, .hidden = 6144, .heads = 64},
    .pairs = INTERLEAVED_PAIRS,
    .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
    /* LongcatFlashModel: num_hidden_layers = 2 * num_layers (two MLA blocks in each
     * decoder layer, cache layer_idx 2 * i + j); class default num_layers 28 */
    .layers_key = "num_layers", .layers_factor = 2,
};

/* ------------------------------------------- families posenc refuses */

static const pe__family mistral4 = {
    .model_type = "mistral4", .position = PE_POSITION_ROPE,
    .source = "mistral4/configuration_mistral4.py (rope_parameters default: yarn, factor 128, "
              "llama_4_scaling_beta 0.1, partial_rotary_factor qk_rope_head_dim / (qk_nope_head_dim "
              "+ qk_rope_head_dim); head_dim = qk_nope_head_dim + qk_rope_head_dim)",
    .refusal = "Mistral 4's MLA states its rotary part as a partial_rotary_factor of the whole "
               "query-key head (qk_nope_head_dim + qk_rope_head_dim) inside a YaRN block with "
               "llama_4_scaling_beta; posenc's MLA reading rotates qk_rope_head_dim and would "
               "apply the factor twice",
};
static const pe__family glm_moe_dsa = {
    .model_type = "glm_moe_dsa", .position = PE_POSITION_ROPE,
    .source = "glm_moe_dsa/modeling_glm_moe_dsa.py (GlmMoeDsaIndexer: its own RoPE on the indexer's "
              "q_pe / k_pe beside the MLA attention's)",
    .refusal = "every layer carries two rotated attentions, the MLA attention and the Dynamic "
               "Sparse Attention indexer that picks its keys; posenc plans one positional kind "
               "per layer",
};
static const pe__family deepseek_v32 = {
    .model_type = "deepseek_v32", .position = PE_POSITION_ROPE,
    .source = "deepseek_v32/configuration_deepseek_v32.py at e87bd54b036f (DeepseekV32Config: "
              "index_n_heads, index_head_dim, index_topk: the DSA Lightning Indexer beside MLA)",
    .refusal = "every layer carries two rotated attentions, the MLA attention and the DeepSeek "
               "Sparse Attention indexer that picks its keys; posenc plans one positional kind "
               "per layer",
};
static const pe__family kimi_linear = {
    .model_type = "kimi_linear", .position = PE_POSITION_ROPE,
    .source = "kimi_linear/configuration_kimi_linear.py at a43fab80c7bc (zucchini-nlp fork of "
              "transformers; layer_types from linear_attn_config full_attn_layers / kda_layers, "
              "1-indexed, else full_attention where i and i % 4 == 0)",
    .refusal = "Kimi Linear's layer kinds come from linear_attn_config's 1-indexed "
               "full_attn_layers / kda_layers lists, a rule posenc's registry does not have; its "
               "MLA layers' positions were not read here, so posenc does not guess them",
};
static const pe__family hunyuan_vl_text = {
    .model_type = "hunyuan_vl_text", .position = PE_POSITION_ROPE,
    .source = "hunyuan_vl/configuration_hunyuan_vl.py at 043bb8dde14a (HunYuanVLTextConfig: "
              "rope_type \"xdrope\" read as \"dynamic\", HunYuan alpha, mrope_section / "
              "xdrope_section over (position, width, height, image_index))",
    .refusal = "HunYuan-VL's XD-RoPE (rope_type 'xdrope', which transformers runs as 'dynamic' "
               "with the HunYuan alpha) splits each head over up to four position axes; posenc "
               "does not plan XD-RoPE",
};
static const pe__family hunyuan_vl = {
    .model_type = "hunyuan_vl", .position = PE_POSITION_ROPE,
    .source = "hunyuan_vl/configuration_hunyuan_vl.py at 043bb8dde14a (HunYuanVLConfig: text_config "
              "HunYuanVLTextConfig, or the text keys of a flat legacy checkpoint folded into it)",
    .refusal = "HunYuan-VL's text model runs XD-RoPE (rope_type 'xdrope', run as 'dynamic' with "
               "the HunYuan alpha) over up to four position axes, and legacy checkpoints keep its "
               "keys at the top level; posenc does not plan XD-RoPE",
};
static const pe__family cohere2_moe = {
    .model_type = "cohere2_moe", .position = PE_POSITION_ROPE,
    .source = "cohere2_moe/modular_cohere2_moe.py at 02606a5d08e4 (Cohere2MoeAttention: rotate "
              "if sliding_window is not None or force_rope; force_rope = mlp_layer_types[i] == "
              "\"dense\" and prefix_dense_sliding_window_pattern == 1), "
              "configuration_cohere2_moe.py at 008e57439125 (rope_theta 10000.0, head_dim 128, "
              "first_k_dense_replace prefix layer pattern)",
    .refusal = "Cohere 2 MoE also rotates its global layers when they are dense prefix layers "
               "(mlp_layer_types 'dense' with prefix_dense_sliding_window_pattern 1), and lays "
               "out the prefix with its own pattern; posenc has no rule keyed on the MLP kind",
};
static const pe__family granite_swa = {
    .model_type = "granite_swa", .position = PE_POSITION_ROPE,
    .source = "granite_swa/configuration_granite_swa.py at 1b27b6beddd8 (layer_rope_theta: a RoPE "
              "base per layer, 0 = NoPE; layer_types full_attention where i % 4 == 0)",
    .refusal = "Granite SWA gives each layer its own RoPE base (layer_rope_theta, 0 meaning "
               "NoPE); posenc reads one base per layer type",
};
static const pe__family granitemoe_swa = {
    .model_type = "granitemoe_swa", .position = PE_POSITION_ROPE,
    .source = "granitemoe_swa/configuration_granitemoe_swa.py (layer_rope_theta: a RoPE base per "
              "layer, 0 = NoPE; earlier versions: no_rope_layers)",
    .refusal = "Granite MoE SWA gives each layer its own RoPE base (layer_rope_theta, 0 meaning "
               "NoPE; earlier versions a no_rope_layers list); posenc reads one base per layer "
               "type",
};
static const pe__family blt = {
    .model_type = "blt", .position = PE_POSITION_ROPE,
    .source = "blt/configuration_blt.py (BltLocalEncoderConfig, BltGlobalTransformerConfig, "
              "BltLocalDecoderConfig, BltPatcherConfig: each default_theta 500000 with its own "
              "max_position_embeddings)",
    .refusal = "the Byte Latent Transformer runs four transformers (patcher, local encoder, "
               "global transformer over patches, local decoder), each with its own RoPE over "
               "bytes or patches; posenc plans one decoder stack",
};
static const pe__family kosmos_2 = {
    .model_type = "kosmos-2", .position = PE_POSITION_SINUSOIDAL,
    .source = "kosmos2/modeling_kosmos2.py (Kosmos2TextSinusoidalPositionalEmbedding, padding "
              "offset), configuration_kosmos2.py (Kosmos2TextConfig: embed_dim, layers, "
              "attention_heads)",
    .refusal = "Kosmos-2's text decoder adds fairseq sinusoidal positions sized by embed_dim and "
               "counts its layers in 'layers', keys posenc's sinusoidal reader does not read",
};
static const pe__family kosmos_2_5 = {
    .model_type = "kosmos-2.5", .position = PE_POSITION_SINUSOIDAL,
    .source = "kosmos2_5/modeling_kosmos2_5.py (Kosmos2_5TextSinusoidalPositionalEmbedding), "
              "configuration_kosmos2_5.py (Kosmos2_5TextConfig: embed_dim, layers)",
    .refusal = "Kosmos-2.5's text decoder adds fairseq sinusoidal positions sized by embed_dim and "
               "counts its layers in 'layers', keys posenc's sinusoidal reader does not read",
};
static const pe__family musicgen = {
    .model_type = "musicgen", .position = PE_POSITION_SINUSOIDAL,
    .source = "musicgen/modeling_musicgen.py (MusicgenSinusoidalPositionalEmbedding over codec "
              "frames; the text encoder is a T5 reached by cross-attention)",
    .refusal = "a decoder over audio-codec frames (sinusoidal positions) conditioned on a T5 "
               "text encoder by cross-attention; posenc plans text decoders",
};
static const pe__family musicgen_melody = {
    .model_type = "musicgen_melody", .position = PE_POSITION_SINUSOIDAL,
    .source = "musicgen_melody/modeling_musicgen_melody.py (MusicgenMelodySinusoidalPositionalEmbedding "
              "over [conditioning; codec frames])",
    .refusal = "a decoder over audio-codec frames (sinusoidal positions) with the text and "
               "melody conditioning prepended; posenc plans text decoders",
};
static const pe__family moshi_depth = {
    .model_type = "moshi_depth", .position = PE_POSITION_LEARNED,
    .source = "moshi/modeling_moshi.py (MoshiDepthDecoder: \"rotary embeddings are not used in "
              "the depth decoder\"; MoshiFlexibleLinear picks weights by codebook position)",
    .refusal = "Moshi's depth decoder has no rotary: it selects per-codebook weights by position "
               "(MoshiFlexibleLinear), a positional scheme posenc does not model",
};
static const pe__family musicgen_decoder = {
    .model_type = "musicgen_decoder", .position = PE_POSITION_SINUSOIDAL,
    .source = "musicgen/modeling_musicgen.py (MusicgenSinusoidalPositionalEmbedding over codec "
              "frames)",
    .refusal = "MusicGen's decoder over audio-codec frames (sinusoidal positions, cross-attention "
               "to a T5 encoder); posenc plans text decoders",
};
static const pe__family musicgen_melody_decoder = {
    .model_type = "musicgen_melody_decoder", .position = PE_POSITION_SINUSOIDAL,
    .source = "musicgen_melody/modeling_musicgen_melody.py "
              "(MusicgenMelodySinusoidalPositionalEmbedding)",
    .refusal = "MusicGen Melody's decoder over [conditioning; codec frames] (sinusoidal "
               "positions); posenc plans text decoders",
};
static const pe__family kosmos_2_text_model = {
    .model_type = "kosmos_2_text_model", .position = PE_POSITION_SINUSOIDAL,
    .source = "kosmos2/configuration_kosmos2.py (Kosmos2TextConfig: embed_dim, layers, "
              "attention_heads), modeling_kosmos2.py (Kosmos2TextSinusoidalPositionalEmbedding)",
    .refusal = "Kosmos-2's text decoder adds fairseq sinusoidal positions sized by embed_dim and "
               "counts its layers in 'layers', keys posenc's sinusoidal reader does not read",
};
static const pe__family kosmos_2_5_text_model = {
    .model_type = "kosmos_2_5_text_model", .position = PE_POSITION_SINUSOIDAL,
    .source = "kosmos2_5/configuration_kosmos2_5.py (Kosmos2_5TextConfig: embed_dim, layers), "
              "modeling_kosmos2_5.py (Kosmos2_5TextSinusoidalPositionalEmbedding)",
    .refusal = "Kosmos-2.5's text decoder adds fairseq sinusoidal positions sized by embed_dim and "
               "counts its layers in 'layers', keys posenc's sinusoidal reader does not read",
};
#define BLT_PART(var, name, cls)                                                               \
    static const pe__family var = {                                                           \
        .model_type = name, .position = PE_POSITION_ROPE,                                      \
        .source = "blt/configuration_blt.py (" cls ": default_theta 500000)",                 \
        .refusal = "one of the Byte Latent Transformer's four transformers (patcher, local "   \
                   "encoder, global transformer over patches, local decoder); posenc plans a " \
                   "whole checkpoint's decoder, and BLT's is refused ('blt')",                 \
    }
BLT_PART(blt_patcher, "blt_patcher", "BltPatcherConfig");
BLT_PART(blt_local_encoder, "blt_local_encoder", "BltLocalEncoderConfig");
BLT_PART(blt_global_transformer, "blt_global_transformer", "BltGlobalTransformerConfig");
BLT_PART(blt_local_decoder, "blt_local_decoder", "BltLocalDecoderConfig");
#undef BLT_PART
static const pe__family cpmant = {
    .model_type = "cpmant", .position = PE_POSITION_T5,
    .source = "cpmant/modeling_cpmant.py (CpmAntSegmentPositionEmbedding: relative buckets per "
              "segment pair, added as position_bias)",
    .refusal = "CPM-Ant's attention bias buckets relative positions per pair of input segments "
               "(CpmAntSegmentPositionEmbedding); posenc models T5's buckets, not segment-aware "
               "ones",
};

static const pe__family colqwen2 = {
    .model_type = "colqwen2", .position = PE_POSITION_ROPE,
    .source = "colqwen2/configuration_colqwen2.py (sub_configs {\"vlm_config\"}: a Qwen2VLConfig "
              "by default)",
    .refusal = "ColQwen2 keeps its language model inside vlm_config (a Qwen2-VL config), which "
               "posenc does not descend into; plan vlm_config's contents as their own config "
               "(model_type qwen2_vl)",
};
static const pe__family pi0 = {
    .model_type = "pi0", .position = PE_POSITION_ROPE,
    .source = "pi0/configuration_pi0.py (vlm_config: PaliGemma by default, dit_config: Gemma "
              "action expert)",
    .refusal = "PI0 runs a PaliGemma (vlm_config) beside a Gemma action expert (dit_config) "
               "over one joint sequence; posenc does not descend into vlm_config or plan the "
               "joint positions: plan vlm_config's text_config as its own config",
};
/* nanochat's rotate_half is cat((x2, -x1)): the rotation runs by -theta. */
static const pe__family nanochat = {
    .model_type = "nanochat", .position = PE_POSITION_ROPE,
    .source = "nanochat/modeling_nanochat.py (rotate_half: torch.cat((x2, -x1)), "
              "\"with flipped signs for NanoChat\")",
    .refusal = "NanoChat rotates by -theta (its rotate_half is cat(x2, -x1), the sign flipped "
               "from Llama's), a rotation direction posenc's RoPE does not model",
};
/* DBRX: v4's DbrxAttentionConfig held rope_theta (default 10000) and
 * v5's DbrxRotaryEmbedding reads the top-level rope_parameters. */
static const pe__family dbrx = {
    .model_type = "dbrx", .position = PE_POSITION_ROPE,
    .source = "dbrx/configuration_dbrx.py (DbrxAttentionConfig: attn_pdrop, clip_qkv, "
              "kv_n_heads; no rope_theta), modeling_dbrx.py (base = "
              "config.rope_parameters[\"rope_theta\"])",
    .refusal = "DBRX's checkpoints keep rope_theta inside attn_config, which transformers v5's "
               "DbrxAttentionConfig no longer declares while its rotary reads the top-level "
               "rope_parameters; which base a file gets depends on the transformers version, so "
               "posenc does not guess (read it as family 'llama' with rope_theta set at the top "
               "level on purpose)",
};

/* The group's records; NULL ends the list. */
static const pe__family *const records[] = {
    /* wrappers */
    &gemma3, &shieldgemma2, &gemma3n, &gemma4, &llama4, &qwen3_vl, &qwen3_vl_moe, &qwen3_5, &qwen3_5_moe, &kimi_k25,
    &aria, &aria_text, &idefics2, &lfm2_vl, &lfm2_vl_dash, &perception_lm, &ovis2, &video_llava,
    &video_llama_3, &deepseek_vl, &deepseek_vl_hybrid, &got_ocr2, &granitevision, &fast_vlm,
    &lighton_ocr, &audioflamingo3, &vibevoice_asr, &colpali, &blip_2, &instructblip,
    &instructblipvideo, &voxtral, &glmasr, &voxtral_realtime, &voxtral_realtime_text,
    /* decoder LMs */
    &code_llama, &apertus, &cwm, &dots1, &vaultgemma, &flex_olmo, &diffllama, &jais2, &jetmoe,
    &afmoe, &openai_gpt, &gpt_sw3, &mamba2,
    /* vision / omni LMs with M-RoPE */
    &glm4v_text, &glm4v, &glm46v, &glm4v_moe_text, &glm4v_moe, &glm_ocr_text, &glm_ocr,
    &glm_image_text, &glm_image, &paddleocr_vl_text, &paddleocr_vl, &ernie4_5_vl_moe_text,
    &ernie4_5_vl_moe, &qwen2_5_omni_text, &qwen2_5_omni, &qwen3_omni_moe_text, &qwen3_omni_moe, &qwen2_5_omni_thinker,
    &qwen3_omni_moe_thinker,
    &emu3_text_model, &emu3, &chameleon,
    /* hybrids */
    &bamba, &zamba, &zamba2, &nemotron_h, &olmo_hybrid, &lfm2_moe, &exaone_moe, &xlstm,
    /* more decoder LMs */
    &doge, &minimax_m2, &solar_open, &higgs_audio_v2, &phi4_multimodal, &evolla, &evolla_model,
    &csm, &csm_depth_decoder_model, &moshi, &kyutai_speech_to_text, &idefics, &youtu, &longcat_flash,
    /* refused */
    &colqwen2, &pi0, &nanochat, &dbrx, &mistral4, &glm_moe_dsa, &deepseek_v32, &kimi_linear, &hunyuan_vl_text,
    &hunyuan_vl, &cohere2_moe, &granite_swa, &granitemoe_swa, &blt, &kosmos_2, &kosmos_2_5,
    &musicgen, &musicgen_melody, &cpmant, &moshi_depth, &musicgen_decoder,
    &musicgen_melody_decoder, &kosmos_2_text_model, &kosmos_2_5_text_model, &blt_patcher,
    &blt_local_encoder, &blt_global_transformer, &blt_local_decoder,
    /* ---- h25rest: model_types newer than 28af8184fb00, read in the zucchini-nlp fork of
     * transformers at decba1d2ea4e (2026-08-19; upstream main's history), under
     * src/transformers/models/ (rwkv7 in huggingface/transformers at 4e654125f73a). ---- */
    /* AXK1Config(DeepseekV3Config): MLA with DeepseekV3Attention and its rotary (rope_interleave
     * default True, softmax x mscale^2); the class's own counts. */
    &(const pe__family){
        .model_type = "axk1", .position = PE_POSITION_ROPE,
        .source = "axk1/modular_axk1.py at decba1d2ea4e (AXK1Config(DeepseekV3Config): "
                  "hidden_size 7168, num_hidden_layers 61, num_attention_heads 64, "
                  "qk_rope_head_dim 64, max_position_embeddings 32768; AXK1Attention("
                  "DeepseekV3Attention), AXK1RotaryEmbedding(DeepseekV3RotaryEmbedding))",
        .defaults = {.rope_theta = 10000.0, .head_dim = 64, .max_position = 32768,
                     .layers = 61, .hidden = 7168, .heads = 64},
        .pairs = {.layout = PE_ROPE_HALF, .switch_key = "rope_interleave", .switch_default = true},
        .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
    },
    &(const pe__family){
        .model_type = "axk2", .position = PE_POSITION_ROPE,
        .source = "axk2/modular_axk2.py at decba1d2ea4e (AXK2Config(DeepseekV32Config): "
                  "index_head_dim, index_n_heads, index_topk; AXK2Indexer(DeepseekV32Indexer) "
                  "beside AXK2Attention(DeepseekV32Attention); layer_types default "
                  "\"deepseek_sparse_attention\")",
        .refusal = "every layer carries two rotated attentions, the MLA attention and the DeepSeek "
                   "Sparse Attention indexer that picks its keys (as DeepSeek V3.2); posenc plans "
                   "one positional kind per layer",
    },
    /* HyperCLOVAXConfig(GraniteConfig): Granite's class defaults and GraniteRotaryEmbedding;
     * head_dim defaults to hidden_size // num_attention_heads. */
    &(const pe__family){
        .model_type = "hyperclovax", .position = PE_POSITION_ROPE,
        .source = "hyperclovax/modular_hyperclovax.py at decba1d2ea4e (HyperCLOVAXConfig("
                  "GraniteConfig): head_dim None -> hidden_size // num_attention_heads; "
                  "HyperCLOVAXRotaryEmbedding(GraniteRotaryEmbedding)), "
                  "granite/configuration_granite.py (4096, 32 layers, 32 heads, 2048)",
        .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                     .layers = 32, .hidden = 4096, .heads = 32},
        .pairs = HALF_PAIRS,
    },
    /* HYV3Config: default_theta 11158840, Llama's rotary, ApertusAttention. */
    &(const pe__family){
        .model_type = "hy_v3", .position = PE_POSITION_ROPE,
        .source = "hy_v3/modular_hy_v3.py at decba1d2ea4e (HYV3Config: default_theta = "
                  "11_158_840.0, hidden_size 4096, num_hidden_layers 80, num_attention_heads 64, "
                  "head_dim 128, max_position_embeddings 131072; HYV3RotaryEmbedding("
                  "LlamaRotaryEmbedding), HYV3Attention(ApertusAttention))",
        .defaults = {.rope_theta = 11158840.0, .max_position = 131072, .head_dim = 128,
                     .layers = 80, .hidden = 4096, .heads = 64},
        .pairs = HALF_PAIRS,
    },
    /* MiniCPM3Config(LlamaConfig): MLA whose rotated part is qk_rope_head_dim 32 (head_dim =
     * qk_rope_head_dim), rotated with Llama's apply_rotary_pos_emb (half split, not DeepSeek's
     * interleaved), softmax scale from DeepseekV2Attention (x mscale^2 under YaRN). */
    &(const pe__family){
        .model_type = "minicpm3", .position = PE_POSITION_ROPE,
        .source = "minicpm3/modular_minicpm3.py at decba1d2ea4e (MiniCPM3Config(LlamaConfig): "
                  "hidden_size 2560, num_hidden_layers 62, num_attention_heads 40, "
                  "max_position_embeddings 32768, qk_rope_head_dim 32, head_dim = "
                  "qk_rope_head_dim; MiniCPM3Attention(DeepseekV2Attention): \"standard "
                  "(non-interleaved) cos/sin rotary (apply_rotary_pos_emb)\")",
        .defaults = {.rope_theta = 10000.0, .head_dim = 32, .max_position = 32768,
                     .layers = 62, .hidden = 2560, .heads = 40},
        .pairs = HALF_PAIRS,
        .softmax = PE__SOFTMAX_DEEPSEEK_MSCALE,
    },
    /* DeepseekOcr2TextConfig(DeepseekV2Config) without MLA: head_dim = hidden_size //
     * num_attention_heads, LlamaAttention with LlamaRotaryEmbedding (half split); DeepseekV2's
     * counts. */
    &(const pe__family){
        .model_type = "deepseek_ocr2_text", .position = PE_POSITION_ROPE,
        .source = "deepseek_ocr2/modular_deepseek_ocr2.py at decba1d2ea4e "
                  "(DeepseekOcr2TextConfig(DeepseekV2Config): qk_rope_head_dim = AttributeError(), "
                  "head_dim = hidden_size // num_attention_heads; DeepseekOcr2TextAttention("
                  "LlamaAttention), DeepseekOcr2TextRotaryEmbedding(LlamaRotaryEmbedding)), "
                  "deepseek_v2/configuration_deepseek_v2.py (4096, 32 layers, 32 heads, 2048)",
        .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                     .layers = 32, .hidden = 4096, .heads = 32},
        .pairs = HALF_PAIRS,
    },
    &(const pe__family){
        .model_type = "deepseek_ocr2", .position = PE_POSITION_ROPE,
        .text_family = "deepseek_ocr2_text",
        .source = "deepseek_ocr2/modular_deepseek_ocr2.py at decba1d2ea4e (DeepseekOcr2Config: "
                  "text_config = DeepseekOcr2TextConfig(**text_config))",
    },
    /* Wrappers whose text_config names its family, with the class's default. */
    &(const pe__family){
        .model_type = "cosmos3_omni", .position = PE_POSITION_ROPE, .text_family = "qwen3_vl_text",
        .source = "cosmos3_omni/modular_cosmos3_omni.py at decba1d2ea4e (Cosmos3OmniConfig("
                  "Qwen3VLConfig): text_config.get(\"model_type\", \"qwen3_vl_text\"))",
    },
    &(const pe__family){
        .model_type = "exaone4_5", .position = PE_POSITION_ROPE, .text_family = "exaone4",
        .source = "exaone4_5/modular_exaone4_5.py at decba1d2ea4e (Exaone4_5_Config: "
                  "text_config.get(\"model_type\", \"exaone4\"), \"exaone4_5_text\" read as "
                  "\"exaone4\"; Exaone4_5_Model: 1-D position_ids = arange)",
    },
    &(const pe__family){
        .model_type = "qianfan_ocr", .position = PE_POSITION_ROPE, .text_family = "qwen3",
        .source = "qianfan_ocr/modular_qianfan_ocr.py at decba1d2ea4e (QianfanOCRConfig("
                  "InternVLConfig): text_config.get(\"model_type\", \"qwen3\"))",
    },
    /* Qwen3ASRConfig: a text_config dict without model_type is Qwen3Config(**dict) (the class
     * defaults); only an absent text_config gets the 28-layer kwargs. */
    &(const pe__family){
        .model_type = "qwen3_asr", .position = PE_POSITION_ROPE, .text_family = "qwen3",
        .source = "qwen3_asr/modular_qwen3_asr.py at decba1d2ea4e (Qwen3ASRConfig: "
                  "text_config.get(\"model_type\", \"qwen3\"); text_config None -> Qwen3 with "
                  "hidden_size 2048, 28 layers, 16 heads, head_dim 128, 65536)",
    },
    &(const pe__family){
        .model_type = "musicflamingo", .position = PE_POSITION_ROPE, .text_family = "qwen2",
        .source = "musicflamingo/modular_musicflamingo.py at decba1d2ea4e (MusicFlamingoConfig("
                  "AudioFlamingo3Config): text_config.get(\"model_type\", \"qwen2\"); its rotary "
                  "time embedding rotates the audio encoder's output, not the language model)",
    },
    &(const pe__family){
        .model_type = "minicpmv4_6", .position = PE_POSITION_ROPE, .text_family = "qwen3_5_text",
        .source = "minicpmv4_6/modular_minicpmv4_6.py at decba1d2ea4e (MiniCPMV4_6Config: "
                  "CONFIG_MAPPING[text_config[\"model_type\"]], default \"qwen3_5_text\")",
    },
    &(const pe__family){
        .model_type = "granite_speech_plus", .position = PE_POSITION_ROPE, .text_family = "granite",
        .source = "granite_speech_plus/modular_granite_speech_plus.py at decba1d2ea4e ("
                  "GraniteSpeechPlusConfig(GraniteSpeechConfig)), granite_speech/"
                  "configuration_granite_speech.py (text_config.get(\"model_type\", \"granite\"))",
    },
    &(const pe__family){
        .model_type = "pp_chart2table", .position = PE_POSITION_ROPE, .text_family = "qwen2",
        .source = "pp_chart2table/modular_pp_chart2table.py at decba1d2ea4e (PPChart2TableConfig("
                  "GotOcr2Config)), got_ocr2/configuration_got_ocr2.py (text_config.get("
                  "\"model_type\", \"qwen2\"))",
    },
    &(const pe__family){
        .model_type = "glmga", .position = PE_POSITION_ROPE, .text_family = "glm4v_text",
        .source = "glmga/modular_glmga.py at decba1d2ea4e (GlmgaConfig(Glm46VConfig): text_config "
                  "model_type default \"glm4v_text\")",
    },
    /* Granite4VisionTextConfig(GraniteConfig) adds nothing positional: Granite's defaults and
     * rotary; deepstack features are added to hidden states, not to positions. */
    &(const pe__family){
        .model_type = "granite4_vision_text", .position = PE_POSITION_ROPE,
        .source = "granite4_vision/modular_granite4_vision.py at decba1d2ea4e ("
                  "Granite4VisionTextConfig(GraniteConfig), Granite4VisionTextRotaryEmbedding("
                  "GraniteRotaryEmbedding), Granite4VisionTextAttention(GraniteAttention))",
        .defaults = {.rope_theta = 10000.0, .max_position = 2048,
                     .layers = 32, .hidden = 4096, .heads = 32},
        .pairs = HALF_PAIRS,
    },
    &(const pe__family){
        .model_type = "granite4_vision", .position = PE_POSITION_ROPE,
        .text_family = "granite4_vision_text",
        .source = "granite4_vision/modular_granite4_vision.py at decba1d2ea4e ("
                  "Granite4VisionConfig: text_config.get(\"model_type\", \"granite4_vision_text\"))",
    },
    /* Rwkv7Config: "an all-recurrent (attention-free)" model, num_hidden_layers 12, hidden 768. */
    &(const pe__family){
        .model_type = "rwkv7", .position = PE_POSITION_NONE,
        .source = "rwkv7/configuration_rwkv7.py at 4e654125f73a (Rwkv7Config: \"all-recurrent "
                  "(attention-free)\", num_hidden_layers 12, hidden_size 768; "
                  "max_position_embeddings \"only sizes generation defaults\")",
        .defaults = {.layers = 12, .hidden = 768},
        .none_types = (const char *const[]){"recurrent", NULL},
    },
    /* ---- h25rest refusals (same sources) ---- */
#define H25_REFUSED(type, kind, src, why)                                                     \
    &(const pe__family) {                                                                     \
        .model_type = (type), .position = (kind), .source = (src), .refusal = (why)           \
    }
    /* LagunaConfig: without layer_types every layer is full_attention (use_sliding_window is
     * not a key of the class, so QWEN_WINDOW's default false); the class-default
     * rope_parameters is a block per layer type, full_attention rotating half of head_dim 128
     * (LagunaRotaryEmbedding: dim = int(head_dim * partial_rotary_factor)) at 500000. */
    &(const pe__family){
        .model_type = "laguna", .position = PE_POSITION_ROPE,
        .source = "laguna/modular_laguna.py at decba1d2ea4e (LagunaConfig(Qwen2MoeConfig): "
                  "num_hidden_layers 40, num_attention_heads 48, head_dim 128, "
                  "max_position_embeddings 131072, layer_types default [\"full_attention\"] * "
                  "num_hidden_layers, use_sliding_window = AttributeError(), rope_parameters "
                  "default {full_attention: default, theta 500000, partial_rotary_factor 0.5; "
                  "sliding_attention: theta 10000, partial 1.0}; LagunaRotaryEmbedding: dim = "
                  "int(head_dim * partial_rotary_factor); apply_rotary_pos_emb of qwen3_5_moe), "
                  "qwen2_moe/configuration_qwen2_moe.py (hidden_size 2048)",
        .defaults = {.rope_theta = 10000.0, .max_position = 131072, .head_dim = 128,
                     .layers = 40, .hidden = 2048, .heads = 48},
        .pairs = HALF_PAIRS,
        .layers = PE__LAYERS_QWEN_WINDOW,
        .default_block = "{\"full_attention\":{\"rope_type\":\"default\",\"rope_theta\":500000.0,"
                         "\"partial_rotary_factor\":0.5},\"sliding_attention\":{\"rope_type\":"
                         "\"default\",\"rope_theta\":10000.0,\"partial_rotary_factor\":1.0}}",
    },
    /* MellumConfig(Qwen3MoeConfig): Laguna's rotary and layer default, whole heads. */
    &(const pe__family){
        .model_type = "mellum", .position = PE_POSITION_ROPE,
        .source = "mellum/modular_mellum.py at decba1d2ea4e (MellumConfig(Qwen3MoeConfig): "
                  "hidden_size 2304, num_hidden_layers 28, head_dim 128, max_position_embeddings "
                  "131072, layer_types default [\"full_attention\"] * num_hidden_layers, "
                  "use_sliding_window = AttributeError(), rope_parameters default "
                  "{full_attention: default, theta 500000; sliding_attention: theta 10000}; "
                  "MellumRotaryEmbedding(LagunaRotaryEmbedding)), qwen3_moe/"
                  "configuration_qwen3_moe.py (num_attention_heads 32)",
        .defaults = {.rope_theta = 10000.0, .max_position = 131072, .head_dim = 128,
                     .layers = 28, .hidden = 2304, .heads = 32},
        .pairs = HALF_PAIRS,
        .layers = PE__LAYERS_QWEN_WINDOW,
        .default_block = "{\"full_attention\":{\"rope_type\":\"default\",\"rope_theta\":500000.0},"
                         "\"sliding_attention\":{\"rope_type\":\"default\",\"rope_theta\":10000.0}}",
    },
    H25_REFUSED("mimo_v2_flash", PE_POSITION_ROPE,
                "mimo_v2_flash/modular_mimo_v2_flash.py at decba1d2ea4e (MiMoV2FlashConfig: "
                "layer_types full_attention where i == 0 or (i + 1) % 6 == 0, else sliding; "
                "rope_parameters default {full_attention: theta 5e6, sliding_attention: theta "
                "10000}, partial_rotary_factor 0.334 each, head_dim 192)",
                "its class-default layer_types make layer 0 and every layer with (i + 1) % 6 == 0 "
                "full_attention and the others sliding_attention, a pattern posenc's layer rules "
                "do not express (read, not modelled yet)"),
    H25_REFUSED("zaya", PE_POSITION_ROPE,
                "zaya/modular_zaya.py at decba1d2ea4e (ZayaConfig(LagunaConfig): layer_types "
                "\"hybrid\" / \"hybrid_sliding\", rope_parameters default {hybrid: theta 5e6, "
                "hybrid_sliding: theta 10000}, partial_rotary_factor 0.5; cca_time0/1 "
                "convolutions, create_recurrent_attention_mask)",
                "its layers are 'hybrid' attention with a recurrent mask and convolutions beside "
                "RoPE, with class-default RoPE blocks per layer type; posenc has no layer kind "
                "for this hybrid"),
    H25_REFUSED("step3p7", PE_POSITION_ROPE,
                "step3p7/modular_step3p7.py at decba1d2ea4e (Step3p7Config: text_config "
                "Step3p7TextConfig (model_type \"step3p5\") with rope_theta and "
                "partial_rotary_factors given per layer; Step3p7VisionRotaryEmbedding("
                "Gemma4VisionRotaryEmbedding))",
                "its text model gives every layer its own rope_theta and partial_rotary_factor "
                "(lists over the layers, turned into per-layer rope_parameters), which posenc "
                "does not read; the vision tower uses 2-D RoPE"),
    H25_REFUSED("step3p5", PE_POSITION_ROPE,
                "step3p7/modular_step3p7.py at decba1d2ea4e (Step3p7TextConfig(MiniMaxM3VLTextConfig): "
                "model_type \"step3p5\"; rope_theta and partial_rotary_factors per layer; "
                "Step3p7RotaryEmbedding(LagunaRotaryEmbedding))",
                "it gives every layer its own rope_theta and partial_rotary_factor (lists over the "
                "layers, turned into per-layer rope_parameters), which posenc does not read"),
    H25_REFUSED("deepseek_v4", PE_POSITION_ROPE,
                "deepseek_v4/modular_deepseek_v4.py at decba1d2ea4e (layer_types "
                "sliding_attention / compressed_sparse_attention / heavily_compressed_attention; "
                "rope_parameters keyed \"main\" / \"compress\" with their own rope_theta; "
                "interleaved RoPE on the trailing rope slice of each head)",
                "its layers are sliding, compressed-sparse and heavily-compressed attentions whose "
                "RoPE bases come from rope_parameters sub-blocks named 'main' and 'compress', not "
                "from the layer types, and the rotated slice is the trailing part of each head; "
                "posenc has no rule mapping these"),
    H25_REFUSED("cohere_compass_text", PE_POSITION_ROPE,
                "cohere_compass/modular_cohere_compass.py at decba1d2ea4e (CohereCompassTextConfig("
                "Cohere2Config): rope_parameters per layer type, \"allow per layer rope with "
                "optional NoPE layers\"; CohereCompassRotaryEmbedding: Qwen3-VL interleaved "
                "M-RoPE per layer type, mrope_section default [24, 20, 20])",
                "its rope_parameters are a block per layer type where a missing block makes that "
                "type NoPE, each applying interleaved M-RoPE sections; posenc has no rule for "
                "per-type M-RoPE with NoPE types"),
    H25_REFUSED("cohere_compass", PE_POSITION_ROPE,
                "cohere_compass/modular_cohere_compass.py at decba1d2ea4e (CohereCompassConfig("
                "Qwen3VLConfig): sub_configs text_config CohereCompassTextConfig)",
                "its text model (cohere_compass_text) has per-layer-type rope_parameters with "
                "optional NoPE types and interleaved M-RoPE, which posenc does not plan"),
    H25_REFUSED("cosmos3_edge_text", PE_POSITION_ROPE,
                "cosmos3_edge/modular_cosmos3_edge.py at decba1d2ea4e (Cosmos3EdgeTextConfig("
                "LlamaConfig): default_theta 1e8, head_dim 128, max_position_embeddings 131072, "
                "rope_parameters "
                "default {default, mrope_section [24, 20, 20]}, rope_type must be 'default'; an "
                "axis-aware interleaved inverse-frequency matrix for t/h/w)",
                "its code always interleaves the M-RoPE sections (no mrope_interleaved key; class "
                "default mrope_section [24, 20, 20] at default_theta 1e8), while posenc takes the "
                "interleaving from a block's mrope_interleaved key only and would report blocked "
                "sections; read, not modelled yet"),
    H25_REFUSED("cosmos3_edge", PE_POSITION_ROPE,
                "cosmos3_edge/modular_cosmos3_edge.py at decba1d2ea4e (Cosmos3EdgeConfig: "
                "text_config Cosmos3EdgeTextConfig; Siglip2 vision)",
                "its text model (cosmos3_edge_text) always interleaves its M-RoPE sections, which "
                "posenc would report as blocked (see that record)"),
    H25_REFUSED("diffusion_gemma_text", PE_POSITION_ROPE,
                "diffusion_gemma/modular_diffusion_gemma.py at decba1d2ea4e ("
                "DiffusionGemmaTextConfig(Gemma4TextConfig), DiffusionGemmaEncoderTextAttention, "
                "T5Gemma2Model; use_bidirectional_attention \"vision\" / \"all\")",
                "a block-diffusion Gemma 4: an encoder over the prompt and a decoder denoising a "
                "canvas (canvas_length 256) with bidirectional attention; posenc plans one causal "
                "stack's token positions"),
    H25_REFUSED("diffusion_gemma", PE_POSITION_ROPE,
                "diffusion_gemma/modular_diffusion_gemma.py at decba1d2ea4e (DiffusionGemmaConfig("
                "Gemma4Config): text_config DiffusionGemmaTextConfig, canvas_length 256)",
                "a block-diffusion Gemma 4 (prompt encoder, canvas decoder); posenc plans one "
                "causal stack's token positions"),
    H25_REFUSED("gemma4_assistant", PE_POSITION_ROPE,
                "gemma4_assistant/configuration_gemma4_assistant.py at decba1d2ea4e ("
                "Gemma4AssistantConfig: text_config Gemma4TextConfig with num_kv_shared_layers "
                "= num_hidden_layers)",
                "a drafting assistant whose every layer reads the key/value cache of the target "
                "Gemma 4 model (num_kv_shared_layers = num_hidden_layers): its keys carry the "
                "target's positions; plan the target model's config"),
    H25_REFUSED("gemma4_unified_assistant", PE_POSITION_ROPE,
                "gemma4_unified_assistant/configuration_gemma4_unified_assistant.py at "
                "decba1d2ea4e (Gemma4UnifiedAssistantConfig: text_config Gemma4UnifiedTextConfig, "
                "num_kv_shared_layers required)",
                "a drafting assistant whose layers read the key/value cache of the target Gemma 4 "
                "Unified model: its keys carry the target's positions; plan the target model's "
                "config"),
    H25_REFUSED("muse_glimmer_assistant", PE_POSITION_ROPE,
                "muse_glimmer_assistant/modular_muse_glimmer_assistant.py at decba1d2ea4e "
                "(its apply_rotary_pos_emb: \"keys have concatenated context\")",
                "a drafting assistant whose keys are concatenated with the target model's context "
                "before rotation; posenc plans a model's own token positions: plan the target's "
                "config"),
    H25_REFUSED("gemma4_unified_text", PE_POSITION_ROPE,
                "gemma4_unified/modular_gemma4_unified.py at decba1d2ea4e ("
                "Gemma4UnifiedTextConfig(Gemma4TextConfig): sliding_window 1024, "
                "use_bidirectional_attention default \"vision\", attention_k_eq_v, "
                "num_kv_shared_layers; Gemma4UnifiedTextRotaryEmbedding(Gemma4TextRotaryEmbedding))",
                "Gemma 4 Unified's text model changes Gemma 4's class defaults (sliding_window "
                "1024, bidirectional vision tokens, shared key/value layers) and posenc's "
                "gemma4_text record does not state them yet (read, not modelled)"),
    H25_REFUSED("gemma4_unified", PE_POSITION_ROPE,
                "gemma4_unified/modular_gemma4_unified.py at decba1d2ea4e (Gemma4UnifiedConfig("
                "Gemma4Config): text_config Gemma4UnifiedTextConfig, audio and vision configs)",
                "its text model (gemma4_unified_text) is not modelled yet (see that record)"),
    H25_REFUSED("hrm_text", PE_POSITION_ROPE,
                "hrm_text/modular_hrm_text.py at decba1d2ea4e (HrmTextConfig(LlamaConfig): "
                "H_cycles 2, L_cycles 3; HrmTextModel runs its stacks H_cycles x (L_cycles + 1) "
                "times, cache slot layer_idx + cycle_offset)",
                "a hierarchical recurrent model that runs its layer stacks several times per "
                "token (H_cycles x (L_cycles + 1) passes, each its own cache slot); posenc plans "
                "one pass per layer"),
    H25_REFUSED("inkling_text", PE_POSITION_RELATIVE,
                "inkling/modular_inkling.py at decba1d2ea4e (InklingTextConfig: d_rel 16, "
                "rel_extent 1024; InklingRelativeLogits: \"hidden states conditioned relative "
                "position bias\" over backward distances; hybrid_sliding layers, conv_kernel_size)",
                "its attention takes a relative position bias computed from the hidden states "
                "(a trained bank of bias-vs-distance profiles over rel_extent backward "
                "distances), not RoPE; posenc does not plan this relative scheme"),
    H25_REFUSED("inkling_mm_model", PE_POSITION_RELATIVE,
                "inkling/modular_inkling.py at decba1d2ea4e (InklingConfig: text_config "
                "InklingTextConfig, audio and vision configs)",
                "its text model (inkling_text) uses a hidden-state-conditioned relative position "
                "bias that posenc does not plan"),
    H25_REFUSED("minimax_m3_vl_text", PE_POSITION_ROPE,
                "minimax_m3_vl/modular_minimax_m3_vl.py at decba1d2ea4e ("
                "MiniMaxM3VLTextConfig(MiniMaxM2Config), MiniMaxM3VLRotaryEmbedding("
                "MiniMaxM2RotaryEmbedding), MiniMaxM3VL3DRotaryEmbedding for the model's 3-D "
                "positions)",
                "its text model rotates with a 3-D rotary embedding (MiniMaxM3VL3DRotaryEmbedding) "
                "over multimodal positions; posenc has no rule for it"),
    H25_REFUSED("minimax_m3_vl", PE_POSITION_ROPE,
                "minimax_m3_vl/modular_minimax_m3_vl.py at decba1d2ea4e (MiniMaxM3VLConfig: "
                "text_config always MiniMaxM3VLTextConfig, its model_type popped)",
                "its text model (minimax_m3_vl_text) uses a 3-D rotary embedding posenc does not "
                "plan"),
    H25_REFUSED("muse_glimmer_text", PE_POSITION_ROPE,
                "muse_glimmer/modular_muse_glimmer.py at decba1d2ea4e (MuseGlimmerTextConfig("
                "Gemma2Config): layer_types full_attention where (num_hidden_layers - 1 - i) % 4 "
                "== 0, layer_rope_theta per layer, \"0 => NoPE\", default 0 on those layers)",
                "each layer takes its own RoPE base from layer_rope_theta (0 making it NoPE; by "
                "default the full-attention layers, every 4th counted back from the last), which "
                "posenc does not read"),
    H25_REFUSED("muse_glimmer", PE_POSITION_ROPE,
                "muse_glimmer/modular_muse_glimmer.py at decba1d2ea4e (MuseGlimmerConfig: "
                "text_config MuseGlimmerTextConfig; MuseGlimmerVisionRotaryEmbedding("
                "Gemma4VisionRotaryEmbedding): 2-D vision RoPE)",
                "its text model (muse_glimmer_text) takes a RoPE base per layer from "
                "layer_rope_theta, which posenc does not read, and its vision tower uses 2-D RoPE"),
    H25_REFUSED("qwen2_5_omni_talker", PE_POSITION_ROPE,
                "qwen2_5_omni/configuration_qwen2_5_omni.py at decba1d2ea4e "
                "(Qwen2_5OmniTalkerConfig: default_theta 1e6, mrope_section, "
                "position_id_per_seconds 25)",
                "a speech-token talker conditioned on the thinker, rotated with M-RoPE over the "
                "thinker's multimodal positions; posenc plans the thinker (the checkpoint's "
                "config.json)"),
    H25_REFUSED("qwen3_omni_moe_talker_text", PE_POSITION_ROPE,
                "qwen3_omni_moe/configuration_qwen3_omni_moe.py at decba1d2ea4e "
                "(Qwen3OmniMoeTalkerTextConfig: 20 layers, 16 heads, 32768, rope_parameters)",
                "the text model of Qwen3-Omni's talker, a speech-token decoder conditioned on the "
                "thinker's multimodal positions; posenc plans the thinker (the checkpoint's "
                "config.json)"),
    H25_REFUSED("qwen3_omni_moe_talker_code_predictor", PE_POSITION_ROPE,
                "qwen3_omni_moe/configuration_qwen3_omni_moe.py at decba1d2ea4e "
                "(Qwen3OmniMoeTalkerCodePredictorConfig: 5 layers, head_dim 128, "
                "num_code_groups 32)",
                "the talker's code predictor, a small decoder over the codebook groups of one "
                "audio frame (num_code_groups), not over text token positions"),
#undef H25_REFUSED
    NULL,
};

const pe__family_group pe__families_hf_decoders = {.records = records};
