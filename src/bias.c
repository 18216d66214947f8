/*
 * bias.c — attention biases (SPEC §3): ALiBi slopes and bias matrices, T5
 * relative-position buckets and the bias a per-head bucket table gives.
 * Biases are added to the logits and leave q and k alone; every fill writes
 * (heads, n_q, n_k) so that one head's slice is a pe_attention bias as is,
 * with pe_attention's convention that query i sits at key i + n_k - n_q.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ ALiBi */

static int check_heads(int64_t heads) {
    if (heads < 1)
        return pe__fail(PE_ERR_PARAM, "heads=%lld must be >= 1", (long long)heads);
    return PE_OK;
}

/* Largest power of two <= n (n >= 1). */
static uint64_t pow2_floor(uint64_t n) {
    uint64_t c = 1;
    while (c <= n / 2) c *= 2;
    return c;
}

/*
 * m_h = 2^-E with E = 8(h+1)/c (h < c) or 4(2(h-c)+1)/c (the odd multiples
 * of the 2c-head ladder, Press et al.'s fill-in for non-powers of two).
 * E is a dyadic rational, exact in long double (h < 2^63, c a power of two),
 * and lies in (0, 8]. An integer E gives an exact power of two (always the
 * case for c <= 8); otherwise 2^-frac is evaluated in long double and
 * rounded once to double, the power-of-two part applied exactly by ldexp
 * (the result is >= 2^-8, far from subnormal).
 */
static double alibi_slope(uint64_t h, uint64_t c) {
    long double num = h < c ? 8.0L * (long double)(h + 1)
                            : 4.0L * (2.0L * (long double)(h - c) + 1.0L);
    long double e = num / (long double)c;
    long double ip = floorl(e);
    long double frac = e - ip;
    if (frac == 0.0L) return ldexp(1.0, -(int)ip);
    return ldexp((double)exp2l(-frac), -(int)ip);
}

int pe_alibi_slopes(int64_t heads, double *slopes) {
    PE_TRY(check_heads(heads));
    PE_CHECK_NULL(slopes);
    const uint64_t c = pow2_floor((uint64_t)heads);
    for (int64_t h = 0; h < heads; h++) slopes[h] = alibi_slope((uint64_t)h, c);
    return PE_OK;
}

/* heads * n_q * n_k elements of esz bytes, or an overflow failure. */
static int bias_size(int64_t heads, int64_t n_q, int64_t n_k, size_t esz,
                     size_t *count) {
    size_t qk = 0, total = 0;
    if (!pe__mul_size(n_q, n_k, &qk) || qk > (size_t)INT64_MAX ||
        !pe__mul_size(heads, (int64_t)qk, &total) || total > SIZE_MAX / esz)
        return pe__fail(PE_ERR_OVERFLOW,
                        "heads=%lld x n_q=%lld x n_k=%lld overflows size_t",
                        (long long)heads, (long long)n_q, (long long)n_k);
    *count = total;
    return PE_OK;
}

static int check_lengths(int64_t n_q, int64_t n_k) {
    if (n_q < 0 || n_k < 0)
        return pe__fail(PE_ERR_SHAPE, "n_q=%lld and n_k=%lld must be >= 0",
                        (long long)n_q, (long long)n_k);
    return PE_OK;
}

int pe_alibi_bias(int64_t heads, int64_t n_q, int64_t n_k, pe_alibi_mode mode,
                  void *out, pe_dtype dtype) {
    PE_TRY(check_heads(heads));
    PE_TRY(check_lengths(n_q, n_k));
    if (mode != PE_ALIBI_SYMMETRIC && mode != PE_ALIBI_CAUSAL)
        return pe__fail(PE_ERR_PARAM, "mode=%d is not an ALiBi mode", (int)mode);
    if (dtype != PE_F32 && dtype != PE_F64)
        return pe__fail(PE_ERR_DTYPE, "dtype=%s: ALiBi biases are f32 or f64",
                        pe_dtype_name(dtype));
    /* Same rule as pe_attention: a query before the first key would see
     * nothing at all. */
    if (mode == PE_ALIBI_CAUSAL && n_q > n_k)
        return pe__fail(PE_ERR_SHAPE,
                        "causal ALiBi needs n_q=%lld <= n_k=%lld (queries are the "
                        "last keys)",
                        (long long)n_q, (long long)n_k);
    size_t total = 0;
    PE_TRY(bias_size(heads, n_q, n_k, pe_dtype_size(dtype), &total));
    if (total == 0) return PE_OK;
    PE_CHECK_NULL(out);

    const uint64_t c = pow2_floor((uint64_t)heads);
    const int64_t shift = n_k - n_q; /* query i sits at key position i + shift */
    const pe_kernel_table *k = pe__kernels();
    const size_t row_bytes = (size_t)n_k * pe__dtype_size(dtype);
    char *o = out;
    for (int64_t h = 0; h < heads; h++) {
        const double m = alibi_slope((uint64_t)h, c);
        for (int64_t i = 0; i < n_q; i++, o += row_bytes)
            k->alibi_row(m, i + shift, n_k, mode == PE_ALIBI_CAUSAL, o, dtype);
    }
    return PE_OK;
}

/* ------------------------------------------------------------- T5 buckets */

typedef struct {
    int bidirectional;
    int64_t nb;  /* buckets per direction */
    int64_t e;   /* exact buckets: max_exact = nb / 2 */
    int64_t max_distance;
} t5_config;

static int t5_config_make(int bidirectional, int64_t num_buckets,
                          int64_t max_distance, t5_config *cfg) {
    if (bidirectional != 0 && bidirectional != 1)
        return pe__fail(PE_ERR_PARAM, "bidirectional=%d must be 0 or 1",
                        bidirectional);
    if (bidirectional && (num_buckets < 4 || num_buckets % 2 != 0))
        return pe__fail(PE_ERR_PARAM,
                        "num_buckets=%lld must be even and >= 4 for bidirectional "
                        "buckets (two directions of at least 2)",
                        (long long)num_buckets);
    if (!bidirectional && num_buckets < 2)
        return pe__fail(PE_ERR_PARAM, "num_buckets=%lld must be >= 2",
                        (long long)num_buckets);
    cfg->bidirectional = bidirectional;
    cfg->nb = bidirectional ? num_buckets / 2 : num_buckets;
    cfg->e = cfg->nb / 2;
    /* ln(max_distance / e) is the divisor of the log buckets: it must be
     * positive. */
    if (max_distance <= cfg->e)
        return pe__fail(PE_ERR_PARAM,
                        "max_distance=%lld must exceed the %lld exact buckets",
                        (long long)max_distance, (long long)cfg->e);
    cfg->max_distance = max_distance;
    return PE_OK;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* a^p, or 0 when it exceeds UINT64_MAX (a >= 2, so 0 is never a result). */
static uint64_t pow_or_zero(uint64_t a, uint64_t p) {
    uint64_t r = 1;
    for (uint64_t i = 0; i < p; i++) {
        if (r > UINT64_MAX / a) return 0;
        r *= a;
    }
    return r;
}

/* x^wp == y^kp for positive integers x, y and coprime wp, kp >= 1. By unique
 * factorisation that holds iff x = g^kp and y = g^wp for an integer g. */
static bool same_power(uint64_t x, uint64_t y, uint64_t wp, uint64_t kp) {
    if (x == 1 || y == 1) return x == y;
    const long double root = powl((long double)x, 1.0L / (long double)kp);
    const uint64_t g0 = (uint64_t)llroundl(root);
    for (uint64_t g = g0 > 2 ? g0 - 1 : 2; g <= g0 + 1; g++)
        if (pow_or_zero(g, kp) == x && pow_or_zero(g, wp) == y) return true;
    return false;
}

/* Whether (n/e)^w == (M/e)^k exactly, i.e. n sits on the boundary where the
 * log bucket steps from k-1 to k. Both ratios in lowest terms a/b, c/d: the
 * powers are equal iff a^w == c^k and b^w == d^k. */
static bool t5_on_boundary(uint64_t n, uint64_t e, uint64_t m, uint64_t w,
                           uint64_t k) {
    const uint64_t g1 = gcd_u64(n, e), g2 = gcd_u64(m, e), q = gcd_u64(w, k);
    return same_power(n / g1, m / g2, w / q, k / q) &&
           same_power(e / g1, e / g2, w / q, k / q);
}

/*
 * floor(ln(n/e) / ln(M/e) * w) for e <= n < M, so the result is in [0, w).
 * The quotient is formed in long double (error ~1e-18 relative). Its
 * integer crossings are the boundaries n = e (M/e)^(k/w); where such a
 * boundary is an integer n, the real quotient is exactly k and a log one
 * ulp low would floor to k-1 (HF's float32 log risks exactly that at
 * r = +-16, 32, 64 of the default 32/128). So whenever the long double
 * quotient is within 1e-6 of an integer k, the boundary is tested exactly
 * in integers and k is taken when n is on it. Off the boundaries the long
 * double floor stands; it could only err for a quotient within ~1e-15 of an
 * integer without being one, which the tests rule out exhaustively for the
 * configurations they cover.
 */
static int64_t t5_log_steps(uint64_t n, int64_t e, int64_t m, int64_t w) {
    const long double le = logl((long double)e);
    const long double x =
        (long double)w * (logl((long double)n) - le) / (logl((long double)m) - le);
    int64_t k = (int64_t)floorl(x);
    const long double near = roundl(x);
    if (near > (long double)k && near - x <= 1e-6L &&
        t5_on_boundary(n, (uint64_t)e, (uint64_t)m, (uint64_t)w, (uint64_t)near))
        k = (int64_t)near;
    return k;
}

static int64_t t5_bucket_of(const t5_config *cfg, int64_t r) {
    /* |r| as unsigned: r = INT64_MIN has no int64 magnitude. */
    const uint64_t mag = r < 0 ? (uint64_t)0 - (uint64_t)r : (uint64_t)r;
    int64_t offset = 0;
    uint64_t n;
    if (cfg->bidirectional) {
        if (r > 0) offset = cfg->nb;
        n = mag;
    } else {
        n = r < 0 ? mag : 0; /* keys after the query all share bucket 0 */
    }
    if (n < (uint64_t)cfg->e) return offset + (int64_t)n;
    /* At and past max_distance the quotient is >= nb - e: the last bucket. */
    if (n >= (uint64_t)cfg->max_distance) return offset + cfg->nb - 1;
    int64_t b = cfg->e + t5_log_steps(n, cfg->e, cfg->max_distance, cfg->nb - cfg->e);
    if (b > cfg->nb - 1) b = cfg->nb - 1;
    return offset + b;
}

int pe_t5_bucket(int64_t relative_position, int bidirectional,
                 int64_t num_buckets, int64_t max_distance, int64_t *bucket) {
    t5_config cfg = {0};
    PE_TRY(t5_config_make(bidirectional, num_buckets, max_distance, &cfg));
    PE_CHECK_NULL(bucket);
    *bucket = t5_bucket_of(&cfg, relative_position);
    return PE_OK;
}

int pe_t5_buckets(int64_t r_start, int64_t count, int bidirectional,
                  int64_t num_buckets, int64_t max_distance, int64_t *buckets) {
    t5_config cfg = {0};
    PE_TRY(t5_config_make(bidirectional, num_buckets, max_distance, &cfg));
    if (count < 0)
        return pe__fail(PE_ERR_SHAPE, "count=%lld must be >= 0", (long long)count);
    if (count > 0 && r_start > INT64_MAX - (count - 1))
        return pe__fail(PE_ERR_RANGE,
                        "r_start=%lld + count=%lld overflows int64",
                        (long long)r_start, (long long)count);
    size_t bytes;
    if (!pe__mul_size(count, (int64_t)sizeof(int64_t), &bytes))
        return pe__fail(PE_ERR_OVERFLOW, "count=%lld buckets overflow size_t",
                        (long long)count);
    if (count == 0) return PE_OK;
    PE_CHECK_NULL(buckets);
    for (int64_t k = 0; k < count; k++) buckets[k] = t5_bucket_of(&cfg, r_start + k);
    return PE_OK;
}

int pe_t5_bias(const float *table, pe_t5_table_layout layout, int64_t heads,
               int bidirectional, int64_t num_buckets, int64_t max_distance,
               int64_t n_q, int64_t n_k, float *out) {
    PE_CHECK_NULL(table);
    if (layout != PE_T5_TABLE_HEAD_MAJOR && layout != PE_T5_TABLE_BUCKET_MAJOR)
        return pe__fail(PE_ERR_PARAM, "layout=%d is not a T5 table layout",
                        (int)layout);
    PE_TRY(check_heads(heads));
    t5_config cfg = {0};
    PE_TRY(t5_config_make(bidirectional, num_buckets, max_distance, &cfg));
    size_t table_len;
    if (!pe__mul_size(heads, num_buckets, &table_len) ||
        table_len > SIZE_MAX / sizeof(float))
        return pe__fail(PE_ERR_OVERFLOW,
                        "table heads=%lld x num_buckets=%lld overflows size_t",
                        (long long)heads, (long long)num_buckets);
    PE_TRY(check_lengths(n_q, n_k));
    size_t total = 0;
    PE_TRY(bias_size(heads, n_q, n_k, sizeof(float), &total));
    if (total == 0) return PE_OK;
    PE_CHECK_NULL(out);
    /* the table is read while out is written */
    PE_TRY(pe__check_bytes_apart(out, total * sizeof(float), "out", table,
                                 table_len * sizeof(float), "table"));

    /* r = j - i' = j - i - (n_k - n_q) spans [-(n_k-1), n_q-1]: one bucket
     * per distinct r, n_q + n_k - 1 logarithms instead of n_q n_k. */
    const int64_t span = n_q + n_k - 1;
    int64_t *bk;
    PE_TRY(pe__alloc("T5 buckets", span, 1, sizeof(int64_t), &bk));
    for (int64_t r = -(n_k - 1); r <= n_q - 1; r++)
        bk[r + n_k - 1] = t5_bucket_of(&cfg, r);

    const int64_t head_step = layout == PE_T5_TABLE_HEAD_MAJOR ? num_buckets : 1;
    const int64_t bucket_step = layout == PE_T5_TABLE_HEAD_MAJOR ? 1 : heads;
    size_t o = 0;
    for (int64_t h = 0; h < heads; h++) {
        const float *th = table + h * head_step;
        for (int64_t i = 0; i < n_q; i++)
            for (int64_t j = 0; j < n_k; j++, o++)
                out[o] = th[bk[j - i + n_q - 1] * bucket_step]; /* r + n_k - 1 */
    }
    free(bk);
    return PE_OK;
}
