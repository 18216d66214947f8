/* rank.c — per-task ranks and mean reciprocal rank (rank.h). */
#include "rank.h"

#include <math.h>

int ex_mrr(const double *score, int tasks, int schemes, int *rank, double *mrr) {
    if (tasks < 1 || schemes < 1) return -1;
    for (int i = 0; i < tasks * schemes; i++)
        if (isnan(score[i])) return -1;
    for (int s = 0; s < schemes; s++) mrr[s] = 0;
    for (int t = 0; t < tasks; t++) {
        const double *row = score + t * schemes;
        for (int s = 0; s < schemes; s++) {
            /* 1 + the schemes strictly better: ties share the best rank */
            int r = 1;
            for (int o = 0; o < schemes; o++) r += row[o] > row[s];
            rank[t * schemes + s] = r;
            mrr[s] += 1.0 / r;
        }
    }
    for (int s = 0; s < schemes; s++) mrr[s] /= tasks;
    return 0;
}

int ex_mrr_order_holds(const double *mrr, const int *order, int n) {
    for (int i = 0; i + 1 < n; i++)
        if (!(mrr[order[i]] > mrr[order[i + 1]])) return 0;
    return 1;
}
