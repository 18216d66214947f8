/*
 * module.c — the posenc extension module: its own functions (version,
 * kernels_name), the module definition, and PyInit_posenc, which registers
 * the shared exceptions and types (posenc_py.c) and every area (py_*.c,
 * through py_init.h). The top of python/: nothing calls back into it.
 */
#include "posenc_py.h"
#include "py_init.h"

/* ----------------------------------------------------------------- module */

static PyObject *py_version(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(pe_version_string());
}

static PyObject *py_kernels_name(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(pe_kernels_name());
}

static PyMethodDef core_methods[] = {
    {"version", py_version, METH_NOARGS, "version() -> str: the linked libposenc's MAJOR.MINOR.PATCH."},
    {"kernels_name", py_kernels_name, METH_NOARGS,
     "kernels_name() -> str: the active kernel set ('scalar', 'avx2', ...)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef posenc_module = {
    PyModuleDef_HEAD_INIT,
    "posenc",
    "Transformer positional encodings: the libposenc reference library for numpy.\n\n"
    "Additive encodings (raw, normalized, binary, sinusoidal, learned tables), rotary\n"
    "embeddings (both pair layouts, every frequency scaling scheme, model config.json\n"
    "files, M-RoPE), attention biases (ALiBi, T5), the analyses of the design notes, the\n"
    "reference attention, and .npy/safetensors I/O. Arrays go in and out through the\n"
    "buffer protocol without copies: float32 (and float16, or bfloat16 as uint16, where\n"
    "the library stores them), C-contiguous unless a function says otherwise; out=\n"
    "arguments write into an array you own. Errors raise posenc.Error (a ValueError)\n"
    "or one of its subclasses with the library's sentence naming the bad argument.\n"
    "See docs/PYTHON.md.",
    -1,
    core_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit_posenc(void);
/* Arrays come in and go out as numpy arrays: without numpy the first call
 * would fail deep inside with ModuleNotFoundError, so the import fails
 * instead, saying which interpreter lacks it and how to get it. */
static int require_numpy(void) {
    PyObject *np = PyImport_ImportModule("numpy");
    if (np != NULL) {
        Py_DECREF(np);
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_ImportError)) return -1;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *exe = PySys_GetObject("executable"); /* borrowed */
    PyErr_Format(PyExc_ImportError,
                 "posenc needs numpy, which %S cannot import (%S): install it for this interpreter "
                 "(%S -m pip install numpy), or use Debian's /usr/bin/python3 with python3-numpy "
                 "(scripts/setup-python.sh)",
                 exe ? exe : Py_None, value ? value : Py_None, exe ? exe : Py_None);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return -1;
}

PyMODINIT_FUNC PyInit_posenc(void) {
    if (require_numpy() != 0) return NULL;
    PyObject *m = PyModule_Create(&posenc_module);
    if (m == NULL) return NULL;
    if (py_init_shared(m) != 0) goto fail;
    if (PyModule_AddStringConstant(m, "__version__", pe_version_string()) != 0) goto fail;
    if (py_init_freqs(m) || py_init_rope(m) || py_init_tables(m) || py_init_encode(m) || py_init_bias(m) ||
        py_init_analysis(m) || py_init_io(m) || py_init_plan(m) || py_init_check(m) ||
        py_init_dlpack(m) || py_init_fused(m) || py_init_pool(m) || py_init_torch(m))
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
