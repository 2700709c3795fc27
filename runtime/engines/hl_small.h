/* Leaf squares of 4x4 leaves stepped through a memo of 4x4 windows'
 * centres one generation on (hl_small.c): for hl_step.c's batches of a
 * stepped rule's (a Golly rule table's) tree. */
#ifndef GG_HL_SMALL_H
#define GG_HL_SMALL_H

#include "hl_tree.h"

/* The tree's batches go through the memo: a stepped rule (its cells read
 * only their 3x3 block and keep state 0 amid 0s) on 4x4 leaves. */
bool hl_small_applies(const gg_hl *h);

/* Whether the next batch of j (0 or 1) goes through the memo, or
 * through the grid (hl_step.c's batch); its clock starts. false also
 * when out of memory (the grid needs none of the memo's). */
bool hl_small_pick(gg_hl *h, int j);
/* The batch picked last for j, of m squares, is done. */
void hl_small_took(gg_hl *h, int j, int64_t m);

/* The m leaf squares of `frames` (queued frames of 2-leaf squares) 2^j
 * generations on (j 0 or 1): their centre leaves' rows, h->lw words each,
 * valid until the next call; NULL when the backend failed or memory ran
 * out (h->err says which). */
const uint64_t *hl_small_step(gg_hl *h, int j, const uint32_t *frames,
                              int64_t m);

/* The memo and its arrays freed (h->small NULL). */
void hl_small_free(gg_hl *h);

#endif
