/* A universe under one of Golly's rule tables or trees
 * (gen/rulefile/rulefile.h): the rule, its states as bit planes
 * (runtime/universes/gen_cells.h) and where they sit in Golly's
 * coordinates, as runtime/universes/gen_universe.h for Generations:
 * bounded grids of exactly their size with the top-left cell at
 * (-(W/2), -(H/2)); the unbounded plane a bounded plane regrown around the
 * non-0 cells before they can reach its edge (a table reads only its
 * 3x3 block, so nothing moves faster than a cell per generation). The
 * reference simulator steps it unless a compiled kernel is given
 * (runtime/backends/cpu_table.h). */
#ifndef GG_TABLE_UNIVERSE_H
#define GG_TABLE_UNIVERSE_H

#include "gen_cells.h"
#include "pattern.h"
#include "picture.h"
#include "rule.h"
#include "rulefile.h"
#include "stop.h"
#include "universe.h"

/* A compiled kernel's step of the cells (runtime/backends/cpu_table.h). */
typedef int (*gg_table_step_fn)(void *ctx, gg_topo topo, gg_gen_cells *cells,
                                int64_t gens, gg_err *err);

typedef struct gg_table_universe {
    const gg_rulefile *rf; /* not owned */
    char rule[192];        /* as written back: "WireWorld:T60,60" */
    gg_topo topo;
    int64_t width, height; /* bounded topologies */
    gg_gen_cells cells;
    int64_t x0, y0; /* Golly coordinates of cell (0, 0) */
    int64_t generation;
    gg_table_step_fn step; /* NULL: the reference steps it */
    void *step_ctx;
} gg_table_universe;

/* Place a pattern as Golly does: `rule` is the rule's name with Golly's
 * :TW,H / :PW,H suffix when bounded (topo, width, height say the same);
 * fails on states the rule lacks, on cells outside a bounded grid and on
 * the unbounded plane when state 0 amid 0s does not stay 0. */
int gg_table_universe_from_pattern(gg_table_universe *u,
                                   const gg_rulefile *rf, const char *rule,
                                   gg_topo topo, int64_t width,
                                   int64_t height, const gg_pattern *p,
                                   gg_err *err);

/* `gens` generations by u->step (else the reference), in batches (between
 * which the unbounded plane regrows and progress is called: false stops);
 * ends early at *stop (NULL: never; a kernel sees it between batches,
 * which last well under a second: runtime/universes/batch.h). */
int gg_table_universe_run(gg_table_universe *u, int64_t gens,
                          gg_stop_flag *stop, gg_progress_fn progress,
                          void *progress_ctx, gg_err *err);

/* Non-0 cells trimmed to their box, with position, rule and generation;
 * Golly's letters (. A B ...) for more than two states, as bgolly. */
int gg_table_universe_to_pattern(const gg_table_universe *u, gg_pattern *p,
                                 gg_err *err);

/* The universe to a store (runtime/formats/store.h: the rule's name and
 * grid suffix in the rule field, ceil(log2 n_states) planes) and back,
 * under the rule found again for that name (rf, rule, topo, sizes as
 * gg_table_universe_from_pattern takes them): planes, a bounded grid's
 * size and states past n_states refused by name. */
int gg_table_universe_write_store(const char *path,
                                  const gg_table_universe *u, gg_err *err);
int gg_table_universe_read_store(gg_table_universe *u, const gg_rulefile *rf,
                                 const char *rule, gg_topo topo,
                                 int64_t width, int64_t height,
                                 const char *path, gg_err *err);

/* --png and --frames (runtime/formats/picture.h; Generations' colours). */
int gg_table_universe_write_picture(const char *path,
                                    const gg_table_universe *u,
                                    const gg_picture_opts *o,
                                    gg_picture_info *info, gg_err *err);

int64_t gg_table_universe_population(const gg_table_universe *u);

void gg_table_universe_free(gg_table_universe *u);

#endif
