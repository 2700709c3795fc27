#include "cuda_ltl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"
#include "cuda_device.h"
#include "emit_ltl_cuda.h"
#include "reference_ltl.h"
#include "validate_ltl.h"

enum {
    HSUM_OUT = 1024,   /* outputs of a gg_ltl_hsum block (the template's TW) */
    HSUM_THREADS = 256, /* its threads (HB) */
    WALK_THREADS = 128, /* threads of a block of the walking kernels */
    GRID_Y_MAX = 65535, /* the kernels loop past it */
    STOP_EVERY = 32,   /* generations between looks at the stop flag */
};

struct gg_cuda_ltl {
    gg_ltl_rule rule;
    bool ptx, hit;
    gg_cu_device d;
    bool opened; /* d holds the driver and a retained context */
    CUmodule mod;
    CUfunction hsum, vstep, diag, dstep, abi;
    int64_t w, h;        /* the grid the buffers below are for */
    CUdeviceptr cells[2]; /* this generation's and the next */
    CUdeviceptr s1, s2;   /* NM: the row sums; NN: the two classes' T */
};

int gg_cuda_ltl_compile(const char *src, const char *nvrtc, bool ptx,
                        const char *arch, char **img, size_t *len,
                        gg_fail_kind *why, gg_err *err)
{
    return gg_nvrtc_compile(nvrtc, src, arch, !ptx, NULL, 0, img, len, why,
                            err);
}

static int cu(gg_cuda_ltl *k, CUresult r, const char *what, gg_err *err)
{
    return gg_cu_check(&k->d.cu, r, what, err);
}

static int load(gg_cuda_ltl *k, const char *img, gg_err *err)
{
    static const char *const names[] = {"gg_ltl_hsum", "gg_ltl_vstep",
                                        "gg_ltl_diag", "gg_ltl_dstep",
                                        "gg_ltl_abi"};
    CUfunction *const fn[] = {&k->hsum, &k->vstep, &k->diag, &k->dstep,
                              &k->abi};
    return gg_cu_load_module(&k->d.cu, &k->mod, img,
                             "Larger than Life kernel", names, fn, 5, err);
}

/* The kernel's own account of its ABI, R, C and neighbourhood. */
static int check_abi(gg_cuda_ltl *k, gg_err *err)
{
    CUdeviceptr m = 0;
    int got[4] = {0, 0, 0, 0};
    void *args[] = {&m};
    int bad = cu(k, k->d.cu.cuMemAlloc(&m, sizeof got), "cuMemAlloc", err) ||
              cu(k, k->d.cu.cuLaunchKernel(k->abi, 1, 1, 1, 1, 1, 1, 0, NULL,
                                           args, NULL),
                 "gg_ltl_abi launch", err) ||
              cu(k, k->d.cu.cuMemcpyDtoH(got, m, sizeof got), "ABI read",
                 err);
    if (m)
        k->d.cu.cuMemFree(m);
    if (bad)
        return -1;
    if (got[0] != 1 || got[1] != k->rule.range || got[2] != k->rule.states ||
        got[3] != k->rule.nbhd)
        return gg_fail(err, "the CUDA Larger than Life kernel has ABI %d, "
                       "R%d, C%d, N%c; expected ABI 1 and the rule's R%d, "
                       "C%d, N%c", got[0], got[1], got[2], got[3],
                       k->rule.range, k->rule.states, k->rule.nbhd);
    return 0;
}

static void free_buffers(gg_cuda_ltl *k)
{
    CUdeviceptr *p[] = {&k->cells[0], &k->cells[1], &k->s1, &k->s2};
    for (int i = 0; i < 4; i++) {
        if (*p[i])
            k->d.cu.cuMemFree(*p[i]);
        *p[i] = 0;
    }
    k->w = k->h = 0;
}

/* NN's T arrays have a margin of (R+1)/2+1 cells on every side (the
 * template's GG_MARGIN). */
static int64_t margin(const gg_cuda_ltl *k)
{
    return k->rule.nbhd == 'N' ? (k->rule.range + 1) / 2 + 1 : 0;
}

static int prepare(gg_cuda_ltl *k, int64_t w, int64_t h, gg_err *err)
{
    if (w < 1 || h < 1 || w > (1 << 30) || h > (1 << 30))
        return gg_fail(err, "the CUDA Larger than Life kernel takes sides "
                       "of 1..2^30 cells, not %lldx%lld", (long long)w,
                       (long long)h);
    if (k->cells[0] && w == k->w && h == k->h)
        return 0;
    free_buffers(k);
    int64_t m = margin(k);
    size_t n = (size_t)w * (size_t)h,
           sums = (size_t)(w + 2 * m) * (size_t)(h + 2 * m) * 2;
    if (cu(k, k->d.cu.cuMemAlloc(&k->cells[0], n), "cuMemAlloc", err) ||
        cu(k, k->d.cu.cuMemAlloc(&k->cells[1], n), "cuMemAlloc", err) ||
        cu(k, k->d.cu.cuMemAlloc(&k->s1, sums), "cuMemAlloc", err) ||
        (k->rule.nbhd == 'N' &&
         cu(k, k->d.cu.cuMemAlloc(&k->s2, sums), "cuMemAlloc", err))) {
        free_buffers(k);
        return -1;
    }
    k->w = w;
    k->h = h;
    return 0;
}

static unsigned blocks(int64_t n, int64_t per, int64_t max)
{
    int64_t b = (n + per - 1) / per;
    return (unsigned)(b < max ? b : max);
}

/* One generation from cells[cur] into cells[cur ^ 1], queued. */
static int launch(gg_cuda_ltl *k, int cur, int torus, int L, gg_err *err)
{
    int w = (int)k->w, h = (int)k->h;
    CUdeviceptr in = k->cells[cur], out = k->cells[cur ^ 1];
    if (k->rule.nbhd == 'M') {
        void *a1[] = {&in, &k->s1, &w, &h, &torus};
        void *a2[] = {&in, &k->s1, &out, &w, &h, &torus, &L};
        return cu(k, k->d.cu.cuLaunchKernel(
                         k->hsum, blocks(w, HSUM_OUT, 1u << 30),
                         blocks(h, 1, GRID_Y_MAX), 1, HSUM_THREADS, 1, 1, 0,
                         NULL, a1, NULL),
                  "gg_ltl_hsum launch", err) ||
               cu(k, k->d.cu.cuLaunchKernel(
                         k->vstep, blocks(w, WALK_THREADS, 1u << 30),
                         blocks(h, L, GRID_Y_MAX), 1, WALK_THREADS, 1, 1, 0,
                         NULL, a2, NULL),
                  "gg_ltl_vstep launch", err);
    }
    int64_t m = margin(k);
    void *a1[] = {&in, &k->s1, &k->s2, &w, &h, &torus, &L};
    void *a2[] = {&in, &k->s1, &k->s2, &out, &w, &h, &L};
    return cu(k, k->d.cu.cuLaunchKernel(
                     k->diag, blocks(w + 2 * m, WALK_THREADS, 1u << 30),
                     blocks(h + 2 * m, L, GRID_Y_MAX), 1, WALK_THREADS, 1, 1,
                     0, NULL, a1, NULL),
              "gg_ltl_diag launch", err) ||
           cu(k, k->d.cu.cuLaunchKernel(
                     k->dstep, blocks(w, WALK_THREADS, 1u << 30),
                     blocks(h, L, GRID_Y_MAX), 1, WALK_THREADS, 1, 1, 0,
                     NULL, a2, NULL),
              "gg_ltl_dstep launch", err);
}

int64_t gg_cuda_ltl_step(gg_cuda_ltl *k, uint8_t *cells, int64_t w,
                         int64_t h, bool torus, int64_t gens,
                         gg_stop_flag *stop, gg_err *err)
{
    if (gens <= 0)
        return 0;
    if (prepare(k, w, h, err))
        return -1;
    size_t n = (size_t)w * (size_t)h;
    if (cu(k, k->d.cu.cuMemcpyHtoD(k->cells[0], cells, n), "upload", err))
        return -1;
    /* A walk of L rows starts with a window of 2R+1 (NM) or about R
     * (NN) reads: twice that keeps the start within a third of a walk's
     * reads, but on a grid too small to give every multiprocessor 1024
     * walks the walks get shorter (a grid of 4096^2 at R100: 45K threads
     * of 402 rows ran at a third of the speed of 16384^2), and 64 rows
     * at least keep a small R's walks from being all start. */
    int64_t L = 2 * (2 * (int64_t)k->rule.range + 1),
            fill = (int64_t)n / ((int64_t)(k->d.sms > 0 ? k->d.sms : 1) * 1024);
    L = L > fill ? fill : L;
    L = L < 64 ? 64 : L;
    int cur = 0;
    int64_t done = 0;
    while (done < gens) {
        if (launch(k, cur, torus, (int)L, err))
            return -1;
        cur ^= 1;
        done++;
        if (stop && done % STOP_EVERY == 0) {
            if (cu(k, k->d.cu.cuCtxSynchronize(), "synchronize", err))
                return -1;
            if (gg_stop_asked(stop))
                break;
        }
    }
    if (cu(k, k->d.cu.cuMemcpyDtoH(cells, k->cells[cur], n), "download",
           err))
        return -1;
    return done;
}

static int validation_step(void *ctx, uint8_t *cells, int64_t w, int64_t h,
                           bool torus, int gens, gg_err *err)
{
    return gg_cuda_ltl_step(ctx, cells, w, h, torus, gens, NULL, err) ==
                   gens
               ? 0
               : -1;
}

/* Grids small and large (past a hsum block's 1024 columns and several
 * strips of rows, sides below 2R that wrap more than once, a single
 * column), both topologies, odd and even generation counts. */
static int validate(gg_cuda_ltl *k, gg_err *err)
{
    static const gg_ltl_case cases[] = {
        {37, 23, 1, 3, 50, 0},   {23, 37, 0, 2, 40, 0},
        {130, 67, 1, 2, 30, 0},  {67, 130, 0, 3, 50, 0},
        {600, 530, 1, 1, 45, 0}, {530, 600, 0, 2, 20, 0},
        {64, 64, 1, 2, 60, 0},   {1, 9, 1, 1, 50, 0},
        {9, 1, 0, 2, 50, 0},     {2100, 300, 1, 2, 45, 0},
        {300, 1100, 0, 3, 40, 0},
    };
    int bad = gg_validate_ltl(&k->rule, cases, sizeof cases / sizeof *cases,
                              0x5eed1f2e3d4c5b6aull, validation_step, k,
                              k->ptx ? "ptx" : "CUDA", err);
    free_buffers(k); /* the first real grid sizes them afresh */
    return bad;
}

int gg_cuda_ltl_open(const gg_ltl_rule *rule, const gg_cuda_ltl_opts *o,
                     gg_cuda_ltl **out, gg_fail_kind *why, gg_err *err)
{
    static const gg_cuda_ltl_opts defaults;
    char *src = NULL, *img = NULL;
    size_t len;
    *out = NULL;
    *why = GG_FAIL_INPUT; /* NC, which has no kernel here */
    o = o ? o : &defaults;
    if (gg_ltl_emit_cuda(rule, &src, &len, err))
        return -1;
    *why = GG_FAIL_ENV;
    gg_cuda_ltl *k = gg_alloc(1, sizeof *k, err, "CUDA Larger than Life "
                              "kernel");
    if (!k) {
        free(src);
        return -1;
    }
    k->rule = *rule;
    k->ptx = o->ptx;
    int bad = gg_cu_device_open(&k->d, o->device, err);
    k->opened = !bad;
    if (!bad)
        bad = gg_nvrtc_image(o->config, "ltl", src, k->d.cc, k->ptx, &img,
                             &len, &k->hit, why, err) ||
              load(k, img, err);
    if (!bad) {
        *why = GG_FAIL_INVALID;
        bad = check_abi(k, err) || validate(k, err);
    }
    free(src);
    free(img);
    if (bad) {
        gg_cuda_ltl_close(k);
        return -1;
    }
    *out = k;
    return 0;
}

const char *gg_cuda_ltl_device(const gg_cuda_ltl *k) { return k->d.name; }

bool gg_cuda_ltl_cache_hit(const gg_cuda_ltl *k) { return k->hit; }

void gg_cuda_ltl_close(gg_cuda_ltl *k)
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
