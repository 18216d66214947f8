/* test_errors_doc.c — docs/ERRORS.md and the bad-input tables agree: every
 * ID the document lists is an EXPECT row of some tests/test_errors_*.c, and
 * every EXPECT row's ID is listed. Run from the repository root (as
 * `make test` does); PE_TEST_ROOT overrides it. */
#include "runner.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_IDS 512

typedef struct {
    char id[MAX_IDS][16];
    int n;
} id_set;

static void add(id_set *s, const char *id, size_t len) {
    if (len == 0 || len >= sizeof s->id[0]) return;
    for (int i = 0; i < s->n; i++)
        if (strlen(s->id[i]) == len && memcmp(s->id[i], id, len) == 0) return;
    if (s->n == MAX_IDS) return;
    memcpy(s->id[s->n], id, len);
    s->id[s->n++][len] = '\0';
}

static int has(const id_set *s, const char *id) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->id[i], id) == 0) return 1;
    return 0;
}

/* Length of an ID (LETTERS-DIGITS) at p, 0 if none. */
static size_t id_len(const char *p) {
    size_t k = 0;
    while (isupper((unsigned char)p[k])) k++;
    if (k == 0 || p[k] != '-') return 0;
    size_t d = ++k;
    while (isdigit((unsigned char)p[k])) k++;
    return k > d ? k : 0;
}

static char *slurp(const char *rel) {
    char path[512];
    const char *root = getenv("PE_TEST_ROOT");
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        pe_test_fail(__FILE__, __LINE__, "cannot open %s (run from the repository root)", path);
        return NULL;
    }
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

TEST(errors_doc_lists_exactly_the_tested_rows) {
    static id_set doc, tested;
    doc.n = tested.n = 0;
    char *md = slurp("docs/ERRORS.md");
    for (char *line = md; line && *line;) {
        if (line[0] == '|' && line[1] == ' ') add(&doc, line + 2, id_len(line + 2));
        char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : NULL;
    }
    static const char *const files[] = {"tests/test_errors_core.c", "tests/test_errors_scaling.c",
                                        "tests/test_errors_bias.c", "tests/test_errors_io.c",
                                        "tests/test_errors_safetensors.c",
                                        "tests/test_gguf.c", "tests/test_plan_gguf.c",
                                        "tests/test_check.c", "tests/test_struct_size.c",
                                        "tests/test_errors_driver.c", "tests/test_errors_fused.c",
                                        "tests/test_errors_families.c"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char *src = slurp(files[k]);
        for (char *p = src; p && (p = strstr(p, "EXPECT(\"")) != NULL; p += 8)
            add(&tested, p + 8, id_len(p + 8));
        free(src);
    }
    free(md);
    CHECK_MSG(doc.n >= 150, "docs/ERRORS.md lists only %d IDs", doc.n);
    for (int i = 0; i < doc.n; i++)
        CHECK_MSG(has(&tested, doc.id[i]), "%s is in docs/ERRORS.md but no EXPECT tests it",
                  doc.id[i]);
    for (int i = 0; i < tested.n; i++)
        CHECK_MSG(has(&doc, tested.id[i]), "%s is tested but missing from docs/ERRORS.md",
                  tested.id[i]);
}
