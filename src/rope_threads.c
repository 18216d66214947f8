/*
 * rope_threads.c — the library's only use of threads: split a job into chunks
 * that the calling thread and threads started and joined inside the call
 * claim in order. Only when the caller asked for threads > 1 and
 * the job is large enough that each part repays a thread's start (tens of
 * microseconds in a VM); otherwise everything runs on the caller's thread.
 */
#include "rope_threads.h"
#include "kernels/kernels.h"

#include <pthread.h>
#include <stdatomic.h>

/* Memory traffic per part below which another thread does not pay: a
 * thread start + join costs ~20-60 us here, the time one core needs to
 * stream ~0.5 MiB; with 2 MiB per part the split wins clearly, and below
 * it the caller's thread alone is never slower. */
#define PE_MIN_BYTES_PER_PART (2.0 * 1024 * 1024)
/* Upper bound on parts, whatever the caller asks. */
#define PE_MAX_PARTS 64

int pe__threads_for(int max_threads, double work, int64_t items) {
    int parts = max_threads < 1 ? 1 : max_threads;
    if (parts > PE_MAX_PARTS) parts = PE_MAX_PARTS;
    const double by_work = work / PE_MIN_BYTES_PER_PART;
    if (by_work < parts) parts = by_work < 1.0 ? 1 : (int)by_work;
    if (items < parts) parts = items < 1 ? 1 : (int)items;
    return parts;
}

/* The end of a chunk: the kernels' stream fence (SFENCE on x86, the one
 * ISA whose sets stream), so kernels that stream (pe__rope_rows.stream)
 * need no fence per token and the chunk's non-temporal stores are ordered
 * before the call returns or the worker is joined (whose own
 * synchronisation orders the ordinary stores). */
static void chunk_done(void) { pe__stream_fence(); }

typedef struct {
    void (*fn)(void *ctx, int worker, int64_t begin, int64_t end);
    void *ctx;
    int64_t n, chunk;
    atomic_llong next; /* first item not yet claimed */
} chunk_job;

typedef struct {
    chunk_job *job;
    int worker;
} chunk_arg;

static void *run_chunks(void *p) {
    const chunk_arg *a = p;
    chunk_job *j = a->job;
    for (;;) {
        const int64_t b = atomic_fetch_add_explicit(&j->next, j->chunk, memory_order_relaxed);
        if (b >= j->n) return NULL;
        j->fn(j->ctx, a->worker, b, j->n - b < j->chunk ? j->n : b + j->chunk);
        chunk_done();
    }
}

void pe__parallel_chunks(int parts, int64_t n, int64_t chunk,
                         void (*fn)(void *ctx, int worker, int64_t begin, int64_t end),
                         void *ctx) {
    if (parts <= 1 || n <= chunk) {
        fn(ctx, 0, 0, n);
        chunk_done();
        return;
    }
    if (parts > PE_MAX_PARTS) parts = PE_MAX_PARTS;
    chunk_job job = {fn, ctx, n, chunk, 0};
    atomic_init(&job.next, 0);
    pthread_t tid[PE_MAX_PARTS];
    chunk_arg args[PE_MAX_PARTS];
    int started[PE_MAX_PARTS] = {0};
    for (int i = 1; i < parts; i++) {
        args[i] = (chunk_arg){&job, i};
        started[i] = pthread_create(&tid[i], NULL, run_chunks, &args[i]) == 0;
    }
    args[0] = (chunk_arg){&job, 0};
    run_chunks(&args[0]); /* a thread that did not start leaves its chunks here */
    for (int i = 1; i < parts; i++)
        if (started[i]) pthread_join(tid[i], NULL);
}
