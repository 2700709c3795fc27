/* One byte per cell with a one-cell halo all round, for the multi-state
 * reference simulators (runtime/reference/reference_gen.c, Generations;
 * reference_table.c, Golly's rule tables): every cell reads its
 * neighbours the same way, the halo 0 on the plane and the opposite edges
 * on the torus. Plain and obviously right, as an oracle must be. */
#ifndef GG_CELL_BOARD_H
#define GG_CELL_BOARD_H

#include <stdint.h>

#include "error.h"
#include "gen_cells.h"

typedef struct gg_cell_board {
    int64_t w, h, pw; /* pw = w + 2: the padded row */
    uint8_t *cur, *next;
} gg_cell_board;

/* The cells' states into a new board (what = the family, for messages). */
int gg_cell_board_init(gg_cell_board *b, const gg_gen_cells *c,
                       const char *what, gg_err *err);

/* The board's states back into the planes (bits past the width 0). */
void gg_cell_board_store(const gg_cell_board *b, gg_gen_cells *c);

/* Torus: the halo gets the opposite edges, corners included. */
void gg_cell_board_wrap(gg_cell_board *b);

/* next becomes cur once a generation is whole. */
void gg_cell_board_swap(gg_cell_board *b);

void gg_cell_board_free(gg_cell_board *b);

#endif
