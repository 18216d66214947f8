/* test_families_decoders.c — the class-default rows of the registry group
 * src/families_hf_decoders.c (decoder LLMs, hybrids and multimodal wrappers); each row restates from the family's
 * transformers source what a config that leaves a key out gets, and names
 * that source. test_families.c checks the rows (family_rows.h). */
#include "family_rows.h"

#include <stddef.h>

const row family_rows_decoders[] = {
    {NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
};
