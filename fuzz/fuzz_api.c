/*
 * fuzz_api.c — the public API driven with arbitrary shapes, strides,
 * positions and parameters (issue 13: fuzz the API, not just the parsers).
 *
 * Each input is a short program: a sequence of calls, each decoded from the
 * bytes (which call, its dimensions, strides, offsets, dtypes, positions,
 * frequencies and parameters, drawn from tables of boundary values or taken
 * raw). Every view points into one arena (ARENA_BYTES), or claims sizes so
 * large that the library must refuse it; a view that is neither (it would
 * be a real caller bug, reading past the caller's memory) is not passed.
 * After each call the harness checks the library's promises
 * (docs/RELIABILITY.md):
 *   - a rejected call names its reason and leaves the arena, the positions
 *     and every output struct byte-identical;
 *   - an accepted call writes only inside its outputs, its outputs are
 *     finite where the range rule says so (cos/sin within [-1, 1], rotated
 *     pairs keep their norm times A, pass-through elements unchanged), and
 *     no accepted call had overlapping outputs (checked by marking bytes);
 *   - sizes that overflow are refused, never wrapped.
 * Allocations are bounded by the arena; loops by small counts. With
 * PE_FUZZ_DEBUG set, a failing check prints the views it was looking at.
 */
#include "fuzz.h"

#include "posenc.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile uint64_t pe_fuzz_sink;

/* ------------------------------------------------------------- the bytes */

typedef struct {
    const uint8_t *p;
    size_t n;
} reader;

static uint64_t take(reader *r, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) {
        v = v << 8 | (r->n ? *r->p : 0);
        if (r->n) r->p++, r->n--;
    }
    return v;
}

static unsigned u8(reader *r) { return (unsigned)take(r, 1); }

/* A small count (mostly tiny), or a boundary value. */
static int64_t dim(reader *r) {
    static const int64_t edge[] = {0,
                                   -1,
                                   INT64_MAX,
                                   INT64_MIN,
                                   (int64_t)1 << 31,
                                   (int64_t)1 << 32,
                                   (int64_t)1 << 40,
                                   (int64_t)1 << 53,
                                   (int64_t)1 << 60,
                                   (int64_t)1 << 61,
                                   (int64_t)1 << 62,
                                   ((int64_t)1 << 62) + 1,
                                   INT64_MAX / 2,
                                   INT64_MAX / 3,
                                   4097,
                                   65536};
    const unsigned k = u8(r);
    if (k < 200) return k % 12;
    if (k < 232) return (int64_t)(take(r, 1) % 64);
    return edge[(k - 232) % (sizeof edge / sizeof edge[0])];
}

/* A position: small, near the int64 ends, or raw. */
static int64_t position(reader *r) {
    const unsigned k = u8(r);
    if (k < 128) return (int64_t)k - 16;
    if (k < 160) return INT64_MAX - (int64_t)(k - 128);
    if (k < 192) return INT64_MIN + (int64_t)(k - 160);
    if (k < 224) return ((int64_t)1 << (k - 192 + 20)) + (int64_t)take(r, 1);
    return (int64_t)take(r, 8);
}

/* A double: ordinary values, boundaries of the range rule, or raw bits. */
static double real(reader *r) {
    static const double edge[] = {0.0,     -0.0,    1.0,      -1.0,    0.5,     2.0,
                                  10000.0, 1e-300,  1e300,    1e240,   1.01e240, 1e9,
                                  1.01e9,  1e-9,    0.99e-9,  DBL_MAX, 5e-324,  INFINITY,
                                  -INFINITY, NAN,   32.0,     1e-320,  1e200,   1.01e200,
                                  0.1,     8192.0,  1.0000001, 0.999999};
    const unsigned k = u8(r);
    if (k < 96) return edge[k % (sizeof edge / sizeof edge[0])];
    if (k < 192) return (double)(int)(take(r, 1)) / 16.0;
    uint64_t bits = take(r, 8);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* ------------------------------------------------------------- the arena */

#define ARENA_BYTES 8192
#define POS_COUNT 256

static _Alignas(64) unsigned char arena[ARENA_BYTES];
static _Alignas(64) unsigned char before[ARENA_BYTES];
static bool written[ARENA_BYTES]; /* bytes an accepted call may write */
static int64_t ids[POS_COUNT * 3];
static int64_t ids_before[POS_COUNT * 3];

/* Fill the arena with bounded values of every storage type the calls read
 * (|x| <= 4 as f32, f64, f16 or bf16, whichever way the bytes are read). */
static void fill_arena(reader *r) {
    const uint32_t seed = (uint32_t)take(r, 4);
    uint32_t x = seed | 1;
    for (size_t i = 0; i < ARENA_BYTES; i += 4) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        /* 0x3xxx..: f32 in [0.5, 4) or its negative, and each 16-bit half
         * a small f16/bf16 too (exponent bits 0x3x) */
        const uint32_t v = (x & 0x80008000u) | 0x3E003E00u | (x & 0x00FF00FFu);
        memcpy(arena + i, &v, 4);
    }
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        ids[i] = (int64_t)(x % 4096) - 100;
    }
    (void)seed;
}

static void snapshot(void) {
    memcpy(before, arena, ARENA_BYTES);
    memcpy(ids_before, ids, sizeof ids);
    memset(written, 0, sizeof written);
}

/* A rejected call: a named reason, nothing written. */
static void expect_untouched(int status) {
    if (status == PE_OK) return;
    if (pe_last_error()[0] == '\0') abort();
    if (memcmp(before, arena, ARENA_BYTES) != 0) abort();
    if (memcmp(ids_before, ids, sizeof ids) != 0) abort();
}

/* An accepted call wrote nothing outside its outputs. */
static void expect_only_outputs_written(void) {
    for (size_t i = 0; i < ARENA_BYTES; i++)
        if (!written[i] && arena[i] != before[i]) abort();
    if (memcmp(ids_before, ids, sizeof ids) != 0) abort();
}

/* Mark [off, off + n) as an output; false if it was already marked (two
 * outputs, or two rows of one output, share a byte: the call should have
 * been refused). */
static bool mark(size_t off, size_t n) {
    if (off > ARENA_BYTES || n > ARENA_BYTES - off) abort(); /* accepted past the arena */
    for (size_t i = off; i < off + n; i++) {
        if (written[i]) return false;
        written[i] = true;
    }
    return true;
}

/* ------------------------------------------------------------- the views */

/* Size estimates of decoded (possibly absurd) dimensions, in long double:
 * exact below 2^64, never overflowing, so the harness itself has no UB. */
static long double ld3(int64_t a, int64_t b, int64_t c) {
    return (long double)a * (long double)b * (long double)c;
}

/* Plain buffers (caches, encodings, biases) whose byte count passes this
 * certainly overflow size_t and must be refused; between the arena and
 * this, a call would be a caller bug and is not made. (Views have their
 * own bound, 2^61 bytes: place().) */

/* Products of decoded dimensions as a careless caller would form them:
 * wrapping (unsigned), so the library sees the garbage, not the harness. */
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

typedef enum { FITS, HUGE_VIEW, SKIP } view_kind;

/* Where a view of these sizes may point. FITS: inside the arena from byte
 * *off; HUGE_VIEW: its extent cannot be memory (overflows or passes 2^61
 * bytes), so the call must refuse it; SKIP: a real caller bug (a valid
 * view past the caller's buffer), not passed. */
static view_kind place(const pe_tensor *t, size_t want_off, size_t *off) {
    const size_t esz = pe_dtype_size(t->dtype);
    *off = 0;
    if (esz == 0 || t->tokens < 0 || t->heads < 0 || t->head_dim < 0)
        return HUGE_VIEW; /* malformed: must be refused */
    *off = want_off / esz * esz;
    /* an empty view touches nothing: its strides do not matter */
    if (t->tokens == 0 || t->heads == 0 || t->head_dim == 0) return FITS;
    if (t->token_stride < 0 || t->head_stride < 0) return HUGE_VIEW;
    const long double ext = ((long double)(t->tokens - 1) * (long double)t->token_stride +
                             (long double)(t->heads - 1) * (long double)t->head_stride +
                             (long double)t->head_dim) *
                            (long double)esz;
    if (ext > 0x1p61L) return HUGE_VIEW;
    if ((long double)*off + ext <= ARENA_BYTES) return FITS;
    if (ext <= ARENA_BYTES) {
        *off = 0;
        return FITS;
    }
    return SKIP;
}

/* A view decoded from the bytes: shape, strides (dense, padded, or raw),
 * dtype and offset. */
static void decode_view(reader *r, pe_tensor *t, pe_dtype dtype, int64_t tokens, int64_t heads,
                        int64_t head_dim) {
    t->dtype = dtype;
    t->tokens = tokens;
    t->heads = heads;
    t->head_dim = head_dim;
    const unsigned how = u8(r) % 8;
    if (how < 3) { /* dense, via the public constructor */
        *t = pe_tensor_dense(NULL, dtype, tokens, heads, head_dim);
    } else if (how < 5) { /* (heads, tokens, D) */
        t->head_stride = wrap_mul(tokens, head_dim);
        t->token_stride = head_dim;
    } else if (how < 7) { /* padded */
        t->head_stride = (int64_t)((uint64_t)head_dim + u8(r) % 4);
        t->token_stride =
            (int64_t)((uint64_t)wrap_mul(t->head_stride, heads > 0 ? heads : 1) + u8(r) % 4);
    } else { /* anything */
        t->token_stride = dim(r);
        t->head_stride = dim(r);
    }
    if (u8(r) % 16 == 0) t->dtype = (pe_dtype)(u8(r) % 8); /* sometimes a bad dtype */
}

static bool is_finite_elem(const unsigned char *p, pe_dtype dt, double *value) {
    uint16_t h;
    switch (dt) {
    case PE_F32: {
        float f;
        memcpy(&f, p, 4);
        *value = f;
        return isfinite(f);
    }
    case PE_F64: {
        double d;
        memcpy(&d, p, 8);
        *value = d;
        return isfinite(d);
    }
    case PE_F16:
        memcpy(&h, p, 2);
        *value = 0;
        return (h & 0x7C00) != 0x7C00;
    case PE_BF16: {
        memcpy(&h, p, 2);
        const uint32_t bits = (uint32_t)h << 16;
        float f;
        memcpy(&f, &bits, 4);
        *value = f;
        return isfinite(f);
    }
    default:
        *value = 0;
        return true;
    }
}

/* Byte offset of element e of row (t, h). */
static size_t at(const pe_tensor *t, size_t base, int64_t tok, int64_t h, int64_t e) {
    return base + (size_t)((tok * t->token_stride + h * t->head_stride + e) *
                           (int64_t)pe_dtype_size(t->dtype));
}

/* Mark every row of an accepted output view. */
static void mark_view(const pe_tensor *t, size_t base) {
    if (t->tokens == 0 || t->heads == 0 || t->head_dim == 0) return;
    if ((long double)t->tokens * (long double)t->heads > ARENA_BYTES)
        abort(); /* so many rows must overlap */
    const size_t row = (size_t)t->head_dim * pe_dtype_size(t->dtype);
    for (int64_t tok = 0; tok < t->tokens; tok++)
        for (int64_t h = 0; h < t->heads; h++)
            if (!mark(at(t, base, tok, h, 0), row)) { /* overlap accepted */
                if (getenv("PE_FUZZ_DEBUG"))
                    fprintf(stderr, "out T=%lld H=%lld D=%lld ts=%lld hs=%lld dt=%d at %zu row (%lld,%lld)\n",
                            (long long)t->tokens, (long long)t->heads, (long long)t->head_dim,
                            (long long)t->token_stride, (long long)t->head_stride, (int)t->dtype,
                            base, (long long)tok, (long long)h);
                abort();
            }
}

/* An input view of an accepted call: none of its bytes is an output's. */
static void expect_apart_from_outputs(const pe_tensor *t, size_t base) {
    if (t->tokens == 0 || t->heads == 0 || t->head_dim == 0) return;
    if (ld3(t->tokens, t->heads, 1) > ARENA_BYTES) abort();
    const size_t row = (size_t)t->head_dim * pe_dtype_size(t->dtype);
    for (int64_t tok = 0; tok < t->tokens; tok++)
        for (int64_t h = 0; h < t->heads; h++)
            for (size_t b = 0; b < row; b++)
                if (written[at(t, base, tok, h, 0) + b]) {
                    if (getenv("PE_FUZZ_DEBUG"))
                        fprintf(stderr, "input T=%lld H=%lld D=%lld ts=%lld hs=%lld dt=%d at %zu row (%lld,%lld)\n",
                                (long long)t->tokens, (long long)t->heads, (long long)t->head_dim,
                                (long long)t->token_stride, (long long)t->head_stride, (int)t->dtype,
                                base, (long long)tok, (long long)h);
                    abort();
                }
}

/* ---------------------------------------------------------- frequencies */

static pe_freqs freqs;

/* Default frequencies of a decoded (d, base), or hand-made ones. Returns
 * whether freqs are usable for a call that should then succeed on them. */
static void decode_freqs(reader *r) {
    const unsigned how = u8(r) % 4;
    int64_t d = 2 * (1 + (int64_t)(u8(r) % 12));
    if (u8(r) % 32 == 0) d = dim(r);
    if (how < 2) {
        if (pe_freqs_default(d, how == 0 ? 10000.0 : real(r), &freqs) != PE_OK)
            pe_freqs_default(8, 10000.0, &freqs);
    } else {
        memset(&freqs, 0, sizeof freqs);
        freqs.rotary_dim = d;
        freqs.attention_factor = how == 2 ? 1.0 : real(r);
        freqs.softmax_scale_multiplier = 1.0;
        for (int64_t i = 0; i < 24 && i < PE_MAX_PAIRS; i++)
            freqs.inv_freq[i] = u8(r) < 200 ? (double)u8(r) / 64.0 : real(r);
    }
}

/* The range rule, checked independently of pe_freqs_validate. */
static bool freqs_in_range(const pe_freqs *f) {
    if (f->rotary_dim < 2 || f->rotary_dim > PE_MAX_ROTARY_DIM || f->rotary_dim % 2) return false;
    if (!(f->attention_factor >= 1.0 / PE_MAX_ATTENTION_FACTOR &&
          f->attention_factor <= PE_MAX_ATTENTION_FACTOR))
        return false;
    for (int64_t i = 0; i < f->rotary_dim / 2; i++)
        if (!(f->inv_freq[i] >= 0 && f->inv_freq[i] <= PE_MAX_INV_FREQ)) return false;
    return true;
}

/* ------------------------------------------------------------ the calls */

static pe_positions decode_positions(reader *r, int64_t count) {
    const unsigned how = u8(r) % 4;
    if (how == 0) return pe_positions_range(position(r));
    if (how == 1) return pe_positions_range(0);
    /* explicit: the harness's table, a few entries set to boundary values */
    if (count <= POS_COUNT)
        for (int k = 0; k < 4; k++) ids[u8(r) % POS_COUNT] = position(r);
    if (how == 3 && count > 0 && count <= ARENA_BYTES / 8) { /* inside the arena: may alias out */
        const size_t room = ARENA_BYTES - (size_t)count * 8;
        return pe_positions_list((const int64_t *)(void *)(arena + (u8(r) * 64u) % (room + 1) / 8 * 8));
    }
    return pe_positions_list(count <= POS_COUNT ? ids : NULL);
}

/* Every rotated pair keeps its norm times the magnitude; elements past
 * rotary_dim are copied. f32 only (the 16-bit types round on store). */
static void check_rotation(const pe_tensor *in, size_t in_off, const pe_tensor *out,
                           size_t out_off, pe_rope_layout layout, pe_rope_direction dir) {
    if (out->dtype != PE_F32 || out->tokens == 0 || out->heads == 0 ||
        ld3(out->tokens, out->heads, 1) > ARENA_BYTES)
        return;
    const double A = dir == PE_ROPE_INVERSE ? 1.0 / freqs.attention_factor
                                            : freqs.attention_factor;
    const int64_t half = freqs.rotary_dim / 2;
    for (int64_t t = 0; t < out->tokens; t++)
        for (int64_t h = 0; h < out->heads; h++) {
            for (int64_t i = 0; i < half; i++) {
                const int64_t ia = layout == PE_ROPE_HALF ? i : 2 * i;
                const int64_t ib = layout == PE_ROPE_HALF ? i + half : 2 * i + 1;
                float a, b, a2, b2;
                memcpy(&a, before + at(in, in_off, t, h, ia), 4);
                memcpy(&b, before + at(in, in_off, t, h, ib), 4);
                memcpy(&a2, arena + at(out, out_off, t, h, ia), 4);
                memcpy(&b2, arena + at(out, out_off, t, h, ib), 4);
                const double n0 = A * hypot(a, b), n1 = hypot(a2, b2);
                if (n0 < 1e30 && !(fabs(n1 - n0) <= 1e-5 * n0 + 1e-30)) abort();
            }
            for (int64_t e = freqs.rotary_dim; e < out->head_dim; e++)
                if (memcmp(before + at(in, in_off, t, h, e), arena + at(out, out_off, t, h, e),
                           4) != 0)
                    abort();
        }
}

/* Finite outputs where the inputs (|x| <= 4) and A say they must be. */
static void check_finite_view(const pe_tensor *t, size_t off) {
    if (t->tokens == 0 || t->heads == 0 || ld3(t->tokens, t->heads, 1) > ARENA_BYTES) return;
    const double A = fmax(freqs.attention_factor, 1.0 / freqs.attention_factor);
    const double limit = t->dtype == PE_F16 ? 65504.0 : FLT_MAX;
    if (A * 8.0 * 1.01 >= limit) return; /* overflow to inf is then IEEE's answer */
    for (int64_t tok = 0; tok < t->tokens; tok++)
        for (int64_t h = 0; h < t->heads; h++)
            for (int64_t e = 0; e < t->head_dim; e++) {
                double v;
                if (!is_finite_elem(arena + at(t, off, tok, h, e), t->dtype, &v)) {
                    if (getenv("PE_FUZZ_DEBUG"))
                        fprintf(stderr, "non-finite: T=%lld H=%lld D=%lld dt=%d A=%g (%lld,%lld,%lld) w0=%g\n",
                                (long long)t->tokens, (long long)t->heads, (long long)t->head_dim,
                                (int)t->dtype, freqs.attention_factor, (long long)tok, (long long)h,
                                (long long)e, freqs.inv_freq[0]);
                    abort();
                }
            }
}

static void call_rope(reader *r, bool qk) {
    decode_freqs(r);
    const int64_t T = dim(r), H = dim(r), H2 = dim(r);
    int64_t D = wrap_add(freqs.rotary_dim, 2 * (int64_t)(u8(r) % 3));
    if (u8(r) % 16 == 0) D = dim(r);
    static const pe_dtype types[] = {PE_F32, PE_F32, PE_F16, PE_BF16};
    const pe_dtype dt = types[u8(r) % 4], dt2 = types[u8(r) % 4];
    pe_tensor v[4]; /* in, out, k_in, k_out */
    size_t off[4];
    view_kind kind[4];
    const int n = qk ? 4 : 2;
    bool huge = false;
    for (int i = 0; i < n; i++) {
        decode_view(r, &v[i], i < 2 ? dt : dt2, T, i < 2 ? H : H2, D);
        kind[i] = place(&v[i], (size_t)take(r, 2) % ARENA_BYTES, &off[i]);
        if (kind[i] == SKIP) return;
        v[i].data = arena + off[i];
    }
    /* in place: the very same view */
    if (u8(r) % 3 == 0) v[1] = v[0], off[1] = off[0], kind[1] = kind[0];
    if (qk && u8(r) % 3 == 0) v[3] = v[2], off[3] = off[2], kind[3] = kind[2];
    for (int i = 0; i < n; i++) huge |= kind[i] == HUGE_VIEW;
    const pe_positions pos = decode_positions(r, T);
    const pe_rope_layout layout = (pe_rope_layout)(u8(r) % 3);
    const pe_rope_direction dir = (pe_rope_direction)(u8(r) % 4);
    pe_rope_options o = pe_rope_options_default();
    o.threads = 1 + (int)(u8(r) % 4);
    o.stores = (pe_store_policy)(u8(r) % 4);
    snapshot();
    const int st = qk ? pe_rope_apply_qk(&freqs, layout, &pos, &v[0], &v[1], &v[2], &v[3], dir, &o)
                      : pe_rope_apply_ex(&freqs, layout, &pos, &v[0], &v[1], dir, &o);
    expect_untouched(st);
    if (getenv("PE_FUZZ_DEBUG"))
        for (int i = 0; i < n; i++)
            fprintf(stderr, "call qk=%d st=%d view %d: %p T=%lld H=%lld D=%lld ts=%lld hs=%lld dt=%d\n", qk, st, i,
                    v[i].data, (long long)v[i].tokens, (long long)v[i].heads, (long long)v[i].head_dim,
                    (long long)v[i].token_stride, (long long)v[i].head_stride, (int)v[i].dtype);
    if (st != PE_OK) return;
    if (huge || !freqs_in_range(&freqs)) {
        if (getenv("PE_FUZZ_DEBUG"))
            for (int i = 0; i < n; i++)
                fprintf(stderr, "view %d: T=%lld H=%lld D=%lld ts=%lld hs=%lld dt=%d huge=%d A=%g d=%lld\n", i,
                        (long long)v[i].tokens, (long long)v[i].heads, (long long)v[i].head_dim,
                        (long long)v[i].token_stride, (long long)v[i].head_stride, (int)v[i].dtype,
                        huge, freqs.attention_factor, (long long)freqs.rotary_dim);
        abort(); /* accepted what must be refused */
    }
    mark_view(&v[1], off[1]);
    if (qk) mark_view(&v[3], off[3]);
    expect_only_outputs_written();
    /* no input read by the call shares a byte with an output, unless it is
     * that output's own in-place view */
    for (int i = 0; i < n; i += 2)
        if (!(v[i].data == v[i + 1].data &&
              (v[i].tokens <= 1 || v[i].token_stride == v[i + 1].token_stride) &&
              (v[i].heads <= 1 || v[i].head_stride == v[i + 1].head_stride)))
            expect_apart_from_outputs(&v[i], off[i]);
    if (pos.ids != NULL && (const unsigned char *)pos.ids >= arena &&
        (const unsigned char *)pos.ids < arena + ARENA_BYTES)
        for (size_t b = 0; b < (size_t)T * 8; b++)
            if (written[(size_t)((const unsigned char *)pos.ids - arena) + b]) abort();
    /* outputs disjoint from inputs unless in place: compare with the
     * snapshot of the inputs */
    check_finite_view(&v[1], off[1]);
    check_rotation(&v[0], off[0], &v[1], off[1], layout, dir);
    if (qk) {
        check_finite_view(&v[3], off[3]);
        check_rotation(&v[2], off[2], &v[3], off[3], layout, dir);
    }
}

/* cos/sin outputs at [off, off + bytes) each: mark and check |x| <= 1. */
static void check_cache(size_t off_c, size_t off_s, size_t count, pe_dtype dt) {
    const size_t esz = pe_dtype_size(dt);
    if (!mark(off_c, count * esz) || !mark(off_s, count * esz)) abort();
    for (size_t i = 0; i < count; i++)
        for (int w = 0; w < 2; w++) {
            double v;
            if (!is_finite_elem(arena + (w ? off_s : off_c) + i * esz, dt, &v) ||
                !(fabs(v) <= 1.0))
                abort();
        }
}

static void call_cos_sin(reader *r, bool mrope) {
    decode_freqs(r);
    const int64_t count = dim(r), half = freqs.rotary_dim / 2;
    const pe_dtype dt = (pe_dtype)(u8(r) % 3);
    const size_t off_c = (size_t)take(r, 2) % ARENA_BYTES / 8 * 8,
                 off_s = (size_t)take(r, 2) % ARENA_BYTES / 8 * 8;
    const long double bytes = ld3(count, half, 8);
    const bool fits = count >= 0 && half >= 0 && bytes + off_c <= ARENA_BYTES &&
                      bytes + off_s <= ARENA_BYTES && count <= POS_COUNT;
    const bool huge = count < 0 || bytes > 0x1p65L;
    if (!fits && !huge) return;
    int64_t sections[3] = {dim(r), dim(r), dim(r)};
    if (u8(r) % 2)
        sections[0] = (int64_t)((uint64_t)half - (uint64_t)sections[1] - (uint64_t)sections[2]);
    const pe_mrope_mode mode = (pe_mrope_mode)(u8(r) % 3);
    pe_positions pos = decode_positions(r, count);
    if (pos.ids == NULL) pos = pe_positions_range(position(r));
    pe_rope_options o = pe_rope_options_default();
    o.threads = 1 + (int)(u8(r) % 3);
    snapshot();
    const int st = mrope ? pe_mrope_cos_sin(&freqs, ids, count, sections, mode, arena + off_c,
                                            arena + off_s, dt)
                         : pe_rope_cos_sin_ex(&freqs, &pos, count, arena + off_c, arena + off_s,
                                              dt, &o);
    expect_untouched(st);
    if (st != PE_OK) return;
    if (!fits || !freqs_in_range(&freqs)) abort();
    check_cache(off_c, off_s, (size_t)(count * half), dt);
    expect_only_outputs_written();
}

static void call_mrope(reader *r) {
    decode_freqs(r);
    const int64_t T = dim(r) % (POS_COUNT + 1), H = dim(r), half = freqs.rotary_dim / 2;
    const int64_t D = wrap_add(freqs.rotary_dim, 2 * (int64_t)(u8(r) % 2));
    pe_tensor v[2];
    size_t off[2];
    for (int i = 0; i < 2; i++) {
        decode_view(r, &v[i], PE_F32, T, H, D);
        if (place(&v[i], (size_t)take(r, 2) % ARENA_BYTES, &off[i]) != FITS) return;
        v[i].data = arena + off[i];
    }
    if (u8(r) % 3 == 0) v[1] = v[0], off[1] = off[0];
    int64_t sections[3] = {dim(r) % 8, dim(r) % 8, 0};
    sections[2] = wrap_add(half, -(sections[0] + sections[1]));
    if (u8(r) % 8 == 0) sections[2] = dim(r);
    for (int k = 0; k < 4; k++) ids[u8(r) % (3 * POS_COUNT)] = position(r);
    const int64_t *p = u8(r) % 8 == 0 ? (const int64_t *)(void *)arena : ids;
    const pe_mrope_mode mode = (pe_mrope_mode)(u8(r) % 2);
    const pe_rope_direction dir = (pe_rope_direction)(u8(r) % 3);
    const pe_rope_layout layout = (pe_rope_layout)(u8(r) % 2);
    snapshot();
    const int st = pe_mrope_apply(&freqs, layout, p, sections, mode, &v[0], &v[1], dir);
    expect_untouched(st);
    if (st != PE_OK) return;
    mark_view(&v[1], off[1]);
    expect_only_outputs_written();
    check_finite_view(&v[1], off[1]);
    check_rotation(&v[0], off[0], &v[1], off[1], layout, dir);
}

/* Generators: accepted parameters give frequencies in range, whose caches
 * at the int64 extremes are cos/sin values. */
static void call_scaling(reader *r) {
    pe_rope_scaling s = pe_rope_scaling_defaults((pe_scaling_type)(u8(r) % 10),
                                                 2 * (1 + (int64_t)(u8(r) % 16)));
    if (u8(r) % 4 == 0) s.rotary_dim = s.head_dim - 2 * (int64_t)(u8(r) % 3);
    const unsigned fields = u8(r);
    if (fields & 1) s.base = real(r);
    if (fields & 2) s.factor = real(r);
    if (fields & 4) s.original_max_position = dim(r);
    if (fields & 8) s.max_position = dim(r);
    if (fields & 16) s.seq_len = dim(r);
    if (fields & 32) s.beta_fast = real(r), s.beta_slow = real(r);
    if (fields & 64) s.mscale = real(r), s.mscale_all_dim = real(r);
    if (fields & 128) s.attention_factor = real(r);
    if (u8(r) % 2) s.low_freq_factor = real(r), s.high_freq_factor = real(r);
    double lists[3][PE_MAX_PAIRS];
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < 32; i++) lists[l][i] = u8(r) < 200 ? 0.5 + u8(r) / 32.0 : real(r);
    s.short_factor = lists[0], s.long_factor = lists[1], s.divisors = lists[2];
    s.n_short_factor = s.n_long_factor = s.n_divisors = s.rotary_dim / 2;
    pe_freqs f, poison;
    double weight[PE_MAX_PAIRS], weight_before[PE_MAX_PAIRS];
    memset(&f, 0x5A, sizeof f);
    poison = f;
    memset(weight, 0x5A, sizeof weight);
    memcpy(weight_before, weight, sizeof weight);
    const int st = pe_freqs_from_scaling(&s, &f, weight);
    if (st != PE_OK) {
        if (pe_last_error()[0] == '\0' || memcmp(&f, &poison, sizeof f) != 0 ||
            memcmp(weight, weight_before, sizeof weight) != 0)
            abort();
        return;
    }
    if (!freqs_in_range(&f) || !(f.softmax_scale_multiplier > 0) ||
        !isfinite(f.softmax_scale_multiplier))
        abort();
    const int64_t p[4] = {INT64_MAX, INT64_MIN, position(r), 1};
    pe_positions pos = pe_positions_list(p);
    double c[4 * PE_MAX_PAIRS], sn[4 * PE_MAX_PAIRS];
    if (pe_rope_cos_sin(&f, &pos, 4, c, sn, PE_F64) != PE_OK) abort();
    for (int64_t i = 0; i < 4 * (f.rotary_dim / 2); i++)
        if (!(fabs(c[i]) <= 1.0 && fabs(sn[i]) <= 1.0)) abort();
    pe_fuzz_consume(c, sizeof(double) * (size_t)(4 * (f.rotary_dim / 2)));
}

static void call_additive(reader *r) {
    pe_additive_params p = pe_additive_defaults((pe_additive_scheme)(u8(r) % 5), dim(r));
    if (u8(r) % 2) p.scale = real(r);
    if (u8(r) % 2) p.base = real(r);
    p.length = dim(r);
    p.layout = (pe_sin_layout)(u8(r) % 3);
    p.convention = (pe_sin_convention)(u8(r) % 3);
    const int64_t count = dim(r);
    const pe_dtype dt = (pe_dtype)(u8(r) % 3);
    const size_t esz = pe_dtype_size(dt);
    const size_t off = (size_t)take(r, 2) % ARENA_BYTES / 8 * 8;
    const long double bytes = ld3(count, p.dim, esz ? (int64_t)esz : 8);
    const bool fits = count >= 0 && p.dim >= 0 && bytes + off <= ARENA_BYTES && count <= POS_COUNT;
    if (!fits && !(count < 0 || p.dim < 0 || bytes > 0x1p65L)) return;
    const pe_positions pos = decode_positions(r, count);
    snapshot();
    const int st = pe_additive_encode(&p, &pos, count, arena + off, dt);
    expect_untouched(st);
    if (st == PE_OK) {
        if (!fits) abort();
        if (!mark(off, (size_t)bytes)) abort();
        for (size_t i = 0; i < (size_t)bytes / esz; i++) {
            double v;
            if (!is_finite_elem(arena + off + i * esz, dt, &v)) abort();
        }
        expect_only_outputs_written();
    }
    /* the shift operator on the same params: in place or apart */
    if (p.dim >= 0 && p.dim <= 64) {
        const size_t vo = (size_t)(u8(r) % 64) * 8, oo = u8(r) % 2 ? vo : (size_t)(u8(r) % 64) * 8;
        snapshot();
        const int s2 = pe_shift_apply(&p, position(r), (const double *)(void *)(arena + vo),
                                      (double *)(void *)(arena + oo));
        expect_untouched(s2);
        if (s2 == PE_OK) {
            if (vo != oo && (vo < oo + (size_t)p.dim * 8 && oo < vo + (size_t)p.dim * 8)) abort();
            if (!mark(oo, (size_t)p.dim * 8)) abort();
            expect_only_outputs_written();
        }
    }
}

static void call_bias_attention(reader *r) {
    const unsigned which = u8(r) % 3;
    const int64_t heads = dim(r), nq = dim(r), nk = dim(r);
    const size_t off = (size_t)take(r, 2) % ARENA_BYTES / 8 * 8;
    if (which < 2) {
        const long double bytes = ld3(heads, nq, nk) * 4;
        const bool fits = heads >= 0 && nq >= 0 && nk >= 0 && bytes + off <= ARENA_BYTES;
        if (!fits && !(heads < 0 || nq < 0 || nk < 0 || bytes > 0x1p65L)) return;
        static float table[64 * 64];
        for (int i = 0; i < 64 * 64; i++) table[i] = (float)(i % 7);
        const int64_t nb = dim(r), md = dim(r);
        snapshot();
        const int st = which == 0
                           ? pe_alibi_bias(heads, nq, nk, (pe_alibi_mode)(u8(r) % 3), arena + off,
                                           PE_F32)
                           : (ld3(heads, nb, 1) <= 64 * 64 && heads >= 0 && nb >= 0
                                  ? pe_t5_bias(table, (pe_t5_table_layout)(u8(r) % 3), heads,
                                               (int)(u8(r) % 3) - 0, nb, md, nq, nk,
                                               (float *)(void *)(arena + off))
                                  : PE_OK);
        expect_untouched(st);
        if (st == PE_OK && fits && bytes > 0) {
            if (!mark(off, (size_t)bytes)) abort();
            expect_only_outputs_written();
        }
        return;
    }
    /* attention: q, k, v, out, bias inside the arena */
    pe_attention_params p = pe_attention_params_default(nq, nk, dim(r), dim(r));
    p.scale = real(r);
    p.causal = (int)(u8(r) % 2);
    size_t o[5];
    const long double sz[5] = {ld3(p.n_q, p.dim, 4), ld3(p.n_k, p.dim, 4), ld3(p.n_k, p.dim_v, 4),
                               ld3(p.n_q, p.dim_v, 4), ld3(p.n_q, p.n_k, 4)};
    for (int i = 0; i < 5; i++) {
        o[i] = (size_t)take(r, 2) % ARENA_BYTES / 4 * 4;
        if (p.n_q < 0 || p.n_k < 0 || p.dim < 0 || p.dim_v < 0 || sz[i] + o[i] > ARENA_BYTES)
            return;
    }
    if (u8(r) % 2) p.bias = (const float *)(void *)(arena + o[4]);
    float *q = (float *)(void *)(arena + o[0]), *k = (float *)(void *)(arena + o[1]),
          *v = (float *)(void *)(arena + o[2]), *out = (float *)(void *)(arena + o[3]);
    decode_freqs(r);
    const pe_positions qp = pe_positions_range(position(r)), kp = pe_positions_range(position(r));
    snapshot();
    const int st = u8(r) % 2 ? pe_attention(&p, q, k, v, out)
                             : pe_attention_rope(&p, &freqs, PE_ROPE_HALF, &qp, &kp, q, k, v, out);
    expect_untouched(st);
    if (st != PE_OK) return;
    if (!mark(o[3], (size_t)sz[3])) abort();
    expect_only_outputs_written();
    for (int64_t i = 0; i < p.n_q * p.dim_v; i++)
        if (!isfinite(out[i])) abort();
}

static void call_analysis(reader *r) {
    decode_freqs(r);
    const unsigned which = u8(r) % 4;
    double a[PE_MAX_PAIRS], b[PE_MAX_PAIRS], c[PE_MAX_PAIRS], d[PE_MAX_PAIRS];
    if (which == 0) {
        if (pe_pair_periods(&freqs, position(r), a, b, c, d) == PE_OK)
            for (int64_t i = 0; i < freqs.rotary_dim / 2; i++)
                if (!(c[i] >= 0 && c[i] < 6.3 && !isnan(d[i]))) abort();
    } else if (which == 1) {
        const int64_t lo = 1 + (int64_t)(u8(r) % 64), hi = lo + (int64_t)(u8(r) % 64);
        int64_t offs[16], found = 0;
        if (pe_near_collisions(&freqs, lo, hi, 1 + (int64_t)(u8(r) % 16), offs, a, &found) ==
            PE_OK)
            for (int64_t i = 0; i < found; i++)
                if (!isfinite(a[i]) || offs[i] < lo || offs[i] > hi) abort();
    } else if (which == 2) {
        int64_t offs[8];
        for (int i = 0; i < 8; i++) offs[i] = position(r);
        const int64_t hd = wrap_add(freqs.rotary_dim, 2 * (int64_t)(u8(r) % 2));
        for (int64_t i = 0; i < hd && i < PE_MAX_PAIRS; i++) a[i] = b[i] = 0.25;
        if (pe_rope_score_curve(&freqs, PE_ROPE_HALF, hd, a, b, position(r), offs, 8, c) ==
            PE_OK)
            for (int i = 0; i < 8; i++)
                if (!isfinite(c[i])) abort();
    } else {
        int64_t dist[64];
        pe_hamming_report rep;
        const int64_t start = position(r), count = (int64_t)(u8(r) % 64);
        if (pe_binary_hamming(start, count, dist, &rep) == PE_OK)
            for (int64_t i = 0; i < count; i++)
                if (dist[i] < 1 || dist[i] > 64) abort();
    }
}

static void call_permute(reader *r) {
    const int64_t hd = dim(r), rd = dim(r), rows = dim(r);
    const size_t row_bytes = (size_t)(u8(r) % 8) + (u8(r) % 32 == 0 ? SIZE_MAX / 2 : 0);
    const size_t oi = (size_t)take(r, 2) % ARENA_BYTES, oo = (size_t)take(r, 2) % ARENA_BYTES;
    const long double bytes = (long double)rows * (long double)row_bytes;
    const bool fits = rows >= 0 && bytes + oi <= ARENA_BYTES && bytes + oo <= ARENA_BYTES;
    if (!fits && !(rows < 0 || bytes > 0x1p65L || bytes == 0)) return;
    snapshot();
    const int st = pe_qk_permute_rows(arena + oi, arena + oo, rows, row_bytes, hd, rd,
                                      (pe_rope_layout)(u8(r) % 3));
    expect_untouched(st);
    if (st == PE_OK && bytes > 0) {
        if (!fits || !mark(oo, (size_t)bytes)) abort();
        expect_only_outputs_written();
    }
}

/* ------------------------------------------- issue 26: inputs in the arena */

/* Positions of every kind, their arrays in the harness's table or inside the
 * arena (where they may alias an output and must then be refused): ranges,
 * explicit ids, and packed sequences (cu_seqlens int32 or int64, with or
 * without seq_starts), valid for count tokens. */
static _Alignas(8) int64_t cu_own[8], starts_own[8];
static _Alignas(8) int32_t cu32_own[8];
static pe_positions decode_positions_any(reader *r, int64_t count) {
    const unsigned how = u8(r) % 6;
    if (how < 4 || count < 0 || count > POS_COUNT) return decode_positions(r, count);
    const int64_t n = 1 + (int64_t)(u8(r) % 4);
    int64_t cu[5];
    cu[0] = 0;
    cu[n] = count;
    for (int64_t s = 1; s < n; s++) { /* non-decreasing cuts */
        int64_t c = count > 0 ? (int64_t)(u8(r) % (uint64_t)(count + 1)) : 0;
        cu[s] = c < cu[s - 1] ? cu[s - 1] : c;
    }
    const bool wide = u8(r) % 2, with_starts = u8(r) % 2;
    /* where the arrays live: the harness's own memory or the arena */
    const bool cu_in_arena = u8(r) % 2, starts_in_arena = u8(r) % 2;
    void *cu_at = wide ? (void *)cu_own : (void *)cu32_own;
    int64_t *st_at = starts_own;
    if (cu_in_arena) cu_at = arena + (size_t)(u8(r) * 32u) % (ARENA_BYTES - 64) / 8 * 8;
    if (starts_in_arena) st_at = (int64_t *)(void *)(arena + (size_t)(u8(r) * 32u) % (ARENA_BYTES - 64) / 8 * 8);
    for (int64_t s = 0; s <= n; s++) {
        if (wide) {
            memcpy((unsigned char *)cu_at + 8 * s, &cu[s], 8);
        } else {
            const int32_t v = (int32_t)cu[s];
            memcpy((unsigned char *)cu_at + 4 * s, &v, 4);
        }
    }
    for (int64_t s = 0; s < n; s++) {
        const int64_t v = position(r);
        memcpy(st_at + s, &v, 8);
    }
    pe_positions pos = wide ? pe_positions_varlen_i64((const int64_t *)cu_at, n, with_starts ? st_at : NULL)
                            : pe_positions_varlen((const int32_t *)cu_at, n, with_starts ? st_at : NULL);
    return pos;
}

/* Bytes [p, p + n) inside the arena that an accepted call wrote: a read
 * input shared a byte with an output. */
static void expect_region_unwritten(const void *p, size_t n) {
    const unsigned char *b = p;
    if (p == NULL || b < arena || b >= arena + ARENA_BYTES) return;
    for (size_t i = 0; i < n && (size_t)(b - arena) + i < ARENA_BYTES; i++)
        if (written[(size_t)(b - arena) + i]) abort();
}

/* Every array a pe_positions points at, for count tokens. */
static void expect_positions_unwritten(const pe_positions *pos, int64_t count) {
    if (count <= 0) return;
    if (pos->kind != PE_POSITIONS_VARLEN) {
        expect_region_unwritten(pos->ids, (size_t)count * 8);
        return;
    }
    const size_t n = (size_t)pos->n_seqs;
    expect_region_unwritten(pos->cu_seqlens_i64, (n + 1) * 8);
    expect_region_unwritten(pos->cu_seqlens_i32, (n + 1) * 4);
    expect_region_unwritten(pos->seq_starts, n * 8);
}

/* Every element of an accepted f32/f16/bf16 output finite (int8 always is). */
static void expect_all_finite(const pe_tensor *t, size_t off) {
    if (t->dtype == PE_I8 || t->tokens == 0 || t->heads == 0 || ld3(t->tokens, t->heads, 1) > ARENA_BYTES)
        return;
    for (int64_t tok = 0; tok < t->tokens; tok++)
        for (int64_t h = 0; h < t->heads; h++)
            for (int64_t e = 0; e < t->head_dim; e++) {
                double v;
                if (!is_finite_elem(arena + at(t, off, tok, h, e), t->dtype, &v)) {
                    if (getenv("PE_FUZZ_DEBUG"))
                        fprintf(stderr, "fused non-finite: dt=%d (%lld,%lld,%lld)\n", (int)t->dtype,
                                (long long)tok, (long long)h, (long long)e);
                    abort();
                }
            }
}

/* Every f32 element of an input view, or of n plain floats, within |x| <= 4
 * (the arena's own values, zeros and subnormals): false when a position
 * array the harness wrote into the arena lies under it. */
static bool f32_bounded(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float x;
        memcpy(&x, p + 4 * i, 4);
        if (!(fabsf(x) <= 4.0f)) return false;
    }
    return true;
}

static bool view_bounded(const pe_tensor *t, size_t off) {
    /* an empty view touches nothing (its offset may sit at the arena's end) */
    if (t->tokens == 0 || t->heads == 0 || t->head_dim == 0 || ld3(t->tokens, t->heads, 1) > ARENA_BYTES)
        return true;
    for (int64_t tok = 0; tok < t->tokens; tok++)
        for (int64_t h = 0; h < t->heads; h++)
            if (!f32_bounded(arena + at(t, off, tok, h, 0), (size_t)t->head_dim)) return false;
    return true;
}

/* pe_rope_fused_qkv: six views, optional int8 scales and norm weights, any
 * positions; heads of q and k sometimes zero or subnormal, eps from the
 * boundary table, so the NaN/inf an RMSNorm can make is hunted. */
static void call_fused(reader *r) {
    decode_freqs(r);
    const int64_t T = dim(r) % 9, Hq = 1 + dim(r) % 4, Hkv = 1 + dim(r) % 3;
    const int64_t D = wrap_add(freqs.rotary_dim, 2 * (int64_t)(u8(r) % 2));
    static const pe_dtype out_types[] = {PE_F32, PE_F16, PE_BF16}, cache_types[] = {PE_F32, PE_F16, PE_BF16, PE_I8};
    const pe_dtype qdt = out_types[u8(r) % 3], kdt = cache_types[u8(r) % 4], vdt = cache_types[u8(r) % 4];
    pe_fused_qkv_params p = pe_fused_qkv_params_default();
    pe_tensor *v[8] = {&p.q_in, &p.k_in, &p.v_in, &p.q_out, &p.k_cache, &p.v_cache, &p.k_scale, &p.v_scale};
    const pe_dtype dts[8] = {PE_F32, PE_F32, PE_F32, qdt, kdt, vdt, PE_F32, PE_F32};
    const int64_t heads[8] = {Hq, Hkv, Hkv, Hq, Hkv, Hkv, Hkv, Hkv};
    size_t off[8] = {0};
    const int nv = 6 + (kdt == PE_I8) + (vdt == PE_I8);
    for (int i = 0; i < 8; i++) {
        if (i == 6 && kdt != PE_I8) continue;
        if (i == 7 && vdt != PE_I8) {
            p.v_scale = pe_tensor_dense(NULL, PE_F32, 0, 0, 0);
            continue;
        }
        decode_view(r, v[i], dts[i], T, heads[i], i >= 6 ? 1 : D);
        v[i]->dtype = dts[i]; /* a bad dtype is the generic views' business */
        if (place(v[i], (size_t)take(r, 2) % ARENA_BYTES, &off[i]) != FITS) return;
        v[i]->data = arena + off[i];
    }
    if (kdt != PE_I8) p.k_scale = pe_tensor_dense(NULL, PE_F32, 0, 0, 0);
    (void)nv;
    bool in_place = u8(r) % 3 == 0 && qdt == PE_F32;
    if (in_place) p.q_out = p.q_in, off[3] = off[0];
    /* a q_out decoded onto q_in's very view is in place too (the library's
     * rule: same data, dtype, shape and strides where an axis has > 1) */
    in_place = in_place || (p.q_out.data == p.q_in.data && p.q_out.dtype == p.q_in.dtype &&
                            p.q_out.tokens == p.q_in.tokens && p.q_out.heads == p.q_in.heads &&
                            p.q_out.head_dim == p.q_in.head_dim &&
                            (p.q_in.tokens <= 1 || p.q_out.token_stride == p.q_in.token_stride) &&
                            (p.q_in.heads <= 1 || p.q_out.head_stride == p.q_in.head_stride));
    /* norm weights: none, the harness's, or inside the arena (may alias) */
    static float w_own[PE_MAX_ROTARY_DIM + 8];
    for (int i = 0; i < 2; i++) {
        const unsigned how = u8(r) % 3;
        const float *w = NULL;
        if (how == 1 && D > 0 && D <= PE_MAX_ROTARY_DIM) {
            for (int64_t e = 0; e < D; e++) w_own[e] = (float)(u8(r) % 9) / 4.0f - 1.0f;
            w = w_own;
        } else if (how == 2 && D > 0 && (size_t)D * 4 <= ARENA_BYTES) {
            w = (const float *)(void *)(arena + (size_t)take(r, 2) % (ARENA_BYTES - (size_t)D * 4 + 1) / 4 * 4);
        }
        if (i == 0) p.q_norm_weight = w;
        else p.k_norm_weight = w;
    }
    static const double eps_edge[] = {1e-6, 0.0, 1e-300, 5e-324, PE_MIN_NORM_EPS, 1e-30 / 2, 1.0, 1e300};
    p.norm_eps = u8(r) % 4 == 0 ? real(r) : eps_edge[u8(r) % 8];
    p.norm_weight = (pe_norm_weight)(u8(r) % 2);
    p.threads = 1 + (int)(u8(r) % 4);
    /* zero or subnormal heads in q and k: the case an RMSNorm divides by */
    const unsigned heads_how = u8(r) % 4;
    if (heads_how != 0 && T > 0) {
        const float val = heads_how == 1 ? 0.0f : heads_how == 2 ? 1e-45f : -1e-39f;
        for (int i = 0; i < 2; i++)
            if (ld3(v[i]->tokens, v[i]->heads, 1) <= ARENA_BYTES)
                for (int64_t h = 0; h < v[i]->heads; h++)
                    for (int64_t e = 0; e < D; e++)
                        memcpy(arena + at(v[i], off[i], u8(r) % (uint64_t)T, h, e), &val, 4);
    }
    const pe_positions pos = decode_positions_any(r, T);
    const pe_rope_layout layout = (pe_rope_layout)(u8(r) % 3);
    /* the finite-output promise holds for bounded inputs; positions written
     * into the arena may lie under an input view and make it garbage */
    bool bounded = true;
    for (int i = 0; i < 3; i++) bounded = bounded && view_bounded(v[i], off[i]);
    for (int i = 0; i < 2; i++) {
        const float *w = i == 0 ? p.q_norm_weight : p.k_norm_weight;
        if (w != NULL) bounded = bounded && f32_bounded((const unsigned char *)w, (size_t)D);
    }
    snapshot();
    const int st = pe_rope_fused_qkv(&freqs, layout, &pos, &p);
    expect_untouched(st);
    if (st != PE_OK) return;
    if (!freqs_in_range(&freqs)) abort();
    for (int i = 3; i < 8; i++)
        if (v[i]->data != NULL && !(i == 3 && in_place)) mark_view(v[i], off[i]);
    if (in_place) mark_view(&p.q_in, off[0]);
    expect_only_outputs_written();
    for (int i = 0; i < 3; i++)
        if (!(i == 0 && in_place)) expect_apart_from_outputs(v[i], off[i]);
    expect_region_unwritten(p.q_norm_weight, p.q_norm_weight ? (size_t)D * 4 : 0);
    expect_region_unwritten(p.k_norm_weight, p.k_norm_weight ? (size_t)D * 4 : 0);
    expect_positions_unwritten(&pos, T);
    /* inputs |x| <= 4 (or 0, subnormal), weights |w| <= 4: a normalised head
     * is at most sqrt(D) 5, times A; finite below the storage's largest */
    const double A = fmax(freqs.attention_factor, 1.0 / freqs.attention_factor);
    const double bound = A * 1.5 * (sqrt((double)(D > 0 ? D : 1)) * 5.0 + 4.0);
    if (bounded && bound < 60000.0) {
        expect_all_finite(in_place ? &p.q_in : &p.q_out, in_place ? off[0] : off[3]);
        expect_all_finite(&p.k_cache, off[4]);
        expect_all_finite(&p.v_cache, off[5]);
        if (kdt == PE_I8) expect_all_finite(&p.k_scale, off[6]);
        if (vdt == PE_I8) expect_all_finite(&p.v_scale, off[7]);
    }
}

/* pe_rope_apply_table: the cos/sin table lives in the arena and may alias
 * the output (then refused); positions of any kind. */
static void call_table(reader *r) {
    const int64_t d = 2 * (1 + (int64_t)(u8(r) % 8)), T = dim(r) % 9, H = 1 + dim(r) % 3;
    const int64_t D = d + 2 * (int64_t)(u8(r) % 2), rows = 1 + (int64_t)(u8(r) % 16);
    pe_rope_table tb = pe_rope_table_default();
    tb.rotary_dim = d;
    tb.rows = rows;
    tb.dtype = (pe_dtype)(u8(r) % 4);
    tb.width = (pe_table_width)(u8(r) % 2);
    const int64_t width = tb.width == PE_TABLE_PAIRS ? d / 2 : d;
    tb.row_stride = u8(r) % 2 ? width + (int64_t)(u8(r) % 3) : 0;
    const size_t esz = pe_dtype_size(tb.dtype);
    const size_t tbytes = (size_t)rows * (size_t)(tb.row_stride ? tb.row_stride : width) * esz;
    if (tbytes * 2 > ARENA_BYTES) return;
    tb.cos = arena + (size_t)take(r, 2) % (ARENA_BYTES - tbytes + 1) / 8 * 8;
    tb.sin = arena + (size_t)take(r, 2) % (ARENA_BYTES - tbytes + 1) / 8 * 8;
    pe_tensor v[2];
    size_t off[2];
    for (int i = 0; i < 2; i++) {
        decode_view(r, &v[i], PE_F32, T, H, D);
        v[i].dtype = PE_F32;
        if (place(&v[i], (size_t)take(r, 2) % ARENA_BYTES, &off[i]) != FITS) return;
        v[i].data = arena + off[i];
    }
    if (u8(r) % 3 == 0) v[1] = v[0], off[1] = off[0];
    /* positions index the table's rows: small ones, so some calls succeed */
    pe_positions pos = decode_positions_any(r, T);
    if (pos.kind != PE_POSITIONS_VARLEN && u8(r) % 2) pos = pe_positions_range(u8(r) % (uint64_t)rows);
    const pe_rope_layout layout = (pe_rope_layout)(u8(r) % 2);
    const pe_rope_direction dir = u8(r) % 2 ? PE_ROPE_FORWARD : PE_ROPE_BACKWARD;
    snapshot();
    const int st = pe_rope_apply_table(&tb, layout, &pos, &v[0], &v[1], dir, NULL);
    expect_untouched(st);
    if (st != PE_OK) return;
    mark_view(&v[1], off[1]);
    expect_only_outputs_written();
    if (v[0].data != v[1].data) expect_apart_from_outputs(&v[0], off[0]);
    /* the bytes the table's rows span: the last row ends at its width */
    const size_t read = ((size_t)(rows - 1) * (size_t)(tb.row_stride ? tb.row_stride : width) + (size_t)width) * esz;
    expect_region_unwritten(tb.cos, read);
    expect_region_unwritten(tb.sin, read);
    expect_positions_unwritten(&pos, T);
}

/* pe_additive_encode with packed positions, which may lie inside out. */
static void call_additive_varlen(reader *r) {
    pe_additive_params p = pe_additive_defaults((pe_additive_scheme)(u8(r) % 4), 2 * (1 + (int64_t)(u8(r) % 8)));
    p.length = 1 + (int64_t)(u8(r) % 64);
    const int64_t count = dim(r) % 33;
    const pe_dtype dt = (pe_dtype)(u8(r) % 2);
    const size_t esz = pe_dtype_size(dt), bytes = (size_t)count * (size_t)p.dim * esz;
    if (bytes > ARENA_BYTES) return;
    const size_t off = (size_t)take(r, 2) % (ARENA_BYTES - bytes + 1) / 8 * 8;
    const pe_positions pos = decode_positions_any(r, count);
    snapshot();
    const int st = pe_additive_encode(&p, &pos, count, arena + off, dt);
    expect_untouched(st);
    if (st != PE_OK) return;
    if (!mark(off, bytes)) abort();
    expect_only_outputs_written();
    expect_positions_unwritten(&pos, count);
    for (size_t i = 0; i < bytes / esz; i++) {
        double x;
        if (!is_finite_elem(arena + off + i * esz, dt, &x)) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    for (int calls = 0; calls < 4 && r.n > 0; calls++) {
        fill_arena(&r); /* inputs bounded again: earlier outputs may be anything */
        const unsigned op = u8(&r);
        /* 248..255: the calls added for issue 26 (the selectors below 248
         * decode as before, so the corpus keeps its meaning) */
        if (op >= 248) {
            if (op < 251) call_fused(&r);
            else if (op < 254) call_table(&r);
            else call_additive_varlen(&r);
            continue;
        }
        switch (op % 10) {
        case 0: call_rope(&r, false); break;
        case 1: call_rope(&r, true); break;
        case 2: call_cos_sin(&r, false); break;
        case 3: call_cos_sin(&r, true); break;
        case 4: call_mrope(&r); break;
        case 5: call_scaling(&r); break;
        case 6: call_additive(&r); break;
        case 7: call_bias_attention(&r); break;
        case 8: call_analysis(&r); break;
        default: call_permute(&r); break;
        }
    }
    pe_fuzz_consume(arena, 64);
    return 0;
}
