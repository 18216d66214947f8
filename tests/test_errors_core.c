/* test_errors_core.c — docs/ERRORS.md rows for the shared checks (COM),
 * additive encodings (ADD), learned tables (LRN), RoPE (ROPE), attention
 * (ATT), kernel selection (KRN) and allocation failure (MEM). Each EXPECT
 * poisons OUT, calls, and checks status, detail and untouched bytes (see
 * errors.h). This file also holds the harness itself. */
#include "errors.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>

static alignas(64) unsigned char err_buf[PE_ERR_BUF_BYTES];
unsigned char *const pe_err_buf = err_buf;

/* A pattern no plausible output reproduces byte for byte. */
static unsigned char poison_byte(size_t i) { return (unsigned char)(i * 37u + 11u); }

void pe_err_poison(void) {
    for (size_t i = 0; i < PE_ERR_BUF_BYTES; i++) err_buf[i] = poison_byte(i);
    /* A stale detail must not satisfy the needle: leave an unrelated one. */
    pe_freqs unused;
    (void)pe_freqs_default(-12345, 1e4, &unused);
}

void pe_err_verify(const char *id, int got, int want, const char *needle, const char *file,
                   int line) {
    if (got != want)
        pe_test_fail(file, line, "%s: status %d (%s: %s), want %d", id, got, pe_strerror(got),
                     pe_last_error(), want);
    else if (strstr(pe_last_error(), needle) == NULL)
        pe_test_fail(file, line, "%s: detail \"%s\" lacks \"%s\"", id, pe_last_error(), needle);
    for (size_t i = 0; i < PE_ERR_BUF_BYTES; i++)
        if (err_buf[i] != poison_byte(i)) {
            pe_test_fail(file, line, "%s: rejected call wrote output byte %zu", id, i);
            break;
        }
}

enum { D = 8, T = 2 };
static const float X[T * 2 * D] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8};
static const int64_t IDS[T] = {3, -4};

static pe_freqs freqs_d(int64_t d) {
    pe_freqs f;
    memset(&f, 0, sizeof f);
    (void)pe_freqs_default(d, 10000.0, &f);
    return f;
}

TEST(errors_common_checks) {
    const pe_freqs f = freqs_d(D);
    pe_positions r0 = pe_positions_range(0), rmax = pe_positions_range(INT64_MAX);
    const pe_tensor in = pe_tensor_dense((void *)X, PE_F32, T, 1, D);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    pe_tensor bad;
    void *c = OUT, *s = OUT_AT(4096);
    EXPECT("COM-1", PE_ERR_NULL, "positions must not be NULL",
           pe_rope_cos_sin(&f, NULL, 1, c, s, PE_F64));
    EXPECT("COM-2", PE_ERR_SHAPE, "count=-1 must be >= 0", pe_rope_cos_sin(&f, &r0, -1, c, s, PE_F64));
    EXPECT("COM-3", PE_ERR_RANGE, "start=9223372036854775807 + count=2 overflow int64",
           pe_rope_cos_sin(&f, &rmax, 2, c, s, PE_F64));
    EXPECT("COM-4", PE_ERR_NULL, "in must not be NULL",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, NULL, &out, PE_ROPE_FORWARD));
    EXPECT("COM-4", PE_ERR_NULL, "out must not be NULL",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, NULL, PE_ROPE_FORWARD));
    bad = out;
    bad.dtype = (pe_dtype)99;
    EXPECT("COM-5", PE_ERR_DTYPE, "out dtype=99 is not a known dtype",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, PE_ROPE_FORWARD));
    bad = out;
    bad.heads = -1;
    EXPECT("COM-6", PE_ERR_SHAPE, "out shape (2, -1, 8) has a negative size",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, PE_ROPE_FORWARD));
    bad = out;
    bad.data = NULL;
    EXPECT("COM-7", PE_ERR_NULL, "out data must not be NULL",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, PE_ROPE_FORWARD));
    bad = pe_tensor_dense(OUT, PE_F32, T, 2, D);
    bad.head_stride = 4;
    EXPECT("COM-8", PE_ERR_SHAPE, "head_stride=4 overlaps rows of head_dim=8",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &bad, &bad, PE_ROPE_FORWARD));
    bad = out;
    bad.token_stride = -8;
    EXPECT("COM-9", PE_ERR_SHAPE, "out strides must be >= 0 (token -8, head 8)",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, PE_ROPE_FORWARD));
    bad = out;
    bad.token_stride = INT64_MAX / 2;
    EXPECT("COM-10", PE_ERR_OVERFLOW, "out extent overflows size_t",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, PE_ROPE_FORWARD));
    bad = out;
    bad.token_stride = 0;
    EXPECT("COM-11", PE_ERR_SHAPE, "out token_stride=0 with 2 tokens",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, PE_ROPE_FORWARD));
}

TEST(errors_additive) {
    pe_positions r0 = pe_positions_range(0), big = pe_positions_range(0);
    pe_positions out_of = pe_positions_list(IDS);
    pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 0);
    EXPECT("ADD-1", PE_ERR_DIM, "dim=0 must be >= 1", pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    p = pe_additive_defaults(PE_ADD_RAW, 4);
    p.scale = NAN;
    EXPECT("ADD-2", PE_ERR_PARAM, "scale=nan must be finite", pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    p.scale = -INFINITY;
    EXPECT("ADD-2", PE_ERR_PARAM, "scale=-inf must be finite", pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    p = pe_additive_defaults(PE_ADD_NORMALIZED, 4);
    EXPECT("ADD-3", PE_ERR_PARAM, "length=0 must be >= 1", pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    p = pe_additive_defaults(PE_ADD_BINARY, 4);
    p.length = -3;
    EXPECT("ADD-3", PE_ERR_PARAM, "length=-3 must be >= 1", pe_additive_encode(&p, &r0, 1, OUT, PE_F32));
    p.length = 17;
    EXPECT("ADD-4", PE_ERR_DIM, "dim=4 is less than the 5 bits length=17 needs",
           pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 5);
    EXPECT("ADD-5", PE_ERR_DIM, "dim=5 must be even for sinusoidal",
           pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    const double bases[] = {0.0, -2.0, 1.0, NAN, INFINITY};
    const char *needles[] = {"base=0 ", "base=-2 ", "base=1 ", "base=nan ", "base=inf "};
    for (int k = 0; k < 5; k++) {
        p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
        p.base = bases[k];
        EXPECT("ADD-6", PE_ERR_PARAM, needles[k], pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    }
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    p.layout = (pe_sin_layout)7;
    EXPECT("ADD-7", PE_ERR_PARAM, "layout=7 is not a sinusoidal layout",
           pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    p.convention = (pe_sin_convention)7;
    EXPECT("ADD-8", PE_ERR_PARAM, "convention=7 is not a sinusoidal convention",
           pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    p = pe_additive_defaults((pe_additive_scheme)9, 4);
    EXPECT("ADD-9", PE_ERR_PARAM, "scheme=9 is not an additive scheme",
           pe_additive_encode(&p, &r0, 1, OUT, PE_F64));
    EXPECT("ADD-10", PE_ERR_NULL, "params must not be NULL", pe_additive_encode(NULL, &r0, 1, OUT, PE_F64));
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    EXPECT("ADD-11", PE_ERR_DTYPE, "dtype=i64: additive encodings fill f32 or f64",
           pe_additive_encode(&p, &r0, 1, OUT, PE_I64));
    EXPECT("ADD-12", PE_ERR_OVERFLOW, "count=4611686018427387904 x dim=4 overflows size_t",
           pe_additive_encode(&p, &big, (int64_t)1 << 62, OUT, PE_F64));
    EXPECT("ADD-13", PE_ERR_NULL, "out must not be NULL", pe_additive_encode(&p, &r0, 1, NULL, PE_F64));
    p = pe_additive_defaults(PE_ADD_BINARY, 4);
    p.length = 4;
    EXPECT("ADD-14", PE_ERR_RANGE, "position -4 (token 1) outside [0, length=4)",
           pe_additive_encode(&p, &out_of, T, OUT, PE_F64));
    p = pe_additive_defaults(PE_ADD_NORMALIZED, 4);
    p.length = 3;
    EXPECT("ADD-14", PE_ERR_RANGE, "position 3 (token 0) outside [0, length=3)",
           pe_additive_encode(&p, &out_of, T, OUT, PE_F32));
    p = pe_additive_defaults(PE_ADD_RAW, 4);
    EXPECT("ADD-15", PE_ERR_PARAM, "scheme=0 is not sinusoidal", pe_sinusoidal_frequency(&p, 0, OUTD));
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 8);
    EXPECT("ADD-16", PE_ERR_RANGE, "pair=4 outside [0, 4)", pe_sinusoidal_frequency(&p, 4, OUTD));
    EXPECT("ADD-16", PE_ERR_RANGE, "pair=-1 outside [0, 4)", pe_sinusoidal_frequency(&p, -1, OUTD));
    EXPECT("ADD-13", PE_ERR_NULL, "omega must not be NULL", pe_sinusoidal_frequency(&p, 0, NULL));
    p = pe_additive_defaults(PE_ADD_BINARY, 8);
    p.length = 8;
    EXPECT("ADD-17", PE_ERR_PARAM, "the shift matrix exists for sinusoidal only (scheme=2)",
           pe_shift_matrix(&p, 3, OUTD));
    EXPECT("ADD-17", PE_ERR_PARAM, "sinusoidal only", pe_shift_apply(&p, 3, OUTD, OUTD));
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, (int64_t)1 << 32);
    EXPECT("ADD-18", PE_ERR_OVERFLOW, "dim=4294967296 squared overflows", pe_shift_matrix(&p, 1, OUTD));
    p = pe_additive_defaults(PE_ADD_SINUSOIDAL, 8);
    EXPECT("ADD-13", PE_ERR_NULL, "v must not be NULL", pe_shift_apply(&p, 1, NULL, OUTD));
    EXPECT("ADD-13", PE_ERR_NULL, "out must not be NULL", pe_shift_apply(&p, 1, OUTD, NULL));
}

TEST(errors_learned) {
    pe_learned *t = NULL;
    CHECK_OK(pe_learned_create(40, 16, 7, &t));
    if (t == NULL) return;
    const int64_t pos_hi[2] = {0, 40}, pos_neg[1] = {INT64_MIN};
    static float grad[40 * 16];
    EXPECT("LRN-1", PE_ERR_DIM, "max_len=0 must be >= 1", pe_learned_create(0, 4, 1, OUT));
    EXPECT("LRN-1", PE_ERR_DIM, "dim=-4 must be >= 1", pe_learned_create(4, -4, 1, OUT));
    EXPECT("LRN-2", PE_ERR_OVERFLOW, "max_len=1099511627776 x dim=1099511627776 overflows size_t",
           pe_learned_create((int64_t)1 << 40, (int64_t)1 << 40, 1, OUT));
    EXPECT("LRN-3", PE_ERR_NULL, "out must not be NULL", pe_learned_create(4, 4, 1, NULL));
    EXPECT("LRN-3", PE_ERR_NULL, "table must not be NULL", pe_learned_forward(NULL, pos_hi, 1, OUTF));
    EXPECT("LRN-4", PE_ERR_SHAPE, "count=-1 must be >= 0", pe_learned_forward(t, pos_hi, -1, OUTF));
    EXPECT("LRN-3", PE_ERR_NULL, "positions must not be NULL", pe_learned_forward(t, NULL, 1, OUTF));
    EXPECT("LRN-5", PE_ERR_RANGE,
           "position 40 (token 1) outside the learned table [0, max_len=40): a learned table "
           "cannot extrapolate",
           pe_learned_forward(t, pos_hi, 2, OUTF));
    EXPECT("LRN-5", PE_ERR_RANGE, "position -9223372036854775808 (token 0)",
           pe_learned_backward(t, pos_neg, 1, grad, OUTF));
    EXPECT("LRN-3", PE_ERR_NULL, "out must not be NULL", pe_learned_forward(t, pos_hi, 1, NULL));
    EXPECT("LRN-3", PE_ERR_NULL, "grad_out must not be NULL", pe_learned_backward(t, pos_hi, 1, NULL, OUTF));
    EXPECT("LRN-3", PE_ERR_NULL, "grad_table must not be NULL",
           pe_learned_backward(t, pos_hi, 1, grad, NULL));
    /* sgd_step writes the table's own weights: they must be unchanged too */
    float *before = malloc(sizeof(float) * 40 * 16);
    if (before != NULL) memcpy(before, pe_learned_weights_const(t), sizeof(float) * 40 * 16);
    EXPECT("LRN-6", PE_ERR_PARAM, "lr=nan must be finite", pe_learned_sgd_step(t, grad, NAN));
    EXPECT("LRN-6", PE_ERR_PARAM, "lr=inf must be finite", pe_learned_sgd_step(t, grad, INFINITY));
    CHECK(before != NULL && memcmp(before, pe_learned_weights_const(t), sizeof(float) * 40 * 16) == 0);
    free(before);
    EXPECT("LRN-3", PE_ERR_NULL, "grad_table must not be NULL", pe_learned_sgd_step(t, NULL, 0.1f));
    EXPECT("LRN-3", PE_ERR_NULL, "path must not be NULL", pe_learned_save(t, NULL));
    pe_learned_free(t);
}

TEST(errors_rope) {
    const pe_freqs f = freqs_d(D);
    pe_freqs g;
    pe_positions r0 = pe_positions_range(0), ids = pe_positions_list(IDS);
    const pe_tensor in = pe_tensor_dense((void *)X, PE_F32, T, 1, D);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    pe_tensor bad, k_in = pe_tensor_dense((void *)X, PE_F32, T, 2, D);
    pe_tensor k_out = pe_tensor_dense(OUT_AT(4096), PE_F32, T, 2, D);
    const int64_t dims[] = {7, 0, -2, PE_MAX_ROTARY_DIM + 2};
    const char *dn[] = {"rotary_dim=7 must be even and in [2, 1024]", "rotary_dim=0 ",
                        "rotary_dim=-2 ", "rotary_dim=1026 exceeds PE_MAX_ROTARY_DIM=1024"};
    for (int k = 0; k < 4; k++)
        EXPECT("ROPE-1", PE_ERR_DIM, dn[k], pe_freqs_default(dims[k], 1e4, OUT));
    const double bases[] = {0.0, -1.0, 1.0, NAN, -INFINITY};
    const char *bn[] = {"base=0 must be finite, positive and not 1", "base=-1 ", "base=1 ",
                        "base=nan ", "base=-inf "};
    for (int k = 0; k < 5; k++) EXPECT("ROPE-2", PE_ERR_PARAM, bn[k], pe_freqs_default(8, bases[k], OUT));
    EXPECT("ROPE-3", PE_ERR_NULL, "out must not be NULL", pe_freqs_default(8, 1e4, NULL));
    EXPECT("ROPE-3", PE_ERR_NULL, "must not be NULL", pe_freqs_validate(NULL));
    g = f;
    g.rotary_dim = 5;
    EXPECT("ROPE-1", PE_ERR_DIM, "rotary_dim=5 ", pe_rope_apply(&g, PE_ROPE_HALF, &r0, &in, &out, 0));
    const double amps[] = {0.0, -1.0, NAN, INFINITY};
    const char *an[] = {"attention_factor=0 must be finite and > 0", "attention_factor=-1 ",
                        "attention_factor=nan ", "attention_factor=inf "};
    for (int k = 0; k < 4; k++) {
        g = f;
        g.attention_factor = amps[k];
        EXPECT("ROPE-4", PE_ERR_PARAM, an[k], pe_rope_apply(&g, PE_ROPE_HALF, &r0, &in, &out, 0));
    }
    g = f;
    g.softmax_scale_multiplier = NAN;
    EXPECT("ROPE-5", PE_ERR_PARAM, "softmax_scale_multiplier=nan must be finite and > 0",
           pe_rope_cos_sin(&g, &r0, 1, OUT, OUT_AT(4096), PE_F64));
    g = f;
    g.inv_freq[3] = NAN;
    EXPECT("ROPE-6", PE_ERR_PARAM, "inv_freq[3]=nan must be finite and >= 0",
           pe_rope_apply(&g, PE_ROPE_HALF, &r0, &in, &out, 0));
    g.inv_freq[3] = -0.5;
    EXPECT("ROPE-6", PE_ERR_PARAM, "inv_freq[3]=-0.5 ", pe_rope_apply(&g, PE_ROPE_HALF, &r0, &in, &out, 0));
    g = f;
    g.inv_freq_lo[2] = 1e-3;
    EXPECT("ROPE-7", PE_ERR_PARAM, "inv_freq_lo[2]=0.001 is not a low part of inv_freq=0.01",
           pe_rope_apply(&g, PE_ROPE_HALF, &r0, &in, &out, 0));
    EXPECT("ROPE-8", PE_ERR_PARAM, "layout=5 is not a RoPE layout",
           pe_rope_apply(&f, (pe_rope_layout)5, &r0, &in, &out, 0));
    EXPECT("ROPE-9", PE_ERR_PARAM, "direction=3 is not a RoPE direction",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &out, (pe_rope_direction)3));
    pe_rope_options o = pe_rope_options_default();
    const int threads[] = {0, -1, 1025};
    const char *tn[] = {"threads=0 must be in [1, 1024]", "threads=-1 ", "threads=1025 "};
    for (int k = 0; k < 3; k++) {
        o.threads = threads[k];
        EXPECT("ROPE-10", PE_ERR_PARAM, tn[k], pe_rope_apply_ex(&f, PE_ROPE_HALF, &r0, &in, &out, 0, &o));
        EXPECT("ROPE-10", PE_ERR_PARAM, tn[k],
               pe_rope_cos_sin_ex(&f, &r0, 1, OUT, OUT_AT(4096), PE_F64, &o));
    }
    o = pe_rope_options_default();
    o.stores = (pe_store_policy)7;
    EXPECT("ROPE-11", PE_ERR_PARAM, "stores=7 is not a pe_store_policy",
           pe_rope_apply_ex(&f, PE_ROPE_HALF, &r0, &in, &out, 0, &o));
    bad = out;
    bad.dtype = PE_F64;
    EXPECT("ROPE-12", PE_ERR_DTYPE, "RoPE tensors must be f32, f16 or bf16, out like in (in f32, out f64)",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, 0));
    bad = out;
    bad.tokens = 1;
    EXPECT("ROPE-13", PE_ERR_SHAPE, "in (2, 1, 8) and out (1, 1, 8) differ",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &bad, 0));
    const pe_freqs f16 = freqs_d(16);
    EXPECT("ROPE-14", PE_ERR_DIM, "rotary_dim=16 exceeds head_dim=8",
           pe_rope_apply(&f16, PE_ROPE_HALF, &r0, &in, &out, 0));
    bad = pe_tensor_dense(OUT, PE_F32, 1, T, D); /* same data, other strides */
    EXPECT("ROPE-15", PE_ERR_SHAPE, "out overlaps in: only the same view (in place)",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &bad, &(pe_tensor){OUT, PE_F32, 1, T, D, 8, 16}, 0));
    pe_tensor k3 = pe_tensor_dense((void *)X, PE_F32, 1, 2, D);
    pe_tensor k3o = pe_tensor_dense(OUT_AT(4096), PE_F32, 1, 2, D);
    EXPECT("ROPE-16", PE_ERR_SHAPE, "q (2 tokens, head_dim 8) and k (1 tokens, head_dim 8) must agree",
           pe_rope_apply_qk(&f, PE_ROPE_HALF, &ids, &in, &out, &k3, &k3o, 0, NULL));
    EXPECT("COM-4", PE_ERR_NULL, "k_out must not be NULL",
           pe_rope_apply_qk(&f, PE_ROPE_HALF, &ids, &in, &out, &k_in, NULL, 0, NULL));
    (void)k_out;
    EXPECT("ROPE-17", PE_ERR_DTYPE, "dtype=i64: cos/sin caches are f32, f64, f16 or bf16",
           pe_rope_cos_sin(&f, &r0, 1, OUT, OUT_AT(4096), PE_I64));
    EXPECT("ROPE-18", PE_ERR_OVERFLOW, "count=4611686018427387904 x pairs overflows size_t",
           pe_rope_cos_sin(&f, &r0, (int64_t)1 << 62, OUT, OUT_AT(4096), PE_F64));
    EXPECT("ROPE-3", PE_ERR_NULL, "sin_out must not be NULL", pe_rope_cos_sin(&f, &r0, 1, OUT, NULL, PE_F32));
    EXPECT("ROPE-14", PE_ERR_DIM, "rotary_dim=16 exceeds head_dim=8",
           pe_rope_layout_permutation(8, 16, OUTI));
    EXPECT("ROPE-1", PE_ERR_DIM, "rotary_dim=3 ", pe_rope_layout_permutation(8, 3, OUTI));
    EXPECT("ROPE-3", PE_ERR_NULL, "perm must not be NULL", pe_rope_layout_permutation(8, 8, NULL));
    /* In place: the input is the caller's buffer too and stays as it was. */
    pe_tensor inplace = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    EXPECT("COM-3", PE_ERR_RANGE, "overflow int64",
           pe_rope_apply(&f, PE_ROPE_HALF, &(pe_positions){.start = INT64_MAX}, &inplace, &inplace, 0));
}

TEST(errors_attention_kernels_memory) {
    const pe_freqs f = freqs_d(D), f16 = freqs_d(16);
    pe_attention_params p = pe_attention_params_default(T, T, D, D);
    pe_positions r0 = pe_positions_range(0);
    EXPECT("ATT-1", PE_ERR_NULL, "params must not be NULL", pe_attention(NULL, X, X, X, OUTF));
    p.n_q = 0;
    EXPECT("ATT-2", PE_ERR_DIM, "n_q=0, n_k=2, dim=8, dim_v=8 must all be >= 1", pe_attention(&p, X, X, X, OUTF));
    p.n_q = 3;
    p.causal = 1;
    EXPECT("ATT-3", PE_ERR_SHAPE, "causal attention needs n_q=3 <= n_k=2", pe_attention(&p, X, X, X, OUTF));
    p = pe_attention_params_default(T, T, D, D);
    p.scale = NAN;
    EXPECT("ATT-4", PE_ERR_PARAM, "scale=nan must be finite", pe_attention(&p, X, X, X, OUTF));
    p.scale = -INFINITY;
    EXPECT("ATT-4", PE_ERR_PARAM, "scale=-inf must be finite", pe_attention(&p, X, X, X, OUTF));
    p = pe_attention_params_default((int64_t)1 << 62, (int64_t)1 << 62, D, D);
    EXPECT("ATT-5", PE_ERR_OVERFLOW, "attention sizes overflow size_t", pe_attention(&p, X, X, X, OUTF));
    p = pe_attention_params_default(T, T, D, D);
    EXPECT("ATT-1", PE_ERR_NULL, "v must not be NULL", pe_attention(&p, X, X, NULL, OUTF));
    EXPECT("ATT-1", PE_ERR_NULL, "out must not be NULL", pe_attention(&p, X, X, X, NULL));
    EXPECT("ATT-6", PE_ERR_DIM, "rotary_dim=16 exceeds dim=8",
           pe_attention_rope(&p, &f16, PE_ROPE_HALF, &r0, &r0, X, X, X, OUTF));
    EXPECT("COM-1", PE_ERR_NULL, "positions must not be NULL",
           pe_attention_rope(&p, &f, PE_ROPE_HALF, &r0, NULL, X, X, X, OUTF));
    EXPECT("KRN-1", PE_ERR_PARAM, "name=\"avx9\" is not a kernel set (scalar, avx2, avx512, neon, auto)",
           pe_kernels_select("avx9"));
    /* KRN-2 needs a CPU without a set this build knows; on one that has
     * them all the row cannot be provoked, and selecting is not undone. */
    if (!pe_kernels_supported("avx512"))
        EXPECT("KRN-2", PE_ERR_UNSUPPORTED, "kernel set avx512 is not usable here",
               pe_kernels_select("avx512"));
    else if (!pe_kernels_supported("avx2"))
        EXPECT("KRN-2", PE_ERR_UNSUPPORTED, "kernel set avx2 is not usable here",
               pe_kernels_select("avx2"));
    /* 2^60 floats pass every size check (2^62 bytes fit size_t) and no
     * allocator grants them: the allocation failure path, observable. The
     * sanitizer targets run with allocator_may_return_null=1 for this. */
    EXPECT("MEM-1", PE_ERR_NOMEM, "no memory for a 1099511627776 x 1048576 table",
           pe_learned_create((int64_t)1 << 40, (int64_t)1 << 20, 1, OUT));
}

/* Rows added by issue 13 (docs/RELIABILITY.md): overlap, ranges, checked
 * sizes and strict headers, one EXPECT each. */
TEST(errors_reliability_rows) {
    const pe_freqs f = freqs_d(D);
    const pe_positions r0 = pe_positions_range(0);
    const pe_tensor in = pe_tensor_dense((void *)X, PE_F32, T, 1, D);
    const pe_tensor out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    /* two rows of one view share bytes (token_stride 4 < a row of 8) */
    const pe_tensor rows_overlap = {OUT, PE_F32, T, 1, D, 4, D};
    EXPECT("COM-12", PE_ERR_SHAPE,
           "rows of out overlap: token_stride=4, head_stride=8 for 2 tokens x 1 heads of head_dim=8",
           pe_rope_apply(&f, PE_ROPE_HALF, &r0, &in, &rows_overlap, 0));
    /* q/k outputs: k_out one row into q_out */
    const pe_tensor q_out = pe_tensor_dense(OUT, PE_F32, T, 1, D);
    const pe_tensor k_out = pe_tensor_dense(OUT_AT(4 * D), PE_F32, T, 1, D);
    EXPECT("ROPE-19", PE_ERR_SHAPE, "k_out overlaps q_out: only the same view (in place)",
           pe_rope_apply_qk(&f, PE_ROPE_HALF, &r0, &in, &q_out, &in, &k_out, 0, NULL));
    /* explicit positions stored inside the output */
    const pe_positions in_out = pe_positions_list((const int64_t *)OUT_AT(16));
    EXPECT("ROPE-20", PE_ERR_SHAPE, "out overlaps positions (64 and 16 bytes)",
           pe_rope_apply(&f, PE_ROPE_HALF, &in_out, &in, &out, 0));
    pe_freqs g = f;
    g.attention_factor = 1e10;
    EXPECT("ROPE-21", PE_ERR_RANGE, "attention_factor=1e+10 outside [1e-9, 1e9]",
           pe_rope_apply(&g, PE_ROPE_HALF, &r0, &in, &out, 0));
    g = f;
    g.inv_freq[0] = 1e250;
    EXPECT("ROPE-22", PE_ERR_RANGE, "inv_freq[0]=1e+250 exceeds PE_MAX_INV_FREQ=1e240",
           pe_rope_apply(&g, PE_ROPE_HALF, &r0, &in, &out, 0));
    EXPECT("ROPE-23", PE_ERR_SHAPE, "sin_out overlaps cos_out",
           pe_rope_cos_sin(&f, &r0, T, OUT, OUT_AT(8), PE_F32));
    EXPECT("ROPE-23", PE_ERR_SHAPE, "cos_out overlaps positions",
           pe_rope_cos_sin(&f, &in_out, T, OUT, OUT_AT(4096), PE_F32));
    /* key re-rotation: the cache is shifted in place, so `out` is also the input */
    EXPECT("ROPE-24", PE_ERR_PARAM, "delta=3 must be 0 when per-token deltas are given",
           pe_rope_shift(&f, PE_ROPE_HALF, IDS, 3, &out, &out, NULL));
    EXPECT("ROPE-25", PE_ERR_SHAPE, "out overlaps deltas (64 and 16 bytes)",
           pe_rope_shift(&f, PE_ROPE_HALF, (const int64_t *)OUT_AT(8), 0, &out, &out, NULL));
    const pe_freqs f6 = freqs_d(6);
    EXPECT("ROPE-26", PE_ERR_DIM, "new_freqs rotary_dim=6 differs from old_freqs rotary_dim=8",
           pe_rope_rebase(&f, &f6, PE_ROPE_HALF, &r0, &out, &out, NULL));
    EXPECT("ROPE-20", PE_ERR_SHAPE, "out overlaps positions",
           pe_rope_rebase(&f, &f, PE_ROPE_HALF, &in_out, &out, &out, NULL));
    /* M-RoPE: (t, h, w) positions inside the output */
    const int64_t sec[3] = {2, 1, 1};
    EXPECT("MRP-16", PE_ERR_SHAPE, "out overlaps positions",
           pe_mrope_apply(&f, PE_ROPE_HALF, (const int64_t *)OUT_AT(8), sec, PE_MROPE_BLOCKED, &in,
                          &out, PE_ROPE_FORWARD));
    /* attention */
    static const float Q[2 * D] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    pe_attention_params ap = pe_attention_params_default(T, T, D, D);
    ap.scale = 1e201;
    EXPECT("ATT-7", PE_ERR_RANGE, "scale=1e+201 exceeds 1e200", pe_attention(&ap, Q, Q, Q, OUTF));
    ap.scale = 0;
    EXPECT("ATT-8", PE_ERR_SHAPE, "out overlaps v (64 and 64 bytes)",
           pe_attention(&ap, Q, Q, OUTF, OUTF));
    static const float inf_bias[T * T] = {0, (float)INFINITY, 0, 0};
    ap.bias = inf_bias;
    EXPECT("ATT-9", PE_ERR_PARAM, "bias[1]=inf must be < +inf", pe_attention(&ap, Q, Q, Q, OUTF));
    /* additive encodings */
    pe_additive_params sp = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    sp.base = 1e-300;
    sp.convention = PE_SIN_FREQ_T2T;
    EXPECT("ADD-19", PE_ERR_RANGE, "base=1e-300 gives frequency 1e+300 above PE_MAX_INV_FREQ=1e240",
           pe_additive_encode(&sp, &r0, 1, OUT, PE_F64));
    pe_additive_params raw = pe_additive_defaults(PE_ADD_RAW, 2);
    raw.scale = 1e38;
    const pe_positions at10 = pe_positions_range(10);
    EXPECT("ADD-20", PE_ERR_RANGE, "scale=1e+38 x position 10 overflows f32",
           pe_additive_encode(&raw, &at10, 1, OUT, PE_F32));
    raw.scale = 1;
    EXPECT("ADD-21", PE_ERR_SHAPE, "out overlaps positions",
           pe_additive_encode(&raw, &in_out, T, OUT, PE_F64));
    pe_additive_params shift = pe_additive_defaults(PE_ADD_SINUSOIDAL, 4);
    EXPECT("ADD-22", PE_ERR_SHAPE, "out overlaps v (32 and 32 bytes)",
           pe_shift_apply(&shift, 3, (const double *)OUT, (double *)OUT_AT(8)));
    /* npy: NumPy ends its header with spaces and one newline */
    unsigned char npy[128 + 8];
    const char dict[] = "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }";
    memset(npy, ' ', 128);
    memcpy(npy, "\x93NUMPY\x01\x00\x76\x00", 10); /* header length 118 */
    memcpy(npy + 10, dict, sizeof dict - 1);
    npy[126] = '\0'; /* a NUL where NumPy writes a space */
    npy[127] = '\n';
    memset(npy + 128, 0, 8);
    EXPECT("NPY-31", PE_ERR_FORMAT,
           "npy header: the dict must be followed by spaces and one newline (byte 116 of 118 is 0x00)",
           pe_npy_parse(npy, sizeof npy, OUT));
    /* a list whose allocation size wraps: refused before any tensor is read */
    EXPECT("MEM-2", PE_ERR_OVERFLOW, "tensor list: 1152921504606846976 x 1 x 16 bytes overflows size_t",
           pe_safetensors_write("/nonexistent-dir/x.safetensors", (const pe_st_tensor *)OUT,
                                (int64_t)1 << 60, NULL));
}

/* Outputs that share memory with what the call reads (issue 13), beyond the
 * views: learned tables, T5 tables, analyses. */
TEST(errors_reliability_buffers) {
    pe_learned *t = NULL;
    CHECK_OK(pe_learned_create(4, 2, 1, &t));
    if (t == NULL) return;
    const int64_t pos[2] = {0, 3};
    const float *w = pe_learned_weights_const(t);
    EXPECT("LRN-9", PE_ERR_SHAPE, "out overlaps the table (16 and 32 bytes)",
           pe_learned_forward(t, pos, 2, (float *)(uintptr_t)w + 2));
    EXPECT("LRN-9", PE_ERR_SHAPE, "grad_table overlaps grad_out",
           pe_learned_backward(t, pos, 2, OUTF + 4, OUTF));
    pe_learned_free(t);
    EXPECT("BIAS-17", PE_ERR_SHAPE, "out overlaps table",
           pe_t5_bias(OUTF, PE_T5_TABLE_HEAD_MAJOR, 1, 1, 32, 128, 2, 2, OUTF + 8));
    const pe_freqs f = freqs_d(D);
    static const double q[D] = {1, 0, 0, 0, 0, 0, 0, 0};
    EXPECT("ANA-18", PE_ERR_SHAPE, "scores overlaps offsets",
           pe_rope_score_curve(&f, PE_ROPE_HALF, D, q, q, 0, OUTI, 4, OUTD + 1));
    int64_t found;
    EXPECT("ANA-18", PE_ERR_SHAPE, "distances overlaps offsets",
           pe_near_collisions(&f, 1, 10, 4, OUTI, OUTD + 2, &found));
}
