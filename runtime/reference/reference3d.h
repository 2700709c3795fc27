/* The 3D reference simulator: one cell at a time, each neighbour looked up
 * through gg_nbhd3d_offsets, with wrap-around (torus) or dead cells outside
 * (bounded box). Slow and obviously right; every faster 3D path is checked
 * against it. */
#ifndef GG_REFERENCE3D_H
#define GG_REFERENCE3D_H

#include <stdbool.h>

#include "grid3d.h"
#include "rule3d.h"
#include "stop.h"

/* One generation of in into out (same sizes, distinct). */
int gg_ref3d_step(const gg_rule3d *rule, bool torus, const gg_grid3d *in,
                  gg_grid3d *out, gg_err *err);
/* gens generations in place. */
int gg_ref3d_run(const gg_rule3d *rule, bool torus, gg_grid3d *g,
                 int64_t gens, gg_err *err);
/* The same, given up once *stop is set (runtime/base/stop.h; checked between
 * rows, so even a 1000^3 grid's minute-long generation ends at once):
 * returns the generations run, which g then holds, fewer than gens after
 * a stop; -1 with err on failure. */
int64_t gg_ref3d_run_until(const gg_rule3d *rule, bool torus, gg_grid3d *g,
                           int64_t gens, gg_stop_flag *stop, gg_err *err);

#endif
