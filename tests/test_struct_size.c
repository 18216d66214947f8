/* test_struct_size.c — the extensible parameter structs (README "ABI and
 * versions", src/struct_size.h): a caller built against an older, smaller
 * struct gets the defaults for the fields it lacks and the same results; a
 * struct_size below the first version's, or one that sets bytes this
 * library does not know, is refused (docs/ERRORS.md SIZE-*) without
 * writing anything. */
#include "errors.h"

#include <stddef.h>
#include <stdlib.h>

enum { T = 5, H = 2, D = 8 };

/* The rotation of a fixed input with the given options into out. */
static int rotate(const pe_rope_options *o, float *out) {
    float in[T * H * D];
    for (int i = 0; i < T * H * D; i++) in[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    pe_freqs f;
    int st = pe_freqs_default(D, 1e4, &f);
    if (st != PE_OK) return st;
    pe_positions p = pe_positions_range(100);
    pe_tensor ti = pe_tensor_dense(in, PE_F32, T, H, D), to = pe_tensor_dense(out, PE_F32, T, H, D);
    return pe_rope_apply_ex(&f, PE_ROPE_HALF, &p, &ti, &to, PE_ROPE_FORWARD, o);
}

TEST(struct_size_defaults_set_it) {
    CHECK(pe_rope_options_default().struct_size == sizeof(pe_rope_options));
    /* the first version's size is part of the ABI: 16 bytes on LP64 */
    CHECK(offsetof(pe_rope_options, stores) + sizeof(pe_store_policy) == 2 * sizeof(size_t) ||
          sizeof(size_t) != 8);
}

TEST(struct_size_older_and_newer_callers) {
    float want[T * H * D], got[T * H * D];
    CHECK_OK(rotate(NULL, want));
    /* An older caller: only the first version's fields (it knows nothing
     * past stores), the rest of its memory garbage the library must not read. */
    struct {
        pe_rope_options o;
        unsigned char after[64];
    } older;
    memset(&older, 0xA5, sizeof older);
    older.o.struct_size = offsetof(pe_rope_options, stores) + sizeof older.o.stores;
    older.o.threads = 1;
    older.o.stores = PE_STORES_AUTO;
    CHECK_OK(rotate(&older.o, got));
    CHECK(memcmp(want, got, sizeof want) == 0);
    /* A newer caller whose extra fields are zero (their defaults) is
     * accepted; the bytes past this library's struct are not used. */
    struct {
        pe_rope_options o;
        unsigned char more[24];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.o = pe_rope_options_default();
    newer.o.struct_size = sizeof newer;
    newer.o.threads = 2;
    memset(got, 0, sizeof got);
    CHECK_OK(rotate(&newer.o, got));
    CHECK(memcmp(want, got, sizeof want) == 0);
}

TEST(errors_struct_size) {
    float *out = (float *)OUT;
    pe_rope_options o = pe_rope_options_default();
    o.struct_size = 0;
    EXPECT("SIZE-1", PE_ERR_PARAM,
           "pe_rope_options.struct_size=0 is smaller than its first version (16 bytes): start "
           "from pe_rope_options_default()",
           rotate(&o, out));
    o.struct_size = 15;
    EXPECT("SIZE-1", PE_ERR_PARAM, "pe_rope_options.struct_size=15 ", rotate(&o, out));
    struct {
        pe_rope_options o;
        unsigned char more[8];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.o = pe_rope_options_default();
    newer.o.struct_size = sizeof newer;
    newer.more[3] = 1;
    EXPECT("SIZE-2", PE_ERR_PARAM, "sets fields past this library's", rotate(&newer.o, out));
    pe_freqs f;
    CHECK_OK(pe_freqs_default(D, 1e4, &f));
    o.struct_size = 8;
    pe_positions p = pe_positions_range(0);
    EXPECT("SIZE-1", PE_ERR_PARAM, "pe_rope_options.struct_size=8 ",
           pe_rope_cos_sin_ex(&f, &p, 2, out, out + 64, PE_F32, &o));
    float x[D] = {1, 2, 3, 4, 5, 6, 7, 8};
    pe_tensor t = pe_tensor_dense(x, PE_F32, 1, 1, D);
    EXPECT("SIZE-1", PE_ERR_PARAM, "pe_rope_options.struct_size=8 ",
           pe_rope_shift(&f, PE_ROPE_HALF, NULL, 3, &t, &t, &o));
}

TEST(struct_size_scaling_and_additive) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 64);
    CHECK(s.struct_size == sizeof s);
    pe_additive_params a = pe_additive_defaults(PE_ADD_SINUSOIDAL, 8);
    CHECK(a.struct_size == sizeof a);
    s.factor = 4;
    pe_freqs want, got;
    CHECK_OK(pe_freqs_from_scaling(&s, &want, NULL));
    /* a newer caller: zero bytes past this library's struct are accepted */
    struct {
        pe_rope_scaling s;
        unsigned char more[16];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.s = s;
    newer.s.struct_size = sizeof newer;
    CHECK_OK(pe_freqs_from_scaling(&newer.s, &got, NULL));
    CHECK(memcmp(&want, &got, sizeof want) == 0);
    double w0, w1;
    CHECK_OK(pe_sinusoidal_frequency(&a, 1, &w0));
    struct {
        pe_additive_params a;
        unsigned char more[16];
    } newer_a;
    memset(&newer_a, 0, sizeof newer_a);
    newer_a.a = a;
    newer_a.a.struct_size = sizeof newer_a;
    CHECK_OK(pe_sinusoidal_frequency(&newer_a.a, 1, &w1));
    CHECK(w0 == w1);
}

TEST(errors_struct_size_scaling_and_additive) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 64);
    s.struct_size = 0;
    EXPECT("SIZE-1", PE_ERR_PARAM,
           "pe_rope_scaling.struct_size=0 is smaller than its first version", pe_freqs_from_scaling(&s, OUT, NULL));
    EXPECT("SIZE-1", PE_ERR_PARAM, "start from pe_rope_scaling_defaults()",
           pe_freqs_from_scaling(&s, OUT, NULL));
    struct {
        pe_rope_scaling s;
        unsigned char more[8];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 64);
    newer.s.struct_size = sizeof newer;
    newer.more[7] = 9;
    EXPECT("SIZE-2", PE_ERR_PARAM, "pe_rope_scaling.struct_size=", pe_freqs_from_scaling(&newer.s, OUT, NULL));
    pe_additive_params a = pe_additive_defaults(PE_ADD_RAW, 4);
    a.struct_size = 3;
    pe_positions p = pe_positions_range(0);
    EXPECT("SIZE-1", PE_ERR_PARAM, "pe_additive_params.struct_size=3 is smaller than its first version",
           pe_additive_encode(&a, &p, 2, OUT, PE_F32));
    EXPECT("SIZE-1", PE_ERR_PARAM, "start from pe_additive_defaults()", pe_shift_matrix(&a, 1, OUT));
}

TEST(struct_size_attention) {
    enum { N = 3, DA = 4 };
    const float q[N * DA] = {1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0};
    float a[N * DA], b[N * DA];
    pe_attention_params p = pe_attention_params_default(N, N, DA, DA);
    CHECK(p.struct_size == sizeof p && p.scale == 0.0 && p.causal == 0 && p.bias == NULL);
    p.causal = 1;
    CHECK_OK(pe_attention(&p, q, q, q, a));
    struct {
        pe_attention_params p;
        unsigned char more[16];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.p = p;
    newer.p.struct_size = sizeof newer;
    CHECK_OK(pe_attention(&newer.p, q, q, q, b));
    CHECK(memcmp(a, b, sizeof a) == 0);
    p.struct_size = 8;
    EXPECT("SIZE-1", PE_ERR_PARAM,
           "pe_attention_params.struct_size=8 is smaller than its first version", pe_attention(&p, q, q, q, OUT));
    newer.more[0] = 1;
    EXPECT("SIZE-2", PE_ERR_PARAM, "pe_attention_params.struct_size=", pe_attention(&newer.p, q, q, q, OUT));
}

/* pe_rope_scaling's fixed layout (README "ABI and versions"): a parameter
 * added later takes a reserved slot, so neither its size nor the fields of
 * the public structs embedding it by value move. These are the 0.3 numbers
 * on LP64; a field appended instead of carved from `reserved` fails here. */
TEST(struct_size_scaling_fixed_layout) {
    if (sizeof(void *) == 8) {
        CHECK_MSG(sizeof(pe_rope_scaling) == 312, "sizeof(pe_rope_scaling) = %zu",
                  sizeof(pe_rope_scaling));
        CHECK(offsetof(pe_rope_scaling, reserved) + sizeof(((pe_rope_scaling *)0)->reserved) == 312);
        CHECK(offsetof(pe_rope_config, short_factor) == 376);
        CHECK(offsetof(pe_rope_config, layout) == 8568);
        CHECK(offsetof(pe_check_expect, mrope_section) == 8536);
    }
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_YARN, 64);
    for (size_t k = 0; k < sizeof s.reserved / sizeof s.reserved[0]; k++) CHECK(s.reserved[k] == 0);
    s.factor = 4;
    s.original_max_position = 1024;
    pe_freqs want, got;
    CHECK_OK(pe_freqs_from_scaling(&s, &want, NULL));
    /* a 0.2 caller: the struct ended at n_divisors; what follows in its
     * memory is not read (reserved counts as zero) */
    struct {
        pe_rope_scaling s;
        unsigned char after[8];
    } older;
    memset(&older, 0xA5, sizeof older);
    memcpy(&older.s, &s, offsetof(pe_rope_scaling, reserved));
    older.s.struct_size = offsetof(pe_rope_scaling, reserved);
    CHECK_OK(pe_freqs_from_scaling(&older.s, &got, NULL));
    CHECK(memcmp(&want, &got, sizeof want) == 0);
}

TEST(errors_struct_size_scaling_reserved) {
    pe_rope_scaling s = pe_rope_scaling_defaults(PE_SCALING_LINEAR, 64);
    const size_t last = sizeof s.reserved / sizeof s.reserved[0] - 1;
    s.reserved[last] = 1; /* a parameter of a newer posenc set */
    char want[96];
    snprintf(want, sizeof want, "pe_rope_scaling.reserved[%zu] is not zero (a parameter of a newer posenc than", last);
    EXPECT("SIZE-3", PE_ERR_PARAM, want,
           pe_freqs_from_scaling(&s, OUT, NULL));
    EXPECT("SIZE-3", PE_ERR_PARAM, "start from pe_rope_scaling_defaults()",
           pe_freqs_from_scaling(&s, OUT, NULL));
}
