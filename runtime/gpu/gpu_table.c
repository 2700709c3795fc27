#include "gpu_table.h"

#include <string.h>

int gg_gpu_table_geom_init(gg_gpu_table_geom *g, const gg_gen_cells *cells,
                           int np, gg_err *err)
{
    int64_t w = gg_gen_cells_width(cells), h = gg_gen_cells_height(cells);
    if (cells->n_planes != np)
        return gg_fail(err, "the table kernel has %d state planes, the "
                       "cells %d", np, cells->n_planes);
    if (w < 1 || h < 1 || w > INT32_MAX - 64 || h > INT32_MAX)
        return gg_fail(err, "a %lldx%lld grid is beyond the GPU table "
                       "kernel's coordinates (at most 2^31 a side)",
                       (long long)w, (long long)h);
    g->width = (int)w;
    g->height = (int)h;
    g->nw = (int)((w + 31) / 32);
    g->np = np;
    g->pw = (int64_t)g->nw * h;
    return 0;
}

/* A grid's 64-bit word holds cells 64k .. 64k+63, least significant bit
 * first, so on a little-endian host its bytes are the device's two 32-bit
 * words in order: rows copy as bytes. */
void gg_gpu_table_pack(const gg_gen_cells *cells, const gg_gpu_table_geom *g,
                       uint32_t *host)
{
    int tail = g->width & 31;
    for (int p = 0; p < g->np; p++)
        for (int y = 0; y < g->height; y++) {
            uint32_t *d = host + p * g->pw + (int64_t)y * g->nw;
            memcpy(d, gg_grid_row(&cells->plane[p], y),
                   (size_t)g->nw * sizeof *d);
            if (tail) /* the kernel reads bits past the width as 0 */
                d[g->nw - 1] &= (UINT32_C(1) << tail) - 1;
        }
}

void gg_gpu_table_unpack(const uint32_t *host, const gg_gpu_table_geom *g,
                         gg_gen_cells *cells)
{
    for (int p = 0; p < g->np; p++)
        for (int y = 0; y < g->height; y++) {
            uint64_t *row = gg_grid_row(&cells->plane[p], y);
            row[(g->nw - 1) / 2] = 0; /* an odd count leaves its top half */
            memcpy(row, host + p * g->pw + (int64_t)y * g->nw,
                   (size_t)g->nw * sizeof(uint32_t));
        }
}

void gg_gpu_table_split(const uint64_t *x, int64_t n, int per, uint32_t *x32)
{
    for (int64_t w = 0; w < n; w++)
        for (int i = 0; i < per; i++) {
            uint64_t v = x[w * per + i];
            x32[(2 * w) * per + i] = (uint32_t)v;
            x32[(2 * w + 1) * per + i] = (uint32_t)(v >> 32);
        }
}

void gg_gpu_table_join(const uint32_t *o32, int64_t n, int np, uint64_t *o)
{
    for (int64_t w = 0; w < n; w++)
        for (int p = 0; p < np; p++)
            o[w * np + p] = o32[(2 * w) * np + p] |
                            (uint64_t)o32[(2 * w + 1) * np + p] << 32;
}
