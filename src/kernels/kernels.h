/*
 * kernels.h — the kernel interface: the table of hot loops each instruction
 * set implements, the row and trigonometry records they exchange with the
 * families, and the few helpers every set shares (element sizes, f16/bf16
 * storage, the partial-rotary pass-through, a token's trigonometry).
 *
 * The rule (docs/ARCHITECTURE.md, checked by tests/check_includes.sh): files
 * in src/kernels/ include only this directory, include/posenc.h (the dtype
 * and layout enums) and src/errors.h (dispatch.c reports a refused
 * pe_kernels_select); they know no scheme, family or tensor view. The
 * families reach them through src/internal.h, which includes this header.
 */
#ifndef PE_KERNELS_H
#define PE_KERNELS_H

#include "posenc.h"

#include <stddef.h>
#include <stdint.h>

/* pe_dtype_size, inline: rows are addressed by it on every token. */
static inline size_t pe__dtype_size(pe_dtype dtype) {
    switch (dtype) {
    case PE_F32: return 4;
    case PE_F64: return 8;
    case PE_F16: return 2;
    case PE_BF16: return 2;
    case PE_I64: return 8;
    case PE_I8: return 1;
    }
    return 0;
}

/*
 * The kernel table: the hot loops, one implementation per instruction set
 * (scalar.c always; avx2.c and avx512.c on x86-64, neon.c on AArch64, each
 * compiled with its own -m flags where needed and entered only after
 * dispatch.c has checked the CPU and the OS). Families call these and contain no intrinsics. The scalar set is
 * the reference every other set is tested against (tests/test_kernels.c).
 */

/* One token of a rotation: every head of in into out (in == out in place).
 * Pointers are at head 0; strides are in elements. */
typedef struct {
    const void *in;
    void *out;
    int64_t heads;
    int64_t in_head_stride, out_head_stride;
    int64_t d, head_dim; /* rotate [0, d), pass [d, head_dim) through */
    pe_rope_layout layout;
    pe_dtype dtype; /* PE_F32, PE_F16 or PE_BF16, in and out alike */
    int stream;     /* out of place and large: non-temporal stores allowed,
                     * left unordered by rope_token: only inside a
                     * pe__parallel_chunks chunk, whose end fences them */
    int prefetch;   /* larger than the caches: prefetch the input ahead */
} pe__rope_rows;

/* How far ahead of the row being rotated the vector kernels prefetch: far
 * enough to cover DRAM latency at full bandwidth (8 rows of 128 floats),
 * near enough to stay in L1. Measured on a Xeon (Cascade Lake): in-place
 * rotation of 64 MiB goes from 1.3-1.5x the time of an in-place scale to
 * ~1.0x. On AMD Zen 4 the prefetches made it slower (1.5x against 1.05x
 * without), so whether rows prefetch at all is the CPU's
 * (pe__kernels_prefetch_rows). */
#define PE__PREFETCH_BYTES 4096

/*
 * Cache lines to prefetch on the side of other work: the fused epilogue
 * (rope_fused.c) hands the kernels it calls for one token the input rows
 * of the token two ahead. Its arithmetic (the norm's double sums and
 * float scaling) is long and runs on rows already in L1; prefetching each
 * row a fixed distance ahead of the row being read issues every line of a
 * token in the short pass that first reads it, more than the miss queues
 * hold, so memory waits for that pass and idles during the rest. Spread
 * over all passes, the fetches of token t + 2 run under token t's
 * arithmetic (docs/FUSED.md "Performance").
 *
 * A kernel given a stream takes one step per 16 floats of each of its
 * passes instead of prefetching ahead of its own rows: a step moves `pos`
 * on by `stride` (at most a line, so no line is skipped) and prefetches
 * the line it enters. A kernel keeps pos in a local while it runs
 * (pe__side_step: a register, not a store and reload per step) and hands
 * it back at its end. Prefetching never faults, so addresses are plain
 * integers. Per worker, on its stack: no shared state.
 */
typedef struct {
    uintptr_t pos, end; /* the next address to fetch, the end of the run */
    uintptr_t stride;   /* bytes per step, 1..64 */
} pe__side_prefetch;

/* Whether a step at pos is the first in its line (a stream starts on a
 * line boundary and moves by stride <= 64, so every line gets exactly one
 * prefetch: a step per line, not one per step). */
static inline int pe__side_new_line(uintptr_t pos, uintptr_t stride) {
    return (pos & 63) < stride;
}

/* Into L2, not L1 (prefetcht1): prefetcht0 lines of a later token meet
 * the rows being worked on in a 32 KiB L1d, and on the Zen 4 EPYC the
 * fused epilogue ran at 1.83 - 2.27x the copy with prefetcht0 against
 * 1.32 - 1.41x with prefetcht1 (fused_qkv_4096, one token ahead; 1.40 -
 * 1.52x against 1.86 - 2.10x two tokens ahead). */
static inline void pe__side_step(uintptr_t *pos, uintptr_t end, uintptr_t stride) {
    if (*pos < end) {
        if (pe__side_new_line(*pos, stride)) __builtin_prefetch((const void *)*pos, 0, 2);
        *pos += stride;
    }
}

/* `steps` steps of a stream at once (the scalar sets, after a pass). */
static inline void pe__side_steps(pe__side_prefetch *s, int64_t steps) {
    for (; steps > 0; steps--) pe__side_step(&s->pos, s->end, s->stride);
}

/*
 * One token's trigonometry, written by pe__rope_prepare (a set's
 * rope_tables, or its exact fallback) or by a set's rope_prepare_cs, and
 * read by the same set's rope_token: the scalar set keeps c and s (double,
 * sin already negated for the inverse), the vector sets their float tables
 * in tab and, for the next token, c and s of this position (unsigned, no
 * magnitude).
 *
 * Consecutive positions: when `follows` is set and p == at + 1, a set with
 * `steps` steps c and s by one angle addition with c1, s1 = cos, sin of one
 * position (exact, computed on first use; step_ready) instead of
 * evaluating them afresh: 8 operations per pair instead of ~40. Each step
 * adds < 5e-16, and the caller clears `follows` at least every
 * PE__ROPE_RESTART tokens (at fixed token indices, so results do not
 * depend on how tokens are split between threads).
 */
typedef struct {
    double *c, *s;    /* [d/2] each */
    double *c1, *s1;  /* [d/2] each: one position's step */
    float *tab;       /* [PE__ROPE_TAB_FLOATS(d)] */
    double magnitude; /* A (1/A for the inverse), set by the caller */
    int64_t at;       /* the position c and s hold (after pe__rope_prepare) */
    int follows;      /* caller: c, s may be stepped from `at` */
    int step_ready;   /* c1, s1 hold the step (0 in a fresh struct: per chunk) */
} pe__rope_trig;

/* Tokens between fresh evaluations of cos/sin in a vector set. */
#define PE__ROPE_RESTART 32

/* Floats of tab for rotary dim d: two tables of d floats at most. */
#define PE__ROPE_TAB_FLOATS(d) (2 * (size_t)(d))

typedef struct {
    const char *name;
    /* For one position p and n pairs: c[i] = cos(p w_i), s[i] = sin(p w_i)
     * with w_i = w[i] + w_lo[i], the angle formed and reduced modulo 2 pi in
     * extended precision. Every set: within 1e-15 of the exact value of the
     * double-double frequency for |p w| < 2^40. */
    void (*cos_sin)(int64_t p, const double *w, const double *w_lo, int64_t n,
                    double *c, double *s);
    /* The same rounded to float: c[i] == (float)(cos_sin's c[i]) of the same
     * set, so f32 caches agree with f64 ones. */
    void (*cos_sin_f32)(int64_t p, const double *w, const double *w_lo,
                        int64_t n, float *c, float *s);
    /* 1 if rope_tables can step consecutive positions (vector sets). */
    int steps;
    /* A token's trigonometry for rope_token from its position: n = d/2
     * pairs of frequencies w + w_lo, sin negated when `negate` (inverse and
     * backward), t->magnitude folded in as the set needs; with `step` (only
     * asked of sets with `steps`), from the previous position's c, s stepped
     * by c1, s1. The angle is exact as in cos_sin; vector sets round
     * cos/sin to what their f32 tables need (within 7.1e-12, vecmath.h) at
     * a fraction of cos_sin's cost. Returns 0, or nonzero when some pair is
     * outside the set's fast range (|p| or |p w| >= 2^40): the caller then
     * takes the exact path (pe__rope_prepare). */
    int (*rope_tables)(int step, int64_t p, const double *w, const double *w_lo, int64_t n,
                       pe_rope_layout layout, int negate, pe__rope_trig *t);
    /* The same from given cos and sin (n each; M-RoPE's per-axis angles). */
    void (*rope_prepare_cs)(const double *c, const double *s, int64_t n,
                            pe_rope_layout layout, int negate, pe__rope_trig *t);
    /* rope_prepare_cs of float cos and sin (a caller's contiguous f32
     * table row), bit for bit as if widened to double first, without the
     * scalar widening loop per token (rope_table_4096). */
    void (*rope_prepare_cs_f32)(const float *c, const float *s, int64_t n,
                                pe_rope_layout layout, int negate, pe__rope_trig *t);
    /* Rotate elements [0, d) of every head of one token with the
     * trigonometry prepared above for the same d and layout (elements
     * [d, head_dim) are the caller's: pe__rope_pass_through). */
    void (*rope_token)(const pe__rope_rows *rows, const pe__rope_trig *t);
    /* 1 if every w[i] is in [0, PE_MAX_INV_FREQ] and every |w_lo[i]| <= w[i] 2^-52
     * (a low part), else 0: pe_freqs_validate's test, run on every
     * rotation, a one-token decode step included. */
    int (*freqs_ok)(const double *w, const double *w_lo, int64_t n);
    /* One ALiBi bias row for a query at key position qpos: out[j] =
     * -m |qpos - j| for j < n (computed in double, rounded once to f32 when
     * f32), +0 on the diagonal, -inf past it when causal. Bit-identical
     * across sets. */
    void (*alibi_row)(double m, int64_t qpos, int64_t n, int causal, void *out,
                      pe_dtype dtype);
    /* table[pos[r]] += grad[r] for r < n rows of dim elements, rows in
     * order (bit-identical across sets: the same additions in the same
     * order per element). */
    void (*scatter_add_f32)(float *table, int64_t dim, const int64_t *pos,
                            int64_t n, const float *grad);
    /* out[i] = in[i] for i < n stored as dtype (PE_F32: a copy; PE_F16,
     * PE_BF16: rounded to nearest even exactly as pe__f32_to_f16 /
     * pe__f32_to_bf16): the fused epilogue's cache stores
     * (rope_fused.c). Bit-identical across sets. stream: non-temporal
     * stores where out is aligned for them (left unordered, as rope_token's:
     * the chunk's end fences them). With a side stream (not NULL) the set
     * steps it instead of prefetching ahead of in. */
    void (*narrow_f32)(const float *in, void *out, int64_t n, pe_dtype dtype, int stream,
                       pe__side_prefetch *side);
    /* RMSNorm of `heads` heads of n floats (x + h x_stride) with weight w
     * (1 + w when one_plus) into y + h n, exactly as pe__rms_norm
     * (kernels/scalar.c) defines it: bit-identical across sets. Heads are
     * independent, so a set may interleave them (the chain of one head's
     * sum, sqrt and division is long). With a side stream (not NULL) the
     * set steps it in the sums and in the scaling instead of prefetching
     * ahead of x. */
    void (*rms_norm)(const float *x, int64_t heads, int64_t x_stride, int64_t n,
                     const float *w, int one_plus, double eps, float *y,
                     pe__side_prefetch *side);
} pe_kernel_table;

extern const pe_kernel_table pe__kernels_scalar;
#if defined(__x86_64__)
extern const pe_kernel_table pe__kernels_avx2;
extern const pe_kernel_table pe__kernels_avx512;
#endif
#if defined(__aarch64__)
extern const pe_kernel_table pe__kernels_neon;
#endif
/* Orders the non-temporal stores a set made for rows with `stream` set
 * (SFENCE; only the x86 sets stream). rope_token leaves them unordered:
 * the scheduler (rope_threads.c) calls this at the end of every chunk. A
 * compiler builtin, not an atomic fence, so ThreadSanitizer builds take it. */
static inline void pe__stream_fence(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#endif
}

/* The active set: chosen once (CPU, OS, PE_ISA), thread-safe, changed only
 * by pe_kernels_select. Callers load it once per call and use that set for
 * the whole call. */
const pe_kernel_table *pe__kernels(void);

/* 1 if rows larger than the caches are prefetched in software on this CPU
 * (pe__rope_rows.prefetch), 0 where the hardware prefetcher does better
 * alone (dispatch.c says where and why); decided once. */
int pe__kernels_prefetch_rows(void);

/* A token's trigonometry at position p through set k: decides whether t
 * follows its previous position (and prepares the step once), calls
 * k->rope_tables, and takes the exact path (cos_sin, then rope_prepare_cs)
 * for pairs outside the fast range. Shared by RoPE and M-RoPE, so their
 * text tokens agree bit for bit; inline, since a decode step is short. */
static inline void pe__rope_prepare(const pe_kernel_table *k, int64_t p, const double *w,
                                    const double *w_lo, int64_t n, pe_rope_layout layout,
                                    int negate, pe__rope_trig *t) {
    const int step = k->steps && t->follows && p != INT64_MIN && p - 1 == t->at;
    t->at = p;
    if (step && !t->step_ready) { /* once per chunk: cos, sin of one position */
        k->cos_sin(1, w, w_lo, n, t->c1, t->s1);
        t->step_ready = 1;
    }
    if (k->rope_tables(step, p, w, w_lo, n, layout, negate, t) == 0) return;
    /* |p| > 2^40, or some |p w| >= 2^40 (huge frequencies): exact cos/sin,
     * kept in c, s, from which the next position can still step */
    k->cos_sin(p, w, w_lo, n, t->c, t->s);
    k->rope_prepare_cs(t->c, t->s, n, layout, negate, t);
}

/* f16 and bf16 storage (half.c): exact widening; narrowing rounds to nearest
 * even (NaN stays NaN, overflow goes to infinity as IEEE says). */
float pe__f16_to_f32(uint16_t h);
uint16_t pe__f32_to_f16(float f);
float pe__bf16_to_f32(uint16_t h);
uint16_t pe__f32_to_bf16(float f);

/* The scalar narrow_f32 of the kernel table (every set without its own). */
void pe__narrow_f32(const float *in, void *out, int64_t n, pe_dtype dtype, int stream,
                    pe__side_prefetch *side);
/* The scalar rms_norm (kernels/scalar.c), and its step from the 8 partial
 * sums of squares to r = fl32(1/sqrt(mean + eps)), inline so that each set
 * compiles it with its own instructions (sqrt and division are correctly
 * rounded in all of them: the same bits). */
void pe__rms_norm(const float *x, int64_t heads, int64_t x_stride, int64_t n, const float *w,
                  int one_plus, double eps, float *y, pe__side_prefetch *side);
static inline float pe__rms_norm_inv(const double s[8], int64_t n, double eps) {
    const double sum = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    return (float)(1.0 / __builtin_sqrt(sum / (double)n + eps));
}

#endif /* PE_KERNELS_H */
