/*
 * pool.h — a caller-owned pool of persistent worker threads (pe_pool,
 * pool.c): the workers of a multi-threaded call kept alive between calls.
 * Knows nothing of chunks or rotations: it runs task(arg, w) for
 * w in [1, parts) on its workers while the calling thread runs w = 0, and
 * returns when all have finished. The scheduler (rope_threads.c) decides
 * what a task does.
 */
#ifndef PE_POOL_H
#define PE_POOL_H

#include "posenc.h"

#include <stdbool.h>

/* Most threads of a pool, the caller's included (the scheduler's most parts). */
#define PE_POOL_MAX_THREADS 64

/* Run task(arg, w) for every w in [0, parts): 0 on the calling thread,
 * the others on workers 1 .. parts - 1 (parts <= pe_pool_threads(pool)).
 * Returns false, having run nothing, when another call is using the
 * workers: the caller then runs the job on its own thread. */
bool pe__pool_run(pe_pool *pool, int parts, void (*task)(void *arg, int worker), void *arg);

/* The CPU thread w (0: the caller) of the pool's last job ran its part on,
 * as the pool recorded it before the part (-1: unknown, or not in the
 * job); for tests and diagnostics. */
int pe__pool_cpu(const pe_pool *pool, int w);

#endif /* PE_POOL_H */
