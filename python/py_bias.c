/*
 * py_bias.c — attention biases (ALiBi slopes and matrices, T5 buckets and
 * bias matrices) and the reference attention, plain and with RoPE.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

static PyObject *py_alibi_slopes(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"heads", NULL};
    long long heads;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L:alibi_slopes", kwlist, &heads)) return NULL;
    if (heads < 1 || heads > (1 << 24)) {
        PyErr_Format(PyExc_ValueError, "heads=%lld outside [1, 2^24]", heads);
        return NULL;
    }
    int64_t n = heads;
    pya o;
    PyObject *r;
    if (pya_out(NULL, "slopes", PE_F64, 1, &n, &o, &r) != 0) return NULL;
    int st = pe_alibi_slopes(heads, o.view.buf);
    pya_release(&o);
    if (st != PE_OK) {
        Py_DECREF(r);
        return py_raise(st);
    }
    return r;
}

static PyObject *py_alibi_bias(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"heads", "n_q", "n_k", "causal", "dtype", "out", NULL};
    long long heads, nq, nk = -1;
    int causal = 0;
    PyObject *dt_o = NULL, *out_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL|L$pOO:alibi_bias", kwlist, &heads, &nq, &nk, &causal, &dt_o,
                                     &out_o))
        return NULL;
    if (nk < 0) nk = nq;
    pe_dtype dtype = PE_F32;
    if (dt_o && py_dtype_arg(dt_o, "dtype", PYA_F32 | PYA_F64, &dtype)) return NULL;
    if (heads < 1 || nq < 0) {
        PyErr_Format(PyExc_ValueError, "heads=%lld must be >= 1 and n_q=%lld >= 0", heads, nq);
        return NULL;
    }
    int64_t shape[3] = {heads, nq, nk};
    pya o;
    PyObject *r;
    if (pya_out(out_o, "out", dtype, 3, shape, &o, &r) != 0) return NULL;
    int st;
    PY_CALL(o.size, st = pe_alibi_bias(heads, nq, nk, causal ? PE_ALIBI_CAUSAL : PE_ALIBI_SYMMETRIC,
                                       o.view.buf, dtype));
    pya_release(&o);
    if (st != PE_OK) {
        Py_DECREF(r);
        return py_raise(st);
    }
    return r;
}

#define T5_KW "bidirectional", "num_buckets", "max_distance"

static PyObject *py_t5_bucket(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"relative_position", T5_KW, NULL};
    long long r, nb = 32, md = 128;
    int bidi = 1;
    int64_t bucket;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|$pLL:t5_bucket", kwlist, &r, &bidi, &nb, &md)) return NULL;
    int st = pe_t5_bucket(r, bidi, nb, md, &bucket);
    return st == PE_OK ? PyLong_FromLongLong(bucket) : py_raise(st);
}

static PyObject *py_t5_buckets(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"r_start", "count", T5_KW, NULL};
    long long r0, count, nb = 32, md = 128;
    int bidi = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL|$pLL:t5_buckets", kwlist, &r0, &count, &bidi, &nb, &md))
        return NULL;
    if (count < 0) {
        PyErr_Format(PyExc_ValueError, "count=%lld must be >= 0", count);
        return NULL;
    }
    int64_t n = count;
    pya o;
    PyObject *res;
    if (pya_out(NULL, "buckets", PE_I64, 1, &n, &o, &res) != 0) return NULL;
    int st = pe_t5_buckets(r0, count, bidi, nb, md, o.view.buf);
    pya_release(&o);
    if (st != PE_OK) {
        Py_DECREF(res);
        return py_raise(st);
    }
    return res;
}

static PyObject *py_t5_bias(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"table", "n_q", "n_k", "bidirectional", "max_distance", "layout", "out", NULL};
    static const char *const layouts[] = {"head_major", "bucket_major", NULL};
    PyObject *t_o, *out_o = Py_None, *r = NULL;
    long long nq, nk = -1, md = 128;
    int bidi = 1, lay;
    const char *layout_s = "bucket_major";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|L$pLsO:t5_bias", kwlist, &t_o, &nq, &nk, &bidi, &md,
                                     &layout_s, &out_o))
        return NULL;
    if (nk < 0) nk = nq;
    if (py_choice(layout_s, "layout", layouts, &lay)) return NULL;
    pya t, o;
    if (pya_get(t_o, "table", PYA_F32, 0, PYA_CONTIG, 2, 2, &t) != 0) return NULL;
    /* bucket_major is HF's relative_attention_bias.weight: (num_buckets, heads). */
    int64_t heads = lay == PE_T5_TABLE_BUCKET_MAJOR ? t.shape[1] : t.shape[0];
    int64_t nb = lay == PE_T5_TABLE_BUCKET_MAJOR ? t.shape[0] : t.shape[1];
    int64_t shape[3] = {heads, nq, nk};
    if (pya_out(out_o, "out", PE_F32, 3, shape, &o, &r) == 0) {
        int st;
        PY_CALL(o.size, st = pe_t5_bias(t.view.buf, (pe_t5_table_layout)lay, heads, bidi, nb, md, nq, nk,
                                        o.view.buf));
        pya_release(&o);
        if (st != PE_OK) {
            Py_CLEAR(r);
            py_raise(st);
        }
    }
    pya_release(&t);
    return r;
}

/* ---------------------------------------------------------------- attention */

typedef struct {
    pya q, k, v, bias, out;
    PyObject *result;
    pe_attention_params p;
} attn_args;

static void attn_release(attn_args *a) {
    pya_release(&a->q);
    pya_release(&a->k);
    pya_release(&a->v);
    pya_release(&a->bias);
    pya_release(&a->out);
}

/* q (n_q, dim), k (n_k, dim), v (n_k, dim_v), bias (n_q, n_k) or None, out. */
static int attn_get(PyObject *q_o, PyObject *k_o, PyObject *v_o, PyObject *b_o, PyObject *out_o, int causal,
                    PyObject *scale_o, attn_args *a) {
    memset(a, 0, sizeof *a);
    if (pya_get(q_o, "q", PYA_F32, 0, PYA_CONTIG, 2, 2, &a->q) || pya_get(k_o, "k", PYA_F32, 0, PYA_CONTIG, 2, 2, &a->k) ||
        pya_get(v_o, "v", PYA_F32, 0, PYA_CONTIG, 2, 2, &a->v))
        goto fail;
    a->p = pe_attention_params_default(0, 0, 0, 0);
    a->p.n_q = a->q.shape[0];
    a->p.n_k = a->k.shape[0];
    a->p.dim = a->q.shape[1];
    a->p.dim_v = a->v.shape[1];
    a->p.causal = causal;
    a->p.scale = 0.0;
    if (scale_o && scale_o != Py_None && (a->p.scale = PyFloat_AsDouble(scale_o)) == -1.0 && PyErr_Occurred())
        goto fail;
    int64_t kshape[2] = {a->p.n_k, a->p.dim}, vshape[2] = {a->p.n_k, a->p.dim_v};
    if (pya_check_shape(&a->k, "k", 2, kshape) || pya_check_shape(&a->v, "v", 2, vshape)) goto fail;
    if (b_o && b_o != Py_None) {
        int64_t bshape[2] = {a->p.n_q, a->p.n_k};
        if (pya_get(b_o, "bias", PYA_F32, 0, PYA_CONTIG, 2, 2, &a->bias) || pya_check_shape(&a->bias, "bias", 2, bshape))
            goto fail;
        a->p.bias = a->bias.view.buf;
    }
    int64_t oshape[2] = {a->p.n_q, a->p.dim_v};
    if (pya_out(out_o, "out", PE_F32, 2, oshape, &a->out, &a->result)) goto fail;
    if (pya_overlap(&a->out, &a->q) || pya_overlap(&a->out, &a->k) || pya_overlap(&a->out, &a->v) ||
        (a->bias.view.obj && pya_overlap(&a->out, &a->bias))) {
        PyErr_SetString(PyExc_ValueError, "out overlaps an input; pass a separate array");
        goto fail;
    }
    return 0;
fail:
    attn_release(a);
    Py_CLEAR(a->result);
    return -1;
}

static PyObject *attn_finish(attn_args *a, int st) {
    attn_release(a);
    if (st != PE_OK) {
        Py_CLEAR(a->result);
        return py_raise(st);
    }
    return a->result;
}

static PyObject *py_attention(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q", "k", "v", "bias", "causal", "scale", "out", NULL};
    PyObject *q, *k, *v, *b = Py_None, *scale = Py_None, *out = Py_None;
    int causal = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$OpOO:attention", kwlist, &q, &k, &v, &b, &causal, &scale, &out))
        return NULL;
    attn_args a;
    if (attn_get(q, k, v, b, out, causal, scale, &a)) return NULL;
    int st;
    PY_CALL(a.p.n_q * a.p.n_k * (a.p.dim + a.p.dim_v),
            st = pe_attention(&a.p, a.q.view.buf, a.k.view.buf, a.v.view.buf, a.out.view.buf));
    return attn_finish(&a, st);
}

static PyObject *py_attention_rope(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"q", "k", "v", "freqs", "layout", "q_start", "k_start", "q_positions",
                             "k_positions", "bias", "causal", "scale", "out", NULL};
    PyObject *q, *k, *v, *fr, *qs_o = Py_None, *qp = Py_None, *kp = Py_None, *b = Py_None, *scale = Py_None,
                               *out = Py_None;
    const char *layout_s = "half";
    long long k_start = 0;
    int causal = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$sOLOOOpOO:attention_rope", kwlist, &q, &k, &v, &fr, &layout_s,
                                     &qs_o, &k_start, &qp, &kp, &b, &causal, &scale, &out))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr, "freqs");
    pe_rope_layout layout;
    if (f == NULL || py_layout(layout_s, &layout)) return NULL;
    attn_args a;
    if (attn_get(q, k, v, b, out, causal, scale, &a)) return NULL;
    /* Queries default to the last n_q key positions (pe_attention's rule). */
    long long q_start = k_start + a.p.n_k - a.p.n_q;
    if (qs_o != Py_None && (q_start = PyLong_AsLongLong(qs_o)) == -1 && PyErr_Occurred()) {
        attn_release(&a);
        Py_DECREF(a.result);
        return NULL;
    }
    pypos pq, pk;
    if (pypos_get(qp, qp == Py_None ? q_start : 0, a.p.n_q, "q_positions", &pq)) {
        attn_release(&a);
        Py_DECREF(a.result);
        return NULL;
    }
    if (pypos_get(kp, kp == Py_None ? k_start : 0, a.p.n_k, "k_positions", &pk)) {
        pypos_release(&pq);
        attn_release(&a);
        Py_DECREF(a.result);
        return NULL;
    }
    int st;
    PY_CALL(a.p.n_q * a.p.n_k * (a.p.dim + a.p.dim_v),
            st = pe_attention_rope(&a.p, f, layout, &pq.pos, &pk.pos, a.q.view.buf, a.k.view.buf, a.v.view.buf,
                                   a.out.view.buf));
    pypos_release(&pq);
    pypos_release(&pk);
    return attn_finish(&a, st);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef methods[] = {
    {"alibi_slopes", KW(py_alibi_slopes),
     "alibi_slopes(heads) -> float64 (heads,): Press et al.'s slopes for any head count."},
    {"alibi_bias", KW(py_alibi_bias),
     "alibi_bias(heads, n_q, n_k=None, *, causal=False, dtype='float32', out=None)\n"
     "    -> (heads, n_q, n_k): -m_h |i' - j| (causal: -inf above the diagonal), query i at key\n"
     "    position i' = i + n_k - n_q."},
    {"t5_bucket", KW(py_t5_bucket),
     "t5_bucket(relative_position, *, bidirectional=True, num_buckets=32, max_distance=128) -> int\n\n"
     "T5's bucket of r = key - query, exact on the logarithm boundaries."},
    {"t5_buckets", KW(py_t5_buckets),
     "t5_buckets(r_start, count, *, bidirectional=True, num_buckets=32, max_distance=128)\n"
     "    -> int64 (count,): buckets of r_start, r_start + 1, ..."},
    {"t5_bias", KW(py_t5_bias),
     "t5_bias(table, n_q, n_k=None, *, bidirectional=True, max_distance=128,\n"
     "        layout='bucket_major', out=None) -> float32 (heads, n_q, n_k)\n\n"
     "Per-head bias from a learned bucket table: 'bucket_major' (num_buckets, heads) is\n"
     "Hugging Face's relative_attention_bias.weight; 'head_major' is (heads, num_buckets)."},
    {"attention", KW(py_attention),
     "attention(q, k, v, *, bias=None, causal=False, scale=None, out=None) -> float32 (n_q, dim_v)\n\n"
     "Reference single-head attention softmax(scale q k^T + bias + mask) v accumulated in\n"
     "double; q (n_q, dim), k (n_k, dim), v (n_k, dim_v), bias (n_q, n_k), all float32.\n"
     "scale None: 1/sqrt(dim). causal: query i sees keys j <= i + n_k - n_q."},
    {"attention_rope", KW(py_attention_rope),
     "attention_rope(q, k, v, freqs, *, layout='half', q_start=None, k_start=0,\n"
     "               q_positions=None, k_positions=None, bias=None, causal=False, scale=None,\n"
     "               out=None) -> float32 (n_q, dim_v)\n\n"
     "attention() after rotating copies of q and k at their positions (keys at k_start + j,\n"
     "queries by default at the last n_q key positions). q, k, v are not modified."},
    {NULL, NULL, 0, NULL},
};

int py_init_bias(PyObject *m) { return PyModule_AddFunctions(m, methods); }
