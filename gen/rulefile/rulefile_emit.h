/* A Golly rule table or tree (gen/rulefile/rulefile.h) as a bitsliced C
 * kernel (templates/ctable/kernel.c.in): states in ceil(log2 n) bit
 * planes, the rule's decision DAG evaluated on whole words of cells at
 * once (a mask per node of the cells whose inputs lead to it; a child's
 * mask is its parent's AND the cells whose next input has the entry's
 * state; the last level ORs its masks into the next state's planes).
 * States past the rule's last never occur, so their encodings are
 * don't-cares (a set of states may be written as the complement of the
 * others). The runtime validates the kernel before use
 * (runtime/backends/cpu_table.h). */
#ifndef GG_RULEFILE_EMIT_H
#define GG_RULEFILE_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "rulefile.h"

/* The templates, embedded at build time: the C kernel and the GPU kernel
 * (one text for OpenCL C and CUDA C, their differences in a prologue of
 * macros the emitter writes). */
extern const char gg_template_ctable_kernel[];
extern const size_t gg_template_ctable_kernel_len;
extern const char gg_template_gputable_kernel[];
extern const size_t gg_template_gputable_kernel_len;

/* The default bound on the graph's terms (one per distinct child of a
 * node and per output plane of a last-level node): Golly's largest
 * bundled rule (Tempesti) has about 16,000; 400,000 compile in about a
 * minute. */
#define GG_RF_EMIT_MAX_TERMS 400000

/* The kernel source for rf; name: the rule as messages and the kernel's
 * gg_table_rule() give it. Fails, naming the rule and its size, when the
 * graph has more than max_terms terms (0: GG_RF_EMIT_MAX_TERMS); *terms
 * (NULL: not wanted) gets the count either way. malloc'd, NUL-terminated,
 * *len bytes. */
int gg_rulefile_emit_c(const gg_rulefile *rf, const char *name,
                       int64_t max_terms, char **src, size_t *len,
                       int64_t *terms, gg_err *err);

/* The kernels skip a node's terms when no cell of the vector or word
 * reaches it only for graphs of more terms than this: below it
 * straight-line code is faster (1024^2 soups, 100 generations, 2 cores:
 * the C kernel on AVX-512 without the branches Codd (1014 terms) 2.1x,
 * TMGas (1278) 2.4x, Langtons-Loops (770) 1.7x faster, WireWorld (50)
 * even; OpenCL on PoCL, which vectorizes work-items only without them,
 * Langtons-Loops 2.5-3.2x, Codd 1.9x, TMGas 3.3x; with them Evoloop (2220,
 * its soup thins to 1.5%) 1.7x and 2.4x, Perrier (3230) 1.0x and 1.3x,
 * Tempesti (9036) 3.5x on PoCL faster). -DGG_SKIP_NODES=0/1 overrides. */
#define GG_RF_SKIP_TERMS 1500

typedef enum gg_rf_gpu_target {
    GG_RF_GPU_OPENCL, /* OpenCL C 1.2 (runtime/gpu/opencl_table.h) */
    GG_RF_GPU_CUDA    /* CUDA C for NVRTC (runtime/gpu/cuda_table.h) */
} gg_rf_gpu_target;

/* The same rule as a GPU kernel (templates/gputable/kernel.gpu.in): the
 * same decision-graph walk on 32-cell words, a work-item or thread per
 * word of a row; its ABI is described in the template. */
int gg_rulefile_emit_gpu(const gg_rulefile *rf, const char *name,
                         gg_rf_gpu_target target, int64_t max_terms,
                         char **src, size_t *len, int64_t *terms,
                         gg_err *err);

#endif
