/*
 * fuzz_plan.c — pe_plan_from_config_json on arbitrary text, then every
 * accessor of an accepted plan: each layer's info, frequencies at a few
 * sequence lengths, query scales at a few positions, the warnings, and a
 * comparison of the plan with itself (which must find nothing). A rejected
 * text leaves *out NULL and names its reason; a layer's frequencies either
 * fail with a detail or pass pe_freqs_validate.
 */
#include "fuzz.h"

#include "posenc.h"

#include <stdlib.h>
#include <string.h>

volatile uint64_t pe_fuzz_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pe_freqs f;
    const char *text = size ? (const char *)data : "";
    pe_plan *plan = NULL;
    int st = pe_plan_from_config_json(text, size, &plan);
    if (st != PE_OK) {
        if (pe_last_error()[0] == '\0' || plan != NULL) abort();
        return 0;
    }
    const int64_t n = pe_plan_num_layers(plan);
    if (n < 1) abort();
    for (int64_t w = 0; w < pe_plan_num_warnings(plan); w++)
        if (pe_plan_warning(plan, w) == NULL) abort();
    /* Layers of one kind share everything: look at the first few and the
     * last few rather than all 65536 a file may declare. */
    for (int64_t i = 0; i < n; i = (i == 8 && n > 16) ? n - 8 : i + 1) {
        pe_plan_layer L;
        if (pe_plan_layer_info(plan, i, &L) != PE_OK || L.layer_type == NULL) abort();
        if (L.rope != (L.rope_kind >= 0)) abort();
        const int64_t lens[] = {0, 1, L.original_max_position + 1, L.max_position + 1, INT64_MAX};
        for (size_t k = 0; L.rope && k < sizeof lens / sizeof lens[0]; k++) {
            if (lens[k] < 0) continue;
            st = pe_plan_layer_freqs(plan, i, lens[k], &f, NULL);
            if (st != PE_OK) {
                if (pe_last_error()[0] == '\0') abort();
                continue;
            }
            if (pe_freqs_validate(&f) != PE_OK) abort();
            pe_fuzz_consume(f.inv_freq, sizeof(double) * (size_t)(f.rotary_dim / 2));
        }
        const int64_t positions[] = {0, 8191, 1 << 20, INT64_MAX};
        for (size_t k = 0; k < sizeof positions / sizeof positions[0]; k++) {
            double s;
            if (pe_plan_layer_query_scale(plan, i, positions[k], &s) != PE_OK || !(s >= 1.0)) abort();
            pe_fuzz_consume(&s, sizeof s);
        }
    }
    pe_plan_diff *d = NULL;
    if (n <= 4096 && pe_plan_compare(plan, plan, 0, &d) == PE_OK && pe_plan_diff_count(d) != 0)
        abort();
    pe_plan_diff_free(d);
    pe_plan_free(plan);
    return 0;
}
