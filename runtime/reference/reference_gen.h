/* The reference simulator for Generations rules (gen/rules/rule_gen.h): plain
 * and obviously right, one byte per cell, the oracle every multi-state
 * kernel will be validated against (as runtime/reference/reference.h is for two
 * states). Checked cell for cell against bgolly -a Generations
 * (tests/test_generations.c). */
#ifndef GG_REFERENCE_GEN_H
#define GG_REFERENCE_GEN_H

#include "gen_cells.h"
#include "rule.h"
#include "stop.h"

/* Next state of one cell in state `state` with `live` neighbours in
 * state 1, as Golly's generationsalgo::slowcalc. */
static inline int gg_gen_next(const gg_rule *rule, int state, int live)
{
    if (state == 0)
        return (int)((rule->birth >> live) & 1u);
    if (state == 1 && ((rule->survive >> live) & 1u))
        return 1;
    return state + 1 < rule->states ? state + 1 : 0;
}

/* Advance the bounded grid `gens` generations with wrapping (torus) or
 * dead cells outside (plane). The planes must hold ceil(log2 C) bits. */
int gg_reference_gen_run(const gg_rule *rule, gg_topo topo,
                         gg_gen_cells *cells, int64_t gens, gg_err *err);

/* The same, given up once *stop is set (runtime/base/stop.h; checked between
 * rows): returns the generations run, which cells then hold, fewer than
 * gens after a stop; -1 with err on failure. */
int64_t gg_reference_gen_run_until(const gg_rule *rule, gg_topo topo,
                                   gg_gen_cells *cells, int64_t gens,
                                   gg_stop_flag *stop, gg_err *err);

#endif
