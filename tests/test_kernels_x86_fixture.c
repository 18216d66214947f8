/*
 * test_kernels_x86_fixture.c — the vector kernel sets of every ISA rotate
 * bit-identically: this machine's vector set (avx512, avx2 or neon) against
 * a stored AVX-512 result, tests/fixtures/kernels/avx512_rotations.txt.
 *
 * On x86 it checks the fixture is still what AVX-512 (and AVX2) compute;
 * under qemu-aarch64 (make test-arm64) it is the only way NEON meets the
 * x86 sets, which cannot run there. Inputs come from a fixed integer
 * generator (no seed; frequencies from exact operations, see fixed_freqs),
 * and each output tensor is reduced to its
 * FNV-1a 64 hash: equal hashes of the raw bytes mean equal bits.
 *
 * Source of the fixture: this test on an x86-64 CPU with AVX-512,
 *   PE_ISA=avx512 PE_KERNELS_FIXTURE_WRITE=tests/fixtures/kernels/avx512_rotations.txt \
 *       build/posenc_tests kernels_match_stored_avx512_rotations
 * (written once, reviewed, committed; never rewritten by make test).
 */
#include "runner.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURE "tests/fixtures/kernels/avx512_rotations.txt"

/* xorshift64*: the same numbers on every platform. */
static uint64_t next_u64(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static uint64_t fnv1a(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* Frequencies from exact operations only: pe_freqs_default's low parts
 * come from long double, which is x87 extended on x86-64 and quad on
 * AArch64, so they differ between the platforms (by design: both are
 * within its bound) and would hide what this test compares. A geometric
 * ladder like the default one (2^(-20 i / m)), and low parts w 2^-53 u
 * with |u| < 1, one rounded product each. */
static void fixed_freqs(int64_t d, pe_freqs *f) {
    memset(f, 0, sizeof *f);
    f->rotary_dim = d;
    f->attention_factor = 1.0;
    f->softmax_scale_multiplier = 1.0;
    uint64_t st = 0x2545F4914F6CDD1DULL;
    const int64_t m = d / 2;
    for (int64_t i = 0; i < m; i++) {
        const double frac = 1.0 + (double)(next_u64(&st) >> 12) * 0x1p-52; /* [1, 2) */
        f->inv_freq[i] = ldexp(frac, -(int)(20 * i / m)) * 0.5;
        const double u = ((double)(next_u64(&st) >> 40) - 0x1p23) * 0x1p-24; /* (-1/2, 1/2) */
        f->inv_freq_lo[i] = f->inv_freq[i] * 0x1p-53 * u;
    }
}

/* The vector set to compare: the widest this CPU runs, or NULL. */
static const char *vector_set(void) {
    static const char *const sets[] = {"avx512", "avx2", "neon"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (pe_kernels_supported(sets[i])) return sets[i];
    return NULL;
}

TEST(kernels_match_stored_avx512_rotations) {
    const char *set = vector_set();
    const char *write = getenv("PE_KERNELS_FIXTURE_WRITE");
    if (set == NULL) return; /* scalar only: nothing vectorized to compare */
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    /* 40 tokens cross a stepping restart (every 32); dims with tails of
     * every vector width (110, 74, 2 pairs' worth) */
    enum { T = 40, H = 2, D = 128 };
    const size_t n = (size_t)T * H * D;
    float *x = malloc(4 * n), *o = malloc(4 * n);
    uint16_t *x16 = malloc(2 * n), *o16 = malloc(2 * n);
    CHECK(x && o && x16 && o16);
    uint64_t st = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < n; i++) /* exact: a 24-bit integer over 2^23, minus 1 */
        x[i] = (float)(next_u64(&st) >> 40) * 0x1p-23f - 1.0f;
    for (size_t i = 0; i < n; i++) /* finite 16-bit patterns, exponent field 10..17 */
        x16[i] = (uint16_t)((next_u64(&st) & 0x83FF) | ((10 + next_u64(&st) % 8) << 10));
    int64_t ids[T];
    for (int t = 0; t < T; t++)
        ids[t] = (int64_t)(next_u64(&st) % 4294967295ULL) - 2147483647LL;
    FILE *out = NULL, *in = NULL;
    if (write) {
        CHECK_OK(pe_kernels_select("avx512"));
        out = fopen(write, "w");
        CHECK_MSG(out != NULL, "cannot write %s", write);
        if (out == NULL) return;
        fprintf(out, "# d layout scattered dtype fnv1a64 of pe_rope_apply's output (AVX-512)\n");
    } else {
        CHECK_OK(pe_kernels_select(set));
        in = fopen(FIXTURE, "r");
        CHECK_MSG(in != NULL, "cannot open %s (run from the repository root)", FIXTURE);
        if (in == NULL) return;
        char line[256];
        CHECK(fgets(line, sizeof line, in) != NULL && line[0] == '#');
    }
    const int64_t dims[] = {128, 110, 74, 2};
    int compared = 0;
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++)
        for (int layout = 0; layout < 2; layout++)
            for (int scattered = 0; scattered < 2; scattered++)
                for (int ti = 0; ti < 3; ti++) {
                    pe_freqs f;
                    fixed_freqs(dims[di], &f);
                    f.attention_factor = ti == 1 ? 1.0 : 1.17;
                    const pe_positions p = scattered ? pe_positions_list(ids) : pe_positions_range(99990);
                    const pe_dtype dt = ti == 0 ? PE_F32 : ti == 1 ? PE_F16 : PE_BF16;
                    void *src = dt == PE_F32 ? (void *)x : (void *)x16;
                    void *dst = dt == PE_F32 ? (void *)o : (void *)o16;
                    pe_tensor ts = pe_tensor_dense(src, dt, T, H, D);
                    pe_tensor td = pe_tensor_dense(dst, dt, T, H, D);
                    const pe_rope_direction dir = (pe_rope_direction)((di + (size_t)layout) % 3);
                    CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &p, &ts, &td, dir));
                    const uint64_t h = fnv1a(dst, pe_dtype_size(dt) * n);
                    if (out) {
                        fprintf(out, "%lld %d %d %s %016" PRIx64 "\n", (long long)dims[di], layout,
                                scattered, pe_dtype_name(dt), h);
                        continue;
                    }
                    long long d_ = 0;
                    int l_ = -1, s_ = -1;
                    char dtn[16] = "";
                    uint64_t want = 0;
                    const int got = fscanf(in, "%lld %d %d %15s %" SCNx64, &d_, &l_, &s_, dtn, &want);
                    CHECK_MSG(got == 5 && d_ == dims[di] && l_ == layout && s_ == scattered &&
                                  strcmp(dtn, pe_dtype_name(dt)) == 0,
                              "%s: line for d=%lld layout %d scattered %d %s missing", FIXTURE,
                              (long long)dims[di], layout, scattered, pe_dtype_name(dt));
                    CHECK_MSG(h == want,
                              "d=%lld layout %d scattered %d %s: %s differs from stored AVX-512 "
                              "(%016" PRIx64 " vs %016" PRIx64 ")",
                              (long long)dims[di], layout, scattered, pe_dtype_name(dt), set, h,
                              want);
                    compared++;
                }
    if (out) fclose(out);
    if (in) {
        fclose(in);
        CHECK(compared == 48);
    }
    free(x), free(o), free(x16), free(o16);
    CHECK_OK(pe_kernels_select(saved));
}
