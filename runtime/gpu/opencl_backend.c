#include "opencl_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "emit_opencl.h"
#include "gpu_layout.h"
#include "gpu_validate.h"
#include "rule_gen.h"
#include "validate_gen.h"
#include "kernel_source.h"
#include "opencl_common.h"
#include "opencl_table.h"

#if GG_HAVE_OPENCL

struct gg_opencl {
    gg_rule rule;
    gg_opencl_opts o;
    int tmax;
    gg_cl_device d;
    gg_cl_program p;
    cl_kernel step, ghost; /* kept by p */
    gg_gpu_geom geom;
    gg_cl_buffers b; /* host: the staging buffer in device layout */
    int cur;
    gg_topo topo;   /* of the uploaded grid (backend table) */
    int np;         /* state planes per cell (Generations rules: > 1) */
    size_t pbytes;  /* bytes of one plane in a device buffer */
};

static int build_program(gg_opencl *c, const char *src, gg_err *err)
{
    return gg_cl_build(&c->d, src, "the kernel", &c->p, err) ||
                   gg_cl_kernel(&c->p, "gg_step", &c->step, err) ||
                   gg_cl_kernel(&c->p, "gg_ghost", &c->ghost, err)
               ? -1
               : 0;
}

/* Buffers for grid's size; the second zeroed (plane ghosts stay 0). */
static int prepare(gg_opencl *c, const gg_grid *grid, gg_err *err)
{
    gg_gpu_geom g;
    if (gg_gpu_geom_init(&g, grid->width, grid->height, err))
        return -1;
    size_t pbytes = gg_gpu_geom_bytes(&g), bytes = pbytes * (size_t)c->np;
    if ((!c->b.host || c->pbytes != pbytes) &&
        gg_cl_buffers_alloc(&c->b, &c->d, bytes, err))
        return -1;
    g.nx = (g.nwi - 2 + 29) / 30; /* this kernel's windows: 30 words apart */
    g.strip = GG_OPENCL_TILE_ROWS;
    g.ny = (int)((g.height + g.strip - 1) / g.strip);
    c->geom = g;
    c->pbytes = pbytes;
    c->cur = 0;
    memset(c->b.host, 0, bytes);
    return gg_cl_check(clEnqueueWriteBuffer(c->d.q, c->b.buf[1], CL_TRUE, 0,
                                            bytes, c->b.host, 0, NULL, NULL),
                       "clear", err);
}

/* planes[0 .. n-1] into the device's state planes, the rest 0. */
static int upload_planes(gg_opencl *c, const gg_grid *planes, int n,
                         gg_err *err)
{
    gg_gpu_pack_planes(planes, n, c->np, &c->geom, c->b.host);
    cl_int r = clEnqueueWriteBuffer(c->d.q, c->b.buf[c->cur], CL_TRUE, 0,
                                    c->pbytes * (size_t)c->np, c->b.host, 0,
                                    NULL, NULL);
    return gg_cl_check(r, "upload", err);
}

static int download_planes(gg_opencl *c, gg_grid *planes, int n,
                           gg_err *err)
{
    cl_int r = clEnqueueReadBuffer(c->d.q, c->b.buf[c->cur], CL_TRUE, 0,
                                   c->pbytes * (size_t)c->np, c->b.host, 0,
                                   NULL, NULL);
    if (gg_cl_check(r, "download", err))
        return -1;
    gg_gpu_unpack_planes(c->b.host, &c->geom, planes, n < c->np ? n : c->np);
    return 0;
}

static int upload(gg_opencl *c, const gg_grid *grid, gg_err *err)
{
    return upload_planes(c, grid, 1, err);
}

static int download(gg_opencl *c, gg_grid *grid, gg_err *err)
{
    return download_planes(c, grid, 1, err);
}

/* One launch of n generations (after the ghost refresh on the torus). */
static int launch(gg_opencl *c, int n, bool torus, gg_err *err)
{
    gg_gpu_geom *g = &c->geom;
    int h = (int)g->height, width = (int)g->width, plane = !torus;
    cl_mem in = c->b.buf[c->cur], out = c->b.buf[c->cur ^ 1];
    cl_long ps = (cl_long)(c->pbytes / sizeof(uint32_t));
    for (int p = 0; torus && p < c->np; p++) {
        cl_long off = p * ps;
        const void *v[] = {&in, &h, &g->ns, &g->nwi, &width, &off};
        size_t sz[] = {sizeof in, 4, 4, 4, 4, sizeof off};
        size_t gl = (size_t)(h + 63) / 64 * 64, lo = 64;
        if (gg_cl_set_args(c->ghost, v, sz, 6, err) ||
            gg_cl_check(clEnqueueNDRangeKernel(c->d.q, c->ghost, 1, NULL,
                                               &gl, &lo, 0, NULL, NULL),
                        "gg_ghost launch", err))
            return -1;
    }
    const void *v[] = {&in, &out, &h, &g->ns, &g->nwi, &width, &plane, &n,
                       &g->nx, &ps};
    size_t sz[] = {sizeof in, sizeof out, 4, 4, 4, 4, 4, 4, 4, sizeof ps};
    size_t gl[2] = {(size_t)g->nx * 32, (size_t)g->ny * GG_OPENCL_LY};
    size_t lo[2] = {32, GG_OPENCL_LY};
    if (gg_cl_set_args(c->step, v, sz, 10, err) ||
        gg_cl_check(clEnqueueNDRangeKernel(c->d.q, c->step, 2, NULL, gl, lo,
                                           0, NULL, NULL),
                    "gg_step launch", err))
        return -1;
    c->cur ^= 1;
    return 0;
}

static int run(gg_opencl *c, gg_topo topo, int64_t gens, gg_err *err)
{
    while (gens > 0) {
        int n = gens > c->tmax ? c->tmax : (int)gens;
        if (launch(c, n, topo == GG_TOPO_TORUS, err))
            return -1;
        gens -= n;
    }
    return gg_cl_check(clFinish(c->d.q), "kernel run", err);
}

static int step_strip(void *ctx, gg_topo topo, gg_grid *grid, int64_t gens,
                      int strip, gg_err *err)
{
    (void)strip; /* tiles have a fixed height in this kernel */
    gg_opencl *c = ctx;
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the OpenCL backend needs a torus or a plane");
    return prepare(c, grid, err) || upload(c, grid, err) ||
                   run(c, topo, gens, err) || download(c, grid, err)
               ? -1
               : 0;
}

int gg_opencl_step(gg_opencl *c, gg_topo topo, gg_grid *grid, int64_t gens,
                   gg_err *err)
{
    return step_strip(c, topo, grid, gens, 0, err);
}

/* Generations rules: every state plane of cells. */
int gg_opencl_upload_cells(gg_opencl *c, gg_gen_cells *cells, gg_topo topo,
                           gg_err *err)
{
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the OpenCL backend needs a torus or a plane");
    if (cells->n_planes != c->np)
        return gg_fail(err, "the OpenCL kernel has %d state planes, the "
                       "cells %d", c->np, cells->n_planes);
    c->topo = topo;
    return prepare(c, &cells->plane[0], err) ||
                   upload_planes(c, cells->plane, cells->n_planes, err)
               ? -1
               : 0;
}

int gg_opencl_download_cells(gg_opencl *c, gg_gen_cells *cells, gg_err *err)
{
    return download_planes(c, cells->plane, cells->n_planes, err);
}

/* The step runtime/backends/validate_gen.h checks: cells in, gens, cells out. */
static int step_cells(void *ctx, gg_topo topo, gg_gen_cells *cells,
                      int64_t gens, gg_err *err)
{
    gg_opencl *c = ctx;
    return gg_opencl_upload_cells(c, cells, topo, err) ||
                   run(c, topo, gens, err) ||
                   gg_opencl_download_cells(c, cells, err)
               ? -1
               : 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the backend table's device side ---- */

static int table_upload(void *state, gg_grid *grid, gg_topo topo,
                        gg_err *err)
{
    gg_opencl *c = state;
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the OpenCL backend needs a torus or a plane");
    c->topo = topo;
    return prepare(c, grid, err) || upload(c, grid, err) ? -1 : 0;
}

static int table_step(void *state, int64_t gens, gg_err *err)
{
    gg_opencl *c = state;
    return run(c, c->topo, gens, err);
}

static int table_download(void *state, gg_grid *grid, gg_err *err)
{
    return download(state, grid, err);
}

/* Rows y .. y + n - 1 between the device grid and `grid` (the bands of
 * runtime/universes/multi_band.h refresh their halos so): the cell words of each
 * device row, one word in from its ghost word, as one rectangle. */
static int table_rows(void *state, gg_grid *grid, int64_t y, int64_t n,
                      bool up, gg_err *err)
{
    gg_opencl *c = state;
    const gg_gpu_geom *g = &c->geom;
    size_t dev_origin[3] = {sizeof(uint32_t), (size_t)(g->gtop + y), 0};
    size_t host_origin[3] = {0, 0, 0};
    size_t region[3] = {(size_t)(g->width + 31) / 32 * sizeof(uint32_t),
                        (size_t)n, 1};
    size_t dev_pitch = (size_t)g->ns * sizeof(uint32_t);
    size_t host_pitch = (size_t)grid->stride * sizeof(uint64_t);
    void *host = gg_grid_row(grid, y);
    cl_int r = up ? clEnqueueWriteBufferRect(
                        c->d.q, c->b.buf[c->cur], CL_TRUE, dev_origin,
                        host_origin, region, dev_pitch, 0, host_pitch, 0,
                        host, 0, NULL, NULL)
                  : clEnqueueReadBufferRect(
                        c->d.q, c->b.buf[c->cur], CL_TRUE, dev_origin,
                        host_origin, region, dev_pitch, 0, host_pitch, 0,
                        host, 0, NULL, NULL);
    return gg_cl_check(r, up ? "row upload" : "row download", err);
}

/* Rows of another OpenCL band's grid onto this one's (peer_rows): two
 * contexts share no memory, so the rows go through a host buffer, whole
 * device rows (ghost words too, as a CUDA peer copy moves them). */
static int table_peer_rows(void *state, int64_t at, void *from_state,
                           int64_t src, int64_t n, gg_err *err)
{
    gg_opencl *to = state, *from = from_state;
    if (to->geom.ns != from->geom.ns || to->np != from->np)
        return gg_fail(err, "rows between two bands need grids of one "
                       "width (%d and %d words a row)", to->geom.ns,
                       from->geom.ns);
    size_t rb = (size_t)to->geom.ns * sizeof(uint32_t);
    void *tmp = gg_alloc((size_t)n, rb, err, "OpenCL halo rows");
    if (!tmp)
        return -1;
    cl_int r = clEnqueueReadBuffer(
        from->d.q, from->b.buf[from->cur], CL_TRUE,
        ((size_t)from->geom.gtop + (size_t)src) * rb, (size_t)n * rb, tmp, 0,
        NULL, NULL);
    if (r == CL_SUCCESS)
        r = clEnqueueWriteBuffer(to->d.q, to->b.buf[to->cur], CL_TRUE,
                                 ((size_t)to->geom.gtop + (size_t)at) * rb,
                                 (size_t)n * rb, tmp, 0, NULL, NULL);
    free(tmp);
    return gg_cl_check(r, "halo rows", err);
}

/* The queued forms of the bands' steps and copies (backend.h): OpenCL
 * does each at once, which keeps the multi-band runner's queued rounds
 * under test on PoCL. */
static int table_finish(void *state, gg_err *err)
{
    (void)state, (void)err;
    return 0;
}

/* Device time of gens generations after one untimed launch of tmax. */
static int table_timed_step(void *state, int64_t gens, int64_t *warm,
                            double *seconds, gg_err *err)
{
    gg_opencl *c = state;
    *warm = c->tmax;
    if (run(c, c->topo, *warm, err))
        return -1;
    double t0 = now();
    if (run(c, c->topo, gens, err))
        return -1;
    *seconds = now() - t0;
    return 0;
}

static int table_probe(const gg_backend_opts *o, gg_err *err)
{
    (void)o;
    return gg_cl_probe(err);
}

static int open_common(const gg_rule *rule, const char *given,
                       const gg_opencl_opts *o, gg_opencl **out,
                       gg_fail_kind *why, gg_err *err)
{
    static const gg_opencl_opts defaults;
    *out = NULL;
    *why = GG_FAIL_ENV;
    gg_opencl *c = gg_alloc(1, sizeof *c, err, "OpenCL backend");
    if (!c)
        return -1;
    c->rule = *rule;
    c->np = gg_gen_planes_of(rule);
    c->o = o ? *o : defaults;
    c->tmax = c->o.tmax > 0 && c->o.tmax <= GG_OPENCL_TMAX ? c->o.tmax
                                                           : GG_OPENCL_TMAX;
    char *src = NULL;
    size_t len;
    int bad = gg_cl_open(&c->d, err);
    if (!bad && !given) {
        *why = GG_FAIL_INVALID; /* a rejected cached network */
        bad = gg_kernel_opencl(rule, &gg_config_or_default(c->o.config)->choose,
                               &src, &len, err);
        if (!bad)
            *why = GG_FAIL_ENV;
    }
    if (!bad)
        bad = build_program(c, given ? given : src, err);
    free(src);
    if (!bad && !c->o.skip_validation) {
        *why = GG_FAIL_INVALID;
        bad = c->np > 1 ? gg_validate_gen(rule, step_cells, c,
                                          "the OpenCL kernel", 54321, err)
                        : gg_gpu_validate(rule, step_strip, c, 54321, err);
    }
    if (bad) {
        gg_opencl_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

void gg_opencl_close(gg_opencl *c)
{
    if (!c)
        return;
    gg_cl_buffers_free(&c->b);
    gg_cl_program_free(&c->p);
    gg_cl_close(&c->d);
    free(c);
}

const char *gg_opencl_device(const gg_opencl *c) { return c->d.name; }

#else /* built without OpenCL */

struct gg_opencl {
    int unused;
};

static int open_common(const gg_rule *rule, const char *given,
                       const gg_opencl_opts *o, gg_opencl **out,
                       gg_fail_kind *why, gg_err *err)
{
    (void)rule;
    (void)given;
    (void)o;
    *out = NULL;
    return gg_cl_unavailable(why, err);
}

int gg_opencl_step(gg_opencl *c, gg_topo topo, gg_grid *grid, int64_t gens,
                   gg_err *err)
{
    (void)c;
    (void)topo;
    (void)grid;
    (void)gens;
    return gg_fail(err, "this golgen was built without OpenCL");
}

/* Never reached (open fails), but the table is complete. */
static int table_upload(void *state, gg_grid *grid, gg_topo topo,
                        gg_err *err)
{
    return gg_opencl_step(state, topo, grid, 0, err);
}

static int table_step(void *state, int64_t gens, gg_err *err)
{
    (void)state;
    (void)gens;
    return gg_fail(err, "this golgen was built without OpenCL");
}

static int table_download(void *state, gg_grid *grid, gg_err *err)
{
    (void)grid;
    return table_step(state, 0, err);
}

static int table_probe(const gg_backend_opts *o, gg_err *err)
{
    gg_fail_kind why;
    (void)o;
    return gg_cl_unavailable(&why, err);
}

/* The table's optional device entries: none without a device. */
#define table_timed_step NULL
#define table_rows NULL
#define table_peer_rows NULL
#define table_finish NULL

int gg_opencl_upload_cells(gg_opencl *c, gg_gen_cells *cells, gg_topo topo,
                           gg_err *err)
{
    (void)c;
    (void)cells;
    (void)topo;
    return gg_fail(err, "this golgen was built without OpenCL");
}

int gg_opencl_download_cells(gg_opencl *c, gg_gen_cells *cells, gg_err *err)
{
    return gg_opencl_upload_cells(c, cells, GG_TOPO_TORUS, err);
}

void gg_opencl_close(gg_opencl *c) { (void)c; }
const char *gg_opencl_device(const gg_opencl *c)
{
    (void)c;
    return "none";
}

#endif

int gg_opencl_open(const gg_rule *rule, const gg_opencl_opts *o,
                   gg_opencl **out, gg_fail_kind *why, gg_err *err)
{
    return open_common(rule, NULL, o, out, why, err);
}

int gg_opencl_open_source(const gg_rule *rule, const char *src,
                          const gg_opencl_opts *o, gg_opencl **out,
                          gg_fail_kind *why, gg_err *err)
{
    return open_common(rule, src, o, out, why, err);
}

static int stepper_step(void *ctx, const gg_rule *rule, gg_topo topo,
                        gg_grid *grid, int64_t gens, gg_err *err)
{
    (void)rule;
    return gg_opencl_step(ctx, topo, grid, gens, err);
}

gg_stepper gg_opencl_stepper(gg_opencl *c)
{
    gg_stepper s = {.name = "opencl", .step = stepper_step, .ctx = c,
                    .max_batch = 1024};
    return s;
}

/* ---- the backend table (runtime/backends/backend.h) ---- */

static int table_open(const gg_rule *rule, const gg_backend_opts *o,
                      void **state, gg_fail_kind *why, gg_err *err)
{
    gg_opencl_opts co = {0};
    co.config = o->config;
    return gg_opencl_open(rule, &co, (gg_opencl **)state, why, err);
}

/* A launch's worth of batches between regrowths of the unbounded plane. */
static int64_t table_max_batch(void *state)
{
    (void)state;
    return 1024;
}

static void table_describe(void *state, gg_backend_desc *d)
{
    snprintf(d->what, sizeof d->what, "%s", gg_opencl_device(state));
}

static void table_close(void *state) { gg_opencl_close(state); }

static int table_upload_cells(void *state, gg_gen_cells *cells,
                              gg_topo topo, gg_err *err)
{
    return gg_opencl_upload_cells(state, cells, topo, err);
}

static int table_download_cells(void *state, gg_gen_cells *cells,
                                gg_err *err)
{
    return gg_opencl_download_cells(state, cells, err);
}

const gg_backend_info gg_backend_opencl = {
    .name = "opencl",
    .open_table = gg_opencl_table_open_kernel,
    .probe = table_probe,
    .open = table_open,
    .upload = table_upload,
    .step = table_step,
    .download = table_download,
    .rows = table_rows,
    .peer_rows = table_peer_rows,
    .queue_step = table_step,
    .queue_peer_rows = table_peer_rows,
    .finish = table_finish,
    .timed_step = table_timed_step,
    .max_batch = table_max_batch,
    .describe = table_describe,
    .close = table_close,
    .upload_cells = table_upload_cells,
    .download_cells = table_download_cells,
};
