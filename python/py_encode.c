/*
 * py_encode.c — additive encodings (raw, normalized, binary, sinusoidal and
 * the shift matrix M_k) and learned tables (the LearnedTable type, whose
 * weights numpy sees without a copy).
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

static const char *const schemes[] = {"raw", "normalized", "binary", "sinusoidal", NULL};
static const char *const sin_layouts[] = {"interleaved", "concatenated", NULL};
static const char *const conventions[] = {"paper", "t2t", NULL};

int py_additive_params(const char *scheme, int64_t dim, double scale, int64_t length, double base,
                       const char *layout, const char *convention, pe_additive_params *out);
int py_additive_params(const char *scheme, int64_t dim, double scale, int64_t length, double base,
                       const char *layout, const char *convention, pe_additive_params *out) {
    int s, l, c;
    if (py_choice(scheme, "scheme", schemes, &s) || py_choice(layout, "layout", sin_layouts, &l) ||
        py_choice(convention, "convention", conventions, &c))
        return -1;
    *out = pe_additive_defaults((pe_additive_scheme)s, dim);
    out->scale = scale;
    out->length = length;
    out->base = base;
    out->layout = (pe_sin_layout)l;
    out->convention = (pe_sin_convention)c;
    return 0;
}

static PyObject *py_encode(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"scheme", "positions", "dim", "scale", "length", "base", "layout",
                             "convention", "dtype", "out", NULL};
    const char *scheme, *layout = "interleaved", *conv = "paper";
    PyObject *pos_o, *dt_o = NULL, *out_o = Py_None;
    long long dim, length = 0;
    double scale = 1.0, base = 10000.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sOL|$dLdssOO:encode", kwlist, &scheme, &pos_o, &dim, &scale,
                                     &length, &base, &layout, &conv, &dt_o, &out_o))
        return NULL;
    pe_additive_params prm;
    pe_dtype dtype = PE_F32;
    if (py_additive_params(scheme, dim, scale, length, base, layout, conv, &prm) ||
        (dt_o && py_dtype_arg(dt_o, "dtype", PYA_F32 | PYA_F64, &dtype)))
        return NULL;
    if (dim < 0) {
        PyErr_Format(PyExc_ValueError, "dim=%lld must be >= 0", dim);
        return NULL;
    }
    pypos p;
    if (pypos_get(pos_o, 0, -1, "positions", &p) != 0) return NULL;
    int64_t shape[2] = {p.count, dim};
    pya o;
    PyObject *r;
    if (pya_out(out_o, "out", dtype, 2, shape, &o, &r) == 0) {
        int st;
        PY_CALL(o.size, st = pe_additive_encode(&prm, &p.pos, p.count, o.view.buf, dtype));
        pya_release(&o);
        if (st != PE_OK) {
            Py_CLEAR(r);
            py_raise(st);
        }
    }
    pypos_release(&p);
    return r;
}

static PyObject *py_binary_nbits(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"length", NULL};
    long long length;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L:binary_nbits", kwlist, &length)) return NULL;
    return PyLong_FromLongLong(pe_binary_nbits(length));
}

/* The keywords shared by the sinusoidal helpers. */
#define SIN_KW "base", "layout", "convention"

static PyObject *py_sinusoidal_frequency(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"dim", "pair", SIN_KW, NULL};
    long long dim, pair;
    double base = 10000.0, omega;
    const char *layout = "interleaved", *conv = "paper";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL|$dss:sinusoidal_frequency", kwlist, &dim, &pair, &base,
                                     &layout, &conv))
        return NULL;
    pe_additive_params prm;
    if (py_additive_params("sinusoidal", dim, 1.0, 0, base, layout, conv, &prm)) return NULL;
    int st = pe_sinusoidal_frequency(&prm, pair, &omega);
    return st == PE_OK ? PyFloat_FromDouble(omega) : py_raise(st);
}

static PyObject *py_shift_matrix(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"dim", "k", SIN_KW, NULL};
    long long dim, k;
    double base = 10000.0;
    const char *layout = "interleaved", *conv = "paper";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL|$dss:shift_matrix", kwlist, &dim, &k, &base, &layout, &conv))
        return NULL;
    pe_additive_params prm;
    if (py_additive_params("sinusoidal", dim, 1.0, 0, base, layout, conv, &prm)) return NULL;
    if (dim < 0 || dim > 65536) {
        PyErr_Format(PyExc_ValueError, "dim=%lld outside [0, 65536] for a dense matrix", dim);
        return NULL;
    }
    int64_t shape[2] = {dim, dim};
    pya o;
    PyObject *r;
    if (pya_out(NULL, "out", PE_F64, 2, shape, &o, &r) != 0) return NULL;
    int st = pe_shift_matrix(&prm, k, o.view.buf);
    pya_release(&o);
    if (st != PE_OK) {
        Py_DECREF(r);
        return py_raise(st);
    }
    return r;
}

static PyObject *py_shift_apply(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"v", "k", SIN_KW, "out", NULL};
    PyObject *v_o, *out_o = Py_None, *own = NULL, *r = NULL;
    long long k;
    double base = 10000.0;
    const char *layout = "interleaved", *conv = "paper";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|$dssO:shift_apply", kwlist, &v_o, &k, &base, &layout, &conv,
                                     &out_o))
        return NULL;
    pya v, o;
    if (py_f64_array(v_o, "v", 1, 1, &own, &v) != 0) return NULL;
    pe_additive_params prm;
    if (py_additive_params("sinusoidal", v.shape[0], 1.0, 0, base, layout, conv, &prm) == 0 &&
        pya_out(out_o, "out", PE_F64, 1, v.shape, &o, &r) == 0) {
        /* out may be v itself (the library allows the alias), nothing else. */
        if (o.view.buf != v.view.buf && pya_overlap(&v, &o)) {
            PyErr_SetString(PyExc_ValueError, "out overlaps v; pass out=v or a separate array");
            Py_CLEAR(r);
        } else {
            int st = pe_shift_apply(&prm, k, v.view.buf, o.view.buf);
            if (st != PE_OK) {
                Py_CLEAR(r);
                py_raise(st);
            }
        }
        pya_release(&o);
    }
    pya_release(&v);
    Py_XDECREF(own);
    return r;
}

/* ----------------------------------------------------------- LearnedTable */

typedef struct {
    PyObject_HEAD
    pe_learned *t;
    Py_ssize_t shape[2], strides[2];
} PyLearned;

static PyTypeObject PyLearned_Type;

static PyObject *learned_wrap(PyTypeObject *type, pe_learned *t) {
    PyLearned *o = (PyLearned *)type->tp_alloc(type, 0);
    if (o == NULL) {
        pe_learned_free(t);
        return NULL;
    }
    o->t = t;
    o->shape[0] = (Py_ssize_t)pe_learned_max_len(t);
    o->shape[1] = (Py_ssize_t)pe_learned_dim(t);
    o->strides[1] = sizeof(float);
    o->strides[0] = o->shape[1] * (Py_ssize_t)sizeof(float);
    return (PyObject *)o;
}

static PyObject *learned_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"max_len", "dim", "seed", NULL};
    long long max_len, dim;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL|K:LearnedTable", kwlist, &max_len, &dim, &seed)) return NULL;
    pe_learned *t;
    int st = pe_learned_create(max_len, dim, seed, &t);
    return st == PE_OK ? learned_wrap(type, t) : py_raise(st);
}

static void learned_dealloc(PyObject *self) {
    pe_learned_free(((PyLearned *)self)->t);
    Py_TYPE(self)->tp_free(self);
}

static int learned_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    (void)flags;
    PyLearned *o = (PyLearned *)self;
    view->buf = pe_learned_weights(o->t);
    view->obj = Py_NewRef(self);
    view->len = o->shape[0] * o->strides[0];
    view->readonly = 0;
    view->itemsize = sizeof(float);
    view->format = "f";
    view->ndim = 2;
    view->shape = o->shape;
    view->strides = o->strides;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static PyBufferProcs learned_as_buffer = {learned_getbuffer, NULL};

static PyObject *learned_get(PyObject *self, void *which) {
    PyLearned *o = (PyLearned *)self;
    switch ((int)(intptr_t)which) {
    case 0: return PyLong_FromSsize_t(o->shape[0]);
    case 1: return PyLong_FromSsize_t(o->shape[1]);
    default: return py_asarray(Py_NewRef(self));
    }
}

static PyGetSetDef learned_getset[] = {
    {"max_len", learned_get, NULL, "Rows of the table (positions 0 .. max_len-1).", (void *)0},
    {"dim", learned_get, NULL, "Row length.", (void *)1},
    {"weights", learned_get, NULL, "float32 (max_len, dim): the table itself (a writable view, no copy).", (void *)2},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *learned_forward(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"positions", "out", NULL};
    PyObject *pos_o, *out_o = Py_None, *own, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$O:forward", kwlist, &pos_o, &out_o)) return NULL;
    PyLearned *o = (PyLearned *)self;
    pya pos, out;
    if (py_int64_array(pos_o, "positions", 1, 1, &own, &pos) != 0) return NULL;
    int64_t shape[2] = {pos.shape[0], o->shape[1]};
    if (pya_out(out_o, "out", PE_F32, 2, shape, &out, &r) == 0) {
        int st;
        PY_CALL(out.size, st = pe_learned_forward(o->t, pos.view.buf, pos.shape[0], out.view.buf));
        pya_release(&out);
        if (st != PE_OK) {
            Py_CLEAR(r);
            py_raise(st);
        }
    }
    pya_release(&pos);
    Py_DECREF(own);
    return r;
}

static PyObject *learned_backward(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"positions", "grad_out", "grad_table", NULL};
    PyObject *pos_o, *g_o, *gt_o = Py_None, *own, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:backward", kwlist, &pos_o, &g_o, &gt_o)) return NULL;
    PyLearned *o = (PyLearned *)self;
    int64_t tshape[2] = {o->shape[0], o->shape[1]};
    pya pos, g, gt;
    if (py_int64_array(pos_o, "positions", 1, 1, &own, &pos) != 0) return NULL;
    if (pya_get(g_o, "grad_out", PYA_F32, 0, PYA_CONTIG, 2, 2, &g) == 0) {
        int64_t gshape[2] = {pos.shape[0], o->shape[1]};
        PyObject *fresh = gt_o == Py_None ? pya_zeros(PE_F32, 2, tshape) : NULL;
        if (pya_check_shape(&g, "grad_out", 2, gshape) == 0 && (gt_o != Py_None || fresh) &&
            pya_out(fresh ? fresh : gt_o, "grad_table", PE_F32, 2, tshape, &gt, &r) == 0) {
            if (pya_overlap(&g, &gt)) {
                PyErr_SetString(PyExc_ValueError, "grad_table overlaps grad_out");
                Py_CLEAR(r);
            } else {
                int st;
                PY_CALL(g.size, st = pe_learned_backward(o->t, pos.view.buf, pos.shape[0], g.view.buf, gt.view.buf));
                if (st != PE_OK) {
                    Py_CLEAR(r);
                    py_raise(st);
                }
            }
            pya_release(&gt);
        }
        Py_XDECREF(fresh);
        pya_release(&g);
    }
    pya_release(&pos);
    Py_DECREF(own);
    return r;
}

static PyObject *learned_sgd_step(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"grad_table", "lr", NULL};
    PyObject *gt_o;
    float lr;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Of:sgd_step", kwlist, &gt_o, &lr)) return NULL;
    PyLearned *o = (PyLearned *)self;
    int64_t tshape[2] = {o->shape[0], o->shape[1]};
    pya gt;
    if (pya_get(gt_o, "grad_table", PYA_F32, 0, PYA_CONTIG, 2, 2, &gt) != 0) return NULL;
    int st = PE_OK;
    if (pya_check_shape(&gt, "grad_table", 2, tshape) == 0)
        PY_CALL(gt.size, st = pe_learned_sgd_step(o->t, gt.view.buf, lr));
    pya_release(&gt);
    if (PyErr_Occurred()) return NULL;
    if (st != PE_OK) return py_raise(st);
    Py_RETURN_NONE;
}

static PyObject *learned_save(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"path", NULL};
    PyObject *path;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&:save", kwlist, PyUnicode_FSConverter, &path)) return NULL;
    int st = pe_learned_save(((PyLearned *)self)->t, PyBytes_AS_STRING(path));
    Py_DECREF(path);
    if (st != PE_OK) return py_raise(st);
    Py_RETURN_NONE;
}

static PyObject *learned_load(PyObject *cls, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"path", NULL};
    PyObject *path;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&:load", kwlist, PyUnicode_FSConverter, &path)) return NULL;
    pe_learned *t;
    int st = pe_learned_load(PyBytes_AS_STRING(path), &t);
    Py_DECREF(path);
    return st == PE_OK ? learned_wrap((PyTypeObject *)cls, t) : py_raise(st);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef learned_methods[] = {
    {"forward", KW(learned_forward),
     "forward(positions, *, out=None) -> float32 (count, dim): the rows at positions. A\n"
     "position outside [0, max_len) raises: learned tables cannot extrapolate."},
    {"backward", KW(learned_backward),
     "backward(positions, grad_out, grad_table=None) -> grad_table\n\n"
     "Scatter-add grad_out (count, dim) into grad_table (max_len, dim), zeros when None;\n"
     "repeated positions accumulate."},
    {"sgd_step", KW(learned_sgd_step), "sgd_step(grad_table, lr): W -= lr * grad_table."},
    {"save", KW(learned_save), "save(path): the table as .npy (float32, C order)."},
    {"load", (PyCFunction)(void (*)(void))learned_load, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "LearnedTable.load(path) -> LearnedTable: a float32 2-D .npy."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PyLearned_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "posenc.LearnedTable",
    .tp_basicsize = sizeof(PyLearned),
    .tp_dealloc = learned_dealloc,
    .tp_as_buffer = &learned_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LearnedTable(max_len, dim, seed=0)\n\n"
              "A trainable position table W (max_len, dim), float32, initialised from N(0, 0.02^2)\n"
              "with a documented seeded generator (the same table on every IEEE platform). It\n"
              "exports its weights through the buffer protocol: numpy.asarray(table) and\n"
              ".weights are views, not copies.",
    .tp_getset = learned_getset,
    .tp_methods = learned_methods,
    .tp_new = learned_new,
};

static PyMethodDef methods[] = {
    {"encode", KW(py_encode),
     "encode(scheme, positions, dim, *, scale=1.0, length=0, base=10000.0,\n"
     "       layout='interleaved', convention='paper', dtype='float32', out=None) -> array\n\n"
     "Rows (count, dim) of an additive encoding at positions (a range or integers):\n"
     "'raw' (scale * p), 'normalized' (p / (length - 1)), 'binary' (bits of p, most\n"
     "significant first; length sets the bit count), 'sinusoidal' (layout 'interleaved' or\n"
     "'concatenated', convention 'paper' 2i/D or 't2t' i/(D/2 - 1)). dtype float32 or float64."},
    {"binary_nbits", KW(py_binary_nbits), "binary_nbits(length) -> int: max(1, ceil(log2 length))."},
    {"sinusoidal_frequency", KW(py_sinusoidal_frequency),
     "sinusoidal_frequency(dim, pair, *, base=10000.0, layout='interleaved', convention='paper')\n"
     "    -> float: w_pair."},
    {"shift_matrix", KW(py_shift_matrix),
     "shift_matrix(dim, k, *, base=10000.0, layout='interleaved', convention='paper')\n"
     "    -> float64 (dim, dim): M_k with PE(p + k) = M_k PE(p) for every p."},
    {"shift_apply", KW(py_shift_apply),
     "shift_apply(v, k, *, base=10000.0, layout='interleaved', convention='paper', out=None)\n"
     "    -> float64 (dim,): M_k v without forming the matrix (out=v works in place)."},
    {NULL, NULL, 0, NULL},
};

int py_init_encode(PyObject *m) {
    if (PyType_Ready(&PyLearned_Type) != 0) return -1;
    Py_INCREF(&PyLearned_Type);
    if (PyModule_AddObject(m, "LearnedTable", (PyObject *)&PyLearned_Type) != 0) return -1;
    return PyModule_AddFunctions(m, methods);
}
