/*
 * py_tables.c — the one driver's angle sources in Python (issue 15 items
 * 3, 5): rotation from a caller's cos/sin table (rope_apply_table and the
 * q/k call) and packed variable-length batches (cu_seqlens + per-sequence
 * starts) for rope_apply_varlen and the table calls. x is (tokens, D) or
 * (tokens, heads, D) with the last axis contiguous, as in rope_apply; no
 * copies of x or of the table.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

static const char *const directions[] = {"forward", "inverse", "backward", NULL};

/* Positions from start / positions / cu_seqlens + seq_starts for `tokens`
 * tokens: packed when cu_seqlens is given (any integer dtype, as int64). */
typedef struct {
    pe_positions pos;
    pypos plain;
    int has_plain;
    PyObject *cu_own, *st_own;
    pya cu, st;
} anypos;

static void anypos_release(anypos *a) {
    if (a->has_plain) pypos_release(&a->plain);
    if (a->cu_own) {
        pya_release(&a->cu);
        Py_DECREF(a->cu_own);
    }
    if (a->st_own) {
        pya_release(&a->st);
        Py_DECREF(a->st_own);
    }
}

static int anypos_get(PyObject *pos_o, long long start, PyObject *cu_o, PyObject *st_o, int64_t tokens,
                      anypos *a) {
    memset(a, 0, sizeof *a);
    if (cu_o == NULL || cu_o == Py_None) {
        if (st_o != NULL && st_o != Py_None) {
            PyErr_SetString(PyExc_ValueError, "seq_starts needs cu_seqlens");
            return -1;
        }
        if (pypos_get(pos_o, start, tokens, "positions", &a->plain) != 0) return -1;
        a->has_plain = 1;
        a->pos = a->plain.pos;
        return 0;
    }
    if (pos_o != NULL && pos_o != Py_None) {
        PyErr_SetString(PyExc_ValueError, "give positions or cu_seqlens, not both");
        return -1;
    }
    if (py_int64_array(cu_o, "cu_seqlens", 1, 1, &a->cu_own, &a->cu) != 0) return -1;
    const int64_t n_seqs = a->cu.shape[0] - 1;
    if (n_seqs < 0) {
        PyErr_SetString(PyExc_ValueError, "cu_seqlens needs n_seqs + 1 >= 1 entries");
        anypos_release(a);
        return -1;
    }
    const int64_t *starts = NULL;
    if (st_o != NULL && st_o != Py_None) {
        if (py_int64_array(st_o, "seq_starts", 1, 1, &a->st_own, &a->st) != 0) {
            anypos_release(a);
            return -1;
        }
        if (a->st.shape[0] != n_seqs) {
            PyErr_Format(PyExc_ValueError, "seq_starts has %lld entries, cu_seqlens %lld sequences",
                         (long long)a->st.shape[0], (long long)n_seqs);
            anypos_release(a);
            return -1;
        }
        starts = a->st.view.buf;
    }
    a->pos = pe_positions_varlen_i64(a->cu.view.buf, n_seqs, starts);
    a->pos.start = start;
    return 0;
}

/* A table from two 2-D arrays of one dtype (bfloat16 as uint16). */
typedef struct {
    pe_rope_table t;
    pya c, s;
} pytable;

static int table_get(PyObject *c_o, PyObject *s_o, long long rotary_dim, int64_t head_dim, pytable *tb) {
    memset(tb, 0, sizeof *tb);
    const unsigned types = PYA_F32 | PYA_F64 | PYA_F16 | PYA_BF16;
    if (pya_get(c_o, "cos", types, 0, PYA_ROWS, 2, 2, &tb->c) != 0) return -1;
    if (pya_get(s_o, "sin", 1u << tb->c.dtype, 0, PYA_ROWS, 2, 2, &tb->s) != 0 ||
        pya_check_shape(&tb->s, "sin", 2, tb->c.shape) != 0) {
        pya_release(&tb->c);
        pya_release(&tb->s);
        return -1;
    }
    if (tb->c.strides[0] != tb->s.strides[0]) {
        PyErr_SetString(PyExc_ValueError, "cos and sin must have the same row stride");
        goto fail;
    }
    const int64_t d = rotary_dim > 0 ? rotary_dim : head_dim, w = tb->c.shape[1];
    tb->t = pe_rope_table_default();
    tb->t.rotary_dim = d;
    tb->t.rows = tb->c.shape[0];
    tb->t.cos = tb->c.view.buf;
    tb->t.sin = tb->s.view.buf;
    tb->t.dtype = tb->c.dtype;
    tb->t.row_stride = tb->c.shape[0] > 1 ? tb->c.strides[0] : 0;
    if (w == d / 2 && d >= 2)
        tb->t.width = PE_TABLE_PAIRS;
    else if (w == d)
        tb->t.width = PE_TABLE_DUPLICATED;
    else {
        PyErr_Format(PyExc_ValueError,
                     "cos has %lld entries per row: want rotary_dim/2 = %lld (pairs) or rotary_dim = %lld "
                     "(Hugging Face's duplicated halves)",
                     (long long)w, (long long)(d / 2), (long long)d);
        goto fail;
    }
    return 0;
fail:
    pya_release(&tb->c);
    pya_release(&tb->s);
    return -1;
}

static void table_release(pytable *tb) {
    pya_release(&tb->c);
    pya_release(&tb->s);
}

static PyObject *py_rope_apply_table(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x",         "cos",        "sin",       "rotary_dim", "layout", "start",
                             "positions", "cu_seqlens", "seq_starts", "direction", "out",    "threads",
                             NULL};
    PyObject *x_o, *c_o, *s_o, *pos_o = Py_None, *cu_o = Py_None, *st_o = Py_None, *out_o = Py_None;
    const char *layout_s = "half", *dir_s = "forward";
    long long rd = 0, start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$LsLOOOsOi:rope_apply_table", kwlist, &x_o, &c_o, &s_o, &rd,
                                     &layout_s, &start, &pos_o, &cu_o, &st_o, &dir_s, &out_o, &threads))
        return NULL;
    pe_rope_layout layout;
    int dir;
    if (py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir)) return NULL;
    pya x, out;
    PyObject *result;
    pe_tensor tin, tout;
    if (py_rope_views(x_o, out_o, "x", "out", &x, &out, &result, &tin, &tout) != 0) return NULL;
    pytable tb;
    anypos p;
    if (table_get(c_o, s_o, rd, tin.head_dim, &tb) != 0) {
        Py_CLEAR(result);
    } else {
        if (anypos_get(pos_o, start, cu_o, st_o, tin.tokens, &p) != 0) {
            Py_CLEAR(result);
        } else {
            pe_rope_options opt = pe_rope_options_default();
            opt.threads = threads;
            int st;
            PY_CALL(x.size, st = pe_rope_apply_table(&tb.t, layout, &p.pos, &tin, &tout, (pe_rope_direction)dir,
                                                     &opt));
            if (st != PE_OK) {
                Py_CLEAR(result);
                py_raise(st);
            }
            anypos_release(&p);
        }
        table_release(&tb);
    }
    pya_release(&x);
    pya_release(&out);
    return result;
}

static PyObject *py_rope_apply_table_qk(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q",         "k",          "cos",        "sin",       "rotary_dim", "layout",
                             "start",     "positions",  "cu_seqlens", "seq_starts", "direction", "q_out",
                             "k_out",     "threads",    NULL};
    PyObject *q_o, *k_o, *c_o, *s_o, *pos_o = Py_None, *cu_o = Py_None, *st_o = Py_None, *qo_o = Py_None,
                                       *ko_o = Py_None;
    const char *layout_s = "half", *dir_s = "forward";
    long long rd = 0, start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$LsLOOOsOOi:rope_apply_table_qk", kwlist, &q_o, &k_o, &c_o,
                                     &s_o, &rd, &layout_s, &start, &pos_o, &cu_o, &st_o, &dir_s, &qo_o, &ko_o,
                                     &threads))
        return NULL;
    pe_rope_layout layout;
    int dir;
    if (py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir)) return NULL;
    pya q, qo, k, ko;
    PyObject *rq, *rk, *result = NULL;
    pe_tensor qin, qout, kin, kout;
    if (py_rope_views(q_o, qo_o, "q", "q_out", &q, &qo, &rq, &qin, &qout) != 0) return NULL;
    if (py_rope_views(k_o, ko_o, "k", "k_out", &k, &ko, &rk, &kin, &kout) != 0) {
        pya_release(&q);
        pya_release(&qo);
        Py_DECREF(rq);
        return NULL;
    }
    pytable tb;
    anypos p;
    if (pya_overlap(&q, &ko) || pya_overlap(&k, &qo) || pya_overlap(&qo, &ko)) {
        PyErr_SetString(PyExc_ValueError, "the q and k outputs overlap each other or the other input");
    } else if (table_get(c_o, s_o, rd, qin.head_dim, &tb) == 0) {
        if (anypos_get(pos_o, start, cu_o, st_o, qin.tokens, &p) == 0) {
            pe_rope_options opt = pe_rope_options_default();
            opt.threads = threads;
            int st;
            PY_CALL(q.size + k.size, st = pe_rope_apply_table_qk(&tb.t, layout, &p.pos, &qin, &qout, &kin, &kout,
                                                                 (pe_rope_direction)dir, &opt));
            result = st == PE_OK ? PyTuple_Pack(2, rq, rk) : py_raise(st);
            anypos_release(&p);
        }
        table_release(&tb);
    }
    Py_DECREF(rq);
    Py_DECREF(rk);
    pya_release(&q);
    pya_release(&qo);
    pya_release(&k);
    pya_release(&ko);
    return result;
}

static PyObject *py_rope_apply_varlen(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x",      "freqs", "cu_seqlens", "seq_starts", "layout", "start",
                             "direction", "out", "threads",   NULL};
    PyObject *x_o, *fr_o, *cu_o, *st_o = Py_None, *out_o = Py_None;
    const char *layout_s = "half", *dir_s = "forward";
    long long start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$OsLsOi:rope_apply_varlen", kwlist, &x_o, &fr_o, &cu_o, &st_o,
                                     &layout_s, &start, &dir_s, &out_o, &threads))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_rope_layout layout;
    int dir;
    if (f == NULL || py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir))
        return NULL;
    pya x, out;
    PyObject *result;
    pe_tensor tin, tout;
    if (py_rope_views(x_o, out_o, "x", "out", &x, &out, &result, &tin, &tout) != 0) return NULL;
    anypos p;
    if (anypos_get(Py_None, start, cu_o, st_o, tin.tokens, &p) != 0) {
        Py_CLEAR(result);
    } else {
        pe_rope_options opt = pe_rope_options_default();
        opt.threads = threads;
        int st;
        PY_CALL(x.size, st = pe_rope_apply_ex(f, layout, &p.pos, &tin, &tout, (pe_rope_direction)dir, &opt));
        if (st != PE_OK) {
            Py_CLEAR(result);
            py_raise(st);
        }
        anypos_release(&p);
    }
    pya_release(&x);
    pya_release(&out);
    return result;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef methods[] = {
    {"rope_apply_table", KW(py_rope_apply_table),
     "rope_apply_table(x, cos, sin, *, rotary_dim=None, layout='half', start=0, positions=None,\n"
     "                 cu_seqlens=None, seq_starts=None, direction='forward', out=None, threads=1)\n"
     "    -> array\n\n"
     "Rotate x, (tokens, D) or (tokens, heads, D), from a caller's cos/sin table built once and\n"
     "applied to every layer: cos, sin (rows, rotary_dim/2) as rope_cos_sin makes them, or\n"
     "(rows, rotary_dim) with Hugging Face's duplicated halves (only the first of each duplicate\n"
     "is read). float32, float64, float16 or bfloat16 (uint16). Token t reads row positions[t]\n"
     "(or start + t; or its place in a packed sequence given cu_seqlens and seq_starts). The\n"
     "entries are used as given (a magnitude belongs in the table); direction 'forward' or\n"
     "'backward' (cos, -sin). rotary_dim defaults to D."},
    {"rope_apply_table_qk", KW(py_rope_apply_table_qk),
     "rope_apply_table_qk(q, k, cos, sin, *, rotary_dim=None, layout='half', start=0, positions=None,\n"
     "                    cu_seqlens=None, seq_starts=None, direction='forward', q_out=None, k_out=None,\n"
     "                    threads=1) -> (q_out, k_out)\n\n"
     "rope_apply_table on queries and keys in one call."},
    {"rope_apply_varlen", KW(py_rope_apply_varlen),
     "rope_apply_varlen(x, freqs, cu_seqlens, *, seq_starts=None, layout='half', start=0,\n"
     "                  direction='forward', out=None, threads=1) -> array\n\n"
     "rope_apply on a packed batch: sequence s holds tokens [cu_seqlens[s], cu_seqlens[s+1])\n"
     "(cu_seqlens as flash-attn passes them: starts at 0, never decreases, ends at tokens), its\n"
     "i-th token at position seq_starts[s] + i (seq_starts None: start + i)."},
    {NULL, NULL, 0, NULL},
};

int py_init_tables(PyObject *m) { return PyModule_AddFunctions(m, methods); }
