/*
 * py_io.c — .npy and safetensors files, and the q/k row permutation that
 * converts checkpoints between RoPE pair layouts. Arrays read from files are
 * numpy views of the library's own buffers: no copy after the read.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------- .npy */

static void npy_free(void *ctx) {
    pe_npy_free(ctx);
    free(ctx);
}

static const char *npy_format(pe_dtype d) {
    switch (d) {
    case PE_F32: return "f";
    case PE_F64: return "d";
    case PE_F16: return "e";
    case PE_I64: return "q";
    case PE_BF16: return "H";
    case PE_I8: return "b";
    }
    return "B";
}

static PyObject *py_read_npy(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"path", NULL};
    PyObject *path;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&:read_npy", kwlist, PyUnicode_FSConverter, &path)) return NULL;
    pe_npy_array *a = calloc(1, sizeof *a);
    if (a == NULL) {
        Py_DECREF(path);
        return PyErr_NoMemory();
    }
    int st;
    const char *p = PyBytes_AS_STRING(path);
    Py_BEGIN_ALLOW_THREADS
    st = pe_npy_read(p, a);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (st != PE_OK) {
        free(a);
        return py_raise(st);
    }
    return py_asarray(pybuf_new(a->data, a->dtype, npy_format(a->dtype), pe_dtype_size(a->dtype), a->ndim, a->shape,
                                npy_free, a, NULL));
}

static PyObject *py_write_npy(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"path", "array", NULL};
    PyObject *path, *arr_o;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O:write_npy", kwlist, PyUnicode_FSConverter, &path, &arr_o))
        return NULL;
    pya a;
    if (pya_get(arr_o, "array", PYA_F32 | PYA_F64 | PYA_F16 | PYA_I64, 0, PYA_CONTIG, 0, PE_NPY_MAX_DIMS, &a) != 0) {
        Py_DECREF(path);
        return NULL;
    }
    int st;
    const char *p = PyBytes_AS_STRING(path);
    PY_CALL(a.size, st = pe_npy_write(p, a.dtype, a.ndim, a.shape, a.view.buf));
    pya_release(&a);
    Py_DECREF(path);
    if (st != PE_OK) return py_raise(st);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ safetensors */

/* safetensors dtype strings and the struct-module formats numpy reads;
 * BF16 travels as uint16 and F8 types as uint8. */
static const struct {
    const char *st, *format;
    size_t size;
} st_formats[] = {
    {"F32", "f", 4}, {"F64", "d", 8}, {"F16", "e", 2},  {"BF16", "H", 2},   {"I64", "q", 8},
    {"I32", "i", 4}, {"U32", "I", 4}, {"I16", "h", 2},  {"U16", "H", 2},    {"I8", "b", 1},
    {"U8", "B", 1},  {"BOOL", "?", 1}, {"U64", "Q", 8}, {"F8_E5M2", "B", 1}, {"F8_E4M3", "B", 1},
};
#define N_ST_FORMATS (sizeof st_formats / sizeof st_formats[0])

static void st_capsule_free(PyObject *cap) {
    pe_safetensors_free(PyCapsule_GetPointer(cap, "posenc.safetensors"));
}

static pe_safetensors *st_read(PyObject *path_o, PyObject **capsule) {
    PyObject *path;
    if (!PyUnicode_FSConverter(path_o, &path)) return NULL;
    pe_safetensors *st = NULL;
    int status;
    const char *p = PyBytes_AS_STRING(path);
    Py_BEGIN_ALLOW_THREADS
    status = pe_safetensors_read(p, &st);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (status != PE_OK) {
        py_raise(status);
        return NULL;
    }
    *capsule = PyCapsule_New(st, "posenc.safetensors", st_capsule_free);
    if (*capsule == NULL) pe_safetensors_free(st);
    return *capsule ? st : NULL;
}

static PyObject *py_read_safetensors(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"path", NULL};
    PyObject *path_o, *cap = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:read_safetensors", kwlist, &path_o)) return NULL;
    pe_safetensors *st = st_read(path_o, &cap);
    if (st == NULL) return NULL;
    PyObject *dict = PyDict_New();
    for (int64_t i = 0; dict && i < pe_safetensors_count(st); i++) {
        pe_st_tensor t;
        pe_safetensors_get(st, i, &t);
        const char *format = "B";
        size_t isz = 1;
        for (size_t j = 0; j < N_ST_FORMATS; j++)
            if (strcmp(st_formats[j].st, t.st_dtype) == 0) {
                format = st_formats[j].format;
                isz = st_formats[j].size;
            }
        /* Every view keeps the capsule (and so the file's data) alive. */
        PyObject *arr = py_asarray(pybuf_new((void *)t.data, PE_F32, format, isz, t.ndim, t.shape, NULL, NULL, cap));
        PyObject *name = arr ? PyUnicode_DecodeUTF8(t.name, (Py_ssize_t)strlen(t.name), "replace") : NULL;
        if (name == NULL || PyDict_SetItem(dict, name, arr) != 0) Py_CLEAR(dict);
        Py_XDECREF(name);
        Py_XDECREF(arr);
    }
    Py_DECREF(cap);
    return dict;
}

static PyObject *py_safetensors_metadata(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"path", NULL};
    PyObject *path_o, *cap = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:safetensors_metadata", kwlist, &path_o)) return NULL;
    pe_safetensors *st = st_read(path_o, &cap);
    if (st == NULL) return NULL;
    PyObject *dict = PyDict_New();
    for (int64_t i = 0; dict && i < pe_safetensors_metadata_count(st); i++) {
        const char *k, *v;
        pe_safetensors_metadata_at(st, i, &k, &v);
        PyObject *vo = PyUnicode_DecodeUTF8(v, (Py_ssize_t)strlen(v), "replace");
        if (vo == NULL || PyDict_SetItemString(dict, k, vo) != 0) Py_CLEAR(dict);
        Py_XDECREF(vo);
    }
    Py_DECREF(cap);
    return dict;
}

/* The safetensors dtype of a buffer's format (uint16 -> BF16). */
static const char *st_dtype_of(const Py_buffer *v) {
    const char *f = v->format ? v->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (f[0] == '\0' || f[1] != '\0') return NULL;
    switch (f[0]) {
    case 'f': return v->itemsize == 4 ? "F32" : NULL;
    case 'd': return v->itemsize == 8 ? "F64" : NULL;
    case 'e': return "F16";
    case 'H': return "BF16";
    case 'q': case 'l': return v->itemsize == 8 ? "I64" : v->itemsize == 4 ? "I32" : NULL;
    case 'Q': case 'L': return v->itemsize == 8 ? "U64" : v->itemsize == 4 ? "U32" : NULL;
    case 'i': return v->itemsize == 4 ? "I32" : NULL;
    case 'I': return v->itemsize == 4 ? "U32" : NULL;
    case 'h': return "I16";
    case 'b': return "I8";
    case 'B': return "U8";
    case '?': return "BOOL";
    }
    return NULL;
}

/* A str as the C string the writer takes, or NULL with ValueError when it
 * holds a NUL: PyUnicode_AsUTF8 keeps the NUL, and the C string would end
 * there ("q\0x" written as "q"; issue 26). */
static const char *utf8_whole(PyObject *s, const char *what) {
    Py_ssize_t n = 0;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    if (u != NULL && strlen(u) != (size_t)n) {
        PyErr_Format(PyExc_ValueError, "%s %R holds a NUL character, which safetensors names and metadata "
                     "cannot keep whole", what, s);
        return NULL;
    }
    return u;
}

static PyObject *py_write_safetensors(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"path", "tensors", "metadata", "dtypes", NULL};
    PyObject *path, *tens_o, *meta_o = Py_None, *dt_o = Py_None, *items = NULL, *meta_items = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|O$O:write_safetensors", kwlist, PyUnicode_FSConverter, &path,
                                     &tens_o, &meta_o, &dt_o))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = 0, nm = 0, got = 0;
    Py_buffer *views = NULL;
    pe_st_tensor *t = NULL;
    const char **meta = NULL;
    if (!PyMapping_Check(tens_o) || (items = PyMapping_Items(tens_o)) == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "tensors must be a mapping name -> array");
        goto done;
    }
    if (meta_o != Py_None && (!PyDict_Check(meta_o) || (meta_items = PyMapping_Items(meta_o)) == NULL)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "metadata must be a dict of str -> str");
        goto done;
    }
    if (dt_o != Py_None && !PyDict_Check(dt_o)) {
        PyErr_SetString(PyExc_TypeError, "dtypes must be a dict name -> safetensors dtype string");
        goto done;
    }
    n = PyList_GET_SIZE(items);
    nm = meta_items ? PyList_GET_SIZE(meta_items) : 0;
    views = PyMem_Calloc((size_t)n + 1, sizeof *views);
    t = PyMem_Calloc((size_t)n + 1, sizeof *t);
    meta = PyMem_Calloc((size_t)(2 * nm + 1), sizeof *meta);
    if (!views || !t || !meta) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *kv = PyList_GET_ITEM(meta_items, i);
        meta[2 * i] = PyUnicode_Check(PyTuple_GET_ITEM(kv, 0)) ? utf8_whole(PyTuple_GET_ITEM(kv, 0), "metadata key") : NULL;
        meta[2 * i + 1] =
            PyUnicode_Check(PyTuple_GET_ITEM(kv, 1)) ? utf8_whole(PyTuple_GET_ITEM(kv, 1), "metadata value") : NULL;
        if (meta[2 * i] == NULL || meta[2 * i + 1] == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "metadata keys and values must be str");
            goto done;
        }
    }
    for (got = 0; got < n; got++) {
        PyObject *kv = PyList_GET_ITEM(items, got), *name = PyTuple_GET_ITEM(kv, 0);
        if (!PyUnicode_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "tensor names must be str");
            goto done;
        }
        const char *nm_s = utf8_whole(name, "tensor name");
        if (nm_s == NULL || PyObject_GetBuffer(PyTuple_GET_ITEM(kv, 1), &views[got], PyBUF_RECORDS_RO) != 0) {
            if (nm_s && PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "tensors['%s'] is not an array (buffer protocol)", nm_s);
            }
            goto done;
        }
        Py_buffer *v = &views[got];
        if (!PyBuffer_IsContiguous(v, 'C') || v->ndim > PE_ST_MAX_DIMS) {
            PyErr_Format(PyExc_ValueError, "tensors['%s'] must be C-contiguous with at most %d dims", nm_s,
                         PE_ST_MAX_DIMS);
            got++;
            goto done;
        }
        PyObject *over = dt_o != Py_None ? PyDict_GetItemWithError(dt_o, name) : NULL;
        const char *dt = over ? (PyUnicode_Check(over) ? PyUnicode_AsUTF8(over) : NULL) : st_dtype_of(v);
        if (dt == NULL || strlen(dt) >= sizeof t[got].st_dtype) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "tensors['%s']: element type '%s' has no safetensors dtype", nm_s,
                             v->format ? v->format : "B");
            got++;
            goto done;
        }
        t[got].name = nm_s;
        snprintf(t[got].st_dtype, sizeof t[got].st_dtype, "%s", dt);
        t[got].ndim = v->ndim;
        for (int d = 0; d < v->ndim; d++) t[got].shape[d] = v->shape[d];
        t[got].data = v->buf;
        t[got].nbytes = (size_t)v->len;
    }
    int st;
    const char *p = PyBytes_AS_STRING(path);
    const char *const *mp = nm ? meta : NULL;
    Py_BEGIN_ALLOW_THREADS
    st = pe_safetensors_write(p, t, (int64_t)n, mp);
    Py_END_ALLOW_THREADS
    if (st != PE_OK)
        py_raise(st);
    else
        result = Py_NewRef(Py_None);
done:
    for (Py_ssize_t i = 0; views && i < got; i++)
        if (views[i].obj) PyBuffer_Release(&views[i]);
    PyMem_Free(views);
    PyMem_Free(t);
    PyMem_Free(meta);
    Py_XDECREF(items);
    Py_XDECREF(meta_items);
    Py_DECREF(path);
    return result;
}

/* -------------------------------------------------------- q/k conversion */

static PyObject *py_qk_permute_rows(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"w", "head_dim", "rotary_dim", "to", "out", NULL};
    static const char *const layouts[] = {"interleaved", "half", NULL};
    PyObject *w_o, *out_o = Py_None, *result = NULL;
    long long D, d = -1;
    const char *to_s = "half";
    int to;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|$LsO:qk_permute_rows", kwlist, &w_o, &D, &d, &to_s, &out_o))
        return NULL;
    if (py_choice(to_s, "to", layouts, &to)) return NULL;
    if (d < 0) d = D;
    Py_buffer w = {0}, o = {0};
    if (PyObject_GetBuffer(w_o, &w, PyBUF_RECORDS_RO) != 0) return NULL;
    if (!PyBuffer_IsContiguous(&w, 'C') || w.ndim < 1 || w.ndim > 2) {
        PyErr_SetString(PyExc_ValueError, "w must be a C-contiguous weight (rows, cols) or bias (rows,)");
        goto done;
    }
    if (out_o == Py_None) {
        PyObject *np = PyImport_ImportModule("numpy");
        out_o = np ? PyObject_CallMethod(np, "empty_like", "O", w_o) : NULL;
        Py_XDECREF(np);
        if (out_o == NULL) goto done;
    } else {
        Py_INCREF(out_o);
    }
    if (PyObject_GetBuffer(out_o, &o, PyBUF_RECORDS | PyBUF_WRITABLE) != 0) {
        Py_DECREF(out_o);
        goto done;
    }
    int same = o.len == w.len && o.ndim == w.ndim && o.itemsize == w.itemsize && PyBuffer_IsContiguous(&o, 'C');
    for (int i = 0; same && i < w.ndim; i++) same = o.shape[i] == w.shape[i];
    if (!same) {
        PyErr_SetString(PyExc_ValueError, "out must be a writable C-contiguous array shaped like w");
        Py_DECREF(out_o);
    } else {
        int64_t rows = w.shape[0];
        size_t row_bytes = rows ? (size_t)w.len / (size_t)rows : 0;
        int st;
        PY_CALL(w.len, st = pe_qk_permute_rows(w.buf, o.buf, rows, row_bytes, D, d, (pe_rope_layout)to));
        if (st != PE_OK) {
            Py_DECREF(out_o);
            py_raise(st);
        } else {
            result = out_o;
        }
    }
    PyBuffer_Release(&o);
done:
    PyBuffer_Release(&w);
    return result;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef methods[] = {
    {"read_npy", KW(py_read_npy),
     "read_npy(path) -> array: a .npy file (float32, float64, float16, int64; C order;\n"
     "format 1, 2 or 3), as a numpy view of the library's buffer."},
    {"write_npy", KW(py_write_npy), "write_npy(path, array): a C-contiguous float32/float64/float16/int64 array."},
    {"read_safetensors", KW(py_read_safetensors),
     "read_safetensors(path) -> dict name -> array\n\n"
     "Every tensor of a safetensors file, as numpy views of one buffer (no per-tensor copy;\n"
     "views may be unaligned if the file is). BF16 tensors come back as uint16, F8 as uint8.\n"
     "Truncated or lying headers raise posenc.FormatError naming the tensor and value."},
    {"safetensors_metadata", KW(py_safetensors_metadata),
     "safetensors_metadata(path) -> dict: the file's __metadata__ (str -> str)."},
    {"write_safetensors", KW(py_write_safetensors),
     "write_safetensors(path, tensors, metadata=None, *, dtypes=None)\n\n"
     "Write a mapping name -> C-contiguous array. float32/float64/float16/int64/int32/... map\n"
     "to F32/F64/F16/I64/I32/...; uint16 is written as BF16 unless dtypes={name: 'U16'}.\n"
     "The file appears only once complete (temporary file, then rename)."},
    {"qk_permute_rows", KW(py_qk_permute_rows),
     "qk_permute_rows(w, head_dim, *, rotary_dim=None, to='half', out=None) -> array\n\n"
     "Permute the rows of a q/k projection weight (rows, cols) or bias (rows,) within each\n"
     "head between RoPE pair layouts: to='half' turns a Meta (interleaved) checkpoint into a\n"
     "Hugging Face one (convert_llama_weights_to_hf.py's permute), to='interleaved' undoes it.\n"
     "Any dtype (rows move as bytes)."},
    {NULL, NULL, 0, NULL},
};

int py_init_io(PyObject *m) { return PyModule_AddFunctions(m, methods); }
