/* test_errors_safetensors.c — docs/ERRORS.md rows of the safetensors reader
 * and writer (ST), in the harness of errors.h: every header lie the reader
 * refuses, each naming the tensor, key or byte count, with the caller's
 * output pointer left as it was; the writer's refusals leave no file. */
#include "errors.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file image: 8-byte little-endian header length, the header, data_len
 * bytes of data. */
static size_t image(unsigned char *buf, const char *header, size_t data_len) {
    const size_t n = strlen(header);
    for (int i = 0; i < 8; i++) buf[i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(buf + 8, header, n);
    memset(buf + 8 + n, 0x3c, data_len);
    return 8 + n + data_len;
}

/* Parse a header with data_len bytes of data into the poisoned OUT. */
static int parse(const char *header, size_t data_len) {
    static unsigned char buf[4096];
    return pe_safetensors_parse(buf, image(buf, header, data_len), (pe_safetensors **)OUT);
}

TEST(errors_safetensors_framing) {
    static const unsigned char seven[7] = {0};
    EXPECT("ST-1", PE_ERR_FORMAT, "safetensors: 7 bytes, too short for the 8-byte header length",
           pe_safetensors_parse(seven, sizeof seven, (pe_safetensors **)OUT));
    unsigned char big[16] = {0x00, 0xe2, 0xf5, 0x05, 0, 0, 0, 0}; /* 100000256 */
    EXPECT("ST-2", PE_ERR_FORMAT, "header length 100000256 exceeds the 100000000-byte limit",
           pe_safetensors_parse(big, sizeof big, (pe_safetensors **)OUT));
    unsigned char past[16] = {9, 0, 0, 0, 0, 0, 0, 0, '{', '}'};
    EXPECT("ST-2", PE_ERR_FORMAT, "header length 9 runs past the end (2 bytes follow)",
           pe_safetensors_parse(past, 10, (pe_safetensors **)OUT));
    EXPECT("ST-3", PE_ERR_FORMAT, "header does not start with '{'", parse("[]", 0));
    EXPECT("ST-3", PE_ERR_FORMAT, "header is not valid UTF-8", parse("{\"a\xff\": 1}", 0));
    EXPECT("ST-3", PE_ERR_FORMAT, "header is not valid JSON (near byte", parse("{\"a\": ", 0));
    EXPECT("ST-3", PE_ERR_FORMAT, "bytes after the header's JSON object", parse("{} x", 0));
}

TEST(errors_safetensors_entries) {
    EXPECT("ST-4", PE_ERR_FORMAT, "tensor 'w' has unknown key 'strides'",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0, 4], \"strides\": []}}", 4));
    EXPECT("ST-4", PE_ERR_FORMAT, "entry 'w' is not an object", parse("{\"w\": 3}", 0));
    EXPECT("ST-4", PE_ERR_FORMAT, "tensor 'w' repeats key 'dtype'",
           parse("{\"w\": {\"dtype\": \"F32\", \"dtype\": \"F32\"}}", 0));
    EXPECT("ST-4", PE_ERR_FORMAT, "tensor 'w' lacks shape",
           parse("{\"w\": {\"dtype\": \"F32\", \"data_offsets\": [0, 4]}}", 4));
    EXPECT("ST-4", PE_ERR_FORMAT, "tensor 'w' dtype is not a string",
           parse("{\"w\": {\"dtype\": 32, \"shape\": [], \"data_offsets\": [0, 4]}}", 4));
    EXPECT("ST-5", PE_ERR_DTYPE, "tensor 'w' has unknown dtype 'F31'",
           parse("{\"w\": {\"dtype\": \"F31\", \"shape\": [], \"data_offsets\": [0, 4]}}", 4));
    EXPECT("ST-6", PE_ERR_FORMAT, "tensor 'w' shape is not a list",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": 1, \"data_offsets\": [0, 4]}}", 4));
    EXPECT("ST-6", PE_ERR_FORMAT, "tensor 'w' has more than 8 dims",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [1,1,1,1,1,1,1,1,1], \"data_offsets\": [0, 4]}}", 4));
    EXPECT("ST-6", PE_ERR_FORMAT, "tensor 'w' shape[1] is not an integer in [0, 2^53]",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [1, -2], \"data_offsets\": [0, 4]}}", 4));
    EXPECT("ST-6", PE_ERR_FORMAT, "tensor 'w' shape overflows size_t",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [4294967296, 4294967296], \"data_offsets\": [0, 4]}}", 4));
    EXPECT("ST-7", PE_ERR_FORMAT, "tensor 'w' data_offsets is not [begin, end] integers",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0]}}", 4));
    EXPECT("ST-7", PE_ERR_FORMAT, "tensor 'w' data_offsets [4, 0] end before begin",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [4, 0]}}", 4));
    EXPECT("ST-7", PE_ERR_FORMAT, "tensor 'w' shape needs 8 bytes but data_offsets [0, 4] span 4",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 4]}}", 8));
}

TEST(errors_safetensors_layout) {
    EXPECT("ST-8", PE_ERR_FORMAT, "tensor 'w' data_offsets [0, 8] run past the 4-byte data section",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}}", 4));
    EXPECT("ST-8", PE_ERR_FORMAT, "tensor 'b' begins at 8, but the previous tensor ends at 4 (gap)",
           parse("{\"a\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0, 4]},"
                 " \"b\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [8, 12]}}", 12));
    EXPECT("ST-8", PE_ERR_FORMAT, "(overlap)",
           parse("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]},"
                 " \"b\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [4, 8]}}", 8));
    EXPECT("ST-8", PE_ERR_FORMAT, "tensors cover 4 bytes of a 8-byte data section",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0, 4]}}", 8));
    EXPECT("ST-9", PE_ERR_FORMAT, "tensor name 'w' appears twice",
           parse("{\"w\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0, 4]},"
                 " \"w\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [4, 8]}}", 8));
    EXPECT("ST-9", PE_ERR_FORMAT, "two __metadata__ entries",
           parse("{\"__metadata__\": {}, \"__metadata__\": {}}", 0));
    EXPECT("ST-9", PE_ERR_FORMAT, "__metadata__ is not an object", parse("{\"__metadata__\": []}", 0));
    EXPECT("ST-9", PE_ERR_FORMAT, "__metadata__ value of 'format' is not a string",
           parse("{\"__metadata__\": {\"format\": 1}}", 0));
    EXPECT("ST-9", PE_ERR_FORMAT, "__metadata__ repeats key 'format'",
           parse("{\"__metadata__\": {\"format\": \"pt\", \"format\": \"np\"}}", 0));
}

TEST(errors_safetensors_files_and_lookups) {
    EXPECT("ST-10", PE_ERR_IO, "cannot open /nonexistent/x.safetensors: No such file or directory",
           pe_safetensors_read("/nonexistent/x.safetensors", (pe_safetensors **)OUT));
    EXPECT("ST-10", PE_ERR_IO, "/tmp: not a regular file", pe_safetensors_read("/tmp", (pe_safetensors **)OUT));
    static unsigned char buf[256];
    pe_safetensors *st = NULL;
    CHECK(pe_safetensors_parse(buf,
                               image(buf, "{\"w\": {\"dtype\": \"F32\", \"shape\": [], \"data_offsets\": [0, 4]},"
                                          " \"__metadata__\": {\"k\": \"v\"}}", 4),
                               &st) == PE_OK);
    EXPECT("ST-11", PE_ERR_RANGE, "index=1 outside [0, count=1)", pe_safetensors_get(st, 1, (pe_st_tensor *)OUT));
    EXPECT("ST-11", PE_ERR_RANGE, "index=-1 outside [0, metadata count=1)",
           pe_safetensors_metadata_at(st, -1, (const char **)OUT, (const char **)OUT_AT(64)));
    EXPECT("ST-12", PE_ERR_PARAM, "name='v' is not a tensor of the file",
           pe_safetensors_find(st, "v", (pe_st_tensor *)OUT));
    pe_safetensors_free(st);
}

/* The writer: each refusal, and no file left behind. */
static char wpath[64];

static int write_one(pe_st_tensor t, const char *const *meta) {
    return pe_safetensors_write(wpath, &t, 1, meta);
}

static pe_st_tensor good(void) {
    static const float x[2] = {1, 2};
    pe_st_tensor t = {.name = "w", .dtype = PE_F32, .ndim = 1, .shape = {2}, .data = x, .nbytes = 8};
    return t;
}

TEST(errors_safetensors_writer) {
    snprintf(wpath, sizeof wpath, "/tmp/pe_st_err_%ld.safetensors", (long)getpid());
    unlink(wpath);
    pe_st_tensor t = good();
    EXPECT("ST-13", PE_ERR_PARAM, "count=-1 must be >= 0", pe_safetensors_write(wpath, &t, -1, NULL));
    t.name = "";
    EXPECT("ST-14", PE_ERR_PARAM, "tensors[0].name='' is not a usable name", write_one(t, NULL));
    t.name = "__metadata__";
    EXPECT("ST-14", PE_ERR_PARAM, "tensors[0].name='__metadata__' is not a usable name", write_one(t, NULL));
    t.name = "w\xff";
    EXPECT("ST-14", PE_ERR_PARAM, "tensors[0].name is not valid UTF-8", write_one(t, NULL));
    pe_st_tensor two[2] = {good(), good()};
    EXPECT("ST-14", PE_ERR_PARAM, "tensor name 'w' appears twice", pe_safetensors_write(wpath, two, 2, NULL));
    const char *const dup_meta[] = {"k", "a", "k", "b", NULL};
    EXPECT("ST-14", PE_ERR_PARAM, "metadata key 'k' appears twice", write_one(good(), dup_meta));
    const char *const bad_meta[] = {"k", "v\xff", NULL};
    EXPECT("ST-14", PE_ERR_PARAM, "metadata value 0 is not valid UTF-8", write_one(good(), bad_meta));
    t = good();
    snprintf(t.st_dtype, sizeof t.st_dtype, "F31");
    EXPECT("ST-15", PE_ERR_DTYPE, "tensors[0] ('w') dtype F31 is not a safetensors dtype", write_one(t, NULL));
    t = good();
    t.ndim = 9;
    EXPECT("ST-16", PE_ERR_SHAPE, "tensors[0] ('w') ndim=9 outside [0, 8]", write_one(t, NULL));
    t = good();
    t.shape[0] = -2;
    EXPECT("ST-16", PE_ERR_SHAPE, "tensors[0] ('w') shape[0]=-2 is negative or overflows", write_one(t, NULL));
    t = good();
    t.nbytes = 4;
    EXPECT("ST-16", PE_ERR_SHAPE, "tensors[0] ('w') nbytes=4, its shape and dtype need 8", write_one(t, NULL));
    t = good();
    t.data = NULL;
    EXPECT("ST-17", PE_ERR_NULL, "tensors[0] ('w') data must not be NULL", write_one(t, NULL));
    const char *const odd_meta[] = {"k", NULL};
    EXPECT("ST-17", PE_ERR_NULL, "metadata key 'k' has no value", write_one(good(), odd_meta));
    t = good();
    t.ndim = 2;
    t.shape[0] = (int64_t)1 << 52; /* 2^62 elements of 4 bytes */
    t.shape[1] = (int64_t)1 << 10;
    EXPECT("ST-18", PE_ERR_OVERFLOW, "tensors[0] ('w') size overflows size_t", write_one(t, NULL));
    CHECK_MSG(access(wpath, F_OK) != 0, "a refused write left %s behind", wpath);
    unlink(wpath);
}
