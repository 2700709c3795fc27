/* The reference simulator: one cell at a time, straight from the rule's
 * definition. Slow and obviously right; every fast kernel is checked
 * against it. */
#ifndef GG_REFERENCE_H
#define GG_REFERENCE_H

#include "grid.h"
#include "rule.h"
#include "stop.h"

/* One generation from `in` into `out` (same size, distinct). topo is
 * GG_TOPO_TORUS (edges wrap) or GG_TOPO_PLANE (dead cells outside). */
void gg_reference_step(const gg_rule *rule, gg_topo topo, const gg_grid *in,
                       gg_grid *out);

/* gens generations of grid, in place (one scratch grid of its size). */
int gg_reference_run(const gg_rule *rule, gg_topo topo, gg_grid *grid,
                     int64_t gens, gg_err *err);

/* The same, given up once *stop is set (runtime/base/stop.h; checked between
 * rows, so a big grid's slow generation ends at once): returns the
 * generations run, which grid then holds, fewer than gens after a stop;
 * -1 with err on failure. */
int64_t gg_reference_run_until(const gg_rule *rule, gg_topo topo,
                               gg_grid *grid, int64_t gens,
                               gg_stop_flag *stop, gg_err *err);

/* The same with each generation's rows shared among OpenMP threads (rows
 * are independent: each reads `in` and writes its own row of `out`), for
 * checks that need the answer soon: a GPU kernel built for a 32768-wide
 * row is validated on cases of that width, which took 16 s on one core
 * per case. The `reference` backend stays on one thread, the yardstick.
 * Outer-totalistic rules go 64 cells at a time (runtime/reference/reference_words.h,
 * itself checked against gg_reference_step in tests). */
int gg_reference_run_threads(const gg_rule *rule, gg_topo topo,
                             gg_grid *grid, int64_t gens, gg_err *err);

#endif
