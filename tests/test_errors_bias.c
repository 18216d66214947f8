/* test_errors_bias.c — docs/ERRORS.md rows for attention biases (BIAS) and
 * the analyses (ANA), in the harness of errors.h: poisoned outputs, status,
 * detail with the argument and value, and no output byte written. */
#include "errors.h"

TEST(errors_bias) {
    static const float table[4 * 32];
    const int64_t big = (int64_t)1 << 62;
    EXPECT("BIAS-1", PE_ERR_PARAM, "heads=0 must be >= 1", pe_alibi_slopes(0, OUTD));
    EXPECT("BIAS-1", PE_ERR_PARAM, "heads=-3 must be >= 1", pe_alibi_bias(-3, 2, 2, PE_ALIBI_SYMMETRIC, OUT, PE_F32));
    EXPECT("BIAS-1", PE_ERR_PARAM, "heads=0 must be >= 1",
           pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 0, 1, 32, 128, 2, 2, OUTF));
    EXPECT("BIAS-2", PE_ERR_NULL, "slopes must not be NULL", pe_alibi_slopes(4, NULL));
    EXPECT("BIAS-3", PE_ERR_SHAPE, "n_q=-1 and n_k=4 must be >= 0",
           pe_alibi_bias(2, -1, 4, PE_ALIBI_SYMMETRIC, OUT, PE_F32));
    EXPECT("BIAS-3", PE_ERR_SHAPE, "n_q=2 and n_k=-2 must be >= 0",
           pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 4, 1, 32, 128, 2, -2, OUTF));
    EXPECT("BIAS-4", PE_ERR_PARAM, "mode=2 is not an ALiBi mode", pe_alibi_bias(2, 2, 2, (pe_alibi_mode)2, OUT, PE_F32));
    EXPECT("BIAS-5", PE_ERR_DTYPE, "dtype=f16: ALiBi biases are f32 or f64",
           pe_alibi_bias(2, 2, 2, PE_ALIBI_SYMMETRIC, OUT, PE_F16));
    EXPECT("BIAS-6", PE_ERR_SHAPE, "causal ALiBi needs n_q=5 <= n_k=4 (queries are the last keys)",
           pe_alibi_bias(2, 5, 4, PE_ALIBI_CAUSAL, OUT, PE_F64));
    EXPECT("BIAS-7", PE_ERR_OVERFLOW, "heads=2 x n_q=4611686018427387904 x n_k=4 overflows size_t",
           pe_alibi_bias(2, big, 4, PE_ALIBI_SYMMETRIC, OUT, PE_F32));
    EXPECT("BIAS-7", PE_ERR_OVERFLOW, "heads=4 x n_q=4 x n_k=4611686018427387904 overflows size_t",
           pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 4, 1, 32, 128, 4, big, OUTF));
    EXPECT("BIAS-8", PE_ERR_NULL, "out must not be NULL", pe_alibi_bias(2, 2, 2, PE_ALIBI_SYMMETRIC, NULL, PE_F32));
    EXPECT("BIAS-8", PE_ERR_NULL, "out must not be NULL",
           pe_t5_bias(table, PE_T5_TABLE_HEAD_MAJOR, 4, 1, 32, 128, 2, 2, NULL));
    EXPECT("BIAS-9", PE_ERR_PARAM, "bidirectional=2 must be 0 or 1", pe_t5_bucket(3, 2, 32, 128, OUTI));
    EXPECT("BIAS-10", PE_ERR_PARAM, "num_buckets=3 must be even and >= 4 for bidirectional buckets",
           pe_t5_bucket(3, 1, 3, 128, OUTI));
    EXPECT("BIAS-10", PE_ERR_PARAM, "num_buckets=1 must be >= 2", pe_t5_buckets(0, 4, 0, 1, 128, OUTI));
    EXPECT("BIAS-11", PE_ERR_PARAM, "max_distance=8 must exceed the 8 exact buckets",
           pe_t5_bucket(3, 1, 32, 8, OUTI));
    EXPECT("BIAS-2", PE_ERR_NULL, "bucket must not be NULL", pe_t5_bucket(3, 1, 32, 128, NULL));
    EXPECT("BIAS-12", PE_ERR_SHAPE, "count=-1 must be >= 0", pe_t5_buckets(0, -1, 1, 32, 128, OUTI));
    EXPECT("BIAS-13", PE_ERR_RANGE, "r_start=9223372036854775807 + count=2 overflows int64",
           pe_t5_buckets(INT64_MAX, 2, 1, 32, 128, OUTI));
    EXPECT("BIAS-14", PE_ERR_OVERFLOW, "count=4611686018427387904 buckets overflow size_t",
           pe_t5_buckets(0, big, 1, 32, 128, OUTI));
    EXPECT("BIAS-2", PE_ERR_NULL, "buckets must not be NULL", pe_t5_buckets(0, 3, 1, 32, 128, NULL));
    EXPECT("BIAS-2", PE_ERR_NULL, "table must not be NULL",
           pe_t5_bias(NULL, PE_T5_TABLE_HEAD_MAJOR, 4, 1, 32, 128, 2, 2, OUTF));
    EXPECT("BIAS-15", PE_ERR_PARAM, "layout=3 is not a T5 table layout",
           pe_t5_bias(table, (pe_t5_table_layout)3, 4, 1, 32, 128, 2, 2, OUTF));
    EXPECT("BIAS-16", PE_ERR_OVERFLOW, "table heads=4611686018427387904 x num_buckets=32 overflows size_t",
           pe_t5_bias(table, PE_T5_TABLE_BUCKET_MAJOR, big, 1, 32, 128, 2, 2, OUTF));
}

TEST(errors_analysis) {
    enum { N = 8 };
    static const double M[N * N], v[N];
    static const int64_t kpos[2] = {0, 1}, lens[3] = {4, 0, 2}, lens3[2] = {8, 3};
    static const int64_t offs[2] = {1, -1};
    pe_freqs f;
    CHECK_OK(pe_freqs_default(N, 1e4, &f));
    EXPECT("ANA-1", PE_ERR_DIM, "dim=0 must be in [1, 65536]", pe_logit_terms_compute(0, M, M, v, v, v, v, OUT));
    EXPECT("ANA-1", PE_ERR_DIM, "dim=65537 must be in [1, 65536]",
           pe_toy_analyze(65537, M, M, v, 0, v, kpos, 1, 0.0, OUT));
    EXPECT("ANA-2", PE_ERR_NULL, "p_n must not be NULL", pe_logit_terms_compute(N, M, M, v, v, v, NULL, OUT));
    EXPECT("ANA-2", PE_ERR_NULL, "out must not be NULL", pe_logit_terms_compute(N, M, M, v, v, v, v, NULL));
    EXPECT("ANA-2", PE_ERR_NULL, "key_pos must not be NULL", pe_toy_analyze(N, M, M, v, 0, v, NULL, 1, 0.0, OUT));
    EXPECT("ANA-3", PE_ERR_SHAPE, "n_keys=0 must be >= 1", pe_toy_analyze(N, M, M, v, 0, v, kpos, 0, 0.0, OUT));
    EXPECT("ANA-4", PE_ERR_PARAM, "tol=nan must be finite and >= 0", pe_toy_analyze(N, M, M, v, 0, v, kpos, 1, NAN, OUT));
    EXPECT("ANA-4", PE_ERR_PARAM, "tol=-1 must be finite and >= 0", pe_toy_analyze(N, M, M, v, 0, v, kpos, 1, -1.0, OUT));
    EXPECT("ANA-5", PE_ERR_SHAPE, "n=-1 must be >= 0", pe_normalized_inconsistency(1, lens, -1, OUTD, OUTD + 8));
    EXPECT("ANA-2", PE_ERR_NULL, "spacing must not be NULL", pe_normalized_inconsistency(1, lens, 3, OUTD, NULL));
    EXPECT("ANA-6", PE_ERR_PARAM, "lengths[1]=0 must be >= 1", pe_normalized_inconsistency(1, lens, 3, OUTD, OUTD + 8));
    EXPECT("ANA-7", PE_ERR_RANGE, "position 5 outside [0, length=3)",
           pe_normalized_inconsistency(5, lens3, 2, OUTD, OUTD + 8));
    EXPECT("ANA-2", PE_ERR_NULL, "out must not be NULL", pe_binary_hamming(0, 4, OUTI, NULL));
    EXPECT("ANA-8", PE_ERR_SHAPE, "count=0 must be >= 1", pe_binary_hamming(0, 0, OUTI, OUT_AT(4096)));
    EXPECT("ANA-9", PE_ERR_RANGE, "start=-1 must be >= 0 and start + count must fit int64",
           pe_binary_hamming(-1, 4, OUTI, OUT_AT(4096)));
    EXPECT("ANA-9", PE_ERR_RANGE, "start=9223372036854775806 must be >= 0",
           pe_binary_hamming(INT64_MAX - 1, 4, OUTI, OUT_AT(4096)));
    pe_freqs g = f;
    g.inv_freq[1] = INFINITY;
    EXPECT("ROPE-6", PE_ERR_PARAM, "inv_freq[1]=inf must be finite and >= 0",
           pe_pair_periods(&g, 100, OUTD, OUTD + 8, OUTD + 16, OUTD + 24));
    int64_t *found = (int64_t *)OUT_AT(8192);
    EXPECT("ANA-10", PE_ERR_RANGE, "offsets [0, 10] must satisfy 1 <= min <= max",
           pe_near_collisions(&f, 0, 10, 3, OUTI, OUTD + 8, found));
    EXPECT("ANA-10", PE_ERR_RANGE, "offsets [20, 10] must satisfy",
           pe_near_collisions(&f, 20, 10, 3, OUTI, OUTD + 8, found));
    EXPECT("ANA-11", PE_ERR_PARAM, "top=0 must be in [1, 100000]", pe_near_collisions(&f, 1, 10, 0, OUTI, OUTD + 8, found));
    EXPECT("ANA-2", PE_ERR_NULL, "found must not be NULL", pe_near_collisions(&f, 1, 10, 3, OUTI, OUTD + 8, NULL));
    EXPECT("ANA-12", PE_ERR_PARAM, "layout=9 is not a RoPE layout",
           pe_rope_score_curve(&f, (pe_rope_layout)9, N, v, v, 0, offs, 2, OUTD));
    EXPECT("ANA-13", PE_ERR_DIM, "head_dim=4 must be in [rotary_dim=8, 65536]",
           pe_rope_score_curve(&f, PE_ROPE_HALF, 4, v, v, 0, offs, 2, OUTD));
    EXPECT("ANA-2", PE_ERR_NULL, "k_vec must not be NULL",
           pe_rope_score_curve(&f, PE_ROPE_HALF, N, v, NULL, 0, offs, 2, OUTD));
    EXPECT("ANA-5", PE_ERR_SHAPE, "n=-2 must be >= 0", pe_rope_score_curve(&f, PE_ROPE_HALF, N, v, v, 0, offs, -2, OUTD));
    EXPECT("ANA-14", PE_ERR_RANGE, "m=9223372036854775807 + offsets[0]=1 overflows int64",
           pe_rope_score_curve(&f, PE_ROPE_HALF, N, v, v, INT64_MAX, offs, 2, OUTD));
    EXPECT("ANA-14", PE_ERR_RANGE, "m=-9223372036854775808 + offsets[1]=-1 overflows int64",
           pe_rope_score_curve(&f, PE_ROPE_HALF, N, v, v, INT64_MIN, offs, 2, OUTD));
    pe_positions r0 = pe_positions_range(0);
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, N);
    EXPECT("ANA-15", PE_ERR_SHAPE, "count=0 must be in [1, 32768]", pe_similarity_additive(&p, &r0, 0, OUTD));
    EXPECT("ANA-15", PE_ERR_SHAPE, "count=32769 must be in [1, 32768]",
           pe_similarity_rope(&f, PE_ROPE_HALF, N, v, v, &r0, 32769, OUTD));
    EXPECT("ANA-2", PE_ERR_NULL, "params must not be NULL", pe_similarity_additive(NULL, &r0, 2, OUTD));
    p.dim = 0;
    EXPECT("ANA-16", PE_ERR_DIM, "dim=0 must be >= 1", pe_similarity_additive(&p, &r0, 2, OUTD));
    p.dim = (int64_t)1 << 62;
    EXPECT("ANA-17", PE_ERR_OVERFLOW, "count x dim overflows size_t", pe_similarity_additive(&p, &r0, 8, OUTD));
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 5); /* rejected by the encoder it calls */
    EXPECT("ADD-5", PE_ERR_DIM, "dim=5 must be even for sinusoidal", pe_similarity_additive(&p, &r0, 2, OUTD));
    EXPECT("COM-3", PE_ERR_RANGE, "overflow int64",
           pe_similarity_rope(&f, PE_ROPE_HALF, N, v, v, &(pe_positions){.start = INT64_MAX}, 2, OUTD));
    const int64_t big = (int64_t)1 << 62;
    static const float y[2 * 3];
    static const int64_t rev[2] = {1, 0}, bad_perm[2] = {1, 2};
    EXPECT("ANA-2", PE_ERR_NULL, "y_perm must not be NULL", pe_permutation_gap(y, NULL, rev, 2, 3, OUTD));
    EXPECT("ANA-2", PE_ERR_NULL, "gap must not be NULL", pe_permutation_gap(y, y, rev, 2, 3, NULL));
    EXPECT("ANA-19", PE_ERR_SHAPE, "rows=0 and cols=3 must be >= 1", pe_permutation_gap(y, y, rev, 0, 3, OUTD));
    EXPECT("ANA-19", PE_ERR_SHAPE, "rows=2 and cols=-1 must be >= 1", pe_zero_row_sums(OUTD, 2, -1));
    EXPECT("ANA-20", PE_ERR_OVERFLOW, "rows=4611686018427387904 x cols=8 overflows size_t",
           pe_zero_row_sums(OUTD, big, 8));
    EXPECT("ANA-21", PE_ERR_RANGE, "perm[1]=2 outside [0, rows=2)", pe_permutation_gap(y, y, bad_perm, 2, 3, OUTD));
    EXPECT("ANA-2", PE_ERR_NULL, "m must not be NULL", pe_zero_row_sums(NULL, 2, 2));
    static const double logits[3] = {0.5, NAN, 1.0}, hot[2] = {1.0, INFINITY};
    EXPECT("ANA-22", PE_ERR_SHAPE, "n=0 must be >= 1", pe_softmax(v, 0, OUTD));
    EXPECT("ANA-23", PE_ERR_OVERFLOW, "n=4611686018427387904 doubles overflow size_t", pe_softmax(v, big, OUTD));
    EXPECT("ANA-24", PE_ERR_PARAM, "x[1]=nan must be a number below +inf", pe_softmax(logits, 3, OUTD));
    EXPECT("ANA-24", PE_ERR_PARAM, "x[1]=inf must be a number below +inf", pe_softmax(hot, 2, OUTD));
    EXPECT("ANA-2", PE_ERR_NULL, "x must not be NULL", pe_softmax(NULL, 2, OUTD));
    EXPECT("ANA-25", PE_ERR_SHAPE, "out overlaps x", pe_softmax(OUTD, 4, OUTD + 1));
}
