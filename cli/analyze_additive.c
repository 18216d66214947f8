/* analyze_additive.c — analyses of the additive schemes: the logit's four
 * terms, the toy design's regimes, the normalized and binary pitfalls. */
#include "analyze.h"
#include "random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int get_dim(const cli_spec *spec, const cli_args *a, int64_t def, int64_t *dim) {
    *dim = def;
    int rc = cli_get_int64(a, "dim", dim);
    if (rc) return rc;
    if (*dim < 1 || *dim > 4096) return cli_usage_error(spec, "--dim must be in [1, 4096] (got %lld)", (long long)*dim);
    return CLI_OK;
}

int analyze_logit_terms(const cli_spec *spec, const cli_args *a, int format) {
    int64_t D, seed = 1, m = 3, n = 5;
    double scale = 1.0;
    int scheme = 0, rc;
    static const char *const schemes[] = {"raw", "sinusoidal", NULL};
    if ((rc = get_dim(spec, a, 8, &D)) || (rc = cli_get_int64(a, "seed", &seed)) ||
        (rc = cli_get_int64(a, "m", &m)) || (rc = cli_get_int64(a, "n", &n)) ||
        (rc = cli_get_double(a, "scale", &scale)) || (rc = cli_get_choice(a, "scheme", schemes, &scheme)))
        return rc;
    double *buf = malloc(sizeof(double) * (size_t)(2 * D * D + 4 * D));
    if (buf == NULL) return cli_runtime_error(spec, "out of memory");
    double *Q = buf, *K = Q + D * D, *em = K + D * D, *en = em + D, *pm = en + D, *pn = pm + D;
    /* Q, K scaled by 1/sqrt(D) so content scores stay O(1) */
    cli_fill_uniform(Q, 2 * D * D + 2 * D, (uint64_t)seed);
    for (int64_t i = 0; i < 2 * D * D; i++) Q[i] /= sqrt((double)D);
    pe_additive_params p = pe_additive_defaults(scheme ? PE_ADD_SINUSOIDAL : PE_ADD_RAW, D);
    p.scale = scale;
    int64_t ids[2] = {m, n};
    pe_positions pos = pe_positions_list(ids);
    double rows[2 * 4096];
    int st = pe_additive_encode(&p, &pos, 2, rows, PE_F64);
    if (st == PE_OK) {
        memcpy(pm, rows, sizeof(double) * (size_t)D);
        memcpy(pn, rows + D, sizeof(double) * (size_t)D);
    }
    pe_logit_terms t;
    if (st == PE_OK) st = pe_logit_terms_compute(D, Q, K, em, en, pm, pn, &t);
    free(buf);
    if (st != PE_OK) return cli_opts_error(a, st);
    const char *names[5] = {"content_content", "content_position", "position_content",
                            "position_position", "logit"};
    double v[5] = {t.content_content, t.content_position, t.position_content, t.position_position,
                   t.logit};
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"logit-terms\", \"scheme\": \"%s\", \"dim\": %lld, \"m\": %lld, \"n\": %lld, "
               "\"seed\": %lld",
               schemes[scheme], (long long)D, (long long)m, (long long)n, (long long)seed);
        for (int i = 0; i < 5; i++) {
            printf(", \"%s\": ", names[i]);
            out_json_number(stdout, v[i]);
        }
        printf("}\n");
    } else if (format == OUT_CSV) {
        printf("term,value\n");
        for (int i = 0; i < 5; i++) printf("%s,%.17g\n", names[i], v[i]);
    } else {
        printf("logit of query m=%lld and key n=%lld, %s positions, D=%lld, random Q, K, e (seed %lld):\n",
               (long long)m, (long long)n, schemes[scheme], (long long)D, (long long)seed);
        printf("  (Q e_m)^T K e_n   content-content    %14.6f\n", v[0]);
        printf("  (Q e_m)^T K p_n   content-position   %14.6f\n", v[1]);
        printf("  (Q p_m)^T K e_n   position-content   %14.6f\n", v[2]);
        printf("  (Q p_m)^T K p_n   position-position  %14.6f\n", v[3]);
        printf("  sum of the four terms                %14.6f\n", v[0] + v[1] + v[2] + v[3]);
        printf("  logit computed directly              %14.6f\n", v[4]);
    }
    return CLI_OK;
}

int analyze_toy(const cli_spec *spec, const cli_args *a, int format) {
    int64_t D, seed = 1, m = 7, nkeys = 16;
    double tol = 1e-9;
    int rc;
    if ((rc = get_dim(spec, a, 8, &D)) || (rc = cli_get_int64(a, "seed", &seed)) ||
        (rc = cli_get_int64(a, "m", &m)) || (rc = cli_get_int64(a, "keys", &nkeys)) ||
        (rc = cli_get_double(a, "tol", &tol)))
        return rc;
    if (nkeys < 1 || nkeys > 100000) return cli_usage_error(spec, "--keys must be in [1, 100000]");
    double *buf = malloc(sizeof(double) * (size_t)(2 * D * D + D + nkeys * D));
    int64_t *pos = malloc(sizeof(int64_t) * (size_t)nkeys);
    if (buf == NULL || pos == NULL) {
        free(buf);
        free(pos);
        return cli_runtime_error(spec, "out of memory");
    }
    double *Q = buf, *K = Q + D * D, *em = K + D * D, *keys = em + D;
    cli_fill_uniform(Q, 2 * D * D + D + nkeys * D, (uint64_t)seed);
    for (int64_t i = 0; i < 2 * D * D; i++) Q[i] /= sqrt((double)D);
    int st = PE_OK;
    if (cli_has(a, "zero-q1")) st = pe_zero_row_sums(Q, D, D);
    if (st == PE_OK && cli_has(a, "zero-k1")) st = pe_zero_row_sums(K, D, D);
    for (int64_t n = 0; n < nkeys; n++) pos[n] = n;
    pe_toy_report r;
    if (st == PE_OK) st = pe_toy_analyze(D, Q, K, em, m, keys, pos, nkeys, tol, &r);
    free(buf);
    free(pos);
    if (st != PE_OK) return cli_opts_error(a, st);
    static const char *const regimes[] = {"", "i: content only (Q1 ~ 0, K1 ~ 0)",
                                          "ii: key drift (Q1 ~ 0, K1 not)",
                                          "iii: query scale (K1 ~ 0, Q1 not)",
                                          "iv: quadratic (neither ~ 0)"};
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"toy\", \"dim\": %lld, \"m\": %lld, \"keys\": %lld, \"regime\": %d, "
               "\"q_ones_norm\": ", (long long)D, (long long)m, (long long)nkeys, (int)r.regime);
        out_json_number(stdout, r.q_ones_norm);
        printf(", \"k_ones_norm\": ");
        out_json_number(stdout, r.k_ones_norm);
        printf(", \"slope\": ");
        out_json_number(stdout, r.slope);
        printf(", \"quadratic\": ");
        out_json_number(stdout, r.quadratic);
        printf(", \"effective_slope\": ");
        out_json_number(stdout, r.effective_slope);
        printf(", \"content_range\": ");
        out_json_number(stdout, r.content_max - r.content_min);
        printf(", \"drift\": ");
        out_json_number(stdout, r.drift);
        printf(", \"end_skew\": %s, \"skew_to_end\": %s}\n", r.end_skew ? "true" : "false",
               r.skew_to_end ? "true" : "false");
    } else if (format == OUT_CSV) {
        printf("quantity,value\nregime,%d\nq_ones_norm,%.17g\nk_ones_norm,%.17g\nslope,%.17g\n"
               "quadratic,%.17g\neffective_slope,%.17g\ncontent_range,%.17g\ndrift,%.17g\nend_skew,%d\n",
               (int)r.regime, r.q_ones_norm, r.k_ones_norm, r.slope, r.quadratic, r.effective_slope,
               r.content_max - r.content_min, r.drift, r.end_skew);
    } else {
        printf("toy design p_m = m*1, D=%lld, query at m=%lld, keys at 0..%lld (seed %lld)\n",
               (long long)D, (long long)m, (long long)(nkeys - 1), (long long)seed);
        printf("  |Q 1| = %.3g, |K 1| = %.3g -> regime %s\n", r.q_ones_norm, r.k_ones_norm,
               regimes[r.regime]);
        printf("  drift slope (Q e_m)^T K 1 = %.6f; quadratic (Q 1)^T K 1 = %.6f; at m: %.6f per position\n",
               r.slope, r.quadratic, r.effective_slope);
        printf("  drift over the keys %.6f vs content-score range %.6f -> %s\n", r.drift,
               r.content_max - r.content_min,
               r.end_skew ? (r.skew_to_end ? "end-skew: the last keys win regardless of content"
                                           : "end-skew: the first keys win regardless of content")
                          : "content can still decide");
    }
    return CLI_OK;
}

int analyze_normalized(const cli_spec *spec, const cli_args *a, int format) {
    int64_t p = 2, *lengths = NULL, n = 0;
    int rc;
    if ((rc = cli_get_int64(a, "position", &p)) || (rc = cli_get_int_list(a, "lengths", &lengths, &n)))
        return rc;
    static const int64_t defaults[4] = {3, 5, 10, 100};
    const int64_t *L = lengths ? lengths : defaults;
    if (!lengths) n = 4;
    double *v = malloc(sizeof(double) * 2 * (size_t)n);
    if (v == NULL) {
        free(lengths);
        return cli_runtime_error(spec, "out of memory");
    }
    int st = pe_normalized_inconsistency(p, L, n, v, v + n);
    if (st != PE_OK) {
        free(v);
        free(lengths);
        return cli_opts_error(a, st);
    }
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"normalized\", \"position\": %lld, \"lengths\": ", (long long)p);
        out_json_int_array(stdout, L, n);
        printf(", \"values\": ");
        out_json_number_array(stdout, v, n);
        printf(", \"spacing\": ");
        out_json_number_array(stdout, v + n, n);
        printf("}\n");
    } else {
        if (format == OUT_CSV)
            printf("length,value,spacing\n");
        else
            printf("normalized encoding p/(L-1) of position %lld:\n%8s %12s %12s\n", (long long)p,
                   "length", "value", "spacing");
        for (int64_t i = 0; i < n; i++)
            printf(format == OUT_CSV ? "%lld,%.17g,%.17g\n" : "%8lld %12.6f %12.6f\n", (long long)L[i],
                   v[i], v[n + i]);
        if (format == OUT_TABLE)
            printf("the same position means something different at every length\n");
    }
    free(v);
    free(lengths);
    return CLI_OK;
}

int analyze_binary(const cli_spec *spec, const cli_args *a, int format) {
    int64_t start = 0, count = 64;
    int rc;
    if ((rc = cli_get_range(a, "range", &start, &count))) return rc;
    if (count > 10000000) return cli_usage_error(spec, "--range is limited to 10^7 positions");
    int64_t *d = malloc(sizeof(int64_t) * (size_t)count);
    if (d == NULL) return cli_runtime_error(spec, "out of memory");
    pe_hamming_report r;
    int st = pe_binary_hamming(start, count, d, &r);
    if (st != PE_OK) {
        free(d);
        return cli_opts_error(a, st);
    }
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"binary\", \"start\": %lld, \"count\": %lld, \"min\": %lld, \"max\": %lld, "
               "\"argmax\": %lld, \"jumps\": %lld, \"mean\": ",
               (long long)start, (long long)count, (long long)r.min_distance, (long long)r.max_distance,
               (long long)r.argmax, (long long)r.jumps);
        out_json_number(stdout, r.mean_distance);
        printf(", \"distances\": ");
        out_json_int_array(stdout, d, count);
        printf("}\n");
    } else if (format == OUT_CSV) {
        printf("position,next,hamming\n");
        for (int64_t i = 0; i < count; i++)
            printf("%lld,%lld,%lld\n", (long long)(start + i), (long long)(start + i + 1), (long long)d[i]);
    } else {
        printf("binary encoding: Hamming distance between p and p+1 for p in [%lld, %lld)\n",
               (long long)start, (long long)(start + count));
        printf("  min %lld, max %lld (first at %lld -> %lld), mean %.4f; %lld of %lld steps flip more than one bit\n",
               (long long)r.min_distance, (long long)r.max_distance, (long long)r.argmax,
               (long long)(r.argmax + 1), r.mean_distance, (long long)r.jumps, (long long)count);
        printf("  largest jumps:");
        int shown = 0;
        for (int64_t i = 0; i < count && shown < 8; i++)
            if (d[i] == r.max_distance || (r.max_distance > 2 && d[i] == r.max_distance - 1)) {
                printf(" %lld->%lld (%lld bits)", (long long)(start + i), (long long)(start + i + 1),
                       (long long)d[i]);
                shown++;
            }
        printf("\n");
    }
    free(d);
    return CLI_OK;
}
