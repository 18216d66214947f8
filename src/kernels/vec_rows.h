/*
 * vec_rows.h — the kernels' row loops written once over a layer's pe_vf
 * (vec_avx512.h, vec_avx2.h, vec_neon.h; include the layer first), as
 * vec_sincos.h writes cos/sin once over pe_vd: the rotation of a token's
 * rows (both layouts; f32, f16, bf16 storage; plain or streaming stores),
 * the fused epilogue's narrowing stores and its RMSNorm. A set's file
 * includes this header once and puts pe_vrope_token, pe_vnarrow_f32 and
 * pe_vrms_norm in its table.
 *
 * Every lane goes through the same IEEE operations in the same order
 * whatever the layer, its width or a vector boundary, so the sets agree
 * with each other and with the scalar set bit for bit:
 *   rotation  a' = fma(a, ch, -(b sh)),   b' = fma(b, ch, a sh)
 *             (interleaved: x' = fma(x, CH, swap(x) SH), SH negated at
 *             the a' lanes by the tables), rounded once to the storage
 *             type on store;
 *   norm      pe__rms_norm's eight partial sums of squares in double
 *             (x^2 is exact in double, so fma(x, x, s) is its s + x x),
 *             its r, and (x r) w in float.
 * The layers differ only in what they hold in registers (PE_ROWS_MAX_Q,
 * PE_ROWS_GROUP) and how a partial vector is loaded and stored.
 */
#ifndef PE_KERNELS_VEC_ROWS_H
#define PE_KERNELS_VEC_ROWS_H

#ifndef PE_VF_LANES
#error "include a vec_<isa>.h layer before vec_rows.h"
#endif

#include "kernels.h"

#define PE_VF_L PE_VF_LANES
/* A layer may hold more table vectors for an interleaved row than for a
 * half-split part (PE_ROWS_MAX_Q_INTER, at most 16; default the same). */
#ifndef PE_ROWS_MAX_Q_INTER
#define PE_ROWS_MAX_Q_INTER PE_ROWS_MAX_Q
#endif
/* Heads whose sums of squares the norm accumulates together (NA
 * accumulators each, all in registers): independent FMA chains in flight.
 * 8 on AVX-512 measured no faster than 4 (median 1.03x, Zen 4). */
#define PE_NORM_GROUP 4
#define PE_ROWS_Q_ARRAY \
    (PE_ROWS_MAX_Q_INTER > PE_ROWS_MAX_Q ? PE_ROWS_MAX_Q_INTER : PE_ROWS_MAX_Q)

/* Hides a pointer's derivation from the optimiser (no instruction). */
#define PE_VROWS_OPAQUE(p) __asm__("" : "+r"(p))

/*
 * The rows of one token in one block of table vectors held in registers
 * while every head streams through: the loop does only the rows' own loads
 * and stores. Loading the tables inside the loop instead cost up to 3x on
 * cache-resident rows: table loads 4 KiB apart from pending stores to the
 * rows wait for them (4K aliasing). A block is q full vectors at j (q <=
 * PE_ROWS_MAX_Q), or one part of k < PE_VF_LANES lanes (q = 1).
 *
 * Half-split: vector u covers pairs p = j + L u of every head, a at p and
 * b at m + p, tables ch = tab[p], sh = tab[m + p]. Interleaved: vector u
 * covers elements e = j + L u of the span, tables CH = tab[e], SH =
 * tab[2m + e]; a pair never straddles a vector (L is even).
 *
 * The hardware prefetcher alone lags on in-place streams: with `prefetch`
 * one prefetch per 64-byte line the loads read, PE__PREFETCH_BYTES ahead,
 * issued beside the loads (a separate per-row prefetch loop cost more than
 * it saved on rows resident in L2/L3: rope_inplace_512).
 */
PE_VEC_INLINE void pe_vrows_block(const pe__rope_rows *r, const float *tab, int64_t j,
                                  const int q, const int k, const int half, const pe_dtype dt,
                                  const int kind, const int prefetch) {
    /* locals: vector stores may alias *r, which would force reloads */
    const int full = k == PE_VF_L;
    const size_t esz = dt == PE_F32 ? 4 : 2;
    const int64_t m = r->d / 2, sh_at = half ? m : 2 * m, heads = r->heads;
    const size_t is = (size_t)r->in_head_stride * esz, os = (size_t)r->out_head_stride * esz;
    const char *const in0 = r->in;
    char *const out0 = r->out;
    /* vectors per 64-byte line of the rows (16-bit vectors are narrower) */
    const int per_line = 64 / (int)(PE_VF_L * esz) > 0 ? 64 / (int)(PE_VF_L * esz) : 1;
    pe_vf C[PE_ROWS_Q_ARRAY], S[PE_ROWS_Q_ARRAY];
#pragma GCC unroll 16
    for (int u = 0; u < q; u++) {
        C[u] = full ? pe_vf_loadu(tab + j + PE_VF_L * u) : pe_vf_load_part(tab + j, k);
        S[u] = full ? pe_vf_loadu(tab + sh_at + j + PE_VF_L * u)
                    : pe_vf_load_part(tab + sh_at + j, k);
    }
    for (int64_t h = 0; h < heads; h++) {
        /* addresses of existing heads only: stepping past the last one by
         * a huge unused stride would overflow the pointer */
        const char *const in = in0 + (size_t)h * is;
        char *const out = out0 + (size_t)h * os;
        /* the block's part of this head at ia/oa (half-split: a; b at
         * ib/ob), opaque to the optimiser so that every access is one of
         * them plus a constant. Otherwise GCC kept an offset of its own
         * per vector (j and m are not constants), more than the 16 GPRs
         * hold, and reloaded them from the stack at almost every load and
         * store (AVX2: 0.87x the cache-resident time, 0.69x the
         * instructions; docs/PERFORMANCE.md). */
        const char *ia = in + (size_t)j * esz, *ib = in + (size_t)(m + j) * esz;
        char *oa = out + (size_t)j * esz, *ob = out + (size_t)(m + j) * esz;
        PE_VROWS_OPAQUE(ia);
        PE_VROWS_OPAQUE(ib);
        PE_VROWS_OPAQUE(oa);
        PE_VROWS_OPAQUE(ob);
        if (!full) { /* one part: a tail of the span */
            if (prefetch) {
                __builtin_prefetch(in + PE__PREFETCH_BYTES + (size_t)j * esz);
                if (half) __builtin_prefetch(in + PE__PREFETCH_BYTES + (size_t)(m + j) * esz);
            }
            if (half) {
                const pe_vf a = pe_vf_ld_part(in, j, dt, k), b = pe_vf_ld_part(in, m + j, dt, k);
                pe_vf_st_part(out, j, pe_vf_fmsub(a, C[0], pe_vf_mul(b, S[0])), dt, k, kind);
                pe_vf_st_part(out, m + j, pe_vf_fmadd(b, C[0], pe_vf_mul(a, S[0])), dt, k, kind);
            } else {
                const pe_vf x = pe_vf_ld_part(in, j, dt, k);
                pe_vf_st_part(out, j, pe_vf_fmadd(x, C[0], pe_vf_mul(pe_vf_swap_pairs(x), S[0])),
                              dt, k, kind);
            }
            continue;
        }
        if (half) {
            /* per group of vectors: all of a, then all of b, the stores in
             * address order: one sequential stream per row like a plain
             * copy, not a and b alternating (~5% on L3-resident rows,
             * rope_inplace_512). Every load of a group comes before its
             * stores, so in place stays in place. */
            enum { G = PE_ROWS_GROUP };
#pragma GCC unroll 8
            for (int g = 0; g < q; g += G) {
                const int n = q - g < G ? q - g : G;
                pe_vf A[G], B[G];
#pragma GCC unroll 8
                for (int u = 0; u < n; u++) {
                    const int64_t e = PE_VF_L * (g + u);
                    if (prefetch && (g + u) % per_line == 0)
                        __builtin_prefetch(ia + PE__PREFETCH_BYTES + (size_t)e * esz);
                    A[u] = pe_vf_ld(ia, e, dt);
                }
#pragma GCC unroll 8
                for (int u = 0; u < n; u++) {
                    const int64_t e = PE_VF_L * (g + u);
                    if (prefetch && (g + u) % per_line == 0)
                        __builtin_prefetch(ib + PE__PREFETCH_BYTES + (size_t)e * esz);
                    B[u] = pe_vf_ld(ib, e, dt);
                }
#pragma GCC unroll 8
                for (int u = 0; u < n; u += 2) {
                    const int64_t e = PE_VF_L * (g + u);
                    const pe_vf a0 = pe_vf_fmsub(A[u], C[g + u], pe_vf_mul(B[u], S[g + u]));
                    if (u + 1 < n)
                        pe_vf_st2(oa, e, a0,
                                  pe_vf_fmsub(A[u + 1], C[g + u + 1], pe_vf_mul(B[u + 1], S[g + u + 1])),
                                  dt, kind);
                    else
                        pe_vf_st(oa, e, a0, dt, kind);
                }
#pragma GCC unroll 8
                for (int u = 0; u < n; u += 2) {
                    const int64_t e = PE_VF_L * (g + u);
                    const pe_vf b0 = pe_vf_fmadd(B[u], C[g + u], pe_vf_mul(A[u], S[g + u]));
                    if (u + 1 < n)
                        pe_vf_st2(ob, e, b0,
                                  pe_vf_fmadd(B[u + 1], C[g + u + 1], pe_vf_mul(A[u + 1], S[g + u + 1])),
                                  dt, kind);
                    else
                        pe_vf_st(ob, e, b0, dt, kind);
                }
            }
            continue;
        }
        /* interleaved: the partner of each element by a swap within pairs;
         * two vectors per store call (one conversion where the layer has a
         * two-vector one), both loaded before either is stored; addressed
         * from the opaque ia/oa as the half-split parts are (the block's
         * addresses as in + e cost GCC its registers here too: offsets
         * moved through xmm registers, a third more instructions) */
#pragma GCC unroll 16
        for (int u = 0; u < q; u += 2) {
            const int64_t e = PE_VF_L * u;
            if (prefetch && u % per_line == 0)
                __builtin_prefetch(ia + PE__PREFETCH_BYTES + (size_t)e * esz);
            const pe_vf x0 = pe_vf_ld(ia, e, dt);
            const pe_vf y0 = pe_vf_fmadd(x0, C[u], pe_vf_mul(pe_vf_swap_pairs(x0), S[u]));
            if (u + 1 < q) {
                if (prefetch && (u + 1) % per_line == 0)
                    __builtin_prefetch(ia + PE__PREFETCH_BYTES + (size_t)(e + PE_VF_L) * esz);
                const pe_vf x1 = pe_vf_ld(ia, e + PE_VF_L, dt);
                pe_vf_st2(oa, e, y0,
                          pe_vf_fmadd(x1, C[u + 1], pe_vf_mul(pe_vf_swap_pairs(x1), S[u + 1])), dt,
                          kind);
            } else {
                pe_vf_st(oa, e, y0, dt, kind);
            }
        }
    }
}

/* Every head of one token, one layout, storage type and store kind: blocks
 * of PE_ROWS_MAX_Q_INTER (interleaved) or PE_ROWS_MAX_Q vectors (a
 * 128-element interleaved row is one block on AVX-512 and on AVX2: one
 * pass over each head's row, not two), then 4, then 1, then a part. */
PE_VEC_INLINE void pe_vrows(const pe__rope_rows *r, const float *tab, const int half,
                            const pe_dtype dt, const int kind, const int pf) {
    const int64_t len = half ? r->d / 2 : r->d; /* elements per span part */
    int64_t j = 0;
    if (!half && PE_ROWS_MAX_Q_INTER > PE_ROWS_MAX_Q)
        for (; j + PE_ROWS_MAX_Q_INTER * PE_VF_L <= len; j += PE_ROWS_MAX_Q_INTER * PE_VF_L)
            pe_vrows_block(r, tab, j, PE_ROWS_MAX_Q_INTER, PE_VF_L, half, dt, kind, pf);
    for (; j + PE_ROWS_MAX_Q * PE_VF_L <= len; j += PE_ROWS_MAX_Q * PE_VF_L)
        pe_vrows_block(r, tab, j, PE_ROWS_MAX_Q, PE_VF_L, half, dt, kind, pf);
    if (PE_ROWS_MAX_Q > 4)
        for (; j + 4 * PE_VF_L <= len; j += 4 * PE_VF_L)
            pe_vrows_block(r, tab, j, 4, PE_VF_L, half, dt, kind, pf);
    for (; j + PE_VF_L <= len; j += PE_VF_L) pe_vrows_block(r, tab, j, 1, PE_VF_L, half, dt, kind, pf);
    if (j < len) /* a part is never streamed */
        pe_vrows_block(r, tab, j, 1, (int)(len - j), half, dt,
                       kind == PE_ST_STREAM ? PE_ST_PLAIN : kind, pf);
}

/* Prefetching or not is a constant of each copy of the loops, not a test
 * of r->prefetch beside every vector (GCC did not hoist it). */
#define PE_VROWS_FN(name, half, dt, kind)                        \
    static void name(const pe__rope_rows *r, const float *t) {   \
        if (r->prefetch)                                         \
            pe_vrows(r, t, half, dt, kind, 1);                   \
        else                                                     \
            pe_vrows(r, t, half, dt, kind, 0);                   \
    }
PE_VROWS_FN(pe_vrows_half_f32, 1, PE_F32, PE_ST_PLAIN)
PE_VROWS_FN(pe_vrows_half_f16, 1, PE_F16, PE_ST_PLAIN)
PE_VROWS_FN(pe_vrows_half_bf16, 1, PE_BF16, PE_ST_PLAIN)
PE_VROWS_FN(pe_vrows_inter_f32, 0, PE_F32, PE_ST_PLAIN)
PE_VROWS_FN(pe_vrows_inter_f16, 0, PE_F16, PE_ST_PLAIN)
PE_VROWS_FN(pe_vrows_inter_bf16, 0, PE_BF16, PE_ST_PLAIN)
#if PE_VF_CAN_STREAM
PE_VROWS_FN(pe_vrows_half_f32_nt, 1, PE_F32, PE_ST_STREAM)
PE_VROWS_FN(pe_vrows_inter_f32_nt, 0, PE_F32, PE_ST_STREAM)
#endif
#if PE_VF_HAS_BF16_HW
PE_VROWS_FN(pe_vrows_half_bf16_hw, 1, PE_BF16, PE_ST_BF16_HW)
PE_VROWS_FN(pe_vrows_inter_bf16_hw, 0, PE_BF16, PE_ST_BF16_HW)
#endif
#undef PE_VROWS_FN

#if PE_VF_CAN_STREAM
/* Non-temporal stores need every full-vector store aligned to a whole
 * vector: the rows, the strides and (half-split) the offset of the b
 * half. Only f32 rows stream (16-bit rows are half the traffic). */
static int pe_vrows_can_stream(const pe__rope_rows *r) {
    if (!r->stream || r->dtype != PE_F32) return 0;
    if (((uintptr_t)r->out % (PE_VF_L * 4)) != 0 ||
        (r->heads > 1 && r->out_head_stride % PE_VF_L != 0))
        return 0;
    return r->layout == PE_ROPE_INTERLEAVED || (r->d / 2) % PE_VF_L == 0;
}
#endif

/* The table's rope_token. */
static void pe_vrope_token(const pe__rope_rows *r, const pe__rope_trig *t) {
    const int half = r->layout == PE_ROPE_HALF;
    if (r->dtype == PE_F16) {
        (half ? pe_vrows_half_f16 : pe_vrows_inter_f16)(r, t->tab);
    } else if (r->dtype == PE_BF16) {
#if PE_VF_HAS_BF16_HW
        if (pe_vf_bf16_hw()) {
            (half ? pe_vrows_half_bf16_hw : pe_vrows_inter_bf16_hw)(r, t->tab);
            return;
        }
#endif
        (half ? pe_vrows_half_bf16 : pe_vrows_inter_bf16)(r, t->tab);
#if PE_VF_CAN_STREAM
    } else if (pe_vrows_can_stream(r)) {
        (half ? pe_vrows_half_f32_nt : pe_vrows_inter_f32_nt)(r, t->tab);
        /* no sfence here: the chunk's end orders the streamed stores
         * (pe__parallel_chunks); one per token cost ~20% of a streaming
         * rotation (each waits for the token's 16 KiB to drain) */
#endif
    } else {
        (half ? pe_vrows_half_f32 : pe_vrows_inter_f32)(r, t->tab);
    }
}

/* The table's narrow_f32 (the fused epilogue's cache stores): the same
 * conversions as the rotation's stores, the tail as a part. Non-temporal
 * where asked and out is aligned to a whole vector of dt. With a side
 * stream, a step per 16 floats instead of prefetching ahead of in. */
static void pe_vnarrow_f32(const float *in, void *out, int64_t n, pe_dtype dt, int stream,
                           pe__side_prefetch *side) {
    const size_t osz = dt == PE_F32 ? 4 : 2;
    const int kind = PE_VF_CAN_STREAM && stream && ((uintptr_t)out % (PE_VF_L * osz)) == 0
                         ? PE_ST_STREAM
                         : PE_ST_PLAIN;
    uintptr_t pf = side ? side->pos : 0; /* a register while it runs */
    const uintptr_t pf_end = side ? side->end : 0, pf_stride = side ? side->stride : 0;
    int64_t i = 0;
    for (; i + PE_VF_L <= n; i += PE_VF_L) {
        if (side == NULL) {
            if (i % 16 == 0) __builtin_prefetch((const char *)(in + i) + PE__PREFETCH_BYTES);
        } else if (i % 16 == 0) {
            pe__side_step(&pf, pf_end, pf_stride);
        }
        pe_vf_st(out, i, pe_vf_loadu(in + i), dt, kind);
    }
    if (side) side->pos = pf;
    if (i < n) pe_vf_st_part(out, i, pe_vf_load_part(in + i, (int)(n - i)), dt, (int)(n - i), PE_ST_PLAIN);
}

/* The sums of squares of g = 1 or PE_NORM_GROUP heads (a constant after
 * inlining: accumulators in registers, independent chains in flight; every
 * loop over heads or accumulators unrolled, or GCC keeps acc[k][a] on the
 * stack and each FMA of a chain waits for the previous one's store: 1.6x
 * the norm's time on Zen 4): partial sum l of the definition is lane
 * l % PE_VD_LANES of accumulator l / PE_VD_LANES; a partial block of 8 is
 * zero-padded (zeros add +0 exactly). Each head's
 * ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)) into sums[k].
 *
 * The loop over whole lines (16 floats: two blocks of 8, one prefetch or
 * side step per head) carries no test of its own; the rest of the row
 * (fewer than 16 floats) follows. Tests inside the loop (the line's step,
 * a partial block) were a third of the norm's instructions
 * (fused_qkv_4096). */
PE_VEC_INLINE void pe_vnorm_block8(const float *p, int64_t left, pe_vd *acc) {
    enum { NA = 8 / PE_VD_LANES };
#pragma GCC unroll 4
    for (int a = 0; a < NA; a++) {
        const int64_t l = left - a * PE_VD_LANES;
        if (l <= 0) break;
        const pe_vd v = l >= PE_VD_LANES ? pe_vd_load_f32(p + a * PE_VD_LANES)
                                         : pe_vd_load_f32_part(p + a * PE_VD_LANES, (int)l);
        acc[a] = pe_vd_fmadd(v, v, acc[a]);
    }
}

/* One line of a head (up to 16 floats from p, `left` of them in the row):
 * its prefetch ahead (own) or its step of the side stream, then its one
 * or two blocks of 8. */
PE_VEC_INLINE void pe_vnorm_line(const float *p, int64_t left, int own, uintptr_t *pf,
                                 uintptr_t pf_end, uintptr_t pf_stride, pe_vd *acc) {
    if (own)
        __builtin_prefetch((const char *)p + PE__PREFETCH_BYTES);
    else
        pe__side_step(pf, pf_end, pf_stride);
    pe_vnorm_block8(p, left, acc);
    if (left > 8) pe_vnorm_block8(p + 8, left - 8, acc);
}

PE_VEC_INLINE void pe_vnorm_sums(const float *x, int64_t xs, int64_t n, double *sums,
                                 uintptr_t *pf, uintptr_t pf_end, uintptr_t pf_stride,
                                 const int g) {
    enum { NA = 8 / PE_VD_LANES };
    pe_vd acc[PE_NORM_GROUP][NA];
    const int own = pf_stride == 0; /* no side stream: prefetch ahead */
#pragma GCC unroll 4
    for (int k = 0; k < g; k++)
#pragma GCC unroll 4
        for (int a = 0; a < NA; a++) acc[k][a] = pe_vd_zero();
    /* whole lines: `left` is a constant 16 after inlining, so the blocks
     * carry no tests; then the tail of the row, if any */
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
#pragma GCC unroll 4
        for (int k = 0; k < g; k++) pe_vnorm_line(x + k * xs + i, 16, own, pf, pf_end, pf_stride, acc[k]);
    if (i < n)
#pragma GCC unroll 4
        for (int k = 0; k < g; k++)
            pe_vnorm_line(x + k * xs + i, n - i, own, pf, pf_end, pf_stride, acc[k]);
#pragma GCC unroll 4
    for (int k = 0; k < g; k++) {
        double s[8];
#pragma GCC unroll 4
        for (int a = 0; a < NA; a++) pe_vd_storeu(s + a * PE_VD_LANES, acc[k][a]);
        sums[k] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    }
}

/* y = (x r) w for one vector of every head of a block (the weights loaded
 * once per vector); k < PE_VF_L: a part. */
PE_VEC_INLINE void pe_vnorm_scale(const float *xb, int64_t xs, float *yb, int64_t n,
                                  const float *r, int64_t nb, int64_t i, pe_vf wv, const int k) {
    for (int64_t h = 0; h < nb; h++) {
        const float *xp = xb + h * xs + i;
        if (k == PE_VF_L)
            pe_vf_storeu(yb + h * n + i, pe_vf_mul(pe_vf_mul(pe_vf_loadu(xp), pe_vf_set1(r[h])), wv));
        else
            pe_vf_store_part(yb + h * n + i,
                             pe_vf_mul(pe_vf_mul(pe_vf_load_part(xp, k), pe_vf_set1(r[h])), wv), k);
    }
}

/* The table's rms_norm: per block of up to 64 heads, three passes: every
 * head's sum (the next heads' loads never wait on a division), then r =
 * fl32(1 / sqrt(sum / n + eps)) of PE_VD_LANES heads per vector
 * (pe__rms_norm_inv's operations), then the scaling in float from rows the
 * first pass brought into L1 (a vector of every head in turn, the weights
 * loaded once per vector). The side stream takes the scaling's steps, one
 * per line of each head, before that line's vectors. */
static void pe_vrms_norm(const float *x, int64_t heads, int64_t xs, int64_t n, const float *w,
                         int one_plus, double eps, float *y, pe__side_prefetch *side) {
    enum { BLOCK = 64 }; /* a multiple of every PE_VD_LANES */
    double sums[BLOCK];
    float r[BLOCK];
    uintptr_t pf = side ? side->pos : 0; /* a register while it runs */
    const uintptr_t pf_end = side ? side->end : 0, pf_stride = side ? side->stride : 0;
    const pe_vd vn = pe_vd_set1((double)n), ve = pe_vd_set1(eps), one = pe_vd_set1(1.0);
    for (int64_t h0 = 0; h0 < heads; h0 += BLOCK) {
        const int64_t nb = heads - h0 < BLOCK ? heads - h0 : BLOCK;
        const float *xb = x + h0 * xs;
        float *yb = y + h0 * n;
        int64_t h = 0;
        for (; h + PE_NORM_GROUP <= nb; h += PE_NORM_GROUP)
            pe_vnorm_sums(xb + h * xs, xs, n, sums + h, &pf, pf_end, pf_stride, PE_NORM_GROUP);
        for (; h < nb; h++) pe_vnorm_sums(xb + h * xs, xs, n, sums + h, &pf, pf_end, pf_stride, 1);
        for (; h % PE_VD_LANES != 0; h++) sums[h] = 1.0; /* padding lanes, never read back */
        for (int64_t v = 0; v < h; v += PE_VD_LANES)
            pe_vd_store_f32(r + v, pe_vd_div(one, pe_vd_sqrt(pe_vd_add(pe_vd_div(pe_vd_loadu(sums + v), vn), ve))));
        const pe_vf w1 = one_plus ? pe_vf_set1(1.0f) : pe_vf_set1(0.0f);
        int64_t i = 0;
        for (; i + PE_VF_L <= n; i += PE_VF_L) {
            if (side && i % 16 == 0)
                for (int64_t s = 0; s < nb; s++) pe__side_step(&pf, pf_end, pf_stride);
            pe_vf wv = pe_vf_loadu(w + i);
            if (one_plus) wv = pe_vf_add(w1, wv);
            pe_vnorm_scale(xb, xs, yb, n, r, nb, i, wv, PE_VF_L);
        }
        if (i < n) {
            if (side && i % 16 == 0)
                for (int64_t s = 0; s < nb; s++) pe__side_step(&pf, pf_end, pf_stride);
            const int k = (int)(n - i);
            pe_vf wv = pe_vf_load_part(w + i, k);
            if (one_plus) wv = pe_vf_add(w1, wv);
            pe_vnorm_scale(xb, xs, yb, n, r, nb, i, wv, k);
        }
    }
    if (side) side->pos = pf;
}

#undef PE_VF_L
#endif
