/* A LUT3 network for a small table with many free rows, without a
 * solver: decision diagrams over several variable orders, each
 * resubstituted (gen/circuits/net_resub.h), and the cover grown into the
 * free rows (gen/circuits/net_sop.h), resubstituted too; the few
 * smallest are then rewritten (gen/circuits/net_rewrite.h) and the
 * smallest of those kept.
 *
 * A decision diagram's size swings with its order (B2ce3aei/S23-a's
 * count-2/3 part over eight signals, sat/choose/choose_count23.c: 37-66
 * LUTs by order, 14-21 once resubstituted, 12 rewritten), and reading
 * the free rows as 0 or as 1 gives different diagrams again. The orders
 * are a fixed pseudo-random sequence, so every machine builds the same
 * network; every candidate is checked on every care row by the
 * resubstitution and the rewriting. */
#ifndef GG_NET_ORDERS_H
#define GG_NET_ORDERS_H

#include "net.h"
#include "truth.h"

/* One-output LUT3 network over t's inputs (at most 8) computing t on its
 * care rows, the smallest of `tries` orders (0: GG_ORDERS_TRIES; about
 * 0.4 s for 256 orders of eight inputs on the 2-core VM). 0, or -1 with
 * err. */
int gg_net_build_orders(const gg_tt *t, int tries, gg_net *net, gg_err *err);

#define GG_ORDERS_TRIES 256
#define GG_ORDERS_MAX_INPUTS 8
/* how many of the smallest are rewritten (gen/circuits/net_rewrite.h) */
#define GG_ORDERS_KEEP 8

#endif
