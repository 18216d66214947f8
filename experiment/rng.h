/*
 * rng.h — the experiment's own random numbers. The trainer is a client of
 * the public API (posenc.h) only, so it keeps its generator here rather than
 * borrowing the library's private src/rng.h. Same algorithms and seeding as
 * before the move, so every run's numbers are unchanged.
 */
#ifndef PE_EXPERIMENT_RNG_H
#define PE_EXPERIMENT_RNG_H

#include <stdint.h>

/* xoshiro256** seeded through splitmix64: one independent stream per
 * (seed, stream) pair, so that data, parameters and test sets never share
 * random numbers. */
typedef struct {
    uint64_t s[4];
} ex_rng;

void ex_rng_seed(ex_rng *r, uint64_t seed, uint64_t stream);
uint64_t ex_rng_next(ex_rng *r);
/* Uniform integer in [lo, hi] (unbiased). */
int ex_rng_int(ex_rng *r, int lo, int hi);
/* Uniform in [0, 1) with 53 random bits. */
double ex_rng_uniform(ex_rng *r);
/* Standard normal (Box-Muller, computed in double). */
double ex_rng_normal(ex_rng *r);

#endif
