/* cmd_convert_qk.c — `posenc convert-qk`: permute the rows of a checkpoint's
 * q/k projections between the interleaved and half-split pair layouts. */
#include "commands.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Hugging Face (q_proj/k_proj) and Meta (wq/wk) projection names. */
#define DEFAULT_PATTERNS                                                                 \
    "*q_proj.weight,*q_proj.bias,*k_proj.weight,*k_proj.bias,*.wq.weight,*.wq.bias,"   \
    "*.wk.weight,*.wk.bias"
/* Recorded in the output's __metadata__, so a second conversion in the same
 * direction (which would scramble the rows) is refused. */
#define LAYOUT_KEY "posenc.qk_layout"

static const cli_opt opts[] = {
    {"in", "IN.safetensors", "checkpoint (or shard) to read"},
    {"out", "OUT.safetensors", "where to write; replaced only once complete"},
    {"to", "half|interleaved", "target layout: half = Hugging Face rotate_half, interleaved = Meta"},
    {"heads", "N", "query heads"},
    {"kv-heads", "M", "key/value heads (grouped-query attention; default N)"},
    {"head-dim", "D", "head dimension (default: largest matched row count / N)"},
    {"rotary-dim", "d", "rotated rows of each head, even, <= D (default D)"},
    {"tensors", "PATTERN", "comma-separated globs of the q/k tensors (default: " DEFAULT_PATTERNS ")"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_convert_qk_spec = {
    "convert-qk",
    "--in IN.safetensors --out OUT.safetensors --to half|interleaved --heads N\n"
    "                   [--kv-heads M] [--head-dim D] [--rotary-dim d] [--tensors PATTERN]",
    "convert a checkpoint's q/k rows between RoPE pair layouts",
    "Permutes the rows of every q/k projection weight (rows, cols) and bias (rows,) within each\n"
    "head, so that a checkpoint trained with one pair layout gives the same attention scores\n"
    "under the other: --to half turns Meta (interleaved) weights into Hugging Face ones (the\n"
    "permute() of convert_llama_weights_to_hf.py), --to interleaved undoes it. Rows past\n"
    "--rotary-dim stay put. A query tensor has N*D rows, a key tensor M*D; every matched tensor\n"
    "must be one or the other (fused qkv projections are refused). Every other tensor and the\n"
    "metadata are copied; the output records the layout in __metadata__ \"" LAYOUT_KEY "\", and\n"
    "converting a file again to the layout it records is refused. Shapes are checked before\n"
    "anything is written, and the output appears only when complete.",
    opts,
    0,
    0,
    "  posenc convert-qk --in consolidated.safetensors --out hf.safetensors --to half --heads 32 --kv-heads 8\n"
    "  posenc convert-qk --in model.safetensors --out meta.safetensors --to interleaved --heads 16 \\\n"
    "      --tensors 'model.layers.*.self_attn.[qk]_proj.weight'\n",
};

static bool matches(const char *patterns, const char *name) {
    char pat[512];
    for (const char *p = patterns; *p;) {
        size_t n = strcspn(p, ",");
        if (n > 0 && n < sizeof pat) {
            memcpy(pat, p, n);
            pat[n] = '\0';
            if (fnmatch(pat, name, 0) == 0) return true;
        }
        p += n;
        if (*p == ',') p++;
    }
    return false;
}

typedef struct {
    int64_t heads, kv_heads, head_dim, rotary_dim;
    int to;
    const char *patterns;
} convert_opts;

/* Pick the q/k tensors, infer D when not given, and check every shape; marks
 * selected[i]. Prints the problem and returns a CLI status. */
static int select_tensors(const cli_spec *spec, const pe_safetensors *st, convert_opts *o,
                          bool *selected, int64_t *n_selected) {
    int64_t n = pe_safetensors_count(st), max_rows = -1;
    const char *max_name = NULL;
    *n_selected = 0;
    for (int64_t i = 0; i < n; i++) {
        pe_st_tensor t;
        pe_safetensors_get(st, i, &t);
        selected[i] = matches(o->patterns, t.name);
        if (!selected[i]) continue;
        if (t.ndim != 1 && t.ndim != 2)
            return cli_runtime_error(spec, "tensor '%s' has %d dims; a q/k weight is (rows, cols), a bias (rows,)",
                                     t.name, t.ndim);
        if (t.shape[0] > max_rows) {
            max_rows = t.shape[0];
            max_name = t.name;
        }
        (*n_selected)++;
    }
    if (*n_selected == 0)
        return cli_runtime_error(spec, "no tensor matches '%s'", o->patterns);
    const bool inferred = o->head_dim == 0;
    if (inferred) {
        if (max_rows % o->heads != 0 || max_rows == 0)
            return cli_runtime_error(spec, "cannot infer --head-dim: '%s' has %lld rows, not a multiple of --heads %lld",
                                     max_name, (long long)max_rows, (long long)o->heads);
        o->head_dim = max_rows / o->heads;
    }
    /* checked: huge --heads/--head-dim must not wrap into a row count */
    int64_t q_rows, k_rows;
    if (__builtin_mul_overflow(o->heads, o->head_dim, &q_rows) ||
        __builtin_mul_overflow(o->kv_heads, o->head_dim, &k_rows))
        return cli_usage_error(spec, "--heads %lld (or --kv-heads %lld) x --head-dim %lld overflows int64",
                               (long long)o->heads, (long long)o->kv_heads, (long long)o->head_dim);
    bool saw_q = false, saw_k = false;
    for (int64_t i = 0; i < n; i++) {
        if (!selected[i]) continue;
        pe_st_tensor t;
        pe_safetensors_get(st, i, &t);
        if (t.shape[0] == q_rows) saw_q = true;
        else if (t.shape[0] == k_rows) saw_k = true;
        else
            return cli_runtime_error(spec,
                                     "tensor '%s' has %lld rows; want heads*head_dim = %lld or kv_heads*head_dim = %lld "
                                     "(fused qkv projections are not supported)",
                                     t.name, (long long)t.shape[0], (long long)q_rows, (long long)k_rows);
    }
    /* Inferred from key tensors alone, D would be wrong by heads/kv_heads. */
    if (inferred && o->kv_heads != o->heads && !(saw_q && saw_k))
        return cli_runtime_error(spec, "cannot infer --head-dim: no matched tensor has kv_heads*D = %lld rows; give --head-dim",
                                 (long long)k_rows);
    return CLI_OK;
}

int cmd_convert_qk(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static const char *const layouts[] = {"interleaved", "half", NULL};
    convert_opts o = {0, 0, 0, 0, -1, DEFAULT_PATTERNS};
    if ((rc = cli_get_choice(&a, "to", layouts, &o.to)) || (rc = cli_get_int64(&a, "heads", &o.heads)) ||
        (rc = cli_get_int64(&a, "kv-heads", &o.kv_heads)) ||
        (rc = cli_get_int64(&a, "head-dim", &o.head_dim)) ||
        (rc = cli_get_int64(&a, "rotary-dim", &o.rotary_dim)))
        return rc;
    if (!cli_has(&a, "in") || !cli_has(&a, "out"))
        return cli_usage_error(spec, "--in IN.safetensors and --out OUT.safetensors are required");
    if (o.to < 0) return cli_usage_error(spec, "--to half|interleaved is required");
    if (!cli_has(&a, "heads") || o.heads < 1)
        return cli_usage_error(spec, "--heads N (>= 1) is required");
    if (!cli_has(&a, "kv-heads")) o.kv_heads = o.heads;
    if (o.kv_heads < 1 || o.kv_heads > o.heads || o.heads % o.kv_heads != 0)
        return cli_usage_error(spec, "--kv-heads %lld must divide --heads %lld", (long long)o.kv_heads,
                               (long long)o.heads);
    if (cli_has(&a, "head-dim") && o.head_dim < 2)
        return cli_usage_error(spec, "--head-dim %lld must be >= 2", (long long)o.head_dim);
    if (cli_has(&a, "tensors")) o.patterns = cli_get(&a, "tensors");

    pe_safetensors *st = NULL;
    int status = pe_safetensors_read(cli_get(&a, "in"), &st);
    if (status != PE_OK) return cli_lib_error(spec, status);
    const char *target = layouts[o.to];
    const char *recorded = pe_safetensors_metadata_get(st, LAYOUT_KEY);
    int64_t n = pe_safetensors_count(st), n_sel = 0, n_meta = pe_safetensors_metadata_count(st);
    bool *selected = calloc((size_t)n + 1, sizeof *selected);
    pe_st_tensor *out = calloc((size_t)n + 1, sizeof *out);
    void **owned = calloc((size_t)n + 1, sizeof *owned);
    const char **meta = calloc((size_t)(2 * n_meta + 3), sizeof *meta);
    int result = CLI_OK;
    if (!selected || !out || !owned || !meta) {
        result = cli_runtime_error(spec, "out of memory");
        goto done;
    }
    if (recorded && strcmp(recorded, target) == 0) {
        result = cli_runtime_error(spec, "%s is already in the %s layout (__metadata__ %s); converting it again "
                                         "would scramble its rows",
                                   cli_get(&a, "in"), target, LAYOUT_KEY);
        goto done;
    }
    if ((result = select_tensors(spec, st, &o, selected, &n_sel))) goto done;
    if (!cli_has(&a, "rotary-dim")) o.rotary_dim = o.head_dim;
    /* Every shape and the rotary dim are checked on an empty call before
     * anything is allocated or written. */
    for (int64_t i = 0; i < n && result == CLI_OK; i++) {
        pe_safetensors_get(st, i, &out[i]);
        if (!selected[i]) continue;
        status = pe_qk_permute_rows(NULL, NULL, out[i].shape[0], 0, o.head_dim, o.rotary_dim,
                                    (pe_rope_layout)o.to);
        if (status != PE_OK) result = cli_lib_error(spec, status);
    }
    for (int64_t i = 0; i < n && result == CLI_OK; i++) {
        if (!selected[i] || out[i].nbytes == 0) continue;
        int64_t rows = out[i].shape[0];
        owned[i] = malloc(out[i].nbytes);
        if (owned[i] == NULL) {
            result = cli_runtime_error(spec, "out of memory for '%s' (%zu bytes)", out[i].name, out[i].nbytes);
            break;
        }
        status = pe_qk_permute_rows(out[i].data, owned[i], rows, out[i].nbytes / (size_t)rows, o.head_dim,
                                    o.rotary_dim, (pe_rope_layout)o.to);
        if (status != PE_OK) result = cli_lib_error(spec, status);
        out[i].data = owned[i];
    }
    if (result != CLI_OK) goto done;
    int64_t m = 0;
    for (int64_t i = 0; i < n_meta; i++) {
        const char *k, *v;
        pe_safetensors_metadata_at(st, i, &k, &v);
        if (strcmp(k, LAYOUT_KEY) == 0) continue;
        meta[m++] = k;
        meta[m++] = v;
    }
    meta[m++] = LAYOUT_KEY;
    meta[m++] = target;
    meta[m] = NULL;
    if ((result = cli_write_safetensors(spec, cli_get(&a, "out"), out, n, meta)) != CLI_OK) goto done;
    printf("converted %lld of %lld tensors to the %s layout (heads %lld, kv_heads %lld, head_dim %lld, "
           "rotary_dim %lld)\n",
           (long long)n_sel, (long long)n, target, (long long)o.heads, (long long)o.kv_heads,
           (long long)o.head_dim, (long long)o.rotary_dim);
    for (int64_t i = 0; i < n; i++)
        if (selected[i])
        {
            if (out[i].ndim == 2) /* a weight (rows, cols) */
                printf("  %s  %s (%lld, %lld) %lld heads\n", out[i].name, out[i].st_dtype,
                       (long long)out[i].shape[0], (long long)out[i].shape[1],
                       (long long)(out[i].shape[0] / o.head_dim));
            else /* a bias (rows,) */
                printf("  %s  %s (%lld,) %lld heads\n", out[i].name, out[i].st_dtype, (long long)out[i].shape[0],
                       (long long)(out[i].shape[0] / o.head_dim));
        }
done:
    for (int64_t i = 0; owned && i < n; i++) free(owned[i]);
    free(owned);
    free(out);
    free(selected);
    free(meta);
    pe_safetensors_free(st);
    return result;
}
