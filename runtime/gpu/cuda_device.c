#include "cuda_device.h"

#include <dlfcn.h>
#include <stdio.h>
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

int gg_cu_device_open(gg_cu_device *d, int ordinal, gg_err *err)
{
    int n = 0;
    if (load_driver(&d->cu, err))
        return -1;
    const gg_cu_api *cu = &d->cu;
    CUresult r = cu->cuInit(0);
    if (r == GG_CUDA_ERROR_NO_DEVICE ||
        (!r && !cu->cuDeviceGetCount(&n) && n == 0))
        return gg_fail(err, "no CUDA GPU found (the driver is installed but "
                       "sees no device)");
    if (gg_cu_check(cu, r, "cuInit", err))
        return -1;
    if (ordinal < 0 || ordinal >= n)
        return gg_fail(err, "CUDA device %d does not exist (%d found)",
                       ordinal, n);
    return gg_cu_check(cu, cu->cuDeviceGet(&d->dev, ordinal),
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
