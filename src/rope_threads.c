/*
 * rope_threads.c — the rotations' scheduler: split a job into chunks that
 * the calling thread and its helpers claim. The helpers are threads started
 * and joined inside the call, the workers of a caller's pool (pool.c), or
 * the tasks a caller's parallel-for hook runs; which of the three never
 * changes the chunks (they are fixed by the parts and the job), so never
 * the result. Only when the caller asked for threads > 1 and the job is
 * large enough that each part repays a thread's start (tens of
 * microseconds in a VM); otherwise everything runs on the caller's thread.
 */
#include "rope_threads.h"
#include "pool.h"
#include "kernels/kernels.h"

#include <pthread.h>
#include <stdatomic.h>

/*
 * Memory traffic per part below which another part does not pay, by who
 * runs the helpers. Measured on the Zen 4 EPYC (2 vCPUs under KVM; f32
 * rotation in place, 32 heads x 128; each configuration called 42 times
 * in blocks, medians):
 *   - workers already running (a caller's pool or parallel-for hook): a
 *     wake-up costs a few microseconds; 2 parts against 1 ranged from
 *     0.6x to 1.25x at 2 - 4 MiB per part (the host's speed moved between
 *     runs) and won clearly from 6 MiB per part: 2 MiB stays the rule;
 *   - threads started and joined in the call (60 - 150 us each here): 2
 *     parts took 1.3 - 1.5x the time of 1 at 4 - 8 MiB per part (the
 *     512-token rotation on 2 threads slower than on 1, issue 31), 0.9 -
 *     1.2x at 12 MiB per part, and won in every run from 16 MiB per part
 *     (0.5 - 0.9x).
 */
#define PE_MIN_BYTES_PER_PART_RUNNING (2.0 * 1024 * 1024)
#define PE_MIN_BYTES_PER_PART_STARTED (16.0 * 1024 * 1024)
/* Upper bound on parts, whatever the caller asks. */
#define PE_MAX_PARTS 64

int pe__threads_for(const pe_rope_options *o, double work, int64_t items) {
    int parts = o == NULL || o->threads < 1 ? 1 : o->threads;
    if (parts > PE_MAX_PARTS) parts = PE_MAX_PARTS;
    const int running = o != NULL && (o->pool != NULL || o->parallel_for != NULL);
    const double by_work =
        work / (running ? PE_MIN_BYTES_PER_PART_RUNNING : PE_MIN_BYTES_PER_PART_STARTED);
    if (by_work < parts) parts = by_work < 1.0 ? 1 : (int)by_work;
    if (items < parts) parts = items < 1 ? 1 : (int)items;
    return parts;
}

int64_t pe__token_chunk(int parts, int64_t tokens, double traffic) {
    if (parts <= 1 || tokens <= 0) return tokens;
    const double token_bytes = traffic / (double)tokens;
    int64_t chunk = PE__ROPE_RESTART;
    while (chunk < tokens && (double)chunk * token_bytes < 128.0 * 1024) chunk *= 2;
    return chunk;
}

/* The end of a chunk: the kernels' stream fence (SFENCE on x86, the one
 * ISA whose sets stream), so kernels that stream (pe__rope_rows.stream)
 * need no fence per token and the chunk's non-temporal stores are ordered
 * before the call returns or the worker is joined (whose own
 * synchronisation orders the ordinary stores). */
static void chunk_done(void) { pe__stream_fence(); }

/*
 * Who runs which chunk. Worker w owns a contiguous run of chunks (the w-th
 * of `parts` equal shares) and takes them from the front; a worker whose
 * own run is done takes single chunks from the back of the run with the
 * most left. Owning the same share call after call keeps a buffer that
 * fits in the caches in the cache of the core that last wrote it: with one
 * shared counter the chunks went to whichever thread came first, and
 * in-place rotations of cache-sized tensors on 2 threads ran 1.2 - 1.5x
 * the time of a statically split `x *= c` (AMD EPYC, 2 vCPUs; bench
 * rope_inplace_*_2t). Stealing from the back keeps what a late-started
 * thread cannot do on the threads that are running. Which worker runs a
 * chunk never changes its result (chunks start afresh).
 */
typedef struct {
    void (*fn)(void *ctx, int worker, int64_t begin, int64_t end);
    void *ctx;
    int64_t n, chunk;
    int parts;
    pthread_mutex_t lock; /* guards front, back: a claim per chunk of >= 128 KiB of work */
    int64_t front[PE_MAX_PARTS], back[PE_MAX_PARTS]; /* worker w's unclaimed chunks */
    /* worker w has run (a hook may repeat an index: one runner per index,
     * since the index chooses the scratch) */
    atomic_int taken[PE_MAX_PARTS];
} chunk_job;

/* The next chunk for worker w: its own front, else the back of the
 * largest remaining run; -1 when none is left. */
static int64_t claim(chunk_job *j, int w) {
    int64_t k = -1;
    pthread_mutex_lock(&j->lock);
    if (j->front[w] < j->back[w]) {
        k = j->front[w]++;
    } else {
        int victim = -1;
        int64_t most = 0;
        for (int v = 0; v < j->parts; v++)
            if (j->back[v] - j->front[v] > most) most = j->back[v] - j->front[v], victim = v;
        if (victim >= 0) k = --j->back[victim];
    }
    pthread_mutex_unlock(&j->lock);
    return k;
}

static void run_claims(chunk_job *j, int w) {
    for (int64_t k; (k = claim(j, w)) >= 0;) {
        const int64_t b = k * j->chunk;
        j->fn(j->ctx, w, b, j->n - b < j->chunk ? j->n : b + j->chunk);
        chunk_done();
    }
}

/* Worker w's part: its share, then what it can take from others. A task
 * index outside [0, parts) or one already run does nothing. */
static void run_worker(void *p, int w) {
    chunk_job *j = p;
    if (w < 0 || w >= j->parts || atomic_exchange(&j->taken[w], 1) != 0) return;
    run_claims(j, w);
}

typedef struct {
    chunk_job *job;
    int worker;
} chunk_arg;

static void *thread_main(void *p) {
    const chunk_arg *a = p;
    run_worker(a->job, a->worker);
    return NULL;
}

/* Everything on the caller's thread (fn(ctx, 0, 0, n)). */
static void run_alone(void (*fn)(void *ctx, int worker, int64_t begin, int64_t end), void *ctx,
                      int64_t n) {
    fn(ctx, 0, 0, n);
    chunk_done();
}

/* Threads started here and joined before returning. */
static void run_started(chunk_job *job) {
    pthread_t tid[PE_MAX_PARTS];
    chunk_arg args[PE_MAX_PARTS];
    int started[PE_MAX_PARTS] = {0};
    for (int i = 1; i < job->parts; i++) {
        args[i] = (chunk_arg){job, i};
        started[i] = pthread_create(&tid[i], NULL, thread_main, &args[i]) == 0;
    }
    run_worker(job, 0); /* a thread that did not start leaves its chunks here */
    for (int i = 1; i < job->parts; i++)
        if (started[i]) pthread_join(tid[i], NULL);
}

void pe__parallel_chunks(const pe_rope_options *o, int parts, int64_t n, int64_t chunk,
                         void (*fn)(void *ctx, int worker, int64_t begin, int64_t end),
                         void *ctx) {
    if (parts <= 1 || n <= chunk) { /* before the job's 1 KiB is touched: decode steps */
        run_alone(fn, ctx, n);
        return;
    }
    if (parts > PE_MAX_PARTS) parts = PE_MAX_PARTS;
    chunk_job job = {.fn = fn, .ctx = ctx, .n = n, .chunk = chunk, .parts = parts};
    if (pthread_mutex_init(&job.lock, NULL) != 0) {
        run_alone(fn, ctx, n);
        return;
    }
    const int64_t chunks = n / chunk + (n % chunk != 0);
    for (int w = 0; w < parts; w++) { /* equal shares: chunks * w / parts without overflow */
        job.front[w] = chunks / parts * w + chunks % parts * w / parts;
        job.back[w] = chunks / parts * (w + 1) + chunks % parts * (w + 1) / parts;
        atomic_init(&job.taken[w], 0);
    }
    if (o != NULL && o->pool != NULL) {
        if (!pe__pool_run(o->pool, parts, run_worker, &job))
            run_worker(&job, 0); /* the pool is busy with another call: alone */
    } else if (o != NULL && o->parallel_for != NULL) {
        (void)o->parallel_for(o->parallel_for_ctx, parts, run_worker, &job);
        /* what the hook left (it failed, skipped or misnumbered tasks): here,
         * after every task it started has finished (its contract) */
        run_claims(&job, 0);
    } else {
        run_started(&job);
    }
    pthread_mutex_destroy(&job.lock);
}
