/*
 * py_analysis.c — the analyses of the design notes (SPEC §5), each a thin
 * call: float64 inputs (lists or arrays; converted once), numpy results.
 */
#include "posenc_py.h"
#include "py_init.h"

#include <string.h>

int py_additive_params(const char *scheme, int64_t dim, double scale, int64_t length, double base,
                       const char *layout, const char *convention, pe_additive_params *out);

/* float64 inputs of one call, released together. */
typedef struct {
    PyObject *own[8];
    pya a[8];
    int n;
} f64_args;

static const double *f64_arg(f64_args *s, PyObject *obj, const char *name, int ndim, const int64_t *shape) {
    int i = s->n;
    if (py_f64_array(obj, name, ndim, ndim, &s->own[i], &s->a[i]) != 0) return NULL;
    s->n++;
    if (shape && pya_check_shape(&s->a[i], name, ndim, shape) != 0) return NULL;
    return (const double *)s->a[i].view.buf;
}

static void f64_release(f64_args *s) {
    for (int i = 0; i < s->n; i++) {
        pya_release(&s->a[i]);
        Py_XDECREF(s->own[i]);
    }
    s->n = 0;
}

static PyObject *new_f64(int ndim, const int64_t *shape, double **data) {
    pya o;
    PyObject *r;
    if (pya_out(NULL, "out", PE_F64, ndim, shape, &o, &r) != 0) return NULL;
    *data = o.view.buf;
    pya_release(&o); /* r keeps the memory */
    return r;
}

static PyObject *py_logit_terms(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"Q", "K", "e_m", "e_n", "p_m", "p_n", NULL};
    PyObject *o[6];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOO:logit_terms", kwlist, &o[0], &o[1], &o[2], &o[3], &o[4], &o[5]))
        return NULL;
    f64_args s = {0};
    PyObject *r = NULL;
    const double *em = f64_arg(&s, o[2], "e_m", 1, NULL);
    int64_t dim = em ? s.a[0].shape[0] : 0, mat[2] = {dim, dim};
    const double *Q = em ? f64_arg(&s, o[0], "Q", 2, mat) : NULL;
    const double *K = Q ? f64_arg(&s, o[1], "K", 2, mat) : NULL;
    const double *en = K ? f64_arg(&s, o[3], "e_n", 1, &dim) : NULL;
    const double *pm = en ? f64_arg(&s, o[4], "p_m", 1, &dim) : NULL;
    const double *pn = pm ? f64_arg(&s, o[5], "p_n", 1, &dim) : NULL;
    if (pn) {
        pe_logit_terms t;
        int st = pe_logit_terms_compute(dim, Q, K, em, en, pm, pn, &t);
        r = st != PE_OK ? py_raise(st)
                        : Py_BuildValue("{s:d,s:d,s:d,s:d,s:d}", "content_content", t.content_content,
                                        "content_position", t.content_position, "position_content",
                                        t.position_content, "position_position", t.position_position, "logit",
                                        t.logit);
    }
    f64_release(&s);
    return r;
}

static PyObject *py_toy_analyze(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"Q", "K", "e_m", "m", "keys", "key_positions", "tol", NULL};
    static const char *regimes[] = {"", "content_only", "key_drift", "query_scale", "quadratic"};
    PyObject *Qo, *Ko, *emo, *keyso, *kpo, *own = NULL, *r = NULL;
    long long m;
    double tol = 1e-9;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOLOO|$d:toy_analyze", kwlist, &Qo, &Ko, &emo, &m, &keyso, &kpo, &tol))
        return NULL;
    f64_args s = {0};
    pya kp = {0};
    const double *em = f64_arg(&s, emo, "e_m", 1, NULL);
    int64_t dim = em ? s.a[0].shape[0] : 0, mat[2] = {dim, dim};
    const double *Q = em ? f64_arg(&s, Qo, "Q", 2, mat) : NULL;
    const double *K = Q ? f64_arg(&s, Ko, "K", 2, mat) : NULL;
    const double *keys = K ? f64_arg(&s, keyso, "keys", 2, NULL) : NULL;
    int64_t nk = keys ? s.a[3].shape[0] : 0, kshape[2] = {nk, dim};
    if (keys && pya_check_shape(&s.a[3], "keys", 2, kshape) == 0 &&
        py_int64_array(kpo, "key_positions", 1, 1, &own, &kp) == 0 && pya_check_shape(&kp, "key_positions", 1, &nk) == 0) {
        pe_toy_report t;
        int st = pe_toy_analyze(dim, Q, K, em, m, keys, kp.view.buf, nk, tol, &t);
        r = st != PE_OK ? py_raise(st)
                        : Py_BuildValue("{s:d,s:d,s:s,s:i,s:d,s:d,s:d,s:d,s:d,s:d,s:O,s:O}", "q_ones_norm", t.q_ones_norm,
                                        "k_ones_norm", t.k_ones_norm, "regime", regimes[t.regime], "regime_number",
                                        (int)t.regime, "slope", t.slope, "quadratic", t.quadratic, "effective_slope",
                                        t.effective_slope, "content_min", t.content_min, "content_max", t.content_max,
                                        "drift", t.drift, "end_skew", t.end_skew ? Py_True : Py_False, "skew_to_end",
                                        t.skew_to_end ? Py_True : Py_False);
    }
    pya_release(&kp);
    Py_XDECREF(own);
    f64_release(&s);
    return r;
}

static PyObject *py_normalized_inconsistency(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"position", "lengths", NULL};
    long long position;
    PyObject *lo, *own, *vals = NULL, *sp = NULL, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LO:normalized_inconsistency", kwlist, &position, &lo)) return NULL;
    pya l;
    if (py_int64_array(lo, "lengths", 1, 1, &own, &l) != 0) return NULL;
    double *v, *s;
    if ((vals = new_f64(1, l.shape, &v)) && (sp = new_f64(1, l.shape, &s))) {
        int st = pe_normalized_inconsistency(position, l.view.buf, l.shape[0], v, s);
        r = st == PE_OK ? PyTuple_Pack(2, vals, sp) : py_raise(st);
    }
    Py_XDECREF(vals);
    Py_XDECREF(sp);
    pya_release(&l);
    Py_DECREF(own);
    return r;
}

static PyObject *py_binary_hamming(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"start", "count", NULL};
    long long start, count;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL:binary_hamming", kwlist, &start, &count)) return NULL;
    if (count < 0) {
        PyErr_Format(PyExc_ValueError, "count=%lld must be >= 0", count);
        return NULL;
    }
    int64_t n = count;
    pya o;
    PyObject *d;
    if (pya_out(NULL, "distances", PE_I64, 1, &n, &o, &d) != 0) return NULL;
    pe_hamming_report h;
    int st = pe_binary_hamming(start, count, o.view.buf, &h);
    pya_release(&o);
    PyObject *r = st != PE_OK ? py_raise(st)
                              : Py_BuildValue("(O{s:L,s:L,s:L,s:d,s:L})", d, "min_distance", (long long)h.min_distance,
                                              "max_distance", (long long)h.max_distance, "argmax", (long long)h.argmax,
                                              "mean_distance", h.mean_distance, "jumps", (long long)h.jumps);
    Py_DECREF(d);
    return r;
}

static PyObject *py_pair_periods(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"freqs", "offset", NULL};
    PyObject *fr;
    long long offset = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|L:pair_periods", kwlist, &fr, &offset)) return NULL;
    const pe_freqs *f = py_freqs_arg(fr, "freqs");
    if (f == NULL) return NULL;
    int64_t n = f->rotary_dim / 2;
    double *p[4];
    PyObject *a[4] = {NULL, NULL, NULL, NULL}, *r = NULL;
    int ok = 1;
    for (int i = 0; i < 4 && ok; i++) ok = (a[i] = new_f64(1, &n, &p[i])) != NULL;
    if (ok) {
        int st = pe_pair_periods(f, offset, p[0], p[1], p[2], p[3]);
        r = st != PE_OK ? py_raise(st)
                        : Py_BuildValue("{s:O,s:O,s:O,s:O}", "wavelength", a[0], "flip", a[1], "phase", a[2], "turns", a[3]);
    }
    for (int i = 0; i < 4; i++) Py_XDECREF(a[i]);
    return r;
}

static PyObject *py_near_collisions(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"freqs", "max_offset", "min_offset", "top", NULL};
    PyObject *fr;
    /* min_offset 100, as `posenc analyze collisions`: below it the nearest
     * offsets are trivially close neighbours, not collisions. */
    long long max_off, min_off = 100, top = 10;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|$LL:near_collisions", kwlist, &fr, &max_off, &min_off, &top))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr, "freqs");
    if (f == NULL) return NULL;
    if (top < 0 || top > (1 << 24)) {
        PyErr_Format(PyExc_ValueError, "top=%lld outside [0, 2^24]", top);
        return NULL;
    }
    int64_t n = top, found = 0;
    pya oo;
    PyObject *offs, *dist = NULL, *r = NULL;
    double *d;
    if (pya_out(NULL, "offsets", PE_I64, 1, &n, &oo, &offs) != 0) return NULL;
    if ((dist = new_f64(1, &n, &d)) != NULL) {
        int st;
        PY_CALL(max_off - min_off, st = pe_near_collisions(f, min_off, max_off, top, oo.view.buf, d, &found));
        if (st != PE_OK) {
            py_raise(st);
        } else {
            /* Trim to what was found (fewer offsets than top). */
            PyObject *o2 = PySequence_GetSlice(offs, 0, (Py_ssize_t)found);
            PyObject *d2 = PySequence_GetSlice(dist, 0, (Py_ssize_t)found);
            if (o2 && d2) r = PyTuple_Pack(2, o2, d2);
            Py_XDECREF(o2);
            Py_XDECREF(d2);
        }
    }
    pya_release(&oo);
    Py_DECREF(offs);
    Py_XDECREF(dist);
    return r;
}

static PyObject *py_rope_score_curve(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"freqs", "q", "k", "offsets", "m", "layout", NULL};
    PyObject *fr, *qo, *ko, *offo, *own = NULL, *r = NULL;
    long long m = 0;
    const char *layout_s = "half";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$Ls:rope_score_curve", kwlist, &fr, &qo, &ko, &offo, &m, &layout_s))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr, "freqs");
    pe_rope_layout layout;
    if (f == NULL || py_layout(layout_s, &layout)) return NULL;
    f64_args s = {0};
    pya off = {0};
    const double *q = f64_arg(&s, qo, "q", 1, NULL);
    const double *k = q ? f64_arg(&s, ko, "k", 1, s.a[0].shape) : NULL;
    if (k && py_int64_array(offo, "offsets", 1, 1, &own, &off) == 0) {
        double *sc;
        PyObject *scores = new_f64(1, off.shape, &sc);
        if (scores) {
            int st = pe_rope_score_curve(f, layout, s.a[0].shape[0], q, k, m, off.view.buf, off.shape[0], sc);
            r = st == PE_OK ? Py_NewRef(scores) : py_raise(st);
            Py_DECREF(scores);
        }
    }
    pya_release(&off);
    Py_XDECREF(own);
    f64_release(&s);
    return r;
}

static PyObject *py_similarity_additive(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"scheme", "positions", "dim", "scale", "length", "base", "layout", "convention", NULL};
    const char *scheme, *layout = "interleaved", *conv = "paper";
    PyObject *pos_o, *r = NULL;
    long long dim, length = 0;
    double scale = 1.0, base = 10000.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sOL|$dLdss:similarity_additive", kwlist, &scheme, &pos_o, &dim, &scale,
                                     &length, &base, &layout, &conv))
        return NULL;
    pe_additive_params prm;
    pypos p;
    if (py_additive_params(scheme, dim, scale, length, base, layout, conv, &prm) ||
        pypos_get(pos_o, 0, -1, "positions", &p))
        return NULL;
    int64_t shape[2] = {p.count, p.count};
    double *out;
    PyObject *mat = new_f64(2, shape, &out);
    if (mat) {
        int st;
        PY_CALL(p.count * p.count * dim, st = pe_similarity_additive(&prm, &p.pos, p.count, out));
        r = st == PE_OK ? Py_NewRef(mat) : py_raise(st);
        Py_DECREF(mat);
    }
    pypos_release(&p);
    return r;
}

static PyObject *py_similarity_rope(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"freqs", "q", "k", "positions", "layout", NULL};
    PyObject *fr, *qo, *ko, *pos_o, *r = NULL;
    const char *layout_s = "half";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$s:similarity_rope", kwlist, &fr, &qo, &ko, &pos_o, &layout_s))
        return NULL;
    const pe_freqs *f = py_freqs_arg(fr, "freqs");
    pe_rope_layout layout;
    if (f == NULL || py_layout(layout_s, &layout)) return NULL;
    f64_args s = {0};
    pypos p = {0};
    const double *q = f64_arg(&s, qo, "q", 1, NULL);
    const double *k = q ? f64_arg(&s, ko, "k", 1, s.a[0].shape) : NULL;
    if (k && pypos_get(pos_o, 0, -1, "positions", &p) == 0) {
        int64_t shape[2] = {p.count, p.count};
        double *out;
        PyObject *mat = new_f64(2, shape, &out);
        if (mat) {
            int st;
            PY_CALL(p.count * p.count, st = pe_similarity_rope(f, layout, s.a[0].shape[0], q, k, &p.pos, p.count, out));
            r = st == PE_OK ? Py_NewRef(mat) : py_raise(st);
            Py_DECREF(mat);
        }
        pypos_release(&p);
    }
    f64_release(&s);
    return r;
}

static PyObject *py_permutation_gap(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"y", "y_perm", "perm", NULL};
    PyObject *yo, *ypo, *po, *own = NULL, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO:permutation_gap", kwlist, &yo, &ypo, &po)) return NULL;
    pya y = {0}, yp = {0}, perm = {0};
    if (pya_get(yo, "y", PYA_F32, 0, PYA_CONTIG, 2, 2, &y) == 0 &&
        pya_get(ypo, "y_perm", PYA_F32, 0, PYA_CONTIG, 2, 2, &yp) == 0 &&
        pya_check_shape(&yp, "y_perm", 2, y.shape) == 0 &&
        py_int64_array(po, "perm", 1, 1, &own, &perm) == 0 && pya_check_shape(&perm, "perm", 1, y.shape) == 0) {
        double gap;
        int st = pe_permutation_gap(y.view.buf, yp.view.buf, perm.view.buf, y.shape[0], y.shape[1], &gap);
        r = st == PE_OK ? PyFloat_FromDouble(gap) : py_raise(st);
    }
    pya_release(&y);
    pya_release(&yp);
    pya_release(&perm);
    Py_XDECREF(own);
    return r;
}

static PyObject *py_zero_row_sums(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"m", NULL};
    PyObject *mo, *res = NULL, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:zero_row_sums", kwlist, &mo)) return NULL;
    f64_args s = {0};
    const double *m = f64_arg(&s, mo, "m", 2, NULL);
    double *out;
    if (m && (res = new_f64(2, s.a[0].shape, &out))) {
        memcpy(out, m, sizeof(double) * (size_t)s.a[0].size);
        int st = pe_zero_row_sums(out, s.a[0].shape[0], s.a[0].shape[1]);
        if (st == PE_OK) {
            r = res;
            res = NULL;
        } else {
            py_raise(st);
        }
    }
    Py_XDECREF(res);
    f64_release(&s);
    return r;
}

static PyObject *py_softmax(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    static char *kwlist[] = {"x", NULL};
    PyObject *xo, *res = NULL, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:softmax", kwlist, &xo)) return NULL;
    f64_args s = {0};
    const double *x = f64_arg(&s, xo, "x", 1, NULL);
    double *out;
    if (x && (res = new_f64(1, s.a[0].shape, &out))) {
        int st = pe_softmax(x, s.a[0].shape[0], out);
        if (st == PE_OK) {
            r = res;
            res = NULL;
        } else {
            py_raise(st);
        }
    }
    Py_XDECREF(res);
    f64_release(&s);
    return r;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
static PyMethodDef methods[] = {
    {"logit_terms", KW(py_logit_terms),
     "logit_terms(Q, K, e_m, e_n, p_m, p_n) -> dict\n\n"
     "The four terms of an additive scheme's logit (Q(e_m + p_m))^T K(e_n + p_n):\n"
     "content_content, content_position, position_content, position_position, and the logit."},
    {"toy_analyze", KW(py_toy_analyze),
     "toy_analyze(Q, K, e_m, m, keys, key_positions, *, tol=1e-9) -> dict\n\n"
     "Which of the four regimes the toy encoding p_m = m * 1 falls in ('content_only',\n"
     "'key_drift', 'query_scale', 'quadratic'), its drift slope and the end-skew condition."},
    {"normalized_inconsistency", KW(py_normalized_inconsistency),
     "normalized_inconsistency(position, lengths) -> (values, spacing): p/(L-1) and 1/(L-1) per L."},
    {"binary_hamming", KW(py_binary_hamming),
     "binary_hamming(start, count) -> (distances, report): Hamming distance between the binary\n"
     "codes of p and p+1, and its min, max, argmax, mean and number of jumps."},
    {"pair_periods", KW(py_pair_periods),
     "pair_periods(freqs, offset=0) -> dict of float64 (d/2,): wavelength 2pi/w', flip distance\n"
     "pi/w', phase and full turns at offset."},
    {"near_collisions", KW(py_near_collisions),
     "near_collisions(freqs, max_offset, *, min_offset=100, top=10) -> (offsets, distances)\n\n"
     "The offsets at which the encoding moved least, closest first. min_offset=100 as in\n"
     "`posenc analyze collisions`: nearer offsets are neighbours, not collisions."},
    {"rope_score_curve", KW(py_rope_score_curve),
     "rope_score_curve(freqs, q, k, offsets, *, m=0, layout='half') -> float64\n\n"
     "<R(m) q, R(m + k) k_vec> for each offset k: depends on k only (relativity)."},
    {"similarity_additive", KW(py_similarity_additive),
     "similarity_additive(scheme, positions, dim, *, scale=1.0, length=0, base=10000.0,\n"
     "                    layout='interleaved', convention='paper') -> float64 (n, n): PE PE^T."},
    {"similarity_rope", KW(py_similarity_rope),
     "similarity_rope(freqs, q, k, positions, *, layout='half') -> float64 (n, n):\n"
     "<R(p_i) q, R(p_j) k>."},
    {"permutation_gap", KW(py_permutation_gap),
     "permutation_gap(y, y_perm, perm) -> float\n\n"
     "max |y_perm[t] - y[perm[t]]| over float32 (rows, cols) outputs y = f(x), y_perm = f(x[perm]):\n"
     "0 up to rounding when f is permutation-equivariant (attention without positions)."},
    {"zero_row_sums", KW(py_zero_row_sums),
     "zero_row_sums(m) -> float64 (rows, cols): each row minus its mean, so m @ 1 = 0\n"
     "(the toy design's regime ii)."},
    {"softmax", KW(py_softmax),
     "softmax(x) -> float64 (n,): exp(x - max x) / sum; -inf entries get weight 0."},
    {NULL, NULL, 0, NULL},
};

int py_init_analysis(PyObject *m) { return PyModule_AddFunctions(m, methods); }
