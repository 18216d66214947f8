/* test_grad.c — the whole model's backward against central finite
 * differences in double precision, for every trained scheme: this checks
 * the embedding, each additive encoding, the learned table (clamped rows
 * included), RoPE, ALiBi and the T5 table in place, through attention,
 * LayerNorm, GELU, the linear layers and the loss. Then the float32 model
 * that trains is held equal to the checked double one.
 *
 * The double model is the trainer's own source compiled for double
 * (net_f64.c). Two parameters live in float even there, because the library
 * stores them so: the learned table (pe_learned) and the T5 table (given to
 * pe_t5_bias as float). For those the test moves the parameter between
 * float-representable values and divides by the exact step, so the
 * difference quotient is still a double-precision derivative. */
#include "../runner.h"

#include "../../experiment/net.h"

#include <stdlib.h>

/* A tiny model: D 8, 2 heads of 4, FFN 16, 2 layers, trained length 3
 * (learned table of 7 rows), and a batch whose last example (n = 4, 9
 * tokens) runs past the table. */
static ex_batch tiny_batch(void) {
    ex_batch b = {0};
    ex_rng r;
    ex_rng_seed(&r, 5, 3);
    const int lengths[4] = {1, 3, 2, 4};
    if (ex_batch_make(&b, EX_TASK_COPY, lengths, 4, &r)) abort();
    return b;
}

static double loss_f64(ex_net_f64 *net, const ex_batch *b) {
    double loss = NAN;
    int st = ex_forward_f64(net, b, NULL, 1, &loss, NULL);
    if (st) pe_test_fail(__FILE__, __LINE__, "forward failed: %d", st);
    return loss;
}

/* Step h on O(1) parameters of a smooth loss ~4: truncation ~h^2 ~1e-10,
 * rounding ~1e-16 * 4 / h ~ 4e-11. A right gradient agrees to ~1e-9. The
 * float-stored tables get their gradient through float (the library's
 * pe_learned_backward, or float inputs): ~1e-7 relative. */
#define H 1e-5
#define TOL(g) (2e-8 + 1e-6 * fabs(g))
#define TOL_F32(g) (2e-8 + 2e-6 * fabs(g))

/* Central difference of parameter p (double) against g: 1 if they agree.
 * Reports nothing itself, so that a test can also show a wrong g fails. */
static int param_agrees(ex_net_f64 *net, const ex_batch *b, double *p, double g,
                        int snap_to_float, double *fd_out) {
    const double p0 = *p;
    double hi = p0 + H, lo = p0 - H;
    if (snap_to_float) hi = (float)hi, lo = (float)lo;
    *p = hi;
    const double fp = loss_f64(net, b);
    *p = lo;
    const double fm = loss_f64(net, b);
    *p = p0;
    *fd_out = (fp - fm) / (hi - lo);
    return fabs(*fd_out - g) <= (snap_to_float ? TOL_F32(g) : TOL(g));
}

static void check_param(ex_net_f64 *net, const ex_batch *b, double *p, double g, const char *what,
                        size_t idx, int snap_to_float) {
    double fd;
    CHECK_MSG(param_agrees(net, b, p, g, snap_to_float, &fd),
              "%s %s[%zu]: backward %.12g, finite difference %.12g",
              ex_scheme_name(net->arch.scheme), what, idx, g, fd);
}

/* Up to k entries of a tensor: first, last and random ones between. */
static void check_tensor(ex_net_f64 *net, const ex_batch *b, size_t off, size_t len,
                         const char *what, pe_rng *rng, int k, int is_float) {
    for (int i = 0; i < k && (size_t)i < len; i++) {
        const size_t j = i == 0 ? 0 : i == 1 ? len - 1 : (size_t)pe_rng_int(rng, 0, (int64_t)len - 1);
        check_param(net, b, net->w + off + j, net->g[off + j], what, j, is_float);
    }
}

static void check_scheme(ex_scheme s, pe_rng *rng) {
    ex_arch a;
    CHECK_OK(ex_arch_init(&a, s, 8, 2, 16, 2, 3));
    ex_net_f64 *net = NULL;
    CHECK_OK(ex_net_create_f64(&a, 11, &net));
    if (net == NULL) return;
    /* Move away from the special initial point (zero biases, unit gains,
     * near-uniform attention) so that every path carries gradient. */
    for (size_t i = 0; i < a.n_params; i++) net->w[i] += 0.3 * pe_rng_uniform(rng, -1, 1);
    if (s == EX_T5)
        for (int i = 0; i < a.heads * a.t5_buckets; i++)
            net->w[a.t5_table + i] = (float)net->w[a.t5_table + i];
    if (s == EX_LEARNED) {
        float *W = pe_learned_weights(net->learned);
        for (int i = 0; i < a.max_len * a.dim; i++) W[i] += (float)(0.3 * pe_rng_uniform(rng, -1, 1));
    }
    ex_batch b = tiny_batch();
    loss_f64(net, &b);
    CHECK_OK(ex_backward_f64(net, &b));

    /* Embedding rows actually used: BOS, SEP and the first symbol. */
    const size_t D = (size_t)a.dim;
    const int rows[3] = {EX_BOS, EX_SEP, b.tok[1]};
    for (int r = 0; r < 3; r++)
        for (size_t e = 0; e < D; e += 3)
            check_param(net, &b, net->w + a.tok_emb + rows[r] * D + e,
                        net->g[a.tok_emb + rows[r] * D + e], "tok_emb", rows[r] * D + e, 0);
    for (int l = 0; l < a.layers; l++) {
        const ex_layer_offsets *L = &a.layer[l];
        check_tensor(net, &b, L->ln1_g, D, "ln1_g", rng, 3, 0);
        check_tensor(net, &b, L->ln1_b, D, "ln1_b", rng, 3, 0);
        check_tensor(net, &b, L->wqkv, D * 3 * D, "wqkv", rng, 8, 0);
        check_tensor(net, &b, L->bqkv, 3 * D, "bqkv", rng, 5, 0);
        check_tensor(net, &b, L->wo, D * D, "wo", rng, 4, 0);
        check_tensor(net, &b, L->bo, D, "bo", rng, 3, 0);
        check_tensor(net, &b, L->ln2_g, D, "ln2_g", rng, 3, 0);
        check_tensor(net, &b, L->ln2_b, D, "ln2_b", rng, 3, 0);
        check_tensor(net, &b, L->w1, D * a.ffn, "w1", rng, 4, 0);
        check_tensor(net, &b, L->b1, (size_t)a.ffn, "b1", rng, 3, 0);
        check_tensor(net, &b, L->w2, (size_t)a.ffn * D, "w2", rng, 4, 0);
        check_tensor(net, &b, L->b2, D, "b2", rng, 3, 0);
    }
    check_tensor(net, &b, a.lnf_g, D, "lnf_g", rng, 3, 0);
    check_tensor(net, &b, a.lnf_b, D, "lnf_b", rng, 3, 0);
    if (s == EX_T5) /* every bucket of every head */
        check_tensor(net, &b, a.t5_table, (size_t)(a.heads * a.t5_buckets), "t5_table", rng,
                     a.heads * a.t5_buckets, 1);
    if (s == EX_LEARNED) {
        /* Rows 0 and 3, and the last row, which also collects the gradient
         * of every clamped position past the table. */
        float *W = pe_learned_weights(net->learned);
        const int rows_l[3] = {0, 3, a.max_len - 1};
        for (int r = 0; r < 3; r++)
            for (int e = 0; e < a.dim; e += 2) {
                const size_t j = (size_t)rows_l[r] * D + (size_t)e;
                const float w0 = W[j];
                const float hi = (float)(w0 + H), lo = (float)(w0 - H);
                W[j] = hi;
                const double fp = loss_f64(net, &b);
                W[j] = lo;
                const double fm = loss_f64(net, &b);
                W[j] = w0;
                const double fd = (fp - fm) / ((double)hi - (double)lo);
                const double g = net->learned_grad[j];
                CHECK_MSG(fabs(fd - g) <= TOL_F32(g), "learned row %d[%d]: backward %.12g, fd %.12g",
                          rows_l[r], e, g, fd);
            }
    }
    ex_batch_free(&b);
    ex_net_free_f64(net);
}

TEST(exp_grad_every_scheme_matches_finite_differences) {
    pe_rng rng = {pe_test_seed()};
    const ex_scheme trained[] = {EX_NONE, EX_RAW, EX_NORMALIZED, EX_BINARY, EX_SINUSOIDAL,
                                 EX_LEARNED, EX_ROPE, EX_ALIBI, EX_T5};
    for (size_t i = 0; i < sizeof trained / sizeof trained[0]; i++) check_scheme(trained[i], &rng);
}

TEST(exp_grad_check_can_fail) {
    /* The check above must be able to fail: a wrong gradient entry (the
     * kind a dropped term gives) is caught. */
    ex_arch a;
    CHECK_OK(ex_arch_init(&a, EX_ROPE, 8, 2, 16, 2, 3));
    ex_net_f64 *net = NULL;
    CHECK_OK(ex_net_create_f64(&a, 11, &net));
    ex_batch b = tiny_batch();
    loss_f64(net, &b);
    CHECK_OK(ex_backward_f64(net, &b));
    const size_t j = a.layer[0].wqkv + 5;
    double fd;
    CHECK(param_agrees(net, &b, net->w + j, net->g[j], 0, &fd));
    CHECK(!param_agrees(net, &b, net->w + j, net->g[j] * 1.001 + 1e-6, 0, &fd));
    ex_batch_free(&b);
    ex_net_free_f64(net);
}

/* --------------------------------------------- float32 model == double */

TEST(exp_float_model_matches_double_model) {
    /* Same initial parameters, same batch: the float model (pe_rope_apply,
     * float encodings, pe_t5_bias directly) against the checked double
     * model. Float rounding through 2 layers leaves ~1e-6 relative in the
     * loss and the gradients; 1e-4 of each tensor's largest gradient is
     * loose enough for that and far below any real mistake (a wrong sign,
     * position or layout moves gradients by O(1) of their size). */
    const ex_scheme trained[] = {EX_NONE, EX_RAW, EX_NORMALIZED, EX_BINARY, EX_SINUSOIDAL,
                                 EX_LEARNED, EX_ROPE, EX_ALIBI, EX_T5};
    for (size_t k = 0; k < sizeof trained / sizeof trained[0]; k++) {
        ex_arch a;
        CHECK_OK(ex_arch_init(&a, trained[k], 8, 2, 16, 2, 3));
        ex_net_f32 *n32 = NULL;
        ex_net_f64 *n64 = NULL;
        CHECK_OK(ex_net_create_f32(&a, 3, &n32));
        CHECK_OK(ex_net_create_f64(&a, 3, &n64));
        pe_rng rng = {pe_test_seed()};
        for (size_t i = 0; i < a.n_params; i++) {
            n32->w[i] += (float)(0.3 * pe_rng_uniform(&rng, -1, 1));
            n64->w[i] = n32->w[i];
        }
        ex_batch b = tiny_batch();
        double l32 = 0, l64 = 0;
        CHECK_OK(ex_forward_f32(n32, &b, NULL, 1, &l32, NULL));
        CHECK_OK(ex_forward_f64(n64, &b, NULL, 1, &l64, NULL));
        CHECK_NEAR(l32, l64, 1e-5 * l64);
        CHECK_OK(ex_backward_f32(n32, &b));
        CHECK_OK(ex_backward_f64(n64, &b));
        double gmax = 0, diff = 0;
        for (size_t i = 0; i < a.n_params; i++) {
            gmax = fmax(gmax, fabs(n64->g[i]));
            diff = fmax(diff, fabs(n32->g[i] - n64->g[i]));
        }
        CHECK_MSG(diff <= 1e-4 * gmax, "%s: float gradient off by %.3g (largest %.3g)",
                  ex_scheme_name(trained[k]), diff, gmax);
        if (trained[k] == EX_LEARNED) {
            double lmax = 0, ldiff = 0;
            for (int i = 0; i < a.max_len * a.dim; i++) {
                lmax = fmax(lmax, fabs(n64->learned_grad[i]));
                ldiff = fmax(ldiff, fabs(n32->learned_grad[i] - n64->learned_grad[i]));
            }
            CHECK(lmax > 0);
            CHECK_MSG(ldiff <= 1e-4 * lmax, "learned table gradient off by %.3g", ldiff);
        }
        ex_batch_free(&b);
        ex_net_free_f32(n32);
        ex_net_free_f64(n64);
    }
}
