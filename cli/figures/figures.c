/* figures.c — the table of named figures (figure_table), above the figure
 * files it lists; their shared helpers are in figures_common.c. */
#include "figures.h"

#include <stdio.h>
#include <string.h>

const figure_entry figure_table[] = {
    {"bag-of-words", "attention without positions: reversed tokens give reversed outputs, unless masked causally", fig_bag_of_words, ""},
    {"toy-terms", "the four logit terms of raw positions p_m = m*1 at m = 100, n = 90, as bars", fig_toy_terms, ""},
    {"toy-drift", "the toy design in regime ii: the logit drifts with the key position", fig_toy_drift, ""},
    {"normalized", "normalized positions: position 2 lands elsewhere at L = 3, 5, 10, 100", fig_normalized, ""},
    {"binary", "binary codes around their biggest jump, and bits flipped per step", fig_binary, ""},
    {"sinusoidal-heatmap", "the sinusoidal encoding as a heatmap (positions x dimensions)", fig_sinusoidal_heatmap, "dim base range"},
    {"waves", "PE(p) at D = 4, one panel per dimension, p = 7 marked", fig_waves, "dim base range"},
    {"base-grid", "bases 100, 10^4, 10^8 x dims 0, 64, 96, 127 of D = 128 (dim 0 zoomed)", fig_base_grid, "dim"},
    {"shift", "the shift matrix M_17 carrying PE(p) to PE(p + 17) in three pairs", fig_shift, ""},
    {"entanglement", "the four logit terms with sinusoidal codes added to tokens, as bars", fig_entanglement, ""},
    {"similarity", "PE.PE^T around position 100, and its row m = 100", fig_similarity, "dim base range"},
    {"learned", "a learned table of 512 rows, blank where it refuses a position", fig_learned, ""},
    {"learned-similarity", "cosines of a learned table's rows, at the start and after training rows 0..255", fig_learned_similarity, ""},
    {"wavelengths", "wavelength per pair on a log scale for several bases", fig_wavelengths, "dim range"},
    {"rotation", "q rotated to positions 0 to 123456 in three of its pairs", fig_rotation, "dim base seed"},
    {"relativity", "RoPE score vs offset for queries at m = 0, 1000, 10^6: one curve", fig_relativity, "dim base seed range"},
    {"direction", "RoPE score at +k and -k, against the symmetric sinusoidal dot product", fig_direction, "dim base seed range"},
    {"locality", "the score of aligned q and k falling with the offset", fig_locality, "dim base"},
    {"flip", "a slow pair (w = 1e-4) past a half turn at offset 32000", fig_flip, "offset"},
    {"aliasing", "every pair's angle and turns at offset 44: pair 0 is back near 0", fig_aliasing, "dim base offset"},
    {"collisions", "how close the code comes back to offset 0, D = 8 against 10, 12, 16", fig_collisions, ""},
    {"scaling", "Llama 3, YaRN and dynamic NTK frequencies, one panel each", fig_scaling, ""},
};
const size_t figure_count = sizeof figure_table / sizeof figure_table[0];

const figure_entry *figure_find(const char *name) {
    for (size_t i = 0; i < figure_count; i++)
        if (strcmp(figure_table[i].name, name) == 0) return &figure_table[i];
    return NULL;
}
