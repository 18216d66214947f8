/* plan_families_gguf.c — the llama.cpp architecture registry listed for
 * `posenc plan --families` (plan_families_gguf.h). */
#include "plan_families_gguf.h"

#include "output.h"
#include "posenc.h"

#include <stdio.h>

int cli_print_gguf_families_json(void) {
    for (int64_t i = 0; i < pe_gguf_arch_count(); i++) {
        pe_gguf_arch_info a;
        int st = pe_gguf_arch_get(i, &a);
        if (st != PE_OK) return st;
        printf("%s\n  {\"arch\": ", i ? "," : "");
        out_json_string(stdout, a.arch);
        printf(", \"rope_type\": ");
        out_json_string(stdout, a.rope_type);
        printf(", \"kind\": ");
        out_json_string(stdout, pe_position_kind_name(a.position));
        printf(", \"source\": ");
        out_json_string(stdout, a.source);
        printf(", \"refusal\": ");
        if (a.refusal != NULL) out_json_string(stdout, a.refusal);
        else printf("null");
        printf("}");
    }
    return PE_OK;
}

int cli_print_gguf_families_table(void) {
    printf("\nllama.cpp architectures (GGUF):\n");
    for (int64_t i = 0; i < pe_gguf_arch_count(); i++) {
        pe_gguf_arch_info a;
        int st = pe_gguf_arch_get(i, &a);
        if (st != PE_OK) return st;
        printf("%-22s %-11s %-8s %s%s\n", a.arch, a.rope_type, pe_position_kind_name(a.position),
               a.refusal != NULL ? "refused: " : "", a.refusal != NULL ? a.refusal : a.source);
    }
    return PE_OK;
}
