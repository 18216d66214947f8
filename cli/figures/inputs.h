/*
 * inputs.h — the fixed inputs of the tour's claims (sizes, positions,
 * seeds), shared by each claim and the figure that illustrates it, so the
 * figure shows the very numbers the claim judged. The pseudo-random values
 * come from cli/random.h: the same on every machine. They live with the
 * figures, the layer below the tour, so claims and figures share them
 * without the figures depending on the tour.
 */
#ifndef PE_CLI_TOUR_INPUTS_H
#define PE_CLI_TOUR_INPUTS_H

#include <stdint.h>

/* Bag of words: T tokens of D features, attention without positions. */
enum { TOUR_BAG_T = 6, TOUR_BAG_D = 8 };
void tour_bag_tokens(float x[TOUR_BAG_T * TOUR_BAG_D]);

/* The toy design p_m = m·1, D = 8: Q and K (scaled by 1/sqrt D), the query
 * token e_m and one key token e_n. The four-term claim puts them at m = 100,
 * n = 90. */
enum { TOUR_TOY_D = 8, TOUR_TOY_M = 100, TOUR_TOY_N = 90 };
void tour_toy_weights(double Q[TOUR_TOY_D * TOUR_TOY_D], double K[TOUR_TOY_D * TOUR_TOY_D],
                      double e_m[TOUR_TOY_D], double e_n[TOUR_TOY_D]);
/* Regime ii: Q·1 = 0 (each row of Q minus its mean), keys e_n at positions
 * 0..KEYS-1 and the query at the last position. */
enum { TOUR_TOY_KEYS = 64 };
void tour_toy_regime2(double Q[TOUR_TOY_D * TOUR_TOY_D]);
void tour_toy_keys(double keys[TOUR_TOY_KEYS * TOUR_TOY_D]);

/* Entanglement: sinusoidal codes at m, n added to random tokens, D = 64. */
enum { TOUR_ENT_D = 64, TOUR_ENT_M = 40, TOUR_ENT_N = 33 };
/* Q, K (D x D, scaled by 1/sqrt D), e_m, e_n (D). */
void tour_entangle_weights(double *Q, double *K, double *e_m, double *e_n);

/* RoPE: head dim 64, base 10^4, q and k uniform (seeds 1 and 2). */
enum { TOUR_ROPE_D = 64 };
void tour_rope_qk(double q[TOUR_ROPE_D], double k[TOUR_ROPE_D]);

/* Near-collisions: offsets up to 10^5; D = 8 (against 10, 12, 16). */
enum { TOUR_COLL_SMALL_D = 8 };
#define TOUR_COLL_MAX 100000

/* Scaling: Llama 3 at its defaults (D = 128, base 5·10^5); YaRN with
 * factor 10 from 2048 tokens, base 10^4; dynamic NTK at s = L. */
enum { TOUR_SCALE_D = 128, TOUR_YARN_L0 = 2048 };
#define TOUR_LLAMA3_BASE 500000.0
#define TOUR_YARN_FACTOR 10.0

/* Learned similarity: a (ROWS, DIM) learned table (seed 1) trained by plain
 * SGD, `steps` steps at learning rate lr, toward the sinusoidal codes (D =
 * DIM, base 10^4) of positions 0..seen-1 (loss 1/2 sum_m |W_m - PE(m)|^2):
 * rows from `seen` on get no gradient. The claim trains STEPS steps at LR
 * with SEEN rows and compares rows FAR apart. */
enum { TOUR_LSIM_ROWS = 512, TOUR_LSIM_DIM = 16, TOUR_LSIM_SEEN = 256, TOUR_LSIM_FAR = 100, TOUR_LSIM_STEPS = 50 };
#define TOUR_LSIM_LR 0.2
/* start, trained: (ROWS, DIM) each, the table before and after training.
 * Returns a pe_status (the library's, or PE_ERR_NOMEM). */
int tour_learned_trained(int64_t steps, double lr, int64_t seen, float *start, float *trained);
/* cosine[i * rows + j] = the cosine of rows i and j of w (rows, dim). */
void tour_row_cosines(const float *w, int64_t rows, int64_t dim, double *cosine);

#endif
