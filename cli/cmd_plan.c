/* cmd_plan.c — `posenc plan`: a checkpoint's per-layer positional plan from
 * its config.json, as a table of identical-layer groups or as JSON. */
#include "commands.h"
#include "output.h"
#include "plan_families_gguf.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt opts[] = {
    {"config", "config.json", "the checkpoint's Hugging Face config.json"},
    {"gguf", "model.gguf", "a llama.cpp GGUF file (only its header and rope tensors are read)"},
    {"seq-len", "S", "sequence length the frequencies are for (dynamic, longrope; default 0 = not stated)"},
    {"format", "table|json", "output format (default table)"},
    {"family", "NAME", "read --config (or --gguf alone) as this registry family / llama.cpp architecture on purpose"},
    {"families", NULL, "list the family registry (model types, positional kinds, sources)"},
    {NULL, NULL, NULL},
};

const cli_spec cmd_plan_spec = {
    "plan",
    "(--config config.json [--family NAME] | --gguf model.gguf | both | --families) [--seq-len S] "
    "[--format table|json]",
    "per-layer positional plan of a checkpoint's config.json",
    "Reads config.json the way the checkpoint's own Hugging Face code builds its layers: the\n"
    "decoder config nested under text_config / language_config / llm_config / thinker_config,\n"
    "v4 rope_scaling and v5 rope_parameters (per layer type too), layer_types and\n"
    "sliding_window_pattern, Gemma's local base, NoPE layers (no_rope_layers, Cohere 2's global\n"
    "layers, linear-attention layers), family semantics (DeepSeek's softmax multiplier, HunYuan\n"
    "alpha, PhiMoE mscales, Llama 4 / Ministral 3 query scales) and each model type's class\n"
    "defaults for absent keys (docs/SCALING.md). The table groups identical layers; warnings list\n"
    "every positional key the reader did not understand.\n"
    "Every layer has a positional kind: rope, nope, alibi (slopes per head as the family computes\n"
    "them), t5 (relative buckets), learned or sinusoidal (absolute tables), or none (convolution,\n"
    "state-space, linear-attention and cross-attention layers). A model_type that is not in the\n"
    "family registry is refused (docs/FAMILIES.md); --family NAME reads the file as that family on\n"
    "purpose, --families lists the registry.\n"
    "--gguf reads a llama.cpp GGUF the same way (rope.freq_base, rope.scaling.*, rope_freqs.weight\n"
    "divisors, sliding-window keys, NoPE step), naming the inputs stored as float32. With both,\n"
    "both plans are printed and then every difference between them, layers grouped, with the\n"
    "largest relative frequency difference and the float32 values that explain it.\n"
    "JSON: {\"model_type\", \"source\", \"num_layers\", \"warnings\": [...], \"layers\": [{\"layer\",\n"
    "\"layer_type\", \"attention\", \"rope\", \"rope_type\", \"head_dim\", \"rotary_dim\", \"layout\",\n"
    "\"base\", \"factor\", \"scaling\": {every parameter the scheme reads}, \"inv_freq\": [...],\n"
    "\"attention_factor\", \"softmax_scale_multiplier\",\n"
    "\"sliding_window\", \"chunk_size\", \"mrope_section\", \"mrope_interleaved\", \"query_scale\",\n"
    "\"position\": {\"kind\", kind-specific fields}}]},\n"
    "numbers with 17 significant digits, null where a layer has none. With both files:\n"
    "{\"config\": plan, \"gguf\": plan, \"differences\": [...]}. --families --format json:\n"
    "{\"hf\": [{\"model_type\", \"kinds\", \"source\", \"refusal\"}, ...], \"gguf\": [...]}.",
    opts,
    0,
    0,
    "  posenc plan --config tests/fixtures/configs/gemma-3-1b-it.json\n"
    "  posenc plan --config tests/fixtures/configs/llama-4-scout-17b-16e.json --format json\n"
    "  posenc plan --config config.json --gguf model-Q4_K_M.gguf\n"
    "  posenc plan --families --format json\n",
};

typedef struct {
    pe_plan_layer info;
    pe_plan_position pos;
    char detail[192];  /* the table's words for a non-RoPE position ("" for RoPE) */
    pe_freqs *freqs; /* NULL for layers that do not rotate */
} layer_view;

static const char *layout_name(const pe_plan_layer *L) {
    if (!L->rope) return NULL;
    return L->layout == PE_ROPE_HALF ? "half" : "interleaved";
}

/* Layers print as one group when everything the table shows is equal. */
static bool same_group(const layer_view *a, const layer_view *b) {
    const pe_plan_layer *x = &a->info, *y = &b->info;
    return strcmp(x->layer_type, y->layer_type) == 0 && x->attention == y->attention &&
           x->rope == y->rope && x->rope_kind == y->rope_kind && x->head_dim == y->head_dim &&
           x->sliding_window == y->sliding_window && x->chunk_size == y->chunk_size &&
           x->temperature.active == y->temperature.active &&
           x->temperature.beta == y->temperature.beta &&
           x->temperature.span == y->temperature.span &&
           x->temperature.offset == y->temperature.offset && a->pos.kind == b->pos.kind &&
           strcmp(a->detail, b->detail) == 0;
}

static const char *dtype_word(pe_dtype t) {
    return t == PE_BF16 ? "bfloat16" : t == PE_F16 ? "float16" : t == PE_F64 ? "float64" : "float32";
}

/* The table's words for layer i's non-RoPE positions. */
static int describe_position(const pe_plan *plan, int64_t i, const pe_plan_position *pos,
                             char *buf, size_t cap) {
    int st = PE_OK;
    buf[0] = '\0';
    switch (pos->kind) {
    case PE_POSITION_ALIBI: {
        pe_plan_alibi a;
        if ((st = pe_plan_layer_alibi(plan, i, &a)) != PE_OK) return st;
        snprintf(buf, cap, "ALiBi, %lld heads, %s slopes (max bias %g), HF rounds them to %s",
                 (long long)a.heads, a.rule == PE_ALIBI_SLOPES_MPT ? "MPT" : "Press/BLOOM",
                 a.max_bias, dtype_word(a.hf_slope_dtype));
        break;
    }
    case PE_POSITION_T5: {
        pe_plan_t5 t;
        if ((st = pe_plan_layer_t5(plan, i, &t)) != PE_OK) return st;
        snprintf(buf, cap, "T5 relative buckets, %lld buckets, max distance %lld, %s, bias of "
                 "layer %lld", (long long)t.num_buckets, (long long)t.max_distance,
                 t.bidirectional ? "bidirectional" : "causal", (long long)t.bias_layer);
        break;
    }
    case PE_POSITION_LEARNED: {
        pe_plan_learned l;
        if ((st = pe_plan_layer_learned(plan, i, &l)) != PE_OK) return st;
        snprintf(buf, cap, "learned absolute table at the input, %lld rows, offset %lld, dim %lld",
                 (long long)l.rows, (long long)l.offset, (long long)l.dim);
        break;
    }
    case PE_POSITION_SINUSOIDAL: {
        pe_plan_sinusoidal s;
        if ((st = pe_plan_layer_sinusoidal(plan, i, &s)) != PE_OK) return st;
        snprintf(buf, cap, "sinusoidal table at the input, base %g, %s, offset %lld, dim %lld",
                 s.base, s.layout == PE_SIN_CONCATENATED ? "concatenated" : "interleaved",
                 (long long)s.offset, (long long)s.dim);
        break;
    }
    case PE_POSITION_NOPE:
        if (strcmp(pos->why, "nope_layer") == 0) snprintf(buf, cap, "NoPE");
        else snprintf(buf, cap, "NoPE (%s)", pos->why);
        break;
    case PE_POSITION_NONE:
        snprintf(buf, cap, "no positions (%s)", pos->why);
        break;
    default:
        break;
    }
    return PE_OK;
}

/* "position": {"kind", ...} of layer i. */
static int print_position_json(const pe_plan *plan, int64_t i, const pe_plan_position *pos) {
    int st = PE_OK;
    printf("{\"kind\": ");
    out_json_string(stdout, pe_position_kind_name(pos->kind));
    switch (pos->kind) {
    case PE_POSITION_ALIBI: {
        pe_plan_alibi a;
        if ((st = pe_plan_layer_alibi(plan, i, &a)) != PE_OK) return st;
        double *exact = calloc((size_t)a.heads, sizeof *exact);
        double *hf = calloc((size_t)a.heads, sizeof *hf);
        if (exact == NULL || hf == NULL) st = PE_ERR_NOMEM;
        if (st == PE_OK) st = pe_plan_layer_alibi_slopes(plan, i, exact, hf);
        if (st == PE_OK) {
            printf(", \"heads\": %lld, \"slope_rule\": \"%s\", \"max_bias\": ", (long long)a.heads,
                   a.rule == PE_ALIBI_SLOPES_MPT ? "mpt" : "press");
            out_json_number(stdout, a.max_bias);
            printf(", \"causal\": %s, \"hf_slope_dtype\": \"%s\", \"slopes\": ",
                   a.causal ? "true" : "false", dtype_word(a.hf_slope_dtype));
            out_json_number_array(stdout, exact, a.heads);
            printf(", \"hf_slopes\": ");
            out_json_number_array(stdout, hf, a.heads);
        }
        free(exact);
        free(hf);
        break;
    }
    case PE_POSITION_T5: {
        pe_plan_t5 t;
        if ((st = pe_plan_layer_t5(plan, i, &t)) != PE_OK) return st;
        printf(", \"num_buckets\": %lld, \"max_distance\": %lld, \"bidirectional\": %s, "
               "\"bias_layer\": %lld, \"owns_bias\": %s, \"heads\": %lld",
               (long long)t.num_buckets, (long long)t.max_distance,
               t.bidirectional ? "true" : "false", (long long)t.bias_layer,
               t.owns_bias ? "true" : "false", (long long)t.heads);
        break;
    }
    case PE_POSITION_LEARNED: {
        pe_plan_learned l;
        if ((st = pe_plan_layer_learned(plan, i, &l)) != PE_OK) return st;
        printf(", \"rows\": %lld, \"offset\": %lld, \"dim\": %lld", (long long)l.rows,
               (long long)l.offset, (long long)l.dim);
        break;
    }
    case PE_POSITION_SINUSOIDAL: {
        pe_plan_sinusoidal s;
        if ((st = pe_plan_layer_sinusoidal(plan, i, &s)) != PE_OK) return st;
        printf(", \"base\": ");
        out_json_number(stdout, s.base);
        printf(", \"layout\": \"%s\", \"convention\": \"%s\", \"offset\": %lld, \"dim\": %lld",
               s.layout == PE_SIN_CONCATENATED ? "concatenated" : "interleaved",
               s.convention == PE_SIN_FREQ_T2T ? "t2t" : "paper", (long long)s.offset,
               (long long)s.dim);
        break;
    }
    case PE_POSITION_NOPE:
    case PE_POSITION_NONE:
        printf(", \"why\": ");
        out_json_string(stdout, pos->why);
        break;
    default:
        break;
    }
    printf("}");
    return st;
}

static void json_int_or_null(int64_t v) {
    if (v > 0) printf("%lld", (long long)v);
    else printf("null");
}

/* The parameters the layer's scheme reads, by the library's scheme table
 * (a parameter added there is printed unasked): in the table those that
 * are set (a real not NaN, a count or length above 0, a list with entries),
 * in JSON all of them, null where unset. */
static void print_scaling_params(const pe_plan *plan, int64_t layer, int64_t seq_len, bool json) {
    pe_rope_scaling s;
    if (pe_plan_layer_scaling(plan, layer, seq_len, &s) != PE_OK) {
        if (json) printf("null");
        return;
    }
    const char *sep = "";
    if (json) printf("{");
    for (int i = 0; i < pe_scaling_num_params(); i++) {
        if (!pe_scaling_reads(s.type, i)) continue;
        const pe_scaling_param *p = pe_scaling_param_get(i);
        double r = NAN;
        int64_t n = 0;
        const double *list = NULL;
        if (p->kind == PE_SCALING_PARAM_REAL) pe_scaling_get_real(&s, i, &r);
        else if (p->kind == PE_SCALING_PARAM_LIST) pe_scaling_get_list(&s, i, &list, &n);
        else pe_scaling_get_int(&s, i, &n);
        if (json) {
            printf("%s\"%s\": ", sep, p->name);
            sep = ", ";
            if (p->kind == PE_SCALING_PARAM_REAL) out_json_number(stdout, r);
            else if (p->kind == PE_SCALING_PARAM_BOOL) printf("%s", n ? "true" : "false");
            else if (p->kind == PE_SCALING_PARAM_INT) json_int_or_null(n);
            else if (list != NULL && n > 0) out_json_number_array(stdout, list, n);
            else printf("null");
        } else if (p->kind == PE_SCALING_PARAM_REAL && !isnan(r)) {
            printf(", %s %.17g", p->name, r);
        } else if (p->kind == PE_SCALING_PARAM_BOOL) {
            printf(", %s %s", p->name, n ? "true" : "false");
        } else if (p->kind == PE_SCALING_PARAM_INT && n > 0) {
            printf(", %s %lld", p->name, (long long)n);
        } else if (p->kind == PE_SCALING_PARAM_LIST && list != NULL && n > 0) {
            printf(", %s [%lld values]", p->name, (long long)n);
        }
    }
    if (json) printf("}");
}

static void print_ranges(const layer_view *v, int64_t n, int64_t first) {
    const char *sep = "";
    for (int64_t i = first; i < n; i++) {
        if (!same_group(&v[i], &v[first])) continue;
        bool started_here = i == first || !same_group(&v[i - 1], &v[first]);
        if (!started_here) continue;
        int64_t j = i;
        while (j + 1 < n && same_group(&v[j + 1], &v[first])) j++;
        if (j == i) printf("%s%lld", sep, (long long)i);
        else printf("%s%lld-%lld", sep, (long long)i, (long long)j);
        sep = ", ";
    }
}

static void print_table(const pe_plan *plan, const char *path, const layer_view *v, int64_t n,
                        int64_t seq_len) {
    printf("%s (%s): model_type %s, %lld layers, %lld RoPE kinds", path, pe_plan_source(plan),
           pe_plan_model_type(plan)[0] ? pe_plan_model_type(plan) : "(none)", (long long)n,
           (long long)pe_plan_num_rope_kinds(plan));
    if (seq_len > 0) printf(", seq_len %lld", (long long)seq_len);
    printf("\n");
    for (int64_t i = 0; i < n; i++) {
        bool first = true;
        for (int64_t j = 0; j < i; j++)
            if (same_group(&v[j], &v[i])) first = false;
        if (!first) continue;
        const pe_plan_layer *L = &v[i].info;
        printf("layers ");
        print_ranges(v, n, i);
        printf(": %s", L->layer_type);
        if (!L->attention) {
            printf(", %s\n", v[i].detail);
            continue;
        }
        if (!L->rope) {
            printf(", %s, head_dim %lld", v[i].detail, (long long)L->head_dim);
        } else {
            const pe_freqs *f = v[i].freqs;
            printf(", %s, base %.17g", pe_scaling_name(L->scaling), L->base);
            print_scaling_params(plan, i, seq_len, false);
            printf(", rotary %lld of head_dim %lld, %s%s", (long long)L->rotary_dim,
                   (long long)L->head_dim, layout_name(L), L->layout_known ? "" : " (assumed)");
            printf(", A %.17g", f->attention_factor);
            if (f->softmax_scale_multiplier != 1.0)
                printf(", softmax x%.17g", f->softmax_scale_multiplier);
            if (L->n_mrope_section > 0) {
                printf(", mrope_section [");
                for (int64_t k = 0; k < L->n_mrope_section; k++)
                    printf("%s%lld", k ? "," : "", (long long)L->mrope_section[k]);
                printf("]%s", L->mrope_interleaved ? " interleaved" : "");
            }
        }
        if (L->rope && L->f32_inputs[0]) printf(", float32: %s", L->f32_inputs);
        if (L->sliding_window > 0) printf(", window %lld", (long long)L->sliding_window);
        if (L->chunk_size > 0) printf(", chunk %lld", (long long)L->chunk_size);
        if (L->temperature.active)
            printf(", query x 1 + %g ln(1 + floor((p + %lld) / %lld))", L->temperature.beta,
                   (long long)L->temperature.offset, (long long)L->temperature.span);
        printf("\n");
    }
    for (int64_t w = 0; w < pe_plan_num_warnings(plan); w++)
        printf("warning: %s\n", pe_plan_warning(plan, w));
}

static int print_json(const pe_plan *plan, const char *path, const layer_view *v, int64_t n,
                      int64_t seq_len) {
    printf("{\"model_type\": ");
    out_json_string(stdout, pe_plan_model_type(plan));
    printf(", \"source\": ");
    out_json_string(stdout, path);
    printf(", \"format\": \"%s\"", pe_plan_source(plan));
    printf(", \"num_layers\": %lld, \"warnings\": [", (long long)n);
    for (int64_t w = 0; w < pe_plan_num_warnings(plan); w++) {
        if (w) printf(", ");
        out_json_string(stdout, pe_plan_warning(plan, w));
    }
    printf("], \"layers\": [");
    for (int64_t i = 0; i < n; i++) {
        const pe_plan_layer *L = &v[i].info;
        const pe_freqs *f = v[i].freqs;
        printf("%s\n  {\"layer\": %lld, \"layer_type\": ", i ? "," : "", (long long)i);
        out_json_string(stdout, L->layer_type);
        printf(", \"attention\": %s, \"rope\": %s, \"rope_type\": ", L->attention ? "true" : "false",
               L->rope ? "true" : "false");
        if (L->rope) out_json_string(stdout, pe_scaling_name(L->scaling));
        else printf("null");
        printf(", \"head_dim\": ");
        json_int_or_null(L->head_dim);
        printf(", \"rotary_dim\": ");
        json_int_or_null(L->rotary_dim);
        printf(", \"layout\": ");
        if (L->rope) out_json_string(stdout, layout_name(L));
        else printf("null");
        printf(", \"base\": ");
        out_json_number(stdout, L->rope ? L->base : (double)NAN);
        printf(", \"factor\": ");
        out_json_number(stdout, L->factor);
        printf(", \"scaling\": ");
        if (L->rope) print_scaling_params(plan, i, seq_len, true);
        else printf("null");
        printf(", \"inv_freq\": ");
        if (f != NULL) out_json_number_array(stdout, f->inv_freq, f->rotary_dim / 2);
        else printf("[]");
        printf(", \"attention_factor\": ");
        out_json_number(stdout, f ? f->attention_factor : (double)NAN);
        printf(", \"softmax_scale_multiplier\": ");
        out_json_number(stdout, f ? f->softmax_scale_multiplier : (double)NAN);
        printf(", \"sliding_window\": ");
        json_int_or_null(L->sliding_window);
        printf(", \"chunk_size\": ");
        json_int_or_null(L->chunk_size);
        printf(", \"mrope_section\": ");
        if (L->n_mrope_section > 0) out_json_int_array(stdout, L->mrope_section, L->n_mrope_section);
        else printf("null");
        printf(", \"mrope_interleaved\": %s", L->mrope_interleaved ? "true" : "false");
        printf(", \"float32_inputs\": ");
        if (L->f32_inputs[0]) out_json_string(stdout, L->f32_inputs);
        else printf("null");
        printf(", \"query_scale\": ");
        if (L->temperature.active) {
            printf("{\"beta\": ");
            out_json_number(stdout, L->temperature.beta);
            printf(", \"span\": %lld, \"offset\": %lld}", (long long)L->temperature.span,
                   (long long)L->temperature.offset);
        } else {
            printf("null");
        }
        printf(", \"position\": ");
        int st = print_position_json(plan, i, &v[i].pos);
        if (st != PE_OK) return st;
        printf("}");
    }
    printf("\n]}");
    return PE_OK;
}

/* A plan with its per-layer views (frequencies computed once per RoPE kind). */
typedef struct {
    pe_plan *plan;
    const char *path;
    layer_view *v;
    pe_freqs *per_kind;
    bool *done;
} loaded;

static void loaded_free(loaded *l) {
    free(l->v);
    free(l->per_kind);
    free(l->done);
    pe_plan_free(l->plan);
}

static int load(const cli_spec *spec, const char *path, bool gguf, const char *family,
                int64_t seq_len, loaded *l) {
    memset(l, 0, sizeof *l);
    l->path = path;
    int st = gguf ? pe_plan_from_gguf_as(path, family, &l->plan)
                  : pe_plan_from_config_file_as(path, family, &l->plan);
    if (st != PE_OK) return cli_lib_error(spec, st);
    const int64_t n = pe_plan_num_layers(l->plan), kinds = pe_plan_num_rope_kinds(l->plan);
    l->v = calloc((size_t)n, sizeof *l->v);
    l->per_kind = kinds > 0 ? calloc((size_t)kinds, sizeof *l->per_kind) : NULL;
    l->done = kinds > 0 ? calloc((size_t)kinds, sizeof *l->done) : NULL;
    if (l->v == NULL || (kinds > 0 && (l->per_kind == NULL || l->done == NULL)))
        return cli_runtime_error(spec, "out of memory for %lld layers", (long long)n);
    for (int64_t i = 0; i < n && st == PE_OK; i++) {
        st = pe_plan_layer_info(l->plan, i, &l->v[i].info);
        if (st == PE_OK) st = pe_plan_layer_position(l->plan, i, &l->v[i].pos);
        if (st == PE_OK)
            st = describe_position(l->plan, i, &l->v[i].pos, l->v[i].detail, sizeof l->v[i].detail);
        int64_t k = l->v[i].info.rope_kind;
        if (st != PE_OK || k < 0) continue;
        if (!l->done[k]) st = pe_plan_layer_freqs(l->plan, i, seq_len, &l->per_kind[k], NULL);
        l->done[k] = true;
        l->v[i].freqs = &l->per_kind[k];
    }
    return st == PE_OK ? CLI_OK : cli_lib_error(spec, st);
}

/* The GGUF architecture registry's entries: plan_families_gguf.c. */
static int print_gguf_families_json(void) { return cli_print_gguf_families_json(); }
static int print_gguf_families_table(void) { return cli_print_gguf_families_table(); }

static void print_kinds_json(unsigned kinds) {
    printf("[");
    const char *sep = "";
    for (int k = 0; k < 32; k++)
        if (kinds & (1u << k)) {
            printf("%s\"%s\"", sep, pe_position_kind_name((pe_position_kind)k));
            sep = ", ";
        }
    printf("]");
}

/* --families: the registry, {"hf": [...], "gguf": [...]} or a table. */
static int print_families(bool json) {
    int st = PE_OK;
    if (json) printf("{\"hf\": [");
    for (int64_t i = 0; i < pe_family_count() && st == PE_OK; i++) {
        pe_family_info f;
        if ((st = pe_family_get(i, &f)) != PE_OK) break;
        if (json) {
            printf("%s\n  {\"model_type\": ", i ? "," : "");
            out_json_string(stdout, f.model_type);
            printf(", \"kinds\": ");
            print_kinds_json(f.kinds);
            printf(", \"source\": ");
            out_json_string(stdout, f.source);
            printf(", \"refusal\": ");
            if (f.refusal) out_json_string(stdout, f.refusal);
            else printf("null");
            printf("}");
        } else {
            printf("%-22s ", f.model_type);
            const char *sep = "";
            char kinds[96] = "";
            for (int k = 0; k < 32; k++)
                if (f.kinds & (1u << k)) {
                    size_t u = strlen(kinds);
                    snprintf(kinds + u, sizeof kinds - u, "%s%s", sep,
                             pe_position_kind_name((pe_position_kind)k));
                    sep = ",";
                }
            printf("%-18s %s%s%s\n", kinds, f.refusal ? "refused: " : "",
                   f.refusal ? f.refusal : "", f.refusal ? "" : f.source);
        }
    }
    if (json) {
        printf("\n], \"gguf\": [");
        if (st == PE_OK) st = print_gguf_families_json();
        printf("]}\n");
    } else if (st == PE_OK) {
        st = print_gguf_families_table();
    }
    return st;
}

int cmd_plan(const cli_spec *spec, int argc, char **argv) {
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    int format = 0;
    int64_t seq_len = 0;
    static const char *const formats[] = {"table", "json", NULL};
    if ((rc = cli_get_choice(&a, "format", formats, &format)) ||
        (rc = cli_get_int64(&a, "seq-len", &seq_len)))
        return rc;
    if (cli_has(&a, "families")) {
        if (cli_has(&a, "config") || cli_has(&a, "gguf") || cli_has(&a, "family"))
            return cli_usage_error(spec, "--families lists the registry; drop --config, --gguf "
                                         "and --family");
        rc = print_families(format == 1);
        return rc != CLI_OK ? cli_lib_error(spec, rc) : cli_close_output(spec, stdout, NULL);
    }
    if (cli_has(&a, "family") && !cli_has(&a, "config") && !cli_has(&a, "gguf"))
        return cli_usage_error(spec, "--family NAME needs --config config.json or --gguf model.gguf");
    if (!cli_has(&a, "config") && !cli_has(&a, "gguf"))
        return cli_usage_error(spec, "--config config.json or --gguf model.gguf is required");
    if (seq_len < 0) return cli_usage_error(spec, "--seq-len must be >= 0 (got %lld)", (long long)seq_len);
    loaded c = {0}, g = {0};
    pe_plan_diff *diff = NULL;
    if (cli_has(&a, "config") &&
        (rc = load(spec, cli_get(&a, "config"), false, cli_get(&a, "family"), seq_len, &c)))
        goto out;
    if (cli_has(&a, "gguf") && (rc = load(spec, cli_get(&a, "gguf"), true,
                                           cli_has(&a, "config") ? NULL : cli_get(&a, "family"),
                                           seq_len, &g)))
        goto out;
    if (c.plan && g.plan) {
        int st = pe_plan_compare(c.plan, g.plan, seq_len, &diff);
        if (st != PE_OK) {
            rc = cli_lib_error(spec, st);
            goto out;
        }
    }
    if (format == 1) {
        int st = PE_OK;
        if (diff == NULL) {
            const loaded *one = c.plan ? &c : &g;
            st = print_json(one->plan, one->path, one->v, pe_plan_num_layers(one->plan), seq_len);
        } else {
            printf("{\"config\": ");
            st = print_json(c.plan, c.path, c.v, pe_plan_num_layers(c.plan), seq_len);
            printf(",\n\"gguf\": ");
            if (st == PE_OK) st = print_json(g.plan, g.path, g.v, pe_plan_num_layers(g.plan), seq_len);
            printf(",\n\"differences\": [");
            for (int64_t i = 0; i < pe_plan_diff_count(diff); i++) {
                printf("%s\n  ", i ? "," : "");
                out_json_string(stdout, pe_plan_diff_line(diff, i));
            }
            printf("]}");
        }
        printf("\n");
        if (st != PE_OK) {
            rc = cli_lib_error(spec, st);
            goto out;
        }
    } else {
        if (c.plan) print_table(c.plan, c.path, c.v, pe_plan_num_layers(c.plan), seq_len);
        if (g.plan) print_table(g.plan, g.path, g.v, pe_plan_num_layers(g.plan), seq_len);
        if (diff != NULL) {
            printf("differences (config vs gguf): %lld\n", (long long)pe_plan_diff_count(diff));
            for (int64_t i = 0; i < pe_plan_diff_count(diff); i++)
                printf("  %s\n", pe_plan_diff_line(diff, i));
        }
    }
    rc = cli_close_output(spec, stdout, NULL);
out:
    pe_plan_diff_free(diff);
    loaded_free(&c);
    loaded_free(&g);
    return rc;
}
