/* inputs.c — the tour claims' fixed inputs, shared with their figures (see inputs.h). */
#include "inputs.h"

#include "../random.h"

#include "posenc.h"

#include <math.h>

void tour_bag_tokens(float x[TOUR_BAG_T * TOUR_BAG_D]) {
    cli_fill_uniform_f32(x, TOUR_BAG_T * TOUR_BAG_D, 11);
}

void tour_toy_weights(double Q[TOUR_TOY_D * TOUR_TOY_D], double K[TOUR_TOY_D * TOUR_TOY_D],
                      double e_m[TOUR_TOY_D], double e_n[TOUR_TOY_D]) {
    enum { D = TOUR_TOY_D };
    cli_fill_uniform(Q, D * D, 5);
    cli_fill_uniform(K, D * D, 6);
    cli_fill_uniform(e_m, D, 7);
    cli_fill_uniform(e_n, D, 8);
    /* 1/sqrt(D) keeps q·k of order one, as an initialised layer would */
    for (int i = 0; i < D * D; i++) {
        Q[i] /= sqrt((double)D);
        K[i] /= sqrt((double)D);
    }
}

void tour_toy_regime2(double Q[TOUR_TOY_D * TOUR_TOY_D]) {
    /* D and Q are fixed and valid: the library cannot refuse them */
    (void)pe_zero_row_sums(Q, TOUR_TOY_D, TOUR_TOY_D);
}

void tour_toy_keys(double keys[TOUR_TOY_KEYS * TOUR_TOY_D]) {
    cli_fill_uniform(keys, TOUR_TOY_KEYS * TOUR_TOY_D, 12);
}

void tour_entangle_weights(double *Q, double *K, double *e_m, double *e_n) {
    enum { D = TOUR_ENT_D };
    cli_fill_uniform(Q, D * D, 9);
    cli_fill_uniform(K, D * D, 10);
    cli_fill_uniform(e_m, D, 13);
    cli_fill_uniform(e_n, D, 14);
    for (int i = 0; i < D * D; i++) {
        Q[i] /= sqrt((double)D);
        K[i] /= sqrt((double)D);
    }
}

void tour_rope_qk(double q[TOUR_ROPE_D], double k[TOUR_ROPE_D]) {
    cli_fill_uniform(q, TOUR_ROPE_D, 1);
    cli_fill_uniform(k, TOUR_ROPE_D, 2);
}
