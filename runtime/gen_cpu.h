/* The bitsliced CPU step for Generations rules (gen/rule_gen.h): the
 * state planes of runtime/gen_cells.h, 64 cells a word, as a gate network
 * per word. The count of state-1 neighbours comes from a full-adder tree
 * (Moore, as templates/c/kernel.c.in) or a ripple counter (von Neumann,
 * hexagonal) over the "state == 1" plane; B and S are ORs of count
 * minterms; the dying states are a bitsliced increment of the state bits
 * with the last state (C-1) going to 0, so every C from 2 to 256 runs
 * the same code. Rows in parallel with OpenMP where the build has it.
 * Validated against runtime/reference_gen.h before use
 * (gg_gen_cpu_validate). */
#ifndef GG_GEN_CPU_H
#define GG_GEN_CPU_H

#include "gen_cells.h"
#include "gen_universe.h"
#include "rule.h"

/* As gg_reference_gen_run: `gens` generations of the bounded grid with
 * wrapping (torus) or dead cells outside (plane). */
int gg_gen_cpu_run(const gg_rule *rule, gg_topo topo, gg_gen_cells *cells,
                   int64_t gens, gg_err *err);

/* The step against the reference on random soups of odd sizes, torus and
 * plane, for this rule; a mismatch is an error naming the cell. */
int gg_gen_cpu_validate(const gg_rule *rule, gg_err *err);

#endif
