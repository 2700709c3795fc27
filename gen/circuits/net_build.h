/* A correct (not minimal) network for any truth table: a reduced ordered
 * decision diagram with shared sub-functions, one multiplexer per node.
 * Minimal networks come from sat/; this is the fallback and upper bound. */
#ifndef GG_NET_BUILD_H
#define GG_NET_BUILD_H

#include "net.h"

/* One-output network over t's inputs computing t on its care rows
 * (don't-care rows are treated as 0). */
int gg_net_build_from_tt(const gg_tt *t, gg_lib lib, gg_net *net,
                         gg_err *err);

#endif
