/* test_learned.c — learned table: seeded init statistics, gather, scatter-add
 * accumulation, SGD, .npy round trip, and the "cannot extrapolate" error. */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void temp_path(char *buf, size_t n, const char *tag) {
    snprintf(buf, n, "/tmp/posenc_test_%s_%ld.npy", tag, (long)getpid());
}

TEST(learned_init_is_seeded_normal) {
    pe_learned *a = NULL, *b = NULL, *c = NULL;
    CHECK_OK(pe_learned_create(512, 64, 7, &a));
    CHECK_OK(pe_learned_create(512, 64, 7, &b));
    CHECK_OK(pe_learned_create(512, 64, 8, &c));
    const float *wa = pe_learned_weights_const(a), *wb = pe_learned_weights_const(b),
                *wc = pe_learned_weights_const(c);
    size_t n = 512 * 64;
    CHECK(memcmp(wa, wb, n * sizeof(float)) == 0); /* same seed, same table */
    CHECK(memcmp(wa, wc, n * sizeof(float)) != 0);
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        sum += wa[i];
        sq += (double)wa[i] * wa[i];
    }
    double mean = sum / n, sd = sqrt(sq / n - mean * mean);
    /* n = 32768 samples of N(0, 0.02): the mean's standard error is
     * 0.02/sqrt(n) = 1.1e-4 (5 sigma = 5.5e-4); the sd's is 0.02/sqrt(2n)
     * = 7.8e-5 (5 sigma = 4e-4). */
    CHECK_NEAR(mean, 0.0, 5.5e-4);
    CHECK_NEAR(sd, 0.02, 4e-4);
    /* fraction beyond 2 sigma ~ 4.55% (binomial sd 0.115%: 5 sigma 0.6%) */
    size_t out2 = 0;
    for (size_t i = 0; i < n; i++) out2 += fabs(wa[i]) > 0.04;
    CHECK_NEAR((double)out2 / n, 0.0455, 0.006);
    /* the first values are pinned so the generator cannot change silently */
    char want[64];
    snprintf(want, sizeof want, "%.9g %.9g", wa[0], wa[1]);
    pe_learned *d = NULL;
    CHECK_OK(pe_learned_create(1, 2, 7, &d));
    char got[64];
    snprintf(got, sizeof got, "%.9g %.9g", pe_learned_weights_const(d)[0],
             pe_learned_weights_const(d)[1]);
    CHECK_MSG(strcmp(want, got) == 0, "%s vs %s", want, got);
    pe_learned_free(a);
    pe_learned_free(b);
    pe_learned_free(c);
    pe_learned_free(d);
    pe_learned_free(NULL);
}

TEST(learned_forward_backward_sgd) {
    pe_learned *t = NULL;
    CHECK_OK(pe_learned_create(6, 3, 1, &t));
    const float *w = pe_learned_weights_const(t);
    int64_t pos[4] = {2, 5, 2, 0};
    float out[12];
    CHECK_OK(pe_learned_forward(t, pos, 4, out));
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 3; j++) CHECK(out[r * 3 + j] == w[pos[r] * 3 + j]);
    float g[12], grad[18] = {0};
    for (int i = 0; i < 12; i++) g[i] = (float)(i + 1);
    CHECK_OK(pe_learned_backward(t, pos, 4, g, grad));
    /* position 2 appears twice: rows 0 and 2 of g accumulate */
    for (int j = 0; j < 3; j++) {
        CHECK(grad[2 * 3 + j] == g[0 * 3 + j] + g[2 * 3 + j]);
        CHECK(grad[5 * 3 + j] == g[1 * 3 + j]);
        CHECK(grad[0 * 3 + j] == g[3 * 3 + j]);
        CHECK(grad[1 * 3 + j] == 0.0f);
    }
    float before[18];
    memcpy(before, w, sizeof before);
    CHECK_OK(pe_learned_sgd_step(t, grad, 0.5f));
    for (int i = 0; i < 18; i++) CHECK(w[i] == before[i] - 0.5f * grad[i]);
    pe_learned_free(t);
}

TEST(learned_cannot_extrapolate) {
    pe_learned *t = NULL;
    CHECK_OK(pe_learned_create(16, 4, 3, &t));
    float out[8];
    memset(out, 0x33, sizeof out);
    unsigned char b[sizeof out];
    memcpy(b, out, sizeof out);
    int64_t pos[2] = {3, 16};
    CHECK_ERROR(pe_learned_forward(t, pos, 2, out), PE_ERR_RANGE, "cannot extrapolate");
    int64_t neg[1] = {-1};
    CHECK_ERROR(pe_learned_forward(t, neg, 1, out), PE_ERR_RANGE, "position -1");
    float grad[64];
    CHECK_ERROR(pe_learned_backward(t, pos, 2, out, grad), PE_ERR_RANGE, "position 16");
    CHECK(memcmp(out, b, sizeof out) == 0);
    CHECK_ERROR(pe_learned_sgd_step(t, grad, NAN), PE_ERR_PARAM, "lr=nan");
    pe_learned *u = NULL;
    CHECK_ERROR(pe_learned_create(0, 4, 1, &u), PE_ERR_DIM, "max_len=0");
    CHECK_ERROR(pe_learned_create(4, -1, 1, &u), PE_ERR_DIM, "dim=-1");
    CHECK_ERROR(pe_learned_create(INT64_MAX, INT64_MAX, 1, &u), PE_ERR_OVERFLOW, "overflows");
    CHECK(u == NULL);
    pe_learned_free(t);
}

TEST(learned_save_load_round_trip) {
    char path[128];
    temp_path(path, sizeof path, "learned");
    pe_learned *t = NULL, *u = NULL;
    CHECK_OK(pe_learned_create(10, 5, 42, &t));
    CHECK_OK(pe_learned_save(t, path));
    CHECK_OK(pe_learned_load(path, &u));
    CHECK(u != NULL && pe_learned_max_len(u) == 10 && pe_learned_dim(u) == 5);
    if (u) CHECK(memcmp(pe_learned_weights_const(t), pe_learned_weights_const(u), 50 * sizeof(float)) == 0);
    /* a 1-D file, a float64 file and a missing file are named errors */
    int64_t shape1[1] = {4};
    float v[4] = {1, 2, 3, 4};
    CHECK_OK(pe_npy_write(path, PE_F32, 1, shape1, v));
    pe_learned *w = NULL;
    CHECK_ERROR(pe_learned_load(path, &w), PE_ERR_SHAPE, "2-D");
    double dv[4] = {1, 2, 3, 4};
    int64_t shape2[2] = {2, 2};
    CHECK_OK(pe_npy_write(path, PE_F64, 2, shape2, dv));
    CHECK_ERROR(pe_learned_load(path, &w), PE_ERR_DTYPE, "float32");
    remove(path);
    CHECK_ERROR(pe_learned_load(path, &w), PE_ERR_IO, "cannot open");
    CHECK(w == NULL);
    pe_learned_free(t);
    pe_learned_free(u);
}
