/*
 * py_fused.c — posenc.rope_fused_qkv: the fused QKV epilogue
 * (pe_rope_fused_qkv, docs/FUSED.md) on numpy arrays, without copies: the
 * fused projection buffer, the caller's cache slots (any token and head
 * strides, rows contiguous: slices of a bigger cache work) and scales go
 * to the library as views; the library validates shapes, dtypes and
 * overlaps and names the argument.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

/* An optional array argument (None: unused). */
static int opt_array(PyObject *o, const char *name, unsigned accept, int writable, int min_ndim,
                     int max_ndim, pya *a) {
    memset(a, 0, sizeof *a);
    if (o == NULL || o == Py_None) return 0;
    return pya_get(o, name, accept, writable, PYA_ROWS, min_ndim, max_ndim, a);
}

/* What pyb_run hands each call: the eight views in the order of
 * pe_fused_qkv_params (q_in, k_in, v_in, q_out, k_cache, v_cache, k_scale,
 * v_scale) for one batch element, or for the batch folded into tokens. */
typedef struct {
    const pe_freqs *freqs;
    pe_rope_layout layout;
    pe_fused_qkv_params p;
} fused_call;

static int run_fused(void *ctx, const pe_positions *pos, const pe_tensor *v) {
    const fused_call *c = ctx;
    pe_fused_qkv_params p = c->p;
    p.q_in = v[0], p.k_in = v[1], p.v_in = v[2], p.q_out = v[3];
    p.k_cache = v[4], p.v_cache = v[5], p.k_scale = v[6], p.v_scale = v[7];
    return pe_rope_fused_qkv(c->freqs, c->layout, pos, &p);
}

/* A (tokens, heads, D) view, axis b0 the batch axis when batched (b0 = 1)
 * and the head axis `head` (-1: scales, (tokens, heads) -> D = 1). */
static pyb_view view_of(const pya *a, int b0, int64_t heads, int64_t D, int64_t head_stride, int64_t offset) {
    pyb_view v;
    memset(&v, 0, sizeof v);
    v.batch = b0 ? a->shape[0] : 1;
    v.bstride = b0 ? a->strides[0] : 0;
    v.t = pe_tensor_dense((char *)a->view.buf + offset * (int64_t)a->view.itemsize, a->dtype, a->shape[b0], heads,
                          D);
    v.t.token_stride = a->strides[b0];
    v.t.head_stride = head_stride;
    return v;
}

/* Every output array shares no byte with an input or another output, over
 * the whole batch (the library sees one element at a time). */
static int batch_overlaps(const pya *const *arr, const char *const *names, int n_out, int n, int q_in_place) {
    for (int i = 0; i < n_out; i++)
        for (int j = i + 1; j < n; j++) {
            if (arr[i]->view.obj == NULL || arr[j]->view.obj == NULL || (q_in_place && i == 0 && j == n_out))
                continue;
            if (pya_overlap(arr[i], arr[j])) {
                PyErr_Format(PyExc_ValueError, "%s overlaps %s", names[i], names[j]);
                return -1;
            }
        }
    return 0;
}

static PyObject *py_rope_fused_qkv(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"qkv",           "freqs",         "n_q_heads", "n_kv_heads",
                             "k_cache",       "v_cache",       "positions", "start",
                             "layout",        "q_norm_weight", "k_norm_weight", "norm_eps",
                             "gemma_norm",    "q_out",         "k_scale",   "v_scale",
                             "threads",       "offsets",       "stores",    NULL};
    PyObject *qkv_o, *fr_o, *kc_o = NULL, *vc_o = NULL, *qw_o = Py_None, *kw_o = Py_None;
    PyObject *qout_o = Py_None, *ks_o = Py_None, *vs_o = Py_None;
    pyb_args pa = PYB_ARGS_NONE;
    long long nq, nkv;
    const char *layout_s = "half", *stores_s = "auto";
    double eps = 1e-6;
    int gemma = 0;
    py_threads threads = PY_THREADS_ONE;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOLL|$OOOLsOOdpOOOO&Os:rope_fused_qkv", kwlist,
                                     &qkv_o, &fr_o, &nq, &nkv, &kc_o, &vc_o, &pa.positions, &pa.start,
                                     &layout_s, &qw_o, &kw_o, &eps, &gemma, &qout_o, &ks_o,
                                     &vs_o, py_threads_conv, &threads, &pa.offsets, &stores_s))
        return NULL;
    pe_store_policy stores;
    if (strcmp(stores_s, "auto") == 0)
        stores = PE_STORES_AUTO;
    else if (strcmp(stores_s, "cached") == 0)
        stores = PE_STORES_CACHED;
    else if (strcmp(stores_s, "streaming") == 0)
        stores = PE_STORES_STREAMING;
    else
        return PyErr_Format(PyExc_ValueError,
                            "stores='%s' must be 'auto', 'cached' or 'streaming'", stores_s);
    pa.batch_shape = "k_cache and v_cache as (batch, tokens, n_kv_heads, head_dim) and qkv with the same batch axis";
    if (kc_o == NULL || vc_o == NULL)
        return PyErr_Format(PyExc_TypeError, "rope_fused_qkv() needs k_cache= and v_cache=");
    fused_call c = {py_freqs_arg(fr_o, "freqs"), PE_ROPE_HALF, pe_fused_qkv_params_default()};
    if (c.freqs == NULL || py_layout(layout_s, &c.layout)) return NULL;
    if (nq < 0 || nkv < 0 || nq + 2 * nkv <= 0)
        return PyErr_Format(PyExc_ValueError,
                            "n_q_heads=%lld and n_kv_heads=%lld must be >= 0 with some head", nq,
                            nkv);
    PyObject *result = NULL;
    pya qkv, kc, vc, qo, ks, vs, qw, kwt;
    memset(&qkv, 0, sizeof qkv), memset(&qo, 0, sizeof qo);
    memset(&ks, 0, sizeof ks), memset(&vs, 0, sizeof vs), memset(&qw, 0, sizeof qw);
    memset(&kwt, 0, sizeof kwt), memset(&vc, 0, sizeof vc);
    pyb_pos pp;
    memset(&pp, 0, sizeof pp);
    const int in_place = qout_o == Py_None;
    /* a batch axis first on every array when the caches have one */
    const unsigned caches = PYA_F32 | PYA_F16 | PYA_BF16 | PYA_I8;
    if (pya_get(kc_o, "k_cache", caches, 1, PYA_ROWS, 3, 4, &kc) != 0) return NULL;
    const int b0 = kc.ndim == 4;
    if (pya_get(qkv_o, "qkv", PYA_F32, in_place, PYA_ROWS, 2 + b0, 3 + b0, &qkv) != 0 ||
        pya_get(vc_o, "v_cache", caches, 1, PYA_ROWS, 3 + b0, 3 + b0, &vc) != 0 ||
        opt_array(qout_o, "q_out", PYA_FLOATS, 1, 3 + b0, 3 + b0, &qo) != 0 ||
        opt_array(ks_o, "k_scale", PYA_F32, 1, 2 + b0, 2 + b0, &ks) != 0 ||
        opt_array(vs_o, "v_scale", PYA_F32, 1, 2 + b0, 2 + b0, &vs) != 0 ||
        opt_array(qw_o, "q_norm_weight", PYA_F32, 0, 1, 1, &qw) != 0 ||
        opt_array(kw_o, "k_norm_weight", PYA_F32, 0, 1, 1, &kwt) != 0)
        goto done;
    const int64_t heads = nq + 2 * nkv;
    int64_t D, head_stride;
    if (qkv.ndim == 3 + b0) {
        if (qkv.shape[1 + b0] != heads) {
            PyErr_Format(PyExc_ValueError, "qkv has %lld heads, want n_q_heads + 2 n_kv_heads = %lld",
                         (long long)qkv.shape[1 + b0], (long long)heads);
            goto done;
        }
        D = qkv.shape[2 + b0], head_stride = qkv.strides[1 + b0];
    } else {
        if (qkv.shape[1 + b0] % heads != 0) {
            PyErr_Format(PyExc_ValueError,
                         "qkv rows of %lld floats do not split into n_q_heads + 2 n_kv_heads = %lld heads",
                         (long long)qkv.shape[1 + b0], (long long)heads);
            goto done;
        }
        D = qkv.shape[1 + b0] / heads, head_stride = D;
    }
    pyb_view v[8];
    v[0] = view_of(&qkv, b0, nq, D, head_stride, 0);
    v[1] = view_of(&qkv, b0, nkv, D, head_stride, nq * head_stride);
    v[2] = view_of(&qkv, b0, nkv, D, head_stride, (nq + nkv) * head_stride);
    v[3] = in_place ? v[0] : view_of(&qo, b0, qo.shape[1 + b0], qo.shape[2 + b0], qo.strides[1 + b0], 0);
    v[4] = view_of(&kc, b0, kc.shape[1 + b0], kc.shape[2 + b0], kc.strides[1 + b0], 0);
    v[5] = view_of(&vc, b0, vc.shape[1 + b0], vc.shape[2 + b0], vc.strides[1 + b0], 0);
    /* scales: (tokens, kv heads) float32 -> (tokens, heads, 1) views */
    memset(&v[6], 0, 2 * sizeof v[6]);
    v[6].t = c.p.k_scale, v[7].t = c.p.v_scale;
    if (ks.view.obj) v[6] = view_of(&ks, b0, ks.shape[1 + b0], 1, ks.strides[1 + b0], 0);
    if (vs.view.obj) v[7] = view_of(&vs, b0, vs.shape[1 + b0], 1, vs.strides[1 + b0], 0);
    static const char *const vname[8] = {"qkv", "qkv", "qkv", "q_out", "k_cache", "v_cache", "k_scale", "v_scale"};
    for (int i = 3; i < 8; i++)
        if (v[i].t.data != NULL && pyb_same_batch(&v[0], vname[0], &v[i], vname[i]) != 0) goto done;
    if (pyb_outputs_apart(v + 3, 5, vname + 3) != 0) goto done; /* no cache row written twice */
    const pya *w[2] = {&qw, &kwt};
    static const char *const wname[2] = {"q_norm_weight", "k_norm_weight"};
    for (int i = 0; i < 2; i++)
        if (w[i]->view.obj && w[i]->shape[0] != D) {
            PyErr_Format(PyExc_ValueError, "%s has %lld entries, want head_dim = %lld", wname[i],
                         (long long)w[i]->shape[0], (long long)D);
            goto done;
        }
    if (b0) {
        /* outputs first (q_out is qkv in place), then the inputs */
        const pya *arr[8] = {in_place ? &qkv : &qo, &kc, &vc, &ks, &vs, &qkv, &qw, &kwt};
        static const char *const names[8] = {"q_out", "k_cache", "v_cache", "k_scale", "v_scale",
                                             "qkv", "q_norm_weight", "k_norm_weight"};
        if (batch_overlaps(arr, names, 5, 8, in_place) != 0) goto done;
    }
    c.p.q_norm_weight = qw.view.obj ? qw.view.buf : NULL;
    c.p.k_norm_weight = kwt.view.obj ? kwt.view.buf : NULL;
    c.p.norm_eps = eps;
    c.p.norm_weight = gemma ? PE_NORM_ONE_PLUS_WEIGHT : PE_NORM_WEIGHT;
    c.p.threads = threads.threads;
    c.p.pool = threads.pool;
    c.p.stores = stores;
    int st;
    if (pyb_pos_get(&pa, v[0].batch, b0, v[0].t.tokens, 1, &pp) != 0 || pyb_pos_check(&pp, -1) != 0 ||
        pyb_run(v, 8, &pp, 0, run_fused, &c, qkv.size, &st) != 0)
        goto done;
    if (st != PE_OK) {
        py_raise(st);
        goto done;
    }
    result = in_place ? qkv_o : qout_o;
    Py_INCREF(result);
done:
    pyb_pos_release(&pp);
    pya_release(&qkv), pya_release(&kc), pya_release(&vc), pya_release(&qo);
    pya_release(&ks), pya_release(&vs), pya_release(&qw), pya_release(&kwt);
    return result;
}

static PyMethodDef methods[] = {
    {"rope_fused_qkv", (PyCFunction)(void (*)(void))py_rope_fused_qkv, METH_VARARGS | METH_KEYWORDS,
     "rope_fused_qkv(qkv, freqs, n_q_heads, n_kv_heads, *, k_cache, v_cache, positions=None,\n"
     "               start=0, layout='half', q_norm_weight=None, k_norm_weight=None,\n"
     "               norm_eps=1e-6, gemma_norm=False, q_out=None, k_scale=None, v_scale=None,\n"
     "               threads=1, offsets=None, stores='auto') -> q\n\n"
     "The fused QKV epilogue in one pass (docs/FUSED.md): qkv is the float32 projection,\n"
     "(T, (n_q + 2 n_kv) * D) or (T, n_q + 2 n_kv, D), rows contiguous (q heads, then k,\n"
     "then v). Optional per-head RMSNorm of q and k (weights of D float32;\n"
     "gemma_norm=True multiplies by 1 + w), RoPE at positions (or start + t), q written\n"
     "in place into qkv (q_out=None; qkv must be writable) or into q_out (T, n_q, D)\n"
     "float32/float16/uint16-as-bfloat16, k and v into the caller's cache slots\n"
     "(T, n_kv, D) float32/float16/uint16 (bfloat16)/int8, any token and head strides;\n"
     "int8 caches need k_scale/v_scale float32 (T, n_kv): x ~ q * scale, scale = absmax/127,\n"
     "q rounded half to even. Returns q_out, or qkv when q is rotated in place.\n"
     "Batched when the caches are 4-D: qkv (B, T, (n_q + 2 n_kv) * D) or (B, T, n_q + 2 n_kv, D),\n"
     "k_cache/v_cache (B, T, n_kv, D) with any strides (windows of bigger caches), q_out\n"
     "(B, T, n_q, D), scales (B, T, n_kv); start, offsets=(B,) or positions (T,) / (B, T).\n"
     "Every element is checked before the first is written. stores='streaming' writes the\n"
     "caches (and q_out) with non-temporal stores, for a prefill whose slots later steps\n"
     "read; 'auto' does so for a cache of 16 MiB or more, 'cached' never; same values."},
    {NULL, NULL, 0, NULL},
};

/* registered by module.c (declared there, like py_check.c) */
int py_init_fused(PyObject *m) { return PyModule_AddFunctions(m, methods); }
