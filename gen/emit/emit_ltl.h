/* Larger than Life rules (gen/rules/rule_ltl.h) as C: the template
 * templates/cltl/kernel.c.in (bitsliced neighbourhood counts slid along
 * rows and, after a transpose, along columns) with the rule's constants
 * and its count compare emitted as straight-line gates (gg_rule_masks:
 * each S or B range is two comparisons with constants, a gate per bit of
 * the count). The kernel does not depend on the grid, so the rule is
 * emitted without its :T/:P suffix. */
#ifndef GG_EMIT_LTL_H
#define GG_EMIT_LTL_H

#include <stddef.h>

#include "error.h"
#include "rule_ltl.h"

extern const char gg_template_cltl_kernel[];
extern const size_t gg_template_cltl_kernel_len;

/* Bits of the neighbourhood's count (middle included). */
int gg_ltl_count_bits(const gg_ltl_rule *rule);

/* The kernel's source in *src (malloc'd, *len bytes, NUL-terminated). */
int gg_ltl_emit_c(const gg_ltl_rule *rule, char **src, size_t *len,
                  gg_err *err);

#endif
