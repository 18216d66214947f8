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
 *     starts threads only inside a call that asks for them
 *     (pe_rope_options.threads) and joins them before returning, or on a
 *     pool the caller creates and destroys (pe_pool), and holds no global
 *     mutable state (only the thread-local error detail and the kernel set
 *     chosen once, atomically).
 *   - Shapes are row-major; strides are counted in elements, not bytes.
 *   - Names are module_verb; lifetimes come in pairs (create/free); free(NULL)
 *     is a no-op. Enums are append-only.
 */
#ifndef POSENC_H
#define POSENC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* FILE, for pe_output and the stream writers */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ version */

#define PE_VERSION_MAJOR 0
#define PE_VERSION_MINOR 3
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
    PE_F16 = 2, /* IEEE binary16: RoPE storage (pe_rope_apply*), .npy and safetensors */
    PE_BF16 = 3, /* bfloat16: RoPE storage (pe_rope_apply*) and safetensors */
    PE_I64 = 4, /* int64 (positions, in files) */
    PE_I8 = 5   /* int8: quantized KV-cache slots (pe_rope_fused_qkv) */
} pe_dtype;

/* Size in bytes of one element of dtype, 0 for an unknown dtype. */
size_t pe_dtype_size(pe_dtype dtype);
/* "f32", "f64", "f16", "bf16", "i64", "i8" or "?" */
const char *pe_dtype_name(pe_dtype dtype);

/*
 * dst[i] = src[i] rounded once to float32, for i < n: the checked narrowing
 * every f64 -> f32 output goes through (the CLI's float32 .npy, for one).
 * PE_ERR_RANGE naming the first offending index and value when a src value
 * is NaN or infinite, or finite but beyond float32 (it would round to inf);
 * nothing is written then. src and dst must not share a byte (PE_ERR_SHAPE).
 */
int pe_narrow_f32(const double *src, int64_t n, float *dst);

/*
 * Positions of `count` tokens. Either contiguous (ids == NULL: the tokens sit
 * at start, start+1, ..., the KV-cache case) or explicit (ids[count], any
 * order, repeats and negative values allowed where the scheme has no table).
 */
typedef enum {
    PE_POSITIONS_DEFAULT = 0, /* start + t, or ids[t] */
    PE_POSITIONS_VARLEN = 1,  /* packed sequences: cu_seqlens + per-sequence starts */
    PE_POSITIONS_LIST_I32 = 2 /* ids_i32[t]: int32 positions as ggml, vLLM and
                               * flash-attn pass them (ids must be NULL) */
} pe_positions_kind;

typedef struct {
    int64_t start;       /* used when ids == NULL (VARLEN: when seq_starts == NULL) */
    const int64_t *ids;  /* count positions, or NULL */
    /* Packed variable-length batches (PE_POSITIONS_VARLEN), as flash-attn,
     * TransformerEngine and FlashInfer pass them: n_seqs sequences laid
     * end to end, sequence s holding tokens [cu_seqlens[s], cu_seqlens[s+1]),
     * its token cu_seqlens[s] + i at position seq_starts[s] + i (or
     * start + i when seq_starts is NULL). cu_seqlens has n_seqs + 1 entries,
     * int32 or int64 (exactly one of the two pointers), starts at 0, never
     * decreases and ends at the token count (docs/ERRORS.md POS-*). These
     * fields were added after ids: a zero-initialised struct, and
     * pe_positions_range/list, are PE_POSITIONS_DEFAULT as before. */
    pe_positions_kind kind;
    int64_t n_seqs;
    const int32_t *cu_seqlens_i32;
    const int64_t *cu_seqlens_i64;
    const int64_t *seq_starts; /* (n_seqs,) or NULL */
    /* PE_POSITIONS_LIST_I32 (added in 0.2.1, read only with that kind):
     * count int32 positions, the same results bit for bit as the int64
     * list of the same values, with no int64 copy made. */
    const int32_t *ids_i32;
} pe_positions;

/* Convenience constructors. */
pe_positions pe_positions_range(int64_t start);
pe_positions pe_positions_list(const int64_t *ids);
/* int32 positions (PE_POSITIONS_LIST_I32); every call that takes
 * positions accepts them. */
pe_positions pe_positions_list_i32(const int32_t *ids);
/* Packed sequences: cu_seqlens (n_seqs + 1,), seq_starts (n_seqs,) or NULL
 * (every sequence starts at position 0). Every call that takes positions
 * accepts them; the rotations walk them sequentially (no per-token int64
 * is materialised). */
pe_positions pe_positions_varlen(const int32_t *cu_seqlens, int64_t n_seqs,
                                 const int64_t *seq_starts);
pe_positions pe_positions_varlen_i64(const int64_t *cu_seqlens, int64_t n_seqs,
                                     const int64_t *seq_starts);

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
    size_t struct_size; /* extensible (README "ABI and versions"): set by pe_additive_defaults */
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

/*
 * Largest rotary dimension the frequency struct holds inline. 1024 is twice
 * the widest rotation among released checkpoints: Gemma 4's global layers
 * rotate all 512 elements of global_head_dim (proportional RoPE); Gemma 2/3
 * and Qwen3-Next heads are 256, Llama/Qwen/Mistral 128, DeepSeek MLA's
 * rotated slice 64. At this cap sizeof(pe_freqs) is 8,216 bytes (was 32,792
 * at 4096 before version 0.2), small enough for the stack and for one per
 * layer. A larger rotary_dim is refused with PE_ERR_DIM
 * "rotary_dim=<d> exceeds PE_MAX_ROTARY_DIM=1024".
 */
#define PE_MAX_ROTARY_DIM 1024
#define PE_MAX_PAIRS (PE_MAX_ROTARY_DIM / 2)

/*
 * The frequencies a rotation consumes, whoever made them (the default
 * generator, a scaling scheme, a model config). Pair i rotates by the angle
 * p * (inv_freq[i] + inv_freq_lo[i]); inv_freq_lo carries the low part of a
 * double-double frequency (0 where the generator has none) so that angles at
 * |p| near 2^31 keep full accuracy. Plain value type (8 KiB): copy freely.
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

/*
 * Range rule (docs/RELIABILITY.md, Ranges): every frequency w'_i lies in
 * [0, PE_MAX_INV_FREQ] and A in [1/PE_MAX_ATTENTION_FACTOR,
 * PE_MAX_ATTENTION_FACTOR]. Then for EVERY int64 position p the angle p w'_i
 * and each intermediate of its exact reduction stay finite (2^63 x 1e240 x
 * 2^27 < DBL_MAX), so cos/sin caches are always finite and a rotation of
 * finite inputs is finite wherever A (|x| + |y|) is below the largest value
 * of the storage type. Generators refuse parameters that would leave this
 * range (or give a zero or non-finite frequency where the scheme has none).
 */
#define PE_MAX_INV_FREQ 1e240
#define PE_MAX_ATTENTION_FACTOR 1e9

/* Check a hand-made pe_freqs against the range rule above (and low parts
 * that are low parts). Every rotation calls this; exposed for callers that
 * build frequencies themselves. */
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
 * the same shape and storage type: PE_F32, PE_F16 or PE_BF16 (16-bit values
 * are widened, rotated in f32 and rounded to nearest even on store). out
 * may be the same view as in (in place) but must not otherwise overlap it.
 * Angles are formed and reduced modulo 2 pi exactly (double-double), once
 * per token and reused by every head (vector kernels: evaluated afresh
 * every 32 tokens and stepped by one position in between when positions
 * are consecutive). Accuracy against the exact rotation of the inputs, per
 * f32 output element x' of input x whose partner element is y:
 *   scalar kernels   |error| <= 0.5 ulp(x') + 1e-14 (computed in double)
 *   vector kernels   |error| <= 2^-24 (|x'| + A (|x| + 2|y|)) +
 *                    1e-11 A (|x| + |y|): the plain f32 form
 *                    fma(x, fl(A cos), -fl(y fl(A sin))), as reference
 *                    implementations compute it but with exact angles;
 *                    <= 1.4903e-7 for elements in [-1, 1] and A = 1
 *                    (SPEC's goal is 1.5e-7 at every |p| < 2^31).
 *   16-bit outputs   that f32 value rounded to nearest even.
 * Results do not depend on the kernel set's vector width, on threads or on
 * streaming stores (bit for bit).
 * Single-threaded; pe_rope_apply_ex takes options.
 */
int pe_rope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                  const pe_positions *positions, const pe_tensor *in,
                  const pe_tensor *out, pe_rope_direction direction);

/* Where rotated rows are stored. STREAMING uses non-temporal stores (they
 * bypass the caches: right for outputs larger than the cache that are not
 * read right away) where the rows allow it (f32, aligned); AUTO streams
 * out-of-place outputs of 16 MiB and more. In-place calls never stream. */
typedef enum {
    PE_STORES_AUTO = 0,
    PE_STORES_CACHED = 1,
    PE_STORES_STREAMING = 2
} pe_store_policy;

/*
 * Who runs a call's threads. By default a call that asks for threads
 * starts and joins them inside the call (tens of microseconds each: more
 * than the work of a 512-token prefill). Two ways to keep them instead:
 *
 * A pool the caller owns (pe_pool_create): threads - 1 workers that live
 * until pe_pool_destroy and wait between calls (spinning ~50 us, then
 * asleep). One call at a time runs on a pool's workers: a call made while
 * another call is using them (from another thread) runs on its own
 * calling thread alone, with the same result; never an error, never a
 * deadlock. A pool must not be destroyed while a call uses it, and does
 * not survive fork() (its workers stay in the parent: create the child's
 * own). On Linux a worker woken onto the CPU that its caller (or another
 * worker of the same call) runs on moves off it before its part: its CPU
 * affinity is narrowed for a moment and restored exactly as it was, so a
 * CPU set the process chose (taskset, cgroups) stands. The kernel often
 * wakes a thread on its waker's CPU, and two threads of one call sharing
 * a CPU made a 2-thread call slower than one thread for milliseconds.
 *
 * The caller's own pool through a parallel-for hook (pe_parallel_for_fn),
 * as engines keep theirs: the call hands the hook n_tasks (2 ..
 * options.threads) tasks and the hook runs task_fn(task_arg, i) once for
 * each i in [0, n_tasks), on any of its threads, in any order, and
 * returns only when every task it started has finished; 0 when it ran
 * them. Tasks share out the work among themselves (a task that runs late
 * or not at all leaves its part to the others), so a hook with fewer
 * threads than tasks, or one that runs them one after another, is correct.
 * A hook that returns non-zero, skips a task, repeats an index or passes
 * one outside [0, n_tasks) costs only speed: what no task ran is run on
 * the calling thread after the hook returns, and the result is the same.
 *
 * Results never depend on who runs the work: the split into chunks is a
 * function of the call and the thread count only (bit for bit the same
 * with no pool, a pool, or a hook).
 */
typedef struct pe_pool pe_pool;

/* A pool for calls of up to `threads` threads, the caller's included
 * (1..64): starts threads - 1 workers. On failure *out is not written
 * (threads out of range: PE_ERR_PARAM; a thread that cannot start:
 * PE_ERR_NOMEM, the started ones stopped again). */
int pe_pool_create(int threads, pe_pool **out);
/* Stops and joins the workers, frees the pool; NULL is a no-op. */
void pe_pool_destroy(pe_pool *pool);
/* The `threads` the pool was created with (0 for NULL). */
int pe_pool_threads(const pe_pool *pool);

typedef void (*pe_task_fn)(void *task_arg, int task);
typedef int (*pe_parallel_for_fn)(void *ctx, int n_tasks, pe_task_fn task_fn, void *task_arg);

/* Options of the _ex and _qk calls; start from pe_rope_options_default()
 * (extensible: README "ABI and versions"; struct_size below 16, the first
 * version's size, is PE_ERR_PARAM). Every call that takes a
 * pe_rope_options accepts NULL for the defaults. */
typedef struct {
    size_t struct_size; /* sizeof(pe_rope_options) the caller built with */
    /* At most this many threads, the caller's included (1..1024; default
     * 1). Tokens are split among threads started and joined inside the
     * call; a thread start costs tens of microseconds or more (60 - 150 us
     * in a VM), so each such thread needs ~16 MiB of memory traffic (2
     * threads from a 16 MiB tensor rotated in place), or the call uses fewer,
     * down to the caller's thread alone: asking for threads never makes a
     * call slower. A pool or a hook, whose workers are already running,
     * needs only ~2 MiB per thread (keep one for calls in the
     * milliseconds: a decode loop, a 512-token prefill). Results do not depend on
     * the number of threads (bit for bit). With a pool: the pool's
     * threads are used, and threads must be 1 (the default) or equal
     * pe_pool_threads(pool). With a hook: the most tasks handed to it
     * (the threads the engine gives posenc). */
    int threads;
    pe_store_policy stores; /* default PE_STORES_AUTO */
    /* Added in 0.2.1. At most one of the two (both: PE_ERR_PARAM);
     * parallel_for_ctx only with parallel_for. Defaults NULL. */
    pe_pool *pool;
    pe_parallel_for_fn parallel_for;
    void *parallel_for_ctx;
} pe_rope_options;

pe_rope_options pe_rope_options_default(void);

/* pe_rope_apply with options (NULL: the defaults). */
int pe_rope_apply_ex(const pe_freqs *freqs, pe_rope_layout layout,
                     const pe_positions *positions, const pe_tensor *in,
                     const pe_tensor *out, pe_rope_direction direction,
                     const pe_rope_options *options);

/*
 * Queries and keys in one call: the same positions, frequencies, layout and
 * direction; each token's cos/sin is computed once for both. q and k may
 * have different head counts (grouped-query attention) and storage types;
 * each pair (q_in, q_out), (k_in, k_out) follows pe_rope_apply's rules and
 * both have the same tokens and head_dim. Bit-identical to two
 * pe_rope_apply_ex calls. options: NULL for the defaults.
 */
int pe_rope_apply_qk(const pe_freqs *freqs, pe_rope_layout layout,
                     const pe_positions *positions, const pe_tensor *q_in,
                     const pe_tensor *q_out, const pe_tensor *k_in,
                     const pe_tensor *k_out, pe_rope_direction direction,
                     const pe_rope_options *options);

/*
 * cos/sin cache: cos_out[t][i] = cos(p_t w'_i), sin_out[t][i] = sin(p_t w'_i)
 * for count tokens and d/2 pairs, row-major (count, d/2), f32, f64, f16 or
 * bf16 (each entry the double value correctly rounded to the storage
 * type), angles reduced exactly as in pe_rope_apply. Magnitude A is NOT
 * applied. The result is a PE_TABLE_PAIRS table for pe_rope_apply_table.
 */
int pe_rope_cos_sin(const pe_freqs *freqs, const pe_positions *positions,
                    int64_t count, void *cos_out, void *sin_out,
                    pe_dtype dtype);
/* pe_rope_cos_sin with options (threads; NULL: the defaults). f64 entries
 * are within 1.2e-15 of the exact cos/sin of the angle for |p w| < 2^40
 * (scalar kernels: libm on the reduced double angle; vector kernels:
 * 1.1e-16, mostly correctly rounded); f32 entries are those doubles
 * rounded. */
int pe_rope_cos_sin_ex(const pe_freqs *freqs, const pe_positions *positions,
                       int64_t count, void *cos_out, void *sin_out,
                       pe_dtype dtype, const pe_rope_options *options);

/*
 * Rotation from a caller's cos/sin table (docs/TABLES.md): the table is
 * built once per batch (pe_rope_cos_sin, pe_mrope_cos_sin, or the caller's
 * own: vision freqs_cis, learned mixing) and applied to every layer.
 * Row r of cos and sin holds the pair entries of position r:
 *   PE_TABLE_PAIRS       d/2 entries, entry i for pair i (pe_rope_cos_sin's
 *                        layout; vLLM's cos_sin_cache halves)
 *   PE_TABLE_DUPLICATED  d entries, Hugging Face's (T, d) `cos, sin`: half
 *                        layout cat(f, f), pair i reads entry i; interleaved
 *                        layout repeat_interleave(f, 2), pair i reads 2i.
 *                        The duplicate of each entry is not read (HF's
 *                        formula is a rotation only when they are equal).
 * Entries are used as given: a magnitude (HF's attention_scaling) must be
 * in the table. FORWARD rotates by (cos, sin), BACKWARD by (cos, -sin) (the
 * gradient; also the inverse of a unit-magnitude table); INVERSE is refused
 * (a table does not say its magnitude).
 */
typedef enum {
    PE_TABLE_PAIRS = 0,
    PE_TABLE_DUPLICATED = 1
} pe_table_width;

typedef struct {
    size_t struct_size;     /* sizeof(pe_rope_table): set by pe_rope_table_default */
    int64_t rotary_dim;     /* d: elements [0, d) rotate, [d, head_dim) pass through */
    int64_t rows;           /* rows in cos and sin; token t reads row positions[t] */
    const void *cos, *sin;  /* (rows, width) each, row_stride elements apart */
    pe_dtype dtype;         /* PE_F32, PE_F16, PE_BF16 or PE_F64 */
    pe_table_width width;   /* PE_TABLE_PAIRS (d/2 entries) or PE_TABLE_DUPLICATED (d) */
    int64_t row_stride;     /* elements between rows; 0: the row's width */
} pe_rope_table;

/* struct_size set, everything else 0 (width PE_TABLE_PAIRS, dtype PE_F32). */
pe_rope_table pe_rope_table_default(void);

/*
 * Rotate every (token, head) row of in into out with token t taking row
 * positions[t] of the table (any positions kind: pe_positions_range(0) for
 * a (tokens, ...) table, the token positions for a (max_position, ...)
 * cache, packed sequences). Views, in place, threads, store policy and
 * the bit-identity across threads and vector sets are pe_rope_apply_ex's.
 * Accuracy: the rotation by the stored entries is pe_rope_apply's bound
 * with A = 1; against the exact rotation add the table's own error per
 * output element, e |(x, y)| with e the entry's error: f32 tables from
 * pe_rope_cos_sin 2^-24 (+1.2e-15), f16 2^-11 (entries below 2^-14 carry
 * 2^-25 absolute), bf16 2^-8 (docs/TABLES.md has the measured values).
 * options: NULL for the defaults.
 */
int pe_rope_apply_table(const pe_rope_table *table, pe_rope_layout layout,
                        const pe_positions *positions, const pe_tensor *in,
                        const pe_tensor *out, pe_rope_direction direction,
                        const pe_rope_options *options);
/* q and k from one table: the rules of pe_rope_apply_qk (options: NULL for
 * the defaults). */
int pe_rope_apply_table_qk(const pe_rope_table *table, pe_rope_layout layout,
                           const pe_positions *positions, const pe_tensor *q_in,
                           const pe_tensor *q_out, const pe_tensor *k_in,
                           const pe_tensor *k_out, pe_rope_direction direction,
                           const pe_rope_options *options);

/* Index permutation between layouts for a head of head_dim elements whose
 * first rotary_dim rotate: perm[j] = the half-split index that holds the
 * element at interleaved index j (identity past rotary_dim). Applying it to
 * the rows of a q/k projection converts a checkpoint between conventions. */
int pe_rope_layout_permutation(int64_t head_dim, int64_t rotary_dim,
                               int64_t *perm);

/* ------------------------------------------------ key re-rotation (shift) */

/*
 * Shift cached keys by a position delta in one pass: every (token, head)
 * row of `in`, already rotated at some position p with `freqs`, becomes the
 * row rotated at p + delta (context shifting, attention sinks, KV-cache
 * reuse). Token t moves by deltas[t] when deltas is not NULL (then `delta`
 * must be 0), else every token by `delta`; deltas may be negative.
 * The angle delta * w is formed and reduced modulo 2 pi exactly, the way
 * the rotation forms p * w (double-double), never as an inverse rotation
 * followed by a forward one: one rounding, not two. The magnitude is left
 * alone (the keys already carry attention_factor A; freqs->attention_factor
 * is not applied). in, out: (tokens, heads, head_dim) f32/f16/bf16 views
 * of one shape and storage; out may be the same view as in (in place, the
 * usual case) but must not otherwise overlap it or the deltas.
 * Accuracy, f32: each output element is within the single-rotation bound
 * of pe_rope_apply (scalar kernels 0.5 ulp + 1e-14; vector kernels 1.4903e-7
 * for elements in [-1, 1]) of the exact rotation of its inputs by delta;
 * against rotating the original x at p + delta, add the rounding already
 * in the input (shift(rotate(x, p), delta) is within about twice the
 * single-rotation bound of rotate(x, p + delta), tested). 16-bit storage:
 * that f32 value rounded to nearest even (plus half an ulp of storage).
 * Results do not depend on threads (bit for bit). options: NULL for the
 * defaults (threads, store policy as pe_rope_apply_ex).
 */
int pe_rope_shift(const pe_freqs *freqs, pe_rope_layout layout, const int64_t *deltas,
                  int64_t delta, const pe_tensor *in, const pe_tensor *out,
                  const pe_rope_options *options);

/*
 * Re-base cached keys from one set of frequencies onto another in one pass
 * (dynamic NTK after the sequence grows, any change of scaling): token t,
 * rotated at positions[t] (or start + t) with old_freqs, becomes the row
 * rotated at the same position with new_freqs. The angle
 * p w_new - p w_old is formed as one double-double (exact products of the
 * split position, exact sums) and only then reduced modulo 2 pi, never as
 * two separately rounded angles; the magnitude becomes A_new (rows are
 * multiplied by A_new / A_old). Both pe_freqs must have the same
 * rotary_dim. Views, storage, in place and options as pe_rope_shift
 * (NULL: the defaults); the positions must not sit in out. Accuracy: the kernel set's
 * single-rotation bound (pe_rope_apply, A = A_new / A_old) of the exact
 * rotation of the stored key; against rotating the original vector with
 * new_freqs, about twice that (tested). cos/sin of the angle difference
 * are evaluated in double per token and pair (~40 ns a pair), so this call
 * is compute-bound, unlike the shift: a once-per-growth operation.
 */
int pe_rope_rebase(const pe_freqs *old_freqs, const pe_freqs *new_freqs, pe_rope_layout layout,
                   const pe_positions *positions, const pe_tensor *in, const pe_tensor *out,
                   const pe_rope_options *options);

/* ------------------------------------------------ fused QKV epilogue */

/*
 * What an engine does after the QKV projection, in one pass per token
 * (docs/FUSED.md): from f32 q, k, v views (usually slices of one fused
 * projection buffer, pe_fused_qkv_split), optionally RMS-normalise each
 * head of q and of k (QK-norm: Qwen3, OLMo 2, Gemma 3), rotate q and k at
 * their positions, write q in place or into q_out, and write k and v into a
 * cache slot, converted to f16/bf16 or quantized to int8.
 *
 * RMSNorm of a head x of D = head_dim elements, weight w (D floats), as
 * Hugging Face's Qwen3RMSNorm / Gemma3RMSNorm scale in float32,
 *   y_i = fl32( fl32(x_i r) w'_i ),  w'_i = w_i, or fl32(1 + w_i) with
 *   PE_NORM_ONE_PLUS_WEIGHT (Gemma),
 * with r the float32 of 1/sqrt(mean(x^2) + eps) computed in double: the
 * sum of squares in 8 partial sums (element i into sum i mod 8, in index
 * order), combined as ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)), then
 * r = fl32(1/sqrt(sum/D + eps)). The same operations on every kernel set
 * and thread count: y is within 1.5 ulp (f32) of the exact value, and
 * equals the reference code's float32 result wherever its own float32
 * mean gives the same r.
 *
 * The rotation is pe_rope_apply's (FORWARD, same accuracy) applied to y.
 * int8 slots (PE_I8): per (token, head) scale s = fl32(absmax / 127) over
 * the head's D (rotated) values, stored in k_scale / v_scale; element
 * q_i = round-half-even(fl32(x_i / s)) clamped to [-127, 127]; x ~ q s with
 * |x - q s| <= s/2 (+ 2^-17 s for the rounding of s). A head whose absmax
 * is 0, NaN or infinite stores q = 0 and s = absmax / 127 (0, NaN, inf).
 */
typedef enum {
    PE_NORM_WEIGHT = 0,         /* x_hat * w (Qwen3, OLMo 2) */
    PE_NORM_ONE_PLUS_WEIGHT = 1 /* x_hat * (1 + w) (Gemma) */
} pe_norm_weight;

/*
 * Parameters of pe_rope_fused_qkv; start from pe_fused_qkv_params_default()
 * (struct_size first: fields added later keep their defaults for callers
 * built against this version). Views are (tokens, heads, head_dim) with
 * element strides, as everywhere:
 *   q_in   f32, n_q heads            q_out   f32/f16/bf16, n_q heads; the
 *                                            same view as q_in: in place
 *   k_in   f32, n_kv heads           k_cache f32/f16/bf16/i8, n_kv heads
 *   v_in   f32, n_kv heads           v_cache f32/f16/bf16/i8, n_kv heads
 *   k_scale, v_scale  f32 (tokens, n_kv, 1) views: required with i8
 *                     caches, data NULL otherwise
 * Every view has the same tokens and head_dim (>= rotary_dim). Inputs may
 * share memory with each other (they are only read); each output shares no
 * byte with any other output or input, except q_out == q_in (in place).
 */
typedef struct {
    size_t struct_size; /* sizeof(pe_fused_qkv_params) */
    pe_tensor q_in, k_in, v_in;
    pe_tensor q_out;
    pe_tensor k_cache, v_cache;
    pe_tensor k_scale, v_scale;
    const float *q_norm_weight; /* head_dim floats, or NULL: q not normalised */
    const float *k_norm_weight; /* head_dim floats, or NULL: k not normalised */
    double norm_eps;            /* finite, >= 0; default 1e-6; with a norm
                                 * weight at least PE_MIN_NORM_EPS */
    pe_norm_weight norm_weight; /* default PE_NORM_WEIGHT */
    int threads;                /* as pe_rope_options.threads; default 1 */
    /* Added in 0.2.1. How k_cache, v_cache and an out-of-place q_out are
     * stored: as pe_rope_options.stores (AUTO streams a destination view
     * of 16 MiB or more; STREAMING suits a prefill whose cache slots are
     * read by later steps, not right away). int8 slots are never
     * streamed. Results do not depend on it (bit for bit). */
    pe_store_policy stores;
    /* Added in 0.2.1. Who runs the threads: as pe_rope_options (pool,
     * parallel_for, parallel_for_ctx; threads then as there). */
    pe_pool *pool;
    pe_parallel_for_fn parallel_for;
    void *parallel_for_ctx;
} pe_fused_qkv_params;

/* The smallest norm_eps accepted when q or k is normalised: 1/sqrt(eps)
 * then stays <= 1e15, so a zero head normalises to 0 (not 0 x inf = NaN,
 * which HF's RMSNorm gives with eps 0) and a subnormal one to a finite
 * vector (fl32 of 1/sqrt(1e-300) is inf). docs/FUSED.md, "norm_eps". */
#define PE_MIN_NORM_EPS 1e-30

/* Defaults: struct_size set, every view empty (data NULL), no norm
 * weights, eps 1e-6, PE_NORM_WEIGHT, 1 thread, PE_STORES_AUTO. */
pe_fused_qkv_params pe_fused_qkv_params_default(void);

/* The three f32 views of a dense fused projection (tokens, (n_q + 2 n_kv)
 * head_dim): per token the n_q q heads, then n_kv k heads, then n_kv v
 * heads (the order of Qwen/Llama's fused qkv_proj and llama.cpp's wqkv). */
int pe_fused_qkv_split(float *qkv, int64_t tokens, int64_t n_q_heads, int64_t n_kv_heads,
                       int64_t head_dim, pe_tensor *q, pe_tensor *k, pe_tensor *v);

/*
 * Norm, rotate, store: token t at positions[t] (or start + t), rotated
 * forward with freqs in `layout`; every argument validated before anything
 * is written. Results do not depend on the thread count, and the vector
 * kernel sets agree bit for bit (the scalar set within pe_rope_apply's
 * bound). Output accuracy against the exact norm + rotation of the f32
 * inputs: f32 the norm's 1.5 ulp carried through pe_rope_apply's bound;
 * f16/bf16 that value rounded to nearest even; i8 as above.
 */
int pe_rope_fused_qkv(const pe_freqs *freqs, pe_rope_layout layout,
                      const pe_positions *positions, const pe_fused_qkv_params *params);

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
    size_t struct_size; /* extensible (README "ABI and versions"): set by the initializer */
    int64_t n_q, n_k, dim, dim_v;
    double scale;
    int causal;
    const float *bias; /* (n_q, n_k) or NULL */
} pe_attention_params;

/* The initializer: the sizes given, scale 0 (1/sqrt(dim)), not causal, no
 * bias; set the other fields afterwards. */
pe_attention_params pe_attention_params_default(int64_t n_q, int64_t n_k, int64_t dim,
                                                int64_t dim_v);

int pe_attention(const pe_attention_params *params, const float *q,
                 const float *k, const float *v, float *out);

/* The helper for RoPE: rotates copies of q and k at their positions (layout,
 * freqs) and then runs pe_attention. q, k, v are not modified. */
int pe_attention_rope(const pe_attention_params *params, const pe_freqs *freqs,
                      pe_rope_layout layout, const pe_positions *q_positions,
                      const pe_positions *k_positions, const float *q,
                      const float *k, const float *v, float *out);

/* ------------------------------------------- RoPE scaling (rope_scaling.c) */

/*
 * Frequency generators (SPEC §2.1): pure functions from a pe_rope_scaling to
 * a pe_freqs. w'_i is evaluated in long double and stored as a double-double
 * (inv_freq + inv_freq_lo); A goes to attention_factor; DeepSeek's softmax
 * multiplier mscale(f, mscale_all_dim)^2 goes to softmax_scale_multiplier.
 * Notation: d = rotary_dim (the exponent's denominator for every scheme
 * except PROPORTIONAL, which uses head_dim), b = base, f = factor,
 * L = max_position, L0 = original_max_position, s = seq_len.
 * Names match Hugging Face's rope_type strings. docs/SCALING.md has the
 * formulas, defaults and traps.
 */
/* X(NAME, value, "name"): generates pe_scaling_type, pe_scaling_name() and
 * pe_scaling_from_name(). Values are stable and append-only; never
 * renumber. Each row has one descriptor in rope_scaling.c (defaults,
 * validation, frequencies, magnitude, parameters, config keys, help).
 *   DEFAULT       w_i = b^(-2i/d), A = 1
 *   LINEAR        w_i / f (position interpolation)
 *   NTK           base b f^(d/(d-2))
 *   DYNAMIC       s > L: base b (f s/L - (f-1))^(d/(d-2))
 *   YARN          ramp between w/f and w; A from mscale
 *   LLAMA3        wavelength bands around L0/h .. L0/l
 *   LONGROPE      w_i / e_i, e = long (s > L0) or short
 *   PROPORTIONAL  exponent 2i/head_dim; pairs past d/2 are 0
 *   EXPLICIT      w_i / c_i, caller's per-pair divisors
 *   NTK_ALPHA     base b alpha^(d/(d-2)) (HunYuan; alpha in factor) */
#define PE_SCALING_MAP(X)                                                    \
    X(DEFAULT, 0, "default")                                                 \
    X(LINEAR, 1, "linear")                                                   \
    X(NTK, 2, "ntk")                                                         \
    X(DYNAMIC, 3, "dynamic")                                                 \
    X(YARN, 4, "yarn")                                                       \
    X(LLAMA3, 5, "llama3")                                                   \
    X(LONGROPE, 6, "longrope")                                               \
    X(PROPORTIONAL, 7, "proportional")                                       \
    X(EXPLICIT, 8, "explicit")                                               \
    X(NTK_ALPHA, 9, "ntk_alpha")

typedef enum {
#define PE_SCALING_ENUM_(name, value, str) PE_SCALING_##name = value,
    PE_SCALING_MAP(PE_SCALING_ENUM_)
#undef PE_SCALING_ENUM_
} pe_scaling_type;

/*
 * Parameters of every generator; each scheme reads only its own fields and
 * ignores the rest. Start from pe_rope_scaling_defaults() (extensible: it sets
 * struct_size; README "ABI and versions"). "NAN" below means
 * "not given: derive it"; 0 means "unset" where Hugging Face treats a falsy
 * value as unset (mscale, mscale_all_dim).
 */
typedef struct {
    size_t struct_size; /* sizeof(pe_rope_scaling) the caller built with */
    pe_scaling_type type;
    int64_t head_dim;   /* D (>= rotary_dim); PROPORTIONAL: even, <= PE_MAX_ROTARY_DIM */
    int64_t rotary_dim; /* d: even, 2 <= d <= min(D, PE_MAX_ROTARY_DIM) */
    double base;        /* b: finite, > 0, != 1 (10000) */
    double factor;      /* f > 0 (NTK_ALPHA: alpha). NAN: YARN and LONGROPE use L/L0, PROPORTIONAL 1 */
    int64_t original_max_position; /* L0 > 0: YARN, LLAMA3, LONGROPE */
    int64_t max_position; /* L > 0: DYNAMIC; YARN/LONGROPE when factor is NAN */
    int64_t seq_len;    /* s >= 0: DYNAMIC, LONGROPE; 0 = not stated (s <= L, L0) */
    double beta_fast, beta_slow; /* YARN: beta_fast > beta_slow > 0 (32, 1) */
    int truncate;                /* YARN: floor/ceil the correction range (1) */
    double mscale, mscale_all_dim; /* YARN: >= 0, 0 = unset (0, 0) */
    double attention_factor; /* YARN, LONGROPE: A if finite > 0; NAN derives it */
    double low_freq_factor, high_freq_factor; /* LLAMA3: 0 < l < h (1, 4) */
    const double *short_factor, *long_factor; /* LONGROPE: d/2 each, > 0 */
    int64_t n_short_factor, n_long_factor;
    const double *divisors; /* EXPLICIT: d/2 divisors c_i > 0 */
    int64_t n_divisors;
    /* Zero (set by pe_rope_scaling_defaults). A parameter added later takes
     * its place from here, so sizeof(pe_rope_scaling) and every field of the
     * structs embedding it (pe_rope_config, pe_check_expect) stay where they
     * are (README "ABI and versions"). A non-zero slot is refused. */
    int64_t reserved[16];
} pe_rope_scaling;

/* Defaults for a scheme: rotary_dim = head_dim, base 10000, factor 1 (LINEAR,
 * NTK, DYNAMIC), 8 (LLAMA3) or NAN (the rest), L0 8192 for LLAMA3 (0
 * otherwise: must be set), L = s = 0, beta 32/1, truncate 1, mscale 0,
 * attention_factor NAN, low/high 1/4, no lists. */
pe_rope_scaling pe_rope_scaling_defaults(pe_scaling_type type, int64_t head_dim);

/*
 * Frequencies of a scaling scheme into out. out->rotary_dim is d, except
 * PROPORTIONAL, whose out->rotary_dim is head_dim (pairs [d/2, D/2) have
 * frequency exactly 0, so they rotate by nothing but still pair across the
 * whole head). interp_weight (nullable, out->rotary_dim/2 entries): the
 * weight of the unscaled w_i in w'_i = w_i/f + weight (w_i - w_i/f), i.e.
 * YaRN's w_i and Llama 3's t_i (1 for untouched pairs, 0 for fully scaled
 * ones); NAN for the other schemes. A factor of 1 gives the default
 * frequencies bit for bit (DYNAMIC: when s <= L). Errors name the field:
 * dims, base, factor <= 0 or NaN, L0/L <= 0, beta_fast <= beta_slow,
 * low_freq_factor >= high_freq_factor, missing or mis-sized lists, list
 * entries <= 0, a derived A that is not finite and > 0.
 */
int pe_freqs_from_scaling(const pe_rope_scaling *scaling, pe_freqs *out,
                          double *interp_weight);

/*
 * YaRN's correction range: corr(beta) = d ln(L0 / (2 pi beta)) / (2 ln b),
 * low = corr(beta_fast), high = corr(beta_slow), floored/ceiled when
 * truncate, then clamped to low >= 0, high <= d - 1 (as Hugging Face does).
 * The ramp adds 0.001 to high when low == high; this returns the values
 * before that nudge. d = 128, b = 1e4, L0 = 2048, f = 10 gives 16, 41.
 */
int pe_yarn_correction_range(int64_t rotary_dim, double base,
                             int64_t original_max_position, double beta_fast,
                             double beta_slow, int truncate, double *low,
                             double *high);

/* The scheme's name (the third column of PE_SCALING_MAP, Hugging Face's
 * rope_type string); "?" for an unknown value. */
const char *pe_scaling_name(pe_scaling_type type);
/* Inverse of pe_scaling_name, also accepting "su" (LongRoPE's first name in
 * Phi-3 configs). Case-sensitive, as in config files. */
int pe_scaling_from_name(const char *name, pe_scaling_type *out);

/*
 * The scheme table, for front ends that generate their choices, options and
 * help from it (the CLI's --scaling and its flags, Python's keywords), so a
 * scheme added to the library needs no edit there. Schemes are the values
 * 0 .. pe_scaling_count() - 1; parameters are 0 .. pe_scaling_num_params() - 1,
 * each a field of pe_rope_scaling that one or more schemes read (head_dim,
 * rotary_dim and base, read by every scheme, are not in this table).
 */
typedef enum {
    PE_SCALING_PARAM_REAL = 0, /* double */
    PE_SCALING_PARAM_INT = 1,  /* int64_t */
    PE_SCALING_PARAM_BOOL = 2, /* int, default 1; the CLI flag sets it to 0 */
    PE_SCALING_PARAM_LIST = 3  /* rotary_dim/2 doubles (pointer and count) */
} pe_scaling_param_kind;

typedef struct {
    const char *name;       /* Python keyword and the library's word ("beta_fast") */
    const char *flag;       /* CLI option without "--" ("beta-fast", "no-truncate") */
    const char *metavar;    /* CLI value placeholder; NULL for a BOOL flag */
    const char *help;       /* one line */
    const char *config_key; /* key of a config.json scaling block; NULL: none */
    pe_scaling_param_kind kind;
} pe_scaling_param;

/* Number of schemes this library knows (may exceed the header's map when a
 * newer shared library is linked). */
int pe_scaling_count(void);
/* One line describing the scheme; "?" for an unknown value. */
const char *pe_scaling_help(pe_scaling_type type);
int pe_scaling_num_params(void);
/* Parameter i, NULL outside [0, pe_scaling_num_params()). */
const pe_scaling_param *pe_scaling_param_get(int i);
/* 1 if scheme type reads parameter i, else 0 (also for unknown values). */
int pe_scaling_reads(pe_scaling_type type, int i);
/* Set parameter i of *s (its kind: REAL; INT or BOOL; LIST, whose array is
 * referenced, not copied). PE_ERR_NULL, PE_ERR_PARAM for an unknown i or a
 * kind mismatch; values are checked later by pe_freqs_from_scaling. */
int pe_scaling_set_real(pe_rope_scaling *s, int i, double value);
int pe_scaling_set_int(pe_rope_scaling *s, int i, int64_t value);
int pe_scaling_set_list(pe_rope_scaling *s, int i, const double *values, int64_t n);
/* Read parameter i of *s (same kinds and errors as the setters; a BOOL reads
 * as 0 or 1): what a front end prints or hands on, by the table's name. */
int pe_scaling_get_real(const pe_rope_scaling *s, int i, double *value);
int pe_scaling_get_int(const pe_rope_scaling *s, int i, int64_t *value);
int pe_scaling_get_list(const pe_rope_scaling *s, int i, const double **values, int64_t *n);

/*
 * A model's RoPE as its Hugging Face config.json describes it, read the way
 * the checkpoint's own code reads it. Plain value type (the LongRoPE lists
 * are stored inline, PE_MAX_PAIRS each: about 8.5 KiB): copy freely.
 * scaling's list pointers are NULL and its seq_len 0; pe_config_scaling() returns a copy pointing into this struct.
 * For DeepSeek MLA models scaling.head_dim is qk_rope_head_dim (the rotated
 * slice of the query/key head).
 */
typedef struct {
    char model_type[64];     /* "" if the file has none */
    pe_rope_scaling scaling; /* type, D, d, b, L (0 if absent), L0, ... */
    double short_factor[PE_MAX_PAIRS]; /* scaling.n_short_factor used */
    double long_factor[PE_MAX_PAIRS];  /* scaling.n_long_factor used */
    pe_rope_layout layout;   /* pairing the checkpoint's code uses */
    int layout_known;        /* 1: the family's record states the layout (every config
                                read: a model_type outside the registry is refused) */
} pe_rope_config;

/* Parse config.json text (len bytes, need not be NUL-terminated). Malformed
 * JSON, wrong types, unknown rope types, missing keys and inconsistent
 * values are PE_ERR_FORMAT naming the key (PE_ERR_DIM for impossible
 * dimensions). Read through the per-layer plan below: a config whose
 * layers differ (local/global bases, NoPE layers, a query scale, PhiMoE
 * mscales) is PE_ERR_UNSUPPORTED naming the layer types, never one
 * layer's answer; use pe_plan_* for it. softmax_scale_multiplier is 1
 * except for DeepSeek-family attention. */
int pe_config_parse(const char *json, size_t len, pe_rope_config *out);
/* pe_config_parse on a file (PE_ERR_IO if it cannot be read). */
int pe_config_read(const char *path, pe_rope_config *out);
/* The same, reading the config as registry family `family` on purpose
 * (NULL: its model_type), as pe_plan_from_config_*_as. */
int pe_config_parse_as(const char *json, size_t len, const char *family,
                       pe_rope_config *out);
int pe_config_read_as(const char *path, const char *family, pe_rope_config *out);
/* The config's scaling parameters for sequence length seq_len (>= 0; the
 * largest position + 1; 0 = not stated), list pointers into *config. */
int pe_config_scaling(const pe_rope_config *config, int64_t seq_len,
                      pe_rope_scaling *out);
/* pe_freqs_from_scaling(pe_config_scaling(config, seq_len)). */
int pe_config_freqs(const pe_rope_config *config, int64_t seq_len,
                    pe_freqs *out, double *interp_weight);

/* ------------------------------------- per-layer positional plan (plan.c) */

/*
 * A checkpoint's positions layer by layer, read from its config.json the
 * way the checkpoint's own Hugging Face code builds them: get_text_config()
 * nesting (text_config, language_config, llm_config, thinker_config), v4
 * rope_scaling and v5 rope_parameters (including per-layer-type dicts),
 * layer_types / sliding_window_pattern, Gemma's local base, NoPE layers,
 * per-family semantics (docs/SCALING.md) and per-model_type class defaults
 * for absent keys, all from the family's registry record (docs/FAMILIES.md):
 * a model_type outside the registry, or none, is PE_ERR_UNSUPPORTED naming
 * the closest records (read it as one on purpose with
 * pe_plan_from_config_*_as). Every layer has a positional kind
 * (pe_plan_layer_position). Opaque and heap-allocated: each distinct RoPE kind is
 * stored once and layers index into it; read it through the accessors.
 * Immutable once built, so one plan may be read from many threads.
 */
typedef struct pe_plan pe_plan;

/* A query scale some models apply after RoPE, by position p:
 * q *= 1 + beta * ln(1 + floor((p + offset) / span)). Llama 4's NoPE layers
 * (attn_temperature_tuning: beta = attn_scale, span = floor_scale,
 * offset 1) and Ministral 3's every layer (llama_4_scaling_beta, span =
 * original_max_position_embeddings, offset 0). */
typedef struct {
    int active;     /* 0: no such scale on this layer */
    double beta;
    int64_t span;   /* > 0 when active */
    int64_t offset;
} pe_plan_temperature;

/* What one decoder layer does with positions. Small value type; strings
 * point into the plan and live as long as it. */
typedef struct {
    const char *layer_type;   /* "full_attention", "sliding_attention", "chunked_attention", "linear_attention", ... */
    int attention;            /* 0: not an attention layer (linear attention, Mamba): no positions */
    int rope;                 /* 1: rotates q/k; 0: NoPE */
    int64_t rope_kind;        /* index of the distinct RoPE kind (layers with equal kinds share it); -1 if rope == 0 */
    int64_t head_dim;         /* D of this layer's q/k heads (Gemma 4's global layers: global_head_dim) */
    int64_t rotary_dim;       /* d rotated (0 if rope == 0) */
    pe_rope_layout layout;    /* pairing of the checkpoint's code */
    int layout_known;         /* 1 for every config plan (its family's record); GGUF: the
                                 architecture's rope type */
    pe_scaling_type scaling;  /* scheme (HunYuan alpha: DEFAULT at the multiplied base) */
    double base;              /* b actually used */
    double factor;            /* NAN where the scheme has none */
    int64_t max_position;     /* L (0 if unknown) */
    int64_t original_max_position; /* L0 (0 if none) */
    int64_t mrope_section[4]; /* M-RoPE pairs per axis (t, h, w[, ...]) */
    int64_t n_mrope_section;  /* 0: plain RoPE */
    int mrope_interleaved;    /* Qwen3-VL style sections */
    int64_t sliding_window;   /* tokens, 0: attends to everything */
    int64_t chunk_size;       /* Llama 4 chunked attention, 0: none */
    pe_plan_temperature temperature;
    const char *f32_inputs;   /* GGUF: the inputs stored as float32 ("" if none, or from a config) */
} pe_plan_layer;

/*
 * The positions each layer sees, by kind. Every layer of a plan has exactly
 * one (pe_plan_layer_position); the kind-specific parameters are read with
 * the getter of that kind, which refuses (PE_ERR_PARAM naming the layer's
 * real kind) any other layer. A kind added later is a new enum value, a new
 * small struct and a new getter: no existing struct changes size or moves a
 * field. Values are stable and append-only.
 */
typedef enum {
    PE_POSITION_ROPE = 0,       /* rotary q/k (pe_plan_layer_info, pe_plan_layer_freqs) */
    PE_POSITION_NOPE = 1,       /* self-attention without any position signal (NoPE layers) */
    PE_POSITION_ALIBI = 2,      /* linear bias per head (pe_plan_layer_alibi) */
    PE_POSITION_T5 = 3,         /* T5 relative buckets (pe_plan_layer_t5) */
    PE_POSITION_LEARNED = 4,    /* learned absolute table added to the input (pe_plan_layer_learned) */
    PE_POSITION_SINUSOIDAL = 5, /* fixed sinusoidal table added to the input (pe_plan_layer_sinusoidal) */
    PE_POSITION_NONE = 6,       /* no attention over token positions: convolution, state-space,
                                   linear attention, cross-attention to another sequence */
    PE_POSITION_RELATIVE = 7    /* a relative scheme other than T5's buckets (Shaw relative keys,
                                   Transformer-XL, DeBERTa's disentangled attention, a window's
                                   learned bias table): named by registry records that refuse
                                   it; no plan layer has this kind */
} pe_position_kind;

/* "rope", "nope", "alibi", "t5", "learned", "sinusoidal", "none", "relative"; "?" for
 * an unknown value. pe_position_kind_from_name: PE_ERR_PARAM if unknown. */
const char *pe_position_kind_name(pe_position_kind kind);
int pe_position_kind_from_name(const char *name, pe_position_kind *out);

/* The kind of one layer's positions, and for NONE (and NOPE) why the layer
 * sees none: "linear_attention", "mamba", "cross_attention", "nope_layer",
 * ... (a string owned by the plan). */
typedef struct {
    pe_position_kind kind;
    const char *why;  /* "" when kind is ROPE, ALIBI, T5, LEARNED or SINUSOIDAL */
} pe_plan_position;

/* How a family's code computes its ALiBi slopes. */
typedef enum {
    /* Press et al.'s get_slopes as BLOOM's and Falcon's build_alibi_tensor:
     * c = 2^floor(log2 H); 2^(-8(h+1)/c) for h < c, then 2^(-4(2(h-c)+1)/c)
     * (pe_alibi_slopes). */
    PE_ALIBI_SLOPES_PRESS = 0,
    /* MPT's build_mpt_alibi_tensor: c = 2^ceil(log2 H), m_j = 2^(-max_bias
     * (j+1)/c) for j < c; when c != H the odd-indexed m_1, m_3, ... come
     * first, then m_0, m_2, ..., cut to H. */
    PE_ALIBI_SLOPES_MPT = 1
} pe_alibi_slope_rule;

typedef struct {
    int64_t heads;              /* H: one slope per attention head */
    pe_alibi_slope_rule rule;
    double max_bias;            /* MPT's alibi_bias_max (8); 8 for PRESS */
    pe_dtype hf_slope_dtype;    /* what the family's HF code rounds each slope to before the
                                   product with the distance: PE_F32 (BLOOM, MPT compute in
                                   float32), PE_BF16 (Falcon: slopes.bfloat16()) */
    int causal;                 /* 1: decoder (the bias only meets keys j <= i) */
} pe_plan_alibi;

typedef struct {
    int64_t num_buckets;        /* relative_attention_num_buckets */
    int64_t max_distance;       /* relative_attention_max_distance */
    int bidirectional;          /* 1: encoder self-attention; 0: decoder (causal buckets) */
    int64_t bias_layer;         /* the layer whose relative_attention_bias table this layer uses */
    int owns_bias;              /* 1: this layer holds the table (T5: the first of its stack) */
    int64_t heads;
} pe_plan_t5;

typedef struct {
    int64_t rows;               /* rows of the table (OPT: max_position_embeddings + 2) */
    int64_t offset;             /* added to the position before the look-up (OPT, BART: 2) */
    int64_t dim;                /* row length (the model's hidden size) */
} pe_plan_learned;

typedef struct {
    double base;                /* 10000 for every family posenc knows */
    pe_sin_layout layout;       /* concatenated [sin | cos] or interleaved */
    pe_sin_convention convention;
    int64_t dim;
    int64_t offset;             /* added to the position (M2M100, XGLM: padding_idx + 1 = 2) */
} pe_plan_sinusoidal;

int pe_plan_layer_position(const pe_plan *plan, int64_t layer, pe_plan_position *out);
int pe_plan_layer_alibi(const pe_plan *plan, int64_t layer, pe_plan_alibi *out);
/* The layer's ALiBi slopes, heads entries each: exact (each the correctly
 * rounded double of the family's real-number formula) and as_hf (exact
 * rounded to hf_slope_dtype, what the HF code multiplies by). Either may
 * be NULL. */
int pe_plan_layer_alibi_slopes(const pe_plan *plan, int64_t layer, double *exact,
                               double *as_hf);
int pe_plan_layer_t5(const pe_plan *plan, int64_t layer, pe_plan_t5 *out);
int pe_plan_layer_learned(const pe_plan *plan, int64_t layer, pe_plan_learned *out);
int pe_plan_layer_sinusoidal(const pe_plan *plan, int64_t layer, pe_plan_sinusoidal *out);

/*
 * The family registry (docs/FAMILIES.md): one record per Hugging Face
 * model_type posenc reads. A config whose model_type is not a record is
 * refused (PE_ERR_UNSUPPORTED naming the closest records); a record of a
 * family posenc does not model refuses with its reason.
 * pe_plan_from_config_*_as reads the file as the named family on purpose
 * (its model_type, if any, is ignored; NULL family: as pe_plan_from_*).
 */
typedef struct {
    const char *model_type;
    unsigned kinds;       /* bit (1u << k) for each pe_position_kind k its layers can have */
    const char *source;   /* transformers file(s) and commit the record was read from */
    const char *refusal;  /* NULL: modelled; else why posenc refuses the family */
} pe_family_info;

int64_t pe_family_count(void);
/* Record index (0 <= index < pe_family_count()) into *out; PE_ERR_RANGE past the end. */
int pe_family_get(int64_t index, pe_family_info *out);

/* Build a plan from config.json text (len bytes, need not be NUL-terminated)
 * or a file. Errors as pe_config_parse, plus PE_ERR_FORMAT naming the key
 * for contradictions (layer_types length != num_hidden_layers, a per-type
 * block missing for a listed type, a NoPE list of the wrong length, several
 * text configs). *out: pe_plan_free. */
int pe_plan_from_config_json(const char *json, size_t len, pe_plan **out);
int pe_plan_from_config_file(const char *path, pe_plan **out);
int pe_plan_from_config_json_as(const char *json, size_t len, const char *family,
                                pe_plan **out);
int pe_plan_from_config_file_as(const char *path, const char *family, pe_plan **out);
void pe_plan_free(pe_plan *plan);

/* model_type of the decoder config read ("" if none); for a GGUF file,
 * its general.architecture. */
const char *pe_plan_model_type(const pe_plan *plan);
/* "config" or "gguf". */
const char *pe_plan_source(const pe_plan *plan);
/* Number of decoder layers (num_hidden_layers; 1 if the config has none). */
int64_t pe_plan_num_layers(const pe_plan *plan);
/* Number of distinct RoPE kinds (0: no layer rotates). */
int64_t pe_plan_num_rope_kinds(const pe_plan *plan);
/* Warnings: keys read but not understood, class defaults unknown, values
 * the model's code ignores. index < count; NULL past the end. */
int64_t pe_plan_num_warnings(const pe_plan *plan);
const char *pe_plan_warning(const pe_plan *plan, int64_t index);

/* Layer `layer` (0-based) into *out. Errors: layer out of range. */
int pe_plan_layer_info(const pe_plan *plan, int64_t layer, pe_plan_layer *out);
/* The layer's scaling parameters for seq_len (>= 0, 0 = not stated); list
 * pointers into the plan. PE_ERR_PARAM for a NoPE layer. */
int pe_plan_layer_scaling(const pe_plan *plan, int64_t layer, int64_t seq_len,
                          pe_rope_scaling *out);
/* The layer's frequencies at seq_len, with the model's own magnitude
 * (PhiMoE's short/long mscale) and softmax multiplier (DeepSeek family
 * only; 1 elsewhere). PE_ERR_PARAM for a NoPE layer. */
int pe_plan_layer_freqs(const pe_plan *plan, int64_t layer, int64_t seq_len,
                        pe_freqs *out, double *interp_weight);
/* The layer's query scale at position (>= 0): 1 where it has none. */
int pe_plan_layer_query_scale(const pe_plan *plan, int64_t layer, int64_t position,
                              double *scale);

/*
 * The plan of a llama.cpp GGUF file, from its header, metadata and the
 * small rope tensors only (the weights are never read), read as llama.cpp's
 * loader and graph read it for the file's general.architecture: the
 * architecture's record in posenc's llama.cpp registry (docs/FAMILIES.md,
 * GGUF) gives the rope type (pair layout, M-RoPE blocked or interleaved),
 * the sliding-window rule, NextN layers (n_layer = block_count -
 * nextn_predict_layers), recurrent layers (kind none), the YaRN keys it
 * reads (others run llama.cpp's defaults) and NoPE steps. LongRoPE comes
 * from the rope_factors_long/short tensors with rope.scaling.attn_factor
 * (Phi-3 conversions write no scaling type); Llama 3 from rope_freqs.weight
 * (EXPLICIT). Each layer's f32_inputs names what went through float32.
 * PE_ERR_UNSUPPORTED for an architecture not in the registry (naming the
 * closest) or one it refuses (with the reason). Unknown positional keys,
 * and keys llama.cpp does not read for the architecture, are warnings.
 * pe_plan_from_gguf_as reads the file as the named registry architecture
 * on purpose (general.architecture still names the keys).
 */
int pe_plan_from_gguf(const char *path, pe_plan **out);
int pe_plan_from_gguf_as(const char *path, const char *arch, pe_plan **out);

/* The llama.cpp architecture registry, one record per architecture. */
typedef struct {
    const char *arch;         /* general.architecture */
    const char *rope_type;    /* llama_model_rope_type(): "none", "norm", "neox", "mrope",
                                 "imrope", "mrope|norm" / "mrope|neox" (by the file's sections) */
    pe_position_kind position; /* of its attention layers */
    const char *source;       /* llama.cpp file:line at the commit in docs/FAMILIES.md */
    const char *refusal;      /* NULL: modelled; else why posenc refuses it */
} pe_gguf_arch_info;

int64_t pe_gguf_arch_count(void);
/* Record index into *out; PE_ERR_RANGE past the end, PE_ERR_NULL. */
int pe_gguf_arch_get(int64_t index, pe_gguf_arch_info *out);

/* Differences between two plans of one model (a config.json and a GGUF,
 * say), layer by layer at seq_len: layer count, rotation, types, dims,
 * layout, windows, query scales, and frequencies / magnitude / softmax
 * multiplier beyond 4 ulps (with the largest relative difference and the
 * float32-stored inputs that explain it). Lines group the layers that share
 * a difference. *out: pe_plan_diff_free. */
typedef struct pe_plan_diff pe_plan_diff;
int pe_plan_compare(const pe_plan *a, const pe_plan *b, int64_t seq_len, pe_plan_diff **out);
int64_t pe_plan_diff_count(const pe_plan_diff *diff);
const char *pe_plan_diff_line(const pe_plan_diff *diff, int64_t index);
void pe_plan_diff_free(pe_plan_diff *diff);

/* --------------------------------------------- M-RoPE (rope_mrope.c) */

/*
 * Multi-axis RoPE (SPEC §2.3) for vision-language models. Every token has
 * three positions (t, h, w); text tokens have t = h = w. Frequency slot j
 * (pair j, j < d/2) keeps its own w'_j and takes its angle from one axis,
 * chosen by a section list sections = {s_t, s_h, s_w}, s_t + s_h + s_w = d/2:
 *   blocked      slots [0, s_t) use t, [s_t, s_t + s_h) use h, the rest w
 *                (Qwen2-VL, Qwen2.5-VL: HF apply_multimodal_rotary_pos_emb)
 *                  d/2 = 8, {2, 3, 3}:   t t h h h w w w
 *   interleaved  slot j uses h if j % 3 == 1 and j < 3 s_h, w if j % 3 == 2
 *                and j < 3 s_w, t otherwise (Qwen3-VL: HF
 *                apply_interleaved_mrope)
 *                  d/2 = 8, {4, 2, 2}:   t h w t h w t t
 * Interleaved sections must be realisable, 3 s_h <= d/2 + 1 and
 * 3 s_w <= d/2, so that every axis gets exactly its section's count of slots
 * (HF silently gives another split when they are not). Both checkpoints pair
 * elements half-split (PE_ROPE_HALF); either pair layout is accepted.
 */
typedef enum {
    PE_MROPE_BLOCKED = 0,
    PE_MROPE_INTERLEAVED = 1
} pe_mrope_mode;

/* Axis numbers: column of the positions array, value of a slot's axis. */
enum { PE_MROPE_AXIS_T = 0, PE_MROPE_AXIS_H = 1, PE_MROPE_AXIS_W = 2 };

/* axes: (rotary_dim/2,) the axis (PE_MROPE_AXIS_*) slot j takes its angle
 * from. sections: {s_t, s_h, s_w}. Errors: rotary_dim odd, < 2 or above
 * PE_MAX_ROTARY_DIM; a negative section; a sum other than rotary_dim/2; an
 * unrealisable interleaved split; an unknown mode. */
int pe_mrope_slot_axes(int64_t rotary_dim, const int64_t sections[3],
                       pe_mrope_mode mode, int *axes);

/*
 * pe_rope_apply with three positions per token. positions: (tokens, 3)
 * row-major, {t, h, w} of each token (HF's position_ids are (3, batch, seq):
 * transpose them). Slot j of token t rotates by positions[t][axis_j] * w'_j;
 * layout, views, in-place rule, directions, magnitude and accuracy are those
 * of pe_rope_apply; when every token has t = h = w (text only) the output
 * is pe_rope_apply's on those positions, bit for bit. (A text token right
 * after an image token gets fresh cos/sin where pe_rope_apply on the same
 * positions might step them from the previous one: equal to 1e-14, not
 * always to the bit.) Storage f32, f16 or bf16 like pe_rope_apply. The
 * rotation is pe_rope_apply's driver with a per-token angle source: text
 * tokens are stepped like plain RoPE, and an image token whose axes each
 * stay or advance by one from the previous token (a row of patches) takes
 * the same fused step with a zero step on the axes that stay (fresh every
 * 32 tokens, as plain RoPE; docs/TABLES.md). */
int pe_mrope_apply(const pe_freqs *freqs, pe_rope_layout layout,
                   const int64_t *positions, const int64_t sections[3],
                   pe_mrope_mode mode, const pe_tensor *in,
                   const pe_tensor *out, pe_rope_direction direction);

/* pe_mrope_apply with options (threads, store policy; NULL: the defaults). */
int pe_mrope_apply_ex(const pe_freqs *freqs, pe_rope_layout layout,
                      const int64_t *positions, const int64_t sections[3],
                      pe_mrope_mode mode, const pe_tensor *in, const pe_tensor *out,
                      pe_rope_direction direction, const pe_rope_options *options);

/* Queries and keys in one M-RoPE call: pe_rope_apply_qk's rules, each
 * token's cos/sin computed once for both (options: NULL for the defaults). */
int pe_mrope_apply_qk(const pe_freqs *freqs, pe_rope_layout layout,
                      const int64_t *positions, const int64_t sections[3],
                      pe_mrope_mode mode, const pe_tensor *q_in, const pe_tensor *q_out,
                      const pe_tensor *k_in, const pe_tensor *k_out,
                      pe_rope_direction direction, const pe_rope_options *options);

/* cos/sin cache like pe_rope_cos_sin: (count, d/2) row-major, f32, f64, f16 or bf16,
 * entry [t][j] at the angle positions[t][axis_j] * w'_j. Magnitude A is NOT
 * applied. positions: (count, 3). */
int pe_mrope_cos_sin(const pe_freqs *freqs, const int64_t *positions,
                     int64_t count, const int64_t sections[3],
                     pe_mrope_mode mode, void *cos_out, void *sin_out,
                     pe_dtype dtype);

/* --------------------------------------------- rotation check (check.c) */

/*
 * Diagnose what an engine computed: given the rotation a plan asks for and
 * an engine's dump of one layer's q or k before and after its rotation (or
 * its cos/sin cache), say whether the dump agrees within the error its
 * storage type allows and, when it does not, which known fault explains it
 * best. Each candidate re-rotates `in` exactly (double, exact angles) under
 * one hypothesis and scores it by the RMS distance to `out`; the names are
 * pe_diagnosis_name's vocabulary; the bound is documented at
 * pe_check_report.
 */
typedef enum {
    PE_DIAG_LAYOUT = 0,          /* the other pair layout */
    PE_DIAG_PARTIAL_ROTARY = 1,  /* another rotated slice (offset or width) */
    PE_DIAG_BASE = 2,            /* another base, fit from the per-pair angles */
    PE_DIAG_SCALING_MISSING = 3, /* the plan's scaling block not applied */
    PE_DIAG_SCALING_TYPE = 4,    /* linear/ntk/yarn/llama3 of another type or factor */
    PE_DIAG_YARN_TRUNCATE = 5,   /* YaRN's correction range truncated the other way */
    PE_DIAG_MAGNITUDE = 6,       /* A missing, applied twice, or another value */
    PE_DIAG_POSITION_OFFSET = 7, /* positions off by k, or restarted per chunk */
    PE_DIAG_FLOAT32_ANGLES = 8,  /* angle fl32(fl32(p) fl32(w)), cos/sin of that float */
    PE_DIAG_MROPE_AXES = 9,      /* M-RoPE: other section mode, a zeroed or swapped axis */
    PE_DIAG_HALF_PRECISION_TABLES = 10, /* A cos, A sin rounded to f16 or bf16 */
    PE_DIAG_PAIRS_UNROTATED = 11 /* pairs [a, b) left as they were (a slice rotated) */
} pe_diagnosis;
#define PE_DIAG_COUNT 12

/* "layout", "partial_rotary", "base", "scaling_missing", "scaling_type",
 * "yarn_truncate", "magnitude", "position_offset", "float32_angles",
 * "mrope_axes", "half_precision_tables", "pairs_unrotated"; "?" otherwise. */
const char *pe_diagnosis_name(pe_diagnosis diagnosis);

/* How a hypothesis forms its angles (docs/CHECK.md, "Float32 recipes", cites
 * each engine's source). EXACT: p w_j exactly. The others are float32
 * arithmetic: ROUNDED fl(fl(p) fl(w_j)) with the plan's w_j rounded once;
 * POWF w_j = 1/powf(b, 2j/d) (llama2.c, Hugging Face's default inv_freq);
 * EXPF w_j = expf(-(2j/d) logf(b)); GGML_RECURRENCE theta_0 = fl(p),
 * theta_{j+1} = theta_j * powf(b, -2/d) (ggml's CPU cache); GGML_POWF_SCALE
 * fl(p) powf(powf(b, -2/d), j) (ggml's CUDA kernel). Every float32 recipe
 * then takes cos/sin of the float angle (a frequency up to 4 ulps off its
 * recipe, fitted per pair, is still float32 arithmetic: an engine's libm or
 * float scaling blend). A scaled plan's per-pair factor
 * w_j / b^(-2j/d) is applied in float to the recipe's base frequencies. */
typedef enum {
    PE_ANGLES_EXACT = 0,
    PE_ANGLES_F32_ROUNDED = 1,
    PE_ANGLES_F32_POWF = 2,
    PE_ANGLES_F32_EXPF = 3,
    PE_ANGLES_F32_GGML_RECURRENCE = 4,
    PE_ANGLES_F32_GGML_POWF_SCALE = 5
} pe_check_angles;
#define PE_ANGLES_COUNT 6

/* "exact", "rounded_freqs", "powf", "expf", "ggml_recurrence",
 * "ggml_powf_scale"; "?" otherwise. */
const char *pe_check_angles_name(pe_check_angles angles);

/* The three verdicts: AGREE within the dtype's bound of the exact rotation;
 * FLOAT32 not, but within that bound of one float32 angle recipe alone (the
 * expected layout, no fault): the arithmetic of a correct float32 engine;
 * DISAGREE otherwise (a fault). */
typedef enum { PE_CHECK_AGREE = 0, PE_CHECK_FLOAT32 = 1, PE_CHECK_DISAGREE = 2 } pe_check_verdict;

/* "agree", "float32", "disagree"; "?" otherwise. */
const char *pe_check_verdict_name(pe_check_verdict verdict);

/* What the dump should be: the frequencies (rotary_dim = freqs.rotary_dim,
 * magnitude = freqs.attention_factor), the pair layout, and, when known,
 * the scaling parameters the frequencies came from (scaling_known: the
 * scaling_* and yarn_truncate hypotheses and a base refit keeping the
 * scaling) and M-RoPE sections (n_mrope_section 3, else 0). Plain value
 * type; scaling's list pointers must outlive the checks (a plan's do). */
typedef struct {
    pe_freqs freqs;
    pe_rope_layout layout;
    int scaling_known;
    pe_rope_scaling scaling;
    int64_t mrope_section[3];
    int64_t n_mrope_section;
    pe_mrope_mode mrope_mode;
    int64_t chunk_size; /* a plan's chunked-attention size (0: none): one restart tried */
} pe_check_expect;

/* The expectation of one plan layer at seq_len (>= 0; the largest position
 * + 1 is right for dynamic and longrope). PE_ERR_PARAM for a NoPE layer.
 * The plan must outlive the checks made with *out (its LongRoPE lists). */
int pe_check_expect_from_plan(const pe_plan *plan, int64_t layer, int64_t seq_len,
                              pe_check_expect *out);
/* The expectation of hand-made frequencies: rotary_dim and magnitude A are
 * freqs->rotary_dim and freqs->attention_factor; no scaling, no M-RoPE. */
int pe_check_expect_from_freqs(const pe_freqs *freqs, pe_rope_layout layout,
                               pe_check_expect *out);

#define PE_CHECK_POS_BINS 32
#define PE_CHECK_PAIR_BANDS 4

typedef struct {
    pe_diagnosis name;
    double residual;  /* RMS of (hypothesis - out) over the sampled rows */
    double max_err;   /* largest |hypothesis - out| there */
    char detail[160]; /* "interleaved instead of half-split", ... */
    pe_rope_layout layout;  /* the pairing the hypothesis rotates with */
    pe_check_angles angles; /* and how it forms its angles: a fault found on
        top of another layout or float32 arithmetic says so here (and in detail) */
} pe_check_diagnosis;

/*
 * The verdict. agree = max_abs_err <= bound, where bound is what a correct
 * engine may miss the exact rotation of its inputs by, taken at the
 * largest magnitudes of the dump (so it bounds every element):
 *   f32 out   4 * 2^-24 (max|x'| + A (max|x| + 2 max|y|)): the plain f32
 *             rotation fma(x, fl(A cos), -fl(y fl(A sin))) of exact angles
 *             is within 1 x that (pe_rope_apply); 4x leaves room for f32
 *             cos/sin of 1-2 ulps and other operation orders.
 *   f16/bf16  half an ulp of the largest stored |out| in that type, plus
 *             the f32 bound: the f32 result rounded once to nearest.
 *   both      plus 4 x 2^-149, the f32 subnormal spacing: near zero the
 *             rounding error is absolute, not relative (a correctly rounded
 *             rotation of ~1e-42 inputs misses by up to 2^-150).
 * Float32 angles at p >= 1e5 miss by ~1e-3 |x|, far outside either f32
 * bound. Cos/sin caches are checked as the rotation of (1, 0) per pair:
 * entries A cos, A sin. Errors are grouped by position bin (bins of equal
 * position width between the smallest and largest position) and pair band
 * (n_bands equal ranges of the d/2 pairs); pred holds the best diagnosis's
 * |hypothesis - expected| over the sampled rows in the same cells (its
 * prediction of the error), 0 when the dump agrees. Bins are exact integer
 * ranges at any int64 positions. verdict: see pe_check_verdict (agree is
 * verdict == PE_CHECK_AGREE); float32_angles: the recipe that explains a
 * FLOAT32 verdict. When the dump does not agree, hypotheses are searched
 * first one at a time, then, when none explains the dump, as combinations
 * (either layout x one fault x each angle recipe); explained: 0 when the
 * dump does not agree and no diagnosis reproduces the sampled rows within
 * bound (the best's max_err): no hypothesis explains the dump; else 1.
 */
typedef struct {
    int agree;
    double max_abs_err, bound, rms_err;
    int64_t first_token, first_head, first_pair; /* first element past bound in
        (token, head, element) order; pair -1 for an element outside the
        rotated slice; all -1 when the dump agrees */
    int64_t first_element;
    int64_t n_bins, n_bands;
    int64_t bin_lo[PE_CHECK_POS_BINS], bin_hi[PE_CHECK_POS_BINS]; /* positions */
    int64_t band_lo[PE_CHECK_PAIR_BANDS], band_hi[PE_CHECK_PAIR_BANDS]; /* pairs, hi exclusive */
    double err[PE_CHECK_POS_BINS][PE_CHECK_PAIR_BANDS];  /* max |out - expected| */
    double pred[PE_CHECK_POS_BINS][PE_CHECK_PAIR_BANDS]; /* best diagnosis's */
    double pair_err[PE_MAX_PAIRS]; /* max error per pair, d/2 entries */
    int n_diagnoses; /* 0 when the dump agrees; otherwise best first */
    pe_check_diagnosis diagnoses[PE_DIAG_COUNT];
    pe_check_verdict verdict;
    pe_check_angles float32_angles; /* PE_ANGLES_EXACT unless verdict FLOAT32 */
    int explained;
} pe_check_report;

/*
 * Check a rotation dump: in, out (tokens, heads, head_dim) views of equal
 * shape, f32, f16 or bf16 (each its own type), finite; token t at
 * positions (count in->tokens). mrope_positions: (tokens, 3) {t, h, w}
 * rows for an M-RoPE expectation, or NULL (text tokens, t = h = w = p).
 * rotary_dim <= head_dim. At most 512 tokens and 8 heads, evenly spread,
 * are sampled to fit the hypotheses; the verdict reads every element.
 */
int pe_check_rotation(const pe_check_expect *expect, const pe_positions *positions,
                      const int64_t *mrope_positions, const pe_tensor *in,
                      const pe_tensor *out, pe_check_report *report);

/* Check a cos/sin cache: (count, width) row-major, f32, f64, f16 or bf16,
 * row t = [A cos(p_t w_0) .. A cos(p_t w_{d/2-1}), A sin(...) ...], width =
 * rotary_dim. The layout and partial_rotary hypotheses do not apply. */
int pe_check_cos_sin(const pe_check_expect *expect, const pe_positions *positions,
                     const int64_t *mrope_positions, int64_t count, const void *cache,
                     pe_dtype dtype, int64_t width, pe_check_report *report);

/* ------------------------------------------------------- biases (bias.c) */

/*
 * Attention biases (SPEC §3): added to the logits; q and k are untouched.
 * Every fill writes out (heads, n_q, n_k) row-major, and head h's slice
 * out + h * n_q * n_k is a pe_attention_params.bias as it stands. Query i
 * sits at key position i' = i + n_k - n_q, pe_attention's convention (the
 * queries are the last n_q keys; with n_q == n_k query i is key i).
 */

/* ALiBi slopes, h < heads, c = 2^floor(log2 heads):
 *   m_h = 2^(-8(h+1)/c)          for h < c
 *   m_h = 2^(-4(2(h-c)+1)/c)     for c <= h < heads
 * which is Press et al.'s get_slopes (and BLOOM's build_alibi_tensor) for
 * every head count. slopes: (heads,), each the correctly rounded double
 * (exact powers of two when c <= 8); all lie in [2^-8, 1). */
int pe_alibi_slopes(int64_t heads, double *slopes);

typedef enum {
    PE_ALIBI_SYMMETRIC = 0, /* -m_h |i' - j| for every key */
    PE_ALIBI_CAUSAL = 1     /* -m_h (i' - j) for j <= i', -INFINITY for j > i' */
} pe_alibi_mode;

/* out: (heads, n_q, n_k), f32 or f64 (rounded once from the exact double
 * product). Causal needs n_q <= n_k, as pe_attention does. heads >= 1,
 * n_q, n_k >= 0 (an empty matrix writes nothing). */
int pe_alibi_bias(int64_t heads, int64_t n_q, int64_t n_k, pe_alibi_mode mode,
                  void *out, pe_dtype dtype);

/*
 * T5 relative-position bucket of r = key - query (Raffel et al.; HF
 * T5Attention._relative_position_bucket). bidirectional (1): nb =
 * num_buckets/2, offset nb when r > 0, n = |r|; causal (0): nb = num_buckets,
 * offset 0, n = max(-r, 0). With e = nb/2 (integer division):
 *   bucket = offset + n                                        if n < e
 *   bucket = offset + min(nb-1, e + floor(ln(n/e)/ln(max_distance/e) (nb-e)))
 * evaluated exactly: n on a logarithm boundary (e.g. r = +-16, 32, 64 for
 * 32/128) gets the upper bucket, as the real-number formula says.
 * Errors: bidirectional not 0 or 1; num_buckets odd or < 4 (bidirectional)
 * or < 2 (causal); max_distance <= e.
 */
int pe_t5_bucket(int64_t relative_position, int bidirectional,
                 int64_t num_buckets, int64_t max_distance, int64_t *bucket);
/* buckets: (count,), buckets[k] = bucket of r = r_start + k. */
int pe_t5_buckets(int64_t r_start, int64_t count, int bidirectional,
                  int64_t num_buckets, int64_t max_distance, int64_t *buckets);

/* Layout of a per-head bucket table. */
typedef enum {
    PE_T5_TABLE_HEAD_MAJOR = 0,  /* (heads, num_buckets) */
    PE_T5_TABLE_BUCKET_MAJOR = 1 /* (num_buckets, heads): the layout of HF's
                                    relative_attention_bias.weight */
} pe_t5_table_layout;

/* out (heads, n_q, n_k) f32: out[h][i][j] = table value of head h at the
 * bucket of r = j - i' (i' = i + n_k - n_q). No mask: pass causal = 1 to
 * pe_attention for a decoder. heads >= 1, n_q, n_k >= 0. */
int pe_t5_bias(const float *table, pe_t5_table_layout layout, int64_t heads,
               int bidirectional, int64_t num_buckets, int64_t max_distance,
               int64_t n_q, int64_t n_k, float *out);

/* -------------------------------------------------- analyses (analysis.c) */

/*
 * The analyses of the design notes (SPEC §5): pure computations, no I/O. All
 * in double; matrices row-major; Q and K act as q = Q x (dim x dim).
 */

/* The four terms of an additive scheme's logit (Q(e_m + p_m))^T K(e_n + p_n):
 * content-content, content-position, position-content, position-position. */
typedef struct {
    double content_content;     /* (Q e_m)^T K e_n */
    double content_position;    /* (Q e_m)^T K p_n */
    double position_content;    /* (Q p_m)^T K e_n */
    double position_position;   /* (Q p_m)^T K p_n */
    double logit;               /* (Q x_m)^T K x_n, computed directly */
} pe_logit_terms;

int pe_logit_terms_compute(int64_t dim, const double *Q, const double *K,
                           const double *e_m, const double *e_n,
                           const double *p_m, const double *p_n,
                           pe_logit_terms *out);

/* The toy design p_m = m * 1: which of the seeds' four regimes holds. */
typedef enum {
    PE_TOY_CONTENT_ONLY = 1, /* i)   Q1 ~ 0 and K1 ~ 0: positions vanish */
    PE_TOY_KEY_DRIFT = 2,    /* ii)  Q1 ~ 0, K1 not: logits drift linearly in n */
    PE_TOY_QUERY_SCALE = 3,  /* iii) K1 ~ 0, Q1 not: m (Q1)^T K e_n grows with m */
    PE_TOY_QUADRATIC = 4     /* iv)  neither: the m n (Q1)^T K 1 term dominates */
} pe_toy_regime;

typedef struct {
    double q_ones_norm, k_ones_norm; /* |Q 1|, |K 1| */
    pe_toy_regime regime;            /* "~ 0" means norm <= tol */
    double slope;        /* (Q e_m)^T K 1: drift of the logit per key position */
    double quadratic;    /* (Q 1)^T K 1 */
    double effective_slope; /* slope + m quadratic: the drift at query m */
    double content_min, content_max; /* of (Q e_m)^T K e_n over the keys */
    double drift;        /* |effective_slope| (max n - min n) */
    int end_skew;        /* drift > content_max - content_min: the sufficient condition */
    int skew_to_end;     /* effective_slope > 0: later keys win (else earlier) */
} pe_toy_report;

/* keys: (n_keys, dim) token embeddings e_n at positions key_pos[n]; the query
 * is e_m at position m. tol >= 0 decides "~ 0". */
int pe_toy_analyze(int64_t dim, const double *Q, const double *K,
                   const double *e_m, int64_t m, const double *keys,
                   const int64_t *key_pos, int64_t n_keys, double tol,
                   pe_toy_report *out);

/* Normalized encoding's inconsistency: position p's value p/(L-1) and the
 * spacing 1/(L-1) between neighbours, for each length L (p < L required;
 * L = 1 gives 0 and 0). values, spacing: (n,). */
int pe_normalized_inconsistency(int64_t position, const int64_t *lengths,
                                int64_t n, double *values, double *spacing);

/* Binary encoding's discontinuities: Hamming distance between the codes of
 * p and p+1 for p in [start, start+count) (distances: (count,), nullable).
 * Reports min, max, mean and the first p where the maximum occurs. */
typedef struct {
    int64_t min_distance, max_distance, argmax;
    double mean_distance;
    int64_t jumps; /* how many p have distance > 1 */
} pe_hamming_report;

int pe_binary_hamming(int64_t start, int64_t count, int64_t *distances,
                      pe_hamming_report *out);

/* Per pair of a pe_freqs: wavelength 2pi/w' (tokens per full turn; +inf for
 * w' = 0), flip distance pi/w' (half a turn: the pair points opposite its
 * start, cos = -1; its term cos(k w') is already negative from pi/(2 w')), and at offset k the
 * phase k w' mod 2pi in [0, 2pi) and the number of full turns k w'/(2pi) (> 1:
 * the pair has aliased). Each output nullable, (rotary_dim/2,). */
int pe_pair_periods(const pe_freqs *freqs, int64_t offset, double *wavelength,
                    double *flip, double *phase, double *turns);

/* Near-collisions: the `top` offsets k in [min_offset, max_offset] at which
 * the encoding moved least, |PE(p+k) - PE(p)| = sqrt(sum_i 2 - 2 cos(k w'_i))
 * for unit pairs (independent of p), sorted by distance. Writes min(top,
 * available) entries; *found says how many. */
int pe_near_collisions(const pe_freqs *freqs, int64_t min_offset,
                       int64_t max_offset, int64_t top, int64_t *offsets,
                       double *distances, int64_t *found);

/* RoPE score <R(m) q, R(m + k) k_vec> for each offset k (q, k_vec: (head_dim,)
 * f64, layout, freqs with rotary_dim <= head_dim), rotated in double. The
 * result depends on k only (relativity); score(+k) - score(-k) is RoPE's
 * direction awareness. scores: (n,). */
int pe_rope_score_curve(const pe_freqs *freqs, pe_rope_layout layout,
                        int64_t head_dim, const double *q, const double *k_vec,
                        int64_t m, const int64_t *offsets, int64_t n,
                        double *scores);

/* Similarity matrices over positions (count, count), row-major f64:
 * additive: PE(p_i) . PE(p_j); RoPE: <R(p_i) q, R(p_j) k>. */
int pe_similarity_additive(const pe_additive_params *params,
                           const pe_positions *positions, int64_t count,
                           double *out);
int pe_similarity_rope(const pe_freqs *freqs, pe_rope_layout layout,
                       int64_t head_dim, const double *q, const double *k_vec,
                       const pe_positions *positions, int64_t count, double *out);

/* Permutation equivariance, the bag-of-words check: y = f(x) and y_perm =
 * f(P x), (rows, cols) f32 row-major, where row t of P x is row perm[t] of
 * x. *gap = max over t, e of |y_perm[t, e] - y[perm[t], e]| (in double). A
 * gap of 0 up to rounding says f only reordered its outputs as its inputs
 * were reordered (attention without positions); positions make it large.
 * perm: (rows,) entries in [0, rows). */
int pe_permutation_gap(const float *y, const float *y_perm, const int64_t *perm,
                       int64_t rows, int64_t cols, double *gap);

/* The projection onto Q 1 = 0, in place: each row of the (rows, cols)
 * row-major matrix m minus its mean (sum of the row / cols), so every row
 * sums to 0 up to rounding. The toy design's regime ii (pe_toy_analyze)
 * is a Q so centred. */
int pe_zero_row_sums(double *m, int64_t rows, int64_t cols);

/* out = softmax(x), (n,) f64: exp(x_i - max x) / sum_j exp(x_j - max x),
 * so no entry overflows. -inf entries get weight 0 (masked); all -inf gives
 * all zeros; NaN and +inf are refused. out may be x (in place) but must not
 * otherwise overlap it. */
int pe_softmax(const double *x, int64_t n, double *out);

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
 * <f4 <f8 <f2 <i8; C order only; headers up to 1 MiB). Truncated, oversized,
 * lying or overflowing headers are PE_ERR_FORMAT, never an over-read.
 * pe_npy_read reads a file or stream only as far as its header says: an
 * endless device or a longer stream is refused, not read into memory. */
int pe_npy_parse(const void *buf, size_t len, pe_npy_array *out);
int pe_npy_read(const char *path, pe_npy_array *out);
/* Write a C-order array (native little-endian); version 1.0 header unless the
 * header needs 2.0. A regular file is written under a temporary name next to
 * path and renamed over it when complete (keeping the replaced file's mode,
 * 0644 for a new one), so path never holds half an array; devices, pipes
 * and symlinks are written in place. */
int pe_npy_write(const char *path, pe_dtype dtype, int ndim,
                 const int64_t *shape, const void *data);
/* The same bytes to an open stream (a pe_output's, a pipe): the caller
 * owns where they go. PE_ERR_IO "error writing the stream" when a write
 * fails; nothing is written when the arguments are refused. */
int pe_npy_write_stream(FILE *f, pe_dtype dtype, int ndim,
                        const int64_t *shape, const void *data);
void pe_npy_free(pe_npy_array *array);

/* ------------------------------------------------------- safetensors I/O */

/*
 * safetensors files (Hugging Face): an 8-byte little-endian header length N,
 * N bytes of JSON {"name": {"dtype": "F32", "shape": [r, c], "data_offsets":
 * [begin, end]}, ..., "__metadata__": {"key": "value"}}, then the data
 * section, which the tensors' [begin, end) ranges tile exactly (no gap, no
 * overlap). Every standard dtype string is understood for its size (BOOL U8
 * I8 F8_E5M2 F8_E4M3 I16 U16 F16 BF16 I32 U32 F32 F64 I64 U64); F32 F64 F16
 * BF16 I64 also map to a pe_dtype. Reading checks every offset, shape and byte
 * count against the file before touching data: a truncated, overflowing or
 * lying header is PE_ERR_FORMAT (an unknown dtype PE_ERR_DTYPE) naming the
 * tensor and the value, never an over-read.
 */
#define PE_ST_MAX_DIMS 8

/* One tensor, as read (pointers into the pe_safetensors that returned it,
 * valid until pe_safetensors_free) or as given to pe_safetensors_write. */
typedef struct {
    const char *name;  /* NUL-terminated */
    char st_dtype[12]; /* the file's dtype string, "F32", "BF16", "I32", ... */
    pe_dtype dtype;    /* valid when dtype_known */
    int dtype_known;   /* st_dtype is F32, F64, F16, BF16 or I64 */
    int ndim;          /* 0 (a scalar) .. PE_ST_MAX_DIMS */
    int64_t shape[PE_ST_MAX_DIMS];
    const void *data;  /* nbytes little-endian bytes; no alignment promise
                          (the format has none): memcpy out, or check */
    size_t nbytes;     /* product(shape) * element size */
} pe_st_tensor;

/* A parsed file: the tensors, the metadata and one copy of the data. */
typedef struct pe_safetensors pe_safetensors;

/* Parse a complete file image from memory (the data section is copied: buf
 * may be freed afterwards). */
int pe_safetensors_parse(const void *buf, size_t len, pe_safetensors **out);
/* Read a file (PE_ERR_IO if it cannot be read; the parser's errors, prefixed
 * with the path). The header is checked against the file size before the
 * data is allocated. */
int pe_safetensors_read(const char *path, pe_safetensors **out);
void pe_safetensors_free(pe_safetensors *st);

/* Tensors in the order of their data offsets. */
int64_t pe_safetensors_count(const pe_safetensors *st);
/* Tensor index (0 <= index < count; PE_ERR_RANGE otherwise). */
int pe_safetensors_get(const pe_safetensors *st, int64_t index, pe_st_tensor *out);
/* Tensor by exact name; PE_ERR_PARAM naming it when the file has none. */
int pe_safetensors_find(const pe_safetensors *st, const char *name,
                        pe_st_tensor *out);
/* __metadata__ entries (string to string), in file order. */
int64_t pe_safetensors_metadata_count(const pe_safetensors *st);
int pe_safetensors_metadata_at(const pe_safetensors *st, int64_t index,
                               const char **key, const char **value);
/* The value of a metadata key, NULL when absent. */
const char *pe_safetensors_metadata_get(const pe_safetensors *st, const char *key);

/*
 * Write count tensors to path. Each needs name (unique, non-empty), ndim,
 * shape, data and nbytes equal to product(shape) * element size; its dtype is
 * st_dtype when that is non-empty (any standard string above), else dtype
 * (F32, F64, F16, BF16 or I64). metadata: NULL, or key, value, key, value,
 * ..., NULL. Tensors are laid out largest element size first so that every
 * tensor sits aligned to its element size; the header is padded to 8 bytes.
 * Everything is validated before the file is created. A regular file (or a
 * new one) is written to a temporary file in path's directory, synced, and
 * renamed over path only when complete, so path never holds a partial file
 * (the replaced file's mode, 0644 for a new one); devices, pipes and
 * symlinks are written in place, as pe_npy_write does.
 */
int pe_safetensors_write(const char *path, const pe_st_tensor *tensors,
                         int64_t count, const char *const *metadata);
/* The same bytes to an open stream (see pe_npy_write_stream). */
int pe_safetensors_write_stream(FILE *f, const pe_st_tensor *tensors,
                                int64_t count, const char *const *metadata);

/* ------------------------------------------------------------ output files */

/*
 * How every file is written (pe_npy_write, pe_safetensors_write,
 * pe_learned_save, and each file the posenc CLI writes). pe_output_open
 * creates a temporary file in path's directory named
 * ".NAME.posenc-tmp-PID-XXXXXX" (NAME: path's last component, cut to 200
 * bytes; PID: the writer's process id) with the mode of the file it will
 * replace (0644 for a new one), and first removes the temporaries of the
 * same target left by processes that no longer exist (a crash). The caller
 * writes to pe_output_stream(o). pe_output_close(o, PE_OK) flushes, fsyncs
 * and renames the temporary over path; with any other status, or when a
 * write, the flush or the sync failed (a full disk), it removes the
 * temporary and path keeps the old file untouched. Either way o is freed.
 * Devices, pipes, symlinks (anything but a regular file) are written in
 * place: renaming would replace the node itself; pe_output_temp_path is
 * then NULL. The library installs no signal handler: a program that must
 * not leave the temporary behind when SIGINT/SIGTERM kills it unlinks
 * pe_output_temp_path(o) from its own handler (the posenc CLI does).
 * Errors: PE_ERR_NULL, PE_ERR_NOMEM, PE_ERR_IO ("cannot create <path>",
 * "error writing <path>", "cannot rename <tmp> to <path>") with strerror.
 */
typedef struct pe_output pe_output;
int pe_output_open(const char *path, pe_output **out);
FILE *pe_output_stream(const pe_output *o);
/* The temporary's name, valid until pe_output_close; NULL in place. */
const char *pe_output_temp_path(const pe_output *o);
/* status: PE_OK to put the file in place, an error status to discard it
 * (returned unchanged). Returns the final status. */
int pe_output_close(pe_output *o, int status);

/*
 * Checkpoint q/k layout conversion. A q or k projection (weight (rows, cols)
 * or bias (rows,)) stacks its heads: rows = heads * head_dim, head h owning
 * rows [h head_dim, (h + 1) head_dim). Rotating q = W x in one pair layout
 * gives the same attention scores as rotating q' = W' x in the other when W'
 * holds W's rows permuted within every head by pe_rope_layout_permutation:
 *   to HALF         W'[h D + perm[j]] = W[h D + j]   (Meta -> Hugging Face,
 *                   the permute() of convert_llama_weights_to_hf.py)
 *   to INTERLEAVED  W'[h D + j] = W[h D + perm[j]]   (its inverse)
 * for j < rotary_dim; rows [rotary_dim, head_dim) of each head stay put.
 * in, out: (rows, row_bytes) bytes, any element type (a row is moved whole);
 * rows must be a multiple of head_dim. out must not overlap in.
 */
int pe_qk_permute_rows(const void *in, void *out, int64_t rows, size_t row_bytes,
                       int64_t head_dim, int64_t rotary_dim, pe_rope_layout to);

/* ------------------------------------------------------------------ kernels */

/*
 * Kernel sets: "scalar" (plain C, the reference, always built), "avx2"
 * (AVX2 + FMA + F16C) and "avx512" (AVX-512 F/BW/VL/DQ), those two on
 * x86-64 only, and "neon" (AArch64 only, where it is baseline). The first
 * library call picks the widest set the CPU and the OS support, or the one
 * the environment variable PE_ISA names (scalar|avx2|avx512|neon) if it is
 * usable. The vector sets give bit-identical rotations. Every set gives the same results
 * within the bounds documented at pe_rope_apply and pe_rope_cos_sin;
 * scatter-adds are bit-identical.
 */
/* Name of the active kernel set ("scalar", "avx2", "avx512", "neon"). */
const char *pe_kernels_name(void);
/* 1 if this build and this CPU/OS can run the named set, else 0. */
int pe_kernels_supported(const char *name);
/* Make the named set active for every later call in the process ("auto":
 * the automatic choice again, PE_ISA included). PE_ERR_PARAM for an
 * unknown name, PE_ERR_UNSUPPORTED if the CPU or OS lacks the set. Meant
 * for tests and benchmarks: calls already running finish with the set
 * they started with. */
int pe_kernels_select(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* POSENC_H */
