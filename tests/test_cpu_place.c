/*
 * test_cpu_place.c — src/cpu_place.c's step off busy CPUs, and a pool
 * worker that finds itself on its caller's CPU leaving it (pool.c, issue
 * 31: two threads of one job sharing a CPU while another idled made a
 * 2-thread rotation slower than one thread). Linux only (elsewhere the
 * functions are no-ops and the tests skip); they need a thread allowed on
 * at least two CPUs, and restore every affinity they change.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif

#include "runner.h"

#include "../src/cpu_place.h"
#include "../src/pool.h"

#if defined(__linux__)

/* The calling thread's allowed CPUs into `allowed`, or the test skips
 * (SKIP returns) when there are fewer than two. */
#define TWO_CPUS_OR_SKIP(allowed)                                                     \
    do {                                                                              \
        if (pe__current_cpu() < 0) SKIP("the system gives no CPU numbers");           \
        if (sched_getaffinity(0, sizeof(allowed), &(allowed)) != 0 ||                 \
            CPU_COUNT(&(allowed)) < 2)                                                \
            SKIP("this thread may run on one CPU only");                              \
    } while (0)

static int same_affinity(const cpu_set_t *want) {
    cpu_set_t now;
    return sched_getaffinity(0, sizeof now, &now) == 0 && CPU_EQUAL(&now, want);
}

TEST(cpu_place_steps_off_a_busy_cpu_and_restores_the_affinity) {
    cpu_set_t allowed;
    TWO_CPUS_OR_SKIP(allowed);
    const int here = pe__current_cpu();
    const int busy[3] = {-1, here, -7}; /* negative entries are ignored */
    const int moved = pe__step_off_cpus(busy, 3);
    CHECK(moved >= 0 && moved != here);
    CHECK(CPU_ISSET(moved, &allowed));
    CHECK(same_affinity(&allowed)); /* restored as it was */
}

TEST(cpu_place_stays_when_its_cpu_is_not_busy_or_nowhere_else_is_free) {
    cpu_set_t allowed;
    TWO_CPUS_OR_SKIP(allowed);
    /* only this CPU allowed: busy or not, there is nowhere to go */
    const int here = pe__current_cpu();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(here, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    const int at = pe__current_cpu();
    CHECK(pe__step_off_cpus(&at, 1) == at);
    CHECK(same_affinity(&one));
    CHECK(sched_setaffinity(0, sizeof allowed, &allowed) == 0);
    /* a busy list without this CPU: no move, no change */
    const int now = pe__current_cpu(), other = now == 0 ? 1 : 0;
    const int r = pe__step_off_cpus(&other, 1);
    CHECK(r >= 0 && r != other);
    CHECK(same_affinity(&allowed));
}

static void nothing(void *arg, int worker) {
    (void)arg;
    (void)worker;
}

TEST(pool_worker_leaves_the_cpu_its_caller_runs_on) {
    cpu_set_t allowed;
    TWO_CPUS_OR_SKIP(allowed);
    pe_pool *pool = NULL;
    CHECK(pe_pool_create(2, &pool) == PE_OK);
    if (pool == NULL) return;
    CHECK(pe__pool_run(pool, 2, nothing, NULL));
    const int worker_cpu = pe__pool_cpu(pool, 1);
    CHECK(worker_cpu >= 0);
    /* the caller moves onto the worker's CPU (the worker, spinning there,
     * stays unless the kernel moves it): the next job must find the
     * worker elsewhere */
    cpu_set_t there;
    CPU_ZERO(&there);
    CPU_SET(worker_cpu >= 0 ? worker_cpu : 0, &there);
    CHECK(sched_setaffinity(0, sizeof there, &there) == 0);
    for (int round = 0; round < 5; round++) {
        CHECK(pe__pool_run(pool, 2, nothing, NULL));
        CHECK(pe__pool_cpu(pool, 0) == worker_cpu);
        CHECK(pe__pool_cpu(pool, 1) >= 0 && pe__pool_cpu(pool, 1) != worker_cpu);
    }
    CHECK(sched_setaffinity(0, sizeof allowed, &allowed) == 0);
    pe_pool_destroy(pool);
}

#else

TEST(cpu_place_steps_off_a_busy_cpu_and_restores_the_affinity) {
    const int busy = 0;
    CHECK(pe__current_cpu() == -1 && pe__step_off_cpus(&busy, 1) == -1);
    SKIP("no CPU affinity on this system: the placement is a no-op");
}

#endif
