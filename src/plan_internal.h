/*
 * plan_internal.h — what the config reader (config_rope.c), the family
 * registry (families_hf.c), the per-layer plan (plan.c) and its positions
 * (plan_positions.c) share: a model family's record, the reading of one
 * RoPE block, and the plan's representation.
 * Internal.
 */
#ifndef PE_PLAN_INTERNAL_H
#define PE_PLAN_INTERNAL_H

#include "config_json.h"

/*
 * A model family's record (src/families_hf.c): what its Hugging Face code
 * does with positions, each part a small named rule so a record reads as
 * its source does and a new rule adds a field without touching the others
 * (records use designated initializers; an absent field is the zero rule:
 * "nothing special"). docs/FAMILIES.md describes the type and every record.
 */

/* How layers get their type when the config has no layer_types. */
typedef enum {
    PE__LAYERS_UNIFORM = 0,     /* full_attention; sliding_attention when sliding_window is set
                                   and use_sliding_window is not false */
    PE__LAYERS_QWEN_WINDOW,     /* use_sliding_window (default false) + max_window_layers */
    PE__LAYERS_ALTERNATE,       /* even layers sliding (Gemma 2, gpt-oss) */
    PE__LAYERS_PATTERN,         /* sliding unless (i+1) % sliding_window_pattern == 0 */
    PE__LAYERS_LINEAR_INTERVAL, /* linear_attention unless (i+1) % full_attention_interval == 0 */
    PE__LAYERS_CHUNKED,         /* rotating layers chunked_attention (Llama 4) */
    PE__LAYERS_CROSS_LIST,      /* cross_attention_layers lists the cross-attention layers (Mllama) */
    PE__LAYERS_ENCODER_DECODER, /* num_layers encoder layers, then num_decoder_layers decoder layers (T5) */
    PE__LAYERS_PERIOD,          /* attention where i % attn_layer_period == attn_layer_offset, else
                                   mamba (Jamba) */
    PE__LAYERS_ALL_MAMBA,       /* no layer_types: every layer mamba (GraniteMoeHybrid's
                                   layers_block_type) */
    PE__LAYERS_ATTN_INDEXES,    /* no layer_types: full_attention at the indexes full_attn_idxs
                                   lists, conv elsewhere; every layer full_attention without it
                                   (Lfm2Config) */
    PE__LAYERS_CYCLE,           /* the record's cycle (or the list under its cycle_key)
                                   repeated over the layers (RecurrentGemma block_types,
                                   MiniMax's default layer_types) */
    PE__LAYERS_ATTN_LIST,       /* no layer_types: "attention" at the indexes the record's
                                   index_key lists, "mamba" elsewhere; all mamba without it
                                   (Bamba attn_layer_indices) */
    PE__LAYERS_MAX_WINDOW,      /* no layer_types: sliding_attention where sliding_window (class
                                   default defaults.window) is not null and i >= max_window_layers
                                   (default defaults.offset), else full_attention (Dots1) */
    PE__LAYERS_HYBRID_PATTERN,  /* no layers_block_type: hybrid_override_pattern, one character
                                   a layer (M mamba, * attention, - mlp, E moe), else the
                                   record's cycle (Nemotron-H) */
    PE__LAYERS_ZAMBA,           /* mamba, mamba, hybrid, then hybrid where (i - 3) %
                                   attn_layer_period == attn_layer_offset (Zamba) */
    PE__LAYERS_TWO_STACKS,      /* encoder_layers encoder layers, then decoder_layers decoder
                                   layers, heads encoder_/decoder_attention_heads (BART's keys;
                                   class defaults in the record's stacks) */
    PE__LAYERS_FULL_EVERY_NTH,  /* full_attention where i % n == 0, else sliding_attention; n
                                   from the record's pattern_key, default defaults.pattern
                                   (ModernBERT global_attn_every_n_layers) */
} pe__layer_rule;

/* What sliding-window layers do with RoPE. */
typedef enum {
    PE__SLIDING_SAME = 0,       /* as every other layer */
    PE__SLIDING_LOCAL_BASE,     /* default RoPE at rope_local_base_freq (Gemma 3, 3n) */
    PE__SLIDING_UNSCALED,       /* default RoPE at rope_theta; scaling on full layers only (OLMo 3) */
} pe__sliding_rule;

/* What full-attention (global) layers do with RoPE. */
typedef enum {
    PE__FULL_SAME = 0,
    PE__FULL_NOPE,              /* never rotated (Cohere 2) */
    PE__FULL_NOPE_IF_WINDOW,    /* unrotated when the config sets sliding_window (EXAONE 4) */
    PE__FULL_GLOBAL_HEAD_DIM,   /* rotate a head of global_head_dim (Gemma 4) */
} pe__full_rule;

/* NoPE schedules of self-attention layers. */
typedef enum {
    PE__NOPE_NONE = 0,
    PE__NOPE_MASK,              /* no_rope_layers (1 = rotate) / no_rope_layer_interval */
} pe__nope_rule;

/* A query scale after RoPE. */
typedef enum {
    PE__QUERY_NONE = 0,
    PE__QUERY_LLAMA4_TEMPERATURE, /* NoPE layers: attn_temperature_tuning, floor_scale, attn_scale */
    PE__QUERY_LLAMA4_BETA,        /* every layer: rope block's llama_4_scaling_beta (Ministral 3) */
} pe__query_rule;

/* The attention softmax scale. */
typedef enum {
    PE__SOFTMAX_PLAIN = 0,
    PE__SOFTMAX_DEEPSEEK_MSCALE, /* softmax_scale * mscale(f, mscale_all_dim)^2 (YaRN blocks) */
} pe__softmax_rule;

/* The RoPE magnitude / base beyond the scheme. */
typedef enum {
    PE__EXTRA_NONE = 0,
    PE__EXTRA_PHIMOE_MSCALE,    /* LongRoPE magnitude short_mscale / long_mscale */
    PE__EXTRA_HUNYUAN_ALPHA,    /* rope block alpha: base * alpha^(d/(d-2)) */
} pe__rope_extra_rule;

/* Which pairs rotate together. */
typedef struct {
    pe_rope_layout layout;      /* HALF (rotate_half) or INTERLEAVED (x[2i], x[2i+1]) */
    const char *switch_key;     /* a boolean key choosing INTERLEAVED when true (DeepSeek V3
                                   rope_interleave, default below); NULL: fixed layout */
    bool switch_default;
} pe__pair_rule;

/* Class defaults of the absent keys posenc reads (0: the class has none). */
typedef struct {
    double rope_theta;
    double partial_rotary;
    int64_t max_position;
    int64_t head_dim;
    double local_base;          /* rope_local_base_freq (SLIDING_LOCAL_BASE) */
    int64_t pattern;            /* sliding_window_pattern / full_attention_interval */
    int64_t nope_interval;      /* no_rope_layer_interval (NOPE_MASK) */
    int64_t period, offset;     /* attn_layer_period / attn_layer_offset (PERIOD) */
    int64_t heads, layers, hidden; /* the head count, layer count and hidden size classes of
                                   non-RoPE families default to (BLOOM: 8, 2, 64) */
    int64_t window;             /* sliding_window's class default (MAX_WINDOW) */
} pe__class_defaults;

/* A config key that switches the attention layers' kind: a boolean
 * (Falcon: "alibi": true gives ALiBi, else RoPE) or, with equals set, a
 * string equal to it (GraniteMoeHybrid: position_embedding_type "rope"). */
typedef struct {
    const char *key;            /* NULL: no switch */
    bool default_value;
    pe_position_kind when_true;
    const char *equals;         /* non-NULL: the key is a string; on when it equals this */
} pe__kind_switch;

typedef struct {
    pe_alibi_slope_rule slopes;
    double max_bias;            /* default alibi_bias_max (MPT: 8) */
    const char *max_bias_key;   /* NULL: fixed */
    pe_dtype hf_slope_dtype;
} pe__alibi_rule;

typedef struct {
    int64_t num_buckets, max_distance; /* class defaults */
    bool bias_per_layer;        /* every layer holds its own table (UMT5); else the first of
                                   each stack (T5) */
} pe__t5_rule;

typedef struct {
    const char *rows_key;       /* the key giving the positions (n_positions, max_position_embeddings) */
    int64_t rows_default;
    int64_t rows_extra;         /* rows beyond the key's value (OPT: 2; RoBERTa's key counts them) */
    int64_t offset;             /* added to the position (OPT, RoBERTa: 2) */
    const char *kind_key;       /* a string key naming the position kind (BERT's
                                   position_embedding_type); NULL: none */
    const char *kind_value;     /* the value (default when absent) meaning this table; any
                                   other value is refused */
    const char *other_kind;     /* what the family's code does with any other kind_value (the
                                   refusal's reason); NULL: "relative position embeddings" */
    const char *dim_key;        /* the key giving the table's width when it is not the hidden
                                   size (ALBERT, ELECTRA: embedding_size); NULL: hidden */
    int64_t dim_default;        /* its class default (0: the hidden size, DeBERTa's
                                   getattr(config, "embedding_size", hidden_size)) */
    const char *pad_offset_key; /* RoBERTa-style position ids from padding_idx + 1: the offset
                                   is this key + 1 when the config states it (else offset) */
    const char *dec_rows_key;   /* TWO_STACKS: the decoder's own table size key (LED
                                   max_decoder_position_embeddings); NULL: rows_key */
    int64_t dec_rows_default;
} pe__learned_rule;

/* TWO_STACKS: the class defaults of an encoder-decoder's stacks. */
typedef struct {
    int64_t enc_layers, dec_layers, enc_heads, dec_heads;
} pe__stacks_rule;

typedef struct {
    pe_sin_layout layout;
    pe_sin_convention convention;
    int64_t offset;
    const char *pad_offset_key; /* fairseq: positions from padding_idx + 1 (this key + 1) */
} pe__sinusoidal_rule;

/* A key whose value the family's HF code ignores: a warning when the file
 * states a value other than the one the code uses. */
typedef struct {
    const char *key;            /* dotted for a nested block ("attn_config.alibi_bias_max") */
    double used;                /* the value the code uses instead; NAN: it reads none (warned
                                   whenever the key is present) */
    const char *why;
} pe__ignored_key;

/* A config key whose value (a true boolean, or with equals set a string
 * equal to it) makes the family's code do what posenc does not model: the
 * plan is refused with `why` (RoFormer rotary_value: the values rotate too). */
typedef struct {
    const char *key;            /* NULL: no rule */
    const char *equals;         /* NULL: refused when the key holds anything but false, 0 or
                                   null (RoFormer rotary_value true, YOSO conv_window 3) */
    const char *why;
} pe__refuse_if;

typedef struct pe__family {
    const char *model_type;
    const char *source;         /* transformers file:line at the commit (docs/FAMILIES.md) */
    const char *refusal;        /* non-NULL: posenc does not model this family; why */
    pe_position_kind position;  /* the kind of its self-attention layers */
    pe__kind_switch kind_switch;
    pe__class_defaults defaults;
    pe__pair_rule pairs;
    pe__layer_rule layers;
    pe__sliding_rule sliding;
    pe__full_rule full;
    pe__nope_rule nope;
    pe__query_rule query;
    pe__softmax_rule softmax;
    pe__rope_extra_rule rope_extra;
    pe__alibi_rule alibi;
    pe__t5_rule t5;
    pe__learned_rule learned;
    pe__sinusoidal_rule sinusoidal;
    pe__ignored_key ignored[3];
    const char *text_family;    /* a wrapper (LLaVA, ...): the family its text_config is when
                                   that block names no model_type (LlavaConfig: "llama") */
    const char *const *none_types; /* layer_types values whose layers see no positions (conv,
                                   mamba, linear_attention, ...; NULL-terminated) */
    const char *const *reads;   /* positional config keys its code reads (NULL-terminated); a
                                   positional key outside it is a warning */
    const char *base_alias;     /* a top-level key the class reads as the RoPE base before
                                   rope_theta (Lfm2Config: "theta"); both present must agree */
    const char *const *cycle;   /* CYCLE: the class default layer-type cycle (NULL-terminated) */
    const char *cycle_key;      /* CYCLE: the config key overriding it (NULL: none) */
    /* Rules of the decoder group (families_hf_decoders.c). */
    const pe__class_defaults *text_defaults; /* a wrapper whose class merges its own defaults
                                   into text_config before building it (VoxtralConfig's
                                   _default_text_config_kwargs): its non-zero fields replace the
                                   text family's class defaults */
    const char *default_block;  /* the class-default rope_parameters (JSON) a file with neither
                                   rope_parameters nor rope_scaling gets (Apertus: llama3) */
    const char *pattern_key;    /* PATTERN: the key of the period (AFMoE:
                                   global_attn_every_n_layers); NULL: sliding_window_pattern;
                                   FULL_EVERY_NTH: the key giving n (ModernBERT) */
    const char *head_dim_key;   /* a key the class maps onto head_dim (JetMoe: kv_channels) */
    const char *layers_key;     /* a key counting blocks of layers_factor attention layers each,
                                   read before num_hidden_layers (LongcatFlashModel sets
                                   num_hidden_layers = 2 * num_layers); NULL: none */
    int64_t layers_factor;
    int64_t head_width_factor;  /* head_dim derived as factor * hidden_size / num_attention_heads
                                   (Zamba2: attention_hidden_size = 2 * hidden_size); 0: 1 */
    const char *types_key;      /* the per-layer type list under another name than layer_types
                                   (Nemotron-H, Zamba2: layers_block_type) */
    const char *index_key;      /* ATTN_LIST: the key listing the attention layers */
    bool partial_forced;        /* defaults.partial_rotary replaces any value the file states
                                   (BambaConfig sets kwargs["partial_rotary_factor"] = 0.5) */
    /* Rules of the encoder group (families_hf_encoders.c). */
    const char *hidden_key;     /* the family's own name for hidden_size, read first (DistilBERT
                                   "dim", XLM "emb_dim": their attribute_map) */
    const char *local_base_key; /* SLIDING_LOCAL_BASE: the key of the local base when it is not
                                   rope_local_base_freq (ModernBERT local_rope_theta) */
    pe__refuse_if refuse_if[2]; /* config values the family's code reads that posenc does not
                                   model: refused with the reason */
    pe__stacks_rule stacks;     /* TWO_STACKS class defaults */
} pe__family;

/* The registry is kept in several files, one group of records each (so a
 * group of families can be added without touching the others): families_hf.c
 * (the families of the first plans), families_hf_decoders.c (decoder LLMs,
 * hybrids and multimodal wrappers added since), families_hf_encoders.c
 * (encoders, encoder-decoders and relative-position schemes) and
 * families_hf_other.c (vision, audio and other models whose positions posenc
 * does not plan: refusals with the reason). A group lists its records in
 * `records` (NULL-terminated, so a group may hold none yet). */
typedef struct {
    const pe__family *const *records;
} pe__family_group;
extern const pe__family_group pe__families_hf_first, pe__families_hf_decoders,
    pe__families_hf_encoders, pe__families_hf_other;

/* The record of model_type, NULL if the registry has none. */
const pe__family *pe__family_find(const char *model_type);
size_t pe__family_count(void);
const pe__family *pe__family_at(size_t i);
/* The registry's model_types closest to name by edit distance, as
 * "'a', 'b' or 'c'" into buf (the error of an unknown family). */
void pe__family_closest(const char *name, char *buf, size_t cap);
/* The positional kinds a family's layers can have, bit (1u << kind). */
unsigned pe__family_kinds(const pe__family *f);

/* Where one layer kind's RoPE is read from. */
typedef struct {
    pe__scope top;            /* the decoder's config (after get_text_config) */
    pe__scope block;          /* its scaling block (obj NULL: none) */
    const pe__family *fam;    /* class defaults (NULL: generic) */
    bool base_only;           /* the layer ignores the block's scaling (default RoPE) */
    bool has_base;            /* base given by the family rule (local base) */
    double base;
    int64_t head_dim;         /* > 0: this layer's head (Gemma 4 global) */
    const char *head_key;     /* its key, for messages */
} pe__rope_source;

/* Extras one rope kind carries beyond pe_rope_scaling. */
typedef struct {
    int64_t mrope_section[4];
    int64_t n_mrope_section;  /* 0: no M-RoPE */
    bool mrope_interleaved;
    bool has_mscales;         /* PhiMoE */
    double short_mscale, long_mscale;
    bool has_beta;            /* Ministral 3 query scale */
    double llama4_beta;
    int64_t llama4_span;      /* original_max_position_embeddings */
    bool alpha_applied;       /* HunYuan: base already multiplied */
    double alpha;
} pe__rope_extras;

/* Read one RoPE kind into *out (lists inline) and *extras. Errors name the
 * key with its place. */
int pe__read_rope(const pe__rope_source *src, pe_rope_config *out, pe__rope_extras *extras);

/* More decoder layers than any released model by two orders of magnitude;
 * bounds the per-layer allocation a hostile file can cause. */
#define PE_PLAN_MAX_LAYERS 65536
/* Distinct layer-type names a plan keeps (real models use two or three). */
#define PE_PLAN_MAX_TYPES 32
#define PE_PLAN_MAX_WARNINGS 64

/* One distinct RoPE: its parameters (list pointers NULL in `s`; the lists
 * are owned below) and what else the model's code does with it. */
typedef struct {
    pe_rope_scaling s;
    double *short_factor, *long_factor, *divisors;
    pe__rope_extras x;
    pe_rope_layout layout;
    int layout_known;
    bool deepseek_softmax;
    char f32_note[128]; /* GGUF: the inputs that were stored as float32 */
} pe__rope_kind;

/* One distinct non-RoPE position (ALiBi slopes, T5 buckets, a learned or
 * sinusoidal table, NoPE / none with its reason); layers index into them as
 * into RoPE kinds. A RoPE layer's position is {PE_POSITION_ROPE} and its
 * parameters are its rope kind. */
typedef struct {
    pe_position_kind kind;
    char why[32];
    pe_plan_alibi alibi;
    pe_plan_t5 t5;           /* bias_layer / owns_bias: per layer, see pe__layer_rec */
    pe_plan_learned learned;
    pe_plan_sinusoidal sinusoidal;
} pe__position;

typedef struct {
    int32_t type; /* index into names */
    int32_t kind; /* -1: no RoPE */
    int32_t position; /* 1 + index into positions; 0: none stored (the GGUF reader): RoPE when
                         kind >= 0, else NoPE or none by `attention` */
    int64_t t5_bias_layer; /* T5: the layer holding this layer's bias table */
    int attention;
    int64_t head_dim;
    int64_t sliding_window, chunk;
    pe_plan_temperature temperature;
} pe__layer_rec;

struct pe_plan {
    char model_type[64];
    char source[16];              /* "config" or "gguf" */
    int64_t n_layers;
    pe__layer_rec *layers;
    pe__rope_kind *kinds;
    int64_t n_kinds;
    pe__position *positions;
    int64_t n_positions;
    char *names[PE_PLAN_MAX_TYPES];
    int64_t n_names;
    char *warnings[PE_PLAN_MAX_WARNINGS];
    int64_t n_warnings;
};

/* Builders shared by the config and GGUF readers. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int pe__plan_warn(pe_plan *p, const char *fmt, ...);
int pe__plan_type_index(pe_plan *p, const char *name, int32_t *out);
/* The plan of a family whose attention layers do not rotate (kind ALIBI,
 * T5, LEARNED, SINUSOIDAL or NOPE): layers, types and positions from the
 * record and the decoder config `top` (plan_positions.c). */
int pe__plan_build_fixed(pe_plan *p, pe__scope top, const pe__family *fam,
                         pe_position_kind kind);
/* The layer types of a record whose rule is one of the decoder group's
 * (types_key, ATTN_LIST, MAX_WINDOW, HYBRID_PATTERN, ZAMBA), from the
 * decoder config `top` when it has no layer_types; *done false when the
 * record has none of them and plan.c's rules apply (plan_hybrid_layers.c). */
int pe__plan_group_layer_types(pe__scope top, const pe__family *f, pe_plan *p, bool *done);
/* The layer count a family derives from its layer list when the file states none
 * (Nemotron-H); *found false for the others. */
int pe__plan_group_layer_count(pe__scope top, const pe__family *f, int64_t *n, bool *found);
/* Warnings for the record's ignored keys the config states otherwise. */
int pe__plan_warn_ignored(pe_plan *p, pe__scope top, const pe__family *fam);
/* Store a non-RoPE position, reusing an equal one (compared bytewise:
 * build each with memset 0). */
int pe__plan_add_position(pe_plan *p, const pe__position *pos, int32_t *index);
/* Store a RoPE kind (lists copied from s's pointers), reusing an equal one. */
int pe__plan_add_kind(pe_plan *p, const pe_rope_scaling *s, const pe__rope_extras *x,
                      pe_rope_layout layout, int layout_known, bool deepseek,
                      const char *f32_note, int32_t *index);

/* The single RoPE kind of a plan whose rotating layers all agree (what
 * pe_config_* return); PE_ERR_UNSUPPORTED naming the layer types when they
 * differ or the model's semantics need the plan. */
int pe__plan_uniform_config(const pe_plan *plan, pe_rope_config *out);

/* True when rope block key `key` is one the reader understands. */
bool pe__rope_key_known(const char *key);

#endif
