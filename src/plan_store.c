/*
 * plan_store.c — a plan's shared storage, below every reader that fills one
 * (plan.c from a config, plan_positions.c for non-RoPE families,
 * plan_gguf.c from a GGUF): warnings (deduplicated, capped), layer-type
 * names, and the distinct non-RoPE positions layers index into.
 */
#include "plan_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL) memcpy(d, s, n);
    return d;
}

int pe__plan_warn(pe_plan *p, const char *fmt, ...) {
    char buf[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (int64_t i = 0; i < p->n_warnings; i++)
        if (strcmp(p->warnings[i], buf) == 0) return PE_OK;
    if (p->n_warnings == PE_PLAN_MAX_WARNINGS) return PE_OK; /* the first 64 say enough */
    p->warnings[p->n_warnings] = dup_str(buf);
    if (p->warnings[p->n_warnings] == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory for a plan warning");
    p->n_warnings++;
    return PE_OK;
}

int pe__plan_type_index(pe_plan *p, const char *name, int32_t *out) {
    for (int64_t i = 0; i < p->n_names; i++)
        if (strcmp(p->names[i], name) == 0) {
            *out = (int32_t)i;
            return PE_OK;
        }
    if (p->n_names == PE_PLAN_MAX_TYPES)
        return pe__fail(PE_ERR_FORMAT, "'layer_types' names more than %d distinct types",
                        PE_PLAN_MAX_TYPES);
    if (strlen(name) > 63)
        return pe__fail(PE_ERR_FORMAT, "layer type '%.40s...' is longer than 63 bytes",
                        name);
    p->names[p->n_names] = dup_str(name);
    if (p->names[p->n_names] == NULL)
        return pe__fail(PE_ERR_NOMEM, "no memory for a layer type name");
    *out = (int32_t)p->n_names++;
    return PE_OK;
}

int pe__plan_add_position(pe_plan *p, const pe__position *pos, int32_t *index) {
    for (int64_t i = 0; i < p->n_positions; i++)
        if (memcmp(&p->positions[i], pos, sizeof *pos) == 0) {
            *index = (int32_t)i;
            return PE_OK;
        }
    pe__position *grown = realloc(p->positions, (size_t)(p->n_positions + 1) * sizeof *grown);
    if (grown == NULL) return pe__fail(PE_ERR_NOMEM, "no memory for a plan's positions");
    p->positions = grown;
    p->positions[p->n_positions] = *pos;
    *index = (int32_t)p->n_positions++;
    return PE_OK;
}
