/* Larger than Life rules (gen/rules/rule_ltl.h) as CUDA C: the template
 * templates/cudaltl/kernel.cu.in (running sums of the box or of the
 * diamond's two diagonal classes, cost per cell flat in R) with the
 * rule's constants and its S and B ranges as comparisons with constants.
 * The kernel serves every grid, so the rule is emitted without its
 * :T/:P suffix. Only NM and NN have kernels here: NC (the circle) is
 * refused by name. */
#ifndef GG_EMIT_LTL_CUDA_H
#define GG_EMIT_LTL_CUDA_H

#include <stddef.h>

#include "error.h"
#include "rule_ltl.h"

extern const char gg_template_cudaltl_kernel[];
extern const size_t gg_template_cudaltl_kernel_len;

/* The kernel's CUDA C in *src (malloc'd, *len bytes, NUL-terminated). */
int gg_ltl_emit_cuda(const gg_ltl_rule *rule, char **src, size_t *len,
                     gg_err *err);

#endif
