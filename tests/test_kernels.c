/*
 * test_kernels.c — every kernel set the CPU offers (pe_kernels_select:
 * scalar, avx2, avx512, neon; under valgrind usually no avx512) against the scalar
 * set on the same inputs, and each against an exact reference evaluated in
 * quad precision (__float128: the angle to ~1e-30, independent of libm and
 * of long double, which valgrind emulates as double).
 *
 * Bounds the kernels document (posenc.h, src/kernels/vecmath.h):
 *   cos/sin   scalar within 1.2e-15 (angle.h reduces into [-pi, pi], whose
 *             ulp is 4.4e-16, then libm), vector within 1.1e-16 (a
 *             double-double reduction into [-pi/4, pi/4], vecmath.h); so
 *             sets differ by at most 1.3e-15.
 *   rotation  scalar f32: |x' - exact| <= 2^-24 |x'| + 1e-14 (double, one
 *             rounding); vector f32: <= 2^-24 (|x'| + A (|x| + 2 |y|)) +
 *             1e-11 A (|x| + |y|) (the plain f32 form with float tables, y
 *             the partner element; the second term covers cos/sin).
 *   16-bit    the f32 value rounded to nearest even: sets differ by at most
 *             one 16-bit step plus the f32 bounds.
 *   scatter   bit-identical (the same additions in the same order).
 */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
typedef __float128 quad;
#else
typedef long double quad; /* quad precision on aarch64; weaker elsewhere */
#endif

static const char *const SETS[] = {"scalar", "avx2", "avx512", "neon"};
enum { N_SETS = 4 };

/* ------------------------------------------------------------ reference */

static quad qabs(quad x) { return x < 0 ? -x : x; }

/* cos and sin of the exact angle p (hi + lo): reduced modulo pi/2 in quad,
 * then Taylor series (|r| <= pi/4: truncation < 1e-43). */
static void exact_cos_sin(int64_t p, double hi, double lo, quad *c, quad *s) {
    const quad pio2 = ((quad)0x1.921fb54442d18p+0 + (quad)0x1.1a62633145c07p-54) +
                      (quad)(-0x1.f1976b7ed8fbcp-110);
    const quad x = (quad)p * ((quad)hi + (quad)lo);
    const quad kq = x / pio2;
    const int64_t k = (int64_t)(kq < 0 ? kq - (quad)0.5 : kq + (quad)0.5);
    const quad r = x - (quad)k * pio2, z = r * r;
    quad sn = 0, cs = 0, ts = r, tc = 1;
    for (int n = 1; n < 36; n += 2) { /* (pi/4)^36 / 36! < 1e-43 */
        sn += ts;
        cs += tc;
        ts = -ts * z / (quad)((n + 1) * (n + 2));
        tc = -tc * z / (quad)(n * (n + 1));
    }
    switch ((int)(((k % 4) + 4) % 4)) {
    case 0: *c = cs, *s = sn; break;
    case 1: *c = -sn, *s = cs; break;
    case 2: *c = -cs, *s = -sn; break;
    default: *c = sn, *s = -cs; break;
    }
}

static double rnd_unit(pe_rng *r) { return pe_rng_uniform(r, -1.0, 1.0); }

/* Independent f32 <-> f16/bf16 for the tests: the value's exponent from
 * frexp, the significand scaled to an integer and rounded half to even. */
static double f16_value(uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

static uint16_t f16_round(double v) {
    const uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isnan(v)) return 0x7E00;
    int e;
    frexp(a, &e);                              /* a = f 2^e, f in [0.5, 1) */
    const int q = e - 11 < -24 ? -24 : e - 11; /* weight of the last kept bit */
    double m = ldexp(a, -q), fl = floor(m);
    if (m - fl > 0.5 || (m - fl == 0.5 && fmod(fl, 2) != 0)) fl += 1;
    a = ldexp(fl, q);
    if (a >= 65520.0 || a > 65504.0) return sign | 0x7C00;
    /* find the encoding by search-free arithmetic */
    if (a < 0x1p-14) return sign | (uint16_t)ldexp(a, 24);
    frexp(a, &e);
    return sign | (uint16_t)((e + 14) << 10) | (uint16_t)(ldexp(a, 11 - e) - 1024);
}

static double bf16_value(uint16_t h) {
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t bf16_round(float f) {
    if (isnan(f)) return 0x7FC0;
    uint32_t u;
    memcpy(&u, &f, 4);
    const uint32_t lower = u & 0xFFFF, upper = u >> 16;
    return (uint16_t)(upper + (lower > 0x8000 || (lower == 0x8000 && (upper & 1))));
}

/* One step of the 16-bit grid at |v|. */
static double step16(double v, pe_dtype dt) {
    int e;
    frexp(fabs(v), &e);
    if (dt == PE_F16) return ldexp(1.0, (e - 11 < -24 ? -24 : e - 11));
    return ldexp(1.0, e - 8);
}

static double load_elem(const void *base, size_t i, pe_dtype dt) {
    if (dt == PE_F32) return ((const float *)base)[i];
    const uint16_t h = ((const uint16_t *)base)[i];
    return dt == PE_F16 ? f16_value(h) : bf16_value(h);
}

/* ------------------------------------------------------------ dispatch */

TEST(kernels_dispatch_select_and_env) {
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    CHECK(pe_kernels_supported("scalar") == 1);
    CHECK(pe_kernels_supported("sse9") == 0 && pe_kernels_supported(NULL) == 0);
    CHECK_ERROR(pe_kernels_select("sse9"), PE_ERR_PARAM, "name=\"sse9\"");
    for (int i = 0; i < N_SETS; i++) {
        if (pe_kernels_supported(SETS[i])) {
            CHECK_OK(pe_kernels_select(SETS[i]));
            CHECK(strcmp(pe_kernels_name(), SETS[i]) == 0);
        } else {
            CHECK_ERROR(pe_kernels_select(SETS[i]), PE_ERR_UNSUPPORTED, SETS[i]);
        }
    }
    /* "auto" honours PE_ISA when usable, else the widest usable set */
    const char *env = getenv("PE_ISA");
    char env_saved[32] = "";
    if (env) snprintf(env_saved, sizeof env_saved, "%s", env);
    setenv("PE_ISA", "scalar", 1);
    CHECK_OK(pe_kernels_select("auto"));
    CHECK(strcmp(pe_kernels_name(), "scalar") == 0);
    setenv("PE_ISA", "nonsense", 1);
    CHECK_OK(pe_kernels_select("auto"));
    const char *best = pe_kernels_supported("avx512") ? "avx512"
                       : pe_kernels_supported("avx2") ? "avx2"
                       : pe_kernels_supported("neon") ? "neon" : "scalar";
    CHECK(strcmp(pe_kernels_name(), best) == 0);
    if (env) setenv("PE_ISA", env_saved, 1);
    else unsetenv("PE_ISA");
    CHECK_OK(pe_kernels_select(saved));
}

/* ------------------------------------------------------------ cos / sin */

TEST(kernels_cos_sin_exact_and_match_scalar) {
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { NP = 400, H = 37 }; /* odd pair count: vector tails */
    static double ref_c[NP][H], ref_s[NP][H];
    int64_t pos[NP];
    const int64_t fixed[] = {0, 1, -1, 1 << 10, 1 << 20, 1 << 30, 2147483647LL, -2147483647LL,
                             (INT64_C(1) << 40) - 1, INT64_C(1) << 40, (INT64_C(1) << 40) + 3,
                             INT64_C(1) << 52, INT64_MAX / 3};
    const int nf = (int)(sizeof fixed / sizeof fixed[0]);
    for (int i = 0; i < NP; i++)
        pos[i] = i < nf ? fixed[i] : pe_rng_int(&rng, -2147483647LL, 2147483647LL);
    pe_freqs f;
    CHECK_OK(pe_freqs_default(2 * H, 500000.0, &f));
    f.inv_freq[H - 1] = 3.75; /* a frequency above 1: |p w| beyond 2^40 too */
    f.inv_freq_lo[H - 1] = 0;
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        const double bound = si == 0 ? 1.2e-15 : 1.1e-16;
        double worst = 0, worst_vs = 0;
        int f32_ok = 1;
        for (int i = 0; i < NP; i++) {
            double c[H], s[H];
            float c32[H], s32[H];
            pe_positions p = pe_positions_range(pos[i]);
            CHECK_OK(pe_rope_cos_sin(&f, &p, 1, c, s, PE_F64));
            CHECK_OK(pe_rope_cos_sin(&f, &p, 1, c32, s32, PE_F32));
            for (int j = 0; j < H; j++) {
                f32_ok &= c32[j] == (float)c[j] && s32[j] == (float)s[j];
                if (si == 0) ref_c[i][j] = c[j], ref_s[i][j] = s[j];
                const double v = fmax(fabs(c[j] - ref_c[i][j]), fabs(s[j] - ref_s[i][j]));
                /* beyond |p| or |p w| = 2^40 every set takes the scalar path */
                const int exact_range = fabs((double)pos[i]) <= 0x1p40 &&
                                        fabs((double)pos[i] * f.inv_freq[j]) < 0x1p40;
                if (!exact_range) {
                    CHECK_MSG(v == 0, "%s p=%lld pair %d: %.3g from scalar beyond 2^40",
                              SETS[si], (long long)pos[i], j, v);
                    continue;
                }
                worst_vs = fmax(worst_vs, v);
                quad ec, es;
                exact_cos_sin(pos[i], f.inv_freq[j], f.inv_freq_lo[j], &ec, &es);
                worst = fmax(worst, fmax((double)qabs((quad)c[j] - ec), (double)qabs((quad)s[j] - es)));
            }
        }
        CHECK_MSG(worst <= bound, "%s: cos/sin %.3g from exact > %.3g", SETS[si], worst, bound);
        CHECK_MSG(worst_vs <= 1.3e-15, "%s: cos/sin %.3g from scalar", SETS[si], worst_vs);
        CHECK_MSG(f32_ok, "%s: f32 cache is not the rounded f64 cache", SETS[si]);
    }
    CHECK_OK(pe_kernels_select(saved));
}

/* ------------------------------------------------------------ rotation */

/* A strided, unaligned view: token stride H*D + 5, head stride D + 3,
 * starting one element into the buffer; the gaps are guards. */
typedef struct {
    unsigned char *buf;
    size_t bytes;
    pe_tensor t;
} view;

static view make_view(int64_t T, int64_t H, int64_t D, pe_dtype dt, int strided) {
    view v;
    const int64_t hs = strided ? D + 3 : D, ts = strided ? H * hs + 5 : H * D;
    const size_t esz = pe_dtype_size(dt), n = (size_t)(T * ts + 8);
    v.bytes = n * esz;
    v.buf = malloc(v.bytes);
    memset(v.buf, 0x5A, v.bytes);
    pe_tensor t = {v.buf + (strided ? esz : 0), dt, T, H, D, ts, hs};
    v.t = t;
    return v;
}

static size_t elem_index(const pe_tensor *t, int64_t tok, int64_t h, int64_t j) {
    return (size_t)(tok * t->token_stride + h * t->head_stride + j);
}

static void fill_view(view *v, pe_rng *rng) {
    const pe_tensor *t = &v->t;
    for (int64_t a = 0; a < t->tokens; a++)
        for (int64_t h = 0; h < t->heads; h++)
            for (int64_t j = 0; j < t->head_dim; j++) {
                const size_t i = elem_index(t, a, h, j);
                const float x = (float)rnd_unit(rng);
                if (t->dtype == PE_F32) ((float *)t->data)[i] = x;
                else if (t->dtype == PE_F16) ((uint16_t *)t->data)[i] = f16_round(x);
                else ((uint16_t *)t->data)[i] = bf16_round(x);
            }
}

/* Worst excess over the documented bound, against the exact rotation of
 * the input; and whether bytes outside the rows stayed untouched. */
static double rotation_excess(const view *in, const view *out, const view *out_before,
                              const pe_freqs *f, pe_rope_layout layout,
                              const quad *ec, const quad *es, pe_rope_direction dir, int vector,
                              int *guards_ok) {
    const pe_tensor *ti = &in->t, *to = &out->t;
    const int64_t d = f->rotary_dim, half = d / 2;
    const double A = dir == PE_ROPE_INVERSE ? 1.0 / f->attention_factor : f->attention_factor;
    double excess = -1;
    unsigned char *mark = calloc(out->bytes, 1);
    const size_t esz = pe_dtype_size(to->dtype);
    const size_t off = (size_t)((unsigned char *)to->data - out->buf);
    for (int64_t t = 0; t < ti->tokens; t++)
        for (int64_t h = 0; h < ti->heads; h++) {
            for (int64_t j = 0; j < ti->head_dim; j++) memset(mark + off + esz * elem_index(to, t, h, j), 1, esz);
            for (int64_t i = 0; i < half; i++) {
                const quad c = ec[t * half + i], s = dir != PE_ROPE_FORWARD ? -es[t * half + i]
                                                                          : es[t * half + i];
                const int64_t ia = layout == PE_ROPE_HALF ? i : 2 * i;
                const int64_t ib = layout == PE_ROPE_HALF ? i + half : 2 * i + 1;
                const double a = load_elem(ti->data, elem_index(ti, t, h, ia), ti->dtype);
                const double b = load_elem(ti->data, elem_index(ti, t, h, ib), ti->dtype);
                const quad ra = (quad)A * ((quad)a * c - (quad)b * s);
                const quad rb = (quad)A * ((quad)a * s + (quad)b * c);
                for (int e = 0; e < 2; e++) {
                    const double got = load_elem(to->data, elem_index(to, t, h, e ? ib : ia), to->dtype);
                    const double exact = (double)(e ? rb : ra), partner = e ? a : b;
                    const double own = e ? b : a;
                    /* vector sets: the plain f32 form (pe_test_rope_f32_bound);
                     * scalar: one rounding of the double result */
                    double bound = vector ? pe_test_rope_f32_bound(exact, own, partner, A)
                                          : ldexp(fabs(exact), -24) * (1 + 0x1p-20) + 1e-14;
                    if (to->dtype != PE_F32) /* then a 16-bit rounding */
                        bound += 0.5 * step16(fabs(exact) + bound, to->dtype) + 1e-14;
                    excess = fmax(excess, (double)qabs((quad)got - (quad)exact) - bound);
                }
            }
            for (int64_t j = d; j < ti->head_dim; j++) /* pass-through, bit for bit */
                if (memcmp((char *)to->data + esz * elem_index(to, t, h, j),
                           (char *)ti->data + esz * elem_index(ti, t, h, j), esz) != 0)
                    excess = fmax(excess, 1.0);
        }
    *guards_ok = 1;
    for (size_t k = 0; k < out->bytes; k++)
        if (!mark[k] && out->buf[k] != out_before->buf[k]) *guards_ok = 0;
    free(mark);
    return excess;
}

/* |this set - scalar| per element, in units of the allowed difference. */
static double diff_vs_scalar(const pe_tensor *a, const pe_tensor *b, const view *in,
                             double A) {
    double worst = 0;
    for (int64_t t = 0; t < a->tokens; t++)
        for (int64_t h = 0; h < a->heads; h++)
            for (int64_t j = 0; j < a->head_dim; j++) {
                const size_t i = elem_index(a, t, h, j);
                const double x = load_elem(a->data, i, a->dtype), y = load_elem(b->data, i, b->dtype);
                /* scalar bound + vector bound with |own|, |partner| <= 1;
                 * 16-bit: the f32 values may straddle one rounding boundary */
                double allow = ldexp(2 * fabs(y) + 3 * A, -24) * (1 + 0x1p-20) + 2e-11 * A + 1e-14;
                if (a->dtype != PE_F32) allow += step16(fmax(fabs(x), fabs(y)), a->dtype);
                (void)in;
                worst = fmax(worst, fabs(x - y) / allow);
            }
    return worst;
}

TEST(kernels_rope_match_scalar_and_exact) {
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    const int64_t Ds[] = {64, 80, 96, 128, 256};
    /* partial rotary dims whose pair counts leave every tail length the
     * vector loops have (d/2 mod 8: 3 5 5 7 1, mod 16: 11 5 13 7 1) */
    const int64_t partial_d[] = {54, 74, 90, 110, 226};
    const pe_dtype dts[] = {PE_F32, PE_F16, PE_BF16};
    enum { T = 5, H = 3 };
    int64_t pos[T] = {0, 7, -1000, 1 << 30, 2147483647LL};
    int configs = 0;
    for (int di = 0; di < 5; di++)
        for (int partial = 0; partial < 2; partial++)
            for (int layout = 0; layout < 2; layout++)
                for (int ti = 0; ti < 3; ti++) {
                    const int64_t D = Ds[di], d = partial ? partial_d[di] : D;
                    const pe_dtype dt = dts[ti];
                    const int strided = (di + layout + ti) % 2, in_place = (di + partial) % 2;
                    const pe_rope_direction dir = (pe_rope_direction)((di + ti + layout) % 3);
                    pe_freqs f;
                    CHECK_OK(pe_freqs_default(d, 10000.0, &f));
                    f.attention_factor = partial ? 1.25 : 1.0;
                    pos[1] = pe_rng_int(&rng, -2147483647LL, 2147483647LL);
                    view in = make_view(T, H, D, dt, strided);
                    fill_view(&in, &rng);
                    view ref = make_view(T, H, D, dt, strided), out = make_view(T, H, D, dt, strided),
                         before = make_view(T, H, D, dt, strided);
                    pe_positions ps = pe_positions_list(pos);
                    quad ec[T * 128], es[T * 128];
                    for (int t = 0; t < T; t++)
                        for (int64_t i = 0; i < d / 2; i++)
                            exact_cos_sin(pos[t], f.inv_freq[i], f.inv_freq_lo[i], &ec[t * d / 2 + i],
                                          &es[t * d / 2 + i]);
                    for (int si = 0; si < N_SETS; si++) {
                        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
                        view *dst = si == 0 ? &ref : &out;
                        if (in_place) memcpy(dst->buf, in.buf, in.bytes);
                        memcpy(before.buf, dst->buf, dst->bytes);
                        CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &ps,
                                               in_place ? &dst->t : &in.t, &dst->t, dir));
                        int guards = 0;
                        const double ex = rotation_excess(&in, dst, &before, &f, (pe_rope_layout)layout,
                                                          ec, es, dir, si != 0, &guards);
                        CHECK_MSG(ex <= 0 && guards,
                                  "%s D=%lld d=%lld %s %s dir %d %s: excess %.3g, guards %d",
                                  SETS[si], (long long)D, (long long)d, layout ? "half" : "inter",
                                  pe_dtype_name(dt), (int)dir, in_place ? "in place" : "out",
                                  ex, guards);
                        if (si != 0) {
                            const double r = diff_vs_scalar(&dst->t, &ref.t, &in, f.attention_factor);
                            CHECK_MSG(r <= 1.0, "%s D=%lld %s %s: %.3g x allowed difference from scalar",
                                      SETS[si], (long long)D, pe_dtype_name(dt),
                                      layout ? "half" : "inter", r);
                        }
                        configs++;
                    }
                    free(in.buf), free(ref.buf), free(out.buf), free(before.buf);
                }
    CHECK(configs >= 60);
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_rope_accuracy_goal_every_set) {
    /* SPEC 2.2 goal: <= 1.5e-7 on rotated vectors in [-1, 1], |p| < 2^31,
     * against the exact rotation (no long double involved: holds under
     * valgrind too). */
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    const int64_t ps[] = {0, 1 << 10, 1 << 20, 1 << 30, 2147483647LL, -2147483647LL,
                          pe_rng_int(&rng, -2147483647LL, 2147483647LL),
                          pe_rng_int(&rng, -2147483647LL, 2147483647LL)};
    enum { D = 128, NP = sizeof ps / sizeof ps[0] };
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 500000.0, &f));
    float x[NP][D], y[NP][D];
    for (int k = 0; k < NP; k++)
        for (int j = 0; j < D; j++) x[k][j] = (float)rnd_unit(&rng);
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (int layout = 0; layout < 2; layout++) {
            double worst = 0;
            for (int k = 0; k < NP; k++) {
                pe_positions p = pe_positions_range(ps[k]);
                pe_tensor in = pe_tensor_dense(x[k], PE_F32, 1, 1, D), out = pe_tensor_dense(y[k], PE_F32, 1, 1, D);
                CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &p, &in, &out, PE_ROPE_FORWARD));
                for (int i = 0; i < D / 2; i++) {
                    quad c, s;
                    exact_cos_sin(ps[k], f.inv_freq[i], f.inv_freq_lo[i], &c, &s);
                    const int ia = layout ? i : 2 * i, ib = layout ? i + D / 2 : 2 * i + 1;
                    const quad ra = (quad)x[k][ia] * c - (quad)x[k][ib] * s;
                    const quad rb = (quad)x[k][ia] * s + (quad)x[k][ib] * c;
                    worst = fmax(worst, fmax((double)qabs((quad)y[k][ia] - ra), (double)qabs((quad)y[k][ib] - rb)));
                }
            }
            CHECK_MSG(worst <= 1.5e-7, "%s layout %d: max abs error %.3g > 1.5e-7", SETS[si], layout, worst);
        }
    }
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_rope_consecutive_positions_stay_exact) {
    /* Runs of consecutive positions: the vector sets step cos/sin by angle
     * addition between fresh evaluations every PE__ROPE_RESTART (32)
     * tokens; 100 tokens cross several restarts. Every token is held to the
     * same documented bound as a lone one, against the exact rotation. */
    pe_rng rng = {pe_test_seed()};
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { T = 100, D = 128 };
    /* the last start crosses 2^40, where the vector path hands over to the
     * exact scalar one mid-run */
    const int64_t starts[] = {-70, 12345, 2147483647LL - T, pe_rng_int(&rng, 0, 1 << 30),
                              (INT64_C(1) << 40) - 40};
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 500000.0, &f));
    f.attention_factor = 1.1;
    static float x[T * D], y[T * D];
    for (int j = 0; j < T * D; j++) x[j] = (float)rnd_unit(&rng);
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++)
            for (int layout = 0; layout < 2; layout++) {
                const pe_rope_direction dir = layout ? PE_ROPE_FORWARD : PE_ROPE_BACKWARD;
                pe_positions p = pe_positions_range(starts[k]);
                pe_tensor in = pe_tensor_dense(x, PE_F32, T, 1, D), out = pe_tensor_dense(y, PE_F32, T, 1, D);
                CHECK_OK(pe_rope_apply(&f, (pe_rope_layout)layout, &p, &in, &out, dir));
                double excess = -1;
                for (int t = 0; t < T; t++)
                    for (int i = 0; i < D / 2; i++) {
                        quad c, sn;
                        exact_cos_sin(starts[k] + t, f.inv_freq[i], f.inv_freq_lo[i], &c, &sn);
                        if (dir != PE_ROPE_FORWARD) sn = -sn;
                        const int ia = layout ? i : 2 * i, ib = layout ? i + D / 2 : 2 * i + 1;
                        const float *xr = x + t * D, *yr = y + t * D;
                        const quad A = (quad)f.attention_factor;
                        const quad ra = A * ((quad)xr[ia] * c - (quad)xr[ib] * sn);
                        const quad rb = A * ((quad)xr[ia] * sn + (quad)xr[ib] * c);
                        const double ba = pe_test_rope_f32_bound((double)ra, xr[ia], xr[ib], f.attention_factor);
                        const double bb = pe_test_rope_f32_bound((double)rb, xr[ib], xr[ia], f.attention_factor);
                        excess = fmax(excess, (double)qabs((quad)yr[ia] - ra) - ba);
                        excess = fmax(excess, (double)qabs((quad)yr[ib] - rb) - bb);
                    }
                CHECK_MSG(excess <= 0, "%s start %lld layout %d: excess %.3g over the bound", SETS[si],
                          (long long)starts[k], layout, excess);
            }
    }
    CHECK_OK(pe_kernels_select(saved));
}

TEST(kernels_rope_16bit_exhaustive_rounding) {
    /* p = 0 rotates by nothing, so out = RNE16(fl32(A a)) for every 16-bit
     * input a: all 65536 patterns (zeros, subnormals, overflow to inf; the
     * rows of inf/NaN are skipped), each set, against the test's own
     * conversions. Rows of 16 (vector tails), and of 128 half-split and 64
     * interleaved (full vectors: AVX-512 converts two at a time to bf16,
     * with its own fallback for subnormals). */
    char saved[16];
    snprintf(saved, sizeof saved, "%s", pe_kernels_name());
    enum { N = 65536 };
    uint16_t *x = malloc(2 * N), *y = malloc(2 * N);
    for (int i = 0; i < N; i++) x[i] = (uint16_t)i;
    /* magnitudes exact in f32 (so every set forms the same f32 product):
     * 1 + 2^-11 and 1 + 2^-8 put products on f16 and bf16 ties */
    const double As[] = {1.0, 1.0 + 0x1p-11, 1.0 + 0x1p-8, 3.0, 0.625};
    enum { NA = sizeof As / sizeof As[0] };
    static int64_t zeros[N / 16];
    pe_positions p0 = pe_positions_list(zeros);
    for (int si = 0; si < N_SETS; si++) {
        if (pe_kernels_select(SETS[si]) != PE_OK) continue;
        for (int wi = 0; wi < 3; wi++)
        for (int bf = 0; bf < 2; bf++)
            for (int ai = 0; ai < NA; ai++) {
                const int64_t D = wi == 0 ? 16 : wi == 1 ? 128 : 64;
                const pe_rope_layout lay = wi == 2 ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
                pe_freqs f;
                CHECK_OK(pe_freqs_default(D, 10000.0, &f));
                f.attention_factor = As[ai];
                const pe_dtype dt = bf ? PE_BF16 : PE_F16;
                pe_tensor in = pe_tensor_dense(x, dt, N / D, 1, D), out = pe_tensor_dense(y, dt, N / D, 1, D);
                CHECK_OK(pe_rope_apply(&f, lay, &p0, &in, &out, PE_ROPE_FORWARD));
                int bad = 0, first = -1;
                for (int i = 0; i < N; i++) {
                    const double a = bf ? bf16_value(x[i]) : f16_value(x[i]);
                    if (!isfinite(a)) continue; /* rows of inf/NaN: a * 1 - inf * 0 */
                    const float v = (float)(As[ai] * a);
                    const uint16_t want = bf ? bf16_round(v) : f16_round(v);
                    const double got = bf ? bf16_value(y[i]) : f16_value(y[i]);
                    /* a zero's sign is the rotation formula's (-0 - -0 = +0) */
                    const int ok = y[i] == want || (got == 0 && (want & 0x7FFF) == 0);
                    if (!ok && first < 0) first = i;
                    bad += !ok;
                }
                CHECK_MSG(bad == 0, "%s %s D=%lld A=%g: %d wrong, first input 0x%04x -> 0x%04x",
                          SETS[si], bf ? "bf16" : "f16", (long long)D, As[ai], bad, first,
                          first >= 0 ? y[first] : 0);
            }
    }
    free(x);
    free(y);
    CHECK_OK(pe_kernels_select(saved));
}

/* The rest (threads, q+k, scatter-add, sinusoidal tables, M-RoPE rows) is
 * in test_kernels2.c. */
