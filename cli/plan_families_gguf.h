/* plan_families_gguf.h — `posenc plan --families`: the llama.cpp side of
 * the registry (pe_gguf_arch_*), as the "gguf" list's entries or a table.
 * cmd_plan.c prints the brackets and the Hugging Face side. */
#ifndef CLI_PLAN_FAMILIES_GGUF_H
#define CLI_PLAN_FAMILIES_GGUF_H

/* The entries of "gguf": [...] ("\n  {...}" each, comma-separated):
 * {"arch", "rope_type", "kind", "source", "refusal"}. PE_OK or a status. */
int cli_print_gguf_families_json(void);
/* One line per architecture: arch, rope type, kind, source or refusal. */
int cli_print_gguf_families_table(void);

#endif
