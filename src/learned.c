/*
 * learned.c — a trainable absolute position table (SPEC §1, "learned"):
 * seeded N(0, 0.02^2) initialisation, gather forward, scatter-add backward,
 * an SGD step and .npy persistence. Positions outside the table are an
 * error: a learned table has nothing to say about lengths it never saw.
 */
#include "internal.h"
#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pe_learned {
    int64_t max_len;
    int64_t dim;
    float *w; /* (max_len, dim) */
};

/* Uniform in (0, 1]: 53 random bits, shifted off zero so log() is finite. */
static double uniform01(uint64_t s[4]) {
    return ((double)(pe__xoshiro256ss(s) >> 11) + 1.0) * 0x1p-53;
}

static int check_shape(int64_t max_len, int64_t dim, size_t *elems) {
    if (max_len < 1)
        return pe__fail(PE_ERR_DIM, "max_len=%lld must be >= 1", (long long)max_len);
    if (dim < 1) return pe__fail(PE_ERR_DIM, "dim=%lld must be >= 1", (long long)dim);
    size_t bytes;
    if (!pe__mul_size(max_len, dim, elems) || !pe__size_mul(*elems, sizeof(float), &bytes))
        return pe__fail(PE_ERR_OVERFLOW, "max_len=%lld x dim=%lld overflows size_t",
                        (long long)max_len, (long long)dim);
    return PE_OK;
}

static int alloc_table(int64_t max_len, int64_t dim, pe_learned **out) {
    size_t elems = 0;
    PE_TRY(check_shape(max_len, dim, &elems));
    pe_learned *t = malloc(sizeof *t);
    float *w = malloc(elems * sizeof(float));
    if (t == NULL || w == NULL) {
        free(t);
        free(w);
        return pe__fail(PE_ERR_NOMEM, "no memory for a %lld x %lld table",
                        (long long)max_len, (long long)dim);
    }
    t->max_len = max_len;
    t->dim = dim;
    t->w = w;
    *out = t;
    return PE_OK;
}

int pe_learned_create(int64_t max_len, int64_t dim, uint64_t seed,
                      pe_learned **out) {
    PE_CHECK_NULL(out);
    pe_learned *t;
    PE_TRY(alloc_table(max_len, dim, &t));
    uint64_t sm = seed, s[4];
    for (int i = 0; i < 4; i++) s[i] = pe__splitmix64(&sm); /* the seed expanded */
    const double sigma = 0.02, two_pi = 6.283185307179586476925;
    size_t n = (size_t)max_len * (size_t)dim;
    for (size_t j = 0; j < n; j += 2) {
        /* Box-Muller: one pair of uniforms gives two independent normals. */
        double r = sqrt(-2.0 * log(uniform01(s)));
        double a = two_pi * uniform01(s);
        t->w[j] = (float)(sigma * r * cos(a));
        if (j + 1 < n) t->w[j + 1] = (float)(sigma * r * sin(a));
    }
    *out = t;
    return PE_OK;
}

void pe_learned_free(pe_learned *table) {
    if (table == NULL) return;
    free(table->w);
    free(table);
}

int64_t pe_learned_max_len(const pe_learned *t) { return t ? t->max_len : 0; }
int64_t pe_learned_dim(const pe_learned *t) { return t ? t->dim : 0; }
float *pe_learned_weights(pe_learned *t) { return t ? t->w : NULL; }
const float *pe_learned_weights_const(const pe_learned *t) { return t ? t->w : NULL; }

static int check_positions(const pe_learned *t, const int64_t *positions, int64_t count) {
    if (count < 0)
        return pe__fail(PE_ERR_SHAPE, "count=%lld must be >= 0", (long long)count);
    if (count > 0) PE_CHECK_NULL(positions);
    for (int64_t r = 0; r < count; r++)
        if (positions[r] < 0 || positions[r] >= t->max_len)
            return pe__fail(PE_ERR_RANGE,
                            "position %lld (token %lld) outside the learned table "
                            "[0, max_len=%lld): a learned table cannot extrapolate",
                            (long long)positions[r], (long long)r, (long long)t->max_len);
    return PE_OK;
}

/* The table's dim and byte size (max_len x dim floats: checked at creation). */
static int64_t t_dim(const pe_learned *t) { return t->dim; }
static size_t table_bytes(const pe_learned *t) {
    return (size_t)t->max_len * (size_t)t->dim * sizeof(float);
}

int pe_learned_forward(const pe_learned *table, const int64_t *positions,
                       int64_t count, float *out) {
    PE_CHECK_NULL(table);
    PE_TRY(check_positions(table, positions, count));
    if (count == 0) return PE_OK;
    PE_CHECK_NULL(out);
    /* rows are copied while the table and the positions are read */
    size_t out_bytes;
    PE_TRY(pe__bytes("out", count, t_dim(table), sizeof(float), &out_bytes));
    PE_TRY(pe__check_bytes_apart(out, out_bytes, "out", table->w, table_bytes(table), "the table"));
    PE_TRY(pe__check_bytes_apart(out, out_bytes, "out", positions,
                                 (size_t)count * sizeof(int64_t), "positions"));
    const size_t row = (size_t)table->dim;
    for (int64_t r = 0; r < count; r++)
        memcpy(out + (size_t)r * row, table->w + (size_t)positions[r] * row,
               row * sizeof(float));
    return PE_OK;
}

int pe_learned_backward(const pe_learned *table, const int64_t *positions,
                        int64_t count, const float *grad_out, float *grad_table) {
    PE_CHECK_NULL(table);
    PE_TRY(check_positions(table, positions, count));
    if (count == 0) return PE_OK;
    PE_CHECK_NULL(grad_out);
    PE_CHECK_NULL(grad_table);
    /* grad_table accumulates while grad_out and the positions are read */
    size_t grad_bytes;
    PE_TRY(pe__bytes("grad_out", count, t_dim(table), sizeof(float), &grad_bytes));
    PE_TRY(pe__check_bytes_apart(grad_table, table_bytes(table), "grad_table", grad_out, grad_bytes,
                                 "grad_out"));
    PE_TRY(pe__check_bytes_apart(grad_table, table_bytes(table), "grad_table", positions,
                                 (size_t)count * sizeof(int64_t), "positions"));
    pe__kernels()->scatter_add_f32(grad_table, table->dim, positions, count,
                                   grad_out);
    return PE_OK;
}

int pe_learned_sgd_step(pe_learned *table, const float *grad_table, float lr) {
    PE_CHECK_NULL(table);
    PE_CHECK_NULL(grad_table);
    if (!isfinite(lr)) return pe__fail(PE_ERR_PARAM, "lr=%g must be finite", (double)lr);
    if (grad_table != table->w) /* the weights themselves are fine: element by element */
        PE_TRY(pe__check_bytes_apart(table->w, table_bytes(table), "the table", grad_table,
                                     table_bytes(table), "grad_table"));
    size_t n = (size_t)table->max_len * (size_t)table->dim;
    for (size_t j = 0; j < n; j++) table->w[j] -= lr * grad_table[j];
    return PE_OK;
}

int pe_learned_save(const pe_learned *table, const char *path) {
    PE_CHECK_NULL(table);
    PE_CHECK_NULL(path);
    int64_t shape[2] = {table->max_len, table->dim};
    return pe_npy_write(path, PE_F32, 2, shape, table->w);
}

int pe_learned_load(const char *path, pe_learned **out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    pe_npy_array a;
    PE_TRY(pe_npy_read(path, &a));
    int status = PE_OK;
    if (a.dtype != PE_F32)
        status = pe__fail(PE_ERR_DTYPE, "%s: learned tables are float32, file has %s",
                          path, pe_dtype_name(a.dtype));
    else if (a.ndim != 2)
        status = pe__fail(PE_ERR_SHAPE, "%s: learned tables are 2-D, file has %d dims",
                          path, a.ndim);
    pe_learned *t = NULL;
    if (status == PE_OK) status = alloc_table(a.shape[0], a.shape[1], &t);
    if (status == PE_OK) {
        memcpy(t->w, a.data, a.nbytes);
        *out = t;
    }
    pe_npy_free(&a);
    return status;
}
