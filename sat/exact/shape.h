/* Network shapes: which gates feed which, with the primary inputs left
 * open. Exact synthesis splits the search over shapes (percy's "fence"
 * families): each shape gives a small CNF in which the solver only picks
 * primary inputs and gate functions, and most shapes fail fast.
 *
 * Gate i of a shape has arity fanin slots; fanin[i] is the set of earlier
 * gates it reads (bit j = gate j), the remaining slots read primary inputs.
 * Gate k-1 is the output and every other gate feeds a later one. Shapes
 * are listed once per isomorphism class. */
#ifndef GG_SAT_SHAPE_H
#define GG_SAT_SHAPE_H

#include <stdint.h>

#include "error.h"

#define GG_SHAPE_MAX_GATES 12

typedef struct gg_shape {
    int k;
    int arity;
    uint16_t fanin[GG_SHAPE_MAX_GATES];
} gg_shape;

/* All shapes of k gates of the given arity with at least min_pi_slots
 * primary-input slots. *out is malloc'd (free it); returns the count or -1. */
int gg_shape_enum(int k, int arity, int min_pi_slots, gg_shape **out,
                  gg_err *err);

/* Primary-input slots of gate i. */
int gg_shape_pi_slots(const gg_shape *s, int i);

#endif
