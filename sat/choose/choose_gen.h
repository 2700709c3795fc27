/* The Generations per-cell stage (gen/circuits/gen_nets.h) with each output
 * synthesized by the solver: these functions have at most 9 inputs and
 * few care rows, so exact synthesis within a fixed amount of solver work
 * (the same answer on every machine, as sat/choose/choose.h's fallback) usually
 * proves them minimal. Without the solver, decision diagrams. Outputs
 * built apart share no gates, so for many states the counter
 * construction (gen/circuits/gen_nets.h) wins; the cheaper of the two is used. */
#ifndef GG_SAT_CHOOSE_GEN_H
#define GG_SAT_CHOOSE_GEN_H

#include "gen_nets.h"

int gg_choose_gen_nets(int states, gg_gen_nets *g, gg_err *err);

/* The same, kept under root (the kept networks' folder,
 * gg_choose_opts.kept_root; NULL or "": not kept) and read back, verified
 * on every care row, by the next run: the solver's per-output stage took
 * 0.8 s of every run of a 25-state rule (BENCHMARKS.md, "Generations
 * stage kept"). */
int gg_choose_gen_nets_kept(int states, const char *root, gg_gen_nets *g,
                            gg_err *err);

#endif
