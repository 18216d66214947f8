/*
 * analysis.c — the analyses of the design notes (SPEC §5) as pure functions:
 * the toy design's logit terms and regimes, the normalized and binary
 * pitfalls, wavelengths, flips and aliasing, near-collisions, RoPE's
 * relativity and direction, and similarity matrices. Everything in double;
 * angles come from the same exact kernel as the rotation.
 */
#include "internal.h"
#include "positions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double TWO_PI = 6.283185307179586476925;

/* y = M x for a (dim, dim) row-major matrix. */
static void matvec(int64_t dim, const double *M, const double *x, double *y) {
    for (int64_t r = 0; r < dim; r++) {
        double s = 0;
        for (int64_t c = 0; c < dim; c++) s += M[r * dim + c] * x[c];
        y[r] = s;
    }
}

static double dot(const double *a, const double *b, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static int check_dim(int64_t dim) {
    if (dim < 1 || dim > (1 << 16))
        return pe__fail(PE_ERR_DIM, "dim=%lld must be in [1, 65536]", (long long)dim);
    return PE_OK;
}

int pe_logit_terms_compute(int64_t dim, const double *Q, const double *K,
                           const double *e_m, const double *e_n, const double *p_m,
                           const double *p_n, pe_logit_terms *out) {
    PE_TRY(check_dim(dim));
    PE_CHECK_NULL(Q);
    PE_CHECK_NULL(K);
    PE_CHECK_NULL(e_m);
    PE_CHECK_NULL(e_n);
    PE_CHECK_NULL(p_m);
    PE_CHECK_NULL(p_n);
    PE_CHECK_NULL(out);
    double *buf;
    PE_TRY(pe__alloc("logit terms scratch", dim, 8, sizeof(double), &buf));
    double *qe = buf, *qp = qe + dim, *ke = qp + dim, *kp = ke + dim, *xm = kp + dim,
           *xn = xm + dim, *qx = xn + dim, *kx = qx + dim;
    matvec(dim, Q, e_m, qe);
    matvec(dim, Q, p_m, qp);
    matvec(dim, K, e_n, ke);
    matvec(dim, K, p_n, kp);
    for (int64_t i = 0; i < dim; i++) {
        xm[i] = e_m[i] + p_m[i];
        xn[i] = e_n[i] + p_n[i];
    }
    matvec(dim, Q, xm, qx);
    matvec(dim, K, xn, kx);
    out->content_content = dot(qe, ke, dim);
    out->content_position = dot(qe, kp, dim);
    out->position_content = dot(qp, ke, dim);
    out->position_position = dot(qp, kp, dim);
    out->logit = dot(qx, kx, dim);
    free(buf);
    return PE_OK;
}

int pe_toy_analyze(int64_t dim, const double *Q, const double *K, const double *e_m,
                   int64_t m, const double *keys, const int64_t *key_pos, int64_t n_keys,
                   double tol, pe_toy_report *out) {
    PE_TRY(check_dim(dim));
    PE_CHECK_NULL(Q);
    PE_CHECK_NULL(K);
    PE_CHECK_NULL(e_m);
    PE_CHECK_NULL(keys);
    PE_CHECK_NULL(key_pos);
    PE_CHECK_NULL(out);
    if (n_keys < 1) return pe__fail(PE_ERR_SHAPE, "n_keys=%lld must be >= 1", (long long)n_keys);
    if (!(tol >= 0) || !isfinite(tol))
        return pe__fail(PE_ERR_PARAM, "tol=%g must be finite and >= 0", tol);
    double *buf;
    PE_TRY(pe__alloc("toy analysis scratch", dim, 5, sizeof(double), &buf));
    double *ones = buf, *q1 = ones + dim, *k1 = q1 + dim, *qe = k1 + dim, *ke = qe + dim;
    for (int64_t i = 0; i < dim; i++) ones[i] = 1.0;
    matvec(dim, Q, ones, q1);
    matvec(dim, K, ones, k1);
    matvec(dim, Q, e_m, qe);
    pe_toy_report r;
    memset(&r, 0, sizeof r);
    r.q_ones_norm = sqrt(dot(q1, q1, dim));
    r.k_ones_norm = sqrt(dot(k1, k1, dim));
    const int q0 = r.q_ones_norm <= tol, k0 = r.k_ones_norm <= tol;
    r.regime = q0 && k0 ? PE_TOY_CONTENT_ONLY
               : q0     ? PE_TOY_KEY_DRIFT
               : k0     ? PE_TOY_QUERY_SCALE
                        : PE_TOY_QUADRATIC;
    r.slope = dot(qe, k1, dim);
    r.quadratic = dot(q1, k1, dim);
    r.effective_slope = r.slope + (double)m * r.quadratic;
    int64_t nmin = key_pos[0], nmax = key_pos[0];
    r.content_min = INFINITY;
    r.content_max = -INFINITY;
    for (int64_t n = 0; n < n_keys; n++) {
        matvec(dim, K, keys + n * dim, ke);
        double c = dot(qe, ke, dim);
        if (c < r.content_min) r.content_min = c;
        if (c > r.content_max) r.content_max = c;
        if (key_pos[n] < nmin) nmin = key_pos[n];
        if (key_pos[n] > nmax) nmax = key_pos[n];
    }
    /* the span in double: nmax - nmin overflows int64 for keys at both ends */
    r.drift = fabs(r.effective_slope) * ((double)nmax - (double)nmin);
    r.end_skew = r.drift > r.content_max - r.content_min;
    r.skew_to_end = r.effective_slope > 0;
    free(buf);
    *out = r;
    return PE_OK;
}

int pe_normalized_inconsistency(int64_t position, const int64_t *lengths, int64_t n,
                                double *values, double *spacing) {
    if (n < 0) return pe__fail(PE_ERR_SHAPE, "n=%lld must be >= 0", (long long)n);
    if (n > 0) {
        PE_CHECK_NULL(lengths);
        PE_CHECK_NULL(values);
        PE_CHECK_NULL(spacing);
    }
    for (int64_t i = 0; i < n; i++) {
        if (lengths[i] < 1)
            return pe__fail(PE_ERR_PARAM, "lengths[%lld]=%lld must be >= 1", (long long)i,
                            (long long)lengths[i]);
        if (position < 0 || position >= lengths[i])
            return pe__fail(PE_ERR_RANGE, "position %lld outside [0, length=%lld)",
                            (long long)position, (long long)lengths[i]);
    }
    /* values and spacing are written while lengths is read */
    const size_t nb = (size_t)n * sizeof(double); /* n lengths exist: fits */
    const pe__region outs[2] = {{values, nb, "values"}, {spacing, nb, "spacing"}};
    const pe__region ins[1] = {{lengths, (size_t)n * sizeof(int64_t), "lengths"}};
    PE_TRY(pe__check_regions_apart(outs, 2, ins, 1));
    for (int64_t i = 0; i < n; i++) {
        double L1 = (double)(lengths[i] - 1);
        values[i] = lengths[i] == 1 ? 0.0 : (double)position / L1;
        spacing[i] = lengths[i] == 1 ? 0.0 : 1.0 / L1;
    }
    return PE_OK;
}

static int popcount64(uint64_t x) {
    int c = 0;
    for (; x; x &= x - 1) c++;
    return c;
}

int pe_binary_hamming(int64_t start, int64_t count, int64_t *distances,
                      pe_hamming_report *out) {
    PE_CHECK_NULL(out);
    if (count < 1) return pe__fail(PE_ERR_SHAPE, "count=%lld must be >= 1", (long long)count);
    if (start < 0 || start > INT64_MAX - count)
        return pe__fail(PE_ERR_RANGE, "start=%lld must be >= 0 and start + count must fit int64",
                        (long long)start);
    const pe__region outs[2] = {{distances, (size_t)count * sizeof(int64_t), "distances"},
                                {out, sizeof *out, "out"}};
    PE_TRY(pe__check_regions_apart(outs, 2, NULL, 0));
    pe_hamming_report r = {INT64_MAX, 0, start, 0.0, 0};
    double sum = 0;
    for (int64_t i = 0; i < count; i++) {
        int64_t p = start + i;
        /* p and p+1 differ in the trailing ones of p and the bit above them */
        int64_t d = popcount64((uint64_t)p ^ (uint64_t)(p + 1));
        if (distances) distances[i] = d;
        if (d < r.min_distance) r.min_distance = d;
        if (d > r.max_distance) {
            r.max_distance = d;
            r.argmax = p;
        }
        r.jumps += d > 1;
        sum += (double)d;
    }
    r.mean_distance = sum / (double)count;
    *out = r;
    return PE_OK;
}

int pe_pair_periods(const pe_freqs *freqs, int64_t offset, double *wavelength, double *flip,
                    double *phase, double *turns) {
    PE_TRY(pe_freqs_validate(freqs));
    const int64_t half = freqs->rotary_dim / 2;
    /* four outputs, each (half,), apart from each other and from freqs */
    const size_t hb = (size_t)half * sizeof(double);
    const pe__region outs[4] = {{wavelength, hb, "wavelength"}, {flip, hb, "flip"},
                                {phase, hb, "phase"}, {turns, hb, "turns"}};
    const pe__region ins[1] = {{freqs, sizeof *freqs, "freqs"}};
    PE_TRY(pe__check_regions_apart(outs, 4, ins, 1));
    const pe_kernel_table *k = pe__kernels();
    for (int64_t i = 0; i < half; i++) {
        double w = freqs->inv_freq[i] + freqs->inv_freq_lo[i];
        if (wavelength) wavelength[i] = w > 0 ? TWO_PI / w : INFINITY;
        if (flip) flip[i] = w > 0 ? TWO_PI / 2 / w : INFINITY;
        if (phase) {
            /* the exact reduced angle, mapped from [-pi, pi] to [0, 2pi) */
            double c, s;
            k->cos_sin(offset, &freqs->inv_freq[i], &freqs->inv_freq_lo[i], 1, &c, &s);
            double a = atan2(s, c);
            phase[i] = a < 0 ? a + TWO_PI : a;
        }
        if (turns) turns[i] = (double)offset * w / TWO_PI;
    }
    return PE_OK;
}

int pe_near_collisions(const pe_freqs *freqs, int64_t min_offset, int64_t max_offset,
                       int64_t top, int64_t *offsets, double *distances, int64_t *found) {
    PE_TRY(pe_freqs_validate(freqs));
    PE_CHECK_NULL(found);
    if (min_offset < 1 || max_offset < min_offset)
        return pe__fail(PE_ERR_RANGE, "offsets [%lld, %lld] must satisfy 1 <= min <= max",
                        (long long)min_offset, (long long)max_offset);
    if (top < 1 || top > 100000)
        return pe__fail(PE_ERR_PARAM, "top=%lld must be in [1, 100000]", (long long)top);
    PE_CHECK_NULL(offsets);
    PE_CHECK_NULL(distances);
    /* the sorted list is rewritten in both arrays as offsets are visited */
    const size_t list = (size_t)top * 8; /* top <= 100000 */
    PE_TRY(pe__check_bytes_apart(distances, list, "distances", offsets, list, "offsets"));
    PE_TRY(pe__check_bytes_apart(found, sizeof *found, "found", offsets, list, "offsets"));
    PE_TRY(pe__check_bytes_apart(found, sizeof *found, "found", distances, list, "distances"));
    const pe__region outs[3] = {{offsets, list, "offsets"}, {distances, list, "distances"},
                                {found, sizeof *found, "found"}};
    const pe__region ins[1] = {{freqs, sizeof *freqs, "freqs"}};
    PE_TRY(pe__check_regions_apart(outs, 3, ins, 1));
    const int64_t half = freqs->rotary_dim / 2;
    double *cs;
    PE_TRY(pe__alloc("cos/sin scratch", half, 2, sizeof(double), &cs));
    const pe_kernel_table *k = pe__kernels();
    int64_t n = 0;
    /* The loop ends by comparison before the increment: max_offset may be
     * INT64_MAX, where off++ past it would overflow and never stop. */
    for (int64_t off = min_offset;; off++) {
        k->cos_sin(off, freqs->inv_freq, freqs->inv_freq_lo, half, cs, cs + half);
        double d2 = 0;
        for (int64_t i = 0; i < half; i++) d2 += 2.0 - 2.0 * cs[i];
        double d = sqrt(fmax(d2, 0.0));
        if (n < top || d < distances[n - 1]) {
            /* insertion into the sorted top list (ties keep the smaller offset) */
            int64_t j = n < top ? n++ : n - 1;
            while (j > 0 && distances[j - 1] > d) {
                distances[j] = distances[j - 1];
                offsets[j] = offsets[j - 1];
                j--;
            }
            distances[j] = d;
            offsets[j] = off;
        }
        if (off == max_offset) break;
    }
    free(cs);
    *found = n;
    return PE_OK;
}

/* Rotate a double vector in place at position p (forward, magnitude A). */
static void rotate_double(const pe_freqs *f, pe_rope_layout layout, int64_t p, double *x,
                          double *c, double *s) {
    const int64_t half = f->rotary_dim / 2;
    pe__kernels()->cos_sin(p, f->inv_freq, f->inv_freq_lo, half, c, s);
    for (int64_t i = 0; i < half; i++) {
        int64_t ia = layout == PE_ROPE_INTERLEAVED ? 2 * i : i;
        int64_t ib = layout == PE_ROPE_INTERLEAVED ? 2 * i + 1 : i + half;
        double a = x[ia], b = x[ib];
        x[ia] = f->attention_factor * (a * c[i] - b * s[i]);
        x[ib] = f->attention_factor * (a * s[i] + b * c[i]);
    }
}

static int check_rope_args(const pe_freqs *f, pe_rope_layout layout, int64_t head_dim,
                           const double *q, const double *k_vec) {
    PE_TRY(pe_freqs_validate(f));
    PE_TRY(pe__check_rope_layout(layout, "layout"));
    if (head_dim < f->rotary_dim || head_dim > (1 << 16))
        return pe__fail(PE_ERR_DIM, "head_dim=%lld must be in [rotary_dim=%lld, 65536]",
                        (long long)head_dim, (long long)f->rotary_dim);
    PE_CHECK_NULL(q);
    PE_CHECK_NULL(k_vec);
    return PE_OK;
}

int pe_rope_score_curve(const pe_freqs *freqs, pe_rope_layout layout, int64_t head_dim,
                        const double *q, const double *k_vec, int64_t m,
                        const int64_t *offsets, int64_t n, double *scores) {
    PE_TRY(check_rope_args(freqs, layout, head_dim, q, k_vec));
    if (n < 0) return pe__fail(PE_ERR_SHAPE, "n=%lld must be >= 0", (long long)n);
    if (n == 0) return PE_OK;
    PE_CHECK_NULL(offsets);
    PE_CHECK_NULL(scores);
    /* scores are written while offsets, q and k are read (n offsets exist:
     * n x 8 bytes fit) */
    const size_t nb = (size_t)n * 8, vb = (size_t)head_dim * sizeof(double);
    PE_TRY(pe__check_bytes_apart(scores, nb, "scores", offsets, nb, "offsets"));
    PE_TRY(pe__check_bytes_apart(scores, nb, "scores", q, vb, "q"));
    PE_TRY(pe__check_bytes_apart(scores, nb, "scores", k_vec, vb, "k_vec"));
    for (int64_t j = 0; j < n; j++)
        if ((offsets[j] > 0 && m > INT64_MAX - offsets[j]) ||
            (offsets[j] < 0 && m < INT64_MIN - offsets[j]))
            return pe__fail(PE_ERR_RANGE, "m=%lld + offsets[%lld]=%lld overflows int64",
                            (long long)m, (long long)j, (long long)offsets[j]);
    const int64_t half = freqs->rotary_dim / 2;
    double *buf; /* head_dim <= 65536 (check_rope_args) */
    PE_TRY(pe__alloc("score curve scratch", head_dim + half, 2, sizeof(double), &buf));
    double *rq = buf, *rk = rq + head_dim, *c = rk + head_dim, *s = c + half;
    memcpy(rq, q, sizeof(double) * (size_t)head_dim);
    rotate_double(freqs, layout, m, rq, c, s);
    for (int64_t j = 0; j < n; j++) {
        memcpy(rk, k_vec, sizeof(double) * (size_t)head_dim);
        rotate_double(freqs, layout, m + offsets[j], rk, c, s);
        scores[j] = dot(rq, rk, head_dim);
    }
    free(buf);
    return PE_OK;
}

int pe_similarity_additive(const pe_additive_params *params, const pe_positions *positions,
                           int64_t count, double *out) {
    PE_CHECK_NULL(params);
    PE_TRY(pe__check_positions(positions, count));
    if (count < 1 || count > 1 << 15)
        return pe__fail(PE_ERR_SHAPE, "count=%lld must be in [1, 32768]", (long long)count);
    PE_CHECK_NULL(out);
    if (params->dim < 1) return pe__fail(PE_ERR_DIM, "dim=%lld must be >= 1", (long long)params->dim);
    size_t n;
    if (pe__bytes("similarity rows", count, params->dim, sizeof(double), &n) != PE_OK)
        return pe__fail(PE_ERR_OVERFLOW, "count x dim overflows size_t");
    /* out (count x count, fits: count <= 2^15) is written after positions
     * and params are read; still, a call that writes over its inputs is
     * refused, as everywhere */
    const size_t ob = (size_t)count * (size_t)count * sizeof(double);
    PE_TRY(pe__check_positions_apart(positions, count, out, ob, "out"));
    const pe__region outs[1] = {{out, ob, "out"}};
    const pe__region ins[1] = {{params, sizeof *params, "params"}};
    PE_TRY(pe__check_regions_apart(outs, 1, ins, 1));
    double *rows;
    PE_TRY(pe__alloc("similarity rows", count, params->dim, sizeof(double), &rows));
    /* encode validates params and positions before anything is written */
    int st = pe_additive_encode(params, positions, count, rows, PE_F64);
    if (st == PE_OK)
        for (int64_t i = 0; i < count; i++)
            for (int64_t j = 0; j < count; j++)
                out[i * count + j] = dot(rows + i * params->dim, rows + j * params->dim, params->dim);
    free(rows);
    return st;
}

int pe_similarity_rope(const pe_freqs *freqs, pe_rope_layout layout, int64_t head_dim,
                       const double *q, const double *k_vec, const pe_positions *positions,
                       int64_t count, double *out) {
    PE_TRY(check_rope_args(freqs, layout, head_dim, q, k_vec));
    PE_TRY(pe__check_positions(positions, count));
    if (count < 1 || count > 1 << 15)
        return pe__fail(PE_ERR_SHAPE, "count=%lld must be in [1, 32768]", (long long)count);
    PE_CHECK_NULL(out);
    const int64_t half = freqs->rotary_dim / 2;
    /* count <= 2^15 and head_dim <= 2^16 (checked above): no overflow */
    const size_t rows = (size_t)count * (size_t)head_dim;
    const size_t ob = (size_t)count * sizeof(double), vb = (size_t)head_dim * sizeof(double);
    PE_TRY(pe__check_positions_apart(positions, count, out, ob, "out"));
    const pe__region outs[1] = {{out, ob, "out"}};
    const pe__region ins[3] = {{q, vb, "q"}, {k_vec, vb, "k"}, {freqs, sizeof *freqs, "freqs"}};
    PE_TRY(pe__check_regions_apart(outs, 1, ins, 3));
    double *buf;
    PE_TRY(pe__alloc("similarity scratch", count * head_dim + half, 2, sizeof(double), &buf));
    double *rq = buf, *rk = rq + rows, *c = rk + rows, *s = c + half;
    for (int64_t i = 0; i < count; i++) {
        int64_t p = pe__position_at(positions, i);
        memcpy(rq + i * head_dim, q, sizeof(double) * (size_t)head_dim);
        memcpy(rk + i * head_dim, k_vec, sizeof(double) * (size_t)head_dim);
        rotate_double(freqs, layout, p, rq + i * head_dim, c, s);
        rotate_double(freqs, layout, p, rk + i * head_dim, c, s);
    }
    for (int64_t i = 0; i < count; i++)
        for (int64_t j = 0; j < count; j++)
            out[i * count + j] = dot(rq + i * head_dim, rk + j * head_dim, head_dim);
    free(buf);
    return PE_OK;
}

/* ---- checks and small transforms the CLI, the tour and Python share */

/* rows, cols >= 1 and rows x cols elements of `elem` bytes fit size_t. */
static int check_matrix(int64_t rows, int64_t cols, size_t elem, size_t *bytes) {
    if (rows < 1 || cols < 1)
        return pe__fail(PE_ERR_SHAPE, "rows=%lld and cols=%lld must be >= 1", (long long)rows,
                        (long long)cols);
    if (pe__bytes("matrix", rows, cols, elem, bytes) != PE_OK)
        return pe__fail(PE_ERR_OVERFLOW, "rows=%lld x cols=%lld overflows size_t", (long long)rows,
                        (long long)cols);
    return PE_OK;
}

int pe_permutation_gap(const float *y, const float *y_perm, const int64_t *perm, int64_t rows,
                       int64_t cols, double *gap) {
    PE_CHECK_NULL(y);
    PE_CHECK_NULL(y_perm);
    PE_CHECK_NULL(perm);
    PE_CHECK_NULL(gap);
    size_t bytes;
    PE_TRY(check_matrix(rows, cols, sizeof(float), &bytes));
    for (int64_t t = 0; t < rows; t++)
        if (perm[t] < 0 || perm[t] >= rows)
            return pe__fail(PE_ERR_RANGE, "perm[%lld]=%lld outside [0, rows=%lld)", (long long)t,
                            (long long)perm[t], (long long)rows);
    /* Differences in double: exact for two floats of like magnitude, so a
     * gap of 0 means the rows are equal bit for bit. */
    double g = 0;
    for (int64_t t = 0; t < rows; t++) {
        const float *a = y_perm + t * cols, *b = y + perm[t] * cols;
        for (int64_t e = 0; e < cols; e++) {
            double d = fabs((double)a[e] - (double)b[e]);
            if (d > g) g = d;
        }
    }
    *gap = g;
    return PE_OK;
}

int pe_zero_row_sums(double *m, int64_t rows, int64_t cols) {
    PE_CHECK_NULL(m);
    size_t bytes;
    PE_TRY(check_matrix(rows, cols, sizeof(double), &bytes));
    for (int64_t r = 0; r < rows; r++) {
        double *row = m + r * cols, mean = 0;
        for (int64_t c = 0; c < cols; c++) mean += row[c];
        mean /= (double)cols;
        for (int64_t c = 0; c < cols; c++) row[c] -= mean;
    }
    return PE_OK;
}

int pe_softmax(const double *x, int64_t n, double *out) {
    PE_CHECK_NULL(x);
    PE_CHECK_NULL(out);
    size_t bytes;
    if (n < 1) return pe__fail(PE_ERR_SHAPE, "n=%lld must be >= 1", (long long)n);
    if (pe__bytes("softmax", n, 1, sizeof(double), &bytes) != PE_OK)
        return pe__fail(PE_ERR_OVERFLOW, "n=%lld doubles overflow size_t", (long long)n);
    if (out != x) PE_TRY(pe__check_bytes_apart(out, bytes, "out", x, bytes, "x"));
    double mx = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(x[i]) || x[i] == INFINITY)
            return pe__fail(PE_ERR_PARAM, "x[%lld]=%g must be a number below +inf", (long long)i, x[i]);
        mx = fmax(mx, x[i]);
    }
    if (mx == -INFINITY) { /* every entry masked out: no weight anywhere */
        for (int64_t i = 0; i < n; i++) out[i] = 0;
        return PE_OK;
    }
    /* The largest entry becomes exp(0) = 1: nothing overflows, and the sum
     * is at least 1, so nothing divides by a tiny number. */
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += (out[i] = exp(x[i] - mx));
    for (int64_t i = 0; i < n; i++) out[i] /= sum;
    return PE_OK;
}
