/* errors.c — status strings (generated from PE_STATUS_MAP) and the
 * thread-local detail message behind pe_last_error(). */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>

/* Thread-local, so concurrent callers never see each other's details. */
static _Thread_local char pe_error_detail[512];

const char *pe_strerror(int status) {
    switch (status) {
#define PE_STATUS_CASE_(name, value, msg) \
    case value:                           \
        return msg;
        PE_STATUS_MAP(PE_STATUS_CASE_)
#undef PE_STATUS_CASE_
    default:
        return "unknown status";
    }
}

const char *pe_last_error(void) { return pe_error_detail; }

int pe__fail(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pe_error_detail, sizeof pe_error_detail, fmt, ap);
    va_end(ap);
    return status;
}
