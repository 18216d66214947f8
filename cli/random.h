/* random.h — the CLI's deterministic pseudo-random inputs (splitmix64), so
 * demonstrations print the same numbers on every machine. */
#ifndef PE_CLI_RANDOM_H
#define PE_CLI_RANDOM_H

#include <stdint.h>

/* x[i] uniform in [-1, 1), the stream fixed by seed. */
void cli_fill_uniform(double *x, int64_t n, uint64_t seed);
/* The same numbers rounded to float. */
void cli_fill_uniform_f32(float *x, int64_t n, uint64_t seed);

#endif
