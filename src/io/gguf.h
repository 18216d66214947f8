/*
 * gguf.h — internal (not public): what a llama.cpp GGUF file says about
 * positions, read from its header, its metadata and the few small rope
 * tensors, never from the weights (a multi-GB file is read only as far as
 * its header, plus a seek to each rope tensor).
 *
 * GGUF (versions 2 and 3, little-endian): "GGUF", u32 version, u64 tensor
 * count, u64 key/value count, the key/value pairs (key: u64 length + bytes;
 * u32 value type; value), the tensor infos (name, u32 n_dims, n_dims u64
 * dims, u32 ggml type, u64 offset into the data section), padding to
 * `general.alignment` (u32, default 32), then the data section.
 *
 * The reader is strict: every length is checked against the bytes that are
 * left before anything is allocated, every size product is checked for
 * overflow, and what llama.cpp's own loader refuses is refused here too
 * (duplicate keys or tensor names, tensors out of order, misaligned or
 * overlapping, data past the end of the file), plus a few things it lets
 * through (keys that are not UTF-8, bools other than 0/1), with one
 * exception: a ggml type newer than this reader's table is accepted (its
 * size unchecked), so that a file with a new quantization still gives its
 * rope metadata. The caps below
 * bound what a hostile header can make the reader allocate or loop over;
 * each is far above what a released model ships.
 *
 * Errors: PE_ERR_IO (cannot open or read), PE_ERR_FORMAT (malformed: the
 * detail names the key, tensor or byte offset), PE_ERR_OVERFLOW (a size
 * that does not fit 64 bits), PE_ERR_NOMEM, PE_ERR_UNSUPPORTED (version 1
 * or above 3, a big-endian file, arrays of arrays), PE_ERR_NULL. The rows
 * are GGUF-n in docs/ERRORS.md. A rejected call writes nothing to *out and
 * leaks nothing.
 */
#ifndef PE_IO_GGUF_H
#define PE_IO_GGUF_H

#include "../internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Caps (documented in docs/ERRORS.md, "GGUF reader"). */
#define PE_GGUF_MAX_TENSORS (1u << 20)     /* tensor infos (DeepSeek V3: ~1,100) */
#define PE_GGUF_MAX_KV (1u << 20)          /* key/value pairs (real files: ~20-60) */
#define PE_GGUF_MAX_KEY 1024u              /* bytes of a key (real keys: < 64) */
#define PE_GGUF_MAX_TENSOR_NAME 63u        /* bytes of a tensor name (ggml's GGML_MAX_NAME - 1) */
#define PE_GGUF_MAX_STRING (1u << 26)      /* bytes of one string value (chat templates: < 100 KB) */
#define PE_GGUF_MAX_ARRAY (1u << 26)       /* elements of one array (vocabularies: < 300,000) */
#define PE_GGUF_MAX_STORED (1u << 26)      /* total bytes of scalar strings kept in memory */
#define PE_GGUF_KEEP_ARRAY 4096u           /* numeric arrays up to this length keep their values */
#define PE_GGUF_MAX_ROPE_TENSOR 65536u     /* elements of a rope tensor (head_dim / 2 <= 32768) */

/* GGUF value types, numbered as the format numbers them. */
typedef enum {
    PE_GGUF_U8 = 0,
    PE_GGUF_I8 = 1,
    PE_GGUF_U16 = 2,
    PE_GGUF_I16 = 3,
    PE_GGUF_U32 = 4,
    PE_GGUF_I32 = 5,
    PE_GGUF_F32 = 6,
    PE_GGUF_BOOL = 7,
    PE_GGUF_STRING = 8,
    PE_GGUF_ARRAY = 9,
    PE_GGUF_U64 = 10,
    PE_GGUF_I64 = 11,
    PE_GGUF_F64 = 12
} pe__gguf_type;

/* The name the format gives a value type ("u32", "f32", "array", ...;
 * "?" outside 0..12). */
const char *pe__gguf_type_name(pe__gguf_type t);

/* One metadata value. Scalars fill the fields their type has; arrays give
 * their element type and count, and numeric or bool arrays of at most
 * PE_GGUF_KEEP_ARRAY elements also their elements as doubles (exact for
 * every integer up to 2^53 and every f32/f64). Pointers live as long as the
 * handle. */
typedef struct {
    pe__gguf_type type;       /* PE_GGUF_ARRAY for an array */
    bool is_integer;          /* u8..i64 */
    bool negative;            /* a signed integer below 0 (then `i` holds it, `u` is 0) */
    uint64_t u;               /* an unsigned or non-negative integer; a bool as 0/1 */
    int64_t i;                /* a signed integer; an unsigned one up to INT64_MAX */
    double f;                 /* f32 (widened exactly) and f64; integers and bools as double */
    const char *str;          /* STRING: NUL-terminated, valid UTF-8 */
    size_t str_len;           /* STRING: bytes, without the NUL */
    pe__gguf_type elem_type;  /* ARRAY: element type (never ARRAY) */
    uint64_t count;           /* ARRAY: elements */
    const double *num;        /* ARRAY of numbers/bools, count <= PE_GGUF_KEEP_ARRAY; else NULL */
} pe__gguf_value;

/* A known scalar key: whether the file has it, its value and its stored
 * type (for a real: PE_GGUF_F32 says the value went through float32). */
typedef struct {
    bool present;
    pe__gguf_type type;
    double value;
} pe__gguf_real;

typedef struct {
    bool present;
    pe__gguf_type type;
    uint64_t value;
} pe__gguf_uint;

typedef struct {
    bool present;
    bool value;
} pe__gguf_bool;

/* A rope tensor read from the data section: n values as doubles (exact
 * from F32, F16 and F64), its ggml type (0 F32, 1 F16, 28 F64). */
typedef struct {
    bool present;
    int ggml_type;
    int64_t count;
    double *values;
} pe__gguf_tensor;

/* The header read into plain values. Read-only for the caller; every
 * `{arch}.` key is read under general.architecture (all absent when the
 * file names no architecture). */
typedef struct pe__gguf_rope {
    uint32_t version;             /* 2 or 3 */
    uint64_t n_tensors;
    uint64_t alignment;           /* general.alignment or 32 */
    uint64_t data_offset;         /* where the data section starts in the file */
    uint64_t file_size;

    const char *architecture;     /* general.architecture, NULL if absent */
    const char *name;             /* general.name, NULL if absent */

    /* Integer keys accept any integer type with a non-negative value. A
     * per-layer array (head_count on OpenELM, head_count_kv on Jamba)
     * leaves the scalar absent; pe__gguf_find gives the array. */
    pe__gguf_uint block_count;          /* {arch}.block_count */
    pe__gguf_uint context_length;       /* {arch}.context_length */
    pe__gguf_uint embedding_length;     /* {arch}.embedding_length */
    pe__gguf_uint head_count;           /* {arch}.attention.head_count */
    pe__gguf_uint head_count_kv;        /* {arch}.attention.head_count_kv */
    pe__gguf_uint key_length;           /* {arch}.attention.key_length */
    pe__gguf_uint value_length;         /* {arch}.attention.value_length */
    pe__gguf_uint sliding_window;       /* {arch}.attention.sliding_window */
    pe__gguf_uint rope_dimension_count; /* {arch}.rope.dimension_count */
    pe__gguf_uint no_rope_layer_step;   /* {arch}.no_rope_layer_step */
    pe__gguf_uint interleave_moe_layer_step; /* {arch}.interleave_moe_layer_step */
    pe__gguf_uint rope_scaling_original_context_length; /* .rope.scaling.original_context_length */

    /* Real keys accept F32 or F64 only (the type says which). */
    pe__gguf_real rope_freq_base;       /* {arch}.rope.freq_base */
    pe__gguf_real rope_freq_base_swa;   /* {arch}.rope.freq_base_swa */
    pe__gguf_real rope_scale_linear;    /* {arch}.rope.scale_linear (old conversions) */
    pe__gguf_real rope_scaling_factor;  /* .rope.scaling.factor */
    pe__gguf_real rope_scaling_attn_factor;  /* .rope.scaling.attn_factor */
    pe__gguf_real yarn_log_multiplier;  /* .rope.scaling.yarn_log_multiplier */
    pe__gguf_real yarn_beta_fast;       /* .rope.scaling.yarn_beta_fast */
    pe__gguf_real yarn_beta_slow;       /* .rope.scaling.yarn_beta_slow */
    pe__gguf_real yarn_ext_factor;      /* .rope.scaling.yarn_ext_factor */
    pe__gguf_real yarn_attn_factor;     /* .rope.scaling.yarn_attn_factor */

    const char *rope_scaling_type;      /* .rope.scaling.type ("none", "linear", "yarn", ...), or NULL */
    pe__gguf_bool rope_scaling_finetuned; /* .rope.scaling.finetuned */

    /* {arch}.attention.sliding_window_pattern: an integer period n (every
     * n-th layer is full attention) or a per-layer array (bool, or
     * integers 0/1; true = sliding-window layer). */
    bool swa_pattern_present;
    bool swa_pattern_is_array;
    uint64_t swa_pattern_period;        /* integer form */
    size_t swa_pattern_count;           /* array form: layers */
    const bool *swa_pattern_layers;     /* array form: per layer */

    /* {arch}.rope.dimension_sections (M-RoPE): integers >= 0 (up to 8). */
    size_t dimension_sections_count;    /* 0 if absent */
    int64_t dimension_sections[8];

    pe__gguf_tensor rope_freqs;         /* rope_freqs.weight (Llama 3, LongRoPE conversions) */
    pe__gguf_tensor rope_factors_long;  /* rope_factors_long.weight (Phi-3 LongRoPE) */
    pe__gguf_tensor rope_factors_short; /* rope_factors_short.weight */

    /* Every key/value in file order (pe__gguf_key_count / pe__gguf_key_at),
     * and their indices sorted by key (pe__gguf_find). Owned. */
    int64_t n_kv;
    struct pe__gguf_kv *kv;
    int64_t *kv_sorted;
    bool *swa_layers_owned;
} pe__gguf_rope;

/* Read a file: the header and the rope tensors only (each reached by a
 * seek to its offset). Errors are prefixed with the path. */
int pe__gguf_rope_read(const char *path, pe__gguf_rope **out);
/* The same on a whole file in memory (tests, fuzzing). */
int pe__gguf_rope_parse(const unsigned char *buf, size_t len, pe__gguf_rope **out);
void pe__gguf_rope_free(pe__gguf_rope *g);

/* Every key in file order: count, then key i's name and value
 * (PE_ERR_RANGE outside [0, count), PE_ERR_NULL for a NULL pointer). */
int64_t pe__gguf_key_count(const pe__gguf_rope *g);
int pe__gguf_key_at(const pe__gguf_rope *g, int64_t i, const char **name, pe__gguf_value *value);
/* The value of an exact key: true and *value filled if the file has it. */
bool pe__gguf_find(const pe__gguf_rope *g, const char *key, pe__gguf_value *value);

#endif
