#include "cuda3d.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend3d.h"
#include "cpu3d.h"
#include "cuda_api.h"
#include "cuda_device.h"
#include "cuda_backend.h"
#include "emit_cuda3d.h"
#include "gpu_tune.h"
#include "reference3d.h"

enum { THREADS = 128 }; /* per block: the template's GG_THREADS */

/* The temporal kernels (templates/cuda3d's GG3T_KERNEL list, name for
 * name): generations per launch, rows per thread, thread rows per block.
 * Each is validated at open; the first run of a big grid times them all
 * (and one generation per launch) and keeps the fastest for its size.
 * Session 26 tried 21 shapes at 1024^3 on the H100 (BENCHMARKS.md, issue
 * 40): more generations per launch or more warps per SM cost registers
 * (spills) or taller halos more than they saved. Since row sums, not
 * words, go between levels (session 27), every one here has no spills
 * (ptxas -v, sm_90: 168, 128, 132 and 96 registers) and at 1024 rows
 * computes about 1152 for the 1024 it outputs; at 1024^3 on the H100
 * 1.089e13, 9.63e12, 1.079e13 and 1.050e13 CUpS (2,4,16 spills, 2,2,16
 * has 2,2,20's registers and a taller halo share). */
static const struct tcand {
    int t, ty, ny, minb; /* minb: blocks per SM its registers allow */
} tcands[] = {{2, 4, 12, 1}, {2, 3, 16, 1}, {2, 3, 12, 1}, {2, 2, 20, 1}};
enum { NTC = sizeof tcands / sizeof tcands[0] };
enum { TUNE_CELLS = 1 << 24 }; /* smaller grids take the first candidate */

/* The temporal kernels' geometry: the template's struct gg3_tgeom. */
typedef struct tgeom3 {
    int64_t sy, sz, stride;
    int32_t nw, halo, outw, nbx, nby, zlen;
} tgeom3;

/* The kernel's geometry argument: the template's struct gg3_geom, field
 * for field (natural alignment on both sides). */
typedef struct geom3 {
    int64_t sy, sz, stride, nslab;
    int32_t nw, tb, torus, slab, strips, nbx, nby;
    uint32_t tail;
} geom3;

struct gg_cuda3d {
    gg_rule3d rule;
    gg_cuda3d_opts o;
    const gg_config *cfg; /* o.config or the defaults, never NULL */
    gg_cu_api cu;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction plain, general;
    CUfunction tfun[NTC];
    int tregs[NTC], tres[NTC]; /* registers, blocks per SM */
    int sms, cc, regs, resident; /* resident: blocks per SM */
    int ty, slab_force;          /* validation forces slab sizes */
    /* the temporal kernel in use: -1 one generation per launch; tforce
     * from GOLGEN_GPU_TUNE=3d:... (-2: none), tuned for tdims */
    int tsel, tforce;
    int64_t tdims[3];
    int gates;
    char source[160], name[256], shape[160], cache_dir[4096];
    bool cache;
    CUdeviceptr buf[2];
    size_t bytes;
};

/* ---- the device (runtime/gpu/cuda_device.h) ---- */

static int cu_check(const gg_cuda3d *k, CUresult r, const char *what,
                    gg_err *err)
{
    return gg_cu_check(&k->cu, r, what, err);
}

static int open_device(gg_cuda3d *k, gg_err *err)
{
    gg_cu_device d;
    memset(&d, 0, sizeof d);
    int bad = gg_cu_device_open(&d, k->o.device, err);
    /* whatever was opened is released on close, after a failure too */
    k->cu = d.cu;
    k->dev = d.dev;
    k->ctx = d.ctx;
    k->sms = d.sms;
    k->cc = d.cc;
    snprintf(k->name, sizeof k->name, "%s", d.name);
    return bad;
}

/* ---- the module ---- */

int gg_cuda3d_source(const gg_rule3d *rule, const gg_net *final,
                     char **src, size_t *len, char *source, size_t size,
                     int *gates, gg_err *err)
{
    gg_net *net = gg_alloc(1, sizeof *net, err, "3D network");
    if (!net)
        return -1;
    int rc = 0;
    if (final) {
        *net = *final;
        snprintf(source, size, "the caller");
    } else
        rc = gg_cpu3d_choose_final(rule, net, source, size, err) ||
             gg_cuda3d_lut3_final(rule, net, source, size, err);
    if (!rc) {
        *gates = gg_net_count(net, (int[GG_OP_COUNT]){0});
        rc = gg_emit_cuda3d(rule, net, source, src, len, err);
    }
    free(net);
    return rc;
}

/* A cached cubin, or NULL. */
/* The module image of src, from the cache (keyed by source, options and
 * arch) or compiled by NVRTC into it; NVRTC takes seconds, a cache hit
 * none. The cuda backend's is a cubin; the ptx backend's is NVRTC's PTX,
 * which the driver's JIT compiles as it loads it (the rule tables' route,
 * runtime/gpu/cuda_table.c). */
static int image_for(const gg_cuda3d *k, const char *src, char **img,
                     size_t *len, gg_fail_kind *why, gg_err *err)
{
    char ty[32], th[32], arch[16];
    snprintf(ty, sizeof ty, "-DGG_TY=%d", k->ty);
    snprintf(th, sizeof th, "-DGG_THREADS=%d", THREADS);
    snprintf(arch, sizeof arch, "%s_%d", k->o.ptx ? "compute" : "sm", k->cc);
    const char *opts[] = {ty, th};
    return gg_nvrtc_cached(k->cache ? k->cache_dir : NULL, "cuda3d",
                           k->cfg->nvrtc, src, arch, !k->o.ptx, opts, 2, img,
                           len, NULL, why, err);
}

/* The temporal kernels' entry points, registers and residency. */
static int load_temporal(gg_cuda3d *k, gg_err *err)
{
    for (int i = 0; i < NTC; i++) {
        char name[64];
        snprintf(name, sizeof name, "gg3d_steps_%d_%d_%d_%d", tcands[i].t,
                 tcands[i].ty, tcands[i].ny, tcands[i].minb);
        if (cu_check(k, k->cu.cuModuleGetFunction(&k->tfun[i], k->mod,
                                                  name), name, err) ||
            cu_check(k, k->cu.cuFuncGetAttribute(&k->tregs[i],
                                                 GG_CU_FUNC_NUM_REGS,
                                                 k->tfun[i]),
                     "cuFuncGetAttribute", err) ||
            cu_check(k, k->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                            &k->tres[i], k->tfun[i], 32 * tcands[i].ny, 0),
                     "occupancy query", err))
            return -1;
    }
    return 0;
}

static int load_module(gg_cuda3d *k, const void *img, gg_err *err)
{
    static const char *const names[] = {"gg3d_step_plain",
                                        "gg3d_step_general"};
    CUfunction *const fn[] = {&k->plain, &k->general};
    return gg_cu_load_module(&k->cu, &k->mod, img, "3D kernel module", names,
                             fn, 2, err) ||
           cu_check(k, k->cu.cuFuncGetAttribute(&k->regs,
                                                GG_CU_FUNC_NUM_REGS,
                                                k->plain),
                    "cuFuncGetAttribute", err) ||
           cu_check(k, k->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                           &k->resident, k->plain, THREADS, 0),
                    "occupancy query", err) ||
           (k->rule.nbhd == GG_NBHD3D_MOORE && load_temporal(k, err));
}

static int build(gg_cuda3d *k, gg_fail_kind *why, gg_err *err)
{
    char *src = NULL, *img = NULL;
    size_t len = 0;
    *why = GG_FAIL_ENV;
    int rc = gg_cuda3d_source(&k->rule, k->o.final, &src, &len, k->source,
                              sizeof k->source, &k->gates, err);
    if (!rc)
        rc = image_for(k, src, &img, &len, why, err);
    if (!rc)
        rc = load_module(k, img, err);
    free(src);
    free(img);
    return rc;
}

/* ---- running ---- */

/* The launch shape for g: word columns of ty rows per thread, blocks of
 * up to THREADS threads (a warp across a row's words where the row has
 * 32), and slabs of planes sized so that about four waves of blocks
 * cover the grid (a thread's slab costs its two halo plane sums). */
static geom3 shape_for(const gg_cuda3d *k, const gg_grid3d *g, bool torus,
                       unsigned *blocks, unsigned *bx, unsigned *by)
{
    geom3 s = {0};
    s.sy = g->sy;
    s.sz = g->sz;
    s.stride = g->stride * 2;
    s.nw = (int32_t)((g->sx + 31) / 32);
    s.tb = (int32_t)((g->sx - 1) & 31);
    s.torus = torus;
    s.tail = (g->sx & 31) ? (1u << (g->sx & 31)) - 1 : 0xffffffffu;
    s.strips = (int32_t)((g->sy + k->ty - 1) / k->ty);
    *bx = (unsigned)(s.nw < 32 ? s.nw : 32);
    *by = THREADS / *bx;
    if (*by > (unsigned)s.strips)
        *by = (unsigned)s.strips;
    s.nbx = (int32_t)((s.nw + (int)*bx - 1) / (int)*bx);
    s.nby = (int32_t)((s.strips + (int)*by - 1) / (int)*by);
    int64_t cols = (int64_t)s.nbx * s.nby;
    int slab = k->slab_force ? k->slab_force : k->o.slab;
    if (slab <= 0) {
        int64_t want = 4LL * k->resident * k->sms; /* blocks */
        int64_t nslab = (want + cols - 1) / cols;
        nslab = nslab < 1 ? 1 : nslab > g->sz ? g->sz : nslab;
        slab = (int)((g->sz + nslab - 1) / nslab);
    }
    s.slab = slab > g->sz ? (int32_t)g->sz : slab;
    s.nslab = (g->sz + s.slab - 1) / s.slab;
    *blocks = (unsigned)(cols * s.nslab);
    return s;
}

static int buffers(gg_cuda3d *k, size_t bytes, gg_err *err)
{
    if (bytes == k->bytes)
        return 0;
    for (int i = 0; i < 2; i++)
        if (k->buf[i]) {
            k->cu.cuMemFree(k->buf[i]);
            k->buf[i] = 0;
        }
    k->bytes = 0;
    for (int i = 0; i < 2; i++)
        if (cu_check(k, k->cu.cuMemAlloc(&k->buf[i], bytes),
                     "memory allocation for the 3D grid", err))
            return -1;
    k->bytes = bytes;
    return 0;
}

/* Whether g takes the plain kernel and the temporal ones: a torus of
 * whole words whose planes' word offsets are 32-bit. */
static bool plain_grid(const gg_grid3d *g, bool torus)
{
    return torus && g->sx % 32 == 0 &&
           (uint64_t)g->sy * (uint64_t)g->stride * 2 <= UINT32_MAX;
}

/* One generation from buffer `from` to `to`. */
static int launch_one(gg_cuda3d *k, const gg_grid3d *g, bool torus,
                      CUdeviceptr from, CUdeviceptr to, gg_err *err)
{
    unsigned blocks, bx, by;
    geom3 s = shape_for(k, g, torus, &blocks, &bx, &by);
    bool plain = plain_grid(g, torus);
    snprintf(k->shape, sizeof k->shape, "%s, %d rows x %d planes per "
             "thread, %ux%u threads per block, %d registers",
             plain ? "plain" : "general", k->ty, s.slab, bx, by, k->regs);
    void *args[] = {&from, &to, &s};
    return cu_check(k, k->cu.cuLaunchKernel(plain ? k->plain : k->general,
                                            blocks, 1, 1, bx, by, 1, 0,
                                            NULL, args, NULL),
                    "3D kernel launch", err);
}

/* Planes per block of candidate c over `tiles` tiles of a plane: the
 * fewest waves of blocks times a block's steps (its planes and the 3T of
 * the pipeline's fill); the blocks of one wave run side by side. */
static int best_zlen(const gg_cuda3d *k, int c, int64_t tiles, int64_t sz)
{
    int64_t slots = (int64_t)k->sms * (k->tres[c] > 0 ? k->tres[c] : 1);
    int64_t best = sz, cost = INT64_MAX;
    for (int64_t nbz = 1; nbz <= sz && nbz <= 4096; nbz++) {
        int64_t zlen = (sz + nbz - 1) / nbz, n = (sz + zlen - 1) / zlen;
        int64_t c1 = (tiles * n + slots - 1) / slots * (zlen + 3 * tcands[c].t);
        if (c1 < cost) {
            cost = c1;
            best = zlen;
        }
    }
    return (int)best;
}

/* Candidate c's geometry for g (see the template's gg3_tgeom). */
static tgeom3 tshape_for(const gg_cuda3d *k, int c, const gg_grid3d *g,
                         unsigned *blocks, unsigned *bx, unsigned *by)
{
    const struct tcand *t = &tcands[c];
    tgeom3 s = {0};
    s.sy = g->sy;
    s.sz = g->sz;
    s.stride = g->stride * 2;
    s.nw = (int32_t)(g->sx / 32);
    s.halo = s.nw > 32; /* a row of up to 32 words wraps inside a warp */
    *bx = 32u;          /* a warp a tile row: the words beside by shuffles */
    *by = (unsigned)t->ny;
    s.outw = s.halo ? 30 : s.nw;
    s.nbx = (s.nw + s.outw - 1) / s.outw;
    int64_t rows = t->ty * t->ny - 2 * t->t; /* a tile's output rows */
    s.nby = (int32_t)((g->sy + rows - 1) / rows);
    int64_t tiles = (int64_t)s.nbx * s.nby;
    s.zlen = k->slab_force > 0 ? k->slab_force
                               : best_zlen(k, c, tiles, g->sz);
    *blocks = (unsigned)(tiles * ((g->sz + s.zlen - 1) / s.zlen));
    return s;
}

/* tcands[c].t generations from buffer `from` to `to`. */
static int launch_t(gg_cuda3d *k, int c, const gg_grid3d *g,
                    CUdeviceptr from, CUdeviceptr to, gg_err *err)
{
    unsigned blocks, bx, by;
    tgeom3 s = tshape_for(k, c, g, &blocks, &bx, &by);
    snprintf(k->shape, sizeof k->shape, "%d generations per launch, %d "
             "rows x %d planes per thread, %ux%u threads per block, %d "
             "registers, %d blocks per SM", tcands[c].t, tcands[c].ty, s.zlen,
             bx, by, k->tregs[c], k->tres[c]);
    void *args[] = {&from, &to, &s};
    return cu_check(k, k->cu.cuLaunchKernel(k->tfun[c], blocks, 1, 1, bx,
                                            by, 1, 0, NULL, args, NULL),
                    "3D kernel launch", err);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The kernel for a big grid: each temporal candidate and one generation
 * per launch run 12 generations from buf[cur] (left as it is) into the
 * other buffer after a warm-up launch; the fastest is kept for g's size.
 * About 100 launches: milliseconds at 1024^3. */
static int tune(gg_cuda3d *k, const gg_grid3d *g, int cur, gg_err *err)
{
    CUdeviceptr from = k->buf[cur], to = k->buf[1 - cur];
    double best = 0;
    k->tsel = -1;
    for (int c = -1; c < NTC; c++) {
        int per = c < 0 ? 1 : tcands[c].t, reps = 12 / per;
        double t0 = 0;
        for (int r = -1; r < reps; r++) {
            if (r == 0 && cu_check(k, k->cu.cuCtxSynchronize(), "3D kernel",
                                   err))
                return -1;
            if (r == 0)
                t0 = now();
            if (c < 0 ? launch_one(k, g, true, from, to, err)
                      : launch_t(k, c, g, from, to, err))
                return -1;
        }
        if (cu_check(k, k->cu.cuCtxSynchronize(), "3D kernel", err))
            return -1;
        double dt = now() - t0;
        if (c < 0 || dt < best) {
            best = dt;
            k->tsel = c;
        }
    }
    k->tdims[0] = g->sx;
    k->tdims[1] = g->sy;
    k->tdims[2] = g->sz;
    return 0;
}

/* The temporal candidate for g (-1: one generation per launch), tuned
 * on a big grid's first run; -2 on failure. */
static int temporal_for(gg_cuda3d *k, const gg_grid3d *g, int cur,
                        gg_err *err)
{
    if (k->rule.nbhd != GG_NBHD3D_MOORE)
        return -1;
    if (k->tforce > -2)
        return k->tforce;
    if (g->sx * g->sy * g->sz < TUNE_CELLS)
        return 0;
    if (k->tdims[0] != g->sx || k->tdims[1] != g->sy ||
        k->tdims[2] != g->sz)
        return tune(k, g, cur, err) ? -2 : k->tsel;
    return k->tsel;
}

/* gens generations from buf[*cur], unsynchronized: the temporal kernel's
 * launches where the grid takes one, one generation per launch for the
 * rest. */
static int launch(gg_cuda3d *k, const gg_grid3d *g, bool torus,
                  int64_t gens, int *cur, gg_err *err)
{
    int c = plain_grid(g, torus) ? temporal_for(k, g, *cur, err) : -1;
    if (c < -1)
        return -1;
    int64_t n = 0;
    for (; c >= 0 && n + tcands[c].t <= gens; n += tcands[c].t) {
        if (launch_t(k, c, g, k->buf[*cur], k->buf[1 - *cur], err))
            return -1;
        *cur = 1 - *cur;
    }
    for (; n < gens; n++) {
        if (launch_one(k, g, torus, k->buf[*cur], k->buf[1 - *cur], err))
            return -1;
        *cur = 1 - *cur;
    }
    return 0;
}

static int upload(gg_cuda3d *k, const gg_grid3d *g, gg_err *err)
{
    size_t bytes = (size_t)gg_grid3d_words(g) * 8;
    /* buf[1]'s 32-bit padding words (rows of an odd word count) must be
     * 0: an earlier grid of the same bytes may have had cells there */
    return buffers(k, bytes, err) ||
           cu_check(k, k->cu.cuMemsetD8(k->buf[1], 0, bytes), "cuMemset",
                    err) ||
           cu_check(k, k->cu.cuMemcpyHtoD(k->buf[0], g->bits, bytes),
                    "upload", err);
}

static int download(gg_cuda3d *k, gg_grid3d *g, int cur, gg_err *err)
{
    return cu_check(k, k->cu.cuCtxSynchronize(), "3D kernel", err) ||
           cu_check(k, k->cu.cuMemcpyDtoH(g->bits, k->buf[cur], k->bytes),
                    "download", err);
}

int gg_cuda3d_run(gg_cuda3d *k, gg_grid3d *g, bool torus, int64_t gens,
                  gg_err *err)
{
    int cur = 0;
    if (gens <= 0)
        return 0;
    return upload(k, g, err) || launch(k, g, torus, gens, &cur, err) ||
                   download(k, g, cur, err)
               ? -1
               : 0;
}

int gg_cuda3d_timed(gg_cuda3d *k, gg_grid3d *g, bool torus, int64_t gens,
                    double *seconds, gg_err *err)
{
    int cur = 0;
    if (upload(k, g, err) || launch(k, g, torus, 1, &cur, err) ||
        cu_check(k, k->cu.cuCtxSynchronize(), "3D kernel", err))
        return -1;
    double t0 = now();
    if (launch(k, g, torus, gens, &cur, err) ||
        cu_check(k, k->cu.cuCtxSynchronize(), "3D kernel", err))
        return -1;
    *seconds = now() - t0;
    return download(k, g, cur, err);
}

/* ---- validation ---- */

/* Odd sizes, word-boundary widths (the plain kernel at 32 and 64), tiny
 * tori (sides 1 and 2 count a cell more than once), boxes, and forced
 * slabs of 1-3 planes (partial slabs, each turn of the plane ring; the
 * temporal kernels' planes per block); for the temporal kernels rows of
 * 34 and 64 words (halo words, tiles wrapping around the row) and planes
 * taller than a tile. */
static const int64_t vsizes[][5] = {
    /* sx, sy, sz, torus, slab (0: the launch shape's) */
    {67, 5, 7, 1, 0},   {67, 5, 7, 0, 3},   {64, 3, 4, 1, 3},
    {130, 9, 3, 0, 0},  {129, 4, 5, 1, 2},  {3, 3, 3, 1, 0},
    {1, 2, 3, 1, 0},    {5, 1, 1, 0, 0},    {2, 6, 2, 1, 1},
    {33, 7, 6, 0, 2},   {32, 5, 7, 1, 2},   {96, 11, 8, 1, 3},
    {31, 9, 10, 1, 4},  {64, 8, 9, 0, 3},   {1088, 5, 6, 1, 0},
    {2048, 3, 2, 1, 1}, {64, 70, 9, 1, 0},  {32, 1, 1, 1, 0},
    {1024, 61, 5, 1, 2},
};

/* The kernel under test: one generation per launch, or candidate c. */
static void kernel_name(int c, char *buf, size_t size)
{
    if (c < 0)
        snprintf(buf, size, "one generation per launch");
    else
        snprintf(buf, size, "%d generations per launch, %d rows x %d, "
                 "%d blocks per SM", tcands[c].t, tcands[c].ty, tcands[c].ny,
                 tcands[c].minb);
}

/* Size s for gens generations on kernel c (k->tforce) against the
 * reference. */
static int validate_one(gg_cuda3d *k, size_t s, int c, int gens, bool *bad,
                        gg_err *err)
{
    gg_grid3d a, b;
    if (gg_grid3d_init(&a, vsizes[s][0], vsizes[s][1], vsizes[s][2], err))
        return -1;
    if (gg_grid3d_init(&b, vsizes[s][0], vsizes[s][1], vsizes[s][2], err)) {
        gg_grid3d_free(&a);
        return -1;
    }
    bool torus = vsizes[s][3];
    gg_grid3d_random(&a, s % 2 ? 0.3 : 0.5, 0x3d3d + s);
    memcpy(b.bits, a.bits, (size_t)gg_grid3d_words(&a) * 8);
    k->slab_force = (int)vsizes[s][4];
    k->tforce = c;
    int rc = gg_ref3d_run(&k->rule, torus, &a, gens, err);
    if (!rc)
        rc = gg_cuda3d_run(k, &b, torus, gens, err);
    k->slab_force = 0;
    int64_t x, y, z;
    if (!rc && gg_grid3d_first_diff(&a, &b, &x, &y, &z)) {
        char rs[256], kn[80];
        gg_rule3d_format_transition(&k->rule, rs, sizeof rs);
        kernel_name(c, kn, sizeof kn);
        *bad = true;
        rc = gg_fail(err, "the %s kernel (%s) for %s disagrees with the 3D "
                     "reference on a %lldx%lldx%lld %s soup after %d "
                     "generations at cell (%lld,%lld,%lld); the kernel is "
                     "not used", k->o.ptx ? "ptx" : "cuda", kn, rs,
                     (long long)vsizes[s][0], (long long)vsizes[s][1],
                     (long long)vsizes[s][2], torus ? "torus" : "box", gens,
                     (long long)x, (long long)y, (long long)z);
    }
    gg_grid3d_free(&a);
    gg_grid3d_free(&b);
    return rc;
}

/* Every kernel of the module on every size: one generation per launch
 * for 3, each temporal candidate for 2T + 1 (two launches of it and one
 * of the other). */
static int validate(gg_cuda3d *k, gg_fail_kind *why, gg_err *err)
{
    int force = k->tforce;
    int n = k->rule.nbhd == GG_NBHD3D_MOORE ? NTC : 0;
    for (int c = -1; c < n; c++)
        for (size_t s = 0; s < sizeof vsizes / sizeof vsizes[0]; s++) {
            bool bad = false;
            if (validate_one(k, s, c, c < 0 ? 3 : 2 * tcands[c].t + 1, &bad,
                             err)) {
                *why = bad ? GG_FAIL_INVALID : GG_FAIL_ENV;
                k->tforce = force;
                return -1;
            }
        }
    k->tforce = force;
    k->shape[0] = 0;
    return 0;
}

/* GOLGEN_GPU_TUNE=3d:1 (one generation per launch) or 3d:T,TY,NY,B (that
 * temporal kernel) instead of the tuner's choice; other values are the
 * 2D backends'. */
static int parse_force(gg_cuda3d *k, gg_err *err)
{
    const char *v = k->cfg->gpu_tune;
    k->tforce = -2;
    if (!v || strncmp(v, "3d:", 3))
        return 0;
    int t, ty, ny, b;
    char end;
    if (!strcmp(v + 3, "1")) {
        k->tforce = -1;
        return 0;
    }
    if (sscanf(v + 3, "%d,%d,%d,%d%c", &t, &ty, &ny, &b, &end) == 4)
        for (int c = 0; c < NTC; c++)
            if (tcands[c].t == t && tcands[c].ty == ty &&
                tcands[c].ny == ny && tcands[c].minb == b) {
                k->tforce = c;
                return 0;
            }
    char list[400] = "";
    for (int c = 0; c < NTC; c++)
        snprintf(list + strlen(list), sizeof list - strlen(list),
                 " 3d:%d,%d,%d,%d", tcands[c].t, tcands[c].ty, tcands[c].ny,
                 tcands[c].minb);
    return gg_fail(err, "GOLGEN_GPU_TUNE=%s: the 3D kernels are 3d:1 (one "
                   "generation per launch) and%s", v, list);
}

/* ---- opening ---- */

int gg_cuda3d_open(const gg_rule3d *rule, const gg_cuda3d_opts *o,
                   gg_cuda3d **out, gg_fail_kind *why, gg_err *err)
{
    static const gg_cuda3d_opts defaults;
    *out = NULL;
    *why = GG_FAIL_ENV;
    gg_cuda3d *k = gg_alloc(1, sizeof *k, err, "3D CUDA kernel");
    if (!k)
        return -1;
    k->rule = *rule;
    k->o = o ? *o : defaults;
    k->cfg = gg_config_or_default(k->o.config);
    k->ty = k->o.ty > 0 ? k->o.ty : 4;
    gg_err ignored;
    /* without a cache directory every open compiles */
    k->cache = !gg_gpu_cache_dir(k->cfg->cache_dir, k->cache_dir,
                                 sizeof k->cache_dir, &ignored);
    if (k->ty > 16) {
        *why = GG_FAIL_INPUT;
        gg_cuda3d_close(k);
        return gg_fail(err, "rows per thread: 1..16, not %d", k->ty);
    }
    k->tsel = -1;
    if (parse_force(k, err)) {
        *why = GG_FAIL_INPUT;
        gg_cuda3d_close(k);
        return -1;
    }
    if (open_device(k, err) || build(k, why, err) || validate(k, why, err)) {
        gg_cuda3d_close(k);
        return -1;
    }
    *out = k;
    return 0;
}

const char *gg_cuda3d_device(const gg_cuda3d *k) { return k->name; }
const char *gg_cuda3d_shape(const gg_cuda3d *k) { return k->shape; }
int gg_cuda3d_final_gates(const gg_cuda3d *k) { return k->gates; }
const char *gg_cuda3d_final_source(const gg_cuda3d *k) { return k->source; }

void gg_cuda3d_close(gg_cuda3d *k)
{
    if (!k)
        return;
    for (int i = 0; i < 2; i++)
        if (k->buf[i])
            k->cu.cuMemFree(k->buf[i]);
    if (k->mod)
        k->cu.cuModuleUnload(k->mod);
    if (k->ctx)
        k->cu.cuDevicePrimaryCtxRelease(k->dev);
    if (k->cu.lib)
        dlclose(k->cu.lib);
    free(k);
}

/* ---- the backend table's 3D entry points (runtime/backends/backend3d.h) ---- */

static int open_lang(const gg_rule3d *rule, const gg_backend_opts *o,
                     bool ptx, void **state, gg_fail_kind *why, gg_err *err)
{
    gg_cuda3d_opts co = {.config = o->config, .device = o->device,
                         .slab = o->slab3d, .ty = o->ty3d, .ptx = ptx};
    return gg_cuda3d_open(rule, &co, (gg_cuda3d **)state, why, err);
}

static int table_open(const gg_rule3d *rule, const gg_backend_opts *o,
                      void **state, gg_fail_kind *why, gg_err *err)
{
    return open_lang(rule, o, false, state, why, err);
}

static int table_open_ptx(const gg_rule3d *rule, const gg_backend_opts *o,
                          void **state, gg_fail_kind *why, gg_err *err)
{
    return open_lang(rule, o, true, state, why, err);
}

/* CUDA's generations take milliseconds: a run is whole, stop or not. */
static int64_t table_step_until(void *state, gg_grid3d *g, bool torus,
                                int64_t gens, gg_stop_flag *stop,
                                gg_err *err)
{
    (void)stop;
    return gg_cuda3d_run(state, g, torus, gens, err) ? -1 : gens;
}

static int table_timed(void *state, gg_grid3d *g, bool torus, int64_t gens,
                       double *seconds, gg_err *err)
{
    return gg_cuda3d_timed(state, g, torus, gens, seconds, err);
}

static void table_describe(void *state, gg_backend_desc *d)
{
    const gg_cuda3d *k = state;
    memset(d, 0, sizeof *d);
    snprintf(d->what, sizeof d->what, "%.150s, %.150s, final %d gates", k->name,
             k->shape, k->gates);
    d->threads = 1;
}

static void table_close(void *state) { gg_cuda3d_close(state); }

/* The cuda backend's (NVRTC's cubin) and the ptx backend's (the same
 * kernels as NVRTC's PTX, loaded through the driver's JIT): only the
 * opening differs. */
#define GG_CUDA3D_BACKEND(open_fn)                                         \
    {                                                                      \
        .open = open_fn, .step_until = table_step_until,                   \
        .timed_step = table_timed, .describe = table_describe,             \
        .close = table_close,                                              \
    }
const gg_backend3d_info gg_backend3d_cuda = GG_CUDA3D_BACKEND(table_open);
const gg_backend3d_info gg_backend3d_ptx =
    GG_CUDA3D_BACKEND(table_open_ptx);
