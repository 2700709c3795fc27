/* RLE as runs of cells, without a dense box: for patterns whose live cells
 * are few in a huge box (Golly's circuits: 31473 x 31101 cells, 12962
 * alive, 46 KB of text), which a tree engine reads and writes at the cost
 * of their runs instead of their box (runtime/engines/hashlife.h).
 *
 * Reading goes through the one RLE parser (runtime/formats/pattern_rle.c):
 * the same grammar, errors, header, #CXRLE, comments, state letters,
 * limits and stop flag as gg_pattern_parse; writing through the one RLE
 * writer (pattern_write.c): byte for byte what gg_pattern_write_rle
 * writes for the same cells. */
#ifndef GG_RLE_RUNS_H
#define GG_RLE_RUNS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "pattern.h"
#include "stop.h"

/* A run of n cells of `state` (> 0) from box cell (x, y) rightwards. */
typedef struct gg_rle_run {
    int64_t x, y, n;
    int state;
} gg_rle_run;

/* Called for each live run in file order (rows downwards, left to right
 * in a row); non-zero gives up the parse (err set by the callee). */
typedef int (*gg_rle_run_fn)(void *ctx, int64_t x, int64_t y, int64_t n,
                             int state, gg_err *err);

/* An RLE file with a header whose box has more than cells_per_byte cells
 * a byte of text, parsed without a box: head gets everything but the
 * cells (rule, comments, position, generation, multistate, known_max; no
 * planes), *w and *h the header's box, fn the live runs. Returns 1, with
 * nothing parsed, for any other text (no header, another format, a box
 * that is not that sparse): gg_pattern_parse reads those. 0 or -1 (err
 * set, head empty) otherwise. */
int gg_pattern_parse_rle_runs(const char *text, size_t len, const char *name,
                              gg_stop_flag *stop, double cells_per_byte,
                              gg_rle_run_fn fn, void *ctx, gg_pattern *head,
                              int64_t *w, int64_t *h, gg_err *err);

/* A pattern read as runs: its head (as above), box and runs. */
typedef struct gg_pattern_runs {
    gg_pattern head;
    int64_t width, height;
    gg_rle_run *run;
    size_t n, cap;
    /* cells summed over state planes (a cell in state 3 counts twice), as
     * gg_grid_population over a dense pattern's planes; saturates */
    int64_t population;
    int64_t live;           /* cells not in state 0; saturates */
    int64_t x0, y0, x1, y1; /* the live cells' box; x1 < x0: none */
    int top;                /* the highest state */
} gg_pattern_runs;

/* gg_pattern_parse_rle_runs into r (1: not sparse, r empty). */
int gg_pattern_runs_parse(const char *text, size_t len, const char *name,
                          gg_stop_flag *stop, double cells_per_byte,
                          gg_pattern_runs *r, gg_err *err);
/* The dense pattern of r (what gg_pattern_parse gives for the text); r's
 * rule and comments move into it. */
int gg_pattern_runs_to_pattern(gg_pattern_runs *r, gg_pattern *p,
                               gg_err *err);
void gg_pattern_runs_free(gg_pattern_runs *r);

/* Writing: the body of a w x h box's RLE given run by run. */
typedef struct gg_rle_out gg_rle_out;

/* n cells of state (> 0) from box cell (x, y), after every run of an
 * earlier row or further left; adjoining runs of one state join. */
void gg_rle_out_run(gg_rle_out *o, int64_t x, int64_t y, int64_t n,
                    int state);
/* The live cells of a word of a two-state row: bit i is cell x + i. */
void gg_rle_out_bits(gg_rle_out *o, int64_t x, int64_t y, uint64_t bits);
/* Writing failed (the file, memory): the body may stop. */
bool gg_rle_out_failed(const gg_rle_out *o);

typedef int (*gg_rle_body_fn)(void *ctx, gg_rle_out *o);

/* The RLE file (atomically; "-": standard output) of a w x h box (0 x 0:
 * empty) whose place, generation, rule, comments and letters
 * (multistate, n_planes) head gives and whose cells body gives: byte for
 * byte gg_pattern_write_rle of the dense pattern. body's non-zero return
 * gives up (with err set by it). */
int gg_pattern_write_rle_body(const char *path, const gg_pattern *head,
                              int64_t w, int64_t h, gg_rle_body_fn body,
                              void *ctx, gg_err *err);

#endif
