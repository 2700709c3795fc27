/* The device layout of a grid that the GPU backends (CUDA, PTX, OpenCL)
 * share, and the launch plan (strip height from a cost model of warp
 * waves and pipeline fill).
 *
 * Device layout (templates/cuda/kernel.cu.in): 32-bit words, ns per row;
 * word 0 is a ghost word, cell x is bit (x + 32) % 32 of word
 * (x + 32) / 32, and at least 32 ghost cells follow the last cell. */
#ifndef GG_GPU_LAYOUT_H
#define GG_GPU_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "grid.h"

/* Device layout and launch geometry of one grid. */
typedef struct gg_gpu_geom {
    int64_t width, height;
    int nwi;     /* words per row, ghosts included */
    int ns;      /* row stride in words */
    int gtop;    /* ghost rows above row 0 (gg_gpu_geom_ghost_rows) */
    int gbottom; /* ghost rows below the last row */
    int nx;      /* 32-word windows per row (31 words apart) */
    int strip;   /* rows per task */
    int ny;      /* strips */
    int ntasks;  /* nx * ny warps */
} gg_gpu_geom;

/* Layout for a width x height grid; fails when it exceeds 32-bit
 * indexing (the kernels use 32-bit row and word indices). */
int gg_gpu_geom_init(gg_gpu_geom *g, int64_t width, int64_t height,
                     gg_err *err);

/* Strip height: strip > 0 is taken as given; 0 picks it from a cost model:
 * `resident` warps run at once, a task of s rows costs s + 3t row ticks
 * (pipeline fill), and the last wave may run part-empty. */
/* Windows of 32 * wpl words, 32 * wpl - 1 apart (kernels with wpl words
 * per lane); gg_gpu_geom_init sets wpl = 1. Call before gg_gpu_geom_plan. */
void gg_gpu_geom_windows(gg_gpu_geom *g, int wpl);

/* Room for kernels that read whole windows and rows past the strip with
 * no wrap and no guard (the PTX interior copy): the stride grows so the
 * last window lies inside its row, and top and bottom ghost rows sit
 * around the grid (0 on the plane, refreshed from the wrap on the torus).
 * Call after gg_gpu_geom_windows. Device pointers then start gtop rows
 * into the buffer (gg_gpu_geom_row0). */
void gg_gpu_geom_ghost_rows(gg_gpu_geom *g, int wpl, int top, int bottom);

/* Offset in bytes of row 0 from the start of a device buffer. */
size_t gg_gpu_geom_row0(const gg_gpu_geom *g);

void gg_gpu_geom_plan(gg_gpu_geom *g, int t, int strip, int64_t resident);

/* Bytes of one device buffer. */
size_t gg_gpu_geom_bytes(const gg_gpu_geom *g);

/* Host <-> device layout, for backends without a 2D copy: the device rows
 * as one host buffer of ns * (gtop + height + gbottom) words. */
void gg_gpu_pack(const gg_grid *grid, const gg_gpu_geom *g, uint32_t *dev);
void gg_gpu_unpack(const uint32_t *dev, const gg_gpu_geom *g, gg_grid *grid);

/* The same for state planes (Generations rules): np device buffers of
 * gg_gpu_geom_bytes(g) each, back to back in dev; planes[0 .. n-1] go in,
 * the rest are zeroed (a two-state soup on a multi-plane kernel: the
 * autotuner's). */
void gg_gpu_pack_planes(const gg_grid *planes, int n, int np,
                        const gg_gpu_geom *g, uint32_t *dev);
void gg_gpu_unpack_planes(const uint32_t *dev, const gg_gpu_geom *g,
                          gg_grid *planes, int n);

/* Clear bits past the width (device ghost cells land there on the torus). */
void gg_gpu_clear_tail(gg_grid *grid);

#endif
