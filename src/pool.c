/*
 * pool.c — pe_pool: worker threads that outlive a call. Starting and
 * joining a thread per call costs 60 - 75 us in a 2-vCPU VM, more than
 * the work of a 512-token rotation (issue 31), so an engine that rotates
 * every layer of every step keeps its workers here instead.
 *
 * Protocol. A call posts a job (task, arg, parts) under the lock, bumps
 * the generation and wakes the workers; worker w < parts runs task(arg, w)
 * and counts itself done; the caller runs worker 0 and then waits for the
 * count to reach zero. Between jobs a worker spins on the generation for
 * about 50 us (the next layer's call usually comes sooner) before it
 * sleeps on the condition variable; the caller spins as long for the
 * others before it sleeps. `use` lets one call at a time have the workers:
 * a second caller is told so (pe__pool_run returns false) and runs its
 * job alone, which gives the same result, so concurrent calls are safe and
 * never wait on each other.
 *
 * Placement. A worker that finds itself on a CPU another thread of the
 * same job already runs on (the caller's, where Linux often wakes it, or
 * another worker's) steps off it before its task (cpu_place.h): two
 * threads of one job sharing a CPU while another idles made a 2-thread
 * call slower than one thread for milliseconds at a time.
 */
#include "internal.h"
#include "cpu_place.h"
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(PE_POOL_MAX_THREADS <= PE_PLACE_MAX_THREADS, "a pool's threads are placed");

/* Spin rounds before sleeping (a pause each: ~50 us on x86). */
#define PE_POOL_SPIN 2000

struct pe_pool {
    int threads;             /* as created: workers + the caller */
    int workers;             /* started: threads - 1 */
    pthread_t tid[PE_POOL_MAX_THREADS];
    pthread_mutex_t lock;    /* guards gen, stop and the job fields */
    pthread_cond_t wake;     /* a new job or stop */
    pthread_cond_t done;     /* pending reached zero */
    pthread_mutex_t use;     /* held by the call that has the workers */
    uint64_t gen;            /* jobs posted */
    atomic_uint_fast64_t gen_seen; /* gen, for workers spinning without the lock */
    int stop;
    void (*task)(void *arg, int worker);
    void *arg;
    int parts;
    atomic_int pending;      /* workers of the current job still running */
    /* the CPU each thread of the current job runs on (-1: not yet or
     * unknown; slot 0 the caller's, set when the job is posted) */
    atomic_int cpu[PE_POOL_MAX_THREADS];
};

typedef struct {
    pe_pool *pool;
    int index;
} worker_start;

/* One round of a spin: a pause, and every 64th round the CPU given to any
 * other runnable thread (a machine with more threads than cores: the one
 * we wait for may need this core). */
static void relax(int round) {
    if (round % 64 == 63) {
        sched_yield();
        return;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void *worker_main(void *p_) {
    worker_start *ws = p_;
    pe_pool *p = ws->pool;
    const int me = ws->index;
    free(ws);
    uint64_t seen = 0;
    for (;;) {
        for (int i = 0; i < PE_POOL_SPIN &&
                        atomic_load_explicit(&p->gen_seen, memory_order_acquire) == seen;
             i++)
            relax(i);
        pthread_mutex_lock(&p->lock);
        while (p->gen == seen && !p->stop) pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        seen = p->gen;
        void (*task)(void *, int) = p->task;
        void *arg = p->arg;
        const int parts = p->parts;
        pthread_mutex_unlock(&p->lock);
        if (me >= parts) continue; /* a job of fewer parts than workers */
        pe__job_cpus_take(p->cpu, parts, me);
        task(arg, me);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->lock); /* the caller may be asleep on done */
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

/* Stop and join the first `started` workers (create's failure path, destroy). */
static void stop_workers(pe_pool *p, int started) {
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int w = 0; w < started; w++) pthread_join(p->tid[w], NULL);
}

static void free_pool(pe_pool *p) {
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->use);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

int pe_pool_create(int threads, pe_pool **out) {
    if (threads < 1 || threads > PE_POOL_MAX_THREADS)
        return pe__fail(PE_ERR_PARAM, "pool threads=%d must be in [1, %d]", threads,
                        PE_POOL_MAX_THREADS);
    PE_CHECK_NULL(out);
    pe_pool *p = calloc(1, sizeof *p);
    if (p == NULL) return pe__fail(PE_ERR_NOMEM, "pool: out of memory");
    p->threads = threads;
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return pe__fail(PE_ERR_NOMEM, "pool: cannot create a mutex");
    }
    if (pthread_mutex_init(&p->use, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return pe__fail(PE_ERR_NOMEM, "pool: cannot create a mutex");
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->use);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return pe__fail(PE_ERR_NOMEM, "pool: cannot create a condition variable");
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->use);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return pe__fail(PE_ERR_NOMEM, "pool: cannot create a condition variable");
    }
    atomic_init(&p->gen_seen, 0);
    atomic_init(&p->pending, 0);
    for (int w = 0; w < PE_POOL_MAX_THREADS; w++) atomic_init(&p->cpu[w], -1);
    for (int w = 1; w < threads; w++) {
        worker_start *ws = malloc(sizeof *ws);
        int err = ws == NULL ? -1 : 0;
        if (ws != NULL) {
            ws->pool = p;
            ws->index = w;
            err = pthread_create(&p->tid[w - 1], NULL, worker_main, ws);
            if (err != 0) free(ws);
        }
        if (err != 0) {
            stop_workers(p, w - 1);
            free_pool(p);
            return pe__fail(PE_ERR_NOMEM, "pool: could not start worker %d of %d%s%s", w,
                            threads - 1, err > 0 ? ": " : "", err > 0 ? strerror(err) : "");
        }
        p->workers = w;
    }
    *out = p;
    return PE_OK;
}

void pe_pool_destroy(pe_pool *pool) {
    if (pool == NULL) return;
    stop_workers(pool, pool->workers);
    free_pool(pool);
}

int pe_pool_threads(const pe_pool *pool) { return pool ? pool->threads : 0; }

int pe__pool_cpu(const pe_pool *pool, int w) {
    if (pool == NULL || w < 0 || w >= PE_POOL_MAX_THREADS) return -1;
    return atomic_load_explicit(&((pe_pool *)pool)->cpu[w], memory_order_relaxed);
}

bool pe__pool_run(pe_pool *p, int parts, void (*task)(void *arg, int worker), void *arg) {
    if (parts > p->threads) parts = p->threads; /* resolved options never ask more */
    if (pthread_mutex_trylock(&p->use) != 0) return false;
    pthread_mutex_lock(&p->lock);
    p->task = task;
    p->arg = arg;
    p->parts = parts;
    pe__job_cpus_post(p->cpu, p->threads); /* every worker's slot: -1 also when not in the job */
    atomic_store_explicit(&p->pending, parts - 1, memory_order_relaxed);
    p->gen++;
    atomic_store_explicit(&p->gen_seen, p->gen, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    task(arg, 0);
    for (int i = 0; i < PE_POOL_SPIN &&
                    atomic_load_explicit(&p->pending, memory_order_acquire) != 0;
         i++)
        relax(i);
    if (atomic_load_explicit(&p->pending, memory_order_acquire) != 0) {
        pthread_mutex_lock(&p->lock);
        while (atomic_load_explicit(&p->pending, memory_order_acquire) != 0)
            pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
    pthread_mutex_unlock(&p->use);
    return true;
}
