/* cmd_plot.c — `posenc plot NAME -o FILE.png|FILE.svg`: draw one figure. */
#include "commands.h"
#include "figures/figures.h"

#include <stdio.h>
#include <string.h>

static const cli_opt opts[] = {
    {"output", "FILE", "where to write: .png or .svg (required; also -o FILE)"},
    {"width", "W", "logical width in pixels (default 1200, at most 8192; W x S at most 16384) [16, 8192]"},
    {"height", "H", "logical height in pixels (default 800, at most 8192; H x S at most 16384) [16, 8192]"},
    {"scale", "S", "PNG pixels per logical pixel, e.g. 2 for hi-dpi (default 1, at most 8) [0.25, 8]"},
    {"dim", "D", "encoding / head dimension (each figure has its own default; at most 4096) [1, 4096]"},
    {"base", "B", "base (default 10000) (0, 1e300]"},
    {"range", "A:B", "positions A..B-1 (heatmap, waves, similarity; relativity, direction: offsets +-B); "
                     "at most 20000 positions, within +-2^53"},
    {"offset", "K", "flip, aliasing: the offset (default 32000, 44)"},
    {"seed", "S", "seed of random q, k (rotation, relativity, direction; default: the tour's)"},
    {NULL, NULL, NULL},
};

/* Positions a figure's double axis still tells apart (2^53). */
#define PLOT_MAX_POSITION ((int64_t)1 << 53)

static char description[4096];

const cli_spec cmd_plot_spec = {
    "plot",
    "NAME [options] -o FILE.png|FILE.svg",
    "draw a figure of the design notes to PNG or SVG",
    description,
    opts,
    1,
    1,
    "  posenc plot base-grid -o base.png\n"
    "  posenc plot flip --dim 128 --offset 32000 -o flip.svg\n"
    "  posenc plot sinusoidal-heatmap --range 0:200 --scale 2 -o pe@2x.png\n",
};

int cmd_plot(const cli_spec *spec, int argc, char **argv) {
    if (description[0] == '\0') {
        size_t n = (size_t)snprintf(description, sizeof description,
                                    "Draws one figure with axes, labels, legends and colour bars. Without options\n"
                                    "each draws the inputs of its claim in `posenc tour`. Each figure takes\n"
                                    "-o, --width, --height, --scale and the options in its brackets (any\n"
                                    "other is refused). NAME is:\n");
        for (size_t i = 0; i < figure_count && n < sizeof description; i++)
            n += (size_t)snprintf(description + n, sizeof description - n, "  %-19s %s [%s]\n",
                                  figure_table[i].name, figure_table[i].summary, figure_table[i].options);
    }
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    const figure_entry *fe = figure_find(a.positional[0]);
    if (fe == NULL) return cli_usage_error(spec, "unknown figure '%s' (see posenc plot --help)", a.positional[0]);
    /* An option the figure does not read is refused, not ignored (base-grid
     * draws its own three bases: --base there used to change nothing). */
    static const char *const figure_options[] = {"dim", "base", "range", "offset", "seed", NULL};
    for (size_t i = 0; figure_options[i]; i++) {
        const char *name = figure_options[i], *list = fe->options;
        const size_t len = strlen(name);
        bool reads = false;
        for (const char *p = strstr(list, name); p && !reads; p = strstr(p + 1, name))
            reads = (p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
        if (cli_has(&a, name) && !reads) {
            char takes[128] = "";
            size_t n = 0;
            for (const char *p = fe->options; *p && n + 8 < sizeof takes; p++) {
                if (p == fe->options || p[-1] == ' ') n += (size_t)snprintf(takes + n, sizeof takes - n, "--");
                takes[n++] = *p;
                takes[n] = '\0';
            }
            return cli_usage_error(spec, "--%s: figure '%s' does not use it (it takes %s)", name, fe->name,
                                   n ? takes : "none of --dim, --base, --range, --offset, --seed");
        }
    }
    const char *path = cli_get(&a, "output");
    if (path == NULL) return cli_usage_error(spec, "-o FILE.png or -o FILE.svg is required");
    figure_opts o;
    memset(&o, 0, sizeof o);
    int64_t w = 0, h = 0, seed = 0, start = 0, count = 0;
    if ((rc = cli_get_int64(&a, "width", &w)) || (rc = cli_get_int64(&a, "height", &h)) ||
        (rc = cli_get_double(&a, "scale", &o.scale)) || (rc = cli_get_int64(&a, "dim", &o.dim)) ||
        (rc = cli_get_double(&a, "base", &o.base)) || (rc = cli_get_int64(&a, "offset", &o.offset)) ||
        (rc = cli_get_int64(&a, "seed", &seed)) || (rc = cli_get_range(&a, "range", &start, &count)))
        return rc;
    /* the device side the plot layer can allocate (PLOT_MAX_SIDE) */
    const double sc = o.scale != 0 ? o.scale : 1;
    if ((double)(w ? w : 1200) * sc > 16384 || (double)(h ? h : 800) * sc > 16384)
        return cli_usage_error(spec, "--width/--height x --scale is more than 16384 device pixels a side");
    if (count > 20000) return cli_usage_error(spec, "--range is limited to 20000 positions for a figure");
    /* A figure's axis is a double: past 2^53 neighbouring positions share
     * one coordinate and the figure would draw rounding, not the encoding. */
    if (cli_has(&a, "range") && (start < -PLOT_MAX_POSITION || start + count > PLOT_MAX_POSITION))
        return cli_usage_error(spec, "--range %s: positions on a figure's axis are limited to +-2^53",
                               cli_get(&a, "range"));
    o.width = (int)w;
    o.height = (int)h;
    o.seed = (uint64_t)seed;
    o.start = start;
    o.count = count;
    char err[512] = "";
    if (fe->draw(&o, path, err, sizeof err) != 0) return cli_runtime_error(spec, "%s", err);
    return CLI_OK;
}
