/* test_families_other.c — the registry group src/families_hf_other.c (vision,
 * audio, speech, video, time-series and other refused families), and the
 * registry's completeness against transformers' list of model_types.
 *
 * Its records all refuse, so the group has no class-default rows (the
 * table below stays empty); test_families.c checks that every record names
 * a source and a kind. The completeness test reads
 * tests/fixtures/transformers_model_types.txt (every key of transformers'
 * CONFIG_MAPPING_NAMES at the commit named in its header) and wants each
 * name to be a record. */
#include "family_rows.h"
#include "runner.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

const row family_rows_other[] = {
    {NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
};

/* PENDING IN OTHER GROUPS — the coordinator empties this list when merging.
 * The model_types the two other registry groups own (h25dec:
 * src/families_hf_decoders.c, decoder LMs and the multimodal wrappers whose
 * language model is one; h25enc: src/families_hf_encoders.c, text encoders
 * and encoder-decoders) that were not records on this branch when it was
 * written. A name here that is a record fails the test, so the list can only
 * shrink. */
static const char *const pending_in_other_groups[] = {
    NULL,
};

/* NOT YET READ IN THIS GROUP — model_types this group owns whose modeling
 * code was not read yet (they are newer than the transformers tree read for
 * the others), so no record states a kind for them. Same rule: a name here
 * that is a record fails the test. */
static const char *const not_yet_read_in_this_group[] = {
    NULL,
};

static bool listed(const char *const *list, const char *name) {
    for (; *list != NULL; list++)
        if (strcmp(*list, name) == 0) return true;
    return false;
}

static bool is_record(const char *name) {
    for (int64_t i = 0; i < pe_family_count(); i++) {
        pe_family_info info;
        if (pe_family_get(i, &info) == PE_OK && strcmp(info.model_type, name) == 0) return true;
    }
    return false;
}

#define MODEL_TYPES "tests/fixtures/transformers_model_types.txt"

TEST(families_every_transformers_model_type_is_a_record) {
    FILE *fp = fopen(MODEL_TYPES, "r");
    if (fp == NULL) {
        CHECK_MSG(false, "cannot open %s (run the tests from the repo root)", MODEL_TYPES);
        return;
    }
    char line[256];
    int names = 0, missing = 0;
    while (fgets(line, sizeof line, fp) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        names++;
        bool pending = listed(pending_in_other_groups, line) || listed(not_yet_read_in_this_group, line);
        bool record = is_record(line);
        if (!record && !pending) missing++;
        CHECK_MSG(record || pending, "transformers model_type '%s' is not a record of the registry",
                  line);
        CHECK_MSG(!(record && pending),
                  "'%s' is a record now: remove it from its pending list in %s", line, __FILE__);
    }
    fclose(fp);
    /* The file is the whole list, not a truncated one (696 names at its commit). */
    CHECK_MSG(names >= 696, "%s has %d model_types, want the 696 of its commit", MODEL_TYPES,
              names);
    CHECK(missing == 0);
    /* Every pending name is one of the file's (no stale or misspelt entry). */
    const char *const *lists[] = {pending_in_other_groups, not_yet_read_in_this_group};
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
        for (const char *const *p = lists[l]; *p != NULL; p++) {
            bool found = false;
            fp = fopen(MODEL_TYPES, "r");
            while (fp != NULL && !found && fgets(line, sizeof line, fp) != NULL) {
                line[strcspn(line, "\r\n")] = '\0';
                found = strcmp(line, *p) == 0;
            }
            if (fp != NULL) fclose(fp);
            CHECK_MSG(found, "pending name '%s' is not in %s", *p, MODEL_TYPES);
        }
}

TEST(families_no_model_type_twice) {
    int64_t n = pe_family_count();
    CHECK(n > 0);
    for (int64_t i = 0; i < n; i++) {
        pe_family_info a;
        CHECK_OK(pe_family_get(i, &a));
        for (int64_t j = i + 1; j < n; j++) {
            pe_family_info b;
            CHECK_OK(pe_family_get(j, &b));
            CHECK_MSG(strcmp(a.model_type, b.model_type) != 0,
                      "model_type '%s' is in the registry twice (records %lld and %lld)",
                      a.model_type, (long long)i, (long long)j);
        }
    }
}

/* Every record of this group refuses, with its reason, and reads as a plan
 * refusal naming the model_type: spot checks of each kind the group states. */
TEST(families_other_refuse_with_their_kind) {
    static const struct {
        const char *type;
        pe_position_kind kind;
        const char *why;
    } cases[] = {
        {"vit", PE_POSITION_LEARNED, "a learned table over image patches"},
        {"swin", PE_POSITION_RELATIVE, "learned relative position bias"},
        {"resnet", PE_POSITION_NONE, "a convolutional image model"},
        {"detr", PE_POSITION_SINUSOIDAL, "2-D sine tables"},
        {"qwen2_5_vl_vision", PE_POSITION_ROPE, "2-D vision RoPE"},
        {"wav2vec2", PE_POSITION_NOPE, "a convolution added to the features"},
        {"speech_to_text", PE_POSITION_SINUSOIDAL, "sinusoidal tables in both stacks"},
        {"encodec", PE_POSITION_NONE, "a convolutional audio codec"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bool found = false;
        for (int64_t f = 0; f < pe_family_count(); f++) {
            pe_family_info info;
            CHECK_OK(pe_family_get(f, &info));
            if (strcmp(info.model_type, cases[i].type) != 0) continue;
            found = true;
            CHECK_MSG(info.refusal != NULL && strstr(info.refusal, cases[i].why) != NULL,
                      "'%s' refusal \"%s\" lacks \"%s\"", cases[i].type,
                      info.refusal ? info.refusal : "(none)", cases[i].why);
            CHECK_MSG(info.kinds == (1u << cases[i].kind), "'%s' kinds %#x, want %#x",
                      cases[i].type, info.kinds, 1u << cases[i].kind);
        }
        CHECK_MSG(found, "'%s' is not a record", cases[i].type);
        char json[128];
        snprintf(json, sizeof json, "{\"model_type\":\"%s\"}", cases[i].type);
        pe_plan *p = NULL;
        CHECK_ERROR(pe_plan_from_config_json(json, strlen(json), &p), PE_ERR_UNSUPPORTED,
                    cases[i].why);
        CHECK(p == NULL);
    }
}
