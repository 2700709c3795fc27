/* A LUT3 network made smaller without a solver by rewriting windows of
 * three or four gates as two, alternating with resubstitution
 * (gen/circuits/net_resub.h) until neither saves a gate.
 *
 * Resubstitution replaces a cone by one new LUT over signals the network
 * has; a cone that needs two new LUTs (a decision diagram's muxes often
 * compute, in three, what two LUTs of their leaves would) stays. Here a
 * gate and the gates only it reads (a window) are replaced by at most
 * two LUTs over the window's leaves, found by enumeration
 * (gen/circuits/net_enum.h) on the rows where the gate's value reaches
 * the output (the rest are free). The walk is fixed, so every machine
 * gets the same network; every change is checked on every care row. */
#ifndef GG_NET_REWRITE_H
#define GG_NET_REWRITE_H

#include "net.h"
#include "truth.h"

/* net (one output, LUT3 gates only, right on t's care rows) made
 * smaller. Returns the gates saved, or -1 with err when net is not such
 * a network. */
int gg_net_rewrite(gg_net *net, const gg_tt *t, gg_err *err);

#endif
