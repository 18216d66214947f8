/* test_errors_io.c — docs/ERRORS.md rows for .npy reading and writing
 * (NPY), learned-table files (LRN) and q/k row conversion (QK), in the
 * harness of errors.h. Writers must also leave no file behind when they
 * reject their arguments (checked with access()). */
#include "errors.h"
#include "gguf_build.h"

#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* An .npy image: magic, version, header length, dict + '\n', data bytes. */
static size_t npy(unsigned char *buf, int major, const char *dict, size_t data_bytes) {
    const size_t dl = strlen(dict), pre = major == 1 ? 10 : 12, hl = dl + 1;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    buf[8] = (unsigned char)(hl & 0xff);
    buf[9] = (unsigned char)(hl >> 8);
    if (major != 1) buf[10] = buf[11] = 0;
    memcpy(buf + pre, dict, dl);
    buf[pre + dl] = '\n';
    memset(buf + pre + hl, 0x3c, data_bytes);
    return pre + hl + data_bytes;
}

/* Parse a dict with data_bytes of data into the poisoned OUT. */
static int parse_dict(const char *dict, size_t data_bytes) {
    static unsigned char buf[1024];
    size_t n = npy(buf, 1, dict, data_bytes);
    /* an exact-size copy: a read past the end is an ASan/valgrind error */
    unsigned char *exact = malloc(n);
    if (exact == NULL) return PE_ERR_NOMEM;
    memcpy(exact, buf, n);
    int st = pe_npy_parse(exact, n, OUT);
    free(exact);
    return st;
}

#define F4 "{'descr': '<f4', 'fortran_order': False, "

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(data, 1, n, f) == n);
    if (f != NULL) fclose(f);
}

TEST(errors_npy_parse) {
    unsigned char b[64];
    EXPECT("NPY-1", PE_ERR_FORMAT, "not a .npy file (bad magic)", pe_npy_parse("\x93NUMPX\x01\x00\x02\x00{}", 12, OUT));
    EXPECT("NPY-1", PE_ERR_FORMAT, "not a .npy file (bad magic)", pe_npy_parse("\x93NUMPY\x01", 7, OUT));
    memcpy(b, "\x93NUMPY\x02\x00\x10\x00\x00", 11);
    EXPECT("NPY-2", PE_ERR_FORMAT, "npy file truncated in its preamble", pe_npy_parse(b, 11, OUT));
    memcpy(b, "\x93NUMPY\x04\x01\x02\x00{}", 12);
    EXPECT("NPY-3", PE_ERR_FORMAT, "npy format version 4.1 is not supported", pe_npy_parse(b, 12, OUT));
    memcpy(b, "\x93NUMPY\x01\x00\xff\xff{}", 12);
    EXPECT("NPY-4", PE_ERR_FORMAT, "npy header length 65535 runs past the file (12 bytes)", pe_npy_parse(b, 12, OUT));
    memcpy(b, "\x93NUMPY\x02\x00\x00\x00\x20\x00{}", 14);
    EXPECT("NPY-30", PE_ERR_FORMAT, "npy header length 2097152 exceeds 1048576 bytes", pe_npy_parse(b, 14, OUT));
    EXPECT("NPY-5", PE_ERR_FORMAT, "npy header is not a dict", parse_dict("['descr']", 0));
    EXPECT("NPY-6", PE_ERR_FORMAT, "npy header: expected 'key':", parse_dict("{descr: '<f4'}", 0));
    EXPECT("NPY-7", PE_ERR_FORMAT, "npy header: descr is not a string", parse_dict("{'descr': 4}", 0));
    EXPECT("NPY-8", PE_ERR_FORMAT, "npy: fortran_order arrays are not supported (save a C-order copy)",
           parse_dict("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16));
    EXPECT("NPY-9", PE_ERR_FORMAT, "npy header: fortran_order not a bool", parse_dict(F4 "'fortran_order': 0}", 0));
    EXPECT("NPY-10", PE_ERR_FORMAT, "npy header: shape is not a tuple", parse_dict(F4 "'shape': [2]}", 0));
    EXPECT("NPY-11", PE_ERR_FORMAT, "npy: more than 8 dimensions", parse_dict(F4 "'shape': (1,1,1,1,1,1,1,1,1)}", 4));
    EXPECT("NPY-12", PE_ERR_FORMAT, "npy header: bad shape entry", parse_dict(F4 "'shape': (-2,)}", 0));
    EXPECT("NPY-12", PE_ERR_FORMAT, "npy header: bad shape entry",
           parse_dict(F4 "'shape': (99999999999999999999,)}", 0));
    EXPECT("NPY-13", PE_ERR_FORMAT, "npy header: unclosed shape", parse_dict(F4 "'shape': (2 3)}", 0));
    EXPECT("NPY-14", PE_ERR_FORMAT, "npy header: unknown key 'order'", parse_dict("{'order': 'C'}", 0));
    EXPECT("NPY-15", PE_ERR_FORMAT, "npy header: expected , or }", parse_dict("{'descr': '<f4' 'shape': ()}", 4));
    EXPECT("NPY-16", PE_ERR_FORMAT, "npy header lacks fortran_order", parse_dict("{'descr': '<f4', 'shape': (1,)}", 4));
    EXPECT("NPY-17", PE_ERR_DTYPE, "npy dtype '>f4' is not supported (want <f4, <f8, <f2 or <i8)",
           parse_dict("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", 4));
    EXPECT("NPY-17", PE_ERR_DTYPE, "npy dtype '<i4' is not supported",
           parse_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", 4));
    EXPECT("NPY-18", PE_ERR_FORMAT, "npy shape overflows size_t",
           parse_dict(F4 "'shape': (4294967296, 4294967296), }", 0));
    EXPECT("NPY-18", PE_ERR_FORMAT, "npy shape overflows size_t",
           parse_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }", 0));
    EXPECT("NPY-19", PE_ERR_FORMAT, "npy shape needs 64 data bytes, file has 60",
           parse_dict(F4 "'shape': (4, 4), }", 60));
    EXPECT("NPY-19", PE_ERR_FORMAT, "npy shape needs 4 data bytes, file has 8", parse_dict(F4 "'shape': (1,), }", 8));
    EXPECT("NPY-20", PE_ERR_NULL, "out must not be NULL", pe_npy_parse("x", 1, NULL));
    EXPECT("NPY-20", PE_ERR_NULL, "buf must not be NULL", pe_npy_parse(NULL, 12, OUT));
}

TEST(errors_npy_files_learned_qk) {
    char dir[] = "/tmp/pe_errors_io_XXXXXX", path[128];
    CHECK(mkdtemp(dir) != NULL);
    unsigned char img[256];
    EXPECT("NPY-21", PE_ERR_IO, "cannot open /nonexistent/x.npy", pe_npy_read("/nonexistent/x.npy", OUT));
    EXPECT("NPY-22", PE_ERR_IO, "error reading /tmp/pe_errors_io_", pe_npy_read(dir, OUT));
    snprintf(path, sizeof path, "%s/short.npy", dir);
    write_file(path, img, npy(img, 1, F4 "'shape': (4, 4), }", 12));
    EXPECT("NPY-23", PE_ERR_FORMAT, "short.npy: npy shape needs 64 data bytes, file has 12", pe_npy_read(path, OUT));
    EXPECT("NPY-20", PE_ERR_NULL, "path must not be NULL", pe_npy_read(NULL, OUT));
    /* Streams are read only as far as the header says: an endless device
     * is refused after its first bytes instead of filling memory, and a
     * pipe that carries more than the shape needs stops one byte past it. */
    EXPECT("NPY-1", PE_ERR_FORMAT, "/dev/zero: not a .npy file (bad magic)", pe_npy_read("/dev/zero", OUT));
    int fds[2];
    if (pipe(fds) == 0) {
        size_t n = npy(img, 1, F4 "'shape': (4,), }", 100); /* needs 16 bytes */
        CHECK(write(fds[1], img, n) == (ssize_t)n);
        close(fds[1]);
        char fdpath[64];
        snprintf(fdpath, sizeof fdpath, "/dev/fd/%d", fds[0]);
        EXPECT("NPY-19", PE_ERR_FORMAT, "npy shape needs 16 data bytes, file has more", pe_npy_read(fdpath, OUT));
        close(fds[0]);
    }

    const int64_t shape2[2] = {2, 2}, neg[2] = {2, -3}, huge[2] = {(int64_t)1 << 62, 2};
    static const float data[4];
    snprintf(path, sizeof path, "%s/w.npy", dir);
    EXPECT("NPY-24", PE_ERR_DTYPE, "dtype bf16 cannot be written to .npy", pe_npy_write(path, PE_BF16, 2, shape2, data));
    EXPECT("NPY-25", PE_ERR_SHAPE, "ndim=9 outside [0, 8]", pe_npy_write(path, PE_F32, 9, shape2, data));
    EXPECT("NPY-26", PE_ERR_SHAPE, "shape[1]=-3 is negative or overflows", pe_npy_write(path, PE_F32, 2, neg, data));
    EXPECT("NPY-27", PE_ERR_OVERFLOW, "array size overflows size_t", pe_npy_write(path, PE_F64, 2, huge, data));
    EXPECT("NPY-20", PE_ERR_NULL, "shape must not be NULL", pe_npy_write(path, PE_F32, 2, NULL, data));
    EXPECT("NPY-20", PE_ERR_NULL, "data must not be NULL", pe_npy_write(path, PE_F32, 2, shape2, NULL));
    EXPECT("NPY-20", PE_ERR_NULL, "path must not be NULL", pe_npy_write(NULL, PE_F32, 2, shape2, data));
    CHECK_MSG(access(path, F_OK) != 0, "a rejected pe_npy_write created %s", path);
    EXPECT("NPY-28", PE_ERR_IO, "cannot create /nonexistent/dir/w.npy",
           pe_npy_write("/nonexistent/dir/w.npy", PE_F32, 2, shape2, data));
    /* /dev/full accepts the open and fails the write: the error, not a
     * silently short file, is what the caller sees. */
    if (access("/dev/full", W_OK) == 0)
        EXPECT("NPY-29", PE_ERR_IO, "error writing /dev/full", pe_npy_write("/dev/full", PE_F32, 2, shape2, data));

    /* learned tables from files: wrong dtype, rank and an empty table */
    snprintf(path, sizeof path, "%s/f8.npy", dir);
    write_file(path, img, npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", 32));
    EXPECT("LRN-7", PE_ERR_DTYPE, "f8.npy: learned tables are float32, file has f64", pe_learned_load(path, OUT));
    snprintf(path, sizeof path, "%s/r1.npy", dir);
    write_file(path, img, npy(img, 1, F4 "'shape': (4,), }", 16));
    EXPECT("LRN-8", PE_ERR_SHAPE, "r1.npy: learned tables are 2-D, file has 1 dims", pe_learned_load(path, OUT));
    snprintf(path, sizeof path, "%s/e.npy", dir);
    write_file(path, img, npy(img, 1, F4 "'shape': (0, 4), }", 0));
    EXPECT("LRN-1", PE_ERR_DIM, "max_len=0 must be >= 1", pe_learned_load(path, OUT));
    EXPECT("NPY-21", PE_ERR_IO, "cannot open /nonexistent/t.npy", pe_learned_load("/nonexistent/t.npy", OUT));
    EXPECT("LRN-3", PE_ERR_NULL, "out must not be NULL", pe_learned_load(path, NULL));
    EXPECT("LRN-3", PE_ERR_NULL, "table must not be NULL", pe_learned_save(NULL, path));
    const char *names[] = {"short.npy", "f8.npy", "r1.npy", "e.npy"};
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        unlink(path);
    }
    rmdir(dir);

    static const float rows[8 * 4];
    EXPECT("QK-1", PE_ERR_PARAM, "to=2 is not a RoPE layout",
           pe_qk_permute_rows(rows, OUT, 8, 16, 4, 4, (pe_rope_layout)2));
    EXPECT("QK-2", PE_ERR_DIM, "head_dim=1 must be >= 2", pe_qk_permute_rows(rows, OUT, 8, 16, 1, 0, PE_ROPE_HALF));
    EXPECT("QK-3", PE_ERR_SHAPE, "rows=6 is not a multiple of head_dim=4",
           pe_qk_permute_rows(rows, OUT, 6, 16, 4, 4, PE_ROPE_HALF));
    EXPECT("QK-3", PE_ERR_SHAPE, "rows=-4 is not a multiple of head_dim=4",
           pe_qk_permute_rows(rows, OUT, -4, 16, 4, 4, PE_ROPE_HALF));
    EXPECT("QK-4", PE_ERR_OVERFLOW, "rows=8 x row_bytes=18446744073709551615 overflows size_t",
           pe_qk_permute_rows(rows, OUT, 8, SIZE_MAX, 4, 4, PE_ROPE_HALF));
    EXPECT("QK-5", PE_ERR_DIM, "rotary_dim=8 exceeds head_dim=4", pe_qk_permute_rows(rows, OUT, 8, 16, 4, 8, PE_ROPE_HALF));
    EXPECT("ROPE-1", PE_ERR_DIM, "rotary_dim=3 must be even", pe_qk_permute_rows(rows, OUT, 8, 16, 4, 3, PE_ROPE_HALF));
    EXPECT("QK-6", PE_ERR_NULL, "in must not be NULL", pe_qk_permute_rows(NULL, OUT, 8, 16, 4, 4, PE_ROPE_HALF));
    EXPECT("QK-6", PE_ERR_NULL, "out must not be NULL", pe_qk_permute_rows(rows, NULL, 8, 16, 4, 4, PE_ROPE_HALF));
    EXPECT("QK-7", PE_ERR_SHAPE, "out overlaps in (128 and 128 bytes)",
           pe_qk_permute_rows(OUT_AT(64), OUT, 8, 16, 4, 4, PE_ROPE_INTERLEAVED));
}

/* No half-written arrays: pe_npy_write builds the file under a temporary
 * name and renames it into place, so the target holds the old file or the
 * new one, never a mix; nothing temporary is left behind; a replaced file
 * keeps its mode; and a device is written in place, not replaced. */
TEST(npy_write_replaces_atomically_and_leaves_devices_alone) {
    char dir[] = "/tmp/pe_npy_atomic_XXXXXX", path[128];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/a.npy", dir);
    const float v[4] = {1, 2, 3, 4};
    const int64_t shape[1] = {4};
    CHECK_OK(pe_npy_write(path, PE_F32, 1, shape, v));
    CHECK(chmod(path, 0600) == 0);
    const float w[2] = {5, 6};
    const int64_t shape2[1] = {2};
    CHECK_OK(pe_npy_write(path, PE_F32, 1, shape2, w));
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600);
    pe_npy_array a;
    CHECK_OK(pe_npy_read(path, &a));
    CHECK(a.nbytes == sizeof w && memcmp(a.data, w, sizeof w) == 0);
    pe_npy_free(&a);
    const int entries = pe_test_dir_entries(dir);
    CHECK_MSG(entries == 1, "%d files in %s after two writes (a temporary left behind?)", entries, dir);
    unlink(path);
    rmdir(dir);
    CHECK_OK(pe_npy_write("/dev/null", PE_F32, 1, shape, v));
    CHECK(stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode));
}

/* The OUT rows: pe_output and the stream writers. OUT-3 fills a real
 * pe_output's descriptor with /dev/full (a full disk); OUT-4 takes the
 * temporary away before the rename. Either way the target keeps its bytes
 * and no temporary remains. */
TEST(errors_output_files) {
    char dir[] = "/tmp/pe_out_err_XXXXXX", path[128];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t.txt", dir);
    FILE *old = fopen(path, "wb");
    CHECK(old != NULL && fputs("old\n", old) >= 0 && fclose(old) == 0);
    EXPECT("OUT-1", PE_ERR_NULL, "path must not be NULL", pe_output_open(NULL, OUT));
    EXPECT("OUT-1", PE_ERR_NULL, "out must not be NULL", pe_output_open(path, NULL));
    EXPECT("OUT-1", PE_ERR_NULL, "o must not be NULL", pe_output_close(NULL, PE_OK));
    const int64_t shape[1] = {2};
    static const float data[2];
    EXPECT("OUT-1", PE_ERR_NULL, "f must not be NULL", pe_npy_write_stream(NULL, PE_F32, 1, shape, data));
    const pe_st_tensor t[1] = {
        {.name = "x", .dtype = PE_F32, .ndim = 1, .shape = {2}, .data = data, .nbytes = sizeof data}};
    EXPECT("OUT-1", PE_ERR_NULL, "f must not be NULL", pe_safetensors_write_stream(NULL, t, 1, NULL));
    EXPECT("OUT-2", PE_ERR_IO, "cannot create /nonexistent/dir/o.txt: No such file or directory",
           pe_output_open("/nonexistent/dir/o.txt", OUT));

    pe_output *o = NULL;
    CHECK_OK(pe_output_open(path, &o));
    if (o != NULL) {
        const int full = open("/dev/full", O_WRONLY);
        if (full >= 0) {
            CHECK(dup2(full, fileno(pe_output_stream(o))) >= 0);
            close(full);
        }
        fputs("new and longer\n", pe_output_stream(o));
        EXPECT("OUT-3", PE_ERR_IO, "error writing /tmp/pe_out_err_", pe_output_close(o, PE_OK));
    }
    CHECK_OK(pe_output_open(path, &o));
    if (o != NULL) {
        fputs("new\n", pe_output_stream(o));
        CHECK(pe_output_temp_path(o) != NULL && unlink(pe_output_temp_path(o)) == 0);
        EXPECT("OUT-4", PE_ERR_IO, "to /tmp/pe_out_err_", pe_output_close(o, PE_OK));
    }
    char buf[16] = "";
    FILE *back = fopen(path, "rb");
    CHECK(back != NULL && fgets(buf, sizeof buf, back) != NULL && strcmp(buf, "old\n") == 0);
    if (back) fclose(back);
    const int entries = pe_test_dir_entries(dir);
    CHECK_MSG(entries == 1, "%d files in %s after two failed writes", entries, dir);

    FILE *devfull = fopen("/dev/full", "wb");
    if (devfull != NULL) {
        EXPECT("OUT-5", PE_ERR_IO, "error writing the stream: No space left on device",
               pe_npy_write_stream(devfull, PE_F32, 1, shape, data));
        clearerr(devfull);
        EXPECT("OUT-5", PE_ERR_IO, "error writing the stream: No space left on device",
               pe_safetensors_write_stream(devfull, t, 1, NULL));
        fclose(devfull);
    }
    unlink(path);
    rmdir(dir);
}

/* Every reader decides what it was given before anything can block: a FIFO
 * nobody writes to used to hold `posenc plan --gguf f` forever in open().
 * alarm(10) turns a hang back into a failure (the binary dies of SIGALRM). */
TEST(errors_readers_never_block_on_a_fifo) {
    char dir[] = "/tmp/pe_fifo_XXXXXX", fifo[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(fifo, sizeof fifo, "%s/f", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    alarm(10);
    EXPECT("GGUF-29", PE_ERR_IO, "/f: not a regular file (a FIFO)", pe_plan_from_gguf(fifo, OUT));
    EXPECT("ST-10", PE_ERR_IO, "/f: not a regular file (a FIFO)", pe_safetensors_read(fifo, OUT));
    EXPECT("ST-10", PE_ERR_IO, "/dev/null: not a regular file (a character device)",
           pe_safetensors_read("/dev/null", OUT));
    EXPECT("GGUF-29", PE_ERR_IO, "/tmp: not a regular file (a directory)", pe_plan_from_gguf("/tmp", OUT));
    /* the stream readers take a pipe as it is at the open: no writer, nothing to read */
    EXPECT("NPY-32", PE_ERR_IO, "/f: a pipe with no writer", pe_npy_read(fifo, OUT));
    EXPECT("CFG-45", PE_ERR_IO, "/f': a pipe with no writer", pe_config_read(fifo, OUT));
    EXPECT("PLAN-20", PE_ERR_IO, "/f': a pipe with no writer", pe_plan_from_config_file(fifo, OUT));
    alarm(0);
    unlink(fifo);
    rmdir(dir);
}

/* pe_narrow_f32: the tie between FLT_MAX and 2^128 is where rounding
 * reaches inf; below it a value narrows to FLT_MAX. */
TEST(errors_narrow_f32) {
    const double edge[3] = {1.0, -0x1.ffffffp127, 2.0}, nan3[3] = {1.0, 2.0, NAN},
                 fine[4] = {0x1.fffffefffffffp127, -0x1.fffffefffffffp127, 1e-50, -0.0};
    EXPECT("NAR-1", PE_ERR_RANGE, "value[1]=-3.4028235677973366e+38 overflows float32",
           pe_narrow_f32(edge, 3, OUTF));
    EXPECT("NAR-2", PE_ERR_RANGE, "value[2]=nan is not finite", pe_narrow_f32(nan3, 3, OUTF));
    EXPECT("NAR-3", PE_ERR_SHAPE, "dst overlaps src", pe_narrow_f32(OUTD, 4, OUTF + 2));
    EXPECT("NAR-3", PE_ERR_NULL, "src must not be NULL", pe_narrow_f32(NULL, 4, OUTF));
    EXPECT("NAR-3", PE_ERR_SHAPE, "n=-1 is negative", pe_narrow_f32(fine, -1, OUTF));
    float f[4];
    CHECK_OK(pe_narrow_f32(fine, 4, f));
    CHECK(f[0] == FLT_MAX && f[1] == -FLT_MAX && f[2] == 0.0f && signbit(f[3]));
}

/* GGUF values the plan would misread are refused where they are read
 * (src/io/gguf.c), through the public pe_plan_from_gguf. */
static int plan_of(const char *path, gguf_build *b) {
    CHECK(gb_write(b, path) == 0);
    gb_free(b);
    return pe_plan_from_gguf(path, OUT);
}

static gguf_build *llama_gguf(void) {
    gguf_build *b = gb_new(3);
    gb_str(b, "general.architecture", "llama");
    return b;
}

TEST(errors_gguf_values_the_plan_would_misread) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/pe_gguf_values_%ld.gguf", (long)getpid());
    gguf_build *b = llama_gguf();
    gb_u64(b, "llama.attention.sliding_window", UINT64_MAX); /* was: no window */
    EXPECT("GGUF-31", PE_ERR_FORMAT, "key 'llama.attention.sliding_window' = 18446744073709551615 exceeds INT64_MAX",
           plan_of(path, b));
    b = llama_gguf();
    gb_u64(b, "llama.rope.scaling.original_context_length", (uint64_t)1 << 63); /* was: "=0" */
    EXPECT("GGUF-31", PE_ERR_FORMAT, "original_context_length' = 9223372036854775808 exceeds INT64_MAX",
           plan_of(path, b));
    b = llama_gguf();
    gb_str(b, "llama.rope.scaling.type", "longrope");
    gb_u64(b, "llama.context_length", UINT64_MAX); /* was: "needs context_length" */
    EXPECT("GGUF-31", PE_ERR_FORMAT, "key 'llama.context_length' = 18446744073709551615 exceeds INT64_MAX",
           plan_of(path, b));
    b = llama_gguf();
    gb_f32(b, "llama.rope.scaling.attn_factor", NAN); /* was: derive it */
    EXPECT("GGUF-32", PE_ERR_FORMAT, "key 'llama.rope.scaling.attn_factor' = nan is not finite", plan_of(path, b));
    b = llama_gguf();
    gb_f64(b, "llama.rope.freq_base", -INFINITY);
    EXPECT("GGUF-32", PE_ERR_FORMAT, "key 'llama.rope.freq_base' = -inf is not finite", plan_of(path, b));
    const int32_t five[5] = {8, 12, 12, 0, 0}, three[3] = {8, 12, 12};
    b = llama_gguf();
    gb_array(b, "llama.rope.dimension_sections", GB_I32, 5, five);
    EXPECT("GGUF-33", PE_ERR_FORMAT, "key 'llama.rope.dimension_sections' has 5 sections; llama.cpp reads exactly 4",
           plan_of(path, b));
    b = llama_gguf();
    gb_array(b, "llama.rope.dimension_sections", GB_I32, 3, three);
    EXPECT("GGUF-33", PE_ERR_FORMAT, "has 3 sections; llama.cpp reads exactly 4", plan_of(path, b));
    unlink(path);
}

/* ---- parsers as strict as their reference readers (issue 26) */

/* A safetensors image of header + data_len bytes, parsed into OUT. */
static int st_parse(const char *header, size_t data_len) {
    static unsigned char buf[1024];
    const size_t n = strlen(header);
    for (int i = 0; i < 8; i++) buf[i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(buf + 8, header, n);
    memset(buf + 8 + n, 0x3c, data_len);
    return pe_safetensors_parse(buf, 8 + n + data_len, (pe_safetensors **)OUT);
}

TEST(errors_parsers_as_strict_as_numpy_and_serde) {
    unsigned char b[256];
    /* NumPy reads versions (1, 0), (2, 0), (3, 0) only */
    size_t n = npy(b, 1, F4 "'shape': (2,), }", 8);
    b[7] = 1;
    EXPECT("NPY-3", PE_ERR_FORMAT, "npy format version 1.1 is not supported", pe_npy_parse(b, n, OUT));
    /* ast.literal_eval refuses leading zeros */
    EXPECT("NPY-12", PE_ERR_FORMAT, "npy header: bad shape entry", parse_dict(F4 "'shape': (02, 8), }", 64));
    EXPECT("NPY-12", PE_ERR_FORMAT, "npy header: bad shape entry", parse_dict(F4 "'shape': (2, 00), }", 0));
    CHECK_OK(parse_dict(F4 "'shape': (0, 8), }", 0));
    pe_npy_free((pe_npy_array *)OUT);
    CHECK_OK(parse_dict(F4 "'shape': (10, 1), }", 40));
    pe_npy_free((pe_npy_array *)OUT);
    /* a NUL inside a string of the dict: "<f4\0x" was read as "<f4" */
    static const char nul_descr[] = "{'descr': '<f4\0x', 'fortran_order': False, 'shape': (2,), }";
    n = npy(b, 1, "", 8);
    const size_t dl = sizeof nul_descr - 1, hl = dl + 1;
    memcpy(b + 10, nul_descr, dl);
    b[10 + dl] = '\n';
    b[8] = (unsigned char)hl;
    b[9] = 0;
    memset(b + 10 + hl, 0, 8);
    EXPECT("NPY-33", PE_ERR_FORMAT, "npy header holds a NUL at byte 14 (NumPy refuses it)",
           pe_npy_parse(b, 10 + hl + 8, OUT));
    (void)n;

    /* serde_json reads shapes and offsets as usize: 2.0, 8e0, 02, -0 are refused */
    EXPECT("ST-19", PE_ERR_FORMAT, "number '2.0' at byte 29 is not an unsigned integer",
           st_parse("{\"w\":{\"dtype\":\"F32\",\"shape\":[2.0],\"data_offsets\":[0,8]}}", 8));
    EXPECT("ST-19", PE_ERR_FORMAT, "number '8e0' at byte 50 is not an unsigned integer",
           st_parse("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8e0]}}", 8));
    EXPECT("ST-19", PE_ERR_FORMAT, "number '02' at byte 29 is not an unsigned integer",
           st_parse("{\"w\":{\"dtype\":\"F32\",\"shape\":[02],\"data_offsets\":[0,8]}}", 8));
    /* \u0000 in a name: cJSON would cut "q\u0000x" to "q" */
    EXPECT("ST-20", PE_ERR_FORMAT, "\\u0000 at byte 3: a name or value holding a NUL cannot be kept whole",
           st_parse("{\"q\\u0000x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8));
    EXPECT("ST-20", PE_ERR_FORMAT, "\\u0000 at byte",
           st_parse("{\"__metadata__\":{\"k\":\"v\\u0000\"},\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8));
    /* an escaped backslash before u0000 is not an escape of a NUL */
    pe_safetensors *st = NULL;
    static unsigned char ok_img[256];
    const char *okh = "{\"__metadata__\":{\"k\":\"a\\\\u0000\"},\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    const size_t on = strlen(okh);
    for (int i = 0; i < 8; i++) ok_img[i] = (unsigned char)((uint64_t)on >> (8 * i));
    memcpy(ok_img + 8, okh, on);
    memset(ok_img + 8 + on, 0, 8);
    CHECK_OK(pe_safetensors_parse(ok_img, 8 + on + 8, &st));
    pe_safetensors_free(st);

    /* config.json: HF reads it as UTF-8 text */
    static const char latin1[] = "{\"model_type\":\"\xe9t\xe9\",\"head_dim\":64}",
                      surrogate[] = "{\"model_type\":\"\xed\xa0\x80\",\"head_dim\":64}",
                      overlong[] = "{\"model_type\":\"\xc0\xaf\",\"head_dim\":64}";
    EXPECT("CFG-41", PE_ERR_FORMAT, "config is not valid UTF-8 (byte 15 is 0xe9)",
           pe_config_parse(latin1, sizeof latin1 - 1, OUT));
    EXPECT("CFG-41", PE_ERR_FORMAT, "config is not valid UTF-8 (byte 15 is 0xed)",
           pe_config_parse(surrogate, sizeof surrogate - 1, OUT));
    EXPECT("PLAN-20", PE_ERR_FORMAT, "config is not valid UTF-8 (byte 15 is 0xc0)",
           pe_plan_from_config_json(overlong, sizeof overlong - 1, OUT));
}
