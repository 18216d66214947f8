/*
 * safetensors_internal.h — what the safetensors reader (safetensors.c) and
 * writer (safetensors_write.c) share: the dtype table and the format's limits.
 */
#ifndef PE_SAFETENSORS_INTERNAL_H
#define PE_SAFETENSORS_INTERNAL_H

#include "utf8.h"
#include "../internal.h"

/* The reference implementation's limit; also bounds what a hostile length
 * field can make us allocate before anything is validated. */
#define ST_MAX_HEADER 100000000u
#define ST_META_KEY "__metadata__"

/* A safetensors dtype string, its element size and its pe_dtype (when
 * known: F32 F64 F16 BF16 I64). */
typedef struct {
    const char *name;
    size_t size;
    int known;
    pe_dtype dtype;
} pe__st_dtype;

extern const pe__st_dtype pe__st_dtypes[];
/* Index into pe__st_dtypes, -1 if the name or pe_dtype has no entry. */
int pe__st_dtype_index(const char *name);
int pe__st_dtype_of_pe(pe_dtype d);

/* pe__utf8_valid (utf8.h): the reference reader decodes the header as
 * UTF-8 and refuses anything else, so the reader and the writer refuse it
 * too. */

#endif
