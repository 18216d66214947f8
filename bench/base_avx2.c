/*
 * base_avx2.c — the baselines with AVX2 + F16C (compiled with the same
 * -m flags as src/kernels/avx2.c and used only when that set is active).
 */
#include "bench.h"

#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__F16C__)
#error "base_avx2.c needs -mavx2 -mfma -mf16c (see Makefile)"
#endif
#include <immintrin.h>

static void scale_f32(float *x, size_t n, float c) {
    const __m256 vc = _mm256_set1_ps(c);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(x + i, _mm256_mul_ps(_mm256_loadu_ps(x + i), vc));
    for (; i < n; i++) x[i] *= c;
}

/* 16-bit scales: n is a multiple of 16 in every bench case. */
static void scale_f16(uint16_t *x, size_t n, float c) {
    const __m256 vc = _mm256_set1_ps(c);
    for (size_t i = 0; i + 8 <= n; i += 8) {
        __m128i *p = (__m128i *)(x + i);
        const __m256 v = _mm256_mul_ps(_mm256_cvtph_ps(_mm_loadu_si128(p)), vc);
        _mm_storeu_si128(p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
}

static void scale_bf16(uint16_t *x, size_t n, float c) {
    const __m256 vc = _mm256_set1_ps(c);
    const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7FFF);
    for (size_t i = 0; i + 8 <= n; i += 8) {
        __m128i *p = (__m128i *)(x + i);
        const __m256 v = _mm256_mul_ps(
            _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(p)), 16)), vc);
        const __m256i u = _mm256_castps_si256(v);
        const __m256i r = _mm256_srli_epi32(
            _mm256_add_epi32(u, _mm256_add_epi32(bias, _mm256_and_si256(_mm256_srli_epi32(u, 16), one))), 16);
        _mm_storeu_si128(p, _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1)));
    }
}

static void copy_nt(float *dst, const float *src, size_t n) {
    size_t i = 0;
    for (; i < n && ((uintptr_t)(dst + i) & 31) != 0; i++) dst[i] = src[i];
    for (; i + 8 <= n; i += 8) _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
    for (; i < n; i++) dst[i] = src[i];
    _mm_sfence();
}

const bench_baselines bench_base_avx2 = {"avx2", scale_f32, scale_f16, scale_bf16, copy_nt};
#else
typedef int bench_base_avx2_unavailable;
#endif
