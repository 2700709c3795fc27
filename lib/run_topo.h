/* golgen_run_2d on Golly's grids that only a refilled ring runs (Klein
 * bottles, cross-surfaces, spheres, shifted tori, tubes, strips):
 * lib/run_topo.c. */
#ifndef GG_LIB_RUN_TOPO_H
#define GG_LIB_RUN_TOPO_H

#include "run_lib.h"

/* *taken when the rule (given, or the pattern's: read here then, and kept
 * in r->pat for the other paths) names such a grid: the run's status.
 * Else GG_RUN_OK and the run goes on as before. */
int gg_run_topo(gg_run *r, bool *taken, gg_err *err);

#endif
