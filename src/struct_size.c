/* struct_size.c — struct_size.h's rule, one implementation for every
 * extensible parameter struct. */
#include "struct_size.h"

#include "internal.h"

#include <string.h>

int pe__struct_resolve(const void *given, const void *defaults, void *out, size_t known,
                       size_t first, const char *name, const char *init) {
    if (given == NULL) {
        memcpy(out, defaults, known);
        return PE_OK;
    }
    size_t size; /* every struct of the rule starts with its size_t struct_size */
    memcpy(&size, given, sizeof size);
    if (size < first)
        return pe__fail(PE_ERR_PARAM,
                        "%s.struct_size=%zu is smaller than its first version (%zu bytes): "
                        "start from %s()",
                        name, size, first, init);
    if (size > known) {
        const unsigned char *extra = (const unsigned char *)given + known;
        for (size_t i = 0; i < size - known; i++)
            if (extra[i] != 0)
                return pe__fail(PE_ERR_PARAM,
                                "%s.struct_size=%zu sets fields past this library's %zu bytes "
                                "(built against a newer posenc than %s?)",
                                name, size, known, pe_version_string());
    }
    memcpy(out, defaults, known);
    memcpy(out, given, size < known ? size : known);
    memcpy(out, &known, sizeof known);
    return PE_OK;
}
