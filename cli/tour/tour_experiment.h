/* tour_experiment.h — the experiment section's judge, apart from the
 * training, so tests can hand it a table of their own numbers. */
#ifndef PE_CLI_TOUR_EXPERIMENT_H
#define PE_CLI_TOUR_EXPERIMENT_H

#include "tour.h"

#include "../../experiment/experiment.h"

/* Judge the four claims on a finished run of the quick configuration (the
 * learned, sinusoidal, rope and alibi rows and a length past training are
 * required; rope-linear/ntk/yarn optional). Returns 0 or an error. */
int tour_experiment_judge(tour *t, const ex_results *r);

#endif
