/*
 * fuzz_safetensors.c — pe_safetensors_parse on arbitrary bytes. A rejected
 * file names its reason and returns no handle; an accepted one is walked
 * the way a loader walks it: every tensor by index and by name (the same
 * tensor both ways), every byte of its data read (so ASan sees any range
 * the header lied about), byte counts checked against shape and dtype,
 * every metadata entry by index and by key, and the out-of-range lookups
 * refused.
 */
#include "fuzz.h"

#include "posenc.h"

#include <stdlib.h>
#include <string.h>

volatile uint64_t pe_fuzz_sink;

static void walk(const pe_safetensors *st) {
    const int64_t n = pe_safetensors_count(st);
    if (n < 0) abort();
    for (int64_t i = 0; i < n; i++) {
        pe_st_tensor t, u;
        if (pe_safetensors_get(st, i, &t) != PE_OK) abort();
        if (t.name == NULL || t.ndim < 0 || t.ndim > PE_ST_MAX_DIMS) abort();
        size_t count = 1;
        for (int k = 0; k < t.ndim; k++) {
            if (t.shape[k] < 0) abort();
            count *= (size_t)t.shape[k];
        }
        if (t.dtype_known && count * pe_dtype_size(t.dtype) != t.nbytes) abort();
        if (t.nbytes > 0 && t.data == NULL) abort();
        if (t.nbytes > 0) pe_fuzz_consume(t.data, t.nbytes);
        if (pe_safetensors_find(st, t.name, &u) != PE_OK || u.data != t.data ||
            u.nbytes != t.nbytes)
            abort(); /* names are unique: find gives back the same tensor */
    }
    pe_st_tensor t;
    if (pe_safetensors_get(st, n, &t) != PE_ERR_RANGE) abort();
    if (pe_safetensors_get(st, -1, &t) != PE_ERR_RANGE) abort();
    const int64_t m = pe_safetensors_metadata_count(st);
    for (int64_t i = 0; i < m; i++) {
        const char *key = NULL, *value = NULL;
        if (pe_safetensors_metadata_at(st, i, &key, &value) != PE_OK || !key || !value) abort();
        const char *again = pe_safetensors_metadata_get(st, key);
        if (again == NULL || strcmp(again, value) != 0) abort();
        pe_fuzz_consume(value, strlen(value));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pe_safetensors *st = (pe_safetensors *)(uintptr_t)0x5A5A5A5A;
    const unsigned char empty = 0;
    int status = pe_safetensors_parse(size ? (const void *)data : &empty, size, &st);
    if (status != PE_OK) {
        /* a rejected file names its reason and hands back no handle */
        if (pe_last_error()[0] == '\0' || st != (pe_safetensors *)(uintptr_t)0x5A5A5A5A)
            abort();
        return 0;
    }
    walk(st);
    pe_safetensors_free(st);
    return 0;
}
