/* test_layers.c — each layer of the trainer against central finite
 * differences in double precision (linear, LayerNorm, GELU, attention with
 * bias and causal mask, softmax cross-entropy), the attention forward
 * against the library's reference pe_attention, the float GELU against the
 * double one, and the task data.
 *
 * Finite differences: with step h = 1e-6 on O(1) inputs, the central
 * difference's truncation error is ~h^2 |f'''| ~ 1e-12 and its rounding
 * error ~1e-16 |f| / h ~ 1e-10, so an analytic gradient that is right
 * agrees to ~1e-9; the tolerance 1e-7 (absolute, plus 1e-7 relative) leaves
 * two orders of margin while any wrong term (O(|g|) ~ 0.1..10) fails. */
#include "../runner.h"

#include "../../experiment/data.h"
#include "../../experiment/layers.h"
#include "../../experiment/model.h"

#include <stdlib.h>
#include <string.h>

#define FD_H 1e-6
#define FD_TOL(g) (1e-7 + 1e-7 * fabs(g))

static void fill(double *x, size_t n, pe_rng *r, double s) {
    for (size_t i = 0; i < n; i++) x[i] = pe_rng_uniform(r, -s, s);
}

static double dotn(const double *a, const double *b, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* Check d(f)/d(x[i]) == grad[i] for every i, f a closure over x. */
typedef double (*scalar_fn)(void *ctx);
static int check_grad(const char *what, double *x, const double *grad, size_t n, scalar_fn f,
                      void *ctx) {
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double x0 = x[i];
        x[i] = x0 + FD_H;
        const double fp = f(ctx);
        x[i] = x0 - FD_H;
        const double fm = f(ctx);
        x[i] = x0;
        const double fd = (fp - fm) / (2 * FD_H);
        if (!(fabs(fd - grad[i]) <= FD_TOL(grad[i]))) {
            if (bad++ < 3)
                pe_test_fail(__FILE__, __LINE__, "%s[%zu]: analytic %.12g, finite difference %.12g",
                             what, i, grad[i], fd);
        }
    }
    return bad;
}

/* ------------------------------------------------------------- linear */

typedef struct {
    int n, in, out;
    double *x, *W, *b, *y, *r;
} lin_ctx;

static double lin_f(void *p) {
    lin_ctx *c = p;
    ex_linear_fwd_f64(c->x, c->n, c->in, c->W, c->b, c->out, 0, c->y);
    return dotn(c->y, c->r, (size_t)c->n * c->out);
}

TEST(exp_linear_backward_matches_finite_differences) {
    pe_rng rng = {pe_test_seed()};
    lin_ctx c = {5, 4, 3, NULL, NULL, NULL, NULL, NULL};
    double x[20], W[12], b[3], y[15], r[15], dx[20], dW[12] = {0}, db[3] = {0};
    c.x = x, c.W = W, c.b = b, c.y = y, c.r = r;
    fill(x, 20, &rng, 1), fill(W, 12, &rng, 1), fill(b, 3, &rng, 1), fill(r, 15, &rng, 1);
    ex_linear_bwd_f64(x, 5, 4, W, 3, r, dx, 0, dW, db);
    check_grad("dx", x, dx, 20, lin_f, &c);
    check_grad("dW", W, dW, 12, lin_f, &c);
    check_grad("db", b, db, 3, lin_f, &c);
    /* accumulate = 1 adds to what is there. */
    double dx2[20];
    for (int i = 0; i < 20; i++) dx2[i] = 1.0;
    ex_linear_bwd_f64(x, 5, 4, W, 3, r, dx2, 1, dW, db);
    for (int i = 0; i < 20; i++) CHECK_NEAR(dx2[i], dx[i] + 1.0, 1e-15);
}

/* ---------------------------------------------------------- LayerNorm */

typedef struct {
    int n, d;
    double *x, *g, *b, *y, *mean, *rstd, *r;
} ln_ctx;

static double ln_f(void *p) {
    ln_ctx *c = p;
    ex_layernorm_fwd_f64(c->x, c->n, c->d, c->g, c->b, c->y, c->mean, c->rstd);
    return dotn(c->y, c->r, (size_t)c->n * c->d);
}

TEST(exp_layernorm_backward_matches_finite_differences) {
    pe_rng rng = {pe_test_seed()};
    enum { N = 3, D = 8 };
    double x[N * D], g[D], b[D], y[N * D], mean[N], rstd[N], r[N * D];
    double dx[N * D] = {0}, dg[D] = {0}, db[D] = {0};
    ln_ctx c = {N, D, x, g, b, y, mean, rstd, r};
    fill(x, N * D, &rng, 2), fill(g, D, &rng, 1.5), fill(b, D, &rng, 1), fill(r, N * D, &rng, 1);
    ln_f(&c);
    ex_layernorm_bwd_f64(x, N, D, g, mean, rstd, r, dx, dg, db);
    check_grad("dx", x, dx, N * D, ln_f, &c);
    check_grad("dg", g, dg, D, ln_f, &c);
    check_grad("db", b, db, D, ln_f, &c);
    /* The forward really normalizes: with g = 1, b = 0 each row has mean 0
     * and variance v / (v + 1e-5). */
    for (int i = 0; i < D; i++) g[i] = 1, b[i] = 0;
    ln_f(&c);
    for (int row = 0; row < N; row++) {
        double m = 0, v = 0;
        for (int i = 0; i < D; i++) m += y[row * D + i] / D;
        for (int i = 0; i < D; i++) v += (y[row * D + i] - m) * (y[row * D + i] - m) / D;
        CHECK_NEAR(m, 0.0, 1e-15);
        CHECK_NEAR(v, 1.0, 1e-3); /* eps 1e-5 against a variance ~1 */
    }
}

/* --------------------------------------------------------------- GELU */

typedef struct {
    double *u, *y, *dg, *r;
    size_t n;
} gelu_ctx;

static double gelu_f(void *p) {
    gelu_ctx *c = p;
    ex_gelu_fwd_f64(c->u, c->y, c->dg, c->n);
    return dotn(c->y, c->r, c->n);
}

TEST(exp_gelu_backward_matches_finite_differences) {
    pe_rng rng = {pe_test_seed()};
    enum { N = 40 };
    double u[N], y[N], dg[N], r[N], du[N];
    gelu_ctx c = {u, y, dg, r, N};
    fill(u, N, &rng, 6), fill(r, N, &rng, 1);
    u[0] = 0, u[1] = -12, u[2] = 12; /* the middle and both tails */
    gelu_f(&c);
    ex_gelu_bwd_f64(dg, r, du, N);
    check_grad("du", u, du, N, gelu_f, &c);
    CHECK(y[0] == 0.0);
    CHECK_NEAR(y[2], 12.0, 1e-15);
    CHECK_NEAR(y[1], 0.0, 1e-15);
}

TEST(exp_gelu_float_matches_double) {
    /* The float GELU takes tanh from a rational approximation; against the
     * double GELU (libm tanh) the difference must stay at float rounding:
     * a few ulp of tanh (~2e-7) times |u|/2, plus float rounding of y. */
    enum { N = 4001 };
    float *uf = malloc(sizeof(float) * N), *yf = malloc(sizeof(float) * N),
          *gf = malloc(sizeof(float) * N);
    double *ud = malloc(sizeof(double) * N), *yd = malloc(sizeof(double) * N),
           *gd = malloc(sizeof(double) * N);
    for (int i = 0; i < N; i++) uf[i] = (float)(-10.0 + 20.0 * i / (N - 1)), ud[i] = uf[i];
    ex_gelu_fwd_f32(uf, yf, gf, N);
    ex_gelu_fwd_f64(ud, yd, gd, N);
    /* Evaluation skips the slope; the values must not change. */
    float *y2 = malloc(sizeof(float) * N);
    ex_gelu_fwd_f32(uf, y2, NULL, N);
    CHECK(memcmp(y2, yf, sizeof(float) * N) == 0);
    free(y2);
    /* GELU' holds 1 - tanh^2, which is off by the float tanh's error
     * (a few ulp of 1, ~3.6e-7) where tanh is near +-1; the factor
     * 0.5 u c (1 + 3k u^2) in front of it magnifies that by up to
     * 0.4|u| + 0.054|u|^3. Scaled by that, 8e-7 allows ~6 ulp. */
    double worst = 0, worst_g = 0;
    for (int i = 0; i < N; i++) {
        const double u = fabs(ud[i]);
        worst = fmax(worst, fabs(yf[i] - yd[i]) / fmax(1.0, u));
        worst_g = fmax(worst_g, fabs(gf[i] - gd[i]) / (1 + 0.4 * u + 0.054 * u * u * u));
    }
    CHECK_MSG(worst <= 5e-7, "GELU float vs double: %.3g relative", worst);
    CHECK_MSG(worst_g <= 8e-7, "GELU' float vs double: %.3g (scaled)", worst_g);
    free(uf), free(yf), free(gf), free(ud), free(yd), free(gd);
}

/* ---------------------------------------------------------- attention */

enum { AT = 6, AH = 2, ADh = 4, AD = AH * ADh };

typedef struct {
    double *qkv, *bias, *P, *out, *r;
    double scale;
} att_ctx;

static double att_f(void *p) {
    att_ctx *c = p;
    ex_attention_fwd_f64(c->qkv, AT, AH, ADh, c->bias, c->scale, c->P, c->out, AD);
    return dotn(c->out, c->r, AT * AD);
}

TEST(exp_attention_backward_matches_finite_differences) {
    pe_rng rng = {pe_test_seed()};
    double qkv[AT * 3 * AD], bias[AH * AT * AT], P[AH * AT * AT], out[AT * AD], r[AT * AD];
    double dqkv[AT * 3 * AD], dbias[AH * AT * AT] = {0}, dS[AT * AT];
    att_ctx c = {qkv, bias, P, out, r, 0.5};
    fill(qkv, AT * 3 * AD, &rng, 1.5), fill(bias, AH * AT * AT, &rng, 1), fill(r, AT * AD, &rng, 1);
    att_f(&c);
    ex_attention_bwd_f64(qkv, AT, AH, ADh, P, c.scale, r, AD, dqkv, dbias, dS);
    check_grad("dqkv", qkv, dqkv, AT * 3 * AD, att_f, &c);
    /* The bias above the diagonal is masked: its gradient is 0 and so is
     * the finite difference, which the check covers too. */
    check_grad("dbias", bias, dbias, AH * AT * AT, att_f, &c);
    for (int h = 0; h < AH; h++)
        for (int i = 0; i < AT; i++)
            for (int j = i + 1; j < AT; j++) CHECK(dbias[(h * AT + i) * AT + j] == 0.0);
    /* Causal: the first query sees only itself, so its output is v_0. */
    for (int h = 0; h < AH; h++)
        for (int e = 0; e < ADh; e++)
            CHECK_NEAR(out[h * ADh + e], qkv[2 * AD + h * ADh + e], 1e-15);
}

TEST(exp_attention_matches_library_reference) {
    /* The trainer's float attention against pe_attention (double
     * accumulation) head by head, with a bias and the causal mask: float
     * rounding of logits ~1e-7 and of the weighted sum bounds the gap. */
    pe_rng rng = {pe_test_seed()};
    float qkv[AT * 3 * AD], bias[AH * AT * AT], P[AH * AT * AT], out[AT * AD];
    for (int i = 0; i < AT * 3 * AD; i++) qkv[i] = (float)pe_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < AH * AT * AT; i++) bias[i] = (float)pe_rng_uniform(&rng, -2, 2);
    ex_attention_fwd_f32(qkv, AT, AH, ADh, bias, 0.5f, P, out, AD);
    for (int h = 0; h < AH; h++) {
        float q[AT * ADh], k[AT * ADh], v[AT * ADh], ref[AT * ADh];
        for (int t = 0; t < AT; t++)
            for (int e = 0; e < ADh; e++) {
                q[t * ADh + e] = qkv[t * 3 * AD + h * ADh + e];
                k[t * ADh + e] = qkv[t * 3 * AD + AD + h * ADh + e];
                v[t * ADh + e] = qkv[t * 3 * AD + 2 * AD + h * ADh + e];
            }
        pe_attention_params p = pe_attention_params_default(AT, AT, ADh, ADh);
        p.scale = 0.5;
        p.causal = 1;
        p.bias = bias + h * AT * AT;
        CHECK_OK(pe_attention(&p, q, k, v, ref));
        for (int i = 0; i < AT * ADh; i++)
            CHECK_NEAR(out[(i / ADh) * AD + h * ADh + i % ADh], ref[i], 1e-6);
    }
}

/* ----------------------------------------------------- cross-entropy */

typedef struct {
    double *z;
    const int *tgt;
} ce_ctx;

static double ce_f(void *p) {
    ce_ctx *c = p;
    double s = 0;
    ex_softmax_ce_f64(c->z, 3, 5, c->tgt, 0, NULL, &s, NULL);
    return 0.25 * s;
}

TEST(exp_softmax_cross_entropy_matches_finite_differences) {
    pe_rng rng = {pe_test_seed()};
    double z[15], dz[15];
    const int tgt[3] = {0, 4, 2};
    fill(z, 15, &rng, 3);
    ce_ctx c = {z, tgt};
    double s = 0;
    unsigned char ok[3];
    ex_softmax_ce_f64(z, 3, 5, tgt, 0.25, dz, &s, ok);
    check_grad("dlogits", z, dz, 15, ce_f, &c);
    /* Loss of uniform logits is ln V; arg max decides correct[]. */
    double u[5] = {1, 1, 1, 1, 1}, s2 = 0;
    ex_softmax_ce_f64(u, 1, 5, tgt, 0, NULL, &s2, NULL);
    CHECK_NEAR(s2, log(5.0), 1e-15);
    double w[10] = {0, 3, 1, 0, 0, 2, 2, 0, 0, 0};
    const int tw[2] = {1, 0};
    ex_softmax_ce_f64(w, 2, 5, tw, 0, NULL, &s2, ok);
    CHECK(ok[0] == 1);
    CHECK(ok[1] == 0); /* a tie for the maximum is not a right answer */
}

/* ---------------------------------------------------------------- data */

TEST(exp_batch_layout_copy_and_reverse) {
    ex_rng r;
    ex_rng_seed(&r, 7, 1);
    const int lengths[2] = {3, 1};
    for (int task = 0; task < 2; task++) {
        ex_batch b = {0};
        ex_rng_seed(&r, 7, 1);
        CHECK_OK(ex_batch_make(&b, (ex_task)task, lengths, 2, &r));
        CHECK(b.n_ex == 2 && b.n_tok == 7 + 3 && b.n_ans == 4 && b.max_tokens == 7);
        /* BOS x1 x2 x3 SEP y1 y2 | BOS x1 SEP */
        CHECK(b.tok[0] == EX_BOS && b.tok[4] == EX_SEP && b.tok[7] == EX_BOS && b.tok[9] == EX_SEP);
        const int *x = b.tok + 1;
        const int want[3] = {task ? x[2] : x[0], task ? x[1] : x[1], task ? x[0] : x[2]};
        CHECK(b.tok[5] == want[0] && b.tok[6] == want[1]);
        for (int j = 0; j < 3; j++) {
            CHECK(b.ans_row[j] == 4 + j); /* SEP predicts y1, y_j predicts y_(j+1) */
            CHECK(b.ans_tgt[j] == want[j]);
        }
        CHECK(b.ans_row[3] == 9 && b.ans_tgt[3] == b.tok[8]);
        for (int t = 0; t < 7; t++) CHECK(b.pos[t] == t);
        CHECK(b.pos[7] == 0 && b.pos[9] == 2);
        for (int t = 0; t < b.n_tok; t++) CHECK(b.tok[t] >= 0 && b.tok[t] < EX_VOCAB);
        ex_batch_free(&b);
    }
}

/* Sort: the answer is x in ascending order, ties kept, checked against a
 * plain insertion sort of the example's own symbols. */
TEST(exp_batch_layout_sort) {
    ex_rng r;
    ex_rng_seed(&r, 7, 1);
    const int lengths[3] = {9, 1, 40};
    ex_batch b = {0};
    CHECK_OK(ex_batch_make(&b, EX_TASK_SORT, lengths, 3, &r));
    CHECK(b.n_ex == 3 && b.n_ans == 50);
    int ties = 0;
    for (int e = 0; e < 3; e++) {
        const int n = lengths[e], *x = b.tok + b.off[e] + 1;
        int want[40];
        for (int i = 0; i < n; i++) {
            int j = i;
            for (; j > 0 && want[j - 1] > x[i]; j--) want[j] = want[j - 1];
            want[j] = x[i];
        }
        CHECK(b.tok[b.off[e]] == EX_BOS && b.tok[b.off[e] + n + 1] == EX_SEP);
        for (int j = 0; j < n; j++) {
            CHECK(b.ans_tgt[b.ans_off[e] + j] == want[j]);
            if (j + 1 < n) CHECK(b.tok[b.off[e] + n + 2 + j] == want[j]); /* teacher forcing: the true prefix */
            ties += j > 0 && want[j] == want[j - 1];
        }
    }
    CHECK(ties > 0); /* 40 draws of 64 symbols repeat one (p > 0.99): ties are exercised */
    CHECK(strcmp(ex_task_name(EX_TASK_SORT), "sort") == 0);
    ex_batch_free(&b);
}

TEST(exp_eval_sets_are_fixed_by_their_seed) {
    ex_eval_set a, b, c, id;
    CHECK_OK(ex_eval_set_make(&a, 12, 16, 50, 99));
    CHECK_OK(ex_eval_set_make(&b, 12, 16, 50, 99));
    CHECK_OK(ex_eval_set_make(&c, 12, 16, 50, 98));
    CHECK_OK(ex_eval_set_make(&id, 0, 16, 200, 99));
    CHECK(memcmp(a.symbols, b.symbols, sizeof(int) * 600) == 0);
    CHECK(memcmp(a.symbols, c.symbols, sizeof(int) * 600) != 0);
    int lo = 99, hi = 0;
    for (int e = 0; e < 200; e++) lo = id.lengths[e] < lo ? id.lengths[e] : lo, hi = id.lengths[e] > hi ? id.lengths[e] : hi;
    CHECK(lo == 1 && hi == 16); /* in distribution: 1..train_max */
    ex_eval_set_free(&a), ex_eval_set_free(&b), ex_eval_set_free(&c), ex_eval_set_free(&id);
}
