/* fixture_configs.h — the real config.json fixtures (tests/fixtures/configs,
 * or $PE_TEST_FIXTURES) loaded as plans, for every test that needs one. */
#ifndef PE_TEST_FIXTURE_CONFIGS_H
#define PE_TEST_FIXTURE_CONFIGS_H

#include "posenc.h"

/* The plan of fixture `name` (e.g. "llama-3.1-8b.json"), or NULL after
 * recording a failed check that names the file and the library's detail. */
pe_plan *pe_test_fixture_plan(const char *name);

/* json (a JSON object's text) read as a Llama config on purpose: a copy
 * with "model_type":"llama" added first when json names no model_type
 * (posenc refuses a config without a family; these tests are about the
 * generic keys). Caller frees. Aborts on no memory. */
char *pe_test_as_llama(const char *json);

#endif
