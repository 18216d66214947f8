/*
 * matmul.h — the trainer's matrix product, C = alpha op(A) op(B) + beta C,
 * with one fixed order of operations, so that a run gives the same bits on
 * every machine whatever its vector width (a BLAS picks its kernel by CPU:
 * OpenBLAS's sgemm gave different experiment tables under different
 * OPENBLAS_CORETYPE values, same binary).
 *
 * Row-major. op(A) is M x K (A itself K x M when trans_a), op(B) is K x N
 * (B itself N x K when trans_b), C is M x N; lda, ldb, ldc are row strides.
 * Each C[i][j] is computed as
 *     c = (beta == 0 ? 0 : beta * C[i][j])        (C not read when beta == 0)
 *     for k = 0 .. K-1:  c = c + (alpha * op(A)[i][k]) * op(B)[k][j]
 * every product and sum rounded on its own (the build never contracts to
 * FMA: -ffp-contract=off), in increasing k. Vector code may compute many j
 * at once, never reorder one element's sum. C must not overlap A or B.
 */
#ifndef PE_EXPERIMENT_MATMUL_H
#define PE_EXPERIMENT_MATMUL_H

enum { EX_NOTRANS = 0, EX_TRANS = 1 };

void ex_matmul_f32(int trans_a, int trans_b, int M, int N, int K, float alpha, const float *A,
                   int lda, const float *B, int ldb, float beta, float *C, int ldc);
void ex_matmul_f64(int trans_a, int trans_b, int M, int N, int K, double alpha, const double *A,
                   int lda, const double *B, int ldb, double beta, double *C, int ldc);

/* The code path ex_matmul_* takes on this CPU: "avx512", "avx2", "sse2" or
 * "portable" (the same bits whichever; for the report's header). */
const char *ex_matmul_path(void);

/* For the tests, which hold every path to the same bits: the float product
 * through the named path, or NULL if this build or CPU lacks it. */
typedef void (*ex_matmul_f32_fn)(int trans_a, int trans_b, int M, int N, int K, float alpha,
                                 const float *A, int lda, const float *B, int ldb, float beta,
                                 float *C, int ldc);
ex_matmul_f32_fn ex_matmul_f32_path(const char *path);

#endif
