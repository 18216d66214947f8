/*
 * tour_experiment.c — the tour's last section: train the tiny decoders of
 * `posenc experiment --quick` (several seeds), then judge five claims on the
 * measured table (every model learned on every seed, each seed said; past
 * training the learned table gives out and sinusoidal and RoPE do not copy
 * either, RoPE keeping more tokens; ALiBi keeps whole answers longest; Press
 * et al.'s loss order at 1.5x and 2x; rescaling RoPE at inference rescues no
 * whole answers). Where the outcome could go either way, the sentence is
 * written from the numbers. The tables give mean ± sample std over the
 * seeds; the figures draw the means against the test length, the claim's
 * number marked.
 */
#include "tour_experiment.h"

#include "../plot/plot.h"
#include "posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The row of scheme s in the run, or -1. */
static int row_of(const ex_config *c, ex_scheme s) {
    for (int i = 0; i < c->n_schemes; i++)
        if (c->schemes[i] == (int)s) return i;
    return -1;
}

static const char *label_of(const ex_config *c, int i) {
    return c->schemes[i] == EX_LEARNED ? "learned (clamped)" : ex_scheme_name(c->schemes[i]);
}

/* Percent of one metric; length_index -1 is in distribution. */
static double pct(const ex_results *r, int i, int L, ex_metric_kind k) {
    return i < 0 ? NAN : 100 * ex_stat_of(r, i, L, k).mean;
}

/* One cell: the mean over seeds, with its sample std when there are several. */
static void cell_stat(char *cell, size_t n, const ex_results *r, int i, int L, ex_metric_kind k) {
    const ex_stat st = ex_stat_of(r, i, L, k);
    const double f = k == EX_LOSS ? 1 : 100; /* loss in nats, the others in percent */
    if (r->cfg.n_seeds > 1)
        snprintf(cell, n, k == EX_LOSS ? "%.2f±%.2f" : "%.1f±%.1f", f * st.mean, f * st.std);
    else
        snprintf(cell, n, k == EX_LOSS ? "%.2f" : "%.1f", f * st.mean);
}

/* The table of one metric: scheme, seeds that learned, in distribution,
 * each test length (mean ± std over the seeds). */
static void fill_table(tour_table *tb, const ex_results *r, ex_metric_kind k, int past) {
    const ex_config *c = &r->cfg;
    tb->rows = c->n_schemes + 1 <= TOUR_TABLE_ROWS ? c->n_schemes + 1 : TOUR_TABLE_ROWS;
    tb->cols = c->n_lengths + 3 <= TOUR_TABLE_COLS ? c->n_lengths + 3 : TOUR_TABLE_COLS;
    tb->split = past + 3; /* the bar between trained and longer lengths */
    snprintf(tb->cell[0][0], sizeof tb->cell[0][0], "%s", k == EX_EXACT ? "exact match (%)" : k == EX_TOKEN_ACC
                                                                   ? "tokens right (%)" : "loss (nats)");
    snprintf(tb->cell[0][1], sizeof tb->cell[0][1], "learned");
    snprintf(tb->cell[0][2], sizeof tb->cell[0][2], "in-dist");
    for (int L = 0; L + 3 < tb->cols; L++) snprintf(tb->cell[0][L + 3], sizeof tb->cell[0][0], "n=%d", c->lengths[L]);
    for (int i = 0; i + 1 < tb->rows; i++) {
        snprintf(tb->cell[i + 1][0], sizeof tb->cell[0][0], "%s", label_of(c, i));
        snprintf(tb->cell[i + 1][1], sizeof tb->cell[0][0], "%d/%d", ex_learned_count(r, i), c->n_seeds);
        for (int L = -1; L + 3 < tb->cols; L++) cell_stat(tb->cell[i + 1][L + 3], sizeof tb->cell[0][0], r, i, L, k);
    }
}

/* Per seed, in-distribution exact match of each trained model, marked
 * learned (✓) or not (✗ below the threshold). */
static void fill_seed_table(tour_table *tb, const ex_results *r, const int *trained, int n_trained) {
    const ex_config *c = &r->cfg;
    const int seeds = c->n_seeds + 1 <= TOUR_TABLE_COLS ? c->n_seeds : TOUR_TABLE_COLS - 1;
    tb->rows = n_trained + 1 <= TOUR_TABLE_ROWS ? n_trained + 1 : TOUR_TABLE_ROWS;
    tb->cols = seeds + 1;
    tb->split = 0;
    snprintf(tb->cell[0][0], sizeof tb->cell[0][0], "in-dist exact (%%)");
    for (int s = 0; s < seeds; s++) snprintf(tb->cell[0][s + 1], sizeof tb->cell[0][0], "seed %d", s + 1);
    for (int j = 0; j + 1 < tb->rows; j++) {
        snprintf(tb->cell[j + 1][0], sizeof tb->cell[0][0], "%s", label_of(c, trained[j]));
        for (int s = 0; s < seeds; s++) {
            const ex_run_result *x = ex_result_at(r, trained[j], s);
            snprintf(tb->cell[j + 1][s + 1], sizeof tb->cell[0][0], "%.1f %s", 100 * x->id.exact,
                     x->learned ? "✓" : "✗");
        }
    }
}

/* The same table as text, for the terminal. */
static void print_table(FILE *out, const tour_table *tb) {
    for (int r = 0; r < tb->rows; r++) {
        fprintf(out, "    %-18s", tb->cell[r][0]);
        for (int c = 1; c < tb->cols; c++) fprintf(out, "%s%13s", c == tb->split ? " |" : "", tb->cell[r][c]);
        fprintf(out, "\n");
    }
}

/* One panel: the metric against the test length per scheme, the training
 * range marked, and the claim's number written at its point. */
static int draw(tour *t, const ex_results *r, ex_metric_kind k, int mark_row, int past, const char *file) {
    if (!t->draw) return 0;
    const ex_config *c = &r->cfg;
    char title[256], path[1024];
    snprintf(title, sizeof title, "Train short (n ≤ %d), test long: %s, posenc experiment --quick (mean of %d seeds, "
             "%d steps)", c->train_max, k == EX_EXACT ? "exact match" : "token accuracy", c->n_seeds, c->steps);
    snprintf(path, sizeof path, "%s/%s", t->dir, file);
    plot_figure *fig = NULL;
    if (plot_figure_create(&(plot_figure_opts){.width = 1200, .height = 700, .title = title}, &fig) != PLOT_OK) {
        snprintf(t->err, sizeof t->err, "cannot create the figure %s", file);
        return -1;
    }
    plot_axes *ax = plot_figure_axes(fig, 0, 0);
    plot_axes_labels(ax, k == EX_EXACT ? "share of test sequences with every answer token right"
                                       : "share of answer tokens right",
                     "test length n (symbols to copy)", k == EX_EXACT ? "exact match (%)" : "token accuracy (%)");
    plot_axes_options(ax, PLOT_INT_X);
    plot_axes_ylim(ax, -2, 105);
    plot_axes_legend(ax, PLOT_LEGEND_OUTSIDE);
    double x[EX_MAX_LENGTHS], y[EX_MAX_LENGTHS];
    static const plot_marker markers[] = {PLOT_CIRCLE, PLOT_SQUARE, PLOT_TRIANGLE, PLOT_DIAMOND, PLOT_CROSS};
    for (int L = 0; L < c->n_lengths; L++) x[L] = c->lengths[L];
    for (int i = 0; i < c->n_schemes; i++) {
        for (int L = 0; L < c->n_lengths; L++) y[L] = pct(r, i, L, k);
        const int variant = ex_scheme_trained(c->schemes[i]) != (ex_scheme)c->schemes[i];
        plot_line(ax, x, y, (size_t)c->n_lengths,
                  &(plot_style){.label = label_of(c, i), .color = PLOT_PALETTE(i), .marker = markers[i % 5],
                                .dash = variant ? PLOT_DASHED : PLOT_SOLID});
    }
    char vl[96], note[96];
    snprintf(vl, sizeof vl, "trained up to n = %d", c->train_max);
    plot_vline(ax, c->train_max, &(plot_style){.label = vl});
    if (mark_row >= 0) {
        const double v = pct(r, mark_row, past, k);
        snprintf(note, sizeof note, "%s: %.1f%% at n = %d", label_of(c, mark_row), v, c->lengths[past]);
        plot_scatter(ax, &x[past], &v, 1,
                     &(plot_style){.color = PLOT_BLACK, .marker = PLOT_CIRCLE, .marker_size = 16, .alpha = 0.35});
        /* at the last length the note goes left of its point, inside the axes */
        const int at_end = past == c->n_lengths - 1;
        plot_text(ax, x[past], v, note, v > 50 ? PLOT_AT_SW : at_end ? PLOT_AT_NW : PLOT_AT_NE, PLOT_BLACK);
    }
    int st = plot_figure_save(fig, path);
    if (st != PLOT_OK) snprintf(t->err, sizeof t->err, "%s", plot_figure_error(fig));
    plot_figure_free(fig);
    if (st != PLOT_OK) return -1;
    snprintf(tour_last(t)->figure, sizeof tour_last(t)->figure, "%s", file);
    fprintf(t->out ? t->out : stdout, "    figure: %s\n", path);
    return 0;
}

int tour_experiment_judge(tour *t, const ex_results *r) {
    const ex_config *c = &r->cfg;
    int past = -1, last_in = -1, onehalf = -1, twice = -1;
    for (int L = 0; L < c->n_lengths; L++) {
        if (c->lengths[L] <= c->train_max) last_in = L;
        else if (past < 0) past = L;
        if (2 * c->lengths[L] == 3 * c->train_max) onehalf = L;
        if (c->lengths[L] == 2 * c->train_max) twice = L;
    }
    const int learned = row_of(c, EX_LEARNED), sinus = row_of(c, EX_SINUSOIDAL), rope = row_of(c, EX_ROPE),
              alibi = row_of(c, EX_ALIBI);
    if (past < 0 || last_in < 0 || onehalf < 0 || twice < 0 || learned < 0 || sinus < 0 || rope < 0 || alibi < 0 ||
        c->n_schemes > 8 || c->n_seeds > 8) {
        snprintf(t->err, sizeof t->err, "the quick experiment lacks the test lengths 1.5x and 2x its training length, "
                                        "a scheme the tour needs, or has more than 8 schemes or seeds");
        return -1;
    }
    char say[1024];
    int st;
    /* 1. every trained model learned in distribution, on every seed (the
     * rope-* rows are the RoPE models re-evaluated: not trained again) */
    int trained[8], n_trained = 0;
    for (int i = 0; i < c->n_schemes; i++)
        if (ex_scheme_trained(c->schemes[i]) == (ex_scheme)c->schemes[i]) trained[n_trained++] = i;
    double v[64];
    for (int j = 0; j < n_trained; j++)
        for (int s = 0; s < c->n_seeds; s++) v[j * c->n_seeds + s] = 100 * ex_result_at(r, trained[j], s)->id.exact;
    tour_inputs(t, "ex-learned", v, (size_t)(n_trained * c->n_seeds));
    double lo = INFINITY, hi = -INFINITY;
    int fails = 0;
    char per_model[600] = "", missed[600] = "";
    for (int j = 0; j < n_trained; j++) {
        int ok = 0;
        char which[160] = "";
        for (int s = 0; s < c->n_seeds; s++) {
            const double e = v[j * c->n_seeds + s];
            lo = fmin(lo, e);
            hi = fmax(hi, e);
            if (e >= 100 * EX_LEARNED_THRESHOLD) ok++;
            else {
                fails++;
                snprintf(which + strlen(which), sizeof which - strlen(which), "%sseed %d at %.1f%%",
                         which[0] ? ", " : "", s + 1, e);
            }
        }
        snprintf(per_model + strlen(per_model), sizeof per_model - strlen(per_model), "%s%s %d/%d", j ? ", " : "", label_of(c, trained[j]), ok,
                 c->n_seeds);
        if (which[0])
            snprintf(missed + strlen(missed), sizeof missed - strlen(missed), "%s%s (%s)", missed[0] ? "; " : "",
                     label_of(c, trained[j]), which);
    }
    /* a sentence cut short would leave out a seed that did not learn: refuse it */
    const int wl = fails == 0
        ? snprintf(say, sizeof say, "Inside the training lengths every model learned to copy on every seed (%d seeds, "
                                    "each at least %.0f%% exact in distribution; between %.1f%% and %.1f%%): %s.",
                   c->n_seeds, 100 * EX_LEARNED_THRESHOLD, lo, hi, per_model)
        : snprintf(say, sizeof say, "%d of %d runs did NOT learn to copy even inside the training lengths (below "
                                    "%.0f%% exact in distribution): %s. Seeds that learned: %s. The means below still "
                                    "count them.",
                   fails, n_trained * c->n_seeds, 100 * EX_LEARNED_THRESHOLD, missed, per_model);
    if (wl < 0 || (size_t)wl >= sizeof say || strlen(missed) + 1 >= sizeof missed ||
        strlen(per_model) + 1 >= sizeof per_model) {
        snprintf(t->err, sizeof t->err, "the learned-per-seed sentence does not fit in %zu bytes", sizeof say);
        return -1;
    }
    if ((st = tour_claim(t, "experiment", "ex-learned", fails == 0, NULL, say,
                         "posenc experiment --quick: copy, trained on n = 1..%d, seeds 1..%d, %d steps x batch %d, "
                         "model D %d, %d layers, %d test sequences per length, %.0f s on this machine; learned "
                         "threshold %.0f%% exact match in distribution, per seed",
                         c->train_max, c->n_seeds, c->steps, c->batch, c->dim, c->layers, c->eval_examples,
                         r->wall_seconds, 100 * EX_LEARNED_THRESHOLD)))
        return st;
    fill_seed_table(&tour_last(t)->table, r, trained, n_trained);
    print_table(t->out ? t->out : stdout, &tour_last(t)->table);
    /* 2. the learned table ends where training ended; sinusoidal and RoPE
     * do not copy there either, RoPE keeping more single tokens */
    double a[8] = {pct(r, learned, last_in, EX_EXACT), pct(r, learned, twice, EX_EXACT),
                   pct(r, sinus, twice, EX_EXACT), pct(r, rope, twice, EX_EXACT),
                   pct(r, sinus, twice, EX_TOKEN_ACC), pct(r, rope, twice, EX_TOKEN_ACC),
                   sinus >= 0 ? ex_stat_of(r, sinus, twice, EX_LOSS).mean : NAN,
                   ex_stat_of(r, rope, twice, EX_LOSS).mean};
    tour_inputs(t, "ex-absolute", a, 8);
    const int table_out = a[1] <= 5.0, waves_out = a[2] <= 5.0 && a[3] <= 5.0;
    const int rope_ahead = a[5] > a[4] && a[7] < a[6];
    /* the copy offset: answer token y_j reads x_j, n + 1 positions back */
    const int seen_off = c->train_max + 1, test_off = c->lengths[twice] + 1;
    snprintf(say, sizeof say,
             "Past the training length the learned table %s: exact match %.1f%% at n = %d, %.1f%% at n = %d. "
             "Sinusoidal (%.1f%%) and RoPE (%.1f%%) %s, for a reason of this task: each answer token copies the "
             "symbol n + 1 positions back, an offset of at most %d in training and %d at n = %d, which neither "
             "learned to find. Bounded angles are not enough when the offset itself is new. RoPE %s sinusoidal "
             "(%.1f%% against %.1f%% of tokens right, loss %.2f against %.2f nats). The notes disagree on whether "
             "sinusoidal encodings extrapolate (one: naturally, another: limited); here they %s.",
             table_out ? "has nothing to offer" : "does NOT give out", a[0], c->lengths[last_in], a[1],
             c->lengths[twice], a[2], a[3], waves_out ? "fall with it" : "do NOT both fall", seen_off, test_off,
             c->lengths[twice], rope_ahead ? "still keeps more single tokens than" : "does NOT keep more tokens than",
             a[5], a[4], a[7], a[6], a[2] <= 5.0 ? "do not, at this scale" : "partly do");
    if ((st = tour_claim(t, "experiment", "ex-absolute", table_out && waves_out && rope_ahead, NULL, say,
                         "at n = %d: exact match learned %.1f%%, sinusoidal %.1f%%, rope %.1f%%; tokens right "
                         "sinusoidal %.1f%%, rope %.1f%%; loss per answer token sinusoidal %.3f, rope %.3f nats (at "
                         "n = %d: learned %.1f%%); means over %d seeds",
                         c->lengths[twice], a[1], a[2], a[3], a[4], a[5], a[6], a[7], c->lengths[last_in], a[0], c->n_seeds)))
        return st;
    /* 3. who keeps whole answers twice training */
    for (int i = 0; i < c->n_schemes; i++) v[i] = pct(r, i, twice, EX_EXACT);
    tour_inputs(t, "ex-alibi", v, (size_t)c->n_schemes);
    int best = 0, second = -1;
    for (int i = 1; i < c->n_schemes; i++)
        if (v[i] > v[best]) best = i;
    for (int i = 0; i < c->n_schemes; i++)
        if (i != best && (second < 0 || v[i] > v[second])) second = i;
    const double far = pct(r, best, c->n_lengths - 1, EX_EXACT);
    /* ties at the top of the rest are common (all 0 %): name the runner-up
     * only when it stands alone */
    int tied = 0;
    for (int i = 0; i < c->n_schemes; i++) tied += i != best && v[i] == v[second];
    char rest[160];
    if (tied > 1)
        snprintf(rest, sizeof rest, "no other scheme gets above %.1f%%", v[second]);
    else
        snprintf(rest, sizeof rest, "%.1f%% for the next best (%s)", v[second], label_of(c, second));
    snprintf(say, sizeof say,
             "The scheme that keeps whole answers longest is %s: %.1f%% exact at n = %d, while %s; %.1f%% at n = %d%s",
             label_of(c, best), v[best], c->lengths[twice], rest, far, c->lengths[c->n_lengths - 1],
             best == alibi ? ". A bias that grows with distance extrapolates where rotations did not."
                           : ". The notes expect ALiBi here: this run does NOT bear that out.");
    if ((st = tour_claim(t, "experiment", "ex-alibi", best == alibi, NULL, say,
                         "exact match at n = %d: %s %.1f%%, %s %.1f%%", c->lengths[twice], label_of(c, best), v[best],
                         label_of(c, second), v[second])))
        return st;
    fill_table(&tour_last(t)->table, r, EX_EXACT, past);
    print_table(t->out ? t->out : stdout, &tour_last(t)->table);
    if ((st = draw(t, r, EX_EXACT, best, twice, "experiment-exact.png"))) return st;
    /* 4. Press et al.'s ordering of the loss per answer token (they
     * measured perplexity past the training length): ALiBi < RoPE <
     * sinusoidal, on the seeds' mean loss, at 1.5x and at 2x the training
     * length. The longest length and the per-seed counts are reported in
     * the numbers, not claimed. */
    const int at[2] = {onehalf, twice}, longest = c->n_lengths - 1;
    const int who[3] = {alibi, rope, sinus};
    double ls[6];
    for (int q = 0; q < 2; q++)
        for (int j = 0; j < 3; j++) ls[q * 3 + j] = ex_stat_of(r, who[j], at[q], EX_LOSS).mean;
    tour_inputs(t, "ex-press", ls, 6);
    const int press15 = ls[0] < ls[1] && ls[1] < ls[2], press2 = ls[3] < ls[4] && ls[4] < ls[5];
    /* reported only: how many single seeds keep the order, and the order at the longest length */
    int seeds_in_order[2] = {0, 0};
    for (int q = 0; q < 2; q++)
        for (int s = 0; s < c->n_seeds; s++) {
            const double la = ex_result_at(r, alibi, s)->at[at[q]].loss, lr = ex_result_at(r, rope, s)->at[at[q]].loss,
                         lsn = ex_result_at(r, sinus, s)->at[at[q]].loss;
            seeds_in_order[q] += la < lr && lr < lsn;
        }
    const double lfar[3] = {ex_stat_of(r, alibi, longest, EX_LOSS).mean, ex_stat_of(r, rope, longest, EX_LOSS).mean,
                           ex_stat_of(r, sinus, longest, EX_LOSS).mean};
    const char *verdict = press15 && press2 ? "orders them" : press15 ? "orders them at 1.5× but NOT at 2×"
                          : press2 ? "does NOT order them at 1.5×, only at 2×" : "does NOT order them at 1.5× or 2×";
    snprintf(say, sizeof say,
             "Per answer token, the loss past the training length %s as Press et al. found in perplexity for language "
             "models tested longer than trained, ALiBi < RoPE < sinusoidal: at 1.5× (n = %d) %.2f, %.2f, %.2f and at "
             "2× (n = %d) %.2f, %.2f, %.2f nats (means over %d seeds).",
             verdict, c->lengths[onehalf], ls[0], ls[1], ls[2], c->lengths[twice], ls[3], ls[4], ls[5], c->n_seeds);
    if ((st = tour_claim(t, "experiment", "ex-press", press15 && press2, NULL, say,
                         "mean loss per answer token (nats; chance is ln 64 = 4.16), alibi / rope / sinusoidal: n = %d "
                         "%.3f / %.3f / %.3f, n = %d %.3f / %.3f / %.3f; single seeds in that order: %d of %d at n = "
                         "%d, %d of %d at n = %d; not claimed: at n = %d (%g×) %.3f / %.3f / %.3f",
                         c->lengths[onehalf], ls[0], ls[1], ls[2], c->lengths[twice], ls[3], ls[4], ls[5],
                         seeds_in_order[0], c->n_seeds, c->lengths[onehalf], seeds_in_order[1], c->n_seeds,
                         c->lengths[twice], c->lengths[longest], (double)c->lengths[longest] / c->train_max, lfar[0],
                         lfar[1], lfar[2])))
        return st;
    fill_table(&tour_last(t)->table, r, EX_LOSS, past);
    print_table(t->out ? t->out : stdout, &tour_last(t)->table);
    /* 5. rescaled RoPE, judged at every test length past training: whole
     * answers not rescued; which rescaling keeps the most single tokens */
    const int rows[4] = {rope, row_of(c, EX_ROPE_LINEAR), row_of(c, EX_ROPE_NTK), row_of(c, EX_ROPE_YARN)};
    int rescued = 0, most_last = 0, n_past = 0;
    double worst_gain = -INFINITY;
    char per[4][200];
    double ev[EX_MAX_LENGTHS * 4];
    for (int L = past; L < c->n_lengths && n_past < 4; L++, n_past++)
        for (int j = 0; j < 4; j++) ev[n_past * 4 + j] = pct(r, rows[j], L, EX_EXACT);
    tour_inputs(t, "ex-rescaled", ev, (size_t)n_past * 4);
    char lens[64] = "";
    for (int q = 0; q < n_past; q++) {
        const int L = past + q;
        double e[4], tk[4];
        int most = 0;
        for (int j = 0; j < 4; j++) {
            e[j] = ev[q * 4 + j];
            tk[j] = pct(r, rows[j], L, EX_TOKEN_ACC);
        }
        for (int j = 1; j < 4; j++) {
            if (rows[j] < 0) continue;
            rescued |= e[j] > e[0] + 10.0;
            worst_gain = fmax(worst_gain, e[j] - e[0]);
            if (tk[j] > tk[most]) most = j;
        }
        most_last = most;
        snprintf(per[q], sizeof per[q], "n = %d: exact %.1f%% plain, %.1f%% at best rescaled; tokens right %.1f%% "
                 "plain, %s %.1f%%", c->lengths[L], e[0], fmax(fmax(e[1], e[2]), e[3]), tk[0],
                 most == 0 ? "no rescaling more, best" : label_of(c, rows[most]),
                 most == 0 ? fmax(fmax(tk[1], tk[2]), tk[3]) : tk[most]);
        snprintf(lens + strlen(lens), sizeof lens - strlen(lens), "%s%d", q ? (q + 1 == n_past ? " and " : ", ") : "",
                 c->lengths[L]);
    }
    char detail[900] = "";
    for (int q = 0; q < n_past; q++)
        snprintf(detail + strlen(detail), sizeof detail - strlen(detail), "%s%s", q ? "; " : "", per[q]);
    /* A sentence cut short would claim less than its predicate checks:
     * refuse it instead (a claim is stored in 1024 bytes). */
    int w = snprintf(say, sizeof say,
                     "Rescaling RoPE's frequencies at inference, without retraining, %s whole answers past training "
                     "(n = %s; no rescaling gains more than %.1f points of exact match over plain RoPE). It does "
                     "move single tokens: %s.",
                     rescued ? "DOES rescue" : "does not rescue", lens, worst_gain, detail);
    if (w < 0 || (size_t)w >= sizeof say) {
        snprintf(t->err, sizeof t->err, "the rescaling claim's sentence does not fit in %zu bytes", sizeof say);
        return -1;
    }
    if ((st = tour_claim(t, "experiment", "ex-rescaled", !rescued, NULL, say,
                         "exact / tokens right (%%) at each n past training: rope, rope-linear, rope-ntk, rope-yarn "
                         "(frequencies rescaled by f = n / %d); rescued means more than 10 points above plain RoPE",
                         c->train_max)))
        return st;
    fill_table(&tour_last(t)->table, r, EX_TOKEN_ACC, past);
    print_table(t->out ? t->out : stdout, &tour_last(t)->table);
    return draw(t, r, EX_TOKEN_ACC, rows[most_last] >= 0 ? rows[most_last] : rope, past + n_past - 1,
                "experiment-tokens.png");
}

int tour_experiment_claims(tour *t) {
    if (!t->experiment) return 0;
    ex_config c;
    ex_config_quick(&c);
    ex_results r;
    const int tty = isatty(fileno(stderr));
    int st = ex_run_all(&c, tty ? ex_progress_bar : NULL, stderr, &r);
    if (st) {
        snprintf(t->err, sizeof t->err, "the experiment failed: %s", r.error);
        return st;
    }
    st = tour_experiment_judge(t, &r);
    ex_results_free(&r);
    return st;
}
