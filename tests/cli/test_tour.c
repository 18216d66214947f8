/*
 * test_tour.c — the tour's experiment claims judged on tables of made-up
 * numbers (training the real models takes minutes): each predicate holds on
 * a table like the measured one and fails, with a sentence that says so, on
 * a table that contradicts it; the page marks the failed claim. Also the
 * test-only fault hook's parser. Built as build/tour_tests (make test-tour).
 */
#include "../runner.h"

#include "../../cli/tour/tour_experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A table shaped like `posenc experiment --quick`: every model learned on
 * every seed, everything but ALiBi collapses past training, no rescaling
 * rescues whole answers. Length indices: 0, 1 inside training, 2 = 1.5x,
 * 3 = 2x, 4 = 4x the training length; -1 in distribution. Each seed gets
 * the same numbers, but seed s's exact match in distribution is s points
 * lower (a spread the tables must show). */
typedef struct {
    ex_results r;
    ex_run_result runs[EX_N_SCHEMES * 4];
} fake_run;

static int row(const fake_run *f, ex_scheme s) {
    for (int i = 0; i < f->r.cfg.n_schemes; i++)
        if (f->r.cfg.schemes[i] == (int)s) return i;
    return -1;
}

/* The test length of index L, in symbols. */
static int nlen(const fake_run *f, int L) { return f->r.cfg.lengths[L]; }

static void set_seed(fake_run *f, ex_scheme s, int seed, int L, double exact, double tokens) {
    const int i = row(f, s);
    ex_run_result *x = &f->runs[i * f->r.cfg.n_seeds + seed];
    ex_metric *m = L < 0 ? &x->id : &x->at[L];
    m->exact = exact / 100;
    m->token_acc = tokens / 100;
    m->loss = 4.0 * (1 - tokens / 100); /* falls as tokens come right */
    if (L < 0) x->learned = m->exact >= EX_LEARNED_THRESHOLD;
}

static void set(fake_run *f, ex_scheme s, int L, double exact, double tokens) {
    for (int seed = 0; seed < f->r.cfg.n_seeds; seed++)
        set_seed(f, s, seed, L, L < 0 ? exact - seed : exact, tokens);
}

static void fake_init(fake_run *f) {
    memset(f, 0, sizeof *f);
    ex_config_quick(&f->r.cfg);
    f->r.runs = f->runs;
    for (int i = 0; i < f->r.cfg.n_schemes; i++)
        for (int seed = 0; seed < f->r.cfg.n_seeds; seed++) {
            f->runs[i * f->r.cfg.n_seeds + seed].scheme = (ex_scheme)f->r.cfg.schemes[i];
            f->runs[i * f->r.cfg.n_seeds + seed].seed = seed + 1;
        }
    for (int i = 0; i < f->r.cfg.n_schemes; i++) {
        const ex_scheme s = (ex_scheme)f->r.cfg.schemes[i];
        set(f, s, -1, 99.5, 99.8);
        set(f, s, 0, 99.0, 99.9);
        set(f, s, 1, 95.0, 99.7);
        set(f, s, 2, 0.0, 35.0);
        set(f, s, 3, 0.0, 30.0);
        set(f, s, 4, 0.0, 10.0);
    }
    set(f, EX_SINUSOIDAL, 2, 0.0, 20.0);
    set(f, EX_SINUSOIDAL, 3, 0.0, 26.6);
    set(f, EX_ROPE, 3, 0.0, 45.7);
    set(f, EX_ALIBI, 2, 95.0, 99.8);
    set(f, EX_ALIBI, 3, 84.0, 99.4);
    set(f, EX_ALIBI, 4, 2.0, 93.9);
    set(f, EX_ROPE_YARN, 3, 0.0, 46.7);
    set(f, EX_ROPE_LINEAR, 3, 0.0, 7.8);
}

static tour *judged(const fake_run *f, const char *fault) {
    tour *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    t->out = fopen("/dev/null", "w");
    t->experiment = 1;
    if (fault && tour_set_fault(t, fault) != 0) pe_test_fail(__FILE__, __LINE__, "fault '%s' rejected", fault);
    if (tour_experiment_judge(t, &f->r) != 0) pe_test_fail(__FILE__, __LINE__, "judge failed: %s", t->err);
    return t;
}

static void done(tour *t) {
    if (t && t->out) fclose(t->out);
    free(t);
}

/* The item with that key, or NULL. */
static const tour_item *item(const tour *t, const char *key) {
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->items[i].key, key) == 0) return &t->items[i];
    return NULL;
}

/* What the claim said ("" if missing) and whether it held (0 if missing). */
static const char *said(const tour *t, const char *key) {
    const tour_item *it = item(t, key);
    return it ? it->claim : "";
}
static int held(const tour *t, const char *key) {
    const tour_item *it = item(t, key);
    return it ? it->holds : 0;
}

#define CHECK_HAS(text, part)                                                                       \
    do {                                                                                            \
        if (strstr((text), (part)) == NULL) pe_test_fail(__FILE__, __LINE__, "'%s' lacks '%s'", (text), (part)); \
    } while (0)

/* snprintf into a test buffer */
#define SAYF(buf, ...) snprintf((buf), sizeof(buf), __VA_ARGS__)

TEST(tour_experiment_claims_hold_on_the_measured_shape) {
    fake_run f;
    fake_init(&f);
    CHECK(f.r.cfg.n_seeds == 3 && f.r.cfg.n_lengths == 5 && 2 * nlen(&f, 2) == 3 * f.r.cfg.train_max &&
          nlen(&f, 3) == 2 * f.r.cfg.train_max);
    tour *t = judged(&f, NULL);
    CHECK(t != NULL && t->n == 5 && t->failed == 0);
    if (t == NULL || t->n != 5) return done(t);
    char want[256];
    SAYF(want, "longest is alibi: 84.0%% exact at n = %d, while no other scheme gets above 0.0%%", nlen(&f, 3));
    CHECK_HAS(said(t, "ex-alibi"), want);
    SAYF(want, "does not rescue whole answers past training (n = %d, %d and %d;", nlen(&f, 2), nlen(&f, 3), nlen(&f, 4));
    CHECK_HAS(said(t, "ex-rescaled"), want);
    /* judged at every length past training, each said */
    SAYF(want, "n = %d: exact 0.0%% plain, 0.0%% at best rescaled; tokens right 45.7%% plain, rope-yarn 46.7%%",
         nlen(&f, 3));
    CHECK_HAS(said(t, "ex-rescaled"), want);
    /* RoPE and sinusoidal are told apart at 2x, and why both fail is said */
    CHECK_HAS(said(t, "ex-absolute"), "RoPE still keeps more single tokens than sinusoidal (45.7% against 26.6%");
    SAYF(want, "an offset of at most %d in training and %d at n = %d", f.r.cfg.train_max + 1, nlen(&f, 3) + 1,
         nlen(&f, 3));
    CHECK_HAS(said(t, "ex-absolute"), want);
    /* every seed learned, said per model */
    CHECK_HAS(said(t, "ex-learned"), "every model learned to copy on every seed (3 seeds");
    CHECK_HAS(said(t, "ex-learned"), "between 97.5% and 99.5%): sinusoidal 3/3, learned (clamped) 3/3, rope 3/3, "
                                     "alibi 3/3.");
    /* the tables show the spread over the seeds */
    const tour_item *a = item(t, "ex-alibi");
    CHECK(a != NULL && a->table.rows == f.r.cfg.n_schemes + 1 && a->table.split == 5);
    if (a) {
        SAYF(want, "n=%d", nlen(&f, 2));
        CHECK(strcmp(a->table.cell[0][5], want) == 0);
        CHECK(strcmp(a->table.cell[0][1], "learned") == 0 && strcmp(a->table.cell[1][1], "3/3") == 0);
        CHECK(strcmp(a->table.cell[1][2], "98.5±1.0") == 0); /* 99.5, 98.5, 97.5: mean 98.5, std 1 */
    }
    const tour_item *l = item(t, "ex-learned");
    CHECK(l != NULL && l->table.rows == 5 && l->table.cols == 4);
    if (l) CHECK(strcmp(l->table.cell[0][3], "seed 3") == 0 && strcmp(l->table.cell[4][3], "97.5 ✓") == 0);
    done(t);
}

TEST(tour_experiment_one_seed_that_did_not_learn_is_named) {
    fake_run f;
    fake_init(&f);
    set_seed(&f, EX_ALIBI, 1, -1, 90.0, 98.0);
    tour *t = judged(&f, NULL);
    CHECK(t != NULL && t->failed == 1 && !held(t, "ex-learned"));
    if (t) {
        CHECK_HAS(said(t, "ex-learned"), "1 of 12 runs did NOT learn to copy");
        CHECK_HAS(said(t, "ex-learned"), "alibi (seed 2 at 90.0%)");
        CHECK_HAS(said(t, "ex-learned"), "alibi 2/3");
        const tour_item *l = item(t, "ex-learned");
        CHECK(l != NULL && strcmp(l->table.cell[4][2], "90.0 ✗") == 0);
    }
    done(t);
}

TEST(tour_experiment_rescued_rope_fails_the_claim) {
    fake_run f;
    fake_init(&f);
    set(&f, EX_ROPE_YARN, 3, 60.0, 90.0); /* YaRN keeps 60 % of whole answers at 2x: a rescue */
    tour *t = judged(&f, NULL);
    CHECK(t != NULL && t->failed == 1 && !held(t, "ex-rescaled"));
    if (t) CHECK_HAS(said(t, "ex-rescaled"), "DOES rescue whole answers");
    done(t);
}

TEST(tour_experiment_rescue_at_any_length_past_training_fails_the_claim) {
    for (int L = 2; L <= 4; L++) {
        fake_run f;
        fake_init(&f);
        set(&f, EX_ROPE_NTK, L, 40.0, 90.0); /* a rescue at one length only */
        tour *t = judged(&f, NULL);
        CHECK(t != NULL && t->failed == 1 && !held(t, "ex-rescaled"));
        if (t) CHECK_HAS(said(t, "ex-rescaled"), "DOES rescue whole answers");
        done(t);
    }
}

TEST(tour_experiment_sinusoidal_ahead_of_rope_fails_the_claim) {
    fake_run f;
    fake_init(&f);
    set(&f, EX_SINUSOIDAL, 3, 0.0, 60.0);
    tour *t = judged(&f, NULL);
    /* (its loss falls below RoPE's too, so Press et al.'s order fails as well) */
    CHECK(t != NULL && t->failed == 2 && !held(t, "ex-absolute") && !held(t, "ex-press"));
    if (t) CHECK_HAS(said(t, "ex-absolute"), "RoPE does NOT keep more tokens than sinusoidal");
    done(t);
}

TEST(tour_experiment_press_ordering_is_judged_at_one_and_a_half_and_twice) {
    fake_run f;
    fake_init(&f);
    tour *t = judged(&f, NULL);
    CHECK(t != NULL && held(t, "ex-press"));
    char want[256];
    SAYF(want, "ALiBi < RoPE < sinusoidal: at 1.5× (n = %d) 0.01, 2.60, 3.20 and at 2× (n = %d) 0.02, 2.17, 2.94 "
               "nats (means over 3 seeds)", nlen(&f, 2), nlen(&f, 3));
    if (t) {
        CHECK_HAS(said(t, "ex-press"), "past the training length orders them as Press et al. found");
        CHECK_HAS(said(t, "ex-press"), want);
        /* the longest length is reported in the numbers, not claimed in the sentence */
        CHECK(strstr(said(t, "ex-press"), "4×") == NULL);
        const tour_item *p = item(t, "ex-press");
        CHECK(p != NULL && strstr(p->number, "not claimed: at n = ") != NULL &&
              p->table.rows == f.r.cfg.n_schemes + 1);
    }
    done(t);
    /* RoPE above sinusoidal at 2x only, on the mean of the seeds (RoPE's
     * lower loss than sinusoidal's is part of ex-absolute too) */
    fake_init(&f);
    for (int s = 0; s < 3; s++) f.runs[row(&f, EX_ROPE) * 3 + s].at[3].loss = 3.5;
    t = judged(&f, NULL);
    CHECK(t != NULL && t->failed == 2 && !held(t, "ex-press") && !held(t, "ex-absolute"));
    if (t) CHECK_HAS(said(t, "ex-press"), "orders them at 1.5× but NOT at 2×");
    done(t);
    /* ALiBi above RoPE at 1.5x only */
    fake_init(&f);
    for (int s = 0; s < 3; s++) f.runs[row(&f, EX_ALIBI) * 3 + s].at[2].loss = 2.9;
    t = judged(&f, NULL);
    CHECK(t != NULL && t->failed == 1 && !held(t, "ex-press"));
    if (t) CHECK_HAS(said(t, "ex-press"), "does NOT order them at 1.5×, only at 2×");
    done(t);
    /* one seed out of order moves the mean: the claim is on the mean, the count is reported */
    fake_init(&f);
    f.runs[row(&f, EX_ROPE) * 3 + 2].at[3].loss = 3.0;
    t = judged(&f, NULL);
    CHECK(t != NULL && held(t, "ex-press"));
    const tour_item *p = t ? item(t, "ex-press") : NULL;
    CHECK(p != NULL && strstr(p->number, "2 of 3 at n = ") != NULL);
    done(t);
}

TEST(tour_experiment_other_winner_fails_the_alibi_claim) {
    fake_run f;
    fake_init(&f);
    set(&f, EX_ALIBI, 3, 10.0, 60.0);
    set(&f, EX_SINUSOIDAL, 3, 50.0, 80.0);
    tour *t = judged(&f, NULL);
    /* sinusoidal copying past training also fails the claim that it does not */
    CHECK(t != NULL && t->failed == 3 && !held(t, "ex-alibi") && !held(t, "ex-absolute") && !held(t, "ex-press"));
    if (t) {
        char want[256];
        SAYF(want, "longest is sinusoidal: 50.0%% exact at n = %d, while 10.0%% for the next best (alibi)", nlen(&f, 3));
        CHECK_HAS(said(t, "ex-alibi"), want);
        CHECK_HAS(said(t, "ex-alibi"), "does NOT bear that out");
        /* the sentence of the absolute schemes follows the numbers too */
        CHECK_HAS(said(t, "ex-absolute"), "do NOT both fall");
    }
    done(t);
}

TEST(tour_experiment_learned_table_past_training_and_in_distribution) {
    fake_run f;
    fake_init(&f);
    set(&f, EX_LEARNED, 3, 30.0, 70.0);
    tour *t = judged(&f, NULL);
    CHECK(t != NULL && t->failed == 1 && !held(t, "ex-absolute"));
    if (t) CHECK_HAS(said(t, "ex-absolute"), "does NOT give out");
    done(t);
    fake_init(&f);
    set(&f, EX_ALIBI, -1, 50.0, 80.0);
    t = judged(&f, NULL);
    CHECK(t != NULL && t->failed == 1 && !held(t, "ex-learned"));
    if (t) CHECK_HAS(said(t, "ex-learned"), "3 of 12 runs did NOT learn to copy");
    done(t);
}

TEST(tour_fault_hook_perturbs_one_input) {
    fake_run f;
    fake_init(&f);
    /* input 6 of ex-alibi is ALiBi's exact match at 2x (row 6 of quick) */
    CHECK(row(&f, EX_ALIBI) == 6);
    tour *t = judged(&f, "ex-alibi:6=0");
    CHECK(t != NULL && t->fault_used && t->failed == 1 && !held(t, "ex-alibi"));
    done(t);
    tour *u = calloc(1, sizeof *u);
    CHECK(u != NULL);
    if (u == NULL) return;
    CHECK(tour_set_fault(u, "nonsense") == -1);
    CHECK(tour_set_fault(u, ":1=2") == -1);
    CHECK(tour_set_fault(u, "key:x=2") == -1);
    CHECK(tour_set_fault(u, "key:1=") == -1);
    CHECK(tour_set_fault(u, "key:1=2x") == -1);
    CHECK(tour_set_fault(u, "key:-1=2") == -1);
    CHECK(u->fault_key[0] == '\0'); /* a rejected spec leaves no fault behind */
    CHECK(tour_set_fault(u, "relativity:2=0.5") == 0 && strcmp(u->fault_key, "relativity") == 0 &&
          u->fault_index == 2 && u->fault_value == 0.5);
    double v[3] = {1, 1, 1};
    tour_inputs(u, "direction", v, 3);
    CHECK(v[2] == 1 && !u->fault_used);
    tour_inputs(u, "relativity", v, 3);
    CHECK(v[2] == 0.5 && v[0] == 1 && u->fault_used);
    free(u);
}

/* tests/cli/tour.sh's fault loop for the experiment's claims (the real run
 * takes minutes): one input of one claim perturbed through the same hook
 * (POSENC_TOUR_FAULT's parser), and that claim alone turns FAILED. Inputs:
 * ex-learned, each trained model's in-distribution exact per seed (0: the
 * first seed of sinusoidal); ex-absolute, learned exact at 2x is 1; ex-alibi,
 * ALiBi's exact at 2x is 6; ex-press, ALiBi's loss at 1.5x is 0, RoPE's and
 * sinusoidal's at 2x are 4 and 5; ex-rescaled, YaRN's exact at 2x is 7 (4 per
 * length past training, YaRN last). */
TEST(tour_experiment_each_claim_fails_under_its_fault) {
    static const char *const faults[] = {"ex-learned:0=50",  "ex-learned:11=94", "ex-absolute:1=50",
                                          "ex-alibi:6=0",     "ex-press:0=9",     "ex-press:4=9",
                                          "ex-rescaled:7=60", "ex-rescaled:3=20"};
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        fake_run f;
        fake_init(&f);
        tour *t = judged(&f, faults[i]);
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(faults[i], ':') - faults[i]), faults[i]);
        if (!(t != NULL && t->fault_used && t->failed == 1 && !held(t, key)))
            pe_test_fail(__FILE__, __LINE__, "fault %s: %d failed, %s held", faults[i], t ? t->failed : -1, key);
        done(t);
    }
}

TEST(tour_page_marks_a_failed_claim) {
    fake_run f;
    fake_init(&f);
    set(&f, EX_ROPE_NTK, 3, 70.0, 95.0);
    tour *t = judged(&f, NULL);
    CHECK(t != NULL && t->failed == 1);
    if (t == NULL) return;
    char *page = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&page, &len);
    CHECK(m != NULL);
    if (m) {
        tour_html_page(t, m);
        fclose(m);
        CHECK_HAS(page, "<div class=\"claim failed\" id=\"c5\" data-key=\"ex-rescaled\">");
        CHECK_HAS(page, "✗ FAILED");
        CHECK_HAS(page, "4 of 5 claims hold; 1 FAILED");
        CHECK_HAS(page, "<section id=\"experiment\">");
        char split[64];
        SAYF(split, "<th class=\"split\">n=%d</th>", nlen(&f, 2));
        CHECK_HAS(page, split);
        CHECK(strstr(page, "<script") == NULL);
    }
    free(page);
    done(t);
}
