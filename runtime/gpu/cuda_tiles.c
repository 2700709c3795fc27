/* Active tiles on the device (runtime/engines/tiles.h; the backend
 * table's tiles_step): the grid stays resident, and per call only a list
 * of tiles goes down and a byte of flags per tile comes back.
 *
 * The awake tiles, each with a halo of whole device words (32 cells) across
 * and `halo` rows down, are gathered into slots of a scratch grid held by
 * a second instance of this backend (same rule, same launch shape: the
 * record kernel steps it as a bounded plane), stepped, and their centres
 * scattered back with a flag of whether they changed. A whole-grid call
 * steps the grid itself, copies it halo generations before the end, and
 * compares tile by tile. The three small kernels are CUDA C compiled by
 * NVRTC once and kept in the kernel cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "cuda_device.h"
#include "cuda_internal.h"
#include "gpu_tune.h"

#define SLOTS_PER_ROW 16 /* the scratch grid's width is fixed: one module */
/* A slot's halo across, in device words: at least halo cells. */
#define HALO_WORDS(p) (((p)->halo + 31) / 32)

static const char tiles_src[] =
    "typedef unsigned int u32;\n"
    "typedef long long i64;\n"
    "__device__ int wrap(int v, int n) { v %= n; return v < 0 ? v + n : v; }\n"
    /* slot k of the scratch <- tile list[k] with its halo, every state
     * plane (gps and sps words apart) */
    "extern \"C\" __global__ void gg_tiles_gather(const u32 *g, int gns,\n"
    "    int gw, int gh, int torus, u32 *s, int sns, const i64 *list,\n"
    "    int nx, int side, int halo, int sww, int sh, int per_row, int np,\n"
    "    i64 gps, i64 sps)\n"
    "{\n"
    "    int k = blockIdx.x, hw = (halo + 31) / 32;\n"
    "    i64 tile = list[k];\n"
    "    int tx = (int)(tile % nx), ty = (int)(tile / nx);\n"
    "    int sx = (k % per_row) * sww, sy = (k / per_row) * sh;\n"
    "    int x0 = tx * (side / 32) - hw, y0 = ty * side - halo;\n"
    "    for (int i = threadIdx.x; i < sww * sh * np; i += blockDim.x) {\n"
    "        int p = i / (sww * sh), e = i % (sww * sh);\n"
    "        int r = e / sww, j = e % sww, y = y0 + r, x = x0 + j;\n"
    "        u32 v = 0;\n"
    "        if (torus)\n"
    "            v = g[p * gps + (i64)wrap(y, gh) * gns + wrap(x, gw) + 1];\n"
    "        else if (y >= 0 && y < gh && x >= 0 && x < gw)\n"
    "            v = g[p * gps + (i64)y * gns + x + 1];\n"
    "        s[p * sps + (i64)(sy + r) * sns + sx + j + 1] = v;\n"
    "    }\n"
    "}\n"
    /* tile list[k] <- slot k's centre; flags[k]: bit 0 changed, 1 live */
    "extern \"C\" __global__ void gg_tiles_scatter(u32 *g, int gns, int gw,\n"
    "    int gh, const u32 *s, int sns, const i64 *list, int nx, int side,\n"
    "    int halo, int sww, int sh, int per_row, unsigned char *flags,\n"
    "    int np, i64 gps, i64 sps)\n"
    "{\n"
    "    int k = blockIdx.x, sw = side / 32, hw = (halo + 31) / 32;\n"
    "    i64 tile = list[k];\n"
    "    int tx = (int)(tile % nx), ty = (int)(tile / nx);\n"
    "    int sx = (k % per_row) * sww, sy = (k / per_row) * sh;\n"
    "    int rows = min(side, gh - ty * side), words = min(sw, gw - tx * sw);\n"
    "    u32 diff = 0, any = 0;\n"
    "    for (int i = threadIdx.x; i < sw * side * np; i += blockDim.x) {\n"
    "        int p = i / (sw * side), e = i % (sw * side);\n"
    "        int r = e / sw, j = e % sw;\n"
    "        if (r >= rows || j >= words) continue;\n"
    "        u32 v = s[p * sps + (i64)(sy + halo + r) * sns + sx + hw + j + 1];\n"
    "        u32 *d = g + p * gps + (i64)(ty * side + r) * gns + tx * sw + j + 1;\n"
    "        diff |= v ^ *d; any |= v; *d = v;\n"
    "    }\n"
    "    int dd = __syncthreads_or(diff != 0), aa = __syncthreads_or(any != 0);\n"
    "    if (threadIdx.x == 0) flags[k] = (dd ? 1 : 0) | (aa ? 2 : 0);\n"
    "}\n"
    /* every tile: flags[tile] from the grid a (before) and b (after) */
    "extern \"C\" __global__ void gg_tiles_compare(const u32 *a, const u32 *b,\n"
    "    int gns, int gw, int gh, int nx, int side, unsigned char *flags,\n"
    "    int np, i64 gps)\n"
    "{\n"
    "    int tile = blockIdx.x, sw = side / 32;\n"
    "    int tx = tile % nx, ty = tile / nx;\n"
    "    int rows = min(side, gh - ty * side), words = min(sw, gw - tx * sw);\n"
    "    u32 diff = 0, any = 0;\n"
    "    for (int i = threadIdx.x; i < sw * side * np; i += blockDim.x) {\n"
    "        int p = i / (sw * side), e = i % (sw * side);\n"
    "        int r = e / sw, j = e % sw;\n"
    "        if (r >= rows || j >= words) continue;\n"
    "        i64 at = p * gps + (i64)(ty * side + r) * gns + tx * sw + j + 1;\n"
    "        diff |= a[at] ^ b[at]; any |= b[at];\n"
    "    }\n"
    "    int dd = __syncthreads_or(diff != 0), aa = __syncthreads_or(any != 0);\n"
    "    if (threadIdx.x == 0) flags[tile] = (dd ? 1 : 0) | (aa ? 2 : 0);\n"
    "}\n";

struct gg_cuda_tiles {
    gg_cuda *scratch; /* holds the slots' grid */
    CUmodule mod;
    CUfunction gather, scatter, compare;
    CUdeviceptr list, flags, snap;
    size_t list_cap, flags_cap, snap_bytes;
    int64_t scratch_rows; /* slot rows the scratch grid has */
};

void gg_cuda_tiles_free(gg_cuda *c)
{
    gg_cuda_tiles *t = c->tiles;
    if (!t)
        return;
    if (t->list)
        c->cu.cuMemFree(t->list);
    if (t->flags)
        c->cu.cuMemFree(t->flags);
    if (t->snap)
        c->cu.cuMemFree(t->snap);
    if (t->mod)
        c->cu.cuModuleUnload(t->mod);
    gg_cuda_close(t->scratch);
    free(t);
    c->tiles = NULL;
}

static int tiles_module(gg_cuda *c, gg_cuda_tiles *t, gg_err *err)
{
    char *img;
    size_t len;
    bool hit;
    if (gg_cuda_nvrtc_image(c, "tiles", tiles_src, NULL, 0, &img, &len, &hit,
                            err))
        return -1;
    static const char *const names[] = {"gg_tiles_gather", "gg_tiles_scatter",
                                        "gg_tiles_compare"};
    CUfunction *const fn[] = {&t->gather, &t->scatter, &t->compare};
    int bad = gg_cu_load_module(&c->cu, &t->mod, img, "tile kernels", names,
                                fn, 3, err);
    free(img);
    return bad;
}

/* Device memory of at least `bytes` in *p (grown, never shrunk). */
static int room(gg_cuda *c, CUdeviceptr *p, size_t *cap, size_t bytes,
                gg_err *err)
{
    if (*cap >= bytes)
        return 0;
    if (*p)
        c->cu.cuMemFree(*p);
    *p = 0;
    *cap = 0;
    if (gg_cuda_check(c, c->cu.cuMemAlloc(p, bytes), "cuMemAlloc", err))
        return -1;
    *cap = bytes;
    return 0;
}

/* The tile kernels, at the first call that steps. */
static int tiles_open(gg_cuda *c, gg_err *err)
{
    if (c->tiles)
        return 0;
    c->tiles = calloc(1, sizeof *c->tiles);
    if (!c->tiles)
        return gg_fail(err, "out of memory for the device's tiles");
    if (tiles_module(c, c->tiles, err)) {
        gg_cuda_tiles_free(c);
        return -1;
    }
    return 0;
}

/* The scratch's backend, at the first call that steps a list (a busy
 * grid stepped whole never needs it): this kernel and launch shape
 * again, checked at open. */
static int scratch_open(gg_cuda *c, gg_err *err)
{
    if (c->tiles->scratch)
        return 0;
    gg_cuda_opts o = c->o;
    o.tune = c->tune;
    o.announce = false;
    o.width_hint = o.height_hint = 0;
    gg_fail_kind why;
    return gg_cuda_open(&c->rule, &o, &c->tiles->scratch, &why, err);
}

/* The scratch grid with room for n slots of side + 2 words by side +
 * 2 halo rows, in a power of two of slot rows. */
static int scratch_for(gg_cuda *c, const gg_tiles_plan *p, int64_t n,
                       gg_err *err)
{
    gg_cuda_tiles *t = c->tiles;
    /* two slot rows at least: 640 rows and more keep the module with the
     * scratch's row stride built in (GG_PTX_KSTRIDE_ROWS), never a swap
     * to the generic one and back */
    int64_t rows = (n + SLOTS_PER_ROW - 1) / SLOTS_PER_ROW, cap = 2;
    while (cap < rows)
        cap *= 2;
    /* grown at once, shrunk when a quarter would do: a sparse spell
     * after a busy one steps a small scratch, without a new buffer at
     * every change */
    if (cap <= t->scratch_rows && cap * 4 > t->scratch_rows)
        return 0;
    gg_cuda *s = t->scratch;
    gg_grid dims = {.width = SLOTS_PER_ROW * (p->side + 64 * HALO_WORDS(p)),
                    .height = cap * (p->side + 2 * p->halo)};
    if (gg_cuda_prepare(s, &dims, s->o.strip, err) ||
        gg_cuda_check(c, c->cu.cuMemsetD8(s->buf[0], 0,
                                          s->pbytes * (size_t)s->np),
                      "cuMemset", err))
        return -1;
    s->topo = GG_TOPO_PLANE;
    t->scratch_rows = cap;
    return 0;
}

static CUdeviceptr row0(const gg_cuda *c, CUdeviceptr buf)
{
    return buf + (CUdeviceptr)gg_gpu_geom_row0(&c->geom);
}

static int launch(gg_cuda *c, CUfunction f, int64_t blocks, void **args,
                  gg_err *err)
{
    return gg_cuda_check(c, c->cu.cuLaunchKernel(f, (unsigned)blocks, 1, 1,
                                                 256, 1, 1, 0, NULL, args,
                                                 NULL),
                         "a tile kernel", err);
}

/* The plan's tiles, through the scratch. */
static int step_list(gg_cuda *c, const gg_tiles_plan *p, int64_t gens,
                     uint8_t *flags, gg_err *err)
{
    gg_cuda_tiles *t = c->tiles;
    int64_t n = p->count;
    if (scratch_open(c, err) || scratch_for(c, p, n, err))
        return -1;
    gg_cuda *s = t->scratch;
    if (room(c, &t->list, &t->list_cap, (size_t)n * sizeof *p->list, err) ||
        room(c, &t->flags, &t->flags_cap, (size_t)n, err) ||
        gg_cuda_check(c, c->cu.cuMemcpyHtoD(t->list, p->list,
                                            (size_t)n * sizeof *p->list),
                      "the tile list", err))
        return -1;
    CUdeviceptr g = row0(c, c->buf[c->cur]), sc = row0(s, s->buf[s->cur]);
    int gns = c->geom.ns, gw = (int)(c->geom.width / 32);
    int gh = (int)c->geom.height, torus = c->topo == GG_TOPO_TORUS;
    int sns = s->geom.ns, nx = (int)p->nx, side = (int)p->side;
    int halo = (int)p->halo, sww = side / 32 + 2 * (int)HALO_WORDS(p);
    int sh = side + 2 * halo;
    int per_row = SLOTS_PER_ROW, np = c->np;
    long long gps = (long long)(c->pbytes / 4), sps = (long long)(s->pbytes / 4);
    void *ga[] = {&g,  &gns,  &gw,   &gh,  &torus, &sc,      &sns, &t->list,
                  &nx, &side, &halo, &sww, &sh,    &per_row, &np,  &gps,
                  &sps};
    if (launch(c, t->gather, n, ga, err) ||
        gg_cuda_run(s, GG_TOPO_PLANE, gens, err))
        return -1;
    sc = row0(s, s->buf[s->cur]);
    void *sa[] = {&g,    &gns,  &gw,  &gh,      &sc,       &sns,
                  &t->list, &nx, &side, &halo, &sww,     &sh,
                  &per_row, &t->flags, &np, &gps, &sps};
    return launch(c, t->scatter, n, sa, err) ||
                   gg_cuda_check(c, c->cu.cuMemcpyDtoH(flags, t->flags,
                                                       (size_t)n),
                                 "the tile flags", err)
               ? -1
               : 0;
}

/* The whole grid, gens generations; flags of every tile over the last
 * min(gens, halo) of them. */
static int step_whole(gg_cuda *c, const gg_tiles_plan *p, int64_t gens,
                      uint8_t *flags, gg_err *err)
{
    gg_cuda_tiles *t = c->tiles;
    int64_t all = p->nx * p->ny;
    size_t bytes = c->pbytes * (size_t)c->np; /* every state plane */
    int64_t last = gens < p->halo ? gens : p->halo; /* what flags cover */
    if (room(c, &t->snap, &t->snap_bytes, bytes, err) ||
        room(c, &t->flags, &t->flags_cap, (size_t)all, err) ||
        (gens > last && gg_cuda_run(c, c->topo, gens - last, err)) ||
        gg_cuda_check(c, c->cu.cuMemcpyDtoD(t->snap, c->buf[c->cur], bytes),
                      "the snapshot", err) ||
        gg_cuda_run(c, c->topo, last, err))
        return -1;
    CUdeviceptr a = row0(c, t->snap), b = row0(c, c->buf[c->cur]);
    int gns = c->geom.ns, gw = (int)(c->geom.width / 32);
    int gh = (int)c->geom.height, nx = (int)p->nx, side = (int)p->side;
    int np = c->np;
    long long gps = (long long)(c->pbytes / 4);
    void *args[] = {&a,    &b,    &gns,      &gw, &gh,
                    &nx,   &side, &t->flags, &np, &gps};
    return launch(c, t->compare, all, args, err) ||
                   gg_cuda_check(c, c->cu.cuMemcpyDtoH(flags, t->flags,
                                                       (size_t)all),
                                 "the tile flags", err)
               ? -1
               : 0;
}

int gg_cuda_table_tiles_step(void *state, const gg_tiles_plan *p,
                             int64_t gens, uint8_t *flags, gg_err *err)
{
    gg_cuda *c = state;
    if (c->geom.width % 32)
        return gg_fail(err, "the grid is %lld cells wide; tiles on the GPU "
                       "need a multiple of 32", (long long)c->geom.width);
    if (p->side % 32 || p->halo < 1 || p->halo > 64 ||
        (p->count >= 0 && gens > p->halo))
        return gg_fail(err, "tiles of %lld cells with %lld halo rows: the "
                       "GPU takes sides of 32k cells and halos of 1..64",
                       (long long)p->side, (long long)p->halo);
    if (p->count == 0 || gens == 0) /* a question, or nothing to do */
        return 0;
    if (gg_cuda_current(c, err) || tiles_open(c, err))
        return -1;
    return p->count < 0 ? step_whole(c, p, gens, flags, err)
                        : step_list(c, p, gens, flags, err);
}
