/*
 * families_hf_other.c — one group of the Hugging Face family registry:
 * vision, audio, speech and other models whose token positions posenc does not plan: records that refuse, each with its reason.
 * The record type and its rules are in plan_internal.h; docs/FAMILIES.md
 * says how to add a record. Each record's `source` names the transformers
 * files read (the commit in docs/FAMILIES.md), and tests/test_families_other.c
 * restates each record's class defaults from the same sources.
 */
#include "plan_internal.h"

#include <stddef.h>

/* The group's records; NULL ends the list. */
static const pe__family *const records[] = {
    NULL,
};

const pe__family_group pe__families_hf_other = {.records = records};
