/*
 * families_gguf.h — internal: the llama.cpp architecture registry, one named
 * record per architecture of llama.cpp's llm_arch (src/llama-arch.cpp),
 * each with the rope type llama_model_rope_type() gives it and the rules of
 * its hparams loading (src/models/<arch>.cpp) that decide positions. The
 * records live in src/families_gguf.c with the file and line they were read
 * from at the llama.cpp commit named there (docs/FAMILIES.md, GGUF section).
 */
#ifndef PE_FAMILIES_GGUF_H
#define PE_FAMILIES_GGUF_H

#include "../include/posenc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* llama.cpp's llama_rope_type of an architecture. NORM rotates adjacent
 * pairs, NEOX the two halves; MROPE / IMROPE halves with contiguous /
 * interleaved t-h-w sections. Two architectures pick by the file:
 * hparams.use_mrope() (the first two dimension_sections > 0). */
typedef enum {
    PE__GGUF_ROPE_NONE = 0,
    PE__GGUF_ROPE_NORM,
    PE__GGUF_ROPE_NEOX,
    PE__GGUF_ROPE_MROPE,
    PE__GGUF_ROPE_IMROPE,
    PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NORM, /* glm4 */
    PE__GGUF_ROPE_MROPE_IF_SECTIONS_ELSE_NEOX, /* glm4moe, hunyuan-vl */
} pe__gguf_rope_type;

/* How the architecture's hparams mark sliding-window layers. */
typedef enum {
    PE__GGUF_SWA_NONE = 0,  /* never sliding; the window keys are not read */
    PE__GGUF_SWA_PERIOD,    /* set_swa_pattern(period): layer i slides when i % n < n - 1; an
                               integer attention.sliding_window_pattern overrides the period, an
                               array is ignored (the uint32_t get_key_or_arr overload returns false) */
    PE__GGUF_SWA_CHUNKED,   /* Llama 4: chunked attention of default_window tokens on the same
                               pattern, unless attention.sliding_window is 0 */
    PE__GGUF_SWA_DISABLED,  /* Phi-3: a window key is read and then switched off */
} pe__gguf_swa_kind;

/* Where a sliding layer's base comes from. */
typedef enum {
    PE__GGUF_SWA_BASE_KEY_OR_FULL = 0, /* rope.freq_base_swa, else rope.freq_base */
    PE__GGUF_SWA_BASE_KEY_OR_1E4,      /* rope.freq_base_swa, else llama_hparams' 10000 */
    PE__GGUF_SWA_BASE_FULL,            /* the graph rotates with rope.freq_base whatever the key */
} pe__gguf_swa_base;

/* How the architecture reads attention.sliding_window_pattern. */
typedef enum {
    PE__GGUF_PATTERN_PERIOD = 0,     /* an integer overrides the period; an array is ignored */
    PE__GGUF_PATTERN_PERIOD_OR_ARRAY, /* an integer sets the period, an array marks each layer
                                        (true: sliding); absent: no sliding layer at all */
    PE__GGUF_PATTERN_ARRAY,          /* required, into the per-layer flags: an array marks each
                                        layer, an integer v marks every layer v != 0 */
    PE__GGUF_PATTERN_NOT_READ,       /* the key is not read: the period in code stands (LFM2) */
} pe__gguf_swa_pattern;

typedef struct {
    pe__gguf_swa_kind rule;
    uint32_t period;
    bool needs_window;       /* sliding only when attention.sliding_window > 0 */
    int64_t default_window;  /* the window when the key is absent (0: none) */
    int64_t only_layers;     /* > 0: the rule applies at this layer count only (EXAONE 4 32B) */
    pe__gguf_swa_base base;
    bool unscaled;           /* sliding layers run default RoPE (scale 1, no YaRN) */
    bool dense_first;        /* set_swa_pattern(n, true): layer i slides when i % n != 0 */
    pe__gguf_swa_pattern pattern; /* how attention.sliding_window_pattern is read */
    bool window_fixed;       /* default_window replaces whatever window the file gives
                                (SmallThinker sets 4096 once the key is > 0) */
    /* head_key / rot_key / full_rot_half only with unscaled: the sliding kind is then built
     * from its own dims, not copied from the full layers' scaling */
    bool head_key;           /* sliding layers' head size from attention.key_length_swa */
    bool rot_key;            /* sliding layers' rotary dims from rope.dimension_count_swa */
    bool full_rot_half;      /* the full layers rotate half of rope.dimension_count (Step 3.5) */
    bool pattern_after_nextn; /* the array is read after nextn_predict_layers (its length is
                                 block_count - nextn) */
} pe__gguf_swa_rule;

/* Which layers attend over positions at all. */
typedef enum {
    PE__GGUF_LAYERS_ATTENTION = 0,        /* every layer attends */
    PE__GGUF_LAYERS_RECURRENT_INTERVAL,   /* attention.recurrent_layers, else recurrent unless
                                             (i + 1) % full_attention_interval (default 4) == 0 */
    PE__GGUF_LAYERS_ALL_RECURRENT,        /* no attention anywhere (Mamba, RWKV) */
    PE__GGUF_LAYERS_RECURRENT_IF_NO_KV,   /* hybrids: layer i is recurrent (kind none) iff
                                             n_head_kv(i) == 0, attention.head_count_kv being a
                                             per-layer array (or a scalar for every layer) */
    PE__GGUF_LAYERS_NEMOTRON_H,           /* Nemotron-H: recurrent iff n_head_kv(i) == 0 and
                                             n_ff(i) == 0; attention iff not recurrent and
                                             n_ff(i) == 0; otherwise an MLP-only block */
} pe__gguf_layer_rule;

/* rope.scaling.yarn_log_multiplier as the architecture reads it. */
typedef enum {
    PE__GGUF_LOG_MUL_IGNORED = 0,
    PE__GGUF_LOG_MUL_OVER_0_1,  /* DeepSeek: the converter's 0.1 * mscale_all_dim, divided back */
    PE__GGUF_LOG_MUL_AS_IS,     /* Mistral 3: mscale_all_dim itself */
} pe__gguf_log_mul;

/* Layers the architecture leaves unrotated by a file key. */
typedef enum {
    PE__GGUF_ROPE_EVERY_LAYER = 0,
    PE__GGUF_FINETUNED_SWITCH,  /* Granite: rope.scaling.finetuned (default true) switches RoPE on */
    PE__GGUF_ROPE_SLIDING_ONLY, /* Cohere 2: only the sliding-pattern layers rotate */
    PE__GGUF_ROPE_SLIDING_OR_DENSE_LEAD, /* Cohere 2 MoE: the sliding layers and the first
                                            leading_dense_block_count layers rotate */
    PE__GGUF_NOPE_STEP_FIRST_WITH_SWA, /* SmallThinker: with a window, layers i % 4 == 0 run
                                          without RoPE; without one every layer rotates */
} pe__gguf_rope_switch;

typedef struct {
    double max_bias;            /* f_max_alibi_bias set in code */
    const char *key;            /* "attention.max_alibi_bias" under {arch}. when read (NULL: fixed) */
} pe__gguf_alibi_rule;

typedef struct pe__gguf_arch {
    const char *arch;           /* general.architecture */
    const char *source;         /* llama.cpp file:line at PE__GGUF_LLAMA_CPP_COMMIT */
    const char *refusal;        /* non-NULL: posenc does not model it; why */
    pe__gguf_rope_type rope;
    pe_position_kind position;  /* of its attention layers: ROPE, ALIBI, LEARNED, NONE */
    pe__gguf_swa_rule swa;
    pe__gguf_layer_rule layers;
    const char *none_why;       /* the layers without attention: "linear_attention", "mamba", ... */
    uint32_t recurrent_interval; /* RECURRENT_INTERVAL's full_attention_interval default (0: 4) */
    bool nextn;                 /* reads nextn_predict_layers: n_layer = block_count - nextn */
    bool loops;                 /* reads num_loops: the blocks run that many times over, each pass
                                   a layer of the plan (Nanbeige) */
    bool yarn_betas;            /* reads rope.scaling.yarn_beta_fast/slow (others run 32 / 1) */
    pe__gguf_log_mul log_mul;
    bool deepseek_softmax;      /* kq_scale *= mscale(f, mscale_all_dim)^2 in the graph */
    bool deepseek2_mscale;      /* llama-context: mscale = mscale_all_dim when it is not 1 */
    uint32_t nope_step;         /* n_no_rope_layer_step set in code: (i + 1) % step == 0 unrotated */
    pe__gguf_rope_switch rope_switch;
    bool alpha;                 /* rope.scaling.alpha folded into the base: b * alpha^(d/(d-2)) */
    bool temperature_key;       /* attention.temperature_scale s != 0: every layer's query times
                                   1 + s ln(1 + floor(p / n_ctx_orig_yarn)) (Mistral 3) */
    int64_t alibi_at_layers;    /* > 0: ALiBi instead of RoPE at this layer count (Baichuan 13B) */
    pe__gguf_alibi_rule alibi;
} pe__gguf_arch;

#define PE__GGUF_LLAMA_CPP_COMMIT "34af94cd9ab277632e27caeec2d41de2fd091b31"

/* The record of an architecture name, NULL if the registry has none. */
const pe__gguf_arch *pe__gguf_arch_find(const char *arch);
size_t pe__gguf_arch_count(void);
const pe__gguf_arch *pe__gguf_arch_at(size_t i);
/* The registry's names closest to name by edit distance, as "'a', 'b' or
 * 'c'" into buf (the error of an unknown architecture). */
void pe__gguf_arch_closest(const char *name, char *buf, size_t cap);
/* llama.cpp's name of a rope type ("none", "norm", "neox", "mrope",
 * "imrope", "mrope|norm", "mrope|neox"). */
const char *pe__gguf_rope_type_name(pe__gguf_rope_type t);

#endif
