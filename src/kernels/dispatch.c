/*
 * dispatch.c — picks the kernel set once and names it.
 *
 * A vector set is usable only when the CPU has its instructions (CPUID) and
 * the OS saves their registers across context switches (OSXSAVE and XCR0):
 * a CPU flag alone is not enough, e.g. under an OS or hypervisor without
 * AVX-512 state support. The first call picks the widest usable set, or the
 * one PE_ISA names (scalar|avx2|avx512|neon; a name the CPU cannot run falls
 * back to the widest usable set, since this path has no error channel).
 * On AArch64 the neon set needs Advanced SIMD with double precision, part of
 * armv8-a: Linux reports it in getauxval(AT_HWCAP) (HWCAP_ASIMD), macOS in
 * the sysctl hw.optional.AdvSIMD (architectural on every Apple CPU, so a
 * missing key still means yes); other AArch64 systems take the baseline.
 * The choice is one atomic pointer: the only global mutable state of the
 * library, set once and changed afterwards only by pe_kernels_select
 * (beside it, two facts about the CPU cached once: the widest set and
 * whether rows are prefetched in software).
 */
/* macOS hides sysctlbyname's types (u_int) under the Makefile's
 * _POSIX_C_SOURCE unless Darwin's extensions are asked for, before any
 * header. */
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE 1
#endif

#include "kernels.h"
#include "../errors.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#elif defined(__aarch64__) && defined(__APPLE__)
#include <sys/sysctl.h>
#endif

enum { SET_SCALAR = 0, SET_AVX2 = 1, SET_AVX512 = 2, SET_NEON = 3, N_SETS = 4 };

static const char *const set_names[N_SETS] = {"scalar", "avx2", "avx512", "neon"};

static const pe_kernel_table *set_table(int set) {
#if defined(__x86_64__)
    if (set == SET_AVX512) return &pe__kernels_avx512;
    if (set == SET_AVX2) return &pe__kernels_avx2;
#endif
#if defined(__aarch64__)
    if (set == SET_NEON) return &pe__kernels_neon;
#endif
    (void)set;
    return &pe__kernels_scalar;
}

#if defined(__x86_64__)
/* XCR0: which register states the OS saves. Only read when CPUID says the
 * OS enabled XSAVE (otherwise xgetbv faults). */
static uint64_t read_xcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* Widest set the CPU and OS support: SET_*. */
static int detect_best(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return SET_SCALAR;
    const int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1,
              f16c = (c >> 29) & 1;
    if (!osxsave || !avx) return SET_SCALAR;
    const uint64_t xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6) return SET_SCALAR; /* SSE and AVX state */
    if (__get_cpuid_max(0, NULL) < 7) return SET_SCALAR;
    __cpuid_count(7, 0, a, b, c, d);
    const int avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1, avx512dq = (b >> 17) & 1,
              avx512bw = (b >> 30) & 1, avx512vl = (b >> 31) & 1;
    if (!(avx2 && fma && f16c)) return SET_SCALAR;
    /* opmask, upper halves of zmm0-15, zmm16-31 */
    if (avx512f && avx512dq && avx512bw && avx512vl && (xcr0 & 0xE0) == 0xE0)
        return SET_AVX512;
    return SET_AVX2;
}
#elif defined(__aarch64__) && defined(__linux__)
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1UL << 1) /* arch/arm64/include/uapi/asm/hwcap.h */
#endif
/* The kernel's view of the CPU: Advanced SIMD present and enabled. */
static int detect_best(void) {
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) ? SET_NEON : SET_SCALAR;
}
#elif defined(__aarch64__) && defined(__APPLE__)
/* hw.optional.AdvSIMD (older releases: hw.optional.neon) is 1 on every
 * Apple CPU; only an explicit 0 turns the set off. */
static int detect_best(void) {
    static const char *const keys[] = {"hw.optional.AdvSIMD", "hw.optional.neon"};
    for (int i = 0; i < 2; i++) {
        int v = 0;
        size_t len = sizeof v;
        if (sysctlbyname(keys[i], &v, &len, NULL, 0) == 0) return v ? SET_NEON : SET_SCALAR;
    }
    return SET_NEON;
}
#elif defined(__aarch64__)
/* Advanced SIMD with double precision is part of armv8-a. */
static int detect_best(void) { return SET_NEON; }
#else
static int detect_best(void) { return SET_SCALAR; }
#endif

/* Cached detection: -1 until known. CPUID traps to the hypervisor in a VM
 * (microseconds), so it runs once; racing first calls compute the same
 * value, so a plain atomic store is enough. */
static atomic_int best_set = -1;

static int best(void) {
    int b = atomic_load_explicit(&best_set, memory_order_relaxed);
    if (b < 0) {
        b = detect_best();
        atomic_store_explicit(&best_set, b, memory_order_relaxed);
    }
    return b;
}

/* Whether this CPU runs `set`: scalar always; the x86 sets up to the
 * widest one detected; neon only where it is the detected set. */
static int usable(int set) {
    const int b = best();
    if (set == SET_SCALAR) return 1;
    if (set == SET_NEON || b == SET_NEON) return set == b;
    return set <= b;
}

/*
 * Whether rows larger than the caches should be prefetched in software
 * (pe__rope_rows.prefetch). Measured per machine, in-place rotation of
 * 64 MiB against an in-place scale of the same buffer (docs/PERFORMANCE.md):
 * on an Intel Xeon (Cascade Lake) the hardware prefetcher alone lagged
 * (1.3-1.5x without, ~1.0x with); on AMD Zen 4 (family 25) the software
 * prefetches are what made it slow (half-split 1.63x with them, 1.06x
 * without; interleaved 1.20x / 1.05x; every other DRAM-bound rotation
 * case alike), so family 25 goes without. Other CPUs keep them, as
 * measured on the Xeon and on Zen 5 (family 26: within targets with
 * them). PE_PREFETCH=0 or 1 overrides, to measure a new machine both ways.
 * A constant of the CPU: cached like the detected set. */
static atomic_int prefetch_rows = -1;

static int detect_prefetch_rows(void) {
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (__get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541u && d == 0x69746e65u &&
        c == 0x444d4163u /* "AuthenticAMD" */ && __get_cpuid(1, &a, &b, &c, &d)) {
        const unsigned base = (a >> 8) & 0xF;
        const unsigned family = base == 0xF ? base + ((a >> 20) & 0xFF) : base;
        if (family == 25) return 0;
    }
#endif
    return 1;
}

int pe__kernels_prefetch_rows(void) {
    int v = atomic_load_explicit(&prefetch_rows, memory_order_relaxed);
    if (v < 0) {
        const char *env = getenv("PE_PREFETCH");
        v = env && (strcmp(env, "0") == 0 || strcmp(env, "1") == 0) ? env[0] - '0'
                                                                       : detect_prefetch_rows();
        atomic_store_explicit(&prefetch_rows, v, memory_order_relaxed);
    }
    return v;
}

static int set_by_name(const char *name) {
    for (int i = 0; i < N_SETS; i++)
        if (strcmp(name, set_names[i]) == 0) return i;
    return -1;
}

/* The automatic choice: PE_ISA if it names a usable set, else the best. */
static const pe_kernel_table *automatic(void) {
    const char *env = getenv("PE_ISA");
    const int want = env ? set_by_name(env) : -1;
    return set_table(want >= 0 && usable(want) ? want : best());
}

static _Atomic(const pe_kernel_table *) active = NULL;

const pe_kernel_table *pe__kernels(void) {
    const pe_kernel_table *k = atomic_load_explicit(&active, memory_order_acquire);
    if (k != NULL) return k;
    const pe_kernel_table *expected = NULL, *want = automatic();
    /* The first caller wins; a concurrent pe_kernels_select is not undone. */
    if (atomic_compare_exchange_strong_explicit(&active, &expected, want,
                                                memory_order_acq_rel,
                                                memory_order_acquire))
        return want;
    return expected;
}

const char *pe_kernels_name(void) { return pe__kernels()->name; }

int pe_kernels_supported(const char *name) {
    if (name == NULL) return 0;
    const int set = set_by_name(name);
    return set >= 0 && usable(set);
}

int pe_kernels_select(const char *name) {
    const pe_kernel_table *k;
    if (name == NULL || strcmp(name, "auto") == 0) {
        k = automatic();
    } else {
        const int set = set_by_name(name);
        if (set < 0)
            return pe__fail(PE_ERR_PARAM,
                            "name=\"%s\" is not a kernel set (scalar, avx2, avx512, neon, auto)",
                            name);
        if (!usable(set))
            return pe__fail(PE_ERR_UNSUPPORTED,
                            "kernel set %s is not usable here: %s", name,
                            set == SET_NEON     ? "needs an AArch64 CPU with Advanced SIMD"
                            : set == SET_AVX512 ? "needs AVX-512 F/BW/VL/DQ enabled by CPU and OS"
                                                : "needs AVX2, FMA and F16C enabled by CPU and OS");
        k = set_table(set);
    }
    atomic_store_explicit(&active, k, memory_order_release);
    return PE_OK;
}
