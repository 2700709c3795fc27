#include "cuda_device.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *gg_cu_open_first(const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        void *h = names[i] ? dlopen(names[i], RTLD_NOW | RTLD_LOCAL) : NULL;
        if (h)
            return h;
    }
    return NULL;
}

/* memcpy keeps the stores free of aliasing assumptions */
const char *gg_cu_resolve(void *lib, const char *const *names, void *base,
                            int n)
{
    for (int i = 0; i < n; i++) {
        void *f = dlsym(lib, names[i]);
        if (!f)
            return names[i];
        memcpy((char *)base + (size_t)i * sizeof f, &f, sizeof f);
    }
    return NULL;
}

static int load_driver(gg_cu_api *cu, gg_err *err)
{
    static const char *const libs[] = {"libcuda.so.1", "libcuda.so"};
    static const char *const names[] = {
        "cuInit", "cuDriverGetVersion", "cuDeviceGetCount", "cuDeviceGet",
        "cuDeviceGetName", "cuDeviceGetAttribute",
        "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease_v2",
        "cuCtxSetCurrent", "cuCtxSynchronize", "cuModuleLoadDataEx",
        "cuModuleUnload", "cuModuleGetFunction", "cuFuncGetAttribute",
        "cuOccupancyMaxActiveBlocksPerMultiprocessor", "cuMemAlloc_v2",
        "cuMemFree_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2",
        "cuMemcpyDtoD_v2", "cuMemsetD8_v2", "cuLaunchKernel",
        "cuGetErrorString", "cuMemcpyDtoDAsync_v2", "cuMemcpy2DAsync_v2",
        "cuMemsetD8Async", "cuStreamCreate", "cuStreamDestroy_v2",
        "cuStreamSynchronize", "cuMemAllocHost_v2", "cuMemFreeHost",
        "cuEventCreate", "cuEventRecord", "cuEventSynchronize",
        "cuEventDestroy_v2", "cuDeviceCanAccessPeer",
        "cuCtxEnablePeerAccess", "cuMemcpyPeer", "cuMemcpyPeerAsync",
        "cuStreamWaitEvent"};
    memset(cu, 0, sizeof *cu);
    cu->lib = gg_cu_open_first(libs, 2);
    if (!cu->lib)
        return gg_fail(err, "no CUDA driver (libcuda.so.1 not found): this "
                       "machine has no NVIDIA GPU or driver");
    /* the struct's pointers follow `lib` in the order of names */
    const char *miss = gg_cu_resolve(cu->lib, names, &cu->cuInit,
                                       (int)(sizeof names / sizeof *names));
    if (miss)
        return gg_fail(err, "the CUDA driver lacks %s (too old?)", miss);
    return 0;
}

int gg_cu_check(const gg_cu_api *cu, CUresult r, const char *what,
                  gg_err *err)
{
    if (r == GG_CUDA_SUCCESS)
        return 0;
    const char *s = NULL;
    if (cu->cuGetErrorString)
        cu->cuGetErrorString(r, &s);
    return gg_fail(err, "CUDA %s failed: %s (error %d)", what,
                   s ? s : "unknown error", r);
}

int gg_cu_load_module(const gg_cu_api *cu, CUmodule *mod, const void *img,
                      const char *what, const char *const *names,
                      CUfunction *const *fns, int n, gg_err *err)
{
    char log[1024] = "";
    int opt[2] = {GG_CU_JIT_ERROR_LOG_BUFFER,
                  GG_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(size_t)sizeof log};
    CUresult r = cu->cuModuleLoadDataEx(mod, img, 2, opt, val);
    if (r) {
        *mod = NULL;
        return gg_fail(err, "the CUDA driver refused the %s (error %d): "
                       "%.400s", what, r, log);
    }
    for (int i = 0; i < n; i++)
        if (gg_cu_check(cu, cu->cuModuleGetFunction(fns[i], *mod, names[i]),
                        names[i], err)) {
            cu->cuModuleUnload(*mod);
            *mod = NULL;
            return -1;
        }
    return 0;
}

/* Name, multiprocessors and compute capability, for messages and launch
 * sizes. */
static int describe(gg_cu_device *d, gg_err *err)
{
    const gg_cu_api *cu = &d->cu;
    int major = 0, minor = 0;
    if (gg_cu_check(cu, cu->cuDeviceGetName(d->name, 128, d->dev),
                      "cuDeviceGetName", err) ||
        gg_cu_check(cu, cu->cuDeviceGetAttribute(&d->sms,
                                                   GG_CU_ATTR_SM_COUNT,
                                                   d->dev),
                      "attribute", err) ||
        gg_cu_check(cu, cu->cuDeviceGetAttribute(&major,
                                                   GG_CU_ATTR_CC_MAJOR,
                                                   d->dev),
                      "attribute", err) ||
        gg_cu_check(cu, cu->cuDeviceGetAttribute(&minor,
                                                   GG_CU_ATTR_CC_MINOR,
                                                   d->dev),
                      "attribute", err))
        return -1;
    d->cc = major * 10 + minor;
    size_t l = strlen(d->name);
    snprintf(d->name + l, sizeof d->name - l, " (sm_%d, %d SMs)", d->cc,
             d->sms);
    return 0;
}

/* ---- the devices a process will use ----
 *
 * cuInit sets up every GPU the process can see: on an H200 host of four
 * (gVisor, driver 580) it took 0.55-1.05 s with all four visible, 0.29 s
 * with two and 0.19 s with one (BENCHMARKS.md, session 28), more than a
 * context (0.12 s) and the run's module load together. So a caller that
 * knows which devices it will open (the command's --devices) plans them,
 * and the process's first cuInit, when CUDA_VISIBLE_DEVICES is not set,
 * sees only those: the variable lists them in ascending order, and a
 * planned ordinal becomes its place in that list. The driver reads the
 * variable at its first initialization only, and the list stops at an
 * ordinal that does not exist; so the places are taken only when this
 * layer had not initialized the driver before and the driver then sees
 * no more devices than were planned (those that exist are the list's
 * first ones). Otherwise, or with no plan, ordinals are the driver's. */
static struct {
    pthread_mutex_t mu;
    bool inited;    /* cuInit called (by this layer) */
    bool narrowed;  /* the first cuInit saw the planned devices alone */
    int n, found;   /* planned ordinals; devices the driver then saw */
    int list[GG_CU_MAX_PLAN]; /* ascending, distinct */
} plan = {.mu = PTHREAD_MUTEX_INITIALIZER};

void gg_cu_plan_devices(const int *ordinal, int n)
{
    pthread_mutex_lock(&plan.mu);
    if (!plan.inited) {
        plan.n = 0;
        for (int i = 0; i < n; i++) {
            int v = ordinal[i], k = plan.n;
            bool have = v < 0;
            for (int j = 0; j < plan.n && !have; j++)
                have = plan.list[j] == v;
            if (have || plan.n == GG_CU_MAX_PLAN)
                continue;
            while (k > 0 && plan.list[k - 1] > v) { /* insertion sort */
                plan.list[k] = plan.list[k - 1];
                k--;
            }
            plan.list[k] = v;
            plan.n++;
        }
    }
    pthread_mutex_unlock(&plan.mu);
}

/* cuInit, the first time with the plan's devices alone where it can be. */
static CUresult init_driver(const gg_cu_api *cu)
{
    pthread_mutex_lock(&plan.mu);
    bool first = !plan.inited, narrow = false;
    char list[GG_CU_MAX_PLAN * 4] = "";
    if (first && plan.n > 0 && !getenv("CUDA_VISIBLE_DEVICES")) {
        size_t len = 0;
        for (int i = 0; i < plan.n && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d",
                                    i ? "," : "", plan.list[i]);
        narrow = len < sizeof list &&
                 setenv("CUDA_VISIBLE_DEVICES", list, 1) == 0;
    }
    CUresult r = cu->cuInit(0);
    if (first) {
        int n = 0;
        plan.inited = true;
        plan.narrowed = narrow && !r && !cu->cuDeviceGetCount(&n) &&
                        n <= plan.n;
        plan.found = n;
    }
    pthread_mutex_unlock(&plan.mu);
    return r;
}

/* The driver's ordinal of planned device `ordinal` (itself when the
 * first cuInit did not narrow); -1 when that device does not exist. */
static int driver_ordinal(int ordinal, int n)
{
    pthread_mutex_lock(&plan.mu);
    int at = plan.narrowed ? -1 : ordinal;
    for (int i = 0; plan.narrowed && i < plan.n; i++)
        if (plan.list[i] == ordinal)
            at = i < plan.found ? i : -1;
    pthread_mutex_unlock(&plan.mu);
    return at >= 0 && at < n ? at : -1;
}

int gg_cu_device_open(gg_cu_device *d, int ordinal, gg_err *err)
{
    int n = 0;
    if (load_driver(&d->cu, err))
        return -1;
    const gg_cu_api *cu = &d->cu;
    CUresult r = init_driver(cu);
    if (r == GG_CUDA_ERROR_NO_DEVICE ||
        (!r && !cu->cuDeviceGetCount(&n) && n == 0))
        return gg_fail(err, "no CUDA GPU found (the driver is installed but "
                       "sees no device)");
    if (gg_cu_check(cu, r, "cuInit", err))
        return -1;
    int at = ordinal < 0 ? -1 : driver_ordinal(ordinal, n);
    if (at < 0)
        return gg_fail(err, "CUDA device %d does not exist (%d found%s)",
                       ordinal, n,
                       plan.narrowed ? " among the devices asked for" : "");
    return gg_cu_check(cu, cu->cuDeviceGet(&d->dev, at),
                         "cuDeviceGet", err) ||
                   gg_cu_check(cu,
                                 cu->cuDevicePrimaryCtxRetain(&d->ctx, d->dev),
                                 "context creation", err) ||
                   gg_cu_check(cu, cu->cuCtxSetCurrent(d->ctx),
                                 "cuCtxSetCurrent", err) ||
                   describe(d, err)
               ? -1
               : 0;
}
