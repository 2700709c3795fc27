#include "reference_gen.h"

#include <stdlib.h>
#include <string.h>

#include "cell_board.h"
#include "rule_gen.h"

/* One generation into b->next row by row, swapped in only when whole: a
 * generation given up at a stop (false) leaves b->cur as it was. */
static bool step(gg_cell_board *b, const gg_rule *rule, const int64_t *delta,
                 int n, gg_stop_flag *stop)
{
    for (int64_t y = 1; y <= b->h; y++) {
        if (gg_stop_asked(stop))
            return false;
        for (int64_t x = 1; x <= b->w; x++) {
            int64_t i = y * b->pw + x;
            int state = b->cur[i], live = 0;
            if (state <= 1) /* only states 0 and 1 look at neighbours */
                for (int k = 0; k < n; k++)
                    live += b->cur[i + delta[k]] == 1;
            b->next[i] = (uint8_t)gg_gen_next(rule, state, live);
        }
    }
    gg_cell_board_swap(b);
    return true;
}

int64_t gg_reference_gen_run_until(const gg_rule *rule, gg_topo topo,
                                   gg_gen_cells *cells, int64_t gens,
                                   gg_stop_flag *stop, gg_err *err)
{
    int go = gg_gen_step_args(rule, cells, gens, "reference", err);
    if (go <= 0)
        return go;
    gg_cell_board b;
    if (gg_cell_board_init(&b, cells, "Generations", err))
        return -1;
    int n;
    const gg_offset *off = gg_nbhd_offsets(rule->nbhd, &n);
    int64_t delta[GG_MAX_NEIGHBOURS];
    for (int k = 0; k < n; k++)
        delta[k] = off[k].dy * b.pw + off[k].dx;
    int64_t g = 0;
    for (; g < gens; g++) {
        if (topo == GG_TOPO_TORUS)
            gg_cell_board_wrap(&b);
        if (!step(&b, rule, delta, n, stop))
            break;
    }
    gg_cell_board_store(&b, cells);
    gg_cell_board_free(&b);
    return g;
}

int gg_reference_gen_run(const gg_rule *rule, gg_topo topo,
                         gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    return gg_reference_gen_run_until(rule, topo, cells, gens, NULL, err) < 0
               ? -1
               : 0;
}
