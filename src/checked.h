/*
 * checked.h — the one place where sizes are multiplied and added. Every
 * product or sum of dimensions, strides, counts and byte sizes in the
 * library goes through these helpers, so a size that wraps is an error
 * (PE_ERR_OVERFLOW naming what was being sized), never a short allocation
 * or a signed overflow. Two levels:
 *   - pe__size_mul/add, pe__i64_mul/add, pe__mul_size: bool, inline, for
 *     paths that validate a few sizes per call (a decode step included);
 *   - pe__bytes, pe__alloc: the status-returning forms, which record
 *     "<what>: <a> x <b> x <elem> bytes overflows size_t" themselves.
 * docs/RELIABILITY.md (## Sizes) states the promise and how it is tested.
 */
#ifndef PE_CHECKED_H
#define PE_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* a * b into *out; false on overflow (nothing stored). */
static inline bool pe__size_mul(size_t a, size_t b, size_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}

/* a + b into *out; false on overflow. */
static inline bool pe__size_add(size_t a, size_t b, size_t *out) {
    return !__builtin_add_overflow(a, b, out);
}

/* Signed forms, for element offsets and positions. */
static inline bool pe__i64_mul(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool pe__i64_add(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_add_overflow(a, b, out);
}
static inline bool pe__i64_sub(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_sub_overflow(a, b, out);
}

/*
 * Position arithmetic: any two int64 positions are up to 2^64 - 1 apart, so
 * a distance is unsigned and a range of positions may hold 2^64 of them.
 * These helpers are exact at every int64 (INT64_MIN and INT64_MAX
 * included); docs/RELIABILITY.md (## Positions) states the promise.
 */
/* hi - lo for lo <= hi, exactly (wraps nothing). */
static inline uint64_t pe__pos_distance(int64_t lo, int64_t hi) {
    return (uint64_t)hi - (uint64_t)lo;
}
/* lo + k for a k with lo + k <= INT64_MAX (k <= a distance from lo). */
static inline int64_t pe__pos_advance(int64_t lo, uint64_t k) {
    const uint64_t u = (uint64_t)lo + k; /* modulo 2^64: the true sum's bits */
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}
/* The first offset of part b of nb equal parts of the span + 1 positions
 * lo .. lo + span: floor((span + 1) b / nb), exactly, for 0 <= b <= nb <=
 * 64 (span + 1 may be 2^64: part nb's offset is then 0 modulo 2^64, which
 * minus 1 is the span again). */
static inline uint64_t pe__pos_split(uint64_t span, uint64_t b, uint64_t nb) {
    const uint64_t q = span / nb, r = span % nb;
    return q * b + ((r + 1) * b) / nb;
}

/* a * b of two int64 dimensions into *out; false on size_t overflow or a
 * negative operand. */
static inline bool pe__mul_size(int64_t a, int64_t b, size_t *out) {
    if (a < 0 || b < 0) return false;
    if ((uint64_t)a > SIZE_MAX || (uint64_t)b > SIZE_MAX) return false;
    return pe__size_mul((size_t)a, (size_t)b, out);
}

/* *out = n * m * elem bytes (n, m >= 0 dimensions); PE_OK, or
 * PE_ERR_OVERFLOW recorded as "<what>: n x m x elem bytes overflows
 * size_t" (a negative dimension is PE_ERR_SHAPE). */
int pe__bytes(const char *what, int64_t n, int64_t m, size_t elem, size_t *out);

/* malloc of n * m * elem bytes (at least 1, so that an empty request is not
 * a NULL that looks like a failure) into *out: PE_OK, or the status of
 * pe__bytes, or PE_ERR_NOMEM naming what. *out is NULL on failure. */
int pe__alloc(const char *what, int64_t n, int64_t m, size_t elem, void *out);

#endif
