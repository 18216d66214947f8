/* gguf_build.c — the tests' GGUF writer (gguf_build.h). */
#include "gguf_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *p;
    size_t n, cap;
} bytes;

typedef struct {
    char *name;
    uint32_t n_dims;
    uint64_t dims[4];
    uint32_t type;
    unsigned char *data;
    size_t nbytes;
    int offset_set;
    uint64_t offset;
} tensor;

struct gguf_build {
    uint32_t version;
    uint32_t alignment;
    bytes kv;
    uint64_t n_kv;
    tensor *t;
    size_t n_t;
    int counts_set;
    uint64_t count_tensors, count_kv;
};

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fprintf(stderr, "gguf_build: out of memory\n");
        abort();
    }
    return q;
}

static void put(bytes *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = xrealloc(b->p, b->cap);
    }
    if (n) memcpy(b->p + b->n, src, n);
    b->n += n;
}

/* Little-endian, whatever the host. */
static void put_le(bytes *b, uint64_t v, size_t n) {
    unsigned char tmp[8];
    for (size_t i = 0; i < n; i++) tmp[i] = (unsigned char)(v >> (8 * i));
    put(b, tmp, n);
}

static void put_str(bytes *b, const char *s, size_t n) {
    put_le(b, n, 8);
    put(b, s, n);
}

gguf_build *gb_new(uint32_t version) {
    gguf_build *b = xrealloc(NULL, sizeof *b);
    memset(b, 0, sizeof *b);
    b->version = version;
    b->alignment = 32;
    return b;
}

void gb_free(gguf_build *b) {
    if (b == NULL) return;
    for (size_t i = 0; i < b->n_t; i++) {
        free(b->t[i].name);
        free(b->t[i].data);
    }
    free(b->t);
    free(b->kv.p);
    free(b);
}

static void key(gguf_build *b, const char *k, uint32_t type) {
    put_str(&b->kv, k, strlen(k));
    put_le(&b->kv, type, 4);
    b->n_kv++;
}

static uint64_t f32_bits(float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

static uint64_t f64_bits(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

void gb_u8(gguf_build *b, const char *k, uint8_t v) { key(b, k, GB_U8); put_le(&b->kv, v, 1); }
void gb_i8(gguf_build *b, const char *k, int8_t v) { key(b, k, GB_I8); put_le(&b->kv, (uint8_t)v, 1); }
void gb_u16(gguf_build *b, const char *k, uint16_t v) { key(b, k, GB_U16); put_le(&b->kv, v, 2); }
void gb_i16(gguf_build *b, const char *k, int16_t v) { key(b, k, GB_I16); put_le(&b->kv, (uint16_t)v, 2); }
void gb_u32(gguf_build *b, const char *k, uint32_t v) { key(b, k, GB_U32); put_le(&b->kv, v, 4); }
void gb_i32(gguf_build *b, const char *k, int32_t v) { key(b, k, GB_I32); put_le(&b->kv, (uint32_t)v, 4); }
void gb_u64(gguf_build *b, const char *k, uint64_t v) { key(b, k, GB_U64); put_le(&b->kv, v, 8); }
void gb_i64(gguf_build *b, const char *k, int64_t v) { key(b, k, GB_I64); put_le(&b->kv, (uint64_t)v, 8); }
void gb_f32(gguf_build *b, const char *k, float v) { key(b, k, GB_F32); put_le(&b->kv, f32_bits(v), 4); }
void gb_f64(gguf_build *b, const char *k, double v) { key(b, k, GB_F64); put_le(&b->kv, f64_bits(v), 8); }
void gb_bool(gguf_build *b, const char *k, int v) { key(b, k, GB_BOOL); put_le(&b->kv, v ? 1 : 0, 1); }

void gb_str(gguf_build *b, const char *k, const char *v) {
    key(b, k, GB_STRING);
    put_str(&b->kv, v, strlen(v));
}

/* One element of a fixed-size type from its host representation. */
static size_t put_elem(bytes *out, uint32_t type, const unsigned char *src) {
    switch (type) {
    case GB_U8: case GB_I8: case GB_BOOL: put(out, src, 1); return 1;
    case GB_U16: case GB_I16: { uint16_t v; memcpy(&v, src, 2); put_le(out, v, 2); return 2; }
    case GB_U32: case GB_I32: { uint32_t v; memcpy(&v, src, 4); put_le(out, v, 4); return 4; }
    case GB_F32: { float v; memcpy(&v, src, 4); put_le(out, f32_bits(v), 4); return 4; }
    case GB_U64: case GB_I64: { uint64_t v; memcpy(&v, src, 8); put_le(out, v, 8); return 8; }
    case GB_F64: { double v; memcpy(&v, src, 8); put_le(out, f64_bits(v), 8); return 8; }
    }
    fprintf(stderr, "gguf_build: type %u has no fixed size\n", type);
    abort();
}

void gb_array(gguf_build *b, const char *k, uint32_t elem_type, size_t n, const void *elems) {
    key(b, k, GB_ARRAY);
    put_le(&b->kv, elem_type, 4);
    put_le(&b->kv, n, 8);
    const unsigned char *p = elems;
    for (size_t i = 0; i < n; i++) p += put_elem(&b->kv, elem_type, p);
}

void gb_str_array(gguf_build *b, const char *k, size_t n, const char *const *strs) {
    key(b, k, GB_ARRAY);
    put_le(&b->kv, GB_STRING, 4);
    put_le(&b->kv, n, 8);
    for (size_t i = 0; i < n; i++) put_str(&b->kv, strs[i], strlen(strs[i]));
}

void gb_raw_kv(gguf_build *b, const void *k, size_t key_len, uint32_t type, const void *value,
               size_t value_len) {
    put_le(&b->kv, key_len, 8);
    put(&b->kv, k, key_len);
    put_le(&b->kv, type, 4);
    put(&b->kv, value, value_len);
    b->n_kv++;
}

void gb_tensor(gguf_build *b, const char *name, uint32_t n_dims, const uint64_t *dims,
               uint32_t ggml_type, const void *data, size_t nbytes) {
    b->t = xrealloc(b->t, sizeof *b->t * (b->n_t + 1));
    tensor *t = &b->t[b->n_t++];
    memset(t, 0, sizeof *t);
    t->name = xrealloc(NULL, strlen(name) + 1);
    memcpy(t->name, name, strlen(name) + 1);
    t->n_dims = n_dims;
    for (uint32_t d = 0; d < n_dims && d < 4; d++) t->dims[d] = dims[d];
    t->type = ggml_type;
    t->data = xrealloc(NULL, nbytes);
    if (nbytes) memcpy(t->data, data, nbytes);
    t->nbytes = nbytes;
}

void gb_tensor_f32(gguf_build *b, const char *name, size_t n, const float *values) {
    bytes le = {0};
    for (size_t i = 0; i < n; i++) put_le(&le, f32_bits(values[i]), 4);
    const uint64_t dims[1] = {n};
    gb_tensor(b, name, 1, dims, GB_GGML_F32, le.p, le.n);
    free(le.p);
}

void gb_tensor_offset(gguf_build *b, size_t i, uint64_t offset) {
    b->t[i].offset_set = 1;
    b->t[i].offset = offset;
}

void gb_counts(gguf_build *b, uint64_t n_tensors, uint64_t n_kv) {
    b->counts_set = 1;
    b->count_tensors = n_tensors;
    b->count_kv = n_kv;
}

void gb_alignment(gguf_build *b, uint32_t alignment, int write_key) {
    b->alignment = alignment;
    if (write_key) gb_u32(b, "general.alignment", alignment);
}

static size_t pad_to(size_t n, size_t a) { return (a - n % a) % a; }

unsigned char *gb_finish(const gguf_build *b, size_t *len) {
    bytes out = {0};
    put(&out, "GGUF", 4);
    put_le(&out, b->version, 4);
    put_le(&out, b->counts_set ? b->count_tensors : b->n_t, 8);
    put_le(&out, b->counts_set ? b->count_kv : b->n_kv, 8);
    put(&out, b->kv.p, b->kv.n);
    /* tensor infos: offsets in order, each tensor padded to the alignment */
    uint64_t at = 0;
    for (size_t i = 0; i < b->n_t; i++) {
        const tensor *t = &b->t[i];
        put_str(&out, t->name, strlen(t->name));
        put_le(&out, t->n_dims, 4);
        for (uint32_t d = 0; d < t->n_dims; d++) put_le(&out, d < 4 ? t->dims[d] : 1, 8);
        put_le(&out, t->type, 4);
        put_le(&out, t->offset_set ? t->offset : at, 8);
        at += t->nbytes + pad_to(t->nbytes, b->alignment);
    }
    if (b->n_t > 0) {
        static const unsigned char zero[256];
        size_t p = pad_to(out.n, b->alignment);
        while (p > 0) {
            size_t k = p < sizeof zero ? p : sizeof zero;
            put(&out, zero, k);
            p -= k;
        }
        for (size_t i = 0; i < b->n_t; i++) {
            put(&out, b->t[i].data, b->t[i].nbytes);
            size_t q = pad_to(b->t[i].nbytes, b->alignment);
            while (q > 0) {
                size_t k = q < sizeof zero ? q : sizeof zero;
                put(&out, zero, k);
                q -= k;
            }
        }
    }
    *len = out.n;
    return out.p ? out.p : xrealloc(NULL, 1);
}

int gb_write(const gguf_build *b, const char *path) {
    size_t n;
    unsigned char *p = gb_finish(b, &n);
    FILE *f = fopen(path, "wb");
    int bad = f == NULL || fwrite(p, 1, n, f) != n;
    if (f != NULL && fclose(f) != 0) bad = 1;
    free(p);
    return bad ? -1 : 0;
}
