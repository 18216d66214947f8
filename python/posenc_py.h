/*
 * posenc_py.h — what the binding's files share (posenc_py.c, and the
 * Freqs type of py_freqs.c): array arguments through the
 * buffer protocol, outputs allocated by numpy, positions, enums by name, and
 * the mapping of pe_status to Python exceptions. The binding is thin: it
 * checks what Python callers get wrong (dtype, contiguity, shape), hands the
 * buffers to the library without copying, and formats results. No math.
 */
#ifndef POSENC_PY_H
#define POSENC_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "posenc.h"

#define PYA_MAX_DIMS 8

/* dtype masks for pya_get: which storage types an argument accepts. */
#define PYA_F32 (1u << PE_F32)
#define PYA_F64 (1u << PE_F64)
#define PYA_F16 (1u << PE_F16)
#define PYA_BF16 (1u << PE_BF16)
#define PYA_I64 (1u << PE_I64)
#define PYA_I8 (1u << PE_I8)
#define PYA_FLOATS (PYA_F32 | PYA_F16 | PYA_BF16)

/* Contiguity an argument must have. */
enum { PYA_CONTIG = 0, PYA_ROWS = 1 /* last axis contiguous, any outer strides */ };

/* An array argument: a buffer view held until pya_release. */
typedef struct {
    Py_buffer view; /* view.obj == NULL when unused */
    PyObject *obj;  /* the argument (borrowed), for numpy.shares_memory */
    pe_dtype dtype;
    int ndim;
    int64_t shape[PYA_MAX_DIMS];
    int64_t strides[PYA_MAX_DIMS]; /* in elements */
    int64_t size;                  /* number of elements */
    int dlpack;                    /* taken through DLPack (a torch tensor) */
} pya;

/*
 * Get obj's buffer as `name`: dtype in `accept`, `writable` if asked, the
 * contiguity asked for, ndim in [min_ndim, max_ndim]. A tensor without the
 * buffer protocol but with __dlpack__ (torch, CPU only) is taken through
 * DLPack (py_dlpack.c), no copy; a->obj is then the buffer wrapper. Raises TypeError
 * (dtype, not a buffer) or ValueError (contiguity, ndim, read-only) naming
 * the argument, and returns -1; 0 on success.
 */
int pya_get(PyObject *obj, const char *name, unsigned accept, int writable, int contig,
            int min_ndim, int max_ndim, pya *a);
void pya_release(pya *a);
/* ValueError unless a's shape is exactly shape[ndim]. */
int pya_check_shape(const pya *a, const char *name, int ndim, const int64_t *shape);

/*
 * The output argument: out_arg (None -> a new numpy array) of dtype and
 * shape, C-contiguous and writable, not overlapping any of the inputs
 * (except `same`, which it may equal exactly: in place). *result gets a new
 * reference to the array returned to the caller.
 */
int pya_out(PyObject *out_arg, const char *name, pe_dtype dtype, int ndim, const int64_t *shape,
            pya *a, PyObject **result);
/* Do two arrays share memory? Exact (numpy.shares_memory) when their
 * bounds overlap, so disjoint slices of one fused buffer pass; 1 when it
 * cannot be decided. */
int pya_overlap(const pya *a, const pya *b);
/* A new zero-filled numpy array (for accumulators). */
PyObject *pya_zeros(pe_dtype dtype, int ndim, const int64_t *shape);

/* Storage type from a dtype-like argument ("float32", numpy.float64, ...). */
int py_dtype_arg(PyObject *obj, const char *name, unsigned accept, pe_dtype *out);
const char *py_numpy_dtype_name(pe_dtype dtype);

/* Positions: None (start + t), a range with step 1, or integers (any
 * integer dtype, converted to int64 once). count < 0: take the length from
 * the positions (required then). */
typedef struct {
    pe_positions pos;
    int64_t count;
    PyObject *owner; /* keeps the int64 array alive */
    pya arr;
} pypos;

int pypos_get(PyObject *positions, int64_t start, int64_t count, const char *name, pypos *p);
void pypos_release(pypos *p);
/* Integers as a contiguous int64 array (any integer dtype accepted). */
int py_int64_array(PyObject *obj, const char *name, int min_ndim, int max_ndim, PyObject **owner,
                   pya *a);
/* Floats as a contiguous float64 array (a copy only when needed). */
int py_f64_array(PyObject *obj, const char *name, int min_ndim, int max_ndim, PyObject **owner,
                 pya *a);

/* "interleaved"/"half", "forward"/"inverse"/"backward", ... -> enum value,
 * ValueError naming the argument and the choices otherwise. */
int py_choice(const char *value, const char *name, const char *const *choices, int *out);
int py_layout(const char *value, pe_rope_layout *out);

/* Set the exception for a failed library call and return NULL. */
PyObject *py_raise(int status);

/* Release the GIL around a library call when the work is large enough for
 * another Python thread to make progress meanwhile. */
#define PY_GIL_THRESHOLD 16384
#define PY_CALL(work, stmt)                                                   \
    do {                                                                      \
        if ((work) >= PY_GIL_THRESHOLD) {                                     \
            Py_BEGIN_ALLOW_THREADS stmt;                                      \
            Py_END_ALLOW_THREADS                                              \
        } else {                                                              \
            stmt;                                                             \
        }                                                                     \
    } while (0)

/* A read-write byte owner exported through the buffer protocol with a
 * dtype and shape: numpy arrays over library-allocated memory without a
 * copy (npy and safetensors reads). free_fn(ctx) runs when the last view
 * goes; base (nullable) is kept alive instead when the memory is shared. */
PyObject *pybuf_new(void *data, pe_dtype dtype, const char *format, size_t itemsize, int ndim,
                    const int64_t *shape, void (*free_fn)(void *), void *ctx, PyObject *base);
/* numpy.asarray(obj) (steals the reference to obj). */
PyObject *py_asarray(PyObject *obj);

/* DLPack (py_dlpack.c): is obj a tensor to take through __dlpack__ (no
 * buffer protocol, a __dlpack__ method)? Its memory as a new object that
 * exports it through the buffer protocol (NULL with TypeError naming `name`
 * for a non-CPU tensor or an unusable dtype). */
int py_dlpack_is_tensor(PyObject *obj);
PyObject *py_dlpack_view(PyObject *obj, const char *name);

/* The Freqs type (py_freqs.c). */
extern PyTypeObject PyFreqs_Type;
typedef struct {
    PyObject_HEAD
    pe_freqs *f;
    PyObject *interp; /* float64 array or None */
} PyFreqs;
/* Borrow the pe_freqs of a Freqs argument (TypeError otherwise). */
const pe_freqs *py_freqs_arg(PyObject *obj, const char *name);
PyObject *py_freqs_wrap(const pe_freqs *f, PyObject *interp);
/* Every parameter scheme s->type reads, by its freqs_from_scaling keyword
 * (the library's scheme table), into dict d; -1 with an exception set. */
int py_scaling_params_into(PyObject *d, const pe_rope_scaling *s);

/* The exceptions (posenc.Error and its subclasses) and the _Buffer type,
 * added to the module m by PyInit_posenc before any area; 0 or -1. */
int py_init_shared(PyObject *m);

/* ------------------------------------------------ batch axes (py_batch.c) */

/* threads= of every rotating call (py_pool.c): an int, or a posenc.Pool
 * (borrowed from the call's arguments, alive for the call). An
 * O& converter: PyArg "O&" with py_threads_conv, &t. */
typedef struct {
    int threads;
    pe_pool *pool;
} py_threads;
#define PY_THREADS_ONE {1, NULL}
int py_threads_conv(PyObject *o, void *out);

/* "forward"/"inverse"/"backward" as direction=, and pe_rope_options with
 * `threads` (every rotation call's). */
extern const char *const py_directions[];
int py_direction(const char *value, pe_rope_direction *out);
pe_rope_options py_rope_opts(py_threads threads);
/* numpy.ndim(o), -1 when o is not array-like (no exception left set). */
long py_ndim(PyObject *o);

/* token_axis as given (None: 0 for 2 or 3 dimensions, required beyond). */
int pyb_token_axis(PyObject *o, const char *xname, int ndim, int *tok);
/*
 * x (float32/float16/bfloat16, last axis contiguous, 2 to max_ndim
 * dimensions) and out: None (a new array; with batch axes numpy.empty_like,
 * keeping x's axis order), x itself (in place) or an array of x's shape and
 * dtype that does not overlap x. *tok: the token axis. On success the caller
 * releases x and out and owns *result.
 */
int pyb_inout(PyObject *x_o, PyObject *out_o, PyObject *axis_o, int max_ndim, const char *xname,
              const char *outname, pya *x, pya *out, PyObject **result, int *tok);
/* pyb_inout, then x and out as (tokens, heads, D) views with every axis
 * before head_dim except the token axis folded into heads (PYB_FOLD_HEADS)
 * or the axes before the token axis into tokens (PYB_FOLD_TOKENS: *repeat
 * tells how many times one element's positions repeat); how_only < 0: the
 * first that fits the strides. */
enum { PYB_FOLD_HEADS = 0, PYB_FOLD_TOKENS = 1 };
int pyb_views(PyObject *x_o, PyObject *out_o, PyObject *axis_o, int max_ndim, int how_only, const char *xname,
              const char *outname, pya *x, pya *out, PyObject **result, pe_tensor *tin, pe_tensor *tout,
              int64_t *repeat);
/* ids (or start + t when ids is NULL) of per_batch tokens, repeated:
 * PyMem int64 the caller frees, or NULL with MemoryError. */
int64_t *pyb_tile(const int64_t *ids, int64_t start, int64_t per_batch, int64_t repeat);

/* A tensor argument as batch element 0's (tokens, heads, D) view and the
 * element stride of its batch axis: (tokens, D), (tokens, heads, D) or
 * (heads, tokens, D) by token axis (batch 1), or (batch, tokens, heads, D)
 * / (batch, heads, tokens, D) with token axis 1 / 2. t.data NULL: unused. */
#define PYB_MAX_VIEWS 8
typedef struct {
    pe_tensor t;
    int64_t batch, bstride;
} pyb_view;
int pyb_view_of(const pya *a, int tok, pyb_view *v);
pe_tensor pyb_at(const pyb_view *v, int64_t b);
/* ValueError naming both unless a and b have the same batch size. */
int pyb_same_batch(const pyb_view *a, const char *aname, const pyb_view *b, const char *bname);
/* ValueError naming the view when an output's (batch, tokens, heads) rows
 * may share a byte: a batch stride of 0, or windows of one cache that
 * overlap. Rotating one row once per element that holds it is not "in
 * place". The rows must nest (py_batch.c); views with data NULL are skipped. */
int pyb_outputs_apart(const pyb_view *v, int n, const char *const *names);

/* x and out of a rotation as batch views (pyb_inout, up to 4 dimensions). */
typedef struct {
    pya x, out;
    PyObject *result; /* owned by the caller after pyb_io_get */
    pyb_view in, outv;
} pyb_io;
int pyb_io_get(PyObject *x_o, PyObject *out_o, PyObject *axis_o, const char *xname, const char *outname,
               pyb_io *io);
void pyb_io_release(pyb_io *io);

/* The Python position arguments of a call (NULL or None: not given). */
typedef struct {
    PyObject *positions, *offsets, *cu_seqlens, *seq_starts;
    long long start;
    const char *batch_shape; /* what has the batch axis, for messages; NULL: x */
    PyObject *delta;         /* rope_shift's delta in place of positions (NULL: none) */
} pyb_args;
#define PYB_ARGS_NONE {Py_None, Py_None, Py_None, Py_None, 0, NULL, NULL}

/* Positions of each batch element: start + t or offsets[b] + t (RANGE),
 * positions (tokens[, width]) for all or (batch, tokens[, width]) per
 * element (LIST), cu_seqlens (n + 1,) / (batch, n + 1) with seq_starts (n,)
 * / (batch, n) (VARLEN). rope_shift's delta is read the same way (fixed:
 * a RANGE is one value for every token, start or offsets[b], not + t): an
 * int (RANGE), (tokens,) or (batch, tokens) (LIST), (batch, 1) (RANGE,
 * offsets). */
enum { PYB_RANGE = 0, PYB_LIST = 1, PYB_VARLEN = 2 };
typedef struct {
    int kind, per_batch, fixed;
    int64_t batch, tokens, width, start;
    const int64_t *offsets;
    const int64_t *ids;
    int64_t ids_step;
    const int64_t *cu, *starts;
    int64_t cu_step, starts_step, n_seqs;
    pypos plain;
    int has_plain;
    PyObject *own[3];
    pya arr[3];
    const char *arr_name[3];
} pyb_pos;
/* batched: x has a batch axis (per-element arguments allowed); width: 1, or
 * 3 for M-RoPE's (t, h, w) rows (positions required). ValueError naming the
 * argument and the shape wanted. */
int pyb_pos_get(const pyb_args *a, int64_t batch, int batched, int64_t tokens, int width, pyb_pos *p);
void pyb_pos_release(pyb_pos *p);
pe_positions pyb_pos_at(const pyb_pos *p, int64_t b);
/* Every element's positions usable before the first call writes: ranges
 * fit int64, cu_seqlens rows well formed, and (rows >= 0) every position a
 * row of a table of `rows` rows. */
int pyb_pos_check(const pyb_pos *p, int64_t rows);

/*
 * Run fn on the n views of every batch element: once with the batch folded
 * into heads when every element takes the same positions and heads_fold
 * allows it (and every view's strides fold), else once with the batch
 * folded into tokens and each element's positions in turn (not for packed
 * sequences), else once per element on its strided views (fn sees the same
 * numbers either way: the library treats each row alone). Returns -1 with
 * a Python exception, else 0 with *status the library's.
 */
typedef int (*pyb_fn)(void *ctx, const pe_positions *pos, const pe_tensor *views);
int pyb_run(const pyb_view *v, int n, const pyb_pos *p, int heads_fold, pyb_fn fn, void *ctx, int64_t work,
            int *status);

/* A rotation source: freqs (rope_apply), freqs -> new_freqs (rope_rebase)
 * or a caller's table, applied by pyb_rotate to views (in, out) or by
 * pyb_rotate_qk to (q_in, q_out, k_in, k_out) (pyb_fn's). */
typedef struct {
    const pe_freqs *freqs, *new_freqs;
    const pe_rope_table *table;
    pe_rope_layout layout;
    pe_rope_direction direction;
    pe_rope_options opt;
    int shift; /* pe_rope_shift by freqs: the positions are deltas (pyb_args.delta) */
} pyb_source;
int pyb_rotate(void *ctx, const pe_positions *pos, const pe_tensor *v);
int pyb_rotate_qk(void *ctx, const pe_positions *pos, const pe_tensor *v);
/* freqs (NULL: none), layout and direction (NULL: forward) by name, threads. */
int pyb_source_init(pyb_source *c, PyObject *freqs_o, const char *layout, const char *direction,
                    py_threads threads);

/* A rotation call from its Python arguments, batched or not: x/out (n = 1;
 * names "x", "out") or q/q_out and k/k_out (n = 2, the batch sizes agree,
 * no output overlaps another input or output) as pyb_io, and their
 * positions (pyb_pos_get). pyb_rot_end checks the positions (rows: of a
 * table, or -1), runs fn on (in, out[, k_in, k_out]) through pyb_run and
 * returns out (or (q_out, k_out)), or NULL; it and pyb_rot_abort release
 * everything. */
typedef struct {
    pyb_io io[2];
    int n;
    pyb_pos pos;
} pyb_rot;
int pyb_rot_begin(pyb_rot *r, int n, PyObject *const *x_o, PyObject *const *out_o, const char *const *names,
                  PyObject *axis_o, const pyb_args *a, int width);
PyObject *pyb_rot_end(pyb_rot *r, int64_t rows, int heads_fold, pyb_fn fn, void *ctx);
void pyb_rot_abort(pyb_rot *r);

#endif
