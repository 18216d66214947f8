/*
 * safetensors_write.c — writes safetensors files. The JSON header is
 * formatted by hand (cJSON prints large integers in exponent notation, which
 * the format's reference reader rejects); tensors are laid out largest
 * element size first so each sits aligned; the bytes go to a pe_output
 * (io/output_file.c) or to the caller's stream.
 */
#include "safetensors_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- writing */

typedef struct {
    char *s;
    size_t len, cap;
    bool failed;
} strbuf;

static void sb_put(strbuf *b, const char *s, size_t n) {
    if (b->failed) return;
    if (b->cap - b->len < n + 1) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n + 1) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (ns == NULL) {
            b->failed = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_str(strbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

/* A JSON string literal: quotes, backslashes and control bytes escaped;
 * other bytes (UTF-8 included) pass through. */
static void sb_json_string(strbuf *b, const char *s) {
    sb_put(b, "\"", 1);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char esc[8];
        if (ch == '"' || ch == '\\') {
            esc[0] = '\\';
            esc[1] = (char)ch;
            sb_put(b, esc, 2);
        } else if (ch < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", ch);
            sb_put(b, esc, 6);
        } else {
            sb_put(b, s, 1);
        }
    }
    sb_put(b, "\"", 1);
}

static void sb_int(strbuf *b, unsigned long long v) {
    char num[24];
    snprintf(num, sizeof num, "%llu", v);
    sb_str(b, num);
}

typedef struct {
    int64_t index;
    size_t esize;
} write_slot;

/* Largest element size first, then the caller's order. */
static int by_size_then_index(const void *a, const void *b) {
    const write_slot *x = a, *y = b;
    if (x->esize != y->esize) return x->esize > y->esize ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int by_name_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Check the caller's tensors; fill each slot's element size. */
static int check_tensors(const pe_st_tensor *t, int64_t count, write_slot *slots) {
    for (int64_t i = 0; i < count; i++) {
        if (t[i].name == NULL || t[i].name[0] == '\0' || strcmp(t[i].name, ST_META_KEY) == 0)
            return pe__fail(PE_ERR_PARAM, "tensors[%lld].name=%s%.80s%s is not a usable name",
                            (long long)i, t[i].name ? "'" : "", t[i].name ? t[i].name : "NULL",
                            t[i].name ? "'" : "");
        if (!pe__utf8_valid(t[i].name, strlen(t[i].name)))
            return pe__fail(PE_ERR_PARAM, "tensors[%lld].name is not valid UTF-8",
                            (long long)i);
        int di = t[i].st_dtype[0] ? (memchr(t[i].st_dtype, '\0', sizeof t[i].st_dtype)
                                         ? pe__st_dtype_index(t[i].st_dtype)
                                         : -1)
                                  : pe__st_dtype_of_pe(t[i].dtype);
        if (di < 0)
            return pe__fail(PE_ERR_DTYPE, "tensors[%lld] ('%.80s') dtype %s%.11s is not a safetensors dtype",
                            (long long)i, t[i].name, t[i].st_dtype[0] ? "" : "pe_dtype ",
                            t[i].st_dtype[0] ? t[i].st_dtype : pe_dtype_name(t[i].dtype));
        if (t[i].ndim < 0 || t[i].ndim > PE_ST_MAX_DIMS)
            return pe__fail(PE_ERR_SHAPE, "tensors[%lld] ('%.80s') ndim=%d outside [0, %d]",
                            (long long)i, t[i].name, t[i].ndim, PE_ST_MAX_DIMS);
        size_t count_el = 1;
        for (int d = 0; d < t[i].ndim; d++)
            if (t[i].shape[d] > ((int64_t)1 << 53) ||
                !pe__mul_size((int64_t)count_el, t[i].shape[d], &count_el))
                return pe__fail(PE_ERR_SHAPE, "tensors[%lld] ('%.80s') shape[%d]=%lld is negative or overflows",
                                (long long)i, t[i].name, d, (long long)t[i].shape[d]);
        size_t need;
        if (!pe__size_mul(count_el, pe__st_dtypes[di].size, &need))
            return pe__fail(PE_ERR_OVERFLOW, "tensors[%lld] ('%.80s') size overflows size_t",
                            (long long)i, t[i].name);
        if (t[i].nbytes != need)
            return pe__fail(PE_ERR_SHAPE, "tensors[%lld] ('%.80s') nbytes=%zu, its shape and dtype need %zu",
                            (long long)i, t[i].name, t[i].nbytes, need);
        if (need > 0 && t[i].data == NULL)
            return pe__fail(PE_ERR_NULL, "tensors[%lld] ('%.80s') data must not be NULL",
                            (long long)i, t[i].name);
        slots[i].index = i;
        slots[i].esize = pe__st_dtypes[di].size;
    }
    return PE_OK;
}

/* Metadata pairs and tensor names, all unique (the reader rejects repeats). */
static int check_names(const pe_st_tensor *t, int64_t count, const char *const *meta) {
    int64_t n_meta = 0;
    while (meta && meta[2 * n_meta]) {
        if (meta[2 * n_meta + 1] == NULL)
            return pe__fail(PE_ERR_NULL, "metadata key '%.80s' has no value", meta[2 * n_meta]);
        for (int k = 0; k < 2; k++)
            if (!pe__utf8_valid(meta[2 * n_meta + k], strlen(meta[2 * n_meta + k])))
                return pe__fail(PE_ERR_PARAM, "metadata %s %lld is not valid UTF-8",
                                k ? "value" : "key", (long long)n_meta);
        n_meta++;
    }
    int64_t n = count > n_meta ? count : n_meta;
    const char **names;
    PE_TRY(pe__alloc("tensor and metadata names", n, 1, sizeof *names, &names));
    int status = PE_OK;
    for (int pass = 0; pass < 2 && status == PE_OK; pass++) {
        int64_t m = pass == 0 ? count : n_meta;
        for (int64_t i = 0; i < m; i++) names[i] = pass == 0 ? t[i].name : meta[2 * i];
        qsort(names, (size_t)m, sizeof *names, by_name_str);
        for (int64_t i = 1; i < m; i++)
            if (strcmp(names[i - 1], names[i]) == 0) {
                status = pe__fail(PE_ERR_PARAM, "%s '%.80s' appears twice",
                                  pass == 0 ? "tensor name" : "metadata key", names[i]);
                break;
            }
    }
    free(names);
    return status;
}

static int build_header(const pe_st_tensor *t, int64_t count, const write_slot *order,
                        const char *const *meta, strbuf *b) {
    size_t *offset;
    PE_TRY(pe__alloc("tensor offsets", count, 1, sizeof *offset, &offset));
    size_t at = 0;
    for (int64_t k = 0; k < count; k++) {
        offset[order[k].index] = at;
        if (!pe__size_add(at, t[order[k].index].nbytes, &at)) {
            free(offset);
            return pe__fail(PE_ERR_OVERFLOW, "the tensors' bytes add up past size_t");
        }
    }
    sb_str(b, "{");
    bool first = true;
    if (meta && meta[0]) {
        sb_str(b, "\"" ST_META_KEY "\":{");
        for (int64_t i = 0; meta[2 * i]; i++) {
            if (i) sb_str(b, ",");
            sb_json_string(b, meta[2 * i]);
            sb_str(b, ":");
            sb_json_string(b, meta[2 * i + 1]);
        }
        sb_str(b, "}");
        first = false;
    }
    for (int64_t i = 0; i < count; i++) {
        if (!first) sb_str(b, ",");
        first = false;
        sb_json_string(b, t[i].name);
        sb_str(b, ":{\"dtype\":\"");
        sb_str(b, t[i].st_dtype[0] ? t[i].st_dtype : pe__st_dtypes[pe__st_dtype_of_pe(t[i].dtype)].name);
        sb_str(b, "\",\"shape\":[");
        for (int d = 0; d < t[i].ndim; d++) {
            if (d) sb_str(b, ",");
            sb_int(b, (unsigned long long)t[i].shape[d]);
        }
        sb_str(b, "],\"data_offsets\":[");
        sb_int(b, offset[i]);
        sb_str(b, ",");
        sb_int(b, offset[i] + t[i].nbytes);
        sb_str(b, "]}");
    }
    sb_str(b, "}");
    while (!b->failed && (8 + b->len) % 8 != 0) sb_str(b, " ");
    free(offset);
    if (b->failed) return pe__fail(PE_ERR_NOMEM, "no memory for the header");
    if (b->len > ST_MAX_HEADER)
        return pe__fail(PE_ERR_OVERFLOW, "header of %zu bytes exceeds the %u-byte limit", b->len,
                        ST_MAX_HEADER);
    return PE_OK;
}

/* The header and the data, in file order, to f (path names it in errors). */
static int write_to(const char *path, FILE *f, const strbuf *h, const pe_st_tensor *t,
                    int64_t count, const write_slot *order) {
    unsigned char pre[8];
    for (int i = 0; i < 8; i++) pre[i] = (unsigned char)((uint64_t)h->len >> (8 * i));
    bool ok = fwrite(pre, 1, 8, f) == 8 && fwrite(h->s, 1, h->len, f) == h->len;
    for (int64_t k = 0; ok && k < count; k++) {
        const pe_st_tensor *x = &t[order[k].index];
        ok = x->nbytes == 0 || fwrite(x->data, 1, x->nbytes, f) == x->nbytes;
    }
    ok = ok && fflush(f) == 0; /* a full disk is reported here, not at the caller's fclose */
    if (!ok) return pe__fail(PE_ERR_IO, "error writing %s: %s", path, strerror(errno));
    return PE_OK;
}

/* Validate everything, then write to path through a pe_output (path
 * non-NULL) or to stream: one body for both public writers. */
static int st_write(const char *path, FILE *stream, const pe_st_tensor *tensors, int64_t count,
                    const char *const *metadata) {
    if (count < 0)
        return pe__fail(PE_ERR_PARAM, "count=%lld must be >= 0", (long long)count);
    if (count > 0) PE_CHECK_NULL(tensors);
    write_slot *order;
    PE_TRY(pe__alloc("tensor list", count, 1, sizeof *order, &order));
    strbuf h = {0};
    int status = check_tensors(tensors, count, order);
    if (status == PE_OK) status = check_names(tensors, count, metadata);
    if (status == PE_OK) {
        qsort(order, (size_t)count, sizeof *order, by_size_then_index);
        status = build_header(tensors, count, order, metadata, &h);
    }
    pe_output *out = NULL;
    if (status == PE_OK && path != NULL) status = pe_output_open(path, &out);
    if (status == PE_OK) {
        status = write_to(path ? path : "the stream", out ? pe_output_stream(out) : stream, &h,
                          tensors, count, order);
        if (out != NULL) status = pe_output_close(out, status);
    }
    free(h.s);
    free(order);
    return status;
}

int pe_safetensors_write(const char *path, const pe_st_tensor *tensors, int64_t count,
                         const char *const *metadata) {
    PE_CHECK_NULL(path);
    return st_write(path, NULL, tensors, count, metadata);
}

int pe_safetensors_write_stream(FILE *f, const pe_st_tensor *tensors, int64_t count,
                                const char *const *metadata) {
    PE_CHECK_NULL(f);
    return st_write(NULL, f, tensors, count, metadata);
}
