/* Pictures of universes (golgen run --png, --frames): which cells a
 * picture shows, how many cells a pixel stands for, and their colours.
 *
 * - Region: a window (Golly coordinates; cells outside the grid are dead),
 *   else the whole grid of a bounded universe (torus, bounded plane), else
 *   the bounding box of the live cells (unbounded plane; 1 x 1 when none).
 * - Scale: one pixel a cell while the region fits max_side (4096) pixels a
 *   side, else the fewest cells per pixel side that fit; the pixel then
 *   shows the density of live cells in its square (a shade from black, for
 *   none, to white, for all; any live cell is visible). `zoom` draws small
 *   regions bigger, zoom x zoom pixels a cell.
 * - Colours: two states black (dead) and white (alive); Generations states
 *   white (1, alive), then from orange to dark purple as cells age, black
 *   for 0; a scaled-down Generations picture shades the cells not in state
 *   0. A 3D universe is drawn as its projection along z: a pixel's shade
 *   is the share of live cells in the column of z (and square) behind it,
 *   so a structure anywhere in the box shows. */
#ifndef GG_PICTURE_H
#define GG_PICTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "gen_universe.h"
#include "grid3d.h"
#include "png_write.h"
#include "universe.h"

#define GG_PICTURE_MAX_SIDE 4096

typedef struct gg_picture_opts {
    bool window;            /* draw only the window below */
    int64_t wx, wy, ww, wh; /* its top-left cell (Golly coordinates; the
                               grid's x, y for 3D), width, height */
    int64_t scale;          /* cells per pixel side; 0: automatic */
    int64_t zoom;           /* pixels per cell side (scale 1); 0: 1 */
    int64_t max_side;       /* automatic scale's bound; 0: 4096 */
} gg_picture_opts;

/* What a picture shows, for the caller's report. */
typedef struct gg_picture_info {
    int64_t x, y, w, h; /* the region: top-left cell (Golly's), size */
    int64_t scale;      /* cells per pixel side */
    int64_t zoom;       /* pixels per cell side */
} gg_picture_info;

int gg_picture_universe(const gg_universe *u, const gg_picture_opts *o,
                        gg_image *im, gg_picture_info *info, gg_err *err);
int gg_picture_gen_universe(const gg_gen_universe *u,
                            const gg_picture_opts *o, gg_image *im,
                            gg_picture_info *info, gg_err *err);
/* Cells of `states` states as planes, in the colours of Generations
 * (Larger than Life, Golly rule tables); bounded: the whole grid is the
 * region, else the live box; cell (0, 0) at Golly's (x0, y0). */
int gg_picture_cells(const gg_gen_cells *c, int states, bool bounded,
                     int64_t x0, int64_t y0, const gg_picture_opts *o,
                     gg_image *im, gg_picture_info *info, gg_err *err);
int gg_picture_grid3d(const gg_grid3d *g, const gg_picture_opts *o,
                      gg_image *im, gg_picture_info *info, gg_err *err);

/* The density shades of scaled pictures, for drawers of other universes
 * (the hash tree's, runtime/engines/hashlife.h): palette entry 0 black,
 * then greys; the entry for `count` live cells of `area`. */
void gg_picture_shade_palette(gg_image *im);
uint8_t gg_picture_shade(int64_t count, int64_t area);

/* The picture above, written to path as PNG (atomically). */
int gg_picture_write_universe(const char *path, const gg_universe *u,
                              const gg_picture_opts *o,
                              gg_picture_info *info, gg_err *err);
int gg_picture_write_gen_universe(const char *path,
                                  const gg_gen_universe *u,
                                  const gg_picture_opts *o,
                                  gg_picture_info *info, gg_err *err);
int gg_picture_write_cells(const char *path, const gg_gen_cells *c,
                           int states, bool bounded, int64_t x0, int64_t y0,
                           const gg_picture_opts *o, gg_picture_info *info,
                           gg_err *err);
int gg_picture_write_grid3d(const char *path, const gg_grid3d *g,
                            const gg_picture_opts *o, gg_picture_info *info,
                            gg_err *err);

#endif
