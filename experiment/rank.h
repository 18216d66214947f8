/*
 * rank.h — Kazemnejad et al. 2023's summary of a length-generalisation
 * study: per task, the schemes ranked by a score (higher is better); across
 * tasks, each scheme's mean reciprocal rank (MRR); and whether the MRRs put
 * the schemes in a given order. Pure functions over a table the caller
 * fills (docs/EXPERIMENT.md: tokens right past training, per task).
 */
#ifndef PE_EXPERIMENT_RANK_H
#define PE_EXPERIMENT_RANK_H

/* score: (tasks, schemes) row-major. rank: (tasks, schemes), 1 = best; tied
 * scores share the best rank among them (1, 2, 2, 4). mrr: (schemes), the
 * mean over tasks of 1/rank. Returns 0, or -1 if a count is below 1 or a
 * score is NaN. */
int ex_mrr(const double *score, int tasks, int schemes, int *rank, double *mrr);

/* 1 if mrr[order[0]] > mrr[order[1]] > ... > mrr[order[n-1]] (strictly:
 * a tie does not reproduce an order), else 0. */
int ex_mrr_order_holds(const double *mrr, const int *order, int n);

#endif
