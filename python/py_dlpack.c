/*
 * py_dlpack.c — tensors that are not buffers (PyTorch's), taken through
 * DLPack without a copy. torch.Tensor implements neither the buffer
 * protocol nor __array_interface__; __dlpack__ (DLPack 0.x, torch >= 1.10,
 * Debian's 1.13 included) hands over the data pointer, dtype (bfloat16
 * too, which numpy cannot hold), shape and strides in elements. The tensor
 * is wrapped in a small object that exports exactly that memory through the
 * buffer protocol, so pya_get (module.c) checks dtype, strides, contiguity
 * and shape the same way for numpy arrays and torch tensors, results are
 * written in place into the tensor's own memory, and numpy.shares_memory
 * sees through the wrapper. The wrapper owns the DLManagedTensor: the
 * producer's deleter runs when the last buffer view of it is released.
 *
 * Refused before anything is exported: a tensor not on the CPU (the
 * __dlpack_device__ check: CUDA tensors never reach this code's loads and
 * stores), lanes != 1, a dtype the buffer protocol cannot spell.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <stdint.h>
#include <string.h>

/* ------------------------------------------------- DLPack ABI (dlpack.h) */
/* The stable part of dlpack.h v0.x, spelled out: the header is not in
 * Debian's python3-dev, and these layouts are the ABI producers follow. */
typedef struct {
    int32_t device_type; /* kDLCPU = 1, kDLCUDA = 2, ... */
    int32_t device_id;
} pe_dl_device;

typedef struct {
    uint8_t code; /* kDLInt 0, kDLUInt 1, kDLFloat 2, kDLOpaqueHandle 3, kDLBfloat 4, kDLComplex 5 */
    uint8_t bits;
    uint16_t lanes;
} pe_dl_dtype;

typedef struct {
    void *data;
    pe_dl_device device;
    int32_t ndim;
    pe_dl_dtype dtype;
    int64_t *shape;
    int64_t *strides; /* elements; NULL: compact row-major */
    uint64_t byte_offset;
} pe_dl_tensor;

typedef struct pe_dl_managed {
    pe_dl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct pe_dl_managed *self);
} pe_dl_managed;

enum { DL_CPU = 1, DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_BFLOAT = 4, DL_COMPLEX = 5 };

/* ------------------------------------------------------------ the wrapper */

typedef struct {
    PyObject_HEAD
    pe_dl_managed *m;      /* owned: its deleter runs in dealloc */
    char format[4];        /* struct-module format of one element */
    Py_ssize_t itemsize;
    int ndim;
    Py_ssize_t *shape;     /* ndim entries each, PyMem */
    Py_ssize_t *strides;   /* bytes */
    Py_ssize_t len;        /* bytes spanned by the elements (product of shape x itemsize) */
} PyDLView;

static void dlview_dealloc(PyObject *self) {
    PyDLView *v = (PyDLView *)self;
    if (v->m != NULL && v->m->deleter != NULL) v->m->deleter(v->m);
    PyMem_Free(v->shape);
    Py_TYPE(self)->tp_free(self);
}

static int c_contiguous(const PyDLView *v) {
    Py_ssize_t want = v->itemsize;
    for (int i = v->ndim - 1; i >= 0; i--) {
        if (v->shape[i] != 1 && v->strides[i] != want) return 0;
        want *= v->shape[i];
    }
    return 1;
}

static int dlview_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    PyDLView *v = (PyDLView *)self;
    /* A consumer that cannot take strides gets the memory only when the
     * strides are the C-contiguous ones (the buffer protocol's rule). */
    if (((flags & PyBUF_STRIDES) != PyBUF_STRIDES ||
         (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS ||
         (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS ||
         (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS) &&
        !c_contiguous(v)) {
        PyErr_SetString(PyExc_BufferError, "the tensor is not C-contiguous");
        view->obj = NULL;
        return -1;
    }
    view->buf = (char *)v->m->dl_tensor.data + v->m->dl_tensor.byte_offset;
    view->obj = Py_NewRef(self);
    view->len = v->len;
    view->readonly = 0; /* DLPack 0.x has no read-only flag: torch tensors are writable */
    view->itemsize = v->itemsize;
    view->format = (flags & PyBUF_FORMAT) ? v->format : NULL;
    view->ndim = v->ndim;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? v->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? v->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static PyBufferProcs dlview_as_buffer = {dlview_getbuffer, NULL};

static PyTypeObject PyDLView_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "posenc._DLPackView",
    .tp_basicsize = sizeof(PyDLView),
    .tp_dealloc = dlview_dealloc,
    .tp_as_buffer = &dlview_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A DLPack tensor (torch) exported through the buffer protocol, without a copy.",
};

/* The buffer-protocol format of a DLPack dtype, NULL when it has none.
 * bfloat16 travels as 'H' (uint16), the binding's convention for it. */
static const char *dl_format(pe_dl_dtype t) {
    if (t.lanes != 1) return NULL;
    switch (t.code) {
    case DL_FLOAT: return t.bits == 32 ? "f" : t.bits == 64 ? "d" : t.bits == 16 ? "e" : NULL;
    case DL_BFLOAT: return t.bits == 16 ? "H" : NULL;
    case DL_INT: return t.bits == 64 ? "q" : t.bits == 32 ? "i" : t.bits == 16 ? "h" : t.bits == 8 ? "b" : NULL;
    case DL_UINT: return t.bits == 8 ? "B" : NULL; /* torch has no wider unsigned types */
    case DL_COMPLEX: return t.bits == 64 ? "Zf" : t.bits == 128 ? "Zd" : NULL;
    }
    return NULL;
}

static const char *device_name(long type) {
    switch (type) {
    case 2: return "cuda";
    case 3: return "cuda_host";
    case 4: return "opencl";
    case 7: return "vulkan";
    case 8: return "metal";
    case 10: return "rocm";
    case 14: return "oneapi";
    }
    return "a non-CPU device";
}

int py_dlpack_is_tensor(PyObject *obj) {
    return !PyObject_CheckBuffer(obj) && PyObject_HasAttrString(obj, "__dlpack__");
}

/* torch's lazy views: a negative view (x._neg_view(), z.conj().imag) or a
 * conjugate view holds its values with a bit saying "negate/conjugate on
 * read", and torch 1.13's DLPack export drops that bit: the memory read
 * as it is has the wrong sign. Refused by name (a copy would resolve an
 * input but lose what is written into an output). 1 refused, 0 not a
 * lazy view, -1 an error raised by the check itself. */
static int refuse_lazy_view(PyObject *obj, const char *name) {
    static const char *const what[2][3] = {{"is_neg", "a negative view", "resolve_neg"},
                                           {"is_conj", "a conjugate view", "resolve_conj"}};
    for (int i = 0; i < 2; i++) {
        if (!PyObject_HasAttrString(obj, what[i][0])) continue;
        PyObject *r = PyObject_CallMethod(obj, what[i][0], NULL);
        if (r == NULL) return -1;
        const int lazy = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (lazy < 0) return -1;
        if (lazy) {
            PyErr_Format(PyExc_TypeError,
                         "%s is %s (its memory holds the values without the %s, which DLPack does not "
                         "carry); pass %s.%s()",
                         name, what[i][1], i == 0 ? "sign" : "conjugation", name, what[i][2]);
            return 1;
        }
    }
    return 0;
}

PyObject *py_dlpack_view(PyObject *obj, const char *name) {
    if (refuse_lazy_view(obj, name) != 0) return NULL;
    /* The device first: a CUDA tensor is refused before it is exported. */
    PyObject *dev = PyObject_HasAttrString(obj, "__dlpack_device__")
                        ? PyObject_CallMethod(obj, "__dlpack_device__", NULL)
                        : NULL;
    if (dev != NULL) {
        long type = -1, id = 0;
        if (PyTuple_Check(dev) && PyTuple_GET_SIZE(dev) == 2) {
            type = PyLong_AsLong(PyTuple_GET_ITEM(dev, 0));
            id = PyLong_AsLong(PyTuple_GET_ITEM(dev, 1));
        }
        Py_DECREF(dev);
        if (PyErr_Occurred()) return NULL;
        if (type != DL_CPU) {
            PyErr_Format(PyExc_TypeError,
                         "%s is a tensor on %s:%ld (DLPack device type %ld); posenc runs on the "
                         "CPU: pass %s.cpu()",
                         name, device_name(type), id, type, name);
            return NULL;
        }
    } else if (PyErr_Occurred()) {
        return NULL;
    }
    PyObject *cap = PyObject_CallMethod(obj, "__dlpack__", NULL);
    if (cap == NULL) {
        /* A KeyboardInterrupt (or SystemExit, MemoryError) raised inside
         * __dlpack__ is not a reason the tensor cannot be exported: it goes
         * on as it is. */
        if (!PyErr_ExceptionMatches(PyExc_Exception) || PyErr_ExceptionMatches(PyExc_MemoryError))
            return NULL;
        /* torch says why (requires_grad: "use tensor.detach()", bool, ...):
         * keep its message, name the argument. */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *s = value ? PyObject_Str(value) : NULL;
        PyErr_Format(PyExc_TypeError, "%s: the tensor cannot be exported through DLPack: %s", name,
                     s ? PyUnicode_AsUTF8(s) : "unknown error");
        Py_XDECREF(s);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
    }
    pe_dl_managed *m = PyCapsule_IsValid(cap, "dltensor") ? PyCapsule_GetPointer(cap, "dltensor") : NULL;
    if (m == NULL) {
        Py_DECREF(cap);
        PyErr_Format(PyExc_TypeError, "%s.__dlpack__() did not return a DLPack capsule", name);
        return NULL;
    }
    const pe_dl_tensor *t = &m->dl_tensor;
    /* Checks that do not need ownership: the capsule's destructor still
     * frees the tensor if we refuse it here. */
    if (t->device.device_type != DL_CPU) {
        Py_DECREF(cap);
        PyErr_Format(PyExc_TypeError, "%s is a tensor on %s (DLPack device type %d); pass %s.cpu()", name,
                     device_name(t->device.device_type), (int)t->device.device_type, name);
        return NULL;
    }
    const char *fmt = dl_format(t->dtype);
    if (fmt == NULL || t->ndim < 0 || t->ndim > 64) {
        Py_DECREF(cap);
        PyErr_Format(PyExc_TypeError, "%s: DLPack dtype (code %d, %d bits, %d lanes) is not accepted", name,
                     (int)t->dtype.code, (int)t->dtype.bits, (int)t->dtype.lanes);
        return NULL;
    }
    PyDLView *v = PyObject_New(PyDLView, &PyDLView_Type);
    Py_ssize_t *dims = v ? PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(2 * t->ndim + 1)) : NULL;
    if (dims == NULL) {
        if (v != NULL) {
            v->m = NULL;
            v->shape = NULL;
            Py_DECREF(v);
        }
        Py_DECREF(cap);
        return PyErr_NoMemory();
    }
    /* Take ownership: the renamed capsule no longer frees the tensor. */
    v->m = m;
    v->shape = dims;
    v->strides = dims + t->ndim;
    if (PyCapsule_SetName(cap, "used_dltensor") != 0) {
        v->m = NULL;
        Py_DECREF(v);
        Py_DECREF(cap);
        return NULL;
    }
    Py_DECREF(cap);
    snprintf(v->format, sizeof v->format, "%s", fmt);
    v->itemsize = (Py_ssize_t)(t->dtype.bits / 8);
    v->ndim = (int)t->ndim;
    Py_ssize_t step = v->itemsize, len = v->itemsize;
    for (int i = v->ndim - 1; i >= 0; i--) {
        v->shape[i] = (Py_ssize_t)t->shape[i];
        /* NULL strides: compact row-major (DLPack's rule) */
        v->strides[i] = t->strides ? (Py_ssize_t)t->strides[i] * v->itemsize : step;
        step *= v->shape[i];
        len *= v->shape[i];
    }
    v->len = len;
    return (PyObject *)v;
}

int py_init_dlpack(PyObject *m) {
    (void)m;
    return PyType_Ready(&PyDLView_Type);
}
