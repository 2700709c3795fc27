/* What the GPU table kernels (templates/gputable/kernel.gpu.in, emitted
 * by gen/rulefile/rulefile_emit.h) share on the host, for OpenCL
 * (runtime/gpu/opencl_table.h) and CUDA (runtime/gpu/cuda_table.h): the
 * device layout of a rule's state planes as 32-bit words (plane p at
 * p * pw words, row y at y * nw, no ghosts: the kernel wraps by itself),
 * packing cells into it and back, and validation's 64-cell words split
 * into the kernel's 32-cell words. */
#ifndef GG_GPU_TABLE_H
#define GG_GPU_TABLE_H

#include <stdint.h>

#include "config.h"
#include "error.h"
#include "gen_cells.h"
#include "rulefile.h"

typedef struct gg_gpu_table_opts {
    const gg_config *config; /* NVRTC's library; NULL: defaults */
    int64_t max_terms;       /* the rule's size bound; 0: the emitter's */
    int device;              /* CUDA: the device ordinal */
} gg_gpu_table_opts;

typedef struct gg_gpu_table_geom {
    int width, height, nw, np;
    int64_t pw; /* words a plane */
} gg_gpu_table_geom;

/* The layout for cells of np planes; fails on grids the kernel's int
 * coordinates cannot hold. */
int gg_gpu_table_geom_init(gg_gpu_table_geom *g, const gg_gen_cells *cells,
                           int np, gg_err *err);

static inline size_t gg_gpu_table_bytes(const gg_gpu_table_geom *g)
{
    return (size_t)g->pw * (size_t)g->np * sizeof(uint32_t);
}

/* cells into host (gg_gpu_table_bytes of it) and back. */
void gg_gpu_table_pack(const gg_gen_cells *cells, const gg_gpu_table_geom *g,
                       uint32_t *host);
void gg_gpu_table_unpack(const uint32_t *host, const gg_gpu_table_geom *g,
                         gg_gen_cells *cells);

/* Validation's n words of 64 cells (runtime/backends/validate_table.h:
 * per inputs a word) as 2n words of 32 (x32) for gg_table_eval_k, and
 * its 2n outputs of np words back into n. */
void gg_gpu_table_split(const uint64_t *x, int64_t n, int per,
                        uint32_t *x32);
void gg_gpu_table_join(const uint32_t *o32, int64_t n, int np, uint64_t *o);

#endif
