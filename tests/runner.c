/* runner.c — registry, reporting and main() of the C test harness. */
#include "runner.h"

#include <dirent.h>
#include <math.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 1024

typedef struct {
    const char *name, *file;
    int line;
    pe_test_fn fn;
} test_case;

static test_case tests[MAX_TESTS];
static int n_tests;
static int current_failures;
static int current_used_seed;
static const char *current_skip;
static uint64_t run_seed;
static char fail_log[8192];
static size_t fail_len;

void pe_test_register(const char *name, pe_test_fn fn, const char *file, int line) {
    if (n_tests == MAX_TESTS) {
        fprintf(stderr, "too many tests (raise MAX_TESTS)\n");
        abort();
    }
    tests[n_tests].name = name;
    tests[n_tests].fn = fn;
    tests[n_tests].file = file;
    tests[n_tests].line = line;
    n_tests++;
}

void pe_test_fail(const char *file, int line, const char *fmt, ...) {
    current_failures++;
    if (fail_len + 200 >= sizeof fail_log) return; /* keep the first few */
    fail_len += (size_t)snprintf(fail_log + fail_len, sizeof fail_log - fail_len,
                                 "    %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(fail_log + fail_len, sizeof fail_log - fail_len, fmt, ap);
    va_end(ap);
    if (n > 0) fail_len += (size_t)n;
    if (fail_len >= sizeof fail_log - 2) fail_len = sizeof fail_log - 2;
    fail_log[fail_len++] = '\n';
    fail_log[fail_len] = '\0';
}

void pe_test_skip(const char *reason) { current_skip = reason ? reason : "skipped"; }

int pe_test_failures(void) { return current_failures; }

uint64_t pe_test_seed(void) {
    current_used_seed = 1;
    return run_seed;
}

static pe_pool *test_pools[17];

static void destroy_test_pools(void) {
    for (int i = 0; i < 17; i++) pe_pool_destroy(test_pools[i]), test_pools[i] = NULL;
}

pe_pool *pe_test_pool(int threads) {
    if (threads < 2 || threads > 16) return NULL;
    if (test_pools[threads] == NULL) {
        int any = 0;
        for (int i = 0; i < 17; i++) any |= test_pools[i] != NULL;
        if (pe_pool_create(threads, &test_pools[threads]) != PE_OK) return NULL;
        if (!any) atexit(destroy_test_pools);
    }
    return test_pools[threads];
}

double pe_test_ld_eps(void) {
    volatile long double one = 1.0L, e = 1.0L;
    while (one + e / 2 != one) e /= 2;
    return (double)e;
}

double pe_test_rope_f32_bound(double exact, double own, double partner, double A) {
    own = fabs(own), partner = fabs(partner);
    return ldexp(fabs(exact) + A * (own + 2 * partner), -24) * (1 + 0x1p-20) +
           1e-11 * A * (own + partner);
}

double pe_test_rope_row_bound(const float *x, int64_t j, int64_t d, int interleaved,
                              double exact, double A) {
    const int64_t partner = j >= d ? j : interleaved ? (j ^ 1) : (j + d / 2) % d;
    return pe_test_rope_f32_bound(exact, x[j], x[partner], A);
}

int pe_test_dir_entries(const char *dir) {
    DIR *d = opendir(dir);
    if (d == NULL) return -1;
    int entries = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return entries;
}

uint64_t pe_rng_next(pe_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double pe_rng_uniform(pe_rng *r, double lo, double hi) {
    return lo + (hi - lo) * ((double)(pe_rng_next(r) >> 11) * 0x1p-53);
}

int64_t pe_rng_int(pe_rng *r, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int64_t)(span ? pe_rng_next(r) % span : pe_rng_next(r));
}

static int by_file_line(const void *a, const void *b) {
    const test_case *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : x->line - y->line;
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    const char *env = getenv("PE_TEST_SEED");
    run_seed = env ? strtoull(env, NULL, 0) : 20261121ull;
    qsort(tests, (size_t)n_tests, sizeof tests[0], by_file_line);
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < n_tests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        current_failures = 0;
        current_used_seed = 0;
        current_skip = NULL;
        fail_len = 0;
        fail_log[0] = '\0';
        tests[i].fn();
        char seed[48] = "";
        if (current_used_seed)
            snprintf(seed, sizeof seed, " (seed %llu)", (unsigned long long)run_seed);
        if (current_failures == 0 && current_skip) {
            skipped++;
            printf("skip %s: %s\n", tests[i].name, current_skip);
        } else if (current_failures == 0) {
            passed++;
            printf("ok   %s%s\n", tests[i].name, seed);
        } else {
            failed++;
            printf("FAIL %s%s: %d failed check(s)\n%s", tests[i].name, seed,
                   current_failures, fail_log);
        }
        fflush(stdout);
    }
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed + skipped > 0 ? 0 : 1;
}
