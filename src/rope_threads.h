/*
 * rope_threads.h — the rotations' thread scheduler (rope_threads.c), used by
 * the driver (rope_driver.c), rope.c's cos/sin caches and rope_fused.c. Not a kernel: it
 * knows nothing of instruction sets, only of items and chunks.
 *
 * pe__threads_for: how many parts a job of `work` bytes of memory traffic
 * should be split into, given the caller's limit and the number of independent items; 1 unless each part
 * gets enough work to repay starting a thread (or waking a pool's worker). pe__parallel_chunks: items
 * [0, n) in chunks [k chunk, (k + 1) chunk) that `parts` workers (the
 * caller and parts - 1 helpers: threads started and joined here, or the
 * options' pool's workers, or the tasks of its parallel-for hook) run: each owns an
 * equal contiguous share (the same one every call: cache affinity) and,
 * when done, takes chunks from the back of the largest unfinished share, so
 * a thread that starts late simply runs fewer chunks, and one that cannot
 * be started leaves its share to the others: fn(ctx, worker, begin, end).
 * With one part, fn(ctx, 0, 0, n).
 */
#ifndef PE_ROPE_THREADS_H
#define PE_ROPE_THREADS_H

#include "posenc.h"

#include <stdint.h>

/* o: resolved options (o->threads the caller's limit; a pool or hook
 * lowers the work a part needs), NULL for one thread. */
int pe__threads_for(const pe_rope_options *o, double work, int64_t items);
/* Tokens per chunk of a rotation split into `parts`: whole restart
 * intervals (PE__ROPE_RESTART: every chunk starts its trigonometry afresh,
 * so results do not depend on the split), doubled until a chunk moves
 * about 128 KiB of `traffic` (bytes of the whole job); all tokens when
 * parts is 1. */
int64_t pe__token_chunk(int parts, int64_t tokens, double traffic);
/* o: resolved options (pool or hook, or neither), or NULL for threads
 * started here. */
void pe__parallel_chunks(const pe_rope_options *o, int parts, int64_t n, int64_t chunk,
                         void (*fn)(void *ctx, int worker, int64_t begin, int64_t end),
                         void *ctx);

#endif /* PE_ROPE_THREADS_H */
