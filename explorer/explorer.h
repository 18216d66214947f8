/*
 * explorer.h — the functions explorer/explorer.c exports to the page's
 * JavaScript (Module._px_*), each the library call behind one CLI command.
 */
#ifndef PE_EXPLORER_H
#define PE_EXPLORER_H

#include "posenc.h"

const char *px_last_error(void);
const char *px_version(void);
int px_freqs_size(void);
int px_freqs(pe_freqs *out, const char *scaling, int head_dim, double base, double factor,
             int original_max_position);
int px_pairs(const pe_freqs *f);
double px_inv_freq(const pe_freqs *f, int i);
double px_attention_factor(const pe_freqs *f);
int px_pair_periods(const pe_freqs *f, int offset, double *wavelength, double *flip,
                    double *phase, double *turns);
int px_score_curve(const pe_freqs *f, int head_dim, int layout, int m, int start, int step, int n,
                   int seed, int unit, double *plus, double *minus);
int px_similarity_rope(const pe_freqs *f, int head_dim, int layout, int start, int n, int seed,
                       double *out);
int px_similarity_sinusoidal(int dim, double base, int start, int n, double *out);
int px_sinusoidal_rows(int dim, double base, int layout, int start, int n, double *out);
int px_logit_terms(int sinusoidal, int dim, int m, int n, int seed, double *out);
int px_shift(int dim, double base, int p, int k, double *out);

#endif
