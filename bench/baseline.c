/*
 * baseline.c — the portable baselines (plain loops; the compiler vectorizes
 * them with the default instruction set) and the choice of the set that
 * matches the active kernels (base_avx2.c, base_avx512.c on x86-64,
 * base_neon.c on AArch64; the scalar set gets these), plus the threaded
 * split the baselines use (on workers kept between calls, as a pe_pool
 * keeps the library's).
 */
#include "bench.h"

#include "../src/cpu_place.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static void scale_f32(float *x, size_t n, float c) {
    for (size_t i = 0; i < n; i++) x[i] *= c;
}

/* Minimal f16/bf16 conversions (round to nearest even) for the portable
 * baseline; finite values only, which is all the bench stores. */
static float f16_to_f32(uint16_t h) {
    const uint32_t e = (h >> 10) & 31, m = h & 1023;
    float v = e ? (float)(1024 + m) * ((float)(1u << e) * 0x1p-25f) : (float)m * 0x1p-24f;
    return (h & 0x8000) ? -v : v;
}

static uint16_t f32_to_f16(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    const uint32_t a = u & 0x7FFFFFFF;
    if (a >= 0x477FF000u) return sign | 0x7C00;
    if (a < 0x38800000u) {
        float v;
        memcpy(&v, &a, 4);
        return sign | (uint16_t)((v * 0x1p24f + 0x1p23f) - 0x1p23f);
    }
    return sign | (uint16_t)((a + 0xFFF + ((a >> 13) & 1) - 0x38000000u) >> 13);
}

static void scale_f16(uint16_t *x, size_t n, float c) {
    for (size_t i = 0; i < n; i++) x[i] = f32_to_f16(f16_to_f32(x[i]) * c);
}

static void scale_bf16(uint16_t *x, size_t n, float c) {
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)x[i] << 16;
        float f;
        memcpy(&f, &u, 4);
        f *= c;
        memcpy(&u, &f, 4);
        x[i] = (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
    }
}

static void copy_nt(float *dst, const float *src, size_t n) {
#if defined(__SSE2__)
    size_t i = 0;
    for (; i < n && ((uintptr_t)(dst + i) & 15) != 0; i++) dst[i] = src[i];
    for (; i + 4 <= n; i += 4) _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
    for (; i < n; i++) dst[i] = src[i];
    _mm_sfence();
#else
    memcpy(dst, src, n * sizeof(float));
#endif
}

const bench_baselines bench_base_generic = {"generic", scale_f32, scale_f16, scale_bf16,
                                            copy_nt};

const bench_baselines *bench_baselines_for(const char *kernels) {
#if defined(__x86_64__)
    if (strcmp(kernels, "avx512") == 0) return &bench_base_avx512;
    if (strcmp(kernels, "avx2") == 0) return &bench_base_avx2;
#endif
#if defined(__aarch64__)
    if (strcmp(kernels, "neon") == 0) return &bench_base_neon;
#endif
    (void)kernels;
    return &bench_base_generic;
}

void bench_fill(float *x, size_t n, uint64_t seed, double amp) {
    uint64_t z = seed;
    for (size_t i = 0; i < n; i++) {
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (float)((double)(z >> 11) * (0x1p-52 * amp) - amp);
    }
}

/* The library's rule for running workers (src/rope_threads.c; the _2t
 * cases run on a pe_pool): a part per 2 MiB of traffic at most, so a
 * baseline never pays for threads the library would not wake either. */
#define MIN_BYTES_PER_PART (2.0 * 1024 * 1024)

typedef struct {
    void (*fn)(void *ctx, size_t begin, size_t end);
    void *ctx;
    size_t begin, end;
} part;

/*
 * The baselines' workers persist between calls as the library's do when
 * the _2t cases run on a pe_pool (src/pool.c): started on first use, they
 * wait between calls the same way (spinning ~2000 pause rounds, a yield
 * every 64th, then asleep on a condition variable), so a _2t ratio
 * compares work with work, not a thread start per baseline call with a
 * pool's wake-up (issue 31: 60 - 75 us per start in a 2-vCPU VM, the size
 * of a 512-token call), and are placed the same way: a worker on a CPU
 * the job's caller or another worker holds steps off it (src/cpu_place.h),
 * or a baseline slowed by two threads sharing a CPU would flatter the
 * _2t ratios. Stopped by bench_parallel_stop. Only the bench thread posts
 * jobs, one at a time.
 */
enum { MAX_PARTS = PE_PLACE_MAX_THREADS, SPIN = 2000 };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    pthread_t tid[MAX_PARTS];
    int workers; /* started: parts 1..workers */
    int stop;
    uint64_t gen;                  /* jobs posted (under lock) */
    atomic_uint_fast64_t gen_seen; /* gen, for spinning without the lock */
    part job[MAX_PARTS];
    int parts;
    atomic_int pending; /* parts 1..parts-1 still running */
    atomic_int cpu[MAX_PARTS]; /* each thread's CPU in the current job (-1: not yet) */
} wp = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

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

static void *worker(void *arg) {
    const int me = (int)(intptr_t)arg;
    uint64_t seen = 0;
    for (;;) {
        for (int i = 0; i < SPIN && atomic_load_explicit(&wp.gen_seen, memory_order_acquire) == seen;
             i++)
            relax(i);
        pthread_mutex_lock(&wp.lock);
        while (wp.gen == seen && !wp.stop) pthread_cond_wait(&wp.wake, &wp.lock);
        if (wp.stop) {
            pthread_mutex_unlock(&wp.lock);
            return NULL;
        }
        seen = wp.gen;
        const int parts = wp.parts, mine = me < parts;
        const part job = mine ? wp.job[me] : (part){NULL, NULL, 0, 0};
        pthread_mutex_unlock(&wp.lock);
        if (!mine) continue;
        pe__job_cpus_take(wp.cpu, parts, me);
        job.fn(job.ctx, job.begin, job.end);
        if (atomic_fetch_sub_explicit(&wp.pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&wp.lock);
            pthread_cond_signal(&wp.done);
            pthread_mutex_unlock(&wp.lock);
        }
    }
}

/* Workers for parts 1..parts-1; fewer when a thread cannot start. */
static int workers_for(int parts) {
    while (wp.workers < parts - 1 &&
           pthread_create(&wp.tid[wp.workers + 1], NULL, worker,
                          (void *)(intptr_t)(wp.workers + 1)) == 0)
        wp.workers++;
    return wp.workers + 1 < parts ? wp.workers + 1 : parts;
}

void bench_parallel_stop(void) {
    pthread_mutex_lock(&wp.lock);
    wp.stop = 1;
    pthread_cond_broadcast(&wp.wake);
    pthread_mutex_unlock(&wp.lock);
    for (int i = 1; i <= wp.workers; i++) pthread_join(wp.tid[i], NULL);
    wp.workers = 0;
    wp.stop = 0;
}

void bench_parallel(int threads, size_t n, double traffic_bytes,
                    void (*fn)(void *ctx, size_t begin, size_t end), void *ctx) {
    int parts = threads < 1 ? 1 : threads > MAX_PARTS ? MAX_PARTS : threads;
    if (traffic_bytes / MIN_BYTES_PER_PART < parts)
        parts = traffic_bytes < MIN_BYTES_PER_PART ? 1 : (int)(traffic_bytes / MIN_BYTES_PER_PART);
    if (parts > 1) parts = workers_for(parts);
    if (parts <= 1) {
        fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&wp.lock);
    for (int i = 0; i < parts; i++) {
        /* boundaries on 64-byte multiples of 4-byte elements, so streaming
         * stores stay aligned */
        size_t b = n * (size_t)i / (size_t)parts, e = n * (size_t)(i + 1) / (size_t)parts;
        b &= ~(size_t)15;
        if (i + 1 < parts) e &= ~(size_t)15;
        wp.job[i] = (part){fn, ctx, b, e};
    }
    wp.parts = parts;
    pe__job_cpus_post(wp.cpu, MAX_PARTS);
    atomic_store_explicit(&wp.pending, parts - 1, memory_order_relaxed);
    wp.gen++;
    atomic_store_explicit(&wp.gen_seen, wp.gen, memory_order_release);
    pthread_cond_broadcast(&wp.wake);
    pthread_mutex_unlock(&wp.lock);
    fn(ctx, wp.job[0].begin, wp.job[0].end); /* read after unlock: only this thread writes it */
    for (int i = 0; i < SPIN && atomic_load_explicit(&wp.pending, memory_order_acquire) > 0; i++)
        relax(i);
    pthread_mutex_lock(&wp.lock);
    while (atomic_load_explicit(&wp.pending, memory_order_acquire) > 0)
        pthread_cond_wait(&wp.done, &wp.lock);
    pthread_mutex_unlock(&wp.lock);
}
