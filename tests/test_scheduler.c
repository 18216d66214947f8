/*
 * test_scheduler.c — src/rope_threads.c's pe__parallel_chunks: every item
 * runs exactly once, in the chunks the call defines ([k chunk, (k+1) chunk),
 * the last one short), on a worker index below `parts` — whatever the
 * number of parts, the chunk size, and which thread happens to finish its
 * own share first and take chunks from another's (ownership and stealing,
 * see the comment in rope_threads.c). The rotations' bit-identity across
 * thread counts rests on exactly this.
 */
#include "runner.h"

#include "../src/rope_threads.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct {
    int64_t n, chunk;
    int parts;
    atomic_int *runs;   /* per item */
    atomic_int bad;     /* a wrong worker index or a chunk not on the grid */
} sched_probe;

static void visit(void *ctx, int worker, int64_t begin, int64_t end) {
    sched_probe *p = ctx;
    const int64_t want_end = begin + p->chunk < p->n ? begin + p->chunk : p->n;
    if (worker < 0 || worker >= (p->parts < 1 ? 1 : p->parts) ||
        (p->parts > 1 && p->n > p->chunk && (begin % p->chunk != 0 || end != want_end)))
        atomic_fetch_add(&p->bad, 1);
    for (int64_t i = begin; i < end; i++) atomic_fetch_add(&p->runs[i], 1);
}

TEST(scheduler_runs_every_item_once_on_the_chunk_grid) {
    const int64_t sizes[] = {1, 31, 32, 33, 64, 95, 320, 1000, 4097};
    const int64_t chunks[] = {1, 7, 32, 1000};
    for (int parts = 1; parts <= 9; parts++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (size_t ci = 0; ci < sizeof chunks / sizeof *chunks; ci++) {
                sched_probe p = {sizes[si], chunks[ci], parts, NULL, 0};
                p.runs = calloc((size_t)p.n, sizeof *p.runs);
                CHECK(p.runs != NULL);
                for (int64_t i = 0; i < p.n; i++) atomic_init(&p.runs[i], 0);
                atomic_init(&p.bad, 0);
                pe__parallel_chunks(parts, p.n, p.chunk, visit, &p);
                int64_t wrong = 0;
                for (int64_t i = 0; i < p.n; i++) wrong += atomic_load(&p.runs[i]) != 1;
                CHECK_MSG(wrong == 0 && atomic_load(&p.bad) == 0,
                          "parts %d n %lld chunk %lld: %lld items not run once, %d bad chunks", parts,
                          (long long)p.n, (long long)p.chunk, (long long)wrong, atomic_load(&p.bad));
                free(p.runs);
            }
}
