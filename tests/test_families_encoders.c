/* test_families_encoders.c — the class-default rows of the registry group
 * src/families_hf_encoders.c (encoders, encoder-decoders and relative-position
 * schemes); each row restates from the family's transformers source what a
 * config that leaves a key out gets, and names that source.
 * test_families.c checks the rows (family_rows.h); the test below checks the
 * non-RoPE parameters and the refusals of this group.
 *
 * Sources: huggingface/transformers at a5a1a5746d82 (its history as carried
 * by the fork AbdulShabazz/huggingface-transformers-2025-fork-), ModernBERT's
 * configuration at 001f85b38fb4; docs/FAMILIES.md §3.2. */
#include "family_rows.h"
#include "runner.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

const row family_rows_encoders[] = {
    /* AlbertConfig: hidden_size 4096 / num_attention_heads 64, 12 layers */
    {"albert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* ElectraConfig: 256 / 4, 12 layers */
    {"electra", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* ConvBertConfig, SqueezeBertConfig: 768 / 12, 12 layers */
    {"convbert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"squeezebert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* MobileBertConfig: 512 / 4, 24 layers */
    {"mobilebert", "", 23, PE_POSITION_LEARNED, 0, 0, 128, 0, H},
    /* RemBertConfig: 1152 / 18, 32 layers */
    {"rembert", "", 31, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* BertGenerationConfig: 1024 / 16, 24 layers */
    {"bert-generation", "", 23, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* RoCBert, DPR, BigBird, Splinter, LayoutLM, I-BERT, Longformer, LUKE,
     * MarkupLM, X-MOD, VisualBERT, MRA, YOSO: 768 / 12, 12 layers */
    {"roc_bert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"dpr", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"big_bird", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"splinter", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"layoutlm", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"ibert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"longformer", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"luke", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"markuplm", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"xmod", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"visual_bert", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"mra", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"yoso", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* DistilBertConfig: dim 768 / n_heads 12, n_layers 6; sinusoidal_pos_embds
     * switches the table to fixed sinusoids */
    {"distilbert", "", 5, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"distilbert", "\"sinusoidal_pos_embds\":true", 5, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    /* XLMConfig / FlaubertConfig: emb_dim 2048 / n_heads 16, n_layers 12 */
    {"xlm", "", 11, PE_POSITION_LEARNED, 0, 0, 128, 0, H},
    {"xlm", "\"sinusoidal_embeddings\":true", 11, PE_POSITION_SINUSOIDAL, 0, 0, 128, 0, H},
    {"flaubert", "", 11, PE_POSITION_LEARNED, 0, 0, 128, 0, H},
    /* DebertaConfig: 768 / 12, 12 layers, position_biased_input True (the table),
     * relative_attention False; DebertaV2Config: 1536 / 24, 24 layers */
    {"deberta", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"deberta", BASE ",\"num_hidden_layers\":2,\"position_biased_input\":false", 1,
     PE_POSITION_NOPE, 0, 0, 0, 0, H},
    {"deberta-v2", "", 23, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* RoFormerConfig: max_position_embeddings 1536; sinusoids over the head at
     * base 10000, pairs (x[2i], x[2i+1]) */
    {"roformer", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 1536, 128, 128, I},
    /* EsmConfig: "rotary": rotate_half at 10000 over the head; max 1026 */
    {"esm", BASE ",\"position_embedding_type\":\"rotary\"", 0, PE_POSITION_ROPE, 10000, 1026, 128,
     128, H},
    {"esm", "\"pad_token_id\":1", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* ModernBertConfig: global every 3rd layer from layer 0 at 160000, the others
     * sliding at local_rope_theta 10000; 8192 positions; rotate_half */
    {"modernbert", BASE ",\"num_hidden_layers\":3", 0, PE_POSITION_ROPE, 160000, 8192, 128, 128, H},
    {"modernbert", BASE ",\"num_hidden_layers\":3", 1, PE_POSITION_ROPE, 10000, 8192, 128, 128, H},
    {"modernbert", BASE ",\"num_hidden_layers\":4", 3, PE_POSITION_ROPE, 160000, 8192, 128, 128, H},
    /* EuroBertConfig (v5): no default_theta (10000), 8192, rotate_half;
     * JinaEmbeddingsV3Config: rope_theta 20000, 8194, rotate_half */
    {"eurobert", "\"num_hidden_layers\":4," BASE, 0, PE_POSITION_ROPE, 10000, 8192, 128, 128, H},
    {"jina_embeddings_v3", "\"num_hidden_layers\":4,\"hidden_size\":1024,\"num_attention_heads\":16", 0, PE_POSITION_ROPE,
     20000, 8194, 64, 64, H},
    /* SwitchTransformersConfig: 12 encoder + 12 decoder layers of T5 buckets */
    {"switch_transformers", "", 23, PE_POSITION_T5, 0, 0, 0, 0, H},
    /* BartConfig / MBartConfig / MarianConfig: 12 + 12 layers, d_model 1024 / 16 */
    {"bart", "", 23, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"mbart", "", 12, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"marian", "", 23, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    /* BlenderbotConfig: 2 encoder + 24 decoder layers, d_model 2560 / 32 heads */
    {"blenderbot", "", 25, PE_POSITION_LEARNED, 0, 0, 80, 0, H},
    /* BlenderbotSmallConfig: 8 + 8, 512 / 16 */
    {"blenderbot-small", "", 15, PE_POSITION_LEARNED, 0, 0, 32, 0, H},
    /* BigBirdPegasusConfig: 16 + 16, 1024 / 16 */
    {"bigbird_pegasus", "", 31, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* LEDConfig, MvpConfig: 12 + 12, 1024 / 16; PLBartConfig: 6 + 6, 768 / 12 */
    {"led", "", 23, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"mvp", "", 23, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    {"plbart", "", 11, PE_POSITION_LEARNED, 0, 0, 64, 0, H},
    /* PegasusConfig, M2M100Config, NllbMoeConfig, FSMTConfig: 12 + 12, 1024 / 16;
     * PegasusXConfig: 16 + 16 */
    {"pegasus", "", 23, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    {"pegasus_x", "", 31, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    {"m2m_100", "", 23, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    {"nllb-moe", "", 23, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    {"fsmt", "", 23, PE_POSITION_SINUSOIDAL, 0, 0, 64, 0, H},
    /* ---- h25rest: read at decba1d2ea4e (zucchini-nlp fork of transformers) ---- */
    /* NomicBertConfig: default_theta 1000, 2048, 12 layers; Llama's rotary (half split) */
    {"nomic_bert", BASE, 0, PE_POSITION_ROPE, 1000, 2048, 128, 128, H},
    {"nomic_bert", "", 11, PE_POSITION_ROPE, 1000, 2048, 64, 64, H},
    /* ModernVBertConfig: text_config always ModernBertConfig (160000 global every 3rd layer
     * from layer 0, local 10000, 8192) */
    {"modernvbert", "\"text_config\":{" BASE ",\"num_hidden_layers\":3}", 0, PE_POSITION_ROPE,
     160000, 8192, 128, 128, H},
    {"modernvbert", "\"text_config\":{" BASE ",\"num_hidden_layers\":3}", 1, PE_POSITION_ROPE,
     10000, 8192, 128, 128, H},
    /* OpenAIPrivacyFilterConfig: GptOss's default_theta 150000 under its class-default YaRN
     * block, head_dim 64, 131072, interleaved pairs; every layer sliding */
    {"openai_privacy_filter", BASE, 7, PE_POSITION_ROPE, 150000, 131072, 64, 64, I},
    {NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
};

static pe_plan *plan_json(const char *json) {
    pe_plan *p = NULL;
    int st = pe_plan_from_config_json(json, strlen(json), &p);
    CHECK_MSG(st == PE_OK, "%s: %s", json, pe_last_error());
    return st == PE_OK ? p : NULL;
}

/* The learned table of `layer`, restated: rows, offset, dim. */
static void check_learned(const char *json, int64_t layer, int64_t rows, int64_t offset,
                          int64_t dim) {
    pe_plan *p = plan_json(json);
    if (p == NULL) return;
    pe_plan_learned l = {0, 0, 0};
    CHECK_OK(pe_plan_layer_learned(p, layer, &l));
    CHECK_MSG(l.rows == rows && l.offset == offset && l.dim == dim,
              "%s layer %lld: rows %lld offset %lld dim %lld, want %lld %lld %lld", json,
              (long long)layer, (long long)l.rows, (long long)l.offset, (long long)l.dim,
              (long long)rows, (long long)offset, (long long)dim);
    CHECK_MSG(pe_plan_num_warnings(p) == 0, "%s: %lld warnings, first: %s", json,
              (long long)pe_plan_num_warnings(p),
              pe_plan_num_warnings(p) > 0 ? pe_plan_warning(p, 0) : "");
    pe_plan_free(p);
}

static void check_sinusoidal(const char *json, int64_t layer, pe_sin_layout layout,
                             pe_sin_convention convention, int64_t offset, int64_t dim) {
    pe_plan *p = plan_json(json);
    if (p == NULL) return;
    pe_plan_sinusoidal s;
    memset(&s, 0, sizeof s);
    CHECK_OK(pe_plan_layer_sinusoidal(p, layer, &s));
    CHECK_MSG(s.base == 10000.0 && s.layout == layout && s.convention == convention &&
                  s.offset == offset && s.dim == dim,
              "%s layer %lld: base %g layout %d convention %d offset %lld dim %lld", json,
              (long long)layer, s.base, (int)s.layout, (int)s.convention, (long long)s.offset,
              (long long)s.dim);
    pe_plan_free(p);
}

static void check_refused(const char *json, const char *needle) {
    pe_plan *p = NULL;
    CHECK_ERROR(pe_plan_from_config_json(json, strlen(json), &p), PE_ERR_UNSUPPORTED, needle);
    CHECK(p == NULL);
}

/* The non-RoPE parameters of the group, restated from the sources named in
 * src/families_hf_encoders.c (the values below are the config classes'
 * defaults and the modeling files' table shapes, not posenc's output). */
TEST(families_encoders_non_rope_parameters) {
    /* ALBERT / ELECTRA: nn.Embedding(max_position_embeddings, embedding_size):
     * 512 rows, 128 wide, ids from 0 */
    check_learned("{\"model_type\":\"albert\"}", 11, 512, 0, 128);
    check_learned("{\"model_type\":\"electra\",\"embedding_size\":64}", 0, 512, 0, 64);
    check_learned("{\"model_type\":\"electra\"}", 0, 512, 0, 128);
    /* MobileBERT: the table is hidden_size (512) wide, not embedding_size */
    check_learned("{\"model_type\":\"mobilebert\",\"embedding_size\":128}", 0, 512, 0, 512);
    /* RemBERT: input_embedding_size 256 */
    check_learned("{\"model_type\":\"rembert\"}", 0, 512, 0, 256);
    /* BigBird: 4096 rows */
    check_learned("{\"model_type\":\"big_bird\"}", 0, 4096, 0, 768);
    /* RoBERTa-style ids from padding_idx + 1: I-BERT pad 1 -> 2 (pad 3 -> 4);
     * MarkupLM's class default pad_token_id 0 -> 1 */
    check_learned("{\"model_type\":\"ibert\"}", 0, 512, 2, 768);
    check_learned("{\"model_type\":\"ibert\",\"pad_token_id\":3}", 0, 512, 4, 768);
    check_learned("{\"model_type\":\"markuplm\"}", 0, 512, 1, 768);
    /* LayoutLM's and MarkupLM's code never reads position_embedding_type: the
     * table is added whatever the file says (a warning, not a refusal). */
    pe_plan *w = plan_json("{\"model_type\":\"layoutlm\",\"position_embedding_type\":\"relative_key\"}");
    if (w != NULL) {
        pe_plan_learned l;
        CHECK_OK(pe_plan_layer_learned(w, 0, &l));
        CHECK(l.rows == 512 && l.offset == 0 && pe_plan_num_warnings(w) == 1);
        pe_plan_free(w);
    }
    check_learned("{\"model_type\":\"longformer\",\"max_position_embeddings\":4098}", 0, 4098, 2,
                  768);
    /* MRA / YOSO: max_position_embeddings + 2 rows at ids + 2 */
    check_learned("{\"model_type\":\"mra\"}", 0, 514, 2, 768);
    check_learned("{\"model_type\":\"yoso\"}", 0, 4098, 2, 768);
    /* DistilBERT's dim / n_heads (attribute_map): 1024 / 16 -> 64 per head */
    check_learned("{\"model_type\":\"distilbert\",\"dim\":1024,\"n_heads\":16}", 5, 512, 0, 1024);
    check_sinusoidal("{\"model_type\":\"distilbert\",\"sinusoidal_pos_embds\":true}", 0,
                     PE_SIN_INTERLEAVED, PE_SIN_FREQ_PAPER, 0, 768);
    check_sinusoidal("{\"model_type\":\"xlm\",\"sinusoidal_embeddings\":true,\"emb_dim\":1024}", 0,
                     PE_SIN_INTERLEAVED, PE_SIN_FREQ_PAPER, 0, 1024);
    /* DeBERTa: embedding_size defaults to hidden_size */
    check_learned("{\"model_type\":\"deberta\",\"hidden_size\":1024,\"num_attention_heads\":16}", 0,
                  512, 0, 1024);
    check_learned("{\"model_type\":\"deberta-v2\"}", 0, 512, 0, 1536);
    /* ESM absolute: 1026 rows from padding_idx + 1 */
    check_learned("{\"model_type\":\"esm\",\"pad_token_id\":1}", 0, 1026, 2, 768);
    /* Encoder-decoders: a table per stack. LED: 16384 encoder rows, 1024 decoder
     * rows; BART-style offset 2 (MVP); Blenderbot from 0, 128 rows */
    check_learned("{\"model_type\":\"led\"}", 0, 16384, 0, 1024);
    check_learned("{\"model_type\":\"led\"}", 12, 1024, 0, 1024);
    check_learned("{\"model_type\":\"bart\"}", 0, 1026, 2, 1024);
    check_learned("{\"model_type\":\"mbart\",\"max_position_embeddings\":512}", 23, 514, 2,
                  1024);
    check_sinusoidal("{\"model_type\":\"marian\",\"d_model\":512}", 0, PE_SIN_CONCATENATED,
                     PE_SIN_FREQ_PAPER, 0, 512);
    check_learned("{\"model_type\":\"mvp\"}", 23, 1026, 2, 1024);
    check_learned("{\"model_type\":\"plbart\"}", 0, 1026, 2, 768);
    check_learned("{\"model_type\":\"blenderbot\"}", 0, 128, 0, 2560);
    /* Pegasus: [sin | cos] at the paper's exponent, ids from 0; PEGASUS-X at
     * tensor2tensor's; fairseq (M2M100, NLLB-MoE, FSMT): T2T from pad + 1 */
    check_sinusoidal("{\"model_type\":\"pegasus\"}", 0, PE_SIN_CONCATENATED, PE_SIN_FREQ_PAPER, 0,
                     1024);
    check_sinusoidal("{\"model_type\":\"pegasus_x\"}", 31, PE_SIN_CONCATENATED, PE_SIN_FREQ_T2T, 0,
                     1024);
    check_sinusoidal("{\"model_type\":\"m2m_100\"}", 0, PE_SIN_CONCATENATED, PE_SIN_FREQ_T2T, 2,
                     1024);
    check_sinusoidal("{\"model_type\":\"m2m_100\",\"pad_token_id\":0,\"d_model\":512}", 0,
                     PE_SIN_CONCATENATED, PE_SIN_FREQ_T2T, 1, 512);
    check_sinusoidal("{\"model_type\":\"nllb-moe\"}", 23, PE_SIN_CONCATENATED, PE_SIN_FREQ_T2T, 2,
                     1024);
    check_sinusoidal("{\"model_type\":\"fsmt\"}", 23, PE_SIN_CONCATENATED, PE_SIN_FREQ_T2T, 2,
                     1024);

    /* Layer counts and stack types of the encoder-decoders. */
    pe_plan *p = plan_json("{\"model_type\":\"blenderbot\",\"encoder_layers\":3,"
                           "\"decoder_layers\":5,\"decoder_attention_heads\":40}");
    if (p != NULL) {
        pe_plan_layer L;
        CHECK(pe_plan_num_layers(p) == 8);
        CHECK_OK(pe_plan_layer_info(p, 2, &L));
        CHECK(strcmp(L.layer_type, "encoder") == 0 && L.head_dim == 80);
        CHECK_OK(pe_plan_layer_info(p, 3, &L));
        CHECK(strcmp(L.layer_type, "decoder") == 0 && L.head_dim == 64);
        pe_plan_free(p);
    }
    /* Switch Transformers: T5's buckets, the first layer of each stack owns it. */
    p = plan_json("{\"model_type\":\"switch_transformers\"}");
    if (p != NULL) {
        pe_plan_t5 t;
        CHECK(pe_plan_num_layers(p) == 24);
        CHECK_OK(pe_plan_layer_t5(p, 5, &t));
        CHECK(t.num_buckets == 32 && t.max_distance == 128 && t.bidirectional == 1 &&
              t.bias_layer == 0 && t.heads == 12);
        CHECK_OK(pe_plan_layer_t5(p, 12, &t));
        CHECK(t.bidirectional == 0 && t.owns_bias && t.bias_layer == 12);
        pe_plan_free(p);
    }
    /* ModernBERT: the keys of its files, and v5's per-layer-type blocks. */
    p = plan_json("{\"model_type\":\"modernbert\"," BASE ",\"num_hidden_layers\":4,"
                  "\"global_attn_every_n_layers\":2,\"global_rope_theta\":320000.0,"
                  "\"local_rope_theta\":20000.0}");
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 2, &L));
        CHECK(L.base == 320000.0 && strcmp(L.layer_type, "full_attention") == 0);
        CHECK_OK(pe_plan_layer_info(p, 3, &L));
        CHECK(L.base == 20000.0 && strcmp(L.layer_type, "sliding_attention") == 0);
        CHECK(pe_plan_num_warnings(p) == 0);
        pe_plan_free(p);
    }
    /* ModernBERT-base's file carries position_embedding_type "absolute", which
     * no ModernBERT code reads: warned, every layer still rotates. */
    p = plan_json("{\"model_type\":\"modernbert\"," BASE ",\"num_hidden_layers\":2,"
                  "\"position_embedding_type\":\"absolute\"}");
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 1, &L));
        CHECK(L.rope && L.base == 10000.0 && pe_plan_num_warnings(p) == 1);
        CHECK(strstr(pe_plan_warning(p, 0), "'position_embedding_type': ModernBERT's code") != NULL);
        pe_plan_free(p);
    }
    p = plan_json("{\"model_type\":\"modernbert\"," BASE ",\"num_hidden_layers\":2,"
                  "\"layer_types\":[\"full_attention\","
                  "\"sliding_attention\"],\"rope_parameters\":{\"full_attention\":{\"rope_type\":"
                  "\"default\",\"rope_theta\":160000.0},\"sliding_attention\":{\"rope_type\":"
                  "\"default\",\"rope_theta\":10000.0}}}");
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 1, &L));
        CHECK(L.base == 10000.0 && L.layout == PE_ROPE_HALF);
        pe_plan_free(p);
    }
    /* RoFormer reads no position_embedding_type either (BERT-exported files
     * may carry one): warned, still rotated. */
    p = plan_json("{\"model_type\":\"roformer\"," BASE ",\"num_hidden_layers\":1,"
                  "\"position_embedding_type\":\"absolute\"}");
    if (p != NULL) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, 0, &L));
        CHECK(L.rope && L.layout == PE_ROPE_INTERLEAVED && pe_plan_num_warnings(p) == 1);
        pe_plan_free(p);
    }
    /* DeBERTa without the table: no position signal. */
    p = plan_json("{\"model_type\":\"deberta\"," BASE ",\"num_hidden_layers\":1,"
                  "\"position_biased_input\":false}");
    if (p != NULL) {
        pe_plan_position pos;
        CHECK_OK(pe_plan_layer_position(p, 0, &pos));
        CHECK(pos.kind == PE_POSITION_NOPE && pe_plan_num_rope_kinds(p) == 0);
        pe_plan_free(p);
    }
}

/* The schemes the group refuses, each with its reason. */
TEST(families_encoders_refusals) {
    check_refused("{\"model_type\":\"deberta\",\"relative_attention\":true}",
                  "'relative_attention': model_type 'deberta' then adds disentangled relative");
    check_refused("{\"model_type\":\"deberta-v2\",\"relative_attention\":true,"
                  "\"position_biased_input\":false}", "position_buckets");
    check_refused("{\"model_type\":\"roformer\"," BASE ",\"rotary_value\":true}",
                  "rotates the values as well");
    check_refused("{\"model_type\":\"yoso\",\"conv_window\":3}", "depthwise convolution");
    check_refused("{\"model_type\":\"splinter\",\"position_embedding_type\":\"relative_key\"}",
                  "adds no position table and its attention reads no relative positions");
    check_refused("{\"model_type\":\"ibert\",\"position_embedding_type\":\"relative_key\"}",
                  "I-BERT only supports 'absolute'");
    check_refused("{\"model_type\":\"albert\",\"position_embedding_type\":\"relative_key_query\"}",
                  "then uses relative position embeddings");
    check_refused("{\"model_type\":\"esm\",\"position_embedding_type\":\"relative_key\","
                  "\"pad_token_id\":1}", "then uses relative position embeddings");
    check_refused("{\"model_type\":\"mpnet\"}", "two position signals in one model");
    check_refused("{\"model_type\":\"xlnet\"}", "Transformer-XL relative attention");
    check_refused("{\"model_type\":\"reformer\"}", "axial position embeddings");
    check_refused("{\"model_type\":\"fnet\"}", "no attention");
    check_refused("{\"model_type\":\"funnel\"}", "relative_shift");
    check_refused("{\"model_type\":\"nystromformer\"}", "conv_kernel_size");
    check_refused("{\"model_type\":\"encoder-decoder\"}", "a wrapper of two models");
    /* ESM's class has no pad_token_id default: its absolute ids are refused
     * without one, never guessed. */
    pe_plan *p = NULL;
    const char *esm = "{\"model_type\":\"esm\"}";
    CHECK_ERROR(pe_plan_from_config_json(esm, strlen(esm), &p), PE_ERR_FORMAT,
                "config has no 'pad_token_id'");
}

/* OpenAIPrivacyFilterConfig without keys: GptOssConfig's class-default YaRN block
 * (factor 32, beta_fast 32, beta_slow 1, truncate False, original 4096; attention
 * factor 0.1 ln 32 + 1 by YaRN's default get_mscale) on every layer, all of them
 * sliding_attention ("SWA only": the class has no layer_types); restated from
 * openai_privacy_filter/modular_openai_privacy_filter.py and gpt_oss/configuration_gpt_oss.py
 * at decba1d2ea4e. */
TEST(families_encoders_privacy_filter_class_default_yarn) {
    const char *json = "{\"model_type\":\"openai_privacy_filter\"}";
    pe_plan *p = NULL;
    CHECK_OK(pe_plan_from_config_json(json, strlen(json), &p));
    if (p == NULL) return;
    CHECK(pe_plan_num_layers(p) == 8);
    for (int64_t l = 0; l < pe_plan_num_layers(p); l++) {
        pe_plan_layer L;
        CHECK_OK(pe_plan_layer_info(p, l, &L));
        CHECK_MSG(strcmp(L.layer_type, "sliding_attention") == 0, "layer %lld: %s",
                  (long long)l, L.layer_type);
        pe_rope_scaling sc;
        CHECK_OK(pe_plan_layer_scaling(p, l, 0, &sc));
        CHECK(sc.type == PE_SCALING_YARN && sc.factor == 32.0 && sc.beta_fast == 32.0 &&
              sc.beta_slow == 1.0 && sc.truncate == 0 && sc.original_max_position == 4096);
    }
    static pe_freqs fr;
    CHECK_OK(pe_plan_layer_freqs(p, 0, 4096, &fr, NULL));
    CHECK_NEAR(fr.attention_factor, 0.1 * log(32.0) + 1.0, 1e-12);
    pe_plan_free(p);
}
