/*
 * fuzz.h — the libFuzzer entry points every fuzz target defines. The same
 * target links either with libFuzzer (`make fuzz`: clang, coverage-guided,
 * ASan + UBSan) or with replay.c (`make test`: any compiler, replays the
 * seed corpus in fuzz/corpus/<target>/ so every input that ever found a bug
 * stays a regression test).
 */
#ifndef PE_FUZZ_H
#define PE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* One input; returns 0 (libFuzzer reserves other values). Must not leak,
 * crash, hang or depend on earlier inputs. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Called once before the first input (libFuzzer and replay.c alike). */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A cheap accumulator the targets feed with the outputs they compute, so
 * the compiler cannot drop a computation and the sanitizers see every byte
 * read (an uninitialised or out-of-bounds read of a result is then a
 * finding, not dead code). Defined in each target. */
extern volatile uint64_t pe_fuzz_sink;

static inline void pe_fuzz_consume(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = pe_fuzz_sink;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    pe_fuzz_sink = h;
}

#endif
