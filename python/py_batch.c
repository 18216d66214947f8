/*
 * py_batch.c — batch axes for every call that rotates or writes per-token
 * tensors (rope_apply and its relatives in py_rope.c, the table and packed
 * calls of py_tables.c, M-RoPE, the fused epilogue of py_fused.c): one
 * place that reads token_axis, makes the (tokens, heads, D) views of a
 * batch element without copying, reads per-batch positions (offsets,
 * (batch, tokens) positions, per-element cu_seqlens), checks every
 * element's positions before anything is written, and drives the library:
 * one call where a fold of the batch into heads or tokens is exact, one
 * call per batch element on strided views otherwise.
 */
#include "posenc_py.h"

#include <string.h>

const char *const py_directions[] = {"forward", "inverse", "backward", NULL};

int py_direction(const char *value, pe_rope_direction *out) {
    int d;
    if (py_choice(value, "direction", py_directions, &d) != 0) return -1;
    *out = (pe_rope_direction)d;
    return 0;
}

pe_rope_options py_rope_opts(py_threads threads) {
    pe_rope_options o = pe_rope_options_default();
    o.threads = threads.threads;
    o.pool = threads.pool;
    return o;
}

long py_ndim(PyObject *o) {
    /* numpy arrays and torch tensors say it themselves (numpy.ndim asks the
     * same attribute first): no import on every rotation call */
    PyObject *attr = PyObject_GetAttrString(o, "ndim");
    if (attr != NULL && PyLong_Check(attr)) {
        const long nd = PyLong_AsLong(attr);
        Py_DECREF(attr);
        if (!PyErr_Occurred()) return nd;
    }
    Py_XDECREF(attr);
    PyErr_Clear();
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *n = np ? PyObject_CallMethod(np, "ndim", "O", o) : NULL;
    Py_XDECREF(np);
    const long nd = n ? PyLong_AsLong(n) : -1;
    Py_XDECREF(n);
    PyErr_Clear(); /* not array-like: the argument's own parser says what is wrong */
    return nd;
}

/* ------------------------------------------------------------ token axis */

int pyb_token_axis(PyObject *o, const char *xname, int ndim, int *tok) {
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

int pyb_inout(PyObject *x_o, PyObject *out_o, PyObject *axis_o, int max_ndim, const char *xname,
              const char *outname, pya *x, pya *out, PyObject **result, int *tok) {
    int in_place = out_o == x_o;
    *result = NULL;
    memset(out, 0, sizeof *out); /* released on every failure below */
    if (pya_get(x_o, xname, PYA_FLOATS, in_place, PYA_ROWS, 2, max_ndim, x) != 0) return -1;
    if (pyb_token_axis(axis_o, xname, x->ndim, tok) != 0) goto fail;
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
    return 0;
fail:
    pya_release(x);
    pya_release(out);
    Py_CLEAR(*result);
    return -1;
}

/* ------------------------------------------- folds of any number of axes */

/*
 * x is (..., head_dim) with one axis holding the tokens (the positions
 * index it); every other axis before head_dim is folded either into heads
 * (they must form one regular stride: (B, H, T, D) C-contiguous folds B and
 * H into B*H heads) or, failing that, the axes before the token axis into
 * extra tokens ((B, T, H, D) C-contiguous becomes B*T tokens whose
 * positions repeat B times). Nothing is copied.
 */

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
    if (how == PYB_FOLD_HEADS) {
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

int pyb_views(PyObject *x_o, PyObject *out_o, PyObject *axis_o, int max_ndim, int how_only, const char *xname,
              const char *outname, pya *x, pya *out, PyObject **result, pe_tensor *tin, pe_tensor *tout,
              int64_t *repeat) {
    int tok;
    if (pyb_inout(x_o, out_o, axis_o, max_ndim, xname, outname, x, out, result, &tok) != 0) return -1;
    const pya *o = out_o == x_o ? x : out;
    int64_t r2;
    for (int how = PYB_FOLD_HEADS; how <= PYB_FOLD_TOKENS; how++)
        if ((how_only < 0 || how == how_only) && fold_view(x, tok, how, tin, repeat) &&
            fold_view(o, tok, how, tout, &r2))
            return 0;
    PyErr_Format(PyExc_ValueError,
                 "the strides of %s (or %s) do not let its axes before head_dim fold into tokens and heads "
                 "without a copy; pass numpy.ascontiguousarray(%s)",
                 xname, outname, xname);
    pya_release(x);
    pya_release(out);
    Py_CLEAR(*result);
    return -1;
}

/* n int64 (PyMem), or NULL with MemoryError. */
static int64_t *alloc_ids(int64_t n) {
    if (n < 0 || n > INT64_MAX / (int64_t)sizeof(int64_t) || (uint64_t)n > SIZE_MAX / sizeof(int64_t)) {
        PyErr_NoMemory();
        return NULL;
    }
    int64_t *ids = PyMem_Malloc(n > 0 ? (size_t)n * sizeof(int64_t) : 1);
    if (ids == NULL) PyErr_NoMemory();
    return ids;
}

int64_t *pyb_tile(const int64_t *ids, int64_t start, int64_t per_batch, int64_t repeat) {
    if (repeat <= 0 || (per_batch > 0 && repeat > INT64_MAX / per_batch)) {
        PyErr_NoMemory();
        return NULL;
    }
    int64_t *out = alloc_ids(per_batch * repeat);
    for (int64_t b = 0; out != NULL && b < repeat; b++)
        for (int64_t t = 0; t < per_batch; t++) out[b * per_batch + t] = ids ? ids[t] : start + t;
    return out;
}

/* ------------------------------------------------- 4-D batch element views */

int pyb_view_of(const pya *a, int tok, pyb_view *v) {
    memset(v, 0, sizeof *v);
    const int nd = a->ndim;
    if (nd == 4 && tok != 1 && tok != 2) {
        PyErr_SetString(PyExc_ValueError,
                        "a batch axis needs token_axis=1 ((batch, tokens, heads, head_dim)) or token_axis=2 "
                        "((batch, heads, tokens, head_dim))");
        return -1;
    }
    const int batched = nd == 4, head = nd == 2 ? -1 : (tok == nd - 2 ? nd - 3 : nd - 2);
    v->batch = batched ? a->shape[0] : 1;
    v->bstride = batched ? a->strides[0] : 0;
    v->t = pe_tensor_dense(a->view.buf, a->dtype, a->shape[tok], head >= 0 ? a->shape[head] : 1,
                           a->shape[nd - 1]);
    v->t.token_stride = a->strides[tok];
    v->t.head_stride = head >= 0 ? a->strides[head] : a->shape[nd - 1];
    return 0;
}

pe_tensor pyb_at(const pyb_view *v, int64_t b) {
    pe_tensor t = v->t;
    if (t.data != NULL) t.data = (char *)t.data + b * v->bstride * (int64_t)pe_dtype_size(t.dtype);
    return t;
}

/* Does v fold its batch into heads (heads = 1) or into tokens (0)? */
static int folds(const pyb_view *v, int64_t batch, int heads) {
    if (v->t.data == NULL || batch <= 1) return 1;
    return heads ? v->bstride == v->t.heads * v->t.head_stride : v->bstride == v->t.tokens * v->t.token_stride;
}

/* ------------------------------------------------------ per-batch positions */

static void rows_release(pyb_pos *p) {
    for (int i = 0; i < 3; i++)
        if (p->own[i] != NULL) {
            pya_release(&p->arr[i]);
            Py_CLEAR(p->own[i]);
        }
}

void pyb_pos_release(pyb_pos *p) {
    if (p->has_plain) pypos_release(&p->plain);
    p->has_plain = 0;
    rows_release(p);
}

static int given(PyObject *o) { return o != NULL && o != Py_None; }

/* Integers as int64 array slot i of p with ndim in [lo, hi]. */
static int ints(pyb_pos *p, int i, PyObject *o, const char *name, int lo, int hi) {
    p->arr_name[i] = name;
    return py_int64_array(o, name, lo, hi, &p->own[i], &p->arr[i]);
}

static int shape_error(const char *name, const pya *a, const char *want) {
    char got[96] = "(";
    for (int i = 0; i < a->ndim; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%lld", i ? ", " : "", (long long)a->shape[i]);
    snprintf(got + strlen(got), sizeof got - strlen(got), a->ndim == 1 ? ",)" : ")");
    PyErr_Format(PyExc_ValueError, "%s has shape %s, want %s", name, got, want);
    return -1;
}

static int need_batch(const pyb_args *a, const char *name, int batched) {
    if (batched) return 0;
    PyErr_Format(PyExc_ValueError, "%s per batch element need %s", name,
                 a->batch_shape ? a->batch_shape
                                : "x as (batch, tokens, heads, head_dim) with token_axis=1 or (batch, heads, "
                                  "tokens, head_dim) with token_axis=2");
    return -1;
}

static int get_varlen(const pyb_args *a, int64_t batch, int batched, pyb_pos *p) {
    char want[96];
    if (given(a->positions) || given(a->offsets))
        return PyErr_Format(PyExc_ValueError, "give positions, offsets or cu_seqlens: one of them"), -1;
    if (ints(p, 0, a->cu_seqlens, "cu_seqlens", 1, 2) != 0) return -1;
    const pya *cu = &p->arr[0];
    p->kind = PYB_VARLEN;
    p->n_seqs = cu->shape[cu->ndim - 1] - 1;
    if (p->n_seqs < 0) return PyErr_SetString(PyExc_ValueError, "cu_seqlens needs n_seqs + 1 >= 1 entries"), -1;
    if (cu->ndim == 2) {
        snprintf(want, sizeof want, "(n_seqs + 1,) or (%lld, n_seqs + 1) per batch element", (long long)batch);
        if (need_batch(a, "cu_seqlens", batched) || (cu->shape[0] != batch && shape_error("cu_seqlens", cu, want)))
            return -1;
        p->cu_step = cu->shape[1];
    }
    p->cu = cu->view.buf;
    if (given(a->seq_starts)) {
        if (ints(p, 1, a->seq_starts, "seq_starts", 1, 2) != 0) return -1;
        const pya *st = &p->arr[1];
        snprintf(want, sizeof want, "(%lld,), or (%lld, %lld) per batch element: one per sequence", (long long)p->n_seqs,
                 (long long)batch, (long long)p->n_seqs);
        if (st->ndim == 2 && need_batch(a, "seq_starts", batched)) return -1;
        if (st->shape[st->ndim - 1] != p->n_seqs || (st->ndim == 2 && st->shape[0] != batch))
            return shape_error("seq_starts", st, want);
        p->starts = st->view.buf;
        p->starts_step = st->ndim == 2 ? p->n_seqs : 0;
    }
    p->per_batch = p->cu_step != 0 || p->starts_step != 0;
    return 0;
}

/* rope_shift's delta: an int for every token (a RANGE that does not
 * advance), (tokens,) shared, (batch, tokens) or (batch, 1) per element. */
static int get_delta(const pyb_args *a, int64_t batch, int batched, int64_t tokens, pyb_pos *p) {
    PyObject *d = a->delta;
    /* numpy integer scalars and 0-d arrays are ints */
    const long nd = PySequence_Check(d) || py_dlpack_is_tensor(d) ? py_ndim(d) : 0;
    p->kind = PYB_RANGE;
    p->fixed = 1;
    if (nd == 0) {
        PyObject *n = PyNumber_Index(d);
        if (n == NULL) return -1;
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(n, &overflow);
        Py_DECREF(n);
        if (overflow) return PyErr_SetString(PyExc_OverflowError, "delta does not fit in int64"), -1;
        if (v == -1 && PyErr_Occurred()) return -1;
        p->start = v;
        return 0;
    }
    if (nd == 1) {
        if (ints(p, 0, d, "delta", 1, 1) != 0) return -1;
        if (p->arr[0].shape[0] != tokens)
            return PyErr_Format(PyExc_ValueError, "delta has %lld entries, want one per token (%lld)",
                                (long long)p->arr[0].shape[0], (long long)tokens), -1;
        p->kind = PYB_LIST;
        p->ids = p->arr[0].view.buf;
        return 0;
    }
    char want[128];
    snprintf(want, sizeof want, "(%lld, %lld) per batch element and token or (%lld, 1) per batch element",
             (long long)batch, (long long)tokens, (long long)batch);
    if (need_batch(a, "delta", batched) != 0 || ints(p, 0, d, "delta", 2, 2) != 0) return -1;
    const pya *da = &p->arr[0];
    if (da->shape[0] != batch || (da->shape[1] != tokens && da->shape[1] != 1)) return shape_error("delta", da, want);
    p->per_batch = 1;
    if (da->shape[1] == 1) {
        p->offsets = da->view.buf; /* one constant per element */
    } else {
        p->kind = PYB_LIST;
        p->ids = da->view.buf;
        p->ids_step = tokens;
    }
    return 0;
}

int pyb_pos_get(const pyb_args *a, int64_t batch, int batched, int64_t tokens, int width, pyb_pos *p) {
    memset(p, 0, sizeof *p);
    p->batch = batch;
    p->tokens = tokens;
    p->width = width;
    p->start = a->start;
    char want[96];
    int rc = 0;
    if (given(a->delta)) {
        rc = get_delta(a, batch, batched, tokens, p);
    } else if (given(a->seq_starts) && !given(a->cu_seqlens)) {
        PyErr_SetString(PyExc_ValueError, "seq_starts needs cu_seqlens");
        rc = -1;
    } else if (given(a->cu_seqlens)) {
        rc = get_varlen(a, batch, batched, p);
    } else if (given(a->offsets)) {
        p->kind = PYB_RANGE;
        snprintf(want, sizeof want, "(%lld,): one start per batch element", (long long)batch);
        if (given(a->positions) || a->start != 0) {
            PyErr_SetString(PyExc_ValueError, "offsets replaces start and positions: give one of them");
            rc = -1;
        } else if (need_batch(a, "offsets", batched) || ints(p, 0, a->offsets, "offsets", 1, 1) != 0) {
            rc = -1;
        } else if (p->arr[0].shape[0] != batch) {
            rc = shape_error("offsets", &p->arr[0], want);
        } else {
            p->offsets = p->arr[0].view.buf;
            p->per_batch = 1;
        }
    } else if (width > 1 || (given(a->positions) && py_ndim(a->positions) == 2)) {
        /* (tokens, width) shared or (batch, tokens, width); width 1: (batch, tokens) */
        const int shared_nd = width > 1 ? 2 : 1;
        p->kind = PYB_LIST;
        if (!given(a->positions)) {
            PyErr_SetString(PyExc_ValueError, "give positions");
            rc = -1;
        } else if (ints(p, 0, a->positions, "positions", shared_nd, shared_nd + 1) != 0) {
            rc = -1;
        } else {
            const pya *ps = &p->arr[0];
            const int pb = ps->ndim > shared_nd;
            if (width > 1)
                snprintf(want, sizeof want, "(%lld, %d), or (%lld, %lld, %d) per batch element",
                         (long long)tokens, width, (long long)batch, (long long)tokens, width);
            else
                snprintf(want, sizeof want, "(%lld,), or (%lld, %lld) per batch element", (long long)tokens,
                         (long long)batch, (long long)tokens);
            if (pb && need_batch(a, "positions", batched)) rc = -1;
            else if ((pb && ps->shape[0] != batch) || ps->shape[pb] != tokens ||
                     (width > 1 && ps->shape[pb + 1] != width))
                rc = shape_error("positions", ps, want);
            p->ids = ps->view.buf;
            p->ids_step = pb ? tokens * width : 0;
            p->per_batch = pb;
        }
    } else if (pypos_get(a->positions, a->start, tokens, "positions", &p->plain) != 0) {
        rc = -1;
    } else {
        p->has_plain = 1;
        p->kind = p->plain.pos.ids ? PYB_LIST : PYB_RANGE;
        p->ids = p->plain.pos.ids;
        p->start = p->plain.pos.start;
    }
    if (rc != 0) pyb_pos_release(p);
    return rc;
}

pe_positions pyb_pos_at(const pyb_pos *p, int64_t b) {
    switch (p->kind) {
    case PYB_LIST: return pe_positions_list(p->ids + b * p->ids_step);
    case PYB_VARLEN: {
        pe_positions pos = pe_positions_varlen_i64(p->cu + b * p->cu_step, p->n_seqs,
                                                   p->starts ? p->starts + b * p->starts_step : NULL);
        pos.start = p->start;
        return pos;
    }
    default: return pe_positions_range(p->offsets ? p->offsets[b] : p->start);
    }
}

/* Tokens [first, first + n) at positions from s: fit int64, and (rows >= 0)
 * rows of a table. */
static int span_ok(int64_t s, int64_t n, int64_t rows, const char *what) {
    if (n <= 0) return 0;
    if (s > INT64_MAX - (n - 1)) {
        PyErr_Format(PyExc_OverflowError, "%s=%lld + %lld tokens overflow int64", what, (long long)s, (long long)n);
        return -1;
    }
    if (rows >= 0 && (s < 0 || s + (n - 1) >= rows)) {
        PyErr_Format(PyExc_ValueError, "%s=%lld: its %lld tokens read rows outside the table's [0, %lld)", what,
                     (long long)s, (long long)n, (long long)rows);
        return -1;
    }
    return 0;
}

static int check_varlen(const pyb_pos *p, int64_t b, int64_t rows) {
    const int64_t *cu = p->cu + b * p->cu_step, n = p->n_seqs;
    char what[80];
    for (int64_t s = 0; s <= n; s++) {
        if (p->cu_step) snprintf(what, sizeof what, "cu_seqlens[%lld, %lld]", (long long)b, (long long)s);
        else snprintf(what, sizeof what, "cu_seqlens[%lld]", (long long)s);
        if (s == 0 && cu[0] != 0)
            return PyErr_Format(PyExc_ValueError, "%s=%lld must be 0", what, (long long)cu[0]), -1;
        if (s > 0 && cu[s] < cu[s - 1])
            return PyErr_Format(PyExc_ValueError, "%s=%lld < the entry before it, %lld: must not decrease", what,
                                (long long)cu[s], (long long)cu[s - 1]), -1;
        if (s == n && cu[n] != p->tokens)
            return PyErr_Format(PyExc_ValueError, "%s=%lld must equal tokens=%lld (of one batch element)", what,
                                (long long)cu[n], (long long)p->tokens), -1;
    }
    for (int64_t s = 0; s < n; s++) {
        const int64_t st = p->starts ? p->starts[b * p->starts_step + s] : p->start;
        snprintf(what, sizeof what, "sequence %lld of batch element %lld starts at", (long long)s, (long long)b);
        if (span_ok(st, cu[s + 1] - cu[s], rows, what) != 0) return -1;
    }
    return 0;
}

int pyb_pos_check(const pyb_pos *p, int64_t rows) {
    char what[64];
    /* the same positions for every element: the library refuses them on
     * the first call, before anything is written, in its own words */
    if (!p->per_batch) return 0;
    for (int64_t b = 0; b < p->batch; b++) {
        if (p->kind == PYB_VARLEN) {
            if (check_varlen(p, b, rows) != 0) return -1;
        } else if (p->kind == PYB_RANGE && !p->fixed) {
            if (p->offsets) snprintf(what, sizeof what, "offsets[%lld]", (long long)b);
            else snprintf(what, sizeof what, "start");
            if (span_ok(p->offsets ? p->offsets[b] : p->start, p->tokens, rows, what) != 0) return -1;
        } else if (rows >= 0) {
            const int64_t *ids = p->ids + b * p->ids_step;
            for (int64_t t = 0; t < p->tokens; t++)
                if (ids[t] < 0 || ids[t] >= rows)
                    return PyErr_Format(PyExc_ValueError, "positions[%lld, %lld]=%lld outside the table's rows "
                                        "[0, %lld)", (long long)b, (long long)t, (long long)ids[t],
                                        (long long)rows), -1;
        }
    }
    return 0;
}

/* Every element's positions end to end ((batch * tokens * width) int64). */
static int64_t *pos_list(const pyb_pos *p) {
    const int64_t per = p->tokens * p->width;
    if (p->batch > 0 && per > INT64_MAX / p->batch) {
        PyErr_NoMemory();
        return NULL;
    }
    int64_t *ids = alloc_ids(per * p->batch);
    for (int64_t b = 0; ids != NULL && b < p->batch; b++) {
        const pe_positions pos = pyb_pos_at(p, b);
        for (int64_t i = 0; i < per; i++) ids[b * per + i] = pos.ids ? pos.ids[i] : pos.start + (p->fixed ? 0 : i);
    }
    return ids;
}

/* ------------------------------------------------------------ the driver */

int pyb_run(const pyb_view *v, int n, const pyb_pos *p, int heads_fold, pyb_fn fn, void *ctx, int64_t work,
            int *status) {
    pe_tensor t[PYB_MAX_VIEWS];
    const int64_t B = p->batch;
    int by_heads = heads_fold && !p->per_batch, by_tokens = p->kind != PYB_VARLEN;
    for (int i = 0; i < n; i++) {
        by_heads = by_heads && folds(&v[i], B, 1);
        by_tokens = by_tokens && folds(&v[i], B, 0);
        t[i] = v[i].t;
    }
    *status = PE_OK;
    if (B <= 1 || by_heads) {
        /* the same positions for every element: the batch as more heads */
        for (int i = 0; i < n && B > 1; i++)
            if (t[i].data != NULL) t[i].heads *= B;
        const pe_positions pos = pyb_pos_at(p, 0);
        PY_CALL(work, *status = fn(ctx, &pos, t));
        return 0;
    }
    if (by_tokens && p->fixed && p->kind == PYB_RANGE && !p->per_batch) {
        /* one delta for every token of every element: no list */
        for (int i = 0; i < n; i++)
            if (t[i].data != NULL) t[i].tokens *= B;
        const pe_positions pos = pyb_pos_at(p, 0);
        PY_CALL(work, *status = fn(ctx, &pos, t));
        return 0;
    }
    if (by_tokens) {
        /* the batch as more tokens, each element's positions in turn */
        int64_t *ids = pos_list(p);
        if (ids == NULL) return -1;
        for (int i = 0; i < n; i++)
            if (t[i].data != NULL) t[i].tokens *= B;
        const pe_positions pos = pe_positions_list(ids);
        PY_CALL(work, *status = fn(ctx, &pos, t));
        PyMem_Free(ids);
        return 0;
    }
    for (int64_t b = 0; *status == PE_OK && b < B; b++) {
        for (int i = 0; i < n; i++) t[i] = pyb_at(&v[i], b);
        const pe_positions pos = pyb_pos_at(p, b);
        PY_CALL(work / B, *status = fn(ctx, &pos, t));
    }
    return 0;
}

/* Do the rows of v, over all three axes (batch, tokens, heads), share no
 * byte? Decided by nesting: sorted by stride, each axis must step past
 * everything the axes inside it cover. Every dense layout in any axis
 * order, slices of a fused buffer and windows of a bigger cache nest; a
 * batch stride of 0, or batch windows that overlap, do not. For one batch
 * element the library decides exactly, so only batch > 1 comes here. */
static int rows_nest(const pyb_view *v) {
    int64_t n[3] = {v->batch, v->t.tokens, v->t.heads};
    int64_t s[3] = {v->bstride, v->t.token_stride, v->t.head_stride};
    for (int i = 0; i < 3; i++) {
        if (n[i] <= 0) return 1; /* empty: no rows */
        if (s[i] < 0) s[i] = -s[i];
    }
    for (int i = 0; i < 3; i++) /* sort the axes by stride */
        for (int j = i + 1; j < 3; j++)
            if (s[j] < s[i]) {
                int64_t a = s[i], b = n[i];
                s[i] = s[j], n[i] = n[j], s[j] = a, n[j] = b;
            }
    int64_t extent = v->t.head_dim; /* elements one row covers */
    for (int i = 0; i < 3; i++) {
        if (n[i] == 1) continue;
        if (s[i] < extent) return 0;
        /* (n - 1) s + extent: within the array's own extent, which fits */
        if (n[i] - 1 > (INT64_MAX - extent) / s[i]) return 0;
        extent += (n[i] - 1) * s[i];
    }
    return 1;
}

int pyb_outputs_apart(const pyb_view *v, int n, const char *const *names) {
    for (int i = 0; i < n; i++) {
        if (v[i].t.data == NULL || v[i].batch <= 1 || rows_nest(&v[i])) continue;
        PyErr_Format(PyExc_ValueError,
                     "%s: its batch elements share memory (batch stride %lld, %lld tokens of stride %lld, "
                     "%lld heads of stride %lld): each shared row would be rotated once per element; "
                     "pass an output whose elements are apart",
                     names[i], (long long)v[i].bstride, (long long)v[i].t.tokens, (long long)v[i].t.token_stride,
                     (long long)v[i].t.heads, (long long)v[i].t.head_stride);
        return -1;
    }
    return 0;
}

int pyb_same_batch(const pyb_view *a, const char *aname, const pyb_view *b, const char *bname) {
    if (a->batch == b->batch) return 0;
    PyErr_Format(PyExc_ValueError, "%s has batch %lld but %s has batch %lld: the batch axes must agree", bname,
                 (long long)b->batch, aname, (long long)a->batch);
    return -1;
}

int pyb_io_get(PyObject *x_o, PyObject *out_o, PyObject *axis_o, const char *xname, const char *outname,
               pyb_io *io) {
    int tok;
    memset(io, 0, sizeof *io);
    if (pyb_inout(x_o, out_o, axis_o, 4, xname, outname, &io->x, &io->out, &io->result, &tok) != 0) return -1;
    const pya *o = out_o == x_o ? &io->x : &io->out;
    if (pyb_view_of(&io->x, tok, &io->in) != 0 || pyb_view_of(o, tok, &io->outv) != 0) {
        pyb_io_release(io);
        Py_CLEAR(io->result);
        return -1;
    }
    return 0;
}

void pyb_io_release(pyb_io *io) {
    pya_release(&io->x);
    pya_release(&io->out);
}

/* ------------------------------------- a rotation call, batched or not */

int pyb_rotate(void *ctx, const pe_positions *pos, const pe_tensor *v) {
    const pyb_source *c = ctx;
    /* a shift's positions are its deltas: a list, or one for every token */
    if (c->shift) return pe_rope_shift(c->freqs, c->layout, pos->ids, pos->ids ? 0 : pos->start, &v[0], &v[1], &c->opt);
    if (c->table != NULL) return pe_rope_apply_table(c->table, c->layout, pos, &v[0], &v[1], c->direction, &c->opt);
    if (c->new_freqs != NULL) return pe_rope_rebase(c->freqs, c->new_freqs, c->layout, pos, &v[0], &v[1], &c->opt);
    return pe_rope_apply_ex(c->freqs, c->layout, pos, &v[0], &v[1], c->direction, &c->opt);
}

int pyb_rotate_qk(void *ctx, const pe_positions *pos, const pe_tensor *v) {
    const pyb_source *c = ctx;
    if (c->table != NULL)
        return pe_rope_apply_table_qk(c->table, c->layout, pos, &v[0], &v[1], &v[2], &v[3], c->direction, &c->opt);
    return pe_rope_apply_qk(c->freqs, c->layout, pos, &v[0], &v[1], &v[2], &v[3], c->direction, &c->opt);
}

int pyb_source_init(pyb_source *c, PyObject *freqs_o, const char *layout, const char *direction,
                    py_threads threads) {
    memset(c, 0, sizeof *c);
    c->opt = py_rope_opts(threads);
    if (freqs_o != NULL && (c->freqs = py_freqs_arg(freqs_o, "freqs")) == NULL) return -1;
    if (py_layout(layout, &c->layout) != 0) return -1;
    return direction ? py_direction(direction, &c->direction) : 0;
}

void pyb_rot_abort(pyb_rot *r) {
    for (int i = 0; i < r->n; i++) {
        pyb_io_release(&r->io[i]);
        Py_CLEAR(r->io[i].result);
    }
    pyb_pos_release(&r->pos);
    r->n = 0;
}

int pyb_rot_begin(pyb_rot *r, int n, PyObject *const *x_o, PyObject *const *out_o, const char *const *names,
                  PyObject *axis_o, const pyb_args *a, int width) {
    memset(r, 0, sizeof *r);
    for (; r->n < n; r->n++)
        if (pyb_io_get(x_o[r->n], out_o[r->n], axis_o, names[2 * r->n], names[2 * r->n + 1], &r->io[r->n]) != 0)
            goto fail;
    const pyb_io *q = &r->io[0], *k = &r->io[n - 1];
    if (n == 2) {
        if (pyb_same_batch(&q->in, names[0], &k->in, names[2]) != 0) goto fail;
        if (pya_overlap(&q->x, &k->out) || pya_overlap(&k->x, &q->out) || pya_overlap(&q->out, &k->out)) {
            PyErr_SetString(PyExc_ValueError, "the q and k outputs overlap each other or the other input");
            goto fail;
        }
    }
    if (pyb_pos_get(a, q->in.batch, q->x.ndim == 4, q->in.t.tokens, width, &r->pos) != 0) goto fail;
    return 0;
fail:
    pyb_rot_abort(r);
    return -1;
}

/* No positions (or deltas) in an output: one element's call must not
 * change what the next one reads, and the library, which sees one element
 * at a time, would refuse only the element that holds them, after the
 * ones before it were written. */
static int pos_apart(const pyb_rot *r) {
    const pyb_pos *p = &r->pos;
    for (int j = 0; j < 4; j++) {
        const pya *a = j < 3 ? &p->arr[j] : &p->plain.arr;
        if (j < 3 ? p->own[j] == NULL : !p->has_plain || p->plain.owner == NULL) continue;
        for (int i = 0; i < r->n; i++)
            if (pya_overlap(a, &r->io[i].out)) {
                PyErr_Format(PyExc_ValueError, "%s overlaps %s; pass a separate array",
                             j < 3 ? p->arr_name[j] : "positions", r->n == 1 ? "out" : i == 0 ? "q_out" : "k_out");
                return -1;
            }
    }
    return 0;
}

PyObject *pyb_rot_end(pyb_rot *r, int64_t rows, int heads_fold, pyb_fn fn, void *ctx) {
    pyb_view v[4];
    int64_t work = 0;
    for (int i = 0; i < r->n; i++) {
        v[2 * i] = r->io[i].in;
        v[2 * i + 1] = r->io[i].outv;
        work += r->io[i].x.size;
    }
    int st = PE_OK;
    PyObject *result = NULL;
    pyb_view outs[2];
    const char *out_names[2] = {r->n == 1 ? "out" : "q_out", "k_out"};
    for (int i = 0; i < r->n; i++) outs[i] = r->io[i].outv;
    if (pyb_outputs_apart(outs, r->n, out_names) == 0 && pos_apart(r) == 0 && pyb_pos_check(&r->pos, rows) == 0 && pyb_run(v, 2 * r->n, &r->pos, heads_fold, fn, ctx, work, &st) == 0) {
        if (st != PE_OK) py_raise(st);
        else if (r->n == 1) result = Py_NewRef(r->io[0].result);
        else result = PyTuple_Pack(2, r->io[0].result, r->io[1].result);
    }
    pyb_rot_abort(r);
    return result;
}
