/*
 * families_hf_encoders.c — one group of the Hugging Face family registry:
 * encoders (BERT and its kin), encoder-decoders and relative-position schemes.
 * The record type and its rules are in plan_internal.h; docs/FAMILIES.md
 * says how to add a record. Each record's `source` names the transformers
 * files read and the commit (docs/FAMILIES.md §3.2: "a5a1a5746d82" is
 * huggingface/transformers' history as carried by the public fork
 * AbdulShabazz/huggingface-transformers-2025-fork-, 2025-08-29), and
 * tests/test_families_encoders.c restates each record's class defaults from
 * the same sources.
 */
#include "plan_internal.h"

#include <math.h>
#include <stddef.h>

/* Families whose code reads position_embedding_type only to decide whether
 * to add the absolute table: another value leaves the model without any
 * position signal (their attention has no relative_key branch). */
#define NO_TABLE_OTHERWISE "adds no position table and its attention reads no relative " \
                           "positions: no position signal at all"

/* ------------------------------------------- learned absolute, BERT-like */

/* AlbertConfig: embedding_size=128, hidden_size=4096, num_hidden_layers=12,
 * num_attention_heads=64, max_position_embeddings=512; AlbertEmbeddings:
 * position_embeddings = nn.Embedding(max_position_embeddings,
 * embedding_size), position ids from 0; relative_key / relative_key_query
 * in AlbertAttention. */
static const pe__family albert = {
    .model_type = "albert", .position = PE_POSITION_LEARNED,
    .source = "models/albert/configuration_albert.py at a5a1a5746d82 (embedding_size=128, "
              "hidden_size=4096, num_hidden_layers=12, num_attention_heads=64, "
              "max_position_embeddings=512, position_embedding_type=\"absolute\"), "
              "modeling_albert.py:184 (nn.Embedding(max_position_embeddings, embedding_size), "
              "ids from 0)",
    .defaults = {.heads = 64, .layers = 12, .hidden = 4096},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute",
                .dim_key = "embedding_size", .dim_default = 128},
};
/* ElectraConfig: embedding_size=128, hidden_size=256, 12 layers, 4 heads,
 * 512 positions; the table is embedding_size wide. */
static const pe__family electra = {
    .model_type = "electra", .position = PE_POSITION_LEARNED,
    .source = "models/electra/configuration_electra.py at a5a1a5746d82 (embedding_size=128, "
              "hidden_size=256, num_hidden_layers=12, num_attention_heads=4, "
              "max_position_embeddings=512), modeling_electra.py:139 (nn.Embedding("
              "max_position_embeddings, embedding_size), ids from 0; relative_key branches)",
    .defaults = {.heads = 4, .layers = 12, .hidden = 256},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute",
                .dim_key = "embedding_size", .dim_default = 128},
};
/* ConvBertConfig: embedding_size=768 (the table's width), 768 / 12 / 12,
 * 512 positions from 0; SqueezeBertConfig likewise (embedding_size=768). */
static const pe__family convbert = {
    .model_type = "convbert", .position = PE_POSITION_LEARNED,
    .source = "models/convbert/configuration_convbert.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "embedding_size=768), modeling_convbert.py:179 (nn.Embedding("
              "max_position_embeddings, embedding_size), ids from 0)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .dim_key = "embedding_size", .dim_default = 768},
};
static const pe__family squeezebert = {
    .model_type = "squeezebert", .position = PE_POSITION_LEARNED,
    .source = "models/squeezebert/configuration_squeezebert.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "embedding_size=768), modeling_squeezebert.py:51 (nn.Embedding("
              "max_position_embeddings, embedding_size), ids from 0)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .dim_key = "embedding_size", .dim_default = 768},
};
/* MobileBertConfig: hidden_size=512, 24 layers, 4 heads, 512 positions;
 * its position table is hidden_size wide (embedding_size 128 is the word
 * embeddings' width only). */
static const pe__family mobilebert = {
    .model_type = "mobilebert", .position = PE_POSITION_LEARNED,
    .source = "models/mobilebert/configuration_mobilebert.py at a5a1a5746d82 (hidden_size=512, "
              "num_hidden_layers=24, num_attention_heads=4, max_position_embeddings=512), "
              "modeling_mobilebert.py:154 (nn.Embedding(max_position_embeddings, hidden_size), "
              "ids from 0)",
    .defaults = {.heads = 4, .layers = 24, .hidden = 512},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512},
};
/* RemBertConfig: hidden_size=1152, 32 layers, 18 heads, 512 positions,
 * input_embedding_size=256 (the table's width). */
static const pe__family rembert = {
    .model_type = "rembert", .position = PE_POSITION_LEARNED,
    .source = "models/rembert/configuration_rembert.py at a5a1a5746d82 (hidden_size=1152, "
              "num_hidden_layers=32, num_attention_heads=18, max_position_embeddings=512, "
              "input_embedding_size=256), modeling_rembert.py:141 (nn.Embedding("
              "max_position_embeddings, input_embedding_size), ids from 0)",
    .defaults = {.heads = 18, .layers = 32, .hidden = 1152},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .dim_key = "input_embedding_size", .dim_default = 256},
};
/* BERT's embeddings and attention (relative_key branches):
 * BertGenerationConfig 1024 / 24 / 16; RoCBertConfig 768 / 12 / 12; DPR
 * (its encoders are BertModel) 768 / 12 / 12; 512 positions from 0. */
static const pe__family bert_generation = {
    .model_type = "bert-generation", .position = PE_POSITION_LEARNED,
    .source = "models/bert_generation/configuration_bert_generation.py at a5a1a5746d82 "
              "(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, "
              "max_position_embeddings=512, position_embedding_type=\"absolute\"), "
              "modeling_bert_generation.py:530 (ids from 0; relative_key branches)",
    .defaults = {.heads = 16, .layers = 24, .hidden = 1024},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
static const pe__family roc_bert = {
    .model_type = "roc_bert", .position = PE_POSITION_LEARNED,
    .source = "models/roc_bert/configuration_roc_bert.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "position_embedding_type=\"absolute\"), modeling_roc_bert.py:136 (ids from 0; "
              "relative_key branches)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
static const pe__family dpr = {
    .model_type = "dpr", .position = PE_POSITION_LEARNED,
    .source = "models/dpr/configuration_dpr.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "position_embedding_type=\"absolute\"), modeling_dpr.py (DPREncoder: BertModel)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
/* BigBirdConfig: 768 / 12 / 12, max_position_embeddings=4096, ids from 0
 * (block-sparse attention changes which keys a query sees, not positions). */
static const pe__family big_bird = {
    .model_type = "big_bird", .position = PE_POSITION_LEARNED,
    .source = "models/big_bird/configuration_big_bird.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=4096), "
              "modeling_big_bird.py:236 (nn.Embedding(max_position_embeddings, hidden_size), "
              "ids from 0)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 4096},
};
/* SplinterConfig: 768 / 12 / 12, 512 positions from 0; a
 * position_embedding_type other than "absolute" skips the table and its
 * attention has no relative branch. */
static const pe__family splinter = {
    .model_type = "splinter", .position = PE_POSITION_LEARNED,
    .source = "models/splinter/configuration_splinter.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512), "
              "modeling_splinter.py:47,86 (ids from 0; the table is added only if "
              "position_embedding_type == \"absolute\")",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .kind_key = "position_embedding_type", .kind_value = "absolute",
                .other_kind = NO_TABLE_OTHERWISE},
};
/* LayoutLMConfig: 768 / 12 / 12, 512 positions from 0; the x / y / h / w
 * tables embed each token's bounding box (an input feature like the token
 * type), not its place in the sequence. modeling_layoutlm.py never reads
 * position_embedding_type (LayoutLMConfig has it): a value in the file is
 * warned and ignored, the table is always added (MarkupLM likewise). */
static const pe__family layoutlm = {
    .model_type = "layoutlm", .position = PE_POSITION_LEARNED,
    .source = "models/layoutlm/configuration_layoutlm.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512), "
              "modeling_layoutlm.py:52 (position_embeddings, ids from 0; x/y/h/w_position_"
              "embeddings embed the bbox input)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512},
};

/* ------------------------------- learned absolute, RoBERTa-style offsets */

/* Position ids from padding_idx + 1 (create_position_ids_from_input_ids,
 * padding_idx = pad_token_id) inside max_position_embeddings rows. */
static const pe__family ibert = {
    .model_type = "ibert", .position = PE_POSITION_LEARNED,
    .source = "models/ibert/configuration_ibert.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "pad_token_id=1), modeling_ibert.py:111,224 (ids from padding_idx + 1; "
              "IBertSelfAttention raises on a non-absolute position_embedding_type)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .pad_offset_key = "pad_token_id",
                .kind_key = "position_embedding_type", .kind_value = "absolute",
                .other_kind = "raises ValueError (\"I-BERT only supports 'absolute'\")"},
};
static const pe__family longformer = {
    .model_type = "longformer", .position = PE_POSITION_LEARNED,
    .source = "models/longformer/configuration_longformer.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "pad_token_id=1), modeling_longformer.py:402,410 (ids from padding_idx + 1; the "
              "sliding-window attention changes which keys a query sees, not positions)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .pad_offset_key = "pad_token_id"},
};
/* LUKE: word tokens as RoBERTa; entity tokens (a second input sequence)
 * take the mean of their mention's word-position rows of a separate table. */
static const pe__family luke = {
    .model_type = "luke", .position = PE_POSITION_LEARNED,
    .source = "models/luke/configuration_luke.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "pad_token_id=1), modeling_luke.py:309,323 (word ids from padding_idx + 1; "
              "LukeEntityEmbeddings: entity tokens average their mention's rows of their own "
              "table)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .pad_offset_key = "pad_token_id"},
};
/* MarkupLMConfig: pad_token_id=0, so its RoBERTa-style ids start at 1. */
static const pe__family markuplm = {
    .model_type = "markuplm", .position = PE_POSITION_LEARNED,
    .source = "models/markuplm/configuration_markuplm.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "pad_token_id=0), modeling_markuplm.py:134,176 (RoBERTa's "
              "create_position_ids_from_input_ids: ids from padding_idx + 1; xpath embeddings "
              "are an input feature)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 1,
                .pad_offset_key = "pad_token_id"},
};
static const pe__family xmod = {
    .model_type = "xmod", .position = PE_POSITION_LEARNED,
    .source = "models/xmod/configuration_xmod.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "pad_token_id=1, position_embedding_type=\"absolute\"), modeling_xmod.py:77,87 (ids "
              "from padding_idx + 1; relative_key branches)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .offset = 2,
                .pad_offset_key = "pad_token_id",
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
/* VisualBERT: text tokens from 0 in a 512-row table; visual tokens (a
 * second input) get their own visual_position_embeddings rows. */
static const pe__family visual_bert = {
    .model_type = "visual_bert", .position = PE_POSITION_LEARNED,
    .source = "models/visual_bert/configuration_visual_bert.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512), "
              "modeling_visual_bert.py:49,66 (text ids from 0; visual tokens: "
              "visual_position_embeddings)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512},
};

/* ------------------------- learned absolute, max_position_embeddings + 2 */

/* MRA / YOSO: nn.Embedding(max_position_embeddings + 2, hidden_size) looked
 * up at arange(max_position_embeddings) + 2. */
static const pe__family mra = {
    .model_type = "mra", .position = PE_POSITION_LEARNED,
    .source = "models/mra/configuration_mra.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512), "
              "modeling_mra.py:470,479,514 (max_position_embeddings + 2 rows, ids from 2; added "
              "only if position_embedding_type == \"absolute\")",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512, .rows_extra = 2,
                .offset = 2, .kind_key = "position_embedding_type", .kind_value = "absolute",
                .other_kind = NO_TABLE_OTHERWISE},
};
static const pe__family yoso = {
    .model_type = "yoso", .position = PE_POSITION_LEARNED,
    .source = "models/yoso/configuration_yoso.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=4096, "
              "conv_window=None), modeling_yoso.py:238,248,284 (max_position_embeddings + 2 rows, "
              "ids from 2; added only if position_embedding_type == \"absolute\")",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 4096, .rows_extra = 2,
                .offset = 2, .kind_key = "position_embedding_type", .kind_value = "absolute",
                .other_kind = NO_TABLE_OTHERWISE},
    .refuse_if = {{.key = "conv_window",
                   .why = "adds a depthwise convolution over the sequence to every attention "
                          "output (conv_window), a position signal posenc does not plan"}},
};

/* ---------------------------- learned or sinusoidal, by a boolean switch */

/* DistilBertConfig: dim=768, n_layers=6, n_heads=12, 512 positions,
 * sinusoidal_pos_embds=False; with it true the table is filled by
 * create_sinusoidal_embeddings: angle pos / 10000^(2 (j // 2) / dim), sin
 * on the even columns, cos on the odd (interleaved, the paper's exponent). */
static const pe__family distilbert = {
    .model_type = "distilbert", .position = PE_POSITION_LEARNED,
    .source = "models/distilbert/configuration_distilbert.py at a5a1a5746d82 "
              "(max_position_embeddings=512, sinusoidal_pos_embds=False, n_layers=6, n_heads=12, "
              "dim=768; attribute_map hidden_size -> dim), modeling_distilbert.py:77-89 "
              "(out[:, 0::2] = sin, out[:, 1::2] = cos of pos / 10000^(2 (j // 2) / dim); ids "
              "from 0)",
    .defaults = {.heads = 12, .layers = 6, .hidden = 768},
    .hidden_key = "dim",
    .kind_switch = {.key = "sinusoidal_pos_embds", .when_true = PE_POSITION_SINUSOIDAL},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512},
    .sinusoidal = {.layout = PE_SIN_INTERLEAVED, .convention = PE_SIN_FREQ_PAPER},
};
/* XLMConfig / FlaubertConfig: emb_dim=2048, n_layers=12, n_heads=16, 512
 * positions from 0, sinusoidal_embeddings=False (true: XLM's
 * create_sinusoidal_embeddings, DistilBERT's interleaved table). */
static const pe__family xlm = {
    .model_type = "xlm", .position = PE_POSITION_LEARNED,
    .source = "models/xlm/configuration_xlm.py at a5a1a5746d82 (emb_dim=2048, n_layers=12, "
              "n_heads=16, sinusoidal_embeddings=False, max_position_embeddings=512; "
              "attribute_map hidden_size -> emb_dim), modeling_xlm.py:48-53,728,848 "
              "(create_sinusoidal_embeddings: sin on even, cos on odd columns; ids from 0)",
    .defaults = {.heads = 16, .layers = 12, .hidden = 2048},
    .hidden_key = "emb_dim",
    .kind_switch = {.key = "sinusoidal_embeddings", .when_true = PE_POSITION_SINUSOIDAL},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512},
    .sinusoidal = {.layout = PE_SIN_INTERLEAVED, .convention = PE_SIN_FREQ_PAPER},
};
static const pe__family flaubert = {
    .model_type = "flaubert", .position = PE_POSITION_LEARNED,
    .source = "models/flaubert/configuration_flaubert.py at a5a1a5746d82 (emb_dim=2048, "
              "n_layers=12, n_heads=16, sinusoidal_embeddings=False, max_position_embeddings=512), "
              "modeling_flaubert.py:47,751 (XLM's create_sinusoidal_embeddings; ids from 0)",
    .defaults = {.heads = 16, .layers = 12, .hidden = 2048},
    .hidden_key = "emb_dim",
    .kind_switch = {.key = "sinusoidal_embeddings", .when_true = PE_POSITION_SINUSOIDAL},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512},
    .sinusoidal = {.layout = PE_SIN_INTERLEAVED, .convention = PE_SIN_FREQ_PAPER},
};

/* DeBERTa (v1, v2): DebertaConfig relative_attention=False,
 * position_biased_input=True: then a plain learned table (embedding_size =
 * getattr(config, "embedding_size", hidden_size) wide, ids from 0);
 * position_biased_input false drops it; relative_attention true adds the
 * disentangled attention, which posenc does not model. */
static const pe__family deberta = {
    .model_type = "deberta", .position = PE_POSITION_NOPE,
    .source = "models/deberta/configuration_deberta.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=512, "
              "relative_attention=False, position_biased_input=True), modeling_deberta.py:356-363 "
              "(the table only if position_biased_input; DisentangledSelfAttention when "
              "relative_attention)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .kind_switch = {.key = "position_biased_input", .default_value = true,
                    .when_true = PE_POSITION_LEARNED},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .dim_key = "embedding_size"},
    .refuse_if = {{.key = "relative_attention",
                   .why = "adds disentangled relative attention (content-to-position and "
                          "position-to-content scores over relative distances clipped to "
                          "max_relative_positions), which posenc does not model"}},
};
static const pe__family deberta_v2 = {
    .model_type = "deberta-v2", .position = PE_POSITION_NOPE,
    .source = "models/deberta_v2/configuration_deberta_v2.py at a5a1a5746d82 (hidden_size=1536, "
              "num_hidden_layers=24, num_attention_heads=24, max_position_embeddings=512, "
              "relative_attention=False, position_biased_input=True), modeling_deberta_v2.py:498-"
              "505 (the table only if position_biased_input; disentangled attention with log "
              "buckets (position_buckets) when relative_attention)",
    .defaults = {.heads = 24, .layers = 24, .hidden = 1536},
    .kind_switch = {.key = "position_biased_input", .default_value = true,
                    .when_true = PE_POSITION_LEARNED},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512,
                .dim_key = "embedding_size"},
    .refuse_if = {{.key = "relative_attention",
                   .why = "adds disentangled relative attention (content-to-position and "
                          "position-to-content scores over log-bucketed relative distances, "
                          "position_buckets), which posenc does not model"}},
};

/* ------------------------------------------------------ RoPE encoders */

/* RoFormerConfig: 768 / 12 / 12, max_position_embeddings=1536,
 * rotary_value=False; RoFormerSinusoidalPositionalEmbedding over
 * hidden_size // num_attention_heads: frequencies 10000^(-2i/d) (the [sin |
 * cos] table), applied to pairs (x[2i], x[2i+1]) (interleaved); with
 * rotary_value the values are rotated too. */
static const pe__family roformer = {
    .model_type = "roformer", .position = PE_POSITION_ROPE,
    .source = "models/roformer/configuration_roformer.py at a5a1a5746d82 (hidden_size=768, "
              "num_attention_heads=12, max_position_embeddings=1536, rotary_value=False), "
              "modeling_roformer.py:51-70,315-337,516 (sin/cos of pos / 10000^(2 (j // 2) / d) "
              "over d = hidden_size // num_attention_heads; stack([-x[1::2], x[::2]]): "
              "interleaved pairs)",
    .defaults = {.rope_theta = 10000.0, .max_position = 1536,
                 .layers = 12, .hidden = 768, .heads = 12},
    .pairs = {.layout = PE_ROPE_INTERLEAVED},
    .refuse_if = {{.key = "rotary_value",
                   .why = "rotates the values as well as queries and keys, which a RoPE plan "
                          "of q/k does not describe"}},
    .ignored = {{.key = "position_embedding_type", .used = NAN,
                 .why = "RoFormer's code does not read it (RoPE in every layer)"}},
};
/* EsmConfig: position_embedding_type="absolute" (a learned table of
 * max_position_embeddings=1026 rows, ids from padding_idx + 1), "rotary"
 * (RotaryEmbedding over the head: inv_freq 1 / 10000^(2i/d), rotate_half),
 * or relative_key variants; 768 / 12 / 12. */
static const pe__family esm = {
    .model_type = "esm", .position = PE_POSITION_LEARNED,
    .source = "models/esm/configuration_esm.py at a5a1a5746d82 (hidden_size=768, "
              "num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=1026, "
              "position_embedding_type=\"absolute\", pad_token_id=None), modeling_esm.py:44-56,"
              "178-201,334 (rotary: rotate_half over attention_head_size, base 10000; absolute: "
              "ids from padding_idx + 1)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768, .rope_theta = 10000.0,
                 .max_position = 1026},
    .kind_switch = {.key = "position_embedding_type", .equals = "rotary",
                    .when_true = PE_POSITION_ROPE},
    .pairs = {.layout = PE_ROPE_HALF},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 1026,
                .pad_offset_key = "pad_token_id", /* no offset default: pad_token_id None */
                .kind_key = "position_embedding_type", .kind_value = "absolute"},
};
/* ModernBertConfig (v5, 001f85b38fb4): 768 / 22 layers / 12 heads,
 * max_position_embeddings=8192; layer_types default "sliding_attention" if
 * i % global_attn_every_n_layers (3) else "full_attention"; full layers at
 * global_rope_theta (160000), sliding layers at local_rope_theta (10000);
 * rope_parameters per layer type in v5 files; rotate_half. */
static const pe__family modernbert = {
    .model_type = "modernbert", .position = PE_POSITION_ROPE,
    .source = "models/modernbert/configuration_modernbert.py at 001f85b38fb4 "
              "(default_theta {global: 160000, local: 10000}, max_position_embeddings=8192, "
              "layer_types: sliding_attention if i % global_attn_every_n_layers (3)), "
              "modeling_modernbert.py at a5a1a5746d82:281-311,464-480 (rotate_half; local layers "
              "local_rope_theta, window local_attention // 2 each side)",
    .defaults = {.rope_theta = 160000.0, .max_position = 8192, .local_base = 10000.0,
                 .pattern = 3, .layers = 22, .hidden = 768, .heads = 12},
    .pairs = {.layout = PE_ROPE_HALF},
    .layers = PE__LAYERS_FULL_EVERY_NTH,
    .pattern_key = "global_attn_every_n_layers",
    .sliding = PE__SLIDING_LOCAL_BASE,
    .local_base_key = "local_rope_theta",
    .base_alias = "global_rope_theta",
    /* ModernBERT-base's config.json still says "absolute"; no ModernBERT code
     * reads it: every layer rotates */
    .ignored = {{.key = "position_embedding_type", .used = NAN,
                 .why = "ModernBERT's code does not read it (RoPE in every layer)"}},
};

/* EuroBertConfig (v5 dataclass, 008e57439125): max_position_embeddings
 * 8192, head_dim hidden_size // num_attention_heads, no default_theta
 * (10000; the v4 class, modular_eurobert.py at 1d24d635ac64, defaulted to
 * 250000 and released files state it); EuroBertAttention(LlamaAttention):
 * Llama's apply_rotary_pos_emb (rotate_half) in every layer, not causal. */
static const pe__family eurobert = {
    .model_type = "eurobert", .position = PE_POSITION_ROPE,
    .source = "models/eurobert/configuration_eurobert.py at 008e57439125 (max_position_embeddings: "
              "int = 8192, head_dim = hidden_size // num_attention_heads, no default_theta: 10000; "
              "v4's modular at 1d24d635ac64 defaulted rope_theta to 250000), modular_eurobert.py at "
              "1d24d635ac64 (EuroBertAttention(LlamaAttention), Llama's apply_rotary_pos_emb)",
    .defaults = {.rope_theta = 10000.0, .max_position = 8192,
                 .layers = 12, .hidden = 768, .heads = 12},
    .pairs = {.layout = PE_ROPE_HALF},
};
/* JinaEmbeddingsV3Config: rope_parameters default {"rope_theta": 20000.0},
 * max_position_embeddings 8194, position_embedding_type "rotary"; no
 * absolute table; LlamaRotaryEmbedding and Llama's apply_rotary_pos_emb. */
static const pe__family jina_embeddings_v3 = {
    .model_type = "jina_embeddings_v3", .position = PE_POSITION_ROPE,
    .source = "models/jina_embeddings_v3/configuration_jina_embeddings_v3.py at 0bb18c9777ce "
              "(rope_parameters default {\"rope_theta\": 20000.0}, max_position_embeddings=8194, "
              "hidden_size=1024, num_attention_heads=16), modular_jina_embeddings_v3.py at "
              "00b93db91a59 (no position table; LlamaRotaryEmbedding, Llama's "
              "apply_rotary_pos_emb)",
    .defaults = {.rope_theta = 20000.0, .max_position = 8194,
                 .layers = 24, .hidden = 1024, .heads = 16},
    .pairs = {.layout = PE_ROPE_HALF},
};

/* -------------------------------------------- T5 buckets, encoder-decoder */

/* SwitchTransformersConfig: num_layers=12, num_decoder_layers=12,
 * num_heads=12, d_model=768, buckets 32, max distance 128; T5's attention
 * (has_relative_attention_bias on the first layer of each stack). */
static const pe__family switch_transformers = {
    .model_type = "switch_transformers", .position = PE_POSITION_T5,
    .source = "models/switch_transformers/configuration_switch_transformers.py at a5a1a5746d82 "
              "(num_layers=12, num_decoder_layers=12, num_heads=12, d_model=768, "
              "relative_attention_num_buckets=32, relative_attention_max_distance=128), "
              "modeling_switch_transformers.py (T5's attention: the first layer of each stack "
              "holds the bias)",
    .defaults = {.heads = 12, .layers = 12, .hidden = 768},
    .layers = PE__LAYERS_ENCODER_DECODER,
    .t5 = {.num_buckets = 32, .max_distance = 128},
};

/* ---------------------- encoder-decoders with a table in each stack */

/* BART's keys: encoder_layers / decoder_layers, encoder_ /
 * decoder_attention_heads, d_model, max_position_embeddings. */
static const pe__family blenderbot = {
    .model_type = "blenderbot", .position = PE_POSITION_LEARNED,
    .source = "models/blenderbot/configuration_blenderbot.py at a5a1a5746d82 "
              "(max_position_embeddings=128, encoder_layers=2, decoder_layers=24, attention heads "
              "32, d_model=2560), modeling_blenderbot.py:81-97 (BlenderbotLearnedPositionalEmbedding: "
              "no offset, ids from 0, in each stack)",
    .defaults = {.hidden = 2560},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 2, .dec_layers = 24, .enc_heads = 32, .dec_heads = 32},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 128},
};
static const pe__family blenderbot_small = {
    .model_type = "blenderbot-small", .position = PE_POSITION_LEARNED,
    .source = "models/blenderbot_small/configuration_blenderbot_small.py at a5a1a5746d82 "
              "(max_position_embeddings=512, encoder_layers=8, decoder_layers=8, attention heads "
              "16, d_model=512), modeling_blenderbot_small.py:79-95 (no offset, ids from 0)",
    .defaults = {.hidden = 512},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 8, .dec_layers = 8, .enc_heads = 16, .dec_heads = 16},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 512},
};
static const pe__family bigbird_pegasus = {
    .model_type = "bigbird_pegasus", .position = PE_POSITION_LEARNED,
    .source = "models/bigbird_pegasus/configuration_bigbird_pegasus.py at a5a1a5746d82 "
              "(max_position_embeddings=4096, encoder_layers=16, decoder_layers=16, attention "
              "heads 16, d_model=1024), modeling_bigbird_pegasus.py:76-90,1798,2077 (no offset, "
              "ids from 0)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 16, .dec_layers = 16, .enc_heads = 16, .dec_heads = 16},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 4096},
};
/* LEDConfig: max_encoder_position_embeddings=16384 (the encoder's table),
 * max_decoder_position_embeddings=1024 (the decoder's). */
static const pe__family led = {
    .model_type = "led", .position = PE_POSITION_LEARNED,
    .source = "models/led/configuration_led.py at a5a1a5746d82 (max_encoder_position_embeddings="
              "16384, max_decoder_position_embeddings=1024, encoder_layers=12, decoder_layers=12, "
              "attention heads 16, d_model=1024), modeling_led.py:76-90,1372,1633 (no offset, ids "
              "from 0)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .learned = {.rows_key = "max_encoder_position_embeddings", .rows_default = 16384,
                .dec_rows_key = "max_decoder_position_embeddings", .dec_rows_default = 1024},
};
/* BartConfig / MBartConfig: max_position_embeddings=1024, 12 + 12 layers,
 * 16 heads, d_model=1024; Bart/MBartLearnedPositionalEmbedding: offset 2
 * (num_embeddings + 2 rows, position_ids + 2) in each stack. These were
 * refusals in families_hf.c until the two-stack rule. */
static const pe__family bart = {
    .model_type = "bart", .position = PE_POSITION_LEARNED,
    .source = "models/bart/configuration_bart.py at a5a1a5746d82 (max_position_embeddings=1024, "
              "encoder_layers=12, decoder_layers=12, attention heads 16, d_model=1024), "
              "modeling_bart.py at 57228229d2ee (BartLearnedPositionalEmbedding: offset 2)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 1024, .rows_extra = 2,
                .offset = 2},
};
static const pe__family mbart = {
    .model_type = "mbart", .position = PE_POSITION_LEARNED,
    .source = "models/mbart/configuration_mbart.py at a5a1a5746d82 (max_position_embeddings=1024, "
              "encoder_layers=12, decoder_layers=12, attention heads 16, d_model=1024), "
              "modeling_mbart.py at 158e70c28570 (MBartLearnedPositionalEmbedding: offset 2)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 1024, .rows_extra = 2,
                .offset = 2},
};
/* MarianConfig: 1024 positions, 12 + 12 layers, 16 heads, d_model=1024;
 * MarianSinusoidalPositionalEmbedding is Pegasus's table ([sin | cos], the
 * paper's exponent), ids from 0. */
static const pe__family marian = {
    .model_type = "marian", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/marian/configuration_marian.py at a5a1a5746d82 (max_position_embeddings=1024, "
              "encoder_layers=12, decoder_layers=12, attention heads 16, d_model=1024), "
              "modeling_marian.py at d02747e153da (MarianSinusoidalPositionalEmbedding: "
              "out[:, :sentinel] = sin, out[:, sentinel:] = cos of pos / 10000^(2 (j // 2) / d); "
              "ids from 0)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_PAPER},
};
/* MVP / PLBart: BART's table, max_position_embeddings + 2 rows, ids + 2. */
static const pe__family mvp = {
    .model_type = "mvp", .position = PE_POSITION_LEARNED,
    .source = "models/mvp/configuration_mvp.py at a5a1a5746d82 (max_position_embeddings=1024, "
              "encoder_layers=12, decoder_layers=12, attention heads 16, d_model=1024), "
              "modeling_mvp.py:69-91 (offset 2: num_embeddings + 2 rows, position_ids + 2)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 1024, .rows_extra = 2,
                .offset = 2},
};
static const pe__family plbart = {
    .model_type = "plbart", .position = PE_POSITION_LEARNED,
    .source = "models/plbart/configuration_plbart.py at a5a1a5746d82 (max_position_embeddings=1024, "
              "encoder_layers=6, decoder_layers=6, attention heads 12, d_model=768), "
              "modeling_plbart.py:277-299 (offset 2)",
    .defaults = {.hidden = 768},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 6, .dec_layers = 6, .enc_heads = 12, .dec_heads = 12},
    .learned = {.rows_key = "max_position_embeddings", .rows_default = 1024, .rows_extra = 2,
                .offset = 2},
};
/* Pegasus: PegasusSinusoidalPositionalEmbedding, sin of the even angles in
 * the first half, cos of the odd in the second ([sin | cos], the paper's
 * exponent 2 (j // 2) / d), ids from 0. */
static const pe__family pegasus = {
    .model_type = "pegasus", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/pegasus/configuration_pegasus.py at a5a1a5746d82 (max_position_embeddings="
              "1024, encoder_layers=12, decoder_layers=12, attention heads 16, d_model=1024), "
              "modeling_pegasus.py:81-99 (out[:, :sentinel] = sin(pos / 10000^(2 (j // 2) / d))"
              "[0::2], out[:, sentinel:] = cos(...)[1::2]; ids from 0)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_PAPER},
};
/* PegasusX: sin | cos halves of position * exp(-log(10000) i / (d/2 - 1))
 * (tensor2tensor's exponent), ids from 0; 16 + 16 layers, 16384 positions. */
static const pe__family pegasus_x = {
    .model_type = "pegasus_x", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/pegasus_x/configuration_pegasus_x.py at a5a1a5746d82 (max_position_embeddings="
              "16384, encoder_layers=16, decoder_layers=16, attention heads 16, d_model=1024), "
              "modeling_pegasus_x.py:106-133 (div_term exp(-log(10000) i / (half - 1)); pe[:, :half] "
              "= sin, pe[:, half:] = cos; ids from 0)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 16, .dec_layers = 16, .enc_heads = 16, .dec_heads = 16},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_T2T},
};
/* fairseq's sinusoids (M2M100, NLLB-MoE, FSMT): emb = exp(-log(10000) i /
 * (half_dim - 1)), cat([sin, cos]), ids from padding_idx + 1 (pad 1: 2). */
static const pe__family m2m_100 = {
    .model_type = "m2m_100", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/m2m_100/configuration_m2m_100.py at a5a1a5746d82 (max_position_embeddings="
              "1024, encoder_layers=12, decoder_layers=12, attention heads 16, d_model=1024, "
              "pad_token_id=1), modeling_m2m_100.py:100-176 (get_embedding: cat([sin, cos]) at "
              "exp(-log(10000) i / (half_dim - 1)); ids from padding_idx + 1)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_T2T, .offset = 2,
                   .pad_offset_key = "pad_token_id"},
};
static const pe__family nllb_moe = {
    .model_type = "nllb-moe", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/nllb_moe/configuration_nllb_moe.py at a5a1a5746d82 (max_position_embeddings="
              "1024, encoder_layers=12, decoder_layers=12, attention heads 16, d_model=1024, "
              "pad_token_id=1), modeling_nllb_moe.py:154-230 (M2M100's sinusoids, ids from "
              "padding_idx + 1)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_T2T, .offset = 2,
                   .pad_offset_key = "pad_token_id"},
};
static const pe__family fsmt = {
    .model_type = "fsmt", .position = PE_POSITION_SINUSOIDAL,
    .source = "models/fsmt/configuration_fsmt.py at a5a1a5746d82 (d_model=1024, "
              "max_position_embeddings=1024, encoder_layers=12, decoder_layers=12, attention heads "
              "16, pad_token_id=1), modeling_fsmt.py:352,561,1185-1249 (fairseq's "
              "SinusoidalPositionalEmbedding: cat([sin, cos]) at exp(-log(10000) i / (half_dim - "
              "1)), ids from padding_idx + 1)",
    .defaults = {.hidden = 1024},
    .layers = PE__LAYERS_TWO_STACKS,
    .stacks = {.enc_layers = 12, .dec_layers = 12, .enc_heads = 16, .dec_heads = 16},
    .sinusoidal = {.layout = PE_SIN_CONCATENATED, .convention = PE_SIN_FREQ_T2T, .offset = 2,
                   .pad_offset_key = "pad_token_id"},
};

/* ------------------------------------------- families posenc refuses */

static const pe__family mpnet = {
    .model_type = "mpnet", .position = PE_POSITION_T5,
    .source = "models/mpnet/configuration_mpnet.py at a5a1a5746d82 (relative_attention_num_buckets="
              "32, max_position_embeddings=512, pad_token_id=1), modeling_mpnet.py:71-98,319,331,"
              "363-394",
    .refusal = "two position signals in one model: RoBERTa's learned table (ids from padding_idx "
               "+ 1) added to the input, and a T5-style bidirectional bucket bias in every layer "
               "from one relative_attention_bias table in the encoder (its bucket function always "
               "called with 32 buckets and max distance 128, whatever "
               "relative_attention_num_buckets says); posenc gives each layer one positional kind",
};
static const pe__family nystromformer = {
    .model_type = "nystromformer", .position = PE_POSITION_LEARNED,
    .source = "models/nystromformer/configuration_nystromformer.py at a5a1a5746d82 "
              "(max_position_embeddings=510, conv_kernel_size=65), modeling_nystromformer.py:53,63 "
              "(max_position_embeddings + 2 rows, ids from 2), NystromformerSelfAttention (conv)",
    .refusal = "beside a learned table (max_position_embeddings + 2 rows, ids from 2) every "
               "attention output adds a depthwise convolution over the sequence (conv_kernel_size, "
               "class default 65), a second position signal posenc does not plan",
};
static const pe__family xlnet = {
    .model_type = "xlnet", .position = PE_POSITION_RELATIVE,
    .source = "models/xlnet/modeling_xlnet.py at a5a1a5746d82 (relative_positional_encoding, rel_shift)",
    .refusal = "Transformer-XL relative attention: sinusoidal embeddings of relative distances "
               "projected per layer with learned r_w_bias / r_r_bias, two-stream attention and "
               "memory (mem_len); posenc does not model it",
};
static const pe__family funnel = {
    .model_type = "funnel", .position = PE_POSITION_RELATIVE,
    .source = "models/funnel/configuration_funnel.py at a5a1a5746d82 (attention_type=\"relative_shift\", "
              "block_sizes=[4, 4, 4]), modeling_funnel.py (FunnelAttentionStructure)",
    .refusal = "Transformer-XL-style relative sinusoidal attention (attention_type relative_shift "
               "or factorized) over a sequence pooled between blocks, and a decoder that "
               "upsamples it; posenc does not model it",
};
static const pe__family reformer = {
    .model_type = "reformer", .position = PE_POSITION_LEARNED,
    .source = "models/reformer/configuration_reformer.py at a5a1a5746d82 (axial_pos_embds=True, "
              "axial_pos_shape=[64, 64], attn_layers local/lsh), modeling_reformer.py "
              "(AxialPositionEmbeddings)",
    .refusal = "axial position embeddings (axial_pos_shape: a position's row is the concatenation "
               "of one row per axis) and chunked local / LSH attention; posenc does not model them",
};
static const pe__family fnet = {
    .model_type = "fnet", .position = PE_POSITION_LEARNED,
    .source = "models/fnet/configuration_fnet.py at a5a1a5746d82 (max_position_embeddings=512), "
              "modeling_fnet.py:92,120 (FNetBasicFourierTransform layers)",
    .refusal = "no attention: every layer mixes tokens by a 2-D Fourier transform, over a learned "
               "absolute table (512 rows, ids from 0) added to the input; posenc plans attention "
               "layers",
};
static const pe__family canine = {
    .model_type = "canine", .position = PE_POSITION_LEARNED,
    .source = "models/canine/configuration_canine.py at a5a1a5746d82 (max_position_embeddings=16384, "
              "downsampling_rate=4), modeling_canine.py (CanineEmbeddings, CharactersToMolecules)",
    .refusal = "character-level: a learned table over character positions feeds a local-attention "
               "character layer, a strided convolution that downsamples to the deep stack, and an "
               "upsampling layer; posenc plans one stack of token layers",
};
static const pe__family tapas = {
    .model_type = "tapas", .position = PE_POSITION_LEARNED,
    .source = "models/tapas/configuration_tapas.py at a5a1a5746d82 (max_position_embeddings=1024, "
              "reset_position_index_per_cell=True), modeling_tapas.py:236-262",
    .refusal = "position ids restart in every table cell (reset_position_index_per_cell, default "
               "True: position - first position of the token's cell) and row / column embeddings "
               "are added; posenc plans positions over the whole sequence",
};
static const pe__family bros = {
    .model_type = "bros", .position = PE_POSITION_LEARNED,
    .source = "models/bros/modeling_bros.py at a5a1a5746d82 (BrosPositionalEmbedding2D, "
              "bbox_pos_emb in BrosSelfAttention)",
    .refusal = "every attention layer adds scores from sinusoidal embeddings of the tokens' 2-D "
               "bounding boxes (BrosPositionalEmbedding2D) beside BERT's learned token table; "
               "posenc plans sequence positions only",
};
static const pe__family lilt = {
    .model_type = "lilt", .position = PE_POSITION_LEARNED,
    .source = "models/lilt/modeling_lilt.py at a5a1a5746d82 (LiltLayoutEmbeddings, "
              "LiltSelfAttention)",
    .refusal = "a text stream (RoBERTa's learned table) and a layout stream (its own learned 1-D "
               "table and 2-D box tables) whose attention scores are shared between the streams; "
               "posenc plans one stream's sequence positions",
};
static const pe__family layoutlmv2 = {
    .model_type = "layoutlmv2", .position = PE_POSITION_LEARNED,
    .source = "models/layoutlmv2/modeling_layoutlmv2.py at a5a1a5746d82:370,427 "
              "(_calculate_1d_position_embeddings, has_relative_attention_bias, "
              "has_spatial_attention_bias)",
    .refusal = "three position signals: a learned absolute table, a T5-style relative 1-D bucket "
               "bias (rel_pos_bins, max_rel_pos) and a 2-D spatial bias from the bounding boxes, "
               "over text and image-patch tokens; posenc gives each layer one kind of sequence "
               "positions",
};
static const pe__family layoutlmv3 = {
    .model_type = "layoutlmv3", .position = PE_POSITION_LEARNED,
    .source = "models/layoutlmv3/modeling_layoutlmv3.py at a5a1a5746d82 (LayoutLMv3Embeddings: "
              "ids from padding_idx + 1; rel_pos_bias, rel_pos_x_bias, rel_pos_y_bias)",
    .refusal = "three position signals: a learned table (ids from padding_idx + 1), a relative "
               "1-D bucket bias and 2-D x / y bucket biases, over text and image-patch tokens; "
               "posenc gives each layer one kind of sequence positions",
};
static const pe__family layoutxlm = {
    .model_type = "layoutxlm", .position = PE_POSITION_LEARNED,
    .source = "models/layoutxlm (LayoutXLM: LayoutLMv2's model with a multilingual vocabulary; "
              "models/layoutlmv2/modeling_layoutlmv2.py at a5a1a5746d82)",
    .refusal = "LayoutLMv2's model: a learned absolute table, a relative 1-D bucket bias and a "
               "2-D spatial bias; posenc gives each layer one kind of sequence positions",
};
static const pe__family udop = {
    .model_type = "udop", .position = PE_POSITION_T5,
    .source = "models/udop/configuration_udop.py at a5a1a5746d82 (relative_attention_num_buckets=32, "
              "relative_attention_max_distance=128, max_2d_position_embeddings=1024), "
              "modeling_udop.py (RelativePositionBias1D, RelativePositionBiasHorizontal / "
              "Vertical, cell2dembedding)",
    .refusal = "T5's 1-D buckets combined with horizontal and vertical 2-D bucket biases from "
               "the bounding boxes and 2-D cell embeddings over text and image tokens; posenc "
               "models T5's 1-D buckets only",
};
static const pe__family prophetnet = {
    .model_type = "prophetnet", .position = PE_POSITION_LEARNED,
    .source = "models/prophetnet/configuration_prophetnet.py at a5a1a5746d82 (num_buckets=32, "
              "relative_max_distance=128, ngram=2), modeling_prophetnet.py "
              "(ProphetNetPositionalEmbeddings, ProphetNetNgramSelfAttention)",
    .refusal = "a learned table in each stack plus, in the decoder, n-gram self-attention with "
               "relative bucket biases for the main and each predicting stream; posenc gives each "
               "layer one positional kind",
};
static const pe__family t5gemma = {
    .model_type = "t5gemma", .position = PE_POSITION_ROPE,
    .source = "models/t5gemma/configuration_t5gemma.py at a5a1a5746d82 (encoder / decoder: "
              "T5GemmaModuleConfig, Gemma 2's keys), modular_t5gemma.py",
    .refusal = "an encoder-decoder of two Gemma 2 stacks (RoPE, alternating sliding and full "
               "layers, a bidirectional encoder), each in its own sub-config; posenc's RoPE plans "
               "are one stack: read the encoder or decoder block as gemma2 on purpose",
};
static const pe__family t5gemma2 = {
    .model_type = "t5gemma2", .position = PE_POSITION_ROPE,
    .source = "models/t5gemma2 (T5Gemma2Config: Gemma 3 encoder and decoder sub-configs)",
    .refusal = "an encoder-decoder of two Gemma 3 stacks (RoPE with local and global bases, "
               "sliding and full layers), each in its own sub-config; posenc's RoPE plans are one "
               "stack: read a stack's block as gemma3_text on purpose",
};
static const pe__family encoder_decoder = {
    .model_type = "encoder-decoder", .position = PE_POSITION_LEARNED,
    .source = "models/encoder_decoder/configuration_encoder_decoder.py at a5a1a5746d82 (encoder, "
              "decoder: two sub-configs of any model_type)",
    .refusal = "a wrapper of two models, each with its own config and model_type under "
               "\"encoder\" and \"decoder\"; read each block as its own family on purpose",
};
static const pe__family rag = {
    .model_type = "rag", .position = PE_POSITION_LEARNED,
    .source = "models/rag/configuration_rag.py at a5a1a5746d82 (question_encoder, generator: "
              "two sub-configs)",
    .refusal = "a wrapper of a question encoder (DPR) and a generator (BART or T5), each with its "
               "own config under \"question_encoder\" and \"generator\"; read each block as its "
               "own family on purpose",
};
static const pe__family modernbert_decoder = {
    .model_type = "modernbert-decoder", .position = PE_POSITION_ROPE,
    .source = "models/modernbert_decoder/configuration_modernbert_decoder.py at a5a1a5746d82 and "
              "at 00d4b3d2142c",
    .refusal = "its class defaults changed between transformers versions (global layers where "
               "i % global_attn_every_n_layers == 0 with local_rope_theta 160000 at a5a1a5746d82; "
               "where (i + 1) % n == 0 with 10000, scaling on full layers only, at 00d4b3d2142c); "
               "posenc does not guess which a file was written for",
};

/* The group's records; NULL ends the list. */
static const pe__family *const records[] = {
    &albert, &electra, &convbert, &squeezebert, &mobilebert, &rembert,
    &bert_generation, &roc_bert, &dpr, &big_bird, &splinter, &layoutlm,
    &ibert, &longformer, &luke, &markuplm, &xmod, &visual_bert,
    &mra, &yoso, &distilbert, &xlm, &flaubert, &deberta, &deberta_v2,
    &roformer, &esm, &modernbert, &eurobert, &jina_embeddings_v3,
    &switch_transformers,
    &bart, &mbart, &marian, &blenderbot, &blenderbot_small, &bigbird_pegasus, &led, &mvp, &plbart,
    &pegasus, &pegasus_x, &m2m_100, &nllb_moe, &fsmt,
    &mpnet, &nystromformer, &xlnet, &funnel, &reformer, &fnet, &canine, &tapas, &bros, &lilt,
    &layoutlmv2, &layoutlmv3, &layoutxlm, &udop, &prophetnet, &t5gemma, &t5gemma2,
    &encoder_decoder, &rag, &modernbert_decoder,
    /* ---- h25rest: model_types newer than the commits above, read in the zucchini-nlp fork
     * of transformers at decba1d2ea4e (2026-08-19; upstream main's history), under
     * src/transformers/models/ (esmc in huggingface/transformers at 1772d2680d41). ---- */
    /* NomicBertConfig(BertConfig): default_theta 1000, max_position_embeddings 2048, 12 layers
     * of 768 / 12 heads; no position table (JinaEmbeddingsV3Embeddings), Llama's rotary in
     * JinaEmbeddingsV3Attention (half split). */
    &(const pe__family){
        .model_type = "nomic_bert", .position = PE_POSITION_ROPE,
        .source = "nomic_bert/modular_nomic_bert.py at decba1d2ea4e (NomicBertConfig: "
                  "default_theta = 1000.0, max_position_embeddings 2048, hidden_size 768, "
                  "num_hidden_layers 12, num_attention_heads 12, head_dim None -> hidden // heads; "
                  "NomicBertEmbeddings(JinaEmbeddingsV3Embeddings), NomicBertRotaryEmbedding("
                  "LlamaRotaryEmbedding), NomicBertAttention(JinaEmbeddingsV3Attention))",
        .defaults = {.rope_theta = 1000.0, .max_position = 2048,
                     .layers = 12, .hidden = 768, .heads = 12},
        .pairs = {.layout = PE_ROPE_HALF},
    },
    /* ModernVBertConfig: text_config is always ModernBertConfig (CONFIG_MAPPING["modernbert"]). */
    &(const pe__family){
        .model_type = "modernvbert", .position = PE_POSITION_ROPE, .text_family = "modernbert",
        .source = "modernvbert/modular_modernvbert.py at decba1d2ea4e (ModernVBertConfig: "
                  "text_config = CONFIG_MAPPING[\"modernbert\"](**text_config))",
    },
#define H25_REFUSED(type, kind, src, why)                                                     \
    &(const pe__family) {                                                                     \
        .model_type = (type), .position = (kind), .source = (src), .refusal = (why)           \
    }
    H25_REFUSED("colmodernvbert", PE_POSITION_ROPE,
                "colmodernvbert/modular_colmodernvbert.py at decba1d2ea4e (ColModernVBertConfig("
                "ColQwen2Config): vlm_config = CONFIG_MAPPING[vlm_config[\"model_type\"]])",
                "ColModernVBert keeps its model inside vlm_config (a ModernVBert config), which "
                "posenc does not descend into; plan vlm_config's contents as their own config "
                "(model_type modernvbert)"),
    /* OpenAIPrivacyFilterConfig(GptOssConfig): no layer_types ("SWA only": every layer a
     * window, two-sided, is_causal False), GptOss's class-default YaRN block (factor 32,
     * beta 32 / 1, truncate False, original 4096) at default_theta 150000, head_dim 64; its
     * _apply_rotary_emb pairs interleaved (x[..., ::2], x[..., 1::2]), unlike GPT-OSS. */
    &(const pe__family){
        .model_type = "openai_privacy_filter", .position = PE_POSITION_ROPE,
        .source = "openai_privacy_filter/modular_openai_privacy_filter.py at decba1d2ea4e ("
                  "OpenAIPrivacyFilterConfig(GptOssConfig): hidden_size 640, num_hidden_layers 8, "
                  "num_attention_heads 14, sliding_window 128, layer_types = AttributeError() "
                  "(\"SWA only\"), rope_parameters default {yarn, factor 32.0, beta_fast 32.0, "
                  "beta_slow 1.0, truncate False, original_max_position_embeddings 4096}; "
                  "_apply_rotary_emb: \"Interleaving layout instead of concatenated\"; is_causal "
                  "False, window sliding_window + 1), gpt_oss/configuration_gpt_oss.py "
                  "(default_theta 150000.0, head_dim 64, max_position_embeddings 131072)",
        .defaults = {.rope_theta = 150000.0, .head_dim = 64, .max_position = 131072,
                     .layers = 8, .hidden = 640, .heads = 14, .window = 128},
        .pairs = {.layout = PE_ROPE_INTERLEAVED},
        .layers = PE__LAYERS_MAX_WINDOW,
        .default_block = "{\"rope_type\":\"yarn\",\"factor\":32.0,\"beta_fast\":32.0,"
                         "\"beta_slow\":1.0,\"truncate\":false,"
                         "\"original_max_position_embeddings\":4096}",
    },
    H25_REFUSED("esmc", PE_POSITION_ROPE,
                "esmc/configuration_esmc.py at 1772d2680d41 (ESMCConfig: default_theta 10000, "
                "rope_parameters, max_position_embeddings 2048 \"only sizes the rotary cache\"); "
                "modeling_esmc.py not read",
                "a protein language model over residues whose config states RoPE; posenc read "
                "its configuration only, not modeling_esmc.py, so the rotation's layout is not "
                "known to it"),
    H25_REFUSED("t5_gemma_module", PE_POSITION_ROPE,
                "t5gemma/configuration_t5gemma.py at decba1d2ea4e (T5GemmaModuleConfig: Gemma 2's "
                "keys, the encoder and decoder sub-config of T5GemmaConfig)",
                "one stack of a T5Gemma encoder-decoder (Gemma 2 keys; the encoder bidirectional, "
                "the decoder with cross-attention); posenc plans no T5Gemma stack by itself: read "
                "the block as gemma2 on purpose"),
    H25_REFUSED("t5gemma2_text", PE_POSITION_ROPE,
                "t5gemma2/configuration_t5gemma2.py at decba1d2ea4e (T5Gemma2TextConfig: Gemma 3 "
                "text keys of one stack)",
                "the text block of one T5Gemma 2 stack (Gemma 3 RoPE with local and global bases); "
                "posenc plans no T5Gemma 2 stack by itself: read the block as gemma3_text on "
                "purpose"),
    H25_REFUSED("t5gemma2_encoder", PE_POSITION_ROPE,
                "t5gemma2/configuration_t5gemma2.py at decba1d2ea4e (T5Gemma2EncoderConfig: "
                "text_config T5Gemma2TextConfig and a vision_config)",
                "the bidirectional encoder of T5Gemma 2 (a Gemma 3 text stack with a vision "
                "tower); posenc plans no T5Gemma 2 stack by itself: read its text_config as "
                "gemma3_text on purpose"),
    H25_REFUSED("t5gemma2_decoder", PE_POSITION_ROPE,
                "t5gemma2/configuration_t5gemma2.py at decba1d2ea4e (T5Gemma2DecoderConfig), "
                "modular_t5gemma2.py (T5Gemma2MergedAttention)",
                "the decoder of T5Gemma 2 (a Gemma 3 stack with merged self- and cross-attention); "
                "posenc plans no T5Gemma 2 stack by itself: read it as gemma3_text on purpose"),
#undef H25_REFUSED
    NULL,
};

const pe__family_group pe__families_hf_encoders = {.records = records};
