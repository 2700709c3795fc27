/* golgen serve: what steps the world, per family: an open backend for
 * two-state and Generations rules (runtime/backends/backend.h), a rule
 * table's compiled kernel (table_kernel.h; the reference when none
 * opens and the backend was not named), a Larger than Life or 3D
 * backend (backend_ltl.h, backend3d.h). Each is the one golgen run takes
 * for that backend name (auto: the fastest that opens). A rule table on
 * the unbounded plane is stepped by the hash tree (runtime/engines/
 * hashlife.h), as golgen run steps it: each batch the world's cells go
 * in, the tree runs, and the cells come back out (the tree and what it
 * memoized stay between batches). */
#ifndef GG_SERVE_STEP_H
#define GG_SERVE_STEP_H

#include "backend.h"
#include "backend3d.h"
#include "backend_ltl.h"
#include "config.h"
#include "hashlife.h"
#include "serve_world.h"
#include "table_kernel.h"

typedef struct sv_stepper {
    sv_family family;
    gg_backend *b;       /* SV_LIFE, SV_GEN */
    sv_rule rule;        /* SV_TABLE: the rule file the kernel reads */
    gg_table_kernel k;   /* k.step NULL: the reference */
    /* SV_TABLE on the unbounded plane: the hash tree, whose leaves k (or
     * the reference) steps, as golgen run's auto takes it; made at the
     * first step (its leaf size is the pattern's) */
    bool tree;
    gg_hl *h;
    bool tree_holds;     /* the tree holds the world's cells as of ... */
    uint64_t tree_edits; /* ... this edit count and generation */
    int64_t tree_gen;
    double overhead;     /* seconds the last step spent moving cells
                            between the world and the tree */
    gg_backend_ltl *l;
    gg_backend3d *d;
    char name[64];       /* what the page shows */
} sv_stepper;

/* Open for rule (copied; a table's file referenced); info NULL: auto. */
int sv_stepper_open(sv_stepper *st, const sv_rule *rule,
                    const gg_backend_info *info, const gg_config *cfg,
                    gg_err *err);
/* n generations of w, whose rule st was opened for; edits: a count that
 * changes with every change to w but a step (the tree then takes the
 * cells again). */
int sv_stepper_advance(sv_stepper *st, sv_world *w, int64_t n,
                       uint64_t edits, gg_err *err);
void sv_stepper_close(sv_stepper *st);

#endif
