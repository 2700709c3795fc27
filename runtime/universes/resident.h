/* A bounded universe (torus or plane) that lives on its devices alone
 * (issue 37): a small pattern on a huge grid, where the host copy of the
 * grid, its upload, its download and the scan for the live box cost more
 * than the steps (131072^2: 2 GiB each way). The bands of a
 * gg_multi_band start all dead on the devices, the pattern's rows go up
 * into the band(s) that hold them, the run steps there, and at its end
 * (or at a stop) a kernel finds the rows that hold live cells and only
 * those come down: the result is a window of the universe, those rows at
 * the grid's full width, from which the pattern is written as from the
 * whole grid. Host backends take the same way on zeroed host copies of
 * their bands (how CI tests it). What needs the whole grid on the host
 * (stores, pictures, checkpoints) takes gg_resident_to_universe before
 * the run instead. */
#ifndef GG_RESIDENT_H
#define GG_RESIDENT_H

#include "multi_band.h"
#include "universe.h"

typedef struct gg_resident {
    gg_rule rule;
    int64_t x0, y0;     /* Golly coordinates of the whole grid's cell (0,0) */
    int64_t generation;
    gg_grid seed;       /* the pattern's rows at the grid's width, until
                           they go up (0 rows: an empty pattern) */
    int64_t seed_y;     /* the grid row of seed's row 0 */
    gg_multi_band *m;   /* the bands, from gg_resident_start */
} gg_resident;

/* Whether the pattern under rule suits a resident run: a bounded
 * two-state rule, the pattern's live box inside the grid and at most an
 * eighth of its rows (else the host grid costs little beside the run, or
 * gg_universe_from_pattern has an error to say). */
bool gg_resident_suits(const gg_rule *rule, const gg_pattern *p);

/* The pattern's rows, placed as gg_universe_from_pattern places it. */
int gg_resident_from_pattern(gg_resident *r, const gg_rule *rule,
                             const gg_pattern *p, gg_err *err);

/* The whole grid on the host instead (before gg_resident_start): the
 * universe gg_universe_from_pattern makes. r is freed either way. */
int gg_resident_to_universe(gg_resident *r, gg_universe *u, gg_err *err);

/* m's bands start empty (gg_multi_band_can_start_empty must hold) and the
 * seed's rows go up; m must outlive r's run. */
int gg_resident_start(gg_resident *r, gg_multi_band *m, gg_err *err);

/* gens generations on the bands in batches (runtime/universes/batch.h),
 * max_batch at most (0: no bound); progress may end the run early (a
 * stop): r->generation holds the generation reached. */
int gg_resident_run(gg_resident *r, int64_t gens, int64_t max_batch,
                    gg_progress_fn progress, void *progress_ctx,
                    gg_err *err);

/* The live rows brought down: u becomes a window of the universe (its
 * rule, the generation reached, the rows from the first live one to the
 * last at full width; one dead row when none lives), for
 * gg_universe_to_pattern and gg_universe_population. */
int gg_resident_finish(gg_resident *r, gg_universe *u, gg_err *err);

void gg_resident_free(gg_resident *r);

#endif
