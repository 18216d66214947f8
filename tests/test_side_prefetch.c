/*
 * test_side_prefetch.c — the side stream of src/kernels/kernels.h, which
 * the fused epilogue hands its kernels so that the next token's rows are
 * fetched under this token's arithmetic: walked step by step, a stream
 * prefetches every line of its run exactly once, whatever its stride
 * (1..64 bytes per step), and never passes its end. Prefetches cannot be
 * observed, so the walk is replayed with the kernels' own predicate.
 */
#include "runner.h"

#include "../src/kernels/kernels.h"

#include <stdlib.h>

TEST(side_stream_prefetches_every_line_once) {
    enum { LINES = 37 };
    const uintptr_t lo = (uintptr_t)64 * 1000003, end = lo + 64 * LINES;
    for (uintptr_t stride = 1; stride <= 64; stride++) {
        int hits[LINES] = {0};
        uintptr_t pos = lo;
        long steps = 0;
        while (pos < end) {
            if (pe__side_new_line(pos, stride)) hits[(pos - lo) / 64]++;
            pe__side_step(&pos, end, stride); /* the kernels' step */
            steps++;
        }
        for (int l = 0; l < LINES; l++)
            CHECK_MSG(hits[l] == 1, "stride %u: line %d prefetched %d times", (unsigned)stride, l,
                      hits[l]);
        CHECK_MSG(steps == (long)((end - lo + stride - 1) / stride),
                  "stride %u: %ld steps to walk %d lines", (unsigned)stride, steps, LINES);
        /* at its end a stream stays put, however many steps follow */
        pe__side_prefetch s = {pos, end, stride};
        pe__side_steps(&s, 1000);
        CHECK(s.pos == pos);
    }
}
