/*
 * npy.c — NumPy .npy files (format versions 1.0, 2.0 and 3.0).
 *
 * A file is: the magic "\x93NUMPY", a major and minor version byte, a
 * little-endian header length (2 bytes in 1.0, 4 in 2.0/3.0), an ASCII
 * Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * padded with spaces and ended by a newline, then the raw C-order data. The
 * parser reads only that dict grammar and that padding, and checks every
 * length against the buffer before it looks, so a truncated or lying file
 * is an error, never an over-read.
 */
#include "../internal.h"
#include "input_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char NPY_MAGIC[6] = {(char)0x93, 'N', 'U', 'M', 'P', 'Y'};

typedef struct {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' ||
                             *c->p == '\r'))
        c->p++;
}

static bool eat(cursor *c, char ch) {
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted Python string without escapes, copied into buf. */
static bool read_string(cursor *c, char *buf, size_t cap) {
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return false;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || n + 1 >= cap) return false;
        buf[n++] = *c->p++;
    }
    if (c->p >= c->end) return false;
    c->p++;
    buf[n] = '\0';
    return true;
}

static bool read_word(cursor *c, const char *word) {
    skip_ws(c);
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return false;
    c->p += n;
    return true;
}

static bool read_dim(cursor *c, int64_t *v) {
    skip_ws(c);
    int64_t x = 0;
    const char *start = c->p;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        if (x > (INT64_MAX - 9) / 10) return false;
        x = x * 10 + (*c->p++ - '0');
    }
    if (c->p == start) return false;
    /* Python (ast.literal_eval, NumPy's reader) refuses leading zeros */
    if (*start == '0' && c->p - start > 1) return false;
    /* Python 2 era writers append L to longs. */
    if (c->p < c->end && *c->p == 'L') c->p++;
    *v = x;
    return true;
}

static int parse_header(const char *h, size_t len, pe_npy_array *out) {
    cursor c = {h, h + len};
    bool have_descr = false, have_order = false, have_shape = false;
    char descr[16];
    if (!eat(&c, '{')) return pe__fail(PE_ERR_FORMAT, "npy header is not a dict");
    for (;;) {
        if (eat(&c, '}')) break;
        char key[32];
        if (!read_string(&c, key, sizeof key) || !eat(&c, ':'))
            return pe__fail(PE_ERR_FORMAT, "npy header: expected 'key':");
        if (strcmp(key, "descr") == 0) {
            if (!read_string(&c, descr, sizeof descr))
                return pe__fail(PE_ERR_FORMAT, "npy header: descr is not a string");
            have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (read_word(&c, "True"))
                return pe__fail(PE_ERR_FORMAT,
                                "npy: fortran_order arrays are not supported "
                                "(save a C-order copy)");
            if (!read_word(&c, "False"))
                return pe__fail(PE_ERR_FORMAT, "npy header: fortran_order not a bool");
            have_order = true;
        } else if (strcmp(key, "shape") == 0) {
            if (!eat(&c, '('))
                return pe__fail(PE_ERR_FORMAT, "npy header: shape is not a tuple");
            out->ndim = 0;
            while (!eat(&c, ')')) {
                if (out->ndim == PE_NPY_MAX_DIMS)
                    return pe__fail(PE_ERR_FORMAT, "npy: more than %d dimensions",
                                    PE_NPY_MAX_DIMS);
                if (!read_dim(&c, &out->shape[out->ndim]))
                    return pe__fail(PE_ERR_FORMAT, "npy header: bad shape entry");
                out->ndim++;
                if (!eat(&c, ',')) {
                    if (!eat(&c, ')'))
                        return pe__fail(PE_ERR_FORMAT, "npy header: unclosed shape");
                    break;
                }
            }
            have_shape = true;
        } else {
            return pe__fail(PE_ERR_FORMAT, "npy header: unknown key '%s'", key);
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}')) return pe__fail(PE_ERR_FORMAT, "npy header: expected , or }");
            break;
        }
    }
    /* NumPy pads the dict with spaces and ends the header with one '\n':
     * anything else after the dict (garbage, a NUL, another line) is a
     * file NumPy did not write, refused rather than carried along */
    while (c.p < c.end && *c.p == ' ') c.p++;
    if (c.end - c.p != 1 || *c.p != '\n')
        return pe__fail(PE_ERR_FORMAT,
                        "npy header: the dict must be followed by spaces and one newline "
                        "(byte %zu of %zu is 0x%02x)",
                        (size_t)(c.p - h), len, c.p < c.end ? (unsigned)(unsigned char)*c.p : 0u);
    /* NumPy evaluates the header as Python source, which cannot hold a NUL
     * anywhere (after the dict: NPY-31 above); inside a string one used to cut "<f4\0junk" to "<f4". */
    const char *nul = memchr(h, '\0', len);
    if (nul != NULL)
        return pe__fail(PE_ERR_FORMAT, "npy header holds a NUL at byte %zu (NumPy refuses it)",
                        (size_t)(nul - h));
    if (!have_descr || !have_order || !have_shape)
        return pe__fail(PE_ERR_FORMAT, "npy header lacks %s",
                        !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
    if (strcmp(descr, "<f4") == 0) out->dtype = PE_F32;
    else if (strcmp(descr, "<f8") == 0) out->dtype = PE_F64;
    else if (strcmp(descr, "<f2") == 0) out->dtype = PE_F16;
    else if (strcmp(descr, "<i8") == 0) out->dtype = PE_I64;
    else
        return pe__fail(PE_ERR_DTYPE,
                        "npy dtype '%s' is not supported (want <f4, <f8, <f2 or <i8)",
                        descr);
    return PE_OK;
}

/* numpy's own readers refuse headers past 10000 bytes by default; a dict of
 * the three keys and an 8-dim shape needs a few hundred. 1 MiB keeps a
 * version 2 length field (up to 4 GiB) from turning a stream into a huge
 * read before anything is parsed. */
#define NPY_MAX_HEADER ((size_t)1 << 20)

/*
 * Preamble and header of the image b[0, len): *data_start where the data
 * begins and *need the bytes the header's shape and dtype call for. Checks
 * everything except the data length, so len may end right after the
 * header (the file reader calls it before reading the data).
 */
static int parse_meta(const unsigned char *b, size_t len, pe_npy_array *a,
                      size_t *data_start, size_t *need) {
    if (len < 10 || memcmp(b, NPY_MAGIC, 6) != 0)
        return pe__fail(PE_ERR_FORMAT, "not a .npy file (bad magic)");
    unsigned major = b[6];
    size_t hlen = 0, hstart = 0;
    /* NumPy reads (1, 0), (2, 0) and (3, 0) only: a minor version is refused */
    if (b[7] != 0)
        return pe__fail(PE_ERR_FORMAT, "npy format version %u.%u is not supported", major,
                        (unsigned)b[7]);
    if (major == 1) {
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
        hstart = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12) return pe__fail(PE_ERR_FORMAT, "npy file truncated in its preamble");
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 |
               (size_t)b[11] << 24;
        hstart = 12;
    } else {
        return pe__fail(PE_ERR_FORMAT, "npy format version %u.%u is not supported",
                        major, (unsigned)b[7]);
    }
    if (hlen > NPY_MAX_HEADER)
        return pe__fail(PE_ERR_FORMAT, "npy header length %zu exceeds %zu bytes", hlen,
                        NPY_MAX_HEADER);
    if (hlen > len - hstart)
        return pe__fail(PE_ERR_FORMAT, "npy header length %zu runs past the file (%zu bytes)",
                        hlen, len);
    memset(a, 0, sizeof *a);
    PE_TRY(parse_header((const char *)b + hstart, hlen, a));
    size_t bytes = pe_dtype_size(a->dtype), end;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] < 0 || !pe__size_mul(bytes, (size_t)a->shape[i], &bytes))
            return pe__fail(PE_ERR_FORMAT, "npy shape overflows size_t");
    if (!pe__size_add(bytes, hstart + hlen, &end))
        return pe__fail(PE_ERR_FORMAT, "npy shape overflows size_t");
    *data_start = hstart + hlen;
    *need = bytes;
    return PE_OK;
}

int pe_npy_parse(const void *buf, size_t len, pe_npy_array *out) {
    PE_CHECK_NULL(out);
    if (len > 0) PE_CHECK_NULL(buf);
    const unsigned char *b = buf;
    pe_npy_array a;
    size_t start = 0, need = 0;
    PE_TRY(parse_meta(b, len, &a, &start, &need));
    const size_t have = len - start;
    if (need != have)
        return pe__fail(PE_ERR_FORMAT, "npy shape needs %zu data bytes, file has %zu",
                        need, have);
    a.nbytes = need;
    a.data = malloc(need ? need : 1);
    if (a.data == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for %zu bytes", need);
    memcpy(a.data, b + start, need);
    *out = a;
    return PE_OK;
}

/* Read from f until *n >= want or end of file, growing *buf by doubling so
 * that memory follows the bytes that actually arrive, not what a header
 * claims. */
static int fill(FILE *f, const char *path, unsigned char **buf, size_t *cap, size_t *n,
                size_t want) {
    while (*n < want) {
        if (*n == *cap) {
            size_t grown = *cap < want / 2 ? *cap * 2 : want;
            unsigned char *nb = realloc(*buf, grown);
            if (nb == NULL) return pe__fail(PE_ERR_NOMEM, "no memory to read %s", path);
            *buf = nb;
            *cap = grown;
        }
        size_t got = fread(*buf + *n, 1, *cap - *n, f);
        *n += got;
        if (got == 0) break;
    }
    if (ferror(f)) return pe__fail(PE_ERR_IO, "error reading %s", path);
    return PE_OK;
}

/*
 * The image of a .npy file, read only as far as its header says it goes:
 * a stream (pipe, device) that never ends, or a file larger than its
 * header, stops one byte past the data and is refused, and a regular file
 * whose size disagrees with its header is refused before the data is read.
 * Parsing errors are left to pe_npy_parse, which sees what was read.
 */
static int read_image(FILE *f, const char *path, unsigned char **data, size_t *len) {
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    if (buf == NULL) return pe__fail(PE_ERR_NOMEM, "no memory to read %s", path);
    pe_npy_array meta;
    size_t start = 0, need = 0;
    int status = fill(f, path, &buf, &cap, &n, 12);
    if (status == PE_OK && n >= 10 && memcmp(buf, NPY_MAGIC, 6) == 0) {
        const size_t hstart = buf[6] == 1 ? 10 : 12;
        size_t hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        if (hstart == 12 && n >= 12) hlen |= (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        if (hlen <= NPY_MAX_HEADER) status = fill(f, path, &buf, &cap, &n, hstart + hlen);
        if (status == PE_OK && parse_meta(buf, n, &meta, &start, &need) == PE_OK) {
            struct stat sb;
            if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) &&
                (uint64_t)sb.st_size != (uint64_t)start + need)
                status = pe__fail(PE_ERR_FORMAT, "npy shape needs %zu data bytes, file has %lld",
                                  need, (long long)sb.st_size - (long long)start);
            else if ((status = fill(f, path, &buf, &cap, &n, start + need + 1)) == PE_OK &&
                     n > start + need)
                status = pe__fail(PE_ERR_FORMAT, "npy shape needs %zu data bytes, file has more",
                                  need);
        }
    }
    if (status != PE_OK) {
        free(buf);
        return status;
    }
    *data = buf;
    *len = n;
    return PE_OK;
}

int pe_npy_read(const char *path, pe_npy_array *out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    FILE *f = NULL;
    int64_t size = -1;
    PE_TRY(pe__input_open(path, PE__INPUT_STREAM, &f, &size));
    unsigned char *buf = NULL;
    size_t len = 0;
    int status = read_image(f, path, &buf, &len);
    fclose(f);
    if (status == PE_OK) {
        status = pe_npy_parse(buf, len, out);
        free(buf);
    }
    if (status != PE_OK && status != PE_ERR_IO && status != PE_ERR_NOMEM) {
        /* Prefix the file name to the parser's detail. */
        char detail[400];
        snprintf(detail, sizeof detail, "%s", pe_last_error());
        return pe__fail(status, "%s: %s", path, detail);
    }
    return status;
}

void pe_npy_free(pe_npy_array *a) {
    if (a == NULL) return;
    free(a->data);
    a->data = NULL;
    a->nbytes = 0;
}

/* Validate, then write to path through a pe_output (path non-NULL) or to
 * stream: one body for pe_npy_write and pe_npy_write_stream. */
static int npy_write(const char *path, FILE *stream, pe_dtype dtype, int ndim,
                     const int64_t *shape, const void *data) {
    const char *descr = dtype == PE_F32   ? "<f4"
                        : dtype == PE_F64 ? "<f8"
                        : dtype == PE_F16 ? "<f2"
                        : dtype == PE_I64 ? "<i8"
                                          : NULL;
    if (descr == NULL)
        return pe__fail(PE_ERR_DTYPE, "dtype %s cannot be written to .npy",
                        pe_dtype_name(dtype));
    if (ndim < 0 || ndim > PE_NPY_MAX_DIMS)
        return pe__fail(PE_ERR_SHAPE, "ndim=%d outside [0, %d]", ndim, PE_NPY_MAX_DIMS);
    if (ndim > 0) PE_CHECK_NULL(shape);
    char dict[512];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    size_t count = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0 || !pe__size_mul(count, (size_t)shape[i], &count))
            return pe__fail(PE_ERR_SHAPE, "shape[%d]=%lld is negative or overflows", i,
                            (long long)shape[i]);
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld%s", (long long)shape[i],
                      ndim == 1 ? "," : (i + 1 < ndim ? ", " : ""));
    }
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    size_t nbytes;
    if (!pe__size_mul(count, pe_dtype_size(dtype), &nbytes))
        return pe__fail(PE_ERR_OVERFLOW, "array size overflows size_t");
    if (nbytes > 0) PE_CHECK_NULL(data);
    /* Pad magic(6) + version(2) + length(2) + dict + '\n' to a multiple of 64. */
    size_t total = 10 + (size_t)n + 1;
    size_t padded = (total + 63) / 64 * 64;
    size_t hlen = padded - 10;
    unsigned char pre[10];
    memcpy(pre, NPY_MAGIC, 6);
    pre[6] = 1;
    pre[7] = 0;
    pre[8] = (unsigned char)(hlen & 0xff);
    pre[9] = (unsigned char)(hlen >> 8);
    pe_output *out = NULL;
    if (path != NULL) PE_TRY(pe_output_open(path, &out));
    FILE *f = out ? pe_output_stream(out) : stream;
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
    for (size_t i = 10 + (size_t)n; ok && i < padded - 1; i++) ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF;
    ok = ok && (nbytes == 0 || fwrite(data, 1, nbytes, f) == nbytes);
    ok = ok && fflush(f) == 0; /* a full disk is reported here, not at the caller's fclose */
    const int status = ok ? PE_OK
                          : pe__fail(PE_ERR_IO, "error writing %s: %s", path ? path : "the stream",
                                     strerror(errno));
    return out ? pe_output_close(out, status) : status;
}

int pe_npy_write(const char *path, pe_dtype dtype, int ndim, const int64_t *shape,
                 const void *data) {
    PE_CHECK_NULL(path);
    return npy_write(path, NULL, dtype, ndim, shape, data);
}

int pe_npy_write_stream(FILE *f, pe_dtype dtype, int ndim, const int64_t *shape,
                        const void *data) {
    PE_CHECK_NULL(f);
    return npy_write(NULL, f, dtype, ndim, shape, data);
}
