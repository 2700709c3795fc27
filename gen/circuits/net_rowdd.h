/* A LUT3 network for any 3x3 (Moore) rule table, built in milliseconds
 * without a solver: a decision diagram over the cells and pairs of cells,
 * its variable order searched.
 *
 * The plain decision diagram (gen/circuits/net_build.h) reads the nine
 * cells in one order and gives a random isotropic (Hensel) rule about 120
 * LUTs. Here a node is one multiplexer (one LUT3), the last three
 * variables' functions are LUTs shared wherever they repeat (a function
 * and its complement count once: the reading LUT absorbs the inversion),
 * nodes that agree on every row some neighbourhood reaches are merged,
 * and a variable may be a cell or the XOR/AND of two cells, paid once
 * (one LUT) when read. The pairs are those an isotropic rule is symmetric
 * in: the top and bottom rows' cells column by column (x^y, x&y: a rule
 * invariant under the vertical flip sees the two rows through them), and
 * NW against NE and N, which with the pairs fix every cell. So the
 * diagram over those variables is the rule's up to the flip, about 75
 * LUTs for a random isotropic rule; over the cells alone a random MAP
 * rule gets about 108 against 127. The order is searched by swaps from
 * fixed starts with a fixed count of steps and a fixed random sequence,
 * so every machine builds the same network. The network of each start's
 * order is then resubstituted (gen/circuits/net_resub.h; a node often
 * computes what three other signals already fix) and the smallest kept:
 * 20 seeded random isotropic rules 69 -> 55.3 LUTs, MAP rules 104 -> 72.7
 * (bench/random_rules.py), about 0.13 s a rule on this 2-core VM. */
#ifndef GG_NET_ROWDD_H
#define GG_NET_ROWDD_H

#include "net.h"
#include "truth.h"

/* One-output LUT3 network over t's 9 inputs (the Moore rule table's:
 * neighbours NW N NE W E SW S SE, then the centre) computing t on its
 * care rows, checked on every care row. `steps` bounds the order search
 * (0: GG_ROWDD_STEPS). Returns 1 (net untouched) when t does not have 9
 * inputs. */
int gg_net_build_rowdd(const gg_tt *t, int steps, gg_net *net, gg_err *err);

#define GG_ROWDD_STEPS 600

#endif
