/*
 * cpu_place.h — where a thread runs: the CPU it is on now, and a nudge off
 * CPUs that other threads of the same job already occupy (cpu_place.c).
 *
 * Why a pool needs it (issue 31): a worker asleep between calls is woken by
 * the caller, and Linux may place the woken thread on the caller's own CPU
 * (wake-affine; in a VM whose vCPUs each form their own cache domain there
 * is no idle sibling to prefer). Both then run, and spin, on one CPU while
 * another idles, for milliseconds, until the load balancer separates them:
 * measured on a 2-vCPU AMD EPYC (Zen 4) VM, a 512-token rotation on a
 * 2-thread pool took 160 - 234 us in those stretches against 82 - 120 us
 * with the two threads apart (and ~120 us on one thread).
 */
#ifndef PE_CPU_PLACE_H
#define PE_CPU_PLACE_H

#include <stdatomic.h>

/* The CPU the calling thread is running on, or -1 where the system does
 * not say (not Linux). */
int pe__current_cpu(void);

/* When the calling thread runs on one of the n CPUs in busy (entries < 0
 * ignored), moves it to an allowed CPU outside them: its affinity is
 * narrowed to the CPUs it may use minus busy ones, which makes the kernel
 * migrate it at once, and then restored exactly as it was (so the caller's
 * own choice of CPUs, e.g. taskset, stands). Does nothing when it is not
 * on a busy CPU, when every CPU it may use is busy, or where the system
 * has no affinity (not Linux). Returns the CPU it runs on afterwards (-1
 * where unknown). Never changes a result: which thread runs a part of a
 * job never does. */
int pe__step_off_cpus(const int *busy, int n);

/* Most threads of one job the two calls below place. */
#define PE_PLACE_MAX_THREADS 64

/* A job of n threads (n <= PE_PLACE_MAX_THREADS) whose threads record
 * where they run in cpus[0..n): the posting thread, thread 0, records its
 * CPU and marks the others not yet placed (-1). */
void pe__job_cpus_post(atomic_int *cpus, int n);
/* Thread `me` of such a job, before its part: off any CPU another thread
 * of the job has recorded (pe__step_off_cpus), then its own CPU recorded
 * for those that come later. */
void pe__job_cpus_take(atomic_int *cpus, int n, int me);

#endif /* PE_CPU_PLACE_H */
