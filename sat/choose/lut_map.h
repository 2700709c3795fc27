/* A gate2 network (and, or, xor, andnot) from a lut3 one: each LUT3 is
 * replaced by the fewest gate2 gates that compute it, found by exact
 * synthesis of its 3-input function.
 *
 * gate2 networks compute 0 on the all-zero row, so a signal is kept in
 * whichever polarity is 0 when its LUT's inputs (as kept) are all 0; a
 * reader folds the complement into its own function. Before a LUT is
 * mapped its function is relaxed to what the network needs of it: input
 * combinations that no care row of the target produces, and rows where
 * its value does not reach the output, are free. Gates are taken in
 * order, each one checked against the network as changed so far, so the
 * result computes the target on every care row (and is checked).
 *
 * This is an upper bound for gate2 exact synthesis: the minimal LUT
 * networks in the cache are good skeletons (Life: 6 LUTs give 14 gate2). */
#ifndef GG_SAT_LUT_MAP_H
#define GG_SAT_LUT_MAP_H

#include "net.h"
#include "truth.h"

/* out: a gate2 network computing f on its care rows, from lut (LUT3 gates
 * only, one output, correct on f's care rows). -1 with err when lut is
 * not such a network. */
int gg_lut3_to_gate2(const gg_net *lut, const gg_tt *f, gg_net *out,
                     gg_err *err);

#endif
