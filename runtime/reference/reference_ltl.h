/* The reference simulator for Larger than Life (gen/rules/rule_ltl.h): one
 * byte per cell (states 0..C-1), the count of state-1 cells around each
 * cell by running sums whose cost per cell does not grow with the range R:
 *
 * - NM (the box): each column's sum over the 2R+1 rows is kept and moved
 *   down a row by adding the row that enters and subtracting the one that
 *   leaves; along a row the box is those column sums' sliding window.
 * - NN (the diamond): cumulative sums along both diagonals; moving the
 *   diamond a cell right (or down) adds the two diagonal edges that enter
 *   and subtracts the two that leave, each edge one difference of
 *   cumulative sums.
 * - NC (the circle) is the exception: a difference of row prefix sums per
 *   row of the circle, 2R+1 per cell (as Golly's own loop is).
 *
 * The grid is bounded: wrapped (torus) or dead outside (plane); the
 * unbounded plane is a plane kept at least R dead cells wider than the
 * live cells (runtime/universes/ltl_universe.h). Checked against bgolly -a
 * "Larger than Life" and against gg_ltl_ref_step_direct, which counts
 * every cell of every neighbourhood (tests/test_ltl.c). */
#ifndef GG_REFERENCE_LTL_H
#define GG_REFERENCE_LTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rule_ltl.h"
#include "stop.h"

typedef struct gg_ltl_ref {
    gg_ltl_rule rule;
    uint8_t *born, *survive; /* by count of the neighbourhood, middle in */
    int64_t max_count;
    int *half;               /* NC: the circle's half-widths */
    uint8_t *live;           /* padded 0/1 copy of the grid */
    int32_t *sum1, *sum2;    /* column / diagonal / row prefix sums */
    int32_t *count;          /* one row's counts */
    size_t cap_live, cap_sum1, cap_sum2, cap_count;
} gg_ltl_ref;

int gg_ltl_ref_init(gg_ltl_ref *s, const gg_ltl_rule *rule, gg_err *err);

/* One generation of the w x h grid cur into next (both w*h bytes, row by
 * row), wrapped when torus else dead outside: 0, 1 when *stop was set
 * (next then unfinished), -1 with err (memory). */
int gg_ltl_ref_step(gg_ltl_ref *s, const uint8_t *cur, uint8_t *next,
                    int64_t w, int64_t h, bool torus, gg_stop_flag *stop,
                    gg_err *err);

/* The same generation counting each neighbourhood cell by cell: (2R+1)^2
 * per cell, for tests. */
void gg_ltl_ref_step_direct(const gg_ltl_rule *rule, const uint8_t *cur,
                            uint8_t *next, int64_t w, int64_t h, bool torus);

void gg_ltl_ref_free(gg_ltl_ref *s);

#endif
