/* A Generations universe: the rule, its state planes (runtime/universes/gen_cells.h)
 * and where they sit in Golly's coordinates, as runtime/universes/universe.h for two
 * states: bounded rules have a grid of exactly their size with the
 * top-left cell at (-(W/2), -(H/2)); the unbounded plane is a bounded
 * plane regrown around the non-0 cells before they can reach its edge
 * (births need a state-1 neighbour, so nothing moves faster than one cell
 * per generation). Steps come from a backend (gg_backend_gen_stepper) or
 * the reference (gg_reference_gen_stepper). */
#ifndef GG_GEN_UNIVERSE_H
#define GG_GEN_UNIVERSE_H

#include "gen_cells.h"
#include "pattern.h"
#include "rule.h"
#include "universe.h"

typedef struct gg_gen_universe {
    gg_rule rule;
    gg_gen_cells cells;
    int64_t x0, y0; /* Golly coordinates of cell (0, 0) */
    int64_t generation;
} gg_gen_universe;

/* What advances the bounded grid (as gg_stepper for two states): an open
 * backend (gg_backend_gen_stepper, runtime/backends/backend.h). */
typedef struct gg_gen_stepper {
    const char *name;
    int (*step)(void *ctx, const gg_rule *rule, gg_topo topo,
                gg_gen_cells *cells, int64_t gens, gg_err *err);
    void *ctx;
    int64_t max_batch; /* most generations per call; 0: no bound */
    /* Optional: as gg_stepper's step_until and stop (runtime/universes/universe.h) */
    int64_t (*step_until)(void *ctx, const gg_rule *rule, gg_topo topo,
                          gg_gen_cells *cells, int64_t gens,
                          gg_stop_flag *stop, gg_err *err);
    gg_stop_flag *stop;
} gg_gen_stepper;

/* Place a pattern as Golly does (as gg_universe_from_pattern); fails on
 * states >= C and on cells outside a bounded grid. */
int gg_gen_universe_from_pattern(gg_gen_universe *u, const gg_rule *rule,
                                 const gg_pattern *p, gg_err *err);

/* The multi-state reference simulator as a stepper
 * (runtime/reference/reference_gen.h). */
gg_gen_stepper gg_reference_gen_stepper(void);

/* `gens` generations by stepper s: a bounded grid in one call (or batches
 * when progress is asked for), the unbounded plane in batches between
 * which it regrows; progress and stops as gg_universe_run's. */
int gg_gen_universe_run(gg_gen_universe *u, const gg_gen_stepper *s,
                        int64_t gens, gg_progress_fn progress,
                        void *progress_ctx, gg_err *err);

/* Non-0 cells trimmed to their box, with position, canonical rule,
 * generation; Golly's letters (. A B ...) for more than two states, b/o
 * for two, as bgolly writes them. */
int gg_gen_universe_to_pattern(const gg_gen_universe *u, gg_pattern *p,
                               gg_err *err);

int64_t gg_gen_universe_population(const gg_gen_universe *u);

void gg_gen_universe_free(gg_gen_universe *u);

#endif
