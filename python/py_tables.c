/*
 * py_tables.c — the one driver's angle sources in Python (issue 15 items
 * 3, 5): rotation from a caller's cos/sin table (rope_apply_table and the
 * q/k call) and packed variable-length batches (cu_seqlens + per-sequence
 * starts) for rope_apply_varlen and the table calls. x is (tokens, D),
 * (tokens, heads, D) or batched (py_batch.c) with the last axis contiguous,
 * as in rope_apply; no copies of x or of the table.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

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

/* rope_apply_table (n = 1) and rope_apply_table_qk (n = 2): one table for
 * every batch element, rows per element through the positions. */
static PyObject *table_run(int n, PyObject *const *x_o, PyObject *const *out_o, const char *const *names,
                           PyObject *axis_o, PyObject *c_o, PyObject *s_o, long long rd, const pyb_args *a,
                           pyb_source *c) {
    pyb_rot r;
    pytable tb;
    if (pyb_rot_begin(&r, n, x_o, out_o, names, axis_o, a, 1) != 0) return NULL;
    if (table_get(c_o, s_o, rd, r.io[0].in.t.head_dim, &tb) != 0) {
        pyb_rot_abort(&r);
        return NULL;
    }
    c->table = &tb.t;
    PyObject *result = pyb_rot_end(&r, tb.t.rows, 1, n == 1 ? pyb_rotate : pyb_rotate_qk, c);
    table_release(&tb);
    return result;
}

static PyObject *py_rope_apply_table(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x",         "cos",        "sin",       "rotary_dim", "layout", "start",
                             "positions", "cu_seqlens", "seq_starts", "direction", "out",    "threads",
                             "token_axis", "offsets",   NULL};
    PyObject *x_o, *c_o, *s_o, *out_o = Py_None, *axis_o = Py_None;
    pyb_args a = PYB_ARGS_NONE;
    const char *layout_s = "half", *dir_s = "forward";
    long long rd = 0;
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$LsLOOOsOO&OO:rope_apply_table", kwlist, &x_o, &c_o, &s_o, &rd,
                                     &layout_s, &a.start, &a.positions, &a.cu_seqlens, &a.seq_starts, &dir_s,
                                     &out_o, py_threads_conv, &threads, &axis_o, &a.offsets))
        return NULL;
    pyb_source c;
    if (pyb_source_init(&c, NULL, layout_s, dir_s, threads) != 0) return NULL;
    static const char *const names[] = {"x", "out"};
    return table_run(1, &x_o, &out_o, names, axis_o, c_o, s_o, rd, &a, &c);
}

static PyObject *py_rope_apply_table_qk(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q",         "k",          "cos",        "sin",       "rotary_dim", "layout",
                             "start",     "positions",  "cu_seqlens", "seq_starts", "direction", "q_out",
                             "k_out",     "threads",    "token_axis", "offsets",   NULL};
    PyObject *x_o[2], *c_o, *s_o, *out_o[2] = {Py_None, Py_None}, *axis_o = Py_None;
    pyb_args a = PYB_ARGS_NONE;
    const char *layout_s = "half", *dir_s = "forward";
    long long rd = 0;
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$LsLOOOsOOO&OO:rope_apply_table_qk", kwlist, &x_o[0], &x_o[1],
                                     &c_o, &s_o, &rd, &layout_s, &a.start, &a.positions, &a.cu_seqlens,
                                     &a.seq_starts, &dir_s, &out_o[0], &out_o[1], py_threads_conv, &threads, &axis_o, &a.offsets))
        return NULL;
    pyb_source c;
    if (pyb_source_init(&c, NULL, layout_s, dir_s, threads) != 0) return NULL;
    static const char *const names[] = {"q", "q_out", "k", "k_out"};
    return table_run(2, x_o, out_o, names, axis_o, c_o, s_o, rd, &a, &c);
}

static PyObject *py_rope_apply_varlen(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x",      "freqs", "cu_seqlens", "seq_starts", "layout", "start",
                             "direction", "out", "threads",   "token_axis", NULL};
    PyObject *x_o, *fr_o, *out_o = Py_None, *axis_o = Py_None;
    pyb_args a = PYB_ARGS_NONE;
    const char *layout_s = "half", *dir_s = "forward";
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$OsLsOO&O:rope_apply_varlen", kwlist, &x_o, &fr_o,
                                     &a.cu_seqlens, &a.seq_starts, &layout_s, &a.start, &dir_s, &out_o, py_threads_conv, &threads,
                                     &axis_o))
        return NULL;
    pyb_source c;
    if (pyb_source_init(&c, fr_o, layout_s, dir_s, threads) != 0) return NULL;
    if (a.cu_seqlens == Py_None) return PyErr_Format(PyExc_TypeError, "rope_apply_varlen() needs cu_seqlens");
    static const char *const names[] = {"x", "out"};
    pyb_rot r;
    if (pyb_rot_begin(&r, 1, &x_o, &out_o, names, axis_o, &a, 1) != 0) return NULL;
    return pyb_rot_end(&r, -1, 1, pyb_rotate, &c);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef methods[] = {
    {"rope_apply_table", KW(py_rope_apply_table),
     "rope_apply_table(x, cos, sin, *, rotary_dim=None, layout='half', start=0, positions=None,\n"
     "                 cu_seqlens=None, seq_starts=None, direction='forward', out=None, threads=1,\n"
     "                 token_axis=None, offsets=None) -> array\n\n"
     "Rotate x, (tokens, D) or (tokens, heads, D), from a caller's cos/sin table built once and\n"
     "applied to every layer: cos, sin (rows, rotary_dim/2) as rope_cos_sin makes them, or\n"
     "(rows, rotary_dim) with Hugging Face's duplicated halves (only the first of each duplicate\n"
     "is read). float32, float64, float16 or bfloat16 (uint16). Token t reads row positions[t]\n"
     "(or start + t; or its place in a packed sequence given cu_seqlens and seq_starts). The\n"
     "entries are used as given (a magnitude belongs in the table); direction 'forward' or\n"
     "'backward' (cos, -sin). rotary_dim defaults to D. Batch axes as rope_apply: x (batch,\n"
     "tokens, heads, D) with token_axis=1 or (batch, heads, tokens, D) with token_axis=2, one\n"
     "table for every element, element b's token t at row offsets[b] + t, positions[b, t],\n"
     "or its place in cu_seqlens[b] / seq_starts[b] ((batch, n+1) / (batch, n)); every\n"
     "element's rows are checked before anything is written."},
    {"rope_apply_table_qk", KW(py_rope_apply_table_qk),
     "rope_apply_table_qk(q, k, cos, sin, *, rotary_dim=None, layout='half', start=0, positions=None,\n"
     "                    cu_seqlens=None, seq_starts=None, direction='forward', q_out=None, k_out=None,\n"
     "                    threads=1, token_axis=None, offsets=None) -> (q_out, k_out)\n\n"
     "rope_apply_table on queries and keys in one call (batch axes as rope_apply_table)."},
    {"rope_apply_varlen", KW(py_rope_apply_varlen),
     "rope_apply_varlen(x, freqs, cu_seqlens, *, seq_starts=None, layout='half', start=0,\n"
     "                  direction='forward', out=None, threads=1, token_axis=None) -> array\n\n"
     "rope_apply on a packed batch: sequence s holds tokens [cu_seqlens[s], cu_seqlens[s+1])\n"
     "(cu_seqlens as flash-attn passes them: starts at 0, never decreases, ends at tokens), its\n"
     "i-th token at position seq_starts[s] + i (seq_starts None: start + i). With a batch\n"
     "axis (x 4-D, token_axis 1 or 2) the packing covers each element's tokens: cu_seqlens\n"
     "(n+1,) for every element or (batch, n+1) one row each, seq_starts (n,) or (batch, n)."},
    {NULL, NULL, 0, NULL},
};

int py_init_tables(PyObject *m) { return PyModule_AddFunctions(m, methods); }
