/*
 * net_impl.h — the model's forward and backward (net.h), written once for an
 * element type; included after layers_impl.h by net_f32.c (and by the
 * tests' net_f64.c). Pre-norm decoder:
 *
 *   x0 = sqrt(D) E[tok] (+ additive or learned position rows)
 *   per layer: x += Wo attn(RoPE(q), RoPE(k), v; causal, + ALiBi/T5 bias)(LN1 x)
 *              x += W2 GELU(W1 LN2 x)
 *   logits = LNf(x) E^T at the scored rows (output tied to the embedding)
 */
#include "layers.h"
#include "net.h"

#include <stdlib.h>

#define EX_NET EXF(ex_net)
#define EX_WS struct EXF(ex_ws)
#if EX_IS_F64
#define EX_DTYPE PE_F64
#else
#define EX_DTYPE PE_F32
#endif

struct EXF(ex_ws) {
    int cap_tok, cap_ans, cap_ex, cap_T;
    size_t cap_pt;
    int N;                /* token rows of the batch in the buffers */
    R *x, *hn;            /* (2L+1, N, D): sublayer inputs and their LayerNorms */
    R *mean, *rstd;       /* (2L+1, N) */
    R *qkv;               /* (L, N, 3D), q and k after RoPE */
    R *P;                 /* (L, PT) attention probabilities, PT = sum H T^2 */
    R *att;               /* (L, N, D) attention outputs before Wo */
    R *u, *gl, *dgdu;     /* (L, N, F) FFN pre-activation, GELU and its slope */
    R *bias, *dbias;      /* (PT) position biases of every example */
    R *hans, *logits;     /* (Na, D), (Na, V) */
    R *dx, *dh, *dqkv, *datt, *du, *dhans;
    R *dS;                /* (maxT, maxT) attention backward scratch */
    R *pe;                /* (N, D) additive rows (normalized) */
    R *pe_table;          /* (maxT, D) rows of positions 0.. (raw, binary, sinusoidal) */
    int pe_rows;          /* rows of pe_table filled (0: none yet) */
    float *fbuf;          /* (max(N D, H maxT^2)) f32 rows for learned and T5 */
    float *t5f;           /* (H, buckets) the T5 table as the library takes it */
    double *cs;           /* f64 RoPE: cos then sin, (N, Dh/2) each */
    int64_t *posc;        /* (N) positions clamped to the learned table */
    int64_t *bucket;      /* (maxT) T5 bucket of r = -(maxT-1) .. 0 */
    int *boff;            /* (B+1) offsets of each example's (H, T, T) blocks */
    unsigned char *correct; /* (Na) */
    const pe_freqs *freqs;  /* frequencies of the last forward */
};

static void EXF(ws_free)(EX_WS *ws) {
    if (ws == NULL) return;
    void *p[] = {ws->x,    ws->hn,   ws->mean,     ws->rstd,   ws->qkv,    ws->P,
                 ws->att,  ws->u,    ws->gl,       ws->dgdu,   ws->dS,     ws->bias,
                 ws->dbias, ws->hans, ws->logits,  ws->dx,     ws->dh,     ws->dqkv,
                 ws->datt, ws->du,   ws->dhans,    ws->pe,     ws->pe_table, ws->fbuf,
                 ws->t5f,  ws->cs,   ws->posc,     ws->bucket, ws->boff,   ws->correct};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
    free(ws);
}

/* Grow the buffers to hold batch b (with headroom so that training's
 * varying batches settle after a few steps). */
static int EXF(ws_reserve)(EX_NET *net, const ex_batch *b) {
    const ex_arch *a = &net->arch;
    size_t pt = 0;
    for (int e = 0; e < b->n_ex; e++) {
        const size_t T = (size_t)(b->off[e + 1] - b->off[e]);
        pt += (size_t)a->heads * T * T;
    }
    EX_WS *ws = net->ws;
    if (ws && b->n_tok <= ws->cap_tok && b->n_ans <= ws->cap_ans && b->n_ex <= ws->cap_ex &&
        pt <= ws->cap_pt && b->max_tokens <= ws->cap_T)
        return 0;
    EXF(ws_free)(ws);
    net->ws = ws = calloc(1, sizeof *ws);
    if (ws == NULL) return PE_ERR_NOMEM;
    const size_t N = (size_t)b->n_tok * 5 / 4 + 8, Na = (size_t)b->n_ans * 5 / 4 + 8;
    const size_t E = (size_t)b->n_ex * 5 / 4 + 8, PT = pt * 5 / 4 + 64;
    const size_t T = (size_t)b->max_tokens + 8;
    const size_t D = (size_t)a->dim, F = (size_t)a->ffn, L = (size_t)a->layers,
                 V = (size_t)a->vocab, H = (size_t)a->heads;
    const size_t S = 2 * L + 1;
    const size_t nf = N * D > H * T * T ? N * D : H * T * T;
    struct { void **p; size_t n, sz; } bufs[] = {
        {(void **)&ws->x, S * N * D, sizeof(R)},     {(void **)&ws->hn, S * N * D, sizeof(R)},
        {(void **)&ws->mean, S * N, sizeof(R)},      {(void **)&ws->rstd, S * N, sizeof(R)},
        {(void **)&ws->qkv, L * N * 3 * D, sizeof(R)}, {(void **)&ws->P, L * PT, sizeof(R)},
        {(void **)&ws->att, L * N * D, sizeof(R)},   {(void **)&ws->u, L * N * F, sizeof(R)},
        {(void **)&ws->gl, L * N * F, sizeof(R)},    {(void **)&ws->dgdu, L * N * F, sizeof(R)},
        {(void **)&ws->dS, T * T, sizeof(R)},        {(void **)&ws->bias, PT, sizeof(R)},
        {(void **)&ws->dbias, PT, sizeof(R)},        {(void **)&ws->hans, Na * D, sizeof(R)},
        {(void **)&ws->logits, Na * V, sizeof(R)},   {(void **)&ws->dx, N * D, sizeof(R)},
        {(void **)&ws->dh, N * D, sizeof(R)},        {(void **)&ws->dqkv, N * 3 * D, sizeof(R)},
        {(void **)&ws->datt, N * D, sizeof(R)},      {(void **)&ws->du, N * F, sizeof(R)},
        {(void **)&ws->dhans, Na * D, sizeof(R)},    {(void **)&ws->pe, N * D, sizeof(R)},
        {(void **)&ws->pe_table, T * D, sizeof(R)},
        {(void **)&ws->fbuf, nf, sizeof(float)},
        {(void **)&ws->t5f, H * (size_t)(a->t5_buckets > 0 ? a->t5_buckets : 1), sizeof(float)},
        {(void **)&ws->cs, N * (size_t)a->head_dim, sizeof(double)},
        {(void **)&ws->posc, N, sizeof(int64_t)},    {(void **)&ws->bucket, T, sizeof(int64_t)},
        {(void **)&ws->boff, E + 1, sizeof(int)},    {(void **)&ws->correct, Na, 1},
    };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if ((*bufs[i].p = malloc(bufs[i].n * bufs[i].sz)) == NULL) {
            EXF(ws_free)(ws);
            net->ws = NULL;
            return PE_ERR_NOMEM;
        }
    ws->cap_tok = (int)N;
    ws->cap_ans = (int)Na;
    ws->cap_ex = (int)E;
    ws->cap_pt = PT;
    ws->cap_T = (int)T;
    return 0;
}

int EXF(ex_net_create)(const ex_arch *a, uint64_t seed, EX_NET **out) {
    *out = NULL;
    EX_NET *net = calloc(1, sizeof *net);
    double *w0 = malloc(sizeof(double) * a->n_params);
    if (net == NULL || w0 == NULL) goto nomem;
    net->arch = *a;
    net->w = malloc(sizeof(R) * a->n_params);
    net->g = calloc(a->n_params, sizeof(R));
    if (net->w == NULL || net->g == NULL) goto nomem;
    ex_params_init(a, seed, w0);
    for (size_t i = 0; i < a->n_params; i++) net->w[i] = (R)w0[i];
    free(w0);
    w0 = NULL;
    if (a->scheme == EX_LEARNED) {
        /* The library's seeded N(0, 0.02^2) init, its own stream. */
        int st = pe_learned_create(a->max_len, a->dim, seed ^ 0x1EA4ED7AB1Eull, &net->learned);
        if (st) {
            EXF(ex_net_free)(net);
            return st;
        }
        net->learned_grad = calloc((size_t)a->max_len * (size_t)a->dim, sizeof(float));
        if (net->learned_grad == NULL) goto nomem;
    }
    if (a->scheme == EX_ROPE) {
        if ((net->rope = malloc(sizeof *net->rope)) == NULL) goto nomem;
        int st = pe_freqs_default(a->head_dim, a->rope_base, net->rope);
        if (st) {
            EXF(ex_net_free)(net);
            return st;
        }
    }
    *out = net;
    return 0;
nomem:
    free(w0);
    EXF(ex_net_free)(net);
    return PE_ERR_NOMEM;
}

void EXF(ex_net_free)(EX_NET *net) {
    if (net == NULL) return;
    free(net->w);
    free(net->g);
    pe_learned_free(net->learned);
    free(net->learned_grad);
    free(net->rope);
    EXF(ws_free)(net->ws);
    free(net);
}

/* Additive and learned position rows, added to x0. */
static int EXF(add_positions)(EX_NET *net, const ex_batch *b, R *x0) {
    const ex_arch *a = &net->arch;
    EX_WS *ws = net->ws;
    const int D = a->dim;
    const size_t ND = (size_t)b->n_tok * (size_t)D;
    if (a->scheme == EX_LEARNED) {
        /* Past the table, every position reads its last row: the clamp the
         * report names. The library itself refuses such positions. */
        for (int t = 0; t < b->n_tok; t++)
            ws->posc[t] = b->pos[t] < a->max_len ? b->pos[t] : a->max_len - 1;
        int st = pe_learned_forward(net->learned, ws->posc, b->n_tok, ws->fbuf);
        if (st) return st;
        for (size_t i = 0; i < ND; i++) x0[i] += (R)ws->fbuf[i];
        return 0;
    }
    pe_additive_scheme kind;
    switch (a->scheme) {
    case EX_RAW: kind = PE_ADD_RAW; break;
    case EX_NORMALIZED: kind = PE_ADD_NORMALIZED; break;
    case EX_BINARY: kind = PE_ADD_BINARY; break;
    case EX_SINUSOIDAL: kind = PE_ADD_SINUSOIDAL; break;
    default: return 0;
    }
    pe_additive_params p = pe_additive_defaults(kind, D);
    p.base = a->rope_base;
    const pe_positions from0 = pe_positions_range(0);
    if (kind != PE_ADD_NORMALIZED) {
        /* Row p of raw, binary and sinusoidal does not depend on the
         * example's length (binary's bits are right-aligned, zeros on the
         * left), so one table of positions 0..maxT-1 serves every example
         * and is made again only when a longer example comes. */
        if (ws->pe_rows < b->max_tokens) {
            p.length = ws->cap_T; /* binary needs p < length */
            int st = pe_additive_encode(&p, &from0, ws->cap_T, ws->pe_table, EX_DTYPE);
            if (st) return st;
            ws->pe_rows = ws->cap_T;
        }
        for (int t = 0; t < b->n_tok; t++) {
            const R *row = ws->pe_table + (size_t)b->pos[t] * D;
            for (int i = 0; i < D; i++) x0[(size_t)t * D + i] += row[i];
        }
        return 0;
    }
    for (int e = 0; e < b->n_ex; e++) {
        const int T = b->off[e + 1] - b->off[e];
        p.length = T; /* normalized divides by the example's own T - 1 */
        int st = pe_additive_encode(&p, &from0, T, ws->pe + (size_t)b->off[e] * D, EX_DTYPE);
        if (st) return st;
    }
    for (size_t i = 0; i < ND; i++) x0[i] += ws->pe[i];
    return 0;
}

/* The (H, T, T) bias block of every example: ALiBi or T5. */
static int EXF(fill_bias)(EX_NET *net, const ex_batch *b) {
    const ex_arch *a = &net->arch;
    EX_WS *ws = net->ws;
    const int H = a->heads;
    ws->boff[0] = 0;
    for (int e = 0; e < b->n_ex; e++) {
        const int T = b->off[e + 1] - b->off[e];
        ws->boff[e + 1] = ws->boff[e] + H * T * T;
    }
    if (a->scheme == EX_T5)
        for (int i = 0; i < H * a->t5_buckets; i++) ws->t5f[i] = (float)net->w[a->t5_table + i];
    for (int e = 0; e < b->n_ex; e++) {
        const int T = b->off[e + 1] - b->off[e];
        R *out = ws->bias + ws->boff[e];
        int st = 0;
        if (a->scheme == EX_ALIBI) {
            st = pe_alibi_bias(H, T, T, PE_ALIBI_CAUSAL, out, EX_DTYPE);
        } else if (a->scheme == EX_T5) {
            st = pe_t5_bias(ws->t5f, PE_T5_TABLE_HEAD_MAJOR, H, 0, a->t5_buckets,
                            a->t5_max_distance, T, T, ws->fbuf);
            for (int i = 0; !st && i < H * T * T; i++) out[i] = (R)ws->fbuf[i];
        }
        if (st) return st;
    }
    return 0;
}

/* RoPE on the q and k columns of qkv (N, 3D). */
static int EXF(rope_qk)(EX_NET *net, const ex_batch *b, R *qkv, pe_rope_direction dir) {
    const ex_arch *a = &net->arch;
    const int D = a->dim, H = a->heads, Dh = a->head_dim;
    const pe_freqs *f = net->ws->freqs;
#if EX_IS_F64
    /* Double precision for the gradient checks: the library's exact cos/sin
     * table (computed once per forward in ex_forward), the rotation written
     * out. A test holds it equal to pe_rope_apply. */
    const int half = Dh / 2;
    const double *c = net->ws->cs, *s = c + (size_t)b->n_tok * half;
    const double A = f->attention_factor;
    for (int t = 0; t < b->n_tok; t++)
        for (int part = 0; part < 2; part++)
            for (int h = 0; h < H; h++) {
                R *x = qkv + (size_t)t * 3 * D + part * D + h * Dh;
                for (int i = 0; i < half; i++) {
                    const double ct = c[(size_t)t * half + i], st = s[(size_t)t * half + i];
                    const double x0 = x[i], x1 = x[i + half];
                    if (dir == PE_ROPE_FORWARD) {
                        x[i] = A * (x0 * ct - x1 * st);
                        x[i + half] = A * (x0 * st + x1 * ct);
                    } else { /* BACKWARD: angle -t, magnitude A */
                        x[i] = A * (x0 * ct + x1 * st);
                        x[i + half] = A * (-x0 * st + x1 * ct);
                    }
                }
            }
    return 0;
#else
    const pe_positions pos = pe_positions_list(b->pos);
    for (int part = 0; part < 2; part++) {
        pe_tensor v = {qkv + part * D, PE_F32, b->n_tok, H, Dh, 3 * D, Dh};
        int st = pe_rope_apply(f, PE_ROPE_HALF, &pos, &v, &v, dir);
        if (st) return st;
    }
    return 0;
#endif
}

#define LAYER_X(k) (ws->x + (size_t)(k) * N * D)
#define LAYER_HN(k) (ws->hn + (size_t)(k) * N * D)
#define LAYER_MEAN(k) (ws->mean + (size_t)(k) * N)
#define LAYER_RSTD(k) (ws->rstd + (size_t)(k) * N)
#define LAYER_QKV(l) (ws->qkv + (size_t)(l) * N * 3 * D)
#define LAYER_P(l) (ws->P + (size_t)(l) * ws->cap_pt)
#define LAYER_ATT(l) (ws->att + (size_t)(l) * N * D)
#define LAYER_U(l) (ws->u + (size_t)(l) * N * F)
#define LAYER_GL(l) (ws->gl + (size_t)(l) * N * F)
#define LAYER_DGDU(l) (ws->dgdu + (size_t)(l) * N * F)

static R EXF(attn_scale)(const EX_NET *net) {
    const double m = net->arch.scheme == EX_ROPE ? net->ws->freqs->softmax_scale_multiplier : 1.0;
    return (R)(m / sqrt((double)net->arch.head_dim));
}

int EXF(ex_forward)(EX_NET *net, const ex_batch *b, const pe_freqs *freqs, int for_backward,
                    double *loss, ex_counts *counts) {
    const ex_arch *a = &net->arch;
    if (b->max_tokens > EX_MAX_TOKENS || b->n_ans < 1) return PE_ERR_PARAM;
    int st = EXF(ws_reserve)(net, b);
    if (st) return st;
    EX_WS *ws = net->ws;
    const size_t N = (size_t)b->n_tok, D = (size_t)a->dim, F = (size_t)a->ffn;
    const int n = b->n_tok, Na = b->n_ans, V = a->vocab, H = a->heads, Dh = a->head_dim;
    const R *w = net->w;
    ws->N = for_backward ? n : -1; /* ex_backward refuses an evaluation pass */
    ws->freqs = freqs ? freqs : net->rope;

    R *x0 = LAYER_X(0);
    const R es = (R)a->emb_scale;
    for (int t = 0; t < n; t++) {
        const R *e = w + a->tok_emb + (size_t)b->tok[t] * D;
        for (size_t i = 0; i < D; i++) x0[(size_t)t * D + i] = es * e[i];
    }
    if ((st = EXF(add_positions)(net, b, x0)) || (st = EXF(fill_bias)(net, b))) return st;
    const R *bias = a->scheme == EX_ALIBI || a->scheme == EX_T5 ? ws->bias : NULL;
#if EX_IS_F64
    if (a->scheme == EX_ROPE) {
        const pe_positions pos = pe_positions_list(b->pos);
        double *c = ws->cs, *s = c + N * (size_t)(Dh / 2);
        if ((st = pe_rope_cos_sin(ws->freqs, &pos, n, c, s, PE_F64))) return st;
    }
#endif
    const R scale = EXF(attn_scale)(net);

    for (int l = 0; l < a->layers; l++) {
        const ex_layer_offsets *L = &a->layer[l];
        const int k = 2 * l;
        R *qkv = LAYER_QKV(l), *att = LAYER_ATT(l);
        EXF(ex_layernorm_fwd)(LAYER_X(k), n, (int)D, w + L->ln1_g, w + L->ln1_b, LAYER_HN(k),
                              LAYER_MEAN(k), LAYER_RSTD(k));
        EXF(ex_linear_fwd)(LAYER_HN(k), n, (int)D, w + L->wqkv, w + L->bqkv, (int)(3 * D), 0, qkv);
        if (a->scheme == EX_ROPE && (st = EXF(rope_qk)(net, b, qkv, PE_ROPE_FORWARD))) return st;
        for (int e = 0; e < b->n_ex; e++) {
            const size_t o = (size_t)b->off[e];
            EXF(ex_attention_fwd)(qkv + o * 3 * D, b->off[e + 1] - b->off[e], H, Dh,
                                  bias ? bias + ws->boff[e] : NULL, scale,
                                  LAYER_P(l) + ws->boff[e], att + o * D, (int)D);
        }
        memcpy(LAYER_X(k + 1), LAYER_X(k), sizeof(R) * N * D);
        EXF(ex_linear_fwd)(att, n, (int)D, w + L->wo, w + L->bo, (int)D, 1, LAYER_X(k + 1));

        EXF(ex_layernorm_fwd)(LAYER_X(k + 1), n, (int)D, w + L->ln2_g, w + L->ln2_b,
                              LAYER_HN(k + 1), LAYER_MEAN(k + 1), LAYER_RSTD(k + 1));
        EXF(ex_linear_fwd)(LAYER_HN(k + 1), n, (int)D, w + L->w1, w + L->b1, (int)F, 0, LAYER_U(l));
        EXF(ex_gelu_fwd)(LAYER_U(l), LAYER_GL(l), for_backward ? LAYER_DGDU(l) : NULL, N * F);
        memcpy(LAYER_X(k + 2), LAYER_X(k + 1), sizeof(R) * N * D);
        EXF(ex_linear_fwd)(LAYER_GL(l), n, (int)F, w + L->w2, w + L->b2, (int)D, 1, LAYER_X(k + 2));
    }
    const int kf = 2 * a->layers;
    EXF(ex_layernorm_fwd)(LAYER_X(kf), n, (int)D, w + a->lnf_g, w + a->lnf_b, LAYER_HN(kf),
                          LAYER_MEAN(kf), LAYER_RSTD(kf));
    for (int r = 0; r < Na; r++)
        memcpy(ws->hans + (size_t)r * D, LAYER_HN(kf) + (size_t)b->ans_row[r] * D, sizeof(R) * D);
    EX_MATMUL(EX_NOTRANS, EX_TRANS, Na, V, (int)D, 1, ws->hans, (int)D,
            w + a->tok_emb, (int)D, 0, ws->logits, V);
    double loss_sum = 0;
    EXF(ex_softmax_ce)(ws->logits, Na, V, b->ans_tgt, 0, NULL, &loss_sum, ws->correct);
    if (loss) *loss = loss_sum / Na;
    if (counts) {
        counts->loss_sum += loss_sum;
        counts->tokens += Na;
        counts->examples += b->n_ex;
        for (int e = 0; e < b->n_ex; e++) {
            int all = 1;
            for (int r = b->ans_off[e]; r < b->ans_off[e + 1]; r++) {
                counts->correct += ws->correct[r];
                all &= ws->correct[r];
            }
            counts->exact += all;
        }
    }
    return 0;
}

int EXF(ex_backward)(EX_NET *net, const ex_batch *b) {
    const ex_arch *a = &net->arch;
    EX_WS *ws = net->ws;
    if (ws == NULL || ws->N != b->n_tok) return PE_ERR_PARAM;
    const size_t N = (size_t)b->n_tok, D = (size_t)a->dim, F = (size_t)a->ffn;
    const int n = b->n_tok, Na = b->n_ans, V = a->vocab, H = a->heads, Dh = a->head_dim;
    const R *w = net->w;
    R *g = net->g;
    int st;
    memset(g, 0, sizeof(R) * a->n_params);
    const int with_dbias = a->scheme == EX_T5;
    if (with_dbias) memset(ws->dbias, 0, sizeof(R) * (size_t)ws->boff[b->n_ex]);

    /* Output: the tied embedding gets the head's gradient here and the
     * input's at the end. */
    double unused = 0;
    EXF(ex_softmax_ce)(ws->logits, Na, V, b->ans_tgt, (R)(1.0 / Na), ws->logits, &unused, NULL);
    EX_MATMUL(EX_TRANS, EX_NOTRANS, V, (int)D, Na, 1, ws->logits, V, ws->hans,
            (int)D, 1, g + a->tok_emb, (int)D);
    EX_MATMUL(EX_NOTRANS, EX_NOTRANS, Na, (int)D, V, 1, ws->logits, V,
            w + a->tok_emb, (int)D, 0, ws->dhans, (int)D);
    memset(ws->dh, 0, sizeof(R) * N * D);
    for (int r = 0; r < Na; r++) {
        R *d = ws->dh + (size_t)b->ans_row[r] * D;
        for (size_t i = 0; i < D; i++) d[i] += ws->dhans[(size_t)r * D + i];
    }
    memset(ws->dx, 0, sizeof(R) * N * D);
    const int kf = 2 * a->layers;
    EXF(ex_layernorm_bwd)(LAYER_X(kf), n, (int)D, w + a->lnf_g, LAYER_MEAN(kf), LAYER_RSTD(kf),
                          ws->dh, ws->dx, g + a->lnf_g, g + a->lnf_b);

    const R scale = EXF(attn_scale)(net);
    for (int l = a->layers - 1; l >= 0; l--) {
        const ex_layer_offsets *L = &a->layer[l];
        const int k = 2 * l;
        /* FFN: dx is the gradient of x[k+2]; the residual passes it on. */
        EXF(ex_linear_bwd)(LAYER_GL(l), n, (int)F, w + L->w2, (int)D, ws->dx, ws->du, 0,
                           g + L->w2, g + L->b2);
        EXF(ex_gelu_bwd)(LAYER_DGDU(l), ws->du, ws->du, N * F);
        EXF(ex_linear_bwd)(LAYER_HN(k + 1), n, (int)D, w + L->w1, (int)F, ws->du, ws->dh, 0,
                           g + L->w1, g + L->b1);
        EXF(ex_layernorm_bwd)(LAYER_X(k + 1), n, (int)D, w + L->ln2_g, LAYER_MEAN(k + 1),
                              LAYER_RSTD(k + 1), ws->dh, ws->dx, g + L->ln2_g, g + L->ln2_b);
        /* Attention. */
        EXF(ex_linear_bwd)(LAYER_ATT(l), n, (int)D, w + L->wo, (int)D, ws->dx, ws->datt, 0,
                           g + L->wo, g + L->bo);
        R *qkv = LAYER_QKV(l);
        for (int e = 0; e < b->n_ex; e++) {
            const size_t o = (size_t)b->off[e];
            EXF(ex_attention_bwd)(qkv + o * 3 * D, b->off[e + 1] - b->off[e], H, Dh,
                                  LAYER_P(l) + ws->boff[e], scale, ws->datt + o * D, (int)D,
                                  ws->dqkv + o * 3 * D,
                                  with_dbias ? ws->dbias + ws->boff[e] : NULL, ws->dS);
        }
        if (a->scheme == EX_ROPE && (st = EXF(rope_qk)(net, b, ws->dqkv, PE_ROPE_BACKWARD)))
            return st;
        EXF(ex_linear_bwd)(LAYER_HN(k), n, (int)D, w + L->wqkv, (int)(3 * D), ws->dqkv, ws->dh, 0,
                           g + L->wqkv, g + L->bqkv);
        EXF(ex_layernorm_bwd)(LAYER_X(k), n, (int)D, w + L->ln1_g, LAYER_MEAN(k), LAYER_RSTD(k),
                              ws->dh, ws->dx, g + L->ln1_g, g + L->ln1_b);
    }

    /* dx is now the gradient of x0 = sqrt(D) E[tok] + positions. */
    const R es = (R)a->emb_scale;
    for (int t = 0; t < n; t++) {
        R *ge = g + a->tok_emb + (size_t)b->tok[t] * D;
        for (size_t i = 0; i < D; i++) ge[i] += es * ws->dx[(size_t)t * D + i];
    }
    if (a->scheme == EX_LEARNED) {
        for (size_t i = 0; i < N * D; i++) ws->fbuf[i] = (float)ws->dx[i];
        memset(net->learned_grad, 0, sizeof(float) * (size_t)a->max_len * D);
        if ((st = pe_learned_backward(net->learned, ws->posc, n, ws->fbuf, net->learned_grad)))
            return st;
    }
    if (with_dbias) {
        /* The bias of (i, j) is table[h][bucket(j - i)]: route each logit's
         * gradient to its bucket, with the library's bucketing. */
        const int Tm = b->max_tokens, nb = a->t5_buckets;
        if ((st = pe_t5_buckets(-(int64_t)(Tm - 1), Tm, 0, nb, a->t5_max_distance, ws->bucket)))
            return st;
        R *gt = g + a->t5_table;
        for (int e = 0; e < b->n_ex; e++) {
            const int T = b->off[e + 1] - b->off[e];
            const R *db = ws->dbias + ws->boff[e];
            for (int h = 0; h < H; h++)
                for (int i = 0; i < T; i++)
                    for (int j = 0; j <= i; j++)
                        gt[h * nb + ws->bucket[j - i + Tm - 1]] += db[((size_t)h * T + i) * T + j];
        }
    }
    return 0;
}
