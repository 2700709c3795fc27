/* A universe: a rule, a bit grid and where that grid sits in Golly's
 * coordinates. Bounded rules (:T, :P) have a grid of exactly their size
 * with the top-left cell at (-(W/2), -(H/2)), as in Golly. The unbounded
 * plane is simulated exactly on a bounded plane that is regrown around the
 * live cells whenever they come closer to an edge than the generations about
 * to run (nothing travels faster than one cell per generation). */
#ifndef GG_UNIVERSE_H
#define GG_UNIVERSE_H

#include "batch.h"
#include "grid.h"
#include "pattern.h"
#include "rule.h"
#include "stop.h"

typedef struct gg_universe {
    gg_rule rule;
    gg_grid grid;
    int64_t x0, y0; /* Golly coordinates of grid cell (0, 0) */
    int64_t generation;
} gg_universe;

/* A stepper advances a bounded grid by `gens` generations with dead cells
 * (plane) or wrapping (torus) outside, per `topo`: the universe's view of
 * an open backend (gg_backend_stepper, runtime/backends/backend.h) or of the
 * reference simulator alone. */
typedef struct gg_stepper {
    const char *name;
    int (*step)(void *ctx, const gg_rule *rule, gg_topo topo, gg_grid *grid,
                int64_t gens, gg_err *err);
    void *ctx;
    int64_t max_batch; /* most generations per call (bounds the margin) */
    int64_t min_batch; /* fewest worth a call's fixed cost (a streamed
                          pass moves the whole grid); 0: no floor */
    /* Optional (NULL: none), steppers over a device: hold uploads grid
     * and keeps it there; until drop, calls of step on that grid advance
     * the held copy and leave grid behind; drop brings the copy down into
     * grid. A bounded universe's run holds its grid for the whole run, so
     * its batches move no grid (gg_universe_run). */
    int (*hold)(void *ctx, gg_topo topo, gg_grid *grid, gg_err *err);
    int (*drop)(void *ctx, gg_grid *grid, gg_err *err);
    /* Optional (NULL: none), steppers whose one generation may take
     * seconds (the reference backend's): step, given up once *stop is set
     * (runtime/base/stop.h) with grid at the last generation completed;
     * returns the generations run, -1 on failure. gg_universe_run calls
     * it in place of step when `stop` is set, and ends the run at a call
     * that ran short. */
    int64_t (*step_until)(void *ctx, const gg_rule *rule, gg_topo topo,
                          gg_grid *grid, int64_t gens, gg_stop_flag *stop,
                          gg_err *err);
    gg_stop_flag *stop; /* the caller's stop flag; NULL: none */
} gg_stepper;

gg_stepper gg_reference_stepper(void);

/* Place a two-state pattern as Golly does; fails on multi-state cells,
 * cells outside a bounded grid, and unbounded B0 rules. */
int gg_universe_from_pattern(gg_universe *u, const gg_rule *rule,
                             const gg_pattern *p, gg_err *err);

/* Where gg_universe_from_pattern puts the pattern's cell (0, 0) under
 * rule, in Golly's coordinates (runtime/universes/resident.c places it
 * too). */
void gg_universe_place(const gg_rule *rule, const gg_pattern *p, int64_t *x,
                       int64_t *y);

/* An empty bounded universe of the rule's size (bounded rules only). */
int gg_universe_init(gg_universe *u, const gg_rule *rule, gg_err *err);

/* Live cells trimmed to their bounding box, with position, rule text
 * (canonical) and generation. */
int gg_universe_to_pattern(const gg_universe *u, gg_pattern *p, gg_err *err);

/* gg_progress_fn: runtime/universes/batch.h. */

/* 0 when `gens` more generations from `generation` can be counted (int64:
 * the generation a run reaches must not wrap), else -1 with err saying
 * so; every run checks this before it steps. */
int gg_generations_check(int64_t generation, int64_t gens, gg_err *err);

/* Runs `gens` generations in batches (runtime/universes/batch.h: the first is one
 * generation; they grow while a call takes under a quarter second, or
 * while moving the grid dominates a call), so progress and interruption
 * stay responsive and a backend's per-call cost (uploads) is amortized.
 * With s->stop and s->step_until a stop also ends a call in flight, and
 * the universe holds the last generation completed. */

int gg_universe_run(gg_universe *u, const gg_stepper *s, int64_t gens,
                    gg_progress_fn progress, void *progress_ctx, gg_err *err);


int64_t gg_universe_population(const gg_universe *u);

void gg_universe_free(gg_universe *u);

#endif
