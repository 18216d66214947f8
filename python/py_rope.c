/*
 * py_rope.c — rotary embeddings: rope_apply (and the q/k pair call) on
 * strided (tokens, heads, head_dim) views, cos/sin caches, the layout
 * permutation, and M-RoPE.
 */
#include "posenc_py.h"

#include <string.h>

static const char *const directions[] = {"forward", "inverse", "backward", NULL};

/*
 * x as a (tokens, [heads,] head_dim) view whose last axis is contiguous and
 * out (None: a new C-contiguous array; x itself: in place; otherwise an
 * array of the same shape and dtype that does not overlap x). Fills the two
 * pe_tensor views. On success the caller releases x and out and owns *result.
 */
static int rope_views(PyObject *x_o, PyObject *out_o, const char *xname, const char *outname,
                      pya *x, pya *out, PyObject **result, pe_tensor *tin, pe_tensor *tout) {
    int in_place = out_o == x_o;
    *result = NULL;
    if (pya_get(x_o, xname, PYA_FLOATS, in_place, PYA_ROWS, 2, 3, x) != 0) return -1;
    if (in_place) {
        *out = *x;
        out->view.obj = NULL; /* one view, released once through x */
        *result = Py_NewRef(x_o);
    } else if (out_o == NULL || out_o == Py_None) {
        if (pya_out(NULL, outname, x->dtype, x->ndim, x->shape, out, result) != 0) goto fail;
    } else {
        if (pya_get(out_o, outname, 1u << x->dtype, 1, PYA_ROWS, x->ndim, x->ndim, out) != 0) goto fail;
        if (pya_check_shape(out, outname, x->ndim, x->shape) != 0) goto fail;
        /* the library's rule: the very same view (another array object over
         * the same elements) is in place; any other sharing is an error */
        const int same_view = x->view.buf == out->view.buf && x->dtype == out->dtype &&
                              memcmp(x->strides, out->strides, sizeof(int64_t) * (size_t)x->ndim) == 0;
        if (!same_view && pya_overlap(x, out)) {
            PyErr_Format(PyExc_ValueError, "%s overlaps %s; pass out=%s itself for in place, or a "
                                           "separate array", outname, xname, xname);
            goto fail;
        }
        *result = Py_NewRef(out_o);
    }
    const pya *vs[2] = {x, in_place ? x : out};
    pe_tensor *ts[2] = {tin, tout};
    for (int i = 0; i < 2; i++) {
        const pya *v = vs[i];
        int three = v->ndim == 3;
        *ts[i] = pe_tensor_dense(v->view.buf, v->dtype, v->shape[0], three ? v->shape[1] : 1,
                                 v->shape[v->ndim - 1]);
        ts[i]->token_stride = v->strides[0];
        ts[i]->head_stride = three ? v->strides[1] : v->shape[v->ndim - 1];
    }
    return 0;
fail:
    pya_release(x);
    pya_release(out);
    Py_CLEAR(*result);
    return -1;
}

static int rope_options(int threads, pe_rope_options *o) {
    *o = pe_rope_options_default();
    o->threads = threads;
    return 0;
}

static PyObject *py_rope_apply(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "freqs", "layout", "start", "positions", "direction", "out", "threads", NULL};
    PyObject *x_o, *fr_o, *pos_o = Py_None, *out_o = Py_None;
    const char *layout_s = "half", *dir_s = "forward";
    long long start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$sLOsOi:rope_apply", kwlist, &x_o, &fr_o, &layout_s,
                                     &start, &pos_o, &dir_s, &out_o, &threads))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_rope_layout layout;
    int dir;
    if (f == NULL || py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir))
        return NULL;
    pya x, out;
    PyObject *result;
    pe_tensor tin, tout;
    if (rope_views(x_o, out_o, "x", "out", &x, &out, &result, &tin, &tout) != 0) return NULL;
    pypos p;
    if (pypos_get(pos_o, start, tin.tokens, "positions", &p) != 0) {
        Py_CLEAR(result);
    } else {
        pe_rope_options opt;
        rope_options(threads, &opt);
        int st;
        PY_CALL(x.size, st = pe_rope_apply_ex(f, layout, &p.pos, &tin, &tout, (pe_rope_direction)dir, &opt));
        if (st != PE_OK) {
            Py_CLEAR(result);
            py_raise(st);
        }
        pypos_release(&p);
    }
    pya_release(&x);
    pya_release(&out);
    return result;
}

static PyObject *py_rope_apply_qk(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q", "k", "freqs", "layout", "start", "positions", "direction",
                             "q_out", "k_out", "threads", NULL};
    PyObject *q_o, *k_o, *fr_o, *pos_o = Py_None, *qo_o = Py_None, *ko_o = Py_None;
    const char *layout_s = "half", *dir_s = "forward";
    long long start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sLOsOOi:rope_apply_qk", kwlist, &q_o, &k_o, &fr_o,
                                     &layout_s, &start, &pos_o, &dir_s, &qo_o, &ko_o, &threads))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_rope_layout layout;
    int dir;
    if (f == NULL || py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir))
        return NULL;
    pya q, qo, k, ko;
    PyObject *rq, *rk, *result = NULL;
    pe_tensor qin, qout, kin, kout;
    if (rope_views(q_o, qo_o, "q", "q_out", &q, &qo, &rq, &qin, &qout) != 0) return NULL;
    if (rope_views(k_o, ko_o, "k", "k_out", &k, &ko, &rk, &kin, &kout) != 0) {
        pya_release(&q);
        pya_release(&qo);
        Py_DECREF(rq);
        return NULL;
    }
    pypos p;
    if (pya_overlap(&q, &ko) || pya_overlap(&k, &qo) || pya_overlap(&qo, &ko)) {
        PyErr_SetString(PyExc_ValueError, "the q and k outputs overlap each other or the other input");
    } else if (pypos_get(pos_o, start, qin.tokens, "positions", &p) == 0) {
        pe_rope_options opt;
        rope_options(threads, &opt);
        int st;
        PY_CALL(q.size + k.size, st = pe_rope_apply_qk(f, layout, &p.pos, &qin, &qout, &kin, &kout,
                                                        (pe_rope_direction)dir, &opt));
        result = st == PE_OK ? PyTuple_Pack(2, rq, rk) : py_raise(st);
        pypos_release(&p);
    }
    Py_DECREF(rq);
    Py_DECREF(rk);
    pya_release(&q);
    pya_release(&qo);
    pya_release(&k);
    pya_release(&ko);
    return result;
}

/* Two new (count, pairs) arrays of dtype; releases nothing on failure. */
static int cos_sin_out(pe_dtype dtype, int64_t count, int64_t pairs, pya *c, pya *s, PyObject **rc,
                       PyObject **rs) {
    int64_t shape[2] = {count, pairs};
    if (pya_out(NULL, "cos", dtype, 2, shape, c, rc) != 0) return -1;
    if (pya_out(NULL, "sin", dtype, 2, shape, s, rs) != 0) {
        pya_release(c);
        Py_CLEAR(*rc);
        return -1;
    }
    return 0;
}

static PyObject *cos_sin_result(int st, pya *c, pya *s, PyObject *rc, PyObject *rs) {
    pya_release(c);
    pya_release(s);
    PyObject *r = st == PE_OK ? PyTuple_Pack(2, rc, rs) : py_raise(st);
    Py_DECREF(rc);
    Py_DECREF(rs);
    return r;
}

static PyObject *py_rope_cos_sin(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"freqs", "count", "start", "positions", "dtype", "threads", NULL};
    PyObject *fr_o, *count_o = Py_None, *pos_o = Py_None, *dt_o = NULL;
    long long start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$LOOi:rope_cos_sin", kwlist, &fr_o, &count_o, &start,
                                     &pos_o, &dt_o, &threads))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_dtype dtype = PE_F32;
    if (f == NULL || (dt_o && py_dtype_arg(dt_o, "dtype", PYA_F32 | PYA_F64, &dtype))) return NULL;
    long long count = -1;
    if (count_o != Py_None && (count = PyLong_AsLongLong(count_o)) == -1 && PyErr_Occurred()) return NULL;
    pypos p;
    if (pypos_get(pos_o, start, count, "positions", &p) != 0) return NULL;
    pya c, s;
    PyObject *rc, *rs;
    if (cos_sin_out(dtype, p.count, f->rotary_dim / 2, &c, &s, &rc, &rs) != 0) {
        pypos_release(&p);
        return NULL;
    }
    pe_rope_options opt;
    rope_options(threads, &opt);
    int st;
    PY_CALL(c.size, st = pe_rope_cos_sin_ex(f, &p.pos, p.count, c.view.buf, s.view.buf, dtype, &opt));
    pypos_release(&p);
    return cos_sin_result(st, &c, &s, rc, rs);
}

static PyObject *py_rope_layout_permutation(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"head_dim", "rotary_dim", NULL};
    long long D, d = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|L:rope_layout_permutation", kwlist, &D, &d)) return NULL;
    if (d < 0) d = D;
    if (D < 0 || D > (1LL << 30)) {
        PyErr_Format(PyExc_ValueError, "head_dim=%lld outside [0, 2^30]", D);
        return NULL;
    }
    int64_t n = D;
    pya a;
    PyObject *r;
    if (pya_out(NULL, "perm", PE_I64, 1, &n, &a, &r) != 0) return NULL;
    int st = pe_rope_layout_permutation(D, d, (int64_t *)a.view.buf);
    pya_release(&a);
    if (st != PE_OK) {
        Py_DECREF(r);
        return py_raise(st);
    }
    return r;
}

/* ----------------------------------------------------------------- M-RoPE */

static const char *const mrope_modes[] = {"blocked", "interleaved", NULL};

static int sections_arg(PyObject *o, int64_t sections[3]) {
    PyObject *own;
    pya a;
    if (py_int64_array(o, "sections", 1, 1, &own, &a) != 0) return -1;
    int ok = a.shape[0] == 3;
    if (ok) memcpy(sections, a.view.buf, sizeof(int64_t) * 3);
    else PyErr_Format(PyExc_ValueError, "sections has %lld entries, want 3 (t, h, w)", (long long)a.shape[0]);
    pya_release(&a);
    Py_DECREF(own);
    return ok ? 0 : -1;
}

/* positions: (tokens, 3) integers as int64. */
static int mrope_positions(PyObject *o, int64_t tokens, PyObject **own, pya *a) {
    if (py_int64_array(o, "positions", 2, 2, own, a) != 0) return -1;
    if (tokens < 0) tokens = a->shape[0];
    int64_t want[2] = {tokens, 3};
    if (pya_check_shape(a, "positions", 2, want) != 0) {
        pya_release(a);
        Py_CLEAR(*own);
        return -1;
    }
    return 0;
}

static PyObject *py_mrope_slot_axes(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"rotary_dim", "sections", "mode", NULL};
    long long d;
    PyObject *sec_o;
    const char *mode_s = "blocked";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LO|s:mrope_slot_axes", kwlist, &d, &sec_o, &mode_s)) return NULL;
    int64_t sec[3];
    int mode;
    if (sections_arg(sec_o, sec) || py_choice(mode_s, "mode", mrope_modes, &mode)) return NULL;
    int axes[PE_MAX_PAIRS];
    int st = pe_mrope_slot_axes(d, sec, (pe_mrope_mode)mode, axes);
    if (st != PE_OK) return py_raise(st);
    PyObject *list = PyList_New((Py_ssize_t)(d / 2));
    for (int64_t i = 0; list && i < d / 2; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(axes[i]));
    return list;
}

static PyObject *py_mrope_apply(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "freqs", "positions", "sections", "mode", "layout", "direction", "out", NULL};
    PyObject *x_o, *fr_o, *pos_o, *sec_o, *out_o = Py_None, *own = NULL, *result = NULL;
    const char *mode_s = "blocked", *layout_s = "half", *dir_s = "forward";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$sssO:mrope_apply", kwlist, &x_o, &fr_o, &pos_o, &sec_o,
                                     &mode_s, &layout_s, &dir_s, &out_o))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    int64_t sec[3];
    int mode, dir;
    pe_rope_layout layout;
    if (f == NULL || sections_arg(sec_o, sec) || py_choice(mode_s, "mode", mrope_modes, &mode) ||
        py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir))
        return NULL;
    pya x, out, pos = {0};
    pe_tensor tin, tout;
    if (rope_views(x_o, out_o, "x", "out", &x, &out, &result, &tin, &tout) != 0) return NULL;
    if (mrope_positions(pos_o, tin.tokens, &own, &pos) == 0) {
        int st;
        PY_CALL(x.size, st = pe_mrope_apply(f, layout, (const int64_t *)pos.view.buf, sec, (pe_mrope_mode)mode,
                                            &tin, &tout, (pe_rope_direction)dir));
        if (st != PE_OK) {
            Py_CLEAR(result);
            py_raise(st);
        }
    } else {
        Py_CLEAR(result);
    }
    pya_release(&pos);
    Py_XDECREF(own);
    pya_release(&x);
    pya_release(&out);
    return result;
}

static PyObject *py_mrope_cos_sin(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"freqs", "positions", "sections", "mode", "dtype", NULL};
    PyObject *fr_o, *pos_o, *sec_o, *dt_o = NULL, *own = NULL;
    const char *mode_s = "blocked";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sO:mrope_cos_sin", kwlist, &fr_o, &pos_o, &sec_o, &mode_s,
                                     &dt_o))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    int64_t sec[3];
    int mode;
    pe_dtype dtype = PE_F32;
    if (f == NULL || sections_arg(sec_o, sec) || py_choice(mode_s, "mode", mrope_modes, &mode) ||
        (dt_o && py_dtype_arg(dt_o, "dtype", PYA_F32 | PYA_F64, &dtype)))
        return NULL;
    pya pos, c, s;
    PyObject *rc, *rs;
    if (mrope_positions(pos_o, -1, &own, &pos) != 0) return NULL;
    if (cos_sin_out(dtype, pos.shape[0], f->rotary_dim / 2, &c, &s, &rc, &rs) != 0) {
        pya_release(&pos);
        Py_DECREF(own);
        return NULL;
    }
    int st = pe_mrope_cos_sin(f, (const int64_t *)pos.view.buf, pos.shape[0], sec, (pe_mrope_mode)mode,
                              c.view.buf, s.view.buf, dtype);
    pya_release(&pos);
    Py_DECREF(own);
    return cos_sin_result(st, &c, &s, rc, rs);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef methods[] = {
    {"rope_apply", KW(py_rope_apply),
     "rope_apply(x, freqs, *, layout='half', start=0, positions=None, direction='forward',\n"
     "           out=None, threads=1) -> array\n\n"
     "Rotate every (token, head) row of x: (tokens, head_dim) or (tokens, heads, head_dim),\n"
     "float32, float16 or bfloat16 (uint16), last axis contiguous (any outer strides: a\n"
     "transposed (heads, tokens, D) array or a slice of a fused qkv buffer works without a\n"
     "copy). Token t sits at positions[t], or start + t. layout: 'interleaved' (Meta, GPT-J)\n"
     "or 'half' (Hugging Face rotate_half, GPT-NeoX). direction: 'forward', 'inverse' (undoes\n"
     "forward) or 'backward' (the gradient). out=None returns a new array; out=x rotates in\n"
     "place; any other out must not overlap x. Angles are exact (double-double) at every\n"
     "|p| < 2^31. threads: at most this many threads (results identical for any count)."},
    {"rope_apply_qk", KW(py_rope_apply_qk),
     "rope_apply_qk(q, k, freqs, *, layout='half', start=0, positions=None, direction='forward',\n"
     "              q_out=None, k_out=None, threads=1) -> (q_out, k_out)\n\n"
     "rope_apply on queries and keys in one call (same tokens and positions; head counts may\n"
     "differ, as in grouped-query attention). q_out=q / k_out=k rotate in place."},
    {"rope_cos_sin", KW(py_rope_cos_sin),
     "rope_cos_sin(freqs, count=None, *, start=0, positions=None, dtype='float32', threads=1)\n"
     "    -> (cos, sin)\n\n"
     "cos/sin caches, each (count, rotary_dim/2): entry [t][i] at the exactly reduced angle\n"
     "p_t w'_i. The magnitude A is not applied."},
    {"rope_layout_permutation", KW(py_rope_layout_permutation),
     "rope_layout_permutation(head_dim, rotary_dim=None) -> int64 (head_dim,)\n\n"
     "perm[j] = the half-split index holding the element at interleaved index j (identity past\n"
     "rotary_dim): x_half[perm] = x_interleaved."},
    {"mrope_slot_axes", KW(py_mrope_slot_axes),
     "mrope_slot_axes(rotary_dim, sections, mode='blocked') -> list of int\n\n"
     "The axis (0 = t, 1 = h, 2 = w) each frequency slot takes its angle from."},
    {"mrope_apply", KW(py_mrope_apply),
     "mrope_apply(x, freqs, positions, sections, *, mode='blocked', layout='half',\n"
     "            direction='forward', out=None) -> array\n\n"
     "Multi-axis RoPE (Qwen2-VL 'blocked', Qwen3-VL 'interleaved'): positions (tokens, 3)\n"
     "holds (t, h, w) per token, sections (s_t, s_h, s_w) sums to rotary_dim/2. x, out as in\n"
     "rope_apply."},
    {"mrope_cos_sin", KW(py_mrope_cos_sin),
     "mrope_cos_sin(freqs, positions, sections, *, mode='blocked', dtype='float32') -> (cos, sin)"},
    {NULL, NULL, 0, NULL},
};

int py_init_rope(PyObject *m) { return PyModule_AddFunctions(m, methods); }
