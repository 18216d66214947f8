/*
 * families_hf_decoders.c — one group of the Hugging Face family registry:
 * decoder LLMs, hybrids and multimodal wrappers (text_config) added after the first plans.
 * The record type and its rules are in plan_internal.h; docs/FAMILIES.md
 * says how to add a record. Each record's `source` names the transformers
 * files read (the commit in docs/FAMILIES.md), and tests/test_families_decoders.c
 * restates each record's class defaults from the same sources.
 */
#include "plan_internal.h"

#include <stddef.h>

/* The group's records; NULL ends the list. */
static const pe__family *const records[] = {
    NULL,
};

const pe__family_group pe__families_hf_decoders = {.records = records};
