/*
 * fuzz_config.c — pe_config_parse on arbitrary text. A rejected config
 * leaves *out untouched and names its reason; an accepted one is turned
 * into frequencies at a few sequence lengths (not stated, 1, around L0 and
 * L, 2^31 - 1 and the int64 maximum), each of which either fails with a
 * detail or passes pe_freqs_validate: a config the reader accepts may still
 * describe impossible frequencies, but it must never produce invalid ones.
 */
#include "fuzz.h"

#include "posenc.h"

#include <stdlib.h>
#include <string.h>

volatile uint64_t pe_fuzz_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* On the stack: ~8.5 KiB each since PE_MAX_ROTARY_DIM is 1024. */
    pe_rope_config cfg, poison;
    pe_freqs f;
    double weight[PE_MAX_PAIRS];
    memset(&cfg, 0x5A, sizeof cfg);
    memcpy(&poison, &cfg, sizeof cfg);
    /* A NULL pointer with size 0 is legal input for libFuzzer; the library
     * wants a pointer, so give it one. */
    const char *text = size ? (const char *)data : "";
    int st = pe_config_parse(text, size, &cfg);
    if (st != PE_OK) {
        if (pe_last_error()[0] == '\0' || memcmp(&cfg, &poison, sizeof cfg) != 0) abort();
        return 0;
    }
    const pe_rope_scaling *s = &cfg.scaling;
    const int64_t lens[] = {0,
                            1,
                            s->original_max_position,
                            s->original_max_position + 1,
                            s->max_position,
                            s->max_position + 1,
                            2147483647,
                            INT64_MAX};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        if (lens[k] < 0) continue;
        st = pe_config_freqs(&cfg, lens[k], &f, weight);
        if (st != PE_OK) {
            if (pe_last_error()[0] == '\0') abort();
            continue;
        }
        if (pe_freqs_validate(&f) != PE_OK) abort();
        pe_fuzz_consume(f.inv_freq, sizeof(double) * (size_t)(f.rotary_dim / 2));
        pe_fuzz_consume(weight, sizeof(double) * (size_t)(f.rotary_dim / 2));
    }
    return 0;
}
