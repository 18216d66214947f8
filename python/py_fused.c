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

/* A (tokens, heads, D) view of a pya (3-D, rows contiguous). */
static pe_tensor view3(const pya *a) {
    return (pe_tensor){a->view.buf, a->dtype, a->shape[0], a->shape[1], a->shape[2],
                       a->strides[0], a->strides[1]};
}

/* An optional array argument (None: unused). */
static int opt_array(PyObject *o, const char *name, unsigned accept, int writable, int min_ndim,
                     int max_ndim, pya *a) {
    memset(a, 0, sizeof *a);
    if (o == NULL || o == Py_None) return 0;
    return pya_get(o, name, accept, writable, PYA_ROWS, min_ndim, max_ndim, a);
}

static PyObject *py_rope_fused_qkv(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"qkv",           "freqs",         "n_q_heads", "n_kv_heads",
                             "k_cache",       "v_cache",       "positions", "start",
                             "layout",        "q_norm_weight", "k_norm_weight", "norm_eps",
                             "gemma_norm",    "q_out",         "k_scale",   "v_scale",
                             "threads",       NULL};
    PyObject *qkv_o, *fr_o, *kc_o = NULL, *vc_o = NULL, *pos_o = Py_None, *qw_o = Py_None, *kw_o = Py_None;
    PyObject *qout_o = Py_None, *ks_o = Py_None, *vs_o = Py_None;
    long long nq, nkv, start = 0;
    const char *layout_s = "half";
    double eps = 1e-6;
    int gemma = 0, threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOLL|$OOOLsOOdpOOOi:rope_fused_qkv", kwlist,
                                     &qkv_o, &fr_o, &nq, &nkv, &kc_o, &vc_o, &pos_o, &start,
                                     &layout_s, &qw_o, &kw_o, &eps, &gemma, &qout_o, &ks_o,
                                     &vs_o, &threads))
        return NULL;
    if (kc_o == NULL || vc_o == NULL)
        return PyErr_Format(PyExc_TypeError, "rope_fused_qkv() needs k_cache= and v_cache=");
    const pe_freqs *f = py_freqs_arg(fr_o, "freqs");
    pe_rope_layout layout;
    if (f == NULL || py_layout(layout_s, &layout)) return NULL;
    if (nq < 0 || nkv < 0 || nq + 2 * nkv <= 0)
        return PyErr_Format(PyExc_ValueError,
                            "n_q_heads=%lld and n_kv_heads=%lld must be >= 0 with some head", nq,
                            nkv);
    PyObject *result = NULL;
    pya qkv, kc, vc, qo, ks, vs, qw, kwt;
    memset(&kc, 0, sizeof kc), memset(&vc, 0, sizeof vc), memset(&qo, 0, sizeof qo);
    memset(&ks, 0, sizeof ks), memset(&vs, 0, sizeof vs), memset(&qw, 0, sizeof qw);
    memset(&kwt, 0, sizeof kwt);
    pypos pp;
    memset(&pp, 0, sizeof pp);
    const int in_place = qout_o == Py_None;
    if (pya_get(qkv_o, "qkv", PYA_F32, in_place, PYA_ROWS, 2, 3, &qkv) != 0) return NULL;
    const int64_t heads = nq + 2 * nkv;
    int64_t D, head_stride;
    if (qkv.ndim == 3) {
        if (qkv.shape[1] != heads) {
            PyErr_Format(PyExc_ValueError, "qkv has %lld heads, want n_q_heads + 2 n_kv_heads = %lld",
                         (long long)qkv.shape[1], (long long)heads);
            goto done;
        }
        D = qkv.shape[2], head_stride = qkv.strides[1];
    } else {
        if (qkv.shape[1] % heads != 0) {
            PyErr_Format(PyExc_ValueError,
                         "qkv rows of %lld floats do not split into n_q_heads + 2 n_kv_heads = %lld heads",
                         (long long)qkv.shape[1], (long long)heads);
            goto done;
        }
        D = qkv.shape[1] / heads, head_stride = D;
    }
    const int64_t T = qkv.shape[0];
    float *base = qkv.view.buf;
    pe_fused_qkv_params p = pe_fused_qkv_params_default();
    p.q_in = (pe_tensor){base, PE_F32, T, nq, D, qkv.strides[0], head_stride};
    p.k_in = (pe_tensor){base + nq * head_stride, PE_F32, T, nkv, D, qkv.strides[0], head_stride};
    p.v_in = (pe_tensor){base + (nq + nkv) * head_stride, PE_F32, T, nkv, D, qkv.strides[0],
                         head_stride};
    const unsigned caches = PYA_F32 | PYA_F16 | PYA_BF16 | PYA_I8;
    if (pya_get(kc_o, "k_cache", caches, 1, PYA_ROWS, 3, 3, &kc) != 0 ||
        pya_get(vc_o, "v_cache", caches, 1, PYA_ROWS, 3, 3, &vc) != 0 ||
        opt_array(qout_o, "q_out", PYA_FLOATS, 1, 3, 3, &qo) != 0 ||
        opt_array(ks_o, "k_scale", PYA_F32, 1, 2, 2, &ks) != 0 ||
        opt_array(vs_o, "v_scale", PYA_F32, 1, 2, 2, &vs) != 0 ||
        opt_array(qw_o, "q_norm_weight", PYA_F32, 0, 1, 1, &qw) != 0 ||
        opt_array(kw_o, "k_norm_weight", PYA_F32, 0, 1, 1, &kwt) != 0)
        goto done;
    p.k_cache = view3(&kc);
    p.v_cache = view3(&vc);
    p.q_out = in_place ? p.q_in : view3(&qo);
    /* scales: (tokens, kv heads) float32 -> (tokens, heads, 1) views */
    if (ks.view.obj) p.k_scale = (pe_tensor){ks.view.buf, PE_F32, ks.shape[0], ks.shape[1], 1, ks.strides[0], ks.strides[1]};
    if (vs.view.obj) p.v_scale = (pe_tensor){vs.view.buf, PE_F32, vs.shape[0], vs.shape[1], 1, vs.strides[0], vs.strides[1]};
    const pya *w[2] = {&qw, &kwt};
    static const char *const wname[2] = {"q_norm_weight", "k_norm_weight"};
    for (int i = 0; i < 2; i++)
        if (w[i]->view.obj && w[i]->shape[0] != D) {
            PyErr_Format(PyExc_ValueError, "%s has %lld entries, want head_dim = %lld", wname[i],
                         (long long)w[i]->shape[0], (long long)D);
            goto done;
        }
    p.q_norm_weight = qw.view.obj ? qw.view.buf : NULL;
    p.k_norm_weight = kwt.view.obj ? kwt.view.buf : NULL;
    p.norm_eps = eps;
    p.norm_weight = gemma ? PE_NORM_ONE_PLUS_WEIGHT : PE_NORM_WEIGHT;
    p.threads = threads;
    if (pypos_get(pos_o, start, T, "positions", &pp) != 0) goto done;
    int st;
    PY_CALL(qkv.size, st = pe_rope_fused_qkv(f, layout, &pp.pos, &p));
    if (st != PE_OK) {
        py_raise(st);
        goto done;
    }
    result = in_place ? qkv_o : qout_o;
    Py_INCREF(result);
done:
    pypos_release(&pp);
    pya_release(&qkv), pya_release(&kc), pya_release(&vc), pya_release(&qo);
    pya_release(&ks), pya_release(&vs), pya_release(&qw), pya_release(&kwt);
    return result;
}

static PyMethodDef methods[] = {
    {"rope_fused_qkv", (PyCFunction)(void (*)(void))py_rope_fused_qkv, METH_VARARGS | METH_KEYWORDS,
     "rope_fused_qkv(qkv, freqs, n_q_heads, n_kv_heads, *, k_cache, v_cache, positions=None,\n"
     "               start=0, layout='half', q_norm_weight=None, k_norm_weight=None,\n"
     "               norm_eps=1e-6, gemma_norm=False, q_out=None, k_scale=None, v_scale=None,\n"
     "               threads=1) -> q\n\n"
     "The fused QKV epilogue in one pass (docs/FUSED.md): qkv is the float32 projection,\n"
     "(T, (n_q + 2 n_kv) * D) or (T, n_q + 2 n_kv, D), rows contiguous (q heads, then k,\n"
     "then v). Optional per-head RMSNorm of q and k (weights of D float32;\n"
     "gemma_norm=True multiplies by 1 + w), RoPE at positions (or start + t), q written\n"
     "in place into qkv (q_out=None; qkv must be writable) or into q_out (T, n_q, D)\n"
     "float32/float16/uint16-as-bfloat16, k and v into the caller's cache slots\n"
     "(T, n_kv, D) float32/float16/uint16 (bfloat16)/int8, any token and head strides;\n"
     "int8 caches need k_scale/v_scale float32 (T, n_kv): x ~ q * scale, scale = absmax/127,\n"
     "q rounded half to even. Returns q_out, or qkv when q is rotated in place."},
    {NULL, NULL, 0, NULL},
};

/* registered by module.c (declared there, like py_check.c) */
int py_init_fused(PyObject *m) { return PyModule_AddFunctions(m, methods); }
