/* cmd_bench.c — `posenc bench`: each fast path against its baseline. */
#include "commands.h"

#include "../bench/bench.h"

static const cli_opt opts[] = {
    {"json", NULL, "print one JSON object instead of the table"},
    {"quick", NULL, "7 repeats instead of 21, a sampled error check (about 20 s; under 60 s)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_bench_spec = {
    "bench",
    "[--json] [--quick]",
    "time the kernels against in-run baselines",
    "Measures each case and its baseline in the same run on the same buffers (warm-up,\n"
    "then medians of alternating repeats) and prints ratio = posenc time / baseline time\n"
    "with its target, throughput, and the max error against the exact result. A case whose\n"
    "baseline varied between samples (interquartile range > 3% of its median) or whose ratio\n"
    "is past its target is measured again with more samples (up to 3 rounds); a ratio still\n"
    "past its target by less than the baseline's own spread is marked ~> and 'noisy' (a busy\n"
    "machine, not a slow kernel), a clear miss !>; the last lines count them. Cases: RoPE\n"
    "on 4096 x 32 x 128 f32 in place (baseline: x *= c) and out of place (baseline:\n"
    "streaming copy), 512 tokens, one decode token, an exact 32768 x 64 cos/sin table\n"
    "(baseline: libm sinf/cosf on float angles), each also on 2 threads; the interleaved\n"
    "layout (_inter: 4096 and 512 tokens, also on 2 threads, and f16); f16 and bf16\n"
    "storage; pe_rope_shift in place with per-token deltas (rope_shift_4096, baseline x *= c);\n"
    "the fused QKV epilogue (fused_qkv_4096: QK-norm + RoPE + k/v into an f16 cache, 4096 x\n"
    "(32 + 2 x 8) x 128, baseline a streaming copy of the qkv buffer; fused_qkv_4096_separate:\n"
    "the same call against the separate passes it replaces; fused_qkv_decode_1); the\n"
    "driver's angle sources (rope_table_4096: from a caller's f32 cos/sin table;\n"
    "rope_varlen_4096: 8 packed sequences; both vs x *= c; mrope_inplace_4096 and its _2t:\n"
    "M-RoPE on text + an image grid, vs plain RoPE on the same shape);\n"
    "the scalar reference kernels; numpy/PyTorch when /usr/bin/python3 has them;\n"
    "train_step: one training step of `posenc experiment`'s model per token (elem = token)\n"
    "against its forward pass.\n"
    "JSON: {\"isa\": ..., \"cases\": [{\"name\", \"threads\", \"ns_per_elem\", \"gbps\",\n"
    "\"baseline\", \"baseline_ns_per_elem\", \"ratio\", \"max_abs_err\", \"target\" (0: none),\n"
    "\"baseline_spread\", \"verdict\": none|met|missed|noisy}, ...]}.\n"
    "PE_ISA=scalar|avx2|avx512|neon picks the kernel set (on AArch64 the baselines are\n"
    "NEON loops; under emulation the ratios mean nothing).",
    opts,
    0,
    0,
    "  posenc bench --quick\n"
    "  PE_ISA=avx2 posenc bench --json\n",
};

int cmd_bench(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    const bench_opts o = {cli_has(&a, "quick"), cli_has(&a, "json")};
    if (bench_run(&o, stdout) != 0) return CLI_RUNTIME;
    return cli_close_output(spec, stdout, NULL);
}
