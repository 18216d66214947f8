/* test_families.c — one row per record of the family registry
 * (src/families_hf.c), each restating from the family's transformers
 * source (configuration_<model>.py class defaults, modeling_<model>.py
 * rules) what a config that leaves the key out gets: the positional kind of
 * a layer, the RoPE base, max_position_embeddings, head and rotary dims and
 * pair layout, or the ALiBi / T5 / learned / sinusoidal parameters. A
 * record without a row fails, so a family cannot be added untested. */
#include "family_rows.h"
#include "fixture_configs.h"
#include "runner.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

const row family_rows_first[] = {
    /* configuration_llama.py: rope_theta 10000, max_position_embeddings 2048 */
    {"llama", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* configuration_mistral.py: 10000, 4096 * 32 */
    {"mistral", BASE, 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    /* configuration_mixtral.py: 1e6, 4096 * 32 */
    {"mixtral", BASE, 0, PE_POSITION_ROPE, 1e6, 131072, 128, 128, H},
    {"ministral", BASE, 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    /* configuration_ministral3.py: default_theta 1e6, head_dim 128. (The class also
     * defaults max_position_embeddings to 262144 and rope_parameters to a YaRN block:
     * not in the record yet, see docs/FAMILIES.md §2.) */
    {"ministral3", BASE, 0, PE_POSITION_ROPE, 1e6, 0, 128, 128, H},
    {"granite", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"granitemoe", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* configuration_llama4.py: rope_theta 500000, 4096 * 32; no_rope_layer_interval 4
     * makes layer 3 NoPE; modeling_llama4.py: complex (interleaved) RoPE */
    {"llama4_text", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 500000, 131072, 128, 128, I},
    {"llama4_text", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    /* configuration_smollm3.py: rope_theta 2e6, 32768, no_rope_layer_interval 4 */
    {"smollm3", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 2e6, 32768, 128, 128, H},
    {"smollm3", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    /* configuration_qwen2.py / qwen2_moe / qwen3 / qwen3_moe: 10000, 32768 */
    {"qwen2", BASE, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"qwen2_moe", BASE, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"qwen3", BASE, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"qwen3_moe", BASE, 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    /* configuration_qwen3_next.py: partial_rotary_factor 0.25, full_attention_interval 4:
     * layers 0-2 linear attention (no positions), layer 3 full; head_dim 256 (the class
     * default, whatever hidden_size / num_attention_heads give), so 64 rotated; Qwen 3.5:
     * max_position_embeddings 32768 (transformers 28af8184fb00) */
    {"qwen3_next", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_NONE, 0, 0, 0, 0, H},
    {"qwen3_next", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_ROPE, 10000, 32768, 256, 64, H},
    {"qwen3_5_text", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_ROPE, 10000, 32768, 256, 64, H},
    {"qwen3_5_moe_text", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_ROPE, 10000, 32768, 256, 64, H},
    /* configuration_qwen2_vl.py / qwen2_5_vl.py: rope_theta 1e6, 32768 */
    {"qwen2_vl", BASE, 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    {"qwen2_vl_text", BASE, 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    {"qwen2_5_vl", BASE, 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    {"qwen2_5_vl_text", BASE, 0, PE_POSITION_ROPE, 1e6, 32768, 128, 128, H},
    /* configuration_qwen3_vl.py / qwen3_vl_moe: default_theta 500000 (v5, since
     * transformers 078ff685d3 of 2025-11-28; v4's rope_theta default was 5e6), 128000 */
    {"qwen3_vl_text", BASE, 0, PE_POSITION_ROPE, 500000, 128000, 128, 128, H},
    {"qwen3_vl_moe_text", BASE, 0, PE_POSITION_ROPE, 500000, 128000, 128, 128, H},
    /* configuration_phi.py: partial_rotary_factor 0.5, 2048 */
    {"phi", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 64, H},
    {"phi3", BASE, 0, PE_POSITION_ROPE, 10000, 4096, 128, 128, H},
    {"phimoe", BASE, 0, PE_POSITION_ROPE, 1e6, 131072, 128, 128, H},
    /* configuration_gpt_neox.py: rotary_pct 0.25, rotary_emb_base 10000, 2048 */
    {"gpt_neox", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 32, H},
    {"stablelm", BASE, 0, PE_POSITION_ROPE, 10000, 4096, 128, 32, H},
    /* configuration_gptj.py / codegen.py: n_positions 2048; rotate_every_two */
    {"gptj", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, I},
    {"codegen", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, I},
    {"starcoder2", BASE, 0, PE_POSITION_ROPE, 10000, 4096, 128, 128, H},
    {"olmo", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"olmo2", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"olmo3", BASE, 0, PE_POSITION_ROPE, 500000, 2048, 128, 128, H},
    /* configuration_gemma*.py: head_dim 256; Gemma 2 layer 0 slides; Gemma 3 / 3n
     * sliding layers at rope_local_base_freq 10000 */
    {"gemma", BASE, 0, PE_POSITION_ROPE, 10000, 8192, 256, 256, H},
    {"gemma2", BASE, 0, PE_POSITION_ROPE, 10000, 8192, 256, 256, H},
    {"gemma3_text", BASE, 0, PE_POSITION_ROPE, 10000, 131072, 256, 256, H},
    {"gemma3_text", BASE ",\"num_hidden_layers\":6", 5, PE_POSITION_ROPE, 1e6, 131072, 256, 256, H},
    {"gemma3n_text", BASE ",\"num_hidden_layers\":5", 4, PE_POSITION_ROPE, 1e6, 32768, 256, 256, H},
    /* configuration_gemma4.py: sliding default RoPE at 10000 on head_dim 256 */
    {"gemma4_text", BASE, 0, PE_POSITION_ROPE, 10000, 131072, 256, 256, H},
    /* configuration_cohere.py: rope_theta 500000 (v5 default_theta), 8192;
     * rotate interleaved */
    {"cohere", BASE, 0, PE_POSITION_ROPE, 500000, 8192, 128, 128, I},
    /* Cohere 2: sliding layers rotate, the 4th (full) does not */
    {"cohere2", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 500000, 8192, 128, 128, I},
    {"cohere2", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    /* configuration_glm.py / glm4.py: partial_rotary_factor 0.5, 131072, interleaved */
    {"glm", BASE, 0, PE_POSITION_ROPE, 10000, 131072, 128, 64, I},
    {"glm4", BASE, 0, PE_POSITION_ROPE, 10000, 131072, 128, 64, I},
    {"glm4_moe", BASE, 0, PE_POSITION_ROPE, 10000, 131072, 128, 64, H},
    /* configuration_gpt_oss.py: rope_theta 150000, 131072, head_dim 64 (class default) */
    {"gpt_oss", BASE, 0, PE_POSITION_ROPE, 150000, 131072, 64, 64, H},
    {"hunyuan_v1_dense", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"hunyuan_v1_moe", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* configuration_deepseek_v2.py: 2048; v3: 4096, rope_interleave True; both set
     * head_dim = qk_rope_head_dim (class default 64) */
    {"deepseek_v2", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 64, 64, I},
    {"deepseek_v3", BASE, 0, PE_POSITION_ROPE, 10000, 4096, 64, 64, I},
    /* Kimi K2 (remote code; its configuration file not read): no class defaults
     * stated, so the row gives the layer count */
    {"kimi_k2", BASE ",\"num_hidden_layers\":2", 0, PE_POSITION_ROPE, 10000, 4096, 128, 128, I},
    /* modular_glm4_moe_lite.py: qk_rope_head_dim 64, 202752, rope_interleave True */
    {"glm4_moe_lite", "\"hidden_size\":2048,\"num_attention_heads\":20", 0, PE_POSITION_ROPE, 10000,
     202752, 64, 64, I},
    /* configuration_falcon.py: hidden_size 4544, num_attention_heads 71, rope_theta
     * 10000, 2048, alibi False */
    {"falcon", "\"num_hidden_layers\":1", 0, PE_POSITION_ROPE, 10000, 2048, 64, 64, H},
    {"falcon", "\"alibi\":true", 0, PE_POSITION_ALIBI, 0, 0, 64, 0, H},
    {"bloom", "", 1, PE_POSITION_ALIBI, 0, 0, 8, 0, H},
    {"mpt", "", 23, PE_POSITION_ALIBI, 0, 0, 128, 0, H},
    {"gpt2", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"opt", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"gpt_neo", "", 23, PE_POSITION_LEARNED, 0, 0, 128, 0, H},
    {"gpt_bigcode", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"xglm", "", 23, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    {"bert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"roberta", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"xlm-roberta", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"t5", "", 11, PE_POSITION_T5, 0, 0, 0, 0, H},
    {"mt5", "", 15, PE_POSITION_T5, 0, 0, 0, 0, H},
    {"umt5", "", 15, PE_POSITION_T5, 0, 0, 0, 0, H},
    /* configuration_exaone4.py: sliding_window 4096, pattern 4, 2048: layer 3 is
     * global and (window set) unrotated; without a window every layer rotates */
    {"exaone4", BASE ",\"num_hidden_layers\":4", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"exaone4", BASE ",\"num_hidden_layers\":4,\"sliding_window\":4096", 3, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"exaone4", BASE ",\"num_hidden_layers\":4,\"sliding_window\":null,\"layer_types\":"
                "[\"full_attention\",\"full_attention\",\"full_attention\",\"full_attention\"]",
     3, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* configuration_lfm2.py: rope_theta 1e6, 128000; conv layers see no positions */
    {"lfm2", BASE ",\"num_hidden_layers\":2,\"layer_types\":[\"conv\",\"full_attention\"]", 1,
     PE_POSITION_ROPE, 1e6, 128000, 128, 128, H},
    {"lfm2", BASE ",\"num_hidden_layers\":2,\"layer_types\":[\"conv\",\"full_attention\"]", 0,
     PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* Lfm2Config without layer_types: "full_attention" if i in full_attn_idxs else
     * "conv"; full_attn_idxs defaults to range(num_hidden_layers); the base is
     * kwargs.get("theta", kwargs.get("rope_theta", 1000000.0)) */
    {"lfm2", BASE ",\"num_hidden_layers\":3,\"full_attn_idxs\":[1]", 0, PE_POSITION_NONE, 0, 0, 0,
     0, H},
    {"lfm2", BASE ",\"num_hidden_layers\":3,\"full_attn_idxs\":[1]", 1, PE_POSITION_ROPE, 1e6,
     128000, 128, 128, H},
    {"lfm2", BASE ",\"num_hidden_layers\":3,\"full_attn_idxs\":[1]", 2, PE_POSITION_NONE, 0, 0, 0,
     0, H},
    {"lfm2", BASE ",\"num_hidden_layers\":3", 2, PE_POSITION_ROPE, 1e6, 128000, 128, 128, H},
    {"lfm2", BASE ",\"num_hidden_layers\":2,\"layer_types\":[\"conv\",\"full_attention\"],"
                "\"full_attn_idxs\":[0]", 0, PE_POSITION_NONE, 0, 0, 0, 0, H},
    {"lfm2", BASE ",\"theta\":500000.0", 0, PE_POSITION_ROPE, 500000, 128000, 128, 128, H},
    /* configuration_jamba.py: attn_layer_period 8, attn_layer_offset 4; no rotary */
    {"jamba", BASE ",\"num_hidden_layers\":8", 4, PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"jamba", BASE ",\"num_hidden_layers\":8", 3, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* configuration_granitemoehybrid.py: position_embedding_type None (no positions),
     * "rope" rotates at 10000 / 2048; layers all mamba without layer_types */
    {"granitemoehybrid", BASE ",\"num_hidden_layers\":2,\"layer_types\":[\"mamba\",\"attention\"]", 1,
     PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"granitemoehybrid", BASE ",\"num_hidden_layers\":2,\"layer_types\":[\"mamba\",\"attention\"],"
     "\"position_embedding_type\":\"rope\"", 1, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"granitemoehybrid", BASE ",\"num_hidden_layers\":2", 1, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* configuration_mllama.py: rope_theta 500000, 131072; cross-attention layers */
    {"mllama_text_model", BASE ",\"num_hidden_layers\":4,\"cross_attention_layers\":[3]", 0,
     PE_POSITION_ROPE, 500000, 131072, 128, 128, H},
    {"mllama_text_model", BASE ",\"num_hidden_layers\":4,\"cross_attention_layers\":[3]", 3,
     PE_POSITION_NONE, 0, 0, 0, 0, H},
    {"mllama", BASE ",\"num_hidden_layers\":4,\"cross_attention_layers\":[1]", 1,
     PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* configuration_ernie4_5.py: default_theta 500000, 131072, head_dim 128;
     * modular_ernie4_5.py pairs interleaved */
    {"ernie4_5", "\"hidden_size\":1024,\"num_attention_heads\":16", 0, PE_POSITION_ROPE, 500000,
     131072, 128, 128, I},
    {"ernie4_5_moe", BASE, 0, PE_POSITION_ROPE, 500000, 131072, 128, 128, I},
    /* configuration_nemotron.py: partial_rotary_factor 0.5, 4096; persimmon: 0.5,
     * rope_theta 25000, 16384 */
    {"nemotron", BASE, 0, PE_POSITION_ROPE, 10000, 4096, 128, 64, H},
    {"persimmon", BASE, 0, PE_POSITION_ROPE, 25000, 16384, 128, 64, H},
    /* LlavaConfig: a text_config without model_type is a LlamaConfig (2048 max) */
    {"llava", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"llava_next", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"vipllava", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"janus", "\"text_config\":{" BASE ",\"model_type\":\"qwen2\"}", 0, PE_POSITION_ROPE, 10000,
     32768, 128, 128, H},
    /* issue #25 coverage (transformers 008e5743 unless the row says otherwise) */
    /* configuration_olmoe.py: max_position_embeddings 4096, no default_theta (10000) */
    {"olmoe", BASE, 0, PE_POSITION_ROPE, 10000, 4096, 128, 128, H},
    /* configuration_arcee.py: 4096; head_dim hidden_size // num_attention_heads */
    {"arcee", BASE, 0, PE_POSITION_ROPE, 10000, 4096, 128, 128, H},
    /* configuration_helium.py: default_theta 100000, head_dim 128 even with hidden 2048 /
     * 32 heads, 4096; modeling_helium.py: repeat_interleave cos/sin (interleaved pairs) */
    {"helium", "\"hidden_size\":2048,\"num_attention_heads\":32", 0, PE_POSITION_ROPE, 100000,
     4096, 128, 128, I},
    /* Mistral3Config: a text_config without model_type is a MistralConfig (131072) */
    {"mistral3", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 131072, 128, 128, H},
    /* MambaConfig: 32 layers, all mixers without attention */
    {"mamba", "", 31, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* configuration_granitemoeshared.py: rope_theta 10000, 2048 */
    {"granitemoeshared", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* configuration_bitnet.py: rope_theta 500000, 2048 */
    {"bitnet", BASE, 0, PE_POSITION_ROPE, 500000, 2048, 128, 128, H},
    /* configuration_seed_oss.py: 524288, head_dim 128 (hidden 4096 / 80 heads is not 128) */
    {"seed_oss", "\"hidden_size\":4096,\"num_attention_heads\":80", 0, PE_POSITION_ROPE, 10000,
     524288, 128, 128, H},
    /* FalconMambaConfig / RwkvConfig: 32 layers, none attend over positions */
    {"falcon_mamba", "", 31, PE_POSITION_NONE, 0, 0, 0, 0, H},
    {"rwkv", "", 31, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* wrappers: a text_config without model_type is the wrapper's default text family
     * (LlavaOnevision, InternVL: Qwen2Config 32768; PaliGemma: GemmaConfig head_dim 256,
     * 8192; the rest LlamaConfig 2048) */
    {"llava_onevision", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"internvl", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"paligemma", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 8192, 256, 256, H},
    {"llava_next_video", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"aya_vision", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"idefics3", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"smolvlm", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* configuration_falcon_h1.py: 8192, no default_theta; every layer hybrid (attention
     * with Llama's RoPE beside the mixer) */
    {"falcon_h1", BASE ",\"num_hidden_layers\":2", 1, PE_POSITION_ROPE, 10000, 8192, 128, 128, H},
    /* BioGptConfig: 24 layers of hidden 1024 / 16 heads */
    {"biogpt", "", 23, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* CamembertConfig: 12 x 768 / 12; XLMRobertaXLConfig: 36 x 2560 / 32 */
    {"camembert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"xlm-roberta-xl", "", 35, PE_POSITION_LEARNED, 0, 0, 80, 0, H},
    /* RecurrentGemmaConfig: block_types (recurrent, recurrent, attention) repeated;
     * partial_rotary_factor 0.5, rope_theta 10000, no max_position_embeddings */
    {"recurrent_gemma", BASE ",\"num_hidden_layers\":6", 1, PE_POSITION_NONE, 0, 0, 0, 0, H},
    {"recurrent_gemma", BASE ",\"num_hidden_layers\":6", 5, PE_POSITION_ROPE, 10000, 0, 128, 64, H},
    {"recurrent_gemma", BASE ",\"num_hidden_layers\":2,\"block_types\":[\"attention\",\"recurrent\"]",
     0, PE_POSITION_ROPE, 10000, 0, 128, 64, H},
    /* MiniMaxConfig: default_theta 1e6, 4096 * 32; layer 0 full, layer 1 linear */
    {"minimax", BASE ",\"num_hidden_layers\":4", 2, PE_POSITION_ROPE, 1e6, 131072, 128, 128, H},
    {"minimax", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_NONE, 0, 0, 0, 0, H},
    /* GPTNeoXJapaneseConfig: 2048; rotary_pct default 1.0 (whole head), rotary_emb_base
     * read as the base */
    {"gpt_neox_japanese", BASE, 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    {"gpt_neox_japanese", BASE ",\"rotary_pct\":0.25,\"rotary_emb_base\":20000", 0,
     PE_POSITION_ROPE, 20000, 2048, 128, 32, H},
    /* Qwen2AudioConfig: a text_config without model_type is a Qwen2Config (32768);
     * GraniteSpeechConfig: an llm_config without one is a GraniteConfig (2048) */
    {"qwen2_audio", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 32768, 128, 128, H},
    {"granite_speech", "\"llm_config\":{" BASE "}", 0, PE_POSITION_ROPE, 10000, 2048, 128, 128, H},
    /* CTRLConfig: 48 layers of n_embd 1280 / 16 heads */
    {"ctrl", "", 47, PE_POSITION_SINUSOIDAL, 0, 0, 80, 0, H},
    /* FuyuConfig: text_config is a PersimmonConfig (partial 0.5, 25000, 16384);
     * Cohere2VisionConfig: a Cohere2Config (500000, 8192, interleaved) */
    {"fuyu", "\"text_config\":{" BASE "}", 0, PE_POSITION_ROPE, 25000, 16384, 128, 64, H},
    {"cohere2_vision", "\"text_config\":{" BASE ",\"num_hidden_layers\":4}", 0, PE_POSITION_ROPE,
     500000, 8192, 128, 128, I},
    /* Data2VecTextConfig / RobertaPreLayerNormConfig: 12 x 768 / 12 */
    {"data2vec-text", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"roberta-prelayernorm", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* ErnieConfig: 12 x 768 / 12; MegatronBertConfig: 24 x 1024 / 16 */
    {"ernie", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"megatron-bert", "", 23, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
};

static pe_plan *plan_of(const row *r) {
    char json[512];
    snprintf(json, sizeof json, "{\"model_type\":\"%s\"%s%s}", r->model_type,
             r->json[0] ? "," : "", r->json);
    pe_plan *p = NULL;
    int st = pe_plan_from_config_json(json, strlen(json), &p);
    CHECK_MSG(st == PE_OK, "%s: %s", json, pe_last_error());
    return st == PE_OK ? p : NULL;
}

static void check_row(const row *r) {
    pe_plan *p = plan_of(r);
    if (p == NULL) return;
    pe_plan_position pos;
    pe_plan_layer L;
    CHECK_OK(pe_plan_layer_position(p, r->layer, &pos));
    CHECK_OK(pe_plan_layer_info(p, r->layer, &L));
    CHECK_MSG(pos.kind == r->kind, "%s layer %lld: kind %s, want %s", r->model_type,
              (long long)r->layer, pe_position_kind_name(pos.kind), pe_position_kind_name(r->kind));
    CHECK_MSG(L.rope == (r->kind == PE_POSITION_ROPE), "%s: rope flag", r->model_type);
    if (r->kind == PE_POSITION_ROPE && L.rope) {
        CHECK_MSG(L.base == r->base && L.max_position == r->max_position &&
                      L.head_dim == r->head_dim && L.rotary_dim == r->rotary_dim &&
                      L.layout == r->layout && L.layout_known,
                  "%s layer %lld: base %g max %lld head %lld rotary %lld layout %d, want %g %lld "
                  "%lld %lld %d", r->model_type, (long long)r->layer, L.base,
                  (long long)L.max_position, (long long)L.head_dim, (long long)L.rotary_dim,
                  (int)L.layout, r->base, (long long)r->max_position, (long long)r->head_dim,
                  (long long)r->rotary_dim, (int)r->layout);
    } else if (r->head_dim > 0) {
        CHECK_MSG(L.head_dim == r->head_dim, "%s: head_dim %lld, want %lld", r->model_type,
                  (long long)L.head_dim, (long long)r->head_dim);
    }
    pe_plan_free(p);
}

static const row *const groups[] = {family_rows_first, family_rows_decoders,
                                   family_rows_encoders, family_rows_other};

TEST(families_every_record_has_a_class_default_row) {
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
        for (const row *r = groups[g]; r->model_type != NULL; r++) check_row(r);
    for (int64_t f = 0; f < pe_family_count(); f++) {
        pe_family_info info;
        CHECK_OK(pe_family_get(f, &info));
        bool tested = false;
        for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
            for (const row *r = groups[g]; r->model_type != NULL; r++)
                if (strcmp(r->model_type, info.model_type) == 0) tested = true;
        CHECK_MSG(tested || info.refusal != NULL, "record '%s' has no class-default row",
                  info.model_type);
        CHECK_MSG(info.source != NULL && info.source[0] != '\0', "record '%s' names no source",
                  info.model_type);
        CHECK_MSG(info.kinds != 0, "record '%s' states no positional kind", info.model_type);
    }
    pe_family_info info;
    CHECK_ERROR(pe_family_get(pe_family_count(), &info), PE_ERR_RANGE, "family index");
    CHECK_ERROR(pe_family_get(0, NULL), PE_ERR_NULL, "out");
}

/* The non-RoPE families' parameters, restated from their sources. */
TEST(families_non_rope_parameters) {
    pe_plan *p = NULL;
    /* BloomConfig: n_head 8; build_alibi_tensor: 2^(-(h+1)) for 8 heads. */
    const char *bloom = "{\"model_type\":\"bloom\"}";
    CHECK_OK(pe_plan_from_config_json(bloom, strlen(bloom), &p));
    if (p != NULL) {
        pe_plan_alibi a;
        double exact[8], hf[8];
        CHECK(pe_plan_num_layers(p) == 2);
        CHECK_OK(pe_plan_layer_alibi(p, 1, &a));
        CHECK(a.heads == 8 && a.rule == PE_ALIBI_SLOPES_PRESS && a.hf_slope_dtype == PE_F32 &&
              a.causal == 1 && a.max_bias == 8.0);
        CHECK_OK(pe_plan_layer_alibi_slopes(p, 1, exact, hf));
        for (int h = 0; h < 8; h++) CHECK(exact[h] == ldexp(1.0, -(h + 1)) && hf[h] == exact[h]);
        CHECK_ERROR(pe_plan_layer_t5(p, 0, &(pe_plan_t5){0}), PE_ERR_PARAM, "has alibi positions, not t5");
        CHECK_ERROR(pe_plan_layer_freqs(p, 0, 0, &(pe_freqs){0}, NULL), PE_ERR_PARAM, "its positions are alibi");
        pe_plan_free(p);
    }
    /* MptConfig: n_heads 16, n_layers 24; 12 heads: c = 16, the odd j first
     * (2^-1, 2^-2, ..., 2^-8 for j = 1, 3, ..., 15), then 2^-0.5, 2^-1.5, ... */
    const char *mpt = "{\"model_type\":\"mpt\",\"n_heads\":12,\"d_model\":768,"
                      "\"attn_config\":{\"alibi_bias_max\":4}}";
    CHECK_OK(pe_plan_from_config_json(mpt, strlen(mpt), &p));
    if (p != NULL) {
        double exact[12];
        CHECK(pe_plan_num_layers(p) == 24);
        CHECK_OK(pe_plan_layer_alibi_slopes(p, 0, exact, NULL));
        for (int h = 0; h < 8; h++) CHECK(exact[h] == ldexp(1.0, -(h + 1)));
        /* 1e-16: the library's long double; valgrind runs long double as
         * double, an ulp of 0.7 (pe_test_ld_eps) */
        for (int h = 8; h < 12; h++)
            CHECK_NEAR(exact[h], pow(2.0, -0.5 - (h - 8)), 1e-16 + 2 * pe_test_ld_eps());
        bool warned = false;
        for (int64_t w = 0; w < pe_plan_num_warnings(p); w++)
            if (strstr(pe_plan_warning(p, w), "'attn_config.alibi_bias_max': HF's MptModel") != NULL)
                warned = true;
        CHECK(warned);
        pe_plan_free(p);
    }
    /* OPTConfig: max_position_embeddings 2048; OPTLearnedPositionalEmbedding offset 2. */
    const char *opt = "{\"model_type\":\"opt\"}";
    CHECK_OK(pe_plan_from_config_json(opt, strlen(opt), &p));
    if (p != NULL) {
        pe_plan_learned l;
        CHECK_OK(pe_plan_layer_learned(p, 11, &l));
        CHECK(l.rows == 2050 && l.offset == 2 && l.dim == 768 && pe_plan_num_layers(p) == 12);
        pe_plan_free(p);
    }
    /* RoBERTa: 514 rows in its files, positions from padding_idx + 1 = 2;
     * BERT's relative_key variants are refused. */
    const char *roberta = "{\"model_type\":\"roberta\",\"max_position_embeddings\":514}";
    CHECK_OK(pe_plan_from_config_json(roberta, strlen(roberta), &p));
    if (p != NULL) {
        pe_plan_learned l;
        CHECK_OK(pe_plan_layer_learned(p, 0, &l));
        CHECK(l.rows == 514 && l.offset == 2 && l.dim == 768);
        pe_plan_free(p);
    }
    /* BioGPT: OPT's table (1024 + 2 rows at position + 2); XLM-R XL: 514 rows from 2. */
    const char *biogpt = "{\"model_type\":\"biogpt\"}";
    CHECK_OK(pe_plan_from_config_json(biogpt, strlen(biogpt), &p));
    if (p != NULL) {
        pe_plan_learned l;
        CHECK_OK(pe_plan_layer_learned(p, 23, &l));
        CHECK(l.rows == 1026 && l.offset == 2 && l.dim == 1024 && pe_plan_num_layers(p) == 24);
        pe_plan_free(p);
    }
    const char *xlmr_xl = "{\"model_type\":\"xlm-roberta-xl\"}";
    CHECK_OK(pe_plan_from_config_json(xlmr_xl, strlen(xlmr_xl), &p));
    if (p != NULL) {
        pe_plan_learned l;
        CHECK_OK(pe_plan_layer_learned(p, 0, &l));
        CHECK(l.rows == 514 && l.offset == 2 && l.dim == 2560);
        pe_plan_free(p);
    }
    /* Megatron-BERT: BERT's table, 512 rows from position 0, 1024 wide. */
    const char *megatron = "{\"model_type\":\"megatron-bert\"}";
    CHECK_OK(pe_plan_from_config_json(megatron, strlen(megatron), &p));
    if (p != NULL) {
        pe_plan_learned l;
        CHECK_OK(pe_plan_layer_learned(p, 23, &l));
        CHECK(l.rows == 512 && l.offset == 0 && l.dim == 1024 && pe_plan_num_layers(p) == 24);
        pe_plan_free(p);
    }
    /* A RoPE key in a learned-position family is a warning, not a plan. */
    const char *gpt2 = "{\"model_type\":\"gpt2\",\"rope_theta\":10000,\"rope_scaling\":null}";
    CHECK_OK(pe_plan_from_config_json(gpt2, strlen(gpt2), &p));
    if (p != NULL) {
        CHECK(pe_plan_num_warnings(p) == 1 && pe_plan_num_rope_kinds(p) == 0);
        const char *w = pe_plan_warning(p, 0);
        CHECK(w != NULL && strcmp(w, "'rope_theta': model_type 'gpt2' has learned positions "
                                     "and its code does not read it; ignored") == 0);
        pe_plan_free(p);
    }
    const char *bert_rel = "{\"model_type\":\"bert\",\"position_embedding_type\":\"relative_key\"}";
    CHECK_ERROR(pe_plan_from_config_json(bert_rel, strlen(bert_rel), &p), PE_ERR_UNSUPPORTED,
                "'position_embedding_type'='relative_key': model_type 'bert' then uses relative");
    /* XGLM: fairseq sinusoids (sin | cos, exponent i / (d/2 - 1)), offset 2. */
    const char *xglm = "{\"model_type\":\"xglm\"}";
    CHECK_OK(pe_plan_from_config_json(xglm, strlen(xglm), &p));
    if (p != NULL) {
        pe_plan_sinusoidal s;
        CHECK_OK(pe_plan_layer_sinusoidal(p, 0, &s));
        CHECK(s.base == 10000.0 && s.layout == PE_SIN_CONCATENATED &&
              s.convention == PE_SIN_FREQ_T2T && s.offset == 2 && s.dim == 1024);
        pe_plan_free(p);
    }
    /* CTRL: [sin | cos] halves at the paper's exponent 2j/d, from position 0. */
    const char *ctrl = "{\"model_type\":\"ctrl\"}";
    CHECK_OK(pe_plan_from_config_json(ctrl, strlen(ctrl), &p));
    if (p != NULL) {
        pe_plan_sinusoidal s;
        CHECK_OK(pe_plan_layer_sinusoidal(p, 47, &s));
        CHECK(s.base == 10000.0 && s.layout == PE_SIN_CONCATENATED &&
              s.convention == PE_SIN_FREQ_PAPER && s.offset == 0 && s.dim == 1280);
        pe_plan_free(p);
    }
    /* T5: first layer of each stack owns the bias; UMT5: every layer. */
    const char *t5 = "{\"model_type\":\"t5\",\"num_decoder_layers\":2,"
                     "\"relative_attention_max_distance\":64}";
    CHECK_OK(pe_plan_from_config_json(t5, strlen(t5), &p));
    if (p != NULL) {
        pe_plan_t5 t;
        CHECK(pe_plan_num_layers(p) == 8);
        CHECK_OK(pe_plan_layer_t5(p, 3, &t));
        CHECK(t.num_buckets == 32 && t.max_distance == 64 && t.bidirectional == 1 &&
              t.bias_layer == 0 && !t.owns_bias && t.heads == 8);
        CHECK_OK(pe_plan_layer_t5(p, 6, &t));
        CHECK(t.bidirectional == 0 && t.bias_layer == 6 && t.owns_bias);
        pe_plan_free(p);
    }
    const char *umt5 = "{\"model_type\":\"umt5\"}";
    CHECK_OK(pe_plan_from_config_json(umt5, strlen(umt5), &p));
    if (p != NULL) {
        pe_plan_t5 t;
        CHECK_OK(pe_plan_layer_t5(p, 10, &t));
        CHECK(t.bias_layer == 10 && t.owns_bias && t.heads == 6 && t.bidirectional == 0);
        pe_plan_free(p);
    }
}

/* The class defaults of the keys a config leaves out, per record of the first
 * group: the layer count and the head (head_dim when the class has one, else
 * hidden_size // num_attention_heads) restated from each configuration_*.py
 * (transformers 28af8184fb00; gemma4 at 351f643ab9f5: docs/FAMILIES.md §2).
 * A config of the model_type alone gets them; the head is checked on its first
 * rotating layer. */
typedef struct {
    const char *model_type;
    int64_t layers, hidden, heads, head_dim; /* head_dim 0: hidden / heads */
} class_counts;

static const class_counts counts_first[] = {
    {"llama", 32, 4096, 32, 0},          {"mistral", 32, 4096, 32, 0},
    {"mixtral", 32, 4096, 32, 0},        {"ministral", 32, 4096, 32, 0},
    {"ministral3", 34, 4096, 32, 128},   {"granite", 32, 4096, 32, 0},
    {"granitemoe", 32, 4096, 32, 0},     {"llama4_text", 48, 5120, 40, 128},
    {"smollm3", 36, 2048, 16, 0},        {"qwen2", 32, 4096, 32, 0},
    {"qwen2_moe", 24, 2048, 16, 0},      {"qwen3", 32, 4096, 32, 128},
    {"qwen3_moe", 24, 2048, 32, 0},      {"qwen3_next", 48, 2048, 16, 256},
    {"qwen3_5_text", 32, 4096, 16, 256}, {"qwen3_5_moe_text", 40, 2048, 16, 256},
    /* Qwen2VLConfig / Qwen2_5_VLConfig build their text config from the top-level keys */
    {"qwen2_vl", 80, 8192, 64, 0},       {"qwen2_vl_text", 80, 8192, 64, 0},
    {"qwen2_5_vl", 80, 8192, 64, 0},     {"qwen2_5_vl_text", 80, 8192, 64, 0},
    {"qwen3_vl_text", 32, 4096, 32, 128}, {"qwen3_vl_moe_text", 24, 2048, 16, 0},
    {"phi", 24, 2048, 32, 0},            {"phi3", 32, 3072, 32, 0},
    {"phimoe", 32, 4096, 32, 0},         {"gpt_neox", 44, 6144, 64, 0},
    {"stablelm", 32, 2560, 32, 0},       {"gptj", 28, 4096, 16, 0},
    {"codegen", 28, 4096, 16, 0},        {"starcoder2", 30, 3072, 24, 0},
    {"olmo", 32, 4096, 32, 0},           {"olmo2", 32, 4096, 32, 0},
    {"olmo3", 32, 4096, 32, 0},          {"gemma", 28, 3072, 16, 256},
    {"gemma2", 26, 2304, 8, 256},        {"gemma3_text", 26, 2304, 8, 256},
    {"gemma3n_text", 35, 2048, 8, 256},  {"gemma4_text", 30, 2304, 8, 256},
    {"cohere", 40, 8192, 64, 0},         {"cohere2", 40, 8192, 64, 0},
    {"glm", 40, 4096, 32, 128},          {"glm4", 40, 4096, 32, 128},
    {"gpt_oss", 36, 2880, 64, 64},       {"hunyuan_v1_dense", 32, 4096, 32, 0},
    {"hunyuan_v1_moe", 32, 4096, 32, 0},
    /* DeepseekV2/V3Config: head_dim = qk_rope_head_dim (64) */
    {"deepseek_v2", 32, 4096, 32, 64},   {"deepseek_v3", 61, 7168, 128, 64},
    {"glm4_moe_lite", 47, 2048, 20, 64}, {"falcon", 32, 4544, 71, 0},
    {"exaone4", 32, 4096, 32, 0},        {"lfm2", 32, 2560, 32, 0},
    {"jamba", 32, 4096, 32, 0},          {"granitemoehybrid", 32, 4096, 32, 0},
    {"mllama_text_model", 40, 4096, 32, 0}, {"mllama", 40, 4096, 32, 0},
    {"ernie4_5", 18, 1024, 16, 128},     {"ernie4_5_moe", 28, 2560, 20, 0},
    {"nemotron", 32, 6144, 48, 0},       {"persimmon", 36, 4096, 64, 0},
    {"olmoe", 16, 2048, 16, 0},          {"arcee", 32, 2560, 32, 0},
    {"helium", 24, 2560, 20, 128},       {"granitemoeshared", 32, 4096, 32, 0},
    {"bitnet", 30, 2560, 20, 0},         {"seed_oss", 64, 4096, 80, 128},
    {"falcon_h1", 32, 4096, 32, 0},      {"recurrent_gemma", 26, 2560, 10, 0},
    {"minimax", 32, 4096, 32, 0},        {"gpt_neox_japanese", 32, 2560, 32, 0},
};

TEST(families_class_default_layer_and_head_counts) {
    for (size_t i = 0; i < sizeof counts_first / sizeof *counts_first; i++) {
        const class_counts *c = &counts_first[i];
        char json[128];
        snprintf(json, sizeof json, "{\"model_type\":\"%s\"}", c->model_type);
        pe_plan *p = NULL;
        int st = pe_plan_from_config_json(json, strlen(json), &p);
        CHECK_MSG(st == PE_OK, "%s: %s", json, pe_last_error());
        if (st != PE_OK) continue;
        CHECK_MSG(pe_plan_num_layers(p) == c->layers, "%s: %lld layers, want %lld", c->model_type,
                  (long long)pe_plan_num_layers(p), (long long)c->layers);
        int64_t want = c->head_dim > 0 ? c->head_dim : c->hidden / c->heads;
        for (int64_t l = 0; l < pe_plan_num_layers(p); l++) {
            pe_plan_layer L;
            CHECK_OK(pe_plan_layer_info(p, l, &L));
            if (!L.rope) continue;
            CHECK_MSG(L.head_dim == want, "%s layer %lld: head_dim %lld, want %lld",
                      c->model_type, (long long)l, (long long)L.head_dim, (long long)want);
            break;
        }
        pe_plan_free(p);
    }
    /* Glm4MoeConfig states no head_dim and 4096 / 96 is no whole head: refused with
     * both numbers named as class defaults, not rounded. */
    pe_plan *p = NULL;
    const char *glm = "{\"model_type\":\"glm4_moe\"}";
    CHECK_ERROR(pe_plan_from_config_json(glm, strlen(glm), &p), PE_ERR_DIM,
                "'hidden_size'=4096 (class default) is not a positive multiple of "
                "'num_attention_heads'=96 (class default)");
}

/* A real wrapper config whose text_config leaves the Llama keys to
 * LlamaConfig's class defaults: huggingface.co/llava-hf/llava-1.5-7b-hf
 * config.json's text_config, quoted as the file has it. transformers builds
 * it as LlamaConfig (configuration_llava.py: text_config model_type
 * "llama"): hidden_size 4096, num_attention_heads 32, num_hidden_layers 32,
 * rope_theta 10000 (configuration_llama.py), max_position_embeddings 4096
 * from the file. */
TEST(families_wrapper_text_config_uses_class_defaults) {
    static const char llava[] =
        "{\"model_type\":\"llava\",\"text_config\":{\"_name_or_path\":\"lmsys/vicuna-7b-v1.5\","
        "\"architectures\":[\"LlamaForCausalLM\"],\"max_position_embeddings\":4096,"
        "\"model_type\":\"llama\",\"rms_norm_eps\":1e-05,\"torch_dtype\":\"float16\","
        "\"vocab_size\":32064}}";
    pe_plan *p = NULL;
    CHECK_OK(pe_plan_from_config_json(llava, strlen(llava), &p));
    if (p == NULL) return;
    CHECK(pe_plan_num_layers(p) == 32);
    for (int64_t l = 0; l < pe_plan_num_layers(p); l++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, l, &L));
        CHECK_MSG(L.rope && L.head_dim == 128 && L.rotary_dim == 128 && L.base == 10000.0 &&
                      L.max_position == 4096 && L.layout == PE_ROPE_HALF,
                  "llava-1.5 layer %lld: rope %d head %lld rotary %lld base %g max %lld",
                  (long long)l, L.rope, (long long)L.head_dim, (long long)L.rotary_dim, L.base,
                  (long long)L.max_position);
    }
    pe_plan_free(p);
}

/* Each of hidden_size and num_attention_heads is the file's value, else its
 * own class default (LlamaConfig 4096 / 32; GPTJConfig n_embd 4096, n_head
 * 16; FalconConfig 4544 / 71): one key given does not drop the other's
 * default. */
TEST(families_hidden_and_heads_default_independently) {
    static const struct {
        const char *json;
        int64_t head_dim;
    } cases[] = {
        {"{\"model_type\":\"llama\",\"hidden_size\":2048}", 2048 / 32},
        {"{\"model_type\":\"llama\",\"num_attention_heads\":16}", 4096 / 16},
        {"{\"model_type\":\"gptj\",\"n_embd\":2048}", 2048 / 16},
        {"{\"model_type\":\"gptj\",\"n_head\":32}", 4096 / 32},
        {"{\"model_type\":\"falcon\",\"hidden_size\":4544,\"n_head\":71}", 64},
        {"{\"model_type\":\"falcon\",\"hidden_size\":8192}", 0}, /* refused below */
    };
    for (size_t i = 0; i + 1 < sizeof cases / sizeof *cases; i++) {
        pe_plan *p = NULL;
        int st = pe_plan_from_config_json(cases[i].json, strlen(cases[i].json), &p);
        CHECK_MSG(st == PE_OK, "%s: %s", cases[i].json, pe_last_error());
        if (st != PE_OK) continue;
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 0, &L));
        CHECK_MSG(L.head_dim == cases[i].head_dim, "%s: head_dim %lld, want %lld", cases[i].json,
                  (long long)L.head_dim, (long long)cases[i].head_dim);
        pe_plan_free(p);
    }
    /* 8192 is no multiple of Falcon's default 71 heads: refused naming which
     * number is the class's. */
    pe_plan *p = NULL;
    const char *falcon = cases[5].json;
    CHECK_ERROR(pe_plan_from_config_json(falcon, strlen(falcon), &p), PE_ERR_DIM,
                "'hidden_size'=8192 is not a positive multiple of 'num_attention_heads'=71 (class "
                "default)");
}

/* A record that states no class default layer count (Kimi K2: remote code
 * whose configuration file posenc has not read) refuses a config without
 * one by the keys and the family's name: never one guessed layer. */
TEST(families_no_class_default_layer_count_refuses) {
    pe_plan *p = NULL;
    const char *kimi = "{\"model_type\":\"kimi_k2\",\"head_dim\":64}";
    CHECK_ERROR(pe_plan_from_config_json(kimi, strlen(kimi), &p), PE_ERR_FORMAT,
                "config has no 'num_hidden_layers' (or n_layer / num_layers), and posenc's record "
                "of 'kimi_k2' states no class default for it");
    CHECK(p == NULL);
    const char *kimi2 = "{\"model_type\":\"kimi_k2\",\"head_dim\":64,\"n_layer\":3}";
    CHECK_OK(pe_plan_from_config_json(kimi2, strlen(kimi2), &p));
    if (p != NULL) {
        CHECK(pe_plan_num_layers(p) == 3);
        pe_plan_free(p);
    }
}

TEST(families_refusals_and_overrides) {
    pe_plan *p = NULL;
    /* LFM2: an attention index HF's membership test can never match, and a
     * theta that contradicts rope_theta, are refused by name. */
    const char *l1 =
        "{\"model_type\":\"lfm2\"," BASE ",\"num_hidden_layers\":2,\"full_attn_idxs\":[1,2]}";
    CHECK_ERROR(pe_plan_from_config_json(l1, strlen(l1), &p), PE_ERR_FORMAT,
                "'full_attn_idxs'[1] must be a layer index in [0, 2)");
    const char *l2 = "{\"model_type\":\"lfm2\"," BASE ",\"full_attn_idxs\":2}";
    CHECK_ERROR(pe_plan_from_config_json(l2, strlen(l2), &p), PE_ERR_FORMAT,
                "'full_attn_idxs' must be an array of layer indexes, not number");
    const char *l3 = "{\"model_type\":\"lfm2\"," BASE ",\"theta\":10000.0,\"rope_theta\":1000000.0}";
    CHECK_ERROR(pe_plan_from_config_json(l3, strlen(l3), &p), PE_ERR_FORMAT,
                "'rope_theta'=1000000 and 'theta'=10000 disagree");
    const char *t = "{\"model_type\":\"longt5\"}";
    CHECK_ERROR(pe_plan_from_config_json(t, strlen(t), &p), PE_ERR_UNSUPPORTED,
                "model_type 'longt5': LongT5's local and transient-global attention");
    /* BART (a table per stack) is modelled: tests/test_families_encoders.c. */
    /* Mamba: every layer a mixer, not attention, no positional parameters. */
    const char *mamba = "{\"model_type\":\"mamba\",\"num_hidden_layers\":3}";
    CHECK_OK(pe_plan_from_config_json(mamba, strlen(mamba), &p));
    if (p != NULL) {
        pe_plan_position pos;
        pe_plan_layer L;
        CHECK(pe_plan_num_layers(p) == 3 && pe_plan_num_rope_kinds(p) == 0);
        CHECK_OK(pe_plan_layer_position(p, 2, &pos));
        CHECK(pos.kind == PE_POSITION_NONE && strcmp(pos.why, "mamba") == 0);
        CHECK_OK(pe_plan_layer_info(p, 2, &L));
        CHECK(!L.attention && !L.rope);
        pe_plan_free(p);
    }
    const char *u = "{\"model_type\":\"qwen9\",\"head_dim\":64}";
    CHECK_ERROR(pe_plan_from_config_json(u, strlen(u), &p), PE_ERR_UNSUPPORTED,
                "model_type 'qwen9' is not in posenc's family registry (closest: 'qwen2'");
    CHECK_ERROR(pe_plan_from_config_json_as(u, strlen(u), "nosuch", &p), PE_ERR_UNSUPPORTED,
                "family 'nosuch' is not in posenc's family registry");
    const char *none = "{\"head_dim\":64}";
    CHECK_ERROR(pe_plan_from_config_json(none, strlen(none), &p), PE_ERR_UNSUPPORTED,
                "config has no 'model_type'");
    CHECK_OK(pe_plan_from_config_json_as(u, strlen(u), "gptj", &p));
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 0, &L));
        CHECK(strcmp(pe_plan_model_type(p), "gptj") == 0 && L.layout == PE_ROPE_INTERLEAVED);
        pe_plan_free(p);
    }
    static pe_rope_config c;
    CHECK_OK(pe_config_parse_as(u, strlen(u), "gemma", &c));
    CHECK(c.scaling.head_dim == 64 && c.scaling.max_position == 8192);
    pe_position_kind k;
    CHECK_OK(pe_position_kind_from_name("sinusoidal", &k));
    CHECK(k == PE_POSITION_SINUSOIDAL && strcmp(pe_position_kind_name(k), "sinusoidal") == 0);
    CHECK_ERROR(pe_position_kind_from_name("absolute", &k), PE_ERR_PARAM, "'absolute'");
    CHECK(strcmp(pe_position_kind_name((pe_position_kind)99), "?") == 0);
}

/* The layer count and head of a config that leaves them to the class, per
 * record of the decoder and encoder groups that states its class defaults
 * (src/families_hf_decoders.c, src/families_hf_encoders.c). Each row is
 * restated from the class's own defaults (num_hidden_layers, hidden_size,
 * num_attention_heads, head_dim) in configuration_<m>.py at transformers
 * 28af8184fb00 (read as Krishnachaitanyakc/transformers 88020a578f96) unless
 * another commit is named; `extra` is only what the family needs besides
 * model_type. head_dim 0: the plan has no rotating layer to check. */
typedef struct {
    const char *model_type, *extra;
    int64_t layers, head_dim;
} group_counts;

static const group_counts counts_groups[] = {
    /* AriaTextConfig (aria): 32 layers, 4096 / 32 */
    {"aria_text", "", 32, 128},
    /* VoxtralRealtimeTextConfig(MistralConfig) (voxtral_realtime, mistral): 32, 4096 / 32 */
    {"voxtral_realtime_text", "", 32, 128},
    /* LlamaConfig (llama; auto maps code_llama to it): 32, 4096 / 32 */
    {"code_llama", "", 32, 128},
    /* ApertusConfig: 32, 4096 / 32 */
    {"apertus", "", 32, 128},
    /* CwmConfig: 64 layers, head_dim 128 */
    {"cwm", "", 64, 128},
    /* Dots1Config: 62, 4608 / 32 */
    {"dots1", "", 62, 144},
    /* VaultGemmaConfig: 26 layers, head_dim 256 */
    {"vaultgemma", "", 26, 256},
    /* FlexOlmoConfig: 32, 4096 / 32 */
    {"flex_olmo", "", 32, 128},
    /* DiffLlamaConfig: 16, 2048 / 32 */
    {"diffllama", "", 16, 64},
    /* Jais2Config: 32, 3328 / 26 */
    {"jais2", "", 32, 128},
    /* JetMoeConfig: 12 layers, kv_channels (head_dim) 128; num_attention_heads is
     * derived (num_key_value_heads * num_experts_per_tok), no default of its own */
    {"jetmoe", "", 12, 128},
    /* AfmoeConfig: 32 layers, head_dim 128 */
    {"afmoe", "", 32, 128},
    /* Glm4vTextConfig (glm4v): 40, 4096 / 32 */
    {"glm4v_text", "", 40, 128},
    /* Glm4vMoeTextConfig (glm4v_moe): 46 layers; 4096 / 96 is no whole head and the
     * class has no head_dim, so the file's head_dim is given */
    {"glm4v_moe_text", ",\"head_dim\":128", 46, 128},
    /* GlmOcrTextConfig (glm_ocr): 16, 1024 / 16 */
    {"glm_ocr_text", "", 16, 64},
    /* GlmImageTextConfig (glm_image): 40, 4096 / 32 */
    {"glm_image_text", "", 40, 128},
    /* PaddleOCRTextConfig (paddleocr_vl): 18 layers, head_dim 128 */
    {"paddleocr_vl_text", "", 18, 128},
    /* Ernie4_5_VLMoeTextConfig (ernie4_5_vl_moe): 28, 2560 / 20 */
    {"ernie4_5_vl_moe_text", "", 28, 128},
    /* Qwen2_5OmniTextConfig (qwen2_5_omni): 28, 3584 / 28 */
    {"qwen2_5_omni_text", "", 28, 128},
    /* Qwen3OmniMoeTextConfig (qwen3_omni_moe): 28 layers; 2048 / 28 is no whole head */
    {"qwen3_omni_moe_text", ",\"head_dim\":128", 28, 128},
    /* Emu3TextConfig (emu3): 32, 4096 / 32 */
    {"emu3_text_model", "", 32, 128},
    /* ChameleonConfig: 32, 4096 / 32 */
    {"chameleon", "", 32, 128},
    /* BambaConfig: 32 layers; attn_layer_indices None: no attention layer */
    {"bamba", "", 32, 0},
    /* ZambaConfig: 76 layers (attention without rotary) */
    {"zamba", "", 76, 0},
    /* NemotronHConfig: num_hidden_layers is len(layers_block_type), else the
     * hybrid_override_pattern's length, else the default list's 4 (no rotary) */
    {"nemotron_h", "", 4, 0},
    {"nemotron_h", ",\"hybrid_override_pattern\":\"M*M-E\"", 5, 0},
    {"nemotron_h", ",\"layers_block_type\":[\"mamba\",\"attention\"]", 2, 0},
    /* OlmoHybridConfig: 32, 3840 / 30 */
    {"olmo_hybrid", "", 32, 128},
    /* Lfm2MoeConfig: 32, 2048 / 32 */
    {"lfm2_moe", "", 32, 64},
    /* ExaoneMoeConfig: 32, 4096 / 32 */
    {"exaone_moe", "", 32, 128},
    /* DogeConfig: 32, 1024 / 8 */
    {"doge", "", 32, 128},
    /* MiniMaxM2Config: 62 layers, head_dim 128 */
    {"minimax_m2", "", 62, 128},
    /* SolarOpenConfig: 48 layers, head_dim 128 */
    {"solar_open", "", 48, 128},
    /* HiggsAudioV2Config: 28 layers, head_dim 128 */
    {"higgs_audio_v2", "", 28, 128},
    /* Phi4MultimodalConfig: 32, 3072 / 32 */
    {"phi4_multimodal", "", 32, 96},
    /* EvollaConfig (model_type "EvollaModel"): 32, 4096 / 32 */
    {"evolla", "", 32, 128},
    {"EvollaModel", "", 32, 128},
    /* CsmConfig: 16, 2048 / 32; CsmDepthDecoderConfig: 4, 1024 / 8 */
    {"csm", "", 16, 64},
    {"csm_depth_decoder_model", "", 4, 128},
    /* MoshiConfig: 32, 4096 / 32 */
    {"moshi", "", 32, 128},
    /* KyutaiSpeechToTextConfig: 48, 2048 / 32 */
    {"kyutai_speech_to_text", "", 48, 64},
    /* IdeficsConfig: 32, 4096 / 32 */
    {"idefics", "", 32, 128},
    /* YoutuConfig: 32 layers, head_dim = qk_rope_head_dim 64 */
    {"youtu", "", 32, 64},
    /* LongcatFlashConfig: num_hidden_layers 56 (two attention blocks in each of its
     * num_layers 28), qk_rope_head_dim 64 */
    {"longcat_flash", "", 56, 64},
    /* LongcatFlashModel.__init__: num_hidden_layers = 2 * num_layers (modeling_longcat_flash.py:
     * two LongcatFlashMLA per decoder layer, layer_idx * 2 + i) */
    {"longcat_flash", ",\"num_layers\":3", 6, 64},
    {"longcat_flash", ",\"num_layers\":28,\"num_hidden_layers\":56", 56, 64},
    /* Wrappers merging _default_text_config_kwargs into a text_config:
     * VoxtralConfig (llama): 30 layers, head_dim 128; GlmAsrConfig (llama): 28,
     * 2048 / 16; VoxtralRealtimeConfig: 26 layers, head_dim 128 */
    {"voxtral", ",\"text_config\":{}", 30, 128},
    {"glmasr", ",\"text_config\":{}", 28, 128},
    {"voxtral_realtime", ",\"text_config\":{}", 26, 128},
    /* a wrapper whose text family now has its class counts: Glm4vConfig -> Glm4vTextConfig */
    {"glm4v", ",\"text_config\":{}", 40, 128},
    /* Encoders, transformers history as the fork AbdulShabazz/huggingface-
     * transformers-2025-fork- carries it (a5a1a5746d82) or the named commit:
     * RoFormerConfig at a5a1a5746d82: 12, 768 / 12 */
    {"roformer", "", 12, 64},
    /* ModernBertConfig at 001f85b38fb4: 22, 768 / 12 */
    {"modernbert", "", 22, 64},
    /* EuroBertConfig at 008e57439125: 12, 768 / 12 */
    {"eurobert", "", 12, 64},
    /* JinaEmbeddingsV3Config at 0bb18c9777ce: 24, 1024 / 16 */
    {"jina_embeddings_v3", "", 24, 64},
    /* DebertaConfig / DebertaV2Config at a5a1a5746d82 (12 and 24 layers): without the
     * table (position_biased_input false) every layer is NoPE, still the class's count */
    {"deberta", ",\"position_biased_input\":false", 12, 0},
    {"deberta-v2", ",\"position_biased_input\":false", 24, 0},
    /* Encoder-decoders read their stacks' class counts (`stacks`), at a5a1a5746d82:
     * BartConfig encoder_layers 12 + decoder_layers 12, BlenderbotConfig 2 + 24,
     * PLBartConfig 6 + 6, SwitchTransformersConfig num_layers 12 + num_decoder_layers 12 */
    {"bart", "", 24, 0},
    {"blenderbot", "", 26, 0},
    {"plbart", "", 12, 0},
    {"switch_transformers", "", 24, 0},
};

TEST(families_group_layer_defaults) {
    for (size_t i = 0; i < sizeof counts_groups / sizeof *counts_groups; i++) {
        const group_counts *c = &counts_groups[i];
        char json[160];
        snprintf(json, sizeof json, "{\"model_type\":\"%s\"%s}", c->model_type, c->extra);
        pe_plan *p = NULL;
        int st = pe_plan_from_config_json(json, strlen(json), &p);
        CHECK_MSG(st == PE_OK, "%s: %s", json, pe_last_error());
        if (st != PE_OK) continue;
        CHECK_MSG(pe_plan_num_layers(p) == c->layers, "%s: %lld layers, want %lld", json,
                  (long long)pe_plan_num_layers(p), (long long)c->layers);
        int64_t seen = 0;
        for (int64_t l = 0; l < pe_plan_num_layers(p); l++) {
            pe_plan_layer L;
            CHECK_OK(pe_plan_layer_info(p, l, &L));
            if (!L.rope) continue;
            seen = L.head_dim;
            break;
        }
        CHECK_MSG(seen == c->head_dim, "%s: head_dim %lld on its first rotating layer, want %lld",
                  json, (long long)seen, (long long)c->head_dim);
        pe_plan_free(p);
    }
    /* Zamba2Config: 54 layers, read with its layers_block_type (the class's default
     * list is refused by name); with use_mem_rope its hybrid layers rotate
     * attention_head_dim = 2 * hidden_size // num_attention_heads = 2 * 2560 / 32 = 160
     * (__post_init__). A list of another length without num_hidden_layers disagrees
     * with the class count and is refused, never resized. */
    char json[1024];
    int n = snprintf(json, sizeof json,
                     "{\"model_type\":\"zamba2\",\"use_mem_rope\":true,\"layers_block_type\":[");
    for (int i = 0; i < 54; i++) n += snprintf(json + n, sizeof json - (size_t)n, "%s\"%s\"",
                                               i ? "," : "", i == 5 ? "hybrid" : "mamba");
    snprintf(json + n, sizeof json - (size_t)n, "]}");
    pe_plan *p = NULL;
    CHECK_OK(pe_plan_from_config_json(json, strlen(json), &p));
    if (p != NULL) {
        pe_plan_layer L;
        CHECK(pe_plan_num_layers(p) == 54);
        CHECK_OK(pe_plan_layer_info(p, 5, &L));
        CHECK_MSG(L.rope && L.head_dim == 160 && L.rotary_dim == 160,
                  "zamba2 hybrid layer: rope %d head_dim %lld rotary %lld, want 160", L.rope,
                  (long long)L.head_dim, (long long)L.rotary_dim);
    }
    pe_plan_free(p);
    /* the file's hidden_size with the class's heads: 2 * 2048 / 32 = 128 */
    const char *z_hidden = "{\"model_type\":\"zamba2\",\"use_mem_rope\":true,"
                           "\"num_hidden_layers\":1,\"hidden_size\":2048,"
                           "\"layers_block_type\":[\"hybrid\"]}";
    CHECK_OK(pe_plan_from_config_json(z_hidden, strlen(z_hidden), &p));
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 0, &L));
        CHECK_MSG(L.head_dim == 128, "zamba2 hidden 2048: head_dim %lld, want 128",
                  (long long)L.head_dim);
    }
    pe_plan_free(p);
    /* __post_init__ overwrites a stated attention_head_dim: a file saying 80 with the
     * class's 2560 / 32 (HF: 160) is refused, not planned at 80 */
    const char *z_stated = "{\"model_type\":\"zamba2\",\"use_mem_rope\":true,"
                           "\"num_hidden_layers\":1,\"attention_head_dim\":80,"
                           "\"layers_block_type\":[\"hybrid\"]}";
    CHECK_ERROR(pe_plan_from_config_json(z_stated, strlen(z_stated), &p), PE_ERR_FORMAT,
                "'attention_head_dim'=80, but model_type 'zamba2' recomputes it as 2 * "
                "hidden_size // num_attention_heads = 160");
    /* a num_hidden_layers that is not twice num_layers: refused, naming both */
    const char *lc = "{\"model_type\":\"longcat_flash\",\"num_layers\":28,"
                     "\"num_hidden_layers\":28}";
    CHECK_ERROR(pe_plan_from_config_json(lc, strlen(lc), &p), PE_ERR_FORMAT,
                "'num_hidden_layers'=28, but model_type 'longcat_flash' has 2 attention layers "
                "per 'num_layers' block: 28 x 2 = 56");
    const char *short_list = "{\"model_type\":\"zamba2\",\"layers_block_type\":[\"mamba\"]}";
    CHECK_ERROR(pe_plan_from_config_json(short_list, strlen(short_list), &p), PE_ERR_FORMAT,
                "layers_block_type");
}
