/* Front ends: the fixed part of a circuit that reduces a cell's neighbourhood
 * to the few inputs of the rule-specific final stage.
 *
 * GG_FRONT_ROWSUM (the default) adds each row of the neighbourhood
 * horizontally: a row of three cells becomes (sum, carry) by one full adder,
 * a row of two by a half adder, a single cell passes through. The middle row
 * includes the centre when its row is full (Moore, von Neumann), so in a
 * kernel the three row sums of one word row are computed once and reused by
 * the three output rows that read them. The centre is always the last
 * final-stage input.
 * GG_FRONT_NONE passes the neighbours and the centre straight through (the
 * seed-000 form).
 * GG_FRONT_ROWSUM_LR (Moore only) sums the top and bottom rows as 3-sums
 * but keeps the middle row's W and E apart (inputs sT cT L R sB cB C): a
 * kernel computes one 3-sum per word row (2 LUTs, shared by the output rows
 * above and below) and the final stage sees all 128 rows as care rows,
 * with 48 input symmetries (any order of sT L R sB, swap cT cB).
 * GG_FRONT_ROWSUM_CELLS (Moore only) gives the rowsum outputs and then the
 * eight neighbours: a rule whose arrangement matters as a totalistic rule
 * on the row sums corrected by a function of the cells (sat/choose/choose.h).
 * Its 15 outputs are more than a truth table holds, so its final stage is
 * composed, never synthesized from a table. */
#ifndef GG_FRONT_H
#define GG_FRONT_H

#include "net.h"
#include "rule.h"
#include "truth.h"

typedef enum gg_front_kind {
    GG_FRONT_ROWSUM,
    GG_FRONT_NONE,
    GG_FRONT_ROWSUM_LR,
    GG_FRONT_ROWSUM_CELLS,
    GG_FRONT_KIND_COUNT
} gg_front_kind;

typedef struct gg_front {
    gg_front_kind kind;
    gg_nbhd nbhd;
    /* Inputs: the rule table's inputs (neighbours in offset order, then the
     * centre). Outputs: the final stage's inputs. */
    gg_net net;
    char names[GG_NET_MAX_OUTPUTS][8]; /* final-stage input names: sT, cT, .. */
    gg_lib lib;
    /* Front gates a kernel spends per output word: when every row of the
     * neighbourhood sums the same columns (Moore) one row sum is computed
     * per word row and read by three output rows, so it costs one row sum;
     * otherwise every gate counts. Shifts are not included. */
    int gates_per_word;
    bool rows_shared;
} gg_front;

/* The front in 3-input LUTs (gg_front_build) or in a given library. */
int gg_front_build(const gg_rule *rule, gg_front_kind kind, gg_front *f,
                   gg_err *err);
int gg_front_build_lib(const gg_rule *rule, gg_front_kind kind, gg_lib lib,
                       gg_front *f, gg_err *err);

/* The final stage's function: for every neighbourhood assignment, the front's
 * outputs pick a row that must give the rule's next state; rows no
 * assignment reaches are don't-cares. Fails if the front loses information
 * the rule needs (two assignments, same row, different next state). */
int gg_front_final_tt(const gg_rule *rule, const gg_front *f, gg_tt *final,
                      gg_err *err);

/* The front a rule's kernels use: the row sums when the rule is
 * totalistic, else the cells themselves (an arrangement-dependent rule
 * needs them: Hensel and MAP rules). */
gg_front_kind gg_front_for_rule(const gg_rule *rule);

const char *gg_front_name(gg_front_kind kind);
int gg_front_parse(const char *name, gg_front_kind *kind, gg_err *err);

#endif
