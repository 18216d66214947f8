/* struct_size.h — the extensible parameter struct rule (README "ABI and
 * versions"): a public parameter struct that may grow carries size_t
 * struct_size as its first member, set by its _default() initializer to
 * sizeof the struct the caller compiled against. The library reads only
 * the fields that lie inside struct_size, so a caller built against an
 * older header (a smaller struct) gets the defaults for the fields it has
 * never heard of, and a new field is not an ABI break. */
#ifndef PE_STRUCT_SIZE_H
#define PE_STRUCT_SIZE_H

#include <stddef.h>

/* Bytes of a struct up to and including `field`: a version's size, fixed
 * once the version is released whatever is appended later. */
#define PE__SIZE_THROUGH(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/*
 * Resolve a caller's struct (given, NULL for the defaults) against the
 * library's defaults into out, both of this library's size `known`:
 * out = defaults, then the first min(struct_size, known) bytes of given over
 * it, then out->struct_size = known. Refused (PE_ERR_PARAM naming the
 * struct and its initializer `init`, out untouched): struct_size below `first` (the first version's
 * size: an uninitialised struct, or one not started from _default()); a
 * struct_size above `known` whose extra bytes are not all zero (a caller
 * built against a newer posenc that set fields this library does not
 * know: ignoring them would silently change the result).
 */
int pe__struct_resolve(const void *given, const void *defaults, void *out, size_t known,
                       size_t first, const char *name, const char *init);

#endif
