/* Counterexample-guided row selection: solve on some care rows, check the
 * network on all of them, add the rows it gets wrong, repeat. Most rows of
 * a 512-row table never enter the CNF, and an UNSAT answer on a subset of
 * rows is already a proof for the whole table. */
#ifndef GG_SAT_CEGAR_H
#define GG_SAT_CEGAR_H

#include "encode.h"
#include "synth.h"

/* Solves e (built on s) for f; SAT leaves the verified network in *net.
 * deadline is a gg_kjob_now() time (<= 0: none). The same as
 * gg_cegar_start, then gg_cegar_solve_assuming with no assumptions. */
gg_synth_status gg_cegar_solve(gg_enc *e, gg_sat *s, const gg_tt *f,
                               int init_rows, double deadline, gg_net *net);

/* The first init_rows care rows of f, spread over the table, into e. */
void gg_cegar_start(gg_enc *e, const gg_tt *f, int init_rows);

/* The loop alone, each solve under the n literals of assume (an
 * incremental solver asked about one cube of a split at a time,
 * research/shape_cubes.c): rows e lacks join it as networks get them
 * wrong. */
gg_synth_status gg_cegar_solve_assuming(gg_enc *e, gg_sat *s, const gg_tt *f,
                                        const int *assume, int n,
                                        double deadline, gg_net *net);

#endif
