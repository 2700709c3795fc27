#include "reference_gen.h"

#include <stdlib.h>
#include <string.h>

#include "rule_gen.h"

/* One byte per cell with a one-cell halo all round, so every cell reads
 * its neighbours the same way: the halo stays 0 on the plane and holds
 * the opposite edges on the torus. */
typedef struct board {
    int64_t w, h, pw; /* pw = w + 2: the padded row */
    uint8_t *cur, *next;
} board;

static int board_init(board *b, const gg_gen_cells *c, gg_err *err)
{
    b->w = gg_gen_cells_width(c);
    b->h = gg_gen_cells_height(c);
    b->pw = b->w + 2;
    size_t n = (size_t)b->pw * (size_t)(b->h + 2);
    b->cur = calloc(n, 1);
    b->next = calloc(n, 1);
    if (!b->cur || !b->next) {
        free(b->cur);
        free(b->next);
        return gg_fail(err, "out of memory for a %lldx%lld Generations grid",
                       (long long)b->w, (long long)b->h);
    }
    /* plane by plane, a row's word at a time: a cell at a time through
     * gg_gen_cells_get took seconds a call on a 16384^2 grid */
    for (int64_t y = 0; y < b->h; y++) {
        uint8_t *row = b->cur + (y + 1) * b->pw + 1;
        for (int p = 0; p < c->n_planes; p++) {
            const uint64_t *w = gg_grid_row(&c->plane[p], y);
            for (int64_t x = 0; x < b->w; x++)
                row[x] |= (uint8_t)((w[x >> 6] >> (x & 63) & 1u) << p);
        }
    }
    return 0;
}

/* The inverse, a word of 64 cells at a time (bits past the width stay 0,
 * as the grid layout wants); a stopped run waits on it before it writes. */
static void board_store(const board *b, gg_gen_cells *c)
{
    for (int64_t y = 0; y < b->h; y++) {
        const uint8_t *row = b->cur + (y + 1) * b->pw + 1;
        for (int p = 0; p < c->n_planes; p++) {
            uint64_t *w = gg_grid_row(&c->plane[p], y);
            for (int64_t x0 = 0; x0 < b->w; x0 += 64) {
                int64_t n = b->w - x0 < 64 ? b->w - x0 : 64;
                uint64_t word = 0;
                for (int64_t i = 0; i < n; i++)
                    word |= (uint64_t)(row[x0 + i] >> p & 1u) << i;
                w[x0 >> 6] = word;
            }
        }
    }
}

/* Torus: copy the last row above the first and so on, then the columns,
 * corners included (a 1-wide torus wraps onto itself). */
static void wrap_halo(board *b)
{
    uint8_t *g = b->cur;
    int64_t pw = b->pw;
    memcpy(g, g + b->h * pw, (size_t)pw);
    memcpy(g + (b->h + 1) * pw, g + pw, (size_t)pw);
    for (int64_t y = 0; y < b->h + 2; y++) {
        g[y * pw] = g[y * pw + b->w];
        g[y * pw + b->w + 1] = g[y * pw + 1];
    }
}

/* One generation into b->next row by row, swapped in only when whole: a
 * generation given up at a stop (false) leaves b->cur as it was. */
static bool step(board *b, const gg_rule *rule, const int64_t *delta, int n,
                 gg_stop_flag *stop)
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
    uint8_t *t = b->cur;
    b->cur = b->next;
    b->next = t;
    return true;
}

int64_t gg_reference_gen_run_until(const gg_rule *rule, gg_topo topo,
                                   gg_gen_cells *cells, int64_t gens,
                                   gg_stop_flag *stop, gg_err *err)
{
    int go = gg_gen_step_args(rule, cells, gens, "reference", err);
    if (go <= 0)
        return go;
    board b;
    if (board_init(&b, cells, err))
        return -1;
    int n;
    const gg_offset *off = gg_nbhd_offsets(rule->nbhd, &n);
    int64_t delta[GG_MAX_NEIGHBOURS];
    for (int k = 0; k < n; k++)
        delta[k] = off[k].dy * b.pw + off[k].dx;
    int64_t g = 0;
    for (; g < gens; g++) {
        if (topo == GG_TOPO_TORUS)
            wrap_halo(&b);
        if (!step(&b, rule, delta, n, stop))
            break;
    }
    board_store(&b, cells);
    free(b.cur);
    free(b.next);
    return g;
}

int gg_reference_gen_run(const gg_rule *rule, gg_topo topo,
                         gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    return gg_reference_gen_run_until(rule, topo, cells, gens, NULL, err) < 0
               ? -1
               : 0;
}
