/* random.c — splitmix64 streams for the CLI's random inputs. */
#include "random.h"

#include "../src/rng.h"

static double next_uniform(uint64_t *s) {
    return (double)(pe__splitmix64(s) >> 11) * 0x1p-52 - 1.0; /* 53 bits over [0, 2), shifted */
}

void cli_fill_uniform(double *x, int64_t n, uint64_t seed) {
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) x[i] = next_uniform(&s);
}

void cli_fill_uniform_f32(float *x, int64_t n, uint64_t seed) {
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) x[i] = (float)next_uniform(&s);
}
