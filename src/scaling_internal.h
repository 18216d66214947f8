/*
 * scaling_internal.h — what the library's config reader needs of the scheme
 * table in rope_scaling.c beyond the public accessors (posenc.h): which
 * parameters a config block must state, and the checks of a whole scaling
 * (so config_rope.c wraps them, naming the key, instead of repeating them).
 */
#ifndef PE_SCALING_INTERNAL_H
#define PE_SCALING_INTERNAL_H

#include "internal.h"

#include <stdbool.h>

/* Whether a config.json block of scheme type must state parameter i (its
 * pe_scaling_param.config_key). */
bool pe__scaling_config_requires(pe_scaling_type type, int i);
/* Whether config.json files name scheme type in rope_type (EXPLICIT, the
 * caller's own divisors, is not a Hugging Face type). */
bool pe__scaling_hf_rope_type(pe_scaling_type type);
/* Every check pe_freqs_from_scaling makes before computing (PE_ERR_* with
 * the library's message naming the field). */
int pe__scaling_validate(const pe_rope_scaling *s);

/* ln of the base at which the default scheme gives s's frequencies, for a
 * scheme that only changes the base (ntk, ntk_alpha; dynamic at its s):
 * config_rope.c folds HunYuan's alpha so. PE_ERR_UNSUPPORTED for the others;
 * the scheme's own errors otherwise. */
int pe__scaling_fold_base(const pe_rope_scaling *s, long double *log_base);

#endif
