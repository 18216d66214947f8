/* analyze_rope.c — analyses of frequency-based schemes: wavelengths, flips
 * and aliasing, near-collisions, RoPE relativity and direction, similarity
 * matrices. Frequencies come from the shared options (freq_opts.h). */
#include "analyze.h"
#include "freq_opts.h"
#include "random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* Resolve the frequency options (head_dim 128 by default); NULL after an
 * error has been printed (*rc says which). */
static cli_freq_setup *resolve(const cli_args *a, int *rc) {
    cli_freq_setup *fs = malloc(sizeof *fs);
    if (fs == NULL) {
        *rc = cli_runtime_error(a->spec, "out of memory");
        return NULL;
    }
    if ((*rc = cli_freq_setup_resolve(a, 128, fs)) != CLI_OK) {
        free(fs);
        return NULL;
    }
    return fs;
}

int analyze_wavelengths(const cli_spec *spec, const cli_args *a, int format) {
    int64_t length = 4096, nb = 0;
    double *bases = NULL;
    int rc;
    if ((rc = cli_get_int64(a, "length", &length)) || (rc = cli_get_double_list(a, "bases", &bases, &nb)))
        return rc;
    if (bases && (cli_has(a, "base") || cli_has(a, "scaling") || cli_has(a, "config"))) {
        free(bases);
        return cli_usage_error(spec, "--bases compares default frequencies; drop --base/--scaling/--config");
    }
    if (length < 1) {
        free(bases);
        return cli_usage_error(spec, "--length must be >= 1");
    }
    cli_freq_setup *fs = resolve(a, &rc);
    if (fs == NULL) {
        free(bases);
        return rc;
    }
    /* One column per base (or the one resolved scheme). */
    int64_t ncol = bases ? nb : 1, half = fs->freqs.rotary_dim / 2;
    double *wl = malloc(sizeof(double) * (size_t)(ncol * half));
    pe_freqs fbuf, *f = &fbuf;
    int st = wl ? PE_OK : PE_ERR_NOMEM;
    for (int64_t c = 0; st == PE_OK && c < ncol; c++) {
        if (bases)
            st = pe_freqs_default(fs->freqs.rotary_dim, bases[c], f);
        else
            *f = fs->freqs;
        if (st == PE_OK) st = pe_pair_periods(f, 0, wl + c * half, NULL, NULL, NULL);
    }
    if (st != PE_OK) {
        free(wl);
        free(fs);
        free(bases);
        return cli_opts_error(a, st);
    }
    int64_t complete[64] = {0};
    for (int64_t c = 0; c < ncol && c < 64; c++)
        for (int64_t i = 0; i < half; i++) complete[c] += wl[c * half + i] <= (double)length;
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"wavelengths\", \"rotary_dim\": %lld, \"length\": %lld, \"columns\": [",
               (long long)fs->freqs.rotary_dim, (long long)length);
        for (int64_t c = 0; c < ncol; c++) {
            printf("%s{\"base\": ", c ? ", " : "");
            out_json_number(stdout, bases ? bases[c] : NAN);
            printf(", \"rope_type\": \"%s\", \"complete_within_length\": %lld, \"wavelengths\": ",
                   bases ? "default" : pe_scaling_name(fs->type), (long long)complete[c < 64 ? c : 63]);
            out_json_number_array(stdout, wl + c * half, half);
            printf("}");
        }
        printf("]}\n");
    } else {
        if (format == OUT_CSV) {
            printf("pair");
            for (int64_t c = 0; c < ncol; c++)
                if (bases) printf(",wavelength_base_%g", bases[c]); else printf(",wavelength");
            printf("\n");
        } else {
            printf("wavelength 2 pi / w' (tokens per full turn) per pair; '*' = completes a cycle within %lld tokens\n%6s",
                   (long long)length, "pair");
            for (int64_t c = 0; c < ncol; c++) {
                char h[40];
                if (bases) snprintf(h, sizeof h, "base %g", bases[c]);
                else snprintf(h, sizeof h, "%s", pe_scaling_name(fs->type));
                printf(" %20s", h);
            }
            printf("\n");
        }
        for (int64_t i = 0; i < half; i++) {
            printf(format == OUT_CSV ? "%lld" : "%6lld", (long long)i);
            for (int64_t c = 0; c < ncol; c++) {
                double w = wl[c * half + i];
                if (format == OUT_CSV) printf(",%.17g", w);
                else printf(" %19.6g%c", w, w <= (double)length ? '*' : ' ');
            }
            printf("\n");
        }
        if (format == OUT_TABLE) {
            printf("%6s", "cycles");
            for (int64_t c = 0; c < ncol && c < 64; c++)
                printf(" %12lld of %-5lld", (long long)complete[c], (long long)half);
            printf("\n");
        }
    }
    free(wl);
    free(fs);
    free(bases);
    return CLI_OK;
}

int analyze_flip(const cli_spec *spec, const cli_args *a, int format) {
    int64_t offset = 32000;
    int rc;
    if ((rc = cli_get_int64(a, "offset", &offset))) return rc;
    cli_freq_setup *fs = resolve(a, &rc);
    if (fs == NULL) return rc;
    const int64_t half = fs->freqs.rotary_dim / 2;
    double *v = malloc(sizeof(double) * 4 * (size_t)half);
    if (v == NULL) {
        free(fs);
        return cli_runtime_error(spec, "out of memory");
    }
    double *wl = v, *flip = v + half, *phase = v + 2 * half, *turns = v + 3 * half;
    int st = pe_pair_periods(&fs->freqs, offset, wl, flip, phase, turns);
    if (st != PE_OK) {
        free(v);
        free(fs);
        return cli_opts_error(a, st);
    }
    int64_t past = 0, aliased = 0;
    for (int64_t i = 0; i < half; i++) {
        past += cos(phase[i]) < 0;
        aliased += turns[i] >= 1;
    }
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"flip\", \"offset\": %lld, \"inv_freq\": ", (long long)offset);
        out_json_number_array(stdout, fs->freqs.inv_freq, half);
        printf(", \"flip_distance\": ");
        out_json_number_array(stdout, flip, half);
        printf(", \"wavelength\": ");
        out_json_number_array(stdout, wl, half);
        printf(", \"phase_rad\": ");
        out_json_number_array(stdout, phase, half);
        printf(", \"turns\": ");
        out_json_number_array(stdout, turns, half);
        printf(", \"past_flip\": %lld, \"aliased\": %lld}\n", (long long)past, (long long)aliased);
    } else {
        if (format == OUT_CSV)
            printf("pair,inv_freq,flip_distance,wavelength,phase_deg,turns,past_flip,aliased\n");
        else
            printf("at offset %lld: per pair the flip distance pi/w', the period 2 pi/w', the phase k w' mod 2 pi\n"
                   "%6s %14s %14s %14s %10s %12s %s\n",
                   (long long)offset, "pair", "w'", "flip dist", "wavelength", "phase deg", "turns", "state");
        for (int64_t i = 0; i < half; i++) {
            int pf = cos(phase[i]) < 0, al = turns[i] >= 1;
            if (format == OUT_CSV)
                printf("%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d\n", (long long)i, fs->freqs.inv_freq[i],
                       flip[i], wl[i], phase[i] * 180 / PI, turns[i], pf, al);
            else
                printf("%6lld %14.6g %14.6g %14.6g %10.2f %12.4g %s%s\n", (long long)i, fs->freqs.inv_freq[i],
                       flip[i], wl[i], phase[i] * 180 / PI, turns[i], pf ? "past the flip (cos < 0)" : "",
                       al ? (pf ? ", aliased" : "aliased (wrapped)") : "");
        }
        if (format == OUT_TABLE)
            printf("%lld of %lld pairs are past their flip, %lld have wrapped at least once\n", (long long)past,
                   (long long)half, (long long)aliased);
    }
    free(v);
    free(fs);
    return CLI_OK;
}

int analyze_collisions(const cli_spec *spec, const cli_args *a, int format) {
    int64_t max_off = 100000, min_off = 100, top = 10;
    int rc;
    if ((rc = cli_get_int64(a, "max-offset", &max_off)) || (rc = cli_get_int64(a, "min-offset", &min_off)) ||
        (rc = cli_get_int64(a, "top", &top)))
        return rc;
    if (top < 1 || top > 1000) return cli_usage_error(spec, "--top must be in [1, 1000]");
    cli_freq_setup *fs = resolve(a, &rc);
    if (fs == NULL) return rc;
    /* Bounded work: every offset costs one cos/sin per pair, so the scan
     * is refused above COLLISIONS_MAX_EVALS evaluations (about 7 s on
     * one core) instead of running for years at --max-offset 2^63-1. */
    const uint64_t pairs = (uint64_t)(fs->freqs.rotary_dim / 2);
    if (max_off >= min_off && min_off >= 1 &&
        (uint64_t)(max_off - min_off) + 1 > COLLISIONS_MAX_EVALS / (pairs ? pairs : 1)) {
        free(fs);
        return cli_usage_error(spec,
                               "--min-offset %lld --max-offset %lld: %llu offsets x %llu pairs is more than the "
                               "%llu cos/sin evaluations a scan is limited to; narrow the range",
                               (long long)min_off, (long long)max_off,
                               (unsigned long long)(max_off - min_off) + 1, (unsigned long long)pairs,
                               (unsigned long long)COLLISIONS_MAX_EVALS);
    }
    int64_t off[1000], found = 0, one = 1, f1 = 0;
    double dist[1000], d1 = 0;
    int st = pe_near_collisions(&fs->freqs, min_off, max_off, top, off, dist, &found);
    if (st == PE_OK) st = pe_near_collisions(&fs->freqs, 1, 1, 1, &one, &d1, &f1);
    free(fs);
    if (st != PE_OK) return cli_opts_error(a, st);
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"collisions\", \"min_offset\": %lld, \"max_offset\": %lld, \"neighbour_distance\": ",
               (long long)min_off, (long long)max_off);
        out_json_number(stdout, d1);
        printf(", \"offsets\": ");
        out_json_int_array(stdout, off, found);
        printf(", \"distances\": ");
        out_json_number_array(stdout, dist, found);
        printf("}\n");
    } else {
        if (format == OUT_CSV)
            printf("offset,distance,ratio_to_neighbour\n");
        else
            printf("offsets k in [%lld, %lld] where |PE(p+k) - PE(p)| is smallest (any p); neighbour k=1: %.6f\n"
                   "%12s %14s %12s\n",
                   (long long)min_off, (long long)max_off, d1, "offset", "distance", "/ neighbour");
        for (int64_t i = 0; i < found; i++)
            printf(format == OUT_CSV ? "%lld,%.17g,%.17g\n" : "%12lld %14.6f %12.4f\n", (long long)off[i], dist[i],
                   dist[i] / d1);
        if (format == OUT_TABLE && found > 0)
            printf("%s\n", dist[0] < d1 ? "a distant offset is closer than the neighbour: a near-collision"
                                         : "no offset comes closer than the neighbour");
    }
    return CLI_OK;
}

int analyze_relativity(const cli_spec *spec, const cli_args *a, int format) {
    int64_t seed = 1, m = 100, start = -16, count = 33;
    int layout = 1, rc;
    static const char *const layouts[] = {"interleaved", "half", NULL};
    if ((rc = cli_get_int64(a, "seed", &seed)) || (rc = cli_get_int64(a, "m", &m)) ||
        (rc = cli_get_range(a, "range", &start, &count)) || (rc = cli_get_choice(a, "layout", layouts, &layout)))
        return rc;
    if (count > 100000) return cli_usage_error(spec, "--range is limited to 10^5 offsets");
    if (start == INT64_MIN) /* its mirror offset -k would not exist */
        return cli_usage_error(spec, "--range must start above %lld", (long long)INT64_MIN);
    cli_freq_setup *fs = resolve(a, &rc);
    if (fs == NULL) return rc;
    const int64_t D = fs->head_dim;
    /* scores: rope(+k), rope(-k), and the sinusoidal dot, which is RoPE's
     * score for q = k = a unit vector in every pair: sum_i cos(k w_i) */
    size_t n = (size_t)count;
    double *buf = malloc(sizeof(double) * (4 * (size_t)D + 5 * n));
    int64_t *offs = malloc(sizeof(int64_t) * 2 * n);
    if (buf == NULL || offs == NULL) {
        free(buf);
        free(offs);
        free(fs);
        return cli_runtime_error(spec, "out of memory");
    }
    double *q = buf, *k = q + D, *u = k + D, *sp = u + D, *sm = sp + n, *dp = sm + n, *dm = dp + n;
    cli_fill_uniform(q, 2 * D, (uint64_t)seed);
    memset(u, 0, sizeof(double) * (size_t)D);
    for (int64_t i = 0; i < fs->freqs.rotary_dim / 2; i++) u[layout == 0 ? 2 * i : i] = 1.0;
    for (int64_t j = 0; j < count; j++) {
        offs[j] = start + j;
        offs[n + j] = -(start + j);
    }
    pe_rope_layout L = (pe_rope_layout)layout;
    int st = pe_rope_score_curve(&fs->freqs, L, D, q, k, m, offs, count, sp);
    if (st == PE_OK) st = pe_rope_score_curve(&fs->freqs, L, D, q, k, m, offs + n, count, sm);
    if (st == PE_OK) st = pe_rope_score_curve(&fs->freqs, L, D, u, u, m, offs, count, dp);
    if (st == PE_OK) st = pe_rope_score_curve(&fs->freqs, L, D, u, u, m, offs + n, count, dm);
    if (st != PE_OK) {
        free(buf);
        free(offs);
        free(fs);
        return cli_opts_error(a, st);
    }
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"relativity\", \"m\": %lld, \"seed\": %lld, \"offsets\": ", (long long)m,
               (long long)seed);
        out_json_int_array(stdout, offs, count);
        printf(", \"rope_score\": ");
        out_json_number_array(stdout, sp, count);
        printf(", \"rope_score_negated_offset\": ");
        out_json_number_array(stdout, sm, count);
        printf(", \"sinusoidal_dot\": ");
        out_json_number_array(stdout, dp, count);
        printf(", \"sinusoidal_dot_negated_offset\": ");
        out_json_number_array(stdout, dm, count);
        printf("}\n");
    } else {
        if (format == OUT_CSV)
            printf("offset,rope_score,rope_score_neg,rope_direction,sin_dot,sin_dot_neg\n");
        else
            printf("RoPE score <R(m) q, R(m+k) k> at m=%lld (random q, k, seed %lld) vs the sinusoidal dot "
                   "sum_i cos(k w_i)\n%8s %12s %12s %14s %12s %16s\n",
                   (long long)m, (long long)seed, "k", "score(+k)", "score(-k)", "difference", "sin dot",
                   "sin difference");
        for (int64_t j = 0; j < count; j++)
            printf(format == OUT_CSV ? "%lld,%.17g,%.17g,%.17g,%.17g,%.17g\n"
                                     : "%8lld %12.6f %12.6f %14.6f %12.6f %16.2g\n",
                   (long long)offs[j], sp[j], sm[j], sp[j] - sm[j], dp[j], dp[j] - dm[j]);
    }
    free(buf);
    free(offs);
    free(fs);
    return CLI_OK;
}

int analyze_similarity(const cli_spec *spec, const cli_args *a, int format) {
    int64_t start = 0, count = 16, seed = 1, D = 64;
    int scheme = 0, layout = 1, rc;
    static const char *const schemes[] = {"sinusoidal", "rope", NULL};
    static const char *const layouts[] = {"interleaved", "half", NULL};
    if ((rc = cli_get_range(a, "range", &start, &count)) || (rc = cli_get_int64(a, "seed", &seed)) ||
        (rc = cli_get_choice(a, "scheme", schemes, &scheme)) || (rc = cli_get_int64(a, "dim", &D)) ||
        (rc = cli_get_choice(a, "layout", layouts, &layout)))
        return rc;
    if (count > 4096) return cli_usage_error(spec, "--range is limited to 4096 positions");
    double *S = malloc(sizeof(double) * (size_t)(count * count));
    if (S == NULL) return cli_runtime_error(spec, "out of memory");
    pe_positions pos = pe_positions_range(start);
    int st;
    if (scheme == 0) {
        pe_additive_params p = pe_additive_defaults(PE_ADD_SINUSOIDAL, D);
        if ((rc = cli_get_double(a, "base", &p.base))) {
            free(S);
            return rc;
        }
        st = pe_similarity_additive(&p, &pos, count, S);
    } else {
        cli_freq_setup *fs = resolve(a, &rc);
        if (fs == NULL) {
            free(S);
            return rc;
        }
        double *qk = malloc(sizeof(double) * 2 * (size_t)fs->head_dim);
        if (qk == NULL) {
            free(fs);
            free(S);
            return cli_runtime_error(spec, "out of memory");
        }
        cli_fill_uniform(qk, 2 * fs->head_dim, (uint64_t)seed);
        st = pe_similarity_rope(&fs->freqs, (pe_rope_layout)layout, fs->head_dim, qk, qk + fs->head_dim, &pos,
                                count, S);
        free(qk);
        free(fs);
    }
    if (st != PE_OK) {
        free(S);
        return cli_opts_error(a, st);
    }
    int64_t *labels = malloc(sizeof(int64_t) * (size_t)count);
    if (labels == NULL) {
        free(S);
        return cli_runtime_error(spec, "out of memory");
    }
    for (int64_t i = 0; i < count; i++) labels[i] = start + i;
    if (format == OUT_JSON) {
        printf("{\"analysis\": \"similarity\", \"scheme\": \"%s\", \"positions\": ", schemes[scheme]);
        out_json_int_array(stdout, labels, count);
        printf(", \"matrix\": ");
        out_rows_json(stdout, S, count, count);
        printf("}\n");
    } else if (format == OUT_CSV) {
        out_rows_csv(stdout, "position", labels, S, count, count);
    } else {
        printf("%s similarity over positions %lld..%lld (row: query position, column: key position)\n",
               scheme == 0 ? "sinusoidal PE.PE^T" : "RoPE score <R(p_i) q, R(p_j) k>", (long long)start,
               (long long)(start + count - 1));
        out_rows_table(stdout, "position", labels, S, count, count);
    }
    free(labels);
    free(S);
    return CLI_OK;
}
