/*
 * utf8.h — internal: well-formed UTF-8 as the formats' reference readers
 * decode it (shortest forms, no UTF-16 surrogates, nothing past U+10FFFF).
 * safetensors headers and names (serde_json), config.json (HF's json.load
 * of a file opened as UTF-8) and GGUF keys and strings are held to it.
 */
#ifndef PE_IO_UTF8_H
#define PE_IO_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[0, n) well-formed UTF-8? (A NUL is ASCII here; callers that need
 * C strings check for it themselves.) */
bool pe__utf8_valid(const char *s, size_t n);
/* The offset of the first byte that starts an ill-formed sequence, n if
 * there is none. */
size_t pe__utf8_invalid_at(const char *s, size_t n);

#endif
