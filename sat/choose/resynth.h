/* Shrinks a network by exact synthesis of small windows.
 *
 * A window is a gate and the gates only it (transitively) reads, grown
 * towards the inputs while it reads at most `leaves` signals: all of its
 * gates go when it is replaced, and nothing outside reads them. Its root is
 * re-synthesized over those leaves with fewer gates, as a table whose free
 * rows are the leaf combinations no care row of the target produces and
 * the rows where the root does not reach the output. Each accepted
 * replacement keeps the network right on every care row; passes repeat
 * until one finds nothing.
 *
 * A root whose window does not shrink is then rebuilt over divisors:
 * up to 4 signals the network keeps anyway (inputs, earlier gates outside
 * the root's fanout-free cone) that fix its value on the observed care
 * rows; the replacement wins when it has fewer gates than that whole cone.
 *
 * When no single root shrinks, pairs of roots are tried: r2 and an
 * earlier r1 that is also read elsewhere, with every gate that goes when
 * both do, re-solved as one two-output network.
 *
 * This finds networks, it proves nothing: it improves the upper bound that
 * the exact search over the whole table then has to beat. */
#ifndef GG_SAT_RESYNTH_H
#define GG_SAT_RESYNTH_H

#include <signal.h>

#include "net.h"
#include "truth.h"

typedef struct gg_resynth_opts {
    gg_lib lib;
    int leaves;           /* most signals a window reads; 0 = 6 */
    double window_seconds; /* search time per window; <= 0: 2 */
    double time_limit;     /* wall seconds in all; <= 0: none */
    bool no_divisors;      /* no resubstitution */
    bool no_pairs;         /* no two-root windows */
    volatile sig_atomic_t *cancel; /* set to stop (Ctrl-C); may be NULL */
} gg_resynth_opts;

/* net (one output, in lib, right on f's care rows) made smaller where
 * windows allow; returns the gates saved, or -1 with err on bad input. */
int gg_resynth(gg_net *net, const gg_tt *f, const gg_resynth_opts *o,
               gg_err *err);

#endif
