/* test_driver.c — the one rotation driver's angle sources (issue 15 items
 * 1, 3, 5): rotation from caller tables (f32, f64, f16, bf16; d/2 and
 * duplicated d entries) against an exact long double rotation with the
 * table's storage error stated and measured; f16/bf16 caches correctly
 * rounded; packed sequences (cu_seqlens int32/int64, per-sequence starts)
 * equal to the same positions listed; M-RoPE on image grids (stepped axes)
 * against long double, in f16/bf16, on threads and with q and k; the
 * results across thread counts and vector kernel sets bit for bit. */
#include "runner.h"

#include <stdlib.h>

static void fill(float *x, size_t n, pe_rng *r) {
    for (size_t i = 0; i < n; i++) x[i] = (float)pe_rng_uniform(r, -1, 1);
}

/* Exact angle of position p, pair i. */
static long double ld_angle(const pe_freqs *f, int64_t p, int64_t i) {
    return (long double)p * ((long double)f->inv_freq[i] + (long double)f->inv_freq_lo[i]);
}

static void pair_of(int interleaved, int64_t i, int64_t d, int64_t *a, int64_t *b) {
    *a = interleaved ? 2 * i : i;
    *b = interleaved ? 2 * i + 1 : i + d / 2;
}

/* Entry v of a table of dtype at index i as double. */
static double entry(const void *t, pe_dtype dt, size_t i) {
    switch (dt) {
    case PE_F32: return ((const float *)t)[i];
    case PE_F64: return ((const double *)t)[i];
    default: {
        /* widen through a one-element rotation-free route: the library's
         * own f16/bf16 tables are checked against exact values below, so
         * the widening here is the format definition */
        const uint16_t h = ((const uint16_t *)t)[i];
        if (dt == PE_BF16) {
            uint32_t u = (uint32_t)h << 16;
            float f;
            memcpy(&f, &u, 4);
            return f;
        }
        const int e = (h >> 10) & 31, m = h & 1023, s = h >> 15;
        double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
        return s ? -v : v;
    }
    }
}

/* Storage error bound of an entry v of magnitude <= 1: half an ulp. */
static double storage_err(pe_dtype dt, double v) {
    const double a = fabs(v);
    switch (dt) {
    case PE_F32: return ldexp(a, -24) + 1.3e-15;
    case PE_F64: return 1.3e-15;
    case PE_F16: return fmax(ldexp(a, -11), 0x1p-25) + 1.3e-15;
    default: return ldexp(a, -8) + 1e-38 + 1.3e-15;
    }
}

enum { TT = 67, TH = 3, TD = 40, TR = 100 };

TEST(table_rotation_matches_exact_within_storage_error) {
    pe_rng rng = {pe_test_seed()};
    pe_freqs f;
    const int64_t d = 32, half = d / 2;
    CHECK_OK(pe_freqs_default(d, 10000.0, &f));
    static float x[TT * TH * TD], y[TT * TH * TD];
    fill(x, sizeof x / sizeof x[0], &rng);
    int64_t ids[TT];
    for (int t = 0; t < TT; t++) ids[t] = pe_rng_int(&rng, 0, TR - 1);
    static double cpairs[TR * 16 * 2], spairs[TR * 16 * 2]; /* room for duplicated f64 */
    static unsigned char cbuf[TR * 32 * 8], sbuf[TR * 32 * 8];
    const pe_positions all = pe_positions_range(0), pos = pe_positions_list(ids);
    const pe_dtype dts[4] = {PE_F32, PE_F64, PE_F16, PE_BF16};
    for (int k = 0; k < 4; k++) {
        const pe_dtype dt = dts[k];
        const size_t esz = pe_dtype_size(dt);
        CHECK_OK(pe_rope_cos_sin(&f, &all, TR, cpairs, spairs, dt));
        /* the stored entries against exact cos/sin: within half an ulp of
         * storage, and that bound reached (it is the actual error) */
        double worst = 0;
        for (int64_t r = 0; r < TR; r++)
            for (int64_t i = 0; i < half; i++) {
                const long double th = ld_angle(&f, r, i);
                const double ec = (double)cosl(th), es = (double)sinl(th);
                const double gc = entry(cpairs, dt, (size_t)(r * half + i)),
                             gs = entry(spairs, dt, (size_t)(r * half + i));
                /* the reference's own error: the angle in long double (plain
                 * double under valgrind, pe_test_ld_eps) */
                const double ref = 4.0 * (double)fabsl(th) * pe_test_ld_eps();
                CHECK_MSG(fabs(gc - ec) <= storage_err(dt, ec) + ref &&
                              fabs(gs - es) <= storage_err(dt, es) + ref,
                          "%s entry (%lld, %lld): cos %.17g vs %.17g, sin %.17g vs %.17g",
                          pe_dtype_name(dt), (long long)r, (long long)i, gc, ec, gs, es);
                worst = fmax(worst, fmax(fabs(gc - ec), fabs(gs - es)));
            }
        const double unit = dt == PE_F16 ? 0x1p-11 : dt == PE_BF16 ? 0x1p-8 : dt == PE_F32 ? 0x1p-24 : 0;
        if (unit > 0)
            CHECK_MSG(worst > unit / 4 && worst <= unit, "%s tables: worst entry error %.3g, unit %.3g",
                      pe_dtype_name(dt), worst, unit);
        for (int width = 0; width < 2; width++)
            for (int il = 0; il < 2; il++) {
                const pe_rope_layout L = il ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
                const void *ct = cpairs, *st = spairs;
                if (width) { /* HF's (T, d): cat(f, f) or repeat_interleave(f, 2) */
                    for (int64_t r = 0; r < TR; r++)
                        for (int64_t i = 0; i < half; i++)
                            for (int c = 0; c < 2; c++) {
                                const size_t to = (size_t)(r * d + (il ? 2 * i + c : i + c * half));
                                memcpy(cbuf + to * esz, (const unsigned char *)cpairs + (size_t)(r * half + i) * esz, esz);
                                memcpy(sbuf + to * esz, (const unsigned char *)spairs + (size_t)(r * half + i) * esz, esz);
                            }
                    ct = cbuf;
                    st = sbuf;
                }
                pe_rope_table tb = pe_rope_table_default();
                tb.rotary_dim = d;
                tb.rows = TR;
                tb.cos = ct;
                tb.sin = st;
                tb.dtype = dt;
                tb.width = width ? PE_TABLE_DUPLICATED : PE_TABLE_PAIRS;
                const pe_tensor in = pe_tensor_dense(x, PE_F32, TT, TH, TD),
                                out = pe_tensor_dense(y, PE_F32, TT, TH, TD);
                for (int dir = 0; dir < 2; dir++) {
                    const pe_rope_direction D = dir ? PE_ROPE_BACKWARD : PE_ROPE_FORWARD;
                    CHECK_OK(pe_rope_apply_table(&tb, L, &pos, &in, &out, D, NULL));
                    int bad = 0;
                    for (int t = 0; t < TT && !bad; t++)
                        for (int h = 0; h < TH; h++) {
                            const float *xr = x + (t * TH + h) * TD;
                            const float *yr = y + (t * TH + h) * TD;
                            for (int64_t i = 0; i < half; i++) {
                                int64_t a, b;
                                pair_of(il, i, d, &a, &b);
                                const long double th = (dir ? -1 : 1) * ld_angle(&f, ids[t], i);
                                const long double c = cosl(th), s = sinl(th);
                                const long double ra = xr[a] * c - xr[b] * s, rb = xr[a] * s + xr[b] * c;
                                const double tab = storage_err(dt, 1.0) * (fabs(xr[a]) + fabs(xr[b]));
                                const double ba = pe_test_rope_row_bound(xr, a, d, il, (double)ra, 1) + tab;
                                const double bb = pe_test_rope_row_bound(xr, b, d, il, (double)rb, 1) + tab;
                                if (!(fabs(yr[a] - (double)ra) <= ba && fabs(yr[b] - (double)rb) <= bb)) {
                                    CHECK_MSG(0, "%s width %d layout %d dir %d token %d pair %lld: %.9g %.9g vs %.12Lg %.12Lg",
                                              pe_dtype_name(dt), width, il, dir, t, (long long)i, yr[a], yr[b], ra, rb);
                                    bad = 1;
                                    break;
                                }
                            }
                            for (int j = (int)d; j < TD; j++) CHECK(yr[j] == xr[j]);
                        }
                }
            }
    }
}

/* Bit-identical results across threads, q+k against separate calls. */
TEST(table_threads_and_qk_bit_identical) {
    pe_rng rng = {pe_test_seed() + 1};
    enum { T = 2048, H = 8, D = 64, R = 3000 };
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 500000.0, &f));
    float *x = malloc(sizeof(float) * T * H * D), *y1 = malloc(sizeof(float) * T * H * D),
          *y2 = malloc(sizeof(float) * T * H * D), *k1 = malloc(sizeof(float) * T * 2 * D),
          *k2 = malloc(sizeof(float) * T * 2 * D);
    uint16_t *c = malloc(2 * (size_t)R * D / 2), *s = malloc(2 * (size_t)R * D / 2);
    fill(x, (size_t)T * H * D, &rng);
    const pe_positions all = pe_positions_range(0), pos = pe_positions_range(700);
    CHECK_OK(pe_rope_cos_sin(&f, &all, R, c, s, PE_BF16));
    pe_rope_table tb = pe_rope_table_default();
    tb.rotary_dim = D;
    tb.rows = R;
    tb.cos = c;
    tb.sin = s;
    tb.dtype = PE_BF16;
    pe_rope_options o1 = pe_rope_options_default(), o3 = o1;
    o3.threads = 3;
    o3.pool = pe_test_pool(3); /* a running pool: the call really splits */
    const pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D), a = pe_tensor_dense(y1, PE_F32, T, H, D),
                    b = pe_tensor_dense(y2, PE_F32, T, H, D);
    const pe_tensor kin = {x, PE_F32, T, 2, D, H * D, D}; /* first two heads as k */
    const pe_tensor ka = pe_tensor_dense(k1, PE_F32, T, 2, D), kb = pe_tensor_dense(k2, PE_F32, T, 2, D);
    CHECK_OK(pe_rope_apply_table(&tb, PE_ROPE_HALF, &pos, &in, &a, PE_ROPE_FORWARD, &o1));
    CHECK_OK(pe_rope_apply_table(&tb, PE_ROPE_HALF, &pos, &kin, &ka, PE_ROPE_FORWARD, &o1));
    CHECK_OK(pe_rope_apply_table_qk(&tb, PE_ROPE_HALF, &pos, &in, &b, &kin, &kb, PE_ROPE_FORWARD, &o3));
    CHECK(memcmp(y1, y2, sizeof(float) * T * H * D) == 0);
    CHECK(memcmp(k1, k2, sizeof(float) * T * 2 * D) == 0);
    free(x), free(y1), free(y2), free(k1), free(k2), free(c), free(s);
}

/* A contiguous f32 table goes straight from its rows to the kernels'
 * tables (rope_prepare_cs_f32); an f64 table holding the same values goes
 * through the widening loop: the same bits on every kernel set, forward
 * and backward, both layouts, d/2 entries and Hugging Face's duplicated d
 * (interleaved: every other entry, the widening loop for both), entries
 * of magnitude 1.25, and 21 pairs (a partial tail for every vector width). */
TEST(table_f32_rows_equal_f64_rows_bit_for_bit) {
    static const char *const sets[] = {"scalar", "avx2", "avx512", "neon"};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    pe_rng rng = {pe_test_seed() + 5};
    enum { T = 97, H = 3, D = 48, R = 300, P = 21 };
    pe_freqs f;
    CHECK_OK(pe_freqs_default(2 * P, 10000.0, &f));
    float *x = malloc(sizeof(float) * T * H * D), *y32 = malloc(sizeof(float) * T * H * D),
          *y64 = malloc(sizeof(float) * T * H * D), *c = malloc(sizeof(float) * R * P),
          *sn = malloc(sizeof(float) * R * P), *c32 = malloc(sizeof(float) * R * 2 * P),
          *s32 = malloc(sizeof(float) * R * 2 * P);
    double *c64 = malloc(sizeof(double) * R * 2 * P), *s64 = malloc(sizeof(double) * R * 2 * P);
    fill(x, (size_t)T * H * D, &rng);
    const pe_positions all = pe_positions_range(0), pos = pe_positions_range(150);
    CHECK_OK(pe_rope_cos_sin(&f, &all, R, c, sn, PE_F32));
    const pe_rope_options o = pe_rope_options_default();
    const pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D),
                    a = pe_tensor_dense(y32, PE_F32, T, H, D),
                    b = pe_tensor_dense(y64, PE_F32, T, H, D);
    for (int dup = 0; dup < 2; dup++) {
        const int w = dup ? 2 * P : P; /* entries per row */
        for (int r = 0; r < R; r++)
            for (int i = 0; i < w; i++) { /* magnitude 1.25, rounded to f32 once */
                c32[r * w + i] = 1.25f * c[r * P + i % P];
                s32[r * w + i] = 1.25f * sn[r * P + i % P];
                c64[r * w + i] = c32[r * w + i];
                s64[r * w + i] = s32[r * w + i];
            }
        pe_rope_table t32 = pe_rope_table_default();
        t32.rotary_dim = 2 * P;
        t32.rows = R;
        t32.cos = c32;
        t32.sin = s32;
        t32.width = dup ? PE_TABLE_DUPLICATED : PE_TABLE_PAIRS;
        pe_rope_table t64 = t32;
        t64.cos = c64;
        t64.sin = s64;
        t64.dtype = PE_F64;
        for (int si = 0; si < 4; si++) {
            if (pe_kernels_select(sets[si]) != PE_OK) continue;
            for (int back = 0; back < 2; back++)
                for (int lay = 0; lay < 2; lay++) {
                    const pe_rope_layout L = lay ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
                    const pe_rope_direction dir = back ? PE_ROPE_BACKWARD : PE_ROPE_FORWARD;
                    CHECK_OK(pe_rope_apply_table(&t32, L, &pos, &in, &a, dir, &o));
                    CHECK_OK(pe_rope_apply_table(&t64, L, &pos, &in, &b, dir, &o));
                    CHECK_MSG(memcmp(y32, y64, sizeof(float) * T * H * D) == 0,
                              "%s, %s, %s, %s: an f32 table and the same values in f64 differ",
                              sets[si], back ? "backward" : "forward",
                              lay ? "interleaved" : "half", dup ? "duplicated" : "pairs");
                }
        }
    }
    CHECK_OK(pe_kernels_select(saved));
    free(x), free(y32), free(y64), free(c), free(sn), free(c32), free(s32), free(c64), free(s64);
}

/* ------------------------------------------------------- packed sequences */

TEST(varlen_positions_equal_listed_positions) {
    pe_rng rng = {pe_test_seed() + 2};
    enum { T = 1500, H = 4, D = 32, S = 6 };
    const int32_t cu32[S + 1] = {0, 300, 300, 777, 800, 1201, T}; /* one empty sequence */
    int64_t cu64[S + 1];
    for (int s = 0; s <= S; s++) cu64[s] = cu32[s];
    const int64_t starts[S] = {0, 5, 1000, -3, 123456789, 31};
    int64_t ids[T], ids0[T];
    for (int s = 0; s < S; s++)
        for (int t = cu32[s]; t < cu32[s + 1]; t++) {
            ids[t] = starts[s] + (t - cu32[s]);
            ids0[t] = t - cu32[s];
        }
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 10000.0, &f));
    float *x = malloc(sizeof(float) * T * H * D), *y1 = malloc(sizeof(float) * T * H * D),
          *y2 = malloc(sizeof(float) * T * H * D);
    fill(x, (size_t)T * H * D, &rng);
    const pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D), a = pe_tensor_dense(y1, PE_F32, T, H, D),
                    b = pe_tensor_dense(y2, PE_F32, T, H, D);
    pe_rope_options o2 = pe_rope_options_default();
    o2.threads = 2;
    o2.pool = pe_test_pool(2); /* a running pool: the call really splits */
    for (int k = 0; k < 4; k++) {
        const int with_starts = k & 1, wide = k >> 1;
        const pe_positions v = wide ? pe_positions_varlen_i64(cu64, S, with_starts ? starts : NULL)
                                    : pe_positions_varlen(cu32, S, with_starts ? starts : NULL);
        const pe_positions l = pe_positions_list(with_starts ? ids : ids0);
        CHECK_OK(pe_rope_apply_ex(&f, PE_ROPE_HALF, &l, &in, &a, PE_ROPE_FORWARD, NULL));
        CHECK_OK(pe_rope_apply_ex(&f, PE_ROPE_HALF, &v, &in, &b, PE_ROPE_FORWARD, &o2));
        CHECK_MSG(memcmp(y1, y2, sizeof(float) * T * H * D) == 0, "varlen case %d differs from listed", k);
        /* caches and the random-access path (similarity) see the same positions */
        static double c1[T * 16], s1[T * 16], c2[T * 16], s2[T * 16];
        CHECK_OK(pe_rope_cos_sin(&f, &l, T, c1, s1, PE_F64));
        CHECK_OK(pe_rope_cos_sin_ex(&f, &v, T, c2, s2, PE_F64, &o2));
        CHECK(memcmp(c1, c2, sizeof c1) == 0 && memcmp(s1, s2, sizeof s1) == 0);
        double q[D], kv[D], m1[40 * 40], m2[40 * 40];
        for (int j = 0; j < D; j++) q[j] = kv[j] = pe_rng_uniform(&rng, -1, 1);
        const pe_positions v40 = pe_positions_varlen(cu32, 1, with_starts ? starts + 2 : NULL);
        const int32_t cu40[2] = {0, 40};
        const pe_positions v40b = pe_positions_varlen(cu40, 1, with_starts ? starts + 2 : NULL);
        (void)v40;
        int64_t l40[40];
        for (int t = 0; t < 40; t++) l40[t] = (with_starts ? starts[2] : 0) + t;
        const pe_positions pl40 = pe_positions_list(l40);
        CHECK_OK(pe_similarity_rope(&f, PE_ROPE_HALF, D, q, kv, &pl40, 40, m1));
        CHECK_OK(pe_similarity_rope(&f, PE_ROPE_HALF, D, q, kv, &v40b, 40, m2));
        CHECK(memcmp(m1, m2, sizeof m1) == 0);
    }
    free(x), free(y1), free(y2);
}

/* ------------------------------------------------------------------ M-RoPE */

/* Qwen2-VL style: `text` text tokens, a gh x gw image at (t0, t0 + row,
 * t0 + col) with its last patch repeated 3 times, then text resuming
 * after the image's largest position. */
static int64_t grid_positions(int64_t *p, int64_t text, int64_t gh, int64_t gw, int64_t tail) {
    int64_t n = 0;
    for (int64_t t = 0; t < text; t++, n++) p[3 * n] = p[3 * n + 1] = p[3 * n + 2] = t;
    for (int64_t r = 0; r < gh; r++)
        for (int64_t c = 0; c < gw; c++, n++) {
            p[3 * n] = text;
            p[3 * n + 1] = text + r;
            p[3 * n + 2] = text + c;
        }
    for (int r = 0; r < 3; r++, n++) { /* the last patch again: unchanged angles */
        p[3 * n] = text;
        p[3 * n + 1] = text + gh - 1;
        p[3 * n + 2] = text + gw - 1;
    }
    const int64_t next = text + (gh > gw ? gh : gw);
    for (int64_t t = 0; t < tail; t++, n++) p[3 * n] = p[3 * n + 1] = p[3 * n + 2] = next + t;
    return n;
}

static int mrope_axis(int64_t j, const int64_t *s, int il) {
    if (!il) return j < s[0] ? 0 : j < s[0] + s[1] ? 1 : 2;
    if (j % 3 == 1 && j < 3 * s[1]) return 1;
    if (j % 3 == 2 && j < 3 * s[2]) return 2;
    return 0;
}

static uint16_t f32_to_16(float v, int bf) { /* round to nearest even */
    uint32_t u;
    memcpy(&u, &v, 4);
    if (bf) return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
    /* f16 through double arithmetic: exact rounding by scaling */
    const double a = fabs((double)v);
    uint16_t s = (uint16_t)((u >> 16) & 0x8000);
    if (a >= 65520.0) return s | 0x7C00;
    int e;
    frexp(a, &e);
    int ex = e - 1 < -14 ? -14 : e - 1;
    double q = nearbyint(ldexp(a, 10 - ex)); /* significand units */
    if (q >= 2048) {
        q /= 2;
        ex++;
    }
    if (q < 1024) return s | (uint16_t)q; /* subnormal (ex == -14) */
    return s | (uint16_t)((ex + 15) << 10 | ((uint16_t)q - 1024));
}

TEST(mrope_grid_exact_16bit_threads_qk_and_kernel_sets) {
    pe_rng rng = {pe_test_seed() + 3};
    enum { H = 4, D = 64, MAXT = 20 + 40 * 50 + 3 + 30 };
    static int64_t p[3 * MAXT];
    const int64_t T = grid_positions(p, 20, 40, 50, 30);
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 1000000.0, &f));
    const int64_t secs[2][3] = {{16, 8, 8}, {12, 10, 10}};
    float *x = malloc(sizeof(float) * T * H * D), *y = malloc(sizeof(float) * T * H * D),
          *y2 = malloc(sizeof(float) * T * H * D), *k1 = malloc(sizeof(float) * T * D),
          *k2 = malloc(sizeof(float) * T * D);
    uint16_t *h = malloc(2 * (size_t)T * H * D), *ho = malloc(2 * (size_t)T * H * D);
    fill(x, (size_t)T * H * D, &rng);
    const pe_tensor in = pe_tensor_dense(x, PE_F32, T, H, D), out = pe_tensor_dense(y, PE_F32, T, H, D),
                    out2 = pe_tensor_dense(y2, PE_F32, T, H, D);
    const pe_tensor kin = {x, PE_F32, T, 1, D, H * D, D};
    const pe_tensor ka = pe_tensor_dense(k1, PE_F32, T, 1, D), kb = pe_tensor_dense(k2, PE_F32, T, 1, D);
    pe_rope_options o2 = pe_rope_options_default();
    o2.threads = 2;
    o2.pool = pe_test_pool(2); /* a running pool: the call really splits */
    char saved[32];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    static const char *const sets[] = {"scalar", "avx2", "avx512", "neon"};
    float *ref_vec = malloc(sizeof(float) * T * H * D);
    int have_vec = 0;
    for (int m = 0; m < 2; m++) {
        const pe_mrope_mode mode = m ? PE_MROPE_INTERLEAVED : PE_MROPE_BLOCKED;
        have_vec = 0;
        for (size_t ks = 0; ks < 4; ks++) {
            if (!pe_kernels_supported(sets[ks])) continue;
            CHECK_OK(pe_kernels_select(sets[ks]));
            CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, p, secs[m], mode, &in, &out, PE_ROPE_FORWARD));
            /* against long double: every element within the f32 bound */
            int bad = 0;
            for (int64_t t = 0; t < T && !bad; t++)
                for (int64_t hh = 0; hh < H && !bad; hh++) {
                    const float *xr = x + (t * H + hh) * D, *yr = y + (t * H + hh) * D;
                    for (int64_t i = 0; i < D / 2; i++) {
                        const long double th = ld_angle(&f, p[3 * t + mrope_axis(i, secs[m], m)], i);
                        const long double c = cosl(th), s = sinl(th);
                        const long double ra = xr[i] * c - xr[i + D / 2] * s, rb = xr[i] * s + xr[i + D / 2] * c;
                        if (!(fabs(yr[i] - (double)ra) <= pe_test_rope_row_bound(xr, i, D, 0, (double)ra, 1) &&
                              fabs(yr[i + D / 2] - (double)rb) <=
                                  pe_test_rope_row_bound(xr, i + D / 2, D, 0, (double)rb, 1))) {
                            CHECK_MSG(0, "%s mode %d token %lld pair %lld", sets[ks], m, (long long)t, (long long)i);
                            bad = 1;
                            break;
                        }
                    }
                }
            if (ks > 0) { /* vector sets agree bit for bit */
                if (have_vec) CHECK_MSG(memcmp(ref_vec, y, sizeof(float) * T * H * D) == 0, "%s differs", sets[ks]);
                memcpy(ref_vec, y, sizeof(float) * T * H * D);
                have_vec = 1;
            }
            /* threads and q + k: the same bits */
            CHECK_OK(pe_mrope_apply_ex(&f, PE_ROPE_HALF, p, secs[m], mode, &in, &out2, PE_ROPE_FORWARD, &o2));
            CHECK(memcmp(y, y2, sizeof(float) * T * H * D) == 0);
            CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, p, secs[m], mode, &kin, &ka, PE_ROPE_FORWARD));
            CHECK_OK(pe_mrope_apply_qk(&f, PE_ROPE_HALF, p, secs[m], mode, &in, &out2, &kin, &kb,
                                       PE_ROPE_FORWARD, &o2));
            CHECK(memcmp(y, y2, sizeof(float) * T * H * D) == 0);
            CHECK(memcmp(k1, k2, sizeof(float) * T * D) == 0);
            /* 16-bit storage: the f32 rotation of the widened input, rounded */
            for (int bf = 0; bf < 2; bf++) {
                const pe_dtype dt = bf ? PE_BF16 : PE_F16;
                for (size_t i = 0; i < (size_t)T * H * D; i++) h[i] = f32_to_16(x[i], bf);
                for (size_t i = 0; i < (size_t)T * H * D; i++) y2[i] = (float)entry(h, dt, i);
                const pe_tensor hin = pe_tensor_dense(h, dt, T, H, D), hout = pe_tensor_dense(ho, dt, T, H, D);
                const pe_tensor win = pe_tensor_dense(y2, PE_F32, T, H, D);
                CHECK_OK(pe_mrope_apply_ex(&f, PE_ROPE_HALF, p, secs[m], mode, &hin, &hout, PE_ROPE_FORWARD, &o2));
                CHECK_OK(pe_mrope_apply(&f, PE_ROPE_HALF, p, secs[m], mode, &win, &win, PE_ROPE_FORWARD));
                size_t diff = 0;
                for (size_t i = 0; i < (size_t)T * H * D; i++) diff += ho[i] != f32_to_16(y2[i], bf);
                CHECK_MSG(diff == 0, "%s %s: %zu elements differ from the rounded f32 rotation", sets[ks],
                          pe_dtype_name(dt), diff);
            }
        }
    }
    CHECK_OK(pe_kernels_select("auto"));
    (void)saved;
    free(x), free(y), free(y2), free(k1), free(k2), free(h), free(ho), free(ref_vec);
}

/* Sequences starting at the ends of int64: positions reach INT64_MIN and
 * INT64_MAX exactly (no intermediate overflow, UBSan-clean), and equal the
 * listed ones. */
TEST(varlen_extreme_starts) {
    const int64_t cu[3] = {0, 3, 6}, starts[2] = {INT64_MIN, INT64_MAX - 2};
    const int64_t ids[6] = {INT64_MIN, INT64_MIN + 1, INT64_MIN + 2, INT64_MAX - 2, INT64_MAX - 1,
                            INT64_MAX};
    pe_freqs f;
    CHECK_OK(pe_freqs_default(8, 10000.0, &f));
    const pe_positions v = pe_positions_varlen_i64(cu, 2, starts), l = pe_positions_list(ids);
    double c1[24], s1[24], c2[24], s2[24];
    CHECK_OK(pe_rope_cos_sin(&f, &l, 6, c1, s1, PE_F64));
    CHECK_OK(pe_rope_cos_sin(&f, &v, 6, c2, s2, PE_F64));
    CHECK(memcmp(c1, c2, sizeof c1) == 0 && memcmp(s1, s2, sizeof s1) == 0);
    float x[6 * 8], y1[6 * 8], y2[6 * 8];
    for (int i = 0; i < 48; i++) x[i] = (float)(i % 7) - 3.0f;
    const pe_tensor in = pe_tensor_dense(x, PE_F32, 6, 1, 8), a = pe_tensor_dense(y1, PE_F32, 6, 1, 8),
                    b = pe_tensor_dense(y2, PE_F32, 6, 1, 8);
    CHECK_OK(pe_rope_apply(&f, PE_ROPE_HALF, &l, &in, &a, PE_ROPE_FORWARD));
    CHECK_OK(pe_rope_apply(&f, PE_ROPE_HALF, &v, &in, &b, PE_ROPE_FORWARD));
    CHECK(memcmp(y1, y2, sizeof y1) == 0);
    /* one token more would pass INT64_MAX: refused (POS-8) */
    const int64_t cu7[3] = {0, 3, 7};
    float z[7 * 8] = {0};
    const pe_tensor in7 = pe_tensor_dense(z, PE_F32, 7, 1, 8);
    const pe_positions v7 = pe_positions_varlen_i64(cu7, 2, starts);
    CHECK_STATUS(pe_rope_apply(&f, PE_ROPE_HALF, &v7, &in7, &in7, PE_ROPE_FORWARD), PE_ERR_RANGE);
}
