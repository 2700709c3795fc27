/* The smallest LUT3 network of a small table, found without a solver by
 * trying every network of up to three gates.
 *
 * The adder tree's rest (sat/choose/adder.h: the count bits and the
 * centre, 5 inputs) is where a build without the solver lost most: a
 * decision diagram there takes 6-9 LUTs where exact synthesis finds 2-4,
 * which is what kept the solverless hexagonal rules at 10-13 LUT3 a word
 * against the solver's 7-8. Three gates over five inputs is about 10^8
 * cheap tests (inner gates deduplicated by their table, up to the
 * complement, which readers absorb): well under a second. The walk is
 * fixed, so every machine gets the same network; the result is checked
 * on every care row. */
#ifndef GG_NET_ENUM_H
#define GG_NET_ENUM_H

#include "net.h"
#include "truth.h"

/* Most inputs a table may have (its rows fit one 64-bit word). */
#define GG_ENUM_MAX_INPUTS 6

/* A network of at most max_gates (<= 3) LUT3 gates computing t on its
 * care rows, the fewest gates first: 0 with net, 1 when none fits (or t
 * has more than GG_ENUM_MAX_INPUTS inputs; three gates are tried only up
 * to 5 inputs, two up to 6), -1 with err on a failed check (a bug). */
int gg_net_enum(const gg_tt *t, int max_gates, gg_net *net, gg_err *err);

#endif
