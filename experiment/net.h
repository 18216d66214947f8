/*
 * net.h — the whole model, forward and backward, in two precisions (see
 * layers.h): ex_net_f32 trains and evaluates; ex_net_f64 exists for the
 * finite-difference tests. Both are experiment/net_impl.h.
 *
 * The positions reach the model only through the library (posenc.h):
 *   additive    pe_additive_encode (raw, normalized, binary, sinusoidal)
 *   learned     pe_learned_forward / pe_learned_backward
 *   RoPE        pe_rope_apply FORWARD / BACKWARD on q and k (f32); the f64
 *               net rotates with the library's exact pe_rope_cos_sin table,
 *               and a test holds the two paths equal
 *   ALiBi       pe_alibi_bias (causal)
 *   T5          pe_t5_bias forward; pe_t5_buckets routes the gradient
 */
#ifndef PE_EXPERIMENT_NET_H
#define PE_EXPERIMENT_NET_H

#include "data.h"
#include "model.h"

/* Scores of a forward pass, added to by each call. */
typedef struct {
    double loss_sum; /* cross-entropy summed over scored tokens (nats) */
    long tokens;     /* scored tokens */
    long correct;    /* scored tokens whose arg max is the target */
    long examples;
    long exact;      /* examples with every scored token correct */
} ex_counts;

#define EX_NET_DECLARE(R, S)                                                             \
    typedef struct ex_ws_##S ex_ws_##S;                                                   \
    typedef struct {                                                                     \
        ex_arch arch;                                                                    \
        R *w, *g;              /* (n_params) parameters and their gradient */            \
        pe_learned *learned;   /* EX_LEARNED: (max_len, dim) f32 table */                \
        float *learned_grad;   /* EX_LEARNED: its gradient */                            \
        pe_freqs *rope;        /* EX_ROPE: the default frequencies */                    \
        ex_ws_##S *ws;                                                                   \
    } ex_net_##S;                                                                        \
    /* A model of shape a with the initial parameters of seed. */                        \
    int ex_net_create_##S(const ex_arch *a, uint64_t seed, ex_net_##S **out);             \
    void ex_net_free_##S(ex_net_##S *net);                                               \
    /* Forward over batch b. freqs: the RoPE frequencies (NULL: the net's own).      */  \
    /* for_backward: keep what ex_backward needs (else evaluation only). *loss      */   \
    /* (nullable) = mean cross-entropy per scored token; counts (nullable) +=.      */   \
    int ex_forward_##S(ex_net_##S *net, const ex_batch *b, const pe_freqs *freqs,          \
                       int for_backward, double *loss, ex_counts *counts);               \
    /* g and learned_grad = the gradient of the mean loss of the last forward,     */    \
    /* which must have been on the same batch with for_backward set. */                 \
    int ex_backward_##S(ex_net_##S *net, const ex_batch *b);

EX_NET_DECLARE(float, f32)
EX_NET_DECLARE(double, f64)

#endif
