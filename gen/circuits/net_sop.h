/* A correct (not minimal) LUT3 network for a table with many free rows: a
 * two-level cover whose cubes are grown into the free rows, each cube an
 * AND of few literals folded into an OR chain (acc | a & b is one LUT3).
 *
 * It is the upper bound for functions that are simple only because most
 * rows are free: an arrangement class of a Hensel rule, given the
 * neighbour count, is told by the AND of a few cells over its orientations
 * (sat/choose/choose_gated.c), where a decision diagram that reads the free rows
 * as 0 has to count the cells as well. */
#ifndef GG_NET_SOP_H
#define GG_NET_SOP_H

#include "net.h"
#include "truth.h"

/* One-output LUT3 network over t's inputs computing t on its care rows:
 * the cheaper of a cover of the on rows and the complement of a cover of
 * the off rows. */
int gg_net_build_sop(const gg_tt *t, gg_net *net, gg_err *err);

#endif
