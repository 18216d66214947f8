/*
 * safetensors.c — reads Hugging Face safetensors files (safetensors_write.c
 * writes them).
 *
 * A file is an 8-byte little-endian header length N, N bytes of JSON (parsed
 * with cJSON, never by hand), then the data section. Reading follows the
 * rules of the format's reference implementation, so that what this accepts
 * the Rust and Python readers accept too: the header is a JSON object of at
 * most 100 MB; every entry but "__metadata__" (string -> string) is a tensor
 * with a known dtype, a shape of exact non-negative integers and data_offsets
 * [begin, end] whose span is exactly product(shape) * element size; sorted by
 * offset the tensors tile the data section with no gap, no overlap and
 * nothing after the last. All of that is checked against the byte count
 * before any data is copied.
 */
#include "input_file.h"
#include "safetensors_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A tensor and where its bytes begin in the data section. */
typedef struct {
    pe_st_tensor t;
    size_t begin;
} st_entry;

struct pe_safetensors {
    int64_t count;
    st_entry *tensors;      /* sorted by data offset */
    int64_t *by_name;       /* tensor indices sorted by name, for find */
    int64_t n_meta;
    char **meta;            /* key, value, key, value, ... (owned) */
    unsigned char *data;    /* the data section (owned) */
    size_t data_len;
};

/* ---------------------------------------------------------------- dtypes */

const pe__st_dtype pe__st_dtypes[] = {
    {"F32", 4, 1, PE_F32},  {"F64", 8, 1, PE_F64},     {"F16", 2, 1, PE_F16},
    {"BF16", 2, 1, PE_BF16}, {"I64", 8, 1, PE_I64},    {"BOOL", 1, 0, PE_F32},
    {"U8", 1, 0, PE_F32},   {"I8", 1, 0, PE_F32},      {"F8_E5M2", 1, 0, PE_F32},
    {"F8_E4M3", 1, 0, PE_F32}, {"I16", 2, 0, PE_F32},  {"U16", 2, 0, PE_F32},
    {"I32", 4, 0, PE_F32},  {"U32", 4, 0, PE_F32},     {"U64", 8, 0, PE_F32},
};
#define N_ST_DTYPES (sizeof pe__st_dtypes / sizeof pe__st_dtypes[0])

int pe__st_dtype_index(const char *name) {
    for (size_t i = 0; i < N_ST_DTYPES; i++)
        if (strcmp(pe__st_dtypes[i].name, name) == 0) return (int)i;
    return -1;
}

int pe__st_dtype_of_pe(pe_dtype d) {
    for (size_t i = 0; i < N_ST_DTYPES; i++)
        if (pe__st_dtypes[i].known && pe__st_dtypes[i].dtype == d) return (int)i;
    return -1;
}

/* ---------------------------------------------------------------- reading */

void pe_safetensors_free(pe_safetensors *st) {
    if (st == NULL) return;
    for (int64_t i = 0; i < st->count; i++) free((char *)st->tensors[i].t.name);
    for (int64_t i = 0; i < 2 * st->n_meta; i++) free(st->meta[i]);
    free(st->tensors);
    free(st->by_name);
    free(st->meta);
    free(st->data);
    free(st);
}

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* A JSON number that is an exact integer in [0, 2^53]: what an offset or a
 * dimension must be (a double holds every integer up to 2^53 exactly). */
static bool exact_uint(const cJSON *j, int64_t *out) {
    if (!cJSON_IsNumber(j)) return false;
    double v = j->valuedouble;
    if (!(v >= 0.0 && v <= 9007199254740992.0) || v != (double)(int64_t)v) return false;
    *out = (int64_t)v;
    return true;
}

static int by_offset(const void *a, const void *b) {
    const st_entry *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    if (x->t.nbytes != y->t.nbytes) return x->t.nbytes < y->t.nbytes ? -1 : 1;
    return strcmp(x->t.name, y->t.name);
}

/* qsort has no context argument: sort names through a pointer array. */
static int by_name_ptr(const void *a, const void *b) {
    const st_entry *const *x = a, *const *y = b;
    return strcmp((*x)->t.name, (*y)->t.name);
}

/* One tensor entry of the header into *en (data stays NULL until the data
 * section is in memory). */
static int parse_entry(const cJSON *e, st_entry *en) {
    pe_st_tensor *t = &en->t;
    const char *nm = e->string;
    if (!cJSON_IsObject(e))
        return pe__fail(PE_ERR_FORMAT, "safetensors: entry '%.80s' is not an object", nm);
    const cJSON *dt = NULL, *sh = NULL, *off = NULL;
    for (const cJSON *c = e->child; c != NULL; c = c->next) {
        const cJSON **slot = strcmp(c->string, "dtype") == 0          ? &dt
                             : strcmp(c->string, "shape") == 0        ? &sh
                             : strcmp(c->string, "data_offsets") == 0 ? &off
                                                                      : NULL;
        if (slot == NULL)
            return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' has unknown key '%.40s'",
                            nm, c->string);
        if (*slot != NULL)
            return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' repeats key '%s'", nm,
                            c->string);
        *slot = c;
    }
    if (dt == NULL || sh == NULL || off == NULL)
        return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' lacks %s", nm,
                        dt == NULL ? "dtype" : sh == NULL ? "shape" : "data_offsets");
    if (!cJSON_IsString(dt))
        return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' dtype is not a string", nm);
    int di = pe__st_dtype_index(dt->valuestring);
    if (di < 0)
        return pe__fail(PE_ERR_DTYPE, "safetensors: tensor '%.80s' has unknown dtype '%.20s'",
                        nm, dt->valuestring);
    memset(t, 0, sizeof *t);
    snprintf(t->st_dtype, sizeof t->st_dtype, "%s", pe__st_dtypes[di].name);
    t->dtype_known = pe__st_dtypes[di].known;
    t->dtype = pe__st_dtypes[di].dtype;
    if (!cJSON_IsArray(sh))
        return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' shape is not a list", nm);
    size_t count = pe__st_dtypes[di].size; /* bytes, dimension by dimension */
    for (const cJSON *c = sh->child; c != NULL; c = c->next) {
        if (t->ndim == PE_ST_MAX_DIMS)
            return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' has more than %d dims",
                            nm, PE_ST_MAX_DIMS);
        int64_t v;
        if (!exact_uint(c, &v))
            return pe__fail(PE_ERR_FORMAT,
                            "safetensors: tensor '%.80s' shape[%d] is not an integer in [0, 2^53]",
                            nm, t->ndim);
        t->shape[t->ndim++] = v;
        if (!pe__size_mul(count, (size_t)v, &count))
            return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' shape overflows size_t",
                            nm);
    }
    t->nbytes = count;
    int64_t b = 0, e_ = 0;
    if (!cJSON_IsArray(off) || cJSON_GetArraySize(off) != 2 || !exact_uint(off->child, &b) ||
        !exact_uint(off->child->next, &e_))
        return pe__fail(PE_ERR_FORMAT,
                        "safetensors: tensor '%.80s' data_offsets is not [begin, end] integers", nm);
    if (e_ < b)
        return pe__fail(PE_ERR_FORMAT, "safetensors: tensor '%.80s' data_offsets [%lld, %lld] end before begin",
                        nm, (long long)b, (long long)e_);
    if ((uint64_t)(e_ - b) != (uint64_t)t->nbytes)
        return pe__fail(PE_ERR_FORMAT,
                        "safetensors: tensor '%.80s' shape needs %zu bytes but data_offsets "
                        "[%lld, %lld] span %lld",
                        nm, t->nbytes, (long long)b, (long long)e_, (long long)(e_ - b));
    en->begin = (size_t)b;
    t->name = dup_str(nm);
    if (t->name == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for a tensor name");
    return PE_OK;
}

static int parse_metadata(const cJSON *m, pe_safetensors *st) {
    if (!cJSON_IsObject(m))
        return pe__fail(PE_ERR_FORMAT, "safetensors: __metadata__ is not an object");
    int n = cJSON_GetArraySize(m);
    st->meta = calloc((size_t)n * 2 + 1, sizeof(char *)); /* n < INT_MAX */
    if (st->meta == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for metadata");
    for (const cJSON *c = m->child; c != NULL; c = c->next) {
        if (!cJSON_IsString(c))
            return pe__fail(PE_ERR_FORMAT, "safetensors: __metadata__ value of '%.80s' is not a string",
                            c->string);
        for (int64_t i = 0; i < st->n_meta; i++)
            if (strcmp(st->meta[2 * i], c->string) == 0)
                return pe__fail(PE_ERR_FORMAT, "safetensors: __metadata__ repeats key '%.80s'",
                                c->string);
        char *k = dup_str(c->string), *v = dup_str(c->valuestring);
        st->meta[2 * st->n_meta] = k;
        st->meta[2 * st->n_meta + 1] = v;
        st->n_meta++;
        if (k == NULL || v == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for metadata");
    }
    return PE_OK;
}

/* What cJSON lets through but the reference reader (serde_json into
 * usize shapes and offsets, String names) does not, found in the raw text:
 * a number that is not a plain unsigned integer literal (2.0, 1e3, -0, a
 * leading zero: every number in a header is a dimension or an offset), and
 * a \u0000 escape, which cJSON would decode into a NUL that cuts a name
 * or a value short (convert-qk then wrote the tensor under another name). */
static int check_raw_tokens(const char *json, size_t n) {
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        const char c = json[i];
        if (in_string) {
            if (c == '"') {
                in_string = false;
            } else if (c == '\\' && i + 1 < n) {
                if (json[i + 1] == 'u' && n - i >= 6 && memcmp(json + i + 2, "0000", 4) == 0)
                    return pe__fail(PE_ERR_FORMAT,
                                    "safetensors: \\u0000 at byte %zu: a name or value holding a NUL "
                                    "cannot be kept whole",
                                    i);
                i++; /* the escaped character */
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t k = i;
            bool plain = true;
            while (k < n && strchr("0123456789.eE+-", json[k]) != NULL && json[k] != '\0') {
                if (json[k] < '0' || json[k] > '9') plain = false;
                k++;
            }
            if (!plain || (json[i] == '0' && k - i > 1))
                return pe__fail(PE_ERR_FORMAT,
                                "safetensors: number '%.*s' at byte %zu is not an unsigned integer "
                                "(shapes and offsets are written as plain integers)",
                                (int)(k - i > 40 ? 40 : k - i), json + i, i);
            i = k - 1;
        }
    }
    return PE_OK;
}

/* Everything the header says, checked against a data section of data_len
 * bytes; tensor data pointers stay offsets until the data is in memory. */
static int parse_header(const char *json, size_t n, size_t data_len, pe_safetensors *st) {
    if (n == 0 || json[0] != '{')
        return pe__fail(PE_ERR_FORMAT, "safetensors: header does not start with '{'");
    if (!pe__utf8_valid(json, n))
        return pe__fail(PE_ERR_FORMAT, "safetensors: header is not valid UTF-8");
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, n, &end, 0);
    /* On failure cJSON points `end` at the error (cJSON_GetErrorPtr would read
     * a process-wide global that other threads' parses overwrite). */
    if (root == NULL)
        return pe__fail(PE_ERR_FORMAT, "safetensors: header is not valid JSON (near byte %lld)",
                        (long long)(end && end >= json && end <= json + n ? end - json : -1));
    int status = PE_OK;
    /* Writers pad the header with spaces; the reference reader's JSON
     * parser allows JSON whitespace after the object and nothing else (a
     * NUL included). */
    for (const char *p = end; status == PE_OK && p < json + n; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            status = pe__fail(PE_ERR_FORMAT, "safetensors: bytes after the header's JSON object");
    if (status == PE_OK && !cJSON_IsObject(root))
        status = pe__fail(PE_ERR_FORMAT, "safetensors: header is not a JSON object");
    int n_entries = status == PE_OK ? cJSON_GetArraySize(root) : 0;
    if (status == PE_OK) {
        st->tensors = calloc((size_t)n_entries + 1, sizeof *st->tensors);
        if (st->tensors == NULL) status = pe__fail(PE_ERR_NOMEM, "no memory for %d tensors", n_entries);
    }
    bool have_meta = false;
    for (const cJSON *e = status == PE_OK ? root->child : NULL; e != NULL && status == PE_OK;
         e = e->next) {
        if (strcmp(e->string, ST_META_KEY) == 0) {
            status = have_meta ? pe__fail(PE_ERR_FORMAT, "safetensors: two __metadata__ entries")
                               : parse_metadata(e, st);
            have_meta = true;
        } else {
            status = parse_entry(e, &st->tensors[st->count]);
            if (st->tensors[st->count].t.name != NULL) st->count++;
        }
    }
    cJSON_Delete(root);
    PE_TRY(status);
    /* after the entries, whose messages name the tensor for -2 or 2.5 */
    PE_TRY(check_raw_tokens(json, n));

    /* Unique names (sorted once, also the index find() searches). */
    const st_entry **ptrs;
    PE_TRY(pe__alloc("safetensors name index", st->count, 1, sizeof *ptrs, &ptrs));
    status = pe__alloc("safetensors name index", st->count, 1, sizeof *st->by_name, &st->by_name);
    if (status != PE_OK) {
        free(ptrs);
        return status;
    }
    /* Tile check: sorted by offset, each tensor starts where the last ended. */
    qsort(st->tensors, (size_t)st->count, sizeof *st->tensors, by_offset);
    size_t at = 0;
    for (int64_t i = 0; i < st->count && status == PE_OK; i++) {
        const pe_st_tensor *t = &st->tensors[i].t;
        size_t b = st->tensors[i].begin;
        if (b > data_len || t->nbytes > data_len - b)
            status = pe__fail(PE_ERR_FORMAT,
                              "safetensors: tensor '%.80s' data_offsets [%zu, %zu] run past the "
                              "%zu-byte data section",
                              t->name, b, b + t->nbytes, data_len);
        else if (b != at)
            status = pe__fail(PE_ERR_FORMAT,
                              "safetensors: tensor '%.80s' begins at %zu, but the previous "
                              "tensor ends at %zu (%s)",
                              t->name, b, at, b < at ? "overlap" : "gap");
        at = b + t->nbytes;
        ptrs[i] = &st->tensors[i];
    }
    if (status == PE_OK && at != data_len)
        status = pe__fail(PE_ERR_FORMAT,
                          "safetensors: tensors cover %zu bytes of a %zu-byte data section", at,
                          data_len);
    if (status == PE_OK) {
        qsort(ptrs, (size_t)st->count, sizeof *ptrs, by_name_ptr);
        for (int64_t i = 0; i < st->count; i++) {
            if (i > 0 && strcmp(ptrs[i - 1]->t.name, ptrs[i]->t.name) == 0) {
                status = pe__fail(PE_ERR_FORMAT, "safetensors: tensor name '%.80s' appears twice",
                                  ptrs[i]->t.name);
                break;
            }
            st->by_name[i] = ptrs[i] - st->tensors;
        }
    }
    free(ptrs);
    return status;
}

/* Point every tensor at its bytes once the data section is in memory. */
static void attach_data(pe_safetensors *st) {
    for (int64_t i = 0; i < st->count; i++)
        st->tensors[i].t.data = st->data + st->tensors[i].begin;
}

static uint64_t le64(const unsigned char *b) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

static int check_header_len(uint64_t n, size_t available) {
    if (n > ST_MAX_HEADER)
        return pe__fail(PE_ERR_FORMAT, "safetensors: header length %llu exceeds the %u-byte limit",
                        (unsigned long long)n, ST_MAX_HEADER);
    if (n > available)
        return pe__fail(PE_ERR_FORMAT,
                        "safetensors: header length %llu runs past the end (%zu bytes follow)",
                        (unsigned long long)n, available);
    return PE_OK;
}

int pe_safetensors_parse(const void *buf, size_t len, pe_safetensors **out) {
    PE_CHECK_NULL(out);
    if (len > 0) PE_CHECK_NULL(buf);
    const unsigned char *b = buf;
    if (len < 8)
        return pe__fail(PE_ERR_FORMAT, "safetensors: %zu bytes, too short for the 8-byte header length",
                        len);
    uint64_t n = le64(b);
    PE_TRY(check_header_len(n, len - 8));
    pe_safetensors *st = calloc(1, sizeof *st);
    if (st == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for a safetensors file");
    st->data_len = len - 8 - (size_t)n;
    int status = parse_header((const char *)b + 8, (size_t)n, st->data_len, st);
    if (status == PE_OK) {
        st->data = malloc(st->data_len ? st->data_len : 1);
        if (st->data == NULL)
            status = pe__fail(PE_ERR_NOMEM, "no memory for %zu data bytes", st->data_len);
        else
            memcpy(st->data, b + 8 + n, st->data_len);
    }
    if (status != PE_OK) {
        pe_safetensors_free(st);
        return status;
    }
    attach_data(st);
    *out = st;
    return PE_OK;
}

/* Read the file in three steps (length, header, data) so that the data is
 * allocated only once the header has been checked against the file size. */
static int read_file(FILE *f, pe_safetensors **out) {
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode))
        return pe__fail(PE_ERR_IO, "not a regular file");
    size_t size = (size_t)sb.st_size;
    unsigned char pre[8];
    if (size < 8 || fread(pre, 1, 8, f) != 8)
        return pe__fail(PE_ERR_FORMAT, "safetensors: %zu bytes, too short for the 8-byte header length",
                        size);
    uint64_t n = le64(pre);
    PE_TRY(check_header_len(n, size - 8));
    char *header = malloc((size_t)n + 1); /* n <= ST_MAX_HEADER */
    pe_safetensors *st = calloc(1, sizeof *st);
    int status = PE_OK;
    if (header == NULL || st == NULL)
        status = pe__fail(PE_ERR_NOMEM, "no memory for a %llu-byte header", (unsigned long long)n);
    else if (fread(header, 1, (size_t)n, f) != (size_t)n)
        status = pe__fail(PE_ERR_IO, "file shrank while reading the header");
    if (status == PE_OK) {
        st->data_len = size - 8 - (size_t)n;
        status = parse_header(header, (size_t)n, st->data_len, st);
    }
    free(header);
    if (status == PE_OK) {
        st->data = malloc(st->data_len ? st->data_len : 1);
        if (st->data == NULL)
            status = pe__fail(PE_ERR_NOMEM, "no memory for %zu data bytes", st->data_len);
        else if (fread(st->data, 1, st->data_len, f) != st->data_len)
            status = pe__fail(PE_ERR_IO, "file shrank while reading the data");
    }
    if (status != PE_OK) {
        pe_safetensors_free(st);
        return status;
    }
    attach_data(st);
    *out = st;
    return PE_OK;
}

int pe_safetensors_read(const char *path, pe_safetensors **out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    FILE *f = NULL;
    int64_t size = -1;
    PE_TRY(pe__input_open(path, PE__INPUT_REGULAR, &f, &size));
    int status = read_file(f, out);
    fclose(f);
    if (status != PE_OK) {
        char detail[400];
        snprintf(detail, sizeof detail, "%s", pe_last_error());
        return pe__fail(status, "%s: %s", path, detail);
    }
    return PE_OK;
}

int64_t pe_safetensors_count(const pe_safetensors *st) { return st ? st->count : 0; }

int pe_safetensors_get(const pe_safetensors *st, int64_t index, pe_st_tensor *out) {
    PE_CHECK_NULL(st);
    PE_CHECK_NULL(out);
    if (index < 0 || index >= st->count)
        return pe__fail(PE_ERR_RANGE, "index=%lld outside [0, count=%lld)", (long long)index,
                        (long long)st->count);
    *out = st->tensors[index].t;
    return PE_OK;
}

int pe_safetensors_find(const pe_safetensors *st, const char *name, pe_st_tensor *out) {
    PE_CHECK_NULL(st);
    PE_CHECK_NULL(name);
    PE_CHECK_NULL(out);
    int64_t lo = 0, hi = st->count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = strcmp(st->tensors[st->by_name[mid]].t.name, name);
        if (c == 0) {
            *out = st->tensors[st->by_name[mid]].t;
            return PE_OK;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return pe__fail(PE_ERR_PARAM, "name='%.200s' is not a tensor of the file", name);
}

int64_t pe_safetensors_metadata_count(const pe_safetensors *st) { return st ? st->n_meta : 0; }

int pe_safetensors_metadata_at(const pe_safetensors *st, int64_t index, const char **key,
                               const char **value) {
    PE_CHECK_NULL(st);
    PE_CHECK_NULL(key);
    PE_CHECK_NULL(value);
    if (index < 0 || index >= st->n_meta)
        return pe__fail(PE_ERR_RANGE, "index=%lld outside [0, metadata count=%lld)",
                        (long long)index, (long long)st->n_meta);
    *key = st->meta[2 * index];
    *value = st->meta[2 * index + 1];
    return PE_OK;
}

const char *pe_safetensors_metadata_get(const pe_safetensors *st, const char *key) {
    if (st == NULL || key == NULL) return NULL;
    for (int64_t i = 0; i < st->n_meta; i++)
        if (strcmp(st->meta[2 * i], key) == 0) return st->meta[2 * i + 1];
    return NULL;
}

