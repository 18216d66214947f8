/*
 * base_neon.c — the baselines with AArch64 Advanced SIMD, used when the
 * neon kernel set is active: what a programmer would write with the same
 * instructions (four floats per register, the armv8-a half <-> single
 * conversions FCVTL/FCVTN, non-temporal pair stores), so that `posenc bench`
 * on an ARM machine reports ratios against its own in-run yardstick rather
 * than against scalar conversion loops. No -m flags: NEON is baseline on
 * armv8-a.
 */
#include "bench.h"

#if defined(__aarch64__)
#include <arm_neon.h>

static void scale_f32(float *x, size_t n, float c) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) vst1q_f32(x + i, vmulq_n_f32(vld1q_f32(x + i), c));
    for (; i < n; i++) x[i] *= c;
}

/* 16-bit scales: n is a multiple of 16 in every bench case. The narrowing
 * rounds by FPCR, to nearest even unless the program changed it. */
static void scale_f16(uint16_t *x, size_t n, float c) {
    for (size_t i = 0; i + 4 <= n; i += 4) {
        const float32x4_t v = vmulq_n_f32(vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(x + i))), c);
        vst1_u16(x + i, vreinterpret_u16_f16(vcvt_f16_f32(v)));
    }
}

static void scale_bf16(uint16_t *x, size_t n, float c) {
    const uint32x4_t bias = vdupq_n_u32(0x7FFF), one = vdupq_n_u32(1);
    for (size_t i = 0; i + 4 <= n; i += 4) {
        const float32x4_t f = vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(x + i), 16));
        const uint32x4_t u = vreinterpretq_u32_f32(vmulq_n_f32(f, c));
        /* round to nearest even: add 0x7FFF + the lowest kept bit, keep the top half */
        const uint32x4_t r = vaddq_u32(u, vaddq_u32(bias, vandq_u32(vshrq_n_u32(u, 16), one)));
        vst1_u16(x + i, vshrn_n_u32(r, 16));
    }
}

/* A streaming copy: STNP (store pair, non-temporal hint) of two q registers
 * per 32 bytes. */
static void copy_nt(float *dst, const float *src, size_t n) {
    size_t i = 0;
    for (; i < n && ((uintptr_t)(dst + i) & 15) != 0; i++) dst[i] = src[i];
    for (; i + 8 <= n; i += 8) {
        const float32x4_t a = vld1q_f32(src + i), b = vld1q_f32(src + i + 4);
        __asm__ volatile("stnp %q0, %q1, [%2]" : : "w"(a), "w"(b), "r"(dst + i) : "memory");
    }
    for (; i < n; i++) dst[i] = src[i];
}

const bench_baselines bench_base_neon = {"neon", scale_f32, scale_f16, scale_bf16, copy_nt};
#else
typedef int bench_base_neon_unavailable;
#endif
