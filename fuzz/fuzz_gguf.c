/*
 * fuzz_gguf.c — the GGUF reader (src/io/gguf.c) on arbitrary bytes. A
 * rejected file names its reason and hands back no handle; an accepted one
 * is walked the way the plan walks it: every key by index and again by name
 * (the same value both ways), every string and kept array element read (so
 * ASan sees any range the header lied about), the typed fields checked
 * against the generic lookup, every rope tensor value read and checked
 * finite and positive, and the out-of-range lookups refused.
 */
#include "fuzz.h"

#include "../src/io/gguf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

volatile uint64_t pe_fuzz_sink;

static void walk_tensor(const pe__gguf_tensor *t) {
    if (!t->present) {
        if (t->values != NULL || t->count != 0) abort();
        return;
    }
    if (t->count < 1 || t->count > (int64_t)PE_GGUF_MAX_ROPE_TENSOR || t->values == NULL) abort();
    if (t->ggml_type != 0 && t->ggml_type != 1 && t->ggml_type != 28) abort();
    for (int64_t i = 0; i < t->count; i++)
        if (!(t->values[i] > 0) || !isfinite(t->values[i])) abort();
    pe_fuzz_consume(t->values, sizeof(double) * (size_t)t->count);
}

/* A typed string field is the generic lookup's string of that key. */
static void same_string(const pe__gguf_rope *g, const char *s, const char *key) {
    if (s == NULL) return;
    pe__gguf_value v;
    if (key != NULL && (!pe__gguf_find(g, key, &v) || v.str != s)) abort();
    pe_fuzz_consume(s, strlen(s));
}

static void walk(const pe__gguf_rope *g) {
    const int64_t n = pe__gguf_key_count(g);
    if (n < 0 || (uint64_t)n > PE_GGUF_MAX_KV) abort();
    if (g->version != 2 && g->version != 3) abort();
    if (g->alignment == 0 || (g->alignment & (g->alignment - 1)) != 0) abort();
    if (g->data_offset % g->alignment != 0 && g->n_tensors > 0) abort();
    for (int64_t i = 0; i < n; i++) {
        const char *name = NULL;
        pe__gguf_value v, w;
        if (pe__gguf_key_at(g, i, &name, &v) != PE_OK || name == NULL) abort();
        const size_t len = strlen(name);
        if (len == 0 || len > PE_GGUF_MAX_KEY) abort();
        pe_fuzz_consume(name, len);
        /* keys are unique: the lookup gives back this very value */
        if (!pe__gguf_find(g, name, &w) || w.type != v.type || w.str != v.str ||
            w.num != v.num || w.count != v.count || w.u != v.u || w.i != v.i ||
            memcmp(&w.f, &v.f, sizeof v.f) != 0)
            abort();
        if (v.type == PE_GGUF_STRING) {
            if (v.str == NULL || strlen(v.str) != v.str_len) abort();
            pe_fuzz_consume(v.str, v.str_len);
        } else if (v.type == PE_GGUF_ARRAY) {
            if (v.elem_type == PE_GGUF_ARRAY || v.elem_type > PE_GGUF_F64) abort();
            const bool kept = v.elem_type != PE_GGUF_STRING && v.count <= PE_GGUF_KEEP_ARRAY;
            if (kept != (v.num != NULL)) abort();
            if (v.num) pe_fuzz_consume(v.num, sizeof(double) * (size_t)v.count);
        } else if ((unsigned)v.type > PE_GGUF_F64) {
            abort();
        } else {
            pe_fuzz_consume(&v.f, sizeof v.f);
        }
    }
    const char *name;
    pe__gguf_value v;
    if (pe__gguf_key_at(g, n, &name, &v) != PE_ERR_RANGE) abort();
    if (pe__gguf_key_at(g, -1, &name, &v) != PE_ERR_RANGE) abort();
    same_string(g, g->architecture, "general.architecture");
    same_string(g, g->name, "general.name");
    same_string(g, g->rope_scaling_type, NULL);
    const pe__gguf_real *reals[] = {&g->rope_freq_base, &g->rope_freq_base_swa,
                                    &g->rope_scaling_factor, &g->yarn_log_multiplier};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        if (reals[i]->present && reals[i]->type != PE_GGUF_F32 && reals[i]->type != PE_GGUF_F64)
            abort();
    if (g->architecture == NULL && (g->rope_freq_base.present || g->block_count.present)) abort();
    if (g->swa_pattern_is_array) {
        if (g->swa_pattern_layers == NULL && g->swa_pattern_count > 0) abort();
        pe_fuzz_consume(g->swa_pattern_layers, g->swa_pattern_count);
    }
    if (g->dimension_sections_count > 8) abort();
    for (size_t i = 0; i < g->dimension_sections_count; i++)
        if (g->dimension_sections[i] < 0) abort();
    walk_tensor(&g->rope_freqs);
    walk_tensor(&g->rope_factors_long);
    walk_tensor(&g->rope_factors_short);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pe__gguf_rope *g = (pe__gguf_rope *)(uintptr_t)0x5A5A5A5A;
    const unsigned char empty = 0;
    int status = pe__gguf_rope_parse(size ? data : &empty, size, &g);
    if (status != PE_OK) {
        /* a rejected file names its reason and hands back no handle */
        if (pe_last_error()[0] == '\0' || g != (pe__gguf_rope *)(uintptr_t)0x5A5A5A5A) abort();
        if (status != PE_ERR_FORMAT && status != PE_ERR_UNSUPPORTED && status != PE_ERR_OVERFLOW &&
            status != PE_ERR_NOMEM)
            abort();
        return 0;
    }
    walk(g);
    pe__gguf_rope_free(g);
    return 0;
}
