/*
 * py_rope.c — rotary embeddings: rope_apply (and the q/k pair call),
 * shift and rebase on strided (tokens, heads, head_dim) views, cos/sin
 * caches, the layout permutation, and M-RoPE. Batch axes, per-batch
 * positions and the per-element driver are py_batch.c's.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

/* Per batch element positions (offsets, or positions or deltas of shape
 * (batch, tokens))? Then the call goes through py_batch.c's driver (x 4-D);
 * otherwise batch axes of any number fold (pyb_views) and every element
 * takes the same positions. */
static int per_batch(const pyb_args *a) {
    return (a->offsets != NULL && a->offsets != Py_None) ||
           (a->positions != NULL && a->positions != Py_None && py_ndim(a->positions) == 2) ||
           (a->delta != NULL && a->delta != Py_None && py_ndim(a->delta) == 2);
}

/* 2 to 4 dimensions (or per-batch positions): py_batch.c's driver, which
 * falls back to one call per element when no fold fits the strides. */
static int by_driver(PyObject *const *x_o, int n, const pyb_args *a) {
    for (int i = 0; i < n; i++) {
        const long nd = py_ndim(x_o[i]);
        if (nd < 2 || nd > 4) return per_batch(a); /* pyb_views says what is wrong, or folds */
    }
    return 1;
}

static PyObject *rope_run_batched(int n, PyObject *const *x_o, PyObject *const *out_o, PyObject *axis_o,
                                  const pyb_args *a, pyb_source *c) {
    static const char *const names[] = {"x", "out"}, *const qk_names[] = {"q", "q_out", "k", "k_out"};
    pyb_rot r;
    if (pyb_rot_begin(&r, n, x_o, out_o, n == 1 ? names : qk_names, axis_o, a, 1) != 0) return NULL;
    if (r.pos.per_batch && r.io[0].x.ndim != 4) {
        pyb_rot_abort(&r);
        PyErr_SetString(PyExc_ValueError,
                        "per-batch positions (offsets, or positions of shape (batch, tokens)) need x "
                        "as (batch, tokens, heads, head_dim) with token_axis=1 or (batch, heads, tokens, "
                        "head_dim) with token_axis=2");
        return NULL;
    }
    return pyb_rot_end(&r, -1, 1, n == 1 ? pyb_rotate : pyb_rotate_qk, c);
}

/* rope_apply, rope_rebase and rope_shift. Beyond 4 dimensions the batch
 * axes fold (pyb_views) into heads, or into `repeat` elements of tokens
 * each, which py_batch.c's driver runs as one batch axis. */
static PyObject *rope_run_positioned(PyObject *x_o, PyObject *out_o, PyObject *axis_o, const pyb_args *a,
                                     pyb_source *c) {
    if (by_driver(&x_o, 1, a)) return rope_run_batched(1, &x_o, &out_o, axis_o, a, c);
    pya x, out;
    PyObject *result;
    pe_tensor t[2];
    int64_t repeat = 1;
    if (pyb_views(x_o, out_o, axis_o, PYA_MAX_DIMS, -1, "x", "out", &x, &out, &result, &t[0], &t[1], &repeat) != 0)
        return NULL;
    const int64_t per = repeat > 0 ? t[0].tokens / repeat : 0;
    pyb_view v[2];
    for (int i = 0; i < 2; i++) {
        v[i].t = t[i];
        v[i].t.tokens = per;
        v[i].batch = repeat;
        v[i].bstride = per * t[i].token_stride;
    }
    pyb_pos p;
    int st = PE_OK;
    if (pyb_pos_get(a, repeat, 0, per, 1, &p) != 0) {
        Py_CLEAR(result);
    } else {
        if (pyb_run(v, 2, &p, 1, pyb_rotate, c, x.size, &st) != 0 || st != PE_OK) {
            Py_CLEAR(result);
            if (st != PE_OK) py_raise(st);
        }
        pyb_pos_release(&p);
    }
    pya_release(&x);
    pya_release(&out);
    return result;
}

static PyObject *py_rope_apply(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "freqs", "layout", "start", "positions", "direction", "out", "threads",
                             "token_axis", "offsets", NULL};
    PyObject *x_o, *fr_o, *out_o = Py_None, *axis_o = Py_None;
    pyb_args a = PYB_ARGS_NONE;
    const char *layout_s = "half", *dir_s = "forward";
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$sLOsOO&OO:rope_apply", kwlist, &x_o, &fr_o, &layout_s,
                                     &a.start, &a.positions, &dir_s, &out_o, py_threads_conv, &threads, &axis_o, &a.offsets))
        return NULL;
    pyb_source c;
    if (pyb_source_init(&c, fr_o, layout_s, dir_s, threads) != 0) return NULL;
    return rope_run_positioned(x_o, out_o, axis_o, &a, &c);
}

static PyObject *py_rope_apply_qk(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q", "k", "freqs", "layout", "start", "positions", "direction",
                             "q_out", "k_out", "threads", "token_axis", "offsets", NULL};
    PyObject *x_o[2], *fr_o, *out_o[2] = {Py_None, Py_None}, *axis_o = Py_None;
    pyb_args a = PYB_ARGS_NONE;
    const char *layout_s = "half", *dir_s = "forward";
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sLOsOOO&OO:rope_apply_qk", kwlist, &x_o[0], &x_o[1], &fr_o,
                                     &layout_s, &a.start, &a.positions, &dir_s, &out_o[0], &out_o[1], py_threads_conv, &threads,
                                     &axis_o, &a.offsets))
        return NULL;
    pyb_source c;
    if (pyb_source_init(&c, fr_o, layout_s, dir_s, threads) != 0) return NULL;
    if (by_driver(x_o, 2, &a)) return rope_run_batched(2, x_o, out_o, axis_o, &a, &c);
    pya q, qo, k, ko;
    PyObject *rq, *rk, *result = NULL;
    pe_tensor t[4];
    /* q and k fold their batch axes the same way (into heads, preferred:
     * one cos/sin per token; else into tokens), so their tokens match. */
    int64_t qrep = 1, krep = 1;
    int ok = 0;
    for (int how = PYB_FOLD_HEADS; how <= PYB_FOLD_TOKENS && !ok; how++) {
        if (how > PYB_FOLD_HEADS) PyErr_Clear();
        if (pyb_views(x_o[0], out_o[0], axis_o, PYA_MAX_DIMS, how, "q", "q_out", &q, &qo, &rq, &t[0], &t[1],
                      &qrep) != 0)
            continue;
        if (pyb_views(x_o[1], out_o[1], axis_o, PYA_MAX_DIMS, how, "k", "k_out", &k, &ko, &rk, &t[2], &t[3],
                      &krep) != 0) {
            pya_release(&q);
            pya_release(&qo);
            Py_DECREF(rq);
            continue;
        }
        ok = 1;
    }
    if (!ok) return NULL;
    pypos p;
    if (pya_overlap(&q, &ko) || pya_overlap(&k, &qo) || pya_overlap(&qo, &ko)) {
        PyErr_SetString(PyExc_ValueError, "the q and k outputs overlap each other or the other input");
    } else if (qrep != krep) {
        PyErr_SetString(PyExc_ValueError, "q and k fold their batch axes differently (one into heads, one into "
                                          "tokens); give both the same axis order, or numpy.ascontiguousarray");
    } else if (pypos_get(a.positions, a.start, t[0].tokens / qrep, "positions", &p) == 0) {
        pe_positions pos = p.pos;
        int64_t *tiled = NULL;
        if (qrep > 1 && (tiled = pyb_tile(p.pos.ids, p.pos.start, t[0].tokens / qrep, qrep)) != NULL)
            pos = pe_positions_list(tiled);
        if (qrep == 1 || tiled != NULL) {
            int st;
            PY_CALL(q.size + k.size, st = pyb_rotate_qk(&c, &pos, t));
            result = st == PE_OK ? PyTuple_Pack(2, rq, rk) : py_raise(st);
        }
        PyMem_Free(tiled);
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

/* rope_shift: delta in place of positions (an int, (tokens,), or per
 * batch element (batch, tokens) / (batch, 1)), batched as rope_apply. */
static PyObject *py_rope_shift(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "freqs", "delta", "layout", "out", "threads", "token_axis", NULL};
    PyObject *x_o, *fr_o, *out_o = Py_None, *axis_o = Py_None;
    pyb_args a = PYB_ARGS_NONE;
    const char *layout_s = "half";
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sOO&O:rope_shift", kwlist, &x_o, &fr_o, &a.delta, &layout_s,
                                     &out_o, py_threads_conv, &threads, &axis_o))
        return NULL;
    pyb_source c;
    if (pyb_source_init(&c, fr_o, layout_s, NULL, threads) != 0) return NULL;
    c.shift = 1;
    return rope_run_positioned(x_o, out_o, axis_o, &a, &c);
}

/* rope_rebase: positions as rope_apply's (tiled over folded batch axes). */
static PyObject *py_rope_rebase(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "old_freqs", "new_freqs", "layout", "start", "positions", "out",
                             "threads", "token_axis", "offsets", NULL};
    PyObject *x_o, *f0_o, *f1_o, *out_o = Py_None, *axis_o = Py_None;
    pyb_args a = PYB_ARGS_NONE;
    const char *layout_s = "half";
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sLOOO&OO:rope_rebase", kwlist, &x_o, &f0_o, &f1_o,
                                     &layout_s, &a.start, &a.positions, &out_o, py_threads_conv, &threads, &axis_o, &a.offsets))
        return NULL;
    pyb_source c;
    if (pyb_source_init(&c, NULL, layout_s, NULL, threads) != 0 || (c.freqs = py_freqs_arg(f0_o, "old_freqs")) == NULL ||
        (c.new_freqs = py_freqs_arg(f1_o, "new_freqs")) == NULL)
        return NULL;
    return rope_run_positioned(x_o, out_o, axis_o, &a, &c);
}

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
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$LOOO&:rope_cos_sin", kwlist, &fr_o, &count_o, &start,
                                     &pos_o, &dt_o, py_threads_conv, &threads))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_dtype dtype = PE_F32;
    if (f == NULL || (dt_o && py_dtype_arg(dt_o, "dtype", PYA_F32 | PYA_F64 | PYA_F16 | PYA_BF16, &dtype)))
        return NULL;
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
    pe_rope_options opt = py_rope_opts(threads);
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
static int mrope_positions(PyObject *o, PyObject **own, pya *a) {
    if (py_int64_array(o, "positions", 2, 2, own, a) != 0) return -1;
    int64_t want[2] = {a->shape[0], 3};
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

/* M-RoPE through py_batch.c's driver: positions (tokens, 3), or
 * (batch, tokens, 3) per batch element, are pyb_pos LIST rows of width 3. */
typedef struct {
    pyb_source src; /* freqs, layout, direction, options */
    int64_t sections[3];
    pe_mrope_mode mode;
} mrope_call;

static int run_mrope(void *ctx, const pe_positions *pos, const pe_tensor *v) {
    const mrope_call *c = ctx;
    const pyb_source *r = &c->src;
    return pe_mrope_apply_ex(r->freqs, r->layout, pos->ids, c->sections, c->mode, &v[0], &v[1], r->direction,
                             &r->opt);
}

static int run_mrope_qk(void *ctx, const pe_positions *pos, const pe_tensor *v) {
    const mrope_call *c = ctx;
    const pyb_source *r = &c->src;
    return pe_mrope_apply_qk(r->freqs, r->layout, pos->ids, c->sections, c->mode, &v[0], &v[1], &v[2], &v[3],
                             r->direction, &r->opt);
}

/* The arguments mrope_apply and mrope_apply_qk share, then the call. */
static PyObject *mrope_run(int n, PyObject *const *x_o, PyObject *const *out_o, PyObject *fr_o, PyObject *pos_o,
                           PyObject *sec_o, const char *mode_s, const char *layout_s, const char *dir_s,
                           py_threads threads, PyObject *axis_o) {
    static const char *const names[] = {"x", "out"}, *const qk_names[] = {"q", "q_out", "k", "k_out"};
    mrope_call c;
    int mode;
    if (pyb_source_init(&c.src, fr_o, layout_s, dir_s, threads) || sections_arg(sec_o, c.sections) ||
        py_choice(mode_s, "mode", mrope_modes, &mode))
        return NULL;
    c.mode = (pe_mrope_mode)mode;
    const pyb_args a = {pos_o, Py_None, Py_None, Py_None, 0, NULL, NULL};
    pyb_rot r;
    if (pyb_rot_begin(&r, n, x_o, out_o, n == 1 ? names : qk_names, axis_o, &a, 3) != 0) return NULL;
    return pyb_rot_end(&r, -1, 1, n == 1 ? run_mrope : run_mrope_qk, &c);
}

static PyObject *py_mrope_apply(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "freqs", "positions", "sections", "mode", "layout", "direction", "out",
                             "threads", "token_axis", NULL};
    PyObject *x_o, *fr_o, *pos_o, *sec_o, *out_o = Py_None, *axis_o = Py_None;
    const char *mode_s = "blocked", *layout_s = "half", *dir_s = "forward";
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$sssOO&O:mrope_apply", kwlist, &x_o, &fr_o, &pos_o, &sec_o,
                                     &mode_s, &layout_s, &dir_s, &out_o, py_threads_conv, &threads, &axis_o))
        return NULL;
    return mrope_run(1, &x_o, &out_o, fr_o, pos_o, sec_o, mode_s, layout_s, dir_s, threads, axis_o);
}

/* M-RoPE on queries and keys in one call (rope_apply_qk's rules). */
static PyObject *py_mrope_apply_qk(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q", "k", "freqs", "positions", "sections", "mode", "layout", "direction",
                             "q_out", "k_out", "threads", "token_axis", NULL};
    PyObject *x_o[2], *fr_o, *pos_o, *sec_o, *out_o[2] = {Py_None, Py_None}, *axis_o = Py_None;
    const char *mode_s = "blocked", *layout_s = "half", *dir_s = "forward";
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO|$sssOOO&O:mrope_apply_qk", kwlist, &x_o[0], &x_o[1], &fr_o,
                                     &pos_o, &sec_o, &mode_s, &layout_s, &dir_s, &out_o[0], &out_o[1], py_threads_conv, &threads,
                                     &axis_o))
        return NULL;
    return mrope_run(2, x_o, out_o, fr_o, pos_o, sec_o, mode_s, layout_s, dir_s, threads, axis_o);
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
        (dt_o && py_dtype_arg(dt_o, "dtype", PYA_F32 | PYA_F64 | PYA_F16 | PYA_BF16, &dtype)))
        return NULL;
    pya pos, c, s;
    PyObject *rc, *rs;
    if (mrope_positions(pos_o, &own, &pos) != 0) return NULL;
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
     "           out=None, threads=1, token_axis=None, offsets=None) -> array\n\n"
     "Rotate every (token, head) row of x: (tokens, head_dim) or (tokens, heads, head_dim),\n"
     "or with batch axes, (batch, tokens, heads, head_dim) with token_axis=1 or (batch, heads,\n"
     "tokens, head_dim) with token_axis=2 (required beyond 3 dimensions): every batch element\n"
     "takes the same positions, unless offsets=(batch,) ints (element b's tokens at offsets[b] + t)\n"
     "or positions of shape (batch, tokens) give each element its own (one call per element).\n"
     "Batch axes fold into heads or tokens without a copy where the\n"
     "strides allow (always for C-contiguous arrays). x and out may be numpy arrays or CPU torch\n"
     "tensors (DLPack, no copy; bfloat16 too); out=None returns a numpy array.\n"
     "float32, float16 or bfloat16 (uint16), last axis contiguous (any outer strides: a\n"
     "transposed (heads, tokens, D) array or a slice of a fused qkv buffer works without a\n"
     "copy). Token t sits at positions[t], or start + t. layout: 'interleaved' (Meta, GPT-J)\n"
     "or 'half' (Hugging Face rotate_half, GPT-NeoX). direction: 'forward', 'inverse' (undoes\n"
     "forward) or 'backward' (the gradient). out=None returns a new array; out=x rotates in\n"
     "place; any other out must not overlap x. Angles are exact (double-double) at every\n"
     "|p| < 2^31. threads: at most this many threads (results identical for any count)."},
    {"rope_apply_qk", KW(py_rope_apply_qk),
     "rope_apply_qk(q, k, freqs, *, layout='half', start=0, positions=None, direction='forward',\n"
     "              q_out=None, k_out=None, threads=1, token_axis=None, offsets=None) -> (q_out, k_out)\n\n"
     "rope_apply on queries and keys in one call (same tokens and positions; head counts may\n"
     "differ, as in grouped-query attention). q_out=q / k_out=k rotate in place. Batch axes,\n"
     "offsets=(batch,) and (batch, tokens) positions as in rope_apply (q and k of one batch size)."},
    {"rope_shift", KW(py_rope_shift),
     "rope_shift(x, freqs, delta, *, layout='half', out=None, threads=1, token_axis=None) -> array\n\n"
     "Move keys already rotated at position p (with freqs) to p + delta in one exact rotation\n"
     "(context shifting, attention sinks): delta an int for every token, an int64 array with\n"
     "one entry per token (of one batch element), or with a batch axis (batch, tokens) per\n"
     "element and token or (batch, 1) one per element. The magnitude A is not applied again. x, out,\n"
     "layout, threads, token_axis as in rope_apply, batch axes included (any strides, no copy:\n"
     "every other token of a cache, x[:, ::2], is shifted in place); out=x (the usual case)\n"
     "shifts in place. delta must not lie in out."},
    {"rope_rebase", KW(py_rope_rebase),
     "rope_rebase(x, old_freqs, new_freqs, *, layout='half', start=0, positions=None, out=None,\n"
     "            threads=1, token_axis=None, offsets=None) -> array\n\n"
     "Re-base keys rotated at their positions with old_freqs onto new_freqs (dynamic NTK after\n"
     "growth) in one rotation by the exact angle difference p w_new - p w_old, magnitude\n"
     "A_new / A_old. Both must have the same rotary_dim. Other arguments as in rope_apply."},
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
     "            direction='forward', out=None, threads=1, token_axis=None) -> array\n\n"
     "Multi-axis RoPE (Qwen2-VL 'blocked', Qwen3-VL 'interleaved'): positions (tokens, 3)\n"
     "holds (t, h, w) per token, sections (s_t, s_h, s_w) sums to rotary_dim/2. x, out as in\n"
     "rope_apply (float32, float16, bfloat16); threads as in rope_apply. With a batch axis\n"
     "(x (batch, tokens, heads, D) token_axis=1, or (batch, heads, tokens, D) token_axis=2),\n"
     "positions (tokens, 3) for every element or (batch, tokens, 3) per element."},
    {"mrope_apply_qk", KW(py_mrope_apply_qk),
     "mrope_apply_qk(q, k, freqs, positions, sections, *, mode='blocked', layout='half',\n"
     "               direction='forward', q_out=None, k_out=None, threads=1, token_axis=None)\n"
     "    -> (q_out, k_out)\n\n"
     "mrope_apply on queries and keys in one call (each token's cos/sin computed once);\n"
     "batch axes as mrope_apply."},
    {"mrope_cos_sin", KW(py_mrope_cos_sin),
     "mrope_cos_sin(freqs, positions, sections, *, mode='blocked', dtype='float32') -> (cos, sin)"},
    {NULL, NULL, 0, NULL},
};

int py_init_rope(PyObject *m) { return PyModule_AddFunctions(m, methods); }
