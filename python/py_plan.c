/*
 * py_plan.c — posenc.Plan: a checkpoint's per-layer positional plan, from a
 * config.json path or from a dict (serialized with Python's json module and
 * read by the same parser). Thin: every rule lives in src/plan.c.
 */
#include "posenc_py.h"
#include "py_init.h"

typedef struct {
    PyObject_HEAD
    pe_plan *plan;
} PyPlan;

static void plan_dealloc(PyObject *self) {
    pe_plan_free(((PyPlan *)self)->plan);
    Py_TYPE(self)->tp_free(self);
}

static const pe_plan *plan_of(PyObject *self) { return ((PyPlan *)self)->plan; }

static int layer_arg(PyObject *self, long long layer, int64_t *out) {
    int64_t n = pe_plan_num_layers(plan_of(self));
    if (layer < 0) layer += n; /* Python indexing: -1 is the last layer */
    if (layer < 0 || layer >= n) {
        PyErr_Format(PyExc_IndexError, "layer %lld is outside [0, %lld)", layer, (long long)n);
        return -1;
    }
    *out = layer;
    return 0;
}

static const char *dtype_word(pe_dtype t) {
    return t == PE_BF16 ? "bfloat16" : t == PE_F16 ? "float16" : t == PE_F64 ? "float64" : "float32";
}

static PyObject *float_tuple(const double *v, int64_t n) {
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    for (int64_t i = 0; t != NULL && i < n; i++) {
        PyObject *x = PyFloat_FromDouble(v[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, x);
    }
    return t;
}

/* Layer i's positions as a dict: {"kind", kind-specific keys}, the keys of
 * `posenc plan --format json`'s "position". */
static PyObject *position_dict(const pe_plan *plan, int64_t i) {
    pe_plan_position pos;
    int st = pe_plan_layer_position(plan, i, &pos);
    if (st != PE_OK) return py_raise(st);
    const char *kind = pe_position_kind_name(pos.kind);
    switch (pos.kind) {
    case PE_POSITION_ALIBI: {
        pe_plan_alibi a;
        if ((st = pe_plan_layer_alibi(plan, i, &a)) != PE_OK) return py_raise(st);
        double *exact = PyMem_Calloc((size_t)a.heads, sizeof *exact);
        double *hf = PyMem_Calloc((size_t)a.heads, sizeof *hf);
        PyObject *d = NULL;
        if (exact == NULL || hf == NULL) {
            PyErr_NoMemory();
        } else if ((st = pe_plan_layer_alibi_slopes(plan, i, exact, hf)) != PE_OK) {
            py_raise(st);
        } else {
            PyObject *e = float_tuple(exact, a.heads), *h = float_tuple(hf, a.heads);
            if (e != NULL && h != NULL)
                d = Py_BuildValue("{s:s,s:L,s:s,s:d,s:O,s:s,s:O,s:O}", "kind", kind, "heads",
                                  (long long)a.heads, "slope_rule",
                                  a.rule == PE_ALIBI_SLOPES_MPT ? "mpt" : "press", "max_bias",
                                  a.max_bias, "causal", a.causal ? Py_True : Py_False,
                                  "hf_slope_dtype", dtype_word(a.hf_slope_dtype), "slopes", e,
                                  "hf_slopes", h);
            Py_XDECREF(e);
            Py_XDECREF(h);
        }
        PyMem_Free(exact);
        PyMem_Free(hf);
        return d;
    }
    case PE_POSITION_T5: {
        pe_plan_t5 t;
        if ((st = pe_plan_layer_t5(plan, i, &t)) != PE_OK) return py_raise(st);
        return Py_BuildValue("{s:s,s:L,s:L,s:O,s:L,s:O,s:L}", "kind", kind, "num_buckets",
                             (long long)t.num_buckets, "max_distance", (long long)t.max_distance,
                             "bidirectional", t.bidirectional ? Py_True : Py_False, "bias_layer",
                             (long long)t.bias_layer, "owns_bias", t.owns_bias ? Py_True : Py_False,
                             "heads", (long long)t.heads);
    }
    case PE_POSITION_LEARNED: {
        pe_plan_learned l;
        if ((st = pe_plan_layer_learned(plan, i, &l)) != PE_OK) return py_raise(st);
        return Py_BuildValue("{s:s,s:L,s:L,s:L}", "kind", kind, "rows", (long long)l.rows,
                             "offset", (long long)l.offset, "dim", (long long)l.dim);
    }
    case PE_POSITION_SINUSOIDAL: {
        pe_plan_sinusoidal s;
        if ((st = pe_plan_layer_sinusoidal(plan, i, &s)) != PE_OK) return py_raise(st);
        return Py_BuildValue("{s:s,s:d,s:s,s:s,s:L,s:L}", "kind", kind, "base", s.base, "layout",
                             s.layout == PE_SIN_CONCATENATED ? "concatenated" : "interleaved",
                             "convention", s.convention == PE_SIN_FREQ_T2T ? "t2t" : "paper",
                             "offset", (long long)s.offset, "dim", (long long)s.dim);
    }
    case PE_POSITION_NOPE:
    case PE_POSITION_NONE:
        return Py_BuildValue("{s:s,s:s}", "kind", kind, "why", pos.why);
    default:
        return Py_BuildValue("{s:s}", "kind", kind);
    }
}

/* One layer as a dict; keys as in `posenc plan --format json`. */
static PyObject *layer_dict(const pe_plan *plan, int64_t index, const pe_plan_layer *L) {
    PyObject *d = PyDict_New();
    if (d == NULL) return NULL;
    PyObject *mrope = Py_None, *temp = Py_None;
    Py_INCREF(Py_None);
    Py_INCREF(Py_None);
    if (L->n_mrope_section > 0) {
        Py_DECREF(mrope);
        mrope = PyTuple_New((Py_ssize_t)L->n_mrope_section);
        for (int64_t k = 0; mrope && k < L->n_mrope_section; k++)
            PyTuple_SET_ITEM(mrope, (Py_ssize_t)k, PyLong_FromLongLong(L->mrope_section[k]));
    }
    if (L->temperature.active) {
        Py_DECREF(temp);
        temp = Py_BuildValue("{s:d,s:L,s:L}", "beta", L->temperature.beta, "span",
                             (long long)L->temperature.span, "offset",
                             (long long)L->temperature.offset);
    }
    struct { const char *key; PyObject *v; } items[] = {
        {"layer_type", PyUnicode_FromString(L->layer_type)},
        {"attention", PyBool_FromLong(L->attention)},
        {"rope", PyBool_FromLong(L->rope)},
        {"rope_type", L->rope ? PyUnicode_FromString(pe_scaling_name(L->scaling)) : Py_NewRef(Py_None)},
        {"head_dim", PyLong_FromLongLong(L->head_dim)},
        {"rotary_dim", PyLong_FromLongLong(L->rotary_dim)},
        {"layout", L->rope ? PyUnicode_FromString(L->layout == PE_ROPE_HALF ? "half" : "interleaved")
                           : Py_NewRef(Py_None)},
        {"layout_known", PyBool_FromLong(L->layout_known)},
        {"base", L->rope ? PyFloat_FromDouble(L->base) : Py_NewRef(Py_None)},
        {"factor", L->factor == L->factor ? PyFloat_FromDouble(L->factor) : Py_NewRef(Py_None)},
        {"max_position", PyLong_FromLongLong(L->max_position)},
        {"original_max_position", PyLong_FromLongLong(L->original_max_position)},
        {"sliding_window", L->sliding_window > 0 ? PyLong_FromLongLong(L->sliding_window) : Py_NewRef(Py_None)},
        {"chunk_size", L->chunk_size > 0 ? PyLong_FromLongLong(L->chunk_size) : Py_NewRef(Py_None)},
        {"mrope_section", mrope},
        {"mrope_interleaved", PyBool_FromLong(L->mrope_interleaved)},
        {"query_scale", temp},
        {"position", position_dict(plan, index)},
    };
    int ok = 1;
    for (size_t i = 0; i < sizeof items / sizeof *items; i++) {
        if (items[i].v == NULL || PyDict_SetItemString(d, items[i].key, items[i].v) != 0) ok = 0;
        Py_XDECREF(items[i].v);
    }
    if (!ok) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *plan_layer(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"layer", NULL};
    long long layer;
    int64_t l;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L:layer", kwlist, &layer) ||
        layer_arg(self, layer, &l) != 0)
        return NULL;
    pe_plan_layer L;
    int st = pe_plan_layer_info(plan_of(self), l, &L);
    return st == PE_OK ? layer_dict(plan_of(self), l, &L) : py_raise(st);
}

static PyObject *plan_freqs(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"layer", "seq_len", NULL};
    long long layer, seq_len = 0;
    int64_t l;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|L:freqs", kwlist, &layer, &seq_len) ||
        layer_arg(self, layer, &l) != 0)
        return NULL;
    pe_freqs f;
    int st = pe_plan_layer_freqs(plan_of(self), l, seq_len, &f, NULL);
    return st == PE_OK ? py_freqs_wrap(&f, NULL) : py_raise(st);
}

static PyObject *plan_query_scale(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"layer", "position", NULL};
    long long layer, position;
    int64_t l;
    double s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL:query_scale", kwlist, &layer, &position) ||
        layer_arg(self, layer, &l) != 0)
        return NULL;
    int st = pe_plan_layer_query_scale(plan_of(self), l, position, &s);
    return st == PE_OK ? PyFloat_FromDouble(s) : py_raise(st);
}

static PyObject *plan_get(PyObject *self, void *which) {
    const pe_plan *p = plan_of(self);
    switch ((int)(intptr_t)which) {
    case 0: return PyUnicode_FromString(pe_plan_model_type(p));
    case 1: return PyLong_FromLongLong(pe_plan_num_layers(p));
    case 2: return PyLong_FromLongLong(pe_plan_num_rope_kinds(p));
    case 3: {
        int64_t n = pe_plan_num_warnings(p);
        PyObject *t = PyTuple_New((Py_ssize_t)n);
        for (int64_t i = 0; t && i < n; i++) {
            PyObject *w = PyUnicode_FromString(pe_plan_warning(p, i));
            if (w == NULL) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(t, (Py_ssize_t)i, w);
        }
        return t;
    }
    default: {
        int64_t n = pe_plan_num_layers(p);
        PyObject *list = PyList_New((Py_ssize_t)n);
        for (int64_t i = 0; list && i < n; i++) {
            pe_plan_layer L;
            int st = pe_plan_layer_info(p, i, &L);
            PyObject *d = st == PE_OK ? layer_dict(p, i, &L) : py_raise(st);
            if (d == NULL) {
                Py_DECREF(list);
                return NULL;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, d);
        }
        return list;
    }
    }
}

static Py_ssize_t plan_len(PyObject *self) { return (Py_ssize_t)pe_plan_num_layers(plan_of(self)); }

static PyGetSetDef plan_getset[] = {
    {"model_type", plan_get, NULL, "model_type of the decoder config ('' if none).", (void *)0},
    {"num_layers", plan_get, NULL, "Number of decoder layers.", (void *)1},
    {"num_rope_kinds", plan_get, NULL, "Distinct RoPE kinds (layers of one kind share frequencies).", (void *)2},
    {"warnings", plan_get, NULL, "Tuple of what the reader did not understand or assumed.", (void *)3},
    {"layers", plan_get, NULL, "List of per-layer dicts (as layer(i)).", (void *)4},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef plan_methods[] = {
    {"layer", (PyCFunction)(void (*)(void))plan_layer, METH_VARARGS | METH_KEYWORDS,
     "layer(i) -> dict: layer_type, attention, rope, rope_type, head_dim, rotary_dim, layout,\n"
     "base, factor, sliding_window, chunk_size, mrope_section, query_scale (None or\n"
     "{'beta', 'span', 'offset'}: q *= 1 + beta ln(1 + floor((p + offset) / span)))."},
    {"freqs", (PyCFunction)(void (*)(void))plan_freqs, METH_VARARGS | METH_KEYWORDS,
     "freqs(layer, seq_len=0) -> Freqs: the layer's frequencies, magnitude and softmax\n"
     "multiplier at seq_len; posenc.Error for a layer that does not rotate."},
    {"query_scale", (PyCFunction)(void (*)(void))plan_query_scale, METH_VARARGS | METH_KEYWORDS,
     "query_scale(layer, position) -> float: the factor the model multiplies queries by\n"
     "after RoPE at that position (1.0 where it has none)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *plan_repr(PyObject *self) {
    const pe_plan *p = plan_of(self);
    return PyUnicode_FromFormat("posenc.Plan(model_type='%s', num_layers=%lld, num_rope_kinds=%lld)",
                                pe_plan_model_type(p), (long long)pe_plan_num_layers(p),
                                (long long)pe_plan_num_rope_kinds(p));
}

static PySequenceMethods plan_as_sequence = {.sq_length = plan_len};

static PyTypeObject PyPlan_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "posenc.Plan",
    .tp_basicsize = sizeof(PyPlan),
    .tp_dealloc = plan_dealloc,
    .tp_repr = plan_repr,
    .tp_as_sequence = &plan_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A checkpoint's per-layer positional plan (posenc.load_plan).",
    .tp_getset = plan_getset,
    .tp_methods = plan_methods,
};

/* load_plan(path | dict | str text) */
static PyObject *py_load_plan(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"config", "family", NULL};
    PyObject *src;
    const char *family = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|z:load_plan", kwlist, &src, &family))
        return NULL;
    pe_plan *plan = NULL;
    int st;
    if (PyDict_Check(src)) {
        /* Serialize with Python's own json (allow_nan=False: JSON has no
         * NaN) and read the text like a file. */
        PyObject *json = PyImport_ImportModule("json");
        PyObject *text = json ? PyObject_CallMethod(json, "dumps", "O", src) : NULL;
        Py_XDECREF(json);
        if (text == NULL) return NULL;
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(text, &len);
        if (s == NULL) {
            Py_DECREF(text);
            return NULL;
        }
        st = pe_plan_from_config_json_as(s, (size_t)len, family, &plan);
        Py_DECREF(text);
    } else {
        PyObject *path;
        if (!PyUnicode_FSConverter(src, &path)) {
            PyErr_Format(PyExc_TypeError, "config must be a path or a dict, not %s",
                         Py_TYPE(src)->tp_name);
            return NULL;
        }
        st = pe_plan_from_config_file_as(PyBytes_AS_STRING(path), family, &plan);
        Py_DECREF(path);
    }
    if (st != PE_OK) return py_raise(st);
    PyPlan *o = PyObject_New(PyPlan, &PyPlan_Type);
    if (o == NULL) {
        pe_plan_free(plan);
        return NULL;
    }
    o->plan = plan;
    return (PyObject *)o;
}

/* families() -> list of the registry's records. */
static PyObject *py_families(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    int64_t n = pe_family_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (int64_t i = 0; list != NULL && i < n; i++) {
        pe_family_info f;
        int st = pe_family_get(i, &f);
        if (st != PE_OK) {
            Py_DECREF(list);
            return py_raise(st);
        }
        PyObject *names = PyList_New(0), *kinds = NULL;
        for (int k = 0; names != NULL && k < 32; k++) {
            if (!(f.kinds & (1u << k))) continue;
            PyObject *name = PyUnicode_FromString(pe_position_kind_name((pe_position_kind)k));
            if (name == NULL || PyList_Append(names, name) != 0) Py_CLEAR(names);
            Py_XDECREF(name);
        }
        if (names != NULL) kinds = PyList_AsTuple(names);
        Py_XDECREF(names);
        PyObject *d = kinds ? Py_BuildValue("{s:s,s:O,s:s,s:z}", "model_type", f.model_type,
                                            "kinds", kinds, "source", f.source, "refusal",
                                            f.refusal)
                            : NULL;
        Py_XDECREF(kinds);
        if (d == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, d);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"load_plan", (PyCFunction)(void (*)(void))py_load_plan, METH_VARARGS | METH_KEYWORDS,
     "load_plan(config, family=None) -> Plan: the per-layer positional plan of a Hugging\n"
     "Face config.json (a path) or of its contents as a dict, read the way the checkpoint's\n"
     "own code builds its layers (docs/SCALING.md, section 6). A model_type outside the\n"
     "family registry (docs/FAMILIES.md) raises posenc.Error naming the closest families;\n"
     "family='NAME' reads the config as that family on purpose. Each layer dict has a\n"
     "'position': {'kind': 'rope'|'nope'|'alibi'|'t5'|'learned'|'sinusoidal'|'none', ...}."},
    {"families", py_families, METH_NOARGS,
     "families() -> list of {'model_type', 'kinds', 'source', 'refusal'}: the family registry."},
    {NULL, NULL, 0, NULL},
};

int py_init_plan(PyObject *m) {
    if (PyType_Ready(&PyPlan_Type) != 0) return -1;
    Py_INCREF(&PyPlan_Type);
    if (PyModule_AddObject(m, "Plan", (PyObject *)&PyPlan_Type) != 0) return -1;
    return PyModule_AddFunctions(m, methods);
}
