/* cmd_plot.c — `posenc plot NAME -o FILE.png|FILE.svg`: draw one figure. */
#include "commands.h"
#include "figures/figures.h"

#include <stdio.h>
#include <string.h>

static const cli_opt opts[] = {
    {"output", "FILE", "where to write: .png or .svg (required; also -o FILE)"},
    {"width", "W", "logical width in pixels (default 1200, at most 8192)"},
    {"height", "H", "logical height in pixels (default 800, at most 8192)"},
    {"scale", "S", "PNG pixels per logical pixel, e.g. 2 for hi-dpi (default 1, at most 8)"},
    {"dim", "D", "encoding / head dimension (each figure has its own default; at most 4096)"},
    {"base", "B", "base (default 10000; scaling: 500000)"},
    {"range", "A:B", "positions A..B-1 (heatmap, waves, similarity; relativity, direction: offsets +-B); "
                     "at most 20000 positions, within +-2^53"},
    {"offset", "K", "flip, aliasing: the offset (default 32000, 44)"},
    {"seed", "S", "seed of random q, k (rotation, relativity, direction; default: the tour's)"},
    {NULL, NULL, NULL},
};

/* Positions a figure's double axis still tells apart (2^53). */
#define PLOT_MAX_POSITION ((int64_t)1 << 53)

static char description[2048];

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
                                    "each draws the inputs of its claim in `posenc tour`. NAME is:\n");
        for (size_t i = 0; i < figure_count && n < sizeof description; i++)
            n += (size_t)snprintf(description + n, sizeof description - n, "  %-19s %s\n",
                                  figure_table[i].name, figure_table[i].summary);
    }
    cli_args a;
    int rc = cli_parse(spec, argc, argv, &a);
    if (rc != CLI_OK) return rc;
    const figure_entry *fe = figure_find(a.positional[0]);
    if (fe == NULL) return cli_usage_error(spec, "unknown figure '%s' (see posenc plot --help)", a.positional[0]);
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
    if (w < 0 || w > 8192 || h < 0 || h > 8192)
        return cli_usage_error(spec, "--width and --height must be in [1, 8192]");
    if (o.scale < 0 || o.scale > 8) return cli_usage_error(spec, "--scale must be in (0, 8]");
    if (o.dim < 0 || o.dim > 4096) return cli_usage_error(spec, "--dim must be in [1, 4096]");
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
