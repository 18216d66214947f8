/*
 * posenc.h — the one public API of libposenc, the reference library for
 * transformer positional encodings.
 *
 * Conventions (see docs/ARCHITECTURE.md and ../shared/SPEC.md):
 *   - Every function that can fail returns 0 (PE_OK) or a negative pe_status.
 *     pe_strerror(status) names the class of error; pe_last_error() returns a
 *     thread-local sentence naming the offending argument and value, e.g.
 *     "head_dim=127 must be even".
 *   - Every argument is validated before any caller buffer is written: a
 *     rejected call leaves the caller's memory byte-identical.
 *   - The caller owns every buffer. The library never prints, never exits,
 *     never starts a thread, and holds no global mutable state (only the
 *     thread-local error detail and the kernel table chosen once at start).
 *   - Shapes are row-major; strides are counted in elements, not bytes.
 *   - Names are module_verb; lifetimes come in pairs (create/free); free(NULL)
 *     is a no-op. Enums are append-only.
 */
#ifndef POSENC_H
#define POSENC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ version */

#define PE_VERSION_MAJOR 0
#define PE_VERSION_MINOR 1
#define PE_VERSION_PATCH 0
#define PE_VERSION_NUMBER \
    (PE_VERSION_MAJOR * 10000 + PE_VERSION_MINOR * 100 + PE_VERSION_PATCH)

/* "MAJOR.MINOR.PATCH" of the library actually linked (may differ from the
 * header's macros when a shared library is swapped underneath a program). */
const char *pe_version_string(void);
int pe_version_number(void);

/* ------------------------------------------------------------------- errors */

/* X(NAME, value, message): generates pe_status and pe_strerror(). Values are
 * stable and append-only; never renumber. */
#define PE_STATUS_MAP(X)                                                     \
    X(OK, 0, "success")                                                      \
    X(ERR_NULL, -1, "null pointer argument")                                 \
    X(ERR_DIM, -2, "invalid dimension")                                      \
    X(ERR_PARAM, -3, "invalid parameter value")                              \
    X(ERR_RANGE, -4, "position out of range")                                \
    X(ERR_SHAPE, -5, "shape or stride mismatch")                             \
    X(ERR_DTYPE, -6, "unsupported data type")                                \
    X(ERR_NOMEM, -7, "out of memory")                                        \
    X(ERR_OVERFLOW, -8, "size overflows")                                    \
    X(ERR_IO, -9, "input/output error")                                      \
    X(ERR_FORMAT, -10, "malformed or unsupported file")                      \
    X(ERR_UNSUPPORTED, -11, "unsupported operation")

typedef enum {
#define PE_STATUS_ENUM_(name, value, msg) PE_##name = value,
    PE_STATUS_MAP(PE_STATUS_ENUM_)
#undef PE_STATUS_ENUM_
} pe_status;

/* Static description of a status code ("invalid dimension"); never NULL. */
const char *pe_strerror(int status);
/* Thread-local detail of the most recent failure on the calling thread
 * ("head_dim=127 must be even"); "" if no call on this thread has failed.
 * The pointer stays valid until the next failing call on the same thread. */
const char *pe_last_error(void);

/* ------------------------------------------------------------- basic types */

/* Element storage type of a buffer. */
typedef enum {
    PE_F32 = 0, /* IEEE binary32 */
    PE_F64 = 1, /* IEEE binary64 */
    PE_F16 = 2, /* IEEE binary16 (reserved for the fast kernels) */
    PE_BF16 = 3, /* bfloat16 (reserved for the fast kernels) */
    PE_I64 = 4  /* int64 (positions, in files) */
} pe_dtype;

/* Size in bytes of one element of dtype, 0 for an unknown dtype. */
size_t pe_dtype_size(pe_dtype dtype);
/* "f32", "f64", "f16", "bf16", "i64" or "?" */
const char *pe_dtype_name(pe_dtype dtype);

/*
 * Positions of `count` tokens. Either contiguous (ids == NULL: the tokens sit
 * at start, start+1, ..., the KV-cache case) or explicit (ids[count], any
 * order, repeats and negative values allowed where the scheme has no table).
 */
typedef struct {
    int64_t start;       /* used when ids == NULL */
    const int64_t *ids;  /* count positions, or NULL */
} pe_positions;

/* Convenience constructors. */
pe_positions pe_positions_range(int64_t start);
pe_positions pe_positions_list(const int64_t *ids);

/*
 * A strided view of a 3-D tensor (tokens, heads, head_dim). head_dim is
 * contiguous (element stride 1); token_stride and head_stride are in
 * elements, so (tokens, heads, D), (heads, tokens, D) and slices of a fused
 * qkv buffer are all the same call. A 2-D (tokens, D) tensor is heads = 1.
 */
typedef struct {
    void *data;
    pe_dtype dtype;
    int64_t tokens;
    int64_t heads;
    int64_t head_dim;
    int64_t token_stride; /* elements between token t and t+1 */
    int64_t head_stride;  /* elements between head h and h+1 */
} pe_tensor;

/* A dense row-major (tokens, heads, head_dim) view of `data`. */
pe_tensor pe_tensor_dense(void *data, pe_dtype dtype, int64_t tokens,
                          int64_t heads, int64_t head_dim);

/* ------------------------------------------------------ additive encodings */

typedef enum {
    PE_ADD_RAW = 0,        /* every element = scale * p (the seeds' toy) */
    PE_ADD_NORMALIZED = 1, /* every element = p / (length - 1) */
    PE_ADD_BINARY = 2,     /* bits of p, most significant first */
    PE_ADD_SINUSOIDAL = 3  /* sin/cos pairs, Vaswani et al. */
} pe_additive_scheme;

/* Sinusoidal layouts:
 *   interleaved  [sin w0 p, cos w0 p, sin w1 p, cos w1 p, ...]   (the paper)
 *   concatenated [sin w0 p, sin w1 p, ..., cos w0 p, cos w1 p, ...]
 */
typedef enum {
    PE_SIN_INTERLEAVED = 0,
    PE_SIN_CONCATENATED = 1
} pe_sin_layout;

/* Frequency exponent of pair i: PAPER uses 2i/D; T2T uses i/(D/2 - 1), which
 * is what tensor2tensor and fairseq ship with the concatenated layout. */
typedef enum {
    PE_SIN_FREQ_PAPER = 0,
    PE_SIN_FREQ_T2T = 1
} pe_sin_convention;

typedef struct {
    pe_additive_scheme scheme;
    int64_t dim;     /* D: row length (even for sinusoidal) */
    double scale;    /* raw: s (default 1) */
    int64_t length;  /* normalized, binary: sequence length L (>= 1) */
    double base;     /* sinusoidal: b (default 10000) */
    pe_sin_layout layout;
    pe_sin_convention convention;
} pe_additive_params;

/* Defaults: scale 1, length 0 (must be set for normalized and binary),
 * base 10000, interleaved, paper convention. */
pe_additive_params pe_additive_defaults(pe_additive_scheme scheme, int64_t dim);

/* Bits a binary encoding of length L needs: max(1, ceil(log2 L)). */
int64_t pe_binary_nbits(int64_t length);

/*
 * Fill out (count, dim) row-major, dtype PE_F32 or PE_F64, with the rows of
 * the given positions. Errors: odd dim for sinusoidal, base <= 0 or NaN,
 * positions outside [0, length) for normalized and binary, dim < nbits for
 * binary, non-finite scale.
 */
int pe_additive_encode(const pe_additive_params *params,
                       const pe_positions *positions, int64_t count,
                       void *out, pe_dtype dtype);

/* Angular frequency of sinusoidal pair i under the params' convention. */
int pe_sinusoidal_frequency(const pe_additive_params *params, int64_t pair,
                            double *omega);

/*
 * Shift matrix M_k of a sinusoidal encoding: PE(p + k) = M_k PE(p) for every
 * p. out: (dim, dim) row-major, f64. Block i acts on the (sin, cos) pair of
 * frequency w_i as [[cos kw, sin kw], [-sin kw, cos kw]]; with the
 * concatenated layout the same blocks act on elements (i, i + D/2).
 */
int pe_shift_matrix(const pe_additive_params *params, int64_t k, double *out);
/* out = M_k v without forming the matrix. v, out: (dim,), f64; may alias. */
int pe_shift_apply(const pe_additive_params *params, int64_t k,
                   const double *v, double *out);

/* ------------------------------------------------------------ learned table */

/* A trainable table W (max_len, dim), float32, owned by the handle. */
typedef struct pe_learned pe_learned;

/*
 * Create a table initialised from N(0, 0.02^2): a xoshiro256** stream seeded
 * through splitmix64(seed), two uniforms per Box-Muller pair, computed in
 * double and rounded to float. The same seed gives the same table on every
 * platform with IEEE doubles and a correctly rounded libm log/sqrt/cos/sin.
 */
int pe_learned_create(int64_t max_len, int64_t dim, uint64_t seed,
                      pe_learned **out);
void pe_learned_free(pe_learned *table);
int64_t pe_learned_max_len(const pe_learned *table);
int64_t pe_learned_dim(const pe_learned *table);
/* The table's (max_len, dim) row-major weights. */
float *pe_learned_weights(pe_learned *table);
const float *pe_learned_weights_const(const pe_learned *table);

/* out (count, dim) = rows of W at positions. A position outside
 * [0, max_len) is PE_ERR_RANGE: learned tables cannot extrapolate. */
int pe_learned_forward(const pe_learned *table, const int64_t *positions,
                       int64_t count, float *out);
/* grad_table (max_len, dim) += scatter of grad_out (count, dim): repeated
 * positions accumulate. The caller zeroes grad_table between steps. */
int pe_learned_backward(const pe_learned *table, const int64_t *positions,
                        int64_t count, const float *grad_out,
                        float *grad_table);
/* W -= lr * grad_table. lr must be finite. */
int pe_learned_sgd_step(pe_learned *table, const float *grad_table, float lr);
/* Save as .npy (float32, C order, shape (max_len, dim)). */
int pe_learned_save(const pe_learned *table, const char *path);
/* Load a .npy written by pe_learned_save (or numpy): must be float32,
 * little-endian, C order, 2-D. Anything else is PE_ERR_FORMAT/PE_ERR_DTYPE. */
int pe_learned_load(const char *path, pe_learned **out);

/* ---------------------------------------------------------- RoPE frequencies */

/* Largest rotary dimension the frequency struct holds inline. */
#define PE_MAX_ROTARY_DIM 4096
#define PE_MAX_PAIRS (PE_MAX_ROTARY_DIM / 2)

/*
 * The frequencies a rotation consumes, whoever made them (the default
 * generator, a scaling scheme, a model config). Pair i rotates by the angle
 * p * (inv_freq[i] + inv_freq_lo[i]); inv_freq_lo carries the low part of a
 * double-double frequency (0 where the generator has none) so that angles at
 * |p| near 2^31 keep full accuracy. Plain value type: copy freely.
 */
typedef struct {
    int64_t rotary_dim;            /* d: even, 2 <= d <= PE_MAX_ROTARY_DIM */
    double attention_factor;       /* magnitude A applied to rotated pairs */
    double softmax_scale_multiplier; /* 1 unless a scheme says otherwise */
    double inv_freq[PE_MAX_PAIRS];    /* w'_i, i < d/2 */
    double inv_freq_lo[PE_MAX_PAIRS]; /* low parts, i < d/2 */
} pe_freqs;

/* Default RoPE frequencies w_i = base^(-2i/d), A = 1. Errors: d odd, zero or
 * above PE_MAX_ROTARY_DIM; base <= 0, 1 or non-finite. */
int pe_freqs_default(int64_t rotary_dim, double base, pe_freqs *out);

/* Check a hand-made pe_freqs (finite non-negative frequencies, finite
 * positive A). Every rotation calls this; exposed for callers that build
 * frequencies themselves. */
int pe_freqs_validate(const pe_freqs *freqs);

/* ------------------------------------------------------------ RoPE rotation */

/*
 * Pair layouts of the d rotated elements of a head (d = rotary_dim):
 *   interleaved  pair i = (x[2i], x[2i+1])     [x0 x1][x2 x3]...
 *                RoFormer, Meta Llama checkpoints, GPT-J, ggml "normal"
 *   half-split   pair i = (x[i], x[i + d/2])   x0..x{d/2-1} | x{d/2}..x{d-1}
 *                GPT-NeoX, Hugging Face rotate_half, ggml "neox"
 * Elements [d, head_dim) pass through unchanged.
 */
typedef enum {
    PE_ROPE_INTERLEAVED = 0,
    PE_ROPE_HALF = 1
} pe_rope_layout;

typedef enum {
    PE_ROPE_FORWARD = 0,  /* a' = A(a cos t - b sin t), b' = A(a sin t + b cos t) */
    PE_ROPE_INVERSE = 1,  /* undoes FORWARD: angle -t, magnitude 1/A */
    PE_ROPE_BACKWARD = 2  /* gradient of FORWARD: angle -t, magnitude A */
} pe_rope_direction;

/*
 * Rotate every (token, head) row of `in` into `out`, token t at position
 * positions[t] (or start + t). in, out: (tokens, heads, head_dim) views of
 * the same shape and dtype (PE_F32); out may be the same view as in (in
 * place) but must not otherwise overlap it. Angles are formed and reduced
 * modulo 2 pi in extended precision and products computed in double: the
 * result is the exact rotation rounded once to float.
 */
int pe_rope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                  const pe_positions *positions, const pe_tensor *in,
                  const pe_tensor *out, pe_rope_direction direction);

/*
 * cos/sin cache: cos_out[t][i] = cos(p_t w'_i), sin_out[t][i] = sin(p_t w'_i)
 * for count tokens and d/2 pairs, row-major (count, d/2), f32 or f64,
 * angles reduced exactly as in pe_rope_apply. Magnitude A is NOT applied.
 */
int pe_rope_cos_sin(const pe_freqs *freqs, const pe_positions *positions,
                    int64_t count, void *cos_out, void *sin_out,
                    pe_dtype dtype);

/* Index permutation between layouts for a head of head_dim elements whose
 * first rotary_dim rotate: perm[j] = the half-split index that holds the
 * element at interleaved index j (identity past rotary_dim). Applying it to
 * the rows of a q/k projection converts a checkpoint between conventions. */
int pe_rope_layout_permutation(int64_t head_dim, int64_t rotary_dim,
                               int64_t *perm);

/* ----------------------------------------------------- reference attention */

/*
 * Single-head reference attention, accumulated in double:
 *   out = softmax(scale * q k^T + bias + mask) v
 * q: (n_q, dim), k: (n_k, dim), v: (n_k, dim_v), out: (n_q, dim_v), all f32
 * row-major. bias: optional (n_q, n_k) added to the logits (NULL for none).
 * causal: query i sees key j only when j <= i + (n_k - n_q) (queries are the
 * last n_q positions of the keys). scale <= 0 means 1/sqrt(dim).
 * The softmax subtracts the row maximum first. A query that sees no key
 * (possible only with a -inf bias row) gets a zero output row.
 */
typedef struct {
    int64_t n_q, n_k, dim, dim_v;
    double scale;
    int causal;
    const float *bias; /* (n_q, n_k) or NULL */
} pe_attention_params;

int pe_attention(const pe_attention_params *params, const float *q,
                 const float *k, const float *v, float *out);

/* The helper for RoPE: rotates copies of q and k at their positions (layout,
 * freqs) and then runs pe_attention. q, k, v are not modified. */
int pe_attention_rope(const pe_attention_params *params, const pe_freqs *freqs,
                      pe_rope_layout layout, const pe_positions *q_positions,
                      const pe_positions *k_positions, const float *q,
                      const float *k, const float *v, float *out);

/* ------------------------------------------- RoPE scaling (rope_scaling.c) */

/* (scaling generators, model configs: added by the scaling work) */

/* --------------------------------------------- M-RoPE (rope_mrope.c) */

/* (multi-axis positions: added by the M-RoPE work) */

/* ------------------------------------------------------- biases (bias.c) */

/* (ALiBi and T5 buckets: added by the bias work) */

/* ---------------------------------------------------------------- .npy I/O */

#define PE_NPY_MAX_DIMS 8

/* An n-dimensional array read from a .npy file; data owned by the struct. */
typedef struct {
    pe_dtype dtype;
    int ndim;
    int64_t shape[PE_NPY_MAX_DIMS];
    void *data; /* C order, native byte order; free with pe_npy_free */
    size_t nbytes;
} pe_npy_array;

/* Parse a complete .npy image from memory (versions 1.0, 2.0, 3.0; dtypes
 * <f4 <f8 <f2 <i8; C order only). Truncated, oversized, lying or overflowing
 * headers are PE_ERR_FORMAT, never an over-read. */
int pe_npy_parse(const void *buf, size_t len, pe_npy_array *out);
int pe_npy_read(const char *path, pe_npy_array *out);
/* Write a C-order array (native little-endian); version 1.0 header unless the
 * header needs 2.0. */
int pe_npy_write(const char *path, pe_dtype dtype, int ndim,
                 const int64_t *shape, const void *data);
void pe_npy_free(pe_npy_array *array);

/* ------------------------------------------------------------------ kernels */

/* Name of the active kernel set ("scalar", ...). */
const char *pe_kernels_name(void);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_H */
