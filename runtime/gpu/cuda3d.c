#include "cuda3d.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "backend3d.h"
#include "cpu3d.h"
#include "cuda_api.h"
#include "cuda_device.h"
#include "cuda_backend.h"
#include "emit_cuda3d.h"
#include "gpu_tune.h"
#include "reference3d.h"

enum { THREADS = 128 }; /* per block: the template's GG_THREADS */

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
    int sms, cc, regs, resident; /* resident: blocks per SM */
    int ty, slab_force;          /* validation forces slab sizes */
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
        rc = gg_cpu3d_choose_final(rule, net, source, size, err);
    if (!rc) {
        *gates = gg_net_count(net, (int[GG_OP_COUNT]){0});
        rc = gg_emit_cuda3d(rule, net, source, src, len, err);
    }
    free(net);
    return rc;
}

/* A cached cubin, or NULL. */
static char *cache_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *img = NULL;
    long n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    if (n > 0 && !fseek(f, 0, SEEK_SET) && (img = malloc((size_t)n)) &&
        fread(img, 1, (size_t)n, f) != (size_t)n) {
        free(img);
        img = NULL;
    }
    fclose(f);
    *len = img ? (size_t)n : 0;
    return img;
}

/* The cubin of src, from the cache (keyed by source, options and arch) or
 * compiled by NVRTC into it; NVRTC takes seconds, a cache hit none. */
static int cubin_for(const gg_cuda3d *k, const char *src, char **img,
                     size_t *len, gg_fail_kind *why, gg_err *err)
{
    char ty[32], th[32], arch[16], path[4200];
    snprintf(ty, sizeof ty, "-DGG_TY=%d", k->ty);
    snprintf(th, sizeof th, "-DGG_THREADS=%d", THREADS);
    snprintf(arch, sizeof arch, "sm_%d", k->cc);
    const char *opts[] = {ty, th};
    uint64_t h = gg_gpu_hash(0, src, strlen(src));
    h = gg_gpu_hash(h, ty, strlen(ty));
    h = gg_gpu_hash(h, th, strlen(th));
    h = gg_gpu_hash(h, arch, strlen(arch));
    snprintf(path, sizeof path, "%s/cuda3d-%016llx.cubin", k->cache_dir,
             (unsigned long long)h);
    if (k->cache && (*img = cache_read(path, len)))
        return 0;
    if (gg_nvrtc_compile(k->cfg->nvrtc, src, arch, true, opts, 2, img, len,
                         why, err))
        return -1;
    gg_atomic_file af;
    gg_err ignored;
    if (k->cache && !gg_atomic_open(path, &af, &ignored) &&
        !gg_atomic_write(&af, *img, *len, &ignored))
        gg_atomic_commit(&af, &ignored); /* a miss next time at worst */
    return 0;
}

static int load_module(gg_cuda3d *k, const void *img, gg_err *err)
{
    char log[1024] = "";
    int opt[2] = {GG_CU_JIT_ERROR_LOG_BUFFER,
                  GG_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(size_t)sizeof log};
    CUresult r = k->cu.cuModuleLoadDataEx(&k->mod, img, 2, opt, val);
    if (r) {
        k->mod = NULL;
        return gg_fail(err, "the CUDA driver refused the 3D kernel module "
                       "(error %d): %.400s", r, log);
    }
    return cu_check(k, k->cu.cuModuleGetFunction(&k->plain, k->mod,
                                                 "gg3d_step_plain"),
                    "gg3d_step_plain", err) ||
           cu_check(k, k->cu.cuModuleGetFunction(&k->general, k->mod,
                                                 "gg3d_step_general"),
                    "gg3d_step_general", err) ||
           cu_check(k, k->cu.cuFuncGetAttribute(&k->regs,
                                                GG_CU_FUNC_NUM_REGS,
                                                k->plain),
                    "cuFuncGetAttribute", err) ||
           cu_check(k, k->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                           &k->resident, k->plain, THREADS, 0),
                    "occupancy query", err);
}

static int build(gg_cuda3d *k, gg_fail_kind *why, gg_err *err)
{
    char *src = NULL, *img = NULL;
    size_t len = 0;
    *why = GG_FAIL_ENV;
    int rc = gg_cuda3d_source(&k->rule, k->o.final, &src, &len, k->source,
                              sizeof k->source, &k->gates, err);
    if (!rc)
        rc = cubin_for(k, src, &img, &len, why, err);
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

/* gens launches from buf[*cur], one generation each, unsynchronized. */
static int launch(gg_cuda3d *k, const gg_grid3d *g, bool torus,
                  int64_t gens, int *cur, gg_err *err)
{
    unsigned blocks, bx, by;
    geom3 s = shape_for(k, g, torus, &blocks, &bx, &by);
    /* the plain kernel's in-plane word offsets are 32-bit */
    bool plain = torus && g->sx % 32 == 0 &&
                 (uint64_t)g->sy * (uint64_t)s.stride <= UINT32_MAX;
    CUfunction f = plain ? k->plain : k->general;
    snprintf(k->shape, sizeof k->shape, "%s, %d rows x %d planes per "
             "thread, %ux%u threads per block, %d registers",
             plain ? "plain" : "general", k->ty, s.slab, bx, by, k->regs);
    for (int64_t n = 0; n < gens; n++) {
        void *args[] = {&k->buf[*cur], &k->buf[1 - *cur], &s};
        if (cu_check(k, k->cu.cuLaunchKernel(f, blocks, 1, 1, bx, by, 1, 0,
                                             NULL, args, NULL),
                     "3D kernel launch", err))
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

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
 * slabs of 1-3 planes (partial slabs, each turn of the plane ring); 3
 * generations each. */
static const int64_t vsizes[][5] = {
    /* sx, sy, sz, torus, slab (0: the launch shape's) */
    {67, 5, 7, 1, 0},  {67, 5, 7, 0, 3},  {64, 3, 4, 1, 3},
    {130, 9, 3, 0, 0}, {129, 4, 5, 1, 2}, {3, 3, 3, 1, 0},
    {1, 2, 3, 1, 0},   {5, 1, 1, 0, 0},   {2, 6, 2, 1, 1},
    {33, 7, 6, 0, 2},  {32, 5, 7, 1, 2},  {96, 11, 8, 1, 3},
    {31, 9, 10, 1, 4}, {64, 8, 9, 0, 3},
};

static int validate_one(gg_cuda3d *k, size_t s, bool *bad, gg_err *err)
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
    int rc = gg_ref3d_run(&k->rule, torus, &a, 3, err);
    if (!rc)
        rc = gg_cuda3d_run(k, &b, torus, 3, err);
    k->slab_force = 0;
    int64_t x, y, z;
    if (!rc && gg_grid3d_first_diff(&a, &b, &x, &y, &z)) {
        char rs[256];
        gg_rule3d_format_transition(&k->rule, rs, sizeof rs);
        *bad = true;
        rc = gg_fail(err, "the cuda kernel for %s disagrees with the 3D "
                     "reference on a %lldx%lldx%lld %s soup after 3 "
                     "generations at cell (%lld,%lld,%lld); the kernel is "
                     "not used", rs, (long long)vsizes[s][0],
                     (long long)vsizes[s][1], (long long)vsizes[s][2],
                     torus ? "torus" : "box", (long long)x, (long long)y,
                     (long long)z);
    }
    gg_grid3d_free(&a);
    gg_grid3d_free(&b);
    return rc;
}

static int validate(gg_cuda3d *k, gg_fail_kind *why, gg_err *err)
{
    for (size_t s = 0; s < sizeof vsizes / sizeof vsizes[0]; s++) {
        bool bad = false;
        if (validate_one(k, s, &bad, err)) {
            *why = bad ? GG_FAIL_INVALID : GG_FAIL_ENV;
            return -1;
        }
    }
    k->shape[0] = 0;
    return 0;
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

static int table_open(const gg_rule3d *rule, const gg_backend_opts *o,
                      void **state, gg_fail_kind *why, gg_err *err)
{
    gg_cuda3d_opts co = {.config = o->config, .device = o->device,
                         .slab = o->slab3d, .ty = o->ty3d};
    return gg_cuda3d_open(rule, &co, (gg_cuda3d **)state, why, err);
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

const gg_backend3d_info gg_backend3d_cuda = {
    .open = table_open,
    .step_until = table_step_until,
    .timed_step = table_timed,
    .describe = table_describe,
    .close = table_close,
};
