#include "cell_board.h"

#include <stdlib.h>
#include <string.h>

int gg_cell_board_init(gg_cell_board *b, const gg_gen_cells *c,
                       const char *what, gg_err *err)
{
    b->w = gg_gen_cells_width(c);
    b->h = gg_gen_cells_height(c);
    b->pw = b->w + 2;
    size_t n = (size_t)b->pw * (size_t)(b->h + 2);
    b->cur = calloc(n, 1);
    b->next = calloc(n, 1);
    if (!b->cur || !b->next) {
        gg_cell_board_free(b);
        return gg_fail(err, "out of memory for a %lldx%lld %s grid",
                       (long long)b->w, (long long)b->h, what);
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

/* A word of 64 cells at a time (bits past the width stay 0, as the grid
 * layout wants); a stopped run waits on it before it writes. */
void gg_cell_board_store(const gg_cell_board *b, gg_gen_cells *c)
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

/* Copy the last row above the first and so on, then the columns (a
 * 1-wide torus wraps onto itself). */
void gg_cell_board_wrap(gg_cell_board *b)
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

void gg_cell_board_swap(gg_cell_board *b)
{
    uint8_t *t = b->cur;
    b->cur = b->next;
    b->next = t;
}

void gg_cell_board_free(gg_cell_board *b)
{
    free(b->cur);
    free(b->next);
    b->cur = b->next = NULL;
}
