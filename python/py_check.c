/*
 * py_check.c — posenc.check: an engine's dumped rotation (or cos/sin cache)
 * of one layer against a checkpoint's plan, through pe_check_rotation /
 * pe_check_cos_sin. The plan comes from a config.json path or dict, a GGUF
 * path, or a Freqs with its layout. Thin: every rule lives in src/check.c.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

/* The expectation from `config` (path, dict, or Freqs + layout) at seq_len;
 * layout, when given, is the engine's pairing and overrides the config's
 * convention (checked before anything is read). *plan_out keeps the plan
 * alive (ex->scaling's LongRoPE lists point into it) until the check is
 * done: pe_plan_free it then. */
static int expect_from(PyObject *config, const char *family, int64_t layer, int64_t seq_len,
                       const char *layout, pe_check_expect *ex, pe_plan **plan_out) {
    pe_rope_layout l = PE_ROPE_HALF;
    if (layout != NULL && py_layout(layout, &l) != 0) return -1;
    if (PyObject_TypeCheck(config, &PyFreqs_Type)) {
        if (layout == NULL) {
            PyErr_SetString(PyExc_TypeError, "check with a Freqs needs layout='interleaved' or 'half'");
            return -1;
        }
        if (family != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "family= reads a config.json or .gguf as a registry family; a Freqs has none");
            return -1;
        }
        int st = pe_check_expect_from_freqs(py_freqs_arg(config, "config"), l, ex);
        if (st != PE_OK) {
            py_raise(st);
            return -1;
        }
        return 0;
    }
    pe_plan *plan = NULL;
    int st;
    if (PyDict_Check(config)) {
        PyObject *json = PyImport_ImportModule("json");
        PyObject *text = json ? PyObject_CallMethod(json, "dumps", "O", config) : NULL;
        Py_XDECREF(json);
        if (text == NULL) return -1;
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(text, &len);
        st = s ? pe_plan_from_config_json_as(s, (size_t)len, family, &plan) : PE_ERR_PARAM;
        Py_DECREF(text);
        if (s == NULL) return -1;
    } else {
        PyObject *path;
        if (!PyUnicode_FSConverter(config, &path)) {
            PyErr_Format(PyExc_TypeError, "config must be a config.json or .gguf path, a dict or a Freqs, not %s",
                         Py_TYPE(config)->tp_name);
            return -1;
        }
        const char *p = PyBytes_AS_STRING(path);
        size_t n = strlen(p);
        st = n >= 5 && strcmp(p + n - 5, ".gguf") == 0 ? pe_plan_from_gguf_as(p, family, &plan)
                                                        : pe_plan_from_config_file_as(p, family, &plan);
        Py_DECREF(path);
    }
    if (st == PE_OK) {
        int64_t nl = pe_plan_num_layers(plan);
        if (layer < 0) layer += nl; /* Python indexing */
        st = pe_check_expect_from_plan(plan, layer, seq_len, ex);
        if (st == PE_OK && layout != NULL) ex->layout = l;
    }
    *plan_out = plan;
    if (st != PE_OK) {
        py_raise(st);
        return -1;
    }
    return 0;
}

static PyObject *report_dict(const pe_check_expect *ex, const pe_check_report *r) {
    PyObject *diag = PyList_New(0);
    for (int k = 0; diag && k < r->n_diagnoses; k++) {
        const pe_check_diagnosis *g = &r->diagnoses[k];
        PyObject *d = Py_BuildValue("{s:s,s:d,s:d,s:s,s:s,s:s}", "name", pe_diagnosis_name(g->name), "residual",
                                    g->residual, "max_err", g->max_err, "detail", g->detail, "layout",
                                    g->layout == PE_ROPE_INTERLEAVED ? "interleaved" : "half", "angles",
                                    pe_check_angles_name(g->angles));
        if (d == NULL || PyList_Append(diag, d) != 0) Py_CLEAR(diag);
        Py_XDECREF(d);
    }
    PyObject *first = r->first_token < 0 ? Py_NewRef(Py_None)
                      : r->first_pair < 0
                          ? Py_BuildValue("{s:L,s:L,s:O}", "token", (long long)r->first_token, "head",
                                          (long long)r->first_head, "pair", Py_None)
                          : Py_BuildValue("{s:L,s:L,s:L}", "token", (long long)r->first_token, "head",
                                          (long long)r->first_head, "pair", (long long)r->first_pair);
    int64_t shape[2] = {r->n_bins, r->n_bands};
    PyObject *err = pya_zeros(PE_F64, 2, shape), *pred = pya_zeros(PE_F64, 2, shape);
    PyObject *bins = PyList_New(0), *bands = PyList_New(0);
    if (err && pred && bins && bands) {
        Py_buffer be, bp;
        if (PyObject_GetBuffer(err, &be, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) == 0) {
            if (PyObject_GetBuffer(pred, &bp, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) == 0) {
                for (int64_t i = 0; i < r->n_bins; i++)
                    for (int64_t b = 0; b < r->n_bands; b++) {
                        ((double *)be.buf)[i * r->n_bands + b] = r->err[i][b];
                        ((double *)bp.buf)[i * r->n_bands + b] = r->pred[i][b];
                    }
                PyBuffer_Release(&bp);
            }
            PyBuffer_Release(&be);
        }
        for (int64_t i = 0; i < r->n_bins; i++) {
            PyObject *t = Py_BuildValue("(LL)", (long long)r->bin_lo[i], (long long)r->bin_hi[i]);
            if (t == NULL || PyList_Append(bins, t) != 0) Py_CLEAR(bins);
            Py_XDECREF(t);
            if (bins == NULL) break;
        }
        for (int64_t b = 0; bins && b < r->n_bands; b++) {
            PyObject *t = Py_BuildValue("(LL)", (long long)r->band_lo[b], (long long)r->band_hi[b]);
            if (t == NULL || PyList_Append(bands, t) != 0) Py_CLEAR(bands);
            Py_XDECREF(t);
            if (bands == NULL) break;
        }
    }
    PyObject *out = NULL;
    if (diag && first && err && pred && bins && bands && !PyErr_Occurred())
        out = Py_BuildValue("{s:s,s:z,s:O,s:s,s:d,s:d,s:d,s:O,s:O,s:{s:O,s:O,s:O,s:O}}", "verdict",
                            pe_check_verdict_name(r->verdict), "float32_angles",
                            r->verdict == PE_CHECK_FLOAT32 ? pe_check_angles_name(r->float32_angles) : NULL,
                            "explained", r->explained ? Py_True : Py_False, "layout",
                            ex->layout == PE_ROPE_INTERLEAVED ? "interleaved" : "half", "max_abs_err",
                            r->max_abs_err, "bound", r->bound, "rms_err", r->rms_err, "first_divergence", first,
                            "diagnoses", diag, "growth", "positions", bins, "pair_bands", bands, "max_abs_err",
                            err, "predicted", pred);
    Py_XDECREF(diag);
    Py_XDECREF(first);
    Py_XDECREF(err);
    Py_XDECREF(pred);
    Py_XDECREF(bins);
    Py_XDECREF(bands);
    return out;
}

static PyObject *py_check(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"config", "x", "y", "layer", "cos_sin", "start", "positions",
                             "mrope_positions", "layout", "family", NULL};
    PyObject *config, *xo = Py_None, *yo = Py_None, *cso = Py_None, *poso = Py_None, *mpo = Py_None;
    long long layer = 0, start = 0;
    const char *layout = NULL, *family = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO$LOLOOzz:check", kwlist, &config, &xo, &yo, &layer,
                                     &cso, &start, &poso, &mpo, &layout, &family))
        return NULL;
    const int cache_mode = cso != Py_None;
    if (cache_mode == (xo != Py_None || yo != Py_None) || (!cache_mode && (xo == Py_None || yo == Py_None))) {
        PyErr_SetString(PyExc_TypeError, "check needs x and y (the dump before and after the rotation), or cos_sin");
        return NULL;
    }
    pya x = {0}, y = {0}, cs = {0}, mp = {0};
    pypos pos;
    memset(&pos, 0, sizeof pos);
    PyObject *mp_owner = NULL, *result = NULL;
    pe_plan *plan = NULL;
    pe_check_expect exbuf, *ex = &exbuf; /* ~8 KiB each since PE_MAX_ROTARY_DIM is 1024 */
    pe_check_report repbuf, *rep = &repbuf;
    int64_t count;
    if (cache_mode) {
        if (pya_get(cso, "cos_sin", PYA_FLOATS | PYA_F64, 0, PYA_CONTIG, 2, 2, &cs) != 0) goto done;
        count = cs.shape[0];
    } else {
        if (pya_get(xo, "x", PYA_FLOATS, 0, PYA_ROWS, 2, 3, &x) != 0 ||
            pya_get(yo, "y", PYA_FLOATS, 0, PYA_ROWS, 2, 3, &y) != 0)
            goto done;
        if (x.ndim != y.ndim || memcmp(x.shape, y.shape, sizeof(int64_t) * (size_t)x.ndim) != 0) {
            PyErr_SetString(PyExc_ValueError, "y must have the shape of x");
            goto done;
        }
        count = x.shape[0];
    }
    if (pypos_get(poso, start, count, "positions", &pos) != 0) goto done;
    const int64_t *mpos = NULL;
    if (mpo != Py_None) {
        if (py_int64_array(mpo, "mrope_positions", 2, 2, &mp_owner, &mp) != 0) goto done;
        const int64_t want[2] = {count, 3};
        if (pya_check_shape(&mp, "mrope_positions", 2, want) != 0) goto done;
        mpos = mp.view.buf;
    }
    /* seq_len = largest position + 1 (dynamic and longrope need it) */
    int64_t pmax = -1;
    for (int64_t t = 0; t < count; t++) {
        int64_t p = pos.pos.ids ? pos.pos.ids[t] : (pos.pos.start > INT64_MAX - t ? INT64_MAX : pos.pos.start + t);
        if (p > pmax) pmax = p;
    }
    const int64_t seq_len = pmax >= 0 && pmax < INT64_MAX ? pmax + 1 : 0;
    if (expect_from(config, family, layer, seq_len, layout, ex, &plan) != 0) goto done;
    int st;
    if (cache_mode) {
        PY_CALL(cs.size, st = pe_check_cos_sin(ex, &pos.pos, mpos, count, cs.view.buf, cs.dtype, cs.shape[1], rep));
    } else {
        const int three = x.ndim == 3;
        const int64_t D = x.shape[x.ndim - 1];
        pe_tensor tx = {x.view.buf, x.dtype, count, three ? x.shape[1] : 1, D, x.strides[0],
                        three ? x.strides[1] : D};
        pe_tensor ty = {y.view.buf, y.dtype, count, three ? y.shape[1] : 1, D, y.strides[0],
                        three ? y.strides[1] : D};
        PY_CALL(x.size, st = pe_check_rotation(ex, &pos.pos, mpos, &tx, &ty, rep));
    }
    if (st != PE_OK) {
        py_raise(st);
        goto done;
    }
    result = report_dict(ex, rep);
done:
    pya_release(&x);
    pya_release(&y);
    pya_release(&cs);
    pya_release(&mp);
    Py_XDECREF(mp_owner);
    pypos_release(&pos);
    pe_plan_free(plan);
    return result;
}

static PyMethodDef methods[] = {
    {"check", (PyCFunction)(void (*)(void))py_check, METH_VARARGS | METH_KEYWORDS,
     "check(config, x=None, y=None, *, layer=0, cos_sin=None, start=0, positions=None,\n"
     "      mrope_positions=None, layout=None, family=None) -> dict\n"
     "An engine's dump of one layer against the checkpoint's plan (posenc check): x, y the q or k\n"
     "rows before and after its rotation, (tokens, heads, D) or (tokens, D), float32/float16/\n"
     "bfloat16; or cos_sin, its cache (positions, rotary_dim) of rows [A cos..., A sin...].\n"
     "config: a config.json or .gguf path, a config dict, or a Freqs (then layout=...).\n"
     "layout: 'half' or 'interleaved', the engine's pairing; overrides the config's convention.\n"
     "family: read the config (or a .gguf alone) as this registry family / llama.cpp architecture on\n"
     "purpose, as load_plan's family= (a model_type not in the registry raises posenc.Error).\n"
     "Returns {'verdict': 'agree'|'float32'|'disagree', 'float32_angles': recipe or None,\n"
     "'explained', 'layout', 'max_abs_err', 'bound', 'rms_err',\n"
     "'first_divergence': None | {'token', 'head', 'pair'}, 'diagnoses': [{'name', 'residual',\n"
     "'max_err', 'detail', 'layout', 'angles'}] best first, 'growth': {'positions', 'pair_bands',\n"
     "'max_abs_err', 'predicted'}}. docs/CHECK.md has the long form."},
    {NULL, NULL, 0, NULL},
};

int py_init_check(PyObject *m) { return PyModule_AddFunctions(m, methods); }
