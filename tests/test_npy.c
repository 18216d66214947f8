/* test_npy.c — the .npy reader and writer: round trips of every dtype, a
 * header as numpy writes it, and truncated, lying or hostile headers. */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Build an .npy image with a given version and dict, then data bytes. */
static size_t make_npy(unsigned char *buf, int major, const char *dict,
                       const void *data, size_t nbytes) {
    size_t dl = strlen(dict), pre = major == 1 ? 10 : 12;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    size_t hl = dl + 1;
    buf[8] = (unsigned char)(hl & 0xff);
    buf[9] = (unsigned char)(hl >> 8);
    if (major != 1) {
        buf[10] = 0;
        buf[11] = 0;
    }
    memcpy(buf + pre, dict, dl);
    buf[pre + dl] = '\n';
    memcpy(buf + pre + hl, data, nbytes);
    return pre + hl + nbytes;
}

TEST(npy_parse_numpy_style_headers) {
    unsigned char buf[512];
    float v[6] = {1, 2, 3, 4, 5, 6};
    size_t n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", v, sizeof v);
    pe_npy_array a;
    CHECK_OK(pe_npy_parse(buf, n, &a));
    CHECK(a.dtype == PE_F32 && a.ndim == 2 && a.shape[0] == 2 && a.shape[1] == 3);
    CHECK(a.data && memcmp(a.data, v, sizeof v) == 0);
    pe_npy_free(&a);
    /* version 2 header, 1-D shape "(3,)", double quotes, no trailing comma */
    int64_t iv[3] = {-1, 0, 1LL << 40};
    n = make_npy(buf, 2, "{\"descr\": \"<i8\", \"fortran_order\": False, \"shape\": (3,)}", iv, sizeof iv);
    CHECK_OK(pe_npy_parse(buf, n, &a));
    CHECK(a.dtype == PE_I64 && a.ndim == 1 && a.shape[0] == 3);
    CHECK(a.data && memcmp(a.data, iv, sizeof iv) == 0);
    pe_npy_free(&a);
    /* a scalar () holds one element */
    double d = 2.5;
    n = make_npy(buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", &d, sizeof d);
    CHECK_OK(pe_npy_parse(buf, n, &a));
    CHECK(a.ndim == 0 && a.nbytes == 8);
    pe_npy_free(&a);
}

TEST(npy_rejects_malformed) {
    unsigned char buf[512];
    float v[6] = {0};
    pe_npy_array a;
    size_t n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", v, sizeof v);
    /* every truncation is an error, never an over-read (ASan checks) */
    for (size_t cut = 0; cut < n; cut++) {
        unsigned char *t = malloc(cut ? cut : 1);
        memcpy(t, buf, cut);
        CHECK_STATUS(pe_npy_parse(t, cut, &a), PE_ERR_FORMAT);
        free(t);
    }
    CHECK_ERROR(pe_npy_parse("hello world!", 12, &a), PE_ERR_FORMAT, "magic");
    n = make_npy(buf, 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (6,), }", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_DTYPE, ">f4");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (6,), }", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "fortran_order");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (7,), }", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "needs 28 data bytes, file has 24");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "overflows");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "shape");
    n = make_npy(buf, 1, "{'descr': '<f4', 'shape': (6,), }", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "fortran_order");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "unknown key 'x'");
    n = make_npy(buf, 4, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", v, sizeof v);
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "version 4");
    /* a header length that points past the end */
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", v, sizeof v);
    buf[8] = 0xff;
    buf[9] = 0xff;
    CHECK_ERROR(pe_npy_parse(buf, n, &a), PE_ERR_FORMAT, "runs past");
}

TEST(npy_write_read_every_dtype) {
    char path[128];
    snprintf(path, sizeof path, "/tmp/posenc_test_npy_%ld.npy", (long)getpid());
    const pe_dtype types[4] = {PE_F32, PE_F64, PE_F16, PE_I64};
    unsigned char data[2 * 3 * 4 * 8];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 7);
    int64_t shape[3] = {2, 3, 4};
    for (int k = 0; k < 4; k++) {
        CHECK_OK(pe_npy_write(path, types[k], 3, shape, data));
        pe_npy_array a;
        CHECK_OK(pe_npy_read(path, &a));
        CHECK(a.dtype == types[k] && a.ndim == 3 && a.shape[2] == 4);
        CHECK(a.nbytes == 24 * pe_dtype_size(types[k]));
        CHECK(a.data && memcmp(a.data, data, a.nbytes) == 0);
        pe_npy_free(&a);
        /* header padded to 64 bytes, as numpy does */
        FILE *f = fopen(path, "rb");
        unsigned char pre[10];
        CHECK(f && fread(pre, 1, 10, f) == 10);
        if (f) fclose(f);
        CHECK((10 + (pre[8] | pre[9] << 8)) % 64 == 0);
    }
    CHECK_ERROR(pe_npy_write(path, PE_BF16, 3, shape, data), PE_ERR_DTYPE, "bf16");
    CHECK_ERROR(pe_npy_write("/nonexistent/dir/x.npy", PE_F32, 3, shape, data), PE_ERR_IO, "cannot create");
    remove(path);
}
