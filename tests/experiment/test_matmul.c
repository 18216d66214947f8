/* test_matmul.c — the trainer's fixed-order matrix product (experiment/
 * matmul.c): every code path this CPU has (sse2, avx2, avx512) gives the
 * same bits as a plain loop that adds the products one k at a time, which
 * is what makes a training run independent of the machine; and the result
 * is within a summation bound of a long double reference. */
#include "../runner.h"

#include "../../experiment/matmul.h"

#include <float.h>
#include <stdlib.h>

/* matmul.h's definition of each element, written out as plainly as possible. */
static void plain_order(int ta, int tb, int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float c = beta == 0 ? 0.0f : beta * C[(size_t)i * ldc + j];
            for (int k = 0; k < K; k++) {
                const float a = ta ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k];
                const float b = tb ? B[(size_t)j * ldb + k] : B[(size_t)k * ldb + j];
                const float p = (alpha * a) * b;
                c = c + p;
            }
            C[(size_t)i * ldc + j] = c;
        }
}

static void fill(float *x, size_t n, pe_rng *r) {
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(r, -1, 1);
}

/* The trainer's shapes (linear layers at D 64 / FFN 256, attention at head
 * dim 16, the tied output at V 67) and sizes off every block edge. */
static const int shapes[][3] = {{37, 192, 64}, {64, 256, 37}, {37, 64, 256}, {34, 34, 16},
                                {34, 16, 34},  {5, 67, 64},  {67, 64, 5},   {1, 1, 1},
                                {3, 129, 33},  {131, 17, 65}, {4, 16, 32},  {7, 31, 1}};

TEST(exp_matmul_every_path_is_the_plain_order_bit_for_bit) {
    pe_rng r = {pe_test_seed()};
    const char *paths[] = {"sse2", "avx2", "avx512", "portable"};
    int tried = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 4; t++) {
            const int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
            const int ta = t & 1, tb = t >> 1;
            /* Row strides larger than the rows, as the attention's are. */
            const int lda = (ta ? M : K) + 3, ldb = (tb ? K : N) + 5, ldc = N + 2;
            const size_t na = (size_t)(ta ? K : M) * lda, nb = (size_t)(tb ? N : K) * ldb,
                         nc = (size_t)M * ldc;
            float *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B),
                  *C0 = malloc(nc * sizeof *C0), *want = malloc(nc * sizeof *want),
                  *got = malloc(nc * sizeof *got);
            CHECK(A && B && C0 && want && got);
            if (!(A && B && C0 && want && got)) return;
            fill(A, na, &r);
            fill(B, nb, &r);
            fill(C0, nc, &r);
            const float alphas[] = {1.0f, 0.25f, -0.7f}, betas[] = {0.0f, 1.0f, 0.5f};
            for (int ab = 0; ab < 3; ab++) {
                memcpy(want, C0, nc * sizeof *want);
                plain_order(ta, tb, M, N, K, alphas[ab], A, lda, B, ldb, betas[ab], want, ldc);
                for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
                    ex_matmul_f32_fn f = ex_matmul_f32_path(paths[p]);
                    if (f == NULL) continue;
                    tried++;
                    memcpy(got, C0, nc * sizeof *got);
                    f(ta, tb, M, N, K, alphas[ab], A, lda, B, ldb, betas[ab], got, ldc);
                    /* Bit for bit, padding columns included (left untouched). */
                    if (memcmp(got, want, nc * sizeof *got) != 0)
                        CHECK_MSG(0, "%s path, %dx%dx%d ta %d tb %d alpha %g beta %g differs",
                                  paths[p], M, N, K, ta, tb, alphas[ab], betas[ab]);
                }
                /* And the public entry point, whichever path it takes. */
                memcpy(got, C0, nc * sizeof *got);
                ex_matmul_f32(ta, tb, M, N, K, alphas[ab], A, lda, B, ldb, betas[ab], got, ldc);
                CHECK(memcmp(got, want, nc * sizeof *got) == 0);
            }
            free(A), free(B), free(C0), free(want), free(got);
        }
    CHECK(tried > 0);
}

TEST(exp_matmul_is_within_the_summation_bound) {
    /* Against long double: |error| <= (K + 2) u sum_k |alpha a b| + u |beta C|
     * (K + 1 rounded additions and two rounded products per term, u = 2^-24;
     * Higham's gamma_n bound to first order). beta = 0 must not read C: it
     * holds NaN here. */
    pe_rng r = {pe_test_seed()};
    const int M = 13, N = 70, K = 100;
    float A[13 * 100], B[100 * 70], C[13 * 70];
    fill(A, sizeof A / sizeof A[0], &r);
    fill(B, sizeof B / sizeof B[0], &r);
    for (int beta_one = 0; beta_one < 2; beta_one++) {
        for (int i = 0; i < M * N; i++) C[i] = beta_one ? (float)pe_rng_uniform(&r, -1, 1) : NAN;
        float before[13 * 70];
        memcpy(before, C, sizeof C);
        ex_matmul_f32(EX_NOTRANS, EX_NOTRANS, M, N, K, 0.5f, A, K, B, N, beta_one ? 1.0f : 0.0f,
                      C, N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                long double s = beta_one ? before[i * N + j] : 0, mag = 0;
                for (int k = 0; k < K; k++) {
                    const long double t = 0.5L * A[i * K + k] * B[k * N + j];
                    s += t;
                    mag += fabsl(t);
                }
                const double u = FLT_EPSILON / 2;
                const double bound = (K + 2) * u * (double)mag +
                                     u * (beta_one ? fabs((double)before[i * N + j]) : 0);
                CHECK_NEAR((double)C[i * N + j], (double)s, bound);
            }
    }
}
