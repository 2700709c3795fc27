#include "reference_table.h"

#include "cell_board.h"
#include "rule_gen.h"

/* One generation into b->next, swapped in only when whole: a generation
 * given up at a stop (false) leaves b->cur as it was. The inputs are
 * gathered in the DAG's order (nw ne sw se n w e s c, or n w e s c). */
static bool step(gg_cell_board *b, const gg_rulefile *rf, gg_stop_flag *stop)
{
    int64_t pw = b->pw;
    bool moore = rf->n_inputs == 9;
    for (int64_t y = 1; y <= b->h; y++) {
        if (gg_stop_asked(stop))
            return false;
        const uint8_t *up = b->cur + (y - 1) * pw, *mid = b->cur + y * pw,
                      *down = b->cur + (y + 1) * pw;
        uint8_t *out = b->next + y * pw;
        for (int64_t x = 1; x <= b->w; x++) {
            uint8_t in[9];
            if (moore) {
                uint8_t m[9] = {up[x - 1],   up[x + 1],   down[x - 1],
                                down[x + 1], up[x],       mid[x - 1],
                                mid[x + 1],  down[x],     mid[x]};
                for (int k = 0; k < 9; k++)
                    in[k] = m[k];
            } else {
                in[0] = up[x];
                in[1] = mid[x - 1];
                in[2] = mid[x + 1];
                in[3] = down[x];
                in[4] = mid[x];
            }
            out[x] = (uint8_t)gg_rulefile_lookup(rf, in);
        }
    }
    gg_cell_board_swap(b);
    return true;
}

int64_t gg_reference_table_run(const gg_rulefile *rf, gg_topo topo,
                               gg_gen_cells *cells, int64_t gens,
                               gg_stop_flag *stop, gg_err *err)
{
    if (gens <= 0)
        return 0;
    if (gg_gen_planes(rf->n_states) > cells->n_planes)
        return gg_fail(err, "reference: %d state planes cannot hold the "
                       "rule's %d states", cells->n_planes, rf->n_states);
    gg_cell_board b;
    if (gg_cell_board_init(&b, cells, "rule table", err))
        return -1;
    /* a state past the rule's would walk off its DAG's nodes */
    for (int64_t i = 0; i < b.pw * (b.h + 2); i++)
        if (b.cur[i] >= rf->n_states) {
            gg_cell_board_free(&b);
            return gg_fail(err, "reference: a cell in state %d, but the "
                           "rule has states 0..%d", b.cur[i],
                           rf->n_states - 1);
        }
    int64_t g = 0;
    for (; g < gens; g++) {
        if (topo == GG_TOPO_TORUS)
            gg_cell_board_wrap(&b);
        if (!step(&b, rf, stop))
            break;
    }
    gg_cell_board_store(&b, cells);
    gg_cell_board_free(&b);
    return g;
}
