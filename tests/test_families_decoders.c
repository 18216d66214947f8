/* test_families_decoders.c — the class-default rows of the registry group
 * src/families_hf_decoders.c (decoder LLMs, hybrids and multimodal wrappers); each row restates from the family's
 * transformers source what a config that leaves a key out gets, and names
 * that source. test_families.c checks the rows (family_rows.h).
 *
 * Sources: transformers 28af8184fb00 (2026-03-24), src/transformers/models/,
 * unless a row names another commit. The expected values are read off the
 * configuration_*.py / modeling_*.py lines quoted in each comment. */
#include "family_rows.h"
#include "runner.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* a text_config of BASE keys only, for wrappers */
#define TEXT "\"text_config\":{" BASE "}"

const row family_rows_decoders[] = {
    /* ---- wrappers: a text_config without model_type is the class's text family ---- */
    /* Gemma3Config: Gemma3TextConfig (rope_theta 1e6, 131072, head_dim 256); layer 0 of
     * sliding_window_pattern 6 slides at rope_local_base_freq 10000 */
    {"gemma3", TEXT, 0, PE_POSITION_ROPE, 10000, 131072, 256, 256, H},
    {"gemma3", "\"text_config\":{" BASE ",\"num_hidden_layers\":6}", 5, PE_POSITION_ROPE, 1e6,
     131072, 256, 256, H},
    /* ShieldGemma2Config: text_config model_type default "gemma3_text" */
    {"shieldgemma2", TEXT, 0, PE_POSITION_ROPE, 10000, 131072, 256, 256, H},
    /* Gemma3nConfig: Gemma3nTextConfig (1e6, 32768, head_dim 256, pattern 5) */
    {"gemma3n", "\"text_config\":{" BASE ",\"num_hidden_layers\":5}", 4, PE_POSITION_ROPE, 1e6,
     32768, 256, 256, H},
    /* Gemma4Config (008e57439125): Gemma4TextConfig; layer 0 slides with the class-default
     * sliding block (default RoPE at 10000, head_dim 256) */
    {"gemma4", TEXT, 0, PE_POSITION_ROPE, 10000, 131072, 256, 256, H},
    /* Llama4Config: Llama4TextConfig (500000, 131072, interleaved, every 4th layer NoPE) */
    {"llama4", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 500000,
     131072, 128, 128, I},
    {"llama4", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 3, PE_POSITION_NOPE, 0, 0, 0,
     0, H},
    /* Qwen3VLConfig / Qwen3VLMoeConfig: their text configs (128000; default_theta 500000 since
     * transformers 078ff685d3, as at 28af8184fb00) */
    {"qwen3_vl", TEXT, 0, PE_POSITION_ROPE, 500000, 128000, 128, 128, H},
    {"qwen3_vl_moe", TEXT, 0, PE_POSITION_ROPE, 500000, 128000, 128, 128, H},
    /* Qwen3_5Config: Qwen3_5TextConfig (partial 0.25, full_attention_interval 4, head_dim 256,
     * max_position_embeddings 32768) */
    {"qwen3_5", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_NONE, 0, 0, 0,
     0, H},
    {"qwen3_5", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 3, PE_POSITION_ROPE, 10000,
     32768, 256, 64, H},
    {"qwen3_5_moe", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 3, PE_POSITION_ROPE,
     10000, 32768, 256, 64, H},
    /* Kimi_K25Config (059101b2faba): "deepseek_v3" (4096, rope_interleave True; the rotated
     * width is DeepseekV3Config's qk_rope_head_dim 64) */
    {"kimi_k25", TEXT, 0, PE_POSITION_ROPE, 10000, 4096, 64, 64, I},
    /* AriaConfig: AriaTextConfig (max_position_embeddings 2048, no default_theta) */
    {"aria", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"aria_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* Idefics2Config: "mistral" (131072); Lfm2VlConfig: "lfm2" (1e6, 128000) */
    {"idefics2", TEXT, 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    {"lfm2_vl", TEXT, 0, PE_POSITION_ROPE, 1e6, 128000, 128, 128, H},
    {"lfm2-vl", TEXT, 0, PE_POSITION_ROPE, 1e6, 128000, 128, 128, H},
    /* "llama" (2048): PerceptionLM, VideoLlava, DeepseekVL(Hybrid), granitevision */
    {"perception_lm", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"video_llava", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"deepseek_vl", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"deepseek_vl_hybrid", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"granitevision", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* "qwen2" (32768): Ovis2, VideoLlama3, GotOcr2, FastVLM, AudioFlamingo3, VibeVoice-ASR */
    {"ovis2", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"video_llama_3", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"got_ocr2", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"fast_vlm", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"audioflamingo3", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"vibevoice_asr", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    /* LightOnOcrConfig: "qwen3" (32768) */
    {"lighton_ocr", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    /* ColPaliConfig: "gemma" (head_dim 256, 8192) */
    {"colpali", TEXT, 0, PE_POSITION_ROPE, 10000, 8192, 256, 256, H},
    /* Blip2Config / InstructBlip(Video)Config: "opt" (learned, 12 layers of 768 / 12) */
    {"blip-2", "\"text_config\":{}", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"instructblip", "\"text_config\":{}", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"instructblipvideo", "\"text_config\":{}", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* VoxtralConfig._default_text_config_kwargs: rope_theta 100000000.0, 131072, head_dim 128
     * (hidden 4096 / 32 heads would give 128 too: the row uses 2048 / 32 = 64) */
    {"voxtral", "\"text_config\":{\"hidden_size\":2048,\"num_attention_heads\":32}", 0,
     PE_POSITION_ROPE, 1e8, 131072, 128, 128, H},
    /* ... and a text_config that states a key keeps it ({**defaults, **text_config}) */
    {"voxtral", "\"text_config\":{" BASE ",\"rope_theta\":500000.0,\"head_dim\":64}", 0,
     PE_POSITION_ROPE, 500000, 131072, 64, 64, H},
    /* GlmAsrConfig._default_text_config_kwargs: 8192, rope_theta 10000 */
    {"glmasr", TEXT, 0, PE_POSITION_ROPE, 10000, 8192, 128, 128, H},
    /* VoxtralRealtimeConfig: rope_theta 1e6, 131072, head_dim 128 over
     * VoxtralRealtimeTextConfig(MistralConfig) */
    {"voxtral_realtime", "\"text_config\":{\"num_hidden_layers\":4,\"hidden_size\":3072,\"num_attention_heads\":32}", 0,
     PE_POSITION_ROPE, 1e6, 131072, 128, 128, H},
    {"voxtral_realtime_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},

    /* ---- decoder LMs ---- */
    /* "code_llama": LlamaConfig (10000, 2048) */
    {"code_llama", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* ApertusConfig: default block llama3 at rope_theta 12000000.0; 65536 */
    {"apertus", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 12e6, 65536, 128, 128, H},
    /* CwmConfig: llama3 block at 1e6, head_dim 128 (not 4096 / 64 = 64), 131072; layer 0
     * full, layer 1 sliding, both rotated */
    {"cwm", "\"hidden_size\":4096,\"num_attention_heads\":64,\"num_hidden_layers\":4", 1,
     PE_POSITION_ROPE, 1e6, 131072, 128, 128, H},
    /* Dots1Config: 2048, 10000 */
    {"dots1", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* VaultGemmaConfig: head_dim 256, 8192 */
    {"vaultgemma", BASE ",\"num_hidden_layers\":2", 1, PE_POSITION_ROPE, 10000, 8192, 256, 256, H},
    /* FlexOlmoConfig: default_theta 500000, 4096 */
    {"flex_olmo", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 500000, 4096, 128, 128, H},
    /* DiffLlamaConfig: 2048; Jais2Config: 8192 */
    {"diffllama", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"jais2", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 8192, 128, 128, H},
    /* JetMoeConfig: head_dim is kv_channels (default 128), 4096 */
    {"jetmoe", "\"num_hidden_layers\":4,\"hidden_size\":2048,\"num_attention_heads\":32", 0, PE_POSITION_ROPE, 10000, 4096,
     128, 128, H},
    {"jetmoe", "\"num_hidden_layers\":4," BASE ",\"kv_channels\":64", 0, PE_POSITION_ROPE, 10000, 4096, 64, 64, H},
    /* AfmoeConfig: head_dim 128, 16384; global_attn_every_n_layers 4: layer 0 sliding and
     * rotated, layer 3 global and unrotated */
    {"afmoe", "\"hidden_size\":2048,\"num_attention_heads\":32,\"num_hidden_layers\":4", 0,
     PE_POSITION_ROPE, 10000, 16384, 128, 128, H},
    {"afmoe", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"afmoe", BASE ",\"num_hidden_layers\":4,\"global_attn_every_n_layers\":2", 1,
     PE_POSITION_NOPE, 0, 0, 0, 0, H},
    /* OpenAIGPTConfig: 12 layers of n_embd 768 / 12 heads; GPT-2's for gpt-sw3 */
    {"openai-gpt", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"gpt-sw3", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* Mamba2Config: 64 layers, no attention */
    {"mamba2", "", 63, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* ---- vision / omni LMs with M-RoPE ---- */
    /* Glm4vTextConfig: 32768, partial 1.0; repeat_interleave + rotate_half_llm: interleaved */
    {"glm4v_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, I},
    {"glm4v", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, I},
    /* Glm46VConfig: text_config model_type default "glm4v_text" */
    {"glm46v", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, I},
    /* Glm4vMoeTextConfig: 65536, partial_rotary_factor 0.5 (64 of 128), rotate_half */
    {"glm4v_moe_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 65536, 128, 64, H},
    {"glm4v_moe", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 10000, 65536, 128, 64, H},
    /* GlmOcrTextConfig: 131072, rotate_half_llm (interleaved); GlmImageTextConfig: 131072,
     * rotate_half */
    {"glm_ocr_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, I},
    {"glm_ocr", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, I},
    {"glm_image_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    {"glm_image", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    /* PaddleOCRTextConfig: default_theta 500000, head_dim 128 (1024 / 16 would be 64), 131072 */
    {"paddleocr_vl_text", "\"num_hidden_layers\":4,\"hidden_size\":1024,\"num_attention_heads\":16", 0, PE_POSITION_ROPE,
     500000, 131072, 128, 128, H},
    {"paddleocr_vl", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 500000, 131072, 128, 128, H},
    /* Ernie4_5_VLMoeTextConfig: 500000, 131072; rotate_half_text pairs x[0::2], x[1::2] */
    {"ernie4_5_vl_moe_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 500000, 131072, 128, 128, I},
    {"ernie4_5_vl_moe", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 500000, 131072, 128, 128, I},
    /* Qwen2_5OmniTextConfig / Qwen3OmniMoeTextConfig: default_theta 1e6, 32768; the
     * thinker's text_config is the decoder */
    {"qwen2_5_omni_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    {"qwen2_5_omni", "\"thinker_config\":{" "\"text_config\":{\"num_hidden_layers\":4," BASE "}" "}", 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    /* the thinker configs on their own: their text_config */
    {"qwen2_5_omni_thinker", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    {"qwen3_omni_moe_thinker", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    {"qwen3_omni_moe_text", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    {"qwen3_omni_moe", "\"thinker_config\":{" "\"text_config\":{\"num_hidden_layers\":4," BASE "}" "}", 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128,
     H},
    /* Emu3TextConfig: default_theta 1e6, 9216; ChameleonConfig: 4096 */
    {"emu3_text_model", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 1e6, 9216, 128, 128, H},
    {"emu3", "\"text_config\":{\"num_hidden_layers\":4," BASE "}", 0, PE_POSITION_ROPE, 1e6, 9216, 128, 128, H},
    {"chameleon", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 4096, 128, 128, H},

    /* ---- hybrids: an attention layer and a layer without positions each ---- */
    /* BambaConfig: attention at attn_layer_indices, mamba elsewhere; partial 0.5, 262144 */
    {"bamba", BASE ",\"num_hidden_layers\":3,\"attn_layer_indices\":[1]", 1, PE_POSITION_ROPE,
     10000, 262144, 128, 64, H},
    {"bamba", BASE ",\"num_hidden_layers\":3,\"attn_layer_indices\":[1]", 0, PE_POSITION_NONE, 0,
     0, 0, 0, H},
    {"bamba", BASE ",\"num_hidden_layers\":3", 1, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* ... and kwargs["partial_rotary_factor"] = 0.5 overrides the file's 1.0 */
    {"bamba", BASE ",\"num_hidden_layers\":3,\"attn_layer_indices\":[1],\"partial_rotary_factor\":1.0",
     1, PE_POSITION_ROPE, 10000, 262144, 128, 64, H},
    /* ZambaConfig: mamba, mamba, hybrid, then hybrid at (i - 3) % 6 == 4 (layer 7); the
     * shared attention has no rotary */
    {"zamba", BASE ",\"num_hidden_layers\":8", 2, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"zamba", BASE ",\"num_hidden_layers\":8", 7, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"zamba", BASE ",\"num_hidden_layers\":8", 6, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* Zamba2Config: layers_block_type; hybrid layers NoPE unless use_mem_rope, then RoPE
     * at head_dim = attention_head_dim, 4096 */
    {"zamba2", BASE ",\"num_hidden_layers\":2,\"layers_block_type\":[\"mamba\",\"hybrid\"]", 1,
     PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"zamba2", BASE ",\"num_hidden_layers\":2,\"layers_block_type\":[\"mamba\",\"hybrid\"]", 0,
     PE_POSITION_NONE, 0, 0, 0, 0, H},
    {"zamba2", BASE ",\"num_hidden_layers\":2,\"layers_block_type\":[\"mamba\",\"hybrid\"],"
     "\"use_mem_rope\":true,\"attention_head_dim\":256", 1, PE_POSITION_ROPE, 10000, 4096, 256, 256,
     H},
    /* NemotronHConfig: hybrid_override_pattern "M-*E": mamba, mlp, attention (NoPE), moe;
     * without one, [mamba, moe, attention, moe] */
    {"nemotron_h", BASE ",\"num_hidden_layers\":4,\"hybrid_override_pattern\":\"M-*E\"", 2,
     PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"nemotron_h", BASE ",\"num_hidden_layers\":4,\"hybrid_override_pattern\":\"M-*E\"", 1,
     PE_POSITION_NONE, 0, 0, 0, 0, H},
    {"nemotron_h", BASE ",\"num_hidden_layers\":4", 2, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"nemotron_h", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* OlmoHybridConfig: full_attention at i % 4 == 3, linear_attention elsewhere; 65536 */
    {"olmo_hybrid", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_ROPE, 10000, 65536, 128, 128,
     H},
    {"olmo_hybrid", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* Lfm2MoeConfig: default_theta 1e6, 128000; conv layers see no positions */
    {"lfm2_moe", BASE ",\"num_hidden_layers\":2,\"layer_types\":[\"conv\",\"full_attention\"]", 1,
     PE_POSITION_ROPE, 1e6, 128000, 128, 128, H},
    {"lfm2_moe", BASE ",\"num_hidden_layers\":2,\"layer_types\":[\"conv\",\"full_attention\"]", 0,
     PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* ExaoneMoeConfig / Exaone4Config: sliding_window's class default 4096 makes the 4th
     * (global) layer NoPE when the key is absent; a null window rotates it */
    {"exaone_moe", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"exaone_moe", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"exaone_moe", BASE ",\"num_hidden_layers\":4,\"sliding_window\":null", 3, PE_POSITION_ROPE,
     10000, 2048, 128, 128, H},
    {"exaone4", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    /* xLSTMConfig: 32 blocks, no attention */
    {"xlstm", "", 31, PE_POSITION_NONE, 0, 0, 0, 0, H},

    /* ---- more decoder LMs ---- */
    {"doge", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* MiniMaxM2Config: default_theta 5e6, head_dim 128 (3072 / 48 would be 64), 196608 */
    {"minimax_m2", "\"num_hidden_layers\":4,\"hidden_size\":3072,\"num_attention_heads\":48", 0, PE_POSITION_ROPE, 5e6,
     196608, 128, 128, H},
    /* SolarOpenConfig: default_theta 1e6, head_dim 128, 131072, partial 1.0 */
    {"solar_open", "\"num_hidden_layers\":4,\"hidden_size\":3072,\"num_attention_heads\":48", 0, PE_POSITION_ROPE, 1e6,
     131072, 128, 128, H},
    /* HiggsAudioV2Config: head_dim 128, 2048 */
    {"higgs_audio_v2", "\"num_hidden_layers\":4,\"hidden_size\":2048,\"num_attention_heads\":32", 0, PE_POSITION_ROPE,
     10000, 2048, 128, 128, H},
    /* Phi4MultimodalConfig: 131072, partial 1.0 */
    {"phi4_multimodal", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    /* EvollaConfig: default_theta 500000, 8192 (under both its names) */
    {"evolla", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 500000, 8192, 128, 128, H},
    {"EvollaModel", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 500000, 8192, 128, 128, H},
    /* CsmConfig: default_theta 500000, 2048; MoshiConfig: 3000; KyutaiSpeechToTextConfig: 750 */
    {"csm", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 500000, 2048, 128, 128, H},
    /* CsmDepthDecoderConfig: default_theta 500000, max_position_embeddings 33 */
    {"csm_depth_decoder_model", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 500000, 33, 128, 128, H},
    {"moshi", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 3000, 128, 128, H},
    {"kyutai_speech_to_text", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 750, 128, 128, H},
    /* IdeficsEmbedding(head_dim): base 10000, max_position_embeddings 2048 */
    {"idefics", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* YoutuConfig: qk_rope_head_dim 64, 131072, rope_interleave True */
    {"youtu", "\"num_hidden_layers\":4,\"hidden_size\":2048,\"num_attention_heads\":16", 0, PE_POSITION_ROPE, 10000,
     131072, 64, 64, I},
    /* LongcatFlashConfig: default_theta 1e7, qk_rope_head_dim 64, 131072, interleaved */
    {"longcat_flash", "\"num_hidden_layers\":4,\"hidden_size\":2048,\"num_attention_heads\":16", 0, PE_POSITION_ROPE, 1e7,
     131072, 64, 64, I},
    /* ---- h25rest: model_types read at decba1d2ea4e (zucchini-nlp fork of transformers,
     * upstream main's history, 2026-08-19), rwkv7 at 4e654125f73a ---- */
    /* AXK1Config(DeepseekV3Config): qk_rope_head_dim 64, max_position_embeddings 32768,
     * rope_interleave default True (DeepseekV3Config), default_theta 10000 */
    {"axk1", BASE, 0, PE_POSITION_ROPE, 10000, 32768, 64, 64, I},
    {"axk1", BASE ",\"rope_interleave\":false", 0, PE_POSITION_ROPE, 10000, 32768, 64, 64, H},
    /* HyperCLOVAXConfig(GraniteConfig): 2048, theta 10000; head_dim = hidden // heads */
    {"hyperclovax", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* HYV3Config: default_theta 11_158_840.0, 131072, head_dim 128 */
    {"hy_v3", BASE, 0, PE_POSITION_ROPE, 11158840.0, 131072, 128, 128, H},
    /* MiniCPM3Config(LlamaConfig): 32768, head_dim = qk_rope_head_dim 32, Llama's
     * apply_rotary_pos_emb (half split) */
    {"minicpm3", BASE, 0, PE_POSITION_ROPE, 10000, 32768, 32, 32, H},
    /* DeepseekOcr2TextConfig(DeepseekV2Config): 2048, head_dim = hidden // heads,
     * LlamaRotaryEmbedding; DeepseekOcr2Config: text_config DeepseekOcr2TextConfig */
    {"deepseek_ocr2_text", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"deepseek_ocr2", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* Cosmos3OmniConfig: "qwen3_vl_text" (128000; default_theta 500000) */
    {"cosmos3_omni", TEXT, 0, PE_POSITION_ROPE, 500000, 128000, 128, 128, H},
    /* Exaone4_5_Config: "exaone4" (2048, theta 10000) */
    {"exaone4_5", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE,
     10000, 2048, 128, 128, H},
    /* QianfanOCRConfig, Qwen3ASRConfig: "qwen3" (32768, head_dim 128) */
    {"qianfan_ocr", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"qwen3_asr", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    /* MusicFlamingoConfig, PPChart2TableConfig (GotOcr2Config): "qwen2" (32768) */
    {"musicflamingo", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"pp_chart2table", TEXT, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    /* MiniCPMV4_6Config: "qwen3_5_text" (linear attention but every 4th layer; partial 0.25
     * of head_dim 256; 32768) */
    {"minicpmv4_6", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_NONE,
     0, 0, 0, 0, H},
    {"minicpmv4_6", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 3, PE_POSITION_ROPE,
     10000, 32768, 256, 64, H},
    /* GraniteSpeechPlusConfig(GraniteSpeechConfig): "granite" (2048) */
    {"granite_speech_plus", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* GlmgaConfig(Glm46VConfig): "glm4v_text" (32768, interleaved pairs) */
    {"glmga", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE, 10000,
     32768, 128, 128, I},
    /* Granite4VisionTextConfig(GraniteConfig): 2048; Granite4VisionConfig: its text family */
    {"granite4_vision_text", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"granite4_vision", TEXT, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* Rwkv7Config: attention-free, 12 layers */
    {"rwkv7", "", 11, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* LagunaConfig: all full_attention without layer_types (a sliding_window alone changes
     * nothing); class-default blocks per type: full 500000 rotating int(128 * 0.5) = 64,
     * sliding 10000 rotating 128 */
    {"laguna", BASE ",\"num_hidden_layers\":2,\"sliding_window\":512", 1, PE_POSITION_ROPE,
     500000, 131072, 128, 64, H},
    {"laguna", BASE ",\"layer_types\":[\"full_attention\",\"sliding_attention\"],"
     "\"num_hidden_layers\":2", 1, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    /* MellumConfig: the same rule, whole heads: full 500000, sliding 10000 */
    {"mellum", BASE ",\"num_hidden_layers\":2", 1, PE_POSITION_ROPE, 500000, 131072, 128, 128, H},
    {"mellum", BASE ",\"layer_types\":[\"sliding_attention\",\"full_attention\"],"
     "\"num_hidden_layers\":2", 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    {NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
};

static int plan_text(const char *json, pe_plan **p) { return pe_plan_from_config_json(json, strlen(json), p); }

/* The group's rules refuse, by name, what their class would not accept or
 * what posenc does not model; the wrappers' and hybrids' edges. */
TEST(families_decoders_refusals_and_edges) {
    pe_plan *p = NULL;
    /* NemotronHConfig._pattern_to_list: one character a layer, of M * - E */
    CHECK_ERROR(plan_text("{\"model_type\":\"nemotron_h\",\"num_hidden_layers\":3,"
                          "\"hybrid_override_pattern\":\"M*\"}", &p),
                PE_ERR_FORMAT, "'hybrid_override_pattern' has 2 layers but num_hidden_layers=3");
    CHECK_ERROR(plan_text("{\"model_type\":\"nemotron_h\",\"num_hidden_layers\":2,"
                          "\"hybrid_override_pattern\":\"MX\"}", &p),
                PE_ERR_FORMAT, "'hybrid_override_pattern'[1]='X' is not one of M, *, -, E");
    /* BambaConfig: an attention index no layer has */
    CHECK_ERROR(plan_text("{\"model_type\":\"bamba\",\"num_hidden_layers\":2,"
                          "\"attn_layer_indices\":[2]}", &p),
                PE_ERR_FORMAT, "'attn_layer_indices'[0] must be a layer index in [0, 2)");
    /* Zamba2 without layers_block_type: its class's 54-entry list is not restated */
    CHECK_ERROR(plan_text("{\"model_type\":\"zamba2\",\"num_hidden_layers\":2}", &p),
                PE_ERR_UNSUPPORTED, "model_type 'zamba2' needs 'layers_block_type'");
    CHECK_ERROR(plan_text("{\"model_type\":\"zamba\",\"num_hidden_layers\":2}", &p),
                PE_ERR_FORMAT, "Zamba's layer schedule starts with 3 fixed layers");
    /* a wrapper without its text_config */
    CHECK_ERROR(plan_text("{\"model_type\":\"voxtral\",\"head_dim\":64}", &p), PE_ERR_UNSUPPORTED,
                "model_type 'voxtral' keeps its decoder in text_config, which this file lacks");
    /* refusals say why */
    CHECK_ERROR(plan_text("{\"model_type\":\"nanochat\"}", &p), PE_ERR_UNSUPPORTED,
                "model_type 'nanochat': NanoChat rotates by -theta");
    CHECK_ERROR(plan_text("{\"model_type\":\"colqwen2\",\"vlm_config\":{}}", &p),
                PE_ERR_UNSUPPORTED, "inside vlm_config (a Qwen2-VL config)");
    /* Dots1Config: a null sliding_window leaves every layer full attention; the class
     * default (4096) makes layers >= max_window_layers slide */
    CHECK_OK(plan_text("{\"model_type\":\"dots1\"," BASE ",\"num_hidden_layers\":3,"
                       "\"max_window_layers\":1,\"sliding_window\":null}", &p));
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 2, &L));
        CHECK(strcmp(L.layer_type, "full_attention") == 0);
        pe_plan_free(p);
        p = NULL;
    }
    CHECK_OK(plan_text("{\"model_type\":\"dots1\"," BASE ",\"num_hidden_layers\":3,"
                       "\"max_window_layers\":1}", &p));
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 0, &L));
        CHECK(strcmp(L.layer_type, "full_attention") == 0);
        CHECK_OK(pe_plan_layer_info(p, 1, &L));
        CHECK(strcmp(L.layer_type, "sliding_attention") == 0 && L.rope);
        pe_plan_free(p);
        p = NULL;
    }
    /* Bamba: a file's partial_rotary_factor is overridden, and the plan says so */
    CHECK_OK(plan_text("{\"model_type\":\"bamba\"," BASE ",\"num_hidden_layers\":1,"
                       "\"attn_layer_indices\":[0],\"partial_rotary_factor\":1.0}", &p));
    if (p != NULL) {
        bool warned = false;
        for (int64_t w = 0; w < pe_plan_num_warnings(p); w++)
            if (strstr(pe_plan_warning(p, w), "partial_rotary_factor") != NULL) warned = true;
        CHECK(warned);
        pe_plan_free(p);
    }
}

/* The layer count and head of a config that gives only its model_type, for the
 * records h25rest added: each class's own defaults, restated from the files named
 * in their rows (decba1d2ea4e; rwkv7 at 4e654125f73a). Refusals name their reason. */
TEST(families_decoders_newer_class_counts) {
    static const struct {
        const char *model_type;
        int64_t layers, head_dim; /* head_dim 0: no RoPE layer */
    } cases[] = {
        {"axk1", 61, 64},                /* num_hidden_layers 61, qk_rope_head_dim 64 */
        {"hyperclovax", 32, 128},        /* GraniteConfig: 4096 / 32 */
        {"hy_v3", 80, 128},              /* head_dim 128 */
        {"minicpm3", 62, 32},            /* qk_rope_head_dim 32 */
        {"deepseek_ocr2_text", 32, 128}, /* DeepseekV2Config: 4096 / 32 */
        {"granite4_vision_text", 32, 128},
        {"rwkv7", 12, 0},                /* attention-free */
        {"laguna", 40, 128},             /* head_dim 128 */
        {"mellum", 28, 128},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char json[96];
        snprintf(json, sizeof json, "{\"model_type\":\"%s\"}", cases[i].model_type);
        pe_plan *p = NULL;
        int st = plan_text(json, &p);
        CHECK_MSG(st == PE_OK, "%s: %s", json, pe_last_error());
        if (st != PE_OK) continue;
        CHECK_MSG(pe_plan_num_layers(p) == cases[i].layers, "%s: %lld layers, want %lld",
                  cases[i].model_type, (long long)pe_plan_num_layers(p),
                  (long long)cases[i].layers);
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 0, &L));
        CHECK_MSG(L.rope == (cases[i].head_dim > 0), "%s: layer 0 rope %d", cases[i].model_type,
                  (int)L.rope);
        if (cases[i].head_dim > 0)
            CHECK_MSG(L.head_dim == cases[i].head_dim, "%s: head_dim %lld, want %lld",
                      cases[i].model_type, (long long)L.head_dim, (long long)cases[i].head_dim);
        pe_plan_free(p);
    }
    static const struct {
        const char *model_type, *why;
    } refused[] = {
        {"axk2", "DeepSeek Sparse Attention indexer"},
        {"mimo_v2_flash", "(i + 1) % 6 == 0"},
        {"hrm_text", "several times per token"},
        {"inkling_text", "relative position bias"},
        {"gemma4_assistant", "target's positions"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char json[96];
        snprintf(json, sizeof json, "{\"model_type\":\"%s\"}", refused[i].model_type);
        pe_plan *p = NULL;
        CHECK_ERROR(plan_text(json, &p), PE_ERR_UNSUPPORTED, refused[i].why);
        CHECK(p == NULL);
    }
}
