/* What each network shape of a k usually costs to settle, so that the
 * progress lines of a long proof can say honestly how much is left.
 *
 * The shapes of one k differ in cost by orders of magnitude and the hard
 * ones come early in gg_shape_enum's order: after 10% of lut3 k=6's shapes
 * a proof has done about 20% of its work, after half of them 63%. A rate
 * of shapes per second therefore overestimates the time left 1.4-2.5x.
 * But a shape costs nearly the same for every rule (the log-correlation
 * of per-shape conflicts over six rules' whole k=6 proofs is 0.99-1.00),
 * so the mean cost of each shape over a few proofs, measured once
 * (bench/shape_prior.py writes shape_prior_data.c from --trace logs),
 * predicts a new rule's remaining work within 5% from the first 5% on
 * (leave-one-out over those six rules; BENCHMARKS.md, session 17).
 *
 * A table is used only for the very shape list it was measured on: same
 * library, k, count, and gg_proof_shapes_hash (which also covers the
 * encoder's pruning version, under which costs change). */
#ifndef GG_SAT_SHAPE_PRIOR_H
#define GG_SAT_SHAPE_PRIOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net.h"

typedef struct gg_shape_prior {
    gg_lib lib;
    int k;                  /* 0 ends the list */
    uint32_t shapes_hash;   /* gg_proof_shapes_hash of the list measured */
    int n_shapes;
    const uint32_t *cost;   /* per shape: mean conflicts (at least 1) */
} gg_shape_prior;

/* The tables, ended by k = 0 (shape_prior_data.c). */
extern const gg_shape_prior gg_shape_priors[];

/* The table for this shape list, or NULL. */
const gg_shape_prior *gg_shape_prior_find(gg_lib lib, int k, uint32_t hash,
                                          int n_shapes);

/* What proving a whole k impossible usually costs, in units of a lut3
 * k=6 proof (the one a user can watch end: 20-30 minutes on 2 cores,
 * 1-4 on 64), so that an unproven answer can say what its proof needs.
 * times_k6 is a lower bound where at_least is set. */
typedef struct gg_k_cost {
    int k, shapes;
    double times_k6;
    bool at_least;
} gg_k_cost;

/* The cost of lib's k, or NULL where it was not measured (and for lut3's
 * k=6 itself, the unit). */
const gg_k_cost *gg_k_cost_find(gg_lib lib, int k);

#endif
