/* golgen_run_2d of two-state B0 rules on the unbounded plane
 * (lib/run_b0.c). */
#ifndef GG_RUN_B0_H
#define GG_RUN_B0_H

#include "run_lib.h"

/* *taken when the run's rule (--rule, else the pattern's) is a two-state
 * B0 rule on the unbounded plane: then it was run (or refused) and the
 * status is the run's; else GG_RUN_OK and nothing done. */
int gg_run_b0(gg_run *r, bool *taken, gg_err *err);

#endif
