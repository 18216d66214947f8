/*
 * test_scheduler.c — src/rope_threads.c's pe__parallel_chunks: every item
 * runs exactly once, in the chunks the call defines ([k chunk, (k+1) chunk),
 * the last one short), on a worker index below `parts` — whatever the
 * number of parts, the chunk size, and which thread happens to finish its
 * own share first and take chunks from another's (ownership and stealing,
 * see the comment in rope_threads.c). The rotations' bit-identity across
 * thread counts rests on exactly this. The same holds whoever runs the
 * helpers: threads started per call, a caller's pool (pe_pool), or a
 * caller's parallel-for hook, also one that misbehaves (runs tasks one
 * after another, skips some, repeats or misnumbers them, or fails).
 */
#include "runner.h"

#include "../src/rope_threads.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
    int64_t n, chunk;
    int parts;
    atomic_int *runs;   /* per item */
    atomic_int bad;     /* a wrong worker index or a chunk not on the grid */
    atomic_int busy[64]; /* a worker index in use: two at once would share its scratch */
} sched_probe;

static void visit(void *ctx, int worker, int64_t begin, int64_t end) {
    sched_probe *p = ctx;
    const int64_t want_end = begin + p->chunk < p->n ? begin + p->chunk : p->n;
    if (worker < 0 || worker >= (p->parts < 1 ? 1 : p->parts) ||
        (p->parts > 1 && p->n > p->chunk && (begin % p->chunk != 0 || end != want_end)))
        atomic_fetch_add(&p->bad, 1);
    const int w = worker >= 0 && worker < 64 ? worker : 0;
    if (atomic_exchange(&p->busy[w], 1) != 0) atomic_fetch_add(&p->bad, 1);
    for (int64_t i = begin; i < end; i++) atomic_fetch_add(&p->runs[i], 1);
    if (begin / p->chunk < 4) { /* a window for a second runner of the same index */
        const struct timespec pause = {0, 100000};
        nanosleep(&pause, NULL);
    }
    atomic_store(&p->busy[w], 0);
}

/* Parallel-for hooks, as an engine might write them (ctx: the behaviour). */
typedef enum {
    HOOK_THREADS,    /* one thread per task: the contract */
    HOOK_SERIAL,     /* every task on the calling thread, in reverse order */
    HOOK_SKIP_ODD,   /* runs only even tasks */
    HOOK_FAIL,       /* runs nothing, returns -1 */
    HOOK_DUPLICATES, /* task 0 on two threads at once, task 1 twice in a row */
    HOOK_BAD_INDEX,  /* also tasks -1 and n_tasks */
    HOOK_COUNT
} hook_kind;

typedef struct {
    pe_task_fn fn;
    void *arg;
    int task;
} hook_thread;

static void *hook_thread_main(void *p) {
    hook_thread *h = p;
    h->fn(h->arg, h->task);
    return NULL;
}

static int test_hook(void *ctx, int n_tasks, pe_task_fn fn, void *arg) {
    const hook_kind kind = *(const hook_kind *)ctx;
    if (kind == HOOK_FAIL) return -1;
    if (kind == HOOK_SERIAL || kind == HOOK_SKIP_ODD) {
        for (int t = n_tasks - 1; t >= 0; t--)
            if (kind == HOOK_SERIAL || t % 2 == 0) fn(arg, t);
        return 0;
    }
    if (kind == HOOK_BAD_INDEX) {
        fn(arg, -1);
        fn(arg, n_tasks);
        fn(arg, 1 << 30);
    }
    enum { MAXT = 80 };
    hook_thread h[MAXT];
    pthread_t tid[MAXT];
    int n = 0;
    if (kind == HOOK_DUPLICATES) { /* the copies first, so they overlap the originals */
        h[n++] = (hook_thread){fn, arg, 0};
        if (n_tasks > 1) h[n++] = (hook_thread){fn, arg, 1};
    }
    for (int t = 0; t < n_tasks && n < MAXT; t++) h[n++] = (hook_thread){fn, arg, t};
    int ok[MAXT];
    for (int i = 0; i < n; i++) ok[i] = pthread_create(&tid[i], NULL, hook_thread_main, &h[i]) == 0;
    for (int i = 0; i < n; i++)
        if (ok[i]) pthread_join(tid[i], NULL);
    return 0;
}

/* Which helpers run the chunks. */
enum { RUN_STARTED, RUN_POOL, RUN_HOOK };

static void check_grid(const pe_rope_options *o, int parts, const char *who) {
    const int64_t sizes[] = {1, 31, 32, 33, 64, 95, 320, 1000, 4097};
    const int64_t chunks[] = {1, 7, 32, 1000};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t ci = 0; ci < sizeof chunks / sizeof *chunks; ci++) {
            sched_probe p = {sizes[si], chunks[ci], parts, NULL, 0, {0}};
            for (int w = 0; w < 64; w++) atomic_init(&p.busy[w], 0);
            p.runs = calloc((size_t)p.n, sizeof *p.runs);
            CHECK(p.runs != NULL);
            if (p.runs == NULL) return;
            for (int64_t i = 0; i < p.n; i++) atomic_init(&p.runs[i], 0);
            atomic_init(&p.bad, 0);
            pe__parallel_chunks(o, parts, p.n, p.chunk, visit, &p);
            int64_t wrong = 0;
            for (int64_t i = 0; i < p.n; i++) wrong += atomic_load(&p.runs[i]) != 1;
            CHECK_MSG(wrong == 0 && atomic_load(&p.bad) == 0,
                      "%s parts %d n %lld chunk %lld: %lld items not run once, %d bad chunks",
                      who, parts, (long long)p.n, (long long)p.chunk, (long long)wrong,
                      atomic_load(&p.bad));
            free(p.runs);
        }
}

TEST(scheduler_runs_every_item_once_on_the_chunk_grid) {
    for (int parts = 1; parts <= 9; parts++) check_grid(NULL, parts, "threads");
}

TEST(scheduler_pool_runs_every_item_once_on_the_chunk_grid) {
    for (int parts = 1; parts <= 9; parts++) {
        pe_pool *pool = NULL;
        CHECK(pe_pool_create(parts, &pool) == PE_OK && pool != NULL);
        if (pool == NULL) return;
        pe_rope_options o = pe_rope_options_default();
        o.pool = pool;
        o.threads = parts;
        for (int round = 0; round < 3; round++) check_grid(&o, parts, "pool"); /* reused */
        /* a job of fewer parts than the pool's threads leaves workers idle */
        check_grid(&o, parts > 1 ? parts - 1 : 1, "pool, fewer parts");
        pe_pool_destroy(pool);
    }
}

TEST(scheduler_hook_runs_every_item_once_whatever_the_hook_does) {
    static const char *const names[HOOK_COUNT] = {"threads", "serial",     "skip odd",
                                                  "fails",   "duplicates", "bad index"};
    for (int kind = 0; kind < HOOK_COUNT; kind++) {
        hook_kind k = (hook_kind)kind;
        pe_rope_options o = pe_rope_options_default();
        o.parallel_for = test_hook;
        o.parallel_for_ctx = &k;
        for (int parts = 1; parts <= 9; parts++) {
            o.threads = parts;
            check_grid(&o, parts, names[kind]);
        }
    }
}

/* Two threads calling at once on one pool: both complete on the grid
 * (one of them may run alone while the other has the workers). */
typedef struct {
    pe_rope_options *o;
    int rounds;
} pool_caller;

static void *pool_caller_main(void *p) {
    pool_caller *c = p;
    for (int r = 0; r < c->rounds; r++) check_grid(c->o, 3, "pool, two callers");
    return NULL;
}

TEST(scheduler_pool_shared_by_two_callers) {
    pe_pool *pool = NULL;
    CHECK(pe_pool_create(3, &pool) == PE_OK);
    if (pool == NULL) return;
    pe_rope_options o = pe_rope_options_default();
    o.pool = pool;
    pool_caller c = {&o, 4};
    pthread_t t;
    const int started = pthread_create(&t, NULL, pool_caller_main, &c) == 0;
    CHECK(started);
    pool_caller_main(&c);
    if (started) pthread_join(t, NULL);
    pe_pool_destroy(pool);
}

TEST(scheduler_pool_create_refuses_bad_sizes) {
    pe_pool *const poison = (pe_pool *)&poison, *pool = poison; /* left alone on failure */
    CHECK(pe_pool_create(0, &pool) == PE_ERR_PARAM && pool == poison);
    CHECK(strstr(pe_last_error(), "threads=0") != NULL);
    CHECK(pe_pool_create(65, &pool) == PE_ERR_PARAM && pool == poison);
    CHECK(pe_pool_create(2, NULL) == PE_ERR_NULL);
    CHECK(pe_pool_threads(NULL) == 0);
    pe_pool_destroy(NULL); /* a no-op */
    CHECK(pe_pool_create(1, &pool) == PE_OK && pe_pool_threads(pool) == 1);
    pe_pool_destroy(pool);
}

/* How many parts a job gets (pe__threads_for): the caller's limit, at most
 * one per item, and at most one per 16 MiB of traffic when the helpers are
 * threads started in the call (each costs 60 - 150 us in a VM: below that
 * 2 threads were slower than 1), one per 2 MiB when they are a pool's or a
 * hook's running workers. */
TEST(scheduler_parts_repay_their_helpers) {
    const double MiB = 1024.0 * 1024.0;
    pe_rope_options started = pe_rope_options_default();
    started.threads = 4;
    CHECK(pe__threads_for(NULL, 1e12, 1000) == 1);
    CHECK(pe__threads_for(&started, 32 * MiB - 1, 1000) == 1);
    CHECK(pe__threads_for(&started, 32 * MiB, 1000) == 2);
    CHECK(pe__threads_for(&started, 48 * MiB, 1000) == 3);
    CHECK(pe__threads_for(&started, 1e12, 1000) == 4);
    CHECK(pe__threads_for(&started, 1e12, 3) == 3);
    pe_rope_options running = started;
    hook_kind k = HOOK_SERIAL;
    running.parallel_for = test_hook;
    running.parallel_for_ctx = &k;
    CHECK(pe__threads_for(&running, 4 * MiB - 1, 1000) == 1);
    CHECK(pe__threads_for(&running, 4 * MiB, 1000) == 2);
    CHECK(pe__threads_for(&running, 8 * MiB, 1000) == 4);
    pe_pool *pool = NULL;
    CHECK(pe_pool_create(3, &pool) == PE_OK);
    if (pool == NULL) return;
    pe_rope_options pooled = pe_rope_options_default();
    pooled.pool = pool;
    pooled.threads = 3;
    CHECK(pe__threads_for(&pooled, 6 * MiB, 1000) == 3);
    pe_pool_destroy(pool);
}
