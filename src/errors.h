/*
 * errors.h — the library's error channel (errors.c): record the detail
 * behind pe_last_error() and return a status, and the two macros every
 * check is written with. A leaf: it includes only the public header, so the
 * size helpers (checked.c) and the kernel dispatcher (kernels/dispatch.c)
 * can report errors without seeing the families' internal.h.
 */
#ifndef PE_ERRORS_H
#define PE_ERRORS_H

#include "posenc.h"

#include <stddef.h>

/* Record a printf-style detail for pe_last_error() and return status. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int pe__fail(int status, const char *fmt, ...);

/* Checks that name the argument in the error detail. Each returns PE_OK or
 * the failing status (already recorded). */
#define PE_CHECK_NULL(ptr)                                                  \
    do {                                                                    \
        if ((ptr) == NULL)                                                  \
            return pe__fail(PE_ERR_NULL, "%s must not be NULL", #ptr);      \
    } while (0)

#define PE_TRY(expr)                                                        \
    do {                                                                    \
        int pe_try_status_ = (expr);                                        \
        if (pe_try_status_ != PE_OK) return pe_try_status_;                 \
    } while (0)

#endif /* PE_ERRORS_H */
