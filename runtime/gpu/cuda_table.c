#include "cuda_table.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"
#include "cuda_device.h"
#include "gpu_tune.h"
#include "rule_gen.h"
#include "rulefile_emit.h"
#include "validate_table.h"

struct gg_cuda_tk {
    const gg_rulefile *rf;
    int np, nin;
    bool ptx, hit;
    gg_cu_device d;
    bool opened; /* d holds the driver and a retained context */
    CUmodule mod;
    CUfunction step, eval, abi;
    gg_gpu_table_geom geom; /* of the buffers below */
    CUdeviceptr buf[2];
    uint32_t *host;
};

int gg_cuda_tk_compile(const char *src, const char *nvrtc, bool ptx,
                          const char *arch, char **img, size_t *len,
                          gg_fail_kind *why, gg_err *err)
{
    /* -O3 is NVRTC's default; the eval function is straight-line code
     * with one branch a graph node, which NVVM keeps in registers */
    return gg_nvrtc_compile(nvrtc, src, arch, !ptx, NULL, 0, img, len, why,
                            err);
}

static int cu(gg_cuda_tk *k, CUresult r, const char *what, gg_err *err)
{
    return gg_cu_check(&k->d.cu, r, what, err);
}

static int load(gg_cuda_tk *k, const char *img, gg_err *err)
{
    static const char *const names[] = {"gg_table_step", "gg_table_eval_k",
                                        "gg_table_abi"};
    CUfunction *const fn[] = {&k->step, &k->eval, &k->abi};
    return gg_cu_load_module(&k->d.cu, &k->mod, img, "table kernel", names,
                             fn, 3, err);
}

/* The kernel's own account of its planes and inputs against the rule's. */
static int check_abi(gg_cuda_tk *k, gg_err *err)
{
    CUdeviceptr m = 0;
    int got[3] = {0, 0, 0};
    void *args[] = {&m};
    int bad = cu(k, k->d.cu.cuMemAlloc(&m, sizeof got), "cuMemAlloc", err) ||
              cu(k, k->d.cu.cuLaunchKernel(k->abi, 1, 1, 1, 1, 1, 1, 0, NULL,
                                           args, NULL),
                 "gg_table_abi launch", err) ||
              cu(k, k->d.cu.cuMemcpyDtoH(got, m, sizeof got), "ABI read",
                 err);
    if (m)
        k->d.cu.cuMemFree(m);
    if (bad)
        return -1;
    if (got[0] != 1 || got[1] != k->np || got[2] != k->nin)
        return gg_fail(err, "the CUDA table kernel has ABI %d, %d planes "
                       "and %d inputs; expected ABI 1 and the rule's %d "
                       "and %d", got[0], got[1], got[2], k->np, k->nin);
    return 0;
}

static void free_buffers(gg_cuda_tk *k)
{
    for (int i = 0; i < 2; i++)
        if (k->buf[i])
            k->d.cu.cuMemFree(k->buf[i]);
    k->buf[0] = k->buf[1] = 0;
    free(k->host);
    k->host = NULL;
}

static int prepare(gg_cuda_tk *k, const gg_gen_cells *cells, gg_err *err)
{
    gg_gpu_table_geom g;
    if (gg_gpu_table_geom_init(&g, cells, k->np, err))
        return -1;
    if (g.height > 4 * 65535) /* blocks of 4 rows, gridDim.y <= 65535 */
        return gg_fail(err, "the CUDA table kernel takes at most %d rows "
                       "(the grid has %d)", 4 * 65535, g.height);
    if (k->host && g.width == k->geom.width && g.height == k->geom.height)
        return 0;
    free_buffers(k);
    k->geom = g;
    size_t bytes = gg_gpu_table_bytes(&g);
    k->host = gg_alloc(1, bytes, err, "CUDA staging buffer");
    if (!k->host)
        return -1;
    for (int i = 0; i < 2; i++)
        if (cu(k, k->d.cu.cuMemAlloc(&k->buf[i], bytes), "cuMemAlloc",
               err)) {
            free_buffers(k);
            return -1;
        }
    return 0;
}

int gg_cuda_tk_step(gg_cuda_tk *k, gg_topo topo, gg_gen_cells *cells,
                       int64_t gens, gg_err *err)
{
    if (gens <= 0)
        return 0;
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the CUDA table kernel needs a torus or a "
                       "bounded plane");
    if (prepare(k, cells, err))
        return -1;
    gg_gpu_table_geom *g = &k->geom;
    size_t bytes = gg_gpu_table_bytes(g);
    gg_gpu_table_pack(cells, g, k->host);
    if (cu(k, k->d.cu.cuMemcpyHtoD(k->buf[0], k->host, bytes), "upload",
           err))
        return -1;
    int cur = 0, torus = topo == GG_TOPO_TORUS;
    long long pw = g->pw;
    /* blocks of 32 words by 4 rows; the kernel skips what lies past */
    unsigned gx = (unsigned)((g->nw + 31) / 32),
             gy = (unsigned)((g->height + 3) / 4);
    for (int64_t n = 0; n < gens; n++, cur ^= 1) {
        void *args[] = {&k->buf[cur], &k->buf[cur ^ 1], &g->width,
                        &g->height, &g->nw, &pw, &torus};
        if (cu(k, k->d.cu.cuLaunchKernel(k->step, gx, gy, 1, 32, 4, 1, 0,
                                         NULL, args, NULL),
               "gg_table_step launch", err))
            return -1;
    }
    if (cu(k, k->d.cu.cuMemcpyDtoH(k->host, k->buf[cur], bytes), "download",
           err))
        return -1;
    gg_gpu_table_unpack(k->host, g, cells);
    return 0;
}

int gg_cuda_tk_step_cb(void *ctx, gg_topo topo, gg_gen_cells *cells,
                          int64_t gens, gg_err *err)
{
    return gg_cuda_tk_step(ctx, topo, cells, gens, err);
}

/* Validation's eval: n words of 64 cells as 2n of 32, one launch. */
static int eval_words(void *ctx, const uint64_t *x, uint64_t *o, int64_t n,
                      gg_err *err)
{
    gg_cuda_tk *k = ctx;
    int per = k->nin * k->np, items = (int)(2 * n);
    size_t xb = (size_t)items * (size_t)per * 4,
           ob = (size_t)items * (size_t)k->np * 4;
    uint32_t *x32 = malloc(xb), *o32 = malloc(ob);
    CUdeviceptr mx = 0, mo = 0;
    int bad = !x32 || !o32
                  ? gg_fail(err, "out of memory for the kernel's checks")
                  : 0;
    if (!bad) {
        gg_gpu_table_split(x, n, per, x32);
        void *args[] = {&mx, &mo, &items};
        bad = cu(k, k->d.cu.cuMemAlloc(&mx, xb), "cuMemAlloc", err) ||
              cu(k, k->d.cu.cuMemAlloc(&mo, ob), "cuMemAlloc", err) ||
              cu(k, k->d.cu.cuMemcpyHtoD(mx, x32, xb), "upload", err) ||
              cu(k, k->d.cu.cuLaunchKernel(k->eval,
                                           (unsigned)((items + 63) / 64), 1,
                                           1, 64, 1, 1, 0, NULL, args, NULL),
                 "gg_table_eval_k launch", err) ||
              cu(k, k->d.cu.cuMemcpyDtoH(o32, mo, ob), "download", err);
    }
    if (!bad)
        gg_gpu_table_join(o32, n, k->np, o);
    if (mx)
        k->d.cu.cuMemFree(mx);
    if (mo)
        k->d.cu.cuMemFree(mo);
    free(x32);
    free(o32);
    return bad ? -1 : 0;
}

int gg_cuda_tk_open(const gg_rulefile *rf, const char *name, bool ptx,
                       const gg_gpu_table_opts *o, gg_cuda_tk **out,
                       gg_fail_kind *why, gg_err *err)
{
    char *src = NULL, *img = NULL;
    size_t len;
    *out = NULL;
    *why = GG_FAIL_INPUT; /* too large to compile */
    if (gg_rulefile_emit_gpu(rf, name, GG_RF_GPU_CUDA, o ? o->max_terms : 0,
                             &src, &len, NULL, err))
        return -1;
    *why = GG_FAIL_ENV;
    gg_cuda_tk *k = gg_alloc(1, sizeof *k, err, "CUDA table kernel");
    if (!k) {
        free(src);
        return -1;
    }
    k->rf = rf;
    k->np = gg_gen_planes(rf->n_states);
    k->nin = rf->n_inputs;
    k->ptx = ptx;
    int bad = gg_cu_device_open(&k->d, o ? o->device : 0, err);
    k->opened = !bad;
    if (!bad)
        bad = gg_nvrtc_image(o ? o->config : NULL, "table", src, k->d.cc,
                             k->ptx, &img, &len, &k->hit, why, err) ||
              load(k, img, err);
    if (!bad) {
        *why = GG_FAIL_INVALID;
        bad = check_abi(k, err) ||
              gg_validate_table(rf, eval_words, gg_cuda_tk_step_cb, k,
                                ptx ? "the ptx table kernel (CUDA C to PTX)"
                                    : "the CUDA table kernel",
                                0x7ab1e, err);
    }
    free(src);
    free(img);
    if (bad) {
        gg_cuda_tk_close(k);
        return -1;
    }
    *out = k;
    return 0;
}

const char *gg_cuda_tk_device(const gg_cuda_tk *k)
{
    return k->d.name;
}

bool gg_cuda_tk_cache_hit(const gg_cuda_tk *k) { return k->hit; }

void gg_cuda_tk_close(gg_cuda_tk *k)
{
    if (!k)
        return;
    if (k->opened) {
        free_buffers(k);
        if (k->mod)
            k->d.cu.cuModuleUnload(k->mod);
    }
    if (k->d.ctx)
        k->d.cu.cuDevicePrimaryCtxRelease(k->d.dev);
    if (k->d.cu.lib)
        dlclose(k->d.cu.lib);
    free(k);
}

static void close_kernel(void *ctx) { gg_cuda_tk_close(ctx); }

static int open_kernel(const gg_rulefile *rf, const char *name, bool ptx,
                       const gg_backend_opts *o, gg_table_kernel *k,
                       gg_fail_kind *why, gg_err *err)
{
    gg_gpu_table_opts go = {.config = o->config, .device = o->device};
    gg_cuda_tk *c;
    if (gg_cuda_tk_open(rf, name, ptx, &go, &c, why, err))
        return -1;
    snprintf(k->what, sizeof k->what, "%s on %s%s", ptx ? "ptx" : "cuda",
             gg_cuda_tk_device(c),
             gg_cuda_tk_cache_hit(c) ? ", cached kernel" : "");
    k->ctx = c;
    k->step = gg_cuda_tk_step_cb;
    k->close = close_kernel;
    return 0;
}

int gg_cuda_tk_open_cubin(const gg_rulefile *rf, const char *name,
                          const gg_backend_opts *o, gg_table_kernel *k,
                          gg_fail_kind *why, gg_err *err)
{
    return open_kernel(rf, name, false, o, k, why, err);
}

int gg_cuda_tk_open_ptx(const gg_rulefile *rf, const char *name,
                        const gg_backend_opts *o, gg_table_kernel *k,
                        gg_fail_kind *why, gg_err *err)
{
    return open_kernel(rf, name, true, o, k, why, err);
}
