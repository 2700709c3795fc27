/* One CNF for every lut3 network shape of k gates, a shape chosen by
 * assumptions (issue 18: one incremental solver per k instead of one fresh
 * solver per shape, so that what the solver learns about f carries over
 * from shape to shape).
 *
 * Each gate i has a wiring variable w[i][j] per earlier gate j ("gate i
 * reads gate j"), an input-tuple choice of each size p = 0..3 (the same
 * sorted tuples, in the same order, as the per-shape CNF lists for a gate
 * of p input slots), its function and its simulation values. A shape is
 * the cube that fixes every w[i][j]; the slots left open read p =
 * 3 - |gate fanins| distinct inputs, input slots first, then the fanin
 * gates in increasing order, exactly as sat/exact/encode.c orders a shape's
 * slots. Under the cube of shape S, the clauses of every option whose
 * gate set is not S's are satisfied, and what is left is the per-shape
 * CNF of S (sat/exact/encode.h, with difference clauses) gate for gate:
 * - the rules every network meets (simulation, essential reads, input
 *   symmetry, difference clauses: their "gate j differs" literal is
 *   taken through u = w[i][j] & d[j]) are stated once for all shapes;
 * - the rules that hold on some shapes only (closed cones and two-exit
 *   sets, re-applied gates, twin and automorphism order) are guarded by
 *   an activation literal, and uc_cube assumes those literals that
 *   the per-shape CNF of S would state (sat/exact/encode.c's tests on S).
 * So "UNSAT under S's cube" says the same as "S's CNF is UNSAT" under the
 * same pruning rules (GG_ENC_PRUNING_VERSION), and the proof records of
 * sat/exact/proof.h would hold for it unchanged. Only lut3 and 3 or more
 * inputs. Measured against one solver per shape (research/shape_union.c,
 * BENCHMARKS.md "Proof speed: one incremental solver per k"): 1.2x on
 * k<=5, 0.5-1.2x on k=6 blocks with hard shapes,
 * so golgen does not use it. sat/exact/encode.c's rules are copied here, not
 * shared: a change there must be made here too before comparing. */
#ifndef GG_RESEARCH_UNION_CNF_H
#define GG_RESEARCH_UNION_CNF_H

#include <stdbool.h>

#include "cms.h"
#include "net.h"
#include "shape.h"

typedef struct uc_cnf uc_cnf;

typedef struct uc_spec {
    const gg_tt *f;
    int k;
    const int *class_of;      /* gg_symm_classes() output, or NULL */
    const unsigned (*nd)[2];  /* gg_symm_nondecomp() pairs, or NULL */
    int n_nd;
    const unsigned (*nd4)[2]; /* gg_symm_nondecomp_k(.., 4, ..), or NULL */
    int n_nd4;
    bool diff;                /* difference clauses (gg_enc_spec.diff) */
    bool automorphisms;       /* gg_enc_spec.automorphisms */
    int diff_dist;            /* gg_enc_spec.diff_dist */
} uc_spec;

/* The shape-independent part of the CNF into s. NULL on error. */
uc_cnf *uc_new(const uc_spec *spec, gg_sat *s, gg_err *err);
void uc_free(uc_cnf *u);

/* Adds the clauses that make the network compute f on care row r (and
 * the difference clauses of r with the rows added before). */
void uc_add_row(uc_cnf *u, int r);

/* The assumptions that select shape sh (sh->k == spec.k, arity 3) into
 * lits (at most uc_cube_max()); may add the guarded clauses of an
 * activation literal on its first use. Returns the count. */
int uc_cube(uc_cnf *u, const gg_shape *sh, int *lits);
int uc_cube_max(const uc_cnf *u);

/* A literal that, assumed, selects "one of shapes v[0..n-1]" (each
 * shape's selector implies its cube): one solve then decides the whole
 * group. Returns 0 and fills *lit, or -1 when out of memory.
 * uc_which tells the shape of the last model (index in v). */
int uc_group(uc_cnf *u, const gg_shape *v, int n, int *lit,
                   gg_err *err);
int uc_which(const uc_cnf *u, const gg_shape *v, int n);

/* The network in the solver's last model. */
int uc_decode(const uc_cnf *u, gg_net *net, gg_err *err);

#endif
