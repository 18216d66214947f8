/*
 * py_rope.c — rotary embeddings: rope_apply (and the q/k pair call) on
 * strided (tokens, heads, head_dim) views, cos/sin caches, the layout
 * permutation, and M-RoPE.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

static const char *const directions[] = {"forward", "inverse", "backward", NULL};

/*
 * Batch axes. x is (..., head_dim) with one axis holding the tokens (the
 * positions index it); every other axis before head_dim is folded either
 * into heads (they must form one regular stride: (B, H, T, D) C-contiguous
 * folds B and H into B*H heads) or, failing that, the axes before the token
 * axis into extra tokens ((B, T, H, D) C-contiguous becomes B*T tokens whose
 * positions repeat B times). Nothing is copied; when neither fold fits the
 * strides the caller is told to pass a contiguous array.
 */
enum { FOLD_HEADS = 0, FOLD_TOKENS = 1 };

/* Fold axes [lo, hi) except `skip` into one (count, stride); 0 if they do not
 * form a single regular stride. Size-1 axes never matter. */
static int fold(const pya *v, int lo, int hi, int skip, int64_t *count, int64_t *stride) {
    *count = 1;
    *stride = v->shape[v->ndim - 1];
    for (int i = hi - 1; i >= lo; i--) {
        if (i == skip || v->shape[i] == 1) continue;
        if (*count == 1) {
            *stride = v->strides[i];
        } else if (v->strides[i] != *count * *stride) {
            return 0;
        }
        *count *= v->shape[i];
    }
    return 1;
}

static int fold_view(const pya *v, int tok, int how, pe_tensor *t, int64_t *repeat) {
    const int last = v->ndim - 1;
    int64_t tokens, ts, heads, hs;
    if (how == FOLD_HEADS) {
        tokens = v->shape[tok];
        ts = v->strides[tok];
        *repeat = 1;
        if (!fold(v, 0, last, tok, &heads, &hs)) return 0;
    } else {
        if (!fold(v, tok + 1, last, -1, &heads, &hs)) return 0;
        /* The token axis and the batch axes before it, as one token axis. */
        int64_t n = v->shape[tok], st = v->strides[tok], b = 1;
        for (int i = tok - 1; i >= 0; i--) {
            if (v->shape[i] == 1) continue;
            if (n > 1 && v->strides[i] != n * st) return 0;
            if (n == 1) st = v->strides[i];
            n *= v->shape[i];
            b *= v->shape[i];
        }
        tokens = n;
        ts = st;
        *repeat = b;
    }
    *t = pe_tensor_dense(v->view.buf, v->dtype, tokens, heads, v->shape[last]);
    t->token_stride = ts;
    t->head_stride = hs;
    return 1;
}

/* token_axis as given (None: 0 for 2 or 3 dimensions, required beyond). */
static int token_axis_arg(PyObject *o, const char *xname, int ndim, int *tok) {
    if (o == NULL || o == Py_None) {
        if (ndim <= 3) {
            *tok = 0;
            return 0;
        }
        PyErr_Format(PyExc_ValueError,
                     "%s has %d dimensions: say which axis holds the tokens, token_axis=1 for "
                     "(batch, tokens, heads, head_dim) or token_axis=2 for (batch, heads, tokens, head_dim)",
                     xname, ndim);
        return -1;
    }
    long k = PyLong_AsLong(o);
    if (k == -1 && PyErr_Occurred()) return -1;
    if (k < 0) k += ndim;
    if (k < 0 || k >= ndim - 1) {
        PyErr_Format(PyExc_ValueError, "token_axis=%S is not an axis of %s before head_dim (%d dimensions)", o,
                     xname, ndim);
        return -1;
    }
    *tok = (int)k;
    return 0;
}

/* numpy.empty_like(numpy.asarray(x)): asarray first, so that a buffer
 * wrapper's strides (a torch tensor's, py_dlpack.c) are kept, not copied to
 * C order. */
static PyObject *like(PyObject *x) {
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *a = np ? PyObject_CallMethod(np, "asarray", "O", x) : NULL;
    PyObject *r = a ? PyObject_CallMethod(np, "empty_like", "O", a) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(np);
    return r;
}

/*
 * x as a (tokens, heads, head_dim) view whose last axis is contiguous (with
 * batch axes folded as above) and out (None: a new C-contiguous array; x
 * itself: in place; otherwise an array of the same shape and dtype that does
 * not overlap x). Fills the two pe_tensor views and *repeat, how many times
 * the positions of one batch element repeat along the tokens. On success the
 * caller releases x and out and owns *result.
 */
static int rope_views(PyObject *x_o, PyObject *out_o, PyObject *axis_o, int max_ndim, int how_only,
                      const char *xname, const char *outname, pya *x, pya *out, PyObject **result, pe_tensor *tin,
                      pe_tensor *tout, int64_t *repeat) {
    int in_place = out_o == x_o;
    *result = NULL;
    memset(out, 0, sizeof *out); /* released on every failure below */
    if (pya_get(x_o, xname, PYA_FLOATS, in_place, PYA_ROWS, 2, max_ndim, x) != 0) return -1;
    int tok = 0;
    if (token_axis_arg(axis_o, xname, x->ndim, &tok) != 0) goto fail;
    if (in_place) {
        *out = *x;
        out->view.obj = NULL; /* one view, released once through x */
        *result = Py_NewRef(x_o);
    } else if ((out_o == NULL || out_o == Py_None) && x->ndim > 3) {
        /* With batch axes the new array keeps x's axis order in memory
         * (numpy.empty_like), so it folds the way x does. x->obj: a torch
         * tensor's buffer wrapper, whose strides numpy reads as they are. */
        if ((*result = like(x->obj)) == NULL) goto fail;
        if (pya_get(*result, outname, 1u << x->dtype, 1, PYA_ROWS, x->ndim, x->ndim, out) != 0) goto fail;
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
    const pya *o = in_place ? x : out;
    int64_t r2;
    for (int how = FOLD_HEADS; how <= FOLD_TOKENS; how++)
        if ((how_only < 0 || how == how_only) && fold_view(x, tok, how, tin, repeat) &&
            fold_view(o, tok, how, tout, &r2))
            return 0;
    PyErr_Format(PyExc_ValueError,
                 "the strides of %s (or %s) do not let its axes before head_dim fold into tokens and heads "
                 "without a copy; pass numpy.ascontiguousarray(%s)",
                 xname, outname, xname);
fail:
    pya_release(x);
    pya_release(out);
    Py_CLEAR(*result);
    return -1;
}

/* The positions of one batch element, repeated for each: an int64 array
 * (PyMem) the caller frees, or NULL with MemoryError. */
static int64_t *tile_positions(const pypos *p, int64_t per_batch, int64_t repeat) {
    if (repeat <= 0 || per_batch > INT64_MAX / (int64_t)sizeof(int64_t) / repeat) {
        PyErr_NoMemory();
        return NULL;
    }
    int64_t *ids = PyMem_Malloc((size_t)(per_batch * repeat) * sizeof(int64_t));
    if (ids == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (int64_t b = 0; b < repeat; b++)
        for (int64_t t = 0; t < per_batch; t++)
            ids[b * per_batch + t] = p->pos.ids ? p->pos.ids[t] : p->pos.start + t;
    return ids;
}

static int rope_options(int threads, pe_rope_options *o) {
    *o = pe_rope_options_default();
    o->threads = threads;
    return 0;
}

/*
 * Per-batch positions: x (batch, tokens, heads, D) with token_axis=1 or
 * (batch, heads, tokens, D) with token_axis=2, and each batch element at its
 * own positions (offsets[b] + t, or positions[b, t]; KV caches of different
 * lengths). No fold can carry that in one call when the batch axis folds into
 * heads, so each batch element is one library call on its (tokens, heads, D)
 * slice: the same numbers as separate calls by construction. Everything that
 * could fail is checked for every element before the first call writes.
 */
static int batch_axes(const pya *x, PyObject *axis_o, int *tok, int *head) {
    if (x->ndim != 4 || token_axis_arg(axis_o, "x", x->ndim, tok) != 0 || (*tok != 1 && *tok != 2)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "per-batch positions (offsets, or positions of shape (batch, tokens)) need x "
                            "as (batch, tokens, heads, head_dim) with token_axis=1 or (batch, heads, tokens, "
                            "head_dim) with token_axis=2");
        return -1;
    }
    *head = *tok == 1 ? 2 : 1;
    return 0;
}

/* Batch element b of a 4-D view as a (tokens, heads, D) pe_tensor. */
static pe_tensor batch_slice(const pya *v, int tok, int head, int64_t b) {
    pe_tensor t = pe_tensor_dense((char *)v->view.buf + b * v->strides[0] * (int64_t)v->view.itemsize,
                                  v->dtype, v->shape[tok], v->shape[head], v->shape[3]);
    t.token_stride = v->strides[tok];
    t.head_stride = v->strides[head];
    return t;
}

/* Per-batch int64 rows: offsets (B,) or a (B, cols) array, checked against
 * the batch size; *row_len is 0 for offsets. */
static int batch_rows(PyObject *o, const char *name, int64_t batch, int64_t cols, PyObject **own, pya *a,
                      int64_t *row_len) {
    if (py_int64_array(o, name, 1, 2, own, a) != 0) return -1;
    const int ok = a->shape[0] == batch && (a->ndim == 1 || a->shape[1] == cols);
    if (!ok) {
        char got[64];
        if (a->ndim == 2)
            snprintf(got, sizeof got, "(%lld, %lld)", (long long)a->shape[0], (long long)a->shape[1]);
        else
            snprintf(got, sizeof got, "(%lld,)", (long long)a->shape[0]);
        PyErr_Format(PyExc_ValueError, "%s has shape %s, want (%lld,) per batch element or (%lld, %lld) per "
                     "batch element and token", name, got, (long long)batch, (long long)batch, (long long)cols);
        pya_release(a);
        Py_CLEAR(*own);
        return -1;
    }
    *row_len = a->ndim == 2 ? a->shape[1] : 0;
    return 0;
}

typedef struct rope_call rope_call;
static int batch_call(const rope_call *c, const pe_positions *pos, const pe_tensor *in, const pe_tensor *out,
                      const pe_rope_options *opt);

/* rope_apply / rope_rebase with per-batch offsets or (B, T) positions. */
static PyObject *rope_run_batched(pya *x, pya *out, PyObject *result, PyObject *axis_o, PyObject *rows_o,
                                  const char *rows_name, int threads, const rope_call *c) {
    int tok, head;
    PyObject *own = NULL;
    pya r;
    int64_t row_len = 0;
    memset(&r, 0, sizeof r);
    if (batch_axes(x, axis_o, &tok, &head) != 0 ||
        batch_rows(rows_o, rows_name, x->shape[0], x->shape[tok], &own, &r, &row_len) != 0) {
        Py_CLEAR(result);
        return NULL;
    }
    int64_t B = x->shape[0];
    const int64_t T = x->shape[tok], *v = r.view.buf;
    /* offsets: start + T - 1 must fit int64 for every element (COM-3),
     * checked here so that no element is written before one is refused */
    for (int64_t b = 0; row_len == 0 && T > 0 && b < B; b++)
        if (v[b] > INT64_MAX - (T - 1)) {
            PyErr_Format(PyExc_OverflowError, "offsets[%lld]=%lld + %lld tokens overflow int64", (long long)b,
                         (long long)v[b], (long long)T);
            Py_CLEAR(result);
            B = 0;
        }
    pe_rope_options opt;
    rope_options(threads, &opt);
    int st = PE_OK;
    for (int64_t b = 0; st == PE_OK && result != NULL && b < B; b++) {
        const pe_tensor ti = batch_slice(x, tok, head, b), to = batch_slice(out, tok, head, b);
        const pe_positions pos = row_len ? pe_positions_list(v + b * row_len) : pe_positions_range(v[b]);
        PY_CALL(x->size / B, st = batch_call(c, &pos, &ti, &to, &opt));
    }
    if (st != PE_OK) {
        Py_CLEAR(result);
        py_raise(st);
    }
    pya_release(&r);
    Py_XDECREF(own);
    return result;
}

/* One positioned rotation of x into out: rope_apply (new_freqs NULL) or
 * rope_rebase (freqs -> new_freqs), with positions tiled over folded batch
 * axes; both share the view, position and error handling. */
struct rope_call {
    const pe_freqs *freqs, *new_freqs;
    pe_rope_layout layout;
    pe_rope_direction direction;
};

static int batch_call(const rope_call *c, const pe_positions *pos, const pe_tensor *in, const pe_tensor *out,
                      const pe_rope_options *opt) {
    return c->new_freqs ? pe_rope_rebase(c->freqs, c->new_freqs, c->layout, pos, in, out, opt)
                        : pe_rope_apply_ex(c->freqs, c->layout, pos, in, out, c->direction, opt);
}

/* numpy.ndim(o), -1 when o is not array-like (no exception left set). */
static long np_ndim(PyObject *o) {
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *n = np ? PyObject_CallMethod(np, "ndim", "O", o) : NULL;
    Py_XDECREF(np);
    const long nd = n ? PyLong_AsLong(n) : -1;
    Py_XDECREF(n);
    PyErr_Clear(); /* not array-like: the argument's own parser says what is wrong */
    return nd;
}

/* Is positions per batch element: a 2-D array ((batch, tokens))? */
static int positions_2d(PyObject *pos_o) {
    return pos_o != NULL && pos_o != Py_None && np_ndim(pos_o) == 2;
}

static PyObject *rope_run_positioned(PyObject *x_o, PyObject *out_o, PyObject *axis_o, PyObject *pos_o,
                                     long long start, PyObject *offsets_o, int threads, const rope_call *c) {
    pya x, out;
    PyObject *result;
    pe_tensor tin, tout;
    int64_t repeat = 1;
    const int per_batch = (offsets_o != NULL && offsets_o != Py_None) || positions_2d(pos_o);
    if (per_batch && offsets_o != NULL && offsets_o != Py_None && (pos_o != Py_None || start != 0))
        return PyErr_Format(PyExc_ValueError, "offsets replaces start and positions: give one of them");
    if (rope_views(x_o, out_o, axis_o, PYA_MAX_DIMS, -1, "x", "out", &x, &out, &result, &tin, &tout, &repeat) != 0)
        return NULL;
    if (per_batch) {
        const int offs = offsets_o != NULL && offsets_o != Py_None;
        result = rope_run_batched(&x, &out, result, axis_o, offs ? offsets_o : pos_o, offs ? "offsets" : "positions",
                                  threads, c);
        pya_release(&x);
        pya_release(&out);
        return result;
    }
    pypos p;
    int64_t *tiled = NULL;
    if (pypos_get(pos_o, start, tin.tokens / repeat, "positions", &p) != 0) {
        Py_CLEAR(result);
    } else {
        pe_positions pos = p.pos;
        if (repeat > 1 && (tiled = tile_positions(&p, tin.tokens / repeat, repeat)) != NULL)
            pos = pe_positions_list(tiled);
        if (repeat > 1 && tiled == NULL) {
            Py_CLEAR(result);
        } else {
            pe_rope_options opt;
            rope_options(threads, &opt);
            int st;
            PY_CALL(x.size, st = c->new_freqs ? pe_rope_rebase(c->freqs, c->new_freqs, c->layout, &pos, &tin, &tout, &opt)
                                 : pe_rope_apply_ex(c->freqs, c->layout, &pos, &tin, &tout, c->direction, &opt));
            if (st != PE_OK) {
                Py_CLEAR(result);
                py_raise(st);
            }
        }
        PyMem_Free(tiled);
        pypos_release(&p);
    }
    pya_release(&x);
    pya_release(&out);
    return result;
}

static PyObject *py_rope_apply(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "freqs", "layout", "start", "positions", "direction", "out", "threads",
                             "token_axis", "offsets", NULL};
    PyObject *x_o, *fr_o, *pos_o = Py_None, *out_o = Py_None, *axis_o = Py_None, *offs_o = Py_None;
    const char *layout_s = "half", *dir_s = "forward";
    long long start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$sLOsOiOO:rope_apply", kwlist, &x_o, &fr_o, &layout_s,
                                     &start, &pos_o, &dir_s, &out_o, &threads, &axis_o, &offs_o))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_rope_layout layout;
    int dir;
    if (f == NULL || py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir))
        return NULL;
    const rope_call c = {f, NULL, layout, (pe_rope_direction)dir};
    return rope_run_positioned(x_o, out_o, axis_o, pos_o, start, offs_o, threads, &c);
}

static PyObject *py_rope_apply_qk(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q", "k", "freqs", "layout", "start", "positions", "direction",
                             "q_out", "k_out", "threads", "token_axis", NULL};
    PyObject *q_o, *k_o, *fr_o, *pos_o = Py_None, *qo_o = Py_None, *ko_o = Py_None, *axis_o = Py_None;
    const char *layout_s = "half", *dir_s = "forward";
    long long start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sLOsOOiO:rope_apply_qk", kwlist, &q_o, &k_o, &fr_o,
                                     &layout_s, &start, &pos_o, &dir_s, &qo_o, &ko_o, &threads, &axis_o))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_rope_layout layout;
    int dir;
    if (f == NULL || py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir))
        return NULL;
    pya q, qo, k, ko;
    PyObject *rq, *rk, *result = NULL;
    pe_tensor qin, qout, kin, kout;
    /* q and k fold their batch axes the same way (into heads, preferred:
     * one cos/sin per token; else into tokens), so their tokens match. */
    int64_t qrep = 1, krep = 1;
    int ok = 0;
    for (int how = FOLD_HEADS; how <= FOLD_TOKENS && !ok; how++) {
        if (how > FOLD_HEADS) PyErr_Clear();
        if (rope_views(q_o, qo_o, axis_o, PYA_MAX_DIMS, how, "q", "q_out", &q, &qo, &rq, &qin, &qout, &qrep) != 0)
            continue;
        if (rope_views(k_o, ko_o, axis_o, PYA_MAX_DIMS, how, "k", "k_out", &k, &ko, &rk, &kin, &kout, &krep) != 0) {
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
    } else if (pypos_get(pos_o, start, qin.tokens / qrep, "positions", &p) == 0) {
        pe_positions pos = p.pos;
        int64_t *tiled = NULL;
        if (qrep > 1 && (tiled = tile_positions(&p, qin.tokens / qrep, qrep)) != NULL) pos = pe_positions_list(tiled);
        if (qrep == 1 || tiled != NULL) {
            pe_rope_options opt;
            rope_options(threads, &opt);
            int st;
            PY_CALL(q.size + k.size, st = pe_rope_apply_qk(f, layout, &pos, &qin, &qout, &kin, &kout,
                                                            (pe_rope_direction)dir, &opt));
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

/* Two new (count, pairs) arrays of dtype; releases nothing on failure. */
/* rope_shift: delta an int (every token) or int64 per token of one batch
 * element, tiled over folded batch axes like positions. */
static PyObject *py_rope_shift(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "freqs", "delta", "layout", "out", "threads", "token_axis", NULL};
    PyObject *x_o, *fr_o, *delta_o, *out_o = Py_None, *axis_o = Py_None;
    const char *layout_s = "half";
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sOiO:rope_shift", kwlist, &x_o, &fr_o, &delta_o,
                                     &layout_s, &out_o, &threads, &axis_o))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_rope_layout layout;
    if (f == NULL || py_layout(layout_s, &layout)) return NULL;
    long long constant = 0;
    /* an int (numpy integer scalars included) or a sequence of them */
    const int per_token = PySequence_Check(delta_o) || (py_dlpack_is_tensor(delta_o) && np_ndim(delta_o) > 0);
    if (!per_token) {
        PyObject *n = PyNumber_Index(delta_o);
        if (n == NULL) return NULL;
        int overflow = 0;
        constant = PyLong_AsLongLongAndOverflow(n, &overflow);
        Py_DECREF(n);
        if (overflow) return PyErr_Format(PyExc_OverflowError, "delta does not fit in int64");
        if (constant == -1 && PyErr_Occurred()) return NULL;
    }
    pya x, out;
    PyObject *result;
    pe_tensor tin, tout;
    int64_t repeat = 1;
    if (rope_views(x_o, out_o, axis_o, PYA_MAX_DIMS, -1, "x", "out", &x, &out, &result, &tin, &tout, &repeat) != 0)
        return NULL;
    PyObject *own = NULL;
    pya d;
    memset(&d, 0, sizeof d);
    int64_t *tiled = NULL;
    const int64_t *deltas = NULL;
    const int64_t per_batch = repeat > 0 ? tin.tokens / repeat : 0;
    if (per_token && positions_2d(delta_o)) {
        /* (batch, tokens): each batch element its own deltas; (batch, 1):
         * one constant per batch element. One call per element (see
         * rope_run_batched). */
        int tok, head;
        int64_t row_len = 0;
        if (batch_axes(&x, axis_o, &tok, &head) != 0 ||
            py_int64_array(delta_o, "delta", 2, 2, &own, &d) != 0) {
            Py_CLEAR(result);
            goto done;
        }
        row_len = d.shape[1];
        if (d.shape[0] != x.shape[0] || (row_len != x.shape[tok] && row_len != 1)) {
            PyErr_Format(PyExc_ValueError, "delta has shape (%lld, %lld), want (%lld, %lld) per batch element "
                         "and token or (%lld, 1) per batch element", (long long)d.shape[0], (long long)row_len,
                         (long long)x.shape[0], (long long)x.shape[tok], (long long)x.shape[0]);
            Py_CLEAR(result);
            goto done;
        }
        pe_rope_options opt;
        rope_options(threads, &opt);
        int st = PE_OK;
        const int64_t *dv = d.view.buf;
        for (int64_t b = 0; st == PE_OK && b < x.shape[0]; b++) {
            const pe_tensor ti = batch_slice(&x, tok, head, b), to = batch_slice(&out, tok, head, b);
            const int row = row_len == x.shape[tok] && row_len != 1;
            PY_CALL(x.size / x.shape[0], st = pe_rope_shift(f, layout, row ? dv + b * row_len : NULL,
                                                            row ? 0 : dv[b * row_len], &ti, &to, &opt));
        }
        if (st != PE_OK) {
            Py_CLEAR(result);
            py_raise(st);
        }
        goto done;
    }
    if (per_token) {
        if (py_int64_array(delta_o, "delta", 1, 1, &own, &d) != 0) {
            Py_CLEAR(result);
            goto done;
        }
        if (d.shape[0] != per_batch) {
            PyErr_Format(PyExc_ValueError, "delta has %lld entries, want one per token (%lld)",
                         (long long)d.shape[0], (long long)per_batch);
            Py_CLEAR(result);
            goto done;
        }
        deltas = d.view.buf;
        if (repeat > 1) {
            pypos p;
            memset(&p, 0, sizeof p);
            p.pos = pe_positions_list(deltas);
            if ((tiled = tile_positions(&p, per_batch, repeat)) == NULL) {
                Py_CLEAR(result);
                goto done;
            }
            deltas = tiled;
        }
    }
    pe_rope_options opt;
    rope_options(threads, &opt);
    int st;
    PY_CALL(x.size, st = pe_rope_shift(f, layout, deltas, (int64_t)constant, &tin, &tout, &opt));
    if (st != PE_OK) {
        Py_CLEAR(result);
        py_raise(st);
    }
done:
    PyMem_Free(tiled);
    if (own != NULL) {
        pya_release(&d);
        Py_DECREF(own);
    }
    pya_release(&x);
    pya_release(&out);
    return result;
}

/* rope_rebase: positions as rope_apply's (tiled over folded batch axes). */
static PyObject *py_rope_rebase(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", "old_freqs", "new_freqs", "layout", "start", "positions", "out",
                             "threads", "token_axis", "offsets", NULL};
    PyObject *x_o, *f0_o, *f1_o, *pos_o = Py_None, *out_o = Py_None, *axis_o = Py_None, *offs_o = Py_None;
    const char *layout_s = "half";
    long long start = 0;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$sLOOiOO:rope_rebase", kwlist, &x_o, &f0_o, &f1_o,
                                     &layout_s, &start, &pos_o, &out_o, &threads, &axis_o, &offs_o))
        return NULL;
    const pe_freqs *f0 = py_freqs_arg(f0_o, "old_freqs");
    const pe_freqs *f1 = f0 ? py_freqs_arg(f1_o, "new_freqs") : NULL;
    pe_rope_layout layout;
    if (f0 == NULL || f1 == NULL || py_layout(layout_s, &layout)) return NULL;
    const rope_call c = {f0, f1, layout, PE_ROPE_FORWARD};
    return rope_run_positioned(x_o, out_o, axis_o, pos_o, start, offs_o, threads, &c);
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
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$LOOi:rope_cos_sin", kwlist, &fr_o, &count_o, &start,
                                     &pos_o, &dt_o, &threads))
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
    static char *kwlist[] = {"x", "freqs", "positions", "sections", "mode", "layout", "direction", "out",
                             "threads", NULL};
    PyObject *x_o, *fr_o, *pos_o, *sec_o, *out_o = Py_None, *own = NULL, *result = NULL;
    const char *mode_s = "blocked", *layout_s = "half", *dir_s = "forward";
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$sssOi:mrope_apply", kwlist, &x_o, &fr_o, &pos_o, &sec_o,
                                     &mode_s, &layout_s, &dir_s, &out_o, &threads))
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
    int64_t repeat = 1; /* M-RoPE takes (tokens, [heads,] D): no batch axes, so never folded */
    if (rope_views(x_o, out_o, Py_None, 3, -1, "x", "out", &x, &out, &result, &tin, &tout, &repeat) != 0) return NULL;
    if (mrope_positions(pos_o, tin.tokens, &own, &pos) == 0) {
        int st;
        pe_rope_options opt;
        rope_options(threads, &opt);
        PY_CALL(x.size, st = pe_mrope_apply_ex(f, layout, (const int64_t *)pos.view.buf, sec, (pe_mrope_mode)mode,
                                               &tin, &tout, (pe_rope_direction)dir, &opt));
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

/* M-RoPE on queries and keys in one call (py_rope_apply_qk's rules, no batch axes). */
static PyObject *py_mrope_apply_qk(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q", "k", "freqs", "positions", "sections", "mode", "layout", "direction",
                             "q_out", "k_out", "threads", NULL};
    PyObject *q_o, *k_o, *fr_o, *pos_o, *sec_o, *qo_o = Py_None, *ko_o = Py_None, *own = NULL, *result = NULL;
    const char *mode_s = "blocked", *layout_s = "half", *dir_s = "forward";
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO|$sssOOi:mrope_apply_qk", kwlist, &q_o, &k_o, &fr_o, &pos_o,
                                     &sec_o, &mode_s, &layout_s, &dir_s, &qo_o, &ko_o, &threads))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    int64_t sec[3];
    int mode, dir;
    pe_rope_layout layout;
    if (f == NULL || sections_arg(sec_o, sec) || py_choice(mode_s, "mode", mrope_modes, &mode) ||
        py_layout(layout_s, &layout) || py_choice(dir_s, "direction", directions, &dir))
        return NULL;
    pya q, qo, k, ko, pos = {0};
    PyObject *rq, *rk;
    pe_tensor qin, qout, kin, kout;
    if (py_rope_views(q_o, qo_o, "q", "q_out", &q, &qo, &rq, &qin, &qout) != 0) return NULL;
    if (py_rope_views(k_o, ko_o, "k", "k_out", &k, &ko, &rk, &kin, &kout) != 0) {
        pya_release(&q);
        pya_release(&qo);
        Py_DECREF(rq);
        return NULL;
    }
    if (pya_overlap(&q, &ko) || pya_overlap(&k, &qo) || pya_overlap(&qo, &ko)) {
        PyErr_SetString(PyExc_ValueError, "the q and k outputs overlap each other or the other input");
    } else if (mrope_positions(pos_o, qin.tokens, &own, &pos) == 0) {
        pe_rope_options opt;
        rope_options(threads, &opt);
        int st;
        PY_CALL(q.size + k.size, st = pe_mrope_apply_qk(f, layout, (const int64_t *)pos.view.buf, sec,
                                                        (pe_mrope_mode)mode, &qin, &qout, &kin, &kout,
                                                        (pe_rope_direction)dir, &opt));
        result = st == PE_OK ? PyTuple_Pack(2, rq, rk) : py_raise(st);
        pya_release(&pos);
        Py_XDECREF(own);
    }
    Py_DECREF(rq);
    Py_DECREF(rk);
    pya_release(&q);
    pya_release(&qo);
    pya_release(&k);
    pya_release(&ko);
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
        (dt_o && py_dtype_arg(dt_o, "dtype", PYA_F32 | PYA_F64 | PYA_F16 | PYA_BF16, &dtype)))
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
     "              q_out=None, k_out=None, threads=1, token_axis=None) -> (q_out, k_out)\n\n"
     "rope_apply on queries and keys in one call (same tokens and positions; head counts may\n"
     "differ, as in grouped-query attention). q_out=q / k_out=k rotate in place."},
    {"rope_shift", KW(py_rope_shift),
     "rope_shift(x, freqs, delta, *, layout='half', out=None, threads=1, token_axis=None) -> array\n\n"
     "Move keys already rotated at position p (with freqs) to p + delta in one exact rotation\n"
     "(context shifting, attention sinks): delta an int for every token, an int64 array with\n"
     "one entry per token (of one batch element), or with a batch axis (batch, tokens) per\n"
     "element and token or (batch, 1) one per element. The magnitude A is not applied again. x, out,\n"
     "layout, threads, token_axis as in rope_apply; out=x (the usual case) shifts in place."},
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
     "            direction='forward', out=None) -> array\n\n"
     "Multi-axis RoPE (Qwen2-VL 'blocked', Qwen3-VL 'interleaved'): positions (tokens, 3)\n"
     "holds (t, h, w) per token, sections (s_t, s_h, s_w) sums to rotary_dim/2. x, out as in\n"
     "rope_apply (float32, float16, bfloat16); threads as in rope_apply."},
    {"mrope_apply_qk", KW(py_mrope_apply_qk),
     "mrope_apply_qk(q, k, freqs, positions, sections, *, mode='blocked', layout='half',\n"
     "               direction='forward', q_out=None, k_out=None, threads=1) -> (q_out, k_out)\n\n"
     "mrope_apply on queries and keys in one call (each token's cos/sin computed once)."},
    {"mrope_cos_sin", KW(py_mrope_cos_sin),
     "mrope_cos_sin(freqs, positions, sections, *, mode='blocked', dtype='float32') -> (cos, sin)"},
    {NULL, NULL, 0, NULL},
};

int py_init_rope(PyObject *m) { return PyModule_AddFunctions(m, methods); }

int py_rope_views(PyObject *x_o, PyObject *out_o, const char *xname, const char *outname, pya *x,
                  pya *out, PyObject **result, pe_tensor *tin, pe_tensor *tout) {
    int64_t repeat = 1; /* at most 3 dimensions: never folded */
    return rope_views(x_o, out_o, Py_None, 3, -1, xname, outname, x, out, result, tin, tout, &repeat);
}
