/*
 * dispatch.c — picks the kernel set. Only the scalar set exists so far; the
 * vectorized sets will be chosen here once (CPUID plus the OS check) with the
 * PE_ISA override, and families keep calling pe__kernels() unchanged.
 */
#include "../internal.h"

const pe_kernel_table *pe__kernels(void) { return &pe__kernels_scalar; }

const char *pe_kernels_name(void) { return pe__kernels()->name; }
