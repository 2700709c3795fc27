/* What tiles.c (the sub-batch loop) and tiles_host.c (the host's copies)
 * share; not part of any public interface. */
#ifndef GG_TILES_INTERNAL_H
#define GG_TILES_INTERNAL_H

#include "tiles.h"

/* The wrapped stepper on np state planes. */
int gg_tiles_inner(gg_tiles *tl, const gg_rule *rule, gg_topo topo,
                   gg_grid *planes, int np, int64_t n, gg_err *err);
/* The count awake tiles of tl->list, n (<= t) generations through the
 * scratch; sets their changed and live flags (the others' changed 0). */
int gg_tiles_host_step(gg_tiles *tl, const gg_rule *rule, gg_grid *planes,
                       int np, int64_t count, int64_t n, gg_err *err);
/* n generations of the whole grid (a multiple of t, or fewer than t);
 * every tile's flags then cover its last min(n, t). */
int gg_tiles_host_whole(gg_tiles *tl, const gg_rule *rule, gg_grid *planes,
                        int np, int64_t n, gg_err *err);

#endif
