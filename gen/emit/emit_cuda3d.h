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

/* The final stage the GPU kernels take instead of `net` (the cpu path's,
 * right on gg_c3d_final_tt's care rows) when it has fewer gates: a LUT3
 * network, one lop3 a gate (ptxas fuses a gate2 network's chains into
 * lop3s, but not into the fewest: 3D5..7/6's 15 gate2 gates came to
 * about 6.5 lop3 a word, its LUT3 network is 3). Two LUT3s over the
 * inputs read by a third with one input, searched exhaustively (a 3D
 * final stage's usual shape: the count's low bits against the centre,
 * its middle bits against each other, both and the top bit), else the
 * decision diagram resubstituted (gen/circuits/net_resub.h); `source`
 * (size bytes) then says which. Checked on every care row; 0, or -1 with
 * err (a bug or no memory). */
int gg_cuda3d_lut3_final(const gg_rule3d *rule, gg_net *net, char *source,
                         size_t size, gg_err *err);

#endif
