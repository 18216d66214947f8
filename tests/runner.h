/*
 * runner.h — the C test harness. A test is
 *
 *     TEST(rope_norm_preserved) { ... CHECK(...); CHECK_NEAR(a, b, tol); }
 *
 * in any tests/test_*.c file; it registers itself. The runner prints one line
 * per test ("ok", or "FAIL" with each failed check's file:line and values),
 * the seed of every randomized test, and closes with exactly
 * "N passed, N failed" (then ", N skipped" when a test skipped); it exits
 * non-zero on any failure. A test that cannot run here (an instruction set
 * this CPU lacks) calls SKIP("why") and prints "skip" with the reason
 * rather than a silent "ok".
 * `posenc_tests SUBSTRING` runs only the tests whose names contain it;
 * PE_TEST_SEED=n replays a randomized run.
 */
#ifndef PE_TEST_RUNNER_H
#define PE_TEST_RUNNER_H

#include "posenc.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef void (*pe_test_fn)(void);
void pe_test_register(const char *name, pe_test_fn fn, const char *file, int line);
void pe_test_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Marks the current test skipped, with the reason printed on its line. */
void pe_test_skip(const char *reason);
/* Number of failed checks in the current test so far. */
int pe_test_failures(void);

/* The seed of this randomized test (PE_TEST_SEED or a per-run default); the
 * runner prints it on the test's line. */
uint64_t pe_test_seed(void);

/* Machine epsilon of long double as this process actually computes it:
 * 2^-63 with x87 extended precision, 2^-52 where long double is double or
 * is emulated as double (valgrind). Tolerances that rest on long double
 * references scale with it, since the reference is then only that good. */
double pe_test_ld_eps(void);

/* The documented accuracy of an f32 RoPE output element (posenc.h, every
 * kernel set: the vector sets' plain f32 form bounds the scalar one):
 * 2^-24 (|x'| + A (|own| + 2 |partner|)) + 1e-11 A (|own| + |partner|),
 * for exact output x', the element's own input and its pair partner. */
double pe_test_rope_f32_bound(double exact, double own, double partner, double A);
/* The same for element j of a row x of rotary dim d (pair partner by the
 * layout; elements j >= d pass through). */
double pe_test_rope_row_bound(const float *x, int64_t j, int64_t d, int interleaved,
                              double exact, double A);

/* A pool of `threads` threads (2..16) kept for the whole run (one per
 * count, destroyed at exit), or NULL for 1. The thread tests give their
 * calls one so that calls of a few MiB really split: the library starts
 * helpers for a part of >= 2 MiB of traffic on running workers, but only
 * for >= 16 MiB when it must start threads itself (src/rope_threads.c). */
pe_pool *pe_test_pool(int threads);

/* Entries of a directory other than . and .. (-1 if it cannot be read):
 * the writers' tests count what a write left behind, hidden temporaries
 * (".NAME.posenc-tmp-PID-XXXXXX") included. */
int pe_test_dir_entries(const char *dir);

/* A small deterministic generator for tests (splitmix64). */
typedef struct { uint64_t s; } pe_rng;
uint64_t pe_rng_next(pe_rng *r);
double pe_rng_uniform(pe_rng *r, double lo, double hi); /* [lo, hi) */
int64_t pe_rng_int(pe_rng *r, int64_t lo, int64_t hi);  /* [lo, hi] */

#define TEST(fn)                                                          \
    static void fn(void);                                                 \
    __attribute__((constructor)) static void pe_register_##fn(void) {     \
        pe_test_register(#fn, fn, __FILE__, __LINE__);                    \
    }                                                                     \
    static void fn(void)

/* Ends the current test as skipped (a failed check before it still fails it). */
#define SKIP(reason)                                                      \
    do {                                                                  \
        pe_test_skip(reason);                                             \
        return;                                                           \
    } while (0)

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (!(cond)) pe_test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
    } while (0)

#define CHECK_MSG(cond, ...)                                              \
    do {                                                                  \
        if (!(cond)) pe_test_fail(__FILE__, __LINE__, __VA_ARGS__);       \
    } while (0)

/* |a - b| <= tol, NaN fails. */
#define CHECK_NEAR(a, b, tol)                                             \
    do {                                                                  \
        double pe_a_ = (double)(a), pe_b_ = (double)(b), pe_t_ = (tol);   \
        if (!(fabs(pe_a_ - pe_b_) <= pe_t_))                              \
            pe_test_fail(__FILE__, __LINE__,                              \
                         "%s = %.17g, %s = %.17g, |diff| = %.3g > %.3g",  \
                         #a, pe_a_, #b, pe_b_, fabs(pe_a_ - pe_b_), pe_t_); \
    } while (0)

#define CHECK_STATUS(expr, want)                                          \
    do {                                                                  \
        int pe_got_ = (expr);                                             \
        if (pe_got_ != (want))                                            \
            pe_test_fail(__FILE__, __LINE__, "%s returned %d (%s: %s), want %d", \
                         #expr, pe_got_, pe_strerror(pe_got_), pe_last_error(), \
                         (int)(want));                                    \
    } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, PE_OK)

/* The call fails with `want` and its detail message contains `needle`. */
#define CHECK_ERROR(expr, want, needle)                                   \
    do {                                                                  \
        CHECK_STATUS(expr, want);                                         \
        CHECK_MSG(strstr(pe_last_error(), (needle)) != NULL,              \
                  "detail \"%s\" lacks \"%s\"", pe_last_error(), (needle)); \
    } while (0)

#endif
