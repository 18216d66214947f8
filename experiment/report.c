/* report.c — the experiment's table, CSV, JSON and loss curves, and the
 * progress bar. Every number printed comes with the seeds it came from. */
#include "experiment.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void print_seeds(FILE *f, int n) {
    for (int s = 1; s <= n; s++) fprintf(f, "%s%d", s > 1 ? ", " : "", s);
}

static const char *scheme_label(ex_scheme s) {
    return s == EX_LEARNED ? "learned (clamped)" : ex_scheme_name(s);
}

static void header(FILE *f, const ex_results *r, const char *machine) {
    const ex_config *c = &r->cfg;
    fprintf(f, "posenc experiment%s: task %s, trained on n = 1..%d symbols, %d steps x batch %d,\n",
            c->quick ? " --quick" : "", ex_task_name(c->task), c->train_max, c->steps, c->batch);
    fprintf(f, "decoder D %d, %d heads, FFN %d, %d layers, lr %g; seeds ", c->dim, c->heads, c->ffn,
            c->layers, c->lr);
    print_seeds(f, c->n_seeds);
    fprintf(f, "; %d test examples per length.\n", c->eval_examples);
    fprintf(f, "%.0f s wall on %d threads, training %.0f tokens/s per thread", r->wall_seconds,
            (int)r->threads_used, r->train_tokens_per_s);
    if (machine && machine[0]) fprintf(f, " (%s)", machine);
    fprintf(f, ".\n");
    fprintf(f, "RoPE by libposenc's %s kernels; matrix products posenc's own, fixed order (%s code),"
               " no BLAS.\n", r->kernels, r->matmul);
}

/* One table: rows = schemes, columns = in-distribution + test lengths. */
static void table(FILE *f, const ex_results *r, ex_metric_kind k, int minmax, const char *title) {
    const ex_config *c = &r->cfg;
    const double mul = k == EX_LOSS ? 1 : 100;
    const int digits = k == EX_LOSS ? 2 : 1;
    fprintf(f, "\n%s\n%-18s %7s %13s", title, "scheme", "learned", "in-dist");
    for (int L = 0; L < c->n_lengths; L++) {
        char h[16];
        snprintf(h, sizeof h, "n=%d", c->lengths[L]);
        fprintf(f, " %13s", h);
    }
    fprintf(f, "\n");
    for (int i = 0; i < c->n_schemes; i++) {
        char ok[16];
        snprintf(ok, sizeof ok, "%d/%d", ex_learned_count(r, i), c->n_seeds);
        fprintf(f, "%-18s %7s", scheme_label(c->schemes[i]), ok);
        for (int L = -1; L < c->n_lengths; L++) {
            const ex_stat s = ex_stat_of(r, i, L, k);
            char a[16], b[16], cell[40];
            snprintf(a, sizeof a, "%.*f", digits, (minmax ? s.min : s.mean) * mul);
            snprintf(b, sizeof b, "%.*f", digits, (minmax ? s.max : s.std) * mul);
            if (c->n_seeds == 1) snprintf(cell, sizeof cell, "%s", a);
            else snprintf(cell, sizeof cell, minmax ? "%s-%s" : "%s±%s", a, b);
            /* "±" is two bytes but one column: pad by hand. */
            const int width = (int)strlen(cell) - (!minmax && c->n_seeds > 1 ? 1 : 0);
            fprintf(f, " %*s%s", 13 - width > 0 ? 13 - width : 0, "", cell);
        }
        fprintf(f, "\n");
    }
}

void ex_print_table(FILE *f, const ex_results *r, const char *machine) {
    const ex_config *c = &r->cfg;
    header(f, r, machine);
    const int many = c->n_seeds > 1;
    table(f, r, EX_EXACT, 0,
          many ? "Exact match (%): every answer token right; mean±std over seeds"
               : "Exact match (%): every answer token right");
    if (many) table(f, r, EX_EXACT, 1, "Exact match (%), min-max over seeds");
    table(f, r, EX_TOKEN_ACC, 0, many ? "Token accuracy (%), mean±std" : "Token accuracy (%)");
    table(f, r, EX_LOSS, 0, many ? "Loss (nats per answer token), mean±std" : "Loss (nats per answer token)");

    fprintf(f, "\nPer seed, exact match (%%)\n  %-18s %-8s %7s |", "scheme", "", "in-dist");
    for (int L = 0; L < c->n_lengths; L++) fprintf(f, " %6d", c->lengths[L]);
    fprintf(f, "\n");
    for (int i = 0; i < c->n_schemes; i++)
        for (int s = 0; s < c->n_seeds; s++) {
            const ex_run_result *x = ex_result_at(r, i, s);
            fprintf(f, "  %-18s seed %-3d %7.1f |", scheme_label(c->schemes[i]), x->seed,
                    100 * x->id.exact);
            for (int L = 0; L < c->n_lengths; L++) fprintf(f, " %6.1f", 100 * x->at[L].exact);
            fprintf(f, "   final train loss %.4f%s\n", x->final_loss,
                    x->learned ? "" : "   DID NOT LEARN");
        }
    int flagged = 0;
    for (int i = 0; i < c->n_schemes; i++) flagged += c->n_seeds - ex_learned_count(r, i);
    fprintf(f, "\n'learned' counts the seeds reaching %.0f%% exact match in distribution; %s.\n",
            100 * EX_LEARNED_THRESHOLD,
            flagged ? "the others are marked DID NOT LEARN above and still count in the means"
                    : "every seed did");
    fprintf(f, "rope-* rows are the trained RoPE models with rescaled frequencies (no retraining);\n"
               "learned rows read the table's last row past its end (clamped).\n");
}

void ex_print_csv(FILE *f, const ex_results *r) {
    const ex_config *c = &r->cfg;
    fprintf(f, "scheme,trained,length,seeds,learned_seeds");
    const char *names[3] = {"exact", "token_acc", "loss"};
    for (int k = 0; k < 3; k++)
        fprintf(f, ",%s_mean,%s_std,%s_min,%s_max", names[k], names[k], names[k], names[k]);
    fprintf(f, ",exact_per_seed\n");
    for (int i = 0; i < c->n_schemes; i++)
        for (int L = -1; L < c->n_lengths; L++) {
            const ex_scheme s = c->schemes[i];
            fprintf(f, "%s,%s,", ex_scheme_name(s), ex_scheme_name(ex_scheme_trained(s)));
            if (L < 0) fprintf(f, "in-dist");
            else fprintf(f, "%d", c->lengths[L]);
            fprintf(f, ",%d,%d", c->n_seeds, ex_learned_count(r, i));
            for (int k = 0; k < 3; k++) {
                const ex_stat st = ex_stat_of(r, i, L, (ex_metric_kind)k);
                fprintf(f, ",%.17g,%.17g,%.17g,%.17g", st.mean, st.std, st.min, st.max);
            }
            fprintf(f, ",");
            for (int sd = 0; sd < c->n_seeds; sd++) {
                const ex_run_result *x = ex_result_at(r, i, sd);
                fprintf(f, "%s%d:%.17g", sd ? " " : "", x->seed, L < 0 ? x->id.exact : x->at[L].exact);
            }
            fprintf(f, "\n");
        }
}

static void json_num(FILE *f, double v) {
    /* JSON has no NaN or infinity. */
    if (isfinite(v)) fprintf(f, "%.17g", v);
    else fprintf(f, "null");
}

static void json_metric(FILE *f, const ex_metric *m) {
    fprintf(f, "{\"exact\": ");
    json_num(f, m->exact);
    fprintf(f, ", \"token_acc\": ");
    json_num(f, m->token_acc);
    fprintf(f, ", \"loss\": ");
    json_num(f, m->loss);
    fprintf(f, "}");
}

void ex_print_json(FILE *f, const ex_results *r, const char *machine) {
    const ex_config *c = &r->cfg;
    fprintf(f, "{\n  \"task\": \"%s\", \"quick\": %s, \"train_max\": %d, \"steps\": %d, \"batch\": %d,"
               " \"lr\": ", ex_task_name(c->task), c->quick ? "true" : "false", c->train_max,
            c->steps, c->batch);
    json_num(f, c->lr);
    fprintf(f, ",\n  \"model\": {\"dim\": %d, \"heads\": %d, \"ffn\": %d, \"layers\": %d, "
               "\"tied_embeddings\": true},\n", c->dim, c->heads, c->ffn, c->layers);
    fprintf(f, "  \"seeds\": [");
    for (int s = 1; s <= c->n_seeds; s++) fprintf(f, "%s%d", s > 1 ? ", " : "", s);
    fprintf(f, "], \"eval_examples\": %d, \"lengths\": [", c->eval_examples);
    for (int L = 0; L < c->n_lengths; L++) fprintf(f, "%s%d", L ? ", " : "", c->lengths[L]);
    fprintf(f, "],\n  \"wall_seconds\": ");
    json_num(f, r->wall_seconds);
    fprintf(f, ", \"threads\": %d, \"train_tokens_per_s_per_thread\": ", (int)r->threads_used);
    json_num(f, r->train_tokens_per_s);
    fprintf(f, ", \"machine\": \"");
    for (const char *p = machine ? machine : ""; *p; p++)
        if (*p != '"' && *p != '\\' && (unsigned char)*p >= 32) fputc(*p, f);
    fprintf(f, "\", \"kernels\": \"%s\", \"matmul\": \"%s\", \"blas\": false", r->kernels, r->matmul);
    fprintf(f, ",\n  \"schemes\": [\n");
    for (int i = 0; i < c->n_schemes; i++) {
        const ex_scheme s = c->schemes[i];
        fprintf(f, "    {\"scheme\": \"%s\", \"trained\": \"%s\", \"learned_seeds\": %d,\n",
                ex_scheme_name(s), ex_scheme_name(ex_scheme_trained(s)), ex_learned_count(r, i));
        fprintf(f, "     \"summary\": {");
        for (int L = -1; L < c->n_lengths; L++) {
            if (L < 0) fprintf(f, "\"in-dist\": {");
            else fprintf(f, ", \"%d\": {", c->lengths[L]);
            const char *names[3] = {"exact", "token_acc", "loss"};
            for (int k = 0; k < 3; k++) {
                const ex_stat st = ex_stat_of(r, i, L, (ex_metric_kind)k);
                fprintf(f, "%s\"%s\": {\"mean\": ", k ? ", " : "", names[k]);
                json_num(f, st.mean);
                fprintf(f, ", \"std\": ");
                json_num(f, st.std);
                fprintf(f, ", \"min\": ");
                json_num(f, st.min);
                fprintf(f, ", \"max\": ");
                json_num(f, st.max);
                fprintf(f, "}");
            }
            fprintf(f, "}");
        }
        fprintf(f, "},\n     \"runs\": [\n");
        for (int sd = 0; sd < c->n_seeds; sd++) {
            const ex_run_result *x = ex_result_at(r, i, sd);
            fprintf(f, "       {\"seed\": %d, \"learned\": %s, \"final_loss\": ", x->seed,
                    x->learned ? "true" : "false");
            json_num(f, x->final_loss);
            fprintf(f, ", \"train_seconds\": ");
            json_num(f, x->train_seconds);
            fprintf(f, ", \"eval_seconds\": ");
            json_num(f, x->eval_seconds);
            fprintf(f, ", \"train_tokens\": %ld,\n        \"in-dist\": ", x->train_tokens);
            json_metric(f, &x->id);
            fprintf(f, ", \"by_length\": [");
            for (int L = 0; L < c->n_lengths; L++) {
                fprintf(f, "%s", L ? ", " : "");
                json_metric(f, &x->at[L]);
            }
            fprintf(f, "]}%s\n", sd + 1 < c->n_seeds ? "," : "");
        }
        fprintf(f, "     ]}%s\n", i + 1 < c->n_schemes ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

void ex_print_curves_csv(FILE *f, const ex_results *r) {
    fprintf(f, "step");
    for (int j = 0; j < r->n_trained; j++)
        fprintf(f, ",%s/%d", ex_scheme_name(r->curve_scheme[j]), r->curve_seed[j]);
    fprintf(f, "\n");
    for (int s = 0; s < r->cfg.steps; s++) {
        fprintf(f, "%d", s + 1);
        for (int j = 0; j < r->n_trained; j++)
            fprintf(f, ",%.6g", r->curves[(size_t)j * r->cfg.steps + s]);
        fprintf(f, "\n");
    }
}

void ex_machine_name(char *buf, size_t len) {
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return;
    char line[512];
    int cpus = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "processor", 9) == 0) cpus++;
        const char *colon = strchr(line, ':');
        if (buf[0] == '\0' && strncmp(line, "model name", 10) == 0 && colon) {
            const char *v = colon + 1;
            while (*v == ' ' || *v == '\t') v++;
            snprintf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
        }
    }
    fclose(f);
    if (buf[0] && cpus > 0) {
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, ", %d CPUs", cpus);
    }
}

static void fmt_duration(char *b, size_t n, double s) {
    if (!(s >= 0) || s > 359999) snprintf(b, n, "?");
    else if (s >= 60) snprintf(b, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(b, n, "%ds", (int)s);
}

void ex_progress_bar(void *ctx, const ex_progress *p) {
    FILE *f = ctx;
    if (p->scheme == NULL) { /* the end: leave a clean line */
        fprintf(f, "\r\033[K");
        fflush(f);
        return;
    }
    char el[16], eta[16], what[64];
    fmt_duration(el, sizeof el, p->elapsed);
    fmt_duration(eta, sizeof eta, p->done > 0 ? p->elapsed * (p->total - p->done) / p->done : -1);
    if (isnan(p->loss)) snprintf(what, sizeof what, "evaluating");
    else snprintf(what, sizeof what, "step %d/%d loss %.4f", p->step, p->steps, p->loss);
    const int width = 20, filled = p->total > 0 ? (int)(width * p->done / p->total) : 0;
    char bar[32];
    for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(f, "\r[%s] %s s%d %s | %d/%d jobs | %s, ETA %s\033[K", bar, p->scheme, p->seed, what,
            p->jobs_done, p->jobs, el, eta);
    fflush(f);
}
