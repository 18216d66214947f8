/*
 * plan_internal.h — what the config reader (config_rope.c), the family table
 * (plan_families.c) and the per-layer plan (plan.c) share: a model family's
 * class defaults and code semantics, and the reading of one RoPE block.
 * Internal.
 */
#ifndef PE_PLAN_INTERNAL_H
#define PE_PLAN_INTERNAL_H

#include "config_json.h"

/* What a model family's own code does beyond the generic keys. */
enum {
    PE__FAM_LAYOUT_KNOWN = 1u << 0,     /* the pair layout below is the code's */
    PE__FAM_DEEPSEEK_SOFTMAX = 1u << 1, /* attention multiplies the softmax scale by mscale(f, mscale_all_dim)^2 */
    PE__FAM_SLIDING_LOCAL_BASE = 1u << 2, /* sliding layers: default RoPE at rope_local_base_freq */
    PE__FAM_SLIDING_UNSCALED = 1u << 3, /* sliding layers: default RoPE at rope_theta (scaling on full layers only) */
    PE__FAM_FULL_NOPE = 1u << 4,        /* full-attention layers do not rotate (Cohere 2) */
    PE__FAM_NOPE_MASK = 1u << 5,        /* no_rope_layers / no_rope_layer_interval (1 = rotate) */
    PE__FAM_LLAMA4_TEMPERATURE = 1u << 6, /* NoPE layers: attn_temperature_tuning, floor_scale, attn_scale */
    PE__FAM_LLAMA4_BETA = 1u << 7,      /* every layer: llama_4_scaling_beta query scale (Ministral 3) */
    PE__FAM_HUNYUAN_ALPHA = 1u << 8,    /* rope_scaling.alpha: base * alpha^(d/(d-2)) */
    PE__FAM_PHIMOE_MSCALE = 1u << 9,    /* LongRoPE magnitude short_mscale / long_mscale */
    PE__FAM_GLOBAL_HEAD_DIM = 1u << 10, /* full layers use global_head_dim (Gemma 4) */
    PE__FAM_ALTERNATE = 1u << 11,       /* no layer_types: even layers sliding (Gemma 2, gpt-oss) */
    PE__FAM_PATTERN = 1u << 12,         /* no layer_types: sliding unless (i+1) % pattern == 0 */
    PE__FAM_QWEN_WINDOW = 1u << 13,     /* use_sliding_window + max_window_layers (Qwen 2/3) */
    PE__FAM_CHUNKED_ROPE = 1u << 14,    /* rope layers are chunked_attention (Llama 4) */
    PE__FAM_LINEAR_INTERVAL = 1u << 15, /* no layer_types: linear_attention unless (i+1) % full_attention_interval == 0 */
};

typedef struct {
    const char *model_type;
    double rope_theta;      /* class default; 0: the generic 10000 */
    double partial_rotary;  /* class default; 0: 1 (whole head) */
    int64_t max_position;   /* class default; 0: none */
    int64_t head_dim;       /* class default head_dim; 0: hidden_size / num_attention_heads */
    double local_base;      /* sliding layers' base default (SLIDING_LOCAL_BASE) */
    int64_t pattern;        /* sliding_window_pattern (PATTERN) or full_attention_interval (LINEAR_INTERVAL) default */
    int64_t nope_interval;  /* no_rope_layer_interval default (NOPE_MASK) */
    pe_rope_layout layout;
    unsigned flags;
    const char *source;     /* where the defaults were read */
} pe__family;

/* The family of a model_type, NULL if the table does not know it. */
const pe__family *pe__family_find(const char *model_type);
/* Number of table rows and row i (tests, docs). */
size_t pe__family_count(void);
const pe__family *pe__family_at(size_t i);

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

typedef struct {
    int32_t type; /* index into names */
    int32_t kind; /* -1: no RoPE */
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
