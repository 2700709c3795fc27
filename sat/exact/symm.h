/* Properties of a target function that make exact synthesis cheaper:
 * which inputs it must read, and which inputs it treats alike. */
#ifndef GG_SAT_SYMM_H
#define GG_SAT_SYMM_H

#include <stdbool.h>

#include "truth.h"

/* Inputs that any network must read: some pair of care rows differs only
 * in that input and disagrees. Returns how many; essential[] may be NULL. */
int gg_symm_essential(const gg_tt *f, bool *essential);

/* Groups inputs that f treats alike: i and j share a class when swapping
 * them maps care rows to care rows with the same value. Transpositions
 * that are symmetries generate a full symmetric group on each class, so a
 * network may use the inputs of a class in any order we like.
 * class_of[i] is the smallest input of i's class. Returns the number of
 * classes. */
int gg_symm_classes(const gg_tt *f, int *class_of);

/* Whether swapping inputs i and j leaves f and its care set unchanged. */
bool gg_symm_swap_ok(const gg_tt *f, int i, int j);

/* Disjoint-or-not decomposition on the care set: whether some h and F
 * give f(x) = F(h(x restricted to s), x restricted to r) on every care row
 * (s, r: input masks). Exact with don't-cares: per value of the shared
 * inputs s & r, assignments of s \ r that disagree on some column of r \ s
 * must get different h values, and two values suffice exactly when that
 * conflict graph is bipartite. Inputs in neither mask must not matter. */
bool gg_symm_decomposable(const gg_tt *f, unsigned s, unsigned r);

/* Decomposability only grows with s and r (h and F may ignore inputs), so
 * the pairs that are not decomposable are closed downwards and the maximal
 * ones say it all. Writes up to cap maximal non-decomposable pairs
 * (pairs[i][0] = s, pairs[i][1] = r) and returns how many were written;
 * functions of more than GG_SYMM_DECOMP_MAX_INPUTS inputs get none (each
 * pair is only ever used to exclude networks, so fewer is always sound). */
#define GG_SYMM_DECOMP_MAX_INPUTS 9
int gg_symm_nondecomp(const gg_tt *f, unsigned (*pairs)[2], int cap);

/* The same with h of `colours` values (2: one gate's output; 4: the pair
 * of outputs of a two-exit cone, f = F(h1(x|s), h2(x|s), x|r)): per value
 * of s & r the conflict graph must be colourable with that many colours.
 * Exact 4-colouring is by backtracking over the (at most 2^|s \ r|)
 * distinct assignments; past a step limit it answers true, the weaker
 * claim. gg_symm_nondecomp_k: maximal pairs that fail, as above. */
bool gg_symm_decomposable_k(const gg_tt *f, unsigned s, unsigned r,
                            int colours);
int gg_symm_nondecomp_k(const gg_tt *f, int colours, unsigned (*pairs)[2],
                        int cap);

#endif
