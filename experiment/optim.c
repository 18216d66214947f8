/* optim.c — AdamW, its schedule and gradient clipping. */
#include "optim.h"

#include <math.h>
#include <stdlib.h>

ex_adamw_config ex_adamw_defaults(int steps) {
    ex_adamw_config c = {3e-3, 0.1, 100, steps, 0.9, 0.98, 1e-8, 0.01, 1.0};
    if (c.warmup > steps / 5) c.warmup = steps / 5; /* short test runs */
    return c;
}

double ex_lr_at(const ex_adamw_config *c, int step) {
    if (step < c->warmup) return c->lr * (step + 1) / c->warmup;
    const int span = c->steps - c->warmup;
    const double t = span > 1 ? (double)(step - c->warmup) / (span - 1) : 1.0;
    const double lo = c->lr * c->min_lr_frac;
    return lo + (c->lr - lo) * 0.5 * (1.0 + cos(3.14159265358979323846 * (t > 1 ? 1 : t)));
}

static void add_group(ex_adamw *o, float *w, const float *g, size_t n, int decay) {
    if (n == 0) return;
    ex_param_group *p = &o->group[o->n_groups++];
    p->w = w;
    p->g = g;
    p->n = n;
    p->decay = decay;
}

int ex_adamw_init(ex_adamw *o, const ex_adamw_config *c, ex_net_f32 *net) {
    *o = (ex_adamw){.cfg = *c};
    const ex_arch *a = &net->arch;
    size_t off[EX_MAX_GROUPS], len[EX_MAX_GROUPS];
    const int k = ex_decay_ranges(a, off, len, EX_MAX_GROUPS - 2 * EX_MAX_LAYERS - 4);
    /* The decayed ranges are increasing; everything between them is not. */
    size_t at = 0;
    for (int i = 0; i < k; i++) {
        add_group(o, net->w + at, net->g + at, off[i] - at, 0);
        add_group(o, net->w + off[i], net->g + off[i], len[i], 1);
        at = off[i] + len[i];
    }
    add_group(o, net->w + at, net->g + at, a->n_params - at, 0);
    if (net->learned)
        add_group(o, pe_learned_weights(net->learned), net->learned_grad,
                  (size_t)a->max_len * (size_t)a->dim, 0);
    size_t total = 0;
    for (int i = 0; i < o->n_groups; i++) total += o->group[i].n;
    o->state = calloc(2 * total, sizeof(float));
    if (o->state == NULL) return PE_ERR_NOMEM;
    float *s = o->state;
    for (int i = 0; i < o->n_groups; i++) {
        o->group[i].m = s;
        o->group[i].v = s + total;
        s += o->group[i].n;
    }
    return 0;
}

void ex_adamw_free(ex_adamw *o) {
    free(o->state);
    o->state = NULL;
}

double ex_adamw_step(ex_adamw *o, int step) {
    const ex_adamw_config *c = &o->cfg;
    double sq = 0;
    for (int i = 0; i < o->n_groups; i++)
        for (size_t j = 0; j < o->group[i].n; j++) sq += (double)o->group[i].g[j] * o->group[i].g[j];
    const double norm = sqrt(sq);
    const float gscale = (float)(c->clip > 0 && norm > c->clip ? c->clip / norm : 1.0);
    const double lr = ex_lr_at(c, step);
    const int t = step + 1;
    /* Bias corrections folded into the step size, as in Kingma & Ba. */
    const float b1 = (float)c->beta1, b2 = (float)c->beta2;
    const float step_size = (float)(lr * sqrt(1 - pow(c->beta2, t)) / (1 - pow(c->beta1, t)));
    const float eps_hat = (float)(c->eps * sqrt(1 - pow(c->beta2, t)));
    const float shrink = (float)(1 - lr * c->weight_decay);
    for (int i = 0; i < o->n_groups; i++) {
        ex_param_group *p = &o->group[i];
        for (size_t j = 0; j < p->n; j++) {
            const float gj = p->g[j] * gscale;
            p->m[j] = b1 * p->m[j] + (1 - b1) * gj;
            p->v[j] = b2 * p->v[j] + (1 - b2) * gj * gj;
            if (p->decay) p->w[j] *= shrink;
            p->w[j] -= step_size * p->m[j] / (sqrtf(p->v[j]) + eps_hat);
        }
    }
    return norm;
}
