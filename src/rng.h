/*
 * rng.h — the project's two pseudo-random generators, header-only and
 * stateless apart from the caller's state, so the library (learned.c) and
 * the CLI (cli/random.c) draw from the same definitions (the trainer, a
 * client of posenc.h only, keeps its own in experiment/rng.c; the tests keep
 * their own splitmix64, on purpose: a reference should not share code with
 * what it checks).
 *   splitmix64    (Steele, Lea, Flood) 64 bits per step of a counter;
 *                 expands seeds into xoshiro states
 *   xoshiro256**  (Blackman, Vigna) the generator itself
 */
#ifndef PE_RNG_H
#define PE_RNG_H

#include <stdint.h>

static inline uint64_t pe__splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t pe__rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t pe__xoshiro256ss(uint64_t s[4]) {
    const uint64_t result = pe__rotl64(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = pe__rotl64(s[3], 45);
    return result;
}

#endif
