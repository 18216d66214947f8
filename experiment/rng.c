/* rng.c — xoshiro256** (Blackman, Vigna) seeded through splitmix64
 * (Steele, Lea, Flood): the experiment's generator (rng.h). */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t xoshiro256ss(uint64_t s[4]) {
    const uint64_t result = rotl64(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

void ex_rng_seed(ex_rng *r, uint64_t seed, uint64_t stream) {
    /* Mix the stream in before expanding, so (seed, stream) pairs that
     * differ in either give unrelated states. */
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    x = splitmix64(&x);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

uint64_t ex_rng_next(ex_rng *r) { return xoshiro256ss(r->s); }

int ex_rng_int(ex_rng *r, int lo, int hi) {
    /* Rejection keeps every value equally likely (Lemire's bound). */
    const uint64_t range = (uint64_t)((int64_t)hi - lo) + 1;
    const uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    uint64_t v;
    do v = ex_rng_next(r);
    while (v >= limit);
    return (int)((int64_t)lo + (int64_t)(v % range));
}

double ex_rng_uniform(ex_rng *r) { return (double)(ex_rng_next(r) >> 11) * 0x1p-53; }

double ex_rng_normal(ex_rng *r) {
    /* One Box-Muller draw per call (the sine partner is dropped): simpler
     * than caching and the init cost is negligible. 1 - u keeps log away
     * from 0. */
    const double u1 = 1.0 - ex_rng_uniform(r), u2 = ex_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
