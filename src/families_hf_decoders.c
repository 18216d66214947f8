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
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};

/* Wrappers whose class merges its own defaults into text_config
 * ({**_default_text_config_kwargs, **text_config}). */
static const pe__class_defaults voxtral_text_defaults = {
    .rope_theta = 100000000.0, .max_position = 131072, .head_dim = 128};
static const pe__family voxtral = {
    .model_type = "voxtral", .position = PE_POSITION_ROPE, .text_family = "llama",
    .text_defaults = &voxtral_text_defaults,
    .source = "voxtral/configuration_voxtral.py (text_config model_type default \"llama\", "
              "_default_text_config_kwargs: max_position_embeddings 131072, rope_theta "
              "100000000.0, head_dim 128)",
};
static const pe__class_defaults glmasr_text_defaults = {
    .rope_theta = 10000.0, .max_position = 8192};
static const pe__family glmasr = {
    .model_type = "glmasr", .position = PE_POSITION_ROPE, .text_family = "llama",
    .text_defaults = &glmasr_text_defaults,
    .source = "glmasr/configuration_glmasr.py (text_config model_type default \"llama\", "
              "_default_text_config_kwargs: max_position_embeddings 8192, rope_parameters "
              "{rope_theta 10000.0, default})",
};
static const pe__class_defaults voxtral_realtime_text_defaults = {
    .rope_theta = 1000000.0, .max_position = 131072, .head_dim = 128};
static const pe__family voxtral_realtime = {
    .model_type = "voxtral_realtime", .position = PE_POSITION_ROPE,
    .text_family = "voxtral_realtime_text", .text_defaults = &voxtral_realtime_text_defaults,
    .source = "voxtral_realtime/configuration_voxtral_realtime.py (text_config model_type "
              "default \"voxtral_realtime_text\", _default_text_config_kwargs: "
              "max_position_embeddings 131072, rope_theta 1000000.0, head_dim 128, "
              "sliding_window 8192)",
};
/* VoxtralRealtimeTextConfig(MistralConfig): Mistral's defaults. */
static const pe__family voxtral_realtime_text = {
    .model_type = "voxtral_realtime_text", .position = PE_POSITION_ROPE,
    .source = "voxtral_realtime/configuration_voxtral_realtime.py (VoxtralRealtimeTextConfig("
              "MistralConfig)), mistral/configuration_mistral.py (max_position_embeddings 4096 * "
              "32, no default_theta), modeling_voxtral_realtime.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 131072},
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
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
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
    .defaults = {.rope_theta = 12000000.0, .max_position = 65536},
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
    .defaults = {.rope_theta = 1e6, .max_position = 131072, .head_dim = 128},
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
    .defaults = {.rope_theta = 10000.0, .max_position = 2048, .offset = 62, .window = 4096},
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
    .defaults = {.rope_theta = 10000.0, .max_position = 8192, .head_dim = 256},
    .pairs = HALF_PAIRS,
    .layers = PE__LAYERS_ALTERNATE,
};
static const pe__family flex_olmo = {
    .model_type = "flex_olmo", .position = PE_POSITION_ROPE,
    .source = "flex_olmo/configuration_flex_olmo.py (default_theta = 500000.0, "
              "max_position_embeddings: int = 4096), modeling_flex_olmo.py (rotate_half)",
    .defaults = {.rope_theta = 500000.0, .max_position = 4096},
    .pairs = HALF_PAIRS,
};
/* DiffLlama: differential attention over two halves of the value heads;
 * queries and keys are rotated whole with Llama's RoPE. */
static const pe__family diffllama = {
    .model_type = "diffllama", .position = PE_POSITION_ROPE,
    .source = "diffllama/configuration_diffllama.py (max_position_embeddings: int = 2048, "
              "head_dim None, no default_theta), modeling_diffllama.py (apply_rotary_pos_emb "
              "on q, k; rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 2048},
    .pairs = HALF_PAIRS,
};
static const pe__family jais2 = {
    .model_type = "jais2", .position = PE_POSITION_ROPE,
    .source = "jais2/configuration_jais2.py (max_position_embeddings: int = 8192, head_dim None, "
              "no default_theta), modeling_jais2.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192},
    .pairs = HALF_PAIRS,
};
/* JetMoeConfig: attribute_map head_dim -> kv_channels (default 128). */
static const pe__family jetmoe = {
    .model_type = "jetmoe", .position = PE_POSITION_ROPE,
    .source = "jetmoe/configuration_jetmoe.py (attribute_map {\"head_dim\": \"kv_channels\"}, "
              "kv_channels: int = 128, max_position_embeddings: int = 4096, no default_theta), "
              "modeling_jetmoe.py (rotate_half)",
    .defaults = {.rope_theta = 10000.0, .max_position = 4096, .head_dim = 128},
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
    .defaults = {.rope_theta = 10000.0, .max_position = 16384, .head_dim = 128, .pattern = 4},
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

/* ------------------------------------------- families posenc refuses */

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
    &gemma3, &shieldgemma2, &gemma3n, &llama4, &qwen3_vl, &qwen3_vl_moe, &qwen3_5, &qwen3_5_moe,
    &aria, &aria_text, &idefics2, &lfm2_vl, &lfm2_vl_dash, &perception_lm, &ovis2, &video_llava,
    &video_llama_3, &deepseek_vl, &deepseek_vl_hybrid, &got_ocr2, &granitevision, &fast_vlm,
    &lighton_ocr, &audioflamingo3, &vibevoice_asr, &colpali, &blip_2, &instructblip,
    &instructblipvideo, &voxtral, &glmasr, &voxtral_realtime, &voxtral_realtime_text,
    /* decoder LMs */
    &code_llama, &apertus, &cwm, &dots1, &vaultgemma, &flex_olmo, &diffllama, &jais2, &jetmoe,
    &afmoe, &openai_gpt, &gpt_sw3, &mamba2,
    /* refused */
    &colqwen2, &pi0, &nanochat, &dbrx,
    NULL,
};

const pe__family_group pe__families_hf_decoders = {.records = records};
