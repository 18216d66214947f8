/*
 * family_rows.h — the class-default rows of the family registry's tests:
 * one row per record (and more where a record has several layer kinds), in
 * one file per registry group (tests/test_families*.c, as src/families_hf*.c).
 * Each row restates from the family's transformers source what a config that
 * leaves a key out gets. test_families.c checks every row and that no record
 * lacks one.
 */
#ifndef PE_TEST_FAMILY_ROWS_H
#define PE_TEST_FAMILY_ROWS_H

#include "posenc.h"

#include <stdint.h>

#define H PE_ROPE_HALF
#define I PE_ROPE_INTERLEAVED
/* hidden 4096 / 32 heads = head_dim 128 unless the row's JSON says more. */
#define BASE "\"hidden_size\":4096,\"num_attention_heads\":32"

typedef struct {
    const char *model_type;  /* NULL ends a group's rows */
    const char *json;        /* extra keys */
    int64_t layer;           /* the layer checked */
    pe_position_kind kind;
    double base;             /* RoPE: class default rope_theta (or the rule's base) */
    int64_t max_position;    /* RoPE: class default max_position_embeddings (0: none) */
    int64_t head_dim, rotary_dim;
    pe_rope_layout layout;
} row;

/* Each group's rows, NULL-terminated (tests/test_families_<group>.c). */
extern const row family_rows_first[], family_rows_decoders[], family_rows_encoders[],
    family_rows_other[];

#endif
