/* Checking a Generations step against the multi-state reference
 * (runtime/reference/reference_gen.h) before it is used, as runtime/backends/validate.h does
 * for two-state kernels: random soups of every state on odd tori and
 * planes round the word edges, grids wider than a CPU tile, and enough
 * generations to cross the kernels' temporal blocks. */
#ifndef GG_VALIDATE_GEN_H
#define GG_VALIDATE_GEN_H

#include <stdint.h>

#include "error.h"
#include "gen_cells.h"
#include "rule.h"

/* The step under test: advance cells (bounded, topo) gens generations. */
typedef int (*gg_gen_step_ctx_fn)(void *ctx, gg_topo topo,
                                  gg_gen_cells *cells, int64_t gens,
                                  gg_err *err);

/* 0 when every case agrees cell for cell (bits past the width stay 0);
 * else -1 and err names the case, the cell and both states. `who` names
 * the step ("the cpu kernel"). */
int gg_validate_gen(const gg_rule *rule, gg_gen_step_ctx_fn step, void *ctx,
                    const char *who, uint64_t seed, gg_err *err);

/* A hash of the cases (sizes, generations): a GPU module's validation
 * stamp names it (runtime/gpu/cuda_module.c). */
uint64_t gg_validate_gen_key(void);

/* Random cells: half 0, a quarter 1, the rest any dying state. */
void gg_gen_cells_random(gg_gen_cells *c, int states, uint64_t seed);

#endif
