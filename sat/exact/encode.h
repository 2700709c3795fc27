/* CNF for "k gates of a library compute f on its care rows".
 *
 * Variables (Kojevnikov-Kulikov-Yaroslavtsev 2009, Knuth 7.1.2, percy):
 * per gate a choice among its fanin sets (one variable per set, so that a
 * choice ties the gate's simulation straight to constant input values),
 * per gate a function normalized to f(0) = 0, per gate and added row a
 * simulation variable, and one output polarity. Normalization loses nothing: a LUT
 * absorbs the inversion of any of its inputs, and and/or/xor/andnot are
 * exactly the normalized 2-input functions that read both inputs. The
 * polarity is free for lut3 (folded into the last LUT) and pinned for
 * gate2 to f(all-zero row), so a gate2 network inverts its output only when
 * the function forces it (B0 rules); callers count that as one NOT.
 *
 * With a shape, gate fanins are fixed and slots left open choose among the
 * primary inputs; without one, every slot chooses among all earlier
 * signals. Symmetry breaking: the symmetries used are the input
 * transpositions that leave f alone and the swaps of twin gates in a shape
 * (same fanin gates, same readers). Order networks by their fanin-set
 * choices, gate 0 first; each rule below holds for the least network of
 * every orbit, so they are sound together:
 * - a fanin set lists its sources in increasing order;
 * - every gate reads at least 2 of its slots (all, for gate2); with a shape,
 *   every gate fanin must matter too (otherwise a smaller shape or a
 *   network of fewer gates does the same job);
 * - without a shape, every gate but the last is read;
 * - with a shape, a gate read only by gate j does not read everything else
 *   j reads (j would then be one LUT over the gate's fanins: Knuth's
 *   "no re-applied gates");
 * - inputs f treats alike are first used in index order;
 * - of two twin gates, the earlier one takes the smaller fanin set;
 * - with spec.automorphisms, for every automorphism of the shape, the
 *   first gate it moves takes a fanin set no larger than that of the gate
 *   mapped onto it (see enc_order_automorphisms() in encode_prune.c; twin
 *   swaps are the automorphisms of two gates).
 * And some that any network of fewest gates meets: every input f depends
 * on is read; no gate is redundant (see the three rules above).
 * And one that every network computing f meets (with a shape): where a
 * gate's cone is closed (see enc_decomposition() in encode_prune.c), the
 * inputs read inside and outside it form a decomposition
 * f = F(h(inside), outside) on the care rows, so they cannot be a
 * non-decomposable pair of spec.nd. Likewise for a set of gates with two
 * exits (see enc_two_exit() in encode_prune.c):
 * f = F(h1(inside), h2(inside), outside), excluded by the pairs of
 * spec.nd4 (the 4-colour test).
 * And, with spec.diff and a shape, the difference clauses (see
 * differences() in encode.c), which every network meets: for two care rows
 * on which f differs, a gate that differs on them has a fanin that does,
 * so a path of differing gates runs from the output down to an input the
 * rows differ in. They are implied by the simulation clauses, but only
 * through the gate functions; stated outright (for rows at most
 * GG_ENC_DIFF_DIST inputs apart) they cut the conflicts of lut3 k = 6
 * shapes of Life-like final stages 4-8x (issue 18).
 * Rows are added one by one (gg_enc_add_row), which is how the search adds
 * counterexample rows lazily. */
#ifndef GG_SAT_ENCODE_H
#define GG_SAT_ENCODE_H

#include "cms.h"
#include "net.h"
#include "shape.h"

#define GG_ENC_MAX_GATES 24

/* Bump whenever a rule above changes which networks a shape's CNF admits:
 * per-shape UNSAT results recorded under one version (sat/exact/proof.h) are
 * sound together only with results under the same rules. */
#define GG_ENC_PRUNING_VERSION 2

/* Records of versions from this one on are still proofs (sat/exact/proof.h):
 * version 2 added clauses only (the difference clauses, which every
 * network meets, and the automorphism ordering, which the least network
 * of every orbit meets, like every other rule), so each shape's CNF
 * admits a subset of what version 1 admitted, and a shape version 1
 * found empty is empty now. Raise it to the current version when a
 * change admits a network that an older version did not. */
#define GG_ENC_PRUNING_COMPAT 1

/* Difference clauses (gg_enc_add_row) go to pairs of rows at most this
 * many inputs apart: rows further apart give weak clauses (many inputs to
 * choose from) at the same cost. Measured on lut3 shapes (issue 18): 1 or
 * 2 about halve the CPU of Life's k=5 and cut B136/S1256's k=6 shapes
 * 5-13x; all pairs cost more than they save on small shapes. */
#define GG_ENC_DIFF_DIST 2

typedef struct gg_enc gg_enc;

/* Networks a CNF admits beyond computing f, for questions such as "can
 * two output rows share gates" (research/prefix_share.c). All zero: no
 * restriction. gg_synth_opts and gg_kjob_in pass one through whole. */
typedef struct gg_enc_limits {
    const uint32_t *forbid; /* per gate, signals (inputs, then gates) it
                               must not read, or NULL; twin gates with
                               different masks are not ordered (pass
                               class_of NULL too: input symmetries need
                               not respect it) */
    const int *swap;        /* an involution of the inputs, or NULL ... */
    int n_closed;           /* ... under which gates 0 .. n_closed-1 (at
                               most 4) form a closed set up to complement:
                               on every pair of added rows r, swap(r) some
                               involution p of them and complements c have
                               gate p(i) on swap(r) = gate i on r ^ c_i.
                               Checked only on rows added so far: an UNSAT
                               is a proof, a network must be re-checked */
    bool order_groups;      /* free topology: of two adjacent gates with
                               the same forbid mask, neither an output,
                               where the second does not read the first,
                               the first takes the lexicographically
                               smaller fanin set (they could trade
                               places) */
    const gg_tt *f2;        /* a second output: gate out2 computes f2 on
                               its care rows (rows come from f's care set,
                               so f's must cover f2's), or NULL */
    int out2;
} gg_enc_limits;

typedef struct gg_enc_spec {
    const gg_tt *f;
    gg_lib lib;
    int k;
    const gg_shape *shape; /* NULL: free topology */
    const int *class_of;   /* gg_symm_classes() output, or NULL */
    const unsigned (*nd)[2]; /* gg_symm_nondecomp() pairs, or NULL */
    int n_nd;
    const unsigned (*nd4)[2]; /* gg_symm_nondecomp_k(.., 4, ..) pairs, or NULL */
    int n_nd4;
    gg_enc_limits lim; /* restrictions beyond computing f; {0}: none */
    bool diff;         /* add the difference clauses (shapes only) */
    bool automorphisms; /* order gates a shape automorphism exchanges */
    int diff_dist;     /* ... for rows this many inputs apart at most;
                          0: GG_ENC_DIFF_DIST; < 0: all pairs */
    /* A free function instead of f's values (lut3 only): keys[r] names
     * row r's class, and the network's output on a row is one free
     * variable per class (gg_enc_key_var), so a model is a network for
     * some function constant on each class, e.g. some Life-like rule
     * when the classes are (neighbour count, centre). f then gives only
     * the care rows and the inputs to read (gg_symm_essential); class_of
     * and the difference clauses (rows of different classes) must hold
     * for every function meant, and nd / nd4 must be NULL. An UNSAT then
     * holds for each of those functions at once (research/shape_lemmas.c
     * asks every shape). NULL: f's values. */
    const uint8_t *keys;
    int n_keys;
} gg_enc_spec;

/* Builds the row-independent part of the CNF into s. NULL on error. */
gg_enc *gg_enc_new(const gg_enc_spec *spec, gg_sat *s, gg_err *err);
void gg_enc_free(gg_enc *e);

/* Adds the clauses that make the network compute f on care row r. */
void gg_enc_add_row(gg_enc *e, int r);

/* The literal of gate i's value on added row r (0 if r is not added):
 * for callers that add their own clauses, e.g. to exclude a network's
 * functions and enumerate the rest (research/prefix_share.c). */
int gg_enc_gate_lit(const gg_enc *e, int i, int r);

/* Gate i's fanin choices, for callers that split one shape's CNF into
 * cubes (research/shape_cubes.c): gg_enc_options is how many there are
 * (0 for a bad i); gg_enc_option gives choice o's selection variable and,
 * when src is not NULL, its sources in slot order (inputs 0..n-1, then
 * gate j as n+j; gg_enc_option_slots of them). Every model sets at least
 * one selection variable of every gate true (a clause of the CNF), so the
 * cubes "choice o of gate i" over all o cover every model. */
int gg_enc_options(const gg_enc *e, int i);
int gg_enc_option_slots(const gg_enc *e, int i);
int gg_enc_option(const gg_enc *e, int i, int o, int *src);

/* The variable of gate i's output for slot values b, 1 <= b <
 * 2^gg_enc_option_slots (b = 0 is the constant 0 of normalization): the
 * same research programs split on a gate's function. */
int gg_enc_fn_var(const gg_enc *e, int i, int b);

/* The output's variable for class `key` of spec.keys (0 without keys). */
int gg_enc_key_var(const gg_enc *e, int key);

/* The network in the solver's last model. */
int gg_enc_decode(const gg_enc *e, gg_net *net, gg_err *err);

#endif
