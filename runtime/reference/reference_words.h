/* A second reference for the checks that need answers soon: outer-
 * totalistic rules 64 cells at a time (neighbour counts in bit-sliced
 * counters, then the rule's birth and survival counts), straight from the
 * rule's definition like runtime/reference/reference.h and independent of every
 * network and emitter. It exists because the per-cell reference made a
 * cached GPU run wait 1.6 s for its validation cases (H100 host, 16
 * cores, BENCHMARKS.md session 13). tests/test_reference.c checks it
 * against the per-cell reference on every neighbourhood, topology, width
 * remainder and random rules, B0 included. */
#ifndef GG_REFERENCE_WORDS_H
#define GG_REFERENCE_WORDS_H

#include <stdbool.h>

#include "grid.h"
#include "rule.h"

/* Whether it runs this rule: two-state, outer-totalistic (Hensel and MAP
 * rules are left to the per-cell reference). */
bool gg_reference_words_takes(const gg_rule *rule);

/* One generation from in to out (same size, distinct), rows shared among
 * OpenMP threads. topo: GG_TOPO_TORUS or GG_TOPO_PLANE. */
void gg_reference_words_step(const gg_rule *rule, gg_topo topo,
                             const gg_grid *in, gg_grid *out);

#endif
