/* Counterexample-guided row selection: solve on some care rows, check the
 * network on all of them, add the rows it gets wrong, repeat. Most rows of
 * a 512-row table never enter the CNF, and an UNSAT answer on a subset of
 * rows is already a proof for the whole table. */
#ifndef GG_SAT_CEGAR_H
#define GG_SAT_CEGAR_H

#include "encode.h"
#include "synth.h"

/* Solves e (built on s) for f; SAT leaves the verified network in *net.
 * deadline is a gg_kjob_now() time (<= 0: none). */
gg_synth_status gg_cegar_solve(gg_enc *e, gg_sat *s, const gg_tt *f,
                               int init_rows, double deadline, gg_net *net);

#endif
