/* utf8.c — the one UTF-8 check of the readers and writers (utf8.h). */
#include "utf8.h"

size_t pe__utf8_invalid_at(const char *str, size_t n) {
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        const unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        unsigned lo = 0x80, hi = 0xBF; /* range of the second byte */
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0) lo = 0xA0;      /* no overlong forms */
            if (c == 0xED) hi = 0x9F;      /* no UTF-16 surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0) lo = 0x90;      /* no overlong forms */
            if (c == 0xF4) hi = 0x8F;      /* nothing past U+10FFFF */
        } else {
            return i; /* a continuation byte, C0, C1 or F5..FF */
        }
        if (n - i < len || s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k < len; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
        i += len;
    }
    return n;
}

bool pe__utf8_valid(const char *s, size_t n) { return pe__utf8_invalid_at(s, n) == n; }
