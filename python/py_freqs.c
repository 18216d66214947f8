/*
 * py_freqs.c — frequencies: the Freqs type (a pe_freqs), the default and
 * scaling generators, YaRN's correction range, and model config.json files
 * (the RopeConfig type).
 */
#include "posenc_py.h"
#include "py_init.h"

#include <math.h>
#include <string.h>

/* A new float64 array holding n doubles. */
static PyObject *f64_copy(const double *src, int64_t n) {
    pya a;
    PyObject *r;
    if (pya_out(NULL, "array", PE_F64, 1, &n, &a, &r) != 0) return NULL;
    if (n > 0) memcpy(a.view.buf, src, sizeof(double) * (size_t)n);
    pya_release(&a);
    return r;
}

/* ------------------------------------------------------------------ Freqs */

static void freqs_dealloc(PyObject *self) {
    PyFreqs *f = (PyFreqs *)self;
    PyMem_Free(f->f);
    Py_XDECREF(f->interp);
    Py_TYPE(self)->tp_free(self);
}

PyObject *py_freqs_wrap(const pe_freqs *src, PyObject *interp) {
    PyFreqs *f = PyObject_New(PyFreqs, &PyFreqs_Type);
    if (f == NULL) return NULL;
    f->f = PyMem_Malloc(sizeof *f->f);
    f->interp = Py_NewRef(interp ? interp : Py_None);
    if (f->f == NULL) {
        Py_DECREF(f);
        return PyErr_NoMemory();
    }
    *f->f = *src;
    return (PyObject *)f;
}

const pe_freqs *py_freqs_arg(PyObject *obj, const char *name) {
    if (!PyObject_TypeCheck(obj, &PyFreqs_Type)) {
        PyErr_Format(PyExc_TypeError, "%s must be a posenc.Freqs (from freqs_default, "
                                      "freqs_from_scaling or RopeConfig.freqs), got %s",
                     name, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return ((PyFreqs *)obj)->f;
}

static PyObject *freqs_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)type;
    static char *kwlist[] = {"inv_freq", "inv_freq_lo", "attention_factor", "softmax_scale_multiplier", NULL};
    PyObject *hi_o, *lo_o = Py_None, *owner_hi = NULL, *owner_lo = NULL;
    double af = 1.0, sm = 1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Odd:Freqs", kwlist, &hi_o, &lo_o, &af, &sm)) return NULL;
    pya hi, lo = {0};
    if (py_f64_array(hi_o, "inv_freq", 1, 1, &owner_hi, &hi) != 0) return NULL;
    PyObject *result = NULL;
    pe_freqs *f = PyMem_Calloc(1, sizeof *f);
    if (f == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (lo_o != Py_None) {
        if (py_f64_array(lo_o, "inv_freq_lo", 1, 1, &owner_lo, &lo) != 0) goto done;
        if (pya_check_shape(&lo, "inv_freq_lo", 1, hi.shape) != 0) goto done;
    }
    if (hi.shape[0] < 1 || hi.shape[0] > PE_MAX_PAIRS) {
        PyErr_Format(PyExc_ValueError, "inv_freq has %lld pairs, want 1 to %d", (long long)hi.shape[0],
                     PE_MAX_PAIRS);
        goto done;
    }
    f->rotary_dim = 2 * hi.shape[0];
    f->attention_factor = af;
    f->softmax_scale_multiplier = sm;
    memcpy(f->inv_freq, hi.view.buf, sizeof(double) * (size_t)hi.shape[0]);
    if (lo.view.obj) memcpy(f->inv_freq_lo, lo.view.buf, sizeof(double) * (size_t)hi.shape[0]);
    int st = pe_freqs_validate(f);
    result = st == PE_OK ? py_freqs_wrap(f, NULL) : py_raise(st);
done:
    PyMem_Free(f);
    pya_release(&hi);
    pya_release(&lo);
    Py_XDECREF(owner_hi);
    Py_XDECREF(owner_lo);
    return result;
}

static PyObject *freqs_get(PyObject *self, void *which) {
    const pe_freqs *f = ((PyFreqs *)self)->f;
    switch ((int)(intptr_t)which) {
    case 0: return PyLong_FromLongLong(f->rotary_dim);
    case 1: return PyFloat_FromDouble(f->attention_factor);
    case 2: return PyFloat_FromDouble(f->softmax_scale_multiplier);
    case 3: return f64_copy(f->inv_freq, f->rotary_dim / 2);
    case 4: return f64_copy(f->inv_freq_lo, f->rotary_dim / 2);
    default: return Py_NewRef(((PyFreqs *)self)->interp);
    }
}

static PyGetSetDef freqs_getset[] = {
    {"rotary_dim", freqs_get, NULL, "d: the rotated elements of a head (2 x pairs).", (void *)0},
    {"attention_factor", freqs_get, NULL, "Magnitude A applied to rotated pairs.", (void *)1},
    {"softmax_scale_multiplier", freqs_get, NULL, "Multiplier of the softmax scale (DeepSeek YaRN).", (void *)2},
    {"inv_freq", freqs_get, NULL, "float64 (d/2,): w'_i, the high parts (a copy).", (void *)3},
    {"inv_freq_lo", freqs_get, NULL, "float64 (d/2,): the low parts of the double-double w'_i.", (void *)4},
    {"interp_weight", freqs_get, NULL,
     "float64 (d/2,) weight of the unscaled w_i (YaRN, Llama 3), NaN for other schemes, or None.", (void *)5},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *freqs_repr(PyObject *self) {
    const pe_freqs *f = ((PyFreqs *)self)->f;
    char buf[160];
    snprintf(buf, sizeof buf, "posenc.Freqs(rotary_dim=%lld, attention_factor=%.17g, inv_freq[0]=%.17g)",
             (long long)f->rotary_dim, f->attention_factor, f->inv_freq[0]);
    return PyUnicode_FromString(buf);
}

PyTypeObject PyFreqs_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "posenc.Freqs",
    .tp_basicsize = sizeof(PyFreqs),
    .tp_dealloc = freqs_dealloc,
    .tp_repr = freqs_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Freqs(inv_freq, inv_freq_lo=None, attention_factor=1.0, softmax_scale_multiplier=1.0)\n\n"
              "RoPE frequencies w'_i (double-double: inv_freq + inv_freq_lo), the magnitude A and\n"
              "the softmax-scale multiplier: what every rotation consumes. Usually made by\n"
              "freqs_default(), freqs_from_scaling() or RopeConfig.freqs(); this constructor\n"
              "validates hand-made values (finite, non-negative, A > 0).",
    .tp_getset = freqs_getset,
    .tp_new = freqs_new,
};

/* ------------------------------------------------------------- generators */

static PyObject *py_freqs_default(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"rotary_dim", "base", NULL};
    long long d;
    double base = 10000.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|d:freqs_default", kwlist, &d, &base)) return NULL;
    pe_freqs f;
    int st = pe_freqs_default(d, base, &f);
    return st == PE_OK ? py_freqs_wrap(&f, NULL) : py_raise(st);
}

/* One parameter's value for Python (kind from the library's table): a
 * float, an int, a bool, a float64 array or None for an empty list. */
static PyObject *param_value(const pe_rope_scaling *s, int i) {
    switch (pe_scaling_param_get(i)->kind) {
    case PE_SCALING_PARAM_REAL: {
        double v;
        return pe_scaling_get_real(s, i, &v) == PE_OK ? PyFloat_FromDouble(v) : py_raise(PE_ERR_PARAM);
    }
    case PE_SCALING_PARAM_INT:
    case PE_SCALING_PARAM_BOOL: {
        int64_t v;
        if (pe_scaling_get_int(s, i, &v) != PE_OK) return py_raise(PE_ERR_PARAM);
        return pe_scaling_param_get(i)->kind == PE_SCALING_PARAM_BOOL ? PyBool_FromLong(v != 0)
                                                                       : PyLong_FromLongLong(v);
    }
    case PE_SCALING_PARAM_LIST: {
        const double *v;
        int64_t n;
        if (pe_scaling_get_list(s, i, &v, &n) != PE_OK) return py_raise(PE_ERR_PARAM);
        return v != NULL && n > 0 ? f64_copy(v, n) : Py_NewRef(Py_None);
    }
    }
    return Py_NewRef(Py_None);
}

int py_scaling_params_into(PyObject *d, const pe_rope_scaling *s) {
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        if (!pe_scaling_reads(s->type, i)) continue;
        PyObject *v = param_value(s, i);
        if (v == NULL || PyDict_SetItemString(d, pe_scaling_param_get(i)->name, v) != 0) {
            Py_XDECREF(v);
            return -1;
        }
        Py_DECREF(v);
    }
    return 0;
}

/* rope_type, head_dim, rotary_dim, base and every parameter the scheme
 * reads, by its freqs_from_scaling keyword (the library's table), so the
 * dict goes back in: freqs_from_scaling(d.pop("rope_type"), d.pop("head_dim"), **d). */
static PyObject *scaling_dict(const pe_rope_scaling *s) {
    PyObject *d = Py_BuildValue("{s:s,s:L,s:L,s:d}", "rope_type", pe_scaling_name(s->type),
                                "head_dim", (long long)s->head_dim, "rotary_dim",
                                (long long)s->rotary_dim, "base", s->base);
    if (d != NULL && py_scaling_params_into(d, s) != 0) Py_CLEAR(d);
    return d;
}

/* Run a scaling struct through the generator: a Freqs with interp_weight. */
static PyObject *freqs_from(const pe_rope_scaling *s, int64_t seq_len, const pe_rope_config *config) {
    pe_freqs f;
    double w[PE_MAX_PAIRS];
    int st = config ? pe_config_freqs(config, seq_len, &f, w) : pe_freqs_from_scaling(s, &f, w);
    if (st != PE_OK) return py_raise(st);
    PyObject *interp = f64_copy(w, f.rotary_dim / 2);
    if (interp == NULL) return NULL;
    PyObject *r = py_freqs_wrap(&f, interp);
    Py_DECREF(interp);
    return r;
}

/* One scheme parameter given as keyword i into *s (kind from the
 * library's table). Every keyword is converted, so a wrong type raises even
 * for a scheme that ignores it; only the scheme's own are stored. The list
 * owners stay alive in own[] / lists[] until the generator has run. */
static int set_param(pe_rope_scaling *s, int i, PyObject *v, PyObject **own, pya *list) {
    const pe_scaling_param *p = pe_scaling_param_get(i);
    const int stores = pe_scaling_reads(s->type, i);
    if (v == Py_None) return 0; /* None keeps the library's default */
    switch (p->kind) {
    case PE_SCALING_PARAM_REAL: {
        double d = PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) return -1;
        if (stores) pe_scaling_set_real(s, i, d);
        return 0;
    }
    case PE_SCALING_PARAM_INT: {
        long long n = PyLong_AsLongLong(v);
        if (n == -1 && PyErr_Occurred()) return -1;
        if (stores) pe_scaling_set_int(s, i, n);
        return 0;
    }
    case PE_SCALING_PARAM_BOOL: {
        int b = PyObject_IsTrue(v);
        if (b < 0) return -1;
        if (stores) pe_scaling_set_int(s, i, b);
        return 0;
    }
    case PE_SCALING_PARAM_LIST:
        if (py_f64_array(v, p->name, 1, 1, own, list) != 0) return -1;
        if (stores) pe_scaling_set_list(s, i, (const double *)list->view.buf, list->shape[0]);
        return 0;
    }
    return 0;
}

#define MAX_SCALING_PARAMS 32

/* freqs_from_scaling(rope_type, head_dim, *, rotary_dim, base, <every scheme
 * parameter of the library's table>): the keywords are the table's names,
 * so a scheme or parameter added to the library needs no edit here. */
static PyObject *py_freqs_from_scaling(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"rope_type", "head_dim", "rotary_dim", "base", NULL};
    const char *type_name;
    long long head_dim;
    PyObject *rot = NULL, *base = NULL, *fixed_kw = NULL;
    const int np = pe_scaling_num_params() < MAX_SCALING_PARAMS ? pe_scaling_num_params()
                                                                : MAX_SCALING_PARAMS;
    PyObject *given[MAX_SCALING_PARAMS] = {NULL};
    /* Split the keywords: the fixed four go to the ordinary parser, the
     * rest must be names of the table. */
    if (kw != NULL) {
        fixed_kw = PyDict_New();
        if (fixed_kw == NULL) return NULL;
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kw, &pos, &key, &value)) {
            const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
            if (k == NULL) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "keywords must be strings");
                Py_DECREF(fixed_kw);
                return NULL;
            }
            int found = -1;
            for (int i = 0; i < np && found < 0; i++)
                if (strcmp(k, pe_scaling_param_get(i)->name) == 0) found = i;
            if (found >= 0) {
                given[found] = value; /* borrowed from kw, alive for the call */
            } else if (PyDict_SetItem(fixed_kw, key, value) != 0) {
                Py_DECREF(fixed_kw);
                return NULL;
            }
        }
    }
    int ok = PyArg_ParseTupleAndKeywords(args, fixed_kw, "sL|$OO:freqs_from_scaling", kwlist,
                                         &type_name, &head_dim, &rot, &base);
    Py_XDECREF(fixed_kw);
    if (!ok) return NULL;
    pe_scaling_type type;
    if (pe_scaling_from_name(type_name, &type) != PE_OK) {
        char names[512] = "";
        for (int t = 0; t < pe_scaling_count(); t++) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", t ? ", " : "",
                     pe_scaling_name((pe_scaling_type)t));
        }
        PyErr_Format(PyExc_ValueError, "rope_type='%s' is not one of %s", type_name, names);
        return NULL;
    }
    /* Library defaults first; only the keywords given override them. */
    pe_rope_scaling s = pe_rope_scaling_defaults(type, head_dim);
    if (rot != NULL && rot != Py_None) {
        long long d = PyLong_AsLongLong(rot);
        if (d == -1 && PyErr_Occurred()) return NULL;
        s.rotary_dim = d;
    }
    if (base != NULL && base != Py_None) {
        double b = PyFloat_AsDouble(base);
        if (b == -1.0 && PyErr_Occurred()) return NULL;
        s.base = b;
    }
    PyObject *own[MAX_SCALING_PARAMS] = {NULL}, *r = NULL;
    pya lists[MAX_SCALING_PARAMS];
    memset(lists, 0, sizeof lists);
    int i = 0;
    for (; i < np; i++)
        if (given[i] != NULL && set_param(&s, i, given[i], &own[i], &lists[i]) != 0) break;
    if (i == np) r = freqs_from(&s, 0, NULL);
    for (int k = 0; k < np; k++) {
        pya_release(&lists[k]);
        Py_XDECREF(own[k]);
    }
    return r;
}

/* The library's scheme table: [{"name", "help", "params": [keyword, ...]}]
 * in enum order, so callers (and the tests) need no list of their own. */
static PyObject *py_scaling_schemes(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyObject *out = PyList_New(0);
    for (int t = 0; out != NULL && t < pe_scaling_count(); t++) {
        PyObject *names = PyList_New(0), *row = NULL;
        for (int i = 0; names != NULL && i < pe_scaling_num_params(); i++) {
            if (!pe_scaling_reads((pe_scaling_type)t, i)) continue;
            PyObject *n = PyUnicode_FromString(pe_scaling_param_get(i)->name);
            if (n == NULL || PyList_Append(names, n) != 0) Py_CLEAR(names);
            Py_XDECREF(n);
        }
        if (names != NULL)
            row = Py_BuildValue("{s:s,s:s,s:O}", "name", pe_scaling_name((pe_scaling_type)t), "help",
                                pe_scaling_help((pe_scaling_type)t), "params", names);
        Py_XDECREF(names);
        if (row == NULL || PyList_Append(out, row) != 0) Py_CLEAR(out);
        Py_XDECREF(row);
    }
    return out;
}

/* The parameter rows: [{"name", "kind", "help", "config_key"}]. */
static PyObject *py_scaling_params(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    static const char *const kinds[] = {"real", "int", "bool", "list"};
    PyObject *out = PyList_New(0);
    for (int i = 0; out != NULL && i < pe_scaling_num_params(); i++) {
        const pe_scaling_param *p = pe_scaling_param_get(i);
        PyObject *row = Py_BuildValue("{s:s,s:s,s:s,s:z}", "name", p->name, "kind",
                                      kinds[(unsigned)p->kind < 4 ? p->kind : 0], "help", p->help,
                                      "config_key", p->config_key);
        if (row == NULL || PyList_Append(out, row) != 0) Py_CLEAR(out);
        Py_XDECREF(row);
    }
    return out;
}

static PyObject *py_yarn_correction_range(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"rotary_dim", "base", "original_max_position", "beta_fast", "beta_slow",
                             "truncate", NULL};
    long long d, l0;
    double base, bf = 32.0, bs = 1.0, lo, hi;
    int truncate = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LdL|ddp:yarn_correction_range", kwlist, &d, &base, &l0,
                                     &bf, &bs, &truncate))
        return NULL;
    int st = pe_yarn_correction_range(d, base, l0, bf, bs, truncate, &lo, &hi);
    if (st != PE_OK) return py_raise(st);
    return Py_BuildValue("(dd)", lo, hi);
}

/* -------------------------------------------------------------- RopeConfig */

typedef struct {
    PyObject_HEAD
    pe_rope_config *c;
} PyRopeConfigObject;

static void config_dealloc(PyObject *self) {
    PyMem_Free(((PyRopeConfigObject *)self)->c);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *config_get(PyObject *self, void *which) {
    const pe_rope_config *c = ((PyRopeConfigObject *)self)->c;
    switch ((int)(intptr_t)which) {
    case 0: return PyUnicode_FromString(c->model_type);
    case 1: return PyUnicode_FromString(c->layout == PE_ROPE_HALF ? "half" : "interleaved");
    case 2: return PyBool_FromLong(c->layout_known);
    case 3: return PyUnicode_FromString(pe_scaling_name(c->scaling.type));
    case 4: return PyLong_FromLongLong(c->scaling.head_dim);
    case 5: return PyLong_FromLongLong(c->scaling.rotary_dim);
    default: return PyFloat_FromDouble(c->scaling.base);
    }
}

static PyGetSetDef config_getset[] = {
    {"model_type", config_get, NULL, "The config's model_type ('' if absent).", (void *)0},
    {"layout", config_get, NULL, "Pair layout the checkpoint's code uses: 'half' or 'interleaved'.", (void *)1},
    {"layout_known", config_get, NULL, "False when model_type is not in the table (layout then 'half').", (void *)2},
    {"rope_type", config_get, NULL, "Scaling scheme: 'default', 'linear', 'yarn', ...", (void *)3},
    {"head_dim", config_get, NULL, "Head dimension D.", (void *)4},
    {"rotary_dim", config_get, NULL, "Rotated slice d of each head.", (void *)5},
    {"base", config_get, NULL, "rope_theta.", (void *)6},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *config_scaling(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"seq_len", NULL};
    long long seq_len = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|L:scaling", kwlist, &seq_len)) return NULL;
    pe_rope_scaling s;
    int st = pe_config_scaling(((PyRopeConfigObject *)self)->c, seq_len, &s);
    return st == PE_OK ? scaling_dict(&s) : py_raise(st);
}

static PyObject *config_freqs(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"seq_len", NULL};
    long long seq_len = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|L:freqs", kwlist, &seq_len)) return NULL;
    return freqs_from(NULL, seq_len, ((PyRopeConfigObject *)self)->c);
}

static PyMethodDef config_methods[] = {
    {"freqs", (PyCFunction)(void (*)(void))config_freqs, METH_VARARGS | METH_KEYWORDS,
     "freqs(seq_len=0) -> Freqs: exactly the frequencies the checkpoint was trained with\n"
     "(seq_len, the largest position + 1, matters for dynamic NTK and LongRoPE)."},
    {"scaling", (PyCFunction)(void (*)(void))config_scaling, METH_VARARGS | METH_KEYWORDS,
     "scaling(seq_len=0) -> dict: rope_type, head_dim, rotary_dim, base and every parameter\n"
     "its scheme reads, as the config states it, by freqs_from_scaling's keywords."},
    {NULL, NULL, 0, NULL},
};

static PyObject *config_repr(PyObject *self) {
    const pe_rope_config *c = ((PyRopeConfigObject *)self)->c;
    return PyUnicode_FromFormat("posenc.RopeConfig(model_type='%s', rope_type='%s', head_dim=%lld, rotary_dim=%lld, layout='%s')",
                                c->model_type, pe_scaling_name(c->scaling.type), (long long)c->scaling.head_dim,
                                (long long)c->scaling.rotary_dim, c->layout == PE_ROPE_HALF ? "half" : "interleaved");
}

static PyTypeObject PyRopeConfig_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "posenc.RopeConfig",
    .tp_basicsize = sizeof(PyRopeConfigObject),
    .tp_dealloc = config_dealloc,
    .tp_repr = config_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A model's RoPE as its Hugging Face config.json describes it (read_config, parse_config).",
    .tp_getset = config_getset,
    .tp_methods = config_methods,
};

static PyObject *config_result(pe_rope_config *c, int st) {
    if (st != PE_OK) {
        PyMem_Free(c);
        return py_raise(st);
    }
    PyRopeConfigObject *o = PyObject_New(PyRopeConfigObject, &PyRopeConfig_Type);
    if (o == NULL) {
        PyMem_Free(c);
        return NULL;
    }
    o->c = c;
    return (PyObject *)o;
}

static PyObject *py_read_config(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"path", "family", NULL};
    PyObject *path;
    const char *family = NULL; /* None: the config's own model_type */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|z:read_config", kwlist, PyUnicode_FSConverter, &path,
                                     &family))
        return NULL;
    pe_rope_config *c = PyMem_Malloc(sizeof *c);
    if (c == NULL) {
        Py_DECREF(path);
        return PyErr_NoMemory();
    }
    int st = pe_config_read_as(PyBytes_AS_STRING(path), family, c);
    Py_DECREF(path);
    return config_result(c, st);
}

static PyObject *py_parse_config(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"text", "family", NULL};
    const char *text, *family = NULL;
    Py_ssize_t len;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|z:parse_config", kwlist, &text, &len, &family))
        return NULL;
    pe_rope_config *c = PyMem_Malloc(sizeof *c);
    if (c == NULL) return PyErr_NoMemory();
    return config_result(c, pe_config_parse_as(text, (size_t)len, family, c));
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef methods[] = {
    {"freqs_default", KW(py_freqs_default),
     "freqs_default(rotary_dim, base=10000.0) -> Freqs\n\n"
     "Default RoPE frequencies w_i = base^(-2i/d) (double-double), A = 1."},
    {"freqs_from_scaling", KW(py_freqs_from_scaling), NULL /* freqs_from_scaling_doc() */},
    {"scaling_schemes", (PyCFunction)(void (*)(void))py_scaling_schemes, METH_NOARGS,
     "scaling_schemes() -> list of {'name', 'help', 'params'}: every scheme the library\n"
     "knows, in the order of its enum, with the freqs_from_scaling keywords it reads."},
    {"scaling_params", (PyCFunction)(void (*)(void))py_scaling_params, METH_NOARGS,
     "scaling_params() -> list of {'name', 'kind', 'help', 'config_key'}: every keyword of\n"
     "freqs_from_scaling beyond rotary_dim and base ('real', 'int', 'bool' or 'list')."},
    {"yarn_correction_range", KW(py_yarn_correction_range),
     "yarn_correction_range(rotary_dim, base, original_max_position, beta_fast=32.0,\n"
     "    beta_slow=1.0, truncate=True) -> (low, high)"},
    {"read_config", KW(py_read_config),
     "read_config(path, family=None) -> RopeConfig: a Hugging Face config.json, read the way\n"
     "the checkpoint's own code reads it. A model_type that is not in posenc's family registry\n"
     "(posenc.families()) raises posenc.Error naming the closest families; family='NAME' reads\n"
     "the config as that family on purpose (as load_plan's family=)."},
    {"parse_config", KW(py_parse_config),
     "parse_config(text, family=None) -> RopeConfig: config.json text (family= as read_config)."},
    {NULL, NULL, 0, NULL},
};

/* freqs_from_scaling's docstring, its keywords and schemes generated from
 * the library's scheme table. Built once; the module keeps it. */
static const char *freqs_from_scaling_doc(void) {
    static char doc[4096];
    if (doc[0]) return doc;
    size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(doc + n, n < sizeof doc ? sizeof doc - n : 0, __VA_ARGS__))
    ADD("freqs_from_scaling(rope_type, head_dim, *, rotary_dim=None, base=None");
    for (int i = 0; i < pe_scaling_num_params(); i++) ADD(", %s=None", pe_scaling_param_get(i)->name);
    ADD(") -> Freqs\n\nFrequencies of a scaling scheme (names as Hugging Face's rope_type):\n");
    for (int t = 0; t < pe_scaling_count(); t++) {
        ADD("  '%s': %s", pe_scaling_name((pe_scaling_type)t), pe_scaling_help((pe_scaling_type)t));
        const char *sep = "; reads ";
        for (int i = 0; i < pe_scaling_num_params(); i++)
            if (pe_scaling_reads((pe_scaling_type)t, i)) {
                ADD("%s%s", sep, pe_scaling_param_get(i)->name);
                sep = ", ";
            }
        ADD("\n");
    }
    ADD("Keywords left at None keep the library's defaults (docs/SCALING.md); a keyword the\n"
        "scheme does not read is ignored. The result's interp_weight holds YaRN's / Llama 3's\n"
        "per-pair ramp.");
#undef ADD
    return doc;
}

int py_init_freqs(PyObject *m) {
    for (PyMethodDef *d = methods; d->ml_name; d++)
        if (strcmp(d->ml_name, "freqs_from_scaling") == 0) d->ml_doc = freqs_from_scaling_doc();
    if (PyType_Ready(&PyFreqs_Type) != 0 || PyType_Ready(&PyRopeConfig_Type) != 0) return -1;
    Py_INCREF(&PyFreqs_Type);
    if (PyModule_AddObject(m, "Freqs", (PyObject *)&PyFreqs_Type) != 0) return -1;
    Py_INCREF(&PyRopeConfig_Type);
    if (PyModule_AddObject(m, "RopeConfig", (PyObject *)&PyRopeConfig_Type) != 0) return -1;
    return PyModule_AddFunctions(m, methods);
}
