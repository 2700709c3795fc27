/* The OpenCL C target: the rule's 2-input gate network (OpenCL C has no
 * LUT3; GPU compilers fuse the gates into their own) pasted into
 * templates/opencl/kernel.cl.in, which runs several generations per launch
 * in local memory. Same device layout as the CUDA target. */
#ifndef GG_EMIT_OPENCL_H
#define GG_EMIT_OPENCL_H

#include <stddef.h>

#include "circuit.h"
#include "gen_nets.h"
#include "error.h"
#include "rule.h"

extern const char gg_template_opencl_kernel[];
extern const size_t gg_template_opencl_kernel_len;

/* Most generations one gg_step launch advances (GG_TMAX in the kernel). */
#define GG_OPENCL_TMAX 16
#define GG_OPENCL_TILE_ROWS 64 /* GG_TR */
#define GG_OPENCL_LY 8         /* GG_LY */

/* From a given circuit (any library without LUT3), unchecked; gen: a
 * Generations rule's per-cell stage (NULL for two states). */
int gg_emit_opencl_circuit(const gg_circuit *c, const gg_gen_nets *gen,
                           char **src, size_t *len, gg_err *err);

#endif
