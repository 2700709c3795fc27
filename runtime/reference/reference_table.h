/* The reference simulator for Golly's rule tables and trees
 * (gen/rulefile/rulefile.h): one byte per cell, a walk down the rule's
 * decision DAG per cell, as Golly's RuleLoader computes a cell (slowcalc).
 * The oracle the compiled kernels of issue 39 part 2 will be checked
 * against; checked itself against bgolly -a RuleLoader
 * (tests/test_rulefile.c). */
#ifndef GG_REFERENCE_TABLE_H
#define GG_REFERENCE_TABLE_H

#include "gen_cells.h"
#include "rule.h"
#include "rulefile.h"
#include "stop.h"

/* Advance the bounded grid `gens` generations with wrapping (GG_TOPO_TORUS)
 * or state 0 outside (GG_TOPO_PLANE), given up once *stop is set (checked
 * between rows; NULL: never): the generations run, -1 with err on
 * failure. The planes must hold the rule's states. */
int64_t gg_reference_table_run(const gg_rulefile *rf, gg_topo topo,
                               gg_gen_cells *cells, int64_t gens,
                               gg_stop_flag *stop, gg_err *err);

#endif
