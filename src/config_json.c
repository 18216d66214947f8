/* config_json.c — typed, duplicate-checked access to config.json keys
 * (see config_json.h), and reading the text from memory or a file. */
#include "config_json.h"
#include "io/input_file.h"
#include "io/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Integers at or above 2^53 may already have been rounded by the JSON
 * reader (2^53 + 1 reads as 2^53), so they are refused rather than used. */
#define PE_JSON_MAX_INT 9007199254740992.0

const char *pe__json_type_name(const cJSON *v) {
    if (cJSON_IsNumber(v)) return "number";
    if (cJSON_IsString(v)) return "string";
    if (cJSON_IsBool(v)) return "bool";
    if (cJSON_IsArray(v)) return "array";
    if (cJSON_IsObject(v)) return "object";
    if (cJSON_IsNull(v)) return "null";
    return "invalid";
}

int pe__json_find(pe__scope sc, const char *key, const cJSON **out) {
    *out = NULL;
    if (sc.obj == NULL) return PE_OK;
    int seen = 0;
    for (const cJSON *c = sc.obj->child; c != NULL; c = c->next) {
        if (c->string == NULL || strcmp(c->string, key) != 0) continue;
        if (++seen > 1)
            return pe__fail(PE_ERR_FORMAT, "key '%s%s' appears more than once",
                            sc.prefix, key);
        *out = cJSON_IsNull(c) ? NULL : c;
    }
    return PE_OK;
}

int pe__json_number(pe__scope sc, const char *key, double *v, bool *present) {
    const cJSON *j;
    PE_TRY(pe__json_find(sc, key, &j));
    *present = j != NULL;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsNumber(j))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be a number, not %s", sc.prefix,
                        key, pe__json_type_name(j));
    if (!isfinite(j->valuedouble))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' is not a finite number", sc.prefix, key);
    *v = j->valuedouble;
    return PE_OK;
}

int pe__json_int(pe__scope sc, const char *key, int64_t *v, bool *present) {
    double d = 0.0;
    PE_TRY(pe__json_number(sc, key, &d, present));
    if (!*present) return PE_OK;
    if (d != floor(d) || fabs(d) >= PE_JSON_MAX_INT)
        return pe__fail(PE_ERR_FORMAT, "'%s%s'=%.17g must be an integer below 2^53",
                        sc.prefix, key, d);
    *v = (int64_t)d;
    return PE_OK;
}

int pe__json_bool(pe__scope sc, const char *key, bool *v, bool *present) {
    const cJSON *j;
    PE_TRY(pe__json_find(sc, key, &j));
    *present = j != NULL;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsBool(j))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be true or false, not %s",
                        sc.prefix, key, pe__json_type_name(j));
    *v = cJSON_IsTrue(j);
    return PE_OK;
}

int pe__json_string(pe__scope sc, const char *key, const char **v) {
    const cJSON *j;
    PE_TRY(pe__json_find(sc, key, &j));
    *v = NULL;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsString(j) || j->valuestring == NULL)
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be a string, not %s", sc.prefix,
                        key, pe__json_type_name(j));
    *v = j->valuestring;
    return PE_OK;
}

int pe__json_list(pe__scope sc, const char *key, double *v, int64_t *n, bool *present) {
    const cJSON *j;
    PE_TRY(pe__json_find(sc, key, &j));
    *present = j != NULL;
    *n = 0;
    if (j == NULL) return PE_OK;
    if (!cJSON_IsArray(j))
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be an array of numbers, not %s",
                        sc.prefix, key, pe__json_type_name(j));
    for (const cJSON *c = j->child; c != NULL; c = c->next) {
        if (*n >= PE_MAX_PAIRS)
            return pe__fail(PE_ERR_FORMAT, "'%s%s' has more than %d entries", sc.prefix,
                            key, PE_MAX_PAIRS);
        if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble))
            return pe__fail(PE_ERR_FORMAT, "'%s%s'[%lld] must be a finite number, not %s",
                            sc.prefix, key, (long long)*n, pe__json_type_name(c));
        v[(*n)++] = c->valuedouble;
    }
    return PE_OK;
}

int pe__json_object(pe__scope sc, const char *key, const cJSON **out) {
    PE_TRY(pe__json_find(sc, key, out));
    if (*out != NULL && !cJSON_IsObject(*out)) {
        const char *type = pe__json_type_name(*out);
        *out = NULL;
        return pe__fail(PE_ERR_FORMAT, "'%s%s' must be an object or null, not %s",
                        sc.prefix, key, type);
    }
    return PE_OK;
}

int pe__merge_number(double *v, bool *present, double other, bool other_present,
                     const char *name, const char *other_name) {
    if (other_present && *present && other != *v)
        return pe__fail(PE_ERR_FORMAT, "'%s'=%.17g and '%s'=%.17g disagree", name, *v,
                        other_name, other);
    if (other_present && !*present) {
        *v = other;
        *present = true;
    }
    return PE_OK;
}

int pe__merge_int(int64_t *v, bool *present, int64_t other, bool other_present,
                  const char *name, const char *other_name) {
    if (other_present && *present && other != *v)
        return pe__fail(PE_ERR_FORMAT, "'%s'=%lld and '%s'=%lld disagree", name,
                        (long long)*v, other_name, (long long)other);
    if (other_present && !*present) {
        *v = other;
        *present = true;
    }
    return PE_OK;
}

int pe__json_parse_text(const char *json, size_t len, cJSON **root) {
    *root = NULL;
    if (len == 0) return pe__fail(PE_ERR_FORMAT, "config text is empty");
    if (len > PE_CONFIG_MAX_BYTES)
        return pe__fail(PE_ERR_FORMAT, "config text of %zu bytes exceeds %u", len,
                        PE_CONFIG_MAX_BYTES);
    char *text = malloc(len + 1);
    if (text == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory to parse %zu bytes of config", len);
    memcpy(text, json, len);
    text[len] = '\0';
    /* HF reads config.json as UTF-8 text and fails on anything else; cJSON
     * would carry the bytes through to `plan --format json`, which then
     * printed invalid UTF-8. */
    const size_t bad = pe__utf8_invalid_at(text, len);
    if (bad != len) {
        free(text);
        return pe__fail(PE_ERR_FORMAT, "config is not valid UTF-8 (byte %zu is 0x%02x)", bad,
                        (unsigned)(unsigned char)json[bad]);
    }
    const char *end = NULL;
    cJSON *r = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    int status = PE_OK;
    if (r == NULL) {
        size_t at = end != NULL && end >= text && end <= text + len ? (size_t)(end - text)
                                                                     : len;
        status = pe__fail(PE_ERR_FORMAT, "config is not valid JSON (error near byte %zu)",
                          at);
    } else {
        /* Only whitespace may follow the value; a NUL inside len counts as
         * garbage too. */
        for (const char *p = end; status == PE_OK && p < text + len; p++)
            if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
                status = pe__fail(PE_ERR_FORMAT, "trailing data after the JSON value "
                                  "at byte %zu", (size_t)(p - text));
        if (status != PE_OK) cJSON_Delete(r);
        else *root = r;
    }
    free(text);
    return status;
}

int pe__json_slurp(const char *path, char **out, size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    FILE *fp = NULL;
    int64_t size = -1;
    char shown[208];
    snprintf(shown, sizeof shown, "'%.200s'", path);
    PE_TRY(pe__input_open_as(path, shown, PE__INPUT_STREAM, &fp, &size));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int status = buf == NULL ? pe__fail(PE_ERR_NOMEM, "no memory to read '%.200s'", path)
                             : PE_OK;
    /* Read in chunks rather than trusting ftell: works on pipes, and stops
     * at the size limit instead of allocating whatever the file claims. */
    while (status == PE_OK) {
        if (len == cap) {
            if (cap >= PE_CONFIG_MAX_BYTES) {
                status = pe__fail(PE_ERR_FORMAT, "'%.200s' exceeds %u bytes", path,
                                  PE_CONFIG_MAX_BYTES);
                break;
            }
            char *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                status = pe__fail(PE_ERR_NOMEM, "no memory to read '%.200s'", path);
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0) {
            if (ferror(fp)) status = pe__fail(PE_ERR_IO, "cannot read '%.200s'", path);
            break;
        }
    }
    fclose(fp);
    if (status != PE_OK) {
        free(buf);
        return status;
    }
    if (len == 0) {
        free(buf);
        return pe__fail(PE_ERR_FORMAT, "'%.200s' is empty", path);
    }
    *out = buf;
    *out_len = len;
    return PE_OK;
}
