/*
 * gguf.c — reads what a llama.cpp GGUF file says about positions (gguf.h):
 * the header, every key/value pair, the tensor infos (checked the way
 * llama.cpp's loader checks them) and the data of the small rope tensors,
 * reached by a seek. The weights are never read.
 *
 * One code path serves a file and a buffer in memory: a `source` hands out
 * bytes from either, and refuses any read that would run past the end with
 * an error naming what was being read and at which byte. Every count read
 * from the file is checked against the bytes left before it sizes an
 * allocation or a loop.
 */
#include "gguf.h"
#include "input_file.h"
#include "utf8.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GGUF_DEFAULT_ALIGNMENT 32u
#define GGUF_MAX_DIMS 4u
/* Smallest encodings, to refuse counts the remaining bytes cannot hold:
 * a pair is key length (8) + at least one key byte + type (4) + at least
 * one value byte; a tensor info is name length (8) + one name byte +
 * n_dims (4) + type (4) + offset (8). */
#define GGUF_MIN_KV_BYTES 14u
#define GGUF_MIN_TENSOR_BYTES 25u

struct pe__gguf_kv {
    char *key;
    pe__gguf_value v;
    char *str;    /* owned string value */
    double *num;  /* owned array values */
};

/* ------------------------------------------------------------ the source */

typedef struct {
    const unsigned char *buf; /* memory source, or NULL */
    FILE *f;                  /* file source */
    uint64_t pos, size;
    char what[192];           /* what is being read, for error details */
} source;

static int truncated(const source *s, uint64_t need) {
    return pe__fail(PE_ERR_FORMAT,
                    "gguf: truncated: %s at byte %llu needs %llu bytes, %llu remain", s->what,
                    (unsigned long long)s->pos, (unsigned long long)need,
                    (unsigned long long)(s->size - s->pos));
}

static uint64_t left(const source *s) { return s->size - s->pos; }

static int take(source *s, void *dst, size_t n) {
    if (n > left(s)) return truncated(s, n);
    if (s->buf != NULL) {
        if (n > 0) memcpy(dst, s->buf + s->pos, n);
    } else if (n > 0 && fread(dst, 1, n, s->f) != n) {
        return pe__fail(PE_ERR_IO, "gguf: reading %s at byte %llu failed (the file shrank?)",
                        s->what, (unsigned long long)s->pos);
    }
    s->pos += n;
    return PE_OK;
}

/* Skip n bytes; for bool arrays (check_bool) every byte must be 0 or 1. */
static int skip(source *s, uint64_t n, bool check_bool) {
    if (n > left(s)) return truncated(s, n);
    if (s->buf != NULL && !check_bool) {
        s->pos += n;
        return PE_OK;
    }
    unsigned char chunk[4096];
    while (n > 0) {
        size_t k = n < sizeof chunk ? (size_t)n : sizeof chunk;
        uint64_t at = s->pos;
        PE_TRY(take(s, chunk, k));
        for (size_t j = 0; check_bool && j < k; j++)
            if (chunk[j] > 1)
                return pe__fail(PE_ERR_FORMAT, "gguf: %s: bool at byte %llu is %u, not 0 or 1",
                                s->what, (unsigned long long)(at + j), chunk[j]);
        n -= k;
    }
    return PE_OK;
}

static uint64_t le(const unsigned char *b, size_t n) {
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;) v = v << 8 | b[i];
    return v;
}

static int rd_u32(source *s, uint32_t *out) {
    unsigned char b[4];
    PE_TRY(take(s, b, 4));
    *out = (uint32_t)le(b, 4);
    return PE_OK;
}

static int rd_u64(source *s, uint64_t *out) {
    unsigned char b[8];
    PE_TRY(take(s, b, 8));
    *out = le(b, 8);
    return PE_OK;
}

/* -------------------------------------------------------------- helpers */

static const char *const type_names[] = {"u8",   "i8",     "u16",   "i16", "u32",
                                         "i32",  "f32",    "bool",  "string",
                                         "array", "u64",   "i64",   "f64"};

const char *pe__gguf_type_name(pe__gguf_type t) {
    return (unsigned)t < sizeof type_names / sizeof type_names[0] ? type_names[t] : "?";
}

/* Bytes of one element of a fixed-size type, 0 for string/array. */
static size_t type_size(uint32_t t) {
    switch (t) {
    case PE_GGUF_U8: case PE_GGUF_I8: case PE_GGUF_BOOL: return 1;
    case PE_GGUF_U16: case PE_GGUF_I16: return 2;
    case PE_GGUF_U32: case PE_GGUF_I32: case PE_GGUF_F32: return 4;
    case PE_GGUF_U64: case PE_GGUF_I64: case PE_GGUF_F64: return 8;
    default: return 0;
    }
}

static bool is_int_type(uint32_t t) {
    return t <= PE_GGUF_I32 || t == PE_GGUF_U64 || t == PE_GGUF_I64;
}

/* A scalar of fixed-size type t from its little-endian bytes b into v. */
static void decode_scalar(uint32_t t, const unsigned char *b, pe__gguf_value *v) {
    const uint64_t raw = le(b, type_size(t));
    v->is_integer = is_int_type(t);
    switch (t) {
    case PE_GGUF_I8: v->i = (int8_t)(uint8_t)raw; break;
    case PE_GGUF_I16: v->i = (int16_t)(uint16_t)raw; break;
    case PE_GGUF_I32: v->i = (int32_t)(uint32_t)raw; break;
    case PE_GGUF_I64: v->i = (int64_t)raw; break;
    case PE_GGUF_F32: {
        uint32_t w = (uint32_t)raw;
        float x;
        memcpy(&x, &w, 4);
        v->f = x;
        return;
    }
    case PE_GGUF_F64: memcpy(&v->f, &raw, 8); return;
    default: /* unsigned and bool */
        v->u = raw;
        v->i = raw <= INT64_MAX ? (int64_t)raw : INT64_MAX;
        v->f = (double)raw;
        return;
    }
    v->negative = v->i < 0;
    v->u = v->negative ? 0 : (uint64_t)v->i;
    v->f = (double)v->i;
}

/* Well-formed UTF-8 (utf8.h) without NUL bytes, so the text is a C string. */
static bool valid_utf8(const unsigned char *p, size_t n) {
    return memchr(p, 0, n) == NULL && pe__utf8_valid((const char *)p, n);
}

static double half_to_double(uint16_t h) {
    const int e = (h >> 10) & 0x1f;
    const double m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m == 0 ? INFINITY : NAN) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* ------------------------------------------------------------- key/values */

typedef struct {
    pe__gguf_rope *g;
    uint64_t stored; /* bytes of scalar strings kept so far */
} parse_state;

/* A string's length field, checked against the cap and the bytes left. */
static int rd_len(source *s, uint64_t cap, const char *thing, uint64_t *len) {
    const uint64_t at = s->pos;
    PE_TRY(rd_u64(s, len));
    if (*len > cap)
        return pe__fail(PE_ERR_FORMAT, "gguf: %s: %s length %llu at byte %llu exceeds the cap of %llu",
                        s->what, thing, (unsigned long long)*len, (unsigned long long)at,
                        (unsigned long long)cap);
    if (*len > left(s)) return truncated(s, *len);
    return PE_OK;
}

static int read_value(parse_state *ps, source *s, struct pe__gguf_kv *kv, uint32_t type) {
    pe__gguf_value *v = &kv->v;
    v->type = (pe__gguf_type)type;
    if (type == PE_GGUF_STRING) {
        uint64_t n;
        PE_TRY(rd_len(s, PE_GGUF_MAX_STRING, "string", &n));
        if (n > PE_GGUF_MAX_STORED - ps->stored)
            return pe__fail(PE_ERR_FORMAT,
                            "gguf: %s: string values exceed the cap of %u bytes in total", s->what,
                            PE_GGUF_MAX_STORED);
        ps->stored += n;
        kv->str = malloc((size_t)n + 1);
        if (kv->str == NULL) return pe__fail(PE_ERR_NOMEM, "gguf: no memory for a %llu-byte string",
                                             (unsigned long long)n);
        const uint64_t at = s->pos;
        PE_TRY(take(s, kv->str, (size_t)n));
        kv->str[n] = '\0';
        if (!valid_utf8((const unsigned char *)kv->str, (size_t)n))
            return pe__fail(PE_ERR_FORMAT, "gguf: %s: string at byte %llu is not valid UTF-8 (or holds a NUL)",
                            s->what, (unsigned long long)at);
        v->str = kv->str;
        v->str_len = (size_t)n;
        return PE_OK;
    }
    if (type == PE_GGUF_ARRAY) {
        uint32_t et;
        uint64_t count;
        PE_TRY(rd_u32(s, &et));
        if (et == PE_GGUF_ARRAY)
            return pe__fail(PE_ERR_UNSUPPORTED, "gguf: %s: arrays of arrays are not supported", s->what);
        if (et > PE_GGUF_F64)
            return pe__fail(PE_ERR_FORMAT, "gguf: %s: array element type %u is not a GGUF type (0..12)",
                            s->what, et);
        const uint64_t at = s->pos;
        PE_TRY(rd_u64(s, &count));
        if (count > PE_GGUF_MAX_ARRAY)
            return pe__fail(PE_ERR_FORMAT, "gguf: %s: array count %llu at byte %llu exceeds the cap of %u",
                            s->what, (unsigned long long)count, (unsigned long long)at,
                            PE_GGUF_MAX_ARRAY);
        v->elem_type = (pe__gguf_type)et;
        v->count = count;
        const size_t es = type_size(et);
        /* every element needs at least es bytes (a string its 8-byte length) */
        if (count * (es ? es : 8) > left(s)) return truncated(s, count * (es ? es : 8));
        if (et == PE_GGUF_STRING) {
            for (uint64_t i = 0; i < count; i++) {
                uint64_t n;
                PE_TRY(rd_len(s, PE_GGUF_MAX_STRING, "string", &n));
                PE_TRY(skip(s, n, false));
            }
            return PE_OK;
        }
        if (count > PE_GGUF_KEEP_ARRAY) return skip(s, count * es, et == PE_GGUF_BOOL);
        kv->num = malloc(sizeof(double) * (count ? (size_t)count : 1));
        if (kv->num == NULL) return pe__fail(PE_ERR_NOMEM, "gguf: no memory for an array");
        for (uint64_t i = 0; i < count; i++) {
            unsigned char b[8];
            const uint64_t ea = s->pos;
            PE_TRY(take(s, b, es));
            if (et == PE_GGUF_BOOL && b[0] > 1)
                return pe__fail(PE_ERR_FORMAT, "gguf: %s: bool at byte %llu is %u, not 0 or 1",
                                s->what, (unsigned long long)ea, b[0]);
            pe__gguf_value e = {0};
            decode_scalar(et, b, &e);
            kv->num[i] = e.f;
        }
        v->num = kv->num;
        return PE_OK;
    }
    unsigned char b[8];
    const uint64_t at = s->pos;
    PE_TRY(take(s, b, type_size(type)));
    if (type == PE_GGUF_BOOL && b[0] > 1)
        return pe__fail(PE_ERR_FORMAT, "gguf: %s: bool at byte %llu is %u, not 0 or 1", s->what,
                        (unsigned long long)at, b[0]);
    decode_scalar(type, b, v);
    return PE_OK;
}

static int read_kv(parse_state *ps, source *s, int64_t index) {
    struct pe__gguf_kv *kv = &ps->g->kv[index];
    snprintf(s->what, sizeof s->what, "key %lld", (long long)index);
    const uint64_t at = s->pos;
    uint64_t n;
    PE_TRY(rd_len(s, PE_GGUF_MAX_KEY, "key", &n));
    if (n == 0)
        return pe__fail(PE_ERR_FORMAT, "gguf: key %lld at byte %llu is empty", (long long)index,
                        (unsigned long long)at);
    kv->key = malloc((size_t)n + 1);
    if (kv->key == NULL) return pe__fail(PE_ERR_NOMEM, "gguf: no memory for a key");
    PE_TRY(take(s, kv->key, (size_t)n));
    kv->key[n] = '\0';
    if (!valid_utf8((const unsigned char *)kv->key, (size_t)n))
        return pe__fail(PE_ERR_FORMAT, "gguf: key %lld at byte %llu is not valid UTF-8 (or holds a NUL)",
                        (long long)index, (unsigned long long)at);
    snprintf(s->what, sizeof s->what, "key '%.120s'", kv->key);
    uint32_t type;
    const uint64_t tat = s->pos;
    PE_TRY(rd_u32(s, &type));
    if (type > PE_GGUF_F64)
        return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' has value type %u at byte %llu (GGUF types are 0..12)",
                        kv->key, type, (unsigned long long)tat);
    return read_value(ps, s, kv, type);
}

/* A key and its index, sorted by key (qsort has no context argument). */
typedef struct {
    const char *key;
    int64_t index;
} key_ref;

static int by_key(const void *a, const void *b) {
    return strcmp(((const key_ref *)a)->key, ((const key_ref *)b)->key);
}

/* The sorted index pe__gguf_find searches; duplicate keys are refused. */
static int index_keys(pe__gguf_rope *g) {
    const size_t n = (size_t)g->n_kv;
    key_ref *refs = malloc(sizeof *refs * (n + 1));
    g->kv_sorted = malloc(sizeof(int64_t) * (n + 1));
    if (refs == NULL || g->kv_sorted == NULL) {
        free(refs);
        return pe__fail(PE_ERR_NOMEM, "gguf: no memory for the key index");
    }
    for (size_t i = 0; i < n; i++) refs[i] = (key_ref){g->kv[i].key, (int64_t)i};
    qsort(refs, n, sizeof *refs, by_key);
    int status = PE_OK;
    for (size_t i = 0; i < n; i++) {
        g->kv_sorted[i] = refs[i].index;
        if (i > 0 && status == PE_OK && strcmp(refs[i - 1].key, refs[i].key) == 0)
            status = pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' appears twice", refs[i].key);
    }
    free(refs);
    return status;
}

/* -------------------------------------------------------- the known keys */

typedef enum { K_UINT, K_UINT_OR_LAYERS, K_REAL, K_STRING, K_BOOL, K_SWA_PATTERN, K_SECTIONS } key_kind;

typedef struct {
    const char *suffix; /* after "{arch}." */
    key_kind kind;
    size_t offset;      /* of the field in pe__gguf_rope */
} known_key;

#define F(field) offsetof(pe__gguf_rope, field)
static const known_key known_keys[] = {
    {"block_count", K_UINT, F(block_count)},
    {"context_length", K_UINT, F(context_length)},
    {"embedding_length", K_UINT, F(embedding_length)},
    {"attention.head_count", K_UINT_OR_LAYERS, F(head_count)},
    {"attention.head_count_kv", K_UINT_OR_LAYERS, F(head_count_kv)},
    {"attention.key_length", K_UINT, F(key_length)},
    {"attention.value_length", K_UINT, F(value_length)},
    {"attention.sliding_window", K_UINT, F(sliding_window)},
    {"attention.sliding_window_pattern", K_SWA_PATTERN, 0},
    {"rope.dimension_count", K_UINT, F(rope_dimension_count)},
    {"rope.dimension_sections", K_SECTIONS, 0},
    {"no_rope_layer_step", K_UINT, F(no_rope_layer_step)},
    {"interleave_moe_layer_step", K_UINT, F(interleave_moe_layer_step)},
    {"rope.scaling.original_context_length", K_UINT, F(rope_scaling_original_context_length)},
    {"rope.freq_base", K_REAL, F(rope_freq_base)},
    {"rope.freq_base_swa", K_REAL, F(rope_freq_base_swa)},
    {"rope.scale_linear", K_REAL, F(rope_scale_linear)},
    {"rope.scaling.factor", K_REAL, F(rope_scaling_factor)},
    {"rope.scaling.attn_factor", K_REAL, F(rope_scaling_attn_factor)},
    {"rope.scaling.yarn_log_multiplier", K_REAL, F(yarn_log_multiplier)},
    {"rope.scaling.yarn_beta_fast", K_REAL, F(yarn_beta_fast)},
    {"rope.scaling.yarn_beta_slow", K_REAL, F(yarn_beta_slow)},
    {"rope.scaling.yarn_ext_factor", K_REAL, F(yarn_ext_factor)},
    {"rope.scaling.yarn_attn_factor", K_REAL, F(yarn_attn_factor)},
    {"rope.scaling.type", K_STRING, F(rope_scaling_type)},
    {"rope.scaling.finetuned", K_BOOL, F(rope_scaling_finetuned)},
};
#undef F

static int wrong_type(const struct pe__gguf_kv *kv, const char *want) {
    const pe__gguf_value *v = &kv->v;
    if (v->type == PE_GGUF_ARRAY)
        return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' is an array of %s, expected %s", kv->key,
                        pe__gguf_type_name(v->elem_type), want);
    return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' has type %s, expected %s", kv->key,
                    pe__gguf_type_name(v->type), want);
}

static int set_uint(const struct pe__gguf_kv *kv, pe__gguf_uint *out) {
    if (kv->v.type == PE_GGUF_ARRAY || !kv->v.is_integer) return wrong_type(kv, "an integer");
    if (kv->v.negative)
        return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' = %lld must be >= 0", kv->key,
                        (long long)kv->v.i);
    /* Lengths, windows and counts are int64 in the plan: a u64 past
     * INT64_MAX would wrap to a negative (a sliding_window of 2^64-1 read
     * as "no window", an original_context_length of 2^63 as 0). */
    if (kv->v.u > (uint64_t)INT64_MAX)
        return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' = %llu exceeds INT64_MAX", kv->key,
                        (unsigned long long)kv->v.u);
    out->present = true;
    out->type = kv->v.type;
    out->value = kv->v.u;
    return PE_OK;
}

static int apply_known(pe__gguf_rope *g, const known_key *k, const struct pe__gguf_kv *kv) {
    const pe__gguf_value *v = &kv->v;
    char *field = (char *)g + k->offset;
    switch (k->kind) {
    case K_UINT_OR_LAYERS:
        /* a per-layer array: the caller reads it with pe__gguf_find */
        if (v->type == PE_GGUF_ARRAY && is_int_type(v->elem_type)) return PE_OK;
        return set_uint(kv, (pe__gguf_uint *)(void *)field);
    case K_UINT: return set_uint(kv, (pe__gguf_uint *)(void *)field);
    case K_REAL: {
        if (v->type != PE_GGUF_F32 && v->type != PE_GGUF_F64) return wrong_type(kv, "f32 or f64");
        /* NaN is no value: an attn_factor of NaN used to read as "derive" */
        if (!isfinite(v->f))
            return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' = %g is not finite", kv->key, v->f);
        pe__gguf_real *r = (pe__gguf_real *)(void *)field;
        r->present = true;
        r->type = v->type;
        r->value = v->f;
        return PE_OK;
    }
    case K_STRING:
        if (v->type != PE_GGUF_STRING) return wrong_type(kv, "a string");
        *(const char **)(void *)field = v->str;
        return PE_OK;
    case K_BOOL: {
        if (v->type != PE_GGUF_BOOL) return wrong_type(kv, "a bool");
        pe__gguf_bool *b = (pe__gguf_bool *)(void *)field;
        b->present = true;
        b->value = v->u != 0;
        return PE_OK;
    }
    case K_SWA_PATTERN:
        if (v->type != PE_GGUF_ARRAY) {
            pe__gguf_uint period = {0};
            PE_TRY(set_uint(kv, &period));
            g->swa_pattern_present = true;
            g->swa_pattern_period = period.value;
            return PE_OK;
        }
        if (v->elem_type != PE_GGUF_BOOL && !is_int_type(v->elem_type))
            return wrong_type(kv, "an integer or an array of bools");
        if (v->num == NULL)
            return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' has %llu layers, more than %u",
                            kv->key, (unsigned long long)v->count, PE_GGUF_KEEP_ARRAY);
        g->swa_layers_owned = malloc(v->count ? (size_t)v->count : 1);
        if (g->swa_layers_owned == NULL) return pe__fail(PE_ERR_NOMEM, "gguf: no memory for a layer pattern");
        for (uint64_t i = 0; i < v->count; i++) {
            if (v->num[i] != 0 && v->num[i] != 1)
                return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s'[%llu] = %.17g must be 0 or 1",
                                kv->key, (unsigned long long)i, v->num[i]);
            g->swa_layers_owned[i] = v->num[i] != 0;
        }
        g->swa_pattern_present = true;
        g->swa_pattern_is_array = true;
        g->swa_pattern_count = (size_t)v->count;
        g->swa_pattern_layers = g->swa_layers_owned;
        return PE_OK;
    case K_SECTIONS: {
        const size_t cap = sizeof g->dimension_sections / sizeof g->dimension_sections[0];
        if (v->type != PE_GGUF_ARRAY || !is_int_type(v->elem_type))
            return wrong_type(kv, "an array of integers");
        if (v->count > cap)
            return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' has %llu sections, more than %zu",
                            kv->key, (unsigned long long)v->count, cap);
        for (uint64_t i = 0; i < v->count; i++) {
            /* a section is a count of rotary pairs: far below 2^20 */
            if (!(v->num[i] >= 0 && v->num[i] <= 1048576))
                return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s'[%llu] = %.17g must be in [0, 1048576]",
                                kv->key, (unsigned long long)i, v->num[i]);
            g->dimension_sections[i] = (int64_t)v->num[i];
        }
        /* llama.cpp reads the key into std::array<int, 4> with n = 4
         * (get_key_or_arr: "wrong array length; expected 4"): t, h, w and
         * the extra section, no more and no fewer. */
        if (v->count != 4)
            return pe__fail(PE_ERR_FORMAT, "gguf: key '%.120s' has %llu sections; llama.cpp reads exactly 4",
                            kv->key, (unsigned long long)v->count);
        g->dimension_sections_count = (size_t)v->count;
        return PE_OK;
    }
    }
    return PE_OK;
}

/* general.* and {arch}.* keys into the typed fields; general.alignment. */
static int read_known(pe__gguf_rope *g) {
    pe__gguf_value v;
    const struct pe__gguf_kv *kv;
    g->alignment = GGUF_DEFAULT_ALIGNMENT;
    for (int64_t i = 0; i < g->n_kv; i++) {
        kv = &g->kv[i];
        if (strcmp(kv->key, "general.alignment") == 0) {
            v = kv->v;
            if (v.type != PE_GGUF_U32) return wrong_type(kv, "u32");
            if (v.u == 0 || (v.u & (v.u - 1)) != 0)
                return pe__fail(PE_ERR_FORMAT, "gguf: general.alignment = %llu is not a power of 2",
                                (unsigned long long)v.u);
            g->alignment = v.u;
        } else if (strcmp(kv->key, "general.architecture") == 0) {
            if (kv->v.type != PE_GGUF_STRING) return wrong_type(kv, "a string");
            g->architecture = kv->v.str;
        } else if (strcmp(kv->key, "general.name") == 0) {
            if (kv->v.type != PE_GGUF_STRING) return wrong_type(kv, "a string");
            g->name = kv->v.str;
        }
    }
    if (g->architecture == NULL) return PE_OK;
    const size_t alen = strlen(g->architecture);
    for (int64_t i = 0; i < g->n_kv; i++) {
        kv = &g->kv[i];
        if (strncmp(kv->key, g->architecture, alen) != 0 || kv->key[alen] != '.') continue;
        const char *suffix = kv->key + alen + 1;
        for (size_t k = 0; k < sizeof known_keys / sizeof known_keys[0]; k++)
            if (strcmp(suffix, known_keys[k].suffix) == 0) {
                PE_TRY(apply_known(g, &known_keys[k], kv));
                break;
            }
    }
    return PE_OK;
}

/* ---------------------------------------------------------- tensor infos */

/* ggml's types: elements per block and bytes per block (0: removed from
 * ggml, refused as llama.cpp refuses it). Types past the table are newer
 * than this reader: accepted, with a size it cannot check. */
static const struct {
    uint16_t block;
    uint16_t bytes;
} ggml_types[] = {
    {1, 4},     {1, 2},     {32, 18},   {32, 20},   {0, 0},     {0, 0},    /* F32 F16 Q4_0 Q4_1 - - */
    {32, 22},   {32, 24},   {32, 34},   {32, 36},                          /* Q5_0 Q5_1 Q8_0 Q8_1 */
    {256, 84},  {256, 110}, {256, 144}, {256, 176}, {256, 210}, {256, 292}, /* Q2_K..Q8_K */
    {256, 66},  {256, 74},  {256, 98},  {256, 50},  {32, 18},   {256, 110}, /* IQ2_XXS IQ2_XS IQ3_XXS IQ1_S IQ4_NL IQ3_S */
    {256, 82},  {256, 136}, {1, 1},     {1, 2},     {1, 4},     {1, 8},    /* IQ2_S IQ4_XS I8 I16 I32 I64 */
    {1, 8},     {256, 56},  {1, 2},     {0, 0},     {0, 0},     {0, 0},    /* F64 IQ1_M BF16 - - - */
    {256, 54},  {256, 66},  {0, 0},     {0, 0},     {0, 0},     {32, 17},  /* TQ1_0 TQ2_0 - - - MXFP4 */
    {64, 36},   {128, 18},                                                 /* NVFP4 Q1_0 */
};
#define N_GGML_TYPES (sizeof ggml_types / sizeof ggml_types[0])
#define GGML_TYPE_F32 0u
#define GGML_TYPE_F16 1u
#define GGML_TYPE_F64 28u
/* ggml type numbers above this are not types but garbage. */
#define GGML_TYPE_LIMIT 1024u

typedef struct {
    char name[PE_GGUF_MAX_TENSOR_NAME + 1];
    uint32_t n_dims;
    int64_t ne[GGUF_MAX_DIMS];
    uint32_t type;
    uint64_t offset;
    bool sized;      /* nbytes known (the type is in the table) */
    uint64_t nbytes;
} tensor_info;

static int read_tensor_info(source *s, int64_t index, tensor_info *t) {
    snprintf(s->what, sizeof s->what, "tensor %lld", (long long)index);
    const uint64_t at = s->pos;
    uint64_t n;
    PE_TRY(rd_len(s, PE_GGUF_MAX_TENSOR_NAME, "name", &n));
    if (n == 0)
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor %lld at byte %llu has an empty name",
                        (long long)index, (unsigned long long)at);
    PE_TRY(take(s, t->name, (size_t)n));
    t->name[n] = '\0';
    if (strlen(t->name) != n)
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor %lld at byte %llu: name holds a NUL byte",
                        (long long)index, (unsigned long long)at);
    snprintf(s->what, sizeof s->what, "tensor '%s'", t->name);
    PE_TRY(rd_u32(s, &t->n_dims));
    if (t->n_dims > GGUF_MAX_DIMS)
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s' has n_dims=%u, more than %u", t->name,
                        t->n_dims, GGUF_MAX_DIMS);
    int64_t count = 1;
    for (uint32_t d = 0; d < GGUF_MAX_DIMS; d++) {
        t->ne[d] = 1;
        if (d >= t->n_dims) continue;
        uint64_t ne;
        PE_TRY(rd_u64(s, &ne));
        if (ne > INT64_MAX)
            return pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s' dimension %u = %llu exceeds INT64_MAX",
                            t->name, d, (unsigned long long)ne);
        t->ne[d] = (int64_t)ne;
        if (t->ne[d] != 0 && count > INT64_MAX / t->ne[d])
            return pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s' has more than INT64_MAX elements",
                            t->name);
        count *= t->ne[d];
    }
    PE_TRY(rd_u32(s, &t->type));
    if (t->type >= GGML_TYPE_LIMIT || (t->type < N_GGML_TYPES && ggml_types[t->type].block == 0))
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s' has ggml type %u, which is not a type",
                        t->name, t->type);
    t->sized = t->type < N_GGML_TYPES;
    if (t->sized) {
        const int64_t block = ggml_types[t->type].block;
        if (t->ne[0] % block != 0)
            return pe__fail(PE_ERR_FORMAT,
                            "gguf: tensor '%s' row of %lld elements is not a multiple of its ggml type %u's block of %lld",
                            t->name, (long long)t->ne[0], t->type, (long long)block);
        /* count / block blocks (block divides ne[0], hence the count) */
        const uint64_t blocks = (uint64_t)count / (uint64_t)block;
        const uint64_t bytes = ggml_types[t->type].bytes;
        if (blocks != 0 && bytes > UINT64_MAX / blocks)
            return pe__fail(PE_ERR_OVERFLOW, "gguf: tensor '%s' byte size overflows 64 bits", t->name);
        t->nbytes = blocks * bytes;
    }
    return rd_u64(s, &t->offset);
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const tensor_info *)a)->name, ((const tensor_info *)b)->name);
}

/* Offsets as llama.cpp requires them: each a multiple of the alignment and
 * each tensor right after the one before it, padded to the alignment; the
 * data inside the file. */
static int check_layout(const pe__gguf_rope *g, const tensor_info *t, int64_t n) {
    uint64_t expected = 0;
    bool known = true;
    for (int64_t i = 0; i < n; i++) {
        if (t[i].offset % g->alignment != 0)
            return pe__fail(PE_ERR_FORMAT,
                            "gguf: tensor '%s' offset %llu is not a multiple of the alignment %llu",
                            t[i].name, (unsigned long long)t[i].offset,
                            (unsigned long long)g->alignment);
        if (known ? t[i].offset != expected : t[i].offset < expected)
            return pe__fail(PE_ERR_FORMAT,
                            "gguf: tensor '%s' has offset %llu, expected %s%llu (tensors follow each other in order)",
                            t[i].name, (unsigned long long)t[i].offset, known ? "" : "at least ",
                            (unsigned long long)expected);
        if (t[i].offset > UINT64_MAX - g->data_offset)
            return pe__fail(PE_ERR_OVERFLOW, "gguf: tensor '%s' offset %llu overflows 64 bits",
                            t[i].name, (unsigned long long)t[i].offset);
        const uint64_t begin = g->data_offset + t[i].offset;
        const uint64_t nbytes = t[i].sized ? t[i].nbytes : 0;
        if (begin > g->file_size || nbytes > g->file_size - begin)
            return pe__fail(PE_ERR_FORMAT,
                            "gguf: tensor '%s' data at byte %llu (+%llu) runs past the end of the file (%llu bytes)",
                            t[i].name, (unsigned long long)begin, (unsigned long long)nbytes,
                            (unsigned long long)g->file_size);
        /* the next tensor starts after this one's bytes, padded; a
         * tensor of unknown size only says where the next cannot start */
        known = known && t[i].sized;
        const uint64_t pad = (g->alignment - nbytes % g->alignment) % g->alignment;
        expected = t[i].offset + nbytes + pad; /* within the file: cannot overflow */
    }
    return PE_OK;
}

/* -------------------------------------------------------- rope tensors */

static const struct {
    const char *name;
    size_t offset;
} rope_tensors[] = {
    {"rope_freqs.weight", offsetof(pe__gguf_rope, rope_freqs)},
    {"rope_factors_long.weight", offsetof(pe__gguf_rope, rope_factors_long)},
    {"rope_factors_short.weight", offsetof(pe__gguf_rope, rope_factors_short)},
};

static int read_rope_tensor(pe__gguf_rope *g, source *s, const tensor_info *t, pe__gguf_tensor *out) {
    if (t->type != GGML_TYPE_F32 && t->type != GGML_TYPE_F16 && t->type != GGML_TYPE_F64)
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s' has ggml type %u; a rope tensor must be F32, F16 or F64",
                        t->name, t->type);
    if (t->n_dims != 1)
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s' has %u dimensions; a rope tensor has 1",
                        t->name, t->n_dims);
    if (t->ne[0] < 1 || t->ne[0] > (int64_t)PE_GGUF_MAX_ROPE_TENSOR)
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s' has %lld elements; a rope tensor has 1..%u",
                        t->name, (long long)t->ne[0], PE_GGUF_MAX_ROPE_TENSOR);
    const size_t n = (size_t)t->ne[0], es = ggml_types[t->type].bytes;
    const uint64_t begin = g->data_offset + t->offset; /* checked by check_layout */
    unsigned char *raw = malloc(n * es);
    out->values = malloc(n * sizeof(double));
    if (raw == NULL || out->values == NULL) {
        free(raw);
        return pe__fail(PE_ERR_NOMEM, "gguf: no memory for tensor '%s'", t->name);
    }
    snprintf(s->what, sizeof s->what, "tensor '%s' data", t->name);
    int status = PE_OK;
    if (s->buf != NULL) {
        memcpy(raw, s->buf + begin, n * es);
    } else if (begin > (uint64_t)INT64_MAX || fseeko(s->f, (off_t)begin, SEEK_SET) != 0 ||
               fread(raw, 1, n * es, s->f) != n * es) {
        status = pe__fail(PE_ERR_IO, "gguf: reading tensor '%s' at byte %llu failed (the file shrank?)",
                          t->name, (unsigned long long)begin);
    }
    for (size_t i = 0; status == PE_OK && i < n; i++) {
        pe__gguf_value e = {0};
        double x;
        if (t->type == GGML_TYPE_F16) {
            x = half_to_double((uint16_t)le(raw + 2 * i, 2));
        } else {
            decode_scalar(t->type == GGML_TYPE_F32 ? PE_GGUF_F32 : PE_GGUF_F64, raw + es * i, &e);
            x = e.f;
        }
        if (!(x > 0) || !isfinite(x))
            status = pe__fail(PE_ERR_FORMAT, "gguf: tensor '%s'[%zu] = %.17g must be finite and > 0",
                              t->name, i, x);
        out->values[i] = x;
    }
    free(raw);
    if (status != PE_OK) return status;
    out->present = true;
    out->ggml_type = (int)t->type;
    out->count = (int64_t)n;
    return PE_OK;
}

/* ---------------------------------------------------------------- parse */

void pe__gguf_rope_free(pe__gguf_rope *g) {
    if (g == NULL) return;
    for (int64_t i = 0; g->kv != NULL && i < g->n_kv; i++) {
        free(g->kv[i].key);
        free(g->kv[i].str);
        free(g->kv[i].num);
    }
    free(g->kv);
    free(g->kv_sorted);
    free(g->swa_layers_owned);
    free(g->rope_freqs.values);
    free(g->rope_factors_long.values);
    free(g->rope_factors_short.values);
    free(g);
}

static int read_header(source *s, pe__gguf_rope *g, uint64_t *n_tensors, uint64_t *n_kv) {
    unsigned char magic[4];
    if (s->size < 4)
        return pe__fail(PE_ERR_FORMAT, "gguf: not a GGUF file (%llu bytes, too short for the magic)",
                        (unsigned long long)s->size);
    snprintf(s->what, sizeof s->what, "the header");
    PE_TRY(take(s, magic, 4));
    if (memcmp(magic, "GGUF", 4) != 0)
        return pe__fail(PE_ERR_FORMAT, "gguf: not a GGUF file (magic %02x %02x %02x %02x)", magic[0],
                        magic[1], magic[2], magic[3]);
    PE_TRY(rd_u32(s, &g->version));
    if (g->version != 0 && (g->version & 0xffffu) == 0)
        return pe__fail(PE_ERR_UNSUPPORTED, "gguf: big-endian file (version field 0x%08x); only little-endian GGUF is read",
                        g->version);
    if (g->version != 2 && g->version != 3)
        return pe__fail(PE_ERR_UNSUPPORTED, "gguf: version %u is not supported (2 and 3 are)",
                        g->version);
    PE_TRY(rd_u64(s, n_tensors));
    PE_TRY(rd_u64(s, n_kv));
    if (*n_kv > PE_GGUF_MAX_KV)
        return pe__fail(PE_ERR_FORMAT, "gguf: kv_count=%llu exceeds the cap of %u",
                        (unsigned long long)*n_kv, PE_GGUF_MAX_KV);
    if (*n_tensors > PE_GGUF_MAX_TENSORS)
        return pe__fail(PE_ERR_FORMAT, "gguf: tensor_count=%llu exceeds the cap of %u",
                        (unsigned long long)*n_tensors, PE_GGUF_MAX_TENSORS);
    /* both below 2^20: the products cannot overflow */
    if (*n_kv * GGUF_MIN_KV_BYTES + *n_tensors * GGUF_MIN_TENSOR_BYTES > left(s))
        return pe__fail(PE_ERR_FORMAT,
                        "gguf: kv_count=%llu and tensor_count=%llu cannot fit in the %llu bytes after the header",
                        (unsigned long long)*n_kv, (unsigned long long)*n_tensors,
                        (unsigned long long)left(s));
    return PE_OK;
}

static int parse(source *s, pe__gguf_rope *g) {
    uint64_t n_tensors = 0, n_kv = 0;
    g->file_size = s->size;
    PE_TRY(read_header(s, g, &n_tensors, &n_kv));
    g->n_tensors = n_tensors;
    g->kv = calloc((size_t)n_kv + 1, sizeof *g->kv);
    if (g->kv == NULL) return pe__fail(PE_ERR_NOMEM, "gguf: no memory for %llu keys", (unsigned long long)n_kv);
    parse_state ps = {g, 0};
    for (uint64_t i = 0; i < n_kv; i++) {
        g->n_kv = (int64_t)i + 1; /* so that free() releases a half-read pair */
        PE_TRY(read_kv(&ps, s, (int64_t)i));
    }
    g->n_kv = (int64_t)n_kv;
    PE_TRY(index_keys(g));
    PE_TRY(read_known(g));

    tensor_info *t = calloc((size_t)n_tensors + 1, sizeof *t);
    if (t == NULL)
        return pe__fail(PE_ERR_NOMEM, "gguf: no memory for %llu tensor infos", (unsigned long long)n_tensors);
    int status = PE_OK;
    for (uint64_t i = 0; status == PE_OK && i < n_tensors; i++)
        status = read_tensor_info(s, (int64_t)i, &t[i]);
    if (status == PE_OK) {
        /* the data section starts at the next multiple of the alignment */
        const uint64_t pad = (g->alignment - s->pos % g->alignment) % g->alignment;
        if (s->pos > UINT64_MAX - pad)
            status = pe__fail(PE_ERR_OVERFLOW, "gguf: data section offset overflows 64 bits");
        g->data_offset = s->pos + pad;
    }
    if (status == PE_OK) status = check_layout(g, t, (int64_t)n_tensors);
    /* rope tensors first, by name, before the sort below reorders infos */
    for (uint64_t i = 0; status == PE_OK && i < n_tensors; i++)
        for (size_t k = 0; k < sizeof rope_tensors / sizeof rope_tensors[0]; k++)
            if (strcmp(t[i].name, rope_tensors[k].name) == 0) {
                pe__gguf_tensor *out = (pe__gguf_tensor *)(void *)((char *)g + rope_tensors[k].offset);
                if (out->present) break; /* a duplicate: reported below */
                status = read_rope_tensor(g, s, &t[i], out);
                if (status != PE_OK) break;
            }
    if (status == PE_OK && n_tensors > 1) {
        qsort(t, (size_t)n_tensors, sizeof *t, by_name);
        for (uint64_t i = 1; status == PE_OK && i < n_tensors; i++)
            if (strcmp(t[i - 1].name, t[i].name) == 0)
                status = pe__fail(PE_ERR_FORMAT, "gguf: tensor name '%s' appears twice", t[i].name);
    }
    free(t);
    return status;
}

int pe__gguf_rope_parse(const unsigned char *buf, size_t len, pe__gguf_rope **out) {
    PE_CHECK_NULL(out);
    if (len > 0) PE_CHECK_NULL(buf);
    source s = {.buf = buf ? buf : (const unsigned char *)"", .size = len};
    pe__gguf_rope *g = calloc(1, sizeof *g);
    if (g == NULL) return pe__fail(PE_ERR_NOMEM, "gguf: no memory for a handle");
    int status = parse(&s, g);
    if (status != PE_OK) {
        pe__gguf_rope_free(g);
        return status;
    }
    *out = g;
    return PE_OK;
}

int pe__gguf_rope_read(const char *path, pe__gguf_rope **out) {
    PE_CHECK_NULL(path);
    PE_CHECK_NULL(out);
    FILE *f = NULL;
    int64_t file_size = -1;
    PE_TRY(pe__input_open(path, PE__INPUT_REGULAR, &f, &file_size));
    int status = PE_OK;
    pe__gguf_rope *g = NULL;
    if ((g = calloc(1, sizeof *g)) == NULL) {
        status = pe__fail(PE_ERR_NOMEM, "gguf: no memory for a handle");
    } else {
        /* the header is many small reads: a larger stdio buffer */
        setvbuf(f, NULL, _IOFBF, 1 << 16);
        source s = {.f = f, .size = (uint64_t)file_size};
        status = parse(&s, g);
        if (status != PE_OK) {
            char detail[400];
            snprintf(detail, sizeof detail, "%s", pe_last_error());
            pe__fail(status, "%s: %s", path, detail);
        }
    }
    fclose(f);
    if (status != PE_OK) {
        pe__gguf_rope_free(g);
        return status;
    }
    *out = g;
    return PE_OK;
}

/* --------------------------------------------------------------- lookup */

int64_t pe__gguf_key_count(const pe__gguf_rope *g) { return g ? g->n_kv : 0; }

int pe__gguf_key_at(const pe__gguf_rope *g, int64_t i, const char **name, pe__gguf_value *value) {
    PE_CHECK_NULL(g);
    PE_CHECK_NULL(name);
    PE_CHECK_NULL(value);
    if (i < 0 || i >= g->n_kv)
        return pe__fail(PE_ERR_RANGE, "index=%lld outside [0, key count=%lld)", (long long)i,
                        (long long)g->n_kv);
    *name = g->kv[i].key;
    *value = g->kv[i].v;
    return PE_OK;
}

bool pe__gguf_find(const pe__gguf_rope *g, const char *key, pe__gguf_value *value) {
    if (g == NULL || key == NULL || value == NULL) return false;
    int64_t lo = 0, hi = g->n_kv;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const struct pe__gguf_kv *kv = &g->kv[g->kv_sorted[mid]];
        const int c = strcmp(kv->key, key);
        if (c == 0) {
            *value = kv->v;
            return true;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}
