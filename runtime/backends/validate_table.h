/* The checks a table kernel (templates/ctable/kernel.c.in) passes before
 * it is used: its per-cell function against the rule's graph on every
 * input where there are at most 2^20 of them, else on every edge of the
 * graph (a path to each node, each entry, the other inputs random) and
 * 2^18 random inputs; then whole steps against the reference
 * (runtime/reference/reference_table.h) on random boards in every state,
 * dense and sparse, torus and plane, odd sizes. */
#ifndef GG_VALIDATE_TABLE_H
#define GG_VALIDATE_TABLE_H

#include <stdint.h>

#include "error.h"
#include "gen_cells.h"
#include "rule.h"
#include "rulefile.h"

/* The kernel's entries: the rule on n words of 64 cells each (word w's
 * inputs at x[(w * n_inputs + i) * planes + p], its next state at
 * o[w * planes + p]; a GPU kernel takes them in one launch) and a step of
 * cells (gens generations, as runtime/backends/cpu_table.h); both get
 * ctx. */
typedef int (*gg_table_eval_fn)(void *ctx, const uint64_t *x, uint64_t *o,
                                int64_t n, gg_err *err);
typedef int (*gg_table_cells_fn)(void *ctx, gg_topo topo,
                                 gg_gen_cells *cells, int64_t gens,
                                 gg_err *err);

/* 0 when every check passes; else -1, err naming the first difference
 * (`who` names the kernel). */
int gg_validate_table(const gg_rulefile *rf, gg_table_eval_fn eval,
                      gg_table_cells_fn step, void *ctx, const char *who,
                      uint64_t seed, gg_err *err);

#endif
