/* The CUDA backend's resident grid: device buffers, uploads and
 * downloads, the launches that step it (ghost rows on the torus) and the
 * backend table's calls on it. */
#include <stddef.h>
#include <stdint.h>

#include "cuda_api.h"
#include "cuda_internal.h"
#include "gpu_layout.h"
#include "rule_gen.h"

/* ---- device buffers and stepping ---- */

void gg_cuda_free_buffers(gg_cuda *c)
{
    for (int i = 0; i < 2; i++)
        if (c->buf[i])
            c->cu.cuMemFree(c->buf[i]);
    c->buf[0] = c->buf[1] = 0;
}

/* Device buffers for grid's size, zeroed (ghosts of the plane stay 0),
 * with the ghost rows and row padding that both kernels read away from
 * plane edges. */
int gg_cuda_prepare(gg_cuda *c, const gg_grid *grid, int strip, gg_err *err)
{
    gg_gpu_geom g;
    if (gg_cuda_layout(c, grid->width, grid->height, &g, err) ||
        gg_cuda_module_for(c, &g, err))
        return -1;
    size_t pbytes = gg_gpu_geom_bytes(&g), bytes = pbytes * (size_t)c->np;
    if (!c->buf[0] || c->pbytes != pbytes) {
        gg_cuda_free_buffers(c);
        if (gg_cuda_check(c, c->cu.cuMemAlloc(&c->buf[0], bytes),
                          "cuMemAlloc", err) ||
            gg_cuda_check(c, c->cu.cuMemAlloc(&c->buf[1], bytes),
                          "cuMemAlloc", err))
            return -1;
    }
    gg_gpu_geom_plan(&g, c->tune.tmax, strip, c->resident);
    c->geom = g;
    c->pbytes = pbytes;
    c->cur = 0;
    return gg_cuda_check(c, c->cu.cuMemsetD8(c->buf[1], 0, bytes), "cuMemset",
                    err);
}

/* planes[0 .. n-1] into the device's state planes, the rest 0 (a
 * two-state soup timed by a Generations kernel: autotune). Rows go
 * straight from the grid into the device rows (2D copies: a device row is
 * the host row one ghost word in); ghosts and padding start at 0. */
static int upload_planes(gg_cuda *c, const gg_grid *planes, int n,
                         gg_err *err)
{
    CUdeviceptr row0 = c->buf[c->cur] + gg_gpu_geom_row0(&c->geom);
    if (gg_cuda_check(c, c->cu.cuMemsetD8(c->buf[c->cur], 0,
                                          c->pbytes * (size_t)c->np),
                      "cuMemset", err))
        return -1;
    for (int p = 0; p < n && p < c->np; p++)
        if (gg_cuda_copy_rows(c, NULL, true,
                              row0 + (CUdeviceptr)((size_t)p * c->pbytes),
                              planes[p].bits, &planes[p], planes[p].height,
                              err))
            return -1;
    return gg_cuda_check(c, c->cu.cuCtxSynchronize(), "upload", err);
}

static int download_planes(gg_cuda *c, gg_grid *planes, int n, gg_err *err)
{
    CUdeviceptr row0 = c->buf[c->cur] + gg_gpu_geom_row0(&c->geom);
    for (int p = 0; p < n && p < c->np; p++)
        if (gg_cuda_copy_rows(c, NULL, false,
                              row0 + (CUdeviceptr)((size_t)p * c->pbytes),
                              planes[p].bits, &planes[p], planes[p].height,
                              err))
            return -1;
    if (gg_cuda_check(c, c->cu.cuCtxSynchronize(), "download", err))
        return -1;
    for (int p = 0; p < n && p < c->np; p++)
        gg_gpu_clear_tail(&planes[p]); /* torus ghost cells land there */
    return 0;
}

int gg_cuda_upload(gg_cuda *c, const gg_grid *grid, gg_err *err)
{
    return upload_planes(c, grid, 1, err);
}

static int download(gg_cuda *c, gg_grid *grid, gg_err *err)
{
    return download_planes(c, grid, 1, err);
}

/* Torus: rows -gtop .. -1 and h .. h + gbottom - 1 of buffer `row0`
 * become the rows they wrap to, ghost words included (after gg_ghost).
 * One copy per side when the grid is that tall, else one per row. */
static int refresh_ghost_rows(gg_cuda *c, CUdeviceptr row0, gg_err *err)
{
    const gg_gpu_geom *g = &c->geom;
    int64_t h = g->height;
    size_t rb = (size_t)g->ns * sizeof(uint32_t);
    struct { int64_t dst, src, n; } part[2] = {
        {-g->gtop, h - g->gtop, g->gtop}, {h, 0, g->gbottom}};
    for (int i = 0; i < 2; i++) {
        if (part[i].n <= h) {
            if (part[i].n > 0 &&
                gg_cuda_check(c, c->cu.cuMemcpyDtoDAsync(
                                row0 + (CUdeviceptr)(part[i].dst * (int64_t)rb),
                                row0 + (CUdeviceptr)(part[i].src * (int64_t)rb),
                                (size_t)part[i].n * rb, c->stream),
                         "ghost rows", err))
                return -1;
            continue;
        }
        for (int64_t k = 0; k < part[i].n; k++) {
            int64_t y = part[i].dst + k, src = ((y % h) + h) % h;
            if (gg_cuda_check(c, c->cu.cuMemcpyDtoDAsync(
                                row0 + (CUdeviceptr)(y * (int64_t)rb),
                                row0 + (CUdeviceptr)(src * (int64_t)rb), rb,
                                c->stream),
                         "ghost rows", err))
                return -1;
        }
    }
    return 0;
}

/* One launch of 2^e generations (plus the ghost refresh on the torus). */
static int launch(gg_cuda *c, int e, bool torus, gg_err *err)
{
    gg_gpu_geom *g = &c->geom;
    int h = (int)g->height, width = (int)g->width, plane = !torus;
    CUdeviceptr in = c->buf[c->cur] + gg_gpu_geom_row0(g);
    CUdeviceptr out = c->buf[c->cur ^ 1] + gg_gpu_geom_row0(g);
    for (int p = 0; torus && p < c->np; p++) {
        CUdeviceptr pin = in + (CUdeviceptr)((size_t)p * c->pbytes);
        void *ga[] = {&pin, &h, &g->ns, &g->nwi, &width};
        unsigned blocks = (unsigned)((h + 127) / 128);
        if (gg_cuda_check(c, c->cu.cuLaunchKernel(c->ghost, blocks, 1, 1, 128, 1,
                                             1, 0, c->stream, ga, NULL),
                     "gg_ghost launch", err) ||
            refresh_ghost_rows(c, pin, err))
            return -1;
    }
    long long ps = (long long)(c->pbytes / sizeof(uint32_t));
    void *a[] = {&in, &out, &h, &g->ns, &g->nwi, &width, &plane, &g->strip,
                 &g->nx, &g->ntasks, &ps};
    unsigned blocks = (unsigned)((g->ntasks + c->tune.wpb - 1) / c->tune.wpb);
    if (gg_cuda_check(c, c->cu.cuLaunchKernel(c->step[e], blocks, 1, 1,
                                         (unsigned)c->tune.wpb * 32, 1, 1, 0,
                                         c->stream, a, NULL),
                 "gg_step launch", err))
        return -1;
    c->cur ^= 1;
    return 0;
}

/* gens generations on the device: full launches, then the remainder in
 * powers of two. */
int gg_cuda_launches(gg_cuda *c, gg_topo topo, int64_t gens, gg_err *err)
{
    int top = 0;
    while ((2 << top) <= c->tune.tmax)
        top++;
    while (gens > 0) {
        int e = top;
        while ((int64_t)1 << e > gens)
            e--;
        if (launch(c, e, topo == GG_TOPO_TORUS, err))
            return -1;
        gens -= (int64_t)1 << e;
    }
    return 0;
}

int gg_cuda_run(gg_cuda *c, gg_topo topo, int64_t gens, gg_err *err)
{
    return gg_cuda_launches(c, topo, gens, err) ||
           gg_cuda_check(c, c->cu.cuCtxSynchronize(), "kernel run", err);
}

int gg_cuda_step_strip(void *ctx, gg_topo topo, gg_grid *grid, int64_t gens,
                       int strip, gg_err *err)
{
    gg_cuda *c = ctx;
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the CUDA backend needs a torus or a plane");
    return gg_cuda_prepare(c, grid, strip, err) ||
                   gg_cuda_upload(c, grid, err) ||
                   gg_cuda_run(c, topo, gens, err) || download(c, grid, err)
               ? -1
               : 0;
}

int gg_cuda_step(gg_cuda *c, gg_topo topo, gg_grid *grid, int64_t gens,
                 gg_err *err)
{
    return gg_cuda_step_strip(c, topo, grid, gens, c->o.strip, err);
}

/* The uploaded grid's topology (the backend table's upload). */
static int table_topo(gg_cuda *c, gg_topo topo, gg_err *err)
{
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the CUDA backend needs a torus or a plane");
    c->topo = topo;
    return 0;
}

int gg_cuda_current(gg_cuda *c, gg_err *err)
{
    return gg_cuda_check(c, c->cu.cuCtxSetCurrent(c->ctx), "cuCtxSetCurrent",
                         err);
}

int gg_cuda_table_upload(void *state, gg_grid *grid, gg_topo topo,
                         gg_err *err)
{
    gg_cuda *c = state;
    return gg_cuda_current(c, err) || table_topo(c, topo, err) ||
                   gg_cuda_prepare(c, grid, c->o.strip, err) ||
                   gg_cuda_upload(c, grid, err)
               ? -1
               : 0;
}

int gg_cuda_table_step(void *state, int64_t gens, gg_err *err)
{
    gg_cuda *c = state;
    return gg_cuda_current(c, err) || gg_cuda_run(c, c->topo, gens, err)
               ? -1
               : 0;
}

int gg_cuda_table_download(void *state, gg_grid *grid, gg_err *err)
{
    return gg_cuda_current(state, err) || download(state, grid, err) ? -1 : 0;
}

int gg_cuda_table_rows(void *state, gg_grid *grid, int64_t y, int64_t n,
                       bool up, gg_err *err)
{
    gg_cuda *c = state;
    size_t rb = (size_t)c->geom.ns * sizeof(uint32_t);
    CUdeviceptr row = c->buf[c->cur] + gg_gpu_geom_row0(&c->geom) +
                      (CUdeviceptr)((size_t)y * rb);
    return gg_cuda_current(c, err) ||
                   gg_cuda_copy_rows(c, NULL, up, row, gg_grid_row(grid, y),
                                     grid, n, err) ||
                   gg_cuda_check(c, c->cu.cuCtxSynchronize(), "row copy",
                                 err)
               ? -1
               : 0;
}

/* Generations rules: every state plane of cells. */
int gg_cuda_table_upload_cells(void *state, gg_gen_cells *cells,
                               gg_topo topo, gg_err *err)
{
    gg_cuda *c = state;
    if (cells->n_planes != c->np)
        return gg_fail(err, "the CUDA kernel has %d state planes, the cells "
                       "%d", c->np, cells->n_planes);
    return table_topo(c, topo, err) ||
                   gg_cuda_prepare(c, &cells->plane[0], c->o.strip, err) ||
                   upload_planes(c, cells->plane, cells->n_planes, err)
               ? -1
               : 0;
}

int gg_cuda_table_download_cells(void *state, gg_gen_cells *cells,
                                 gg_err *err)
{
    return download_planes(state, cells->plane, cells->n_planes, err);
}

/* The step runtime/backends/validate_gen.h checks: cells in, gens, cells out. */
int gg_cuda_step_cells(void *ctx, gg_topo topo, gg_gen_cells *cells,
                       int64_t gens, gg_err *err)
{
    gg_cuda *c = ctx;
    return gg_cuda_table_upload_cells(c, cells, topo, err) ||
                   gg_cuda_run(c, topo, gens, err) ||
                   gg_cuda_table_download_cells(c, cells, err)
               ? -1
               : 0;
}

/* Device time of gens generations after one untimed launch of tmax. */
int gg_cuda_table_timed_step(void *state, int64_t gens, int64_t *warm,
                             double *seconds, gg_err *err)
{
    gg_cuda *c = state;
    *warm = c->tune.tmax;
    if (gg_cuda_run(c, c->topo, *warm, err))
        return -1;
    double t0 = gg_cuda_now();
    if (gg_cuda_run(c, c->topo, gens, err))
        return -1;
    *seconds = gg_cuda_now() - t0;
    return 0;
}

/* Bounded grids stay one call (one upload, one download); the unbounded
 * plane regrows between batches. */
int64_t gg_cuda_table_max_batch(void *state)
{
    gg_cuda *c = state;
    return gg_rule_is_bounded(&c->rule) ? 0 : 1024;
}

int gg_cuda_table_stream(void *state, gg_grid *grid, gg_topo topo,
                         int64_t gens, int64_t max_bytes,
                         gg_stream_stats *stats, gg_err *err)
{
    gg_cuda *c = state;
    return table_topo(c, topo, err) ||
                   gg_cuda_stream_step(c, topo, grid, gens, max_bytes, stats,
                                       err)
               ? -1
               : 0;
}
