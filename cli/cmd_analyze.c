/* cmd_analyze.c — `posenc analyze NAME`: one analysis of the design notes
 * per name, each a library function; this file only dispatches. */
#include "analyze.h"
#include "commands.h"
#include "freq_opts.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const analysis_entry analyses[] = {
    {"logit-terms", "four-term decomposition of an additive scheme's logit", analyze_logit_terms,
     "dim seed m n scale scheme", 0, NULL, NULL},
    {"toy", "the toy design p_m = m*1: regime, drift slope, end-skew condition", analyze_toy,
     "dim seed m keys tol zero-q1 zero-k1", 0, NULL, NULL},
    {"normalized", "normalized encoding: a position's value across lengths", analyze_normalized,
     "position lengths", 0, NULL, NULL},
    {"binary", "binary encoding: Hamming jumps between neighbours", analyze_binary, "range", 0,
     NULL, NULL},
    {"wavelengths", "wavelength per pair; which pairs complete a cycle within a length",
     analyze_wavelengths, "length bases", 1, NULL, NULL},
    {"flip", "flip distance, period and phase per pair at an offset (aliasing)", analyze_flip,
     "offset", 1, NULL, NULL},
    {"collisions", "offsets up to N where the encoding comes closest to itself",
     analyze_collisions, "max-offset min-offset top", 1, NULL, NULL},
    {"relativity", "RoPE score vs offset, score(+k) - score(-k) vs the sinusoidal dot",
     analyze_relativity, "range m seed layout", 1, NULL, NULL},
    {"similarity", "PE.PE^T or RoPE score matrix over a range of positions", analyze_similarity,
     "range scheme", 2, "dim base", "seed layout"},
};
#define N_ANALYSES (sizeof analyses / sizeof analyses[0])

static const cli_opt own_opts[] = {
    {"format", "table|csv|json", "output format (default table)"},
    {"dim", "D", "model/encoding dimension (logit-terms, toy, similarity; default 8 or 64)"},
    {"seed", "S", "seed of random Q, K, embeddings or q, k vectors (default 1)"},
    {"scheme", "NAME", "logit-terms: raw|sinusoidal; similarity: sinusoidal|rope"},
    {"scale", "S", "raw scheme scale (default 1)"},
    {"m", "M", "query position (logit-terms 3, toy 7, relativity 100)"},
    {"n", "N", "key position (logit-terms; default 5)"},
    {"keys", "N", "toy: keys at positions 0..N-1 (default 16, at most 100000)"},
    {"zero-q1", NULL, "toy: project Q so that Q 1 = 0"},
    {"zero-k1", NULL, "toy: project K so that K 1 = 0"},
    {"tol", "T", "toy: |Q 1|, |K 1| <= T count as zero (default 1e-9)"},
    {"position", "P", "normalized: the position (default 2)"},
    {"lengths", "LIST", "normalized: sequence lengths (default 3,5,10,100)"},
    {"range", "A:B", "positions or offsets A..B-1 (binary 0:64, relativity -16:17, similarity 0:16); "
                     "at most 10^7 (binary), 10^5 (relativity), 4096 (similarity)"},
    {"length", "L", "wavelengths: context length to compare with (default 4096)"},
    {"bases", "LIST", "wavelengths: compare several bases (default scheme)"},
    {"offset", "K", "flip: the offset (default 32000)"},
    {"max-offset", "N", "collisions: largest offset (default 100000); the scan is limited to 2^31 "
                        "offsets x pairs (3.3e7 offsets at head_dim 128)"},
    {"min-offset", "N", "collisions: smallest offset (default 100: skip the near neighbourhood)"},
    {"top", "N", "collisions: how many offsets to report (default 10)"},
    {"layout", "interleaved|half", "relativity, similarity: RoPE pair layout (default half)"},
    {NULL, NULL, NULL},
};
/* own_opts and the frequency options (cli_freq_opts, before parsing). */
static cli_opt opts[CLI_MAX_OPTS + 1];

static char description[2048];

const cli_spec cmd_analyze_spec = {
    "analyze",
    "NAME [options] [--format table|csv|json]",
    "the analyses of the design notes, one number per claim",
    description,
    opts,
    1,
    1,
    "  posenc analyze toy --zero-q1\n"
    "  posenc analyze binary --range 0:32\n"
    "  posenc analyze flip --head-dim 128 --offset 32000\n"
    "  posenc analyze collisions --head-dim 128 --max-offset 1000000\n"
    "  posenc analyze relativity --head-dim 64 --range -8:9 --format json\n",
};

static bool reads_word(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

static bool is_own_option(const char *name) {
    for (const cli_opt *o = own_opts; o->name != NULL; o++)
        if (strcmp(o->name, name) == 0) return true;
    return false;
}

/* Whether analysis e reads option `name` (given the --scheme of similarity). */
static bool analysis_reads(const analysis_entry *e, const char *name, bool rope_scheme) {
    if (reads_word(e->reads, name)) return true;
    const char *by_scheme = rope_scheme ? e->rope_reads : e->sin_reads;
    if (by_scheme != NULL && reads_word(by_scheme, name)) return true;
    if (is_own_option(name)) return false;
    return e->freq == 1 || (e->freq == 2 && rope_scheme);
}

/* An option the analysis does not read is refused by name (it would be
 * silently ignored), with the analyses that do read it. */
static int refuse_unread(const cli_spec *spec, const cli_args *a, const analysis_entry *e) {
    bool rope_scheme = cli_has(a, "scheme") && strcmp(cli_get(a, "scheme"), "rope") == 0;
    for (const cli_opt *o = opts; o->name != NULL; o++) {
        if (strcmp(o->name, "format") == 0 || !cli_has(a, o->name) ||
            analysis_reads(e, o->name, rope_scheme))
            continue;
        char by[256] = "";
        size_t n = 0;
        for (size_t i = 0; i < N_ANALYSES && n < sizeof by; i++)
            if (analysis_reads(&analyses[i], o->name, true) ||
                analysis_reads(&analyses[i], o->name, false))
                n += (size_t)snprintf(by + n, sizeof by - n, "%s%s", n ? ", " : "",
                                      analyses[i].name);
        if (e->sin_reads != NULL && analysis_reads(e, o->name, !rope_scheme))
            return cli_usage_error(spec, "--%s has no effect on analyze %s with --scheme %s",
                                   o->name, e->name, rope_scheme ? "rope" : "sinusoidal");
        return cli_usage_error(spec, "--%s has no effect on analyze %s (it is read by %s)", o->name,
                               e->name, by);
    }
    return CLI_OK;
}

int cmd_analyze(const cli_spec *spec, int argc, char **argv) {
    if (description[0] == '\0') {
        size_t n = (size_t)snprintf(description, sizeof description,
                                    "Runs one analysis. NAME is one of:\n");
        for (size_t i = 0; i < N_ANALYSES && n < sizeof description; i++)
            n += (size_t)snprintf(description + n, sizeof description - n, "  %-12s %s\n",
                                  analyses[i].name, analyses[i].summary);
        if (n < sizeof description)
            snprintf(description + n, sizeof description - n,
                     "Frequency options (wavelengths, flip, collisions, relativity, similarity with\n"
                     "--scheme rope) are those of `posenc freqs`; --head-dim defaults to 128.");
    }
    cli_args a;
    cli_freq_opts(opts, own_opts);
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static const char *const formats[] = {"table", "csv", "json", NULL};
    int format = OUT_TABLE;
    if ((rc = cli_get_choice(&a, "format", formats, &format))) return rc;
    for (size_t i = 0; i < N_ANALYSES; i++)
        if (strcmp(a.positional[0], analyses[i].name) == 0) {
            if ((rc = refuse_unread(spec, &a, &analyses[i])) != CLI_OK) return rc;
            rc = analyses[i].run(spec, &a, format);
            return rc != CLI_OK ? rc : cli_close_output(spec, stdout, NULL);
        }
    return cli_usage_error(spec, "unknown analysis '%s' (see posenc analyze --help)", a.positional[0]);
}
