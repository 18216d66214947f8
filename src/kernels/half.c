/*
 * half.c — f16 (IEEE binary16) and bf16 storage for the scalar kernels:
 * exact widening to float, narrowing with round to nearest even. The vector
 * sets use F16C / integer instructions with the same rounding; the tests
 * check both against each other.
 */
#include "kernels.h"

#include <string.h>

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float pe__f16_to_f32(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    if (exp == 0x1F) /* infinity or NaN (payload kept, quiet bit as stored) */
        return float_of(sign | 0x7F800000u | (man << 13));
    if (exp != 0) return float_of(sign | ((exp + 112u) << 23) | (man << 13));
    /* zero or subnormal: man * 2^-24, exact in float */
    const float v = (float)man * 0x1p-24f;
    return sign ? -v : v;
}

uint16_t pe__f32_to_f16(float f) {
    const uint32_t u = bits_of(f);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    const uint32_t abs = u & 0x7FFFFFFFu;
    if (abs >= 0x7F800000u) /* inf stays inf; NaN stays NaN (quiet) */
        return (uint16_t)(sign | 0x7C00u | (abs > 0x7F800000u ? 0x200u | ((abs >> 13) & 0x3FFu) : 0));
    if (abs >= 0x477FF000u) /* >= 65520: rounds to infinity */
        return (uint16_t)(sign | 0x7C00u);
    if (abs < 0x38800000u) {
        /* below 2^-14: subnormal result; v * 2^24 is the count of 2^-24
         * steps, and the float addition below rounds it to an integer with
         * the current (nearest-even) rounding, exactly once. */
        const float v = float_of(abs) * 0x1p24f;
        const float r = (v + 0x1p23f) - 0x1p23f;
        return (uint16_t)(sign | (uint16_t)r);
    }
    /* normal: drop 13 mantissa bits with round to nearest even; a carry
     * into the exponent is the correct next binade. */
    const uint32_t rounded = abs + 0xFFFu + ((abs >> 13) & 1u);
    return (uint16_t)(sign | ((rounded - 0x38000000u) >> 13));
}

float pe__bf16_to_f32(uint16_t h) { return float_of((uint32_t)h << 16); }

uint16_t pe__f32_to_bf16(float f) {
    const uint32_t u = bits_of(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) /* NaN: keep it a (quiet) NaN */
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

void pe__narrow_f32(const float *in, void *out, int64_t n, pe_dtype dtype, int stream,
                    pe__side_prefetch *side) {
    (void)stream; /* plain C has no non-temporal stores: ordinary ones */
    if (side) pe__side_steps(side, (n + 15) / 16); /* its one pass (kernels.h) */
    if (dtype == PE_F32) {
        memcpy(out, in, (size_t)n * sizeof(float));
        return;
    }
    uint16_t *o = out;
    if (dtype == PE_F16)
        for (int64_t i = 0; i < n; i++) o[i] = pe__f32_to_f16(in[i]);
    else
        for (int64_t i = 0; i < n; i++) o[i] = pe__f32_to_bf16(in[i]);
}
