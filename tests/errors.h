/*
 * errors.h — the harness of the bad-input tables (tests/test_errors_*.c):
 * every row of docs/ERRORS.md is one EXPECT line,
 *
 *     EXPECT("ROPE-3", PE_ERR_DIM, "rotary_dim=9", pe_freqs_default(9, 1e4, OUT));
 *
 * which poisons the shared output buffer OUT, makes the call, and checks the
 * status, that pe_last_error() contains the needle (the argument and value),
 * and that every byte of OUT is still the poison: a rejected call writes
 * nothing. Outputs the call would write (and in-place inputs) must point
 * into OUT. tests/test_errors_doc.c checks that the rows here and the rows
 * of docs/ERRORS.md are the same set.
 */
#ifndef PE_TEST_ERRORS_H
#define PE_TEST_ERRORS_H

#include "runner.h"

/* Big enough for the largest output struct (pe_rope_config) with room. */
#define PE_ERR_BUF_BYTES (1u << 18)

/* 64-byte aligned, so any output struct or array may live in it. */
extern unsigned char *const pe_err_buf;

void pe_err_poison(void);
void pe_err_verify(const char *id, int got, int want, const char *needle,
                   const char *file, int line);

#define OUT ((void *)pe_err_buf)
#define OUT_AT(bytes) ((void *)(pe_err_buf + (bytes)))
#define OUTF ((float *)(void *)pe_err_buf)
#define OUTD ((double *)(void *)pe_err_buf)
#define OUTI ((int64_t *)(void *)pe_err_buf)

#define EXPECT(id, want, needle, call)                                     \
    do {                                                                   \
        pe_err_poison();                                                   \
        int pe_err_st_ = (call);                                           \
        pe_err_verify(id, pe_err_st_, want, needle, __FILE__, __LINE__);   \
    } while (0)

#endif
