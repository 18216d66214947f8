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
/* How a config block states parameter i beyond its kind (config_scaling.c
 * reads every key by these): */
enum {
    PE__CFG_POSITIVE = 1u,  /* REAL: a stated value must be > 0 */
    PE__CFG_ZERO_UNSET = 2u /* REAL: 0 keeps the default (HF: `get(key) or default`) */
};
unsigned pe__scaling_param_config(int i);
/* Whether scheme type reads the parameter whose config key is key (the
 * reader's rules for a key shared with the top level, such as L0's). */
bool pe__scaling_reads_key(pe_scaling_type type, const char *key);
/* A LIST parameter's inline array in *c (PE_MAX_PAIRS entries; the
 * scaling's pointer stays NULL there), NULL for any other parameter. */
double *pe__scaling_param_store(pe_rope_config *c, int i);
const double *pe__scaling_param_store_const(const pe_rope_config *c, int i);

/* Every parameter of the table (and type, dims, base) holds the same value
 * in a and b; lists compared entry by entry. The plan merges layer kinds by
 * it, so a parameter added to the table is part of it unasked. */
bool pe__scaling_equal(const pe_rope_scaling *a, const pe_rope_scaling *b);
/* Copy into *to every parameter both schemes read, except the factor field
 * (check's hypotheses: another factor, the rest as the plan says). */
void pe__scaling_keep_params(pe_rope_scaling *to, const pe_rope_scaling *from);
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
