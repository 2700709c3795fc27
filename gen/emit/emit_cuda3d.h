/* The 3D CUDA target: a 3D totalistic rule's final stage (the same gate
 * network the C target gets, gen/emit/emit_c3d.h) pasted into
 * templates/cuda3d/kernel.cu.in. The count stages (row, plane and slab
 * sums for Moore; a bitsliced counter for the 6-, 8- and 12-cell
 * neighbourhoods) are the template's; gates print as the template's
 * macros, LUT3 gates as lop3.b32 (ptxas also fuses gate2 chains into
 * lop3). */
#ifndef GG_EMIT_CUDA3D_H
#define GG_EMIT_CUDA3D_H

#include <stddef.h>

#include "error.h"
#include "net.h"
#include "rule3d.h"

extern const char gg_template_cuda3d_kernel[];
extern const size_t gg_template_cuda3d_kernel_len;

/* The kernel source for rule with final stage `final` (a gate2 or LUT3
 * network over gg_c3d_final_tt's inputs), unchecked: the caller vouches
 * for it and validates the compiled kernel. `source` says where the
 * network came from (a comment). malloc'd, NUL-terminated, *len bytes. */
int gg_emit_cuda3d(const gg_rule3d *rule, const gg_net *final,
                   const char *source, char **src, size_t *len, gg_err *err);

#endif
