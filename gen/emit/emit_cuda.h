/* The CUDA C target, and the pieces the GPU emitters (CUDA, PTX, OpenCL)
 * share.
 *
 * The rule's network is pasted into templates/cuda/kernel.cu.in: the row
 * net (features of one word row from its west, centre and east words) and
 * the final stage as lop3.b32, both as inline functions; the template holds
 * the memory movement (warp windows, multistep pipeline, shuffles). The
 * source compiles with NVRTC or nvcc; its header comment documents the
 * kernels' arguments and the device layout. */
#ifndef GG_EMIT_CUDA_H
#define GG_EMIT_CUDA_H

#include <stddef.h>

#include "circuit.h"
#include "gen_nets.h"
#include "emit_net.h"
#include "error.h"
#include "rule.h"

/* Most generations one launch of the GPU kernels advances: windows lose
 * one cell per generation at each edge and keep 16-bit halves. */
#define GG_GPU_TMAX 16

/* Rows a task of the PTX interior copy reads past its strip without the
 * torus wrap: T above, and below T levels lagging two rows each plus the
 * rows loaded ahead (at most 8). The CUDA backend keeps this many ghost
 * rows above and below the grid (autotune.h, gg_gpu_geom). */
#define GG_GPU_GHOST_TOP GG_GPU_TMAX
#define GG_GPU_GHOST_BOTTOM (2 * GG_GPU_TMAX + 8)

extern const char gg_template_cuda_kernel[];
extern const size_t gg_template_cuda_kernel_len;

/* The kernel source from a given (LUT3) circuit, unchecked
 * (runtime/backends/kernel_source.h picks a rule's): malloc'd, NUL-terminated, *len
 * bytes. Tests feed it broken networks to see validation refuse the
 * kernel. gen: a Generations rule's per-cell stage, NULL for two states
 * (the circuit is then the two-state rule B/S of the alive plane). */
int gg_emit_cuda_circuit(const gg_circuit *c, const gg_gen_nets *gen,
                         char **src, size_t *len, gg_err *err);

/* ---- shared by the GPU emitters ---- */

/* GG_NF / GG_NF_ARR, then gg_row_net(w, c, e, f) and
 * gg_final(fa, fb, fc, ca, cb, cc) (features and cells of rows y-1, y,
 * y+1) in C syntax; qual prefixes both functions. */
int gg_emit_c_like_nets(gg_sbuf *b, const gg_kplan *p, const gg_emit_ops *ops,
                        const char *qual, gg_err *err);

/* One header comment paragraph: rule, network sizes and source. */
void gg_emit_gpu_header(gg_sbuf *b, const gg_circuit *c, const gg_kplan *p,
                        const char *target, const char *tmpl);

#endif
