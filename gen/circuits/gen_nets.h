/* The per-cell stage a Generations kernel adds to a two-state kernel.
 *
 * A Generations rule with C states keeps a cell's state in binary over
 * q = ceil(log2 C) bit planes (runtime/universes/gen_cells.h). Only state-1 cells
 * count as neighbours, so the neighbour count, the front and the final
 * stage are those of the two-state rule B/S run on the "alive" plane
 * A = (state == 1): its output L is "alive next" for a cell in state 0 or 1.
 * What is left is a small function of one cell, no neighbours:
 *
 *   alive: (P0 .. Pq-1) -> A              (state == 1)
 *   post:  (L, P0 .. Pq-1) -> (P0' .. Pq-1', A')
 *          state 0: L ? 1 : 0;  state 1: L ? 1 : 2 (0 when C = 2);
 *          state s >= 2: s + 1, and C - 1 becomes 0.
 *
 * Codes >= C never occur and are don't-cares. For C <= 3 the plane P0 is
 * A itself (code 3 does not exist), so a kernel keeps no separate alive
 * row and `alive` is not used. The networks come from the solver when one
 * is there (sat/choose/choose_gen.c), else from decision diagrams; either way
 * they are verified on every care row before a kernel uses them. */
#ifndef GG_GEN_NETS_H
#define GG_GEN_NETS_H

#include <stdbool.h>

#include "error.h"
#include "net.h"
#include "truth.h"

#define GG_GEN_NETS_MAX_PLANES 8

typedef struct gg_gen_nets {
    int states;    /* C, 3..256 (two states need no extra stage) */
    int planes;    /* q */
    bool a_is_p0;  /* C <= 3: A = P0 */
    gg_net alive;  /* inputs P0..Pq-1, one output */
    gg_net post;   /* inputs L, P0..Pq-1; outputs P0'..Pq-1', A' */
    bool proven;   /* every output proven minimal (gate2) by the solver */
} gg_gen_nets;

/* Truth tables over the nets' inputs (don't-care on codes >= C):
 * output o of post (o = q: A'), and alive. */
void gg_gen_post_tt(int states, int o, gg_tt *t);
void gg_gen_alive_tt(int states, gg_tt *t);

/* Assemble the nets from one single-output gate2 network per output:
 * outs[0..q-1] for P0'..Pq-1', outs[q] for A' (inputs L, P0..), alive
 * (inputs P0..); then verify on every care row. */
int gg_gen_nets_assemble(int states, const gg_net *const *outs,
                         const gg_net *alive, bool proven, gg_gen_nets *g,
                         gg_err *err);

/* Decision-diagram networks for every output (no solver). */
int gg_gen_nets_build(int states, gg_gen_nets *g, gg_err *err);

/* The stage built as a counter: a dying or unsurviving cell adds one
 * (ripple carry), C - 1 wraps to 0, the rest take the two-state output;
 * about 5 gates per plane, all outputs sharing them (decision diagrams
 * and per-output synthesis share nothing: 108 gates for C = 200). */
int gg_gen_nets_counter(int states, gg_gen_nets *g, gg_err *err);

/* Gates a kernel spends per word on the stage. */
int gg_gen_nets_cost(const gg_gen_nets *g);

/* Exhaustive check of both nets against their tables on the care rows. */
int gg_gen_nets_verify(const gg_gen_nets *g, gg_err *err);

/* Extra planes a kernel ring keeps per row beside the alive row: q - 1
 * when A = P0 (P1..), else q (P0..). */
static inline int gg_gen_nets_extra(const gg_gen_nets *g)
{
    return g->a_is_p0 ? g->planes - 1 : g->planes;
}

#endif
