/* B0 rules on the unbounded plane as Golly runs them (gen/rules/rule_b0.c):
 * two rules without B0 that step Golly's stored cells. */
#ifndef GG_RULE_B0_H
#define GG_RULE_B0_H

#include <stdbool.h>

#include "rule.h"

/* The two-state B0 rule r also has S<max> (every neighbour and the centre
 * live stays live): Golly then stores every generation complemented. */
bool gg_rule_b0_smax(const gg_rule *r);

/* The rules that step Golly's stored cells of the two-state B0 rule r
 * from an even generation (even) and from an odd one (odd); the same rule
 * twice when r has S<max>. Neither has B0; both keep r's neighbourhood and
 * topology. even or odd may be r. */
void gg_rule_b0_pair(const gg_rule *r, gg_rule *even, gg_rule *odd);

#endif
