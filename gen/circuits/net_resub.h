/* A LUT3 network made smaller without a solver, by resubstitution.
 *
 * A gate's fanout-free cone (the gates that go when it does) is replaced
 * by at most one new LUT3 over signals the network keeps anyway
 * (divisors: inputs and earlier gates outside the cone) when three of
 * them fix the gate's value on every care row where that value reaches
 * the output; one or none when a divisor (or its complement, absorbed by
 * the readers' LUTs) or a constant does. A decision diagram's network
 * shares its nodes, so a node's own cone is small, but neighbouring
 * nodes often compute it in other words (a random isotropic rule's
 * diagram of about 69 LUTs comes out at 53-63, gen/circuits/net_rowdd.h).
 * A divisor may come after the gate (one that does not read it): the
 * gates are then laid out again.
 *
 * Every candidate is checked on every care row (a table over all rows,
 * no sampling) and the whole network again after each change; the
 * search is a fixed walk, so every machine gets the same network. */
#ifndef GG_NET_RESUB_H
#define GG_NET_RESUB_H

#include "net.h"
#include "truth.h"

/* net (one output, LUT3 gates only, right on t's care rows) made smaller
 * in at most `passes` walks over its gates (0: GG_RESUB_PASSES). Returns
 * the gates saved (0: net untouched), or -1 with err when net is not such
 * a network. */
int gg_net_resub(gg_net *net, const gg_tt *t, int passes, gg_err *err);

#define GG_RESUB_PASSES 4
#define GG_RESUB_MAX_INPUTS 16

/* The rows a network must be right on, given by their input values rather
 * than as every row of a table: a final stage over a front's outputs
 * (rowsum+cells has 15, more than a truth table holds) is right when it
 * is right on the rows the front gives, 512 for a Moore rule. */
typedef struct gg_resub_rows {
    int n_inputs, n_rows; /* n_rows <= 64 * GG_TT_WORDS */
    uint64_t in[GG_RESUB_MAX_INPUTS][GG_TT_WORDS]; /* bit k: row k's input */
    uint64_t on[GG_TT_WORDS], care[GG_TT_WORDS];
} gg_resub_rows;

/* t's rows pushed through `front` (a network over t's inputs): the rows
 * its outputs take, each wanting t's value there (care where t cares). */
int gg_resub_rows_through(const gg_net *front, const gg_tt *t,
                          gg_resub_rows *rows, gg_err *err);

/* gg_net_resub on those rows (net over rows->n_inputs inputs). */
int gg_net_resub_rows(gg_net *net, const gg_resub_rows *rows, int passes,
                      gg_err *err);

#endif
