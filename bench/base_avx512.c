/*
 * base_avx512.c — the baselines with AVX-512 (compiled with the same -m
 * flags as src/kernels/avx512.c and used only when that set is active).
 */
#include "bench.h"

#if defined(__x86_64__)
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__F16C__)
#error "base_avx512.c needs the AVX-512 flags of the Makefile"
#endif
#include <immintrin.h>

static void scale_f32(float *x, size_t n, float c) {
    const __m512 vc = _mm512_set1_ps(c);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(x + i, _mm512_mul_ps(_mm512_loadu_ps(x + i), vc));
    for (; i < n; i++) x[i] *= c;
}

/* 16-bit scales: n is a multiple of 16 in every bench case. */
static void scale_f16(uint16_t *x, size_t n, float c) {
    const __m512 vc = _mm512_set1_ps(c);
    for (size_t i = 0; i + 16 <= n; i += 16) {
        __m256i *p = (__m256i *)(x + i);
        const __m512 v = _mm512_mul_ps(_mm512_cvtph_ps(_mm256_loadu_si256(p)), vc);
        _mm256_storeu_si256(p, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
}

static void scale_bf16(uint16_t *x, size_t n, float c) {
    const __m512 vc = _mm512_set1_ps(c);
    const __m512i one = _mm512_set1_epi32(1), bias = _mm512_set1_epi32(0x7FFF);
    for (size_t i = 0; i + 16 <= n; i += 16) {
        __m256i *p = (__m256i *)(x + i);
        const __m512 v = _mm512_mul_ps(
            _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256(p)), 16)), vc);
        const __m512i u = _mm512_castps_si512(v);
        const __m512i r = _mm512_srli_epi32(
            _mm512_add_epi32(u, _mm512_add_epi32(bias, _mm512_and_si512(_mm512_srli_epi32(u, 16), one))), 16);
        _mm256_storeu_si256(p, _mm512_cvtepi32_epi16(r));
    }
}

static void copy_nt(float *dst, const float *src, size_t n) {
    size_t i = 0;
    for (; i < n && ((uintptr_t)(dst + i) & 63) != 0; i++) dst[i] = src[i];
    for (; i + 16 <= n; i += 16) _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
    for (; i < n; i++) dst[i] = src[i];
    _mm_sfence();
}

const bench_baselines bench_base_avx512 = {"avx512", scale_f32, scale_f16, scale_bf16, copy_nt};
#else
typedef int bench_base_avx512_unavailable;
#endif
