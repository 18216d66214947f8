/*
 * matmul.c — the fixed-order matrix product of matmul.h, for float and
 * double from one body.
 *
 * Loop order: column block (EX_MM_JB columns of C) -> depth block (EX_MM_KB
 * values of k) -> row i -> k -> j. The innermost loop runs along a row of C
 * and a row of op(B), contiguous in memory, with one scalar alpha * op(A)[i][k]:
 * the compiler vectorizes it (one element per lane), and each element's sum
 * still takes its k in increasing order, so the vector width cannot change a
 * bit. When op(B) is B transposed, each (depth x column) block of it is first
 * copied into a small row-major panel so that the inner loop stays
 * contiguous. A panel (EX_MM_KB x EX_MM_JB values, 16 KiB in float) stays in
 * the L1 cache while every row of A streams past it.
 *
 * On x86-64 the same body is compiled three times, for the baseline (SSE2),
 * AVX2 and AVX-512F, and the widest the CPU and OS support runs: wider
 * vectors, the same bits (-ffp-contract=off holds for every copy, so none of
 * them fuses a multiply and an add). docs/EXPERIMENT.md has the timings.
 */
#include "matmul.h"

#include <stddef.h>
#include <string.h>

#define EX_MM_JB 128
#define EX_MM_KB 32
/* Register tile: EX_MM_MR (= 4, written out below) rows x EX_MM_NR columns. */
#define EX_MM_MR 4
#define EX_MM_NR 16

/* Rows i0 .. i1-1 of C, columns j0 + jstart .. j0 + jn - 1, over the depth
 * block: the edges the register tiles leave, in the same order of k. */
#define EX_MM_ROWS(R, i0, i1, jstart)                                                          \
    {                                                                                          \
        for (int ii = (i0); ii < (i1); ii++) {                                                 \
            R *restrict c = C + (size_t)ii * ldc + j0;                                         \
            for (int kk = 0; kk < kn; kk++) {                                                  \
                const int k = k0 + kk;                                                         \
                const R a =                                                                    \
                    alpha * (trans_a ? A[(size_t)k * lda + ii] : A[(size_t)ii * lda + k]);     \
                const R *restrict b = bp + kk * ldp;                                           \
                for (int jj = (jstart); jj < jn; jj++) c[jj] = c[jj] + a * b[jj];              \
            }                                                                                  \
        }                                                                                      \
    }

#define EX_MM_BODY(R)                                                                          \
    for (int i = 0; i < M; i++) {                                                              \
        R *c = C + (size_t)i * ldc;                                                            \
        if (beta == 0)                                                                         \
            for (int j = 0; j < N; j++) c[j] = 0;                                              \
        else if (beta != 1)                                                                    \
            for (int j = 0; j < N; j++) c[j] = beta * c[j];                                    \
    }                                                                                          \
    R panel[EX_MM_KB * EX_MM_JB];                                                              \
    for (int j0 = 0; j0 < N; j0 += EX_MM_JB) {                                                 \
        const int jn = N - j0 < EX_MM_JB ? N - j0 : EX_MM_JB;                                  \
        for (int k0 = 0; k0 < K; k0 += EX_MM_KB) {                                             \
            const int kn = K - k0 < EX_MM_KB ? K - k0 : EX_MM_KB;                              \
            const R *bp;                                                                       \
            size_t ldp;                                                                        \
            if (trans_b) {                                                                     \
                for (int jj = 0; jj < jn; jj++) {                                              \
                    const R *src = B + (size_t)(j0 + jj) * ldb + k0;                           \
                    for (int kk = 0; kk < kn; kk++) panel[kk * EX_MM_JB + jj] = src[kk];       \
                }                                                                              \
                bp = panel;                                                                    \
                ldp = EX_MM_JB;                                                                \
            } else {                                                                           \
                bp = B + (size_t)k0 * ldb + j0;                                                \
                ldp = (size_t)ldb;                                                             \
            }                                                                                  \
            int i = 0;                                                                         \
            for (; i + EX_MM_MR <= M; i += EX_MM_MR) {                                         \
                int jb = 0;                                                                    \
                for (; jb + EX_MM_NR <= jn; jb += EX_MM_NR) {                                  \
                    /* A tile of C in registers for the whole depth block: four    */ \
                    /* named rows, as gcc keeps an array indexed by a loop in memory. */ \
                    R *c0 = C + (size_t)i * ldc + j0 + jb, *c1 = c0 + ldc, *c2 = c1 + ldc,    \
                      *c3 = c2 + ldc;                                                          \
                    R t0[EX_MM_NR], t1[EX_MM_NR], t2[EX_MM_NR], t3[EX_MM_NR];                  \
                    for (int x = 0; x < EX_MM_NR; x++)                                         \
                        t0[x] = c0[x], t1[x] = c1[x], t2[x] = c2[x], t3[x] = c3[x];            \
                    for (int kk = 0; kk < kn; kk++) {                                          \
                        const int k = k0 + kk;                                                 \
                        const R *b = bp + kk * ldp + jb;                                       \
                        const R *ak = trans_a ? A + (size_t)k * lda + i : A + (size_t)i * lda + k; \
                        const size_t as = trans_a ? 1 : (size_t)lda;                           \
                        const R a0 = alpha * ak[0], a1 = alpha * ak[as], a2 = alpha * ak[2 * as], \
                                a3 = alpha * ak[3 * as];                                       \
                        for (int x = 0; x < EX_MM_NR; x++) {                                   \
                            t0[x] = t0[x] + a0 * b[x];                                         \
                            t1[x] = t1[x] + a1 * b[x];                                         \
                            t2[x] = t2[x] + a2 * b[x];                                         \
                            t3[x] = t3[x] + a3 * b[x];                                         \
                        }                                                                      \
                    }                                                                          \
                    for (int x = 0; x < EX_MM_NR; x++)                                         \
                        c0[x] = t0[x], c1[x] = t1[x], c2[x] = t2[x], c3[x] = t3[x];            \
                }                                                                              \
                if (jb < jn) EX_MM_ROWS(R, i, i + EX_MM_MR, jb)                                \
            }                                                                                  \
            if (i < M) EX_MM_ROWS(R, i, M, 0)                                                  \
        }                                                                                      \
    }

#define EX_MM_PARAMS(R)                                                                        \
    (int trans_a, int trans_b, int M, int N, int K, R alpha, const R *A, int lda, const R *B,  \
     int ldb, R beta, R *C, int ldc)
#define EX_MM_ARGS trans_a, trans_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EX_MM_VARIANTS(R, S)                                                                   \
    static void mm_base_##S EX_MM_PARAMS(R) { EX_MM_BODY(R) }                                  \
    __attribute__((target("avx2"))) static void mm_avx2_##S EX_MM_PARAMS(R) { EX_MM_BODY(R) }  \
    __attribute__((target("avx512f"))) static void mm_avx512_##S EX_MM_PARAMS(R) {             \
        EX_MM_BODY(R)                                                                          \
    }                                                                                          \
    void ex_matmul_##S EX_MM_PARAMS(R) {                                                       \
        /* __builtin_cpu_supports checks the OS's saved vector state too. */                   \
        if (__builtin_cpu_supports("avx512f"))                                                 \
            mm_avx512_##S(EX_MM_ARGS);                                                         \
        else if (__builtin_cpu_supports("avx2"))                                               \
            mm_avx2_##S(EX_MM_ARGS);                                                           \
        else                                                                                   \
            mm_base_##S(EX_MM_ARGS);                                                           \
    }
#else
#define EX_MM_VARIANTS(R, S)                                                                   \
    void ex_matmul_##S EX_MM_PARAMS(R) { EX_MM_BODY(R) }
#endif

EX_MM_VARIANTS(float, f32)
EX_MM_VARIANTS(double, f64)

ex_matmul_f32_fn ex_matmul_f32_path(const char *path) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (strcmp(path, "avx512") == 0) return __builtin_cpu_supports("avx512f") ? mm_avx512_f32 : NULL;
    if (strcmp(path, "avx2") == 0) return __builtin_cpu_supports("avx2") ? mm_avx2_f32 : NULL;
    if (strcmp(path, "sse2") == 0) return mm_base_f32;
    return NULL;
#else
    return strcmp(path, "portable") == 0 ? ex_matmul_f32 : NULL;
#endif
}

const char *ex_matmul_path(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx512f") ? "avx512" : __builtin_cpu_supports("avx2") ? "avx2"
                                                                                          : "sse2";
#else
    return "portable";
#endif
}
