/*
 * gguf_build.h — a tiny GGUF writer for the tests: header, key/value pairs
 * of every type and small tensors, laid out the way llama.cpp's gguf-py
 * writer lays them out (tensor infos in order, each tensor's data padded to
 * the alignment, the data section aligned). Independent of the reader in
 * src/io/gguf.c: it encodes the format from its description, so that a
 * reader bug and a builder bug cannot cancel out. Also writes the wrong
 * things a test asks for (raw key bytes, any type number, offsets and
 * counts that lie).
 */
#ifndef PE_TEST_GGUF_BUILD_H
#define PE_TEST_GGUF_BUILD_H

#include <stddef.h>
#include <stdint.h>

typedef struct gguf_build gguf_build;

/* GGUF value type numbers (the format's). */
enum {
    GB_U8 = 0, GB_I8 = 1, GB_U16 = 2, GB_I16 = 3, GB_U32 = 4, GB_I32 = 5, GB_F32 = 6,
    GB_BOOL = 7, GB_STRING = 8, GB_ARRAY = 9, GB_U64 = 10, GB_I64 = 11, GB_F64 = 12
};
/* ggml tensor types used by the tests. */
enum { GB_GGML_F32 = 0, GB_GGML_F16 = 1, GB_GGML_Q4_0 = 2, GB_GGML_Q8_0 = 8, GB_GGML_F64 = 28 };

/* A new file of the given version (3 is current). Allocation failures
 * abort the test run (a builder, not a library). */
gguf_build *gb_new(uint32_t version);
void gb_free(gguf_build *b);

/* One scalar pair each. */
void gb_u8(gguf_build *b, const char *key, uint8_t v);
void gb_i8(gguf_build *b, const char *key, int8_t v);
void gb_u16(gguf_build *b, const char *key, uint16_t v);
void gb_i16(gguf_build *b, const char *key, int16_t v);
void gb_u32(gguf_build *b, const char *key, uint32_t v);
void gb_i32(gguf_build *b, const char *key, int32_t v);
void gb_u64(gguf_build *b, const char *key, uint64_t v);
void gb_i64(gguf_build *b, const char *key, int64_t v);
void gb_f32(gguf_build *b, const char *key, float v);
void gb_f64(gguf_build *b, const char *key, double v);
void gb_bool(gguf_build *b, const char *key, int v);
void gb_str(gguf_build *b, const char *key, const char *v);
/* An array of n elements of a fixed-size type, given as host values of
 * that type (uint8_t for bool). */
void gb_array(gguf_build *b, const char *key, uint32_t elem_type, size_t n, const void *elems);
void gb_str_array(gguf_build *b, const char *key, size_t n, const char *const *strs);
/* A pair from raw parts: key bytes (any, not NUL-terminated), a type
 * number and the value's encoded bytes. */
void gb_raw_kv(gguf_build *b, const void *key, size_t key_len, uint32_t type, const void *value,
               size_t value_len);

/* Tensors: the data is copied; offsets are computed at gb_finish. */
void gb_tensor(gguf_build *b, const char *name, uint32_t n_dims, const uint64_t *dims,
               uint32_t ggml_type, const void *data, size_t nbytes);
void gb_tensor_f32(gguf_build *b, const char *name, size_t n, const float *values);
/* Lies for bad files: tensor i's stored offset; the header's counts. */
void gb_tensor_offset(gguf_build *b, size_t i, uint64_t offset);
void gb_counts(gguf_build *b, uint64_t n_tensors, uint64_t n_kv);
/* The alignment the layout uses (default 32); write_key adds the
 * general.alignment pair (u32) too. */
void gb_alignment(gguf_build *b, uint32_t alignment, int write_key);

/* The file's bytes (malloc'd, caller frees) and its length. */
unsigned char *gb_finish(const gguf_build *b, size_t *len);
/* Write the file; 0 on success. */
int gb_write(const gguf_build *b, const char *path);

#endif
