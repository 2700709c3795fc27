/* Resubstitution (gen/circuits/net_resub.h) of the candidate networks
 * sat/choose builds, so that a machine without the solver gets about
 * what one with it gets. A decision diagram's or an adder tree's rest
 * computes, node by node, much that three other signals already fix;
 * a composed stage (front rowsum+cells) joins parts built apart, each
 * right on its own table, so signals of one part often serve the other,
 * and what a part computes on rows the composition never looks at (the
 * gated correction's M outside its groups) is free.
 *
 * Deterministic (a fixed walk, no clock), so every machine gets the same
 * network; every change is checked on every row. Internal to sat/choose. */
#ifndef GG_SAT_CHOOSE_RESUB_H
#define GG_SAT_CHOOSE_RESUB_H

#include "circuit.h"
#include "net.h"
#include "truth.h"

/* A LUT3 final stage (right on t's care rows) made smaller; other
 * libraries' networks are left as they are. Returns the gates saved. */
int gg_choose_resub_final(gg_net *net, const gg_tt *t);

/* A LUT3 final stage over front's outputs made smaller on the rows the
 * front gives for every neighbourhood of rule (15 inputs for
 * rowsum+cells, more than a table holds). Returns the gates saved (0 for
 * other libraries' networks). */
int gg_choose_resub_over(const gg_rule *rule, const gg_front *front,
                         gg_net *final);

/* The same for a circuit's final stage. */
int gg_choose_resub_circuit(gg_circuit *c);

#endif
