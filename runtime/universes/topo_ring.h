/* Golly's grids beyond the torus and the plane (:K, :C, :S, shifted tori,
 * tubes and strips: gen/rules/rule.h's gg_rule_has_ring_grid) stepped by
 * any backend that steps a bounded plane. The W x H grid sits inside a
 * plane k cells larger on every finite side; before each batch of k
 * generations the ring round it is refilled from the grid by the
 * topology's map of edges (Golly's bounded.html), as Golly copies edge
 * cells before each generation. After k generations of the plane the
 * grid is exact: a wrong ring cell spoils its neighbours one cell a
 * generation. */
#ifndef GG_TOPO_RING_H
#define GG_TOPO_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "grid.h"
#include "rule.h"

/* The cell of the grid that cell (x, y) outside it stands for (both in
 * the grid's own coordinates, (0, 0) its top-left cell): false for a
 * dead cell (a plane's outside). An infinite side (0) is not folded. */
bool gg_ring_source(const gg_rule *rule, int64_t x, int64_t y, int64_t *sx,
                    int64_t *sy);

/* Generations a batch may run between refills (the ring's width): 1
 * where a corner or a plane's dead edge is not the plane's own map (cross-
 * surface, sphere, strips), else up to max_batch and the smaller side
 * (shifted tori, Klein bottles, tubes are quotients of the plane). */
int64_t gg_ring_depth(const gg_rule *rule, int64_t max_batch);

/* The plane's sides for ring width k (an infinite side: `live`, what the
 * caller keeps for it). */
void gg_ring_plane_size(const gg_rule *rule, int64_t k, int64_t live_w,
                        int64_t live_h, int64_t *w, int64_t *h);

/* Refill (or, clear: empty) the ring of width k round the grid in each of
 * the n planes (a cell's state bit p in plane p). */
void gg_ring_fill(const gg_rule *rule, int64_t k, gg_grid *planes, int n,
                  bool clear);

#endif
