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

/* The exceptions (posenc.Error and its subclasses) and the _Buffer type,
 * added to the module m by PyInit_posenc before any area; 0 or -1. */
int py_init_shared(PyObject *m);

/* x as a (tokens, heads, head_dim) view, (tokens, D) or (tokens, heads, D),
 * and out (None: new; x: in place; else same shape, not overlapping): the
 * views of rope_apply without batch axes (py_rope.c). On success the caller
 * releases x and out and owns *result. */
int py_rope_views(PyObject *x_o, PyObject *out_o, const char *xname, const char *outname, pya *x,
                  pya *out, PyObject **result, pe_tensor *tin, pe_tensor *tout);

#endif
