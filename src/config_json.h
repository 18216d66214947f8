/*
 * config_json.h — reading keys of a parsed config.json (cJSON) the way
 * Python reads them: a key given twice is an error (Python keeps the last,
 * cJSON finds the first), JSON null counts as absent, and every failure
 * names the key with its place ("rope_parameters.full_attention.factor").
 * Shared by the single-RoPE reader (config.c) and the per-layer plan
 * (plan.c); internal.
 */
#ifndef PE_CONFIG_JSON_H
#define PE_CONFIG_JSON_H

#include "internal.h"

#include <cjson/cJSON.h>

/* Larger than any real config.json by three orders of magnitude; bounds the
 * allocation a hostile path can cause. */
#define PE_CONFIG_MAX_BYTES (64u << 20)

/* Where a key lives, for error details: "" (top level), "rope_scaling.",
 * "text_config.rope_parameters.sliding_attention." ... */
typedef struct {
    const cJSON *obj;
    const char *prefix;
} pe__scope;

const char *pe__json_type_name(const cJSON *v);
/* The value of key (NULL when absent or null). */
int pe__json_find(pe__scope sc, const char *key, const cJSON **out);
int pe__json_number(pe__scope sc, const char *key, double *v, bool *present);
/* An integer key: refused unless integral and below 2^53 in magnitude (a
 * JSON integer at or past 2^53 may already have been rounded). */
int pe__json_int(pe__scope sc, const char *key, int64_t *v, bool *present);
int pe__json_bool(pe__scope sc, const char *key, bool *v, bool *present);
int pe__json_string(pe__scope sc, const char *key, const char **v);
/* A list of at most PE_MAX_PAIRS finite numbers into v. */
int pe__json_list(pe__scope sc, const char *key, double *v, int64_t *n, bool *present);
/* An object key (NULL when absent or null); anything else is an error. */
int pe__json_object(pe__scope sc, const char *key, const cJSON **out);

/* Two spellings of one quantity: equal if both are given, else whichever is. */
int pe__merge_number(double *v, bool *present, double other, bool other_present,
                     const char *name, const char *other_name);
int pe__merge_int(int64_t *v, bool *present, int64_t other, bool other_present,
                  const char *name, const char *other_name);

/* Parse len bytes of JSON text (a private NUL-terminated copy: cJSON cannot
 * read past it); only whitespace may follow the value. *root: cJSON_Delete. */
int pe__json_parse_text(const char *json, size_t len, cJSON **root);
/* The bytes of a file of at most PE_CONFIG_MAX_BYTES (chunked, works on
 * pipes). *buf: free(). */
int pe__json_slurp(const char *path, char **buf, size_t *len);

#endif
