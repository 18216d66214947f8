/* test_shift_bits.c — bit-level invariants of key re-rotation now that
 * pe_rope_shift and pe_rope_rebase are angle sources of the one rotation
 * driver (rope_driver.c): the same bits for 1 and 3 threads and for both
 * vector sets (avx2, avx512), for every kind of delta (one constant, per
 * token consecutive, repeated, scattered, past the fast range) and rebase
 * (a range, packed sequences), f32/f16/bf16, in place on a strided
 * heads-major cache whose padding stays untouched. Two cross-checks tie
 * the stepping to the rotation's: consecutive deltas d0 + t give exactly
 * pe_rope_apply_ex at positions d0, d0 + 1, ... (A = 1), and one constant
 * delta gives exactly a list repeating it (a constant is never "stepped"
 * as if it were the next position). And a rebase refuses packed positions
 * stored inside its output (POS-10). Accuracy against the exact rotation
 * is test_rope_shift.c's. */
#include "runner.h"

#include <stdlib.h>

enum { T = 1024, H = 8, D = 128, PAD = 8, TS = D + PAD, HS = T * TS };
static const size_t N = (size_t)H * HS; /* elements of the padded cache */

/* The kinds of call compared. */
enum { CONSTANT, CONSECUTIVE, REPEATED, SCATTERED, HUGE_STEPS, REBASE_RANGE, REBASE_VARLEN, KINDS };

static size_t esize(pe_dtype dt) { return dt == PE_F32 ? 4 : 2; }

/* Values in [-1, 1) stored as dt (16-bit types: built from their bits). */
static void fill(void *buf, pe_dtype dt, pe_rng *rng) {
    for (size_t i = 0; i < N; i++) {
        const float f = (float)pe_rng_uniform(rng, -1.0, 1.0);
        if (dt == PE_F32) {
            ((float *)buf)[i] = f;
        } else if (dt == PE_BF16) {
            union { float f; uint32_t u; } c = {f};
            ((uint16_t *)buf)[i] = (uint16_t)(c.u >> 16);
        } else { /* f16 in [2^-5, 1), either sign */
            const uint64_t r = pe_rng_next(rng);
            ((uint16_t *)buf)[i] = (uint16_t)(((r & 1) << 15) | ((10 + (r >> 1) % 5) << 10) |
                                              ((r >> 8) & 0x3ff));
        }
    }
}

/* One call of `kind` in place on the padded (heads, tokens) cache. */
static int run(int kind, pe_dtype dt, void *buf, int threads) {
    static int64_t del[T];
    static const int32_t cu[4] = {0, 300, 300, T};
    static const int64_t starts[3] = {7, 5000, (int64_t)1 << 33};
    for (int64_t t = 0; t < T; t++) {
        switch (kind) {
        case CONSECUTIVE: del[t] = t - 600; break;
        case REPEATED: del[t] = (t / 3) * 5 - 77; break; /* 3 alike, then a jump */
        case SCATTERED: del[t] = (t * 7919) % 200003 - 100000; break;
        case HUGE_STEPS: /* runs of consecutive deltas past 2^40 (the exact path), then back */
            del[t] = t % 50 < 40 ? t + ((int64_t)1 << 40) - 20 : -t;
            break;
        default: del[t] = 0;
        }
    }
    pe_freqs f0, f1;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f0));
    CHECK_OK(pe_freqs_default(D, 500000.0, &f1));
    f0.attention_factor = 1.1;
    f1.attention_factor = 1.25;
    const pe_tensor v = {buf, dt, T, H, D, TS, HS};
    pe_rope_options o = pe_rope_options_default();
    o.threads = threads;
    o.pool = pe_test_pool(threads); /* running workers: the call splits */
    switch (kind) {
    case CONSTANT: return pe_rope_shift(&f0, PE_ROPE_HALF, NULL, -1234567, &v, &v, &o);
    case REBASE_RANGE: {
        const pe_positions ps = pe_positions_range(1000);
        return pe_rope_rebase(&f0, &f1, PE_ROPE_INTERLEAVED, &ps, &v, &v, &o);
    }
    case REBASE_VARLEN: {
        const pe_positions ps = pe_positions_varlen(cu, 3, starts);
        return pe_rope_rebase(&f0, &f1, PE_ROPE_HALF, &ps, &v, &v, &o);
    }
    default: return pe_rope_shift(&f0, PE_ROPE_INTERLEAVED, del, 0, &v, &v, &o);
    }
}

/* Every kind and storage type: threads 1 and 3 agree on each set, the
 * padding is untouched, and avx2 agrees with avx512 bit for bit. */
TEST(shift_and_rebase_bits_across_threads_and_vector_sets) {
    static const char *const sets[] = {"scalar", "avx2", "avx512"};
    static const pe_dtype dts[] = {PE_F32, PE_F16, PE_BF16};
    pe_rng rng = {pe_test_seed()};
    unsigned char *x = malloc(N * 4), *ref = malloc(N * 4), *y = malloc(N * 4),
                  *vec = malloc(N * 4);
    CHECK(x && ref && y && vec);
    for (int di = 0; di < 3; di++) {
        const pe_dtype dt = dts[di];
        const size_t bytes = N * esize(dt);
        for (int kind = 0; kind < KINDS; kind++) {
            fill(x, dt, &rng);
            int have_vec = 0;
            for (int s = 0; s < 3; s++) {
                if (pe_kernels_select(sets[s]) != PE_OK) continue; /* CPU lacks it */
                memcpy(ref, x, bytes);
                CHECK_OK(run(kind, dt, ref, 1));
                CHECK_MSG(memcmp(ref, x, bytes) != 0, "kind %d changed nothing", kind);
                for (size_t i = 0; i < N; i++) { /* padding: bytes of x */
                    if ((i % TS) < D) continue;
                    CHECK(memcmp(ref + i * esize(dt), x + i * esize(dt), esize(dt)) == 0);
                }
                memcpy(y, x, bytes);
                CHECK_OK(run(kind, dt, y, 3));
                CHECK_MSG(memcmp(ref, y, bytes) == 0, "%s dtype %d kind %d: 3 threads differ",
                          sets[s], (int)dt, kind);
                if (s == 0) continue;
                if (have_vec)
                    CHECK_MSG(memcmp(vec, ref, bytes) == 0,
                              "dtype %d kind %d: avx512 differs from avx2", (int)dt, kind);
                memcpy(vec, ref, bytes);
                have_vec = 1;
            }
        }
    }
    CHECK_OK(pe_kernels_select("auto"));
    free(x), free(ref), free(y), free(vec);
}

/* The driver's stepping seen from outside, on every set: consecutive deltas
 * d0 + t are the rotation at positions d0 + t with A = 1, bit for bit, and
 * one constant delta is a list repeating it, bit for bit, for 1 and 3
 * threads. */
TEST(shift_steps_exactly_as_the_rotation) {
    static const char *const sets[] = {"scalar", "avx2", "avx512"};
    pe_rng rng = {pe_test_seed()};
    float *x = malloc(N * 4), *a = malloc(N * 4), *b = malloc(N * 4);
    int64_t *del = malloc(T * sizeof *del);
    CHECK(x && a && b && del);
    fill(x, PE_F32, &rng);
    pe_freqs f;
    CHECK_OK(pe_freqs_default(96, 10000.0, &f)); /* partial rotary: [96, D) pass through */
    const int64_t d0 = -3000;
    for (int s = 0; s < 3; s++) {
        if (pe_kernels_select(sets[s]) != PE_OK) continue;
        for (int th = 1; th <= 3; th += 2) {
            pe_rope_options o = pe_rope_options_default();
            o.threads = th;
            o.pool = pe_test_pool(th);
            const pe_tensor va = {a, PE_F32, T, H, D, TS, HS}, vb = {b, PE_F32, T, H, D, TS, HS};
            for (int64_t t = 0; t < T; t++) del[t] = d0 + t;
            memcpy(a, x, N * 4);
            memcpy(b, x, N * 4);
            CHECK_OK(pe_rope_shift(&f, PE_ROPE_HALF, del, 0, &va, &va, &o));
            const pe_positions ps = pe_positions_range(d0);
            CHECK_OK(pe_rope_apply_ex(&f, PE_ROPE_HALF, &ps, &vb, &vb, PE_ROPE_FORWARD, &o));
            CHECK_MSG(memcmp(a, b, N * 4) == 0, "%s threads %d: consecutive deltas", sets[s], th);
            for (int64_t t = 0; t < T; t++) del[t] = 777;
            memcpy(a, x, N * 4);
            memcpy(b, x, N * 4);
            CHECK_OK(pe_rope_shift(&f, PE_ROPE_INTERLEAVED, NULL, 777, &va, &va, &o));
            CHECK_OK(pe_rope_shift(&f, PE_ROPE_INTERLEAVED, del, 0, &vb, &vb, &o));
            CHECK_MSG(memcmp(a, b, N * 4) == 0, "%s threads %d: constant delta", sets[s], th);
        }
    }
    CHECK_OK(pe_kernels_select("auto"));
    free(x), free(a), free(b), free(del);
}

/* A rebase reads a packed batch's cu_seqlens and seq_starts while it writes
 * rows, so both must lie outside the output view (POS-10, as for the
 * rotation): refused, the cache untouched, when they sit in its padding. */
TEST(rebase_refuses_packed_positions_inside_out) {
    enum { TT = 4, HH = 2, DD = 8, TST = 16, HST = TT * TST };
    float cache[HH * HST], keep[HH * HST];
    for (int i = 0; i < HH * HST; i++) cache[i] = (float)i * 0.01f;
    pe_freqs f0, f1;
    CHECK_OK(pe_freqs_default(DD, 10000.0, &f0));
    CHECK_OK(pe_freqs_default(DD, 20000.0, &f1));
    const pe_tensor v = {cache, PE_F32, TT, HH, DD, TST, HST};
    for (int which = 0; which < 2; which++) {
        /* padding of token 0, head 0: elements [DD, TST), 8-byte aligned */
        int64_t *pad = (int64_t *)(void *)&cache[DD];
        const int64_t cu64[3] = {0, 1, TT}, starts[2] = {3, 9};
        pe_positions ps;
        if (which == 0) {
            memcpy(pad, cu64, sizeof cu64);
            ps = pe_positions_varlen_i64(pad, 2, starts);
        } else {
            memcpy(pad, starts, sizeof starts);
            ps = pe_positions_varlen_i64(cu64, 2, pad);
        }
        memcpy(keep, cache, sizeof cache);
        CHECK_ERROR(pe_rope_rebase(&f0, &f1, PE_ROPE_HALF, &ps, &v, &v, NULL), PE_ERR_SHAPE,
                    "out overlaps positions");
        CHECK(memcmp(cache, keep, sizeof cache) == 0);
    }
}
