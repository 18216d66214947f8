/* cmd_rope.c — `posenc rope`: rotate a float32 .npy tensor. */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {"in", "X.npy", "input: float32, C order, (tokens, D) or (tokens, heads, D)"},
    {"out", "Y.npy", "output: same shape and dtype"},
    {"layout", "interleaved|half", "pair layout (required): (x[2i], x[2i+1]) or (x[i], x[i+d/2])"},
    {"rotary-dim", "d", "rotate only the first d elements of each head (default D)"},
    {"base", "B", "RoPE base theta (default 10000)"},
    {"start", "P", "token t sits at position P + t"},
    {"positions", "P.npy", "int64 .npy of one position per token"},
    {"inverse", NULL, "undo a rotation (angle -theta, magnitude 1/A)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_rope_spec = {
    "rope",
    "--in X.npy --out Y.npy --layout interleaved|half [--rotary-dim d] [--base B]\n"
    "                   (--start P | --positions P.npy) [--inverse]",
    "rotate a tensor with RoPE (exact angles)",
    "Applies rotary position embeddings to every (token, head) row of X. Angles are formed\n"
    "and reduced in extended precision, so results stay exact to float rounding at any\n"
    "position |p| < 2^31. Interleaved: Meta Llama, GPT-J, RoFormer; half: Hugging Face\n"
    "rotate_half, GPT-NeoX.",
    opts,
    0,
    0,
    "  posenc rope --in q.npy --out q_rot.npy --layout half --start 0\n"
    "  posenc rope --in q_rot.npy --out q.npy --layout half --start 0 --inverse\n",
};

int cmd_rope(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static const char *const layouts[] = {"interleaved", "half", NULL};
    int layout = -1;
    int64_t rotary_dim = 0, start = 0;
    double base = 10000.0;
    if ((rc = cli_get_choice(&a, "layout", layouts, &layout)) ||
        (rc = cli_get_int64(&a, "rotary-dim", &rotary_dim)) ||
        (rc = cli_get_double(&a, "base", &base)) || (rc = cli_get_int64(&a, "start", &start)))
        return rc;
    if (!cli_has(&a, "in") || !cli_has(&a, "out"))
        return cli_usage_error(spec, "--in X.npy and --out Y.npy are required");
    if (layout < 0) return cli_usage_error(spec, "--layout interleaved|half is required");
    if (cli_has(&a, "start") == cli_has(&a, "positions"))
        return cli_usage_error(spec, "give exactly one of --start P or --positions P.npy");

    pe_npy_array x, pos = {0};
    int st = pe_npy_read(cli_get(&a, "in"), &x);
    if (st != PE_OK) return cli_lib_error(spec, st);
    int result = CLI_OK;
    pe_freqs *f = malloc(sizeof *f);
    if (f == NULL) {
        result = cli_runtime_error(spec, "out of memory");
        goto done;
    }
    if (x.dtype != PE_F32 || (x.ndim != 2 && x.ndim != 3)) {
        result = cli_runtime_error(spec, "%s: need float32 (tokens, D) or (tokens, heads, D), got %s with %d dims",
                                   cli_get(&a, "in"), pe_dtype_name(x.dtype), x.ndim);
        goto done;
    }
    int64_t tokens = x.shape[0], heads = x.ndim == 3 ? x.shape[1] : 1, D = x.shape[x.ndim - 1];
    if (!cli_has(&a, "rotary-dim")) rotary_dim = D;
    pe_positions p = pe_positions_range(start);
    if (cli_has(&a, "positions")) {
        st = pe_npy_read(cli_get(&a, "positions"), &pos);
        if (st != PE_OK) {
            result = cli_lib_error(spec, st);
            goto done;
        }
        if (pos.dtype != PE_I64 || pos.ndim != 1 || pos.shape[0] != tokens) {
            result = cli_runtime_error(spec, "%s: need int64 of shape (%lld,), got %s with %d dims (first %lld)",
                                       cli_get(&a, "positions"), (long long)tokens,
                                       pe_dtype_name(pos.dtype), pos.ndim,
                                       (long long)(pos.ndim ? pos.shape[0] : 0));
            goto done;
        }
        p = pe_positions_list((const int64_t *)pos.data);
    }
    st = pe_freqs_default(rotary_dim, base, f);
    pe_tensor t = pe_tensor_dense(x.data, PE_F32, tokens, heads, D);
    if (st == PE_OK)
        st = pe_rope_apply(f, (pe_rope_layout)layout, &p, &t, &t,
                           cli_has(&a, "inverse") ? PE_ROPE_INVERSE : PE_ROPE_FORWARD);
    if (st == PE_OK) st = pe_npy_write(cli_get(&a, "out"), PE_F32, x.ndim, x.shape, x.data);
    if (st != PE_OK) result = cli_lib_error(spec, st);
done:
    free(f);
    pe_npy_free(&x);
    pe_npy_free(&pos);
    return result;
}
