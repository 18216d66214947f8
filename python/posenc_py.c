/*
 * posenc_py.c — what every area of the binding uses (posenc_py.h):
 * exceptions and the mapping of pe_status to them, array arguments and
 * outputs, positions, enums by name, and the _Buffer type that exports
 * library memory to numpy. Below the py_*.c areas; module.c, which
 * registers the areas, sits above them. Nothing here calls an area.
 */
#include "posenc_py.h"

#include <string.h>

static PyObject *Error, *DtypeError, *FormatError, *FileError;

/* ------------------------------------------------------------ exceptions */

PyObject *py_raise(int status) {
    PyObject *type = status == PE_ERR_DTYPE    ? DtypeError
                     : status == PE_ERR_FORMAT ? FormatError
                     : status == PE_ERR_IO     ? FileError
                     : status == PE_ERR_NOMEM  ? PyExc_MemoryError
                                               : Error;
    PyObject *msg = PyUnicode_FromFormat("%s: %s", pe_strerror(status), pe_last_error());
    if (msg == NULL) return NULL;
    PyObject *exc = PyObject_CallOneArg(type, msg);
    Py_DECREF(msg);
    if (exc == NULL) return NULL;
    /* The status code, for callers that branch on it (pe_status values). */
    PyObject *code = PyLong_FromLong(status);
    if (code == NULL || PyObject_SetAttrString(exc, "status", code) != 0) PyErr_Clear();
    Py_XDECREF(code);
    PyErr_SetObject(type, exc);
    Py_DECREF(exc);
    return NULL;
}

/* ----------------------------------------------------------------- dtypes */

static const char *const dtype_names[] = {"float32", "float64", "float16", "uint16 (bfloat16)",
                                          "int64", "int8"};

const char *py_numpy_dtype_name(pe_dtype dtype) {
    switch (dtype) {
    case PE_F32: return "float32";
    case PE_F64: return "float64";
    case PE_F16: return "float16";
    case PE_BF16: return "uint16";
    case PE_I64: return "int64";
    case PE_I8: return "int8";
    }
    return "?";
}

/* The struct-module format of a buffer as a pe_dtype; -1 if none. */
static int format_dtype(const Py_buffer *v) {
    const char *f = v->format ? v->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    else if (*f == '>' || *f == '!') return -1; /* big-endian */
    if (f[0] == '\0' || f[1] != '\0') return -1;
    switch (f[0]) {
    case 'f': return v->itemsize == 4 ? PE_F32 : -1;
    case 'd': return v->itemsize == 8 ? PE_F64 : -1;
    case 'e': return v->itemsize == 2 ? PE_F16 : -1;
    case 'H': return v->itemsize == 2 ? PE_BF16 : -1; /* bfloat16 travels as uint16 */
    case 'q':
    case 'l': return v->itemsize == 8 ? PE_I64 : -1;
    case 'b': return v->itemsize == 1 ? PE_I8 : -1;
    }
    return -1;
}

/* numpy's name for a buffer's element type, for error messages. */
static const char *format_name(const Py_buffer *v) {
    int d = format_dtype(v);
    if (d >= 0) return py_numpy_dtype_name((pe_dtype)d);
    const char *f = v->format ? v->format : "B";
    if (*f == '>' || *f == '!') return "big-endian data";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    switch (f[0]) {
    case 'd': case 'f': case 'e': return "a float type of unusual size";
    case 'i': return v->itemsize == 4 ? "int32" : "a signed integer type";
    case 'I': return "uint32";
    case 'h': return "int16";
    case 'b': return "int8";
    case 'B': return "uint8";
    case '?': return "bool";
    case 'L': case 'Q': return "uint64";
    case 'Z': return "complex";
    }
    return "an unsupported element type";
}

static void describe_mask(unsigned accept, char *buf, size_t cap) {
    buf[0] = '\0';
    int n = 0, total = 0;
    for (int d = 0; d < 6; d++) total += (accept >> d) & 1;
    for (int d = 0; d < 6; d++) {
        if (!((accept >> d) & 1)) continue;
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", n == 0 ? "" : n == total - 1 ? " or " : ", ",
                 dtype_names[d]);
        n++;
    }
}

void pya_release(pya *a) {
    if (a->view.obj != NULL) PyBuffer_Release(&a->view);
    a->view.obj = NULL;
}

static void shape_str(const pya *a, char *buf, size_t cap) {
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < a->ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%lld%s", (long long)a->shape[i],
                              a->ndim == 1 ? "," : i + 1 < a->ndim ? ", " : "");
    if (n < cap) snprintf(buf + n, cap - n, ")");
}

int pya_get(PyObject *obj, const char *name, unsigned accept, int writable, int contig,
            int min_ndim, int max_ndim, pya *a) {
    memset(a, 0, sizeof *a);
    a->obj = obj;
    if (obj == NULL || obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s: expected an array, got None", name);
        return -1;
    }
    PyObject *wrap = NULL; /* a torch tensor's memory as a buffer (py_dlpack.c) */
    if (py_dlpack_is_tensor(obj)) {
        if ((wrap = py_dlpack_view(obj, name)) == NULL) return -1;
        a->obj = obj = wrap; /* borrowed from here on: the view holds it */
        a->dlpack = 1;
    } else if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a numpy array (buffer protocol) or a CPU torch "
                     "tensor (DLPack), got %s", name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int got = PyObject_GetBuffer(obj, &a->view, PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0));
    Py_XDECREF(wrap);
    if (got != 0) {
        a->view.obj = NULL;
        if (writable && PyErr_ExceptionMatches(PyExc_BufferError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s is read-only; pass a writable array", name);
        }
        return -1;
    }
    int d = format_dtype(&a->view);
    if (d < 0 || !((accept >> d) & 1)) {
        char want[128];
        describe_mask(accept, want, sizeof want);
        /* Say the conversion, not only the list: numpy's default float64
         * is the usual case, and the fix is one call. The library computes
         * in float32 storage here, so converting is the caller's decision. */
        const char *to = (accept & PYA_F32) ? "float32" : (accept & PYA_I64) ? "int64" : NULL;
        if (to)
            PyErr_Format(PyExc_TypeError, "%s: dtype %s is not accepted (want %s); convert with %s.%s(%s.%s)",
                         name, format_name(&a->view), want, name, a->dlpack ? "to" : "astype",
                         a->dlpack ? "torch" : "np", to);
        else
            PyErr_Format(PyExc_TypeError, "%s: dtype %s is not accepted (want %s)", name,
                         format_name(&a->view), want);
        pya_release(a);
        return -1;
    }
    a->dtype = (pe_dtype)d;
    a->ndim = a->view.ndim;
    if (a->ndim < min_ndim || a->ndim > max_ndim || a->ndim > PYA_MAX_DIMS) {
        if (min_ndim == max_ndim)
            PyErr_Format(PyExc_ValueError, "%s must have %d dimension%s, got %d", name, min_ndim,
                         min_ndim == 1 ? "" : "s", a->ndim);
        else
            PyErr_Format(PyExc_ValueError, "%s must have %d to %d dimensions, got %d", name,
                         min_ndim, max_ndim, a->ndim);
        pya_release(a);
        return -1;
    }
    a->size = 1;
    Py_ssize_t isz = a->view.itemsize;
    for (int i = 0; i < a->ndim; i++) {
        a->shape[i] = a->view.shape[i];
        a->size *= a->shape[i];
        Py_ssize_t s = a->view.strides ? a->view.strides[i] : 0;
        if (s < 0 || s % isz != 0) {
            PyErr_Format(PyExc_ValueError,
                         "%s has a negative or unaligned stride (%zd bytes on axis %d); pass "
                         "%s%s%s",
                         name, s, i, a->dlpack ? "" : "numpy.ascontiguousarray(", name,
                         a->dlpack ? ".contiguous()" : ")");
            pya_release(a);
            return -1;
        }
        a->strides[i] = s / isz;
    }
    int ok = contig == PYA_CONTIG
                 ? PyBuffer_IsContiguous(&a->view, 'C')
                 : a->ndim == 0 || a->shape[a->ndim - 1] <= 1 || a->strides[a->ndim - 1] == 1;
    if (!ok && a->size > 0) {
        PyErr_Format(PyExc_ValueError, "%s must be %s; pass %s%s%s", name,
                     contig == PYA_CONTIG ? "C-contiguous" : "contiguous along its last axis",
                     a->dlpack ? "" : "numpy.ascontiguousarray(", name, a->dlpack ? ".contiguous()" : ")");
        pya_release(a);
        return -1;
    }
    return 0;
}

int pya_check_shape(const pya *a, const char *name, int ndim, const int64_t *shape) {
    int same = a->ndim == ndim;
    for (int i = 0; same && i < ndim; i++) same = a->shape[i] == shape[i];
    if (same) return 0;
    pya want = {.ndim = ndim};
    for (int i = 0; i < ndim; i++) want.shape[i] = shape[i];
    char got_s[160], want_s[160];
    shape_str(a, got_s, sizeof got_s);
    shape_str(&want, want_s, sizeof want_s);
    PyErr_Format(PyExc_ValueError, "%s has shape %s, want %s", name, got_s, want_s);
    return -1;
}

static PyObject *numpy_attr(const char *attr) {
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL) return NULL;
    PyObject *f = PyObject_GetAttrString(np, attr);
    Py_DECREF(np);
    return f;
}

static PyObject *numpy_alloc(const char *fn, pe_dtype dtype, int ndim, const int64_t *shape) {
    PyObject *tuple = PyTuple_New(ndim);
    if (tuple == NULL) return NULL;
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromLongLong(shape[i]);
        if (v == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, v);
    }
    PyObject *f = numpy_attr(fn);
    PyObject *r = f ? PyObject_CallFunction(f, "Os", tuple, py_numpy_dtype_name(dtype)) : NULL;
    Py_XDECREF(f);
    Py_DECREF(tuple);
    return r;
}

PyObject *pya_zeros(pe_dtype dtype, int ndim, const int64_t *shape) {
    return numpy_alloc("zeros", dtype, ndim, shape);
}

int pya_out(PyObject *out_arg, const char *name, pe_dtype dtype, int ndim, const int64_t *shape,
            pya *a, PyObject **result) {
    *result = NULL;
    memset(a, 0, sizeof *a); /* releasable even when numpy cannot allocate */
    if (out_arg == NULL || out_arg == Py_None) {
        PyObject *arr = numpy_alloc("empty", dtype, ndim, shape);
        if (arr == NULL) return -1;
        if (pya_get(arr, name, 1u << dtype, 1, PYA_CONTIG, ndim, ndim, a) != 0) {
            Py_DECREF(arr);
            return -1;
        }
        *result = arr;
        return 0;
    }
    if (pya_get(out_arg, name, 1u << dtype, 1, PYA_CONTIG, ndim, ndim, a) != 0) return -1;
    if (pya_check_shape(a, name, ndim, shape) != 0) {
        pya_release(a);
        return -1;
    }
    Py_INCREF(out_arg);
    *result = out_arg;
    return 0;
}

static void extent(const pya *a, uintptr_t *lo, uintptr_t *hi) {
    uintptr_t span = 0;
    for (int i = 0; i < a->ndim; i++)
        span += (uintptr_t)(a->shape[i] - 1) * (uintptr_t)a->strides[i];
    *lo = (uintptr_t)a->view.buf;
    *hi = *lo + (span + 1) * (uintptr_t)a->view.itemsize;
}

int pya_overlap(const pya *a, const pya *b) {
    if (a->size == 0 || b->size == 0) return 0;
    uintptr_t alo, ahi, blo, bhi;
    extent(a, &alo, &ahi);
    extent(b, &blo, &bhi);
    if (!(alo < bhi && blo < ahi)) return 0;
    PyObject *f = numpy_attr("shares_memory");
    PyObject *r = f ? PyObject_CallFunction(f, "OOi", a->obj, b->obj, 1 << 20) : NULL;
    Py_XDECREF(f);
    int shared = r ? PyObject_IsTrue(r) : 1;
    Py_XDECREF(r);
    PyErr_Clear(); /* numpy.TooHardError and friends: assume the worst */
    return shared != 0;
}

int py_dtype_arg(PyObject *obj, const char *name, unsigned accept, pe_dtype *out) {
    PyObject *f = numpy_attr("dtype");
    PyObject *dt = f ? PyObject_CallOneArg(f, obj) : NULL;
    Py_XDECREF(f);
    PyObject *nm = dt ? PyObject_GetAttrString(dt, "name") : NULL;
    Py_XDECREF(dt);
    const char *s = nm ? PyUnicode_AsUTF8(nm) : NULL;
    if (s == NULL) {
        Py_XDECREF(nm);
        return -1;
    }
    int found = -1;
    for (int d = 0; d < 5; d++)
        if (((accept >> d) & 1) && strcmp(s, py_numpy_dtype_name((pe_dtype)d)) == 0) found = d;
    if (found < 0) {
        char want[128];
        describe_mask(accept, want, sizeof want);
        PyErr_Format(PyExc_TypeError, "%s=%s is not accepted (want %s)", name, s, want);
    }
    Py_DECREF(nm);
    if (found < 0) return -1;
    *out = (pe_dtype)found;
    return 0;
}

/* ---------------------------------------------------------- integer input */

static int convert_array(PyObject *obj, const char *name, const char *kinds, const char *target,
                         pe_dtype dtype, int min_ndim, int max_ndim, PyObject **owner, pya *a) {
    *owner = NULL;
    PyObject *asarray = numpy_attr("asarray");
    PyObject *arr = asarray ? PyObject_CallOneArg(asarray, obj) : NULL;
    Py_XDECREF(asarray);
    if (arr == NULL) return -1;
    PyObject *dt = PyObject_GetAttrString(arr, "dtype");
    PyObject *kind = dt ? PyObject_GetAttrString(dt, "kind") : NULL;
    Py_XDECREF(dt);
    const char *k = kind ? PyUnicode_AsUTF8(kind) : NULL;
    int ok = k != NULL && k[0] != '\0' && strchr(kinds, k[0]) != NULL;
    const char kind_c = ok ? k[0] : '\0'; /* k dies with `kind` below */
    if (k != NULL && !ok)
        PyErr_Format(PyExc_TypeError, "%s must hold %s, got dtype kind '%s'", name,
                     dtype == PE_I64 ? "integers" : "real numbers", k);
    Py_XDECREF(kind);
    PyObject *contig = NULL;
    if (ok) {
        PyObject *f = numpy_attr("ascontiguousarray");
        contig = f ? PyObject_CallFunction(f, "Os", arr, target) : NULL;
        Py_XDECREF(f);
    }
    Py_DECREF(arr);
    if (contig == NULL) return -1;
    if (pya_get(contig, name, 1u << dtype, 0, PYA_CONTIG, min_ndim, max_ndim, a) != 0) {
        Py_DECREF(contig);
        return -1;
    }
    /* unsigned integers above INT64_MAX wrap to negative int64 in the
     * conversion: refuse them instead of moving 2^64 - 1 to position -1 */
    if (dtype == PE_I64 && kind_c == 'u')
        for (int64_t i = 0; i < a->size; i++)
            if (((const int64_t *)a->view.buf)[i] < 0) {
                PyErr_Format(PyExc_ValueError, "%s[%lld] is above INT64_MAX", name, (long long)i);
                pya_release(a);
                Py_DECREF(contig);
                return -1;
            }
    *owner = contig;
    return 0;
}

int py_int64_array(PyObject *obj, const char *name, int min_ndim, int max_ndim, PyObject **owner,
                   pya *a) {
    return convert_array(obj, name, "iu", "int64", PE_I64, min_ndim, max_ndim, owner, a);
}

int py_f64_array(PyObject *obj, const char *name, int min_ndim, int max_ndim, PyObject **owner,
                 pya *a) {
    return convert_array(obj, name, "iuf", "float64", PE_F64, min_ndim, max_ndim, owner, a);
}

int pypos_get(PyObject *positions, int64_t start, int64_t count, const char *name, pypos *p) {
    memset(p, 0, sizeof *p);
    if (positions == NULL || positions == Py_None) {
        if (count < 0) {
            PyErr_Format(PyExc_ValueError, "give %s (or a count)", name);
            return -1;
        }
        p->pos = pe_positions_range(start);
        p->count = count;
        return 0;
    }
    if (start != 0) {
        PyErr_Format(PyExc_ValueError, "give start or %s, not both", name);
        return -1;
    }
    if (PyRange_Check(positions)) {
        /* A step-1 range is a start offset: no array is made. */
        long long r[3];
        const char *attrs[3] = {"start", "stop", "step"};
        for (int i = 0; i < 3; i++) {
            PyObject *v = PyObject_GetAttrString(positions, attrs[i]);
            r[i] = v ? PyLong_AsLongLong(v) : -1;
            Py_XDECREF(v);
            if (PyErr_Occurred()) return -1;
        }
        if (r[2] == 1) {
            p->pos = pe_positions_range(r[0]);
            p->count = r[1] > r[0] ? r[1] - r[0] : 0;
            goto check;
        }
    }
    if (py_int64_array(positions, name, 1, 1, &p->owner, &p->arr) != 0) return -1;
    p->pos = pe_positions_list((const int64_t *)p->arr.view.buf);
    p->count = p->arr.shape[0];
check:
    if (count >= 0 && p->count != count) {
        PyErr_Format(PyExc_ValueError, "%s has %lld entries, want %lld (one per token)", name,
                     (long long)p->count, (long long)count);
        pypos_release(p);
        return -1;
    }
    return 0;
}

void pypos_release(pypos *p) {
    pya_release(&p->arr);
    Py_CLEAR(p->owner);
}

/* ------------------------------------------------------------------ enums */

int py_choice(const char *value, const char *name, const char *const *choices, int *out) {
    for (int i = 0; choices[i]; i++)
        if (strcmp(value, choices[i]) == 0) {
            *out = i;
            return 0;
        }
    char list[256] = "";
    for (int i = 0; choices[i]; i++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s'%s'", i ? ", " : "", choices[i]);
    }
    PyErr_Format(PyExc_ValueError, "%s='%s' is not one of %s", name, value, list);
    return -1;
}

int py_layout(const char *value, pe_rope_layout *out) {
    static const char *const layouts[] = {"interleaved", "half", NULL};
    int v;
    if (py_choice(value, "layout", layouts, &v) != 0) return -1;
    *out = (pe_rope_layout)v;
    return 0;
}

/* ------------------------------------------------ buffers the library owns */

typedef struct {
    PyObject_HEAD
    void *data;
    char format[4];
    Py_ssize_t itemsize;
    int ndim;
    Py_ssize_t shape[PYA_MAX_DIMS];
    Py_ssize_t strides[PYA_MAX_DIMS];
    void (*free_fn)(void *);
    void *ctx;
    PyObject *base;
} PyBuf;

static int pybuf_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    PyBuf *b = (PyBuf *)self;
    (void)flags; /* always C-contiguous, writable, with format and strides */
    Py_ssize_t len = b->itemsize;
    for (int i = 0; i < b->ndim; i++) len *= b->shape[i];
    view->buf = b->data;
    view->obj = Py_NewRef(self);
    view->len = len;
    view->readonly = 0;
    view->itemsize = b->itemsize;
    view->format = b->format;
    view->ndim = b->ndim;
    view->shape = b->shape;
    view->strides = b->strides;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static void pybuf_dealloc(PyObject *self) {
    PyBuf *b = (PyBuf *)self;
    if (b->free_fn) b->free_fn(b->ctx);
    Py_XDECREF(b->base);
    Py_TYPE(self)->tp_free(self);
}

static PyBufferProcs pybuf_as_buffer = {pybuf_getbuffer, NULL};

static PyTypeObject PyBuf_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "posenc._Buffer",
    .tp_basicsize = sizeof(PyBuf),
    .tp_dealloc = pybuf_dealloc,
    .tp_as_buffer = &pybuf_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Memory allocated by libposenc, exported to numpy without a copy.",
};

PyObject *pybuf_new(void *data, pe_dtype dtype, const char *format, size_t itemsize, int ndim,
                    const int64_t *shape, void (*free_fn)(void *), void *ctx, PyObject *base) {
    (void)dtype;
    PyBuf *b = PyObject_New(PyBuf, &PyBuf_Type);
    if (b == NULL) {
        if (free_fn) free_fn(ctx);
        return NULL;
    }
    b->data = data;
    snprintf(b->format, sizeof b->format, "%s", format);
    b->itemsize = (Py_ssize_t)itemsize;
    b->ndim = ndim;
    for (int i = ndim - 1; i >= 0; i--) {
        b->shape[i] = (Py_ssize_t)shape[i];
        b->strides[i] = i == ndim - 1 ? (Py_ssize_t)itemsize : b->strides[i + 1] * b->shape[i + 1];
    }
    b->free_fn = free_fn;
    b->ctx = ctx;
    b->base = base;
    Py_XINCREF(base);
    return (PyObject *)b;
}

PyObject *py_asarray(PyObject *obj) {
    if (obj == NULL) return NULL;
    PyObject *f = numpy_attr("asarray");
    PyObject *r = f ? PyObject_CallOneArg(f, obj) : NULL;
    Py_XDECREF(f);
    Py_DECREF(obj);
    return r;
}


/* ----------------------------------------------------------- registration */

static int add_exception(PyObject *m, PyObject **slot, const char *name, PyObject *bases,
                         const char *doc) {
    *slot = PyErr_NewExceptionWithDoc(name, doc, bases, NULL);
    if (*slot == NULL) return -1;
    Py_INCREF(*slot);
    return PyModule_AddObject(m, strrchr(name, '.') + 1, *slot);
}

int py_init_shared(PyObject *m) {
    if (PyType_Ready(&PyBuf_Type) != 0) return -1;
    if (add_exception(m, &Error, "posenc.Error", PyExc_ValueError,
                      "A libposenc call failed; .status holds the pe_status code.") != 0)
        return -1;
    PyObject *b1 = PyTuple_Pack(2, Error, PyExc_TypeError);
    PyObject *b2 = PyTuple_Pack(2, Error, PyExc_OSError);
    int rc = b1 && b2 ? 0 : -1;
    if (rc == 0)
        rc = add_exception(m, &DtypeError, "posenc.DtypeError", b1, "Unsupported data type (PE_ERR_DTYPE).");
    if (rc == 0)
        rc = add_exception(m, &FormatError, "posenc.FormatError", Error,
                           "Malformed or unsupported file (PE_ERR_FORMAT).");
    if (rc == 0)
        rc = add_exception(m, &FileError, "posenc.FileError", b2, "A file could not be read or written (PE_ERR_IO).");
    Py_XDECREF(b1);
    Py_XDECREF(b2);
    return rc;
}
