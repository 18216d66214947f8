/* cmd_rope.c — `posenc rope`: rotate a float32 .npy tensor. */
#include "commands.h"
#include "freq_opts.h"

#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {"in", "X.npy", "input: float32, C order, (tokens, D) or (tokens, heads, D)"},
    {"out", "Y.npy", "output: same shape and dtype"},
    {"layout", "interleaved|half",
     "pair layout: (x[2i], x[2i+1]) or (x[i], x[i+d/2]); required unless --config knows it"},
    {"start", "P", "token t sits at position P + t"},
    {"positions", "P.npy", "int64 .npy of one position per token"},
    {"inverse", NULL, "undo a rotation (angle -theta, magnitude 1/A)"},
    FREQ_OPTS,
    {NULL, NULL, NULL},
};

const cli_spec cmd_rope_spec = {
    "rope",
    "--in X.npy --out Y.npy [--layout interleaved|half] (--start P | --positions P.npy)\n"
    "                   [--inverse] [frequency options | --config config.json]",
    "rotate a tensor with RoPE (exact angles)",
    "Applies rotary position embeddings to every (token, head) row of X. Angles are formed\n"
    "and reduced in extended precision, so results stay exact to float rounding at any\n"
    "position |p| < 2^31. Interleaved: Meta Llama, GPT-J, RoFormer; half: Hugging Face\n"
    "rotate_half, GPT-NeoX. The frequency options are those of `posenc freqs` (any scaling\n"
    "scheme, or --config to rotate exactly as a checkpoint does, magnitude A included);\n"
    "--head-dim defaults to the tensor's last dimension.",
    opts,
    0,
    0,
    "  posenc rope --in q.npy --out q_rot.npy --layout half --start 0\n"
    "  posenc rope --in q_rot.npy --out q.npy --layout half --start 0 --inverse\n"
    "  posenc rope --in q.npy --out q_rot.npy --config config.json --positions pos.npy\n",
};

int cmd_rope(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static const char *const layouts[] = {"interleaved", "half", NULL};
    int layout = -1;
    int64_t start = 0;
    if ((rc = cli_get_choice(&a, "layout", layouts, &layout)) ||
        (rc = cli_get_int64(&a, "start", &start)))
        return rc;
    if (!cli_has(&a, "in") || !cli_has(&a, "out"))
        return cli_usage_error(spec, "--in X.npy and --out Y.npy are required");
    if (layout < 0 && !cli_has(&a, "config"))
        return cli_usage_error(spec, "--layout interleaved|half is required");
    if (cli_has(&a, "start") == cli_has(&a, "positions"))
        return cli_usage_error(spec, "give exactly one of --start P or --positions P.npy");

    pe_npy_array x, pos = {0};
    int st = pe_npy_read(cli_get(&a, "in"), &x);
    if (st != PE_OK) return cli_lib_error(spec, st);
    int result = CLI_OK;
    cli_freq_setup *f = malloc(sizeof *f);
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
    if ((result = cli_freq_setup_resolve(&a, D, f))) goto done;
    if (layout < 0) {
        if (!f->layout_known) {
            result = cli_usage_error(spec, "the config does not tell the pair layout (model_type '%s'): "
                                           "give --layout", f->model_type);
            goto done;
        }
        layout = (int)f->layout;
    }
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
    pe_tensor t = pe_tensor_dense(x.data, PE_F32, tokens, heads, D);
    st = pe_rope_apply(&f->freqs, (pe_rope_layout)layout, &p, &t, &t,
                           cli_has(&a, "inverse") ? PE_ROPE_INVERSE : PE_ROPE_FORWARD);
    if (st != PE_OK) result = cli_lib_error(spec, st);
    else result = cli_write_npy(spec, cli_get(&a, "out"), PE_F32, x.ndim, x.shape, x.data);
done:
    free(f);
    pe_npy_free(&x);
    pe_npy_free(&pos);
    return result;
}
