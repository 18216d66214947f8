/* inputs.c — the tour claims' fixed inputs, shared with their figures (see inputs.h). */
#include "inputs.h"

#include "../random.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int tour_learned_trained(int64_t steps, double lr, int64_t seen, float *start, float *trained) {
    enum { ROWS = TOUR_LSIM_ROWS, DIM = TOUR_LSIM_DIM };
    if (seen < 1 || seen > ROWS || steps < 0) return PE_ERR_PARAM;
    pe_learned *tab = NULL;
    int st = pe_learned_create(ROWS, DIM, 1, &tab);
    if (st != PE_OK) return st;
    const float *w = pe_learned_weights_const(tab);
    memcpy(start, w, sizeof(float) * ROWS * DIM);
    double *target = malloc(sizeof(double) * (size_t)seen * DIM);
    float *out = malloc(sizeof(float) * (size_t)seen * DIM), *gout = malloc(sizeof(float) * (size_t)seen * DIM);
    float *grad = malloc(sizeof(float) * ROWS * DIM);
    int64_t *pos = malloc(sizeof(int64_t) * (size_t)seen);
    st = target && out && gout && grad && pos ? PE_OK : PE_ERR_NOMEM;
    const pe_additive_params sp = pe_additive_defaults(PE_ADD_SINUSOIDAL, DIM);
    const pe_positions from0 = pe_positions_range(0);
    if (st == PE_OK) st = pe_additive_encode(&sp, &from0, seen, target, PE_F64);
    for (int64_t i = 0; st == PE_OK && i < seen; i++) pos[i] = i;
    /* the loss's gradient at the table's output is W_m - PE(m) */
    for (int64_t s = 0; st == PE_OK && s < steps; s++) {
        st = pe_learned_forward(tab, pos, seen, out);
        for (int64_t i = 0; st == PE_OK && i < seen * DIM; i++) gout[i] = (float)(out[i] - target[i]);
        if (st == PE_OK) memset(grad, 0, sizeof(float) * ROWS * DIM);
        if (st == PE_OK) st = pe_learned_backward(tab, pos, seen, gout, grad);
        if (st == PE_OK) st = pe_learned_sgd_step(tab, grad, (float)lr);
    }
    if (st == PE_OK) memcpy(trained, w, sizeof(float) * ROWS * DIM);
    free(target);
    free(out);
    free(gout);
    free(grad);
    free(pos);
    pe_learned_free(tab);
    return st;
}

void tour_row_cosines(const float *w, int64_t rows, int64_t dim, double *cosine) {
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < rows; c++) {
            double ab = 0, aa = 0, bb = 0;
            for (int64_t j = 0; j < dim; j++) {
                const double a = w[r * dim + j], b = w[c * dim + j];
                ab += a * b;
                aa += a * a;
                bb += b * b;
            }
            cosine[r * rows + c] = ab / sqrt(aa * bb);
        }
}
