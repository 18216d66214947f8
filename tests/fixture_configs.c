/* fixture_configs.c — see fixture_configs.h. */
#include "fixture_configs.h"

#include "runner.h"

#include <stdio.h>
#include <stdlib.h>

pe_plan *pe_test_fixture_plan(const char *name) {
    char path[512];
    const char *dir = getenv("PE_TEST_FIXTURES");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/fixtures/configs", name);
    pe_plan *p = NULL;
    int st = pe_plan_from_config_file(path, &p);
    if (st != PE_OK) pe_test_fail(__FILE__, __LINE__, "%s: %s", name, pe_last_error());
    return st == PE_OK ? p : NULL;
}
