#include "gpu_layout.h"

#include <limits.h>
#include <string.h>


int gg_gpu_geom_init(gg_gpu_geom *g, int64_t width, int64_t height,
                     gg_err *err)
{
    memset(g, 0, sizeof *g);
    if (width < 1 || height < 1)
        return gg_fail(err, "grid size %lldx%lld is empty", (long long)width,
                       (long long)height);
    int64_t nwi = (width + 31) / 32 + 2;
    /* Word indices times 32 and row offsets stay inside 32-bit ints. */
    if (nwi * 32 + 64 > INT32_MAX || height > INT32_MAX / 4)
        return gg_fail(err, "grid %lldx%lld is too large for the GPU "
                       "kernels' 32-bit indices", (long long)width,
                       (long long)height);
    g->width = width;
    g->height = height;
    g->nwi = (int)nwi;
    g->ns = (int)nwi;
    /* Windows cover the interior words 1 .. nwi-2 (see kernel.cu.in). */
    g->nx = (g->nwi - 2) / 31 + 1;
    return 0;
}

void gg_gpu_geom_windows(gg_gpu_geom *g, int wpl)
{
    wpl = wpl > 1 ? wpl : 1;
    g->nx = (g->nwi - 2) / (32 * wpl - 1) + 1;
}

void gg_gpu_geom_ghost_rows(gg_gpu_geom *g, int wpl, int top, int bottom)
{
    wpl = wpl > 1 ? wpl : 1;
    int last = g->nx * (32 * wpl - 1) + 1; /* one past the last window */
    g->ns = last > g->nwi ? last : g->nwi;
    g->gtop = top;
    g->gbottom = bottom;
}

size_t gg_gpu_geom_row0(const gg_gpu_geom *g)
{
    return (size_t)g->gtop * (size_t)g->ns * sizeof(uint32_t);
}

/* Expected throughput of strip height s, relative: useful rows over row
 * ticks, times the busy fraction of the waves. */
static double plan_score(const gg_gpu_geom *g, int t, int64_t s,
                         int64_t resident)
{
    int64_t ny = (g->height + s - 1) / s;
    int64_t tasks = ny * g->nx;
    int64_t waves = (tasks + resident - 1) / resident;
    double fill = (double)g->height / (double)(ny * (s + 3 * t));
    return fill * (double)tasks / (double)(waves * resident);
}

void gg_gpu_geom_plan(gg_gpu_geom *g, int t, int strip, int64_t resident)
{
    int64_t best = strip > 0 ? strip : g->height;
    if (strip <= 0 && resident > 0) {
        double score = plan_score(g, t, best, resident);
        /* Strip counts that fill k waves just under or just over. */
        for (int64_t k = 1; k <= 256; k++)
            for (int up = 0; up < 2; up++) {
                int64_t ny = (k * resident + (up ? g->nx - 1 : 0)) / g->nx;
                if (ny < 1)
                    continue;
                int64_t s = (g->height + ny - 1) / ny;
                double sc = plan_score(g, t, s, resident);
                if (sc > score * 1.0001) {
                    score = sc;
                    best = s;
                }
            }
    }
    if (best > g->height)
        best = g->height;
    g->strip = (int)best;
    g->ny = (int)((g->height + best - 1) / best);
    g->ntasks = g->ny * g->nx;
}

size_t gg_gpu_geom_bytes(const gg_gpu_geom *g)
{
    size_t rows = (size_t)g->gtop + (size_t)g->height + (size_t)g->gbottom;
    return (size_t)g->ns * rows * sizeof(uint32_t);
}

/* Row y of a host copy of the device layout. */
static size_t dev_row(const gg_gpu_geom *g, int64_t y)
{
    return ((size_t)g->gtop + (size_t)y) * (size_t)g->ns;
}

void gg_gpu_pack(const gg_grid *grid, const gg_gpu_geom *g, uint32_t *dev)
{
    size_t words = (size_t)(g->width + 31) / 32;
    memset(dev, 0, gg_gpu_geom_bytes(g));
    for (int64_t y = 0; y < g->height; y++)
        memcpy(dev + dev_row(g, y) + 1, gg_grid_row(grid, y),
               words * sizeof(uint32_t));
}

void gg_gpu_unpack(const uint32_t *dev, const gg_gpu_geom *g, gg_grid *grid)
{
    size_t words = (size_t)(g->width + 31) / 32;
    for (int64_t y = 0; y < g->height; y++)
        memcpy(gg_grid_row(grid, y), dev + dev_row(g, y) + 1,
               words * sizeof(uint32_t));
    gg_gpu_clear_tail(grid);
}

void gg_gpu_clear_tail(gg_grid *grid)
{
    uint64_t m = gg_grid_tail_mask(grid);
    for (int64_t y = 0; y < grid->height; y++)
        gg_grid_row(grid, y)[grid->stride - 1] &= m;
}

void gg_gpu_pack_planes(const gg_grid *planes, int n, int np,
                        const gg_gpu_geom *g, uint32_t *dev)
{
    size_t words = gg_gpu_geom_bytes(g) / sizeof *dev;
    for (int p = 0; p < np; p++) {
        if (p < n)
            gg_gpu_pack(&planes[p], g, dev + (size_t)p * words);
        else
            memset(dev + (size_t)p * words, 0, words * sizeof *dev);
    }
}

void gg_gpu_unpack_planes(const uint32_t *dev, const gg_gpu_geom *g,
                          gg_grid *planes, int n)
{
    size_t words = gg_gpu_geom_bytes(g) / sizeof *dev;
    for (int p = 0; p < n; p++)
        gg_gpu_unpack(dev + (size_t)p * words, g, &planes[p]);
}
