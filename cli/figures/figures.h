/*
 * figures.h — the named figures of `posenc plot` and the tour. Each figure
 * computes its data through the library and draws it with cli/plot/plot.h; it
 * holds no math of its own beyond arranging the library's numbers.
 */
#ifndef PE_CLI_FIGURES_H
#define PE_CLI_FIGURES_H

#include "posenc.h"

#include <stddef.h>
#include <stdint.h>

/* Parameters a figure may use; each figure reads only its own and documents
 * its defaults. Zero means "the figure's default" everywhere. */
typedef struct {
    int width, height;     /* logical pixels (default 1200 x 800) */
    double scale;          /* PNG pixels per logical pixel (default 1) */
    int64_t dim;           /* D */
    double base;           /* sinusoidal/RoPE base */
    int64_t start, count;  /* position range */
    int64_t offset;        /* flip: the offset */
    uint64_t seed;         /* random q, k, embeddings */
    const pe_freqs *freqs; /* rope figures: frequencies to use (NULL: default of dim, base) */
} figure_opts;

typedef struct {
    const char *name;
    const char *summary;
    /* Draw into path (.png or .svg). Returns 0 or writes a message into err
     * and returns non-zero. */
    int (*draw)(const figure_opts *o, const char *path, char *err, size_t errlen);
    /* The `plot` options it reads besides -o, --width, --height and
     * --scale, space-separated ("dim base range"): `plot` refuses any
     * other, so an option is never silently ignored. */
    const char *options;
} figure_entry;

extern const figure_entry figure_table[];
extern const size_t figure_count;
const figure_entry *figure_find(const char *name);

/* Figure functions: figures_toy.c, figures_additive.c, figures_rope.c.
 * With zeroed options each draws exactly its tour claim's inputs. */
int fig_bag_of_words(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_toy_terms(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_toy_drift(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_normalized(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_binary(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_sinusoidal_heatmap(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_waves(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_base_grid(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_shift(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_entanglement(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_similarity(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_learned(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_learned_similarity(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_wavelengths(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_rotation(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_relativity(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_direction(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_locality(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_flip(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_aliasing(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_collisions(const figure_opts *o, const char *path, char *err, size_t errlen);
int fig_scaling(const figure_opts *o, const char *path, char *err, size_t errlen);

#endif
