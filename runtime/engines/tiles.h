/* Active tiles: QuickLife's idea with golgen's kernels, for the dense
 * engine (gg_universe_run). A bounded grid (a torus, a bounded plane, or
 * the unbounded plane's box) is cut into square tiles; each sub-batch of
 * T generations steps only the tiles whose 3x3 neighbourhood changed in
 * the sub-batch before, the others sleep.
 *
 * Why sleeping is exact: a tile's state T generations on depends only on
 * the cells within T of it, all inside its 3x3 neighbourhood (T <= the
 * tile's side). If that neighbourhood did not change over the last T
 * generations, the next T generations map the same cells to the same
 * result: the tile stays as it is. Still lifes sleep, and, T being even,
 * period-2 oscillators too. A sub-batch of another length (a call's
 * remainder) cannot rely on that: it steps every tile near a live cell
 * (every tile for B0 rules), and what it learns holds for the next
 * sub-batch of its own length.
 *
 * The awake tiles are copied with a halo of T cells into slots laid side
 * by side in one scratch grid, which the wrapped stepper (a host backend)
 * advances as a bounded plane: what one slot's border does to the next
 * reaches at most T cells into its halo, never its tile. Their centres go
 * back. When most tiles are awake the whole grid is stepped instead, with
 * a snapshot T generations before the end to learn what changed. */
#ifndef GG_TILES_H
#define GG_TILES_H

#include <stdbool.h>
#include <stdint.h>

#include "gen_universe.h"
#include "grid.h"
#include "universe.h"

typedef struct gg_tiles_stats {
    int64_t tile_steps;  /* tile sub-batches run (awake tiles) */
    int64_t tile_slept;  /* tile sub-batches skipped */
    int64_t whole_gens;  /* generations stepped over the whole grid */
    int64_t sub_batches; /* sub-batches run by tiles */
} gg_tiles_stats;

typedef struct gg_tiles {
    gg_stepper inner; /* a host stepper (no hold): it steps slots */
    gg_gen_stepper gen_inner; /* the same for Generations cells (gen) */
    bool gen;
    int64_t side;     /* a tile's side in cells (a multiple of 64) */
    int64_t t;        /* a sub-batch's generations, and the halo */
    /* The grid the flags describe, as left by the last call: another
     * grid (the plane regrown, a new run) starts with no knowledge. */
    const uint64_t *bits;
    int64_t width, height;
    gg_topo topo;
    bool known;   /* changed[] covers the last sub-batch, */
    int64_t span; /* ... of span (<= t) generations */
    int64_t blind;  /* generations to step whole before looking again */
    int streak;     /* looks in a row that found the grid busy */
    int64_t nx, ny;
    uint8_t *changed; /* per tile: changed in the last sub-batch */
    uint8_t *live;    /* per tile: holds a live cell */
    uint8_t *awake;   /* per tile, this sub-batch (scratch) */
    int64_t *list;    /* awake tiles' indices (scratch) */
    uint8_t *flags;   /* per tile: what the device said (device_tiles) */
    int64_t *near_x, *near_y; /* per column, row: its near ones (wake) */
    gg_gen_cells scratch, snapshot; /* a universe's state planes */
    /* a device backend's tiles (gg_tiles_device_stepper): the grid it
     * holds, and whether it declined to tile it (and why) */
    struct gg_backend *dev;
    const gg_grid *held;
    bool off;
    char off_why[200];
    gg_tiles_stats stats;
} gg_tiles;

/* side 0 and t 0 take the measured defaults. The stepper returned steps
 * through `tiles`, which must outlive it; gg_tiles_free releases it. */
gg_stepper gg_tiles_stepper(gg_tiles *tiles, const gg_stepper *inner,
                            int64_t side, int64_t t);
/* The same over a device backend with tiles_step (runtime/backends/
 * backend.h): a bounded universe's grid stays on the device for the
 * whole run (the stepper holds it) and only tile lists and flags travel;
 * the unbounded plane, which regrows on the host, steps whole. */
gg_stepper gg_tiles_device_stepper(gg_tiles *tiles, struct gg_backend *b,
                                   int64_t side, int64_t t);
/* The same for a Generations universe (gg_gen_universe_run): its state
 * planes copied together; a tile holds a live cell where any state is
 * not 0. */
gg_gen_stepper gg_tiles_gen_stepper(gg_tiles *tiles,
                                    const gg_gen_stepper *inner,
                                    int64_t side, int64_t t);
/* The same over a device backend with tiles_step: each call's cells go
 * up once, its sub-batches run there, and they come down at its end. */
gg_gen_stepper gg_tiles_gen_device_stepper(gg_tiles *tiles,
                                           struct gg_backend *b,
                                           int64_t side, int64_t t);
void gg_tiles_free(gg_tiles *tiles);

/* One line for reports: "tiles 256: 93% of tile steps slept". */
void gg_tiles_describe(const gg_tiles *tiles, char *buf, size_t size);

#endif
