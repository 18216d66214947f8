/*
 * fuzz_npy.c — pe_npy_parse on arbitrary bytes. A parse either fails with a
 * status and a detail, or returns an array whose byte count matches its
 * shape and dtype, and whose every byte is readable; then the arrays the
 * CLI would hand on are used the way it uses them (a float32 (tokens, D)
 * rotated in place, an int64 vector as positions for a cos/sin cache), and
 * the cache is checked to be cos/sin values at all (finite, |x| <= 1)
 * whatever the positions, int64 extremes included.
 */
#include "fuzz.h"

#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

volatile uint64_t pe_fuzz_sink;

static size_t shape_count(const pe_npy_array *a) {
    size_t n = 1;
    for (int i = 0; i < a->ndim; i++) n *= (size_t)a->shape[i];
    return n;
}

static void rotate_as_cli_would(pe_npy_array *a) {
    if (a->dtype != PE_F32 || a->ndim != 2) return;
    const int64_t D = a->shape[1];
    /* bounded so one input stays well under a millisecond */
    if (D < 2 || D % 2 != 0 || D > PE_MAX_ROTARY_DIM || a->shape[0] * D > 65536) return;
    pe_freqs f;
    if (pe_freqs_default(D, 10000.0, &f) != PE_OK) abort(); /* valid by construction */
    pe_tensor t = pe_tensor_dense(a->data, PE_F32, a->shape[0], 1, D);
    pe_positions pos = pe_positions_range(0);
    if (pe_rope_apply(&f, PE_ROPE_HALF, &pos, &t, &t, PE_ROPE_FORWARD) != PE_OK) abort();
    pe_fuzz_consume(a->data, a->nbytes);
}

static void positions_as_cli_would(const pe_npy_array *a) {
    if (a->dtype != PE_I64 || a->ndim != 1 || a->shape[0] > 256) return;
    const int64_t n = a->shape[0];
    pe_freqs f;
    if (pe_freqs_default(8, 10000.0, &f) != PE_OK) abort();
    double c[256 * 4], s[256 * 4];
    pe_positions pos = pe_positions_list(a->data);
    if (pe_rope_cos_sin(&f, &pos, n, c, s, PE_F64) != PE_OK) abort();
    for (int64_t i = 0; i < n * 4; i++)
        if (!(fabs(c[i]) <= 1.0 && fabs(s[i]) <= 1.0)) abort(); /* not a cos/sin */
    pe_fuzz_consume(c, sizeof(double) * (size_t)n * 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pe_npy_array a;
    memset(&a, 0xA5, sizeof a);
    const pe_npy_array poison = a;
    int st = pe_npy_parse(data, size, &a);
    if (st != PE_OK) {
        /* A rejected parse names its reason and leaves *out alone. */
        if (pe_last_error()[0] == '\0' || memcmp(&a, &poison, sizeof a) != 0) abort();
        return 0;
    }
    if (a.ndim < 0 || a.ndim > PE_NPY_MAX_DIMS || a.data == NULL) abort();
    if (shape_count(&a) * pe_dtype_size(a.dtype) != a.nbytes) abort();
    pe_fuzz_consume(a.data, a.nbytes);
    rotate_as_cli_would(&a);
    positions_as_cli_would(&a);
    pe_npy_free(&a);
    return 0;
}
