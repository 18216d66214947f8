/*
 * py_pool.c — posenc.Pool, the C library's pe_pool (a caller-owned set of
 * worker threads kept between calls), and the `threads=` argument every
 * rotating call takes: an int (threads started per call) or a Pool (its
 * workers). A Pool is destroyed with its last reference; a call holds its
 * arguments, so a Pool cannot go away under a running call.
 */
#include "py_init.h"

typedef struct {
    PyObject_HEAD
    pe_pool *pool;
} PyPool;

static PyTypeObject PyPool_Type;

static PyObject *pool_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"threads", NULL};
    int threads;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i:Pool", kwlist, &threads)) return NULL;
    pe_pool *p;
    int st;
    Py_BEGIN_ALLOW_THREADS st = pe_pool_create(threads, &p);
    Py_END_ALLOW_THREADS if (st != PE_OK) return py_raise(st);
    PyPool *o = (PyPool *)type->tp_alloc(type, 0);
    if (o == NULL) {
        pe_pool_destroy(p);
        return NULL;
    }
    o->pool = p;
    return (PyObject *)o;
}

static void pool_dealloc(PyObject *self) {
    pe_pool *p = ((PyPool *)self)->pool;
    Py_BEGIN_ALLOW_THREADS pe_pool_destroy(p); /* joins the workers */
    Py_END_ALLOW_THREADS Py_TYPE(self)->tp_free(self);
}

static PyObject *pool_threads(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(pe_pool_threads(((PyPool *)self)->pool));
}

static PyObject *pool_repr(PyObject *self) {
    return PyUnicode_FromFormat("posenc.Pool(threads=%d)", pe_pool_threads(((PyPool *)self)->pool));
}

static PyGetSetDef pool_getset[] = {
    {"threads", pool_threads, NULL, "threads the pool runs a call on, the caller's included", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PyPool_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "posenc.Pool",
    .tp_basicsize = sizeof(PyPool),
    .tp_dealloc = pool_dealloc,
    .tp_repr = pool_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Pool(threads)\n\n"
              "threads - 1 worker threads (1..64) kept alive between calls: pass threads=pool to\n"
              "any rotating call instead of a thread count, and its work runs on them instead of\n"
              "on threads started and joined inside the call. Results are the same bits as with\n"
              "threads=<the pool's threads> or 1. Two Python threads may use one pool at once\n"
              "(the second call runs on its own thread). The workers stop when the pool is freed.",
    .tp_getset = pool_getset,
    .tp_new = pool_new,
};

int py_threads_conv(PyObject *o, void *out) {
    py_threads *t = out;
    if (PyObject_TypeCheck(o, &PyPool_Type)) {
        t->threads = 1; /* the pool's own count is used (pe_rope_options.threads) */
        t->pool = ((PyPool *)o)->pool;
        return 1;
    }
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "threads must be an int or a posenc.Pool (got %s)",
                     Py_TYPE(o)->tp_name);
        return 0;
    }
    const long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (v < INT_MIN || v > INT_MAX) { /* the library names the bad value */
        t->threads = v < 0 ? -1 : INT_MAX;
    } else {
        t->threads = (int)v;
    }
    t->pool = NULL;
    return 1;
}

int py_init_pool(PyObject *m) {
    if (PyType_Ready(&PyPool_Type) != 0) return -1;
    Py_INCREF(&PyPool_Type);
    return PyModule_AddObject(m, "Pool", (PyObject *)&PyPool_Type);
}
