/* cmd_check.c — `posenc check`: an engine's dumped rotation (or cos/sin
 * cache) of one layer against the checkpoint's plan: the verdict, where it
 * first diverges, how the error grows, and the fault that explains it
 * (pe_check_rotation / pe_check_cos_sin). Exit 0 agree or float32 (1 with
 * --strict), 1 disagree. docs/CHECK.md is the long form. */
#include "commands.h"
#include "output.h"
#include "plot/plot.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {"config", "config.json", "the checkpoint's Hugging Face config.json"},
    {"gguf", "FILE.gguf", "or the checkpoint's llama.cpp GGUF file (its metadata only)"},
    {"family", "NAME", "read --config (or --gguf alone) as this registry family / llama.cpp architecture on purpose"},
    {"layer", "N", "the decoder layer the dump is of (default 0)"},
    {"layout", "half|interleaved", "the engine's pair layout, overriding the config's convention (llama2.c and "
                                   "ggml's NORM pair interleaved; HF code half-split)"},
    {"in", "X.npy", "q or k before the rotation, (tokens, heads, D) or (tokens, D): .npy or "
                    ".safetensors of one tensor; f32, f16 or bf16"},
    {"out", "Y.npy", "the same after the engine's rotation, same shape"},
    {"cos-sin", "C.npy", "instead of --in/--out: the engine's cache, (positions, rotary_dim), each row "
                         "[A cos..., A sin...]; f32, f64, f16 or bf16"},
    {"start", "P", "the tokens sit at P, P+1, ..."},
    {"positions", "P.npy", "or their positions: int64 (tokens,), or (tokens, 3) {t, h, w} for M-RoPE"},
    {"format", "table|json", "output format (default table)"},
    {"plot", "FIG.png", "error vs position per pair band, the best diagnosis's prediction dashed (.png or .svg)"},
    {"strict", NULL, "exit 1 on verdict float32 too (exact angles required)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_check_spec = {
    "check",
    "(--config F | --gguf F) [--family NAME] [--layer N] [--layout half|interleaved]\n"
    "       (--in X.npy --out Y.npy | --cos-sin C.npy) (--start P | --positions P.npy)\n"
    "       [--format table|json] [--plot FIG.png] [--strict]",
    "diagnose an engine's dumped RoPE against the checkpoint's plan",
    "Compares what an engine computed for one layer with the exact rotation the checkpoint's plan\n"
    "asks for (posenc plan), element by element, and says whether it agrees within the error its\n"
    "output dtype allows: 4 x 2^-24 (max|x'| + A (3 max|x|)) for f32 (the plain f32 rotation of\n"
    "exact angles is within 1x that), plus half an ulp of the largest stored value for f16/bf16,\n"
    "plus 4 x 2^-149 (the f32 subnormal spacing). Verdict float32: not within that bound of the\n"
    "exact rotation but within it of one float32 angle recipe alone (rounded_freqs, powf as\n"
    "llama2.c and HF, expf, ggml_recurrence, ggml_powf_scale): a correct float32 engine.\n"
    "When it does not agree, each known fault re-rotates the input exactly and is ranked by its RMS\n"
    "distance to the dump (residual): layout (the other pair layout), partial_rotary (another\n"
    "rotated slice), base (another base, fit from the per-pair angles), scaling_missing,\n"
    "scaling_type (linear/ntk/yarn/llama3 of another type or factor), yarn_truncate, magnitude (A\n"
    "missing or twice), position_offset (off by k, or restarted per chunk), float32_angles\n"
    "(fl(fl(p) fl(w)) and cos/sin of that float), mrope_axes (other section mode, a zeroed or\n"
    "swapped axis), half_precision_tables (cos/sin rounded to f16/bf16), pairs_unrotated (pairs\n"
    "[a, b) left as they were). When no single one explains the dump, each fault is tried again on\n"
    "top of the other layout and of each float32 recipe; \"no hypothesis explains this\" when the\n"
    "best still misses the bound. Up to 512 tokens and 8 heads are sampled for the fit; the\n"
    "verdicts read every element. The frequencies are the plan's at seq_len = largest position + 1.\n"
    "JSON: {\"verdict\": \"agree\"|\"float32\"|\"disagree\", \"float32_angles\": recipe|null,\n"
    "\"explained\": bool, \"layout\", \"max_abs_err\", \"bound\", \"first_divergence\":\n"
    "{\"token\", \"head\", \"pair\"} (null when it agrees; pair null outside the rotated slice),\n"
    "\"diagnoses\": [{\"name\", \"residual\", \"detail\", \"layout\", \"angles\"}] (best first, empty\n"
    "when it agrees), and \"growth\": {\"positions\": [[lo, hi], ...], \"pair_bands\": [[lo, hi), ...],\n"
    "\"max_abs_err\": [[per band] per position bin], \"predicted\": the same for the best diagnosis}}.\n"
    "docs/CHECK.md has the long form.\n"
    "Exit status: 0 agree or float32 (1 with --strict), 1 disagree (or a file that cannot be\n"
    "read), 2 usage.",
    opts,
    0,
    0,
    "  posenc check --config tests/fixtures/configs/llama-3.1-8b.json --in q.npy --out q_rot.npy --start 0\n"
    "  posenc check --config gemma-3-1b-it.json --layer 5 --cos-sin cache.npy --start 0 --format json\n"
    "  posenc check --config llama-2-7b.json --layout interleaved --in q.npy --out q_rot.npy --start 0 --strict\n",
};

/* A dumped array, whatever file it came from: data owned (malloc). */
typedef struct {
    pe_dtype dtype;
    int ndim;
    int64_t shape[8];
    void *data;
} dumped;

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int load_array(const cli_spec *spec, const char *flag, const char *path, dumped *out) {
    memset(out, 0, sizeof *out);
    if (ends_with(path, ".safetensors")) {
        pe_safetensors *st = NULL;
        int s = pe_safetensors_read(path, &st);
        if (s != PE_OK) return cli_runtime_error(spec, "--%s %s: %s", flag, path, pe_last_error());
        int rc = CLI_OK;
        pe_st_tensor t;
        if (pe_safetensors_count(st) != 1) {
            rc = cli_runtime_error(spec, "--%s %s holds %lld tensors; give a file with exactly one", flag,
                                   path, (long long)pe_safetensors_count(st));
        } else if (pe_safetensors_get(st, 0, &t) != PE_OK || !t.dtype_known || t.ndim > 8) {
            rc = cli_runtime_error(spec, "--%s %s: tensor '%s' has dtype %s, which check cannot read", flag,
                                   path, t.name, t.st_dtype);
        } else {
            out->dtype = t.dtype;
            out->ndim = t.ndim;
            memcpy(out->shape, t.shape, sizeof(int64_t) * (size_t)t.ndim);
            out->data = malloc(t.nbytes ? t.nbytes : 1);
            if (out->data == NULL) rc = cli_runtime_error(spec, "out of memory reading --%s %s", flag, path);
            else memcpy(out->data, t.data, t.nbytes);
        }
        pe_safetensors_free(st);
        return rc;
    }
    pe_npy_array a;
    int s = pe_npy_read(path, &a);
    if (s != PE_OK) return cli_runtime_error(spec, "--%s %s: %s", flag, path, pe_last_error());
    out->dtype = a.dtype;
    out->ndim = a.ndim;
    memcpy(out->shape, a.shape, sizeof(int64_t) * (size_t)a.ndim);
    out->data = a.data; /* pe_npy_free is free() of data */
    return CLI_OK;
}

/* (tokens, heads, D) of a dump of 2 or 3 dimensions. */
static int as_tensor(const cli_spec *spec, const char *flag, const char *path, const dumped *d,
                     pe_tensor *t) {
    if (d->dtype != PE_F32 && d->dtype != PE_F16 && d->dtype != PE_BF16)
        return cli_runtime_error(spec, "--%s %s is %s; check reads float32, float16 or bfloat16", flag, path,
                                 pe_dtype_name(d->dtype));
    if (d->ndim != 2 && d->ndim != 3)
        return cli_runtime_error(spec, "--%s %s has %d dimensions; need (tokens, heads, D) or (tokens, D) "
                                       "(reshape a batch to (batch*tokens, heads, D))",
                                 flag, path, d->ndim);
    const int64_t heads = d->ndim == 3 ? d->shape[1] : 1;
    *t = pe_tensor_dense(d->data, d->dtype, d->shape[0], heads, d->shape[d->ndim - 1]);
    return CLI_OK;
}

static const char *layout_words(pe_rope_layout l) {
    return l == PE_ROPE_INTERLEAVED ? "interleaved" : "half-split";
}

static void print_table(const char *src, int64_t layer, const pe_plan_layer *L, const pe_check_expect *ex,
                        const pe_check_report *r) {
    printf("%s layer %lld: %s, base %.10g, rotary %lld of %lld, %s, A %.6g\n", src, (long long)layer,
           pe_scaling_name(L->scaling), L->base, (long long)L->rotary_dim, (long long)L->head_dim,
           layout_words(ex->layout), ex->freqs.attention_factor);
    printf("verdict: %s (max |error| %.3g %s bound %.3g; RMS %.3g)\n", pe_check_verdict_name(r->verdict),
           r->max_abs_err, r->agree ? "<=" : ">", r->bound, r->rms_err);
    if (r->verdict == PE_CHECK_FLOAT32)
        printf("float32: the dump is the float32 angle recipe %s within the bound (no fault)\n",
               pe_check_angles_name(r->float32_angles));
    if (!r->agree) {
        printf("first divergence: token %lld, head %lld, ", (long long)r->first_token,
               (long long)r->first_head);
        if (r->first_pair >= 0) printf("pair %lld\n", (long long)r->first_pair);
        else printf("element %lld (outside the rotated slice)\n", (long long)r->first_element);
    }
    printf("max |error| by position and pair band:\n  %-25s", "positions");
    for (int64_t b = 0; b < r->n_bands; b++) {
        char head[32];
        snprintf(head, sizeof head, "pairs %lld-%lld", (long long)r->band_lo[b], (long long)r->band_hi[b] - 1);
        printf(" %12s", head);
    }
    printf("\n");
    for (int64_t i = 0; i < r->n_bins; i++) {
        char rng[48];
        snprintf(rng, sizeof rng, "%lld-%lld", (long long)r->bin_lo[i], (long long)r->bin_hi[i]);
        printf("  %-25s", rng);
        for (int64_t b = 0; b < r->n_bands; b++) printf(" %12.3g", r->err[i][b]);
        printf("\n");
    }
    if (r->agree) return;
    printf("diagnoses, best first (residual: RMS distance of the hypothesis to the dump):\n");
    for (int k = 0; k < r->n_diagnoses; k++) {
        const pe_check_diagnosis *g = &r->diagnoses[k];
        printf("  %2d. %-22s %10.3g  %s%s\n", k + 1, pe_diagnosis_name(g->name), g->residual, g->detail,
               g->max_err <= r->bound ? " [explains the dump within the bound]" : "");
    }
    if (!r->explained)
        printf("no hypothesis explains this: the best misses the dump by up to %.3g > bound %.3g\n",
               r->n_diagnoses ? r->diagnoses[0].max_err : r->max_abs_err, r->bound);
}

static const char *layout_name(pe_rope_layout l) { return l == PE_ROPE_INTERLEAVED ? "interleaved" : "half"; }

static void print_json(const pe_check_expect *ex, const pe_check_report *r) {
    printf("{\"verdict\": \"%s\", \"float32_angles\": ", pe_check_verdict_name(r->verdict));
    if (r->verdict == PE_CHECK_FLOAT32) printf("\"%s\"", pe_check_angles_name(r->float32_angles));
    else printf("null");
    printf(", \"explained\": %s, \"layout\": \"%s\", \"max_abs_err\": ", r->explained ? "true" : "false",
           layout_name(ex->layout));
    out_json_number(stdout, r->max_abs_err);
    printf(", \"bound\": ");
    out_json_number(stdout, r->bound);
    printf(", \"first_divergence\": ");
    if (r->first_token < 0) {
        printf("null");
    } else {
        printf("{\"token\": %lld, \"head\": %lld, \"pair\": ", (long long)r->first_token,
               (long long)r->first_head);
        if (r->first_pair >= 0) printf("%lld}", (long long)r->first_pair);
        else printf("null}");
    }
    printf(", \"diagnoses\": [");
    for (int k = 0; k < r->n_diagnoses; k++) {
        const pe_check_diagnosis *g = &r->diagnoses[k];
        printf("%s{\"name\": \"%s\", \"residual\": ", k ? ", " : "", pe_diagnosis_name(g->name));
        out_json_number(stdout, g->residual);
        printf(", \"detail\": ");
        out_json_string(stdout, g->detail);
        printf(", \"layout\": \"%s\", \"angles\": \"%s\"}", layout_name(g->layout), pe_check_angles_name(g->angles));
    }
    printf("], \"growth\": {\"positions\": [");
    for (int64_t i = 0; i < r->n_bins; i++)
        printf("%s[%lld, %lld]", i ? ", " : "", (long long)r->bin_lo[i], (long long)r->bin_hi[i]);
    printf("], \"pair_bands\": [");
    for (int64_t b = 0; b < r->n_bands; b++)
        printf("%s[%lld, %lld]", b ? ", " : "", (long long)r->band_lo[b], (long long)r->band_hi[b]);
    for (int w = 0; w < 2; w++) {
        printf("], \"%s\": [", w ? "predicted" : "max_abs_err");
        for (int64_t i = 0; i < r->n_bins; i++) {
            printf("%s", i ? ", " : "");
            out_json_number_array(stdout, w ? r->pred[i] : r->err[i], r->n_bands);
        }
    }
    printf("]}}\n");
}

static int draw(const cli_spec *spec, const char *path, const pe_check_report *r) {
    plot_figure *fig = NULL;
    char title[256];
    if (r->agree)
        snprintf(title, sizeof title, "posenc check: agrees (max |error| %.2g <= bound %.2g)", r->max_abs_err,
                 r->bound);
    else if (r->verdict == PE_CHECK_FLOAT32)
        snprintf(title, sizeof title, "posenc check: float32 angles (%s), no fault",
                 pe_check_angles_name(r->float32_angles));
    else if (!r->explained)
        snprintf(title, sizeof title, "posenc check: disagrees; no hypothesis explains this");
    else
        snprintf(title, sizeof title, "posenc check: %s (%s)",
                 r->n_diagnoses ? pe_diagnosis_name(r->diagnoses[0].name) : "disagrees",
                 r->n_diagnoses ? r->diagnoses[0].detail : "no diagnosis");
    if (plot_figure_create(&(plot_figure_opts){.title = title}, &fig) != PLOT_OK)
        return cli_runtime_error(spec, "--plot %s: cannot create the figure", path);
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, "max |out − expected| per position bin and pair band (dashed: the diagnosis's prediction)",
                     "position", "max |error|");
    plot_axes_options(ax, PLOT_LOG_Y);
    double x[PE_CHECK_POS_BINS], y[PE_CHECK_POS_BINS], yp[PE_CHECK_POS_BINS];
    for (int64_t b = 0; b < r->n_bands; b++) {
        for (int64_t i = 0; i < r->n_bins; i++) {
            x[i] = 0.5 * ((double)r->bin_lo[i] + (double)r->bin_hi[i]);
            y[i] = r->err[i][b];
            yp[i] = r->pred[i][b];
        }
        char label[64];
        snprintf(label, sizeof label, "pairs %lld-%lld", (long long)r->band_lo[b], (long long)r->band_hi[b] - 1);
        plot_line(ax, x, y, (size_t)r->n_bins,
                  &(plot_style){.label = label, .color = PLOT_PALETTE(b), .marker = PLOT_CIRCLE});
        if (!r->agree && r->n_diagnoses)
            plot_line(ax, x, yp, (size_t)r->n_bins,
                      &(plot_style){.color = PLOT_PALETTE(b), .dash = PLOT_DASHED});
    }
    plot_hline(ax, r->bound, &(plot_style){.label = "bound"});
    plot_axes_legend(ax, PLOT_LEGEND_BEST);
    int st = plot_figure_save(fig, path);
    int rc = CLI_OK;
    if (st != PLOT_OK) rc = cli_runtime_error(spec, "--plot %s: %s", path, plot_figure_error(fig));
    plot_figure_free(fig);
    return rc;
}

int cmd_check(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    int format = 0, layout = -1;
    int64_t layer = 0, start = 0;
    static const char *const formats[] = {"table", "json", NULL};
    static const char *const layouts[] = {"half", "interleaved", NULL};
    if ((rc = cli_get_choice(&a, "format", formats, &format)) || (rc = cli_get_int64(&a, "layer", &layer)) ||
        (rc = cli_get_int64(&a, "start", &start)) || (rc = cli_get_choice(&a, "layout", layouts, &layout)))
        return rc;
    if (cli_has(&a, "config") == cli_has(&a, "gguf"))
        return cli_usage_error(spec, "give exactly one of --config config.json or --gguf FILE.gguf");
    const bool cache_mode = cli_has(&a, "cos-sin");
    if (cache_mode && (cli_has(&a, "in") || cli_has(&a, "out")))
        return cli_usage_error(spec, "--cos-sin replaces --in/--out: give one or the other");
    if (cache_mode && layout >= 0)
        return cli_usage_error(spec, "--layout does not apply to --cos-sin (a cache is [cos..., sin...], no pairs)");
    if (!cache_mode && !(cli_has(&a, "in") && cli_has(&a, "out")))
        return cli_usage_error(spec, "give --in X.npy and --out Y.npy (or --cos-sin C.npy)");
    if (cli_has(&a, "start") == cli_has(&a, "positions"))
        return cli_usage_error(spec, "give exactly one of --start P or --positions P.npy");
    if (layer < 0) return cli_usage_error(spec, "--layer must be >= 0 (got %lld)", (long long)layer);
    const char *plot_path = cli_get(&a, "plot");
    if (plot_path && !ends_with(plot_path, ".png") && !ends_with(plot_path, ".svg"))
        return cli_usage_error(spec, "--plot %s: the figure's name must end in .png or .svg", plot_path);

    const char *src = cli_has(&a, "config") ? cli_get(&a, "config") : cli_get(&a, "gguf");
    pe_plan *plan = NULL;
    dumped in = {0}, out = {0}, pos = {0};
    pe_check_expect exbuf, *ex = &exbuf;
    pe_check_report rbuf, *r = &rbuf;
    pe_positions p = pe_positions_range(start);
    const int64_t *mpos = NULL;
    int64_t *t0 = NULL; /* the temporal column of (tokens, 3) positions */
    /* --family: the file read as that record on purpose (NULL: its own model_type or
     * architecture), as posenc plan reads it. */
    const char *family = cli_get(&a, "family");
    int st = cli_has(&a, "config") ? pe_plan_from_config_file_as(src, family, &plan)
                                   : pe_plan_from_gguf_as(src, family, &plan);
    if (st != PE_OK) return cli_lib_error(spec, st);
    pe_plan_layer L;
    if (layer >= pe_plan_num_layers(plan)) {
        rc = cli_usage_error(spec, "--layer %lld: %s has %lld layers (0-%lld)", (long long)layer, src,
                             (long long)pe_plan_num_layers(plan), (long long)pe_plan_num_layers(plan) - 1);
        goto done;
    }
    if ((st = pe_plan_layer_info(plan, layer, &L)) != PE_OK) {
        rc = cli_lib_error(spec, st);
        goto done;
    }
    if (!L.rope) {
        rc = cli_runtime_error(spec, "--layer %lld of %s is a %s layer that does not rotate (NoPE): nothing to check",
                               (long long)layer, src, L.layer_type);
        goto done;
    }
    const char *in_path = cache_mode ? cli_get(&a, "cos-sin") : cli_get(&a, "in");
    if ((rc = load_array(spec, cache_mode ? "cos-sin" : "in", in_path, &in))) goto done;
    if (!cache_mode && (rc = load_array(spec, "out", cli_get(&a, "out"), &out))) goto done;
    const int64_t count = in.ndim >= 1 ? in.shape[0] : 0;
    int64_t pmax = start;
    if (cli_has(&a, "positions")) {
        const char *pp = cli_get(&a, "positions");
        if ((rc = load_array(spec, "positions", pp, &pos))) goto done;
        if (pos.dtype != PE_I64) {
            rc = cli_runtime_error(spec, "--positions %s is %s; convert with p.astype(np.int64)", pp,
                                   pe_dtype_name(pos.dtype));
            goto done;
        }
        const bool three = pos.ndim == 2 && pos.shape[1] == 3;
        if (!(pos.ndim == 1 || three) || pos.shape[0] != count) {
            rc = cli_runtime_error(spec, "--positions %s must be (%lld,) or (%lld, 3) for M-RoPE: one row per "
                                         "token of %s",
                                   pp, (long long)count, (long long)count, in_path);
            goto done;
        }
        const int64_t *ids = pos.data;
        if (three) {
            if (L.n_mrope_section == 0) {
                rc = cli_runtime_error(spec, "--positions %s has 3 columns (M-RoPE), but layer %lld of %s has no "
                                             "mrope_section",
                                       pp, (long long)layer, src);
                goto done;
            }
            mpos = ids;
            /* the temporal column as the tokens' plain positions */
            t0 = malloc(sizeof(int64_t) * (size_t)(count ? count : 1));
            if (t0 == NULL) {
                rc = cli_runtime_error(spec, "out of memory");
                goto done;
            }
            for (int64_t t = 0; t < count; t++) t0[t] = ids[3 * t];
            p = pe_positions_list(t0);
            ids = t0;
        } else {
            p = pe_positions_list(ids);
        }
        pmax = INT64_MIN;
        for (int64_t t = 0; t < count; t++)
            if (ids[t] > pmax) pmax = ids[t];
    } else if (count > 0 && start <= INT64_MAX - count) {
        pmax = start + count - 1;
    }
    const int64_t seq_len = pmax >= 0 && pmax < INT64_MAX ? pmax + 1 : 0;
    if ((st = pe_check_expect_from_plan(plan, layer, seq_len, ex)) != PE_OK) {
        rc = cli_lib_error(spec, st);
        goto done;
    }
    if (layout >= 0) { /* the engine's pairing, not the config's convention */
        ex->layout = layout == 1 ? PE_ROPE_INTERLEAVED : PE_ROPE_HALF;
    }
    if (cache_mode) {
        if (in.ndim != 2) {
            rc = cli_runtime_error(spec, "--cos-sin %s has %d dimensions; need (positions, rotary_dim)", in_path,
                                   in.ndim);
            goto done;
        }
        if (in.shape[1] != ex->freqs.rotary_dim) {
            rc = cli_runtime_error(spec, "--cos-sin %s has rows of %lld; layer %lld of %s rotates %lld elements "
                                         "([cos x %lld, sin x %lld])",
                                   in_path, (long long)in.shape[1], (long long)layer, src,
                                   (long long)ex->freqs.rotary_dim, (long long)ex->freqs.rotary_dim / 2,
                                   (long long)ex->freqs.rotary_dim / 2);
            goto done;
        }
        st = pe_check_cos_sin(ex, &p, mpos, count, in.data, in.dtype, in.shape[1], r);
    } else {
        pe_tensor tin, tout;
        if ((rc = as_tensor(spec, "in", in_path, &in, &tin)) ||
            (rc = as_tensor(spec, "out", cli_get(&a, "out"), &out, &tout)))
            goto done;
        if (tin.tokens != tout.tokens || tin.heads != tout.heads || tin.head_dim != tout.head_dim) {
            rc = cli_runtime_error(spec, "--out %s has shape (%lld, %lld, %lld), --in %s (%lld, %lld, %lld)",
                                   cli_get(&a, "out"), (long long)tout.tokens, (long long)tout.heads,
                                   (long long)tout.head_dim, in_path, (long long)tin.tokens, (long long)tin.heads,
                                   (long long)tin.head_dim);
            goto done;
        }
        if (tin.head_dim != L.head_dim)
            fprintf(stderr, "posenc check: note: --in %s has D = %lld, layer %lld of %s has head_dim %lld\n",
                    in_path, (long long)tin.head_dim, (long long)layer, src, (long long)L.head_dim);
        st = pe_check_rotation(ex, &p, mpos, &tin, &tout, r);
    }
    if (st != PE_OK) {
        rc = cli_lib_error(spec, st);
        goto done;
    }
    if (format == 1) print_json(ex, r);
    else print_table(src, layer, &L, ex, r);
    rc = cli_close_output(spec, stdout, NULL);
    if (rc == CLI_OK && plot_path) rc = draw(spec, plot_path, r);
    if (rc == CLI_OK && (r->verdict == PE_CHECK_DISAGREE || (r->verdict == PE_CHECK_FLOAT32 && cli_has(&a, "strict"))))
        rc = CLI_RUNTIME;
done:
    free(t0);
    free(in.data);
    free(out.data);
    free(pos.data);
    pe_plan_free(plan);
    return rc;
}
