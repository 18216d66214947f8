/*
 * additive.c — encodings added to the token embeddings once, at the input:
 * the raw-integer toy, normalized, binary and sinusoidal (SPEC §1), and the
 * sinusoidal shift matrix M_k.
 */
#include "internal.h"
#include "positions.h"
#include "struct_size.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static void sinusoidal_omega(const pe_additive_params *p, int64_t i, double *hi, double *lo);

pe_additive_params pe_additive_defaults(pe_additive_scheme scheme, int64_t dim) {
    pe_additive_params p;
    p.struct_size = sizeof p;
    p.scheme = scheme;
    p.dim = dim;
    p.scale = 1.0;
    p.length = 0;
    p.base = 10000.0;
    p.layout = PE_SIN_INTERLEAVED;
    p.convention = PE_SIN_FREQ_PAPER;
    return p;
}

int64_t pe_binary_nbits(int64_t length) {
    int64_t bits = 0;
    /* smallest k with 2^k >= length, at least 1 */
    while (bits < 63 && ((int64_t)1 << bits) < length) bits++;
    return bits < 1 ? 1 : bits;
}

static int check_params(const pe_additive_params *params) {
    PE_CHECK_NULL(params);
    /* The struct_size rule (struct_size.h). Every field read below belongs
     * to the first version, so the caller's struct is read in place; a
     * field added later must be read from the resolved copy. */
    pe_additive_params resolved;
    const pe_additive_params defaults = pe_additive_defaults(params->scheme, params->dim);
    PE_TRY(pe__struct_resolve(params, &defaults, &resolved, sizeof resolved,
                              PE__SIZE_THROUGH(pe_additive_params, convention), "pe_additive_params",
                              "pe_additive_defaults"));
    const pe_additive_params *p = params;
    if (p->dim < 1)
        return pe__fail(PE_ERR_DIM, "dim=%lld must be >= 1", (long long)p->dim);
    switch (p->scheme) {
    case PE_ADD_RAW:
        if (!isfinite(p->scale))
            return pe__fail(PE_ERR_PARAM, "scale=%g must be finite", p->scale);
        return PE_OK;
    case PE_ADD_NORMALIZED:
        if (p->length < 1)
            return pe__fail(PE_ERR_PARAM, "length=%lld must be >= 1",
                            (long long)p->length);
        return PE_OK;
    case PE_ADD_BINARY: {
        if (p->length < 1)
            return pe__fail(PE_ERR_PARAM, "length=%lld must be >= 1",
                            (long long)p->length);
        int64_t nbits = pe_binary_nbits(p->length);
        if (p->dim < nbits)
            return pe__fail(PE_ERR_DIM,
                            "dim=%lld is less than the %lld bits length=%lld needs",
                            (long long)p->dim, (long long)nbits,
                            (long long)p->length);
        return PE_OK;
    }
    case PE_ADD_SINUSOIDAL:
        if (p->dim % 2 != 0)
            return pe__fail(PE_ERR_DIM, "dim=%lld must be even for sinusoidal",
                            (long long)p->dim);
        PE_TRY(pe__check_base(p->base));
        if (p->layout != PE_SIN_INTERLEAVED && p->layout != PE_SIN_CONCATENATED)
            return pe__fail(PE_ERR_PARAM, "layout=%d is not a sinusoidal layout",
                            (int)p->layout);
        if (p->convention != PE_SIN_FREQ_PAPER && p->convention != PE_SIN_FREQ_T2T)
            return pe__fail(PE_ERR_PARAM,
                            "convention=%d is not a sinusoidal convention",
                            (int)p->convention);
        if (p->base < 1.0) { /* frequencies grow with i: the last is largest */
            double w, lo;
            sinusoidal_omega(p, p->dim / 2 - 1, &w, &lo);
            if (!(w <= PE_MAX_INV_FREQ))
                return pe__fail(PE_ERR_RANGE,
                                "base=%g gives frequency %g above PE_MAX_INV_FREQ=1e240",
                                p->base, w);
        }
        return PE_OK;
    }
    return pe__fail(PE_ERR_PARAM, "scheme=%d is not an additive scheme",
                    (int)p->scheme);
}

/* w_i as a double-double (hi + lo), evaluated in long double. */
static void sinusoidal_omega(const pe_additive_params *p, int64_t i, double *hi,
                             double *lo) {
    long double exponent;
    if (p->convention == PE_SIN_FREQ_PAPER) {
        exponent = (long double)(2 * i) / (long double)p->dim;
    } else {
        int64_t denom = p->dim / 2 - 1;
        exponent = (long double)i / (long double)(denom > 0 ? denom : 1);
    }
    long double w = expl(-exponent * logl((long double)p->base));
    *hi = (double)w;
    *lo = (double)(w - (long double)*hi);
}

int pe_sinusoidal_frequency(const pe_additive_params *params, int64_t pair,
                            double *omega) {
    PE_TRY(check_params(params));
    PE_CHECK_NULL(omega);
    if (params->scheme != PE_ADD_SINUSOIDAL)
        return pe__fail(PE_ERR_PARAM, "scheme=%d is not sinusoidal",
                        (int)params->scheme);
    if (pair < 0 || pair >= params->dim / 2)
        return pe__fail(PE_ERR_RANGE, "pair=%lld outside [0, %lld)",
                        (long long)pair, (long long)(params->dim / 2));
    double lo;
    sinusoidal_omega(params, pair, omega, &lo);
    return PE_OK;
}

/* Index of the sin and cos element of pair i in a row. */
static void sin_cos_index(const pe_additive_params *p, int64_t i, int64_t *is,
                          int64_t *ic) {
    if (p->layout == PE_SIN_INTERLEAVED) {
        *is = 2 * i;
        *ic = 2 * i + 1;
    } else {
        *is = i;
        *ic = i + p->dim / 2;
    }
}

static void store(void *out, pe_dtype dtype, size_t idx, double v) {
    if (dtype == PE_F32)
        ((float *)out)[idx] = (float)v;
    else
        ((double *)out)[idx] = v;
}

static int fill_sinusoidal(const pe_additive_params *p, const pe_positions *pos,
                           int64_t count, void *out, pe_dtype dtype) {
    const int64_t half = p->dim / 2;
    double *buf;
    PE_TRY(pe__alloc("sinusoidal frequencies", half, 4, sizeof(double), &buf));
    double *w = buf, *wlo = buf + half, *c = buf + 2 * half, *s = buf + 3 * half;
    for (int64_t i = 0; i < half; i++) sinusoidal_omega(p, i, &w[i], &wlo[i]);
    const pe_kernel_table *k = pe__kernels();
    for (int64_t t = 0; t < count; t++) {
        k->cos_sin(pe__position_at(pos, t), w, wlo, half, c, s);
        size_t row = (size_t)t * (size_t)p->dim;
        for (int64_t i = 0; i < half; i++) {
            int64_t is, ic;
            sin_cos_index(p, i, &is, &ic);
            store(out, dtype, row + (size_t)is, s[i]);
            store(out, dtype, row + (size_t)ic, c[i]);
        }
    }
    free(buf);
    return PE_OK;
}

int pe_additive_encode(const pe_additive_params *params,
                       const pe_positions *positions, int64_t count, void *out,
                       pe_dtype dtype) {
    PE_TRY(check_params(params));
    PE_TRY(pe__check_positions(positions, count));
    if (dtype != PE_F32 && dtype != PE_F64)
        return pe__fail(PE_ERR_DTYPE, "dtype=%s: additive encodings fill f32 or f64",
                        pe_dtype_name(dtype));
    size_t elems;
    if (!pe__mul_size(count, params->dim, &elems) ||
        elems > SIZE_MAX / pe_dtype_size(dtype))
        return pe__fail(PE_ERR_OVERFLOW, "count=%lld x dim=%lld overflows size_t",
                        (long long)count, (long long)params->dim);
    if (count == 0) return PE_OK;
    PE_CHECK_NULL(out);
    /* positions of every kind (ids, cu_seqlens, seq_starts) and params are
     * read while rows are written (overlap.c) */
    PE_TRY(pe__check_positions_apart(positions, count, out, elems * pe_dtype_size(dtype), "out"));
    const pe__region outs[1] = {{out, elems * pe_dtype_size(dtype), "out"}};
    const pe__region ins[1] = {{params, sizeof *params, "params"}};
    PE_TRY(pe__check_regions_apart(outs, 1, ins, 1));
    if (params->scheme == PE_ADD_RAW) /* scale x p must fit the output type */
        for (int64_t t = 0; t < count; t++) {
            const int64_t p = pe__position_at(positions, t);
            const double v = params->scale * (double)p;
            if (!(fabs(v) <= (dtype == PE_F32 ? (double)FLT_MAX : DBL_MAX)))
                return pe__fail(PE_ERR_RANGE, "scale=%g x position %lld overflows %s",
                                params->scale, (long long)p, pe_dtype_name(dtype));
        }

    /* Validate every position before the first write. */
    if (params->scheme == PE_ADD_NORMALIZED || params->scheme == PE_ADD_BINARY) {
        for (int64_t t = 0; t < count; t++) {
            int64_t p = pe__position_at(positions, t);
            if (p < 0 || p >= params->length)
                return pe__fail(PE_ERR_RANGE,
                                "position %lld (token %lld) outside [0, length=%lld)",
                                (long long)p, (long long)t,
                                (long long)params->length);
        }
    }
    if (params->scheme == PE_ADD_SINUSOIDAL)
        return fill_sinusoidal(params, positions, count, out, dtype);

    const int64_t D = params->dim;
    const int64_t nbits = pe_binary_nbits(params->length);
    for (int64_t t = 0; t < count; t++) {
        int64_t p = pe__position_at(positions, t);
        size_t row = (size_t)t * (size_t)D;
        for (int64_t j = 0; j < D; j++) {
            double v;
            if (params->scheme == PE_ADD_RAW) {
                v = params->scale * (double)p;
            } else if (params->scheme == PE_ADD_NORMALIZED) {
                v = params->length == 1 ? 0.0
                                        : (double)p / (double)(params->length - 1);
            } else { /* binary: zero padding on the left, then MSB first */
                int64_t bit = j - (D - nbits); /* index within the numeral */
                v = bit < 0 ? 0.0 : (double)((p >> (nbits - 1 - bit)) & 1);
            }
            store(out, dtype, row + (size_t)j, v);
        }
    }
    return PE_OK;
}

/* Shared by the matrix and the matrix-free product: block i of M_k. */
static int shift_check(const pe_additive_params *p) {
    PE_TRY(check_params(p));
    if (p->scheme != PE_ADD_SINUSOIDAL)
        return pe__fail(PE_ERR_PARAM,
                        "the shift matrix exists for sinusoidal only (scheme=%d)",
                        (int)p->scheme);
    return PE_OK;
}

int pe_shift_matrix(const pe_additive_params *params, int64_t k, double *out) {
    PE_TRY(shift_check(params));
    PE_CHECK_NULL(out);
    const int64_t D = params->dim, half = D / 2;
    size_t n;
    if (!pe__mul_size(D, D, &n) || n > SIZE_MAX / sizeof(double))
        return pe__fail(PE_ERR_OVERFLOW, "dim=%lld squared overflows", (long long)D);
    for (size_t j = 0; j < n; j++) out[j] = 0.0;
    const pe_kernel_table *kern = pe__kernels();
    for (int64_t i = 0; i < half; i++) {
        double w, wlo, c, s;
        sinusoidal_omega(params, i, &w, &wlo);
        kern->cos_sin(k, &w, &wlo, 1, &c, &s);
        int64_t is, ic;
        sin_cos_index(params, i, &is, &ic);
        /* sin((p+k)w) = cos(kw) sin(pw) + sin(kw) cos(pw)
         * cos((p+k)w) = -sin(kw) sin(pw) + cos(kw) cos(pw) */
        out[is * D + is] = c;
        out[is * D + ic] = s;
        out[ic * D + is] = -s;
        out[ic * D + ic] = c;
    }
    return PE_OK;
}

int pe_shift_apply(const pe_additive_params *params, int64_t k, const double *v,
                   double *out) {
    PE_TRY(shift_check(params));
    PE_CHECK_NULL(v);
    PE_CHECK_NULL(out);
    if (v != out) { /* the same vector is fine (each pair is read first), a shifted one is not */
        const size_t bytes = (size_t)params->dim * sizeof(double); /* v has dim entries */
        PE_TRY(pe__check_bytes_apart(out, bytes, "out", v, bytes, "v"));
    }
    const pe_kernel_table *kern = pe__kernels();
    for (int64_t i = 0; i < params->dim / 2; i++) {
        double w, wlo, c, s;
        sinusoidal_omega(params, i, &w, &wlo);
        kern->cos_sin(k, &w, &wlo, 1, &c, &s);
        int64_t is, ic;
        sin_cos_index(params, i, &is, &ic);
        double vs = v[is], vc = v[ic]; /* read both before writing: may alias */
        out[is] = c * vs + s * vc;
        out[ic] = -s * vs + c * vc;
    }
    return PE_OK;
}
