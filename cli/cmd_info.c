/* cmd_info.c — `posenc info`: version, kernel sets, threads. */
#include "commands.h"

#include <stdlib.h>

static const cli_opt opts[] = {
    {NULL, NULL, NULL},
};

const cli_spec cmd_info_spec = {
    "info",
    "",
    "version, active kernel set and what this CPU supports",
    "Prints the library version, the active kernel set (chosen at start from what the\n"
    "CPU and OS support, or by PE_ISA=scalar|avx2|avx512), every set and whether it is\n"
    "usable here, and the threading policy.",
    opts,
    0,
    0,
    "  posenc info\n"
    "  PE_ISA=scalar posenc info\n",
};

int cmd_info(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static const char *const sets[] = {"scalar", "avx2", "avx512"};
    const char *env = getenv("PE_ISA");
    printf("posenc %s\n", pe_version_string());
    printf("kernels: %s\n", pe_kernels_name());
    printf("available:");
    for (int i = 0; i < 3; i++)
        if (pe_kernels_supported(sets[i])) printf(" %s", sets[i]);
    printf("\nPE_ISA: %s\n", env ? env : "(unset)");
    printf("threads: 1 unless a call asks for more (pe_rope_options.threads)\n");
    return cli_close_output(spec, stdout, NULL);
}
