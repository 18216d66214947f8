/*
 * closest_names.c — the registries' "did you mean": Levenshtein distance
 * over the first 63 bytes (registry names are short) and the three nearest
 * names, in registry order among equals.
 */
#include "closest_names.h"

#include <stdio.h>
#include <string.h>

static size_t edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > 63) n = 63;
    if (m > 63) m = 63;
    size_t row[64];
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

void pe__closest_names(const char *name, const char *(*name_at)(size_t i), size_t count, char *buf,
                       size_t cap) {
    enum { N = 3 };
    size_t best[N] = {(size_t)-1, (size_t)-1, (size_t)-1};
    const char *who[N] = {NULL, NULL, NULL};
    for (size_t i = 0; i < count; i++) {
        const char *candidate = name_at(i);
        size_t d = edit_distance(name, candidate);
        for (int k = 0; k < N; k++)
            if (d < best[k]) {
                for (int j = N - 1; j > k; j--) {
                    best[j] = best[j - 1];
                    who[j] = who[j - 1];
                }
                best[k] = d;
                who[k] = candidate;
                break;
            }
    }
    size_t used = 0;
    if (cap > 0) buf[0] = '\0';
    for (int k = 0; k < N && who[k] != NULL && used < cap; k++) {
        int w = snprintf(buf + used, cap - used, "%s'%s'",
                         k == 0 ? "" : (k + 1 < N && who[k + 1] != NULL ? ", " : " or "), who[k]);
        if (w < 0) break;
        used += (size_t)w;
    }
}
