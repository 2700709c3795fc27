/* golgen serve: the world's calls for Larger than Life (serve_world_ltl.c)
 * and 3D (serve_world_3d.c), which serve_world.c hands over to. */
#ifndef GG_SERVE_WORLD_FAM_H
#define GG_SERVE_WORLD_FAM_H

#include "serve_world.h"

/* Larger than Life: the board is bytes, a cell a byte. */
bool sv_ltl_bbox(const sv_world *w, int64_t *x0, int64_t *y0, int64_t *x1,
                 int64_t *y1);
/* The unbounded board made nw x nh with its top-left cell at (nx, ny),
 * the cells kept where they are. */
int sv_ltl_regrow(sv_world *w, int64_t nx, int64_t ny, int64_t nw,
                  int64_t nh, gg_err *err);
void sv_ltl_render(const sv_world *w, int64_t x, int64_t y, int cols,
                   int rows, int level, int64_t sample, uint8_t *out);

/* 3D: the grid of the rule's size; a 2D pattern's live cells in the middle
 * slice (cell (0, 0) of the slice at Golly's (-(X/2), -(Y/2)), as a
 * bounded 2D grid's), an RLE3's at its pos=. */
int sv_3d_from_pattern(sv_world *w, const sv_rule *r, const gg_pattern *p,
                       gg_err *err);
int sv_3d_from_rle3(sv_world *w, const sv_rule *r, const gg_rle3 *p,
                    gg_err *err);
/* The slice shown as a 2D pattern. */
int sv_3d_to_pattern(const sv_world *w, gg_pattern *p, gg_err *err);
/* 0, or -1 saying why when the projection is shown (no cell is one). */
int sv_3d_editable(const sv_world *w, gg_err *err);
/* sv_world_render's projection along z (serve_world.h's z sum). */
void sv_3d_render_sum(const sv_world *w, int64_t x, int64_t y, int cols,
                      int rows, int level, int64_t sample, uint8_t *out);
/* The live cells' box over every plane (grid cells); false when none. */
bool sv_3d_bbox_sum(const sv_world *w, int64_t *x0, int64_t *y0,
                    int64_t *x1, int64_t *y1);
/* The grid under another 3D rule of the same size. */
int sv_3d_with_rule(const sv_world *w, const sv_rule *r, sv_world *out,
                    gg_err *err);

#endif
