/*
 * config_scaling.c — reading a scheme's parameters from a Hugging Face
 * config.json scaling block generically, over the scheme table: each row's
 * config key, kind and config rule (rope_scaling.c) say how. config_rope.c
 * calls it once per block; nothing here names a parameter.
 */
#include "config_scaling.h"
#include "scaling_internal.h"

#include <string.h>

/* Parameter i as block states it (absent: unchanged). Every key is read and
 * checked, so a malformed one is refused even where the scheme ignores it;
 * only the scheme's own are stored (store). */
static int read_param(pe__scope block, pe_rope_config *c, int i, bool store) {
    pe_rope_scaling *s = &c->scaling;
    const pe_scaling_param *p = pe_scaling_param_get(i);
    const unsigned rule = pe__scaling_param_config(i);
    bool has = false;
    switch (p->kind) {
    case PE_SCALING_PARAM_REAL: {
        double v = 0.0;
        PE_TRY(pe__json_number(block, p->config_key, &v, &has));
        if (!has || (v == 0.0 && (rule & PE__CFG_ZERO_UNSET))) return PE_OK;
        if ((rule & PE__CFG_POSITIVE) && !(v > 0.0))
            return pe__fail(PE_ERR_FORMAT, "'%s%s'=%g must be > 0", block.prefix, p->config_key,
                            v);
        return store ? pe_scaling_set_real(s, i, v) : PE_OK;
    }
    case PE_SCALING_PARAM_INT: {
        int64_t v = 0;
        PE_TRY(pe__json_int(block, p->config_key, &v, &has));
        return has && store ? pe_scaling_set_int(s, i, v) : PE_OK;
    }
    case PE_SCALING_PARAM_BOOL: {
        bool v = false;
        PE_TRY(pe__json_bool(block, p->config_key, &v, &has));
        return has && store ? pe_scaling_set_int(s, i, v ? 1 : 0) : PE_OK;
    }
    case PE_SCALING_PARAM_LIST: {
        double scratch[PE_MAX_PAIRS], *into = store ? pe__scaling_param_store(c, i) : scratch;
        if (into == NULL) /* a row with a key but no array in pe_rope_config */
            return pe__fail(PE_ERR_UNSUPPORTED, "'%s%s': this posenc has no place to keep "
                            "the list", block.prefix, p->config_key);
        int64_t n = 0;
        PE_TRY(pe__json_list(block, p->config_key, into, &n, &has));
        return has && store ? pe_scaling_set_list(s, i, NULL, n) : PE_OK;
    }
    }
    return PE_OK;
}

int pe__scaling_read_block(pe__scope block, pe_rope_config *c) {
    if (block.obj == NULL) return PE_OK;
    for (int i = 0; i < pe_scaling_num_params(); i++)
        if (pe_scaling_param_get(i)->config_key != NULL)
            PE_TRY(read_param(block, c, i, pe_scaling_reads(c->scaling.type, i) != 0));
    return PE_OK;
}

int pe__scaling_point_lists(const pe_rope_config *c, pe_rope_scaling *out) {
    pe_rope_scaling s = c->scaling; /* *out untouched on an error */
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        if (pe_scaling_param_get(i)->kind != PE_SCALING_PARAM_LIST) continue;
        const double *v;
        int64_t n;
        PE_TRY(pe_scaling_get_list(&c->scaling, i, &v, &n));
        const double *store = pe__scaling_param_store_const(c, i);
        if (store == NULL) n = 0;
        if (n < 0 || n > PE_MAX_PAIRS)
            return pe__fail(PE_ERR_PARAM, "config list lengths: %s has %lld entries, outside "
                            "[0, %d]", pe_scaling_param_get(i)->name, (long long)n, PE_MAX_PAIRS);
        PE_TRY(pe_scaling_set_list(&s, i, n > 0 ? store : NULL, n));
    }
    *out = s;
    return PE_OK;
}
