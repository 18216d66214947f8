/*
 * closest_names.h — the "did you mean" of a refusal: the names of a
 * registry (model families, GGUF architectures) nearest to one it does not
 * hold, by edit distance.
 */
#ifndef PE_CLOSEST_NAMES_H
#define PE_CLOSEST_NAMES_H

#include <stddef.h>

/* The (up to) three names name_at(0 .. count-1) closest to name, as
 * "'a', 'b' or 'c'" into buf (always terminated when cap > 0; cut at cap). */
void pe__closest_names(const char *name, const char *(*name_at)(size_t i), size_t count, char *buf,
                       size_t cap);

#endif
