/*
 * overlap.c — whether two tensor views (or two byte ranges) share memory,
 * and whether the rows of one view overlap each other. The rule every call
 * follows (docs/RELIABILITY.md, ## Overlap): an output may be the very same
 * view as its input (in place); any other sharing of bytes between an
 * output and anything the call reads or writes, and any two rows of one
 * view that share bytes, is PE_ERR_SHAPE. Without it results would depend
 * on the order rows are visited, and so on the thread count.
 *
 * Views are exact: the rows of a view sit at byte offsets t TS + h HS (t <
 * tokens, h < heads, TS and HS the strides in bytes, both >= 0) and are L =
 * head_dim * element-size bytes long. Two rows overlap when their starts
 * differ by less than a row; whether some pair of lattice points lands in
 * that window is decided exactly, iterating over the shorter axis only
 * (O(min(tokens, heads)), after O(1) tests that settle every ordinary
 * layout). Two views with different strides are compared by their byte
 * spans: sharing a span is refused even where the rows might interleave,
 * which no real layout does (the fused-qkv slices have equal strides and
 * are compared exactly).
 */
#include "internal.h"

/* Extents are below 2^61 bytes (pe__check_tensor), so every sum below of
 * a few offsets stays well inside int64. */

/* Largest v in int64 with v * s <= a (s > 0): floor division. */
static int64_t floor_div(int64_t a, int64_t s) {
    int64_t q = a / s;
    if (a % s != 0 && a < 0) q--;
    return q;
}

/* Is there v in [v_lo, v_hi] with lo < v * s < hi (s >= 0)? */
static bool axis_hits(int64_t s, int64_t v_lo, int64_t v_hi, int64_t lo, int64_t hi) {
    if (v_lo > v_hi) return false;
    if (s == 0) return lo < 0 && 0 < hi;
    int64_t v = floor_div(lo, s) + 1; /* the smallest v with v s > lo */
    if (v < v_lo) v = v_lo;
    return v <= v_hi && v * s < hi && v * s > lo;
}

/* Beyond this many steps of the exact search a view is refused as
 * overlapping: both of its axes then exceed 2^20 entries, more than 2^40
 * rows, which no memory holds. */
#define PE_OVERLAP_MAX_STEPS ((int64_t)1 << 20)

/*
 * Is there (u, v) with u in [u_lo, u_hi], v in [v_lo, v_hi], (u, v) not
 * (0, 0) when exclude_origin, and lo < u su + v sv < hi? Iterates over the
 * axis with fewer values. *gave_up when that axis is too long to search.
 */
static bool lattice_hits(int64_t su, int64_t u_lo, int64_t u_hi, int64_t sv, int64_t v_lo,
                         int64_t v_hi, int64_t lo, int64_t hi, bool exclude_origin,
                         bool *gave_up) {
    if (u_hi - u_lo > v_hi - v_lo) { /* iterate over the shorter axis */
        int64_t t;
        t = su, su = sv, sv = t;
        t = u_lo, u_lo = v_lo, v_lo = t;
        t = u_hi, u_hi = v_hi, v_hi = t;
    }
    if (u_hi - u_lo >= PE_OVERLAP_MAX_STEPS) {
        *gave_up = true;
        return true;
    }
    for (int64_t u = u_lo; u <= u_hi; u++) {
        const int64_t a = lo - u * su, b = hi - u * su;
        if (exclude_origin && u == 0) {
            if (axis_hits(sv, v_lo, -1, a, b) || axis_hits(sv, 1, v_hi, a, b)) return true;
        } else if (axis_hits(sv, v_lo, v_hi, a, b)) {
            return true;
        }
    }
    return false;
}

int pe__check_rows_disjoint(const pe_tensor *t, const char *name) {
    if (t->tokens == 0 || t->heads == 0 || t->head_dim == 0) return PE_OK;
    const int64_t esz = (int64_t)pe__dtype_size(t->dtype);
    const int64_t L = t->head_dim * esz; /* all within the checked extent */
    int64_t s1 = t->tokens > 1 ? t->token_stride * esz : 0, n1 = t->tokens;
    int64_t s2 = t->heads > 1 ? t->head_stride * esz : 0, n2 = t->heads;
    /* O(1): rows nested, the finer axis at least a row apart and the
     * coarser one beyond the finer axis's whole span */
    int64_t fs = s1, fn = n1, cs = s2, cn = n2;
    if ((n2 > 1 && (n1 <= 1 || s2 < s1))) fs = s2, fn = n2, cs = s1, cn = n1;
    if (fn <= 1 || (fs >= L && (cn <= 1 || cs >= (fn - 1) * fs + L))) return PE_OK;
    bool gave_up = false;
    if (!lattice_hits(s1, 0, n1 - 1, s2, -(n2 - 1), n2 - 1, -L, L, true, &gave_up))
        return PE_OK;
    return pe__fail(PE_ERR_SHAPE,
                    "rows of %s overlap: token_stride=%lld, head_stride=%lld for %lld tokens "
                    "x %lld heads of head_dim=%lld%s",
                    name, (long long)t->token_stride, (long long)t->head_stride,
                    (long long)t->tokens, (long long)t->heads, (long long)t->head_dim,
                    gave_up ? " (too many rows to prove them disjoint)" : "");
}

pe__span pe__view_span(const pe_tensor *t) {
    pe__span s = {(uintptr_t)t->data, (uintptr_t)t->data};
    if (t->tokens == 0 || t->heads == 0 || t->head_dim == 0) return s;
    const size_t esz = pe__dtype_size(t->dtype);
    s.hi += ((size_t)(t->tokens - 1) * (size_t)t->token_stride +
             (size_t)(t->heads - 1) * (size_t)t->head_stride + (size_t)t->head_dim) *
            esz;
    return s;
}

bool pe__spans_meet(pe__span a, pe__span b) {
    return a.lo < a.hi && b.lo < b.hi && a.lo < b.hi && b.lo < a.hi;
}

bool pe__identical_view(const pe_tensor *a, const pe_tensor *b) {
    return a == b ||
           (a != NULL && b != NULL && a->data == b->data && a->dtype == b->dtype &&
            a->tokens == b->tokens && a->heads == b->heads && a->head_dim == b->head_dim &&
            a->token_stride == b->token_stride && a->head_stride == b->head_stride);
}

bool pe__same_view(const pe_tensor *a, const pe_tensor *b) {
    return a == b ||
           (a->data == b->data && a->dtype == b->dtype && a->tokens == b->tokens &&
            a->heads == b->heads && a->head_dim == b->head_dim &&
            (a->tokens <= 1 || a->token_stride == b->token_stride) &&
            (a->heads <= 1 || a->head_stride == b->head_stride));
}

/* Byte stride of an axis of n entries and element stride s: 0 when the
 * axis has one entry (its stride is never used, and may be anything). */
static int64_t axis_bytes(int64_t n, int64_t s, int64_t esz) {
    return n > 1 ? s * esz : 0; /* within the checked extent */
}

/* Stride in bytes of an axis shared by a and b (na, nb entries of stride
 * sa, sb bytes): -1 when the two views step differently. */
static int64_t common_stride(int64_t na, int64_t sa, int64_t nb, int64_t sb) {
    if (na > 1 && nb > 1) return sa == sb ? sa : -1;
    return na > 1 ? sa : nb > 1 ? sb : 0;
}

bool pe__views_meet(const pe_tensor *a, const pe_tensor *b) {
    const pe__span sa = pe__view_span(a), sb = pe__view_span(b);
    if (!pe__spans_meet(sa, sb)) return false;
    const int64_t ea = (int64_t)pe__dtype_size(a->dtype), eb = (int64_t)pe__dtype_size(b->dtype);
    const int64_t ts = common_stride(a->tokens, axis_bytes(a->tokens, a->token_stride, ea),
                                     b->tokens, axis_bytes(b->tokens, b->token_stride, eb));
    const int64_t hs = common_stride(a->heads, axis_bytes(a->heads, a->head_stride, ea), b->heads,
                                     axis_bytes(b->heads, b->head_stride, eb));
    if (ts < 0 || hs < 0) return true; /* spans meet, strides differ */
    /* b is a translate of a's lattice by delta bytes: row x = t ts + h hs of
     * a ([x, x + La)) and row y = delta + t' ts + h' hs of b ([y, y + Lb))
     * meet when -La < x - y < Lb, i.e. when
     * delta - La < (t - t') ts + (h - h') hs < delta + Lb */
    const int64_t delta = sb.lo >= sa.lo ? (int64_t)(sb.lo - sa.lo) : -(int64_t)(sa.lo - sb.lo);
    const int64_t La = a->head_dim * ea, Lb = b->head_dim * eb;
    bool gave_up = false;
    return lattice_hits(ts, -(b->tokens - 1), a->tokens - 1, hs, -(b->heads - 1), a->heads - 1,
                        delta - La, delta + Lb, false, &gave_up);
}

int pe__check_apart(const pe_tensor *out, const char *out_name, const pe_tensor *other,
                    const char *other_name, bool may_be_same) {
    if (may_be_same && pe__same_view(out, other)) return PE_OK;
    if (!pe__views_meet(out, other)) return PE_OK;
    return pe__fail(PE_ERR_SHAPE,
                    "%s overlaps %s: only the same view (in place) may share memory",
                    out_name, other_name);
}

int pe__check_bytes_apart(const void *out, size_t out_bytes, const char *out_name,
                          const void *other, size_t other_bytes, const char *other_name) {
    /* a span that would wrap the address space ends at its top instead */
    const uintptr_t ao = (uintptr_t)out, bo = (uintptr_t)other;
    const pe__span a = {ao, out_bytes > UINTPTR_MAX - ao ? UINTPTR_MAX : ao + out_bytes};
    const pe__span b = {bo, other_bytes > UINTPTR_MAX - bo ? UINTPTR_MAX : bo + other_bytes};
    if (out == NULL || other == NULL || !pe__spans_meet(a, b)) return PE_OK;
    return pe__fail(PE_ERR_SHAPE, "%s overlaps %s (%zu and %zu bytes)", out_name, other_name,
                    out_bytes, other_bytes);
}

int pe__check_regions_apart(const pe__region *outs, int n_out, const pe__region *ins, int n_in) {
    for (int a = 0; a < n_out; a++) {
        if (outs[a].data == NULL || outs[a].bytes == 0) continue;
        for (int b = 0; b < a; b++)
            PE_TRY(pe__check_bytes_apart(outs[a].data, outs[a].bytes, outs[a].name, outs[b].data,
                                         outs[b].bytes, outs[b].name));
        for (int i = 0; i < n_in; i++)
            PE_TRY(pe__check_bytes_apart(outs[a].data, outs[a].bytes, outs[a].name, ins[i].data,
                                         ins[i].bytes, ins[i].name));
    }
    return PE_OK;
}
