/*
 * cpu_place.c — the CPU a thread is on, and the nudge off busy CPUs
 * (cpu_place.h says why a pool needs it). Linux only: sched_getcpu and
 * sched_setaffinity are GNU extensions; elsewhere both are no-ops.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif

#include "cpu_place.h"

#if defined(__linux__)

int pe__current_cpu(void) { return sched_getcpu(); }

static int is_busy(int cpu, const int *busy, int n) {
    for (int i = 0; i < n; i++)
        if (busy[i] == cpu) return 1; /* cpu >= 0: entries < 0 never match */
    return 0;
}

int pe__step_off_cpus(const int *busy, int n) {
    const int cpu = sched_getcpu();
    if (cpu < 0 || !is_busy(cpu, busy, n)) return cpu;
    cpu_set_t allowed, elsewhere;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return cpu;
    elsewhere = allowed;
    for (int i = 0; i < n; i++)
        if (busy[i] >= 0 && busy[i] < CPU_SETSIZE) CPU_CLR(busy[i], &elsewhere);
    if (CPU_COUNT(&elsewhere) == 0) return cpu; /* nowhere else to go */
    if (sched_setaffinity(0, sizeof elsewhere, &elsewhere) != 0) return cpu;
    const int moved = sched_getcpu();
    /* the thread stays where it now is: its CPU is in the restored set */
    (void)sched_setaffinity(0, sizeof allowed, &allowed);
    return moved;
}

#else

int pe__current_cpu(void) { return -1; }

int pe__step_off_cpus(const int *busy, int n) {
    (void)busy;
    (void)n;
    return -1;
}

#endif

void pe__job_cpus_post(atomic_int *cpus, int n) {
    if (n > PE_PLACE_MAX_THREADS) n = PE_PLACE_MAX_THREADS;
    atomic_store_explicit(&cpus[0], pe__current_cpu(), memory_order_relaxed);
    for (int w = 1; w < n; w++) atomic_store_explicit(&cpus[w], -1, memory_order_relaxed);
}

void pe__job_cpus_take(atomic_int *cpus, int n, int me) {
    if (n > PE_PLACE_MAX_THREADS) n = PE_PLACE_MAX_THREADS;
    if (me < 0 || me >= n) return;
    int busy[PE_PLACE_MAX_THREADS], nb = 0;
    for (int w = 0; w < n; w++)
        if (w != me) busy[nb++] = atomic_load_explicit(&cpus[w], memory_order_relaxed);
    atomic_store_explicit(&cpus[me], pe__step_off_cpus(busy, nb), memory_order_relaxed);
}
