/* The cells of a multi-state universe (Generations rules): state bit p of
 * cell (x, y) is cell (x, y) of plane p, each plane a gg_grid in the
 * project's bit layout, so bitsliced kernels can take the planes as they
 * are. ceil(log2 C) planes for C states (gg_gen_planes). */
#ifndef GG_GEN_CELLS_H
#define GG_GEN_CELLS_H

#include <stdbool.h>
#include <stdint.h>

#include "grid.h"
#include "rule.h"

#define GG_GEN_CELLS_MAX_PLANES 8 /* 256 states */

typedef struct gg_gen_cells {
    int n_planes;
    gg_grid plane[GG_GEN_CELLS_MAX_PLANES];
} gg_gen_cells;

/* All cells 0; fails cleanly on bad sizes or plane counts. */
int gg_gen_cells_init(gg_gen_cells *c, int n_planes, int64_t width,
                      int64_t height, gg_err *err);
void gg_gen_cells_free(gg_gen_cells *c);

static inline int64_t gg_gen_cells_width(const gg_gen_cells *c)
{
    return c->plane[0].width;
}
static inline int64_t gg_gen_cells_height(const gg_gen_cells *c)
{
    return c->plane[0].height;
}

int gg_gen_cells_get(const gg_gen_cells *c, int64_t x, int64_t y);
/* state must fit the planes. */
void gg_gen_cells_set(gg_gen_cells *c, int64_t x, int64_t y, int state);

/* Bounding box of the cells in any state but 0; false when none. */
bool gg_gen_cells_bbox(const gg_gen_cells *c, int64_t *x0, int64_t *y0,
                       int64_t *x1, int64_t *y1);

/* Cells in any state but 0 (what Golly calls the population). */
int64_t gg_gen_cells_population(const gg_gen_cells *c);

/* Blit every plane of src into dst (same plane count) at (dx, dy). */
void gg_gen_cells_blit(gg_gen_cells *dst, const gg_gen_cells *src,
                       int64_t dx, int64_t dy);

/* The most generations a call on the unbounded plane's cells may take
 * (runtime/universes/batch.h, gg_plane_batch_cap). */
int64_t gg_gen_cells_plane_cap(const gg_gen_cells *c);

/* The unbounded plane's grid: at least `margin` 0 cells round the non-0
 * box, else the box recentred in a larger grid with slack that grows with
 * the pattern; *x0, *y0 (where cell (0, 0) sits) follow the move. */
int gg_gen_cells_keep_margin(gg_gen_cells *c, int64_t *x0, int64_t *y0,
                             int64_t margin, gg_err *err);

/* The checks every Generations step makes of its arguments: -1 (err
 * names `who`) for a rule that is not a Generations rule or planes too
 * few for its states, 0 when there is nothing to do, 1 to go on. */
int gg_gen_step_args(const gg_rule *rule, const gg_gen_cells *cells,
                     int64_t gens, const char *who, gg_err *err);

#endif
