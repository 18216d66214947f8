/* fixture_configs.c — see fixture_configs.h. */
#include "fixture_configs.h"

#include "runner.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pe_plan *pe_test_fixture_plan(const char *name) {
    char path[512];
    const char *dir = getenv("PE_TEST_FIXTURES");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/fixtures/configs", name);
    pe_plan *p = NULL;
    int st = pe_plan_from_config_file(path, &p);
    if (st != PE_OK) pe_test_fail(__FILE__, __LINE__, "%s: %s", name, pe_last_error());
    return st == PE_OK ? p : NULL;
}

char *pe_test_as_llama(const char *json) {
    static const char add[] = "\"model_type\":\"llama\",";
    size_t n = strlen(json);
    char *out = malloc(n + sizeof add + 1);
    if (out == NULL) abort();
    const char *brace = strchr(json, '{');
    cJSON *valid = cJSON_ParseWithOpts(json, NULL, 1); /* malformed text stays as it is: its error is the test */
    cJSON_Delete(valid);
    if (strstr(json, "\"model_type\"") != NULL || brace == NULL || valid == NULL) {
        memcpy(out, json, n + 1);
        return out;
    }
    size_t head = (size_t)(brace - json) + 1;
    memcpy(out, json, head);
    memcpy(out + head, add, sizeof add - 1);
    /* "{}" becomes {"model_type":"llama"} without a trailing comma. */
    size_t at = head + sizeof add - 1;
    const char *rest = json + head;
    while (*rest == ' ') rest++;
    if (*rest == '}') at--;
    memcpy(out + at, rest, strlen(rest) + 1);
    return out;
}
