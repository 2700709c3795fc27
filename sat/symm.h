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

#endif
