/*
 * layers.h — the transformer's layers, forward and backward, in two
 * precisions: _f32 trains (experiment/net_f32.c), _f64 is what the
 * finite-difference tests check (tests/experiment/net_f64.c). Both are the
 * same source, experiment/layers_impl.h, compiled with a different element
 * type, so the checked code is the code that trains.
 *
 * Shapes are row-major; x: (n, in) means n rows of in elements. Every
 * backward ADDS into parameter gradients (dW, db, dg) so that several uses
 * of a weight accumulate; what each does with the input gradient is stated.
 */
#ifndef PE_EXPERIMENT_LAYERS_H
#define PE_EXPERIMENT_LAYERS_H

#include <stddef.h>

/* Longest example, in tokens, the model accepts (its (T, T) attention
 * blocks grow quadratically). */
#define EX_MAX_TOKENS 2048

#define EX_LAYERS_DECLARE(R, S)                                                          \
    /* y (n, out) = x (n, in) W (in, out) + b, plus the old y when accumulate. */        \
    void ex_linear_fwd_##S(const R *x, int n, int in, const R *W, const R *b, int out,    \
                           int accumulate, R *y);                                        \
    /* dW += x^T dy, db += column sums of dy; dx (nullable) = dy W^T, added to dx    */  \
    /* instead when accumulate. */                                                       \
    void ex_linear_bwd_##S(const R *x, int n, int in, const R *W, int out, const R *dy,  \
                           R *dx, int accumulate, R *dW, R *db);                         \
    /* y = (x - mean) / sqrt(var + 1e-5) * g + b per row; keeps mean and 1/std. */       \
    void ex_layernorm_fwd_##S(const R *x, int n, int d, const R *g, const R *b, R *y,     \
                              R *mean, R *rstd);                                         \
    /* dx += the input gradient; dg, db += the parameter gradients. */                   \
    void ex_layernorm_bwd_##S(const R *x, int n, int d, const R *g, const R *mean,        \
                              const R *rstd, const R *dy, R *dx, R *dg, R *db);          \
    /* y = GELU(u) (tanh form); dgdu (nullable) = GELU'(u) for backward. No alias. */  \
    void ex_gelu_fwd_##S(const R *u, R *y, R *dgdu, size_t n);                           \
    /* du = dy GELU'(u) from the forward's dgdu (du may be dy). */                       \
    void ex_gelu_bwd_##S(const R *dgdu, const R *dy, R *du, size_t n);                   \
    /* Causal multi-head attention of one example of T tokens. qkv: (T, 3D) rows of  */  \
    /* q | k | v, head h at columns h*Dh; bias: (H, T, T) added to the logits (NULL  */  \
    /* for none; only j <= i is read); logits scale*q.k + bias; P: (H, T, T) the      */  \
    /* softmax (kept for backward; j > i untouched); out: (T, D) with row stride      */  \
    /* ld_out, the heads side by side. */                                                \
    void ex_attention_fwd_##S(const R *qkv, int T, int H, int Dh, const R *bias, R scale, \
                              R *P, R *out, int ld_out);                                 \
    /* dqkv (T, 3D): overwritten with the gradients of q, k and v; dbias            */   \
    /* (nullable, (H, T, T)) += the logits' gradient for j <= i; dS: (T, T) scratch. */  \
    void ex_attention_bwd_##S(const R *qkv, int T, int H, int Dh, const R *P, R scale,    \
                              const R *dout, int ld_dout, R *dqkv, R *dbias, R *dS);     \
    /* Softmax cross-entropy of n rows of V logits against tgt. Adds the summed      */  \
    /* loss (nats) to *loss_sum and, when correct != NULL, sets correct[r] = 1 if     */  \
    /* tgt[r] is the row's unique arg max (ties count as wrong). When dlogits is     */  \
    /* not NULL it receives scale * d(sum of losses)/d logits (may be logits).        */ \
    void ex_softmax_ce_##S(const R *logits, int n, int V, const int *tgt, R scale,        \
                           R *dlogits, double *loss_sum, unsigned char *correct);

EX_LAYERS_DECLARE(float, f32)
EX_LAYERS_DECLARE(double, f64)

#endif
