/* test_errors_families.c — the FAM (family registry) and POS (per-layer
 * positions) rows of docs/ERRORS.md: each refusal with its status and the
 * words it must say, and nothing written on failure. */
#include "errors.h"
#include "runner.h"

static int plan_json(const char *json) { return pe_plan_from_config_json(json, strlen(json), OUT); }
static int plan_as(const char *json, const char *family) {
    return pe_plan_from_config_json_as(json, strlen(json), family, OUT);
}

TEST(errors_families) {
    /* the third closest name moves as records are added: checked apart */
    EXPECT("FAM-1", PE_ERR_UNSUPPORTED,
           "model_type 'qwen9' is not in posenc's family registry (closest: 'qwen2', 'qwen3' or ",
           plan_json("{\"model_type\":\"qwen9\",\"head_dim\":64}"));
    EXPECT("FAM-1", PE_ERR_UNSUPPORTED,
           "'); if the checkpoint's code is one of those, read it as that family on "
           "purpose (--family NAME, family=..., pe_plan_from_config_*_as",
           plan_json("{\"model_type\":\"qwen9\",\"head_dim\":64}"));
    EXPECT("FAM-1", PE_ERR_UNSUPPORTED, "family 'lama' is not in posenc's family registry (closest: 'llama'",
           plan_as("{\"model_type\":\"llama\",\"head_dim\":64}", "lama"));
    EXPECT("FAM-2", PE_ERR_UNSUPPORTED, "config has no 'model_type': posenc reads a config only as a family",
           plan_json("{\"head_dim\":64}"));
    EXPECT("FAM-2", PE_ERR_UNSUPPORTED, "config has no 'model_type'",
           pe_config_parse("{\"head_dim\":64}", strlen("{\"head_dim\":64}"), OUT));
    EXPECT("FAM-3", PE_ERR_UNSUPPORTED, "model_type 'whisper': an encoder-decoder over audio frames",
           plan_json("{\"model_type\":\"whisper\"}"));
    EXPECT("FAM-4", PE_ERR_UNSUPPORTED, "model_type 'llava' keeps its decoder in text_config, which this file lacks",
           plan_json("{\"model_type\":\"llava\",\"head_dim\":64}"));
    EXPECT("FAM-5", PE_ERR_FORMAT, "'num_layers'=0 must be in [1, 65536]",
           plan_json("{\"model_type\":\"t5\",\"num_layers\":0}"));
    EXPECT("FAM-13", PE_ERR_DIM, "'n_head'=0 must be > 0",
           plan_json("{\"model_type\":\"bloom\",\"n_head\":0}"));
    EXPECT("FAM-6", PE_ERR_FORMAT, "'num_decoder_layers'=-1 must be in [0, ",
           plan_json("{\"model_type\":\"t5\",\"num_decoder_layers\":-1}"));
    EXPECT("FAM-7", PE_ERR_FORMAT, "'relative_attention_num_buckets'=3 and 'relative_attention_max_distance'=128",
           plan_json("{\"model_type\":\"t5\",\"relative_attention_num_buckets\":3}"));
    EXPECT("FAM-8", PE_ERR_FORMAT, "'n_positions'=0 must be >= 1",
           plan_json("{\"model_type\":\"gpt2\",\"n_positions\":0}"));
    EXPECT("FAM-15", PE_ERR_FORMAT, "'block_types' must be an array of 1 to 16 strings",
           plan_json("{\"model_type\":\"recurrent_gemma\",\"head_dim\":64,\"block_types\":[]}"));
    EXPECT("FAM-15", PE_ERR_FORMAT, "'block_types'[1] must be a string, not number",
           plan_json("{\"model_type\":\"recurrent_gemma\",\"head_dim\":64,"
                     "\"block_types\":[\"attention\",3]}"));
    EXPECT("FAM-9", PE_ERR_FORMAT, "'attn_layer_period'=4 and 'attn_layer_offset'=4: need 0 <= offset < period",
           plan_json("{\"model_type\":\"jamba\",\"head_dim\":64,\"attn_layer_period\":4}"));
    EXPECT("FAM-10", PE_ERR_FORMAT, "'cross_attention_layers'[0] must be a layer index in [0, 2)",
           plan_json("{\"model_type\":\"mllama_text_model\",\"head_dim\":64,\"num_hidden_layers\":2,"
                     "\"cross_attention_layers\":[2]}"));
    EXPECT("FAM-14", PE_ERR_UNSUPPORTED, "'position_embedding_type'='relative_key_query': model_type 'roberta' then uses relative position embeddings",
           plan_json("{\"model_type\":\"roberta\",\"position_embedding_type\":\"relative_key_query\"}"));
    EXPECT("FAM-11", PE_ERR_RANGE, "family index 999 is outside [0, ", pe_family_get(999, OUT));
    EXPECT("FAM-12", PE_ERR_NULL, "out must not be NULL", pe_family_get(0, NULL));
}

TEST(errors_positions) {
    pe_plan *p = NULL;
    const char *bloom = "{\"model_type\":\"bloom\"}";
    CHECK_OK(pe_plan_from_config_json(bloom, strlen(bloom), &p));
    if (p == NULL) return;
    EXPECT("POS-1", PE_ERR_PARAM, "layer 1 (full_attention) has alibi positions, not t5", pe_plan_layer_t5(p, 1, OUT));
    EXPECT("POS-1", PE_ERR_PARAM, "has alibi positions, not learned", pe_plan_layer_learned(p, 0, OUT));
    EXPECT("POS-1", PE_ERR_PARAM, "has alibi positions, not sinusoidal", pe_plan_layer_sinusoidal(p, 0, OUT));
    EXPECT("POS-2", PE_ERR_PARAM, "layer 0 (full_attention) does not rotate: its positions are alibi",
           pe_plan_layer_freqs(p, 0, 0, OUT, NULL));
    EXPECT("POS-3", PE_ERR_UNSUPPORTED, "no layer of this config rotates: model_type 'bloom' has alibi positions",
           pe_config_parse(bloom, strlen(bloom), OUT));
    EXPECT("POS-4", PE_ERR_RANGE, "layer=2 is outside [0, 2)", pe_plan_layer_position(p, 2, OUT));
    EXPECT("POS-4", PE_ERR_RANGE, "layer=-1 is outside [0, 2)", pe_plan_layer_alibi_slopes(p, -1, OUTD, NULL));
    EXPECT("POS-5", PE_ERR_NULL, "out must not be NULL", pe_plan_layer_position(p, 0, NULL));
    EXPECT("POS-5", PE_ERR_NULL, "plan must not be NULL", pe_plan_layer_alibi(NULL, 0, OUT));
    EXPECT("POS-6", PE_ERR_PARAM, "position kind 'absolute' is not rope, nope, alibi, t5, learned, sinusoidal or none",
           pe_position_kind_from_name("absolute", OUT));
    pe_plan_free(p);
}
