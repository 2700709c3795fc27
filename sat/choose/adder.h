/* A quick good network for a totalistic final stage, used as the upper
 * bound that exact synthesis then has to beat: add the weighted inputs with
 * full and half adders until four (or five: the cheaper wins) count bits
 * are left, then synthesize the small rest (count bits and centre -> next
 * state) exactly.
 *
 * Input weights come from the front's names: sX is a row sum (1), cX a row
 * carry (2), the last input is the centre, a name starting with '=' is not
 * counted but read by the rest beside the centre (at most two: the gated
 * correction's m, sat/choose/choose_gated.c), any other name is one cell (1).
 * The construction checks that f really is a function of the weighted
 * count, the uncounted inputs and the centre and fails otherwise. The exact rest gets at most
 * `seconds` (<= 0: 60 s for a wide rest, 30 s otherwise); short of time it
 * keeps the best rest found, so the network is always right; so it does
 * when *cancel is set (Ctrl-C; cancel may be NULL). Built without the
 * solver, the rest is a decision diagram (gen/circuits/net_build.h).
 *
 * LUT3 networks are also tried with a 6-input rest after one full adder
 * (over the row sums and, given seconds, over the row carries), each
 * searched only for a network cheaper than the best so far and than beat
 * (> 0: a known network's cost, e.g. the cache's; 0: none). */
#ifndef GG_SAT_ADDER_H
#define GG_SAT_ADDER_H

#include "front.h"
#include "synth.h"

int gg_adder_net(const gg_front *front, const gg_tt *f, gg_lib lib,
                 double seconds, int beat, volatile sig_atomic_t *cancel,
                 gg_net *net, gg_err *err);

/* The same within a budget of solver work rather than time, on one thread
 * (gg_synth_opts.work_limit, for each of the rest's searches): the same
 * network on every machine, as emitters need for a rule with no cache
 * entry. seconds only guards against the pathological. */
int gg_adder_net_repro(const gg_front *front, const gg_tt *f, gg_lib lib,
                       uint64_t work, double seconds, gg_net *net,
                       gg_err *err);

#endif
