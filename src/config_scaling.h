/*
 * config_scaling.h — a scheme's parameters read from a config.json scaling
 * block by the scheme table's keys (rope_scaling.c), so config_rope.c lists
 * none of them and a parameter added to the table is read unasked.
 */
#ifndef PE_CONFIG_SCALING_H
#define PE_CONFIG_SCALING_H

#include "config_json.h"

/*
 * Every parameter with a config key, read from block (obj NULL: none) and
 * checked; those c->scaling.type reads are stored into c->scaling (a key its
 * scheme ignores is still refused when malformed): REAL, INT and BOOL through the
 * setters, LIST into its inline array in *c (its count set, its pointer left
 * NULL: pe_config_scaling points it). A key the block does not state keeps
 * the default. PE_ERR_FORMAT naming the key for a wrong type or a value its
 * row refuses ("'rope_scaling.factor'=0 must be > 0").
 */
int pe__scaling_read_block(pe__scope block, pe_rope_config *c);

/* c's scaling with every LIST parameter pointing into *c (NULL when empty)
 * and no others (their arrays live elsewhere); PE_ERR_PARAM for a count
 * outside [0, PE_MAX_PAIRS]. */
int pe__scaling_point_lists(const pe_rope_config *c, pe_rope_scaling *out);

#endif
