/* test_additive.c — raw, normalized, binary and sinusoidal encodings and the
 * shift matrix, against long double references written here. */
#include "runner.h"

#include <stdlib.h>

/* Reference sinusoidal value in long double (sinl reduces its argument
 * exactly), independent of the library's frequency and angle code. */
static long double ref_sin_elem(long double base, int64_t D, int64_t p, int64_t j,
                                int concatenated, int t2t) {
    int64_t half = D / 2;
    int64_t i = concatenated ? (j % half) : j / 2;
    int is_cos = concatenated ? (j >= half) : (j % 2);
    long double expo = t2t ? (long double)i / (long double)(half - 1 > 0 ? half - 1 : 1)
                           : (long double)(2 * i) / (long double)D;
    long double w = powl(base, -expo);
    long double a = (long double)p * w;
    return is_cos ? cosl(a) : sinl(a);
}

TEST(sinusoidal_golden_p7_d4) {
    /* The seeds' exam sheet: D=4, p=7 -> (sin 7, cos 7, sin .07, cos .07).
     * The sheet prints 0.0698 for the third value; sin(0.07) = 0.069942847
     * rounds to 0.0699. */
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    int64_t pos = 7;
    pe_positions ps = pe_positions_list(&pos);
    double row[4];
    CHECK_OK(pe_additive_encode(&p, &ps, 1, row, PE_F64));
    CHECK_NEAR(row[0], 0.65699, 5e-6);
    CHECK_NEAR(row[1], 0.75390, 5e-6);
    CHECK_NEAR(row[2], 0.06994, 5e-6);
    CHECK_NEAR(row[3], 0.99755, 5e-6);
    CHECK(fabs(row[2] - 0.0698) > 1e-4); /* the sheet's 0.0698 is a typo */
    /* Exact to double rounding: the reference is libm-independent sinl. */
    CHECK_NEAR(row[0], sinl(7.0L), 1e-15);
    CHECK_NEAR(row[2], sinl(0.07L), 1e-16);
}

TEST(sinusoidal_matches_long_double_reference) {
    const int64_t dims[] = {2, 4, 16, 64, 128};
    const double bases[] = {2.0, 100.0, 10000.0, 1e9};
    pe_rng rng = {pe_test_seed()};
    for (int di = 0; di < 5; di++)
        for (int bi = 0; bi < 4; bi++)
            for (int conc = 0; conc < 2; conc++)
                for (int t2t = 0; t2t < 2; t2t++) {
                    int64_t D = dims[di];
                    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
                    p.base = bases[bi];
                    p.layout = conc ? PE_SIN_CONCATENATED : PE_SIN_INTERLEAVED;
                    p.convention = t2t ? PE_SIN_FREQ_T2T : PE_SIN_FREQ_PAPER;
                    int64_t pos[6] = {0, 1, -5, 1000, 1 << 20, 0};
                    pos[5] = pe_rng_int(&rng, -(1LL << 31), 1LL << 31);
                    pe_positions ps = pe_positions_list(pos);
                    double *out = malloc(sizeof(double) * 6 * (size_t)D);
                    float *out32 = malloc(sizeof(float) * 6 * (size_t)D);
                    CHECK_OK(pe_additive_encode(&p, &ps, 6, out, PE_F64));
                    CHECK_OK(pe_additive_encode(&p, &ps, 6, out32, PE_F32));
                    for (int r = 0; r < 6; r++)
                        for (int64_t j = 0; j < D; j++) {
                            long double ref = ref_sin_elem(bases[bi], D, pos[r], j, conc, t2t);
                            /* The angle p*w carries the error of w (library
                             * and reference each ~eps_ld relative) times
                             * |p| <= 2^31: 2^31 * 4 eps_ld is 1e-9 with x87
                             * long double, 2e-6 where long double is double;
                             * then one double rounding (1e-16). */
                            double tol = 0x1p31 * 4 * pe_test_ld_eps() + 1e-15;
                            CHECK_NEAR(out[r * D + j], (double)ref, tol);
                            /* f32 output: one float rounding (<= 6e-8). */
                            CHECK_NEAR(out32[r * D + j], (double)ref, tol + 6e-8);
                        }
                    free(out);
                    free(out32);
                }
}

TEST(sinusoidal_range_equals_list) {
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 8);
    int64_t ids[3] = {10, 11, 12};
    pe_positions range = pe_positions_range(10), list = pe_positions_list(ids);
    double a[24], b[24];
    CHECK_OK(pe_additive_encode(&p, &range, 3, a, PE_F64));
    CHECK_OK(pe_additive_encode(&p, &list, 3, b, PE_F64));
    CHECK(memcmp(a, b, sizeof a) == 0);
}

TEST(raw_and_normalized_values) {
    pe_additive_params raw = pe_additive_defaults(PE_ADD_RAW, 3);
    raw.scale = 0.5;
    pe_positions r = pe_positions_range(-2);
    double out[12];
    CHECK_OK(pe_additive_encode(&raw, &r, 4, out, PE_F64));
    for (int t = 0; t < 4; t++)
        for (int j = 0; j < 3; j++) CHECK_NEAR(out[t * 3 + j], 0.5 * (t - 2), 0.0);

    pe_additive_params nrm = pe_additive_defaults(PE_ADD_NORMALIZED, 2);
    nrm.length = 5;
    pe_positions z = pe_positions_range(0);
    CHECK_OK(pe_additive_encode(&nrm, &z, 5, out, PE_F64));
    for (int t = 0; t < 5; t++) CHECK_NEAR(out[t * 2 + 1], t / 4.0, 0.0);
    nrm.length = 1; /* a single token sits at 0 */
    CHECK_OK(pe_additive_encode(&nrm, &z, 1, out, PE_F64));
    CHECK_NEAR(out[0], 0.0, 0.0);
    /* the seeds' inconsistency: position 2 means different things */
    nrm.length = 3;
    pe_positions two = pe_positions_range(2);
    CHECK_OK(pe_additive_encode(&nrm, &two, 1, out, PE_F64));
    CHECK_NEAR(out[0], 1.0, 0.0);
    nrm.length = 5;
    CHECK_OK(pe_additive_encode(&nrm, &two, 1, out, PE_F64));
    CHECK_NEAR(out[0], 0.5, 0.0);
}

TEST(binary_msb_first_with_padding) {
    CHECK(pe_binary_nbits(1) == 1);
    CHECK(pe_binary_nbits(2) == 1);
    CHECK(pe_binary_nbits(3) == 2);
    CHECK(pe_binary_nbits(8) == 3);
    CHECK(pe_binary_nbits(9) == 4);
    pe_additive_params p = pe_additive_defaults(PE_ADD_BINARY, 4);
    p.length = 8; /* 3 bits, one zero of padding on the left */
    pe_positions r = pe_positions_range(0);
    double out[32];
    CHECK_OK(pe_additive_encode(&p, &r, 8, out, PE_F64));
    for (int t = 0; t < 8; t++) {
        CHECK_NEAR(out[t * 4 + 0], 0.0, 0.0);
        CHECK_NEAR(out[t * 4 + 1], (t >> 2) & 1, 0.0);
        CHECK_NEAR(out[t * 4 + 2], (t >> 1) & 1, 0.0);
        CHECK_NEAR(out[t * 4 + 3], t & 1, 0.0);
    }
}

TEST(additive_errors_leave_buffer_untouched) {
    double out[16];
    unsigned char before[sizeof out];
    memset(out, 0x5a, sizeof out);
    memcpy(before, out, sizeof out);
    pe_positions r = pe_positions_range(0);
    pe_additive_params s = pe_additive_defaults(PE_ADD_SINUSOIDAL, 5);
    CHECK_ERROR(pe_additive_encode(&s, &r, 1, out, PE_F64), PE_ERR_DIM, "dim=5 must be even");
    s.dim = 4;
    s.base = 0.0;
    CHECK_ERROR(pe_additive_encode(&s, &r, 1, out, PE_F64), PE_ERR_PARAM, "base=0");
    s.base = NAN;
    CHECK_ERROR(pe_additive_encode(&s, &r, 1, out, PE_F64), PE_ERR_PARAM, "base=nan");
    s.base = -3;
    CHECK_ERROR(pe_additive_encode(&s, &r, 1, out, PE_F64), PE_ERR_PARAM, "base=-3");
    s.base = 10000;
    CHECK_ERROR(pe_additive_encode(&s, &r, 1, out, PE_F16), PE_ERR_DTYPE, "f16");
    pe_additive_params n = pe_additive_defaults(PE_ADD_NORMALIZED, 2);
    n.length = 4;
    int64_t bad[3] = {0, 3, 4};
    pe_positions l = pe_positions_list(bad);
    CHECK_ERROR(pe_additive_encode(&n, &l, 3, out, PE_F64), PE_ERR_RANGE, "position 4");
    n.length = 0;
    CHECK_ERROR(pe_additive_encode(&n, &r, 1, out, PE_F64), PE_ERR_PARAM, "length=0");
    pe_additive_params b = pe_additive_defaults(PE_ADD_BINARY, 2);
    b.length = 16;
    CHECK_ERROR(pe_additive_encode(&b, &r, 1, out, PE_F64), PE_ERR_DIM, "4 bits");
    b.dim = 4;
    int64_t neg = -1;
    pe_positions ln = pe_positions_list(&neg);
    CHECK_ERROR(pe_additive_encode(&b, &ln, 1, out, PE_F64), PE_ERR_RANGE, "position -1");
    pe_additive_params raw = pe_additive_defaults(PE_ADD_RAW, 2);
    raw.scale = INFINITY;
    CHECK_ERROR(pe_additive_encode(&raw, &r, 1, out, PE_F64), PE_ERR_PARAM, "scale=inf");
    raw.scale = 1;
    CHECK_ERROR(pe_additive_encode(&raw, NULL, 1, out, PE_F64), PE_ERR_NULL, "pos");
    CHECK_ERROR(pe_additive_encode(&raw, &r, 1, NULL, PE_F64), PE_ERR_NULL, "out");
    CHECK_ERROR(pe_additive_encode(&raw, &r, -1, out, PE_F64), PE_ERR_SHAPE, "count=-1");
    pe_positions huge = pe_positions_range(INT64_MAX);
    CHECK_ERROR(pe_additive_encode(&raw, &huge, 2, out, PE_F64), PE_ERR_RANGE, "overflow");
    CHECK(memcmp(out, before, sizeof out) == 0);
}

TEST(shift_matrix_moves_positions) {
    /* PE(p + k) = M_k PE(p) for every p, both layouts; M_k depends on k only. */
    for (int conc = 0; conc < 2; conc++) {
        const int64_t D = 16;
        pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
        p.layout = conc ? PE_SIN_CONCATENATED : PE_SIN_INTERLEAVED;
        double M[16 * 16];
        const int64_t k = 37;
        CHECK_OK(pe_shift_matrix(&p, k, M));
        const int64_t ps[3] = {0, 5, 12345};
        for (int r = 0; r < 3; r++) {
            double a[16], b[16], mv[16], ap[16];
            pe_positions pa = pe_positions_range(ps[r]);
            pe_positions pb = pe_positions_range(ps[r] + k);
            CHECK_OK(pe_additive_encode(&p, &pa, 1, a, PE_F64));
            CHECK_OK(pe_additive_encode(&p, &pb, 1, b, PE_F64));
            for (int i = 0; i < D; i++) {
                mv[i] = 0;
                for (int j = 0; j < D; j++) mv[i] += M[i * D + j] * a[j];
            }
            CHECK_OK(pe_shift_apply(&p, k, a, ap));
            for (int i = 0; i < D; i++) {
                /* two terms of products of exact-to-1ulp values */
                CHECK_NEAR(mv[i], b[i], 1e-14);
                CHECK_NEAR(ap[i], b[i], 1e-14);
            }
            /* in place (aliasing) gives the same */
            CHECK_OK(pe_shift_apply(&p, k, a, a));
            for (int i = 0; i < D; i++) CHECK_NEAR(a[i], ap[i], 0.0);
        }
        /* off-block entries are exactly zero */
        int64_t i0 = 0, i1 = conc ? D / 2 : 1;
        for (int j = 0; j < D; j++)
            if (j != i0 && j != i1) CHECK(M[i0 * D + j] == 0.0);
    }
    pe_additive_params raw = pe_additive_defaults(PE_ADD_RAW, 4);
    double M[16];
    CHECK_ERROR(pe_shift_matrix(&raw, 1, M), PE_ERR_PARAM, "sinusoidal only");
}

TEST(sinusoidal_dot_product_depends_on_offset_only) {
    /* PE(m).PE(n) = sum_i cos((m-n) w_i): symmetric in the sign of m-n. */
    const int64_t D = 64;
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
    double a[64], b[64], c[64];
    pe_positions pm = pe_positions_range(100), pn = pe_positions_range(130),
                 pk = pe_positions_range(70);
    CHECK_OK(pe_additive_encode(&p, &pm, 1, a, PE_F64));
    CHECK_OK(pe_additive_encode(&p, &pn, 1, b, PE_F64));
    CHECK_OK(pe_additive_encode(&p, &pk, 1, c, PE_F64));
    double ab = 0, ac = 0, ref = 0;
    for (int j = 0; j < D; j++) {
        ab += a[j] * b[j];
        ac += a[j] * c[j];
    }
    for (int i = 0; i < D / 2; i++) ref += (double)cosl(30.0L * powl(10000.0L, -2.0L * i / D));
    CHECK_NEAR(ab, ref, 1e-12);
    CHECK_NEAR(ac, ref, 1e-12); /* +30 and -30 look the same */
}
