/* cmd_rope.c — `posenc rope`: rotate a float32 .npy tensor. */
#include "commands.h"
#include "freq_opts.h"

#include <stdlib.h>
#include <string.h>

static const cli_opt own_opts[] = {
    {"in", "X.npy", "input: float32, C order, (tokens, D) or (tokens, heads, D)"},
    {"out", "Y.npy", "output: same shape and dtype"},
    {"layout", "interleaved|half",
     "pair layout: (x[2i], x[2i+1]) or (x[i], x[i+d/2]); required unless --config knows it"},
    {"start", "P", "token t sits at position P + t"},
    {"positions", "P.npy", "int64 .npy of one position per token"},
    {"inverse", NULL, "undo a rotation (angle -theta, magnitude 1/A)"},
    {NULL, NULL, NULL},
};
/* own_opts and the frequency options (cli_freq_opts, before parsing). */
static cli_opt opts[CLI_MAX_OPTS + 1];

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

/* numpy's name for a dtype, as the user would write it. */
static const char *numpy_name(pe_dtype dtype) {
    switch (dtype) {
    case PE_F32: return "float32";
    case PE_F64: return "float64";
    case PE_F16: return "float16";
    case PE_I64: return "int64";
    default: return pe_dtype_name(dtype);
    }
}

/* A .npy whose dtype the reader does not know at all (int32, uint8, ...):
 * name the file, its dtype and the conversion, not every dtype the reader
 * knows (some of which this command would refuse next). */
static int dtype_error(const cli_spec *spec, const char *flag, const char *path, const char *want,
                       const char *fix) {
    const char *detail = pe_last_error(), *q = strchr(detail, '\'');
    char descr[32] = "?";
    if (q) {
        size_t n = strcspn(q + 1, "'");
        if (n < sizeof descr) {
            memcpy(descr, q + 1, n);
            descr[n] = '\0';
        }
    }
    return cli_runtime_error(spec, "--%s %s: dtype '%s'; convert with %s (%s reads %s)", flag, path, descr,
                             fix, spec->command, want);
}

int cmd_rope(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    cli_freq_opts(opts, own_opts);
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

    const char *in = cli_get(&a, "in"), *pos_path = cli_get(&a, "positions");
    pe_npy_array x, pos = {0};
    int st = pe_npy_read(in, &x);
    if (st == PE_ERR_DTYPE) return dtype_error(spec, "in", in, "float32", "x.astype(np.float32)");
    if (st != PE_OK) return cli_lib_error(spec, st);
    int result = CLI_OK;
    char dim_source[512];
    cli_freq_setup *f = malloc(sizeof *f);
    if (f == NULL) {
        result = cli_runtime_error(spec, "out of memory");
        goto done;
    }
    if (x.dtype != PE_F32) {
        result = cli_runtime_error(spec, "--in %s: %s; convert with x.astype(np.float32) (rope reads float32)",
                                   in, numpy_name(x.dtype));
        goto done;
    }
    if (x.ndim != 2 && x.ndim != 3) {
        result = cli_runtime_error(spec, "--in %s: %d dimensions; need (tokens, D) or (tokens, heads, D) "
                                         "(reshape a batch to (batch*tokens, heads, D))",
                                   in, x.ndim);
        goto done;
    }
    int64_t tokens = x.shape[0], heads = x.ndim == 3 ? x.shape[1] : 1, D = x.shape[x.ndim - 1];
    /* --head-dim is the tensor's last dimension; a different value would
     * silently become partial rotary, which --rotary-dim says explicitly. */
    int64_t head_dim_opt = D;
    if ((result = cli_get_int64(&a, "head-dim", &head_dim_opt))) goto done;
    if (head_dim_opt != D) {
        result = cli_usage_error(spec, "--head-dim %s does not match the last dimension %lld of %s; drop it "
                                       "(it defaults to the tensor's), and give --rotary-dim %s to rotate "
                                       "only the first %s",
                                 cli_get(&a, "head-dim"), (long long)D, in, cli_get(&a, "head-dim"),
                                 cli_get(&a, "head-dim"));
        goto done;
    }
    snprintf(dim_source, sizeof dim_source, "--in %s's last dimension", in);
    if ((result = cli_freq_setup_resolve_from(&a, D, dim_source, f))) goto done;
    if (cli_has(&a, "config") && f->head_dim != D) {
        result = cli_runtime_error(spec, "--config %s has head_dim %lld, but the last dimension of %s is %lld: "
                                         "not this model's tensor",
                                   cli_get(&a, "config"), (long long)f->head_dim, in, (long long)D);
        goto done;
    }
    if (layout < 0) {
        if (!f->layout_known) {
            result = cli_usage_error(spec, "the config does not tell the pair layout (model_type '%s'): "
                                           "give --layout", f->model_type);
            goto done;
        }
        layout = (int)f->layout;
    }
    pe_positions p = pe_positions_range(start);
    if (pos_path) {
        st = pe_npy_read(pos_path, &pos);
        if (st == PE_ERR_DTYPE) {
            result = dtype_error(spec, "positions", pos_path, "int64", "p.astype(np.int64)");
            goto done;
        }
        if (st != PE_OK) {
            result = cli_lib_error(spec, st);
            goto done;
        }
        if (pos.dtype != PE_I64) {
            result = cli_runtime_error(spec, "--positions %s: %s; convert with p.astype(np.int64)", pos_path,
                                       numpy_name(pos.dtype));
            goto done;
        }
        if (pos.ndim != 1 || pos.shape[0] != tokens) {
            int64_t given = 1;
            for (int k = 0; k < pos.ndim; k++) given *= pos.shape[k];
            if (pos.ndim == 1)
                result = cli_runtime_error(spec, "--positions %s: %lld positions given, %lld needed (one per token "
                                                 "of --in %s)",
                                           pos_path, (long long)given, (long long)tokens, in);
            else
                result = cli_runtime_error(spec, "--positions %s: %d dimensions; need a flat (%lld,) array, one "
                                                 "position per token of --in %s",
                                           pos_path, pos.ndim, (long long)tokens, in);
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
