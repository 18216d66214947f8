/* test_safetensors.c — safetensors reading and writing (round trips, an image
 * laid out as the reference writer lays it out, truncated and lying headers)
 * and the q/k row permutation between RoPE layouts, checked against
 * Hugging Face's permute() and by equal attention scores. */
#include "runner.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An image: 8-byte little-endian length, header, data. */
static size_t make_st(unsigned char *buf, const char *header, const void *data, size_t nbytes) {
    size_t n = strlen(header);
    for (int i = 0; i < 8; i++) buf[i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(buf + 8, header, n);
    if (nbytes) memcpy(buf + 8 + n, data, nbytes);
    return 8 + n + nbytes;
}

static void tmp_path(char *buf, size_t cap, const char *tag) {
    snprintf(buf, cap, "/tmp/pe_test_st_%ld_%s.safetensors", (long)getpid(), tag);
}

static bool file_exists(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0;
}

TEST(safetensors_parse_reference_layout) {
    /* As the Rust writer lays it out: metadata, tensors sorted by alignment,
     * header padded with spaces to a multiple of 8. */
    const char *h = "{\"__metadata__\":{\"format\":\"pt\"},"
                    "\"a.weight\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]},"
                    "\"b\":{\"dtype\":\"BF16\",\"shape\":[3],\"data_offsets\":[16,22]},"
                    "\"empty\":{\"dtype\":\"I64\",\"shape\":[0,4],\"data_offsets\":[22,22]}}  ";
    unsigned char data[22], buf[512];
    float f[4] = {1.5f, -2.0f, 0.25f, 1e30f};
    uint16_t bf[3] = {0x3f80, 0xc000, 0x7f80}; /* 1, -2, inf */
    memcpy(data, f, 16);
    memcpy(data + 16, bf, 6);
    size_t n = make_st(buf, h, data, sizeof data);
    pe_safetensors *st = NULL;
    CHECK_OK(pe_safetensors_parse(buf, n, &st));
    if (st == NULL) return;
    CHECK(pe_safetensors_count(st) == 3);
    pe_st_tensor t;
    CHECK_OK(pe_safetensors_find(st, "a.weight", &t));
    CHECK(t.dtype_known && t.dtype == PE_F32 && t.ndim == 2 && t.shape[0] == 2 &&
          t.shape[1] == 2 && t.nbytes == 16 && memcmp(t.data, f, 16) == 0);
    CHECK_OK(pe_safetensors_find(st, "b", &t));
    CHECK(t.dtype == PE_BF16 && strcmp(t.st_dtype, "BF16") == 0 && memcmp(t.data, bf, 6) == 0);
    CHECK_OK(pe_safetensors_find(st, "empty", &t));
    CHECK(t.dtype == PE_I64 && t.nbytes == 0 && t.ndim == 2 && t.shape[1] == 4);
    CHECK_ERROR(pe_safetensors_find(st, "c", &t), PE_ERR_PARAM, "name='c'");
    /* get() walks in offset order */
    CHECK_OK(pe_safetensors_get(st, 0, &t));
    CHECK(strcmp(t.name, "a.weight") == 0);
    CHECK_ERROR(pe_safetensors_get(st, 3, &t), PE_ERR_RANGE, "index=3");
    CHECK(pe_safetensors_metadata_count(st) == 1);
    const char *k, *v;
    CHECK_OK(pe_safetensors_metadata_at(st, 0, &k, &v));
    CHECK(strcmp(k, "format") == 0 && strcmp(v, "pt") == 0);
    CHECK(pe_safetensors_metadata_get(st, "format") && pe_safetensors_metadata_get(st, "nope") == NULL);
    pe_safetensors_free(st);
    pe_safetensors_free(NULL);
}

TEST(safetensors_other_dtypes_are_sized) {
    /* An I32 buffer and a U8 mask are listed with their strings and sizes. */
    const char *h = "{\"ids\":{\"dtype\":\"I32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                    "\"m\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[8,11]}}";
    unsigned char data[11] = {1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 1}, buf[256];
    size_t n = make_st(buf, h, data, sizeof data);
    pe_safetensors *st = NULL;
    CHECK_OK(pe_safetensors_parse(buf, n, &st));
    pe_st_tensor t;
    CHECK_OK(pe_safetensors_find(st, "ids", &t));
    CHECK(!t.dtype_known && strcmp(t.st_dtype, "I32") == 0 && t.nbytes == 8);
    CHECK_OK(pe_safetensors_find(st, "m", &t));
    CHECK(!t.dtype_known && t.nbytes == 3);
    pe_safetensors_free(st);
}

TEST(safetensors_write_read_round_trip) {
    char path[256];
    tmp_path(path, sizeof path, "rt");
    float f32[6] = {1, 2, 3, 4, 5, 6};
    uint16_t f16[3] = {0x3c00, 0xc000, 0x0001}; /* 1, -2, smallest subnormal */
    double f64 = -0.1;
    int64_t i64[2] = {INT64_MIN, 1LL << 60};
    int32_t i32[1] = {-7};
    pe_st_tensor t[6];
    memset(t, 0, sizeof t);
    /* f16 first and an odd count: the writer must still align the f32 */
    t[0] = (pe_st_tensor){.name = "half \"quoted\"\n", .dtype = PE_F16, .ndim = 1, .shape = {3},
                          .data = f16, .nbytes = 6};
    t[1] = (pe_st_tensor){.name = "w", .dtype = PE_F32, .ndim = 2, .shape = {2, 3}, .data = f32, .nbytes = 24};
    t[2] = (pe_st_tensor){.name = "scalar", .dtype = PE_F64, .ndim = 0, .data = &f64, .nbytes = 8};
    t[3] = (pe_st_tensor){.name = "ids", .dtype = PE_I64, .ndim = 1, .shape = {2}, .data = i64, .nbytes = 16};
    t[4] = (pe_st_tensor){.name = "i32", .st_dtype = "I32", .ndim = 1, .shape = {1}, .data = i32, .nbytes = 4};
    t[5] = (pe_st_tensor){.name = "none", .dtype = PE_BF16, .ndim = 2, .shape = {0, 5}, .data = NULL, .nbytes = 0};
    const char *meta[] = {"format", "pt", "note", "a\\b", NULL};
    CHECK_OK(pe_safetensors_write(path, t, 6, meta));
    pe_safetensors *st = NULL;
    CHECK_OK(pe_safetensors_read(path, &st));
    if (st == NULL) return;
    CHECK(pe_safetensors_count(st) == 6);
    size_t header_len = 0;
    for (int i = 0; i < 6; i++) {
        pe_st_tensor r;
        CHECK_OK(pe_safetensors_find(st, t[i].name, &r));
        CHECK_MSG(r.ndim == t[i].ndim && r.nbytes == t[i].nbytes &&
                      (r.nbytes == 0 || memcmp(r.data, t[i].data, r.nbytes) == 0),
                  "tensor %d differs after the round trip", i);
        for (int d = 0; d < r.ndim; d++) CHECK(r.shape[d] == t[i].shape[d]);
        CHECK(t[i].st_dtype[0] ? strcmp(r.st_dtype, t[i].st_dtype) == 0 : r.dtype == t[i].dtype);
    }
    /* Every tensor aligned to its element size in the file. */
    FILE *fp = fopen(path, "rb");
    unsigned char pre[8] = {0};
    CHECK(fp && fread(pre, 1, 8, fp) == 8);
    if (fp) fclose(fp);
    for (int i = 7; i >= 0; i--) header_len = header_len << 8 | pre[i];
    CHECK(header_len % 8 == 0);
    for (int64_t i = 0; i < pe_safetensors_count(st); i++) {
        pe_st_tensor r;
        CHECK_OK(pe_safetensors_get(st, i, &r));
        pe_st_tensor first;
        CHECK_OK(pe_safetensors_get(st, 0, &first));
        size_t off = (size_t)((const unsigned char *)r.data - (const unsigned char *)first.data);
        size_t esz = strcmp(r.st_dtype, "I32") == 0 ? 4 : pe_dtype_size(r.dtype);
        CHECK_MSG((8 + header_len + off) % esz == 0, "%s at offset %zu", r.name, off);
    }
    CHECK(pe_safetensors_metadata_count(st) == 2);
    CHECK(pe_safetensors_metadata_get(st, "note") &&
          strcmp(pe_safetensors_metadata_get(st, "note"), "a\\b") == 0);
    pe_safetensors_free(st);
    remove(path);
}

/* Like pe_npy_write: a replaced file keeps its mode and nothing temporary
 * is left behind, and a symlink or device is written through, not replaced
 * by a regular file. */
TEST(safetensors_write_keeps_modes_symlinks_and_devices) {
    char dir[] = "/tmp/pe_st_write_XXXXXX", path[128], link[128];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/a.st", dir);
    snprintf(link, sizeof link, "%s/l.st", dir);
    const float v[2] = {1, 2};
    const pe_st_tensor t[1] = {
        {.name = "x", .dtype = PE_F32, .ndim = 1, .shape = {2}, .data = v, .nbytes = sizeof v}};
    CHECK_OK(pe_safetensors_write(path, t, 1, NULL));
    CHECK(chmod(path, 0600) == 0);
    CHECK(symlink("a.st", link) == 0);
    CHECK_OK(pe_safetensors_write(link, t, 1, NULL)); /* through the link */
    struct stat sb;
    CHECK(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600);
    CHECK_OK(pe_safetensors_write(path, t, 1, NULL)); /* replaced: mode kept */
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600);
    const int entries = pe_test_dir_entries(dir);
    CHECK_MSG(entries == 2, "%d files in %s (a temporary left behind?)", entries, dir);
    unlink(link);
    unlink(path);
    rmdir(dir);
    CHECK_OK(pe_safetensors_write("/dev/null", t, 1, NULL));
    CHECK(stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode));
}

TEST(safetensors_write_validates_before_creating) {
    char path[256];
    tmp_path(path, sizeof path, "bad");
    remove(path);
    float f[2] = {1, 2};
    pe_st_tensor t[2] = {{.name = "a", .dtype = PE_F32, .ndim = 1, .shape = {2}, .data = f, .nbytes = 8},
                         {.name = "a", .dtype = PE_F32, .ndim = 1, .shape = {2}, .data = f, .nbytes = 8}};
    CHECK_ERROR(pe_safetensors_write(path, t, 2, NULL), PE_ERR_PARAM, "tensor name 'a' appears twice");
    t[1].name = "b";
    t[1].nbytes = 4;
    CHECK_ERROR(pe_safetensors_write(path, t, 2, NULL), PE_ERR_SHAPE, "nbytes=4, its shape and dtype need 8");
    t[1].nbytes = 8;
    snprintf(t[1].st_dtype, sizeof t[1].st_dtype, "F128");
    CHECK_ERROR(pe_safetensors_write(path, t, 2, NULL), PE_ERR_DTYPE, "F128");
    t[1].st_dtype[0] = '\0';
    t[1].shape[0] = -2;
    CHECK_ERROR(pe_safetensors_write(path, t, 2, NULL), PE_ERR_SHAPE, "shape[0]=-2");
    t[1].shape[0] = 2;
    t[1].data = NULL;
    CHECK_ERROR(pe_safetensors_write(path, t, 2, NULL), PE_ERR_NULL, "data must not be NULL");
    t[1].data = f;
    t[1].name = "__metadata__";
    CHECK_ERROR(pe_safetensors_write(path, t, 2, NULL), PE_ERR_PARAM, "not a usable name");
    t[1].name = "b";
    const char *meta_odd[] = {"k", NULL};
    CHECK_ERROR(pe_safetensors_write(path, t, 2, meta_odd), PE_ERR_NULL, "metadata key 'k' has no value");
    const char *meta_dup[] = {"k", "1", "k", "2", NULL};
    CHECK_ERROR(pe_safetensors_write(path, t, 2, meta_dup), PE_ERR_PARAM, "metadata key 'k' appears twice");
    CHECK_MSG(!file_exists(path), "a rejected write left %s behind", path);
    /* An existing file survives a rejected write untouched. */
    CHECK_OK(pe_safetensors_write(path, t, 1, NULL));
    t[1].nbytes = 3;
    CHECK_STATUS(pe_safetensors_write(path, t, 2, NULL), PE_ERR_SHAPE);
    pe_safetensors *st = NULL;
    CHECK_OK(pe_safetensors_read(path, &st));
    CHECK(pe_safetensors_count(st) == 1);
    pe_safetensors_free(st);
    /* An unwritable directory is an I/O error naming the path. */
    CHECK_ERROR(pe_safetensors_write("/nonexistent/dir/x.safetensors", t, 1, NULL), PE_ERR_IO,
                "/nonexistent/dir/x.safetensors");
    remove(path);
}

/* Parse a one-tensor image with the given header and 8 data bytes; expect
 * the status and a detail containing needle. */
static void expect_bad(const char *header, size_t ndata, int want, const char *needle) {
    unsigned char buf[1024], data[64] = {0};
    size_t n = make_st(buf, header, data, ndata);
    pe_safetensors *st = (pe_safetensors *)(uintptr_t)1; /* must stay untouched */
    int got = pe_safetensors_parse(buf, n, &st);
    CHECK_MSG(got == want, "header %s: status %d (%s), want %d", header, got, pe_last_error(), want);
    CHECK_MSG(strstr(pe_last_error(), needle) != NULL, "header %s: detail \"%s\" lacks \"%s\"",
              header, pe_last_error(), needle);
    CHECK(st == (pe_safetensors *)(uintptr_t)1);
}

TEST(safetensors_rejects_lying_headers) {
    const int F = PE_ERR_FORMAT;
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 4, F,
               "run past the 4-byte data section");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", 8, F,
               "'x' shape needs 12 bytes but data_offsets [0, 8] span 8");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 12, F,
               "cover 8 bytes of a 12-byte data section");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8, F,
               "begins at 4, but the previous tensor ends at 0 (gap)");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
               "\"y\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
               8, F, "(overlap)");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}", 8, F, "end before begin");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776,1099511627776],"
               "\"data_offsets\":[0,8]}}", 8, F, "shape overflows size_t");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,18446744073709551624]}}", 8, F,
               "data_offsets is not [begin, end] integers");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", 8, F, "shape[0] is not an integer");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2.5],\"data_offsets\":[0,8]}}", 8, F, "shape[0]");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1,1,1,1,2],\"data_offsets\":[0,8]}}", 8, F,
               "more than 8 dims");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4,8]}}", 8, F, "data_offsets");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2]}}", 8, F, "'x' lacks data_offsets");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8],\"extra\":1}}", 8, F,
               "unknown key 'extra'");
    expect_bad("{\"x\":{\"dtype\":\"Q4\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, PE_ERR_DTYPE,
               "unknown dtype 'Q4'");
    expect_bad("{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
               "\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
               8, F, "'x' appears twice");
    expect_bad("{\"__metadata__\":{\"a\":1},\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8,
               F, "value of 'a' is not a string");
    expect_bad("{\"__metadata__\":[],\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, F,
               "__metadata__ is not an object");
    expect_bad("{\"x\":[1]}", 8, F, "entry 'x' is not an object");
    expect_bad("[1, 2]", 8, F, "does not start with '{'");
    expect_bad("{\"x\": }", 8, F, "not valid JSON");
    expect_bad("{} {}", 0, F, "bytes after the header's JSON object");
    expect_bad("", 0, F, "does not start with '{'");
}

TEST(safetensors_rejects_bad_lengths_and_truncation) {
    unsigned char buf[256];
    float f[2] = {1, 2};
    size_t n = make_st(buf, "{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", f, 8);
    pe_safetensors *st = NULL;
    /* Every truncation fails without over-reading (make asan checks). */
    for (size_t cut = 0; cut < n; cut++) {
        unsigned char *t = malloc(cut ? cut : 1);
        memcpy(t, buf, cut);
        CHECK_MSG(pe_safetensors_parse(t, cut, &st) == PE_ERR_FORMAT, "cut at %zu accepted", cut);
        free(t);
    }
    CHECK_OK(pe_safetensors_parse(buf, n, &st));
    pe_safetensors_free(st);
    /* Header lengths that overflow or exceed the limit. */
    unsigned char big[16] = {0};
    memset(big, 0xff, 8);
    CHECK_ERROR(pe_safetensors_parse(big, sizeof big, &st), PE_ERR_FORMAT, "exceeds the 100000000-byte limit");
    memset(big, 0, 8);
    big[0] = 0x40;
    CHECK_ERROR(pe_safetensors_parse(big, sizeof big, &st), PE_ERR_FORMAT, "header length 64 runs past the end");
    CHECK_ERROR(pe_safetensors_parse(NULL, 0, NULL), PE_ERR_NULL, "out");
    CHECK_ERROR(pe_safetensors_read("/nonexistent.safetensors", &st), PE_ERR_IO, "cannot open");
    /* A truncated file on disk is named with its path. */
    char path[256];
    tmp_path(path, sizeof path, "trunc");
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fwrite(buf, 1, n - 3, fp) == n - 3);
    if (fp) fclose(fp);
    CHECK_ERROR(pe_safetensors_read(path, &st), PE_ERR_FORMAT, "run past the 5-byte data section");
    CHECK(strstr(pe_last_error(), path) != NULL);
    remove(path);
}

/* ------------------------------------------------- q/k layout permutation */

TEST(qk_permute_matches_hf_permute) {
    /* convert_llama_weights_to_hf.py: w.view(heads, D/2, 2, cols)
     * .transpose(1, 2).reshape(rows, cols): half row (h, c, i) <- row (h, i, c). */
    enum { HEADS = 3, D = 8, COLS = 5, ROWS = HEADS * D };
    float w[ROWS][COLS], half[ROWS][COLS], back[ROWS][COLS];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) w[r][c] = (float)(r * 100 + c);
    CHECK_OK(pe_qk_permute_rows(w, half, ROWS, sizeof w[0], D, D, PE_ROPE_HALF));
    for (int h = 0; h < HEADS; h++)
        for (int c2 = 0; c2 < 2; c2++)
            for (int i = 0; i < D / 2; i++)
                for (int c = 0; c < COLS; c++)
                    CHECK(half[h * D + c2 * (D / 2) + i][c] == w[h * D + 2 * i + c2][c]);
    CHECK_OK(pe_qk_permute_rows(half, back, ROWS, sizeof w[0], D, D, PE_ROPE_INTERLEAVED));
    CHECK(memcmp(back, w, sizeof w) == 0);
    /* Partial rotary: rows [d, D) of each head stay where they are. */
    CHECK_OK(pe_qk_permute_rows(w, half, ROWS, sizeof w[0], D, 4, PE_ROPE_HALF));
    for (int h = 0; h < HEADS; h++) {
        CHECK(half[h * D + 1][0] == w[h * D + 2][0] && half[h * D + 2][0] == w[h * D + 1][0]);
        for (int j = 4; j < D; j++) CHECK(half[h * D + j][0] == w[h * D + j][0]);
    }
}

TEST(qk_permute_validates) {
    float w[16], o[16];
    memcpy(o, (float[16]){0}, sizeof o);
    for (int i = 0; i < 16; i++) w[i] = (float)i;
    CHECK_ERROR(pe_qk_permute_rows(w, o, 12, 4, 8, 8, PE_ROPE_HALF), PE_ERR_SHAPE,
                "rows=12 is not a multiple of head_dim=8");
    CHECK_ERROR(pe_qk_permute_rows(w, o, 16, 4, 8, 10, PE_ROPE_HALF), PE_ERR_DIM, "rotary_dim=10 exceeds");
    CHECK_ERROR(pe_qk_permute_rows(w, o, 16, 4, 8, 3, PE_ROPE_HALF), PE_ERR_DIM, "rotary_dim=3");
    CHECK_ERROR(pe_qk_permute_rows(w, w + 1, 8, 4, 8, 8, PE_ROPE_HALF), PE_ERR_SHAPE, "overlaps");
    CHECK_ERROR(pe_qk_permute_rows(w, o, 16, 4, 8, 8, (pe_rope_layout)7), PE_ERR_PARAM, "to=7");
    CHECK_ERROR(pe_qk_permute_rows(w, NULL, 16, 4, 8, 8, PE_ROPE_HALF), PE_ERR_NULL, "out");
    for (int i = 0; i < 16; i++) CHECK(o[i] == 0.0f); /* nothing written */
}

/* q = W x for one token, in float (each element rounded once from double). */
static void project(const float *w, int rows, int cols, const float *x, float *q) {
    for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int c = 0; c < cols; c++) s += (double)w[r * cols + c] * x[c];
        q[r] = (float)s;
    }
}

TEST(qk_convert_keeps_attention_scores) {
    /* GQA (4 query heads share 2 key heads), partial rotary, positions far
     * apart: a Meta (interleaved) q/k pair and its converted Hugging Face
     * (half) pair must give the same score for every head and token pair. */
    enum { H = 4, KV = 2, D = 16, RD = 12, HID = 24, T = 5 };
    pe_rng rng = {pe_test_seed()};
    static float wq[H * D * HID], wk[KV * D * HID], wq2[H * D * HID], wk2[KV * D * HID];
    for (int i = 0; i < H * D * HID; i++) wq[i] = (float)pe_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < KV * D * HID; i++) wk[i] = (float)pe_rng_uniform(&rng, -1, 1);
    CHECK_OK(pe_qk_permute_rows(wq, wq2, H * D, HID * sizeof(float), D, RD, PE_ROPE_HALF));
    CHECK_OK(pe_qk_permute_rows(wk, wk2, KV * D, HID * sizeof(float), D, RD, PE_ROPE_HALF));
    float x[T][HID], q[2][T][H * D], k[2][T][KV * D];
    int64_t pos[T] = {0, 7, 1000, 65536, 123457};
    for (int t = 0; t < T; t++)
        for (int c = 0; c < HID; c++) x[t][c] = (float)pe_rng_uniform(&rng, -1, 1);
    pe_freqs fr;
    CHECK_OK(pe_freqs_default(RD, 10000.0, &fr));
    pe_positions p = pe_positions_list(pos);
    for (int side = 0; side < 2; side++) {
        for (int t = 0; t < T; t++) {
            project(side ? wq2 : wq, H * D, HID, x[t], q[side][t]);
            project(side ? wk2 : wk, KV * D, HID, x[t], k[side][t]);
        }
        pe_rope_layout lay = side ? PE_ROPE_HALF : PE_ROPE_INTERLEAVED;
        pe_tensor tq = pe_tensor_dense(q[side], PE_F32, T, H, D);
        pe_tensor tk = pe_tensor_dense(k[side], PE_F32, T, KV, D);
        CHECK_OK(pe_rope_apply(&fr, lay, &p, &tq, &tq, PE_ROPE_FORWARD));
        CHECK_OK(pe_rope_apply(&fr, lay, &p, &tk, &tk, PE_ROPE_FORWARD));
    }
    /* The rotated elements are the same floats, permuted; only the order of
     * the double sum differs: |diff| <= D eps sum|terms|. */
    double worst = 0;
    for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) {
                double s[2] = {0, 0}, mag = 0;
                for (int side = 0; side < 2; side++)
                    for (int e = 0; e < D; e++) {
                        double term = (double)q[side][i][h * D + e] * k[side][j][(h / (H / KV)) * D + e];
                        s[side] += term;
                        mag += fabs(term);
                    }
                double diff = fabs(s[0] - s[1]);
                CHECK_MSG(diff <= D * 0x1p-52 * mag, "head %d, q %d, k %d: %.17g vs %.17g", h, i, j,
                          s[0], s[1]);
                if (diff > worst) worst = diff;
            }
    /* And the scores are not trivially equal: unconverted weights under the
     * half layout give different ones (the converter bug this guards). */
    float qb[H * D], kb[KV * D];
    project(wq, H * D, HID, x[2], qb);
    project(wk, KV * D, HID, x[4], kb);
    pe_tensor tqb = pe_tensor_dense(qb, PE_F32, 1, H, D), tkb = pe_tensor_dense(kb, PE_F32, 1, KV, D);
    pe_positions p2 = pe_positions_range(pos[2]), p4 = pe_positions_range(pos[4]);
    CHECK_OK(pe_rope_apply(&fr, PE_ROPE_HALF, &p2, &tqb, &tqb, PE_ROPE_FORWARD));
    CHECK_OK(pe_rope_apply(&fr, PE_ROPE_HALF, &p4, &tkb, &tkb, PE_ROPE_FORWARD));
    double wrong = 0, right = 0;
    for (int e = 0; e < D; e++) {
        wrong += (double)qb[e] * kb[e];
        right += (double)q[0][2][e] * k[0][4][e];
    }
    CHECK_MSG(fabs(wrong - right) > 1e-3, "unconverted weights gave the same score %.9g", wrong);
}
